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

use std::sync::mpsc::{self, Receiver, RecvError, Sender, TryRecvError};
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

pub(crate) enum Request {
    Append {
        signed: Box<Signed>,
        done: Completion,
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
}

/// Starts the writer on a chain whose last record has time `last_time`.
pub(crate) fn spawn(conn: Connection, chain: Chain, last_time: u64, clock: Clock, path: String) -> Writer {
    let (sender, receiver) = mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("ledger-writer".into())
        .spawn(move || run(conn, receiver, chain, last_time, clock, path))
        .expect("the ledger writer thread starts");
    Writer { sender, thread: Some(thread) }
}

/// Moves every request already waiting into `batch` (up to
/// [`MAX_BATCH`]), stopping at a shutdown request.
fn take_waiting(
    receiver: &Receiver<Request>,
    batch: &mut Vec<(Signed, Completion)>,
    shutdown: &mut Option<Box<dyn FnOnce() + Send>>,
) {
    while shutdown.is_none() && batch.len() < MAX_BATCH {
        match receiver.try_recv() {
            Ok(Request::Append { signed, done }) => batch.push((*signed, done)),
            Ok(Request::Shutdown { done }) => *shutdown = Some(done),
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
        }
    }
}

fn run(
    mut conn: Connection,
    receiver: Receiver<Request>,
    mut chain: Chain,
    mut last_time: u64,
    clock: Clock,
    path: String,
) -> WriterStats {
    let mut stats = WriterStats::default();
    let mut failed: Option<String> = None;
    let mut batch: Vec<(Signed, Completion)> = Vec::new();
    let mut shutdown: Option<Box<dyn FnOnce() + Send>> = None;
    loop {
        match receiver.recv() {
            Ok(Request::Append { signed, done }) => batch.push((*signed, done)),
            Ok(Request::Shutdown { done }) => shutdown = Some(done),
            Err(RecvError) => break,
        }
        take_waiting(&receiver, &mut batch, &mut shutdown);
        // Several callers are waiting but the batch is small: linger a
        // little for more, since each commit (its fsync) costs far more than
        // the wait. A lone caller (a staff action) is never delayed. The
        // writer sleeps in slices and then takes whatever arrived, rather
        // than blocking on the channel: a sender that finds the receiver
        // blocked must wake it, and a wake-up (two context switches on a
        // busy machine) per record would cost more than the commit saves.
        if batch.len() >= 2 && batch.len() < GROUP_TARGET {
            let deadline = Instant::now() + GROUP_WAIT;
            while shutdown.is_none() && batch.len() < GROUP_TARGET {
                let Some(left) = deadline.checked_duration_since(Instant::now()) else { break };
                std::thread::sleep(left.min(GROUP_SLICE));
                let before = batch.len();
                take_waiting(&receiver, &mut batch, &mut shutdown);
                if batch.len() == before {
                    // Nothing came during a whole slice: the callers are
                    // all waiting for this commit; waiting longer only
                    // delays them.
                    break;
                }
            }
        }
        if !batch.is_empty() {
            if let Some(reason) = &failed {
                for (_, done) in batch.drain(..) {
                    done(Err(LedgerError::WriterStopped { reason: reason.clone() }));
                }
            } else {
                // Place and chain the batch on a copy of the chain: it
                // becomes the chain only once the COMMIT returned.
                let mut next = chain.clone();
                // Time never runs backwards in a ledger, whatever the
                // machine's clock does.
                let now = clock().max(last_time);
                let mut rows: Vec<(u64, Vec<u8>, Digest)> = Vec::with_capacity(batch.len());
                // Per event: its acknowledgement, or why it cannot be
                // encoded. A caller's bug, not the disk's: that event alone
                // is refused and takes no number; the others go on.
                let mut outcomes: Vec<Result<Appended, WireError>> = Vec::with_capacity(batch.len());
                for (signed, _) in &batch {
                    let record = EventRecord {
                        seq: next.seq() + 1,
                        time_ms: now,
                        signer: signed.signer,
                        signature: signed.signature,
                        event: signed.event.clone(),
                    };
                    let placed = record.encode().and_then(|bytes| Ok((bytes, next.append(&record)?)));
                    outcomes.push(placed.map(|(bytes, head)| {
                        rows.push((record.seq, bytes, head));
                        Appended {
                            seq: record.seq,
                            time_ms: now,
                            head,
                            event_digest: Digest::sha256(&signed.bytes),
                        }
                    }));
                }
                let borrowed: Vec<(u64, &[u8], &Digest)> =
                    rows.iter().map(|(s, b, h)| (*s, b.as_slice(), h)).collect();
                let committed =
                    if rows.is_empty() { Ok(()) } else { crate::store::append_batch(&mut conn, &borrowed) };
                match committed {
                    Ok(()) => {
                        chain = next;
                        if !rows.is_empty() {
                            last_time = now;
                            stats.batches += 1;
                            stats.records += rows.len() as u64;
                        }
                        for ((_, done), outcome) in batch.drain(..).zip(outcomes) {
                            done(outcome.map_err(LedgerError::Encode));
                        }
                    }
                    Err(e) => {
                        let reason = format!("{path}: commit failed: {e}");
                        failed = Some(reason.clone());
                        for (_, done) in batch.drain(..) {
                            done(Err(LedgerError::WriterStopped { reason: reason.clone() }));
                        }
                    }
                }
            }
        }
        if let Some(done) = shutdown.take() {
            done();
            break;
        }
    }
    stats
}
