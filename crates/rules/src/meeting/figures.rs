//! The figures behind the decisions: voting weight, quorum, the shares
//! that vote on a matter, the majority tests, and each item's result at
//! its close.

use super::*;

impl Meeting {
    /// A holder's weight for `P` and `H`: ordinary shares, plus preferred
    /// ones under `preferred_full_vote` (R13).
    pub(super) fn voting_weight(&self, holder: HolderIndex) -> Shares {
        let holdings = self.register.holder(holder).holdings();
        if self.profile.settings().preferred_full_vote {
            holdings.total()
        } else {
            holdings.ordinary
        }
    }

    /// Plural holders (R12), and the first-call share test when it applies
    /// (R3, R4).
    pub(super) fn quorum_met(&self, present: Shares, holders: u32, first_call_test: bool) -> bool {
        holders >= 2
            && (!first_call_test || self.profile.settings().quorum.met(present, self.voting_outstanding))
    }

    pub(super) fn result_at_close(&self, item: &Item) -> ItemResult {
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
pub(super) fn item_shares(holdings: ClassShares, rules: &MatterRules, settings: Settings) -> ClassShares {
    let preferred =
        if rules.preferred_votes || settings.preferred_full_vote { holdings.preferred } else { Shares::ZERO };
    ClassShares::new(holdings.ordinary, preferred)
}

/// Whether a present holder's shares are impeded on R10 matters: the holder
/// is an administrator or employee (even through a third party, R2), or an
/// administrator or employee carries them as legal representative (OQ4).
pub(super) fn impeded(role: Option<Role>, channel: Channel, settings: Settings) -> bool {
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
pub(super) fn passes(
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
