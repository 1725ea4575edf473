//! Secrets on disk and fresh randomness: the one place that draws seeds,
//! writes or reads a key file, and makes the owner-only files and folders
//! of a meeting directory, for the meeting and the staff accounts alike.
//!
//! Modes are set explicitly (0600 files, 0700 folders), whatever the
//! process's umask: a badge's QR is an attendee's signing seed, the
//! register holds names and cédulas, and the ledger every ballot.
//!
//! # The key folder
//!
//! The signing seeds of a meeting — the daemon's, each staff member's —
//! and the registration desk's token for a running daemon are kept *outside*
//! the meeting directory, in its key folder ([`key_folder`]):
//! `$ASAMBLEA_KEYS/<meeting id>` when that variable is set, else
//! `$XDG_CONFIG_HOME/asamblea/keys/<meeting id>`, else
//! `~/.config/asamblea/keys/<meeting id>` (owner-only, 0700). So a copy of
//! the meeting directory — a backup, the folder handed to the secretary or
//! an auditor, a USB stick — carries the ledger, the register and the
//! public keys, and nothing that can sign an event. Whoever can read the
//! key folder (the account that runs the daemon, the host's
//! administrator) can sign as the daemon and the staff: that is the
//! residual risk, stated in `docs/threat-model.md`.

use std::fs;
use std::path::{Path, PathBuf};

use asamblea_wire::hex::encode as hex;
use asamblea_wire::MeetingId;

use crate::error::{VenueError, CREATE, READ, WRITE};

/// What this module's functions return.
type Result<T> = std::result::Result<T, VenueError>;

/// The environment variable naming the folder that holds the key folders
/// of every meeting.
pub const KEYS_ENV: &str = "ASAMBLEA_KEYS";

/// The folder of `meeting`'s signing seeds, outside its meeting directory
/// (see the module's documentation). It may not exist yet. A relative
/// `ASAMBLEA_KEYS` is refused: the daemon and the desk, started from
/// different folders, would look in different places.
pub fn key_folder(meeting: &MeetingId) -> Result<PathBuf> {
    let root = match std::env::var_os(KEYS_ENV).filter(|v| !v.is_empty()) {
        Some(root) if Path::new(&root).is_absolute() => PathBuf::from(root),
        Some(root) => {
            return Err(VenueError::KeyFolder {
                message: format!(
                    "ASAMBLEA_KEYS={}: debe ser una ruta absoluta (p. ej. /srv/claves) / must be an absolute path",
                    Path::new(&root).display()
                ),
            })
        }
        None => {
            let config = std::env::var_os("XDG_CONFIG_HOME")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".config")))
                .ok_or_else(|| VenueError::KeyFolder {
                    message: "no sé dónde guardar las claves de la reunión: defina ASAMBLEA_KEYS con una carpeta fuera de la reunión / \
                              nowhere to keep the meeting's keys: set ASAMBLEA_KEYS to a folder outside the meeting"
                        .into(),
                })?;
            config.join("asamblea").join("keys")
        }
    };
    Ok(root.join(hex(&meeting.0)))
}

/// The meeting id of the meeting in `dir`, from its `meeting-id` file.
pub fn read_meeting_id(dir: &Path) -> Result<MeetingId> {
    let path = dir.join("meeting-id");
    let text = fs::read_to_string(&path).map_err(VenueError::meeting_file(dir, "meeting-id"))?;
    Ok(MeetingId(unhex(&text, &path)?))
}

/// The key folder of the meeting in `dir` (whose `meeting-id` it reads).
pub fn key_folder_of(dir: &Path) -> Result<PathBuf> {
    key_folder(&read_meeting_id(dir)?)
}

/// Reads the seed `name` (`daemon`, a staff account's name) of a meeting
/// from its key folder, saying where it looked and what to do when it is
/// not there.
pub fn read_key(keys: &Path, name: &str) -> Result<[u8; 32]> {
    let path = keys.join(format!("{name}.seed"));
    if !path.exists() {
        return Err(VenueError::MissingKey { path, name: name.to_string() });
    }
    read_seed(&path)
}

/// Fresh randomness from the operating system.
pub fn random<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the operating system provides randomness");
    bytes
}

/// `N` bytes from the hexadecimal text of `file`, or an error naming it.
pub(crate) fn unhex<const N: usize>(text: &str, file: &Path) -> Result<[u8; N]> {
    asamblea_wire::hex::decode_array(text).ok_or_else(|| VenueError::Malformed {
        path: file.to_path_buf(),
        place: None,
        message: format!(
            "se esperaban {digits} dígitos hexadecimales / expected {digits} hexadecimal digits",
            digits = 2 * N
        ),
    })
}

/// Writes a secret seed as hex, readable by the owner only; refuses to
/// replace an existing file.
pub fn write_secret(path: &Path, seed: &[u8; 32]) -> Result<()> {
    write_private_new(path, format!("{}\n", hex(seed)).as_bytes())
}

/// Options that create a file readable and writable by its owner only.
fn private_options() -> fs::OpenOptions {
    let mut options = fs::OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
}

/// Makes the mode of `path` exactly `mode` (the umask may have taken bits
/// away at creation, never added).
#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
        .map_err(VenueError::io(path, "no se pueden fijar sus permisos / cannot set its permissions"))
}

#[cfg(not(unix))]
fn set_mode(_path: &Path, _mode: u32) -> Result<()> {
    Ok(())
}

/// Creates a new owner-only file (0600) with `bytes`, durably; refuses to
/// replace an existing one.
pub fn write_private_new(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut file = private_options().create_new(true).open(path).map_err(VenueError::io(path, CREATE))?;
    set_mode(path, 0o600)?;
    file.write_all(bytes).and_then(|()| file.sync_all()).map_err(VenueError::io(path, WRITE))
}

/// Writes an owner-only file (0600) whole, replacing any: written beside it
/// under a temporary name, then renamed over it, so a reader sees the old
/// contents or the new, never a part.
pub fn write_private_replacing(path: &Path, bytes: &[u8]) -> Result<()> {
    let name = path.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let temporary = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let _ = fs::remove_file(&temporary);
    write_private_new(&temporary, bytes)?;
    fs::rename(&temporary, path).map_err(VenueError::io(path, "no se puede reemplazar / cannot replace"))
}

/// Creates `path` and any missing parents as owner-only folders (0700,
/// whatever the umask). A folder that exists already is left as it is:
/// it may be anyone's (`/tmp`, a desktop), and what this crate writes in
/// it is owner-only file by file.
pub fn create_private_dir(path: &Path) -> Result<()> {
    if path.is_dir() {
        return Ok(());
    }
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder
        .create(path)
        .map_err(VenueError::io(path, "no se puede crear la carpeta / cannot create the folder"))?;
    set_mode(path, 0o700)
}

/// Reads a seed written by [`write_secret`].
pub fn read_seed(path: &Path) -> Result<[u8; 32]> {
    let text = fs::read_to_string(path).map_err(VenueError::io(path, READ))?;
    unhex(&text, path)
}
