//! `asamblea bench`: simulated kiosks casting real signed ballots at a
//! running daemon over HTTPS, and, in the same run, the pipeline ceiling
//! without HTTP.
//!
//! # What it does
//!
//! 1. **A fresh meeting** in `--dir` (default: a new temporary directory,
//!    removed at the end): a generated `meeting.toml` with two ordinary
//!    items per round (`item-1`, `item-3`, … for HTTPS; `item-2`,
//!    `item-4`, … for the ceiling) and a generated register with one holder
//!    per ballot of a run, so that every ballot is a distinct holder's (one
//!    ballot per holder per item). Everyone is checked in and given a badge
//!    in process; the badges' credentials stay in memory. These setup
//!    events are signed by the operator's key and go through the
//!    group-committing writer (`Service::queue_ballot`, the same admission
//!    as any event), so that setting up 20,000 holders takes a second
//!    rather than 40,000 fsyncs. Every item is opened.
//! 2. **`--kiosks` kiosks enrolled** (`asamblea_pki::enroll_kiosk`), each with
//!    its own client certificate.
//! 3. **The daemon runs in this process**, on a multi-threaded tokio
//!    runtime with one worker per core, exactly as `asamblea serve` builds
//!    it (`AppState`, `router`, `tls::serve` on a 127.0.0.1 listener). In
//!    process rather than as a child so that the ceiling can be measured on
//!    the very same `AppState` (same lock, same writer, same ledger file)
//!    and the ledger read back afterwards; the CPU is shared either way.
//!    Only the per-kiosk rate limit is raised
//!    ([`AppState::with_kiosk_rate`](asamblea_server::AppState::with_kiosk_rate)): 64 simulated kiosks sending as fast
//!    as they can would otherwise be held at 50 ballots a second each.
//! 4. **`--rounds` rounds**, each of two runs in turn, with every ballot
//!    of the round signed, and every HTTPS request rendered, before its
//!    clock starts (the load generator only writes prepared bytes):
//!    - **the ceiling**: the round's ceiling item's ballots through the
//!      ballot path minus HTTP and TLS ([`AppState::cast_ballot`](asamblea_server::AppState::cast_ballot): receipt
//!      look-up, decode, strict verify, admission under the lock, group
//!      commit, daemon-signed receipt), from `--kiosks` tasks on the
//!      daemon's runtime (so verify runs on as many threads as cores);
//!    - **the HTTPS run**: `--kiosks` simulated kiosks (`LoadKiosk`),
//!      each with its own keep-alive TLS connection and client certificate
//!      (handshakes done before timing), send their share one after
//!      another and time each request. Afterwards every answer is checked:
//!      a receipt for that very ballot, signed by the daemon.
//!
//!    Taking the two in turn, many times over half a minute, lets both see
//!    the same machine: on this shared virtual machine the same binary's
//!    HTTPS path runs up to ~40 % slower for stretches of seconds (the
//!    signature arithmetic does not; see the README), and a single short
//!    pair of runs measures the period more than the code.
//! 5. **A reference**: the same requests from the same connections at a
//!    hello-world server on the same TLS and HTTP stack (a JSON body in, a
//!    receipt-sized JSON out, no ballot work): what HTTPS alone costs here.
//!
//! # Where the load generator runs
//!
//! The simulated kiosks are tasks on the daemon's own runtime, not threads
//! of their own. Real kiosks run on their own machines and cost the
//! daemon's cores nothing but the network; here they must share the two
//! cores, and as extra threads they made four busy threads on two cores,
//! so that the kernel must preempt daemon workers (possibly one holding
//! the meeting's lock) to run the load generator. Measured side by side
//! in one session's A/B runs, that cost ~10 µs more CPU per HTTPS ballot
//! (88–98 µs as a thread against 75–90 µs as tasks). As tasks they take their turn between the daemon's. Each simulated kiosk writes its prepared
//! request and parses the answer with `httparse` (as `wrk` does), so the
//! load generator's own share is the TLS records and the socket calls.
//!
//! # What it prints
//!
//! For each run: ballots per second, p50 and p99 latency, and the CPU time
//! the threads of this process spent (daemon workers with the simulated
//! kiosks, ledger writer; from `/proc`, so Linux only) per ballot; then the
//! commits (fsyncs) of each kind of run; then every round pooled (total
//! ballots ÷ total time, latencies of every HTTPS ballot), the ratio
//! HTTPS ÷ ceiling of the pooled rates, and the targets judged on them.
//! Commits are counted from the ledger afterwards as the distinct commit
//! times of the runs' records (a batch shares one time): a lower bound,
//! exact unless two commits fell within the same millisecond.
//! (`Service::close` drops the writer's exact counters,
//! `asamblea_ledger::WriterStats`.)
//!
//! # Reading the figures
//!
//! Both runs are closed loops of `--kiosks` ballots in flight, each waiting
//! for its group commit, and on a 2-core machine both are CPU-bound: the
//! ratio is, in effect, ceiling CPU per ballot ÷ HTTPS CPU per ballot. The
//! CPU lines say where the difference goes; the hello-world line says how
//! much of it the HTTP stack itself takes (both ends, since the kiosks
//! share the cores). Other processes on the machine take CPU from both
//! runs unevenly: compare the CPU per ballot rather than the rates when
//! the machine is not idle.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use asamblea_wire::{Credential, CredentialId, Digest, EventBody, Id};

use asamblea_documents::numfmt::{percent, thousands};
use asamblea_kiosk::SignedBallot;
use asamblea_venue::lock::MeetingLock;
use asamblea_venue::service::{NewMeeting, Service};
use asamblea_venue::staff::Role;

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Concurrent kiosks (HTTPS connections, and tasks of the ceiling).
    pub kiosks: usize,
    /// Ballots in each run, shared among the kiosks.
    pub ballots: usize,
    /// Where to create the meeting (must not hold one); `None`: a fresh
    /// temporary directory, removed at the end.
    pub dir: Option<PathBuf>,
    /// Where the daemon listens.
    pub listen: String,
    /// Rounds of (ceiling, HTTPS) runs, taken in turn; the figures judged
    /// pool every round.
    pub rounds: usize,
    /// Live-feed subscribers to hold open for the watchers' phase (0: no
    /// such phase).
    pub subscribers: usize,
}

/// HTTPS runs with the watchers connected.
const WATCHED_ROUNDS: usize = 2;

/// The target of issue 11 point 7: this many subscribers held while the
/// ballots keep their p99.
const TARGET_SUBSCRIBERS: usize = 5_000;

/// Shares of each generated holder.
const SHARES: u64 = 1_000;

/// The targets of issue 4 on a 2-core machine.
const TARGET_RATIO_PERCENT: u64 = 70;
const TARGET_RATE: u64 = 8_000;
const TARGET_P99: Duration = Duration::from_millis(50);

/// A ballot prepared for the ceiling run.
struct RawBallot {
    event: Vec<u8>,
    signer: [u8; 32],
    signature: [u8; 64],
}

pub(crate) mod figures;
pub(crate) mod load;
pub(crate) mod setup;
#[cfg(test)]
mod tests;
pub(crate) mod watch;

pub(crate) use figures::{decimal, millis, seconds};
use figures::{quantile, report, Run};
use load::{check_receipts, https_run, pipeline_run, render_requests};
use setup::{
    enroll_kiosks, https_item, install_and_open, meeting_toml, one_address_limits, pipeline_item, queue_all,
    register_csv, sign_all,
};
use watch::{watch, WatchSetup};

/// `asamblea bench`.
pub fn bench(options: &BenchOptions, out: &mut dyn Write) -> Result<()> {
    if options.kiosks == 0 || options.kiosks > 10_000 {
        bail!("--kiosks debe estar entre 1 y 10000 / --kiosks must be between 1 and 10000");
    }
    if options.ballots < options.kiosks {
        bail!("--ballots debe ser al menos --kiosks ({0}): cada quiosco necesita papeletas / --ballots must be at least --kiosks ({0})", options.kiosks);
    }
    if options.rounds == 0 {
        bail!("--rounds debe ser al menos 1 / --rounds must be at least 1");
    }
    // Two agenda items a round (and the watchers' rounds), and an agenda
    // holds at most 256.
    let watched = if options.subscribers > 0 { WATCHED_ROUNDS } else { 0 };
    if options.rounds + watched > asamblea_wire::limits::MAX_AGENDA_ITEMS / 2 {
        bail!(
            "--rounds debe ser a lo sumo {} (dos puntos del orden del día por ronda) / --rounds must be at most that (two agenda items a round)",
            asamblea_wire::limits::MAX_AGENDA_ITEMS / 2 - watched
        );
    }
    let (dir, temporary) = match &options.dir {
        Some(dir) => (dir.clone(), false),
        None => {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos());
            (std::env::temp_dir().join(format!("asamblea-bench-{}-{nanos}", std::process::id())), true)
        }
    };
    let result = run(options, &dir, out);
    if temporary {
        // The bench meeting's signing keys went to its key folder, outside
        // the directory: both go.
        if let Ok(keys) = asamblea_venue::secrets::key_folder_of(&dir) {
            let _ = std::fs::remove_dir_all(keys);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    result
}

fn run(options: &BenchOptions, dir: &Path, out: &mut dyn Write) -> Result<()> {
    let holders = options.ballots;
    let rounds = options.rounds;
    // The watchers' phase votes on items of its own, after the rounds'.
    let agenda_rounds = rounds + if options.subscribers > 0 { WATCHED_ROUNDS } else { 0 };
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    writeln!(
        out,
        "asamblea bench: {} quioscos / kiosks, {} papeletas por corrida / ballots per run, {} rondas / rounds, {} núcleos / cores",
        thousands(options.kiosks as u64),
        thousands(options.ballots as u64),
        rounds,
        cores
    )?;
    writeln!(out, "  Reunión de prueba / bench meeting: {}", dir.display())?;
    out.flush()?;

    // 1. The meeting, everyone present with a badge, every item open.
    let setup = Instant::now();
    let ids: Vec<String> = (1..=holders).map(|i| format!("ACC-{i:06}")).collect();
    let new = NewMeeting::check(
        "meeting.toml (bench, generated)",
        &meeting_toml(holders as u64, agenda_rounds),
        "register.csv (bench, generated)",
        register_csv(&ids).as_bytes(),
        |_| {},
    )?;
    asamblea_venue::secrets::create_private_dir(dir)?;
    let mut service = Service::init(dir, MeetingLock::acquire_fresh_or_explain(dir)?, new)?;
    asamblea_pki::create_venue_pki(dir, &[])?;
    let accounts = asamblea_venue::staff::Accounts::load(dir)?;
    let operator = accounts.iter().find(|a| a.role == Role::Operator).map(|a| a.key.clone()).context(
        "la reunión de prueba no tiene cuenta de operador / the bench meeting has no operator account",
    )?;
    let meeting = service.meeting_id();
    let bodies = ids.iter().map(|id| Ok(EventBody::CheckedInPerson { holder: Id::new(id)? }));
    queue_all(&mut service, &operator, bodies.collect::<Result<Vec<_>>>()?)?;
    let first = service.state().badges_issued() + 1;
    let credentials: Vec<Credential> = (0..holders)
        .map(|i| {
            let number = CredentialId(first + u32::try_from(i).expect("fewer holders than u32::MAX"));
            Credential::generate_from(&meeting, number, &asamblea_venue::secrets::random())
        })
        .collect();
    let badges = credentials.iter().zip(&ids).map(|(c, id)| {
        Ok(EventBody::BadgeIssued { credential: c.id(), key: c.public_key(), person: Id::new(id)? })
    });
    queue_all(&mut service, &operator, badges.collect::<Result<Vec<_>>>()?)?;
    let items: Vec<String> =
        (0..agenda_rounds).flat_map(|round| [pipeline_item(round), https_item(round)]).collect();
    let chair_token = install_and_open(&mut service, &items)?;
    let kiosks = enroll_kiosks(dir, "bench", options.kiosks)?;
    writeln!(
        out,
        "  Preparación / setup: {} accionistas presentes con credencial, {} quioscos inscritos ({})",
        thousands(holders as u64),
        thousands(options.kiosks as u64),
        seconds(setup.elapsed())
    )?;

    // 2. The daemon, in process.
    let server = tokio::runtime::Builder::new_multi_thread().enable_all().thread_name("daemon").build()?;
    // With watchers, the daemon's caps are those `serve` would take from
    // this machine's open-file limit (raised as `serve` raises it), so the
    // feed's own cap and the public's room are the real ones.
    let mut limits = one_address_limits(options.kiosks);
    let mut service_limits = asamblea_server::ServiceLimits::default();
    if options.subscribers > 0 {
        let open_files = crate::commands::raise_open_files();
        let sized = asamblea_server::tls::Limits::for_open_files(open_files);
        limits.max_public = sized.max_public;
        limits.max_per_address = sized.max_public;
        limits.max_handshakes = sized.max_handshakes.max(limits.max_handshakes);
        limits.max_handshakes_per_address = limits.max_handshakes;
        service_limits = asamblea_server::ServiceLimits::for_public_connections(sized.max_public);
        writeln!(
            out,
            "  Límite de archivos abiertos / open-file limit {}: {} conexiones del público / public connections, {} suscriptores en vivo / live subscribers",
            thousands(open_files.min(u64::from(u32::MAX))),
            thousands(sized.max_public as u64),
            thousands(service_limits.max_feeds as u64)
        )?;
    }
    let daemon = asamblea_server::Daemon::assemble(service, accounts, service_limits)?;
    let state = daemon.state.clone().with_kiosk_rate(u32::MAX / 1000, u32::MAX / 1000);
    let daemon_key = state.daemon_key();
    let listener = server
        .block_on(asamblea_server::tls::listen(&options.listen))
        .with_context(|| format!(
                "no se puede escuchar en {}: ¿hay otro servicio allí? Elija otra dirección con --listen / cannot listen there: is another daemon running? Choose another address with --listen",
                options.listen
            ))?;
    let addr = listener.local_addr()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let daemon = server.spawn(daemon.serve(listener, limits, async move {
        let _ = stopped.await;
    }));
    writeln!(out, "  Daemon en este proceso / in-process daemon: https://{addr}/ ({cores} hilos / threads)")?;
    out.flush()?;

    // 3. The rounds: the ceiling, then the same path over HTTPS.
    let mut ceilings = Vec::with_capacity(rounds);
    let mut httpses = Vec::with_capacity(rounds);
    let mut echo_bodies = None;
    for round in 0..rounds {
        // Every ballot of the round signed, and every request rendered,
        // before its clock starts (one round at a time, to keep memory
        // to one round's ballots).
        let signing = Instant::now();
        let pipeline: Vec<RawBallot> = sign_all(&credentials, &ids, &pipeline_item(round), cores)?
            .into_iter()
            .map(|b| RawBallot { event: b.event, signer: b.signer.to_bytes(), signature: b.signature.0 })
            .collect();
        let https = sign_all(&credentials, &ids, &https_item(round), cores)?;
        let digests: Vec<Digest> = https.iter().map(SignedBallot::digest).collect();
        let bodies: Vec<String> = https.iter().map(SignedBallot::body).collect();
        drop(https);
        writeln!(out)?;
        writeln!(
            out,
            "Ronda / round {} de / of {rounds} ({} papeletas firmadas de antemano / ballots signed beforehand in {})",
            round + 1,
            thousands(2 * holders as u64),
            seconds(signing.elapsed())
        )?;
        let ceiling = server.block_on(pipeline_run(&state, pipeline, options.kiosks));
        report(
            out,
            "Techo sin HTTP / pipeline ceiling (receipt look-up, decode, verify, admit, group commit, sign)",
            &ceiling,
        )?;
        let (https, answers) = server.block_on(https_run(addr, &kiosks, render_requests(addr, &bodies)))?;
        report(
            out,
            "HTTPS (quioscos con keep-alive y certificado / kiosks with keep-alive and client certificates)",
            &https,
        )?;
        check_receipts(&answers, &digests, &meeting, &daemon_key)?;
        writeln!(out, "  Razón / ratio: {}", percent(https.rate(), ceiling.rate()))?;
        ceilings.push(ceiling);
        httpses.push(https);
        echo_bodies.get_or_insert(bodies);
    }

    // 3b. The watchers: the live feed held open by many subscribers while
    // the kiosks vote, then an item closed under their eyes.
    let watched = if options.subscribers > 0 {
        let close = https_item(0);
        let watched_items: Vec<String> = (rounds..agenda_rounds).map(https_item).collect();
        Some(server.block_on(watch(
            WatchSetup {
                addr,
                dir,
                subscribers: options.subscribers,
                chair_token: &chair_token,
                close: &close,
            },
            |item| {
                let https = sign_all(&credentials, &ids, item, cores)?;
                let digests: Vec<Digest> = https.iter().map(SignedBallot::digest).collect();
                let bodies: Vec<String> = https.iter().map(SignedBallot::body).collect();
                Ok((digests, render_requests(addr, &bodies)))
            },
            &watched_items,
            &kiosks,
            (&meeting, &daemon_key),
            out,
        ))?)
    } else {
        None
    };

    // 4. The same requests at a hello-world server.
    let echo_listener = server.block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))?;
    let echo_addr = echo_listener.local_addr()?;
    let (stop_echo, echo_stopped) = tokio::sync::oneshot::channel::<()>();
    let echo_server = server.spawn(asamblea_server::tls::serve_with_limits(
        echo_listener,
        asamblea_pki::server_config(dir)?,
        asamblea_server::hello_router(),
        asamblea_pki::KioskRegistry::load(dir)?,
        async move {
            let _ = echo_stopped.await;
        },
        one_address_limits(options.kiosks),
    ));
    let echo_requests = render_requests(echo_addr, &echo_bodies.unwrap_or_default());
    let (echo, _) = server.block_on(https_run(echo_addr, &kiosks, echo_requests))?;
    writeln!(out)?;
    report(
        out,
        "Referencia / reference: HTTPS hello-world (el mismo TLS, HTTP y JSON, sin papeleta / same TLS, HTTP and JSON, no ballot work)",
        &echo,
    )?;
    let _ = stop_echo.send(());
    server
        .block_on(echo_server)
        .context("el servidor hello-world de referencia falló / the hello-world server failed")??;

    // 5. Stop, flush, and count the commits in the ledger.
    let _ = stop.send(());
    server
        .block_on(async { daemon.await.context("la tarea del daemon falló / the daemon task failed")? })?;
    state.close();
    drop(server);
    let records = asamblea_ledger::read_records(&dir.join("ledger.db"), &meeting)?;
    let commits = |item: &dyn Fn(usize) -> String| {
        let names: Vec<String> = (0..rounds).map(item).collect();
        // A batch's records share one commit time, and the runs never
        // interleave: equal neighbouring times are one commit.
        let mut times: Vec<u64> = records
            .iter()
            .filter(|(r, _)| {
                matches!(&r.event.body, EventBody::Ballot(b) if names.iter().any(|n| n == b.item.as_str()))
            })
            .map(|(r, _)| r.time_ms)
            .collect();
        let stored = times.len();
        times.dedup();
        (stored, times.len())
    };
    let (ceiling_stored, ceiling_commits) = commits(&pipeline_item);
    let (https_stored, https_commits) = commits(&https_item);

    writeln!(out)?;
    for (name, runs, stored, commits) in [
        ("techo / ceiling", &ceilings, ceiling_stored, ceiling_commits),
        ("HTTPS", &httpses, https_stored, https_commits),
    ] {
        let acknowledged: usize = runs.iter().map(|r| r.ballots - r.failures).sum();
        writeln!(
            out,
            "Registro / ledger, {name}: {} papeletas guardadas / ballots stored, ≥ {} fsyncs (lotes / batches; ≈ {} papeletas por lote / ballots per batch){}",
            thousands(stored as u64),
            thousands(commits as u64),
            thousands((stored / commits.max(1)) as u64),
            if stored == acknowledged { "" } else { " — ¡NO COINCIDE con las confirmadas / does NOT match the acknowledged!" }
        )?;
    }

    // 6. Every round pooled, and the targets judged on that.
    let ceiling = Run::pooled(&ceilings);
    let https = Run::pooled(&httpses);
    let (http_rate, ceiling_rate) = (https.rate(), ceiling.rate());
    let p99 = quantile(&https.latencies, 990);
    writeln!(out)?;
    writeln!(
        out,
        "Las {rounds} rondas juntas / all {rounds} rounds together: techo / ceiling {} papeletas/s · HTTPS {} papeletas/s, p50 {} · p99 {}",
        thousands(ceiling_rate),
        thousands(http_rate),
        millis(quantile(&https.latencies, 500)),
        millis(p99),
    )?;
    writeln!(
        out,
        "Razón / ratio HTTPS ÷ techo / ceiling: {} ({} ÷ {} papeletas/s)",
        percent(http_rate, ceiling_rate),
        thousands(http_rate),
        thousands(ceiling_rate)
    )?;
    if let (Some(c), Some(h), Some(e)) =
        (ceiling.cpu_per_ballot(), https.cpu_per_ballot(), echo.cpu_per_ballot())
    {
        writeln!(
            out,
            "CPU por papeleta / per ballot: techo / ceiling {c} µs · HTTPS {h} µs (+{} µs) · hello-world {e} µs por solicitud / per request",
            h.saturating_sub(c)
        )?;
    }
    let mark = |ok: bool| if ok { "cumplido / met" } else { "NO cumplido / MISSED" };
    writeln!(out, "Objetivos / targets ({} quioscos / kiosks):", options.kiosks)?;
    writeln!(
        out,
        "  razón / ratio ≥ {TARGET_RATIO_PERCENT} %: {}",
        mark(http_rate * 100 >= ceiling_rate * TARGET_RATIO_PERCENT)
    )?;
    writeln!(
        out,
        "  ≥ {} papeletas/s / ballots/s: {}",
        thousands(TARGET_RATE),
        mark(http_rate >= TARGET_RATE)
    )?;
    writeln!(out, "  p99 < {}: {}", millis(TARGET_P99), mark(p99 < TARGET_P99))?;
    if let Some(watched) = &watched {
        let with = Run::pooled(&watched.runs);
        let p99_with = quantile(&with.latencies, 990);
        writeln!(out)?;
        writeln!(
            out,
            "Con {} suscriptores en vivo / with {} live subscribers: HTTPS {} papeletas/s, p50 {} · p99 {} (sin ellos / without: {} papeletas/s, p50 {} · p99 {})",
            thousands(watched.held as u64),
            thousands(watched.held as u64),
            thousands(with.rate()),
            millis(quantile(&with.latencies, 500)),
            millis(p99_with),
            thousands(http_rate),
            millis(quantile(&https.latencies, 500)),
            millis(p99),
        )?;
        writeln!(
            out,
            "  De la orden de cierre al último suscriptor / from the chair's close to the last subscriber: {} (mediana / median {}); {} de {} lo recibieron / received it",
            millis(watched.last),
            millis(watched.median),
            thousands(watched.reached as u64),
            thousands(watched.held as u64)
        )?;
        writeln!(
            out,
            "  Memoria por suscriptor / memory per subscriber: {} kB (residente del proceso, que también aloja a los suscriptores simulados: una cota superior del daemon / this process's resident memory, which also holds the simulated subscribers: an upper bound for the daemon)",
            thousands(watched.kb_per_subscriber)
        )?;
        writeln!(
            out,
            "  Objetivo / target: {} suscriptores / subscribers con p99 < {}: {}",
            thousands(TARGET_SUBSCRIBERS as u64),
            millis(TARGET_P99),
            mark(
                watched.held >= TARGET_SUBSCRIBERS.min(options.subscribers)
                    && watched.reached == watched.held
                    && p99_with < TARGET_P99
            )
        )?;
    }
    let failures = ceiling.failures + https.failures + echo.failures;
    if failures > 0 {
        let first = [&https, &ceiling, &echo].into_iter().find_map(|r| r.first_failure.as_deref());
        bail!(
            "{failures} papeletas sin confirmar / ballots not acknowledged (primera / first: {})",
            first.unwrap_or("?")
        );
    }
    Ok(())
}
