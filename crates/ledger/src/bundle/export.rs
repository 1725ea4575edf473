//! The bundle written from a ledger file as it is read, one record at a time.

use asamblea_wire::{Checkpoint, Digest, EventRecord, Signature};

use super::{BundleHead, BundleWriter};

/// What [`export_bundle`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exported {
    /// Records written.
    pub records: u64,
    /// The checkpoint at the last record, if there is one.
    pub last: Option<Checkpoint>,
}

/// Writes the audit bundle of the ledger at `path` to `out` as it reads
/// it, one record at a time (a meeting of a million ballots needs the
/// memory of one record, not of all): `head`, every record as stored with
/// its head — each checked on the way (its number the next, its time not
/// earlier, its head the one the chain gives), so a broken ledger is not
/// exported — and a checkpoint signed by `sign` at every `item-closed`
/// and at the end. Reads one snapshot of the file beside any writer.
pub fn export_bundle(
    path: &std::path::Path,
    head: &BundleHead<'_>,
    sign: impl Fn(&Checkpoint) -> Signature,
    out: impl std::io::Write,
) -> Result<Exported, crate::LedgerError> {
    write_bundle(path, head, sign, out, true)
}

/// [`export_bundle`] with nothing checked: every row exactly as stored,
/// its stored head beside it, and the checkpoints signed over the stored
/// heads. What `asamblea verify DIR` verifies, so that a hand-edited file
/// is judged by the verifier (naming the event) rather than refused whole
/// — a bundle written and read a record at a time, never held.
pub fn export_raw_bundle(
    path: &std::path::Path,
    head: &BundleHead<'_>,
    sign: impl Fn(&Checkpoint) -> Signature,
    out: impl std::io::Write,
) -> Result<Exported, crate::LedgerError> {
    write_bundle(path, head, sign, out, false)
}

/// The bundle of the ledger at `path`, each record checked on the way
/// when `checked`.
fn write_bundle(
    path: &std::path::Path,
    head: &BundleHead<'_>,
    sign: impl Fn(&Checkpoint) -> Signature,
    out: impl std::io::Write,
    checked: bool,
) -> Result<Exported, crate::LedgerError> {
    let sqlite = |e| crate::LedgerError::sqlite(path, e);
    let io = |e: std::io::Error| crate::LedgerError::Sqlite {
        path: path.display().to_string(),
        message: format!("no se puede escribir el paquete / cannot write the bundle: {e}"),
        cause: crate::Cause::of_io(&e),
    };
    let broken = |seq: u64, reason: &str| crate::LedgerError::BrokenChain {
        path: path.display().to_string(),
        seq,
        reason: reason.to_string(),
    };
    let mut conn = crate::store::open_existing(path, &head.meeting)?;
    // One read transaction: the count and the rows are of one snapshot.
    let snapshot = conn.transaction().map_err(sqlite)?;
    let count: i64 = snapshot.query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0)).map_err(sqlite)?;
    let mut out = BundleWriter(std::io::BufWriter::new(out));
    out.head(head, count as u64).map_err(io)?;
    let mut chain_head = asamblea_wire::genesis_head(&head.meeting);
    let mut last_time = 0u64;
    let mut marks: Vec<Checkpoint> = Vec::new();
    let mut written = 0u64;
    {
        let mut statement =
            snapshot.prepare("SELECT seq, record, head FROM events ORDER BY seq").map_err(sqlite)?;
        let mut rows = statement.query([]).map_err(sqlite)?;
        while let Some(row) = rows.next().map_err(sqlite)? {
            let seq = row.get::<_, i64>(0).map_err(sqlite)? as u64;
            let record: Vec<u8> = row.get(1).map_err(sqlite)?;
            let stored: Vec<u8> = row.get(2).map_err(sqlite)?;
            let expected = written + 1;
            if !checked {
                // As stored: the verifier judges it.
                chain_head = Digest(stored.as_slice().try_into().unwrap_or([0; 32]));
            } else {
                if seq != expected || record.get(..8) != Some(&expected.to_be_bytes()[..]) {
                    return Err(broken(
                        expected,
                        "los eventos no están numerados en orden / the events are not numbered in order",
                    ));
                }
                let time =
                    u64::from_be_bytes(record.get(8..16).and_then(|t| t.try_into().ok()).unwrap_or([0; 8]));
                if time < last_time {
                    return Err(broken(
                        seq,
                        "su hora es anterior a la del evento previo / its time is earlier than the event before",
                    ));
                }
                last_time = time;
                chain_head = Digest::sha256(&[&chain_head.0[..], &record].concat());
                if stored.as_slice() != chain_head.0 {
                    return Err(broken(
                        seq,
                        "la cabeza guardada no corresponde al registro (editado, reordenado o reemplazado) / \
                         the stored head does not match the record (edited, reordered or replaced)",
                    ));
                }
            }
            // The event's tag is its first byte (§3, §5).
            if EventRecord::event_bytes(&record).and_then(|event| event.first()) == Some(&0x0C) {
                marks.push(Checkpoint { seq: expected, head: chain_head });
            }
            out.record(&record, &chain_head).map_err(io)?;
            written = expected;
        }
    }
    if written != count as u64 {
        return Err(broken(
            written + 1,
            "el registro cambió mientras se leía / the ledger changed while it was read",
        ));
    }
    let last = (written > 0).then_some(Checkpoint { seq: written, head: chain_head });
    if let Some(last) = last {
        if marks.last() != Some(&last) {
            marks.push(last);
        }
    }
    let signed: Vec<(Checkpoint, Signature)> = marks.iter().map(|c| (*c, sign(c))).collect();
    out.checkpoints(&signed).map_err(io)?;
    out.0.into_inner().map_err(|e| io(e.into_error()))?.flush().map_err(io)?;
    Ok(Exported { records: written, last })
}
