//! The test vectors of `docs/ledger-format.md`, checked.
//!
//! A small meeting is run through the rules engine and recorded as a
//! signed, chained ledger with fixed seeds, nonces and times. Every byte
//! string is compared with the constants below, recomputed by hand from the
//! layouts the document gives (not only through this crate's functions),
//! and looked for in the document itself, so the document, this file and
//! the code agree byte for byte.
//!
//! A second meeting (`docs/vectors/every-figure.md`) is recorded the same
//! way, so that every figure of a result and every reason of a refused
//! proxy has its bytes.
//!
//! To regenerate after a deliberate format change (which needs a new
//! version), run
//! `ASAMBLEA_PRINT_VECTORS=1 cargo test -p asamblea-wire --test vectors -- --nocapture`
//! and paste the printed Markdown into the documents (§10.1–10.6 of the
//! format; the records of `every-figure.md`) and the printed Rust over the
//! constants; then regenerate the bundles (`crates/cli/tests/it/vectors.rs`).

use asamblea_rules::{
    Call, Capacity, Capital, ClassCapital, ClassShares, HolderSpec, MatterKind, MatterRules, Meeting,
    MeetingKind, OptionIndex, Profile, Refusal, Register, Role, Settings, Shares, SplitPermission,
};
use asamblea_wire::{
    admission_code, genesis_head, lot_index, register_digest, signing_input, withdrawal_digest, AgendaItem,
    AgentArrival, Ballot, Chain, Checkpoint, Choice, Credential, CredentialId, Digest, Event, EventBody,
    EventRecord, HolderVote, Id, Keypair, MeetingId, MessageKind, Nonce, ProxyRefusal, PublicKey,
    PublishedResult, Receipt, SessionPass, Signature, SignerRole, SplitPart, StaffRole, Text,
};

// ----- inputs ---------------------------------------------------------------

/// The meeting id: bytes 0x00, 0x01, …, 0x1f.
fn meeting_id() -> MeetingId {
    let mut id = [0u8; 32];
    for (i, byte) in id.iter_mut().enumerate() {
        *byte = u8::try_from(i).expect("32 bytes");
    }
    MeetingId(id)
}

/// The profile file the vectors' meeting is convened under (its bytes are
/// digested into `meeting-convened` and carried by the bundle of §10.7).
const PROFILE_FILE: &[u8] = include_bytes!("../../../docs/vectors/profile.toml");
const DAEMON_SEED: [u8; 32] = [0x11; 32];
const STAFF_SEED: [u8; 32] = [0x22; 32];
const ATTENDEE_SEED: [u8; 32] = [0x33; 32];
const CHAIR_SEED: [u8; 32] = [0x44; 32];
/// 2026-03-26T14:00:00Z; record `n` is timed `T0 + n` seconds.
const T0: u64 = 1_774_533_600_000;

fn id(s: &str) -> Id {
    Id::new(s).expect("vector ids are valid")
}

fn register() -> Register {
    let class = |subscribed| ClassCapital::new(Shares::new(subscribed), Shares::ZERO).expect("no treasury");
    let capital = Capital { ordinary: class(2_000_000), preferred: class(200_000) };
    let holder = |id: &str, ordinary, role, split| HolderSpec {
        id: id.into(),
        holdings: ClassShares::new(Shares::new(ordinary), Shares::ZERO),
        role,
        split,
    };
    Register::new(
        capital,
        [
            holder("H1", 600_000, None, None),
            holder("H2", 300_000, None, Some(SplitPermission::Dismembered)),
            holder("H3", 300_000, None, None),
            holder("H4", 50_000, Some(Role::Employee), None),
        ],
    )
    .expect("a valid register")
}

/// The profile of `docs/vectors/profile.toml`: the law alone.
fn profile() -> Profile {
    let rules = MatterKind::ALL.map(|kind| (kind, MatterRules::statutory(kind)));
    Profile::new("vectors", Settings::default(), rules).expect("a valid profile")
}

/// The agenda convened: an ordinary decision, and a one-seat board
/// election between two lists.
fn agenda() -> Vec<AgendaItem> {
    vec![
        AgendaItem {
            item: id("item-1"),
            title: Text::new("Aprobación del orden del día").expect("valid"),
            matter: MatterKind::Ordinary,
            noticed: true,
            seats: 0,
            lists: vec![],
        },
        AgendaItem {
            item: id("item-2"),
            title: Text::new("Elección de la Junta Directiva").expect("valid"),
            matter: MatterKind::BoardElection,
            noticed: true,
            seats: 1,
            lists: vec![id("Lista A"), id("Lista B")],
        },
    ]
}

// ----- the meeting ----------------------------------------------------------

/// Records the meeting: each event is applied to the rules engine, signed
/// and chained.
struct Ledger {
    meeting_id: MeetingId,
    chain: Chain,
    records: Vec<EventRecord>,
    heads: Vec<Digest>,
}

impl Ledger {
    fn push(&mut self, body: EventBody, key: &Keypair) -> Digest {
        let seq = self.records.len() as u64 + 1;
        let nonce = Nonce([u8::try_from(seq).expect("few records"); 16]);
        let record = EventRecord::sign(seq, T0 + seq * 1_000, Event { nonce, body }, &self.meeting_id, key)
            .expect("a valid event");
        let head = self.chain.append(&record).expect("in sequence");
        self.records.push(record);
        self.heads.push(head);
        head
    }
}

struct Run {
    ledger: Ledger,
    lot_seed: Digest,
    lot_position: u32,
}

/// The first four records of both stories: the meeting convened with
/// `agenda` under the vectors' profile, the operator and the chair
/// enrolled, `register` imported. Returns the ledger and the rules'
/// meeting, ready for arrivals.
fn convene(meeting_id: MeetingId, register: &Register, agenda: Vec<AgendaItem>) -> (Ledger, Meeting) {
    let daemon = Keypair::from_seed(&DAEMON_SEED);
    let mut ledger = Ledger { meeting_id, chain: Chain::new(&meeting_id), records: vec![], heads: vec![] };
    ledger.push(
        EventBody::MeetingConvened {
            daemon_key: daemon.public_key(),
            profile: id("vectors"),
            profile_digest: Digest::sha256(PROFILE_FILE),
            meeting_kind: MeetingKind::Ordinary,
            call: Call::First,
            settings: Settings::default(),
            agenda,
        },
        &daemon,
    );
    for (seed, role, name) in
        [(STAFF_SEED, StaffRole::Operator, "operador-1"), (CHAIR_SEED, StaffRole::Chair, "presidente")]
    {
        let key = Keypair::from_seed(&seed).public_key();
        ledger.push(EventBody::StaffEnrolled { key, role, name: id(name) }, &daemon);
    }
    ledger.push(
        EventBody::RegisterImported {
            register_digest: register_digest(register),
            holders: u32::try_from(register.len()).expect("few holders"),
            capital: *register.capital(),
        },
        &Keypair::from_seed(&STAFF_SEED),
    );
    let meeting = Meeting::new(register.clone(), profile(), MeetingKind::Ordinary, Call::First);
    (ledger, meeting)
}

fn run() -> Run {
    let meeting_id = meeting_id();
    let daemon = Keypair::from_seed(&DAEMON_SEED);
    let staff = Keypair::from_seed(&STAFF_SEED);
    let chair = Keypair::from_seed(&CHAIR_SEED);
    let credential = Credential::generate_from(&meeting_id, CredentialId(1), &ATTENDEE_SEED);
    let attendee = credential.keypair();
    let (mut ledger, mut meeting) = convene(meeting_id, &register(), agenda());
    meeting.arrive_in_person("H1").expect("H1 arrives");
    ledger.push(EventBody::CheckedInPerson { holder: id("H1") }, &staff);
    let arrival = AgentArrival {
        agent: id("AG-7"),
        principals: vec![id("H2"), id("H3")],
        capacity: Capacity::Proxy,
        declared_role: None,
        power_document: Text::new("Poder 2026-0042").expect("valid"),
    };
    meeting.arrive_as_agent("AG-7", &["H2", "H3"], Capacity::Proxy, None).expect("AG-7 arrives");
    ledger.push(EventBody::CheckedInAgent(arrival), &staff);
    let refused = meeting.arrive_as_agent("E-9", &["H4"], Capacity::Proxy, Some(Role::Employee));
    assert_eq!(refused, Err(Refusal::ProxyAgentBarred));
    let arrival = AgentArrival {
        agent: id("E-9"),
        principals: vec![id("H4")],
        capacity: Capacity::Proxy,
        declared_role: Some(Role::Employee),
        power_document: Text::new("").expect("valid"),
    };
    let reason = ProxyRefusal::from_refusal(Refusal::ProxyAgentBarred).expect("an arrival refusal");
    ledger.push(EventBody::ProxyRefused { arrival, reason }, &staff);
    ledger.push(
        EventBody::BadgeIssued {
            credential: CredentialId(1),
            key: credential.public_key(),
            person: id("AG-7"),
        },
        &staff,
    );

    // item-1: a decision. H2 splits (dismembered), H3 votes for, H1 abstains.
    let [item_1, item_2] = agenda().try_into().expect("two items");
    meeting.open(item_1.to_spec().expect("fits")).expect("quorum");
    ledger.push(EventBody::ItemOpened { item: id("item-1") }, &chair);
    let split = vec![
        SplitPart { option: OptionIndex::FOR, shares: Shares::new(200_000) },
        SplitPart { option: OptionIndex::AGAINST, shares: Shares::new(100_000) },
    ];
    let ballot = Ballot {
        item: id("item-1"),
        credential: CredentialId(1),
        votes: vec![
            HolderVote { holder: id("H2"), choice: Choice::Split(split) },
            HolderVote { holder: id("H3"), choice: Choice::Whole(OptionIndex::FOR) },
        ],
    };
    for vote in &ballot.votes {
        meeting.vote("item-1", vote.holder.as_str(), &vote.choice.to_rules()).expect("eligible");
    }
    ledger.push(EventBody::Ballot(ballot), attendee);
    meeting.close("item-1").expect("open");
    ledger.push(EventBody::ItemClosed { item: id("item-1") }, &chair);
    let result = |meeting: &Meeting, item: &str| {
        let at = meeting.item_index(item).expect("opened");
        PublishedResult::from_rules(meeting.item(at).result().expect("closed"), meeting.register())
    };
    ledger
        .push(EventBody::ResultPublished { item: id("item-1"), result: result(&meeting, "item-1") }, &daemon);

    // item-2: one seat, two lists tied: a lot decides.
    let lists = item_2.lists.clone();
    meeting.open(item_2.to_spec().expect("fits")).expect("quorum");
    ledger.push(EventBody::ItemOpened { item: id("item-2") }, &chair);
    let ballot = Ballot {
        item: id("item-2"),
        credential: CredentialId(1),
        votes: vec![
            HolderVote { holder: id("H2"), choice: Choice::Whole(OptionIndex::list(0)) },
            HolderVote { holder: id("H3"), choice: Choice::Whole(OptionIndex::list(1)) },
        ],
    };
    for vote in &ballot.votes {
        meeting.vote("item-2", vote.holder.as_str(), &vote.choice.to_rules()).expect("eligible");
    }
    ledger.push(EventBody::Ballot(ballot), attendee);
    meeting.close("item-2").expect("open");
    let lot_seed = ledger.push(EventBody::ItemClosed { item: id("item-2") }, &chair);
    ledger
        .push(EventBody::ResultPublished { item: id("item-2"), result: result(&meeting, "item-2") }, &daemon);
    let lot_position = lot_index(&lot_seed, &id("item-2"), 0, 2).expect("two candidates");
    let winner = lists[usize::try_from(lot_position).expect("0 or 1")].clone();
    meeting.draw("item-2", winner.as_str()).expect("a lot is pending");
    ledger.push(EventBody::LotDrawn { item: id("item-2"), round: 0, seed: lot_seed, winner }, &chair);
    ledger
        .push(EventBody::ResultPublished { item: id("item-2"), result: result(&meeting, "item-2") }, &daemon);

    meeting.leave("AG-7").expect("present");
    ledger.push(EventBody::CheckedOut { person: id("AG-7") }, &staff);
    ledger.push(EventBody::BadgeRevoked { credential: CredentialId(1) }, &staff);
    Run { ledger, lot_seed, lot_position }
}

// ----- the second meeting: every figure and reason ----------------------------

/// The seed of badge `n` in the second meeting: 32 × (0x50 + n).
fn badge_seed(n: u32) -> [u8; 32] {
    [0x50 + u8::try_from(n).expect("few badges"); 32]
}

/// The second meeting's id: bytes 0x20, 0x21, …, 0x3f.
fn meeting_id_2() -> MeetingId {
    let mut id = [0u8; 32];
    for (i, byte) in id.iter_mut().enumerate() {
        *byte = 0x20 + u8::try_from(i).expect("32 bytes");
    }
    MeetingId(id)
}

fn register_2() -> Register {
    let class = |subscribed| ClassCapital::new(Shares::new(subscribed), Shares::ZERO).expect("no treasury");
    let capital = Capital { ordinary: class(1_100_000), preferred: class(400_000) };
    let holder = |id: &str, ordinary, preferred, role| HolderSpec {
        id: id.into(),
        holdings: ClassShares::new(Shares::new(ordinary), Shares::new(preferred)),
        role,
        split: None,
    };
    Register::new(
        capital,
        [
            holder("P1", 300_000, 200_000, None),
            holder("P2", 200_000, 0, None),
            holder("P3", 100_000, 100_000, None),
            holder("P4", 50_000, 0, Some(Role::Administrator)),
            holder("P5", 150_000, 100_000, None),
            holder("P6", 100_000, 0, None),
            holder("P7", 100_000, 0, None),
            holder("P8", 100_000, 0, None),
        ],
    )
    .expect("a valid register")
}

fn agenda_2() -> Vec<AgendaItem> {
    let item = |id_: &str, title: &str, matter, seats, lists: &[&str]| AgendaItem {
        item: id(id_),
        title: Text::new(title).expect("valid"),
        matter,
        noticed: true,
        seats,
        lists: lists.iter().map(|l| id(l)).collect(),
    };
    vec![
        item("item-1", "Conversión de las acciones preferenciales", MatterKind::PreferredConversion, 0, &[]),
        item("item-2", "Fusión con Inversiones del Sur S.A.", MatterKind::Merger, 0, &[]),
        item(
            "item-3",
            "Elección de la Junta Directiva",
            MatterKind::BoardElection,
            3,
            &["Lista A", "Lista B"],
        ),
        item("item-4", "Elección de la Comisión del Acta", MatterKind::BoardElection, 2, &["X", "Y", "Z"]),
    ]
}

/// The second meeting: every figure a result can carry and every reason a
/// refused proxy can have, recorded as the daemon records them.
fn run_2() -> Ledger {
    let meeting_id = meeting_id_2();
    let daemon = Keypair::from_seed(&DAEMON_SEED);
    let operator = Keypair::from_seed(&STAFF_SEED);
    let chair = Keypair::from_seed(&CHAIR_SEED);
    let (mut ledger, mut meeting) = convene(meeting_id, &register_2(), agenda_2());
    for holder in ["P1", "P2", "P3", "P4"] {
        meeting.arrive_in_person(holder).expect("arrives");
        ledger.push(EventBody::CheckedInPerson { holder: id(holder) }, &operator);
    }
    let arrival = |agent: &str, principals: &[&str], document: &str| AgentArrival {
        agent: id(agent),
        principals: principals.iter().map(|p| id(p)).collect(),
        capacity: Capacity::Proxy,
        declared_role: None,
        power_document: Text::new(document).expect("valid"),
    };
    meeting.arrive_as_agent("AG-1", &["P6", "P7", "P8"], Capacity::Proxy, None).expect("AG-1 arrives");
    ledger
        .push(EventBody::CheckedInAgent(arrival("AG-1", &["P6", "P7", "P8"], "Poder 2026-0100")), &operator);
    // Each reason a proxy can be refused for: the rules' own (unknown
    // holder, already present) and the desk's (the power document).
    for (agent, principals, expected) in
        [("AG-2", ["NOBODY"], Some(Refusal::UnknownHolder)), ("AG-3", ["P1"], Some(Refusal::AlreadyPresent))]
    {
        let refusal = meeting.check_arrival(agent, &principals, Capacity::Proxy, None).err();
        assert_eq!(refusal, expected);
        let reason = ProxyRefusal::from_refusal(refusal.expect("refused")).expect("an arrival refusal");
        ledger.push(EventBody::ProxyRefused { arrival: arrival(agent, &principals, ""), reason }, &operator);
    }
    assert!(meeting.check_arrival("AG-4", &["P5"], Capacity::Proxy, None).is_ok());
    let rejected = arrival("AG-4", &["P5"], "Poder sin firma");
    ledger.push(
        EventBody::ProxyRefused { arrival: rejected, reason: ProxyRefusal::PowerDocumentRejected },
        &operator,
    );
    let people = ["P1", "P2", "P3", "P4", "AG-1"];
    let badges: Vec<Credential> =
        (1..=5u32).map(|n| Credential::generate_from(&meeting_id, CredentialId(n), &badge_seed(n))).collect();
    for (badge, person) in badges.iter().zip(people) {
        ledger.push(
            EventBody::BadgeIssued { credential: badge.id(), key: badge.public_key(), person: id(person) },
            &operator,
        );
    }
    let badge_of = |person: &str| &badges[people.iter().position(|p| *p == person).expect("a badge")];
    let result = |meeting: &Meeting, item: &str| {
        let at = meeting.item_index(item).expect("opened");
        PublishedResult::from_rules(meeting.item(at).result().expect("closed"), meeting.register())
    };
    let poll = |meeting: &mut Meeting,
                ledger: &mut Ledger,
                item: &str,
                ballots: &[(&str, Vec<(&str, OptionIndex)>)]| {
        let spec = agenda_2().into_iter().find(|a| a.item.as_str() == item).expect("on the agenda");
        meeting.open(spec.to_spec().expect("fits")).expect("quorum");
        ledger.push(EventBody::ItemOpened { item: id(item) }, &chair);
        for (person, votes) in ballots {
            let mut votes: Vec<HolderVote> = votes
                .iter()
                .map(|(holder, option)| HolderVote { holder: id(holder), choice: Choice::Whole(*option) })
                .collect();
            votes.sort_by(|a, b| a.holder.cmp(&b.holder));
            for vote in &votes {
                meeting.vote(item, vote.holder.as_str(), &vote.choice.to_rules()).expect("eligible");
            }
            let badge = badge_of(person);
            let ballot = Ballot { item: id(item), credential: badge.id(), votes };
            ledger.push(EventBody::Ballot(ballot), badge.keypair());
        }
        meeting.close(item).expect("open");
        let seed = ledger.push(EventBody::ItemClosed { item: id(item) }, &chair);
        ledger.push(EventBody::ResultPublished { item: id(item), result: result(meeting, item) }, &daemon);
        seed
    };
    // item-1: preferred shares vote (R13); judged on both classes, so the
    // result carries the for votes by class.
    poll(
        &mut meeting,
        &mut ledger,
        "item-1",
        &[
            ("P1", vec![("P1", OptionIndex::FOR)]),
            ("P2", vec![("P2", OptionIndex::FOR)]),
            ("P3", vec![("P3", OptionIndex::AGAINST)]),
        ],
    );
    // item-2: a merger; P2 dissents and P5 is absent, so both may withdraw
    // (R18); P3 abstains and may not.
    poll(
        &mut meeting,
        &mut ledger,
        "item-2",
        &[
            ("P1", vec![("P1", OptionIndex::FOR)]),
            ("P2", vec![("P2", OptionIndex::AGAINST)]),
            ("P4", vec![("P4", OptionIndex::FOR)]),
            ("AG-1", vec![("P6", OptionIndex::FOR), ("P7", OptionIndex::FOR), ("P8", OptionIndex::FOR)]),
        ],
    );
    // item-3: three seats, every vote blank: elected, every seat vacant.
    let blank = OptionIndex::list(2);
    poll(&mut meeting, &mut ledger, "item-3", &[("P1", vec![("P1", blank)]), ("P2", vec![("P2", blank)])]);
    // item-4: two seats among three lists of equal votes: two lots.
    let seed = poll(
        &mut meeting,
        &mut ledger,
        "item-4",
        &[(
            "AG-1",
            vec![("P6", OptionIndex::list(0)), ("P7", OptionIndex::list(1)), ("P8", OptionIndex::list(2))],
        )],
    );
    for round in 0..2u32 {
        let at = meeting.item_index("item-4").expect("opened");
        let Some(asamblea_rules::ItemResult::Election(e)) = meeting.item(at).result() else {
            panic!("an election")
        };
        let tied = e.lot_between.clone();
        let position = lot_index(&seed, &id("item-4"), round, u32::try_from(tied.len()).expect("few"))
            .expect("candidates");
        let winner = ["X", "Y", "Z"][tied[position as usize]];
        meeting.draw("item-4", winner).expect("a lot is pending");
        ledger.push(EventBody::LotDrawn { item: id("item-4"), round, seed, winner: id(winner) }, &chair);
        ledger.push(
            EventBody::ResultPublished { item: id("item-4"), result: result(&meeting, "item-4") },
            &daemon,
        );
    }
    meeting.leave("P3").expect("present");
    ledger.push(EventBody::CheckedOut { person: id("P3") }, &operator);
    ledger.push(EventBody::BadgeRevoked { credential: CredentialId(3) }, &operator);
    ledger
}

/// The second meeting's records as the document lists them: kind, signer
/// key, event, signature, head (hex).
fn records_2() -> Vec<[String; 5]> {
    let ledger = run_2();
    ledger
        .records
        .iter()
        .zip(&ledger.heads)
        .map(|(record, head)| {
            [
                record.event.kind().name().to_string(),
                record.signer.to_string(),
                hex(&record.event.encode().expect("encodes")),
                hex(&record.signature.0),
                head.to_string(),
            ]
        })
        .collect()
}

#[test]
fn the_second_meeting_carries_every_figure_and_reason_and_the_document_has_it() {
    let ledger = run_2();
    let results: Vec<&PublishedResult> = ledger
        .records
        .iter()
        .filter_map(|r| match &r.event.body {
            EventBody::ResultPublished { result, .. } => Some(result),
            _ => None,
        })
        .collect();
    let decision = |n: usize| match results[n] {
        PublishedResult::Decision(d) => d.clone(),
        other => panic!("a decision: {other:?}"),
    };
    let election = |n: usize| match results[n] {
        PublishedResult::Election(e) => e.clone(),
        other => panic!("an election: {other:?}"),
    };
    assert!(decision(0).for_by_class.is_some(), "item-1 carries for_by_class");
    let withdrawal = decision(1).withdrawal.expect("item-2 carries the withdrawal");
    assert_eq!((withdrawal.holders, withdrawal.digest), (2, withdrawal_digest(["P2", "P5"])));
    assert_eq!(election(2).vacant, 3, "item-3: every seat vacant");
    assert_eq!(election(3).seats_to_draw, 2, "item-4: two seats to draw");
    assert_eq!(election(5).outcome, asamblea_rules::Outcome::Elected, "item-4 after the second lot");
    let rounds: Vec<u32> = ledger
        .records
        .iter()
        .filter_map(|r| match &r.event.body {
            EventBody::LotDrawn { round, .. } => Some(*round),
            _ => None,
        })
        .collect();
    assert_eq!(rounds, [0, 1]);
    let mut reasons: Vec<&str> = ledger
        .records
        .iter()
        .chain(&run().ledger.records)
        .filter_map(|r| match &r.event.body {
            EventBody::ProxyRefused { reason, .. } => Some(reason.code()),
            _ => None,
        })
        .collect();
    reasons.sort_unstable();
    assert_eq!(
        reasons,
        ["already-present", "power-document-rejected", "proxy-agent-barred", "unknown-holder"],
        "the two meetings refuse a proxy for every reason"
    );

    let records = records_2();
    let register = hex(&register_2_preimage());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/vectors/every-figure.md");
    if std::env::var_os("ASAMBLEA_PRINT_VECTORS").is_some() {
        println!("Register digest input:\n\n```text\n{}\n```\n", wrapped(&register));
        for (i, [kind, signer, event, signature, head]) in records.iter().enumerate() {
            let seq = i + 1;
            println!("#### Record {seq}: `{kind}`, signer `{signer}`\n");
            println!("Event ({} bytes):\n\n```text\n{}\n```\n", event.len() / 2, wrapped(event));
            println!("Signature:\n\n```text\n{}\n```\n", wrapped(signature));
            println!("`head_{seq}`:\n\n```text\n{}\n```\n", wrapped(head));
        }
    }
    let doc: String =
        std::fs::read_to_string(path).expect("docs/vectors/every-figure.md").split_whitespace().collect();
    assert!(doc.contains(&register), "docs/vectors/every-figure.md lacks the register");
    for (i, [kind, signer, event, signature, head]) in records.iter().enumerate() {
        let heading = format!("####Record{}:`{kind}`,signer`{signer}`", i + 1);
        let expected = format!(
            "{heading}Event({}bytes):```text{event}```Signature:```text{signature}```",
            event.len() / 2
        );
        assert!(doc.contains(&expected), "docs/vectors/every-figure.md lacks record {} as generated", i + 1);
        assert!(doc.contains(head.as_str()), "docs/vectors/every-figure.md lacks head {}", i + 1);
    }
}

/// The second register's digest input (§7.1), from the code.
fn register_2_preimage() -> Vec<u8> {
    let register = register_2();
    let mut out = b"asamblea/register/v1\0".to_vec();
    for class in [register.capital().ordinary, register.capital().preferred] {
        out.extend_from_slice(&class.subscribed().get().to_be_bytes());
        out.extend_from_slice(&class.treasury().get().to_be_bytes());
    }
    out.extend_from_slice(&8u32.to_be_bytes());
    for (_, holder) in register.iter() {
        out.extend_from_slice(&string(holder.id()));
        out.extend_from_slice(&holder.holdings().ordinary.get().to_be_bytes());
        out.extend_from_slice(&holder.holdings().preferred.get().to_be_bytes());
        out.push(if holder.role().is_some() { 1 } else { 0 });
        out.push(0);
    }
    assert_eq!(Digest::sha256(&out), register_digest(&register), "the layout of §7.1");
    out
}

// ----- hand-made layouts ----------------------------------------------------

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(hex: &str) -> Vec<u8> {
    assert_eq!(hex.len() % 2, 0, "{hex}");
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex digits")).collect()
}

fn sha256(bytes: &[u8]) -> [u8; 32] {
    Digest::sha256(bytes).0
}

fn string(s: &str) -> Vec<u8> {
    [&u32::try_from(s.len()).expect("short").to_be_bytes()[..], s.as_bytes()].concat()
}

/// The register's digest input, from the layout in the document.
fn register_preimage() -> Vec<u8> {
    let mut out = b"asamblea/register/v1\0".to_vec();
    for figure in [2_000_000u64, 0, 200_000, 0] {
        out.extend_from_slice(&figure.to_be_bytes());
    }
    out.extend_from_slice(&4u32.to_be_bytes());
    for (id, ordinary, role, split) in
        [("H1", 600_000u64, 0u8, 0u8), ("H2", 300_000, 0, 2), ("H3", 300_000, 0, 0), ("H4", 50_000, 2, 0)]
    {
        out.extend_from_slice(&string(id));
        out.extend_from_slice(&ordinary.to_be_bytes());
        out.extend_from_slice(&0u64.to_be_bytes());
        out.extend_from_slice(&[role, split]);
    }
    out
}

fn withdrawal_preimage() -> Vec<u8> {
    [b"asamblea/withdrawal/v1\0".as_slice(), &2u32.to_be_bytes(), &string("H1"), &string("H4")].concat()
}

/// The person of the admission code's vector (§7.4).
const ADMISSION_PERSON: &str = "CC-1032456789";

fn admission_preimage() -> Vec<u8> {
    [b"asamblea/admission/v1\0".as_slice(), &meeting_id().0, &string(ADMISSION_PERSON)].concat()
}

fn lot_preimage(seed: &Digest) -> Vec<u8> {
    [b"asamblea/lot/v1\0".as_slice(), &seed.0, &string("item-2"), &0u32.to_be_bytes()].concat()
}

/// A record's bytes, from the layout in the document.
fn record_bytes(seq: u64, signer: &[u8], signature: &[u8], event: &[u8]) -> Vec<u8> {
    [
        &seq.to_be_bytes()[..],
        &(T0 + seq * 1_000).to_be_bytes(),
        signer,
        signature,
        &u32::try_from(event.len()).expect("short").to_be_bytes(),
        event,
    ]
    .concat()
}

fn signer_key(kind: MessageKind) -> PublicKey {
    let seed = match kind.signer() {
        SignerRole::Daemon => DAEMON_SEED,
        SignerRole::Staff(StaffRole::Chair) => CHAIR_SEED,
        SignerRole::Staff(_) => STAFF_SEED,
        SignerRole::Attendee => ATTENDEE_SEED,
    };
    Keypair::from_seed(&seed).public_key()
}

// ----- the vectors ----------------------------------------------------------

/// Everything the document lists, as hex, in the order it lists them.
#[derive(Debug, PartialEq)]
struct Vectors {
    public_keys: [String; 4],
    genesis: String,
    /// Per record: kind, event bytes, signature, head.
    records: Vec<(String, String, String, String)>,
    record_10: String,
    ballot_signing_input: String,
    register_preimage: String,
    register_digest: String,
    withdrawal_preimage: String,
    withdrawal_digest: String,
    lot_preimage: String,
    lot_position: u32,
    admission_preimage: String,
    admission_code: String,
    receipt: String,
    receipt_signature: String,
    checkpoint: String,
    checkpoint_signature: String,
    qr_text: String,
}

fn compute() -> Vectors {
    let run = run();
    let meeting_id = meeting_id();
    let daemon = Keypair::from_seed(&DAEMON_SEED);
    let records = &run.ledger.records;
    let event_bytes = |seq: usize| records[seq - 1].event.encode().expect("encodes");
    let receipt = Receipt { seq: 10, head: run.ledger.heads[9], event: Digest::sha256(&event_bytes(10)) };
    let checkpoint = Checkpoint { seq: 20, head: run.ledger.heads[19] };
    let credential = Credential::generate_from(&meeting_id, CredentialId(1), &ATTENDEE_SEED);
    Vectors {
        public_keys: [DAEMON_SEED, STAFF_SEED, ATTENDEE_SEED, CHAIR_SEED]
            .map(|seed| Keypair::from_seed(&seed).public_key().to_string()),
        genesis: genesis_head(&meeting_id).to_string(),
        records: records
            .iter()
            .zip(&run.ledger.heads)
            .map(|(record, head)| {
                let event = record.event.encode().expect("encodes");
                (
                    record.event.kind().name().to_string(),
                    hex(&event),
                    hex(&record.signature.0),
                    head.to_string(),
                )
            })
            .collect(),
        record_10: hex(&records[9].encode().expect("encodes")),
        ballot_signing_input: hex(&signing_input(&meeting_id, &event_bytes(10)).expect("a known kind")),
        register_preimage: hex(&register_preimage()),
        register_digest: register_digest(&register()).to_string(),
        withdrawal_preimage: hex(&withdrawal_preimage()),
        withdrawal_digest: withdrawal_digest(["H4", "H1", "H4"]).to_string(),
        lot_preimage: hex(&lot_preimage(&run.lot_seed)),
        lot_position: run.lot_position,
        admission_preimage: hex(&admission_preimage()),
        admission_code: admission_code(&meeting_id, ADMISSION_PERSON).to_string(),
        receipt: hex(&receipt.encode()),
        receipt_signature: hex(&receipt.sign(&meeting_id, &daemon).0),
        checkpoint: hex(&checkpoint.encode()),
        checkpoint_signature: hex(&checkpoint.sign(&meeting_id, &daemon).0),
        qr_text: credential.to_qr_text(),
    }
}

fn expected() -> Vectors {
    let s = |x: &str| x.to_string();
    Vectors {
        public_keys: PUBLIC_KEYS.map(|k| k.to_string()),
        genesis: s(GENESIS),
        records: RECORDS.iter().map(|(k, e, sig, h)| (s(k), s(e), s(sig), s(h))).collect(),
        record_10: s(RECORD_10),
        ballot_signing_input: s(BALLOT_SIGNING_INPUT),
        register_preimage: s(REGISTER_PREIMAGE),
        register_digest: s(REGISTER_DIGEST),
        withdrawal_preimage: s(WITHDRAWAL_PREIMAGE),
        withdrawal_digest: s(WITHDRAWAL_DIGEST),
        lot_preimage: s(LOT_PREIMAGE),
        lot_position: LOT_POSITION,
        admission_preimage: s(ADMISSION_PREIMAGE),
        admission_code: s(ADMISSION_CODE),
        receipt: s(RECEIPT),
        receipt_signature: s(RECEIPT_SIGNATURE),
        checkpoint: s(CHECKPOINT),
        checkpoint_signature: s(CHECKPOINT_SIGNATURE),
        qr_text: s(QR_TEXT),
    }
}

/// Wraps hex at 64 digits (32 bytes) a line.
fn wrapped(hex: &str) -> String {
    hex.as_bytes().chunks(64).map(|c| String::from_utf8_lossy(c).into_owned()).collect::<Vec<_>>().join("\n")
}

fn print_markdown(v: &Vectors) {
    let block = |title: &str, hex: &str| println!("{title}\n\n```text\n{}\n```\n", wrapped(hex));
    println!("### 10.1 Keys\n");
    for (role, key) in
        ["daemon (seed 11…11)", "operator (seed 22…22)", "attendee (seed 33…33)", "chair (seed 44…44)"]
            .iter()
            .zip(&v.public_keys)
    {
        println!("- {role}: `{key}`");
    }
    println!("\n### 10.2 The ledger\n");
    block("`head_0`:", &v.genesis);
    for (i, (kind, event, signature, head)) in v.records.iter().enumerate() {
        let seq = i + 1;
        let signer = match MessageKind::ALL.iter().find(|k| k.name() == kind).map(|k| k.signer()) {
            Some(SignerRole::Daemon) => "daemon",
            Some(SignerRole::Staff(StaffRole::Chair)) => "chair",
            Some(SignerRole::Staff(_)) => "operator",
            Some(SignerRole::Attendee) => "attendee",
            None => "?",
        };
        println!("#### Record {seq}: `{kind}`, signed by the {signer} key\n");
        block(&format!("Event ({} bytes):", event.len() / 2), event);
        block("Signature:", signature);
        block(&format!("`head_{seq}`:"), head);
    }
    println!("### 10.3 A whole record and a signing input\n");
    block("Record 10:", &v.record_10);
    block("Signing input of event 10:", &v.ballot_signing_input);
    println!("### 10.4 Derived values\n");
    block("Register digest input:", &v.register_preimage);
    block("Register digest (carried by record 4):", &v.register_digest);
    block("Withdrawal digest input:", &v.withdrawal_preimage);
    block("Withdrawal digest:", &v.withdrawal_digest);
    block("Lot input (record 17):", &v.lot_preimage);
    println!("Lot position: {}\n", v.lot_position);
    block("Admission code input (person `CC-1032456789`):", &v.admission_preimage);
    println!("Admission code: `{}`\n", v.admission_code);
    println!("### 10.5 Receipt and checkpoint\n");
    block("Receipt of record 10:", &v.receipt);
    block("Its signature:", &v.receipt_signature);
    block("Checkpoint at record 20:", &v.checkpoint);
    block("Its signature:", &v.checkpoint_signature);
    println!("### 10.6 Credential\n");
    println!("Credential 1 with the attendee seed (its key is the attendee key above):\n");
    println!("QR text: `{}`", v.qr_text);
}

fn print_rust(v: &Vectors) {
    println!("const PUBLIC_KEYS: [&str; 4] = {:?};", v.public_keys);
    println!("const GENESIS: &str = {:?};", v.genesis);
    println!("const RECORDS: &[(&str, &str, &str, &str)] = &[");
    for record in &v.records {
        println!("    {record:?},");
    }
    println!("];");
    for (name, value) in [
        ("RECORD_10", &v.record_10),
        ("BALLOT_SIGNING_INPUT", &v.ballot_signing_input),
        ("REGISTER_PREIMAGE", &v.register_preimage),
        ("REGISTER_DIGEST", &v.register_digest),
        ("WITHDRAWAL_PREIMAGE", &v.withdrawal_preimage),
        ("WITHDRAWAL_DIGEST", &v.withdrawal_digest),
        ("LOT_PREIMAGE", &v.lot_preimage),
        ("RECEIPT", &v.receipt),
        ("RECEIPT_SIGNATURE", &v.receipt_signature),
        ("CHECKPOINT", &v.checkpoint),
        ("CHECKPOINT_SIGNATURE", &v.checkpoint_signature),
        ("QR_TEXT", &v.qr_text),
        ("ADMISSION_PREIMAGE", &v.admission_preimage),
        ("ADMISSION_CODE", &v.admission_code),
    ] {
        println!("const {name}: &str = {value:?};");
    }
    println!("const LOT_POSITION: u32 = {};", v.lot_position);
}

// ----- the checks -----------------------------------------------------------

#[test]
fn the_code_produces_the_vectors() {
    let computed = compute();
    if std::env::var_os("ASAMBLEA_PRINT_VECTORS").is_some() {
        print_markdown(&computed);
        print_rust(&computed);
    }
    assert_eq!(computed, expected());
}

#[test]
fn the_vectors_follow_the_documented_layouts() {
    let meeting_id = meeting_id();
    // head_0 = SHA-256("asamblea/ledger/v1" || 0x00 || meeting id): the
    // chain's own domain, unchanged since version 1.
    let genesis = sha256(&[b"asamblea/ledger/v1\0".as_slice(), &meeting_id.0].concat());
    assert_eq!(hex(&genesis), GENESIS);
    let mut head = genesis;
    for (i, (kind, event, signature, expected_head)) in RECORDS.iter().enumerate() {
        let seq = i as u64 + 1;
        let event = unhex(event);
        let signature = unhex(signature);
        // The event decodes, canonically, to the kind listed.
        let decoded = Event::decode(&event).expect("a vector decodes");
        assert_eq!(decoded.kind().name(), *kind);
        assert_eq!(decoded.encode().expect("encodes"), event);
        assert_eq!(event[0], decoded.kind().tag());
        // The signature is the kind's signer's, over domain || 0 || meeting || event.
        let key = signer_key(decoded.kind());
        let input = [format!("asamblea/{kind}/v2\0").as_bytes(), &meeting_id.0, &event].concat();
        assert!(ed25519_verify(&key, &input, &signature), "record {seq}: signature");
        // head_n = SHA-256(head_{n-1} || record bytes).
        let record = record_bytes(seq, &key.to_bytes(), &signature, &event);
        head = sha256(&[&head[..], &record].concat());
        assert_eq!(hex(&head), *expected_head, "record {seq}: head");
        assert_eq!(EventRecord::decode(&record).map(|r| r.encode()), Ok(Ok(record.clone())));
        if seq == 10 {
            assert_eq!(hex(&record), RECORD_10);
            assert_eq!(hex(&input), BALLOT_SIGNING_INPUT);
        }
    }
    // The register digest is carried by event 4.
    assert_eq!(hex(&sha256(&unhex(REGISTER_PREIMAGE))), REGISTER_DIGEST);
    assert!(RECORDS[3].1.contains(REGISTER_DIGEST));
    assert_eq!(hex(&sha256(&unhex(WITHDRAWAL_PREIMAGE))), WITHDRAWAL_DIGEST);
    // The lot: its seed is head_15, the head after item-2's item-closed.
    let lot_input = unhex(LOT_PREIMAGE);
    assert_eq!(hex(&lot_input[16..48]), RECORDS[14].3);
    let h = sha256(&lot_input);
    let first = u64::from_be_bytes(h[..8].try_into().expect("8 bytes"));
    assert_eq!(u32::try_from(first % 2).expect("0 or 1"), LOT_POSITION);
    // The admission code: the first 50 bits of SHA-256 of its input, five
    // at a time in Crockford's base32, a dash after the fifth.
    let admission_input = unhex(ADMISSION_PREIMAGE);
    assert_eq!(admission_input[22..54], meeting_id.0);
    let h = sha256(&admission_input);
    let bits = u64::from_be_bytes(h[..8].try_into().expect("8 bytes")) >> 14;
    let symbols: String = (0..10)
        .map(|i| char::from(b"0123456789ABCDEFGHJKMNPQRSTVWXYZ"[((bits >> (45 - 5 * i)) & 31) as usize]))
        .collect();
    assert_eq!(format!("{}-{}", &symbols[..5], &symbols[5..]), ADMISSION_CODE);
    // Receipt of record 10 and checkpoint at 20.
    let receipt = unhex(RECEIPT);
    let event_10 = sha256(&unhex(RECORDS[9].1));
    assert_eq!(receipt, [&[0x40, 2][..], &10u64.to_be_bytes(), &unhex(RECORDS[9].3), &event_10].concat());
    let daemon = Keypair::from_seed(&DAEMON_SEED).public_key();
    let receipt_input = [b"asamblea/receipt/v2\0".as_slice(), &meeting_id.0, &receipt].concat();
    assert!(ed25519_verify(&daemon, &receipt_input, &unhex(RECEIPT_SIGNATURE)));
    let checkpoint = unhex(CHECKPOINT);
    assert_eq!(checkpoint, [&[0x41, 2][..], &20u64.to_be_bytes(), &unhex(RECORDS[19].3)].concat());
    let checkpoint_input = [b"asamblea/checkpoint/v2\0".as_slice(), &meeting_id.0, &checkpoint].concat();
    assert!(ed25519_verify(&daemon, &checkpoint_input, &unhex(CHECKPOINT_SIGNATURE)));
}

/// Verifies a signature over an input the test assembled itself: the
/// input must be exactly what this crate signs for that message, and the
/// signature must verify.
fn ed25519_verify(key: &PublicKey, input: &[u8], signature: &[u8]) -> bool {
    let Ok(signature) = Signature::from_slice(signature) else { return false };
    let Some(zero) = input.iter().position(|&b| b == 0) else { return false };
    if input.len() < zero + 33 {
        return false;
    }
    let meeting = MeetingId(input[zero + 1..zero + 33].try_into().expect("32 bytes"));
    let message = &input[zero + 33..];
    let same_input = signing_input(&meeting, message).is_ok_and(|expected| expected == input);
    same_input && key.verify(&meeting, message, &signature).is_ok()
}

#[test]
fn the_credential_vector_parses_back() {
    let meeting_id = meeting_id();
    let credential = Credential::parse_qr_text(QR_TEXT, &meeting_id).expect("the vector parses");
    assert_eq!(credential.id(), CredentialId(1));
    assert_eq!(credential.public_key().to_string(), PUBLIC_KEYS[2]);
    // The payload: meeting prefix, id, seed, then SHA-256 of those, cut to 6 bytes.
    let payload = base32_decode(&QR_TEXT[3..]);
    assert_eq!(&payload[..8], &meeting_id.0[..8]);
    assert_eq!(&payload[8..12], &1u32.to_be_bytes());
    assert_eq!(&payload[12..44], &ATTENDEE_SEED);
    assert_eq!(&payload[44..], &sha256(&payload[..44])[..6]);
}

/// RFC 4648 base32 without padding, as the document describes it.
fn base32_decode(text: &str) -> Vec<u8> {
    let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut bits = 0u64;
    let mut count = 0;
    let mut out = Vec::new();
    for c in text.chars() {
        bits = (bits << 5) | alphabet.find(c).expect("base32") as u64;
        count += 5;
        if count >= 8 {
            count -= 8;
            out.push(u8::try_from((bits >> count) & 0xff).expect("a byte"));
        }
    }
    assert_eq!(count, 0, "80 characters are exactly 50 bytes");
    out
}

#[test]
fn the_document_carries_the_same_vectors() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/ledger-format.md");
    let doc: String =
        std::fs::read_to_string(path).expect("docs/ledger-format.md").split_whitespace().collect();
    let v = expected();
    let mut all: Vec<&str> = v.public_keys.iter().map(String::as_str).collect();
    all.push(&v.genesis);
    for (_, event, signature, head) in &v.records {
        all.extend([event.as_str(), signature, head]);
    }
    all.extend([
        v.record_10.as_str(),
        &v.ballot_signing_input,
        &v.register_preimage,
        &v.register_digest,
        &v.withdrawal_preimage,
        &v.withdrawal_digest,
        &v.lot_preimage,
        &v.receipt,
        &v.receipt_signature,
        &v.checkpoint,
        &v.checkpoint_signature,
        &v.qr_text,
        &v.admission_preimage,
        &v.admission_code,
    ]);
    for hex in all {
        assert!(doc.contains(hex), "docs/ledger-format.md lacks {hex}");
    }
    assert!(doc.contains(&format!("Lotposition:{}", v.lot_position)));
}

// ----- expected values (generated, see the top of this file) ----------------

const PUBLIC_KEYS: [&str; 4] = [
    "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737",
    "a09aa5f47a6759802ff955f8dc2d2a14a5c99d23be97f864127ff9383455a4f0",
    "17cb79fb2b4120f2b1ec65e4198d6e08b28e813feb01e4a400839b85e18080ce",
    "d759793bbc13a2819a827c76adb6fba8a49aee007f49f2d0992d99b825ad2c48",
];
const GENESIS: &str = "29a6b6c829d9111aa1021572ace9e24ee5fcdda5bde14bea14681b198723e87d";
const RECORDS: &[(&str, &str, &str, &str)] = &[
    ("meeting-convened", "010201010101010101010101010101010101d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c977873700000007766563746f72731b9ad57a95638181319414537857d5c6ff50db9623cea5f92b08326b11638390010101010100000100000002000000066974656d2d310000001e4170726f62616369c3b36e2064656c206f7264656e2064656c2064c3ad6101010000000000000000000000066974656d2d320000001f456c65636369c3b36e206465206c61204a756e74612044697265637469766114010000000100000002000000074c697374612041000000074c697374612042", "067ac9e72fff1f3e6798052e4883c1985c25b22a68cd28ef0d0f081715abebe5a816c350ba7bf1da21452a0910654c4c549067087b3ab18a75aec99304c3780b", "6a3ac81f85a7e1e72b0f538012754ee761c01a563f94375c29b0bf59396e768e"),
    ("staff-enrolled", "020202020202020202020202020202020202a09aa5f47a6759802ff955f8dc2d2a14a5c99d23be97f864127ff9383455a4f0010000000a6f70657261646f722d31", "dc897d3f879d2de8d0a84d7dc24454d9daa11f09ec995ca9cd6c04ae4e7a22cc000bee064c55ca2e938f397c5b011cb026c7f6fc628a20fa770fc2b2db50700d", "283e378a9cc7b789b37017abfc36b57fe86d57bcb77a75b539cd14763e18fb37"),
    ("staff-enrolled", "020203030303030303030303030303030303d759793bbc13a2819a827c76adb6fba8a49aee007f49f2d0992d99b825ad2c48020000000a707265736964656e7465", "37573c9e5fa64f7affb8ebbe394b24fcc1878e80c34db179c0cb496627763489e6a707b114e5ce04b29bd098096fc81940f38b60480b21824cf2f995375c3403", "8b19b649e163251e5ffeaa83961c17c27e9654090ba06f63be19cd560b35b9d5"),
    ("register-imported", "03020404040404040404040404040404040420d722f262199d5ff47a81255838b97182eb2e7d100127f8b6672958784efa060000000400000000001e848000000000000000000000000000030d400000000000000000", "4bada0380788f4c09ecc5ec089bb03431163521f8856d4cf9352c700e3d7aa2ca9c509ece982455294b072775724ac64084ab873d432fa4ab6a91249c648d60a", "4999dc0b43cac6c8069fa58fd5cfcc8c48322afcafa9773a7a4536cfe74026b4"),
    ("checked-in-person", "040205050505050505050505050505050505000000024831", "7ebe1665218dfdeaa1edcb89b4d78c2793afde5394b0382b31be83ff9d74acaa46d9d73f126eae8ed4dce3136b4b7661957150378082cd196384be89db35180b", "aba3f31e387485ca129b3d4c151ae30980294f54b1d26d814b82f8799ddf50af"),
    ("checked-in-agent", "0502060606060606060606060606060606060000000441472d370000000200000002483200000002483301000000000f506f64657220323032362d30303432", "f6460a60befea8676935d347eddbdb7800021e7d893c876245e9436e6742477ba3322e270a27e19e5a724aa815597de2531344946d69311fa9b8811919915d0d", "7c568546a5f8186567188d44f5614e4804f2438ea945c53edeedc213b81c2228"),
    ("proxy-refused", "06020707070707070707070707070707070700000003452d390000000100000002483401020000000002", "a08f22d03cada8d174a5b2d0cf333fb4ce3aaa535ee35d79210f4895da7758a3b8d3ea9dc0d389b9c2b05884bca01c6aa8314e6c0336ec7e85c2b342786ca206", "3c7daa9ed66c403fbca6a094371e505011c64a361b6ed0f6d9d4b6e26efe601b"),
    ("badge-issued", "0802080808080808080808080808080808080000000117cb79fb2b4120f2b1ec65e4198d6e08b28e813feb01e4a400839b85e18080ce0000000441472d37", "68c17db65080264e6ebb9b28dfed99e6c6877dd9b19002141955eec231a5158d1ad8351e43ea1a6c78bd6b02b3d6676caf22ae7898e9d5604ba58a290b06e30d", "64b4f44e73f8d1ed30dab0eadd9e8055b282a424e90db1b7631022af0ee57968"),
    ("item-opened", "0a0209090909090909090909090909090909000000066974656d2d31", "749cd3ee763e5e85d9b7cc58ed6e8ecda823a7253b06a78af0334274a46fd55114f0a1338beecedf1b0e084806dd75c25c3b9d69fbacdcf32e0cd3714e22c304", "bec1b4111167cd4a93e4cbc01e48182c2c5ec71226f50cfcb3672efc26db86cc"),
    ("ballot", "0b020a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a000000066974656d2d310000000100000002000000024832020000000200000000000000030d40000100000000000186a0000000024833010000", "94a646a1828d99e7e22dcf2dd6e8da3ef08c21b4e255b00ddc241f94a8a58eda3a4e566fef1ff0a5175255f6887dedb89a7bdd110a141e60adf408d4cfa71703", "805eb078e60b9443d9b0a01d87a2090b411c376dc307729173a90c2026d2fe88"),
    ("item-closed", "0c020b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b000000066974656d2d31", "8c099ebdd2bfa1a168c73132d28734f1667fcace835aa7625e2f107fdffa6d703bec9c81133aac86436bd5c232b0b4ca3e468b81ff6de974bb4fd236594c5d0f", "51030bb6b2a299a94967880795300d7ddb28d0216e043c4ba2f54118ba0bfeab"),
    ("result-published", "0e020c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c000000066974656d2d310102010000000000124f8000000000000000000000000000124f80000000000007a12000000000000186a0000000000000000000000000000927c0000000020000", "e6db9a44c67a97185ae29acff427af1cf93fb70996c756f156c3ed02d33e7c21f2a18a366a5b7bb65ecda7707dcf8082894dd6a5c5ef7f5f474285291d84cc00", "c31bc2a628a371e8c61c322988c828d912e12b7e8868afc6ed41ca0fdd581676"),
    ("item-opened", "0a020d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d000000066974656d2d32", "ece56c898005400299188117fb4406bd85fc65f3ece2d4640ad7d6d87cdfeabc66edbc570bf94cf9c88bd943eeabdd34318b2075f98f67cb741c1e3d6a3b1a05", "ebbbf763c8bc40f96d5c13e90f3bd8ade58d1df064ebcaa465c882f99d5e1ce9"),
    ("ballot", "0b020e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e000000066974656d2d320000000100000002000000024832010000000000024833010001", "e2c97d8894d6f813c6c7e986767094afbc9f8a7b2d6201d7c25ec6e267240c91db6a503f96ad7c00b8dcf58e4ab4fbb491511082b2fa8e7413b2dbb4c7eabb0f", "d118e846dc7f18497f87ed12a0260268ee24479a28d56431a7951f082f3c0e89"),
    ("item-closed", "0c020f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f000000066974656d2d32", "3c7120fa33199a675e854792f64293b36cc685f9ccf88010bedc324edf0a17a19adc7056aefdaf5b4dd83a4d9b01d5811e3021c70f442a5083bfd26693528405", "78fbf38c739c54f9135d8f2a21413b2595909642a241bb2ac620b77d76badee2"),
    ("result-published", "0e0210101010101010101010101010101010000000066974656d2d3202060100000000000927c000000000000000000000000200000000000493e000000000000493e00100000002000000000000000000000002000000000000000100000001000000000000000000000000", "cfed836ba1f2e54ad90522ea9e7b61102af644c9849c9d5f8b305a5c4ca69fe6031dc11c3686e79e47e8f9fcc9d034c9acdaebd13f224e7008ffb66c06d34504", "936c74ee4309d2b2dbcfc63ca2743745a61f522334c99399daaf094001bd641d"),
    ("lot-drawn", "0d0211111111111111111111111111111111000000066974656d2d320000000078fbf38c739c54f9135d8f2a21413b2595909642a241bb2ac620b77d76badee2000000074c697374612041", "e54f6ff856c45b2790798cb3a63da283990b0fd6e0e3018410d0bdef84f8b9cfc3ff3ac4d69d73b914f319bb15a7cc22eae5d08aa1eb464aea2174191488d50c", "69f01a6a21efa588b4c843ad7737f0f938586140b1602604fc385f954a90967c"),
    ("result-published", "0e0212121212121212121212121212121212000000066974656d2d3202050100000000000927c000000000000000000000000200000000000493e000000000000493e0010000000200000001000000000000000000000000000000000000000000000000", "8665cf08dbd9970ea9330c569c53af03a2cb0d4846e135bdf6255503fad43fc0a524ae3d6b4547d9d2b88b2fb14a416a821fb6298dfcfb908da43613f165590d", "df2c89a13a4430deba9a4e766afa21f28ab2b4ef538c65562c6ae6a676dcd057"),
    ("checked-out", "0702131313131313131313131313131313130000000441472d37", "090ee0338a92e1d8807619a8f79f6db5e0de3e20e3ad93baf375f0a6253fa454ed03e9b1e0b0ef24a4d8813111090578bb83cca4852e423744259f1275699b0c", "d6b8a6a7aa3b0c45d7359b518afa6a863e3f51fd7ff5cd24cd6914401ff8c31a"),
    ("badge-revoked", "09021414141414141414141414141414141400000001", "e890a71663f2c7d5abf9e5b5433c2156bfe91690848a7149e66abedb4fe765ad1f45a288af13fca3ce97248ef8c4b2461f4991bb3ce3b90fef3e5e6342eacd0b", "ab15d2c1b725aaf6a712c27ad6665b873626529a639ba235f0ae710d87af2da5"),
];
const RECORD_10: &str = "000000000000000a0000019d2a720a1017cb79fb2b4120f2b1ec65e4198d6e08b28e813feb01e4a400839b85e18080ce94a646a1828d99e7e22dcf2dd6e8da3ef08c21b4e255b00ddc241f94a8a58eda3a4e566fef1ff0a5175255f6887dedb89a7bdd110a141e60adf408d4cfa717030000004c0b020a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a000000066974656d2d310000000100000002000000024832020000000200000000000000030d40000100000000000186a0000000024833010000";
const BALLOT_SIGNING_INPUT: &str = "6173616d626c65612f62616c6c6f742f763200000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f0b020a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a000000066974656d2d310000000100000002000000024832020000000200000000000000030d40000100000000000186a0000000024833010000";
const REGISTER_PREIMAGE: &str = "6173616d626c65612f72656769737465722f76310000000000001e848000000000000000000000000000030d4000000000000000000000000400000002483100000000000927c00000000000000000000000000002483200000000000493e00000000000000000000200000002483300000000000493e000000000000000000000000000024834000000000000c35000000000000000000200";
const REGISTER_DIGEST: &str = "20d722f262199d5ff47a81255838b97182eb2e7d100127f8b6672958784efa06";
const WITHDRAWAL_PREIMAGE: &str =
    "6173616d626c65612f7769746864726177616c2f76310000000002000000024831000000024834";
const WITHDRAWAL_DIGEST: &str = "aaae2e593b98638ce77c89421ceb4c4f2a758fcb734d12067a473e14c82d2320";
const LOT_PREIMAGE: &str = "6173616d626c65612f6c6f742f76310078fbf38c739c54f9135d8f2a21413b2595909642a241bb2ac620b77d76badee2000000066974656d2d3200000000";
const RECEIPT: &str = "4002000000000000000a805eb078e60b9443d9b0a01d87a2090b411c376dc307729173a90c2026d2fe888b50a39ec50d853bb117379aa5e026c7d8a68be4289925da07a72a409ac39a08";
const RECEIPT_SIGNATURE: &str = "c23d0ad512991e2283470074e184628f4f6c254e706e13145afcc648e1fe634709e0dd40d0226e2f3aef45c66907394125851a313401f43c3027a94b68f4910f";
const CHECKPOINT: &str =
    "41020000000000000014ab15d2c1b725aaf6a712c27ad6665b873626529a639ba235f0ae710d87af2da5";
const CHECKPOINT_SIGNATURE: &str = "fb2bfad1aa0506d34876efbf2213e73b6daf5bfa5b239722ec1b64b8aba25cdbb8edb339fcaf7d97e460a987b44adcc918c84c599b9c1ac34ea6c95a787cca08";
const QR_TEXT: &str = "AS1AAAQEAYEAUDAOAAAAAATGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGM3E22YHGRMB";
const LOT_POSITION: u32 = 0;
const ADMISSION_PREIMAGE: &str = "6173616d626c65612f61646d697373696f6e2f763100000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f0000000d43432d31303332343536373839";
const ADMISSION_CODE: &str = "8WFVQ-8H1DW";

// ----- §10.9: the whole agenda and the sessions ---------------------------

/// The events of §10.9, each encoded by the crate and, independently, from
/// the layouts of §3.17 and §3.18: (what it is, its bytes).
fn sessions_vectors() -> Vec<(&'static str, Vec<u8>)> {
    use asamblea_wire::{AgendaEntry, Candidate};
    let nonce = |n: u8| Nonce([n; 16]);
    let text = |s: &str| Text::new(s).expect("a text");
    let agenda = Event {
        nonce: nonce(0xA1),
        body: EventBody::AgendaConvened {
            entries: vec![
                AgendaEntry::Informative { item: id("quorum"), title: text("Verificación del quórum") },
                AgendaEntry::Voted { item: id("item-1"), candidates: vec![] },
                AgendaEntry::Voted {
                    item: id("item-2"),
                    candidates: vec![
                        vec![Candidate { principal: text("Ana Pérez"), suplente: text("Luis Gómez") }],
                        vec![Candidate { principal: text("Carla Ruiz"), suplente: text("") }],
                    ],
                },
            ],
        },
    };
    let hand_agenda = [
        &[0x13u8, 0x02][..],
        &[0xA1; 16],
        &3u32.to_be_bytes(),
        &[2],
        &string("quorum"),
        &string("Verificación del quórum"),
        &[1],
        &string("item-1"),
        &0u32.to_be_bytes(),
        &[1],
        &string("item-2"),
        &2u32.to_be_bytes(),
        &1u32.to_be_bytes(),
        &string("Ana Pérez"),
        &string("Luis Gómez"),
        &1u32.to_be_bytes(),
        &string("Carla Ruiz"),
        &string(""),
    ]
    .concat();
    let mut out = vec![("agenda-convened", agenda.encode().expect("encodes"), hand_agenda)];
    for (name, tag, n, note, body) in [
        (
            "meeting-installed",
            0x14u8,
            0xA2u8,
            "verificado el quórum",
            EventBody::MeetingInstalled { note: text("verificado el quórum") },
        ),
        (
            "meeting-suspended",
            0x15,
            0xA3,
            "se reanuda mañana a las 9:00",
            EventBody::MeetingSuspended { note: text("se reanuda mañana a las 9:00") },
        ),
        ("meeting-resumed", 0x16, 0xA4, "", EventBody::MeetingResumed { note: text("") }),
        ("meeting-adjourned", 0x17, 0xA5, "", EventBody::MeetingAdjourned { note: text("") }),
    ] {
        let event = Event { nonce: nonce(n), body };
        let hand = [&[tag, 0x02][..], &[n; 16], &string(note)].concat();
        out.push((name, event.encode().expect("encodes"), hand));
    }
    out.into_iter()
        .map(|(name, encoded, hand)| {
            assert_eq!(hex(&encoded), hex(&hand), "{name}: the crate and the layout of §3.17–3.18 agree");
            assert_eq!(
                Event::decode(&encoded).expect("decodes").encode().expect("encodes"),
                encoded,
                "{name}"
            );
            (name, encoded)
        })
        .collect()
}

#[test]
fn the_whole_agenda_and_the_sessions_have_their_bytes_in_the_document() {
    found_in_the_document("§10.9", sessions_vectors());
}

// ----- §10.10: powers lodged and revoked -----------------------------------

/// The events of §10.10, each encoded by the crate and, independently,
/// from the layouts of §3.19 and §3.20: (what it is, its bytes).
fn powers_vectors() -> Vec<(&'static str, Vec<u8>)> {
    use asamblea_rules::powers::{PowerRefusal, Tie};
    use asamblea_wire::{LodgedPower, Reception, Revocation, Substitute};
    let text = |s: &str| Text::new(s).expect("a text");
    let lodged = Event {
        nonce: Nonce([0xB1; 16]),
        body: EventBody::PowerLodged(LodgedPower {
            power: id("P-0001"),
            principals: vec![id("CC-1"), id("CC-2")],
            agent: Some(id("CC-77")),
            agent_name: text("Ana Apoderada"),
            agent_tie: Tie::None,
            suggested: false,
            substitutes: vec![Substitute {
                id: id("CC-78"),
                name: text("Sara Sustituta"),
                tie: Tie::Employee,
            }],
            meeting_date: text("2027-03-25"),
            received_via: Reception::Email,
            received_on: text("2027-03-10"),
            document: Digest([0xD0; 32]),
            verdict: Some(PowerRefusal::SubstituteBarred),
        }),
    };
    let hand_lodged = [
        &[0x18u8, 0x02][..],
        &[0xB1; 16],
        &string("P-0001"),
        &2u32.to_be_bytes(),
        &string("CC-1"),
        &string("CC-2"),
        &1u32.to_be_bytes(),
        &string("CC-77"),
        &string("Ana Apoderada"),
        &[0],
        &[0],
        &1u32.to_be_bytes(),
        &string("CC-78"),
        &string("Sara Sustituta"),
        &[2],
        &string("2027-03-25"),
        &[2],
        &string("2027-03-10"),
        &[0xD0; 32],
        &[5],
    ]
    .concat();
    let revoked = Event {
        nonce: Nonce([0xB2; 16]),
        body: EventBody::PowerRevoked {
            power: id("P-0001"),
            principal: id("CC-2"),
            reason: Revocation::PrincipalArrived,
        },
    };
    let hand_revoked = [&[0x19u8, 0x02][..], &[0xB2; 16], &string("P-0001"), &string("CC-2"), &[1]].concat();
    encoded_as_by_hand(
        "§3.19–3.20",
        vec![("power-lodged", lodged, hand_lodged), ("power-revoked", revoked, hand_revoked)],
    )
}

#[test]
fn powers_lodged_and_revoked_have_their_bytes_in_the_document() {
    found_in_the_document("§10.10", powers_vectors());
}

// ----- §10.11: poll timing ---------------------------------------------------

/// Each `(name, event, hand)` encoded by the crate, held to the bytes
/// assembled by hand from the layouts of `layouts`, and decoded back.
fn encoded_as_by_hand(
    layouts: &str,
    events: Vec<(&'static str, Event, Vec<u8>)>,
) -> Vec<(&'static str, Vec<u8>)> {
    events
        .into_iter()
        .map(|(name, event, hand)| {
            let encoded = event.encode().expect("encodes");
            assert_eq!(hex(&encoded), hex(&hand), "{name}: the crate and the layout of {layouts} agree");
            assert_eq!(Event::decode(&encoded).expect("decodes"), event, "{name}");
            (name, encoded)
        })
        .collect()
}

// ----- §10.12: the meeting's modality --------------------------------------

/// The events of §10.12, each encoded by the crate and, independently,
/// from the layout of §3.23: (what it is, its bytes).
fn modality_vectors() -> Vec<(&'static str, Vec<u8>)> {
    use asamblea_rules::{Modality, RemotePresence};
    use asamblea_wire::{ConvenedModality, Prose, RemoteConvening};
    let prose = |s: &str| Prose::new(s).expect("a prose text");
    let mixed = Event {
        nonce: Nonce([0xC1; 16]),
        body: EventBody::MeetingModality(ConvenedModality {
            modality: Modality::Mixed,
            presence: RemotePresence { heartbeat_seconds: 60, timeout_seconds: 300 },
            remote: Some(RemoteConvening {
                medium: prose("Plataforma de la sociedad, https://asamblea.example.co"),
                access: prose("Enlace y clave por correo"),
                identity_check: prose("Cédula ante la cámara"),
                floor: prose("Se pide en el chat"),
                identity_delegated: true,
            }),
        }),
    };
    let hand_mixed = [
        &[0x1Cu8, 0x02][..],
        &[0xC1; 16],
        &[2],
        &60u32.to_be_bytes(),
        &300u32.to_be_bytes(),
        &string("Plataforma de la sociedad, https://asamblea.example.co"),
        &string("Enlace y clave por correo"),
        &string("Cédula ante la cámara"),
        &string("Se pide en el chat"),
        &[1],
    ]
    .concat();
    let in_person = Event {
        nonce: Nonce([0xC2; 16]),
        body: EventBody::MeetingModality(ConvenedModality {
            modality: Modality::InPerson,
            presence: RemotePresence { heartbeat_seconds: 30, timeout_seconds: 120 },
            remote: None,
        }),
    };
    let hand_in_person =
        [&[0x1Cu8, 0x02][..], &[0xC2; 16], &[1], &30u32.to_be_bytes(), &120u32.to_be_bytes()].concat();
    // A remote channel on a presencial meeting, or none on a mixed one,
    // has no encoding.
    for (modality, remote) in [(Modality::InPerson, true), (Modality::Remote, false)] {
        let mut wrong = match &mixed.body {
            EventBody::MeetingModality(m) => m.clone(),
            _ => unreachable!(),
        };
        wrong.modality = modality;
        if !remote {
            wrong.remote = None;
        }
        let event = Event { nonce: Nonce([0xC3; 16]), body: EventBody::MeetingModality(wrong) };
        assert!(event.encode().is_err(), "{modality:?} with a remote channel: {remote}");
    }
    // Code 4 is no modality.
    let mut unknown = hand_in_person.clone();
    unknown[18] = 4;
    assert!(Event::decode(&unknown).is_err());
    [
        ("meeting-modality (mixta)", mixed, hand_mixed),
        ("meeting-modality (presencial)", in_person, hand_in_person),
    ]
    .into_iter()
    .map(|(name, event, hand)| {
        let encoded = event.encode().expect("encodes");
        assert_eq!(hex(&encoded), hex(&hand), "{name}: the crate and the layout of §3.23 agree");
        assert_eq!(Event::decode(&encoded).expect("decodes"), event, "{name}");
        (name, encoded)
    })
    .collect()
}

#[test]
fn the_modality_has_its_bytes_in_the_document() {
    found_in_the_document("§10.12", modality_vectors());
}

// ----- §10.13: the remote attendee -------------------------------------------

/// The seed of the remote attendee's browser key in §10.13.
const REMOTE_SEED: [u8; 32] = [0x55; 32];

/// The events of §10.13, each encoded by the crate and, independently,
/// from the layouts of §3.24–3.27 and §3.9; then the remote ballot's
/// signing input and signature by the browser's key (Ed25519 is
/// deterministic, so a browser signing the same input gives the same 64
/// bytes): (what it is, its bytes).
fn remote_vectors() -> Vec<(&'static str, Vec<u8>)> {
    use asamblea_wire::VerificationMethod;
    let browser = Keypair::from_seed(&REMOTE_SEED);
    let key = browser.public_key().to_bytes();
    let person = "CC-1032456789";
    let events = [
        (
            "identity-verified",
            EventBody::IdentityVerified {
                person: id(person),
                key: browser.public_key(),
                method: VerificationMethod::VideoCall,
                evidence: Digest([0xE0; 32]),
            },
            [&string(person)[..], &key, &[2], &[0xE0; 32]].concat(),
        ),
        (
            "remote-credential-issued",
            EventBody::RemoteCredentialIssued {
                credential: CredentialId(7),
                key: browser.public_key(),
                person: id(person),
            },
            [&7u32.to_be_bytes()[..], &key, &string(person)].concat(),
        ),
        (
            "checked-in-remote",
            EventBody::CheckedInRemote {
                credential: CredentialId(7),
                principals: vec![id(person), id("H3")],
            },
            [&7u32.to_be_bytes()[..], &2u32.to_be_bytes(), &string(person), &string("H3")].concat(),
        ),
        (
            "ballot",
            EventBody::Ballot(Ballot {
                item: id("item-2"),
                credential: CredentialId(7),
                votes: vec![
                    HolderVote { holder: id(person), choice: Choice::Whole(OptionIndex::AGAINST) },
                    HolderVote {
                        holder: id("H3"),
                        choice: Choice::Split(vec![
                            SplitPart { option: OptionIndex::FOR, shares: Shares::new(1_000) },
                            SplitPart { option: OptionIndex::BLANK_DECISION, shares: Shares::new(500) },
                        ]),
                    },
                ],
            }),
            [
                &string("item-2")[..],
                &7u32.to_be_bytes(),
                &2u32.to_be_bytes(),
                &string(person),
                &[1],
                &1u16.to_be_bytes(),
                &string("H3"),
                &[2],
                &2u32.to_be_bytes(),
                &0u16.to_be_bytes(),
                &1_000u64.to_be_bytes(),
                &2u16.to_be_bytes(),
                &500u64.to_be_bytes(),
            ]
            .concat(),
        ),
        (
            "checked-out-remote",
            EventBody::CheckedOutRemote { credential: CredentialId(7) },
            7u32.to_be_bytes().to_vec(),
        ),
    ];
    let mut out = Vec::new();
    for (i, (name, body, hand_body)) in events.into_iter().enumerate() {
        let nonce = [0xC1 + u8::try_from(i).expect("five events"); 16];
        let event = Event { nonce: Nonce(nonce), body };
        let tag = event.kind().tag();
        let hand = [&[tag, 0x02][..], &nonce, &hand_body].concat();
        let encoded = event.encode().expect("encodes");
        assert_eq!(hex(&encoded), hex(&hand), "{name}: the crate and the layouts of §3.24–3.27 agree");
        assert_eq!(Event::decode(&encoded).expect("decodes"), event, "{name}");
        if name == "ballot" {
            let input = signing_input(&meeting_id(), &encoded).expect("a known kind");
            let by_hand = [&b"asamblea/ballot/v2"[..], &[0], &meeting_id().0, &encoded].concat();
            assert_eq!(hex(&input), hex(&by_hand), "the ballot's signing input (§4)");
            let signature = browser.sign(&meeting_id(), &encoded).expect("a known kind");
            assert!(ed25519_verify(&browser.public_key(), &input, &signature.0));
            out.push((name, encoded));
            out.push(("signing input of the ballot", input));
            out.push(("signature of the ballot", signature.0.to_vec()));
        } else {
            out.push((name, encoded));
        }
    }
    // The registration the browser sends before any of it, with its proof
    // of possession (§3.28).
    let registration = asamblea_wire::RemoteRegistration {
        key: browser.public_key(),
        person: id(person),
        name: Text::new("María Gómez").expect("a name"),
    };
    let encoded = registration.encode().expect("encodes");
    let hand = [&[0x21, 0x02][..], &key, &string(person), &string("María Gómez")].concat();
    assert_eq!(hex(&encoded), hex(&hand), "remote-registration: the crate and the layout of §3.28 agree");
    let proof = browser.sign(&meeting_id(), &encoded).expect("a known kind");
    registration.verify(&meeting_id(), &proof).expect("its own key proves it");
    let fingerprint = asamblea_wire::key_fingerprint(&browser.public_key());
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/ledger-format.md"))
        .expect("docs/ledger-format.md");
    assert!(
        text.contains(&format!("fingerprint (§3.28) is `{fingerprint}`")),
        "§10.13 gives the fingerprint {fingerprint}"
    );
    out.push(("remote-registration", encoded));
    out.push(("proof of the registration", proof.0.to_vec()));
    // The browser's key as WebCrypto imports it: PKCS#8 (RFC 8410) around
    // the seed, and its public key.
    let pkcs8 = [
        &[0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20][..],
        &REMOTE_SEED,
    ]
    .concat();
    out.push(("the browser's private key, PKCS#8", pkcs8));
    out.push(("the browser's public key", key.to_vec()));
    out
}

#[test]
fn the_remote_attendee_has_its_bytes_in_the_document() {
    found_in_the_document("§10.13", remote_vectors());
}

// ----- §10.14: presence and the floor from afar -----------------------------

/// §10.14: the heartbeat of §10.13's browser key and its signature, the
/// daemon's `presence-lapsed` of credential 7, that attendee's question
/// on `item-2` with its signature, and the chair's answer to it; each
/// encoded by the crate and, independently, from §3.29–3.32.
fn floor_vectors() -> Vec<(&'static str, Vec<u8>)> {
    use asamblea_wire::{SubmissionKind, SubmissionOutcome};
    let browser = Keypair::from_seed(&REMOTE_SEED);
    let key = browser.public_key().to_bytes();
    let mut out = Vec::new();
    let heartbeat = asamblea_wire::RemoteHeartbeat { key: browser.public_key(), counter: 1_764_856_800_000 };
    let encoded = heartbeat.encode();
    let hand = [&[0x22, 0x02][..], &key, &1_764_856_800_000u64.to_be_bytes()].concat();
    assert_eq!(hex(&encoded), hex(&hand), "remote-heartbeat: the crate and the layout of §3.29 agree");
    let signature = browser.sign(&meeting_id(), &encoded).expect("a known kind");
    heartbeat.verify(&meeting_id(), &signature).expect("its own key");
    out.push(("remote-heartbeat", encoded));
    out.push(("signature of the heartbeat", signature.0.to_vec()));
    let question = "¿Cuándo se pagan los dividendos?";
    let events = [
        (
            "presence-lapsed",
            EventBody::PresenceLapsed { credential: CredentialId(7), silent_ms: 300_250 },
            [&7u32.to_be_bytes()[..], &300_250u64.to_be_bytes()].concat(),
        ),
        (
            "remote-submission",
            EventBody::RemoteSubmission {
                credential: CredentialId(7),
                kind: SubmissionKind::Question,
                item: Some(id("item-2")),
                text: asamblea_wire::Prose::new(question).expect("a question"),
            },
            [&7u32.to_be_bytes()[..], &[1], &1u32.to_be_bytes(), &string("item-2"), &string(question)]
                .concat(),
        ),
        (
            "submission-handled",
            EventBody::SubmissionHandled {
                submission: 41,
                outcome: SubmissionOutcome::Answered,
                note: Text::new("Respondida por el presidente").expect("a note"),
            },
            [&41u64.to_be_bytes()[..], &[2], &string("Respondida por el presidente")].concat(),
        ),
    ];
    for (i, (name, body, hand_body)) in events.into_iter().enumerate() {
        let nonce = [0xD1 + u8::try_from(i).expect("three events"); 16];
        let event = Event { nonce: Nonce(nonce), body };
        let hand = [&[event.kind().tag(), 0x02][..], &nonce, &hand_body].concat();
        let encoded = event.encode().expect("encodes");
        assert_eq!(hex(&encoded), hex(&hand), "{name}: the crate and the layouts of §3.30–3.32 agree");
        assert_eq!(Event::decode(&encoded).expect("decodes"), event, "{name}");
        if name == "remote-submission" {
            let signature = browser.sign(&meeting_id(), &encoded).expect("a known kind");
            out.push((name, encoded));
            out.push(("signature of the submission", signature.0.to_vec()));
        } else {
            out.push((name, encoded));
        }
    }
    out
}

#[test]
fn presence_and_the_floor_from_afar_have_their_bytes_in_the_document() {
    found_in_the_document("§10.14", floor_vectors());
}

// ----- §10.15: the nodes of a replicated meeting ----------------------------

/// §10.15: `sede-2`'s key (seed 32 × `0x77`) enrolled (nonce `e1…e1`),
/// and `sede-2` taking the lead (nonce `e2…e2`), with its signature.
fn nodes_vectors() -> Vec<(&'static str, Vec<u8>)> {
    let node = Keypair::from_seed(&[0x77; 32]);
    let key = node.public_key().to_bytes();
    let mut out = Vec::new();
    let events = [
        (
            "node-enrolled",
            EventBody::NodeEnrolled { node: id("sede-2"), key: node.public_key() },
            [&string("sede-2")[..], &key].concat(),
        ),
        ("leader-took-over", EventBody::LeaderTookOver { node: id("sede-2") }, string("sede-2")),
    ];
    for (i, (name, body, hand_body)) in events.into_iter().enumerate() {
        let nonce = [0xE1 + u8::try_from(i).expect("two events"); 16];
        let event = Event { nonce: Nonce(nonce), body };
        let hand = [&[event.kind().tag(), 0x02][..], &nonce, &hand_body].concat();
        let encoded = event.encode().expect("encodes");
        assert_eq!(hex(&encoded), hex(&hand), "{name}: the crate and the layouts of §3.33–3.34 agree");
        assert_eq!(Event::decode(&encoded).expect("decodes"), event, "{name}");
        if name == "leader-took-over" {
            let signature = node.sign(&meeting_id(), &encoded).expect("a known kind");
            out.push((name, encoded));
            out.push(("signature of the takeover by sede-2", signature.0.to_vec()));
        } else {
            out.push((name, encoded));
        }
    }
    out.push(("sede-2's public key", key.to_vec()));
    // A pass for the chair's session (chair seed), given by sede-2 at
    // 2026-03-26T14:00:00Z for five minutes: §6's layout by hand.
    let chair = Keypair::from_seed(&[0x44; 32]).public_key();
    let (issued, expires) = (1_774_533_600_000u64, 1_774_533_900_000u64);
    let pass = SessionPass { staff: chair, issued_ms: issued, expires_ms: expires, nonce: [0xE3; 16] };
    let hand =
        [&[0x42, 0x02][..], &chair.to_bytes(), &issued.to_be_bytes(), &expires.to_be_bytes(), &[0xE3; 16]]
            .concat();
    let encoded = pass.encode();
    assert_eq!(encoded.len(), 66, "§6: a session pass is 66 bytes");
    assert_eq!(hex(&encoded), hex(&hand), "session-pass: the crate and the layout of §6 agree");
    assert_eq!(SessionPass::decode(&encoded).expect("decodes"), pass);
    let signature = pass.sign(&meeting_id(), &node);
    assert_eq!(
        SessionPass::from_text(&pass.to_text(&signature), &meeting_id(), &[chair, node.public_key()]),
        Some((pass, node.public_key())),
        "the pass's text is taken back, signed by sede-2"
    );
    out.push(("session-pass", encoded));
    out.push(("signature of the pass by sede-2", signature.0.to_vec()));
    out
}

#[test]
fn the_nodes_of_a_replicated_meeting_have_their_bytes_in_the_document() {
    found_in_the_document("§10.15", nodes_vectors());
}

/// Each of `vectors` (what it is, its bytes) is in `docs/ledger-format.md`
/// as hex, in its `section`; `ASAMBLEA_PRINT_VECTORS=1` prints them as the
/// document writes them.
fn found_in_the_document(section: &str, vectors: Vec<(&'static str, Vec<u8>)>) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/ledger-format.md");
    let text = std::fs::read_to_string(path).expect("docs/ledger-format.md");
    let doc: String = text.split_whitespace().collect();
    if std::env::var_os("ASAMBLEA_PRINT_VECTORS").is_some() {
        for (name, bytes) in &vectors {
            println!("`{name}`:\n\n```text\n{}\n```\n", wrapped(&hex(bytes)));
        }
    }
    for (name, bytes) in vectors {
        assert!(doc.contains(&hex(&bytes)), "docs/ledger-format.md {section} lacks `{name}` as encoded");
    }
}

/// The events of §10.11: the chair announces the close of `item-1` with a
/// countdown of 30 s; the meeting's timing is 120 s open and 30 s of
/// countdown at least.
#[test]
fn poll_timing_has_its_bytes_in_the_document() {
    let announced = Event {
        nonce: Nonce([0xC1; 16]),
        body: EventBody::CloseAnnounced { item: id("item-1"), countdown_ms: 30_000 },
    };
    let hand_announced =
        [&[0x1Au8, 0x02][..], &[0xC1; 16], &string("item-1"), &30_000u64.to_be_bytes()].concat();
    let timed = Event {
        nonce: Nonce([0xC2; 16]),
        body: EventBody::PollsTimed { min_open_ms: 120_000, min_countdown_ms: 30_000 },
    };
    let hand_timed =
        [&[0x1Bu8, 0x02][..], &[0xC2; 16], &120_000u64.to_be_bytes(), &30_000u64.to_be_bytes()].concat();
    let vectors = encoded_as_by_hand(
        "§3.21–3.22",
        vec![("close-announced", announced, hand_announced), ("polls-timed", timed, hand_timed)],
    );
    found_in_the_document("§10.11", vectors);
}
