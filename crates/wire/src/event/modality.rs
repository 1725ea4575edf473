//! `meeting-modality` (0x1C): how the meeting was convened to be held —
//! presencial, mixta or no presencial (Ley 222 de 1995 art. 19; Decreto
//! 398 de 2020) — and, with a remote channel, what the notice said of it
//! (Supersociedades, Circular Básica Jurídica de 2022, cap. III), with
//! the heartbeat and timeout that prove a remote presence (HY-5).

use asamblea_rules::{Modality, RemotePresence};

use super::*;
use crate::Prose;

wire_codes!(Modality { InPerson = 1, Mixed = 2, Remote = 3 });

/// The remote channel as the notice states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteConvening {
    /// The medium: the platform's name and address.
    pub medium: Prose,
    /// The access instructions.
    pub access: Prose,
    /// The identity-verification procedure.
    pub identity_check: Prose,
    /// How the floor is asked for and given.
    pub floor: Prose,
    /// The legal representative delegates the identity check to the
    /// registration staff (OQ12).
    pub identity_delegated: bool,
}

/// What `meeting-modality` records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvenedModality {
    /// Presencial, mixta or no presencial.
    pub modality: Modality,
    /// The heartbeat and the presence timeout of a remote attendee.
    pub presence: RemotePresence,
    /// The remote channel: present exactly when the modality has one (the
    /// encoder refuses otherwise, the decoder reads it only then).
    pub remote: Option<RemoteConvening>,
}

impl ConvenedModality {
    pub(super) fn write(&self, w: &mut Writer) -> Result<(), WireError> {
        if self.remote.is_some() != self.modality.has_remote_channel() {
            let problem = Problem::LengthMismatch {
                len: usize::from(self.remote.is_some()),
                expected: usize::from(self.modality.has_remote_channel()),
            };
            return Err(WireError::Invalid { field: "meeting-modality.remote", problem });
        }
        w.code(self.modality);
        w.u32(self.presence.heartbeat_seconds);
        w.u32(self.presence.timeout_seconds);
        if let Some(remote) = &self.remote {
            for text in [&remote.medium, &remote.access, &remote.identity_check, &remote.floor] {
                w.str(text.as_str());
            }
            w.bool(remote.identity_delegated);
        }
        Ok(())
    }

    pub(super) fn read(r: &mut Reader<'_>) -> Result<ConvenedModality, WireError> {
        let modality: Modality = r.code("meeting-modality.modality")?;
        let presence = RemotePresence {
            heartbeat_seconds: r.u32("meeting-modality.heartbeat_seconds")?,
            timeout_seconds: r.u32("meeting-modality.timeout_seconds")?,
        };
        let remote = if modality.has_remote_channel() {
            Some(RemoteConvening {
                medium: r.prose("meeting-modality.medium")?,
                access: r.prose("meeting-modality.access")?,
                identity_check: r.prose("meeting-modality.identity_check")?,
                floor: r.prose("meeting-modality.floor")?,
                identity_delegated: r.bool("meeting-modality.identity_delegated")?,
            })
        } else {
            None
        };
        Ok(ConvenedModality { modality, presence, remote })
    }
}
