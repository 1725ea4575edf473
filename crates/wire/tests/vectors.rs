//! The test vectors of `docs/ledger-format.md`, checked.
//!
//! A small meeting is run through the rules engine and recorded as a
//! signed, chained ledger with fixed seeds, nonces and times. Every byte
//! string is compared with the constants below, recomputed by hand from the
//! layouts the document gives (not only through this crate's functions),
//! and looked for in the document itself, so the document, this file and
//! the code agree byte for byte.
//!
//! To regenerate after a deliberate format change (which needs a new
//! version), run
//! `ASAMBLEA_PRINT_VECTORS=1 cargo test -p asamblea-wire --test vectors -- --nocapture`
//! and paste the printed Markdown into the document and the printed Rust
//! over the constants.

use asamblea_rules::{
    Call, Capacity, Capital, ClassCapital, ClassShares, HolderSpec, Majority, MatterKind, MatterRules,
    Meeting, MeetingKind, OptionIndex, Profile, Refusal, Register, Role, Settings, Shares, SplitPermission,
};
use asamblea_wire::{
    genesis_head, lot_index, register_digest, signing_input, withdrawal_digest, AgendaItem, AgentArrival,
    Ballot, Chain, Checkpoint, Choice, Credential, CredentialId, Digest, Event, EventBody, EventRecord,
    HolderVote, Id, Keypair, MeetingId, MessageKind, Nonce, ProxyRefusal, PublicKey, PublishedResult,
    Receipt, Signature, SignerRole, SplitPart, StaffRole, Text,
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

fn profile() -> Profile {
    let rules = MatterKind::ALL.map(|kind| {
        let majority = match kind {
            MatterKind::BoardElection => Majority::ElectoralQuotient,
            MatterKind::SingleSeatElection => Majority::SingleSeat,
            _ => Majority::Simple,
        };
        (kind, MatterRules::plain(majority))
    });
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

fn run() -> Run {
    let meeting_id = meeting_id();
    let daemon = Keypair::from_seed(&DAEMON_SEED);
    let staff = Keypair::from_seed(&STAFF_SEED);
    let chair = Keypair::from_seed(&CHAIR_SEED);
    let credential = Credential::generate_from(&meeting_id, CredentialId(1), &ATTENDEE_SEED);
    let attendee = credential.keypair();
    let register = register();
    let mut meeting = Meeting::new(register.clone(), profile(), MeetingKind::Ordinary, Call::First);
    let mut ledger = Ledger { meeting_id, chain: Chain::new(&meeting_id), records: vec![], heads: vec![] };

    ledger.push(
        EventBody::MeetingConvened {
            daemon_key: daemon.public_key(),
            profile: id("vectors"),
            profile_digest: Digest::sha256(b"vectors profile"),
            meeting_kind: MeetingKind::Ordinary,
            call: Call::First,
            settings: Settings::default(),
            agenda: agenda(),
        },
        &daemon,
    );
    ledger.push(
        EventBody::StaffEnrolled {
            key: staff.public_key(),
            role: StaffRole::Operator,
            name: id("operador-1"),
        },
        &daemon,
    );
    ledger.push(
        EventBody::StaffEnrolled { key: chair.public_key(), role: StaffRole::Chair, name: id("presidente") },
        &daemon,
    );
    ledger.push(
        EventBody::RegisterImported {
            register_digest: register_digest(&register),
            holders: 4,
            capital: *register.capital(),
        },
        &staff,
    );
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
    ("meeting-convened", "010201010101010101010101010101010101d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c977873700000007766563746f72738d7914748c4293fbe4de0ed6c01f5ddf3e68ba6aeb494becece6bee20aede2e1010101010100000100000002000000066974656d2d310000001e4170726f62616369c3b36e2064656c206f7264656e2064656c2064c3ad6101010000000000000000000000066974656d2d320000001f456c65636369c3b36e206465206c61204a756e74612044697265637469766114010000000100000002000000074c697374612041000000074c697374612042", "e17312ebe03b34aaaff2e96f5323ef02e4ce9e4ed55a53cf1a1305d89e1eee7dee168357de008c48088251559aad169647d5d963d3d8ef64d52e0a47cdff1203", "6e39a648df7634231dacf551f64c1c4d0043c0058f8fae17e2774eeb7709bb95"),
    ("staff-enrolled", "020202020202020202020202020202020202a09aa5f47a6759802ff955f8dc2d2a14a5c99d23be97f864127ff9383455a4f0010000000a6f70657261646f722d31", "dc897d3f879d2de8d0a84d7dc24454d9daa11f09ec995ca9cd6c04ae4e7a22cc000bee064c55ca2e938f397c5b011cb026c7f6fc628a20fa770fc2b2db50700d", "78be23ea8e243726d28f86ed3be0df8003e59441dc3c73d128de396fac74f82e"),
    ("staff-enrolled", "020203030303030303030303030303030303d759793bbc13a2819a827c76adb6fba8a49aee007f49f2d0992d99b825ad2c48020000000a707265736964656e7465", "37573c9e5fa64f7affb8ebbe394b24fcc1878e80c34db179c0cb496627763489e6a707b114e5ce04b29bd098096fc81940f38b60480b21824cf2f995375c3403", "c40c96bd2a4b31da1aa4f5d9e8019788babf36a72c6a944ef87d94f2888ee175"),
    ("register-imported", "03020404040404040404040404040404040420d722f262199d5ff47a81255838b97182eb2e7d100127f8b6672958784efa060000000400000000001e848000000000000000000000000000030d400000000000000000", "4bada0380788f4c09ecc5ec089bb03431163521f8856d4cf9352c700e3d7aa2ca9c509ece982455294b072775724ac64084ab873d432fa4ab6a91249c648d60a", "c2f2ce75cbb18468aed99c325fc5c35eeefc5b468214d09fa33c35a44e663999"),
    ("checked-in-person", "040205050505050505050505050505050505000000024831", "7ebe1665218dfdeaa1edcb89b4d78c2793afde5394b0382b31be83ff9d74acaa46d9d73f126eae8ed4dce3136b4b7661957150378082cd196384be89db35180b", "5f67cbcd8701b79f959d1538498ec4b0d34aa708eac9f6720cfe86092fc957c4"),
    ("checked-in-agent", "0502060606060606060606060606060606060000000441472d370000000200000002483200000002483301000000000f506f64657220323032362d30303432", "f6460a60befea8676935d347eddbdb7800021e7d893c876245e9436e6742477ba3322e270a27e19e5a724aa815597de2531344946d69311fa9b8811919915d0d", "39277439e9a5cab8efb03593f3afe9b2dcffb4f8ba94eb4fcd74cbae13a3493c"),
    ("proxy-refused", "06020707070707070707070707070707070700000003452d390000000100000002483401020000000002", "a08f22d03cada8d174a5b2d0cf333fb4ce3aaa535ee35d79210f4895da7758a3b8d3ea9dc0d389b9c2b05884bca01c6aa8314e6c0336ec7e85c2b342786ca206", "3c34210ff8dd033441e1bc23a50e71537e77b5d5fc4e2aacba4c9fd37932dafe"),
    ("badge-issued", "0802080808080808080808080808080808080000000117cb79fb2b4120f2b1ec65e4198d6e08b28e813feb01e4a400839b85e18080ce0000000441472d37", "68c17db65080264e6ebb9b28dfed99e6c6877dd9b19002141955eec231a5158d1ad8351e43ea1a6c78bd6b02b3d6676caf22ae7898e9d5604ba58a290b06e30d", "81b2f3affb6a21db0cedabfcc161c7c9b1f54115cb2bb12b16b6feee7c8f9724"),
    ("item-opened", "0a0209090909090909090909090909090909000000066974656d2d31", "749cd3ee763e5e85d9b7cc58ed6e8ecda823a7253b06a78af0334274a46fd55114f0a1338beecedf1b0e084806dd75c25c3b9d69fbacdcf32e0cd3714e22c304", "b2f429b2122d8b9c5d8d9b8c32f9aa914b92a09672b7cae4ba47b39a75881be9"),
    ("ballot", "0b020a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a000000066974656d2d310000000100000002000000024832020000000200000000000000030d40000100000000000186a0000000024833010000", "94a646a1828d99e7e22dcf2dd6e8da3ef08c21b4e255b00ddc241f94a8a58eda3a4e566fef1ff0a5175255f6887dedb89a7bdd110a141e60adf408d4cfa71703", "ab5449ffa0693664188d9c6832f7b3bdf7f334856417f92fc7081040fced1cf0"),
    ("item-closed", "0c020b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b000000066974656d2d31", "8c099ebdd2bfa1a168c73132d28734f1667fcace835aa7625e2f107fdffa6d703bec9c81133aac86436bd5c232b0b4ca3e468b81ff6de974bb4fd236594c5d0f", "40fd671d51a464c7fb49e8f861874ae957ba6906addd3d730610e749bc0489ac"),
    ("result-published", "0e020c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c000000066974656d2d310102010000000000124f8000000000000000000000000000124f80000000000007a12000000000000186a0000000000000000000000000000927c0000000020000", "e6db9a44c67a97185ae29acff427af1cf93fb70996c756f156c3ed02d33e7c21f2a18a366a5b7bb65ecda7707dcf8082894dd6a5c5ef7f5f474285291d84cc00", "b6c128bde82fee11bcad821c7193911cfb82ff58bbcf01b661a8a8ad5bd7cf12"),
    ("item-opened", "0a020d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d000000066974656d2d32", "ece56c898005400299188117fb4406bd85fc65f3ece2d4640ad7d6d87cdfeabc66edbc570bf94cf9c88bd943eeabdd34318b2075f98f67cb741c1e3d6a3b1a05", "18c0a3f4ea0de79301dfbbb227987a8a5848874b7c945663a25311a7fba7ac0b"),
    ("ballot", "0b020e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e000000066974656d2d320000000100000002000000024832010000000000024833010001", "e2c97d8894d6f813c6c7e986767094afbc9f8a7b2d6201d7c25ec6e267240c91db6a503f96ad7c00b8dcf58e4ab4fbb491511082b2fa8e7413b2dbb4c7eabb0f", "c8b9f9fe184202a64ae2c3a8cb179a714f0d4e64ca880f7de5b7a3e990d09e6b"),
    ("item-closed", "0c020f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f000000066974656d2d32", "3c7120fa33199a675e854792f64293b36cc685f9ccf88010bedc324edf0a17a19adc7056aefdaf5b4dd83a4d9b01d5811e3021c70f442a5083bfd26693528405", "875960e77a8225d1e6a2fe244559e7f460a63be9e007cb4500b4375d58ced43e"),
    ("result-published", "0e0210101010101010101010101010101010000000066974656d2d3202060100000000000927c000000000000000000000000200000000000493e000000000000493e00100000002000000000000000000000002000000000000000100000001000000000000000000000000", "cfed836ba1f2e54ad90522ea9e7b61102af644c9849c9d5f8b305a5c4ca69fe6031dc11c3686e79e47e8f9fcc9d034c9acdaebd13f224e7008ffb66c06d34504", "d2dc49c1d127667882ec21d10b156ba3c0096bf48927d87a8689fa8113a72885"),
    ("lot-drawn", "0d0211111111111111111111111111111111000000066974656d2d3200000000875960e77a8225d1e6a2fe244559e7f460a63be9e007cb4500b4375d58ced43e000000074c697374612041", "97eb6bc5b0cf3d1cb6188166703b301f9564fd88ae23006bb525e586e779fe21087f8881892386b2d0a2906dbfdbfb0d72512faac763e706c68360bb18d05c04", "97dc750afc024b66d32fccb6edd493f71535988bdc20ba20598ba5dd033a3b89"),
    ("result-published", "0e0212121212121212121212121212121212000000066974656d2d3202050100000000000927c000000000000000000000000200000000000493e000000000000493e0010000000200000001000000000000000000000000000000000000000000000000", "8665cf08dbd9970ea9330c569c53af03a2cb0d4846e135bdf6255503fad43fc0a524ae3d6b4547d9d2b88b2fb14a416a821fb6298dfcfb908da43613f165590d", "f0857f512b00866f852218dbb26256f7bfb07d26b60217bba57a14fc101324a7"),
    ("checked-out", "0702131313131313131313131313131313130000000441472d37", "090ee0338a92e1d8807619a8f79f6db5e0de3e20e3ad93baf375f0a6253fa454ed03e9b1e0b0ef24a4d8813111090578bb83cca4852e423744259f1275699b0c", "92e828b15f81a2ab00b6257ef1155403cd751d296dae240db0091e667cc4de53"),
    ("badge-revoked", "09021414141414141414141414141414141400000001", "e890a71663f2c7d5abf9e5b5433c2156bfe91690848a7149e66abedb4fe765ad1f45a288af13fca3ce97248ef8c4b2461f4991bb3ce3b90fef3e5e6342eacd0b", "d9f0168e68972c95871a2cfc3acdd743e6531161da71f53adee62c46b6995f37"),
];
const RECORD_10: &str = "000000000000000a0000019d2a720a1017cb79fb2b4120f2b1ec65e4198d6e08b28e813feb01e4a400839b85e18080ce94a646a1828d99e7e22dcf2dd6e8da3ef08c21b4e255b00ddc241f94a8a58eda3a4e566fef1ff0a5175255f6887dedb89a7bdd110a141e60adf408d4cfa717030000004c0b020a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a000000066974656d2d310000000100000002000000024832020000000200000000000000030d40000100000000000186a0000000024833010000";
const BALLOT_SIGNING_INPUT: &str = "6173616d626c65612f62616c6c6f742f763200000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f0b020a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a000000066974656d2d310000000100000002000000024832020000000200000000000000030d40000100000000000186a0000000024833010000";
const REGISTER_PREIMAGE: &str = "6173616d626c65612f72656769737465722f76310000000000001e848000000000000000000000000000030d4000000000000000000000000400000002483100000000000927c00000000000000000000000000002483200000000000493e00000000000000000000200000002483300000000000493e000000000000000000000000000024834000000000000c35000000000000000000200";
const REGISTER_DIGEST: &str = "20d722f262199d5ff47a81255838b97182eb2e7d100127f8b6672958784efa06";
const WITHDRAWAL_PREIMAGE: &str =
    "6173616d626c65612f7769746864726177616c2f76310000000002000000024831000000024834";
const WITHDRAWAL_DIGEST: &str = "aaae2e593b98638ce77c89421ceb4c4f2a758fcb734d12067a473e14c82d2320";
const LOT_PREIMAGE: &str = "6173616d626c65612f6c6f742f763100875960e77a8225d1e6a2fe244559e7f460a63be9e007cb4500b4375d58ced43e000000066974656d2d3200000000";
const RECEIPT: &str = "4002000000000000000aab5449ffa0693664188d9c6832f7b3bdf7f334856417f92fc7081040fced1cf08b50a39ec50d853bb117379aa5e026c7d8a68be4289925da07a72a409ac39a08";
const RECEIPT_SIGNATURE: &str = "8f96d47d172a3f79378d8004224b3bb7cc88ff7fb16deb4720cb9cf5f88bc7fe3f7e3cc8260fd27f927e64f6cb224d61095cd64913a011d8c0774b1725e9af06";
const CHECKPOINT: &str =
    "41020000000000000014d9f0168e68972c95871a2cfc3acdd743e6531161da71f53adee62c46b6995f37";
const CHECKPOINT_SIGNATURE: &str = "a0622117e5c5a4f1071f0b94a6866141f0b3d0558d8cc62ff318c4c123bc999e9eea5e03610ab6e956a926346ab573c6b437e3bab981656cc0ad897bee7d740c";
const QR_TEXT: &str = "AS1AAAQEAYEAUDAOAAAAAATGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGM3E22YHGRMB";
const LOT_POSITION: u32 = 0;
