//! The remote attendee (ledger-format §3.24–3.27): a credential only after
//! the desk verified the person and the key their browser made (HY-2); a
//! remote arrival signed with it; one channel per person (R2), a move
//! being a departure and an arrival; a ballot signed through its own
//! channel only; a revoked credential that signs nothing.

use asamblea_ledger::Rejection;
use asamblea_rules::{Medium, OptionIndex, Refusal};
use asamblea_wire::{
    Ballot, Choice, CredentialId, Digest, EventBody, HolderVote, Keypair, Prose, SubmissionKind,
    SubmissionOutcome, Text, VerificationMethod,
};

use crate::fixture::{chair, daemon, staff};
use crate::sessions::{note, Meeting};
use crate::support::{id, T0};

/// The key a remote attendee's browser made.
fn phone(n: u8) -> Keypair {
    Keypair::from_seed(&[0x60 + n; 32])
}

fn verified(person: &str, key: &Keypair) -> EventBody {
    EventBody::IdentityVerified {
        person: id(person),
        key: key.public_key(),
        method: VerificationMethod::VideoCall,
        evidence: Digest::sha256(b"videollamada 10:02, cedula vista"),
    }
}

fn credential(n: u32, person: &str, key: &Keypair) -> EventBody {
    EventBody::RemoteCredentialIssued {
        credential: CredentialId(n),
        key: key.public_key(),
        person: id(person),
    }
}

fn remote_arrival(n: u32, principals: &[&str]) -> EventBody {
    EventBody::CheckedInRemote {
        credential: CredentialId(n),
        principals: principals.iter().map(|p| id(p)).collect(),
    }
}

fn ballot(n: u32, item: &str, holders: &[&str]) -> EventBody {
    EventBody::Ballot(Ballot {
        item: id(item),
        credential: CredentialId(n),
        votes: holders
            .iter()
            .map(|h| HolderVote { holder: id(h), choice: Choice::Whole(OptionIndex::FOR) })
            .collect(),
    })
}

fn try_submit(m: &mut Meeting, key: &Keypair, body: EventBody) -> Result<(), Rejection> {
    m.try_submit(key, body)
}

#[test]
fn a_presencial_meeting_admits_no_remote_attendee() {
    // No `meeting-modality`: presencial (HY-1).
    let mut m = Meeting::convened("remote-presencial", &[]);
    let key = phone(1);
    assert_eq!(try_submit(&mut m, &staff(), verified("H01", &key)), Err(Rejection::RemoteNotAllowed));
    assert_eq!(try_submit(&mut m, &staff(), credential(1, "H01", &key)), Err(Rejection::RemoteNotAllowed));
    assert!(!m.journal.state().remote_attendance_allowed());
    // The same verification in a mixed meeting is admitted.
    let mut mixed = Meeting::convened_mixed("remote-mixed", &[]);
    assert!(mixed.journal.state().remote_attendance_allowed());
    mixed.submit(&staff(), verified("H01", &key));
}

#[test]
fn a_credential_needs_the_verification_of_that_person_and_that_key() {
    let mut m = Meeting::convened_mixed("remote-verified", &[]);
    let key = phone(1);
    assert_eq!(
        try_submit(&mut m, &staff(), credential(1, "H01", &key)),
        Err(Rejection::NotVerified("H01".into()))
    );
    assert_eq!(
        try_submit(&mut m, &staff(), verified("CC-404", &key)),
        Err(Rejection::NotRemoteAttendee("CC-404".into())),
        "neither a holder nor a lodged power's agent"
    );
    // The operator verifies; a chair's key may not.
    assert!(matches!(
        try_submit(&mut m, &chair(), verified("H01", &key)),
        Err(Rejection::SignerNotAllowed { .. })
    ));
    m.submit(&staff(), verified("H01", &key));
    assert_eq!(try_submit(&mut m, &staff(), verified("H02", &key)), Err(Rejection::KeyInUse));
    // The key verified for H01 is not H02's.
    assert_eq!(
        try_submit(&mut m, &staff(), credential(1, "H02", &key)),
        Err(Rejection::NotVerified("H02".into()))
    );
    m.submit(&staff(), credential(1, "H01", &key));
    let state = m.journal.state();
    assert!(state.is_remote_credential(CredentialId(1)));
    let v = state.verification(&key.public_key()).expect("recorded");
    assert_eq!(
        (v.person.as_str(), v.method, v.verified_by),
        ("H01", VerificationMethod::VideoCall, staff().public_key())
    );
}

#[test]
fn one_channel_per_person_and_a_move_is_a_departure_and_an_arrival() {
    let mut m = Meeting::convened_mixed("remote-channel", &["H02", "H03"]);
    let key = phone(2);
    m.submit(&staff(), verified("H01", &key));
    m.submit(&staff(), credential(1, "H01", &key));
    // Signed by the credential's key only: the desk cannot arrive for them.
    assert!(matches!(
        try_submit(&mut m, &staff(), remote_arrival(1, &["H01"])),
        Err(Rejection::SignerNotAllowed { .. })
    ));
    m.submit(&key, remote_arrival(1, &["H01"]));
    assert_eq!(m.journal.state().medium_of("H01"), Some(Medium::Remote));
    assert_eq!(
        m.journal.state().meeting().unwrap().presence().voting_shares().get(),
        550_000,
        "HY-3: counted as any holder"
    );
    // In the room while remote: refused, by the desk's channel check.
    assert_eq!(
        try_submit(&mut m, &staff(), EventBody::CheckedInPerson { holder: id("H01") }),
        Err(Rejection::OtherChannel { person: "H01".into(), remote: true })
    );
    // The holder votes from afar.
    m.at(T0 + 100_000, &chair(), EventBody::MeetingInstalled { note: note() }).expect("installed");
    m.at(T0 + 200_000, &chair(), EventBody::ItemOpened { item: id("item-1") }).expect("opened");
    m.submit(&key, ballot(1, "item-1", &["H01"]));
    // Then leaves remotely and comes into the room: two visits.
    m.submit(&key, EventBody::CheckedOutRemote { credential: CredentialId(1) });
    assert_eq!(
        try_submit(&mut m, &key, EventBody::CheckedOutRemote { credential: CredentialId(1) }),
        Err(Rejection::Rules(Refusal::NotPresent))
    );
    m.submit(&staff(), EventBody::CheckedInPerson { holder: id("H01") });
    let media: Vec<(String, Medium)> = m
        .journal
        .state()
        .attendance()
        .visits()
        .iter()
        .filter(|v| &*v.person == "H01")
        .map(|v| (v.person.to_string(), v.medium))
        .collect();
    assert_eq!(media, [("H01".into(), Medium::Remote), ("H01".into(), Medium::Room)]);
    // In the room now: the remote credential signs nothing there, and the
    // person cannot arrive remotely until the desk records the departure.
    assert_eq!(
        try_submit(&mut m, &key, ballot(1, "item-1", &["H01"])),
        Err(Rejection::CredentialChannel { credential: CredentialId(1), remote: true })
    );
    assert_eq!(
        try_submit(&mut m, &key, remote_arrival(1, &["H01"])),
        Err(Rejection::OtherChannel { person: "H01".into(), remote: false })
    );
}

#[test]
fn a_person_holds_one_credential_and_a_revoked_one_signs_nothing() {
    let mut m = Meeting::convened_mixed("remote-revoked", &["H01", "H02", "H03"]);
    let badge = Keypair::from_seed(&[0x33; 32]);
    let printed =
        EventBody::BadgeIssued { credential: CredentialId(1), key: badge.public_key(), person: id("H01") };
    m.submit(&staff(), printed);
    // A printed badge is no remote credential.
    assert_eq!(
        try_submit(&mut m, &badge, remote_arrival(1, &["H01"])),
        Err(Rejection::CredentialChannel { credential: CredentialId(1), remote: false })
    );
    // One live credential a person: the badge goes before the remote one.
    let key = phone(3);
    m.submit(&staff(), verified("H01", &key));
    assert!(matches!(
        try_submit(&mut m, &staff(), credential(2, "H01", &key)),
        Err(Rejection::BadgeHeld { .. })
    ));
    m.submit(&staff(), EventBody::CheckedOut { person: id("H01") });
    m.submit(&staff(), EventBody::BadgeRevoked { credential: CredentialId(1) });
    m.submit(&staff(), credential(2, "H01", &key));
    m.submit(&key, remote_arrival(2, &["H01"]));
    // The phone is lost: the desk revokes it as a lost badge; it signs
    // nothing, and a new key needs a new verification.
    m.submit(&staff(), EventBody::BadgeRevoked { credential: CredentialId(2) });
    m.at(T0 + 100_000, &chair(), EventBody::MeetingInstalled { note: note() }).expect("installed");
    m.at(T0 + 200_000, &chair(), EventBody::ItemOpened { item: id("item-1") }).expect("opened");
    assert_eq!(
        try_submit(&mut m, &key, ballot(2, "item-1", &["H01"])),
        Err(Rejection::RevokedBadge(CredentialId(2)))
    );
    assert_eq!(
        try_submit(&mut m, &key, EventBody::CheckedOutRemote { credential: CredentialId(2) }),
        Err(Rejection::RevokedBadge(CredentialId(2)))
    );
    let new_key = phone(4);
    assert_eq!(
        try_submit(&mut m, &staff(), credential(3, "H01", &new_key)),
        Err(Rejection::NotVerified("H01".into()))
    );
    m.submit(&staff(), verified("H01", &new_key));
    m.submit(&staff(), credential(3, "H01", &new_key));
    // Still present remotely from before: the new credential votes.
    m.submit(&new_key, ballot(3, "item-1", &["H01"]));
}

#[test]
fn an_agent_brings_in_remotely_only_what_accepted_lodged_powers_give_them() {
    use asamblea_rules::powers::Tie;
    use asamblea_wire::{LodgedPower, Reception, Text};
    let mut m = Meeting::convened_mixed("remote-agent", &[]);
    let power = LodgedPower {
        power: id("P-1"),
        principals: vec![id("H03"), id("H04")],
        agent: Some(id("CC-77")),
        agent_name: Text::new("Ana Apoderada").unwrap(),
        agent_tie: Tie::None,
        suggested: false,
        substitutes: vec![],
        meeting_date: Text::new("2026-03-26").unwrap(),
        received_via: Reception::Email,
        received_on: Text::new("2026-03-10").unwrap(),
        document: Digest::sha256(b"P-1"),
        verdict: None,
    };
    m.submit(&staff(), EventBody::PowerLodged(power));
    let key = phone(5);
    m.submit(&staff(), verified("CC-77", &key));
    m.submit(&staff(), credential(1, "CC-77", &key));
    assert_eq!(m.journal.state().remote_principals("CC-77"), [id("H03"), id("H04")]);
    assert_eq!(
        try_submit(&mut m, &key, remote_arrival(1, &["H03", "H06"])),
        Err(Rejection::NotCovered { person: "CC-77".into(), holder: "H06".into() })
    );
    m.submit(&key, remote_arrival(1, &["H03", "H04"]));
    let record = m.journal.state().powers().get("P-1").unwrap().clone();
    assert_eq!(record.used.len(), 2, "both principals came under the power");
    // H04 is present through the agent: its own arrival in the room is
    // refused by the rules (one channel per holder).
    assert_eq!(
        try_submit(&mut m, &staff(), EventBody::CheckedInPerson { holder: id("H04") }),
        Err(Rejection::Rules(Refusal::AlreadyPresent))
    );
    let stays = m.journal.state().attendance().stays().len();
    assert_eq!(stays, 2);
    // R2 for the agent too: not admitted in the room while remote, with
    // a power shown at the desk or not.
    let in_room = EventBody::CheckedInAgent(asamblea_wire::AgentArrival {
        agent: id("CC-77"),
        principals: vec![id("H06")],
        capacity: asamblea_rules::Capacity::Proxy,
        declared_role: None,
        power_document: Text::new("P-9").unwrap(),
    });
    assert_eq!(
        try_submit(&mut m, &staff(), in_room.clone()),
        Err(Rejection::OtherChannel { person: "CC-77".into(), remote: true })
    );
    // The desk ends the remote stay (a move): both principals go out with
    // the agent, and the room takes the agent then.
    m.submit(&staff(), EventBody::CheckedOut { person: id("CC-77") });
    assert_eq!(m.journal.state().meeting().unwrap().presence().voting_shares().get(), 0);
    assert_eq!(m.journal.state().medium_of("CC-77"), None);
    m.submit(&staff(), in_room);
    assert_eq!(m.journal.state().medium_of("CC-77"), Some(Medium::Room));
}

/// HY-3, one path: the same holders casting the same votes give the same
/// quorum and the same result whichever of them attend in the room (a
/// printed badge) and whichever from afar (a remote credential) — all 32
/// ways of sending five holders to the two channels; only each visit's
/// channel differs.
#[test]
fn the_channel_changes_no_quorum_and_no_result_only_the_channel() {
    let holders = [
        ("H01", OptionIndex::FOR),
        ("H03", OptionIndex::AGAINST),
        ("H04", OptionIndex::BLANK_DECISION),
        ("H06", OptionIndex::FOR),
        ("H10", OptionIndex::AGAINST),
    ];
    let mut first: Option<(String, String)> = None;
    for remote in 0..(1u32 << holders.len()) {
        let mut m = Meeting::convened_mixed(&format!("remote-one-path-{remote}"), &[]);
        let mut keys = Vec::new();
        for (i, (holder, _)) in holders.iter().enumerate() {
            let n = u32::try_from(i).unwrap() + 1;
            let from_afar = remote & (1 << i) != 0;
            if from_afar {
                let key = phone(u8::try_from(i).unwrap());
                m.submit(&staff(), verified(holder, &key));
                m.submit(&staff(), credential(n, holder, &key));
                m.submit(&key, remote_arrival(n, &[holder]));
                keys.push(key);
            } else {
                let key = Keypair::from_seed(&[0x40 + u8::try_from(i).unwrap(); 32]);
                m.submit(&staff(), EventBody::CheckedInPerson { holder: id(holder) });
                m.submit(
                    &staff(),
                    EventBody::BadgeIssued {
                        credential: CredentialId(n),
                        key: key.public_key(),
                        person: id(holder),
                    },
                );
                keys.push(key);
            }
        }
        m.at(T0 + 100_000, &chair(), EventBody::MeetingInstalled { note: note() }).expect("installed");
        m.at(T0 + 200_000, &chair(), EventBody::ItemOpened { item: id("item-1") }).expect("opened");
        for (i, (holder, option)) in holders.iter().enumerate() {
            let n = u32::try_from(i).unwrap() + 1;
            let body = EventBody::Ballot(Ballot {
                item: id("item-1"),
                credential: CredentialId(n),
                votes: vec![HolderVote { holder: id(holder), choice: Choice::Whole(*option) }],
            });
            m.submit(&keys[i], body);
        }
        m.at(T0 + 300_000, &chair(), EventBody::ItemClosed { item: id("item-1") }).expect("closed");
        let state = m.journal.state();
        let meeting = state.meeting().unwrap();
        let item = meeting.item(meeting.item_index("item-1").unwrap());
        let figures = (format!("{:?}", meeting.quorum()), format!("{:?}", item.result()));
        assert!(item.result().is_some(), "closed with a result");
        match &first {
            None => first = Some(figures),
            Some(all_in_the_room) => assert_eq!(&figures, all_in_the_room, "channels {remote:05b}"),
        }
        // Only the channel differs: each holder's one visit, by the channel
        // it was sent to.
        let media: Vec<Medium> = holders
            .iter()
            .map(|(holder, _)| {
                let visits: Vec<_> =
                    state.attendance().visits().iter().filter(|v| &*v.person == *holder).collect();
                assert_eq!(visits.len(), 1, "{holder}");
                visits[0].medium
            })
            .collect();
        let expected: Vec<Medium> = (0..holders.len())
            .map(|i| if remote & (1 << i) != 0 { Medium::Remote } else { Medium::Room })
            .collect();
        assert_eq!(media, expected);
    }
}

/// HY-5: only the daemon declares a remote presence lapsed, and only after
/// the meeting's timeout (300 s here) without a heartbeat; the stay ends at
/// once with everyone carried, the quorum with it, and a return is a new
/// arrival.
#[test]
fn a_lapse_is_the_daemon_s_after_the_timeout_and_ends_the_stay_and_the_quorum_at_once() {
    let mut m = Meeting::convened_mixed("remote-lapse", &["H02", "H03"]);
    let key = phone(3);
    m.submit(&staff(), verified("H01", &key));
    m.submit(&staff(), credential(1, "H01", &key));
    m.submit(&key, remote_arrival(1, &["H01"]));
    m.at(T0 + 100_000, &chair(), EventBody::MeetingInstalled { note: note() }).expect("installed with H01");
    let shares = |m: &Meeting| m.journal.state().meeting().unwrap().presence().voting_shares().get();
    assert_eq!(shares(&m), 550_000);
    let lapse = |silent_ms| EventBody::PresenceLapsed { credential: CredentialId(1), silent_ms };
    assert!(
        matches!(try_submit(&mut m, &staff(), lapse(300_000)), Err(Rejection::SignerNotAllowed { .. })),
        "the desk does not declare it"
    );
    assert!(
        matches!(try_submit(&mut m, &key, lapse(300_000)), Err(Rejection::SignerNotAllowed { .. })),
        "nor the attendee"
    );
    assert_eq!(
        try_submit(&mut m, &daemon(), lapse(299_999)),
        Err(Rejection::NotLapsed { silent_ms: 299_999, timeout_ms: 300_000 }),
        "a millisecond short of the timeout"
    );
    assert_eq!(shares(&m), 550_000, "a refusal changes nothing");
    assert!(m.journal.state().continuity().gaps.is_empty());
    m.submit(&daemon(), lapse(300_000));
    let state = m.journal.state();
    assert_eq!(state.medium_of("H01"), None);
    assert_eq!(shares(&m), 250_000, "the quorum drops at once");
    assert_eq!(state.lapses().len(), 1);
    assert_eq!((state.lapses()[0].person.as_str(), state.lapses()[0].silent_ms), ("H01", 300_000));
    assert!(state.lapsed("H01") && !state.lapsed("H02"));
    assert_eq!(state.continuity().gaps.len(), 1, "an interval without quorum begins at the lapse");
    assert_eq!(
        try_submit(&mut m, &daemon(), lapse(400_000)),
        Err(Rejection::Rules(Refusal::NotPresent)),
        "a stay ends once"
    );
    assert_eq!(
        try_submit(
            &mut m,
            &daemon(),
            EventBody::PresenceLapsed { credential: CredentialId(9), silent_ms: 300_000 }
        ),
        Err(Rejection::UnknownBadge(CredentialId(9)))
    );
    // The return: the same key, a new arrival, a second visit.
    m.submit(&key, remote_arrival(1, &["H01"]));
    assert_eq!(m.journal.state().medium_of("H01"), Some(Medium::Remote));
    assert_eq!(shares(&m), 550_000);
    let visits = m.journal.state().attendance().visits().iter().filter(|v| &*v.person == "H01").count();
    assert_eq!(visits, 2, "two stays: the lapse ended the first");
    assert!(!m.journal.state().lapsed("H01"), "back");
}

/// HY-7, C.Co Art. 189: a remote attendee's question or written statement
/// is recorded as it arrives, signed with their key, while they attend;
/// the chair records once what was done with it, and a refusal to read
/// says why.
#[test]
fn the_floor_from_afar_is_recorded_as_it_arrives_and_handled_once() {
    let mut m = Meeting::convened_mixed("remote-floor", &[]);
    let key = phone(4);
    m.submit(&staff(), verified("H01", &key));
    m.submit(&staff(), credential(1, "H01", &key));
    let ask = |item: Option<&str>, kind| EventBody::RemoteSubmission {
        credential: CredentialId(1),
        kind,
        item: item.map(id),
        text: Prose::new("¿Cuándo se pagan los dividendos?").unwrap(),
    };
    assert_eq!(
        try_submit(&mut m, &key, ask(Some("item-1"), SubmissionKind::Question)),
        Err(Rejection::Rules(Refusal::NotPresent)),
        "only while attending"
    );
    m.submit(&key, remote_arrival(1, &["H01"]));
    assert!(
        matches!(
            try_submit(&mut m, &staff(), ask(None, SubmissionKind::Question)),
            Err(Rejection::SignerNotAllowed { .. })
        ),
        "the attendee's own key only"
    );
    assert_eq!(
        try_submit(&mut m, &key, ask(Some("item-9"), SubmissionKind::Question)),
        Err(Rejection::NotOnAgenda("item-9".into()))
    );
    m.submit(&key, ask(Some("item-1"), SubmissionKind::Question));
    let question = m.journal.state().admitted();
    m.submit(&key, ask(Some("varios"), SubmissionKind::Statement));
    let statement = m.journal.state().admitted();
    m.submit(&key, ask(None, SubmissionKind::Question));
    let handle = |submission, outcome, note: &str| EventBody::SubmissionHandled {
        submission,
        outcome,
        note: Text::new(note).unwrap(),
    };
    assert!(
        matches!(
            try_submit(&mut m, &staff(), handle(question, SubmissionOutcome::Answered, "")),
            Err(Rejection::SignerNotAllowed { .. })
        ),
        "the chair handles them"
    );
    assert_eq!(
        try_submit(&mut m, &chair(), handle(question - 1, SubmissionOutcome::Read, "")),
        Err(Rejection::UnknownSubmission(question - 1)),
        "the arrival's record is no submission"
    );
    assert_eq!(
        try_submit(&mut m, &chair(), handle(statement, SubmissionOutcome::NotRead, " ")),
        Err(Rejection::ReasonRequired(statement))
    );
    m.submit(&chair(), handle(question, SubmissionOutcome::Answered, ""));
    m.submit(&chair(), handle(statement, SubmissionOutcome::NotRead, "Repetida: igual a la anterior"));
    assert_eq!(
        try_submit(&mut m, &chair(), handle(question, SubmissionOutcome::Read, "")),
        Err(Rejection::SubmissionHandled(question))
    );
    let submissions = m.journal.state().submissions();
    assert_eq!(submissions.len(), 3, "every one stays, handled or not");
    assert_eq!(submissions[0].handled.as_ref().map(|h| h.1), Some(SubmissionOutcome::Answered));
    assert_eq!(submissions[1].kind, SubmissionKind::Statement);
    assert_eq!(submissions[1].handled.as_ref().map(|h| h.2.as_str()), Some("Repetida: igual a la anterior"));
    assert_eq!(submissions[2].handled, None);
    assert_eq!(submissions[2].item, None);
    // After leaving, nothing more from afar.
    m.submit(&key, EventBody::CheckedOutRemote { credential: CredentialId(1) });
    assert_eq!(
        try_submit(&mut m, &key, ask(None, SubmissionKind::Statement)),
        Err(Rejection::Rules(Refusal::NotPresent))
    );
}
