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
    #[error("stored event {seq} is not admissible: {rejection}")]
    Rejected {
        /// The record.
        seq: u64,
        /// Why.
        rejection: Rejection,
    },
    /// The stored chain's head at a checkpoint the daemon signed is another:
    /// a stored event up to it was changed.
    #[error(
        "the ledger's head at event {seq} is not the one the daemon signed there: an event up to it was changed after it was saved"
    )]
    CheckpointMismatch {
        /// The checkpoint's number.
        seq: u64,
    },
    /// The ledger holds fewer events than the daemon signed for.
    #[error(
        "the ledger holds {stored} events but the daemon signed its head at event {signed}: saved events are missing"
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
    /// The ballots found at open: the event digest, with the place and
    /// head the ledger gave them (for re-issuing receipts).
    ballots: Vec<(Digest, Appended)>,
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
        let (ledger, records, heads) =
            Ledger::open_with_heads(path, &meeting, clock).map_err(OpenError::Ledger)?;
        let trusted_seq = trusted.map_or(0, |c| c.seq);
        if let Some(checkpoint) = trusted.filter(|c| c.seq > 0) {
            // The chain, already checked record by record, must reach the
            // signed head; before any replay, so a change up to it is
            // named as what it is.
            match heads.get(checkpoint.seq as usize - 1) {
                None => {
                    return Err(OpenError::ShorterThanSigned {
                        signed: checkpoint.seq,
                        stored: records.len() as u64,
                    })
                }
                Some(head) if *head != checkpoint.head => {
                    return Err(OpenError::CheckpointMismatch { seq: checkpoint.seq })
                }
                Some(_) => {}
            }
        }
        let mut state = State::new(meeting, register, profile, profile_digest, Some(daemon_key));
        let mut ballots = Vec::new();
        // Every signature, strictly, on every core; then each event is
        // admitted in order, as `State::admit` would. Only the event's
        // digest is kept, not a second copy of its bytes.
        let checked = crate::signatures::par_map(&records, |record| {
            let bytes = record.event.encode()?;
            let signed = record.seq <= trusted_seq
                || record.signer.verify(&meeting, &bytes, &record.signature).is_ok();
            Ok::<_, asamblea_wire::WireError>((Digest::sha256(&bytes), signed))
        });
        // The heads are the ones the ledger recomputed from the stored
        // bytes as it opened (and found equal to the stored ones).
        for ((record, checked), &head) in records.iter().zip(checked).zip(&heads) {
            let (event_digest, signed) = checked.map_err(|e| OpenError::Ledger(LedgerError::Encode(e)))?;
            let admitted = if signed {
                state.admit_verified(&record.event, &record.signer)
            } else {
                Err(Rejection::BadSignature)
            };
            admitted.map_err(|rejection| OpenError::Rejected { seq: record.seq, rejection })?;
            state.chained(head);
            if matches!(record.event.body, asamblea_wire::EventBody::Ballot(_)) {
                ballots.push((
                    event_digest,
                    Appended { seq: record.seq, time_ms: record.time_ms, head, event_digest },
                ));
            }
        }
        Ok(Journal { state, ledger, records: records.len() as u64, diverged: None, ballots })
    }

    /// The ballots stored when the journal was opened (once; empty after).
    pub fn take_stored_ballots(&mut self) -> Vec<(Digest, Appended)> {
        std::mem::take(&mut self.ballots)
    }

    /// The state.
    pub fn state(&self) -> &State {
        &self.state
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
        self.state.chained(appended.head);
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
                "item-closed is submitted and waited for: its head seeds the lot",
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
            .admit(&signed.event, &signed.bytes, &signed.signer, &signed.signature)
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
                self.journal.diverged = Some(format!("an admitted event cannot be placed: {e}"));
                return Err(SubmitError::Ledger(LedgerError::Encode(e)));
            }
        };
        self.journal.state.chained(head);
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
                let reason = "the writer placed a group elsewhere than the journal did".to_string();
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
            self.journal.diverged = Some("a group of events was admitted but never written".into());
        }
    }
}
