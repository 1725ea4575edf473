//! The writer with an etcd copy: each batch is in the cluster before its
//! acknowledgement, a follower reads back the same bytes, a writer that
//! is no longer the leader is fenced, and without a majority nothing is
//! acknowledged.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use asamblea_ledger::{Cause, Ledger, LedgerError, Signed};
use asamblea_replica::{Etcd, Head};
use asamblea_wire::{Event, EventBody, Id, Keypair, MeetingId, Nonce};

use asamblea_replica::cluster::{missing, Cluster};

fn not_run(test: &str, why: &str) {
    asamblea_replica::cluster::not_run(test, why, std::path::Path::new(env!("CARGO_TARGET_TMPDIR")));
}

const MEETING: MeetingId = MeetingId([0x3c; 32]);

fn clock() -> asamblea_ledger::Clock {
    let at = std::sync::atomic::AtomicU64::new(1_780_000_000_000);
    Box::new(move || at.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
}

/// A signed event, the `n`th of its writer (any well-formed event: the
/// writer stores, the replay judges).
fn event(n: u32, writer: u8) -> Signed {
    let key = Keypair::from_seed(&[0x20 + writer; 32]);
    let mut nonce = [writer; 16];
    nonce[..4].copy_from_slice(&n.to_be_bytes());
    let event = Event {
        nonce: Nonce(nonce),
        body: EventBody::CheckedOut { person: Id::new(&format!("H{n}")).unwrap() },
    };
    let bytes = event.encode().unwrap();
    let signature = key.sign(&MEETING, &bytes).unwrap();
    Signed::new(event, key.public_key(), signature).unwrap()
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("asamblea-replica-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn open(path: &Path) -> Ledger {
    Ledger::open(path, &MEETING, clock()).expect("opens").0
}

/// `n` events queued at once (so the writer batches them), their
/// acknowledgements in order.
fn append_many(ledger: &Ledger, from: u32, n: u32) -> Vec<Result<asamblea_ledger::Appended, LedgerError>> {
    let (tx, rx) = mpsc::channel();
    for i in from..from + n {
        let tx = tx.clone();
        ledger.append(event(i, 1), Box::new(move |done| tx.send((i, done)).unwrap()));
    }
    let mut answers: Vec<_> =
        (0..n).map(|_| rx.recv_timeout(Duration::from_secs(60)).expect("answered")).collect();
    answers.sort_by_key(|(i, _)| *i);
    answers.into_iter().map(|(_, done)| done).collect()
}

#[test]
fn every_batch_is_in_the_cluster_before_its_acknowledgement_and_reads_back_the_same() {
    if let Some(why) = missing() {
        return not_run("replication::every_batch_is_in_the_cluster", why);
    }
    let cluster = Cluster::start("batches");
    let dir = folder("batches");
    let ledger = open(&dir.join("ledger.db"));
    let copy = Etcd::new(cluster.endpoints(), &MEETING);
    assert_eq!(copy.head().unwrap(), None, "an empty copy");
    ledger.replicate_to(Box::new(Etcd::new(cluster.endpoints(), &MEETING))).unwrap();
    // One alone, then 350 at once: batches of more than one transaction's
    // worth of records (RECORDS_PER_TXN) go in several.
    let first = ledger.append_blocking(event(0, 1)).expect("acknowledged");
    assert_eq!(
        copy.head().unwrap(),
        Some(Head { seq: first.seq, head: first.head }),
        "in the copy when acknowledged"
    );
    for done in append_many(&ledger, 1, 350) {
        let appended = done.expect("acknowledged");
        let head = copy.head().unwrap().expect("a head");
        assert!(head.seq >= appended.seq, "record {} acknowledged before the copy had it", appended.seq);
    }
    // A follower reads every record back, byte for byte, chained as here.
    let (chain, _) = ledger.tip().unwrap();
    let stored = asamblea_ledger::raw_records(&dir.join("ledger.db"), &MEETING).unwrap();
    let copied = copy.records_after(0).unwrap();
    assert_eq!(copied.len(), 351);
    assert_eq!(copy.head().unwrap(), Some(Head { seq: chain.seq(), head: chain.head() }));
    for ((seq, bytes), (record, _)) in copied.iter().zip(&stored) {
        assert_eq!(bytes, record, "record {seq}");
    }
    assert_eq!(copy.records_after(349).unwrap().iter().map(|(s, _)| *s).collect::<Vec<_>>(), [350, 351]);
    // Some 350 requests, on one connection kept open.
    assert_eq!(copy.connections_opened(), 1, "a connection per request");
    ledger.shutdown();
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_writer_that_is_no_longer_the_leader_cannot_fork_the_chain() {
    if let Some(why) = missing() {
        return not_run("replication::a_writer_that_is_no_longer_the_leader", why);
    }
    let cluster = Cluster::start("fenced");
    let dir = folder("fenced");
    let (leader_path, deposed_path) = (dir.join("leader.db"), dir.join("deposed.db"));
    // Two records, replicated; the deposed node's disk is a copy of them.
    let leader = open(&leader_path);
    leader.replicate_to(Box::new(Etcd::new(cluster.endpoints(), &MEETING))).unwrap();
    for done in append_many(&leader, 0, 2) {
        done.expect("acknowledged");
    }
    leader.shutdown();
    std::fs::copy(&leader_path, &deposed_path).unwrap();
    // The leader goes on: record 3.
    let leader = open(&leader_path);
    leader.replicate_to(Box::new(Etcd::new(cluster.endpoints(), &MEETING))).unwrap();
    let third = leader.append_blocking(event(2, 1)).expect("acknowledged");
    // The deposed node writes its own record 3: refused, and it stops.
    let deposed = open(&deposed_path);
    deposed.replicate_to(Box::new(Etcd::new(cluster.endpoints(), &MEETING))).unwrap();
    let forked = deposed.append_blocking(event(2, 2));
    match forked {
        Err(LedgerError::WriterStopped { cause: Cause::Fenced, reason }) => {
            assert!(reason.contains("ya no es el líder"), "{reason}");
            assert!(
                reason.contains(&format!("{}:{}", third.seq, third.head)),
                "names what the copy holds: {reason}"
            );
        }
        other => panic!("a fork acknowledged or refused otherwise: {other:?}"),
    }
    assert!(deposed.append_blocking(event(3, 2)).is_err(), "stopped for good");
    let copy = Etcd::new(cluster.endpoints(), &MEETING);
    assert_eq!(copy.head().unwrap(), Some(Head { seq: third.seq, head: third.head }), "the leader's chain");
    let copied = copy.records_after(0).unwrap();
    let stored = asamblea_ledger::raw_records(&leader_path, &MEETING).unwrap();
    assert_eq!(
        copied.iter().map(|(_, b)| b.clone()).collect::<Vec<_>>(),
        stored.into_iter().map(|(b, _)| b).collect::<Vec<_>>()
    );
    // A first writer with another chain from nothing is fenced too.
    let stranger = open(&dir.join("stranger.db"));
    stranger.replicate_to(Box::new(Etcd::new(cluster.endpoints(), &MEETING))).unwrap();
    assert!(matches!(
        stranger.append_blocking(event(0, 3)),
        Err(LedgerError::WriterStopped { cause: Cause::Fenced, .. })
    ));
    leader.shutdown();
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn without_a_majority_nothing_is_acknowledged_and_the_writer_stops() {
    if let Some(why) = missing() {
        return not_run("replication::without_a_majority", why);
    }
    let mut cluster = Cluster::start("majority");
    let dir = folder("majority");
    let path = dir.join("ledger.db");
    let ledger = open(&path);
    let replica = Etcd::new(cluster.endpoints(), &MEETING).with_timeout(Duration::from_secs(3));
    ledger.replicate_to(Box::new(replica)).unwrap();
    let first = ledger.append_blocking(event(0, 1)).expect("acknowledged");
    // One member down: a majority remains, and the writer goes on.
    cluster.kill(0);
    let second = ledger.append_blocking(event(1, 1)).expect("acknowledged by two of three");
    // Two down: the last member cannot commit; nothing is acknowledged.
    cluster.kill(1);
    match ledger.append_blocking(event(2, 1)) {
        Err(LedgerError::WriterStopped { cause: Cause::Unreplicated, reason }) => {
            assert!(reason.contains("la mayoría de las réplicas no confirmó"), "{reason}");
        }
        other => panic!("acknowledged without a majority: {other:?}"),
    }
    // The record is on this disk, unacknowledged. Whether the cluster
    // takes it is undecided until a majority is back (the last member
    // may hold it in its log): either way the copy is a prefix of this
    // disk's chain, never another chain.
    assert_eq!(asamblea_ledger::record_count(&path, &MEETING).unwrap(), second.seq + 1);
    cluster.restart(0);
    let copy = Etcd::new(cluster.endpoints(), &MEETING);
    let head = copy.head().unwrap().expect("a head");
    let stored = asamblea_ledger::raw_records(&path, &MEETING).unwrap();
    assert!(head.seq == second.seq || head.seq == second.seq + 1, "{head:?}");
    assert_eq!(
        head.head,
        stored[usize::try_from(head.seq).unwrap() - 1].1,
        "the copy is this chain's prefix"
    );
    let copied: Vec<Vec<u8>> = copy.records_after(0).unwrap().into_iter().map(|(_, b)| b).collect();
    assert_eq!(copied[..], stored.iter().map(|(b, _)| b.clone()).collect::<Vec<_>>()[..copied.len()]);
    assert_eq!(first.seq + 1, second.seq);
    // The majority is back; the stopped writer stays stopped (a restart
    // reconciles its tail).
    assert!(matches!(
        ledger.append_blocking(event(3, 1)),
        Err(LedgerError::WriterStopped { cause: Cause::Unreplicated, .. })
    ));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn one_node_leads_under_its_lease_and_another_once_it_runs_out() {
    if let Some(why) = missing() {
        return not_run("replication::one_node_leads_under_its_lease", why);
    }
    let cluster = Cluster::start("lead");
    let copy = Etcd::new(cluster.endpoints(), &MEETING);
    assert_eq!(copy.leader().unwrap(), None);
    let first = copy.grant(1).unwrap();
    let second = copy.grant(1).unwrap();
    assert!(copy.campaign("nodo-1", first).unwrap(), "no one led: nodo-1 leads");
    assert!(!copy.campaign("nodo-2", second).unwrap(), "nodo-1 leads");
    assert!(copy.campaign("nodo-1", first).unwrap(), "nodo-1 still leads");
    // nodo-1 killed and started again at once, with a new lease: its name
    // under the old lease is not its lead (no one keeps that lease alive).
    let restarted = copy.grant(1).unwrap();
    assert!(!copy.campaign("nodo-1", restarted).unwrap(), "a restarted nodo-1 waits for its old lease");
    assert_eq!(copy.leader().unwrap().as_deref(), Some("nodo-1"));
    assert!(copy.keep_alive(first).unwrap(), "kept alive");
    // nodo-1 stops answering: its lease runs out and nodo-2 takes the lead
    // (nodo-2 keeps its own lease alive meanwhile).
    let started = std::time::Instant::now();
    let mut second = second;
    loop {
        if !copy.keep_alive(second).unwrap() {
            second = copy.grant(1).unwrap();
        }
        if copy.campaign("nodo-2", second).unwrap() {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "nodo-1's lease never ran out");
        std::thread::sleep(Duration::from_millis(100));
    }
    println!("replication: nodo-2 took the lead {:?} after nodo-1 stopped (lease of 1 s)", started.elapsed());
    assert_eq!(copy.leader().unwrap().as_deref(), Some("nodo-2"));
    assert!(!copy.keep_alive(first).unwrap(), "nodo-1's lease is gone: it no longer leads");
}

/// A port found free and then taken by someone else before etcd binds it
/// (another test starting its own cluster): the member that could not bind
/// is started again with the cluster on fresh ports.
#[test]
fn a_cluster_whose_port_was_taken_starts_on_others() {
    if let Some(why) = missing() {
        return not_run("replication::a_cluster_whose_port_was_taken", why);
    }
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let first = taken.local_addr().unwrap();
    let mut given = 0;
    let mut pick = || {
        given += 1;
        if given == 1 {
            first
        } else {
            std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap()
        }
    };
    let cluster = Cluster::start_on_ports("taken", &mut pick);
    assert!(!cluster.endpoints().contains(&first), "{:?}", cluster.endpoints());
    let copy = Etcd::new(cluster.endpoints(), &MEETING);
    assert_eq!(copy.leader().unwrap(), None, "the cluster answers");
    drop(taken);
}
