//! `asamblea bench-remote`: the mixed meeting's scale (issue 26, point
//! 9). N remote attendees connected to one daemon, each holding the live
//! feed open over TLS on the internet listener, all of them voting within
//! a window (two minutes by default) while the room's kiosks vote at a
//! steady pace on the same item; then the chair closes it and each
//! attendee's feed times the result's arrival. Run at several N in one
//! command (`--attendees 5000,10000,20000`), it prints the curve and its
//! projection to 100.000.
//!
//! # What it does, for each N
//!
//! 1. **The meeting, written before the daemon starts** (in process, a
//!    few seconds for 20.000): a mixed meeting's file, a register of the
//!    room's holders and the remote attendees; the room checked in with a
//!    badge each; for each remote attendee a key of its own, the desk's
//!    `identity-verified` and `remote-credential-issued` (signed by the
//!    operator) and the attendee's own signed `checked-in-remote`: the
//!    ledger's same admission as through the API, without timing what the
//!    figures do not ask for. Two items a round, open.
//! 2. **The daemon is `asamblea serve`**, a child process (so that its
//!    resident memory and CPU are its own), with the internet listener
//!    (`--public-listen`, a company certificate the bench makes) and its
//!    caps set for N (`--max-feeds` never above its descriptors less
//!    1.024, `--max-connections` less 512: the listeners share them; above them
//!    the feeds took every one and the kiosks could not connect); the
//!    bench says what the caps sized from the open-file limit alone would
//!    have refused. The open-file limit is raised (this process's, which
//!    the child inherits) to fit N twice over; where it cannot be (no
//!    `CAP_SYS_RESOURCE`), the bench says so loudly, holds the feeds this
//!    process cannot in helper processes (`feeds`), and the daemon's
//!    refusals show in the figures and fail the run.
//! 3. **Each round**, in turn:
//!    - **the kiosks alone**: `--kiosks` kiosks on the venue listener send
//!      `--kiosk-rate` ballots a second in all, for the window, on the
//!      round's first item;
//!    - **N attendees connect**: each a TLS connection to the internet
//!      listener from its own loopback address (25 to an address), `GET
//!      /api/v1/feed`, held; the daemon's resident memory is read before
//!      and after; from then on each phone signs a heartbeat every
//!      `heartbeat_seconds` of the meeting (60 s), spread over the period,
//!      each on a fresh connection;
//!    - **everyone votes**: the same kiosk load on the round's second
//!      item, and each attendee's ballot (signed beforehand with its key)
//!      at its moment, evenly over the window, `POST
//!      /api/v1/remote/ballots` on a fresh connection, as a phone's page
//!      sends it; every answer is checked afterwards (a receipt for that
//!      ballot, signed by the daemon);
//!    - **the close**: the chair closes the item over HTTPS; each feed
//!      says when the result (`{"type":"result","item":…}`) arrived;
//!    - the attendees disconnect.
//!
//! Everything runs on the same two cores: the daemon, and in this process
//! the kiosks, the phones' TLS and the feeds' readers. The figures are
//! printed with the machine's load average.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use asamblea_documents::numfmt::thousands;

use crate::bench::figures::{load_average, quantile, seconds, Run};

pub(crate) mod feeds;
mod kiosks;
mod meeting;
mod phones;
mod projection;
mod report;
mod round;
#[cfg(test)]
mod tests;

/// What to run.
#[derive(Clone, Debug)]
pub struct RemoteOptions {
    /// Remote attendees, one measure each, in order.
    pub attendees: Vec<usize>,
    /// The window in which every remote attendee votes (and the kiosks'
    /// runs last).
    pub window: Duration,
    /// The room's kiosks.
    pub kiosks: usize,
    /// Kiosk ballots a second, all kiosks together.
    pub kiosk_rate: usize,
    /// Rounds at each N.
    pub rounds: usize,
}

/// The most attendees one measure takes: past it the bench's own
/// descriptors (one feed each, in this process too) and its memory are the
/// limit, not the daemon's.
pub const MAX_ATTENDEES: usize = 200_000;

/// Where the curve is projected to.
pub const PROJECTED: u64 = 100_000;

/// What one N measured, every round pooled.
pub(crate) struct Measured {
    pub(crate) attendees: usize,
    /// Feeds held (the fewest of any round) and the answers of the refused
    /// ones by status (0: no answer).
    pub(crate) held: usize,
    pub(crate) refused: Vec<(u16, usize)>,
    /// The longest time all N feeds took to connect.
    pub(crate) connect: Duration,
    /// Acknowledged remote ballots' latencies: from the connection's start,
    /// and from the request's first byte.
    pub(crate) remote_total: Vec<Duration>,
    pub(crate) remote_request: Vec<Duration>,
    pub(crate) remote_failures: Vec<String>,
    /// Acknowledged heartbeats' latencies (from the connection's start);
    /// those refused, unanswered or saying the presence lapsed.
    pub(crate) heartbeats: Vec<Duration>,
    pub(crate) heartbeat_failures: usize,
    /// The last remote answer, from the window's start.
    pub(crate) remote_elapsed: Duration,
    pub(crate) kiosks_alone: Run,
    pub(crate) kiosks_with: Run,
    /// The daemon's resident memory before the attendees connected and
    /// with them (the round with the most), in kB.
    pub(crate) rss_before_kb: u64,
    pub(crate) rss_with_kb: u64,
    /// From the chair's close to the last attendee's feed, each round;
    /// the median attendee's; how many saw it (the fewest of any round).
    pub(crate) close_last: Vec<Duration>,
    pub(crate) close_median: Duration,
    pub(crate) reached: usize,
    /// The daemon's CPU time during the kiosks-alone runs and during the
    /// windows with the attendees (their ballots and their feeds, beside
    /// the same kiosk load), all rounds.
    pub(crate) cpu_alone: Duration,
    pub(crate) cpu_with: Duration,
    /// The load averages when the measure ended.
    pub(crate) load: String,
}

impl Measured {
    /// Resident memory the attendees added, per attendee, in bytes.
    pub(crate) fn bytes_per_attendee(&self) -> u64 {
        self.rss_with_kb.saturating_sub(self.rss_before_kb) * 1024 / (self.held as u64).max(1)
    }

    /// The daemon's CPU time the attendees added to a window (their
    /// ballots, their feeds' updates), per attendee and round, in µs.
    pub(crate) fn cpu_per_attendee_us(&self, rounds: usize) -> u64 {
        let added = self.cpu_with.saturating_sub(self.cpu_alone);
        u64::try_from(added.as_micros()).unwrap_or(u64::MAX) / (self.attendees * rounds).max(1) as u64
    }
}

/// `asamblea bench-remote`.
pub fn bench_remote(options: &RemoteOptions, out: &mut dyn Write) -> Result<()> {
    check_options(options)?;
    let exe = std::env::current_exe()
        .context("no se encuentra el programa asamblea / cannot find the asamblea binary")?;
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    writeln!(
        out,
        "asamblea bench-remote: {} asistentes a distancia / remote attendees, ventana / window {}, {} quioscos a / kiosks at {} papeletas/s, {} ronda(s) / round(s), {cores} núcleos / cores",
        options.attendees.iter().map(|n| thousands(*n as u64)).collect::<Vec<_>>().join(", "),
        seconds(options.window),
        options.kiosks,
        thousands(options.kiosk_rate as u64),
        options.rounds,
    )?;
    writeln!(
        out,
        "  Carga de la máquina al empezar / load average at the start (1 · 5 · 15 min): {}",
        load_average()
    )?;
    let most = options.attendees.iter().copied().max().unwrap_or(0);
    let open_files = report::open_files(most, out)?;
    out.flush()?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().thread_name("phones").build()?;
    let mut measured = Vec::new();
    for &attendees in &options.attendees {
        let root = std::env::temp_dir().join(format!(
            "asamblea-bench-remote-{}-{attendees}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos())
        ));
        let result = measure(&exe, &runtime, &root, attendees, open_files, options, out);
        remove_meeting(&root);
        let m = result?;
        report::one(&m, options, out)?;
        measured.push(m);
    }
    report::table(&measured, options, out)?;
    report::projection(&measured, options, out)?;
    let failed: usize = measured
        .iter()
        .map(|m| {
            m.remote_failures.len() + m.heartbeat_failures + m.kiosks_alone.failures + m.kiosks_with.failures
        })
        .sum();
    let short: Vec<String> = measured
        .iter()
        .filter(|m| m.held < m.attendees || m.reached < m.held)
        .map(|m| thousands(m.attendees as u64))
        .collect();
    if failed > 0 || !short.is_empty() {
        bail!(
            "{failed} papeletas o latidos sin confirmar; feeds incompletos en / ballots or heartbeats not acknowledged; feeds short at: {} (las cifras de arriba lo detallan / the figures above say where)",
            if short.is_empty() { "-".to_string() } else { short.join(", ") }
        );
    }
    Ok(())
}

/// The options' bounds, each refusal saying what to do.
pub(crate) fn check_options(options: &RemoteOptions) -> Result<()> {
    if options.attendees.is_empty() || options.attendees.iter().any(|&n| n == 0 || n > MAX_ATTENDEES) {
        bail!(
            "--attendees: cada cifra entre 1 y {0}, separadas por comas (p. ej. 5000,10000,20000) / each figure between 1 and {0}, comma-separated",
            thousands(MAX_ATTENDEES as u64)
        );
    }
    if options.window < Duration::from_secs(1) {
        bail!("--window: al menos 1 segundo / at least 1 second");
    }
    if options.kiosks == 0 || options.kiosk_rate < options.kiosks {
        bail!("--kiosks al menos 1 y --kiosk-rate al menos --kiosks (una papeleta por quiosco) / --kiosks at least 1 and --kiosk-rate at least --kiosks");
    }
    if options.rounds == 0 || options.rounds > asamblea_wire::limits::MAX_AGENDA_ITEMS / 2 {
        bail!(
            "--rounds: entre 1 y {} (dos puntos del orden del día por ronda) / between 1 and that (two agenda items a round)",
            asamblea_wire::limits::MAX_AGENDA_ITEMS / 2
        );
    }
    Ok(())
}

/// The kiosks' ballots in each of their runs: the rate over the window.
pub(crate) fn kiosk_ballots(options: &RemoteOptions) -> usize {
    let millis = usize::try_from(options.window.as_millis()).unwrap_or(usize::MAX);
    (options.kiosk_rate.saturating_mul(millis) / 1000).max(options.kiosks)
}

/// The meeting and its keys go, whatever happened.
fn remove_meeting(root: &Path) {
    if let Ok(keys) = asamblea_venue::secrets::key_folder_of(&root.join("meeting")) {
        let _ = std::fs::remove_dir_all(keys);
    }
    let _ = std::fs::remove_dir_all(root);
}

/// One N: the meeting, the daemon, the rounds.
fn measure(
    exe: &Path,
    runtime: &tokio::runtime::Runtime,
    root: &Path,
    attendees: usize,
    open_files: u64,
    options: &RemoteOptions,
    out: &mut dyn Write,
) -> Result<Measured> {
    writeln!(out, "\n== {} asistentes a distancia / remote attendees ==", thousands(attendees as u64))?;
    let setup = Instant::now();
    let kiosk_ballots = kiosk_ballots(options);
    let prepared = meeting::prepare(root, attendees, kiosk_ballots, options.rounds, options.kiosks)?;
    writeln!(
        out,
        "  Preparación / setup: {} en la sala con credencial, {} verificados y llegados a distancia, en el libro antes de arrancar ({}) / in the room with badges, verified and arrived from afar, in the ledger before the start",
        thousands(kiosk_ballots as u64),
        thousands(attendees as u64),
        seconds(setup.elapsed())
    )?;
    let daemon_args = report::daemon_caps(attendees, open_files, out)?;
    let public = crate::scale::free_local_address()?;
    let company = &prepared.company;
    let mut args = vec![
        "--public-listen".to_string(),
        public.to_string(),
        "--public-cert".to_string(),
        company.join("tls/server.crt").display().to_string(),
        "--public-key".to_string(),
        company.join("tls/server.key").display().to_string(),
    ];
    args.extend(daemon_args);
    let mut daemon = crate::scale::Daemon::serving(exe, &prepared.dir, None, &args)?;
    let venue_tls = asamblea_kiosk::staff_tls(&prepared.dir)?;
    daemon.wait_answering(&venue_tls, Duration::from_secs(120))?;
    let pid = daemon.pid().to_string();
    let venue = daemon.addr;
    let phone_tls =
        Arc::new(asamblea_pki::client_config(&std::fs::read_to_string(company.join("tls/ca.crt"))?, None)?);
    writeln!(
        out,
        "  Daemon: https://{venue}/ (sede / venue), https://{public}/ (internet), proceso / process {pid}"
    )?;
    out.flush()?;

    let mut m = Measured {
        attendees,
        held: attendees,
        refused: Vec::new(),
        connect: Duration::ZERO,
        remote_total: Vec::new(),
        remote_request: Vec::new(),
        remote_failures: Vec::new(),
        heartbeats: Vec::new(),
        heartbeat_failures: 0,
        remote_elapsed: Duration::ZERO,
        kiosks_alone: Run::pooled(&[]),
        kiosks_with: Run::pooled(&[]),
        rss_before_kb: 0,
        rss_with_kb: 0,
        close_last: Vec::new(),
        close_median: Duration::ZERO,
        reached: attendees,
        cpu_alone: Duration::ZERO,
        cpu_with: Duration::ZERO,
        load: String::new(),
    };
    let serving = round::Serving {
        exe,
        runtime,
        prepared: &prepared,
        venue,
        public,
        pid: &pid,
        venue_tls: &venue_tls,
        phone_tls: &phone_tls,
        attendees,
        open_files,
        window: options.window,
    };
    let mut rounds = round::Rounds::default();
    for round in 0..options.rounds {
        round::run(&serving, round, &mut daemon, &mut m, &mut rounds, out)?;
    }
    daemon.kill()?;
    m.kiosks_alone = Run::pooled(&rounds.alone);
    m.kiosks_with = Run::pooled(&rounds.with);
    m.remote_total.sort_unstable();
    m.remote_request.sort_unstable();
    m.heartbeats.sort_unstable();
    rounds.medians.sort_unstable();
    m.close_median = quantile(&rounds.medians, 500);
    m.load = load_average();
    Ok(m)
}
