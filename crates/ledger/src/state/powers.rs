//! Powers of attorney lodged before the meeting, as the ledger holds them
//! (`power-lodged`, `power-revoked`; `docs/ledger-format.md` §3.19–3.20):
//! which principals each accepted power covers, which were revoked and
//! why, and which an agent or a substitute came to carry.

use std::collections::HashMap;

use asamblea_rules::powers::{check_power, PowerRefusal, Tie};
use asamblea_rules::{HolderIndex, Meeting, SessionState};
use asamblea_wire::{AgentArrival, Id, LodgedPower, Revocation};

use super::Rejection;

/// A lodged power with what happened to it since.
#[derive(Clone, Debug)]
pub struct PowerRecord {
    /// The number of its `power-lodged` record.
    pub seq: u64,
    /// The power as lodged, with its verdict.
    pub power: LodgedPower,
    /// The principals it no longer covers: who, why, and the record.
    pub revoked: Vec<(Id, Revocation, u64)>,
    /// The principals an arrival carried under it: who, the person who
    /// carried them, whether that person was a substitute, the record.
    pub used: Vec<(Id, Id, bool, u64)>,
}

impl PowerRecord {
    /// Whether the desk accepted it.
    pub fn accepted(&self) -> bool {
        self.power.verdict.is_none()
    }

    /// Whether it was revoked for `principal`.
    pub fn revoked_for(&self, principal: &str) -> Option<Revocation> {
        self.revoked.iter().find(|(p, _, _)| p.as_str() == principal).map(|(_, why, _)| *why)
    }

    /// Whether `person` may carry it: its agent or one of its substitutes
    /// (`Some(true)` for a substitute).
    pub fn carrier(&self, person: &str) -> Option<bool> {
        if self.power.agent.as_ref().is_some_and(|a| a.as_str() == person) {
            Some(false)
        } else if self.power.substitutes.iter().any(|s| s.id.as_str() == person) {
            Some(true)
        } else {
            None
        }
    }
}

/// Every lodged power, in the order lodged.
#[derive(Default)]
pub struct Powers {
    list: Vec<PowerRecord>,
    by_id: HashMap<String, usize>,
    /// The accepted, unrevoked power covering each principal: one at most
    /// (R2: one channel per holder).
    covering: HashMap<HolderIndex, usize>,
    /// The powers naming each person as agent or substitute.
    by_carrier: HashMap<String, Vec<usize>>,
}

impl Powers {
    /// Every power lodged, in order.
    pub fn all(&self) -> &[PowerRecord] {
        &self.list
    }

    /// The power of this reference.
    pub fn get(&self, power: &str) -> Option<&PowerRecord> {
        self.by_id.get(power).map(|&at| &self.list[at])
    }

    /// The accepted power that covers `holder` now, if any.
    pub fn covering(&self, holder: HolderIndex) -> Option<&PowerRecord> {
        self.covering.get(&holder).map(|&at| &self.list[at])
    }

    /// The powers naming `person` as agent or substitute, accepted or not,
    /// in the order lodged.
    pub fn carried_by(&self, person: &str) -> impl Iterator<Item = &PowerRecord> {
        self.by_carrier.get(person).into_iter().flatten().map(|&at| &self.list[at])
    }

    /// The name the lodged powers give `person` as their agent or a
    /// substitute: an accepted power's first, else any's; `None` when no
    /// power names them by name.
    pub fn name_of(&self, person: &str) -> Option<&str> {
        fn named<'a>(record: &'a PowerRecord, person: &str) -> Option<&'a str> {
            let p = &record.power;
            let name = if p.agent.as_ref().is_some_and(|a| a.as_str() == person) {
                p.agent_name.as_str()
            } else {
                p.substitutes.iter().find(|s| s.id.as_str() == person).map_or("", |s| s.name.as_str())
            };
            (!name.trim().is_empty()).then_some(name)
        }
        self.carried_by(person)
            .filter(|record| record.accepted())
            .find_map(|record| named(record, person))
            .or_else(|| self.carried_by(person).find_map(|record| named(record, person)))
    }

    /// Everyone named as agent or substitute by a lodged power.
    pub fn carriers(&self) -> impl Iterator<Item = &str> {
        self.by_carrier.keys().map(String::as_str)
    }

    /// Checks a `power-lodged` against the rules and records it.
    pub(super) fn lodge(
        &mut self,
        meeting: &Meeting,
        sessions: SessionState,
        power: &LodgedPower,
        seq: u64,
    ) -> Result<(), Rejection> {
        if sessions != SessionState::NotInstalled {
            return Err(Rejection::OutOfPlace(
                "los poderes se radican antes de instalar la reunión; después, el apoderado los presenta en la mesa / \
                 powers are lodged before the meeting is installed; after it, the agent shows them at the desk",
            ));
        }
        if self.by_id.contains_key(power.power.as_str()) {
            return Err(Rejection::PowerInUse(power.power.as_str().to_string()));
        }
        let principals: Vec<&str> = power.principals.iter().map(Id::as_str).collect();
        let substitutes: Vec<(&str, Tie)> =
            power.substitutes.iter().map(|s| (s.id.as_str(), s.tie)).collect();
        let terms = power.terms(&principals, &substitutes);
        let actual = check_power(
            meeting.register(),
            meeting.settings().listed,
            |h| self.covering.contains_key(&h),
            &terms,
        );
        let covered = match (power.verdict, actual) {
            (None, Ok(covered)) => covered,
            (Some(recorded), _) if recorded.is_judgement() => Vec::new(),
            (Some(recorded), Err(actual)) if recorded == actual => Vec::new(),
            (recorded, actual) => {
                return Err(Rejection::PowerVerdictMismatch {
                    recorded: recorded.map_or("accepted", PowerRefusal::code),
                    actual: actual.err(),
                })
            }
        };
        let at = self.list.len();
        for holder in covered {
            self.covering.insert(holder, at);
        }
        let carriers = power.agent.iter().chain(power.substitutes.iter().map(|s| &s.id));
        for person in carriers {
            self.by_carrier.entry(person.as_str().to_string()).or_default().push(at);
        }
        self.by_id.insert(power.power.as_str().to_string(), at);
        self.list.push(PowerRecord { seq, power: power.clone(), revoked: Vec::new(), used: Vec::new() });
        Ok(())
    }

    /// Checks a `power-revoked` and records it: the power stops covering
    /// the principal.
    pub(super) fn revoke(
        &mut self,
        meeting: &Meeting,
        power: &Id,
        principal: &Id,
        reason: Revocation,
        seq: u64,
    ) -> Result<(), Rejection> {
        let not_covering = || Rejection::PowerNotCovering {
            power: power.as_str().to_string(),
            principal: principal.as_str().to_string(),
        };
        let &at = self.by_id.get(power.as_str()).ok_or_else(not_covering)?;
        let record = &self.list[at];
        if !record.accepted()
            || !record.power.principals.contains(principal)
            || record.revoked_for(principal.as_str()).is_some()
        {
            return Err(not_covering());
        }
        if let Some(holder) = meeting.register().lookup(principal.as_str()) {
            self.covering.remove(&holder);
        }
        self.list[at].revoked.push((principal.clone(), reason, seq));
        Ok(())
    }

    /// Notes which principals of an admitted agent's arrival came under a
    /// lodged power naming the agent or a substitute.
    pub(super) fn arrived(&mut self, meeting: &Meeting, arrival: &AgentArrival, seq: u64) {
        for principal in &arrival.principals {
            let Some(holder) = meeting.register().lookup(principal.as_str()) else { continue };
            let Some(&at) = self.covering.get(&holder) else { continue };
            if let Some(substitute) = self.list[at].carrier(arrival.agent.as_str()) {
                self.list[at].used.push((principal.clone(), arrival.agent.clone(), substitute, seq));
            }
        }
    }
}
