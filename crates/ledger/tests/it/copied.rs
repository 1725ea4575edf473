//! A follower of a replicated meeting takes in the records the leader
//! wrote (`Journal::admit_copied`) through the same replay `open` runs:
//! its ledger becomes the same file, with the same state, and a record the
//! replay refuses (a forged signature, an event out of place) is not taken
//! — the records before it are, so the ledger stays a verified prefix.

use asamblea_ledger::{Journal, OpenError, Rejection};
use asamblea_wire::Digest;

use crate::fixture::{daemon, profile, record_meeting, register, MEETING, PROFILE_BYTES};
use crate::support::{stepping_clock, TempDir};

fn follower(dir: &TempDir) -> Journal {
    Journal::open(
        &dir.ledger(),
        MEETING,
        register(),
        profile(),
        Digest::sha256(PROFILE_BYTES),
        daemon().public_key(),
        stepping_clock().0,
    )
    .expect("an empty ledger opens")
}

fn copied(recorded: &TempDir) -> Vec<Vec<u8>> {
    asamblea_ledger::raw_records(&recorded.ledger(), &MEETING)
        .unwrap()
        .into_iter()
        .map(|(bytes, _)| bytes)
        .collect()
}

#[test]
fn a_follower_takes_in_the_leaders_records_in_slices_and_holds_the_same_ledger() {
    let leader = TempDir::new("copied-leader");
    let recorded = record_meeting(&leader.ledger());
    let records = copied(&leader);
    let dir = TempDir::new("copied-follower");
    let mut journal = follower(&dir);
    // In three slices, as a follower catching up reads them.
    let (a, rest) = records.split_at(7);
    let (b, c) = rest.split_at(rest.len() / 2);
    for slice in [a, b, c] {
        assert_eq!(journal.admit_copied(slice).expect("admitted"), slice.len() as u64);
    }
    assert_eq!(journal.records(), records.len() as u64);
    // Every ballot taken in is found by its digest, for its receipt.
    let index = journal.take_stored_ballots();
    let mut ballots = 0;
    for (at, bytes) in records.iter().enumerate() {
        let record = asamblea_wire::EventRecord::decode(bytes).unwrap();
        if matches!(record.event.body, asamblea_wire::EventBody::Ballot(_)) {
            let event = asamblea_wire::EventRecord::event_bytes(bytes).unwrap();
            assert!(index.candidates(&Digest::sha256(event)).contains(&(at as u64 + 1)), "ballot {}", at + 1);
            ballots += 1;
        }
    }
    assert!(ballots > 0, "the fixture has ballots");
    let meeting = journal.state().meeting().expect("the register is imported");
    assert_eq!(meeting.quorum(), recorded.quorum, "the same state");
    for (item, result) in &recorded.results {
        let at = meeting.item_index(item).unwrap();
        assert_eq!(meeting.item(at).result(), Some(result), "{item}");
    }
    journal.close();
    // The same file: the same records and heads, and it opens (replays) again.
    let stored = asamblea_ledger::raw_records(&dir.ledger(), &MEETING).unwrap();
    assert_eq!(stored, asamblea_ledger::raw_records(&leader.ledger(), &MEETING).unwrap());
    let reopened = follower(&dir);
    assert_eq!(reopened.records(), records.len() as u64);
}

#[test]
fn a_record_the_replay_refuses_is_not_taken_and_those_before_it_are() {
    let leader = TempDir::new("copied-refused-leader");
    record_meeting(&leader.ledger());
    let mut records = copied(&leader);
    let dir = TempDir::new("copied-refused");
    let mut journal = follower(&dir);
    // Record 9's signature, forged (its last byte).
    let last = records[8].len() - 1;
    records[8][last] ^= 0x01;
    match journal.admit_copied(&records) {
        Err(OpenError::Rejected { seq: 9, rejection: Rejection::BadSignature }) => {}
        other => panic!("not refused at 9 for its signature: {other:?}"),
    }
    assert_eq!(journal.records(), 8, "the eight before it are taken");
    // Out of place: record 10 after record 8 breaks the chain.
    let skipped = journal.admit_copied(&records[9..10]);
    assert!(matches!(skipped, Err(OpenError::Ledger(_))), "{skipped:?}");
    assert_eq!(journal.records(), 8);
    journal.close();
    assert_eq!(asamblea_ledger::record_count(&dir.ledger(), &MEETING).unwrap(), 8, "the file too");
}

#[test]
fn a_rebuilt_ledger_keeps_its_prefix_takes_the_copys_records_and_sets_the_old_one_aside() {
    let leader = TempDir::new("rebuild-leader");
    record_meeting(&leader.ledger());
    let records = copied(&leader);
    let dir = TempDir::new("rebuild");
    // A node with the first 10 records.
    let mut journal = follower(&dir);
    journal.admit_copied(&records[..10]).unwrap();
    journal.close();
    let aside = dir.ledger().with_extension("db.aparte");
    // A record out of place refuses the rebuild, and nothing moves.
    let broken = asamblea_ledger::rebuild(&dir.ledger(), &MEETING, 10, &records[11..12], &aside);
    assert!(broken.is_err(), "record 12 after record 10");
    assert!(!aside.exists());
    assert_eq!(asamblea_ledger::record_count(&dir.ledger(), &MEETING).unwrap(), 10, "untouched");
    // Keep 8, take the copy's 9 onwards: the leader's very file.
    asamblea_ledger::rebuild(&dir.ledger(), &MEETING, 8, &records[8..], &aside).unwrap();
    assert_eq!(
        asamblea_ledger::raw_records(&dir.ledger(), &MEETING).unwrap(),
        asamblea_ledger::raw_records(&leader.ledger(), &MEETING).unwrap()
    );
    assert_eq!(asamblea_ledger::record_count(&aside, &MEETING).unwrap(), 10, "the old one, kept");
    let reopened = follower(&dir);
    assert_eq!(reopened.records(), records.len() as u64, "and it replays");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.ledger()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "owner-only");
    }
}
