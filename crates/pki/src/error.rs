//! [`PkiError`]: why the venue PKI did not do what was asked, Spanish
//! first; and the words of what was being done.

use std::path::{Path, PathBuf};

/// Why the venue PKI did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum PkiError {
    /// The operating system refused to read, write or create a file or
    /// folder (permissions, a full or read-only disk).
    #[error("{}: {doing}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What was being done, Spanish first.
        doing: &'static str,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// A file of the venue PKI is not there: the meeting was not made by
    /// `asamblea init`, or the kiosk was never enrolled here.
    #[error(
        "{}: no se encuentra: ¿se hizo esta reunión con `asamblea init` (y se inscribió allí el quiosco)? / not found: was this meeting made by `asamblea init` (and the kiosk enrolled there)?",
        path.display()
    )]
    Missing {
        /// The file.
        path: PathBuf,
    },
    /// A kiosk id that is not 1 to 32 ASCII letters, digits or `-`.
    #[error(
        "el identificador de quiosco {id:?} no es válido: use de 1 a 32 letras (A-Z, a-z), dígitos o '-' / kiosk id {id:?} is not valid: use 1 to 32 letters (A-Z, a-z), digits or '-'"
    )]
    InvalidKioskId {
        /// The id given (its first 40 characters).
        id: String,
    },
    /// A name the daemon's certificate cannot carry.
    #[error(
        "{name:?} no es un nombre de máquina ni una dirección IP que el certificado del servicio pueda llevar / {name:?} is not a host name or an IP address the daemon's certificate can name"
    )]
    InvalidHostName {
        /// The name given.
        name: String,
    },
    /// The meeting has a venue PKI already; it is never replaced.
    #[error(
        "{}: esta reunión ya tiene su infraestructura de certificados; nunca se reemplaza / this meeting already has a venue PKI; it is never replaced",
        path.display()
    )]
    AlreadyMade {
        /// `DIR/tls`.
        path: PathBuf,
    },
    /// The kiosk id was revoked: revocation is by id.
    #[error(
        "el quiosco {kiosk_id} fue revocado; inscriba su reemplazo con otro identificador / kiosk {kiosk_id} was revoked; enrol the replacement under a new kiosk id"
    )]
    Revoked {
        /// The kiosk id.
        kiosk_id: String,
    },
    /// The kiosk id is enrolled already.
    #[error(
        "el quiosco {kiosk_id} ya está inscrito ({}); revóquelo e inscriba otro identificador / kiosk {kiosk_id} is already enrolled ({}); revoke it and enrol a new id",
        path.display(),
        path.display()
    )]
    AlreadyEnrolled {
        /// The kiosk id.
        kiosk_id: String,
        /// Its certificate.
        path: PathBuf,
    },
    /// No kiosk of that id was enrolled in the meeting.
    #[error(
        "no hay un quiosco {kiosk_id} inscrito en {} / no kiosk {kiosk_id} is enrolled in {}",
        dir.display(),
        dir.display()
    )]
    NotEnrolled {
        /// The kiosk id.
        kiosk_id: String,
        /// The meeting directory.
        dir: PathBuf,
    },
    /// A certificate request that does not parse, or whose signature does
    /// not verify (altered on its way).
    #[error(
        "no es una solicitud de certificado válida (PKCS#10 en PEM, firmada por su clave): hágala de nuevo en el quiosco con `asamblea-kiosk enroll` / not a valid certificate request (PKCS#10 PEM, signed by its key): {reason}; make it again on the kiosk with `asamblea-kiosk enroll`"
    )]
    BadRequest {
        /// What the reader said (in English).
        reason: String,
    },
    /// A certificate request made for another kiosk id.
    #[error(
        "la solicitud es del quiosco «{asked}», no de {kiosk_id}: inscríbalo con su propio identificador, o haga la solicitud de nuevo en el quiosco / the request is for kiosk «{asked}», not {kiosk_id}: enrol it under its own id, or make the request again on the kiosk"
    )]
    RequestForAnother {
        /// The id the request names.
        asked: String,
        /// The id it was to be enrolled under.
        kiosk_id: String,
    },
    /// A file or PEM text that does not hold what it should (a line of the
    /// revocation list, a certificate, a key).
    #[error("{what}: {message}")]
    Malformed {
        /// The file, or what the text is, with the line where there is one.
        what: String,
        /// What is wrong, Spanish first.
        message: String,
    },
    /// The cryptography libraries (rcgen, rustls) refused to make a key, a
    /// certificate or a configuration.
    #[error("{doing}: {source}")]
    Crypto {
        /// What was being made, Spanish first.
        doing: &'static str,
        /// What the library said.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl PkiError {
    /// Whether the person who asked can act on it (a bad id or request, a
    /// kiosk revoked, enrolled already or never enrolled, a PKI made
    /// already): the daemon answers these as a bad request, the rest as its
    /// own failure.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            PkiError::InvalidKioskId { .. }
                | PkiError::InvalidHostName { .. }
                | PkiError::AlreadyMade { .. }
                | PkiError::Revoked { .. }
                | PkiError::AlreadyEnrolled { .. }
                | PkiError::NotEnrolled { .. }
                | PkiError::BadRequest { .. }
                | PkiError::RequestForAnother { .. }
        )
    }

    /// An I/O error on `path` while `doing`; a missing file is
    /// [`PkiError::Missing`].
    pub(crate) fn io(path: &Path, doing: &'static str) -> impl FnOnce(std::io::Error) -> PkiError {
        let path = path.to_path_buf();
        move |source| {
            if source.kind() == std::io::ErrorKind::NotFound {
                PkiError::Missing { path }
            } else {
                PkiError::Io { path, doing, source }
            }
        }
    }

    /// A failure of rcgen or rustls while `doing`.
    pub(crate) fn crypto<E: std::error::Error + Send + Sync + 'static>(
        doing: &'static str,
    ) -> impl FnOnce(E) -> PkiError {
        move |source| PkiError::Crypto { doing, source: Box::new(source) }
    }

    /// A text that does not hold what it should.
    pub(crate) fn malformed(what: impl Into<String>, message: impl Into<String>) -> PkiError {
        PkiError::Malformed { what: what.into(), message: message.into() }
    }
}

/// What this crate's functions return.
pub(crate) type Result<T, E = PkiError> = std::result::Result<T, E>;

/// `doing` of reading a file.
pub(crate) const READ: &str = "no se puede leer / cannot read";
/// `doing` of writing a file.
pub(crate) const WRITE: &str = "no se puede escribir / cannot write";
/// `doing` of creating a file.
pub(crate) const CREATE: &str = "no se puede crear / cannot create";
/// `doing` of creating a folder.
pub(crate) const CREATE_DIR: &str = "no se puede crear la carpeta / cannot create the directory";
