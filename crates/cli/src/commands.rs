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

mod documents;
mod letters;
pub(crate) mod replica;
mod serve;
mod simulate;

pub use documents::{acta, export_results, ActaAsked};
pub use letters::letters;
pub(crate) use serve::raise_open_files;
pub use serve::{demo, serve, InternetListener, LimitOverrides, Replication};
pub use simulate::simulate;

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
    nodes: &[String],
    out: &mut dyn Write,
) -> Result<()> {
    create_meeting(dir, meeting, register, hosts, nodes, out).map(drop)
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
    nodes: &[String],
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
    })?
    .with_nodes(nodes)?;
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
