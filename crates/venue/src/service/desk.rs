//! The registration desk's actions on a meeting: arrivals in person and
//! by agent (with the attending person's name), refused powers, badges
//! issued and reissued, and who attends now.

use super::*;

impl Service {
    /// A holder checks in person (revoking the power lodged for them, if
    /// one covers them: [`Service::before_arrival_in_person`]).
    pub fn check_in(&mut self, holder: &str) -> Result<Appended> {
        self.refuse_without_shares(&[holder])?;
        let arrival = EventBody::CheckedInPerson { holder: id("el accionista / holder", holder)? };
        let key = self.signer_for(MessageKind::CheckedInPerson)?;
        let mut events = self.before_arrival_in_person(holder)?;
        if events.is_empty() {
            return self.staff_event(arrival);
        }
        events.push(arrival);
        Ok(self.group_as(&key, events)?)
    }

    /// What the ledger records before `holder` arrives in person (R2: one
    /// channel per holder): the revocation of the accepted power lodged for
    /// them (`power-revoked`, `principal-arrived`) and, when that power's
    /// agent or substitute carries them now, their exit from that agent
    /// (`checked-out` of the holder; the agent keeps the rest). Nothing
    /// when no lodged power covers them — or when someone else carries
    /// them, which the rules then refuse as before.
    pub fn before_arrival_in_person(&self, holder: &str) -> Result<Vec<EventBody>> {
        let meeting = self.meeting();
        let Some(at) = meeting.register().lookup(holder) else { return Ok(Vec::new()) };
        let Some(power) = self.state().powers().covering(at) else { return Ok(Vec::new()) };
        // The arrival follows the revocation in the same transaction:
        // judged now, so that a revocation is never recorded alone.
        self.state()
            .sessions()
            .check_arrival()
            .map_err(|r| VenueError::Rejected(asamblea_ledger::Rejection::Session(r)))?;
        let holder_id = id("el accionista / holder", holder)?;
        let revoke = EventBody::PowerRevoked {
            power: power.power.power.clone(),
            principal: holder_id.clone(),
            reason: asamblea_wire::Revocation::PrincipalArrived,
        };
        Ok(match meeting.presence().channel(at) {
            asamblea_rules::Channel::Absent => vec![revoke],
            asamblea_rules::Channel::Agent { agent, .. }
                if power.carrier(meeting.presence().agent_id(agent)).is_some() =>
            {
                vec![revoke, EventBody::CheckedOut { person: holder_id }]
            }
            _ => Vec::new(),
        })
    }

    /// Events signed by `key` and recorded in one transaction; where the
    /// last one stands. Each is judged before it is pushed by whoever
    /// calls: a refusal half-way commits what was pushed (a group is never
    /// dropped half done) and is returned.
    pub(crate) fn group_as(
        &mut self,
        key: &Keypair,
        events: Vec<EventBody>,
    ) -> Result<Appended, ActionError> {
        let meeting_id = self.meeting_id;
        let signed =
            events.into_iter().map(|body| sign_event(&meeting_id, key, body)).collect::<Result<Vec<_>>>()?;
        let mut group = self.journal.begin_group()?;
        let mut last = None;
        for event in signed {
            match group.push(event) {
                Ok(placed) => last = Some(placed),
                Err(error) => {
                    group.commit()?;
                    return Err(ActionError::from(error));
                }
            }
        }
        group.commit()?;
        last.ok_or_else(|| ActionError::Other(VenueError::refused("nada que registrar / nothing to record")))
    }

    /// The first of `holders` that the register lists with no share of
    /// any class, if any: the desk does not check such a row in
    /// ([`VenueError::NoShares`]).
    pub fn holder_without_shares<'a>(&self, holders: &[&'a str]) -> Option<&'a str> {
        let register = self.meeting().register();
        holders.iter().copied().find(|holder| {
            register.lookup(holder).is_some_and(|at| register.holder(at).holdings().total().is_zero())
        })
    }

    fn refuse_without_shares(&self, holders: &[&str]) -> Result<()> {
        match self.holder_without_shares(holders) {
            Some(holder) => Err(VenueError::NoShares { holder: holder.to_string() }),
            None => Ok(()),
        }
    }

    /// An arrival (`checked-in-person`, or an agent's `checked-in-agent`,
    /// see [`Service::check_in_agent_as`]) by `key`'s member, with the name
    /// of the natural person who attends (`attendee-named`: the agent, or
    /// who attends for a holder in person, with their own document when
    /// it is a company), both in one transaction: a person is never left
    /// checked in without the name the desk typed. Without a name, the
    /// arrival alone.
    pub fn arrive_named_as(
        &mut self,
        key: &Keypair,
        arrival: EventBody,
        named: Option<(Text, Option<Id>)>,
    ) -> Result<Appended, ActionError> {
        let person = match &arrival {
            EventBody::CheckedInPerson { holder } => {
                self.refuse_without_shares(&[holder.as_str()]).map_err(ActionError::Other)?;
                holder.clone()
            }
            EventBody::CheckedInAgent(agent) => agent.agent.clone(),
            other => {
                return Err(ActionError::Other(VenueError::refused(format!(
                    "`{}` no es una llegada / is not an arrival",
                    other.kind()
                ))))
            }
        };
        let before = match &arrival {
            EventBody::CheckedInPerson { holder } => self.before_arrival_in_person(holder.as_str())?,
            _ => Vec::new(),
        };
        let Some((name, document)) = named else {
            return match arrival {
                EventBody::CheckedInAgent(agent) => self.check_in_agent_as(key, agent),
                body if !before.is_empty() => self.group_as(key, before.into_iter().chain([body]).collect()),
                body => self.staff_event_as(key, body),
            };
        };
        // Checked before anything is pushed, so the naming cannot be
        // refused once the arrival is in the group.
        if name.as_str().trim().is_empty() {
            return Err(ActionError::Other(VenueError::refused(
                "el nombre de quien asiste está vacío / the attendee's name is empty",
            )));
        }
        if document.is_some() && !matches!(arrival, EventBody::CheckedInPerson { .. }) {
            return Err(ActionError::Other(VenueError::refused(
                "el documento aparte es de quien asiste por un accionista en persona; el de un apoderado es su propio id / a separate document is for whoever attends for a holder in person; an agent's is their id",
            )));
        }
        if let EventBody::CheckedInAgent(agent) = &arrival {
            // The rules' refusals of an agent are recorded as they are
            // without a name (`proxy-refused`).
            let principals: Vec<&str> = agent.principals.iter().map(Id::as_str).collect();
            self.refuse_without_shares(&principals).map_err(ActionError::Other)?;
            let verdict = self.meeting().check_arrival(
                agent.agent.as_str(),
                &principals,
                agent.capacity,
                agent.declared_role,
            );
            if verdict.is_err() {
                let EventBody::CheckedInAgent(agent) = arrival else { unreachable!("matched above") };
                return self.check_in_agent_as(key, agent);
            }
        }
        let meeting_id = self.meeting_id;
        let sign = |body: EventBody| sign_event(&meeting_id, key, body).map_err(ActionError::from);
        let before = before.into_iter().map(sign).collect::<Result<Vec<_>, _>>()?;
        let arrived = sign(arrival)?;
        let naming = sign(EventBody::AttendeeNamed { person, name, document })?;
        let mut group = self.journal.begin_group()?;
        let pushed = before.len();
        for event in before {
            if let Err(error) = group.push(event) {
                group.commit()?;
                return Err(error.into());
            }
        }
        let appended = match group.push(arrived) {
            Ok(appended) => appended,
            Err(error) if pushed > 0 => {
                group.commit()?;
                return Err(error.into());
            }
            Err(error) => return Err(error.into()),
        };
        if let Err(error) = group.push(naming) {
            return Err(ActionError::Ledger(asamblea_ledger::LedgerError::WriterStopped {
                reason: format!(
                    "la llegada no pudo registrarse con el nombre de quien asiste / the arrival could not be recorded with the attendee's name: {error}"
                ),
                cause: asamblea_ledger::Cause::Other,
            }));
        }
        group.commit()?;
        Ok(appended)
    }

    /// An agent checks in with principals (sorted here, as the format
    /// wants) and its own declaration of being an administrator or
    /// employee, by the command line's operator: see
    /// [`Service::check_in_agent_as`].
    pub fn check_in_agent(
        &mut self,
        agent: &str,
        principals: &[&str],
        capacity: asamblea_rules::Capacity,
        declared_role: Option<asamblea_rules::Role>,
        power_document: &str,
    ) -> Result<Appended> {
        let mut ids =
            principals.iter().map(|p| id("el representado / principal", p)).collect::<Result<Vec<_>>>()?;
        ids.sort();
        let arrival = AgentArrival {
            agent: crate::text::agent_id(agent)
                .map_err(|problem| VenueError::refused(problem.to_string()))?,
            principals: ids,
            capacity,
            declared_role,
            power_document: Text::new(power_document)
                .map_err(VenueError::invalid("el poder / the power of attorney"))?,
        };
        let operator = self.signer_for(MessageKind::CheckedInAgent)?;
        Ok(self.check_in_agent_as(&operator, arrival)?)
    }

    /// An agent's arrival by a given staff member. A proxy the rules
    /// refuse for a reason the acta must state (Art. 185: an administrator
    /// or employee carrying others' shares; an unknown or already present
    /// principal; a rejected power) is recorded as `proxy-refused`, with
    /// its reason, before the refusal is returned; so the registration desk
    /// and the API leave the same trace.
    pub fn check_in_agent_as(
        &mut self,
        key: &Keypair,
        arrival: AgentArrival,
    ) -> Result<Appended, ActionError> {
        let principals: Vec<&str> = arrival.principals.iter().map(Id::as_str).collect();
        self.refuse_without_shares(&principals).map_err(ActionError::Other)?;
        let verdict = self.meeting().check_arrival(
            arrival.agent.as_str(),
            &principals,
            arrival.capacity,
            arrival.declared_role,
        );
        if let Err(refusal) = verdict {
            if let Some(reason) = ProxyRefusal::from_refusal(refusal) {
                self.staff_event_as(key, EventBody::ProxyRefused { arrival, reason })?;
            }
            return Err(ActionError::Rejected(asamblea_ledger::Rejection::Rules(refusal)));
        }
        self.staff_event_as(key, EventBody::CheckedInAgent(arrival))
    }

    /// An agent whose power of attorney the desk found wanting (C.Co Art.
    /// 184): the staff's judgment, recorded as `proxy-refused` with the
    /// reason `power-document-rejected`, so the acta lists it. Nobody is
    /// admitted.
    pub fn refuse_power_as(&mut self, key: &Keypair, arrival: AgentArrival) -> Result<Appended, ActionError> {
        self.staff_event_as(
            key,
            EventBody::ProxyRefused { arrival, reason: ProxyRefusal::PowerDocumentRejected },
        )
    }

    /// Issues a badge to `person` for the public key of a seed the desk
    /// drew, signed with `staff`'s key, under the next number. Only a
    /// person who votes shares now (a holder present in person, or an
    /// agent) gets one. The same key for the same person again is the
    /// desk retrying a request whose answer it lost: the badge stands, and
    /// its number is answered again ([`BadgeIssue::Standing`]).
    pub fn issue_badge_as(
        &mut self,
        staff: &Keypair,
        person: &Id,
        key: PublicKey,
    ) -> Result<BadgeIssue, ActionError> {
        use asamblea_ledger::Rejection;
        let meeting = self.meeting();
        if meeting.carried_by(person.as_str()).next().is_none() {
            return Err(ActionError::Rejected(Rejection::Rules(asamblea_rules::Refusal::NotPresent)));
        }
        let state = self.journal.state();
        if let Some(number) = state.badge_with_key(&key) {
            if let Some((_, holder, false)) = state.badge(number) {
                if holder == person.as_str() {
                    return Ok(BadgeIssue::Standing(number));
                }
            }
        }
        let credential = CredentialId(state.badges_issued() + 1);
        let appended =
            self.staff_event_as(staff, EventBody::BadgeIssued { credential, key, person: person.clone() })?;
        Ok(BadgeIssue::Issued { credential, appended })
    }

    /// A lost badge replaced: `old` revoked and a new badge issued to the
    /// same person for `key`, signed by `key`'s member, in one transaction
    /// — both reach the ledger or neither, so the person is never left
    /// with two live badges nor, after a crash, with a revoked one and no
    /// record of the new. Gives the person, the new badge's number and
    /// where the issue stands in the ledger.
    pub fn reissue_badge_as(
        &mut self,
        staff: &Keypair,
        old: CredentialId,
        key: PublicKey,
    ) -> Result<(String, CredentialId, Appended), ActionError> {
        use asamblea_ledger::Rejection;
        let state = self.journal.state();
        let person = match state.badge(old) {
            None => return Err(ActionError::Rejected(Rejection::UnknownBadge(old))),
            Some((_, _, true)) => return Err(ActionError::Rejected(Rejection::RevokedBadge(old))),
            Some((_, person, false)) => id("la persona / person", person)?,
        };
        // Checked before anything is pushed: past the revocation, a refused
        // issue would leave the group half done.
        if let Some(used) = state.badge_with_key(&key) {
            return Err(ActionError::Rejected(Rejection::BadgeInUse(used)));
        }
        let number = CredentialId(state.badges_issued() + 1);
        let meeting_id = self.meeting_id;
        let sign = |body: EventBody| sign_event(&meeting_id, staff, body).map_err(ActionError::from);
        let revoke = sign(EventBody::BadgeRevoked { credential: old })?;
        let issue = sign(EventBody::BadgeIssued { credential: number, key, person: person.clone() })?;
        let mut group = self.journal.begin_group()?;
        group.push(revoke)?;
        let issued = match group.push(issue) {
            Ok(appended) => appended,
            Err(error) => {
                return Err(ActionError::Ledger(asamblea_ledger::LedgerError::WriterStopped {
                    reason: format!(
                        "la reexpedición de la credencial {n} no se pudo completar / the re-issue of badge {n} could not be completed: {error}",
                        n = old.0
                    ),
                    cause: asamblea_ledger::Cause::Other,
                }))
            }
        };
        group.commit()?;
        Ok((person.as_str().to_string(), number, issued))
    }

    /// The people present who may vote — holders in person and agents —
    /// in register order, each with the holders it carries and its live
    /// badge, if it has one.
    pub fn attendees(&self) -> Vec<Attendee> {
        let meeting = self.meeting();
        let mut people: Vec<Attendee> = Vec::new();
        for (at, holder) in meeting.register().iter() {
            let Some(person) = meeting.voter_of(at) else { continue };
            match people.iter_mut().find(|p| p.person == person) {
                Some(attendee) => attendee.carries.push(holder.id().to_string()),
                None => people.push(Attendee {
                    person: person.to_string(),
                    carries: vec![holder.id().to_string()],
                    badge: None,
                }),
            }
        }
        for attendee in &mut people {
            attendee.badge = self.state().badge_of(&attendee.person);
        }
        people
    }

    /// Issues a badge to a person: records the public key of a seed the
    /// registration desk drew, under the next badge number (returned, for
    /// the desk to print the QR of its seed with). The meeting never sees
    /// a badge's seed (ledger-format §9).
    pub fn issue_badge(&mut self, person: &str, key: PublicKey) -> Result<(CredentialId, Appended)> {
        let number = CredentialId(self.journal.state().badges_issued() + 1);
        let appended = self.staff_event(EventBody::BadgeIssued {
            credential: number,
            key,
            person: id("la persona / person", person)?,
        })?;
        Ok((number, appended))
    }

    /// Each holder's name, by id, read from the register as imported
    /// (`DIR/register.csv`; the rules and the ledger keep ids only).
    pub fn holder_names(&self) -> Result<crate::register_csv::Names> {
        holder_names_in(&self.dir, self.config().capital)
    }
}

/// [`Service::holder_names`] of the meeting in `dir`, whose capital is
/// `capital`, read without the service: a caller that holds the service
/// behind a lock reads the file (a second at 131.000 holders) outside it.
pub fn holder_names_in(dir: &Path, capital: asamblea_rules::Capital) -> Result<crate::register_csv::Names> {
    let path = dir.join("register.csv");
    let bytes = fs::read(&path).map_err(VenueError::io(&path, READ))?;
    Ok(crate::register_csv::import("register.csv", bytes.as_slice(), capital, |_| {})?.names)
}
