//! The documents made from an audit bundle: the tallies
//! (`export-results`) and the acta's draft (`acta`, and `--check`).

use super::*;

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
