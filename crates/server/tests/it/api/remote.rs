//! The remote attendee through the daemon (`docs/ledger-format.md`
//! §3.24–3.28): a browser registers with the key it made, the desk
//! verifies the person and binds the key, the attendee arrives, votes and
//! leaves with requests signed by that key alone; one channel per person
//! (R2) both ways; a revoked credential that signs nothing; a printed
//! badge that does not vote from afar. The browser's half is made here
//! with `asamblea_wire`, as the phone page makes it with WebCrypto.

use asamblea_api::kiosk::BallotRequest;
use asamblea_api::remote::{HeartbeatAnswer, HeartbeatRequest, RegistrationRequest, RemoteStatus};
use asamblea_rules::OptionIndex;
use asamblea_wire::{
    Choice, CredentialId, Event, EventBody, HolderVote, Id, Keypair, Nonce, Prose, RemoteHeartbeat,
    RemoteRegistration, SubmissionKind, Text,
};
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

use super::fixture::{hex, Api};

/// A holder of the demo who is not among the quorum's.
const HOLDER: &str = "CC-10150461";

/// The browser's half: a key made on the device, whose private half
/// never leaves it.
struct Phone {
    key: Keypair,
    credential: Option<CredentialId>,
}

impl Phone {
    fn new() -> Phone {
        Phone { key: Keypair::from_seed(&asamblea_venue::secrets::random()), credential: None }
    }

    fn public(&self) -> String {
        self.key.public_key().to_string()
    }

    /// `POST /api/v1/remote/registrations`'s body, proved by `prover`.
    fn registration(&self, api: &Api, person: &str, prover: &Keypair) -> Value {
        let registration = RemoteRegistration {
            key: self.key.public_key(),
            person: Id::new(person).unwrap(),
            name: Text::new("María Gómez Díaz").unwrap(),
        };
        let bytes = registration.encode().unwrap();
        let proof = prover.sign(&api.meeting, &bytes).unwrap();
        serde_json::to_value(RegistrationRequest { registration: hex(&bytes), proof: hex(&proof.0) }).unwrap()
    }

    fn signed(&self, api: &Api, body: EventBody) -> (Vec<u8>, Value) {
        let event = Event { nonce: Nonce(asamblea_venue::secrets::random()), body };
        let bytes = event.encode().unwrap();
        let signature = self.key.sign(&api.meeting, &bytes).unwrap();
        let request = BallotRequest {
            event: hex(&bytes),
            signer: hex(&self.key.public_key().to_bytes()),
            signature: hex(&signature.0),
        };
        (bytes, serde_json::to_value(request).unwrap())
    }

    fn arrival(&self, api: &Api, principals: &[&str]) -> Value {
        let principals = principals.iter().map(|p| Id::new(p).unwrap()).collect();
        self.signed(api, EventBody::CheckedInRemote { credential: self.credential.unwrap(), principals }).1
    }

    fn departure(&self, api: &Api) -> Value {
        self.signed(api, EventBody::CheckedOutRemote { credential: self.credential.unwrap() }).1
    }

    /// A heartbeat with `counter`, signed by the phone's key.
    fn heartbeat(&self, api: &Api, counter: u64) -> Value {
        let bytes = RemoteHeartbeat { key: self.key.public_key(), counter }.encode();
        let proof = self.key.sign(&api.meeting, &bytes).unwrap();
        serde_json::to_value(HeartbeatRequest { heartbeat: hex(&bytes), proof: hex(&proof.0) }).unwrap()
    }

    /// A question or written statement from the phone.
    fn submission(&self, api: &Api, kind: SubmissionKind, item: Option<&str>, text: &str) -> Value {
        let body = EventBody::RemoteSubmission {
            credential: self.credential.unwrap(),
            kind,
            item: item.map(|i| Id::new(i).unwrap()),
            text: Prose::new(text).unwrap(),
        };
        self.signed(api, body).1
    }

    fn ballot(&self, api: &Api, item: &str, option: usize) -> Value {
        let vote =
            HolderVote { holder: Id::new(HOLDER).unwrap(), choice: Choice::Whole(OptionIndex::list(option)) };
        let ballot = asamblea_wire::Ballot {
            item: Id::new(item).unwrap(),
            credential: self.credential.unwrap(),
            votes: vec![vote],
        };
        self.signed(api, EventBody::Ballot(ballot)).1
    }
}

async fn status(api: &Api, phone: &Phone) -> RemoteStatus {
    api.ok_as(Method::GET, &format!("/api/v1/remote/registrations/{}", phone.public()), "public", None).await
}

fn code(answer: &(StatusCode, Value)) -> (StatusCode, &str) {
    (answer.0, answer.1["error"]["code"].as_str().unwrap_or(""))
}

/// The desk verifies the phone's person by video call and binds its key.
async fn verify(api: &Api, phone: &Phone) -> Value {
    let body = json!({ "key": phone.public(), "method": "video-call", "evidence": "ab".repeat(32) });
    api.ok(Method::POST, "/api/v1/remote/verifications", "operator", Some(body)).await
}

/// Registered, verified at the desk by video call, bound.
async fn verified_phone(api: &Api) -> Phone {
    let mut phone = Phone::new();
    let body = phone.registration(api, HOLDER, &phone.key);
    let (created, answer) =
        api.call(Method::POST, "/api/v1/remote/registrations", "public", Some(body)).await;
    assert_eq!(created, StatusCode::CREATED, "{answer}");
    let verified = verify(api, &phone).await;
    phone.credential = Some(CredentialId(verified["credential"].as_u64().unwrap() as u32));
    phone
}

#[tokio::test]
async fn a_remote_holder_registers_is_verified_arrives_votes_and_leaves() {
    let api = Api::demo("remote-path");
    api.check_in_a_quorum().await;
    api.install().await;
    api.ok(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    let mut phone = Phone::new();
    // A proof signed by another key is refused, and nothing is kept.
    let forged = phone.registration(&api, HOLDER, &Keypair::from_seed(&[7; 32]));
    let answer = api.call(Method::POST, "/api/v1/remote/registrations", "public", Some(forged)).await;
    assert_eq!(code(&answer), (StatusCode::UNPROCESSABLE_ENTITY, "bad-signature"));
    let unknown = api
        .call(Method::GET, &format!("/api/v1/remote/registrations/{}", phone.public()), "public", None)
        .await;
    assert_eq!(code(&unknown), (StatusCode::NOT_FOUND, "unknown-registration"));
    let body = phone.registration(&api, HOLDER, &phone.key);
    let answer: RemoteStatus = serde_json::from_value(
        api.ok(Method::POST, "/api/v1/remote/registrations", "public", Some(body)).await,
    )
    .unwrap();
    assert_eq!((answer.state.as_str(), answer.credential), ("pending", None));
    assert_eq!(answer.fingerprint, asamblea_wire::key_fingerprint(&phone.key.public_key()));
    // The desk sees it, with the register's name beside the typed one;
    // the public does not.
    let pending = api.ok(Method::GET, "/api/v1/remote/pending", "operator", None).await;
    let row = &pending["pending"][0];
    assert_eq!((row["person"].as_str(), row["known_as"].as_str()), (Some(HOLDER), Some("María Gómez Díaz")));
    assert_eq!(row["fingerprint"], answer.fingerprint.as_str());
    let public = api.call(Method::GET, "/api/v1/remote/pending", "public", None).await;
    assert_eq!(public.0, StatusCode::UNAUTHORIZED);
    // Before the desk verifies, the key signs nothing.
    let sheet =
        api.call(Method::GET, &format!("/api/v1/remote/sheet/{}", phone.public()), "public", None).await;
    assert_eq!(code(&sheet), (StatusCode::NOT_FOUND, "unknown-registration"));
    let verified = verify(&api, &phone).await;
    let credential = CredentialId(verified["credential"].as_u64().unwrap() as u32);
    phone.credential = Some(credential);
    let pending = api.ok(Method::GET, "/api/v1/remote/pending", "operator", None).await;
    assert_eq!(pending["pending"], json!([]), "bound: no longer pending");
    let now = status(&api, &phone).await;
    assert_eq!(
        (now.state.as_str(), now.credential, now.attending.clone()),
        ("verified", Some(credential.0), None)
    );
    assert_eq!(now.principals, [HOLDER]);
    // Arrives from afar: counted in the quorum as any holder (HY-3).
    let before = api.ok(Method::GET, "/api/v1/status", "public", None).await["quorum"]["present_shares"]
        .as_u64()
        .unwrap();
    let arrived =
        api.ok(Method::POST, "/api/v1/remote/presence", "public", Some(phone.arrival(&api, &[HOLDER]))).await;
    assert_eq!(arrived["present"], true);
    let after = api.ok(Method::GET, "/api/v1/status", "public", None).await["quorum"]["present_shares"]
        .as_u64()
        .unwrap();
    assert_eq!(after - before, 352_753);
    assert_eq!(status(&api, &phone).await.attending.as_deref(), Some("remote"));
    // The kiosk's sheet, for the phone; and the ballot, with its receipt.
    let sheet =
        api.ok(Method::GET, &format!("/api/v1/remote/sheet/{}", phone.public()), "public", None).await;
    assert_eq!(sheet["open_items"][0]["holders"][0]["holder"], HOLDER);
    assert_eq!(sheet["open_items"][0]["holders"][0]["may_vote"], true);
    let receipt =
        api.ok(Method::POST, "/api/v1/remote/ballots", "public", Some(phone.ballot(&api, "item-1", 0))).await;
    let checked = api.ok(Method::POST, "/api/v1/receipts/check", "public", Some(receipt.clone())).await;
    assert_eq!(checked["valid"], true, "{checked}");
    let again = api
        .call(Method::POST, "/api/v1/remote/ballots", "public", Some(phone.ballot(&api, "item-1", 1)))
        .await;
    assert_eq!(code(&again), (StatusCode::UNPROCESSABLE_ENTITY, "already-voted"));
    // R2: while remote, the desk does not check them in.
    let desk =
        api.call(Method::POST, "/api/v1/checkins", "operator", Some(json!({ "holder": HOLDER }))).await;
    assert_eq!(code(&desk), (StatusCode::CONFLICT, "other-channel"));
    // They leave from the phone and come into the room: two stays.
    let left = api.ok(Method::POST, "/api/v1/remote/presence", "public", Some(phone.departure(&api))).await;
    assert_eq!(left["present"], false);
    api.check_in(HOLDER).await;
    assert_eq!(status(&api, &phone).await.attending.as_deref(), Some("room"));
    // R2 the other way: in the room, no remote arrival, no remote ballot.
    let remote = api
        .call(Method::POST, "/api/v1/remote/presence", "public", Some(phone.arrival(&api, &[HOLDER])))
        .await;
    assert_eq!(code(&remote), (StatusCode::CONFLICT, "other-channel"));
    api.ok(Method::POST, "/api/v1/items/item-1/close", "chair", None).await;
    api.ok(Method::POST, "/api/v1/items/item-2/open", "chair", None).await;
    let from_afar = api
        .call(Method::POST, "/api/v1/remote/ballots", "public", Some(phone.ballot(&api, "item-2", 0)))
        .await;
    assert_eq!(code(&from_afar), (StatusCode::UNPROCESSABLE_ENTITY, "wrong-channel"));
    // The desk records the departure from the room; remote again.
    api.ok(Method::POST, "/api/v1/checkouts", "operator", Some(json!({ "person": HOLDER }))).await;
    api.ok(Method::POST, "/api/v1/remote/presence", "public", Some(phone.arrival(&api, &[HOLDER]))).await;
    api.ok(Method::POST, "/api/v1/remote/ballots", "public", Some(phone.ballot(&api, "item-2", 0))).await;
}

#[tokio::test]
async fn a_revoked_credential_signs_nothing_and_a_printed_badge_does_not_vote_from_afar() {
    let api = Api::demo("remote-revoked");
    api.check_in_a_quorum().await;
    api.install().await;
    api.ok(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    let phone = verified_phone(&api).await;
    let credential = phone.credential.unwrap();
    api.ok(Method::POST, "/api/v1/remote/presence", "public", Some(phone.arrival(&api, &[HOLDER]))).await;
    // The phone is lost: the desk revokes it as a lost badge.
    api.ok(Method::POST, &format!("/api/v1/badges/{}/revoke", credential.0), "operator", None).await;
    assert_eq!(status(&api, &phone).await.state, "revoked");
    let ballot = api
        .call(Method::POST, "/api/v1/remote/ballots", "public", Some(phone.ballot(&api, "item-1", 0)))
        .await;
    assert_eq!(code(&ballot), (StatusCode::UNPROCESSABLE_ENTITY, "revoked-badge"));
    let left = api.call(Method::POST, "/api/v1/remote/presence", "public", Some(phone.departure(&api))).await;
    assert_eq!(code(&left), (StatusCode::UNPROCESSABLE_ENTITY, "revoked-badge"));
    let sheet =
        api.call(Method::GET, &format!("/api/v1/remote/sheet/{}", phone.public()), "public", None).await;
    assert_eq!(code(&sheet), (StatusCode::UNPROCESSABLE_ENTITY, "revoked-badge"));
    // A printed badge's ballot is a kiosk's: not taken from afar.
    let printed = api.badge("NIT-800100200").await;
    let vote =
        HolderVote { holder: Id::new("NIT-800100200").unwrap(), choice: Choice::Whole(OptionIndex::list(0)) };
    let kiosk_ballot = api.ballot(&printed, "item-1", vec![vote]);
    let answer = api.call(Method::POST, "/api/v1/remote/ballots", "public", Some(kiosk_ballot)).await;
    assert_eq!(code(&answer), (StatusCode::UNPROCESSABLE_ENTITY, "wrong-channel"));
    // The same person registers a new phone; the desk verifies again.
    let new_phone = verified_phone(&api).await;
    assert_ne!(new_phone.credential, phone.credential);
    api.ok(Method::POST, "/api/v1/remote/ballots", "public", Some(new_phone.ballot(&api, "item-1", 1))).await;
}

/// HY-5 through the daemon: a heartbeat holds the presence; silence past
/// the meeting's timeout (the demo's 300 s, reached by telling the watch
/// a later moment: no test waits for the clock) records `presence-lapsed`,
/// the quorum drops, the next heartbeat answers `lapsed` and a new arrival
/// brings the person back.
#[tokio::test]
async fn heartbeats_hold_a_remote_presence_and_silence_past_the_timeout_ends_it() {
    use std::time::{Duration, Instant};
    let api = Api::demo("remote-heartbeat");
    let mut phone = verified_phone(&api).await;
    let start = Instant::now();
    api.ok(Method::POST, "/api/v1/remote/presence", "public", Some(phone.arrival(&api, &[HOLDER]))).await;
    let shares = || async {
        api.ok(Method::GET, "/api/v1/status", "public", None).await["quorum"]["present_shares"]
            .as_u64()
            .unwrap()
    };
    let present = shares().await;
    assert_eq!(status(&api, &phone).await.heartbeat_seconds, 60, "the demo's heartbeat");
    let beat: HeartbeatAnswer = serde_json::from_value(
        api.ok(Method::POST, "/api/v1/remote/heartbeat", "public", Some(phone.heartbeat(&api, 10))).await,
    )
    .unwrap();
    assert_eq!((beat.attending.as_deref(), beat.lapsed, beat.heartbeat_seconds), (Some("remote"), false, 60));
    // The same heartbeat again, an older one, another key's: refused.
    let again =
        api.call(Method::POST, "/api/v1/remote/heartbeat", "public", Some(phone.heartbeat(&api, 10))).await;
    assert_eq!(code(&again), (StatusCode::CONFLICT, "stale-heartbeat"));
    let mut forged = phone.heartbeat(&api, 11);
    let bytes = RemoteHeartbeat { key: phone.key.public_key(), counter: 11 }.encode();
    forged["proof"] = json!(hex(&Keypair::from_seed(&[9; 32]).sign(&api.meeting, &bytes).unwrap().0));
    let forged = api.call(Method::POST, "/api/v1/remote/heartbeat", "public", Some(forged)).await;
    assert_eq!(code(&forged), (StatusCode::UNPROCESSABLE_ENTITY, "bad-signature"));
    // 299 s after the arrival: nothing lapses (the heartbeat came later).
    assert_eq!(api.state.lapse_silent(start + Duration::from_secs(299)), 0);
    assert_eq!(shares().await, present);
    // Silence for the whole timeout after the last heartbeat: lapsed.
    let lapsed = api.state.lapse_silent(Instant::now() + Duration::from_secs(300));
    assert_eq!(lapsed, 1);
    assert_eq!(shares().await, present - 352_753, "the quorum drops at once");
    let now = status(&api, &phone).await;
    assert_eq!((now.attending, now.lapsed), (None, true));
    assert_eq!(api.state.lapse_silent(Instant::now() + Duration::from_secs(900)), 0, "once");
    let beat: HeartbeatAnswer = serde_json::from_value(
        api.ok(Method::POST, "/api/v1/remote/heartbeat", "public", Some(phone.heartbeat(&api, 11))).await,
    )
    .unwrap();
    assert_eq!((beat.attending, beat.lapsed), (None, true), "the page is told to come back");
    // Back: a new arrival, a second stay.
    api.ok(Method::POST, "/api/v1/remote/presence", "public", Some(phone.arrival(&api, &[HOLDER]))).await;
    assert_eq!(shares().await, present);
    assert!(!status(&api, &phone).await.lapsed);
    let lapses = api.state.with_service(|s| s.state().lapses().to_vec());
    assert_eq!(lapses.len(), 1);
    assert!(lapses[0].silent_ms >= 300_000, "{}", lapses[0].silent_ms);
    phone.credential = None;
}

/// The floor from afar (HY-7): questions and written statements signed
/// on the phone are recorded as they arrive; the chair sees the queue
/// and records once what was done with each; the public sees none of it.
#[tokio::test]
async fn questions_and_statements_from_afar_reach_the_chair_s_queue_and_are_handled_once() {
    let api = Api::demo("remote-floor");
    let phone = verified_phone(&api).await;
    let question = phone.submission(&api, SubmissionKind::Question, Some("item-1"), "¿Cuál es el dividendo?");
    let absent = api.call(Method::POST, "/api/v1/remote/submissions", "public", Some(question.clone())).await;
    assert_eq!(code(&absent).0, StatusCode::UNPROCESSABLE_ENTITY, "only while attending: {}", absent.1);
    api.ok(Method::POST, "/api/v1/remote/presence", "public", Some(phone.arrival(&api, &[HOLDER]))).await;
    let asked = api.ok(Method::POST, "/api/v1/remote/submissions", "public", Some(question)).await;
    let seq = asked["seq"].as_u64().unwrap();
    let statement = phone.submission(
        &api,
        SubmissionKind::Statement,
        None,
        "Dejo constancia de mi voto en contra.\nMaría.",
    );
    api.ok(Method::POST, "/api/v1/remote/submissions", "public", Some(statement)).await;
    let elsewhere = phone.submission(&api, SubmissionKind::Question, Some("item-99"), "¿Y esto?");
    let elsewhere = api.call(Method::POST, "/api/v1/remote/submissions", "public", Some(elsewhere)).await;
    assert_eq!(code(&elsewhere), (StatusCode::UNPROCESSABLE_ENTITY, "not-on-agenda"));
    let queue = api.ok(Method::GET, "/api/v1/floor", "chair", None).await;
    let list = queue["submissions"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(
        (
            list[0]["seq"].as_u64(),
            list[0]["kind"].as_str(),
            list[0]["item"].as_str(),
            list[0]["name"].as_str()
        ),
        (Some(seq), Some("question"), Some("item-1"), Some("María Gómez Díaz"))
    );
    assert_eq!(list[1]["text"], "Dejo constancia de mi voto en contra.\nMaría.");
    assert!(list[0]["time_ms"].as_u64().unwrap() > 0);
    assert_eq!(api.call(Method::GET, "/api/v1/floor", "public", None).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(api.call(Method::GET, "/api/v1/floor", "secretary", None).await.0, StatusCode::OK);
    let path = format!("/api/v1/floor/{seq}");
    let blank =
        api.call(Method::POST, &path, "chair", Some(json!({ "outcome": "not-read", "note": " " }))).await;
    assert_eq!(code(&blank), (StatusCode::UNPROCESSABLE_ENTITY, "reason-required"));
    let wrong = api.call(Method::POST, &path, "chair", Some(json!({ "outcome": "ignored" }))).await;
    assert_eq!(code(&wrong), (StatusCode::BAD_REQUEST, "bad-request"));
    let operator = api.call(Method::POST, &path, "operator", Some(json!({ "outcome": "read" }))).await;
    assert_eq!(operator.0, StatusCode::FORBIDDEN);
    api.ok(
        Method::POST,
        &path,
        "chair",
        Some(json!({ "outcome": "answered", "note": "Se respondió en sala" })),
    )
    .await;
    let twice = api.call(Method::POST, &path, "chair", Some(json!({ "outcome": "read" }))).await;
    assert_eq!(code(&twice), (StatusCode::CONFLICT, "submission-handled"));
    let not_one =
        api.call(Method::POST, "/api/v1/floor/1", "chair", Some(json!({ "outcome": "read" }))).await;
    assert_eq!(code(&not_one), (StatusCode::NOT_FOUND, "unknown-submission"));
    let queue = api.ok(Method::GET, "/api/v1/floor", "chair", None).await;
    assert_eq!(
        (queue["submissions"][0]["outcome"].as_str(), queue["submissions"][0]["note"].as_str()),
        (Some("answered"), Some("Se respondió en sala"))
    );
    assert_eq!(queue["submissions"][1]["outcome"], Value::Null, "still waiting, still listed");
}
