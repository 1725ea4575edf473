//! The remote attendee of a mixed meeting as the ledger holds them
//! (`docs/ledger-format.md` §3.24–3.27): the identities the desk verified
//! with the key each browser made (HY-2), the credentials bound to those
//! keys, and one channel per person (R2): nobody attends in the room and
//! from afar at once, and a credential signs only through its own channel.

use asamblea_rules::{Capacity, Medium, Refusal};
use asamblea_wire::{
    AgentArrival, CredentialId, Digest, EventBody, Id, PublicKey, SignerRole, Text, VerificationMethod,
};

use super::{Rejection, State};

/// A remote stay the daemon ended because its heartbeats stopped
/// (`presence-lapsed`, HY-5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lapse {
    /// The number of its record.
    pub seq: u64,
    /// Whose stay ended.
    pub person: Id,
    /// How long no heartbeat had come, in milliseconds.
    pub silent_ms: u64,
}

/// An identity the desk verified for a remote attendee (`identity-verified`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    /// The number of its record.
    pub seq: u64,
    /// The person verified.
    pub person: Id,
    /// The key their browser made.
    pub key: PublicKey,
    /// How.
    pub method: VerificationMethod,
    /// SHA-256 of the evidence.
    pub evidence: Digest,
    /// The operator's key that signed it: who verified.
    pub verified_by: PublicKey,
}

impl State {
    /// Every identity verified so far, in order.
    pub fn verifications(&self) -> &[Verification] {
        &self.verifications
    }

    /// The verification of `key`, if the desk made one.
    pub fn verification(&self, key: &PublicKey) -> Option<&Verification> {
        self.verified_keys.get(&key.to_bytes()).map(|&at| &self.verifications[at])
    }

    /// Every remote stay ended for want of heartbeats, in order.
    pub fn lapses(&self) -> &[Lapse] {
        &self.lapses
    }

    /// The live remote credential of every person attending remotely now:
    /// whose heartbeats hold a presence (HY-5).
    pub fn remote_present(&self) -> Vec<CredentialId> {
        let mut present: Vec<CredentialId> = self
            .live_badges
            .iter()
            .filter(|(person, credential)| {
                self.badges.get(credential).is_some_and(|b| b.remote)
                    && self.attendance.open_medium(person) == Some(Medium::Remote)
            })
            .map(|(_, &credential)| credential)
            .collect();
        present.sort_by_key(|c| c.0);
        present
    }

    /// Whether `person`'s last remote stay was ended by a lapse and they
    /// have not arrived again since (the page brings them back).
    pub fn lapsed(&self, person: &str) -> bool {
        let Some(lapse) = self.lapses.iter().rev().find(|l| l.person.as_str() == person) else {
            return false;
        };
        let visits = self.attendance.visits();
        !visits.iter().rev().take_while(|v| v.arrived.seq > lapse.seq).any(|v| &*v.person == person)
    }

    /// Whether `credential` is a remote attendee's credential (not a
    /// printed badge).
    pub fn is_remote_credential(&self, credential: CredentialId) -> bool {
        self.badges.get(&credential).is_some_and(|badge| badge.remote)
    }

    /// The channel by which `person` attends now, if they do.
    pub fn medium_of(&self, person: &str) -> Option<Medium> {
        self.attendance.open_medium(person)
    }

    /// The holders `person` may bring in remotely now: themself if a
    /// holder, and every principal an accepted lodged power naming them
    /// (as agent or substitute) still covers; ascending, as
    /// `checked-in-remote` lists them. Holders already present are left
    /// in: the rules refuse them, naming why.
    pub fn remote_principals(&self, person: &str) -> Vec<Id> {
        let Some(meeting) = &self.meeting else { return Vec::new() };
        let mut ids: Vec<Id> = Vec::new();
        if meeting.register().lookup(person).is_some() {
            ids.extend(Id::new(person).ok());
        }
        for record in self.powers.carried_by(person).filter(|r| r.accepted()) {
            for principal in &record.power.principals {
                let covered = meeting
                    .register()
                    .lookup(principal.as_str())
                    .and_then(|h| self.powers.covering(h))
                    .is_some_and(|covering| covering.seq == record.seq);
                if covered {
                    ids.push(principal.clone());
                }
            }
        }
        ids.sort();
        ids.dedup();
        ids
    }

    /// Whether this meeting admits remote attendance: the convened
    /// modality (`meeting-modality`, 0x1C, HY-1) decides — presencial
    /// admits no remote attendee, mixta and no presencial do. The one place
    /// the gate belongs: the replay refuses the remote kinds by it, and the
    /// daemon refuses a registration by it.
    pub fn remote_attendance_allowed(&self) -> bool {
        self.modality().has_remote_channel()
    }

    /// R2 at the desk: a person attending remotely is not admitted in the
    /// room (nor as an agent there) until their remote stay has ended.
    pub(super) fn check_room_channel(&self, person: &str) -> Result<(), Rejection> {
        match self.attendance.open_medium(person) {
            Some(Medium::Remote) => Err(Rejection::OtherChannel { person: person.to_string(), remote: true }),
            _ => Ok(()),
        }
    }

    /// A credential signs only through its own channel: a remote one while
    /// its person attends remotely, a printed badge never while its person
    /// attends remotely.
    pub(super) fn check_credential_channel(
        &self,
        credential: CredentialId,
        remote: bool,
        person: &str,
    ) -> Result<(), Rejection> {
        let attends_remotely = self.attendance.open_medium(person) == Some(Medium::Remote);
        if remote == attends_remotely {
            Ok(())
        } else {
            Err(Rejection::CredentialChannel { credential, remote })
        }
    }

    /// Admits one of the five remote kinds.
    pub(super) fn remote_step(
        &mut self,
        body: &EventBody,
        signer: &PublicKey,
        seq: u64,
    ) -> Result<(), Rejection> {
        if !self.remote_attendance_allowed() {
            return Err(Rejection::RemoteNotAllowed);
        }
        match body {
            EventBody::IdentityVerified { person, key, method, evidence } => {
                let meeting = self.meeting_mut()?;
                let holder = meeting.register().lookup(person.as_str()).is_some();
                let carrier = self.powers.carried_by(person.as_str()).any(|r| r.accepted());
                if !holder && !carrier {
                    return Err(Rejection::NotRemoteAttendee(person.as_str().to_string()));
                }
                let bytes = key.to_bytes();
                if self.verified_keys.contains_key(&bytes) || self.badge_keys.contains_key(&bytes) {
                    return Err(Rejection::KeyInUse);
                }
                self.verified_keys.insert(bytes, self.verifications.len());
                self.verifications.push(Verification {
                    seq,
                    person: person.clone(),
                    key: *key,
                    method: *method,
                    evidence: *evidence,
                    verified_by: *signer,
                });
            }
            EventBody::RemoteCredentialIssued { credential, key, person } => {
                if self.verification(key).is_none_or(|v| v.person != *person) {
                    return Err(Rejection::NotVerified(person.as_str().to_string()));
                }
                self.issue_badge(*credential, key, person, true)?;
            }
            EventBody::CheckedInRemote { credential, principals } => {
                let person = self.remote_signer(*credential, signer, "checked-in-remote")?;
                self.sessions.check_arrival().map_err(Rejection::Session)?;
                if self.attendance.open_medium(person.as_str()) == Some(Medium::Room) {
                    return Err(Rejection::OtherChannel {
                        person: person.as_str().to_string(),
                        remote: false,
                    });
                }
                let meeting = self.meeting.as_ref().ok_or(Rejection::OutOfPlace(
                    "primero se importa el registro de accionistas / the register must be imported first",
                ))?;
                for principal in principals {
                    let own = *principal == person;
                    let covered = meeting
                        .register()
                        .lookup(principal.as_str())
                        .and_then(|h| self.powers.covering(h))
                        .is_some_and(|power| power.carrier(person.as_str()).is_some());
                    if !own && !covered && meeting.register().lookup(principal.as_str()).is_some() {
                        return Err(Rejection::NotCovered {
                            person: person.as_str().to_string(),
                            holder: principal.as_str().to_string(),
                        });
                    }
                }
                let ids: Vec<&str> = principals.iter().map(Id::as_str).collect();
                let (meeting, attendance) = self.meeting_and_attendance()?;
                if principals.len() == 1 && principals[0] == person {
                    meeting.arrive_in_person(person.as_str()).map_err(Rejection::Rules)?;
                } else {
                    // The powers were judged when lodged (Art. 184, 185);
                    // the rules still refuse an agent who is an
                    // administrator by the register.
                    meeting
                        .arrive_as_agent(person.as_str(), &ids, Capacity::Proxy, None)
                        .map_err(Rejection::Rules)?;
                }
                let at: Vec<_> = ids.iter().filter_map(|p| meeting.register().lookup(p)).collect();
                attendance.arrived_by(meeting, &at, seq, Medium::Remote);
                let arrival = AgentArrival {
                    agent: person,
                    principals: principals.clone(),
                    capacity: Capacity::Proxy,
                    declared_role: None,
                    power_document: Text::new("").expect("the empty text"),
                };
                self.powers.arrived(self.meeting.as_ref().expect("admitted above"), &arrival, seq);
            }
            EventBody::CheckedOutRemote { credential } => {
                let person = self.remote_signer(*credential, signer, "checked-out-remote")?;
                self.leave_remotely(&person, seq)?;
            }
            EventBody::PresenceLapsed { credential, silent_ms } => {
                // Signed by the daemon (the kind's signer): the credential
                // need not be live, its person must attend remotely.
                let badge = self.badges.get(credential).ok_or(Rejection::UnknownBadge(*credential))?;
                if !badge.remote {
                    return Err(Rejection::CredentialChannel { credential: *credential, remote: false });
                }
                let person = badge.person.clone();
                let timeout_ms = self
                    .modality
                    .as_ref()
                    .map_or(0, |m| u64::from(m.presence.timeout_seconds).saturating_mul(1000));
                if *silent_ms < timeout_ms {
                    return Err(Rejection::NotLapsed { silent_ms: *silent_ms, timeout_ms });
                }
                self.leave_remotely(&person, seq)?;
                self.lapses.push(Lapse { seq, person, silent_ms: *silent_ms });
            }
            _ => unreachable!("remote_step takes the remote kinds only"),
        }
        Ok(())
    }

    /// `person`'s remote stay ends, with everyone they carry.
    fn leave_remotely(&mut self, person: &Id, seq: u64) -> Result<(), Rejection> {
        if self.attendance.open_medium(person.as_str()) != Some(Medium::Remote) {
            return Err(Rejection::Rules(Refusal::NotPresent));
        }
        let (meeting, attendance) = self.meeting_and_attendance()?;
        meeting.leave(person.as_str()).map_err(Rejection::Rules)?;
        attendance.left(meeting, person.as_str(), seq);
        Ok(())
    }

    /// The person of the live remote credential `credential` whose key is
    /// `signer`, for an event of `kind`.
    pub(super) fn remote_signer(
        &self,
        credential: CredentialId,
        signer: &PublicKey,
        kind: &'static str,
    ) -> Result<Id, Rejection> {
        let badge = self.badges.get(&credential).ok_or(Rejection::UnknownBadge(credential))?;
        if badge.revoked {
            return Err(Rejection::RevokedBadge(credential));
        }
        if !badge.remote {
            return Err(Rejection::CredentialChannel { credential, remote: false });
        }
        if badge.key != signer.to_bytes() {
            return Err(Rejection::SignerNotAllowed { kind, role: SignerRole::Attendee });
        }
        Ok(badge.person.clone())
    }
}
