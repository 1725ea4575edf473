//! A meeting directory and the signed actions on it: what `init`,
//! `checkin`, `badges`, `simulate`, `export` and (later) the daemon do.
//!
//! ```text
//! DIR/meeting.toml       the meeting's settings and agenda (as given)
//! DIR/register.csv       the register as imported (names, for the acta)
//! DIR/register.bin       the register's canonical bytes (ledger-format §7.1)
//! DIR/profile.toml       the bylaws profile, byte for byte (its digest is in the ledger)
//! DIR/meeting-id         the meeting id, hex
//! DIR/staff.toml         staff accounts: name, role, SHA-256 of the token
//! DIR/ledger.db          the ledger (SQLite)
//!
//! KEYS/daemon.seed       the daemon's signing seed, hex (mode 0600)
//! KEYS/<name>.seed       each staff member's signing seed, hex (mode 0600)
//! ```
//!
//! `KEYS` is the meeting's key folder, outside `DIR`
//! ([`crate::secrets::key_folder`]): a copy of the meeting directory holds
//! nothing that signs.
//!
//! Every action is an event signed by its actor (the key of a staff member
//! of the role the event's kind asks for, the daemon's for results, the
//! badge's for ballots), admitted by the ledger's replay checks and durable
//! before this returns.
//!
//! The agenda is read from `meeting.toml` once, at `init`, into the
//! `meeting-convened` event; from then on the ledger's agenda governs
//! (an item's matter kind is a legal fact of the notice, C.Co Art. 425),
//! and an edit of the file changes nothing that is counted.

use std::fs;
use std::path::{Path, PathBuf};

use asamblea_ledger::{register_from_bytes, Appended, Journal, Signed, SubmitError};
use asamblea_rules::{Meeting, Outcome};
use asamblea_wire::{
    lot_index, AgendaItem, AgentArrival, Ballot, Checkpoint, Credential, CredentialId, Digest, Event,
    EventBody, HolderVote, Id, Keypair, MeetingId, MessageKind, Nonce, ProxyRefusal, PublicKey,
    PublishedResult, Receipt, Signature, SignerRole, Text,
};

mod convening;
mod desk;
mod files;
mod init;
mod polls;
mod powers;
mod remote;

pub use desk::holder_names_in;
pub use files::MeetingFiles;
pub use init::NewMeeting;
pub use powers::{Admission, Expected, ExpectedPower, ExpectedPrincipal, LodgeReport, PrincipalStatus};

use crate::error::{VenueError, READ};
use crate::lock::MeetingLock;
use crate::meeting_config::MeetingConfig;
use crate::secrets::{key_folder, random};
use convening::convened_agenda;

/// What this module's functions return.
type Result<T, E = VenueError> = std::result::Result<T, E>;

/// Why an action on the meeting did not happen: the three answers the
/// daemon gives (a refusal, a stop, bad input).
#[derive(Debug, thiserror::Error)]
pub enum ActionError {
    /// The ledger's checks (the rules among them) refuse it; nothing
    /// changed.
    #[error("{0}")]
    Rejected(asamblea_ledger::Rejection),
    /// It could not be made durable: the daemon must stop.
    #[error("{0}")]
    Ledger(asamblea_ledger::LedgerError),
    /// Anything else: bad input that no event can carry, a key that cannot
    /// be read.
    #[error("{0}")]
    Other(VenueError),
}

/// What [`Service::issue_badge_as`] did.
#[derive(Debug)]
pub enum BadgeIssue {
    /// A new badge, recorded.
    Issued {
        /// Its number.
        credential: CredentialId,
        /// Its event.
        appended: Appended,
    },
    /// The same key for the same person again: the badge stands.
    Standing(CredentialId),
}

impl From<SubmitError> for ActionError {
    fn from(e: SubmitError) -> ActionError {
        match e {
            SubmitError::Rejected(r) => ActionError::Rejected(r),
            SubmitError::Ledger(l) => ActionError::Ledger(l),
        }
    }
}

impl From<VenueError> for ActionError {
    /// A refusal or a ledger failure keeps its own variant, so the daemon
    /// answers it as such wherever it was found.
    fn from(e: VenueError) -> ActionError {
        match e {
            VenueError::Rejected(r) => ActionError::Rejected(r),
            VenueError::Ledger(l) => ActionError::Ledger(l),
            other => ActionError::Other(other),
        }
    }
}

impl From<ActionError> for VenueError {
    fn from(e: ActionError) -> VenueError {
        match e {
            ActionError::Rejected(r) => VenueError::Rejected(r),
            ActionError::Ledger(l) => VenueError::Ledger(l),
            ActionError::Other(other) => other,
        }
    }
}

/// `text` as a ledger id, or an error naming what it is.
fn id(what: &str, text: &str) -> Result<Id> {
    Id::new(text).map_err(VenueError::invalid(format!("{what} `{text}`")))
}

/// An open meeting directory.
pub struct Service {
    dir: PathBuf,
    meeting_id: MeetingId,
    config: MeetingConfig,
    daemon: Keypair,
    /// The command line's staff keys: the first account of each role in
    /// `staff.toml`, which signs that role's events (`staff_event`).
    signers: Vec<(crate::staff::Role, std::sync::Arc<Keypair>)>,
    journal: Journal,
    /// Staff tokens, only right after `init` (shown once, never stored).
    tokens: Vec<(String, crate::staff::Role, String)>,
    /// This process's hold on the meeting: no other process writes it
    /// while the service is open.
    lock: MeetingLock,
    /// This process's hold on the meeting's keys: no copy of the meeting
    /// elsewhere is written and signed at the same time.
    _keys_lock: crate::lock::KeysLock,
    /// The daemon key's file: `daemon` (the convening key), or
    /// `daemon-NODE` for a replicated meeting's node (`Service::as_node`).
    daemon_seed: String,
}

/// A person present who may vote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attendee {
    /// The holder in person, or the agent.
    pub person: String,
    /// The holders whose shares the person carries, in register order.
    pub carries: Vec<String>,
    /// The person's badge, if one was issued and not revoked.
    pub badge: Option<CredentialId>,
}

/// The ballot a badge casts on `item` (its votes sorted, as the format
/// wants), signed with the badge's key: what a kiosk sends. Needs no
/// meeting state, so many can be signed at once on every core.
pub fn sign_ballot(
    meeting: &MeetingId,
    credential: &Credential,
    item: &str,
    mut votes: Vec<HolderVote>,
) -> Result<Signed> {
    votes.sort_by(|a, b| a.holder.cmp(&b.holder));
    let body = EventBody::Ballot(Ballot {
        item: id("el punto / agenda item", item)?,
        credential: credential.id(),
        votes,
    });
    sign_event(meeting, credential.keypair(), body)
}

/// An event with a fresh nonce, signed by `key` for `meeting`.
fn sign_event(meeting: &MeetingId, key: &Keypair, body: EventBody) -> Result<Signed> {
    let kind = body.kind();
    let event = Event { nonce: Nonce(random()), body };
    let bytes = event.encode().map_err(VenueError::invalid(format!("el evento / event `{kind}`")))?;
    let signature =
        key.sign(meeting, &bytes).map_err(VenueError::invalid(format!("el evento / event `{kind}`")))?;
    Ok(Signed { event, bytes, signer: key.public_key(), signature })
}

fn clock() -> asamblea_ledger::Clock {
    Box::new(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
    })
}

impl Service {
    /// Opens a meeting directory for writing and replays its ledger, having
    /// removed what a crash left in `DIR/tmp` ([`crate::scratch`]). Fails,
    /// saying who, when another process holds the meeting's lock.
    pub fn open(dir: &Path) -> Result<Service> {
        let lock = MeetingLock::acquire_or_explain(dir)?;
        Service::open_locked(dir, lock)
    }

    /// [`Service::open`] with the ledger's records stamped by `clock`
    /// (ms since the Unix epoch) instead of the system's: a simulation
    /// moves its time forward where the poll timing asks it to wait, and
    /// tests place events at the millisecond they judge.
    pub fn open_with_clock(dir: &Path, clock: asamblea_ledger::Clock) -> Result<Service> {
        let lock = MeetingLock::acquire_or_explain(dir)?;
        Service::open_locked_with(dir, lock, clock)
    }

    /// [`Service::open`] with the meeting's lock already held.
    pub fn open_locked(dir: &Path, lock: MeetingLock) -> Result<Service> {
        Service::open_locked_with(dir, lock, clock())
    }

    fn open_locked_with(dir: &Path, lock: MeetingLock, clock: asamblea_ledger::Clock) -> Result<Service> {
        let files = MeetingFiles::read(dir)?;
        // What a crash left among the meeting's temporary files goes now,
        // with the lock held (`crate::scratch`).
        crate::scratch::clear(dir)?;
        let keys_lock = crate::lock::KeysLock::acquire(&key_folder(&files.meeting_id)?, dir)?;
        let mut signers: Vec<(crate::staff::Role, std::sync::Arc<Keypair>)> = Vec::new();
        for account in crate::staff::Accounts::load(dir)?.iter() {
            if !signers.iter().any(|(role, _)| *role == account.role) {
                signers.push((account.role, std::sync::Arc::clone(&account.key)));
            }
        }
        let register_path = dir.join("register.bin");
        let register = register_from_bytes(&files.register_bytes).map_err(|e| VenueError::Malformed {
            path: register_path,
            place: None,
            message: format!("el registro de accionistas guardado no se puede leer / the stored register cannot be read: {e}"),
        })?;
        // The records up to the latest head the daemon signed need their
        // chain checked, not every signature again (`crate::checkpoints`).
        // The file is read as `verify DIR` reads it: two heads the key
        // signed at one event refuse the start.
        let trusted = crate::checkpoints::read(dir, &files.meeting_id, &files.head_keys()?)?.latest();
        let journal = Journal::open_trusting(
            &dir.join("ledger.db"),
            files.meeting_id,
            register,
            files.config.profile.clone(),
            Digest::sha256(&files.profile_bytes),
            files.daemon.public_key(),
            clock,
            trusted,
        )
        .map_err(|e| match e {
            asamblea_ledger::OpenError::CheckpointMismatch { .. }
            | asamblea_ledger::OpenError::ShorterThanSigned { .. } => {
                VenueError::Tampered { path: dir.join("ledger.db"), source: e }
            }
            asamblea_ledger::OpenError::Ledger(error) => VenueError::Ledger(error),
            asamblea_ledger::OpenError::Rejected { seq, rejection } => {
                VenueError::Unreplayable { path: dir.join("ledger.db"), seq, rejection }
            }
        })?;
        Ok(Service {
            dir: dir.to_path_buf(),
            meeting_id: files.meeting_id,
            config: files.config,
            daemon: files.daemon,
            signers,
            journal,
            tokens: Vec::new(),
            lock,
            _keys_lock: keys_lock,
            daemon_seed: "daemon".to_string(),
        })
    }

    /// The same service signing as node `node` of a replicated meeting
    /// (`docs/replication.md`): with `KEYS/daemon-NODE.seed` when `init
    /// --nodes` made one (every node but the first), else with the
    /// convening key.
    pub fn as_node(mut self, node: &str) -> Result<Service> {
        let keys = key_folder(&self.meeting_id)?;
        let name = format!("daemon-{node}");
        let seed = keys.join(format!("{name}.seed"));
        if seed.exists() {
            self.daemon = Keypair::from_seed(&crate::secrets::read_key(&keys, &name)?);
            self.daemon_seed = name;
        }
        // A meeting that enrolled its nodes is served by them alone, each
        // with its enrolled key: a name it does not enroll, or a machine
        // without its node's seed, would sign with a key the record holds
        // to no stretch (refused at its first daemon event).
        let enrolled = self.journal.state().nodes();
        if !enrolled.is_empty() {
            let names: Vec<&str> = enrolled.iter().map(|(name, _)| name.as_str()).collect();
            let Some((_, key)) = enrolled.iter().find(|(name, _)| name.as_str() == node) else {
                return Err(VenueError::refused(format!(
                    "--node {node}: no es un nodo de esta reunión (inscritos al convocar: {}) / is not one of this meeting's nodes",
                    names.join(", ")
                )));
            };
            if *key != self.daemon.public_key() {
                return Err(VenueError::refused(format!(
                    "--node {node}: falta la clave de este nodo, {}: cópiela de la carpeta de claves que hizo `init` / this node's key is missing: copy it from the key folder `init` made",
                    seed.display()
                )));
            }
        }
        Ok(self)
    }

    /// The node this service signs as, when the meeting enrolled one with
    /// its key, and whether that node leads the ledger now (the convening
    /// key leads before any takeover).
    pub fn node_leads(&self, node: &str) -> Option<bool> {
        let state = self.journal.state();
        let key = self.daemon.public_key();
        state.nodes().iter().find(|(name, k)| name.as_str() == node && *k == key)?;
        let leading = state.leader().map(|(_, k, _)| *k).or(state.daemon_key());
        Some(leading == Some(key))
    }

    /// The staff tokens drawn by `init`, to show once; empty otherwise.
    pub fn take_tokens(&mut self) -> Vec<(String, crate::staff::Role, String)> {
        std::mem::take(&mut self.tokens)
    }

    /// The meeting directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The meeting's settings.
    pub fn config(&self) -> &MeetingConfig {
        &self.config
    }

    /// The meeting id.
    pub fn meeting_id(&self) -> MeetingId {
        self.meeting_id
    }

    /// The daemon's public key (published at start).
    pub fn daemon_key(&self) -> PublicKey {
        self.daemon.public_key()
    }

    /// The meeting as folded from the ledger.
    pub fn meeting(&self) -> &Meeting {
        self.journal.state().meeting().expect("init imports the register")
    }

    /// A handle that tells the last durable record's number and head,
    /// usable without holding the service.
    pub fn tip_handle(&self) -> asamblea_ledger::TipHandle {
        self.journal.tip_handle()
    }

    /// Runs `f` on the meeting's journal and its ledger file's path: a
    /// replicated meeting brings it in step with the copy and installs the
    /// copy on its writer before serving (`docs/replication.md`).
    pub fn with_journal<T>(&mut self, f: impl FnOnce(&mut Journal, &Path) -> T) -> T {
        let path = self.dir.join("ledger.db");
        f(&mut self.journal, &path)
    }

    /// The ledger's state.
    pub fn state(&self) -> &asamblea_ledger::State {
        self.journal.state()
    }

    fn signed(&self, key: &Keypair, body: EventBody) -> Result<Signed> {
        sign_event(&self.meeting_id, key, body)
    }

    fn submit(&mut self, signed: Signed) -> Result<Appended, SubmitError> {
        self.journal.submit(signed)
    }

    /// The command line's key for a staff kind: the first account of
    /// the role that may sign it.
    fn signer_for(&self, kind: MessageKind) -> Result<std::sync::Arc<Keypair>> {
        let SignerRole::Staff(role) = kind.signer() else {
            return Err(VenueError::refused(format!(
                "`{kind}` no lo firma el personal / `{kind}` is not signed by staff"
            )));
        };
        self.signers.iter().find(|(r, _)| *r == role).map(|(_, key)| std::sync::Arc::clone(key)).ok_or_else(|| {
            VenueError::refused(format!(
                "{}: staff.toml no tiene una cuenta {role} para firmar `{kind}` / staff.toml has no {role} account to sign `{kind}`",
                self.dir.join("staff.toml").display()
            ))
        })
    }

    /// A staff action, signed by the command line's member of the role
    /// its kind asks for (the operator for the desk's, the chair for the
    /// polls').
    pub fn staff_event(&mut self, body: EventBody) -> Result<Appended> {
        let key = self.signer_for(body.kind())?;
        let signed = self.signed(&key, body)?;
        Ok(self.submit(signed)?)
    }

    /// A staff action signed by the acting member's key (the API's actor).
    pub fn staff_event_as(&mut self, key: &Keypair, body: EventBody) -> Result<Appended, ActionError> {
        let signed = self.signed(key, body)?;
        self.submit(signed).map_err(ActionError::from)
    }

    /// [`Service::staff_event`] without the wait: admitted now (a refusal
    /// changes nothing) and queued on the group-committing writer, `done`
    /// told once it is durable. For work in bulk (`simulate`), where one
    /// fsync per event would be most of the time.
    pub fn queue_staff_event(&mut self, body: EventBody, done: asamblea_ledger::Completion) -> Result<()> {
        let key = self.signer_for(body.kind())?;
        let signed = self.signed(&key, body)?;
        Ok(self.journal.admit_and_append(signed, done)?)
    }

    /// Admits a ballot whose signature the caller verified, and queues it;
    /// `done` is told once it is durable.
    pub fn queue_ballot(
        &mut self,
        signed: Signed,
        done: asamblea_ledger::Completion,
    ) -> Result<(), asamblea_ledger::Rejection> {
        self.journal.admit_and_append(signed, done)
    }

    /// Where the ballots stored before this start are (for re-issuing
    /// receipts).
    pub fn take_stored_ballots(&mut self) -> asamblea_ledger::BallotIndex {
        self.journal.take_stored_ballots()
    }

    /// The daemon's signing key, for receipts signed outside the lock.
    pub fn daemon_keypair(&self) -> Result<Keypair> {
        Ok(Keypair::from_seed(&crate::secrets::read_key(&key_folder(&self.meeting_id)?, &self.daemon_seed)?))
    }

    /// A daemon statement (results, enrolment).
    pub fn daemon_event(&mut self, body: EventBody) -> Result<Appended> {
        let signed = self.signed(&self.daemon, body)?;
        Ok(self.submit(signed)?)
    }

    /// Stops the ledger writer after the queued appends, and gives back
    /// the meeting's lock (drop it to let other processes write).
    pub fn close(self) -> MeetingLock {
        // The head at a clean stop, signed, for a quick next start.
        self.keep_head();
        self.journal.close();
        self.lock
    }

    /// Signs the durable head with this daemon's key and keeps it beside
    /// the ledger (`crate::checkpoints`), for a quick next start: at a
    /// clean stop, and on a replicated meeting's standby as it takes in the
    /// copy's records (each checked by the replay first). A lost line only
    /// makes the next start check more.
    pub fn keep_head(&self) {
        if let Ok((seq, head)) = self.journal.tip_handle().durable_tip() {
            if seq > 0 {
                let checkpoint = Checkpoint { seq, head };
                let _ = crate::checkpoints::append(
                    &self.dir,
                    &checkpoint,
                    &checkpoint.sign(&self.meeting_id, &self.daemon),
                );
            }
        }
    }
}
