//! Who is present: arrivals in person and by agent, and departures, each
//! judged before it changes anything.

use super::*;

impl Meeting {
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

    pub(super) fn judge_arrival_in_person(&self, holder: &str) -> Result<HolderIndex, Refusal> {
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

    pub(super) fn judge_arrival(
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
}
