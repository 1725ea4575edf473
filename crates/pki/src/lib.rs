//! `asamblea-pki`: the venue's public-key infrastructure, on disk and as
//! rustls configurations for either end of a connection.
//!
//! ```text
//! DIR/tls/ca.crt              the venue CA (PEM); staff browsers and kiosks trust it
//! DIR/tls/ca.key              its private key (PEM, mode 0600); signs kiosk certificates
//! DIR/tls/server.crt          the daemon's certificate for the venue's host names
//! DIR/tls/server.key          its private key (mode 0600)
//! DIR/tls/kiosks/<id>.crt     a kiosk's client certificate, CN = the kiosk id
//! DIR/tls/kiosks/<id>.key     its private key (mode 0600) when the daemon's side
//!                             made it (the demo's shortcut); a kiosk enrolled by
//!                             its certificate request keeps its key ([`kiosk_request`],
//!                             [`sign_kiosk_request`])
//! DIR/tls/revoked-kiosks      revoked kiosk ids, one a line, append-only
//! ```
//!
//! The daemon (`asamblea-server`) takes its [`server_config`] and the
//! [`KioskRegistry`] from here; a kiosk (`asamblea-kiosk`) its
//! [`client_config`]. Both ends share one crate so that their TLS versions,
//! ALPN and certificate parsing are written once, and so that the kiosk
//! never links the daemon to get them.
//!
//! Client certificates are *optional* at the daemon but, when presented,
//! verified against the venue CA: staff browsers and the public board
//! connect without one, kiosks with theirs. A certificate from another CA
//! fails the handshake. The kiosk id is the certificate's [`common_name`].
//! Revocation is by kiosk id ([`KioskRegistry`]), checked by the serving
//! layer on every request.
//!
//! The CA carries name constraints (the daemon's host names and addresses),
//! so a staff browser that trusts it cannot be fooled, should `ca.key` leak,
//! into accepting a venue-signed certificate for any other site.
//!
//! **Not its business:** sockets, HTTP, the ledger. It reads and writes
//! only `DIR/tls` (and reads `DIR/meeting-id` for the CA's name).
//!
//! # Errors
//!
//! One error type, [`PkiError`], whose variants are what a caller branches
//! on: a refusal the person at the desk can act on (an invalid kiosk id, a
//! kiosk revoked or already enrolled, a request for another kiosk — see
//! [`PkiError::is_refusal`]), a file the system refused or that is not
//! there, a file that does not hold what it should, and the cryptography
//! library's own failures. Every message is Spanish first, then English,
//! separated by ` / `.
//!
//! # Layout
//!
//! One file: the files above and their rules (kiosk ids, host names),
//! certificate making with `rcgen`, the revocation list, the two rustls
//! configurations, and a minimal DER reader for the subject's common name.

use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLock};

use rcgen::{
    BasicConstraints, CertificateParams, CidrSubnet, DistinguishedName, DnType, ExtendedKeyUsagePurpose,
    GeneralSubtree, IsCa, Issuer, KeyPair, KeyUsagePurpose, NameConstraints,
};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::server::WebPkiClientVerifier;
use rustls::{ClientConfig, RootCertStore, ServerConfig};

/// Validity of the venue CA. A CA lives for one meeting, but the directory
/// may be prepared weeks ahead.
const CA_VALIDITY_DAYS: i64 = 730;

/// Validity of the daemon's and kiosks' certificates: 397 days is the most
/// that every browser accepts for a server certificate.
const LEAF_VALIDITY_DAYS: i64 = 397;

/// The only application protocol served.
const ALPN_HTTP_1_1: &[u8] = b"http/1.1";

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
    fn io(path: &Path, doing: &'static str) -> impl FnOnce(std::io::Error) -> PkiError {
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
    fn crypto<E: std::error::Error + Send + Sync + 'static>(
        doing: &'static str,
    ) -> impl FnOnce(E) -> PkiError {
        move |source| PkiError::Crypto { doing, source: Box::new(source) }
    }

    /// A text that does not hold what it should.
    fn malformed(what: impl Into<String>, message: impl Into<String>) -> PkiError {
        PkiError::Malformed { what: what.into(), message: message.into() }
    }
}

/// What this crate's functions return.
type Result<T, E = PkiError> = std::result::Result<T, E>;

/// `doing` of reading a file.
const READ: &str = "no se puede leer / cannot read";
/// `doing` of writing a file.
const WRITE: &str = "no se puede escribir / cannot write";
/// `doing` of creating a file.
const CREATE: &str = "no se puede crear / cannot create";
/// `doing` of creating a folder.
const CREATE_DIR: &str = "no se puede crear la carpeta / cannot create the directory";

/// What a kiosk needs to connect: its client certificate and key, and the
/// venue CA to verify the daemon with. `Debug` leaves the key out.
#[derive(Clone)]
pub struct KioskCredentials {
    /// The kiosk's certificate (PEM), signed by the venue CA, CN = kiosk id.
    pub cert_pem: String,
    /// The kiosk's private key (PEM, PKCS#8). A secret: never log it.
    pub key_pem: String,
    /// The venue CA's certificate (PEM).
    pub ca_pem: String,
}

impl std::fmt::Debug for KioskCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KioskCredentials").field("cert_pem", &self.cert_pem).finish_non_exhaustive()
    }
}

/// Checks a kiosk id: 1 to 32 ASCII letters, digits or `-`. The id is a
/// certificate's common name and a file name, so nothing else is allowed.
pub fn check_kiosk_id(kiosk_id: &str) -> Result<()> {
    let valid = (1..=32).contains(&kiosk_id.len())
        && kiosk_id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if !valid {
        return Err(PkiError::InvalidKioskId { id: kiosk_id.chars().take(40).collect() });
    }
    Ok(())
}

fn tls_dir(dir: &Path) -> PathBuf {
    dir.join("tls")
}

fn kiosk_path(dir: &Path, kiosk_id: &str, extension: &str) -> PathBuf {
    tls_dir(dir).join("kiosks").join(format!("{kiosk_id}.{extension}"))
}

fn revoked_path(dir: &Path) -> PathBuf {
    tls_dir(dir).join("revoked-kiosks")
}

/// The venue CA's certificate (PEM) of the meeting directory `dir`: what
/// staff browsers import and kiosks are given.
pub fn ca_cert_pem(dir: &Path) -> Result<String> {
    let path = tls_dir(dir).join("ca.crt");
    fs::read_to_string(&path).map_err(PkiError::io(&path, READ))
}

/// The credentials of kiosk `kiosk_id` as enrolled in the meeting directory
/// `dir` (`DIR/tls/kiosks/<id>.crt` and `.key`, and the venue CA): what is
/// moved onto the kiosk.
pub fn read_kiosk_credentials(dir: &Path, kiosk_id: &str) -> Result<KioskCredentials> {
    let read = |path: PathBuf| fs::read_to_string(&path).map_err(PkiError::io(&path, READ));
    let ca_pem = ca_cert_pem(dir)?;
    let cert_pem = read(kiosk_path(dir, kiosk_id, "crt"))?;
    let key_pem = read(kiosk_path(dir, kiosk_id, "key"))?;
    Ok(KioskCredentials { cert_pem, key_pem, ca_pem })
}

/// Writes a new file; fails if it exists. Private files (keys) get mode 0600
/// from the start, so a key is never readable by others, even for a moment.
fn write_new_file(path: &Path, contents: &str, private: bool) -> Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    if private {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = private;
    let mut file = options.open(path).map_err(|source| PkiError::Io {
        path: path.to_path_buf(),
        doing: CREATE,
        source,
    })?;
    file.write_all(contents.as_bytes()).and_then(|()| file.sync_all()).map_err(|source| PkiError::Io {
        path: path.to_path_buf(),
        doing: WRITE,
        source,
    })?;
    Ok(())
}

/// Folders of the PKI are the owner's only (0700), whatever the umask.
fn private_dir_builder() -> fs::DirBuilder {
    let mut builder = fs::DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder
}

/// The validity window of a certificate made now: from a day ago (kiosk
/// clocks may lag) to `days` ahead.
fn validity(params: &mut CertificateParams, days: i64) {
    let now = time::OffsetDateTime::now_utc();
    params.not_before = now - time::Duration::days(1);
    params.not_after = now + time::Duration::days(days);
}

fn distinguished_name(common_name: &str) -> DistinguishedName {
    let mut name = DistinguishedName::new();
    name.push(DnType::CommonName, common_name);
    name
}

/// The CA's parameters that an [`Issuer`] needs: its name, key usages and
/// key-identifier method. They are rebuilt from the CA's common name when a
/// kiosk is enrolled, so the issuer name in a kiosk certificate is the same
/// bytes as the subject of `ca.crt` (which the chain check compares).
fn ca_issuer_params(common_name: &str) -> CertificateParams {
    let mut params = CertificateParams::default();
    params.distinguished_name = distinguished_name(common_name);
    params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    params.key_usages =
        vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
    params
}

/// A short name of the meeting for the CA's common name (what a browser
/// shows): the first 16 hex digits of `DIR/meeting-id` when it exists, else
/// the directory's name.
fn meeting_label(dir: &Path) -> String {
    if let Ok(id) = fs::read_to_string(dir.join("meeting-id")) {
        let id = id.trim();
        if id.len() >= 16 && id.is_ascii() {
            return id[..16].to_string();
        }
    }
    let name = dir.canonicalize().ok().and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()));
    name.unwrap_or_else(|| "meeting".to_string())
}

/// Checks the host names the daemon's certificate will name (DNS names or
/// IP addresses), before anything of a new meeting is written.
pub fn check_host_names(hostnames: &[String]) -> Result<()> {
    server_names(hostnames).map(drop)
}

/// The daemon certificate's names: the given host names (DNS names or IP
/// addresses, checked) plus `localhost`, `127.0.0.1` and `::1`, without
/// repeats, in order.
fn server_names(hostnames: &[String]) -> Result<Vec<String>> {
    let mut names: Vec<String> = Vec::new();
    let always = ["localhost", "127.0.0.1", "::1"];
    for name in hostnames.iter().map(|h| h.trim()).chain(always) {
        let name = name.to_ascii_lowercase();
        let valid = name.parse::<IpAddr>().is_ok()
            || (ServerName::try_from(name.as_str()).is_ok() && !name.starts_with('*'));
        if !valid {
            return Err(PkiError::InvalidHostName { name });
        }
        let name = match name.parse::<IpAddr>() {
            Ok(ip) => ip.to_string(),
            Err(_) => name,
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    Ok(names)
}

/// Creates the venue PKI of the meeting directory `dir` (see the module
/// docs for the files): a self-signed venue CA named `asamblea venue CA
/// <meeting>`, and the daemon's certificate for `hostnames` plus
/// `localhost`, `127.0.0.1` and `::1`. Keys are ECDSA P-256, written with
/// mode 0600. Refuses when `DIR/tls` exists: a second CA would orphan every
/// enrolled kiosk. Call it after the meeting id is written, so the CA names
/// the meeting.
pub fn create_venue_pki(dir: &Path, hostnames: &[String]) -> Result<()> {
    let names = server_names(hostnames)?;
    let tls = tls_dir(dir);
    fs::create_dir_all(dir).map_err(|source| PkiError::Io {
        path: dir.to_path_buf(),
        doing: CREATE_DIR,
        source,
    })?;
    match private_dir_builder().create(&tls) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(PkiError::AlreadyMade { path: tls })
        }
        Err(source) => return Err(PkiError::Io { path: tls, doing: CREATE_DIR, source }),
    }
    let kiosks = tls.join("kiosks");
    private_dir_builder().create(&kiosks).map_err(|source| PkiError::Io {
        path: kiosks.clone(),
        doing: CREATE_DIR,
        source,
    })?;

    let ca_name = format!("asamblea venue CA {}", meeting_label(dir));
    let ca_key = KeyPair::generate().map_err(PkiError::crypto(
        "no se puede generar la clave de la autoridad de certificación / cannot generate the venue CA's key",
    ))?;
    let mut ca_params = ca_issuer_params(&ca_name);
    validity(&mut ca_params, CA_VALIDITY_DAYS);
    let permitted = names
        .iter()
        .map(|name| match name.parse::<IpAddr>() {
            Ok(ip) => GeneralSubtree::IpAddress(CidrSubnet::from_addr_prefix(
                ip,
                if ip.is_ipv4() { 32 } else { 128 },
            )),
            Err(_) => GeneralSubtree::DnsName(name.clone()),
        })
        .collect();
    ca_params.name_constraints =
        Some(NameConstraints { permitted_subtrees: permitted, excluded_subtrees: Vec::new() });
    let ca_cert = ca_params.self_signed(&ca_key).map_err(PkiError::crypto(
        "no se puede hacer el certificado de la autoridad de certificación / cannot make the venue CA's certificate",
    ))?;
    let ca_key_pem = ca_key.serialize_pem();
    let issuer = Issuer::new(ca_params, ca_key);

    let mut server = CertificateParams::new(names.clone())
        .map_err(PkiError::crypto("los nombres de máquina del servicio / the daemon's host names"))?;
    server.distinguished_name = distinguished_name(&names[0]);
    server.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    server.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    server.use_authority_key_identifier_extension = true;
    validity(&mut server, LEAF_VALIDITY_DAYS);
    let server_key = KeyPair::generate().map_err(PkiError::crypto(
        "no se puede generar la clave TLS del servicio / cannot generate the daemon's TLS key",
    ))?;
    let server_cert = server.signed_by(&server_key, &issuer).map_err(PkiError::crypto(
        "no se puede firmar el certificado del servicio / cannot sign the daemon's certificate",
    ))?;

    write_new_file(&tls.join("ca.crt"), &ca_cert.pem(), false)?;
    write_new_file(&tls.join("ca.key"), &ca_key_pem, true)?;
    write_new_file(&tls.join("server.crt"), &server_cert.pem(), false)?;
    write_new_file(&tls.join("server.key"), &server_key.serialize_pem(), true)?;
    write_new_file(&revoked_path(dir), "", false)?;
    Ok(())
}

/// The revoked kiosk ids in `DIR/tls/revoked-kiosks` (none if the file is
/// missing). A line that is not a kiosk id is an error naming the line:
/// better to refuse to start than to forget a revocation.
fn read_revoked(dir: &Path) -> Result<HashSet<String>> {
    let (revoked, mut malformed) = read_revoked_lines(dir)?;
    match malformed.is_empty() {
        true => Ok(revoked),
        false => Err(malformed.remove(0)),
    }
}

/// The well-formed revoked ids of `DIR/tls/revoked-kiosks`, and an error
/// naming each line that is not a kiosk id. Only a file that cannot be
/// read at all is an error.
fn read_revoked_lines(dir: &Path) -> Result<(HashSet<String>, Vec<PkiError>)> {
    let path = revoked_path(dir);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((HashSet::new(), Vec::new())),
        Err(source) => return Err(PkiError::Io { path, doing: READ, source }),
    };
    let mut revoked = HashSet::new();
    let mut malformed = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let id = line.trim();
        if id.is_empty() {
            continue;
        }
        match check_kiosk_id(id) {
            Ok(()) => {
                revoked.insert(id.to_string());
            }
            Err(e) => malformed.push(PkiError::malformed(
                format!("{}, línea / line {}", path.display(), number + 1),
                e.to_string(),
            )),
        }
    }
    Ok((revoked, malformed))
}

/// Enrols the kiosk `kiosk_id`: a client certificate signed by the venue CA
/// with the id as its common name, written to `DIR/tls/kiosks/<id>.crt` and
/// `.key` (mode 0600). Refuses an invalid id, an id already enrolled, and a
/// revoked id (revocation is by id: enrol a replacement under a new one).
pub fn enroll_kiosk(dir: &Path, kiosk_id: &str) -> Result<KioskCredentials> {
    check_kiosk_id(kiosk_id)?;
    let cert_path = enrolment_free(dir, kiosk_id)?;
    let key_path = kiosk_path(dir, kiosk_id, "key");
    let issuer = venue_issuer(dir)?;
    let key = KeyPair::generate().map_err(PkiError::crypto(
        "no se puede generar la clave del quiosco / cannot generate the kiosk's key",
    ))?;
    let cert = leaf_params(kiosk_id).signed_by(&key, &issuer).map_err(PkiError::crypto(
        "no se puede firmar el certificado del quiosco / cannot sign the kiosk's certificate",
    ))?;
    let credentials =
        KioskCredentials { cert_pem: cert.pem(), key_pem: key.serialize_pem(), ca_pem: ca_cert_pem(dir)? };
    // The key first, created exclusively: of two enrolments of one id racing,
    // exactly one gets past here.
    write_new_file(&key_path, &credentials.key_pem, true)?;
    write_new_file(&cert_path, &credentials.cert_pem, false)?;
    Ok(credentials)
}

/// Where kiosk `kiosk_id`'s certificate goes, if the id may be enrolled:
/// not revoked (revocation is by id), not enrolled already.
fn enrolment_free(dir: &Path, kiosk_id: &str) -> Result<PathBuf> {
    if read_revoked(dir)?.contains(kiosk_id) {
        return Err(PkiError::Revoked { kiosk_id: kiosk_id.to_string() });
    }
    let cert_path = kiosk_path(dir, kiosk_id, "crt");
    if cert_path.exists() || kiosk_path(dir, kiosk_id, "key").exists() {
        return Err(PkiError::AlreadyEnrolled { kiosk_id: kiosk_id.to_string(), path: cert_path });
    }
    Ok(cert_path)
}

/// The venue CA as the issuer of kiosk certificates.
fn venue_issuer(dir: &Path) -> Result<Issuer<'static, KeyPair>> {
    let ca_pem = ca_cert_pem(dir)?;
    let ca_path = tls_dir(dir).join("ca.crt").display().to_string();
    let ca_der = CertificateDer::from_pem_slice(ca_pem.as_bytes()).map_err(|e| {
        PkiError::malformed(&ca_path, format!("no es un certificado PEM / not a PEM certificate: {e}"))
    })?;
    let ca_name = common_name(&ca_der).ok_or_else(|| {
        PkiError::malformed(
            &ca_path,
            "el certificado de la autoridad no tiene nombre común / the venue CA's certificate has no common name",
        )
    })?;
    let ca_key_path = tls_dir(dir).join("ca.key");
    let ca_key_pem = fs::read_to_string(&ca_key_path).map_err(PkiError::io(&ca_key_path, READ))?;
    let ca_key = KeyPair::from_pem(&ca_key_pem).map_err(|e| {
        PkiError::malformed(
            ca_key_path.display().to_string(),
            format!("no es una clave privada PEM / not a PEM private key: {e}"),
        )
    })?;
    Ok(Issuer::new(ca_issuer_params(&ca_name), ca_key))
}

/// What a kiosk's certificate says: its id, client authentication only.
fn leaf_params(kiosk_id: &str) -> CertificateParams {
    let mut params = CertificateParams::default();
    params.distinguished_name = distinguished_name(kiosk_id);
    params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
    params.use_authority_key_identifier_extension = true;
    validity(&mut params, LEAF_VALIDITY_DAYS);
    params
}

/// A kiosk's own key and its certificate request, made on the kiosk: the
/// key (PEM, to keep there, mode 0600) and the request (PKCS#10, PEM,
/// CN = `kiosk_id`, signed by that key), the only thing that leaves.
pub fn kiosk_request(kiosk_id: &str) -> Result<(String, String)> {
    check_kiosk_id(kiosk_id)?;
    let key = KeyPair::generate().map_err(PkiError::crypto(
        "no se puede generar la clave del quiosco / cannot generate the kiosk's key",
    ))?;
    let mut params = CertificateParams::default();
    params.distinguished_name = distinguished_name(kiosk_id);
    let request = params.serialize_request(&key).map_err(PkiError::crypto(
        "no se puede escribir la solicitud de certificado / cannot write the certificate request",
    ))?;
    let pem = request.pem().map_err(PkiError::crypto(
        "no se puede escribir la solicitud de certificado en PEM / cannot write the certificate request as PEM",
    ))?;
    Ok((key.serialize_pem(), pem))
}

/// Signs kiosk `kiosk_id`'s certificate request with the venue CA and
/// writes the certificate to `DIR/tls/kiosks/<id>.crt` (there is no key
/// here: it stayed on the kiosk). Refuses a request that does not parse or
/// whose signature does not verify (a request altered on its way), one
/// made for another id, an id already enrolled and a revoked one. The
/// certificate is the one [`enroll_kiosk`] makes: only the CA chooses what
/// it says; the request gives only its public key.
pub fn sign_kiosk_request(dir: &Path, kiosk_id: &str, request_pem: &str) -> Result<KioskCredentials> {
    check_kiosk_id(kiosk_id)?;
    let request = rcgen::CertificateSigningRequestParams::from_pem(request_pem)
        .map_err(|e| PkiError::BadRequest { reason: e.to_string() })?;
    let asked = request.params.distinguished_name.get(&DnType::CommonName).map(dn_text).unwrap_or_default();
    if asked != kiosk_id {
        return Err(PkiError::RequestForAnother { asked, kiosk_id: kiosk_id.to_string() });
    }
    let cert_path = enrolment_free(dir, kiosk_id)?;
    let issuer = venue_issuer(dir)?;
    let cert = leaf_params(kiosk_id).signed_by(&request.public_key, &issuer).map_err(PkiError::crypto(
        "no se puede firmar el certificado del quiosco / cannot sign the kiosk's certificate",
    ))?;
    let credentials =
        KioskCredentials { cert_pem: cert.pem(), key_pem: String::new(), ca_pem: ca_cert_pem(dir)? };
    write_new_file(&cert_path, &credentials.cert_pem, false)?;
    Ok(credentials)
}

/// A distinguished name's value as text.
fn dn_text(value: &rcgen::DnValue) -> String {
    match value {
        rcgen::DnValue::Utf8String(s) => s.clone(),
        rcgen::DnValue::PrintableString(s) => s.as_str().to_string(),
        rcgen::DnValue::Ia5String(s) => s.as_str().to_string(),
        other => format!("{other:?}"),
    }
}

/// Revokes the kiosk `kiosk_id`: appends it to `DIR/tls/revoked-kiosks`
/// (durably) unless it is there already. Refuses an id that was never
/// enrolled. A running daemon learns of it through
/// [`KioskRegistry::revoke`] (which calls this) or [`KioskRegistry::reload`].
pub fn revoke_kiosk(dir: &Path, kiosk_id: &str) -> Result<()> {
    check_kiosk_id(kiosk_id)?;
    if !kiosk_path(dir, kiosk_id, "crt").exists() {
        return Err(PkiError::NotEnrolled { kiosk_id: kiosk_id.to_string(), dir: dir.to_path_buf() });
    }
    if read_revoked(dir)?.contains(kiosk_id) {
        return Ok(());
    }
    let path = revoked_path(dir);
    let mut file = fs::OpenOptions::new().append(true).create(true).open(&path).map_err(|source| {
        PkiError::Io { path: path.clone(), doing: "no se puede abrir / cannot open", source }
    })?;
    file.write_all(format!("{kiosk_id}\n").as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|source| PkiError::Io { path: path.clone(), doing: WRITE, source })?;
    Ok(())
}

/// What [`KioskRegistry::reload`] did.
#[derive(Debug)]
pub struct Reloaded {
    /// The kiosks revoked now, in all.
    pub revoked: usize,
    /// Each line of the file that is not a kiosk id, naming it: revoked
    /// nothing, and must be fixed.
    pub malformed: Vec<PkiError>,
}

/// The set of revoked kiosks, shared by the daemon's handlers and the
/// serving layer. Cheap to clone (an `Arc`).
///
/// It is loaded from `DIR/tls/revoked-kiosks` at start. [`revoke`](Self::revoke)
/// writes the file and updates the set at once; [`reload`](Self::reload)
/// re-reads the file after another process (the CLI) changed it. The serving
/// layer asks [`is_revoked`](Self::is_revoked) on every request.
#[derive(Clone, Debug)]
pub struct KioskRegistry {
    /// The meeting directory, whose `tls/revoked-kiosks` this mirrors.
    dir: PathBuf,
    /// The revoked ids. A std lock: held only to look up or swap, never
    /// across an `.await`.
    revoked: Arc<RwLock<HashSet<String>>>,
}

impl KioskRegistry {
    /// Loads the revoked kiosks of the meeting directory `dir`.
    pub fn load(dir: &Path) -> Result<KioskRegistry> {
        let revoked = read_revoked(dir)?;
        Ok(KioskRegistry { dir: dir.to_path_buf(), revoked: Arc::new(RwLock::new(revoked)) })
    }

    /// Re-reads `DIR/tls/revoked-kiosks` on a running daemon, failing
    /// towards revoking: every well-formed id in it is revoked at once,
    /// even when other lines are malformed (each reported in
    /// [`Reloaded::malformed`], for the caller to say loudly), so a kiosk
    /// revoked in the same edit as a typo never keeps voting; and no id
    /// revoked before is given back, even if its line was taken out
    /// (the list is append-only; a restart reads it as it is). Only a
    /// file that cannot be read at all is an error, and then nothing
    /// changes.
    pub fn reload(&self) -> Result<Reloaded> {
        let (read, malformed) = read_revoked_lines(&self.dir)?;
        let mut revoked = self.revoked.write().unwrap_or_else(PoisonError::into_inner);
        revoked.extend(read);
        Ok(Reloaded { revoked: revoked.len(), malformed })
    }

    /// Revokes a kiosk ([`revoke_kiosk`]) and refuses it from the next
    /// request on, also on its open connections.
    pub fn revoke(&self, kiosk_id: &str) -> Result<()> {
        revoke_kiosk(&self.dir, kiosk_id)?;
        self.revoked.write().unwrap_or_else(PoisonError::into_inner).insert(kiosk_id.to_string());
        Ok(())
    }

    /// Whether the kiosk is revoked.
    pub fn is_revoked(&self, kiosk_id: &str) -> bool {
        self.revoked.read().unwrap_or_else(PoisonError::into_inner).contains(kiosk_id)
    }
}

/// The crypto provider for every config: ring (builds with a C compiler
/// alone), passed explicitly so nothing depends on a process default.
fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

const VERSIONS: &[&rustls::SupportedProtocolVersion] = &[&rustls::version::TLS13, &rustls::version::TLS12];

fn parse_certs(pem: &[u8], what: &str) -> Result<Vec<CertificateDer<'static>>> {
    let certs = CertificateDer::pem_slice_iter(pem).collect::<Result<Vec<_>, _>>().map_err(|e| {
        PkiError::malformed(what, format!("no son certificados PEM / not PEM certificates: {e}"))
    })?;
    if certs.is_empty() {
        return Err(PkiError::malformed(what, "no trae ningún certificado / no certificate found"));
    }
    Ok(certs)
}

fn roots(ca_pem: &[u8], what: &str) -> Result<Arc<RootCertStore>> {
    let mut roots = RootCertStore::empty();
    for cert in parse_certs(ca_pem, what)? {
        roots.add(cert).map_err(|e| {
            PkiError::malformed(
                what,
                format!("no es un certificado de autoridad utilizable / not a usable CA certificate: {e}"),
            )
        })?;
    }
    Ok(Arc::new(roots))
}

/// What a TLS configuration is made with: both ends ask for the same.
const TLS_VERSIONS: &str = "las versiones de TLS / TLS versions";

/// The daemon's TLS configuration from `DIR/tls`: TLS 1.3 and 1.2, ALPN
/// `http/1.1` only, the daemon's certificate, and client certificates
/// optional but verified against the venue CA when presented.
pub fn server_config(dir: &Path) -> Result<Arc<ServerConfig>> {
    let tls = tls_dir(dir);
    let read = |name: &str| -> Result<Vec<u8>> {
        let path = tls.join(name);
        fs::read(&path).map_err(PkiError::io(&path, READ))
    };
    let provider = provider();
    let verifier =
        WebPkiClientVerifier::builder_with_provider(roots(&read("ca.crt")?, "tls/ca.crt")?, provider.clone())
            .allow_unauthenticated()
            .build()
            .map_err(PkiError::crypto(
                "no se puede hacer el verificador de certificados de cliente / cannot build the client-certificate verifier",
            ))?;
    let chain = parse_certs(&read("server.crt")?, "tls/server.crt")?;
    let key = PrivateKeyDer::from_pem_slice(&read("server.key")?).map_err(|e| {
        PkiError::malformed(
            "tls/server.key",
            format!("no es una clave privada PEM / not a PEM private key: {e}"),
        )
    })?;
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(VERSIONS)
        .map_err(PkiError::crypto(TLS_VERSIONS))?
        .with_client_cert_verifier(verifier)
        .with_single_cert(chain, key)
        .map_err(PkiError::crypto(
            "tls/server.crt y tls/server.key no forman un par utilizable / tls/server.crt and tls/server.key do not make a usable pair",
        ))?;
    config.alpn_protocols = vec![ALPN_HTTP_1_1.to_vec()];
    Ok(Arc::new(config))
}

/// A client configuration that trusts the venue CA `ca_pem` and, given
/// `client = Some((cert_pem, key_pem))`, presents that client certificate:
/// for tests, the bench and the kiosk. TLS 1.3 and 1.2, ALPN `http/1.1`.
pub fn client_config(ca_pem: &str, client: Option<(&str, &str)>) -> Result<ClientConfig> {
    let builder = ClientConfig::builder_with_provider(provider())
        .with_protocol_versions(VERSIONS)
        .map_err(PkiError::crypto(TLS_VERSIONS))?
        .with_root_certificates(roots(ca_pem.as_bytes(), "la autoridad de certificación / the venue CA")?);
    let mut config = match client {
        None => builder.with_no_client_auth(),
        Some((cert_pem, key_pem)) => {
            let chain =
                parse_certs(cert_pem.as_bytes(), "el certificado del cliente / the client certificate")?;
            let key = PrivateKeyDer::from_pem_slice(key_pem.as_bytes()).map_err(|e| {
                PkiError::malformed(
                    "la clave del cliente / the client key",
                    format!("no es una clave privada PEM / not a PEM private key: {e}"),
                )
            })?;
            builder.with_client_auth_cert(chain, key).map_err(PkiError::crypto(
                "el certificado y la clave del cliente no forman un par utilizable / the client certificate and key do not make a usable pair",
            ))?
        }
    };
    config.alpn_protocols = vec![ALPN_HTTP_1_1.to_vec()];
    Ok(config)
}

/// Splits the first DER element off `input`: its tag, its contents and the
/// rest. Single-byte tags and definite lengths only, which is all X.509 uses
/// on the way to the subject.
fn der_element(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (length, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let length = rest[..count].iter().fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        (length, &rest[count..])
    };
    if rest.len() < length {
        return None;
    }
    Some((tag, &rest[..length], &rest[length..]))
}

/// The subject's common name of a DER certificate, if it has one (UTF8String
/// or PrintableString). Only called on certificates that rustls has already
/// verified, or on our own CA's.
pub fn common_name(cert_der: &[u8]) -> Option<String> {
    const SEQUENCE: u8 = 0x30;
    const SET: u8 = 0x31;
    const OID: u8 = 0x06;
    const VERSION: u8 = 0xa0;
    const COMMON_NAME: [u8; 3] = [0x55, 0x04, 0x03]; // 2.5.4.3
    let (SEQUENCE, certificate, _) = der_element(cert_der)? else { return None };
    let (SEQUENCE, tbs, _) = der_element(certificate)? else { return None };
    let mut rest = tbs;
    if der_element(rest)?.0 == VERSION {
        rest = der_element(rest)?.2;
    }
    // serialNumber, signature, issuer, validity, then the subject.
    for _ in 0..4 {
        rest = der_element(rest)?.2;
    }
    let (SEQUENCE, mut subject, _) = der_element(rest)? else { return None };
    while !subject.is_empty() {
        let (SET, mut relative_name, next) = der_element(subject)? else { return None };
        subject = next;
        while !relative_name.is_empty() {
            let (SEQUENCE, attribute, next) = der_element(relative_name)? else { return None };
            relative_name = next;
            let (OID, oid, value) = der_element(attribute)? else { return None };
            if oid == COMMON_NAME {
                let (tag, text, _) = der_element(value)?;
                return match tag {
                    0x0c | 0x13 => String::from_utf8(text.to_vec()).ok(),
                    _ => None,
                };
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio_rustls::TlsAcceptor;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("asamblea-tls-unit-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn kiosk_ids_are_letters_digits_and_dashes_up_to_32() {
        for good in ["k", "kiosk-01", "A-z-9", &"x".repeat(32)] {
            assert!(check_kiosk_id(good).is_ok(), "{good:?} should be accepted");
        }
        for bad in ["", "kiosk_01", "kiosk 1", "../x", "kiosk.1", "kiosco-ñ", &"x".repeat(33), "a\nb"] {
            let error = check_kiosk_id(bad).expect_err(bad).to_string();
            assert!(error.contains("kiosk id"), "{error}");
        }
    }

    #[test]
    fn refusals_say_what_to_do_spanish_first_and_are_told_apart_from_failures() {
        let dir = temp("refusals");
        let missing = ca_cert_pem(&dir).unwrap_err();
        assert!(matches!(missing, PkiError::Missing { .. }) && !missing.is_refusal(), "{missing:?}");
        assert!(missing.to_string().contains("no se encuentra"), "{missing}");
        create_venue_pki(&dir, &[]).unwrap();
        let again = create_venue_pki(&dir, &[]).unwrap_err();
        assert!(matches!(again, PkiError::AlreadyMade { .. }) && again.is_refusal(), "{again:?}");

        let never = revoke_kiosk(&dir, "K1").unwrap_err();
        assert!(matches!(never, PkiError::NotEnrolled { .. }) && never.is_refusal(), "{never:?}");
        assert!(never.to_string().starts_with("no hay un quiosco K1 inscrito en "), "{never}");
        enroll_kiosk(&dir, "K1").unwrap();
        let twice = enroll_kiosk(&dir, "K1").unwrap_err();
        assert!(matches!(twice, PkiError::AlreadyEnrolled { .. }) && twice.is_refusal(), "{twice:?}");
        assert!(twice.to_string().starts_with("el quiosco K1 ya está inscrito"), "{twice}");
        revoke_kiosk(&dir, "K1").unwrap();
        fs::remove_file(kiosk_path(&dir, "K1", "crt")).unwrap();
        fs::remove_file(kiosk_path(&dir, "K1", "key")).unwrap();
        let revoked = enroll_kiosk(&dir, "K1").unwrap_err();
        assert!(matches!(revoked, PkiError::Revoked { .. }) && revoked.is_refusal(), "{revoked:?}");
        let said = revoked.to_string();
        assert!(said.find("fue revocado").unwrap() < said.find("was revoked").unwrap(), "{said}");

        let (_, request) = kiosk_request("K2").unwrap();
        let other = sign_kiosk_request(&dir, "K3", &request).unwrap_err();
        assert!(matches!(other, PkiError::RequestForAnother { .. }) && other.is_refusal(), "{other:?}");
        let garbage = sign_kiosk_request(&dir, "K2", "not a request").unwrap_err();
        assert!(matches!(garbage, PkiError::BadRequest { .. }) && garbage.is_refusal(), "{garbage:?}");
        assert!(garbage.to_string().starts_with("no es una solicitud de certificado válida"), "{garbage}");

        // A revocation list with a line that is no kiosk id: refused, naming
        // the file and the line (forgetting a revocation is worse).
        fs::write(revoked_path(&dir), "K1\nnot an id\n").unwrap();
        let list = KioskRegistry::load(&dir).unwrap_err();
        assert!(matches!(list, PkiError::Malformed { .. }) && !list.is_refusal(), "{list:?}");
        assert!(
            list.to_string().contains("revoked-kiosks, línea / line 2: el identificador de quiosco"),
            "{list}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A revocation list fails towards revoking: on a running daemon a
    /// malformed line never keeps the previous list, so a kiosk revoked in
    /// the same edit is refused at once; the line is reported, naming it;
    /// and no edit of the file gives a revoked kiosk its place back.
    #[test]
    fn a_reload_applies_every_well_formed_revocation_and_reports_the_malformed_lines() {
        let dir = temp("reload");
        create_venue_pki(&dir, &[]).unwrap();
        fs::write(revoked_path(&dir), "K1\n").unwrap();
        let registry = KioskRegistry::load(&dir).unwrap();
        assert!(registry.is_revoked("K1") && !registry.is_revoked("K2"));
        // One edit: a typo on one line, and K2 revoked on the next.
        fs::write(revoked_path(&dir), "K1\nK 3 ;\nK2\n").unwrap();
        let reloaded = registry.reload().expect("the file was read");
        assert!(registry.is_revoked("K2"), "K2, revoked in the same edit as the typo, still votes");
        assert!(registry.is_revoked("K1"));
        assert_eq!(reloaded.malformed.len(), 1, "{reloaded:?}");
        let said = reloaded.malformed[0].to_string();
        assert!(said.contains("revoked-kiosks, línea / line 2"), "{said}");
        // A line taken out by hand does not bring K1 back while the daemon runs.
        fs::write(revoked_path(&dir), "K2\n").unwrap();
        assert!(registry.reload().unwrap().malformed.is_empty());
        assert!(registry.is_revoked("K1") && registry.is_revoked("K2"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_common_name_is_read_from_certificates_and_their_absence_is_none() {
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::default();
        params.distinguished_name = DistinguishedName::new();
        params.distinguished_name.push(DnType::OrganizationName, "asamblea");
        params.distinguished_name.push(DnType::CommonName, "kiosk-7");
        let cert = params.self_signed(&key).unwrap();
        assert_eq!(common_name(cert.der()).as_deref(), Some("kiosk-7"));

        params.distinguished_name = distinguished_name("Junta de Socios ñ");
        let cert = params.self_signed(&key).unwrap();
        assert_eq!(common_name(cert.der()).as_deref(), Some("Junta de Socios ñ"));

        params.distinguished_name = DistinguishedName::new();
        params.distinguished_name.push(DnType::OrganizationName, "no common name");
        let cert = params.self_signed(&key).unwrap();
        assert_eq!(common_name(cert.der()), None);

        // Truncated input never panics, and yields nothing.
        let der = cert.der().to_vec();
        for cut in 0..der.len() {
            assert_eq!(common_name(&der[..cut]), None, "cut at {cut}");
        }
    }

    #[test]
    fn server_names_always_cover_loopback_and_refuse_junk() {
        let names = server_names(&["Urna.Local".into(), "192.168.1.10".into(), "localhost".into()]).unwrap();
        assert_eq!(names, ["urna.local", "192.168.1.10", "localhost", "127.0.0.1", "::1"]);
        for bad in ["two words", "*.local", "", "exa_mple..com"] {
            assert!(server_names(&[bad.to_string()]).is_err(), "{bad:?} should be refused");
        }
    }

    /// The CA's name constraints: a certificate it signs for a host name the
    /// venue did not list is refused by a client that trusts the CA.
    #[tokio::test]
    async fn the_venue_ca_cannot_vouch_for_other_sites() {
        let dir = temp("constraints");
        create_venue_pki(&dir, &["urna.local".into()]).unwrap();
        let ca_pem = ca_cert_pem(&dir).unwrap();
        let ca_der = CertificateDer::from_pem_slice(ca_pem.as_bytes()).unwrap();
        let ca_key = KeyPair::from_pem(&fs::read_to_string(dir.join("tls/ca.key")).unwrap()).unwrap();
        let issuer = Issuer::new(ca_issuer_params(&common_name(&ca_der).unwrap()), ca_key);

        for (host, accepted) in [("urna.local", true), ("bank.example", false)] {
            let mut params = CertificateParams::new(vec![host.to_string()]).unwrap();
            params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
            let key = KeyPair::generate().unwrap();
            let cert = params.signed_by(&key, &issuer).unwrap();
            let server = ServerConfig::builder_with_provider(provider())
                .with_protocol_versions(VERSIONS)
                .unwrap()
                .with_no_client_auth()
                .with_single_cert(
                    vec![cert.der().clone()],
                    PrivateKeyDer::try_from(key.serialize_der()).unwrap(),
                )
                .unwrap();
            let client = client_config(&ca_pem, None).unwrap();

            let (client_io, server_io) = tokio::io::duplex(64 * 1024);
            let server_side =
                tokio::spawn(async move { TlsAcceptor::from(Arc::new(server)).accept(server_io).await });
            let connected = tokio_rustls::TlsConnector::from(Arc::new(client))
                .connect(ServerName::try_from(host.to_string()).unwrap(), client_io)
                .await;
            assert_eq!(connected.is_ok(), accepted, "{host}: {:?}", connected.err());
            drop(connected);
            let _ = server_side.await;
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
