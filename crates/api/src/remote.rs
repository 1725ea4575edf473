//! The remote attendee of a mixed meeting (`docs/ledger-format.md`
//! §3.24–3.28): a browser's registration and what it sees and sends
//! afterwards, authenticated by the signature of the key it made alone;
//! and the desk's verification of pending registrations.

use serde::{Deserialize, Serialize};

/// `POST /api/v1/remote/registrations`: a browser registers a person with
/// the key it made, proving it holds the key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RegistrationRequest {
    /// The `remote-registration` message's canonical bytes, hex
    /// (ledger-format §3.28): the key, the person, the name.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::HexBytes))]
    pub registration: String,
    /// The registration signed by its own key, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex64))]
    pub proof: String,
}

/// Where a browser's key stands: pending the desk's verification, bound
/// as a credential, and whether its person attends remotely now.
/// `GET /api/v1/remote/registrations/{key}` and the registration's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RemoteStatus {
    /// The key, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub key: String,
    /// Its fingerprint, as the desk sees it (`1A2B 3C4D 5E6F 7081`).
    pub fingerprint: String,
    /// The person registered.
    pub person: String,
    /// Their name as registered.
    pub name: String,
    /// `pending` (waiting for the desk), `verified` (a credential),
    /// `revoked` (the credential was revoked: register again from a new
    /// key), `expired` (the pending registration is no longer kept).
    pub state: String,
    /// The credential's number once verified.
    pub credential: Option<u32>,
    /// How the person attends now: `remote`, `room`, or none.
    pub attending: Option<String>,
    /// The holders a remote arrival would bring in now (the person, if a
    /// holder, and what accepted lodged powers give them), ascending: what
    /// the browser lists in `checked-in-remote`.
    pub principals: Vec<String>,
    /// How often the browser sends a heartbeat while its person attends,
    /// in seconds (the meeting's `meeting-modality`).
    pub heartbeat_seconds: u32,
    /// Whether the person's last remote stay was ended by the daemon for
    /// want of heartbeats (`presence-lapsed`) and they have not come back.
    pub lapsed: bool,
}

/// `POST /api/v1/remote/heartbeat`: a remote attendee's sign of life,
/// signed by their credential's key (ledger-format §3.29).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct HeartbeatRequest {
    /// The `remote-heartbeat` message's canonical bytes, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::HexBytes))]
    pub heartbeat: String,
    /// Its signature by the credential's key, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex64))]
    pub proof: String,
}

/// The answer to a heartbeat: how the person attends now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HeartbeatAnswer {
    /// How the person attends now: `remote`, `room`, or none.
    pub attending: Option<String>,
    /// Whether their last remote stay lapsed (`presence-lapsed`) and they
    /// have not come back: the page records a new arrival.
    pub lapsed: bool,
    /// The next heartbeat is due within this many seconds.
    pub heartbeat_seconds: u32,
}

/// The answer to a question or written statement from afar
/// (`POST /api/v1/remote/submissions`, whose body is a ballot's: the
/// `remote-submission` event, its signer and signature, hex).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SubmissionRecorded {
    /// The record's number: the attendee's proof that it was received.
    pub seq: u64,
}

/// `GET /api/v1/floor`: the questions and written statements from afar,
/// for the chair, in order of arrival.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FloorQueue {
    /// Every one received, handled or not.
    pub submissions: Vec<FloorSubmission>,
}

/// One question or written statement from afar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FloorSubmission {
    /// Its record's number.
    pub seq: u64,
    /// When it arrived, ms since the Unix epoch.
    pub time_ms: u64,
    /// Who sent it.
    pub person: String,
    /// Their name, as the register or a lodged power knows it.
    pub name: String,
    /// `question` or `statement`.
    pub kind: String,
    /// The item it is about, if any.
    pub item: Option<String>,
    /// Its words.
    pub text: String,
    /// What the chair did with it, once recorded: `read`, `answered` or
    /// `not-read`.
    pub outcome: Option<String>,
    /// The chair's note.
    pub note: Option<String>,
}

/// `POST /api/v1/floor/{seq}`: what the chair did with a submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct HandleRequest {
    /// `read`, `answered` or `not-read`.
    pub outcome: String,
    /// Why it is not read (required then), or a note; may be empty.
    #[serde(default)]
    pub note: String,
}

/// The answer to a presence event (`POST /api/v1/remote/presence`, whose
/// body is a ballot's: the event, its signer and signature, hex): durable
/// at `seq`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PresenceRecorded {
    /// The record's number.
    pub seq: u64,
    /// Whether the person attends remotely now.
    pub present: bool,
}

/// `GET /api/v1/remote/pending`: the registrations waiting for the desk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingRegistrations {
    /// Oldest first.
    pub pending: Vec<PendingRegistration>,
}

/// One registration waiting for the desk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingRegistration {
    /// The browser's key, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub key: String,
    /// Its fingerprint, which the person's browser shows too.
    pub fingerprint: String,
    /// The person as registered.
    pub person: String,
    /// The name as registered.
    pub name: String,
    /// The register's name for the person when a holder, or the name a
    /// lodged power gives them as agent; none when neither knows them.
    pub known_as: Option<String>,
    /// Seconds since it arrived.
    pub waiting_s: u64,
}

/// `POST /api/v1/remote/verifications`: the desk verified the person of a
/// pending registration and binds its key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct VerificationRequest {
    /// The pending registration's key, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub key: String,
    /// `identity-document`, `video-call` or `admission-code`.
    pub method: String,
    /// SHA-256 of the evidence (a file the browser hashed, or the
    /// reference typed), hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub evidence: String,
}

/// The credential bound after the verification.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RemoteCredential {
    /// The `remote-credential-issued` record's number.
    pub seq: u64,
    /// The credential's number, in the badges' number space.
    pub credential: u32,
    /// The person.
    pub person: String,
    /// The key's fingerprint.
    pub fingerprint: String,
}
