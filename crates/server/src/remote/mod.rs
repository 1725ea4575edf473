//! The remote attendee of a mixed meeting (Ley 222 Art. 19, Decreto
//! 398/2020; `docs/ledger-format.md` §3.24–3.28), a caller of its own.
//!
//! Its routes are open to anyone and authenticated by a signature alone,
//! of the key the attendee's browser made and cannot export: a
//! registration proves it holds the key (`remote-registration`); once the
//! desk verified the person and bound the key (`desk`), the arrival, the
//! departure and every ballot are events signed with it, which the ledger
//! admits only for a live remote credential through its own channel
//! (R2). Reading a registration's state or a ballot sheet takes the key
//! itself, 32 random bytes that only the browser and the desk know: a
//! read capability, never a write one. The desk's verification panel is
//! `desk`; the pending registrations, `pending`.

use std::time::Instant;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::Response;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use asamblea_api::kiosk::{BallotRequest, BallotSheet};
use asamblea_api::public::SignedReceipt;
use asamblea_api::remote::{
    HeartbeatAnswer, HeartbeatRequest, PresenceRecorded, RegistrationRequest, RemoteStatus,
    SubmissionRecorded,
};
use asamblea_api::{ErrorAnswer, ErrorCode};
use asamblea_ledger::{Rejection, Signed};
use asamblea_rules::Medium;
use asamblea_wire::{
    key_fingerprint, CredentialId, Event, EventBody, PublicKey, RemoteHeartbeat, RemoteRegistration,
    Signature,
};

use crate::access::Body;
use crate::callers::{Callers, Routes};
use crate::directory::Directory;
use crate::meeting::{action_error, blocking, healthy, unhex, unlocked};
use crate::{ApiError, AppState};

mod desk;
mod floor;
mod page;
pub(crate) mod pending;
pub(crate) mod presence;

/// A remote credential's requests: this many a second on average, this
/// many at once (a person arrives, votes on a few items, checks).
pub(crate) const REMOTE_RATE: (u32, u32) = (2, 20);

/// The remote attendee's routes (anyone; the signature authenticates),
/// the desk's verification and the chair's floor.
pub(crate) fn routes() -> Vec<Routes> {
    let mut routes = vec![
        Routes::api(
            Callers::Public,
            OpenApiRouter::new()
                .routes(routes!(remote_register))
                .routes(routes!(remote_status))
                .routes(routes!(remote_sheet))
                .routes(routes!(remote_presence))
                .routes(routes!(remote_heartbeat))
                .routes(routes!(remote_submit))
                .routes(routes!(remote_cast)),
        )
        .on_internet(),
        desk::routes(),
        Routes::pages(
            Callers::Public,
            vec![
                crate::callers::get_page("/remoto", page::page),
                crate::callers::get_page("/assets/remote.js", page::script),
            ],
        )
        .on_internet(),
    ];
    routes.extend(floor::routes());
    routes
}

/// A browser registers a person with the key it made; the desk sees it
/// among the pending registrations and verifies the person. The same key
/// again replaces its registration (or, once bound, answers its state).
#[utoipa::path(post, path = "/api/v1/remote/registrations", tag = "remote",
    request_body = RegistrationRequest,
    responses(
        (status = 201, description = "Kept, pending the desk's verification", body = RemoteStatus),
        (status = 200, description = "The key is bound already: its state", body = RemoteStatus),
        (status = 403, description = "`remote-not-allowed`", body = ErrorAnswer),
        (status = 422, description = "`bad-signature`: the proof is not the key's", body = ErrorAnswer),
        (status = 429, description = "`registrations-full`", body = ErrorAnswer),
    ))]
pub(crate) async fn remote_register(
    State(state): State<AppState>,
    extensions: axum::http::Extensions,
    Body(request): Body<RegistrationRequest>,
) -> Result<(StatusCode, Json<RemoteStatus>), ApiError> {
    healthy(&state)?;
    let bytes = unhex(&request.registration, "registration")?;
    let registration = RemoteRegistration::decode(&bytes).map_err(|e| {
        ApiError::bad_request(
            format!("`registration` no es una inscripción canónica ({})", e.spanish()),
            format!("`registration`: {}", e.english()),
        )
    })?;
    let proof = signature(&request.proof, "proof")?;
    registration
        .verify(&state.0.meeting_id, &proof)
        .map_err(|_| ApiError::rejected(&Rejection::BadSignature))?;
    let (allowed, bound) = state.with_service(|service| {
        let ledger = service.state();
        (ledger.remote_attendance_allowed(), ledger.badge_with_key(&registration.key).is_some())
    });
    if !allowed {
        return Err(ApiError::rejected(&Rejection::RemoteNotAllowed));
    }
    if bound {
        return Ok((StatusCode::OK, Json(status_of(&state, &registration.key)?)));
    }
    let pending = pending::Pending {
        key: registration.key,
        person: registration.person,
        name: registration.name,
        address: crate::access::peer(&extensions),
        at: Instant::now(),
    };
    state.0.registrations.insert(pending, Instant::now()).map_err(|full| {
        let (es, en) = match full {
            pending::Full::InAll => (
                "Hay demasiadas inscripciones a distancia en espera; intente en unos minutos o llame a la mesa de registro.",
                "Too many remote registrations are waiting; try again in a few minutes or call the registration desk.",
            ),
            pending::Full::FromAddress => (
                "Desde esta conexión ya esperan varias inscripciones; espere a que la mesa las verifique.",
                "Several registrations from this connection are waiting already; wait for the desk to verify them.",
            ),
        };
        ApiError::new(ErrorCode::RegistrationsFull, es, en)
    })?;
    tracing::info!(remote.key = %registration.key, "inscripción a distancia en espera / remote registration pending");
    Ok((StatusCode::CREATED, Json(status_of(&state, &registration.key)?)))
}

/// Where a browser's key stands.
#[utoipa::path(get, path = "/api/v1/remote/registrations/{key}", tag = "remote",
    params(("key" = String, Path, description = "The browser's public key, hex")),
    responses(
        (status = 200, description = "Its state", body = RemoteStatus),
        (status = 404, description = "`unknown-registration`", body = ErrorAnswer),
    ))]
pub(crate) async fn remote_status(
    State(state): State<AppState>,
    Path(key): Path<String>,
) -> Result<([(axum::http::HeaderName, &'static str); 1], Json<RemoteStatus>), ApiError> {
    healthy(&state)?;
    let key = browser_key(&key)?;
    Ok(([(header::CACHE_CONTROL, "no-store")], Json(status_of(&state, &key)?)))
}

/// What the remote attendee votes on now: the same sheet a kiosk shows.
#[utoipa::path(get, path = "/api/v1/remote/sheet/{key}", tag = "remote",
    params(("key" = String, Path, description = "The credential's public key, hex")),
    responses(
        (status = 200, description = "The ballot sheet", body = BallotSheet),
        (status = 404, description = "`unknown-registration`", body = ErrorAnswer),
        (status = 422, description = "`revoked-badge`, `wrong-channel`", body = ErrorAnswer),
    ))]
pub(crate) async fn remote_sheet(
    State(state): State<AppState>,
    Path(key): Path<String>,
) -> Result<([(axum::http::HeaderName, &'static str); 1], Json<BallotSheet>), ApiError> {
    let key = browser_key(&key)?;
    let sheet = unlocked(&state, move |state| {
        let directory = Directory::of_state(state)?;
        state.with_service(|service| {
            let credential = remote_credential(service.state(), &key)?;
            crate::kiosk::sheet_of(service, directory, credential)
        })
    })
    .await?;
    Ok(([(header::CACHE_CONTROL, "no-store")], Json(sheet)))
}

/// The remote attendee's own arrival or departure, signed in the browser
/// (the body is a ballot's: the event, its signer and its signature).
#[utoipa::path(post, path = "/api/v1/remote/presence", tag = "remote",
    request_body = BallotRequest,
    responses(
        (status = 200, description = "Durable", body = PresenceRecorded),
        (status = 409, description = "`other-channel`: present in the room", body = ErrorAnswer),
        (status = 422, description = "`bad-signature`, `unknown-badge`, `revoked-badge`, `wrong-channel`, `not-covered`, or a rules refusal (`already-present`, `not-present`)", body = ErrorAnswer),
        (status = 429, description = "`rate-limited`", body = ErrorAnswer),
    ))]
pub(crate) async fn remote_presence(
    State(state): State<AppState>,
    Body(request): Body<BallotRequest>,
) -> Result<Json<PresenceRecorded>, ApiError> {
    let signed = signed_event(&state, &request.event, &request.signer, &request.signature)?;
    let credential = match &signed.event.body {
        EventBody::CheckedInRemote { credential, .. } | EventBody::CheckedOutRemote { credential } => {
            *credential
        }
        _ => {
            return Err(ApiError::bad_request(
                "`event` debe ser checked-in-remote o checked-out-remote",
                "`event` must be checked-in-remote or checked-out-remote",
            ))
        }
    };
    state.0.rate_limit_remote(credential)?;
    let state2 = state.clone();
    let recorded = blocking(&state, move |service| {
        let appended = service.remote_event(signed).map_err(|e| action_error(&state2, e))?;
        let person = service.state().badge(credential).map(|(_, person, _)| person.to_string()).unwrap_or_default();
        let present = service.state().medium_of(&person) == Some(Medium::Remote);
        if present {
            state2.0.heartbeats.arrived(credential, Instant::now());
        } else {
            state2.0.heartbeats.left(credential);
        }
        tracing::info!(event.seq = appended.seq, badge.number = credential.0, person.id = %person, present, "asistencia a distancia / remote attendance");
        Ok(PresenceRecorded { seq: appended.seq, present })
    })
    .await?;
    state.publish_status();
    Ok(Json(recorded))
}

/// A remote attendee's sign of life, signed by their credential's key
/// (HY-5, ledger-format §3.29): it holds their presence for the meeting's
/// timeout; the answer says how they attend now, and whether their last
/// stay lapsed (the page then records a new arrival).
#[utoipa::path(post, path = "/api/v1/remote/heartbeat", tag = "remote",
    request_body = HeartbeatRequest,
    responses(
        (status = 200, description = "Taken", body = HeartbeatAnswer),
        (status = 404, description = "`unknown-registration`", body = ErrorAnswer),
        (status = 409, description = "`stale-heartbeat`: not newer than the last", body = ErrorAnswer),
        (status = 422, description = "`bad-signature`, `revoked-badge`, `wrong-channel`", body = ErrorAnswer),
        (status = 429, description = "`rate-limited`", body = ErrorAnswer),
    ))]
pub(crate) async fn remote_heartbeat(
    State(state): State<AppState>,
    Body(request): Body<HeartbeatRequest>,
) -> Result<Json<HeartbeatAnswer>, ApiError> {
    healthy(&state)?;
    let bytes = unhex(&request.heartbeat, "heartbeat")?;
    let heartbeat = RemoteHeartbeat::decode(&bytes).map_err(|e| {
        ApiError::bad_request(
            format!("`heartbeat` no es una señal de vida canónica ({})", e.spanish()),
            format!("`heartbeat`: {}", e.english()),
        )
    })?;
    let proof = signature(&request.proof, "proof")?;
    heartbeat
        .verify(&state.0.meeting_id, &proof)
        .map_err(|_| ApiError::rejected(&Rejection::BadSignature))?;
    let credential = state.with_service(|service| remote_credential(service.state(), &heartbeat.key))?;
    state.0.rate_limit_remote(credential)?;
    state.0.heartbeats.beat(credential, heartbeat.counter, Instant::now()).map_err(|_| {
        ApiError::new(
            ErrorCode::StaleHeartbeat,
            "Esa señal de vida no es más reciente que la anterior; recargue la página.",
            "That heartbeat is not newer than the last one; reload the page.",
        )
    })?;
    let answer = state.with_service(|service| {
        let ledger = service.state();
        let person = ledger.badge(credential).map(|(_, person, _)| person.to_string()).unwrap_or_default();
        HeartbeatAnswer {
            attending: ledger.medium_of(&person).map(medium_code),
            lapsed: ledger.lapsed(&person),
            heartbeat_seconds: heartbeat_seconds(ledger),
        }
    });
    Ok(Json(answer))
}

/// A remote attendee's question or written statement, signed in their
/// browser (`remote-submission`, ledger-format §3.31): recorded as it
/// arrives, for the chair's queue and the acta.
#[utoipa::path(post, path = "/api/v1/remote/submissions", tag = "remote",
    request_body = BallotRequest,
    responses(
        (status = 200, description = "Durable: its record's number", body = SubmissionRecorded),
        (status = 422, description = "`bad-signature`, `unknown-badge`, `revoked-badge`, `not-on-agenda`, or a rules refusal (`not-present`)", body = ErrorAnswer),
        (status = 429, description = "`rate-limited`", body = ErrorAnswer),
    ))]
pub(crate) async fn remote_submit(
    State(state): State<AppState>,
    Body(request): Body<BallotRequest>,
) -> Result<Json<SubmissionRecorded>, ApiError> {
    let signed = signed_event(&state, &request.event, &request.signer, &request.signature)?;
    let EventBody::RemoteSubmission { credential, kind, .. } = &signed.event.body else {
        return Err(ApiError::bad_request(
            "`event` debe ser remote-submission",
            "`event` must be remote-submission",
        ));
    };
    let (credential, kind) = (*credential, *kind);
    state.0.rate_limit_remote(credential)?;
    let state2 = state.clone();
    let seq = blocking(&state, move |service| {
        let appended = service.remote_event(signed).map_err(|e| action_error(&state2, e))?;
        tracing::info!(
            event.seq = appended.seq,
            badge.number = credential.0,
            submission.kind = kind.code(),
            "intervención a distancia / remote submission"
        );
        Ok(appended.seq)
    })
    .await?;
    Ok(Json(SubmissionRecorded { seq }))
}

/// How a person attends, as the API says it.
fn medium_code(medium: Medium) -> String {
    match medium {
        Medium::Remote => "remote".to_string(),
        Medium::Room => "room".to_string(),
    }
}

/// The meeting's heartbeat, in seconds (the profile's when no modality
/// was recorded).
fn heartbeat_seconds(ledger: &asamblea_ledger::State) -> u32 {
    ledger
        .convened_modality()
        .map_or(asamblea_rules::RemotePresence::default().heartbeat_seconds, |m| m.presence.heartbeat_seconds)
}

/// A ballot signed in the remote attendee's browser: the kiosk's ballot,
/// from a remote credential only (a printed badge votes at a kiosk).
#[utoipa::path(post, path = "/api/v1/remote/ballots", tag = "remote",
    request_body = BallotRequest,
    responses(
        (status = 200, description = "Durable: the daemon's signed receipt (the same again for the same ballot)", body = SignedReceipt),
        (status = 409, description = "`replayed`", body = ErrorAnswer),
        (status = 422, description = "`bad-signature`, `unknown-badge`, `revoked-badge`, `wrong-channel`, `not-carried`, or a rules refusal", body = ErrorAnswer),
        (status = 429, description = "`rate-limited`", body = ErrorAnswer),
    ))]
pub(crate) async fn remote_cast(
    State(state): State<AppState>,
    Body(request): Body<BallotRequest>,
) -> Result<Response, ApiError> {
    let bytes = unhex(&request.event, "event")?;
    let signer = unhex(&request.signer, "signer")?;
    let signature = unhex(&request.signature, "signature")?;
    let credential = match Event::decode(&bytes) {
        Ok(Event { body: EventBody::Ballot(ballot), .. }) => ballot.credential,
        // `submit_ballot` names what is wrong with it.
        _ => CredentialId(0),
    };
    if credential.0 != 0 {
        state.0.rate_limit_remote(credential)?;
        let remote = state.with_service(|service| service.state().is_remote_credential(credential));
        if !remote {
            return Err(ApiError::rejected(&Rejection::CredentialChannel { credential, remote: false }));
        }
    }
    let (receipt, signature) = crate::kiosk::submit_ballot(&state, bytes, &signer, &signature).await?;
    Ok(crate::ballots::receipt_response(&receipt, &signature))
}

/// The state of `key`: bound (with its person's attendance), or pending.
fn status_of(state: &AppState, key: &PublicKey) -> Result<RemoteStatus, ApiError> {
    let bound = state.with_service(|service| {
        let ledger = service.state();
        let credential = ledger.badge_with_key(key)?;
        let (_, person, revoked) = ledger.badge(credential)?;
        let name = state
            .0
            .registrations
            .bound_name(key)
            .map_or_else(|| person.to_string(), |n| n.as_str().to_string());
        let attending = ledger.medium_of(person).map(medium_code);
        let principals = ledger.remote_principals(person).iter().map(|p| p.as_str().to_string()).collect();
        Some(RemoteStatus {
            key: key.to_string(),
            fingerprint: key_fingerprint(key),
            person: person.to_string(),
            name,
            state: if revoked { "revoked" } else { "verified" }.to_string(),
            credential: Some(credential.0),
            attending,
            principals,
            heartbeat_seconds: heartbeat_seconds(ledger),
            lapsed: ledger.lapsed(person),
        })
    });
    if let Some(status) = bound {
        return Ok(status);
    }
    let pending = state.0.registrations.get(key).ok_or_else(unknown_registration)?;
    Ok(RemoteStatus {
        key: key.to_string(),
        fingerprint: key_fingerprint(key),
        person: pending.person.as_str().to_string(),
        name: pending.name.as_str().to_string(),
        state: "pending".to_string(),
        credential: None,
        attending: None,
        principals: Vec::new(),
        heartbeat_seconds: state.with_service(|service| heartbeat_seconds(service.state())),
        lapsed: false,
    })
}

/// The live remote credential of `key`.
fn remote_credential(ledger: &asamblea_ledger::State, key: &PublicKey) -> Result<CredentialId, ApiError> {
    let credential = ledger.badge_with_key(key).ok_or_else(unknown_registration)?;
    if !ledger.is_remote_credential(credential) {
        return Err(ApiError::rejected(&Rejection::CredentialChannel { credential, remote: false }));
    }
    match ledger.badge(credential) {
        Some((_, _, false)) => Ok(credential),
        _ => Err(ApiError::rejected(&Rejection::RevokedBadge(credential))),
    }
}

pub(super) fn unknown_registration() -> ApiError {
    ApiError::new(
        ErrorCode::UnknownRegistration,
        "No hay una inscripción con esa clave: inscríbase de nuevo desde este navegador.",
        "No registration with that key: register again from this browser.",
    )
}

/// A browser's public key in a path.
pub(super) fn browser_key(hex: &str) -> Result<PublicKey, ApiError> {
    PublicKey::from_hex(hex).map_err(|e| {
        ApiError::bad_request(
            format!("`key`: {} (la clave pública del navegador, 64 cifras hexadecimales)", e.spanish()),
            format!("`key`: {} (the browser's public key, 64 hex digits)", e.english()),
        )
    })
}

fn signature(hex: &str, field: &str) -> Result<Signature, ApiError> {
    Signature::from_slice(&unhex(hex, field)?).map_err(|e| {
        ApiError::bad_request(
            format!("`{field}` no es una firma ({})", e.spanish()),
            format!("`{field}`: {}", e.english()),
        )
    })
}

/// A signed event from the browser: decoded canonically and its
/// signature checked strictly (the ledger checks it again on admission).
fn signed_event(
    state: &AppState,
    event: &str,
    signer: &str,
    signature_hex: &str,
) -> Result<Signed, ApiError> {
    let bytes = unhex(event, "event")?;
    let event = Event::decode(&bytes).map_err(|e| {
        ApiError::bad_request(
            format!("`event` no es un evento canónico ({})", e.spanish()),
            format!("`event`: {}", e.english()),
        )
    })?;
    let signer = browser_key(signer)?;
    let signature = signature(signature_hex, "signature")?;
    signer
        .verify(&state.0.meeting_id, &bytes, &signature)
        .map_err(|_| ApiError::rejected(&Rejection::BadSignature))?;
    Ok(Signed { event, bytes, signer, signature })
}
