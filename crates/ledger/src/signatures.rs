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

use asamblea_wire::{Digest, EventRecord, MeetingId, WireError};

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

/// Records opened (decoded, signatures checked: [`open_record`]) per slice.
/// Only one slice's decoded records, and the next one's being opened, are
/// in memory at a time.
const SLICE: usize = 16_384;

/// Calls `f` with each record of `records` opened, in order, with its
/// index: the records are opened a slice at a time on every core, the next
/// slice while `f` goes through this one; `f`'s first error stops it.
pub(crate) fn for_each_opened<E>(
    meeting: &MeetingId,
    records: &[(Vec<u8>, Digest)],
    mut f: impl FnMut(usize, Result<Opened, WireError>) -> Result<(), E>,
) -> Result<(), E> {
    let slices: Vec<&[(Vec<u8>, Digest)]> = records.chunks(SLICE).collect();
    let open = |slice: &[(Vec<u8>, Digest)]| par_map(slice, |(bytes, _)| open_record(meeting, bytes));
    std::thread::scope(|scope| {
        let mut pending = slices.first().map(|&slice| scope.spawn(move || open(slice)));
        for at in 0..slices.len() {
            let opened =
                pending.take().expect("the slice was started").join().expect("opening does not panic");
            pending = slices.get(at + 1).map(|&slice| scope.spawn(move || open(slice)));
            for (j, record) in opened.into_iter().enumerate() {
                f(at * SLICE + j, record)?;
            }
        }
        Ok(())
    })
}
