//! `asamblea-wire`: the bytes that cross a boundary and get signed or
//! chained — ledger events, ledger records and their hash chain, the
//! daemon's receipts and checkpoints, and the attendee's QR credential.
//!
//! The daemon, the kiosk and any independent verifier agree on these bytes
//! and on nothing else. `docs/ledger-format.md` at the root of the
//! repository specifies every one of them, with test vectors that
//! `tests/vectors.rs` checks, so a verifier can be written in another
//! language from the document alone.
//!
//! # Invariants
//!
//! - **One meaning, one encoding.** Integers are big-endian and fixed
//!   width, booleans are 0 or 1, strings and lists carry a `u32` count and
//!   a documented limit, sets are strictly ascending. A decoder refuses
//!   anything else with [`WireError::Malformed`], naming the field and the
//!   byte offset; so `decode(encode(x)) == x` for every value `encode`
//!   accepts, and `encode(decode(b)) == b` for every `b` `decode` accepts.
//! - **Signatures bind their context.** Every signature covers
//!   `asamblea/<kind>/v2 || 0x00 || meeting id || message`, and every event
//!   carries a nonce; a ballot names its item. A signature verifies for one
//!   kind, one meeting, one item, once ([`signing_input`]). Verification is
//!   ed25519 `verify_strict`.
//! - **The chain commits to every byte.** `head_n = SHA-256(head_{n-1} ||
//!   record_n)` over the whole record: sequence, time, signer, signature
//!   and event ([`Chain`]).
//!
//! # What this crate does not know
//!
//! No I/O, no clock, no randomness: times, seeds and nonces come in as
//! arguments. No SQLite, sockets or serde; the rules engine only for its
//! vocabulary (matter kinds, settings, results). Which key may sign what is
//! fixed per kind ([`MessageKind::signer`]), but whether a key is really
//! an enrolled staff member's or a live badge's is a question of ledger
//! state, answered by the replay in `asamblea-ledger`.
//!
//! # Layout
//!
//! - `kinds`: [`MessageKind`] (tags, domains, signers) and the one-byte
//!   codes of the rules' enumerations.
//! - `values`: [`MeetingId`], [`CredentialId`], [`Nonce`], [`Digest`],
//!   [`Id`], [`Text`].
//! - `codec`: the canonical reader and writer (private).
//! - `keys`: [`PublicKey`], [`Signature`], [`Keypair`], [`signing_input`].
//! - `event`: [`Event`] and its bodies, among them [`Ballot`].
//! - `result`: [`PublishedResult`], the figures of a closed item.
//! - `record`: [`EventRecord`], [`Chain`], [`genesis_head`].
//! - `statement`: [`Receipt`], [`Checkpoint`], [`SessionPass`].
//! - `credential`: [`Credential`], the QR badge.
//! - `derived`: [`register_digest`], [`withdrawal_digest`], [`lot_index`].
//! - `admission`: [`admission_code`], the code on an admission letter
//!   ([`AdmissionCode`]: not a secret, only a shortcut for the desk).
//! - [`hex`]: lowercase hexadecimal, the text form of keys, digests,
//!   seeds and signed bytes in files, on the command line and in the API.
//! - [`limits`]: the size limits.
//! - `error`: [`WireError`] and [`Problem`].

mod admission;
mod codec;
mod credential;
mod derived;
mod error;
mod event;
pub mod hex;
mod keys;
mod kinds;
pub mod limits;
mod record;
mod registration;
mod result;
mod statement;
mod values;

pub use admission::{admission_code, AdmissionCode, AdmissionCodeError, ADMISSION_CODE_LEN};
pub use credential::Credential;
pub use derived::{lot_index, register_digest, withdrawal_digest};
pub use error::{Problem, WireError};
pub use event::{
    AgendaEntry, AgendaItem, AgentArrival, Ballot, Candidate, Choice, ConvenedModality, Event, EventBody,
    HolderVote, LodgedPower, ProxyRefusal, Reception, RemoteConvening, Revocation, SplitPart, SubmissionKind,
    SubmissionOutcome, Substitute, VerificationMethod,
};
pub use keys::{signing_input, Keypair, PublicKey, Signature};
pub use kinds::{MessageKind, SignerRole, StaffRole, FORMAT_VERSION};
pub use record::{genesis_head, Chain, EventRecord};
pub use registration::{key_fingerprint, RemoteHeartbeat, RemoteRegistration};
pub use result::{DecisionFigures, ElectionFigures, PublishedResult, Withdrawal};
pub use statement::{Checkpoint, Receipt, SessionPass};
pub use values::{CredentialId, Digest, FileText, Id, MeetingId, Nonce, Prose, Text};

#[cfg(test)]
mod tests;
