//! The desk's badges and kiosks: a badge issued for the public key of a
//! seed the desk drew (the seed never comes here), re-issued, revoked and
//! laid out for printing; a kiosk enrolled from its own certificate
//! request (its key never comes here) and revoked.

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use asamblea_api::desk::{
    BadgeIssued, BadgeRequest, BadgeRevoked, KioskEnrolled, KioskRequest, KioskRevoked, ReissueRequest,
};
use asamblea_api::{ErrorAnswer, ErrorCode};
use asamblea_venue::service::BadgeIssue;
use asamblea_wire::{CredentialId, EventBody};

use asamblea_venue::staff::Role;

use crate::access::{Body, Staff};
use crate::callers::{Callers, Routes};
use crate::directory::Directory;
use crate::meeting::{action_error, badge_key, badge_number, blocking, id, unlocked};
use crate::{ApiError, AppState};

/// The operator's badge and kiosk routes.
pub(crate) fn routes() -> Vec<Routes> {
    vec![Routes::api(
        Callers::Staff(&[Role::Operator]),
        OpenApiRouter::new()
            .routes(routes!(issue))
            .routes(routes!(reissue))
            .routes(routes!(revoke))
            .routes(routes!(layout))
            .routes(routes!(enroll_kiosk))
            .routes(routes!(revoke_kiosk)),
    )]
}

/// A badge for a present person (a holder in person, or an agent), for
/// the public key of a seed the desk drew. The same key for the same
/// person again answers the badge that stands (200).
#[utoipa::path(post, path = "/api/v1/badges", tag = "desk",
    request_body = BadgeRequest,
    responses(
        (status = 201, description = "Issued: the desk draws its QR from its seed and this number", body = BadgeIssued),
        (status = 200, description = "The same request again: the badge stands", body = BadgeIssued),
        (status = 400, description = "`bad-request`", body = ErrorAnswer),
        (status = 409, description = "`badge-held`, `badge-key-in-use`", body = ErrorAnswer),
        (status = 422, description = "`not-present`", body = ErrorAnswer),
    ))]
pub(crate) async fn issue(
    State(state): State<AppState>,
    staff: Staff,
    Body(request): Body<BadgeRequest>,
) -> Result<(StatusCode, Json<BadgeIssued>), ApiError> {
    let person = id(&request.person, "person")?;
    let key = badge_key(&request.key)?;
    let state2 = state.clone();
    blocking(&state, move |service| {
        let issued =
            service.issue_badge_as(&staff.key, &person, key).map_err(|e| action_error(&state2, e))?;
        let answer = |seq, credential: CredentialId| BadgeIssued {
            seq,
            credential: credential.0,
            person: person.as_str().to_string(),
            key: key.to_string(),
            revoked: None,
        };
        Ok(match issued {
            BadgeIssue::Standing(credential) => (StatusCode::OK, Json(answer(None, credential))),
            BadgeIssue::Issued { credential, appended } => {
                tracing::info!(
                    event.seq = appended.seq,
                    badge.number = credential.0,
                    person.id = %person,
                    staff.name = %staff.name,
                    "credencial emitida / badge issued"
                );
                (StatusCode::CREATED, Json(answer(Some(appended.seq), credential)))
            }
        })
    })
    .await
}

/// A lost badge replaced: the old one revoked and a new one issued to the
/// same person for the key the desk drew, in one transaction (either both
/// are in the ledger or neither).
#[utoipa::path(post, path = "/api/v1/badges/{credential}/reissue", tag = "desk",
    params(("credential" = u32, Path, description = "The lost badge's number")),
    request_body = ReissueRequest,
    responses(
        (status = 201, description = "Re-issued", body = BadgeIssued),
        (status = 400, description = "`bad-request`", body = ErrorAnswer),
        (status = 422, description = "`unknown-badge`, `revoked-badge`", body = ErrorAnswer),
    ))]
pub(crate) async fn reissue(
    State(state): State<AppState>,
    staff: Staff,
    Path(credential): Path<String>,
    Body(request): Body<ReissueRequest>,
) -> Result<(StatusCode, Json<BadgeIssued>), ApiError> {
    let old = badge_number(&credential)?;
    let key = badge_key(&request.key)?;
    let state2 = state.clone();
    let answer = blocking(&state, move |service| {
        let (person, number, appended) = service
            .reissue_badge_as(&staff.key, CredentialId(old), key)
            .map_err(|e| action_error(&state2, e))?;
        tracing::info!(
            event.seq = appended.seq,
            badge.revoked = old,
            badge.number = number.0,
            person.id = %person,
            staff.name = %staff.name,
            "credencial repuesta / badge re-issued"
        );
        Ok(BadgeIssued {
            seq: Some(appended.seq),
            credential: number.0,
            person,
            key: key.to_string(),
            revoked: Some(old),
        })
    })
    .await?;
    state.publish_status();
    Ok((StatusCode::CREATED, Json(answer)))
}

/// A badge revoked (lost, or left behind).
#[utoipa::path(post, path = "/api/v1/badges/{credential}/revoke", tag = "desk",
    params(("credential" = u32, Path, description = "The badge's number")),
    responses(
        (status = 200, description = "Revoked", body = BadgeRevoked),
        (status = 400, description = "`bad-request`", body = ErrorAnswer),
        (status = 422, description = "`unknown-badge`, `revoked-badge`", body = ErrorAnswer),
    ))]
pub(crate) async fn revoke(
    State(state): State<AppState>,
    staff: Staff,
    Path(credential): Path<String>,
) -> Result<Json<BadgeRevoked>, ApiError> {
    let number = badge_number(&credential)?;
    let state2 = state.clone();
    let seq = blocking(&state, move |service| {
        let seq = service
            .staff_event_as(&staff.key, EventBody::BadgeRevoked { credential: CredentialId(number) })
            .map(|a| a.seq)
            .map_err(|e| action_error(&state2, e))?;
        tracing::info!(event.seq = seq, badge.number = number, staff.name = %staff.name, "credencial revocada / badge revoked");
        Ok(seq)
    })
    .await?;
    Ok(Json(BadgeRevoked { seq, revoked: number }))
}

/// The badge as it prints (`asamblea_documents::badges::badge_svg_frame`),
/// its QR square left white for the desk's browser, which alone holds the
/// seed.
#[utoipa::path(get, path = "/api/v1/badges/{credential}/layout", tag = "desk",
    params(("credential" = u32, Path, description = "The badge's number")),
    responses(
        (status = 200, description = "The badge's layout", content_type = "image/svg+xml", body = String),
        (status = 400, description = "`bad-request`", body = ErrorAnswer),
        (status = 404, description = "`not-found`", body = ErrorAnswer),
        (status = 422, description = "`revoked-badge`: print the one that replaced it", body = ErrorAnswer),
    ))]
pub(crate) async fn layout(
    State(state): State<AppState>,
    _staff: Staff,
    Path(credential): Path<String>,
) -> Result<Response, ApiError> {
    let number = badge_number(&credential)?;
    let svg = unlocked(&state, move |state| {
        let directory = Directory::of_state(state)?;
        state.with_service(|service| {
            let Some((_, person, revoked)) = service.state().badge(CredentialId(number)) else {
                return Err(ApiError::not_found(
                    format!("la credencial {number}"),
                    format!("badge {number}"),
                ));
            };
            if revoked {
                return Err(ApiError::new(
                    ErrorCode::RevokedBadge,
                    "Esa credencial fue revocada: imprima la que la reemplazó.",
                    "That badge was revoked: print the one that replaced it.",
                ));
            }
            let meeting = service.meeting();
            let name_of = |at| {
                let name = directory.name(at);
                if name.is_empty() {
                    meeting.register().holder(at).id().to_string()
                } else {
                    name.to_string()
                }
            };
            let mut represents: Vec<String> = meeting
                .carried_by(person)
                .filter(|&at| meeting.register().holder(at).id() != person)
                .map(name_of)
                .collect();
            // The wearer by the name the desk recorded (an agent, or who
            // attends for a company, which the badge then names as the
            // holder represented), else the register's.
            let name = crate::directory::attendee_name(service.state(), meeting, directory, person);
            if service.state().attendee_name(person).is_some() {
                if let Some(own) = meeting.register().lookup(person) {
                    represents.insert(0, name_of(own));
                }
            }
            let title = service.config().badge_title();
            Ok(asamblea_documents::badges::badge_svg_frame(&asamblea_documents::badges::BadgeInfo {
                holder_id: person,
                holder_name: &name,
                credential_id: number,
                represents: &represents,
                meeting_title: &title,
                qr_text: "",
            }))
        })
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")], svg).into_response())
}

/// A kiosk enrolled from its certificate request: the venue CA signs it,
/// and the kiosk's key, made on the kiosk, never comes here.
#[utoipa::path(post, path = "/api/v1/kiosks", tag = "desk",
    request_body = KioskRequest,
    responses(
        (status = 201, description = "Enrolled: the kiosk's certificate and the venue CA's", body = KioskEnrolled),
        (status = 400, description = "`bad-request`", body = ErrorAnswer),
        (status = 409, description = "`kiosk-enrolled`: that id is enrolled, or was revoked: use another", body = ErrorAnswer),
        (status = 422, description = "`bad-certificate-request`: not a request, or a request for another id", body = ErrorAnswer),
    ))]
pub(crate) async fn enroll_kiosk(
    State(state): State<AppState>,
    staff: Staff,
    Body(request): Body<KioskRequest>,
) -> Result<(StatusCode, Json<KioskEnrolled>), ApiError> {
    let dir = state.with_service(|service| service.dir().to_path_buf());
    let KioskRequest { id, csr } = request;
    let kiosk = id.clone();
    let request_sha256 = asamblea_wire::Digest::sha256(csr.as_bytes()).to_string();
    let credentials = tokio::task::spawn_blocking(move || asamblea_pki::sign_kiosk_request(&dir, &kiosk, &csr))
        .await
        .map_err(|_| ApiError::task_failed())?
        .map_err(|e| match &e {
            asamblea_pki::PkiError::AlreadyEnrolled { .. } | asamblea_pki::PkiError::Revoked { .. } => ApiError::new(
                ErrorCode::KioskEnrolled,
                format!("No se inscribió el quiosco «{id}»: {e}. Inscríbalo con otro identificador."),
                format!("Kiosk `{id}` was not enrolled: {e}."),
            ),
            e if e.is_refusal() => ApiError::new(
                ErrorCode::BadCertificateRequest,
                format!("No se inscribió el quiosco «{id}»: {e}. Haga la solicitud de nuevo en el quiosco (asamblea-kiosk enroll)."),
                format!("Kiosk `{id}` was not enrolled: {e}."),
            ),
            e => ApiError::internal("inscribir un quiosco / enrolling a kiosk", e),
        })?;
    tracing::info!(kiosk.id = %id, request.sha256 = %request_sha256, staff.name = %staff.name, "quiosco inscrito / kiosk enrolled");
    Ok((
        StatusCode::CREATED,
        Json(KioskEnrolled {
            kiosk: id,
            certificate: credentials.cert_pem,
            ca: credentials.ca_pem,
            request_sha256,
        }),
    ))
}

/// A kiosk revoked: the daemon refuses its certificate from its next
/// request on.
#[utoipa::path(post, path = "/api/v1/kiosks/{kiosk}/revoke", tag = "desk",
    params(("kiosk" = asamblea_api::formats::KioskId, Path, description = "The kiosk's id")),
    responses(
        (status = 200, description = "Revoked", body = KioskRevoked),
        (status = 404, description = "`not-found`: no kiosk enrolled with that id", body = ErrorAnswer),
    ))]
pub(crate) async fn revoke_kiosk(
    State(state): State<AppState>,
    staff: Staff,
    Path(kiosk): Path<String>,
) -> Result<Json<KioskRevoked>, ApiError> {
    let registry = state.0.kiosks.clone();
    let id = kiosk.clone();
    tokio::task::spawn_blocking(move || registry.revoke(&id))
        .await
        .map_err(|_| ApiError::task_failed())?
        .map_err(|e| match e {
            e if e.is_refusal() => ApiError::not_found(
                format!("un quiosco inscrito «{kiosk}» ({e})"),
                format!("an enrolled kiosk `{kiosk}` ({e})"),
            ),
            e => ApiError::internal("revocar un quiosco / revoking a kiosk", &e),
        })?;
    tracing::info!(kiosk.id = %kiosk, staff.name = %staff.name, "quiosco revocado / kiosk revoked");
    Ok(Json(KioskRevoked { revoked: kiosk }))
}
