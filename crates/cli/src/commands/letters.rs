//! `asamblea cartas`: the admission letters (cartas de admisión) of a
//! meeting as one PDF on Carta, one letter a person, or one person's.
//! Made by `asamblea_server::letters`, as the desk's download makes them.

use super::*;
use asamblea_server::letters::{LettersError, LettersSource};
use asamblea_venue::lock::{busy_message, Holder};

/// Writes the letters of the meeting in `dir` (or only `person`'s) to
/// `file`. The meeting is opened on its files, under its lock: while a
/// daemon serves it, the desk downloads them from the daemon instead.
pub fn letters(dir: &Path, file: &Path, person: Option<&str>, out: &mut dyn Write) -> Result<()> {
    let lock = match MeetingLock::acquire(dir)? {
        Ok(lock) => lock,
        Err(Holder::Daemon(run)) => bail!(
            "{}: la reunión está siendo servida por el proceso {} en https://{}/: descargue las cartas del servicio, \
             GET https://{}/api/v1/letters.pdf con la ficha del operador, o detenga el servicio / the meeting is being \
             served there: download the letters from the daemon (GET /api/v1/letters.pdf, the operator's token), or stop it",
            dir.display(),
            run.pid,
            run.address,
            run.address
        ),
        Err(holder) => bail!("{}", busy_message(dir, &holder)),
    };
    let service = Service::open_locked(dir, lock)?;
    let names = service.holder_names()?;
    let name_of = |id: &str| names.get(id).cloned().unwrap_or_default();
    let source = match LettersSource::of(&service, &name_of, person) {
        Ok(source) => source,
        Err(e @ LettersError::NoSuchPerson(_)) => bail!("--persona: {e}"),
        Err(e) => bail!("{}: {e}", dir.display()),
    };
    drop(service);
    let bytes = source.pdf()?;
    std::fs::write(file, &bytes)
        .with_context(|| format!("{}: no se puede escribir / cannot write it", file.display()))?;
    writeln!(
        out,
        "Cartas de admisión escritas / admission letters written: {} ({} {}, {} bytes)",
        file.display(),
        thousands(source.len() as u64),
        if source.len() == 1 { "carta / letter" } else { "cartas / letters" },
        thousands(bytes.len() as u64)
    )?;
    Ok(())
}
