//! The meeting: a fold of arrivals, departures, polls, ballots, closes and
//! lot draws over the register and the bylaws profile.
//!
//! Every operation either applies completely or returns a [`Refusal`] and
//! changes nothing. The checks run in the order scenarios/FORMAT.md fixes,
//! so the first refusal that applies is the one reported.

use std::collections::HashMap;

use crate::election::apportion;
use crate::item::{
    Ballot, BallotOptions, DecisionResult, ElectionResult, Item, ItemIndex, ItemResult, ItemSpec,
    OptionIndex, Outcome, VOTED, VOTED_AGAINST,
};
use crate::presence::{Capacity, Channel, Presence};
use crate::profile::{Call, DecisionBase, Majority, MatterRules, MeetingKind, Profile, Settings};
use crate::refusal::Refusal;
use crate::register::{HolderIndex, Register, Role, SplitPermission};
use crate::shares::{ClassShares, Shares};

/// One meeting's state.
#[derive(Clone, Debug)]
pub struct Meeting {
    register: Register,
    /// The bylaws profile with this meeting's settings applied.
    profile: Profile,
    kind: MeetingKind,
    call: Call,
    presence: Presence,
    /// `S_v`: outstanding voting shares, the quorum denominator (R3, R13).
    voting_outstanding: Shares,
    items: Vec<Item>,
    /// Item id to position; an id once opened stays here for good (R16).
    item_index: HashMap<Box<str>, ItemIndex>,
    /// The quorum at every poll's open and close, in order (R3).
    quorum_series: Vec<QuorumPoint>,
}

/// When a reading of the quorum was taken: a poll opening or closing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PollMoment {
    /// The poll opened (after the quorum was checked).
    Opened,
    /// The poll closed.
    Closed,
}

/// The quorum as it stood when a poll opened or closed: the record of its
/// continuity that Decreto 398/2020 asks of the minutes (R3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuorumPoint {
    /// The item whose poll opened or closed.
    pub item: ItemIndex,
    /// Opened or closed.
    pub moment: PollMoment,
    /// The quorum then.
    pub quorum: QuorumReading,
    /// Who was present then, by share class.
    pub by_class: ClassPresence,
}

/// An agent's arrival as judged: who it carries, and how.
struct Arrival {
    principals: Vec<HolderIndex>,
    agent_as_holder: Option<HolderIndex>,
    agent_is_ae: bool,
    carries_others: bool,
}

/// A reading of the quorum now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuorumReading {
    /// `P`: voting shares present.
    pub present: Shares,
    /// `H`: distinct holders present with voting shares.
    pub holders: u32,
    /// `S_v`: outstanding voting shares.
    pub voting_outstanding: Shares,
    /// Whether the first-call quorum (plural holders and the OQ1 test) is
    /// met.
    pub first_call: bool,
    /// Whether the quorum of this meeting's call is met for ordinary
    /// matters.
    pub this_call: bool,
}

/// Who is present in each share class: shares and distinct holders
/// ([`Meeting::presence_by_class`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassPresence {
    /// Shares present, by class (all of them, voting or not).
    pub shares: ClassShares,
    /// Holders present with ordinary shares.
    pub ordinary_holders: u32,
    /// Holders present with preferred shares.
    pub preferred_holders: u32,
}

impl Meeting {
    /// A meeting with nobody present yet.
    pub fn new(register: Register, profile: Profile, kind: MeetingKind, call: Call) -> Meeting {
        let settings = profile.settings();
        let outstanding = register.capital().outstanding();
        let voting_outstanding =
            if settings.preferred_full_vote { outstanding.total() } else { outstanding.ordinary };
        let presence = Presence::new(register.len());
        Meeting {
            register,
            profile,
            kind,
            call,
            presence,
            voting_outstanding,
            items: Vec::new(),
            item_index: HashMap::new(),
            quorum_series: Vec::new(),
        }
    }

    /// The register.
    pub fn register(&self) -> &Register {
        &self.register
    }

    /// The profile in force, with this meeting's settings.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The settings in force.
    pub fn settings(&self) -> Settings {
        self.profile.settings()
    }

    /// Ordinary or extraordinary.
    pub fn kind(&self) -> MeetingKind {
        self.kind
    }

    /// First call, second call or own right.
    pub fn call(&self) -> Call {
        self.call
    }

    /// Who is present.
    pub fn presence(&self) -> &Presence {
        &self.presence
    }

    /// Who votes the shares of the holder at `at` now: the holder itself,
    /// present in person; the agent who carries them; or nobody, when
    /// they are absent.
    pub fn voter_of(&self, at: HolderIndex) -> Option<&str> {
        match self.presence.channel(at) {
            Channel::Absent => None,
            Channel::InPerson => Some(self.register.holder(at).id()),
            Channel::Agent { agent, .. } => Some(self.presence.agent_id(agent)),
        }
    }

    /// The holders whose shares `person` votes now (itself in person, or
    /// an agent's principals), in register order. The one answer to
    /// "whom does this badge carry" for the desk, the kiosk and the
    /// documents.
    pub fn carried_by<'a>(&'a self, person: &'a str) -> impl Iterator<Item = HolderIndex> + 'a {
        self.register.iter().map(|(at, _)| at).filter(move |&at| self.voter_of(at) == Some(person))
    }

    /// The items opened so far, in opening order.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// The item at a position.
    pub fn item(&self, at: ItemIndex) -> &Item {
        &self.items[at.get()]
    }

    /// The shares `holder` votes with on `item`: ordinary always, preferred
    /// on the matters listed for them or under full vote (R13). What a
    /// ballot for that holder weighs.
    pub fn shares_on(&self, item: ItemIndex, holder: HolderIndex) -> Shares {
        let rules = self.profile.matter(self.items[item.get()].spec.matter);
        item_shares(self.register.holder(holder).holdings(), rules, self.profile.settings()).total()
    }

    /// The quorum at every poll's open and close so far, in order.
    pub fn quorum_series(&self) -> &[QuorumPoint] {
        &self.quorum_series
    }

    /// The quorum and the presence by class now, as a point of the series.
    fn quorum_point(&self, item: ItemIndex, moment: PollMoment) -> QuorumPoint {
        QuorumPoint { item, moment, quorum: self.quorum(), by_class: self.presence_by_class() }
    }

    /// The position of an item id, once opened.
    pub fn item_index(&self, id: &str) -> Option<ItemIndex> {
        self.item_index.get(id).copied()
    }

    /// The quorum now.
    pub fn quorum(&self) -> QuorumReading {
        let present = self.presence.voting_shares();
        let holders = self.presence.voting_holders();
        let first_call = self.quorum_met(present, holders, true);
        let this_call = self.quorum_met(present, holders, self.call == Call::First);
        QuorumReading { present, holders, voting_outstanding: self.voting_outstanding, first_call, this_call }
    }

    /// Whether a poll is open on any item (opened and not closed).
    pub fn poll_open(&self) -> bool {
        self.items.iter().any(|item| !item.is_closed())
    }

    /// Whether every outstanding share, of every class, is present or
    /// represented: the meeting may then sit beyond three days (C.Co Art.
    /// 430) and needed no notice (Art. 426).
    pub fn all_outstanding_represented(&self) -> bool {
        let present = self.presence_by_class().shares;
        let outstanding = self.register.capital().outstanding();
        present.ordinary >= outstanding.ordinary && present.preferred >= outstanding.preferred
    }

    /// The shares and holders present in each class, by one pass over the
    /// register: what the desk, the board and the acta show beside the
    /// quorum (which counts voting shares only: preferred shares count
    /// toward it only with `preferred_full_vote`).
    pub fn presence_by_class(&self) -> ClassPresence {
        let mut out = ClassPresence::default();
        for (at, holder) in self.register.iter() {
            if !self.presence.is_present(at) {
                continue;
            }
            let held = holder.holdings();
            if !held.ordinary.is_zero() {
                out.shares.ordinary += held.ordinary;
                out.ordinary_holders += 1;
            }
            if !held.preferred.is_zero() {
                out.shares.preferred += held.preferred;
                out.preferred_holders += 1;
            }
        }
        out
    }

    // ----- presence -------------------------------------------------------

    /// A holder arrives in person.
    pub fn arrive_in_person(&mut self, holder: &str) -> Result<(), Refusal> {
        let at = self.judge_arrival_in_person(holder)?;
        self.presence.enter(at, Channel::InPerson, self.voting_weight(at));
        Ok(())
    }

    /// Whether [`Meeting::arrive_in_person`] would admit `holder` now,
    /// changing nothing (the desk asks before it confirms).
    pub fn check_arrival_in_person(&self, holder: &str) -> Result<(), Refusal> {
        self.judge_arrival_in_person(holder).map(drop)
    }

    fn judge_arrival_in_person(&self, holder: &str) -> Result<HolderIndex, Refusal> {
        let at = self.register.lookup(holder).ok_or(Refusal::UnknownHolder)?;
        if self.presence.is_present(at) {
            return Err(Refusal::AlreadyPresent);
        }
        Ok(at)
    }

    /// An agent arrives carrying `principals`. The agent is an
    /// administrator or employee when `declared_role` says so or when the
    /// agent is a holder with a role; such an agent may carry others' shares
    /// only as a legal representative (C.Co Art. 185, R2). An agent who is a
    /// holder may list itself: its own shares count as in person.
    pub fn arrive_as_agent(
        &mut self,
        agent: &str,
        principals: &[&str],
        capacity: Capacity,
        declared_role: Option<Role>,
    ) -> Result<(), Refusal> {
        let arrival = self.judge_arrival(agent, principals, declared_role, capacity)?;
        let agent_index = if arrival.carries_others { Some(self.presence.agent(agent)) } else { None };
        for p in arrival.principals {
            let channel = match agent_index {
                Some(agent) if Some(p) != arrival.agent_as_holder => Channel::Agent {
                    agent,
                    capacity,
                    agent_is_administrator_or_employee: arrival.agent_is_ae,
                },
                _ => Channel::InPerson,
            };
            self.presence.enter(p, channel, self.voting_weight(p));
        }
        Ok(())
    }

    /// Whether [`Meeting::arrive_as_agent`] would accept this arrival,
    /// changing nothing (a recorded refusal is checked this way).
    pub fn check_arrival(
        &self,
        agent: &str,
        principals: &[&str],
        capacity: Capacity,
        declared_role: Option<Role>,
    ) -> Result<(), Refusal> {
        self.judge_arrival(agent, principals, declared_role, capacity).map(drop)
    }

    fn judge_arrival(
        &self,
        agent: &str,
        principals: &[&str],
        declared_role: Option<Role>,
        capacity: Capacity,
    ) -> Result<Arrival, Refusal> {
        let resolved = principals
            .iter()
            .map(|p| self.register.lookup(p).ok_or(Refusal::UnknownHolder))
            .collect::<Result<Vec<_>, _>>()?;
        let agent_as_holder = self.register.lookup(agent);
        let agent_is_ae = declared_role.is_some()
            || agent_as_holder.is_some_and(|h| self.register.holder(h).role().is_some());
        let carries_others = resolved.iter().any(|&p| Some(p) != agent_as_holder);
        if agent_is_ae && carries_others && capacity == Capacity::Proxy {
            return Err(Refusal::ProxyAgentBarred);
        }
        for (i, &p) in resolved.iter().enumerate() {
            if self.presence.is_present(p) || resolved[..i].contains(&p) {
                return Err(Refusal::AlreadyPresent);
            }
        }
        Ok(Arrival { principals: resolved, agent_as_holder, agent_is_ae, carries_others })
    }

    /// A person leaves: an agent takes all its principals out; a holder
    /// present in person or through an agent leaves (that channel ends).
    pub fn leave(&mut self, person: &str) -> Result<(), Refusal> {
        let mut left = false;
        for holder in self.presence.agent_leaves(person) {
            let weight = self.voting_weight(holder);
            self.presence.count(weight, false);
            left = true;
        }
        if let Some(at) = self.register.lookup(person) {
            if self.presence.is_present(at) {
                self.presence.holder_leaves(at, self.voting_weight(at));
                left = true;
            }
        }
        if left {
            Ok(())
        } else {
            Err(Refusal::NotPresent)
        }
    }

    // ----- polls ----------------------------------------------------------

    /// Opens a poll. Refused when the id was opened before (R16), when the
    /// matter needed the notice (R17), or without quorum (R3, R4).
    pub fn open(&mut self, spec: ItemSpec) -> Result<ItemIndex, Refusal> {
        self.check_open(&spec)?;
        let matter = spec.matter;
        let first_call_quorum = self.profile.needs_first_call_quorum(matter, self.call);
        let options = match &spec.options {
            BallotOptions::Decision => 3,
            BallotOptions::Election { lists, .. } => lists.len() + 1,
        };
        let at = ItemIndex(u32::try_from(self.items.len()).expect("fewer items than u32::MAX"));
        self.item_index.insert(spec.id.clone(), at);
        self.items.push(Item {
            majority: self.profile.effective_majority(matter, self.kind),
            first_call_quorum,
            quorum_at_open: true,
            marks: vec![0; self.register.len()],
            totals: vec![Shares::ZERO; options],
            for_by_class: ClassShares::default(),
            holders_for: 0,
            ballots: 0,
            result: None,
            spec,
        });
        let point = self.quorum_point(at, PollMoment::Opened);
        self.quorum_series.push(point);
        Ok(at)
    }

    /// Whether [`Meeting::open`] would open `spec`, changing nothing: the
    /// refusal it would give, in FORMAT.md's order.
    pub fn check_open(&self, spec: &ItemSpec) -> Result<(), Refusal> {
        if self.item_index.contains_key(&spec.id) {
            return Err(Refusal::ItemAlreadyDecided);
        }
        let matter = spec.matter;
        let rules = *self.profile.matter(matter);
        let universal =
            !self.voting_outstanding.is_zero() && self.presence.voting_shares() == self.voting_outstanding;
        if !spec.noticed && !universal {
            let extraordinary_refuses =
                self.kind == MeetingKind::Extraordinary && !matter.allowed_unnoticed_in_extraordinary();
            if rules.notice_required || extraordinary_refuses {
                return Err(Refusal::NotInNotice);
            }
        }
        let first_call_quorum = self.profile.needs_first_call_quorum(matter, self.call);
        if !self.quorum_met(self.presence.voting_shares(), self.presence.voting_holders(), first_call_quorum)
        {
            return Err(Refusal::NoQuorum);
        }
        Ok(())
    }

    /// A ballot, by ids and option names, with every check in FORMAT.md's
    /// order.
    pub fn vote(&mut self, item: &str, holder: &str, ballot: &Ballot) -> Result<(), Refusal> {
        let item = self.item_index(item).ok_or(Refusal::UnknownItem)?;
        if self.items[item.get()].is_closed() {
            return Err(Refusal::ItemClosed);
        }
        let holder = self.register.lookup(holder).ok_or(Refusal::UnknownHolder)?;
        self.cast(item, holder, ballot)
    }

    /// A ballot by positions: the hot path. Judged by
    /// [`Meeting::check_cast`], then counted.
    pub fn cast(&mut self, item: ItemIndex, holder: HolderIndex, ballot: &Ballot) -> Result<(), Refusal> {
        let shares = self.judge(item, holder, ballot)?;
        self.count(item, holder, ballot, shares);
        Ok(())
    }

    /// Whether [`Meeting::cast`] would accept this ballot, changing nothing.
    /// A ballot for several holders (an agent's) is accepted whole or not
    /// at all by checking each holder's part first.
    pub fn check_cast(&self, item: ItemIndex, holder: HolderIndex, ballot: &Ballot) -> Result<(), Refusal> {
        self.judge(item, holder, ballot).map(drop)
    }

    /// Every check of a ballot, in FORMAT.md's order; the holder's shares
    /// on the item when it is accepted.
    fn judge(&self, item: ItemIndex, holder: HolderIndex, ballot: &Ballot) -> Result<ClassShares, Refusal> {
        let settings = self.profile.settings();
        let entry = &self.items[item.get()];
        if entry.is_closed() {
            return Err(Refusal::ItemClosed);
        }
        let channel = self.presence.channel(holder);
        if channel == Channel::Absent {
            return Err(Refusal::NotPresent);
        }
        let record = self.register.holder(holder);
        let rules = self.profile.matter(entry.spec.matter);
        let shares = item_shares(record.holdings(), rules, settings);
        if shares.total().is_zero()
            || (rules.administrators_barred && impeded(record.role(), channel, settings))
        {
            return Err(Refusal::NotEligible);
        }
        if entry.marks[holder.get()] & VOTED != 0 {
            return Err(Refusal::AlreadyVoted);
        }
        let options = entry.totals.len();
        match ballot {
            Ballot::Whole(option) => match option {
                Some(option) if option.get() < options => Ok(shares),
                _ => Err(Refusal::UnknownOption),
            },
            Ballot::Split(parts) => {
                let allowed = match record.split() {
                    Some(SplitPermission::Dismembered) => true,
                    Some(SplitPermission::OmnibusCustodian) => settings.split_custodians,
                    None => false,
                };
                let both_classes = !shares.ordinary.is_zero() && !shares.preferred.is_zero();
                if !allowed || (rules.preferred_votes && both_classes) || parts.is_empty() {
                    return Err(Refusal::SplitNotAllowed);
                }
                let mut sum: u128 = 0;
                for (i, (option, part)) in parts.iter().enumerate() {
                    let Some(option) = option else { return Err(Refusal::SplitNotAllowed) };
                    if option.get() >= options || parts[..i].iter().any(|(o, _)| o == &Some(*option)) {
                        return Err(Refusal::SplitNotAllowed);
                    }
                    sum += part.wide();
                }
                if sum != shares.total().wide() {
                    return Err(Refusal::SplitNotAllowed);
                }
                Ok(shares)
            }
        }
    }

    /// Adds a judged ballot to the item's running totals.
    fn count(&mut self, item: ItemIndex, holder: HolderIndex, ballot: &Ballot, shares: ClassShares) {
        let entry = &mut self.items[item.get()];
        let is_decision = matches!(entry.spec.options, BallotOptions::Decision);
        let mut mark = VOTED;
        let mut add = |option: OptionIndex, part: Shares, by_class: ClassShares| {
            entry.totals[option.get()] += part;
            if is_decision && option == OptionIndex::FOR && !part.is_zero() {
                entry.holders_for += 1;
                entry.for_by_class.ordinary += by_class.ordinary;
                entry.for_by_class.preferred += by_class.preferred;
            }
            if is_decision && option == OptionIndex::AGAINST && !part.is_zero() {
                mark |= VOTED_AGAINST;
            }
        };
        match ballot {
            Ballot::Whole(option) => add(option.expect("judged"), shares.total(), shares),
            Ballot::Split(parts) => {
                for (option, part) in parts {
                    // A split on a preferred item holds one class only
                    // (judge refuses two), so the part is that class's.
                    let by_class = if shares.ordinary.is_zero() {
                        ClassShares::new(Shares::ZERO, *part)
                    } else {
                        ClassShares::new(*part, Shares::ZERO)
                    };
                    add(option.expect("judged"), *part, by_class);
                }
            }
        }
        entry.marks[holder.get()] = mark;
        entry.ballots += 1;
    }

    /// Closes a poll and computes its result.
    pub fn close(&mut self, item: &str) -> Result<(), Refusal> {
        let at = self.item_index(item).ok_or(Refusal::UnknownItem)?;
        if self.items[at.get()].is_closed() {
            return Err(Refusal::ItemClosed);
        }
        let result = self.result_at_close(&self.items[at.get()]);
        self.items[at.get()].result = Some(result);
        let point = self.quorum_point(at, PollMoment::Closed);
        self.quorum_series.push(point);
        Ok(())
    }

    /// Records a lot draw (suerte, R15): one seat to `winner`, who must be
    /// among the tied lists.
    pub fn draw(&mut self, item: &str, winner: &str) -> Result<(), Refusal> {
        let at = self.item_index(item).ok_or(Refusal::UnknownItem)?;
        let entry = &mut self.items[at.get()];
        let option = entry.option(winner);
        let Some(ItemResult::Election(result)) = &mut entry.result else { return Err(Refusal::NoLotPending) };
        if result.outcome != Outcome::LotRequired {
            return Err(Refusal::NoLotPending);
        }
        let position = option
            .and_then(|o| result.lot_between.iter().position(|&l| l == o.get()))
            .ok_or(Refusal::UnknownOption)?;
        let list = result.lot_between.remove(position);
        if let Some(seats) = &mut result.seats {
            seats[list] += 1;
        }
        result.seats_to_draw -= 1;
        if result.seats_to_draw == 0 {
            result.lot_between.clear();
            result.outcome = Outcome::Elected;
        }
        Ok(())
    }

    // ----- figures --------------------------------------------------------

    /// A holder's weight for `P` and `H`: ordinary shares, plus preferred
    /// ones under `preferred_full_vote` (R13).
    fn voting_weight(&self, holder: HolderIndex) -> Shares {
        let holdings = self.register.holder(holder).holdings();
        if self.profile.settings().preferred_full_vote {
            holdings.total()
        } else {
            holdings.ordinary
        }
    }

    /// Plural holders (R12), and the first-call share test when it applies
    /// (R3, R4).
    fn quorum_met(&self, present: Shares, holders: u32, first_call_test: bool) -> bool {
        holders >= 2
            && (!first_call_test || self.profile.settings().quorum.met(present, self.voting_outstanding))
    }

    fn result_at_close(&self, item: &Item) -> ItemResult {
        let settings = self.profile.settings();
        let rules = self.profile.matter(item.spec.matter);
        // Holders who count at the close: present now, or voted and left.
        let mut quorum_shares = Shares::ZERO;
        let mut quorum_holders = 0u32;
        let mut present = Shares::ZERO;
        let mut impeded_shares = Shares::ZERO;
        let mut withdrawal = rules.withdrawal.then(Vec::new);
        for (at, holder) in self.register.iter() {
            let mark = item.marks[at.get()];
            let channel = self.presence.channel(at);
            let shares = item_shares(holder.holdings(), rules, settings).total();
            if mark & VOTED == 0 && channel == Channel::Absent {
                if let Some(list) = &mut withdrawal {
                    if !shares.is_zero() {
                        list.push(at);
                    }
                }
                continue;
            }
            if mark & VOTED_AGAINST != 0 {
                if let Some(list) = &mut withdrawal {
                    list.push(at);
                }
            }
            let weight = self.voting_weight(at);
            if !weight.is_zero() {
                quorum_shares += weight;
                quorum_holders += 1;
            }
            present += shares;
            // A holder who voted was eligible when it voted.
            if mark & VOTED == 0 && rules.administrators_barred && impeded(holder.role(), channel, settings) {
                impeded_shares += shares;
            }
        }
        let quorum_at_close = self.quorum_met(quorum_shares, quorum_holders, item.first_call_quorum);
        let eligible_present = present - impeded_shares;

        match &item.spec.options {
            BallotOptions::Decision => {
                let [for_votes, against, blank] = [item.totals[0], item.totals[1], item.totals[2]];
                let cast = for_votes + against + blank;
                let outstanding = self.register.capital().outstanding();
                let base = match (item.majority, settings.base) {
                    (Majority::TwoClassSubscribed { .. }, _) => outstanding.total(),
                    (_, DecisionBase::Present) => eligible_present,
                    (_, DecisionBase::Cast) => cast,
                };
                let outcome = if !quorum_at_close {
                    Outcome::NoQuorum
                } else if rules.administrators_barred && eligible_present.is_zero() {
                    Outcome::AllImpeded
                } else if base.is_zero() {
                    Outcome::Fail
                } else if passes(
                    item.majority,
                    for_votes,
                    base,
                    item.holders_for,
                    item.for_by_class,
                    outstanding,
                ) {
                    Outcome::Pass
                } else {
                    Outcome::Fail
                };
                if let Some(list) = &mut withdrawal {
                    list.sort_by(|a, b| self.register.holder(*a).id().cmp(self.register.holder(*b).id()));
                }
                ItemResult::Decision(DecisionResult {
                    outcome,
                    quorum_at_close,
                    present,
                    impeded: impeded_shares,
                    base,
                    for_votes,
                    against,
                    blank,
                    abstain: eligible_present.saturating_sub(cast),
                    holders_for: item.holders_for,
                    for_by_class: rules.preferred_votes.then_some(item.for_by_class),
                    withdrawal,
                })
            }
            BallotOptions::Election { seats, lists } => {
                let votes = item.totals[..lists.len()].to_vec();
                let blank = item.totals[lists.len()];
                let valid: Shares = item.totals.iter().copied().sum();
                let mut result = ElectionResult {
                    outcome: Outcome::NoQuorum,
                    quorum_at_close,
                    valid,
                    blank,
                    votes,
                    seats: None,
                    lot_between: Vec::new(),
                    seats_to_draw: 0,
                    vacant: 0,
                    base: Shares::ZERO,
                };
                if !quorum_at_close {
                    return ItemResult::Election(result);
                }
                let mut won = vec![0u32; lists.len()];
                match item.majority {
                    Majority::SingleSeat => {
                        let base = match settings.base {
                            DecisionBase::Present => eligible_present,
                            DecisionBase::Cast => valid,
                        };
                        result.base = base;
                        let winner = result.votes.iter().position(|v| 2 * v.wide() > base.wide());
                        match winner {
                            Some(w) if !base.is_zero() => {
                                won[w] = 1;
                                result.outcome = Outcome::Elected;
                            }
                            _ => result.outcome = Outcome::Fail,
                        }
                    }
                    _ => match apportion(&result.votes, blank, *seats) {
                        None => result.outcome = Outcome::Fail,
                        Some(apportionment) => {
                            won = apportionment.seats;
                            result.outcome = if apportionment.lot_between.is_empty() {
                                Outcome::Elected
                            } else {
                                Outcome::LotRequired
                            };
                            result.lot_between = apportionment.lot_between;
                            result.seats_to_draw = apportionment.seats_to_draw;
                            result.vacant = apportionment.vacant;
                        }
                    },
                }
                result.seats = Some(won);
                ItemResult::Election(result)
            }
        }
    }
}

/// The shares of a holding that vote on a matter: ordinary always;
/// preferred on the matters listed for them or under full vote (R13).
fn item_shares(holdings: ClassShares, rules: &MatterRules, settings: Settings) -> ClassShares {
    let preferred =
        if rules.preferred_votes || settings.preferred_full_vote { holdings.preferred } else { Shares::ZERO };
    ClassShares::new(holdings.ordinary, preferred)
}

/// Whether a present holder's shares are impeded on R10 matters: the holder
/// is an administrator or employee (even through a third party, R2), or an
/// administrator or employee carries them as legal representative (OQ4).
fn impeded(role: Option<Role>, channel: Channel, settings: Settings) -> bool {
    role.is_some()
        || (settings.legal_representative_impeded
            && matches!(
                channel,
                Channel::Agent {
                    capacity: Capacity::LegalRepresentative,
                    agent_is_administrator_or_employee: true,
                    ..
                }
            ))
}

/// The majority tests of R9 and R11, in integers.
fn passes(
    majority: Majority,
    for_votes: Shares,
    base: Shares,
    holders_for: u32,
    for_by_class: ClassShares,
    outstanding: ClassShares,
) -> bool {
    let f = for_votes.wide();
    let e = base.wide();
    match majority {
        Majority::Simple => 2 * f > e,
        Majority::AtLeastPercent { percent, plural } => {
            100 * f >= u128::from(percent) * e && (!plural || holders_for >= 2)
        }
        Majority::TwoClassSubscribed { percent } => {
            let p = u128::from(percent);
            100 * (for_by_class.ordinary.wide() + for_by_class.preferred.wide())
                >= p * outstanding.total().wide()
                && 100 * for_by_class.preferred.wide() >= p * outstanding.preferred.wide()
        }
        Majority::ElectoralQuotient | Majority::SingleSeat => {
            unreachable!("elections are not decided by a decision majority")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn majority() -> impl Strategy<Value = Majority> {
        prop_oneof![
            Just(Majority::Simple),
            (1u8..=100, any::<bool>())
                .prop_map(|(percent, plural)| Majority::AtLeastPercent { percent, plural }),
        ]
    }

    proptest! {
        /// The threshold the chair reads is exactly the kernel's test: the
        /// fewest votes for that pass, one fewer fails (shares above 2^32
        /// included).
        #[test]
        fn for_votes_needed_is_the_boundary_of_passes(m in majority(), base in 1u64..u64::MAX, small in any::<bool>()) {
            let base = if small { base % 10_000 + 1 } else { base };
            let needed = m.for_votes_needed(Shares::new(base)).unwrap().get();
            let pass = |f: u64| passes(m, Shares::new(f), Shares::new(base), 2, ClassShares::default(), ClassShares::default());
            prop_assert!(needed > 0);
            if needed <= base { prop_assert!(pass(needed)); }
            prop_assert!(!pass(needed - 1));
        }
    }

    #[test]
    fn for_votes_needed_at_known_points() {
        let needed = |m: Majority, e: u64| m.for_votes_needed(Shares::new(e)).unwrap().get();
        assert_eq!(needed(Majority::Simple, 100), 51);
        assert_eq!(needed(Majority::Simple, 101), 51);
        assert_eq!(needed(Majority::AtLeastPercent { percent: 78, plural: true }, 1_000), 780);
        assert_eq!(needed(Majority::AtLeastPercent { percent: 78, plural: true }, 1_001), 781);
        assert_eq!(needed(Majority::AtLeastPercent { percent: 100, plural: false }, u64::MAX), u64::MAX);
        assert_eq!(Majority::ElectoralQuotient.for_votes_needed(Shares::new(9)), None);
    }
}
