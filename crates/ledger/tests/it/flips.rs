//! Flipping any single byte of an exported bundle makes `verify_bundle`
//! fail: a property over random positions and masks, and a sweep of every
//! position with one mask.

use proptest::prelude::*;

use crate::fixture::fixture;

/// Cases of the property: 512 by default, `PROPTEST_CASES` for more.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|cases| cases.parse().ok()).unwrap_or(512)
}

/// Whether the bundle with byte `position` xored with `mask` still
/// verifies (with no outside checkpoint: the bundle alone must tell).
fn verifies_with_flip(position: usize, mask: u8) -> bool {
    let f = fixture();
    let mut bytes = f.bytes.clone();
    bytes[position] ^= mask;
    f.verify(&bytes, None).is_ok()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn flipping_any_bits_of_any_byte_of_a_bundle_makes_it_fail_to_verify(
        position in 0..fixture().bytes.len(),
        mask in 1u8..=255,
    ) {
        prop_assert!(!verifies_with_flip(position, mask), "byte {} xor {:#04x} still verifies", position, mask);
    }
}

/// Every byte of the bundle's framing (the header, the profile, the
/// register, each record's length, number and time, the checkpoints), and
/// every `stride`-th byte besides. A byte-by-byte sweep takes about 15 s
/// in debug; `ASAMBLEA_SLOW_TESTS=1` makes `stride` 1.
fn sweep_positions(stride: usize) -> Vec<usize> {
    let f = fixture();
    let bundle = &f.bundle;
    let mut framing = vec![false; f.bytes.len()];
    let header = 16
        + 1
        + 32
        + 32
        + 4
        + bundle.profile_name.len()
        + 4
        + bundle.profile_bytes.len()
        + 4
        + bundle.register_bytes.len()
        + 8;
    framing[..header].fill(true);
    let mut at = header;
    for (record, _) in &bundle.records {
        framing[at..at + 4 + 16].fill(true);
        at += 4 + record.len() + 32;
    }
    framing[at..].fill(true);
    assert_eq!(f.bytes.len() - at, 4 + bundle.checkpoints.len() * (42 + 64), "the layout is walked right");
    (0..f.bytes.len()).filter(|&position| framing[position] || position % stride == 0).collect()
}

#[test]
fn flipping_the_low_bit_of_each_byte_of_a_bundle_in_turn_makes_it_fail_to_verify() {
    let f = fixture();
    assert!(f.verify(&f.bytes, None).is_ok(), "the bundle verifies untouched");
    let stride = if std::env::var_os("ASAMBLEA_SLOW_TESTS").is_some() { 1 } else { 11 };
    let positions = sweep_positions(stride);
    let survivors: Vec<usize> =
        positions.iter().copied().filter(|&position| verifies_with_flip(position, 0x01)).collect();
    assert!(
        survivors.is_empty(),
        "{} of {} flips (of a {}-byte bundle) still verify, at bytes {survivors:?}",
        survivors.len(),
        positions.len(),
        f.bytes.len()
    );
}
