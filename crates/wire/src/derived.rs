//! Values a verifier recomputes from the ledger and its bundle: the digest
//! of the share register, the digest of a withdrawal list, and the index
//! of a lot draw.

use asamblea_rules::{Register, Role, SplitPermission};
use sha2::{Digest as _, Sha256};

use crate::values::{Digest, Id};

/// SHA-256 of the register's canonical form, as carried by
/// `register-imported`:
///
/// ```text
/// "asamblea/register/v1" || 0x00
/// || u64 ORD subscribed || u64 ORD treasury || u64 PREF subscribed || u64 PREF treasury
/// || u32 holder count
/// || per holder, in register order:
///      u32 id length || id bytes || u64 ORD shares || u64 PREF shares
///      || u8 role (0 none, 1 administrator, 2 employee)
///      || u8 split (0 none, 1 omnibus-custodian, 2 dismembered)
/// ```
pub fn register_digest(register: &Register) -> Digest {
    let mut hasher = Sha256::new();
    hasher.update(b"asamblea/register/v1\0");
    let capital = register.capital();
    for class in [capital.ordinary, capital.preferred] {
        hasher.update(class.subscribed().get().to_be_bytes());
        hasher.update(class.treasury().get().to_be_bytes());
    }
    let count = u32::try_from(register.len()).expect("a register has at most u32::MAX holders");
    hasher.update(count.to_be_bytes());
    for (_, holder) in register.iter() {
        let id = holder.id().as_bytes();
        hasher.update(u32::try_from(id.len()).expect("an id in memory is shorter than 4 GiB").to_be_bytes());
        hasher.update(id);
        hasher.update(holder.holdings().ordinary.get().to_be_bytes());
        hasher.update(holder.holdings().preferred.get().to_be_bytes());
        let role = match holder.role() {
            None => 0u8,
            Some(Role::Administrator) => 1,
            Some(Role::Employee) => 2,
        };
        let split = match holder.split() {
            None => 0u8,
            Some(SplitPermission::OmnibusCustodian) => 1,
            Some(SplitPermission::Dismembered) => 2,
        };
        hasher.update([role, split]);
    }
    Digest(hasher.finalize().into())
}

/// SHA-256 of a set of holder ids (the holders with a right of
/// withdrawal), sorted byte by byte and without repeats:
///
/// ```text
/// "asamblea/withdrawal/v1" || 0x00 || u32 count || per id: u32 length || id bytes
/// ```
pub fn withdrawal_digest<'a>(ids: impl IntoIterator<Item = &'a str>) -> Digest {
    let mut ids: Vec<&str> = ids.into_iter().collect();
    ids.sort_unstable();
    ids.dedup();
    let mut hasher = Sha256::new();
    hasher.update(b"asamblea/withdrawal/v1\0");
    hasher.update(u32::try_from(ids.len()).expect("fewer than u32::MAX holders").to_be_bytes());
    for id in ids {
        hasher.update(u32::try_from(id.len()).expect("an id in memory is shorter than 4 GiB").to_be_bytes());
        hasher.update(id.as_bytes());
    }
    Digest(hasher.finalize().into())
}

/// The position, among `candidates` tied lists (in ballot order), that
/// draw number `round` (from 0) of `item` gives the seat to; `None` when
/// there are no candidates.
///
/// ```text
/// h = SHA-256("asamblea/lot/v1" || 0x00 || seed || u32 item length || item || u32 round)
/// position = (first 8 bytes of h as a big-endian u64) mod candidates
/// ```
///
/// `seed` is the chain head right after the item's `item-closed` record, so
/// anyone holding the ledger recomputes the draw. The bias of the modulo is
/// below `candidates / 2^64`.
pub fn lot_index(seed: &Digest, item: &Id, round: u32, candidates: u32) -> Option<u32> {
    if candidates == 0 {
        return None;
    }
    let mut hasher = Sha256::new();
    hasher.update(b"asamblea/lot/v1\0");
    hasher.update(seed.0);
    let item = item.as_str().as_bytes();
    hasher.update(u32::try_from(item.len()).expect("an id is at most 64 bytes").to_be_bytes());
    hasher.update(item);
    hasher.update(round.to_be_bytes());
    let h: [u8; 32] = hasher.finalize().into();
    let mut first = [0u8; 8];
    first.copy_from_slice(&h[..8]);
    let position = u64::from_be_bytes(first) % u64::from(candidates);
    Some(u32::try_from(position).expect("a remainder below a u32 fits a u32"))
}
