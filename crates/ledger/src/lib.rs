//! `asamblea-ledger`: the meeting's append-only, hash-chained, signed
//! event log in SQLite — the truth everything else is folded from.
//!
//! Every change of the meeting is one `asamblea-wire` [`Event`], signed by
//! its actor, placed in an [`EventRecord`] (sequence number, time, signer,
//! signature) and chained: `head_n = SHA-256(head_{n-1} ‖ record_n)` from a
//! genesis head bound to the meeting id (`docs/ledger-format.md` §5).
//! Nothing is updated or deleted; a correction is a new event.
//!
//! # Layout
//!
//! - `store`: the SQLite file — schema, numbered migrations, pragmas
//!   (WAL, `synchronous = FULL`), append-only triggers.
//! - `writer`: the one thread that owns the connection and group-commits:
//!   one transaction and one fsync per batch, acknowledgements only after.
//! - `state`: the replay of events into the rules engine, with every check
//!   of the format's §8 (who may sign what, badges, nonces, results, lots).
//! - `bundle`: the audit bundle, and `verify`, which trusts nothing in it.
//!
//! # Invariants
//!
//! - An [`Appended`] acknowledgement is given only after the COMMIT that
//!   holds its record returned, and `synchronous = FULL` makes that COMMIT
//!   durable: kill -9 at any moment loses no acknowledged record.
//! - Opening a ledger decodes every record and re-derives every head; a
//!   file whose chain does not hold is refused, naming the first bad
//!   sequence number.
//! - This crate decides nothing about the meeting itself: the rules engine
//!   does, through [`State`].

mod ballots;
mod bundle;
mod cause;
mod journal;
mod nonces;
mod replica;
mod signatures;
mod state;
mod store;
mod writer;

use std::path::Path;
use std::sync::mpsc;

use asamblea_wire::{Chain, Digest, Event, EventRecord, MeetingId, PublicKey, Signature, WireError};

pub use ballots::{ballot_item_at, ballots_on_item, find_ballot, BallotIndex};
pub use bundle::{
    check_receipt, export_bundle, export_raw_bundle, for_each_event, register_bytes, register_from_bytes,
    verify_bundle, verify_bundle_from, verify_bundle_state, verify_bundle_with_progress, Bundle, BundleError,
    BundleHead, Exported, Part, ProfileLoader, ReceiptProblem, Verified, VerifyError, VerifyOptions,
    PROGRESS_EVERY,
};
pub use cause::Cause;
pub use journal::{Group, Journal, OpenError, SubmitError};
pub use replica::{Replica, ReplicaError};
pub use state::{AttendeeName, PowerRecord, Powers, RecordedStatement, Rejection, SessionRecord, State};
pub use writer::{Clock, Completion, DiskWatch, WriterStats, MAX_BATCH};

/// An event signed by its actor, waiting for its place in the ledger.
/// Build it with [`Signed::new`] so that `bytes` are the event's own.
#[derive(Clone, Debug)]
pub struct Signed {
    /// The event.
    pub event: Event,
    /// Its canonical bytes (what was signed).
    pub bytes: Vec<u8>,
    /// Who signed it.
    pub signer: PublicKey,
    /// The signature on the event's signing input.
    pub signature: Signature,
}

impl Signed {
    /// The event with its canonical bytes, as `signer` signed them.
    pub fn new(event: Event, signer: PublicKey, signature: Signature) -> Result<Signed, WireError> {
        let bytes = event.encode()?;
        Ok(Signed { event, bytes, signer, signature })
    }
}

/// A durable append: the record's place, time and the head after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Appended {
    /// Sequence number given to the record.
    pub seq: u64,
    /// Time given to the record, ms since the Unix epoch.
    pub time_ms: u64,
    /// The chain head after it.
    pub head: Digest,
    /// SHA-256 of the event's bytes: what receipts and the public board
    /// name a ballot by.
    pub event_digest: Digest,
}

/// What can go wrong with a ledger file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LedgerError {
    /// SQLite (or the disk under it) refused an operation.
    #[error("{path}: {message}")]
    Sqlite {
        /// The file.
        path: String,
        /// What failed, Spanish first, with SQLite's own words (in
        /// English) after.
        message: String,
        /// Why, in terms an operator can act on.
        cause: Cause,
    },
    /// The file belongs to another meeting.
    #[error("{path}: este registro es de otra reunión / this ledger belongs to another meeting")]
    OtherMeeting {
        /// The file.
        path: String,
    },
    /// The stored chain does not hold at `seq`.
    #[error("{path}: el registro se rompe en el evento {seq} / the ledger breaks at event {seq}: {reason}")]
    BrokenChain {
        /// The file.
        path: String,
        /// The first bad sequence number.
        seq: u64,
        /// What is wrong there.
        reason: String,
    },
    /// An event that cannot be encoded.
    #[error("el evento no se puede codificar / the event cannot be encoded: {0}")]
    Encode(WireError),
    /// The writer stopped after a failed commit, or was shut down.
    #[error("el escritor del registro se detuvo / the ledger writer has stopped: {reason}")]
    WriterStopped {
        /// Why.
        reason: String,
        /// The cause of the failed commit that stopped it.
        cause: Cause,
    },
}

impl LedgerError {
    fn sqlite(path: &Path, e: rusqlite::Error) -> LedgerError {
        LedgerError::Sqlite {
            path: path.display().to_string(),
            cause: Cause::of(&e),
            message: format!("SQLite rechazó la operación / SQLite refused the operation: {e}"),
        }
    }

    /// A file operation the operating system refused.
    fn io(path: &Path, e: &std::io::Error) -> LedgerError {
        LedgerError::Sqlite {
            path: path.display().to_string(),
            cause: Cause::of_io(e),
            message: format!(
                "el sistema no pudo escribir el archivo / the system could not write the file: {e}"
            ),
        }
    }

    /// Why, in terms an operator can act on: see [`Cause`].
    pub fn cause(&self) -> Cause {
        match self {
            LedgerError::Sqlite { cause, .. } | LedgerError::WriterStopped { cause, .. } => *cause,
            LedgerError::OtherMeeting { .. } | LedgerError::BrokenChain { .. } => Cause::Corrupt,
            LedgerError::Encode(_) => Cause::Other,
        }
    }
}

/// An open ledger: the writer thread and what it started from.
pub struct Ledger {
    writer: writer::Writer,
}

impl Ledger {
    /// Opens or creates the ledger at `path` for `meeting`, decodes every
    /// record and checks every link, and starts the writer with `clock`.
    /// Returns the stored records for the caller to replay.
    pub fn open(
        path: &Path,
        meeting: &MeetingId,
        clock: Clock,
    ) -> Result<(Ledger, Vec<EventRecord>), LedgerError> {
        Ledger::open_with_heads(path, meeting, clock).map(|(ledger, records, _)| (ledger, records))
    }

    /// [`Ledger::open`], with the chain's head after each record (checked
    /// against the stored ones).
    pub fn open_with_heads(
        path: &Path,
        meeting: &MeetingId,
        clock: Clock,
    ) -> Result<(Ledger, Vec<EventRecord>, Vec<Digest>), LedgerError> {
        let conn = store::open(path, meeting)?;
        let rows = store::read_all(&conn).map_err(|e| LedgerError::sqlite(path, e))?;
        let (records, chain) = check_rows(&rows, meeting).map_err(|(seq, reason)| {
            LedgerError::BrokenChain { path: path.display().to_string(), seq, reason }
        })?;
        // `check_rows` found every stored head equal to the recomputed one.
        let heads =
            rows.iter().map(|row| Digest(row.head.as_slice().try_into().unwrap_or([0; 32]))).collect();
        let last_time = records.last().map_or(0, |r| r.time_ms);
        Ok((Ledger::started(conn, chain, last_time, clock, path), records, heads))
    }

    /// The writer on `conn`, its chain at `chain` and its last record's
    /// time `last_time`, both checked by the caller.
    pub(crate) fn started(
        conn: rusqlite::Connection,
        chain: Chain,
        last_time: u64,
        clock: Clock,
        path: &Path,
    ) -> Ledger {
        Ledger { writer: writer::spawn(conn, chain, last_time, clock, path.display().to_string()) }
    }

    /// Stores `rows` — records read from the replica, admitted by the
    /// caller's replay, with the chain's head after each — if the chain is
    /// still `from`; it becomes `to`.
    pub(crate) fn store_copied(
        &self,
        from: Chain,
        to: Chain,
        rows: Vec<(u64, Vec<u8>, Digest)>,
    ) -> Result<(), LedgerError> {
        self.ask(|done| writer::Request::Copied { from, to, rows, done })
    }

    /// How long the writer has been inside its current write to the disk
    /// ([`DiskWatch`]), from any thread.
    pub fn disk_watch(&self) -> DiskWatch {
        self.writer.disk.clone()
    }

    /// From the next batch on, copies every batch to `replica` and
    /// acknowledges it only once the replica holds it (after everything
    /// queued before, which is not copied).
    pub fn replicate_to(&self, replica: Box<dyn Replica>) -> Result<(), LedgerError> {
        let (sender, receiver) = mpsc::channel();
        let done = Box::new(move || {
            let _ = sender.send(());
        });
        let stopped = || LedgerError::WriterStopped {
            reason: "el hilo del escritor terminó / the writer thread has ended".into(),
            cause: Cause::Other,
        };
        self.writer.sender.send(writer::Request::Replicate { replica, done }).map_err(|_| stopped())?;
        receiver.recv().map_err(|_| stopped())
    }

    /// Queues a signed event; `done` is called from the writer thread once
    /// it is durable (or the writer has failed).
    pub fn append(&self, signed: Signed, done: Completion) {
        if let Err(mpsc::SendError(writer::Request::Append { done, .. })) =
            self.writer.sender.send(writer::Request::Append { signed: Box::new(signed), done })
        {
            done(Err(LedgerError::WriterStopped {
                reason: "el hilo del escritor terminó / the writer thread has ended".into(),
                cause: Cause::Other,
            }));
        }
    }

    /// Appends and waits until durable.
    pub fn append_blocking(&self, signed: Signed) -> Result<Appended, LedgerError> {
        let (tx, rx) = mpsc::sync_channel(1);
        self.append(
            signed,
            Box::new(move |result| {
                let _ = tx.send(result);
            }),
        );
        rx.recv().unwrap_or_else(|_| {
            Err(LedgerError::WriterStopped {
                reason: "el escritor no responde / no answer from the writer".into(),
                cause: Cause::Other,
            })
        })
    }

    /// Waits until everything queued before is durable, and returns the
    /// chain and the time the next records will take (now, never before the
    /// last record's): where the next records will go.
    pub fn tip(&self) -> Result<(Chain, u64), LedgerError> {
        self.ask(|done| writer::Request::Tip { done })
    }

    /// Appends `events` in one transaction, every record stamped
    /// `time_ms` (or the last record's time, if later), and waits until
    /// they are durable: all of them, or none.
    pub fn append_group_blocking(
        &self,
        events: Vec<Signed>,
        time_ms: u64,
    ) -> Result<Vec<Appended>, LedgerError> {
        self.ask(|done| writer::Request::Group { events, time_ms, done })
    }

    /// Sends the writer the request `make` builds around its completion,
    /// and waits for the answer.
    fn ask<T: Send + 'static>(
        &self,
        make: impl FnOnce(Box<dyn FnOnce(Result<T, LedgerError>) + Send>) -> writer::Request,
    ) -> Result<T, LedgerError> {
        ask(&self.writer.sender, make)
    }

    /// A handle that asks for the [`Ledger::tip`] from anywhere, without
    /// holding whatever holds the ledger (the daemon's meeting lock).
    pub fn tip_handle(&self) -> TipHandle {
        TipHandle(self.writer.sender.clone())
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

/// Asks the writer with the request `make` builds around its completion,
/// and waits for the answer.
fn ask<T: Send + 'static>(
    sender: &mpsc::Sender<writer::Request>,
    make: impl FnOnce(Box<dyn FnOnce(Result<T, LedgerError>) + Send>) -> writer::Request,
) -> Result<T, LedgerError> {
    let stopped = |reason: &str| LedgerError::WriterStopped { reason: reason.into(), cause: Cause::Other };
    let (tx, rx) = mpsc::sync_channel(1);
    let request = make(Box::new(move |result| {
        let _ = tx.send(result);
    }));
    if sender.send(request).is_err() {
        return Err(stopped("el hilo del escritor terminó / the writer thread has ended"));
    }
    rx.recv().unwrap_or_else(|_| Err(stopped("el escritor no responde / no answer from the writer")))
}

/// Asks a ledger's writer where its chain stands, from any thread
/// ([`Ledger::tip_handle`]).
#[derive(Clone)]
pub struct TipHandle(mpsc::Sender<writer::Request>);

impl TipHandle {
    /// The last durable record's number and the head after it, once
    /// everything queued before is durable.
    pub fn durable_tip(&self) -> Result<(u64, Digest), LedgerError> {
        let (chain, _) = ask(&self.0, |done| writer::Request::Tip { done })?;
        Ok((chain.seq(), chain.head()))
    }
}

/// Sets the ledger at `path` aside (renamed, with any WAL beside it, to
/// `aside`: kept, never deleted) and writes in its place its first `keep`
/// records followed by `then` — records read from a replicated meeting's
/// copy, numbered from `keep + 1` — each chained after the one before and
/// checked as it is written; the new file is owner-only. For a node whose
/// unconfirmed tail the copy does not hold (`docs/replication.md`): those
/// records were acknowledged to no one. The caller opens the journal on it,
/// which replays every record through the usual checks, before serving.
pub fn rebuild(
    path: &Path,
    meeting: &MeetingId,
    keep: u64,
    then: &[Vec<u8>],
    aside: &Path,
) -> Result<(), LedgerError> {
    let kept = {
        let conn = store::open_existing(path, meeting)?;
        store::read_all(&conn).map_err(|e| LedgerError::sqlite(path, e))?
    };
    let keep = usize::try_from(keep).unwrap_or(usize::MAX);
    if keep > kept.len() {
        return Err(LedgerError::BrokenChain {
            path: path.display().to_string(),
            seq: kept.len() as u64 + 1,
            reason:
                "se pidió conservar más registros de los que hay / asked to keep more records than there are"
                    .into(),
        });
    }
    let fresh = path.with_extension("db.rehaciendo");
    for stale in [fresh.clone(), side(&fresh, "-wal"), side(&fresh, "-shm")] {
        let _ = std::fs::remove_file(stale);
    }
    private_new(&fresh).map_err(|e| LedgerError::io(&fresh, &e))?;
    let mut chain = Chain::new(meeting);
    let mut rows: Vec<(u64, Vec<u8>, Digest)> = Vec::with_capacity(keep + then.len());
    for bytes in kept.into_iter().take(keep).map(|row| row.record).chain(then.iter().cloned()) {
        let seq = chain.seq() + 1;
        let record = EventRecord::decode(&bytes).map_err(|e| LedgerError::BrokenChain {
            path: fresh.display().to_string(),
            seq,
            reason: format!("el registro no se puede decodificar / the record does not decode: {e}"),
        })?;
        let head = chain.append_encoded(&record, &bytes).map_err(|e| LedgerError::BrokenChain {
            path: fresh.display().to_string(),
            seq,
            reason: e.to_string(),
        })?;
        rows.push((seq, bytes, head));
    }
    {
        let mut conn = store::open(&fresh, meeting)?;
        let borrowed: Vec<(u64, &[u8], &Digest)> =
            rows.iter().map(|(s, b, h)| (*s, b.as_slice(), h)).collect();
        store::append_batch(&mut conn, &borrowed, &cause::Faults::default())
            .map_err(|e| LedgerError::sqlite(&fresh, e))?;
        conn.close().map_err(|(_, e)| LedgerError::sqlite(&fresh, e))?;
    }
    for (from, to) in [
        (path.to_path_buf(), aside.to_path_buf()),
        (side(path, "-wal"), side(aside, "-wal")),
        (side(path, "-shm"), side(aside, "-shm")),
    ] {
        if from.exists() {
            std::fs::rename(&from, &to).map_err(|e| LedgerError::io(&from, &e))?;
        }
    }
    std::fs::rename(&fresh, path).map_err(|e| LedgerError::io(&fresh, &e))
}

/// `path` with `suffix` after its name (SQLite's `-wal`, `-shm`).
fn side(path: &Path, suffix: &str) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    std::path::PathBuf::from(name)
}

/// An empty file only its owner may read and write.
fn private_new(path: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path).and_then(|file| file.sync_all())
}

/// Every record of a ledger file with the head after it, checked, without
/// starting a writer (for export while the daemon runs: WAL readers never
/// block the writer).
pub fn read_records(path: &Path, meeting: &MeetingId) -> Result<Vec<(EventRecord, Digest)>, LedgerError> {
    let conn = store::open_existing(path, meeting)?;
    let rows = store::read_all(&conn).map_err(|e| LedgerError::sqlite(path, e))?;
    let (records, _) = check_rows(&rows, meeting).map_err(|(seq, reason)| LedgerError::BrokenChain {
        path: path.display().to_string(),
        seq,
        reason,
    })?;
    Ok(records
        .into_iter()
        .zip(rows)
        .map(|(record, row)| (record, Digest(row.head.try_into().expect("checked: 32 bytes"))))
        .collect())
}

/// The event digest and the stored head of record `seq` of a ledger file,
/// read beside any writer (committed records only); `None` past the end.
/// What the daemon's public receipt check compares a receipt with.
pub fn record_at(
    path: &Path,
    meeting: &MeetingId,
    seq: u64,
) -> Result<Option<(Digest, Digest)>, LedgerError> {
    let conn = store::open_existing(path, meeting)?;
    let Some(row) = store::read_one(&conn, seq).map_err(|e| LedgerError::sqlite(path, e))? else {
        return Ok(None);
    };
    let record = ballots::decoded(path, &row)?;
    let event = ballots::event_digest(path, seq, &record)?;
    Ok(Some((event, Digest(row.head.try_into().unwrap_or([0; 32])))))
}

/// How many records a ledger file holds (its last sequence number), read
/// beside any writer; nothing is checked.
pub fn record_count(path: &Path, meeting: &MeetingId) -> Result<u64, LedgerError> {
    let conn = store::open_existing(path, meeting)?;
    store::last_seq(&conn).map_err(|e| LedgerError::sqlite(path, e))
}

/// Every row of a ledger file exactly as stored, nothing checked: what
/// `asamblea verify` reads from a meeting directory, so that a hand-edited
/// file is judged by the verifier (naming the event) rather than refused
/// whole.
pub fn raw_records(path: &Path, meeting: &MeetingId) -> Result<Vec<(Vec<u8>, Digest)>, LedgerError> {
    let conn = store::open_existing(path, meeting)?;
    let rows = store::read_all(&conn).map_err(|e| LedgerError::sqlite(path, e))?;
    Ok(rows.into_iter().map(|row| (row.record, Digest(row.head.try_into().unwrap_or([0; 32])))).collect())
}

/// A stored row: sequence number, record bytes, head after it.
pub(crate) struct Row {
    pub(crate) seq: u64,
    pub(crate) record: Vec<u8>,
    pub(crate) head: Vec<u8>,
}

/// Decodes every row and re-derives every head; the first defect is
/// reported with its sequence number.
fn check_rows(rows: &[Row], meeting: &MeetingId) -> Result<(Vec<EventRecord>, Chain), (u64, String)> {
    let mut chain = Chain::new(meeting);
    let mut records = Vec::with_capacity(rows.len());
    // Decoding (a curve point per signer) on every core, a slice ahead;
    // the chain in order.
    signatures::for_each_mapped(
        rows,
        |row| EventRecord::decode(&row.record),
        |i, record| {
            let row = &rows[i];
            let expected = i as u64 + 1;
            if row.seq != expected {
                return Err((
                    expected,
                    format!("falta el evento {expected} (el siguiente guardado es el {0}) / event {expected} is missing (the next stored is {0})", row.seq),
                ));
            }
            let record = record.map_err(|e| {
                (row.seq, format!("el registro no se puede decodificar / the record does not decode: {e}"))
            })?;
            let head = chain.append_encoded(&record, &row.record).map_err(|e| (row.seq, e.to_string()))?;
            if head.0.as_slice() != row.head.as_slice() {
                return Err((
                    row.seq,
                    "la cabeza guardada no corresponde al registro (editado, reordenado o reemplazado) / the stored head does not match the record (edited, reordered or replaced)".into(),
                ));
            }
            records.push(record);
            Ok(())
        },
    )?;
    Ok((records, chain))
}
