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
//!
//! The texts reach a person (`asamblea verify`, a kiosk's log, the
//! daemon's start): each says it in Spanish first and in English after,
//! separated by ` / `. A [`Problem`] has each half on its own
//! ([`Problem::spanish`], [`Problem::english`]) so that a [`WireError`]
//! can put it in the half of its own language.

use asamblea_rules::{ItemSpecError, Outcome};

use crate::kinds::MessageKind;

/// `spanish()`, `english()` and the `español / English` Display of an
/// error type whose `texts()` gives both.
macro_rules! bilingual {
    ($name:ident) => {
        impl $name {
            /// The Spanish half of the text.
            pub fn spanish(&self) -> String {
                self.texts().0
            }

            /// The English half of the text.
            pub fn english(&self) -> String {
                self.texts().1
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{} / {}", self.spanish(), self.english())
            }
        }

        impl std::error::Error for $name {}
    };
}

/// Why bytes, a value, a signature, a chain link or a scanned credential
/// were refused. Its text is `español / English`; each half alone is
/// [`WireError::spanish`] and [`WireError::english`] (for an answer that
/// carries the two languages apart).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    /// Bytes that are not the canonical encoding of a message or record.
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
    Invalid {
        /// The field at fault, as a dotted path.
        field: &'static str,
        /// What is wrong with it.
        problem: Problem,
    },
    /// A key, signature, meeting id or digest of the wrong length.
    WrongLength {
        /// What was given (`public key`, `signature`, …), in English; the
        /// message says it in Spanish too.
        what: &'static str,
        /// The only length accepted.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A signature that does not verify strictly for this key, meeting and
    /// message.
    BadSignature,
    /// A record whose sequence number is not the next one in the chain.
    OutOfSequence {
        /// The sequence number the chain expects.
        expected: u64,
        /// The record's sequence number.
        got: u64,
    },
    /// A record timed before the record it follows.
    TimeWentBackwards {
        /// The record's sequence number.
        seq: u64,
        /// The previous record's time.
        previous_ms: u64,
        /// The record's time.
        time_ms: u64,
    },
    /// A scanned text that does not begin with `AS`.
    CredentialNotAsamblea,
    /// A credential of a format version this reader does not know.
    CredentialVersion {
        /// The character found where the version goes.
        found: char,
    },
    /// A credential of the wrong length: a partial scan, or extra
    /// characters.
    CredentialLength {
        /// The length of a credential of this version.
        expected: usize,
        /// The number of characters scanned (surrounding whitespace removed).
        got: usize,
    },
    /// A character outside the credential's alphabet.
    CredentialCharacter {
        /// Its position, counting from 1 at the `A` of `AS1`.
        position: usize,
        /// The character.
        found: char,
    },
    /// A credential whose check value does not match its contents.
    CredentialCheck,
    /// A well-formed credential of another meeting.
    CredentialOtherMeeting,
}

impl WireError {
    /// What was refused and why: Spanish, then English, each translation beside its
    /// original.
    fn texts(&self) -> (String, String) {
        match self {
            WireError::Malformed { field, at, problem } => (
                format!("error de formato en {}, byte {at}: {}", spanish_name(field), problem.spanish()),
                format!("malformed {field} at byte {at}: {}", problem.english()),
            ),
            WireError::Invalid { field, problem } => (
                format!("valor no válido en {}: {}", spanish_name(field), problem.spanish()),
                format!("invalid {field}: {}", problem.english()),
            ),
            WireError::WrongLength { what, expected, got } => (
                format!("{} debe tener {expected} bytes, no {got}", spanish_name(what)),
                format!("{what} must be {expected} bytes long, not {got}"),
            ),
            WireError::BadSignature => words(
                "la firma no verifica para esta clave, reunión y mensaje",
                "the signature does not verify for this key, meeting and message",
            ),
            WireError::OutOfSequence { expected, got } => (
                format!("el registro {got} está donde se esperaba el {expected}"),
                format!("record {got} where record {expected} was expected"),
            ),
            WireError::TimeWentBackwards { seq, previous_ms, time_ms } => (
                format!(
                    "el registro {seq} tiene la hora {time_ms} ms, anterior a la del registro previo, {previous_ms} ms"
                ),
                format!("record {seq} is timed {time_ms} ms, before the previous record's {previous_ms} ms"),
            ),
            WireError::CredentialNotAsamblea => words(
                "no es una credencial de asamblea: el texto debe empezar por `AS1`",
                "not an asamblea credential: the text must begin with `AS1`",
            ),
            WireError::CredentialVersion { found } => (
                format!("la versión `{found}` del formato de la credencial no es compatible (este lector conoce la `1`)"),
                format!("credential format version `{found}` is not supported (this reader knows `1`)"),
            ),
            WireError::CredentialLength { expected, got } => (
                format!(
                    "la credencial tiene {got} caracteres y se esperan {expected}: \
                     la lectura está incompleta o sobran caracteres"
                ),
                format!(
                    "the credential has {got} characters where {expected} are expected: \
                     the scan is incomplete or has extra characters"
                ),
            ),
            WireError::CredentialCharacter { position, found } => (
                format!("el carácter {position} de la credencial, `{found}`, no es uno de A–Z y 2–7"),
                format!("character {position} of the credential, `{found}`, is not one of A–Z and 2–7"),
            ),
            WireError::CredentialCheck => words(
                "el valor de control de la credencial no coincide: un carácter se leyó o se escribió mal",
                "the credential's check value does not match: a character was misread or mistyped",
            ),
            WireError::CredentialOtherMeeting => {
                words("la credencial es de otra reunión", "the credential belongs to another meeting")
            }
        }
    }
}

/// A fixed text in both languages.
fn words(spanish: &str, english: &str) -> (String, String) {
    (spanish.to_string(), english.to_string())
}

bilingual!(WireError);

/// What an error names, in Spanish: the labels this crate gives a value
/// (`public key`, `hexadecimal digest`…) said in Spanish, and a field's
/// dotted path (`ballot.votes.holder`, a name of `docs/ledger-format.md`)
/// as the field it is.
fn spanish_name(what: &str) -> std::borrow::Cow<'static, str> {
    std::borrow::Cow::Borrowed(match what {
        "public key" => "la clave pública",
        "signature" => "la firma",
        "hexadecimal digest" => "el resumen hexadecimal",
        "hexadecimal meeting id" => "el identificador hexadecimal de la reunión",
        "hexadecimal public key" => "la clave pública hexadecimal",
        "text" => "el texto",
        "id" => "el identificador",
        "file" => "el archivo",
        "record" => "el registro",
        path => return std::borrow::Cow::Owned(format!("el campo `{path}`")),
    })
}

/// What is wrong with one field. Its text is `español / English`; each
/// half alone is [`Problem::spanish`] and [`Problem::english`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The bytes end inside the field.
    Truncated {
        /// Bytes the field needs.
        needed: usize,
        /// Bytes left.
        available: usize,
    },
    /// Bytes after the end of the message.
    TrailingBytes {
        /// How many.
        count: usize,
    },
    /// A string, list or message longer than its limit.
    TooLong {
        /// The length given (bytes for strings and messages, entries for
        /// lists).
        len: usize,
        /// The documented limit.
        limit: usize,
    },
    /// A string or list shorter than its minimum (an empty id, a ballot
    /// with no votes).
    TooShort {
        /// The length given.
        len: usize,
        /// The documented minimum.
        min: usize,
    },
    /// A string that is not UTF-8.
    NotUtf8,
    /// A string with a control character (Unicode category Cc).
    ControlCharacter {
        /// Byte offset of the character inside the string.
        position: usize,
    },
    /// A boolean byte other than 0 or 1.
    NotABool(u8),
    /// A tag or enumeration byte with no meaning.
    UnknownCode(u8),
    /// A message of another kind than the one expected.
    UnexpectedKind(MessageKind),
    /// A format version this decoder does not know. Version 1 (before the
    /// agenda and the staff roles were in the ledger) is no longer read.
    UnsupportedVersion(u8),
    /// A list that must be in strictly ascending order is not (or repeats
    /// an entry).
    NotAscending,
    /// An entry that must be unique appears twice (an agenda item's id).
    Repeated,
    /// A part of a split ballot with no shares.
    ZeroShares,
    /// An outcome that a result of this kind cannot have.
    OutcomeDoesNotFit(Outcome),
    /// An item whose options do not fit its matter.
    Item(ItemSpecError),
    /// More treasury shares than subscribed ones.
    TreasuryExceedsSubscribed,
    /// Bytes that are not a canonical ed25519 public key of full order.
    InvalidPublicKey,
    /// Two lists that must have the same length do not.
    LengthMismatch {
        /// Entries given.
        len: usize,
        /// Entries needed.
        expected: usize,
    },
    /// A position at or past the end of the list it points into.
    OutOfRange {
        /// The position given.
        value: u64,
        /// The length of the list.
        limit: u64,
    },
    /// A character that is not a hexadecimal digit.
    NotHex {
        /// Its byte offset.
        position: usize,
    },
    /// Words that begin or end with a space or a line break (a written
    /// statement is stored trimmed, so that one text has one encoding).
    Untrimmed,
}

impl Problem {
    /// What is wrong: Spanish, then English, each translation beside its
    /// original.
    fn texts(&self) -> (String, String) {
        match self {
            Problem::Truncated { needed, available } => (
                format!("el campo necesita {needed} bytes y solo quedan {available}"),
                format!("the field needs {needed} bytes but only {available} are left"),
            ),
            Problem::TrailingBytes { count } => (
                format!("sobran {count} bytes tras el final del mensaje"),
                format!("{count} bytes follow the end of the message"),
            ),
            Problem::TooLong { len, limit } => (
                format!("la longitud {len} supera el límite de {limit}"),
                format!("length {len} is over the limit of {limit}"),
            ),
            Problem::TooShort { len, min } => (
                format!("la longitud {len} es menor que el mínimo de {min}"),
                format!("length {len} is under the minimum of {min}"),
            ),
            Problem::NotUtf8 => words("el texto no es UTF-8 válido", "the string is not valid UTF-8"),
            Problem::ControlCharacter { position } => (
                format!("el texto tiene un carácter de control en su byte {position}"),
                format!("the string has a control character at its byte {position}"),
            ),
            Problem::NotABool(byte) => (
                format!("un booleano es 0x00 o 0x01, no {byte:#04x}"),
                format!("a boolean must be 0x00 or 0x01, not {byte:#04x}"),
            ),
            Problem::UnknownCode(byte) => {
                (format!("código desconocido {byte:#04x}"), format!("unknown code {byte:#04x}"))
            }
            Problem::UnexpectedKind(kind) => (
                format!("un mensaje `{kind}` donde se espera otro tipo"),
                format!("a `{kind}` message where another kind is expected"),
            ),
            Problem::UnsupportedVersion(version) => {
                let (why_es, why_en) = if *version == 1 {
                    (
                        " (la versión 1 se escribió antes de que el orden del día convocado y los cargos del \
                         personal quedaran en el registro: verifíquelo con la versión de asamblea que la escribió)",
                        " (version 1 was written before the convened agenda and the staff roles were recorded \
                         in the ledger; verify it with the asamblea release that wrote it)",
                    )
                } else {
                    ("", "")
                };
                (
                    format!("versión de formato {version} no admitida: este programa lee solo la versión 2{why_es}"),
                    format!("unsupported format version {version}: this program reads version 2 only{why_en}"),
                )
            }
            Problem::NotAscending => words(
                "las entradas deben ir en orden estrictamente ascendente, sin repetirse",
                "entries must be in strictly ascending order, without repeats",
            ),
            Problem::Repeated => words("una entrada aparece dos veces", "an entry appears twice"),
            Problem::ZeroShares => {
                words("una parte de un voto dividido tiene cero acciones", "a part of a split ballot has zero shares")
            }
            Problem::OutcomeDoesNotFit(outcome) => (
                format!("el desenlace `{}` no corresponde a este resultado", outcome.code()),
                format!("outcome `{}` does not fit this result", outcome.code()),
            ),
            Problem::Item(error) => ("el punto no corresponde a su materia".into(), error.to_string()),
            Problem::TreasuryExceedsSubscribed => words(
                "las acciones readquiridas superan a las suscritas",
                "treasury shares exceed subscribed shares",
            ),
            Problem::InvalidPublicKey => words(
                "no es una clave pública ed25519 válida (fuera de la curva, no codificada de forma canónica o de \
                 orden pequeño)",
                "not a valid ed25519 public key (not on the curve, not canonically encoded, or of small order)",
            ),
            Problem::LengthMismatch { len, expected } => (
                format!("{len} entradas donde se necesitan {expected}"),
                format!("{len} entries where {expected} are needed"),
            ),
            Problem::OutOfRange { value, limit } => {
                (format!("{value} no es menor que {limit}"), format!("{value} is not below {limit}"))
            }
            Problem::NotHex { position } => (
                format!("el carácter {position} no es un dígito hexadecimal"),
                format!("character {position} is not a hexadecimal digit"),
            ),
            Problem::Untrimmed => words(
                "el texto empieza o termina con un espacio o un salto de línea",
                "the text begins or ends with a space or a line break",
            ),
        }
    }
}

bilingual!(Problem);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_is_spanish_first_then_english() {
        let error = WireError::Malformed { field: "ballot.votes", at: 7, problem: Problem::NotUtf8 };
        assert_eq!(
            error.to_string(),
            "error de formato en el campo `ballot.votes`, byte 7: el texto no es UTF-8 válido / \
             malformed ballot.votes at byte 7: the string is not valid UTF-8"
        );
        let problem = Problem::TooShort { len: 0, min: 1 };
        assert_eq!(
            problem.to_string(),
            "la longitud 0 es menor que el mínimo de 1 / length 0 is under the minimum of 1"
        );
        let version = Problem::UnsupportedVersion(1).to_string();
        let (spanish, english) = version.split_once(" / ").expect("two halves");
        assert!(
            spanish.contains("versión 1 se escribió") && english.contains("version 1 was written"),
            "{version}"
        );
    }

    #[test]
    fn every_length_this_crate_checks_is_named_in_spanish() {
        use crate::{Digest, MeetingId, PublicKey, Signature};
        let errors = [
            PublicKey::from_slice(&[0; 31]).unwrap_err(),
            PublicKey::from_hex("00").unwrap_err(),
            Signature::from_slice(&[0; 63]).unwrap_err(),
            Digest::from_hex("00").unwrap_err(),
            MeetingId::from_hex("00").unwrap_err(),
        ];
        for error in errors {
            let WireError::WrongLength { what, .. } = error else { panic!("{error:?}") };
            let spanish = spanish_name(what);
            assert!(!spanish.contains(what), "`{what}` has no Spanish name");
            let text = error.to_string();
            assert!(text.starts_with(&*spanish) && text.contains(" / "), "{text}");
        }
    }
}
