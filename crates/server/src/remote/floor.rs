//! The floor from afar on the chair's console (HY-7, C.Co Art. 189): the
//! questions and written statements remote attendees sent, in order of
//! arrival, and what the chair did with each (`submission-handled`).

use axum::extract::{Path, State};
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use asamblea_api::remote::{FloorQueue, FloorSubmission, HandleRequest};
use asamblea_api::ErrorAnswer;
use asamblea_venue::staff::Role;
use asamblea_wire::{EventBody, SubmissionOutcome, Text};

use crate::access::{Body, Staff};
use crate::callers::{Callers, Routes};
use crate::directory::Directory;
use crate::meeting::{action_error, blocking, unlocked};
use crate::{ApiError, AppState};

/// The chair handles; the chair and the secretary read the queue.
pub(super) fn routes() -> Vec<Routes> {
    vec![
        Routes::api(
            Callers::Staff(&[Role::Chair, Role::Secretary]),
            OpenApiRouter::new().routes(routes!(floor)),
        ),
        Routes::api(Callers::Staff(&[Role::Chair]), OpenApiRouter::new().routes(routes!(handle))),
    ]
}

/// Every question and written statement from afar, in order of arrival,
/// with what the chair did with it.
#[utoipa::path(get, path = "/api/v1/floor", tag = "chair",
    responses((status = 200, description = "The queue, handled or not", body = FloorQueue)))]
pub(crate) async fn floor(
    State(state): State<AppState>,
    _staff: Staff,
) -> Result<Json<FloorQueue>, ApiError> {
    let submissions = unlocked(&state, |state| {
        let directory = Directory::of_state(state)?;
        Ok(state.with_service(|service| {
            let ledger = service.state();
            ledger
                .submissions()
                .iter()
                // A submission not yet placed in the chain has no time and
                // is not shown: it is not on the record yet.
                .filter_map(|s| Some((s, s.time_ms?)))
                .map(|(s, time_ms)| FloorSubmission {
                    seq: s.seq,
                    time_ms,
                    person: s.person.as_str().to_string(),
                    name: super::desk::known_as(directory, ledger, service.meeting(), s.person.as_str())
                        .unwrap_or_else(|| s.person.as_str().to_string()),
                    kind: s.kind.code().to_string(),
                    item: s.item.as_ref().map(|i| i.as_str().to_string()),
                    text: s.text.as_str().to_string(),
                    outcome: s.handled.as_ref().map(|h| h.1.code().to_string()),
                    note: s.handled.as_ref().map(|h| h.2.as_str().to_string()),
                })
                .collect()
        }))
    })
    .await?;
    Ok(Json(FloorQueue { submissions }))
}

/// What the chair did with submission `seq`: read, answered, or not read
/// (saying why). Once per submission.
#[utoipa::path(post, path = "/api/v1/floor/{seq}", tag = "chair",
    params(("seq" = u64, Path, description = "The `remote-submission` record's number")),
    request_body = HandleRequest,
    responses(
        (status = 200, description = "Recorded", body = asamblea_api::Recorded),
        (status = 404, description = "`unknown-submission`", body = ErrorAnswer),
        (status = 409, description = "`submission-handled`", body = ErrorAnswer),
        (status = 422, description = "`reason-required`", body = ErrorAnswer),
    ))]
pub(crate) async fn handle(
    State(state): State<AppState>,
    staff: Staff,
    Path(seq): Path<u64>,
    Body(request): Body<HandleRequest>,
) -> Result<Json<asamblea_api::Recorded>, ApiError> {
    let outcome = SubmissionOutcome::from_code(&request.outcome).ok_or_else(|| {
        ApiError::bad_request(
            format!("`outcome` «{}» no es read, answered ni not-read", request.outcome),
            format!("`outcome` `{}` is not read, answered nor not-read", request.outcome),
        )
    })?;
    let note = Text::new(request.note.trim()).map_err(|e| {
        ApiError::bad_request(
            format!("`note`: {} (hasta 256 bytes, sin saltos de línea)", e.spanish()),
            format!("`note`: {} (up to 256 bytes, no line breaks)", e.english()),
        )
    })?;
    let state2 = state.clone();
    let recorded = blocking(&state, move |service| {
        let body = EventBody::SubmissionHandled { submission: seq, outcome, note };
        let appended = service.staff_event_as(&staff.key, body).map_err(|e| action_error(&state2, e))?;
        tracing::info!(event.seq = appended.seq, submission.seq = seq, outcome = outcome.code(), staff.name = %staff.name, "intervención tramitada / submission handled");
        Ok(asamblea_api::Recorded { seq: appended.seq })
    })
    .await?;
    Ok(Json(recorded))
}
