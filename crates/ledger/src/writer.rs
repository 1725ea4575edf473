//! The one writer: a thread that owns the SQLite connection and
//! group-commits.
//!
//! Callers hand it signed events; it takes every event waiting (up to
//! [`MAX_BATCH`]; a small batch with several callers waiting lingers, up to
//! [`GROUP_WAIT`], for as long as more keep arriving), gives each its
//! sequence number and time, chains them, writes them in one transaction —
//! one COMMIT, one fsync — and only then calls each caller's completion. No acknowledgement ever precedes the
//! fsync that makes it true. After a failed commit the writer refuses
//! everything (fail-stop): the caller's in-memory state may be ahead of
//! the file, and only a restart that replays the file is safe.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvError, Sender, TryRecvError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use asamblea_wire::{Chain, Digest, EventRecord, WireError};
use rusqlite::Connection;

use crate::{Appended, LedgerError, Signed};

/// At most this many records go in one transaction.
pub const MAX_BATCH: usize = 4096;

/// A batch smaller than this, with several callers waiting, waits up to
/// [`GROUP_WAIT`] for more before it is committed (64: the kiosks of a
/// large venue, each with one ballot in flight).
pub const GROUP_TARGET: usize = 64;

/// How long a small batch lingers for more records at most: far below a
/// ballot's latency budget, and about one fsync here. It stops sooner when
/// a [`GROUP_SLICE`] brings nothing.
pub const GROUP_WAIT: Duration = Duration::from_micros(1000);

/// The writer looks for more records this often while it lingers (at
/// least: Linux adds its timer slack, ~50 µs, to every sleep).
const GROUP_SLICE: Duration = Duration::from_micros(100);

/// What a caller is told once its record is durable (or not).
pub type Completion = Box<dyn FnOnce(Result<Appended, LedgerError>) + Send>;

/// Milliseconds since the Unix epoch; injected so tests control time.
pub type Clock = Box<dyn Fn() -> u64 + Send>;

/// What a [`Request::Tip`] is answered with.
pub(crate) type TipCompletion = Box<dyn FnOnce(Result<(Chain, u64), LedgerError>) + Send>;

pub(crate) enum Request {
    Append {
        signed: Box<Signed>,
        done: Completion,
    },
    /// Once everything queued before is durable: the chain, and the time
    /// the next records take (now, or the last record's time if later), from
    /// which the next records' places are known.
    Tip {
        done: TipCompletion,
    },
    /// Events that reach the ledger together or not at all: one
    /// transaction, every record stamped `time_ms` (a close, its result and
    /// its lots).
    Group {
        events: Vec<Signed>,
        time_ms: u64,
        done: Box<dyn FnOnce(Result<Vec<Appended>, LedgerError>) + Send>,
    },
    /// Records another node wrote, read from the copy and admitted by
    /// the caller's replay: stored as they are (their numbers and times),
    /// in one transaction, if the chain is still `from` (the caller's
    /// chain before them); the chain becomes `to`. Never copied to the
    /// replica: they came from it.
    Copied {
        from: Chain,
        to: Chain,
        rows: Vec<(u64, Vec<u8>, Digest)>,
        done: Box<dyn FnOnce(Result<(), LedgerError>) + Send>,
    },
    /// From the next batch on, every batch is copied to `replica` before
    /// it is acknowledged.
    Replicate {
        replica: Box<dyn crate::Replica>,
        done: Box<dyn FnOnce() + Send>,
    },
    /// Finish everything queued before, then stop.
    Shutdown {
        done: Box<dyn FnOnce() + Send>,
    },
}

/// Counters a benchmark reads: how many batches and records were
/// committed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriterStats {
    /// Transactions committed (= fsyncs of the WAL).
    pub batches: u64,
    /// Records committed.
    pub records: u64,
}

pub(crate) struct Writer {
    pub(crate) sender: Sender<Request>,
    pub(crate) thread: Option<JoinHandle<WriterStats>>,
    pub(crate) disk: DiskWatch,
}

/// How long the writer has been inside a write to its own disk, read from
/// any thread without waiting for the writer or anything it holds. A disk
/// that stops answering (a frozen file system, a dying drive retrying
/// for minutes) holds the writer there, and every caller waiting on it: a
/// replicated meeting's leader then gives up its lead
/// (`docs/replication.md`), since it can acknowledge nothing more.
#[derive(Clone, Debug)]
pub struct DiskWatch(Arc<(Instant, AtomicU64)>);

impl DiskWatch {
    fn new() -> DiskWatch {
        DiskWatch(Arc::new((Instant::now(), AtomicU64::new(0))))
    }

    /// Milliseconds since the watch began, plus one (0 means idle).
    fn now(&self) -> u64 {
        u64::try_from(self.0 .0.elapsed().as_millis()).unwrap_or(u64::MAX - 1) + 1
    }

    /// `write` timed as one write to the disk.
    fn during<T>(&self, write: impl FnOnce() -> T) -> T {
        self.0 .1.store(self.now(), Ordering::Release);
        let written = write();
        self.0 .1.store(0, Ordering::Release);
        written
    }

    /// How long the write in progress has taken so far; `None` when the
    /// writer is not writing to its disk.
    pub fn busy_for(&self) -> Option<Duration> {
        match self.0 .1.load(Ordering::Acquire) {
            0 => None,
            since => Some(Duration::from_millis(self.now().saturating_sub(since))),
        }
    }
}

/// Starts the writer on a chain whose last record has time `last_time`.
pub(crate) fn spawn(conn: Connection, chain: Chain, last_time: u64, clock: Clock, path: String) -> Writer {
    let (sender, receiver) = mpsc::channel();
    let disk = DiskWatch::new();
    let watched = disk.clone();
    let thread = std::thread::Builder::new()
        .name("ledger-writer".into())
        .spawn(move || run(conn, receiver, (chain, last_time), clock, path, watched))
        .expect("the ledger writer thread starts");
    Writer { sender, thread: Some(thread), disk }
}

/// Moves every append already waiting into `batch` (up to
/// [`MAX_BATCH`]), stopping at the first other request, which is kept in
/// `control` to be served once the batch is committed (requests are served
/// in the order they were sent).
fn take_waiting(
    receiver: &Receiver<Request>,
    batch: &mut Vec<(Signed, Completion)>,
    control: &mut Option<Request>,
) {
    while control.is_none() && batch.len() < MAX_BATCH {
        match receiver.try_recv() {
            Ok(Request::Append { signed, done }) => batch.push((*signed, done)),
            Ok(other) => *control = Some(other),
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
        }
    }
}

/// What the writer goes on from.
struct Tail {
    chain: Chain,
    last_time: u64,
    /// Set once a commit failed: every later request is refused.
    failed: Option<(String, crate::Cause)>,
    stats: WriterStats,
    /// Where each batch is copied before it is acknowledged, once set.
    replica: Option<Box<dyn crate::Replica>>,
    /// Each write to the disk, timed.
    disk: DiskWatch,
}

impl Tail {
    fn stopped(&self) -> Option<LedgerError> {
        self.failed
            .as_ref()
            .map(|(reason, cause)| LedgerError::WriterStopped { reason: reason.clone(), cause: *cause })
    }

    /// Places `events` after the chain at `time_ms` and commits them in
    /// one transaction. Per event: its acknowledgement, or why it cannot
    /// be encoded (a caller's bug, not the disk's: that event alone is
    /// refused and takes no number; the others go on). `Err` if the commit
    /// failed: the writer has stopped.
    fn commit(
        &mut self,
        conn: &mut Connection,
        events: &[&Signed],
        time_ms: u64,
        all_or_nothing: bool,
        faults: &crate::cause::Faults,
        path: &str,
    ) -> Result<Vec<Result<Appended, WireError>>, LedgerError> {
        if let Some(stopped) = self.stopped() {
            return Err(stopped);
        }
        // Place and chain the batch on a copy of the chain: it becomes the
        // chain only once the COMMIT returned.
        let mut next = self.chain.clone();
        let mut rows: Vec<(u64, Vec<u8>, Digest)> = Vec::with_capacity(events.len());
        let mut outcomes: Vec<Result<Appended, WireError>> = Vec::with_capacity(events.len());
        for signed in events {
            let record = EventRecord {
                seq: next.seq() + 1,
                time_ms,
                signer: signed.signer,
                signature: signed.signature,
                event: signed.event.clone(),
            };
            let placed = record.encode().and_then(|bytes| Ok((bytes, next.append(&record)?)));
            outcomes.push(placed.map(|(bytes, head)| {
                rows.push((record.seq, bytes, head));
                Appended { seq: record.seq, time_ms, head, event_digest: Digest::sha256(&signed.bytes) }
            }));
        }
        if all_or_nothing {
            if let Some(Err(e)) = outcomes.iter().find(|o| o.is_err()) {
                return Err(LedgerError::Encode(e.clone()));
            }
        }
        if rows.is_empty() {
            return Ok(outcomes);
        }
        let borrowed: Vec<(u64, &[u8], &Digest)> =
            rows.iter().map(|(s, b, h)| (*s, b.as_slice(), h)).collect();
        let replicated = self
            .disk
            .during(|| crate::store::append_batch(conn, &borrowed, faults))
            .map_err(|e| (format!("{path}: la escritura falló / commit failed: {e}"), crate::Cause::of(&e)))
            .and_then(|()| match self.replica.as_mut() {
                // Durable here; acknowledged only once a majority holds it.
                // A refusal leaves this file a tail no one was told of: a
                // restart reconciles it with the copy (docs/replication.md).
                Some(replica) => {
                    replica.replicate((self.chain.seq(), self.chain.head()), &borrowed).map_err(|e| {
                        let cause = match e {
                            crate::ReplicaError::Fenced { .. } => crate::Cause::Fenced,
                            crate::ReplicaError::Unconfirmed { .. } => crate::Cause::Unreplicated,
                        };
                        (format!("{path}: {e}"), cause)
                    })
                }
                None => Ok(()),
            });
        match replicated {
            Ok(()) => {
                self.chain = next;
                self.last_time = time_ms;
                self.stats.batches += 1;
                self.stats.records += rows.len() as u64;
                Ok(outcomes)
            }
            Err(failure) => {
                self.failed = Some(failure);
                Err(self.stopped().expect("just failed"))
            }
        }
    }
}

impl Tail {
    /// Stores records copied from the replica (see [`Request::Copied`]).
    fn store_copied(
        &mut self,
        conn: &mut Connection,
        from: &Chain,
        to: Chain,
        rows: &[(u64, Vec<u8>, Digest)],
        path: &str,
    ) -> Result<(), LedgerError> {
        if let Some(stopped) = self.stopped() {
            return Err(stopped);
        }
        if self.chain != *from {
            return Err(LedgerError::BrokenChain {
                path: path.to_string(),
                seq: from.seq() + 1,
                reason: "lo copiado no sigue a este registro / what was copied does not follow this ledger"
                    .into(),
            });
        }
        let borrowed: Vec<(u64, &[u8], &Digest)> =
            rows.iter().map(|(s, b, h)| (*s, b.as_slice(), h)).collect();
        match self
            .disk
            .during(|| crate::store::append_batch(conn, &borrowed, &crate::cause::Faults::default()))
        {
            Ok(()) => {
                self.last_time = self.last_time.max(to.time_ms());
                self.chain = to;
                self.stats.batches += 1;
                self.stats.records += rows.len() as u64;
                Ok(())
            }
            Err(e) => {
                self.failed =
                    Some((format!("{path}: la escritura falló / commit failed: {e}"), crate::Cause::of(&e)));
                Err(self.stopped().expect("just failed"))
            }
        }
    }
}

fn run(
    mut conn: Connection,
    receiver: Receiver<Request>,
    (chain, last_time): (Chain, u64),
    clock: Clock,
    path: String,
    disk: DiskWatch,
) -> WriterStats {
    let mut tail =
        Tail { chain, last_time, failed: None, stats: WriterStats::default(), replica: None, disk };
    let faults = crate::cause::Faults::from_env();
    let mut batch: Vec<(Signed, Completion)> = Vec::new();
    loop {
        let mut control = None;
        match receiver.recv() {
            Ok(Request::Append { signed, done }) => batch.push((*signed, done)),
            Ok(other) => control = Some(other),
            Err(RecvError) => break,
        }
        take_waiting(&receiver, &mut batch, &mut control);
        // Several callers are waiting but the batch is small: linger a
        // little for more, since each commit (its fsync) costs far more than
        // the wait. A lone caller (a staff action) is never delayed. The
        // writer sleeps in slices and then takes whatever arrived, rather
        // than blocking on the channel: a sender that finds the receiver
        // blocked must wake it, and a wake-up (two context switches on a
        // busy machine) per record would cost more than the commit saves.
        if batch.len() >= 2 && batch.len() < GROUP_TARGET {
            let deadline = Instant::now() + GROUP_WAIT;
            while control.is_none() && batch.len() < GROUP_TARGET {
                let Some(left) = deadline.checked_duration_since(Instant::now()) else { break };
                std::thread::sleep(left.min(GROUP_SLICE));
                let before = batch.len();
                take_waiting(&receiver, &mut batch, &mut control);
                if batch.len() == before {
                    // Nothing came during a whole slice: the callers are
                    // all waiting for this commit; waiting longer only
                    // delays them.
                    break;
                }
            }
        }
        if !batch.is_empty() {
            // Time never runs backwards in a ledger, whatever the
            // machine's clock does.
            let now = clock().max(tail.last_time);
            let events: Vec<&Signed> = batch.iter().map(|(signed, _)| signed).collect();
            match tail.commit(&mut conn, &events, now, false, &faults, &path) {
                Ok(outcomes) => {
                    for ((_, done), outcome) in batch.drain(..).zip(outcomes) {
                        done(outcome.map_err(LedgerError::Encode));
                    }
                }
                Err(error) => {
                    for (_, done) in batch.drain(..) {
                        done(Err(error.clone()));
                    }
                }
            }
        }
        match control {
            None | Some(Request::Append { .. }) => {}
            Some(Request::Tip { done }) => match tail.stopped() {
                Some(stopped) => done(Err(stopped)),
                None => done(Ok((tail.chain.clone(), clock().max(tail.last_time)))),
            },
            Some(Request::Group { events, time_ms, done }) => {
                let time_ms = time_ms.max(tail.last_time);
                let borrowed: Vec<&Signed> = events.iter().collect();
                let committed =
                    tail.commit(&mut conn, &borrowed, time_ms, true, &faults, &path).and_then(|outcomes| {
                        outcomes.into_iter().collect::<Result<Vec<_>, _>>().map_err(LedgerError::Encode)
                    });
                done(committed);
            }
            Some(Request::Copied { from, to, rows, done }) => {
                done(tail.store_copied(&mut conn, &from, to, &rows, &path))
            }
            Some(Request::Replicate { replica, done }) => {
                tail.replica = Some(replica);
                done();
            }
            Some(Request::Shutdown { done }) => {
                done();
                break;
            }
        }
    }
    tail.stats
}

#[cfg(test)]
mod tests {
    use super::DiskWatch;

    /// The watch says the writer is writing while it is, and for how long
    /// at least; and that it is idle before and after.
    #[test]
    fn the_disk_watch_times_a_write_while_it_lasts() {
        let watch = DiskWatch::new();
        assert_eq!(watch.busy_for(), None);
        let seen = watch.during(|| {
            std::thread::sleep(std::time::Duration::from_millis(30));
            watch.busy_for()
        });
        assert!(seen.is_some_and(|busy| busy >= std::time::Duration::from_millis(30)), "{seen:?}");
        assert_eq!(watch.busy_for(), None);
    }
}
