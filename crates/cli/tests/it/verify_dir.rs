//! `asamblea verify DIR` as strict as the daemon's own start (issue 22,
//! point 4): the heads the daemon signed and kept in `DIR/ledger.checkpoints`
//! are evidence, and a ledger edited after them — a ballot of the open
//! item deleted and the chain rebuilt, the last records cut, a record's
//! time moved back — fails `verify DIR` as it stops the start; two
//! different heads the daemon signed at one event (an equivocation) are
//! named as such, whichever line comes first.

use std::path::{Path, PathBuf};

use asamblea_rules::OptionIndex;
use asamblea_wire::{Chain, Checkpoint, Digest, EventBody, EventRecord, HolderVote, Id};

use crate::support::asamblea;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// The merger meeting with its three holders present, the item open and
/// a ballot from each, stopped cleanly (so the daemon signed the head of
/// the ledger's end, as it does every few seconds while a poll is open).
fn voting(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("asamblea-verify-dir-{name}-{}", std::process::id()));
    crate::support::remove_meeting(&dir);
    let (meeting, register) = (dir.with_extension("toml"), dir.with_extension("csv"));
    std::fs::write(&meeting, crate::support::MERGER_MEETING).unwrap();
    std::fs::write(&register, crate::support::MERGER_REGISTER).unwrap();
    let out = asamblea(&["init", s(&dir), "--meeting", s(&meeting), "--register", s(&register)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let _ = (std::fs::remove_file(meeting), std::fs::remove_file(register));
    let mut service = asamblea_venue::service::Service::open(&dir).expect("open");
    for holder in ["A-1", "B-2", "C-3"] {
        service.check_in(holder).expect("checked in");
    }
    service.session_step(asamblea_rules::SessionStep::Installed, "").expect("installed");
    service.open_item("fusion").expect("opened");
    for holder in ["A-1", "B-2", "C-3"] {
        let seed = asamblea_kiosk::BadgeSeed::draw(&service.meeting_id()).expect("a seed");
        let (number, _) = service.issue_badge(holder, seed.public_key()).expect("a badge");
        // Apart in time, so that a record's time can be moved back.
        std::thread::sleep(std::time::Duration::from_millis(5));
        let vote = HolderVote {
            holder: Id::new(holder).unwrap(),
            choice: asamblea_wire::Choice::Whole(OptionIndex::FOR),
        };
        service.cast(&seed.numbered(number), "fusion", vec![vote]).expect("cast");
    }
    drop(service.close());
    dir
}

/// The ledger's records as `edit` leaves them, numbered again from 1 and
/// re-chained, every head recomputed — what someone with the file and the
/// format, but not the daemon's key, can do. The events' signatures are
/// untouched (they sign the event, not its number or time).
fn rewrite(dir: &Path, edit: impl FnOnce(&mut Vec<EventRecord>)) {
    let meeting = crate::support::meeting_id(dir);
    let conn = rusqlite::Connection::open(dir.join("ledger.db")).expect("raw open");
    let mut records: Vec<EventRecord> = {
        let mut rows = conn.prepare("SELECT record FROM events ORDER BY seq").unwrap();
        let rows = rows.query_map([], |row| row.get::<_, Vec<u8>>(0)).unwrap();
        rows.map(|bytes| EventRecord::decode(&bytes.unwrap()).expect("a record")).collect()
    };
    edit(&mut records);
    conn.execute_batch("DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete; DELETE FROM events;")
        .expect("triggers dropped");
    let mut chain = Chain::new(&meeting);
    for (at, record) in records.iter_mut().enumerate() {
        record.seq = at as u64 + 1;
        let head = chain.append(record).expect("in order");
        conn.execute(
            "INSERT INTO events (seq, record, head) VALUES (?1, ?2, ?3)",
            rusqlite::params![record.seq as i64, record.encode().unwrap(), &head.0[..]],
        )
        .expect("inserted");
    }
}

/// `verify DIR` fails (exit 1) saying `expected`, and a start (a check-in
/// opens the meeting) refuses the same folder; without the daemon's
/// signed heads, the same folder verifies — they are what catches it.
fn refused_by_both(dir: &Path, expected: &str) {
    let out = asamblea(&["verify", s(dir)]);
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "verify DIR: {said}{}", text(&out.stderr));
    assert!(said.starts_with("FALLA / FAILED: ") && said.contains(expected), "verify DIR: {said}");
    let json = asamblea(&["verify", s(dir), "--json"]);
    let answer: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(answer["verified"], false, "{answer}");
    let out = asamblea(&["checkin", s(dir), "A-1"]);
    assert_eq!(out.status.code(), Some(2), "the start: {}", text(&out.stderr));
    assert!(text(&out.stderr).contains("EL REGISTRO FUE ALTERADO"), "the start: {}", text(&out.stderr));
    std::fs::remove_file(asamblea_venue::checkpoints::path(dir)).unwrap();
    let out = asamblea(&["verify", s(dir)]);
    assert!(text(&out.stdout).contains("VERIFICADO"), "without the signed heads: {}", text(&out.stdout));
    crate::support::remove_meeting(dir);
}

#[test]
fn an_untouched_meeting_verifies_with_its_signed_heads_checked() {
    let dir = voting("untouched");
    let out = asamblea(&["verify", s(&dir)]);
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}{}", text(&out.stderr));
    assert!(said.contains("VERIFICADO") && said.contains("ledger.checkpoints"), "{said}");
    crate::support::remove_meeting(&dir);
}

#[test]
fn a_ballot_of_the_open_item_deleted_and_the_chain_rebuilt_fails_verify_dir_as_it_stops_the_start() {
    let dir = voting("deleted-ballot");
    rewrite(&dir, |records| {
        let first = records.iter().position(|r| matches!(r.event.body, EventBody::Ballot(_))).unwrap();
        records.remove(first);
    });
    refused_by_both(&dir, "ledger.checkpoints");
}

#[test]
fn the_last_records_cut_fail_verify_dir_as_they_stop_the_start() {
    let dir = voting("cut");
    rewrite(&dir, |records| records.truncate(records.len() - 2));
    refused_by_both(&dir, "ledger.checkpoints");
}

#[test]
fn a_records_time_moved_back_fails_verify_dir_as_it_stops_the_start() {
    let dir = voting("time-back");
    rewrite(&dir, |records| {
        let last = records.len() - 1;
        assert!(records[last].time_ms > records[last - 1].time_ms, "the fixture keeps them apart");
        records[last].time_ms = records[last - 1].time_ms;
    });
    refused_by_both(&dir, "ledger.checkpoints");
}

/// The file's lines with a second head the daemon's key signed at the
/// number of its last line, before or after the true one.
fn equivocate(dir: &Path, forged_first: bool) -> u64 {
    let file = asamblea_venue::checkpoints::path(dir);
    let kept = std::fs::read_to_string(&file).unwrap();
    let last = kept.lines().last().expect("a signed head");
    let seq: u64 = last.split(':').next().unwrap().parse().unwrap();
    let keys = asamblea_venue::secrets::key_folder_of(dir).unwrap();
    let daemon =
        asamblea_wire::Keypair::from_seed(&asamblea_venue::secrets::read_key(&keys, "daemon").unwrap());
    let other = Checkpoint { seq, head: Digest([7; 32]) };
    let signature = other.sign(&crate::support::meeting_id(dir), &daemon);
    let forged = format!("{seq}:{}:{}\n", other.head, asamblea_wire::hex::encode(&signature.0));
    std::fs::write(&file, if forged_first { forged + &kept } else { kept + &forged }).unwrap();
    seq
}

#[test]
fn two_heads_the_daemon_signed_at_one_event_are_an_equivocation_whichever_comes_first() {
    for forged_first in [false, true] {
        let dir = voting(if forged_first { "equivocation-forged-first" } else { "equivocation-true-first" });
        let seq = equivocate(&dir, forged_first);
        let out = asamblea(&["verify", s(&dir)]);
        let said = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "forged first: {forged_first}: {said}{}", text(&out.stderr));
        assert!(
            said.starts_with("FALLA / FAILED: ")
                && said.contains("EQUIVOCACIÓN")
                && said.contains("equivocation")
                && said.contains(&format!("evento {seq}")),
            "forged first: {forged_first}: {said}"
        );
        let out = asamblea(&["checkin", s(&dir), "A-1"]);
        assert_eq!(out.status.code(), Some(2), "the start: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("EQUIVOCACIÓN"), "the start: {}", text(&out.stderr));
        crate::support::remove_meeting(&dir);
    }
}
