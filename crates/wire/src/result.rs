//! The figures of a published result, as the daemon signs them and a
//! verifier recomputes them.
//!
//! They mirror the rules engine's [`ItemResult`], with two differences that
//! keep a result small and self-contained: lists are named by position,
//! and the holders with a right of withdrawal (R18), who may be thousands,
//! are carried as their count and a digest of their sorted ids.

use asamblea_rules::{ClassShares, ItemResult, Outcome, Register, Shares};

use crate::codec::{Reader, Writer};
use crate::derived::withdrawal_digest;
use crate::error::{Problem, WireError};
use crate::limits::MAX_LISTS;
use crate::values::Digest;

/// A closed item's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PublishedResult {
    /// A decision.
    Decision(DecisionFigures),
    /// An election.
    Election(ElectionFigures),
}

/// The figures of a closed decision (see `DecisionResult` in the rules).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecisionFigures {
    /// `pass`, `fail`, `no-quorum` or `all-impeded`.
    pub outcome: Outcome,
    /// Quorum held at the close.
    pub quorum_at_close: bool,
    /// Shares present at the close that count for the item.
    pub present: Shares,
    /// Administrator and employee shares taken out of the base (R10).
    pub impeded: Shares,
    /// `E`, the base the majority is measured on.
    pub base: Shares,
    /// For.
    pub for_votes: Shares,
    /// Against.
    pub against: Shares,
    /// Blank.
    pub blank: Shares,
    /// Eligible shares present that cast no ballot.
    pub abstain: Shares,
    /// Distinct holders with any for shares.
    pub holders_for: u32,
    /// For votes per class, on items the preferred shares vote on.
    pub for_by_class: Option<ClassShares>,
    /// The holders who may withdraw, on items that give the right.
    pub withdrawal: Option<Withdrawal>,
}

/// The holders with a right of withdrawal (R18), by count and digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Withdrawal {
    /// How many.
    pub holders: u32,
    /// [`withdrawal_digest`](crate::withdrawal_digest) of their ids.
    pub digest: Digest,
}

/// The figures of a closed election (see `ElectionResult` in the rules).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElectionFigures {
    /// `elected`, `lot-required`, `fail` or `no-quorum`.
    pub outcome: Outcome,
    /// Quorum held at the close.
    pub quorum_at_close: bool,
    /// `V`: list votes plus blank.
    pub valid: Shares,
    /// Blank votes.
    pub blank: Shares,
    /// Votes per list, ballot order: 1 to [`MAX_LISTS`] entries.
    pub votes: Vec<Shares>,
    /// Seats per list, ballot order, as many as `votes`; `None` on
    /// no-quorum.
    pub seats: Option<Vec<u32>>,
    /// Positions of the lists tied at the cutoff while a lot is pending,
    /// strictly ascending, each below the number of lists.
    pub lot_between: Vec<u32>,
    /// Seats the lot must still give.
    pub seats_to_draw: u32,
    /// Seats no list could take (OQ6).
    pub vacant: u32,
    /// `E` of a single-seat election; zero on a board election.
    pub base: Shares,
}

impl PublishedResult {
    /// The figures of a rules result. Withdrawal ids are looked up in
    /// `register`.
    ///
    /// # Panics
    /// If the result names a holder index that `register` does not have
    /// (a result of another meeting).
    pub fn from_rules(result: &ItemResult, register: &Register) -> PublishedResult {
        match result {
            ItemResult::Decision(d) => PublishedResult::Decision(DecisionFigures {
                outcome: d.outcome,
                quorum_at_close: d.quorum_at_close,
                present: d.present,
                impeded: d.impeded,
                base: d.base,
                for_votes: d.for_votes,
                against: d.against,
                blank: d.blank,
                abstain: d.abstain,
                holders_for: d.holders_for,
                for_by_class: d.for_by_class,
                withdrawal: d.withdrawal.as_ref().map(|holders| Withdrawal {
                    holders: u32::try_from(holders.len()).expect("a register has at most u32::MAX holders"),
                    digest: withdrawal_digest(holders.iter().map(|&h| register.holder(h).id())),
                }),
            }),
            ItemResult::Election(e) => PublishedResult::Election(ElectionFigures {
                outcome: e.outcome,
                quorum_at_close: e.quorum_at_close,
                valid: e.valid,
                blank: e.blank,
                votes: e.votes.clone(),
                seats: e.seats.clone(),
                lot_between: e
                    .lot_between
                    .iter()
                    .map(|&l| u32::try_from(l).expect("a ballot has fewer than u16::MAX lists"))
                    .collect(),
                seats_to_draw: e.seats_to_draw,
                vacant: e.vacant,
                base: e.base,
            }),
        }
    }

    /// The outcome.
    pub fn outcome(&self) -> Outcome {
        match self {
            PublishedResult::Decision(d) => d.outcome,
            PublishedResult::Election(e) => e.outcome,
        }
    }

    pub(crate) fn write(&self, w: &mut Writer) -> Result<(), WireError> {
        let invalid = |field, problem| WireError::Invalid { field, problem };
        match self {
            PublishedResult::Decision(d) => {
                if !decision_outcome(d.outcome) {
                    return Err(invalid("result.outcome", Problem::OutcomeDoesNotFit(d.outcome)));
                }
                w.u8(1);
                w.code(d.outcome);
                w.bool(d.quorum_at_close);
                for figure in [d.present, d.impeded, d.base, d.for_votes, d.against, d.blank, d.abstain] {
                    w.u64(figure.get());
                }
                w.u32(d.holders_for);
                w.bool(d.for_by_class.is_some());
                if let Some(by_class) = d.for_by_class {
                    w.u64(by_class.ordinary.get());
                    w.u64(by_class.preferred.get());
                }
                w.bool(d.withdrawal.is_some());
                if let Some(withdrawal) = d.withdrawal {
                    w.u32(withdrawal.holders);
                    w.bytes(&withdrawal.digest.0);
                }
            }
            PublishedResult::Election(e) => {
                if !election_outcome(e.outcome) {
                    return Err(invalid("result.outcome", Problem::OutcomeDoesNotFit(e.outcome)));
                }
                w.u8(2);
                w.code(e.outcome);
                w.bool(e.quorum_at_close);
                w.u64(e.valid.get());
                w.u64(e.blank.get());
                w.count("result.votes", e.votes.len(), 1, MAX_LISTS)?;
                for votes in &e.votes {
                    w.u64(votes.get());
                }
                w.bool(e.seats.is_some());
                if let Some(seats) = &e.seats {
                    if seats.len() != e.votes.len() {
                        let problem = Problem::LengthMismatch { len: seats.len(), expected: e.votes.len() };
                        return Err(invalid("result.seats", problem));
                    }
                    w.u32(u32::try_from(seats.len()).expect("checked against MAX_LISTS"));
                    for &seats in seats {
                        w.u32(seats);
                    }
                }
                w.count("result.lot_between", e.lot_between.len(), 0, e.votes.len())?;
                for (i, &list) in e.lot_between.iter().enumerate() {
                    if i > 0 && e.lot_between[i - 1] >= list {
                        return Err(invalid("result.lot_between", Problem::NotAscending));
                    }
                    if usize::try_from(list).map_or(true, |l| l >= e.votes.len()) {
                        let limit = e.votes.len() as u64;
                        return Err(invalid(
                            "result.lot_between",
                            Problem::OutOfRange { value: list.into(), limit },
                        ));
                    }
                    w.u32(list);
                }
                w.u32(e.seats_to_draw);
                w.u32(e.vacant);
                w.u64(e.base.get());
            }
        }
        Ok(())
    }

    pub(crate) fn read(r: &mut Reader<'_>) -> Result<PublishedResult, WireError> {
        let at = r.at();
        match r.u8("result.kind")? {
            1 => {
                let at = r.at();
                let outcome = r.code("result.outcome")?;
                if !decision_outcome(outcome) {
                    return Err(r.malformed("result.outcome", at, Problem::OutcomeDoesNotFit(outcome)));
                }
                let quorum_at_close = r.bool("result.quorum_at_close")?;
                let mut figures = [Shares::ZERO; 7];
                for (figure, field) in figures.iter_mut().zip(DECISION_FIGURES) {
                    *figure = Shares::new(r.u64(field)?);
                }
                let [present, impeded, base, for_votes, against, blank, abstain] = figures;
                let holders_for = r.u32("result.holders_for")?;
                let for_by_class = if r.bool("result.has_for_by_class")? {
                    let ordinary = Shares::new(r.u64("result.for_by_class")?);
                    let preferred = Shares::new(r.u64("result.for_by_class")?);
                    Some(ClassShares::new(ordinary, preferred))
                } else {
                    None
                };
                let withdrawal = if r.bool("result.has_withdrawal")? {
                    let holders = r.u32("result.withdrawal.holders")?;
                    Some(Withdrawal { holders, digest: Digest(r.array("result.withdrawal.digest")?) })
                } else {
                    None
                };
                Ok(PublishedResult::Decision(DecisionFigures {
                    outcome,
                    quorum_at_close,
                    present,
                    impeded,
                    base,
                    for_votes,
                    against,
                    blank,
                    abstain,
                    holders_for,
                    for_by_class,
                    withdrawal,
                }))
            }
            2 => {
                let at = r.at();
                let outcome = r.code("result.outcome")?;
                if !election_outcome(outcome) {
                    return Err(r.malformed("result.outcome", at, Problem::OutcomeDoesNotFit(outcome)));
                }
                let quorum_at_close = r.bool("result.quorum_at_close")?;
                let valid = Shares::new(r.u64("result.valid")?);
                let blank = Shares::new(r.u64("result.blank")?);
                let lists = r.count("result.votes", 1, MAX_LISTS)?;
                let mut votes = Vec::with_capacity(lists);
                for _ in 0..lists {
                    votes.push(Shares::new(r.u64("result.votes")?));
                }
                let seats = if r.bool("result.has_seats")? {
                    let at = r.at();
                    let count = r.u32("result.seats")?;
                    if usize::try_from(count) != Ok(lists) {
                        let problem = Problem::LengthMismatch { len: count as usize, expected: lists };
                        return Err(r.malformed("result.seats", at, problem));
                    }
                    let mut seats = Vec::with_capacity(lists);
                    for _ in 0..lists {
                        seats.push(r.u32("result.seats")?);
                    }
                    Some(seats)
                } else {
                    None
                };
                let tied = r.count("result.lot_between", 0, lists)?;
                let mut lot_between: Vec<u32> = Vec::with_capacity(tied);
                for _ in 0..tied {
                    let at = r.at();
                    let list = r.u32("result.lot_between")?;
                    if lot_between.last().is_some_and(|&last| last >= list) {
                        return Err(r.malformed("result.lot_between", at, Problem::NotAscending));
                    }
                    if usize::try_from(list).map_or(true, |l| l >= lists) {
                        let problem = Problem::OutOfRange { value: list.into(), limit: lists as u64 };
                        return Err(r.malformed("result.lot_between", at, problem));
                    }
                    lot_between.push(list);
                }
                Ok(PublishedResult::Election(ElectionFigures {
                    outcome,
                    quorum_at_close,
                    valid,
                    blank,
                    votes,
                    seats,
                    lot_between,
                    seats_to_draw: r.u32("result.seats_to_draw")?,
                    vacant: r.u32("result.vacant")?,
                    base: Shares::new(r.u64("result.base")?),
                }))
            }
            other => Err(r.malformed("result.kind", at, Problem::UnknownCode(other))),
        }
    }
}

/// The seven share figures of a decision, in wire order.
const DECISION_FIGURES: [&str; 7] = [
    "result.present",
    "result.impeded",
    "result.base",
    "result.for_votes",
    "result.against",
    "result.blank",
    "result.abstain",
];

fn decision_outcome(outcome: Outcome) -> bool {
    matches!(outcome, Outcome::Pass | Outcome::Fail | Outcome::NoQuorum | Outcome::AllImpeded)
}

fn election_outcome(outcome: Outcome) -> bool {
    matches!(outcome, Outcome::Elected | Outcome::LotRequired | Outcome::Fail | Outcome::NoQuorum)
}
