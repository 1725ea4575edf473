//! The one error type of the HTTP API: a stable code, a message in Spanish
//! and in English, and a status. Internals are logged once, never sent.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use asamblea_ledger::Rejection;
use asamblea_rules::Refusal;

/// An API error as the client sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// Stable code (`not-present`, `forbidden`, …).
    pub code: &'static str,
    /// What happened and what to do, in Spanish.
    pub message_es: String,
    /// The same in English.
    pub message_en: String,
}

impl ApiError {
    /// An error with both messages.
    pub fn new(
        status: StatusCode,
        code: &'static str,
        es: impl Into<String>,
        en: impl Into<String>,
    ) -> ApiError {
        ApiError { status, code, message_es: es.into(), message_en: en.into() }
    }

    /// A failure inside the daemon (a task that panicked); logged where it
    /// happened.
    pub fn internal() -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", "Error interno.", "Internal error.")
    }

    /// No or unknown credentials.
    pub fn unauthorized() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "Falta la clave del personal o no es válida: entre en /personal con la clave impresa al crear la reunión, o envíe «Authorization: Bearer <clave>».",
            "Missing or unknown staff token: sign in at /personal with the token printed when the meeting was created, or send `Authorization: Bearer <token>`.",
        )
    }

    /// A change sent with a session cookie but without its CSRF token
    /// (`sessions`): nothing was done.
    pub fn csrf() -> ApiError {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "csrf",
            "La solicitud no trae la marca de su sesión y no se hizo nada: recargue la consola y vuelva a intentarlo.",
            "The request lacks its session's token and nothing was done: reload the console and try again.",
        )
    }

    /// Authenticated, but not allowed.
    pub fn forbidden(role: &str, allowed: &str) -> ApiError {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            format!("El rol «{role}» no puede hacer esto; debe hacerlo: {allowed}."),
            format!("Role `{role}` may not do this; it takes: {allowed}."),
        )
    }

    /// A kiosk route reached without an enrolled kiosk certificate.
    pub fn kiosk_only() -> ApiError {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "kiosk-certificate-required",
            "Solo un quiosco inscrito (certificado de cliente) puede enviar papeletas.",
            "Only an enrolled kiosk (client certificate) may send ballots.",
        )
    }

    /// A request body or parameter that is not what the API takes.
    pub fn bad_request(what: impl Into<String>) -> ApiError {
        let what = what.into();
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad-request",
            format!("Solicitud inválida: {what}"),
            format!("Invalid request: {what}"),
        )
    }

    /// Nothing there.
    pub fn not_found(what: impl Into<String>) -> ApiError {
        let what = what.into();
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not-found",
            format!("No existe: {what}"),
            format!("Not found: {what}"),
        )
    }

    /// Too many requests from one kiosk.
    pub fn rate_limited() -> ApiError {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate-limited",
            "Demasiadas solicitudes desde este quiosco; espere un momento.",
            "Too many requests from this kiosk; wait a moment.",
        )
    }

    /// The ledger failed: the daemon stops taking changes.
    pub fn ledger_failed() -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "ledger-failure",
            "El registro de la reunión no pudo guardarse; el sistema se detuvo para proteger los votos. Avise al técnico.",
            "The meeting's ledger could not be saved; the system stopped to protect the votes. Call the technician.",
        )
    }

    /// A decision of the ledger's checks or the rules.
    pub fn rejected(rejection: &Rejection) -> ApiError {
        match rejection {
            Rejection::Rules(refusal) => ApiError::refused(*refusal),
            Rejection::BadSignature => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "bad-signature",
                "La firma de la papeleta no es válida para esta credencial y esta reunión.",
                "The ballot's signature is not valid for this badge and this meeting.",
            ),
            Rejection::UnknownBadge(_) => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown-badge",
                "Esa credencial no fue emitida en esta reunión.",
                "That badge was not issued at this meeting.",
            ),
            Rejection::RevokedBadge(_) => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "revoked-badge",
                "Esa credencial fue revocada; acuda a la mesa de registro.",
                "That badge was revoked; go to the registration desk.",
            ),
            Rejection::NotCarried(holder) => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "not-carried",
                format!("Esta credencial no representa al accionista {holder}."),
                format!("This badge does not carry holder {holder}."),
            ),
            Rejection::BadgeInUse(_) => ApiError::new(
                StatusCode::CONFLICT,
                "badge-key-in-use",
                "Esa clave de credencial ya fue registrada; genere una credencial nueva.",
                "That badge key is already recorded; make a new badge.",
            ),
            Rejection::BadgeHeld { person, held } => ApiError::new(
                StatusCode::CONFLICT,
                "badge-held",
                format!("{person} ya tiene la credencial {held}; revóquela antes de emitir otra."),
                format!("{person} already holds badge {held}; revoke it before issuing another."),
            ),
            Rejection::RepeatedNonce => ApiError::new(
                StatusCode::CONFLICT,
                "replayed",
                "Esta papeleta ya fue enviada.",
                "This ballot was already sent.",
            ),
            Rejection::NotAnAttendee(person) => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "not-an-attendee",
                format!("{person} no está presente en la reunión: una constancia es de un asistente (un accionista presente o un apoderado). Búsquelo en el registro de asistentes."),
                format!("{person} is not present at the meeting: a written statement is an attendee's."),
            ),
            Rejection::NotOnAgenda(item) => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "not-on-agenda",
                format!("«{item}» no es un punto del orden del día convocado."),
                format!("`{item}` is not an item of the convened agenda."),
            ),
            other => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "refused",
                format!("El registro lo rechaza: {other}"),
                format!("The ledger refuses it: {other}"),
            ),
        }
    }

    /// A refusal of the rules engine, with its FORMAT.md code.
    pub fn refused(refusal: Refusal) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, refusal.code(), refusal.spanish(), refusal.english())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({ "error": { "code": self.code, "message": self.message_es, "message_en": self.message_en } });
        (self.status, Json(body)).into_response()
    }
}
