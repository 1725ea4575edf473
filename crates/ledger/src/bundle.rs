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

use asamblea_rules::{
    Capital, ClassCapital, ClassShares, HolderSpec, Profile, Register, Role, Shares, SplitPermission,
};
use asamblea_wire::{
    Chain, Checkpoint, Digest, EventRecord, MeetingId, PublicKey, Receipt, Signature, WireError,
};

use crate::state::{Rejection, State};

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

/// The register's canonical bytes: exactly the input of
/// [`asamblea_wire::register_digest`] (`docs/ledger-format.md` §7.1).
pub fn register_bytes(register: &Register) -> Vec<u8> {
    let mut out = REGISTER_DOMAIN.to_vec();
    let capital = register.capital();
    for class in [capital.ordinary, capital.preferred] {
        out.extend_from_slice(&class.subscribed().get().to_be_bytes());
        out.extend_from_slice(&class.treasury().get().to_be_bytes());
    }
    out.extend_from_slice(&(register.len() as u32).to_be_bytes());
    for (_, holder) in register.iter() {
        out.extend_from_slice(&(holder.id().len() as u32).to_be_bytes());
        out.extend_from_slice(holder.id().as_bytes());
        out.extend_from_slice(&holder.holdings().ordinary.get().to_be_bytes());
        out.extend_from_slice(&holder.holdings().preferred.get().to_be_bytes());
        out.push(match holder.role() {
            None => 0,
            Some(Role::Administrator) => 1,
            Some(Role::Employee) => 2,
        });
        out.push(match holder.split() {
            None => 0,
            Some(SplitPermission::OmnibusCustodian) => 1,
            Some(SplitPermission::Dismembered) => 2,
        });
    }
    out
}

/// The register of canonical bytes; anything else is refused.
pub fn register_from_bytes(bytes: &[u8]) -> Result<Register, BundleError> {
    let bad = |message: String| BundleError::Field { field: Part::Register, message };
    let mut r = BundleReader::new(bytes);
    if r.take(REGISTER_DOMAIN.len() as u64, Part::Register)? != REGISTER_DOMAIN {
        return Err(bad(
            "no empieza por asamblea/register/v1 / does not start with asamblea/register/v1".into()
        ));
    }
    let mut class = || -> Result<ClassCapital, BundleError> {
        let subscribed = u64::from_be_bytes(r.array(Part::Register)?);
        let treasury = u64::from_be_bytes(r.array(Part::Register)?);
        ClassCapital::new(Shares::new(subscribed), Shares::new(treasury))
            .map_err(|e| bad(format!("las acciones readquiridas superan a las suscritas / {e}")))
    };
    let capital = Capital { ordinary: class()?, preferred: class()? };
    let count = u32::from_be_bytes(r.array(Part::Register)?);
    let mut holders = Vec::new();
    for n in 1..=count {
        let id = String::from_utf8(r.sized(Part::Register, 64)?).map_err(|_| {
            bad(format!("accionista {n}: el identificador no es UTF-8 / holder {n}: the id is not UTF-8"))
        })?;
        // An id of the register follows the format's id rules (§1): 1 to
        // 64 bytes, no control character.
        asamblea_wire::Id::new(&id).map_err(|e| bad(format!("accionista / holder {n}, {id:?}: {e}")))?;
        let ordinary = u64::from_be_bytes(r.array(Part::Register)?);
        let preferred = u64::from_be_bytes(r.array(Part::Register)?);
        let [role, split] = r.array::<2>(Part::Register)?;
        let role = match role {
            0 => None,
            1 => Some(Role::Administrator),
            2 => Some(Role::Employee),
            other => return Err(bad(format!("código de cargo {other} desconocido / role code {other}"))),
        };
        let split = match split {
            0 => None,
            1 => Some(SplitPermission::OmnibusCustodian),
            2 => Some(SplitPermission::Dismembered),
            other => return Err(bad(format!("código de división {other} desconocido / split code {other}"))),
        };
        holders.push(HolderSpec {
            id,
            holdings: ClassShares::new(Shares::new(ordinary), Shares::new(preferred)),
            role,
            split,
        });
    }
    if r.at != bytes.len() as u64 {
        return Err(bad(format!(
            "sobran {0} bytes después del último accionista / {0} bytes follow the last holder",
            bytes.len() as u64 - r.at
        )));
    }
    Register::new(capital, holders)
        .map_err(|e| bad(format!("el registro de accionistas no cuadra con el capital / {e}")))
}

/// Turns a profile's name and file bytes into a profile (the daemon parses
/// TOML; this crate does not).
pub type ProfileLoader = dyn Fn(&str, &[u8]) -> Result<Profile, String>;

/// What `verify` is told besides the bundle.
pub struct VerifyOptions<'a> {
    /// The daemon key published at the meeting, if the user has it.
    pub daemon_key: Option<PublicKey>,
    /// Heads the user holds from outside the bundle (read out at a close,
    /// printed in the acta): `(seq, head)` each.
    pub checkpoints: Vec<(u64, Digest)>,
    /// Daemon-signed heads an observer kept while the meeting ran (the
    /// live feed publishes them): each must be the bundle's head at its
    /// number, so a bundle cut or re-chained after one was seen fails.
    pub witnesses: Vec<(Checkpoint, Signature)>,
    /// Voters' receipts: each must be signed by the daemon and name an
    /// event that stands in the chain at its number with its head.
    pub receipts: Vec<(Receipt, Signature)>,
    /// Turns the profile's name and bytes into a profile.
    pub load_profile: &'a ProfileLoader,
}

impl<'a> VerifyOptions<'a> {
    /// Nothing from outside the bundle: its own checkpoints and chain only.
    pub fn bundle_alone(load_profile: &'a ProfileLoader) -> VerifyOptions<'a> {
        VerifyOptions {
            daemon_key: None,
            checkpoints: Vec::new(),
            witnesses: Vec::new(),
            receipts: Vec::new(),
            load_profile,
        }
    }
}

/// Each record of the bundle read from `source`, in order, given to
/// `each`: for documents made from a bundle that verified (each ballot's
/// choice on the tallies' holder sheet). Reads one record at a time; a
/// record that does not decode is named by its number.
/// `progress` hears `(records read, records in the bundle)` every
/// [`PROGRESS_EVERY`] records and at the end.
pub fn for_each_event<R: std::io::Read>(
    source: R,
    progress: &mut dyn FnMut(u64, u64),
    mut each: impl FnMut(&EventRecord),
) -> Result<(), BundleError> {
    let mut reader = BundleReader::new(std::io::BufReader::with_capacity(1 << 16, source));
    let (_, count) = reader.head()?;
    for seq in 1..=count {
        let (bytes, _) = reader.record()?;
        let record = EventRecord::decode(&bytes).map_err(|e| BundleError::Field {
            field: Part::Record,
            message: format!("registro / record {seq}: {e}"),
        })?;
        each(&record);
        if seq % PROGRESS_EVERY == 0 || seq == count {
            progress(seq, count);
        }
    }
    Ok(())
}

/// A bundle that verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Records checked.
    pub records: u64,
    /// The last head.
    pub head: Digest,
    /// Results re-derived, by item, in publication order (the last one of
    /// each item counts).
    pub results: Vec<String>,
    /// Checkpoints checked (the bundle's, the user's and the witnessed).
    pub checkpoints: usize,
    /// Receipts checked.
    pub receipts: usize,
}

/// Why a voter's receipt is not borne out by a ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReceiptProblem {
    /// The daemon's signature does not verify.
    NotSigned,
    /// The ledger holds no event at its number.
    CutShort,
    /// Another event stands at its number.
    OtherEvent,
    /// The event is there, but the chain's head at its number is another.
    OtherHead,
}

impl ReceiptProblem {
    /// A stable code for each (the API's error code).
    pub const fn code(self) -> &'static str {
        match self {
            ReceiptProblem::NotSigned => "receipt-not-signed",
            ReceiptProblem::CutShort => "ledger-cut-short",
            ReceiptProblem::OtherEvent => "ledger-rewritten",
            ReceiptProblem::OtherHead => "ledger-rechained",
        }
    }

    /// What it means, in English.
    pub const fn reason(self) -> &'static str {
        match self {
            ReceiptProblem::NotSigned => "not signed by the daemon key",
            ReceiptProblem::CutShort => "names an event the ledger does not hold: it was cut short",
            ReceiptProblem::OtherEvent => {
                "another event stands at its number: the ledger was rewritten without it"
            }
            ReceiptProblem::OtherHead => {
                "the chain's head at its number is another: the ledger was re-chained"
            }
        }
    }

    /// The same, in Spanish.
    pub const fn reason_es(self) -> &'static str {
        match self {
            ReceiptProblem::NotSigned => "no lo firmó la clave del servicio de la reunión",
            ReceiptProblem::CutShort => {
                "nombra un evento que el registro no tiene: el registro fue recortado"
            }
            ReceiptProblem::OtherEvent => "otro evento ocupa su número: el registro fue reescrito sin él",
            ReceiptProblem::OtherHead => {
                "la cabeza de la cadena en su número es otra: el registro fue reencadenado"
            }
        }
    }
}

/// Checks a voter's receipt (ledger-format §6) against a ledger: signed by
/// `daemon_key` for `meeting`, and the ledger's event digest and head at
/// its number (`at`, `None` past the end) are the ones it names. The one
/// check of `verify --receipts` and of the daemon's public receipt check.
pub fn check_receipt(
    receipt: &Receipt,
    signature: &Signature,
    meeting: &MeetingId,
    daemon_key: &PublicKey,
    at: impl FnOnce(u64) -> Option<(Digest, Digest)>,
) -> Result<(), ReceiptProblem> {
    receipt.verify(meeting, daemon_key, signature).map_err(|_| ReceiptProblem::NotSigned)?;
    let (event, head) = at(receipt.seq).ok_or(ReceiptProblem::CutShort)?;
    if event != receipt.event {
        return Err(ReceiptProblem::OtherEvent);
    }
    if head != receipt.head {
        return Err(ReceiptProblem::OtherHead);
    }
    Ok(())
}

/// Why a bundle does not verify: the first problem, by sequence number
/// where it has one. The text is Spanish first, English after.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The bytes are not a bundle.
    #[error("el paquete no se puede leer / the bundle cannot be read: {0}")]
    Bundle(BundleError),
    /// The profile in the bundle does not load.
    #[error("el perfil del paquete no se puede cargar / the profile in the bundle does not load: {0}")]
    Profile(String),
    /// The register in the bundle is not valid.
    #[error(
        "el registro de accionistas del paquete no es válido / the register in the bundle is not valid: {0}"
    )]
    Register(BundleError),
    /// The daemon key is not the one the user expects.
    #[error(
        "la clave del servicio del paquete no es la clave publicada de la reunión / \
         the bundle's daemon key is not the meeting's published key"
    )]
    DaemonKeyMismatch,
    /// A record that does not decode.
    #[error(
        "evento {seq}: el registro no se puede decodificar / event {seq}: the record does not decode: {error}"
    )]
    Decode {
        /// Position in the bundle (1-based).
        seq: u64,
        /// The decoder's words.
        error: WireError,
    },
    /// A record missing: a later number stands where it should, and it
    /// appears nowhere after.
    #[error(
        "falta el evento {seq}: el siguiente registro es el número {found} / event {seq} is missing: the next record is number {found}"
    )]
    Missing {
        /// The number expected.
        seq: u64,
        /// The number found.
        found: u64,
    },
    /// A record whose number was seen already (a copy of an earlier
    /// record).
    #[error(
        "el evento {seq} aparece otra vez donde debería estar el evento {expected} (duplicado) / \
         event {seq} appears again where event {expected} should be (duplicated)"
    )]
    Duplicated {
        /// The repeated number.
        seq: u64,
        /// The number expected there.
        expected: u64,
    },
    /// A record out of order: the one expected here comes later in the
    /// bundle.
    #[error(
        "el evento {seq} viene donde debería estar el evento {expected} (reordenado) / \
         event {seq} comes where event {expected} should be (reordered)"
    )]
    Reordered {
        /// The number found.
        seq: u64,
        /// The number expected.
        expected: u64,
    },
    /// Time going backwards.
    #[error(
        "evento {seq}: su hora es anterior a la del evento previo / event {seq}: its time is earlier than the event before it"
    )]
    TimeWentBackwards {
        /// The record.
        seq: u64,
    },
    /// A stored head that is not the one its record gives.
    #[error(
        "evento {seq}: la cabeza guardada no es la de la cadena en ese punto / event {seq}: the stored head is not the chain's head there"
    )]
    HeadMismatch {
        /// The record.
        seq: u64,
    },
    /// An event the replay does not admit.
    #[error("evento {seq} / event {seq}: {rejection}")]
    Rejected {
        /// The record.
        seq: u64,
        /// Why.
        rejection: Rejection,
    },
    /// A checkpoint whose daemon signature does not verify.
    #[error(
        "el punto de control del evento {seq} no lo firmó la clave del servicio / \
         the checkpoint at event {seq} is not signed by the daemon key"
    )]
    CheckpointSignature {
        /// Its sequence number.
        seq: u64,
    },
    /// A checkpoint whose head is not the chain's.
    #[error(
        "el punto de control del evento {seq} nombra otra cabeza: el registro fue reescrito / \
         the checkpoint at event {seq} names another head: the ledger was rewritten"
    )]
    CheckpointMismatch {
        /// Its sequence number.
        seq: u64,
    },
    /// A close, or a lot, whose result was never published.
    #[error(
        "evento {seq}: `{item}` se cerró (o se sorteó) pero su resultado nunca se publicó / \
         event {seq}: `{item}` was closed (or a lot drawn) but its result was never published"
    )]
    UnpublishedResult {
        /// The item.
        item: String,
        /// The close or lot still owed a result.
        seq: u64,
    },
    /// A result published that no close or lot asked for.
    #[error(
        "evento {seq}: un resultado de `{item}` que ningún cierre ni sorteo pidió / \
         event {seq}: a result of `{item}` that no close or lot asked for"
    )]
    UnaskedResult {
        /// The item.
        item: String,
        /// The result's sequence number.
        seq: u64,
    },
    /// A lot drawn on an item whose close, or whose last lot, still owes
    /// its result: on one item the order is close, result, lot, result.
    #[error(
        "evento {seq}: se sorteó `{item}` antes de publicar el resultado que el sorteo desempata / event {seq}: a lot is drawn on `{item}` before the result whose tie it breaks is published (the order is close, result, lot, result)"
    )]
    LotBeforeResult {
        /// The item.
        item: String,
        /// The lot's sequence number.
        seq: u64,
    },
    /// An election closed on a tie whose lot was never drawn.
    #[error(
        "`{item}` terminó en un empate por el último puesto y no se sorteó / \
         `{item}` ended on a tie across the last seat and no lot was drawn"
    )]
    LotNotDrawn {
        /// The item.
        item: String,
    },
    /// A close or the end of the bundle without its daemon-signed
    /// checkpoint.
    #[error(
        "el paquete no tiene un punto de control firmado por el servicio en el evento {seq} (cada cierre y el final necesitan uno) / \
         the bundle has no daemon-signed checkpoint at event {seq} (every close and the end need one)"
    )]
    MissingCheckpoint {
        /// Where one is needed.
        seq: u64,
    },
    /// An observer's signed head not signed by the daemon key.
    #[error(
        "la cabeza atestiguada del evento {seq} no la firmó la clave del servicio / \
         the witnessed head at event {seq} is not signed by the daemon key"
    )]
    WitnessSignature {
        /// Its sequence number.
        seq: u64,
    },
    /// A receipt the ledger does not bear out.
    #[error(
        "recibo {index} (evento {seq}): {} / receipt {index} (event {seq}): {}",
        .problem.reason_es(),
        .problem.reason()
    )]
    Receipt {
        /// Its place among the receipts given (1-based).
        index: usize,
        /// The event it names.
        seq: u64,
        /// What is wrong.
        problem: ReceiptProblem,
    },
    /// A checkpoint, witnessed head or receipt numbered 0: records are
    /// numbered from 1, so it names no record (it is not a bundle cut
    /// short).
    #[error("{es} 0 no existe: la numeración empieza en 1 / {en} 0 does not exist: numbering starts at 1")]
    NumberedZero {
        /// What names 0, in Spanish.
        es: &'static str,
        /// The same, in English.
        en: &'static str,
    },
    /// A checkpoint beyond the end of the bundle.
    #[error(
        "el paquete termina en el evento {last} pero un punto de control nombra el evento {seq}: fue recortado / \
         the bundle ends at event {last} but a checkpoint names event {seq}: it was cut short"
    )]
    Truncated {
        /// The last record in the bundle.
        last: u64,
        /// The checkpoint's sequence number.
        seq: u64,
    },
}

/// Verifies a bundle, trusting nothing in it: every link, signature,
/// decision, result and lot, and the checkpoints.
pub fn verify_bundle(bytes: &[u8], options: &VerifyOptions) -> Result<Verified, VerifyError> {
    verify_bundle_with_progress(bytes, options, &mut |_, _| {})
}

/// How many records [`verify_bundle_with_progress`] replays between two
/// reports.
pub const PROGRESS_EVERY: u64 = 4_096;

/// [`verify_bundle`], reporting `(records replayed, records in the bundle)`
/// once the bundle is read, then every [`PROGRESS_EVERY`] records and at
/// the end of the replay (for a progress bar). The verdict is the same
/// whatever `progress` does.
pub fn verify_bundle_with_progress(
    bytes: &[u8],
    options: &VerifyOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Verified, VerifyError> {
    verify_bundle_from(std::io::Cursor::new(bytes), options, progress)
}

/// A record out of its place, found during the replay: what it is (a
/// copy, a move, a gap) takes a look at the records after it.
struct OutOfPlace {
    /// Its index in the bundle (from 0).
    index: u64,
    /// Its number.
    seq: u64,
    /// The number its place asks for.
    expected: u64,
}

/// Why the replay stopped: a verdict, or a record out of its place.
type Stop = Result<VerifyError, OutOfPlace>;

/// Records with their stored heads, as read.
type Records = Vec<(Vec<u8>, Digest)>;

/// [`verify_bundle_with_progress`] of a bundle read from `source` — a file,
/// usually — a field at a time: first through to its checkpoints (the
/// bundle's form, and what the replay must keep), then, from the first
/// record again, the replay, a slice at a time. Resident memory is the
/// meeting's state and a few slices, whatever the bundle's length; only
/// the heads the checkpoints, witnesses and receipts name are kept.
pub fn verify_bundle_from<R: std::io::Read + std::io::Seek>(
    source: R,
    options: &VerifyOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Verified, VerifyError> {
    verify_bundle_state(source, options, progress).map(|(verified, _)| verified)
}

/// [`verify_bundle_from`], also giving back the meeting the bundle's
/// events fold into once every check passed: what `verify` prints each
/// item's figures from, and what a document made from the bundle (the
/// acta, the exports) is a function of. Nothing is given for a bundle
/// that does not verify.
pub fn verify_bundle_state<R: std::io::Read + std::io::Seek>(
    source: R,
    options: &VerifyOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(Verified, State), VerifyError> {
    use std::io::Seek as _;
    let mut reader = BundleReader::new(std::io::BufReader::with_capacity(1 << 16, source));
    let (head, count) = reader.head().map_err(VerifyError::Bundle)?;
    let records_at = reader.at;
    for _ in 0..count {
        reader.skip_record().map_err(VerifyError::Bundle)?;
    }
    let checkpoints = reader.checkpoints().map_err(VerifyError::Bundle)?;
    reader.end().map_err(VerifyError::Bundle)?;
    if options.daemon_key.is_some_and(|k| k != head.daemon_key) {
        return Err(VerifyError::DaemonKeyMismatch);
    }
    // Nothing can stand at number 0; said before the replay, and as what
    // it is, rather than as a bundle cut short.
    let zero = [
        (
            checkpoints.iter().any(|(c, _)| c.seq == 0),
            "el punto de control del paquete",
            "the bundle's checkpoint",
        ),
        (options.checkpoints.iter().any(|&(seq, _)| seq == 0), "el punto de control", "checkpoint"),
        (options.witnesses.iter().any(|(c, _)| c.seq == 0), "la cabeza atestiguada", "witnessed head"),
        (options.receipts.iter().any(|(r, _)| r.seq == 0), "el recibo del evento", "the receipt of event"),
    ];
    if let Some(&(_, es, en)) = zero.iter().find(|(found, _, _)| *found) {
        return Err(VerifyError::NumberedZero { es, en });
    }
    let profile =
        (options.load_profile)(&head.profile_name, &head.profile_bytes).map_err(VerifyError::Profile)?;
    // The name travels beside the file and nothing else binds it: a loader
    // that reads the profile from the bytes alone would let it be anything.
    if profile.name() != head.profile_name {
        return Err(VerifyError::Profile(format!(
            "el paquete nombra el perfil `{0}` pero su archivo es el perfil `{1}` / \
             the bundle names profile `{0}` but its file is profile `{1}`",
            head.profile_name,
            profile.name()
        )));
    }
    let register = register_from_bytes(&head.register_bytes).map_err(VerifyError::Register)?;
    let meeting = head.meeting;
    let mut state =
        State::new(meeting, register, profile, Digest::sha256(&head.profile_bytes), Some(head.daemon_key));
    // The heads (and event digests) anything will ask about.
    let wanted: std::collections::HashSet<u64> = checkpoints
        .iter()
        .map(|(c, _)| c.seq)
        .chain(options.checkpoints.iter().map(|&(seq, _)| seq))
        .chain(options.witnesses.iter().map(|(c, _)| c.seq))
        .chain(options.receipts.iter().map(|(r, _)| r.seq))
        .collect();
    let mut kept: std::collections::HashMap<u64, (Digest, Digest)> = std::collections::HashMap::new();
    let mut chain = Chain::new(&meeting);
    let mut results = Vec::new();
    // Results still owed, by item: one per close and one per lot, with the
    // event that asked for the oldest.
    let mut owed: std::collections::HashMap<String, (u32, u64)> = std::collections::HashMap::new();
    let mut closes = Vec::new();
    progress(0, count);
    let mut source = reader.source;
    source.seek(std::io::SeekFrom::Start(records_at)).map_err(|e| VerifyError::Bundle(BundleError::io(e)))?;
    let mut reader = BundleReader::new(source);
    let mut read = 0u64;
    let next = || -> Result<Option<Records>, Stop> {
        let slice = (crate::signatures::STREAM_SLICE as u64).min(count - read);
        let records = (0..slice)
            .map(|_| reader.record())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Ok(VerifyError::Bundle(e)))?;
        read += slice;
        Ok((!records.is_empty()).then_some(records))
    };
    // What each record needs alone — decoding (its signer's key is a
    // curve point to check), its event's bytes, its signature — on every
    // core; then, in order, its place in the sequence and the chain, its
    // head, and its replay, as `State::admit` would. The first problem is
    // the one a record-by-record check meets first.
    let mut index = 0u64;
    let replayed = crate::signatures::stream_mapped(
        next,
        |(bytes, _): &(Vec<u8>, Digest)| crate::signatures::open_record(&meeting, bytes),
        |(bytes, stored_head), opened| {
            let position = index + 1;
            let crate::signatures::Opened { record, signed } =
                opened.map_err(|error| Ok(VerifyError::Decode { seq: position, error }))?;
            let expected = chain.seq() + 1;
            if record.seq != expected {
                return Err(Err(OutOfPlace { index, seq: record.seq, expected }));
            }
            let head = chain
                .append_encoded(&record, &bytes)
                .map_err(|_| Ok(VerifyError::TimeWentBackwards { seq: record.seq }))?;
            if head != stored_head {
                return Err(Ok(VerifyError::HeadMismatch { seq: record.seq }));
            }
            let admitted = if signed {
                state.admit_verified_at(&record.event, &record.signer, record.time_ms)
            } else {
                Err(Rejection::BadSignature)
            };
            admitted.map_err(|rejection| Ok(VerifyError::Rejected { seq: record.seq, rejection }))?;
            state.chained(head, record.time_ms);
            match &record.event.body {
                asamblea_wire::EventBody::ItemClosed { item }
                | asamblea_wire::EventBody::LotDrawn { item, .. } => {
                    let closed = matches!(record.event.body, asamblea_wire::EventBody::ItemClosed { .. });
                    if closed {
                        closes.push(record.seq);
                    }
                    let entry = owed.entry(item.as_str().to_string()).or_insert((0, record.seq));
                    // A lot breaks the tie of a result already published:
                    // drawn before it, the published figures would skip the
                    // tie the lot was drawn for (ledger-format §11, step 6).
                    if !closed && entry.0 > 0 {
                        return Err(Ok(VerifyError::LotBeforeResult {
                            item: item.as_str().to_string(),
                            seq: record.seq,
                        }));
                    }
                    if entry.0 == 0 {
                        entry.1 = record.seq;
                    }
                    entry.0 += 1;
                }
                asamblea_wire::EventBody::ResultPublished { item, .. } => {
                    match owed.get_mut(item.as_str()) {
                        Some((count, _)) if *count > 0 => *count -= 1,
                        _ => {
                            return Err(Ok(VerifyError::UnaskedResult {
                                item: item.as_str().to_string(),
                                seq: record.seq,
                            }))
                        }
                    }
                    results.push(item.as_str().to_string());
                }
                _ => {}
            }
            if wanted.contains(&position) {
                let event = EventRecord::event_bytes(&bytes).unwrap_or_default();
                kept.insert(position, (head, Digest::sha256(event)));
            }
            index = position;
            if position.is_multiple_of(PROGRESS_EVERY) || position == count {
                progress(position, count);
            }
            Ok(())
        },
    );
    match replayed {
        Ok(()) => {}
        Err(Ok(error)) => return Err(error),
        Err(Err(OutOfPlace { index, seq, expected })) => {
            // Every number below `expected` was seen in its place, so a
            // lower one is a copy; a higher one means the expected record
            // is either later in the bundle (moved) or nowhere (deleted).
            if seq < expected {
                return Err(VerifyError::Duplicated { seq, expected });
            }
            let mut source = reader.source;
            source
                .seek(std::io::SeekFrom::Start(records_at))
                .map_err(|e| VerifyError::Bundle(BundleError::io(e)))?;
            let mut later = BundleReader::new(std::io::BufReader::new(source));
            for _ in 0..=index {
                later.skip_record().map_err(VerifyError::Bundle)?;
            }
            for _ in index + 1..count {
                let (bytes, _) = later.record().map_err(VerifyError::Bundle)?;
                if EventRecord::decode(&bytes).is_ok_and(|record| record.seq == expected) {
                    return Err(VerifyError::Reordered { seq, expected });
                }
            }
            return Err(VerifyError::Missing { seq: expected, found: seq });
        }
    }
    // Every close and every lot has its result, and no tie is left open.
    if let Some((item, (_, seq))) =
        owed.iter().filter(|(_, (count, _))| *count > 0).min_by_key(|(_, (_, seq))| *seq)
    {
        return Err(VerifyError::UnpublishedResult { item: item.clone(), seq: *seq });
    }
    if let Some(meeting) = state.meeting() {
        for item in meeting.items() {
            if let Some(asamblea_rules::ItemResult::Election(e)) = item.result() {
                if e.outcome == asamblea_rules::Outcome::LotRequired {
                    return Err(VerifyError::LotNotDrawn { item: item.id().to_string() });
                }
            }
        }
    }
    let last = chain.seq();
    let head_at = |seq: u64| -> Result<Digest, VerifyError> {
        if seq == 0 || seq > last {
            return Err(VerifyError::Truncated { last, seq });
        }
        Ok(kept.get(&seq).expect("every head asked about was kept").0)
    };
    for (checkpoint, signature) in &checkpoints {
        head.daemon_key
            .verify(&meeting, &checkpoint.encode(), signature)
            .map_err(|_| VerifyError::CheckpointSignature { seq: checkpoint.seq })?;
        if head_at(checkpoint.seq)? != checkpoint.head {
            return Err(VerifyError::CheckpointMismatch { seq: checkpoint.seq });
        }
    }
    // A checkpoint at every close and at the end: a bundle cut anywhere
    // but at a checkpoint, with the later checkpoints dropped, lacks one.
    let needed = closes.iter().copied().chain((last > 0).then_some(last));
    for seq in needed {
        if !checkpoints.iter().any(|(c, _)| c.seq == seq) {
            return Err(VerifyError::MissingCheckpoint { seq });
        }
    }
    for &(seq, expected) in &options.checkpoints {
        if head_at(seq)? != expected {
            return Err(VerifyError::CheckpointMismatch { seq });
        }
    }
    for (witness, signature) in &options.witnesses {
        witness
            .verify(&meeting, &head.daemon_key, signature)
            .map_err(|_| VerifyError::WitnessSignature { seq: witness.seq })?;
        if head_at(witness.seq)? != witness.head {
            return Err(VerifyError::CheckpointMismatch { seq: witness.seq });
        }
    }
    for (index, (receipt, signature)) in options.receipts.iter().enumerate() {
        let at = |seq: u64| kept.get(&seq).map(|&(head, event)| (event, head));
        check_receipt(receipt, signature, &meeting, &head.daemon_key, at)
            .map_err(|problem| VerifyError::Receipt { index: index + 1, seq: receipt.seq, problem })?;
    }
    let verified = Verified {
        records: last,
        head: chain.head(),
        results,
        checkpoints: checkpoints.len() + options.checkpoints.len() + options.witnesses.len(),
        receipts: options.receipts.len(),
    };
    Ok((verified, state))
}

/// What [`export_bundle`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exported {
    /// Records written.
    pub records: u64,
    /// The checkpoint at the last record, if there is one.
    pub last: Option<Checkpoint>,
}

/// Writes the audit bundle of the ledger at `path` to `out` as it reads
/// it, one record at a time (a meeting of a million ballots needs the
/// memory of one record, not of all): `head`, every record as stored with
/// its head — each checked on the way (its number the next, its time not
/// earlier, its head the one the chain gives), so a broken ledger is not
/// exported — and a checkpoint signed by `sign` at every `item-closed`
/// and at the end. Reads one snapshot of the file beside any writer.
pub fn export_bundle(
    path: &std::path::Path,
    head: &BundleHead<'_>,
    sign: impl Fn(&Checkpoint) -> Signature,
    out: impl std::io::Write,
) -> Result<Exported, crate::LedgerError> {
    write_bundle(path, head, sign, out, true)
}

/// [`export_bundle`] with nothing checked: every row exactly as stored,
/// its stored head beside it, and the checkpoints signed over the stored
/// heads. What `asamblea verify DIR` verifies, so that a hand-edited file
/// is judged by the verifier (naming the event) rather than refused whole
/// — a bundle written and read a record at a time, never held.
pub fn export_raw_bundle(
    path: &std::path::Path,
    head: &BundleHead<'_>,
    sign: impl Fn(&Checkpoint) -> Signature,
    out: impl std::io::Write,
) -> Result<Exported, crate::LedgerError> {
    write_bundle(path, head, sign, out, false)
}

/// The bundle of the ledger at `path`, each record checked on the way
/// when `checked`.
fn write_bundle(
    path: &std::path::Path,
    head: &BundleHead<'_>,
    sign: impl Fn(&Checkpoint) -> Signature,
    out: impl std::io::Write,
    checked: bool,
) -> Result<Exported, crate::LedgerError> {
    let sqlite = |e| crate::LedgerError::sqlite(path, e);
    let io = |e: std::io::Error| crate::LedgerError::Sqlite {
        path: path.display().to_string(),
        message: format!("no se puede escribir el paquete / cannot write the bundle: {e}"),
        cause: crate::Cause::of_io(&e),
    };
    let broken = |seq: u64, reason: &str| crate::LedgerError::BrokenChain {
        path: path.display().to_string(),
        seq,
        reason: reason.to_string(),
    };
    let mut conn = crate::store::open_existing(path, &head.meeting)?;
    // One read transaction: the count and the rows are of one snapshot.
    let snapshot = conn.transaction().map_err(sqlite)?;
    let count: i64 = snapshot.query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0)).map_err(sqlite)?;
    let mut out = BundleWriter(std::io::BufWriter::new(out));
    out.head(head, count as u64).map_err(io)?;
    let mut chain_head = asamblea_wire::genesis_head(&head.meeting);
    let mut last_time = 0u64;
    let mut marks: Vec<Checkpoint> = Vec::new();
    let mut written = 0u64;
    {
        let mut statement =
            snapshot.prepare("SELECT seq, record, head FROM events ORDER BY seq").map_err(sqlite)?;
        let mut rows = statement.query([]).map_err(sqlite)?;
        while let Some(row) = rows.next().map_err(sqlite)? {
            let seq = row.get::<_, i64>(0).map_err(sqlite)? as u64;
            let record: Vec<u8> = row.get(1).map_err(sqlite)?;
            let stored: Vec<u8> = row.get(2).map_err(sqlite)?;
            let expected = written + 1;
            if !checked {
                // As stored: the verifier judges it.
                chain_head = Digest(stored.as_slice().try_into().unwrap_or([0; 32]));
            } else {
                if seq != expected || record.get(..8) != Some(&expected.to_be_bytes()[..]) {
                    return Err(broken(
                        expected,
                        "los eventos no están numerados en orden / the events are not numbered in order",
                    ));
                }
                let time =
                    u64::from_be_bytes(record.get(8..16).and_then(|t| t.try_into().ok()).unwrap_or([0; 8]));
                if time < last_time {
                    return Err(broken(
                        seq,
                        "su hora es anterior a la del evento previo / its time is earlier than the event before",
                    ));
                }
                last_time = time;
                chain_head = Digest::sha256(&[&chain_head.0[..], &record].concat());
                if stored.as_slice() != chain_head.0 {
                    return Err(broken(
                        seq,
                        "la cabeza guardada no corresponde al registro (editado, reordenado o reemplazado) / \
                         the stored head does not match the record (edited, reordered or replaced)",
                    ));
                }
            }
            // The event's tag is its first byte (§3, §5).
            if EventRecord::event_bytes(&record).and_then(|event| event.first()) == Some(&0x0C) {
                marks.push(Checkpoint { seq: expected, head: chain_head });
            }
            out.record(&record, &chain_head).map_err(io)?;
            written = expected;
        }
    }
    if written != count as u64 {
        return Err(broken(
            written + 1,
            "el registro cambió mientras se leía / the ledger changed while it was read",
        ));
    }
    let last = (written > 0).then_some(Checkpoint { seq: written, head: chain_head });
    if let Some(last) = last {
        if marks.last() != Some(&last) {
            marks.push(last);
        }
    }
    let signed: Vec<(Checkpoint, Signature)> = marks.iter().map(|c| (*c, sign(c))).collect();
    out.checkpoints(&signed).map_err(io)?;
    out.0.into_inner().map_err(|e| io(e.into_error()))?.flush().map_err(io)?;
    Ok(Exported { records: written, last })
}
