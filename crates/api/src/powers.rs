//! Powers of attorney lodged before the meeting, and the desk's one-scan
//! admission (the registration operator): lodge powers, read the desk's
//! figures on them, see everything lodged for a person, admit them.
//!
//! No field here asks for or shows a voting instruction: they are private
//! between the holder and the agent (SFC 2015060395-003).

use serde::{Deserialize, Serialize};

use crate::desk::QuorumAfter;
use crate::{ByClass, Words};

/// A substitute named in a power (C.Co art. 184).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SubstituteRequest {
    /// Their document (`CC-52111222`).
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Identifier))]
    pub id: String,
    /// Their name.
    #[serde(default)]
    pub name: String,
    /// Their declared tie: `none` (default), `administrator`, `employee`
    /// or `tied-to-administration`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie: Option<String>,
}

/// A power as the desk lodges it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PowerRequest {
    /// The company's filing number for it, unique in the meeting.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Identifier))]
    pub reference: String,
    /// The holders who give it (1 to 1.000).
    pub principals: Vec<String>,
    /// The agent's document; absent or empty when the power names none
    /// (it is then refused: art. 184).
    #[serde(default)]
    pub agent: String,
    /// The agent's name as the power writes it.
    #[serde(default)]
    pub agent_name: String,
    /// The agent's declared tie, as for a substitute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_tie: Option<String>,
    /// The company suggested the agent.
    #[serde(default)]
    pub suggested: bool,
    /// 0 to 4 substitutes.
    #[serde(default)]
    pub substitutes: Vec<SubstituteRequest>,
    /// The date or period of the meeting as the power words it; empty when
    /// it names none (it is then refused: art. 184).
    #[serde(default)]
    pub meeting_date: String,
    /// `mail`, `email`, `office` or `other`.
    pub received_via: String,
    /// When the company received it, `YYYY-MM-DD`.
    pub received_on: String,
    /// SHA-256 of the scanned document or signed PDF, 64 hex digits.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub document_sha256: String,
    /// The desk refuses the document itself: `document-rejected` or
    /// `wrong-meeting`. The rules' reasons are computed, never sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judgement: Option<String>,
}

/// `POST /api/v1/powers`: powers lodged together (a file, or one typed at
/// the desk), all in one transaction.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PowersRequest {
    /// 1 to 20.000 powers.
    pub powers: Vec<PowerRequest>,
}

/// A power's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PowerVerdict {
    /// The power.
    pub reference: String,
    /// Accepted: its principals' shares are carried by its agent or a
    /// substitute.
    pub accepted: bool,
    /// Why it was refused (`missing-agent`, `agent-barred`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The reason in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason_words: Option<Words>,
}

/// `POST /api/v1/powers`: what was lodged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LodgeAnswer {
    /// Each power lodged now, in the order sent.
    pub lodged: Vec<PowerVerdict>,
    /// Powers lodged before with the same content, left as they stand.
    pub unchanged: Vec<String>,
    /// The desk's figures after it.
    pub figures: PowerFigures,
}

/// How many powers were refused for one reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReasonCount {
    /// The reason's code.
    pub reason: String,
    /// In words.
    pub words: Words,
    /// Powers refused for it.
    pub powers: u32,
}

/// `GET /api/v1/powers`: the desk's figures on the powers lodged.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PowerFigures {
    /// Powers lodged.
    pub lodged: u32,
    /// Accepted.
    pub accepted: u32,
    /// Refused.
    pub refused: u32,
    /// Refused, by reason (only reasons with a power).
    pub refused_by_reason: Vec<ReasonCount>,
    /// Principals whose power was revoked (by their own arrival, or
    /// withdrawn).
    pub revoked: u32,
    /// Principals covered now by an accepted power.
    pub principals_covered: u32,
    /// Their shares.
    pub shares_covered: ByClass,
    /// Principals an agent or substitute came to carry.
    pub principals_carried: u32,
    /// Whether powers may still be lodged (before the installation).
    pub open: bool,
}

/// Where a principal of a power stands, for the person who carries it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExpectedPrincipal {
    /// Their id.
    pub id: String,
    /// Their name in the register.
    pub name: String,
    /// Their shares.
    pub shares: ByClass,
    /// `to-carry` (the admission carries them), `carried` (this person
    /// does now), `carried-by` (someone else does: `by`), `in-person`,
    /// `principal-arrived` or `withdrawn` (the power no longer covers
    /// them), `not-covered`.
    pub status: String,
    /// The status in words, for the desk.
    pub words: Words,
    /// Who carries them, with `carried-by`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
}

/// A power naming the person as agent or substitute.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExpectedPower {
    /// The power and its verdict.
    pub verdict: PowerVerdict,
    /// The person is its substitute, not its agent.
    pub as_substitute: bool,
    /// The agent it names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The agent's name as written.
    pub agent_name: String,
    /// Its principals.
    pub principals: Vec<ExpectedPrincipal>,
}

/// `GET /api/v1/expected?q=`: a person and everything lodged for them,
/// found by their id, the bare number of their identity card, or the
/// control code of their admission letter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExpectedAnswer {
    /// The person's id.
    pub person: String,
    /// Their name: the register's, or the one their powers give.
    pub name: String,
    /// Their own shares when they are a holder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own: Option<ByClass>,
    /// Their own shares are present now (in person or carried).
    pub present: bool,
    /// Who carries their own shares now, if an agent does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carried_by: Option<String>,
    /// The accepted power covering their own shares, which their arrival
    /// revokes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covered_by: Option<String>,
    /// That power's agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covered_by_agent: Option<String>,
    /// Their live badge, if they hold one (it votes for whoever they carry
    /// after the admission too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub badge: Option<u32>,
    /// The powers naming them as agent or substitute.
    pub powers: Vec<ExpectedPower>,
    /// What one admission would carry: holders and shares (their own
    /// included when absent).
    pub to_carry: u32,
    /// Their shares.
    pub to_carry_shares: ByClass,
}

/// `GET /api/v1/expected?q=`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct ExpectedQuery {
    /// An id, the bare number of an identity card, or an admission
    /// letter's control code.
    #[cfg_attr(feature = "openapi", param(value_type = crate::formats::HolderSearch))]
    pub q: String,
}

/// `POST /api/v1/admissions`: admit a person with everything lodged for
/// them, in one action.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct AdmissionRequest {
    /// The person's id (as `GET /api/v1/expected` answered it).
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Identifier))]
    pub person: String,
    /// The attending person's name as on their identity card; by default
    /// the name the power gives the agent or the substitute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attendee_name: Option<String>,
    /// With `attendee_name`, when the person is a company holder: the
    /// attending person's own document (`CC-80999111`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attendee_document: Option<String>,
}

/// `POST /api/v1/admissions`: who came in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AdmissionAnswer {
    /// The arrival's event number.
    pub seq: u64,
    /// The person.
    pub person: String,
    /// The holders they vote for now.
    pub carried: Vec<String>,
    /// The power their own arrival revoked, if one covered them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revoked: Option<String>,
    /// They came as a substitute.
    pub as_substitute: bool,
    /// The quorum after it.
    pub quorum: QuorumAfter,
}

/// `POST /api/v1/powers/withdrawals`: a principal withdrew in writing the
/// power lodged for them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct WithdrawalRequest {
    /// The power.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Identifier))]
    pub power: String,
    /// The principal who withdraws it.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Identifier))]
    pub principal: String,
}
