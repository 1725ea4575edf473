//! The nonces of every admitted event: the replay check refuses an event
//! whose nonce an earlier one used (`docs/ledger-format.md` §8).
//!
//! A meeting of a million ballots has over a million nonces. A hash set
//! holds them in 2^21 slots of 17 bytes — 36 MB, and 53 MB for a moment
//! while it grows — so most of them are kept instead in one sorted
//! sequence cut into chunks of [`CHUNK`] (16 bytes a nonce, about 19 MB,
//! and never two copies: a merge frees each old chunk once it is read).
//! The latest ones wait in a small hash set, merged in whenever it holds
//! [`RECENT`].

use std::collections::HashSet;

use asamblea_wire::Nonce;

/// Nonces in one chunk of the sorted sequence.
const CHUNK: usize = 1 << 16;
/// Nonces that wait in the hash set before a merge.
const RECENT: usize = 1 << 16;

/// A set of nonces.
#[derive(Default)]
pub(crate) struct Nonces {
    /// Sorted across chunks: every chunk's nonces are below the next's.
    chunks: Vec<Vec<u128>>,
    /// The first nonce of each chunk.
    firsts: Vec<u128>,
    recent: HashSet<u128>,
}

impl Nonces {
    /// Whether `nonce` is in the set.
    pub(crate) fn contains(&self, nonce: &Nonce) -> bool {
        let key = u128::from_be_bytes(nonce.0);
        if self.recent.contains(&key) {
            return true;
        }
        // The last chunk whose first nonce is not above it.
        match self.firsts.partition_point(|&first| first <= key).checked_sub(1) {
            Some(at) => self.chunks[at].binary_search(&key).is_ok(),
            None => false,
        }
    }

    /// Adds `nonce` (the caller checked it is not in the set).
    pub(crate) fn insert(&mut self, nonce: &Nonce) {
        self.recent.insert(u128::from_be_bytes(nonce.0));
        if self.recent.len() >= RECENT {
            self.merge();
        }
    }

    /// Moves the recent nonces into the sorted chunks.
    fn merge(&mut self) {
        let mut recent: Vec<u128> = self.recent.drain().collect();
        recent.sort_unstable();
        let mut recent = recent.into_iter().peekable();
        let mut merged: Vec<Vec<u128>> = Vec::new();
        let mut current = Vec::with_capacity(CHUNK);
        let emit = |key: u128, merged: &mut Vec<Vec<u128>>, current: &mut Vec<u128>| {
            if current.len() == CHUNK {
                merged.push(std::mem::replace(current, Vec::with_capacity(CHUNK)));
            }
            current.push(key);
        };
        for chunk in std::mem::take(&mut self.chunks) {
            for key in chunk {
                while let Some(new) = recent.next_if(|&new| new < key) {
                    emit(new, &mut merged, &mut current);
                }
                emit(key, &mut merged, &mut current);
            }
            // The old chunk is freed here, before the next is read.
        }
        for new in recent {
            emit(new, &mut merged, &mut current);
        }
        if !current.is_empty() {
            current.shrink_to_fit();
            merged.push(current);
        }
        self.firsts = merged.iter().map(|chunk| chunk[0]).collect();
        self.chunks = merged;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_nonce_added_is_found_and_no_other_across_merges() {
        let mut set = Nonces::default();
        let mut state = 0x9e37_79b9_7f4a_7c15_u128;
        let mut next = || {
            // A full-width generator: nonces spread over all 128 bits.
            state = state.wrapping_mul(0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645).wrapping_add(1);
            Nonce(state.to_be_bytes())
        };
        let added: Vec<Nonce> = (0..3 * RECENT + 123).map(|_| next()).collect();
        for (i, nonce) in added.iter().enumerate() {
            assert!(!set.contains(nonce), "nonce {i} before it was added");
            set.insert(nonce);
            assert!(set.contains(nonce), "nonce {i} just added");
        }
        assert_eq!(set.chunks.len(), 3, "three merges of {RECENT} make three chunks of {CHUNK}");
        assert!(set.chunks.iter().flatten().zip(set.chunks.iter().flatten().skip(1)).all(|(a, b)| a < b));
        assert!(added.iter().all(|n| set.contains(n)));
        assert!((0..1000).map(|_| next()).all(|n| !set.contains(&n)));
        // The extremes, and neighbours of stored ones.
        for edge in [0u128, u128::MAX] {
            assert!(!set.contains(&Nonce(edge.to_be_bytes())));
            set.insert(&Nonce(edge.to_be_bytes()));
            assert!(set.contains(&Nonce(edge.to_be_bytes())));
        }
        let some = u128::from_be_bytes(added[5].0);
        assert!(
            !set.contains(&Nonce((some + 1).to_be_bytes()))
                || added.iter().any(|n| u128::from_be_bytes(n.0) == some + 1)
        );
    }
}
