//! `bench-scale`'s measured import of a powers file ([`crate::powers_gen`])
//! into a fresh meeting of the bench register. It is apart from the cached
//! meeting: that one is simulated to its end (installed, voted), and
//! powers are lodged only before the installation.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use asamblea_documents::numfmt::thousands;

use crate::powers_gen::powers_csv;

/// `bench-scale --powers N`: a fresh meeting of the bench register (in
/// `work`, emptied first), a file of `powers` powers with one agent's for
/// 500 principals and the planted defects, and `asamblea poderes importar
/// --solo-buenos` of it timed with its peak memory.
pub(super) fn measure_import(
    exe: &Path,
    work: &Path,
    holders: u64,
    powers: u64,
    out: &mut dyn Write,
) -> Result<()> {
    if work.exists() {
        std::fs::remove_dir_all(work)?;
    }
    let (dir, keys, inputs) = (work.join("meeting"), work.join("keys"), work.join("inputs"));
    std::fs::create_dir_all(&inputs)?;
    let (capital, register) = super::register_csv(holders);
    let (toml, csv, file) =
        (inputs.join("meeting.toml"), inputs.join("register.csv"), inputs.join("powers.csv"));
    std::fs::write(&toml, super::meeting_toml(1, capital))?;
    std::fs::write(&csv, register)?;
    let big = 500.min(holders / 4);
    let generated = powers_csv(holders, powers, big, true, super::MEETING_DATE)?;
    std::fs::write(&file, &generated.csv)?;
    super::init(exe, &keys, &dir, &toml, &csv)?;
    let import = [
        "poderes".as_ref(),
        "importar".as_ref(),
        dir.as_os_str(),
        file.as_os_str(),
        "--solo-buenos".as_ref(),
    ];
    let (took, peak) = super::measured(exe, &keys, &import)?;
    let events = super::asamblea_ledger_events(&dir)?;
    writeln!(
        out,
        "  Importar poderes / powers import: {} poderes en {} filas (uno de un apoderado con {} poderdantes; {} filas con error nombradas) en {}, pico / peak {} MB; {} eventos en el libro / events in the ledger   objetivo / target: segundos / seconds",
        thousands(generated.good),
        thousands(generated.rows),
        thousands(big),
        thousands(generated.bad_rows),
        crate::bench::seconds(took),
        thousands(peak.div_ceil(1024)),
        thousands(events)
    )?;
    let _ = std::fs::remove_dir_all(work);
    Ok(())
}
