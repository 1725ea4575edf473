//! The admission code (código de admisión) printed on an admission letter
//! and in its QR: ten Crockford base32 characters, `XXXXX-XXXXX`, derived
//! from the meeting id and a person's id (`docs/ledger-format.md` §7.4).
//!
//! It is **not a secret and not a credential**: anyone who knows the
//! meeting id and a person's document computes it. It only saves the desk
//! typing: scanned or typed, it brings up the person the letter was made
//! for, whose identity document the desk then checks
//! (`docs/threat-model.md`, admission letters). It never opens a badge, a
//! vote or a key.

use std::fmt;

use sha2::{Digest as _, Sha256};

use crate::values::MeetingId;

/// Crockford's base32 alphabet: no I, L, O or U.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// How many characters a code has (50 bits, 5 a character).
pub const ADMISSION_CODE_LEN: usize = 10;

/// A person's admission code for one meeting: the first 50 bits of
/// `SHA-256("asamblea/admission/v1" ‖ 0x00 ‖ meeting id ‖ u32 id length ‖ id)`.
/// Shown as `XXXXX-XXXXX` ([`fmt::Display`]); read back, however typed or
/// scanned, by [`AdmissionCode::parse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AdmissionCode(u64);

/// The admission code of `person` (a holder's or an agent's id, as the
/// register or the power writes it) in `meeting`.
pub fn admission_code(meeting: &MeetingId, person: &str) -> AdmissionCode {
    let mut hasher = Sha256::new();
    hasher.update(b"asamblea/admission/v1\0");
    hasher.update(meeting.0);
    let id = person.as_bytes();
    hasher.update(u32::try_from(id.len()).expect("an id in memory is shorter than 4 GiB").to_be_bytes());
    hasher.update(id);
    let h: [u8; 32] = hasher.finalize().into();
    let mut first = [0u8; 8];
    first.copy_from_slice(&h[..8]);
    AdmissionCode(u64::from_be_bytes(first) >> 14)
}

/// Why a text is not an admission code. Each message says it in Spanish,
/// then in English after ` / `.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AdmissionCodeError {
    /// Nothing but spaces and dashes.
    #[error("el código de admisión está vacío / the admission code is empty")]
    Empty,
    /// A character outside Crockford's base32 (after I and L were read as
    /// 1 and O as 0).
    #[error(
        "«{character}» (carácter {position}) no va en un código de admisión: solo dígitos y letras A–Z sin U / \
         «{character}» (character {position}) is not part of an admission code: digits and letters A–Z but U only"
    )]
    Character {
        /// The character refused, as given.
        character: char,
        /// Its position among the characters given, from 1.
        position: usize,
    },
    /// Too few or too many characters.
    #[error(
        "un código de admisión tiene 10 caracteres (XXXXX-XXXXX), se leyeron {got} / \
         an admission code has 10 characters (XXXXX-XXXXX), {got} were read"
    )]
    Length {
        /// How many characters of the code were read.
        got: usize,
    },
}

impl AdmissionCode {
    /// The code's 50 bits.
    pub fn bits(self) -> u64 {
        self.0
    }

    /// Reads a code as an operator types it or a scanner sends it: any
    /// case, spaces and dashes anywhere, and Crockford's readings of
    /// look-alikes (I and L as 1, O as 0). Anything else is refused.
    pub fn parse(text: &str) -> Result<AdmissionCode, AdmissionCodeError> {
        let mut bits = 0u64;
        let mut read = 0usize;
        for (position, given) in text.chars().enumerate() {
            if given.is_whitespace() || given == '-' {
                continue;
            }
            let c = match given.to_ascii_uppercase() {
                'I' | 'L' => '1',
                'O' => '0',
                other => other,
            };
            let value = ALPHABET
                .iter()
                .position(|&a| char::from(a) == c)
                .ok_or(AdmissionCodeError::Character { character: given, position: position + 1 })?;
            read += 1;
            if read <= ADMISSION_CODE_LEN {
                bits = (bits << 5) | value as u64;
            }
        }
        match read {
            0 => Err(AdmissionCodeError::Empty),
            ADMISSION_CODE_LEN => Ok(AdmissionCode(bits)),
            got => Err(AdmissionCodeError::Length { got }),
        }
    }
}

impl fmt::Display for AdmissionCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..ADMISSION_CODE_LEN {
            if i == 5 {
                f.write_str("-")?;
            }
            let symbol = (self.0 >> (5 * (ADMISSION_CODE_LEN - 1 - i))) & 31;
            write!(f, "{}", char::from(ALPHABET[symbol as usize]))?;
        }
        Ok(())
    }
}

impl std::str::FromStr for AdmissionCode {
    type Err = AdmissionCodeError;

    fn from_str(text: &str) -> Result<AdmissionCode, AdmissionCodeError> {
        AdmissionCode::parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meeting() -> MeetingId {
        MeetingId(std::array::from_fn(|i| i as u8))
    }

    /// What `typed` reads as: the code shown, or the error's words.
    fn check(typed: &str, expected: Result<&str, AdmissionCodeError>) {
        let read = AdmissionCode::parse(typed).map(|c| c.to_string());
        assert_eq!(read, expected.map(str::to_string), "{typed:?}");
    }

    #[test]
    fn a_code_is_ten_symbols_shown_in_two_groups_and_read_back() {
        let code = admission_code(&meeting(), "CC-1032456789");
        let shown = code.to_string();
        assert_eq!(shown.len(), 11);
        assert_eq!(shown.as_bytes()[5], b'-');
        assert!(shown.chars().all(|c| c == '-' || ALPHABET.contains(&(c as u8))));
        assert_eq!(AdmissionCode::parse(&shown), Ok(code));
        assert!(code.bits() < 1 << 50);
        // Another person, another meeting: another code.
        assert_ne!(admission_code(&meeting(), "CC-1032456788"), code);
        assert_ne!(admission_code(&MeetingId([7; 32]), "CC-1032456789"), code);
    }

    #[test]
    fn what_a_tired_operator_types_is_read() {
        check("0123456789", Ok("01234-56789"));
        check("01234-56789", Ok("01234-56789"));
        check(" abcde fghjk ", Ok("ABCDE-FGHJK"));
        check("a-b-c-d-e-f-g-h-j-k", Ok("ABCDE-FGHJK"));
        check("ILOil-o0000", Ok("11011-00000"));
        check("zzzzz\tzzzzz\n", Ok("ZZZZZ-ZZZZZ"));
    }

    #[test]
    fn anything_else_is_refused_saying_why() {
        check("", Err(AdmissionCodeError::Empty));
        check(" - -", Err(AdmissionCodeError::Empty));
        check("01234-5678", Err(AdmissionCodeError::Length { got: 9 }));
        check("01234-567890", Err(AdmissionCodeError::Length { got: 11 }));
        check("0123U-56789", Err(AdmissionCodeError::Character { character: 'U', position: 5 }));
        check("01234_56789", Err(AdmissionCodeError::Character { character: '_', position: 6 }));
        check("01234.56789", Err(AdmissionCodeError::Character { character: '.', position: 6 }));
        check("ÁBCDE-FGHJK", Err(AdmissionCodeError::Character { character: 'Á', position: 1 }));
        let message = AdmissionCode::parse("0123U-56789").unwrap_err().to_string();
        assert!(message.starts_with("«U» (carácter 5) no va en un código de admisión"), "{message}");
        assert!(message.contains(" / «U» (character 5) is not part of an admission code"), "{message}");
    }
}
