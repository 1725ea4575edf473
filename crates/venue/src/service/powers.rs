//! Powers of attorney on a meeting: lodged before the day (one
//! transaction for a whole file), what is lodged for a person, and the
//! desk's one action that admits a person with everything lodged for them.

use std::collections::HashSet;

use asamblea_ledger::PowerRecord;
use asamblea_rules::powers::{check_power, PowerRefusal, Tie};
use asamblea_rules::{Channel, HolderIndex, SessionState};
use asamblea_wire::{LodgedPower, Revocation};

use super::*;
use crate::powers::PowerInput;

/// What [`Service::lodge_powers`] recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LodgeReport {
    /// Each power lodged now, by reference, with its verdict (`None`
    /// accepted), in the order given.
    pub lodged: Vec<(String, Option<PowerRefusal>)>,
    /// Powers lodged before with the same content: left as they stand (a
    /// file imported twice doubles nothing).
    pub unchanged: Vec<String>,
}

/// Where a principal of a power stands for the person who carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrincipalStatus {
    /// Absent and covered by this power: the admission carries them.
    ToCarry,
    /// This person carries them now.
    Carried,
    /// Another person carries them now (by a power shown at the desk).
    CarriedBy(String),
    /// Present in person.
    InPerson,
    /// The power no longer covers them.
    Revoked(Revocation),
    /// Not in the register (the power was refused for it).
    Unknown,
}

/// A principal of a power lodged for a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectedPrincipal {
    /// Their id.
    pub id: String,
    /// Their place in the register, when they are in it.
    pub at: Option<HolderIndex>,
    /// Where they stand.
    pub status: PrincipalStatus,
}

/// A power naming the person as agent or substitute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectedPower {
    /// Its reference.
    pub reference: String,
    /// `None` accepted; else why it was refused.
    pub verdict: Option<PowerRefusal>,
    /// The person is named as a substitute, not as the agent.
    pub as_substitute: bool,
    /// The agent the power names (the one a substitute replaces).
    pub agent: Option<String>,
    /// The agent's name as the power writes it.
    pub agent_name: String,
    /// Its principals.
    pub principals: Vec<ExpectedPrincipal>,
}

/// Everything lodged for a person: their own holding, the powers they
/// carry, and the power that covers them as a principal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The person's id.
    pub person: String,
    /// Their place in the register, when they are a holder.
    pub holder: Option<HolderIndex>,
    /// How their own holding is present now.
    pub channel: Option<Channel>,
    /// The accepted power that covers their own shares (reference and
    /// agent), revoked when they arrive in person.
    pub covered_by: Option<(String, Option<String>)>,
    /// The powers naming them as agent or substitute, in the order lodged.
    pub powers: Vec<ExpectedPower>,
}

impl Expected {
    /// The principals the admission carries under the powers, ascending,
    /// once each.
    pub fn to_carry(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = self
            .powers
            .iter()
            .flat_map(|p| p.principals.iter())
            .filter(|p| p.status == PrincipalStatus::ToCarry)
            .map(|p| p.id.as_str())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Whether nothing at all is lodged for the person and they are not a
    /// holder: the desk's search found no one.
    pub fn is_unknown(&self) -> bool {
        self.holder.is_none() && self.powers.is_empty()
    }
}

/// What [`Service::admit_as`] recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Admission {
    /// Where the arrival stands in the ledger.
    pub appended: Appended,
    /// The holders the person votes for now, ascending (their own
    /// included).
    pub carried: Vec<String>,
    /// The power that covered the person's own shares, revoked by their
    /// arrival.
    pub revoked: Option<String>,
    /// The person came as a substitute for at least one power.
    pub as_substitute: bool,
}

impl Service {
    /// [`Service::lodge_powers_as`] by the command line's operator.
    pub fn lodge_powers(
        &mut self,
        inputs: &[PowerInput],
        progress: impl FnMut(usize, usize),
    ) -> Result<LodgeReport> {
        let key = self.signer_for(MessageKind::PowerLodged)?;
        Ok(self.lodge_powers_as(&key, inputs, progress)?)
    }

    /// Lodges powers of attorney, each with the rules' verdict (or the
    /// desk's judgement of its document), all in one transaction: a crash
    /// leaves none of them or all. A power already lodged with the same
    /// content is left as it stands; with other content, nothing is
    /// lodged. Only before the installation (§9 of Almagrario's
    /// reglamento: the power then covers every session).
    pub fn lodge_powers_as(
        &mut self,
        key: &Keypair,
        inputs: &[PowerInput],
        mut progress: impl FnMut(usize, usize),
    ) -> Result<LodgeReport, ActionError> {
        if self.state().sessions().state() != SessionState::NotInstalled {
            return Err(ActionError::Other(VenueError::refused(
                "la reunión ya se instaló: los poderes se radican antes; ahora el apoderado presenta el suyo en la mesa / \
                 the meeting is installed: powers are lodged before; now the agent shows theirs at the desk",
            )));
        }
        let meeting_day = asamblea_rules::calendar::Date::parse(&self.config().date).ok();
        let (report, powers) = {
            let state = self.state();
            let meeting = self.meeting();
            let listed = meeting.settings().listed;
            let mut pending: HashSet<HolderIndex> = HashSet::new();
            let mut references: HashSet<String> = HashSet::new();
            let mut report = LodgeReport::default();
            let mut powers = Vec::new();
            for input in inputs {
                let refused = |message: String| {
                    let r = input.reference.trim();
                    let (es, en) = message.split_once(" / ").unwrap_or((&message, &message));
                    ActionError::Other(VenueError::refused(format!("poder `{r}`: {es} / power `{r}`: {en}")))
                };
                let mut power = input.to_lodged().map_err(|p| {
                    let (es, en) = p.words();
                    refused(format!("{es} / {en}"))
                })?;
                let reference = power.power.as_str().to_string();
                if let Some(standing) = state.powers().get(&reference) {
                    let judged = power.verdict.is_some();
                    if same_power(&standing.power, &power, judged) {
                        report.unchanged.push(reference);
                        continue;
                    }
                    return Err(refused(
                        "ya se radicó con otro contenido: use otra referencia, o revoque el anterior / \
                         was already lodged with other content: use another reference, or revoke the earlier one"
                            .into(),
                    ));
                }
                if !references.insert(reference.clone()) {
                    return Err(refused("aparece dos veces / appears twice".into()));
                }
                if power.verdict.is_none() {
                    power.verdict = verdict(meeting, listed, state.powers(), &pending, &power, meeting_day)
                        .map(|covered| pending.extend(covered))
                        .err();
                }
                report.lodged.push((reference, power.verdict));
                powers.push(power);
            }
            (report, powers)
        };
        let total = powers.len();
        let meeting_id = self.meeting_id;
        let signed = powers
            .into_iter()
            .map(|power| sign_event(&meeting_id, key, EventBody::PowerLodged(power)))
            .collect::<Result<Vec<_>>>()?;
        if signed.is_empty() {
            return Ok(report);
        }
        let mut group = self.journal.begin_group()?;
        for (i, event) in signed.into_iter().enumerate() {
            // The verdicts above are the ledger's own (`check_power`), so a
            // refusal here is a fault: the group goes on without it and the
            // caller hears of it.
            if let Err(error) = group.push(event) {
                group.commit()?;
                return Err(ActionError::Other(VenueError::refused(format!(
                    "el registro rechazó el poder `{}` ({error}); se guardaron los anteriores / the ledger refused power `{}`; the earlier ones were stored",
                    report.lodged[i].0, report.lodged[i].0
                ))));
            }
            progress(i + 1, total);
        }
        group.commit()?;
        Ok(report)
    }

    /// A principal withdraws, in writing, the power lodged for them (so a
    /// later power for their shares can be accepted): `power-revoked`
    /// with the reason `withdrawn`. The agent who carries them now, if any,
    /// keeps them until the desk records their exit.
    pub fn withdraw_power_as(
        &mut self,
        key: &Keypair,
        power: &str,
        principal: &str,
    ) -> Result<Appended, ActionError> {
        let body = EventBody::PowerRevoked {
            power: id("el poder / power", power)?,
            principal: id("el poderdante / principal", principal)?,
            reason: Revocation::Withdrawn,
        };
        self.staff_event_as(key, body)
    }

    /// Everything lodged for `person` (a holder's id, an agent's
    /// document), as the desk shows it before admitting them.
    pub fn expected(&self, person: &str) -> Expected {
        let meeting = self.meeting();
        let presence = meeting.presence();
        let powers = self.state().powers();
        let holder = meeting.register().lookup(person);
        let covered_by = holder.and_then(|h| powers.covering(h)).map(|p| {
            (p.power.power.as_str().to_string(), p.power.agent.as_ref().map(|a| a.as_str().to_string()))
        });
        let expected_power = |record: &PowerRecord| {
            let principals = record
                .power
                .principals
                .iter()
                .map(|id| {
                    let at = meeting.register().lookup(id.as_str());
                    let status = match (record.revoked_for(id.as_str()), at) {
                        (Some(why), _) => PrincipalStatus::Revoked(why),
                        (None, None) => PrincipalStatus::Unknown,
                        (None, Some(h)) => match presence.channel(h) {
                            Channel::InPerson => PrincipalStatus::InPerson,
                            Channel::Agent { agent, .. } if presence.agent_id(agent) == person => {
                                PrincipalStatus::Carried
                            }
                            Channel::Agent { agent, .. } => {
                                PrincipalStatus::CarriedBy(presence.agent_id(agent).to_string())
                            }
                            Channel::Absent => match powers.covering(h) {
                                Some(covering) if covering.seq == record.seq => PrincipalStatus::ToCarry,
                                _ => PrincipalStatus::Unknown,
                            },
                        },
                    };
                    ExpectedPrincipal { id: id.as_str().to_string(), at, status }
                })
                .collect();
            ExpectedPower {
                reference: record.power.power.as_str().to_string(),
                verdict: record.power.verdict,
                as_substitute: record.carrier(person) == Some(true),
                agent: record.power.agent.as_ref().map(|a| a.as_str().to_string()),
                agent_name: record.power.agent_name.as_str().to_string(),
                principals,
            }
        };
        Expected {
            person: person.to_string(),
            holder,
            channel: holder.map(|h| presence.channel(h)),
            covered_by,
            powers: powers.carried_by(person).map(expected_power).collect(),
        }
    }

    /// Admits `person` with everything lodged for them, in one
    /// transaction: a holder arriving in person revokes the power that
    /// covered their shares (and leaves the agent who carried them), and
    /// comes in with every principal their accepted powers still cover;
    /// the attending person's name is recorded with the arrival (`name`,
    /// or the name the power gives the agent or the substitute; with
    /// `document`, the attending person's own for a company holder).
    /// Refused, changing nothing, when there is nobody to admit.
    pub fn admit_as(
        &mut self,
        key: &Keypair,
        person: &str,
        name: Option<Text>,
        document: Option<Id>,
    ) -> Result<Admission, ActionError> {
        let refused = |message: String| ActionError::Other(VenueError::refused(message));
        self.state()
            .sessions()
            .check_arrival()
            .map_err(|r| ActionError::Rejected(asamblea_ledger::Rejection::Session(r)))?;
        let expected = self.expected(person);
        if expected.is_unknown() {
            return Err(refused(format!(
                "`{person}` no está en el registro de accionistas ni tiene poderes radicados: búsquelo por nombre, o regístrelo con su poder en la mesa / \
                 `{person}` is neither in the register nor named by a lodged power: search by name, or check them in with their power at the desk"
            )));
        }
        let person_id = id("la persona / person", person)?;
        if document.is_some() && expected.holder.is_none() {
            return Err(refused(
                "el documento aparte es de quien asiste por un accionista (una sociedad); el de un apoderado es su propio id / \
                 a separate document is for whoever attends for a holder (a company); an agent's is their id"
                    .into(),
            ));
        }
        let mut events = Vec::new();
        let mut revoked = None;
        // The person's own shares: revoking the power lodged for them and
        // leaving its agent first (R2), as every arrival in person does.
        let own = match (expected.holder, expected.channel) {
            (Some(h), Some(channel)) if !self.meeting().register().holder(h).holdings().total().is_zero() => {
                let before = self.before_arrival_in_person(person)?;
                revoked = expected.covered_by.as_ref().filter(|_| !before.is_empty()).map(|(p, _)| p.clone());
                let leaves_agent = before.iter().any(|e| matches!(e, EventBody::CheckedOut { .. }));
                events.extend(before);
                match channel {
                    Channel::Absent => Some(person),
                    Channel::Agent { .. } if leaves_agent => Some(person),
                    // Carried by someone whose power was not lodged: the
                    // desk checks that agent out first, as for any arrival.
                    Channel::Agent { .. } => {
                        return Err(ActionError::Rejected(asamblea_ledger::Rejection::Rules(
                            asamblea_rules::Refusal::AlreadyPresent,
                        )))
                    }
                    Channel::InPerson => None,
                }
            }
            _ => None,
        };
        let others = expected.to_carry();
        if own.is_none() && others.is_empty() {
            return Err(refused(format!(
                "`{person}` no tiene a quién más llevar: ya está presente, o sus poderdantes llegaron o los lleva otro (véalos en la ficha) / \
                 `{person}` has no one more to carry: already present, or their principals arrived or are carried by someone else (see the card)"
            )));
        }
        // The rules judge the others as the arrival will find them (the
        // person's own shares are theirs whatever the rules say of agents).
        if !others.is_empty() {
            self.meeting()
                .check_arrival(person, &others, asamblea_rules::Capacity::Proxy, None)
                .map_err(|r| ActionError::Rejected(asamblea_ledger::Rejection::Rules(r)))?;
        }
        let mut carried: Vec<String> =
            others.iter().map(|s| s.to_string()).chain(own.map(str::to_string)).collect();
        carried.sort();
        let as_substitute = expected
            .powers
            .iter()
            .any(|p| p.as_substitute && p.principals.iter().any(|q| q.status == PrincipalStatus::ToCarry));
        let arrival = if others.is_empty() {
            EventBody::CheckedInPerson { holder: person_id.clone() }
        } else {
            EventBody::CheckedInAgent(AgentArrival {
                agent: person_id.clone(),
                principals: carried
                    .iter()
                    .map(|c| id("el poderdante / principal", c))
                    .collect::<Result<_>>()?,
                capacity: asamblea_rules::Capacity::Proxy,
                declared_role: None,
                power_document: powers_used(&expected, as_substitute),
            })
        };
        events.push(arrival);
        let attending = name.or_else(|| {
            // A person not in the register is named as their power names
            // them: as its agent, or as its substitute.
            if expected.holder.is_some() {
                return None;
            }
            let powers = self.state().powers();
            expected
                .powers
                .iter()
                .filter(|p| p.verdict.is_none())
                .filter_map(|p| powers.get(&p.reference))
                .find_map(|record| {
                    let power = &record.power;
                    if power.agent.as_ref().is_some_and(|a| a.as_str() == person) {
                        Some(power.agent_name.clone())
                    } else {
                        power.substitutes.iter().find(|s| s.id.as_str() == person).map(|s| s.name.clone())
                    }
                })
                .filter(|n| !n.as_str().trim().is_empty())
        });
        if let Some(name) = attending {
            events.push(EventBody::AttendeeNamed { person: person_id, name, document });
        }
        let meeting_id = self.meeting_id;
        let signed =
            events.into_iter().map(|body| sign_event(&meeting_id, key, body)).collect::<Result<Vec<_>>>()?;
        let arrival_at =
            signed.iter().position(|s| s.event.kind().name().starts_with("checked-in")).expect("pushed");
        let mut group = self.journal.begin_group()?;
        let mut appended = None;
        for (i, event) in signed.into_iter().enumerate() {
            match group.push(event) {
                Ok(placed) if i == arrival_at => appended = Some(placed),
                Ok(_) => {}
                Err(error) => {
                    // Judged above; a refusal here is a fault. What was
                    // pushed is committed, never half-dropped.
                    group.commit()?;
                    return Err(ActionError::from(error));
                }
            }
        }
        group.commit()?;
        Ok(Admission { appended: appended.expect("the arrival was pushed"), carried, revoked, as_substitute })
    }
}

/// Whether a power lodged again is the one standing: the same in every
/// field, the verdict too when the desk judged it again (`judged`).
fn same_power(standing: &LodgedPower, again: &LodgedPower, judged: bool) -> bool {
    let verdict = if judged { again.verdict } else { standing.verdict };
    *standing == LodgedPower { verdict, ..again.clone() }
}

/// The rules' verdict on a power given the powers already lodged and
/// those of this batch (`pending`); then the desk's one automatic
/// judgement: a power dated for another day than the meeting's is for
/// another meeting (`wrong-meeting`). Its principals when accepted.
fn verdict(
    meeting: &asamblea_rules::Meeting,
    listed: bool,
    lodged: &asamblea_ledger::Powers,
    pending: &HashSet<HolderIndex>,
    power: &LodgedPower,
    meeting_day: Option<asamblea_rules::calendar::Date>,
) -> Result<Vec<HolderIndex>, PowerRefusal> {
    let principals: Vec<&str> = power.principals.iter().map(Id::as_str).collect();
    let substitutes: Vec<(&str, Tie)> = power.substitutes.iter().map(|s| (s.id.as_str(), s.tie)).collect();
    let covered = |h: HolderIndex| lodged.covering(h).is_some() || pending.contains(&h);
    let principals =
        check_power(meeting.register(), listed, covered, &power.terms(&principals, &substitutes))?;
    match (written_date(power.meeting_date.as_str()), meeting_day) {
        (Some(day), Some(meeting_day)) if day != meeting_day => Err(PowerRefusal::WrongMeeting),
        _ => Ok(principals),
    }
}

/// A date written `YYYY-MM-DD` or, as Colombian offices write it,
/// `DD/MM/YYYY`; `None` for a period in words ("la asamblea ordinaria de
/// 2027"), which the desk reads itself.
fn written_date(text: &str) -> Option<asamblea_rules::calendar::Date> {
    let text = text.trim();
    if let Ok(day) = asamblea_rules::calendar::Date::parse(text) {
        return Some(day);
    }
    let mut parts = text.split('/');
    let (d, m, y) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || y.len() != 4 {
        return None;
    }
    asamblea_rules::calendar::Date::new(y.parse().ok()?, m.parse().ok()?, d.parse().ok()?)
}

/// The arrival's `power_document`: the lodged powers it uses, as many
/// references as fit its 256 bytes, and whether the person came as a
/// substitute.
fn powers_used(expected: &Expected, as_substitute: bool) -> Text {
    let used: Vec<&ExpectedPower> = expected
        .powers
        .iter()
        .filter(|p| p.principals.iter().any(|q| q.status == PrincipalStatus::ToCarry))
        .collect();
    let mut text =
        match (as_substitute, used.iter().find(|p| p.as_substitute).and_then(|p| p.agent.as_deref())) {
            (true, Some(agent)) => format!("Poderes radicados, como sustituto de {agent}:"),
            _ => String::from("Poderes radicados:"),
        };
    for (i, power) in used.iter().enumerate() {
        let more = format!(" … (+{})", used.len() - i);
        if text.len() + 1 + power.reference.len() + more.len() + 8 > asamblea_wire::limits::MAX_TEXT_LEN {
            text.push_str(&more);
            break;
        }
        text.push(' ');
        text.push_str(&power.reference);
    }
    Text::new(&text).expect("kept within the limit")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_date_is_read_both_ways_and_a_period_is_not_a_date() {
        let day = asamblea_rules::calendar::Date::new(2027, 3, 25);
        assert_eq!(written_date("2027-03-25"), day);
        assert_eq!(written_date(" 25/03/2027 "), day);
        assert_eq!(written_date("Asamblea ordinaria de 2027"), None);
        assert_eq!(written_date("31/02/2027"), None);
        assert_eq!(written_date("25/03/27"), None);
    }
}
