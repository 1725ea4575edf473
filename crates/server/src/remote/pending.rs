//! The browsers' registrations waiting for the desk: kept in memory, not
//! in the ledger (anyone on the internet can send one), bounded in all
//! and per address, the oldest dropped after [`KEPT_FOR`].

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use asamblea_wire::{Id, PublicKey, Text};

/// At most this many registrations wait at once.
pub(crate) const MAX_PENDING: usize = 1_000;
/// At most this many wait from one address (a family on one connection
/// registers a few people; a script registers many).
pub(crate) const MAX_PER_ADDRESS: usize = 5;
/// A registration the desk did not verify in this long is dropped: the
/// person registers again.
pub(crate) const KEPT_FOR: Duration = Duration::from_secs(12 * 3_600);

/// One registration waiting.
#[derive(Clone, Debug)]
pub(crate) struct Pending {
    pub(crate) key: PublicKey,
    pub(crate) person: Id,
    pub(crate) name: Text,
    pub(crate) address: Option<IpAddr>,
    pub(crate) at: Instant,
}

/// Why a registration was not kept.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Full {
    /// [`MAX_PENDING`] are waiting.
    InAll,
    /// [`MAX_PER_ADDRESS`] are waiting from this address.
    FromAddress,
}

/// The registrations waiting, by key.
#[derive(Default)]
pub(crate) struct Registrations {
    waiting: Mutex<HashMap<[u8; 32], Pending>>,
    /// The name each bound key registered with, for its page (the ledger
    /// keeps the person, not what they typed; lost at a restart, when the
    /// page shows the person's id).
    bound_names: Mutex<HashMap<[u8; 32], Text>>,
}

impl Registrations {
    /// Keeps `pending` (replacing the same key's earlier registration), at
    /// `now`, unless the bounds are reached.
    pub(crate) fn insert(&self, pending: Pending, now: Instant) -> Result<(), Full> {
        let mut waiting = self.waiting.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        waiting.retain(|_, p| now.duration_since(p.at) < KEPT_FOR);
        let key = pending.key.to_bytes();
        if !waiting.contains_key(&key) {
            if waiting.len() >= MAX_PENDING {
                return Err(Full::InAll);
            }
            let from_address = waiting.values().filter(|p| p.address == pending.address).count();
            if from_address >= MAX_PER_ADDRESS {
                return Err(Full::FromAddress);
            }
        }
        waiting.insert(key, pending);
        Ok(())
    }

    /// The registration of `key`, if waiting.
    pub(crate) fn get(&self, key: &PublicKey) -> Option<Pending> {
        let waiting = self.waiting.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        waiting.get(&key.to_bytes()).cloned()
    }

    /// Takes the registration of `key` out: the desk bound it.
    pub(crate) fn bound(&self, key: &PublicKey) {
        let mut waiting = self.waiting.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(pending) = waiting.remove(&key.to_bytes()) {
            let mut names = self.bound_names.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            names.insert(key.to_bytes(), pending.name);
        }
    }

    /// The name a bound key registered with.
    pub(crate) fn bound_name(&self, key: &PublicKey) -> Option<Text> {
        let names = self.bound_names.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        names.get(&key.to_bytes()).cloned()
    }

    /// Every registration waiting at `now`, oldest first.
    pub(crate) fn list(&self, now: Instant) -> Vec<Pending> {
        let waiting = self.waiting.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut list: Vec<Pending> =
            waiting.values().filter(|p| now.duration_since(p.at) < KEPT_FOR).cloned().collect();
        list.sort_by_key(|p| p.at);
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(n: u8, address: [u8; 4], at: Instant) -> Pending {
        Pending {
            key: asamblea_wire::Keypair::from_seed(&[n; 32]).public_key(),
            person: Id::new("CC-1").unwrap(),
            name: Text::new("Ana").unwrap(),
            address: Some(IpAddr::from(address)),
            at,
        }
    }

    #[test]
    fn bounded_per_address_and_dropped_once_old() {
        let registrations = Registrations::default();
        let t0 = Instant::now();
        for n in 0..MAX_PER_ADDRESS as u8 {
            registrations.insert(pending(n, [10, 0, 0, 1], t0), t0).expect("within the bound");
        }
        assert_eq!(registrations.insert(pending(99, [10, 0, 0, 1], t0), t0), Err(Full::FromAddress));
        // The same key again replaces its own; another address is apart.
        registrations.insert(pending(0, [10, 0, 0, 1], t0), t0).expect("the same key again");
        registrations.insert(pending(99, [10, 0, 0, 2], t0), t0).expect("another address");
        assert_eq!(registrations.list(t0).len(), MAX_PER_ADDRESS + 1);
        // Past KEPT_FOR they are gone, and the address may register again.
        let later = t0 + KEPT_FOR;
        assert!(registrations.list(later).is_empty());
        registrations.insert(pending(98, [10, 0, 0, 1], later), later).expect("the old ones dropped");
    }
}
