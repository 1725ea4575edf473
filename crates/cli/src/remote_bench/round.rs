//! One round of `bench-remote` on a running daemon: the kiosks alone,
//! the attendees connected with their heartbeats, everyone voting, the
//! close under every feed's eyes, the feeds closed.

use std::io::Write;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use asamblea_documents::numfmt::thousands;
use asamblea_kiosk::SignedBallot;

use super::{feeds, kiosks, meeting, phones, report, Measured};
use crate::bench::figures::{load_average, millis, process_cpu, quantile, seconds, Run};
use crate::bench::load::{check_receipts, render_post, render_requests};
use crate::bench::setup::sign_all;

/// What every round of one N shares: the daemon and how to reach it.
pub(super) struct Serving<'a> {
    pub(super) exe: &'a Path,
    pub(super) runtime: &'a tokio::runtime::Runtime,
    pub(super) prepared: &'a meeting::Prepared,
    /// The venue listener (kiosks, staff) and the internet one (phones).
    pub(super) venue: SocketAddr,
    pub(super) public: SocketAddr,
    /// The daemon's process id, for `/proc`.
    pub(super) pid: &'a str,
    pub(super) venue_tls: &'a Arc<rustls::ClientConfig>,
    pub(super) phone_tls: &'a Arc<rustls::ClientConfig>,
    pub(super) attendees: usize,
    pub(super) open_files: u64,
    pub(super) window: Duration,
}

/// What the rounds gather before it is pooled.
#[derive(Default)]
pub(super) struct Rounds {
    pub(super) alone: Vec<Run>,
    pub(super) with: Vec<Run>,
    /// Each round's median close-to-feed time.
    pub(super) medians: Vec<Duration>,
}

/// Round `round` (from 0), its figures added to `m` and `rounds`.
pub(super) fn run(
    serving: &Serving<'_>,
    round: usize,
    daemon: &mut crate::scale::Daemon,
    m: &mut Measured,
    rounds: &mut Rounds,
    out: &mut dyn Write,
) -> Result<()> {
    let Serving {
        exe,
        runtime,
        prepared,
        venue,
        public,
        pid,
        venue_tls,
        phone_tls,
        attendees,
        open_files,
        window,
    } = *serving;
    let company = &prepared.company;
    let alone = meeting::alone_item(round);
    let mixed = meeting::mixed_item(round);
    // Every ballot signed, every request rendered, before its clock.
    let (alone_digests, alone_requests) = kiosk_requests(prepared, &alone, venue)?;
    let (mixed_digests, mixed_requests) = kiosk_requests(prepared, &mixed, venue)?;
    let remote = sign_all(&prepared.remote, &prepared.remote_ids, &mixed, 2)?;
    let remote_digests: Vec<asamblea_wire::Digest> = remote.iter().map(SignedBallot::digest).collect();
    let remote_requests: Vec<Vec<u8>> =
        remote.iter().map(|b| render_post(public, "/api/v1/remote/ballots", &b.body())).collect();
    drop(remote);

    // The kiosks alone.
    let cpu = process_cpu(pid);
    let (run, answers) = kiosks::apart(venue, prepared.kiosks.clone(), alone_requests, window)
        .join()
        .map_err(|_| anyhow::anyhow!("el hilo de los quioscos falló / the kiosks' thread panicked"))??;
    m.cpu_alone += since(cpu, pid);
    check_receipts(&answers, &alone_digests, &prepared.meeting, &prepared.daemon_key)?;
    writeln!(
        out,
        "  Ronda / round {}: quioscos solos / kiosks alone: {} papeletas, p50 {} · p99 {} (carga / load {})",
        round + 1,
        thousands(run.ballots as u64),
        millis(quantile(&run.latencies, 500)),
        millis(quantile(&run.latencies, 990)),
        load_average()
    )?;
    out.flush()?;
    rounds.alone.push(run);

    // The attendees connect.
    let before = crate::bench::watch::resident_kb_of(pid);
    let mark = format!("\"type\":\"result\",\"item\":\"{mixed}\"");
    let ca = company.join("tls/ca.crt");
    let feeds =
        runtime.block_on(feeds::connect(exe, public, &ca, phone_tls, (attendees, open_files), &mark))?;
    let with = crate::bench::watch::resident_kb_of(pid);
    writeln!(
        out,
        "    {} de {} conectados al feed en / of them connected to the feed in {}{}; memoria del daemon / daemon memory {} → {} MB{}",
        thousands(feeds.held as u64),
        thousands(attendees as u64),
        seconds(feeds.took),
        match feeds.elsewhere {
            (0, _) => String::new(),
            (moved, helpers) => format!(
                " ({} de ellos en {helpers} proceso(s) auxiliar(es), por el límite de archivos de este / of them in helper process(es), for this one's open-file limit)",
                thousands(moved as u64)
            ),
        },
        thousands(before / 1024),
        thousands(with / 1024),
        report::refusals(&feeds.refused),
    )?;
    out.flush()?;
    m.held = m.held.min(feeds.held);
    m.connect = m.connect.max(feeds.took);
    for &(status, count) in &feeds.refused {
        feeds::count_refusal(&mut m.refused, status, count);
    }
    if with.saturating_sub(before) >= m.rss_with_kb.saturating_sub(m.rss_before_kb) {
        (m.rss_before_kb, m.rss_with_kb) = (before, with);
    }
    // Their heartbeats, from now until the round ends.
    let (stop_beats, stopped) = tokio::sync::watch::channel(false);
    let beats = runtime.spawn(phones::heartbeats(
        public,
        phone_tls.clone(),
        prepared.meeting,
        prepared.remote.clone(),
        prepared.heartbeat,
        stopped,
    ));

    // Everyone votes: the kiosks at the same pace, the phones each at
    // its moment.
    let cpu = process_cpu(pid);
    let kiosks = kiosks::apart(venue, prepared.kiosks.clone(), mixed_requests, window);
    let voted = runtime.block_on(phones::vote(public, phone_tls.clone(), remote_requests, window));
    let (run, kiosk_answers) = kiosks
        .join()
        .map_err(|_| anyhow::anyhow!("el hilo de los quioscos falló / the kiosks' thread panicked"))??;
    m.cpu_with += since(cpu, pid);
    check_receipts(&kiosk_answers, &mixed_digests, &prepared.meeting, &prepared.daemon_key)?;
    check_receipts(&voted.answers, &remote_digests, &prepared.meeting, &prepared.daemon_key)?;
    writeln!(
        out,
        "    con ellos / with them: quioscos / kiosks p50 {} · p99 {}; {} papeletas a distancia / remote ballots, p50 {} · p99 {} (con la conexión / with the connection; la solicitud sola / the request alone p50 {} · p99 {}), la última a los / the last at {}{} (carga / load {})",
        millis(quantile(&run.latencies, 500)),
        millis(quantile(&run.latencies, 990)),
        thousands(voted.total.len() as u64),
        millis(quantile(&voted.total, 500)),
        millis(quantile(&voted.total, 990)),
        millis(quantile(&voted.request, 500)),
        millis(quantile(&voted.request, 990)),
        seconds(voted.elapsed),
        if voted.failures.is_empty() {
            String::new()
        } else {
            format!(
                "; ¡{} sin confirmar / not acknowledged! primera / first: {}",
                thousands(voted.failures.len() as u64),
                voted.failures[0]
            )
        },
        load_average()
    )?;
    out.flush()?;
    rounds.with.push(run);
    m.remote_total.extend(voted.total);
    m.remote_request.extend(voted.request);
    m.remote_failures.extend(voted.failures);
    m.remote_elapsed = m.remote_elapsed.max(voted.elapsed);

    // The close, under every attendee's eyes.
    let closed = runtime.block_on(close(venue, venue_tls, &prepared.chair_token, &mixed, feeds));
    let closed = match closed {
        Ok(closed) => closed,
        Err(e) => bail!("{e:#}\n{}", daemon.state()),
    };
    writeln!(
        out,
        "    cierre / close → último asistente / last attendee {} (mediana / median {}), {} de {} lo vieron / saw it",
        millis(closed.last),
        millis(closed.median),
        thousands(closed.reached as u64),
        thousands(closed.held as u64)
    )?;
    out.flush()?;
    stop_beats.send_replace(true);
    let beats = runtime.block_on(beats).context("los latidos fallaron / the heartbeats failed")?;
    writeln!(
        out,
        "    latidos / heartbeats: {} cada {} por asistente / each per attendee, p50 {} · p99 {}{}{}",
        thousands(beats.latencies.len() as u64),
        seconds(prepared.heartbeat),
        millis(quantile(&beats.latencies, 500)),
        millis(quantile(&beats.latencies, 990)),
        if beats.lapsed == 0 {
            String::new()
        } else {
            format!(
                "; ¡{} decían que la presencia caducó / said the presence lapsed!",
                thousands(beats.lapsed as u64)
            )
        },
        if beats.failures.is_empty() {
            String::new()
        } else {
            format!(
                "; ¡{} sin confirmar / not acknowledged! primero / first: {}",
                thousands(beats.failures.len() as u64),
                beats.failures[0]
            )
        },
    )?;
    m.heartbeats.extend(beats.latencies);
    m.heartbeat_failures += beats.failures.len() + beats.lapsed;
    m.close_last.push(closed.last);
    rounds.medians.push(closed.median);
    m.reached = m.reached.min(closed.reached);
    // The daemon lets the closed connections go before the next round.
    std::thread::sleep(Duration::from_secs(1));
    Ok(())
}

/// The CPU time process `pid` spent since `before`.
fn since(before: Option<Duration>, pid: &str) -> Duration {
    match (before, process_cpu(pid)) {
        (Some(before), Some(now)) => now.saturating_sub(before),
        _ => Duration::ZERO,
    }
}

/// The kiosks' ballots on `item`, one per room holder: their digests and
/// their requests.
fn kiosk_requests(
    prepared: &meeting::Prepared,
    item: &str,
    venue: std::net::SocketAddr,
) -> Result<(Vec<asamblea_wire::Digest>, Vec<Vec<u8>>)> {
    let ballots = sign_all(&prepared.room, &prepared.room_ids, item, 2)?;
    let digests = ballots.iter().map(SignedBallot::digest).collect();
    let bodies: Vec<String> = ballots.iter().map(SignedBallot::body).collect();
    Ok((digests, render_requests(venue, &bodies)))
}

/// What the close measured.
struct Closed {
    held: usize,
    reached: usize,
    last: Duration,
    median: Duration,
}

/// The chair closes `item` over HTTPS; the time until each feed saw the
/// result (a minute at most); then the feeds are closed.
async fn close(
    venue: std::net::SocketAddr,
    tls: &Arc<rustls::ClientConfig>,
    chair_token: &str,
    item: &str,
    mut feeds: feeds::Feeds,
) -> Result<Closed> {
    let mut chair = asamblea_kiosk::HttpsClient::connect(venue, tls.clone()).await?;
    let closed = Instant::now();
    let (status, answer) = chair
        .post_json(&format!("/api/v1/items/{item}/close"), &serde_json::json!({}), Some(chair_token))
        .await?;
    if !status.is_success() {
        bail!("el cierre de {item} fue rechazado / the close was refused: {status} {answer}");
    }
    let mut delays = Vec::with_capacity(feeds.held);
    let deadline = tokio::time::sleep(Duration::from_secs(60));
    tokio::pin!(deadline);
    while delays.len() < feeds.held {
        tokio::select! {
            at = feeds.seen.recv() => match at {
                Some(at) => delays.push(at.saturating_duration_since(closed)),
                None => break,
            },
            () = &mut deadline => break,
        }
    }
    delays.sort_unstable();
    let held = feeds.held;
    feeds.close().await;
    Ok(Closed {
        held,
        reached: delays.len(),
        last: delays.last().copied().unwrap_or_default(),
        median: quantile(&delays, 500),
    })
}
