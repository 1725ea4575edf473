//! Secrets on disk and fresh randomness: the one place that draws seeds
//! and writes or reads a key file, for the meeting directory and the staff
//! accounts alike.

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

/// Writes a secret seed as hex, readable by the owner only.
pub fn write_secret(path: &Path, seed: &[u8; 32]) -> Result<()> {
    use std::io::Write;
    #[cfg(unix)]
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    options.mode(0o600);
    let mut file =
        options.open(path).with_context(|| format!("{}: cannot create the key file", path.display()))?;
    writeln!(file, "{}", hex(seed))?;
    file.sync_all()?;
    Ok(())
}

/// Reads a seed written by [`write_secret`].
pub fn read_seed(path: &Path) -> Result<[u8; 32]> {
    let text =
        fs::read_to_string(path).with_context(|| format!("{}: cannot read the key file", path.display()))?;
    unhex(&text, path)
}
