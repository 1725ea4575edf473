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

/// Items mapped per slice by [`for_each_mapped`]: only a few slices of
/// results are in memory at a time.
pub(crate) const SLICE: usize = 16_384;

/// Calls `each` with `f` of every item, in order, with its index, while
/// `f` runs on every core a slice ahead: the same worker threads go through
/// the whole of `items` (slice `k` on worker `k mod cores`), so what a
/// thread remembers (the keys it accepted) lasts the whole run, and each
/// worker is at most one finished slice ahead of `each`. `each`'s first
/// error stops it.
pub(crate) fn for_each_mapped<T: Sync, R: Send, E>(
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
    mut each: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<(), E> {
    let slices: Vec<&[T]> = items.chunks(SLICE).collect();
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let workers = cores.min(slices.len()).max(1);
    let (f, slices) = (&f, &slices);
    std::thread::scope(|scope| {
        let receivers: Vec<_> = (0..workers)
            .map(|worker| {
                let (send, receive) = std::sync::mpsc::sync_channel::<Vec<R>>(0);
                scope.spawn(move || {
                    for slice in slices.iter().skip(worker).step_by(workers) {
                        // The receiver is gone once `each` failed: stop.
                        if send.send(slice.iter().map(f).collect()).is_err() {
                            return;
                        }
                    }
                });
                receive
            })
            .collect();
        for at in 0..slices.len() {
            let mapped = receivers[at % workers].recv().expect("the mapping does not panic");
            for (j, result) in mapped.into_iter().enumerate() {
                each(at * SLICE + j, result)?;
            }
        }
        Ok(())
    })
}

/// Calls `f` with each record of `records` opened, in order, with its
/// index ([`for_each_mapped`] of [`open_record`]).
pub(crate) fn for_each_opened<E>(
    meeting: &MeetingId,
    records: &[(&[u8], Digest)],
    f: impl FnMut(usize, Result<Opened, WireError>) -> Result<(), E>,
) -> Result<(), E> {
    for_each_mapped(records, |(bytes, _)| open_record(meeting, bytes), f)
}

#[cfg(test)]
mod tests {
    use super::{for_each_mapped, SLICE};

    #[test]
    fn every_item_comes_in_order_across_slices_and_workers() {
        let items: Vec<u64> = (0..3 * SLICE as u64 + 5).collect();
        let mut seen = Vec::new();
        let done: Result<(), ()> = for_each_mapped(
            &items,
            |x| x * 2,
            |i, doubled| {
                seen.push((i, doubled));
                Ok(())
            },
        );
        assert_eq!(done, Ok(()));
        assert_eq!(seen, items.iter().map(|&x| (x as usize, x * 2)).collect::<Vec<_>>());
        let none: Result<(), ()> = for_each_mapped(&[] as &[u64], |x| *x, |_, _| panic!("no items"));
        assert_eq!(none, Ok(()));
    }

    #[test]
    fn the_first_error_stops_it_wherever_it_falls() {
        let items: Vec<usize> = (0..4 * SLICE + 1).collect();
        for stop in [0, 7, SLICE - 1, SLICE, 2 * SLICE + 3, 4 * SLICE] {
            let mut calls = 0;
            let done = for_each_mapped(
                &items,
                |x| *x,
                |i, x| {
                    calls += 1;
                    assert_eq!(i, x);
                    if i == stop {
                        Err(i)
                    } else {
                        Ok(())
                    }
                },
            );
            assert_eq!(done, Err(stop));
            assert_eq!(calls, stop + 1, "nothing after the error is looked at");
        }
    }
}
