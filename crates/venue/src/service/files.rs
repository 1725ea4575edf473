//! The files of a meeting directory that never change after `init`, read
//! without the meeting's lock: what `export` and `verify` need beside a
//! running daemon, and the keys whose signed heads a start trusts.

use std::fs;
use std::path::Path;

use asamblea_ledger::Bundle;
use asamblea_wire::{AgendaItem, Checkpoint, EventBody, Keypair, MeetingId, PublicKey};

use super::Result;
use crate::error::{VenueError, READ};
use crate::meeting_config::{self, MeetingConfig};
use crate::secrets::key_folder;

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

    /// The daemon keys whose signed heads this machine trusts
    /// (`crate::checkpoints`): the meeting's, and each node's whose seed is
    /// in the key folder (`daemon-<node>.seed`, a replicated meeting's:
    /// the heads a node signed while it led or followed the copy). Only a
    /// holder of one of these seeds can write such a head.
    pub fn head_keys(&self) -> Result<Vec<PublicKey>> {
        let mut keys = vec![self.daemon.public_key()];
        let folder = key_folder(&self.meeting_id)?;
        let entries = fs::read_dir(&folder).map_err(VenueError::io(&folder, READ))?;
        let mut names: Vec<String> = Vec::new();
        for entry in entries {
            let entry = entry.map_err(VenueError::io(&folder, READ))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(seed) = name.strip_suffix(".seed").filter(|n| n.starts_with("daemon-")) {
                names.push(seed.to_string());
            }
        }
        names.sort();
        for name in names {
            keys.push(Keypair::from_seed(&crate::secrets::read_key(&folder, &name)?).public_key());
        }
        Ok(keys)
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
