//! A meeting directory and the signed actions on it: what `init`,
//! `checkin`, `badges`, `simulate`, `export` and (later) the daemon do.
//!
//! ```text
//! DIR/meeting.toml       the meeting's settings and agenda (as given)
//! DIR/register.csv       the register as imported (names, for the acta)
//! DIR/register.bin       the register's canonical bytes (ledger-format §7.1)
//! DIR/profile.toml       the bylaws profile, byte for byte (its digest is in the ledger)
//! DIR/meeting-id         the meeting id, hex
//! DIR/keys/daemon.seed   the daemon's signing seed, hex (mode 0600)
//! DIR/staff.toml        staff accounts: name, role, SHA-256 of the token
//! DIR/keys/<name>.seed   each staff member's signing seed, hex (mode 0600)
//! DIR/ledger.db          the ledger (SQLite)
//! ```
//!
//! Every action is an event signed by its actor (the operator's key for
//! staff actions, the daemon's for results, the badge's for ballots),
//! admitted by the ledger's replay checks and durable before this returns.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use asamblea_ledger::{register_bytes, register_from_bytes, Appended, Bundle, Journal, Signed, SubmitError};
use asamblea_rules::{Meeting, Outcome};
use asamblea_wire::{
    lot_index, register_digest, AgentArrival, Ballot, Checkpoint, Credential, CredentialId, Digest, Event,
    EventBody, HolderVote, Id, ItemOpened, Keypair, MeetingId, Nonce, PublicKey, PublishedResult, Receipt,
    Signature, Text,
};

use asamblea_wire::hex::encode as hex;

use crate::meeting_config::{self, MeetingConfig};
use crate::register_csv;
use crate::secrets::{random, read_seed, unhex, write_secret};

/// The account whose key signs the command line's staff actions.
const OPERATOR: &str = "operador";

/// Why an action on the meeting did not happen.
#[derive(Debug, thiserror::Error)]
pub enum ActionError {
    /// The ledger's checks (the rules among them) refuse it; nothing
    /// changed.
    #[error("{0}")]
    Rejected(asamblea_ledger::Rejection),
    /// It could not be made durable: the daemon must stop.
    #[error("{0}")]
    Ledger(asamblea_ledger::LedgerError),
    /// Anything else (bad input turned into an event).
    #[error("{0:#}")]
    Other(anyhow::Error),
}

impl From<SubmitError> for ActionError {
    fn from(e: SubmitError) -> ActionError {
        match e {
            SubmitError::Rejected(r) => ActionError::Rejected(r),
            SubmitError::Ledger(l) => ActionError::Ledger(l),
        }
    }
}

/// An open meeting directory.
pub struct Service {
    dir: PathBuf,
    meeting_id: MeetingId,
    config: MeetingConfig,
    daemon: Keypair,
    /// The command line's staff key (the operator's), shared with actions.
    operator: std::sync::Arc<Keypair>,
    journal: Journal,
    /// Staff tokens, only right after `init` (shown once, never stored).
    tokens: Vec<(String, crate::staff::Role, String)>,
}

fn clock() -> asamblea_ledger::Clock {
    Box::new(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
    })
}

impl Service {
    /// Creates a meeting directory: settings, register, keys, and the first
    /// events of the ledger (meeting convened, operator enrolled, register
    /// imported). `progress` is told how many register rows were read.
    pub fn init(
        dir: &Path,
        meeting_file: &str,
        meeting_text: &str,
        register_file: &str,
        register_text: &str,
        progress: impl FnMut(u64),
    ) -> Result<Service> {
        let config = meeting_config::parse(meeting_file, meeting_text).map_err(anyhow::Error::msg)?;
        let (register, _names) =
            register_csv::import(register_file, register_text.as_bytes(), config.capital, progress)?;
        if dir.join("ledger.db").exists() {
            bail!("{}: a meeting already exists here; choose an empty directory", dir.display());
        }
        fs::create_dir_all(dir.join("keys"))
            .with_context(|| format!("{}: cannot create the directory", dir.display()))?;
        let profile_text = crate::profiles::EMBEDDED
            .iter()
            .find(|(name, _)| *name == config.profile.name())
            .map(|(_, text)| *text)
            .expect("the config names an embedded profile");
        fs::write(dir.join("meeting.toml"), meeting_text)?;
        fs::write(dir.join("register.csv"), register_text)?;
        fs::write(dir.join("register.bin"), register_bytes(&register))?;
        fs::write(dir.join("profile.toml"), profile_text)?;
        let meeting_id = MeetingId(random());
        fs::write(dir.join("meeting-id"), format!("{}\n", hex(&meeting_id.0)))?;
        write_secret(&dir.join("keys/daemon.seed"), &random())?;
        let tokens = crate::staff::Accounts::create(dir)?;

        let mut service = Service::open(dir)?;
        let settings = service.config.profile.settings();
        let daemon_key = service.daemon.public_key();
        service.daemon_event(EventBody::MeetingConvened {
            daemon_key,
            profile: Id::new(service.config.profile.name())?,
            profile_digest: Digest::sha256(profile_text.as_bytes()),
            meeting_kind: service.config.kind,
            call: service.config.call,
            settings,
        })?;
        let accounts = crate::staff::Accounts::load(dir)?;
        for account in accounts.iter() {
            let name = Id::new(&format!("{}:{}", account.role.code(), account.name))?;
            service.daemon_event(EventBody::StaffEnrolled { key: account.key.public_key(), name })?;
        }
        service.tokens = tokens;
        service.staff_event(EventBody::RegisterImported {
            register_digest: register_digest(&register),
            holders: register.len() as u32,
            capital: *register.capital(),
        })?;
        Ok(service)
    }

    /// Opens a meeting directory and replays its ledger.
    pub fn open(dir: &Path) -> Result<Service> {
        let read = |name: &str| -> Result<String> {
            fs::read_to_string(dir.join(name)).with_context(|| {
                format!(
                    "{}: cannot read {name}; is this a meeting directory made by `asamblea init`?",
                    dir.display()
                )
            })
        };
        let meeting_text = read("meeting.toml")?;
        let config = meeting_config::parse(&dir.join("meeting.toml").display().to_string(), &meeting_text)
            .map_err(anyhow::Error::msg)?;
        let meeting_id = MeetingId(unhex(&read("meeting-id")?, &dir.join("meeting-id"))?);
        let daemon = Keypair::from_seed(&unhex(&read("keys/daemon.seed")?, &dir.join("keys/daemon.seed"))?);
        let operator =
            std::sync::Arc::new(Keypair::from_seed(&read_seed(&dir.join(format!("keys/{OPERATOR}.seed")))?));
        let register_path = dir.join("register.bin");
        let register_raw =
            fs::read(&register_path).with_context(|| format!("{}: cannot read", register_path.display()))?;
        let register =
            register_from_bytes(&register_raw).with_context(|| format!("{}", register_path.display()))?;
        let profile_bytes = fs::read(dir.join("profile.toml"))?;
        let journal = Journal::open(
            &dir.join("ledger.db"),
            meeting_id,
            register,
            config.profile.clone(),
            Digest::sha256(&profile_bytes),
            daemon.public_key(),
            clock(),
        )?;
        Ok(Service {
            dir: dir.to_path_buf(),
            meeting_id,
            config,
            daemon,
            operator,
            journal,
            tokens: Vec::new(),
        })
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

    /// The ledger's state.
    pub fn state(&self) -> &asamblea_ledger::State {
        self.journal.state()
    }

    fn signed(&self, key: &Keypair, body: EventBody) -> Result<Signed> {
        let event = Event { nonce: Nonce(random()), body };
        let bytes = event.encode()?;
        let signature = key.sign(&self.meeting_id, &bytes)?;
        Ok(Signed { event, bytes, signer: key.public_key(), signature })
    }

    fn submit(&mut self, signed: Signed) -> Result<Appended, SubmitError> {
        self.journal.submit(signed)
    }

    /// A staff action, signed by the operator (the command line's actor).
    pub fn staff_event(&mut self, body: EventBody) -> Result<Appended> {
        let signed = self.signed(&self.operator, body)?;
        Ok(self.submit(signed)?)
    }

    /// A staff action signed by the acting member's key (the API's actor).
    pub fn staff_event_as(&mut self, key: &Keypair, body: EventBody) -> Result<Appended, ActionError> {
        let signed = self.signed(key, body).map_err(ActionError::Other)?;
        self.submit(signed).map_err(ActionError::from)
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

    /// The ballots stored before this start (for re-issuing receipts).
    pub fn take_stored_ballots(&mut self) -> Vec<(Digest, Appended)> {
        self.journal.take_stored_ballots()
    }

    /// The daemon's signing key, for receipts signed outside the lock.
    pub fn daemon_keypair(&self) -> Result<Keypair> {
        Ok(Keypair::from_seed(&read_seed(&self.dir.join("keys/daemon.seed"))?))
    }

    /// Signs a receipt with the daemon key.
    pub fn sign_receipt(&self, receipt: &Receipt) -> Signature {
        receipt.sign(&self.meeting_id, &self.daemon)
    }

    /// A daemon statement (results, enrolment).
    pub fn daemon_event(&mut self, body: EventBody) -> Result<Appended> {
        let signed = self.signed(&self.daemon, body)?;
        Ok(self.submit(signed)?)
    }

    /// A holder checks in person.
    pub fn check_in(&mut self, holder: &str) -> Result<Appended> {
        self.staff_event(EventBody::CheckedInPerson { holder: Id::new(holder)? })
    }

    /// An agent checks in with principals (sorted here, as the format wants).
    pub fn check_in_agent(
        &mut self,
        agent: &str,
        principals: &[&str],
        capacity: asamblea_rules::Capacity,
        power_document: &str,
    ) -> Result<Appended> {
        let mut ids = principals.iter().map(|p| Id::new(p)).collect::<Result<Vec<_>, _>>()?;
        ids.sort();
        let arrival = AgentArrival {
            agent: Id::new(agent)?,
            principals: ids,
            capacity,
            declared_role: None,
            power_document: Text::new(power_document)?,
        };
        self.staff_event(EventBody::CheckedInAgent(arrival))
    }

    /// Issues a badge to a person: a fresh seed goes into the returned
    /// credential (to print), only its public key into the ledger.
    pub fn issue_badge(&mut self, person: &str) -> Result<(Credential, Appended)> {
        let id = CredentialId(self.journal.state().badges_issued() + 1);
        let credential = Credential::generate_from(&self.meeting_id, id, &random());
        let appended = self.staff_event(EventBody::BadgeIssued {
            credential: id,
            key: credential.public_key(),
            person: Id::new(person)?,
        })?;
        Ok((credential, appended))
    }

    /// The `item-opened` event of an agenda item, by id.
    pub fn item_opened(&self, item: &str) -> Result<EventBody> {
        let agenda = self
            .config
            .agenda
            .iter()
            .find(|a| a.spec.id() == item)
            .with_context(|| format!("`{item}` is not on the agenda of meeting.toml"))?;
        let (seats, lists) = match agenda.spec.options() {
            asamblea_rules::BallotOptions::Decision => (0, Vec::new()),
            asamblea_rules::BallotOptions::Election { seats, lists } => {
                (*seats, lists.iter().map(|l| Id::new(l)).collect::<Result<Vec<_>, _>>()?)
            }
        };
        Ok(EventBody::ItemOpened(ItemOpened {
            item: Id::new(item)?,
            matter: agenda.spec.matter(),
            noticed: agenda.spec.noticed(),
            seats,
            lists,
        }))
    }

    /// Opens an agenda item by id.
    pub fn open_item(&mut self, item: &str) -> Result<Appended> {
        let body = self.item_opened(item)?;
        self.staff_event(body)
    }

    /// A ballot signed with a badge's key (what a kiosk sends), with the
    /// daemon's signed receipt.
    pub fn cast(
        &mut self,
        credential: &Credential,
        item: &str,
        mut votes: Vec<HolderVote>,
    ) -> Result<(Receipt, Signature)> {
        votes.sort_by(|a, b| a.holder.cmp(&b.holder));
        let body = EventBody::Ballot(Ballot { item: Id::new(item)?, credential: credential.id(), votes });
        let signed = self.signed(credential.keypair(), body)?;
        let appended = self.submit(signed)?;
        let receipt = Receipt { seq: appended.seq, head: appended.head, event: appended.event_digest };
        let signature = receipt.sign(&self.meeting_id, &self.daemon);
        Ok((receipt, signature))
    }

    /// Closes an item, publishes its result, and draws any lot it needs
    /// (recorded, recomputable from the ledger). Returns the checkpoint to
    /// read out and print.
    pub fn close_item(&mut self, item: &str) -> Result<(Checkpoint, Signature)> {
        let operator = std::sync::Arc::clone(&self.operator);
        self.close_item_as(&operator, item).map_err(|e| anyhow::anyhow!("{e}"))
    }

    /// [`Service::close_item`] by a given staff member.
    pub fn close_item_as(
        &mut self,
        key: &Keypair,
        item: &str,
    ) -> Result<(Checkpoint, Signature), ActionError> {
        let item_id = Id::new(item).map_err(|e| ActionError::Other(e.into()))?;
        let closed = self.staff_event_as(key, EventBody::ItemClosed { item: item_id.clone() })?;
        let checkpoint = Checkpoint { seq: closed.seq, head: closed.head };
        let signature = checkpoint.sign(&self.meeting_id, &self.daemon);
        self.publish(item)?;
        loop {
            let meeting = self.meeting();
            let at = meeting.item_index(item).expect("just closed");
            let entry = meeting.item(at);
            let Some(asamblea_rules::ItemResult::Election(e)) = entry.result() else { break };
            if e.outcome != Outcome::LotRequired {
                break;
            }
            let seed = self.journal.state().seed(item).expect("the close's head is the seed");
            let round = self.journal.state().rounds(item);
            let position =
                lot_index(&seed, &item_id, round, e.lot_between.len() as u32).expect("a lot has candidates");
            let winner = entry
                .option_name(asamblea_rules::OptionIndex::list(e.lot_between[position as usize]))
                .to_string();
            let winner = Id::new(&winner).map_err(|e| ActionError::Other(e.into()))?;
            self.staff_event_as(key, EventBody::LotDrawn { item: item_id.clone(), round, seed, winner })?;
            self.publish(item)?;
        }
        Ok((checkpoint, signature))
    }

    fn publish(&mut self, item: &str) -> Result<Appended, ActionError> {
        let meeting = self.meeting();
        let at = meeting.item_index(item).expect("closed");
        let result =
            PublishedResult::from_rules(meeting.item(at).result().expect("closed"), meeting.register());
        let item = Id::new(item).map_err(|e| ActionError::Other(e.into()))?;
        let signed = self
            .signed(&self.daemon, EventBody::ResultPublished { item, result })
            .map_err(ActionError::Other)?;
        self.submit(signed).map_err(ActionError::from)
    }

    /// The audit bundle: every record, the register, the profile, the keys,
    /// and a daemon-signed checkpoint at every close and at the end.
    pub fn export(&self) -> Result<Bundle> {
        let records = asamblea_ledger::read_records(&self.dir.join("ledger.db"), &self.meeting_id)?;
        let mut checkpoints = Vec::new();
        for (record, head) in &records {
            if matches!(record.event.body, EventBody::ItemClosed { .. }) {
                let c = Checkpoint { seq: record.seq, head: *head };
                checkpoints.push((c, c.sign(&self.meeting_id, &self.daemon)));
            }
        }
        if let Some((record, head)) = records.last() {
            let c = Checkpoint { seq: record.seq, head: *head };
            checkpoints.push((c, c.sign(&self.meeting_id, &self.daemon)));
        }
        Ok(Bundle {
            meeting: self.meeting_id,
            daemon_key: self.daemon.public_key(),
            profile_name: self.config.profile.name().to_string(),
            profile_bytes: fs::read(self.dir.join("profile.toml"))?,
            register_bytes: fs::read(self.dir.join("register.bin"))?,
            records: records.iter().map(|(r, h)| Ok((r.encode()?, *h))).collect::<Result<Vec<_>>>()?,
            checkpoints,
        })
    }

    /// Stops the ledger writer after the queued appends.
    pub fn close(self) {
        self.journal.close();
    }
}
