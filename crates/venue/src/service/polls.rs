//! The chair's actions on a meeting: the sessions (installation,
//! suspension, resumption, adjournment), polls opened and closed (the
//! result, any lot and the checkpoint in one transaction), and ballots.

use super::*;

impl Service {
    /// The agenda as convened in the ledger: what polls open on.
    pub fn agenda(&self) -> &[AgendaItem] {
        self.state().agenda()
    }

    /// The ids of the items where `meeting.toml`, as it reads now, differs
    /// from the agenda convened in the ledger (an item added, removed or
    /// changed after `init`). The ledger's governs; the caller says so.
    pub fn agenda_edited_since_init(&self) -> Vec<String> {
        let file = convened_agenda(&self.config).unwrap_or_default();
        let ledger = self.agenda();
        let mut edited: Vec<String> = Vec::new();
        for entry in file.iter().chain(ledger) {
            let id = entry.item.as_str();
            let same =
                file.iter().find(|e| e.item == entry.item) == ledger.iter().find(|e| e.item == entry.item);
            if !same && !edited.iter().any(|e| e == id) {
                edited.push(id.to_string());
            }
        }
        edited
    }

    /// The `item-opened` event of an item of the convened agenda, by id.
    pub fn item_opened(&self, item: &str) -> Result<EventBody> {
        let entry = self.agenda().iter().find(|entry| entry.item.as_str() == item).ok_or_else(|| {
            VenueError::refused(format!(
                "`{item}` no está en el orden del día convocado / `{item}` is not on the convened agenda"
            ))
        })?;
        Ok(EventBody::ItemOpened { item: entry.item.clone() })
    }

    /// A step of the sessions (installation, suspension, resumption,
    /// adjournment) signed by the chair's key `key`, with the chair's
    /// `note` for the acta. Placed in a group so that the ledger admits it
    /// with its record's time (C.Co Art. 430 counts days).
    pub fn session_step_as(
        &mut self,
        key: &Keypair,
        step: asamblea_rules::SessionStep,
        note: &str,
    ) -> Result<Appended, ActionError> {
        let note = Text::new(note.trim()).map_err(VenueError::invalid("la nota / the note"))?;
        let body = match step {
            asamblea_rules::SessionStep::Installed => EventBody::MeetingInstalled { note },
            asamblea_rules::SessionStep::Suspended => EventBody::MeetingSuspended { note },
            asamblea_rules::SessionStep::Resumed => EventBody::MeetingResumed { note },
            asamblea_rules::SessionStep::Adjourned => EventBody::MeetingAdjourned { note },
        };
        let signed = self.signed(key, body)?;
        let mut group = self.journal.begin_group()?;
        let appended = group.push(signed)?;
        group.commit()?;
        Ok(appended)
    }

    /// [`Service::session_step_as`] signed by the command line's chair.
    pub fn session_step(
        &mut self,
        step: asamblea_rules::SessionStep,
        note: &str,
    ) -> Result<Appended, ActionError> {
        let chair = self.signer_for(MessageKind::MeetingInstalled)?;
        self.session_step_as(&chair, step, note)
    }

    /// The chair's announcement that `item`'s poll closes once a
    /// countdown of `countdown_ms` has run (rules.md §11.5), signed by
    /// `key`. Placed in a group so that the ledger judges it with its
    /// record's time. The chair still closes: nothing closes by itself.
    pub fn announce_close_as(
        &mut self,
        key: &Keypair,
        item: &str,
        countdown_ms: u64,
    ) -> Result<Appended, ActionError> {
        let item = id("el punto / agenda item", item)?;
        let signed = self.signed(key, EventBody::CloseAnnounced { item, countdown_ms })?;
        let mut group = self.journal.begin_group()?;
        let appended = group.push(signed)?;
        group.commit()?;
        Ok(appended)
    }

    /// [`Service::announce_close_as`] signed by the command line's chair.
    pub fn announce_close(&mut self, item: &str, countdown_ms: u64) -> Result<Appended, ActionError> {
        let chair = self.signer_for(MessageKind::CloseAnnounced)?;
        self.announce_close_as(&chair, item, countdown_ms)
    }

    /// Opens an agenda item by id.
    pub fn open_item(&mut self, item: &str) -> Result<Appended> {
        let body = self.item_opened(item)?;
        self.staff_event(body)
    }

    /// A ballot signed with a badge's key (what a kiosk sends), with the
    /// daemon's signed receipt.
    pub fn cast(
        &mut self,
        credential: &Credential,
        item: &str,
        votes: Vec<HolderVote>,
    ) -> Result<(Receipt, Signature)> {
        let signed = sign_ballot(&self.meeting_id, credential, item, votes)?;
        let appended = self.submit(signed)?;
        let receipt = Receipt { seq: appended.seq, head: appended.head, event: appended.event_digest };
        let signature = receipt.sign(&self.meeting_id, &self.daemon);
        Ok((receipt, signature))
    }

    /// Closes an item, publishes its result, and draws any lot it needs
    /// (recorded, recomputable from the ledger). Returns the checkpoint to
    /// read out and print.
    pub fn close_item(&mut self, item: &str) -> Result<(Checkpoint, Signature)> {
        let chair = self.signer_for(MessageKind::ItemClosed)?;
        Ok(self.close_item_as(&chair, item)?)
    }

    /// [`Service::close_item`] by a given staff member.
    ///
    /// A close is one step: `item-closed`, the daemon's `result-published`,
    /// and for a tie across the last seat each `lot-drawn` (seeded by the
    /// head after the close, so anyone recomputes it) with the result it
    /// settles, reach the ledger in one transaction or not at all. A crash
    /// at any moment leaves the item open, or closed with its signed result
    /// and its lots.
    pub fn close_item_as(
        &mut self,
        key: &Keypair,
        item: &str,
    ) -> Result<(Checkpoint, Signature), ActionError> {
        let item_id = id("el punto / agenda item", item)?;
        let meeting_id = self.meeting_id;
        let daemon = &self.daemon;
        let sign =
            |key: &Keypair, body: EventBody| sign_event(&meeting_id, key, body).map_err(ActionError::from);
        let mut group = self.journal.begin_group()?;
        let closed = group.push(sign(key, EventBody::ItemClosed { item: item_id.clone() })?)?;
        let checkpoint = Checkpoint { seq: closed.seq, head: closed.head };
        let signature = checkpoint.sign(&meeting_id, daemon);
        // Past the close, the state holds events the file does not yet
        // have: any failure now is the ledger's (the journal refuses
        // everything until a restart), never a plain refusal.
        let completed = (|| -> Result<(), ActionError> {
            let result_of = |state: &asamblea_ledger::State| {
                let meeting = state.meeting().expect("init imports the register");
                let entry = meeting.item(meeting.item_index(item).expect("just closed"));
                PublishedResult::from_rules(entry.result().expect("closed"), meeting.register())
            };
            let result = result_of(group.state());
            group.push(sign(daemon, EventBody::ResultPublished { item: item_id.clone(), result })?)?;
            loop {
                let state = group.state();
                let meeting = state.meeting().expect("init imports the register");
                let entry = meeting.item(meeting.item_index(item).expect("just closed"));
                let Some(asamblea_rules::ItemResult::Election(e)) = entry.result() else { break };
                if e.outcome != Outcome::LotRequired {
                    break;
                }
                let seed = state.seed(item).expect("the close's head is the seed");
                let round = state.rounds(item);
                let position = lot_index(&seed, &item_id, round, e.lot_between.len() as u32)
                    .expect("a lot has candidates");
                let winner =
                    entry.option_name(asamblea_rules::OptionIndex::list(e.lot_between[position as usize]));
                let winner = id("la lista / list", winner)?;
                group.push(sign(key, EventBody::LotDrawn { item: item_id.clone(), round, seed, winner })?)?;
                let result = result_of(group.state());
                group.push(sign(daemon, EventBody::ResultPublished { item: item_id.clone(), result })?)?;
            }
            Ok(())
        })();
        if let Err(error) = completed {
            return Err(ActionError::Ledger(asamblea_ledger::LedgerError::WriterStopped {
                reason: format!(
                    "el cierre de `{item}` no se pudo completar / the close of `{item}` could not be completed: {error}"
                ),
                cause: asamblea_ledger::Cause::Other,
            }));
        }
        group.commit()?;
        // Kept for a quick start after a crash; a lost line only makes
        // that start check more.
        let _ = crate::checkpoints::append(&self.dir, &checkpoint, &signature);
        Ok((checkpoint, signature))
    }
}
