//! Who attends: arrivals in person and by proxy, proxies refused,
//! departures, badges issued and revoked, the names the desk records and
//! the written statements of those present (ledger-format §3.4–3.7,
//! §3.13, §3.16).

use asamblea_rules::{Channel, Meeting, Refusal};
use asamblea_wire::{CredentialId, EventBody, Id, PublicKey};

use super::{AttendeeName, Badge, RecordedStatement, Rejection, State};

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
    /// Admits the attendance's kinds, to be record `seq` (at `time_ms`
    /// when known).
    pub(super) fn attendance_step(
        &mut self,
        body: &EventBody,
        seq: u64,
        time_ms: Option<u64>,
    ) -> Result<(), Rejection> {
        match body {
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
            _ => unreachable!("attendance_step takes the attendance's kinds only"),
        }
        Ok(())
    }

    /// Records a badge or a remote credential: a number and a key issued
    /// once, and one live credential per person (a lost one is revoked
    /// before its replacement).
    pub(super) fn issue_badge(
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

    /// The meeting and its attendance, both to change: an arrival or a
    /// departure the meeting admits is written in the attendance at once.
    pub(super) fn meeting_and_attendance(
        &mut self,
    ) -> Result<(&mut Meeting, &mut asamblea_rules::Attendance), Rejection> {
        let attendance = &mut self.attendance;
        let meeting = self.meeting.as_mut().ok_or(Rejection::OutOfPlace(
            "primero se importa el registro de accionistas / the register must be imported first",
        ))?;
        Ok((meeting, attendance))
    }
}
