//! Secrets on disk and fresh randomness: the one place that draws seeds,
//! writes or reads a key file, and makes the owner-only files and folders
//! of a meeting directory, for the meeting and the staff accounts alike.
//!
//! Modes are set explicitly (0600 files, 0700 folders), whatever the
//! process's umask: a badge's QR is an attendee's signing seed, the
//! register holds names and cédulas, and the ledger every ballot.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use asamblea_wire::hex::encode as hex;

/// Fresh randomness from the operating system.
pub fn random<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the operating system provides randomness");
    bytes
}

/// `N` bytes from the hexadecimal text of `file`, or an error naming it.
pub(crate) fn unhex<const N: usize>(text: &str, file: &Path) -> Result<[u8; N]> {
    asamblea_wire::hex::decode_array(text)
        .with_context(|| format!("{}: expected {} hexadecimal digits", file.display(), 2 * N))
}

/// Writes a secret seed as hex, readable by the owner only; refuses to
/// replace an existing file.
pub fn write_secret(path: &Path, seed: &[u8; 32]) -> Result<()> {
    write_private_new(path, format!("{}\n", hex(seed)).as_bytes())
        .with_context(|| format!("{}: cannot create the key file", path.display()))
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
        .with_context(|| format!("{}: cannot set its permissions", path.display()))
}

#[cfg(not(unix))]
fn set_mode(_path: &Path, _mode: u32) -> Result<()> {
    Ok(())
}

/// Creates a new owner-only file (0600) with `bytes`, durably; refuses to
/// replace an existing one.
pub fn write_private_new(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut file = private_options()
        .create_new(true)
        .open(path)
        .with_context(|| format!("{}: cannot create", path.display()))?;
    set_mode(path, 0o600)?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("{}: cannot write", path.display()))
}

/// Writes an owner-only file (0600) whole, replacing any: written beside it
/// under a temporary name, then renamed over it, so a reader sees the old
/// contents or the new, never a part.
pub fn write_private_replacing(path: &Path, bytes: &[u8]) -> Result<()> {
    let name = path.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let temporary = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let _ = fs::remove_file(&temporary);
    write_private_new(&temporary, bytes)?;
    fs::rename(&temporary, path).with_context(|| format!("{}: cannot replace", path.display()))
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
    builder.create(path).with_context(|| format!("{}: cannot create the folder", path.display()))?;
    set_mode(path, 0o700)
}

/// Reads a seed written by [`write_secret`].
pub fn read_seed(path: &Path) -> Result<[u8; 32]> {
    let text =
        fs::read_to_string(path).with_context(|| format!("{}: cannot read the key file", path.display()))?;
    unhex(&text, path)
}
