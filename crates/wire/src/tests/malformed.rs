//! Every way bytes can fail to be a canonical message is refused with its
//! own problem, field and offset; every value with no canonical encoding
//! is refused by the encoder.

use asamblea_rules::{ItemSpecError, MatterKind, OptionIndex, Outcome, Shares};

use super::strategies::id;
use crate::{
    AgendaItem, Ballot, Checkpoint, Choice, CredentialId, Digest, ElectionFigures, Event, EventBody,
    EventRecord, HolderVote, Id, Keypair, MessageKind, Nonce, Problem, PublishedResult, Receipt, SplitPart,
    Text, WireError, FORMAT_VERSION,
};

/// The header every event below starts with: 18 bytes.
fn event(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut bytes = vec![tag, FORMAT_VERSION];
    bytes.extend_from_slice(&[0x11; 16]);
    bytes.extend_from_slice(body);
    bytes
}

/// A length-prefixed string.
fn s(text: &str) -> Vec<u8> {
    raw(text.as_bytes())
}

fn raw(bytes: &[u8]) -> Vec<u8> {
    let mut out = u32::try_from(bytes.len()).expect("short").to_be_bytes().to_vec();
    out.extend_from_slice(bytes);
    out
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

fn check(bytes: &[u8], field: &'static str, at: usize, problem: Problem) {
    assert_eq!(Event::decode(bytes), Err(WireError::Malformed { field, at, problem }), "{bytes:02x?}");
}

const ITEM_CLOSED: u8 = 0x0C;
const MEETING_CONVENED: u8 = 0x01;
const CHECKED_IN_AGENT: u8 = 0x05;
const BALLOT: u8 = 0x0B;

#[test]
fn header_problems() {
    check(&[], "tag", 0, Problem::Truncated { needed: 1, available: 0 });
    check(&event(0x00, &s("I")), "tag", 0, Problem::UnknownCode(0x00));
    check(&event(0x3F, &s("I")), "tag", 0, Problem::UnknownCode(0x3F));
    check(&event(0x40, &s("I")), "tag", 0, Problem::UnexpectedKind(MessageKind::Receipt));
    for old_or_new in [1, 3] {
        let mut other = event(ITEM_CLOSED, &s("I"));
        other[1] = old_or_new;
        check(&other, "version", 1, Problem::UnsupportedVersion(old_or_new));
    }
    let mut version_1 = event(ITEM_CLOSED, &s("I"));
    version_1[1] = 1;
    let said = Event::decode(&version_1).expect_err("version 1 is refused").to_string();
    assert!(said.contains("version 1 was written before the convened agenda"), "{said}");
    check(&[ITEM_CLOSED, 2, 0x11, 0x11], "nonce", 2, Problem::Truncated { needed: 16, available: 2 });
}

#[test]
fn size_problems() {
    check(&cat(&[&event(ITEM_CLOSED, &s("I")), &[0]]), "end", 23, Problem::TrailingBytes { count: 1 });
    let huge = vec![ITEM_CLOSED; 65_537];
    check(&huge, "event", 0, Problem::TooLong { len: 65_537, limit: 65_536 });
}

#[test]
fn string_problems() {
    let item = "item-closed.item";
    check(&event(ITEM_CLOSED, &s(&"x".repeat(65))), item, 18, Problem::TooLong { len: 65, limit: 64 });
    check(&event(ITEM_CLOSED, &[0xff; 4]), item, 18, Problem::TooLong { len: 0xffff_ffff, limit: 64 });
    check(&event(ITEM_CLOSED, &s("")), item, 18, Problem::TooShort { len: 0, min: 1 });
    check(
        &event(ITEM_CLOSED, &[0, 0, 0, 5, b'a', b'b']),
        item,
        22,
        Problem::Truncated { needed: 5, available: 2 },
    );
    check(&event(ITEM_CLOSED, &raw(&[b'a', 0xff])), item, 18, Problem::NotUtf8);
    check(&event(ITEM_CLOSED, &s("a\u{7}")), item, 18, Problem::ControlCharacter { position: 1 });
    // A Text may be empty but not longer than 256 bytes.
    let arrival = |document: &[u8]| {
        event(CHECKED_IN_AGENT, &cat(&[&s("X"), &[0, 0, 0, 1], &s("A"), &[1, 0], document]))
    };
    assert!(Event::decode(&arrival(&s(""))).is_ok());
    check(
        &arrival(&s(&"d".repeat(257))),
        "arrival.power_document",
        34,
        Problem::TooLong { len: 257, limit: 256 },
    );
}

#[test]
fn code_and_boolean_problems() {
    // An agenda of one item: id 99..104, title 104..108, matter 108,
    // noticed 109, seats 110..114, lists 114..118.
    let opened = |matter: u8, noticed: u8| {
        convened(&cat(&[&[0, 0, 0, 1], &s("I"), &s(""), &[matter, noticed], &[0; 8]]))
    };
    assert!(Event::decode(&opened(1, 1)).is_ok());
    check(&opened(1, 2), "meeting-convened.agenda.noticed", 109, Problem::NotABool(2));
    check(&opened(0, 1), "meeting-convened.agenda.matter", 108, Problem::UnknownCode(0));
    check(&opened(22, 1), "meeting-convened.agenda.matter", 108, Problem::UnknownCode(22));
    // checked-in-agent: agent 18..23, count 23..27, principal 27..32, capacity 32, role 33.
    let agent = |capacity: u8, role: u8| {
        event(CHECKED_IN_AGENT, &cat(&[&s("X"), &[0, 0, 0, 1], &s("A"), &[capacity, role], &s("")]))
    };
    assert!(Event::decode(&agent(2, 2)).is_ok());
    check(&agent(0, 0), "arrival.capacity", 32, Problem::UnknownCode(0));
    check(&agent(3, 0), "arrival.capacity", 32, Problem::UnknownCode(3));
    check(&agent(1, 3), "arrival.declared_role", 33, Problem::UnknownCode(3));
    let refused =
        |reason: u8| event(0x06, &cat(&[&s("X"), &[0, 0, 0, 1], &s("A"), &[1, 0], &s(""), &[reason]]));
    assert!(Event::decode(&refused(4)).is_ok());
    check(&refused(5), "proxy-refused.reason", 38, Problem::UnknownCode(5));
    check(&refused(0), "proxy-refused.reason", 38, Problem::UnknownCode(0));
}

#[test]
fn list_problems() {
    let agent = |principals: &[u8]| event(CHECKED_IN_AGENT, &cat(&[&s("X"), principals, &[1, 0], &s("")]));
    let field = "arrival.principals";
    check(&agent(&[0, 0, 0, 0]), field, 23, Problem::TooShort { len: 0, min: 1 });
    check(&agent(&[0, 0, 0x03, 0xe9]), field, 23, Problem::TooLong { len: 1001, limit: 1000 });
    check(&agent(&cat(&[&[0, 0, 0, 2], &s("b"), &s("a")])), field, 32, Problem::NotAscending);
    check(&agent(&cat(&[&[0, 0, 0, 2], &s("a"), &s("a")])), field, 32, Problem::NotAscending);
    assert!(Event::decode(&agent(&cat(&[&[0, 0, 0, 2], &s("a"), &s("b")]))).is_ok());

    let item = |lists: &[u8]| cat(&[&s("I"), &s(""), &[20, 1], &[0, 0, 0, 1], lists]);
    let field = "meeting-convened.agenda.lists";
    check(
        &convened(&cat(&[&[0, 0, 0, 1], &item(&[0, 0, 1, 1])])),
        field,
        114,
        Problem::TooLong { len: 257, limit: 256 },
    );
    let field = "meeting-convened.agenda";
    check(&convened(&[0, 0, 0, 0]), field, 95, Problem::TooShort { len: 0, min: 1 });
    check(&convened(&[0, 0, 1, 1]), field, 95, Problem::TooLong { len: 257, limit: 256 });
}

/// A `meeting-convened` event whose agenda (from its count on, at byte 95)
/// is `agenda`: key 18..50, profile `p` 50..55, digest 55..87, kind, call
/// and settings 87..95.
fn convened(agenda: &[u8]) -> Vec<u8> {
    let key = Keypair::from_seed(&[1; 32]).public_key().to_bytes();
    event(MEETING_CONVENED, &cat(&[&key, &s("p"), &[7; 32], &[1, 1, 1, 1, 0, 0, 0, 1], agenda]))
}

#[test]
fn ballot_problems() {
    // ballot: item 18..23, credential 23..27, count 27..31, first holder 31..36, choice 36.
    let ballot = |votes: &[u8]| event(BALLOT, &cat(&[&s("I"), &[0, 0, 0, 7], votes]));
    let whole = |holder: &str| cat(&[&s(holder), &[1, 0, 0]]);
    check(&ballot(&[0, 0, 0, 0]), "ballot.votes", 27, Problem::TooShort { len: 0, min: 1 });
    check(&ballot(&[0, 0, 0x03, 0xe9]), "ballot.votes", 27, Problem::TooLong { len: 1001, limit: 1000 });
    check(
        &ballot(&cat(&[&[0, 0, 0, 2], &whole("B"), &whole("A")])),
        "ballot.votes.holder",
        39,
        Problem::NotAscending,
    );
    check(
        &ballot(&cat(&[&[0, 0, 0, 2], &whole("A"), &whole("A")])),
        "ballot.votes.holder",
        39,
        Problem::NotAscending,
    );
    check(&ballot(&cat(&[&[0, 0, 0, 1], &s("A"), &[3]])), "ballot.votes.choice", 36, Problem::UnknownCode(3));
    check(&ballot(&cat(&[&[0, 0, 0, 1], &s("A"), &[0]])), "ballot.votes.choice", 36, Problem::UnknownCode(0));
    // split: count 37..41, parts of 10 bytes from 41.
    let split = |parts: &[u8]| ballot(&cat(&[&[0, 0, 0, 1], &s("A"), &[2], parts]));
    let part = |option: u8, shares: u8| [0, option, 0, 0, 0, 0, 0, 0, 0, shares];
    assert!(Event::decode(&split(&cat(&[&[0, 0, 0, 2], &part(0, 5), &part(1, 5)]))).is_ok());
    check(&split(&[0, 0, 0, 0]), "ballot.votes.split", 37, Problem::TooShort { len: 0, min: 1 });
    check(&split(&[0, 0, 1, 2]), "ballot.votes.split", 37, Problem::TooLong { len: 258, limit: 257 });
    check(
        &split(&cat(&[&[0, 0, 0, 2], &part(1, 5), &part(0, 5)])),
        "ballot.votes.split.option",
        51,
        Problem::NotAscending,
    );
    check(
        &split(&cat(&[&[0, 0, 0, 2], &part(1, 5), &part(1, 5)])),
        "ballot.votes.split.option",
        51,
        Problem::NotAscending,
    );
    check(&split(&cat(&[&[0, 0, 0, 1], &part(1, 0)])), "ballot.votes.split.shares", 43, Problem::ZeroShares);
}

#[test]
fn agenda_items_must_fit_their_matter_and_be_unique() {
    // One agenda item: id `I` 99..104, title `` 104..108, matter 108,
    // noticed 109, seats 110..114, lists from 114.
    let item = |id: &str, matter: u8, seats: u8, lists: &[&str]| {
        let mut body = cat(&[&s(id), &s(""), &[matter, 1], &[0, 0, 0, seats]]);
        body.extend_from_slice(&u32::try_from(lists.len()).expect("few").to_be_bytes());
        for list in lists {
            body.extend_from_slice(&s(list));
        }
        body
    };
    let opened = |matter: u8, seats: u8, lists: &[&str]| {
        convened(&cat(&[&[0, 0, 0, 1], &item("I", matter, seats, lists)]))
    };
    let field = "meeting-convened.agenda.seats";
    let fit = |matter| Problem::Item(ItemSpecError::OptionsDoNotFit(matter));
    check(&opened(1, 1, &[]), field, 110, fit(MatterKind::Ordinary));
    check(&opened(1, 0, &["A"]), field, 110, fit(MatterKind::Ordinary));
    check(&opened(20, 3, &[]), field, 110, fit(MatterKind::BoardElection));
    check(&opened(20, 0, &["A"]), field, 110, Problem::Item(ItemSpecError::BadSeats(0)));
    check(&opened(21, 2, &["A"]), field, 110, Problem::Item(ItemSpecError::BadSeats(2)));
    check(&opened(20, 3, &["A", "blank"]), field, 110, Problem::Item(ItemSpecError::BadList("blank".into())));
    check(&opened(20, 3, &["A", "A"]), field, 110, Problem::Item(ItemSpecError::BadList("A".into())));
    assert!(Event::decode(&opened(20, 3, &["B", "A"])).is_ok(), "lists keep ballot order");
    // The second `I` starts after the first and `J`, 19 bytes each.
    let twice = cat(&[&[0, 0, 0, 3], &item("I", 1, 0, &[]), &item("J", 1, 0, &[]), &item("I", 1, 0, &[])]);
    check(&convened(&twice), "meeting-convened.agenda.item", 137, Problem::Repeated);
    // A staff role byte outside 1..=4.
    let key = Keypair::from_seed(&[1; 32]).public_key().to_bytes();
    for role in [0u8, 5] {
        let enrolled = event(0x02, &cat(&[&key, &[role], &s("n")]));
        check(&enrolled, "staff-enrolled.role", 50, Problem::UnknownCode(role));
    }
}

#[test]
fn register_and_key_problems() {
    // register-imported: digest 18..50, holders 50..54, ordinary 54..70, preferred 70..86.
    let capital = |ord: [u64; 2], pref: [u64; 2]| {
        let figures: Vec<u8> = [ord, pref].concat().iter().flat_map(|f| f.to_be_bytes()).collect();
        event(0x03, &cat(&[&[7; 32], &[0, 0, 0, 9], &figures]))
    };
    assert!(Event::decode(&capital([10, 10], [0, 0])).is_ok());
    check(&capital([10, 11], [0, 0]), "register-imported.ordinary", 54, Problem::TreasuryExceedsSubscribed);
    check(&capital([10, 0], [0, 1]), "register-imported.preferred", 70, Problem::TreasuryExceedsSubscribed);
    // badge-issued: credential 18..22, key 22..54.
    let badge = |key: &[u8; 32]| event(0x08, &cat(&[&[0, 0, 0, 1], key, &s("P")]));
    assert!(Event::decode(&badge(&Keypair::from_seed(&[1; 32]).public_key().to_bytes())).is_ok());
    check(&badge(&[0; 32]), "badge-issued.key", 22, Problem::InvalidPublicKey);
    let mut identity = [0; 32];
    identity[0] = 1;
    check(&badge(&identity), "badge-issued.key", 22, Problem::InvalidPublicKey);
    // Keys accepted are remembered per thread; remembering changes no
    // verdict: the good key again, the bad ones still refused, also once
    // more keys than it remembers have passed.
    let good = Keypair::from_seed(&[1; 32]).public_key().to_bytes();
    for round in 0..2 {
        assert_eq!(crate::PublicKey::from_bytes(&good).map(|k| k.to_bytes()), Ok(good));
        assert!(crate::PublicKey::from_bytes(&[0; 32]).is_err());
        assert!(crate::PublicKey::from_bytes(&identity).is_err());
        if round == 0 {
            for n in 0..=crate::keys::KEYS_REMEMBERED as u32 {
                let mut seed = [2; 32];
                seed[..4].copy_from_slice(&n.to_be_bytes());
                let key = Keypair::from_seed(&seed).public_key().to_bytes();
                assert!(crate::PublicKey::from_bytes(&key).is_ok());
            }
        }
    }
}

#[test]
fn result_problems() {
    // result-published: item 18..23, kind 23, outcome 24, quorum 25.
    let decision = |outcome: u8| event(0x0E, &cat(&[&s("I"), &[1, outcome, 1], &[0; 56], &[0; 4], &[0, 0]]));
    assert!(Event::decode(&decision(1)).is_ok());
    check(&decision(5), "result.outcome", 24, Problem::OutcomeDoesNotFit(Outcome::Elected));
    check(&decision(0), "result.outcome", 24, Problem::UnknownCode(0));
    check(&decision(7), "result.outcome", 24, Problem::UnknownCode(7));
    check(&event(0x0E, &cat(&[&s("I"), &[3]])), "result.kind", 23, Problem::UnknownCode(3));
    // election: outcome 24, quorum 25, valid 26..34, blank 34..42, count 42..46, 2 votes 46..62,
    // has_seats 62, seats count 63..67, …
    let election = |outcome: u8, tail: &[u8]| {
        event(0x0E, &cat(&[&s("I"), &[2, outcome, 1], &[0; 16], &[0, 0, 0, 2], &[0; 16], tail]))
    };
    let rest = [0u8; 16];
    assert!(Event::decode(&election(5, &cat(&[&[0], &[0, 0, 0, 0], &rest]))).is_ok());
    check(&election(1, &[]), "result.outcome", 24, Problem::OutcomeDoesNotFit(Outcome::Pass));
    check(
        &election(5, &cat(&[&[1], &[0, 0, 0, 3]])),
        "result.seats",
        63,
        Problem::LengthMismatch { len: 3, expected: 2 },
    );
    // lot_between: count at 63, entries from 67.
    check(
        &election(5, &cat(&[&[0], &[0, 0, 0, 3]])),
        "result.lot_between",
        63,
        Problem::TooLong { len: 3, limit: 2 },
    );
    check(
        &election(5, &cat(&[&[0], &[0, 0, 0, 1], &[0, 0, 0, 2]])),
        "result.lot_between",
        67,
        Problem::OutOfRange { value: 2, limit: 2 },
    );
    check(
        &election(5, &cat(&[&[0], &[0, 0, 0, 2], &[0, 0, 0, 1], &[0, 0, 0, 0]])),
        "result.lot_between",
        71,
        Problem::NotAscending,
    );
    let no_lists = event(0x0E, &cat(&[&s("I"), &[2, 5, 1], &[0; 16], &[0, 0, 0, 0]]));
    check(&no_lists, "result.votes", 42, Problem::TooShort { len: 0, min: 1 });
}

#[test]
fn record_problems() {
    let key = Keypair::from_seed(&[1; 32]);
    let item_closed = Event { nonce: Nonce([0x11; 16]), body: EventBody::ItemClosed { item: id("I") } };
    let meeting = crate::MeetingId([3; 32]);
    let record = EventRecord::sign(1, 5, item_closed, &meeting, &key).expect("signs");
    let bytes = record.encode().expect("encodes");
    assert_eq!(EventRecord::decode(&bytes), Ok(record));
    // Header: seq 0..8, time 8..16, signer 16..48, signature 48..112, length 112..116, event from 116.
    let mut bad_key = bytes.clone();
    bad_key[16..48].fill(0);
    assert_eq!(EventRecord::decode(&bad_key), malformed("record.signer", 16, Problem::InvalidPublicKey));
    let mut long = bytes.clone();
    long[112..116].copy_from_slice(&65_537u32.to_be_bytes());
    assert_eq!(
        EventRecord::decode(&long),
        malformed("record.event_len", 112, Problem::TooLong { len: 65_537, limit: 65_536 })
    );
    // A length one short cuts the event: its last byte is missing from it.
    let mut short = bytes.clone();
    short[115] -= 1;
    assert_eq!(
        EventRecord::decode(&short),
        malformed("item-closed.item", 138, Problem::Truncated { needed: 1, available: 0 })
    );
    // Errors inside the event are at offsets in the record.
    let mut bad_version = bytes.clone();
    bad_version[117] = 9;
    assert_eq!(EventRecord::decode(&bad_version), malformed("version", 117, Problem::UnsupportedVersion(9)));
    assert_eq!(
        EventRecord::decode(&bytes[..130]),
        malformed("record.event", 116, Problem::Truncated { needed: 23, available: 14 })
    );
    assert_eq!(
        EventRecord::decode(&cat(&[&bytes, &[0]])),
        malformed("end", 139, Problem::TrailingBytes { count: 1 })
    );
    let oversize = vec![0; EventRecord::HEADER_LEN + 65_537];
    assert_eq!(
        EventRecord::decode(&oversize),
        malformed("record", 0, Problem::TooLong { len: 65_653, limit: 65_652 })
    );
}

#[test]
fn statement_problems() {
    let receipt = Receipt { seq: 1, head: crate::Digest([1; 32]), event: crate::Digest([2; 32]) }.encode();
    assert_eq!(
        Receipt::decode(&receipt[..73]),
        malformed("receipt.event", 42, Problem::Truncated { needed: 32, available: 31 })
    );
    assert_eq!(
        Receipt::decode(&cat(&[&receipt, &[0]])),
        malformed("end", 74, Problem::TrailingBytes { count: 1 })
    );
    assert_eq!(
        Checkpoint::decode(&receipt),
        malformed("tag", 0, Problem::UnexpectedKind(MessageKind::Receipt))
    );
    let closed = event(ITEM_CLOSED, &s("I"));
    assert_eq!(
        Receipt::decode(&closed),
        malformed("tag", 0, Problem::UnexpectedKind(MessageKind::ItemClosed))
    );
}

fn malformed<T>(field: &'static str, at: usize, problem: Problem) -> Result<T, WireError> {
    Err(WireError::Malformed { field, at, problem })
}

fn invalid(field: &'static str, problem: Problem) -> Result<Vec<u8>, WireError> {
    Err(WireError::Invalid { field, problem })
}

fn ballot_event(votes: Vec<HolderVote>) -> Event {
    let ballot = Ballot { item: id("I"), credential: CredentialId(7), votes };
    Event { nonce: Nonce([0; 16]), body: EventBody::Ballot(ballot) }
}

fn whole(holder: &str) -> HolderVote {
    HolderVote { holder: id(holder), choice: Choice::Whole(OptionIndex::FOR) }
}

#[test]
fn values_without_a_canonical_encoding_are_not_encoded() {
    assert_eq!(ballot_event(vec![]).encode(), invalid("ballot.votes", Problem::TooShort { len: 0, min: 1 }));
    assert_eq!(
        ballot_event(vec![whole("B"), whole("A")]).encode(),
        invalid("ballot.votes.holder", Problem::NotAscending)
    );
    let zero = SplitPart { option: OptionIndex::FOR, shares: Shares::ZERO };
    let split = HolderVote { holder: id("A"), choice: Choice::Split(vec![zero]) };
    assert_eq!(ballot_event(vec![split]).encode(), invalid("ballot.votes.split.shares", Problem::ZeroShares));
    // 1.000 votes of 60-byte ids: 67.031 bytes, over the message limit.
    let many = (0..1000).map(|i| whole(&format!("{i:060}"))).collect();
    assert_eq!(
        ballot_event(many).encode(),
        invalid("event", Problem::TooLong { len: 67_031, limit: 65_536 })
    );
    let item = |name: &str, lists: Vec<Id>| AgendaItem {
        item: id(name),
        title: Text::new("Fusión").expect("a title"),
        matter: MatterKind::Merger,
        noticed: true,
        seats: 0,
        lists,
    };
    let convened = |agenda: Vec<AgendaItem>| Event {
        nonce: Nonce([0; 16]),
        body: EventBody::MeetingConvened {
            daemon_key: Keypair::from_seed(&[1; 32]).public_key(),
            profile: id("p"),
            profile_digest: Digest([7; 32]),
            meeting_kind: asamblea_rules::MeetingKind::Ordinary,
            call: asamblea_rules::Call::First,
            settings: asamblea_rules::Settings::default(),
            agenda,
        },
    };
    assert_eq!(
        convened(vec![item("I", vec![id("A")])]).encode(),
        invalid(
            "meeting-convened.agenda.seats",
            Problem::Item(ItemSpecError::OptionsDoNotFit(MatterKind::Merger))
        )
    );
    assert_eq!(
        convened(vec![item("I", vec![]), item("J", vec![]), item("I", vec![])]).encode(),
        invalid("meeting-convened.agenda.item", Problem::Repeated)
    );
    assert_eq!(
        convened(vec![]).encode(),
        invalid("meeting-convened.agenda", Problem::TooShort { len: 0, min: 1 })
    );
    let election = ElectionFigures {
        outcome: Outcome::Pass,
        quorum_at_close: true,
        valid: Shares::ZERO,
        blank: Shares::ZERO,
        votes: vec![Shares::ZERO],
        seats: Some(vec![1, 0]),
        lot_between: vec![],
        seats_to_draw: 0,
        vacant: 0,
        base: Shares::ZERO,
    };
    let published = |election: &ElectionFigures| Event {
        nonce: Nonce([0; 16]),
        body: EventBody::ResultPublished {
            item: id("I"),
            result: PublishedResult::Election(election.clone()),
        },
    };
    assert_eq!(
        published(&election).encode(),
        invalid("result.outcome", Problem::OutcomeDoesNotFit(Outcome::Pass))
    );
    let election = ElectionFigures { outcome: Outcome::Elected, ..election };
    assert_eq!(
        published(&election).encode(),
        invalid("result.seats", Problem::LengthMismatch { len: 2, expected: 1 })
    );
    let election = ElectionFigures { seats: None, lot_between: vec![1], ..election };
    assert_eq!(
        published(&election).encode(),
        invalid("result.lot_between", Problem::OutOfRange { value: 1, limit: 1 })
    );
}

#[test]
fn a_statements_words_are_bounded_trimmed_and_free_of_control_characters_but_line_breaks() {
    const STATEMENT: u8 = 0x0F;
    let statement = |text: &[u8]| event(STATEMENT, &cat(&[&s("item-1"), &s("CC-1"), &raw(text)]));
    let at = 2 + 16 + (4 + 6) + (4 + 4);
    assert!(
        Event::decode(&statement("Dejo constancia:\nvoto en contra, señor presidente.".as_bytes())).is_ok()
    );
    assert!(Event::decode(&statement(&[b'a'; 4_000])).is_ok());
    check(&statement(b""), "statement-recorded.text", at, Problem::TooShort { len: 0, min: 1 });
    check(
        &statement(&[b'a'; 4_001]),
        "statement-recorded.text",
        at,
        Problem::TooLong { len: 4_001, limit: 4_000 },
    );
    check(&statement(b" dejo constancia"), "statement-recorded.text", at, Problem::Untrimmed);
    check(&statement(b"dejo constancia\n"), "statement-recorded.text", at, Problem::Untrimmed);
    check(
        &statement(b"dejo\tconstancia"),
        "statement-recorded.text",
        at,
        Problem::ControlCharacter { position: 4 },
    );
    assert_eq!(
        crate::Prose::new("  ").unwrap_err(),
        WireError::Invalid { field: "text", problem: Problem::Untrimmed }
    );
}

#[test]
fn names_and_the_meeting_file_are_bounded_and_clean() {
    const NAMED: u8 = 0x10;
    const DESCRIBED: u8 = 0x11;
    let at = 2 + 16;
    let names = |count: u32| {
        let mut body = 0u32.to_be_bytes().to_vec();
        body.extend_from_slice(&count.to_be_bytes());
        for _ in 0..count {
            body.extend_from_slice(&s("Ana"));
        }
        event(NAMED, &body)
    };
    assert!(Event::decode(&names(1)).is_ok());
    check(&names(0), "register-named.names", at + 4, Problem::TooShort { len: 0, min: 1 });
    check(&names(1_001), "register-named.names", at + 4, Problem::TooLong { len: 1_001, limit: 1_000 });
    assert!(Event::decode(&event(DESCRIBED, &raw(b"company = \"X\"\r\n\tnit = \"1\"\n"))).is_ok());
    check(
        &event(DESCRIBED, &raw(b"a\0b")),
        "meeting-described.file",
        at,
        Problem::ControlCharacter { position: 1 },
    );
    check(
        &event(DESCRIBED, &raw(&[b' '; 60_001])),
        "meeting-described.file",
        at,
        Problem::TooLong { len: 60_001, limit: 60_000 },
    );
}

#[test]
fn an_attendees_name_is_not_empty_and_their_document_is_one_id_or_none() {
    const ATTENDEE_NAMED: u8 = 0x12;
    let named = |name: &[u8], document: &[u8]| {
        event(ATTENDEE_NAMED, &cat(&[&s("CC-71234567"), &raw(name), document]))
    };
    let none = 0u32.to_be_bytes();
    let one = cat(&[&1u32.to_be_bytes(), &s("CC-80999111")]);
    let decoded = Event::decode(&named("Juan Pérez".as_bytes(), &none)).expect("an agent named");
    assert_eq!(
        decoded.body,
        EventBody::AttendeeNamed {
            person: id("CC-71234567"),
            name: Text::new("Juan Pérez").unwrap(),
            document: None
        }
    );
    let company = Event::decode(&named(b"Maria Gomez", &one)).expect("who attends for a company");
    assert!(
        matches!(company.body, EventBody::AttendeeNamed { document: Some(ref d), .. } if d.as_str() == "CC-80999111")
    );
    // The same bytes again from the value: one encoding.
    assert_eq!(company.encode().unwrap(), named(b"Maria Gomez", &one));
    let at = 2 + 16 + (4 + 11);
    check(&named(b"", &none), "attendee-named.name", at, Problem::TooShort { len: 0, min: 1 });
    check(&named(&[b'a'; 257], &none), "attendee-named.name", at, Problem::TooLong { len: 257, limit: 256 });
    check(&named(b"Juan\nP", &none), "attendee-named.name", at, Problem::ControlCharacter { position: 4 });
    let after_name = at + 4 + 4;
    check(
        &named(b"Juan", &2u32.to_be_bytes()),
        "attendee-named.document",
        after_name,
        Problem::TooLong { len: 2, limit: 1 },
    );
    check(
        &named(b"Juan", &cat(&[&1u32.to_be_bytes(), &s("")])),
        "attendee-named.document",
        after_name + 4,
        Problem::TooShort { len: 0, min: 1 },
    );
    // The encoder refuses an empty name too.
    let empty = Event {
        nonce: Nonce([1; 16]),
        body: EventBody::AttendeeNamed { person: id("CC-1"), name: Text::new("").unwrap(), document: None },
    };
    assert_eq!(
        empty.encode(),
        Err(WireError::Invalid {
            field: "attendee-named.name",
            problem: Problem::TooShort { len: 0, min: 1 }
        })
    );
}
