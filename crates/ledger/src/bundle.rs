//! The audit bundle, and `verify`: everything needed to re-derive the
//! meeting, in one file, checked with no trust in whoever made it.
//!
//! Layout (`docs/ledger-format.md` §11), all integers big-endian:
//!
//! ```text
//! "asamblea-bundle" 0x00 || u8 version (2)
//! meeting id (32) || daemon public key (32)
//! u32 length || profile name (UTF-8)
//! u32 length || profile file bytes
//! u32 length || register bytes (the input of the register digest, §7.1)
//! u64 record count || per record: u32 length || record bytes || head after it (32)
//! u32 checkpoint count || per checkpoint: checkpoint bytes (42) || daemon signature (64)
//! ```
//!
//! `verify` re-derives every head (the stored ones must match), checks every
//! signature and every decision through [`State`], every published result
//! and lot, and the checkpoints: those in the bundle, signed by the daemon,
//! and one the user read off a screen or the acta, which is what catches a
//! bundle cut short.

use asamblea_wire::{Checkpoint, Digest, EventRecord, MeetingId, PublicKey, Signature};

const MAGIC: &[u8; 16] = b"asamblea-bundle\0";
/// The bundle's version: the ledger format's ([`asamblea_wire::FORMAT_VERSION`]).
const VERSION: u8 = asamblea_wire::FORMAT_VERSION;
const REGISTER_DOMAIN: &[u8] = b"asamblea/register/v1\0";

/// An audit bundle in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bundle {
    /// The meeting.
    pub meeting: MeetingId,
    /// The daemon's key as published.
    pub daemon_key: PublicKey,
    /// The profile's name.
    pub profile_name: String,
    /// The profile file, byte for byte.
    pub profile_bytes: Vec<u8>,
    /// The register in canonical bytes.
    pub register_bytes: Vec<u8>,
    /// Every record with the head after it.
    pub records: Vec<(Vec<u8>, Digest)>,
    /// Checkpoints with the daemon's signatures.
    pub checkpoints: Vec<(Checkpoint, Signature)>,
}

/// A bundle whose bytes are not a bundle. The text is Spanish first,
/// English after.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BundleError {
    /// Wrong magic.
    #[error(
        "no es un paquete de asamblea (no empieza por `asamblea-bundle`) / \
         not an asamblea bundle (it does not start with `asamblea-bundle`)"
    )]
    NotABundle,
    /// An asamblea bundle of another version.
    #[error(
        "un paquete de asamblea de la versión {0}; este programa lee solo la versión 2{why_es} / \
         an asamblea bundle of version {0}; this program reads version 2 only{why}",
        why_es = if *.0 == 1 { " (la versión 1 se escribió antes de que el orden del día convocado y los cargos del personal quedaran en el registro: verifíquelo con la versión de asamblea que lo escribió)" } else { "" },
        why = if *.0 == 1 { " (version 1 was written before the convened agenda and the staff roles were recorded in the ledger: verify it with the asamblea release that wrote it)" } else { "" }
    )]
    OtherVersion(u8),
    /// The bytes end inside a part.
    #[error("el paquete termina dentro de {} / the bundle ends inside {}", .0.spanish(), .0.english())]
    Truncated(Part),
    /// Bytes after the last field.
    #[error("sobran {0} bytes después del último punto de control / {0} bytes follow the last checkpoint")]
    TrailingBytes(usize),
    /// The bundle's file could not be read.
    #[error("el paquete no se puede leer / the bundle cannot be read: {0}")]
    Unreadable(String),
    /// A part with a value it cannot have.
    #[error("{} / {}: {message}", .field.spanish(), .field.english())]
    Field {
        /// The part.
        field: Part,
        /// What is wrong, Spanish first.
        message: String,
    },
}

/// A part of a bundle (`docs/ledger-format.md` §11), as an error names
/// it: the verifier branches on it (a bundle cut inside [`Part::Magic`]
/// is no bundle at all), a person reads it in both languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The 16 bytes `asamblea-bundle\0`.
    Magic,
    /// The format version.
    Version,
    /// The meeting id.
    MeetingId,
    /// The daemon's public key.
    DaemonKey,
    /// The profile's name.
    ProfileName,
    /// The profile file.
    ProfileFile,
    /// The register's canonical bytes.
    Register,
    /// The number of records.
    RecordCount,
    /// A record.
    Record,
    /// The head stored after a record.
    RecordHead,
    /// The number of checkpoints.
    CheckpointCount,
    /// A checkpoint.
    Checkpoint,
    /// A checkpoint's daemon signature.
    CheckpointSignature,
}

impl Part {
    /// The part, in Spanish.
    pub const fn spanish(self) -> &'static str {
        match self {
            Part::Magic => "la marca inicial",
            Part::Version => "la versión",
            Part::MeetingId => "el identificador de la reunión",
            Part::DaemonKey => "la clave del servicio",
            Part::ProfileName => "el nombre del perfil",
            Part::ProfileFile => "el archivo del perfil",
            Part::Register => "el registro de accionistas",
            Part::RecordCount => "el número de registros",
            Part::Record => "un registro",
            Part::RecordHead => "la cabeza de un registro",
            Part::CheckpointCount => "el número de puntos de control",
            Part::Checkpoint => "un punto de control",
            Part::CheckpointSignature => "la firma de un punto de control",
        }
    }

    /// The part, in English.
    pub const fn english(self) -> &'static str {
        match self {
            Part::Magic => "the magic",
            Part::Version => "the version",
            Part::MeetingId => "the meeting id",
            Part::DaemonKey => "the daemon key",
            Part::ProfileName => "the profile name",
            Part::ProfileFile => "the profile file",
            Part::Register => "the register",
            Part::RecordCount => "the record count",
            Part::Record => "a record",
            Part::RecordHead => "a record's head",
            Part::CheckpointCount => "the checkpoint count",
            Part::Checkpoint => "a checkpoint",
            Part::CheckpointSignature => "a checkpoint's signature",
        }
    }
}

impl BundleError {
    fn io(error: std::io::Error) -> BundleError {
        BundleError::Unreadable(error.to_string())
    }
}

/// What a bundle says before its records (§11): the meeting, the daemon's
/// key, the profile and the register.
pub struct BundleHead<'a> {
    /// The meeting.
    pub meeting: MeetingId,
    /// The daemon's key as published.
    pub daemon_key: PublicKey,
    /// The profile's name.
    pub profile_name: &'a str,
    /// The profile file, byte for byte.
    pub profile_bytes: &'a [u8],
    /// The register's canonical bytes.
    pub register_bytes: &'a [u8],
}

/// Writes a bundle's fields in their order (§11): the one writer of the
/// format, for a bundle in memory and for one streamed from a ledger.
struct BundleWriter<W: std::io::Write>(W);

impl<W: std::io::Write> BundleWriter<W> {
    fn head(&mut self, head: &BundleHead<'_>, records: u64) -> std::io::Result<()> {
        self.0.write_all(MAGIC)?;
        self.0.write_all(&[VERSION])?;
        self.0.write_all(&head.meeting.0)?;
        self.0.write_all(&head.daemon_key.to_bytes())?;
        for field in [head.profile_name.as_bytes(), head.profile_bytes, head.register_bytes] {
            self.0.write_all(&(field.len() as u32).to_be_bytes())?;
            self.0.write_all(field)?;
        }
        self.0.write_all(&records.to_be_bytes())
    }

    fn record(&mut self, record: &[u8], head: &Digest) -> std::io::Result<()> {
        self.0.write_all(&(record.len() as u32).to_be_bytes())?;
        self.0.write_all(record)?;
        self.0.write_all(&head.0)
    }

    fn checkpoints(&mut self, checkpoints: &[(Checkpoint, Signature)]) -> std::io::Result<()> {
        self.0.write_all(&(checkpoints.len() as u32).to_be_bytes())?;
        for (checkpoint, signature) in checkpoints {
            self.0.write_all(&checkpoint.encode())?;
            self.0.write_all(&signature.0)?;
        }
        Ok(())
    }
}

impl Bundle {
    /// The bundle's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let head = BundleHead {
            meeting: self.meeting,
            daemon_key: self.daemon_key,
            profile_name: &self.profile_name,
            profile_bytes: &self.profile_bytes,
            register_bytes: &self.register_bytes,
        };
        let mut out = BundleWriter(Vec::new());
        let written = out.head(&head, self.records.len() as u64).and_then(|()| {
            for (record, digest) in &self.records {
                out.record(record, digest)?;
            }
            out.checkpoints(&self.checkpoints)
        });
        written.expect("writing to memory does not fail");
        out.0
    }

    /// Reads a bundle's bytes.
    pub fn decode(bytes: &[u8]) -> Result<Bundle, BundleError> {
        let mut reader = BundleReader::new(bytes);
        let (head, count) = reader.head()?;
        let mut records = Vec::new();
        for _ in 0..count {
            records.push(reader.record()?);
        }
        let checkpoints = reader.checkpoints()?;
        reader.end()?;
        Ok(Bundle {
            meeting: head.meeting,
            daemon_key: head.daemon_key,
            profile_name: head.profile_name,
            profile_bytes: head.profile_bytes,
            register_bytes: head.register_bytes,
            records,
            checkpoints,
        })
    }
}

/// What a bundle says before its records, as read ([`BundleHead`] owned).
pub(crate) struct ReadHead {
    pub(crate) meeting: MeetingId,
    pub(crate) daemon_key: PublicKey,
    pub(crate) profile_name: String,
    pub(crate) profile_bytes: Vec<u8>,
    pub(crate) register_bytes: Vec<u8>,
}

/// Reads a bundle's fields in their order from any source, a field at a
/// time (the one reader of the format): `verify` goes through a file of
/// a million records without holding it.
pub(crate) struct BundleReader<R: std::io::Read> {
    source: R,
    /// Bytes read so far.
    at: u64,
}

impl<R: std::io::Read> BundleReader<R> {
    pub(crate) fn new(source: R) -> BundleReader<R> {
        BundleReader { source, at: 0 }
    }

    /// Exactly `n` bytes; the bytes ending first is `Truncated(what)`.
    /// Memory grows with what is read, not with what a length claims.
    fn take(&mut self, n: u64, what: Part) -> Result<Vec<u8>, BundleError> {
        let mut out = Vec::new();
        let got = std::io::Read::read_to_end(&mut std::io::Read::take(&mut self.source, n), &mut out)
            .map_err(BundleError::io)?;
        self.at += got as u64;
        if (got as u64) < n {
            return Err(BundleError::Truncated(what));
        }
        Ok(out)
    }

    /// Skips exactly `n` bytes, as [`BundleReader::take`] reads them.
    fn skip(&mut self, n: u64, what: Part) -> Result<(), BundleError> {
        let got = std::io::copy(&mut std::io::Read::take(&mut self.source, n), &mut std::io::sink())
            .map_err(BundleError::io)?;
        self.at += got;
        if got < n {
            return Err(BundleError::Truncated(what));
        }
        Ok(())
    }

    fn array<const N: usize>(&mut self, what: Part) -> Result<[u8; N], BundleError> {
        Ok(self.take(N as u64, what)?.try_into().expect("took N bytes"))
    }

    /// A length (u32), checked against `limit`.
    fn length(&mut self, what: Part, limit: usize) -> Result<u64, BundleError> {
        let len = u32::from_be_bytes(self.array(what)?) as usize;
        if len > limit {
            return Err(BundleError::Field {
                field: what,
                message: format!(
                    "{len} bytes superan el límite de {limit} / {len} bytes is over the limit of {limit}"
                ),
            });
        }
        Ok(len as u64)
    }

    fn sized(&mut self, what: Part, limit: usize) -> Result<Vec<u8>, BundleError> {
        let len = self.length(what, limit)?;
        self.take(len, what)
    }

    /// The fields before the records, and how many records follow.
    pub(crate) fn head(&mut self) -> Result<(ReadHead, u64), BundleError> {
        if self.take(16, Part::Magic)? != MAGIC {
            return Err(BundleError::NotABundle);
        }
        match self.take(1, Part::Version)?[0] {
            VERSION => {}
            other => return Err(BundleError::OtherVersion(other)),
        }
        let meeting = MeetingId(self.array(Part::MeetingId)?);
        let daemon_key = PublicKey::from_bytes(&self.array(Part::DaemonKey)?)
            .map_err(|e| BundleError::Field { field: Part::DaemonKey, message: e.to_string() })?;
        let profile_name = String::from_utf8(self.sized(Part::ProfileName, 64)?).map_err(|_| {
            BundleError::Field { field: Part::ProfileName, message: "no es UTF-8 / not UTF-8".into() }
        })?;
        let profile_bytes = self.sized(Part::ProfileFile, 1 << 20)?;
        let register_bytes = self.sized(Part::Register, 1 << 30)?;
        let count = u64::from_be_bytes(self.array(Part::RecordCount)?);
        Ok((ReadHead { meeting, daemon_key, profile_name, profile_bytes, register_bytes }, count))
    }

    const RECORD_LIMIT: usize = EventRecord::HEADER_LEN + asamblea_wire::limits::MAX_MESSAGE_LEN;

    /// The next record and the head stored after it.
    pub(crate) fn record(&mut self) -> Result<(Vec<u8>, Digest), BundleError> {
        let record = self.sized(Part::Record, Self::RECORD_LIMIT)?;
        Ok((record, Digest(self.array(Part::RecordHead)?)))
    }

    /// Passes over the next record.
    pub(crate) fn skip_record(&mut self) -> Result<(), BundleError> {
        let len = self.length(Part::Record, Self::RECORD_LIMIT)?;
        self.skip(len, Part::Record)?;
        self.skip(32, Part::RecordHead)
    }

    /// The checkpoints, after the records.
    pub(crate) fn checkpoints(&mut self) -> Result<Vec<(Checkpoint, Signature)>, BundleError> {
        let count = u32::from_be_bytes(self.array(Part::CheckpointCount)?);
        let mut checkpoints = Vec::new();
        for _ in 0..count {
            let checkpoint = Checkpoint::decode(&self.take(42, Part::Checkpoint)?)
                .map_err(|e| BundleError::Field { field: Part::Checkpoint, message: e.to_string() })?;
            checkpoints.push((checkpoint, Signature(self.array(Part::CheckpointSignature)?)));
        }
        Ok(checkpoints)
    }

    /// Nothing may follow the checkpoints.
    pub(crate) fn end(&mut self) -> Result<(), BundleError> {
        let trailing = std::io::copy(&mut self.source, &mut std::io::sink()).map_err(BundleError::io)?;
        if trailing > 0 {
            return Err(BundleError::TrailingBytes(trailing as usize));
        }
        Ok(())
    }
}

mod export;
mod receipt;
mod register;
mod verify;
mod verify_error;

pub use export::{export_bundle, export_raw_bundle, Exported};
pub use receipt::{check_receipt, ReceiptProblem};
pub use register::{register_bytes, register_from_bytes};
pub use verify::{
    for_each_event, verify_bundle, verify_bundle_from, verify_bundle_state, verify_bundle_with_progress,
    ProfileLoader, Verified, VerifyOptions, PROGRESS_EVERY,
};
pub use verify_error::VerifyError;
