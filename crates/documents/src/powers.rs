//! Powers of attorney lodged before the meeting as the documents show
//! them ([`PowerLine`]): the acta's subsection on them (`acta::powers`:
//! the powers used, by agent, with principals, shares and the document's
//! hash; those refused with their reasons; those revoked by their
//! principal's arrival) and the `poderes` table of the exports
//! (`tables`) are made from these.

use crate::numfmt::thousands;

/// A lodged power as the documents show it (from the ledger's
/// `power-lodged` and `power-revoked`, and the arrivals that used it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PowerLine {
    /// The company's reference.
    pub reference: String,
    /// The agent's document, when the power names one.
    pub agent: Option<String>,
    /// The agent's name as written.
    pub agent_name: String,
    /// Its principals' ids.
    pub principals: Vec<String>,
    /// SHA-256 of the scanned document, hex.
    pub document_sha256: String,
    /// How and when received, in words (`correo electrónico, 2027-03-10`).
    pub received: String,
    /// Why it was refused (code and words), or `None` when accepted.
    pub refused: Option<(String, String)>,
    /// Principals it no longer covers, with why, in words.
    pub revoked: Vec<(String, String)>,
    /// Principals carried under it: who, by whom (id and name), and
    /// whether that person was a substitute.
    pub used: Vec<Used>,
}

/// A principal carried under a power.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Used {
    /// The principal.
    pub principal: String,
    /// Who carried them.
    pub by: String,
    /// That person's name, as the desk recorded it.
    pub by_name: String,
    /// They were a substitute.
    pub substitute: bool,
}

/// A person by name and id, or the id alone without a name.
pub(crate) fn person(id: &str, name: &str) -> String {
    if name.trim().is_empty() {
        id.to_string()
    } else {
        format!("{name} ({id})")
    }
}

/// A power's agent as the documents name them.
pub(crate) fn agent_of(p: &PowerLine) -> String {
    match &p.agent {
        Some(agent) => person(agent, &p.agent_name),
        None => "(no nombra apoderado)".to_string(),
    }
}

/// `one` for 1, else `many` with the number (Colombian format) in its `{}`.
pub(crate) fn counted(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        one.to_string()
    } else {
        many.replacen("{}", &thousands(n), 1)
    }
}
