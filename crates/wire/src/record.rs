//! Ledger records and the hash chain that links them.
//!
//! A record is one event with its place in the ledger, its time and its
//! signer's signature:
//!
//! ```text
//! u64 seq || u64 time_ms || signer key (32) || signature (64) || u32 event length || event bytes
//! ```
//!
//! The chain commits to every byte of every record:
//!
//! ```text
//! head_0 = SHA-256("asamblea/ledger/v1" || 0x00 || meeting id)
//! head_n = SHA-256(head_{n-1} || record_n bytes)     (record n has seq = n)
//! ```

use crate::codec::{Reader, Writer};
use crate::error::{Problem, WireError};
use crate::event::Event;
use crate::keys::{Keypair, PublicKey, Signature};
use crate::limits::MAX_MESSAGE_LEN;
use crate::values::{Digest, MeetingId};

/// One event in its place in the ledger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRecord {
    /// Position in the ledger, from 1 with no gap.
    pub seq: u64,
    /// When the daemon appended it: milliseconds since the Unix epoch,
    /// UTC, never less than the previous record's.
    pub time_ms: u64,
    /// The key that signed the event: whose it must be is fixed by the
    /// event's kind ([`MessageKind::signer`](crate::MessageKind::signer)).
    pub signer: PublicKey,
    /// The signer's signature on the event's signing input.
    pub signature: Signature,
    /// The event.
    pub event: Event,
}

impl EventRecord {
    /// Bytes of a record besides its event.
    pub const HEADER_LEN: usize = 8 + 8 + PublicKey::LEN + Signature::LEN + 4;

    /// A record of `event` signed by `key` for `meeting`.
    pub fn sign(
        seq: u64,
        time_ms: u64,
        event: Event,
        meeting: &MeetingId,
        key: &Keypair,
    ) -> Result<EventRecord, WireError> {
        let bytes = event.encode()?;
        let signature = key.sign_kind(event.kind(), meeting, &bytes);
        Ok(EventRecord { seq, time_ms, signer: key.public_key(), signature, event })
    }

    /// The canonical bytes.
    pub fn encode(&self) -> Result<Vec<u8>, WireError> {
        let event = self.event.encode()?;
        let mut w = Writer::bare();
        w.u64(self.seq);
        w.u64(self.time_ms);
        w.bytes(&self.signer.to_bytes());
        w.bytes(&self.signature.0);
        w.u32(u32::try_from(event.len()).expect("an event is at most MAX_MESSAGE_LEN bytes"));
        w.bytes(&event);
        Ok(w.into_bytes())
    }

    /// The record of canonical bytes; anything else is refused, naming the
    /// field and the byte offset (from the record's start) at fault.
    pub fn decode(bytes: &[u8]) -> Result<EventRecord, WireError> {
        let limit = Self::HEADER_LEN + MAX_MESSAGE_LEN;
        if bytes.len() > limit {
            let problem = Problem::TooLong { len: bytes.len(), limit };
            return Err(WireError::Malformed { field: "record", at: 0, problem });
        }
        let mut r = Reader::new(bytes, 0);
        let seq = r.u64("record.seq")?;
        let time_ms = r.u64("record.time_ms")?;
        let signer = r.public_key("record.signer")?;
        let signature = Signature(r.array("record.signature")?);
        let len = r.count("record.event_len", 0, MAX_MESSAGE_LEN)?;
        let at = r.at();
        let event = Event::decode_at(r.take("record.event", len)?, at)?;
        r.end()?;
        Ok(EventRecord { seq, time_ms, signer, signature, event })
    }

    /// The event's canonical bytes inside a record's canonical bytes (those
    /// [`EventRecord::decode`] accepted): what its signature covers, without
    /// encoding the event again. `None` if `bytes` is shorter than a record.
    pub fn event_bytes(bytes: &[u8]) -> Option<&[u8]> {
        bytes.get(Self::HEADER_LEN..)
    }

    /// Checks the signature of the event by `signer`, for `meeting`.
    /// Whether `signer` may sign this kind of event is for the replay to
    /// decide.
    pub fn verify(&self, meeting: &MeetingId) -> Result<(), WireError> {
        let bytes = self.event.encode()?;
        self.signer.verify_kind(self.event.kind(), meeting, &bytes, &self.signature)
    }
}

/// The first head of a meeting's chain:
/// `SHA-256("asamblea/ledger/v1" || 0x00 || meeting id)`.
pub fn genesis_head(meeting: &MeetingId) -> Digest {
    let mut input = Vec::with_capacity(19 + 1 + 32);
    input.extend_from_slice(b"asamblea/ledger/v1\0");
    input.extend_from_slice(&meeting.0);
    Digest::sha256(&input)
}

/// The running head of a chain, and the checks that keep it linear.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    /// Sequence number of the last record appended; 0 before any.
    seq: u64,
    /// `head_seq`.
    head: Digest,
    /// Time of the last record appended, so a later one is never earlier.
    time_ms: u64,
}

impl Chain {
    /// The chain of a meeting with no record yet: `head_0`.
    pub fn new(meeting: &MeetingId) -> Chain {
        Chain { seq: 0, head: genesis_head(meeting), time_ms: 0 }
    }

    /// Sequence number of the last record appended (0 before any).
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The current head.
    pub fn head(&self) -> Digest {
        self.head
    }

    /// The time of the last record appended (0 before any).
    pub fn time_ms(&self) -> u64 {
        self.time_ms
    }

    /// Links the next record and returns the new head. Refused unless its
    /// sequence number is the next one and its time is not earlier than
    /// the last; the chain is unchanged then. Signatures are not checked
    /// here: see [`EventRecord::verify`].
    pub fn append(&mut self, record: &EventRecord) -> Result<Digest, WireError> {
        let bytes = record.encode()?;
        self.append_encoded(record, &bytes)
    }

    /// [`Chain::append`] of a record whose canonical bytes the caller has
    /// (those [`EventRecord::decode`] accepted for it): a replay links
    /// every record without encoding it again.
    pub fn append_encoded(&mut self, record: &EventRecord, bytes: &[u8]) -> Result<Digest, WireError> {
        let expected = self.seq + 1;
        if record.seq != expected {
            return Err(WireError::OutOfSequence { expected, got: record.seq });
        }
        if record.time_ms < self.time_ms {
            return Err(WireError::TimeWentBackwards {
                seq: record.seq,
                previous_ms: self.time_ms,
                time_ms: record.time_ms,
            });
        }
        let mut input = Vec::with_capacity(32 + bytes.len());
        input.extend_from_slice(&self.head.0);
        input.extend_from_slice(bytes);
        self.head = Digest::sha256(&input);
        self.seq = expected;
        self.time_ms = record.time_ms;
        Ok(self.head)
    }
}
