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
/// the whole of `items` (slice `k` on worker `k mod cores`), and each
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

/// Items a slice of [`stream_mapped`]: small enough that the few slices
/// in flight (two a worker, and the one being consumed) stay a few MB.
pub(crate) const STREAM_SLICE: usize = 4_096;

/// Like [`for_each_mapped`], for items that are not all in memory: `next`
/// gives the slices in order (`None` at the end), `f` maps each item on
/// every core a slice ahead, and `each` takes every item with its result,
/// in order, slice `k` mapped by worker `k mod cores`. The first error of
/// `next` or `each` stops it.
pub(crate) fn stream_mapped<T: Send, R: Send, E>(
    mut next: impl FnMut() -> Result<Option<Vec<T>>, E>,
    f: impl Fn(&T) -> R + Sync,
    mut each: impl FnMut(T, R) -> Result<(), E>,
) -> Result<(), E> {
    let workers = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let f = &f;
    std::thread::scope(|scope| {
        let lanes: Vec<_> = (0..workers)
            .map(|_| {
                let (jobs, job) = std::sync::mpsc::sync_channel::<Vec<T>>(1);
                let (send, results) = std::sync::mpsc::sync_channel::<(Vec<T>, Vec<R>)>(0);
                scope.spawn(move || {
                    for slice in job {
                        let mapped = slice.iter().map(f).collect();
                        // The receiver is gone once `each` failed: stop.
                        if send.send((slice, mapped)).is_err() {
                            return;
                        }
                    }
                });
                (jobs, results)
            })
            .collect();
        // Slice `k` is read, sent to lane `k mod workers`, and taken back
        // in order; a lane gets its next slice as soon as it hands one
        // back, so the workers map while `each` consumes.
        let mut sent = 0;
        let mut ended = false;
        while sent < workers && !ended {
            match next()? {
                Some(slice) => {
                    lanes[sent].0.send(slice).expect("the worker waits for work");
                    sent += 1;
                }
                None => ended = true,
            }
        }
        let mut taken = 0;
        while taken < sent {
            let lane = &lanes[taken % workers];
            let (slice, mapped) = lane.1.recv().expect("the mapping does not panic");
            if !ended {
                match next()? {
                    Some(more) => {
                        lane.0.send(more).expect("the worker waits for work");
                        sent += 1;
                    }
                    None => ended = true,
                }
            }
            for (item, result) in slice.into_iter().zip(mapped) {
                each(item, result)?;
            }
            taken += 1;
        }
        Ok(())
    })
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
    fn a_stream_comes_in_order_and_stops_at_the_first_error() {
        use super::{stream_mapped, STREAM_SLICE};
        let total = 5 * STREAM_SLICE as u64 + 7;
        let slices = |from: u64| {
            let mut at = from;
            move || -> Result<Option<Vec<u64>>, u64> {
                let slice: Vec<u64> = (at..total.min(at + STREAM_SLICE as u64)).collect();
                at += slice.len() as u64;
                Ok((!slice.is_empty()).then_some(slice))
            }
        };
        let mut seen = Vec::new();
        let done = stream_mapped(
            slices(0),
            |x| x * 3,
            |x, tripled| {
                seen.push((x, tripled));
                Ok(())
            },
        );
        assert_eq!(done, Ok(()));
        assert_eq!(seen, (0..total).map(|x| (x, 3 * x)).collect::<Vec<_>>());
        for stop in [0, 5, STREAM_SLICE as u64, 3 * STREAM_SLICE as u64 + 1, total - 1] {
            let mut calls = 0;
            let done = stream_mapped(
                slices(0),
                |x| *x,
                |x, _| {
                    calls += 1;
                    if x == stop {
                        Err(x)
                    } else {
                        Ok(())
                    }
                },
            );
            assert_eq!(done, Err(stop));
            assert_eq!(calls, stop + 1, "nothing after the error is looked at");
        }
        // An error from the reader stops it too, with what came before.
        let mut reads = 0;
        let mut calls = 0;
        let done: Result<(), &str> = stream_mapped(
            || {
                reads += 1;
                if reads == 4 {
                    Err("unreadable")
                } else {
                    Ok(Some(vec![0u8; 10]))
                }
            },
            |x| *x,
            |_, _| {
                calls += 1;
                Ok(())
            },
        );
        assert_eq!(done, Err("unreadable"));
        assert!(calls <= 30);
        let empty: Result<(), ()> = stream_mapped(|| Ok(None::<Vec<u8>>), |x| *x, |_, _| panic!("no items"));
        assert_eq!(empty, Ok(()));
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
