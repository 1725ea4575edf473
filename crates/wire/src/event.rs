//! Ledger events: everything that changes a meeting, as it is signed and
//! chained.
//!
//! Every event encodes as `tag (u8) || version (u8) || nonce (16 bytes) ||
//! body`, the body's fields in the order they are declared here. Lists
//! whose order carries no meaning (principals, the holders of a ballot, the
//! parts of a split) must be strictly ascending, so that one meaning has
//! exactly one encoding and nothing can be named twice.

use asamblea_rules::{
    Ballot as RulesBallot, BallotOptions, Call, Capacity, Capital, ClassCapital, ItemSpec, ItemSpecError,
    MatterKind, MeetingKind, OptionIndex, Refusal, Role, Settings, Shares,
};

mod agenda;
mod ballot;
mod codec;
mod modality;
mod power;
mod remote;

pub use agenda::{AgendaEntry, AgendaItem, Candidate};
pub use ballot::{Ballot, Choice, HolderVote, SplitPart};
pub use modality::{ConvenedModality, RemoteConvening};
pub use power::{LodgedPower, Reception, Revocation, Substitute};
pub use remote::{SubmissionKind, SubmissionOutcome, VerificationMethod};

use crate::codec::{Reader, Writer};
use crate::error::{Problem, WireError};
use crate::keys::PublicKey;
use crate::kinds::{wire_codes, MessageKind, StaffRole};
use crate::limits::{
    MAX_AGENDA_ENTRIES, MAX_AGENDA_ITEMS, MAX_CANDIDATES, MAX_LISTS, MAX_PRINCIPALS, MAX_SPLIT_PARTS,
    MAX_VOTES,
};
use crate::result::PublishedResult;
use crate::values::{CredentialId, Digest, Id, Nonce, Text};

/// One ledger event: a nonce that makes it unique, and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Drawn at random by the signer; never repeated within a ledger.
    pub nonce: Nonce,
    /// What happened.
    pub body: EventBody,
}

/// What happened, one variant per event kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventBody {
    /// The meeting's constitution: who runs it and under which rules.
    /// Signed by the daemon; the first event of every ledger.
    MeetingConvened {
        /// The daemon's key, which must be the key signing this event.
        daemon_key: PublicKey,
        /// The bylaws profile's name (`grupo-aval`, …).
        profile: Id,
        /// SHA-256 of the profile file's bytes, as shipped in the bundle.
        profile_digest: Digest,
        /// Ordinary or extraordinary meeting.
        meeting_kind: MeetingKind,
        /// Which call it sits on.
        call: Call,
        /// The profile's settings with the meeting's overrides. These
        /// govern the meeting, not the profile file's own `[settings]`.
        settings: Settings,
        /// The agenda as convened (C.Co Art. 425, Aval Art. 3): 1 to
        /// [`MAX_AGENDA_ITEMS`] items in order, no id twice. An item's
        /// matter kind, notice and ballot are fixed here, once.
        agenda: Vec<AgendaItem>,
    },
    /// A staff member's key is admitted with its role. Signed by the
    /// daemon.
    StaffEnrolled {
        /// The staff member's key.
        key: PublicKey,
        /// What the member may sign ([`MessageKind::signer`]).
        role: StaffRole,
        /// A name for the acta and the logs.
        name: Id,
    },
    /// The share register the meeting runs on.
    RegisterImported {
        /// [`register_digest`](crate::register_digest) of the register.
        register_digest: Digest,
        /// Number of holders in it.
        holders: u32,
        /// The capital per class (treasury never above subscribed).
        capital: Capital,
    },
    /// A holder arrives in person.
    CheckedInPerson {
        /// The holder.
        holder: Id,
    },
    /// An agent arrives carrying principals (a proxy accepted).
    CheckedInAgent(AgentArrival),
    /// An agent's arrival refused, with the reason.
    ProxyRefused {
        /// The arrival as it was presented.
        arrival: AgentArrival,
        /// Why it was refused.
        reason: ProxyRefusal,
    },
    /// A person leaves: a holder, or an agent with all its principals.
    CheckedOut {
        /// The holder or agent.
        person: Id,
    },
    /// A QR badge printed for a person; only its public key is kept.
    BadgeIssued {
        /// The badge's number, unique within the meeting.
        credential: CredentialId,
        /// The public key of the badge's seed.
        key: PublicKey,
        /// The holder or agent it belongs to.
        person: Id,
    },
    /// A badge that may no longer vote (lost, or its holder left for good).
    BadgeRevoked {
        /// The badge's number.
        credential: CredentialId,
    },
    /// A poll opened on an item of the convened agenda.
    ItemOpened {
        /// The item's id, as convened.
        item: Id,
    },
    /// A ballot, signed by the attendee's credential.
    Ballot(Ballot),
    /// A poll closed.
    ItemClosed {
        /// The item.
        item: Id,
    },
    /// A lot drawn to give one seat among lists tied on the remainder
    /// (R15), recomputable with [`lot_index`](crate::lot_index).
    LotDrawn {
        /// The item.
        item: Id,
        /// The draw's number on this item, from 0.
        round: u32,
        /// The chain head right after the item's `item-closed` record.
        seed: Digest,
        /// The list that takes the seat.
        winner: Id,
    },
    /// A closed item's result. Signed by the daemon.
    ResultPublished {
        /// The item.
        item: Id,
        /// Its figures.
        result: PublishedResult,
    },
    /// Holders' names, in the register's order from position `first`:
    /// what the acta and the exports print (the register's digest covers
    /// ids and shares, not names). Recorded at creation, after
    /// `register-imported`, by the registration desk.
    RegisterNamed {
        /// The position in the register of the first name.
        first: u32,
        /// 1 to [`crate::limits::MAX_NAMES`] names.
        names: Vec<Text>,
    },
    /// The meeting file the meeting was created from (`meeting.toml`),
    /// byte for byte: the company, the place, the call and its notice, for
    /// the acta. Signed by the daemon, once, at creation.
    MeetingDescribed {
        /// The file's text.
        file: crate::FileText,
    },
    /// A written statement (constancia) an attendee handed in about an
    /// item, for the acta (C.Co Art. 189: the minutes record the
    /// statements made). Signed by the secretary who received it.
    StatementRecorded {
        /// The item it is about: on the convened agenda.
        item: Id,
        /// Who made it: present at the meeting (a holder in person, or an
        /// agent) when it is recorded.
        person: Id,
        /// Its words.
        text: crate::Prose,
    },
    /// The natural person who attends, by name, as the desk read it from
    /// their identity card: an agent (whose id the register, which names
    /// only holders, does not know), or the person who attends for a
    /// holder arriving in person, with their own document when that
    /// holder is a company. For the badge, the kiosk's greeting and the
    /// acta. Recorded by the registration desk with the arrival.
    AttendeeNamed {
        /// A holder present in person, or an agent present, when it is
        /// recorded.
        person: Id,
        /// The attending person's name: 1 to 256 bytes.
        name: Text,
        /// The attending person's own document when it is not `person`
        /// (who attends for a company holder in person); none otherwise.
        document: Option<Id>,
    },
    /// The whole agenda as convened: the items of `meeting-convened` in
    /// their place among those read, reported or discussed without a vote
    /// (informative items), and the candidates each election's lists
    /// carry. Signed by the daemon, once, when the meeting is convened,
    /// before the register is imported.
    AgendaConvened {
        /// 1 to [`MAX_AGENDA_ENTRIES`] entries, in the agenda's order.
        entries: Vec<AgendaEntry>,
    },
    /// The chair installs the meeting, having verified the quorum (C.Co
    /// Art. 427–429): the first session begins.
    MeetingInstalled {
        /// What the chair adds for the acta (may be empty).
        note: Text,
    },
    /// The chair suspends the meeting, to resume later (C.Co Art. 430):
    /// nothing is put to the vote until it resumes.
    MeetingSuspended {
        /// Why, and when it is to resume (may be empty).
        note: Text,
    },
    /// The chair resumes a suspended meeting: a new session.
    MeetingResumed {
        /// What the chair adds for the acta (may be empty).
        note: Text,
    },
    /// The chair adjourns the meeting («se levantó la sesión»): nothing
    /// more is voted and nobody more arrives.
    MeetingAdjourned {
        /// What the chair adds for the acta (may be empty).
        note: Text,
    },
    /// A power of attorney lodged before the meeting, with the desk's
    /// verdict on it. Recorded by the registration desk before the
    /// installation.
    PowerLodged(LodgedPower),
    /// A lodged, accepted power stops covering one of its principals.
    /// Recorded by the registration desk.
    PowerRevoked {
        /// The power.
        power: Id,
        /// The principal it no longer covers.
        principal: Id,
        /// Why.
        reason: Revocation,
    },
    /// How the meeting was convened to be held: presencial, mixta or no
    /// presencial, and what the notice said of its remote channel. Signed
    /// by the daemon, once, at convening, before the register is
    /// imported; a ledger without it is a presencial meeting.
    MeetingModality(ConvenedModality),
    /// The desk verified a remote attendee's identity and the public key
    /// their browser made (HY-2), by the procedure the notice states.
    /// Signed by the operator who verified.
    IdentityVerified {
        /// The person verified: a holder, or an agent named by an
        /// accepted lodged power.
        person: Id,
        /// The public key the person's browser made (its private half
        /// never leaves that browser).
        key: PublicKey,
        /// How the identity was verified.
        method: VerificationMethod,
        /// SHA-256 of the evidence (a file, or the reference typed).
        evidence: Digest,
    },
    /// A remote attendee's credential: the verified key bound to the
    /// person, in the badges' number space and with a badge's meaning.
    /// Revoked with `badge-revoked`.
    RemoteCredentialIssued {
        /// The credential's number, unique among badges and credentials.
        credential: CredentialId,
        /// The key an earlier `identity-verified` verified for `person`.
        key: PublicKey,
        /// The person it belongs to.
        person: Id,
    },
    /// A remote attendee arrives, bringing these holders. Signed by the
    /// credential's key.
    CheckedInRemote {
        /// The remote credential that signs.
        credential: CredentialId,
        /// The holders brought in: the person themself if a holder, and
        /// the principals lodged powers give them; strictly ascending.
        principals: Vec<Id>,
    },
    /// A remote attendee leaves, with everyone they carry. Signed by the
    /// credential's key.
    CheckedOutRemote {
        /// The remote credential that signs.
        credential: CredentialId,
    },
    /// The daemon ends a remote attendee's stay whose heartbeats stopped
    /// (§3.30, HY-5): as their own departure would, with everyone they
    /// carry. Signed by the daemon.
    PresenceLapsed {
        /// The remote credential whose person attended remotely.
        credential: CredentialId,
        /// How long no heartbeat had come, in milliseconds: at least the
        /// meeting's presence timeout.
        silent_ms: u64,
    },
    /// A remote attendee's question or written statement, as it arrives
    /// (§3.31). Signed by the credential's key.
    RemoteSubmission {
        /// The remote credential that signs; its person attends remotely.
        credential: CredentialId,
        /// A question or a written statement.
        kind: SubmissionKind,
        /// The convened item it is about, or none (the meeting as a whole).
        item: Option<Id>,
        /// Its words.
        text: crate::Prose,
    },
    /// What the chair did with a remote submission (§3.32). Signed by the
    /// chair; once per submission.
    SubmissionHandled {
        /// The `remote-submission` record's number.
        submission: u64,
        /// Read, answered, or not read.
        outcome: SubmissionOutcome,
        /// The chair's words: why it was not read (required then), or a
        /// note; may be empty otherwise.
        note: Text,
    },
    /// A node of a replicated meeting and its daemon key, enrolled at
    /// convening (§3.33). Signed by the convening daemon key.
    NodeEnrolled {
        /// The node's name (`--node`).
        node: Id,
        /// Its daemon key: signs the daemon's events while it leads, and
        /// receipts and heads.
        key: PublicKey,
    },
    /// An enrolled node takes the lead of a replicated meeting (§3.34):
    /// from this record on, the daemon's events are signed by its key.
    /// Signed by that node's key.
    LeaderTookOver {
        /// The node that now leads.
        node: Id,
    },
    /// The chair announces that a poll will close once a countdown has
    /// run (ledger-format §3.21): the room sees it on every screen.
    CloseAnnounced {
        /// The open item.
        item: Id,
        /// The countdown's length, in milliseconds.
        countdown_ms: u64,
    },
    /// The meeting's poll timing, recorded at `init` right after the
    /// convening (ledger-format §3.22): how long a poll stays open at
    /// least, and the shortest countdown before a close.
    PollsTimed {
        /// The minimum time a poll stays open, in milliseconds.
        min_open_ms: u64,
        /// The minimum countdown of a close announcement, in milliseconds.
        min_countdown_ms: u64,
    },
}

/// An agent presenting itself with its principals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentArrival {
    /// The agent: a person's id, a holder's or not.
    pub agent: Id,
    /// The holders it represents: 1 to [`MAX_PRINCIPALS`], strictly
    /// ascending.
    pub principals: Vec<Id>,
    /// Proxy or legal representative.
    pub capacity: Capacity,
    /// The agent's own declaration of being an administrator or employee.
    pub declared_role: Option<Role>,
    /// Reference of the power of attorney or certificate shown (may be
    /// empty).
    pub power_document: Text,
}

/// Why an agent's arrival was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProxyRefusal {
    /// A principal is not in the register.
    UnknownHolder,
    /// An administrator or employee may not carry others' shares as a
    /// proxy (C.Co Art. 185).
    ProxyAgentBarred,
    /// A principal is already present or represented.
    AlreadyPresent,
    /// Staff found the power document wanting (C.Co Art. 184): a human
    /// decision, not one of the rules engine's.
    PowerDocumentRejected,
}

wire_codes!(ProxyRefusal { UnknownHolder = 1, ProxyAgentBarred = 2, AlreadyPresent = 3, PowerDocumentRejected = 4 });

impl ProxyRefusal {
    /// The stable code: the rules' code, or `power-document-rejected`.
    pub const fn code(self) -> &'static str {
        match self {
            ProxyRefusal::UnknownHolder => Refusal::UnknownHolder.code(),
            ProxyRefusal::ProxyAgentBarred => Refusal::ProxyAgentBarred.code(),
            ProxyRefusal::AlreadyPresent => Refusal::AlreadyPresent.code(),
            ProxyRefusal::PowerDocumentRejected => "power-document-rejected",
        }
    }

    /// The rules' refusal this reason records; `None` for a power the
    /// staff found wanting.
    pub const fn rules_refusal(self) -> Option<Refusal> {
        match self {
            ProxyRefusal::UnknownHolder => Some(Refusal::UnknownHolder),
            ProxyRefusal::ProxyAgentBarred => Some(Refusal::ProxyAgentBarred),
            ProxyRefusal::AlreadyPresent => Some(Refusal::AlreadyPresent),
            ProxyRefusal::PowerDocumentRejected => None,
        }
    }

    /// The refusal recorded for a rules refusal of an agent's arrival;
    /// `None` for refusals an arrival cannot get.
    pub fn from_refusal(refusal: Refusal) -> Option<ProxyRefusal> {
        match refusal {
            Refusal::UnknownHolder => Some(ProxyRefusal::UnknownHolder),
            Refusal::ProxyAgentBarred => Some(ProxyRefusal::ProxyAgentBarred),
            Refusal::AlreadyPresent => Some(ProxyRefusal::AlreadyPresent),
            _ => None,
        }
    }
}

impl Event {
    /// The kind of the event.
    pub fn kind(&self) -> MessageKind {
        self.body.kind()
    }

    /// The canonical bytes. Refused when the value has none: a list out of
    /// order or over its limit, options that do not fit the matter, more
    /// than [`MAX_MESSAGE_LEN`](crate::limits::MAX_MESSAGE_LEN) bytes.
    pub fn encode(&self) -> Result<Vec<u8>, WireError> {
        let mut w = Writer::message(self.kind());
        w.bytes(&self.nonce.0);
        self.body.write(&mut w)?;
        w.finish_message("event")
    }

    /// The event of canonical bytes; anything else is refused, naming the
    /// field and the byte offset at fault.
    pub fn decode(bytes: &[u8]) -> Result<Event, WireError> {
        Event::decode_at(bytes, 0)
    }

    /// [`Event::decode`] of bytes found at offset `base` of a larger
    /// buffer, so that errors name offsets in that buffer.
    pub(crate) fn decode_at(bytes: &[u8], base: usize) -> Result<Event, WireError> {
        let mut r = Reader::message(bytes, base, "event")?;
        let kind = r.header(MessageKind::is_event)?;
        let nonce = Nonce(r.array("nonce")?);
        let body = EventBody::read(kind, &mut r)?;
        r.end()?;
        Ok(Event { nonce, body })
    }
}

impl EventBody {
    /// The kind of the event.
    pub fn kind(&self) -> MessageKind {
        match self {
            EventBody::MeetingConvened { .. } => MessageKind::MeetingConvened,
            EventBody::StaffEnrolled { .. } => MessageKind::StaffEnrolled,
            EventBody::RegisterImported { .. } => MessageKind::RegisterImported,
            EventBody::CheckedInPerson { .. } => MessageKind::CheckedInPerson,
            EventBody::CheckedInAgent(_) => MessageKind::CheckedInAgent,
            EventBody::ProxyRefused { .. } => MessageKind::ProxyRefused,
            EventBody::CheckedOut { .. } => MessageKind::CheckedOut,
            EventBody::BadgeIssued { .. } => MessageKind::BadgeIssued,
            EventBody::BadgeRevoked { .. } => MessageKind::BadgeRevoked,
            EventBody::ItemOpened { .. } => MessageKind::ItemOpened,
            EventBody::Ballot(_) => MessageKind::Ballot,
            EventBody::ItemClosed { .. } => MessageKind::ItemClosed,
            EventBody::LotDrawn { .. } => MessageKind::LotDrawn,
            EventBody::ResultPublished { .. } => MessageKind::ResultPublished,
            EventBody::StatementRecorded { .. } => MessageKind::StatementRecorded,
            EventBody::RegisterNamed { .. } => MessageKind::RegisterNamed,
            EventBody::MeetingDescribed { .. } => MessageKind::MeetingDescribed,
            EventBody::AttendeeNamed { .. } => MessageKind::AttendeeNamed,
            EventBody::AgendaConvened { .. } => MessageKind::AgendaConvened,
            EventBody::MeetingInstalled { .. } => MessageKind::MeetingInstalled,
            EventBody::MeetingSuspended { .. } => MessageKind::MeetingSuspended,
            EventBody::MeetingResumed { .. } => MessageKind::MeetingResumed,
            EventBody::MeetingAdjourned { .. } => MessageKind::MeetingAdjourned,
            EventBody::PowerLodged(_) => MessageKind::PowerLodged,
            EventBody::MeetingModality(_) => MessageKind::MeetingModality,
            EventBody::PowerRevoked { .. } => MessageKind::PowerRevoked,
            EventBody::IdentityVerified { .. } => MessageKind::IdentityVerified,
            EventBody::RemoteCredentialIssued { .. } => MessageKind::RemoteCredentialIssued,
            EventBody::CheckedInRemote { .. } => MessageKind::CheckedInRemote,
            EventBody::CheckedOutRemote { .. } => MessageKind::CheckedOutRemote,
            EventBody::PresenceLapsed { .. } => MessageKind::PresenceLapsed,
            EventBody::RemoteSubmission { .. } => MessageKind::RemoteSubmission,
            EventBody::SubmissionHandled { .. } => MessageKind::SubmissionHandled,
            EventBody::NodeEnrolled { .. } => MessageKind::NodeEnrolled,
            EventBody::LeaderTookOver { .. } => MessageKind::LeaderTookOver,
            EventBody::CloseAnnounced { .. } => MessageKind::CloseAnnounced,
            EventBody::PollsTimed { .. } => MessageKind::PollsTimed,
        }
    }
}

/// Writes a count and the ids, refusing them unless strictly ascending (a
/// list whose order means nothing has one encoding).
pub(super) fn write_ascending(
    w: &mut Writer,
    field: &'static str,
    ids: &[Id],
    min: usize,
    max: usize,
) -> Result<(), WireError> {
    w.count(field, ids.len(), min, max)?;
    for (i, id) in ids.iter().enumerate() {
        if i > 0 && ids[i - 1] >= *id {
            return Err(WireError::Invalid { field, problem: Problem::NotAscending });
        }
        w.str(id.as_str());
    }
    Ok(())
}

/// Reads a count and that many strictly ascending ids.
pub(super) fn read_ascending(
    r: &mut Reader<'_>,
    field: &'static str,
    min: usize,
    max: usize,
) -> Result<Vec<Id>, WireError> {
    let count = r.count(field, min, max)?;
    let mut ids: Vec<Id> = Vec::with_capacity(count);
    for _ in 0..count {
        let at = r.at();
        let id = r.id(field)?;
        if ids.last().is_some_and(|last| *last >= id) {
            return Err(r.malformed(field, at, Problem::NotAscending));
        }
        ids.push(id);
    }
    Ok(ids)
}
