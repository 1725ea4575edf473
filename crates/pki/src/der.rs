//! A minimal DER reader, enough to find a certificate subject's common
//! name (the kiosk id).

/// Splits the first DER element off `input`: its tag, its contents and the
/// rest. Single-byte tags and definite lengths only, which is all X.509 uses
/// on the way to the subject.
fn der_element(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (length, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let length = rest[..count].iter().fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        (length, &rest[count..])
    };
    if rest.len() < length {
        return None;
    }
    Some((tag, &rest[..length], &rest[length..]))
}

/// The subject's common name of a DER certificate, if it has one (UTF8String
/// or PrintableString). Only called on certificates that rustls has already
/// verified, or on our own CA's.
pub fn common_name(cert_der: &[u8]) -> Option<String> {
    const SEQUENCE: u8 = 0x30;
    const SET: u8 = 0x31;
    const OID: u8 = 0x06;
    const VERSION: u8 = 0xa0;
    const COMMON_NAME: [u8; 3] = [0x55, 0x04, 0x03]; // 2.5.4.3
    let (SEQUENCE, certificate, _) = der_element(cert_der)? else { return None };
    let (SEQUENCE, tbs, _) = der_element(certificate)? else { return None };
    let mut rest = tbs;
    if der_element(rest)?.0 == VERSION {
        rest = der_element(rest)?.2;
    }
    // serialNumber, signature, issuer, validity, then the subject.
    for _ in 0..4 {
        rest = der_element(rest)?.2;
    }
    let (SEQUENCE, mut subject, _) = der_element(rest)? else { return None };
    while !subject.is_empty() {
        let (SET, mut relative_name, next) = der_element(subject)? else { return None };
        subject = next;
        while !relative_name.is_empty() {
            let (SEQUENCE, attribute, next) = der_element(relative_name)? else { return None };
            relative_name = next;
            let (OID, oid, value) = der_element(attribute)? else { return None };
            if oid == COMMON_NAME {
                let (tag, text, _) = der_element(value)?;
                return match tag {
                    0x0c | 0x13 => String::from_utf8(text.to_vec()).ok(),
                    _ => None,
                };
            }
        }
    }
    None
}
