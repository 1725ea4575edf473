//! The capital and the share register (libro de registro de acciones).
//!
//! A [`Register`] is built once, validated, and never changes during a
//! meeting: holders are addressed by a dense [`HolderIndex`] so the hot path
//! of a vote never hashes a string.

use std::collections::HashMap;
use std::fmt;

use crate::shares::{ClassShares, ShareClass, Shares};

/// Subscribed and treasury shares of one class (R1, R3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassCapital {
    subscribed: Shares,
    treasury: Shares,
}

impl ClassCapital {
    /// A class's capital. Treasury shares (acciones readquiridas) have their
    /// rights suspended (C.Co Art. 396) and are left out of every figure.
    pub fn new(subscribed: Shares, treasury: Shares) -> Result<ClassCapital, RegisterError> {
        if treasury > subscribed {
            return Err(RegisterError::TreasuryExceedsSubscribed { subscribed, treasury });
        }
        Ok(ClassCapital { subscribed, treasury })
    }

    /// Subscribed shares, treasury included.
    pub fn subscribed(self) -> Shares {
        self.subscribed
    }

    /// Treasury shares.
    pub fn treasury(self) -> Shares {
        self.treasury
    }

    /// Subscribed and outstanding: what counts (`S_c` in rules.md).
    pub fn outstanding(self) -> Shares {
        self.subscribed - self.treasury
    }
}

/// The company's capital, per class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capital {
    /// Ordinary shares.
    pub ordinary: ClassCapital,
    /// Preferred shares without voting rights.
    pub preferred: ClassCapital,
}

impl Capital {
    /// The capital of one class.
    pub fn of(&self, class: ShareClass) -> ClassCapital {
        match class {
            ShareClass::Ordinary => self.ordinary,
            ShareClass::Preferred => self.preferred,
        }
    }

    /// Outstanding shares per class.
    pub fn outstanding(&self) -> ClassShares {
        ClassShares::new(self.ordinary.outstanding(), self.preferred.outstanding())
    }
}

/// Administrator or employee of the company (C.Co Art. 185, R2, R10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Administrador: board member, legal representative, liquidator…
    Administrator,
    /// Empleado.
    Employee,
}

impl Role {
    /// The code used in files: `administrator` or `employee`.
    pub const fn code(self) -> &'static str {
        match self {
            Role::Administrator => "administrator",
            Role::Employee => "employee",
        }
    }

    /// The role of a code, if it is one.
    pub fn from_code(code: &str) -> Option<Role> {
        match code {
            "administrator" => Some(Role::Administrator),
            "employee" => Some(Role::Employee),
            _ => None,
        }
    }
}

/// Why a holder may split its vote (R14): the only exceptions to the rule
/// that one holder casts one option with all its shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SplitPermission {
    /// Custodian, ADR depositary or omnibus account; allowed only while the
    /// `split_custodians` setting is on (OQ5).
    OmnibusCustodian,
    /// Voting rights granted to a pledgee, usufructuary or fiduciary.
    Dismembered,
}

impl SplitPermission {
    /// The code used in files.
    pub const fn code(self) -> &'static str {
        match self {
            SplitPermission::OmnibusCustodian => "omnibus-custodian",
            SplitPermission::Dismembered => "dismembered",
        }
    }

    /// The permission of a code, if it is one.
    pub fn from_code(code: &str) -> Option<SplitPermission> {
        match code {
            "omnibus-custodian" => Some(SplitPermission::OmnibusCustodian),
            "dismembered" => Some(SplitPermission::Dismembered),
            _ => None,
        }
    }
}

/// One line of the register as it comes in, before validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HolderSpec {
    /// The holder's id (a document number, a Deceval account…).
    pub id: String,
    /// Shares held per class.
    pub holdings: ClassShares,
    /// Administrator or employee, if so.
    pub role: Option<Role>,
    /// Permission to split the vote, if any.
    pub split: Option<SplitPermission>,
}

/// A holder's position in the register; dense, from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HolderIndex(u32);

impl HolderIndex {
    /// The position as a `usize`, for indexing per-holder tables.
    pub const fn get(self) -> usize {
        self.0 as usize
    }
}

/// A validated holder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    id: Box<str>,
    holdings: ClassShares,
    role: Option<Role>,
    split: Option<SplitPermission>,
}

impl Holder {
    /// The holder's id.
    pub fn id(&self) -> &str {
        &self.id
    }
    /// Shares held per class.
    pub fn holdings(&self) -> ClassShares {
        self.holdings
    }
    /// Administrator or employee, if so.
    pub fn role(&self) -> Option<Role> {
        self.role
    }
    /// Permission to split the vote, if any.
    pub fn split(&self) -> Option<SplitPermission> {
        self.split
    }
}

/// Why a register was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegisterError {
    /// More treasury shares than subscribed ones.
    #[error("treasury shares ({treasury}) exceed subscribed shares ({subscribed})")]
    TreasuryExceedsSubscribed {
        /// Subscribed shares of the class.
        subscribed: Shares,
        /// Treasury shares of the class.
        treasury: Shares,
    },
    /// The classes together exceed what the engine can count.
    #[error("the capital of both classes together exceeds {} shares", u64::MAX)]
    CapitalTooLarge,
    /// A holder with an empty id.
    #[error("holder number {position} has an empty id")]
    EmptyHolderId {
        /// Position in the input, from 1.
        position: usize,
    },
    /// The same id twice.
    #[error("holder `{id}` appears twice in the register")]
    DuplicateHolder {
        /// The repeated id.
        id: String,
    },
    /// More shares held in a class than it has outstanding.
    #[error("holders hold {held} {} shares but only {outstanding} are outstanding", class.code())]
    HoldingsExceedOutstanding {
        /// The class.
        class: ShareClass,
        /// What the holders hold together.
        held: u128,
        /// What the class has outstanding.
        outstanding: Shares,
    },
    /// More holders than the engine indexes.
    #[error("more than {} holders", u32::MAX)]
    TooManyHolders,
}

/// The validated share register of one meeting.
#[derive(Clone, Debug)]
pub struct Register {
    capital: Capital,
    holders: Vec<Holder>,
    /// Id to position; the only place a holder id is hashed.
    index: HashMap<Box<str>, HolderIndex>,
}

impl Register {
    /// Validates the capital and the holders: unique non-empty ids, and no
    /// class held beyond its outstanding shares.
    pub fn new(
        capital: Capital,
        holders: impl IntoIterator<Item = HolderSpec>,
    ) -> Result<Register, RegisterError> {
        capital
            .ordinary
            .subscribed()
            .checked_add(capital.preferred.subscribed())
            .ok_or(RegisterError::CapitalTooLarge)?;
        let holders = holders.into_iter();
        let mut list = Vec::with_capacity(holders.size_hint().0);
        let mut index = HashMap::with_capacity(holders.size_hint().0);
        let mut held = [0u128; 2];
        for (position, spec) in holders.enumerate() {
            if spec.id.is_empty() {
                return Err(RegisterError::EmptyHolderId { position: position + 1 });
            }
            let at = HolderIndex(u32::try_from(position).map_err(|_| RegisterError::TooManyHolders)?);
            let id: Box<str> = spec.id.into_boxed_str();
            if index.insert(id.clone(), at).is_some() {
                return Err(RegisterError::DuplicateHolder { id: id.into() });
            }
            held[0] += spec.holdings.ordinary.wide();
            held[1] += spec.holdings.preferred.wide();
            list.push(Holder { id, holdings: spec.holdings, role: spec.role, split: spec.split });
        }
        for (class, held) in ShareClass::ALL.into_iter().zip(held) {
            let outstanding = capital.of(class).outstanding();
            if held > outstanding.wide() {
                return Err(RegisterError::HoldingsExceedOutstanding { class, held, outstanding });
            }
        }
        Ok(Register { capital, holders: list, index })
    }

    /// The capital.
    pub fn capital(&self) -> &Capital {
        &self.capital
    }

    /// Number of holders.
    pub fn len(&self) -> usize {
        self.holders.len()
    }

    /// True for a register with no holders.
    pub fn is_empty(&self) -> bool {
        self.holders.is_empty()
    }

    /// The position of a holder id.
    pub fn lookup(&self, id: &str) -> Option<HolderIndex> {
        self.index.get(id).copied()
    }

    /// The holder at a position.
    ///
    /// # Panics
    /// If the index does not come from this register.
    pub fn holder(&self, at: HolderIndex) -> &Holder {
        &self.holders[at.get()]
    }

    /// Every holder with its position, in register order.
    pub fn iter(&self) -> impl Iterator<Item = (HolderIndex, &Holder)> {
        self.holders.iter().enumerate().map(|(i, h)| (HolderIndex(i as u32), h))
    }
}

impl fmt::Display for HolderIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}
