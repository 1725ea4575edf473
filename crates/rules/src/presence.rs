//! Who is in the room: holders in person and through agents (R2, R12).
//!
//! Each holder has at most one channel at a time. Agents are people, known
//! by an id that may or may not be a holder's; an agent leaving takes its
//! principals out. `P` and `H` (voting shares and distinct holders present)
//! are kept incrementally so a quorum reading costs nothing.

use std::collections::HashMap;

use crate::register::HolderIndex;
use crate::shares::Shares;

/// In what capacity an agent represents a holder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capacity {
    /// Apoderado under a written power (C.Co Art. 184).
    Proxy,
    /// Representante legal of a holder company; the only way an
    /// administrator or employee may carry others' shares (C.Co Art. 185).
    LegalRepresentative,
}

impl Capacity {
    /// The code used in files.
    pub const fn code(self) -> &'static str {
        match self {
            Capacity::Proxy => "proxy",
            Capacity::LegalRepresentative => "legal-representative",
        }
    }
    /// The capacity of a code, if it is one.
    pub fn from_code(code: &str) -> Option<Capacity> {
        match code {
            "proxy" => Some(Capacity::Proxy),
            "legal-representative" => Some(Capacity::LegalRepresentative),
            _ => None,
        }
    }
}

/// How one holder is present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// Not present.
    Absent,
    /// In person (or an agent who is the holder, for its own shares).
    InPerson,
    /// Through an agent.
    Agent {
        /// The agent.
        agent: AgentIndex,
        /// In what capacity.
        capacity: Capacity,
        /// The agent is an administrator or employee.
        agent_is_administrator_or_employee: bool,
    },
}

/// An agent's position in the meeting's agent table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AgentIndex(u32);

#[derive(Clone, Debug)]
struct Agent {
    id: Box<str>,
    /// The holders this agent carries now; emptied when the agent leaves.
    principals: Vec<HolderIndex>,
}

/// The presence of every holder, with `P` and `H` kept up to date.
#[derive(Clone, Debug)]
pub struct Presence {
    channels: Vec<Channel>,
    agents: Vec<Agent>,
    agent_index: HashMap<Box<str>, AgentIndex>,
    /// `P`: voting shares present.
    voting_shares: Shares,
    /// `H`: present holders that have voting shares.
    voting_holders: u32,
}

impl Presence {
    /// Everyone absent.
    pub(crate) fn new(holders: usize) -> Presence {
        Presence {
            channels: vec![Channel::Absent; holders],
            agents: Vec::new(),
            agent_index: HashMap::new(),
            voting_shares: Shares::ZERO,
            voting_holders: 0,
        }
    }

    /// How a holder is present.
    pub fn channel(&self, holder: HolderIndex) -> Channel {
        self.channels[holder.get()]
    }

    /// True when the holder is present by any channel.
    pub fn is_present(&self, holder: HolderIndex) -> bool {
        self.channels[holder.get()] != Channel::Absent
    }

    /// `P`: voting shares present now.
    pub fn voting_shares(&self) -> Shares {
        self.voting_shares
    }

    /// `H`: distinct holders with voting shares present now (R12).
    pub fn voting_holders(&self) -> u32 {
        self.voting_holders
    }

    /// The id of an agent.
    pub fn agent_id(&self, agent: AgentIndex) -> &str {
        &self.agents[agent.0 as usize].id
    }

    /// The agent of this id, creating it if new.
    pub(crate) fn agent(&mut self, id: &str) -> AgentIndex {
        if let Some(&at) = self.agent_index.get(id) {
            return at;
        }
        let at = AgentIndex(u32::try_from(self.agents.len()).expect("fewer agents than u32::MAX"));
        self.agents.push(Agent { id: id.into(), principals: Vec::new() });
        self.agent_index.insert(id.into(), at);
        at
    }

    /// Marks an absent holder present; `weight` is its voting shares.
    pub(crate) fn enter(&mut self, holder: HolderIndex, channel: Channel, weight: Shares) {
        debug_assert_eq!(self.channels[holder.get()], Channel::Absent);
        debug_assert_ne!(channel, Channel::Absent);
        if let Channel::Agent { agent, .. } = channel {
            self.agents[agent.0 as usize].principals.push(holder);
        }
        self.channels[holder.get()] = channel;
        self.count(weight, true);
    }

    /// Takes every principal of the agent `id` out; returns them, or an
    /// empty list when no such agent carries anyone.
    pub(crate) fn agent_leaves(&mut self, id: &str) -> Vec<HolderIndex> {
        let Some(&at) = self.agent_index.get(id) else { return Vec::new() };
        let principals = std::mem::take(&mut self.agents[at.0 as usize].principals);
        for &holder in &principals {
            self.channels[holder.get()] = Channel::Absent;
        }
        principals
    }

    /// Takes one present holder out, ending its channel.
    pub(crate) fn holder_leaves(&mut self, holder: HolderIndex, weight: Shares) {
        if let Channel::Agent { agent, .. } = self.channels[holder.get()] {
            self.agents[agent.0 as usize].principals.retain(|&p| p != holder);
        }
        self.channels[holder.get()] = Channel::Absent;
        self.count(weight, false);
    }

    /// Adjusts `P` and `H` for a holder of `weight` voting shares coming in
    /// or going out.
    pub(crate) fn count(&mut self, weight: Shares, entering: bool) {
        if weight.is_zero() {
            return;
        }
        if entering {
            self.voting_shares += weight;
            self.voting_holders += 1;
        } else {
            self.voting_shares = self.voting_shares - weight;
            self.voting_holders -= 1;
        }
    }
}
