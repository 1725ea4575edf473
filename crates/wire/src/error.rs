//! The crate's one error type, and the [`Problem`]s a byte string or a value
//! can have.
//!
//! Callers branch on the variant: [`WireError::Malformed`] means bytes from
//! outside were refused (say where and why), [`WireError::Invalid`] means a
//! value built in this process has no canonical encoding (a defect of the
//! caller), [`WireError::WrongLength`] means a key, signature or digest
//! handed in has the wrong size, [`WireError::BadSignature`] means the
//! cryptography said no, [`WireError::OutOfSequence`] and
//! [`WireError::TimeWentBackwards`] mean a record does not follow the
//! chain, and the `Credential…` variants tell a kiosk which part of a
//! scanned badge is wrong.

use asamblea_rules::{ItemSpecError, Outcome};

use crate::kinds::MessageKind;

/// Why bytes, a value, a signature, a chain link or a scanned credential
/// were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// Bytes that are not the canonical encoding of a message or record.
    #[error("malformed {field} at byte {at}: {problem}")]
    Malformed {
        /// The field at fault, as a dotted path (`ballot.votes.holder`).
        field: &'static str,
        /// Byte offset, from the start of the bytes given to the decoder,
        /// of the field at fault; for a truncation, of the first missing
        /// byte.
        at: usize,
        /// What is wrong with it.
        problem: Problem,
    },
    /// A value that has no canonical encoding, refused while building or
    /// encoding it.
    #[error("invalid {field}: {problem}")]
    Invalid {
        /// The field at fault, as a dotted path.
        field: &'static str,
        /// What is wrong with it.
        problem: Problem,
    },
    /// A key, signature, meeting id or digest of the wrong length.
    #[error("{what} must be {expected} bytes long, not {got}")]
    WrongLength {
        /// What was given (`public key`, `signature`, …).
        what: &'static str,
        /// The only length accepted.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A signature that does not verify strictly for this key, meeting and
    /// message.
    #[error("the signature does not verify for this key, meeting and message")]
    BadSignature,
    /// A record whose sequence number is not the next one in the chain.
    #[error("record {got} where record {expected} was expected")]
    OutOfSequence {
        /// The sequence number the chain expects.
        expected: u64,
        /// The record's sequence number.
        got: u64,
    },
    /// A record timed before the record it follows.
    #[error("record {seq} is timed {time_ms} ms, before the previous record's {previous_ms} ms")]
    TimeWentBackwards {
        /// The record's sequence number.
        seq: u64,
        /// The previous record's time.
        previous_ms: u64,
        /// The record's time.
        time_ms: u64,
    },
    /// A scanned text that does not begin with `AS`.
    #[error("not an asamblea credential: the text must begin with `AS1`")]
    CredentialNotAsamblea,
    /// A credential of a format version this reader does not know.
    #[error("credential format version `{found}` is not supported (this reader knows `1`)")]
    CredentialVersion {
        /// The character found where the version goes.
        found: char,
    },
    /// A credential of the wrong length: a partial scan, or extra
    /// characters.
    #[error(
        "the credential has {got} characters where {expected} are expected: \
         the scan is incomplete or has extra characters"
    )]
    CredentialLength {
        /// The length of a credential of this version.
        expected: usize,
        /// The number of characters scanned (surrounding whitespace removed).
        got: usize,
    },
    /// A character outside the credential's alphabet.
    #[error("character {position} of the credential, `{found}`, is not one of A–Z and 2–7")]
    CredentialCharacter {
        /// Its position, counting from 1 at the `A` of `AS1`.
        position: usize,
        /// The character.
        found: char,
    },
    /// A credential whose check value does not match its contents.
    #[error("the credential's check value does not match: a character was misread or mistyped")]
    CredentialCheck,
    /// A well-formed credential of another meeting.
    #[error("the credential belongs to another meeting")]
    CredentialOtherMeeting,
}

/// What is wrong with one field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// The bytes end inside the field.
    #[error("the field needs {needed} bytes but only {available} are left")]
    Truncated {
        /// Bytes the field needs.
        needed: usize,
        /// Bytes left.
        available: usize,
    },
    /// Bytes after the end of the message.
    #[error("{count} bytes follow the end of the message")]
    TrailingBytes {
        /// How many.
        count: usize,
    },
    /// A string, list or message longer than its limit.
    #[error("length {len} is over the limit of {limit}")]
    TooLong {
        /// The length given (bytes for strings and messages, entries for
        /// lists).
        len: usize,
        /// The documented limit.
        limit: usize,
    },
    /// A string or list shorter than its minimum (an empty id, a ballot
    /// with no votes).
    #[error("length {len} is under the minimum of {min}")]
    TooShort {
        /// The length given.
        len: usize,
        /// The documented minimum.
        min: usize,
    },
    /// A string that is not UTF-8.
    #[error("the string is not valid UTF-8")]
    NotUtf8,
    /// A string with a control character (Unicode category Cc).
    #[error("the string has a control character at its byte {position}")]
    ControlCharacter {
        /// Byte offset of the character inside the string.
        position: usize,
    },
    /// A boolean byte other than 0 or 1.
    #[error("a boolean must be 0x00 or 0x01, not {0:#04x}")]
    NotABool(u8),
    /// A tag or enumeration byte with no meaning.
    #[error("unknown code {0:#04x}")]
    UnknownCode(u8),
    /// A message of another kind than the one expected.
    #[error("a `{0}` message where another kind is expected")]
    UnexpectedKind(MessageKind),
    /// A format version this decoder does not know. Version 1 (before the
    /// agenda and the staff roles were in the ledger) is no longer read.
    #[error("unsupported format version {version}: this program reads version 2 only{why}", version = .0, why = if *.0 == 1 { " (version 1 was written before the convened agenda and the staff roles were recorded in the ledger; verify it with the asamblea release that wrote it)" } else { "" })]
    UnsupportedVersion(u8),
    /// A list that must be in strictly ascending order is not (or repeats
    /// an entry).
    #[error("entries must be in strictly ascending order, without repeats")]
    NotAscending,
    /// An entry that must be unique appears twice (an agenda item's id).
    #[error("an entry appears twice")]
    Repeated,
    /// A part of a split ballot with no shares.
    #[error("a part of a split ballot has zero shares")]
    ZeroShares,
    /// An outcome that a result of this kind cannot have.
    #[error("outcome `{}` does not fit this result", .0.code())]
    OutcomeDoesNotFit(Outcome),
    /// An item whose options do not fit its matter.
    #[error("{0}")]
    Item(ItemSpecError),
    /// More treasury shares than subscribed ones.
    #[error("treasury shares exceed subscribed shares")]
    TreasuryExceedsSubscribed,
    /// Bytes that are not a canonical ed25519 public key of full order.
    #[error("not a valid ed25519 public key (not on the curve, not canonically encoded, or of small order)")]
    InvalidPublicKey,
    /// Two lists that must have the same length do not.
    #[error("{len} entries where {expected} are needed")]
    LengthMismatch {
        /// Entries given.
        len: usize,
        /// Entries needed.
        expected: usize,
    },
    /// A position at or past the end of the list it points into.
    #[error("{value} is not below {limit}")]
    OutOfRange {
        /// The position given.
        value: u64,
        /// The length of the list.
        limit: u64,
    },
    /// A character that is not a hexadecimal digit.
    #[error("character {position} is not a hexadecimal digit")]
    NotHex {
        /// Its byte offset.
        position: usize,
    },
    /// Words that begin or end with a space or a line break (a written
    /// statement is stored trimmed, so that one text has one encoding).
    #[error("the text begins or ends with a space or a line break")]
    Untrimmed,
}
