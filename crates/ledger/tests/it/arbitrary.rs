//! Arbitrary bytes given to the bundle reader and the verifier: whatever a
//! file holds, `Bundle::decode`, `verify_bundle_from` and the register's
//! reader answer with an error that says something, and never panic or
//! run away with memory. Two properties, 256 cases each (`PROPTEST_CASES`
//! for more): bytes made up from nothing (past the magic, or not), and the
//! fixture's valid bundle mutated (bytes overwritten, inserted, removed,
//! the file cut).

use asamblea_ledger::{register_from_bytes, verify_bundle_from, Bundle, VerifyOptions};
use proptest::prelude::*;

use crate::fixture::{daemon, fixture, load_profile};

/// Cases of each property: 256 by default, `PROPTEST_CASES` for more.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|cases| cases.parse().ok()).unwrap_or(256)
}

/// Reads `bytes` every way a bundle is read, and checks that each way
/// answers: a bundle that decodes, or an error whose message is not empty.
/// Returns whether it verified.
fn read_every_way(bytes: &[u8]) -> bool {
    if let Err(error) = Bundle::decode(bytes) {
        assert!(!error.to_string().is_empty(), "an error that says nothing: {error:?}");
    }
    let options = VerifyOptions {
        daemon_key: Some(daemon().public_key()),
        ..VerifyOptions::bundle_alone(&load_profile)
    };
    let verified = verify_bundle_from(std::io::Cursor::new(bytes), &options, &mut |_, _| {});
    if let Err(error) = &verified {
        assert!(!error.to_string().is_empty(), "an error that says nothing: {error:?}");
    }
    verified.is_ok()
}

/// One change to a file's bytes.
#[derive(Clone, Debug)]
enum Mutation {
    /// The byte at a place (taken modulo the length) becomes another.
    Overwrite(usize, u8),
    /// Bytes put in at a place.
    Insert(usize, Vec<u8>),
    /// Up to this many bytes taken out at a place.
    Remove(usize, usize),
    /// The file cut at a place.
    Cut(usize),
}

impl Mutation {
    fn apply(&self, bytes: &mut Vec<u8>) {
        let at = |place: usize, len: usize| if len == 0 { 0 } else { place % (len + 1) };
        match self {
            Mutation::Overwrite(place, value) if !bytes.is_empty() => {
                let at = place % bytes.len();
                bytes[at] = *value;
            }
            Mutation::Overwrite(..) => {}
            Mutation::Insert(place, inserted) => {
                let at = at(*place, bytes.len());
                bytes.splice(at..at, inserted.iter().copied());
            }
            Mutation::Remove(place, count) => {
                let at = at(*place, bytes.len());
                let end = (at + count).min(bytes.len());
                bytes.drain(at..end);
            }
            Mutation::Cut(place) => {
                let at = at(*place, bytes.len());
                bytes.truncate(at);
            }
        }
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), any::<u8>()).prop_map(|(place, value)| Mutation::Overwrite(place, value)),
        2 => (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..40))
            .prop_map(|(place, bytes)| Mutation::Insert(place, bytes)),
        2 => (any::<usize>(), 1usize..40).prop_map(|(place, count)| Mutation::Remove(place, count)),
        1 => any::<usize>().prop_map(Mutation::Cut),
    ]
}

/// Bytes from nothing: half of them start as a bundle does (the magic and
/// version 2), so the reader gets past its first two checks and meets
/// made-up lengths, keys, records and checkpoints.
fn made_up() -> impl Strategy<Value = Vec<u8>> {
    (any::<bool>(), proptest::collection::vec(any::<u8>(), 0..2_048)).prop_map(|(framed, rest)| {
        let mut bytes = if framed { b"asamblea-bundle\0\x02".to_vec() } else { Vec::new() };
        bytes.extend(rest);
        bytes
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn made_up_bytes_are_refused_with_an_error_and_never_a_panic(bytes in made_up()) {
        prop_assert!(!read_every_way(&bytes), "made-up bytes verified");
        if let Err(error) = register_from_bytes(&bytes) {
            prop_assert!(!error.to_string().is_empty());
        }
        let mut register = b"asamblea/register/v1\0".to_vec();
        register.extend_from_slice(&bytes);
        if let Err(error) = register_from_bytes(&register) {
            prop_assert!(!error.to_string().is_empty());
        }
    }

    #[test]
    fn a_mutated_bundle_is_refused_with_an_error_and_never_a_panic(
        mutations in proptest::collection::vec(mutation(), 1..6),
    ) {
        let original = &fixture().bytes;
        let mut bytes = original.clone();
        for mutation in &mutations {
            mutation.apply(&mut bytes);
        }
        let verified = read_every_way(&bytes);
        // Mutations can undo each other (a byte overwritten with itself):
        // only bytes equal to the original's may verify.
        prop_assert_eq!(verified, bytes == *original, "{:?} verified", mutations);
    }
}

/// The fixture itself goes through the same reading and verifies, so the
/// properties above are about the mutations, not the reading.
#[test]
fn the_fixture_is_read_every_way_and_verifies() {
    assert!(read_every_way(&fixture().bytes));
}
