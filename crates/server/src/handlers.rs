//! The API's handlers. Each checks its caller first (see the table in
//! `server/mod.rs`), validates its input at the edge, and changes the
//! meeting only through signed ledger events.

use std::borrow::Cow;
use std::time::Duration;

use axum::body::Body as HttpBody;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use futures_util::stream;
use serde::Deserialize;
use serde_json::{json, Value};

use asamblea_ledger::{LedgerError, Rejection, Signed};
use asamblea_rules::{Capacity, Channel, Refusal, Role as HolderRole};
use asamblea_wire::{
    AgentArrival, CredentialId, Digest, Event, EventBody, Id, PublicKey, Receipt, Signature, Text,
};

use super::{ApiError, AppState};
use crate::tls::ClientCert;
use asamblea_venue::service::ActionError;
use asamblea_venue::staff::Role;

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
            Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(too_large()),
            Err(rejection) => Err(ApiError::bad_request(rejection.body_text())),
        }
    }
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
            return Err(ApiError::bad_request("Expected request with `Content-Type: application/json`"));
        }
        match axum::body::Bytes::from_request(req, state).await {
            Ok(bytes) => Ok(JsonBytes(bytes)),
            Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(too_large()),
            Err(rejection) => Err(ApiError::bad_request(rejection.body_text())),
        }
    }
}

pub(crate) fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload-too-large",
        format!("El cuerpo de la solicitud supera {} bytes.", super::MAX_BODY_BYTES),
        format!("The request body exceeds {} bytes.", super::MAX_BODY_BYTES),
    )
}

/// A staff member allowed on the route, extracted before the body is read:
/// an unauthenticated caller learns nothing about what the body must be.
pub(crate) struct StaffMember<R: Allowed>(
    /// The member's signing key.
    pub std::sync::Arc<asamblea_wire::Keypair>,
    /// The member's account name, for the log.
    pub String,
    std::marker::PhantomData<R>,
);

/// The roles a route lets in.
pub(crate) trait Allowed: Send + Sync {
    /// The roles.
    const ROLES: &'static [Role];
}

/// Registration.
pub(crate) struct OperatorOnly;
impl Allowed for OperatorOnly {
    const ROLES: &'static [Role] = &[Role::Operator];
}
/// The chair.
pub(crate) struct ChairOnly;
impl Allowed for ChairOnly {
    const ROLES: &'static [Role] = &[Role::Chair];
}
/// The desk's figures: the desk, and the secretary and auditor who write
/// and check the acta.
pub(crate) struct DeskReaders;
impl Allowed for DeskReaders {
    const ROLES: &'static [Role] = &[Role::Operator, Role::Secretary, Role::Auditor];
}
/// The secretary alone (who receives the written statements).
pub(crate) struct SecretaryOnly;
impl Allowed for SecretaryOnly {
    const ROLES: &'static [Role] = &[Role::Secretary];
}
/// Export.
pub(crate) struct SecretaryOrAuditor;
impl Allowed for SecretaryOrAuditor {
    const ROLES: &'static [Role] = &[Role::Secretary, Role::Auditor];
}

impl<R: Allowed> axum::extract::FromRequestParts<AppState> for StaffMember<R> {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Self, ApiError> {
        let peer =
            parts.extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip());
        let account = state.0.sign_in(&parts.headers, R::ROLES, peer)?;
        // A change that a session cookie authenticates carries the
        // session's CSRF token (`sessions`); a bearer token needs none.
        if crate::bearer(&parts.headers).is_none()
            && !matches!(parts.method, axum::http::Method::GET | axum::http::Method::HEAD)
        {
            let given = parts.headers.get(crate::sessions::CSRF_HEADER).and_then(|v| v.to_str().ok());
            let session = state.0.session(&parts.headers).map(|(_, session)| session);
            if !session.is_some_and(|s| given.is_some_and(|g| crate::sessions::csrf_matches(&s, g))) {
                return Err(ApiError::csrf());
            }
        }
        Ok(StaffMember(account.key.clone(), account.name.clone(), std::marker::PhantomData))
    }
}

/// An enrolled kiosk, by its client certificate, rate-limited; extracted
/// before the body is read.
pub(crate) struct Kiosk(pub std::sync::Arc<str>);

impl Kiosk {
    /// The kiosk's id (its certificate's common name).
    pub(crate) fn id(&self) -> &str {
        &self.0
    }
}

impl axum::extract::FromRequestParts<AppState> for Kiosk {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Self, ApiError> {
        // Taken, not cloned: nothing after the extractor reads it.
        let id =
            parts.extensions.remove::<ClientCert>().map(|c| c.kiosk_id).ok_or_else(ApiError::kiosk_only)?;
        state.0.rate_limit(&id)?;
        Ok(Kiosk(id))
    }
}

use asamblea_wire::hex::encode as hex;

fn unhex(text: &str, field: &str) -> Result<Vec<u8>, ApiError> {
    asamblea_wire::hex::decode(text)
        .ok_or_else(|| ApiError::bad_request(format!("`{field}` must be hexadecimal")))
}

fn id(text: &str, field: &str) -> Result<Id, ApiError> {
    Id::new(text).map_err(|e| ApiError::bad_request(format!("`{field}`: {e}")))
}

/// Runs `f` off the async threads without holding the meeting's lock
/// (it takes the lock itself, briefly, where it must).
async fn unlocked<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&AppState) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    healthy(state)?;
    let state = state.clone();
    tokio::task::spawn_blocking(move || f(&state)).await.map_err(|_| ApiError::internal())?
}

/// Runs a blocking action on the meeting off the async threads.
async fn blocking<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&mut asamblea_venue::service::Service) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    healthy(state)?;
    let state = state.clone();
    tokio::task::spawn_blocking(move || state.with_service(f)).await.map_err(|_| ApiError::internal())?
}

fn action_error(state: &AppState, e: ActionError) -> ApiError {
    match e {
        ActionError::Rejected(r) => ApiError::rejected(&r),
        ActionError::Ledger(l) => ledger_error(state, &l),
        ActionError::Other(e) => ApiError::bad_request(format!("{e:#}")),
    }
}

// ----- public ------------------------------------------------------------

/// The live status: meeting, quorum, items (turnout while open, results
/// once closed). Every figure is of durable events only: presence and
/// results change under the meeting's lock only once their commit
/// returned, and turnout counts the ballots whose commit returned
/// ([`crate::Inner::turnout`]), not those still on their way to the disk.
/// Once the ledger failed, the last status computed before stays the
/// status (with the failure named), since the state may hold what the file
/// never got.
pub(crate) fn status_json(state: &AppState) -> Value {
    state.with_service(|service| {
        let mut frozen = state.0.last_status.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(cause) = *state.0.failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) {
            let mut status = frozen.clone().unwrap_or_else(|| json!({}));
            status["ledger_failed"] = json!({ "cause": cause.code(), "message": cause.remedy_es(), "message_en": cause.remedy_en() });
            return status;
        }
        let turnout = state.0.turnout.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let meeting = service.meeting();
        let config = service.config();
        // The agenda as convened in the ledger, not as meeting.toml says
        // now: the file is read once, at `init`.
        let items: Vec<Value> = service
            .agenda()
            .iter()
            .map(|entry| {
                let id = entry.item.as_str();
                let rule = asamblea_documents::rule_text::rule_text(meeting.profile(), entry.matter, meeting.kind());
                let mut out = json!({
                    "id": id,
                    "title": entry.title.as_str(),
                    "matter": entry.matter.code(),
                    "matter_es": entry.matter.spanish(),
                    "matter_en": entry.matter.english(),
                    "rule_es": rule.es,
                    "rule_en": rule.en,
                    "rule_source": rule.source,
                });
                match meeting.item_index(id).map(|at| meeting.item(at)) {
                    None => out["state"] = json!("pending"),
                    Some(item) if !item.is_closed() => {
                        out["state"] = json!("open");
                        let (ballots, shares) = turnout.get(id).copied().unwrap_or((0, 0));
                        out["ballots"] = json!(ballots);
                        out["shares_voted"] = json!(shares);
                    }
                    Some(item) => {
                        out["state"] = json!("closed");
                        out["outcome_es"] = json!(asamblea_documents::explain::outcome_es(item));
                        out["result"] = asamblea_documents::results::item_json(meeting, item);
                        if let Some((es, en)) = asamblea_documents::explain::why(meeting, item) {
                            out["why_es"] = json!(es);
                            out["why_en"] = json!(en);
                        }
                        if let Some(asamblea_rules::ItemResult::Election(e)) = item.result() {
                            out["lists"] = asamblea_documents::explain::lists_json(item, e);
                            // The lots drawn at the close, each with the seed
                            // anyone can draw it again from (ledger-format §7.3).
                            let lots: Vec<Value> = service
                                .state()
                                .lots()
                                .iter()
                                .filter(|(lot_item, ..)| lot_item.as_str() == id)
                                .map(|(_, round, seed, winner)| {
                                    json!({ "round": round, "seed": seed.to_string(), "winner": winner.as_str() })
                                })
                                .collect();
                            if !lots.is_empty() {
                                out["lots"] = json!(lots);
                            }
                        }
                    }
                }
                out
            })
            .collect();
        let status = json!({
            "meeting": {
                "company": config.company,
                "date": config.date,
                "time": config.time,
                "place": config.place,
                "kind": config.kind.code(),
                "call": config.call.code(),
            },
            "quorum": quorum_json(meeting),
            "items": items,
            "head": state.0.signed_head.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone(),
        });
        *frozen = Some(status.clone());
        status
    })
}

/// The quorum now (`asamblea_documents::quorum`): the reading, the
/// first call's verdict, the threshold in words, presence by class, and
/// the series every poll's open and close recorded.
fn quorum_json(meeting: &asamblea_rules::Meeting) -> Value {
    use asamblea_documents::quorum;
    let reading = meeting.quorum();
    let rule = quorum::quorum_rule_text(meeting);
    let mut out = quorum::reading_json(&reading);
    out["first_call_met"] = json!(reading.first_call);
    out["threshold_es"] = json!(rule.es);
    out["threshold_en"] = json!(rule.en);
    out["threshold_source"] = json!(rule.source);
    out["minimum_shares"] = json!(quorum::minimum_shares(meeting));
    out["by_class"] = quorum::by_class_json(meeting, &meeting.presence_by_class());
    out["series"] = quorum::series_json(meeting);
    out
}

/// Refuses a read of the meeting's state once the ledger failed: the state
/// may hold events the file never got.
fn healthy(state: &AppState) -> Result<(), ApiError> {
    match *state.0.failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) {
        Some(_) => Err(ApiError::ledger_failed()),
        None => Ok(()),
    }
}

pub(crate) async fn status(State(state): State<AppState>) -> Json<Value> {
    Json(status_json(&state))
}

pub(crate) async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], include_str!("openapi.json")).into_response()
}

pub(crate) async fn not_found(uri: Uri) -> ApiError {
    ApiError::not_found(uri.path().to_string())
}

pub(crate) async fn result(
    State(state): State<AppState>,
    Path(item): Path<String>,
) -> Result<Json<Value>, ApiError> {
    state.with_service(|service| {
        healthy(&state)?;
        let meeting = service.meeting();
        let entry = meeting.item_index(&item).map(|at| meeting.item(at));
        match entry {
            Some(entry) if entry.is_closed() => {
                Ok(Json(asamblea_documents::results::item_json(meeting, entry)))
            }
            Some(_) => Err(ApiError::new(
                StatusCode::CONFLICT,
                "item-open",
                "La votación sigue abierta: el resultado se publica al cerrarla.",
                "Voting is still open: the result is published at the close.",
            )),
            None => Err(ApiError::not_found(format!("item {item}"))),
        }
    })
}

/// A receipt and the daemon's signature as the API answers them, written
/// directly (this is the ballot hot path's answer too).
fn receipt_response(receipt: &Receipt, signature: &Signature) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], crate::receipts::to_json(receipt, signature))
        .into_response()
}

pub(crate) async fn receipt(
    State(state): State<AppState>,
    Path(digest): Path<String>,
) -> Result<Response, ApiError> {
    let digest = Digest::from_hex(&digest).map_err(|e| ApiError::bad_request(format!("digest: {e}")))?;
    let (receipt, signature) = lookup_blocking(&state, digest)
        .await?
        .ok_or_else(|| ApiError::not_found("a ballot with that hash"))?;
    Ok(receipt_response(&receipt, &signature))
}

/// Checks a voter's receipt (the JSON the API answered the ballot with)
/// against the durable ledger, with the very check `asamblea verify
/// --receipts` makes on a bundle ([`receipt_borne_out`]). The board's
/// receipt page makes the same check; a voter who distrusts the daemon
/// checks the exported bundle.
pub(crate) async fn check_receipt(
    State(state): State<AppState>,
    Body(request): Body<Value>,
) -> Result<Json<Value>, ApiError> {
    let (receipt, signature) = crate::receipts::from_json(&request).map_err(ApiError::bad_request)?;
    match receipt_borne_out(&state, receipt, signature).await? {
        Ok(()) => Ok(Json(json!({
            "valid": true,
            "seq": receipt.seq,
            "message": crate::receipts::borne_out_es(receipt.seq),
            "message_en": crate::receipts::borne_out_en(receipt.seq),
        }))),
        Err(problem) => Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            problem.code(),
            crate::receipts::not_borne_out_es(problem),
            crate::receipts::not_borne_out_en(problem),
        )),
    }
}

/// Whether the durable ledger bears `receipt` out:
/// `asamblea_ledger::check_receipt` against the one record stored at its
/// number, read beside the writer. The signature is checked first, so a
/// receipt the daemon never signed costs no read of the ledger. The outer
/// error is a ledger that could not be read just now (503) or a stored
/// record that does not decode (500); neither stops anything.
pub(crate) async fn receipt_borne_out(
    state: &AppState,
    receipt: Receipt,
    signature: Signature,
) -> Result<Result<(), asamblea_ledger::ReceiptProblem>, ApiError> {
    let daemon_key = state.0.daemon.public_key();
    if receipt.verify(&state.0.meeting_id, &daemon_key, &signature).is_err() {
        return Ok(Err(asamblea_ledger::ReceiptProblem::NotSigned));
    }
    let inner = state.0.clone();
    let stored = tokio::task::spawn_blocking(move || {
        asamblea_ledger::record_at(&inner.ledger_path, &inner.meeting_id, receipt.seq)
    })
    .await
    .map_err(|_| ApiError::internal())?
    .map_err(|e| {
        if let LedgerError::BrokenChain { .. } = e {
            tracing::error!(error = %e, "un registro guardado no se lee / a stored record does not decode");
            return ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "ledger-broken",
                "Un evento guardado en el registro no se puede leer. Guarde su recibo y avise al revisor fiscal.",
                "A stored event of the ledger cannot be read. Keep your receipt and tell the statutory auditor.",
            );
        }
        tracing::warn!(error = %e, "no se pudo leer el registro para un recibo / could not read the ledger for a receipt");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "ledger-unreadable",
            "No se pudo leer el registro en este momento; intente de nuevo.",
            "The ledger could not be read just now; try again.",
        )
    })?;
    Ok(asamblea_ledger::check_receipt(&receipt, &signature, &state.0.meeting_id, &daemon_key, |_| stored))
}

/// The live feed (SSE): the status now, then every change. At most
/// [`crate::ServiceLimits::max_feeds`] at once; each lasts
/// [`crate::ServiceLimits::feed_max_age`] and then ends (the browser's
/// `EventSource` connects again by itself), so a subscriber gone silent
/// holds its slot that long at most.
pub(crate) async fn feed(State(state): State<AppState>) -> Result<Response, ApiError> {
    let Some(slot) = state.0.bounds.feed_slot() else {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too-many-subscribers",
            "El tablero en vivo tiene el máximo de suscriptores; vuelva a intentarlo en un momento.",
            "The live board has its maximum of subscribers; try again in a moment.",
        ));
    };
    let first = json!({ "type": "status", "status": status_json(&state) }).to_string();
    let subscription = crate::feed::Subscription::new(
        &state.0.feed,
        state.0.closing.subscribe(),
        state.0.bounds.feed_max_age(),
        slot,
    );
    let initial =
        stream::once(async move { Ok::<_, std::convert::Infallible>(SseEvent::default().data(first)) });
    let updates = stream::unfold(subscription, |mut subscription| async move {
        let text = subscription.next().await?;
        Some((Ok(SseEvent::default().data(&*text)), subscription))
    });
    Ok(Sse::new(futures_util::StreamExt::chain(initial, updates))
        .keep_alive(KeepAlive::default())
        .into_response())
}

pub(crate) async fn board_css() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], include_str!("board.css")).into_response()
}

pub(crate) async fn board_js() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("board.js")).into_response()
}

pub(crate) async fn reading_js() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("reading.js")).into_response()
}

pub(crate) async fn board() -> Html<&'static str> {
    Html(include_str!("board.html"))
}

// ----- operator ----------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckinRequest {
    holder: Option<String>,
    agent: Option<String>,
    #[serde(default)]
    represents: Vec<String>,
    #[serde(rename = "as")]
    capacity: Option<String>,
    agent_role: Option<String>,
    #[serde(default)]
    power_document: String,
    /// The desk found the agent's power wanting (Art. 184): record the
    /// refusal, admit nobody.
    #[serde(default)]
    power_rejected: bool,
}

/// The arrival a check-in request describes (in person, or an agent with
/// its principals), its fields checked.
fn arrival_body(request: &CheckinRequest) -> Result<EventBody, ApiError> {
    Ok(match (&request.holder, &request.agent) {
        (Some(holder), None) if request.represents.is_empty() => {
            EventBody::CheckedInPerson { holder: id(holder, "holder")? }
        }
        (None, Some(agent)) if !request.represents.is_empty() => {
            let mut principals =
                request.represents.iter().map(|p| id(p, "represents")).collect::<Result<Vec<_>, _>>()?;
            principals.sort();
            if principals.windows(2).any(|w| w[0] == w[1]) {
                return Err(ApiError::bad_request("`represents` names a holder twice"));
            }
            let capacity = match request.capacity.as_deref() {
                None | Some("proxy") => Capacity::Proxy,
                Some("legal-representative") => Capacity::LegalRepresentative,
                Some(other) => {
                    return Err(ApiError::bad_request(format!(
                        "`as` must be proxy or legal-representative, not `{other}`"
                    )))
                }
            };
            let declared_role = match request.agent_role.as_deref() {
                None => None,
                Some(code) => Some(HolderRole::from_code(code).ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "`agent_role` must be administrator or employee, not `{code}`"
                    ))
                })?),
            };
            let power_document = Text::new(&request.power_document)
                .map_err(|e| ApiError::bad_request(format!("`power_document`: {e}")))?;
            EventBody::CheckedInAgent(AgentArrival {
                agent: id(agent, "agent")?,
                principals,
                capacity,
                declared_role,
                power_document,
            })
        }
        _ => {
            return Err(ApiError::bad_request(
                "give `holder` (in person) or `agent` with `represents` (an agent), not both",
            ))
        }
    })
}

/// `POST /api/v1/checkins/check`: what the rules say of an arrival (R2:
/// who may carry whose shares), before the desk confirms it. Records
/// nothing: the real check-in records a refused proxy as `proxy-refused`.
pub(crate) async fn checkin_check(
    State(state): State<AppState>,
    StaffMember(_, _, _): StaffMember<OperatorOnly>,
    Body(request): Body<CheckinRequest>,
) -> Result<Json<Value>, ApiError> {
    let body = arrival_body(&request)?;
    blocking(&state, move |service| {
        let meeting = service.meeting();
        let verdict = match &body {
            EventBody::CheckedInPerson { holder } => match meeting.register().lookup(holder.as_str()) {
                None => Err(asamblea_rules::Refusal::UnknownHolder),
                Some(at) if meeting.presence().is_present(at) => Err(asamblea_rules::Refusal::AlreadyPresent),
                Some(_) => Ok(()),
            },
            EventBody::CheckedInAgent(arrival) => {
                let principals: Vec<&str> = arrival.principals.iter().map(Id::as_str).collect();
                meeting.check_arrival(
                    arrival.agent.as_str(),
                    &principals,
                    arrival.capacity,
                    arrival.declared_role,
                )
            }
            _ => unreachable!("arrival_body builds arrivals only"),
        };
        verdict.map_err(|refusal| ApiError::rejected(&Rejection::Rules(refusal)))?;
        Ok(Json(json!({
            "admissible": true,
            "message": "Las reglas admiten esta llegada: puede confirmarla.",
            "message_en": "The rules admit this arrival: you may confirm it.",
        })))
    })
    .await
}

pub(crate) async fn checkin(
    State(state): State<AppState>,
    StaffMember(key, staff, _): StaffMember<OperatorOnly>,
    Body(request): Body<CheckinRequest>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let body = arrival_body(&request)?;
    let state2 = state.clone();
    let (person, carried) = match &body {
        EventBody::CheckedInPerson { holder } => (holder.to_string(), 1),
        EventBody::CheckedInAgent(arrival) => (arrival.agent.to_string(), arrival.principals.len()),
        _ => unreachable!("built above"),
    };
    let power_rejected = request.power_rejected;
    if power_rejected && !matches!(body, EventBody::CheckedInAgent(_)) {
        return Err(ApiError::bad_request(
            "`power_rejected` is for an agent's arrival (`agent`, `represents`)",
        ));
    }
    let result = blocking(&state, move |service| {
        if let (true, EventBody::CheckedInAgent(arrival)) = (power_rejected, &body) {
            let appended = service.refuse_power_as(&key, arrival.clone()).map_err(|e| action_error(&state2, e))?;
            tracing::info!(event.seq = appended.seq, person.id = %person, staff.name = %staff, "poder rechazado / power refused");
            return Ok(json!({ "seq": appended.seq, "refused": "power-document-rejected" }));
        }
        let appended = match body {
            EventBody::CheckedInAgent(arrival) => service.check_in_agent_as(&key, arrival),
            body => service.staff_event_as(&key, body),
        }
        .map_err(|e| action_error(&state2, e))?;
        let quorum = service.meeting().quorum();
        tracing::info!(
            event.seq = appended.seq,
            person.id = %person,
            person.carries = carried,
            quorum.present_shares = quorum.present.get(),
            quorum.holders = quorum.holders,
            quorum.met = quorum.this_call,
            staff.name = %staff,
            "llegada registrada / checked in"
        );
        Ok(json!({
            "seq": appended.seq,
            "quorum": { "present_shares": quorum.present.get(), "holders": quorum.holders, "met": quorum.this_call },
        }))
    })
    .await?;
    state.publish_status();
    Ok((StatusCode::CREATED, Json(result)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PersonRequest {
    person: String,
}

pub(crate) async fn checkout(
    State(state): State<AppState>,
    StaffMember(key, staff, _): StaffMember<OperatorOnly>,
    Body(request): Body<PersonRequest>,
) -> Result<Json<Value>, ApiError> {
    let person = id(&request.person, "person")?;
    let state2 = state.clone();
    let seq = blocking(&state, move |service| {
        let seq = service
            .staff_event_as(&key, EventBody::CheckedOut { person: person.clone() })
            .map(|a| a.seq)
            .map_err(|e| action_error(&state2, e))?;
        let quorum = service.meeting().quorum();
        tracing::info!(
            event.seq = seq,
            person.id = %person,
            quorum.present_shares = quorum.present.get(),
            quorum.met = quorum.this_call,
            staff.name = %staff,
            "salida registrada / checked out"
        );
        Ok(seq)
    })
    .await?;
    state.publish_status();
    Ok(Json(json!({ "seq": seq })))
}

/// A badge to issue: the person, and the public key of a seed the desk
/// drew. The daemon never sees a badge's seed (ledger-format §9).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BadgeRequest {
    person: String,
    /// The badge's public key, 64 hex digits.
    key: String,
}

pub(crate) async fn issue_badge(
    State(state): State<AppState>,
    StaffMember(key, staff, _): StaffMember<OperatorOnly>,
    Body(request): Body<BadgeRequest>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let person = id(&request.person, "person")?;
    let badge_key = badge_key(&request.key)?;
    let state2 = state.clone();
    let out = blocking(&state, move |service| {
        let meeting = service.meeting();
        let carries = meeting.register().iter().any(|(at, holder)| match meeting.presence().channel(at) {
            Channel::InPerson => holder.id() == person.as_str(),
            Channel::Agent { agent, .. } => meeting.presence().agent_id(agent) == person.as_str(),
            Channel::Absent => false,
        });
        if !carries {
            return Err(ApiError::refused(Refusal::NotPresent));
        }
        // The same key for the same person again: the desk retrying a
        // request whose answer it lost. The badge stands; say its number.
        if let Some(number) = service.state().badge_with_key(&badge_key) {
            if let Some((_, holder, false)) = service.state().badge(number) {
                if holder == person.as_str() {
                    return Ok((StatusCode::OK, json!({ "credential": number.0, "person": person.as_str(), "key": badge_key.to_string() })));
                }
            }
        }
        let number = CredentialId(service.state().badges_issued() + 1);
        let appended = service
            .staff_event_as(&key, EventBody::BadgeIssued { credential: number, key: badge_key, person: person.clone() })
            .map_err(|e| action_error(&state2, e))?;
        tracing::info!(
            event.seq = appended.seq,
            badge.number = number.0,
            person.id = %person,
            staff.name = %staff,
            "credencial emitida / badge issued"
        );
        // The desk builds the QR from its seed and this number.
        Ok((StatusCode::CREATED, json!({ "seq": appended.seq, "credential": number.0, "person": person.as_str(), "key": badge_key.to_string() })))
    })
    .await?;
    Ok((out.0, Json(out.1)))
}

/// `POST /api/v1/badges/{credential}/reissue`: a lost badge replaced —
/// the old one revoked and a new one issued to the same person for the key
/// the desk drew, in one transaction (nothing between the two can be
/// lost: either both are in the ledger or neither).
pub(crate) async fn reissue_badge(
    State(state): State<AppState>,
    StaffMember(key, staff, _): StaffMember<OperatorOnly>,
    Path(credential): Path<String>,
    Body(request): Body<ReissueRequest>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let old = badge_number(&credential)?;
    let badge_key = badge_key(&request.key)?;
    let state2 = state.clone();
    let out = blocking(&state, move |service| {
        let (person, number, appended) = service
            .reissue_badge_as(&key, CredentialId(old), badge_key)
            .map_err(|e| action_error(&state2, e))?;
        tracing::info!(
            event.seq = appended.seq,
            badge.revoked = old,
            badge.number = number.0,
            person.id = %person,
            staff.name = %staff,
            "credencial repuesta / badge re-issued"
        );
        Ok(json!({ "seq": appended.seq, "credential": number.0, "revoked": old, "person": person, "key": badge_key.to_string() }))
    })
    .await?;
    state.publish_status();
    Ok((StatusCode::CREATED, Json(out)))
}

/// The body of a re-issue: the new badge's public key.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReissueRequest {
    key: String,
}

/// `GET /api/v1/badges/{credential}/layout`: the badge as it prints
/// (`asamblea_documents::badges::badge_svg_frame`), its QR square left
/// white for the desk's browser, which alone holds the seed.
pub(crate) async fn badge_layout(
    State(state): State<AppState>,
    StaffMember(_, _, _): StaffMember<OperatorOnly>,
    Path(credential): Path<String>,
) -> Result<Response, ApiError> {
    let number = badge_number(&credential)?;
    let svg = unlocked(&state, move |state| {
        let directory = Directory::of_state(state)?;
        state.with_service(|service| {
            let Some((_, person, revoked)) = service.state().badge(CredentialId(number)) else {
                return Err(ApiError::not_found(format!("badge {number}")));
            };
            if revoked {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "revoked-badge",
                    "Esa credencial fue revocada: imprima la que la reemplazó.",
                    "That badge was revoked: print the one that replaced it.",
                ));
            }
            let meeting = service.meeting();
            let name_of = |id: &str| {
                meeting
                    .register()
                    .lookup(id)
                    .map(|at| directory.name(at))
                    .filter(|n| !n.is_empty())
                    .unwrap_or(id)
                    .to_string()
            };
            let carried = service
                .attendees()
                .into_iter()
                .find(|a| a.person == person)
                .map(|a| a.carries)
                .unwrap_or_default();
            let represents: Vec<String> =
                carried.iter().filter(|h| h.as_str() != person).map(|h| name_of(h)).collect();
            let name = name_of(person);
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

/// A poll refused for want of quorum, with the figures and the threshold,
/// and what to do.
fn no_quorum(meeting: &asamblea_rules::Meeting) -> ApiError {
    use asamblea_documents::numfmt::{percent, thousands};
    let reading = meeting.quorum();
    let rule = asamblea_documents::quorum::quorum_rule_text(meeting);
    let (present, voting) = (reading.present.get(), reading.voting_outstanding.get());
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        Refusal::NoQuorum.code(),
        format!(
            "No hay quórum para abrir la votación: están presentes {} de {} acciones con derecho a voto ({}) y {} accionistas; \
             se necesita {} ({}). Registre más llegadas y vuelva a intentarlo.",
            thousands(present),
            thousands(voting),
            percent(present, voting),
            thousands(u64::from(reading.holders)),
            rule.es,
            rule.source
        ),
        format!(
            "No quorum to open the poll: {} of {} voting shares and {} holders present; it needs {}.",
            thousands(present),
            thousands(voting),
            reading.holders,
            rule.en
        ),
    )
}

/// A badge's public key as the desk sends it (64 hex digits).
fn badge_key(hex: &str) -> Result<PublicKey, ApiError> {
    PublicKey::from_hex(hex).map_err(|e| {
        ApiError::bad_request(format!(
            "`key`: {e} (the public key of the seed the desk drew, 64 hex digits; the seed itself never comes here)"
        ))
    })
}

/// A badge's number in a path.
fn badge_number(text: &str) -> Result<u32, ApiError> {
    text.parse().map_err(|_| ApiError::bad_request("the badge number must be a whole number"))
}

pub(crate) async fn revoke_badge(
    State(state): State<AppState>,
    StaffMember(key, staff, _): StaffMember<OperatorOnly>,
    Path(credential): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let number = badge_number(&credential)?;
    let state2 = state.clone();
    let seq = blocking(&state, move |service| {
        let seq = service
            .staff_event_as(&key, EventBody::BadgeRevoked { credential: CredentialId(number) })
            .map(|a| a.seq)
            .map_err(|e| action_error(&state2, e))?;
        tracing::info!(event.seq = seq, badge.number = number, staff.name = %staff, "credencial revocada / badge revoked");
        Ok(seq)
    })
    .await?;
    Ok(Json(json!({ "seq": seq, "revoked": number })))
}

pub(crate) async fn attendees(
    State(state): State<AppState>,
    StaffMember(_, _, _): StaffMember<OperatorOnly>,
) -> Result<Json<Value>, ApiError> {
    let list = blocking(&state, |service| {
        Ok(service
            .attendees()
            .into_iter()
            .map(|a| json!({ "person": a.person, "carries": a.carries, "badge": a.badge.map(|b| b.0) }))
            .collect::<Vec<Value>>())
    })
    .await?;
    Ok(Json(json!({ "attendees": list })))
}

/// `GET /api/v1/desk`: the registration desk's figures — who is present
/// in person, by proxy and by legal representative (holders, agents,
/// shares), every proxy refused with its reason (Art. 185), and badges
/// issued and revoked. Everything is read from the ledger's state, so the
/// figures are those `verify` re-derives.
pub(crate) async fn desk(
    State(state): State<AppState>,
    _staff: StaffMember<DeskReaders>,
) -> Result<Json<Value>, ApiError> {
    blocking(&state, |service| {
        let meeting = service.meeting();
        #[derive(Default)]
        struct Tally {
            holders: u32,
            shares: u64,
            agents: std::collections::HashSet<asamblea_rules::AgentIndex>,
        }
        let (mut in_person, mut proxy, mut legal) = (Tally::default(), Tally::default(), Tally::default());
        for (at, holder) in meeting.register().iter() {
            let shares = holder.holdings().total().get();
            let tally = match meeting.presence().channel(at) {
                Channel::Absent => continue,
                Channel::InPerson => &mut in_person,
                Channel::Agent { agent, capacity, .. } => {
                    let tally = if capacity == Capacity::Proxy { &mut proxy } else { &mut legal };
                    tally.agents.insert(agent);
                    tally
                }
            };
            tally.holders += 1;
            tally.shares += shares;
        }
        let figures =
            |t: &Tally| json!({ "holders": t.holders, "shares": t.shares, "agents": t.agents.len() });
        let refused: Vec<Value> = service
            .state()
            .refused_proxies()
            .iter()
            .map(|(arrival, reason)| {
                let (es, en) = match reason.rules_refusal() {
                    Some(refusal) => (refusal.spanish(), refusal.english()),
                    None => (
                        "El personal encontró el poder deficiente (art. 184 C.Co.).",
                        "The staff found the power of attorney wanting.",
                    ),
                };
                json!({
                    "agent": arrival.agent.as_str(),
                    "principals": arrival.principals.iter().map(Id::as_str).collect::<Vec<_>>(),
                    "capacity": arrival.capacity.code(),
                    "power_document": arrival.power_document.as_str(),
                    "reason": reason.code(),
                    "reason_es": es,
                    "reason_en": en,
                })
            })
            .collect();
        let issued = service.state().badges_issued();
        let revoked = service.state().badges_revoked();
        Ok(Json(json!({
            "in_person": figures(&in_person),
            "proxy": figures(&proxy),
            "legal_representative": figures(&legal),
            "refused": refused,
            "badges": { "issued": issued, "revoked": revoked, "live": issued - revoked },
        })))
    })
    .await
}

/// `GET /api/v1/holders?q=`: the registration desk's search.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HolderQuery {
    #[serde(default)]
    q: String,
}

/// Holders a search answers with, at most.
const HOLDERS_FOUND: usize = 20;

/// The register as the desk searches it: each holder's id and name, the
/// ids folded ([`fold`]), and every folded name in one text (one search
/// over it finds every name that holds the query: one scan, not one a
/// holder). Built on the first search (the names are read from
/// `register.csv`), then kept.
pub(crate) struct Directory {
    holders: Vec<(String, String, Box<str>)>,
    names: String,
    /// Where each holder's folded name starts in `names`.
    starts: Vec<usize>,
}

impl Directory {
    /// The daemon's directory, built on first use (call it off the async
    /// threads: it reads `register.csv` the first time).
    fn of_state(state: &AppState) -> Result<&Directory, ApiError> {
        if let Some(directory) = state.0.directory.get() {
            return Ok(directory);
        }
        let built = state
            .with_service(|service| Directory::of(service))
            .map_err(|e| ApiError::bad_request(format!("{e:#}")))?;
        Ok(state.0.directory.get_or_init(|| built))
    }

    fn of(service: &asamblea_venue::service::Service) -> anyhow::Result<Directory> {
        let mut by_id = service.holder_names()?;
        let mut directory = Directory { holders: Vec::new(), names: String::new(), starts: Vec::new() };
        for (_, holder) in service.meeting().register().iter() {
            let name = by_id.remove(holder.id()).unwrap_or_default();
            directory.starts.push(directory.names.len());
            // A name holds no line break (the register refuses control
            // characters): it separates one name from the next.
            directory.names.push_str(&fold(&name));
            directory.names.push('\n');
            directory.holders.push((holder.id().to_string(), name, fold(holder.id()).into_boxed_str()));
        }
        Ok(directory)
    }

    /// The name of the holder at `at` (the directory lists the register
    /// in its order).
    fn name(&self, at: asamblea_rules::HolderIndex) -> &str {
        self.holders.get(at.get()).map_or("", |(_, name, _)| name.as_str())
    }

    /// Which holders `wanted` (folded) finds: by the start of the id, or
    /// anywhere in the name.
    fn find(&self, wanted: &str) -> Vec<bool> {
        let mut hit: Vec<bool> = self.holders.iter().map(|(_, _, id)| id.starts_with(wanted)).collect();
        if !wanted.contains('\n') {
            for (offset, _) in self.names.match_indices(wanted) {
                let at = self.starts.partition_point(|&start| start <= offset) - 1;
                hit[at] = true;
            }
        }
        hit
    }
}

/// The register searched by id (its start) or name (any part of it), case
/// and accents aside: up to [`HOLDERS_FOUND`] holders, in register order,
/// each with its shares, role and whether it is present, and how many
/// matched in all. The scan needs no lock; only the few found are looked
/// up in the meeting (`asamblea bench-scale` times it at 131.000 holders).
pub(crate) async fn holders(
    State(state): State<AppState>,
    StaffMember(_, _, _): StaffMember<OperatorOnly>,
    query: Result<axum::extract::Query<HolderQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let axum::extract::Query(HolderQuery { q }) =
        query.map_err(|_| ApiError::bad_request("the query takes one parameter, `q`"))?;
    let wanted = fold(q.trim());
    if wanted.chars().count() > 64 {
        return Err(ApiError::bad_request("`q`: at most 64 characters"));
    }
    let found = unlocked(&state, move |state| {
        let directory = Directory::of_state(state)?;
        let found = directory.find(&wanted);
        let matched = found.iter().filter(|&&hit| hit).count();
        let hits: Vec<&str> = directory
            .holders
            .iter()
            .zip(&found)
            .filter(|(_, &hit)| hit)
            .take(HOLDERS_FOUND)
            .map(|((id, _, _), _)| id.as_str())
            .collect();
        let list: Vec<Value> = state.with_service(|service| {
            let meeting = service.meeting();
            hits.iter()
                .filter_map(|id| meeting.register().lookup(id))
                .map(|at| {
                    let mut holder = holder_json(meeting, at, directory);
                    // The live badge of whoever votes these shares: the
                    // holder in person, or the agent who carries them.
                    let person =
                        holder["via"].as_str().or(holder["id"].as_str()).unwrap_or_default().to_string();
                    let badge = meeting
                        .presence()
                        .is_present(at)
                        .then(|| service.state().badge_of(&person))
                        .flatten();
                    holder["badge"] = json!(badge.map(|b| b.0));
                    holder
                })
                .collect()
        });
        Ok(json!({ "holders": list, "matched": matched }))
    })
    .await?;
    Ok(Json(found))
}

/// A holder as the consoles list one: id, name, shares by class, role,
/// whether present, and the agent who carries them (`via`), if any.
fn holder_json(
    meeting: &asamblea_rules::Meeting,
    at: asamblea_rules::HolderIndex,
    directory: &Directory,
) -> Value {
    let holder = meeting.register().holder(at);
    let shares = holder.holdings();
    let via = match meeting.presence().channel(at) {
        asamblea_rules::Channel::Agent { agent, .. } => Some(meeting.presence().agent_id(agent)),
        _ => None,
    };
    json!({
        "id": holder.id(),
        "name": directory.name(at),
        "ordinary": shares.ordinary.get(),
        "preferred": shares.preferred.get(),
        "role": holder.role().map(asamblea_rules::Role::code),
        "present": meeting.presence().is_present(at),
        "via": via,
    })
}

/// Lower case, without the accents of Spanish names: "Peña" finds "pena".
fn fold(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'ä' | 'â' => 'a',
            'é' | 'è' | 'ë' | 'ê' => 'e',
            'í' | 'ì' | 'ï' | 'î' => 'i',
            'ó' | 'ò' | 'ö' | 'ô' => 'o',
            'ú' | 'ù' | 'ü' | 'û' => 'u',
            'ñ' => 'n',
            other => other,
        })
        .collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct KioskRequest {
    id: String,
}

pub(crate) async fn enroll_kiosk(
    State(state): State<AppState>,
    StaffMember(_, account, _): StaffMember<OperatorOnly>,
    Body(request): Body<KioskRequest>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let dir = state.with_service(|service| service.dir().to_path_buf());
    let id = request.id;
    let kiosk = id.clone();
    tokio::task::spawn_blocking(move || asamblea_pki::enroll_kiosk(&dir, &kiosk))
        .await
        .map_err(|_| ApiError::internal())?
        .map_err(|e| ApiError::bad_request(format!("{e:#}")))?;
    tracing::info!(kiosk.id = %id, staff.name = %account, "quiosco inscrito / kiosk enrolled");
    Ok((
        StatusCode::CREATED,
        Json(
            json!({ "kiosk": id, "certificate": format!("tls/kiosks/{id}.crt"), "key": format!("tls/kiosks/{id}.key") }),
        ),
    ))
}

pub(crate) async fn revoke_kiosk(
    State(state): State<AppState>,
    StaffMember(_, account, _): StaffMember<OperatorOnly>,
    Path(kiosk): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let registry = state.0.kiosks.clone();
    let id = kiosk.clone();
    tokio::task::spawn_blocking(move || registry.revoke(&id))
        .await
        .map_err(|_| ApiError::internal())?
        .map_err(|e| ApiError::bad_request(format!("{e:#}")))?;
    tracing::info!(kiosk.id = %kiosk, staff.name = %account, "quiosco revocado / kiosk revoked");
    Ok(Json(json!({ "revoked": kiosk })))
}

// ----- chair -------------------------------------------------------------

pub(crate) async fn open_item(
    State(state): State<AppState>,
    StaffMember(key, staff, _): StaffMember<ChairOnly>,
    Path(item): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let state2 = state.clone();
    let seq = blocking(&state, move |service| {
        let body = service.item_opened(&item).map_err(|e| ApiError::not_found(format!("{e:#}")))?;
        let seq = service.staff_event_as(&key, body).map(|a| a.seq).map_err(|e| match e {
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
            staff.name = %staff,
            "votación abierta / poll opened"
        );
        Ok(seq)
    })
    .await?;
    state.publish_status();
    Ok(Json(json!({ "seq": seq })))
}

pub(crate) async fn close_item(
    State(state): State<AppState>,
    StaffMember(key, staff, _): StaffMember<ChairOnly>,
    Path(item): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let state2 = state.clone();
    let item2 = item.clone();
    let out = blocking(&state, move |service| {
        let (checkpoint, signature) =
            service.close_item_as(&key, &item2).map_err(|e| action_error(&state2, e))?;
        let meeting = service.meeting();
        let at = meeting.item_index(&item2).expect("closed");
        let result = asamblea_documents::results::item_json(meeting, meeting.item(at));
        tracing::info!(
            event.seq = checkpoint.seq,
            item.id = %item2,
            result.outcome = result["outcome"].as_str().unwrap_or(""),
            result.figures = %result,
            chain.head = %hex(&checkpoint.head.0),
            staff.name = %staff,
            "votación cerrada / poll closed"
        );
        Ok(json!({
            "checkpoint": { "seq": checkpoint.seq, "head": hex(&checkpoint.head.0) },
            "signature": hex(&signature.0),
            "result": asamblea_documents::results::item_json(meeting, meeting.item(at)),
        }))
    })
    .await?;
    let _ = state.0.feed.send(crate::FeedMessage::now(
        "result",
        json!({ "type": "result", "item": item, "result": out["result"] }).to_string(),
    ));
    state.publish_status();
    Ok(Json(out))
}

// ----- secretary, auditor -------------------------------------------------

/// `GET /api/v1/minutes`: what the secretary records beside the results —
/// the administrators and employees of the register (C.Co Art. 185: they
/// may not carry others' shares as proxies, nor vote on the year-end
/// statements) with their shares and whether they are present; and, for
/// each closed item, the shares impeded and the holders who may withdraw
/// (derecho de retiro, R18: the absent and the dissenting) with names and
/// shares.
pub(crate) async fn minutes(
    State(state): State<AppState>,
    _staff: StaffMember<SecretaryOrAuditor>,
) -> Result<Json<Value>, ApiError> {
    let found = unlocked(&state, |state| {
        let directory = Directory::of_state(state)?;
        Ok(state.with_service(|service| {
            let meeting = service.meeting();
            let administrators: Vec<Value> = meeting
                .register()
                .iter()
                .filter(|(_, holder)| holder.role().is_some())
                .map(|(at, _)| holder_json(meeting, at, directory))
                .collect();
            let items: Vec<Value> = meeting
                .items()
                .iter()
                .filter_map(|item| match item.result() {
                    Some(asamblea_rules::ItemResult::Decision(d)) => Some(json!({
                        "id": item.id(),
                        "impeded": d.impeded.get(),
                        "withdrawal": d.withdrawal.as_ref().map(|list| {
                            list.iter().map(|&at| holder_json(meeting, at, directory)).collect::<Vec<_>>()
                        }),
                    })),
                    _ => None,
                })
                .collect();
            json!({ "administrators": administrators, "items": items })
        }))
    })
    .await?;
    Ok(Json(found))
}

/// A written statement as the secretary's form sends it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StatementRequest {
    item: String,
    person: String,
    text: String,
}

/// `POST /api/v1/statements`: a written statement (constancia) an
/// attendee handed in, recorded as a `statement-recorded` event signed by
/// the secretary. The words are kept as written, line breaks included
/// (Windows' `\r\n` read as one), without spaces at either end.
pub(crate) async fn record_statement(
    State(state): State<AppState>,
    StaffMember(key, staff, _): StaffMember<SecretaryOnly>,
    Body(request): Body<StatementRequest>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let item = id(&request.item, "item")?;
    let person = id(request.person.trim(), "person")?;
    let words = request.text.replace("\r\n", "\n");
    let text = asamblea_wire::Prose::new(words.trim()).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad-request",
            format!(
                "El texto de la constancia debe tener entre 1 y {} caracteres, sin tabulaciones ni otros caracteres de control ({e}).",
                asamblea_wire::limits::MAX_PROSE_LEN
            ),
            format!("`text`: {e}"),
        )
    })?;
    let state2 = state.clone();
    let seq = blocking(&state, move |service| {
        let appended = service
            .staff_event_as(&key, EventBody::StatementRecorded { item, person: person.clone(), text })
            .map_err(|e| action_error(&state2, e))?;
        tracing::info!(event.seq = appended.seq, person.id = %person, staff.name = %staff, "constancia registrada / statement recorded");
        Ok(appended.seq)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(json!({ "seq": seq }))))
}

/// `GET /api/v1/statements`: every written statement recorded, in order,
/// with the item's title and the author's name.
pub(crate) async fn statements(
    State(state): State<AppState>,
    _staff: StaffMember<SecretaryOrAuditor>,
) -> Result<Json<Value>, ApiError> {
    let found = unlocked(&state, |state| {
        let directory = Directory::of_state(state)?;
        Ok(state.with_service(|service| {
            let meeting = service.meeting();
            let list: Vec<Value> = service
                .state()
                .statements()
                .iter()
                .map(|statement| {
                    let title =
                        service.agenda().iter().find(|e| e.item == statement.item).map(|e| e.title.as_str());
                    let name =
                        meeting.register().lookup(statement.person.as_str()).map(|at| directory.name(at));
                    json!({
                        "item": statement.item.as_str(),
                        "title": title,
                        "person": statement.person.as_str(),
                        "name": name,
                        "text": statement.text.as_str(),
                    })
                })
                .collect();
            json!({ "statements": list })
        }))
    })
    .await?;
    Ok(Json(found))
}

pub(crate) async fn export(
    State(state): State<AppState>,
    _staff: StaffMember<SecretaryOrAuditor>,
) -> Result<Response, ApiError> {
    healthy(&state)?;
    // Read beside the writer, without the meeting's lock: ballots go on
    // while a large meeting's bundle is written.
    let dir =
        state.0.ledger_path.parent().map(std::path::Path::to_path_buf).ok_or_else(ApiError::internal)?;
    let bytes = tokio::task::spawn_blocking(move || {
        let mut bytes = Vec::new();
        asamblea_venue::service::MeetingFiles::export_to(&dir, &mut bytes).map(|_| bytes)
    })
    .await
    .map_err(|_| ApiError::internal())?
    .map_err(|e| ApiError::bad_request(format!("{e:#}")))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/octet-stream"),
            (header::CONTENT_DISPOSITION, "attachment; filename=\"asamblea.bundle\""),
        ],
        HttpBody::from(bytes),
    )
        .into_response())
}

// ----- kiosk -------------------------------------------------------------

/// `GET /api/v1/kiosk/badges/{credential}`: what a kiosk shows the
/// attendee who scanned this badge: who they are, the holders they carry
/// with their names and shares, and each open item with its title, its
/// options in words and, for each holder, the shares that vote on it or
/// why none do, in plain words (an administrator on the year-end
/// statements, preferred shares on an ordinary matter, already voted).
pub(crate) async fn ballot_sheet(
    State(state): State<AppState>,
    kiosk: Kiosk,
    Path(credential): Path<String>,
) -> Result<Json<Value>, ApiError> {
    tracing::debug!(kiosk.id = %kiosk.id(), "ballot sheet");
    let number = badge_number(&credential)?;
    let sheet = unlocked(&state, move |state| {
        let directory = Directory::of_state(state)?;
        state.with_service(|service| ballot_sheet_of(service, directory, CredentialId(number)))
    })
    .await?;
    Ok(Json(sheet))
}

fn ballot_sheet_of(
    service: &asamblea_venue::service::Service,
    directory: &Directory,
    credential: CredentialId,
) -> Result<Value, ApiError> {
    use asamblea_rules::{OptionIndex, Refusal};
    let (_, person, revoked) = service
        .state()
        .badge(credential)
        .ok_or_else(|| ApiError::rejected(&Rejection::UnknownBadge(credential)))?;
    if revoked {
        return Err(ApiError::rejected(&Rejection::RevokedBadge(credential)));
    }
    let meeting = service.meeting();
    let carried: Vec<_> = meeting
        .register()
        .iter()
        .filter(|(at, holder)| match meeting.presence().channel(*at) {
            Channel::InPerson => holder.id() == person,
            Channel::Agent { agent, .. } => meeting.presence().agent_id(agent) == person,
            Channel::Absent => false,
        })
        .collect();
    let person_name = meeting.register().lookup(person).map_or(person, |at| directory.name(at));
    let holders: Vec<Value> = carried
        .iter()
        .map(|(at, h)| json!({ "holder": h.id(), "name": directory.name(*at), "ORD": h.holdings().ordinary.get(), "PREF": h.holdings().preferred.get() }))
        .collect();
    let items: Vec<Value> = meeting
        .items()
        .iter()
        .filter(|item| !item.is_closed())
        .map(|item| {
            let at = meeting.item_index(item.id()).expect("listed");
            let title = service.agenda().iter().find(|e| e.item.as_str() == item.id()).map_or(item.id(), |e| e.title.as_str());
            let options: Vec<Value> = (0..item.option_count())
                .map(|o| {
                    let name = item.option_name(OptionIndex::list(o));
                    let election = matches!(item.options(), asamblea_rules::BallotOptions::Election { .. });
                    let (es, en) = match (election, name) {
                        (false, "for") => ("Sí", "Yes"),
                        (false, "against") => ("No", "No"),
                        (_, "blank") => ("En blanco", "Blank"),
                        (_, list) => (list, list),
                    };
                    json!({ "index": o, "es": es, "en": en })
                })
                .collect();
            let voters: Vec<Value> = carried
                .iter()
                .map(|(h, holder)| {
                    let verdict = meeting.check_cast(at, *h, &asamblea_rules::Ballot::Whole(Some(OptionIndex::list(0))));
                    let shares = meeting.shares_on(at, *h).get();
                    let (reason_es, reason_en) = match verdict {
                        Ok(()) => (None, None),
                        // Not eligible: either none of the holder's shares
                        // vote on this matter (preferred shares on an
                        // ordinary one), or an administrator or employee on
                        // a matter that bars them.
                        Err(Refusal::NotEligible) if shares == 0 => (
                            Some("Estas acciones son preferenciales: no votan este punto, solo los asuntos que la ley o los estatutos les reservan (Ley 222 de 1995, art. 63)."),
                            Some("These are preferred shares: they do not vote on this item, only on the matters the law or the bylaws reserve to them."),
                        ),
                        Err(Refusal::NotEligible) => (
                            Some("Un administrador o empleado de la sociedad no vota este punto (art. 185 del Código de Comercio): sus acciones no cuentan en la decisión."),
                            Some("An administrator or employee of the company does not vote on this item (Commercial Code, art. 185)."),
                        ),
                        Err(other) => (Some(other.spanish()), Some(other.english())),
                    };
                    json!({
                        "holder": holder.id(),
                        "name": directory.name(*h),
                        "shares": shares,
                        "may_vote": verdict.is_ok(),
                        "reason": verdict.err().map(|r| r.code()),
                        "reason_es": reason_es,
                        "reason_en": reason_en,
                    })
                })
                .collect();
            json!({ "id": item.id(), "title": title, "matter": item.matter().code(), "matter_es": item.matter().spanish(), "matter_en": item.matter().english(), "options": options, "holders": voters })
        })
        .collect();
    Ok(
        json!({ "credential": credential.0, "person": person, "name": person_name, "holders": holders, "open_items": items }),
    )
}

/// A ballot as a kiosk sends it. Its fields borrow from the request's
/// bytes (hexadecimal has nothing to unescape): the hot path copies
/// nothing it does not keep.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BallotRequest<'a> {
    /// The ballot event's canonical bytes, hex.
    #[serde(borrow)]
    event: Cow<'a, str>,
    /// The badge's public key, hex.
    #[serde(borrow)]
    signer: Cow<'a, str>,
    /// The signature, hex.
    #[serde(borrow)]
    signature: Cow<'a, str>,
}

pub(crate) async fn cast(
    State(state): State<AppState>,
    Kiosk(kiosk_id): Kiosk,
    JsonBytes(body): JsonBytes,
) -> Result<Response, ApiError> {
    tracing::debug!(kiosk.id = %kiosk_id, "ballot received");
    let request: BallotRequest<'_> = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("Failed to deserialize the JSON body: {e}")))?;
    let event = unhex(&request.event, "event")?;
    let signer = unhex(&request.signer, "signer")?;
    let signature = unhex(&request.signature, "signature")?;
    let (receipt, signature) = submit_ballot(&state, event, &signer, &signature).await?;
    Ok(receipt_response(&receipt, &signature))
}

/// The hot path of a ballot once its kiosk is let in: the same ballot
/// again gets its first receipt; otherwise it is decoded, its signature
/// checked strictly, admitted under the lock, group-committed, and
/// answered with the daemon's receipt once durable. What the handler and
/// `asamblea bench`'s pipeline ceiling both run ([`AppState::cast_ballot`]).
pub(crate) async fn submit_ballot(
    state: &AppState,
    bytes: Vec<u8>,
    signer: &[u8],
    signature: &[u8],
) -> Result<(Receipt, Signature), ApiError> {
    healthy(state)?;
    let digest = Digest::sha256(&bytes);
    if let Some(found) = lookup_blocking(state, digest).await? {
        return Ok(found);
    }
    let event = Event::decode(&bytes).map_err(|e| ApiError::bad_request(format!("`event`: {e}")))?;
    if !matches!(event.body, EventBody::Ballot(_)) {
        return Err(ApiError::bad_request("`event` must be a ballot"));
    }
    let signer =
        PublicKey::from_slice(signer).map_err(|e| ApiError::bad_request(format!("`signer`: {e}")))?;
    let signature =
        Signature::from_slice(signature).map_err(|e| ApiError::bad_request(format!("`signature`: {e}")))?;
    // Strict verification here, on the request's own thread: many run at
    // once; the admission under the lock that follows is short.
    signer
        .verify(&state.0.meeting_id, &bytes, &signature)
        .map_err(|_| ApiError::rejected(&Rejection::BadSignature))?;
    let EventBody::Ballot(ballot) = &event.body else { unreachable!("checked above") };
    let item = ballot.item.as_str().to_string();
    let (done, acknowledged) = tokio::sync::oneshot::channel();
    let holders: Vec<String> = ballot.votes.iter().map(|vote| vote.holder.as_str().to_string()).collect();
    let votes = u32::try_from(holders.len()).unwrap_or(u32::MAX);
    let queued = state.with_service(|service| {
        service.queue_ballot(
            Signed { event, bytes, signer, signature },
            Box::new(move |result| {
                let _ = done.send(result);
            }),
        )?;
        // What the ballot weighs: the shares its holders vote with on the
        // item (admitted, so every one is known and may vote).
        let meeting = service.meeting();
        let at = meeting.item_index(&item).ok_or(Rejection::Rules(Refusal::UnknownItem))?;
        Ok(holders
            .iter()
            .filter_map(|holder| meeting.register().lookup(holder))
            .map(|holder| meeting.shares_on(at, holder).get())
            .sum::<u64>())
    });
    let weight = match queued {
        Ok(weight) => weight,
        Err(Rejection::RepeatedNonce) => {
            // The same ballot, sent again while the first is being saved:
            // answer with the first one's receipt.
            for _ in 0..200 {
                if let Some(found) = lookup_blocking(state, digest).await? {
                    return Ok(found);
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            return Err(ApiError::rejected(&Rejection::RepeatedNonce));
        }
        Err(rejection) => return Err(ApiError::rejected(&rejection)),
    };
    // What follows the commit runs in a task of its own: if the kiosk goes
    // away while its ballot is being saved, the handler is dropped, but the
    // durable ballot still gets its receipt kept (for the retry) and its
    // place in the turnout.
    let state = state.clone();
    let finish = tokio::spawn(async move {
        let appended = match acknowledged.await {
            Ok(Ok(appended)) => appended,
            Ok(Err(error)) => return Err(ledger_error(&state, &error)),
            Err(_) => {
                let stopped = LedgerError::WriterStopped {
                    reason: "no answer".into(),
                    cause: asamblea_ledger::Cause::Other,
                };
                return Err(ledger_error(&state, &stopped));
            }
        };
        // Counted as the rules count them (`Item::ballots`): a vote per
        // holder, so an agent's ballot for three principals counts three,
        // and the figure is the same after a restart rebuilds it.
        let mut turnout = state.0.turnout.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let entry = turnout.entry(item).or_insert((0, 0));
        *entry = (entry.0 + votes, entry.1 + weight);
        drop(turnout);
        let receipt = Receipt { seq: appended.seq, head: appended.head, event: appended.event_digest };
        let signature = receipt.sign(&state.0.meeting_id, &state.0.daemon);
        state
            .0
            .receipts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(&digest, appended.seq);
        Ok((receipt, signature))
    });
    finish.await.map_err(|_| ApiError::internal())?
}

/// The receipt of a saved ballot, rebuilt from its record in the file and
/// signed now (see [`crate::Inner::receipts`]). Reads the file: call it
/// off the async threads.
fn lookup(
    state: &AppState,
    candidates: Vec<u64>,
    digest: &Digest,
) -> Result<Option<(Receipt, Signature)>, LedgerError> {
    for seq in candidates {
        if let Some((event, head)) =
            asamblea_ledger::record_at(&state.0.ledger_path, &state.0.meeting_id, seq)?
        {
            if event == *digest {
                let receipt = Receipt { seq, head, event };
                return Ok(Some((receipt, receipt.sign(&state.0.meeting_id, &state.0.daemon))));
            }
        }
    }
    Ok(None)
}

/// [`lookup`] on a blocking thread, when the index has a ballot that may
/// be it (for a new ballot, almost never: the hot path reads no file).
pub(crate) async fn lookup_blocking(
    state: &AppState,
    digest: Digest,
) -> Result<Option<(Receipt, Signature)>, ApiError> {
    let candidates =
        state.0.receipts.lock().unwrap_or_else(std::sync::PoisonError::into_inner).candidates(&digest);
    if candidates.is_empty() {
        return Ok(None);
    }
    let state = state.clone();
    tokio::task::spawn_blocking(move || lookup(&state, candidates, &digest))
        .await
        .map_err(|_| ApiError::internal())?
        .map_err(|e| {
            tracing::error!(error = %e, "no se pudo leer el registro para un recibo / cannot read the ledger for a receipt");
            ApiError::internal()
        })
}

fn ledger_error(state: &AppState, error: &LedgerError) -> ApiError {
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
