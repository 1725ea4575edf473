//! The kiosk's folder: what makes a machine a kiosk of one meeting.
//!
//! ```text
//! CARPETA/kiosk.key        the device key (PEM, mode 0600): made here by
//!                          `asamblea-kiosk enroll`, never leaves the kiosk
//! CARPETA/solicitud.csr    its certificate request (PKCS#10): what leaves
//! CARPETA/kiosk.crt        the certificate the venue CA signed (from the desk)
//! CARPETA/ca.crt           the venue CA (from the desk)
//! CARPETA/kiosk.toml       the daemon's address, the meeting, the daemon's key
//! CARPETA/votacion-en-curso  while an attendee votes: what a restart must
//!                          say (no secret: item ids and ballot digests)
//! ```
//!
//! The desk writes `kiosk.crt`, `ca.crt` and `kiosk.toml` beside the
//! request (`asamblea kiosk REUNION ID --csr solicitud.csr`); they are
//! copied back into the folder. The demo's shortcut (`asamblea kiosk
//! REUNION ID --out CARPETA`) writes the whole folder on the daemon's side,
//! key included.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use asamblea_wire::{MeetingId, PublicKey};
use rustls::ClientConfig;
use serde::{Deserialize, Serialize};

/// The device key.
pub const KEY: &str = "kiosk.key";
/// The certificate request.
pub const REQUEST: &str = "solicitud.csr";
/// The certificate.
pub const CERT: &str = "kiosk.crt";
/// The venue CA.
pub const CA: &str = "ca.crt";
/// The settings.
pub const SETTINGS: &str = "kiosk.toml";
/// The mark of a vote in progress.
pub const IN_PROGRESS: &str = "votacion-en-curso";

/// `kiosk.toml`: written by the desk, read by the kiosk.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The kiosk's id (its certificate's common name).
    pub kiosk: String,
    /// The daemon's address, `HOST:PORT` or `IP:PORT`; a replicated
    /// meeting's nodes, separated by commas (the kiosk goes to the next
    /// when one does not answer, `docs/replication.md`).
    pub daemon: String,
    /// The meeting's id (hex).
    pub meeting: String,
    /// The daemon's public key (hex): every receipt is checked against it;
    /// a replicated meeting's nodes' keys, separated by commas (a receipt
    /// signed by any of them is the meeting's).
    pub daemon_key: String,
    /// The public board's address, for the receipt's QR
    /// (`https://HOST:PORT`).
    pub board: String,
}

impl Settings {
    /// As `kiosk.toml`: each value a TOML string.
    pub fn to_toml(&self) -> String {
        let quoted = |s: &str| toml::Value::String(s.to_string()).to_string();
        format!(
            "# Quiosco de votación / voting kiosk: escrito por la mesa de registro / written by the desk\nkiosk = {}\ndaemon = {}\nmeeting = {}\ndaemon_key = {}\nboard = {}\n",
            quoted(&self.kiosk),
            quoted(&self.daemon),
            quoted(&self.meeting),
            quoted(&self.daemon_key),
            quoted(&self.board)
        )
    }

    /// The daemon's addresses as written: one, or a replicated meeting's
    /// nodes in the order written. Each is resolved when it is tried
    /// ([`Settings::resolve`]): a node whose name no longer resolves (its
    /// machine gone from the network) never keeps the kiosk from the next.
    pub fn daemon_entries(&self) -> Vec<&str> {
        self.daemon.split(',').map(str::trim).collect()
    }

    /// One of [`Settings::daemon_entries`] resolved, with the name its
    /// certificate must carry (the host as written).
    pub fn resolve(daemon: &str) -> Result<(SocketAddr, String)> {
        use std::net::ToSocketAddrs;
        let addr = daemon
            .to_socket_addrs()
            .with_context(|| format!("{SETTINGS}: daemon = \"{daemon}\" no es una dirección (HOST:PUERTO) / is not an address (HOST:PORT)"))?
            .next()
            .with_context(|| format!("{SETTINGS}: daemon = \"{daemon}\" no corresponde a ninguna dirección; revise la red y el nombre / resolves to nothing"))?;
        let host = match daemon.rsplit_once(':') {
            Some((host, _)) => host.trim_start_matches('[').trim_end_matches(']').to_string(),
            None => daemon.to_string(),
        };
        Ok((addr, host))
    }

    /// The meeting id.
    pub fn meeting_id(&self) -> Result<MeetingId> {
        MeetingId::from_hex(&self.meeting)
            .with_context(|| format!(
                "{SETTINGS}: meeting = \"{}\" no es un identificador de reunión; pida a la mesa un kiosk.toml nuevo / is not a meeting id",
                self.meeting
            ))
    }

    /// The daemon's keys: one, or a replicated meeting's nodes'.
    pub fn daemon_public_keys(&self) -> Result<Vec<PublicKey>> {
        self.daemon_key
            .split(',')
            .map(str::trim)
            .map(|key| {
                PublicKey::from_hex(key).with_context(|| {
                    format!(
                        "{SETTINGS}: daemon_key = \"{key}\" no es una clave; pida a la mesa un kiosk.toml nuevo / is not a key"
                    )
                })
            })
            .collect()
    }
}

/// A kiosk's folder, read and checked.
pub struct Folder {
    /// Where it is.
    pub dir: PathBuf,
    /// `kiosk.toml`.
    pub settings: Settings,
    /// The meeting.
    pub meeting: MeetingId,
    /// The daemon's keys (a replicated meeting's nodes').
    pub daemon_keys: Vec<PublicKey>,
    /// Mutual TLS to the daemon: the venue CA, the kiosk's certificate and
    /// key.
    pub tls: Arc<ClientConfig>,
}

impl Folder {
    /// Reads the folder of an enrolled kiosk; each error names its file
    /// and says what to do.
    pub fn open(dir: &Path) -> Result<Folder> {
        let read = |name: &str| -> Result<String> {
            std::fs::read_to_string(dir.join(name)).with_context(|| {
                format!(
                    "{}: no se puede leer {name} / cannot read it; ¿se inscribió el quiosco? (asamblea-kiosk enroll, y los archivos del registro / was the kiosk enrolled?)",
                    dir.join(name).display()
                )
            })
        };
        let settings: Settings = toml::from_str(&read(SETTINGS)?).with_context(|| {
            format!(
                "{}: la configuración del quiosco no es válida / not valid kiosk settings",
                dir.join(SETTINGS).display()
            )
        })?;
        let meeting = settings.meeting_id()?;
        let daemon_keys = settings.daemon_public_keys()?;
        let (ca, cert, key) = (read(CA)?, read(CERT)?, read(KEY)?);
        let tls = asamblea_pki::client_config(&ca, Some((&cert, &key)))
            .with_context(|| format!("{}: el certificado, la clave o la CA del quiosco no cargan; inscríbalo de nuevo / the kiosk's certificate, key or CA do not load", dir.display()))?;
        Ok(Folder { dir: dir.to_path_buf(), settings, meeting, daemon_keys, tls: Arc::new(tls) })
    }
}

/// `asamblea-kiosk enroll`: makes the kiosk's key here (mode 0600) and its
/// certificate request; the request's SHA-256, to read out at the desk.
/// Refuses a folder that already holds a key: a kiosk is enrolled once.
pub fn enroll(dir: &Path, kiosk_id: &str) -> Result<(PathBuf, String)> {
    std::fs::create_dir_all(dir).with_context(|| {
        format!("{}: no se puede crear la carpeta / cannot create the folder", dir.display())
    })?;
    let key_path = dir.join(KEY);
    if key_path.exists() {
        bail!(
            "{}: este quiosco ya tiene clave / this kiosk already has a key; para inscribirlo de nuevo use otra carpeta y otro identificador / to enrol again, use another folder and id",
            key_path.display()
        );
    }
    let (key, request) = asamblea_pki::kiosk_request(kiosk_id)?;
    write_private(&key_path, key.as_bytes())?;
    let request_path = dir.join(REQUEST);
    std::fs::write(&request_path, &request)
        .with_context(|| format!("{}: no se puede escribir / cannot write", request_path.display()))?;
    Ok((request_path, asamblea_wire::Digest::sha256(request.as_bytes()).to_string()))
}

/// Writes a file only its owner reads (mode 0600 from the start), new:
/// the kiosk's own, as it links no `asamblea-venue` (whose
/// `secrets::write_private_new` the desk uses).
fn write_private(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options
        .open(path)
        .with_context(|| format!("{}: no se puede crear / cannot create", path.display()))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("{}: no se puede escribir / cannot write", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_back_as_written_even_with_quotes() {
        let settings = Settings {
            kiosk: "K1".into(),
            daemon: "urna.local:8443".into(),
            meeting: "ab".repeat(32),
            daemon_key: "cd".repeat(32),
            board: "https://urna.local:8443/\"x\"".into(),
        };
        assert_eq!(toml::from_str::<Settings>(&settings.to_toml()).unwrap(), settings);
        assert!(
            toml::from_str::<Settings>("kiosk = \"K1\"\nextra = 1\n").is_err(),
            "unknown keys are refused"
        );
    }

    #[test]
    fn a_replicated_meetings_nodes_are_read_in_order_and_a_bad_one_is_named() {
        let with = |daemon: &str| Settings {
            kiosk: "K1".into(),
            daemon: daemon.into(),
            meeting: "ab".repeat(32),
            daemon_key: "cd".repeat(32),
            board: "https://urna.local:8443/".into(),
        };
        let resolved = |daemon: &str| -> Vec<Result<(SocketAddr, String)>> {
            with(daemon).daemon_entries().into_iter().map(Settings::resolve).collect()
        };
        let one: Vec<_> = resolved("127.0.0.1:8443").into_iter().map(Result::unwrap).collect();
        assert_eq!(one, [("127.0.0.1:8443".parse().unwrap(), "127.0.0.1".to_string())]);
        let three = resolved("10.20.0.11:8443, 10.20.0.12:8443,[::1]:9000");
        assert_eq!(
            three.into_iter().map(|r| r.map(|(a, h)| format!("{a} {h}")).unwrap()).collect::<Vec<_>>(),
            ["10.20.0.11:8443 10.20.0.11", "10.20.0.12:8443 10.20.0.12", "[::1]:9000 ::1"]
        );
        // A bad one is named, and the others still resolve.
        let [good, bad] = <[_; 2]>::try_from(resolved("10.20.0.11:8443,urna")).ok().unwrap();
        assert!(good.is_ok());
        let bad = bad.unwrap_err().to_string();
        assert!(bad.contains("daemon = \"urna\" no es una dirección"), "{bad}");
    }

    #[test]
    fn enrolment_makes_the_key_here_once_and_only_the_request_is_for_the_desk() {
        let dir = std::env::temp_dir().join(format!("asamblea-kiosk-enroll-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (request, fingerprint) = enroll(&dir, "K1").unwrap();
        assert_eq!(fingerprint.len(), 64);
        let pem = std::fs::read_to_string(&request).unwrap();
        assert!(pem.starts_with("-----BEGIN CERTIFICATE REQUEST-----") && !pem.contains("PRIVATE KEY"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join(KEY)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "the key is the owner's only");
        }
        let again = enroll(&dir, "K1").unwrap_err().to_string();
        assert!(again.contains("ya tiene clave"), "{again}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
