//! The one error answer of the HTTP API ([`asamblea_api::ErrorAnswer`]):
//! a code of [`ErrorCode`], a message in Spanish and in English, and the
//! code's status.
//!
//! The policy: what the caller did wrong is said to the caller, in words
//! it can act on. A failure inside the daemon (a task that panicked, a
//! file the daemon could not read or write) is logged once, here, with
//! its cause and an incident number; the answer says only that it
//! happened and carries that number, never the cause ([`ApiError::internal`]).

use std::sync::atomic::{AtomicU32, Ordering};

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

use asamblea_api::{ErrorAnswer, ErrorCode, ErrorDetail};
use asamblea_ledger::Rejection;
use asamblea_rules::Refusal;

/// An API error as the client sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The stable code; the HTTP status is the code's.
    pub code: ErrorCode,
    /// What happened and what to do, in Spanish.
    pub message_es: String,
    /// The same in English.
    pub message_en: String,
    /// The incident number of a failure inside the daemon, logged with
    /// its cause.
    pub incident: Option<String>,
}

/// Incidents numbered from 1 in each run of the daemon; the log line
/// carries the number, the process id and the cause.
static INCIDENTS: AtomicU32 = AtomicU32::new(0);

impl ApiError {
    /// An error with both messages.
    pub fn new(code: ErrorCode, es: impl Into<String>, en: impl Into<String>) -> ApiError {
        ApiError { code, message_es: es.into(), message_en: en.into(), incident: None }
    }

    /// The HTTP status of the answer.
    pub fn status(&self) -> StatusCode {
        StatusCode::from_u16(self.code.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    /// A failure inside the daemon: `cause` is logged once with an
    /// incident number, and the answer carries only that number.
    pub fn internal(what: &str, cause: &dyn std::fmt::Display) -> ApiError {
        let incident = format!("{}-{}", std::process::id(), INCIDENTS.fetch_add(1, Ordering::Relaxed) + 1);
        tracing::error!(incident = %incident, error = %cause, "fallo interno / internal failure: {what}");
        ApiError {
            code: ErrorCode::Internal,
            message_es: format!(
                "Error interno del sistema ({what}); no se cambió nada. Intente de nuevo; si se repite, dé al técnico el número de incidente {incident}."
            ),
            message_en: format!(
                "Internal error ({what}); nothing was changed. Try again; if it happens again, give the technician incident number {incident}."
            ),
            incident: Some(incident),
        }
    }

    /// A task of the daemon that ended without an answer (it panicked; the
    /// panic is in the log).
    pub fn task_failed() -> ApiError {
        ApiError::internal("una tarea terminó sin respuesta / a task ended without an answer", &"panic")
    }

    /// No or unknown credentials.
    pub fn unauthorized() -> ApiError {
        ApiError::new(
            ErrorCode::Unauthorized,
            "Falta la clave del personal o no es válida: entre en /personal con la clave impresa al crear la reunión, o envíe «Authorization: Bearer <clave>».",
            "Missing or unknown staff token: sign in at /personal with the token printed when the meeting was created, or send `Authorization: Bearer <token>`.",
        )
    }

    /// A change sent with a session cookie but without its CSRF token
    /// (`sessions`): nothing was done.
    pub fn csrf() -> ApiError {
        ApiError::new(
            ErrorCode::Csrf,
            "La solicitud no trae la marca de su sesión y no se hizo nada: recargue la consola y vuelva a intentarlo.",
            "The request lacks its session's token and nothing was done: reload the console and try again.",
        )
    }

    /// Authenticated, but not allowed.
    pub fn forbidden(role: &str, allowed: &str) -> ApiError {
        ApiError::new(
            ErrorCode::Forbidden,
            format!("El rol «{role}» no puede hacer esto; debe hacerlo: {allowed}."),
            format!("Role `{role}` may not do this; it takes: {allowed}."),
        )
    }

    /// A kiosk route reached without an enrolled kiosk certificate.
    pub fn kiosk_only() -> ApiError {
        ApiError::new(
            ErrorCode::KioskCertificateRequired,
            "Solo un quiosco inscrito (certificado de cliente) puede enviar papeletas.",
            "Only an enrolled kiosk (client certificate) may send ballots.",
        )
    }

    /// A request body or parameter that is not what the API takes: `es`
    /// says what and where in Spanish, `en` the same in English.
    pub fn bad_request(es: impl std::fmt::Display, en: impl std::fmt::Display) -> ApiError {
        ApiError::new(
            ErrorCode::BadRequest,
            format!("Solicitud inválida: {es}"),
            format!("Invalid request: {en}"),
        )
    }

    /// Nothing there: `es` and `en` name what was looked for.
    pub fn not_found(es: impl std::fmt::Display, en: impl std::fmt::Display) -> ApiError {
        ApiError::new(ErrorCode::NotFound, format!("No existe: {es}."), format!("Not found: {en}."))
    }

    /// Too many requests from one kiosk.
    pub fn rate_limited() -> ApiError {
        ApiError::new(
            ErrorCode::RateLimited,
            "Demasiadas solicitudes desde este quiosco; espere un momento.",
            "Too many requests from this kiosk; wait a moment.",
        )
    }

    /// The ledger failed: the daemon stops taking changes.
    pub fn ledger_failed() -> ApiError {
        ApiError::new(
            ErrorCode::LedgerFailure,
            "El registro de la reunión no pudo guardarse; el sistema se detuvo para proteger los votos. Avise al técnico.",
            "The meeting's ledger could not be saved; the system stopped to protect the votes. Call the technician.",
        )
    }

    /// A decision of the ledger's checks or the rules.
    pub fn rejected(rejection: &Rejection) -> ApiError {
        match rejection {
            Rejection::Rules(refusal) => ApiError::refused(*refusal),
            Rejection::BadSignature => ApiError::new(
                ErrorCode::BadSignature,
                "La firma de la papeleta no es válida para esta credencial y esta reunión.",
                "The ballot's signature is not valid for this badge and this meeting.",
            ),
            Rejection::UnknownBadge(_) => ApiError::new(
                ErrorCode::UnknownBadge,
                "Esa credencial no fue emitida en esta reunión.",
                "That badge was not issued at this meeting.",
            ),
            Rejection::RevokedBadge(_) => ApiError::new(
                ErrorCode::RevokedBadge,
                "Esa credencial fue revocada; acuda a la mesa de registro.",
                "That badge was revoked; go to the registration desk.",
            ),
            Rejection::NotCarried(holder) => ApiError::new(
                ErrorCode::NotCarried,
                format!("Esta credencial no representa al accionista {holder}."),
                format!("This badge does not carry holder {holder}."),
            ),
            Rejection::BadgeInUse(_) => ApiError::new(
                ErrorCode::BadgeKeyInUse,
                "Esa clave de credencial ya fue registrada; genere una credencial nueva.",
                "That badge key is already recorded; make a new badge.",
            ),
            Rejection::OtherChannel { person, remote } => ApiError::new(
                ErrorCode::OtherChannel,
                format!(
                    "{person} asiste ahora {}: una sola vía a la vez. Registre primero su salida.",
                    if *remote { "a distancia" } else { "en la sala" }
                ),
                format!(
                    "{person} attends {} now: one channel at a time. Record their departure first.",
                    if *remote { "remotely" } else { "in the room" }
                ),
            ),
            Rejection::CredentialChannel { credential, remote: true } => ApiError::new(
                ErrorCode::WrongChannel,
                format!("La credencial remota {credential} solo sirve mientras su titular asiste a distancia: registre su llegada a distancia, o vote en la sala con su credencial de la sala."),
                format!("Remote credential {credential} serves only while its holder attends remotely: record the remote arrival, or vote in the room with a room badge."),
            ),
            Rejection::CredentialChannel { credential, remote: false } => ApiError::new(
                ErrorCode::WrongChannel,
                format!("La credencial {credential} es de la sala, no remota: para asistir a distancia pida a la mesa que verifique su identidad."),
                format!("Badge {credential} is the room's, not remote: to attend remotely ask the desk to verify your identity."),
            ),
            Rejection::NotVerified(person) => ApiError::new(
                ErrorCode::NotVerified,
                format!("La identidad de {person} no se ha verificado con esa clave: verifíquela primero."),
                format!("{person}'s identity was not verified with that key: verify it first."),
            ),
            Rejection::NotRemoteAttendee(person) => ApiError::new(
                ErrorCode::NotRemoteAttendee,
                format!("{person} no es accionista ni apoderado de un poder radicado y aceptado: no puede asistir a distancia."),
                format!("{person} is neither a holder nor the agent of an accepted lodged power: they cannot attend remotely."),
            ),
            Rejection::KeyInUse => ApiError::new(
                ErrorCode::BadgeKeyInUse,
                "Esa clave ya se verificó o ya es de una credencial; el navegador debe crear otra.",
                "That key was already verified or is a credential's; the browser must make another.",
            ),
            Rejection::NotCovered { person, holder } => ApiError::new(
                ErrorCode::NotCovered,
                format!("Ningún poder radicado y aceptado da a {person} el accionista {holder}."),
                format!("No accepted lodged power gives {person} holder {holder}."),
            ),
            Rejection::UnknownSubmission(seq) => ApiError::new(
                ErrorCode::UnknownSubmission,
                format!("El registro n.º {seq} no es una pregunta ni una constancia enviada a distancia."),
                format!("Record {seq} is no question or statement sent from afar."),
            ),
            Rejection::SubmissionHandled(seq) => ApiError::new(
                ErrorCode::SubmissionHandled,
                format!("La intervención n.º {seq} ya se tramitó; lo hecho consta en el registro."),
                format!("Submission {seq} was handled already; what was done is on the record."),
            ),
            Rejection::ReasonRequired(seq) => ApiError::new(
                ErrorCode::ReasonRequired,
                format!("Escriba por qué no se lee la intervención n.º {seq} (por ejemplo: repetida)."),
                format!("Write why submission {seq} is not read (for instance: repeated)."),
            ),
            Rejection::RemoteNotAllowed => ApiError::new(
                ErrorCode::RemoteNotAllowed,
                "Esta reunión no admite asistencia remota: acuda en persona.",
                "This meeting admits no remote attendance: attend in person.",
            ),
            Rejection::BadgeHeld { person, held } => ApiError::new(
                ErrorCode::BadgeHeld,
                format!("{person} ya tiene la credencial {held}; revóquela antes de emitir otra."),
                format!("{person} already holds badge {held}; revoke it before issuing another."),
            ),
            Rejection::RepeatedNonce => ApiError::new(
                ErrorCode::Replayed,
                "Esta papeleta ya fue enviada.",
                "This ballot was already sent.",
            ),
            Rejection::NotAnAttendee(person) => ApiError::new(
                ErrorCode::NotAnAttendee,
                format!("{person} no está presente en la reunión: una constancia es de un asistente (un accionista presente o un apoderado). Búsquelo en el registro de asistentes."),
                format!("{person} is not present at the meeting: a written statement is an attendee's."),
            ),
            Rejection::NotOnAgenda(item) => ApiError::new(
                ErrorCode::NotOnAgenda,
                format!("«{item}» no es un punto del orden del día convocado."),
                format!("`{item}` is not an item of the convened agenda."),
            ),
            Rejection::Session(refusal) => {
                use asamblea_rules::SessionRefusal as S;
                let code = match refusal {
                    S::NotInstalled => ErrorCode::NotInstalled,
                    S::AlreadyInstalled => ErrorCode::AlreadyInstalled,
                    S::NoQuorum => ErrorCode::NoQuorumToInstall,
                    S::Suspended => ErrorCode::MeetingSuspended,
                    S::NotSuspended => ErrorCode::NotSuspended,
                    S::Adjourned => ErrorCode::MeetingAdjourned,
                    S::PollOpen => ErrorCode::PollOpen,
                    S::BeyondThreeDays { .. } => ErrorCode::BeyondThreeDays,
                };
                let words = refusal.to_string();
                let (es, en) = words.split_once(" / ").unwrap_or((&words, &words));
                ApiError::new(code, capital(es), capital(en))
            }
            Rejection::Timing(refusal) => {
                use asamblea_rules::TimingRefusal as T;
                let code = match refusal {
                    T::MinimumOpen { .. } => ErrorCode::PollMinimumOpen,
                    T::NotAnnounced => ErrorCode::CloseNotAnnounced,
                    T::CountdownRunning { .. } => ErrorCode::CountdownRunning,
                    T::CountdownTooShort { .. } => ErrorCode::CountdownTooShort,
                    T::EndsEarlier { .. } => ErrorCode::CountdownEndsEarlier,
                };
                let words = refusal.to_string();
                let (es, en) = words.split_once(" / ").unwrap_or((&words, &words));
                ApiError::new(code, capital(es), capital(en))
            }
            other => ApiError::new(
                ErrorCode::RefusedByLedger,
                format!("El registro lo rechaza: {other}"),
                format!("The ledger refuses it: {other}"),
            ),
        }
    }

    /// A refusal of the rules engine, with its FORMAT.md code.
    pub fn refused(refusal: Refusal) -> ApiError {
        ApiError::new(ErrorCode::Refused(refusal), refusal.spanish(), refusal.english())
    }

    /// The answer's body.
    pub fn answer(&self) -> ErrorAnswer {
        ErrorAnswer {
            error: ErrorDetail {
                code: self.code,
                message: self.message_es.clone(),
                message_en: self.message_en.clone(),
                incident: self.incident.clone(),
            },
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status(), Json(self.answer())).into_response()
    }
}

/// A refusal's half, as a sentence: its first letter upper case, a full
/// stop at the end.
fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect::<String>() + ".")
}
