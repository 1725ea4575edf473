//! What an observer outside the bundle holds — a voter's receipt, a head
//! the daemon signed on the live feed — checked against the bundle: each
//! must stand in the chain at its number, so a ledger cut or rewritten
//! after it was handed out fails.

use asamblea_ledger::VerifyError;
use asamblea_wire::{Checkpoint, Digest, EventBody, Keypair, Receipt, Signature};

use crate::fixture::{daemon, fixture, MEETING};

/// The receipt the daemon gave for the ballot at `seq`.
fn receipt_at(seq: u64, key: &Keypair) -> (Receipt, Signature) {
    let f = fixture();
    let record = &f.records()[seq as usize - 1];
    assert!(matches!(record.event.body, EventBody::Ballot(_)), "event {seq} is a ballot");
    let receipt = Receipt { seq, head: f.head(seq), event: Digest::sha256(&record.event.encode().unwrap()) };
    let signature = receipt.sign(&MEETING, key);
    (receipt, signature)
}

fn ballots() -> Vec<u64> {
    let f = fixture();
    f.records().iter().filter(|r| matches!(r.event.body, EventBody::Ballot(_))).map(|r| r.seq).collect()
}

#[test]
fn every_genuine_receipt_and_witness_is_borne_out() {
    let f = fixture();
    let receipts: Vec<_> = ballots().into_iter().map(|seq| receipt_at(seq, &daemon())).collect();
    assert!(receipts.len() >= 5, "the fixture casts ballots");
    let witnesses: Vec<_> = [3, 20, f.last()]
        .into_iter()
        .map(|seq| {
            let c = Checkpoint { seq, head: f.head(seq) };
            (c, c.sign(&MEETING, &daemon()))
        })
        .collect();
    let verified = f.verify_observed(&f.bytes, witnesses, receipts.clone()).expect("verifies");
    assert_eq!(verified.receipts, receipts.len());
}

#[test]
fn a_receipt_the_ledger_does_not_bear_out_is_named() {
    let f = fixture();
    let seq = ballots()[1];
    let check = |receipt: (Receipt, Signature), reason: &str| {
        let genuine = receipt_at(ballots()[0], &daemon());
        let error = f.verify_observed(&f.bytes, Vec::new(), vec![genuine, receipt]).expect_err("refused");
        assert!(matches!(error, VerifyError::Receipt { index: 2, seq: s, .. } if s == seq), "{error}");
        let text = error.to_string();
        // Spanish first, English after, each half naming the receipt.
        assert!(text.starts_with(&format!("recibo 2 (evento {seq}): ")), "{text}");
        assert!(text.contains(&format!(" / receipt 2 (event {seq}): ")) && text.contains(reason), "{text}");
    };
    // Signed by someone else.
    check(receipt_at(seq, &Keypair::from_seed(&[9; 32])), "not signed by the daemon key");
    // Another event at its number: the ledger was rewritten without it.
    let (mut receipt, _) = receipt_at(seq, &daemon());
    receipt.event = Digest([7; 32]);
    let signature = receipt.sign(&MEETING, &daemon());
    check((receipt, signature), "another event stands at its number");
    // Another head at its number: the chain was rebuilt under it.
    let (mut receipt, _) = receipt_at(seq, &daemon());
    receipt.head = Digest([8; 32]);
    let signature = receipt.sign(&MEETING, &daemon());
    check((receipt, signature), "re-chained");
    // Beyond the bundle's end.
    let (mut receipt, _) = receipt_at(seq, &daemon());
    receipt.seq = f.last() + 5;
    let signature = receipt.sign(&MEETING, &daemon());
    let error = f.verify_observed(&f.bytes, Vec::new(), vec![(receipt, signature)]).expect_err("refused");
    assert!(error.to_string().contains("cut short"), "{error}");
}

#[test]
fn a_witnessed_head_catches_a_cut_or_a_rewrite_and_must_be_the_daemons() {
    let f = fixture();
    let seq = 20;
    let witness = |head: Digest, key: &Keypair| {
        let c = Checkpoint { seq, head };
        (c, c.sign(&MEETING, key))
    };
    let error =
        f.verify_observed(&f.bytes, vec![witness(Digest([1; 32]), &daemon())], Vec::new()).unwrap_err();
    assert_eq!(error, VerifyError::CheckpointMismatch { seq });
    let error = f
        .verify_observed(&f.bytes, vec![witness(f.head(seq), &Keypair::from_seed(&[9; 32]))], Vec::new())
        .unwrap_err();
    assert_eq!(error, VerifyError::WitnessSignature { seq });
    // A witness of the end, against a bundle cut before it.
    let end = Checkpoint { seq: f.last(), head: f.head(f.last()) };
    let cut = f.bundle_with(|bundle| {
        bundle.records.truncate(f.last() as usize - 1);
        bundle.checkpoints.retain(|(c, _)| c.seq < f.last());
        let c = Checkpoint { seq: f.last() - 1, head: f.head(f.last() - 1) };
        bundle.checkpoints.push((c, c.sign(&MEETING, &daemon())));
    });
    let error = f.verify_observed(&cut, vec![(end, end.sign(&MEETING, &daemon()))], Vec::new()).unwrap_err();
    assert_eq!(error, VerifyError::Truncated { last: f.last() - 1, seq: f.last() });
}
