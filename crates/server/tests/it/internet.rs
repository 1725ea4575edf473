//! The internet listener (`asamblea serve --public-listen`): the public's
//! routes alone, with the company's certificate, on a connection pool of
//! its own — so that nothing a staff member or a kiosk uses is reachable
//! from outside, and a flood from outside never takes their room.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use asamblea_pki::{client_config, create_venue_pki, public_server_config};
use asamblea_server::tls::Limits;
use asamblea_server::{internet_router, internet_table, route_table, Daemon, Internet, ServiceLimits};
use asamblea_venue::lock::MeetingLock;
use asamblea_venue::service::{NewMeeting, Service};
use asamblea_venue::staff::{Accounts, Role};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use tokio::io::AsyncWriteExt;
use tower::ServiceExt;

use super::api::fixture::{DEMO_MEETING, DEMO_REGISTER};
use super::tls::{connect, get_on, read_response, temp, venue_ca, PATIENCE};

/// A meeting created in `dir` (the demo's), with its venue PKI for
/// `localhost`; its service and the staff's tokens by role.
fn meeting(dir: &Path) -> (Service, Accounts, HashMap<Role, String>) {
    std::fs::create_dir_all(dir).expect("dir");
    let lock = MeetingLock::acquire_fresh_or_explain(dir).expect("lock");
    let new =
        NewMeeting::check("meeting.toml", DEMO_MEETING, "register.csv", DEMO_REGISTER.as_bytes(), |_| {})
            .expect("valid");
    let mut service = Service::init(dir, lock, new).expect("init");
    let tokens = service.take_tokens().into_iter().map(|(_, role, token)| (role, token)).collect();
    create_venue_pki(dir, &["localhost".to_string()]).expect("venue PKI");
    let accounts = Accounts::load(dir).expect("accounts");
    (service, accounts, tokens)
}

/// A path of the route table with its parameters filled in.
fn concrete(path: &str) -> String {
    path.split('/')
        .map(|part| if part.starts_with('{') { "item-1" } else { part })
        .collect::<Vec<_>>()
        .join("/")
}

#[tokio::test]
async fn only_the_publics_routes_are_on_the_internet_listener_whatever_the_credential() {
    let dir = temp("internet-routes");
    let (service, accounts, tokens) = meeting(&dir);
    let kiosks = asamblea_pki::KioskRegistry::load(&dir).expect("kiosks");
    let state = asamblea_server::AppState::new(service, accounts, kiosks).expect("state");

    // What is reachable from outside, written out: the board and its
    // assets, the projector's view, the counted ballots, the receipt's
    // check, the live status and results, the API's document, and the
    // remote attendee's page and routes (authenticated by their key's
    // signature). Not the nodes' addresses (the venue's own network; the
    // board's script that asks for them is, and finds none). Nothing of the consoles, the desk, the chair, the
    // secretary or the kiosks.
    let mut outside: Vec<String> =
        internet_table().iter().map(|r| format!("{} {}", r.method, r.path)).collect();
    outside.sort();
    assert_eq!(
        outside,
        [
            "GET /",
            "GET /api/v1/feed",
            "GET /api/v1/openapi.json",
            "GET /api/v1/receipts/{digest}",
            "GET /api/v1/remote/registrations/{key}",
            "GET /api/v1/remote/sheet/{key}",
            "GET /api/v1/results/{item}",
            "GET /api/v1/results/{item}/ballots",
            "GET /api/v1/status",
            "GET /assets/board.css",
            "GET /assets/board.js",
            "GET /assets/nodes.js",
            "GET /assets/reading.js",
            "GET /assets/remote.js",
            "GET /assets/words.js",
            "GET /papeletas",
            "GET /proyeccion",
            "GET /recibo",
            "GET /remoto",
            "POST /api/v1/receipts/check",
            "POST /api/v1/remote/ballots",
            "POST /api/v1/remote/heartbeat",
            "POST /api/v1/remote/presence",
            "POST /api/v1/remote/registrations",
            "POST /api/v1/remote/submissions",
            "POST /recibo",
        ]
    );
    assert!(internet_table().iter().all(|r| r.callers == ["public"]), "{:?}", internet_table());

    // Every other route of the daemon is an unknown path there, with the
    // strongest credential each could carry: the staff's token for every
    // role, and a kiosk's certificate as the venue's listener would mark it.
    let inside: Vec<_> = route_table()
        .into_iter()
        .filter(|r| !internet_table().iter().any(|o| o.method == r.method && o.path == r.path))
        .collect();
    assert!(inside.len() > 30, "the daemon's other routes: {}", inside.len());
    for route in &inside {
        for role in Role::ALL {
            let mut request = Request::builder()
                .method(route.method)
                .uri(concrete(&route.path))
                .header("authorization", format!("Bearer {}", tokens[&role]))
                .header("content-type", "application/json")
                .body(Body::from("{}"))
                .expect("request");
            request
                .extensions_mut()
                .insert(asamblea_server::tls::ClientCert { kiosk_id: "quiosco-1".into() });
            let response = internet_router(state.clone()).oneshot(request).await.expect("infallible");
            let status = response.status();
            let body = response.into_body().collect().await.expect("body").to_bytes();
            let body = String::from_utf8_lossy(&body);
            assert_eq!(
                (status, body.contains("la ruta")),
                (StatusCode::NOT_FOUND, true),
                "{} {} as {role:?} on the internet listener: {body}",
                route.method,
                route.path
            );
        }
    }
    // And the public's own routes answer there as on the venue's.
    for path in ["/api/v1/status", "/", "/recibo", "/api/v1/openapi.json"] {
        let request = Request::builder().uri(path).body(Body::empty()).expect("request");
        let response = internet_router(state.clone()).oneshot(request).await.expect("infallible");
        assert_eq!(response.status(), StatusCode::OK, "{path}");
    }
    state.close();
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_company_certificate_serves_the_public_outside_and_a_flood_there_leaves_the_venue_its_room() {
    let dir = temp("internet-serve");
    let (service, accounts, tokens) = meeting(&dir);
    // The company's certificate, from an authority that is not the venue's
    // (here another CA made the same way; in a real meeting a public one).
    let company = temp("internet-company");
    create_venue_pki(&company, &["localhost".to_string()]).expect("the company's certificate");
    let public_tls = public_server_config(&company.join("tls/server.crt"), &company.join("tls/server.key"))
        .expect("the company's certificate and key");

    let daemon = Daemon::assemble(service, accounts, ServiceLimits::default()).expect("daemon");
    let state = daemon.state.clone();
    let venue = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let outside = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let (venue_addr, outside_addr) = (venue.local_addr().unwrap(), outside.local_addr().unwrap());
    // Outside: room for four handshakes in all, each held a minute, so the
    // flood below fills it for the whole test whatever the machine's speed.
    let outside_limits = Limits {
        handshake_timeout: Duration::from_secs(60),
        max_handshakes: 4,
        max_handshakes_per_address: 4,
        max_per_address: 4,
        ..Limits::default()
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(daemon.serve_both(
        venue,
        Limits::default(),
        Some(Internet { listener: outside, tls: public_tls, limits: outside_limits }),
        async {
            let _ = stopped.await;
        },
    ));

    // Someone outside, trusting the public authority (not the venue CA),
    // sees the meeting and is told the consoles are not there.
    let public_client = client_config(&venue_ca(&company), None).expect("client");
    let mut stream = connect(outside_addr, public_client.clone()).await.expect("the public address");
    let (status, body) = get_on(&mut stream, "/api/v1/status").await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = get_on(&mut stream, "/personal").await;
    assert_eq!(status, 404, "the staff's sign-in is not outside: {body}");
    drop(stream);
    // The venue's certificate is not the company's: a client that trusts
    // only the public authority cannot take the venue's listener for it.
    assert!(
        connect(venue_addr, public_client).await.is_err(),
        "the venue's listener shows the venue's certificate"
    );

    // A flood of silent connections fills the outside listener's room...
    let mut silent = Vec::new();
    for _ in 0..8 {
        silent.push(tokio::net::TcpStream::connect(outside_addr).await.expect("tcp"));
    }
    // ...and a staff member in the venue, from the same address, is served
    // at once: the pools are not shared.
    let venue_client = client_config(&venue_ca(&dir), None).expect("client");
    let answer = tokio::time::timeout(PATIENCE, async {
        let mut stream = connect(venue_addr, venue_client).await?;
        let token = &tokens[&Role::Operator];
        stream
            .write_all(
                format!(
                    "GET /api/v1/holders?q=CC HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {token}\r\n\r\n"
                )
                .as_bytes(),
            )
            .await?;
        read_response(&mut stream).await
    })
    .await
    .expect("the venue's listener answers while the outside one is full")
    .expect("answered");
    assert_eq!(answer.0, 200, "{}", answer.1);

    drop(silent);
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(30), server)
        .await
        .expect("both listeners stop")
        .expect("task")
        .expect("served");
    state.close();
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&company);
}
