//! The floor from afar (`docs/ledger-format.md` §3.31–3.32, `rules.md`
//! HY-7): a remote attendee's questions and written statements, recorded
//! as they arrive, and what the chair did with each. Nothing submitted
//! leaves the ledger: the acta lists every one, handled or not.

use asamblea_rules::{Medium, Refusal};
use asamblea_wire::{CredentialId, EventBody, Id, Prose, PublicKey, SubmissionKind, SubmissionOutcome, Text};

use super::{Rejection, State};

/// A question or written statement from afar (`remote-submission`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// The number of its record.
    pub seq: u64,
    /// Its record's time, ms since the Unix epoch, once placed.
    pub time_ms: Option<u64>,
    /// Who sent it: the remote credential's person.
    pub person: Id,
    /// The credential that signed it.
    pub credential: CredentialId,
    /// A question or a written statement.
    pub kind: SubmissionKind,
    /// The convened item it is about, if any.
    pub item: Option<Id>,
    /// Its words.
    pub text: Prose,
    /// What the chair did with it, once recorded: the record's number,
    /// the outcome and the chair's note.
    pub handled: Option<(u64, SubmissionOutcome, Text)>,
}

impl State {
    /// Every question and written statement from afar, in order of
    /// arrival.
    pub fn submissions(&self) -> &[Submission] {
        &self.submissions
    }

    /// The time of record `seq`, once placed, if it is a submission.
    pub(super) fn floor_placed(&mut self, seq: u64, time_ms: u64) {
        if let Some(submission) = self.submissions.last_mut().filter(|s| s.seq == seq) {
            submission.time_ms = Some(time_ms);
        }
    }

    /// Admits `remote-submission` and `submission-handled`.
    pub(super) fn floor_step(
        &mut self,
        body: &EventBody,
        signer: &PublicKey,
        seq: u64,
    ) -> Result<(), Rejection> {
        match body {
            EventBody::RemoteSubmission { credential, kind, item, text } => {
                if !self.remote_attendance_allowed() {
                    return Err(Rejection::RemoteNotAllowed);
                }
                let person = self.remote_signer(*credential, signer, "remote-submission")?;
                if self.attendance.open_medium(person.as_str()) != Some(Medium::Remote) {
                    return Err(Rejection::Rules(Refusal::NotPresent));
                }
                self.sessions.check_arrival().map_err(Rejection::Session)?;
                if let Some(item) = item {
                    self.on_agenda(item)?;
                }
                self.submissions.push(Submission {
                    seq,
                    time_ms: None,
                    person,
                    credential: *credential,
                    kind: *kind,
                    item: item.clone(),
                    text: text.clone(),
                    handled: None,
                });
            }
            EventBody::SubmissionHandled { submission, outcome, note } => {
                let at = self
                    .submissions
                    .binary_search_by_key(submission, |s| s.seq)
                    .map_err(|_| Rejection::UnknownSubmission(*submission))?;
                if self.submissions[at].handled.is_some() {
                    return Err(Rejection::SubmissionHandled(*submission));
                }
                if *outcome == SubmissionOutcome::NotRead && note.as_str().trim().is_empty() {
                    return Err(Rejection::ReasonRequired(*submission));
                }
                self.submissions[at].handled = Some((seq, *outcome, note.clone()));
            }
            _ => unreachable!("floor_step takes the floor's kinds only"),
        }
        Ok(())
    }
}
