//! `asamblea-api`: the HTTP contract between the venue daemon and every
//! client of it — the kiosk, the staff consoles, the desk's commands, the
//! board and anyone who checks a result. Every request body, every answer
//! and every error code of `/api/v1` is a type here, written once; the
//! daemon (`asamblea-server`) answers with these types, the kiosk and the
//! command line read them, and the OpenAPI document the daemon serves is
//! generated from them (the `openapi` feature derives their schemas).
//!
//! # What this crate does not know
//!
//! HTTP, sockets, storage, signatures: a type here is plain data (text,
//! whole numbers, lists). Keys, digests and signed bytes travel as
//! hexadecimal text (`docs/ledger-format.md` §1), parsed by the crate that
//! owns them (`asamblea-wire`). It uses `asamblea-rules` only to name the
//! rules' refusal codes ([`ErrorCode::Refused`]), so that a code is
//! written once.
//!
//! # One word for one thing
//!
//! A share class is `ORD` or `PREF` everywhere (the register's column and
//! FORMAT.md's keys), in a [`ByClass`] object; a person's id is `person`,
//! a holder's `holder` (or `id` in a list of holders); an item is `item`
//! (or `id` in a list of items); a ledger position is `seq`.
//!
//! # Layout
//!
//! One module per kind of caller, as the daemon's routes are split:
//! [`public`] (anyone: status, results, receipts), [`desk`] (the
//! registration operator; [`powers`], its powers of attorney and
//! one-scan admissions), [`chair`], [`secretary`] (and the auditor),
//! [`kiosk`]; [`error`] holds the one error answer and its codes.

pub mod chair;
pub mod desk;
pub mod error;
pub mod formats;
pub mod kiosk;
pub mod powers;
pub mod public;
pub mod remote;
pub mod secretary;

pub use error::{ErrorAnswer, ErrorCode, ErrorDetail};

use serde::{Deserialize, Serialize};

/// Shares, or holders, by share class: `ORD` (ordinary) and `PREF`
/// (preferred), the register's codes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ByClass {
    /// Ordinary shares.
    #[serde(rename = "ORD")]
    pub ordinary: u64,
    /// Preferred shares.
    #[serde(rename = "PREF")]
    pub preferred: u64,
}

/// The answer of a change recorded in the ledger: the number of its event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Recorded {
    /// The event's number in the ledger.
    pub seq: u64,
}

/// A text in Spanish with its English translation (Spanish first, always).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Words {
    /// In Spanish.
    pub es: String,
    /// In English.
    pub en: String,
}

/// Figures by an election's list, in the ballot's order: a JSON object
/// whose keys are the lists' names (FORMAT.md's `votes` and `seats`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ByList<T>(pub Vec<(String, T)>);

impl<T: Serialize> Serialize for ByList<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (list, value) in &self.0 {
            map.serialize_entry(list, value)?;
        }
        map.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ByList<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<ByList<T>, D::Error> {
        struct Visitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Visitor<T> {
            type Value = ByList<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object of figures by list")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut access: A) -> Result<ByList<T>, A::Error> {
                let mut lists = Vec::new();
                while let Some(entry) = access.next_entry()? {
                    lists.push(entry);
                }
                Ok(ByList(lists))
            }
        }
        deserializer.deserialize_map(Visitor(std::marker::PhantomData))
    }
}
