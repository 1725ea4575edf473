//! A new meeting: its inputs checked before anything is written
//! ([`NewMeeting`]), then the folder, the keys and the first events of the
//! ledger made from them ([`Service::init`]).

use std::path::Path;

use asamblea_ledger::register_bytes;
use asamblea_wire::hex::encode as hex;
use asamblea_wire::{register_digest, Digest, Event, EventBody, Id, Keypair, MeetingId, Nonce, Text};

use super::convening::{self, convened_agenda, whole_agenda};
use super::{clock, id, sign_event, Result, Service};
use crate::error::VenueError;
use crate::lock::MeetingLock;
use crate::meeting_config::{self, MeetingConfig};
use crate::register_csv;
use crate::secrets::{create_private_dir, key_folder, random, write_private_new, write_secret};

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
}
