//! Integration tests of the ledger file: durability, append-only storage,
//! detection of hand edits, group commit, and kill -9 at random moments.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use asamblea_ledger::{check_chain, Ledger, LedgerError};

const MEETING: [u8; 32] = [7; 32];

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("asamblea-ledger-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn record(n: u64) -> Vec<u8> {
    format!("record number {n}").into_bytes()
}

#[test]
fn appended_records_come_back_in_order_after_reopening() {
    let dir = temp_dir("reopen");
    let path = dir.join("ledger.db");
    let (ledger, stored) = Ledger::open(&path, &MEETING).expect("open");
    assert!(stored.is_empty());
    let mut heads = Vec::new();
    for n in 1..=50 {
        let appended = ledger.append_blocking(record(n)).expect("append");
        assert_eq!(appended.seq, n);
        heads.push(appended.head);
    }
    ledger.shutdown();
    let (ledger, stored) = Ledger::open(&path, &MEETING).expect("reopen");
    assert_eq!(stored.len(), 50);
    for (i, r) in stored.iter().enumerate() {
        assert_eq!(r.seq, i as u64 + 1);
        assert_eq!(r.record, record(r.seq));
        assert_eq!(r.head, heads[i]);
    }
    // Appending continues the same chain.
    assert_eq!(ledger.append_blocking(record(51)).expect("append").seq, 51);
    ledger.shutdown();
}

#[test]
fn a_ledger_of_another_meeting_is_refused() {
    let dir = temp_dir("other");
    let path = dir.join("ledger.db");
    Ledger::open(&path, &MEETING).expect("open").0.shutdown();
    let error = Ledger::open(&path, &[8; 32]).err().expect("refused");
    assert!(matches!(error, LedgerError::OtherMeeting { .. }), "{error}");
}

#[test]
fn the_file_refuses_updates_and_deletes() {
    let dir = temp_dir("append-only");
    let path = dir.join("ledger.db");
    let (ledger, _) = Ledger::open(&path, &MEETING).expect("open");
    ledger.append_blocking(record(1)).expect("append");
    ledger.shutdown();
    let conn = rusqlite::Connection::open(&path).expect("raw open");
    let update = conn.execute("UPDATE events SET record = x'00' WHERE seq = 1", []).unwrap_err();
    assert!(update.to_string().contains("append-only"), "{update}");
    let delete = conn.execute("DELETE FROM events", []).unwrap_err();
    assert!(delete.to_string().contains("append-only"), "{delete}");
}

/// Edits the file behind the ledger's back (triggers dropped, as a person
/// with the sqlite3 shell could), then reopens it.
fn tamper(name: &str, sql: &str) -> LedgerError {
    let dir = temp_dir(name);
    let path = dir.join("ledger.db");
    let (ledger, _) = Ledger::open(&path, &MEETING).expect("open");
    for n in 1..=10 {
        ledger.append_blocking(record(n)).expect("append");
    }
    ledger.shutdown();
    let conn = rusqlite::Connection::open(&path).expect("raw open");
    conn.execute_batch(&format!("DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete; {sql}"))
        .expect("tamper");
    drop(conn);
    Ledger::open(&path, &MEETING).err().expect("a tampered ledger is refused")
}

#[test]
fn a_hand_edited_record_is_caught_at_its_sequence_number() {
    let error = tamper("edit", "UPDATE events SET record = CAST('record number 99' AS BLOB) WHERE seq = 4;");
    assert!(matches!(error, LedgerError::BrokenChain { seq: 4, .. }), "{error}");
}

#[test]
fn a_deleted_record_is_caught_as_a_gap() {
    let error = tamper("delete", "DELETE FROM events WHERE seq = 6;");
    assert!(matches!(error, LedgerError::BrokenChain { seq: 6, .. }), "{error}");
    assert!(error.to_string().contains("missing"), "{error}");
}

#[test]
fn an_edited_head_is_caught() {
    let error = tamper("head", "UPDATE events SET head = zeroblob(32) WHERE seq = 9;");
    assert!(matches!(error, LedgerError::BrokenChain { seq: 9, .. }), "{error}");
}

#[test]
fn a_cut_tail_still_verifies_as_a_chain() {
    // Truncation is invisible to the chain alone: the checkpoint the chair
    // reads out (the head at a known number) is what catches it.
    let dir = temp_dir("tail");
    let path = dir.join("ledger.db");
    let (ledger, _) = Ledger::open(&path, &MEETING).expect("open");
    let mut last = None;
    for n in 1..=5 {
        last = Some(ledger.append_blocking(record(n)).expect("append"));
    }
    ledger.shutdown();
    let conn = rusqlite::Connection::open(&path).expect("raw open");
    conn.execute_batch("DROP TRIGGER events_no_delete; DELETE FROM events WHERE seq = 5;").expect("cut");
    drop(conn);
    let (ledger, stored) = Ledger::open(&path, &MEETING).expect("a cut chain is still a chain");
    ledger.shutdown();
    let head = check_chain(&stored, &MEETING).expect("chain");
    assert_ne!(Some(head), last.map(|a| a.head), "the checkpoint at 5 no longer matches");
}

#[test]
fn concurrent_appends_are_group_committed() {
    let dir = temp_dir("group");
    let path = dir.join("ledger.db");
    let (ledger, _) = Ledger::open(&path, &MEETING).expect("open");
    let ledger = Arc::new(ledger);
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let ledger = Arc::clone(&ledger);
            std::thread::spawn(move || {
                for n in 0..200 {
                    ledger.append_blocking(record(t * 1000 + n)).expect("append");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("appender");
    }
    let stats = Arc::try_unwrap(ledger).ok().expect("sole owner").shutdown();
    assert_eq!(stats.records, 1600);
    assert!(stats.batches < stats.records, "8 waiting appenders must share commits: {stats:?}");
    let (ledger, stored) = Ledger::open(&path, &MEETING).expect("reopen");
    ledger.shutdown();
    assert_eq!(stored.len(), 1600);
}

// ----- kill -9 ------------------------------------------------------------

const CHILD_ENV: &str = "ASAMBLEA_LEDGER_CRASH_CHILD";

/// Not a test of its own: the body of the child process the crash test
/// starts (this same test binary, with the environment variable set). It
/// appends from several threads until killed, printing each
/// acknowledgement only after it arrived.
#[test]
fn crash_child() {
    let Ok(path) = std::env::var(CHILD_ENV) else { return };
    let (ledger, stored) = Ledger::open(Path::new(&path), &MEETING).expect("child opens");
    let ledger = Arc::new(ledger);
    let base = stored.len() as u64 * 1_000_000;
    let threads: Vec<_> = (0..4u64)
        .map(|t| {
            let ledger = Arc::clone(&ledger);
            std::thread::spawn(move || {
                for n in 0.. {
                    let content = record(base + t * 100_000 + n);
                    let appended = ledger.append_blocking(content.clone()).expect("append");
                    let line =
                        format!("ack {} {}\n", appended.seq, String::from_utf8(content).expect("utf-8"));
                    let mut out = std::io::stdout().lock();
                    out.write_all(line.as_bytes()).expect("stdout");
                    out.flush().expect("flush");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("appender");
    }
}

#[test]
fn kill_9_at_random_moments_loses_no_acknowledged_record() {
    let dir = temp_dir("crash");
    let path = dir.join("ledger.db");
    let seed = SystemTime::now().duration_since(UNIX_EPOCH).expect("clock").subsec_nanos() as u64;
    let mut rng = seed | 1;
    let mut acknowledged: Vec<(u64, String)> = Vec::new();
    for round in 0..5 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let wait = Duration::from_millis(100 + rng % 400);
        let mut child = Command::new(std::env::current_exe().expect("test binary"))
            .args(["--exact", "crash_child", "--nocapture", "--test-threads=1"])
            .env(CHILD_ENV, &path)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("child starts");
        let stdout = child.stdout.take().expect("stdout");
        let reader = std::thread::spawn(move || {
            BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .filter_map(|line| {
                    let rest = line.strip_prefix("ack ")?;
                    let (seq, content) = rest.split_once(' ')?;
                    Some((seq.parse::<u64>().ok()?, content.to_string()))
                })
                .collect::<Vec<_>>()
        });
        let started = Instant::now();
        std::thread::sleep(wait);
        child.kill().expect("SIGKILL");
        child.wait().expect("reaped");
        let acks = reader.join().expect("reader");
        assert!(
            !acks.is_empty(),
            "round {round} (seed {seed}): the child acknowledged nothing in {:?}",
            started.elapsed()
        );
        acknowledged.extend(acks);

        let conn = rusqlite::Connection::open(&path).expect("raw open");
        let integrity: String =
            conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).expect("integrity_check");
        assert_eq!(integrity, "ok", "round {round} (seed {seed})");
        drop(conn);
        let (ledger, stored) = Ledger::open(&path, &MEETING)
            .unwrap_or_else(|e| panic!("round {round} (seed {seed}): the ledger does not reopen: {e}"));
        ledger.shutdown();
        for (seq, content) in &acknowledged {
            let found =
                stored.get(*seq as usize - 1).map(|r| String::from_utf8_lossy(&r.record).into_owned());
            assert_eq!(
                found.as_deref(),
                Some(content.as_str()),
                "round {round} (seed {seed}): acknowledged event {seq} lost"
            );
        }
    }
    assert!(acknowledged.len() >= 5, "the crash test exercised too little: {}", acknowledged.len());
}
