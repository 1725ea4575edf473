//! What anyone may read: the live status (the board), an item's result,
//! the counted ballots, receipts and their check, and the live feed's
//! messages.

use serde::{Deserialize, Serialize};

use crate::{ByClass, ByList};

/// `GET /api/v1/status`: the meeting, the quorum, every agenda item, and
/// the last head the daemon signed. Every figure is of durable events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Status {
    /// The meeting as convened.
    pub meeting: MeetingInfo,
    /// The quorum now, with its series.
    pub quorum: Quorum,
    /// The whole agenda as convened, in its order.
    pub items: Vec<ItemStatus>,
    /// The last chain head the daemon signed for observers, while a poll
    /// is open (none before the first).
    pub head: Option<SignedHead>,
    /// Set once the ledger failed: the status then stays the last one
    /// computed before, and this says why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ledger_failed: Option<LedgerFailed>,
    /// The whole agenda as convened, in its order: the items of `items`
    /// in their place among those read, reported or discussed without a
    /// vote. Empty for a meeting convened before the whole agenda was
    /// recorded (`items` is then the agenda).
    #[serde(default)]
    pub agenda: Vec<AgendaPlace>,
    /// Where the meeting stands (installed, suspended, adjourned), with
    /// every step of the chair's.
    #[serde(default)]
    pub session: Session,
}

/// A place on the whole agenda.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AgendaPlace {
    /// The item's id (an item of `items` when it is voted).
    pub id: String,
    /// Its title.
    pub title: String,
    /// True for an item read, reported or discussed, never voted.
    pub informative: bool,
}

/// Where the meeting stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum SessionState {
    /// Not installed yet: no poll opens.
    #[default]
    NotInstalled,
    /// Installed or resumed: in session.
    InSession,
    /// Suspended: nothing is voted until it resumes.
    Suspended,
    /// Adjourned: over.
    Adjourned,
}

/// A step of the chair's (C.Co Arts. 427–430).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum SessionStepCode {
    /// The meeting installed.
    Installed,
    /// Suspended.
    Suspended,
    /// Resumed.
    Resumed,
    /// Adjourned.
    Adjourned,
}

/// The meeting's sessions: where it stands and each step so far.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Session {
    /// Where it stands.
    pub state: SessionState,
    /// Every step, in order.
    pub steps: Vec<SessionStep>,
}

/// One step of the chair's, with the quorum at that moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SessionStep {
    /// Which step.
    pub step: SessionStepCode,
    /// Its record's number.
    pub seq: u64,
    /// Its record's time, ms since the Unix epoch.
    pub at_ms: u64,
    /// What the chair added (may be empty).
    pub note: String,
    /// The quorum at that moment.
    pub quorum: QuorumReading,
}

/// An election's list with the candidates it carries, in its order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListCandidates {
    /// The list's name, as on the ballot.
    pub list: String,
    /// Its candidates, in the list's order.
    pub candidates: Vec<Candidate>,
}

/// A candidate: the principal and the alternate (suplente) elected with
/// them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Candidate {
    /// The principal.
    pub principal: String,
    /// The alternate; empty when the seat has none.
    pub suplente: String,
    /// Both as every page and the acta print them: «principal (suplente:
    /// …)», or the principal alone.
    pub words: String,
}

/// A seat an election gave, and to whom: the list's candidates take its
/// seats in their order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ElectedSeat {
    /// The list that won the seat.
    pub list: String,
    /// The seat's number within the list's seats, from 1.
    pub seat: u32,
    /// Who takes it; none when the list named fewer candidates than it won
    /// seats.
    pub candidate: Option<Candidate>,
}

/// The meeting as its file convened it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MeetingInfo {
    /// The company's name.
    pub company: String,
    /// The day convened, `YYYY-MM-DD`.
    pub date: String,
    /// The hour convened, `HH:MM`.
    pub time: String,
    /// Where.
    pub place: String,
    /// `ordinary` or `extraordinary`.
    pub kind: String,
    /// `first` or `second` call.
    pub call: String,
    /// How it is held: `presencial`, `mixta` or `no-presencial` (Ley 222
    /// art. 19; `rules.md` HY-1).
    pub modality: String,
    /// The remote channel as the notice states it, for a `mixta` or
    /// `no-presencial` meeting; none for a `presencial` one.
    pub remote: Option<RemoteChannel>,
}

/// The remote channel of a mixed or non-presential meeting, as its notice
/// states it (Decreto 398 de 2020; Circular Básica Jurídica 2022, cap. III).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RemoteChannel {
    /// The medium: the platform's name and address.
    pub medium: String,
    /// How to connect.
    pub access: String,
    /// How each remote attendee's identity is verified.
    pub identity_check: String,
    /// How the floor is asked for and given.
    pub floor: String,
    /// The legal representative delegates the identity check to the
    /// registration staff (OQ12).
    pub identity_delegated: bool,
}

/// Why the ledger failed, and what the technician does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LedgerFailed {
    /// `disk-full`, `read-only`, `other-writer`, `corrupt`, `io-error` or
    /// `other`.
    pub cause: String,
    /// What to do, in Spanish.
    pub message: String,
    /// The same in English.
    pub message_en: String,
}

/// A reading of the quorum: voting shares and holders present, of how
/// many, and whether this call's quorum holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QuorumReading {
    /// Voting shares present.
    pub present_shares: u64,
    /// Holders present (with voting shares).
    pub holders: u32,
    /// The voting shares outstanding: the denominator.
    pub voting_outstanding: u64,
    /// `present_shares` of `voting_outstanding`, as people read it
    /// (`50,04 %`).
    pub percent: String,
    /// Whether this call's quorum holds.
    pub met: bool,
}

/// The quorum now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Quorum {
    /// The reading now.
    #[serde(flatten)]
    pub reading: QuorumReading,
    /// Whether a first call's quorum would hold (the chair reads it at a
    /// second call too).
    pub first_call_met: bool,
    /// The threshold in words, in Spanish.
    pub threshold_es: String,
    /// The same in English.
    pub threshold_en: String,
    /// Its legal source.
    pub threshold_source: String,
    /// The fewest shares that make a first call's quorum; none at a second
    /// call.
    pub minimum_shares: Option<u64>,
    /// Presence in each share class.
    pub by_class: Vec<ClassPresence>,
    /// The reading at every poll's open and close, in order.
    pub series: Vec<QuorumPoint>,
}

/// Who is present in one share class.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClassPresence {
    /// `ORD` or `PREF`.
    pub class: String,
    /// The class's name in Spanish.
    pub name_es: String,
    /// Shares of the class present.
    pub present: u64,
    /// Shares of the class outstanding.
    pub outstanding: u64,
    /// Holders of the class present.
    pub holders: u32,
    /// `present` of `outstanding`, as people read it.
    pub percent: String,
}

/// The quorum at one poll's open or close.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QuorumPoint {
    /// The reading then.
    #[serde(flatten)]
    pub reading: QuorumReading,
    /// The item.
    pub item: String,
    /// `open` or `close`.
    pub moment: String,
    /// Presence by class then.
    pub by_class: Vec<ClassPresence>,
}

/// Where an agenda item stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum ItemState {
    /// Never opened.
    Pending,
    /// Its poll is open.
    Open,
    /// Its poll closed: the result is published.
    Closed,
}

/// An agenda item on the board: what it is, the rule that decides it, and
/// its turnout while open or its result once closed. Never a running
/// tally of an open poll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ItemStatus {
    /// The item's id.
    pub id: String,
    /// Its title as convened.
    pub title: String,
    /// The matter's code (`ordinary`, `financial-statements`, …).
    pub matter: String,
    /// The matter in Spanish.
    pub matter_es: String,
    /// The matter in English.
    pub matter_en: String,
    /// The rule that decides it, in Spanish.
    pub rule_es: String,
    /// The same in English.
    pub rule_en: String,
    /// The rule's legal source.
    pub rule_source: String,
    /// Pending, open or closed.
    pub state: ItemState,
    /// While open: votes recorded (one per holder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ballots: Option<u32>,
    /// While open: the shares those votes weigh.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shares_voted: Option<u64>,
    /// Once opened: when the poll opened, in ms since the Unix epoch (the
    /// time of its `item-opened` record): the room is told how long it has
    /// been open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opened_at_ms: Option<u64>,
    /// While open, in a meeting with poll timing (rules.md §11.5): the
    /// shortest countdown the chair may announce, in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_countdown_ms: Option<u64>,
    /// Once the close was announced: the latest announcement's time, ms
    /// since the Unix epoch (its record's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close_announced_at_ms: Option<u64>,
    /// Once the close was announced: its countdown, in ms; every screen
    /// counts down to `close_announced_at_ms + close_countdown_ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close_countdown_ms: Option<u64>,
    /// While open: the first moment the chair may close it (ms since the
    /// Unix epoch), by the minimum open time and the announced countdown;
    /// absent while the close must still be announced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closes_from_ms: Option<u64>,
    /// Once closed: the outcome as the chair reads it (`APROBADO`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome_es: Option<String>,
    /// Once closed: the result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ItemResult>,
    /// Once closed: why it passed or failed, in Spanish.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why_es: Option<String>,
    /// The same in English.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why_en: Option<String>,
    /// An election's lists with their quotient arithmetic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lists: Option<Vec<ListFigures>>,
    /// The lots drawn at the close.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lots: Option<Vec<Lot>>,
    /// An election's lists with their candidates, when the meeting file
    /// named them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<ListCandidates>>,
    /// Once an election is closed with its seats given: who was elected
    /// to each seat (needs `candidates`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elected: Option<Vec<ElectedSeat>>,
    /// An election's base, as its explanation names it and every table
    /// shows it: a single seat's `E`, the eligible shares present (elected
    /// when `2·v > E`), which FORMAT.md's `result` does not carry; a
    /// board's valid votes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub election_base: Option<u64>,
}

/// An item's result, in the shape `shared/scenarios/FORMAT.md` fixes for
/// the conformance scenarios (`GET /api/v1/results/{item}`, the board, the
/// close's answer). A decision has the figures from `quorum_at_close` to
/// `withdrawal`; an election `valid`, `votes`, `seats`, `lot_between`;
/// `blank` is either's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ItemResult {
    /// The matter's code.
    pub matter: String,
    /// `approved`, `rejected`, `elected`, `tie`, … (FORMAT.md).
    pub outcome: String,
    /// Whether the quorum held when the poll opened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quorum_at_open: Option<bool>,
    /// Whether it held at the close.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quorum_at_close: Option<bool>,
    /// Voting shares present at the close.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub present: Option<u64>,
    /// Shares present that may not vote on it (R10, R13).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impeded: Option<u64>,
    /// The base the majority is of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<u64>,
    /// Shares for.
    #[serde(rename = "for", default, skip_serializing_if = "Option::is_none")]
    pub for_votes: Option<u64>,
    /// Shares against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub against: Option<u64>,
    /// Shares blank.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blank: Option<u64>,
    /// Shares present that did not vote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abstain: Option<u64>,
    /// Holders who voted for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holders_for: Option<u32>,
    /// Shares for by class, where preferred shares vote apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_by_class: Option<ByClass>,
    /// Holders who may withdraw (derecho de retiro, R18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawal: Option<Vec<String>>,
    /// An election's valid votes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid: Option<u64>,
    /// An election's votes by list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<std::collections::HashMap<String, u64>>))]
    pub votes: Option<ByList<u64>>,
    /// An election's seats by list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<std::collections::HashMap<String, u32>>))]
    pub seats: Option<ByList<u32>>,
    /// Lists tied across the last seat, for a lot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lot_between: Option<Vec<String>>,
}

/// An election's list as the chair reads it: votes, seats by quotient,
/// the remainder, seats by remainder or lot, and seats in all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListFigures {
    /// The list's name.
    pub list: String,
    /// Its votes.
    pub votes: u64,
    /// Seats by the quotient, `⌊v·N/V⌋`.
    pub by_quotient: u64,
    /// The remainder in votes, two decimals, as people read it.
    pub remainder: String,
    /// Seats by remainder or lot.
    pub by_remainder: u64,
    /// Seats in all.
    pub seats: u32,
}

/// A lot drawn at a close (ledger-format §7.3): anyone draws it again from
/// its seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Lot {
    /// The round.
    pub round: u32,
    /// The seed, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub seed: String,
    /// The list that won it.
    pub winner: String,
}

/// The marker of a signed head's JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum HeadType {
    /// Always `head`.
    Head,
}

/// The chain's durable head, signed by the daemon: an observer keeps it
/// as a witness (`asamblea verify --witness`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SignedHead {
    /// Always `head`.
    #[serde(rename = "type")]
    pub kind: HeadType,
    /// The record's number.
    pub seq: u64,
    /// The chain's head there, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub head: String,
    /// The daemon's signature of the checkpoint, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex64))]
    pub signature: String,
}

/// A voter's receipt: what a ballot is answered with (`POST
/// /api/v1/ballots`), what `GET /api/v1/receipts/{digest}` gives again,
/// and what `POST /api/v1/receipts/check` takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SignedReceipt {
    /// Where the ballot is.
    pub receipt: ReceiptFields,
    /// The daemon's signature of the receipt, hex (128 digits).
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex64))]
    pub signature: String,
}

/// A receipt's three figures (ledger-format §10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ReceiptFields {
    /// The ballot's number in the ledger.
    pub seq: u64,
    /// The chain's head at that number, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub head: String,
    /// The ballot event's SHA-256, hex.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub event: String,
}

/// `POST /api/v1/receipts/check`: the ledger bears the receipt out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReceiptBorneOut {
    /// Always true (a receipt the ledger does not bear out is an error).
    pub valid: bool,
    /// The ballot's number.
    pub seq: u64,
    /// What the voter reads, in Spanish.
    pub message: String,
    /// The same in English.
    pub message_en: String,
}

/// `GET /api/v1/results/{item}/ballots?q=&pagina=`: the query.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct CountedQuery {
    /// The start of a ballot's hash, hex (at most 64 digits).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", param(value_type = crate::formats::HashPrefix))]
    pub q: String,
    /// The page, from 1.
    #[serde(default)]
    pub pagina: Option<usize>,
}

/// The ballots counted on a closed item, by the hash each receipt names,
/// a page at a time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CountedBallots {
    /// The item.
    pub item: String,
    /// Ballots counted on it.
    pub counted: usize,
    /// Those whose hash starts with the query.
    pub matched: usize,
    /// This page, from 1.
    pub page: usize,
    /// Pages in all.
    pub pages: usize,
    /// This page's ballots.
    pub ballots: Vec<CountedBallot>,
}

/// One counted ballot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CountedBallot {
    /// Its number in the ledger.
    pub seq: u64,
    /// Its event's SHA-256, hex: the receipt's `event`.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Hex32))]
    pub hash: String,
}

/// A message of the live feed (`GET /api/v1/feed`, server-sent events:
/// each event's data is one of these, as JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum FeedMessage {
    /// The status changed (`type: status`). Boxed, as the result: the
    /// head, sent every few seconds, is a tenth of their size.
    Status(Box<StatusMessage>),
    /// A signed head (`type: head`).
    Head(SignedHead),
    /// A poll closed (`type: result`).
    Result(Box<ResultMessage>),
}

/// The marker of a status message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum StatusType {
    /// Always `status`.
    Status,
}

/// The feed's status message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StatusMessage {
    /// Always `status`.
    #[serde(rename = "type")]
    pub kind: StatusType,
    /// The status now.
    pub status: Status,
}

/// The marker of a result message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum ResultType {
    /// Always `result`.
    Result,
}

/// The feed's message at a close.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResultMessage {
    /// Always `result`.
    #[serde(rename = "type")]
    pub kind: ResultType,
    /// The item.
    pub item: String,
    /// Its result.
    pub result: ItemResult,
}

/// `GET /api/v1/nodes`: a replicated meeting's nodes (`serve --replica
/// --node`) and where each serves, as each published it; empty for a
/// meeting on one machine. The consoles and the board read it so that,
/// when the node they were opened at stops answering, they find the one
/// that serves the meeting now. On the venue's address alone.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Nodes {
    /// The node that answered (it leads), when the meeting is replicated.
    pub this: Option<String>,
    /// Every node that published its address, by name.
    pub nodes: Vec<NodeAddress>,
}

/// A pass that continues a staff member's console session at another
/// node of a replicated meeting (`POST /api/v1/session/pass`; the page
/// posts it to the next node's `/personal/continuar` when its own stops
/// answering).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SessionPassAnswer {
    /// The pass and the node's signature, `BYTES:SIGNATURE` in hexadecimal
    /// (`docs/ledger-format.md` §6).
    pub pass: String,
    /// How long any node of the meeting takes it, in milliseconds.
    pub expires_in_ms: u64,
}

/// One node and where it serves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NodeAddress {
    /// Its name (`--node`).
    pub name: String,
    /// `host:port` of its HTTPS listener (`--advertise`, or `--listen`).
    pub address: String,
}
