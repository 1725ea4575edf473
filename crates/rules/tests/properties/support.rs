//! What every property shares: bylaws profiles built in code, meetings
//! generated at random (register, settings, items, steps), the steps
//! materialized as concrete calls, and a snapshot of what a meeting shows.

use std::collections::BTreeMap;

use asamblea_rules::{
    Ballot, BallotOptions, BylawRules, Call, Capacity, Capital, Channel, ClassCapital, ClassShares,
    DecisionBase, ItemResult, ItemSpec, Majority, MatterKind, MatterRules, Meeting, MeetingKind, OptionIndex,
    Outcome, Profile, QuorumReading, QuorumRule, Refusal, Register, Role, Settings, Shares, SplitPermission,
};
use proptest::collection::vec;
use proptest::prelude::*;

/// The largest holding a generated holder has: sums of a few exceed 2³².
pub const MAX_SHARES: u64 = 1_000_000_000_000;
/// At most this many holders in a generated register.
pub const MAX_HOLDERS: usize = 40;
/// At most this many items in a generated meeting.
pub const MAX_ITEMS: usize = 4;
/// External agents are `X0` to `X3`.
pub const EXTERNAL_AGENTS: u8 = 4;
/// An id no register holds and no agent uses.
pub const UNKNOWN_PERSON: &str = "ZZ";
/// An item id that is never opened.
pub const UNKNOWN_ITEM: &str = "I-none";

/// 256 cases unless `PROPTEST_CASES` says otherwise.
pub fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

// ----- profiles ------------------------------------------------------------

/// Which bylaws a generated meeting runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    /// `config/legal-default.toml`: the law alone.
    Legal,
    /// `config/almagrario.toml`: the law plus bylaw majorities and the bylaw
    /// quorum for bylaw reforms, in force while unlisted.
    Almagrario,
}

/// The legal rule of every matter kind, as `config/legal-default.toml`
/// writes it.
pub fn legal_rules(kind: MatterKind) -> MatterRules {
    MatterRules::statutory(kind)
}

/// The rules of `config/almagrario.toml`: the legal ones plus its bylaws.
pub fn almagrario_rules(kind: MatterKind) -> MatterRules {
    use MatterKind::*;
    let mut rules = legal_rules(kind);
    let seventy = Some(Majority::AtLeastPercent { percent: 70, plural: false });
    match kind {
        ProfitDistribution | CapitalIncrease => rules.bylaws.majority = seventy,
        RemoveAdministrators => {
            rules.bylaws = BylawRules {
                majority: seventy,
                majority_only_in: Some(MeetingKind::Extraordinary),
                ..rules.bylaws
            }
        }
        IssueWithoutPreemptiveRights => rules.notice_required = true,
        BylawAmendment => rules.bylaws.first_call_quorum = true,
        _ => {}
    }
    rules
}

/// A validated profile of one flavor with these settings.
pub fn profile(flavor: Flavor, settings: Settings) -> Profile {
    let rules: fn(MatterKind) -> MatterRules = match flavor {
        Flavor::Legal => legal_rules,
        Flavor::Almagrario => almagrario_rules,
    };
    Profile::new(format!("{flavor:?}"), settings, MatterKind::ALL.map(|kind| (kind, rules(kind))))
        .expect("every matter kind has a rule that fits it")
}

/// The settings of `config/legal-default.toml`.
pub fn legal_settings() -> Settings {
    Settings { listed: false, ..Settings::default() }
}

// ----- generated meetings --------------------------------------------------

/// One generated line of the register.
#[derive(Clone, Debug)]
pub struct HolderGen {
    pub ordinary: u64,
    pub preferred: u64,
    pub role: Option<Role>,
    pub split: Option<SplitPermission>,
}

/// One generated agenda item; its id is `I{position}`, its lists `L0`…
#[derive(Clone, Debug)]
pub struct ItemGen {
    pub matter: MatterKind,
    pub lists: usize,
    pub seats: u32,
}

/// A register, settings and agenda: everything but the steps.
#[derive(Clone, Debug)]
pub struct Base {
    pub holders: Vec<HolderGen>,
    /// Outstanding shares per class that no listed holder holds.
    pub unheld: ClassShares,
    /// Treasury shares per class.
    pub treasury: ClassShares,
    pub settings: Settings,
    pub flavor: Flavor,
    pub kind: MeetingKind,
    pub call: Call,
    pub items: Vec<ItemGen>,
}

impl Base {
    pub fn holder_id(h: usize) -> String {
        format!("H{h}")
    }

    pub fn item_id(k: usize) -> String {
        format!("I{k}")
    }

    pub fn list_name(i: usize) -> String {
        format!("L{i}")
    }

    /// Outstanding shares per class (`S_ORD`, `S_PREF`).
    pub fn outstanding(&self) -> ClassShares {
        let held = |f: fn(&HolderGen) -> u64| self.holders.iter().map(f).sum::<u64>();
        ClassShares::new(
            Shares::new(held(|h| h.ordinary) + self.unheld.ordinary.get()),
            Shares::new(held(|h| h.preferred) + self.unheld.preferred.get()),
        )
    }

    pub fn register(&self) -> Register {
        let outstanding = self.outstanding();
        let class = |out: Shares, treasury: Shares| {
            ClassCapital::new(out + treasury, treasury).expect("treasury never exceeds subscribed")
        };
        let capital = Capital {
            ordinary: class(outstanding.ordinary, self.treasury.ordinary),
            preferred: class(outstanding.preferred, self.treasury.preferred),
        };
        let holders = self.holders.iter().enumerate().map(|(h, g)| asamblea_rules::HolderSpec {
            id: Base::holder_id(h),
            holdings: ClassShares::new(Shares::new(g.ordinary), Shares::new(g.preferred)),
            role: g.role,
            split: g.split,
        });
        Register::new(capital, holders).expect("a generated register is valid")
    }

    pub fn meeting(&self) -> Meeting {
        Meeting::new(self.register(), profile(self.flavor, self.settings), self.kind, self.call)
    }

    pub fn option_count(&self, k: usize) -> usize {
        let item = &self.items[k];
        if item.matter.is_election() {
            item.lists + 1
        } else {
            3
        }
    }

    pub fn spec(&self, k: usize, noticed: bool) -> ItemSpec {
        let item = &self.items[k];
        let options = if item.matter.is_election() {
            BallotOptions::Election {
                seats: item.seats,
                lists: (0..item.lists).map(|i| Base::list_name(i).into_boxed_str()).collect(),
            }
        } else {
            BallotOptions::Decision
        };
        ItemSpec::new(Base::item_id(k), item.matter, noticed, options).expect("a generated item is valid")
    }

    /// The shares a holder votes with on a matter (FORMAT.md "Presence",
    /// R13): ordinary always, preferred on the two preferred matters or
    /// under full vote.
    pub fn item_shares(&self, h: usize, matter: MatterKind) -> (u64, u64) {
        let holder = &self.holders[h];
        let preferred_votes =
            matches!(matter, MatterKind::PreferredAdverseChange | MatterKind::PreferredConversion);
        let preferred =
            if preferred_votes || self.settings.preferred_full_vote { holder.preferred } else { 0 };
        (holder.ordinary, preferred)
    }
}

fn holder(small: bool, administrators: u32) -> impl Strategy<Value = HolderGen> {
    let amount = move || {
        if small {
            // Mostly one share each: remainders and majorities tie often.
            prop_oneof![1 => Just(0u64), 4 => Just(1u64), 1 => 2u64..=3].boxed()
        } else {
            prop_oneof![1 => Just(0u64), 1 => 1u64..=5, 6 => 1u64..=MAX_SHARES].boxed()
        }
    };
    let role = prop_oneof![
        5 => Just(None),
        administrators => Just(Some(Role::Administrator)),
        administrators => Just(Some(Role::Employee)),
    ];
    let split = prop_oneof![
        6 => Just(None),
        1 => Just(Some(SplitPermission::Dismembered)),
        1 => Just(Some(SplitPermission::OmnibusCustodian)),
    ];
    let preferred = prop_oneof![3 => Just(0u64), 1 => amount()];
    (amount(), preferred, role, split).prop_map(|(ordinary, preferred, role, split)| HolderGen {
        ordinary,
        preferred,
        role,
        split,
    })
}

fn extra(small: bool) -> impl Strategy<Value = u64> {
    let top = if small { 4 } else { MAX_SHARES };
    prop_oneof![2 => Just(0u64), 1 => 0..=top]
}

pub fn settings() -> impl Strategy<Value = Settings> {
    (
        prop_oneof![Just(QuorumRule::MoreThanHalf), Just(QuorumRule::HalfPlusOne)],
        prop_oneof![Just(DecisionBase::Present), Just(DecisionBase::Cast)],
        any::<bool>(),
        prop_oneof![3 => Just(false), 1 => Just(true)],
        any::<bool>(),
        prop_oneof![3 => Just(true), 1 => Just(false)],
    )
        .prop_map(
            |(quorum, base, listed, preferred_full_vote, split_custodians, legal_representative_impeded)| {
                Settings {
                    quorum,
                    base,
                    listed,
                    preferred_full_vote,
                    split_custodians,
                    legal_representative_impeded,
                }
            },
        )
}

/// Any matter, with more board elections where shares are small (so that
/// remainders tie), and more of the matters with special figures.
fn item(small: bool) -> impl Strategy<Value = ItemGen> {
    let matter = prop_oneof![
        3 => proptest::sample::select(MatterKind::ALL.to_vec()),
        if small { 3 } else { 1 } => Just(MatterKind::BoardElection),
        1 => Just(MatterKind::FinancialStatements),
        1 => Just(MatterKind::PreferredAdverseChange),
    ];
    (matter, 1usize..=4, 1u32..=5).prop_map(|(matter, lists, seats)| ItemGen {
        matter,
        lists,
        seats: if matter == MatterKind::SingleSeatElection { 1 } else { seats },
    })
}

/// Small shares (0 to 3, where remainders and majorities tie) one time in
/// three; many administrators and employees one time in four.
pub fn base() -> impl Strategy<Value = Base> {
    let small = prop_oneof![1 => Just(true), 2 => Just(false)];
    let administrators = prop_oneof![3 => Just(1u32), 1 => Just(6u32)];
    (small, administrators).prop_flat_map(|(small, administrators)| {
        (
            vec(holder(small, administrators), 2..=MAX_HOLDERS),
            (extra(small), extra(small), extra(small), extra(small)),
            settings(),
            prop_oneof![Just(Flavor::Legal), Just(Flavor::Almagrario)],
            prop_oneof![3 => Just(MeetingKind::Ordinary), 1 => Just(MeetingKind::Extraordinary)],
            prop_oneof![2 => Just(Call::First), 1 => Just(Call::Second), 1 => Just(Call::OwnRight)],
            vec(item(small), 1..=MAX_ITEMS),
        )
            .prop_map(|(holders, (uo, up, to, tp), settings, flavor, kind, call, items)| Base {
                holders,
                unheld: ClassShares::new(Shares::new(uo), Shares::new(up)),
                treasury: ClassShares::new(Shares::new(to), Shares::new(tp)),
                settings,
                flavor,
                kind,
                call,
                items,
            })
    })
}

// ----- generated steps -----------------------------------------------------

/// A person named in a step: a holder, an external agent, or nobody known.
#[derive(Clone, Copy, Debug)]
pub enum PersonGen {
    Holder(u16),
    External(u8),
    Unknown,
}

/// A ballot before it is fitted to an item and a holder.
#[derive(Clone, Debug)]
pub enum BallotGen {
    /// One option, by raw position.
    Whole(u8),
    /// An option name that is not on the ballot.
    UnknownOption,
    /// Parts in proportion to `weight`; `skew` moves the last part off the
    /// holder's shares, `unknown_part` names an option not on the ballot.
    Split { parts: Vec<(u8, u8)>, skew: i8, unknown_part: bool },
}

/// One step before it is fitted to the register and agenda.
#[derive(Clone, Debug)]
pub enum StepGen {
    Arrive(PersonGen),
    Agent {
        agent: PersonGen,
        principals: Vec<u16>,
        unknown_principal: bool,
        capacity: Capacity,
        role: Option<Role>,
    },
    Leave(PersonGen),
    Open {
        item: u16,
        noticed: bool,
    },
    Vote {
        item: u16,
        holder: u16,
        ballot: BallotGen,
    },
    Close(u16),
    Draw {
        item: u16,
        winner: u16,
    },
}

/// How a holder comes to the meeting at the start.
#[derive(Clone, Debug)]
pub enum PlanGen {
    Absent,
    InPerson,
    Agent { agent: PersonGen, capacity: Capacity, role: Option<Role> },
}

fn person() -> impl Strategy<Value = PersonGen> {
    prop_oneof![
        8 => any::<u16>().prop_map(PersonGen::Holder),
        4 => (0..EXTERNAL_AGENTS).prop_map(PersonGen::External),
        1 => Just(PersonGen::Unknown),
    ]
}

fn agent_person() -> impl Strategy<Value = PersonGen> {
    prop_oneof![
        4 => (0..EXTERNAL_AGENTS).prop_map(PersonGen::External),
        1 => any::<u16>().prop_map(PersonGen::Holder),
    ]
}

fn capacity() -> impl Strategy<Value = Capacity> {
    prop_oneof![3 => Just(Capacity::Proxy), 1 => Just(Capacity::LegalRepresentative)]
}

fn agent_role() -> impl Strategy<Value = Option<Role>> {
    prop_oneof![6 => Just(None), 1 => Just(Some(Role::Administrator)), 1 => Just(Some(Role::Employee))]
}

pub fn ballot() -> impl Strategy<Value = BallotGen> {
    prop_oneof![
        6 => Just(BallotGen::Whole(0)),
        10 => any::<u8>().prop_map(BallotGen::Whole),
        1 => Just(BallotGen::UnknownOption),
        3 => (
            vec((any::<u8>(), any::<u8>()), 1..=3),
            prop_oneof![6 => Just(0i8), 1 => Just(1i8), 1 => Just(-1i8)],
            prop_oneof![8 => Just(false), 1 => Just(true)],
        )
            .prop_map(|(parts, skew, unknown_part)| BallotGen::Split { parts, skew, unknown_part }),
    ]
}

pub fn plan() -> impl Strategy<Value = Vec<PlanGen>> {
    let entry = prop_oneof![
        1 => Just(PlanGen::Absent),
        4 => Just(PlanGen::InPerson),
        3 => (agent_person(), capacity(), agent_role())
            .prop_map(|(agent, capacity, role)| PlanGen::Agent { agent, capacity, role }),
    ];
    vec(entry, MAX_HOLDERS)
}

fn agent_step() -> impl Strategy<Value = StepGen> {
    (
        agent_person(),
        vec(any::<u16>(), 1..=3),
        prop_oneof![9 => Just(false), 1 => Just(true)],
        capacity(),
        agent_role(),
    )
        .prop_map(|(agent, principals, unknown_principal, capacity, role)| StepGen::Agent {
            agent,
            principals,
            unknown_principal,
            capacity,
            role,
        })
}

/// Arrivals and departures only.
pub fn comings_and_goings() -> impl Strategy<Value = StepGen> {
    prop_oneof![
        4 => person().prop_map(StepGen::Arrive),
        3 => agent_step(),
        2 => person().prop_map(StepGen::Leave),
    ]
}

/// Any step, mostly ballots.
pub fn any_step() -> impl Strategy<Value = StepGen> {
    prop_oneof![
        80 => (any::<u16>(), any::<u16>(), ballot())
            .prop_map(|(item, holder, ballot)| StepGen::Vote { item, holder, ballot }),
        12 => comings_and_goings(),
        2 => (any::<u16>(), prop_oneof![4 => Just(true), 1 => Just(false)])
            .prop_map(|(item, noticed)| StepGen::Open { item, noticed }),
        1 => any::<u16>().prop_map(StepGen::Close),
        2 => (any::<u16>(), any::<u16>()).prop_map(|(item, winner)| StepGen::Draw { item, winner }),
    ]
}

// ----- concrete steps ------------------------------------------------------

/// A step as the meeting receives it.
#[derive(Clone, Debug)]
pub enum Step {
    ArriveInPerson(String),
    ArriveAgent { agent: String, principals: Vec<String>, capacity: Capacity, role: Option<Role> },
    Leave(String),
    Open { item: usize, noticed: bool, spec: ItemSpec },
    Vote { item: String, holder: String, ballot: Ballot },
    Close(String),
    Draw { item: String, winner: String },
}

impl Step {
    /// Applies the step to the engine.
    pub fn apply(&self, meeting: &mut Meeting) -> Result<(), Refusal> {
        match self {
            Step::ArriveInPerson(holder) => meeting.arrive_in_person(holder),
            Step::ArriveAgent { agent, principals, capacity, role } => {
                let principals: Vec<&str> = principals.iter().map(String::as_str).collect();
                meeting.arrive_as_agent(agent, &principals, *capacity, *role)
            }
            Step::Leave(person) => meeting.leave(person),
            Step::Open { spec, .. } => meeting.open(spec.clone()).map(|_| ()),
            Step::Vote { item, holder, ballot } => meeting.vote(item, holder, ballot),
            Step::Close(item) => meeting.close(item),
            Step::Draw { item, winner } => meeting.draw(item, winner),
        }
    }

    pub fn is_arrival(&self) -> bool {
        matches!(self, Step::ArriveInPerson(_) | Step::ArriveAgent { .. })
    }
}

/// An option by position: the lists then blank on an election; on a
/// decision the same positions are for, against and blank
/// ([`OptionIndex::FOR`] is position 0, and so on).
pub fn option(position: usize) -> OptionIndex {
    OptionIndex::list(position)
}

impl Base {
    fn person_id(&self, person: PersonGen) -> String {
        match person {
            PersonGen::Holder(raw) => Base::holder_id(usize::from(raw) % self.holders.len()),
            PersonGen::External(k) => format!("X{k}"),
            PersonGen::Unknown => UNKNOWN_PERSON.to_string(),
        }
    }

    /// An item position, or `None` for the id that is never opened (one
    /// raw value in sixteen).
    fn item_at(&self, raw: u16) -> Option<usize> {
        (raw % 16 != 15).then(|| usize::from(raw) % self.items.len())
    }

    fn item_name(&self, raw: u16) -> String {
        self.item_at(raw).map_or_else(|| UNKNOWN_ITEM.to_string(), Base::item_id)
    }

    /// Fits a generated ballot to an item and a holder: a split's parts
    /// add up to the holder's shares on the item unless `skew` says not.
    pub fn ballot(&self, k: Option<usize>, h: usize, gen: &BallotGen) -> Ballot {
        let options = k.map_or(3, |k| self.option_count(k));
        let total = k.map_or(0, |k| {
            let (ordinary, preferred) = self.item_shares(h, self.items[k].matter);
            ordinary + preferred
        });
        match gen {
            BallotGen::Whole(raw) => Ballot::Whole(Some(option(usize::from(*raw) % options))),
            BallotGen::UnknownOption => Ballot::Whole(None),
            BallotGen::Split { parts, skew, unknown_part } => {
                let weights: u128 = parts.iter().map(|&(_, w)| u128::from(w)).sum();
                let mut given = 0u64;
                let mut out: Vec<(Option<OptionIndex>, Shares)> = parts
                    .iter()
                    .enumerate()
                    .map(|(i, &(raw, w))| {
                        let share = if i + 1 == parts.len() {
                            total - given
                        } else {
                            let part = (u128::from(total) * u128::from(w)).checked_div(weights).unwrap_or(0);
                            u64::try_from(part).expect("a part of a u64")
                        };
                        given += share;
                        (Some(option(usize::from(raw) % options)), Shares::new(share))
                    })
                    .collect();
                let last = &mut out.last_mut().expect("one part at least").1;
                *last = Shares::new(match skew {
                    1 => last.get().saturating_add(1),
                    -1 => last.get().saturating_sub(1),
                    _ => last.get(),
                });
                if *unknown_part {
                    out[0].0 = None;
                }
                Ballot::Split(out)
            }
        }
    }

    pub fn vote(&self, k: usize, h: usize, gen: &BallotGen) -> Step {
        Step::Vote {
            item: Base::item_id(k),
            holder: Base::holder_id(h),
            ballot: self.ballot(Some(k), h, gen),
        }
    }

    /// Fits a generated step to this register and agenda.
    pub fn step(&self, gen: &StepGen) -> Step {
        let n = self.holders.len();
        match gen {
            StepGen::Arrive(person) => Step::ArriveInPerson(self.person_id(*person)),
            StepGen::Agent { agent, principals, unknown_principal, capacity, role } => {
                let mut names: Vec<String> = Vec::new();
                for &p in principals {
                    let name = Base::holder_id(usize::from(p) % n);
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
                if *unknown_principal {
                    names.push(UNKNOWN_PERSON.to_string());
                }
                Step::ArriveAgent {
                    agent: self.person_id(*agent),
                    principals: names,
                    capacity: *capacity,
                    role: *role,
                }
            }
            StepGen::Leave(person) => Step::Leave(self.person_id(*person)),
            StepGen::Open { item, noticed } => {
                let k = usize::from(*item) % self.items.len();
                Step::Open { item: k, noticed: *noticed, spec: self.spec(k, *noticed) }
            }
            StepGen::Vote { item, holder, ballot } => {
                let h = usize::from(*holder) % n;
                Step::Vote {
                    item: self.item_name(*item),
                    holder: Base::holder_id(h),
                    ballot: self.ballot(self.item_at(*item), h, ballot),
                }
            }
            StepGen::Close(item) => Step::Close(self.item_name(*item)),
            StepGen::Draw { item, winner } => {
                let winner = match self.item_at(*item) {
                    Some(k) if self.items[k].matter.is_election() => {
                        let lists = self.items[k].lists;
                        let w = usize::from(*winner) % (lists + 2);
                        match w {
                            w if w < lists => Base::list_name(w),
                            w if w == lists => "blank".to_string(),
                            _ => "nobody".to_string(),
                        }
                    }
                    _ => "for".to_string(),
                };
                Step::Draw { item: self.item_name(*item), winner }
            }
        }
    }

    /// The arrivals of a presence plan: holders in person first, then each
    /// agent's principals, up to three per arrival.
    pub fn arrivals(&self, plan: &[PlanGen]) -> Vec<Step> {
        let mut steps = Vec::new();
        let mut groups: BTreeMap<(String, &'static str, Option<&'static str>), Vec<String>> = BTreeMap::new();
        for (h, entry) in plan.iter().take(self.holders.len()).enumerate() {
            match entry {
                PlanGen::Absent => {}
                PlanGen::InPerson => steps.push(Step::ArriveInPerson(Base::holder_id(h))),
                PlanGen::Agent { agent, capacity, role } => groups
                    .entry((self.person_id(*agent), capacity.code(), role.map(Role::code)))
                    .or_default()
                    .push(Base::holder_id(h)),
            }
        }
        for ((agent, capacity, role), principals) in groups {
            for chunk in principals.chunks(3) {
                steps.push(Step::ArriveAgent {
                    agent: agent.clone(),
                    principals: chunk.to_vec(),
                    capacity: Capacity::from_code(capacity).expect("a capacity code"),
                    role: role.and_then(Role::from_code),
                });
            }
        }
        steps
    }

    /// Opening every item, noticed.
    pub fn opens(&self) -> Vec<Step> {
        (0..self.items.len())
            .map(|k| Step::Open { item: k, noticed: true, spec: self.spec(k, true) })
            .collect()
    }

    pub fn closes(&self) -> Vec<Step> {
        (0..self.items.len()).map(|k| Step::Close(Base::item_id(k))).collect()
    }
}

// ----- what a meeting shows ------------------------------------------------

/// Everything a meeting shows: the quorum reading, every holder's channel
/// (with its agent's id), and every item's outcome, result, turnout and
/// who voted.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub quorum: QuorumReading,
    pub channels: Vec<(Channel, Option<String>)>,
    pub items: Vec<ItemSnapshot>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ItemSnapshot {
    pub id: String,
    pub outcome: Outcome,
    pub result: Option<ItemResult>,
    pub ballots: u32,
    pub voted: Vec<bool>,
}

impl Snapshot {
    pub fn of(meeting: &Meeting) -> Snapshot {
        let channels = meeting
            .register()
            .iter()
            .map(|(at, _)| {
                let channel = meeting.presence().channel(at);
                let agent = match channel {
                    Channel::Agent { agent, .. } => Some(meeting.presence().agent_id(agent).to_string()),
                    _ => None,
                };
                (channel, agent)
            })
            .collect();
        let items = meeting
            .items()
            .iter()
            .map(|item| ItemSnapshot {
                id: item.id().to_string(),
                outcome: item.outcome(),
                result: item.result().cloned(),
                ballots: item.ballots(),
                voted: meeting.register().iter().map(|(at, _)| item.has_voted(at)).collect(),
            })
            .collect();
        Snapshot { quorum: meeting.quorum(), channels, items }
    }
}
