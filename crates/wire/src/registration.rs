//! A remote attendee's registration from their browser, with its proof of
//! possession (`docs/ledger-format.md` §3.28): the browser signs, with the
//! key it just made, who it registers for. Not a ledger event: anyone on
//! the internet can send one, and the daemon keeps it as a pending
//! request until the desk verifies the person (`identity-verified`).
//!
//! ```text
//! remote-registration: 0x21 || 0x02 || key (32) || person (id) || name (text, 1 to 256 bytes)
//! ```
//!
//! Signed by `key` itself under the domain `asamblea/remote-registration/v2`.
//!
//! A remote attendee's heartbeat (§3.29) is the same kind of message, signed
//! by the credential's key once the desk bound it:
//!
//! ```text
//! remote-heartbeat: 0x22 || 0x02 || key (32) || counter (u64)
//! ```

use crate::codec::{Reader, Writer};
use crate::error::{Problem, WireError};
use crate::keys::{PublicKey, Signature};
use crate::kinds::MessageKind;
use crate::values::{Id, MeetingId, Text};

/// Who a browser registers for, and the key it made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteRegistration {
    /// The public key the browser made.
    pub key: PublicKey,
    /// The person: a holder's id, or an agent's document.
    pub person: Id,
    /// Their name as they typed it; never empty.
    pub name: Text,
}

impl RemoteRegistration {
    /// The canonical bytes; refused with an empty name.
    pub fn encode(&self) -> Result<Vec<u8>, WireError> {
        if self.name.as_str().is_empty() {
            let problem = Problem::TooShort { len: 0, min: 1 };
            return Err(WireError::Invalid { field: "remote-registration.name", problem });
        }
        let mut w = Writer::message(MessageKind::RemoteRegistration);
        w.bytes(&self.key.to_bytes());
        w.str(self.person.as_str());
        w.str(self.name.as_str());
        w.finish_message("remote-registration")
    }

    /// The registration of canonical bytes.
    pub fn decode(bytes: &[u8]) -> Result<RemoteRegistration, WireError> {
        let mut r = Reader::message(bytes, 0, "remote-registration")?;
        r.header(|kind| kind == MessageKind::RemoteRegistration)?;
        let registration = RemoteRegistration {
            key: r.public_key("remote-registration.key")?,
            person: r.id("remote-registration.person")?,
            name: r.name("remote-registration.name")?,
        };
        r.end()?;
        Ok(registration)
    }

    /// Checks the proof of possession: `signature` by the registered key
    /// itself over these bytes, for `meeting`, strictly.
    pub fn verify(&self, meeting: &MeetingId, signature: &Signature) -> Result<(), WireError> {
        self.key.verify_kind(MessageKind::RemoteRegistration, meeting, &self.encode()?, signature)
    }
}

/// A remote attendee's sign of life (§3.29): their browser signs it with
/// their credential's key every `heartbeat_seconds` of the meeting's
/// modality, and the daemon holds their presence by it (HY-5). Never a
/// ledger event: only a lapse is recorded (`presence-lapsed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemoteHeartbeat {
    /// The credential's key.
    pub key: PublicKey,
    /// Strictly greater than the last one the daemon took from this key
    /// (the browser sends its clock's milliseconds): a copy sent again
    /// proves nothing.
    pub counter: u64,
}

impl RemoteHeartbeat {
    /// The canonical bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::message(MessageKind::RemoteHeartbeat);
        w.bytes(&self.key.to_bytes());
        w.u64(self.counter);
        w.finish_message("remote-heartbeat").expect("a heartbeat is always within the limits")
    }

    /// The heartbeat of canonical bytes.
    pub fn decode(bytes: &[u8]) -> Result<RemoteHeartbeat, WireError> {
        let mut r = Reader::message(bytes, 0, "remote-heartbeat")?;
        r.header(|kind| kind == MessageKind::RemoteHeartbeat)?;
        let heartbeat = RemoteHeartbeat {
            key: r.public_key("remote-heartbeat.key")?,
            counter: r.u64("remote-heartbeat.counter")?,
        };
        r.end()?;
        Ok(heartbeat)
    }

    /// Checks that `signature` is the key's own over these bytes, for
    /// `meeting`, strictly.
    pub fn verify(&self, meeting: &MeetingId, signature: &Signature) -> Result<(), WireError> {
        self.key.verify_kind(MessageKind::RemoteHeartbeat, meeting, &self.encode(), signature)
    }
}

/// A key's fingerprint as staff and the browser both show it (§3.28): the
/// first 8 bytes of SHA-256 of the key, 16 uppercase hexadecimal digits
/// in four groups of four.
pub fn key_fingerprint(key: &PublicKey) -> String {
    let digest = crate::values::Digest::sha256(&key.to_bytes());
    let hex: String = digest.0[..8].iter().map(|b| format!("{b:02X}")).collect();
    let groups: Vec<&str> = (0..4).map(|i| &hex[i * 4..i * 4 + 4]).collect();
    groups.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::Keypair;

    #[test]
    fn a_registration_is_proved_by_its_own_key_only() {
        let meeting = MeetingId([7; 32]);
        let browser = Keypair::from_seed(&[0x55; 32]);
        let registration = RemoteRegistration {
            key: browser.public_key(),
            person: Id::new("CC-1").unwrap(),
            name: Text::new("Ana Pérez").unwrap(),
        };
        let bytes = registration.encode().unwrap();
        assert_eq!(RemoteRegistration::decode(&bytes).unwrap(), registration);
        let signature = browser.sign(&meeting, &bytes).unwrap();
        registration.verify(&meeting, &signature).expect("its own key");
        let other = Keypair::from_seed(&[0x56; 32]).sign(&meeting, &bytes).unwrap();
        assert!(registration.verify(&meeting, &other).is_err(), "another key's signature");
        assert!(registration.verify(&MeetingId([8; 32]), &signature).is_err(), "another meeting");
        let fingerprint = key_fingerprint(&browser.public_key());
        assert_eq!(fingerprint.len(), 19);
        assert!(fingerprint
            .split(' ')
            .all(|g| g.len() == 4 && g.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_lowercase())));
        let empty = RemoteRegistration { name: Text::new("").unwrap(), ..registration };
        assert!(empty.encode().is_err());
    }

    #[test]
    fn a_heartbeat_is_its_own_key_s_for_its_own_meeting_and_reads_back_exactly() {
        let meeting = MeetingId([7; 32]);
        let browser = Keypair::from_seed(&[0x55; 32]);
        let heartbeat = RemoteHeartbeat { key: browser.public_key(), counter: 1_733_300_000_123 };
        let bytes = heartbeat.encode();
        assert_eq!(RemoteHeartbeat::decode(&bytes).unwrap(), heartbeat);
        let signature = browser.sign(&meeting, &bytes).unwrap();
        heartbeat.verify(&meeting, &signature).expect("its own key");
        assert!(heartbeat.verify(&MeetingId([8; 32]), &signature).is_err(), "another meeting");
        let later = RemoteHeartbeat { counter: heartbeat.counter + 1, ..heartbeat };
        assert!(later.verify(&meeting, &signature).is_err(), "another counter");
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(RemoteHeartbeat::decode(&longer).is_err(), "a byte after the end");
        assert!(RemoteHeartbeat::decode(&bytes[..bytes.len() - 1]).is_err(), "cut short");
    }
}
