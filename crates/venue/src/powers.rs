//! A power of attorney as it comes from outside — the desk's form, a row
//! group of the powers file — checked at the edge into what the ledger
//! records (`power-lodged`, `docs/ledger-format.md` §3.19).
//!
//! Checking here is about form: ids that are ids, a date that is a date, a
//! SHA-256 that is 64 hex digits, at most four substitutes. Whether the
//! power is *valid* (art. 184, art. 185, the register, the Superfinanciera's
//! rules, shares already covered) is the rules' verdict
//! (`asamblea_rules::powers`), recorded with it: a power the rules refuse is
//! lodged as refused, with its reason, never dropped.

use asamblea_rules::powers::{PowerRefusal, Tie};
use asamblea_wire::{Digest, Id, LodgedPower, Reception, Substitute, Text};

/// A substitute named in a power, as typed or read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubstituteInput {
    /// Their document (`CC-52111222`).
    pub id: String,
    /// Their name; may be empty.
    pub name: String,
    /// Their declared tie to the company.
    pub tie: Tie,
}

/// A power as typed at the desk or read from the powers file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PowerInput {
    /// The company's filing number for it, unique in the meeting.
    pub reference: String,
    /// The holders who give it.
    pub principals: Vec<String>,
    /// The agent's document; empty when the power names no agent.
    pub agent: String,
    /// The agent's name; empty when the power gives none.
    pub agent_name: String,
    /// The agent's declared tie to the company.
    pub agent_tie: Tie,
    /// The company suggested the agent.
    pub suggested: bool,
    /// The substitutes (0 to 4).
    pub substitutes: Vec<SubstituteInput>,
    /// The date or period of the meeting as the power words it; empty when
    /// it names none.
    pub meeting_date: String,
    /// How the company received it.
    pub received_via: Reception,
    /// When, `YYYY-MM-DD`.
    pub received_on: String,
    /// SHA-256 of the scanned document or signed PDF, 64 hex digits.
    pub document_sha256: String,
    /// The desk's judgement of the document, if it refuses it:
    /// `document-rejected` or `wrong-meeting` only (the rules' reasons are
    /// computed, never typed).
    pub judgement: Option<PowerRefusal>,
}

/// What is wrong with one field of a power: the field and why, Spanish
/// first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldProblem {
    /// The field, as the file's column and the API's key name it.
    pub field: &'static str,
    /// Why, `español / English`.
    pub message: String,
}

impl FieldProblem {
    /// The problem in Spanish, then in English, each naming the field.
    pub fn words(&self) -> (String, String) {
        let (es, en) = self.message.split_once(" / ").unwrap_or((&self.message, &self.message));
        (format!("`{}`: {es}", self.field), format!("`{}`: {en}", self.field))
    }
}

impl std::fmt::Display for FieldProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`: {}", self.field, self.message)
    }
}

fn problem(field: &'static str, message: impl Into<String>) -> FieldProblem {
    FieldProblem { field, message: message.into() }
}

fn checked_id(field: &'static str, raw: &str) -> Result<Id, FieldProblem> {
    let text = crate::text::checked_id(raw).map_err(|p| problem(field, p.to_string()))?;
    Id::new(&text).map_err(|e| problem(field, e.to_string()))
}

fn text(field: &'static str, raw: &str) -> Result<Text, FieldProblem> {
    let trimmed = crate::text::trim(raw);
    Text::new(trimmed).map_err(|e| {
        problem(field, format!("no cabe o no es texto válido / does not fit or is not valid text: {e}"))
    })
}

impl PowerInput {
    /// The power as the ledger records it, with no verdict yet (`None`
    /// stands for "not judged"; [`crate::service::Service`] sets it), or
    /// the first field that is wrong.
    pub fn to_lodged(&self) -> Result<LodgedPower, FieldProblem> {
        let power = checked_id("power", &self.reference)?;
        if self.principals.is_empty() {
            return Err(problem(
                "principals",
                "el poder no nombra ningún poderdante / the power names no principal",
            ));
        }
        if self.principals.len() > asamblea_wire::limits::MAX_PRINCIPALS {
            return Err(problem(
                "principals",
                format!(
                    "más de {} poderdantes en un poder / more than {} principals in one power",
                    asamblea_wire::limits::MAX_PRINCIPALS,
                    asamblea_wire::limits::MAX_PRINCIPALS
                ),
            ));
        }
        let mut principals =
            self.principals.iter().map(|p| checked_id("principals", p)).collect::<Result<Vec<_>, _>>()?;
        principals.sort();
        if let Some(twice) = principals.windows(2).find(|w| w[0] == w[1]) {
            return Err(problem(
                "principals",
                format!("`{}` aparece dos veces / appears twice", twice[0].as_str()),
            ));
        }
        let agent = match crate::text::trim(&self.agent) {
            "" => None,
            raw => Some(checked_id("agent", raw)?),
        };
        if self.substitutes.len() > asamblea_wire::limits::MAX_SUBSTITUTES {
            return Err(problem(
                "substitutes",
                format!(
                    "a lo sumo {} sustitutos / at most {} substitutes",
                    asamblea_wire::limits::MAX_SUBSTITUTES,
                    asamblea_wire::limits::MAX_SUBSTITUTES
                ),
            ));
        }
        let mut substitutes = self
            .substitutes
            .iter()
            .map(|s| {
                Ok(Substitute {
                    id: checked_id("substitutes", &s.id)?,
                    name: text("substitutes", &s.name)?,
                    tie: s.tie,
                })
            })
            .collect::<Result<Vec<_>, FieldProblem>>()?;
        substitutes.sort_by(|a, b| a.id.cmp(&b.id));
        if let Some(twice) = substitutes.windows(2).find(|w| w[0].id == w[1].id) {
            return Err(problem(
                "substitutes",
                format!("`{}` aparece dos veces / appears twice", twice[0].id.as_str()),
            ));
        }
        if agent.as_ref().is_some_and(|a| substitutes.iter().any(|s| s.id == *a)) {
            return Err(problem(
                "substitutes",
                "el apoderado no puede ser también su sustituto / the agent cannot also be their own substitute",
            ));
        }
        let received_on = crate::text::trim(&self.received_on);
        asamblea_rules::calendar::Date::parse(received_on)
            .map_err(|e| problem("received_on", crate::meeting_config::date_problem(received_on, e)))?;
        let document = parse_sha256(&self.document_sha256)?;
        if let Some(judgement) = self.judgement {
            if !judgement.is_judgement() {
                return Err(problem(
                    "judgement",
                    format!(
                        "`{}` lo deciden las reglas, no la mesa: la mesa solo rechaza un documento (`document-rejected`) o uno para otra reunión (`wrong-meeting`) / `{}` is the rules' to decide, not the desk's",
                        judgement.code(),
                        judgement.code()
                    ),
                ));
            }
        }
        Ok(LodgedPower {
            power,
            principals,
            agent,
            agent_name: text("agent_name", &self.agent_name)?,
            agent_tie: self.agent_tie,
            suggested: self.suggested,
            substitutes,
            meeting_date: text("meeting_date", &self.meeting_date)?,
            received_via: self.received_via,
            received_on: text("received_on", received_on)?,
            document,
            verdict: self.judgement,
        })
    }
}

/// 64 hex digits (either case), or what is wrong.
fn parse_sha256(raw: &str) -> Result<Digest, FieldProblem> {
    let hex = crate::text::trim(raw);
    let bytes = (hex.len() == 64 && hex.is_ascii())
        .then(|| {
            (0..32).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()).collect::<Option<Vec<u8>>>()
        })
        .flatten();
    match bytes {
        Some(bytes) => Ok(Digest(bytes.try_into().expect("32 bytes"))),
        None => Err(problem(
            "document_sha256",
            format!(
                "`{hex}` no es un SHA-256 (64 dígitos hexadecimales): calcúlelo con `sha256sum` sobre el documento escaneado / is not a SHA-256 (64 hex digits): compute it with `sha256sum` on the scanned document"
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn input() -> PowerInput {
        PowerInput {
            reference: "P-0001".into(),
            principals: vec!["CC-2".into(), "CC-1".into()],
            agent: "CC-77".into(),
            agent_name: "Ana Apoderada".into(),
            agent_tie: Tie::None,
            suggested: false,
            substitutes: vec![SubstituteInput { id: "CC-78".into(), name: "Sara".into(), tie: Tie::None }],
            meeting_date: "2027-03-25".into(),
            received_via: Reception::Email,
            received_on: "2027-03-10".into(),
            document_sha256: "ab".repeat(32),
            judgement: None,
        }
    }

    #[test]
    fn a_good_power_is_sorted_and_carries_no_verdict() {
        let lodged = input().to_lodged().unwrap();
        assert_eq!(lodged.principals.iter().map(Id::as_str).collect::<Vec<_>>(), ["CC-1", "CC-2"]);
        assert_eq!(lodged.verdict, None);
        assert_eq!(lodged.document.0, [0xab; 32]);
    }

    #[test]
    fn each_bad_field_is_named() {
        let field = |change: fn(&mut PowerInput)| {
            let mut i = input();
            change(&mut i);
            i.to_lodged().unwrap_err().field
        };
        assert_eq!(field(|i| i.reference = " ".into()), "power");
        assert_eq!(field(|i| i.principals.clear()), "principals");
        assert_eq!(field(|i| i.principals.push("CC-1".into())), "principals");
        assert_eq!(field(|i| i.principals.push("CC 9".into())), "principals");
        assert_eq!(field(|i| i.agent = "a@b".into()), "agent");
        assert_eq!(field(|i| i.substitutes[0].id = "CC-77".into()), "substitutes");
        assert_eq!(field(|i| i.substitutes = vec![SubstituteInput::default(); 5]), "substitutes");
        assert_eq!(field(|i| i.received_on = "10/03/2027".into()), "received_on");
        assert_eq!(field(|i| i.document_sha256 = "ab".repeat(31)), "document_sha256");
        assert_eq!(field(|i| i.document_sha256 = "zz".repeat(32)), "document_sha256");
        assert_eq!(field(|i| i.judgement = Some(PowerRefusal::AlreadyCovered)), "judgement");
        // Missing agent and date are the rules' refusals, not the form's.
        let mut blank = input();
        blank.agent.clear();
        blank.agent_name.clear();
        blank.meeting_date.clear();
        assert!(blank.to_lodged().is_ok());
    }
}
