//! Why the replay refuses an event ([`Rejection`]), Spanish first, then
//! English, as every message `verify` and the daemon show a person.

use asamblea_rules::powers::PowerRefusal;
use asamblea_rules::{Refusal, SessionRefusal, TimingRefusal};
use asamblea_wire::{CredentialId, SignerRole, StaffRole};

/// Why an event is not admitted. The state is unchanged. The text is
/// Spanish first, English after, as every message `verify` and the daemon
/// show a person.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// The signature does not verify for this signer, meeting and event.
    #[error("la firma no verifica / the signature does not verify")]
    BadSignature,
    /// The signer is not one that may sign this kind of event.
    #[error(
        "`{kind}` solo lo firma {}, y este firmante no lo es / `{kind}` must be signed by {}, and this signer is not one",
        signer_es(*role),
        signer_en(*role)
    )]
    SignerNotAllowed {
        /// The event's kind.
        kind: &'static str,
        /// Who may sign it.
        role: SignerRole,
    },
    /// An item opened that the convened agenda does not hold.
    #[error(
        "`{0}` no está en el orden del día convocado en meeting-convened / `{0}` is not on the agenda convened in meeting-convened"
    )]
    NotOnAgenda(String),
    /// A nonce seen before: a replayed event.
    #[error(
        "el nonce ya lo usó un evento anterior (una repetición) / the nonce was used by an earlier event (a replay)"
    )]
    RepeatedNonce,
    /// Anything before `meeting-convened`, or a second one: what is out
    /// of place, `español / English`.
    #[error("{0}")]
    OutOfPlace(&'static str),
    /// The daemon key is not the one published for the meeting.
    #[error(
        "la clave del servicio en meeting-convened no es la clave publicada de la reunión / \
         the daemon key in meeting-convened is not the meeting's published key"
    )]
    DaemonKeyMismatch,
    /// The profile named or its bytes do not match the bundle's.
    #[error(
        "meeting-convened nombra el perfil `{named}` o un resumen que no coincide con el archivo del perfil / \
         meeting-convened names profile `{named}` or a digest that does not match the profile file"
    )]
    ProfileMismatch {
        /// The profile named in the event.
        named: String,
    },
    /// The register does not match `register-imported`.
    #[error(
        "register-imported no coincide con el registro de accionistas (resumen, número o capital) / \
         register-imported does not match the register (digest, count or capital)"
    )]
    RegisterMismatch,
    /// The rules refuse the event.
    #[error("{} — {} / {}", .0.code(), .0.spanish(), .0.english())]
    Rules(Refusal),
    /// A recorded refusal that the rules do not make.
    #[error(
        "un rechazo registrado como `{recorded}` es, según las reglas, {} / a refusal recorded as `{recorded}` is, by the rules, {}",
        .actual.map_or("aceptado".to_string(), |r| format!("`{}`", r.code())),
        .actual.map_or("accepted".to_string(), |r| format!("`{}`", r.code()))
    )]
    RefusalMismatch {
        /// What the event says.
        recorded: &'static str,
        /// What the rules say.
        actual: Option<Refusal>,
    },
    /// An item that cannot be opened as described.
    #[error("el punto no se puede abrir como se describe / the item cannot be opened as described: {0}")]
    BadItem(String),
    /// A badge number or key already issued.
    #[error("la credencial {0} o su clave ya se había emitido / badge {0} or its key was already issued")]
    BadgeInUse(CredentialId),
    /// A badge for a person who holds a live one: the old one must be
    /// revoked first (a lost badge), so one person never holds two.
    #[error(
        "`{person}` ya tiene la credencial {held}; revóquela antes de emitir otra / \
         `{person}` already holds badge {held}; revoke it before issuing another"
    )]
    BadgeHeld {
        /// The person.
        person: String,
        /// The badge they hold.
        held: CredentialId,
    },
    /// A badge that was never issued.
    #[error("la credencial {0} nunca se emitió / badge {0} was never issued")]
    UnknownBadge(CredentialId),
    /// A badge that was revoked.
    #[error("la credencial {0} fue revocada / badge {0} was revoked")]
    RevokedBadge(CredentialId),
    /// A staff key enrolled twice.
    #[error("esa clave del personal ya está inscrita / that staff key is already enrolled")]
    StaffInUse,
    /// The daemon's key enrolled as a staff member's.
    #[error(
        "la clave del servicio no puede ser también la de un miembro del personal / the daemon's key cannot also be a staff member's: a key is the daemon's or one member's, never both"
    )]
    DaemonKeyEnrolled,
    /// A ballot votes for a holder its badge's person does not carry.
    #[error(
        "quien tiene la credencial no lleva a `{0}` (no es el accionista ni su apoderado) / \
         the badge's holder does not carry `{0}` (not the holder, nor its agent)"
    )]
    NotCarried(String),
    /// A published result that is not what the ballots give.
    #[error(
        "el resultado publicado de `{0}` no es el que dan las papeletas / the published result of `{0}` is not what the ballots give"
    )]
    ResultMismatch(String),
    /// A result published for an item that is not closed.
    #[error("se publica un resultado de `{0}`, que no está cerrado / a result is published for `{0}`, which is not closed")]
    NotClosed(String),
    /// A lot draw that is not the one the seed gives.
    #[error(
        "el sorteo de `{0}` no es el que dan su semilla y su ronda / the lot draw on `{0}` is not the one its seed and round give"
    )]
    LotMismatch(String),
    /// A written statement by someone not present: neither a holder
    /// present in person nor an agent present.
    #[error(
        "`{0}` no está presente en la reunión (ni accionista en persona ni apoderado) / \
         `{0}` is not present at the meeting (neither a holder in person nor an agent)"
    )]
    NotAnAttendee(String),
    /// A step of the sessions, a poll or an arrival the sessions refuse
    /// now (not installed, suspended, adjourned, beyond Art. 430's days).
    #[error("{code} — {0}", code = .0.code())]
    Session(SessionRefusal),
    /// A close, or its announcement, that the poll timing refuses now
    /// (ledger-format §3.21–3.22).
    #[error("{code} — {0}", code = .0.code())]
    Timing(TimingRefusal),
    /// The whole agenda (`agenda-convened`) that does not agree with the
    /// agenda of `meeting-convened`: what disagrees, `español / English`.
    #[error("{0}")]
    AgendaMismatch(String),
    /// A power lodged under a reference already used.
    #[error(
        "ya se radicó un poder con la referencia `{0}` / a power with reference `{0}` was already lodged"
    )]
    PowerInUse(String),
    /// A lodged power's verdict that is not the rules' (judgements aside).
    #[error(
        "un poder registrado como `{recorded}` es, según las reglas, {} / a power recorded as `{recorded}` is, by the rules, {}",
        .actual.map_or("aceptable".to_string(), |r| format!("`{}`", r.code())),
        .actual.map_or("acceptable".to_string(), |r| format!("`{}`", r.code()))
    )]
    PowerVerdictMismatch {
        /// What the event says (`accepted` or a reason's code).
        recorded: &'static str,
        /// What the rules say.
        actual: Option<PowerRefusal>,
    },
    /// A revocation of a power that does not cover the principal: unknown,
    /// refused, not among its principals, or revoked already.
    #[error(
        "el poder `{power}` no cubre a `{principal}` (no existe, fue rechazado, no lo nombra o ya se revocó) / \
         power `{power}` does not cover `{principal}` (unknown, refused, not naming them, or revoked already)"
    )]
    PowerNotCovering {
        /// The power.
        power: String,
        /// The principal.
        principal: String,
    },
    /// R2: a person attending by one channel arrives by the other.
    #[error(
        "`{person}` asiste ahora {}: una sola vía a la vez; primero se registra su salida / \
         `{person}` attends {} now: one channel at a time; record their departure first",
        if *.remote { "a distancia" } else { "en la sala" },
        if *.remote { "remotely" } else { "in the room" }
    )]
    OtherChannel {
        /// The person.
        person: String,
        /// They attend remotely (else in the room).
        remote: bool,
    },
    /// A credential used outside its channel: a remote one while its
    /// person does not attend remotely, a printed badge while they do.
    #[error(
        "la credencial {credential} {} / credential {credential} {}",
        if *.remote { "es remota y su titular no asiste a distancia ahora" } else { "es de la sala y su titular asiste a distancia (o no es una credencial remota)" },
        if *.remote { "is remote and its holder does not attend remotely now" } else { "is the room's and its holder attends remotely (or it is not a remote credential)" }
    )]
    CredentialChannel {
        /// The credential.
        credential: CredentialId,
        /// It is a remote credential.
        remote: bool,
    },
    /// An identity verified for someone who cannot attend: neither a
    /// holder nor named by an accepted lodged power.
    #[error(
        "`{0}` no es accionista ni apoderado de un poder radicado y aceptado / \
         `{0}` is neither a holder nor the agent of an accepted lodged power"
    )]
    NotRemoteAttendee(String),
    /// A key verified twice, or already a badge's.
    #[error(
        "esa clave ya se verificó o ya es de una credencial; el navegador debe crear otra / \
         that key was already verified or is already a credential's; the browser must make another"
    )]
    KeyInUse,
    /// A remote credential without the identity verification of its
    /// person and key before it (HY-2).
    #[error(
        "no hay verificación de identidad de `{0}` con esa clave antes de la credencial remota / \
         no identity verification of `{0}` with that key precedes the remote credential"
    )]
    NotVerified(String),
    /// A remote arrival bringing a holder no accepted lodged power gives
    /// the person.
    #[error(
        "ningún poder radicado y aceptado da `{holder}` a `{person}` / \
         no accepted lodged power gives `{holder}` to `{person}`"
    )]
    NotCovered {
        /// The remote attendee.
        person: String,
        /// The holder.
        holder: String,
    },
    /// A lapse of a remote presence recorded before the meeting's timeout
    /// had run (HY-5).
    #[error(
        "la presencia a distancia se da por perdida tras {silent_ms} ms sin señal, antes del plazo de {timeout_ms} ms / \
         the remote presence is declared lapsed after {silent_ms} ms of silence, before the {timeout_ms} ms timeout"
    )]
    NotLapsed {
        /// The silence the event states.
        silent_ms: u64,
        /// The meeting's presence timeout.
        timeout_ms: u64,
    },
    /// The chair handles a record that is no remote submission.
    #[error("el registro n.º {0} no es una pregunta ni una constancia a distancia / record {0} is no remote submission")]
    UnknownSubmission(u64),
    /// The chair handles a remote submission a second time.
    #[error("la intervención del registro n.º {0} ya se tramitó / the submission of record {0} was handled already")]
    SubmissionHandled(u64),
    /// A remote submission not read without a reason.
    #[error(
        "diga por qué no se lee la intervención del registro n.º {0} / say why the submission of record {0} is not read"
    )]
    ReasonRequired(u64),
    /// A node enrolled twice, or with a key already enrolled.
    #[error("el nodo `{0}` o su clave ya están inscritos / node `{0}` or its key is already enrolled")]
    NodeInUse(String),
    /// A takeover by a node not enrolled.
    #[error("`{0}` no es un nodo inscrito de la reunión / `{0}` is not an enrolled node of the meeting")]
    UnknownNode(String),
    /// A takeover by the node that already leads.
    #[error("`{0}` ya lidera la reunión / `{0}` already leads the meeting")]
    AlreadyLeads(String),
    /// Remote attendance in a meeting whose modality admits none.
    #[error("esta reunión no admite asistencia remota / this meeting admits no remote attendance")]
    RemoteNotAllowed,
}

/// Who may sign an event, in Spanish, for [`Rejection::SignerNotAllowed`].
fn signer_es(role: SignerRole) -> &'static str {
    match role {
        SignerRole::Daemon => "la clave del servicio",
        SignerRole::Staff(StaffRole::Operator) => "una clave del personal inscrita como operador",
        SignerRole::Staff(StaffRole::Chair) => "una clave del personal inscrita como presidente",
        SignerRole::Staff(StaffRole::Secretary) => "una clave del personal inscrita como secretario",
        SignerRole::Staff(StaffRole::Auditor) => "una clave del personal inscrita como auditor",
        SignerRole::Attendee => "la clave de la credencial",
    }
}

/// The same in English.
fn signer_en(role: SignerRole) -> &'static str {
    match role {
        SignerRole::Daemon => "the daemon key",
        SignerRole::Staff(StaffRole::Operator) => "a staff key enrolled as operator",
        SignerRole::Staff(StaffRole::Chair) => "a staff key enrolled as chair",
        SignerRole::Staff(StaffRole::Secretary) => "a staff key enrolled as secretary",
        SignerRole::Staff(StaffRole::Auditor) => "a staff key enrolled as auditor",
        SignerRole::Attendee => "the badge's key",
    }
}
