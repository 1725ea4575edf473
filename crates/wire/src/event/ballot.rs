//! A ballot: the votes one badge casts on one item, each holder's choice
//! whole or split, and its encoding.

use super::*;

/// A ballot: how the holders an attendee carries vote on one item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ballot {
    /// The item voted on.
    pub item: Id,
    /// The badge whose key signs the ballot.
    pub credential: CredentialId,
    /// One vote per holder: 1 to [`MAX_VOTES`], holders strictly
    /// ascending. A holder left out abstains.
    pub votes: Vec<HolderVote>,
}

/// One holder's vote within a ballot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HolderVote {
    /// The holder voted for (the attendee itself, or a principal).
    pub holder: Id,
    /// The vote.
    pub choice: Choice,
}

/// A vote: one option with every share, or a split (R14).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// One option (0 for, 1 against, 2 blank on a decision; on an
    /// election the lists in order, then blank).
    Whole(OptionIndex),
    /// Shares on several options: 1 to [`MAX_SPLIT_PARTS`] parts, options
    /// strictly ascending, no part of zero shares.
    Split(Vec<SplitPart>),
}

/// One part of a split vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitPart {
    /// The option.
    pub option: OptionIndex,
    /// The shares on it.
    pub shares: Shares,
}

impl Choice {
    /// The rules engine's ballot.
    pub fn to_rules(&self) -> RulesBallot {
        match self {
            Choice::Whole(option) => RulesBallot::Whole(Some(*option)),
            Choice::Split(parts) => {
                RulesBallot::Split(parts.iter().map(|p| (Some(p.option), p.shares)).collect())
            }
        }
    }
}

/// An option index as its `u16` on the wire (the rules keep it in a `u16`).
fn option_code(option: OptionIndex) -> u16 {
    u16::try_from(option.get()).unwrap_or(u16::MAX)
}

impl Ballot {
    pub(super) fn write(&self, w: &mut Writer) -> Result<(), WireError> {
        w.str(self.item.as_str());
        w.u32(self.credential.0);
        w.count("ballot.votes", self.votes.len(), 1, MAX_VOTES)?;
        for (i, vote) in self.votes.iter().enumerate() {
            if i > 0 && self.votes[i - 1].holder >= vote.holder {
                return Err(WireError::Invalid {
                    field: "ballot.votes.holder",
                    problem: Problem::NotAscending,
                });
            }
            w.str(vote.holder.as_str());
            match &vote.choice {
                Choice::Whole(option) => {
                    w.u8(1);
                    w.u16(option_code(*option));
                }
                Choice::Split(parts) => {
                    w.u8(2);
                    w.count("ballot.votes.split", parts.len(), 1, MAX_SPLIT_PARTS)?;
                    for (j, part) in parts.iter().enumerate() {
                        if j > 0 && parts[j - 1].option >= part.option {
                            let problem = Problem::NotAscending;
                            return Err(WireError::Invalid { field: "ballot.votes.split.option", problem });
                        }
                        if part.shares.is_zero() {
                            let problem = Problem::ZeroShares;
                            return Err(WireError::Invalid { field: "ballot.votes.split.shares", problem });
                        }
                        w.u16(option_code(part.option));
                        w.u64(part.shares.get());
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn read(r: &mut Reader<'_>) -> Result<Ballot, WireError> {
        let item = r.id("ballot.item")?;
        let credential = CredentialId(r.u32("ballot.credential")?);
        let count = r.count("ballot.votes", 1, MAX_VOTES)?;
        let mut votes: Vec<HolderVote> = Vec::with_capacity(count);
        for _ in 0..count {
            let at = r.at();
            let holder = r.id("ballot.votes.holder")?;
            if votes.last().is_some_and(|last| last.holder >= holder) {
                return Err(r.malformed("ballot.votes.holder", at, Problem::NotAscending));
            }
            let at = r.at();
            let choice = match r.u8("ballot.votes.choice")? {
                1 => Choice::Whole(OptionIndex::list(usize::from(r.u16("ballot.votes.option")?))),
                2 => {
                    let parts = r.count("ballot.votes.split", 1, MAX_SPLIT_PARTS)?;
                    let mut split: Vec<SplitPart> = Vec::with_capacity(parts);
                    for _ in 0..parts {
                        let at = r.at();
                        let option = OptionIndex::list(usize::from(r.u16("ballot.votes.split.option")?));
                        if split.last().is_some_and(|last| last.option >= option) {
                            return Err(r.malformed("ballot.votes.split.option", at, Problem::NotAscending));
                        }
                        let at = r.at();
                        let shares = Shares::new(r.u64("ballot.votes.split.shares")?);
                        if shares.is_zero() {
                            return Err(r.malformed("ballot.votes.split.shares", at, Problem::ZeroShares));
                        }
                        split.push(SplitPart { option, shares });
                    }
                    Choice::Split(split)
                }
                other => return Err(r.malformed("ballot.votes.choice", at, Problem::UnknownCode(other))),
            };
            votes.push(HolderVote { holder, choice });
        }
        Ok(Ballot { item, credential, votes })
    }
}
