//! The HTTP API end to end: a whole meeting driven through the daemon's
//! API (in process, the router called with `oneshot`) against the same
//! meeting run by the conformance runner (`asamblea::scenario`), which only
//! this package links. The API's own tests — who is let in where, the
//! desk, the chair, ballots and receipts, the secretary, sessions — live
//! with the server (`crates/server/tests/it/api/`).

use std::collections::HashMap;
use std::path::PathBuf;

use asamblea_rules::OptionIndex;
use asamblea_server::tls::ClientCert;
use asamblea_server::{router, AppState};
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
         [settings]\npoll_minimum_open_seconds = 0\npoll_minimum_countdown_seconds = 0\n\
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
                // The chair installs the meeting before its first poll;
                // without quorum that is refused, and so is the open.
                let (_, status) = api.call(Method::GET, "/api/v1/status", "public", None).await;
                if status["session"]["state"] == "not-installed" {
                    api.call(Method::POST, "/api/v1/meeting/install", "chair", Some(json!({}))).await;
                }
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
