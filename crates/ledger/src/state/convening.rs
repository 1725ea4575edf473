//! The meeting as convened, before anything happens in it: the
//! convening itself, the staff, the register and its names, the meeting
//! file, the whole agenda, the polls' timing and the modality — each
//! recorded once, in its place (ledger-format §3.1–3.3, §3.14–3.17,
//! §3.22–3.23).

use asamblea_rules::Meeting;
use asamblea_wire::{register_digest, EventBody};

use super::{Rejection, State};

impl State {
    /// Admits the convening's kinds.
    pub(super) fn convening_step(&mut self, body: &EventBody) -> Result<(), Rejection> {
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
            _ => unreachable!("convening_step takes the convening's kinds only"),
        }
        Ok(())
    }
}
