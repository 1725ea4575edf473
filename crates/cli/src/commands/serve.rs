//! `asamblea serve` and `asamblea demo`: the daemon on a meeting, its
//! limits, the kiosks' revocation list reloaded on SIGHUP, and a clean
//! stop on SIGINT or SIGTERM.

use super::simulate::check_in_proxy;
use super::*;

/// Resolves on Ctrl-C or SIGTERM. On Unix the handlers are registered
/// when this is called, not when the future is first awaited: the daemon calls it
/// before it prints that it is serving, so a signal sent the moment the
/// address appears never meets the default action (which ends the process
/// on the spot, without flushing).
#[cfg(unix)]
fn shutdown_signal() -> Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut interrupt =
        signal(SignalKind::interrupt()).context("no se puede atender SIGINT / cannot handle SIGINT")?;
    let mut terminate =
        signal(SignalKind::terminate()).context("no se puede atender SIGTERM / cannot handle SIGTERM")?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {},
            _ = terminate.recv() => {},
        }
    })
}

#[cfg(not(unix))]
fn shutdown_signal() -> Result<impl std::future::Future<Output = ()>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}

/// Re-reads the kiosk revocations on SIGHUP (`asamblea kiosk DIR ID
/// --revoke` writes them; `kill -HUP` applies them to a running daemon).
/// The handler is registered before this returns (see [`shutdown_signal`]).
fn spawn_kiosk_reloader(kiosks: asamblea_pki::KioskRegistry) -> Result<tokio::task::JoinHandle<()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut hangups =
            signal(SignalKind::hangup()).context("no se puede atender SIGHUP / cannot handle SIGHUP")?;
        Ok(tokio::spawn(async move {
            while hangups.recv().await.is_some() {
                match kiosks.reload() {
                    Ok(reloaded) => {
                        // Every well-formed line is applied; a malformed
                        // one revokes nothing and is said loudly, each.
                        for line in &reloaded.malformed {
                            tracing::error!(error = %line, "una línea de tls/revoked-kiosks no es un identificador de quiosco y no revoca nada: corríjala y envíe SIGHUP de nuevo; las demás revocaciones ya rigen / a line of tls/revoked-kiosks is not a kiosk id and revokes nothing: fix it and send SIGHUP again; the other revocations already apply")
                        }
                        tracing::info!(
                            kiosks.revoked = reloaded.revoked,
                            lines.malformed = reloaded.malformed.len(),
                            "revocaciones de quioscos releídas / kiosk revocations reloaded"
                        )
                    }
                    Err(error) => {
                        tracing::error!(%error, "no se pudo leer tls/revoked-kiosks; siguen las revocaciones que ya regían. Revise el archivo y envíe SIGHUP de nuevo / cannot read tls/revoked-kiosks; the revocations in force stay. Check the file and send SIGHUP again")
                    }
                }
            }
        }))
    }
    #[cfg(not(unix))]
    {
        drop(kiosks);
        Ok(tokio::spawn(async {}))
    }
}

/// `asamblea serve DIR`: HTTPS only, until Ctrl-C or SIGTERM; then
/// in-flight requests finish and the ledger is flushed.
pub fn serve(
    dir: &Path,
    listen: &str,
    internet: &InternetListener,
    limits: &LimitOverrides,
    replication: &Replication,
    out: &mut dyn Write,
) -> Result<()> {
    let replica = replication
        .replica
        .iter()
        .map(|member| {
            member.parse::<std::net::SocketAddr>().map_err(|_| {
                anyhow::anyhow!(
                    "--replica: «{member}» no es DIRECCIÓN:PUERTO de un miembro de etcd (p. ej. 10.20.0.11:2379) / is not the ADDRESS:PORT of an etcd member"
                )
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let advertise = match (&replication.advertise, listen.parse::<std::net::SocketAddr>()) {
        (Some(address), _) => Some(address.clone()),
        (None, Ok(address)) if !address.ip().is_unspecified() && address.port() != 0 => {
            Some(listen.to_string())
        }
        _ => None,
    };
    if let Some(folder) = &replication.replica_tls {
        super::replica::use_tls(folder)?;
    } else if !replica.is_empty() {
        writeln!(
            out,
            "AVISO / WARNING: sin --replica-tls, el tráfico con etcd va sin cifrar por la red de la sede (docs/replication.md) / without --replica-tls, etcd traffic is unencrypted on the venue's network"
        )?;
    }
    let node = replication.node.as_deref().map(|name| Node { name, advertise: advertise.as_deref() });
    serve_locked(dir, MeetingLock::acquire_or_explain(dir)?, listen, internet, limits, (&replica, node), out)
}

/// A replicated meeting (`docs/replication.md`): the etcd members, this
/// node's name, and where the venue's browsers reach it.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Replication {
    /// Réplica: los miembros del clúster etcd (DIRECCIÓN:PUERTO,
    /// separados por comas); cada lote se confirma allí antes de dar
    /// recibo (docs/replication.md) / replica: the etcd cluster's
    /// members; each batch is confirmed there before any receipt.
    #[arg(long, value_name = "DIRECCIONES", value_delimiter = ',')]
    pub replica: Vec<String>,
    /// Con --replica: el nombre de este nodo; sirve solo mientras lidera,
    /// y en espera sigue la copia / with --replica: this node's name; it
    /// serves only while it leads, and follows the copy on standby.
    #[arg(long, value_name = "NOMBRE", requires = "replica")]
    pub node: Option<String>,
    /// Con --node: dónde lo alcanzan los navegadores de la sede
    /// (ANFITRIÓN:PUERTO; por omisión --listen, si no es 0.0.0.0): las
    /// consolas y el tablero abiertos en un nodo que cae siguen en el que
    /// lidera / with --node: where the venue's browsers reach this node
    /// (default --listen unless a wildcard): consoles and the board open
    /// at a node that dies go on at the one that leads.
    #[arg(long, value_name = "ANFITRIÓN:PUERTO", requires = "node")]
    pub advertise: Option<String>,
    /// Con --replica: la carpeta con ca.crt, client.crt y client.key de
    /// `asamblea etcd-tls`; habla TLS con etcd / with --replica: the folder
    /// with the nodes' etcd certificate; speaks TLS to etcd.
    #[arg(long, value_name = "CARPETA", requires = "replica")]
    pub replica_tls: Option<std::path::PathBuf>,
}

/// This node of a replicated meeting: its name, and its address for the
/// pages (none when it cannot be told).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<'a> {
    pub(crate) name: &'a str,
    pub(crate) advertise: Option<&'a str>,
}

/// The internet listener (`--public-listen` with the company's certificate
/// and key): the public board, the receipts' check and, in a mixed
/// meeting, the remote attendees' page, reachable from outside the venue;
/// the consoles, the staff's and the kiosks' routes stay on `--listen`
/// alone. See the README («Publicar en internet»).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct InternetListener {
    /// Dirección pública en la que escucha también, solo para el público /
    /// public address also listened on, for the public alone.
    #[arg(long, value_name = "DIRECCIÓN", requires_all = ["public_cert", "public_key"])]
    pub public_listen: Option<String>,
    /// Certificado (cadena PEM) de la dirección pública, de una autoridad
    /// pública / the public address's certificate chain (PEM), from a
    /// public authority.
    #[arg(long, value_name = "ARCHIVO", requires = "public_listen")]
    pub public_cert: Option<std::path::PathBuf>,
    /// Su clave privada (PEM) / its private key (PEM).
    #[arg(long, value_name = "ARCHIVO", requires = "public_listen")]
    pub public_key: Option<std::path::PathBuf>,
}

/// The daemon's limits as given on the command line; each unset one is
/// sized from the open-file limit ([`asamblea_server::tls::Limits::for_open_files`]).
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct LimitOverrides {
    /// Conexiones del público y del personal, en total (los quioscos tienen
    /// su lugar aparte) / public and staff connections in all (kiosks have
    /// their own room).
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Conexiones desde una misma dirección / connections from one address.
    #[arg(long, value_name = "N")]
    pub max_per_address: Option<usize>,
    /// Saludos TLS en curso / TLS handshakes in progress.
    #[arg(long, value_name = "N")]
    pub max_handshakes: Option<usize>,
    /// Suscriptores del tablero en vivo / live-feed subscribers.
    #[arg(long, value_name = "N")]
    pub max_feeds: Option<usize>,
    /// Segundos que dura una suscripción en vivo (luego se reconecta sola) /
    /// seconds a live subscription lasts (then it reconnects by itself).
    #[arg(long, value_name = "SEGUNDOS")]
    pub feed_max_age: Option<u64>,
    /// Segundos que puede tardar el cuerpo de una solicitud / seconds a
    /// request body may take to arrive.
    #[arg(long, value_name = "SEGUNDOS")]
    pub body_timeout: Option<u64>,
    /// Cada cuántos segundos, con una votación abierta, el servicio firma y
    /// publica la cabeza de la cadena (testigos) / how often, while a poll
    /// is open, the daemon signs and publishes the chain's head.
    #[arg(long, value_name = "SEGUNDOS")]
    pub head_interval: Option<u64>,
}

impl LimitOverrides {
    /// The serving layer's and the service's limits for a process allowed
    /// `open_files` descriptors, with these overrides.
    fn limits(&self, open_files: u64) -> (asamblea_server::tls::Limits, asamblea_server::ServiceLimits) {
        let mut connections = asamblea_server::tls::Limits::for_open_files(open_files);
        if let Some(n) = self.max_connections {
            connections.max_public = n.max(1);
        }
        if let Some(n) = self.max_per_address {
            connections.max_per_address = n.max(1);
        }
        if let Some(n) = self.max_handshakes {
            connections.max_handshakes = n.max(1);
        }
        let mut service = asamblea_server::ServiceLimits::for_public_connections(connections.max_public);
        if let Some(n) = self.max_feeds {
            service.max_feeds = n;
        }
        if let Some(seconds) = self.feed_max_age {
            service.feed_max_age = std::time::Duration::from_secs(seconds.max(1));
        }
        if let Some(seconds) = self.body_timeout {
            service.body_timeout = std::time::Duration::from_secs(seconds.max(1));
        }
        if let Some(seconds) = self.head_interval {
            service.head_interval = std::time::Duration::from_secs(seconds.max(1));
        }
        (connections, service)
    }
}

/// Descriptors kept for what is not a connection of the caps: the
/// kiosks' own room, the ledger, the logs.
const DESCRIPTOR_RESERVE: u64 = 1_024;

/// Raises this process's open-file limit to the most the system allows,
/// and returns it: every connection is a descriptor, and a board watched
/// on thousands of phones needs thousands.
pub(crate) fn raise_open_files() -> u64 {
    #[cfg(unix)]
    {
        use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
        let limit = getrlimit(Resource::Nofile);
        let raised = Rlimit { current: limit.maximum, maximum: limit.maximum };
        if limit.current != limit.maximum && setrlimit(Resource::Nofile, raised).is_ok() {
            return limit.maximum.unwrap_or(u64::MAX);
        }
        limit.current.unwrap_or(u64::MAX)
    }
    #[cfg(not(unix))]
    {
        asamblea_server::tls::DEFAULT_OPEN_FILES
    }
}

/// Where the commands beside the daemon reach it: the address it listens
/// on, with a wildcard address turned into the loopback of its family.
fn reachable(address: std::net::SocketAddr) -> std::net::SocketAddr {
    let ip = match address.ip() {
        std::net::IpAddr::V4(ip) if ip.is_unspecified() => std::net::Ipv4Addr::LOCALHOST.into(),
        std::net::IpAddr::V6(ip) if ip.is_unspecified() => std::net::Ipv6Addr::LOCALHOST.into(),
        ip => ip,
    };
    std::net::SocketAddr::new(ip, address.port())
}

/// [`serve`] with the meeting's lock already held; it is held until the
/// daemon has stopped and flushed the ledger.
fn serve_locked(
    dir: &Path,
    lock: MeetingLock,
    listen: &str,
    internet: &InternetListener,
    overrides: &LimitOverrides,
    (replica, this): (&[std::net::SocketAddr], Option<Node<'_>>),
    out: &mut dyn Write,
) -> Result<()> {
    // What killed `init`s left beside the meeting (the register's names,
    // seeds of no meeting) goes before the daemon starts.
    let mut cleared = Vec::new();
    asamblea_venue::staging::clear_killed_inits(dir, &mut |notice| cleared.push(notice))?;
    for notice in cleared {
        writeln!(out, "{notice}")?;
    }
    let open_files = raise_open_files();
    // With a second listener the descriptors are shared half and half, so
    // that a flood from outside can never take the venue's.
    let shared = if internet.public_listen.is_some() { open_files / 2 } else { open_files };
    let (limits, service_limits) = overrides.limits(shared);
    // Caps set by hand above what the descriptors allow let one listener's
    // flood take the descriptors every other connection needs (a kiosk's
    // among them): said before anything is served.
    let listeners = if internet.public_listen.is_some() { 2 } else { 1 };
    let asked = (limits.max_public as u64).saturating_mul(listeners);
    if asked.saturating_add(DESCRIPTOR_RESERVE) > open_files {
        writeln!(
            out,
            "AVISO / WARNING: --max-connections {} por escucha ({listeners} escucha(s)) más {} de reserva supera el límite de archivos abiertos ({}): una avalancha en una escucha puede dejar sin conexión a los quioscos. Suba LimitNOFILE (o ulimit -n) o baje --max-connections / the caps exceed the open-file limit: a flood on one listener may leave the kiosks without a connection.",
            thousands(limits.max_public as u64),
            thousands(DESCRIPTOR_RESERVE),
            thousands(open_files)
        )?;
    }
    let public_tls = match (&internet.public_cert, &internet.public_key) {
        (Some(cert), Some(key)) => Some(asamblea_pki::public_server_config(cert, key).with_context(|| {
            format!(
                "el certificado público ({}) o su clave ({}) no sirven: revise que sean los archivos PEM que dio la autoridad, la cadena completa y la clave de ese mismo certificado / the public certificate or its key are not usable",
                cert.display(),
                key.display()
            )
        })?),
        _ => None,
    };
    // A replicated meeting: in step with the copy, and with `--node`, only
    // once this node leads (a standby waits here, following the copy).
    let node = this.map(|n| n.name);
    let mut service = Service::open_locked(dir, lock)?;
    if let Some(node) = node {
        service = service.as_node(node)?;
    }
    let mut lost_lead = None;
    if replica.is_empty() {
        if let Some(mark) = asamblea_venue::lock::ReplicaMark::read(dir)? {
            anyhow::bail!(
                "{}: esta carpeta es el nodo «{}» de una reunión replicada (su libro es el de la copia en etcd, {}): sírvala con \
                 --replica {} --node {}; servida sola, lo que recibiera no quedaría en la copia y otro nodo podría tomar la reunión. \
                 Si la copia se abandona a propósito, borre {} / this folder is a node of a replicated meeting: serve it with \
                 --replica and --node; served alone, what it took would not be in the copy. If the copy is given up on purpose, remove that file",
                dir.display(),
                mark.node,
                mark.members.join(","),
                mark.members.join(","),
                if mark.node.is_empty() { "NOMBRE" } else { &mark.node },
                asamblea_venue::lock::ReplicaMark::path(dir).display()
            );
        }
    } else {
        let (reconciled_service, reconciled) = super::replica::reconcile(dir, service, (replica, node), out)?;
        service = reconciled_service;
        // From now on this folder's ledger is the copy's: no command
        // writes it alone (`ReplicaMark`).
        let mark = asamblea_venue::lock::ReplicaMark {
            node: node.unwrap_or_default().to_string(),
            members: replica.iter().map(ToString::to_string).collect(),
            tls: super::replica::tls_folder(),
        };
        mark.write(dir)?;
        writeln!(out, "Réplica en etcd / etcd replica: {reconciled}")?;
        if let Some(this) = this {
            super::replica::publish(&service, replica, this, out)?;
        }
        if let Some(node) = node {
            // While it waits, the desk's commands beside it say so.
            asamblea_venue::lock::StandbyRun { pid: std::process::id(), node: mark }.write(dir)?;
            let led = super::replica::lead(dir, service, replica, node, out);
            asamblea_venue::lock::StandbyRun::remove(dir);
            let (leading, lead) = led?;
            service = leading;
            lost_lead = Some(lead);
        }
        super::replica::install(&mut service, replica, (node, lost_lead.as_ref()), out)?;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        for item in service.agenda_edited_since_init() {
            tracing::warn!(
                item.id = %item,
                "meeting.toml cambió el punto `{item}` después de convocar; rige el orden del día convocado, registrado en el libro / meeting.toml changed `{item}` after convening; the convened agenda in the ledger governs"
            );
        }
        let mut accounts = asamblea_venue::staff::Accounts::load(dir)?;
        let desk_token = accounts.add_desk_token()?;
        let daemon_key = service.daemon_key();
        let meeting_id = service.meeting_id();
        let disk = service.with_journal(|journal, _| journal.disk_watch());
        let daemon = asamblea_server::Daemon::assemble(service, accounts, service_limits)?;
        let (state, kiosks) = (daemon.state.clone(), daemon.kiosks.clone());
        if let Some(node) = node {
            super::replica::list_nodes(&state, (replica, &meeting_id, dir), node)?;
        }
        let listener = asamblea_server::tls::listen(listen)
            .await
            .with_context(|| format!("no se puede escuchar en {listen}: ¿hay otro servicio allí? Deténgalo o elija otra dirección con --listen / cannot listen on {listen}: is another daemon running there?"))?;
        let address = listener.local_addr()?;
        let outside = match (&internet.public_listen, public_tls) {
            (Some(public), Some(tls)) => {
                let listener = asamblea_server::tls::listen(public).await.with_context(|| {
                    format!("no se puede escuchar en {public}: ¿hay otro servicio allí, o hace falta permiso para un puerto bajo? Elija otra dirección con --public-listen / cannot listen on {public}")
                })?;
                // The same caps as the venue's (the flags set both), in
                // pools of its own.
                Some(asamblea_server::Internet { listener, tls, limits })
            }
            _ => None,
        };
        let public_address = outside.as_ref().map(|o| o.listener.local_addr()).transpose()?;
        let stop_signal = shutdown_signal()?;
        // A leader that loses its lease stops serving: the next node takes
        // the meeting, and this one's writes would be fenced anyway.
        // So does one whose ledger failed (a disk that refuses writes, a
        // copy no majority confirms), or whose disk has not finished a
        // write in `DISK_STALL`: it could acknowledge nothing more. It
        // gives up its lead at once, so that the standby need not wait for
        // the lease to run out, and ends within `STOP_GRACE` even if what
        // holds it never lets go.
        let (lost_tx, lost_rx) = tokio::sync::oneshot::channel::<String>();
        let resign = match lost_lead {
            Some(lead) => {
                let (told, resign) = lead.split();
                let (watched, giving_up) = (daemon.state.clone(), resign.clone());
                std::thread::spawn(move || loop {
                    let every = std::time::Duration::from_millis(200);
                    let why = match told.recv_timeout(every) {
                        Ok(why) => why,
                        Err(gone) => match (watched.ledger_failure(), disk.busy_for()) {
                            (Some(cause), _) => format!("el registro falló ({cause}) / the ledger failed ({cause})"),
                            (None, Some(busy)) if busy >= super::replica::DISK_STALL => format!(
                                "el disco no termina una escritura desde hace {} s: no responde / the disk has not finished a write in {} s: it does not answer",
                                busy.as_secs(),
                                busy.as_secs()
                            ),
                            _ => {
                                // The lease's keeper ended (the lead given
                                // up as the daemon stops): nothing to wait on.
                                if gone == std::sync::mpsc::RecvTimeoutError::Disconnected {
                                    std::thread::sleep(every);
                                }
                                continue;
                            }
                        },
                    };
                    // Retired at once; told to stop serving; then the
                    // lease revoked, which a cut network may make wait.
                    giving_up.retire();
                    let _ = lost_tx.send(why.clone());
                    giving_up.resign();
                    std::thread::sleep(super::replica::STOP_GRACE);
                    eprintln!(
                        "asamblea: este nodo dejó de liderar ({why}) y no terminó en {} s; termina ahora / this node lost its lead and did not stop in time; it ends now",
                        super::replica::STOP_GRACE.as_secs()
                    );
                    std::process::exit(1);
                });
                Some(resign)
            }
            None => None,
        };
        let stop_signal = async move {
            tokio::select! {
                () = stop_signal => {}
                Ok(why) = lost_rx => {
                    tracing::error!(reason = %why, "este nodo dejó de liderar la reunión y deja de servir / this node no longer leads the meeting and stops serving");
                }
            }
        };
        let reloader = spawn_kiosk_reloader(kiosks.clone())?;
        let pid = std::process::id();
        DaemonRun { pid, address: reachable(address).to_string(), token: desk_token }.write(dir)?;
        writeln!(out, "asamblea sirve en / serving at https://{address}/ (solo HTTPS / HTTPS only)")?;
        writeln!(out, "  Proceso / process id (PID): {pid}")?;
        writeln!(
            out,
            "  Conexiones / connections: hasta {} del público y del personal ({} por dirección), {} en vivo; los quioscos, aparte (límite de archivos abiertos / open-file limit {})",
            thousands(limits.max_public as u64),
            thousands(limits.max_per_address as u64),
            thousands(service_limits.max_feeds as u64),
            thousands(open_files.min(u64::from(u32::MAX)))
        )?;
        writeln!(out, "  Tablero público / public board: https://{address}/")?;
        writeln!(
            out,
            "  Consolas del personal (entre con su clave) / staff consoles (sign in with your token): https://{address}/personal"
        )?;
        writeln!(out, "  API: https://{address}/api/v1/openapi.json")?;
        if let Some(public) = public_address {
            writeln!(
                out,
                "  Dirección pública (solo el tablero, los recibos y la página remota; con el certificado de la empresa) / public address (the board, receipts and the remote page alone; the company's certificate): https://{public}/"
            )?;
        }
        writeln!(out, "  CA de la sede / venue CA: {}", dir.join("tls/ca.crt").display())?;
        writeln!(out, "  Clave del daemon / daemon key: {daemon_key}")?;
        writeln!(out, "Ctrl-C detiene el servicio guardando todo / stops after saving everything.")?;
        out.flush()?;
        let served = daemon.serve_both(listener, limits, outside, stop_signal).await;
        if let Some(resign) = resign {
            resign.resign();
        }
        DaemonRun::remove(dir);
        served?;
        reloader.abort();
        state.close();
        writeln!(out, "Servicio detenido; registro guardado / stopped, ledger flushed.")?;
        Ok(())
    })
}

/// The demo's powers of attorney, lodged before the installation among the
/// holders who do not come (every fourth group of three): one agent,
/// Marta Lucía Duarte (`CC-52000001`, with a substitute), carries twelve
/// of them and is left for the desk to admit with one scan of her card's
/// number; three more powers show the rules' refusals (a company-suggested
/// agent, an administrator as agent, shares already covered).
fn lodge_demo_powers(service: &mut Service, ids: &[String], out: &mut dyn Write) -> Result<()> {
    use asamblea_rules::powers::Tie;
    use asamblea_venue::powers::{PowerInput, SubstituteInput};
    let absent: Vec<&str> = ids
        .chunks(3)
        .enumerate()
        .filter(|(i, _)| i % 4 == 3)
        .flat_map(|(_, chunk)| chunk.iter().map(String::as_str))
        .filter(|id| {
            let register = service.meeting().register();
            register.lookup(id).is_some_and(|at| {
                let holder = register.holder(at);
                holder.role().is_none() && !holder.holdings().total().is_zero()
            })
        })
        .collect();
    if absent.len() < 14 {
        return Ok(());
    }
    let power = |reference: &str, principals: &[&str], agent: &str| PowerInput {
        reference: reference.to_string(),
        principals: principals.iter().map(|p| p.to_string()).collect(),
        agent: agent.to_string(),
        agent_name: "Marta Lucía Duarte Rincón".to_string(),
        agent_tie: Tie::None,
        suggested: false,
        substitutes: vec![SubstituteInput {
            id: "CC-52000002".to_string(),
            name: "Jaime Andrés Ocampo Vélez".to_string(),
            tie: Tie::None,
        }],
        meeting_date: service.config().date.clone(),
        received_via: asamblea_wire::Reception::Email,
        received_on: service.config().convened_on.clone().unwrap_or_else(|| service.config().date.clone()),
        // The demo has no scanned documents: each hash is of its reference.
        document_sha256: asamblea_wire::Digest::sha256(reference.as_bytes()).to_string(),
        judgement: None,
    };
    let suggested = PowerInput { suggested: true, ..power("DEMO-P-002", &absent[12..13], "CC-52000001") };
    let powers = [
        power("DEMO-P-001", &absent[..12], "CC-52000001"),
        suggested,
        power("DEMO-P-003", &absent[13..14], "CC-10007919"),
        power("DEMO-P-004", &absent[..1], "CC-52000003"),
    ];
    let report = service.lodge_powers(&powers, |_, _| {})?;
    let accepted = report.lodged.iter().filter(|(_, verdict)| verdict.is_none()).count();
    writeln!(
        out,
        "Poderes radicados / lodged powers: {} ({accepted} aceptado(s) / accepted); la apoderada CC-52000001 lleva {} poderdantes: admítala en la mesa con «52000001» / admit her at the desk with «52000001»",
        report.lodged.len(),
        12
    )?;
    Ok(())
}

/// `asamblea demo`: a demo meeting (created on first run in `dir`, reused
/// after), with attendees already checked in and a kiosk enrolled, served
/// over HTTPS; prints where and how to reach it.
pub fn demo(
    dir: &Path,
    listen: &str,
    hosts: &[String],
    limits: &LimitOverrides,
    out: &mut dyn Write,
) -> Result<()> {
    let lock = if !dir.join("ledger.db").exists() {
        let lock = create_meeting(dir, None, None, hosts, &[], out)?;
        let mut service = Service::open_locked(dir, lock)?;
        let ids: Vec<String> = service.meeting().register().iter().map(|(_, h)| h.id().to_string()).collect();
        lodge_demo_powers(&mut service, &ids, out)?;
        // Three quarters of the holders arrive; every tenth group of three
        // comes through a proxy.
        let mut proxies = 0;
        for (i, chunk) in ids.chunks(3).enumerate() {
            if i % 4 == 3 {
                continue;
            }
            if i % 10 == 5 {
                proxies += 1;
                check_in_proxy(&mut service, proxies, chunk)?;
            } else {
                for id in chunk {
                    if service.holder_without_shares(&[id]).is_none() {
                        service.check_in(id)?;
                    }
                }
            }
        }
        let quorum = service.meeting().quorum();
        writeln!(
            out,
            "Asistentes registrados / checked in: {} accionistas, {} acciones ({} apoderados)",
            thousands(u64::from(quorum.holders)),
            thousands(quorum.present.get()),
            proxies
        )?;
        // The demo is a meeting ready to vote: the chair installs it, the
        // quorum verified (suspend, resume and adjourn it from the chair's
        // console).
        service.session_step(
            asamblea_rules::SessionStep::Installed,
            "instalada por la demostración al registrarse los asistentes",
        )?;
        writeln!(out, "Reunión instalada / meeting installed")?;
        let lock = service.close();
        asamblea_pki::enroll_kiosk(dir, "quiosco-1")?;
        writeln!(
            out,
            "Quiosco inscrito / kiosk enrolled: {}",
            dir.join("tls/kiosks/quiosco-1.crt").display()
        )?;
        lock
    } else {
        let lock = MeetingLock::acquire_or_explain(dir)?;
        writeln!(
            out,
            "Reanudando la reunión de demostración en / resuming the demo meeting in {}",
            dir.display()
        )?;
        writeln!(out, "  (las claves del personal se mostraron al crearla / staff tokens were shown when it was created)")?;
        lock
    };
    serve_locked(dir, lock, listen, &InternetListener::default(), limits, (&[], None), out)
}
