//! kill -9 at a random moment loses no acknowledged event.
//!
//! The test re-runs this same binary as a child process that appends
//! validly signed events from several threads and prints each
//! acknowledgement only once it has it; the parent kills it with SIGKILL
//! at a random moment, five times on the same file, and after each kill
//! checks the file with SQLite, reopens the ledger (every link re-derived)
//! and finds every acknowledged event at its number.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use asamblea_ledger::Ledger;
use asamblea_wire::Digest;

use crate::fixture::{staff, MEETING};
use crate::support::{checked_out, hex, seed, Rng, TempDir};

/// Set in the child's environment: the ledger file to append to.
const CHILD_PATH: &str = "ASAMBLEA_LEDGER_CRASH_CHILD";
/// Set in the child's environment: the round, so nonces never repeat.
const CHILD_ROUND: &str = "ASAMBLEA_LEDGER_CRASH_ROUND";
const CHILD_TEST: &str = "crash::the_child_of_the_kill_9_test_appends_until_it_is_killed";
const THREADS: u64 = 8;
const ROUNDS: usize = 5;

/// The child process's body, not a test of its own: without the
/// environment variable it returns at once. With it, it appends
/// `checked-out` events signed by the staff key from several threads until
/// killed, and prints `ack <seq> <event digest>` for each only after
/// `append_blocking` returned it.
#[test]
fn the_child_of_the_kill_9_test_appends_until_it_is_killed() {
    let Some(path) = std::env::var_os(CHILD_PATH) else { return };
    let round: u64 = std::env::var(CHILD_ROUND).ok().and_then(|r| r.parse().ok()).expect("a round");
    let clock =
        Box::new(|| SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970").as_millis() as u64);
    let (ledger, _) = Ledger::open(Path::new(&path), &MEETING, clock).expect("the child opens the ledger");
    let ledger = Arc::new(ledger);
    // Reopening a long ledger takes a while in debug: the parent starts
    // its random wait from here, so that the kill lands in the burst.
    let mut out = std::io::stdout().lock();
    out.write_all(b"\nready\n").and_then(|()| out.flush()).expect("stdout");
    drop(out);
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let ledger = Arc::clone(&ledger);
            std::thread::spawn(move || {
                let key = staff();
                let space = format!("crash-{round}-{t}");
                for n in 0.. {
                    let signed = checked_out(&MEETING, &key, &space, n);
                    let ack = ledger.append_blocking(signed).expect("appended");
                    let line = format!("ack {} {}\n", ack.seq, hex(&ack.event_digest.0));
                    let mut out = std::io::stdout().lock();
                    out.write_all(line.as_bytes()).expect("stdout");
                    out.flush().expect("flush");
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("appender");
    }
}

/// When the parent kills the child.
#[derive(Clone, Copy, Debug)]
enum Moment {
    /// Right after reading the n-th acknowledgement.
    AtAck(usize),
    /// After this long into the burst.
    After(Duration),
}

/// The complete `ack` lines of the child's output.
fn parse_acks(line: &str) -> Option<(u64, String)> {
    let (seq, digest) = line.strip_prefix("ack ")?.split_once(' ')?;
    let complete = digest.len() == 64 && digest.bytes().all(|b| b.is_ascii_hexdigit());
    complete.then(|| Some((seq.parse().ok()?, digest.to_string())))?
}

#[test]
fn kill_9_at_random_moments_loses_no_acknowledged_event() {
    let dir = TempDir::new("crash");
    let path = dir.ledger();
    let seed = seed();
    let context = |round: usize| format!("round {round} (replay with ASAMBLEA_TEST_SEED={seed})");
    let mut rng = Rng::new(seed);
    let mut acknowledged: Vec<(u64, String)> = Vec::new();
    for round in 0..ROUNDS {
        // Even rounds kill right after a random acknowledgement arrives (an
        // acknowledgement given before its commit is exposed there); odd
        // rounds at a random time into the burst.
        let moment = if round % 2 == 0 {
            Moment::AtAck(rng.range(1, 6_000) as usize)
        } else {
            Moment::After(Duration::from_millis(rng.range(20, 800)))
        };
        let mut child = Command::new(std::env::current_exe().expect("the test binary"))
            .args(["--exact", CHILD_TEST, "--nocapture", "--test-threads=1"])
            .env(CHILD_PATH, &path)
            .env(CHILD_ROUND, round.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the child starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr = child.stderr.take().expect("stderr");
        let child = Arc::new(Mutex::new(child));
        let (ready_tx, ready) = mpsc::channel();
        let reader = {
            let child = Arc::clone(&child);
            let kill_at = if let Moment::AtAck(n) = moment { Some(n) } else { None };
            std::thread::spawn(move || {
                let mut acks = Vec::new();
                for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                    if line == "ready" {
                        let _ = ready_tx.send(());
                    }
                    acks.extend(parse_acks(&line));
                    if Some(acks.len()) == kill_at {
                        child.lock().expect("not poisoned").kill().expect("SIGKILL");
                    }
                }
                acks
            })
        };
        let errors = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let opened = ready.recv_timeout(Duration::from_secs(120));
        let started = Instant::now();
        let wait = match moment {
            Moment::After(wait) => wait,
            // The reader kills; this is only a bound in case it never can.
            Moment::AtAck(_) => Duration::from_secs(60),
        };
        if opened.is_ok() {
            while started.elapsed() < wait && !reader.is_finished() {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        child.lock().expect("not poisoned").kill().expect("SIGKILL");
        let acks = reader.join().expect("the reader");
        let status = child.lock().expect("not poisoned").wait().expect("reaped");
        let errors = errors.join().expect("the stderr reader");
        assert!(
            status.code().is_none(),
            "{}: the child ended by itself ({status}) rather than by SIGKILL: {errors}",
            context(round)
        );
        assert!(opened.is_ok(), "{}: the child never opened the ledger: {errors}", context(round));
        assert!(
            !acks.is_empty(),
            "{}: no acknowledgement in {:?}: {errors}",
            context(round),
            started.elapsed()
        );
        eprintln!("{}: {} acknowledgements, killed {moment:?}", context(round), acks.len());
        acknowledged.extend(acks);

        let conn = rusqlite::Connection::open(&path).expect("SQLite opens the file");
        let integrity: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).expect("checked");
        assert_eq!(integrity, "ok", "{}", context(round));
        drop(conn);
        let (ledger, stored) = Ledger::open(&path, &MEETING, Box::new(|| 0))
            .unwrap_or_else(|e| panic!("{}: the ledger does not reopen: {e}", context(round)));
        ledger.shutdown();
        for (seq, digest) in &acknowledged {
            let found = stored.get(*seq as usize - 1).map(|record| {
                assert_eq!(record.seq, *seq);
                hex(&Digest::sha256(&record.event.encode().expect("encodes")).0)
            });
            assert_eq!(
                found.as_ref(),
                Some(digest),
                "{}: acknowledged event {seq} is lost or changed",
                context(round)
            );
        }
        for record in &stored {
            assert!(
                record.verify(&MEETING).is_ok(),
                "{}: record {} is not intact",
                context(round),
                record.seq
            );
        }
    }
    assert!(acknowledged.len() >= 1_000, "too few acknowledgements to mean anything: {}", acknowledged.len());
}
