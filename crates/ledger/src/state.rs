//! The meeting as the ledger says it is: events folded into the rules
//! engine, with every check of `docs/ledger-format.md` §8.
//!
//! The daemon admits each new event here before appending it; `verify`
//! admits every recorded event the same way. One code path decides both,
//! so what the daemon accepted is exactly what a verifier re-derives.

use std::collections::HashMap;

use asamblea_rules::{Call, Meeting, MeetingKind, Profile, Register, Sessions};
mod attendance;
mod convening;
mod floor;
mod held;
mod nodes;
mod polls;
mod powers;
mod readings;
mod rejection;
mod remote;
mod sessions;
mod timing;

pub use powers::{PowerRecord, Powers};
pub use rejection::Rejection;

pub use floor::Submission;
pub use remote::{Lapse, Verification};
pub use sessions::SessionRecord;
pub use timing::Announcement;

use asamblea_wire::{
    AgendaEntry, AgendaItem, AgentArrival, CredentialId, Digest, Event, EventBody, Id, MeetingId,
    MessageKind, ProxyRefusal, PublicKey, Signature, SignerRole, StaffRole,
};

/// A written statement (constancia) as recorded: the item, who made it,
/// its words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedStatement {
    /// The item it is about.
    pub item: Id,
    /// Who made it.
    pub person: Id,
    /// Its words.
    pub text: asamblea_wire::Prose,
}

/// The natural person who attends, by name, as the desk recorded it
/// (`attendee-named`): for an agent, the agent's name; for a holder in
/// person, who attends (with their own document when the holder is a
/// company).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttendeeName {
    /// The name, as on the identity card.
    pub name: asamblea_wire::Text,
    /// Their own document, when it is not the person's id.
    pub document: Option<Id>,
}

/// A badge as issued.
#[derive(Clone, Debug)]
struct Badge {
    /// The key's 32 bytes: a decoded key is five times that, and a large
    /// meeting has a badge for most of its holders.
    key: [u8; 32],
    person: Id,
    revoked: bool,
    /// A remote attendee's credential (`remote-credential-issued`), not a
    /// printed badge: it signs only while its person attends remotely.
    remote: bool,
}

/// The meeting folded from its events, and what the checks remember.
pub struct State {
    meeting_id: MeetingId,
    /// The register the meeting runs on, until `register-imported` moves
    /// it into the meeting.
    register: Option<Register>,
    profile: Profile,
    profile_digest: Digest,
    /// The daemon key published out of band, if known.
    expected_daemon_key: Option<PublicKey>,
    daemon_key: Option<PublicKey>,
    convened: Option<(MeetingKind, Call)>,
    /// The agenda as convened: what `item-opened` refers to.
    agenda: Vec<AgendaItem>,
    /// Enrolled staff keys, with the role each may sign for.
    staff: HashMap<PublicKey, (StaffRole, Id)>,
    badges: HashMap<CredentialId, Badge>,
    /// Every badge key issued, with its badge's number.
    badge_keys: HashMap<[u8; 32], CredentialId>,
    /// The live (not revoked) badge of each person: at most one.
    live_badges: HashMap<String, CredentialId>,
    nonces: crate::nonces::Nonces,
    meeting: Option<Meeting>,
    /// The item whose `item-closed` was the last event admitted; its head
    /// becomes that item's lot seed in [`State::chained`].
    just_closed: Option<String>,
    /// The item whose `item-opened` was the last event admitted; its time
    /// becomes the item's opening time in [`State::chained`].
    just_opened: Option<String>,
    /// When each item's poll opened (the record's time, ms since the Unix
    /// epoch): the room is told how long a poll has been open.
    opened_at: HashMap<String, u64>,
    /// The item and countdown of the `close-announced` that was the last
    /// event admitted; its time is known in [`State::chained`].
    just_announced: Option<(String, u64)>,
    /// Lot seeds: the head after each item's `item-closed`.
    seeds: HashMap<String, Digest>,
    /// Draws made per item.
    rounds: HashMap<String, u32>,
    /// Events admitted.
    admitted: u64,
    /// Every agent's arrival the desk refused, with the reason, in order:
    /// the desk's figures and the acta's list (Art. 185). Few by nature.
    refused_proxies: Vec<(AgentArrival, ProxyRefusal)>,
    /// Badges revoked so far.
    badges_revoked: u32,
    /// The written statements recorded, in order.
    statements: Vec<RecordedStatement>,
    /// Every lot drawn: the item, the round, the seed and the list that
    /// took the seat, in order.
    lots: Vec<(Id, u32, Digest, Id)>,
    /// The holders' names, in the register's order, as far as recorded.
    names: Vec<asamblea_wire::Text>,
    /// The meeting file, once described.
    description: Option<asamblea_wire::FileText>,
    /// Who attends for each person the desk named, by that person's id
    /// (the latest naming stands). Few: the agents and the companies.
    attendee_names: HashMap<String, AttendeeName>,
    /// The whole agenda, once `agenda-convened` recorded it (a ledger
    /// convened before the kind existed has none).
    whole_agenda: Option<Vec<AgendaEntry>>,
    /// Installed, suspended, adjourned.
    sessions: Sessions,
    /// Every step of the sessions, in order.
    session_log: Vec<SessionRecord>,
    /// Every arrival and departure as it happened, with its record: the
    /// acta's attendance list and the `asistencia` table (a holder who
    /// left before the end is in it).
    attendance: asamblea_rules::Attendance,
    /// The powers of attorney lodged before the meeting.
    powers: Powers,
    /// The remote attendees' identities the desk verified, in order, and
    /// the position of each key among them.
    verifications: Vec<Verification>,
    verified_keys: HashMap<[u8; 32], usize>,
    /// How the meeting was convened to be held (`meeting-modality`); none
    /// for a presencial meeting that did not record it.
    modality: Option<asamblea_wire::ConvenedModality>,
    /// Every arrival, departure, step of the sessions and poll's opening
    /// and closing, with the quorum right after it: the quorum's
    /// continuity is derived from them (`asamblea_rules::continuity`).
    quorum_marks: Vec<asamblea_rules::QuorumMark>,
    /// The meeting's poll timing, once `polls-timed` recorded it (a
    /// ledger written before the kind has none, and no minimum).
    poll_timing: Option<asamblea_rules::PollTiming>,
    /// The latest close announcement of each item: when a close may
    /// come, and what the screens count down.
    announcements: HashMap<String, Announcement>,
    /// When each item's poll closed (its record's time): the acta prints
    /// it beside the opening and the announcement.
    closed_at: HashMap<String, u64>,
    /// Every remote stay the daemon ended for want of heartbeats, in order.
    lapses: Vec<Lapse>,
    /// The questions and written statements from afar, in order.
    submissions: Vec<Submission>,
    /// A replicated meeting's nodes, enrolled at convening, in order.
    nodes: Vec<(Id, PublicKey)>,
    /// The node that leads now, once one took the lead
    /// (`leader-took-over`): the daemon's events are its key's. Before any,
    /// the convening key's.
    leader: Option<(Id, PublicKey, u64)>,
    /// Every takeover, in order: its record and the node.
    takeovers: Vec<(u64, Id)>,
}

impl State {
    /// Whether `item` is on the convened agenda, voted or informative.
    fn on_agenda(&self, item: &Id) -> Result<(), Rejection> {
        let informative = self.whole_agenda.iter().flatten().any(|entry| entry.item() == item);
        if informative || self.agenda.iter().any(|entry| entry.item == *item) {
            Ok(())
        } else {
            Err(Rejection::NotOnAgenda(item.as_str().to_string()))
        }
    }
}

impl State {
    /// The state before the first event of `meeting_id`'s ledger, for a
    /// meeting run on `register` under `profile` (whose file has
    /// `profile_digest`).
    pub fn new(
        meeting_id: MeetingId,
        register: Register,
        profile: Profile,
        profile_digest: Digest,
        expected_daemon_key: Option<PublicKey>,
    ) -> State {
        State {
            meeting_id,
            register: Some(register),
            profile,
            profile_digest,
            expected_daemon_key,
            daemon_key: None,
            convened: None,
            agenda: Vec::new(),
            staff: HashMap::new(),
            badges: HashMap::new(),
            badge_keys: HashMap::new(),
            live_badges: HashMap::new(),
            nonces: crate::nonces::Nonces::default(),
            meeting: None,
            just_closed: None,
            just_opened: None,
            opened_at: HashMap::new(),
            seeds: HashMap::new(),
            rounds: HashMap::new(),
            admitted: 0,
            refused_proxies: Vec::new(),
            badges_revoked: 0,
            statements: Vec::new(),
            lots: Vec::new(),
            names: Vec::new(),
            description: None,
            attendee_names: HashMap::new(),
            whole_agenda: None,
            sessions: Sessions::default(),
            session_log: Vec::new(),
            attendance: asamblea_rules::Attendance::new(),
            powers: Powers::default(),
            verifications: Vec::new(),
            verified_keys: HashMap::new(),
            modality: None,
            quorum_marks: Vec::new(),
            poll_timing: None,
            just_announced: None,
            announcements: HashMap::new(),
            closed_at: HashMap::new(),
            lapses: Vec::new(),
            submissions: Vec::new(),
            nodes: Vec::new(),
            leader: None,
            takeovers: Vec::new(),
        }
    }

    /// Checks `event` (whose canonical bytes are `bytes`) signed by
    /// `signer` and, when every check passes, folds it in. A rejection
    /// changes nothing.
    pub fn admit(
        &mut self,
        event: &Event,
        bytes: &[u8],
        signer: &PublicKey,
        signature: &Signature,
    ) -> Result<(), Rejection> {
        signer.verify(&self.meeting_id, bytes, signature).map_err(|_| Rejection::BadSignature)?;
        self.admit_verified(event, signer)
    }

    /// [`State::admit`] of an event whose signature by `signer` the caller
    /// has already checked strictly (`PublicKey::verify` on its canonical
    /// bytes). The daemon checks ballots' signatures on many threads, then
    /// admits them here one at a time.
    pub fn admit_verified(&mut self, event: &Event, signer: &PublicKey) -> Result<(), Rejection> {
        self.admit_placed(event, signer, None)
    }

    /// [`State::admit`] of an event whose record's time is known:
    /// replaying a ledger, or placing an event in a group
    /// (`Journal::begin_group`). The steps of the sessions are admitted
    /// only so, since the law binds them to the day (C.Co Art. 430).
    pub fn admit_at(
        &mut self,
        event: &Event,
        bytes: &[u8],
        signer: &PublicKey,
        signature: &Signature,
        time_ms: u64,
    ) -> Result<(), Rejection> {
        signer.verify(&self.meeting_id, bytes, signature).map_err(|_| Rejection::BadSignature)?;
        self.admit_placed(event, signer, Some(time_ms))
    }

    /// [`State::admit_verified`] of an event whose record's time is known
    /// ([`State::admit_at`]).
    pub fn admit_verified_at(
        &mut self,
        event: &Event,
        signer: &PublicKey,
        time_ms: u64,
    ) -> Result<(), Rejection> {
        self.admit_placed(event, signer, Some(time_ms))
    }

    fn admit_placed(
        &mut self,
        event: &Event,
        signer: &PublicKey,
        time_ms: Option<u64>,
    ) -> Result<(), Rejection> {
        if self.nonces.contains(&event.nonce) {
            return Err(Rejection::RepeatedNonce);
        }
        let kind = event.kind();
        self.check_signer(kind, &event.body, signer)?;
        self.apply(&event.body, signer, time_ms)?;
        self.nonces.insert(&event.nonce);
        self.just_closed = match &event.body {
            EventBody::ItemClosed { item } => Some(item.as_str().to_string()),
            _ => None,
        };
        self.just_announced = match &event.body {
            EventBody::CloseAnnounced { item, countdown_ms } => {
                Some((item.as_str().to_string(), *countdown_ms))
            }
            _ => None,
        };
        self.just_opened = match &event.body {
            EventBody::ItemOpened { item } => Some(item.as_str().to_string()),
            _ => None,
        };
        self.admitted += 1;
        Ok(())
    }

    /// Tells the state the head and the time of the last admitted event,
    /// once it is in the chain: the seed of a lot on an item just closed,
    /// the opening time of an item just opened.
    pub fn chained(&mut self, head: Digest, time_ms: u64) {
        self.attendance.placed(self.admitted, time_ms);
        if let Some(mark) = self.quorum_marks.last_mut().filter(|m| m.moment.seq == self.admitted) {
            mark.moment.time_ms = Some(time_ms);
        }
        self.floor_placed(self.admitted, time_ms);
        if let Some(item) = self.just_closed.take() {
            self.closed_at.insert(item.clone(), time_ms);
            self.seeds.insert(item, head);
        }
        if let Some((item, countdown_ms)) = self.just_announced.take() {
            let seq = self.admitted;
            self.announcements.insert(item, Announcement { seq, time_ms, countdown_ms });
        }
        if let Some(item) = self.just_opened.take() {
            self.opened_at.insert(item, time_ms);
        }
    }

    /// When `item`'s poll opened (ms since the Unix epoch), if it did.
    pub fn opened_at(&self, item: &str) -> Option<u64> {
        self.opened_at.get(item).copied()
    }

    fn check_signer(&self, kind: MessageKind, body: &EventBody, signer: &PublicKey) -> Result<(), Rejection> {
        let allowed = match kind.signer() {
            SignerRole::Daemon => match body {
                EventBody::MeetingConvened { daemon_key, .. } => daemon_key == signer,
                // The node taking the lead signs its own takeover.
                EventBody::LeaderTookOver { node } => {
                    self.nodes.iter().any(|(name, key)| name == node && key == signer)
                }
                _ => self.leading_key().as_ref() == Some(signer),
            },
            SignerRole::Staff(role) => self.staff.get(signer).is_some_and(|(enrolled, _)| *enrolled == role),
            // Checked against the badge in `apply`.
            SignerRole::Attendee => true,
        };
        if allowed {
            Ok(())
        } else {
            Err(Rejection::SignerNotAllowed { kind: kind.name(), role: kind.signer() })
        }
    }

    fn meeting_mut(&mut self) -> Result<&mut Meeting, Rejection> {
        self.meeting.as_mut().ok_or(Rejection::OutOfPlace(
            "primero se importa el registro de accionistas / the register must be imported first",
        ))
    }

    fn apply(&mut self, body: &EventBody, signer: &PublicKey, time_ms: Option<u64>) -> Result<(), Rejection> {
        // The number this event will have: admitted events are the
        // ledger's records, in order.
        let seq = self.admitted + 1;
        if self.convened.is_none() && !matches!(body, EventBody::MeetingConvened { .. }) {
            return Err(Rejection::OutOfPlace(
                "el primer evento debe ser meeting-convened / the first event must be meeting-convened",
            ));
        }
        match body {
            EventBody::MeetingConvened { .. }
            | EventBody::StaffEnrolled { .. }
            | EventBody::RegisterImported { .. }
            | EventBody::PollsTimed { .. }
            | EventBody::AgendaConvened { .. }
            | EventBody::MeetingModality(_)
            | EventBody::RegisterNamed { .. }
            | EventBody::MeetingDescribed { .. } => self.convening_step(body)?,
            EventBody::CheckedInPerson { .. }
            | EventBody::CheckedInAgent(_)
            | EventBody::ProxyRefused { .. }
            | EventBody::CheckedOut { .. }
            | EventBody::BadgeIssued { .. }
            | EventBody::BadgeRevoked { .. }
            | EventBody::AttendeeNamed { .. }
            | EventBody::StatementRecorded { .. } => self.attendance_step(body, seq, time_ms)?,
            EventBody::ItemOpened { .. }
            | EventBody::Ballot(_)
            | EventBody::ItemClosed { .. }
            | EventBody::LotDrawn { .. }
            | EventBody::ResultPublished { .. } => self.poll_step(body, signer, seq, time_ms)?,
            EventBody::CloseAnnounced { item, countdown_ms } => {
                self.check_announcement(item.as_str(), *countdown_ms, time_ms)?;
            }
            EventBody::MeetingInstalled { .. }
            | EventBody::MeetingSuspended { .. }
            | EventBody::MeetingResumed { .. }
            | EventBody::MeetingAdjourned { .. } => self.session_step(body, time_ms)?,
            EventBody::PowerLodged(power) => {
                let state = self.sessions.state();
                let meeting = self.meeting.as_ref().ok_or(Rejection::OutOfPlace(
                    "primero se importa el registro de accionistas / the register must be imported first",
                ))?;
                self.powers.lodge(meeting, state, power, seq)?;
            }
            EventBody::PowerRevoked { power, principal, reason } => {
                let meeting = self.meeting.as_ref().ok_or(Rejection::OutOfPlace(
                    "primero se importa el registro de accionistas / the register must be imported first",
                ))?;
                self.powers.revoke(meeting, power, principal, *reason, seq)?;
            }
            EventBody::IdentityVerified { .. }
            | EventBody::RemoteCredentialIssued { .. }
            | EventBody::CheckedInRemote { .. }
            | EventBody::CheckedOutRemote { .. }
            | EventBody::PresenceLapsed { .. } => {
                self.remote_step(body, signer, seq)?;
                if !matches!(
                    body,
                    EventBody::IdentityVerified { .. } | EventBody::RemoteCredentialIssued { .. }
                ) {
                    self.mark(seq, time_ms, asamblea_rules::QuorumEvent::Presence);
                }
            }
            EventBody::RemoteSubmission { .. } | EventBody::SubmissionHandled { .. } => {
                self.floor_step(body, signer, seq)?
            }
            EventBody::NodeEnrolled { .. } | EventBody::LeaderTookOver { .. } => self.node_step(body, seq)?,
        }
        Ok(())
    }
}
