//! The meeting-directory subcommands: `init`, `checkin`, `badges`,
//! `revoke`, `simulate`, `export` (`verify` is [`crate::verify`]). Each prints what a tired
//! operator needs (Spanish first, Colombian numbers) and returns an exit
//! code; errors say what and where, and what to do.

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use asamblea_ledger::{verify_bundle, VerifyOptions};
use asamblea_rules::{Capacity, ItemResult, OptionIndex};
use asamblea_wire::{Choice, CredentialId, EventBody, HolderVote, Id};

use asamblea_documents::numfmt::thousands;
use asamblea_venue::lock::{DaemonRun, MeetingLock};
use asamblea_venue::service::{MeetingFiles, NewMeeting, Service};
use asamblea_venue::staging::Staging;

/// The demo meeting's settings and register, embedded.
pub const DEMO_MEETING: &str = include_str!("../../../config/demo/meeting.toml");
/// The demo register.
pub const DEMO_REGISTER: &str = include_str!("../../../config/demo/register.csv");

pub(crate) fn progress_bar(total: u64, message: &'static str) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({eta})")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_message(message);
    bar
}

/// The bars of a document made from a bundle in two passes: the
/// verification, then a reading of the records (each ballot's choice).
/// A pass is seen to begin when the count goes back.
#[derive(Default)]
struct PassBars {
    bars: Vec<indicatif::ProgressBar>,
}

impl PassBars {
    fn report(&mut self, done: u64, total: u64) {
        if self.bars.last().is_none_or(|bar| bar.position() > done) {
            if let Some(bar) = self.bars.last() {
                bar.finish_and_clear();
            }
            let message = if self.bars.is_empty() {
                "Verificando / verifying"
            } else {
                "Leyendo los votos / reading the votes"
            };
            self.bars.push(progress_bar(total, message));
        }
        if let Some(bar) = self.bars.last() {
            bar.set_position(done);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bars.last() {
            bar.finish_and_clear();
        }
    }
}

/// `asamblea init DIR`.
pub fn init(
    dir: &Path,
    meeting: Option<&Path>,
    register: Option<&Path>,
    hosts: &[String],
    out: &mut dyn Write,
) -> Result<()> {
    create_meeting(dir, meeting, register, hosts, out).map(drop)
}

/// Makes the meeting directory `dir` whole or not at all: every input is
/// checked first, everything is written in a hidden folder beside it and
/// renamed into place (`asamblea_venue::staging`). The staff tokens are
/// shown only once the meeting exists. Returns the meeting's lock, still
/// held, for `demo` to go on with.
fn create_meeting(
    dir: &Path,
    meeting: Option<&Path>,
    register: Option<&Path>,
    hosts: &[String],
    out: &mut dyn Write,
) -> Result<MeetingLock> {
    // The register's shares must add up to the capital of its meeting
    // file: one without the other would be checked against the demo's.
    match (meeting, register) {
        (None, Some(register)) => anyhow::bail!(
            "--register {r} sin --meeting: el libro de accionistas se revisa contra el capital del archivo de su reunión; indique los dos: asamblea init {d} --meeting reunion.toml --register {r} (docs/meeting-file.md) / --register without --meeting: the register is checked against its meeting file's capital; give both",
            r = register.display(),
            d = dir.display()
        ),
        (Some(meeting), None) => anyhow::bail!(
            "--meeting {m} sin --register: la reunión necesita su libro de accionistas; indique los dos: asamblea init {d} --meeting {m} --register registro.csv (docs/register.md) / --meeting without --register: the meeting needs its share register; give both",
            m = meeting.display(),
            d = dir.display()
        ),
        _ => {}
    }
    let read = |p: &Path| fs_read(p);
    let (meeting_name, meeting_text) = match meeting {
        Some(p) => (p.display().to_string(), read(p)?),
        None => ("config/demo/meeting.toml (embedded)".to_string(), DEMO_MEETING.to_string()),
    };
    let (register_name, register_bytes) = match register {
        Some(p) => (
            p.display().to_string(),
            std::fs::read(p).with_context(|| {
                format!("{}: no se puede leer el archivo / cannot read the file", p.display())
            })?,
        ),
        None => ("config/demo/register.csv (embedded)".to_string(), DEMO_REGISTER.as_bytes().to_vec()),
    };
    asamblea_pki::check_host_names(hosts).context("--host")?;
    // The signing keys must not land inside the meeting directory (a
    // copy of it must hold nothing that signs).
    let keys = asamblea_venue::secrets::key_folder(&asamblea_wire::MeetingId([0; 32]))?;
    let target = std::path::absolute(dir)
        .with_context(|| format!("{}: no es una ruta utilizable / not a usable path", dir.display()))?;
    if keys.starts_with(&target) {
        anyhow::bail!(
            "{}: las claves de firma quedarían dentro de la carpeta de la reunión; defina ASAMBLEA_KEYS fuera de ella / \
             the signing keys would land inside the meeting directory; set ASAMBLEA_KEYS outside it",
            keys.parent().unwrap_or(&keys).display()
        );
    }
    let rows = register_bytes.iter().filter(|&&b| b == b'\n').count().saturating_sub(1) as u64;
    let bar = progress_bar(rows, "Importando el registro de accionistas");
    let new = NewMeeting::check(&meeting_name, &meeting_text, &register_name, &register_bytes, |n| {
        bar.set_position(n)
    })?;
    bar.finish_and_clear();

    let mut notices: Vec<String> = new.notes().to_vec();
    let (staging, lock) = Staging::begin(dir, &mut |notice| notices.push(notice))?;
    for notice in notices {
        writeln!(out, "{notice}")?;
    }
    let mut service = Service::init(staging.path(), lock, new)?;
    let tokens = service.take_tokens();
    let meeting = service.meeting();
    let capital = meeting.register().capital();
    let mut summary = Vec::new();
    writeln!(summary, "Reunión creada en {} / meeting created", dir.display())?;
    writeln!(
        summary,
        "  {} · {} {}",
        service.config().company,
        service.config().date,
        service.config().time
    )?;
    writeln!(
        summary,
        "  Accionistas: {} · acciones ordinarias en circulación {} · preferenciales {}",
        thousands(meeting.register().len() as u64),
        thousands(capital.ordinary.outstanding().get()),
        thousands(capital.preferred.outstanding().get())
    )?;
    writeln!(summary, "  Orden del día: {} puntos", service.agenda().len())?;
    writeln!(summary, "  Clave pública del daemon / daemon key: {}", service.daemon_key())?;
    writeln!(summary, "  Identificador de la reunión / meeting id: {}", hex(&service.meeting_id().0))?;
    writeln!(
        summary,
        "  Claves de firma, fuera de la carpeta / signing keys, outside the folder: {}",
        asamblea_venue::secrets::key_folder(&service.meeting_id())?.display()
    )?;
    let lock = service.close();
    asamblea_pki::create_venue_pki(staging.path(), hosts)?;
    staging.commit()?;

    out.write_all(&summary)?;
    writeln!(out, "Claves del personal (se muestran una sola vez; guárdelas) / staff tokens, shown once:")?;
    for (name, role, token) in tokens {
        writeln!(out, "  {name:<12} {:<10} {token}", role.code())?;
    }
    Ok(lock)
}

pub(crate) fn fs_read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path)
        .with_context(|| format!("{}: no se puede leer el archivo / cannot read the file", path.display()))
}

use asamblea_wire::hex::encode as hex;

/// Proxy number `n` of a simulated or demo meeting arrives for `principals`.
fn check_in_proxy(service: &mut Service, n: u32, principals: &[String]) -> Result<()> {
    // A register row with no share is not checked in (the desk refuses
    // it: `VenueError::NoShares`).
    let principals: Vec<&str> = principals
        .iter()
        .map(String::as_str)
        .filter(|holder| service.holder_without_shares(&[holder]).is_none())
        .collect();
    if principals.is_empty() {
        return Ok(());
    }
    service.check_in_agent(&format!("APODERADO-{n}"), &principals, Capacity::Proxy, None, "poder escrito")?;
    Ok(())
}

/// A small deterministic generator for the simulation.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Acknowledgements still owed by the ledger writer for events queued
/// without waiting (`simulate`'s bulk work: one fsync per batch, not per
/// event).
struct Owed {
    sender: std::sync::mpsc::Sender<Result<(), asamblea_ledger::LedgerError>>,
    receiver: std::sync::mpsc::Receiver<Result<(), asamblea_ledger::LedgerError>>,
    count: usize,
}

impl Owed {
    fn new() -> Owed {
        let (sender, receiver) = std::sync::mpsc::channel();
        Owed { sender, receiver, count: 0 }
    }

    /// The completion of one more queued event.
    fn one(&mut self) -> asamblea_ledger::Completion {
        self.count += 1;
        let sender = self.sender.clone();
        Box::new(move |result| {
            let _ = sender.send(result.map(|_| ()));
        })
    }

    /// Waits until every event queued so far is durable.
    fn settle(&mut self) -> Result<()> {
        for _ in 0..std::mem::take(&mut self.count) {
            self.receiver.recv().context("el escritor del libro se detuvo / the ledger writer stopped")??;
        }
        Ok(())
    }
}

/// `asamblea simulate DIR`: runs the whole agenda with simulated kiosks —
/// check-ins, proxies, badges, real signed ballots, closes, results, lots.
/// Each event goes through the same checks as the daemon's; events are
/// queued on the group-committing writer (as the daemon's kiosks' are),
/// and every one is durable before the item closes.
pub fn simulate(dir: &Path, seed: u64, attendance_percent: u64, out: &mut dyn Write) -> Result<()> {
    let mut service = Service::open(dir)?;
    let mut rng = XorShift(seed.max(1));
    let mut owed = Owed::new();
    let ids: Vec<String> = service.meeting().register().iter().map(|(_, h)| h.id().to_string()).collect();
    // Arrivals: most in person, some in groups of three through a proxy.
    let mut proxies = 0;
    let mut waiting: Vec<String> = Vec::new();
    let bar = progress_bar(ids.len() as u64, "Registrando asistentes");
    for id in &ids {
        bar.inc(1);
        if service.meeting().presence().is_present(service.meeting().register().lookup(id).expect("own id")) {
            continue;
        }
        if rng.below(100) >= attendance_percent {
            continue;
        }
        if rng.below(10) == 0 {
            waiting.push(id.clone());
            if waiting.len() == 3 {
                proxies += 1;
                check_in_proxy(&mut service, proxies, &waiting)?;
                waiting.clear();
            }
        } else if service.holder_without_shares(&[id]).is_none() {
            // (A row with no share is not checked in: the desk refuses it.)
            let done = owed.one();
            service.queue_staff_event(EventBody::CheckedInPerson { holder: Id::new(id)? }, done)?;
        }
    }
    owed.settle()?;
    bar.finish_and_clear();
    let people = service.attendees();
    let mut credentials = Vec::new();
    let bar = progress_bar(people.len() as u64, "Entregando credenciales");
    for attendee in &people {
        bar.inc(1);
        // `simulate` plays the desk too: it draws each seed itself.
        let seed = asamblea_kiosk::BadgeSeed::draw(&service.meeting_id())?;
        let number = CredentialId(service.state().badges_issued() + 1);
        let body = EventBody::BadgeIssued {
            credential: number,
            key: seed.public_key(),
            person: Id::new(&attendee.person)?,
        };
        let done = owed.one();
        service.queue_staff_event(body, done)?;
        credentials.push((seed.numbered(number), attendee.carries.clone()));
    }
    owed.settle()?;
    bar.finish_and_clear();
    let quorum = service.meeting().quorum();
    writeln!(
        out,
        "Asistencia: {} acciones de {} ({} accionistas, {} personas, {} apoderados)",
        thousands(quorum.present.get()),
        thousands(quorum.voting_outstanding.get()),
        thousands(u64::from(quorum.holders)),
        people.len(),
        proxies
    )?;
    // The chair installs the meeting, the quorum verified, before any poll.
    match service.session_step(asamblea_rules::SessionStep::Installed, "") {
        Ok(_) => writeln!(out, "Reunión instalada / meeting installed")?,
        Err(e) => writeln!(out, "La reunión no se instala / the meeting is not installed: {e}")?,
    }
    let agenda: Vec<String> = service.agenda().iter().map(|a| a.item.as_str().to_string()).collect();
    let mut ballots = 0u64;
    let meeting_id = service.meeting_id();
    for item in &agenda {
        if let Err(e) = service.open_item(item) {
            writeln!(out, "▶ {item}: no se abre / not opened: {e}")?;
            continue;
        }
        let at = service.meeting().item_index(item).expect("opened");
        let options = service.meeting().item(at).option_count() as u64;
        // The choices, in order; then the signatures, on every core.
        let mut cast = Vec::new();
        for (credential, carried) in &credentials {
            let mut votes = Vec::new();
            for holder in carried {
                // Most vote the first option; the rest spread out.
                let option = if rng.below(3) == 0 { rng.below(options) } else { 0 };
                let ballot = asamblea_rules::Ballot::Whole(Some(OptionIndex::list(option as usize)));
                let h = service.meeting().register().lookup(holder).expect("own id");
                if service.meeting().check_cast(at, h, &ballot).is_ok() {
                    votes.push(HolderVote {
                        holder: Id::new(holder)?,
                        choice: Choice::Whole(OptionIndex::list(option as usize)),
                    });
                }
            }
            if !votes.is_empty() {
                cast.push((credential, votes));
            }
        }
        let bar = progress_bar(cast.len() as u64, "Votando");
        let signed = sign_on_every_core(cast, |(credential, votes)| {
            Ok(asamblea_venue::service::sign_ballot(&meeting_id, credential, item, votes)?)
        })?;
        for ballot in signed {
            bar.inc(1);
            let done = owed.one();
            service.queue_ballot(ballot, done).map_err(|rejection| anyhow::anyhow!("{item}: {rejection}"))?;
            ballots += 1;
        }
        owed.settle()?;
        bar.finish_and_clear();
        let (checkpoint, _) = service.close_item(item)?;
        let entry = service.meeting().item(at);
        writeln!(
            out,
            "▶ {item} — {}: {} · punto de control / checkpoint {}:{}",
            entry.matter().spanish(),
            entry.outcome().spanish().to_uppercase(),
            checkpoint.seq,
            hex(&checkpoint.head.0)
        )?;
        if let Some(line) = figures_line(entry) {
            writeln!(out, "    {line}")?;
        }
    }
    writeln!(out, "Papeletas firmadas / signed ballots: {}", thousands(ballots))?;
    service.close();
    Ok(())
}

/// A closed item's figures on one line, as `simulate` and `verify` print
/// them: a decision's votes and base, or an election's votes and seats per
/// list.
pub(crate) fn figures_line(item: &asamblea_rules::Item) -> Option<String> {
    use asamblea_documents::explain::{election_base, figure};
    let said = |key: &str, shares: u64| format!("{} {}", figure(key).es, thousands(shares));
    match item.result()? {
        ItemResult::Decision(d) => Some(
            [
                said("for", d.for_votes.get()),
                said("against", d.against.get()),
                said("blank", d.blank.get()),
                said("abstain", d.abstain.get()),
                said("impeded", d.impeded.get()),
                said("base", d.base.get()),
            ]
            .join(" · "),
        ),
        ItemResult::Election(e) => {
            let mut parts = asamblea_documents::explain::lists_in_words(item, e);
            parts.push(said("blank", e.blank.get()));
            parts.push(said("base", election_base(item, e).get()));
            Some(parts.join(" · "))
        }
    }
}

/// `f` of every item, in order, on every core.
fn sign_on_every_core<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> Result<R> + Sync) -> Result<Vec<R>> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let chunk = items.len().div_ceil(cores).max(1);
    let mut parts = Vec::new();
    let mut items = items.into_iter();
    loop {
        let part: Vec<T> = items.by_ref().take(chunk).collect();
        if part.is_empty() {
            break;
        }
        parts.push(part);
    }
    let f = &f;
    std::thread::scope(|scope| {
        let workers: Vec<_> = parts
            .into_iter()
            .map(|part| scope.spawn(move || part.into_iter().map(f).collect::<Result<Vec<R>>>()))
            .collect();
        let mut all = Vec::new();
        for worker in workers {
            all.extend(worker.join().map_err(|_| {
                anyhow::anyhow!("un hilo de firma falló (panic) / a signing thread panicked")
            })??);
        }
        Ok(all)
    })
}

/// `asamblea export DIR OUT`.
pub fn export(dir: &Path, file: &Path, out: &mut dyn Write) -> Result<()> {
    // Written beside under a temporary name and renamed when whole, so a
    // failure never leaves half a bundle under the name asked for.
    let name = file.file_name().map_or_else(|| "bundle".into(), |n| n.to_string_lossy().into_owned());
    let partial = file.with_file_name(format!(".{name}.partial-{}", std::process::id()));
    let written = std::fs::File::create(&partial)
        .with_context(|| format!("{}: no se puede escribir / cannot write", file.display()))
        .and_then(|f| Ok(MeetingFiles::export_to(dir, f)?))
        .and_then(|exported| {
            std::fs::rename(&partial, file)
                .with_context(|| format!("{}: no se puede escribir / cannot write", file.display()))?;
            Ok(exported)
        });
    let exported = match written {
        Ok(exported) => exported,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    writeln!(
        out,
        "Paquete de auditoría / audit bundle: {} ({} eventos)",
        file.display(),
        thousands(exported.records)
    )?;
    writeln!(out, "Clave del daemon / daemon key: {}", MeetingFiles::read(dir)?.daemon.public_key())?;
    if let Some(c) = exported.last {
        writeln!(out, "Punto de control final / final checkpoint: {}:{}", c.seq, hex(&c.head.0))?;
    }
    Ok(())
}

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
pub fn serve(dir: &Path, listen: &str, limits: &LimitOverrides, out: &mut dyn Write) -> Result<()> {
    serve_locked(dir, MeetingLock::acquire_or_explain(dir)?, listen, limits, out)
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
    overrides: &LimitOverrides,
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
    let (limits, service_limits) = overrides.limits(open_files);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let service = Service::open_locked(dir, lock)?;
        for item in service.agenda_edited_since_init() {
            tracing::warn!(
                item.id = %item,
                "meeting.toml cambió el punto `{item}` después de convocar; rige el orden del día convocado, registrado en el libro / meeting.toml changed `{item}` after convening; the convened agenda in the ledger governs"
            );
        }
        let mut accounts = asamblea_venue::staff::Accounts::load(dir)?;
        let desk_token = accounts.add_desk_token()?;
        let daemon_key = service.daemon_key();
        let daemon = asamblea_server::Daemon::assemble(service, accounts, service_limits)?;
        let (state, kiosks) = (daemon.state.clone(), daemon.kiosks.clone());
        let listener = asamblea_server::tls::listen(listen)
            .await
            .with_context(|| format!("no se puede escuchar en {listen}: ¿hay otro servicio allí? Deténgalo o elija otra dirección con --listen / cannot listen on {listen}: is another daemon running there?"))?;
        let address = listener.local_addr()?;
        let stop_signal = shutdown_signal()?;
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
        writeln!(out, "  CA de la sede / venue CA: {}", dir.join("tls/ca.crt").display())?;
        writeln!(out, "  Clave del daemon / daemon key: {daemon_key}")?;
        writeln!(out, "Ctrl-C detiene el servicio guardando todo / stops after saving everything.")?;
        out.flush()?;
        let served = daemon.serve(listener, limits, stop_signal).await;
        DaemonRun::remove(dir);
        served?;
        reloader.abort();
        state.close();
        writeln!(out, "Servicio detenido; registro guardado / stopped, ledger flushed.")?;
        Ok(())
    })
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
        let lock = create_meeting(dir, None, None, hosts, out)?;
        let mut service = Service::open_locked(dir, lock)?;
        let ids: Vec<String> = service.meeting().register().iter().map(|(_, h)| h.id().to_string()).collect();
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
    serve_locked(dir, lock, listen, limits, out)
}

/// A bundle's profile from its name and bytes, as `verify` loads it: the
/// file parsed as a profile (`docs/profile-format.md`) whose `name` must
/// be the one the bundle gives.
pub fn load_profile(name: &str, bytes: &[u8]) -> Result<asamblea_rules::Profile, String> {
    asamblea_venue::profiles::load_profile(name, bytes)
}

/// Verifies a bundle's bytes with nothing from outside (no daemon key,
/// checkpoint, witness or receipt): what `scenario --bundle` checks
/// before it writes one.
pub fn verify_bytes(bytes: &[u8]) -> Result<asamblea_ledger::Verified> {
    let options = VerifyOptions {
        daemon_key: None,
        checkpoints: Vec::new(),
        witnesses: Vec::new(),
        receipts: Vec::new(),
        load_profile: &load_profile,
    };
    verify_bundle(bytes, &options)
        .map_err(|e| anyhow::anyhow!("el paquete no verifica / the bundle does not verify: {e}"))
}

/// `asamblea ballot DIR --badge QR --item ITEM --vote HOLDER=OPTION…`:
/// what a kiosk does with a scanned badge — a signed ballot, printed as the
/// body of `POST /api/v1/ballots`, so a meeting can be driven with curl.
pub fn sign_ballot(dir: &Path, badge: &str, item: &str, votes: &[String], out: &mut dyn Write) -> Result<()> {
    let meeting = asamblea_venue::secrets::read_meeting_id(dir)?;
    // The ballot is the one convened in the ledger, whatever meeting.toml
    // says now.
    let agenda = asamblea_venue::service::MeetingFiles::convened_agenda(dir)?;
    let entry = agenda.iter().find(|a| a.item.as_str() == item).with_context(|| {
        format!("`{item}` no está en el orden del día convocado / is not on the convened agenda")
    })?;
    let options: Vec<String> = if entry.matter.is_election() {
        entry.lists.iter().map(|l| l.as_str().to_string()).chain(std::iter::once("blank".into())).collect()
    } else {
        vec!["for".into(), "against".into(), "blank".into()]
    };
    let credential =
        asamblea_kiosk::parse_badge(badge, &meeting).map_err(|e| anyhow::anyhow!("--badge: {e}"))?;
    let mut parsed = Vec::new();
    for vote in votes {
        let (holder, option) = vote
            .split_once('=')
            .with_context(|| format!("--vote `{vote}`: escriba ACCIONISTA=OPCIÓN, p. ej. CC-1=for / write HOLDER=OPTION, e.g. CC-1=for"))?;
        let index = options.iter().position(|o| o == option).with_context(|| {
            format!(
                "--vote `{vote}`: las opciones de {item} son {0} / the options of {item} are {0}",
                options.join(", ")
            )
        })?;
        parsed.push(HolderVote {
            holder: Id::new(holder).map_err(|e| anyhow::anyhow!("--vote `{vote}`: {e}"))?,
            choice: Choice::Whole(OptionIndex::list(index)),
        });
    }
    if parsed.is_empty() {
        bail!("dé al menos un --vote ACCIONISTA=OPCIÓN / give at least one --vote HOLDER=OPTION");
    }
    let ballot = asamblea_kiosk::SignedBallot::sign(&credential, item, parsed)?;
    writeln!(out, "{}", ballot.body())?;
    Ok(())
}

/// `asamblea export-results`: the tallies of a bundle that verifies, as
/// an Excel workbook, one table as CSV, or everything as JSON. `Ok(false)`
/// (exit 1) when the bundle does not verify: nothing is written.
pub fn export_results(
    bundle: &Path,
    format: &str,
    table: &str,
    csv_plain: bool,
    file: Option<&Path>,
    out: &mut dyn Write,
) -> Result<bool> {
    use asamblea_documents::tables;
    if format == "xlsx" && file.is_none() {
        bail!(
            "un libro de Excel va a un archivo: añada -o resultados.xlsx / an Excel workbook needs -o FILE"
        );
    }
    let mut bars = PassBars::default();
    let mut progress = |done, total| bars.report(done, total);
    let opened = open_bundle(bundle)?;
    let report = match asamblea_server::reports::from_bundle(&opened, &mut progress) {
        Ok(report) => report,
        Err(asamblea_server::reports::ReportError::NotVerified(why)) => {
            writeln!(
                out,
                "FALLA / FAILED: el paquete no verifica; no se escribe ningún resultado / the bundle does not verify, nothing is written: {why}"
            )?;
            return Ok(false);
        }
        Err(e) => bail!("{}: {e}", bundle.display()),
    };
    bars.finish();
    for what in &report.missing {
        writeln!(std::io::stderr(), "aviso / note: {what}")?;
    }
    let bytes = match format {
        "xlsx" => tables::xlsx(&report.tables, &report.title, report.date).map_err(anyhow::Error::msg)?,
        "json" => {
            let mut text =
                serde_json::to_string_pretty(&tables::json(&report.tables, report.meeting, report.verified))?;
            text.push('\n');
            text.into_bytes()
        }
        _ => {
            let chosen = report
                .tables
                .iter()
                .find(|t| t.name == table)
                .with_context(|| format!("--table {table}: no existe esa tabla / no such table"))?;
            let flavour = if csv_plain { tables::CsvFlavour::Plain } else { tables::CsvFlavour::Excel };
            tables::csv(chosen, flavour).into_bytes()
        }
    };
    match file {
        Some(file) => {
            std::fs::write(file, &bytes)
                .with_context(|| format!("{}: no se puede escribir / cannot write it", file.display()))?;
            writeln!(
                out,
                "Resultados escritos / tallies written: {} ({} bytes)",
                file.display(),
                thousands(bytes.len() as u64)
            )?;
        }
        None => out.write_all(&bytes)?,
    }
    Ok(true)
}

/// What `asamblea acta` was asked for: `--format` and `--paper`, each
/// optional.
pub struct ActaAsked<'a> {
    /// `docx` or `pdf`.
    pub format: Option<&'a str>,
    /// `carta` or `a4`.
    pub paper: Option<&'a str>,
}

/// `asamblea acta`: the acta draft of a bundle that verifies, written to
/// `file`, or (`check`) compared byte for byte with a file that claims to
/// be it. `Ok(false)` (exit 1) when the bundle does not verify, or the
/// file is not its acta.
///
/// Without `--format`, the format is the one `-o`'s extension names
/// (`.pdf`; anything else is Word), or, with `--check`, the one the file
/// is (a PDF begins `%PDF-`); without `--paper`, a PDF is on Carta, and
/// `--check` tries Carta, then A4.
pub fn acta(
    bundle: &Path,
    asked: ActaAsked<'_>,
    file: Option<&Path>,
    check: Option<&Path>,
    out: &mut dyn Write,
) -> Result<bool> {
    use asamblea_documents::pdf::Paper;
    use asamblea_server::reports::{self, ActaFormat, ReportError};
    let claimed = match check {
        Some(claimed) => Some(
            std::fs::read(claimed)
                .with_context(|| format!("{}: no se puede leer / cannot read it", claimed.display()))?,
        ),
        None => None,
    };
    let pdf = match (asked.format, &claimed, file) {
        (Some(format), _, _) => format == "pdf",
        (None, Some(bytes), _) => bytes.starts_with(b"%PDF-"),
        (None, None, Some(file)) => file.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdf")),
        (None, None, None) => false,
    };
    let formats = match (pdf, asked.paper) {
        (false, _) => vec![ActaFormat::Docx],
        (true, Some("a4")) => vec![ActaFormat::Pdf(Paper::A4)],
        (true, Some(_)) => vec![ActaFormat::Pdf(Paper::Carta)],
        (true, None) if claimed.is_some() => vec![ActaFormat::Pdf(Paper::Carta), ActaFormat::Pdf(Paper::A4)],
        (true, None) => vec![ActaFormat::Pdf(Paper::Carta)],
    };
    let opened = open_bundle(bundle)?;
    let mut made = Vec::new();
    for format in formats {
        let mut bars = PassBars::default();
        // The installation: the first poll's opening until the ledger
        // records the chair's act.
        let made_now = reports::acta(&opened, format, &mut |done, total| bars.report(done, total));
        bars.finish();
        made = match made_now {
            Ok(bytes) => bytes,
            Err(ReportError::NotVerified(why)) => {
                writeln!(out, "FALLA / FAILED: el paquete no verifica; no hay acta / the bundle does not verify, so there is no acta: {why}")?;
                return Ok(false);
            }
            Err(e) => bail!("{}: {e}", bundle.display()),
        };
        if claimed.as_ref() == Some(&made) {
            break;
        }
    }
    if let (Some(claimed), Some(bytes)) = (check, claimed) {
        if bytes == made {
            writeln!(out, "ES EL ACTA / IT IS THE ACTA: {} es el acta de este paquete, byte por byte / is this bundle's acta, byte for byte", claimed.display())?;
            return Ok(true);
        }
        writeln!(
            out,
            "NO ES EL ACTA / NOT THE ACTA: {} difiere del acta de este paquete (¿otro paquete, o el archivo se editó?) / differs from this bundle's acta",
            claimed.display()
        )?;
        return Ok(false);
    }
    let file = file.context(
        "falta -o ARCHIVO: diga dónde escribir el acta / -o FILE is needed: where to write the acta",
    )?;
    std::fs::write(file, &made)
        .with_context(|| format!("{}: no se puede escribir / cannot write it", file.display()))?;
    writeln!(
        out,
        "Acta escrita / acta written: {} ({} bytes)",
        file.display(),
        thousands(made.len() as u64)
    )?;
    Ok(true)
}

/// A bundle file, opened for the documents made from it.
pub(crate) fn open_bundle(bundle: &Path) -> Result<std::fs::File> {
    std::fs::File::open(bundle).with_context(|| {
        format!("{}: no se puede leer el paquete / cannot read the bundle", bundle.display())
    })
}
