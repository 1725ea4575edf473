//! The small values every message is made of: meeting ids, credential ids,
//! nonces, digests, and the two validated string types [`Id`] and [`Text`].

use std::fmt;

use sha2::{Digest as _, Sha256};

use crate::error::{Problem, WireError};
use crate::limits::{MAX_FILE_TEXT_LEN, MAX_ID_LEN, MAX_PROSE_LEN, MAX_TEXT_LEN};

/// A meeting's id: 32 bytes the daemon draws at random when the meeting is
/// created. It is bound into every signature and into the first head of the
/// chain, so nothing signed for one meeting verifies for another.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MeetingId(pub [u8; 32]);

impl MeetingId {
    /// The id from 64 hexadecimal digits.
    pub fn from_hex(hex: &str) -> Result<MeetingId, WireError> {
        parse_hex32("hexadecimal meeting id", hex).map(MeetingId)
    }
}

impl fmt::Display for MeetingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_hex(f, &self.0)
    }
}

impl fmt::Debug for MeetingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MeetingId({self})")
    }
}

/// The number of a credential (a printed badge) within its meeting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CredentialId(pub u32);

impl fmt::Display for CredentialId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// 16 bytes the signer draws at random for each event. No two events of a
/// ledger may carry the same nonce, which is what makes a replayed
/// signature detectable even when the same action legitimately happens
/// twice (a person leaves, comes back, leaves again).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nonce(pub [u8; 16]);

impl fmt::Debug for Nonce {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Nonce(")?;
        write_hex(f, &self.0)?;
        f.write_str(")")
    }
}

/// A SHA-256 digest: a chain head, an event digest, a register digest.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest(pub [u8; 32]);

impl Digest {
    /// The SHA-256 digest of `bytes`.
    pub fn sha256(bytes: &[u8]) -> Digest {
        Digest(Sha256::digest(bytes).into())
    }

    /// The digest from 64 hexadecimal digits (either case), as printed on
    /// a checkpoint.
    pub fn from_hex(hex: &str) -> Result<Digest, WireError> {
        parse_hex32("hexadecimal digest", hex).map(Digest)
    }
}

impl fmt::Display for Digest {
    /// Lowercase hexadecimal, 64 digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_hex(f, &self.0)
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({self})")
    }
}

/// An identifier: a holder, agent, item, list, staff or profile name.
/// 1 to [`MAX_ID_LEN`] bytes of UTF-8 with no control character; compared
/// and ordered byte by byte.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id(Box<str>);

impl Id {
    /// Validates an identifier.
    pub fn new(id: &str) -> Result<Id, WireError> {
        check_string(id, 1, MAX_ID_LEN).map_err(|problem| WireError::Invalid { field: "id", problem })?;
        Ok(Id(id.into()))
    }

    /// The identifier.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn new_unchecked(id: &str) -> Id {
        debug_assert!(check_string(id, 1, MAX_ID_LEN).is_ok());
        Id(id.into())
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A short free text (the reference of a power document): 0 to
/// [`MAX_TEXT_LEN`] bytes of UTF-8 with no control character.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Text(Box<str>);

impl Text {
    /// Validates a text.
    pub fn new(text: &str) -> Result<Text, WireError> {
        check_string(text, 0, MAX_TEXT_LEN)
            .map_err(|problem| WireError::Invalid { field: "text", problem })?;
        Ok(Text(text.into()))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn new_unchecked(text: &str) -> Text {
        debug_assert!(check_string(text, 0, MAX_TEXT_LEN).is_ok());
        Text(text.into())
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The rule every string of the format follows: a length in bytes within
/// `min..=max`, and no character of Unicode category Cc (U+0000–U+001F,
/// U+007F–U+009F), which a terminal, a CSV file or an acta would render
/// ambiguously.
/// A written statement's words (a constancia for the acta): 1 to
/// [`MAX_PROSE_LEN`] bytes of UTF-8 whose only control character is the
/// line feed, with no space or line feed at either end (one meaning, one
/// encoding).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Prose(Box<str>);

impl Prose {
    /// Validates a statement's words.
    pub fn new(text: &str) -> Result<Prose, WireError> {
        check_prose(text).map_err(|problem| WireError::Invalid { field: "text", problem })?;
        Ok(Prose(text.into()))
    }

    /// The words.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn new_unchecked(text: &str) -> Prose {
        debug_assert!(check_prose(text).is_ok());
        Prose(text.into())
    }
}

/// A text file as written (the `meeting.toml` a meeting was created
/// from): 0 to [`MAX_FILE_TEXT_LEN`] bytes of UTF-8 whose only control
/// characters are the tab, the line feed and the carriage return.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileText(Box<str>);

impl FileText {
    /// Validates a file's text.
    pub fn new(text: &str) -> Result<FileText, WireError> {
        check_file_text(text).map_err(|problem| WireError::Invalid { field: "file", problem })?;
        Ok(FileText(text.into()))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn new_unchecked(text: &str) -> FileText {
        debug_assert!(check_file_text(text).is_ok());
        FileText(text.into())
    }
}

/// [`FileText`]'s rule.
pub(crate) fn check_file_text(s: &str) -> Result<(), Problem> {
    if s.len() > MAX_FILE_TEXT_LEN {
        return Err(Problem::TooLong { len: s.len(), limit: MAX_FILE_TEXT_LEN });
    }
    match s.char_indices().find(|(_, c)| c.is_control() && !matches!(c, '\n' | '\t' | '\r')) {
        Some((position, _)) => Err(Problem::ControlCharacter { position }),
        None => Ok(()),
    }
}

/// [`Prose`]'s rule.
pub(crate) fn check_prose(s: &str) -> Result<(), Problem> {
    if s.len() > MAX_PROSE_LEN {
        return Err(Problem::TooLong { len: s.len(), limit: MAX_PROSE_LEN });
    }
    if s.is_empty() {
        return Err(Problem::TooShort { len: 0, min: 1 });
    }
    if s.trim() != s {
        return Err(Problem::Untrimmed);
    }
    match s.char_indices().find(|(_, c)| c.is_control() && *c != '\n') {
        Some((position, _)) => Err(Problem::ControlCharacter { position }),
        None => Ok(()),
    }
}

pub(crate) fn check_string(s: &str, min: usize, max: usize) -> Result<(), Problem> {
    if s.len() > max {
        return Err(Problem::TooLong { len: s.len(), limit: max });
    }
    if s.len() < min {
        return Err(Problem::TooShort { len: s.len(), min });
    }
    match s.char_indices().find(|(_, c)| c.is_control()) {
        Some((position, _)) => Err(Problem::ControlCharacter { position }),
        None => Ok(()),
    }
}

fn write_hex(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    for b in bytes {
        write!(f, "{b:02x}")?;
    }
    Ok(())
}

pub(crate) fn parse_hex32(what: &'static str, hex: &str) -> Result<[u8; 32], WireError> {
    let digits = hex.as_bytes();
    if digits.len() != 64 {
        return Err(WireError::WrongLength { what, expected: 64, got: digits.len() });
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        let nibble = |at: usize| {
            char::from(digits[at])
                .to_digit(16)
                .ok_or(WireError::Invalid { field: what, problem: Problem::NotHex { position: at } })
        };
        let (high, low) = (nibble(2 * i)?, nibble(2 * i + 1)?);
        *byte = u8::try_from(high * 16 + low).expect("two hex digits make a byte");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_one_to_sixty_four_bytes_without_control_characters() {
        assert!(Id::new("H1").is_ok());
        assert!(Id::new("Ñandú-Ltda.").is_ok());
        assert!(Id::new(&"x".repeat(64)).is_ok());
        let invalid = |problem| Err(WireError::Invalid { field: "id", problem });
        assert_eq!(Id::new(""), invalid(Problem::TooShort { len: 0, min: 1 }));
        assert_eq!(Id::new(&"x".repeat(65)), invalid(Problem::TooLong { len: 65, limit: 64 }));
        // 22 two-byte characters are 44 bytes; 33 are 66: the limit is in bytes.
        assert_eq!(Id::new(&"ñ".repeat(33)), invalid(Problem::TooLong { len: 66, limit: 64 }));
        assert_eq!(Id::new("a\nb"), invalid(Problem::ControlCharacter { position: 1 }));
        assert_eq!(Id::new("ab\u{85}"), invalid(Problem::ControlCharacter { position: 2 }));
    }

    #[test]
    fn texts_may_be_empty_but_not_longer_than_the_limit() {
        assert_eq!(Text::new("").map(|t| t.as_str().len()), Ok(0));
        assert!(Text::new(&"x".repeat(256)).is_ok());
        assert!(matches!(
            Text::new(&"x".repeat(257)),
            Err(WireError::Invalid { problem: Problem::TooLong { len: 257, limit: 256 }, .. })
        ));
    }

    /// Unicode's `White_Space` characters, as ledger-format §3.13 lists
    /// them for a statement's ends.
    const WHITE_SPACE: [(u32, u32); 11] = [
        (0x09, 0x0D),
        (0x20, 0x20),
        (0x85, 0x85),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2028),
        (0x2029, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
    ];

    /// A verifier written from the document must refuse exactly what this
    /// crate refuses at a statement's ends, so the list the document gives
    /// is checked against every character, and the document must carry it.
    #[test]
    fn a_statement_refuses_at_its_ends_exactly_the_white_space_the_format_lists() {
        let listed = |c: char| WHITE_SPACE.iter().any(|&(low, high)| (low..=high).contains(&u32::from(c)));
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let inside_ok = !c.is_control() || c == '\n';
            assert_eq!(Prose::new(&format!("a{c}b")).is_ok(), inside_ok, "{:04X} inside", u32::from(c));
            let end_ok = inside_ok && !listed(c);
            assert_eq!(Prose::new(&format!("{c}a")).is_ok(), end_ok, "{:04X} first", u32::from(c));
            assert_eq!(Prose::new(&format!("a{c}")).is_ok(), end_ok, "{:04X} last", u32::from(c));
        }
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/ledger-format.md");
        let doc: String = std::fs::read_to_string(path).expect("the format").split_whitespace().collect();
        let text = "U+0009–U+000D, U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F and U+3000";
        let text: String = text.split_whitespace().collect();
        assert!(doc.contains(&text), "ledger-format §3.13 lists the white space");
    }

    #[test]
    fn digests_print_and_parse_as_hex() {
        let digest = Digest::sha256(b"abc");
        let hex = digest.to_string();
        assert_eq!(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(Digest::from_hex(&hex), Ok(digest));
        assert_eq!(Digest::from_hex(&hex.to_uppercase()), Ok(digest));
        assert_eq!(
            Digest::from_hex(&hex[..63]),
            Err(WireError::WrongLength { what: "hexadecimal digest", expected: 64, got: 63 })
        );
        let mut bad = hex.clone();
        bad.replace_range(10..11, "g");
        assert_eq!(
            Digest::from_hex(&bad),
            Err(WireError::Invalid {
                field: "hexadecimal digest",
                problem: Problem::NotHex { position: 10 }
            })
        );
    }
}
