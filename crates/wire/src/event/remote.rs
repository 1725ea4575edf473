//! The remote attendee of a mixed meeting (Ley 222 Art. 19, Decreto
//! 398/2020; `docs/ledger-format.md` §3.24–3.27): the desk's verification
//! of a person's identity and of the key their browser made
//! (`identity-verified`), the credential bound to that key
//! (`remote-credential-issued`), and the arrival and departure the
//! attendee signs with it (`checked-in-remote`, `checked-out-remote`).

use super::*;

/// How the desk verified a remote attendee's identity (HY-2), as the
/// notice of the meeting states the procedure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VerificationMethod {
    /// An identity document shown (a photograph or scan sent, or held to
    /// the camera).
    IdentityDocument,
    /// A video call in which staff saw the person and their document.
    VideoCall,
    /// The code of the person's admission letter (§7.4) with another
    /// proof named by the evidence: the code alone is no secret.
    AdmissionCode,
}

wire_codes!(VerificationMethod { IdentityDocument = 1, VideoCall = 2, AdmissionCode = 3 });

impl VerificationMethod {
    /// Every method, in code order.
    pub const ALL: [VerificationMethod; 3] = [
        VerificationMethod::IdentityDocument,
        VerificationMethod::VideoCall,
        VerificationMethod::AdmissionCode,
    ];

    /// The code used in the API.
    pub const fn code(self) -> &'static str {
        match self {
            VerificationMethod::IdentityDocument => "identity-document",
            VerificationMethod::VideoCall => "video-call",
            VerificationMethod::AdmissionCode => "admission-code",
        }
    }

    /// The method of a code, if it is one.
    pub fn from_code(code: &str) -> Option<VerificationMethod> {
        VerificationMethod::ALL.into_iter().find(|m| m.code() == code)
    }

    /// The method in Spanish, for the desk and the acta.
    pub const fn spanish(self) -> &'static str {
        match self {
            VerificationMethod::IdentityDocument => "documento de identidad",
            VerificationMethod::VideoCall => "videollamada",
            VerificationMethod::AdmissionCode => "código de la carta de admisión",
        }
    }
}

/// What a remote attendee submits from afar (`remote-submission`, §3.31):
/// a question asking for the floor, or a written statement for the acta
/// (C.Co Art. 189).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubmissionKind {
    /// A question or a request to speak.
    Question,
    /// A written statement (constancia) to be carried in the acta.
    Statement,
}

wire_codes!(SubmissionKind { Question = 1, Statement = 2 });

impl SubmissionKind {
    /// Both kinds, in code order.
    pub const ALL: [SubmissionKind; 2] = [SubmissionKind::Question, SubmissionKind::Statement];

    /// The code used in the API.
    pub const fn code(self) -> &'static str {
        match self {
            SubmissionKind::Question => "question",
            SubmissionKind::Statement => "statement",
        }
    }

    /// The kind of a code, if it is one.
    pub fn from_code(code: &str) -> Option<SubmissionKind> {
        SubmissionKind::ALL.into_iter().find(|k| k.code() == code)
    }

    /// The kind in Spanish, for the chair and the acta.
    pub const fn spanish(self) -> &'static str {
        match self {
            SubmissionKind::Question => "pregunta",
            SubmissionKind::Statement => "constancia escrita",
        }
    }
}

/// What the chair did with a remote submission (`submission-handled`,
/// §3.32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubmissionOutcome {
    /// Read aloud to the meeting.
    Read,
    /// Answered in the meeting.
    Answered,
    /// Not read, for the reason the chair gives (repeated, out of order).
    NotRead,
}

wire_codes!(SubmissionOutcome { Read = 1, Answered = 2, NotRead = 3 });

impl SubmissionOutcome {
    /// Every outcome, in code order.
    pub const ALL: [SubmissionOutcome; 3] =
        [SubmissionOutcome::Read, SubmissionOutcome::Answered, SubmissionOutcome::NotRead];

    /// The code used in the API.
    pub const fn code(self) -> &'static str {
        match self {
            SubmissionOutcome::Read => "read",
            SubmissionOutcome::Answered => "answered",
            SubmissionOutcome::NotRead => "not-read",
        }
    }

    /// The outcome of a code, if it is one.
    pub fn from_code(code: &str) -> Option<SubmissionOutcome> {
        SubmissionOutcome::ALL.into_iter().find(|o| o.code() == code)
    }

    /// The outcome in Spanish, for the chair and the acta.
    pub const fn spanish(self) -> &'static str {
        match self {
            SubmissionOutcome::Read => "leída",
            SubmissionOutcome::Answered => "respondida",
            SubmissionOutcome::NotRead => "no leída",
        }
    }
}

/// The holders a remote arrival brings in (`checked-in-remote`): 1 to
/// [`MAX_PRINCIPALS`], strictly ascending.
pub(super) fn write_remote_arrival(
    w: &mut Writer,
    credential: CredentialId,
    principals: &[Id],
) -> Result<(), WireError> {
    w.u32(credential.0);
    write_ascending(w, "checked-in-remote.principals", principals, 1, MAX_PRINCIPALS)
}

/// Reads what [`write_remote_arrival`] writes.
pub(super) fn read_remote_arrival(r: &mut Reader<'_>) -> Result<EventBody, WireError> {
    let credential = CredentialId(r.u32("checked-in-remote.credential")?);
    let principals = read_ascending(r, "checked-in-remote.principals", 1, MAX_PRINCIPALS)?;
    Ok(EventBody::CheckedInRemote { credential, principals })
}
