//! `asamblea-rules`: the pure rules engine of a Colombian shareholders'
//! meeting (Asamblea General de Accionistas).
//!
//! Every number asamblea publishes comes from here: presence and quorum,
//! who may vote on what, tallies, majorities and the electoral quotient.
//! The rules are those of `shared/rules.md` (R1–R19, with the defaults of
//! OQ1–OQ10 as settings of a [`Profile`]).
//!
//! # Invariants
//!
//! - **Pure.** No I/O, no clock, no randomness, no async, no serialization
//!   format: the daemon, the scenario runner and the offline verifier feed
//!   the same [`Meeting`] and get the same answers. A test reads
//!   `cargo metadata` and fails if this crate gains a dependency on tokio,
//!   rusqlite, axum, rustls or serde.
//! - **Integers only.** [`Shares`] wraps a `u64`; every product is taken in
//!   `u128`. A threshold is an inequality such as `2·F > E` or
//!   `100·F ≥ 78·E`, never a division.
//! - **A refusal changes nothing.** Each operation on a [`Meeting`] either
//!   applies completely or returns a [`Refusal`] with a stable code.
//!
//! # Layout
//!
//! - [`shares`](crate::Shares): `Shares`, classes.
//! - `register`: capital, holders, the validated [`Register`].
//! - `profile`: matter kinds, majorities, bylaws [`Profile`] and settings.
//! - `presence`: channels (in person, proxy, legal representative), `P`
//!   and `H`.
//! - `attendance`: presence as it happened — each person's visits and each
//!   holder's stays, with the records that began and ended them.
//! - `continuity`: the quorum's continuity derived from the record's
//!   marks (HY-4): at the installation, through each poll, and every
//!   interval in session without it.
//! - `item`: agenda items, ballots, results.
//! - `election`: the electoral quotient with largest remainders.
//! - `meeting`: the state machine that ties them together.
//! - `modality`: in person, mixed or remote (Ley 222 art. 19), and how
//!   long a remote presence holds without a sign of life.
//! - [`powers`]: powers of attorney lodged before the meeting, and the
//!   one order in which the rules refuse them.
//! - `session`: installation, suspension, resumption, adjournment.
//! - `refusal`: the codes of refused steps.
//! - [`calendar`]: dates, Colombia's public holidays and business days,
//!   and the one way days are counted between two dates.
//! - [`convening`]: the notice each matter needs, the window of an
//!   ordinary meeting and the day of a meeting by own right (R20).

mod attendance;
pub mod calendar;
mod continuity;
pub mod convening;
mod election;
mod item;
mod meeting;
mod modality;
pub mod powers;
mod presence;
mod profile;
mod refusal;
mod register;
mod session;
mod shares;
mod timing;

pub use attendance::{Attendance, Attendant, Attending, Medium, Moment, Stay, Visit};
pub use continuity::{continuity, Continuity, PollQuorum, QuorumEvent, QuorumGap, QuorumMark};
pub use election::{apportion, Apportionment};
pub use item::{
    Ballot, BallotOptions, DecisionResult, ElectionResult, Item, ItemIndex, ItemResult, ItemSpec,
    ItemSpecError, OptionIndex, Outcome,
};
pub use meeting::{ClassPresence, Meeting, PollMoment, QuorumPoint, QuorumReading};
pub use modality::{Modality, RemotePresence};
pub use presence::{AgentIndex, Capacity, Channel, Presence};
pub use profile::{
    BylawRules, Call, DecisionBase, Majority, MatterKind, MatterRules, MeetingKind, Profile, ProfileError,
    QuorumRule, Settings,
};
pub use refusal::Refusal;
pub use register::{
    Capital, ClassCapital, Holder, HolderIndex, HolderSpec, Register, RegisterError, Role, SplitPermission,
};
pub use session::{colombia_day, SessionRefusal, SessionState, SessionStep, Sessions, SESSION_DAYS};
pub use shares::{ClassShares, ShareClass, Shares};
pub use timing::{duration_text, PollTiming, TimingRefusal};
