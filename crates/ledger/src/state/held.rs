//! How the meeting is held, as the ledger says: the modality convened
//! (`meeting-modality`) and the quorum's continuity derived from the
//! presence events (`rules.md` HY-1, HY-4; ledger-format §3.23, §8 item 11).

use super::State;

impl State {
    /// How the meeting was convened to be held (`rules.md` HY-1):
    /// presencial, mixta or no presencial. A ledger without
    /// `meeting-modality` (every one written before the kind, and any
    /// presencial meeting that did not record it) is presencial. The
    /// daemon and the rules refuse a remote arrival unless
    /// [`Modality::has_remote_channel`](asamblea_rules::Modality::has_remote_channel).
    pub fn modality(&self) -> asamblea_rules::Modality {
        self.modality.as_ref().map_or(asamblea_rules::Modality::InPerson, |m| m.modality)
    }

    /// The `meeting-modality` event as recorded: the modality, the heartbeat
    /// and presence timeout of a remote attendee (HY-5), and what the
    /// notice said of the remote channel. `None` when none was recorded.
    pub fn convened_modality(&self) -> Option<&asamblea_wire::ConvenedModality> {
        self.modality.as_ref()
    }

    /// The quorum's continuity so far (`rules.md` HY-4): at the
    /// installation, through each poll, and every interval in session
    /// without it. Times are the records' once placed.
    pub fn continuity(&self) -> asamblea_rules::Continuity {
        asamblea_rules::continuity(&self.quorum_marks)
    }

    /// Records a mark of the quorum's continuity for the event about to
    /// be admitted as record `seq`, with the quorum now.
    pub(super) fn mark(&mut self, seq: u64, time_ms: Option<u64>, event: asamblea_rules::QuorumEvent) {
        if let Some(meeting) = &self.meeting {
            let moment = asamblea_rules::Moment { seq, time_ms };
            self.quorum_marks.push(asamblea_rules::QuorumMark { moment, event, quorum: meeting.quorum() });
        }
    }
}
