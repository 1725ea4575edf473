//! A bundle longer than many slices of the streaming reader: `verify` of
//! its file gives what `verify` of its bytes gives, a slice boundary hides
//! nothing, and only what a checkpoint, witness or receipt names is kept.

use asamblea_ledger::{verify_bundle_from, Bundle, VerifyError, VerifyOptions};
use asamblea_wire::{Checkpoint, EventBody, EventRecord};

use crate::fixture::{daemon, fixture, load_profile, staff, MEETING};
use crate::support::{id, TempDir};

/// More records than three slices of 4.096, and over one more.
const EXTRA: u64 = 13_001;

/// The fixture's meeting, then H01 leaving and coming back `EXTRA` times
/// (signed by the operator, valid events), re-chained, with the daemon's
/// checkpoint at the new end.
fn long_bundle() -> Bundle {
    let f = fixture();
    let mut records: Vec<EventRecord> = f.records();
    for n in 0..EXTRA {
        let body = if n % 2 == 0 {
            EventBody::CheckedOut { person: id("H01") }
        } else {
            EventBody::CheckedInPerson { holder: id("H01") }
        };
        records.push(f.forged(&staff(), 1_000 + n, f.last(), body));
    }
    let mut bundle = Bundle::decode(&f.rechained(records)).expect("a bundle");
    let last = bundle.records.len() as u64;
    let checkpoint = Checkpoint { seq: last, head: bundle.records[last as usize - 1].1 };
    bundle.checkpoints.push((checkpoint, checkpoint.sign(&MEETING, &daemon())));
    bundle
}

fn from_file(bytes: &[u8], options: &VerifyOptions) -> Result<asamblea_ledger::Verified, VerifyError> {
    let dir = TempDir::new("streaming");
    let path = dir.ledger().with_file_name("long.bundle");
    std::fs::write(&path, bytes).expect("written");
    let mut reports = Vec::new();
    let verdict =
        verify_bundle_from(std::fs::File::open(&path).expect("opened"), options, &mut |done, total| {
            reports.push((done, total))
        });
    if verdict.is_ok() {
        let total = reports[0].1;
        assert_eq!(reports.first(), Some(&(0, total)));
        assert_eq!(reports.last(), Some(&(total, total)), "the bar ends full");
        assert!(reports.windows(2).all(|w| w[0].0 < w[1].0), "progress only goes forward");
    }
    verdict
}

fn options() -> VerifyOptions<'static> {
    VerifyOptions {
        daemon_key: Some(daemon().public_key()),
        checkpoints: Vec::new(),
        witnesses: Vec::new(),
        receipts: Vec::new(),
        load_profile: &load_profile,
    }
}

#[test]
fn a_long_bundle_verifies_from_its_file_as_from_its_bytes() {
    let bundle = long_bundle();
    let bytes = bundle.encode();
    let last = bundle.records.len() as u64;
    assert!(last > 3 * 4_096);
    // A head read out in the middle, in a later slice than the first.
    let mut options = options();
    options.checkpoints = vec![(9_000, bundle.records[8_999].1)];
    let in_memory = asamblea_ledger::verify_bundle(&bytes, &options).expect("verifies in memory");
    assert_eq!(from_file(&bytes, &options), Ok(in_memory.clone()));
    assert_eq!(in_memory.records, last);
    // The same head at another number is named.
    options.checkpoints = vec![(9_001, bundle.records[8_999].1)];
    assert_eq!(from_file(&bytes, &options), Err(VerifyError::CheckpointMismatch { seq: 9_001 }));
}

#[test]
fn defects_across_a_slice_boundary_are_named_as_in_memory() {
    let bundle = long_bundle();
    // Records 4.096 and 4.097 (indexes 4.095 and 4.096) sit in two slices.
    let swapped = {
        let mut b = bundle.clone();
        b.records.swap(4_095, 4_096);
        b.encode()
    };
    assert_eq!(from_file(&swapped, &options()), Err(VerifyError::Reordered { seq: 4_097, expected: 4_096 }));
    let moved_far = {
        let mut b = bundle.clone();
        let record = b.records.remove(4_095);
        b.records.insert(12_000, record);
        b.encode()
    };
    assert_eq!(
        from_file(&moved_far, &options()),
        Err(VerifyError::Reordered { seq: 4_097, expected: 4_096 })
    );
    let deleted = {
        let mut b = bundle.clone();
        b.records.remove(8_191);
        b.encode()
    };
    assert_eq!(from_file(&deleted, &options()), Err(VerifyError::Missing { seq: 8_192, found: 8_193 }));
    let flipped = {
        let mut b = bundle.clone();
        b.records[8_192].1 .0[0] ^= 1;
        b.encode()
    };
    assert_eq!(from_file(&flipped, &options()), Err(VerifyError::HeadMismatch { seq: 8_193 }));
    // Cut inside the last record: the form is refused before any replay.
    let bytes = bundle.encode();
    let cut = &bytes[..bytes.len() - 200];
    assert!(matches!(from_file(cut, &options()), Err(VerifyError::Bundle(_))));
    for (bytes, name) in [(&swapped, "swapped"), (&deleted, "deleted"), (&flipped, "flipped")] {
        assert_eq!(
            from_file(bytes, &options()),
            asamblea_ledger::verify_bundle(bytes, &options()),
            "{name}: the file and the bytes agree"
        );
    }
}
