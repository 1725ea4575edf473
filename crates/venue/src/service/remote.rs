//! The remote attendee's actions on a meeting (`docs/ledger-format.md`
//! §3.24–3.27): the desk binds a browser's key once it verified the
//! person, and the attendee's own signed arrival and departure.

use asamblea_wire::{Digest, VerificationMethod};

use super::*;

impl Service {
    /// The desk verified `person` by `method` (the evidence's SHA-256 is
    /// `evidence`) and binds `key`, the key their browser made, as their
    /// remote credential under the next badge number: `identity-verified`
    /// then `remote-credential-issued`, signed by `staff`'s member, in one
    /// transaction. The same key for the same person again, once bound,
    /// is the desk retrying: the credential stands.
    pub fn verify_remote_as(
        &mut self,
        staff: &Keypair,
        person: &Id,
        key: PublicKey,
        method: VerificationMethod,
        evidence: Digest,
    ) -> Result<BadgeIssue, ActionError> {
        use asamblea_ledger::Rejection;
        let state = self.journal.state();
        if let Some(number) = state.badge_with_key(&key) {
            return match state.badge(number) {
                Some((_, holder, false))
                    if holder == person.as_str() && state.is_remote_credential(number) =>
                {
                    Ok(BadgeIssue::Standing(number))
                }
                _ => Err(ActionError::Rejected(Rejection::KeyInUse)),
            };
        }
        // Checked before anything is pushed: a credential refused after the
        // verification would leave the group half done.
        if state.verification(&key).is_some() {
            return Err(ActionError::Rejected(Rejection::KeyInUse));
        }
        if let Some(held) = state.badge_of(person.as_str()) {
            return Err(ActionError::Rejected(Rejection::BadgeHeld {
                person: person.as_str().to_string(),
                held,
            }));
        }
        let credential = CredentialId(state.badges_issued() + 1);
        let appended = self.group_as(
            staff,
            vec![
                EventBody::IdentityVerified { person: person.clone(), key, method, evidence },
                EventBody::RemoteCredentialIssued { credential, key, person: person.clone() },
            ],
        )?;
        Ok(BadgeIssue::Issued { credential, appended })
    }

    /// A remote attendee's own `checked-in-remote`, `checked-out-remote`
    /// or `remote-submission`, signed in their browser: admitted by the
    /// ledger's checks (the signature among them) and durable before it
    /// returns.
    pub fn remote_event(&mut self, signed: Signed) -> Result<Appended, ActionError> {
        if !matches!(
            signed.event.body,
            EventBody::CheckedInRemote { .. }
                | EventBody::CheckedOutRemote { .. }
                | EventBody::RemoteSubmission { .. }
        ) {
            return Err(ActionError::Other(VenueError::refused(
                "solo una llegada, una salida o una intervención a distancia / \
                 only a remote arrival, departure or submission",
            )));
        }
        self.submit(signed).map_err(ActionError::from)
    }

    /// The daemon ends `credential`'s remote stay: no heartbeat came for
    /// `silent_ms` (HY-5, `presence-lapsed`).
    pub fn lapse_presence(
        &mut self,
        credential: CredentialId,
        silent_ms: u64,
    ) -> Result<Appended, ActionError> {
        let signed = self.signed(&self.daemon, EventBody::PresenceLapsed { credential, silent_ms })?;
        self.submit(signed).map_err(ActionError::from)
    }
}
