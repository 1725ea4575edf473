//! `serve --replica` (`docs/replication.md`): a node brought in step with
//! the etcd copy before it serves; with `--node`, it serves only while it
//! leads — a standby follows the copy and takes the lead when its leader's
//! lease runs out, and a leader that loses its lease stops.

use std::io::Write;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::Result;
use asamblea_replica::{Etcd, Reconciled};
use asamblea_venue::service::Service;

/// A leader's lease: a standby takes over this long after its leader
/// stopped answering, at most (and some 200 ms more to follow the copy).
pub const LEASE_SECONDS: u64 = 2;

/// How often a standby reads the copy and campaigns.
const FOLLOW_EVERY: Duration = Duration::from_millis(200);
/// How often a standby that took in records signs the head it reached.
const KEEP_HEAD_EVERY: Duration = Duration::from_secs(2);

/// A leader whose ledger has been inside one write to its own disk this
/// long gives up its lead: a healthy commit takes milliseconds (one
/// fsync), and a disk that stops answering would otherwise hold the
/// meeting with it for good, its lease kept alive by a thread that writes
/// nothing ([`asamblea_ledger::DiskWatch`]).
pub(crate) const DISK_STALL: Duration = Duration::from_secs(5);

/// A node whose lead was lost and that has not stopped this long after
/// ends at once: what still holds it waits on a disk or a cluster that
/// does not answer, and it serves no one.
pub(crate) const STOP_GRACE: Duration = Duration::from_secs(10);

fn failed(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("réplica / replica: {e}")
}

/// The cluster's TLS for this process (`serve --replica-tls`): set once,
/// at the start, before any request to the cluster.
static TLS: std::sync::OnceLock<(std::sync::Arc<rustls::ClientConfig>, std::path::PathBuf)> =
    std::sync::OnceLock::new();

/// The folder of the cluster's TLS this process uses, if it does.
pub(crate) fn tls_folder() -> Option<std::path::PathBuf> {
    TLS.get().map(|(_, folder)| folder.clone())
}

/// Speaks TLS to the cluster from now on, with the nodes' certificate in
/// `folder` (`asamblea etcd-tls`).
pub(crate) fn use_tls(folder: &std::path::Path) -> Result<()> {
    let config = asamblea_pki::etcd_client_config(folder).map_err(|e| {
        anyhow::anyhow!(
            "--replica-tls {}: {e}. Copie allí ca.crt, client.crt y client.key de `asamblea etcd-tls` / copy there ca.crt, client.crt and client.key made by `asamblea etcd-tls`",
            folder.display()
        )
    })?;
    let folder = folder.canonicalize().unwrap_or_else(|_| folder.to_path_buf());
    let _ = TLS.set((config, folder));
    Ok(())
}

/// The meeting's copy on the cluster at `members`, over TLS when this
/// process was told to.
pub(crate) fn copy_of(members: &[SocketAddr], meeting: &asamblea_wire::MeetingId) -> Etcd {
    Etcd::new(members.to_vec(), meeting).with_tls(TLS.get().map(|(config, _)| config.clone()))
}

/// Brings `service` in step with the copy; what it did. A node whose
/// chain parted from the copy's (records it wrote that no one confirmed,
/// while another node went on) has its ledger set aside beside it and
/// rebuilt from the records both hold and the copy's, and is opened again
/// — replaying every record — before it goes on.
pub(crate) fn reconcile(
    dir: &std::path::Path,
    service: Service,
    (members, node): (&[SocketAddr], Option<&str>),
    out: &mut dyn Write,
) -> Result<(Service, Reconciled)> {
    let mut service = service;
    let meeting = service.meeting_id();
    let mut copy = copy_of(members, &meeting);
    let reconciled = service
        .with_journal(|journal, path| asamblea_replica::reconcile(journal, path, &meeting, &mut copy))
        .map_err(failed)?;
    let Reconciled::Diverged { common, here } = reconciled else { return Ok((service, reconciled)) };
    writeln!(out, "Réplica en etcd / etcd replica: {reconciled}")?;
    let records: Vec<Vec<u8>> =
        copy.records_after(common).map_err(failed)?.into_iter().map(|(_, b)| b).collect();
    let path = dir.join("ledger.db");
    let aside = dir.join(format!("ledger.db.sin-confirmar-{}-a-{here}", common + 1));
    let lock = service.close();
    asamblea_ledger::rebuild(&path, &meeting, common, &records, &aside).map_err(failed)?;
    // The heads this node signed past `common` are of the chain set aside:
    // they go with it (the daemon signs the new chain's as it serves).
    let heads = asamblea_venue::checkpoints::path(dir);
    if heads.exists() {
        let mut beside = aside.clone().into_os_string();
        beside.push(".cabezas");
        std::fs::rename(&heads, std::path::PathBuf::from(beside))?;
    }
    writeln!(
        out,
        "  el registro de este nodo quedó aparte en {} y se rehízo desde la copia / this node's ledger was set aside and rebuilt from the copy",
        aside.display()
    )?;
    let mut service = Service::open_locked(dir, lock)?;
    if let Some(node) = node {
        service = service.as_node(node)?;
    }
    let again = service
        .with_journal(|journal, path| asamblea_replica::reconcile(journal, path, &meeting, &mut copy))
        .map_err(failed)?;
    if let Reconciled::Diverged { .. } = again {
        anyhow::bail!("réplica / replica: el registro rehecho aún no es la cadena de la copia / the rebuilt ledger is still not the copy's chain: {again}");
    }
    Ok((service, again))
}

/// The copy installed on the service's writer: from now on every batch
/// waits for it. A node enrolled with a key of its own that does not lead
/// the ledger yet then records its takeover, signed with its key (§3.34):
/// the daemon's events after it are its own.
pub(crate) fn install(
    service: &mut Service,
    members: &[SocketAddr],
    (node, lead): (Option<&str>, Option<&Lead>),
    out: &mut dyn Write,
) -> Result<()> {
    let mut copy = copy_of(members, &service.meeting_id());
    if let Some(lead) = lead {
        copy = copy.retired_by(lead.resign.given_up.clone());
    }
    service.with_journal(|journal, _| journal.replicate_to(Box::new(copy))).map_err(failed)?;
    if let Some(node) = node {
        if service.node_leads(node) == Some(false) {
            let name = asamblea_wire::Id::new(node).map_err(failed)?;
            let taken = service.daemon_event(asamblea_wire::EventBody::LeaderTookOver { node: name })?;
            writeln!(
                out,
                "Nodo {node}: su toma de la reunión queda en el libro (registro n.º {}) / its takeover is on the record",
                taken.seq
            )?;
        }
    }
    Ok(())
}

/// This node's lead: what the thread keeping its lease alive says if it
/// loses it, and what gives it up.
pub(crate) struct Lead {
    /// Why the lead was lost, when it is.
    pub(crate) lost: std::sync::mpsc::Receiver<String>,
    resign: Resign,
}

/// What gives the lead up, from any thread, once: the lease's keeper
/// stops renewing it and the lease is revoked.
#[derive(Clone)]
pub(crate) struct Resign {
    held: std::sync::Arc<std::sync::Mutex<Option<(Etcd, asamblea_replica::Lease)>>>,
    given_up: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Lead {
    /// The news of the lead's loss, and what gives it up.
    pub(crate) fn split(self) -> (std::sync::mpsc::Receiver<String>, Resign) {
        (self.lost, self.resign)
    }
}

impl Resign {
    /// Stops keeping the lease alive and copying to the cluster, without
    /// asking the cluster anything (it may not answer).
    pub(crate) fn retire(&self) {
        self.given_up.store(true, std::sync::atomic::Ordering::Release);
    }

    /// Gives the lead up at once (the daemon stopped, or can acknowledge
    /// nothing more): a standby takes the meeting without waiting for the
    /// lease to run out. Later calls do nothing.
    pub(crate) fn resign(&self) {
        self.retire();
        let held = self.held.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        if let Some((copy, lease)) = held {
            if let Err(e) = copy.revoke(lease) {
                tracing::warn!(error = %e, "no se pudo ceder el liderazgo; expira solo / could not give up the lead; it expires by itself");
            }
        }
    }
}

/// Waits, following the copy, until `node` leads; then keeps its lease
/// alive on a thread of its own (see [`Lead`]).
pub(crate) fn lead(
    dir: &std::path::Path,
    mut service: Service,
    members: &[SocketAddr],
    node: &str,
    out: &mut dyn Write,
) -> Result<(Service, Lead)> {
    let copy = copy_of(members, &service.meeting_id()).with_timeout(Duration::from_secs(1));
    let mut lease = copy.grant(LEASE_SECONDS).map_err(failed)?;
    let mut waited: Option<Instant> = None;
    // The standby signs the head it reached every few seconds, so that
    // its next start trusts what it already checked (`checkpoints`).
    let (mut kept, mut unkept) = (Instant::now(), false);
    loop {
        // A round in which no member answers (an election among etcd's
        // members, a blip of the network) is waited out, not fatal.
        match copy.campaign(node, lease) {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(error = %e, "réplica: la copia no respondió; se intenta de nuevo / replica: the copy did not answer; trying again");
                std::thread::sleep(FOLLOW_EVERY);
                continue;
            }
        }
        if waited.is_none() {
            let leader = copy.leader().ok().flatten().unwrap_or_else(|| "—".to_string());
            writeln!(
                out,
                "Nodo {node}: en espera; lidera {leader}. Sigue la copia y toma la reunión si el líder deja de responder / standby; {leader} leads. Follows the copy and takes over if the leader stops answering."
            )?;
            out.flush()?;
            waited = Some(Instant::now());
        }
        let (followed, reconciled) = reconcile(dir, service, (members, Some(node)), out)?;
        service = followed;
        unkept |= matches!(reconciled, Reconciled::CaughtUp { records } if records > 0);
        if unkept && kept.elapsed() >= KEEP_HEAD_EVERY {
            service.keep_head();
            (kept, unkept) = (Instant::now(), false);
        }
        match copy.keep_alive(lease) {
            Ok(true) => {}
            Ok(false) => match copy.grant(LEASE_SECONDS) {
                Ok(granted) => lease = granted,
                Err(e) => {
                    tracing::warn!(error = %e, "réplica: no se obtuvo un arriendo; se intenta de nuevo / replica: no lease granted; trying again")
                }
            },
            Err(e) => {
                tracing::warn!(error = %e, "réplica: el arriendo no se renovó; se intenta de nuevo / replica: the lease was not renewed; trying again")
            }
        }
        std::thread::sleep(FOLLOW_EVERY);
    }
    // The lease is kept alive from the moment it leads, before the last
    // catch-up and the daemon's start, however long they take: a lead
    // lost meanwhile is told to the daemon, which then does not serve.
    let (lost, told) = std::sync::mpsc::channel();
    let keeper = copy_of(members, &service.meeting_id()).with_timeout(Duration::from_secs(1));
    let resign = Resign {
        held: std::sync::Arc::new(std::sync::Mutex::new(Some((copy, lease)))),
        given_up: std::sync::Arc::default(),
    };
    let given_up = resign.given_up.clone();
    std::thread::Builder::new().name("asamblea-lease".into()).spawn(move || {
        let every = Duration::from_millis(LEASE_SECONDS * 1000 / 3);
        let mut last_kept = Instant::now();
        loop {
            std::thread::sleep(every);
            if given_up.load(std::sync::atomic::Ordering::Acquire) {
                return;
            }
            match keeper.keep_alive(lease) {
                Ok(true) => last_kept = Instant::now(),
                Ok(false) => {
                    let _ = lost.send("el arriendo del líder expiró / the leader's lease expired".to_string());
                    return;
                }
                Err(e) if last_kept.elapsed() >= Duration::from_secs(LEASE_SECONDS) => {
                    let _ = lost.send(format!("el clúster no renovó el arriendo del líder / the cluster did not renew the leader's lease: {e}"));
                    return;
                }
                Err(_) => {}
            }
        }
    })?;
    // What the last leader wrote before its lease ran out.
    let (taken, reconciled) = reconcile(dir, service, (members, Some(node)), out)?;
    service = taken;
    match waited {
        Some(since) => writeln!(
            out,
            "Nodo {node}: toma la reunión tras {:.1} s en espera ({reconciled}) / takes over the meeting",
            since.elapsed().as_secs_f64()
        )?,
        None => writeln!(out, "Nodo {node}: lidera la reunión / leads the meeting")?,
    }
    Ok((service, Lead { lost: told, resign }))
}

/// Publishes where this node serves (`--advertise`, or `--listen`), so
/// that the pages of whichever node leads can name it; says so when it
/// cannot be told.
pub(crate) fn publish(
    service: &Service,
    members: &[SocketAddr],
    this: super::serve::Node<'_>,
    out: &mut dyn Write,
) -> Result<()> {
    let copy = copy_of(members, &service.meeting_id()).with_timeout(Duration::from_secs(1));
    match this.advertise {
        Some(address) => copy.publish_address(this.name, address).map_err(failed)?,
        None => writeln!(
            out,
            "AVISO / WARNING: escucha en todas las direcciones y no se dijo --advertise: las consolas y el tablero abiertos en otro nodo no podrán seguir a este cuando lidere / listening on every address without --advertise: pages open at another node cannot follow to this one"
        )?,
    }
    Ok(())
}

/// Gives the pages every node's published address, now and every 10 s
/// after (a replacement node publishes its own when it starts): those
/// whose host the daemon's certificate names only, so that an address
/// written in etcd by another leads no browser to a page the venue did
/// not certify (docs/threat-model.md R14).
pub(crate) fn list_nodes(
    state: &asamblea_server::AppState,
    (members, meeting, dir): (&[SocketAddr], &asamblea_wire::MeetingId, &std::path::Path),
    node: &str,
) -> Result<()> {
    let copy = copy_of(members, meeting).with_timeout(Duration::from_secs(1));
    let dir = dir.to_path_buf();
    let mut warned = std::collections::HashSet::new();
    let mut certified = move |nodes: Vec<(String, String)>| -> Vec<(String, String)> {
        nodes
            .into_iter()
            .filter(|(name, address)| {
                let host = address.rsplit_once(':').map_or("", |(host, _)| host);
                let host = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
                let named = asamblea_pki::certifies_host(&dir, host);
                if !named && warned.insert(address.clone()) {
                    tracing::warn!(node = %name, %address, "el certificado del servicio no nombra la dirección de este nodo: las páginas no lo seguirán (init --host) / the daemon's certificate does not name this node's address: pages will not follow to it");
                }
                named
            })
            .collect()
    };
    // Named at once, even before the copy answers: a page that finds no
    // name here knows the meeting is on one machine and stops asking.
    state.set_nodes(node, certified(copy.addresses().unwrap_or_default()));
    let (state, node) = (state.clone(), node.to_string());
    std::thread::Builder::new().name("asamblea-nodes".into()).spawn(move || loop {
        std::thread::sleep(Duration::from_secs(10));
        if let Ok(nodes) = copy.addresses() {
            state.set_nodes(&node, certified(nodes));
        }
    })?;
    Ok(())
}
