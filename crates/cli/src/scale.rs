//! `asamblea bench-scale`: a listed company's meeting — by default 131.000
//! holders, ten items, 90 % attending: over a million signed ballots — and
//! what its size does to a restart after kill -9, to `verify` and to
//! `export`, each measured as a user meets it: the real `asamblea`
//! binary, in its own process.
//!
//! # What it does
//!
//! 1. **The meeting, built once and cached** in `--cache` (default: a
//!    folder under the system's temporary directory named by the size and
//!    the ledger format's version): a generated register and agenda,
//!    `asamblea init`, then `asamblea simulate` (real badges, real signed
//!    ballots through the daemon's checks). A file `built.txt` is written
//!    last, naming the digest of the generated register and agenda; a
//!    folder without it, or made from other inputs (an older generator's,
//!    left in a machine's temporary directory), is built again from
//!    nothing. The keys live
//!    in the cache's `keys/` (`ASAMBLEA_KEYS`). Later runs skip straight
//!    to the measures.
//! 2. **Restart after kill -9**: `asamblea serve` is started, killed with
//!    SIGKILL once it answers (a crash, so no head is signed at the stop),
//!    then started `--restarts` times, each timed from the launch to the
//!    first `200` of `GET /api/v1/status` over HTTPS, its peak resident
//!    memory read (`VmHWM`) before it too is killed.
//!    The first restarted daemon also answers 20 searches of the register
//!    (`GET /api/v1/holders?q=`, what the registration desk's console
//!    sends as the operator types), each timed over HTTPS.
//! 3. **`asamblea export`** and **`asamblea verify`** of that bundle, each
//!    timed, with its peak memory (the child reports its own `VmHWM` as it
//!    exits when `ASAMBLEA_PEAK_MEMORY` is set: see [`report_peak_memory`]).
//! 4. **`asamblea poderes importar`** (`--powers`, 20.000 by default) of a
//!    generated powers file, one agent's power for 500 principals among
//!    them, into a fresh meeting of the same register, timed with its peak
//!    memory (`powers_import`, [`crate::powers_gen`]); the target is seconds.
//!
//! Why 131.000 holders and not 100.000: a preferred holder (one in ten
//! here) votes only on the item listed for preferred shares, and an agent
//! signs one ballot for its three principals, so ten items with 90 %
//! attending make 7,7 ballots a holder: 100.000 holders sign about
//! 768.000 ballots, 131.000 about 1.005.000.
//!
//! The targets (issue 14) are printed beside the figures: a restart under
//! 10 s; verify at twice the 24.800 events/s measured before the issue
//! (one core); under 150 MB resident for each of the three. This shared
//! machine is not equally fast every day (one core's strict checks a
//! second, printed beside verify's rate, went from 33.118 on 2026-12-01 to
//! about 23.000 on 2026-12-02), so the fixed 24.800 is a figure of one
//! day; `scripts/before-and-after` times the code as it stood before the
//! issue and today's in the same hour, alternating, on the same meeting.

use std::io::{Read as _, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use asamblea_documents::numfmt::thousands;

mod powers_import;

/// What to build and measure.
#[derive(Clone, Debug)]
pub struct ScaleOptions {
    /// Holders in the register.
    pub holders: u64,
    /// Items on the agenda.
    pub items: usize,
    /// Percentage of holders who attend.
    pub attendance: u64,
    /// Where the built meeting is kept between runs (`None`: the default
    /// under the temporary directory).
    pub cache: Option<PathBuf>,
    /// Timed restarts.
    pub restarts: usize,
    /// Powers imported from a file into a fresh meeting of the same
    /// register, timed (0: not measured).
    pub powers: u64,
}

/// A restart must answer within this.
const TARGET_RESTART: Duration = Duration::from_secs(10);
/// `verify`'s events per second before issue 14 (30.000 holders, one core).
const VERIFY_BEFORE: u64 = 24_800;
/// Resident memory ceiling for each of start, verify and export.
const TARGET_MEMORY_KB: u64 = 150 * 1024;

/// The environment variable that makes `asamblea` print its peak
/// resident memory on standard error as it exits.
pub const PEAK_MEMORY_VARIABLE: &str = "ASAMBLEA_PEAK_MEMORY";
const PEAK_MEMORY_LINE: &str = "asamblea peak-memory-kb ";

/// Prints this process's peak resident memory on standard error when
/// [`PEAK_MEMORY_VARIABLE`] is set (what the bench reads of its children).
pub fn report_peak_memory() {
    if std::env::var_os(PEAK_MEMORY_VARIABLE).is_some() {
        if let Some(kb) = peak_kb(&std::fs::read_to_string("/proc/self/status").unwrap_or_default()) {
            eprintln!("{PEAK_MEMORY_LINE}{kb}");
        }
    }
}

/// `VmHWM` of a `/proc/PID/status` text, in kB.
fn peak_kb(status: &str) -> Option<u64> {
    crate::bench::figures::status_kb(status, "VmHWM:")
}

/// Runs the bench.
pub fn bench_scale(options: &ScaleOptions, out: &mut dyn Write) -> Result<()> {
    if options.holders < 10 || options.items == 0 {
        bail!("--holders debe ser al menos 10 y --items al menos 1 / --holders must be at least 10 and --items at least 1");
    }
    let exe = std::env::current_exe()
        .context("no se encuentra el programa asamblea / cannot find the asamblea binary")?;
    let cache = options.cache.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!(
            "asamblea-bench-scale/{}h-{}i-{}pct-v{}",
            options.holders,
            options.items,
            options.attendance,
            asamblea_wire::FORMAT_VERSION
        ))
    });
    let dir = cache.join("meeting");
    let keys = cache.join("keys");
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    writeln!(
        out,
        "asamblea bench-scale: {} accionistas / holders, {} puntos / items, {} % asistencia / attending, {cores} núcleos / cores",
        thousands(options.holders),
        options.items,
        options.attendance
    )?;
    writeln!(out, "  Reunión en caché / cached meeting: {}", cache.display())?;
    out.flush()?;

    // 1. The meeting, once: a cache made from other inputs (an older
    // generator's register or agenda) is built again, never measured.
    let inputs = Inputs::of(options);
    let built = match std::fs::read_to_string(cache.join("built.txt")) {
        Ok(summary) if summary.lines().any(|l| l == inputs.mark()) => {
            writeln!(
                out,
                "  (de la caché / from the cache; bórrela para reconstruir / delete it to rebuild)"
            )?;
            summary
        }
        Ok(_) => {
            writeln!(
                out,
                "  (la caché se hizo con otra reunión o registro: se reconstruye / the cache was made from another meeting or register: rebuilding)"
            )?;
            build(&exe, &inputs, options, &cache, &dir, &keys, out)?
        }
        Err(_) => build(&exe, &inputs, options, &cache, &dir, &keys, out)?,
    };
    let ballots = built
        .lines()
        .find_map(|l| l.strip_prefix("ballots "))
        .and_then(|n| n.trim().parse::<u64>().ok())
        .context(
            "built.txt no dice cuántas papeletas hay: borre la caché para reconstruirla / built.txt does not say how many ballots: delete the cache to rebuild",
        )?;
    let events = asamblea_ledger_events(&dir)?;
    writeln!(
        out,
        "  Libro / ledger: {} papeletas firmadas / signed ballots, {} eventos / events",
        thousands(ballots),
        thousands(events)
    )?;
    out.flush()?;

    // 2. Restarts after kill -9.
    let ca = std::fs::read_to_string(dir.join("tls/ca.crt"))
        .context("no se puede leer la CA de la sede (tls/ca.crt) / cannot read the venue CA")?;
    let tls = Arc::new(asamblea_pki::client_config(&ca, None)?);
    let mut first = Daemon::start(&exe, &dir, &keys)?;
    first.wait_answering(&tls, Duration::from_secs(600))?;
    first.kill()?;
    let mut restarts = Vec::new();
    let mut searches = Vec::new();
    for round in 0..options.restarts.max(1) {
        let mut daemon = Daemon::start(&exe, &dir, &keys)?;
        let took = daemon.wait_answering(&tls, Duration::from_secs(600))?;
        let peak = daemon.peak_kb();
        if round == 0 {
            // The registration desk's search, as its console sends it
            // while the operator types (after the peak is read: the
            // first search loads the holders' names).
            let token = desk_token(&keys)?;
            for q in SEARCHES.iter().chain(&SEARCHES) {
                match search(daemon.addr, &tls, &token, q) {
                    Ok(took) => searches.push(took),
                    Err(e) => bail!("{e:#}\n{}", daemon.state()),
                }
            }
        }
        daemon.kill()?;
        restarts.push((took, peak));
    }
    restarts.sort();
    let (median, _) = restarts[restarts.len() / 2];
    let (best, _) = restarts[0];
    let restart_peak = restarts.iter().filter_map(|(_, p)| *p).max().unwrap_or(0);

    // 3. Export, then verify what it wrote.
    let bundle = cache.join("meeting.bundle");
    let (export_time, export_peak) =
        measured(&exe, &keys, &["export".as_ref(), dir.as_os_str(), bundle.as_os_str()])?;
    let bundle_bytes = std::fs::metadata(&bundle).map_or(0, |m| m.len());
    let (verify_time, verify_peak) = measured(&exe, &keys, &["verify".as_ref(), bundle.as_os_str()])?;
    let rate = events.saturating_mul(1_000_000) / u64::try_from(verify_time.as_micros()).unwrap_or(1).max(1);
    let one_core = strict_checks_per_second()?;

    let mark = |ok: bool| if ok { "✓" } else { "✗ NO CUMPLE / MISSED" };
    let mb = |kb: u64| format!("{} MB", thousands(kb.div_ceil(1024)));
    writeln!(out)?;
    writeln!(
        out,
        "  Reinicio tras kill -9 / restart after kill -9: {} (mejor / best {}, {} arranques / starts), pico / peak {}   objetivo / target < {} s, < {}  {}",
        crate::bench::seconds(median),
        crate::bench::seconds(best),
        restarts.len(),
        mb(restart_peak),
        TARGET_RESTART.as_secs(),
        mb(TARGET_MEMORY_KB),
        mark(median < TARGET_RESTART && restart_peak < TARGET_MEMORY_KB)
    )?;
    writeln!(
        out,
        "  verify: {} eventos/s / events/s ({}), pico / peak {}   objetivo / target ≥ {} eventos/s (2 × {}), < {}  {}",
        thousands(rate),
        crate::bench::seconds(verify_time),
        mb(verify_peak),
        thousands(2 * VERIFY_BEFORE),
        thousands(VERIFY_BEFORE),
        mb(TARGET_MEMORY_KB),
        mark(rate >= 2 * VERIFY_BEFORE && verify_peak < TARGET_MEMORY_KB)
    )?;
    writeln!(
        out,
        "    (esta máquina hoy: {} firmas estrictas/s en un núcleo; verify hace {} veces eso / this machine today: {} strict checks/s on one core; verify does {} times that)",
        thousands(one_core),
        crate::bench::decimal(rate * 10 / one_core.max(1)),
        thousands(one_core),
        crate::bench::decimal(rate * 10 / one_core.max(1)),
    )?;
    writeln!(
        out,
        "    (los {} eventos/s de antes se midieron un día en que esta máquina compartida era más rápida; el código de antes y el de ahora, en la misma máquina y la misma hora: scripts/before-and-after / the {} events/s before were measured on a day this shared machine was faster; the code before and now on the same machine in the same hour: scripts/before-and-after)",
        thousands(VERIFY_BEFORE),
        thousands(VERIFY_BEFORE),
    )?;
    writeln!(
        out,
        "  export: {} (paquete / bundle {}), pico / peak {}   objetivo / target < {}  {}",
        crate::bench::seconds(export_time),
        mb(bundle_bytes / 1024),
        mb(export_peak),
        mb(TARGET_MEMORY_KB),
        mark(export_peak < TARGET_MEMORY_KB)
    )?;
    let first_search = searches[0];
    let mut later: Vec<Duration> = searches[1..].to_vec();
    later.sort();
    let (search_median, search_worst) = (later[later.len() / 2], later[later.len() - 1]);
    writeln!(
        out,
        "  Búsqueda del registro / desk search ({} accionistas, HTTPS): mediana / median {}, peor / worst {} ({} búsquedas; la primera, justo tras el arranque, mientras el servicio lee los nombres / the first, right after the start, while the daemon reads the names: {})   objetivo / target < 100 ms  {}",
        thousands(options.holders),
        crate::bench::millis(search_median),
        crate::bench::millis(search_worst),
        later.len(),
        crate::bench::millis(first_search),
        mark(search_worst < Duration::from_millis(100))
    )?;
    let per = |kb: u64, n: u64| thousands(kb.saturating_mul(1024) / n.max(1));
    writeln!(
        out,
        "  Memoria por accionista / por evento (bytes) / memory per holder / per event: reinicio / restart {} / {} · verify {} / {} · export {} / {}",
        per(restart_peak, options.holders),
        per(restart_peak, events),
        per(verify_peak, options.holders),
        per(verify_peak, events),
        per(export_peak, options.holders),
        per(export_peak, events)
    )?;
    // 4. Powers of attorney from a file, into a fresh meeting of the same
    // register (the cached one is installed: powers are lodged before).
    if options.powers > 0 {
        powers_import::measure_import(&exe, &cache.join("powers"), options.holders, options.powers, out)?;
    }
    Ok(())
}

/// Strict signature checks a second on one core, now: what bounds
/// `verify`, measured in the same run so that its rate can be read against
/// the machine's speed that day (a shared machine's varies by half).
fn strict_checks_per_second() -> Result<u64> {
    let meeting = asamblea_wire::MeetingId([7; 32]);
    let key = asamblea_wire::Keypair::from_seed(&[9; 32]);
    let signed: Vec<(Vec<u8>, asamblea_wire::Signature)> = (0..2_000u32)
        .map(|n| {
            let event = asamblea_wire::Event {
                nonce: asamblea_wire::Nonce([0; 16]),
                body: asamblea_wire::EventBody::CheckedOut {
                    person: asamblea_wire::Id::new(&format!("P-{n}"))?,
                },
            };
            let bytes = event.encode()?;
            let signature = key.sign(&meeting, &bytes)?;
            Ok((bytes, signature))
        })
        .collect::<Result<_>>()?;
    let public = key.public_key();
    let started = Instant::now();
    let mut checked = 0u64;
    while started.elapsed() < Duration::from_secs(2) {
        for (bytes, signature) in &signed {
            public.verify(&meeting, bytes, signature)?;
        }
        checked += signed.len() as u64;
    }
    Ok(checked.saturating_mul(1_000_000) / u64::try_from(started.elapsed().as_micros()).unwrap_or(1).max(1))
}

/// The generated meeting file and register, and the digest that names
/// them in `built.txt`.
struct Inputs {
    toml: String,
    csv: String,
    digest: asamblea_wire::Digest,
}

impl Inputs {
    fn of(options: &ScaleOptions) -> Inputs {
        let (capital, csv) = register_csv(options.holders);
        let toml = meeting_toml(options.items, capital);
        let mut all =
            format!("format {}\nattendance {}\n", asamblea_wire::FORMAT_VERSION, options.attendance);
        all.push_str(&toml);
        all.push_str(&csv);
        let digest = asamblea_wire::Digest::sha256(all.as_bytes());
        Inputs { toml, csv, digest }
    }

    /// The line of `built.txt` saying what the meeting was built from.
    fn mark(&self) -> String {
        format!("inputs {}", self.digest)
    }
}

/// Builds the meeting in `cache` from nothing; returns `built.txt`.
fn build(
    exe: &Path,
    generated: &Inputs,
    options: &ScaleOptions,
    cache: &Path,
    dir: &Path,
    keys: &Path,
    out: &mut dyn Write,
) -> Result<String> {
    let started = Instant::now();
    if cache.exists() {
        std::fs::remove_dir_all(cache)
            .with_context(|| format!("{}: no se puede borrar / cannot clear", cache.display()))?;
    }
    let inputs = cache.join("inputs");
    std::fs::create_dir_all(&inputs)
        .with_context(|| format!("{}: no se puede crear / cannot create", inputs.display()))?;
    let (toml, csv) = (inputs.join("meeting.toml"), inputs.join("register.csv"));
    std::fs::write(&toml, &generated.toml)?;
    std::fs::write(&csv, &generated.csv)?;
    writeln!(out, "  Construyendo la reunión (una vez) / building the meeting (once)…")?;
    out.flush()?;
    init(exe, keys, dir, &toml, &csv)?;
    let attendance = options.attendance.to_string();
    let simulated = run(
        exe,
        keys,
        &["simulate".as_ref(), dir.as_os_str(), "--attendance".as_ref(), attendance.as_ref()],
    )?;
    let ballots = simulated
        .lines()
        .find_map(|l| l.strip_prefix("Papeletas firmadas / signed ballots: "))
        .map(|n| n.trim().replace('.', ""))
        .context(
            "simulate no dijo cuántas papeletas firmó / simulate did not say how many ballots it signed",
        )?;
    let summary =
        format!("ballots {ballots}\nbuilt in {} s\n{}\n", started.elapsed().as_secs(), generated.mark());
    std::fs::write(cache.join("built.txt"), &summary)?;
    writeln!(out, "  Construida en / built in {}", crate::bench::seconds(started.elapsed()))?;
    Ok(summary)
}

/// Events in the meeting's ledger (read beside nothing: no daemon runs).
fn asamblea_ledger_events(dir: &Path) -> Result<u64> {
    let meeting = asamblea_venue::service::MeetingFiles::meeting_id(dir)?;
    Ok(asamblea_ledger::record_count(&dir.join("ledger.db"), &meeting)?)
}

/// `asamblea init DIR --meeting TOML --register CSV`.
fn init(exe: &Path, keys: &Path, dir: &Path, toml: &Path, csv: &Path) -> Result<String> {
    let args = [
        "init".as_ref(),
        dir.as_os_str(),
        "--meeting".as_ref(),
        toml.as_os_str(),
        "--register".as_ref(),
        csv.as_os_str(),
    ];
    run(exe, keys, &args)
}

/// Runs `asamblea ARGS` to the end; its standard output, or why it failed.
fn run(exe: &Path, keys: &Path, args: &[&std::ffi::OsStr]) -> Result<String> {
    let output = Command::new(exe).args(args).env("ASAMBLEA_KEYS", keys).stdin(Stdio::null()).output()?;
    if !output.status.success() {
        bail!(
            "asamblea {} falló / failed: {}",
            args.first().map_or("".into(), |a| a.to_string_lossy()),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Runs `asamblea ARGS`, timed, with its peak resident memory in kB.
fn measured(exe: &Path, keys: &Path, args: &[&std::ffi::OsStr]) -> Result<(Duration, u64)> {
    let started = Instant::now();
    let output = Command::new(exe)
        .args(args)
        .env("ASAMBLEA_KEYS", keys)
        .env(PEAK_MEMORY_VARIABLE, "1")
        .stdin(Stdio::null())
        .output()?;
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        bail!(
            "asamblea {} falló / failed: {}{stderr}",
            args.first().map_or("".into(), |a| a.to_string_lossy()),
            String::from_utf8_lossy(&output.stdout)
        );
    }
    let peak = stderr
        .lines()
        .find_map(|l| l.strip_prefix(PEAK_MEMORY_LINE))
        .and_then(|n| n.trim().parse().ok())
        .context(
            "el proceso hijo no informó su pico de memoria / the child did not report its peak memory",
        )?;
    Ok((took, peak))
}

/// A daemon started as a child.
pub(crate) struct Daemon {
    child: Child,
    pub(crate) addr: SocketAddr,
    started: Instant,
    /// The last of what the daemon wrote on standard error, read as it is
    /// written: a pipe nobody reads fills at 64 KB, and then the daemon's
    /// next log line would stop the thread writing it.
    stderr: Arc<Mutex<Vec<u8>>>,
}

/// How much of a daemon's standard error is kept, from its end.
const STDERR_KEPT: usize = 16 * 1024;

/// A bench that stops on an error leaves no daemon behind (it would hold
/// the meeting's lock and a core).
impl Drop for Daemon {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A free port on 127.0.0.1: bound, read and released (nothing else binds
/// here).
pub(crate) fn free_local_address() -> Result<SocketAddr> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?)
}

impl Daemon {
    pub(super) fn start(exe: &Path, dir: &Path, keys: &Path) -> Result<Daemon> {
        Daemon::serving(exe, dir, Some(keys), &[])
    }

    /// `asamblea serve DIR --listen ADDR EXTRA…` on a free loopback port,
    /// with the meeting's keys in `keys` (`None`: where this process finds
    /// them).
    pub(crate) fn serving(exe: &Path, dir: &Path, keys: Option<&Path>, extra: &[String]) -> Result<Daemon> {
        let addr = free_local_address()?;
        let started = Instant::now();
        let mut command = Command::new(exe);
        command
            .args(["serve".as_ref(), dir.as_os_str(), "--listen".as_ref(), addr.to_string().as_ref()])
            .args(extra)
            .env("ASAMBLEA_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(keys) = keys {
            command.env("ASAMBLEA_KEYS", keys);
        }
        let child = command.spawn()?;
        let mut child = child;
        let stderr = Arc::new(Mutex::new(Vec::new()));
        if let Some(mut pipe) = child.stderr.take() {
            let kept = Arc::clone(&stderr);
            std::thread::spawn(move || {
                let mut chunk = [0u8; 4096];
                while let Ok(n @ 1..) = pipe.read(&mut chunk) {
                    let mut kept = kept.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    kept.extend_from_slice(&chunk[..n]);
                    let excess = kept.len().saturating_sub(STDERR_KEPT);
                    kept.drain(..excess);
                }
            });
        }
        Ok(Daemon { child, addr, started, stderr })
    }

    /// The child's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the daemon still runs, and the last it wrote on standard
    /// error: what a failed request is reported with.
    pub(crate) fn state(&mut self) -> String {
        let running = match self.child.try_wait() {
            Ok(None) => "el daemon sigue en marcha / the daemon is still running".to_string(),
            Ok(Some(status)) => format!("el daemon terminó / the daemon ended: {status}"),
            Err(e) => format!("no se sabe si el daemon sigue / whether the daemon runs is unknown: {e}"),
        };
        // The reading thread may still be taking the last lines of a daemon
        // that just ended.
        std::thread::sleep(Duration::from_millis(100));
        let kept = self.stderr.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        format!("{running}; lo último que escribió / the last it wrote:\n{}", String::from_utf8_lossy(&kept))
    }

    /// Waits until `GET /api/v1/status` answers `200`; the time since the
    /// launch.
    pub(crate) fn wait_answering(
        &mut self,
        tls: &Arc<rustls::ClientConfig>,
        limit: Duration,
    ) -> Result<Duration> {
        loop {
            if status_ok(self.addr, tls) {
                return Ok(self.started.elapsed());
            }
            if self.child.try_wait()?.is_some() {
                bail!("asamblea serve no llegó a responder / never answered: {}", self.state());
            }
            if self.started.elapsed() > limit {
                self.kill()?;
                bail!("asamblea serve no respondió en {0} s / did not answer within {0} s", limit.as_secs());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn peak_kb(&self) -> Option<u64> {
        peak_kb(&std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?)
    }

    /// SIGKILL, as a crash: nothing is flushed or signed at the stop.
    pub(crate) fn kill(&mut self) -> Result<()> {
        self.child.kill()?;
        self.child.wait()?;
        Ok(())
    }
}

/// What the bench types into the desk's search (each twice): prefixes of
/// ids and parts of names, short and long, and one that finds nothing.
const SEARCHES: [&str; 10] = [
    "accionista 1",
    "a",
    "cc-0001",
    "accionista 12",
    "zzz",
    "cc-00123",
    "accionista 130",
    "9",
    "cc-001309",
    "ista 77",
];

/// The desk token a running daemon wrote beside the meeting's keys.
pub(super) fn desk_token(keys: &Path) -> Result<String> {
    for entry in std::fs::read_dir(keys)?.flatten() {
        let inside = entry.path();
        let Ok(files) = std::fs::read_dir(&inside) else { continue };
        for file in files.flatten() {
            let name = file.file_name().to_string_lossy().into_owned();
            if name.starts_with("desk-") && name.ends_with(".token") {
                return Ok(std::fs::read_to_string(file.path())?.trim().to_string());
            }
        }
    }
    bail!("{}: no hay ficha de mesa (el daemon escribe una al arrancar) / no desk token (the daemon writes one at start)", keys.display())
}

/// One search of the register through the API, timed from the connection
/// to the whole answer.
fn search(addr: SocketAddr, tls: &Arc<rustls::ClientConfig>, token: &str, q: &str) -> Result<Duration> {
    let query: String = q.chars().map(|c| if c == ' ' { '+' } else { c }).collect();
    let (took, _) = staff_request(addr, tls, token, "GET", &format!("/api/v1/holders?q={query}"), None)
        .with_context(|| format!("la búsqueda de / the search for {q:?}"))?;
    Ok(took)
}

/// One staff request through the API on a connection of its own, timed
/// from the connection to the whole answer, as a console's is: the time
/// and the answer's body; an answer other than 2xx is an error showing it.
fn staff_request(
    addr: SocketAddr,
    tls: &Arc<rustls::ClientConfig>,
    token: &str,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> Result<(Duration, String)> {
    let started = Instant::now();
    let mut socket = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    socket.set_read_timeout(Some(Duration::from_secs(60)))?;
    // As a browser does: no waiting to fill a packet (Nagle's wait and the
    // peer's delayed acknowledgement would add 40 ms a request).
    socket.set_nodelay(true)?;
    let name = rustls::pki_types::ServerName::try_from("localhost")?;
    let mut connection = rustls::ClientConnection::new(Arc::clone(tls), name)?;
    let mut stream = rustls::Stream::new(&mut connection, &mut socket);
    let body = body.unwrap_or("");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut answer = Vec::new();
    // The daemon closes the connection after its answer; an error here
    // (a timeout, a reset) is reported below only if no whole answer came.
    let read = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer).into_owned();
    if !(text.starts_with("HTTP/1.1 200") || text.starts_with("HTTP/1.1 201")) {
        let how = match read {
            Err(e) => format!("la lectura falló / the read failed: {e}"),
            Ok(0) => "la conexión se cerró sin respuesta / the connection closed with no answer".to_string(),
            Ok(_) => "la respuesta / the answer".to_string(),
        };
        bail!(
            "{method} {path}, tras / after {}: {how}: {}",
            crate::bench::millis(started.elapsed()),
            text.chars().take(300).collect::<String>()
        );
    }
    let body = text.split_once("\r\n\r\n").map_or(String::new(), |(_, body)| body.to_string());
    Ok((started.elapsed(), body))
}

/// Whether the daemon at `addr` answers `200` to `GET /api/v1/status`.
fn status_ok(addr: SocketAddr, tls: &Arc<rustls::ClientConfig>) -> bool {
    let attempt = || -> Result<bool> {
        let mut socket = TcpStream::connect_timeout(&addr, Duration::from_millis(200))?;
        socket.set_read_timeout(Some(Duration::from_secs(5)))?;
        let name = rustls::pki_types::ServerName::try_from("localhost")?;
        let mut connection = rustls::ClientConnection::new(Arc::clone(tls), name)?;
        let mut stream = rustls::Stream::new(&mut connection, &mut socket);
        stream.write_all(b"GET /api/v1/status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")?;
        let mut head = [0u8; 12];
        stream.read_exact(&mut head)?;
        Ok(head.starts_with(b"HTTP/1.1 200"))
    };
    attempt().unwrap_or(false)
}

/// The generated meeting's day.
pub const MEETING_DATE: &str = "2027-03-25";

/// The generated agenda: the demo meeting's kinds of matter, then
/// ordinary propositions.
pub fn meeting_toml(items: usize, (ordinary, preferred): (u64, u64)) -> String {
    let mut toml = format!(
        r#"# Generated by `asamblea bench-scale`.
company = "Gran Emisor de Pruebas S.A."
nit = "900.000.000-2"
kind = "ordinary"
call = "first"
date = "{MEETING_DATE}"
time = "10:00"
place = "Bogotá D.C., auditorio de pruebas"
convened_by = "Aviso de prueba"
convened_on = "2027-03-02"
profile = "grupo-aval"

# A benchmark opens and closes its polls at once.
[settings]
poll_minimum_open_seconds = 0
poll_minimum_countdown_seconds = 0

[capital]
ORD = {{ subscribed = {ordinary} }}
PREF = {{ subscribed = {preferred} }}
"#
    );
    let fixed = [
        ("Aprobación del orden del día", "matter = \"ordinary\""),
        ("Estados financieros de fin de ejercicio", "matter = \"financial-statements\""),
        ("Proyecto de distribución de utilidades", "matter = \"profit-distribution\""),
        (
            "Elección de la Junta Directiva",
            "matter = \"board-election\"\nseats = 5\nlists = [\"Lista 1\", \"Lista 2\", \"Lista 3\"]",
        ),
        (
            "Elección del Revisor Fiscal",
            "matter = \"single-seat-election\"\nlists = [\"Firma A\", \"Firma B\"]",
        ),
        ("Reforma de los estatutos sociales", "matter = \"bylaw-amendment\""),
        ("Conversión de acciones preferenciales", "matter = \"preferred-conversion\""),
    ];
    for n in 1..=items {
        let (title, matter) = fixed.get(n - 1).copied().unwrap_or(("Proposición", "matter = \"ordinary\""));
        toml.push_str(&format!("\n[[agenda]]\nid = \"item-{n}\"\ntitle = \"{title} ({n})\"\n{matter}\n"));
    }
    toml
}

/// The generated register: one holder in ten preferred, a few
/// administrators and employees, shares spread from 1 to 20.000; with the
/// capital each class then has.
pub fn register_csv(holders: u64) -> ((u64, u64), String) {
    let mut csv = String::from("holder_id,name,class,shares,role,split\n");
    let (mut ordinary, mut preferred) = (0, 0);
    for i in 1..=holders {
        let shares = 1 + i.wrapping_mul(7_919) % 20_000;
        let class = if i % 10 == 0 { "PREF" } else { "ORD" };
        *(if class == "PREF" { &mut preferred } else { &mut ordinary }) += shares;
        let role = match i % 2_000 {
            1 => "administrador",
            2 => "empleado",
            _ => "",
        };
        csv.push_str(&format!("CC-{i:08},Accionista {i},{class},{shares},{role},\n"));
    }
    ((ordinary, preferred), csv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peak_is_read_from_a_status_text() {
        let status = "Name:\tasamblea\nVmPeak:\t  999 kB\nVmHWM:\t   12345 kB\nVmRSS:\t 100 kB\n";
        assert_eq!(peak_kb(status), Some(12_345));
        assert_eq!(peak_kb("Name:\tx\n"), None);
    }

    #[test]
    fn the_generated_meeting_is_one_the_desk_accepts() {
        let ((ordinary, preferred), csv) = register_csv(2_000);
        let toml = meeting_toml(10, (ordinary, preferred));
        let new = asamblea_venue::service::NewMeeting::check(
            "meeting.toml",
            &toml,
            "register.csv",
            csv.as_bytes(),
            |_| {},
        );
        assert!(new.is_ok(), "{:?}", new.err());
        assert_eq!(toml.matches("[[agenda]]").count(), 10);
        assert!(csv.contains(",administrador,") && csv.contains(",PREF,"));
    }
}
