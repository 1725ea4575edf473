//! Where each ballot is in the ledger, by the digest of its event: what a
//! receipt is issued again from (a kiosk's retry of a ballot already
//! saved, the public lookup by hash). About 16 bytes a ballot — a prefix
//! of the digest and the sequence number — rather than a copy of its
//! receipt; the record itself, read back from the file, confirms a match
//! and gives the head ([`find_ballot`]).

use std::collections::HashMap;
use std::path::Path;

use asamblea_wire::{Digest, EventBody, EventRecord, MeetingId};

use crate::LedgerError;

/// Ballots by event digest ([`find_ballot`] looks one up).
#[derive(Debug, Default)]
pub struct BallotIndex {
    /// The ballots found when the ledger was opened: digest prefix and
    /// sequence number, sorted by prefix.
    stored: Vec<(u64, u32)>,
    /// Ballots saved since, by digest prefix.
    recent: HashMap<u64, u64>,
    /// Ballots whose prefix another ballot already had (or whose number
    /// does not fit 32 bits): rare, looked through in full.
    shared: Vec<(u64, u64)>,
}

/// The first 8 bytes of a digest: SHA-256 output, so as good as any hash.
fn prefix(digest: &Digest) -> u64 {
    u64::from_be_bytes(digest.0[..8].try_into().expect("8 bytes"))
}

/// The ballots of a ledger as it is read from its start, gathered as
/// compactly as the index keeps them.
#[derive(Default)]
pub(crate) struct Stored {
    sorted: Vec<(u64, u32)>,
    wide: Vec<(u64, u64)>,
}

impl Stored {
    /// Room for `ballots` ballots, reserved at once: a vector that doubles
    /// as it grows would hold up to twice what it needs.
    pub(crate) fn with_capacity(ballots: usize) -> Stored {
        Stored { sorted: Vec::with_capacity(ballots), wide: Vec::new() }
    }

    /// Notes the ballot at `seq`.
    pub(crate) fn push(&mut self, digest: &Digest, seq: u64) {
        match u32::try_from(seq) {
            Ok(seq) => self.sorted.push((prefix(digest), seq)),
            Err(_) => self.wide.push((prefix(digest), seq)),
        }
    }

    /// The index of the ballots noted.
    pub(crate) fn into_index(mut self) -> BallotIndex {
        self.sorted.sort_unstable();
        self.sorted.shrink_to_fit();
        BallotIndex { stored: self.sorted, recent: HashMap::new(), shared: self.wide }
    }
}

impl BallotIndex {
    /// Notes a ballot saved at `seq`.
    pub fn insert(&mut self, digest: &Digest, seq: u64) {
        let key = prefix(digest);
        let taken = self.recent.contains_key(&key) || self.stored_with(key).next().is_some();
        if taken {
            self.shared.push((key, seq));
        } else {
            self.recent.insert(key, seq);
        }
    }

    fn stored_with(&self, key: u64) -> impl Iterator<Item = u64> + '_ {
        let from = self.stored.partition_point(|&(p, _)| p < key);
        self.stored[from..].iter().take_while(move |&&(p, _)| p == key).map(|&(_, seq)| u64::from(seq))
    }

    /// The ballots that may have `digest`: every one whose digest starts
    /// like it (almost always one, or none).
    pub fn candidates(&self, digest: &Digest) -> Vec<u64> {
        let key = prefix(digest);
        let mut seqs: Vec<u64> = self.stored_with(key).collect();
        seqs.extend(self.recent.get(&key));
        seqs.extend(self.shared.iter().filter(|&&(p, _)| p == key).map(|&(_, seq)| seq));
        seqs
    }

    /// The ballots whose digest may start with the `bits` first bits of
    /// `start` (at most 64; the rest of `start` is ignored): the short code
    /// a voter noted from the kiosk. A handful at most for 48 bits, even
    /// among millions of ballots.
    pub fn starting_with(&self, start: u64, bits: u32) -> Vec<u64> {
        let bits = bits.clamp(1, 64);
        let mask = if bits == 64 { u64::MAX } else { !(u64::MAX >> bits) };
        let low = start & mask;
        let high = low | !mask;
        let from = self.stored.partition_point(|&(p, _)| p < low);
        let mut seqs: Vec<u64> = self.stored[from..]
            .iter()
            .take_while(|&&(p, _)| p <= high)
            .map(|&(_, seq)| u64::from(seq))
            .collect();
        seqs.extend(self.recent.iter().filter(|&(&p, _)| p & mask == low).map(|(_, &seq)| seq));
        seqs.extend(self.shared.iter().filter(|&&(p, _)| p & mask == low).map(|&(_, seq)| seq));
        seqs.sort_unstable();
        seqs
    }

    /// Ballots indexed.
    pub fn len(&self) -> usize {
        self.stored.len() + self.recent.len() + self.shared.len()
    }

    /// Whether no ballot is indexed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The number and the head after the ballot whose event has `digest`, read
/// from the ledger file at `path` (committed records only, beside any
/// writer); `None` if `index` has no such ballot.
pub fn find_ballot(
    path: &Path,
    meeting: &MeetingId,
    index: &BallotIndex,
    digest: &Digest,
) -> Result<Option<(u64, Digest)>, LedgerError> {
    for seq in index.candidates(digest) {
        if let Some((event, head)) = crate::record_at(path, meeting, seq)? {
            if event == *digest {
                return Ok(Some((seq, head)));
            }
        }
    }
    Ok(None)
}

/// The ballots counted on `item`: each one's number and the digest of its
/// event (what its receipt names), in ledger order, read from the file at
/// `path` a slice at a time beside any writer (committed records only).
/// Every ballot the ledger holds was admitted, so every one is counted.
pub fn ballots_on_item(
    path: &Path,
    meeting: &MeetingId,
    item: &str,
) -> Result<Vec<(u64, Digest)>, LedgerError> {
    const SLICE: usize = 4_096;
    let conn = crate::store::open_existing(path, meeting)?;
    let mut found = Vec::new();
    let mut after = 0;
    loop {
        let rows = crate::store::read_after(&conn, after, SLICE).map_err(|e| LedgerError::sqlite(path, e))?;
        let Some(last) = rows.last() else { break };
        after = last.seq;
        for row in &rows {
            let Some(event) = ballot_on(path, row, item)? else { continue };
            found.push((row.seq, event));
        }
        if rows.len() < SLICE {
            break;
        }
    }
    Ok(found)
}

/// The item the ballot at `seq` was cast on; `None` when that record is
/// not a ballot, or past the end.
pub fn ballot_item_at(path: &Path, meeting: &MeetingId, seq: u64) -> Result<Option<String>, LedgerError> {
    let conn = crate::store::open_existing(path, meeting)?;
    let Some(row) = crate::store::read_one(&conn, seq).map_err(|e| LedgerError::sqlite(path, e))? else {
        return Ok(None);
    };
    Ok(match decoded(path, &row)?.event.body {
        EventBody::Ballot(ballot) => Some(ballot.item.as_str().to_string()),
        _ => None,
    })
}

/// The record of `row`, decoded (a row that does not decode is a broken
/// chain, named by its number).
pub(crate) fn decoded(path: &Path, row: &crate::Row) -> Result<EventRecord, LedgerError> {
    EventRecord::decode(&row.record).map_err(|e| LedgerError::BrokenChain {
        path: path.display().to_string(),
        seq: row.seq,
        reason: format!("el registro no se puede decodificar / the record does not decode: {e}"),
    })
}

/// The digest of `record`'s event, which row `seq` holds: what a receipt
/// names.
pub(crate) fn event_digest(path: &Path, seq: u64, record: &EventRecord) -> Result<Digest, LedgerError> {
    let event = record.event.encode().map_err(|e| LedgerError::BrokenChain {
        path: path.display().to_string(),
        seq,
        reason: format!("el evento no se puede codificar / the event does not encode: {e}"),
    })?;
    Ok(Digest::sha256(&event))
}

/// The digest of the event of `row` when it is a ballot on `item`.
fn ballot_on(path: &Path, row: &crate::Row, item: &str) -> Result<Option<Digest>, LedgerError> {
    let record = decoded(path, row)?;
    match &record.event.body {
        EventBody::Ballot(ballot) if ballot.item.as_str() == item => {
            event_digest(path, row.seq, &record).map(Some)
        }
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest(first: u64, rest: u8) -> Digest {
        let mut bytes = [rest; 32];
        bytes[..8].copy_from_slice(&first.to_be_bytes());
        Digest(bytes)
    }

    #[test]
    fn every_ballot_is_a_candidate_for_its_digest_and_shared_prefixes_keep_all() {
        let mut stored = Stored::default();
        for (digest, seq) in
            [(digest(5, 1), 10), (digest(3, 1), 11), (digest(5, 2), 12), (digest(9, 1), 1 << 33)]
        {
            stored.push(&digest, seq);
        }
        let mut index = stored.into_index();
        index.insert(&digest(7, 1), 20);
        index.insert(&digest(7, 2), 21);
        index.insert(&digest(3, 9), 22);
        assert_eq!(index.len(), 7);
        let mut five = index.candidates(&digest(5, 0));
        five.sort_unstable();
        assert_eq!(five, vec![10, 12]);
        assert_eq!(index.candidates(&digest(3, 0)), vec![11, 22]);
        assert_eq!(index.candidates(&digest(7, 0)), vec![20, 21]);
        assert_eq!(index.candidates(&digest(9, 0)), vec![1 << 33]);
        assert!(index.candidates(&digest(4, 0)).is_empty());
        assert!(BallotIndex::default().is_empty());
    }
}

#[cfg(test)]
mod short_code_tests {
    use super::*;

    fn digest(first: u64) -> Digest {
        let mut bytes = [7u8; 32];
        bytes[..8].copy_from_slice(&first.to_be_bytes());
        Digest(bytes)
    }

    #[test]
    fn a_short_code_finds_the_ballots_that_start_with_it_stored_or_recent() {
        let mut stored = Stored::with_capacity(3);
        stored.push(&digest(0x99F1_09F1_A3C2_0001), 5);
        stored.push(&digest(0x99F1_09F1_A3C3_0000), 6);
        stored.push(&digest(0x1234_0000_0000_0000), 7);
        let mut index = stored.into_index();
        index.insert(&digest(0x99F1_09F1_A3C2_FFFF), 9);
        // 48 bits: the two that start 99F109F1A3C2, not the one a bit on.
        assert_eq!(index.starting_with(0x99F1_09F1_A3C2_0000, 48), vec![5, 9]);
        // 32 bits: every one starting 99F109F1.
        assert_eq!(index.starting_with(0x99F1_09F1_0000_0000, 32), vec![5, 6, 9]);
        assert_eq!(index.starting_with(0xFFFF_0000_0000_0000, 48), Vec::<u64>::new());
        // The highest code: no overflow at the top of the range.
        index.insert(&digest(u64::MAX), 10);
        assert_eq!(index.starting_with(u64::MAX, 48), vec![10]);
    }
}
