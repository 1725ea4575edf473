//! The attendee credential printed as a QR badge: the meeting, the badge's
//! number and the secret seed of its signing key, as text a scanner types.
//!
//! ```text
//! text    = "AS1" || base32(payload)                      83 characters
//! payload = meeting id[0..8] || u32 credential id || seed (32) || check (6)   50 bytes
//! check   = SHA-256(meeting id[0..8] || u32 credential id || seed)[0..6]
//! ```
//!
//! Base32 is RFC 4648's alphabet (`A`–`Z`, `2`–`7`) without padding; 50
//! bytes are exactly 80 characters, so no character has spare bits and each
//! payload has exactly one spelling. Every character is in the QR code's
//! alphanumeric mode (83 characters fit a version 4-M symbol). A 48-bit
//! check makes a misread character, a swap or a truncation fail to parse
//! rather than yield another key.

use std::fmt;

use sha2::{Digest as _, Sha256};

use crate::error::WireError;
use crate::keys::{Keypair, PublicKey};
use crate::values::{CredentialId, MeetingId};

const PREFIX: &str = "AS1";
const PAYLOAD_LEN: usize = 50;
const CHECKED_LEN: usize = 44;
const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// An attendee's credential: whose meeting, which badge, and the key that
/// signs its ballots. `Debug` never shows the seed; the key is wiped from
/// memory on drop.
pub struct Credential {
    meeting: MeetingId,
    id: CredentialId,
    keypair: Keypair,
}

impl Credential {
    /// Characters in a credential's text.
    pub const QR_TEXT_LEN: usize = 83;

    /// The credential of a badge, from a secret seed the caller drew at
    /// random (this crate never draws randomness).
    pub fn generate_from(meeting: &MeetingId, id: CredentialId, seed: &[u8; 32]) -> Credential {
        Credential { meeting: *meeting, id, keypair: Keypair::from_seed(seed) }
    }

    /// The same seed under another badge number: the registration desk
    /// draws a seed before the daemon numbers the badge.
    pub fn renumbered(&self, id: CredentialId) -> Credential {
        Credential { meeting: self.meeting, id, keypair: Keypair::from_seed(&self.keypair.seed()) }
    }

    /// The text to print as a QR code (alphanumeric mode). It holds the
    /// secret seed: print it, never log it.
    pub fn to_qr_text(&self) -> String {
        let mut payload = [0u8; PAYLOAD_LEN];
        payload[..8].copy_from_slice(&self.meeting.0[..8]);
        payload[8..12].copy_from_slice(&self.id.0.to_be_bytes());
        payload[12..44].copy_from_slice(&self.keypair.seed()[..]);
        let check = check_value(&payload[..CHECKED_LEN]);
        payload[CHECKED_LEN..].copy_from_slice(&check);
        let mut text = String::with_capacity(Self::QR_TEXT_LEN);
        text.push_str(PREFIX);
        for group in payload.chunks_exact(5) {
            let bits = group.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
            for i in (0..8).rev() {
                let index = usize::try_from((bits >> (5 * i)) & 31).unwrap_or(0);
                text.push(char::from(ALPHABET[index]));
            }
        }
        text
    }

    /// The credential of a scanned text, for `meeting`. Surrounding
    /// whitespace (a scanner's Enter) is ignored, and so is letter case (a
    /// keyboard-wedge scanner under Caps Lock). Refused, in this order,
    /// when the text does not begin with `AS` ([`WireError::CredentialNotAsamblea`]),
    /// is of another version ([`WireError::CredentialVersion`]), is not 83
    /// characters long ([`WireError::CredentialLength`]), has a character
    /// outside the alphabet ([`WireError::CredentialCharacter`]), fails its
    /// check value ([`WireError::CredentialCheck`]), or belongs to another
    /// meeting ([`WireError::CredentialOtherMeeting`]).
    pub fn parse_qr_text(text: &str, meeting: &MeetingId) -> Result<Credential, WireError> {
        let text = text.trim_matches(|c: char| c.is_ascii_whitespace());
        let mut chars = text.chars().map(|c| c.to_ascii_uppercase());
        if chars.next() != Some('A') || chars.next() != Some('S') {
            return Err(WireError::CredentialNotAsamblea);
        }
        let got = text.chars().count();
        match chars.next() {
            Some('1') => {}
            Some(found) => return Err(WireError::CredentialVersion { found }),
            None => return Err(WireError::CredentialLength { expected: Self::QR_TEXT_LEN, got }),
        }
        if got != Self::QR_TEXT_LEN {
            return Err(WireError::CredentialLength { expected: Self::QR_TEXT_LEN, got });
        }
        // The payload holds the badge's seed: both copies are wiped when
        // they go out of scope, whatever the verdict.
        let mut payload = zeroize::Zeroizing::new([0u8; PAYLOAD_LEN]);
        let mut bits = 0u64;
        for (i, c) in chars.enumerate() {
            let position = PREFIX.len() + i + 1;
            let value = ALPHABET
                .iter()
                .position(|&a| char::from(a) == c)
                .ok_or(WireError::CredentialCharacter { position, found: c })?;
            bits = (bits << 5) | value as u64;
            if i % 8 == 7 {
                let group = i / 8 * 5;
                payload[group..group + 5].copy_from_slice(&bits.to_be_bytes()[3..]);
                bits = 0;
            }
        }
        if check_value(&payload[..CHECKED_LEN]) != payload[CHECKED_LEN..] {
            return Err(WireError::CredentialCheck);
        }
        if payload[..8] != meeting.0[..8] {
            return Err(WireError::CredentialOtherMeeting);
        }
        let id = CredentialId(u32::from_be_bytes([payload[8], payload[9], payload[10], payload[11]]));
        let mut seed = zeroize::Zeroizing::new([0u8; 32]);
        seed.copy_from_slice(&payload[12..44]);
        Ok(Credential::generate_from(meeting, id, &seed))
    }

    /// The meeting.
    pub fn meeting(&self) -> &MeetingId {
        &self.meeting
    }

    /// The badge's number.
    pub fn id(&self) -> CredentialId {
        self.id
    }

    /// The signing key, for signing this attendee's ballots.
    pub fn keypair(&self) -> &Keypair {
        &self.keypair
    }

    /// The public key the daemon keeps (`badge-issued`).
    pub fn public_key(&self) -> PublicKey {
        self.keypair.public_key()
    }
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credential")
            .field("meeting", &self.meeting)
            .field("id", &self.id)
            .field("public_key", &self.public_key())
            .finish_non_exhaustive()
    }
}

fn check_value(checked: &[u8]) -> [u8; 6] {
    let digest = Sha256::digest(checked);
    let mut check = [0u8; 6];
    check.copy_from_slice(&digest[..6]);
    check
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meeting() -> MeetingId {
        MeetingId([0x5a; 32])
    }

    fn credential() -> Credential {
        Credential::generate_from(&meeting(), CredentialId(1234), &[0x42; 32])
    }

    fn parse(text: &str) -> Result<Credential, WireError> {
        Credential::parse_qr_text(text, &meeting())
    }

    #[test]
    fn a_credential_survives_its_text() {
        let credential = credential();
        let text = credential.to_qr_text();
        assert_eq!(text.len(), Credential::QR_TEXT_LEN);
        assert!(text.starts_with("AS1"));
        assert!(text.chars().all(|c| c.is_ascii_uppercase() || ('2'..='7').contains(&c) || c == '1'));
        let parsed = parse(&text).expect("its own text parses");
        assert_eq!(parsed.id(), CredentialId(1234));
        assert_eq!(parsed.public_key(), credential.public_key());
        assert_eq!(parsed.to_qr_text(), text);
    }

    #[test]
    fn surrounding_whitespace_and_letter_case_are_forgiven() {
        let text = credential().to_qr_text();
        assert!(parse(&format!("  {text}\r\n")).is_ok());
        assert!(parse(&text.to_lowercase()).is_ok());
    }

    #[test]
    fn a_text_that_is_not_a_credential_is_refused() {
        assert_eq!(parse("").map(|_| ()), Err(WireError::CredentialNotAsamblea));
        assert_eq!(parse("A").map(|_| ()), Err(WireError::CredentialNotAsamblea));
        assert_eq!(parse("https://example.com").map(|_| ()), Err(WireError::CredentialNotAsamblea));
        let text = credential().to_qr_text();
        assert_eq!(parse(&text[1..]).map(|_| ()), Err(WireError::CredentialNotAsamblea));
    }

    #[test]
    fn another_version_is_refused_as_such() {
        let text = credential().to_qr_text().replacen("AS1", "AS2", 1);
        assert_eq!(parse(&text).map(|_| ()), Err(WireError::CredentialVersion { found: '2' }));
    }

    #[test]
    fn a_truncated_or_padded_scan_is_refused_by_its_length() {
        let text = credential().to_qr_text();
        for cut in [2, 3, 40, 82] {
            assert_eq!(
                parse(&text[..cut]).map(|_| ()),
                Err(WireError::CredentialLength { expected: 83, got: cut }),
                "cut at {cut}"
            );
        }
        assert_eq!(
            parse(&format!("{text}A")).map(|_| ()),
            Err(WireError::CredentialLength { expected: 83, got: 84 })
        );
    }

    #[test]
    fn a_character_outside_the_alphabet_is_named() {
        let text = credential().to_qr_text();
        for (at, bad) in [(3, '0'), (10, '1'), (50, '8'), (82, '='), (20, 'Ñ')] {
            let mut chars: Vec<char> = text.chars().collect();
            chars[at] = bad;
            let mistyped: String = chars.into_iter().collect();
            assert_eq!(
                parse(&mistyped).map(|_| ()),
                Err(WireError::CredentialCharacter { position: at + 1, found: bad }),
                "{mistyped}"
            );
        }
    }

    #[test]
    fn every_single_mistyped_character_fails_the_check() {
        let text = credential().to_qr_text();
        for at in 3..text.len() {
            let mut chars: Vec<char> = text.chars().collect();
            chars[at] = if chars[at] == 'A' { 'B' } else { 'A' };
            let mistyped: String = chars.into_iter().collect();
            assert_eq!(parse(&mistyped).map(|_| ()), Err(WireError::CredentialCheck), "position {at}");
        }
    }

    #[test]
    fn two_swapped_characters_fail_the_check() {
        let text = credential().to_qr_text();
        let chars: Vec<char> = text.chars().collect();
        let at =
            (3..82).find(|&i| chars[i] != chars[i + 1]).expect("a credential is not one repeated letter");
        let mut swapped = chars.clone();
        swapped.swap(at, at + 1);
        let swapped: String = swapped.into_iter().collect();
        assert_eq!(parse(&swapped).map(|_| ()), Err(WireError::CredentialCheck));
    }

    #[test]
    fn a_badge_of_another_meeting_is_refused() {
        let text = credential().to_qr_text();
        let other = MeetingId([0x5b; 32]);
        assert_eq!(
            Credential::parse_qr_text(&text, &other).map(|_| ()),
            Err(WireError::CredentialOtherMeeting)
        );
        // Only the first 8 bytes of the meeting id are in the badge.
        let mut same_prefix = meeting();
        same_prefix.0[31] ^= 1;
        assert!(Credential::parse_qr_text(&text, &same_prefix).is_ok());
    }

    #[test]
    fn debug_never_shows_the_seed() {
        let shown = format!("{:?}", credential());
        assert!(!shown.contains("4242"), "{shown}");
        assert!(!shown.contains(&credential().to_qr_text()[3..20]), "{shown}");
    }
}
