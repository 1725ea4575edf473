//! A node's ledger brought in step with the copy before it serves
//! (`docs/replication.md`): the copy is the truth of what was
//! acknowledged.

use std::path::Path;

use asamblea_ledger::{Journal, Replica};
use asamblea_wire::{genesis_head, Digest, MeetingId};

use crate::{Etcd, Head};

/// What bringing a node in step with the copy did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reconciled {
    /// Both hold the same chain, up to this record.
    InStep {
        /// The last record.
        seq: u64,
    },
    /// The copy was empty: this node's records were written to it (the
    /// node that made the meeting with `init`).
    Seeded {
        /// Records written.
        records: u64,
    },
    /// The copy was ahead: its records were taken in through the replay.
    CaughtUp {
        /// Records taken in.
        records: u64,
    },
    /// This node held records past the copy's head that continue its
    /// chain — a batch written here whose replication did not finish, so
    /// acknowledged to no one: they were written to the copy.
    Pushed {
        /// Records written.
        records: u64,
    },
    /// This node and the copy agree up to record `common` and not after:
    /// this node wrote records the copy does not hold (acknowledged to no
    /// one) while another node went on. Nothing was changed: its ledger is
    /// to be set aside and rebuilt from the copy
    /// ([`asamblea_ledger::rebuild`]) before it serves.
    Diverged {
        /// The last record both hold.
        common: u64,
        /// This node's last record.
        here: u64,
    },
}

impl std::fmt::Display for Reconciled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reconciled::InStep { seq } => {
                write!(f, "al día con la copia en el registro n.º {seq} / in step with the copy at record {seq}")
            }
            Reconciled::Seeded { records } => write!(
                f,
                "la copia estaba vacía; registros escritos en ella: {records} / the copy was empty; records written to it: {records}"
            ),
            Reconciled::CaughtUp { records } => write!(
                f,
                "registros tomados de la copia, admitidos por la reproducción: {records} / records taken from the copy through the replay: {records}"
            ),
            Reconciled::Pushed { records } => write!(
                f,
                "registros que este nodo guardó sin confirmar, escritos en la copia: {records} / records this node kept unconfirmed, written to the copy: {records}"
            ),
            Reconciled::Diverged { common, here } => write!(
                f,
                "este nodo y la copia coinciden hasta el registro n.º {common}; los registros {} a {here} de este nodo nadie los confirmó / this node and the copy agree up to record {common}; this node's records {} to {here} were confirmed to no one",
                common + 1,
                common + 1
            ),
        }
    }
}

/// The chain's head after `records` (their bytes), from `head`: the
/// ledger's link (`docs/ledger-format.md` §5).
fn chained(mut head: Digest, records: &[(u64, Vec<u8>)]) -> Digest {
    for (_, bytes) in records {
        let mut input = Vec::with_capacity(32 + bytes.len());
        input.extend_from_slice(&head.0);
        input.extend_from_slice(bytes);
        head = Digest::sha256(&input);
    }
    head
}

/// The last record this node (its heads, `stored`) and the copy agree on,
/// at most `upto`: they agree on a prefix, so a search by halves.
fn common_prefix(stored: &[(Vec<u8>, Digest)], copy: &Etcd, upto: u64) -> Result<u64, String> {
    let agree = |seq: u64| -> Result<bool, String> {
        if seq == 0 {
            return Ok(true);
        }
        let here = usize::try_from(seq - 1).ok().and_then(|at| stored.get(at)).map(|(_, head)| *head);
        Ok(here.is_some() && copy.head_at(seq)? == here)
    };
    let (mut low, mut high) = (0u64, upto);
    while low < high {
        let mid = low + (high - low).div_ceil(2);
        if agree(mid)? {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    Ok(low)
}

/// Brings `journal` (its file at `path`, of `meeting`) in step with
/// `copy`: writes this node's records to an empty copy; takes in, through
/// the replay, the records the copy has past this node's; writes to the
/// copy a tail this node holds past the copy's head when it continues the
/// copy's chain; finds where a node whose chain is not the copy's parted
/// from it, changing nothing ([`Reconciled::Diverged`]).
pub fn reconcile(
    journal: &mut Journal,
    path: &Path,
    meeting: &MeetingId,
    copy: &mut Etcd,
) -> Result<Reconciled, String> {
    let (seq, head) = journal.tip_handle().durable_tip().map_err(|e| e.to_string())?;
    let stored = || -> Result<Vec<(Vec<u8>, Digest)>, String> {
        asamblea_ledger::raw_records(path, meeting).map_err(|e| e.to_string())
    };
    let rows = |from: usize, stored: &[(Vec<u8>, Digest)]| -> Vec<(u64, Vec<u8>, Digest)> {
        stored
            .iter()
            .enumerate()
            .skip(from)
            .map(|(i, (bytes, head))| (i as u64 + 1, bytes.clone(), *head))
            .collect()
    };
    let push = |copy: &mut Etcd, after: (u64, Digest), rows: &[(u64, Vec<u8>, Digest)]| {
        let borrowed: Vec<(u64, &[u8], &Digest)> =
            rows.iter().map(|(s, b, h)| (*s, b.as_slice(), h)).collect();
        copy.replicate(after, &borrowed).map_err(|e| e.to_string())
    };
    match copy.head()? {
        None if seq == 0 => Ok(Reconciled::InStep { seq: 0 }),
        None => {
            let stored = stored()?;
            push(copy, (0, genesis_head(meeting)), &rows(0, &stored))?;
            Ok(Reconciled::Seeded { records: stored.len() as u64 })
        }
        Some(Head { seq: at, head: there }) if at == seq => {
            if there == head {
                Ok(Reconciled::InStep { seq })
            } else {
                Ok(Reconciled::Diverged { common: common_prefix(&stored()?, copy, seq)?, here: seq })
            }
        }
        Some(Head { seq: at, head: there }) if at > seq => {
            // Up to the head read above: a leader may be writing, and the
            // records past it are checked when next taken in.
            let mut records = copy.records_after(seq)?;
            records.retain(|(number, _)| *number <= at);
            // The copy's records must continue this node's chain to the
            // copy's own head: else the two went apart earlier.
            if chained(head, &records) != there {
                return Ok(Reconciled::Diverged { common: common_prefix(&stored()?, copy, seq)?, here: seq });
            }
            let bytes: Vec<Vec<u8>> = records.into_iter().map(|(_, b)| b).collect();
            let taken = journal.admit_copied(&bytes).map_err(|e| e.to_string())?;
            Ok(Reconciled::CaughtUp { records: taken })
        }
        Some(Head { seq: at, head: there }) => {
            let stored = stored()?;
            let here = usize::try_from(at).ok().and_then(|at| stored.get(at - 1)).map(|(_, head)| *head);
            if here != Some(there) {
                return Ok(Reconciled::Diverged { common: common_prefix(&stored, copy, at)?, here: seq });
            }
            let tail = rows(usize::try_from(at).unwrap_or(usize::MAX), &stored);
            push(copy, (at, there), &tail)?;
            Ok(Reconciled::Pushed { records: tail.len() as u64 })
        }
    }
}
