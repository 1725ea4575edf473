//! The kiosk: a badge's ballot sheet, and a signed ballot.

use serde::{Deserialize, Serialize};

use crate::ByClass;

/// `GET /api/v1/kiosk/badges/{credential}`: what the kiosk shows the
/// attendee who scanned this badge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BallotSheet {
    /// The badge's number.
    pub credential: u32,
    /// Whose badge it is (the holder in person, or the agent).
    pub person: String,
    /// Their name.
    pub name: String,
    /// The holders they carry, with their shares.
    pub holders: Vec<SheetHolder>,
    /// Every open item.
    pub open_items: Vec<SheetItem>,
}

/// A holder the badge carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SheetHolder {
    /// The holder.
    pub holder: String,
    /// The name in the register.
    pub name: String,
    /// Shares by class.
    pub shares: ByClass,
}

/// An open item as the kiosk shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SheetItem {
    /// The item.
    pub id: String,
    /// Its title.
    pub title: String,
    /// The matter's code.
    pub matter: String,
    /// The matter in Spanish.
    pub matter_es: String,
    /// The matter in English.
    pub matter_en: String,
    /// Its options in words, in the ballot's order.
    pub options: Vec<SheetOption>,
    /// For each holder carried: the shares that vote, or why none do.
    pub holders: Vec<SheetVoter>,
    /// Once the chair announced the close: how long until the countdown
    /// ends, ms, as the daemon counted when it answered (0: it may close
    /// now). The kiosk and the phone count it down (`docs/rules.md`
    /// §11.5); none before an announcement.
    pub close_in_ms: Option<u64>,
}

/// An option of an item's ballot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SheetOption {
    /// Its index on the ballot (`docs/ledger-format.md`, ballots).
    pub index: u32,
    /// In Spanish (`A favor`, `En contra`, `En blanco`, a list's name).
    pub es: String,
    /// In English.
    pub en: String,
    /// A list's candidates as the meeting file named them, in the list's
    /// order: «principal (suplente: …)». Empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<String>,
}

/// One holder on one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SheetVoter {
    /// The holder.
    pub holder: String,
    /// The name in the register.
    pub name: String,
    /// The shares that vote on the item.
    pub shares: u64,
    /// Whether the holder may vote on it now.
    pub may_vote: bool,
    /// Why not: the rules' refusal code.
    pub reason: Option<String>,
    /// Why not, in Spanish, with the law.
    pub reason_es: Option<String>,
    /// Why not, in English.
    pub reason_en: Option<String>,
}

/// `POST /api/v1/ballots`: a ballot signed in the kiosk with the badge's
/// key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct BallotRequest {
    /// The ballot event's canonical bytes, hex (ledger-format §5).
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::HexBytes))]
    pub event: String,
    /// The badge's public key, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub signer: String,
    /// The signature, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex64))]
    pub signature: String,
}
