//! Powers of attorney lodged before the meeting (ledger-format §3.19,
//! §3.20): each verdict held to the rules, a reference used once, the
//! principal's arrival revoking what the power covered, a substitute
//! recorded as such, and a power that covers every session.

use asamblea_ledger::{Rejection, SubmitError};
use asamblea_rules::powers::{PowerRefusal, Tie};
use asamblea_wire::{Digest, EventBody, LodgedPower, Reception, Revocation, Substitute, Text};

use crate::fixture::{chair, settings, staff, MEETING};
use crate::sessions::{note, Meeting};
use crate::support::{id, sign, T0};

/// A complete power of `principals` to `CC-77`, with `CC-78` as its
/// substitute, recorded with `verdict`.
fn power(reference: &str, principals: &[&str], verdict: Option<PowerRefusal>) -> LodgedPower {
    LodgedPower {
        power: id(reference),
        principals: principals.iter().map(|p| id(p)).collect(),
        agent: Some(id("CC-77")),
        agent_name: Text::new("Ana Apoderada").unwrap(),
        agent_tie: Tie::None,
        suggested: false,
        substitutes: vec![Substitute {
            id: id("CC-78"),
            name: Text::new("Sara Sustituta").unwrap(),
            tie: Tie::None,
        }],
        meeting_date: Text::new("2026-03-26").unwrap(),
        received_via: Reception::Email,
        received_on: Text::new("2026-03-10").unwrap(),
        document: Digest::sha256(reference.as_bytes()),
        verdict,
    }
}

fn lodge(m: &mut Meeting, p: LodgedPower) -> Result<(), SubmitError> {
    let event = m.event(EventBody::PowerLodged(p));
    m.journal.submit(sign(&MEETING, &staff(), event)).map(drop)
}

fn mismatch(recorded: &'static str, actual: Option<PowerRefusal>) -> Result<(), SubmitError> {
    Err(SubmitError::Rejected(Rejection::PowerVerdictMismatch { recorded, actual }))
}

#[test]
fn each_verdict_is_the_rules_and_a_reference_is_used_once() {
    let mut m = Meeting::convened("powers-verdicts", &[]);
    lodge(&mut m, power("P-1", &["H01", "H03"], None)).expect("a complete power is accepted");
    // H03 is covered now: a second power for it is refused, and only so.
    assert_eq!(
        lodge(&mut m, power("P-2", &["H03", "H04"], None)),
        mismatch("accepted", Some(PowerRefusal::AlreadyCovered))
    );
    lodge(&mut m, power("P-2", &["H03", "H04"], Some(PowerRefusal::AlreadyCovered)))
        .expect("refused as the rules do");
    assert_eq!(
        lodge(&mut m, power("P-2", &["H06"], None)),
        Err(SubmitError::Rejected(Rejection::PowerInUse("P-2".into())))
    );
    // H05 is an administrator in the register: barred as agent and as
    // substitute (Art. 185), whatever the power declares.
    let mut by_h05 = power("P-3", &["H06"], None);
    by_h05.agent = Some(id("H05"));
    assert_eq!(lodge(&mut m, by_h05.clone()), mismatch("accepted", Some(PowerRefusal::AgentBarred)));
    by_h05.substitutes[0].id = id("H05");
    by_h05.agent = Some(id("CC-77"));
    assert_eq!(lodge(&mut m, by_h05.clone()), mismatch("accepted", Some(PowerRefusal::SubstituteBarred)));
    // A wrong reason is refused too, and a judgement stands as recorded.
    assert_eq!(
        lodge(&mut m, power("P-4", &["H06"], Some(PowerRefusal::MissingDate))),
        mismatch("missing-date", None)
    );
    lodge(&mut m, power("P-4", &["H06"], Some(PowerRefusal::DocumentRejected)))
        .expect("the desk's judgement");
    let mut undated = power("P-5", &["H08"], Some(PowerRefusal::MissingDate));
    undated.meeting_date = Text::new(" ").unwrap();
    lodge(&mut m, undated).expect("a power naming no date is refused as missing-date");
    // A refused power covers nobody: H06 and H04 may still be covered.
    lodge(&mut m, power("P-6", &["H04", "H06"], None)).expect("accepted");
    let powers = m.journal.state().powers();
    assert_eq!(powers.all().len(), 5, "P-1, P-2, P-4, P-5, P-6: P-3 was never admitted");
    assert_eq!(powers.all().iter().filter(|p| p.accepted()).count(), 2);
    assert_eq!(powers.get("P-2").and_then(|p| p.power.verdict), Some(PowerRefusal::AlreadyCovered));
}

#[test]
fn the_conduct_rules_bind_only_a_listed_issuer() {
    let listed = asamblea_rules::Settings { listed: true, ..settings() };
    let mut m = Meeting::convened_with("powers-listed", &[], listed);
    let mut suggested = power("P-1", &["H01"], None);
    suggested.suggested = true;
    assert_eq!(
        lodge(&mut m, suggested.clone()),
        mismatch("accepted", Some(PowerRefusal::SuggestedByCompany))
    );
    let mut tied = power("P-2", &["H02"], None);
    tied.substitutes[0].tie = Tie::Administration;
    assert_eq!(lodge(&mut m, tied), mismatch("accepted", Some(PowerRefusal::TiedToAdministration)));
    let mut unlisted = Meeting::convened("powers-unlisted", &[]);
    lodge(&mut unlisted, suggested).expect("an unlisted company may accept a suggested agent");
}

#[test]
fn the_principal_arriving_revokes_and_the_agent_or_substitute_carries_the_rest() {
    let mut m = Meeting::convened("powers-arrivals", &[]);
    lodge(&mut m, power("P-1", &["H01", "H03", "H04"], None)).unwrap();
    // H03 arrives first, in person: the power stops covering it.
    let revoke = |principal: &str| EventBody::PowerRevoked {
        power: id("P-1"),
        principal: id(principal),
        reason: Revocation::PrincipalArrived,
    };
    m.submit(&staff(), revoke("H03"));
    m.submit(&staff(), EventBody::CheckedInPerson { holder: id("H03") });
    let again = m.event(revoke("H03"));
    assert!(matches!(
        m.journal.submit(sign(&MEETING, &staff(), again)),
        Err(SubmitError::Rejected(Rejection::PowerNotCovering { .. }))
    ));
    // The substitute comes instead of the agent, with the two left.
    m.submit(
        &staff(),
        EventBody::CheckedInAgent(asamblea_wire::AgentArrival {
            agent: id("CC-78"),
            principals: vec![id("H01"), id("H04")],
            capacity: asamblea_rules::Capacity::Proxy,
            declared_role: None,
            power_document: Text::new("P-1").unwrap(),
        }),
    );
    let record = m.journal.state().powers().get("P-1").unwrap().clone();
    assert_eq!(record.revoked_for("H03"), Some(Revocation::PrincipalArrived));
    let used: Vec<_> = record.used.iter().map(|(p, by, sub, _)| (p.as_str(), by.as_str(), *sub)).collect();
    assert_eq!(used, [("H01", "CC-78", true), ("H04", "CC-78", true)]);
    // Then H04 arrives in person: revoked, taken from the substitute, in.
    m.submit(&staff(), revoke("H04"));
    m.submit(&staff(), EventBody::CheckedOut { person: id("H04") });
    m.submit(&staff(), EventBody::CheckedInPerson { holder: id("H04") });
    let meeting = m.journal.state().meeting().unwrap();
    let carried: Vec<_> =
        meeting.carried_by("CC-78").map(|h| meeting.register().holder(h).id().to_string()).collect();
    assert_eq!(carried, ["H01"]);
    assert!(meeting.presence().is_present(meeting.register().lookup("H04").unwrap()));
}

#[test]
fn a_power_covers_every_session_and_is_lodged_only_before_the_installation() {
    let mut m = Meeting::convened("powers-sessions", &["H01", "H02"]);
    lodge(&mut m, power("P-1", &["H03", "H10"], None)).unwrap();
    m.at(T0, &chair(), EventBody::MeetingInstalled { note: note() }).expect("installed");
    assert!(matches!(
        lodge(&mut m, power("P-2", &["H06"], None)),
        Err(SubmitError::Rejected(Rejection::OutOfPlace(_)))
    ));
    let arrival = || {
        EventBody::CheckedInAgent(asamblea_wire::AgentArrival {
            agent: id("CC-77"),
            principals: vec![id("H03"), id("H10")],
            capacity: asamblea_rules::Capacity::Proxy,
            declared_role: None,
            power_document: Text::new("P-1").unwrap(),
        })
    };
    m.at(T0 + 1_000, &staff(), arrival()).expect("first session");
    m.at(T0 + 2_000, &staff(), EventBody::CheckedOut { person: id("CC-77") }).expect("left");
    m.at(T0 + 3_000, &chair(), EventBody::MeetingSuspended { note: note() }).expect("suspended");
    m.at(T0 + 86_400_000, &chair(), EventBody::MeetingResumed { note: note() }).expect("resumed next day");
    m.at(T0 + 86_401_000, &staff(), arrival()).expect("the same power, the second session");
    let record = m.journal.state().powers().get("P-1").unwrap();
    assert_eq!(record.used.len(), 4, "each principal carried in each session");
    assert!(record.used.iter().all(|(_, by, substitute, _)| by.as_str() == "CC-77" && !substitute));
}

/// The name a power gives a person is the one it gives *them*: the
/// agent's for the agent, the substitute's for the substitute; an
/// accepted power's before a refused one's; none for someone no power
/// names.
#[test]
fn a_power_names_its_agent_and_its_substitute_each_by_their_own_name() {
    let mut m = Meeting::convened("powers-names", &[]);
    let mut refused = power("P-0", &["H06"], Some(PowerRefusal::DocumentRejected));
    refused.agent_name = Text::new("Ana (mal escrito)").unwrap();
    lodge(&mut m, refused).unwrap();
    lodge(&mut m, power("P-1", &["H01"], None)).unwrap();
    let powers = m.journal.state().powers();
    assert_eq!(powers.name_of("CC-77"), Some("Ana Apoderada"), "the accepted power's, though lodged later");
    assert_eq!(powers.name_of("CC-78"), Some("Sara Sustituta"), "the substitute by her own name");
    assert_eq!(powers.name_of("CC-99"), None);
}
