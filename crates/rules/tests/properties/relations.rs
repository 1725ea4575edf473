//! Relational properties that need no reference: the order of ballots
//! never matters, a refused ballot never matters, and arrivals never take
//! a quorum away.

use std::collections::BTreeMap;

use asamblea_rules::{Ballot, Capacity, Channel, Meeting, Refusal, Shares};
use proptest::collection::vec;
use proptest::prelude::*;

use crate::support::{
    ballot, base, comings_and_goings, config, option, plan, BallotGen, Base, PlanGen, Snapshot, Step,
    MAX_HOLDERS, MAX_ITEMS, UNKNOWN_ITEM, UNKNOWN_PERSON,
};

/// A meeting whose ballots form one block: arrivals, every item opened,
/// then at most one ballot per holder and item (in a permuted order, by
/// `keys`), then every item closed.
#[derive(Clone, Debug)]
struct Block {
    base: Base,
    plan: Vec<PlanGen>,
    /// Slot `k * MAX_HOLDERS + h`: holder `h`'s ballot on item `k`, if any.
    ballots: Vec<Option<BallotGen>>,
    keys: Vec<u32>,
}

fn block() -> impl Strategy<Value = Block> {
    (
        base(),
        plan(),
        vec(prop_oneof![1 => Just(None), 4 => ballot().prop_map(Some)], MAX_HOLDERS * MAX_ITEMS),
        vec(any::<u32>(), MAX_HOLDERS * MAX_ITEMS),
    )
        .prop_map(|(base, plan, ballots, keys)| Block { base, plan, ballots, keys })
}

impl Block {
    fn prefix(&self) -> Vec<Step> {
        let mut steps = self.base.arrivals(&self.plan);
        steps.extend(self.base.opens());
        steps
    }

    /// The ballots with their slots, in slot order.
    fn ballots(&self) -> Vec<(usize, Step)> {
        let mut out = Vec::new();
        for k in 0..self.base.items.len() {
            for h in 0..self.base.holders.len() {
                let slot = k * MAX_HOLDERS + h;
                if let Some(gen) = &self.ballots[slot] {
                    out.push((slot, self.base.vote(k, h, gen)));
                }
            }
        }
        out
    }

    fn permuted(&self) -> Vec<(usize, Step)> {
        let mut ballots = self.ballots();
        ballots.sort_by_key(|(slot, _)| (self.keys[*slot], *slot));
        ballots
    }
}

/// Applies steps, expecting nothing; the answers of the ballots by slot.
fn replay_ballots(meeting: &mut Meeting, ballots: &[(usize, Step)]) -> BTreeMap<usize, Result<(), Refusal>> {
    ballots.iter().map(|(slot, step)| (*slot, step.apply(meeting))).collect()
}

fn replay(meeting: &mut Meeting, steps: &[Step]) {
    for step in steps {
        let _ = step.apply(meeting);
    }
}

/// What kind of refused ballot to slip in, and where.
#[derive(Clone, Debug)]
struct Intruder {
    kind: u8,
    pick: u16,
    item: u16,
    position: u16,
}

fn intruder() -> impl Strategy<Value = Intruder> {
    (0u8..8, any::<u16>(), any::<u16>(), any::<u16>()).prop_map(|(kind, pick, item, position)| Intruder {
        kind,
        pick,
        item,
        position,
    })
}

/// A ballot the rules must refuse in the meeting's present state, and the
/// refusal expected when it is certain. Kinds: 0 a second ballot, 1 an
/// absent holder, 2 an ineligible holder (R10, R13), 3 an option not on
/// the ballot, 4 a split by a holder not allowed to split, 5 an item never
/// opened, 6 a holder not in the register, 7 a closed item (slipped in
/// after the closes). A kind with no candidate falls back to 3.
fn refused_ballot(meeting: &Meeting, base: &Base, intruder: &Intruder) -> (Step, Option<Refusal>) {
    let n = base.holders.len();
    let k = usize::from(intruder.item) % base.items.len();
    let item = meeting.item_index(&Base::item_id(k));
    let holders: Vec<usize> = (0..n).map(|i| (i + usize::from(intruder.pick)) % n).collect();
    let present =
        |h: usize| meeting.presence().is_present(meeting.register().lookup(&Base::holder_id(h)).unwrap());
    let fallback = || {
        let h = holders[0];
        let step =
            Step::Vote { item: Base::item_id(k), holder: Base::holder_id(h), ballot: Ballot::Whole(None) };
        (step, None)
    };
    let unopened = |step: Step, code: Refusal| {
        let code = if item.is_none() { Refusal::UnknownItem } else { code };
        (step, Some(code))
    };
    let whole_for = Ballot::Whole(Some(option(0)));
    match intruder.kind {
        0 => {
            let Some(at) = item else { return fallback() };
            let voted = holders.iter().copied().find(|&h| {
                meeting.item(at).has_voted(meeting.register().lookup(&Base::holder_id(h)).unwrap())
            });
            match voted {
                Some(h) => (base.vote(k, h, &BallotGen::Whole(1)), Some(Refusal::AlreadyVoted)),
                None => fallback(),
            }
        }
        1 => match holders.iter().copied().find(|&h| !present(h)) {
            Some(h) => unopened(base.vote(k, h, &BallotGen::Whole(0)), Refusal::NotPresent),
            None => fallback(),
        },
        2 => {
            let matter = base.items[k].matter;
            let barred = matches!(
                matter,
                asamblea_rules::MatterKind::FinancialStatements
                    | asamblea_rules::MatterKind::LiquidationAccounts
            );
            let ineligible = holders.iter().copied().filter(|&h| present(h)).find(|&h| {
                let (ordinary, preferred) = base.item_shares(h, matter);
                let at = meeting.register().lookup(&Base::holder_id(h)).unwrap();
                let legal_representative_of_an_administrator = matches!(
                    meeting.presence().channel(at),
                    Channel::Agent {
                        capacity: Capacity::LegalRepresentative,
                        agent_is_administrator_or_employee: true,
                        ..
                    }
                );
                ordinary + preferred == 0
                    || (barred
                        && (base.holders[h].role.is_some()
                            || (base.settings.legal_representative_impeded
                                && legal_representative_of_an_administrator)))
            });
            match ineligible {
                Some(h) => unopened(base.vote(k, h, &BallotGen::Whole(0)), Refusal::NotEligible),
                None => fallback(),
            }
        }
        4 => match holders.iter().copied().find(|&h| base.holders[h].split.is_none()) {
            Some(h) => {
                let (ordinary, preferred) = base.item_shares(h, base.items[k].matter);
                let ballot = Ballot::Split(vec![
                    (Some(option(0)), Shares::new(ordinary + preferred)),
                    (Some(option(1)), Shares::ZERO),
                ]);
                let step = Step::Vote { item: Base::item_id(k), holder: Base::holder_id(h), ballot };
                (step, None)
            }
            None => fallback(),
        },
        5 => {
            let step = Step::Vote {
                item: UNKNOWN_ITEM.to_string(),
                holder: Base::holder_id(holders[0]),
                ballot: whole_for,
            };
            (step, Some(Refusal::UnknownItem))
        }
        6 => unopened(
            Step::Vote { item: Base::item_id(k), holder: UNKNOWN_PERSON.to_string(), ballot: whole_for },
            Refusal::UnknownHolder,
        ),
        7 => unopened(base.vote(k, holders[0], &BallotGen::Whole(0)), Refusal::ItemClosed),
        _ => fallback(),
    }
}

proptest! {
    #![proptest_config(config())]

    /// Permuting the ballots never changes any result, nor which ballots
    /// are accepted.
    #[test]
    fn permuting_the_ballots_changes_no_result(block in block()) {
        let prefix = block.prefix();
        let closes = block.base.closes();

        let mut in_order = block.base.meeting();
        replay(&mut in_order, &prefix);
        let answers_in_order = replay_ballots(&mut in_order, &block.ballots());
        replay(&mut in_order, &closes);

        let mut permuted = block.base.meeting();
        replay(&mut permuted, &prefix);
        let answers_permuted = replay_ballots(&mut permuted, &block.permuted());
        replay(&mut permuted, &closes);

        prop_assert_eq!(answers_in_order, answers_permuted);
        prop_assert_eq!(Snapshot::of(&in_order), Snapshot::of(&permuted));
    }

    /// A refused ballot (ineligible, absent, repeated, badly formed, on a
    /// closed or unknown item) slipped anywhere among the ballots changes
    /// no tally, no answer to another ballot, and nothing else.
    #[test]
    fn a_refused_ballot_never_changes_a_tally(block in block(), intruder in intruder()) {
        let prefix = block.prefix();
        let ballots = block.permuted();
        let closes = block.base.closes();

        let mut without = block.base.meeting();
        replay(&mut without, &prefix);
        let answers_without = replay_ballots(&mut without, &ballots);
        replay(&mut without, &closes);

        let mut with = block.base.meeting();
        replay(&mut with, &prefix);
        let (answers_with, refused, expected) = if intruder.kind == 7 {
            let answers = replay_ballots(&mut with, &ballots);
            replay(&mut with, &closes);
            let (step, expected) = refused_ballot(&with, &block.base, &intruder);
            (answers, step.apply(&mut with), expected)
        } else {
            let at = usize::from(intruder.position) % (ballots.len() + 1);
            let mut answers = replay_ballots(&mut with, &ballots[..at]);
            let (step, expected) = refused_ballot(&with, &block.base, &intruder);
            let refused = step.apply(&mut with);
            answers.extend(replay_ballots(&mut with, &ballots[at..]));
            replay(&mut with, &closes);
            (answers, refused, expected)
        };

        prop_assert!(refused.is_err(), "the intruding ballot was accepted: {:?}", intruder);
        if let Some(code) = expected {
            prop_assert_eq!(refused, Err(code));
        }
        prop_assert_eq!(answers_without, answers_with);
        prop_assert_eq!(Snapshot::of(&without), Snapshot::of(&with));
    }

    /// Once the quorum holds (first call, or this meeting's call), no
    /// successful arrival takes it away; `P` and `H` never fall on an
    /// arrival. Departures in between move the quorum both ways.
    #[test]
    fn arrivals_never_remove_a_quorum(base in base(), steps in vec(comings_and_goings(), 1..=120)) {
        let mut meeting = base.meeting();
        for gen in &steps {
            let step = base.step(gen);
            let before = meeting.quorum();
            let applied = step.apply(&mut meeting).is_ok();
            let after = meeting.quorum();
            if applied && step.is_arrival() {
                prop_assert!(after.present >= before.present && after.holders >= before.holders, "{:?}", step);
                prop_assert!(!before.first_call || after.first_call, "first call quorum lost on {:?}", step);
                prop_assert!(!before.this_call || after.this_call, "quorum lost on {:?}", step);
            }
        }
    }
}
