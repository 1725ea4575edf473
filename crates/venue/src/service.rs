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

use asamblea_ledger::{register_bytes, register_from_bytes, Appended, Bundle, Journal, Signed, SubmitError};
use asamblea_rules::{Meeting, Outcome};
use asamblea_wire::{
    lot_index, register_digest, AgendaItem, AgentArrival, Ballot, Checkpoint, Credential, CredentialId,
    Digest, Event, EventBody, HolderVote, Id, Keypair, MeetingId, MessageKind, Nonce, ProxyRefusal,
    PublicKey, PublishedResult, Receipt, Signature, SignerRole, Text,
};

use asamblea_wire::hex::encode as hex;

mod convening;
mod desk;
mod polls;
mod powers;
mod remote;

pub use desk::holder_names_in;
pub use powers::{Admission, Expected, ExpectedPower, ExpectedPrincipal, LodgeReport, PrincipalStatus};

use crate::error::{VenueError, READ};
use crate::lock::MeetingLock;
use crate::meeting_config::{self, MeetingConfig};
use crate::register_csv;
use crate::secrets::{create_private_dir, key_folder, random, write_private_new, write_secret};
use convening::{convened_agenda, whole_agenda};

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

/// The files of a meeting directory that never change after `init`, read
/// without the meeting's lock: what `export` and `verify` need beside a
/// running daemon.
pub struct MeetingFiles {
    /// `meeting-id`.
    pub meeting_id: MeetingId,
    /// `meeting.toml`.
    pub config: MeetingConfig,
    /// `KEYS/daemon.seed`: signs receipts, results and checkpoints.
    pub daemon: Keypair,
    /// `profile.toml`, byte for byte (its digest is in the ledger).
    pub profile_bytes: Vec<u8>,
    /// `register.bin`, the register's canonical bytes.
    pub register_bytes: Vec<u8>,
}

impl MeetingFiles {
    /// Reads them, each error naming its file.
    pub fn read(dir: &Path) -> Result<MeetingFiles> {
        let read = |name: &'static str| -> Result<Vec<u8>> {
            fs::read(dir.join(name)).map_err(VenueError::meeting_file(dir, name))
        };
        let text = |name: &'static str| -> Result<String> {
            String::from_utf8(read(name)?).map_err(|_| VenueError::Malformed {
                path: dir.join(name),
                place: None,
                message: "no es texto UTF-8 / is not UTF-8 text".into(),
            })
        };
        let config =
            meeting_config::parse(&dir.join("meeting.toml").display().to_string(), &text("meeting.toml")?)?;
        let meeting_id = crate::secrets::read_meeting_id(dir)?;
        let daemon = Keypair::from_seed(&crate::secrets::read_key(&key_folder(&meeting_id)?, "daemon")?);
        Ok(MeetingFiles {
            meeting_id,
            config,
            daemon,
            profile_bytes: read("profile.toml")?,
            register_bytes: read("register.bin")?,
        })
    }

    /// The meeting id of the meeting in `dir` (`meeting-id`).
    pub fn meeting_id(dir: &Path) -> Result<MeetingId> {
        crate::secrets::read_meeting_id(dir)
    }

    /// The agenda convened in the ledger of the meeting in `dir` (its
    /// first record), read without the lock and without any key.
    pub fn convened_agenda(dir: &Path) -> Result<Vec<AgendaItem>> {
        let meeting = MeetingFiles::meeting_id(dir)?;
        let records = asamblea_ledger::read_records(&dir.join("ledger.db"), &meeting)?;
        match records.first().map(|(record, _)| &record.event.body) {
            Some(EventBody::MeetingConvened { agenda, .. }) => Ok(agenda.clone()),
            _ => Err(VenueError::Malformed {
                path: dir.join("ledger.db"),
                place: None,
                message: "el registro no empieza por la convocatoria (meeting-convened) / the ledger does not start with meeting-convened".into(),
            }),
        }
    }

    /// Writes the audit bundle of the meeting in `dir` to `out`, streaming
    /// (`asamblea_ledger::export_bundle`): every record as stored, read
    /// through SQLite beside any writer and checked on the way, the
    /// register, the profile, the daemon's key, and a daemon-signed
    /// checkpoint at every close and at the end. Takes no lock: it works
    /// beside a running daemon.
    pub fn export_to(dir: &Path, out: impl std::io::Write) -> Result<asamblea_ledger::Exported> {
        let files = MeetingFiles::read(dir)?;
        let sign = |c: &Checkpoint| c.sign(&files.meeting_id, &files.daemon);
        Ok(asamblea_ledger::export_bundle(&dir.join("ledger.db"), &files.bundle_head(), sign, out)?)
    }

    /// What a bundle of this meeting says before its records: the
    /// meeting, the daemon's key, the profile and the register.
    pub fn bundle_head(&self) -> asamblea_ledger::BundleHead<'_> {
        asamblea_ledger::BundleHead {
            meeting: self.meeting_id,
            daemon_key: self.daemon.public_key(),
            profile_name: self.config.profile.name(),
            profile_bytes: &self.profile_bytes,
            register_bytes: &self.register_bytes,
        }
    }

    /// [`MeetingFiles::export_to`] in memory, read back as a [`Bundle`].
    pub fn export(dir: &Path) -> Result<Bundle> {
        let mut bytes = Vec::new();
        MeetingFiles::export_to(dir, &mut bytes)?;
        Ok(Bundle::decode(&bytes)?)
    }
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

/// The inputs of a new meeting, checked; nothing is written yet.
pub struct NewMeeting {
    config: MeetingConfig,
    register: asamblea_rules::Register,
    meeting_text: String,
    /// The register file's bytes, kept as given (`register.csv`).
    register_bytes: Vec<u8>,
    notes: Vec<String>,
    /// A replicated meeting's nodes (`init --nodes`): the first signs
    /// with the convening key, each other with a key of its own.
    nodes: Vec<Id>,
}

impl NewMeeting {
    /// The same meeting served by these nodes (`docs/replication.md`):
    /// each name as an id (it names a key file too); two alike are refused.
    pub fn with_nodes(mut self, nodes: &[String]) -> Result<NewMeeting> {
        let mut ids = Vec::new();
        for node in nodes {
            let node = id("el nodo / node (--nodes)", node)?;
            if ids.contains(&node) {
                return Err(VenueError::refused(format!(
                    "--nodes nombra dos veces «{node}» / names «{node}» twice"
                )));
            }
            ids.push(node);
        }
        self.nodes = ids;
        Ok(self)
    }

    /// What was read other than as the formats say (a register's encoding
    /// or separator), for the operator to see.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Checks `meeting.toml` and the register CSV (`progress` is told how
    /// many register rows were read), before anything is written.
    pub fn check(
        meeting_file: &str,
        meeting_text: &str,
        register_file: &str,
        register_bytes: &[u8],
        progress: impl FnMut(u64),
    ) -> Result<NewMeeting> {
        let config = meeting_config::parse(meeting_file, meeting_text)?;
        meeting_config::check_convening(meeting_file, meeting_text, &config)?;
        // The convening event carries the whole agenda: it must fit one
        // ledger message (64 KiB), said before anything is written.
        let probe = Event {
            nonce: Nonce([0; 16]),
            body: EventBody::MeetingConvened {
                daemon_key: Keypair::from_seed(&[1; 32]).public_key(),
                profile: id("el perfil / profile", config.profile.name())?,
                profile_digest: Digest([0; 32]),
                meeting_kind: config.kind,
                call: config.call,
                settings: config.profile.settings(),
                agenda: convened_agenda(&config)?,
            },
        };
        probe.encode().map_err(|e| {
            VenueError::refused(format!(
                "{meeting_file}: el orden del día no cabe en el evento de convocatoria del registro ({e}); acorte los títulos o las listas / \
                 the agenda does not fit the ledger's convening event: shorten the titles or the lists"
            ))
        })?;
        let whole = Event { nonce: Nonce([0; 16]), body: whole_agenda(&config)? };
        whole.encode().map_err(|e| {
            VenueError::refused(format!(
                "{meeting_file}: el orden del día completo, con sus candidatos, no cabe en un evento del registro ({e}); acorte los títulos o los nombres / \
                 the whole agenda with its candidates does not fit one ledger event: shorten the titles or the names"
            ))
        })?;
        let imported = register_csv::import(register_file, register_bytes, config.capital, progress)?;
        register_csv::check_whole(register_file, &imported.register)?;
        Ok(NewMeeting {
            config,
            meeting_text: meeting_text.to_string(),
            register_bytes: register_bytes.to_vec(),
            register: imported.register,
            notes: imported.notes,
            nodes: Vec::new(),
        })
    }
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
    /// Creates a meeting in the (empty, locked) folder `dir`: settings,
    /// register, keys, and the first events of the ledger (meeting
    /// convened, the whole agenda, the modality of a mixed or
    /// non-presential meeting, staff enrolled, register imported, the
    /// holders' names, the meeting file). Every file is
    /// owner-only. See [`crate::staging::Staging`] for making it whole or
    /// not at all.
    pub fn init(dir: &Path, lock: MeetingLock, new: NewMeeting) -> Result<Service> {
        Service::init_with_clock(dir, lock, new, clock())
    }

    /// [`Service::init`] with the ledger's records stamped by `clock`
    /// ([`Service::open_with_clock`]).
    pub fn init_with_clock(
        dir: &Path,
        lock: MeetingLock,
        new: NewMeeting,
        clock: asamblea_ledger::Clock,
    ) -> Result<Service> {
        let NewMeeting { config, register, meeting_text, register_bytes: register_file, notes: _, nodes } =
            new;
        if dir.join("ledger.db").exists() {
            return Err(VenueError::refused(format!(
                "{}: aquí ya hay una reunión; elija una carpeta vacía / a meeting already exists here; choose an empty directory",
                dir.display()
            )));
        }
        let profile_text = crate::profiles::EMBEDDED
            .iter()
            .find(|(name, _)| *name == config.profile.name())
            .map(|(_, text)| *text)
            .expect("the config names an embedded profile");
        write_private_new(&dir.join("meeting.toml"), meeting_text.as_bytes())?;
        write_private_new(&dir.join("register.csv"), &register_file)?;
        write_private_new(&dir.join("register.bin"), &register_bytes(&register))?;
        write_private_new(&dir.join("profile.toml"), profile_text.as_bytes())?;
        let meeting_id = MeetingId(random());
        write_private_new(&dir.join("meeting-id"), format!("{}\n", hex(&meeting_id.0)).as_bytes())?;
        // The seeds go to the meeting's key folder, outside DIR; a new
        // meeting id names a new, empty one.
        let keys = key_folder(&meeting_id)?;
        create_private_dir(&keys)?;
        write_secret(&keys.join("daemon.seed"), &random())?;
        let tokens = crate::staff::Accounts::create(dir, &keys)?;
        // SQLite gives the -wal and -shm files the mode of the database.
        write_private_new(&dir.join("ledger.db"), b"")?;

        let mut service = Service::open_locked_with(dir, lock, clock)?;
        let settings = service.config.profile.settings();
        let daemon_key = service.daemon.public_key();
        let agenda = convened_agenda(&service.config)?;
        service.daemon_event(EventBody::MeetingConvened {
            daemon_key,
            profile: id("el perfil / profile", service.config.profile.name())?,
            profile_digest: Digest::sha256(profile_text.as_bytes()),
            meeting_kind: service.config.kind,
            call: service.config.call,
            settings,
            agenda,
        })?;
        let whole = whole_agenda(&service.config)?;
        service.daemon_event(whole)?;
        // The poll timing right after the convening, so that a verifier
        // holds every close to it from the ledger alone (§3.22).
        let timing = service.config.profile.poll_timing();
        service.daemon_event(EventBody::PollsTimed {
            min_open_ms: timing.min_open_ms,
            min_countdown_ms: timing.min_countdown_ms,
        })?;
        if let Some(modality) = convening::convened_modality(&service.config)? {
            service.daemon_event(modality)?;
        }
        // A replicated meeting's nodes: the first with the convening key,
        // each other with a key of its own (KEYS/daemon-NODE.seed).
        for (at, node) in nodes.iter().enumerate() {
            let key = if at == 0 {
                daemon_key
            } else {
                let seed = random();
                write_secret(&keys.join(format!("daemon-{node}.seed")), &seed)?;
                Keypair::from_seed(&seed).public_key()
            };
            service.daemon_event(EventBody::NodeEnrolled { node: node.clone(), key })?;
        }
        let accounts = crate::staff::Accounts::load(dir)?;
        for account in accounts.iter() {
            service.daemon_event(EventBody::StaffEnrolled {
                key: account.key.public_key(),
                role: account.role,
                name: id("la cuenta / staff account", &account.name)?,
            })?;
        }
        service.tokens = tokens;
        service.staff_event(EventBody::RegisterImported {
            register_digest: register_digest(&register),
            holders: register.len() as u32,
            capital: *register.capital(),
        })?;
        // The holders' names and the meeting file, in the ledger: every
        // document (the acta, the exports) is then a function of the audit
        // bundle alone.
        let names = service.holder_names()?;
        let ordered = register
            .iter()
            .map(|(_, holder)| {
                Text::new(names.get(holder.id()).map_or("", String::as_str)).map_err(VenueError::invalid(
                    format!("el nombre del accionista / the name of holder `{}`", holder.id()),
                ))
            })
            .collect::<Result<Vec<_>>>()?;
        service.record_names(ordered)?;
        service.daemon_event(EventBody::MeetingDescribed {
            file: asamblea_wire::FileText::new(&meeting_text)
                .map_err(VenueError::invalid("el archivo de la reunión / the meeting file"))?,
        })?;
        Ok(service)
    }

    /// The holders' names as `register-named` events signed by the desk,
    /// as many to an event as fit, all in one transaction.
    fn record_names(&mut self, names: Vec<Text>) -> Result<()> {
        const BYTES: usize = 60_000;
        let key = self.signer_for(asamblea_wire::MessageKind::RegisterNamed)?;
        let mut events = Vec::new();
        let (mut first, mut chunk, mut bytes) = (0u32, Vec::new(), 0usize);
        for name in names {
            if chunk.len() == asamblea_wire::limits::MAX_NAMES || bytes + 4 + name.as_str().len() > BYTES {
                let taken = std::mem::take(&mut chunk);
                let count = taken.len() as u32;
                events.push(EventBody::RegisterNamed { first, names: taken });
                first += count;
                bytes = 0;
            }
            bytes += 4 + name.as_str().len();
            chunk.push(name);
        }
        if !chunk.is_empty() {
            events.push(EventBody::RegisterNamed { first, names: chunk });
        }
        let meeting_id = self.meeting_id;
        let signed =
            events.into_iter().map(|body| sign_event(&meeting_id, &key, body)).collect::<Result<Vec<_>>>()?;
        let mut group = self.journal.begin_group()?;
        for event in signed {
            group.push(event)?;
        }
        group.commit()?;
        Ok(())
    }

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
        let trusted = crate::checkpoints::read(dir, &files.meeting_id, &files.daemon.public_key())?.latest();
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
        if keys.join(format!("{name}.seed")).exists() {
            self.daemon = Keypair::from_seed(&crate::secrets::read_key(&keys, &name)?);
            self.daemon_seed = name;
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
        self.journal.close();
        self.lock
    }
}
