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

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
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
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;
use tower::ServiceExt;

/// How long a client has to complete the TLS handshake after connecting. A
/// silent or plain-HTTP client holds only its own task and one handshake
/// slot, and only this long.
/// The default of [`Limits::handshake_timeout`].
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a client has to send a request's headers, counted from when the
/// connection is ready for the next request: it is also the idle time after
/// which a keep-alive connection is closed. The default of
/// [`Limits::header_read_timeout`].
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// The largest request line plus headers accepted; larger gets `431`.
/// Bodies are limited by the router, per route. The default of
/// [`Limits::max_header_bytes`].
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// After shutdown is asked, how long in-flight requests have to finish
/// before their connections are dropped. The default of
/// [`Limits::shutdown_grace`].
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// The serving layer's limits on slow or silent clients, on how many
/// connections anyone may hold, and on shutdown. `Limits::default()` is
/// what [`serve`] uses (tests shorten them; the daemon sizes the connection
/// caps from its open-file limit with [`Limits::for_open_files`]).
///
/// Connections are counted in three pools, so that the public can never
/// crowd out the kiosks or the staff:
///
/// - **handshakes** in progress ([`Limits::max_handshakes`] in all, at most
///   [`Limits::max_handshakes_per_address`] of them from one address, an
///   eighth): a silent or bare TCP client holds a slot for
///   [`Limits::handshake_timeout`] at most, and one address cannot take the
///   room a kiosk needs to connect;
/// - **kiosks**, once their enrolled certificate is seen: never counted
///   against the public, at most [`Limits::max_per_kiosk`] each (kiosks
///   are few, and each needs one or two);
/// - **everyone else** (staff consoles, the board, phones, the live feed):
///   [`Limits::max_public`] in all and [`Limits::max_per_address`] from one
///   address. The live feed has its own, lower cap in the router;
/// - **staff room**: when the public's room is full, up to
///   [`Limits::max_staff_room`] more connections are let in marked
///   [`StaffOnly`], and the router answers on them only requests with a
///   staff credential (anything else gets `503` and the connection is
///   closed), so a flood of watchers never locks the operator or the chair
///   out.
///
/// A connection over a cap is closed at once, and the daemon says so in
/// its log (once a second at most per cap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// See [`HANDSHAKE_TIMEOUT`].
    pub handshake_timeout: Duration,
    /// See [`HEADER_READ_TIMEOUT`].
    pub header_read_timeout: Duration,
    /// See [`MAX_HEADER_BYTES`].
    pub max_header_bytes: usize,
    /// See [`SHUTDOWN_GRACE`].
    pub shutdown_grace: Duration,
    /// TLS handshakes in progress, from everyone.
    pub max_handshakes: usize,
    /// TLS handshakes in progress from one client address.
    pub max_handshakes_per_address: usize,
    /// Connections (handshakes and public ones) from one client address.
    pub max_per_address: usize,
    /// Connections that are not an enrolled kiosk's, in all.
    pub max_public: usize,
    /// Connections of one enrolled kiosk.
    pub max_per_kiosk: usize,
    /// Connections let in past the public's room, for staff only.
    pub max_staff_room: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::for_open_files(DEFAULT_OPEN_FILES)
    }
}

/// The open-file limit [`Limits::default`] is sized for.
pub const DEFAULT_OPEN_FILES: u64 = 1024;

/// File descriptors kept for everything but connections: the ledger and
/// its WAL, the log, certificates read at start, the runtime.
pub const RESERVED_FILES: u64 = 64;

/// The most public connections, whatever the open-file limit: past it,
/// memory (TLS buffers, ~50 kB a connection) runs out before descriptors.
pub const MAX_PUBLIC_CONNECTIONS: usize = 12_000;

impl Limits {
    /// Caps that fit a process allowed `open_files` descriptors: after
    /// [`RESERVED_FILES`], a quarter for kiosks, an eighth for handshakes,
    /// the rest (at most [`MAX_PUBLIC_CONNECTIONS`]) for the public; one
    /// address may hold at most 64 (or half the public's room).
    pub fn for_open_files(open_files: u64) -> Limits {
        let room = usize::try_from(open_files.saturating_sub(RESERVED_FILES)).unwrap_or(usize::MAX).max(16);
        let handshakes = (room / 8).clamp(4, 1024);
        let public = (room - room / 4 - handshakes).clamp(4, MAX_PUBLIC_CONNECTIONS);
        Limits {
            handshake_timeout: HANDSHAKE_TIMEOUT,
            header_read_timeout: HEADER_READ_TIMEOUT,
            max_header_bytes: MAX_HEADER_BYTES,
            shutdown_grace: SHUTDOWN_GRACE,
            max_handshakes: handshakes,
            max_handshakes_per_address: (handshakes / 8).max(2),
            max_per_address: (public / 2).clamp(2, 64),
            max_public: public,
            max_per_kiosk: 8,
            max_staff_room: 16,
        }
    }
}

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
    limits: Limits,
    counts: std::sync::Mutex<Counts>,
    /// When each cap last said so in the log (milliseconds since start).
    last_warned: [std::sync::atomic::AtomicU64; 4],
    started: std::time::Instant,
}

/// Open connections by pool (see [`Limits`]).
#[derive(Default)]
struct Counts {
    handshakes: usize,
    public: usize,
    staff_room: usize,
    /// Handshakes and public connections, by client address.
    by_address: HashMap<IpAddr, usize>,
    /// Handshakes alone, by client address.
    handshakes_by_address: HashMap<IpAddr, usize>,
    /// Connections by kiosk id.
    by_kiosk: HashMap<Arc<str>, usize>,
}

/// Which cap refused a connection.
#[derive(Clone, Copy)]
enum Cap {
    Handshakes = 0,
    PerAddress = 1,
    Public = 2,
    PerKiosk = 3,
}

impl Shared {
    fn counts(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Logs that `cap` refused `peer`, once a second at most per cap.
    fn refused(&self, cap: Cap, peer: SocketAddr) {
        let now = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let last = &self.last_warned[cap as usize];
        let before = last.load(std::sync::atomic::Ordering::Relaxed);
        if before != 0 && now.saturating_sub(before) < 1000 {
            return;
        }
        last.store(now.max(1), std::sync::atomic::Ordering::Relaxed);
        let limits = &self.limits;
        let (limit, what_es, what_en) = match cap {
            Cap::Handshakes => {
                (limits.max_handshakes, "conexiones en saludo TLS", "TLS handshakes in progress")
            }
            Cap::PerAddress => (
                limits.max_per_address,
                "conexiones desde una misma dirección",
                "connections from one address",
            ),
            Cap::Public => {
                (limits.max_public, "conexiones del público y del personal", "public and staff connections")
            }
            Cap::PerKiosk => {
                (limits.max_per_kiosk, "conexiones de un mismo quiosco", "connections of one kiosk")
            }
        };
        tracing::warn!(
            peer.addr = %peer,
            limit,
            "se rechazan conexiones: se alcanzó el máximo de {limit} {what_es}; los quioscos inscritos conservan su lugar / refusing connections: the limit of {limit} {what_en} was reached; enrolled kiosks keep their room"
        );
    }

    /// Takes a handshake slot for `peer`, or says which cap refused it.
    fn admit_handshake(&self, peer: IpAddr) -> Result<(), Cap> {
        let mut counts = self.counts();
        if counts.handshakes >= self.limits.max_handshakes {
            return Err(Cap::Handshakes);
        }
        if counts
            .handshakes_by_address
            .get(&peer)
            .is_some_and(|n| *n >= self.limits.max_handshakes_per_address)
        {
            return Err(Cap::Handshakes);
        }
        let from_peer = counts.by_address.entry(peer).or_insert(0);
        if *from_peer >= self.limits.max_per_address {
            return Err(Cap::PerAddress);
        }
        *from_peer += 1;
        *counts.handshakes_by_address.entry(peer).or_insert(0) += 1;
        counts.handshakes += 1;
        Ok(())
    }

    /// Moves a connection whose handshake is done from the handshake pool
    /// to its own: the kiosk's (it leaves its address's count) or the
    /// public's. On refusal the connection holds nothing.
    fn admit_connection(&self, peer: IpAddr, kiosk: Option<&Arc<str>>) -> Result<Slot, Cap> {
        let mut counts = self.counts();
        counts.handshakes -= 1;
        Counts::release_address(&mut counts.handshakes_by_address, peer);
        match kiosk {
            Some(kiosk) => {
                Counts::release_address(&mut counts.by_address, peer);
                let held = counts.by_kiosk.entry(Arc::clone(kiosk)).or_insert(0);
                if *held >= self.limits.max_per_kiosk {
                    return Err(Cap::PerKiosk);
                }
                *held += 1;
                Ok(Slot::Kiosk(Arc::clone(kiosk)))
            }
            None if counts.public >= self.limits.max_public => {
                if counts.staff_room < self.limits.max_staff_room {
                    counts.staff_room += 1;
                    return Ok(Slot::StaffRoom(peer));
                }
                Counts::release_address(&mut counts.by_address, peer);
                Err(Cap::Public)
            }
            None => {
                counts.public += 1;
                Ok(Slot::Public(peer))
            }
        }
    }

    /// Gives back what a connection held.
    fn release(&self, slot: Slot) {
        let mut counts = self.counts();
        match slot {
            Slot::Handshake(peer) => {
                counts.handshakes -= 1;
                Counts::release_address(&mut counts.handshakes_by_address, peer);
                Counts::release_address(&mut counts.by_address, peer);
            }
            Slot::Public(peer) => {
                counts.public -= 1;
                Counts::release_address(&mut counts.by_address, peer);
            }
            Slot::StaffRoom(peer) => {
                counts.staff_room -= 1;
                Counts::release_address(&mut counts.by_address, peer);
            }
            Slot::Kiosk(kiosk) => {
                if let Some(held) = counts.by_kiosk.get_mut(&kiosk) {
                    *held -= 1;
                    if *held == 0 {
                        counts.by_kiosk.remove(&kiosk);
                    }
                }
            }
        }
    }
}

impl Counts {
    fn release_address(by_address: &mut HashMap<IpAddr, usize>, peer: IpAddr) {
        if let Some(held) = by_address.get_mut(&peer) {
            *held -= 1;
            if *held == 0 {
                by_address.remove(&peer);
            }
        }
    }
}

/// What an open connection holds.
enum Slot {
    Handshake(IpAddr),
    Public(IpAddr),
    StaffRoom(IpAddr),
    Kiosk(Arc<str>),
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
    let shared = Arc::new(Shared {
        acceptor: TlsAcceptor::from(tls),
        app,
        kiosks,
        http,
        limits,
        counts: std::sync::Mutex::new(Counts::default()),
        last_warned: Default::default(),
        started: std::time::Instant::now(),
    });
    let (stop_sender, stop) = watch::channel(false);
    let mut connections = JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        tokio::select! {
            biased;
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((tcp, peer)) => match shared.admit_handshake(peer.ip()) {
                    Ok(()) => {
                        connections.spawn(connection(tcp, peer, shared.clone(), stop.clone()));
                    }
                    Err(cap) => {
                        // Closed at once: the descriptor is free again.
                        drop(tcp);
                        shared.refused(cap, peer);
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
async fn connection(tcp: TcpStream, peer: SocketAddr, shared: Arc<Shared>, stop: watch::Receiver<bool>) {
    let mut held = Held { shared: Arc::clone(&shared), slot: Some(Slot::Handshake(peer.ip())) };
    handshake_and_serve(tcp, peer, &shared, stop, &mut held).await;
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
            self.shared.release(slot);
        }
    }
}

/// [`connection`] until it ends; `held` says what it holds meanwhile.
async fn handshake_and_serve(
    tcp: TcpStream,
    peer: SocketAddr,
    shared: &Arc<Shared>,
    stop: watch::Receiver<bool>,
    held: &mut Held,
) {
    // Small JSON answers: send them now rather than wait for more to send.
    let _ = tcp.set_nodelay(true);
    let handshake = tokio::select! {
        biased;
        () = stopped(stop.clone()) => return,
        handshake = tokio::time::timeout(shared.limits.handshake_timeout, shared.acceptor.accept(tcp)) => handshake,
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
    held.slot = None;
    let slot = match shared.admit_connection(peer.ip(), live_kiosk) {
        Ok(slot) => slot,
        Err(cap) => {
            shared.refused(cap, peer);
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
