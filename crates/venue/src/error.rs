//! [`VenueError`], the crate's one error type: why something on a meeting
//! directory did not happen, in variants a caller branches on.
//!
//! The command line prints an error and stops; the daemon answers it. What
//! they do differs by kind, so the kinds are the variants: a file or folder
//! the system refused ([`VenueError::Io`]), a folder that holds no meeting
//! ([`VenueError::NotAMeeting`]), a file of the meeting that does not hold
//! what it should, named by its place ([`VenueError::Toml`],
//! [`VenueError::Register`], [`VenueError::Malformed`]), a meeting or its
//! keys held by another process ([`VenueError::Busy`],
//! [`VenueError::KeysInUse`]), the key folder missing a key or not set up
//! ([`VenueError::MissingKey`], [`VenueError::KeyFolder`]), a request the
//! venue refuses before the ledger sees it ([`VenueError::Refused`]), an
//! event the ledger's checks refuse ([`VenueError::Rejected`], nothing
//! changed) and a ledger that failed or was changed
//! ([`VenueError::Ledger`], [`VenueError::Tampered`],
//! [`VenueError::Equivocation`]).
//!
//! Every message is written for the person at the desk: Spanish first,
//! then English, separated by ` / `, naming the file, line or key at fault.

use std::path::{Path, PathBuf};

use asamblea_ledger::{BundleError, LedgerError, OpenError, Rejection, SubmitError};
use asamblea_wire::WireError;

use crate::fields::TomlFileError;
use crate::register_csv::ImportError;

/// Why something on a meeting directory did not happen.
#[derive(Debug, thiserror::Error)]
pub enum VenueError {
    /// The operating system refused to read, write, create, rename or lock
    /// a file or folder (permissions, a full or read-only disk).
    #[error("{}: {doing}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What was being done, Spanish first (`no se puede leer / cannot
        /// read`).
        doing: &'static str,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// The folder holds no meeting: a file every meeting has is not there.
    #[error(
        "{}: no se encuentra {file}; ¿es una carpeta de reunión hecha con `asamblea init`? / cannot read {file}; is this a meeting directory made by `asamblea init`?",
        dir.display()
    )]
    NotAMeeting {
        /// The folder given as a meeting directory.
        dir: PathBuf,
        /// The file that is missing (`meeting.toml`, `meeting-id`…).
        file: &'static str,
    },
    /// `meeting.toml` or a bylaws profile does not hold what it should:
    /// the file, the line and the key.
    #[error(transparent)]
    Toml(#[from] TomlFileError),
    /// The register CSV does not import: the file, the line and the field.
    #[error(transparent)]
    Register(#[from] ImportError),
    /// Another file of the meeting (its id, a key, `staff.toml`,
    /// `register.bin`, the ledger's first record) does not hold what it
    /// should.
    #[error("{}{}: {message}", path.display(), place.as_ref().map_or(String::new(), |p| format!(", {p}")))]
    Malformed {
        /// The file.
        path: PathBuf,
        /// Where in it (`clave / key `staff[0].role``), when it says.
        place: Option<String>,
        /// What is wrong, Spanish first.
        message: String,
    },
    /// The meeting is held by another process: a daemon serving it, or
    /// another command writing it.
    #[error("{message}")]
    Busy {
        /// The meeting directory.
        dir: PathBuf,
        /// Who holds it and what to do, as `lock::busy_message` says it
        /// (kept as text: the lock's types stay in `lock`, which names this
        /// module, not the other way round).
        message: String,
    },
    /// Another copy of the meeting (the same id, so the same keys) is open:
    /// the keys sign for one copy at a time.
    #[error(
        "otra copia de esta reunión (el mismo identificador y las mismas claves) está abierta: {other} — trabaje sobre una sola carpeta / another copy of this meeting (same id, same keys) is open: {other} — work on one folder only"
    )]
    KeysInUse {
        /// The key folder's lock file.
        path: PathBuf,
        /// The copy that holds it, as its lock file says.
        other: String,
    },
    /// A signing key of the meeting is not in its key folder.
    #[error(
        "{}: no está la clave `{name}` de esta reunión. Las claves se guardan fuera de la carpeta de la reunión (ASAMBLEA_KEYS, o ~/.config/asamblea/keys); use la misma cuenta y el mismo ASAMBLEA_KEYS que `asamblea init`. / the meeting's `{name}` key is not there: keys are kept outside the meeting folder; run as the account, and with the ASAMBLEA_KEYS, that ran `asamblea init`",
        path.display()
    )]
    MissingKey {
        /// Where it was looked for.
        path: PathBuf,
        /// The key's name (`daemon`, a staff account's).
        name: String,
    },
    /// Where the meeting's keys go cannot be told: `ASAMBLEA_KEYS` is
    /// relative, or neither it nor a home folder is set.
    #[error("{message}")]
    KeyFolder {
        /// What is wrong and what to do, Spanish first.
        message: String,
    },
    /// An arrival that would bring in a register row holding no share
    /// (R1: a vote is a share's; R12: the plural number counts holders of
    /// shares): refused at the desk, nothing recorded.
    #[error(
        "{holder} figura en el libro de accionistas con 0 acciones: no es titular de acciones, no vota ni cuenta para el quórum ni para el número plural de accionistas (reglas R1 y R12); no se registra su llegada. Si el libro está desactualizado, la sociedad debe corregirlo. / {holder} holds 0 shares in the register: not a holder of shares, no vote, not counted for the quorum or the plural number (rules R1, R12); the arrival is not recorded"
    )]
    NoShares {
        /// The register's id of the row.
        holder: String,
    },
    /// A request the venue refuses before it reaches the ledger (a folder
    /// that is not empty, an item not on the agenda, an agenda too large
    /// for its event); nothing was written.
    #[error("{message}")]
    Refused {
        /// What was refused and why, Spanish first, naming the place.
        message: String,
    },
    /// A value from outside that no event can carry (an id, a title, a
    /// name too long or not in the ledger's form).
    #[error("{what}: no cabe en el registro / does not fit the ledger: {source}")]
    Invalid {
        /// What the value is (`el accionista / holder `CC-1``).
        what: String,
        /// Why the ledger's format refuses it.
        #[source]
        source: WireError,
    },
    /// The ledger's checks (the rules among them) refuse the event;
    /// nothing changed.
    #[error("{0}")]
    Rejected(Rejection),
    /// The ledger could not be read or written: a running daemon must
    /// stop.
    #[error("{0}")]
    Ledger(LedgerError),
    /// The ledger was changed or lost saved events since the daemon signed
    /// its head: it must not be served.
    #[error(
        "{}: {source}. EL REGISTRO FUE ALTERADO O PERDIÓ EVENTOS GUARDADOS: no lo sirva; guarde una copia de la carpeta y avise al revisor fiscal (`asamblea verify` nombra el evento). / THE LEDGER WAS CHANGED OR LOST SAVED EVENTS: do not serve it; keep a copy of the folder and tell the statutory auditor.",
        path.display()
    )]
    Tampered {
        /// The ledger file.
        path: PathBuf,
        /// What the start found.
        #[source]
        source: OpenError,
    },
    /// Two different heads of the ledger at one event, each signed by the
    /// meeting's daemon key, in `DIR/ledger.checkpoints`: the key signed
    /// two histories of the meeting. Neither the start nor `verify` can
    /// tell from the folder which one was served.
    #[error(
        "{}: EQUIVOCACIÓN: la clave del servicio de la reunión firmó dos cabezas distintas del registro en el evento {seq} ({first} y {second}): firmó dos historias de la reunión (¿una copia de la carpeta servida aparte, o la clave en otras manos?). No sirva la reunión; guarde una copia de la carpeta y avise al revisor fiscal. / EQUIVOCATION: the meeting's daemon key signed two different heads of the ledger at event {seq}: it signed two histories of the meeting (a copy of the folder served apart, or the key in other hands?). Do not serve the meeting; keep a copy of the folder and tell the statutory auditor.",
        path.display()
    )]
    Equivocation {
        /// `DIR/ledger.checkpoints`.
        path: PathBuf,
        /// The event both heads name.
        seq: u64,
        /// One head, as the file holds it first.
        first: asamblea_wire::Digest,
        /// The other.
        second: asamblea_wire::Digest,
    },
    /// A stored event that the replay does not admit: the ledger cannot be
    /// opened.
    #[error(
        "{}: el evento guardado {seq} no se admite al releer el registro / stored event {seq} is not admissible: {rejection}",
        path.display()
    )]
    Unreplayable {
        /// The ledger file.
        path: PathBuf,
        /// The event's number.
        seq: u64,
        /// Why the replay refuses it.
        rejection: Rejection,
    },
    /// The audit bundle just written does not read back.
    #[error("el paquete de auditoría no se puede leer / the audit bundle cannot be read: {0}")]
    Bundle(#[from] BundleError),
}

impl VenueError {
    /// An I/O error on `path` while `doing` (Spanish first).
    pub(crate) fn io(path: &Path, doing: &'static str) -> impl FnOnce(std::io::Error) -> VenueError {
        let path = path.to_path_buf();
        move |source| VenueError::Io { path, doing, source }
    }

    /// A file of the meeting directory that cannot be read: a missing one
    /// means the folder holds no meeting.
    pub(crate) fn meeting_file(dir: &Path, file: &'static str) -> impl FnOnce(std::io::Error) -> VenueError {
        let dir = dir.to_path_buf();
        move |source| {
            if source.kind() == std::io::ErrorKind::NotFound {
                VenueError::NotAMeeting { dir, file }
            } else {
                VenueError::Io { path: dir.join(file), doing: READ, source }
            }
        }
    }

    /// A value that no event can carry.
    pub(crate) fn invalid(what: impl Into<String>) -> impl FnOnce(WireError) -> VenueError {
        let what = what.into();
        move |source| VenueError::Invalid { what, source }
    }

    /// A request refused before the ledger.
    pub(crate) fn refused(message: impl Into<String>) -> VenueError {
        VenueError::Refused { message: message.into() }
    }
}

/// `doing` of reading a file.
pub(crate) const READ: &str = "no se puede leer / cannot read";
/// `doing` of writing a file.
pub(crate) const WRITE: &str = "no se puede escribir / cannot write";
/// `doing` of creating a file.
pub(crate) const CREATE: &str = "no se puede crear / cannot create";
/// `doing` of opening a file.
pub(crate) const OPEN: &str = "no se puede abrir / cannot open";

impl From<Rejection> for VenueError {
    fn from(rejection: Rejection) -> VenueError {
        VenueError::Rejected(rejection)
    }
}

impl From<LedgerError> for VenueError {
    fn from(error: LedgerError) -> VenueError {
        VenueError::Ledger(error)
    }
}

impl From<SubmitError> for VenueError {
    fn from(error: SubmitError) -> VenueError {
        match error {
            SubmitError::Rejected(rejection) => VenueError::Rejected(rejection),
            SubmitError::Ledger(error) => VenueError::Ledger(error),
        }
    }
}
