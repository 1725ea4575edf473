//! `decode(encode(x)) == x` for every valid value, and `encode(decode(b))
//! == b` for every byte string the decoders accept, mutated encodings and
//! random bytes included.

use proptest::prelude::*;

use super::strategies::{arb_event, arb_mutation, arb_record, mutate};
use crate::{Checkpoint, Digest, Event, EventRecord, Receipt};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_valid_event_survives_encoding(event in arb_event()) {
        let bytes = event.encode().expect("a valid event encodes");
        prop_assert_eq!(Event::decode(&bytes), Ok(event));
    }

    #[test]
    fn every_accepted_mutation_of_an_event_is_canonical(event in arb_event(), mutation in arb_mutation()) {
        let bytes = mutate(event.encode().expect("a valid event encodes"), &mutation);
        if let Ok(decoded) = Event::decode(&bytes) {
            prop_assert_eq!(decoded.encode(), Ok(bytes));
        }
    }

    #[test]
    fn every_valid_record_survives_encoding(record in arb_record()) {
        let bytes = record.encode().expect("a valid record encodes");
        prop_assert_eq!(EventRecord::decode(&bytes), Ok(record));
    }

    #[test]
    fn every_accepted_mutation_of_a_record_is_canonical(record in arb_record(), mutation in arb_mutation()) {
        let bytes = mutate(record.encode().expect("a valid record encodes"), &mutation);
        if let Ok(decoded) = EventRecord::decode(&bytes) {
            prop_assert_eq!(decoded.encode(), Ok(bytes));
        }
    }

    #[test]
    fn random_bytes_decode_only_canonically(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        if let Ok(event) = Event::decode(&bytes) {
            prop_assert_eq!(event.encode(), Ok(bytes.clone()));
        }
        if let Ok(record) = EventRecord::decode(&bytes) {
            prop_assert_eq!(record.encode(), Ok(bytes.clone()));
        }
        if let Ok(receipt) = Receipt::decode(&bytes) {
            prop_assert_eq!(receipt.encode(), bytes.clone());
        }
        if let Ok(checkpoint) = Checkpoint::decode(&bytes) {
            prop_assert_eq!(checkpoint.encode(), bytes);
        }
    }

    #[test]
    fn receipts_and_checkpoints_survive_encoding(seq in any::<u64>(), head in any::<[u8; 32]>(), event in any::<[u8; 32]>()) {
        let receipt = Receipt { seq, head: Digest(head), event: Digest(event) };
        prop_assert_eq!(receipt.encode().len(), 74);
        prop_assert_eq!(Receipt::decode(&receipt.encode()), Ok(receipt));
        let checkpoint = Checkpoint { seq, head: Digest(head) };
        prop_assert_eq!(checkpoint.encode().len(), 42);
        prop_assert_eq!(Checkpoint::decode(&checkpoint.encode()), Ok(checkpoint));
    }
}

#[test]
fn a_receipt_travels_as_one_line_of_text_and_back() {
    let receipt = Receipt { seq: 41, head: Digest([0xab; 32]), event: Digest([0x0c; 32]) };
    let signature = crate::Signature([0x5e; 64]);
    let text = receipt.to_text(&signature);
    assert_eq!(text, format!("41:{}:{}:{}", "ab".repeat(32), "0c".repeat(32), "5e".repeat(64)));
    assert_eq!(Receipt::from_text(&text), Some((receipt, signature)));
    assert_eq!(Receipt::from_text(&format!("  {} \n", text.to_uppercase())), Some((receipt, signature)));
    for bad in [
        String::new(),
        text.replacen("41:", "x:", 1),
        format!("{text}:00"),
        text[..text.len() - 2].to_string(),
        text.replacen(':', ";", 1),
        format!("+{text}"),
    ] {
        assert_eq!(Receipt::from_text(&bad), None, "{bad}");
    }
}
