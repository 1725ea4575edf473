//! `asamblea poderes importar CARPETA ARCHIVO`: the powers of attorney
//! lodged with the company before the meeting, from the powers file
//! (`docs/powers-file.md`), each lodged with the rules' verdict, all in
//! one ledger transaction.
//!
//! Every bad row of the file is listed with its line, its column and why;
//! then nothing is lodged unless the operator chose to keep the good
//! powers (`--solo-buenos`). A power already lodged with the same content
//! is skipped (a file imported twice doubles nothing); the same reference
//! with other content refuses the whole import. Powers are lodged only
//! before the meeting is installed, and only while no daemon serves the
//! meeting (its API takes powers a few at a time, from the desk's form).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use asamblea_documents::numfmt::thousands;
use asamblea_rules::powers::PowerRefusal;
use asamblea_venue::lock::MeetingLock;
use asamblea_venue::powers_file::{self, PowersFile};
use asamblea_venue::service::Service;

use crate::commands::progress_bar;

/// `asamblea poderes …`.
#[derive(Debug, clap::Subcommand)]
pub enum PowersCommand {
    /// Radica los poderes de un archivo CSV (docs/powers-file.md), cada uno
    /// con el veredicto de las reglas, todos en una transacción / lodge the
    /// powers of a CSV file, each with the rules' verdict, all in one
    /// transaction.
    #[command(
        visible_alias = "import",
        after_help = "Cada fila con error se nombra con su línea, su columna y el motivo. Sin --solo-buenos ni --todo-o-nada, un archivo con errores no radica nada y dice las dos opciones. Un poder ya radicado con el mismo contenido se omite: importar dos veces no duplica nada. Solo antes de instalar la reunión, y sin el servicio en marcha. / Every bad row is named with its line, column and reason. Without either flag, a file with bad rows lodges nothing and says the two choices. A power already lodged with the same content is skipped. Only before the installation, with no daemon running.\n\nEjemplos / examples:\n  asamblea poderes importar reunion poderes.csv\n  asamblea poderes importar reunion poderes.csv --solo-buenos\n\nCódigos de salida / exit codes: 0 radicados / lodged · 2 archivo ilegible o con filas con error, nada radicado; o rechazado (el mensaje dice por qué) / unreadable file, or bad rows and nothing lodged; or refused."
    )]
    Importar {
        /// La carpeta de la reunión / the meeting directory.
        #[arg(value_name = "CARPETA")]
        dir: PathBuf,
        /// El archivo de poderes (CSV, o el CSV de Excel en Colombia) / the
        /// powers file (CSV, or Excel's in Colombia).
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Radica los poderes buenos y deja fuera los de filas con error /
        /// lodge the good powers, leave out those of bad rows.
        #[arg(long = "solo-buenos", visible_alias = "only-good", conflicts_with = "all_or_nothing")]
        only_good: bool,
        /// Si alguna fila tiene error, no radica ninguno / if any row is
        /// bad, lodge none.
        #[arg(long = "todo-o-nada", visible_alias = "all-or-nothing")]
        all_or_nothing: bool,
    },
}

/// Runs `asamblea poderes …`.
pub fn run(command: PowersCommand, out: &mut dyn Write) -> Result<Imported> {
    match command {
        PowersCommand::Importar { dir, file, only_good, all_or_nothing } => {
            let choice = match (only_good, all_or_nothing) {
                (true, _) => WithBadRows::KeepGood,
                (false, true) => WithBadRows::NoneAtAll,
                (false, false) => WithBadRows::Ask,
            };
            check_arguments(&dir, &file)?;
            import(&dir, &file, choice, out)
        }
    }
}

/// What to do with the good powers of a file that has bad rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WithBadRows {
    /// Not chosen: lodge nothing, and say the two choices.
    #[default]
    Ask,
    /// Lodge the good powers, leave the bad rows out (`--solo-buenos`).
    KeepGood,
    /// Lodge nothing (`--todo-o-nada`).
    NoneAtAll,
}

/// What an import did, for its exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Imported {
    /// Lodged (with `--solo-buenos`, bad rows may have been left out).
    Lodged,
    /// The file has bad rows and nothing was lodged.
    Refused,
}

/// `asamblea poderes importar DIR FILE`.
pub fn import(dir: &Path, file: &Path, choice: WithBadRows, out: &mut dyn Write) -> Result<Imported> {
    let name = file.display().to_string();
    let bytes = std::fs::read(file)
        .with_context(|| format!("{name}: no se puede leer el archivo / cannot read the file"))?;
    // The lock first: a daemon serving the meeting is said before a long read.
    let lock = MeetingLock::acquire_or_explain(dir)?;
    if let Some(mark) = asamblea_venue::lock::ReplicaMark::read(dir)? {
        bail!(
            "{}: esta carpeta es el nodo «{}» de una reunión replicada: lo que este comando escribiera aquí solo no quedaría \
             en la copia. Registre los poderes en la consola del registro del nodo que lidera (/registro, «Poderes») / this \
             folder is a node of a replicated meeting: what this command wrote here alone would not be in the copy. Lodge the \
             powers on the desk console of the node that leads",
            dir.display(),
            mark.node
        );
    }
    let rows = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
    let bar = progress_bar(rows, "Leyendo los poderes / reading the powers");
    let read = powers_file::read(&name, bytes.as_slice(), |n| bar.set_position(n));
    bar.finish_and_clear();
    let PowersFile { powers, bad, notes } = read?;
    for note in &notes {
        writeln!(out, "{note}")?;
    }
    let rows_of = |n: usize| if n == 1 { "fila / row" } else { "filas / rows" };
    writeln!(
        out,
        "Poderes leídos / powers read: {} buenos / good; {} {} con error / bad",
        thousands(powers.len() as u64),
        thousands(bad.len() as u64),
        rows_of(bad.len())
    )?;
    if !bad.is_empty() {
        writeln!(out, "Filas con error / bad rows ({name}):")?;
        for row in &bad {
            match row.field {
                Some(field) => writeln!(out, "  línea {}, {field}: {}", row.line, row.message)?,
                None => writeln!(out, "  línea {}: {}", row.line, row.message)?,
            }
        }
        match choice {
            WithBadRows::KeepGood => writeln!(
                out,
                "Se radican los {} poderes buenos; las filas con error quedan fuera / the good powers are lodged; the bad rows are left out",
                thousands(powers.len() as u64)
            )?,
            WithBadRows::NoneAtAll => {
                writeln!(
                    out,
                    "No se radicó nada (--todo-o-nada): corrija las filas y vuelva a importar / nothing was lodged (--all-or-nothing): correct the rows and import again"
                )?;
                return Ok(Imported::Refused);
            }
            WithBadRows::Ask => {
                writeln!(
                    out,
                    "No se radicó nada. Corrija las filas y vuelva a importar, o elija: --solo-buenos radica los poderes buenos y deja fuera los de las filas con error; --todo-o-nada no radica ninguno / \
                     nothing was lodged. Correct the rows and import again, or choose: --only-good lodges the good powers and leaves out those of the bad rows; --all-or-nothing lodges none"
                )?;
                return Ok(Imported::Refused);
            }
        }
    }
    if powers.is_empty() {
        writeln!(out, "No hay poderes que radicar / no powers to lodge")?;
        return Ok(if bad.is_empty() { Imported::Lodged } else { Imported::Refused });
    }

    let inputs: Vec<_> = powers.into_iter().map(|(_, power)| power).collect();
    let mut service = Service::open_locked(dir, lock)?;
    // Said before the transaction begins (and flushed): a kill from now on
    // leaves every power or none.
    writeln!(
        out,
        "Radicando {} poderes en una sola transacción… / lodging {} powers in one transaction…",
        thousands(inputs.len() as u64),
        thousands(inputs.len() as u64)
    )?;
    out.flush()?;
    let bar = progress_bar(inputs.len() as u64, "Radicando / lodging");
    let lodged = service.lodge_powers(&inputs, |done, _| bar.set_position(done as u64));
    bar.finish_and_clear();
    service.close();
    let report = lodged?;
    let accepted = report.lodged.iter().filter(|(_, verdict)| verdict.is_none()).count();
    let mut refused: BTreeMap<usize, (PowerRefusal, u64)> = BTreeMap::new();
    for reason in report.lodged.iter().filter_map(|(_, verdict)| *verdict) {
        let at = PowerRefusal::ALL.iter().position(|r| *r == reason).unwrap_or(usize::MAX);
        refused.entry(at).or_insert((reason, 0)).1 += 1;
    }
    writeln!(out, "Radicados / lodged: {}", thousands(report.lodged.len() as u64))?;
    writeln!(out, "  aceptados / accepted: {}", thousands(accepted as u64))?;
    writeln!(out, "  rechazados / refused: {}", thousands((report.lodged.len() - accepted) as u64))?;
    for (reason, count) in refused.values() {
        let (es, en) = reason.words();
        writeln!(out, "    {}: {es} / {en} ({})", thousands(*count), reason.code())?;
    }
    writeln!(
        out,
        "Ya radicados con el mismo contenido, omitidos / already lodged with the same content, skipped: {}",
        thousands(report.unchanged.len() as u64)
    )?;
    if !bad.is_empty() {
        writeln!(out, "Filas con error, fuera / bad rows, left out: {}", thousands(bad.len() as u64))?;
    }
    Ok(Imported::Lodged)
}

/// The refusal when the file names no meeting folder that exists (a
/// common slip: the two arguments swapped).
fn check_arguments(dir: &Path, file: &Path) -> Result<()> {
    if !dir.is_dir() {
        bail!(
            "{}: no es la carpeta de una reunión; el orden es asamblea poderes importar CARPETA ARCHIVO / not a meeting directory; the order is DIR FILE",
            dir.display()
        );
    }
    if !file.is_file() {
        bail!("{}: no es un archivo / not a file", file.display());
    }
    Ok(())
}
