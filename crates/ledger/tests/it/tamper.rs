//! The tamper table: one way of falsifying an exported bundle per test,
//! each caught by `verify_bundle` with its own error at the right
//! sequence number.
//!
//! Where a forger would recompute the chain (a flipped event byte, a
//! re-signed result, an inserted record), the bundle is rechained with
//! [`Fixture::rechained`], so the test reaches the check it is about and
//! not merely the first stale head.

use asamblea_ledger::{Rejection, Verified, VerifyError};
use asamblea_rules::Shares;
use asamblea_wire::{
    Ballot, Checkpoint, CredentialId, EventBody, EventRecord, HolderVote, Keypair, PublishedResult,
    Signature, SignerRole, StaffRole,
};

use crate::fixture::{badge, chair, daemon, fixture, outsider, staff, Fixture, MEETING};
use crate::support::{id, sign};

/// The sequence number an error names, if it names one.
pub(crate) fn seq_of(error: &VerifyError) -> Option<u64> {
    match error {
        VerifyError::Decode { seq, .. }
        | VerifyError::Missing { seq, .. }
        | VerifyError::Duplicated { seq, .. }
        | VerifyError::Reordered { seq, .. }
        | VerifyError::TimeWentBackwards { seq }
        | VerifyError::HeadMismatch { seq }
        | VerifyError::Rejected { seq, .. }
        | VerifyError::CheckpointSignature { seq }
        | VerifyError::CheckpointMismatch { seq }
        | VerifyError::Truncated { seq, .. }
        | VerifyError::UnpublishedResult { seq, .. }
        | VerifyError::UnaskedResult { seq, .. }
        | VerifyError::LotBeforeResult { seq, .. }
        | VerifyError::MissingCheckpoint { seq }
        | VerifyError::WitnessSignature { seq }
        | VerifyError::Receipt { seq, .. } => Some(*seq),
        _ => None,
    }
}

/// Verifies a tampered bundle and expects exactly `expected`, whose
/// message must name its sequence number for the person reading it, in
/// Spanish first and in English after.
fn check(bytes: &[u8], checkpoint: Option<(u64, asamblea_wire::Digest)>, expected: VerifyError) {
    let verified = fixture().verify(bytes, checkpoint);
    assert_eq!(verified, Err(expected.clone()));
    if let Some(seq) = seq_of(&expected) {
        let message = expected.to_string();
        let (spanish, english) = message.split_once(" / ").expect("two languages");
        assert!(spanish.contains(&format!("evento {seq}")), "the message names evento {seq}: {message}");
        assert!(
            english.contains(&format!("event {seq}")) || message.contains(&format!("/ event {seq}")),
            "the message names event {seq}: {message}"
        );
    }
}

#[test]
fn a_bundle_cut_inside_its_head_names_the_part_in_both_languages() {
    let f = fixture();
    let options = asamblea_ledger::VerifyOptions::bundle_alone(&crate::fixture::load_profile);
    let cut = asamblea_ledger::verify_bundle(&f.bytes[..16], &options).expect_err("cut");
    assert_eq!(
        cut,
        VerifyError::Bundle(asamblea_ledger::BundleError::Truncated(asamblea_ledger::Part::Version))
    );
    assert_eq!(
        cut.to_string(),
        "el paquete no se puede leer / the bundle cannot be read: \
         el paquete termina dentro de la versión / the bundle ends inside the version"
    );
}

fn rejected(seq: u64, rejection: Rejection) -> VerifyError {
    VerifyError::Rejected { seq, rejection }
}

/// The record with its event signed anew by `key`.
fn resigned(mut record: EventRecord, key: &Keypair) -> EventRecord {
    let signed = sign(&MEETING, key, record.event.clone());
    record.signer = signed.signer;
    record.signature = signed.signature;
    record
}

fn at(f: &Fixture, name: &str) -> usize {
    f.seq(name) as usize - 1
}

#[test]
fn the_untampered_bundle_verifies_with_every_record_result_and_checkpoint() {
    let f = fixture();
    let last = f.last();
    let verified = f.verify(&f.bytes, Some((f.seq("item-2 closed"), f.head(f.seq("item-2 closed")))));
    let expected = Verified {
        records: last,
        head: f.head(last),
        results: ["item-1", "item-2", "item-3", "item-3"].map(String::from).to_vec(),
        checkpoints: f.recorded.checkpoints.len() + 1,
        receipts: 0,
    };
    assert_eq!(verified, Ok(expected));
    assert_eq!(last, 43, "the story of the fixture has 43 events");
    assert_eq!(f.recorded.checkpoints.len(), 4, "three closes and the end");
}

/// `(records replayed, records in the bundle)` as `verify` reports them
/// for its progress bar, with the verdict.
fn progress_of(bytes: &[u8]) -> (Vec<(u64, u64)>, Result<Verified, VerifyError>) {
    let options = asamblea_ledger::VerifyOptions {
        daemon_key: Some(daemon().public_key()),
        checkpoints: Vec::new(),
        witnesses: Vec::new(),
        receipts: Vec::new(),
        load_profile: &crate::fixture::load_profile,
    };
    let mut reports = Vec::new();
    let verdict = asamblea_ledger::verify_bundle_with_progress(bytes, &options, &mut |done, total| {
        reports.push((done, total))
    });
    (reports, verdict)
}

#[test]
fn progress_reaches_the_last_record_only_when_every_record_replayed() {
    let f = fixture();
    let last = f.last();
    assert!(last < asamblea_ledger::PROGRESS_EVERY, "no report between the first and the last");
    let (reports, verdict) = progress_of(&f.bytes);
    assert_eq!(reports, vec![(0, last), (last, last)]);
    assert_eq!(verdict, f.verify(&f.bytes, None));
    assert!(verdict.is_ok());

    // A bad signature half-way: the same first problem as without a
    // progress bar, and the bar never says it finished.
    let k = at(f, "H01 votes on item-1");
    let mut records = f.records();
    let mut bytes = f.bundle.records[k].0.clone();
    *bytes.last_mut().expect("a record") ^= 0x01;
    records[k] = EventRecord::decode(&bytes).expect("still a canonical record");
    let tampered = f.rechained(records);
    let (reports, verdict) = progress_of(&tampered);
    assert_eq!(reports, vec![(0, last)]);
    assert_eq!(verdict, Err(rejected(k as u64 + 1, Rejection::BadSignature)));
}

#[test]
fn a_flipped_byte_in_a_ballots_body_is_a_bad_signature_at_its_number() {
    let f = fixture();
    let k = at(f, "H01 votes on item-1");
    // The last byte of H01's ballot is the low byte of its option: for
    // (0) becomes against (1), a ballot as canonical as the one signed.
    let mut bytes = f.bundle.records[k].0.clone();
    *bytes.last_mut().expect("a record") ^= 0x01;
    let flipped = EventRecord::decode(&bytes).expect("still a canonical record");
    let EventBody::Ballot(ballot) = &flipped.event.body else { panic!("a ballot") };
    assert_eq!(ballot.votes[0].choice, asamblea_wire::Choice::Whole(asamblea_rules::OptionIndex::AGAINST));
    let mut records = f.records();
    records[k] = flipped;
    check(&f.rechained(records), None, rejected(k as u64 + 1, Rejection::BadSignature));
}

#[test]
fn a_flipped_byte_in_an_event_left_unchained_is_a_head_mismatch_at_its_number() {
    let f = fixture();
    let k = at(f, "AG-1 votes on item-2");
    let bytes = f.bundle_with(|bundle| *bundle.records[k].0.last_mut().expect("a record") ^= 0x01);
    check(&bytes, None, VerifyError::HeadMismatch { seq: k as u64 + 1 });
}

#[test]
fn a_flipped_byte_in_a_signature_is_a_bad_signature_at_its_number() {
    let f = fixture();
    let k = at(f, "item-1 closed");
    let mut records = f.records();
    records[k].signature.0[17] ^= 0x40;
    check(&f.rechained(records), None, rejected(k as u64 + 1, Rejection::BadSignature));
}

#[test]
fn a_flipped_byte_in_a_head_is_a_head_mismatch_at_its_number() {
    let f = fixture();
    let k = at(f, "H05 arrives");
    let bytes = f.bundle_with(|bundle| bundle.records[k].1 .0[31] ^= 0x80);
    check(&bytes, None, VerifyError::HeadMismatch { seq: k as u64 + 1 });
}

#[test]
fn a_deleted_event_is_reported_missing_at_its_number() {
    let f = fixture();
    let k = at(f, "H06 votes on item-3");
    let bytes = f.bundle_with(|bundle| {
        bundle.records.remove(k);
    });
    check(&bytes, None, VerifyError::Missing { seq: k as u64 + 1, found: k as u64 + 2 });
}

#[test]
fn a_duplicated_event_is_reported_duplicated_where_the_next_should_be() {
    let f = fixture();
    let k = at(f, "AG-1 votes on item-1");
    let bytes = f.bundle_with(|bundle| {
        let copy = bundle.records[k].clone();
        bundle.records.insert(k + 1, copy);
    });
    check(&bytes, None, VerifyError::Duplicated { seq: k as u64 + 1, expected: k as u64 + 2 });
}

#[test]
fn two_swapped_events_are_reported_reordered_at_the_first_out_of_place() {
    let f = fixture();
    let k = at(f, "H01 votes on item-2");
    let bytes = f.bundle_with(|bundle| bundle.records.swap(k, k + 1));
    check(&bytes, None, VerifyError::Reordered { seq: k as u64 + 2, expected: k as u64 + 1 });
}

#[test]
fn an_event_moved_later_is_reported_reordered_where_it_left_a_gap() {
    let f = fixture();
    let from = at(f, "H05 arrives");
    let bytes = f.bundle_with(|bundle| {
        let moved = bundle.records.remove(from);
        bundle.records.insert(from + 3, moved);
    });
    check(&bytes, None, VerifyError::Reordered { seq: from as u64 + 2, expected: from as u64 + 1 });
}

#[test]
fn a_staff_event_signed_by_a_key_nobody_enrolled_is_refused_as_signer_not_allowed() {
    let f = fixture();
    let mut records = f.records();
    let body = EventBody::CheckedOut { person: id("H01") };
    records.push(f.forged(&outsider(), 1, f.last(), body));
    let expected = rejected(
        f.last() + 1,
        Rejection::SignerNotAllowed { kind: "checked-out", role: SignerRole::Staff(StaffRole::Operator) },
    );
    check(&f.rechained(records), None, expected);
}

#[test]
fn a_result_the_daemon_re_signed_with_other_figures_is_a_result_mismatch() {
    let f = fixture();
    let k = at(f, "item-1 result");
    let mut records = f.records();
    let EventBody::ResultPublished { result: PublishedResult::Decision(figures), .. } =
        &mut records[k].event.body
    else {
        panic!("item-1's result is a decision's")
    };
    // Ten thousand shares moved from against to for: the same total.
    figures.for_votes = Shares::new(figures.for_votes.get() + 10_000);
    figures.against = Shares::new(figures.against.get() - 10_000);
    records[k] = resigned(records[k].clone(), &daemon());
    check(&f.rechained(records), None, rejected(k as u64 + 1, Rejection::ResultMismatch("item-1".into())));
}

#[test]
fn a_bundle_cut_short_before_a_checkpoint_it_carries_is_truncated() {
    let f = fixture();
    let closed = f.seq("item-3 closed");
    let bytes = f.bundle_with(|bundle| bundle.records.truncate(closed as usize - 1));
    check(&bytes, None, VerifyError::Truncated { last: closed - 1, seq: closed });
}

#[test]
fn a_bundle_cut_short_and_stripped_of_its_checkpoints_is_refused_by_the_bundle_alone() {
    let f = fixture();
    // Cut inside item-3's close (before its lot), the checkpoints after
    // the cut dropped: the bundle itself shows the close unfinished.
    let cut = f.seq("item-3 lot");
    let bytes = f.bundle_with(|bundle| {
        bundle.records.truncate(cut as usize - 1);
        bundle.checkpoints.retain(|(c, _)| c.seq < cut);
    });
    check(&bytes, None, VerifyError::LotNotDrawn { item: "item-3".into() });
    // Cut between closes, every checkpoint after it dropped: the end has
    // no daemon-signed checkpoint.
    let cut = f.seq("item-3 closed");
    let bytes = f.bundle_with(|bundle| {
        bundle.records.truncate(cut as usize - 1);
        bundle.checkpoints.retain(|(c, _)| c.seq < cut);
    });
    check(&bytes, None, VerifyError::MissingCheckpoint { seq: cut - 1 });
    // Cut after item-3's close, before its result: the close is owed it.
    let bytes = f.bundle_with(|bundle| {
        bundle.records.truncate(cut as usize);
        bundle.checkpoints.retain(|(c, _)| c.seq <= cut);
    });
    check(&bytes, None, VerifyError::UnpublishedResult { item: "item-3".into(), seq: cut });
    // And the chair's checkpoint read out at the end still catches a cut.
    let bytes = f.bundle_with(|bundle| bundle.records.truncate(f.last() as usize - 1));
    let acta = Some((f.last(), f.head(f.last())));
    check(&bytes, acta, VerifyError::Truncated { last: f.last() - 1, seq: f.last() });
}

#[test]
fn a_rewritten_history_under_a_signed_checkpoint_is_a_checkpoint_mismatch() {
    let f = fixture();
    // The operator re-times AG-1's departure by a millisecond and
    // recomputes the chain: every signature still holds (they cover
    // events only, and no lot seed comes later), but the head at the end
    // is no longer the one the daemon signed there. (Re-timing anything
    // before item-3's close would change the lot's seed instead.)
    let k = at(f, "AG-1 leaves");
    let mut records = f.records();
    records[k].time_ms += 1;
    check(&f.rechained(records), None, VerifyError::CheckpointMismatch { seq: f.last() });
}

#[test]
fn a_history_rewritten_with_the_daemon_key_is_caught_by_the_head_read_out_in_the_room() {
    let f = fixture();
    // Whoever holds the daemon key can re-sign every checkpoint; only the
    // head printed in the acta at the end tells.
    let k = at(f, "AG-1 leaves");
    let mut records = f.records();
    records[k].time_ms += 1;
    let rewritten = asamblea_ledger::Bundle::decode(&f.rechained(records)).expect("a bundle");
    let heads: Vec<_> = rewritten.records.iter().map(|(_, head)| *head).collect();
    let mut resigned_bundle = rewritten.clone();
    resigned_bundle.checkpoints = f
        .bundle
        .checkpoints
        .iter()
        .map(|(c, _)| {
            let checkpoint = Checkpoint { seq: c.seq, head: heads[c.seq as usize - 1] };
            (checkpoint, checkpoint.sign(&MEETING, &daemon()))
        })
        .collect();
    let bytes = resigned_bundle.encode();
    assert!(f.verify(&bytes, None).is_ok(), "the rewrite is self-consistent");
    let acta = Some((f.last(), f.head(f.last())));
    check(&bytes, acta, VerifyError::CheckpointMismatch { seq: f.last() });
}

#[test]
fn a_checkpoint_not_signed_by_the_daemon_is_refused() {
    let f = fixture();
    let bytes = f.bundle_with(|bundle| {
        let (checkpoint, _) = bundle.checkpoints[1];
        bundle.checkpoints[1] = (checkpoint, checkpoint.sign(&MEETING, &staff()));
    });
    check(&bytes, None, VerifyError::CheckpointSignature { seq: f.seq("item-2 closed") });
}

#[test]
fn a_checkpoint_signature_with_a_flipped_byte_is_refused() {
    let f = fixture();
    let bytes = f.bundle_with(|bundle| bundle.checkpoints[0].1 = Signature([0x5a; 64]));
    check(&bytes, None, VerifyError::CheckpointSignature { seq: f.seq("item-1 closed") });
}

#[test]
fn a_ballot_replayed_while_its_poll_is_open_is_a_repeated_nonce() {
    let f = fixture();
    let k = at(f, "H01 votes on item-3");
    let mut records = f.records();
    let replay = records[k].clone();
    records.insert(k + 1, replay);
    check(&f.rechained(records), None, rejected(k as u64 + 2, Rejection::RepeatedNonce));
}

#[test]
fn a_ballot_signed_with_a_revoked_badge_is_refused_as_revoked() {
    let f = fixture();
    let opened = f.seq("item-1 opened");
    let mut records = f.records();
    let ballot = Ballot {
        item: id("item-1"),
        credential: CredentialId(4),
        votes: vec![HolderVote {
            holder: id("H04"),
            choice: asamblea_wire::Choice::Whole(asamblea_rules::OptionIndex::AGAINST),
        }],
    };
    let forged = f.forged(badge(4).keypair(), 2, opened, EventBody::Ballot(ballot));
    records.insert(opened as usize, forged);
    check(&f.rechained(records), None, rejected(opened + 1, Rejection::RevokedBadge(CredentialId(4))));
}

#[test]
fn a_lot_drawn_for_the_other_tied_list_is_a_lot_mismatch() {
    let f = fixture();
    assert_eq!(f.recorded.lot_candidates, 2);
    let k = at(f, "item-3 lot");
    let mut records = f.records();
    let EventBody::LotDrawn { winner, .. } = &mut records[k].event.body else { panic!("a lot") };
    let other = if winner.as_str() == "Lista B" { "Lista C" } else { "Lista B" };
    assert_eq!(winner.as_str(), f.recorded.lot_winner);
    *winner = id(other);
    records[k] = resigned(records[k].clone(), &chair());
    check(&f.rechained(records), None, rejected(k as u64 + 1, Rejection::LotMismatch("item-3".into())));
}

#[test]
fn a_register_swapped_in_the_bundle_is_refused_at_its_import() {
    let f = fixture();
    // The same holders with H10's shares moved to H08: same capital,
    // another register.
    let bytes = f.bundle_with(|bundle| {
        let register = crate::fixture::register();
        let specs = register.iter().map(|(_, h)| {
            let moved = match h.id() {
                "H08" => 130_000,
                "H10" => 0,
                _ => h.holdings().ordinary.get(),
            };
            asamblea_rules::HolderSpec {
                id: h.id().to_string(),
                holdings: asamblea_rules::ClassShares::new(Shares::new(moved), h.holdings().preferred),
                role: h.role(),
                split: h.split(),
            }
        });
        let other = asamblea_rules::Register::new(*register.capital(), specs).expect("valid");
        bundle.register_bytes = asamblea_ledger::register_bytes(&other);
    });
    check(&bytes, None, rejected(f.seq("register-imported"), Rejection::RegisterMismatch));
}

#[test]
fn a_profile_file_swapped_in_the_bundle_does_not_load() {
    let f = fixture();
    let bytes = f.bundle_with(|bundle| bundle.profile_bytes.push(b' '));
    let error = f.verify(&bytes, None).expect_err("refused");
    assert!(matches!(error, VerifyError::Profile(_)), "{error}");
}

#[test]
fn a_bundle_of_another_daemon_key_is_refused() {
    let f = fixture();
    let options = asamblea_ledger::VerifyOptions {
        daemon_key: Some(outsider().public_key()),
        checkpoints: Vec::new(),
        witnesses: Vec::new(),
        receipts: Vec::new(),
        load_profile: &crate::fixture::load_profile,
    };
    assert_eq!(asamblea_ledger::verify_bundle(&f.bytes, &options), Err(VerifyError::DaemonKeyMismatch));
}

#[test]
fn an_agents_ballot_for_a_holder_it_does_not_carry_is_refused() {
    let f = fixture();
    // AG-2 carries H09 only; a ballot of its badge for H08 (absent) or
    // H06 (present in person) is not its to cast.
    let opened = f.seq("item-2 opened");
    let mut records = f.records();
    let ballot = Ballot {
        item: id("item-2"),
        credential: CredentialId(7),
        votes: vec![HolderVote {
            holder: id("H06"),
            choice: asamblea_wire::Choice::Whole(asamblea_rules::OptionIndex::FOR),
        }],
    };
    records.insert(opened as usize, f.forged(badge(7).keypair(), 3, opened, EventBody::Ballot(ballot)));
    check(&f.rechained(records), None, rejected(opened + 1, Rejection::NotCarried("H06".into())));
}

#[test]
fn a_staff_event_signed_by_a_member_of_another_role_is_refused() {
    // Roles are enrolled with the key, not a naming habit: the operator's
    // key (an enrolled staff key) may not open a poll, nor the chair's
    // check a person in.
    let f = fixture();
    for (name, key, kind, role) in [
        ("item-1 opened", staff(), "item-opened", SignerRole::Staff(StaffRole::Chair)),
        ("item-2 closed", staff(), "item-closed", SignerRole::Staff(StaffRole::Chair)),
        ("item-3 lot", staff(), "lot-drawn", SignerRole::Staff(StaffRole::Chair)),
        ("H05 arrives", chair(), "checked-in-person", SignerRole::Staff(StaffRole::Operator)),
    ] {
        let k = at(f, name);
        let mut records = f.records();
        records[k] = resigned(records[k].clone(), &key);
        check(
            &f.rechained(records),
            None,
            rejected(k as u64 + 1, Rejection::SignerNotAllowed { kind, role }),
        );
    }
}

#[test]
fn an_item_opened_that_was_not_convened_is_refused() {
    let f = fixture();
    let mut records = f.records();
    let last = f.last();
    records.push(f.forged(&chair(), 5, last, EventBody::ItemOpened { item: id("item-9") }));
    check(&f.rechained(records), None, rejected(last + 1, Rejection::NotOnAgenda("item-9".into())));
}

#[test]
fn the_convened_agenda_decides_the_matter_whatever_a_forger_writes_later() {
    // item-2 convened as the year-end statements, then the whole ledger
    // re-signed by a daemon-key holder with it as an ordinary matter: the
    // administrator's bar is gone, so the published result (its impeded
    // shares and base) no longer agrees with the replay. (Had the forger
    // also re-signed the results, the checkpoint read out at the close
    // would catch the rewritten chain.)
    let f = fixture();
    let mut records = f.records();
    let EventBody::MeetingConvened { agenda, .. } = &mut records[0].event.body else { panic!("convened") };
    agenda[1].matter = asamblea_rules::MatterKind::Ordinary;
    records[0] = resigned(records[0].clone(), &daemon());
    let rechained = f.rechained(records);
    let closed = f.seq("item-2 closed");
    check(
        &rechained,
        Some((closed, f.head(closed))),
        rejected(closed + 1, Rejection::ResultMismatch("item-2".into())),
    );
}

#[test]
fn a_register_id_with_a_control_character_is_refused() {
    let f = fixture();
    for bad in ["H\u{7}X", "H\u{7f}X", "H\u{85}X"] {
        let bytes = f.bundle_with(|bundle| {
            let register = crate::fixture::register();
            let specs = register.iter().map(|(_, h)| asamblea_rules::HolderSpec {
                id: if h.id() == "H10" { bad.to_string() } else { h.id().to_string() },
                holdings: h.holdings(),
                role: h.role(),
                split: h.split(),
            });
            let other =
                asamblea_rules::Register::new(*register.capital(), specs).expect("the rules take any id");
            bundle.register_bytes = asamblea_ledger::register_bytes(&other);
        });
        let error = f.verify(&bytes, None).expect_err("refused").to_string();
        assert!(error.contains("holder 10") && error.contains("control character"), "{bad:?}: {error}");
    }
}

#[test]
fn a_second_live_badge_for_one_person_and_a_late_staff_key_are_refused() {
    let f = fixture();
    let last = f.last();
    // H01 holds badge 1, never revoked.
    let mut records = f.records();
    let seed = [0x77; 32];
    let spare = asamblea_wire::Credential::generate_from(&MEETING, CredentialId(99), &seed);
    let body =
        EventBody::BadgeIssued { credential: CredentialId(99), key: spare.public_key(), person: id("H01") };
    records.push(f.forged(&staff(), 7, last, body));
    let expected = Rejection::BadgeHeld { person: "H01".into(), held: CredentialId(1) };
    check(&f.rechained(records), None, rejected(last + 1, expected));
    // A staff key enrolled once the meeting runs: it could sign for a role
    // nobody saw enrolled at convening.
    let mut records = f.records();
    let body = EventBody::StaffEnrolled {
        key: outsider().public_key(),
        role: asamblea_wire::StaffRole::Chair,
        name: id("intruso"),
    };
    records.push(f.forged(&daemon(), 8, last, body));
    let expected = Rejection::OutOfPlace(
        "el personal se inscribe antes de importar el registro de accionistas / staff are enrolled before the register is imported",
    );
    check(&f.rechained(records), None, rejected(last + 1, expected));
}

#[test]
fn names_come_in_the_registers_order_without_gaps_and_the_meeting_is_described_once() {
    let f = fixture();
    let last = f.last();
    let text = |s: &str| asamblea_wire::Text::new(s).unwrap();
    let named = |first: u32, names: &[&str]| EventBody::RegisterNamed {
        first,
        names: names.iter().map(|n| text(n)).collect(),
    };
    let described =
        || EventBody::MeetingDescribed { file: asamblea_wire::FileText::new("company = \"X\"\n").unwrap() };
    // In order, signed by the desk and the daemon: admitted, and kept.
    let mut records = f.records();
    records.push(f.forged(&staff(), 11, last, named(0, &["Ana Pérez", "Bernardo Ruiz"])));
    records.push(f.forged(&staff(), 12, last, named(2, &["Carmen Díaz"])));
    records.push(f.forged(&daemon(), 13, last, described()));
    // Ended, as the daemon ends a bundle, by a checkpoint at its last record.
    let state = ended_and_verified(f, records.clone()).expect("the names and the description verify");
    let names: Vec<&str> = state.names().iter().map(asamblea_wire::Text::as_str).collect();
    assert_eq!(names, ["Ana Pérez", "Bernardo Ruiz", "Carmen Díaz"]);
    assert_eq!(state.description(), Some("company = \"X\"\n"));
    // A gap, a repeat, the wrong signer, a second description: refused.
    let gap = Rejection::OutOfPlace(
        "los nombres se registran en el orden del registro de accionistas, sin huecos / names are recorded in the register's order, without gaps",
    );
    for (n, body, key, expected) in [
        (14, named(4, &["Diego"]), staff(), gap.clone()),
        (15, named(0, &["Ana Pérez"]), staff(), gap),
        (
            16,
            named(3, &["Diego"]),
            daemon(),
            Rejection::SignerNotAllowed { kind: "register-named", role: SignerRole::Staff(StaffRole::Operator) },
        ),
        (
            17,
            described(),
            daemon(),
            Rejection::OutOfPlace(
                "la reunión se describe una sola vez, después de convocarla / the meeting is described once, after it is convened",
            ),
        ),
    ] {
        let mut bad = records.clone();
        bad.push(f.forged(&key, n, last, body));
        check(&f.rechained(bad), None, rejected(last + 4, expected));
    }
}

#[test]
fn the_daemons_key_enrolled_as_a_staff_member_is_refused() {
    let f = fixture();
    let mut records = f.records();
    // Enrolled where staff are, before the register is imported, so that
    // nothing but the key itself is wrong.
    let import = records
        .iter()
        .position(|r| matches!(r.event.body, EventBody::RegisterImported { .. }))
        .expect("the register is imported");
    let body = EventBody::StaffEnrolled {
        key: daemon().public_key(),
        role: asamblea_wire::StaffRole::Secretary,
        name: id("secretaria"),
    };
    records.insert(import, f.forged(&daemon(), 9, import as u64, body.clone()));
    check(&f.rechained(records), None, rejected(import as u64 + 1, Rejection::DaemonKeyEnrolled));
    // Another key in its place is admitted, and so is everything after it
    // up to the lot, whose seed (the head after item-3's close) moved with
    // the inserted record: the refusal above is of the daemon's key alone.
    let mut records = f.records();
    let EventBody::StaffEnrolled { role, name, .. } = body else { unreachable!("built above") };
    let other = EventBody::StaffEnrolled { key: outsider().public_key(), role, name };
    records.insert(import, f.forged(&daemon(), 9, import as u64, other));
    let lot = f.seq("item-3 lot") + 1;
    check(&f.rechained(records), None, rejected(lot, Rejection::LotMismatch("item-3".into())));
}

#[test]
fn a_lot_drawn_before_the_result_of_the_close_it_breaks_is_refused() {
    let f = fixture();
    // The close's result (lot-required) moved after the lot: every result
    // is still owed and published, and the lot's seed is still the head
    // after the close, but the lot comes first.
    let result = at(f, "item-3 result");
    let mut records = f.records();
    let mut moved = records.remove(result);
    // A record's time is not signed; the moved one takes the lot's.
    moved.time_ms = records[result].time_ms;
    records.insert(result + 1, moved);
    check(
        &f.rechained(records),
        None,
        VerifyError::LotBeforeResult { item: "item-3".into(), seq: result as u64 + 1 },
    );
    // The close's result left out and the final one published twice: two
    // results owed, two published, each equal to the item's figures where
    // it stands (elected, after the lot). Only the order tells that the
    // tie the lot broke was never published.
    let mut records = f.records();
    let lot = at(f, "item-3 lot");
    let mut twice = records[at(f, "item-3 final result")].clone();
    twice.event.nonce = crate::support::nonce("twice", 1);
    twice = resigned(twice, &daemon());
    records.insert(lot + 1, twice);
    records.remove(result);
    check(
        &f.rechained(records),
        None,
        VerifyError::LotBeforeResult { item: "item-3".into(), seq: result as u64 + 1 },
    );
}

#[test]
fn a_checkpoint_witness_or_receipt_numbered_zero_is_refused_for_its_number_not_as_a_cut() {
    let f = fixture();
    let head = f.head(1);
    let zero = asamblea_wire::Checkpoint { seq: 0, head };
    let said = |error: VerifyError| {
        let VerifyError::NumberedZero { .. } = error else { panic!("numbered 0: {error}") };
        let message = error.to_string();
        assert!(message.contains("0 no existe: la numeración empieza en 1 / "), "{message}");
        assert!(message.ends_with("0 does not exist: numbering starts at 1"), "{message}");
        message
    };
    let message = said(f.verify(&f.bytes, Some((0, head))).expect_err("checkpoint 0"));
    assert_eq!(
        message,
        "el punto de control 0 no existe: la numeración empieza en 1 / checkpoint 0 does not exist: numbering starts at 1"
    );
    let witness = (zero, zero.sign(&MEETING, &daemon()));
    said(f.verify_observed(&f.bytes, vec![witness], Vec::new()).expect_err("witness 0"));
    let receipt = asamblea_wire::Receipt { seq: 0, head, event: head };
    let receipt = (receipt, receipt.sign(&MEETING, &daemon()));
    said(f.verify_observed(&f.bytes, Vec::new(), vec![receipt]).expect_err("receipt 0"));
    let bytes = f.bundle_with(|bundle| bundle.checkpoints.push((zero, zero.sign(&MEETING, &daemon()))));
    said(f.verify(&bytes, None).expect_err("the bundle's checkpoint 0"));
    // At number 1 the same head is a good checkpoint: only the number was wrong.
    assert!(f.verify(&f.bytes, Some((1, head))).is_ok());
}

#[test]
fn an_attendee_is_named_while_attending_and_only_a_holder_has_someone_else_attend_for_it() {
    let f = fixture();
    let last = f.last();
    let named = |person: &str, name: &str, document: Option<&str>| EventBody::AttendeeNamed {
        person: id(person),
        name: asamblea_wire::Text::new(name).unwrap(),
        document: document.map(id),
    };
    // H01 is present in person (who attends for it, with their own
    // document) and AG-2 carries H09: both named by the desk, and kept.
    let mut records = f.records();
    records.push(f.forged(&staff(), 21, last, named("H01", "María Gómez", Some("CC-80999111"))));
    records.push(f.forged(&staff(), 22, last, named("AG-2", "Carlos Andrés Rojas", None)));
    let state = ended_and_verified(f, records.clone()).expect("the names of who attends verify");
    let agent = state.attendee_name("AG-2").expect("the agent is named");
    assert_eq!((agent.name.as_str(), agent.document.as_ref()), ("Carlos Andrés Rojas", None));
    let company = state.attendee_name("H01").expect("who attends for H01");
    assert_eq!(company.document.as_ref().map(|d| d.as_str()), Some("CC-80999111"));
    // Someone who left (AG-1), a document for an agent (their id is their
    // own), the daemon's signature: refused.
    for (n, body, key, expected) in [
        (23, named("AG-1", "Ana", None), staff(), Rejection::NotAnAttendee("AG-1".into())),
        (24, named("NADIE", "Ana", None), staff(), Rejection::NotAnAttendee("NADIE".into())),
        (
            25,
            named("AG-2", "Carlos", Some("CC-1")),
            staff(),
            Rejection::OutOfPlace(
                "only a holder in person has someone else's document named: an agent's id is their own",
            ),
        ),
        (
            26,
            named("H01", "María Gómez", None),
            daemon(),
            Rejection::SignerNotAllowed {
                kind: "attendee-named",
                role: SignerRole::Staff(StaffRole::Operator),
            },
        ),
    ] {
        let mut bad = records.clone();
        bad.push(f.forged(&key, n, last, body));
        check(&f.rechained(bad), None, rejected(last + 3, expected));
    }
}

/// `records` rechained into a bundle ended, as the daemon ends one, by a
/// checkpoint at its last record, and verified alone: the state it leaves.
fn ended_and_verified(
    f: &Fixture,
    records: Vec<asamblea_wire::EventRecord>,
) -> Result<asamblea_ledger::State, VerifyError> {
    let mut bundle = asamblea_ledger::Bundle::decode(&f.rechained(records)).unwrap();
    let (last_seq, last_head) = (bundle.records.len() as u64, bundle.records.last().unwrap().1);
    let end = asamblea_wire::Checkpoint { seq: last_seq, head: last_head };
    bundle.checkpoints.push((end, end.sign(&MEETING, &daemon())));
    let bytes = bundle.encode();
    let options = asamblea_ledger::VerifyOptions::bundle_alone(&crate::fixture::load_profile);
    asamblea_ledger::verify_bundle_state(std::io::Cursor::new(&bytes), &options, &mut |_, _| {})
        .map(|(_, state)| state)
}
