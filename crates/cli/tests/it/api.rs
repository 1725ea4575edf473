//! The HTTP API in process (the router called with `oneshot`, no socket):
//! who is let in where, a whole meeting driven through the API against the
//! same meeting run as a scenario, the OpenAPI document, and bad input.

use std::collections::HashMap;
use std::path::PathBuf;

use asamblea_rules::OptionIndex;
use asamblea_server::tls::ClientCert;
use asamblea_server::{route_table, router, AppState};
use asamblea_venue::lock::MeetingLock;
use asamblea_venue::service::{NewMeeting, Service};
use asamblea_venue::staff::{Accounts, Role};
use asamblea_wire::{
    Ballot, Choice, Credential, Event, EventBody, HolderVote, Id, MeetingId, Nonce, SplitPart,
};
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// A meeting directory made from a meeting and a register, served in
/// process, with its staff tokens.
struct Api {
    dir: PathBuf,
    state: AppState,
    tokens: HashMap<Role, String>,
    meeting: MeetingId,
}

impl Api {
    fn new(name: &str, meeting: &str, register: &str) -> Api {
        let dir = std::env::temp_dir().join(format!("asamblea-api-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let lock = MeetingLock::acquire_fresh_or_explain(&dir).expect("lock");
        let new = NewMeeting::check("meeting.toml", meeting, "register.csv", register.as_bytes(), |_| {})
            .expect("valid");
        let mut service = Service::init(&dir, lock, new).expect("init");
        let tokens = service.take_tokens().into_iter().map(|(_, role, token)| (role, token)).collect();
        let meeting = service.meeting_id();
        let accounts = Accounts::load(&dir).expect("accounts");
        let kiosks = asamblea_pki::KioskRegistry::load(&dir).expect("kiosks");
        let state = AppState::new(service, accounts, kiosks).expect("state");
        Api { dir, state, tokens, meeting }
    }

    fn demo(name: &str) -> Api {
        Api::new(name, asamblea::commands::DEMO_MEETING, asamblea::commands::DEMO_REGISTER)
    }

    /// Sends a request as `caller` (`public`, a role code, or `kiosk`).
    async fn call(
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
    async fn call_raw(
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

    /// Checks in the demo's largest holders until more than half the
    /// ordinary shares are present (NIT-800100200, the largest, first).
    async fn check_in_a_quorum(&self) {
        let mut rows: Vec<(String, u64)> = asamblea::commands::DEMO_REGISTER
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
            self.ok(Method::POST, "/api/v1/checkins", "operator", Some(json!({ "holder": holder }))).await;
            present += shares;
            if 2 * present > 98_000_000 {
                break;
            }
        }
    }

    /// A page of the public board: its status and HTML, `form` posted as
    /// `application/x-www-form-urlencoded`.
    async fn page(&self, method: Method, path: &str, form: Option<&str>) -> (StatusCode, String) {
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
    async fn text_as(&self, path: &str, role: Role) -> (StatusCode, String) {
        let (status, bytes) = self.bytes_as(path, role).await;
        (status, String::from_utf8(bytes).expect("UTF-8"))
    }

    async fn bytes_as(&self, path: &str, role: Role) -> (StatusCode, Vec<u8>) {
        let request = Request::builder()
            .uri(path)
            .header("authorization", format!("Bearer {}", self.tokens[&role]))
            .body(Body::empty())
            .expect("request");
        let response = router(self.state.clone()).oneshot(request).await.expect("infallible");
        let status = response.status();
        (status, response.into_body().collect().await.expect("body").to_bytes().to_vec())
    }

    async fn ok(&self, method: Method, path: &str, caller: &str, body: Option<Value>) -> Value {
        let (status, value) = self.call(method.clone(), path, caller, body).await;
        assert!(status.is_success(), "{method} {path} as {caller}: {status} {value}");
        value
    }

    /// A badge for a present person, as the kiosk will hold it.
    async fn badge(&self, person: &str) -> Credential {
        let seed = asamblea_kiosk::BadgeSeed::draw(&self.meeting).expect("a seed");
        let issued = self.ok(Method::POST, "/api/v1/badges", "operator", Some(seed.request(person))).await;
        seed.credential(&issued).expect("a credential")
    }

    /// What a kiosk sends: a ballot signed with the badge's key.
    fn ballot(&self, credential: &Credential, item: &str, mut votes: Vec<HolderVote>) -> Value {
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
        json!({ "event": hex(&bytes), "signer": hex(&credential.public_key().to_bytes()), "signature": hex(&signature.0) })
    }
}

impl Drop for Api {
    fn drop(&mut self) {
        crate::support::remove_meeting(&self.dir);
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

const CALLERS: [&str; 6] = ["public", "operator", "chair", "secretary", "auditor", "kiosk"];

#[tokio::test]
async fn every_route_lets_in_exactly_its_callers() {
    let api = Api::demo("roles");
    for route in route_table() {
        let (method, path, allowed) = (route.method, route.path, route.callers);
        let path = path
            .replace("{item}", "item-1")
            .replace("{digest}", &"00".repeat(32))
            .replace("{credential}", "1");
        let method = Method::from_bytes(method.as_bytes()).expect("method");
        for caller in CALLERS {
            let body = (method == Method::POST).then(|| json!({}));
            if path == "/api/v1/feed" {
                // A live stream never ends: read its head only.
                let response = router(api.state.clone())
                    .oneshot(Request::get(&path).body(Body::empty()).expect("request"))
                    .await
                    .expect("infallible");
                assert_eq!(response.status(), StatusCode::OK);
                assert_eq!(response.headers()["content-type"], "text/event-stream");
                continue;
            }
            let (status, value) = api.call(method.clone(), &path, caller, body).await;
            let let_in = allowed.contains(&"public") || allowed.contains(&caller);
            if let_in {
                assert!(
                    status != StatusCode::UNAUTHORIZED && status != StatusCode::FORBIDDEN,
                    "{method} {path}: {caller} must be let in, got {status} {value}"
                );
            } else {
                let expected = if allowed.contains(&"kiosk") {
                    "kiosk-certificate-required"
                } else if caller == "public" || caller == "kiosk" {
                    "unauthorized"
                } else {
                    "forbidden"
                };
                assert_eq!(value["error"]["code"], expected, "{method} {path} as {caller}: {status} {value}");
            }
        }
    }
}

#[tokio::test]
async fn the_openapi_document_describes_every_route() {
    let api = Api::demo("openapi");
    let doc = api.ok(Method::GET, "/api/v1/openapi.json", "public", None).await;
    for route in route_table()
        .into_iter()
        .filter(|r| r.path.starts_with("/api/v1/") && r.path != "/api/v1/openapi.json")
    {
        let (method, path) = (route.method, route.path.as_str());
        let operation = &doc["paths"][path][method.to_lowercase()];
        assert!(operation.is_object(), "{method} {path} is not in the OpenAPI document");
    }
    // What is served is the generated document, the one committed beside
    // the server (its own test compares the two).
    assert_eq!(doc, serde_json::from_str::<Value>(asamblea_server::openapi_json()).unwrap());
}

#[tokio::test]
async fn bad_requests_are_refused_with_a_code_and_change_nothing() {
    let api = Api::demo("bad");
    let before = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    let cases = [
        (json!({ "holder": "X", "agent": "Y" }), "bad-request"),
        (json!({ "holder": "CC-10000000", "colour": 1 }), "bad-request"),
        (json!({ "holder": "" }), "bad-request"),
        (json!({ "agent": "Y", "represents": ["CC-10000000", "CC-10000000"] }), "bad-request"),
        (json!({ "agent": "Y", "represents": ["CC-10000000"], "as": "friend" }), "bad-request"),
        (json!({ "holder": "NOBODY" }), "unknown-holder"),
    ];
    for (body, code) in cases {
        let (status, value) =
            api.call(Method::POST, "/api/v1/checkins", "operator", Some(body.clone())).await;
        assert_eq!(value["error"]["code"], code, "{body}: {status} {value}");
        assert!(value["error"]["message"].as_str().is_some_and(|m| !m.is_empty()));
        assert!(value["error"]["message_en"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let huge = json!({ "person": "x".repeat(100_000) });
    let (status, value) = api.call(Method::POST, "/api/v1/badges", "operator", Some(huge)).await;
    assert_eq!(
        (status, value["error"]["code"].clone()),
        (StatusCode::PAYLOAD_TOO_LARGE, json!("payload-too-large"))
    );
    let huge = json!({ "event": "0".repeat(100_000), "signer": "00", "signature": "00" });
    let (status, value) = api.call(Method::POST, "/api/v1/ballots", "kiosk", Some(huge)).await;
    assert_eq!(
        (status, value["error"]["code"].clone()),
        (StatusCode::PAYLOAD_TOO_LARGE, json!("payload-too-large"))
    );
    for body in [
        json!({ "event": "zz", "signer": "00", "signature": "00" }),
        json!({ "event": "0b01", "signer": "00", "signature": "00" }),
    ] {
        let (status, value) = api.call(Method::POST, "/api/v1/ballots", "kiosk", Some(body)).await;
        assert_eq!(
            (status, value["error"]["code"].clone()),
            (StatusCode::BAD_REQUEST, json!("bad-request")),
            "{value}"
        );
    }
    let (status, _) = api.call(Method::GET, "/api/v1/nothing-here", "public", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        api.ok(Method::GET, "/api/v1/status", "public", None).await,
        before,
        "refusals changed the meeting"
    );
}

#[tokio::test]
async fn ballots_get_receipts_only_once_and_only_for_their_meeting() {
    let api = Api::demo("ballots");
    api.check_in_a_quorum().await;
    api.ok(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    let credential = api.badge("NIT-800100200").await;
    let vote = |option| HolderVote {
        holder: Id::new("NIT-800100200").unwrap(),
        choice: Choice::Whole(OptionIndex::list(option)),
    };
    let ballot = api.ballot(&credential, "item-1", vec![vote(0)]);
    let first = api.ok(Method::POST, "/api/v1/ballots", "kiosk", Some(ballot.clone())).await;
    let again = api.ok(Method::POST, "/api/v1/ballots", "kiosk", Some(ballot.clone())).await;
    assert_eq!(first, again, "the same ballot gets the same receipt");
    // The voter's receipt, checked against the durable ledger with the
    // check `verify --receipts` makes; a forged one is refused, saying why.
    let checked = api.ok(Method::POST, "/api/v1/receipts/check", "public", Some(first.clone())).await;
    assert_eq!(checked["valid"], true, "{checked}");
    let mut forged = first.clone();
    forged["receipt"]["event"] = json!("11".repeat(32));
    let (status, value) = api.call(Method::POST, "/api/v1/receipts/check", "public", Some(forged)).await;
    assert_eq!(
        (status, &value["error"]["code"]),
        (StatusCode::UNPROCESSABLE_ENTITY, &json!("receipt-not-signed"))
    );
    assert!(
        value["error"]["message_en"].as_str().unwrap().contains("not a receipt of this meeting"),
        "{value}"
    );
    // Signed by the daemon's key, but naming another event at that number
    // (what a ledger rewritten without the ballot would leave its voter
    // holding): the ledger does not bear it out.
    let keys = asamblea_venue::secrets::key_folder_of(&api.dir).unwrap();
    let daemon =
        asamblea_wire::Keypair::from_seed(&asamblea_venue::secrets::read_key(&keys, "daemon").unwrap());
    let (receipt, _) = asamblea_server::receipts::from_json(&first).unwrap();
    let other = asamblea_wire::Receipt { event: asamblea_wire::Digest([0x11; 32]), ..receipt };
    let signed = asamblea_server::receipts::to_json(&other, &other.sign(&api.meeting, &daemon));
    let (status, value) = api
        .call(Method::POST, "/api/v1/receipts/check", "public", Some(serde_json::from_str(&signed).unwrap()))
        .await;
    assert_eq!(
        (status, &value["error"]["code"]),
        (StatusCode::UNPROCESSABLE_ENTITY, &json!("ledger-rewritten"))
    );
    assert!(value["error"]["message"].as_str().unwrap().contains("avise al revisor fiscal"), "{value}");
    let mut garbled = first.clone();
    garbled["signature"] = json!("zz");
    let (status, _) = api.call(Method::POST, "/api/v1/receipts/check", "public", Some(garbled)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // The same ballot in other JSON spellings: an escaped digit, a charset.
    let text = ballot.to_string();
    let digit = ballot["signature"].as_str().unwrap().as_bytes()[0];
    let escaped = text.replacen("\"signature\":\"", &format!("\"signature\":\"\\u00{digit:02x}"), 1);
    let escaped =
        escaped.replacen(&format!("\\u00{digit:02x}{}", char::from(digit)), &format!("\\u00{digit:02x}"), 1);
    assert_ne!(escaped, text);
    for (content_type, body) in [
        ("application/json", escaped),
        ("application/json; charset=utf-8", text.clone()),
        ("Application/vnd.asamblea+JSON", text.clone()),
    ] {
        let (status, value) =
            api.call_raw(Method::POST, "/api/v1/ballots", "kiosk", Some(content_type), body).await;
        assert_eq!((status, &value), (StatusCode::OK, &first), "{content_type}");
    }
    // Not declared as JSON, or with a field too many: refused, naming why.
    for (content_type, body) in [
        (None, text.clone()),
        (Some("text/plain"), text.clone()),
        (Some("text/x+json"), text.clone()),
        (Some("application/json"), text.replacen('{', "{\"extra\":1,", 1)),
    ] {
        let (status, value) =
            api.call_raw(Method::POST, "/api/v1/ballots", "kiosk", content_type, body).await;
        assert_eq!((status, value["error"]["code"].clone()), (StatusCode::BAD_REQUEST, json!("bad-request")));
        assert!(value["error"]["message_en"].as_str().is_some_and(|m| m.len() > 20), "{value}");
    }
    let digest = first["receipt"]["event"].as_str().unwrap();
    assert_eq!(api.ok(Method::GET, &format!("/api/v1/receipts/{digest}"), "public", None).await, first);
    // A second, different ballot for the same holder is a second vote.
    let (status, value) = api
        .call(
            Method::POST,
            "/api/v1/ballots",
            "kiosk",
            Some(api.ballot(&credential, "item-1", vec![vote(1)])),
        )
        .await;
    assert_eq!(
        (status, value["error"]["code"].clone()),
        (StatusCode::UNPROCESSABLE_ENTITY, json!("already-voted"))
    );
    // A ballot for a holder the badge does not carry.
    let other =
        HolderVote { holder: Id::new("NIT-800200300").unwrap(), choice: Choice::Whole(OptionIndex::list(0)) };
    let (_, value) = api
        .call(Method::POST, "/api/v1/ballots", "kiosk", Some(api.ballot(&credential, "item-1", vec![other])))
        .await;
    assert_eq!(value["error"]["code"], "not-carried");
    // Signed for another meeting: the signature does not verify here.
    let foreign = Credential::generate_from(&MeetingId([9; 32]), credential.id(), &[3; 32]);
    let mut body = api.ballot(&foreign, "item-1", vec![vote(0)]);
    body["signer"] = json!(hex(&credential.public_key().to_bytes()));
    let (_, value) = api.call(Method::POST, "/api/v1/ballots", "kiosk", Some(body)).await;
    assert_eq!(value["error"]["code"], "bad-signature");
    // While open, the status shows turnout and no tally.
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    assert_eq!(status["items"][0]["state"], "open");
    assert_eq!(status["items"][0]["ballots"], 1);
    assert!(status["items"][0].get("result").is_none(), "no running tally while open: {status}");
}

/// Replays a FORMAT.md scenario through the API (check-ins, polls, signed
/// ballots, closes) and compares every step's verdict and every result
/// with the scenario runner's: the daemon and the runner share one engine,
/// and nothing on the way (events, signatures, ledger) changes a number.
#[tokio::test]
async fn a_meeting_driven_through_the_api_matches_the_same_meeting_as_a_scenario() {
    let text = std::fs::read_to_string(crate::workspace_root().join("config/demo-meeting.toml"))
        .expect("demo scenario");
    let scenario = asamblea::scenario::parse("config/demo-meeting.toml", &text).expect("valid");
    let expected = asamblea::scenario::outcome_json(&asamblea::scenario::replay(&scenario));

    // The same company as a meeting directory: capital, register, agenda.
    let capital = scenario.register.capital();
    let mut register = String::from("holder_id,name,class,shares,role,split\n");
    for (_, holder) in scenario.register.iter() {
        let role = holder.role().map_or("", |r| r.code());
        let split = holder.split().map_or("", |s| s.code());
        for (class, shares) in [("ORD", holder.holdings().ordinary), ("PREF", holder.holdings().preferred)] {
            if !shares.is_zero() {
                register.push_str(&format!(
                    "{},{},{class},{},{role},{split}\n",
                    holder.id(),
                    holder.id(),
                    shares.get()
                ));
            }
        }
    }
    let mut meeting = format!(
        "company = \"Demo\"\nnit = \"1\"\nkind = \"ordinary\"\ncall = \"first\"\ndate = \"2027-03-25\"\ntime = \"10:00\"\n\
         place = \"Bogotá\"\nconvened_by = \"aviso\"\nconvened_on = \"2027-03-01\"\nprofile = \"grupo-aval\"\n\
         [capital]\nORD = {{ subscribed = {}, treasury = {} }}\nPREF = {{ subscribed = {}, treasury = {} }}\n",
        capital.ordinary.subscribed().get(),
        capital.ordinary.treasury().get(),
        capital.preferred.subscribed().get(),
        capital.preferred.treasury().get()
    );
    let mut agenda: Vec<String> = Vec::new();
    for step in &scenario.steps {
        if let asamblea::scenario::Step::Open(spec) = step {
            if agenda.contains(&spec.id().to_string()) {
                continue;
            }
            agenda.push(spec.id().to_string());
            meeting.push_str(&format!(
                "[[agenda]]\nid = \"{}\"\ntitle = \"{}\"\nmatter = \"{}\"\nnoticed = {}\n",
                spec.id(),
                spec.id(),
                spec.matter().code(),
                spec.noticed()
            ));
            if let asamblea_rules::BallotOptions::Election { seats, lists } = spec.options() {
                let lists: Vec<String> = lists.iter().map(|l| format!("\"{l}\"")).collect();
                meeting.push_str(&format!("seats = {seats}\nlists = [{}]\n", lists.join(", ")));
            }
        }
    }
    let api = Api::new("scenario", &meeting, &register);

    // Who carries each holder, and their badges.
    let mut carrier: HashMap<String, String> = HashMap::new();
    let mut badges: HashMap<String, Credential> = HashMap::new();
    let mut verdicts = Vec::new();
    for step in &scenario.steps {
        use asamblea::scenario::{Step, VoteChoice};
        let (status, value) = match step {
            Step::ArriveInPerson(holder) => {
                let r = api
                    .call(Method::POST, "/api/v1/checkins", "operator", Some(json!({ "holder": holder })))
                    .await;
                if r.0.is_success() {
                    carrier.insert(holder.clone(), holder.clone());
                }
                r
            }
            Step::ArriveAsAgent { agent, represents, capacity, agent_role } => {
                let body = json!({ "agent": agent, "represents": represents, "as": capacity.code(), "agent_role": agent_role.map(|r| r.code()) });
                let body = if agent_role.is_none() {
                    json!({ "agent": agent, "represents": represents, "as": capacity.code() })
                } else {
                    body
                };
                let r = api.call(Method::POST, "/api/v1/checkins", "operator", Some(body)).await;
                if r.0.is_success() {
                    for holder in represents {
                        carrier.insert(holder.clone(), agent.clone());
                    }
                }
                r
            }
            Step::Leave(person) => {
                api.call(Method::POST, "/api/v1/checkouts", "operator", Some(json!({ "person": person })))
                    .await
            }
            Step::Open(spec) => {
                api.call(Method::POST, &format!("/api/v1/items/{}/open", spec.id()), "chair", None).await
            }
            Step::Close(item) => {
                api.call(Method::POST, &format!("/api/v1/items/{item}/close"), "chair", None).await
            }
            Step::Vote { item, holder, choice } => {
                let person = carrier.get(holder).cloned().expect("the scenario's voters are present");
                if !badges.contains_key(&person) {
                    let credential = api.badge(&person).await;
                    badges.insert(person.clone(), credential);
                }
                let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
                let open = status["items"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|i| i["id"] == item.as_str())
                    .unwrap()
                    .clone();
                let _ = open;
                let option = |name: &str| -> OptionIndex {
                    let decision = ["for", "against", "blank"];
                    let spec = scenario.steps.iter().find_map(|s| match s {
                        Step::Open(spec) if spec.id() == item => Some(spec.clone()),
                        _ => None,
                    });
                    match spec.as_ref().map(|s| s.options().clone()) {
                        Some(asamblea_rules::BallotOptions::Election { lists, .. }) => {
                            OptionIndex::list(lists.iter().position(|l| &**l == name).unwrap_or(lists.len()))
                        }
                        _ => OptionIndex::list(
                            decision.iter().position(|d| *d == name).expect("a decision option"),
                        ),
                    }
                };
                let choice = match choice {
                    VoteChoice::Whole(name) => Choice::Whole(option(name)),
                    VoteChoice::Split(parts) => {
                        let mut parts: Vec<SplitPart> =
                            parts.iter().map(|(n, s)| SplitPart { option: option(n), shares: *s }).collect();
                        parts.sort_by_key(|p| p.option);
                        Choice::Split(parts)
                    }
                };
                let ballot = api.ballot(
                    &badges[&person],
                    item,
                    vec![HolderVote { holder: Id::new(holder).unwrap(), choice }],
                );
                api.call(Method::POST, "/api/v1/ballots", "kiosk", Some(ballot)).await
            }
            Step::Draw { .. } => unreachable!("the demo scenario draws no lots"),
        };
        verdicts.push(if status.is_success() {
            json!({ "ok": true })
        } else {
            json!({ "ok": false, "error": value["error"]["code"] })
        });
    }
    assert_eq!(Value::Array(verdicts), expected["steps"], "step verdicts differ");
    for (item, result) in expected["items"].as_object().expect("items") {
        let got = api.ok(Method::GET, &format!("/api/v1/results/{item}"), "public", None).await;
        assert_eq!(&got, result, "{item}");
    }
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    assert_eq!(status["quorum"]["present_shares"], expected["presence"]["shares"]);
    assert_eq!(status["quorum"]["holders"], expected["presence"]["holders"]);
}

#[tokio::test]
async fn a_badge_is_issued_for_a_key_the_desk_drew_and_never_for_a_seed() {
    let api = Api::demo("badge-keys");
    api.ok(Method::POST, "/api/v1/checkins", "operator", Some(json!({ "holder": "CC-10000000" }))).await;
    let before = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    for (body, field) in [
        (json!({ "person": "CC-10000000" }), "key"),
        (json!({ "person": "CC-10000000", "key": "zz" }), "`key`"),
        (json!({ "person": "CC-10000000", "key": "00".repeat(32) }), "`key`"),
        (json!({ "person": "CC-10000000", "key": "ab".repeat(31) }), "`key`"),
    ] {
        let (status, value) = api.call(Method::POST, "/api/v1/badges", "operator", Some(body.clone())).await;
        assert_eq!(
            (status, &value["error"]["code"]),
            (StatusCode::BAD_REQUEST, &json!("bad-request")),
            "{body}"
        );
        assert!(value["error"]["message_en"].as_str().unwrap().contains(field), "{body}: {value}");
    }
    let seed = asamblea_kiosk::BadgeSeed::draw(&api.meeting).expect("a seed");
    let issued = api.ok(Method::POST, "/api/v1/badges", "operator", Some(seed.request("CC-10000000"))).await;
    assert_eq!(issued["key"], seed.public_key().to_string());
    assert!(issued.get("qr_text").is_none(), "no seed ever leaves the daemon: {issued}");
    let credential = seed.credential(&issued).expect("the desk builds its credential");
    let sheet =
        api.ok(Method::GET, &format!("/api/v1/kiosk/badges/{}", credential.id().0), "kiosk", None).await;
    assert_eq!(sheet["person"], "CC-10000000", "{sheet}");
    // The same request again (the desk lost the answer): the same badge,
    // not a second one.
    let (status, again) =
        api.call(Method::POST, "/api/v1/badges", "operator", Some(seed.request("CC-10000000"))).await;
    assert_eq!((status, &again["credential"]), (StatusCode::OK, &issued["credential"]), "{again}");
    // The same key for someone else is refused: a badge key is one badge's.
    api.ok(Method::POST, "/api/v1/checkins", "operator", Some(json!({ "holder": "CC-10007919" }))).await;
    let (status, value) =
        api.call(Method::POST, "/api/v1/badges", "operator", Some(seed.request("CC-10007919"))).await;
    assert_eq!(
        (status, &value["error"]["code"]),
        (StatusCode::CONFLICT, &json!("badge-key-in-use")),
        "{value}"
    );
    // And a second badge for CC-10000000 waits for the first's revocation.
    let other = asamblea_kiosk::BadgeSeed::draw(&api.meeting).expect("a seed");
    let (status, value) =
        api.call(Method::POST, "/api/v1/badges", "operator", Some(other.request("CC-10000000"))).await;
    assert_eq!((status, &value["error"]["code"]), (StatusCode::CONFLICT, &json!("badge-held")), "{value}");
    let mut after = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    after["head"] = before["head"].clone();
    after["quorum"] = before["quorum"].clone();
    assert_eq!(after, before, "a badge changes no public figure (but the quorum, by the check-in)");
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let api = Api::demo("headers");
    for path in ["/", "/assets/board.js", "/api/v1/status", "/api/v1/nothing-here"] {
        let request = Request::builder().uri(path).body(Body::empty()).unwrap();
        let response = router(api.state.clone()).oneshot(request).await.unwrap();
        let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
        assert!(header("content-security-policy").contains("default-src 'none'"), "{path}");
        assert!(header("content-security-policy").contains("frame-ancestors 'none'"), "{path}");
        assert!(!header("content-security-policy").contains("unsafe-inline"), "{path}");
        assert!(header("strict-transport-security").starts_with("max-age="), "{path}");
        assert_eq!(header("x-frame-options"), "DENY", "{path}");
        assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
    }
    // The board loads only what the daemon serves: no inline script or style.
    let request = Request::builder().uri("/").body(Body::empty()).unwrap();
    let page = router(api.state.clone()).oneshot(request).await.unwrap().into_body().collect().await.unwrap();
    let page = String::from_utf8(page.to_bytes().to_vec()).unwrap();
    assert!(page.contains(r#"<script src="/assets/board.js">"#) && !page.contains("<style"), "{page}");
}

#[tokio::test]
async fn wrong_staff_tokens_are_refused_for_a_while_after_ten() {
    let api = Api::demo("sign-in");
    let attempt = |token: String| {
        let request = Request::builder()
            .method(Method::POST)
            .uri("/api/v1/checkouts")
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", "application/json")
            .body(Body::from(r#"{"person":"CC-10000000"}"#))
            .unwrap();
        let app = router(api.state.clone());
        async move {
            let response = app.oneshot(request).await.unwrap();
            let status = response.status();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            (status, serde_json::from_slice::<Value>(&bytes).unwrap_or(Value::Null))
        }
    };
    for n in 1..=asamblea_server::SIGN_IN_FAILURES {
        let (status, answer) = attempt(format!("wrong-{n}")).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "attempt {n}: {answer}");
    }
    let (status, answer) = attempt("wrong-again".into()).await;
    assert_eq!(
        (status, answer["error"]["code"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("too-many-sign-ins"))
    );
    // Refused even with the right token, from that address, for a while.
    let (status, _) = attempt(api.tokens[&Role::Operator].clone()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn the_boards_receipt_page_checks_a_receipt_as_verify_does() {
    let api = Api::demo("receipt-page");
    api.check_in_a_quorum().await;
    let (status, page) = api.page(Method::GET, "/recibo", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains(r#"<form method="post" action="/recibo""#) && page.contains(r#"<label for="recibo">"#)
    );
    // Nothing pasted, and something that is no receipt: the error summary
    // links to the field, and what was pasted comes back escaped.
    let (status, page) = api.page(Method::POST, "/recibo", Some("recibo=")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("Hay un problema") && page.contains(r##"<a href="#recibo">"##), "{page}");
    let (status, page) = api.page(Method::POST, "/recibo", Some("recibo=%3Cb%3Ehola")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        page.contains("eso no es un recibo") && page.contains("&lt;b&gt;hola") && !page.contains("<b>hola")
    );

    // A real ballot's receipt, as its line of text: borne out.
    let opened = api.call(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    assert_eq!(opened.0, StatusCode::OK, "{}", opened.1);
    let credential = api.badge("NIT-800100200").await;
    let vote =
        HolderVote { holder: Id::new("NIT-800100200").unwrap(), choice: Choice::Whole(OptionIndex::FOR) };
    let answer = api
        .ok(Method::POST, "/api/v1/ballots", "kiosk", Some(api.ballot(&credential, "item-1", vec![vote])))
        .await;
    let (receipt, signature) = asamblea_server::receipts::from_json(&answer).expect("the API's own JSON");
    let line = receipt.to_text(&signature);
    let form = |text: &str| format!("recibo={}", text.replace(':', "%3A"));
    let (status, page) = api.page(Method::POST, "/recibo", Some(&form(&line))).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains("Su papeleta está en el registro") && page.contains(&format!("evento {}", receipt.seq))
    );
    // The same receipt with another event named: not the daemon's word.
    let mut forged = receipt;
    forged.event = asamblea_wire::Digest([0x11; 32]);
    let (status, page) = api.page(Method::POST, "/recibo", Some(&form(&forged.to_text(&signature)))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        page.contains("No es un recibo de esta reunión") && page.contains("carácter por carácter"),
        "{page}"
    );
}

/// A browser's request: the session cookie (if any), the CSRF header (if
/// any), a JSON or form body; its status, headers and body text.
async fn browser(
    api: &Api,
    method: Method,
    path: &str,
    cookie: Option<&str>,
    csrf: Option<&str>,
    body: Option<(&str, String)>,
) -> (StatusCode, axum::http::HeaderMap, String) {
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

/// Signs `role` in through the form; the session cookie and the page's
/// CSRF token.
async fn sign_in(api: &Api, role: Role) -> (String, String) {
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

#[tokio::test]
async fn a_staff_member_signs_in_once_and_the_cookie_acts_only_with_its_csrf_token() {
    let api = Api::demo("session");
    let token = api.tokens[&Role::Operator].clone();
    // The form: a wrong token is refused and opens nothing.
    let (status, headers, page) = browser(
        &api,
        Method::POST,
        "/personal/entrar",
        None,
        None,
        Some(("application/x-www-form-urlencoded", "clave=no-es-una-clave".into())),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(headers.get("set-cookie").is_none());
    assert!(page.contains("Esa clave no es de esta reunión") && !page.contains("no-es-una-clave"), "{page}");
    // A sign-in form posted from another site is refused.
    let request = Request::builder()
        .method(Method::POST)
        .uri("/personal/entrar")
        .header("host", "urna.local:8443")
        .header("origin", "https://evil.example")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(format!("clave={token}")))
        .unwrap();
    let response = router(api.state.clone()).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(response.headers().get("set-cookie").is_none());

    let (cookie, csrf) = sign_in(&api, Role::Operator).await;
    assert_ne!(cookie, token, "the cookie is not the token");
    // The console is the operator's; without a session, the sign-in page.
    let (status, _, page) = browser(&api, Method::GET, "/registro", Some(&cookie), None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains(&csrf) && !page.contains(&token),
        "the page holds the CSRF token, never the staff token"
    );
    let (status, headers, _) = browser(&api, Method::GET, "/registro", None, None, None).await;
    assert_eq!((status, headers["location"].to_str().unwrap()), (StatusCode::SEE_OTHER, "/personal"));

    // A change with the cookie but without its CSRF token changes nothing.
    let holder = "CC-10000000";
    let present = |api: &Api, cookie: String| {
        let app = router(api.state.clone());
        async move {
            let request = Request::get(format!("/api/v1/holders?q={holder}"))
                .header("cookie", format!("asamblea_personal={cookie}"))
                .body(Body::empty())
                .unwrap();
            let bytes = app.oneshot(request).await.unwrap().into_body().collect().await.unwrap().to_bytes();
            let found: Value = serde_json::from_slice(&bytes).unwrap();
            found["holders"][0]["present"].as_bool().unwrap()
        }
    };
    let checkin = Some(("application/json", json!({ "holder": holder }).to_string()));
    for wrong in [None, Some("0".repeat(64)), Some(csrf[..10].to_string())] {
        let (status, _, answer) =
            browser(&api, Method::POST, "/api/v1/checkins", Some(&cookie), wrong.as_deref(), checkin.clone())
                .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
        assert!(answer.contains(r#""code":"csrf""#), "{answer}");
        assert!(!present(&api, cookie.clone()).await, "refused: nothing changed");
    }
    let (status, _, answer) =
        browser(&api, Method::POST, "/api/v1/checkins", Some(&cookie), Some(&csrf), checkin.clone()).await;
    assert!(status.is_success(), "{status} {answer}");
    assert!(present(&api, cookie.clone()).await);

    // Signing out takes the CSRF token too; after it the cookie opens nothing.
    let (status, _, _) = browser(
        &api,
        Method::POST,
        "/personal/salir",
        Some(&cookie),
        None,
        Some(("application/x-www-form-urlencoded", "csrf=wrong".into())),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, headers, _) = browser(
        &api,
        Method::POST,
        "/personal/salir",
        Some(&cookie),
        None,
        Some(("application/x-www-form-urlencoded", format!("csrf={csrf}"))),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(headers["set-cookie"].to_str().unwrap().contains("Max-Age=0"));
    let (status, _, _) = browser(&api, Method::GET, "/api/v1/attendees", Some(&cookie), None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, headers, _) = browser(&api, Method::GET, "/registro", Some(&cookie), None, None).await;
    assert_eq!((status, headers["location"].to_str().unwrap()), (StatusCode::SEE_OTHER, "/personal"));
}

#[tokio::test]
async fn every_console_lets_in_exactly_its_role_and_every_api_route_takes_the_cookie_as_the_token() {
    let api = Api::demo("consoles");
    let consoles = [
        ("/registro", &["operator"][..]),
        ("/presidencia", &["chair"][..]),
        ("/secretaria", &["secretary", "auditor"][..]),
    ];
    for role in Role::ALL {
        let (cookie, csrf) = sign_in(&api, role).await;
        for (path, allowed) in consoles {
            let (status, _, page) = browser(&api, Method::GET, path, Some(&cookie), None, None).await;
            if allowed.contains(&role.code()) {
                assert_eq!(status, StatusCode::OK, "{path} as {}", role.code());
                assert!(
                    page.contains(r#"<script src="/assets/console.js" defer>"#) && !page.contains("<style")
                );
            } else {
                assert_eq!(status, StatusCode::FORBIDDEN, "{path} as {}", role.code());
                assert!(page.contains("Esta consola no es de su cargo"), "{page}");
            }
        }
        // The API lets the cookie in exactly where the role's token goes.
        for route in route_table() {
            let (method, path, allowed) = (route.method, route.path, route.callers);
            if !allowed.iter().any(|a| Role::ALL.iter().any(|r| r.code() == *a)) {
                continue;
            }
            let path = path.replace("{item}", "item-1").replace("{credential}", "1").replace("{kiosk}", "k");
            let method = Method::from_bytes(method.as_bytes()).unwrap();
            let body = (method == Method::POST).then(|| ("application/json", "{}".to_string()));
            let (status, _, answer) =
                browser(&api, method.clone(), &path, Some(&cookie), Some(&csrf), body).await;
            if allowed.contains(&role.code()) {
                assert!(
                    status != StatusCode::UNAUTHORIZED && status != StatusCode::FORBIDDEN,
                    "{method} {path}: {} with a cookie must be let in, got {status} {answer}",
                    role.code()
                );
            } else {
                assert_eq!(status, StatusCode::FORBIDDEN, "{method} {path} as {}: {answer}", role.code());
            }
        }
    }
}

#[tokio::test]
async fn the_desk_search_finds_by_id_start_or_any_part_of_the_name_accents_aside() {
    let api = Api::demo("search");
    let found = api.ok(Method::GET, "/api/v1/holders?q=", "operator", None).await;
    let all = found["matched"].as_u64().unwrap();
    assert!(all > 20 && found["holders"].as_array().unwrap().len() == 20, "{found}");
    let by_id = api.ok(Method::GET, "/api/v1/holders?q=cc-1000000", "operator", None).await;
    assert!(by_id["holders"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["id"].as_str().unwrap().starts_with("CC-1000000")));
    assert!(by_id["matched"].as_u64().unwrap() >= 1);
    // A name from the register, searched by a part of it without accents.
    let first = &found["holders"][0];
    let name = first["name"].as_str().unwrap().to_string();
    let word = name.split_whitespace().last().unwrap().to_lowercase();
    let plain: String = word
        .chars()
        .map(|c| match c {
            'á' => 'a',
            'é' => 'e',
            'í' => 'i',
            'ó' => 'o',
            'ú' => 'u',
            'ñ' => 'n',
            c => c,
        })
        .collect();
    let by_name = api.ok(Method::GET, &format!("/api/v1/holders?q={}", plain), "operator", None).await;
    assert!(
        by_name["holders"].as_array().unwrap().iter().any(|h| h["id"] == first["id"]),
        "{plain}: {by_name}"
    );
    let none = api.ok(Method::GET, "/api/v1/holders?q=zzzz-nadie", "operator", None).await;
    assert_eq!(none["matched"], 0);
    let (status, answer) =
        api.call(Method::GET, &format!("/api/v1/holders?q={}", "x".repeat(65)), "operator", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
}

#[tokio::test]
async fn the_desk_figures_count_arrivals_refusals_and_badges_as_the_ledger_records_them() {
    let api = Api::demo("desk");
    let desk = || api.ok(Method::GET, "/api/v1/desk", "operator", None);
    let before = desk().await;
    let absent = api.ok(Method::GET, "/api/v1/holders?q=cc-", "operator", None).await;
    let absent: Vec<(String, u64)> = absent["holders"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["present"] == false && h["shares"]["PREF"] == 0)
        .map(|h| (h["id"].as_str().unwrap().to_string(), h["shares"]["ORD"].as_u64().unwrap()))
        .collect();
    assert!(absent.len() >= 5, "five absent holders: {absent:?}");
    // One holder in person.
    api.ok(Method::POST, "/api/v1/checkins", "operator", Some(json!({ "holder": absent[0].0 }))).await;
    // An administrator as a proxy: refused by the rules, and the refusal recorded.
    let barred = json!({ "agent": "CC-77777777", "represents": [absent[1].0, absent[2].0], "as": "proxy", "agent_role": "administrator", "power_document": "P-1" });
    let (status, refused) = api.call(Method::POST, "/api/v1/checkins", "operator", Some(barred)).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("proxy-agent-barred"))
    );
    // A power the desk found wanting: recorded, nobody admitted.
    let wanting = json!({ "agent": "CC-66666666", "represents": [absent[3].0], "as": "proxy", "power_document": "sin firma", "power_rejected": true });
    let recorded = api.ok(Method::POST, "/api/v1/checkins", "operator", Some(wanting)).await;
    assert_eq!(recorded["refused"], "power-document-rejected");
    // `power_rejected` belongs to an agent's arrival only, and changes nothing else.
    let (status, _) = api
        .call(
            Method::POST,
            "/api/v1/checkins",
            "operator",
            Some(json!({ "holder": absent[4].0, "power_rejected": true })),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A proxy admitted for two holders.
    let proxy = json!({ "agent": "CC-55555555", "represents": [absent[1].0, absent[2].0], "as": "proxy", "power_document": "P-2" });
    api.ok(Method::POST, "/api/v1/checkins", "operator", Some(proxy)).await;
    // A badge issued, and revoked.
    let credential = api.badge(&absent[0].0).await;
    api.ok(Method::POST, &format!("/api/v1/badges/{}/revoke", credential.id().0), "operator", None).await;

    let after = api.ok(Method::GET, "/api/v1/desk", "secretary", None).await;
    let delta = |path: &[&str]| {
        let pick = |v: &Value| path.iter().fold(v.clone(), |v, k| v[*k].clone()).as_u64().unwrap();
        pick(&after) - pick(&before)
    };
    assert_eq!(delta(&["in_person", "holders"]), 1);
    assert_eq!(delta(&["in_person", "shares"]), absent[0].1);
    assert_eq!(delta(&["proxy", "holders"]), 2);
    assert_eq!(delta(&["proxy", "agents"]), 1);
    assert_eq!(delta(&["proxy", "shares"]), absent[1].1 + absent[2].1);
    assert_eq!(
        (delta(&["badges", "issued"]), delta(&["badges", "revoked"]), delta(&["badges", "live"])),
        (1, 1, 0)
    );
    let refused = after["refused"].as_array().unwrap();
    assert_eq!(refused.len() - before["refused"].as_array().unwrap().len(), 2);
    let barred = &refused[refused.len() - 2];
    assert_eq!(
        (barred["agent"].as_str(), barred["reason"].as_str()),
        (Some("CC-77777777"), Some("proxy-agent-barred"))
    );
    assert!(barred["reason_es"].as_str().unwrap().contains("Art. 185"), "{barred}");
    assert_eq!(barred["principals"], json!([absent[1].0, absent[2].0]));
    let wanting = &refused[refused.len() - 1];
    assert_eq!(
        (wanting["reason"].as_str(), wanting["power_document"].as_str()),
        (Some("power-document-rejected"), Some("sin firma"))
    );
    // The chair and the public do not get the desk's figures.
    for caller in ["chair", "public"] {
        let (status, _) = api.call(Method::GET, "/api/v1/desk", caller, None).await;
        assert!(status == StatusCode::FORBIDDEN || status == StatusCode::UNAUTHORIZED, "{caller}: {status}");
    }
}

#[tokio::test]
async fn the_status_says_the_quorum_threshold_and_records_it_at_every_poll_open_and_close() {
    let api = Api::demo("series");
    // Without a quorum the chair is told how far it is, with the figures.
    let (status, refused) = api.call(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("no-quorum"))
    );
    let said = refused["error"]["message"].as_str().unwrap();
    assert!(
        said.starts_with("No hay quórum para abrir la votación: están presentes 0 de 98.000.000 acciones")
            && said.contains("al menos 49.000.001 de 98.000.000")
            && said.contains("Registre más llegadas"),
        "{said}"
    );
    api.check_in_a_quorum().await;
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    let quorum = &status["quorum"];
    // The demo is a first call on 98.000.000 voting shares: more than half.
    assert_eq!(quorum["minimum_shares"], 49_000_001);
    assert!(
        quorum["threshold_es"].as_str().unwrap().contains("al menos 49.000.001 de 98.000.000"),
        "{quorum}"
    );
    assert_eq!(quorum["threshold_source"], "Ley 222 de 1995, art. 68");
    assert_eq!(quorum["series"], json!([]));
    let item = status["items"][0]["id"].as_str().unwrap().to_string();
    api.ok(Method::POST, &format!("/api/v1/items/{item}/open"), "chair", None).await;
    api.ok(Method::POST, &format!("/api/v1/items/{item}/close"), "chair", None).await;
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    let series = status["quorum"]["series"].as_array().unwrap();
    assert_eq!(series.len(), 2);
    assert_eq!(
        (series[0]["item"].as_str(), series[0]["moment"].as_str()),
        (Some(item.as_str()), Some("open"))
    );
    assert_eq!(series[1]["moment"], "close");
    for point in series {
        assert_eq!(point["present_shares"], status["quorum"]["present_shares"]);
        assert_eq!(point["met"], true);
    }
    // The closed item says why it failed (nobody voted), with what was needed.
    let why = status["items"][0]["why_es"].as_str().unwrap();
    assert!(
        why.starts_with("no aprobado: 0 acciones a favor") && why.contains("se necesitaban al menos"),
        "{why}"
    );
}

#[tokio::test]
async fn a_closed_items_counted_ballots_are_listed_by_their_receipts_hashes_and_searchable() {
    let api = Api::demo("counted");
    api.check_in_a_quorum().await;
    api.ok(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    let mut receipts = Vec::new();
    for holder in ["NIT-800100200", "NIT-800300400"] {
        let credential = api.badge(holder).await;
        let vote = HolderVote { holder: Id::new(holder).unwrap(), choice: Choice::Whole(OptionIndex::FOR) };
        let answer = api
            .ok(Method::POST, "/api/v1/ballots", "kiosk", Some(api.ballot(&credential, "item-1", vec![vote])))
            .await;
        receipts.push(asamblea_server::receipts::from_json(&answer).unwrap().0);
    }
    // The turnout while open: the ballots and the shares they weigh.
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    assert_eq!(status["items"][0]["ballots"], 2);
    assert_eq!(status["items"][0]["shares_voted"], 18_000_000 + 6_000_000, "{}", status["items"][0]);
    // While the poll is open there is no list (and nothing about choices ever).
    let (status, value) = api.call(Method::GET, "/api/v1/results/item-1/ballots", "public", None).await;
    assert_eq!((status, value["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("item-not-closed")));
    api.ok(Method::POST, "/api/v1/items/item-1/close", "chair", None).await;
    let list = api.ok(Method::GET, "/api/v1/results/item-1/ballots", "public", None).await;
    assert_eq!((list["counted"].as_u64(), list["pages"].as_u64()), (Some(2), Some(1)));
    let listed: Vec<(u64, String)> = list["ballots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["seq"].as_u64().unwrap(), b["hash"].as_str().unwrap().to_string()))
        .collect();
    let expected: Vec<(u64, String)> =
        receipts.iter().map(|r| (r.seq, asamblea_wire::hex::encode(&r.event.0))).collect();
    assert_eq!(listed, expected, "each ballot by its number and its receipt's hash, in ledger order");
    assert!(
        list["ballots"][0].as_object().unwrap().keys().all(|k| k == "seq" || k == "hash"),
        "no choice, no holder"
    );
    // Searched by the start of a hash, in either case.
    let start = expected[1].1[..6].to_ascii_uppercase();
    let found =
        api.ok(Method::GET, &format!("/api/v1/results/item-1/ballots?q={start}"), "public", None).await;
    assert!(
        found["ballots"].as_array().unwrap().iter().any(|b| b["hash"] == expected[1].1.as_str()),
        "{found}"
    );
    assert!(found["matched"].as_u64().unwrap() >= 1 && found["counted"] == 2);
    for bad in ["xyz", &"a".repeat(65)] {
        let (status, _) =
            api.call(Method::GET, &format!("/api/v1/results/item-1/ballots?q={bad}"), "public", None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    }
    let (status, _) = api.call(Method::GET, "/api/v1/results/nada/ballots", "public", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // The board's page lists them; a bad search says what to type.
    let (status, page) = api.page(Method::GET, "/papeletas?punto=item-1", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains(&expected[0].1)
            && page.contains(&expected[1].1)
            && page.contains("2 papeletas contadas")
    );
    let (status, page) = api.page(Method::GET, "/papeletas?punto=item-1&buscar=%3Cb%3E", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        page.contains("solo cifras 0–9 y letras a–f") && page.contains("&lt;b&gt;") && !page.contains("<b>")
    );
    // The receipt check takes the hash alone: where it was counted.
    let (status, page) = api.page(Method::POST, "/recibo", Some(&format!("recibo={}", expected[0].1))).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains("Su papeleta fue contada")
            && page.contains(&format!("posición {}", expected[0].0))
            && page.contains(&asamblea_wire::hex::encode(&receipts[0].head.0)),
        "{page}"
    );
    // The same from a receipt's QR scanned with a phone: a link to the page.
    let (status, page) = api.page(Method::GET, &format!("/recibo?resumen={}", expected[1].1), None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains(&format!("posición {}", expected[1].0)), "{page}");
    let (status, page) = api.page(Method::GET, "/recibo?resumen=%3Cscript%3E", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("no es el resumen de una papeleta") && !page.contains("<script>"), "{page}");
    let (status, page) =
        api.page(Method::POST, "/recibo", Some(&format!("recibo={}", "ab".repeat(32)))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("Ese resumen no está en el registro"), "{page}");
}

#[tokio::test]
async fn a_lost_badge_is_replaced_in_one_step_and_the_desk_prints_from_the_daemons_layout() {
    let api = Api::demo("reissue");
    api.check_in_a_quorum().await;
    let old = api.badge("NIT-800100200").await;
    // The layout the desk's browser prints: the person's name and number,
    // the QR square left for the browser (the daemon never holds the seed).
    let (status, svg) = api.page(Method::GET, &format!("/api/v1/badges/{}/layout", old.id().0), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "the layout is the desk's: {svg}");
    let (status, svg) = api.text_as(&format!("/api/v1/badges/{}/layout", old.id().0), Role::Operator).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        svg.contains(r#"id="qr-slot""#)
            && svg.contains("NIT-800100200")
            && svg.contains(&format!("N.º {}", old.id().0)),
        "{svg}"
    );
    // Re-issued: a new number for the same person, the old one revoked in the same transaction.
    let seed = asamblea_kiosk::BadgeSeed::draw(&api.meeting).unwrap();
    let key = json!({ "key": seed.public_key().to_string() });
    let answer = api
        .ok(Method::POST, &format!("/api/v1/badges/{}/reissue", old.id().0), "operator", Some(key.clone()))
        .await;
    assert_eq!(
        (answer["revoked"].as_u64(), answer["person"].as_str()),
        (Some(u64::from(old.id().0)), Some("NIT-800100200"))
    );
    let number = answer["credential"].as_u64().unwrap();
    assert_eq!(number, u64::from(old.id().0) + 1);
    // The old one is revoked; a second re-issue of it, or one with a key already used, changes nothing.
    let (status, value) = api
        .call(Method::POST, &format!("/api/v1/badges/{}/reissue", old.id().0), "operator", Some(key.clone()))
        .await;
    assert_eq!(
        (status, value["error"]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("revoked-badge")),
        "{value}"
    );
    let (status, value) =
        api.call(Method::POST, &format!("/api/v1/badges/{number}/reissue"), "operator", Some(key)).await;
    assert!(status.is_client_error() && value["error"]["code"].as_str().is_some(), "{status} {value}");
    let desk = api.ok(Method::GET, "/api/v1/desk", "operator", None).await;
    assert_eq!(
        (
            desk["badges"]["issued"].as_u64(),
            desk["badges"]["revoked"].as_u64(),
            desk["badges"]["live"].as_u64()
        ),
        (Some(2), Some(1), Some(1))
    );
    let (status, _) = api.text_as(&format!("/api/v1/badges/{}/layout", old.id().0), Role::Operator).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "a revoked badge is not printed again");
    // The search says who holds which badge.
    let found = api.ok(Method::GET, "/api/v1/holders?q=NIT-800100200", "operator", None).await;
    assert_eq!(found["holders"][0]["badge"].as_u64(), Some(number));
}

#[tokio::test]
async fn a_written_statement_is_a_signed_ledger_event_of_a_present_attendee_about_an_item() {
    let api = Api::demo("statements");
    api.check_in_a_quorum().await;
    let text = "Dejo constancia de mi voto en contra:\r\nlos estados no incluyen la provisión.  ";
    let body = json!({ "item": "item-2", "person": "NIT-800100200", "text": text });
    let recorded = api.ok(Method::POST, "/api/v1/statements", "secretary", Some(body.clone())).await;
    let seq = recorded["seq"].as_u64().unwrap();
    let listed = api.ok(Method::GET, "/api/v1/statements", "auditor", None).await;
    let statement = &listed["statements"][0];
    assert_eq!(
        statement["text"],
        "Dejo constancia de mi voto en contra:\nlos estados no incluyen la provisión."
    );
    assert_eq!(
        (statement["item"].as_str(), statement["person"].as_str()),
        (Some("item-2"), Some("NIT-800100200"))
    );
    assert!(statement["title"].as_str().unwrap().starts_with("Estados financieros"), "{statement}");
    assert!(!statement["name"].as_str().unwrap().is_empty());
    // Refused, saying why, and nothing recorded: someone absent, an item
    // not on the agenda, no words, a tab; and the auditor signs nothing.
    let absent = api.ok(Method::GET, "/api/v1/holders?q=cc-", "operator", None).await;
    let absent =
        absent["holders"].as_array().unwrap().iter().find(|h| h["present"] == false).unwrap()["id"].clone();
    for (body, status, code) in [
        (
            json!({ "item": "item-2", "person": absent, "text": "x" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not-an-attendee",
        ),
        (
            json!({ "item": "item-99", "person": "NIT-800100200", "text": "x" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not-on-agenda",
        ),
        (
            json!({ "item": "item-2", "person": "NIT-800100200", "text": "   " }),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            json!({ "item": "item-2", "person": "NIT-800100200", "text": "a\tb" }),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            json!({ "item": "item-2", "person": "NIT-800100200", "text": "x".repeat(4_001) }),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
    ] {
        let (got, value) =
            api.call(Method::POST, "/api/v1/statements", "secretary", Some(body.clone())).await;
        assert_eq!((got, value["error"]["code"].as_str()), (status, Some(code)), "{body}: {value}");
        assert!(value["error"]["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let (got, _) = api.call(Method::POST, "/api/v1/statements", "auditor", Some(body)).await;
    assert_eq!(got, StatusCode::FORBIDDEN);
    let listed = api.ok(Method::GET, "/api/v1/statements", "secretary", None).await;
    assert_eq!(listed["statements"].as_array().unwrap().len(), 1, "the refusals recorded nothing");
    // In the exported bundle, signed by the secretary's key, and verified.
    let bundle = asamblea_venue::service::MeetingFiles::export(&api.dir).expect("the bundle");
    let record = asamblea_wire::EventRecord::decode(&bundle.records[seq as usize - 1].0).unwrap();
    assert!(matches!(record.event.body, asamblea_wire::EventBody::StatementRecorded { .. }));
    let options = asamblea_ledger::VerifyOptions::bundle_alone(&asamblea::commands::load_profile);
    let (_, state) =
        asamblea_ledger::verify_bundle_state(std::io::Cursor::new(bundle.encode()), &options, &mut |_, _| {})
            .expect("the bundle verifies");
    assert_eq!(state.statements().len(), 1);
    assert_eq!(
        state.staff_member(&record.signer).map(|(role, _)| role),
        Some(asamblea_wire::StaffRole::Secretary)
    );
}

#[tokio::test]
async fn the_secretary_reads_who_may_withdraw_with_names_and_shares_after_a_merger() {
    let api = Api::new("withdrawal", crate::support::MERGER_MEETING, crate::support::MERGER_REGISTER);
    for holder in ["A-1", "B-2"] {
        api.ok(Method::POST, "/api/v1/checkins", "operator", Some(json!({ "holder": holder }))).await;
    }
    api.ok(Method::POST, "/api/v1/items/fusion/open", "chair", None).await;
    for (holder, option) in [("A-1", OptionIndex::FOR), ("B-2", OptionIndex::AGAINST)] {
        let credential = api.badge(holder).await;
        let vote = HolderVote { holder: Id::new(holder).unwrap(), choice: Choice::Whole(option) };
        api.ok(Method::POST, "/api/v1/ballots", "kiosk", Some(api.ballot(&credential, "fusion", vec![vote])))
            .await;
    }
    api.ok(Method::POST, "/api/v1/items/fusion/close", "chair", None).await;
    let minutes = api.ok(Method::GET, "/api/v1/minutes", "secretary", None).await;
    let item = &minutes["items"][0];
    assert_eq!(item["id"], "fusion");
    // The dissenter and the absent holder, with their names and shares; not the holder who voted for.
    let may: Vec<(String, String, u64)> = item["withdrawal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["id"].as_str().unwrap().into(),
                h["name"].as_str().unwrap().into(),
                h["shares"]["ORD"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        may,
        vec![("B-2".into(), "Bernardo Ruiz".into(), 300), ("C-3".into(), "Carmen Díaz".into(), 200)]
    );

    // The acta carries them, with a refused power and a written statement,
    // in the PDF the secretary downloads.
    let wanting = json!({ "agent": "X-9", "represents": ["C-3"], "as": "proxy", "power_document": "sin firma", "power_rejected": true });
    api.ok(Method::POST, "/api/v1/checkins", "operator", Some(wanting)).await;
    let statement = json!({ "item": "fusion", "person": "B-2", "text": "Me opongo a la fusión y me reservo el derecho de retiro." });
    api.ok(Method::POST, "/api/v1/statements", "secretary", Some(statement)).await;
    let (status, bytes) = api.bytes_as("/api/v1/exports/acta.pdf", Role::Secretary).await;
    assert_eq!(status, StatusCode::OK);
    assert!(bytes.starts_with(b"%PDF-"), "a PDF");
    let pdf = api.dir.with_extension("acta.pdf");
    std::fs::write(&pdf, &bytes).unwrap();
    let Ok(text) = std::process::Command::new("pdftotext").arg(&pdf).arg("-").output() else {
        return crate::webdriver::not_run(
            "api::the_secretary_reads_who_may_withdraw…: the acta's PDF read by poppler",
            "no pdftotext (apt-get install poppler-utils)",
        );
    };
    let text = String::from_utf8_lossy(&text.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "ASAMBLEA GENERAL EXTRAORDINARIA",
        "en segunda convocatoria",
        "Fusión por absorción de Filial S.A.S.",
        "Pueden ejercer el derecho de retiro los accionistas ausentes y los disidentes (Ley 222 de 1995, arts. 12 a 17), dentro de los ocho días siguientes a la decisión (art. 14): Documento Nombre Acciones Motivo B-2 Bernardo Ruiz 300 votó en contra C-3 Carmen Díaz 200 ausente",
        "Poderes rechazados (arts. 184 y 185 C.Co.)",
        "sin firma",
        "Me opongo a la fusión y me reservo el derecho de retiro.",
    ] {
        assert!(text.contains(expected), "the acta lacks «{expected}»: {text}");
    }
}

#[tokio::test]
async fn a_new_meeting_records_its_holders_names_and_its_meeting_file_in_the_ledger() {
    let api = Api::demo("described");
    let bundle = asamblea_venue::service::MeetingFiles::export(&api.dir).expect("the bundle");
    let options = asamblea_ledger::VerifyOptions::bundle_alone(&asamblea::commands::load_profile);
    let (_, state) =
        asamblea_ledger::verify_bundle_state(std::io::Cursor::new(bundle.encode()), &options, &mut |_, _| {})
            .expect("the bundle verifies");
    assert_eq!(
        state.description(),
        Some(asamblea::commands::DEMO_MEETING),
        "the meeting file, byte for byte"
    );
    let meeting = state.meeting().unwrap();
    assert_eq!(state.names().len(), meeting.register().len(), "a name for every holder");
    let (_, first) = meeting.register().iter().next().unwrap();
    assert_eq!(first.id(), "NIT-800100200");
    assert_eq!(state.names()[0].as_str(), "Fondo de Pensiones Porvenir del Sur S.A.");
}

#[tokio::test]
async fn the_secretary_downloads_the_tallies_made_from_the_verified_bundle() {
    let api = Api::demo("downloads");
    api.check_in_a_quorum().await;
    api.ok(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    api.ok(Method::POST, "/api/v1/items/item-1/close", "chair", None).await;
    let (status, json) = api.text_as("/api/v1/exports/resultados.json", Role::Secretary).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let json: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["schema"], "asamblea-resultados/1");
    assert_eq!(json["tables"]["puntos"][0]["item"], "item-1");
    assert_eq!(json["tables"]["puntos"][0]["decision"], "NO APROBADO");
    let (status, csv) = api.text_as("/api/v1/exports/resultados.csv?tabla=asistencia", Role::Auditor).await;
    assert_eq!(status, StatusCode::OK);
    assert!(csv.starts_with("\u{feff}documento (id);nombre (name);"), "{csv}");
    assert!(
        csv.contains("NIT-800100200;Fondo de Pensiones Porvenir del Sur S.A.;18000000;en persona"),
        "{csv}"
    );
    for (path, expected) in [
        ("/api/v1/exports/resultados.pdf", StatusCode::NOT_FOUND),
        ("/api/v1/exports/resultados.csv?tabla=nada", StatusCode::BAD_REQUEST),
    ] {
        assert_eq!(api.text_as(path, Role::Secretary).await.0, expected, "{path}");
    }
    assert_eq!(api.text_as("/api/v1/exports/resultados.json", Role::Chair).await.0, StatusCode::FORBIDDEN);
    // The acta draft, as `asamblea acta` makes it: a Word document (a zip).
    let (status, bytes) = api.bytes_as("/api/v1/exports/acta.docx", Role::Secretary).await;
    assert_eq!(status, StatusCode::OK);
    assert!(bytes.starts_with(b"PK\x03\x04"), "a zip archive");
}

#[tokio::test]
async fn the_kiosks_ballot_sheet_says_which_shares_vote_and_why_a_holding_does_not() {
    let api = Api::demo("sheet");
    api.check_in_a_quorum().await;
    // An administrator, and a holder of preferred shares only.
    for holder in ["CC-10000000", "CC-12280672"] {
        api.ok(Method::POST, "/api/v1/checkins", "operator", Some(json!({ "holder": holder }))).await;
    }
    for item in ["item-1", "item-2"] {
        api.ok(Method::POST, &format!("/api/v1/items/{item}/open"), "chair", None).await;
    }
    let sheet_of = |holder: &'static str| {
        let api = &api;
        async move {
            let seed = asamblea_kiosk::BadgeSeed::draw(&api.meeting).unwrap();
            let issued = api.ok(Method::POST, "/api/v1/badges", "operator", Some(seed.request(holder))).await;
            let credential = seed.credential(&issued).unwrap();
            api.ok(Method::GET, &format!("/api/v1/kiosk/badges/{}", credential.id().0), "kiosk", None).await
        }
    };
    let admin = sheet_of("CC-10000000").await;
    assert_eq!(admin["name"], "Ana Moreno Martínez");
    let items = admin["open_items"].as_array().unwrap();
    assert_eq!(items[0]["title"], "Aprobación del orden del día");
    assert_eq!(items[0]["options"][0]["es"], "Sí");
    // On an ordinary matter the administrator votes her ordinary shares
    // only (her preferred ones do not vote there); on the year-end
    // statements not at all, with the article.
    assert_eq!(
        (items[0]["holders"][0]["may_vote"].clone(), items[0]["holders"][0]["shares"].clone()),
        (json!(true), json!(27_111))
    );
    assert_eq!(items[1]["holders"][0]["may_vote"], false);
    assert!(items[1]["holders"][0]["reason_es"].as_str().unwrap().contains("art. 185"), "{}", items[1]);
    let preferred = sheet_of("CC-12280672").await;
    let holding = &preferred["open_items"][0]["holders"][0];
    assert_eq!((holding["may_vote"].clone(), holding["shares"].clone()), (json!(false), json!(0)));
    assert!(
        holding["reason_es"].as_str().unwrap().starts_with("Estas acciones son preferenciales"),
        "{holding}"
    );
}
