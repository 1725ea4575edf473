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
//! - this file: the files above and their rules (kiosk ids, host names),
//!   certificate making with `rcgen`, the revocation list;
//! - `error`: [`PkiError`];
//! - `config`: the two rustls configurations and the [`KioskRegistry`];
//! - `der`: a minimal DER reader for the subject's common name.

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

mod config;
mod der;
mod error;
mod etcd;
#[cfg(test)]
mod tests;

pub use config::{
    certifies_host, client_config, public_server_config, server_config, KioskRegistry, Reloaded,
};
pub use der::common_name;
pub use error::PkiError;
use error::{Result, CREATE, CREATE_DIR, READ, WRITE};
pub use etcd::{create_etcd_pki, etcd_client_config};

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
