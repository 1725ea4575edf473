//! The meeting the verification tests start from, recorded the way the
//! daemon records one: every event submitted through [`Journal::submit`],
//! so every one passed the replay's checks, then exported as an audit
//! bundle.
//!
//! The story (sequence numbers are looked up by name in [`Recorded::seq`]):
//! the daemon convenes the meeting under a profile mirroring
//! `config/legal-default.toml` with its three-item agenda and enrols two
//! staff keys (an operator and a chair); the operator imports a
//! register of ten holders (one administrator, ordinary and preferred
//! shares) and check people in, in person and by agent; an employee's
//! proxy is refused for the reason the rules give; badges are issued, one
//! is lost and revoked and replaced; three items are voted (a decision,
//! the year-end financial statements, where the administrator may not
//! vote, and a two-seat board election whose remainders tie, so a lot is
//! drawn by the chair from the seed the chain gives); results are published by the
//! daemon and a signed checkpoint is taken at each close and at the end.

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use asamblea_ledger::{
    read_records, register_bytes, verify_bundle, Appended, Bundle, Journal, Rejection, SubmitError, Verified,
    VerifyError, VerifyOptions,
};
use asamblea_rules::{
    Call, Capacity, Capital, ClassCapital, ClassShares, DecisionBase, HolderSpec, ItemResult, Majority,
    MatterKind, MatterRules, MeetingKind, OptionIndex, Outcome, Profile, QuorumReading, QuorumRule, Refusal,
    Register, Role, Settings, Shares, SplitPermission,
};
use asamblea_wire::{
    lot_index, register_digest, AgendaItem, AgentArrival, Ballot, Chain, Checkpoint, Choice, Credential,
    CredentialId, Digest, Event, EventBody, EventRecord, HolderVote, Keypair, MeetingId, ProxyRefusal,
    PublicKey, PublishedResult, Signature, SplitPart, StaffRole, Text,
};

use crate::support::{id, nonce, sign, stepping_clock, TempDir};

pub const MEETING: MeetingId = MeetingId([0x5a; 32]);
pub const DAEMON_SEED: [u8; 32] = [0x11; 32];
pub const STAFF_SEED: [u8; 32] = [0x22; 32];
pub const CHAIR_SEED: [u8; 32] = [0x44; 32];
pub const PROFILE_NAME: &str = "legal-default";
/// The bytes the profile digest is taken of; the tests' `load_profile`
/// turns exactly these into [`profile`].
pub const PROFILE_BYTES: &[u8] =
    b"legal-default, as built in code by the ledger tests (mirrors config/legal-default.toml)\n";

pub fn daemon() -> Keypair {
    Keypair::from_seed(&DAEMON_SEED)
}

/// The operator's key (the registration desk).
pub fn staff() -> Keypair {
    Keypair::from_seed(&STAFF_SEED)
}

/// The chair's key: opens and closes the polls, draws the lots.
pub fn chair() -> Keypair {
    Keypair::from_seed(&CHAIR_SEED)
}

/// The agenda the fixture's meeting is convened with.
pub fn agenda() -> Vec<AgendaItem> {
    let decision = |item: &str, title: &str, matter| AgendaItem {
        item: id(item),
        title: Text::new(title).expect("a valid title"),
        matter,
        noticed: true,
        seats: 0,
        lists: vec![],
    };
    vec![
        decision("item-1", "Aprobación del orden del día", MatterKind::Ordinary),
        decision("item-2", "Estados financieros de fin de ejercicio", MatterKind::FinancialStatements),
        AgendaItem {
            item: id("item-3"),
            title: Text::new("Elección de la Junta Directiva").expect("a valid title"),
            matter: MatterKind::BoardElection,
            noticed: true,
            seats: 2,
            lists: ["Lista A", "Lista B", "Lista C"].iter().map(|l| id(l)).collect(),
        },
    ]
}

/// The QR credential of badge `n`, from a fixed seed.
pub fn badge(n: u32) -> Credential {
    let seed = [0x30 + u8::try_from(n).expect("few badges"); 32];
    Credential::generate_from(&MEETING, CredentialId(n), &seed)
}

/// The settings of `config/legal-default.toml`.
pub fn settings() -> Settings {
    Settings {
        quorum: QuorumRule::MoreThanHalf,
        base: DecisionBase::Present,
        listed: false,
        preferred_full_vote: false,
        split_custodians: false,
        legal_representative_impeded: true,
    }
}

/// `config/legal-default.toml` built in code: every matter kind with its
/// legal rule.
pub fn profile() -> Profile {
    let rules = MatterKind::ALL.map(|kind| {
        let plain = MatterRules::plain;
        let percent = |percent, plural| Majority::AtLeastPercent { percent, plural };
        let rules = match kind {
            MatterKind::Ordinary
            | MatterKind::ProfitDistribution
            | MatterKind::RemoveAdministrators
            | MatterKind::BylawAmendment => plain(Majority::Simple),
            MatterKind::FinancialStatements | MatterKind::LiquidationAccounts => {
                MatterRules { administrators_barred: true, ..plain(Majority::Simple) }
            }
            MatterKind::ProfitDistributionBelowMinimum => plain(percent(78, true)),
            MatterKind::IssueWithoutPreemptiveRights => plain(percent(70, false)),
            MatterKind::StockDividend => plain(percent(80, false)),
            MatterKind::PreferredAdverseChange | MatterKind::PreferredConversion => {
                MatterRules { preferred_votes: true, ..plain(Majority::TwoClassSubscribed { percent: 70 }) }
            }
            MatterKind::CapitalIncrease | MatterKind::CapitalReduction | MatterKind::Segregation => {
                MatterRules { notice_required: true, ..plain(Majority::Simple) }
            }
            MatterKind::Merger | MatterKind::SpinOff | MatterKind::Transformation | MatterKind::Delisting => {
                MatterRules { notice_required: true, withdrawal: true, ..plain(Majority::Simple) }
            }
            MatterKind::SuspendMeeting => plain(percent(51, true)),
            MatterKind::BoardElection => plain(Majority::ElectoralQuotient),
            MatterKind::SingleSeatElection => plain(Majority::SingleSeat),
        };
        (kind, rules)
    });
    Profile::new(PROFILE_NAME, settings(), rules).expect("the legal default is a valid profile")
}

/// What `verify` is given to turn the bundle's profile into rules.
pub fn load_profile(name: &str, bytes: &[u8]) -> Result<Profile, String> {
    if bytes == PROFILE_BYTES {
        Ok(profile())
    } else {
        Err(format!("`{name}` is not the profile file the tests ship"))
    }
}

/// Ten holders: H05 is an administrator, H02 a dismembered holding that
/// may split its vote, H04, H07 and H09 hold preferred shares.
pub fn register() -> Register {
    let class = |subscribed, treasury| {
        ClassCapital::new(Shares::new(subscribed), Shares::new(treasury)).expect("treasury within subscribed")
    };
    let capital = Capital { ordinary: class(910_000, 20_000), preferred: class(100_000, 0) };
    let holder = |id: &str, ordinary, preferred, role, split| HolderSpec {
        id: id.into(),
        holdings: ClassShares::new(Shares::new(ordinary), Shares::new(preferred)),
        role,
        split,
    };
    Register::new(
        capital,
        [
            holder("H01", 300_000, 0, None, None),
            holder("H02", 150_000, 0, None, Some(SplitPermission::Dismembered)),
            holder("H03", 100_000, 0, None, None),
            holder("H04", 80_000, 20_000, None, None),
            holder("H05", 60_000, 0, Some(Role::Administrator), None),
            holder("H06", 50_000, 0, None, None),
            holder("H07", 0, 40_000, None, None),
            holder("H08", 30_000, 0, None, None),
            holder("H09", 20_000, 40_000, None, None),
            holder("H10", 100_000, 0, None, None),
        ],
    )
    .expect("a valid register")
}

/// What the recording produced, and what the tests look up in it.
pub struct Recorded {
    /// Every record with the head after it, as read back from the file.
    pub records: Vec<(EventRecord, Digest)>,
    /// The daemon's signed checkpoints: at each close and at the end.
    pub checkpoints: Vec<(Checkpoint, Signature)>,
    /// Sequence numbers of the events the tests tamper with, by name.
    marks: HashMap<&'static str, u64>,
    /// The quorum reading when the recording ended.
    pub quorum: QuorumReading,
    /// Each item's result when the recording ended, in opening order.
    pub results: Vec<(String, ItemResult)>,
    /// The list the lot gave the last seat of item-3 to.
    pub lot_winner: String,
    /// The number of lists the lot was drawn among.
    pub lot_candidates: usize,
}

impl Recorded {
    /// The sequence number of a named event.
    pub fn seq(&self, name: &str) -> u64 {
        *self.marks.get(name).unwrap_or_else(|| panic!("no event is named `{name}`"))
    }
}

/// Submits events and remembers the names of some.
struct Recorder {
    journal: Journal,
    nonces: u64,
    marks: HashMap<&'static str, u64>,
}

impl Recorder {
    fn event(&mut self, body: EventBody) -> Event {
        self.nonces += 1;
        Event { nonce: nonce("meeting", self.nonces), body }
    }

    fn submit(&mut self, key: &Keypair, body: EventBody) -> Appended {
        let event = self.event(body);
        let kind = event.kind();
        let appended = self
            .journal
            .submit(sign(&MEETING, key, event))
            .unwrap_or_else(|e| panic!("the journal admits this `{kind}`: {e}"));
        assert_eq!(appended.seq, self.journal.records(), "one record per submitted event");
        appended
    }

    fn named(&mut self, name: &'static str, key: &Keypair, body: EventBody) -> Appended {
        let appended = self.submit(key, body);
        assert!(self.marks.insert(name, appended.seq).is_none(), "`{name}` is named once");
        appended
    }

    /// Submits an event the journal must refuse, and checks that nothing
    /// was recorded.
    fn refused(&mut self, key: &Keypair, body: EventBody, expected: Rejection) {
        let before = self.journal.records();
        let event = self.event(body);
        let refused = self.journal.submit(sign(&MEETING, key, event));
        assert_eq!(refused, Err(SubmitError::Rejected(expected)));
        assert_eq!(self.journal.records(), before, "a refused event is not recorded");
    }

    fn ballot(
        &mut self,
        name: &'static str,
        credential: u32,
        item: &str,
        votes: Vec<HolderVote>,
    ) -> Appended {
        let body = EventBody::Ballot(Ballot { item: id(item), credential: CredentialId(credential), votes });
        self.named(name, badge(credential).keypair(), body)
    }

    fn result(&self, item: &str) -> (ItemResult, PublishedResult) {
        let meeting = self.journal.state().meeting().expect("the register is imported");
        let at = meeting.item_index(item).expect("the item was opened");
        let result = meeting.item(at).result().expect("the item is closed").clone();
        let published = PublishedResult::from_rules(&result, meeting.register());
        (result, published)
    }
}

fn whole(holder: &str, option: OptionIndex) -> HolderVote {
    HolderVote { holder: id(holder), choice: Choice::Whole(option) }
}

fn arrival(
    agent: &str,
    principals: &[&str],
    capacity: Capacity,
    declared_role: Option<Role>,
) -> AgentArrival {
    AgentArrival {
        agent: id(agent),
        principals: principals.iter().map(|p| id(p)).collect(),
        capacity,
        declared_role,
        power_document: Text::new(&format!("Poder de {agent}")).expect("a valid text"),
    }
}

/// Records the meeting into a new ledger at `path` and reads it back.
pub fn record_meeting(path: &Path) -> Recorded {
    let daemon = daemon();
    let staff = staff();
    let chair = chair();
    let register = register();
    let (clock, _) = stepping_clock();
    let journal = Journal::open(
        path,
        MEETING,
        register.clone(),
        profile(),
        Digest::sha256(PROFILE_BYTES),
        daemon.public_key(),
        clock,
    )
    .expect("a new journal opens");
    let mut r = Recorder { journal, nonces: 0, marks: HashMap::new() };
    let mut checkpoints = Vec::new();
    let mut checkpoint = |appended: &Appended| {
        let checkpoint = Checkpoint { seq: appended.seq, head: appended.head };
        let signature = checkpoint.sign(&MEETING, &daemon);
        checkpoints.push((checkpoint, signature));
    };

    r.named(
        "meeting-convened",
        &daemon,
        EventBody::MeetingConvened {
            daemon_key: daemon.public_key(),
            profile: id(PROFILE_NAME),
            profile_digest: Digest::sha256(PROFILE_BYTES),
            meeting_kind: MeetingKind::Ordinary,
            call: Call::First,
            settings: settings(),
            agenda: agenda(),
        },
    );
    r.named(
        "staff-enrolled",
        &daemon,
        EventBody::StaffEnrolled {
            key: staff.public_key(),
            role: StaffRole::Operator,
            name: id("operador-1"),
        },
    );
    r.named(
        "chair-enrolled",
        &daemon,
        EventBody::StaffEnrolled { key: chair.public_key(), role: StaffRole::Chair, name: id("presidente") },
    );
    r.named(
        "register-imported",
        &staff,
        EventBody::RegisterImported {
            register_digest: register_digest(&register),
            holders: u32::try_from(register.len()).expect("ten"),
            capital: *register.capital(),
        },
    );

    // Arrivals: in person, by proxy, an employee's proxy refused, a legal
    // representative.
    r.named("H01 arrives", &staff, EventBody::CheckedInPerson { holder: id("H01") });
    r.named(
        "AG-1 arrives",
        &staff,
        EventBody::CheckedInAgent(arrival("AG-1", &["H02", "H03"], Capacity::Proxy, None)),
    );
    let barred = arrival("E-1", &["H06"], Capacity::Proxy, Some(Role::Employee));
    let rules_say = r
        .journal
        .state()
        .meeting()
        .expect("the register is imported")
        .check_arrival("E-1", &["H06"], Capacity::Proxy, Some(Role::Employee))
        .expect_err("an employee may not carry a proxy");
    assert_eq!(rules_say, Refusal::ProxyAgentBarred);
    let reason = ProxyRefusal::from_refusal(rules_say).expect("an arrival's refusal");
    r.refused(
        &staff,
        EventBody::ProxyRefused { arrival: barred.clone(), reason: ProxyRefusal::UnknownHolder },
        Rejection::RefusalMismatch { recorded: "unknown-holder", actual: Some(Refusal::ProxyAgentBarred) },
    );
    r.named("E-1 refused", &staff, EventBody::ProxyRefused { arrival: barred, reason });
    r.named("H05 arrives", &staff, EventBody::CheckedInPerson { holder: id("H05") });
    r.named("H04 arrives", &staff, EventBody::CheckedInPerson { holder: id("H04") });
    r.named("H06 arrives", &staff, EventBody::CheckedInPerson { holder: id("H06") });
    r.named(
        "AG-2 arrives",
        &staff,
        EventBody::CheckedInAgent(arrival("AG-2", &["H09"], Capacity::LegalRepresentative, None)),
    );

    // Badges: one per person; H04 loses badge 4 and gets badge 5.
    for (n, person) in [(1, "H01"), (2, "AG-1"), (3, "H05"), (4, "H04")] {
        let body = EventBody::BadgeIssued {
            credential: CredentialId(n),
            key: badge(n).public_key(),
            person: id(person),
        };
        r.submit(&staff, body);
    }
    r.named("badge 4 revoked", &staff, EventBody::BadgeRevoked { credential: CredentialId(4) });
    for (n, person) in [(5, "H04"), (6, "H06"), (7, "AG-2")] {
        let body = EventBody::BadgeIssued {
            credential: CredentialId(n),
            key: badge(n).public_key(),
            person: id(person),
        };
        r.submit(&staff, body);
    }

    // item-1: an ordinary decision.
    r.named("item-1 opened", &chair, EventBody::ItemOpened { item: id("item-1") });
    r.ballot("H01 votes on item-1", 1, "item-1", vec![whole("H01", OptionIndex::FOR)]);
    let split = vec![
        SplitPart { option: OptionIndex::FOR, shares: Shares::new(100_000) },
        SplitPart { option: OptionIndex::AGAINST, shares: Shares::new(50_000) },
    ];
    r.ballot(
        "AG-1 votes on item-1",
        2,
        "item-1",
        vec![
            HolderVote { holder: id("H02"), choice: Choice::Split(split) },
            whole("H03", OptionIndex::AGAINST),
        ],
    );
    r.ballot("H05 votes on item-1", 3, "item-1", vec![whole("H05", OptionIndex::FOR)]);
    let lost = Ballot {
        item: id("item-1"),
        credential: CredentialId(4),
        votes: vec![whole("H04", OptionIndex::FOR)],
    };
    r.refused(badge(4).keypair(), EventBody::Ballot(lost), Rejection::RevokedBadge(CredentialId(4)));
    r.ballot("H04 votes on item-1", 5, "item-1", vec![whole("H04", OptionIndex::BLANK_DECISION)]);
    r.ballot("AG-2 votes on item-1", 7, "item-1", vec![whole("H09", OptionIndex::FOR)]);
    let closed = r.named("item-1 closed", &chair, EventBody::ItemClosed { item: id("item-1") });
    checkpoint(&closed);
    let (_, result) = r.result("item-1");
    assert_eq!(result.outcome(), Outcome::Pass, "480,000 for of 760,000 present");
    r.named("item-1 result", &daemon, EventBody::ResultPublished { item: id("item-1"), result });

    // item-2: the year-end financial statements; the administrator H05
    // may not vote (R10).
    r.named("item-2 opened", &chair, EventBody::ItemOpened { item: id("item-2") });
    r.ballot("H01 votes on item-2", 1, "item-2", vec![whole("H01", OptionIndex::FOR)]);
    r.ballot(
        "AG-1 votes on item-2",
        2,
        "item-2",
        vec![whole("H02", OptionIndex::FOR), whole("H03", OptionIndex::FOR)],
    );
    let barred = Ballot {
        item: id("item-2"),
        credential: CredentialId(3),
        votes: vec![whole("H05", OptionIndex::FOR)],
    };
    r.refused(badge(3).keypair(), EventBody::Ballot(barred), Rejection::Rules(Refusal::NotEligible));
    r.ballot("H04 votes on item-2", 5, "item-2", vec![whole("H04", OptionIndex::AGAINST)]);
    let closed = r.named("item-2 closed", &chair, EventBody::ItemClosed { item: id("item-2") });
    checkpoint(&closed);
    let (_, result) = r.result("item-2");
    assert_eq!(result.outcome(), Outcome::Pass, "550,000 for of a base of 700,000");
    r.named("item-2 result", &daemon, EventBody::ResultPublished { item: id("item-2"), result });

    // item-3: two seats among three lists. A takes one by the quotient;
    // B and C tie on the remainder for the other, so a lot is drawn.
    r.named("item-3 opened", &chair, EventBody::ItemOpened { item: id("item-3") });
    r.ballot("H01 votes on item-3", 1, "item-3", vec![whole("H01", OptionIndex::list(0))]);
    r.ballot(
        "AG-1 votes on item-3",
        2,
        "item-3",
        vec![whole("H02", OptionIndex::list(1)), whole("H03", OptionIndex::list(2))],
    );
    r.ballot("H06 votes on item-3", 6, "item-3", vec![whole("H06", OptionIndex::list(2))]);
    let closed = r.named("item-3 closed", &chair, EventBody::ItemClosed { item: id("item-3") });
    checkpoint(&closed);
    let (rules_result, result) = r.result("item-3");
    let ItemResult::Election(election) = rules_result else { panic!("item-3 is an election") };
    assert_eq!(election.outcome, Outcome::LotRequired, "{election:?}");
    assert_eq!(election.lot_between, vec![1, 2], "B and C tie on the remainder: {election:?}");
    r.named("item-3 result", &daemon, EventBody::ResultPublished { item: id("item-3"), result });
    let state = r.journal.state();
    let seed = state.seed("item-3").expect("item-3 is closed");
    assert_eq!(seed, closed.head, "the seed is the head after item-closed");
    let round = state.rounds("item-3");
    let candidates = u32::try_from(election.lot_between.len()).expect("two");
    let position = lot_index(&seed, &id("item-3"), round, candidates).expect("two candidates");
    let lists = ["Lista A", "Lista B", "Lista C"];
    let lot_winner = lists[election.lot_between[position as usize]].to_string();
    r.named(
        "item-3 lot",
        &chair,
        EventBody::LotDrawn { item: id("item-3"), round, seed, winner: id(&lot_winner) },
    );
    let (_, result) = r.result("item-3");
    assert_eq!(result.outcome(), Outcome::Elected);
    r.named("item-3 final result", &daemon, EventBody::ResultPublished { item: id("item-3"), result });

    // AG-1 leaves; its badge is revoked.
    r.named("AG-1 leaves", &staff, EventBody::CheckedOut { person: id("AG-1") });
    let last = r.named("badge 2 revoked", &staff, EventBody::BadgeRevoked { credential: CredentialId(2) });
    checkpoint(&last);

    let meeting = r.journal.state().meeting().expect("imported");
    let quorum = meeting.quorum();
    let results = meeting
        .items()
        .iter()
        .map(|item| (item.id().to_string(), item.result().expect("every item is closed").clone()))
        .collect();
    let marks = r.marks;
    r.journal.close();
    let records = read_records(path, &MEETING).expect("the ledger reads back");
    assert_eq!(records.len() as u64, last.seq);
    Recorded {
        records,
        checkpoints,
        marks,
        quorum,
        results,
        lot_winner,
        lot_candidates: election.lot_between.len(),
    }
}

/// The recorded meeting and its exported bundle, built once per test run.
pub struct Fixture {
    pub recorded: Recorded,
    pub bundle: Bundle,
    pub bytes: Vec<u8>,
}

pub fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let dir = TempDir::new("fixture");
        let recorded = record_meeting(&dir.ledger());
        let bundle = Bundle {
            meeting: MEETING,
            daemon_key: daemon().public_key(),
            profile_name: PROFILE_NAME.to_string(),
            profile_bytes: PROFILE_BYTES.to_vec(),
            register_bytes: register_bytes(&register()),
            records: recorded
                .records
                .iter()
                .map(|(record, head)| (record.encode().expect("a stored record encodes"), *head))
                .collect(),
            checkpoints: recorded.checkpoints.clone(),
        };
        let bytes = bundle.encode();
        assert_eq!(Bundle::decode(&bytes).as_ref(), Ok(&bundle), "the bundle round-trips");
        Fixture { recorded, bundle, bytes }
    })
}

impl Fixture {
    /// The number of the last record.
    pub fn last(&self) -> u64 {
        self.recorded.records.len() as u64
    }

    /// The head after record `seq`.
    pub fn head(&self, seq: u64) -> Digest {
        self.recorded.records[seq as usize - 1].1
    }

    pub fn seq(&self, name: &str) -> u64 {
        self.recorded.seq(name)
    }

    /// A copy of the records, to tamper with.
    pub fn records(&self) -> Vec<EventRecord> {
        self.recorded.records.iter().map(|(record, _)| record.clone()).collect()
    }

    /// A bundle of `records` numbered 1, 2, … in the order given and
    /// chained afresh (what a forger who knows the format produces), with
    /// this meeting's checkpoints.
    pub fn rechained(&self, mut records: Vec<EventRecord>) -> Vec<u8> {
        let mut chain = Chain::new(&MEETING);
        let mut bundle = self.bundle.clone();
        bundle.records = records
            .iter_mut()
            .enumerate()
            .map(|(i, record)| {
                record.seq = i as u64 + 1;
                let head = chain.append(record).expect("in sequence and in time");
                (record.encode().expect("encodes"), head)
            })
            .collect();
        bundle.encode()
    }

    /// The bundle with `change` made to it.
    pub fn bundle_with(&self, change: impl FnOnce(&mut Bundle)) -> Vec<u8> {
        let mut bundle = self.bundle.clone();
        change(&mut bundle);
        bundle.encode()
    }

    /// Verifies `bytes` as the revisor fiscal would: with the daemon key
    /// published at the meeting and, optionally, a head read out at a
    /// close.
    pub fn verify(&self, bytes: &[u8], checkpoint: Option<(u64, Digest)>) -> Result<Verified, VerifyError> {
        let options = VerifyOptions {
            daemon_key: Some(daemon().public_key()),
            checkpoints: checkpoint.into_iter().collect(),
            witnesses: Vec::new(),
            receipts: Vec::new(),
            load_profile: &load_profile,
        };
        verify_bundle(bytes, &options)
    }

    /// [`Fixture::verify`] with the heads an observer witnessed and the
    /// voters' receipts.
    pub fn verify_observed(
        &self,
        bytes: &[u8],
        witnesses: Vec<(Checkpoint, Signature)>,
        receipts: Vec<(asamblea_wire::Receipt, Signature)>,
    ) -> Result<Verified, VerifyError> {
        let options = VerifyOptions {
            daemon_key: Some(daemon().public_key()),
            checkpoints: Vec::new(),
            witnesses,
            receipts,
            load_profile: &load_profile,
        };
        verify_bundle(bytes, &options)
    }

    /// A new event signed by `key`, timed like record `after` so that it
    /// can be placed right after it (its number is given by
    /// [`Fixture::rechained`]).
    pub fn forged(&self, key: &Keypair, n: u64, after: u64, body: EventBody) -> EventRecord {
        let event = Event { nonce: nonce("forged", n), body };
        let signed = sign(&MEETING, key, event);
        let time_ms = self.recorded.records[after as usize - 1].0.time_ms;
        EventRecord {
            seq: 0,
            time_ms,
            signer: signed.signer,
            signature: signed.signature,
            event: signed.event,
        }
    }
}

/// A key nobody enrolled.
pub fn outsider() -> Keypair {
    Keypair::from_seed(&[0x99; 32])
}

/// The daemon's public key.
pub fn daemon_key() -> PublicKey {
    daemon().public_key()
}
