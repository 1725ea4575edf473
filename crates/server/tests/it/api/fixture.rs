//! What the API tests share: a meeting directory served in process (the
//! router called with `oneshot`, no socket), requests as each kind of
//! caller, and the desk's and the kiosk's halves of a badge and a ballot,
//! made with `asamblea_wire` as the desk and the kiosk make them (the
//! server's tests link neither the kiosk nor the command line).

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use asamblea_api::desk::{BadgeIssued, BadgeRequest, CheckinAnswer, CheckinRequest, HoldersFound};
use asamblea_api::kiosk::BallotRequest;
use asamblea_server::tls::ClientCert;
use asamblea_server::{router, AppState};
use asamblea_venue::lock::MeetingLock;
use asamblea_venue::service::{NewMeeting, Service};
use asamblea_venue::staff::{Accounts, Role};
use asamblea_wire::{
    Ballot, Credential, CredentialId, Event, EventBody, HolderVote, Id, MeetingId, Nonce, PublicKey,
};
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// The demo meeting `asamblea demo` and `asamblea init` use by default
/// (the same file the command line embeds).
pub const DEMO_MEETING: &str = include_str!("../../../../../config/demo/meeting.toml");
/// The demo's register: 300 holders, both classes.
pub const DEMO_REGISTER: &str = include_str!("../../../../../config/demo/register.csv");
/// A small extraordinary meeting on one merger (which gives the derecho de
/// retiro).
pub const MERGER_MEETING: &str = include_str!("../../fixtures/merger/meeting.toml");
/// The register of [`MERGER_MEETING`]: A-1 (500), B-2 (300), C-3 (200).
pub const MERGER_REGISTER: &str = include_str!("../../fixtures/merger/register.csv");

/// The ordinary shares of the demo that vote (its quorum's base).
const DEMO_VOTING_SHARES: u64 = 98_000_000;

/// A meeting directory made from a meeting and a register, served in
/// process, with its staff tokens.
pub struct Api {
    pub dir: PathBuf,
    pub state: AppState,
    pub tokens: HashMap<Role, String>,
    pub meeting: MeetingId,
}

impl Api {
    pub fn new(name: &str, meeting: &str, register: &str) -> Api {
        let clock = Box::new(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64
        });
        Api::with_clock(name, meeting, register, clock)
    }

    /// [`Api::new`] whose ledger reads the time from `clock`.
    pub fn with_clock(name: &str, meeting: &str, register: &str, clock: asamblea_ledger::Clock) -> Api {
        Api::made(name, (meeting, register), clock, &[])
    }

    /// The demo meeting convened for the replicated `nodes` (`init
    /// --nodes`), served here as the first of them; which node serves
    /// where is for the test to say (`AppState::set_nodes`).
    pub fn replicated(name: &str, nodes: &[&str]) -> Api {
        let clock = Box::new(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64
        });
        Api::made(name, (DEMO_MEETING, DEMO_REGISTER), clock, nodes)
    }

    fn made(
        name: &str,
        (meeting, register): (&str, &str),
        clock: asamblea_ledger::Clock,
        nodes: &[&str],
    ) -> Api {
        let dir = std::env::temp_dir().join(format!("asamblea-api-{name}-{}", std::process::id()));
        remove_meeting(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let lock = MeetingLock::acquire_fresh_or_explain(&dir).expect("lock");
        let nodes: Vec<String> = nodes.iter().map(|n| n.to_string()).collect();
        let new = NewMeeting::check("meeting.toml", meeting, "register.csv", register.as_bytes(), |_| {})
            .expect("valid")
            .with_nodes(&nodes)
            .expect("nodes");
        let mut service = Service::init_with_clock(&dir, lock, new, clock).expect("init");
        let tokens = service.take_tokens().into_iter().map(|(_, role, token)| (role, token)).collect();
        let meeting = service.meeting_id();
        let accounts = Accounts::load(&dir).expect("accounts");
        let kiosks = asamblea_pki::KioskRegistry::load(&dir).expect("kiosks");
        let state = AppState::new(service, accounts, kiosks).expect("state");
        Api { dir, state, tokens, meeting }
    }

    /// The demo meeting.
    pub fn demo(name: &str) -> Api {
        Api::new(name, DEMO_MEETING, DEMO_REGISTER)
    }

    /// Sends a request as `caller` (`public`, a role code, or `kiosk`).
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        caller: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        match body {
            Some(body) => {
                self.call_raw(method, path, caller, Some("application/json"), body.to_string()).await
            }
            None => self.call_raw(method, path, caller, None, String::new()).await,
        }
    }

    /// A request with exactly this body and content type (if any).
    pub async fn call_raw(
        &self,
        method: Method,
        path: &str,
        caller: &str,
        content_type: Option<&str>,
        body: String,
    ) -> (StatusCode, Value) {
        let mut request = Request::builder().method(method).uri(path);
        if let Some(role) = Role::ALL.into_iter().find(|r| r.code() == caller) {
            request = request.header("authorization", format!("Bearer {}", self.tokens[&role]));
        }
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        let mut request = request.body(Body::from(body)).expect("request");
        if caller == "kiosk" {
            request.extensions_mut().insert(ClientCert { kiosk_id: "quiosco-prueba".into() });
        }
        let response = router(self.state.clone()).oneshot(request).await.expect("infallible");
        let status = response.status();
        let bytes = response.into_body().collect().await.expect("body").to_bytes();
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        (status, value)
    }

    /// A successful request's answer (anything else fails the test).
    pub async fn ok(&self, method: Method, path: &str, caller: &str, body: Option<Value>) -> Value {
        let (status, value) = self.call(method.clone(), path, caller, body).await;
        assert!(status.is_success(), "{method} {path} as {caller}: {status} {value}");
        value
    }

    /// [`Api::ok`] read as the `asamblea-api` type it answers with.
    pub async fn ok_as<T: serde::de::DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        caller: &str,
        body: Option<Value>,
    ) -> T {
        let value = self.ok(method.clone(), path, caller, body).await;
        serde_json::from_value(value.clone())
            .unwrap_or_else(|e| panic!("{method} {path}: not a {}: {e}: {value}", std::any::type_name::<T>()))
    }

    /// The desk checks `holder` in, in person.
    pub async fn check_in(&self, holder: &str) -> CheckinAnswer {
        let request = CheckinRequest { holder: Some(holder.to_string()), ..CheckinRequest::default() };
        self.ok_as(Method::POST, "/api/v1/checkins", "operator", Some(to_value(&request))).await
    }

    /// The desk's search of the register (`GET /api/v1/holders?q=`).
    pub async fn holders(&self, query: &str) -> HoldersFound {
        self.ok_as(Method::GET, &format!("/api/v1/holders?q={query}"), "operator", None).await
    }

    /// The chair installs the meeting (a quorum checked in first).
    pub async fn install(&self) {
        self.ok(Method::POST, "/api/v1/meeting/install", "chair", Some(serde_json::json!({}))).await;
    }

    /// Checks in the demo's largest holders until more than half the
    /// ordinary shares are present (NIT-800100200, the largest, first).
    pub async fn check_in_a_quorum(&self) {
        let mut rows: Vec<(String, u64)> = DEMO_REGISTER
            .lines()
            .skip(1)
            .filter_map(|l| {
                let fields: Vec<&str> = l.rsplitn(5, ',').collect();
                (fields[3] == "ORD")
                    .then(|| (l.split(',').next().unwrap().to_string(), fields[2].parse().unwrap()))
            })
            .collect();
        rows.sort_by_key(|row| std::cmp::Reverse(row.1));
        let mut present = 0;
        for (holder, shares) in rows {
            self.check_in(&holder).await;
            present += shares;
            if 2 * present > DEMO_VOTING_SHARES {
                break;
            }
        }
        // The fold above read the register right: the daemon says so too.
        let status = self.ok(Method::GET, "/api/v1/status", "public", None).await;
        assert_eq!(status["quorum"]["present_shares"], present, "{status}");
    }

    /// A page of the public board: its status and HTML, `form` posted as
    /// `application/x-www-form-urlencoded`.
    pub async fn page(&self, method: Method, path: &str, form: Option<&str>) -> (StatusCode, String) {
        let mut request = Request::builder().method(method).uri(path);
        if form.is_some() {
            request = request.header("content-type", "application/x-www-form-urlencoded");
        }
        let request = request.body(Body::from(form.unwrap_or("").to_string())).expect("request");
        let response = router(self.state.clone()).oneshot(request).await.expect("infallible");
        let status = response.status();
        let bytes = response.into_body().collect().await.expect("body").to_bytes();
        (status, String::from_utf8(bytes.to_vec()).expect("UTF-8 HTML"))
    }

    /// `GET path` as a staff member: its status and body as text.
    pub async fn text_as(&self, path: &str, role: Role) -> (StatusCode, String) {
        let (status, bytes) = self.bytes_as(path, role).await;
        (status, String::from_utf8(bytes).expect("UTF-8"))
    }

    /// `GET path` as a staff member: the whole response.
    async fn get_as(&self, path: &str, role: Role) -> axum::response::Response {
        let request = Request::builder()
            .uri(path)
            .header("authorization", format!("Bearer {}", self.tokens[&role]))
            .body(Body::empty())
            .expect("request");
        router(self.state.clone()).oneshot(request).await.expect("infallible")
    }

    /// The name `GET path` tells a browser to save its answer as
    /// (`Content-Disposition`), as a staff member.
    pub async fn saved_as(&self, path: &str, role: Role) -> Option<String> {
        let response = self.get_as(path, role).await;
        let disposition = response.headers().get("content-disposition")?.to_str().ok()?.to_string();
        disposition.split_once("filename=\"").map(|(_, name)| name.trim_end_matches('"').to_string())
    }

    /// `GET path` as a staff member: its status and body.
    pub async fn bytes_as(&self, path: &str, role: Role) -> (StatusCode, Vec<u8>) {
        let response = self.get_as(path, role).await;
        let status = response.status();
        (status, response.into_body().collect().await.expect("body").to_bytes().to_vec())
    }

    /// A badge for a present person, as the kiosk will hold it.
    pub async fn badge(&self, person: &str) -> Credential {
        let seed = BadgeSeed::draw(&self.meeting);
        let issued = self.ok(Method::POST, "/api/v1/badges", "operator", Some(seed.request(person))).await;
        seed.credential(&issued)
    }

    /// What a kiosk sends: a ballot signed with the badge's key (as
    /// `asamblea_kiosk::SignedBallot::sign` makes it).
    pub fn ballot(&self, credential: &Credential, item: &str, mut votes: Vec<HolderVote>) -> Value {
        votes.sort_by(|a, b| a.holder.cmp(&b.holder));
        let event = Event {
            nonce: Nonce(asamblea_venue::secrets::random()),
            body: EventBody::Ballot(Ballot {
                item: Id::new(item).unwrap(),
                credential: credential.id(),
                votes,
            }),
        };
        let bytes = event.encode().expect("encodes");
        let signature = credential.keypair().sign(&self.meeting, &bytes).expect("signs");
        to_value(&BallotRequest {
            event: hex(&bytes),
            signer: hex(&credential.public_key().to_bytes()),
            signature: hex(&signature.0),
        })
    }
}

impl Drop for Api {
    fn drop(&mut self) {
        remove_meeting(&self.dir);
    }
}

/// The desk's half of a badge (as `asamblea_kiosk::BadgeSeed` draws it): a
/// seed drawn here, only its public key sent to the daemon, and the
/// credential numbered by the daemon's answer.
pub struct BadgeSeed {
    /// The seed, numbered 0 until the daemon gives the badge its number.
    unnumbered: Credential,
}

impl BadgeSeed {
    /// A fresh seed for a badge of `meeting`.
    pub fn draw(meeting: &MeetingId) -> BadgeSeed {
        let seed: [u8; 32] = asamblea_venue::secrets::random();
        BadgeSeed { unnumbered: Credential::generate_from(meeting, CredentialId(0), &seed) }
    }

    /// The public key the daemon records.
    pub fn public_key(&self) -> PublicKey {
        self.unnumbered.public_key()
    }

    /// The body of `POST /api/v1/badges` for `person`.
    pub fn request(&self, person: &str) -> Value {
        to_value(&BadgeRequest { person: person.to_string(), key: self.public_key().to_string() })
    }

    /// The credential to print, from the daemon's answer to
    /// [`BadgeSeed::request`], which must name this seed's key.
    pub fn credential(&self, answer: &Value) -> Credential {
        let issued: BadgeIssued = serde_json::from_value(answer.clone())
            .unwrap_or_else(|e| panic!("the daemon's badge answer is not a badge: {e}: {answer}"));
        assert_eq!(issued.key, self.public_key().to_string(), "the answer names another key: {answer}");
        self.unnumbered.renumbered(CredentialId(issued.credential))
    }
}

/// A browser's request: the session cookie (if any), the CSRF header (if
/// any), a JSON or form body; its status, headers and body text.
pub async fn browser(
    api: &Api,
    method: Method,
    path: &str,
    cookie: Option<&str>,
    csrf: Option<&str>,
    body: Option<(&str, String)>,
) -> (StatusCode, HeaderMap, String) {
    let mut request = Request::builder().method(method).uri(path).header("host", "urna.local:8443");
    if let Some(cookie) = cookie {
        request = request.header("cookie", format!("otra=1; asamblea_personal={cookie}"));
    }
    if let Some(csrf) = csrf {
        request = request.header("x-asamblea-csrf", csrf);
    }
    let body = match body {
        Some((content_type, body)) => {
            request = request.header("content-type", content_type);
            Body::from(body)
        }
        None => Body::empty(),
    };
    let response = router(api.state.clone()).oneshot(request.body(body).unwrap()).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8_lossy(&bytes).into_owned())
}

/// Signs `role` in through the form (its answer kept by no browser); the
/// session cookie and the page's CSRF token.
pub async fn sign_in(api: &Api, role: Role) -> (String, String) {
    let form = format!("clave={}", api.tokens[&role]);
    let (status, headers, _) = browser(
        api,
        Method::POST,
        "/personal/entrar",
        None,
        None,
        Some(("application/x-www-form-urlencoded", form)),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    // The answer that carries the cookie is kept by no browser.
    assert_eq!(headers.get("cache-control").and_then(|v| v.to_str().ok()), Some("no-store"));
    let set = headers["set-cookie"].to_str().unwrap().to_string();
    for flag in ["Secure", "HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(set.contains(flag), "{set}");
    }
    let cookie = set.split(';').next().unwrap().trim_start_matches("asamblea_personal=").to_string();
    let (status, _, page) = browser(api, Method::GET, "/personal", Some(&cookie), None, None).await;
    assert_eq!(status, StatusCode::OK);
    let csrf =
        page.split(r#"<meta name="csrf" content=""#).nth(1).unwrap().split('"').next().unwrap().to_string();
    (cookie, csrf)
}

/// An `asamblea-api` request as the JSON sent.
fn to_value(request: &impl serde::Serialize) -> Value {
    serde_json::to_value(request).expect("a request serializes")
}

/// Keys, digests and signed bytes as the API writes them.
pub fn hex(bytes: &[u8]) -> String {
    asamblea_wire::hex::encode(bytes)
}

/// Removes a test's meeting directory and its key folder (outside it, see
/// `asamblea_venue::secrets::key_folder`), so a test run leaves no keys
/// behind.
fn remove_meeting(dir: &Path) {
    if let Ok(keys) = asamblea_venue::secrets::key_folder_of(dir) {
        let _ = std::fs::remove_dir_all(keys);
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Says loudly that a test needing a tool from outside (poppler's
/// `pdftotext`) did not run, and leaves the mark `scripts/test` reports at
/// the end (the command line's browser tests leave theirs in the same
/// file); fails in CI, where it must run.
pub fn not_run(test: &str, why: &str) {
    assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "CI must run this test: {why} (see .ci/run)");
    eprintln!("\n**** PRUEBA NO EJECUTADA / TEST NOT RUN: {test}: {why} ****\n");
    let marks = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-tests-not-run");
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(marks)
        .and_then(|mut f| writeln!(f, "{test}: {why}"));
}
