//! The registration desk (the operator): arrivals and exits, badges, the
//! register's search, the desk's figures, and kiosks.

use serde::{Deserialize, Serialize};

use crate::ByClass;

/// How an agent carries its principals' shares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Capacity {
    /// A power of attorney (poder, C.Co art. 184).
    #[default]
    Proxy,
    /// The legal representative of a company or a minor.
    LegalRepresentative,
}

/// `POST /api/v1/checkins` (and `/checkins/check`): a holder in person
/// (`holder`), or an agent (`agent`) with the holders it represents.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CheckinRequest {
    /// The holder arriving in person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::formats::Identifier>))]
    pub holder: Option<String>,
    /// The agent arriving for others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::formats::Identifier>))]
    pub agent: Option<String>,
    /// The holders the agent represents (with `agent` only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<crate::formats::Identifier>))]
    pub represents: Vec<String>,
    /// How the agent represents them (default `proxy`).
    #[serde(rename = "as", default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<Capacity>,
    /// The role the agent declares in the company (`administrator` or
    /// `employee`), if it is not in the register.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::formats::AgentRole>))]
    pub agent_role: Option<String>,
    /// The power's reference, as the desk reads it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::ShortText))]
    pub power_document: String,
    /// The desk found the power wanting (art. 184): the refusal is
    /// recorded, and nobody admitted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub power_rejected: bool,
    /// The name of the natural person who attends, as on their identity
    /// card: the agent's (with `agent`), or, with `holder`, who attends
    /// for the holder (a company's representative). Recorded with the
    /// arrival (`attendee-named`, ledger-format §3.16), printed on the
    /// badge, greeted by the kiosk, written in the acta.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attendee_name: Option<String>,
    /// With `holder` and `attendee_name`: the attending person's own
    /// document, when the holder is a company (`CC-80999111`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attendee_document: Option<String>,
}

/// `POST /api/v1/checkins/check`: the rules admit the arrival (a refusal
/// is an error answer with the rules' code).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckinVerdict {
    /// Always true.
    pub admissible: bool,
    /// What the operator reads, in Spanish.
    pub message: String,
    /// The same in English.
    pub message_en: String,
}

/// `POST /api/v1/checkins`: the arrival recorded, and the quorum after
/// it; or the power's refusal recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckinAnswer {
    /// The event's number.
    pub seq: u64,
    /// The quorum after the arrival (none for a refused power).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quorum: Option<QuorumAfter>,
    /// `power-document-rejected` when the desk refused the power.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// The quorum after an arrival.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QuorumAfter {
    /// Voting shares present.
    pub present_shares: u64,
    /// Holders present.
    pub holders: u32,
    /// Whether this call's quorum holds.
    pub met: bool,
}

/// `POST /api/v1/checkouts`: who leaves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PersonRequest {
    /// The holder in person, or the agent.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Identifier))]
    pub person: String,
}

/// `POST /api/v1/badges`: a badge for a present person, for the public
/// key of a seed the desk drew (the seed never reaches the daemon).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct BadgeRequest {
    /// The holder in person, or the agent.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Identifier))]
    pub person: String,
    /// The badge's public key, 64 hex digits.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub key: String,
}

/// `POST /api/v1/badges/{credential}/reissue`: the new badge's key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ReissueRequest {
    /// The new badge's public key, 64 hex digits.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub key: String,
}

/// A badge issued (201), or the same badge again for a request repeated
/// with the same key (200, no `seq`): the desk draws its QR from its seed
/// and this number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BadgeIssued {
    /// The event's number (none when the badge stood already).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// The badge's number.
    pub credential: u32,
    /// Whose it is.
    pub person: String,
    /// Its public key, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub key: String,
    /// The badge it replaced, for a re-issue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revoked: Option<u32>,
}

/// `POST /api/v1/badges/{credential}/revoke`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BadgeRevoked {
    /// The event's number.
    pub seq: u64,
    /// The badge revoked.
    pub revoked: u32,
}

/// `GET /api/v1/attendees`: everyone present, with whom they carry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Attendees {
    /// In the order they arrived.
    pub attendees: Vec<Attendee>,
}

/// A person present.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Attendee {
    /// The holder in person, or the agent.
    pub person: String,
    /// The holders whose shares they vote.
    pub carries: Vec<String>,
    /// Their live badge's number.
    pub badge: Option<u32>,
    /// The name the desk recorded for them (an agent's, or who attends
    /// for a holder in person), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `GET /api/v1/desk`: the desk's figures, from the ledger's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeskFigures {
    /// Holders present in person.
    pub in_person: ChannelFigures,
    /// Holders represented by proxy.
    pub proxy: ChannelFigures,
    /// Holders represented by their legal representative.
    pub legal_representative: ChannelFigures,
    /// Every power refused, with its reason.
    pub refused: Vec<RefusedPower>,
    /// Badges issued, revoked and live.
    pub badges: BadgeCounts,
}

/// Presence through one channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChannelFigures {
    /// Holders.
    pub holders: u32,
    /// Their shares.
    pub shares: u64,
    /// Distinct agents.
    pub agents: usize,
}

/// A power refused at the desk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RefusedPower {
    /// The agent.
    pub agent: String,
    /// The holders it would have represented.
    pub principals: Vec<String>,
    /// How.
    pub capacity: Capacity,
    /// The power's reference.
    pub power_document: String,
    /// The refusal's code.
    pub reason: String,
    /// Why, in Spanish.
    pub reason_es: String,
    /// Why, in English.
    pub reason_en: String,
}

/// Badge counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BadgeCounts {
    /// Issued.
    pub issued: u32,
    /// Revoked.
    pub revoked: u32,
    /// Live: issued less revoked.
    pub live: u32,
}

/// `GET /api/v1/holders?q=`: the register searched by the start of an id
/// (or of the bare number of an ID card), any part of a name, case and
/// accents aside, or the admission code of a holder's letter.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct HolderQuery {
    /// What to look for (at most 64 characters).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", param(value_type = crate::formats::HolderSearch))]
    pub q: String,
}

/// How many admission letters one download holds at most: a listed
/// company's 131.000 are fetched a hundred at a time (`from`).
pub const LETTERS_PER_DOWNLOAD: u32 = 100;

/// `GET /api/v1/letters.pdf?person=&from=`: the admission letters of
/// everyone expected, [`LETTERS_PER_DOWNLOAD`] at a time, or of one person.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct LettersQuery {
    /// Only this person's letter (a holder's id, or an agent's).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", param(value_type = Option<crate::formats::Identifier>))]
    pub person: Option<String>,
    /// The position of the first letter, from 0 (the register's order):
    /// the download holds at most 100 from there. Not with `person`.
    #[serde(default)]
    pub from: Option<u32>,
}

/// The holders a search found (at most 20), and how many matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HoldersFound {
    /// In register order.
    pub holders: Vec<Holder>,
    /// How many matched in all.
    pub matched: usize,
}

/// A holder as the consoles list one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Holder {
    /// The holder's id.
    pub id: String,
    /// The name in the register.
    pub name: String,
    /// Shares by class.
    pub shares: ByClass,
    /// `administrator` or `employee` (C.Co art. 185), if either.
    pub role: Option<String>,
    /// Whether present (in person or represented).
    pub present: bool,
    /// The agent who carries the shares, if represented.
    pub via: Option<String>,
    /// Who attends, by the name the desk recorded: the agent (with
    /// `via`), or the person attending for a holder in person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attendee_name: Option<String>,
    /// In a search: the live badge of whoever votes these shares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub badge: Option<u32>,
}

/// `POST /api/v1/kiosks`: a kiosk's certificate request, made on the
/// kiosk with its own key (`asamblea-kiosk enroll`), for the venue CA to
/// sign. The daemon never sees or makes a kiosk's private key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct KioskRequest {
    /// The kiosk's id, as its request names it.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::KioskId))]
    pub id: String,
    /// The PKCS#10 request, PEM.
    pub csr: String,
}

/// A kiosk enrolled: its certificate and the venue CA's, PEM.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KioskEnrolled {
    /// The kiosk's id.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::KioskId))]
    pub kiosk: String,
    /// Its certificate, PEM.
    pub certificate: String,
    /// The venue CA's certificate, PEM.
    pub ca: String,
    /// The request's SHA-256, hex, to compare with what the kiosk printed.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub request_sha256: String,
}

/// `POST /api/v1/kiosks/{kiosk}/revoke`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KioskRevoked {
    /// The kiosk revoked.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::KioskId))]
    pub revoked: String,
}
