//! Input from outside — bytes a ledger or a bundle holds, a text a badge
//! scanner types — is refused with an error that says where and why, and
//! never makes a decoder panic.
//!
//! `roundtrip.rs` already checks that whatever decodes is the canonical
//! encoding of what it decodes to; these check the other side: what does
//! not decode is told clearly. The QR parser gets the same treatment as the
//! event decoder: arbitrary text, and valid credentials mistyped.

use proptest::prelude::*;

use super::strategies::{arb_event, arb_mutation, mutate};
use crate::{Credential, CredentialId, Event, MeetingId, WireError};

/// An event decoder's refusal is `Malformed`, naming a field and a byte
/// offset inside the input (a truncation names the first missing byte,
/// one past the end), and its message says both.
fn check_refusal(bytes: &[u8], error: &WireError) -> Result<(), TestCaseError> {
    let WireError::Malformed { field, at, .. } = error else {
        return Err(TestCaseError::fail(format!("bytes from outside refused as {error:?}")));
    };
    prop_assert!(!field.is_empty(), "{error:?}");
    prop_assert!(*at <= bytes.len(), "offset {at} beyond {} bytes: {error}", bytes.len());
    let said = error.to_string();
    prop_assert!(said.contains(field) && said.contains(&format!("at byte {at}")), "{said}");
    Ok(())
}

/// The meeting the credentials below belong to.
const MEETING: MeetingId = MeetingId([0x5a; 32]);

/// A credential's text with one change a person or a scanner could make.
#[derive(Clone, Debug)]
enum Typo {
    /// A character replaced by any other.
    Replace { at: prop::sample::Index, by: char },
    /// A character added.
    Insert { at: prop::sample::Index, what: char },
    /// A character lost.
    Delete { at: prop::sample::Index },
    /// Two neighbours swapped.
    Swap { at: prop::sample::Index },
    /// The scan cut short.
    Cut { at: prop::sample::Index },
    /// Lower case (Caps Lock) and whitespace around (a scanner's Enter):
    /// forgiven.
    Forgiven { lower: bool, before: String, after: String },
}

/// What a typo or a scan puts in: mostly the credential's own alphabet
/// (the mistakes that are hard to catch), sometimes anything at all.
fn arb_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => prop::sample::select(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".to_vec()).prop_map(char::from),
        1 => any::<char>(),
    ]
}

fn arb_typo() -> impl Strategy<Value = Typo> {
    let index = any::<prop::sample::Index>;
    prop_oneof![
        3 => (index(), arb_char()).prop_map(|(at, by)| Typo::Replace { at, by }),
        1 => (index(), arb_char()).prop_map(|(at, what)| Typo::Insert { at, what }),
        1 => index().prop_map(|at| Typo::Delete { at }),
        1 => index().prop_map(|at| Typo::Swap { at }),
        1 => index().prop_map(|at| Typo::Cut { at }),
        1 => (any::<bool>(), "[ \t\r\n]{0,3}", "[ \t\r\n]{0,3}")
            .prop_map(|(lower, before, after)| Typo::Forgiven { lower, before, after }),
    ]
}

fn typo(text: &str, typo: &Typo) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    match typo {
        Typo::Replace { at, by } => {
            let at = at.index(chars.len());
            chars[at] = *by;
        }
        Typo::Insert { at, what } => chars.insert(at.index(chars.len() + 1), *what),
        Typo::Delete { at } => {
            chars.remove(at.index(chars.len()));
        }
        Typo::Swap { at } => {
            let at = at.index(chars.len() - 1);
            chars.swap(at, at + 1);
        }
        Typo::Cut { at } => chars.truncate(at.index(chars.len())),
        Typo::Forgiven { lower, before, after } => {
            let body = if *lower { text.to_ascii_lowercase() } else { text.to_string() };
            return format!("{before}{body}{after}");
        }
    }
    chars.into_iter().collect()
}

/// A scanned text that parses is the credential's one spelling, give or
/// take letter case and whitespace around it; one that does not is
/// refused with a message. Returns whether it parsed.
fn check_scan(scanned: &str) -> Result<bool, TestCaseError> {
    match Credential::parse_qr_text(scanned, &MEETING) {
        Ok(credential) => {
            let spelling = scanned.trim_matches(|c: char| c.is_ascii_whitespace()).to_ascii_uppercase();
            prop_assert_eq!(credential.to_qr_text(), spelling);
            Ok(true)
        }
        Err(error) => {
            prop_assert!(error.to_string().len() > 10, "{error:?}");
            if let WireError::CredentialCharacter { position, found } = error {
                // The position counts characters from the `A` of `AS1`,
                // after the whitespace around the text.
                let shown = scanned.trim_matches(|c: char| c.is_ascii_whitespace()).chars().nth(position - 1);
                prop_assert_eq!(shown.map(|c| c.to_ascii_uppercase()), Some(found));
            }
            Ok(false)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_are_refused_naming_a_field_and_an_offset(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        if let Err(error) = Event::decode(&bytes) {
            check_refusal(&bytes, &error)?;
        }
    }

    #[test]
    fn a_mutated_event_is_refused_naming_a_field_and_an_offset(event in arb_event(), mutation in arb_mutation()) {
        let bytes = mutate(event.encode().expect("a valid event encodes"), &mutation);
        if let Err(error) = Event::decode(&bytes) {
            check_refusal(&bytes, &error)?;
        }
    }

    #[test]
    fn arbitrary_scanned_text_never_parses_by_accident(text in prop_oneof![
        any::<String>(),
        "[A-Z2-7]{0,90}",
        "AS1[A-Za-z2-7]{78,82}",
    ]) {
        prop_assert!(!check_scan(&text)?, "{text:?} parsed");
    }

    #[test]
    fn a_mistyped_credential_is_refused_and_a_forgiven_one_reads_the_same(
        seed in any::<[u8; 32]>(),
        number in any::<u32>(),
        mistake in arb_typo(),
    ) {
        let credential = Credential::generate_from(&MEETING, CredentialId(number), &seed);
        let text = credential.to_qr_text();
        let scanned = typo(&text, &mistake);
        let parsed = check_scan(&scanned)?;
        // A 48-bit check value: a changed character, a swap of two that
        // differ, a lost or added one is refused (one time in 2^48 a change
        // could pass: never, for a test's purposes).
        let unchanged = scanned.trim_matches(|c: char| c.is_ascii_whitespace()).eq_ignore_ascii_case(&text);
        prop_assert_eq!(parsed, unchanged, "{:?} → {:?}", mistake, scanned);
        if parsed {
            let again = Credential::parse_qr_text(&scanned, &MEETING).expect("parsed above");
            prop_assert_eq!(again.id(), credential.id());
            prop_assert_eq!(again.public_key(), credential.public_key());
        }
        // The same text for another meeting is refused as such.
        if unchanged {
            let other = MeetingId([0xa5; 32]);
            prop_assert_eq!(
                Credential::parse_qr_text(&scanned, &other).err(),
                Some(WireError::CredentialOtherMeeting)
            );
        }
    }
}
