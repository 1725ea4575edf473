//! The SQLite file: records and heads survive a reopen, the file is
//! append-only through SQL, a hand edit is named by sequence number, many
//! callers share one commit, time never runs backwards, and a reopened
//! journal replays to the meeting it left.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};

use asamblea_ledger::{
    raw_records, read_records, Appended, Bundle, Journal, Ledger, LedgerError, OpenError, Rejection, Signed,
    SubmitError, VerifyError,
};
use asamblea_rules::Refusal;
use asamblea_wire::{
    Ballot, Chain, Choice, CredentialId, Digest, Event, EventBody, EventRecord, HolderVote, Keypair,
    MeetingId,
};
use rusqlite::params;

use crate::fixture::{self, badge, record_meeting, MEETING};
use crate::support::{checked_out, id, nonce, sign, stepping_clock, TempDir, T0};

fn staff() -> Keypair {
    fixture::staff()
}

/// A ledger at `path` holding `n` `checked-out` events; their acks.
fn filled(path: &std::path::Path, n: u64) -> Vec<Appended> {
    let (ledger, stored) = Ledger::open(path, &MEETING, stepping_clock().0).expect("a new ledger opens");
    assert!(stored.is_empty());
    let acks = (1..=n)
        .map(|i| ledger.append_blocking(checked_out(&MEETING, &staff(), "filled", i)).expect("appended"))
        .collect();
    ledger.shutdown();
    acks
}

/// Runs SQL on the file the way someone with the sqlite3 shell would.
fn sqlite(path: &std::path::Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).expect("the file opens with plain SQLite")
}

#[test]
fn appended_records_come_back_with_their_heads_after_reopening() {
    let dir = TempDir::new("reopen");
    let acks = filled(&dir.ledger(), 50);
    let (ledger, stored) = Ledger::open(&dir.ledger(), &MEETING, stepping_clock().0).expect("reopens");
    assert_eq!(stored.len(), 50);
    let mut chain = Chain::new(&MEETING);
    for (i, (record, ack)) in stored.iter().zip(&acks).enumerate() {
        let n = i as u64 + 1;
        let original = checked_out(&MEETING, &staff(), "filled", n);
        assert_eq!((record.seq, ack.seq), (n, n));
        assert_eq!(record.event, original.event);
        assert_eq!((record.signer, record.signature), (original.signer, original.signature));
        assert_eq!(record.time_ms, ack.time_ms);
        assert_eq!(chain.append(record), Ok(ack.head), "the acknowledged head is the chain's");
        assert_eq!(ack.event_digest, Digest::sha256(&original.bytes));
    }
    // Appending goes on from the same chain.
    let next = ledger.append_blocking(checked_out(&MEETING, &staff(), "filled", 51)).expect("appended");
    ledger.shutdown();
    assert_eq!(next.seq, 51);
    let records = read_records(&dir.ledger(), &MEETING).expect("reads");
    assert_eq!(chain.append(&records[50].0), Ok(next.head));
    assert_eq!(
        records.iter().map(|(_, head)| *head).take(50).collect::<Vec<_>>(),
        acks.iter().map(|a| a.head).collect::<Vec<_>>()
    );
}

#[test]
fn a_ledger_of_another_meeting_is_refused() {
    let dir = TempDir::new("other");
    filled(&dir.ledger(), 1);
    let other = MeetingId([0xa5; 32]);
    let refused = Ledger::open(&dir.ledger(), &other, stepping_clock().0).err().expect("refused");
    assert!(matches!(refused, LedgerError::OtherMeeting { .. }), "{refused}");
    assert!(matches!(read_records(&dir.ledger(), &other), Err(LedgerError::OtherMeeting { .. })));
    assert!(matches!(raw_records(&dir.ledger(), &other), Err(LedgerError::OtherMeeting { .. })));
}

#[test]
fn the_file_refuses_updates_and_deletes_through_sql() {
    let dir = TempDir::new("append-only");
    filled(&dir.ledger(), 3);
    let conn = sqlite(&dir.ledger());
    let update = conn.execute("UPDATE events SET record = x'00' WHERE seq = 1", []).expect_err("refused");
    assert!(update.to_string().contains("append-only"), "{update}");
    let delete = conn.execute("DELETE FROM events WHERE seq = 3", []).expect_err("refused");
    assert!(delete.to_string().contains("append-only"), "{delete}");
    let meeting = conn.execute("UPDATE meta SET value = x'00'", []).expect_err("refused");
    assert!(meeting.to_string().contains("never changes"), "{meeting}");
    drop(conn);
    assert_eq!(read_records(&dir.ledger(), &MEETING).expect("intact").len(), 3);
}

/// The fixture's meeting recorded afresh, then edited with its triggers
/// dropped, as someone with the sqlite3 shell could.
fn hand_edited(name: &str, edit: impl FnOnce(&rusqlite::Connection)) -> TempDir {
    let dir = TempDir::new(name);
    record_meeting(&dir.ledger());
    let conn = sqlite(&dir.ledger());
    conn.execute_batch("DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete;")
        .expect("triggers dropped");
    edit(&conn);
    dir
}

fn broken_at(dir: &TempDir) -> (u64, String) {
    match Ledger::open(&dir.ledger(), &MEETING, stepping_clock().0).err().expect("refused") {
        LedgerError::BrokenChain { seq, reason, .. } => (seq, reason),
        other => panic!("not a broken chain: {other}"),
    }
}

#[test]
fn a_record_edited_by_hand_is_caught_on_open_and_by_verify_at_its_sequence_number() {
    let dir = hand_edited("edit", |conn| {
        let mut record: Vec<u8> =
            conn.query_row("SELECT record FROM events WHERE seq = 4", [], |r| r.get(0)).expect("row 4");
        // `H01 arrives` becomes `H00 arrives`: still a canonical record.
        *record.last_mut().expect("bytes") ^= 0x01;
        assert!(EventRecord::decode(&record).is_ok());
        conn.execute("UPDATE events SET record = ?1 WHERE seq = 4", params![record]).expect("edited");
    });
    let (seq, reason) = broken_at(&dir);
    assert_eq!(seq, 4, "{reason}");
    assert!(reason.contains("head does not match"), "{reason}");
    // `asamblea verify` on the directory reads the rows unchecked and
    // names the same event.
    assert_eq!(verify_rows(&dir), Err(VerifyError::HeadMismatch { seq: 4 }));
}

#[test]
fn a_row_deleted_by_hand_is_caught_on_open_and_by_verify_as_missing() {
    let dir = hand_edited("delete", |conn| {
        conn.execute("DELETE FROM events WHERE seq = 6", []).expect("deleted");
    });
    let (seq, reason) = broken_at(&dir);
    assert_eq!(seq, 6, "{reason}");
    assert!(reason.contains("missing"), "{reason}");
    assert_eq!(verify_rows(&dir), Err(VerifyError::Missing { seq: 6, found: 7 }));
}

#[test]
fn a_head_edited_by_hand_is_caught_on_open_and_by_verify_at_its_sequence_number() {
    let dir = hand_edited("head", |conn| {
        conn.execute("UPDATE events SET head = zeroblob(32) WHERE seq = 9", []).expect("edited");
    });
    assert_eq!(broken_at(&dir).0, 9);
    assert_eq!(verify_rows(&dir), Err(VerifyError::HeadMismatch { seq: 9 }));
}

/// Verifies a directory's rows as stored, in a bundle with no
/// checkpoints, the way `asamblea verify DIR` does.
fn verify_rows(dir: &TempDir) -> Result<asamblea_ledger::Verified, VerifyError> {
    let bundle = Bundle {
        meeting: MEETING,
        daemon_key: fixture::daemon_key(),
        profile_name: fixture::PROFILE_NAME.into(),
        profile_bytes: fixture::PROFILE_BYTES.to_vec(),
        register_bytes: asamblea_ledger::register_bytes(&fixture::register()),
        records: raw_records(&dir.ledger(), &MEETING).expect("rows"),
        checkpoints: Vec::new(),
    };
    let options = asamblea_ledger::VerifyOptions {
        daemon_key: Some(fixture::daemon_key()),
        checkpoints: Vec::new(),
        witnesses: Vec::new(),
        receipts: Vec::new(),
        load_profile: &fixture::load_profile,
    };
    asamblea_ledger::verify_bundle(&bundle.encode(), &options)
}

#[test]
fn a_hand_edit_that_recomputes_every_head_is_caught_by_the_replay_at_its_event() {
    // Someone who knows the format changes H01's vote on item-1 from for
    // to against and recomputes every head after it: the chain holds, the
    // signature does not.
    let (dir, target, _) = rechained_with_an_edit("rechained-edit", "H01 votes on item-1");
    assert!(read_records(&dir.ledger(), &MEETING).is_ok(), "the chain alone holds");
    let reopened = open_trusting(&dir.ledger(), None);
    assert_eq!(reopened.err(), Some(OpenError::Rejected { seq: target, rejection: Rejection::BadSignature }));
    assert_eq!(
        verify_rows(&dir),
        Err(VerifyError::Rejected { seq: target, rejection: Rejection::BadSignature })
    );
}

#[test]
fn concurrent_appends_are_group_committed() {
    let dir = TempDir::new("group");
    let (ledger, _) = Ledger::open(&dir.ledger(), &MEETING, stepping_clock().0).expect("opens");
    let ledger = Arc::new(ledger);
    let threads: Vec<_> = (0..8u64)
        .map(|t| {
            let ledger = Arc::clone(&ledger);
            std::thread::spawn(move || {
                (0..100u64)
                    .map(|n| {
                        let signed = checked_out(&MEETING, &staff(), "group", t * 1_000 + n);
                        ledger.append_blocking(signed).expect("appended").seq
                    })
                    .collect::<Vec<u64>>()
            })
        })
        .collect();
    let mut seqs: Vec<u64> = threads.into_iter().flat_map(|t| t.join().expect("appender")).collect();
    let stats = Arc::try_unwrap(ledger).ok().expect("the only owner").shutdown();
    seqs.sort_unstable();
    assert_eq!(seqs, (1..=800).collect::<Vec<_>>(), "every append got its own number");
    assert_eq!(stats.records, 800);
    assert!(stats.batches < stats.records, "eight waiting appenders share commits: {stats:?}");
    assert_eq!(read_records(&dir.ledger(), &MEETING).expect("reads").len(), 800);
}

#[test]
fn one_event_that_cannot_be_encoded_fails_alone_and_not_its_batch() {
    let dir = TempDir::new("bad-in-batch");
    let (ledger, _) = Ledger::open(&dir.ledger(), &MEETING, stepping_clock().0).expect("opens");
    // Holders out of order: an event with no canonical encoding, queued
    // among valid ones so that it shares their batch.
    let unordered = Ballot {
        item: id("item-1"),
        credential: CredentialId(1),
        votes: ["H2", "H1"]
            .map(|h| HolderVote { holder: id(h), choice: Choice::Whole(asamblea_rules::OptionIndex::FOR) })
            .to_vec(),
    };
    let event = Event { nonce: nonce("bad", 0), body: EventBody::Ballot(unordered) };
    assert!(event.encode().is_err(), "no canonical encoding");
    let good = checked_out(&MEETING, &staff(), "bad", 1);
    let bad = Signed { event, bytes: good.bytes.clone(), signer: good.signer, signature: good.signature };
    let (tx, rx) = mpsc::channel();
    for n in 0..201u64 {
        let signed = if n == 100 { bad.clone() } else { checked_out(&MEETING, &staff(), "bad", 1_000 + n) };
        let tx = tx.clone();
        ledger.append(signed, Box::new(move |result| tx.send((n, result)).expect("the test listens")));
    }
    drop(tx);
    let mut results: Vec<(u64, Result<Appended, LedgerError>)> = rx.iter().collect();
    let stats = ledger.shutdown();
    results.sort_by_key(|(n, _)| *n);
    assert_eq!(results.len(), 201);
    for (n, result) in &results {
        if *n == 100 {
            assert!(matches!(result, Err(LedgerError::Encode(_))), "{result:?}");
        } else {
            assert!(result.is_ok(), "event {n} was refused for another's fault: {result:?}");
        }
    }
    assert_eq!(stats.records, 200);
    assert_eq!(read_records(&dir.ledger(), &MEETING).expect("reads").len(), 200);
}

#[test]
fn time_in_the_ledger_never_goes_backwards_even_when_the_clock_does() {
    let dir = TempDir::new("time");
    // A clock that runs backwards a second at every reading.
    let now = Arc::new(AtomicU64::new(T0 + 100_000));
    let reading = Arc::clone(&now);
    let clock = Box::new(move || reading.fetch_sub(1_000, Ordering::Relaxed));
    let (ledger, _) = Ledger::open(&dir.ledger(), &MEETING, clock).expect("opens");
    let times: Vec<u64> = (1..=5)
        .map(|n| {
            ledger.append_blocking(checked_out(&MEETING, &staff(), "time", n)).expect("appended").time_ms
        })
        .collect();
    ledger.shutdown();
    assert_eq!(times, vec![T0 + 100_000; 5], "held at the latest time seen");
    // Reopened with a clock far in the past, it still starts from the last
    // stored time.
    let (ledger, _) = Ledger::open(&dir.ledger(), &MEETING, Box::new(|| 1)).expect("reopens");
    let after = ledger.append_blocking(checked_out(&MEETING, &staff(), "time", 6)).expect("appended");
    ledger.shutdown();
    assert_eq!(after.time_ms, T0 + 100_000);
    let stored: Vec<u64> =
        read_records(&dir.ledger(), &MEETING).expect("reads").iter().map(|(r, _)| r.time_ms).collect();
    assert!(stored.windows(2).all(|w| w[0] <= w[1]), "{stored:?}");
}

fn reopen_journal(path: &std::path::Path) -> Journal {
    open_trusting(path, None).expect("the journal reopens")
}

#[test]
fn a_reopened_journal_replays_to_the_meeting_it_left() {
    let dir = TempDir::new("replay");
    let recorded = record_meeting(&dir.ledger());
    let journal = reopen_journal(&dir.ledger());
    let state = journal.state();
    let meeting = state.meeting().expect("the register was imported");
    assert_eq!(journal.records(), recorded.records.len() as u64);
    assert_eq!(state.admitted(), recorded.records.len() as u64);
    assert_eq!(meeting.quorum(), recorded.quorum, "the same presence and quorum");
    let results: Vec<_> = meeting
        .items()
        .iter()
        .map(|item| (item.id().to_string(), item.result().expect("closed").clone()))
        .collect();
    assert_eq!(results, recorded.results, "the same items and results");
    let closed = recorded.seq("item-3 closed");
    assert_eq!(state.seed("item-3"), Some(recorded.records[closed as usize - 1].1), "the lot's seed");
    assert_eq!(state.rounds("item-3"), 1);
    assert!(state.is_staff(&staff().public_key()));
    assert_eq!(state.daemon_key(), Some(fixture::daemon_key()));
    journal.close();
}

#[test]
fn a_reopened_journal_refuses_what_the_replayed_meeting_forbids_and_records_nothing() {
    let dir = TempDir::new("replay-refusals");
    let recorded = record_meeting(&dir.ledger());
    let mut journal = reopen_journal(&dir.ledger());
    let before = journal.records();
    // The same ballot again: its nonce was replayed into the state.
    let (first, _) = &recorded.records[recorded.seq("H01 votes on item-3") as usize - 1];
    let bytes = first.event.encode().expect("encodes");
    let replay =
        Signed { event: first.event.clone(), bytes, signer: first.signer, signature: first.signature };
    assert_eq!(journal.submit(replay), Err(SubmitError::Rejected(Rejection::RepeatedNonce)));
    // AG-1's badge was revoked when it left.
    let late = Ballot {
        item: id("item-3"),
        credential: CredentialId(2),
        votes: vec![HolderVote {
            holder: id("H02"),
            choice: Choice::Whole(asamblea_rules::OptionIndex::list(0)),
        }],
    };
    let late =
        sign(&MEETING, badge(2).keypair(), Event { nonce: nonce("late", 1), body: EventBody::Ballot(late) });
    assert_eq!(journal.submit(late), Err(SubmitError::Rejected(Rejection::RevokedBadge(CredentialId(2)))));
    // H01 is present, so arriving again is the rules' refusal.
    let again = Event { nonce: nonce("late", 2), body: EventBody::CheckedInPerson { holder: id("H01") } };
    assert_eq!(
        journal.submit(sign(&MEETING, &staff(), again)),
        Err(SubmitError::Rejected(Rejection::Rules(Refusal::AlreadyPresent)))
    );
    assert_eq!(journal.records(), before);
    // A valid event continues the same chain.
    let leaves = Event { nonce: nonce("late", 3), body: EventBody::CheckedOut { person: id("H01") } };
    let appended = journal.submit(sign(&MEETING, &staff(), leaves)).expect("H01 may leave");
    assert_eq!(appended.seq, before + 1);
    journal.close();
    assert_eq!(read_records(&dir.ledger(), &MEETING).expect("reads").len() as u64, before + 1);
}

/// The fixture's meeting with the event of `target` edited (its last byte
/// flipped) and every stored head recomputed, as someone who knows the
/// format but not the keys would leave it; with the heads as they were.
fn rechained_with_an_edit(name: &str, target_name: &str) -> (TempDir, u64, Vec<asamblea_wire::Digest>) {
    let dir = TempDir::new(name);
    let recorded = record_meeting(&dir.ledger());
    let target = recorded.seq(target_name);
    let original: Vec<asamblea_wire::Digest> = recorded.records.iter().map(|(_, head)| *head).collect();
    let conn = sqlite(&dir.ledger());
    conn.execute_batch("DROP TRIGGER events_no_update;").expect("trigger dropped");
    let mut chain = Chain::new(&MEETING);
    for (record, _) in &recorded.records {
        let mut bytes = record.encode().expect("encodes");
        if record.seq == target {
            *bytes.last_mut().expect("bytes") ^= 0x01;
        }
        let head = chain.append(&EventRecord::decode(&bytes).expect("canonical")).expect("in order");
        conn.execute(
            "UPDATE events SET record = ?1, head = ?2 WHERE seq = ?3",
            params![bytes, &head.0[..], record.seq as i64],
        )
        .expect("edited");
    }
    (dir, target, original)
}

fn open_trusting(
    path: &std::path::Path,
    trusted: Option<asamblea_wire::Checkpoint>,
) -> Result<Journal, OpenError> {
    Journal::open_trusting(
        path,
        MEETING,
        fixture::register(),
        fixture::profile(),
        Digest::sha256(fixture::PROFILE_BYTES),
        fixture::daemon_key(),
        stepping_clock().0,
        trusted,
    )
}

#[test]
fn a_start_trusts_the_daemons_signed_head_for_the_records_before_it_and_nothing_else() {
    let at = |seq: u64, heads: &[asamblea_wire::Digest]| asamblea_wire::Checkpoint {
        seq,
        head: heads[seq as usize - 1],
    };
    // Untouched: trusting the last head opens the same meeting.
    let dir = TempDir::new("trusted-clean");
    let recorded = record_meeting(&dir.ledger());
    let heads: Vec<asamblea_wire::Digest> = recorded.records.iter().map(|(_, h)| *h).collect();
    let last = heads.len() as u64;
    let journal = open_trusting(&dir.ledger(), Some(at(last, &heads))).expect("opens");
    assert_eq!(journal.records(), last);
    journal.close();
    // Fewer events stored than the daemon signed for: refused.
    let beyond = asamblea_wire::Checkpoint { seq: last + 1, head: heads[0] };
    assert_eq!(
        open_trusting(&dir.ledger(), Some(beyond)).err(),
        Some(OpenError::ShorterThanSigned { signed: last + 1, stored: last })
    );

    // A signature's event edited before the signed head, every head
    // recomputed: the chain no longer reaches the signed head.
    let (dir, target, original) = rechained_with_an_edit("trusted-before", "H01 votes on item-1");
    let last = original.len() as u64;
    assert_eq!(
        open_trusting(&dir.ledger(), Some(at(last, &original))).err(),
        Some(OpenError::CheckpointMismatch { seq: last })
    );
    // The same edit after the signed head: checked in full, refused at it.
    assert_eq!(
        open_trusting(&dir.ledger(), Some(at(target - 1, &original))).err(),
        Some(OpenError::Rejected { seq: target, rejection: Rejection::BadSignature })
    );

    // An edit that makes a later record break a rule, before the signed
    // head: "H05 arrives" becomes "H04 arrives", so H04's own arrival
    // later is refused (already present). Named as the change it is, not
    // as the rule it breaks, though the replay meets the refusal first.
    let (dir, target, original) = rechained_with_an_edit("trusted-rule", "H05 arrives");
    let last = original.len() as u64;
    // (Trusting the edited chain's own head at the edit — as if the
    // daemon had signed it — the rule refuses H04's arrival where it is.)
    let edited: Vec<asamblea_wire::Digest> =
        raw_records(&dir.ledger(), &MEETING).expect("reads").into_iter().map(|(_, head)| head).collect();
    let refusal = open_trusting(&dir.ledger(), Some(at(target, &edited))).err();
    assert!(
        matches!(refusal, Some(OpenError::Rejected { seq, .. }) if seq > target && seq < last),
        "the rule refuses H04's arrival: {refusal:?}"
    );
    assert_eq!(
        open_trusting(&dir.ledger(), Some(at(last, &original))).err(),
        Some(OpenError::CheckpointMismatch { seq: last })
    );
}
