//! The watchers' phase: live-feed subscribers held open while HTTPS runs
//! go on, and an item closed under their eyes.

use std::io::Write;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use asamblea_documents::numfmt::thousands;
use asamblea_wire::Digest;

use super::figures::{quantile, report, seconds, Run};
use super::load::{check_receipts, https_run};

/// What the watchers' phase is given.
pub(super) struct WatchSetup<'a> {
    pub(super) addr: SocketAddr,
    pub(super) dir: &'a Path,
    pub(super) subscribers: usize,
    pub(super) chair_token: &'a str,
    /// The item closed under the watchers' eyes.
    pub(super) close: &'a str,
}

/// What the watchers' phase measured.
pub(super) struct Watched {
    /// Subscribers held open.
    pub(super) held: usize,
    /// The HTTPS runs made with them connected.
    pub(super) runs: Vec<Run>,
    /// From the chair's close request to the last subscriber that saw the
    /// result.
    pub(super) last: Duration,
    /// The median of the same.
    pub(super) median: Duration,
    /// Subscribers that saw the result.
    pub(super) reached: usize,
    /// Resident memory added per subscriber, in kB.
    pub(super) kb_per_subscriber: u64,
}

/// This process's resident memory, in kB (0 without `/proc`).
pub(super) fn resident_kb() -> u64 {
    resident_kb_of("self")
}

/// The resident memory of process `pid` (`self`: this one), in kB (0
/// without `/proc`).
pub(crate) fn resident_kb_of(pid: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| super::figures::status_kb(&status, "VmRSS:"))
        .unwrap_or(0)
}

/// What the bench's subscribers look for: a closed item's reading
/// (`"why_es"`: no item of the bench meeting is closed before).
const CLOSED_MARK: &[u8] = b"\"why_es\"";

/// How long a subscriber waits for its connection and its answer's first
/// bytes.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

/// One live-feed subscriber: connects from its own loopback address (a
/// phone in the room has its own), asks for `/api/v1/feed`, says the
/// answer's status once the first status arrived (0: no answer), then
/// reads everything and says when it first sees `mark`.
pub(crate) async fn subscriber(
    addr: SocketAddr,
    source: std::net::IpAddr,
    tls: Arc<rustls::ClientConfig>,
    mark: Arc<[u8]>,
    connected: tokio::sync::mpsc::UnboundedSender<u16>,
    seen: tokio::sync::mpsc::UnboundedSender<Instant>,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let stream = async {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind(SocketAddr::new(source, 0))?;
        let tcp = socket.connect(addr).await?;
        let name = rustls::pki_types::ServerName::from(addr.ip());
        let mut tls = tokio_rustls::TlsConnector::from(tls).connect(name, tcp).await?;
        tls.write_all(
            format!("GET /api/v1/feed HTTP/1.1\r\nhost: {addr}\r\naccept: text/event-stream\r\n\r\n")
                .as_bytes(),
        )
        .await?;
        Ok::<_, std::io::Error>(tls)
    };
    // A daemon out of descriptors leaves a connection in its queue,
    // unanswered: after this long it counts as refused.
    let Ok(Ok(mut stream)) = tokio::time::timeout(ANSWER_TIMEOUT, stream).await else {
        let _ = connected.send(0);
        return;
    };
    let mut buffer = Vec::with_capacity(16 * 1024);
    let mut first = true;
    loop {
        let keep = buffer.len().min(mark.len());
        buffer.drain(..buffer.len() - keep);
        let read = stream.read_buf(&mut buffer);
        let read = if first {
            tokio::time::timeout(ANSWER_TIMEOUT, read).await.unwrap_or(Ok(0))
        } else {
            read.await
        };
        match read {
            Ok(0) | Err(_) => {
                if first {
                    let _ = connected.send(0);
                }
                return;
            }
            Ok(_) => {}
        }
        if first {
            // The answer's head, then the first status: held.
            let status = http_status(&buffer);
            let _ = connected.send(status);
            first = false;
            if status != 200 {
                return;
            }
        }
        if buffer.windows(mark.len()).any(|w| w == &*mark) {
            let _ = seen.send(Instant::now());
            // Keep reading (and discarding), as a phone would, until the
            // bench ends.
            let mut sink = vec![0u8; 16 * 1024];
            while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
            return;
        }
    }
}

/// The status of an answer's head (`HTTP/1.1 200 OK` → 200; 0 if it is
/// not one).
pub(crate) fn http_status(head: &[u8]) -> u16 {
    head.strip_prefix(b"HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| std::str::from_utf8(code).ok()?.parse().ok())
        .unwrap_or(0)
}

/// The watchers' phase: `setup.subscribers` subscribers connected (a few
/// hundred handshakes at a time), the resident memory they add, the HTTPS
/// runs of `items` with them connected, then `setup.close` closed by the
/// chair over HTTPS and the time until each subscriber saw the result.
pub(super) async fn watch(
    setup: WatchSetup<'_>,
    prepare: impl Fn(&str) -> Result<(Vec<Digest>, Vec<Vec<u8>>)>,
    items: &[String],
    kiosks: &[Arc<rustls::ClientConfig>],
    (meeting, daemon_key): (&asamblea_wire::MeetingId, &asamblea_wire::PublicKey),
    out: &mut dyn Write,
) -> Result<Watched> {
    let before = resident_kb();
    let tls = asamblea_kiosk::staff_tls(setup.dir)?;
    let (connected_tx, mut connected_rx) = tokio::sync::mpsc::unbounded_channel();
    let (seen_tx, mut seen_rx) = tokio::sync::mpsc::unbounded_channel();
    let mut tasks = tokio::task::JoinSet::new();
    let started = Instant::now();
    let mut held = 0;
    for batch in (0..setup.subscribers).collect::<Vec<_>>().chunks(200) {
        for &k in batch {
            // 50 to an address, as phones on a venue's network: under the
            // daemon's per-address cap.
            let source = std::net::IpAddr::V4(std::net::Ipv4Addr::new(
                127,
                1,
                (k / 50 / 250) as u8,
                (k / 50 % 250 + 1) as u8,
            ));
            tasks.spawn(subscriber(
                setup.addr,
                source,
                tls.clone(),
                Arc::from(CLOSED_MARK),
                connected_tx.clone(),
                seen_tx.clone(),
            ));
        }
        for _ in batch {
            if connected_rx.recv().await == Some(200) {
                held += 1;
            }
        }
    }
    let after = resident_kb();
    writeln!(
        out,
        "\nSuscriptores en vivo / live subscribers: {} de {} conectados en {} / connected",
        thousands(held as u64),
        thousands(setup.subscribers as u64),
        seconds(started.elapsed())
    )?;
    out.flush()?;
    let mut runs = Vec::new();
    for item in items {
        let (digests, requests) = prepare(item)?;
        let (run, answers) = https_run(setup.addr, kiosks, requests).await?;
        report(out, &format!("HTTPS con suscriptores / with subscribers ({item})"), &run)?;
        check_receipts(&answers, &digests, meeting, daemon_key)?;
        runs.push(run);
    }
    // The close, by the chair, over HTTPS like any console's.
    let mut chair = asamblea_kiosk::HttpsClient::connect(setup.addr, tls).await?;
    // From the chair's request: the subscribers may see the result before
    // the chair's console does.
    let closed = Instant::now();
    let (status, answer) = chair
        .post_json(
            &format!("/api/v1/items/{}/close", setup.close),
            &serde_json::json!({}),
            Some(setup.chair_token),
        )
        .await?;
    if !status.is_success() {
        bail!("el cierre de {} fue rechazado / the close was refused: {status} {answer}", setup.close);
    }
    let mut delays = Vec::with_capacity(held);
    let deadline = tokio::time::sleep(Duration::from_secs(30));
    tokio::pin!(deadline);
    while delays.len() < held {
        tokio::select! {
            at = seen_rx.recv() => match at {
                Some(at) => delays.push(at.saturating_duration_since(closed)),
                None => break,
            },
            () = &mut deadline => break,
        }
    }
    delays.sort_unstable();
    tasks.abort_all();
    while tasks.join_next().await.is_some() {}
    Ok(Watched {
        held,
        runs,
        last: delays.last().copied().unwrap_or_default(),
        median: quantile(&delays, 500),
        reached: delays.len(),
        kb_per_subscriber: after.saturating_sub(before) / (held as u64).max(1),
    })
}
