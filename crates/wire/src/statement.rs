//! What the daemon signs outside the ledger: a receipt for one appended
//! event, a checkpoint of the head, and (a replicated meeting's node) a
//! staff session's pass to the node that takes the meeting over.
//!
//! ```text
//! receipt:      0x40 || 0x02 || u64 seq || head (32) || SHA-256 of the event's bytes (32)
//! checkpoint:   0x41 || 0x02 || u64 seq || head (32)
//! session-pass: 0x42 || 0x02 || staff key (32) || u64 issued_ms || u64 expires_ms || nonce (16)
//! ```
//!
//! A receipt and its signature also travel as one line of text, what a
//! kiosk prints for the voter: `SEQ:HEAD:EVENT:SIGNATURE`
//! ([`Receipt::to_text`]).
//!
//! Each is signed by the daemon key like any message, under the domains
//! `asamblea/receipt/v2`, `asamblea/checkpoint/v2` and
//! `asamblea/session-pass/v2`.

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

/// A node's word that a staff member holds a session there, which another
/// node of the same meeting takes in place of the staff token until
/// `expires_ms` (`docs/ledger-format.md` §6, `docs/replication.md`): the
/// console open at a leader that dies goes on at the next without its
/// person typing the token again. Never in the ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionPass {
    /// The staff member's enrolled key: their account at every node.
    pub staff: PublicKey,
    /// When the node gave it (Unix milliseconds, the node's clock).
    pub issued_ms: u64,
    /// After this, no node takes it.
    pub expires_ms: u64,
    /// Drawn at random: a node takes each pass once.
    pub nonce: [u8; 16],
}

impl SessionPass {
    /// The canonical bytes (66).
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::message(MessageKind::SessionPass);
        w.bytes(&self.staff.to_bytes());
        w.u64(self.issued_ms);
        w.u64(self.expires_ms);
        w.bytes(&self.nonce);
        w.into_bytes()
    }

    /// The pass of canonical bytes.
    pub fn decode(bytes: &[u8]) -> Result<SessionPass, WireError> {
        let mut r = Reader::message(bytes, 0, "session-pass")?;
        r.header(|kind| kind == MessageKind::SessionPass)?;
        let pass = SessionPass {
            staff: r.public_key("session-pass.staff")?,
            issued_ms: r.u64("session-pass.issued_ms")?,
            expires_ms: r.u64("session-pass.expires_ms")?,
            nonce: r.array("session-pass.nonce")?,
        };
        r.end()?;
        Ok(pass)
    }

    /// The node's signature for `meeting`.
    pub fn sign(&self, meeting: &MeetingId, node: &Keypair) -> Signature {
        node.sign_kind(MessageKind::SessionPass, meeting, &self.encode())
    }

    /// The pass and its signature as one line of text, as a console holds
    /// it and posts it: `BYTES:SIGNATURE` in lowercase hexadecimal.
    pub fn to_text(&self, signature: &Signature) -> String {
        format!("{}:{}", crate::hex::encode(&self.encode()), crate::hex::encode(&signature.0))
    }

    /// A pass of [`SessionPass::to_text`]'s form whose signature is by one
    /// of `nodes` for `meeting`, with the key that signed it; `None` for
    /// anything else.
    pub fn from_text(
        text: &str,
        meeting: &MeetingId,
        nodes: &[PublicKey],
    ) -> Option<(SessionPass, PublicKey)> {
        let (bytes, signature) = text.trim().split_once(':')?;
        let pass = SessionPass::decode(&crate::hex::decode(bytes)?).ok()?;
        let signature = Signature::from_slice(&crate::hex::decode(signature)?).ok()?;
        let encoded = pass.encode();
        let signer = nodes
            .iter()
            .find(|key| key.verify_kind(MessageKind::SessionPass, meeting, &encoded, &signature).is_ok())?;
        Some((pass, *signer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a pass signed by one of the nodes given, for the meeting given,
    /// unaltered, is taken back.
    #[test]
    fn a_pass_is_taken_only_whole_for_its_meeting_from_a_node() {
        let node = Keypair::from_seed(&[7; 32]);
        let other = Keypair::from_seed(&[8; 32]);
        let meeting = MeetingId([1; 32]);
        let pass = SessionPass {
            staff: Keypair::from_seed(&[9; 32]).public_key(),
            issued_ms: 1_000,
            expires_ms: 301_000,
            nonce: [3; 16],
        };
        let text = pass.to_text(&pass.sign(&meeting, &node));
        let nodes = [other.public_key(), node.public_key()];
        assert_eq!(SessionPass::from_text(&text, &meeting, &nodes), Some((pass, node.public_key())));
        assert_eq!(SessionPass::from_text(&text, &MeetingId([2; 32]), &nodes), None, "another meeting");
        assert_eq!(SessionPass::from_text(&text, &meeting, &[other.public_key()]), None, "not a node");
        let later = SessionPass { expires_ms: u64::MAX, ..pass };
        let forged = format!("{}:{}", crate::hex::encode(&later.encode()), text.split_once(':').unwrap().1);
        assert_eq!(SessionPass::from_text(&forged, &meeting, &nodes), None, "a later expiry");
        // The pass's very bytes signed by the node under another kind's
        // domain (a receipt's) never pass for a pass.
        let crossed = format!(
            "{}:{}",
            text.split_once(':').unwrap().0,
            crate::hex::encode(&node.sign_kind(MessageKind::Receipt, &meeting, &pass.encode()).0)
        );
        assert_eq!(SessionPass::from_text(&crossed, &meeting, &nodes), None, "another kind's domain");
        for bad in ["", ":", "zz:zz", &text[2..], &format!("{text}:00")] {
            assert_eq!(SessionPass::from_text(bad, &meeting, &nodes), None, "{bad}");
        }
    }
}
