//! `DIR/ledger.checkpoints`: heads of the ledger the daemon signed, kept
//! beside it so that a start after a crash is quick.
//!
//! Each line is a checkpoint and its daemon signature,
//! `SEQ:HEAD:SIGNATURE` (ledger-format §6 and §11's witness form), appended
//! whenever the daemon signs a durable head: every few seconds while a
//! poll is open, at every close, and at a clean stop. At start the latest
//! line whose signature verifies with the meeting's daemon key is
//! *trusted*: the records up to it are checked by their chain alone (the
//! head at its number must be the signed one) and their signatures are not
//! checked again; every record after it is checked in full.
//!
//! Why that is safe: only the daemon's key signs a checkpoint, so someone
//! with the files but not the key can remove lines (the start then checks
//! more), or leave them, but not write one; and any change to a record up
//! to a trusted checkpoint changes the chain's head there, which stops the
//! start. A ledger shorter than a trusted checkpoint lost events the daemon
//! had signed for, and the start refuses it too. `verify` always checks
//! every signature. A line cut by a crash is ignored.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use asamblea_wire::{Checkpoint, MeetingId, PublicKey, Signature};

use crate::error::{VenueError, OPEN, WRITE};

/// The file, in the meeting directory.
pub fn path(dir: &Path) -> PathBuf {
    dir.join("ledger.checkpoints")
}

/// Appends a daemon-signed checkpoint (owner-only file). A lost line only
/// makes a later start check more, so the caller may ignore a failure.
pub fn append(dir: &Path, checkpoint: &Checkpoint, signature: &Signature) -> Result<(), VenueError> {
    let path = path(dir);
    let mut options = std::fs::OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&path).map_err(VenueError::io(&path, OPEN))?;
    let line =
        format!("{}:{}:{}\n", checkpoint.seq, checkpoint.head, asamblea_wire::hex::encode(&signature.0));
    file.write_all(line.as_bytes()).map_err(VenueError::io(&path, WRITE))
}

/// The latest checkpoint in the file that `daemon_key` signed for
/// `meeting`; `None` when there is no file or no such line.
pub fn latest_trusted(dir: &Path, meeting: &MeetingId, daemon_key: &PublicKey) -> Option<Checkpoint> {
    let text = std::fs::read_to_string(path(dir)).ok()?;
    let mut lines: Vec<(Checkpoint, Signature)> = text
        .lines()
        .filter_map(|line| {
            let mut parts = line.trim().split(':');
            let seq = parts.next()?.parse().ok()?;
            let head = asamblea_wire::Digest::from_hex(parts.next()?).ok()?;
            let signature = Signature::from_slice(&asamblea_wire::hex::decode(parts.next()?)?).ok()?;
            parts.next().is_none().then_some((Checkpoint { seq, head }, signature))
        })
        .collect();
    // A meeting keeps thousands of lines: the highest that verifies is the
    // answer, so the signatures are checked from the top down only.
    lines.sort_by_key(|(checkpoint, _)| std::cmp::Reverse(checkpoint.seq));
    lines
        .into_iter()
        .find(|(checkpoint, signature)| checkpoint.verify(meeting, daemon_key, signature).is_ok())
        .map(|(checkpoint, _)| checkpoint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use asamblea_wire::{Digest, Keypair};

    #[test]
    fn only_lines_the_daemon_signed_are_trusted_and_the_latest_wins() {
        let dir = std::env::temp_dir().join(format!("asamblea-checkpoints-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let meeting = MeetingId([7; 32]);
        let daemon = Keypair::from_seed(&[1; 32]);
        let outsider = Keypair::from_seed(&[2; 32]);
        assert_eq!(latest_trusted(&dir, &meeting, &daemon.public_key()), None, "no file");
        let at = |seq: u64| Checkpoint { seq, head: Digest([seq as u8; 32]) };
        append(&dir, &at(5), &at(5).sign(&meeting, &daemon)).unwrap();
        append(&dir, &at(9), &at(9).sign(&meeting, &daemon)).unwrap();
        // A later line nobody with the key wrote, one for another meeting,
        // and one cut by a crash: none is trusted.
        append(&dir, &at(50), &at(50).sign(&meeting, &outsider)).unwrap();
        append(&dir, &at(60), &at(60).sign(&MeetingId([8; 32]), &daemon)).unwrap();
        let mut file = std::fs::OpenOptions::new().append(true).open(path(&dir)).unwrap();
        file.write_all(b"70:abcd").unwrap();
        assert_eq!(latest_trusted(&dir, &meeting, &daemon.public_key()), Some(at(9)));
        std::fs::remove_dir_all(&dir).ok();
    }
}
