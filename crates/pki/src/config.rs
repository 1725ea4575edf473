//! The two rustls configurations (the daemon's, a kiosk's) and the
//! registry of revoked kiosks the serving layer consults on every request.

use super::*;

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
pub(crate) fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

pub(crate) const VERSIONS: &[&rustls::SupportedProtocolVersion] =
    &[&rustls::version::TLS13, &rustls::version::TLS12];

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

/// The TLS configuration of the daemon's internet listener (`serve
/// --public-listen`): the certificate chain `cert` and its key `key`, in
/// PEM, that the company obtained from a public authority for its public
/// address (or, behind a reverse proxy, any certificate the proxy trusts).
/// No client certificate is asked for: kiosks and staff never use this
/// listener. TLS 1.3 and 1.2, ALPN `http/1.1`, as the venue listener.
pub fn public_server_config(cert: &Path, key: &Path) -> Result<Arc<ServerConfig>> {
    let read = |path: &Path| fs::read(path).map_err(PkiError::io(path, READ));
    let chain = parse_certs(&read(cert)?, &cert.display().to_string())?;
    let key_der = PrivateKeyDer::from_pem_slice(&read(key)?).map_err(|e| {
        PkiError::malformed(
            key.display().to_string(),
            format!("no es una clave privada PEM / not a PEM private key: {e}"),
        )
    })?;
    let mut config = ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(VERSIONS)
        .map_err(PkiError::crypto(TLS_VERSIONS))?
        .with_no_client_auth()
        .with_single_cert(chain, key_der)
        .map_err(PkiError::crypto(
            "el certificado público y su clave no forman un par utilizable (¿son del mismo pedido?) / the public certificate and its key do not make a usable pair (are they from the same request?)",
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

/// Whether the daemon's certificate (`DIR/tls/server.crt`, signed by the
/// venue CA) is valid for `host` (a DNS name or an IP address): a browser
/// that trusts the venue CA reaches the daemon there. The addresses the
/// pages may follow to in a replicated meeting are those alone, so that
/// an address written by another (in etcd) cannot lead a console to a
/// page the venue did not certify.
pub fn certifies_host(dir: &Path, host: &str) -> bool {
    let tls = tls_dir(dir);
    let (Ok(ca), Ok(server)) = (fs::read(tls.join("ca.crt")), fs::read(tls.join("server.crt"))) else {
        return false;
    };
    let (Ok(roots), Ok(chain)) = (roots(&ca, "ca.crt"), parse_certs(&server, "server.crt")) else {
        return false;
    };
    let Ok(name) = rustls::pki_types::ServerName::try_from(host.to_string()) else { return false };
    let Ok(verifier) = rustls::client::WebPkiServerVerifier::builder_with_provider(roots, provider()).build()
    else {
        return false;
    };
    use rustls::client::danger::ServerCertVerifier;
    verifier
        .verify_server_cert(&chain[0], &chain[1..], &name, &[], rustls::pki_types::UnixTime::now())
        .is_ok()
}
