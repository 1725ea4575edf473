//! A naive reference meeting, written from `shared/rules.md` and
//! `shared/scenarios/FORMAT.md` without looking at how the engine keeps its
//! state: holders by id, channels as plain values, ballots in a map, and
//! every figure recomputed by scanning the whole register. It answers each
//! step with the refusal FORMAT.md orders first, and each closed item with
//! the figures FORMAT.md prints.

use std::cmp::Reverse;
use std::collections::BTreeMap;

use asamblea_rules::{
    Ballot, Call, Capacity, DecisionBase, ItemResult, MatterKind, MeetingKind, Outcome, QuorumRule, Refusal,
    Register, SplitPermission,
};

use crate::support::{Base, Flavor, Step};

/// How a holder is present.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chan {
    Absent,
    InPerson,
    Agent { agent: String, capacity: Capacity, administrator_or_employee: bool },
}

/// The figures FORMAT.md prints for a closed item, in plain integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Figures {
    Decision {
        outcome: Outcome,
        quorum_at_close: bool,
        present: u64,
        impeded: u64,
        base: u64,
        for_votes: u64,
        against: u64,
        blank: u64,
        abstain: u64,
        holders_for: u32,
        for_by_class: Option<(u64, u64)>,
        withdrawal: Option<Vec<String>>,
    },
    Election {
        outcome: Outcome,
        quorum_at_close: bool,
        valid: u64,
        blank: u64,
        votes: Vec<u64>,
        seats: Option<Vec<u32>>,
        lot_between: Vec<usize>,
        seats_to_draw: u32,
        vacant: u32,
        base: u64,
    },
}

impl Figures {
    /// The engine's result in the same terms.
    pub fn of(result: &ItemResult, register: &Register) -> Figures {
        match result {
            ItemResult::Decision(d) => Figures::Decision {
                outcome: d.outcome,
                quorum_at_close: d.quorum_at_close,
                present: d.present.get(),
                impeded: d.impeded.get(),
                base: d.base.get(),
                for_votes: d.for_votes.get(),
                against: d.against.get(),
                blank: d.blank.get(),
                abstain: d.abstain.get(),
                holders_for: d.holders_for,
                for_by_class: d.for_by_class.map(|c| (c.ordinary.get(), c.preferred.get())),
                withdrawal: d
                    .withdrawal
                    .as_ref()
                    .map(|list| list.iter().map(|&h| register.holder(h).id().to_string()).collect()),
            },
            ItemResult::Election(e) => Figures::Election {
                outcome: e.outcome,
                quorum_at_close: e.quorum_at_close,
                valid: e.valid.get(),
                blank: e.blank.get(),
                votes: e.votes.iter().map(|v| v.get()).collect(),
                seats: e.seats.clone(),
                lot_between: e.lot_between.clone(),
                seats_to_draw: e.seats_to_draw,
                vacant: e.vacant,
                base: e.base.get(),
            },
        }
    }

    pub fn outcome(&self) -> Outcome {
        match self {
            Figures::Decision { outcome, .. } | Figures::Election { outcome, .. } => *outcome,
        }
    }
}

/// The majority FORMAT.md "Majorities" gives a matter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    Simple,
    Percent(u128, bool),
    TwoClass(u128),
    Quotient,
    SingleSeat,
}

/// An opened item.
#[derive(Clone, Debug)]
struct OpenItem {
    /// Holder → the (option, shares) parts of its ballot.
    ballots: BTreeMap<usize, Vec<(usize, u64)>>,
    result: Option<Figures>,
}

/// The reference meeting.
pub struct Model<'a> {
    base: &'a Base,
    pub channels: Vec<Chan>,
    items: Vec<Option<OpenItem>>,
}

impl<'a> Model<'a> {
    pub fn new(base: &'a Base) -> Model<'a> {
        Model { base, channels: vec![Chan::Absent; base.holders.len()], items: vec![None; base.items.len()] }
    }

    fn lookup(&self, id: &str) -> Option<usize> {
        (0..self.base.holders.len()).find(|&h| Base::holder_id(h) == id)
    }

    fn item_position(&self, id: &str) -> Option<usize> {
        (0..self.base.items.len()).find(|&k| Base::item_id(k) == id && self.items[k].is_some())
    }

    fn almagrario_bylaws(&self) -> bool {
        self.base.flavor == Flavor::Almagrario && !self.base.settings.listed
    }

    // ----- figures ---------------------------------------------------------

    /// `S_v`: outstanding ordinary shares, plus preferred under full vote.
    pub fn voting_outstanding(&self) -> u128 {
        let outstanding = self.base.outstanding();
        let preferred = if self.base.settings.preferred_full_vote { outstanding.preferred.get() } else { 0 };
        u128::from(outstanding.ordinary.get()) + u128::from(preferred)
    }

    /// A holder's weight in `P` (and whether it counts in `H`).
    fn weight(&self, h: usize) -> u128 {
        let holder = &self.base.holders[h];
        let preferred = if self.base.settings.preferred_full_vote { holder.preferred } else { 0 };
        u128::from(holder.ordinary) + u128::from(preferred)
    }

    /// `P` and `H` over a set of holders.
    fn count(&self, holders: impl Iterator<Item = usize>) -> (u128, u32) {
        let mut shares = 0;
        let mut count = 0;
        for h in holders {
            let w = self.weight(h);
            shares += w;
            count += u32::from(w > 0);
        }
        (shares, count)
    }

    /// `P` and `H` now.
    pub fn presence(&self) -> (u128, u32) {
        self.count((0..self.base.holders.len()).filter(|&h| self.channels[h] != Chan::Absent))
    }

    fn share_test(&self, present: u128) -> bool {
        let s_v = self.voting_outstanding();
        match self.base.settings.quorum {
            QuorumRule::MoreThanHalf => 2 * present > s_v,
            QuorumRule::HalfPlusOne => 2 * present >= s_v + 2,
        }
    }

    /// The quorum over `P` and `H`, with or without the share test.
    fn quorum(&self, (present, holders): (u128, u32), share_test: bool) -> bool {
        holders >= 2 && (!share_test || self.share_test(present))
    }

    /// `(first_call, this_call)` now.
    pub fn quorum_now(&self) -> (bool, bool) {
        let now = self.presence();
        (self.quorum(now, true), self.quorum(now, self.base.call == Call::First))
    }

    fn needs_share_test(&self, matter: MatterKind) -> bool {
        self.base.call == Call::First || (self.almagrario_bylaws() && matter == MatterKind::BylawAmendment)
    }

    fn rule(&self, matter: MatterKind) -> Rule {
        use MatterKind::*;
        match matter {
            ProfitDistributionBelowMinimum => Rule::Percent(78, true),
            IssueWithoutPreemptiveRights => Rule::Percent(70, false),
            StockDividend => Rule::Percent(80, false),
            SuspendMeeting => Rule::Percent(51, true),
            PreferredAdverseChange | PreferredConversion => Rule::TwoClass(70),
            CapitalIncrease | ProfitDistribution if self.almagrario_bylaws() => Rule::Percent(70, false),
            RemoveAdministrators
                if self.almagrario_bylaws() && self.base.kind == MeetingKind::Extraordinary =>
            {
                Rule::Percent(70, false)
            }
            BoardElection => Rule::Quotient,
            SingleSeatElection => Rule::SingleSeat,
            _ => Rule::Simple,
        }
    }

    fn barred_matter(matter: MatterKind) -> bool {
        matches!(matter, MatterKind::FinancialStatements | MatterKind::LiquidationAccounts)
    }

    fn preferred_matter(matter: MatterKind) -> bool {
        matches!(matter, MatterKind::PreferredAdverseChange | MatterKind::PreferredConversion)
    }

    fn withdrawal_matter(matter: MatterKind) -> bool {
        use MatterKind::*;
        matches!(matter, Merger | SpinOff | Transformation | Delisting)
    }

    fn notice_gated(&self, matter: MatterKind) -> bool {
        use MatterKind::*;
        matches!(
            matter,
            CapitalIncrease | CapitalReduction | Segregation | SpinOff | Merger | Transformation | Delisting
        ) || (self.base.flavor == Flavor::Almagrario && matter == IssueWithoutPreemptiveRights)
    }

    /// R10 with OQ4: an administrator or employee holder, or shares an
    /// administrator or employee carries as legal representative.
    fn impeded(&self, h: usize) -> bool {
        self.base.holders[h].role.is_some()
            || (self.base.settings.legal_representative_impeded
                && matches!(
                    self.channels[h],
                    Chan::Agent {
                        capacity: Capacity::LegalRepresentative,
                        administrator_or_employee: true,
                        ..
                    }
                ))
    }

    fn item_total(&self, h: usize, matter: MatterKind) -> u64 {
        let (ordinary, preferred) = self.base.item_shares(h, matter);
        ordinary + preferred
    }

    // ----- steps -----------------------------------------------------------

    pub fn apply(&mut self, step: &Step) -> Result<(), Refusal> {
        match step {
            Step::ArriveInPerson(id) => {
                let h = self.lookup(id).ok_or(Refusal::UnknownHolder)?;
                if self.channels[h] != Chan::Absent {
                    return Err(Refusal::AlreadyPresent);
                }
                self.channels[h] = Chan::InPerson;
                Ok(())
            }
            Step::ArriveAgent { agent, principals, capacity, role } => {
                let mut holders = Vec::new();
                for p in principals {
                    holders.push(self.lookup(p).ok_or(Refusal::UnknownHolder)?);
                }
                let agent_holder = self.lookup(agent);
                let administrator_or_employee =
                    role.is_some() || agent_holder.is_some_and(|a| self.base.holders[a].role.is_some());
                let carries_others = holders.iter().any(|&p| Some(p) != agent_holder);
                if administrator_or_employee && carries_others && *capacity == Capacity::Proxy {
                    return Err(Refusal::ProxyAgentBarred);
                }
                if holders.iter().any(|&p| self.channels[p] != Chan::Absent) {
                    return Err(Refusal::AlreadyPresent);
                }
                for p in holders {
                    self.channels[p] = if Some(p) == agent_holder {
                        Chan::InPerson
                    } else {
                        Chan::Agent { agent: agent.clone(), capacity: *capacity, administrator_or_employee }
                    };
                }
                Ok(())
            }
            Step::Leave(person) => {
                let mut left = false;
                for channel in &mut self.channels {
                    if matches!(channel, Chan::Agent { agent, .. } if agent == person) {
                        *channel = Chan::Absent;
                        left = true;
                    }
                }
                if let Some(h) = self.lookup(person) {
                    if self.channels[h] != Chan::Absent {
                        self.channels[h] = Chan::Absent;
                        left = true;
                    }
                }
                if left {
                    Ok(())
                } else {
                    Err(Refusal::NotPresent)
                }
            }
            Step::Open { item: k, noticed, .. } => {
                let k = *k;
                let matter = self.base.items[k].matter;
                if self.items[k].is_some() {
                    return Err(Refusal::ItemAlreadyDecided);
                }
                let now = self.presence();
                let universal = self.voting_outstanding() > 0 && now.0 == self.voting_outstanding();
                if !noticed && !universal {
                    let extraordinary = self.base.kind == MeetingKind::Extraordinary
                        && matter != MatterKind::RemoveAdministrators;
                    if self.notice_gated(matter) || extraordinary {
                        return Err(Refusal::NotInNotice);
                    }
                }
                if !self.quorum(now, self.needs_share_test(matter)) {
                    return Err(Refusal::NoQuorum);
                }
                self.items[k] = Some(OpenItem { ballots: BTreeMap::new(), result: None });
                Ok(())
            }
            Step::Vote { item, holder, ballot } => self.vote(item, holder, ballot),
            Step::Close(item) => {
                let k = self.item_position(item).ok_or(Refusal::UnknownItem)?;
                if self.items[k].as_ref().expect("opened").result.is_some() {
                    return Err(Refusal::ItemClosed);
                }
                let figures = self.close(k);
                self.items[k].as_mut().expect("opened").result = Some(figures);
                Ok(())
            }
            Step::Draw { item, winner } => {
                let k = self.item_position(item).ok_or(Refusal::UnknownItem)?;
                let lists = self.base.items[k].lists;
                let winner = (0..lists).find(|&i| Base::list_name(i) == *winner);
                let Some(Figures::Election { outcome, seats, lot_between, seats_to_draw, .. }) =
                    &mut self.items[k].as_mut().expect("opened").result
                else {
                    return Err(Refusal::NoLotPending);
                };
                if *outcome != Outcome::LotRequired {
                    return Err(Refusal::NoLotPending);
                }
                let Some(winner) = winner.filter(|w| lot_between.contains(w)) else {
                    return Err(Refusal::UnknownOption);
                };
                seats.as_mut().expect("seats on a lot")[winner] += 1;
                lot_between.retain(|&l| l != winner);
                *seats_to_draw -= 1;
                if *seats_to_draw == 0 {
                    lot_between.clear();
                    *outcome = Outcome::Elected;
                }
                Ok(())
            }
        }
    }

    fn vote(&mut self, item: &str, holder: &str, ballot: &Ballot) -> Result<(), Refusal> {
        let k = self.item_position(item).ok_or(Refusal::UnknownItem)?;
        if self.items[k].as_ref().expect("opened").result.is_some() {
            return Err(Refusal::ItemClosed);
        }
        let h = self.lookup(holder).ok_or(Refusal::UnknownHolder)?;
        if self.channels[h] == Chan::Absent {
            return Err(Refusal::NotPresent);
        }
        let matter = self.base.items[k].matter;
        let (ordinary, preferred) = self.base.item_shares(h, matter);
        let total = ordinary + preferred;
        if total == 0 || (Model::barred_matter(matter) && self.impeded(h)) {
            return Err(Refusal::NotEligible);
        }
        if self.items[k].as_ref().expect("opened").ballots.contains_key(&h) {
            return Err(Refusal::AlreadyVoted);
        }
        let options = self.base.option_count(k);
        let parts = match ballot {
            Ballot::Whole(None) => return Err(Refusal::UnknownOption),
            Ballot::Whole(Some(option)) if option.get() >= options => return Err(Refusal::UnknownOption),
            Ballot::Whole(Some(option)) => vec![(option.get(), total)],
            Ballot::Split(parts) => {
                let allowed = match self.base.holders[h].split {
                    Some(SplitPermission::Dismembered) => true,
                    Some(SplitPermission::OmnibusCustodian) => self.base.settings.split_custodians,
                    None => false,
                };
                let both_classes = ordinary > 0 && preferred > 0;
                if !allowed || (Model::preferred_matter(matter) && both_classes) || parts.is_empty() {
                    return Err(Refusal::SplitNotAllowed);
                }
                let mut seen = Vec::new();
                let mut sum = 0u128;
                for (option, shares) in parts {
                    match option {
                        Some(o) if o.get() < options && !seen.contains(&o.get()) => seen.push(o.get()),
                        _ => return Err(Refusal::SplitNotAllowed),
                    }
                    sum += u128::from(shares.get());
                }
                if sum != u128::from(total) {
                    return Err(Refusal::SplitNotAllowed);
                }
                parts.iter().map(|(o, s)| (o.expect("checked").get(), s.get())).collect()
            }
        };
        self.items[k].as_mut().expect("opened").ballots.insert(h, parts);
        Ok(())
    }

    /// The figures of item `k` closing now.
    fn close(&self, k: usize) -> Figures {
        let matter = self.base.items[k].matter;
        let item = self.items[k].as_ref().expect("opened");
        let n = self.base.holders.len();
        // Who counts at the close: present now, or cast a ballot and left.
        let counted: Vec<usize> =
            (0..n).filter(|&h| self.channels[h] != Chan::Absent || item.ballots.contains_key(&h)).collect();
        let quorum_at_close = self.quorum(self.count(counted.iter().copied()), self.needs_share_test(matter));
        let present: u64 = counted.iter().map(|&h| self.item_total(h, matter)).sum();
        let impeded: u64 = counted
            .iter()
            .filter(|&&h| Model::barred_matter(matter) && !item.ballots.contains_key(&h) && self.impeded(h))
            .map(|&h| self.item_total(h, matter))
            .sum();
        let eligible = present - impeded;
        let options = self.base.option_count(k);
        let mut totals = vec![0u64; options];
        for parts in item.ballots.values() {
            for &(option, shares) in parts {
                totals[option] += shares;
            }
        }
        let cast: u64 = totals.iter().sum();

        if matter.is_election() {
            let lists = self.base.items[k].lists;
            let votes = totals[..lists].to_vec();
            let blank = totals[lists];
            let mut figures = Figures::Election {
                outcome: Outcome::NoQuorum,
                quorum_at_close,
                valid: cast,
                blank,
                votes: votes.clone(),
                seats: None,
                lot_between: Vec::new(),
                seats_to_draw: 0,
                vacant: 0,
                base: 0,
            };
            if !quorum_at_close {
                return figures;
            }
            let Figures::Election { outcome, seats, lot_between, seats_to_draw, vacant, base, .. } =
                &mut figures
            else {
                unreachable!()
            };
            match self.rule(matter) {
                Rule::SingleSeat => {
                    let e = match self.base.settings.base {
                        DecisionBase::Present => eligible,
                        DecisionBase::Cast => cast,
                    };
                    *base = e;
                    let mut won = vec![0; lists];
                    *outcome = Outcome::Fail;
                    if let Some(w) = (0..lists).find(|&i| 2 * u128::from(votes[i]) > u128::from(e)) {
                        won[w] = 1;
                        *outcome = Outcome::Elected;
                    }
                    *seats = Some(won);
                }
                _ => match naive_apportion(&votes, blank, self.base.items[k].seats) {
                    None => {
                        *outcome = Outcome::Fail;
                        *seats = Some(vec![0; lists]);
                    }
                    Some(a) => {
                        *outcome =
                            if a.lot_between.is_empty() { Outcome::Elected } else { Outcome::LotRequired };
                        *seats = Some(a.seats);
                        *lot_between = a.lot_between;
                        *seats_to_draw = a.seats_to_draw;
                        *vacant = a.vacant;
                    }
                },
            }
            return figures;
        }

        let [for_votes, against, blank] = [totals[0], totals[1], totals[2]];
        let holders_for =
            item.ballots.values().filter(|parts| parts.iter().any(|&(o, s)| o == 0 && s > 0)).count() as u32;
        // For votes by class: a whole ballot carries both classes of the
        // holder's item shares; a split on a preferred item holds one class.
        let mut for_by_class = (0u64, 0u64);
        for (&h, parts) in &item.ballots {
            let (ordinary, preferred) = self.base.item_shares(h, matter);
            for &(_, shares) in parts.iter().filter(|&&(o, _)| o == 0) {
                if shares == ordinary + preferred {
                    for_by_class.0 += ordinary;
                    for_by_class.1 += preferred;
                } else if preferred == 0 {
                    for_by_class.0 += shares;
                } else {
                    for_by_class.1 += shares;
                }
            }
        }
        let outstanding = self.base.outstanding();
        let rule = self.rule(matter);
        let e = match (rule, self.base.settings.base) {
            (Rule::TwoClass(_), _) => outstanding.ordinary.get() + outstanding.preferred.get(),
            (_, DecisionBase::Present) => eligible,
            (_, DecisionBase::Cast) => cast,
        };
        let (f, e128) = (u128::from(for_votes), u128::from(e));
        let outcome = if !quorum_at_close {
            Outcome::NoQuorum
        } else if Model::barred_matter(matter) && eligible == 0 {
            Outcome::AllImpeded
        } else if e == 0 {
            Outcome::Fail
        } else {
            let pass = match rule {
                Rule::Simple => 2 * f > e128,
                Rule::Percent(p, plural) => 100 * f >= p * e128 && (!plural || holders_for >= 2),
                Rule::TwoClass(p) => {
                    let (fo, fp) = (u128::from(for_by_class.0), u128::from(for_by_class.1));
                    100 * (fo + fp) >= p * e128 && 100 * fp >= p * u128::from(outstanding.preferred.get())
                }
                Rule::Quotient | Rule::SingleSeat => unreachable!("a decision"),
            };
            if pass {
                Outcome::Pass
            } else {
                Outcome::Fail
            }
        };
        let withdrawal = Model::withdrawal_matter(matter).then(|| {
            let mut ids: Vec<String> = (0..n)
                .filter(|&h| {
                    let absent = self.channels[h] == Chan::Absent && !item.ballots.contains_key(&h);
                    let against =
                        item.ballots.get(&h).is_some_and(|p| p.iter().any(|&(o, s)| o == 1 && s > 0));
                    (absent && self.item_total(h, matter) > 0) || against
                })
                .map(Base::holder_id)
                .collect();
            ids.sort();
            ids
        });
        Figures::Decision {
            outcome,
            quorum_at_close,
            present,
            impeded,
            base: e,
            for_votes,
            against,
            blank,
            abstain: eligible - cast,
            holders_for,
            for_by_class: Model::preferred_matter(matter).then_some(for_by_class),
            withdrawal,
        }
    }

    /// The reference's figures of item `k`, once closed.
    pub fn figures(&self, k: usize) -> Option<&Figures> {
        self.items[k].as_ref().and_then(|i| i.result.as_ref())
    }

    pub fn opened(&self, k: usize) -> bool {
        self.items[k].is_some()
    }

    pub fn ballots(&self, k: usize) -> usize {
        self.items[k].as_ref().map_or(0, |i| i.ballots.len())
    }

    pub fn has_voted(&self, k: usize, h: usize) -> bool {
        self.items[k].as_ref().is_some_and(|i| i.ballots.contains_key(&h))
    }
}

/// Largest remainders as C.Co Art. 197 reads: seats by whole quotient, then
/// the lists with votes, grouped by remainder from the largest down, take
/// one seat each while a whole group fits; a group that does not fit goes
/// to a lot; seats left when every list with votes has its remainder seat
/// stay vacant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaiveApportionment {
    pub seats: Vec<u32>,
    pub lot_between: Vec<usize>,
    pub seats_to_draw: u32,
    pub vacant: u32,
}

pub fn naive_apportion(votes: &[u64], blank: u64, seats: u32) -> Option<NaiveApportionment> {
    let valid: u128 = votes.iter().map(|&v| u128::from(v)).sum::<u128>() + u128::from(blank);
    if valid == 0 {
        return None;
    }
    let n = u128::from(seats);
    let mut won: Vec<u32> = votes.iter().map(|&v| (u128::from(v) * n / valid) as u32).collect();
    let mut left = seats - won.iter().sum::<u32>();
    let mut groups: BTreeMap<Reverse<u128>, Vec<usize>> = BTreeMap::new();
    for (i, &v) in votes.iter().enumerate().filter(|&(_, &v)| v > 0) {
        groups.entry(Reverse(u128::from(v) * n % valid)).or_default().push(i);
    }
    let mut lot_between = Vec::new();
    let mut seats_to_draw = 0;
    for group in groups.into_values() {
        if left == 0 {
            break;
        }
        if group.len() as u32 <= left {
            for &i in &group {
                won[i] += 1;
            }
            left -= group.len() as u32;
        } else {
            lot_between = group;
            seats_to_draw = left;
            left = 0;
        }
    }
    Some(NaiveApportionment { seats: won, lot_between, seats_to_draw, vacant: left })
}
