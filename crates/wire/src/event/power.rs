//! Powers of attorney lodged before the meeting (`power-lodged`) and
//! revoked (`power-revoked`), with their encodings.

use asamblea_rules::powers::{PowerRefusal, Tie};

use super::*;
use crate::limits::MAX_SUBSTITUTES;

/// A power of attorney lodged with the company before the meeting, as the
/// registration desk verified it (`power-lodged`). The document stays with
/// the company; its SHA-256 is here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LodgedPower {
    /// The power's reference, unique in the meeting (the company's filing
    /// number).
    pub power: Id,
    /// The holders who give it: 1 to [`MAX_PRINCIPALS`], strictly
    /// ascending.
    pub principals: Vec<Id>,
    /// The agent's document; none when the power names no agent.
    pub agent: Option<Id>,
    /// The agent's name as the power writes it; empty when it gives none.
    pub agent_name: Text,
    /// The agent's tie to the company, as declared.
    pub agent_tie: Tie,
    /// The company suggested the agent.
    pub suggested: bool,
    /// The substitutes the power names (C.Co Art. 184): 0 to
    /// [`MAX_SUBSTITUTES`], strictly ascending by document.
    pub substitutes: Vec<Substitute>,
    /// The date or period of the meeting as the power words it; empty when
    /// it names none.
    pub meeting_date: Text,
    /// How the company received it.
    pub received_via: Reception,
    /// When the company received it, `YYYY-MM-DD`.
    pub received_on: Text,
    /// SHA-256 of the scanned document or the signed PDF.
    pub document: Digest,
    /// `None` accepted; else why it was refused.
    pub verdict: Option<PowerRefusal>,
}

/// A substitute a power names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Substitute {
    /// Their document.
    pub id: Id,
    /// Their name; may be empty.
    pub name: Text,
    /// Their tie to the company, as declared.
    pub tie: Tie,
}

/// How the company received a power.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reception {
    /// By post or courier.
    Mail,
    /// By e-mail (HY-13: the identity is checked on the signed document).
    Email,
    /// Handed in at the company's office.
    Office,
    /// Otherwise.
    Other,
}

wire_codes!(Reception { Mail = 1, Email = 2, Office = 3, Other = 4 });

impl Reception {
    /// Every way, in code order.
    pub const ALL: [Reception; 4] = [Reception::Mail, Reception::Email, Reception::Office, Reception::Other];

    /// The code used in files and the API.
    pub const fn code(self) -> &'static str {
        match self {
            Reception::Mail => "mail",
            Reception::Email => "email",
            Reception::Office => "office",
            Reception::Other => "other",
        }
    }

    /// The way of a code, if it is one.
    pub fn from_code(code: &str) -> Option<Reception> {
        Reception::ALL.into_iter().find(|r| r.code() == code)
    }
}

/// Why a lodged power stops covering a principal (`power-revoked`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Revocation {
    /// The principal arrived in person (R2: one channel per holder).
    PrincipalArrived,
    /// The principal withdrew it in writing before the meeting.
    Withdrawn,
}

wire_codes!(Revocation { PrincipalArrived = 1, Withdrawn = 2 });

impl Revocation {
    /// The stable code.
    pub const fn code(self) -> &'static str {
        match self {
            Revocation::PrincipalArrived => "principal-arrived",
            Revocation::Withdrawn => "withdrawn",
        }
    }
}

impl LodgedPower {
    /// The rules' reading of the power's terms; `principals` and
    /// `substitutes` hold the borrowed ids.
    pub fn terms<'a>(
        &'a self,
        principals: &'a [&'a str],
        substitutes: &'a [(&'a str, Tie)],
    ) -> asamblea_rules::powers::PowerTerms<'a> {
        asamblea_rules::powers::PowerTerms {
            principals,
            agent: self.agent.as_ref().map(Id::as_str),
            agent_named: !self.agent_name.as_str().trim().is_empty(),
            agent_tie: self.agent_tie,
            suggested: self.suggested,
            substitutes,
            dated: !self.meeting_date.as_str().trim().is_empty(),
        }
    }

    pub(super) fn write(&self, w: &mut Writer) -> Result<(), WireError> {
        w.str(self.power.as_str());
        w.count("power-lodged.principals", self.principals.len(), 1, MAX_PRINCIPALS)?;
        for (i, principal) in self.principals.iter().enumerate() {
            if i > 0 && self.principals[i - 1] >= *principal {
                return Err(WireError::Invalid {
                    field: "power-lodged.principals",
                    problem: Problem::NotAscending,
                });
            }
            w.str(principal.as_str());
        }
        w.count("power-lodged.agent", usize::from(self.agent.is_some()), 0, 1)?;
        if let Some(agent) = &self.agent {
            w.str(agent.as_str());
        }
        w.str(self.agent_name.as_str());
        w.code(self.agent_tie);
        w.bool(self.suggested);
        w.count("power-lodged.substitutes", self.substitutes.len(), 0, MAX_SUBSTITUTES)?;
        for (i, substitute) in self.substitutes.iter().enumerate() {
            if i > 0 && self.substitutes[i - 1].id >= substitute.id {
                return Err(WireError::Invalid {
                    field: "power-lodged.substitutes",
                    problem: Problem::NotAscending,
                });
            }
            w.str(substitute.id.as_str());
            w.str(substitute.name.as_str());
            w.code(substitute.tie);
        }
        w.str(self.meeting_date.as_str());
        w.code(self.received_via);
        w.str(self.received_on.as_str());
        w.bytes(&self.document.0);
        w.code(self.verdict);
        Ok(())
    }

    pub(super) fn read(r: &mut Reader<'_>) -> Result<LodgedPower, WireError> {
        let power = r.id("power-lodged.power")?;
        let principals = read_ascending(r, "power-lodged.principals", 1, MAX_PRINCIPALS)?;
        let agent = match r.count("power-lodged.agent", 0, 1)? {
            0 => None,
            _ => Some(r.id("power-lodged.agent")?),
        };
        let agent_name = r.text("power-lodged.agent_name")?;
        let agent_tie = r.code("power-lodged.agent_tie")?;
        let suggested = r.bool("power-lodged.suggested")?;
        let count = r.count("power-lodged.substitutes", 0, MAX_SUBSTITUTES)?;
        let mut substitutes: Vec<Substitute> = Vec::with_capacity(count);
        for _ in 0..count {
            let at = r.at();
            let id = r.id("power-lodged.substitutes")?;
            if substitutes.last().is_some_and(|last| last.id >= id) {
                return Err(r.malformed("power-lodged.substitutes", at, Problem::NotAscending));
            }
            let name = r.text("power-lodged.substitutes.name")?;
            let tie = r.code("power-lodged.substitutes.tie")?;
            substitutes.push(Substitute { id, name, tie });
        }
        Ok(LodgedPower {
            power,
            principals,
            agent,
            agent_name,
            agent_tie,
            suggested,
            substitutes,
            meeting_date: r.text("power-lodged.meeting_date")?,
            received_via: r.code("power-lodged.received_via")?,
            received_on: r.text("power-lodged.received_on")?,
            document: Digest(r.array("power-lodged.document")?),
            verdict: r.code("power-lodged.verdict")?,
        })
    }
}
