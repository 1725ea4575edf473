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
}

mod arrivals;
mod figures;
mod polls;

use figures::{impeded, item_shares};

#[cfg(test)]
mod tests;
