//! `verify`: a bundle replayed with no trust in whoever made it, against what observers hold.

use asamblea_rules::Profile;
use asamblea_wire::{Chain, Checkpoint, Digest, EventRecord, PublicKey, Receipt, Signature};

use super::{check_receipt, register_from_bytes, BundleError, BundleReader, Part, VerifyError};
use crate::state::{Rejection, State};

/// Turns a profile's name and file bytes into a profile (the daemon parses
/// TOML; this crate does not).
pub type ProfileLoader = dyn Fn(&str, &[u8]) -> Result<Profile, String>;

/// What `verify` is told besides the bundle.
pub struct VerifyOptions<'a> {
    /// The daemon key published at the meeting, if the user has it.
    pub daemon_key: Option<PublicKey>,
    /// Heads the user holds from outside the bundle (read out at a close,
    /// printed in the acta): `(seq, head)` each.
    pub checkpoints: Vec<(u64, Digest)>,
    /// Daemon-signed heads an observer kept while the meeting ran (the
    /// live feed publishes them): each must be the bundle's head at its
    /// number, so a bundle cut or re-chained after one was seen fails.
    pub witnesses: Vec<(Checkpoint, Signature)>,
    /// Voters' receipts: each must be signed by the daemon and name an
    /// event that stands in the chain at its number with its head.
    pub receipts: Vec<(Receipt, Signature)>,
    /// Turns the profile's name and bytes into a profile.
    pub load_profile: &'a ProfileLoader,
}

impl<'a> VerifyOptions<'a> {
    /// Nothing from outside the bundle: its own checkpoints and chain only.
    pub fn bundle_alone(load_profile: &'a ProfileLoader) -> VerifyOptions<'a> {
        VerifyOptions {
            daemon_key: None,
            checkpoints: Vec::new(),
            witnesses: Vec::new(),
            receipts: Vec::new(),
            load_profile,
        }
    }
}

/// Each record of the bundle read from `source`, in order, given to
/// `each`: for documents made from a bundle that verified (each ballot's
/// choice on the tallies' holder sheet). Reads one record at a time; a
/// record that does not decode is named by its number.
/// `progress` hears `(records read, records in the bundle)` every
/// [`PROGRESS_EVERY`] records and at the end.
pub fn for_each_event<R: std::io::Read>(
    source: R,
    progress: &mut dyn FnMut(u64, u64),
    mut each: impl FnMut(&EventRecord),
) -> Result<(), BundleError> {
    let mut reader = BundleReader::new(std::io::BufReader::with_capacity(1 << 16, source));
    let (_, count) = reader.head()?;
    for seq in 1..=count {
        let (bytes, _) = reader.record()?;
        let record = EventRecord::decode(&bytes).map_err(|e| BundleError::Field {
            field: Part::Record,
            message: format!("registro / record {seq}: {e}"),
        })?;
        each(&record);
        if seq % PROGRESS_EVERY == 0 || seq == count {
            progress(seq, count);
        }
    }
    Ok(())
}

/// A bundle that verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Records checked.
    pub records: u64,
    /// The last head.
    pub head: Digest,
    /// Results re-derived, by item, in publication order (the last one of
    /// each item counts).
    pub results: Vec<String>,
    /// Checkpoints checked (the bundle's, the user's and the witnessed).
    pub checkpoints: usize,
    /// Receipts checked.
    pub receipts: usize,
}

/// Verifies a bundle, trusting nothing in it: every link, signature,
/// decision, result and lot, and the checkpoints.
pub fn verify_bundle(bytes: &[u8], options: &VerifyOptions) -> Result<Verified, VerifyError> {
    verify_bundle_with_progress(bytes, options, &mut |_, _| {})
}

/// How many records [`verify_bundle_with_progress`] replays between two
/// reports.
pub const PROGRESS_EVERY: u64 = 4_096;

/// [`verify_bundle`], reporting `(records replayed, records in the bundle)`
/// once the bundle is read, then every [`PROGRESS_EVERY`] records and at
/// the end of the replay (for a progress bar). The verdict is the same
/// whatever `progress` does.
pub fn verify_bundle_with_progress(
    bytes: &[u8],
    options: &VerifyOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Verified, VerifyError> {
    verify_bundle_from(std::io::Cursor::new(bytes), options, progress)
}

/// A record out of its place, found during the replay: what it is (a
/// copy, a move, a gap) takes a look at the records after it.
struct OutOfPlace {
    /// Its index in the bundle (from 0).
    index: u64,
    /// Its number.
    seq: u64,
    /// The number its place asks for.
    expected: u64,
}

/// Why the replay stopped: a verdict, or a record out of its place.
type Stop = Result<VerifyError, OutOfPlace>;

/// Records with their stored heads, as read.
type Records = Vec<(Vec<u8>, Digest)>;

/// [`verify_bundle_with_progress`] of a bundle read from `source` — a file,
/// usually — a field at a time: first through to its checkpoints (the
/// bundle's form, and what the replay must keep), then, from the first
/// record again, the replay, a slice at a time. Resident memory is the
/// meeting's state and a few slices, whatever the bundle's length; only
/// the heads the checkpoints, witnesses and receipts name are kept.
pub fn verify_bundle_from<R: std::io::Read + std::io::Seek>(
    source: R,
    options: &VerifyOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Verified, VerifyError> {
    verify_bundle_state(source, options, progress).map(|(verified, _)| verified)
}

/// [`verify_bundle_from`], also giving back the meeting the bundle's
/// events fold into once every check passed: what `verify` prints each
/// item's figures from, and what a document made from the bundle (the
/// acta, the exports) is a function of. Nothing is given for a bundle
/// that does not verify.
pub fn verify_bundle_state<R: std::io::Read + std::io::Seek>(
    source: R,
    options: &VerifyOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(Verified, State), VerifyError> {
    use std::io::Seek as _;
    let mut reader = BundleReader::new(std::io::BufReader::with_capacity(1 << 16, source));
    let (head, count) = reader.head().map_err(VerifyError::Bundle)?;
    let records_at = reader.at;
    for _ in 0..count {
        reader.skip_record().map_err(VerifyError::Bundle)?;
    }
    let checkpoints = reader.checkpoints().map_err(VerifyError::Bundle)?;
    reader.end().map_err(VerifyError::Bundle)?;
    if options.daemon_key.is_some_and(|k| k != head.daemon_key) {
        return Err(VerifyError::DaemonKeyMismatch);
    }
    // Nothing can stand at number 0; said before the replay, and as what
    // it is, rather than as a bundle cut short.
    let zero = [
        (
            checkpoints.iter().any(|(c, _)| c.seq == 0),
            "el punto de control del paquete",
            "the bundle's checkpoint",
        ),
        (options.checkpoints.iter().any(|&(seq, _)| seq == 0), "el punto de control", "checkpoint"),
        (options.witnesses.iter().any(|(c, _)| c.seq == 0), "la cabeza atestiguada", "witnessed head"),
        (options.receipts.iter().any(|(r, _)| r.seq == 0), "el recibo del evento", "the receipt of event"),
    ];
    if let Some(&(_, es, en)) = zero.iter().find(|(found, _, _)| *found) {
        return Err(VerifyError::NumberedZero { es, en });
    }
    let profile =
        (options.load_profile)(&head.profile_name, &head.profile_bytes).map_err(VerifyError::Profile)?;
    // The name travels beside the file and nothing else binds it: a loader
    // that reads the profile from the bytes alone would let it be anything.
    if profile.name() != head.profile_name {
        return Err(VerifyError::Profile(format!(
            "el paquete nombra el perfil `{0}` pero su archivo es el perfil `{1}` / \
             the bundle names profile `{0}` but its file is profile `{1}`",
            head.profile_name,
            profile.name()
        )));
    }
    let register = register_from_bytes(&head.register_bytes).map_err(VerifyError::Register)?;
    let meeting = head.meeting;
    let mut state =
        State::new(meeting, register, profile, Digest::sha256(&head.profile_bytes), Some(head.daemon_key));
    // The heads (and event digests) anything will ask about.
    let wanted: std::collections::HashSet<u64> = checkpoints
        .iter()
        .map(|(c, _)| c.seq)
        .chain(options.checkpoints.iter().map(|&(seq, _)| seq))
        .chain(options.witnesses.iter().map(|(c, _)| c.seq))
        .chain(options.receipts.iter().map(|(r, _)| r.seq))
        .collect();
    let mut kept: std::collections::HashMap<u64, (Digest, Digest)> = std::collections::HashMap::new();
    let mut chain = Chain::new(&meeting);
    let mut results = Vec::new();
    // Results still owed, by item: one per close and one per lot, with the
    // event that asked for the oldest.
    let mut owed: std::collections::HashMap<String, (u32, u64)> = std::collections::HashMap::new();
    let mut closes = Vec::new();
    progress(0, count);
    let mut source = reader.source;
    source.seek(std::io::SeekFrom::Start(records_at)).map_err(|e| VerifyError::Bundle(BundleError::io(e)))?;
    let mut reader = BundleReader::new(source);
    let mut read = 0u64;
    let next = || -> Result<Option<Records>, Stop> {
        let slice = (crate::signatures::STREAM_SLICE as u64).min(count - read);
        let records = (0..slice)
            .map(|_| reader.record())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Ok(VerifyError::Bundle(e)))?;
        read += slice;
        Ok((!records.is_empty()).then_some(records))
    };
    // What each record needs alone — decoding (its signer's key is a
    // curve point to check), its event's bytes, its signature — on every
    // core; then, in order, its place in the sequence and the chain, its
    // head, and its replay, as `State::admit` would. The first problem is
    // the one a record-by-record check meets first.
    let mut index = 0u64;
    let replayed = crate::signatures::stream_mapped(
        next,
        |(bytes, _): &(Vec<u8>, Digest)| crate::signatures::open_record(&meeting, bytes),
        |(bytes, stored_head), opened| {
            let position = index + 1;
            let crate::signatures::Opened { record, signed } =
                opened.map_err(|error| Ok(VerifyError::Decode { seq: position, error }))?;
            let expected = chain.seq() + 1;
            if record.seq != expected {
                return Err(Err(OutOfPlace { index, seq: record.seq, expected }));
            }
            let head = chain
                .append_encoded(&record, &bytes)
                .map_err(|_| Ok(VerifyError::TimeWentBackwards { seq: record.seq }))?;
            if head != stored_head {
                return Err(Ok(VerifyError::HeadMismatch { seq: record.seq }));
            }
            let admitted = if signed {
                state.admit_verified_at(&record.event, &record.signer, record.time_ms)
            } else {
                Err(Rejection::BadSignature)
            };
            admitted.map_err(|rejection| Ok(VerifyError::Rejected { seq: record.seq, rejection }))?;
            state.chained(head, record.time_ms);
            match &record.event.body {
                asamblea_wire::EventBody::ItemClosed { item }
                | asamblea_wire::EventBody::LotDrawn { item, .. } => {
                    let closed = matches!(record.event.body, asamblea_wire::EventBody::ItemClosed { .. });
                    if closed {
                        closes.push(record.seq);
                    }
                    let entry = owed.entry(item.as_str().to_string()).or_insert((0, record.seq));
                    // A lot breaks the tie of a result already published:
                    // drawn before it, the published figures would skip the
                    // tie the lot was drawn for (ledger-format §11, step 6).
                    if !closed && entry.0 > 0 {
                        return Err(Ok(VerifyError::LotBeforeResult {
                            item: item.as_str().to_string(),
                            seq: record.seq,
                        }));
                    }
                    if entry.0 == 0 {
                        entry.1 = record.seq;
                    }
                    entry.0 += 1;
                }
                asamblea_wire::EventBody::ResultPublished { item, .. } => {
                    match owed.get_mut(item.as_str()) {
                        Some((count, _)) if *count > 0 => *count -= 1,
                        _ => {
                            return Err(Ok(VerifyError::UnaskedResult {
                                item: item.as_str().to_string(),
                                seq: record.seq,
                            }))
                        }
                    }
                    results.push(item.as_str().to_string());
                }
                _ => {}
            }
            if wanted.contains(&position) {
                let event = EventRecord::event_bytes(&bytes).unwrap_or_default();
                kept.insert(position, (head, Digest::sha256(event)));
            }
            index = position;
            if position.is_multiple_of(PROGRESS_EVERY) || position == count {
                progress(position, count);
            }
            Ok(())
        },
    );
    match replayed {
        Ok(()) => {}
        Err(Ok(error)) => return Err(error),
        Err(Err(OutOfPlace { index, seq, expected })) => {
            // Every number below `expected` was seen in its place, so a
            // lower one is a copy; a higher one means the expected record
            // is either later in the bundle (moved) or nowhere (deleted).
            if seq < expected {
                return Err(VerifyError::Duplicated { seq, expected });
            }
            let mut source = reader.source;
            source
                .seek(std::io::SeekFrom::Start(records_at))
                .map_err(|e| VerifyError::Bundle(BundleError::io(e)))?;
            let mut later = BundleReader::new(std::io::BufReader::new(source));
            for _ in 0..=index {
                later.skip_record().map_err(VerifyError::Bundle)?;
            }
            for _ in index + 1..count {
                let (bytes, _) = later.record().map_err(VerifyError::Bundle)?;
                if EventRecord::decode(&bytes).is_ok_and(|record| record.seq == expected) {
                    return Err(VerifyError::Reordered { seq, expected });
                }
            }
            return Err(VerifyError::Missing { seq: expected, found: seq });
        }
    }
    // Every close and every lot has its result, and no tie is left open.
    if let Some((item, (_, seq))) =
        owed.iter().filter(|(_, (count, _))| *count > 0).min_by_key(|(_, (_, seq))| *seq)
    {
        return Err(VerifyError::UnpublishedResult { item: item.clone(), seq: *seq });
    }
    if let Some(meeting) = state.meeting() {
        for item in meeting.items() {
            if let Some(asamblea_rules::ItemResult::Election(e)) = item.result() {
                if e.outcome == asamblea_rules::Outcome::LotRequired {
                    return Err(VerifyError::LotNotDrawn { item: item.id().to_string() });
                }
            }
        }
    }
    let last = chain.seq();
    let head_at = |seq: u64| -> Result<Digest, VerifyError> {
        if seq == 0 || seq > last {
            return Err(VerifyError::Truncated { last, seq });
        }
        Ok(kept.get(&seq).expect("every head asked about was kept").0)
    };
    // Heads and receipts may be signed by any node that served: the
    // convening key and, in a replicated meeting, every enrolled node's.
    let daemon_keys = state.daemon_keys();
    for (checkpoint, signature) in &checkpoints {
        if !daemon_keys.iter().any(|key| key.verify(&meeting, &checkpoint.encode(), signature).is_ok()) {
            return Err(VerifyError::CheckpointSignature { seq: checkpoint.seq });
        }
        if head_at(checkpoint.seq)? != checkpoint.head {
            return Err(VerifyError::CheckpointMismatch { seq: checkpoint.seq });
        }
    }
    // A checkpoint at every close and at the end: a bundle cut anywhere
    // but at a checkpoint, with the later checkpoints dropped, lacks one.
    let needed = closes.iter().copied().chain((last > 0).then_some(last));
    for seq in needed {
        if !checkpoints.iter().any(|(c, _)| c.seq == seq) {
            return Err(VerifyError::MissingCheckpoint { seq });
        }
    }
    for &(seq, expected) in &options.checkpoints {
        if head_at(seq)? != expected {
            return Err(VerifyError::CheckpointMismatch { seq });
        }
    }
    for (witness, signature) in &options.witnesses {
        if !daemon_keys.iter().any(|key| witness.verify(&meeting, key, signature).is_ok()) {
            return Err(VerifyError::WitnessSignature { seq: witness.seq });
        }
        if head_at(witness.seq)? != witness.head {
            return Err(VerifyError::CheckpointMismatch { seq: witness.seq });
        }
    }
    for (index, (receipt, signature)) in options.receipts.iter().enumerate() {
        let at = |seq: u64| kept.get(&seq).map(|&(head, event)| (event, head));
        check_receipt(receipt, signature, &meeting, &daemon_keys, at)
            .map_err(|problem| VerifyError::Receipt { index: index + 1, seq: receipt.seq, problem })?;
    }
    let verified = Verified {
        records: last,
        head: chain.head(),
        results,
        checkpoints: checkpoints.len() + options.checkpoints.len() + options.witnesses.len(),
        receipts: options.receipts.len(),
    };
    Ok((verified, state))
}
