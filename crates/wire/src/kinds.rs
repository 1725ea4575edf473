//! The kinds of message, their tag bytes and signing domains, who signs
//! each, and the one-byte codes of the rules' enumerations.
//!
//! Every code here is part of the format (`docs/ledger-format.md`): a value
//! never changes meaning, and a new one is only ever added. The tables are
//! written out by hand, not derived from the order of the rules' enums, so
//! reordering an enum in `asamblea-rules` cannot silently change a byte.

use std::fmt;

use asamblea_rules::{Call, Capacity, DecisionBase, MatterKind, MeetingKind, Outcome, QuorumRule, Role};

/// The only format version this crate reads and writes, for every kind.
pub const FORMAT_VERSION: u8 = 1;

macro_rules! message_kinds {
    ($( $variant:ident = $tag:literal, $name:literal, $signer:ident; )*) => {
        /// Every kind of message, with its tag byte (the first byte of its
        /// encoding).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum MessageKind {
            $(
                #[doc = concat!("`", $name, "` (tag ", stringify!($tag), ").")]
                $variant,
            )*
        }

        impl MessageKind {
            /// Every kind, in tag order.
            pub const ALL: [MessageKind; [$($tag),*].len()] = [$(MessageKind::$variant),*];

            /// The tag byte.
            pub const fn tag(self) -> u8 {
                match self { $(MessageKind::$variant => $tag,)* }
            }

            /// The kind of a tag byte, if it is one.
            pub const fn from_tag(tag: u8) -> Option<MessageKind> {
                match tag { $($tag => Some(MessageKind::$variant),)* _ => None }
            }

            /// The name in the signing domain and in error messages
            /// (`ballot`, `item-opened`, …).
            pub const fn name(self) -> &'static str {
                match self { $(MessageKind::$variant => $name,)* }
            }

            /// The signing domain of version [`FORMAT_VERSION`]:
            /// `asamblea/<name>/v1`.
            pub const fn domain(self) -> &'static str {
                match self { $(MessageKind::$variant => concat!("asamblea/", $name, "/v1"),)* }
            }

            /// Whose key signs a message of this kind.
            pub const fn signer(self) -> SignerRole {
                match self { $(MessageKind::$variant => SignerRole::$signer,)* }
            }
        }
    };
}

message_kinds! {
    MeetingConvened = 0x01, "meeting-convened", Daemon;
    StaffEnrolled = 0x02, "staff-enrolled", Daemon;
    RegisterImported = 0x03, "register-imported", Staff;
    CheckedInPerson = 0x04, "checked-in-person", Staff;
    CheckedInAgent = 0x05, "checked-in-agent", Staff;
    ProxyRefused = 0x06, "proxy-refused", Staff;
    CheckedOut = 0x07, "checked-out", Staff;
    BadgeIssued = 0x08, "badge-issued", Staff;
    BadgeRevoked = 0x09, "badge-revoked", Staff;
    ItemOpened = 0x0A, "item-opened", Staff;
    Ballot = 0x0B, "ballot", Attendee;
    ItemClosed = 0x0C, "item-closed", Staff;
    LotDrawn = 0x0D, "lot-drawn", Staff;
    ResultPublished = 0x0E, "result-published", Daemon;
    Receipt = 0x40, "receipt", Daemon;
    Checkpoint = 0x41, "checkpoint", Daemon;
}

impl MessageKind {
    /// True for the kinds that are ledger events (everything but receipts
    /// and checkpoints, which the daemon signs about the ledger).
    pub const fn is_event(self) -> bool {
        !matches!(self, MessageKind::Receipt | MessageKind::Checkpoint)
    }
}

impl fmt::Display for MessageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whose key signs a kind of message. The format fixes it; that the key
/// really belongs to such a signer is for the ledger replay to check (an
/// attendee key through its `badge-issued` event, a staff key through its
/// `staff-enrolled` event, the daemon key through `meeting-convened`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignerRole {
    /// The attendee's credential key, from the QR badge.
    Attendee,
    /// A staff member's key (registration operator, chair, secretary).
    Staff,
    /// The venue daemon's key, published when it starts.
    Daemon,
}

/// A rules enumeration carried as one byte.
pub(crate) trait WireCode: Sized {
    /// The byte.
    fn to_code(self) -> u8;
    /// The value of a byte, if it has one.
    fn from_code(code: u8) -> Option<Self>;
}

macro_rules! wire_codes {
    ($ty:ty { $( $variant:ident = $code:literal ),* $(,)? }) => {
        impl $crate::kinds::WireCode for $ty {
            fn to_code(self) -> u8 {
                match self { $(<$ty>::$variant => $code,)* }
            }
            fn from_code(code: u8) -> Option<Self> {
                match code { $($code => Some(<$ty>::$variant),)* _ => None }
            }
        }
    };
}

pub(crate) use wire_codes;

wire_codes!(MatterKind {
    Ordinary = 1,
    FinancialStatements = 2,
    LiquidationAccounts = 3,
    ProfitDistribution = 4,
    ProfitDistributionBelowMinimum = 5,
    IssueWithoutPreemptiveRights = 6,
    StockDividend = 7,
    PreferredAdverseChange = 8,
    PreferredConversion = 9,
    RemoveAdministrators = 10,
    CapitalIncrease = 11,
    CapitalReduction = 12,
    BylawAmendment = 13,
    Merger = 14,
    SpinOff = 15,
    Transformation = 16,
    Delisting = 17,
    Segregation = 18,
    SuspendMeeting = 19,
    BoardElection = 20,
    SingleSeatElection = 21,
});
wire_codes!(MeetingKind { Ordinary = 1, Extraordinary = 2 });
wire_codes!(Call { First = 1, Second = 2, OwnRight = 3 });
wire_codes!(QuorumRule { MoreThanHalf = 1, HalfPlusOne = 2 });
wire_codes!(DecisionBase { Present = 1, Cast = 2 });
wire_codes!(Capacity { Proxy = 1, LegalRepresentative = 2 });

/// An optional role: 0 for none.
impl WireCode for Option<Role> {
    fn to_code(self) -> u8 {
        match self {
            None => 0,
            Some(Role::Administrator) => 1,
            Some(Role::Employee) => 2,
        }
    }
    fn from_code(code: u8) -> Option<Self> {
        match code {
            0 => Some(None),
            1 => Some(Some(Role::Administrator)),
            2 => Some(Some(Role::Employee)),
            _ => None,
        }
    }
}

/// Outcomes of a published result. `open` has no code: a result is
/// published only once its item is closed.
impl WireCode for Outcome {
    fn to_code(self) -> u8 {
        match self {
            Outcome::Open => 0,
            Outcome::Pass => 1,
            Outcome::Fail => 2,
            Outcome::NoQuorum => 3,
            Outcome::AllImpeded => 4,
            Outcome::Elected => 5,
            Outcome::LotRequired => 6,
        }
    }
    fn from_code(code: u8) -> Option<Self> {
        match code {
            1 => Some(Outcome::Pass),
            2 => Some(Outcome::Fail),
            3 => Some(Outcome::NoQuorum),
            4 => Some(Outcome::AllImpeded),
            5 => Some(Outcome::Elected),
            6 => Some(Outcome::LotRequired),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_table<T: WireCode + Copy + PartialEq + fmt::Debug>(all: &[T], skip: &[T]) {
        for &value in all.iter().filter(|v| !skip.contains(v)) {
            assert_eq!(T::from_code(value.to_code()), Some(value), "{value:?}");
        }
        let decodable = (0..=255u8).filter(|&c| T::from_code(c).is_some()).count();
        assert_eq!(decodable, all.len() - skip.len());
    }

    #[test]
    fn every_code_table_is_a_bijection() {
        check_table(&MatterKind::ALL, &[]);
        check_table(&[MeetingKind::Ordinary, MeetingKind::Extraordinary], &[]);
        check_table(&[Call::First, Call::Second, Call::OwnRight], &[]);
        check_table(&[QuorumRule::MoreThanHalf, QuorumRule::HalfPlusOne], &[]);
        check_table(&[DecisionBase::Present, DecisionBase::Cast], &[]);
        check_table(&[Capacity::Proxy, Capacity::LegalRepresentative], &[]);
        check_table(&[None, Some(Role::Administrator), Some(Role::Employee)], &[]);
        let outcomes = [
            Outcome::Open,
            Outcome::Pass,
            Outcome::Fail,
            Outcome::NoQuorum,
            Outcome::AllImpeded,
            Outcome::Elected,
            Outcome::LotRequired,
        ];
        check_table(&outcomes, &[Outcome::Open]);
    }

    #[test]
    fn matter_codes_follow_the_format_order() {
        // The documented table is FORMAT.md's order from 1; pin it here so
        // a reordering of `MatterKind::ALL` is noticed, not followed.
        for (i, kind) in MatterKind::ALL.into_iter().enumerate() {
            assert_eq!(usize::from(kind.to_code()), i + 1, "{kind}");
        }
    }

    #[test]
    fn tags_names_and_domains_are_unique() {
        for (i, a) in MessageKind::ALL.into_iter().enumerate() {
            assert_eq!(MessageKind::from_tag(a.tag()), Some(a));
            assert_eq!(a.domain(), format!("asamblea/{}/v{FORMAT_VERSION}", a.name()));
            for b in &MessageKind::ALL[i + 1..] {
                assert_ne!(a.tag(), b.tag());
                assert_ne!(a.name(), b.name());
            }
        }
        assert_eq!(MessageKind::from_tag(0), None);
    }
}
