//! Agenda items put to the vote: their ballot, their running tally, and
//! their result once closed.
//!
//! An item's life is `open → closed → decided` with no way back (R16); an
//! item id can be opened once. While open, only turnout is public; the
//! tally is read through [`Item::result`] once the item is closed.

use crate::profile::{Majority, MatterKind};
use crate::register::HolderIndex;
use crate::shares::{ClassShares, Shares};

/// The options of an item: for/against/blank, or lists plus blank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BallotOptions {
    /// A decision: `for`, `against`, `blank`.
    Decision,
    /// An election: the lists (or candidates) in ballot order, plus
    /// `blank`.
    Election {
        /// Seats to fill; 1 on a single-seat election.
        seats: u32,
        /// The lists, in ballot order.
        lists: Vec<Box<str>>,
    },
}

/// Why an item description was refused (a defect of the input, not a
/// decision of the meeting).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ItemSpecError {
    /// An empty item id.
    #[error("the item id is empty")]
    EmptyId,
    /// Lists on a decision, or none on an election.
    #[error("matter `{matter}` {hint}", matter = .0, hint = options_hint(*.0))]
    OptionsDoNotFit(MatterKind),
    /// Seats below 1, or other than 1 on a single-seat election.
    #[error("`seats` must be at least 1 (exactly 1 on a single-seat election), not {0}")]
    BadSeats(u32),
    /// An empty list name, a list named `blank`, or a list given twice.
    #[error("list `{0}` is empty, reserved (`blank`) or given twice")]
    BadList(String),
    /// More lists than a ballot can carry.
    #[error("more than {} lists", u16::MAX - 1)]
    TooManyLists,
}

fn options_hint(matter: MatterKind) -> &'static str {
    if matter.is_election() {
        "is an election: it needs `lists` (and `seats` on a board election)"
    } else {
        "is not an election: it takes no `seats` or `lists`"
    }
}

/// A validated description of an item to open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemSpec {
    pub(crate) id: Box<str>,
    pub(crate) matter: MatterKind,
    pub(crate) noticed: bool,
    pub(crate) options: BallotOptions,
}

impl ItemSpec {
    /// Validates an item: elections carry lists (unique, not `blank`) and
    /// seats (1 on a single-seat election); decisions carry neither.
    pub fn new(
        id: impl Into<String>,
        matter: MatterKind,
        noticed: bool,
        options: BallotOptions,
    ) -> Result<ItemSpec, ItemSpecError> {
        let id: String = id.into();
        if id.is_empty() {
            return Err(ItemSpecError::EmptyId);
        }
        match &options {
            BallotOptions::Decision if matter.is_election() => {
                return Err(ItemSpecError::OptionsDoNotFit(matter))
            }
            BallotOptions::Election { .. } if !matter.is_election() => {
                return Err(ItemSpecError::OptionsDoNotFit(matter))
            }
            BallotOptions::Decision => {}
            BallotOptions::Election { seats, lists } => {
                if *seats < 1 || (matter == MatterKind::SingleSeatElection && *seats != 1) {
                    return Err(ItemSpecError::BadSeats(*seats));
                }
                if lists.is_empty() {
                    return Err(ItemSpecError::OptionsDoNotFit(matter));
                }
                if lists.len() >= usize::from(u16::MAX) {
                    return Err(ItemSpecError::TooManyLists);
                }
                for (i, list) in lists.iter().enumerate() {
                    if list.is_empty() || &**list == "blank" || lists[..i].contains(list) {
                        return Err(ItemSpecError::BadList(list.to_string()));
                    }
                }
            }
        }
        Ok(ItemSpec { id: id.into(), matter, noticed, options })
    }

    /// The item id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The matter kind.
    pub fn matter(&self) -> MatterKind {
        self.matter
    }

    /// Whether the matter was in the notice.
    pub fn noticed(&self) -> bool {
        self.noticed
    }

    /// The ballot's options.
    pub fn options(&self) -> &BallotOptions {
        &self.options
    }
}

/// An option on a ballot, by position: on a decision 0 = for, 1 = against,
/// 2 = blank; on an election the lists in order, then blank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OptionIndex(pub(crate) u16);

impl OptionIndex {
    /// For, on a decision.
    pub const FOR: OptionIndex = OptionIndex(0);
    /// Against, on a decision.
    pub const AGAINST: OptionIndex = OptionIndex(1);
    /// Blank, on a decision.
    pub const BLANK_DECISION: OptionIndex = OptionIndex(2);

    /// The position.
    pub const fn get(self) -> usize {
        self.0 as usize
    }

    /// List `position` (from 0, ballot order) on an election.
    pub const fn list(position: usize) -> OptionIndex {
        OptionIndex(position as u16)
    }
}

/// A ballot for one holder on one item. `None` stands for an option name
/// that is not on the item's ballot: the rules refuse it (`unknown-option`,
/// or `split-not-allowed` inside a split) after the checks that come first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ballot {
    /// One option with all the holder's shares on the item (R14).
    Whole(Option<OptionIndex>),
    /// Parts on several options, for holders allowed to split (R14).
    Split(Vec<(Option<OptionIndex>, Shares)>),
}

/// What became of an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Still open for voting.
    Open,
    /// Approved.
    Pass,
    /// Not approved.
    Fail,
    /// The quorum was lost by the close (R3).
    NoQuorum,
    /// Every eligible share present is impeded (R10): implied approval
    /// unless someone objects (Supersociedades 220-39033/1999).
    AllImpeded,
    /// An election with every seat given.
    Elected,
    /// An election waiting for a recorded lot draw (R15).
    LotRequired,
}

impl Outcome {
    /// The stable code.
    pub const fn code(self) -> &'static str {
        match self {
            Outcome::Open => "open",
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::NoQuorum => "no-quorum",
            Outcome::AllImpeded => "all-impeded",
            Outcome::Elected => "elected",
            Outcome::LotRequired => "lot-required",
        }
    }

    /// In Spanish, for screens and the acta.
    pub const fn spanish(self) -> &'static str {
        match self {
            Outcome::Open => "en votación",
            Outcome::Pass => "aprobado",
            Outcome::Fail => "no aprobado",
            Outcome::NoQuorum => "sin quórum",
            Outcome::AllImpeded => "todas las acciones impedidas",
            Outcome::Elected => "elegidos",
            Outcome::LotRequired => "requiere sorteo",
        }
    }
}

/// The result of a closed decision (every key of FORMAT.md's item-4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecisionResult {
    /// What became of it.
    pub outcome: Outcome,
    /// Quorum held at the close.
    pub quorum_at_close: bool,
    /// Shares present at the close that count for the item, impeded ones
    /// included (holders present then, plus those who voted and left).
    pub present: Shares,
    /// Administrator and employee shares taken out of the base (R10).
    pub impeded: Shares,
    /// `E`, the base the majority is measured on.
    pub base: Shares,
    /// For.
    pub for_votes: Shares,
    /// Against.
    pub against: Shares,
    /// Blank: counted and reported, never for (Art. 431).
    pub blank: Shares,
    /// Eligible shares present that cast no ballot.
    pub abstain: Shares,
    /// Distinct holders with any for shares.
    pub holders_for: u32,
    /// For votes per class, on items the preferred shares vote on.
    pub for_by_class: Option<ClassShares>,
    /// Holders who may withdraw (R18), on items that give the right.
    pub withdrawal: Option<Vec<HolderIndex>>,
}

/// The result of a closed election.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElectionResult {
    /// What became of it.
    pub outcome: Outcome,
    /// Quorum held at the close.
    pub quorum_at_close: bool,
    /// `V`: list votes plus blank.
    pub valid: Shares,
    /// Blank votes.
    pub blank: Shares,
    /// Votes per list, ballot order.
    pub votes: Vec<Shares>,
    /// Seats per list, ballot order; `None` on no-quorum.
    pub seats: Option<Vec<u32>>,
    /// Lists tied at the cutoff while a lot is pending, ballot order.
    pub lot_between: Vec<usize>,
    /// Seats the lot must still give.
    pub seats_to_draw: u32,
    /// Seats no list could take (OQ6).
    pub vacant: u32,
    /// `E` of a single-seat election (OQ8); zero on a board election.
    pub base: Shares,
}

/// A closed item's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemResult {
    /// A decision.
    Decision(DecisionResult),
    /// An election.
    Election(ElectionResult),
}

impl ItemResult {
    /// The outcome.
    pub fn outcome(&self) -> Outcome {
        match self {
            ItemResult::Decision(d) => d.outcome,
            ItemResult::Election(e) => e.outcome,
        }
    }
}

/// Per-holder marks of one item: a byte a holder.
pub(crate) const VOTED: u8 = 1;
pub(crate) const VOTED_AGAINST: u8 = 2;

/// An item opened in a meeting.
#[derive(Clone, Debug)]
pub struct Item {
    pub(crate) spec: ItemSpec,
    /// The majority in force for this item (bylaws resolved).
    pub(crate) majority: Majority,
    /// The first-call quorum test applies (first call, or a bylaw flag).
    pub(crate) first_call_quorum: bool,
    pub(crate) quorum_at_open: bool,
    /// A byte per holder: [`VOTED`], [`VOTED_AGAINST`].
    pub(crate) marks: Vec<u8>,
    /// Running totals per option, ballot order.
    pub(crate) totals: Vec<Shares>,
    pub(crate) for_by_class: ClassShares,
    pub(crate) holders_for: u32,
    /// Ballots accepted: turnout, public while the item is open.
    pub(crate) ballots: u32,
    pub(crate) result: Option<ItemResult>,
}

impl Item {
    /// The item id.
    pub fn id(&self) -> &str {
        &self.spec.id
    }

    /// The matter kind.
    pub fn matter(&self) -> MatterKind {
        self.spec.matter
    }

    /// Whether the matter was in the notice.
    pub fn noticed(&self) -> bool {
        self.spec.noticed
    }

    /// The ballot's options.
    pub fn options(&self) -> &BallotOptions {
        &self.spec.options
    }

    /// The majority in force.
    pub fn majority(&self) -> Majority {
        self.majority
    }

    /// Quorum held when it opened (always true: without it, it does not
    /// open).
    pub fn quorum_at_open(&self) -> bool {
        self.quorum_at_open
    }

    /// The outcome so far.
    pub fn outcome(&self) -> Outcome {
        self.result.as_ref().map_or(Outcome::Open, ItemResult::outcome)
    }

    /// True once closed.
    pub fn is_closed(&self) -> bool {
        self.result.is_some()
    }

    /// The result, once closed.
    pub fn result(&self) -> Option<&ItemResult> {
        self.result.as_ref()
    }

    /// The shares voted so far on every option together: the turnout a
    /// chair sees while the poll is open (never a tally of the choices).
    pub fn shares_voted(&self) -> Shares {
        self.totals.iter().copied().sum()
    }

    /// Ballots accepted so far: the turnout a live screen may show.
    pub fn ballots(&self) -> u32 {
        self.ballots
    }

    /// Whether a holder has voted on this item.
    pub fn has_voted(&self, holder: HolderIndex) -> bool {
        self.marks[holder.get()] & VOTED != 0
    }

    /// The option of a name: `for`/`against`/`blank` on a decision, a list
    /// name or `blank` on an election.
    pub fn option(&self, name: &str) -> Option<OptionIndex> {
        match &self.spec.options {
            BallotOptions::Decision => match name {
                "for" => Some(OptionIndex::FOR),
                "against" => Some(OptionIndex::AGAINST),
                "blank" => Some(OptionIndex::BLANK_DECISION),
                _ => None,
            },
            BallotOptions::Election { lists, .. } => {
                if name == "blank" {
                    return Some(OptionIndex(lists.len() as u16));
                }
                lists.iter().position(|l| &**l == name).map(|i| OptionIndex(i as u16))
            }
        }
    }

    /// The name of an option.
    pub fn option_name(&self, option: OptionIndex) -> &str {
        match &self.spec.options {
            BallotOptions::Decision => ["for", "against", "blank"][option.get()],
            BallotOptions::Election { lists, .. } => lists.get(option.get()).map_or("blank", |l| l),
        }
    }

    /// Number of options on the ballot, blank included.
    pub fn option_count(&self) -> usize {
        match &self.spec.options {
            BallotOptions::Decision => 3,
            BallotOptions::Election { lists, .. } => lists.len() + 1,
        }
    }
}

/// An item's position in the meeting, dense from 0 in opening order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemIndex(pub(crate) u32);

impl ItemIndex {
    /// The position.
    pub const fn get(self) -> usize {
        self.0 as usize
    }
}
