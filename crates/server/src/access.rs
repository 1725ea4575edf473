//! Who a request comes from, decided before its body is read, and the
//! extractors every handler shares: the staff member a route's roles let
//! in ([`Staff`]), the enrolled kiosk ([`Kiosk`]), and JSON bodies whose
//! rejections are [`ApiError`]s ([`Body`], [`JsonBytes`]).
//!
//! The roles of a route are written once, in its caller's route table
//! (`routes`); [`staff_gate`] and [`kiosk_gate`] are the layers that
//! table puts in front of each route, and the extractors only read what
//! the gate found. A handler reached without its gate answers
//! `internal`: the role test (every route, every caller) would see it.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;

use asamblea_venue::staff::Role;

use crate::tls::ClientCert;
use crate::{ApiError, AppState};

/// The staff member a route let in: the member's signing key, account
/// name and role.
#[derive(Clone)]
pub(crate) struct Staff {
    /// The member's signing key: every change is an event signed with it.
    pub key: Arc<asamblea_wire::Keypair>,
    /// The account's name, for the log.
    pub name: String,
}

/// The enrolled kiosk of a request, by its client certificate, already
/// rate-limited.
#[derive(Clone)]
pub(crate) struct Kiosk(pub Arc<str>);

/// The bearer token of a request, if it carries one.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
}

/// The client's address, where the serving layer recorded it.
pub(crate) fn peer(parts_extensions: &axum::http::Extensions) -> Option<IpAddr> {
    parts_extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip())
}

/// The layer in front of a staff route: a bearer token or a session
/// cookie of one of `roles` (counted against the address's sign-in
/// failures), and for a change made with a cookie, the session's CSRF
/// token. Lets the request on with its [`Staff`].
pub(crate) async fn staff_gate(
    State((state, roles)): State<(AppState, &'static [Role])>,
    mut request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    let account = match state.0.sign_in(headers, roles, peer(request.extensions())) {
        Ok(account) => account,
        Err(error) => return error.into_response(),
    };
    if bearer(headers).is_none() && !matches!(*request.method(), Method::GET | Method::HEAD) {
        let given = headers.get(crate::sessions::CSRF_HEADER).and_then(|v| v.to_str().ok());
        let session = state.0.session(headers).map(|(_, session)| session);
        if !session.is_some_and(|s| given.is_some_and(|g| crate::sessions::csrf_matches(&s, g))) {
            return ApiError::csrf().into_response();
        }
    }
    let staff = Staff { key: account.key.clone(), name: account.name.clone() };
    request.extensions_mut().insert(staff);
    next.run(request).await
}

/// The layer in front of a kiosk route: an enrolled kiosk's certificate
/// (the serving layer checked it and that it is not revoked), and a token
/// from that kiosk's bucket.
pub(crate) async fn kiosk_gate(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    // Taken, not cloned: nothing after the gate reads it.
    let Some(cert) = request.extensions_mut().remove::<ClientCert>() else {
        return ApiError::kiosk_only().into_response();
    };
    if let Err(error) = state.0.rate_limit(&cert.kiosk_id) {
        return error.into_response();
    }
    request.extensions_mut().insert(Kiosk(cert.kiosk_id));
    next.run(request).await
}

impl<S: Send + Sync> FromRequestParts<S> for Staff {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        parts.extensions.remove::<Staff>().ok_or_else(ungated)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Kiosk {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        parts.extensions.remove::<Kiosk>().ok_or_else(ungated)
    }
}

/// A handler reached without the gate its route table puts before it: a
/// mistake in this crate, never the caller's.
fn ungated() -> ApiError {
    ApiError::internal("ruta sin control de acceso / a route without its gate", &"no gate")
}

/// A JSON body whose rejections are [`ApiError`]s.
pub(crate) struct Body<T>(pub T);

impl<S, T> FromRequest<S> for Body<T>
where
    Json<T>: FromRequest<S, Rejection = JsonRejection>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(json_rejection(&rejection)),
        }
    }
}

/// What a refused JSON body was, in both languages.
fn json_rejection(rejection: &JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => not_json(),
        JsonRejection::JsonSyntaxError(e) => ApiError::bad_request(
            format!("el cuerpo no es JSON válido ({})", e.body_text()),
            format!("the body is not valid JSON ({})", e.body_text()),
        ),
        JsonRejection::JsonDataError(e) => ApiError::bad_request(
            format!("el JSON no tiene la forma que esta ruta recibe ({})", e.body_text()),
            format!("the JSON is not what this route takes ({})", e.body_text()),
        ),
        other if other.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => too_large(),
        other => ApiError::bad_request(
            format!("no se pudo leer el cuerpo ({})", other.body_text()),
            format!("the body could not be read ({})", other.body_text()),
        ),
    }
}

/// A body not declared as JSON.
fn not_json() -> ApiError {
    ApiError::bad_request(
        "envíe el cuerpo con «Content-Type: application/json»",
        "send the body with `Content-Type: application/json`",
    )
}

/// A JSON body left as its bytes, for a handler that parses it borrowing
/// from them; refused like [`Body`] (413 when too large, 400 when it is
/// not declared as JSON).
pub(crate) struct JsonBytes(pub axum::body::Bytes);

impl<S: Send + Sync> FromRequest<S> for JsonBytes {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let declared_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(';').next())
            .map(str::trim)
            .is_some_and(|mime| {
                // `application/json` or `application/…+json`, as axum's `Json`.
                let mime = mime.as_bytes();
                mime.len() >= 16
                    && mime[..12].eq_ignore_ascii_case(b"application/")
                    && (mime[12..].eq_ignore_ascii_case(b"json")
                        || mime[mime.len() - 5..].eq_ignore_ascii_case(b"+json"))
            });
        if !declared_json {
            return Err(not_json());
        }
        match axum::body::Bytes::from_request(req, state).await {
            Ok(bytes) => Ok(JsonBytes(bytes)),
            Err(rejection) if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => {
                Err(too_large())
            }
            Err(rejection) => Err(ApiError::bad_request(
                format!("no se pudo leer el cuerpo ({})", rejection.body_text()),
                format!("the body could not be read ({})", rejection.body_text()),
            )),
        }
    }
}

/// A body over [`crate::MAX_BODY_BYTES`].
pub(crate) fn too_large() -> ApiError {
    ApiError::new(
        asamblea_api::ErrorCode::PayloadTooLarge,
        format!("El cuerpo de la solicitud supera {} bytes.", crate::MAX_BODY_BYTES),
        format!("The request body exceeds {} bytes.", crate::MAX_BODY_BYTES),
    )
}

/// A query string refused: `takes` says what the route takes.
pub(crate) fn bad_query(es: &str, en: &str) -> ApiError {
    ApiError::bad_request(format!("la consulta solo admite {es}"), format!("the query takes {en}"))
}
