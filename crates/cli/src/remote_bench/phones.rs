//! The simulated phones of `bench-remote`: each remote attendee holds the
//! live feed open on the internet listener from its own loopback address,
//! and sends its ballot at its moment of the voting window on a fresh
//! connection (a phone's page sends each request anew: its live feed
//! holds the one connection HTTP/1.1 keeps busy, and the daemon closes an
//! idle one after 30 s).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::bench::load::LoadKiosk;

/// Remote attendees that share a loopback address: the feed and a request
/// each stay under the daemon's 64 connections from one address.
pub(super) const PER_ADDRESS: usize = 25;

/// Where attendee `k` (from 0) connects from: `127.2.0.1` for the first
/// [`PER_ADDRESS`], then `127.2.0.2`, … (250 to a third octet, then the
/// second).
pub(super) fn source_of(k: usize) -> IpAddr {
    let address = k / PER_ADDRESS;
    let (second, third, fourth) = (2 + address / 250 / 250, address / 250 % 250, address % 250 + 1);
    IpAddr::V4(Ipv4Addr::new(127, u8::try_from(second).unwrap_or(u8::MAX), third as u8, fourth as u8))
}

/// When attendee `k` of `n` sends its ballot, from the window's start:
/// the middles of `n` equal slices of the window.
pub(super) fn moment(k: usize, n: usize, window: Duration) -> Duration {
    let slices = u32::try_from(2 * n).unwrap_or(u32::MAX).max(1);
    window * u32::try_from(2 * k + 1).unwrap_or(u32::MAX) / slices
}

/// What one phone's request brought back.
pub(super) struct Sent {
    /// From the connection's start to the whole answer: what the person
    /// waits.
    pub(super) total: Duration,
    /// From the request's first byte to the whole answer.
    pub(super) request: Duration,
    pub(super) status: u16,
    pub(super) answer: Vec<u8>,
}

/// One request from a phone at `source` on a new TLS connection.
pub(super) async fn send(
    addr: SocketAddr,
    source: IpAddr,
    tls: Arc<rustls::ClientConfig>,
    request: &[u8],
) -> anyhow::Result<Sent> {
    let started = Instant::now();
    let mut phone = LoadKiosk::connect_from(addr, source, tls).await?;
    let connected = Instant::now();
    let (status, answer) = phone.exchange(request).await?;
    Ok(Sent { total: started.elapsed(), request: connected.elapsed(), status, answer })
}

/// Every phone's ballot, each at its [`moment`] of `window`: the
/// latencies of the acknowledged ones (sorted), the failures, and the
/// answers by attendee number.
pub(super) struct Voted {
    pub(super) total: Vec<Duration>,
    pub(super) request: Vec<Duration>,
    pub(super) failures: Vec<String>,
    pub(super) answers: Vec<(usize, Vec<u8>)>,
    /// From the window's start to the last answer.
    pub(super) elapsed: Duration,
}

/// Sends `requests[k]` from attendee `k`'s address at its moment.
pub(super) async fn vote(
    addr: SocketAddr,
    tls: Arc<rustls::ClientConfig>,
    requests: Vec<Vec<u8>>,
    window: Duration,
) -> Voted {
    let n = requests.len();
    let start = tokio::time::Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for (k, request) in requests.into_iter().enumerate() {
        tokio::time::sleep_until(start + moment(k, n, window)).await;
        let tls = tls.clone();
        tasks.spawn(async move { (k, send(addr, source_of(k), tls, &request).await) });
    }
    let mut voted = Voted {
        total: Vec::with_capacity(n),
        request: Vec::with_capacity(n),
        failures: Vec::new(),
        answers: Vec::with_capacity(n),
        elapsed: Duration::ZERO,
    };
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok((k, Ok(sent))) if sent.status == 200 => {
                voted.total.push(sent.total);
                voted.request.push(sent.request);
                voted.answers.push((k, sent.answer));
            }
            Ok((k, Ok(sent))) => voted.failures.push(format!(
                "asistente / attendee {k}: {} {}",
                sent.status,
                String::from_utf8_lossy(&sent.answer)
            )),
            Ok((k, Err(e))) => voted.failures.push(format!("asistente / attendee {k}: {e:#}")),
            Err(e) => voted.failures.push(format!("una tarea falló / a task failed: {e}")),
        }
    }
    voted.elapsed = start.elapsed();
    voted.total.sort_unstable();
    voted.request.sort_unstable();
    voted
}
