//! The per-event work of replaying a ledger — decoding a record (its
//! signer's key is a curve point to decompress and check) and checking its
//! signature strictly — done for many events at once, on every core: what
//! a start after a crash and `verify` spend most of their time on.
//!
//! Each signature check is `PublicKey::verify` (ed25519 `verify_strict`),
//! one by one, never a batch, so each verdict is exactly the one a
//! verification alone gives; only the order in which they run changes.
//! Everything that depends on the events before (sequence, chain, time,
//! the rules) stays in order, in the caller.

use asamblea_wire::{EventRecord, MeetingId, WireError};

/// `f` of every item, in order, computed on every core.
pub(crate) fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    // Below a few thousand items a thread costs more than it saves.
    let threads = cores.min(items.len() / 2_048 + 1);
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|scope| {
        let parts: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(f).collect::<Vec<R>>()))
            .collect();
        parts.into_iter().flat_map(|part| part.join().expect("the per-event work does not panic")).collect()
    })
}

/// A record decoded, and whether its signature verifies for the meeting.
pub(crate) struct Opened {
    /// The record.
    pub(crate) record: EventRecord,
    /// Whether the signature verifies, strictly.
    pub(crate) signed: bool,
}

/// Decodes one stored record and checks its signature over its event's
/// bytes (a slice of the record's, which decoding found canonical): the
/// part of its replay that needs no other record.
pub(crate) fn open_record(meeting: &MeetingId, bytes: &[u8]) -> Result<Opened, WireError> {
    let record = EventRecord::decode(bytes)?;
    let event = EventRecord::event_bytes(bytes).unwrap_or_default();
    let signed = record.signer.verify(meeting, event, &record.signature).is_ok();
    Ok(Opened { record, signed })
}
