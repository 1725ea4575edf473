//! What the daemon signs about its ledger: a receipt for one appended
//! event, and a checkpoint of the head.
//!
//! ```text
//! receipt:    0x40 || 0x02 || u64 seq || head (32) || SHA-256 of the event's bytes (32)
//! checkpoint: 0x41 || 0x02 || u64 seq || head (32)
//! ```
//!
//! A receipt and its signature also travel as one line of text, what a
//! kiosk prints for the voter: `SEQ:HEAD:EVENT:SIGNATURE`
//! ([`Receipt::to_text`]).
//!
//! Both are signed by the daemon key like any message, under the domains
//! `asamblea/receipt/v2` and `asamblea/checkpoint/v2`.

use crate::codec::{Reader, Writer};
use crate::error::WireError;
use crate::keys::{Keypair, PublicKey, Signature};
use crate::kinds::MessageKind;
use crate::values::{Digest, MeetingId};

/// The daemon's word that an event is durable at `seq`, where the chain's
/// head became `head`. Handed to the kiosk (and the attendee) only once
/// the event is committed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Receipt {
    /// The record's sequence number.
    pub seq: u64,
    /// The head after the record.
    pub head: Digest,
    /// SHA-256 of the event's canonical bytes: the ballot's name, by
    /// which the daemon answers and checks receipts.
    pub event: Digest,
}

/// The head of the chain at `seq`, signed by the daemon; the chair reads
/// it out and prints it at each item's close, so that a truncated or
/// rewritten ledger is caught.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The sequence number of the last record covered.
    pub seq: u64,
    /// `head_seq`.
    pub head: Digest,
}

impl Receipt {
    /// The receipt and its signature as one line of text (ledger-format
    /// §6): `SEQ:HEAD:EVENT:SIGNATURE`, the number in decimal and the rest
    /// in lowercase hexadecimal.
    pub fn to_text(&self, signature: &Signature) -> String {
        format!("{}:{}:{}:{}", self.seq, self.head, self.event, crate::hex::encode(&signature.0))
    }

    /// A receipt and its signature from [`Receipt::to_text`]'s form
    /// (whitespace around each part and hex digits in either case are
    /// forgiven); `None` for anything else.
    pub fn from_text(text: &str) -> Option<(Receipt, Signature)> {
        let mut parts = text.trim().split(':').map(str::trim);
        let seq =
            parts.next().filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))?.parse().ok()?;
        let head = Digest::from_hex(parts.next()?).ok()?;
        let event = Digest::from_hex(parts.next()?).ok()?;
        let signature = Signature::from_slice(&crate::hex::decode(parts.next()?)?).ok()?;
        if parts.next().is_some() {
            return None;
        }
        Some((Receipt { seq, head, event }, signature))
    }

    /// The canonical bytes (74).
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::message(MessageKind::Receipt);
        w.u64(self.seq);
        w.bytes(&self.head.0);
        w.bytes(&self.event.0);
        w.into_bytes()
    }

    /// The receipt of canonical bytes.
    pub fn decode(bytes: &[u8]) -> Result<Receipt, WireError> {
        let mut r = Reader::message(bytes, 0, "receipt")?;
        r.header(|kind| kind == MessageKind::Receipt)?;
        let receipt = Receipt {
            seq: r.u64("receipt.seq")?,
            head: Digest(r.array("receipt.head")?),
            event: Digest(r.array("receipt.event")?),
        };
        r.end()?;
        Ok(receipt)
    }

    /// The daemon's signature for `meeting`.
    pub fn sign(&self, meeting: &MeetingId, daemon: &Keypair) -> Signature {
        daemon.sign_kind(MessageKind::Receipt, meeting, &self.encode())
    }

    /// Checks the daemon's signature for `meeting`.
    pub fn verify(
        &self,
        meeting: &MeetingId,
        daemon: &PublicKey,
        signature: &Signature,
    ) -> Result<(), WireError> {
        daemon.verify_kind(MessageKind::Receipt, meeting, &self.encode(), signature)
    }
}

impl Checkpoint {
    /// The canonical bytes (42).
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::message(MessageKind::Checkpoint);
        w.u64(self.seq);
        w.bytes(&self.head.0);
        w.into_bytes()
    }

    /// The checkpoint of canonical bytes.
    pub fn decode(bytes: &[u8]) -> Result<Checkpoint, WireError> {
        let mut r = Reader::message(bytes, 0, "checkpoint")?;
        r.header(|kind| kind == MessageKind::Checkpoint)?;
        let checkpoint =
            Checkpoint { seq: r.u64("checkpoint.seq")?, head: Digest(r.array("checkpoint.head")?) };
        r.end()?;
        Ok(checkpoint)
    }

    /// The daemon's signature for `meeting`.
    pub fn sign(&self, meeting: &MeetingId, daemon: &Keypair) -> Signature {
        daemon.sign_kind(MessageKind::Checkpoint, meeting, &self.encode())
    }

    /// Checks the daemon's signature for `meeting`.
    pub fn verify(
        &self,
        meeting: &MeetingId,
        daemon: &PublicKey,
        signature: &Signature,
    ) -> Result<(), WireError> {
        daemon.verify_kind(MessageKind::Checkpoint, meeting, &self.encode(), signature)
    }
}
