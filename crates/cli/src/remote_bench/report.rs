//! What `bench-remote` prints: the open-file limit and the daemon's caps
//! it sets, each N's figures, the curve as a table, and its projection to
//! [`super::PROJECTED`] attendees.

use std::io::Write;
use std::time::Duration;

use anyhow::Result;
use asamblea_documents::numfmt::{percent, thousands};

use super::projection::{project, slope};
use super::{Measured, RemoteOptions, PROJECTED};
use crate::bench::figures::{millis, quantile, seconds};

/// Raises this process's open-file limit (which the daemon it starts
/// inherits) to fit `most` attendees twice over, and says how far it
/// went; loudly when that is not enough.
pub(super) fn open_files(most: usize, out: &mut dyn Write) -> Result<u64> {
    let wanted = 2 * most as u64 + 8_192;
    let (got, why) = raise_open_files_to(wanted);
    writeln!(
        out,
        "  Límite de archivos abiertos / open-file limit: {} (este proceso y el daemon, que lo hereda; cada asistente es un descriptor en cada uno / this process and the daemon, which inherits it; each attendee is a descriptor in each)",
        thousands(got.min(u64::from(u32::MAX)))
    )?;
    if got < most as u64 + 4_096 {
        writeln!(
            out,
            "  ¡ATENCIÓN / WARNING! No se pudo subir a {} ({}): el daemon no tendrá descriptores para más conexiones que eso, y las que no quepan se contarán abajo como rechazadas (los feeds de este lado se reparten en procesos auxiliares); suba `ulimit -Hn` (root con CAP_SYS_RESOURCE) / could not raise it to that: the daemon will have no descriptors for more connections than that, and those that do not fit are counted below as refused (this side's feeds are spread over helper processes); raise `ulimit -Hn` (root with CAP_SYS_RESOURCE)",
            thousands(wanted),
            why.as_deref().unwrap_or("el sistema no lo permite / the system does not allow it")
        )?;
    }
    Ok(got)
}

/// The open-file limit raised to `wanted` (within `fs.nr_open`), or as far
/// as this process may; with why it stopped short.
fn raise_open_files_to(wanted: u64) -> (u64, Option<String>) {
    #[cfg(unix)]
    {
        use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
        let limit = getrlimit(Resource::Nofile);
        let hard = limit.maximum.unwrap_or(u64::MAX);
        let ceiling = std::fs::read_to_string("/proc/sys/fs/nr_open")
            .ok()
            .and_then(|n| n.trim().parse::<u64>().ok())
            .unwrap_or(hard)
            .max(hard);
        let target = wanted.min(ceiling);
        if hard < target {
            match setrlimit(Resource::Nofile, Rlimit { current: Some(target), maximum: Some(target) }) {
                Ok(()) => return (target, None),
                Err(e) => {
                    let got = crate::commands::raise_open_files();
                    return (got, Some(format!("setrlimit: {e}")));
                }
            }
        }
        let got = crate::commands::raise_open_files();
        (got, (got < wanted).then(|| format!("fs.nr_open = {ceiling}")))
    }
    #[cfg(not(unix))]
    {
        (asamblea_server::tls::DEFAULT_OPEN_FILES, Some("no Unix".to_string()))
    }
}

/// Descriptors the daemon keeps beyond its feeds: the venue's kiosks and
/// staff, the phones' requests and handshakes in flight, its own files.
pub(super) const DAEMON_SPARE_FILES: u64 = 1_024;

/// The daemon's caps for `attendees` with `open_files` descriptors: the
/// public's connections (the feeds, half as many requests, room for the
/// staff) and the feeds, each bounded so that [`DAEMON_SPARE_FILES`] stay
/// free. Above the descriptors a cap protects nothing: measured at
/// 20.000 attendees with 20.000 descriptors, the feeds took them all and
/// the kiosks could not connect (the venue's listener shares them).
pub(super) fn caps(attendees: usize, open_files: u64) -> (usize, usize) {
    let room = usize::try_from(open_files.saturating_sub(DAEMON_SPARE_FILES)).unwrap_or(usize::MAX).max(1);
    let connections = (attendees + attendees / 2 + 1_024).min(room + DAEMON_SPARE_FILES as usize / 2);
    (connections, (attendees + 64).min(room))
}

/// The daemon's caps for `attendees` (its arguments), and what it would
/// have refused with the caps `serve` sizes from the open-file limit
/// alone: the bench sets them as an operator must for a meeting this
/// large, and says so.
pub(super) fn daemon_caps(attendees: usize, open_files: u64, out: &mut dyn Write) -> Result<Vec<String>> {
    // With a public listener `serve` sizes each listener's caps from half
    // the descriptors.
    let sized = asamblea_server::tls::Limits::for_open_files(open_files / 2);
    let feeds = asamblea_server::ServiceLimits::for_public_connections(sized.max_public).max_feeds;
    let (connections, max_feeds) = caps(attendees, open_files);
    writeln!(
        out,
        "  Límites del daemon / daemon caps: --max-connections {} --max-feeds {} (sin ellos, del límite de archivos / without them, from the open-file limit: {} conexiones / connections, {} feeds: {} de los {} asistentes se quedarían sin feed / of the attendees would get no feed)",
        connections,
        max_feeds,
        thousands(sized.max_public as u64),
        thousands(feeds as u64),
        thousands(attendees.saturating_sub(feeds) as u64),
        thousands(attendees as u64)
    )?;
    if max_feeds < attendees {
        writeln!(
            out,
            "  ¡ATENCIÓN / WARNING! Con {} descriptores el daemon no puede tener más de {} feeds y dejar {} para los quioscos, el personal y las solicitudes: {} asistentes serán rechazados (503, too-many-subscribers) / with that many descriptors the daemon cannot hold more feeds and leave room for the kiosks, the staff and the requests: that many attendees will be refused (503, too-many-subscribers)",
            thousands(open_files),
            thousands(max_feeds as u64),
            thousands(DAEMON_SPARE_FILES),
            thousands((attendees - max_feeds) as u64)
        )?;
    }
    Ok(vec![
        "--max-connections".to_string(),
        connections.to_string(),
        "--max-feeds".to_string(),
        max_feeds.to_string(),
    ])
}

/// `; refused: 120 × 429, 3 × no answer`, or nothing.
pub(super) fn refusals(refused: &[(u16, usize)]) -> String {
    if refused.is_empty() {
        return String::new();
    }
    let each: Vec<String> = refused
        .iter()
        .map(|&(status, count)| match status {
            0 => format!("{} × sin respuesta / no answer", thousands(count as u64)),
            status => format!("{} × {status}", thousands(count as u64)),
        })
        .collect();
    format!("; ¡RECHAZADOS / REFUSED: {}!", each.join(", "))
}

/// One N's figures, every round pooled.
pub(super) fn one(m: &Measured, options: &RemoteOptions, out: &mut dyn Write) -> Result<()> {
    writeln!(
        out,
        "  Resumen / summary ({} asistentes / attendees, {} ronda(s) / round(s)):",
        thousands(m.attendees as u64),
        options.rounds
    )?;
    writeln!(
        out,
        "    papeletas a distancia / remote ballots: p50 {} · p99 {} (la solicitud sola / the request alone: p50 {} · p99 {})",
        millis(quantile(&m.remote_total, 500)),
        millis(quantile(&m.remote_total, 990)),
        millis(quantile(&m.remote_request, 500)),
        millis(quantile(&m.remote_request, 990)),
    )?;
    writeln!(
        out,
        "    quioscos / kiosks p99: {} solos / alone → {} con ellos / with them (p50 {} → {})",
        millis(quantile(&m.kiosks_alone.latencies, 990)),
        millis(quantile(&m.kiosks_with.latencies, 990)),
        millis(quantile(&m.kiosks_alone.latencies, 500)),
        millis(quantile(&m.kiosks_with.latencies, 500)),
    )?;
    writeln!(
        out,
        "    memoria del daemon por asistente / daemon memory per attendee: {} bytes ({} → {} MB)",
        thousands(m.bytes_per_attendee()),
        thousands(m.rss_before_kb / 1024),
        thousands(m.rss_with_kb / 1024)
    )?;
    writeln!(
        out,
        "    del cierre al último asistente / from the close to the last attendee: {} (mediana / median {})",
        m.close_last.iter().map(|d| millis(*d)).collect::<Vec<_>>().join(", "),
        millis(m.close_median)
    )?;
    writeln!(
        out,
        "    CPU del daemon / daemon CPU: {} con los quioscos solos / with the kiosks alone, {} con todos / with everyone ({} µs por asistente y ronda / per attendee and round)",
        seconds(m.cpu_alone),
        seconds(m.cpu_with),
        thousands(m.cpu_per_attendee_us(options.rounds))
    )?;
    Ok(())
}

/// The curve: one line per N.
pub(super) fn table(measured: &[Measured], options: &RemoteOptions, out: &mut dyn Write) -> Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "Curva / curve (ventana / window {}, {} quioscos a / kiosks at {} papeletas/s, {} ronda(s) / round(s)):",
        seconds(options.window),
        options.kiosks,
        thousands(options.kiosk_rate as u64),
        options.rounds
    )?;
    writeln!(
        out,
        "  asistentes | feeds | a distancia p50 · p99 | quioscos p99 solos → con ellos | memoria por asistente | cierre → último | CPU por asistente | carga / load"
    )?;
    for m in measured {
        writeln!(
            out,
            "  {} | {} | {} · {} | {} → {} | {} bytes | {} | {} µs | {}",
            thousands(m.attendees as u64),
            thousands(m.held as u64),
            millis(quantile(&m.remote_total, 500)),
            millis(quantile(&m.remote_total, 990)),
            millis(quantile(&m.kiosks_alone.latencies, 990)),
            millis(quantile(&m.kiosks_with.latencies, 990)),
            thousands(m.bytes_per_attendee()),
            millis(m.close_last.iter().copied().max().unwrap_or_default()),
            thousands(m.cpu_per_attendee_us(options.rounds)),
            m.load
        )?;
    }
    Ok(())
}

/// The projection to [`PROJECTED`] attendees, with its reasoning.
pub(super) fn projection(measured: &[Measured], options: &RemoteOptions, out: &mut dyn Write) -> Result<()> {
    // Memory and the close's reach are the held feeds'; the CPU, every
    // attendee's (each voted and beat, with a feed or not).
    let x = |m: &Measured| m.attendees as u64;
    let held = |m: &Measured| m.held as u64;
    // What the attendees add, above the daemon's memory before they came.
    let memory: Vec<(u64, u64)> =
        measured.iter().map(|m| (held(m), m.rss_with_kb.saturating_sub(m.rss_before_kb))).collect();
    let base_kb = measured.iter().map(|m| m.rss_before_kb).max().unwrap_or(0);
    let close: Vec<(u64, u64)> = measured
        .iter()
        .map(|m| (held(m), micros(m.close_last.iter().copied().max().unwrap_or_default())))
        .collect();
    // The daemon's CPU the attendees add to one window (their ballots,
    // their feeds' updates; not their connecting), in ms.
    let rounds = options.rounds.max(1) as u32;
    let cpu: Vec<(u64, u64)> =
        measured.iter().map(|m| (x(m), millis_of(m.cpu_with.saturating_sub(m.cpu_alone) / rounds))).collect();
    let kiosks_cpu = measured.iter().map(|m| millis_of(m.cpu_alone / rounds)).max().unwrap_or(0);
    let mut sizes: Vec<usize> = measured.iter().map(|m| m.attendees).collect();
    sizes.dedup();
    if sizes.len() < 2 {
        // One point gives no slope: what the attendees cost apart from
        // what their number does not change (the feed's paced updates).
        writeln!(
            out,
            "\nProyección a / projection to {}: hacen falta dos cifras de --attendees o más / needs two --attendees figures or more",
            thousands(PROJECTED)
        )?;
        return Ok(());
    }
    let (Some(memory_at), Some(close_at), Some(cpu_at)) =
        (project(&memory, PROJECTED), project(&close, PROJECTED), project(&cpu, PROJECTED))
    else {
        return Ok(());
    };
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get) as u64;
    let available = millis_of(options.window) * cores;
    let window_cpu = cpu_at + kiosks_cpu;
    writeln!(out)?;
    writeln!(out, "Proyección a / projection to {} asistentes / attendees (recta de mínimos cuadrados por los puntos medidos / least-squares line through the measured points):", thousands(PROJECTED))?;
    writeln!(
        out,
        "  memoria del daemon / daemon memory: {} MB antes / before + {} MB de los asistentes / of the attendees = {} MB ({} bytes por asistente / per attendee)",
        thousands(base_kb / 1024),
        thousands(memory_at / 1024),
        thousands((base_kb + memory_at) / 1024),
        thousands(u64::try_from(slope(&memory, 1_024).unwrap_or(0).max(0)).unwrap_or(0))
    )?;
    writeln!(
        out,
        "  del cierre al último asistente / from the close to the last attendee: {} ({} por cada mil asistentes / per thousand attendees)",
        seconds(Duration::from_micros(close_at)),
        millis(Duration::from_micros(u64::try_from(slope(&close, 1_000).unwrap_or(0).max(0)).unwrap_or(0)))
    )?;
    writeln!(
        out,
        "  CPU del daemon en la ventana / daemon CPU in the window: {} de los asistentes + {} de los quioscos = {} de {} disponibles / available ({} núcleos × {}): {}",
        seconds(Duration::from_millis(cpu_at)),
        seconds(Duration::from_millis(kiosks_cpu)),
        seconds(Duration::from_millis(window_cpu)),
        seconds(Duration::from_millis(available)),
        cores,
        seconds(options.window),
        percent(window_cpu, available)
    )?;
    writeln!(
        out,
        "  (por encima de ~70 % las colas crecen y el p99 de todos con ellas; por encima del 100 % la ventana no alcanza / past ~70 % queues grow and everyone's p99 with them; past 100 % the window is too short)"
    )?;
    writeln!(
        out,
        "  descriptores / file descriptors: {} en el daemon (un feed por asistente) / in the daemon (a feed each): --max-connections y --max-feeds por encima de eso / above that",
        thousands(PROJECTED + PROJECTED / 10)
    )?;
    Ok(())
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

fn millis_of(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
