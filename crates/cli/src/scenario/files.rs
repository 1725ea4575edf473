//! `asamblea scenario FILE…`: each file printed (`--report`), checked
//! against its `[expect]` (`--check`), or recorded as a bundle
//! (`--bundle`), with the exit code the command line returns.

use std::io::Write;

use crate::scenario;

/// `asamblea scenario`: one file's outcome as FORMAT.md's JSON, or many
/// files reported, checked or recorded; the exit code.
pub(crate) fn command(
    check: bool,
    report: bool,
    bundle: Option<&std::path::Path>,
    files: &[String],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    if let Some(out_dir) = bundle {
        bundle_files(files, out_dir, out, err)
    } else if check {
        check_files(files, out, err)
    } else if report {
        report_files(files, out, err)
    } else if let [file] = files {
        match load(file) {
            Ok(s) => {
                let json = scenario::outcome_json(&scenario::replay(&s));
                let _ = writeln!(out, "{}", serde_json::to_string_pretty(&json).expect("JSON values print"));
                0
            }
            Err(message) => {
                let _ = writeln!(err, "error: {message}");
                2
            }
        }
    } else {
        let _ = writeln!(
            err,
            "error: dé un solo ARCHIVO para la salida JSON, o use --check o --report para varios / give one FILE for JSON output, or use --check or --report for several"
        );
        2
    }
}

/// A scenario file read and parsed, or why not, naming the file.
fn load(file: &str) -> Result<scenario::Scenario, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("{file}: no se puede leer el archivo / cannot read the file: {e}"))?;
    scenario::parse(file, &text).map_err(|e| e.to_string())
}

fn report_files(files: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let mut code = 0;
    for file in files {
        match load(file) {
            Ok(s) => {
                let replay = scenario::replay(&s);
                let _ = writeln!(out, "{}", scenario::report(file, &s, &replay));
            }
            Err(message) => {
                let _ = writeln!(err, "error: {message}");
                code = 2;
            }
        }
    }
    code
}

fn check_files(files: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let (mut passed, mut failed, mut invalid) = (0, 0, 0);
    for file in files {
        let s = match load(file) {
            Ok(s) => s,
            Err(message) => {
                let _ = writeln!(err, "error: {message}");
                invalid += 1;
                continue;
            }
        };
        let Some(expect) = &s.expect else {
            let _ = writeln!(out, "FALLA / FAIL {file}: no tiene tabla [expect] con qué comparar / no [expect] table to check against");
            failed += 1;
            continue;
        };
        let actual = scenario::outcome_json(&scenario::replay(&s));
        let differences = scenario::compare(expect, &actual);
        if differences.is_empty() {
            let _ = writeln!(out, "ok   {file}");
            passed += 1;
        } else {
            let _ = writeln!(out, "FALLA / FAIL {file}");
            for d in differences {
                let _ = writeln!(out, "     {d}");
            }
            failed += 1;
        }
    }
    let _ = writeln!(
        out,
        "escenarios / scenarios: {passed} correctos / passed, {} fallidos / failed",
        failed + invalid
    );
    if invalid > 0 {
        2
    } else if failed > 0 {
        1
    } else {
        0
    }
}

/// `asamblea scenario --bundle DIR FILE…`: each scenario recorded as the
/// daemon records a meeting, its audit bundle written to DIR.
fn bundle_files(files: &[String], out_dir: &std::path::Path, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    if let Err(e) = std::fs::create_dir_all(out_dir) {
        let _ = writeln!(
            err,
            "error: {}: no se puede crear la carpeta / cannot create the folder: {e}",
            out_dir.display()
        );
        return 2;
    }
    let (mut written, mut invalid) = (0, 0);
    let mut stems = std::collections::HashSet::new();
    for file in files {
        let recorded = load(file).map_err(anyhow::Error::msg).and_then(|s| {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos());
            let work = std::env::temp_dir().join(format!("asamblea-scenario-{}-{nanos}", std::process::id()));
            let bundle = scenario::record(&s, &work);
            if let Ok(keys) = asamblea_venue::secrets::key_folder_of(&work) {
                let _ = std::fs::remove_dir_all(keys);
            }
            let _ = std::fs::remove_dir_all(&work);
            bundle
        });
        let stem = std::path::Path::new(file)
            .file_stem()
            .map_or_else(|| "scenario".into(), |s| s.to_string_lossy().into_owned());
        let path = out_dir.join(format!("{stem}.bundle"));
        let recorded = recorded.and_then(|bundle| {
            anyhow::ensure!(
                stems.insert(stem.clone()),
                "{}: ya se escribió otro archivo con ese nombre; renombre uno de los escenarios / another file of that name was written already",
                path.display()
            );
            Ok(bundle)
        });
        match recorded.and_then(|bundle| {
            // Written only once it verifies, with the same loader as `verify`.
            crate::commands::verify_bytes(&bundle.encode())?;
            std::fs::write(&path, bundle.encode()).map_err(|e| {
                anyhow::anyhow!("{}: no se puede escribir / cannot write: {e}", path.display())
            })?;
            Ok(bundle.records.len())
        }) {
            Ok(records) => {
                let _ = writeln!(
                    out,
                    "ok   {file} → {} ({} eventos / events)",
                    path.display(),
                    asamblea_documents::numfmt::thousands(records as u64)
                );
                written += 1;
            }
            Err(e) => {
                let _ = writeln!(err, "error: {file}: {e:#}");
                invalid += 1;
            }
        }
    }
    let _ = writeln!(out, "paquetes / bundles: {written} escritos / written, {invalid} no / not");
    if invalid > 0 {
        2
    } else {
        0
    }
}
