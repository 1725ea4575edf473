//! Work on the meeting from a handler: off the async threads, refused
//! once the ledger failed, with the meeting's errors turned into API
//! errors; and the parsing of ids, numbers and keys at the edge, each
//! refusal naming the field in both languages.

use asamblea_ledger::LedgerError;
use asamblea_venue::service::{ActionError, Service};
use asamblea_wire::{Id, PublicKey};

use crate::{ApiError, AppState};

/// Refuses a read of the meeting's state once the ledger failed: the state
/// may hold events the file never got.
pub(crate) fn healthy(state: &AppState) -> Result<(), ApiError> {
    match *state.0.failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) {
        Some(_) => Err(ApiError::ledger_failed()),
        None => Ok(()),
    }
}

/// Runs `f` off the async threads without holding the meeting's lock
/// (it takes the lock itself, briefly, where it must).
pub(crate) async fn unlocked<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&AppState) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    healthy(state)?;
    let state = state.clone();
    tokio::task::spawn_blocking(move || f(&state)).await.map_err(|_| ApiError::task_failed())?
}

/// Runs a blocking action on the meeting off the async threads.
pub(crate) async fn blocking<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&mut Service) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    healthy(state)?;
    let state = state.clone();
    tokio::task::spawn_blocking(move || state.with_service(f)).await.map_err(|_| ApiError::task_failed())?
}

/// A staff action's failure as the API answers it: the ledger's or the
/// rules' refusal, a failed ledger (the daemon stops taking changes), or
/// a failure inside the daemon (logged, never sent).
pub(crate) fn action_error(state: &AppState, e: ActionError) -> ApiError {
    match e {
        ActionError::Rejected(r) => ApiError::rejected(&r),
        ActionError::Ledger(l) => ledger_error(state, &l),
        // A value from the request that no event can carry: the caller's.
        ActionError::Other(e @ asamblea_venue::VenueError::Invalid { .. }) => ApiError::bad_request(&e, &e),
        // The desk asked what the meeting cannot do as asked: the message
        // says why and what to do, `español / English`.
        ActionError::Other(asamblea_venue::VenueError::Refused { message }) => {
            let (es, en) = message.split_once(" / ").unwrap_or((&message, &message));
            ApiError::new(asamblea_api::ErrorCode::DeskRefused, es.to_string(), en.to_string())
        }
        ActionError::Other(e) => {
            ApiError::internal("una acción sobre la reunión / an action on the meeting", &e)
        }
    }
}

/// A ledger that failed: logged once with what to do, and from then on
/// every change is refused.
pub(crate) fn ledger_error(state: &AppState, error: &LedgerError) -> ApiError {
    let cause = error.cause();
    let mut failed = state.0.failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if failed.is_none() {
        tracing::error!(
            error = %error,
            ledger.cause = cause.code(),
            "FALLO DEL REGISTRO: el daemon ya no acepta cambios y el tablero conserva las últimas cifras guardadas. \
             Qué hacer: {}. Al arrancar relee y verifica todo el registro, y nada confirmado se pierde. / LEDGER \
             FAILURE: the daemon refuses every change and the board keeps the last saved figures. What to do: {}. \
             At start it re-reads and verifies the whole ledger, and nothing acknowledged is lost.",
            cause.remedy_es(),
            cause.remedy_en()
        );
        *failed = Some(cause);
    }
    ApiError::ledger_failed()
}

/// Hexadecimal bytes of `field`.
pub(crate) fn unhex(text: &str, field: &str) -> Result<Vec<u8>, ApiError> {
    asamblea_wire::hex::decode(text).ok_or_else(|| {
        ApiError::bad_request(
            format!("`{field}` debe estar en hexadecimal (0-9, a-f)"),
            format!("`{field}` must be hexadecimal"),
        )
    })
}

/// An id (holder, agent, item) of `field`.
pub(crate) fn id(text: &str, field: &str) -> Result<Id, ApiError> {
    Id::new(text).map_err(|e| {
        ApiError::bad_request(
            format!("`{field}` no es un identificador válido ({})", e.spanish()),
            format!("`{field}` is not a valid id ({})", e.english()),
        )
    })
}

/// An agent's id as typed at the desk: the register's rule for ids
/// (`asamblea_venue::text::agent_id`), refused naming the field.
pub(crate) fn agent_id(text: &str) -> Result<Id, ApiError> {
    asamblea_venue::text::agent_id(text).map_err(|problem| {
        ApiError::bad_request(format!("`agent`: {}", problem.es), format!("`agent`: {}", problem.en))
    })
}

/// A badge's public key as the desk sends it (64 hex digits).
pub(crate) fn badge_key(hex: &str) -> Result<PublicKey, ApiError> {
    PublicKey::from_hex(hex).map_err(|e| {
        ApiError::bad_request(
            format!("`key`: {} (la clave pública de la semilla que sacó la mesa, 64 cifras hexadecimales; la semilla nunca llega aquí)", e.spanish()),
            format!("`key`: {} (the public key of the seed the desk drew, 64 hex digits; the seed itself never comes here)", e.english()),
        )
    })
}

/// A badge's number in a path.
pub(crate) fn badge_number(text: &str) -> Result<u32, ApiError> {
    text.parse().map_err(|_| {
        ApiError::bad_request(
            "el número de la credencial debe ser un número entero",
            "the badge number must be a whole number",
        )
    })
}
