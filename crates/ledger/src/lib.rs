//! `asamblea-ledger`: the meeting's append-only, hash-chained event log in
//! SQLite — the truth everything else is folded from.
//!
//! Every change of the meeting is one record (bytes defined by
//! `asamblea-wire`), stored with its sequence number and the chain head
//! after it: `head_n = H(head_{n-1} ‖ n ‖ record_n)`, starting from a
//! genesis head bound to the meeting id. Nothing is updated or deleted; a
//! correction is a new record.
//!
//! # Layout
//!
//! - `store`: the SQLite file — schema, numbered migrations, pragmas
//!   (WAL, `synchronous = FULL`), append-only triggers.
//! - `writer`: the one thread that owns the connection and group-commits:
//!   one transaction and one fsync per batch, acknowledgements only after.
//!
//! # Invariants
//!
//! - An [`Appended`] acknowledgement is given only after the COMMIT that
//!   holds its record returned, and `synchronous = FULL` makes that COMMIT
//!   durable: kill -9 at any moment loses no acknowledged record.
//! - Opening a ledger re-derives every head and refuses a file whose chain
//!   does not hold, naming the first bad sequence number.

mod store;
mod writer;

use std::path::Path;
use std::sync::mpsc;

pub use writer::{Completion, WriterStats, MAX_BATCH};

/// A chain head: SHA-256 over the previous head, the sequence number and
/// the record.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Head(pub [u8; 32]);

impl std::fmt::Debug for Head {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for b in &self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// The head before any record: bound to the meeting, so two meetings'
/// chains never share a prefix.
pub fn genesis_head(meeting_id: &[u8; 32]) -> Head {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    h.update(b"asamblea/ledger/v1");
    h.update(meeting_id);
    Head(h.finalize().into())
}

/// The head after appending `record` as number `seq` to a chain at `prev`.
pub fn next_head(prev: &Head, seq: u64, record: &[u8]) -> Head {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    h.update(prev.0);
    h.update(seq.to_be_bytes());
    h.update((record.len() as u32).to_be_bytes());
    h.update(record);
    Head(h.finalize().into())
}

/// A record as stored: its number, its bytes, and the head after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredRecord {
    /// Sequence number, from 1, without gaps.
    pub seq: u64,
    /// The record's bytes (an `asamblea-wire` event record).
    pub record: Vec<u8>,
    /// The chain head after this record.
    pub head: Head,
}

/// A durable append: the record's number and the head after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Appended {
    /// Sequence number given to the record.
    pub seq: u64,
    /// The chain head after it.
    pub head: Head,
}

/// What can go wrong with a ledger file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LedgerError {
    /// SQLite refused an operation.
    #[error("{path}: {message}")]
    Sqlite {
        /// The file.
        path: String,
        /// SQLite's message.
        message: String,
    },
    /// The file belongs to another meeting.
    #[error("{path}: this ledger belongs to another meeting")]
    OtherMeeting {
        /// The file.
        path: String,
    },
    /// The stored chain does not hold at `seq`.
    #[error("{path}: the chain breaks at event {seq}: {reason}")]
    BrokenChain {
        /// The file.
        path: String,
        /// The first bad sequence number.
        seq: u64,
        /// What is wrong there.
        reason: String,
    },
    /// The writer stopped after a failed commit, or was shut down.
    #[error("the ledger writer has stopped: {reason}")]
    WriterStopped {
        /// Why.
        reason: String,
    },
}

impl LedgerError {
    fn sqlite(path: &Path, e: rusqlite::Error) -> LedgerError {
        LedgerError::Sqlite { path: path.display().to_string(), message: e.to_string() }
    }
}

/// An open ledger: the writer thread and what it started from.
pub struct Ledger {
    writer: writer::Writer,
}

impl Ledger {
    /// Opens or creates the ledger at `path` for `meeting_id`, checks every
    /// link of the stored chain, and starts the writer. Returns the stored
    /// records for the caller to replay.
    pub fn open(path: &Path, meeting_id: &[u8; 32]) -> Result<(Ledger, Vec<StoredRecord>), LedgerError> {
        let conn = store::open(path, meeting_id)?;
        let records = store::read_all(&conn).map_err(|e| LedgerError::sqlite(path, e))?;
        let head = check_chain(&records, meeting_id).map_err(|(seq, reason)| LedgerError::BrokenChain {
            path: path.display().to_string(),
            seq,
            reason,
        })?;
        let last_seq = records.last().map_or(0, |r| r.seq);
        let writer = writer::spawn(conn, last_seq, head, path.display().to_string());
        Ok((Ledger { writer }, records))
    }

    /// Queues `record`; `done` is called from the writer thread once it is
    /// durable (or the writer has failed).
    pub fn append(&self, record: Vec<u8>, done: Completion) {
        if let Err(mpsc::SendError(writer::Request::Append { done, .. })) =
            self.writer.sender.send(writer::Request::Append { record, done })
        {
            done(Err(LedgerError::WriterStopped { reason: "the writer thread has ended".into() }));
        }
    }

    /// Appends and waits until durable.
    pub fn append_blocking(&self, record: Vec<u8>) -> Result<Appended, LedgerError> {
        let (tx, rx) = mpsc::sync_channel(1);
        self.append(
            record,
            Box::new(move |result| {
                let _ = tx.send(result);
            }),
        );
        rx.recv().unwrap_or_else(|_| {
            Err(LedgerError::WriterStopped { reason: "no answer from the writer".into() })
        })
    }

    /// Finishes every queued append, stops the writer and returns its
    /// counters.
    pub fn shutdown(mut self) -> WriterStats {
        let (tx, rx) = mpsc::sync_channel(1);
        let _ = self.writer.sender.send(writer::Request::Shutdown {
            done: Box::new(move || {
                let _ = tx.send(());
            }),
        });
        let _ = rx.recv();
        self.writer.thread.take().map_or_else(WriterStats::default, |t| t.join().unwrap_or_default())
    }
}

/// Re-derives every head from genesis; the first mismatch or gap is
/// reported with its sequence number. Returns the last head.
pub fn check_chain(records: &[StoredRecord], meeting_id: &[u8; 32]) -> Result<Head, (u64, String)> {
    let mut head = genesis_head(meeting_id);
    for (i, r) in records.iter().enumerate() {
        let expected_seq = i as u64 + 1;
        if r.seq != expected_seq {
            return Err((expected_seq, format!("event {expected_seq} is missing (found {} next)", r.seq)));
        }
        head = next_head(&head, r.seq, &r.record);
        if head != r.head {
            return Err((r.seq, "the stored head does not match the record (edited or reordered)".into()));
        }
    }
    Ok(head)
}
