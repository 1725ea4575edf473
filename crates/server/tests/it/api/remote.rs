//! The remote attendee through the daemon (`docs/ledger-format.md`
//! §3.24–3.28): a browser registers with the key it made, the desk
//! verifies the person and binds the key, the attendee arrives, votes and
//! leaves with requests signed by that key alone; one channel per person
//! (R2) both ways; a revoked credential that signs nothing; a printed
//! badge that does not vote from afar. The browser's half is made here
//! with `asamblea_wire`, as the phone page makes it with WebCrypto.

use asamblea_api::kiosk::BallotRequest;
use asamblea_api::remote::{RegistrationRequest, RemoteStatus};
use asamblea_rules::OptionIndex;
use asamblea_wire::{
    Choice, CredentialId, Event, EventBody, HolderVote, Id, Keypair, Nonce, RemoteRegistration, Text,
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
