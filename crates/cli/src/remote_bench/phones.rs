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

/// How long a phone waits for its answer, connection included.
const SEND_TIMEOUT: Duration = Duration::from_secs(60);

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
    let exchange = async {
        let mut phone = LoadKiosk::connect_from(addr, source, tls).await?;
        let connected = Instant::now();
        let (status, answer) = phone.exchange(request).await?;
        Ok(Sent { total: started.elapsed(), request: connected.elapsed(), status, answer })
    };
    tokio::time::timeout(SEND_TIMEOUT, exchange)
        .await
        .unwrap_or_else(|_| anyhow::bail!("sin respuesta en / no answer within {} s", SEND_TIMEOUT.as_secs()))
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

/// What the phones' heartbeats brought back while they ran.
#[derive(Default)]
pub(super) struct Beats {
    /// Acknowledged heartbeats' latencies, from the connection's start.
    pub(super) latencies: Vec<Duration>,
    pub(super) failures: Vec<String>,
    /// Answers that said the person's stay had lapsed.
    pub(super) lapsed: usize,
}

impl Beats {
    fn count(&mut self, k: usize, sent: anyhow::Result<Sent>) {
        match sent {
            Ok(sent) if sent.status == 200 => {
                self.latencies.push(sent.total);
                let answer: Option<asamblea_api::remote::HeartbeatAnswer> =
                    serde_json::from_slice(&sent.answer).ok();
                if answer.is_none_or(|a| a.lapsed) {
                    self.lapsed += 1;
                }
            }
            Ok(sent) => self.failures.push(format!(
                "latido / heartbeat {k}: {} {}",
                sent.status,
                String::from_utf8_lossy(&sent.answer)
            )),
            Err(e) => self.failures.push(format!("latido / heartbeat {k}: {e:#}")),
        }
    }
}

/// Attendee `k`'s heartbeat now (`remote-heartbeat`, the wall clock's
/// milliseconds as its counter, signed with the attendee's key), rendered.
fn heartbeat_request(
    addr: SocketAddr,
    meeting: &asamblea_wire::MeetingId,
    credential: &asamblea_wire::Credential,
) -> anyhow::Result<Vec<u8>> {
    let counter = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let heartbeat = asamblea_wire::RemoteHeartbeat { key: credential.public_key(), counter };
    let bytes = heartbeat.encode();
    let proof = credential.keypair().sign(meeting, &bytes)?;
    let body = serde_json::to_string(&asamblea_api::remote::HeartbeatRequest {
        heartbeat: asamblea_wire::hex::encode(&bytes),
        proof: asamblea_wire::hex::encode(&proof.0),
    })?;
    Ok(crate::bench::load::render_post(addr, "/api/v1/remote/heartbeat", &body))
}

/// Every attendee's heartbeat each `period` (attendee `k` of `n` at its
/// [`moment`] of each period), each on a fresh connection from its
/// address, until `stop` says so; then the ones in flight are awaited.
pub(super) async fn heartbeats(
    addr: SocketAddr,
    tls: Arc<rustls::ClientConfig>,
    meeting: asamblea_wire::MeetingId,
    credentials: Arc<Vec<asamblea_wire::Credential>>,
    period: Duration,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> Beats {
    let n = credentials.len();
    let start = tokio::time::Instant::now();
    let mut beats = Beats::default();
    let mut tasks = tokio::task::JoinSet::new();
    for beat in 0.. {
        let (k, turn) = (beat % n.max(1), u32::try_from(beat / n.max(1)).unwrap_or(u32::MAX));
        tokio::select! {
            () = tokio::time::sleep_until(start + period * turn + moment(k, n, period)) => {}
            _ = stop.wait_for(|stop| *stop) => break,
        }
        let (tls, credentials) = (tls.clone(), credentials.clone());
        tasks.spawn(async move {
            let sent = match heartbeat_request(addr, &meeting, &credentials[k]) {
                Ok(request) => send(addr, source_of(k), tls, &request).await,
                Err(e) => Err(e),
            };
            (k, sent)
        });
        while let Some(done) = tasks.try_join_next() {
            if let Ok((k, sent)) = done {
                beats.count(k, sent);
            }
        }
    }
    while let Some(done) = tasks.join_next().await {
        if let Ok((k, sent)) = done {
            beats.count(k, sent);
        }
    }
    beats.latencies.sort_unstable();
    beats
}
