//! The polls: an item opened, the ballots cast on it, its close, a lot
//! drawn on a tie and the result published, each held to the rules engine
//! (ledger-format §3.8–3.12).

use asamblea_rules::{Channel, Refusal};
use asamblea_wire::{lot_index, EventBody, PublicKey, PublishedResult, SignerRole};

use super::{Rejection, State};

impl State {
    /// Admits the polls' kinds, to be record `seq` (at `time_ms` when
    /// known), `signer` the key that signed it.
    pub(super) fn poll_step(
        &mut self,
        body: &EventBody,
        signer: &PublicKey,
        seq: u64,
        time_ms: Option<u64>,
    ) -> Result<(), Rejection> {
        match body {
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
            _ => unreachable!("poll_step takes the polls' kinds only"),
        }
        Ok(())
    }
}
