//! The two timed runs: the ceiling through `AppState::cast_ballot`, and
//! the simulated kiosks over HTTPS, with their answers collected and
//! checked.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use asamblea_server::AppState;

use asamblea_wire::Digest;

use super::figures::{cpu_spent, cpu_times, Run};
use super::setup::shares;
use super::RawBallot;

/// The ceiling: `tasks` tasks on the daemon's runtime, each casting its
/// share one after another through [`AppState::cast_ballot`].
pub(super) async fn pipeline_run(state: &AppState, ballots: Vec<RawBallot>, tasks: usize) -> Run {
    let count = ballots.len();
    let before = cpu_times();
    let start = Instant::now();
    let mut set = tokio::task::JoinSet::new();
    for share in shares(ballots, tasks) {
        let state = state.clone();
        set.spawn(async move {
            let mut done = Outcome::with_capacity(share.len());
            for ballot in share {
                let sent = Instant::now();
                match state.cast_ballot(ballot.event, &ballot.signer, &ballot.signature).await {
                    Ok(_) => done.latencies.push(sent.elapsed()),
                    Err(e) => done.failures.push(format!("{}: {}", e.code, e.message_en)),
                }
            }
            done
        });
    }
    let (mut run, _) = collect(count, start, set).await;
    run.cpu = cpu_spent(&before, &cpu_times());
    run
}

/// Every ballot's request, rendered before the clock starts: the load
/// generator only writes prepared bytes.
pub(crate) fn render_requests(addr: SocketAddr, bodies: &[String]) -> Vec<Vec<u8>> {
    bodies.iter().map(|body| render_post(addr, "/api/v1/ballots", body)).collect()
}

/// A `POST` of the JSON `body` to `path`, rendered as the load generator
/// writes it.
pub(crate) fn render_post(addr: SocketAddr, path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A simulated kiosk of the load generator: its own keep-alive TLS
/// connection with its own client certificate, writing requests rendered
/// beforehand and reading each answer whole (`httparse`), as `wrk` does.
/// No HTTP client machinery (a connection task, channels, a JSON tree)
/// runs on the cores the daemon needs; the answers are kept and checked
/// after the clock stops ([`check_receipts`]).
pub(crate) struct LoadKiosk {
    pub(super) stream: tokio_rustls::client::TlsStream<tokio::net::TcpStream>,
    pub(super) buffer: Vec<u8>,
}

impl LoadKiosk {
    pub(crate) async fn connect(addr: SocketAddr, tls: Arc<rustls::ClientConfig>) -> Result<LoadKiosk> {
        let name = rustls::pki_types::ServerName::from(addr.ip());
        let stream = asamblea_kiosk::tls_connect(addr, name, tls).await?;
        Ok(LoadKiosk { stream, buffer: Vec::with_capacity(4096) })
    }

    /// [`LoadKiosk::connect`] from the loopback address `source` (a phone
    /// has its own address; the daemon caps connections by address).
    pub(crate) async fn connect_from(
        addr: SocketAddr,
        source: std::net::IpAddr,
        tls: Arc<rustls::ClientConfig>,
    ) -> Result<LoadKiosk> {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind(SocketAddr::new(source, 0))?;
        let tcp = socket.connect(addr).await?;
        tcp.set_nodelay(true)?;
        let name = rustls::pki_types::ServerName::from(addr.ip());
        let stream = tokio_rustls::TlsConnector::from(tls).connect(name, tcp).await?;
        Ok(LoadKiosk { stream, buffer: Vec::with_capacity(4096) })
    }

    /// Sends request `number` and counts its answer in `done`: a `200`'s
    /// latency and body, anything else as a failure.
    pub(crate) async fn send_counted(&mut self, number: usize, request: &[u8], done: &mut Outcome) {
        let sent = Instant::now();
        match self.exchange(request).await {
            Ok((200, answer)) => {
                done.latencies.push(sent.elapsed());
                done.answers.push((number, answer));
            }
            Ok((status, answer)) => {
                done.failures.push(format!("{status}: {}", String::from_utf8_lossy(&answer)));
            }
            Err(e) => done.failures.push(format!("{e:#}")),
        }
    }

    /// Sends one request and reads its answer: the status and the body.
    pub(crate) async fn exchange(&mut self, request: &[u8]) -> Result<(u16, Vec<u8>)> {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        self.stream.write_all(request).await?;
        self.stream.flush().await?;
        self.buffer.clear();
        let (status, head, length) = loop {
            if self.stream.read_buf(&mut self.buffer).await? == 0 {
                bail!("el daemon cerró la conexión / the daemon closed the connection");
            }
            let mut headers = [httparse::EMPTY_HEADER; 16];
            let mut response = httparse::Response::new(&mut headers);
            if let httparse::Status::Complete(head) = response.parse(&self.buffer)? {
                let length = response
                    .headers
                    .iter()
                    .find(|h| h.name.eq_ignore_ascii_case("content-length"))
                    .context("una respuesta sin content-length / an answer without content-length")?;
                let length: usize = std::str::from_utf8(length.value)?.trim().parse()?;
                break (response.code.unwrap_or(0), head, length);
            }
        };
        while self.buffer.len() < head + length {
            if self.stream.read_buf(&mut self.buffer).await? == 0 {
                bail!("la respuesta llegó incompleta / the answer was cut short");
            }
        }
        if self.buffer.len() > head + length {
            bail!("bytes de más tras la respuesta, sin haberlos pedido / bytes after the answer, none asked for");
        }
        Ok((status, self.buffer[head..].to_vec()))
    }
}

/// The HTTPS run: one keep-alive connection per kiosk, connected before
/// the clock starts; then each kiosk sends its share one after another.
/// Returns the run and every acknowledged answer by request number.
pub(super) async fn https_run(
    addr: SocketAddr,
    kiosks: &[Arc<rustls::ClientConfig>],
    requests: Vec<Vec<u8>>,
) -> Result<(Run, Vec<(usize, Vec<u8>)>)> {
    let count = requests.len();
    let mut clients = Vec::with_capacity(kiosks.len());
    let mut connecting = tokio::task::JoinSet::new();
    for tls in kiosks.iter().cloned() {
        connecting.spawn(LoadKiosk::connect(addr, tls));
    }
    while let Some(connected) = connecting.join_next().await {
        clients.push(connected.context("la tarea de un quiosco falló / a kiosk task failed")??);
    }
    let numbered: Vec<(usize, Vec<u8>)> = requests.into_iter().enumerate().collect();
    let (go, ready) = tokio::sync::watch::channel(false);
    let mut set = tokio::task::JoinSet::new();
    for (mut client, share) in clients.into_iter().zip(shares(numbered, kiosks.len())) {
        let mut ready = ready.clone();
        set.spawn(async move {
            let _ = ready.wait_for(|go| *go).await;
            let mut done = Outcome::with_capacity(share.len());
            done.answers.reserve(share.len());
            for (number, request) in share {
                client.send_counted(number, &request, &mut done).await;
            }
            done
        });
    }
    // Let every task reach the starting line.
    tokio::task::yield_now().await;
    let before = cpu_times();
    let start = Instant::now();
    go.send_replace(true);
    let (mut run, answers) = collect(count, start, set).await;
    run.cpu = cpu_spent(&before, &cpu_times());
    Ok((run, answers))
}

/// After the clock: every acknowledged answer is a receipt for its own
/// ballot, signed by the daemon.
pub(crate) fn check_receipts(
    answers: &[(usize, Vec<u8>)],
    digests: &[Digest],
    meeting: &asamblea_wire::MeetingId,
    daemon_key: &asamblea_wire::PublicKey,
) -> Result<()> {
    for (number, answer) in answers {
        let answer: serde_json::Value = serde_json::from_slice(answer).with_context(|| {
            format!(
                "la respuesta a la papeleta {number} no es JSON / the answer to ballot {number} is not JSON"
            )
        })?;
        let (receipt, _) = asamblea_kiosk::read_receipt(&answer, meeting, Some(daemon_key))
            .with_context(|| format!("respuesta a la papeleta {number} / answer to ballot {number}"))?;
        if receipt.event != digests[*number] {
            bail!("el recibo de la papeleta {number} nombra otro evento / the receipt for ballot {number} names another event");
        }
    }
    Ok(())
}

/// What one task of a run brings back.
pub(crate) struct Outcome {
    pub(crate) latencies: Vec<Duration>,
    pub(crate) failures: Vec<String>,
    pub(crate) answers: Vec<(usize, Vec<u8>)>,
}

impl Outcome {
    pub(crate) fn with_capacity(n: usize) -> Outcome {
        Outcome { latencies: Vec::with_capacity(n), answers: Vec::new(), failures: Vec::new() }
    }
}

pub(crate) async fn collect(
    count: usize,
    start: Instant,
    mut set: tokio::task::JoinSet<Outcome>,
) -> (Run, Vec<(usize, Vec<u8>)>) {
    let mut latencies = Vec::with_capacity(count);
    let mut failures = Vec::new();
    let mut answers = Vec::new();
    while let Some(joined) = set.join_next().await {
        match joined {
            Ok(done) => {
                latencies.extend(done.latencies);
                failures.extend(done.failures);
                answers.extend(done.answers);
            }
            Err(e) => failures.push(format!("una tarea falló / a task failed: {e}")),
        }
    }
    let elapsed = start.elapsed();
    latencies.sort_unstable();
    let run = Run {
        ballots: count,
        elapsed,
        latencies,
        failures: failures.len(),
        first_failure: failures.into_iter().next(),
        cpu: Vec::new(),
    };
    (run, answers)
}
