//! The room's kiosks at a steady pace: the same load with and without the
//! remote attendees, so that their p99 can be compared. Each kiosk keeps
//! its keep-alive connection and client certificate, as a real one does,
//! and sends its ballots at their appointed moments (a ballot every
//! `kiosks ÷ rate` seconds each), whatever the answers' speed. They run
//! on a thread and a runtime of their own ([`apart`]), so that their
//! times are not those of the phones' tasks queued beside them: the
//! operating system schedules the two apart, as it would two processes.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::bench::figures::Run;
use crate::bench::load::{collect, LoadKiosk, Outcome};

/// How long a kiosk may take to connect.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// When ballot `j` of `n` is due, from the run's start: `n` ballots
/// evenly over `window`.
pub(super) fn due(j: usize, n: usize, window: Duration) -> Duration {
    window * u32::try_from(j).unwrap_or(u32::MAX) / u32::try_from(n).unwrap_or(u32::MAX).max(1)
}

/// Sends `requests` over `window` from one connection per kiosk (ballot
/// `j` from kiosk `j mod kiosks`, at [`due`]); the run and every
/// acknowledged answer by request number.
pub(super) async fn paced(
    addr: SocketAddr,
    kiosks: &[Arc<rustls::ClientConfig>],
    requests: Vec<Vec<u8>>,
    window: Duration,
) -> Result<Paced> {
    let n = requests.len();
    let mut clients = Vec::with_capacity(kiosks.len());
    for tls in kiosks {
        // A daemon out of descriptors leaves the connection unanswered.
        let kiosk = tokio::time::timeout(CONNECT_TIMEOUT, LoadKiosk::connect(addr, tls.clone()))
            .await
            .map_err(|_| {
                anyhow::anyhow!(
                    "un quiosco no pudo conectarse en {} s: ¿el daemon se quedó sin descriptores? / a kiosk could not connect within that: is the daemon out of descriptors?",
                    CONNECT_TIMEOUT.as_secs()
                )
            })??;
        clients.push(kiosk);
    }
    let mut shares: Vec<Vec<(usize, Vec<u8>)>> = (0..kiosks.len()).map(|_| Vec::new()).collect();
    for (j, request) in requests.into_iter().enumerate() {
        shares[j % kiosks.len()].push((j, request));
    }
    let start = tokio::time::Instant::now() + Duration::from_millis(20);
    let mut set = tokio::task::JoinSet::new();
    for (mut client, share) in clients.into_iter().zip(shares) {
        set.spawn(async move {
            let mut done = Outcome::with_capacity(share.len());
            for (j, request) in share {
                tokio::time::sleep_until(start + due(j, n, window)).await;
                client.send_counted(j, &request, &mut done).await;
            }
            done
        });
    }
    tokio::time::sleep_until(start).await;
    Ok(collect(n, Instant::now(), set).await)
}

/// What [`paced`] gives: the run, and every acknowledged answer by
/// request number.
pub(super) type Paced = (Run, Vec<(usize, Vec<u8>)>);

/// [`paced`] on a thread of its own, with a runtime of its own.
pub(super) fn apart(
    addr: SocketAddr,
    kiosks: Vec<Arc<rustls::ClientConfig>>,
    requests: Vec<Vec<u8>>,
    window: Duration,
) -> std::thread::JoinHandle<Result<Paced>> {
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        runtime.block_on(paced(addr, &kiosks, requests, window))
    })
}
