//! Ed25519 keys and signatures, and the domain-separated signing input.
//!
//! A signature never covers a message's bytes alone. It covers
//!
//! ```text
//! domain (ASCII, "asamblea/<kind>/v2") || 0x00 || meeting id (32 bytes) || message bytes
//! ```
//!
//! where the domain is read from the message's own tag and version. A
//! signature made for one kind of message, or for one meeting, therefore
//! verifies for no other; the message body binds the item and the nonce.
//! Verification is `verify_strict`'s: no small-order keys or `R`, no
//! non-canonical `s` (computed with one point decompression fewer, same
//! verdicts: see `verify_strict` below).

use std::fmt;
use std::hash::{Hash, Hasher};

use ed25519_dalek::{Signer as _, SigningKey, VerifyingKey};

use crate::codec::Reader;
use crate::error::{Problem, WireError};
use crate::kinds::MessageKind;
use crate::values::MeetingId;

/// An ed25519 public key: canonically encoded, on the curve, not of small
/// order.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PublicKey(VerifyingKey);

/// How many accepted keys the process remembers; past that it forgets
/// them all and starts again. Enough for every badge of a meeting of
/// 100.000 holders, so a replay decodes each badge's key once, not once
/// per ballot (on 589.204 ballots from 90.000 badges, 65.536 made `verify`
/// 35 % slower and a start more than twice as long). It is 7/8 of 2^17,
/// the most a table of 2^17 slots holds (about 25 MB), so the table never
/// grows past that. One table for every thread (they share it behind a
/// read-write lock; a look-up is a hundred nanoseconds, a decompression
/// tens of microseconds), not one each: a replay on every core would
/// otherwise hold the same keys once a core.
pub const KEYS_REMEMBERED: usize = 114_688;

/// The keys accepted lately ([`KEYS_REMEMBERED`]), found by their bytes.
static ACCEPTED: std::sync::LazyLock<std::sync::RwLock<std::collections::HashSet<Remembered>>> =
    std::sync::LazyLock::new(Default::default);

/// A key in [`ACCEPTED`], looked up by its 32 bytes, which it holds
/// already (a map from the bytes would hold them twice: 32 bytes of the
/// 225 a slot takes).
#[derive(Clone, Copy)]
struct Remembered(VerifyingKey);

impl std::borrow::Borrow<[u8; 32]> for Remembered {
    fn borrow(&self) -> &[u8; 32] {
        self.0.as_bytes()
    }
}

impl Hash for Remembered {
    // As the bytes hash, so that a look-up by the bytes finds it.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.as_bytes().hash(state);
    }
}

impl PartialEq for Remembered {
    fn eq(&self, other: &Remembered) -> bool {
        self.0.as_bytes() == other.0.as_bytes()
    }
}

impl Eq for Remembered {}

impl PublicKey {
    /// Length of the encoding.
    pub const LEN: usize = 32;

    /// The key of 32 bytes, refused unless they are the canonical encoding
    /// of a point of full order.
    ///
    /// The same few keys sign most of a ledger (the daemon, the staff, each
    /// badge for every ballot of its holder), and checking one takes a
    /// point decompression and a multiplication: the process remembers the
    /// keys it accepted lately (`KEYS_REMEMBERED`), so a replay checks
    /// each once. The answer is the same either way.
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<PublicKey, WireError> {
        let remembered =
            ACCEPTED.read().unwrap_or_else(std::sync::PoisonError::into_inner).get(bytes).copied();
        if let Some(Remembered(key)) = remembered {
            return Ok(PublicKey(key));
        }
        let key = PublicKey::check(bytes)?;
        let mut cache = ACCEPTED.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        if cache.len() >= KEYS_REMEMBERED {
            cache.clear();
        }
        cache.insert(Remembered(key.0));
        Ok(key)
    }

    /// [`PublicKey::from_bytes`] without remembering: the checks themselves.
    fn check(bytes: &[u8; 32]) -> Result<PublicKey, WireError> {
        let invalid = WireError::Invalid { field: "public key", problem: Problem::InvalidPublicKey };
        let key = VerifyingKey::from_bytes(bytes).map_err(|_| invalid.clone())?;
        // Decompression accepts a few non-canonical encodings (y ≥ p, or
        // x = 0 with the sign bit set); re-encoding tells them apart.
        if key.is_weak() || key.to_edwards().compress().to_bytes() != *bytes {
            return Err(invalid);
        }
        Ok(PublicKey(key))
    }

    /// The key of a byte slice, refused unless it is 32 bytes long.
    pub fn from_slice(bytes: &[u8]) -> Result<PublicKey, WireError> {
        let array: &[u8; 32] = bytes.try_into().map_err(|_| WireError::WrongLength {
            what: "public key",
            expected: Self::LEN,
            got: bytes.len(),
        })?;
        PublicKey::from_bytes(array)
    }

    /// The key from 64 hexadecimal digits (either case), as the API and
    /// the command line write it; refused like [`PublicKey::from_bytes`].
    pub fn from_hex(hex: &str) -> Result<PublicKey, WireError> {
        PublicKey::from_bytes(&crate::values::parse_hex32("hexadecimal public key", hex)?)
    }

    /// The 32 bytes.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0.to_bytes()
    }

    /// Checks `signature` on `message` (canonical bytes of any kind) for
    /// `meeting`, strictly.
    pub fn verify(
        &self,
        meeting: &MeetingId,
        message: &[u8],
        signature: &Signature,
    ) -> Result<(), WireError> {
        let kind = Reader::new(message, 0).header(|_| true)?;
        self.verify_kind(kind, meeting, message, signature)
    }

    /// [`PublicKey::verify`] of a message whose kind the caller knows.
    pub(crate) fn verify_kind(
        &self,
        kind: MessageKind,
        meeting: &MeetingId,
        message: &[u8],
        signature: &Signature,
    ) -> Result<(), WireError> {
        let input = input_for(kind, meeting, message);
        if verify_strict(&self.0, &input, &signature.0) {
            Ok(())
        } else {
            Err(WireError::BadSignature)
        }
    }
}

/// The canonical encodings of the eight points of small order.
static SMALL_ORDER: std::sync::LazyLock<[[u8; 32]; 8]> = std::sync::LazyLock::new(|| {
    curve25519_dalek::constants::EIGHT_TORSION.map(|point| point.compress().to_bytes())
});

/// Ed25519's strict check (`docs/ledger-format.md` §4): exactly
/// ed25519-dalek's `VerifyingKey::verify_strict`, with one point
/// decompression fewer. That function decompresses `R`, refuses it (or
/// `A`) of small order, and accepts when `R` equals the encoding of
/// `[s]B − [k]A`, `s` canonical, `k = SHA-512(R ‖ A ‖ M)`. Here `R` is
/// never decompressed: it is refused when its bytes are the encoding of
/// one of the eight small-order points, and otherwise compared with the
/// computed point's encoding, as there.
///
/// The verdicts are the same for every input. If `R` equals the encoding
/// of the computed point `P`, it is that point's canonical encoding, so
/// decompressing it gives `P`, and `P` is of small order exactly when its
/// encoding is in the list (encoding is one-to-one). If `R` does not equal
/// it, both refuse. The tests below hold it to ed25519-dalek on small-order
/// and mixed-order keys and `R`, non-canonical `R` and `s`, and random
/// signatures, valid and not. It saves a square root (about a tenth of a
/// check) on every signature a start or `verify` checks.
fn verify_strict(key: &VerifyingKey, message: &[u8], signature: &[u8; 64]) -> bool {
    use curve25519_dalek::{EdwardsPoint, Scalar};
    use sha2::Digest as _;
    let (r, s) = signature.split_at(32);
    let s: [u8; 32] = s.try_into().expect("32 bytes");
    let Some(s) = Option::<Scalar>::from(Scalar::from_canonical_bytes(s)) else {
        return false;
    };
    if key.is_weak() || SMALL_ORDER.iter().any(|small| small[..] == *r) {
        return false;
    }
    let k = Scalar::from_hash(
        sha2::Sha512::new().chain_update(r).chain_update(key.as_bytes()).chain_update(message),
    );
    let computed = EdwardsPoint::vartime_double_scalar_mul_basepoint(&k, &-key.to_edwards(), &s);
    computed.compress().as_bytes()[..] == *r
}

/// Keys in canonical bytes. The method lives here, beside the key type,
/// so that the codec knows nothing of keys (the dependency points one way:
/// `keys` → `codec`).
impl Reader<'_> {
    /// A public key: 32 bytes that must be a canonical point of full order.
    pub(crate) fn public_key(&mut self, field: &'static str) -> Result<PublicKey, WireError> {
        let at = self.at();
        let bytes = self.array(field)?;
        PublicKey::from_bytes(&bytes).map_err(|_| self.malformed(field, at, Problem::InvalidPublicKey))
    }
}

impl Hash for PublicKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.as_bytes().hash(state);
    }
}

impl fmt::Display for PublicKey {
    /// Lowercase hexadecimal, 64 digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.as_bytes().iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({self})")
    }
}

/// An ed25519 signature, 64 bytes. Any 64 bytes are a `Signature`; whether
/// it is valid is for [`PublicKey::verify`] to say.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Signature(pub [u8; 64]);

impl Signature {
    /// Length of the encoding.
    pub const LEN: usize = 64;

    /// The signature of a byte slice, refused unless it is 64 bytes long.
    pub fn from_slice(bytes: &[u8]) -> Result<Signature, WireError> {
        let array: [u8; 64] = bytes.try_into().map_err(|_| WireError::WrongLength {
            what: "signature",
            expected: Self::LEN,
            got: bytes.len(),
        })?;
        Ok(Signature(array))
    }
}

impl fmt::Debug for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Signature(")?;
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))?;
        f.write_str(")")
    }
}

/// A signing key, made from a 32-byte secret seed the caller provides (this
/// crate never draws randomness). The seed is wiped from memory when the
/// key is dropped; `Debug` never shows it.
pub struct Keypair(SigningKey);

impl Keypair {
    /// The key pair of a seed (RFC 8032: the seed is the private key).
    pub fn from_seed(seed: &[u8; 32]) -> Keypair {
        Keypair(SigningKey::from_bytes(seed))
    }

    /// The public key.
    pub fn public_key(&self) -> PublicKey {
        PublicKey(self.0.verifying_key())
    }

    /// Signs `message` (canonical bytes of any kind) for `meeting`. Refused
    /// only when the message does not start with a known tag and version.
    pub fn sign(&self, meeting: &MeetingId, message: &[u8]) -> Result<Signature, WireError> {
        let kind = Reader::new(message, 0).header(|_| true)?;
        Ok(self.sign_kind(kind, meeting, message))
    }

    /// [`Keypair::sign`] of a message whose kind the caller knows.
    pub(crate) fn sign_kind(&self, kind: MessageKind, meeting: &MeetingId, message: &[u8]) -> Signature {
        Signature(self.0.sign(&input_for(kind, meeting, message)).to_bytes())
    }

    /// The secret seed, wiped when the caller drops it: for writing it
    /// into a credential, and for a test that searches a kiosk's memory
    /// for it.
    pub fn seed(&self) -> zeroize::Zeroizing<[u8; 32]> {
        zeroize::Zeroizing::new(self.0.to_bytes())
    }
}

impl fmt::Debug for Keypair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Keypair").field("public_key", &self.public_key()).finish_non_exhaustive()
    }
}

/// The bytes a signature covers: `domain || 0x00 || meeting id || message`,
/// with the domain (`asamblea/<kind>/v2`) taken from the message's tag and
/// version. Only the header of `message` is checked here.
pub fn signing_input(meeting: &MeetingId, message: &[u8]) -> Result<Vec<u8>, WireError> {
    let kind = Reader::new(message, 0).header(|_| true)?;
    Ok(input_for(kind, meeting, message))
}

fn input_for(kind: MessageKind, meeting: &MeetingId, message: &[u8]) -> Vec<u8> {
    let domain = kind.domain().as_bytes();
    let mut input = Vec::with_capacity(domain.len() + 1 + 32 + message.len());
    input.extend_from_slice(domain);
    input.push(0);
    input.extend_from_slice(&meeting.0);
    input.extend_from_slice(message);
    input
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_signatures_of_the_wrong_length_are_refused() {
        assert_eq!(
            PublicKey::from_slice(&[7; 31]),
            Err(WireError::WrongLength { what: "public key", expected: 32, got: 31 })
        );
        assert_eq!(
            PublicKey::from_slice(&[7; 33]),
            Err(WireError::WrongLength { what: "public key", expected: 32, got: 33 })
        );
        assert_eq!(
            Signature::from_slice(&[0; 63]),
            Err(WireError::WrongLength { what: "signature", expected: 64, got: 63 })
        );
        assert_eq!(
            Signature::from_slice(&[]),
            Err(WireError::WrongLength { what: "signature", expected: 64, got: 0 })
        );
        assert!(Signature::from_slice(&[0; 64]).is_ok());
    }

    #[test]
    fn small_order_and_non_canonical_keys_are_refused() {
        let invalid = Err(WireError::Invalid { field: "public key", problem: Problem::InvalidPublicKey });
        // The identity point (y = 1): small order.
        let mut identity = [0u8; 32];
        identity[0] = 1;
        assert_eq!(PublicKey::from_bytes(&identity), invalid);
        // y = p + 1 encodes the identity non-canonically.
        let mut above_p = [0xff; 32];
        above_p[0] = 0xee;
        above_p[31] = 0x7f;
        assert_eq!(PublicKey::from_bytes(&above_p), invalid);
        // For every small y whose point has full order, y + p is the same
        // point encoded non-canonically: refused, while y itself is taken.
        let mut full_order = 0;
        for y in 2u8..19 {
            let mut canonical = [0u8; 32];
            canonical[0] = y;
            if PublicKey::from_bytes(&canonical).is_err() {
                continue;
            }
            full_order += 1;
            let mut non_canonical = [0xff; 32];
            non_canonical[0] = 0xed + y;
            non_canonical[31] = 0x7f;
            assert!(VerifyingKey::from_bytes(&non_canonical).is_ok(), "dalek decompresses y + p");
            assert_eq!(PublicKey::from_bytes(&non_canonical), invalid, "y = {y} + p");
        }
        assert!(full_order > 0, "some y below 19 is a point of full order");
        // A valid key round-trips.
        let key = Keypair::from_seed(&[9; 32]).public_key();
        assert_eq!(PublicKey::from_bytes(&key.to_bytes()), Ok(key));
        assert_eq!(PublicKey::from_slice(&key.to_bytes()), Ok(key));
    }

    #[test]
    fn debug_never_shows_the_seed() {
        let shown = format!("{:?}", Keypair::from_seed(&[0xab; 32]));
        assert!(shown.starts_with("Keypair { public_key: PublicKey("), "{shown}");
        assert!(!shown.contains("abab"), "{shown}");
    }

    /// [`verify_strict`] against ed25519-dalek's `verify_strict`, on the
    /// inputs where strict checks differ from loose ones.
    mod strict {
        use super::super::verify_strict;
        use curve25519_dalek::constants::{ED25519_BASEPOINT_POINT, EIGHT_TORSION};
        use curve25519_dalek::traits::IsIdentity;
        use curve25519_dalek::{EdwardsPoint, Scalar};
        use ed25519_dalek::VerifyingKey;
        use sha2::{Digest, Sha512};

        /// A scalar drawn from `n` (a hash: every test sees the same).
        fn scalar(n: u64) -> Scalar {
            Scalar::from_hash(Sha512::new().chain_update(b"test scalar").chain_update(n.to_be_bytes()))
        }

        fn challenge(r: &[u8; 32], a: &[u8; 32], message: &[u8]) -> Scalar {
            Scalar::from_hash(Sha512::new().chain_update(r).chain_update(a).chain_update(message))
        }

        /// Both verdicts, which must agree; the verdict.
        fn verdict(key: &EdwardsPoint, message: &[u8], signature: &[u8; 64]) -> bool {
            let key = VerifyingKey::from_bytes(key.compress().as_bytes()).expect("a point on the curve");
            let ours = verify_strict(&key, message, signature);
            let dalek = key.verify_strict(message, &ed25519_dalek::Signature::from_bytes(signature)).is_ok();
            assert_eq!(ours, dalek, "the verdicts differ for key {:?}", key.as_bytes());
            ours
        }

        /// A signature by the key `[a]B + ta` with the nonce point
        /// `[r]B + tr`: `s = r + k·a` (what a signer who knows `a` makes,
        /// whatever the torsion added to either point).
        fn signed(
            a: Scalar,
            ta: EdwardsPoint,
            r: Scalar,
            tr: EdwardsPoint,
            message: &[u8],
        ) -> (EdwardsPoint, [u8; 64]) {
            let key = ED25519_BASEPOINT_POINT * a + ta;
            let nonce = (ED25519_BASEPOINT_POINT * r + tr).compress().to_bytes();
            let k = challenge(&nonce, key.compress().as_bytes(), message);
            let mut signature = [0u8; 64];
            signature[..32].copy_from_slice(&nonce);
            signature[32..].copy_from_slice((r + k * a).as_bytes());
            (key, signature)
        }

        #[test]
        fn honest_signatures_pass_and_any_changed_bit_fails_in_both() {
            let none = EdwardsPoint::default();
            for n in 0..64u64 {
                let message = n.to_be_bytes();
                let (key, signature) = signed(scalar(n), none, scalar(1_000 + n), none, &message);
                assert!(verdict(&key, &message, &signature));
                assert!(!verdict(&key, b"another message", &signature));
                for bit in [0, 7, 100, 255, 256, 300, 500, 511] {
                    let mut changed = signature;
                    changed[bit / 8] ^= 1 << (bit % 8);
                    assert!(!verdict(&key, &message, &changed), "bit {bit}");
                }
            }
        }

        #[test]
        fn mixed_order_keys_and_nonces_agree_and_pass_only_when_the_equation_holds_exactly() {
            let (mut passed, mut failed) = (0, 0);
            for n in 0..96u64 {
                let message = n.to_be_bytes();
                let ta = EIGHT_TORSION[1 + (n as usize % 7)];
                let (a, r) = (scalar(n), scalar(5_000 + n));
                // An honest nonce with a key of mixed order: passes only
                // when [k]·ta is the identity.
                let (key, signature) = signed(a, ta, r, EdwardsPoint::default(), &message);
                let k = challenge(signature[..32].try_into().unwrap(), key.compress().as_bytes(), &message);
                let exact = (ta * k).is_identity();
                assert_eq!(verdict(&key, &message, &signature), exact);
                if exact {
                    passed += 1
                } else {
                    failed += 1
                }
                // A nonce of mixed order that cancels the key's torsion:
                // the cofactorless equation holds, and both accept it.
                for tr in EIGHT_TORSION.iter().skip(1) {
                    let (key, signature) = signed(a, ta, r, *tr, &message);
                    let k =
                        challenge(signature[..32].try_into().unwrap(), key.compress().as_bytes(), &message);
                    let exact = (ta * k + tr).is_identity();
                    assert_eq!(verdict(&key, &message, &signature), exact);
                    if exact {
                        passed += 1
                    } else {
                        failed += 1
                    }
                }
            }
            assert!(
                passed > 10 && failed > 100,
                "both outcomes were exercised: {passed} passed, {failed} failed"
            );
        }

        #[test]
        fn small_order_nonces_and_keys_fail_in_both_even_when_the_equation_holds() {
            let mut equation_held = 0;
            for n in 0..200u64 {
                let message = n.to_be_bytes();
                let a = scalar(n);
                let ta = EIGHT_TORSION[n as usize % 8];
                for t in EIGHT_TORSION {
                    // R of small order, s = k·a: the equation holds when
                    // t + [k]·ta is the identity.
                    let key = ED25519_BASEPOINT_POINT * a + ta;
                    let nonce = t.compress().to_bytes();
                    let k = challenge(&nonce, key.compress().as_bytes(), &message);
                    let mut signature = [0u8; 64];
                    signature[..32].copy_from_slice(&nonce);
                    signature[32..].copy_from_slice((k * a).as_bytes());
                    let computed = EdwardsPoint::vartime_double_scalar_mul_basepoint(&k, &-key, &(k * a));
                    if computed.compress().to_bytes() == nonce {
                        equation_held += 1;
                    }
                    assert!(!verdict(&key, &message, &signature));
                }
                // A key of small order signing honestly: the equation holds.
                let (key, signature) = signed(
                    Scalar::ZERO,
                    EIGHT_TORSION[n as usize % 8],
                    scalar(9_000 + n),
                    EdwardsPoint::default(),
                    &message,
                );
                assert!(!verdict(&key, &message, &signature));
            }
            assert!(
                equation_held > 50,
                "small-order R with the equation holding was tried {equation_held} times"
            );
        }

        #[test]
        fn non_canonical_s_and_r_fail_in_both() {
            const ORDER: [u8; 32] = [
                0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde,
                0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
            ];
            let none = EdwardsPoint::default();
            for n in 0..32u64 {
                let message = n.to_be_bytes();
                let (key, signature) = signed(scalar(n), none, scalar(7_000 + n), none, &message);
                assert!(verdict(&key, &message, &signature));
                // s + ℓ: the same point equation, an encoding over ℓ.
                let mut big = signature;
                let mut carry = 0u16;
                for i in 0..32 {
                    let sum = u16::from(big[32 + i]) + u16::from(ORDER[i]) + carry;
                    big[32 + i] = sum as u8;
                    carry = sum >> 8;
                }
                assert_eq!(carry, 0);
                assert!(!verdict(&key, &message, &big));
                // R written with y + p (y below 19), either sign: never
                // what the computed point encodes to.
                for y in 0..19u8 {
                    for sign in [0u8, 0x80] {
                        let mut r = [0xffu8; 32];
                        r[0] = 0xed + y;
                        r[31] = 0x7f | sign;
                        let mut odd = signature;
                        odd[..32].copy_from_slice(&r);
                        assert!(!verdict(&key, &message, &odd));
                    }
                }
            }
        }
    }
}
