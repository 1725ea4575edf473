//! The chair's routes: a poll opened (refused without quorum, with the
//! figures) and closed (the result published, any lot drawn from the
//! chain, and a daemon-signed checkpoint to read out).

use axum::extract::{Path, State};
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use asamblea_api::chair::{
    Checkpoint, CloseAnnounced, CloseAnnouncement, Closed, SessionChange, SessionRecorded,
};
use asamblea_api::public::{FeedMessage, ResultMessage, ResultType};
use asamblea_api::{ErrorAnswer, ErrorCode, Recorded};
use asamblea_ledger::Rejection;
use asamblea_rules::Refusal;
use asamblea_venue::service::ActionError;
use asamblea_wire::hex::encode as hex;

use asamblea_venue::staff::Role;

use crate::access::Staff;
use crate::callers::{Callers, Routes};
use crate::meeting::{action_error, blocking};
use crate::{ApiError, AppState};

/// The chair's routes.
pub(crate) fn routes() -> Vec<Routes> {
    vec![Routes::api(
        Callers::Staff(&[Role::Chair]),
        OpenApiRouter::new()
            .routes(routes!(open))
            .routes(routes!(close))
            .routes(routes!(announce_close))
            .routes(routes!(install))
            .routes(routes!(suspend))
            .routes(routes!(resume))
            .routes(routes!(adjourn)),
    )]
}

/// A step of the chair's sessions, recorded with the chair's key.
async fn session_step(
    state: AppState,
    staff: Staff,
    step: asamblea_rules::SessionStep,
    change: SessionChange,
) -> Result<Json<SessionRecorded>, ApiError> {
    let state2 = state.clone();
    let seq = blocking(&state, move |service| {
        let appended = service.session_step_as(&staff.key, step, &change.note).map_err(|e| match e {
            // Refused for want of quorum: say how far it is, with the figures.
            ActionError::Rejected(Rejection::Session(asamblea_rules::SessionRefusal::NoQuorum)) => {
                no_quorum_to(
                    service.meeting(),
                    ErrorCode::NoQuorumToInstall,
                    ("instalar la reunión", "install the meeting"),
                )
            }
            e => action_error(&state2, e),
        })?;
        let quorum = service.meeting().quorum();
        tracing::info!(
            event.seq = appended.seq,
            session.step = step.english(),
            quorum.present_shares = quorum.present.get(),
            quorum.holders = quorum.holders,
            staff.name = %staff.name,
            "{} / {}",
            step.spanish(),
            step.english()
        );
        Ok(appended.seq)
    })
    .await?;
    state.publish_status();
    let session = crate::public::status_now(&state).session;
    Ok(Json(SessionRecorded { seq, session }))
}

/// The chair installs the meeting, the quorum of its call verified (C.Co
/// Arts. 427–429): polls may open from now on.
#[utoipa::path(post, path = "/api/v1/meeting/install", tag = "chair",
    request_body = SessionChange,
    responses(
        (status = 200, description = "Installed", body = SessionRecorded),
        (status = 409, description = "`already-installed`, `meeting-adjourned`, `poll-open`", body = ErrorAnswer),
        (status = 422, description = "`no-quorum-to-install`", body = ErrorAnswer),
    ))]
pub(crate) async fn install(
    State(state): State<AppState>,
    staff: Staff,
    Json(change): Json<SessionChange>,
) -> Result<Json<SessionRecorded>, ApiError> {
    session_step(state, staff, asamblea_rules::SessionStep::Installed, change).await
}

/// The chair suspends the meeting (C.Co Art. 430): no poll opens until it
/// resumes. The note says why and when it resumes.
#[utoipa::path(post, path = "/api/v1/meeting/suspend", tag = "chair",
    request_body = SessionChange,
    responses(
        (status = 200, description = "Suspended", body = SessionRecorded),
        (status = 409, description = "`not-installed`, `meeting-suspended`, `meeting-adjourned`, `poll-open`", body = ErrorAnswer),
    ))]
pub(crate) async fn suspend(
    State(state): State<AppState>,
    staff: Staff,
    Json(change): Json<SessionChange>,
) -> Result<Json<SessionRecorded>, ApiError> {
    session_step(state, staff, asamblea_rules::SessionStep::Suspended, change).await
}

/// The chair resumes a suspended meeting: refused after the third day
/// unless every subscribed share is represented (C.Co Art. 430).
#[utoipa::path(post, path = "/api/v1/meeting/resume", tag = "chair",
    request_body = SessionChange,
    responses(
        (status = 200, description = "Resumed", body = SessionRecorded),
        (status = 409, description = "`not-installed`, `not-suspended`, `meeting-adjourned`", body = ErrorAnswer),
        (status = 422, description = "`beyond-three-days`", body = ErrorAnswer),
    ))]
pub(crate) async fn resume(
    State(state): State<AppState>,
    staff: Staff,
    Json(change): Json<SessionChange>,
) -> Result<Json<SessionRecorded>, ApiError> {
    session_step(state, staff, asamblea_rules::SessionStep::Resumed, change).await
}

/// The chair adjourns the meeting («se levantó la sesión»): nothing more
/// is voted and nobody more arrives.
#[utoipa::path(post, path = "/api/v1/meeting/adjourn", tag = "chair",
    request_body = SessionChange,
    responses(
        (status = 200, description = "Adjourned", body = SessionRecorded),
        (status = 409, description = "`not-installed`, `meeting-adjourned`, `poll-open`", body = ErrorAnswer),
    ))]
pub(crate) async fn adjourn(
    State(state): State<AppState>,
    staff: Staff,
    Json(change): Json<SessionChange>,
) -> Result<Json<SessionRecorded>, ApiError> {
    session_step(state, staff, asamblea_rules::SessionStep::Adjourned, change).await
}

/// An item of the convened agenda, by the id in the path.
fn on_agenda(service: &asamblea_venue::service::Service, item: &str) -> Result<(), ApiError> {
    if service.agenda().iter().any(|entry| entry.item.as_str() == item) {
        Ok(())
    } else {
        Err(ApiError::not_found(
            format!("«{item}» en el orden del día convocado"),
            format!("`{item}` on the convened agenda"),
        ))
    }
}

/// A poll opened on an item of the convened agenda.
#[utoipa::path(post, path = "/api/v1/items/{item}/open", tag = "chair",
    params(("item" = asamblea_api::formats::Identifier, Path, description = "The item's id")),
    responses(
        (status = 200, description = "Opened", body = Recorded),
        (status = 404, description = "`not-found`: not on the convened agenda", body = ErrorAnswer),
        (status = 409, description = "`not-installed`, `meeting-suspended`, `meeting-adjourned`", body = ErrorAnswer),
        (status = 422, description = "`no-quorum` (with the figures and the threshold), `item-already-decided`, `not-in-notice`", body = ErrorAnswer),
    ))]
pub(crate) async fn open(
    State(state): State<AppState>,
    staff: Staff,
    Path(item): Path<String>,
) -> Result<Json<Recorded>, ApiError> {
    let state2 = state.clone();
    let seq = blocking(&state, move |service| {
        on_agenda(service, &item)?;
        let body = service.item_opened(&item).map_err(|e| {
            ApiError::internal("el punto del orden del día / the agenda item", &format!("{e:#}"))
        })?;
        let seq = service.staff_event_as(&staff.key, body).map(|a| a.seq).map_err(|e| match e {
            // Refused for want of quorum: say how far it is, with the figures.
            ActionError::Rejected(Rejection::Rules(Refusal::NoQuorum)) => no_quorum(service.meeting()),
            e => action_error(&state2, e),
        })?;
        let quorum = service.meeting().quorum();
        tracing::info!(
            event.seq = seq,
            item.id = %item,
            quorum.present_shares = quorum.present.get(),
            quorum.voting_outstanding = quorum.voting_outstanding.get(),
            quorum.holders = quorum.holders,
            staff.name = %staff.name,
            "votación abierta / poll opened"
        );
        Ok(seq)
    })
    .await?;
    state.publish_status();
    Ok(Json(Recorded { seq }))
}

/// The chair announces the close of an open poll with a countdown
/// (rules.md §11.5): every screen counts it down; the chair closes when it
/// has run.
#[utoipa::path(post, path = "/api/v1/items/{item}/announce-close", tag = "chair",
    params(("item" = asamblea_api::formats::Identifier, Path, description = "The item's id")),
    request_body = CloseAnnouncement,
    responses(
        (status = 200, description = "Announced", body = CloseAnnounced),
        (status = 404, description = "`not-found`: not on the convened agenda", body = ErrorAnswer),
        (status = 422, description = "`countdown-too-short`, `countdown-ends-earlier`, `unknown-item` (never opened), `item-closed`, `refused-by-ledger` (a meeting without poll timing)", body = ErrorAnswer),
    ))]
pub(crate) async fn announce_close(
    State(state): State<AppState>,
    staff: Staff,
    Path(item): Path<String>,
    Json(announcement): Json<CloseAnnouncement>,
) -> Result<Json<CloseAnnounced>, ApiError> {
    let state2 = state.clone();
    let answer = blocking(&state, move |service| {
        on_agenda(service, &item)?;
        let countdown_ms = u64::from(announcement.countdown_seconds) * 1000;
        let appended = service
            .announce_close_as(&staff.key, &item, countdown_ms)
            .map_err(|e| action_error(&state2, e))?;
        let closes_from_ms = service.state().earliest_close(&item).unwrap_or(appended.time_ms + countdown_ms);
        tracing::info!(
            event.seq = appended.seq,
            item.id = %item,
            countdown_ms,
            staff.name = %staff.name,
            "cierre anunciado / close announced"
        );
        Ok(CloseAnnounced { seq: appended.seq, closes_from_ms })
    })
    .await?;
    state.publish_status();
    Ok(Json(answer))
}

/// A poll closed: its result, and the chain's checkpoint signed by the
/// daemon.
#[utoipa::path(post, path = "/api/v1/items/{item}/close", tag = "chair",
    params(("item" = asamblea_api::formats::Identifier, Path, description = "The item's id")),
    responses(
        (status = 200, description = "Closed, with its result", body = Closed),
        (status = 404, description = "`not-found`: not on the convened agenda", body = ErrorAnswer),
        (status = 409, description = "`poll-minimum-open`, `close-not-announced`, `countdown-running`: the poll timing (rules.md §11.5); the message says how long is left", body = ErrorAnswer),
        (status = 422, description = "`unknown-item` (never opened), `item-closed`", body = ErrorAnswer),
    ))]
pub(crate) async fn close(
    State(state): State<AppState>,
    staff: Staff,
    Path(item): Path<String>,
) -> Result<Json<Closed>, ApiError> {
    let state2 = state.clone();
    let item2 = item.clone();
    let closed = blocking(&state, move |service| {
        on_agenda(service, &item2)?;
        let (checkpoint, signature) =
            service.close_item_as(&staff.key, &item2).map_err(|e| action_error(&state2, e))?;
        let meeting = service.meeting();
        let at = meeting.item_index(&item2).expect("closed");
        let result = asamblea_documents::results::item_result(meeting, meeting.item(at));
        tracing::info!(
            event.seq = checkpoint.seq,
            item.id = %item2,
            result.outcome = %result.outcome,
            chain.head = %hex(&checkpoint.head.0),
            staff.name = %staff.name,
            "votación cerrada / poll closed"
        );
        Ok(Closed {
            checkpoint: Checkpoint { seq: checkpoint.seq, head: hex(&checkpoint.head.0) },
            signature: hex(&signature.0),
            result,
        })
    })
    .await?;
    let message = FeedMessage::Result(Box::new(ResultMessage {
        kind: ResultType::Result,
        item,
        result: closed.result.clone(),
    }));
    let _ = state.0.feed.send(crate::FeedMessage::now("result", crate::public::feed_text(&message)));
    // The head the room hears with the result is the chain after the close
    // (its result and lots included), signed now, not the last one signed
    // while the poll was open.
    let signer = state.clone();
    if let Ok(Some(head)) = tokio::task::spawn_blocking(move || signer.sign_head()).await {
        let text = crate::public::feed_text(&FeedMessage::Head(head));
        let _ = state.0.feed.send(crate::FeedMessage::now("head", text));
    }
    state.publish_status();
    Ok(Json(closed))
}

/// A poll refused for want of quorum, with the figures and the threshold,
/// and what to do.
fn no_quorum(meeting: &asamblea_rules::Meeting) -> ApiError {
    no_quorum_to(meeting, ErrorCode::Refused(Refusal::NoQuorum), ("abrir la votación", "open the poll"))
}

/// [`no_quorum`] for `what` (Spanish, English), answered with `code`.
fn no_quorum_to(meeting: &asamblea_rules::Meeting, code: ErrorCode, what: (&str, &str)) -> ApiError {
    use asamblea_documents::numfmt::{percent, thousands};
    let reading = meeting.quorum();
    let rule = asamblea_documents::quorum::quorum_rule_text(meeting);
    let (present, voting) = (reading.present.get(), reading.voting_outstanding.get());
    ApiError::new(
        code,
        format!(
            "No hay quórum para {}: están presentes {} de {} acciones con derecho a voto ({}) y {} accionistas; \
             se necesita {} ({}). Registre más llegadas y vuelva a intentarlo.",
            what.0,
            thousands(present),
            thousands(voting),
            percent(present, voting),
            thousands(u64::from(reading.holders)),
            rule.es,
            rule.source
        ),
        format!(
            "No quorum to {}: {} of {} voting shares and {} holders present; it needs {}.",
            what.1,
            thousands(present),
            thousands(voting),
            reading.holders,
            rule.en
        ),
    )
}
