//! The whole agenda and the chair's sessions, as the replay judges them
//! (ledger-format §3.17–3.18, rules.md §11): `agenda-convened` held to
//! `meeting-convened`, and each step of the sessions by its record's time.

use asamblea_rules::{QuorumEvent, QuorumReading, SessionStep};
use asamblea_wire::{AgendaEntry, EventBody};

use super::{Rejection, State};

/// A step of the chair's sessions as the ledger recorded it, with the
/// quorum at that moment (for the acta and the chair's console).
#[derive(Clone, Debug)]
pub struct SessionRecord {
    /// Which step.
    pub step: SessionStep,
    /// Its record's number.
    pub seq: u64,
    /// Its record's time, ms since the Unix epoch.
    pub time_ms: u64,
    /// What the chair added.
    pub note: String,
    /// The quorum at that moment.
    pub quorum: QuorumReading,
}

impl State {
    /// The steps of the sessions (installation, suspension, resumption,
    /// adjournment), with the rules of `asamblea_rules::Sessions`.
    pub(super) fn session_step(&mut self, body: &EventBody, time_ms: Option<u64>) -> Result<(), Rejection> {
        let (step, note) = match body {
            EventBody::MeetingInstalled { note } => (SessionStep::Installed, note),
            EventBody::MeetingSuspended { note } => (SessionStep::Suspended, note),
            EventBody::MeetingResumed { note } => (SessionStep::Resumed, note),
            EventBody::MeetingAdjourned { note } => (SessionStep::Adjourned, note),
            _ => return Ok(()),
        };
        let time_ms = time_ms.ok_or(Rejection::OutOfPlace(
            "un paso de las sesiones se admite solo con la hora de su registro / a step of the sessions is admitted only with its record's time",
        ))?;
        let meeting = self.meeting.as_ref().ok_or(Rejection::OutOfPlace(
            "primero se importa el registro de accionistas / the register must be imported first",
        ))?;
        let day = asamblea_rules::colombia_day(time_ms);
        let quorum = meeting.quorum();
        let poll_open = meeting.poll_open();
        let mut sessions = self.sessions.clone();
        match step {
            SessionStep::Installed => sessions.install(day, quorum.this_call, poll_open),
            SessionStep::Suspended => sessions.suspend(poll_open),
            SessionStep::Resumed => sessions.resume(day, meeting.all_outstanding_represented()),
            SessionStep::Adjourned => sessions.adjourn(poll_open),
        }
        .map_err(Rejection::Session)?;
        self.sessions = sessions;
        self.session_log.push(SessionRecord {
            step,
            seq: self.admitted + 1,
            time_ms,
            note: note.as_str().to_string(),
            quorum,
        });
        let event = match step {
            SessionStep::Installed => QuorumEvent::Installed,
            SessionStep::Suspended => QuorumEvent::Suspended,
            SessionStep::Resumed => QuorumEvent::Resumed,
            SessionStep::Adjourned => QuorumEvent::Adjourned,
        };
        self.mark(self.admitted + 1, Some(time_ms), event);
        Ok(())
    }

    /// `agenda-convened` against `meeting-convened`: every voted item in
    /// the same order, informative ids apart, candidates only on
    /// elections, one list of candidates per list, at most a seat each.
    pub(super) fn check_whole_agenda(&self, entries: &[AgendaEntry]) -> Result<(), Rejection> {
        let mismatch = |es: String, en: String| Rejection::AgendaMismatch(format!("{es} / {en}"));
        let voted: Vec<&AgendaEntry> =
            entries.iter().filter(|e| matches!(e, AgendaEntry::Voted { .. })).collect();
        let same = voted.len() == self.agenda.len()
            && voted.iter().zip(&self.agenda).all(|(entry, item)| *entry.item() == item.item);
        if !same {
            return Err(mismatch(
                "agenda-convened no nombra los puntos de meeting-convened, cada uno una vez y en su orden"
                    .into(),
                "agenda-convened does not name meeting-convened's items, each once and in their order".into(),
            ));
        }
        for (entry, item) in voted.iter().zip(&self.agenda) {
            let AgendaEntry::Voted { candidates, .. } = entry else { continue };
            if candidates.is_empty() {
                continue;
            }
            let id = item.item.as_str();
            if candidates.len() != item.lists.len() {
                return Err(mismatch(
                    format!(
                        "`{id}`: los candidatos deben darse para cada lista de la papeleta, o para ninguna"
                    ),
                    format!("`{id}`: candidates must be given for every list of the ballot, or for none"),
                ));
            }
            let most = item.seats as usize;
            if candidates.iter().any(|list| list.len() > most) {
                return Err(mismatch(
                    format!("`{id}`: una lista lleva más candidatos que puestos ({most})"),
                    format!("`{id}`: a list carries more candidates than seats ({most})"),
                ));
            }
        }
        Ok(())
    }
}
