//! Lowercase hexadecimal, the one text form of keys, digests, seeds and
//! signed bytes in files, on the command line and in the API.

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Bytes as lowercase hexadecimal.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

/// Not a hex digit, in [`VALUES`] (its high bits show after an OR).
const INVALID: u8 = 0xff;
/// Each byte's value as a hex digit, or [`INVALID`]: a table rather than
/// a `match`, since a ballot arrives as ~500 hex digits.
const VALUES: [u8; 256] = {
    let mut table = [INVALID; 256];
    let mut i = 0;
    while i < 10 {
        table[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        table[b'a' as usize + i] = 10 + i as u8;
        table[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    table
};

/// Hexadecimal (either case) as bytes; `None` for an odd length or a
/// character that is not a hex digit.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    let mut out = Vec::with_capacity(digits.len() / 2);
    let mut invalid = 0u8;
    for pair in digits.chunks_exact(2) {
        let (high, low) = (VALUES[usize::from(pair[0])], VALUES[usize::from(pair[1])]);
        // Both are below 16 unless one is INVALID, whose high bits show.
        invalid |= high | low;
        out.push(high << 4 | (low & 0x0f));
    }
    (invalid & 0xf0 == 0).then_some(out)
}

/// Exactly `N` bytes of hexadecimal (surrounding whitespace ignored).
pub fn decode_array<const N: usize>(text: &str) -> Option<[u8; N]> {
    decode(text.trim())?.try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_what_is_not_hex() {
        assert_eq!(encode(&[0x00, 0xab, 0xff]), "00abff");
        assert_eq!(decode("00ABff"), Some(vec![0x00, 0xab, 0xff]));
        assert_eq!(decode("0"), None);
        assert_eq!(decode("zz"), None);
        assert_eq!(decode("0g"), None);
        assert_eq!(decode("g0"), None);
        assert_eq!(decode("0:"), None);
        let every: String = (0..=255u8).map(|b| format!("{b:02x}")).collect();
        assert_eq!(decode(&every), Some((0..=255).collect()));
        assert_eq!(decode(&every.to_uppercase()), Some((0..=255).collect()));
        for byte in 0..=255u8 {
            let valid = byte.is_ascii_hexdigit();
            let text = String::from_utf8(vec![b'0', byte]).unwrap_or_default();
            if !text.is_empty() {
                assert_eq!(decode(&text).is_some(), valid, "{byte}");
            }
        }
        assert_eq!(decode_array::<2>(" 0102\n"), Some([1, 2]));
        assert_eq!(decode_array::<2>("010203"), None);
    }
}
