//! Share counts and share classes: the only numbers a vote is made of.
//!
//! Every figure near a vote is an integer number of shares. [`Shares`] wraps
//! a `u64` so that a count of shares never mixes with a count of holders or a
//! percentage; comparisons that multiply two figures widen to `u128`, so no
//! product of shares can overflow (C.Co Art. 379, R1: one share, one vote).

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Sub};

/// A number of shares.
///
/// Sums of shares never overflow inside this crate: a [`crate::Register`]
/// refuses capital whose classes together exceed `u64::MAX`, and every sum
/// the engine takes is over distinct holders of that capital.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shares(u64);

impl Shares {
    /// No shares.
    pub const ZERO: Shares = Shares(0);

    /// A count of shares.
    pub const fn new(count: u64) -> Shares {
        Shares(count)
    }

    /// The count as a plain integer.
    pub const fn get(self) -> u64 {
        self.0
    }

    /// The count widened for products (`100 * F >= 78 * E` and the like).
    pub const fn wide(self) -> u128 {
        self.0 as u128
    }

    /// True when there are no shares.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// Addition that reports overflow instead of wrapping.
    pub fn checked_add(self, other: Shares) -> Option<Shares> {
        self.0.checked_add(other.0).map(Shares)
    }

    /// Subtraction that stops at zero.
    pub fn saturating_sub(self, other: Shares) -> Shares {
        Shares(self.0.saturating_sub(other.0))
    }
}

impl Add for Shares {
    type Output = Shares;
    fn add(self, other: Shares) -> Shares {
        Shares(self.0 + other.0)
    }
}

impl AddAssign for Shares {
    fn add_assign(&mut self, other: Shares) {
        self.0 += other.0;
    }
}

impl Sub for Shares {
    type Output = Shares;
    fn sub(self, other: Shares) -> Shares {
        Shares(self.0 - other.0)
    }
}

impl Sum for Shares {
    fn sum<I: Iterator<Item = Shares>>(iter: I) -> Shares {
        iter.fold(Shares::ZERO, Add::add)
    }
}

impl fmt::Display for Shares {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The two classes of share a Colombian S.A. of this kind issues.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShareClass {
    /// Acciones ordinarias: voice and vote on everything.
    Ordinary,
    /// Acciones preferenciales sin derecho a voto (Ley 222 Arts. 61–64): they
    /// vote only on the matters listed for them, or on everything while the
    /// `preferred_full_vote` setting is on (R13).
    Preferred,
}

impl ShareClass {
    /// Both classes, ordinary first.
    pub const ALL: [ShareClass; 2] = [ShareClass::Ordinary, ShareClass::Preferred];

    /// The short code used in files: `ORD` or `PREF`.
    pub const fn code(self) -> &'static str {
        match self {
            ShareClass::Ordinary => "ORD",
            ShareClass::Preferred => "PREF",
        }
    }

    /// The class of a short code, if it is one.
    pub fn from_code(code: &str) -> Option<ShareClass> {
        match code {
            "ORD" => Some(ShareClass::Ordinary),
            "PREF" => Some(ShareClass::Preferred),
            _ => None,
        }
    }
}

/// A figure per share class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassShares {
    /// Ordinary shares.
    pub ordinary: Shares,
    /// Preferred shares.
    pub preferred: Shares,
}

impl ClassShares {
    /// A figure of both classes.
    pub const fn new(ordinary: Shares, preferred: Shares) -> ClassShares {
        ClassShares { ordinary, preferred }
    }

    /// The figure of one class.
    pub const fn of(self, class: ShareClass) -> Shares {
        match class {
            ShareClass::Ordinary => self.ordinary,
            ShareClass::Preferred => self.preferred,
        }
    }

    /// Both classes together.
    pub fn total(self) -> Shares {
        self.ordinary + self.preferred
    }
}
