//! The chain links records in order, in time, and commits to every byte.

use proptest::prelude::*;

use super::strategies::{arb_record, id};
use crate::{
    genesis_head, Chain, Digest, Event, EventBody, EventRecord, Keypair, MeetingId, Nonce, WireError,
};

const MEETING: MeetingId = MeetingId([0x4d; 32]);

fn record(seq: u64, time_ms: u64) -> EventRecord {
    let nonce = Nonce([u8::try_from(seq).expect("few records"); 16]);
    let event = Event { nonce, body: EventBody::CheckedInPerson { holder: id("H1") } };
    EventRecord::sign(seq, time_ms, event, &MEETING, &Keypair::from_seed(&[0x22; 32])).expect("signs")
}

#[test]
fn the_chain_starts_at_the_meetings_genesis_head() {
    let chain = Chain::new(&MEETING);
    assert_eq!(chain.seq(), 0);
    assert_eq!(chain.head(), genesis_head(&MEETING));
    assert_eq!(chain.head(), Digest::sha256(&[b"asamblea/ledger/v1\0".as_slice(), &MEETING.0].concat()));
    assert_ne!(genesis_head(&MEETING), genesis_head(&MeetingId([0x4e; 32])));
}

#[test]
fn each_head_hashes_the_previous_head_and_the_whole_record() {
    let mut chain = Chain::new(&MEETING);
    let first = record(1, 10);
    let head = chain.append(&first).expect("links");
    let expected =
        Digest::sha256(&[&genesis_head(&MEETING).0[..], &first.encode().expect("encodes")].concat());
    assert_eq!(head, expected);
    assert_eq!((chain.seq(), chain.head()), (1, head));
}

#[test]
fn records_out_of_sequence_or_back_in_time_are_refused_and_change_nothing() {
    let mut chain = Chain::new(&MEETING);
    chain.append(&record(1, 10)).expect("links");
    let before = chain.clone();
    assert_eq!(chain.append(&record(3, 10)), Err(WireError::OutOfSequence { expected: 2, got: 3 }));
    assert_eq!(chain.append(&record(1, 10)), Err(WireError::OutOfSequence { expected: 2, got: 1 }));
    assert_eq!(
        chain.append(&record(2, 9)),
        Err(WireError::TimeWentBackwards { seq: 2, previous_ms: 10, time_ms: 9 })
    );
    assert_eq!(chain, before);
    assert!(chain.append(&record(2, 10)).is_ok(), "equal times are fine");
}

#[test]
fn the_same_records_in_another_meeting_give_other_heads() {
    let mut here = Chain::new(&MEETING);
    let mut there = Chain::new(&MeetingId([0; 32]));
    let r = record(1, 10);
    assert_ne!(here.append(&r), there.append(&r));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Flipping any byte of a record either makes it undecodable or gives
    /// another head.
    #[test]
    fn a_changed_byte_of_a_record_changes_the_head(
        record in arb_record(),
        at in any::<prop::sample::Index>(),
        mask in 1u8..=255,
    ) {
        let record = EventRecord { seq: 1, ..record };
        let bytes = record.encode().expect("encodes");
        let head = Chain::new(&MEETING).append(&record).expect("links");
        let mut changed = bytes.clone();
        changed[at.index(bytes.len())] ^= mask;
        if let Ok(decoded) = EventRecord::decode(&changed) {
            let mut chain = Chain::new(&MEETING);
            match chain.append(&decoded) {
                Ok(other) => prop_assert_ne!(other, head),
                Err(error) => prop_assert!(matches!(error, WireError::OutOfSequence { .. }), "{error}"),
            }
        }
    }
}
