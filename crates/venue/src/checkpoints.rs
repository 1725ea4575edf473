//! `DIR/ledger.checkpoints`: heads of the ledger the daemon signed, kept
//! beside it so that a start after a crash is quick.
//!
//! Each line is a checkpoint and its daemon signature,
//! `SEQ:HEAD:SIGNATURE` (ledger-format §6 and §11's witness form), appended
//! whenever the daemon signs a durable head: every few seconds while a
//! poll is open, at every close, and at a clean stop; and, on a
//! replicated meeting's standby, every few seconds while it takes in
//! records from the copy (each one checked by the replay first). At start
//! the latest line whose signature verifies with one of this machine's
//! daemon keys (the meeting's, and each node's in the key folder:
//! [`crate::service::MeetingFiles::head_keys`]) is *trusted*: the records up to it are checked by their chain alone (the
//! head at its number must be the signed one) and their signatures are not
//! checked again; every record after it is checked in full.
//!
//! Why that is safe: only a daemon's key signs a checkpoint, so someone
//! with the files but not the key can remove lines (the start then checks
//! more), or leave them, but not write one; and any change to a record up
//! to a trusted checkpoint changes the chain's head there, which stops the
//! start. A ledger shorter than a trusted checkpoint lost events the daemon
//! had signed for, and the start refuses it too. A line cut by a crash,
//! or one the daemon's key did not sign, is ignored.
//!
//! [`read`] is the one reading of the file, for the start and for
//! `asamblea verify DIR`: the start trusts [`SignedHeads::latest`];
//! `verify DIR` (which checks every signature anyway) holds the ledger to
//! every line the daemon signed ([`SignedHeads::signed`]), so that it
//! refuses what the start refuses, and more. Two lines the daemon's key
//! signed with different heads at one event are an equivocation — the
//! key signed two histories of the meeting — and both refuse the folder,
//! whichever line comes first ([`VenueError::Equivocation`]).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use asamblea_wire::{Checkpoint, MeetingId, PublicKey, Signature};

use crate::error::{VenueError, OPEN, READ, WRITE};

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

/// The lines of `DIR/ledger.checkpoints` as read, for one meeting and the
/// daemon keys it trusts; see [`read`].
pub struct SignedHeads {
    meeting: MeetingId,
    keys: Vec<PublicKey>,
    /// Every line that parses, highest number first (in the file's order
    /// among lines of one number); signatures not yet checked, but for
    /// lines that share a number with another head.
    lines: Vec<(Checkpoint, Signature)>,
    /// Non-empty lines in the file, parsed or not.
    count: usize,
}

/// `DIR/ledger.checkpoints` read for `meeting` and the daemon `keys` whose
/// signatures count (no file: no lines). Refused
/// ([`VenueError::Equivocation`]) when they signed two different heads at
/// one event; only such lines' signatures
/// are checked here, so a start with thousands of lines stays quick.
pub fn read(dir: &Path, meeting: &MeetingId, keys: &[PublicKey]) -> Result<SignedHeads, VenueError> {
    let path = path(dir);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(VenueError::io(&path, READ)(e)),
    };
    let text = String::from_utf8_lossy(&bytes);
    let mut count = 0;
    let mut lines: Vec<(Checkpoint, Signature)> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .inspect(|_| count += 1)
        .filter_map(|line| {
            let mut parts = line.trim().split(':');
            let seq = parts.next()?.parse().ok()?;
            let head = asamblea_wire::Digest::from_hex(parts.next()?).ok()?;
            let signature = Signature::from_slice(&asamblea_wire::hex::decode(parts.next()?)?).ok()?;
            parts.next().is_none().then_some((Checkpoint { seq, head }, signature))
        })
        .collect();
    lines.sort_by_key(|(checkpoint, _)| std::cmp::Reverse(checkpoint.seq));
    let heads = SignedHeads { meeting: *meeting, keys: keys.to_vec(), lines, count };
    // Lines of one number are next to each other: two heads there, both
    // signed, are the daemon's key contradicting itself.
    for group in heads.lines.chunk_by(|(a, _), (b, _)| a.seq == b.seq) {
        if group.iter().all(|(c, _)| c.head == group[0].0.head) {
            continue;
        }
        let mut signed = group.iter().filter(|line| heads.is_signed(line)).map(|(c, _)| c.head);
        let Some(first) = signed.next() else { continue };
        if let Some(second) = signed.find(|head| *head != first) {
            return Err(VenueError::Equivocation { path, seq: group[0].0.seq, first, second });
        }
    }
    Ok(heads)
}

impl SignedHeads {
    fn is_signed(&self, (checkpoint, signature): &(Checkpoint, Signature)) -> bool {
        self.keys.iter().any(|key| checkpoint.verify(&self.meeting, key, signature).is_ok())
    }

    /// The highest head the daemon signed: what a start trusts. The
    /// signatures are checked from the top down only.
    pub fn latest(&self) -> Option<Checkpoint> {
        self.lines.iter().find(|line| self.is_signed(line)).map(|(checkpoint, _)| *checkpoint)
    }

    /// Every head the daemon signed, each signature checked, lowest number
    /// first: what `verify DIR` holds the ledger to.
    pub fn signed(&self) -> Vec<(Checkpoint, Signature)> {
        self.lines.iter().rev().filter(|line| self.is_signed(line)).copied().collect()
    }

    /// The file's non-empty lines, signed or not (a line cut by a crash,
    /// one another key signed): [`SignedHeads::signed`] says how many of
    /// them count.
    pub fn lines(&self) -> usize {
        self.count
    }
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
        let latest_trusted =
            |dir: &Path, meeting: &MeetingId, key: &PublicKey| read(dir, meeting, &[*key]).unwrap().latest();
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
        // Every signed line, lowest first, for `verify DIR`; the other
        // three counted as lines only.
        let heads = read(&dir, &meeting, &[daemon.public_key()]).unwrap();
        assert_eq!(heads.signed().iter().map(|(c, _)| *c).collect::<Vec<_>>(), [at(5), at(9)]);
        assert_eq!(heads.lines(), 5);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn two_heads_the_daemon_signed_at_one_event_refuse_the_file_whichever_comes_first() {
        let dir =
            std::env::temp_dir().join(format!("asamblea-checkpoints-equivocation-{}", std::process::id()));
        let meeting = MeetingId([7; 32]);
        let daemon = Keypair::from_seed(&[1; 32]);
        let key = daemon.public_key();
        let true_head = Checkpoint { seq: 9, head: Digest([9; 32]) };
        let other_head = Checkpoint { seq: 9, head: Digest([10; 32]) };
        for (first, second) in [(true_head, other_head), (other_head, true_head)] {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            append(&dir, &first, &first.sign(&meeting, &daemon)).unwrap();
            append(
                &dir,
                &Checkpoint { seq: 12, head: Digest([12; 32]) },
                &Checkpoint { seq: 12, head: Digest([12; 32]) }.sign(&meeting, &daemon),
            )
            .unwrap();
            append(&dir, &second, &second.sign(&meeting, &daemon)).unwrap();
            match read(&dir, &meeting, &[key]) {
                Err(VenueError::Equivocation { seq: 9, first: a, second: b, .. }) => {
                    assert_eq!((a, b), (first.head, second.head));
                }
                other => panic!("not an equivocation: {:?}", other.map(|h| h.lines())),
            }
        }
        // The same head twice (a close and the stop after it), or another
        // head at the same event that the key did not sign: no
        // equivocation.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        append(&dir, &true_head, &true_head.sign(&meeting, &daemon)).unwrap();
        append(&dir, &true_head, &true_head.sign(&meeting, &daemon)).unwrap();
        append(&dir, &other_head, &other_head.sign(&meeting, &Keypair::from_seed(&[2; 32]))).unwrap();
        assert_eq!(read(&dir, &meeting, &[key]).unwrap().latest(), Some(true_head));
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A replicated meeting's machine trusts the heads its node signed as
    /// well as the meeting's key's; two heads at one event by the two keys
    /// are two histories all the same.
    #[test]
    fn a_nodes_heads_count_beside_the_meetings_and_may_not_contradict_them() {
        let dir = std::env::temp_dir().join(format!("asamblea-checkpoints-nodes-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let meeting = MeetingId([7; 32]);
        let (daemon, node) = (Keypair::from_seed(&[1; 32]), Keypair::from_seed(&[3; 32]));
        let keys = [daemon.public_key(), node.public_key()];
        let at = |seq: u64| Checkpoint { seq, head: Digest([seq as u8; 32]) };
        append(&dir, &at(5), &at(5).sign(&meeting, &daemon)).unwrap();
        append(&dir, &at(9), &at(9).sign(&meeting, &node)).unwrap();
        assert_eq!(read(&dir, &meeting, &keys).unwrap().latest(), Some(at(9)));
        assert_eq!(
            read(&dir, &meeting, &keys[..1]).unwrap().latest(),
            Some(at(5)),
            "the node's key not given"
        );
        let other = Checkpoint { seq: 5, head: Digest([6; 32]) };
        append(&dir, &other, &other.sign(&meeting, &node)).unwrap();
        assert!(matches!(read(&dir, &meeting, &keys), Err(VenueError::Equivocation { seq: 5, .. })));
        std::fs::remove_dir_all(&dir).ok();
    }
}
