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
    measure_admission(exe, &dir, &keys, big, out)?;
    let _ = std::fs::remove_dir_all(work);
    Ok(())
}

/// The desk's one action on the day: the daemon serving the meeting just
/// imported, the agent of the big power looked up by the bare number of
/// their card (as the console sends it on a scan), then admitted with all
/// their principals — each timed over HTTPS from the connection to the
/// whole answer, as the desk's browser sees it.
fn measure_admission(exe: &Path, dir: &Path, keys: &Path, big: u64, out: &mut dyn Write) -> Result<()> {
    use std::time::Duration;
    let ca = std::fs::read_to_string(dir.join("tls/ca.crt"))?;
    let tls = std::sync::Arc::new(asamblea_pki::client_config(&ca, None)?);
    let mut daemon = super::Daemon::start(exe, dir, keys)?;
    daemon.wait_answering(&tls, Duration::from_secs(600))?;
    let token = super::desk_token(keys)?;
    let addr = daemon.addr;
    let requests = || -> Result<_> {
        let lookup = |q: &str| {
            super::staff_request(addr, &tls, &token, "GET", &format!("/api/v1/expected?q={q}"), None)
        };
        // The first lookup reads the register's names (once a run).
        let (first, _) = lookup("90000000")?;
        let (looked, card) = lookup("90000000")?;
        let card: serde_json::Value = serde_json::from_str(&card)?;
        let to_carry = card["to_carry"].as_u64().unwrap_or(0);
        let (admitted, answer) = super::staff_request(
            addr,
            &tls,
            &token,
            "POST",
            "/api/v1/admissions",
            Some(r#"{"person":"CC-90000000"}"#),
        )?;
        let answer: serde_json::Value = serde_json::from_str(&answer)?;
        let carried = answer["carried"].as_array().map_or(0, Vec::len) as u64;
        Ok((first, looked, to_carry, admitted, carried))
    };
    let (first, looked, to_carry, admitted, carried) =
        requests().map_err(|e| anyhow::anyhow!("{e:#}\n{}", daemon.state()))?;
    daemon.kill()?;
    anyhow::ensure!(
        carried == big && to_carry == big,
        "la admisión llevó {carried} poderdantes y la ficha decía {to_carry}, no {big} / the admission carried {carried}, the card said {to_carry}, not {big}"
    );
    writeln!(
        out,
        "  Admisión en la mesa / desk admission: un apoderado con {} poderdantes en una acción / one agent with {} principals in one action: {} (ficha / card {}; la primera consulta, justo tras el arranque, mientras el servicio lee los nombres / the first lookup, right after the start, while the daemon reads the names: {})   objetivo / target < 1 s  {}",
        thousands(big),
        thousands(big),
        crate::bench::millis(admitted),
        crate::bench::millis(looked),
        crate::bench::millis(first),
        if admitted + looked < Duration::from_secs(1) { "✓" } else { "✗ NO CUMPLE / MISSED" }
    )?;
    Ok(())
}
