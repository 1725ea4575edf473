//! The desk's «Verificación de asistentes remotos»: the registrations
//! waiting, and a person verified by the procedure the notice states,
//! which binds their browser's key as their remote credential (HY-2).

use std::time::Instant;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use asamblea_api::remote::{
    PendingRegistration, PendingRegistrations, RemoteCredential, VerificationRequest,
};
use asamblea_api::ErrorAnswer;
use asamblea_venue::service::BadgeIssue;
use asamblea_venue::staff::Role;
use asamblea_wire::{key_fingerprint, Digest, VerificationMethod};

use crate::access::{Body, Staff};
use crate::callers::{Callers, Routes};
use crate::directory::Directory;
use crate::meeting::{action_error, blocking, unlocked};
use crate::{ApiError, AppState};

/// The operator's routes of the remote attendees.
pub(super) fn routes() -> Routes {
    Routes::api(
        Callers::Staff(&[Role::Operator]),
        OpenApiRouter::new().routes(routes!(remote_pending)).routes(routes!(remote_verify)),
    )
}

/// The registrations waiting for the desk, oldest first, each with who
/// the register or a lodged power says the person is.
#[utoipa::path(get, path = "/api/v1/remote/pending", tag = "desk",
    responses((status = 200, description = "Waiting", body = PendingRegistrations)))]
pub(crate) async fn remote_pending(
    State(state): State<AppState>,
    _staff: Staff,
) -> Result<Json<PendingRegistrations>, ApiError> {
    let list = unlocked(&state, |state| {
        let directory = Directory::of_state(state)?;
        let now = Instant::now();
        let waiting = state.0.registrations.list(now);
        Ok(state.with_service(|service| {
            let ledger = service.state();
            let meeting = service.meeting();
            waiting
                .into_iter()
                .filter(|p| ledger.badge_with_key(&p.key).is_none())
                .map(|p| {
                    let person = p.person.as_str();
                    let known_as = known_as(directory, ledger, meeting, person);
                    PendingRegistration {
                        key: p.key.to_string(),
                        fingerprint: key_fingerprint(&p.key),
                        person: person.to_string(),
                        name: p.name.as_str().to_string(),
                        known_as,
                        waiting_s: now.duration_since(p.at).as_secs(),
                    }
                })
                .collect()
        }))
    })
    .await?;
    Ok(Json(PendingRegistrations { pending: list }))
}

/// Who `person` is, as the record names them
/// ([`crate::directory::person_name`]); none when it names them nowhere.
pub(super) fn known_as(
    directory: &Directory,
    ledger: &asamblea_ledger::State,
    meeting: &asamblea_rules::Meeting,
    person: &str,
) -> Option<String> {
    crate::directory::person_name(ledger, directory.registered(meeting, person), person)
}

/// The desk verified the person of a waiting registration by `method`,
/// with the evidence's SHA-256: `identity-verified` and
/// `remote-credential-issued` in one transaction, signed by the operator.
#[utoipa::path(post, path = "/api/v1/remote/verifications", tag = "desk",
    request_body = VerificationRequest,
    responses(
        (status = 201, description = "Verified and bound", body = RemoteCredential),
        (status = 200, description = "The same request again: the credential stands", body = RemoteCredential),
        (status = 404, description = "`unknown-registration`", body = ErrorAnswer),
        (status = 409, description = "`badge-held`, `badge-key-in-use`", body = ErrorAnswer),
        (status = 422, description = "`not-remote-attendee`", body = ErrorAnswer),
    ))]
pub(crate) async fn remote_verify(
    State(state): State<AppState>,
    staff: Staff,
    Body(request): Body<VerificationRequest>,
) -> Result<(StatusCode, Json<RemoteCredential>), ApiError> {
    let key = super::browser_key(&request.key)?;
    let method = VerificationMethod::from_code(&request.method).ok_or_else(|| {
        ApiError::bad_request(
            "`method`: identity-document, video-call o admission-code",
            "`method`: identity-document, video-call or admission-code",
        )
    })?;
    let evidence = Digest::from_hex(&request.evidence).map_err(|_| {
        ApiError::bad_request(
            "`evidence`: el SHA-256 de la evidencia, 64 cifras hexadecimales",
            "`evidence`: the evidence's SHA-256, 64 hex digits",
        )
    })?;
    let person = match state.0.registrations.get(&key) {
        Some(pending) => pending.person,
        None => state
            .with_service(|service| {
                let ledger = service.state();
                ledger.badge_with_key(&key).and_then(|c| ledger.badge(c)).map(|(_, p, _)| p.to_string())
            })
            .and_then(|p| asamblea_wire::Id::new(&p).ok())
            .ok_or_else(super::unknown_registration)?,
    };
    let state2 = state.clone();
    let person2 = person.clone();
    let (status, answer) = blocking(&state, move |service| {
        let issued = service
            .verify_remote_as(&staff.key, &person2, key, method, evidence)
            .map_err(|e| action_error(&state2, e))?;
        let answer = |seq, credential: asamblea_wire::CredentialId| RemoteCredential {
            seq,
            credential: credential.0,
            person: person2.as_str().to_string(),
            fingerprint: key_fingerprint(&key),
        };
        Ok(match issued {
            BadgeIssue::Standing(credential) => (StatusCode::OK, answer(0, credential)),
            BadgeIssue::Issued { credential, appended } => {
                tracing::info!(
                    event.seq = appended.seq,
                    badge.number = credential.0,
                    person.id = %person2,
                    remote.method = method.code(),
                    staff.name = %staff.name,
                    "identidad verificada y credencial remota emitida / identity verified and remote credential issued"
                );
                (StatusCode::CREATED, answer(appended.seq, credential))
            }
        })
    })
    .await?;
    state.0.registrations.bound(&key);
    Ok((status, Json(answer)))
}
