//! The chair: the meeting installed, suspended, resumed and adjourned;
//! polls opened and closed.

use serde::{Deserialize, Serialize};

use crate::public::ItemResult;

/// `POST /api/v1/items/{item}/close`: the result, and the daemon-signed
/// checkpoint of the chain at the close, to read out to the room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Closed {
    /// The chain at the close.
    pub checkpoint: Checkpoint,
    /// The daemon's signature of the checkpoint, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex64))]
    pub signature: String,
    /// The item's result.
    pub result: ItemResult,
}

/// `POST /api/v1/items/{item}/announce-close`: the chair announces that
/// the open poll closes once a countdown has run (rules.md §11.5). Every
/// screen shows it; the chair still closes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CloseAnnouncement {
    /// The countdown, in whole seconds: at least the meeting's minimum; a
    /// new announcement may end later than the one before, never sooner.
    pub countdown_seconds: u32,
}

/// A close announced: its record, and when the countdown ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CloseAnnounced {
    /// The announcement's record.
    pub seq: u64,
    /// When the countdown ends, ms since the Unix epoch: the first moment
    /// the chair may close (no sooner than the minimum open time either).
    pub closes_from_ms: u64,
}

/// A position of the chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Checkpoint {
    /// The record's number.
    pub seq: u64,
    /// The chain's head there, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub head: String,
}

/// `POST /api/v1/meeting/{install,suspend,resume,adjourn}`: a step of the
/// chair's, with an optional note for the acta (why it is suspended, when
/// it resumes).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SessionChange {
    /// What the chair adds for the acta: at most 256 bytes, may be empty.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::ShortText))]
    pub note: String,
}

/// A step recorded: its number and the sessions as they stand now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SessionRecorded {
    /// The step's record.
    pub seq: u64,
    /// The sessions now.
    pub session: crate::public::Session,
}
