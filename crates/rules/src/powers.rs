//! Powers of attorney lodged before the meeting (R2, HY-13, HY-14): which
//! the rules accept, and why they refuse the others.
//!
//! A power (poder, C.Co Art. 184) is lodged with the company during the
//! notice: written, naming the agent, any substitute and the meeting. The
//! registration desk verifies it ahead (Aval Art. 5: "la verificación
//! previa de poderes") and the ledger records the verdict; a verifier
//! recomputes it here. The checks run in one fixed order and the first
//! that fails is the reason, so a verdict has exactly one right answer:
//!
//! 1. `missing-agent`: no agent named, by document and name (Art. 184;
//!    for a listed issuer also the Superfinanciera's rule against blank
//!    powers, HY-14).
//! 2. `missing-date`: the power names no date or period of the meeting
//!    (Art. 184).
//! 3. `unknown-holder`: a principal is not in the register.
//! 4. `agent-barred`: the agent is an administrator or employee, by the
//!    register or by the power's declaration (Art. 185: they may not
//!    represent shares other than their own).
//! 5. `substitute-barred`: a substitute is (Art. 185 again: the power
//!    would put the shares in such hands).
//! 6. `tied-to-administration`: a listed issuer only — the agent or a
//!    substitute is a person tied to the administration (HY-14).
//! 7. `suggested-by-company`: a listed issuer only — the company suggested
//!    the agent (HY-14).
//! 8. `already-covered`: a principal's shares are covered by another
//!    accepted power not revoked (R2: one channel per holder).
//!
//! Two reasons are the desk's judgement of the document, which no rule
//! can recompute: `document-rejected` (unsigned, illegible, not the
//! holder's) and `wrong-meeting` (it names another meeting). A verifier
//! accepts them as recorded. Voting instructions are never part of a
//! power here: never asked for, never shown (SFC 2015060395-003).

use crate::register::{HolderIndex, Register};

/// How a person named in a power is tied to the company, as the power or
/// its cover letter declares it (the register adds the roles it knows).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tie {
    /// None declared.
    #[default]
    None,
    /// An administrator (board member, legal representative…).
    Administrator,
    /// An employee.
    Employee,
    /// Tied to the administration in another way (a relative, the
    /// company's counsel…): barred for a listed issuer (HY-14).
    Administration,
}

impl Tie {
    /// The code used in files and the API.
    pub const fn code(self) -> &'static str {
        match self {
            Tie::None => "none",
            Tie::Administrator => "administrator",
            Tie::Employee => "employee",
            Tie::Administration => "tied-to-administration",
        }
    }

    /// The tie of a code, if it is one.
    pub fn from_code(code: &str) -> Option<Tie> {
        [Tie::None, Tie::Administrator, Tie::Employee, Tie::Administration]
            .into_iter()
            .find(|t| t.code() == code)
    }

    /// An administrator or employee (Art. 185).
    pub const fn is_administrator_or_employee(self) -> bool {
        matches!(self, Tie::Administrator | Tie::Employee)
    }
}

/// Why a lodged power is refused; see the module's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PowerRefusal {
    /// No agent named (document and name).
    MissingAgent,
    /// No date or period of the meeting.
    MissingDate,
    /// A principal is not in the register.
    UnknownHolder,
    /// The agent is an administrator or employee.
    AgentBarred,
    /// A substitute is an administrator or employee.
    SubstituteBarred,
    /// Listed issuer: the agent or a substitute is tied to the
    /// administration.
    TiedToAdministration,
    /// Listed issuer: the company suggested the agent.
    SuggestedByCompany,
    /// A principal is covered by another accepted power.
    AlreadyCovered,
    /// The desk found the document wanting (a judgement, not a rule).
    DocumentRejected,
    /// The power names another meeting (a judgement, not a rule).
    WrongMeeting,
}

impl PowerRefusal {
    /// Every reason, in the order of the checks, then the judgements.
    pub const ALL: [PowerRefusal; 10] = [
        PowerRefusal::MissingAgent,
        PowerRefusal::MissingDate,
        PowerRefusal::UnknownHolder,
        PowerRefusal::AgentBarred,
        PowerRefusal::SubstituteBarred,
        PowerRefusal::TiedToAdministration,
        PowerRefusal::SuggestedByCompany,
        PowerRefusal::AlreadyCovered,
        PowerRefusal::DocumentRejected,
        PowerRefusal::WrongMeeting,
    ];

    /// The stable code.
    pub const fn code(self) -> &'static str {
        match self {
            PowerRefusal::MissingAgent => "missing-agent",
            PowerRefusal::MissingDate => "missing-date",
            PowerRefusal::UnknownHolder => "unknown-holder",
            PowerRefusal::AgentBarred => "agent-barred",
            PowerRefusal::SubstituteBarred => "substitute-barred",
            PowerRefusal::TiedToAdministration => "tied-to-administration",
            PowerRefusal::SuggestedByCompany => "suggested-by-company",
            PowerRefusal::AlreadyCovered => "already-covered",
            PowerRefusal::DocumentRejected => "document-rejected",
            PowerRefusal::WrongMeeting => "wrong-meeting",
        }
    }

    /// The reason of a code, if it is one.
    pub fn from_code(code: &str) -> Option<PowerRefusal> {
        PowerRefusal::ALL.into_iter().find(|r| r.code() == code)
    }

    /// True for the desk's judgements, which no rule recomputes.
    pub const fn is_judgement(self) -> bool {
        matches!(self, PowerRefusal::DocumentRejected | PowerRefusal::WrongMeeting)
    }

    /// What the desk and the acta say, in Spanish, then in English.
    pub const fn words(self) -> (&'static str, &'static str) {
        match self {
            PowerRefusal::MissingAgent => ("no nombra al apoderado (art. 184 C.Co.)", "names no agent (C.Co art. 184)"),
            PowerRefusal::MissingDate => (
                "no indica la fecha o época de la reunión (art. 184 C.Co.)",
                "names no date of the meeting (C.Co art. 184)",
            ),
            PowerRefusal::UnknownHolder => {
                ("un poderdante no está en el libro de accionistas", "a principal is not in the share register")
            }
            PowerRefusal::AgentBarred => (
                "el apoderado es administrador o empleado de la sociedad (art. 185 C.Co.)",
                "the agent is an administrator or employee of the company (C.Co art. 185)",
            ),
            PowerRefusal::SubstituteBarred => (
                "un sustituto es administrador o empleado de la sociedad (art. 185 C.Co.)",
                "a substitute is an administrator or employee of the company (C.Co art. 185)",
            ),
            PowerRefusal::TiedToAdministration => (
                "emisor inscrito: el apoderado o un sustituto está vinculado a la administración (Superfinanciera)",
                "listed issuer: the agent or a substitute is tied to the administration (Superfinanciera)",
            ),
            PowerRefusal::SuggestedByCompany => (
                "emisor inscrito: la sociedad sugirió al apoderado (Superfinanciera)",
                "listed issuer: the company suggested the agent (Superfinanciera)",
            ),
            PowerRefusal::AlreadyCovered => (
                "las acciones de un poderdante ya están cubiertas por otro poder aceptado",
                "a principal's shares are already covered by another accepted power",
            ),
            PowerRefusal::DocumentRejected => (
                "la mesa rechazó el documento (sin firma, ilegible o de otra persona)",
                "the desk rejected the document (unsigned, illegible or not the holder's)",
            ),
            PowerRefusal::WrongMeeting => ("el poder es para otra reunión", "the power is for another meeting"),
        }
    }
}

/// A lodged power as the rules read it.
#[derive(Clone, Copy, Debug)]
pub struct PowerTerms<'a> {
    /// The principals' ids.
    pub principals: &'a [&'a str],
    /// The agent's document, when the power names one.
    pub agent: Option<&'a str>,
    /// Whether the power gives the agent's name.
    pub agent_named: bool,
    /// The agent's declared tie.
    pub agent_tie: Tie,
    /// Whether the company suggested the agent.
    pub suggested: bool,
    /// The substitutes' documents with their declared ties.
    pub substitutes: &'a [(&'a str, Tie)],
    /// Whether the power names the date or period of the meeting.
    pub dated: bool,
}

/// The rules' verdict on a power: its principals in the register when
/// accepted, or the first reason (module order) to refuse it.
/// `covered` says whether a holder's shares are already covered by another
/// accepted power; `listed` is the meeting's setting.
pub fn check_power(
    register: &Register,
    listed: bool,
    covered: impl Fn(HolderIndex) -> bool,
    terms: &PowerTerms<'_>,
) -> Result<Vec<HolderIndex>, PowerRefusal> {
    let Some(agent) = terms.agent.filter(|_| terms.agent_named) else {
        return Err(PowerRefusal::MissingAgent);
    };
    if !terms.dated {
        return Err(PowerRefusal::MissingDate);
    }
    let principals = terms
        .principals
        .iter()
        .map(|p| register.lookup(p).ok_or(PowerRefusal::UnknownHolder))
        .collect::<Result<Vec<_>, _>>()?;
    let in_register = |id: &str| register.lookup(id).and_then(|at| register.holder(at).role()).is_some();
    if terms.agent_tie.is_administrator_or_employee() || in_register(agent) {
        return Err(PowerRefusal::AgentBarred);
    }
    if terms.substitutes.iter().any(|&(id, tie)| tie.is_administrator_or_employee() || in_register(id)) {
        return Err(PowerRefusal::SubstituteBarred);
    }
    if listed {
        if terms.agent_tie == Tie::Administration
            || terms.substitutes.iter().any(|&(_, tie)| tie == Tie::Administration)
        {
            return Err(PowerRefusal::TiedToAdministration);
        }
        if terms.suggested {
            return Err(PowerRefusal::SuggestedByCompany);
        }
    }
    if principals.iter().any(|&p| covered(p)) {
        return Err(PowerRefusal::AlreadyCovered);
    }
    Ok(principals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::register::{Capital, ClassCapital, HolderSpec, Role};
    use crate::shares::{ClassShares, Shares};

    fn register() -> Register {
        let big = Shares::new(6_000_000_000);
        let capital = Capital {
            ordinary: ClassCapital::new(Shares::new(20_000_000_000), Shares::ZERO).unwrap(),
            preferred: ClassCapital::new(Shares::new(1), Shares::ZERO).unwrap(),
        };
        let holder = |id: &str, role| HolderSpec {
            id: id.into(),
            holdings: ClassShares { ordinary: big, preferred: Shares::ZERO },
            role,
            split: None,
        };
        Register::new(
            capital,
            vec![holder("CC-1", None), holder("CC-2", None), holder("CC-9", Some(Role::Employee))],
        )
        .unwrap()
    }

    fn terms<'a>(principals: &'a [&'a str], substitutes: &'a [(&'a str, Tie)]) -> PowerTerms<'a> {
        PowerTerms {
            principals,
            agent: Some("CC-77"),
            agent_named: true,
            agent_tie: Tie::None,
            suggested: false,
            substitutes,
            dated: true,
        }
    }

    fn verdict(listed: bool, t: &PowerTerms<'_>) -> Result<Vec<HolderIndex>, PowerRefusal> {
        check_power(&register(), listed, |_| false, t)
    }

    #[test]
    fn a_complete_power_is_accepted_with_its_principals() {
        let got = verdict(true, &terms(&["CC-1", "CC-2"], &[("CC-78", Tie::None)])).unwrap();
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn each_reason_at_its_boundary_and_in_order() {
        let ok = terms(&["CC-1"], &[]);
        let refused = |listed, t: PowerTerms<'_>| verdict(listed, &t).unwrap_err();
        assert_eq!(refused(false, PowerTerms { agent: None, ..ok }), PowerRefusal::MissingAgent);
        assert_eq!(refused(false, PowerTerms { agent_named: false, ..ok }), PowerRefusal::MissingAgent);
        // The first check that fails is the reason: no agent and no date
        // says the agent.
        assert_eq!(
            refused(false, PowerTerms { agent: None, dated: false, ..ok }),
            PowerRefusal::MissingAgent
        );
        assert_eq!(refused(false, PowerTerms { dated: false, ..ok }), PowerRefusal::MissingDate);
        assert_eq!(refused(false, terms(&["CC-1", "CC-404"], &[])), PowerRefusal::UnknownHolder);
        assert_eq!(refused(false, PowerTerms { agent_tie: Tie::Employee, ..ok }), PowerRefusal::AgentBarred);
        assert_eq!(
            refused(false, PowerTerms { agent_tie: Tie::Administrator, ..ok }),
            PowerRefusal::AgentBarred
        );
        // The register's role bars an agent who declared none.
        assert_eq!(refused(false, PowerTerms { agent: Some("CC-9"), ..ok }), PowerRefusal::AgentBarred);
        assert_eq!(refused(false, terms(&["CC-1"], &[("CC-9", Tie::None)])), PowerRefusal::SubstituteBarred);
        assert_eq!(
            refused(false, terms(&["CC-1"], &[("CC-5", Tie::Administrator)])),
            PowerRefusal::SubstituteBarred
        );
    }

    #[test]
    fn the_conduct_rules_bind_a_listed_issuer_only() {
        let ok = terms(&["CC-1"], &[]);
        let tied = PowerTerms { agent_tie: Tie::Administration, ..ok };
        let suggested = PowerTerms { suggested: true, ..ok };
        let tied_substitute = terms(&["CC-1"], &[("CC-5", Tie::Administration)]);
        assert_eq!(verdict(true, &tied).unwrap_err(), PowerRefusal::TiedToAdministration);
        assert_eq!(verdict(true, &tied_substitute).unwrap_err(), PowerRefusal::TiedToAdministration);
        assert_eq!(verdict(true, &suggested).unwrap_err(), PowerRefusal::SuggestedByCompany);
        assert!(verdict(false, &tied).is_ok());
        assert!(verdict(false, &tied_substitute).is_ok());
        assert!(verdict(false, &suggested).is_ok());
    }

    #[test]
    fn shares_covered_by_another_power_refuse_the_second() {
        let register = register();
        let first = register.lookup("CC-2").unwrap();
        let t = terms(&["CC-1", "CC-2"], &[]);
        assert_eq!(
            check_power(&register, false, |h| h == first, &t).unwrap_err(),
            PowerRefusal::AlreadyCovered
        );
        // Another holder's coverage does not touch this power.
        let other = register.lookup("CC-9").unwrap();
        assert!(check_power(&register, false, |h| h == other, &t).is_ok());
    }

    #[test]
    fn codes_and_words_are_distinct_and_round_trip() {
        for (i, r) in PowerRefusal::ALL.into_iter().enumerate() {
            assert_eq!(PowerRefusal::from_code(r.code()), Some(r));
            assert!(PowerRefusal::ALL[..i].iter().all(|e| e.code() != r.code() && e.words() != r.words()));
        }
        for t in [Tie::None, Tie::Administrator, Tie::Employee, Tie::Administration] {
            assert_eq!(Tie::from_code(t.code()), Some(t));
        }
        assert!(
            PowerRefusal::DocumentRejected.is_judgement() && !PowerRefusal::AlreadyCovered.is_judgement()
        );
    }
}
