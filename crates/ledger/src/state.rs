//! The meeting as the ledger says it is: events folded into the rules
//! engine, with every check of `docs/ledger-format.md` §8.
//!
//! The daemon admits each new event here before appending it; `verify`
//! admits every recorded event the same way. One code path decides both,
//! so what the daemon accepted is exactly what a verifier re-derives.

use std::collections::HashMap;

use asamblea_rules::{Call, Channel, Meeting, MeetingKind, Profile, Refusal, Register, Sessions};
mod floor;
mod held;
mod nodes;
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
    lot_index, register_digest, AgendaEntry, AgendaItem, AgentArrival, CredentialId, Digest, Event,
    EventBody, Id, MeetingId, MessageKind, ProxyRefusal, PublicKey, PublishedResult, Signature, SignerRole,
    StaffRole,
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

/// Whether `person` attends now: a holder present in person, or an agent
/// carrying at least one holder.
fn attends(meeting: &Meeting, person: &Id) -> bool {
    meeting.register().iter().any(|(at, holder)| match meeting.presence().channel(at) {
        Channel::InPerson => holder.id() == person.as_str(),
        Channel::Agent { agent, .. } => meeting.presence().agent_id(agent) == person.as_str(),
        Channel::Absent => false,
    })
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

    /// Records a badge or a remote credential: a number and a key issued
    /// once, and one live credential per person (a lost one is revoked
    /// before its replacement).
    fn issue_badge(
        &mut self,
        credential: CredentialId,
        key: &PublicKey,
        person: &Id,
        remote: bool,
    ) -> Result<(), Rejection> {
        self.meeting_mut()?;
        let key = key.to_bytes();
        if self.badges.contains_key(&credential) || self.badge_keys.contains_key(&key) {
            return Err(Rejection::BadgeInUse(credential));
        }
        if let Some(held) = self.badge_of(person.as_str()) {
            return Err(Rejection::BadgeHeld { person: person.as_str().to_string(), held });
        }
        self.badges.insert(credential, Badge { key, person: person.clone(), revoked: false, remote });
        self.badge_keys.insert(key, credential);
        self.live_badges.insert(person.as_str().to_string(), credential);
        Ok(())
    }

    fn meeting_mut(&mut self) -> Result<&mut Meeting, Rejection> {
        self.meeting.as_mut().ok_or(Rejection::OutOfPlace(
            "primero se importa el registro de accionistas / the register must be imported first",
        ))
    }

    /// The meeting and its attendance, both to change: an arrival or a
    /// departure the meeting admits is written in the attendance at once.
    fn meeting_and_attendance(
        &mut self,
    ) -> Result<(&mut Meeting, &mut asamblea_rules::Attendance), Rejection> {
        let attendance = &mut self.attendance;
        let meeting = self.meeting.as_mut().ok_or(Rejection::OutOfPlace(
            "primero se importa el registro de accionistas / the register must be imported first",
        ))?;
        Ok((meeting, attendance))
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
            EventBody::MeetingConvened {
                daemon_key,
                profile,
                profile_digest,
                meeting_kind,
                call,
                settings,
                agenda,
            } => {
                if self.convened.is_some() {
                    return Err(Rejection::OutOfPlace(
                        "la reunión se convoca una sola vez / the meeting is convened once",
                    ));
                }
                if self.expected_daemon_key.is_some_and(|k| k != *daemon_key) {
                    return Err(Rejection::DaemonKeyMismatch);
                }
                if profile.as_str() != self.profile.name() || *profile_digest != self.profile_digest {
                    return Err(Rejection::ProfileMismatch { named: profile.as_str().to_string() });
                }
                self.profile = self.profile.clone().with_settings(*settings);
                self.daemon_key = Some(*daemon_key);
                self.convened = Some((*meeting_kind, *call));
                self.agenda = agenda.clone();
            }
            EventBody::StaffEnrolled { key, role, name } => {
                // Staff are enrolled when the meeting is convened, before
                // anything is recorded that a member could have signed.
                if self.meeting.is_some() {
                    return Err(Rejection::OutOfPlace("el personal se inscribe antes de importar el registro de accionistas / staff are enrolled before the register is imported"));
                }
                if self.staff.contains_key(key) {
                    return Err(Rejection::StaffInUse);
                }
                // One key, one signer: a key that signs the daemon's kinds
                // and a role's would let whoever holds the daemon's key
                // act as a member without that member's key ever being
                // drawn, and a ledger could not say who acted.
                if self.daemon_key == Some(*key) || self.nodes.iter().any(|(_, node)| node == key) {
                    return Err(Rejection::DaemonKeyEnrolled);
                }
                self.staff.insert(*key, (*role, name.clone()));
            }
            EventBody::RegisterImported { register_digest: digest, holders, capital } => {
                let Some(register) = &self.register else {
                    return Err(Rejection::OutOfPlace(
                        "el registro de accionistas se importa una sola vez / the register is imported once",
                    ));
                };
                if register_digest(register) != *digest
                    || register.len() != *holders as usize
                    || register.capital() != capital
                {
                    return Err(Rejection::RegisterMismatch);
                }
                let (kind, call) = self.convened.expect("checked above");
                let register = self.register.take().expect("checked above");
                self.meeting = Some(Meeting::new(register, self.profile.clone(), kind, call));
            }
            EventBody::CheckedInPerson { holder } => {
                self.sessions.check_arrival().map_err(Rejection::Session)?;
                self.check_room_channel(holder.as_str())?;
                let (meeting, attendance) = self.meeting_and_attendance()?;
                meeting.arrive_in_person(holder.as_str()).map_err(Rejection::Rules)?;
                let at: Vec<_> = meeting.register().lookup(holder.as_str()).into_iter().collect();
                attendance.arrived(meeting, &at, seq);
                self.mark(seq, time_ms, asamblea_rules::QuorumEvent::Presence);
            }
            EventBody::CheckedInAgent(arrival) => {
                self.sessions.check_arrival().map_err(Rejection::Session)?;
                self.check_room_channel(arrival.agent.as_str())?;
                let principals: Vec<&str> = arrival.principals.iter().map(Id::as_str).collect();
                let (meeting, attendance) = self.meeting_and_attendance()?;
                meeting
                    .arrive_as_agent(
                        arrival.agent.as_str(),
                        &principals,
                        arrival.capacity,
                        arrival.declared_role,
                    )
                    .map_err(Rejection::Rules)?;
                let at: Vec<_> = principals.iter().filter_map(|p| meeting.register().lookup(p)).collect();
                attendance.arrived(meeting, &at, seq);
                self.powers.arrived(self.meeting.as_ref().expect("admitted above"), arrival, seq);
                self.mark(seq, time_ms, asamblea_rules::QuorumEvent::Presence);
            }
            EventBody::ProxyRefused { arrival, reason } => {
                let meeting = self.meeting.as_ref().ok_or(Rejection::OutOfPlace(
                    "primero se importa el registro de accionistas / the register must be imported first",
                ))?;
                let principals: Vec<&str> = arrival.principals.iter().map(Id::as_str).collect();
                let actual = meeting
                    .check_arrival(
                        arrival.agent.as_str(),
                        &principals,
                        arrival.capacity,
                        arrival.declared_role,
                    )
                    .err();
                // A power found wanting is the staff's judgment, not the
                // rules'; every other reason must be the rules' own.
                if reason.code() != "power-document-rejected"
                    && actual.map(Refusal::code) != Some(reason.code())
                {
                    return Err(Rejection::RefusalMismatch { recorded: reason.code(), actual });
                }
                self.refused_proxies.push((arrival.clone(), *reason));
            }
            EventBody::CheckedOut { person } => {
                let (meeting, attendance) = self.meeting_and_attendance()?;
                meeting.leave(person.as_str()).map_err(Rejection::Rules)?;
                attendance.left(meeting, person.as_str(), seq);
                self.mark(seq, time_ms, asamblea_rules::QuorumEvent::Presence);
            }
            EventBody::BadgeIssued { credential, key, person } => {
                self.issue_badge(*credential, key, person, false)?;
            }
            EventBody::BadgeRevoked { credential } => {
                let badge = self.badges.get_mut(credential).ok_or(Rejection::UnknownBadge(*credential))?;
                if badge.revoked {
                    return Err(Rejection::RevokedBadge(*credential));
                }
                badge.revoked = true;
                self.live_badges.remove(badge.person.as_str());
                self.badges_revoked += 1;
            }
            EventBody::ItemOpened { item } => {
                let entry = self
                    .agenda
                    .iter()
                    .find(|entry| entry.item == *item)
                    .ok_or_else(|| Rejection::NotOnAgenda(item.as_str().to_string()))?;
                // The decoder checked every convened item against the
                // rules' item rules, so this cannot fail on a decoded one.
                let spec = entry.to_spec().map_err(|e| Rejection::BadItem(e.to_string()))?;
                // The rules' own refusals first (FORMAT.md's codes); then a
                // meeting convened with its whole agenda (every one since
                // sessions exist) opens a poll only in session.
                self.meeting_mut()?.check_open(&spec).map_err(Rejection::Rules)?;
                self.sessions.check_poll(self.whole_agenda.is_some()).map_err(Rejection::Session)?;
                let at = self.meeting_mut()?.open(spec).map_err(Rejection::Rules)?;
                self.mark(seq, time_ms, asamblea_rules::QuorumEvent::PollOpened(at));
            }
            EventBody::Ballot(ballot) => {
                let badge =
                    self.badges.get(&ballot.credential).ok_or(Rejection::UnknownBadge(ballot.credential))?;
                if badge.revoked {
                    return Err(Rejection::RevokedBadge(ballot.credential));
                }
                if badge.key != signer.to_bytes() {
                    return Err(Rejection::SignerNotAllowed { kind: "ballot", role: SignerRole::Attendee });
                }
                let person = badge.person.clone();
                self.check_credential_channel(ballot.credential, badge.remote, person.as_str())?;
                let meeting = self.meeting.as_ref().ok_or(Rejection::OutOfPlace(
                    "primero se importa el registro de accionistas / the register must be imported first",
                ))?;
                let item =
                    meeting.item_index(ballot.item.as_str()).ok_or(Rejection::Rules(Refusal::UnknownItem))?;
                if meeting.item(item).is_closed() {
                    return Err(Rejection::Rules(Refusal::ItemClosed));
                }
                let mut parts = Vec::with_capacity(ballot.votes.len());
                for vote in &ballot.votes {
                    let holder = meeting
                        .register()
                        .lookup(vote.holder.as_str())
                        .ok_or(Rejection::Rules(Refusal::UnknownHolder))?;
                    let carried = match meeting.presence().channel(holder) {
                        Channel::Absent => return Err(Rejection::Rules(Refusal::NotPresent)),
                        Channel::InPerson => meeting.register().holder(holder).id() == person.as_str(),
                        Channel::Agent { agent, .. } => meeting.presence().agent_id(agent) == person.as_str(),
                    };
                    if !carried {
                        return Err(Rejection::NotCarried(vote.holder.as_str().to_string()));
                    }
                    let rules_ballot = vote.choice.to_rules();
                    meeting.check_cast(item, holder, &rules_ballot).map_err(Rejection::Rules)?;
                    parts.push((holder, rules_ballot));
                }
                let meeting = self.meeting.as_mut().expect("checked above");
                for (holder, rules_ballot) in parts {
                    meeting.cast(item, holder, &rules_ballot).expect("judged by check_cast above");
                }
            }
            EventBody::ItemClosed { item } => {
                self.check_close_timing(item.as_str(), time_ms)?;
                self.meeting_mut()?.close(item.as_str()).map_err(Rejection::Rules)?;
                let at =
                    self.meeting.as_ref().and_then(|m| m.item_index(item.as_str())).expect("closed above");
                self.mark(seq, time_ms, asamblea_rules::QuorumEvent::PollClosed(at));
            }
            EventBody::CloseAnnounced { item, countdown_ms } => {
                self.check_announcement(item.as_str(), *countdown_ms, time_ms)?;
            }
            EventBody::PollsTimed { min_open_ms, min_countdown_ms } => {
                if self.meeting.is_some() || self.poll_timing.is_some() {
                    return Err(Rejection::OutOfPlace(
                        "el tiempo de las votaciones se registra una vez, al convocar, antes de importar el registro / \
                         the polls' timing is recorded once, at convening, before the register is imported",
                    ));
                }
                self.poll_timing = Some(asamblea_rules::PollTiming {
                    min_open_ms: *min_open_ms,
                    min_countdown_ms: *min_countdown_ms,
                });
            }
            EventBody::LotDrawn { item, round, seed, winner } => {
                let meeting = self.meeting.as_ref().ok_or(Rejection::OutOfPlace(
                    "primero se importa el registro de accionistas / the register must be imported first",
                ))?;
                let at = meeting.item_index(item.as_str()).ok_or(Rejection::Rules(Refusal::UnknownItem))?;
                let entry = meeting.item(at);
                let tied: Vec<usize> = match entry.result() {
                    Some(asamblea_rules::ItemResult::Election(e))
                        if e.outcome == asamblea_rules::Outcome::LotRequired =>
                    {
                        e.lot_between.clone()
                    }
                    _ => return Err(Rejection::Rules(Refusal::NoLotPending)),
                };
                let expected_round = self.rounds(item.as_str());
                let expected_seed = self.seed(item.as_str());
                let position = lot_index(seed, item, *round, tied.len() as u32);
                let drawn =
                    position.map(|p| entry.option_name(asamblea_rules::OptionIndex::list(tied[p as usize])));
                if *round != expected_round || Some(*seed) != expected_seed || drawn != Some(winner.as_str())
                {
                    return Err(Rejection::LotMismatch(item.as_str().to_string()));
                }
                self.meeting_mut()?.draw(item.as_str(), winner.as_str()).map_err(Rejection::Rules)?;
                *self.rounds.entry(item.as_str().to_string()).or_insert(0) += 1;
                self.lots.push((item.clone(), *round, *seed, winner.clone()));
            }
            EventBody::RegisterNamed { first, names } => {
                let meeting = self
                    .meeting
                    .as_ref()
                    .ok_or(Rejection::OutOfPlace("los nombres van después de importar el registro de accionistas / names follow the register's import"))?;
                if *first as usize != self.names.len() {
                    return Err(Rejection::OutOfPlace(
                        "los nombres se registran en el orden del registro de accionistas, sin huecos / names are recorded in the register's order, without gaps",
                    ));
                }
                if self.names.len() + names.len() > meeting.register().len() {
                    return Err(Rejection::OutOfPlace("más nombres que accionistas tiene el registro / more names than the register has holders"));
                }
                self.names.extend(names.iter().cloned());
            }
            EventBody::MeetingDescribed { file } => {
                if self.convened.is_none() || self.description.is_some() {
                    return Err(Rejection::OutOfPlace("la reunión se describe una sola vez, después de convocarla / the meeting is described once, after it is convened"));
                }
                self.description = Some(file.clone());
            }
            EventBody::StatementRecorded { item, person, text } => {
                self.on_agenda(item)?;
                let meeting = self.meeting.as_ref().ok_or(Rejection::OutOfPlace(
                    "primero se importa el registro de accionistas / the register must be imported first",
                ))?;
                if !attends(meeting, person) {
                    return Err(Rejection::NotAnAttendee(person.as_str().to_string()));
                }
                self.statements.push(RecordedStatement {
                    item: item.clone(),
                    person: person.clone(),
                    text: text.clone(),
                });
            }
            EventBody::AttendeeNamed { person, name, document } => {
                let meeting = self
                    .meeting
                    .as_ref()
                    .ok_or(Rejection::OutOfPlace("the register must be imported first"))?;
                if !attends(meeting, person) {
                    return Err(Rejection::NotAnAttendee(person.as_str().to_string()));
                }
                // An agent's id is their own document: only a holder (a
                // company) has someone else attend for it.
                if document.is_some() && meeting.register().lookup(person.as_str()).is_none() {
                    return Err(Rejection::OutOfPlace(
                        "only a holder in person has someone else's document named: an agent's id is their own",
                    ));
                }
                self.attendee_names.insert(
                    person.as_str().to_string(),
                    AttendeeName { name: name.clone(), document: document.clone() },
                );
                self.attendance.named(person.as_str(), name.as_str(), document.as_ref().map(Id::as_str));
            }
            EventBody::AgendaConvened { entries } => {
                if self.meeting.is_some() || self.whole_agenda.is_some() {
                    return Err(Rejection::OutOfPlace(
                        "el orden del día completo se registra una vez, al convocar, antes de importar el registro / \
                         the whole agenda is recorded once, at convening, before the register is imported",
                    ));
                }
                self.check_whole_agenda(entries)?;
                self.whole_agenda = Some(entries.clone());
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
            EventBody::MeetingModality(convened) => {
                if self.meeting.is_some() || self.modality.is_some() {
                    return Err(Rejection::OutOfPlace(
                        "la modalidad se registra una vez, al convocar, antes de importar el registro / \
                         the modality is recorded once, at convening, before the register is imported",
                    ));
                }
                if !convened.presence.is_coherent() {
                    return Err(Rejection::OutOfPlace(
                        "meeting-modality: el latido debe ser de al menos 1 s y la ausencia más larga que un latido / \
                         the heartbeat must be at least 1 s and the timeout longer than a heartbeat",
                    ));
                }
                self.modality = Some(convened.clone());
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
            EventBody::ResultPublished { item, result } => {
                let meeting = self.meeting.as_ref().ok_or(Rejection::OutOfPlace(
                    "primero se importa el registro de accionistas / the register must be imported first",
                ))?;
                let at = meeting.item_index(item.as_str()).ok_or(Rejection::Rules(Refusal::UnknownItem))?;
                let Some(actual) = meeting.item(at).result() else {
                    return Err(Rejection::NotClosed(item.as_str().to_string()));
                };
                if PublishedResult::from_rules(actual, meeting.register()) != *result {
                    return Err(Rejection::ResultMismatch(item.as_str().to_string()));
                }
            }
        }
        Ok(())
    }
}
