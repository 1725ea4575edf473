//! The one writer: a thread that owns the SQLite connection and
//! group-commits.
//!
//! Callers hand it encoded records; it takes every record waiting (up to
//! [`MAX_BATCH`]), chains them, writes them in one transaction — one
//! COMMIT, one fsync — and only then calls each caller's completion with
//! its sequence number and head. No acknowledgement ever precedes the
//! fsync that makes it true. After a failed commit the writer refuses
//! everything (fail-stop): the caller's in-memory state may be ahead of
//! the file, and only a restart that replays the file is safe.

use std::sync::mpsc::{self, Receiver, RecvError, Sender, TryRecvError};
use std::thread::JoinHandle;

use rusqlite::Connection;

use crate::{next_head, Appended, Head, LedgerError};

/// At most this many records go in one transaction.
pub const MAX_BATCH: usize = 4096;

/// What a caller is told once its record is durable (or not).
pub type Completion = Box<dyn FnOnce(Result<Appended, LedgerError>) + Send>;

pub(crate) enum Request {
    Append {
        record: Vec<u8>,
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

pub(crate) fn spawn(conn: Connection, last_seq: u64, head: Head, path: String) -> Writer {
    let (sender, receiver) = mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("ledger-writer".into())
        .spawn(move || run(conn, receiver, last_seq, head, path))
        .expect("the ledger writer thread starts");
    Writer { sender, thread: Some(thread) }
}

fn run(
    mut conn: Connection,
    receiver: Receiver<Request>,
    mut last_seq: u64,
    mut head: Head,
    path: String,
) -> WriterStats {
    let mut stats = WriterStats::default();
    let mut failed: Option<String> = None;
    let mut batch: Vec<(Vec<u8>, Completion)> = Vec::new();
    let mut shutdown: Option<Box<dyn FnOnce() + Send>> = None;
    loop {
        match receiver.recv() {
            Ok(Request::Append { record, done }) => batch.push((record, done)),
            Ok(Request::Shutdown { done }) => shutdown = Some(done),
            Err(RecvError) => break,
        }
        while shutdown.is_none() && batch.len() < MAX_BATCH {
            match receiver.try_recv() {
                Ok(Request::Append { record, done }) => batch.push((record, done)),
                Ok(Request::Shutdown { done }) => shutdown = Some(done),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
            }
        }
        if !batch.is_empty() {
            if let Some(reason) = &failed {
                for (_, done) in batch.drain(..) {
                    done(Err(LedgerError::WriterStopped { reason: reason.clone() }));
                }
            } else {
                let mut rows = Vec::with_capacity(batch.len());
                let mut next = head;
                for (i, (record, _)) in batch.iter().enumerate() {
                    let seq = last_seq + 1 + i as u64;
                    next = next_head(&next, seq, record);
                    rows.push((seq, record.as_slice(), next));
                }
                match crate::store::append_batch(&mut conn, &rows) {
                    Ok(()) => {
                        let acks: Vec<Appended> =
                            rows.iter().map(|(seq, _, head)| Appended { seq: *seq, head: *head }).collect();
                        last_seq += batch.len() as u64;
                        head = next;
                        stats.batches += 1;
                        stats.records += batch.len() as u64;
                        for ((_, done), ack) in batch.drain(..).zip(acks) {
                            done(Ok(ack));
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
