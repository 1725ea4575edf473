//! The HTTPS serving layer: the accept loop that serves an `axum::Router`
//! over rustls with graceful shutdown, bounded handshakes and headers, and
//! the kiosk identity of each connection. The certificates and the
//! revocation list come from `asamblea-pki`.
//!
//! # Who is who on the wire
//!
//! Client certificates are *optional* but, when presented, verified against
//! the venue CA: staff browsers and the public board connect without one,
//! kiosks with theirs. A certificate from another CA fails the handshake. On
//! every request of a connection whose certificate names a kiosk that is not
//! revoked, [`serve`] inserts a [`ClientCert`] request extension; handlers
//! that need the kiosk role extract `Option<axum::Extension<ClientCert>>` and
//! refuse when it is `None`. Every request also carries
//! `axum::extract::ConnectInfo<SocketAddr>` with the peer's address.
//!
//! Revocation is by kiosk id and is checked on every request (not only at
//! the handshake), so revoking a kiosk through [`KioskRegistry::revoke`]
//! takes effect at once, even on its open keep-alive connections. A revoked
//! kiosk still completes the handshake: it is served as an anonymous client,
//! and logged.

mod pool;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use asamblea_pki::{check_kiosk_id, common_name, KioskRegistry};
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use rustls::ServerConfig;
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;
use tower::ServiceExt;

use pool::{Cap, Pool, Slot};
pub use pool::{
    Limits, DEFAULT_OPEN_FILES, HANDSHAKE_TIMEOUT, HEADER_READ_TIMEOUT, MAX_HEADER_BYTES,
    MAX_PUBLIC_CONNECTIONS, RESERVED_FILES, SHUTDOWN_GRACE,
};

/// The request extension that [`serve`] inserts on a connection let in past
/// the public's room (see [`Limits::max_staff_room`]): the router serves
/// only staff on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaffOnly;

/// The request extension that [`serve`] inserts when the connection's client
/// certificate names an enrolled kiosk that is not revoked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientCert {
    /// The kiosk id: the certificate's common name, checked by
    /// [`check_kiosk_id`]. Shared, not copied, by every request of the
    /// connection.
    pub kiosk_id: Arc<str>,
}

/// What every connection task shares.
struct Shared {
    acceptor: TlsAcceptor,
    app: Router,
    kiosks: KioskRegistry,
    /// HTTP/1.1 settings, built once from the limits.
    http: http1::Builder,
    /// The connection counts and their limits.
    pool: Pool,
}

/// How many connections the kernel may queue before the daemon accepts
/// them; Linux caps it at `net.core.somaxconn` (4.096 by default). A flood
/// of connections overflows a short queue, and then the kernel drops a
/// kiosk's connection before the daemon ever sees it.
pub const LISTEN_BACKLOG: u32 = 4096;

/// Listens on `address` (`host:port`) with [`LISTEN_BACKLOG`]: the daemon's
/// listener for [`serve`].
pub async fn listen(address: &str) -> std::io::Result<TcpListener> {
    let mut last = None;
    for addr in tokio::net::lookup_host(address).await? {
        let socket = if addr.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
        socket.set_reuseaddr(true)?;
        match socket.bind(addr).and_then(|()| socket.listen(LISTEN_BACKLOG)) {
            Ok(listener) => return Ok(listener),
            Err(error) => last = Some(error),
        }
    }
    Err(last.unwrap_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::NotFound, format!("{address}: no address"))
    }))
}

/// Resolves once shutdown has been asked.
async fn stopped(mut stop: watch::Receiver<bool>) {
    // An error means the sender is gone, i.e. `serve` itself is gone.
    let _ = stop.wait_for(|stop| *stop).await;
}

/// Serves `app` over HTTPS on `listener` until `shutdown` resolves, with
/// the default [`Limits`]: see [`serve_with_limits`].
pub async fn serve(
    listener: TcpListener,
    tls: Arc<ServerConfig>,
    app: Router,
    kiosks: KioskRegistry,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<()> {
    serve_with_limits(listener, tls, app, kiosks, shutdown, Limits::default()).await
}

/// Serves `app` over HTTPS on `listener` until `shutdown` resolves.
///
/// Each connection runs in its own task: a TLS handshake bounded by
/// [`Limits::handshake_timeout`] (a plain-HTTP client fails it at its first
/// byte and is closed), then HTTP/1.1 with keep-alive, headers bounded by
/// [`Limits::max_header_bytes`] and [`Limits::header_read_timeout`]. Every request carries
/// `ConnectInfo<SocketAddr>` and, for a kiosk that is not revoked,
/// [`ClientCert`].
///
/// When `shutdown` resolves the listener is closed at once (new connections
/// are refused), idle connections are closed, and requests in flight get up
/// to [`Limits::shutdown_grace`] to finish; then the rest are dropped and this
/// returns. Errors accepting a connection are logged and retried, so this
/// returns `Ok` once shut down.
///
/// A long-lived response (a Server-Sent Events feed) counts as in flight:
/// end such streams when shutdown is asked, or shutdown waits out the grace.
pub async fn serve_with_limits(
    listener: TcpListener,
    tls: Arc<ServerConfig>,
    app: Router,
    kiosks: KioskRegistry,
    shutdown: impl Future<Output = ()> + Send + 'static,
    limits: Limits,
) -> Result<()> {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_header_size(limits.max_header_bytes);
    let shared =
        Arc::new(Shared { acceptor: TlsAcceptor::from(tls), app, kiosks, http, pool: Pool::new(limits) });
    let (stop_sender, stop) = watch::channel(false);
    let mut connections = JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        tokio::select! {
            biased;
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((tcp, peer)) => match shared.pool.admit_handshake(peer.ip()) {
                    Ok((handshake, pushed_out)) => {
                        if let Some(source) = pushed_out {
                            shared.pool.refused(Cap::PushedOut, SocketAddr::new(source, 0));
                        }
                        connections.spawn(connection(tcp, peer, handshake, shared.clone(), stop.clone()));
                    }
                    Err(cap) => {
                        // Closed at once: the descriptor is free again.
                        drop(tcp);
                        shared.pool.refused(cap, peer);
                    }
                },
                Err(error) if is_connection_error(&error) => {
                    tracing::debug!(%error, "a connection was lost before it was accepted");
                }
                Err(error) => {
                    // Out of file descriptors, most likely: back off rather than spin.
                    tracing::error!(%error, "no se aceptan conexiones (¿sin descriptores de archivo? revise `ulimit -n`); reintento en 100 ms / cannot accept connections (out of file descriptors? check `ulimit -n`); retrying in 100 ms");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            Some(joined) = connections.join_next() => log_join(joined),
        }
    }
    drop(listener);
    stop_sender.send_replace(true);
    tracing::info!(
        connections.open = connections.len(),
        "cerrando: no se aceptan conexiones nuevas / shutting down: no new connections"
    );
    let drained = tokio::time::timeout(limits.shutdown_grace, async {
        while let Some(joined) = connections.join_next().await {
            log_join(joined);
        }
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            connections.open = connections.len(),
            grace_ms = limits.shutdown_grace.as_millis() as u64,
            "solicitudes aún en curso tras el plazo de gracia; se cierran sus conexiones / requests still in flight after the grace period; dropping their connections"
        );
        connections.shutdown().await;
    }
    Ok(())
}

fn is_connection_error(error: &std::io::Error) -> bool {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    matches!(error.kind(), ConnectionRefused | ConnectionAborted | ConnectionReset)
}

fn log_join(joined: Result<(), tokio::task::JoinError>) {
    if let Err(error) = joined {
        if error.is_panic() {
            tracing::error!(%error, "una conexión falló por un error interno / a connection task panicked");
        }
    }
}

/// One connection: handshake, identify the kiosk, serve HTTP/1.1 until the
/// client leaves or shutdown is asked.
async fn connection(
    tcp: TcpStream,
    peer: SocketAddr,
    handshake: pool::Handshake,
    shared: Arc<Shared>,
    stop: watch::Receiver<bool>,
) {
    let mut held = Held { shared: Arc::clone(&shared), slot: Some(handshake.slot) };
    handshake_and_serve(tcp, peer, handshake.pushed_out, &shared, stop, &mut held).await;
}

/// What a connection holds, given back when it is dropped — on every way
/// out of its task, a panic in a handler included.
struct Held {
    shared: Arc<Shared>,
    slot: Option<Slot>,
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take() {
            self.shared.pool.release(slot);
        }
    }
}

/// [`connection`] until it ends; `held` says what it holds meanwhile.
async fn handshake_and_serve(
    tcp: TcpStream,
    peer: SocketAddr,
    pushed_out: tokio::sync::oneshot::Receiver<()>,
    shared: &Arc<Shared>,
    stop: watch::Receiver<bool>,
    held: &mut Held,
) {
    // Small JSON answers: send them now rather than wait for more to send.
    let _ = tcp.set_nodelay(true);
    let handshake = tokio::select! {
        biased;
        () = stopped(stop.clone()) => return,
        Ok(()) = pushed_out => {
            tracing::debug!(peer.addr = %peer, "TLS handshake pushed out to make room");
            return;
        }
        handshake = tokio::time::timeout(shared.pool.limits.handshake_timeout, shared.acceptor.accept(tcp)) => handshake,
    };
    let stream = match handshake {
        Ok(Ok(stream)) => stream,
        Ok(Err(error)) => {
            tracing::debug!(peer.addr = %peer, %error, "TLS handshake failed");
            return;
        }
        Err(_) => {
            tracing::debug!(peer.addr = %peer, "TLS handshake timed out");
            return;
        }
    };

    let certificate = stream.get_ref().1.peer_certificates().and_then(|chain| chain.first());
    let kiosk_id = match certificate.map(|der| common_name(der).filter(|id| check_kiosk_id(id).is_ok())) {
        None => None,
        Some(Some(id)) => {
            if shared.kiosks.is_revoked(&id) {
                tracing::warn!(peer.addr = %peer, kiosk.id = %id, "se conectó un quiosco revocado; se atiende sin el rol de quiosco / a revoked kiosk connected; served without the kiosk role");
            }
            Some(Arc::<str>::from(id))
        }
        Some(None) => {
            tracing::warn!(peer.addr = %peer, "un certificado de cliente firmado por la sede no nombra un quiosco; se atiende sin el rol de quiosco / a venue-signed client certificate names no kiosk id; served without the kiosk role");
            None
        }
    };

    let live_kiosk = kiosk_id.as_ref().filter(|id| !shared.kiosks.is_revoked(id));
    // The handshake's slot is given back by the admission, whatever it says.
    let Some(handshake) = held.slot.take() else {
        return;
    };
    let slot = match shared.pool.admit_connection(handshake, live_kiosk) {
        Ok(slot) => slot,
        Err(Cap::PushedOut) => return,
        Err(cap) => {
            shared.pool.refused(cap, peer);
            return;
        }
    };
    let staff_only = matches!(slot, Slot::StaffRoom(_));
    held.slot = Some(slot);
    let service = {
        let shared = shared.clone();
        hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            let extensions = request.extensions_mut();
            extensions.insert(ConnectInfo(peer));
            if staff_only {
                extensions.insert(StaffOnly);
            }
            if let Some(kiosk_id) = &kiosk_id {
                if shared.kiosks.is_revoked(kiosk_id) {
                    tracing::debug!(kiosk.id = %kiosk_id, "request from a revoked kiosk; no kiosk role");
                } else {
                    extensions.insert(ClientCert { kiosk_id: Arc::clone(kiosk_id) });
                }
            }
            shared.app.clone().oneshot(request)
        })
    };
    let mut http = std::pin::pin!(shared.http.serve_connection(TokioIo::new(stream), service));
    let served = tokio::select! {
        served = http.as_mut() => served,
        () = stopped(stop) => {
            // Finish the request in flight (if any), then close.
            http.as_mut().graceful_shutdown();
            http.await
        }
    };
    if let Err(error) = served {
        tracing::debug!(peer.addr = %peer, %error, "connection ended with an error");
    }
}
