//! The kinds of message, their tag bytes and signing domains, who signs
//! each, and the one-byte codes of the rules' enumerations.
//!
//! Every code here is part of the format (`docs/ledger-format.md`): a value
//! never changes meaning, and a new one is only ever added. The tables are
//! written out by hand, not derived from the order of the rules' enums, so
//! reordering an enum in `asamblea-rules` cannot silently change a byte.

use std::fmt;

use asamblea_rules::powers::{PowerRefusal, Tie};
use asamblea_rules::{Call, Capacity, DecisionBase, MatterKind, MeetingKind, Outcome, QuorumRule, Role};

/// The only format version this crate reads and writes, for every kind.
///
/// Version 2 put the convened agenda into `meeting-convened` (an item's
/// matter kind, notice and ballot are fixed at convening, not read from a
/// file when it opens) and the staff role into `staff-enrolled`.
/// Version 1 messages are refused, saying so (`Problem::UnsupportedVersion`).
pub const FORMAT_VERSION: u8 = 2;

macro_rules! message_kinds {
    ($( $variant:ident = $tag:literal, $name:literal, $signer:expr; )*) => {
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
            /// `asamblea/<name>/v2`.
            pub const fn domain(self) -> &'static str {
                match self { $(MessageKind::$variant => concat!("asamblea/", $name, "/v2"),)* }
            }

            /// Whose key signs a message of this kind.
            pub const fn signer(self) -> SignerRole {
                match self { $(MessageKind::$variant => $signer,)* }
            }
        }
    };
}

// Who signs each kind. Staff kinds name the one role whose members may
// sign them: the registration desk records the register and who is
// present; the chair conducts the polls (and the lots, which the chair's
// close sets off); the secretary records the written statements
// attendees hand in for the acta. The auditor signs no event.
const OPERATOR: SignerRole = SignerRole::Staff(StaffRole::Operator);
const CHAIR: SignerRole = SignerRole::Staff(StaffRole::Chair);
const SECRETARY: SignerRole = SignerRole::Staff(StaffRole::Secretary);
const DAEMON: SignerRole = SignerRole::Daemon;
const ATTENDEE: SignerRole = SignerRole::Attendee;

message_kinds! {
    MeetingConvened = 0x01, "meeting-convened", DAEMON;
    StaffEnrolled = 0x02, "staff-enrolled", DAEMON;
    RegisterImported = 0x03, "register-imported", OPERATOR;
    CheckedInPerson = 0x04, "checked-in-person", OPERATOR;
    CheckedInAgent = 0x05, "checked-in-agent", OPERATOR;
    ProxyRefused = 0x06, "proxy-refused", OPERATOR;
    CheckedOut = 0x07, "checked-out", OPERATOR;
    BadgeIssued = 0x08, "badge-issued", OPERATOR;
    BadgeRevoked = 0x09, "badge-revoked", OPERATOR;
    ItemOpened = 0x0A, "item-opened", CHAIR;
    Ballot = 0x0B, "ballot", ATTENDEE;
    ItemClosed = 0x0C, "item-closed", CHAIR;
    LotDrawn = 0x0D, "lot-drawn", CHAIR;
    ResultPublished = 0x0E, "result-published", DAEMON;
    StatementRecorded = 0x0F, "statement-recorded", SECRETARY;
    RegisterNamed = 0x10, "register-named", OPERATOR;
    MeetingDescribed = 0x11, "meeting-described", DAEMON;
    AttendeeNamed = 0x12, "attendee-named", OPERATOR;
    AgendaConvened = 0x13, "agenda-convened", DAEMON;
    MeetingInstalled = 0x14, "meeting-installed", CHAIR;
    MeetingSuspended = 0x15, "meeting-suspended", CHAIR;
    MeetingResumed = 0x16, "meeting-resumed", CHAIR;
    MeetingAdjourned = 0x17, "meeting-adjourned", CHAIR;
    PowerLodged = 0x18, "power-lodged", OPERATOR;
    PowerRevoked = 0x19, "power-revoked", OPERATOR;
    CloseAnnounced = 0x1A, "close-announced", CHAIR;
    PollsTimed = 0x1B, "polls-timed", DAEMON;
    MeetingModality = 0x1C, "meeting-modality", DAEMON;
    IdentityVerified = 0x1D, "identity-verified", OPERATOR;
    RemoteCredentialIssued = 0x1E, "remote-credential-issued", OPERATOR;
    CheckedInRemote = 0x1F, "checked-in-remote", ATTENDEE;
    CheckedOutRemote = 0x20, "checked-out-remote", ATTENDEE;
    RemoteRegistration = 0x21, "remote-registration", ATTENDEE;
    RemoteHeartbeat = 0x22, "remote-heartbeat", ATTENDEE;
    PresenceLapsed = 0x23, "presence-lapsed", DAEMON;
    RemoteSubmission = 0x24, "remote-submission", ATTENDEE;
    SubmissionHandled = 0x25, "submission-handled", CHAIR;
    NodeEnrolled = 0x26, "node-enrolled", DAEMON;
    LeaderTookOver = 0x27, "leader-took-over", DAEMON;
    Receipt = 0x40, "receipt", DAEMON;
    Checkpoint = 0x41, "checkpoint", DAEMON;
    SessionPass = 0x42, "session-pass", DAEMON;
}

impl MessageKind {
    /// True for the kinds that are ledger events (everything but receipts
    /// and checkpoints, which the daemon signs about the ledger, a
    /// browser's registration, which waits outside it for the desk, a
    /// remote attendee's heartbeat, which only keeps their presence, and a
    /// staff session's pass from one node to another).
    pub const fn is_event(self) -> bool {
        !matches!(
            self,
            MessageKind::Receipt
                | MessageKind::Checkpoint
                | MessageKind::RemoteRegistration
                | MessageKind::RemoteHeartbeat
                | MessageKind::SessionPass
        )
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
/// `staff-enrolled` event and the role enrolled there, the daemon key
/// through `meeting-convened`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignerRole {
    /// The attendee's credential key: a QR badge's, or the key a remote
    /// attendee's browser made and the desk bound (`remote-credential-issued`).
    Attendee,
    /// The key of a staff member enrolled with this role.
    Staff(StaffRole),
    /// The venue daemon's key, published when it starts.
    Daemon,
}

/// A staff member's role, enrolled with its key (`staff-enrolled`). Each
/// staff event kind may be signed only by a member of one role
/// ([`MessageKind::signer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StaffRole {
    /// The registration desk (Deceval-style): register, check-ins,
    /// proxies, badges, exits.
    Operator,
    /// The chair (presidente): opens and closes the polls.
    Chair,
    /// The secretary: tallies, the acta, exports; records the written
    /// statements (`statement-recorded`).
    Secretary,
    /// Read-only: revisor fiscal, auditors. Signs no event.
    Auditor,
}

impl StaffRole {
    /// Every role, in code order.
    pub const ALL: [StaffRole; 4] =
        [StaffRole::Operator, StaffRole::Chair, StaffRole::Secretary, StaffRole::Auditor];

    /// The role's name in files, the API and error messages.
    pub const fn code(self) -> &'static str {
        match self {
            StaffRole::Operator => "operator",
            StaffRole::Chair => "chair",
            StaffRole::Secretary => "secretary",
            StaffRole::Auditor => "auditor",
        }
    }

    /// The role of a name, if it is one.
    pub fn from_code(code: &str) -> Option<StaffRole> {
        StaffRole::ALL.into_iter().find(|r| r.code() == code)
    }
}

impl fmt::Display for StaffRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
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
wire_codes!(StaffRole { Operator = 1, Chair = 2, Secretary = 3, Auditor = 4 });
wire_codes!(Tie { None = 0, Administrator = 1, Employee = 2, Administration = 3 });

/// A power's verdict: 0 accepted, else the reason it was refused.
impl WireCode for Option<PowerRefusal> {
    fn to_code(self) -> u8 {
        match self {
            None => 0,
            Some(PowerRefusal::MissingAgent) => 1,
            Some(PowerRefusal::MissingDate) => 2,
            Some(PowerRefusal::UnknownHolder) => 3,
            Some(PowerRefusal::AgentBarred) => 4,
            Some(PowerRefusal::SubstituteBarred) => 5,
            Some(PowerRefusal::TiedToAdministration) => 6,
            Some(PowerRefusal::SuggestedByCompany) => 7,
            Some(PowerRefusal::AlreadyCovered) => 8,
            Some(PowerRefusal::DocumentRejected) => 9,
            Some(PowerRefusal::WrongMeeting) => 10,
        }
    }
    fn from_code(code: u8) -> Option<Self> {
        if code == 0 {
            return Some(None);
        }
        PowerRefusal::ALL.into_iter().find(|r| Some(*r).to_code() == code).map(Some)
    }
}

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
        check_table(&StaffRole::ALL, &[]);
        check_table(&[None, Some(Role::Administrator), Some(Role::Employee)], &[]);
        check_table(&[Tie::None, Tie::Administrator, Tie::Employee, Tie::Administration], &[]);
        let verdicts: Vec<Option<PowerRefusal>> =
            std::iter::once(None).chain(PowerRefusal::ALL.into_iter().map(Some)).collect();
        check_table(&verdicts, &[]);
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

    /// The rows of the Markdown table whose header line is `header`, each
    /// split into its cells.
    fn table_rows(doc: &str, header: &str) -> Vec<Vec<String>> {
        let start = doc.find(header).unwrap_or_else(|| panic!("the document lacks the table `{header}`"));
        doc[start..]
            .lines()
            .skip(2)
            .take_while(|line| line.starts_with('|'))
            .map(|line| line.trim_matches('|').split('|').map(|cell| cell.trim().to_string()).collect())
            .collect()
    }

    /// The kinds named in backticks in `cell`.
    fn kinds_in(cell: &str) -> Vec<MessageKind> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .filter_map(|name| MessageKind::ALL.into_iter().find(|kind| kind.name() == name))
            .collect()
    }

    fn read_doc(name: &str) -> String {
        let path = format!("{}/../../docs/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// An independent verifier is written from the documents, so who may
    /// sign each kind must read the same in ledger-format §2, in the
    /// threat model's table (§4) and in `MessageKind::signer`: the threat
    /// model once said the secretary signs nothing while the format gave
    /// it `statement-recorded`.
    #[test]
    fn the_documents_signer_tables_are_the_codes() {
        let format = read_doc("ledger-format.md");
        let mut seen = Vec::new();
        for row in table_rows(&format, "| tag | kind | signed by | ledger event |") {
            let [kind] = kinds_in(&row[1])[..] else {
                panic!("ledger-format §2: a row without one kind: {row:?}")
            };
            let signer = match row[2].as_str() {
                "daemon" => SignerRole::Daemon,
                "attendee (credential key)" => SignerRole::Attendee,
                staff => SignerRole::Staff(
                    staff.strip_prefix("staff: ").and_then(StaffRole::from_code).expect("a staff role"),
                ),
            };
            assert_eq!(signer, kind.signer(), "ledger-format §2, `{kind}`");
            assert_eq!(row[3] == "yes", kind.is_event(), "ledger-format §2, `{kind}`");
            seen.push(kind);
        }
        assert_eq!(seen, MessageKind::ALL, "ledger-format §2 lists every kind, in tag order");

        let threats = read_doc("threat-model.md");
        let mut seen = Vec::new();
        for row in table_rows(&threats, "| signer | kinds |") {
            let signer = match row[0].as_str() {
                "daemon key" => SignerRole::Daemon,
                badge if badge.starts_with("the badge key") => SignerRole::Attendee,
                staff => SignerRole::Staff(
                    staff
                        .strip_prefix("staff key enrolled as `")
                        .and_then(|role| role.strip_suffix('`'))
                        .and_then(StaffRole::from_code)
                        .unwrap_or_else(|| panic!("threat model §4: an unknown signer `{staff}`")),
                ),
            };
            for kind in kinds_in(&row[1]) {
                assert_eq!(signer, kind.signer(), "threat model §4, `{kind}`");
                seen.push(kind);
            }
        }
        let mut events: Vec<MessageKind> = MessageKind::ALL.into_iter().filter(|k| k.is_event()).collect();
        seen.sort_by_key(|kind| kind.tag());
        events.sort_by_key(|kind| kind.tag());
        assert_eq!(seen, events, "threat model §4 names every event kind once");
    }
}
