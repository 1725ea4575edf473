//! The venue PKI (`asamblea_pki`) and the HTTPS serving layer
//! (`asamblea_server::tls`), over real
//! sockets on 127.0.0.1 with a real rustls client and HTTP/1.1 written by
//! hand: who gets the kiosk role, who is refused, and graceful shutdown.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use asamblea_pki::{
    client_config, create_venue_pki, enroll_kiosk, revoke_kiosk, server_config, KioskRegistry,
};
use asamblea_server::tls::{serve_with_limits, ClientCert, Limits};
use axum::extract::ConnectInfo;
use axum::routing::get;
use axum::{Extension, Router};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{oneshot, Notify, Semaphore};
use tokio::task::JoinHandle;
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

/// Long enough for a loaded CI machine, short next to the daemon's timeouts.
pub(super) const PATIENCE: Duration = Duration::from_secs(5);

pub(super) fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("asamblea-tls-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The router under test: who the serving layer says the client is, the
/// peer's address, and a slow route that says when it has started and runs
/// its 300 ms only once the test opens the gate (so "in flight" does not
/// depend on the machine's speed).
fn app(slow: Arc<SlowRoute>) -> Router {
    Router::new()
        .route(
            "/whoami",
            get(|cert: Option<Extension<ClientCert>>| async move {
                match cert {
                    Some(Extension(ClientCert { kiosk_id })) => format!("kiosk {kiosk_id}"),
                    None => "anonymous".to_string(),
                }
            }),
        )
        .route("/peer", get(|ConnectInfo(peer): ConnectInfo<SocketAddr>| async move { peer.to_string() }))
        .route(
            "/slow",
            get(move || async move {
                slow.started.notify_one();
                let _open = slow.gate.acquire().await.expect("the gate is never closed");
                tokio::time::sleep(Duration::from_millis(300)).await;
                "slow done"
            }),
        )
        .route("/forever", get(std::future::pending::<&'static str>))
}

/// The `/slow` route's handles.
struct SlowRoute {
    /// Notified when a `/slow` request reaches its handler.
    started: Notify,
    /// Lets `/slow` requests proceed, one per permit.
    gate: Semaphore,
}

/// A daemon serving [`app`] on a fresh venue PKI.
struct Venue {
    dir: PathBuf,
    addr: SocketAddr,
    ca_pem: String,
    kiosks: KioskRegistry,
    slow: Arc<SlowRoute>,
    stop: Option<oneshot::Sender<()>>,
    server: JoinHandle<anyhow::Result<()>>,
}

impl Venue {
    async fn start(name: &str) -> Venue {
        let dir = temp(name);
        create_venue_pki(&dir, &["urna.local".to_string()]).expect("venue PKI");
        Venue::serve(dir).await
    }

    async fn serve(dir: PathBuf) -> Venue {
        Venue::serve_with(dir, Limits::default()).await
    }

    async fn serve_with(dir: PathBuf, limits: Limits) -> Venue {
        let tls = server_config(&dir).expect("server config");
        let kiosks = KioskRegistry::load(&dir).expect("kiosk registry");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let slow = Arc::new(SlowRoute { started: Notify::new(), gate: Semaphore::new(0) });
        let server = tokio::spawn(serve_with_limits(
            listener,
            tls,
            app(slow.clone()),
            kiosks.clone(),
            async move {
                let _ = stopped.await;
            },
            limits,
        ));
        let ca_pem = venue_ca(&dir);
        Venue { dir, addr, ca_pem, kiosks, slow, stop: Some(stop), server }
    }

    fn client(&self, credentials: Option<&asamblea_pki::KioskCredentials>) -> rustls::ClientConfig {
        client_config(&self.ca_pem, credentials.map(|c| (c.cert_pem.as_str(), c.key_pem.as_str())))
            .expect("client config")
    }

    async fn connect(&self, config: rustls::ClientConfig) -> std::io::Result<TlsStream<TcpStream>> {
        connect(self.addr, config).await
    }

    /// Asks for shutdown and waits for `serve` to return.
    async fn stop(mut self) {
        self.stop.take().unwrap().send(()).unwrap();
        let served = tokio::time::timeout(PATIENCE, &mut self.server).await.expect("serve returns");
        served.expect("serve does not panic").expect("serve returns Ok");
        std::fs::remove_dir_all(&self.dir).unwrap();
    }
}

pub(super) async fn connect(
    addr: SocketAddr,
    config: rustls::ClientConfig,
) -> std::io::Result<TlsStream<TcpStream>> {
    let tcp = TcpStream::connect(addr).await?;
    TlsConnector::from(Arc::new(config)).connect(ServerName::try_from("localhost").unwrap(), tcp).await
}

/// Writes a GET request (keep-alive) for `path`.
pub(super) async fn send_get(stream: &mut (impl AsyncWrite + Unpin), path: &str) -> std::io::Result<()> {
    stream.write_all(format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n").as_bytes()).await?;
    stream.flush().await
}

/// Reads one response with a `content-length`: its status and body.
pub(super) async fn read_response(stream: &mut (impl AsyncRead + Unpin)) -> std::io::Result<(u16, String)> {
    let mut buffer = Vec::new();
    let head_end = loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break end + 4;
        }
        let mut chunk = [0u8; 4096];
        let read = stream.read(&mut chunk).await?;
        if read == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                format!("closed after {:?}", String::from_utf8_lossy(&buffer)),
            ));
        }
        buffer.extend_from_slice(&chunk[..read]);
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).to_string();
    let status: u16 = head
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP/1.1 response: {head:?}"));
    let length: usize = head
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("content-length").then(|| value.trim().parse().ok())?
        })
        .unwrap_or_else(|| panic!("no content-length: {head:?}"));
    let mut body = buffer[head_end..].to_vec();
    while body.len() < length {
        let mut chunk = vec![0u8; length - body.len()];
        let read = stream.read(&mut chunk).await?;
        if read == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        body.extend_from_slice(&chunk[..read]);
    }
    Ok((status, String::from_utf8(body).expect("UTF-8 body")))
}

pub(super) async fn get_on(stream: &mut (impl AsyncRead + AsyncWrite + Unpin), path: &str) -> (u16, String) {
    tokio::time::timeout(PATIENCE, async {
        send_get(stream, path).await?;
        read_response(stream).await
    })
    .await
    .expect("answered in time")
    .expect("answered")
}

/// Whether a client gets any HTTP response at all: `Ok(false)` when the
/// connection fails, is refused or is closed without one.
async fn gets_an_http_response(addr: SocketAddr, config: rustls::ClientConfig) -> bool {
    let attempt = tokio::time::timeout(PATIENCE, async {
        let mut stream = connect(addr, config).await?;
        send_get(&mut stream, "/whoami").await?;
        read_response(&mut stream).await
    })
    .await
    .expect("the daemon decides in time");
    attempt.is_ok()
}

#[tokio::test]
async fn a_client_without_a_certificate_is_served_anonymously() {
    let venue = Venue::start("anonymous").await;
    let mut stream = venue.connect(venue.client(None)).await.expect("handshake");
    assert_eq!(stream.get_ref().1.alpn_protocol(), Some(&b"http/1.1"[..]));
    assert_eq!(get_on(&mut stream, "/whoami").await, (200, "anonymous".to_string()));
    // Keep-alive: the same connection serves another request, and the
    // handler sees the peer's address.
    let local = stream.get_ref().0.local_addr().unwrap();
    assert_eq!(get_on(&mut stream, "/peer").await, (200, local.to_string()));
    drop(stream);
    venue.stop().await;
}

#[tokio::test]
async fn an_enrolled_kiosk_is_served_as_that_kiosk_over_tls_1_3_and_1_2() {
    let venue = Venue::start("kiosk").await;
    let credentials = enroll_kiosk(&venue.dir, "kiosk-07").expect("enrol");
    let mut stream = venue.connect(venue.client(Some(&credentials))).await.expect("handshake");
    assert_eq!(stream.get_ref().1.protocol_version(), Some(rustls::ProtocolVersion::TLSv1_3));
    assert_eq!(get_on(&mut stream, "/whoami").await, (200, "kiosk kiosk-07".to_string()));
    assert_eq!(get_on(&mut stream, "/whoami").await, (200, "kiosk kiosk-07".to_string()));

    // TLS 1.2 carries the client certificate in a different place in the
    // handshake: the kiosk is recognised there too.
    let other = enroll_kiosk(&venue.dir, "K2").expect("enrol");
    let tls12 = {
        let mut roots = rustls::RootCertStore::empty();
        for cert in CertificateDer::pem_slice_iter(venue.ca_pem.as_bytes()) {
            roots.add(cert.unwrap()).unwrap();
        }
        let chain = vec![CertificateDer::from_pem_slice(other.cert_pem.as_bytes()).unwrap()];
        let key = PrivateKeyDer::from_pem_slice(other.key_pem.as_bytes()).unwrap();
        rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_protocol_versions(&[&rustls::version::TLS12])
            .unwrap()
            .with_root_certificates(roots)
            .with_client_auth_cert(chain, key)
            .unwrap()
    };
    let mut stream = venue.connect(tls12).await.expect("TLS 1.2 handshake");
    assert_eq!(stream.get_ref().1.protocol_version(), Some(rustls::ProtocolVersion::TLSv1_2));
    assert_eq!(get_on(&mut stream, "/whoami").await, (200, "kiosk K2".to_string()));
    venue.stop().await;
}

#[tokio::test]
async fn a_kiosk_enrolled_by_its_request_keeps_its_key_and_is_served_as_itself() {
    let venue = Venue::start("request").await;
    // On the kiosk: its key and the request; only the request travels.
    let (key_pem, request_pem) = asamblea_pki::kiosk_request("K9").expect("a request");
    assert!(request_pem.starts_with("-----BEGIN CERTIFICATE REQUEST-----"), "{request_pem}");
    // At the desk: refused for another id, or altered on its way.
    let err = asamblea_pki::sign_kiosk_request(&venue.dir, "K8", &request_pem).unwrap_err();
    assert!(err.to_string().contains("is for kiosk «K9», not K8"), "{err}");
    let mut altered: Vec<char> = request_pem.chars().collect();
    let at = request_pem.len() / 2;
    altered[at] = if altered[at] == 'A' { 'B' } else { 'A' };
    let altered: String = altered.into_iter().collect();
    let err = asamblea_pki::sign_kiosk_request(&venue.dir, "K9", &altered).unwrap_err();
    assert!(err.to_string().contains("not a valid certificate request"), "{err}");
    assert!(!venue.dir.join("tls/kiosks/K9.crt").exists(), "nothing written for a refused request");
    // Signed: the certificate is written, and no key beside it.
    let signed = asamblea_pki::sign_kiosk_request(&venue.dir, "K9", &request_pem).expect("signed");
    assert!(venue.dir.join("tls/kiosks/K9.crt").exists() && !venue.dir.join("tls/kiosks/K9.key").exists());
    assert!(asamblea_pki::sign_kiosk_request(&venue.dir, "K9", &request_pem).is_err(), "enrolled once");
    let kiosk = asamblea_pki::KioskCredentials { key_pem, ..signed };
    let mut stream =
        venue.connect(venue.client(Some(&kiosk))).await.expect("handshake with the kiosk's own key");
    assert_eq!(get_on(&mut stream, "/whoami").await, (200, "kiosk K9".to_string()));
    venue.stop().await;
}

#[tokio::test]
async fn a_certificate_from_another_ca_is_refused() {
    let venue = Venue::start("foreign").await;
    let elsewhere = temp("foreign-other-venue");
    create_venue_pki(&elsewhere, &[]).expect("another venue");
    let foreign = enroll_kiosk(&elsewhere, "kiosk-07").expect("enrol elsewhere");
    assert!(!gets_an_http_response(venue.addr, venue.client(Some(&foreign))).await);
    // The same daemon still serves its own clients.
    let own = enroll_kiosk(&venue.dir, "kiosk-07").expect("enrol here");
    assert!(gets_an_http_response(venue.addr, venue.client(Some(&own))).await);
    std::fs::remove_dir_all(&elsewhere).unwrap();
    venue.stop().await;
}

#[tokio::test]
async fn a_revoked_kiosk_loses_the_kiosk_role_even_on_an_open_connection() {
    let venue = Venue::start("revoked").await;
    let credentials = enroll_kiosk(&venue.dir, "kiosk-1").expect("enrol");
    let mut stream = venue.connect(venue.client(Some(&credentials))).await.expect("handshake");
    assert_eq!(get_on(&mut stream, "/whoami").await, (200, "kiosk kiosk-1".to_string()));

    venue.kiosks.revoke("kiosk-1").expect("revoke");
    assert_eq!(get_on(&mut stream, "/whoami").await, (200, "anonymous".to_string()));
    let mut fresh = venue.connect(venue.client(Some(&credentials))).await.expect("handshake");
    assert_eq!(get_on(&mut fresh, "/whoami").await, (200, "anonymous".to_string()));

    // Revoked by another process (the CLI): effective after a reload.
    let second = enroll_kiosk(&venue.dir, "kiosk-2").expect("enrol");
    let mut stream = venue.connect(venue.client(Some(&second))).await.expect("handshake");
    revoke_kiosk(&venue.dir, "kiosk-2").expect("revoke in the file");
    assert_eq!(get_on(&mut stream, "/whoami").await, (200, "kiosk kiosk-2".to_string()));
    venue.kiosks.reload().expect("reload");
    assert_eq!(get_on(&mut stream, "/whoami").await, (200, "anonymous".to_string()));

    // A daemon started later reads the revocations from the file.
    let restarted = KioskRegistry::load(&venue.dir).unwrap();
    assert!(restarted.is_revoked("kiosk-1") && restarted.is_revoked("kiosk-2"));
    assert!(!restarted.is_revoked("kiosk-3"));
    venue.stop().await;
}

#[tokio::test]
async fn plain_http_gets_no_http_response_and_is_closed_promptly() {
    let venue = Venue::start("plain").await;
    let started = Instant::now();
    let mut tcp = TcpStream::connect(venue.addr).await.expect("connect");
    tcp.write_all(b"GET /whoami HTTP/1.1\r\nHost: localhost\r\n\r\n").await.expect("write");
    let mut received = Vec::new();
    let ended = tokio::time::timeout(Duration::from_secs(2), tcp.read_to_end(&mut received)).await;
    let elapsed = started.elapsed();
    assert!(ended.is_ok(), "the connection was still open after {elapsed:?}");
    assert!(!received.starts_with(b"HTTP/"), "an HTTP response: {:?}", String::from_utf8_lossy(&received));
    // If anything came back, it is a TLS alert record (content type 21).
    assert!(received.is_empty() || received[0] == 21, "{received:?}");
    venue.stop().await;
}

#[tokio::test]
async fn shutdown_finishes_the_request_in_flight_and_refuses_new_connections() {
    let mut venue = Venue::start("shutdown").await;
    let mut in_flight = venue.connect(venue.client(None)).await.expect("handshake");
    let mut idle = venue.connect(venue.client(None)).await.expect("handshake");
    assert_eq!(get_on(&mut idle, "/whoami").await.0, 200);

    send_get(&mut in_flight, "/slow").await.unwrap();
    tokio::time::timeout(PATIENCE, venue.slow.started.notified()).await.expect("/slow starts");
    let asked = Instant::now();
    venue.stop.take().unwrap().send(()).unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;

    // While /slow is still running, the port already refuses connections.
    let refused = TcpStream::connect(venue.addr).await;
    assert!(refused.is_err(), "a new connection was accepted during shutdown");
    assert!(!venue.server.is_finished(), "serve returned with a request in flight");

    // The idle keep-alive connection is closed rather than kept.
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(2), idle.read_to_end(&mut rest)).await;
    assert!(closed.is_ok(), "the idle connection stayed open");

    venue.slow.gate.add_permits(1);

    let answer = tokio::time::timeout(PATIENCE, read_response(&mut in_flight)).await.expect("in time");
    assert_eq!(answer.expect("the request in flight is answered"), (200, "slow done".to_string()));
    tokio::time::timeout(PATIENCE, &mut venue.server)
        .await
        .expect("serve returns after the last request")
        .unwrap()
        .unwrap();
    assert!(asked.elapsed() < Duration::from_secs(3), "shutdown took {:?}", asked.elapsed());
    std::fs::remove_dir_all(&venue.dir).unwrap();
}

#[tokio::test]
async fn silent_clients_do_not_hold_up_others() {
    let venue = Venue::start("silent").await;
    // One connects and says nothing; another completes TLS and sends no
    // request; a third is served meanwhile.
    let _silent_tcp = TcpStream::connect(venue.addr).await.expect("connect");
    let _silent_tls = venue.connect(venue.client(None)).await.expect("handshake");
    let started = Instant::now();
    let mut stream = venue.connect(venue.client(None)).await.expect("handshake");
    assert_eq!(get_on(&mut stream, "/whoami").await, (200, "anonymous".to_string()));
    assert!(started.elapsed() < Duration::from_secs(2), "served after {:?}", started.elapsed());
    venue.stop().await;
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn the_pki_files_keys_are_private_and_nothing_is_overwritten() {
    let dir = temp("files");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("meeting-id"), format!("{}\n", "ab".repeat(32))).unwrap();
    create_venue_pki(&dir, &["urna.local".into(), "10.0.0.5".into()]).expect("venue PKI");
    for key in ["tls/ca.key", "tls/server.key"] {
        assert_eq!(mode(&dir.join(key)), 0o600, "{key}");
    }
    let again = create_venue_pki(&dir, &[]).expect_err("a second CA").to_string();
    assert!(again.contains("already has a venue PKI"), "{again}");

    let credentials = enroll_kiosk(&dir, "kiosk-1").expect("enrol");
    assert_eq!(mode(&dir.join("tls/kiosks/kiosk-1.key")), 0o600);
    assert_eq!(std::fs::read_to_string(dir.join("tls/kiosks/kiosk-1.crt")).unwrap(), credentials.cert_pem);
    assert!(!format!("{credentials:?}").contains("PRIVATE KEY"), "Debug shows the key");

    let twice = enroll_kiosk(&dir, "kiosk-1").expect_err("enrolled twice").to_string();
    assert!(twice.contains("already enrolled"), "{twice}");
    let bad = enroll_kiosk(&dir, "../etc").expect_err("bad id").to_string();
    assert!(bad.contains("kiosk id"), "{bad}");
    let unknown = revoke_kiosk(&dir, "kiosk-9").expect_err("never enrolled").to_string();
    assert!(unknown.contains("no kiosk kiosk-9"), "{unknown}");

    revoke_kiosk(&dir, "kiosk-1").unwrap();
    revoke_kiosk(&dir, "kiosk-1").unwrap();
    assert_eq!(std::fs::read_to_string(dir.join("tls/revoked-kiosks")).unwrap(), "kiosk-1\n");
    let revoked = enroll_kiosk(&dir, "kiosk-1").expect_err("a revoked id").to_string();
    assert!(revoked.contains("was revoked"), "{revoked}");

    // A damaged revocation list stops the daemon rather than forgetting one.
    std::fs::write(dir.join("tls/revoked-kiosks"), "kiosk-1\nno such id!\n").unwrap();
    let damaged = format!("{:#}", KioskRegistry::load(&dir).expect_err("damaged list"));
    assert!(damaged.contains("line 2"), "{damaged}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn the_ca_names_the_meeting_and_the_daemon_certificate_its_hosts() {
    let dir = temp("names");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("meeting-id"), format!("{}\n", "0123456789abcdef".repeat(4))).unwrap();
    create_venue_pki(&dir, &["urna.local".into()]).expect("venue PKI");
    let ca = CertificateDer::from_pem_slice(venue_ca(&dir).as_bytes()).unwrap();
    let name = b"asamblea venue CA 0123456789abcdef";
    assert!(ca.windows(name.len()).any(|w| w == name), "the CA's name is not in its certificate");

    let venue = Venue::serve(dir).await;
    for (host, covered) in [
        ("urna.local", true),
        ("localhost", true),
        ("127.0.0.1", true),
        ("::1", true),
        ("other.local", false),
    ] {
        let handshake = tokio::time::timeout(PATIENCE, async {
            let tcp = TcpStream::connect(venue.addr).await?;
            TlsConnector::from(Arc::new(venue.client(None)))
                .connect(ServerName::try_from(host.to_string()).unwrap(), tcp)
                .await
        })
        .await
        .expect("in time");
        assert_eq!(handshake.is_ok(), covered, "{host}: {:?}", handshake.err());
    }
    venue.stop().await;
}

pub(super) fn venue_ca(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("tls/ca.crt")).unwrap()
}

/// Limits short enough to watch them act.
fn short() -> Limits {
    Limits {
        handshake_timeout: Duration::from_millis(300),
        header_read_timeout: Duration::from_millis(300),
        max_header_bytes: 16 * 1024,
        shutdown_grace: Duration::from_millis(300),
        ..Limits::default()
    }
}

/// Reads until the peer closes; how long that took (an error counts as
/// closed). Panics if it stays open for `PATIENCE`.
async fn time_until_closed(stream: &mut (impl AsyncRead + Unpin)) -> Duration {
    let started = Instant::now();
    let mut sink = Vec::new();
    let _ = tokio::time::timeout(PATIENCE, stream.read_to_end(&mut sink)).await.expect("closed in time");
    started.elapsed()
}

#[tokio::test]
async fn a_client_that_never_finishes_the_handshake_or_a_request_is_cut_off() {
    let dir = temp("timeouts");
    create_venue_pki(&dir, &[]).unwrap();
    let venue = Venue::serve_with(dir, short()).await;

    let mut silent_tcp = TcpStream::connect(venue.addr).await.unwrap();
    let waited = time_until_closed(&mut silent_tcp).await;
    assert!(waited >= Duration::from_millis(250), "closed before the handshake timeout: {waited:?}");

    // Connected over TLS, then silent: the header read timeout closes it;
    // the same holds for an idle keep-alive connection after a request.
    let mut silent_tls = venue.connect(venue.client(None)).await.unwrap();
    let waited = time_until_closed(&mut silent_tls).await;
    assert!(waited >= Duration::from_millis(250), "closed before the header timeout: {waited:?}");
    let mut idle = venue.connect(venue.client(None)).await.unwrap();
    assert_eq!(get_on(&mut idle, "/whoami").await.0, 200);
    time_until_closed(&mut idle).await;
    venue.stop().await;
}

#[tokio::test]
async fn oversized_headers_are_refused_with_431() {
    let venue = Venue::start("headers").await;
    let padded = |size: usize| {
        format!("GET /whoami HTTP/1.1\r\nHost: localhost\r\nX-Padding: {}\r\n\r\n", "a".repeat(size))
    };
    let mut stream = venue.connect(venue.client(None)).await.unwrap();
    stream.write_all(padded(20_000).as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(PATIENCE, stream.read_to_end(&mut answer)).await.expect("in time");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer:?}");
    // Just under the limit is served.
    let mut stream = venue.connect(venue.client(None)).await.unwrap();
    stream.write_all(padded(15_000).as_bytes()).await.unwrap();
    let answer = tokio::time::timeout(PATIENCE, read_response(&mut stream)).await.expect("in time");
    assert_eq!(answer.expect("answered"), (200, "anonymous".to_string()));
    venue.stop().await;
}

#[tokio::test]
async fn a_request_that_outlives_the_grace_period_is_dropped_and_serve_returns() {
    let dir = temp("grace");
    create_venue_pki(&dir, &[]).unwrap();
    let mut venue = Venue::serve_with(dir, short()).await;
    let mut forever = venue.connect(venue.client(None)).await.unwrap();
    send_get(&mut forever, "/forever").await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let asked = Instant::now();
    venue.stop.take().unwrap().send(()).unwrap();
    tokio::time::timeout(PATIENCE, &mut venue.server).await.expect("serve returns").unwrap().unwrap();
    let took = asked.elapsed();
    assert!(took >= Duration::from_millis(250), "serve did not wait for the request in flight: {took:?}");
    time_until_closed(&mut forever).await;
    std::fs::remove_dir_all(&venue.dir).unwrap();
}
