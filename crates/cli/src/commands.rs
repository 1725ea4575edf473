//! The meeting-directory subcommands: `init`, `checkin`, `badges`,
//! `revoke`, `simulate`, `export`, `verify`. Each prints what a tired
//! operator needs (Spanish first, Colombian numbers) and returns an exit
//! code; errors say what and where, and what to do.

use std::io::{IsTerminal, Seek as _, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use asamblea_ledger::{verify_bundle, VerifyOptions};
use asamblea_rules::{Capacity, ItemResult, OptionIndex};
use asamblea_wire::{Choice, CredentialId, Digest, EventBody, HolderVote, Id, PublicKey};

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

fn fs_read(path: &Path) -> Result<String> {
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
fn figures_line(item: &asamblea_rules::Item) -> Option<String> {
    match item.result()? {
        ItemResult::Decision(d) => Some(format!(
            "Sí {} · No {} · En blanco {} · Abstención {} · Impedidas {} · base {}",
            thousands(d.for_votes.get()),
            thousands(d.against.get()),
            thousands(d.blank.get()),
            thousands(d.abstain.get()),
            thousands(d.impeded.get()),
            thousands(d.base.get())
        )),
        ItemResult::Election(e) => {
            let lists = asamblea_documents::explain::lists_in_words(item, e);
            Some(format!("{} · En blanco {}", lists.join(" · "), thousands(e.blank.get())))
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

/// Parses `SEQ:HEX` as printed by `export` and at each close.
pub fn parse_checkpoint(text: &str) -> Result<(u64, Digest)> {
    let (seq, head) =
        text.split_once(':').context(
        "un punto de control se escribe NÚMERO:CABEZA, como se imprime en cada cierre / a checkpoint is written SEQ:HEAD, as printed at each close",
    )?;
    let seq = seq
        .trim()
        .parse()
        .with_context(|| format!("`{seq}` no es un número de evento / is not an event number"))?;
    // Events are numbered from 1: a checkpoint 0 names nothing, and is
    // refused as a mistake in what was typed, not judged as a bundle cut
    // short.
    if seq == 0 {
        bail!("el punto de control 0 no existe: la numeración empieza en 1 / checkpoint 0 does not exist: numbering starts at 1");
    }
    let head = Digest::from_hex(head.trim())
        .map_err(|e| anyhow::anyhow!("la cabeza del punto de control / the checkpoint's head: {e}"))?;
    Ok((seq, head))
}

/// What `verify` checks the bundle against, from outside it.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct VerifyInputs {
    /// La clave del servicio publicada en la reunión (64 hex) / the daemon
    /// key published at the meeting.
    #[arg(long, value_name = "HEX")]
    pub daemon_key: Option<String>,
    /// Un punto de control leído en la reunión (repetible) / a checkpoint
    /// read out at the meeting, SEQ:HEAD (repeatable).
    #[arg(long = "checkpoint", value_name = "SEQ:HEAD")]
    pub checkpoints: Vec<String>,
    /// Cabezas firmadas que un observador guardó del tablero en vivo: una
    /// por línea, SEQ:HEAD:FIRMA o el JSON del tablero / signed heads an
    /// observer kept from the live feed, one a line.
    #[arg(long, value_name = "ARCHIVO")]
    pub witness: Option<PathBuf>,
    /// Recibos de votantes: un archivo (un recibo por línea, su JSON o
    /// NÚMERO:CABEZA:EVENTO:FIRMA como lo imprime el quiosco) o una
    /// carpeta (*.json uno por archivo, *.txt uno por línea; lo demás se
    /// omite y se nombra) / voters' receipts: a file (one a line, JSON or
    /// SEQ:HEAD:EVENT:SIGNATURE as a kiosk prints it) or a folder (*.json
    /// one a file, *.txt one a line; anything else is skipped and named).
    #[arg(long, value_name = "ARCHIVO|CARPETA")]
    pub receipts: Option<PathBuf>,
    /// Escribe el veredicto y los resultados recalculados en JSON / print
    /// the verdict and the re-derived results as JSON.
    #[arg(long)]
    pub json: bool,
}

/// A signed head, as `SEQ:HEAD:SIGNATURE` or the feed's JSON.
fn parse_witness(line: &str) -> Result<(asamblea_wire::Checkpoint, asamblea_wire::Signature)> {
    let (seq, head, signature) = if line.starts_with('{') {
        let value: serde_json::Value = serde_json::from_str(line).context("no es JSON / not JSON")?;
        let text = |key: &str| {
            value[key].as_str().map(str::to_string).with_context(|| format!("falta `{key}` / no `{key}`"))
        };
        (value["seq"].as_u64().context("falta `seq` / no `seq`")?, text("head")?, text("signature")?)
    } else {
        let mut parts = line.splitn(3, ':');
        let seq = parts
            .next()
            .unwrap_or("")
            .trim()
            .parse()
            .context("NÚMERO no es un número / SEQ is not a number")?;
        let head = parts
            .next()
            .context("escriba NÚMERO:CABEZA:FIRMA / write SEQ:HEAD:SIGNATURE")?
            .trim()
            .to_string();
        let signature = parts
            .next()
            .context("escriba NÚMERO:CABEZA:FIRMA / write SEQ:HEAD:SIGNATURE")?
            .trim()
            .to_string();
        (seq, head, signature)
    };
    let head = Digest::from_hex(&head).map_err(|e| anyhow::anyhow!("la cabeza / the head: {e}"))?;
    let signature = asamblea_wire::hex::decode(&signature)
        .and_then(|b| asamblea_wire::Signature::from_slice(&b).ok())
        .context("la firma: 128 dígitos hexadecimales / the signature: 128 hexadecimal digits")?;
    Ok((asamblea_wire::Checkpoint { seq, head }, signature))
}

/// A receipt as the API answers a ballot (`{"receipt": {seq, head,
/// event}, "signature"}`) or as a kiosk prints it
/// (`SEQ:HEAD:EVENT:SIGNATURE`), read by the daemon's own reader.
fn parse_receipt(text: &str) -> Result<(asamblea_wire::Receipt, asamblea_wire::Signature)> {
    asamblea_server::receipts::parse(text).map_err(anyhow::Error::msg)
}

/// The receipts `--receipts` names, each with its place for errors
/// (ledger-format §11.1), and what a folder held that is not a receipt by
/// its name. A file holds one receipt a line. In a folder, a file named
/// `*.json` holds one receipt as the API answers it (perhaps over several
/// lines), one named `*.txt` one receipt a line; anything else (a note, a
/// photograph, a hidden file, a folder) is passed over and named, so that
/// a kiosk's folder can be checked as it is. A receipt file that does not
/// read is refused, by its name and line, in [`verify`].
fn receipts_of(path: &Path) -> Result<ReceiptTexts> {
    if !path.is_dir() {
        return Ok(ReceiptTexts { receipts: lines_of(path)?, skipped: Vec::new() });
    }
    let mut entries: Vec<std::path::PathBuf> = std::fs::read_dir(path)
        .with_context(|| format!("{}: no se puede leer la carpeta / cannot read the folder", path.display()))?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<std::io::Result<_>>()
        .with_context(|| {
            format!("{}: no se puede leer la carpeta / cannot read the folder", path.display())
        })?;
    entries.sort();
    let (mut receipts, mut skipped) = (Vec::new(), Vec::new());
    for entry in entries {
        let name = entry.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let extension = entry.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
        match extension.as_deref() {
            Some("json") if entry.is_file() && !name.starts_with('.') => {
                receipts.push((entry.display().to_string(), fs_read(&entry)?));
            }
            Some("txt") if entry.is_file() && !name.starts_with('.') => receipts.extend(lines_of(&entry)?),
            _ => skipped.push(if entry.is_dir() { format!("{name}/") } else { name }),
        }
    }
    Ok(ReceiptTexts { receipts, skipped })
}

/// What [`receipts_of`] found.
struct ReceiptTexts {
    /// Each receipt's text, with its place (file, and line where a file
    /// holds one a line).
    receipts: Vec<(String, String)>,
    /// The folder's entries that are not receipts by their name.
    skipped: Vec<String>,
}

/// The non-empty lines of `path`, each with its place for errors.
fn lines_of(path: &Path) -> Result<Vec<(String, String)>> {
    let files: Vec<std::path::PathBuf> = if path.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(path)
            .with_context(|| {
                format!("{}: no se puede leer la carpeta / cannot read the folder", path.display())
            })?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        files
    } else {
        vec![path.to_path_buf()]
    };
    let mut lines = Vec::new();
    for file in files {
        let text = fs_read(&file)?;
        // A folder holds one receipt per file, written as the API answers
        // (possibly pretty-printed); a file, one per line.
        if path.is_dir() {
            lines.push((file.display().to_string(), text));
        } else {
            for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                lines.push((format!("{}, línea / line {}", file.display(), n + 1), line.trim().to_string()));
            }
        }
    }
    Ok(lines)
}

/// `asamblea verify PATH`: a bundle file, or a meeting directory's ledger
/// as stored. Returns whether it verified.
pub fn verify(path: &Path, inputs: &VerifyInputs, out: &mut dyn Write) -> Result<bool> {
    let daemon_key = match &inputs.daemon_key {
        Some(hex_key) => {
            let bytes = parse_hex32(hex_key).context("--daemon-key")?;
            Some(PublicKey::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("--daemon-key: {e}"))?)
        }
        None => None,
    };
    let checkpoints = inputs
        .checkpoints
        .iter()
        .map(|c| parse_checkpoint(c).context("--checkpoint"))
        .collect::<Result<Vec<_>>>()?;
    let mut witnesses = match &inputs.witness {
        Some(file) => lines_of(file)?
            .iter()
            .map(|(place, line)| parse_witness(line).with_context(|| format!("--witness {place}")))
            .collect::<Result<Vec<_>>>()?,
        None => Vec::new(),
    };
    let (receipts, skipped) = match &inputs.receipts {
        Some(file) => {
            let ReceiptTexts { receipts: texts, skipped } = receipts_of(file)?;
            let receipts = texts
                .iter()
                .map(|(place, text)| parse_receipt(text).with_context(|| format!("--receipts {place}")))
                .collect::<Result<Vec<_>>>()?;
            (receipts, skipped)
        }
        None => (Vec::new(), Vec::new()),
    };
    if !skipped.is_empty() && !inputs.json {
        writeln!(
            out,
            "Omitidos / skipped: {} (no son recibos por su nombre, *.json o *.txt / not receipts by name, *.json or *.txt)",
            skipped.join(", ")
        )?;
    }
    // The numbers of the heads the user gave: a head of the folder's own
    // file (below) that fails is named as that file's.
    let given: std::collections::HashSet<u64> =
        checkpoints.iter().map(|&(seq, _)| seq).chain(witnesses.iter().map(|(c, _)| c.seq)).collect();
    let mut kept = None;
    let temporary = if path.is_dir() {
        let keys_missing =
            asamblea_venue::secrets::key_folder_of(path).is_ok_and(|k| !k.join("daemon.seed").exists());
        let files = MeetingFiles::read(path).map_err(|e| {
            let e = anyhow::Error::from(e);
            if !keys_missing {
                return e;
            }
            e.context(
                "verificar una carpeta de reunión necesita sus claves (está en otra máquina o cuenta): \
                 exporte el paquete en la máquina de la sede (asamblea export) y verifique el paquete / \
                 verifying a meeting directory needs its keys (this is another machine or account): \
                 export the bundle on the venue's machine (asamblea export) and verify the bundle",
            )
        })?;
        // The heads the daemon signed and kept beside the ledger
        // (`DIR/ledger.checkpoints`), read by the one reading the start
        // uses: two the key signed at one event are an equivocation; every
        // other must be the ledger's head at its number (checked as an
        // observer's witnessed heads are), so that `verify DIR` refuses
        // whatever the start refuses — and it checks every line, not only
        // the latest.
        let heads =
            match asamblea_venue::checkpoints::read(path, &files.meeting_id, &files.daemon.public_key()) {
                Ok(heads) => heads,
                Err(e @ asamblea_venue::VenueError::Equivocation { .. }) => {
                    return said_failed(out, inputs.json, &e.to_string(), &skipped);
                }
                Err(e) => return Err(e.into()),
            };
        let signed = heads.signed();
        kept = Some(KeptHeads {
            seqs: signed.iter().map(|(c, _)| c.seq).filter(|seq| !given.contains(seq)).collect(),
            signed: signed.len(),
            lines: heads.lines(),
            file: asamblea_venue::checkpoints::path(path),
        });
        witnesses.extend(signed);
        // The rows exactly as stored: a hand-edited file is judged by the
        // verifier, naming the event, rather than refused whole. They are
        // written as a bundle to a temporary file of the meeting (with
        // checkpoints signed here with the meeting's daemon key over the
        // stored heads, at every close and at the end) and verified from
        // it, a slice at a time: a meeting of a million ballots is never
        // held in memory. The file has no name and is owner-only
        // (`asamblea_venue::scratch`).
        let file = asamblea_venue::scratch::file(path).context(
            "no se puede escribir un paquete temporal; ¿hay espacio en disco? / cannot write a temporary bundle: is there disk space?",
        )?;
        let sign = |c: &asamblea_wire::Checkpoint| c.sign(&files.meeting_id, &files.daemon);
        asamblea_ledger::export_raw_bundle(&path.join("ledger.db"), &files.bundle_head(), sign, &file)?;
        Some(file)
    } else {
        None
    };
    let observed = !given.is_empty();
    let options = VerifyOptions { daemon_key, checkpoints, witnesses, receipts, load_profile: &load_profile };
    // The bar appears once the bundle is read and its length is known.
    let mut bar = None;
    let mut progress = |done, total| {
        bar.get_or_insert_with(|| progress_bar(total, "Verificando / verifying")).set_position(done);
    };
    // A bundle file is read a slice at a time, never whole.
    let cannot_read = || format!("{}: no se puede leer el paquete / cannot read the bundle", path.display());
    let file = match temporary {
        Some(mut file) => {
            file.rewind().with_context(cannot_read)?;
            file
        }
        None => std::fs::File::open(path).with_context(cannot_read)?,
    };
    let verdict = asamblea_ledger::verify_bundle_state(&file, &options, &mut progress);
    drop(file);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match verdict {
        Ok((verified, state)) if inputs.json => {
            // Every item of the convened agenda, in order, with its state,
            // so that a poll still open is told from an item never opened;
            // a closed one with its result as the verifier re-derived it,
            // in the shape of the API's results (FORMAT.md). An open poll
            // shows its turnout only, as the board does.
            let items: Vec<serde_json::Value> = state
                .agenda()
                .iter()
                .map(|entry| {
                    let mut out = serde_json::json!({
                        "id": entry.item.as_str(),
                        "title": entry.title.as_str(),
                        "state": "pending",
                        "ballots": 0,
                    });
                    let opened = state
                        .meeting()
                        .and_then(|m| m.item_index(entry.item.as_str()).map(|at| (m, m.item(at))));
                    if let Some((meeting, item)) = opened {
                        out["ballots"] = serde_json::json!(item.ballots());
                        out["state"] = serde_json::json!(if item.is_closed() { "closed" } else { "open" });
                        if item.is_closed() {
                            out["result"] = asamblea_documents::results::item_json(meeting, item);
                        }
                    }
                    out
                })
                .collect();
            let answer = serde_json::json!({
                "verified": true,
                "records": verified.records,
                "head": hex(&verified.head.0),
                "checkpoints": verified.checkpoints,
                "signed_heads": kept.as_ref().map(|kept| kept.signed),
                "receipts": verified.receipts,
                "skipped": skipped,
                "items": items,
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
            Ok(true)
        }
        Ok((verified, state)) => {
            writeln!(
                out,
                "VERIFICADO / VERIFIED: {} eventos, {} resultados recalculados, {} puntos de control",
                thousands(verified.records),
                verified.results.len(),
                verified.checkpoints
            )?;
            if let Some(kept) = &kept {
                writeln!(
                    out,
                    "Cabezas firmadas por el servicio en {} / daemon-signed heads there: {} comprobadas / checked{}",
                    kept.file.display(),
                    thousands(kept.signed as u64),
                    match kept.lines - kept.signed {
                        0 => String::new(),
                        other => format!(
                            " ({other} líneas sin la firma del servicio, ignoradas como al iniciar / lines without the daemon's signature, ignored as at a start)"
                        ),
                    }
                )?;
            }
            if verified.receipts > 0 {
                writeln!(
                    out,
                    "Recibos / receipts: {} comprobados en la cadena / checked in the chain",
                    thousands(verified.receipts as u64)
                )?;
            }
            // Each closed item's figures, re-derived from the events alone:
            // what every page and document must agree with.
            if let Some(meeting) = state.meeting() {
                for entry in state.agenda() {
                    let Some(at) = meeting.item_index(entry.item.as_str()) else { continue };
                    let item = meeting.item(at);
                    if let Some(line) = figures_line(item) {
                        writeln!(out, "▶ {}: {}", entry.title.as_str(), item.outcome().spanish().to_uppercase())?;
                        writeln!(out, "    {line}")?;
                    }
                }
            }
            writeln!(out, "Cabeza final / final head: {}:{}", verified.records, hex(&verified.head.0))?;
            if !observed {
                writeln!(
                    out,
                    "Para detectar un paquete recortado o reescrito, compare con un punto de control leído en la reunión (--checkpoint SEQ:HEAD), las cabezas del tablero (--witness) o los recibos de los votantes (--receipts)."
                )?;
            }
            Ok(true)
        }
        Err(asamblea_ledger::VerifyError::Bundle(
            asamblea_ledger::BundleError::NotABundle
            | asamblea_ledger::BundleError::Truncated(asamblea_ledger::Part::Magic | asamblea_ledger::Part::Version),
        )) => bail!(
            "{}: no es un paquete de auditoría de asamblea (ni la carpeta de una reunión); exporte uno con `asamblea export DIR ARCHIVO` / not an asamblea audit bundle (nor a meeting directory)",
            path.display()
        ),
        Err(e) => {
            let problem = match (&e, &kept) {
                (
                    asamblea_ledger::VerifyError::CheckpointMismatch { seq }
                    | asamblea_ledger::VerifyError::Truncated { seq, .. },
                    Some(kept),
                ) if kept.seqs.contains(seq) => format!(
                    "el registro no es el que el servicio de la reunión firmó en el evento {seq} (una cabeza de {}): un evento guardado se cambió, se quitó o se recortó, y el inicio del servicio también lo rechaza / the ledger is not the one the daemon signed at event {seq} (a head in that file): a saved event was changed, removed or cut, and the daemon's start refuses it too: {e}",
                    kept.file.display()
                ),
                _ => e.to_string(),
            };
            said_failed(out, inputs.json, &problem, &skipped)
        }
    }
}

/// The heads of `DIR/ledger.checkpoints` that `verify DIR` holds the
/// ledger to.
struct KeptHeads {
    /// Their numbers (those the user did not give as well).
    seqs: std::collections::HashSet<u64>,
    /// How many lines the daemon's key signed.
    signed: usize,
    /// The file's lines, signed or not.
    lines: usize,
    /// The file.
    file: PathBuf,
}

/// `verify`'s answer when it did not verify: `FALLA / FAILED` and the
/// problem, or the same as JSON. Exit 1.
fn said_failed(out: &mut dyn Write, json: bool, problem: &str, skipped: &[String]) -> Result<bool> {
    if json {
        let answer = serde_json::json!({ "verified": false, "problem": problem, "skipped": skipped });
        writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
    } else {
        writeln!(out, "FALLA / FAILED: {problem}")?;
    }
    Ok(false)
}

/// A bundle file, opened for the documents made from it.
fn open_bundle(bundle: &Path) -> Result<std::fs::File> {
    std::fs::File::open(bundle).with_context(|| {
        format!("{}: no se puede leer el paquete / cannot read the bundle", bundle.display())
    })
}

fn parse_hex32(text: &str) -> Result<[u8; 32]> {
    asamblea_wire::hex::decode_array(text)
        .context("se esperaban 64 dígitos hexadecimales / expected 64 hexadecimal digits")
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
