//! Each event body's bytes, field by field as `docs/ledger-format.md` §3
//! lays them out: written and read in one place, so that the two never
//! drift apart.

use super::*;

impl EventBody {
    pub(super) fn write(&self, w: &mut Writer) -> Result<(), WireError> {
        match self {
            EventBody::MeetingConvened {
                daemon_key,
                profile,
                profile_digest,
                meeting_kind,
                call,
                settings,
                agenda,
            } => {
                w.bytes(&daemon_key.to_bytes());
                w.str(profile.as_str());
                w.bytes(&profile_digest.0);
                w.code(*meeting_kind);
                w.code(*call);
                w.code(settings.quorum);
                w.code(settings.base);
                w.bool(settings.listed);
                w.bool(settings.preferred_full_vote);
                w.bool(settings.split_custodians);
                w.bool(settings.legal_representative_impeded);
                w.count("meeting-convened.agenda", agenda.len(), 1, MAX_AGENDA_ITEMS)?;
                for (i, entry) in agenda.iter().enumerate() {
                    if agenda[..i].iter().any(|earlier| earlier.item == entry.item) {
                        return Err(WireError::Invalid {
                            field: "meeting-convened.agenda.item",
                            problem: Problem::Repeated,
                        });
                    }
                    entry.write(w)?;
                }
            }
            EventBody::StaffEnrolled { key, role, name } => {
                w.bytes(&key.to_bytes());
                w.code(*role);
                w.str(name.as_str());
            }
            EventBody::RegisterImported { register_digest, holders, capital } => {
                w.bytes(&register_digest.0);
                w.u32(*holders);
                for class in [capital.ordinary, capital.preferred] {
                    w.u64(class.subscribed().get());
                    w.u64(class.treasury().get());
                }
            }
            EventBody::CheckedInPerson { holder } => w.str(holder.as_str()),
            EventBody::CheckedInAgent(arrival) => arrival.write(w)?,
            EventBody::ProxyRefused { arrival, reason } => {
                arrival.write(w)?;
                w.code(*reason);
            }
            EventBody::CheckedOut { person } => w.str(person.as_str()),
            EventBody::BadgeIssued { credential, key, person } => {
                w.u32(credential.0);
                w.bytes(&key.to_bytes());
                w.str(person.as_str());
            }
            EventBody::BadgeRevoked { credential } => w.u32(credential.0),
            EventBody::ItemOpened { item } => w.str(item.as_str()),
            EventBody::Ballot(ballot) => ballot.write(w)?,
            EventBody::ItemClosed { item } => w.str(item.as_str()),
            EventBody::LotDrawn { item, round, seed, winner } => {
                w.str(item.as_str());
                w.u32(*round);
                w.bytes(&seed.0);
                w.str(winner.as_str());
            }
            EventBody::ResultPublished { item, result } => {
                w.str(item.as_str());
                result.write(w)?;
            }
            EventBody::StatementRecorded { item, person, text } => {
                w.str(item.as_str());
                w.str(person.as_str());
                w.str(text.as_str());
            }
            EventBody::RegisterNamed { first, names } => {
                w.u32(*first);
                w.count("register-named.names", names.len(), 1, crate::limits::MAX_NAMES)?;
                for name in names {
                    w.str(name.as_str());
                }
            }
            EventBody::MeetingDescribed { file } => w.str(file.as_str()),
            EventBody::AttendeeNamed { person, name, document } => {
                w.str(person.as_str());
                if name.as_str().is_empty() {
                    let problem = Problem::TooShort { len: 0, min: 1 };
                    return Err(WireError::Invalid { field: "attendee-named.name", problem });
                }
                w.str(name.as_str());
                w.count("attendee-named.document", usize::from(document.is_some()), 0, 1)?;
                if let Some(document) = document {
                    w.str(document.as_str());
                }
            }
            EventBody::AgendaConvened { entries } => {
                w.count("agenda-convened.entries", entries.len(), 1, MAX_AGENDA_ENTRIES)?;
                for (i, entry) in entries.iter().enumerate() {
                    if entries[..i].iter().any(|earlier| earlier.item() == entry.item()) {
                        let problem = Problem::Repeated;
                        return Err(WireError::Invalid { field: "agenda-convened.entries.item", problem });
                    }
                    entry.write(w)?;
                }
            }
            EventBody::MeetingInstalled { note }
            | EventBody::MeetingSuspended { note }
            | EventBody::MeetingResumed { note }
            | EventBody::MeetingAdjourned { note } => w.str(note.as_str()),
            EventBody::PowerLodged(power) => power.write(w)?,
            EventBody::PowerRevoked { power, principal, reason } => {
                w.str(power.as_str());
                w.str(principal.as_str());
                w.code(*reason);
            }
            EventBody::MeetingModality(modality) => modality.write(w)?,
            EventBody::IdentityVerified { person, key, method, evidence } => {
                w.str(person.as_str());
                w.bytes(&key.to_bytes());
                w.code(*method);
                w.bytes(&evidence.0);
            }
            EventBody::RemoteCredentialIssued { credential, key, person } => {
                w.u32(credential.0);
                w.bytes(&key.to_bytes());
                w.str(person.as_str());
            }
            EventBody::CheckedInRemote { credential, principals } => {
                remote::write_remote_arrival(w, *credential, principals)?
            }
            EventBody::CheckedOutRemote { credential } => w.u32(credential.0),
            EventBody::PresenceLapsed { credential, silent_ms } => {
                w.u32(credential.0);
                w.u64(*silent_ms);
            }
            EventBody::RemoteSubmission { credential, kind, item, text } => {
                w.u32(credential.0);
                w.code(*kind);
                w.count("remote-submission.item", usize::from(item.is_some()), 0, 1)?;
                if let Some(item) = item {
                    w.str(item.as_str());
                }
                w.str(text.as_str());
            }
            EventBody::SubmissionHandled { submission, outcome, note } => {
                w.u64(*submission);
                w.code(*outcome);
                w.str(note.as_str());
            }
            EventBody::NodeEnrolled { node, key } => {
                w.str(node.as_str());
                w.bytes(&key.to_bytes());
            }
            EventBody::LeaderTookOver { node } => w.str(node.as_str()),
            EventBody::CloseAnnounced { item, countdown_ms } => {
                w.str(item.as_str());
                w.u64(*countdown_ms);
            }
            EventBody::PollsTimed { min_open_ms, min_countdown_ms } => {
                w.u64(*min_open_ms);
                w.u64(*min_countdown_ms);
            }
        }
        Ok(())
    }

    pub(super) fn read(kind: MessageKind, r: &mut Reader<'_>) -> Result<EventBody, WireError> {
        Ok(match kind {
            MessageKind::MeetingConvened => EventBody::MeetingConvened {
                daemon_key: r.public_key("meeting-convened.daemon_key")?,
                profile: r.id("meeting-convened.profile")?,
                profile_digest: Digest(r.array("meeting-convened.profile_digest")?),
                meeting_kind: r.code("meeting-convened.meeting_kind")?,
                call: r.code("meeting-convened.call")?,
                settings: Settings {
                    quorum: r.code("meeting-convened.quorum")?,
                    base: r.code("meeting-convened.base")?,
                    listed: r.bool("meeting-convened.listed")?,
                    preferred_full_vote: r.bool("meeting-convened.preferred_full_vote")?,
                    split_custodians: r.bool("meeting-convened.split_custodians")?,
                    legal_representative_impeded: r.bool("meeting-convened.legal_representative_impeded")?,
                },
                agenda: {
                    let count = r.count("meeting-convened.agenda", 1, MAX_AGENDA_ITEMS)?;
                    let mut agenda: Vec<AgendaItem> = Vec::with_capacity(count);
                    for _ in 0..count {
                        let at = r.at();
                        let entry = AgendaItem::read(r)?;
                        if agenda.iter().any(|earlier| earlier.item == entry.item) {
                            return Err(r.malformed("meeting-convened.agenda.item", at, Problem::Repeated));
                        }
                        agenda.push(entry);
                    }
                    agenda
                },
            },
            MessageKind::StaffEnrolled => EventBody::StaffEnrolled {
                key: r.public_key("staff-enrolled.key")?,
                role: r.code("staff-enrolled.role")?,
                name: r.id("staff-enrolled.name")?,
            },
            MessageKind::RegisterImported => {
                let register_digest = Digest(r.array("register-imported.register_digest")?);
                let holders = r.u32("register-imported.holders")?;
                let ordinary = read_class_capital(r, "register-imported.ordinary")?;
                let preferred = read_class_capital(r, "register-imported.preferred")?;
                EventBody::RegisterImported {
                    register_digest,
                    holders,
                    capital: Capital { ordinary, preferred },
                }
            }
            MessageKind::CheckedInPerson => {
                EventBody::CheckedInPerson { holder: r.id("checked-in-person.holder")? }
            }
            MessageKind::CheckedInAgent => EventBody::CheckedInAgent(AgentArrival::read(r)?),
            MessageKind::ProxyRefused => EventBody::ProxyRefused {
                arrival: AgentArrival::read(r)?,
                reason: r.code("proxy-refused.reason")?,
            },
            MessageKind::CheckedOut => EventBody::CheckedOut { person: r.id("checked-out.person")? },
            MessageKind::BadgeIssued => EventBody::BadgeIssued {
                credential: CredentialId(r.u32("badge-issued.credential")?),
                key: r.public_key("badge-issued.key")?,
                person: r.id("badge-issued.person")?,
            },
            MessageKind::BadgeRevoked => {
                EventBody::BadgeRevoked { credential: CredentialId(r.u32("badge-revoked.credential")?) }
            }
            MessageKind::ItemOpened => EventBody::ItemOpened { item: r.id("item-opened.item")? },
            MessageKind::Ballot => EventBody::Ballot(Ballot::read(r)?),
            MessageKind::ItemClosed => EventBody::ItemClosed { item: r.id("item-closed.item")? },
            MessageKind::LotDrawn => EventBody::LotDrawn {
                item: r.id("lot-drawn.item")?,
                round: r.u32("lot-drawn.round")?,
                seed: Digest(r.array("lot-drawn.seed")?),
                winner: r.id("lot-drawn.winner")?,
            },
            MessageKind::ResultPublished => EventBody::ResultPublished {
                item: r.id("result-published.item")?,
                result: PublishedResult::read(r)?,
            },
            MessageKind::StatementRecorded => EventBody::StatementRecorded {
                item: r.id("statement-recorded.item")?,
                person: r.id("statement-recorded.person")?,
                text: r.prose("statement-recorded.text")?,
            },
            MessageKind::RegisterNamed => {
                let first = r.u32("register-named.first")?;
                let count = r.count("register-named.names", 1, crate::limits::MAX_NAMES)?;
                let mut names = Vec::with_capacity(count);
                for _ in 0..count {
                    names.push(r.text("register-named.names")?);
                }
                EventBody::RegisterNamed { first, names }
            }
            MessageKind::MeetingDescribed => {
                EventBody::MeetingDescribed { file: r.file_text("meeting-described.file")? }
            }
            MessageKind::AttendeeNamed => EventBody::AttendeeNamed {
                person: r.id("attendee-named.person")?,
                name: r.name("attendee-named.name")?,
                document: match r.count("attendee-named.document", 0, 1)? {
                    0 => None,
                    _ => Some(r.id("attendee-named.document")?),
                },
            },
            MessageKind::AgendaConvened => {
                let count = r.count("agenda-convened.entries", 1, MAX_AGENDA_ENTRIES)?;
                let mut entries: Vec<AgendaEntry> = Vec::with_capacity(count);
                for _ in 0..count {
                    let at = r.at();
                    let entry = AgendaEntry::read(r)?;
                    if entries.iter().any(|earlier| earlier.item() == entry.item()) {
                        return Err(r.malformed("agenda-convened.entries.item", at, Problem::Repeated));
                    }
                    entries.push(entry);
                }
                EventBody::AgendaConvened { entries }
            }
            MessageKind::MeetingInstalled => {
                EventBody::MeetingInstalled { note: r.text("meeting-installed.note")? }
            }
            MessageKind::MeetingSuspended => {
                EventBody::MeetingSuspended { note: r.text("meeting-suspended.note")? }
            }
            MessageKind::MeetingResumed => {
                EventBody::MeetingResumed { note: r.text("meeting-resumed.note")? }
            }
            MessageKind::MeetingAdjourned => {
                EventBody::MeetingAdjourned { note: r.text("meeting-adjourned.note")? }
            }
            MessageKind::PowerLodged => EventBody::PowerLodged(LodgedPower::read(r)?),
            MessageKind::PowerRevoked => EventBody::PowerRevoked {
                power: r.id("power-revoked.power")?,
                principal: r.id("power-revoked.principal")?,
                reason: r.code("power-revoked.reason")?,
            },
            MessageKind::MeetingModality => EventBody::MeetingModality(ConvenedModality::read(r)?),
            MessageKind::IdentityVerified => EventBody::IdentityVerified {
                person: r.id("identity-verified.person")?,
                key: r.public_key("identity-verified.key")?,
                method: r.code("identity-verified.method")?,
                evidence: Digest(r.array("identity-verified.evidence")?),
            },
            MessageKind::RemoteCredentialIssued => EventBody::RemoteCredentialIssued {
                credential: CredentialId(r.u32("remote-credential-issued.credential")?),
                key: r.public_key("remote-credential-issued.key")?,
                person: r.id("remote-credential-issued.person")?,
            },
            MessageKind::CheckedInRemote => remote::read_remote_arrival(r)?,
            MessageKind::CheckedOutRemote => EventBody::CheckedOutRemote {
                credential: CredentialId(r.u32("checked-out-remote.credential")?),
            },
            MessageKind::PresenceLapsed => EventBody::PresenceLapsed {
                credential: CredentialId(r.u32("presence-lapsed.credential")?),
                silent_ms: r.u64("presence-lapsed.silent_ms")?,
            },
            MessageKind::RemoteSubmission => EventBody::RemoteSubmission {
                credential: CredentialId(r.u32("remote-submission.credential")?),
                kind: r.code("remote-submission.kind")?,
                item: match r.count("remote-submission.item", 0, 1)? {
                    0 => None,
                    _ => Some(r.id("remote-submission.item")?),
                },
                text: r.prose("remote-submission.text")?,
            },
            MessageKind::SubmissionHandled => EventBody::SubmissionHandled {
                submission: r.u64("submission-handled.submission")?,
                outcome: r.code("submission-handled.outcome")?,
                note: r.text("submission-handled.note")?,
            },
            MessageKind::NodeEnrolled => EventBody::NodeEnrolled {
                node: r.id("node-enrolled.node")?,
                key: r.public_key("node-enrolled.key")?,
            },
            MessageKind::LeaderTookOver => EventBody::LeaderTookOver { node: r.id("leader-took-over.node")? },
            MessageKind::CloseAnnounced => EventBody::CloseAnnounced {
                item: r.id("close-announced.item")?,
                countdown_ms: r.u64("close-announced.countdown_ms")?,
            },
            MessageKind::PollsTimed => EventBody::PollsTimed {
                min_open_ms: r.u64("polls-timed.min_open_ms")?,
                min_countdown_ms: r.u64("polls-timed.min_countdown_ms")?,
            },
            // `Reader::header` let event kinds only through.
            MessageKind::Receipt
            | MessageKind::Checkpoint
            | MessageKind::RemoteRegistration
            | MessageKind::RemoteHeartbeat
            | MessageKind::SessionPass => return Err(r.malformed("tag", 0, Problem::UnexpectedKind(kind))),
        })
    }
}

fn read_class_capital(r: &mut Reader<'_>, field: &'static str) -> Result<ClassCapital, WireError> {
    let at = r.at();
    let subscribed = Shares::new(r.u64(field)?);
    let treasury = Shares::new(r.u64(field)?);
    ClassCapital::new(subscribed, treasury)
        .map_err(|_| r.malformed(field, at, Problem::TreasuryExceedsSubscribed))
}

impl AgentArrival {
    pub(super) fn write(&self, w: &mut Writer) -> Result<(), WireError> {
        w.str(self.agent.as_str());
        write_ascending(w, "arrival.principals", &self.principals, 1, MAX_PRINCIPALS)?;
        w.code(self.capacity);
        w.code(self.declared_role);
        w.str(self.power_document.as_str());
        Ok(())
    }

    pub(super) fn read(r: &mut Reader<'_>) -> Result<AgentArrival, WireError> {
        let agent = r.id("arrival.agent")?;
        let principals = read_ascending(r, "arrival.principals", 1, MAX_PRINCIPALS)?;
        Ok(AgentArrival {
            agent,
            principals,
            capacity: r.code("arrival.capacity")?,
            declared_role: r.code("arrival.declared_role")?,
            power_document: r.text("arrival.power_document")?,
        })
    }
}
