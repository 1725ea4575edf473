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
    genesis_head, lot_index, register_digest, signing_input, withdrawal_digest, AgentArrival, Ballot, Chain,
    Checkpoint, Choice, Credential, CredentialId, Digest, Event, EventBody, EventRecord, HolderVote, Id,
    ItemOpened, Keypair, MeetingId, MessageKind, Nonce, ProxyRefusal, PublicKey, PublishedResult, Receipt,
    Signature, SignerRole, SplitPart, Text,
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
        },
        &daemon,
    );
    ledger.push(EventBody::StaffEnrolled { key: staff.public_key(), name: id("operador-1") }, &daemon);
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
    let item_1 = ItemOpened {
        item: id("item-1"),
        matter: MatterKind::Ordinary,
        noticed: true,
        seats: 0,
        lists: vec![],
    };
    meeting.open(item_1.to_spec().expect("fits")).expect("quorum");
    ledger.push(EventBody::ItemOpened(item_1), &staff);
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
    ledger.push(EventBody::ItemClosed { item: id("item-1") }, &staff);
    let result = |meeting: &Meeting, item: &str| {
        let at = meeting.item_index(item).expect("opened");
        PublishedResult::from_rules(meeting.item(at).result().expect("closed"), meeting.register())
    };
    ledger
        .push(EventBody::ResultPublished { item: id("item-1"), result: result(&meeting, "item-1") }, &daemon);

    // item-2: one seat, two lists tied: a lot decides.
    let lists = vec![id("Lista A"), id("Lista B")];
    let item_2 = ItemOpened {
        item: id("item-2"),
        matter: MatterKind::BoardElection,
        noticed: true,
        seats: 1,
        lists: lists.clone(),
    };
    meeting.open(item_2.to_spec().expect("fits")).expect("quorum");
    ledger.push(EventBody::ItemOpened(item_2), &staff);
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
    let lot_seed = ledger.push(EventBody::ItemClosed { item: id("item-2") }, &staff);
    ledger
        .push(EventBody::ResultPublished { item: id("item-2"), result: result(&meeting, "item-2") }, &daemon);
    let lot_position = lot_index(&lot_seed, &id("item-2"), 0, 2).expect("two candidates");
    let winner = lists[usize::try_from(lot_position).expect("0 or 1")].clone();
    meeting.draw("item-2", winner.as_str()).expect("a lot is pending");
    ledger.push(EventBody::LotDrawn { item: id("item-2"), round: 0, seed: lot_seed, winner }, &staff);
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
        SignerRole::Staff => STAFF_SEED,
        SignerRole::Attendee => ATTENDEE_SEED,
    };
    Keypair::from_seed(&seed).public_key()
}

// ----- the vectors ----------------------------------------------------------

/// Everything the document lists, as hex, in the order it lists them.
#[derive(Debug, PartialEq)]
struct Vectors {
    public_keys: [String; 3],
    genesis: String,
    /// Per record: kind, event bytes, signature, head.
    records: Vec<(String, String, String, String)>,
    record_9: String,
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
    let receipt = Receipt { seq: 9, head: run.ledger.heads[8], event: Digest::sha256(&event_bytes(9)) };
    let checkpoint = Checkpoint { seq: 19, head: run.ledger.heads[18] };
    let credential = Credential::generate_from(&meeting_id, CredentialId(1), &ATTENDEE_SEED);
    Vectors {
        public_keys: [DAEMON_SEED, STAFF_SEED, ATTENDEE_SEED]
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
        record_9: hex(&records[8].encode().expect("encodes")),
        ballot_signing_input: hex(&signing_input(&meeting_id, &event_bytes(9)).expect("a known kind")),
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
        public_keys: [s(PUBLIC_KEYS[0]), s(PUBLIC_KEYS[1]), s(PUBLIC_KEYS[2])],
        genesis: s(GENESIS),
        records: RECORDS.iter().map(|(k, e, sig, h)| (s(k), s(e), s(sig), s(h))).collect(),
        record_9: s(RECORD_9),
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
        ["daemon (seed 11…11)", "staff (seed 22…22)", "attendee (seed 33…33)"].iter().zip(&v.public_keys)
    {
        println!("- {role}: `{key}`");
    }
    println!("\n### 10.2 The ledger\n");
    block("`head_0`:", &v.genesis);
    for (i, (kind, event, signature, head)) in v.records.iter().enumerate() {
        let seq = i + 1;
        let signer = match MessageKind::ALL.iter().find(|k| k.name() == kind).map(|k| k.signer()) {
            Some(SignerRole::Daemon) => "daemon",
            Some(SignerRole::Staff) => "staff",
            Some(SignerRole::Attendee) => "attendee",
            None => "?",
        };
        println!("#### Record {seq}: `{kind}`, signed by the {signer} key\n");
        block(&format!("Event ({} bytes):", event.len() / 2), event);
        block("Signature:", signature);
        block(&format!("`head_{seq}`:"), head);
    }
    println!("### 10.3 A whole record and a signing input\n");
    block("Record 9:", &v.record_9);
    block("Signing input of event 9:", &v.ballot_signing_input);
    println!("### 10.4 Derived values\n");
    block("Register digest input:", &v.register_preimage);
    block("Register digest (carried by record 3):", &v.register_digest);
    block("Withdrawal digest input:", &v.withdrawal_preimage);
    block("Withdrawal digest:", &v.withdrawal_digest);
    block("Lot input (record 16):", &v.lot_preimage);
    println!("Lot position: {}\n", v.lot_position);
    println!("### 10.5 Receipt and checkpoint\n");
    block("Receipt of record 9:", &v.receipt);
    block("Its signature:", &v.receipt_signature);
    block("Checkpoint at record 19:", &v.checkpoint);
    block("Its signature:", &v.checkpoint_signature);
    println!("### 10.6 Credential\n");
    println!("Credential 1 with the attendee seed (its key is the attendee key above):\n");
    println!("QR text: `{}`", v.qr_text);
}

fn print_rust(v: &Vectors) {
    println!("const PUBLIC_KEYS: [&str; 3] = {:?};", v.public_keys);
    println!("const GENESIS: &str = {:?};", v.genesis);
    println!("const RECORDS: &[(&str, &str, &str, &str)] = &[");
    for record in &v.records {
        println!("    {record:?},");
    }
    println!("];");
    for (name, value) in [
        ("RECORD_9", &v.record_9),
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
    // head_0 = SHA-256("asamblea/ledger/v1" || 0x00 || meeting id).
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
        let input = [format!("asamblea/{kind}/v1\0").as_bytes(), &meeting_id.0, &event].concat();
        assert!(ed25519_verify(&key, &input, &signature), "record {seq}: signature");
        // head_n = SHA-256(head_{n-1} || record bytes).
        let record = record_bytes(seq, &key.to_bytes(), &signature, &event);
        head = sha256(&[&head[..], &record].concat());
        assert_eq!(hex(&head), *expected_head, "record {seq}: head");
        assert_eq!(EventRecord::decode(&record).map(|r| r.encode()), Ok(Ok(record.clone())));
        if seq == 9 {
            assert_eq!(hex(&record), RECORD_9);
            assert_eq!(hex(&input), BALLOT_SIGNING_INPUT);
        }
    }
    // The register digest is carried by event 3.
    assert_eq!(hex(&sha256(&unhex(REGISTER_PREIMAGE))), REGISTER_DIGEST);
    assert!(RECORDS[2].1.contains(REGISTER_DIGEST));
    assert_eq!(hex(&sha256(&unhex(WITHDRAWAL_PREIMAGE))), WITHDRAWAL_DIGEST);
    // The lot: its seed is head_14, the head after item-2's item-closed.
    let lot_input = unhex(LOT_PREIMAGE);
    assert_eq!(hex(&lot_input[16..48]), RECORDS[13].3);
    let h = sha256(&lot_input);
    let first = u64::from_be_bytes(h[..8].try_into().expect("8 bytes"));
    assert_eq!(u32::try_from(first % 2).expect("0 or 1"), LOT_POSITION);
    // Receipt of record 9 and checkpoint at 19.
    let receipt = unhex(RECEIPT);
    let event_9 = sha256(&unhex(RECORDS[8].1));
    assert_eq!(receipt, [&[0x40, 1][..], &9u64.to_be_bytes(), &unhex(RECORDS[8].3), &event_9].concat());
    let daemon = Keypair::from_seed(&DAEMON_SEED).public_key();
    let receipt_input = [b"asamblea/receipt/v1\0".as_slice(), &meeting_id.0, &receipt].concat();
    assert!(ed25519_verify(&daemon, &receipt_input, &unhex(RECEIPT_SIGNATURE)));
    let checkpoint = unhex(CHECKPOINT);
    assert_eq!(checkpoint, [&[0x41, 1][..], &19u64.to_be_bytes(), &unhex(RECORDS[18].3)].concat());
    let checkpoint_input = [b"asamblea/checkpoint/v1\0".as_slice(), &meeting_id.0, &checkpoint].concat();
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
        v.record_9.as_str(),
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

const PUBLIC_KEYS: [&str; 3] = [
    "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737",
    "a09aa5f47a6759802ff955f8dc2d2a14a5c99d23be97f864127ff9383455a4f0",
    "17cb79fb2b4120f2b1ec65e4198d6e08b28e813feb01e4a400839b85e18080ce",
];
const GENESIS: &str = "29a6b6c829d9111aa1021572ace9e24ee5fcdda5bde14bea14681b198723e87d";
const RECORDS: &[(&str, &str, &str, &str)] = &[
    ("meeting-convened", "010101010101010101010101010101010101d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c977873700000007766563746f72738d7914748c4293fbe4de0ed6c01f5ddf3e68ba6aeb494becece6bee20aede2e10101010101000001", "aa430a5dd911123636fe7256d6a9b7da004ba5b3c8de0e7dd88dd6d8fcd11f98c589c8c1b5dc633b3b81fc15d9f280609834630e1856a83f46fc884281539500", "61fbc026621ef6a32d2f7e668920d65b903d1802008855aef97cf7c0c5dd3853"),
    ("staff-enrolled", "020102020202020202020202020202020202a09aa5f47a6759802ff955f8dc2d2a14a5c99d23be97f864127ff9383455a4f00000000a6f70657261646f722d31", "c80278aeb401c696c4d9afbaf3ecaa1ddd02749586c81bdbc3e73cc876146d4fcc9dbef7328b582fa72def63411d5dabea321370b866908724808ef37caa3c0a", "a764a8d960817f413ad15a9ae067b18029cf4c6846eb92687856616d40189497"),
    ("register-imported", "03010303030303030303030303030303030320d722f262199d5ff47a81255838b97182eb2e7d100127f8b6672958784efa060000000400000000001e848000000000000000000000000000030d400000000000000000", "29e13b1b0001bd31cbdc7e17c59f2d075ac82e50013b6b2fd90427cc106eb34e0f92957402c6c01166b22f774465fae0dcfa3a0126587a514c516c9dc7b7b704", "bbeee5542a936a94252c961d257496d7d9559301f5275309c10641694f9d084f"),
    ("checked-in-person", "040104040404040404040404040404040404000000024831", "ce729d1b73ffcca7137221cf869a1a020d4b91ebe2cbb8645a42d027817a8cacff1921f8d25291ab78125b691ef6b5028b6f58ff1e65c8d50b5ba7ed10d86607", "f968fcaff89cf3941add24f9c148a843d4bbc45278477458271c1b316f11160d"),
    ("checked-in-agent", "0501050505050505050505050505050505050000000441472d370000000200000002483200000002483301000000000f506f64657220323032362d30303432", "985ba6e4c97cef02990e20b43727329a8455fc5f9389b892d01cdf95c9bd5c284782e16d62110a51005eb89c303362ae0e56de26f79ef793a5d6f2d568255002", "5cf08f690e198de05f01424e58c8f652392cd93fed430efb965e5b4e12067325"),
    ("proxy-refused", "06010606060606060606060606060606060600000003452d390000000100000002483401020000000002", "c60ae09e6565cbe216f9bbc5fe4febb9de47d6de818207a6dbef4da77e0dbfb7ab8801700764ffbd8e6a934d97a2e1f8248f9353ef8a15a76eba8e0f59e5c30a", "2d123a86bea8310a696cb068211574c51a6724c4ff75319d8ad06dfdbd46b0dc"),
    ("badge-issued", "0801070707070707070707070707070707070000000117cb79fb2b4120f2b1ec65e4198d6e08b28e813feb01e4a400839b85e18080ce0000000441472d37", "5977de0cfdc4b51a064345008e22f564344f08e695392d268cd3095b10940a64815a3376030404b80e35e0f42307c821bf2907d89bd0e8c84aa174ef29abb203", "64841621cfed956ee11291a1531fac842e1cca7b9df1d1576d05c9df75110a66"),
    ("item-opened", "0a0108080808080808080808080808080808000000066974656d2d3101010000000000000000", "c2af52ee03ef16fa0e25093eec8309c2c6de52def09b399668fe840e9f4e20a111922732a977c7d2bc2e298a92a713d197f51997a2484fbf654dbea469591800", "d04641e8a1407a3ba739711d676b7a647a777c987f890669220d364d3aefc6e7"),
    ("ballot", "0b0109090909090909090909090909090909000000066974656d2d310000000100000002000000024832020000000200000000000000030d40000100000000000186a0000000024833010000", "93cb7134381ffaab4e87a8b502968a48695b0954792afa8f753375a0c50cfb1fb5397ac2e710e8ccd823a455aeb6406090cac86a876e72c2031e43638fe90f0c", "29ef93a212fb0bc98275c72e9714a20124ace1840408893f671835582bf98305"),
    ("item-closed", "0c010a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a000000066974656d2d31", "9c4e407c8ea82ffba2b622219bbddd6bb3a0d202f75d7546f0215646b83bb19379a75f9398fd82c1b8e18ed6472f49ddac33d7a4440d683e8bcd063f5c3c010d", "7d08eb36eb9da88303d0f1e78b36f4456bd37dde44e461504fda7e7c3b51101b"),
    ("result-published", "0e010b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b000000066974656d2d310102010000000000124f8000000000000000000000000000124f80000000000007a12000000000000186a0000000000000000000000000000927c0000000020000", "b454b70328aa12ff314f82298222071feb5c3de866901ba6b11dc5d4a5c79370403b38d0d9bc8aa29072a099c3f37ca7e4e6f5755ccd2325606e8d6e9425290b", "a439bfc7919abf9ce5828faf52da7e5ed03a7f48d27dcc97f9559f3675e0787d"),
    ("item-opened", "0a010c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c000000066974656d2d3214010000000100000002000000074c697374612041000000074c697374612042", "7df79d57a378a8f29a8b1ebaefa714895dc1f74c988105a9f2ab879078982d141b9e18faf3e392055a25d2f3569d7e48742ea23e516bdda0e633ee37c8de9300", "994e6c57b8661220b68ef3253f7d6cf217ffbbf3cedd2a66b717b6b5843d2ad9"),
    ("ballot", "0b010d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d000000066974656d2d320000000100000002000000024832010000000000024833010001", "83f49fc51b2b7c526c35428f869f48fea839baadf996bb0e1b37a6da215c9ae98a79732eeb8f0be9ba4988f9f6f1dbb023de9a773594ddaca537bf0541e7ec0e", "a8e08f79b2415ce2ce3e01560eab098e644b297b9e9c47b3d1ab4fd13a8b8bde"),
    ("item-closed", "0c010e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e000000066974656d2d32", "80be6bcca87e7a0e098e576cfcc034a1ae0446606c80921280b0406a75ba566811ccfe82c5f6d629a17119dcd6777eecc9ac0dffa6742e258a107fde3cabfe08", "8374387c758cc9367ca11113d5560c91d20d25dc85a41274b91eedc1665b5eac"),
    ("result-published", "0e010f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f000000066974656d2d3202060100000000000927c000000000000000000000000200000000000493e000000000000493e00100000002000000000000000000000002000000000000000100000001000000000000000000000000", "b78845764be3161062809baa11c90f1ab13652c206ee6835fd779bf56dd0184b23922e8143b1ec9948ed4d4a154c0d59f30bf8db9eaf5768cf6ad16a5cb1a40a", "90743585d415f42b5f98a568077b1d431ac46332fe5302d7a76ef6fff923a365"),
    ("lot-drawn", "0d0110101010101010101010101010101010000000066974656d2d32000000008374387c758cc9367ca11113d5560c91d20d25dc85a41274b91eedc1665b5eac000000074c697374612041", "1be0300e73ba2cb61036a4660161f71edfff96b26eadce2fd1efaf28cc25cf53a4432b71de7aa79940aaf811227c60254fbaf8fc9f2c2410df58f2bd4006020b", "7cbbbf06faf59bf40c127d23c6f06fb1113306607130743c49530c6b9865a739"),
    ("result-published", "0e0111111111111111111111111111111111000000066974656d2d3202050100000000000927c000000000000000000000000200000000000493e000000000000493e0010000000200000001000000000000000000000000000000000000000000000000", "1b5a293a1d9337cf5d401d80ab6242b86b52fdaaa7093bece9d0d5cc1d2bbec3d769e1f00bc8ba0ae2f0a07b105f3a208ac6d310d6bf5b4950374618c6653e0b", "c7eda86f3af087f1408d283158a76f0e6b5bd2ea358e553abcc95ef41de32138"),
    ("checked-out", "0701121212121212121212121212121212120000000441472d37", "d43e6be6460b595a81e11ce0d1821be2d09a8b64821c35a3153b3f86177f650cd79709001fa224fe80f0014aca76f213b9455deb5486c2add4a961c86d95f103", "3e6817593068a7787ec178eb13b7e64faaec3a9364c0825dedec7a7caad5cf7b"),
    ("badge-revoked", "09011313131313131313131313131313131300000001", "24d70f0795ef8e95b52c87eb9620e14012f50742b2da7d5869e6d5ff6f3de52a3c6658c21b1e31f9c11b90b3dd2ec67fafbc9fceff5cb7a8fcbb8809cdc11a06", "06eedba9eaa277e4cc8ff3625c31ecd55ed78cea9e74834a627fa3aec6e35d3c"),
];
const RECORD_9: &str = "00000000000000090000019d2a72062817cb79fb2b4120f2b1ec65e4198d6e08b28e813feb01e4a400839b85e18080ce93cb7134381ffaab4e87a8b502968a48695b0954792afa8f753375a0c50cfb1fb5397ac2e710e8ccd823a455aeb6406090cac86a876e72c2031e43638fe90f0c0000004c0b0109090909090909090909090909090909000000066974656d2d310000000100000002000000024832020000000200000000000000030d40000100000000000186a0000000024833010000";
const BALLOT_SIGNING_INPUT: &str = "6173616d626c65612f62616c6c6f742f763100000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f0b0109090909090909090909090909090909000000066974656d2d310000000100000002000000024832020000000200000000000000030d40000100000000000186a0000000024833010000";
const REGISTER_PREIMAGE: &str = "6173616d626c65612f72656769737465722f76310000000000001e848000000000000000000000000000030d4000000000000000000000000400000002483100000000000927c00000000000000000000000000002483200000000000493e00000000000000000000200000002483300000000000493e000000000000000000000000000024834000000000000c35000000000000000000200";
const REGISTER_DIGEST: &str = "20d722f262199d5ff47a81255838b97182eb2e7d100127f8b6672958784efa06";
const WITHDRAWAL_PREIMAGE: &str =
    "6173616d626c65612f7769746864726177616c2f76310000000002000000024831000000024834";
const WITHDRAWAL_DIGEST: &str = "aaae2e593b98638ce77c89421ceb4c4f2a758fcb734d12067a473e14c82d2320";
const LOT_PREIMAGE: &str = "6173616d626c65612f6c6f742f7631008374387c758cc9367ca11113d5560c91d20d25dc85a41274b91eedc1665b5eac000000066974656d2d3200000000";
const RECEIPT: &str = "4001000000000000000929ef93a212fb0bc98275c72e9714a20124ace1840408893f671835582bf9830552295d1ab5107ec86455e200c3a5e1c4010ede2ea09462c790b56cfd71a467b5";
const RECEIPT_SIGNATURE: &str = "e158b85169c791814aec5d8c65477e7134dee73826e2190c4b2a6a49696e49c011dc1440a1992701253085cae6ca28bccb5e0f7109da0b6fb5fcc26f821a270b";
const CHECKPOINT: &str =
    "4101000000000000001306eedba9eaa277e4cc8ff3625c31ecd55ed78cea9e74834a627fa3aec6e35d3c";
const CHECKPOINT_SIGNATURE: &str = "6afc9e8e7639ab116cd2e9abae74e36764b2fa2bf13afd9e5d3d641c42efa2ab320105ef33efa373bbfb8a8886599acc2b3787130b4ac514e19df90b3fba5d06";
const QR_TEXT: &str = "AS1AAAQEAYEAUDAOAAAAAATGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGMZTGM3E22YHGRMB";
const LOT_POSITION: u32 = 0;
