//! Signatures verify for exactly one kind, meeting, item and key, strictly;
//! any change to the signature or the message breaks them.

use asamblea_rules::OptionIndex;
use proptest::prelude::*;

use super::strategies::{arb_ballot, id};
use crate::{
    signing_input, Ballot, Checkpoint, Choice, CredentialId, Digest, Event, EventBody, EventRecord,
    HolderVote, Keypair, MeetingId, Nonce, Receipt, Signature, WireError,
};

const MEETING: MeetingId = MeetingId([0x4d; 32]);

fn ballot_on(item: &str) -> Event {
    let vote = HolderVote { holder: id("H1"), choice: Choice::Whole(OptionIndex::FOR) };
    let ballot = Ballot { item: id(item), credential: CredentialId(9), votes: vec![vote] };
    Event { nonce: Nonce([0x6e; 16]), body: EventBody::Ballot(ballot) }
}

fn attendee() -> Keypair {
    Keypair::from_seed(&[0x33; 32])
}

#[test]
fn a_signed_ballot_verifies_for_its_meeting_and_item_only() {
    let key = attendee();
    let bytes = ballot_on("item-1").encode().expect("encodes");
    let signature = key.sign(&MEETING, &bytes).expect("signs");
    assert_eq!(key.public_key().verify(&MEETING, &bytes, &signature), Ok(()));

    // The same signature on the same ballot for another item.
    let other_item = ballot_on("item-2").encode().expect("encodes");
    assert_eq!(key.public_key().verify(&MEETING, &other_item, &signature), Err(WireError::BadSignature));
    // … for another meeting.
    let other_meeting = MeetingId([0x4e; 32]);
    assert_eq!(key.public_key().verify(&other_meeting, &bytes, &signature), Err(WireError::BadSignature));
    // … by another key.
    let other_key = Keypair::from_seed(&[0x34; 32]).public_key();
    assert_eq!(other_key.verify(&MEETING, &bytes, &signature), Err(WireError::BadSignature));
    // … with another nonce.
    let mut renonced = ballot_on("item-1");
    renonced.nonce.0[0] ^= 1;
    let renonced = renonced.encode().expect("encodes");
    assert_eq!(key.public_key().verify(&MEETING, &renonced, &signature), Err(WireError::BadSignature));
}

#[test]
fn a_signature_never_crosses_kinds() {
    // `checked-out` and `checked-in-person` have the same body layout; a
    // staff signature on one must not verify on the other even with the
    // tag byte rewritten, because the domain differs.
    let staff = Keypair::from_seed(&[0x22; 32]);
    let out = Event { nonce: Nonce([1; 16]), body: EventBody::CheckedOut { person: id("H1") } };
    let out = out.encode().expect("encodes");
    let signature = staff.sign(&MEETING, &out).expect("signs");
    let mut in_person = out.clone();
    in_person[0] = crate::MessageKind::CheckedInPerson.tag();
    assert!(Event::decode(&in_person).is_ok());
    assert_eq!(staff.public_key().verify(&MEETING, &in_person, &signature), Err(WireError::BadSignature));
    let input = signing_input(&MEETING, &out).expect("a known kind");
    assert!(input.starts_with(b"asamblea/checked-out/v2\0"));
    assert_eq!(&input[24..56], &MEETING.0);
    assert_eq!(&input[56..], &out[..]);
}

#[test]
fn every_flipped_bit_of_a_signature_fails() {
    let key = attendee();
    let bytes = ballot_on("item-1").encode().expect("encodes");
    let signature = key.sign(&MEETING, &bytes).expect("signs");
    for byte in 0..64 {
        for bit in [0, 3, 7] {
            let mut flipped = signature;
            flipped.0[byte] ^= 1 << bit;
            assert_eq!(
                key.public_key().verify(&MEETING, &bytes, &flipped),
                Err(WireError::BadSignature),
                "byte {byte} bit {bit}"
            );
        }
    }
}

#[test]
fn a_non_canonical_s_is_refused() {
    // s + L is the same scalar mod L: a lax verifier accepts it, a strict
    // one does not (the signature would be malleable).
    const L: [u8; 32] = [
        0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
    ];
    let key = attendee();
    let bytes = ballot_on("item-1").encode().expect("encodes");
    let signature = key.sign(&MEETING, &bytes).expect("signs");
    let mut malleated = signature;
    let mut carry = 0u16;
    for (byte, l) in malleated.0[32..].iter_mut().zip(L) {
        let sum = u16::from(*byte) + u16::from(l) + carry;
        *byte = sum.to_le_bytes()[0];
        carry = sum >> 8;
    }
    assert_eq!(carry, 0);
    assert_ne!(malleated, signature);
    assert_eq!(key.public_key().verify(&MEETING, &bytes, &malleated), Err(WireError::BadSignature));
}

#[test]
fn a_message_of_unknown_kind_is_neither_signed_nor_verified() {
    let key = attendee();
    let refused = key.sign(&MEETING, &[0x7f, 1, 2, 3]);
    assert!(matches!(refused, Err(WireError::Malformed { field: "tag", at: 0, .. })), "{refused:?}");
    let verified = key.public_key().verify(&MEETING, &[], &Signature([0; 64]));
    assert!(matches!(verified, Err(WireError::Malformed { field: "tag", at: 0, .. })), "{verified:?}");
}

#[test]
fn records_receipts_and_checkpoints_verify_for_their_meeting_only() {
    let staff = Keypair::from_seed(&[0x22; 32]);
    let closed = Event { nonce: Nonce([2; 16]), body: EventBody::ItemClosed { item: id("item-1") } };
    let record = EventRecord::sign(4, 1_000, closed, &MEETING, &staff).expect("signs");
    assert_eq!(record.verify(&MEETING), Ok(()));
    assert_eq!(record.verify(&MeetingId([0; 32])), Err(WireError::BadSignature));
    let mut tampered = record.clone();
    tampered.event.body = EventBody::ItemClosed { item: id("item-2") };
    assert_eq!(tampered.verify(&MEETING), Err(WireError::BadSignature));
    // The record's seq and time are not signed by the actor (the chain
    // covers them): changing them keeps the signature valid.
    let moved = EventRecord { seq: 5, time_ms: 2_000, ..record };
    assert_eq!(moved.verify(&MEETING), Ok(()));

    let daemon = Keypair::from_seed(&[0x11; 32]);
    let receipt = Receipt { seq: 4, head: Digest([5; 32]), event: Digest([6; 32]) };
    let signature = receipt.sign(&MEETING, &daemon);
    assert_eq!(receipt.verify(&MEETING, &daemon.public_key(), &signature), Ok(()));
    assert_eq!(
        receipt.verify(&MeetingId([0; 32]), &daemon.public_key(), &signature),
        Err(WireError::BadSignature)
    );
    let later = Receipt { seq: 5, ..receipt };
    assert_eq!(later.verify(&MEETING, &daemon.public_key(), &signature), Err(WireError::BadSignature));
    // A receipt's signature is not a checkpoint's, though both start with seq and head.
    let checkpoint = Checkpoint { seq: 4, head: Digest([5; 32]) };
    assert_eq!(checkpoint.verify(&MEETING, &daemon.public_key(), &signature), Err(WireError::BadSignature));
    let signature = checkpoint.sign(&MEETING, &daemon);
    assert_eq!(checkpoint.verify(&MEETING, &daemon.public_key(), &signature), Ok(()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any single changed byte of a signed ballot either no longer decodes
    /// or no longer verifies.
    #[test]
    fn a_changed_byte_of_a_signed_ballot_never_verifies(
        ballot in arb_ballot(),
        at in any::<prop::sample::Index>(),
        mask in 1u8..=255,
    ) {
        let key = attendee();
        let event = Event { nonce: Nonce([9; 16]), body: EventBody::Ballot(ballot) };
        let bytes = event.encode().expect("encodes");
        let signature = key.sign(&MEETING, &bytes).expect("signs");
        let mut changed = bytes.clone();
        changed[at.index(bytes.len())] ^= mask;
        if Event::decode(&changed).is_ok() {
            prop_assert_eq!(key.public_key().verify(&MEETING, &changed, &signature), Err(WireError::BadSignature));
        }
    }
}
