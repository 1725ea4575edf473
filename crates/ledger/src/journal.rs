//! A ledger and the state it folds into, kept in step: what the daemon
//! holds while a meeting runs.
//!
//! [`Journal::submit`] admits a signed event into the [`State`] (every
//! check of the replay), appends it, and returns only once it is durable.
//! Opening a journal replays the stored records through the same checks,
//! so a ledger the daemon wrote is one `verify` accepts.

use std::path::Path;

use asamblea_rules::{Profile, Register};
use asamblea_wire::{Checkpoint, Digest, EventRecord, MeetingId, PublicKey};

use crate::state::{Rejection, State};
use crate::{Appended, Cause, Clock, Ledger, LedgerError, Signed, WriterStats};

/// Why a submitted event was not recorded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubmitError {
    /// The replay's checks refuse it; nothing changed.
    #[error("{0}")]
    Rejected(Rejection),
    /// It could not be made durable. The state may be ahead of the file:
    /// stop and reopen.
    #[error("{0}")]
    Ledger(LedgerError),
}

/// A journal that could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    /// The file is unreadable or its chain breaks.
    #[error("{0}")]
    Ledger(LedgerError),
    /// A stored event the replay does not admit.
    #[error("el evento guardado {seq} no es admisible / stored event {seq} is not admissible: {rejection}")]
    Rejected {
        /// The record.
        seq: u64,
        /// Why.
        rejection: Rejection,
    },
    /// The stored chain's head at a checkpoint the daemon signed is another:
    /// a stored event up to it was changed.
    #[error(
        "la cabeza del registro en el evento {seq} no es la que el servicio firmó allí: un evento hasta ese se cambió después de guardarse / \
         the ledger's head at event {seq} is not the one the daemon signed there: an event up to it was changed after it was saved"
    )]
    CheckpointMismatch {
        /// The checkpoint's number.
        seq: u64,
    },
    /// The ledger holds fewer events than the daemon signed for.
    #[error(
        "el registro tiene {stored} eventos pero el servicio firmó su cabeza en el evento {signed}: faltan eventos guardados / \
         the ledger holds {stored} events but the daemon signed its head at event {signed}: saved events are missing"
    )]
    ShorterThanSigned {
        /// The checkpoint's number.
        signed: u64,
        /// Events stored.
        stored: u64,
    },
}

/// A ledger file and the meeting folded from it.
pub struct Journal {
    state: State,
    ledger: Ledger,
    records: u64,
    /// Set when the state took in events that were then not written (a
    /// [`Group`] dropped half-way): the state is ahead of the file, and
    /// only a restart that replays the file is safe.
    diverged: Option<String>,
    /// The ballots found at open, by event digest (for re-issuing
    /// receipts).
    ballots: crate::BallotIndex,
}

impl Journal {
    /// Opens (or creates) the ledger at `path` and replays it, checking
    /// every signature.
    pub fn open(
        path: &Path,
        meeting: MeetingId,
        register: Register,
        profile: Profile,
        profile_digest: Digest,
        daemon_key: PublicKey,
        clock: Clock,
    ) -> Result<Journal, OpenError> {
        Journal::open_trusting(path, meeting, register, profile, profile_digest, daemon_key, clock, None)
    }

    /// [`Journal::open`] trusting `trusted`, a checkpoint the caller
    /// verified was signed by the daemon's key: the records up to it are
    /// checked by their chain (the head at its number must be the signed
    /// one, or the start is refused) and their signatures not again; every
    /// record after it is checked in full. A ledger shorter than it is
    /// refused. Every rule is replayed either way.
    ///
    /// The file is read a slice at a time (`signatures::stream_mapped`):
    /// decoding and signatures on every core a slice ahead, then each
    /// record in order — its number, its link in the chain, the stored
    /// head, the trusted head, its replay. Only the state, the ballots'
    /// index and a few slices are in memory, whatever the ledger's length.
    /// A record up to the trusted checkpoint that the replay refuses is
    /// reported only once the head there is known to be the signed one: a
    /// changed record is named as a change ([`OpenError::CheckpointMismatch`]),
    /// not as whatever rule the change happens to break.
    #[allow(clippy::too_many_arguments)]
    pub fn open_trusting(
        path: &Path,
        meeting: MeetingId,
        register: Register,
        profile: Profile,
        profile_digest: Digest,
        daemon_key: PublicKey,
        clock: Clock,
        trusted: Option<Checkpoint>,
    ) -> Result<Journal, OpenError> {
        let conn = crate::store::open(path, &meeting).map_err(OpenError::Ledger)?;
        let trusted = trusted.filter(|c| c.seq > 0);
        let trusted_seq = trusted.map_or(0, |c| c.seq);
        let broken = |seq: u64, reason: String| {
            OpenError::Ledger(LedgerError::BrokenChain { path: path.display().to_string(), seq, reason })
        };
        let mut state = State::new(meeting, register, profile, profile_digest, Some(daemon_key));
        let mut chain = asamblea_wire::Chain::new(&meeting);
        // At most one ballot a record: room for them all at once.
        let records =
            crate::store::last_seq(&conn).map_err(|e| OpenError::Ledger(LedgerError::sqlite(path, e)))?;
        let mut ballots = crate::ballots::Stored::with_capacity(usize::try_from(records).unwrap_or(0));
        let mut last_time = 0;
        let mut refused: Option<OpenError> = None;
        let mut read = 0u64;
        let next = || -> Result<Option<Vec<crate::Row>>, OpenError> {
            let rows = crate::store::read_after(&conn, read, crate::signatures::STREAM_SLICE)
                .map_err(|e| OpenError::Ledger(LedgerError::sqlite(path, e)))?;
            read = rows.last().map_or(read, |row| row.seq);
            Ok((!rows.is_empty()).then_some(rows))
        };
        // Alone for each record, on every core: decoding (its signer's
        // key is a curve point), its event's digest, and its signature
        // unless the trusted checkpoint covers it.
        let open = |row: &crate::Row| {
            let record = EventRecord::decode(&row.record)?;
            let event = EventRecord::event_bytes(&row.record).unwrap_or_default();
            let signed =
                row.seq <= trusted_seq || record.signer.verify(&meeting, event, &record.signature).is_ok();
            Ok::<_, asamblea_wire::WireError>((record, Digest::sha256(event), signed))
        };
        crate::signatures::stream_mapped(next, open, |row, opened| {
            let expected = chain.seq() + 1;
            if row.seq != expected {
                return Err(broken(
                    expected,
                    format!("falta el evento {expected} (el siguiente guardado es el {0}) / event {expected} is missing (the next stored is {0})", row.seq),
                ));
            }
            let (record, event_digest, signed) = opened.map_err(|e| {
                broken(
                    row.seq,
                    format!("el registro no se puede decodificar / the record does not decode: {e}"),
                )
            })?;
            let head =
                chain.append_encoded(&record, &row.record).map_err(|e| broken(row.seq, e.to_string()))?;
            if head.0.as_slice() != row.head.as_slice() {
                return Err(broken(
                    row.seq,
                    "la cabeza guardada no corresponde al registro (editado, reordenado o reemplazado) / the stored head does not match the record (edited, reordered or replaced)".into(),
                ));
            }
            if trusted.is_some_and(|c| c.seq == row.seq && c.head != head) {
                return Err(OpenError::CheckpointMismatch { seq: row.seq });
            }
            if let Some(refusal) = refused.take() {
                // Up to the trusted head, only the chain is followed now.
                return if row.seq < trusted_seq {
                    refused = Some(refusal);
                    Ok(())
                } else {
                    Err(refusal)
                };
            }
            let admitted = if signed {
                state.admit_verified_at(&record.event, &record.signer, record.time_ms)
            } else {
                Err(Rejection::BadSignature)
            };
            if let Err(rejection) = admitted {
                let refusal = OpenError::Rejected { seq: row.seq, rejection };
                return if row.seq < trusted_seq {
                    refused = Some(refusal);
                    Ok(())
                } else {
                    Err(refusal)
                };
            }
            state.chained(head, record.time_ms);
            if matches!(record.event.body, asamblea_wire::EventBody::Ballot(_)) {
                ballots.push(&event_digest, row.seq);
            }
            last_time = record.time_ms;
            Ok(())
        })?;
        let stored = chain.seq();
        if stored < trusted_seq {
            return Err(OpenError::ShorterThanSigned { signed: trusted_seq, stored });
        }
        let ledger = crate::Ledger::started(conn, chain, last_time, clock, path);
        let ballots = ballots.into_index();
        Ok(Journal { state, ledger, records: stored, diverged: None, ballots })
    }

    /// Where each ballot stored when the journal was opened is (once; empty
    /// after): the daemon keeps it to issue their receipts again.
    pub fn take_stored_ballots(&mut self) -> crate::BallotIndex {
        std::mem::take(&mut self.ballots)
    }

    /// The state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Takes in records another node wrote, as the replica holds them
    /// (each record's bytes, in order, numbered right after this ledger's
    /// last): each is decoded, chained, its signature checked and its
    /// event admitted by the same replay `open` and `verify` run; those
    /// admitted are then stored as they are, in one transaction. A record
    /// the replay refuses stops there: the ones before it are stored, so
    /// this ledger stays a verified prefix of the chain, and the refusal
    /// is returned (the copy holds what no node may have written). Their
    /// ballots join the index [`Journal::take_stored_ballots`] gives, so
    /// that a daemon started after it finds their receipts.
    pub fn admit_copied(&mut self, records: &[Vec<u8>]) -> Result<u64, OpenError> {
        if let Some(why) = &self.diverged {
            return Err(OpenError::Ledger(LedgerError::WriterStopped {
                reason: why.clone(),
                cause: Cause::Other,
            }));
        }
        let (from, _) = self.ledger.tip().map_err(OpenError::Ledger)?;
        let mut chain = from.clone();
        let mut rows = Vec::with_capacity(records.len());
        let mut refused = None;
        let broken = |seq: u64, reason: String| {
            OpenError::Ledger(LedgerError::BrokenChain { path: "la copia / the copy".into(), seq, reason })
        };
        for bytes in records {
            let seq = chain.seq() + 1;
            let admitted = EventRecord::decode(bytes)
                .map_err(|e| {
                    broken(
                        seq,
                        format!("el registro no se puede decodificar / the record does not decode: {e}"),
                    )
                })
                .and_then(|record| {
                    let head = chain
                        .clone()
                        .append_encoded(&record, bytes)
                        .map_err(|e| broken(seq, e.to_string()))?;
                    let event = EventRecord::event_bytes(bytes).unwrap_or_default();
                    let rejection =
                        match record.signer.verify(&self.state.meeting_id(), event, &record.signature) {
                            Ok(()) => self
                                .state
                                .admit_verified_at(&record.event, &record.signer, record.time_ms)
                                .err(),
                            Err(_) => Some(Rejection::BadSignature),
                        };
                    match rejection {
                        Some(rejection) => Err(OpenError::Rejected { seq, rejection }),
                        None => Ok((record, head)),
                    }
                });
            match admitted {
                Ok((record, head)) => {
                    chain.append_encoded(&record, bytes).expect("chained above");
                    self.state.chained(head, record.time_ms);
                    if matches!(record.event.body, asamblea_wire::EventBody::Ballot(_)) {
                        let event = EventRecord::event_bytes(bytes).unwrap_or_default();
                        self.ballots.insert(&Digest::sha256(event), seq);
                    }
                    rows.push((seq, bytes.clone(), head));
                }
                Err(e) => {
                    refused = Some(e);
                    break;
                }
            }
        }
        let admitted = rows.len() as u64;
        if admitted > 0 {
            if let Err(e) = self.ledger.store_copied(from, chain, rows) {
                // The state took in what the file did not: only a restart
                // that replays the file is safe.
                self.diverged = Some(e.to_string());
                return Err(OpenError::Ledger(e));
            }
            self.records += admitted;
        }
        match refused {
            Some(e) => Err(e),
            None => Ok(admitted),
        }
    }

    /// From the next batch on, every batch is copied to `replica` and
    /// acknowledged only once it holds it ([`Ledger::replicate_to`]).
    pub fn replicate_to(&self, replica: Box<dyn crate::Replica>) -> Result<(), LedgerError> {
        self.ledger.replicate_to(replica)
    }

    /// How long the writer has been inside its current write to the disk
    /// ([`crate::DiskWatch`]), from any thread.
    pub fn disk_watch(&self) -> crate::DiskWatch {
        self.ledger.disk_watch()
    }

    /// A handle that tells the last durable record's number and head from
    /// any thread, without holding the journal.
    pub fn tip_handle(&self) -> crate::TipHandle {
        self.ledger.tip_handle()
    }

    /// Records in the ledger.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Admits, appends and waits until durable.
    pub fn submit(&mut self, signed: Signed) -> Result<Appended, SubmitError> {
        if let Some(reason) = &self.diverged {
            return Err(SubmitError::Ledger(LedgerError::WriterStopped {
                reason: reason.clone(),
                cause: Cause::Other,
            }));
        }
        self.state
            .admit(&signed.event, &signed.bytes, &signed.signer, &signed.signature)
            .map_err(SubmitError::Rejected)?;
        let appended = self.ledger.append_blocking(signed).map_err(SubmitError::Ledger)?;
        self.state.chained(appended.head, appended.time_ms);
        self.records += 1;
        Ok(appended)
    }

    /// Admits an event whose signature the caller has verified, and queues
    /// it; `done` is called once it is durable. Events are appended in the
    /// order they are admitted. Not for `item-closed`, whose head seeds a
    /// lot: use [`Journal::submit`], which waits for it.
    pub fn admit_and_append(&mut self, signed: Signed, done: crate::Completion) -> Result<(), Rejection> {
        if matches!(signed.event.body, asamblea_wire::EventBody::ItemClosed { .. }) {
            return Err(Rejection::OutOfPlace(
                "item-closed se envía y se espera: su cabeza es la semilla del sorteo / item-closed is submitted and waited for: its head seeds the lot",
            ));
        }
        if let Some(reason) = &self.diverged {
            done(Err(LedgerError::WriterStopped { reason: reason.clone(), cause: Cause::Other }));
            return Ok(());
        }
        self.state.admit_verified(&signed.event, &signed.signer)?;
        self.ledger.append(signed, done);
        self.records += 1;
        Ok(())
    }

    /// Starts events that reach the ledger together or not at all (a close,
    /// its result and its lots): once everything queued before is durable,
    /// each [`Group::push`] is admitted into the state and placed — its
    /// number, time and head known before the commit, so that a lot drawn
    /// from the close's head can be in the same transaction — and
    /// [`Group::commit`] writes them in one transaction.
    pub fn begin_group(&mut self) -> Result<Group<'_>, SubmitError> {
        if let Some(reason) = &self.diverged {
            return Err(SubmitError::Ledger(LedgerError::WriterStopped {
                reason: reason.clone(),
                cause: Cause::Other,
            }));
        }
        let (chain, time_ms) = self.ledger.tip().map_err(SubmitError::Ledger)?;
        Ok(Group { journal: self, chain, time_ms, events: Vec::new(), placed: Vec::new() })
    }

    /// Stops the writer after the queued appends.
    pub fn close(self) -> WriterStats {
        self.ledger.shutdown()
    }

    /// Every record, read back from the file (for export).
    pub fn read_records(path: &Path, meeting: &MeetingId) -> Result<Vec<(EventRecord, Digest)>, LedgerError> {
        crate::read_records(path, meeting)
    }
}

/// Events on their way to the ledger as one transaction
/// ([`Journal::begin_group`]). Dropped without [`Group::commit`] after a
/// push, it leaves the journal refusing everything (the state took in
/// what the file never got).
pub struct Group<'a> {
    journal: &'a mut Journal,
    /// The chain as it will be after the events pushed so far.
    chain: asamblea_wire::Chain,
    time_ms: u64,
    events: Vec<Signed>,
    placed: Vec<Appended>,
}

impl Group<'_> {
    /// Admits `signed` into the state after the events pushed before it,
    /// and tells where it will be in the ledger once committed. A refused
    /// event changes nothing (the group goes on without it).
    pub fn push(&mut self, signed: Signed) -> Result<Appended, SubmitError> {
        self.journal
            .state
            .admit_at(&signed.event, &signed.bytes, &signed.signer, &signed.signature, self.time_ms)
            .map_err(SubmitError::Rejected)?;
        let record = EventRecord {
            seq: self.chain.seq() + 1,
            time_ms: self.time_ms,
            signer: signed.signer,
            signature: signed.signature,
            event: signed.event.clone(),
        };
        let head = match self.chain.append(&record) {
            Ok(head) => head,
            Err(e) => {
                self.journal.diverged = Some(format!(
                    "un evento admitido no se puede ubicar / an admitted event cannot be placed: {e}"
                ));
                return Err(SubmitError::Ledger(LedgerError::Encode(e)));
            }
        };
        self.journal.state.chained(head, self.time_ms);
        let appended = Appended {
            seq: record.seq,
            time_ms: self.time_ms,
            head,
            event_digest: Digest::sha256(&signed.bytes),
        };
        self.events.push(signed);
        self.placed.push(appended);
        Ok(appended)
    }

    /// The state with every pushed event in it.
    pub fn state(&self) -> &State {
        &self.journal.state
    }

    /// Writes every pushed event in one transaction and waits until it is
    /// durable.
    pub fn commit(mut self) -> Result<Vec<Appended>, SubmitError> {
        let events = std::mem::take(&mut self.events);
        let placed = std::mem::take(&mut self.placed);
        if events.is_empty() {
            return Ok(placed);
        }
        let count = events.len() as u64;
        let written = self.journal.ledger.append_group_blocking(events, self.time_ms);
        match written {
            Ok(appended) if appended == placed => {
                self.journal.records += count;
                Ok(appended)
            }
            Ok(_) => {
                let reason = "el escritor ubicó un grupo en otro lugar que el diario / the writer placed a group elsewhere than the journal did".to_string();
                self.journal.diverged = Some(reason.clone());
                Err(SubmitError::Ledger(LedgerError::WriterStopped { reason, cause: Cause::Other }))
            }
            Err(e) => {
                self.journal.diverged = Some(e.to_string());
                Err(SubmitError::Ledger(e))
            }
        }
    }
}

impl Drop for Group<'_> {
    fn drop(&mut self) {
        if !self.events.is_empty() {
            self.journal.diverged = Some("un grupo de eventos se admitió pero nunca se escribió / a group of events was admitted but never written".into());
        }
    }
}
