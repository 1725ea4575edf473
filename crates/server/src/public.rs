//! The public's routes: the live status and its feed, an item's result,
//! a voter's receipt and its check, the board's pages and assets, and the
//! API's own document. Nothing here needs a credential; nothing here
//! shows a running tally of an open poll.

use axum::extract::{Path, State};
use axum::http::{header, Uri};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use futures_util::stream;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use asamblea_api::public::{
    AgendaPlace, Candidate, FeedMessage, ItemResult, ItemState, ItemStatus, LedgerFailed, ListCandidates,
    Lot, MeetingInfo, ReceiptBorneOut, Session, SessionStep, SignedReceipt, Status, StatusMessage,
    StatusType,
};
use asamblea_api::{ErrorAnswer, ErrorCode};
use asamblea_wire::Digest;

use crate::access::Body;
use crate::callers::{get_page, post_page, Callers, Routes};
use crate::meeting::healthy;
use crate::{ApiError, AppState};

/// The public's routes: the API, and the board's pages and assets.
pub(crate) fn routes() -> Vec<Routes> {
    vec![
        Routes::api(
            Callers::Public,
            OpenApiRouter::new()
                .routes(routes!(status))
                .routes(routes!(feed))
                .routes(routes!(result))
                .routes(routes!(crate::counted::list))
                .routes(routes!(receipt))
                .routes(routes!(check_receipt)),
        )
        .on_internet(),
        Routes::pages(
            Callers::Public,
            vec![
                get_page("/", board),
                get_page("/assets/board.css", board_css),
                get_page("/assets/board.js", board_js),
                get_page("/assets/reading.js", reading_js),
                get_page("/assets/words.js", words_js),
                // The board as the projector view (board.js reads the path).
                get_page("/proyeccion", board),
                get_page("/papeletas", crate::counted::page),
                get_page("/recibo", crate::receipt_page::form),
                post_page("/recibo", crate::receipt_page::check),
            ],
        )
        .on_internet(),
    ]
}

/// The live status: meeting, quorum, items (turnout while open, results
/// once closed). Every figure is of durable events: presence and results
/// change under the meeting's lock only once their commit returned, and
/// turnout counts the ballots whose commit returned
/// ([`crate::Inner::turnout`]), not those still on their way to the disk.
/// Once the ledger failed, the last status computed before stays the
/// status (with the failure named), since the state may hold what the file
/// never got.
pub(crate) fn status_now(state: &AppState) -> Status {
    state.with_service(|service| {
        let mut frozen = state.0.last_status.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(cause) = *state.0.failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) {
            let failed = LedgerFailed {
                cause: cause.code().to_string(),
                message: cause.remedy_es().to_string(),
                message_en: cause.remedy_en().to_string(),
            };
            return match frozen.clone() {
                Some(mut status) => {
                    status.ledger_failed = Some(failed);
                    status
                }
                None => Status {
                    meeting: meeting_info(service.config()),
                    quorum: asamblea_documents::quorum::now(service.meeting()),
                    items: Vec::new(),
                    head: None,
                    ledger_failed: Some(failed),
                    agenda: Vec::new(),
                    session: Session::default(),
                },
            };
        }
        let turnout = state.0.turnout.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let meeting = service.meeting();
        // The agenda as convened in the ledger, not as meeting.toml says
        // now: the file is read once, at `init`.
        let items = service
            .agenda()
            .iter()
            .map(|entry| {
                let id = entry.item.as_str();
                let rule =
                    asamblea_documents::rule_text::rule_text(meeting.profile(), entry.matter, meeting.kind());
                let mut out = ItemStatus {
                    id: id.to_string(),
                    title: entry.title.as_str().to_string(),
                    matter: entry.matter.code().to_string(),
                    matter_es: entry.matter.spanish().to_string(),
                    matter_en: entry.matter.english().to_string(),
                    rule_es: rule.es,
                    rule_en: rule.en,
                    rule_source: rule.source,
                    state: ItemState::Pending,
                    ballots: None,
                    shares_voted: None,
                    opened_at_ms: service.state().opened_at(id),
                    min_countdown_ms: None,
                    close_announced_at_ms: service.state().announcement(id).map(|a| a.time_ms),
                    close_countdown_ms: service.state().announcement(id).map(|a| a.countdown_ms),
                    closes_from_ms: None,
                    outcome_es: None,
                    result: None,
                    why_es: None,
                    why_en: None,
                    lists: None,
                    lots: None,
                    candidates: candidates_of(service.state(), entry),
                    elected: None,
                    election_base: None,
                };
                match meeting.item_index(id).map(|at| meeting.item(at)) {
                    None => {}
                    Some(item) if !item.is_closed() => {
                        out.state = ItemState::Open;
                        let (ballots, shares) = turnout.get(id).copied().unwrap_or((0, 0));
                        out.ballots = Some(ballots);
                        out.shares_voted = Some(shares);
                        // The poll's timing (rules.md §11.5): what the
                        // chair may announce and when the close is allowed.
                        out.min_countdown_ms = service.state().poll_timing().map(|t| t.min_countdown_ms);
                        out.closes_from_ms = service.state().earliest_close(id);
                    }
                    Some(item) => {
                        out.state = ItemState::Closed;
                        out.outcome_es = Some(asamblea_documents::explain::outcome_es(item));
                        out.result = Some(asamblea_documents::results::item_result(meeting, item));
                        if let Some((es, en)) = asamblea_documents::explain::why(meeting, item) {
                            out.why_es = Some(es);
                            out.why_en = Some(en);
                        }
                        if let Some(asamblea_rules::ItemResult::Election(e)) = item.result() {
                            out.lists = Some(asamblea_documents::explain::lists(item, e));
                            out.elected = out
                                .candidates
                                .as_ref()
                                .map(|lists| asamblea_documents::explain::elected(e, lists));
                            out.election_base =
                                Some(asamblea_documents::explain::election_base(item, e).get());
                            // The lots drawn at the close, each with the seed
                            // anyone can draw it again from (ledger-format §7.3).
                            let lots: Vec<Lot> = service
                                .state()
                                .lots()
                                .iter()
                                .filter(|(lot_item, ..)| lot_item.as_str() == id)
                                .map(|(_, round, seed, winner)| Lot {
                                    round: *round,
                                    seed: seed.to_string(),
                                    winner: winner.as_str().to_string(),
                                })
                                .collect();
                            out.lots = (!lots.is_empty()).then_some(lots);
                        }
                    }
                }
                out
            })
            .collect();
        let status = Status {
            meeting: meeting_info(service.config()),
            quorum: asamblea_documents::quorum::now(meeting),
            items,
            head: state.0.signed_head.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone(),
            ledger_failed: None,
            agenda: whole_agenda(service.state()),
            session: session(service.state()),
        };
        *frozen = Some(status.clone());
        status
    })
}

/// An election's lists with the candidates `agenda-convened` recorded.
pub(crate) fn candidates_of(
    state: &asamblea_ledger::State,
    item: &asamblea_wire::AgendaItem,
) -> Option<Vec<ListCandidates>> {
    let candidates = state.whole_agenda()?.iter().find_map(|entry| match entry {
        asamblea_wire::AgendaEntry::Voted { item: id, candidates } if *id == item.item => Some(candidates),
        _ => None,
    })?;
    (!candidates.is_empty()).then(|| {
        item.lists
            .iter()
            .zip(candidates)
            .map(|(list, people)| ListCandidates {
                list: list.as_str().to_string(),
                candidates: people
                    .iter()
                    .map(|c| Candidate {
                        principal: c.principal.as_str().to_string(),
                        suplente: c.suplente.as_str().to_string(),
                        words: asamblea_documents::explain::candidate_words(
                            c.principal.as_str(),
                            c.suplente.as_str(),
                        ),
                    })
                    .collect(),
            })
            .collect()
    })
}

/// The whole agenda in its order, informative items in their place.
pub(crate) fn whole_agenda(state: &asamblea_ledger::State) -> Vec<AgendaPlace> {
    let Some(entries) = state.whole_agenda() else { return Vec::new() };
    entries
        .iter()
        .map(|entry| match entry {
            asamblea_wire::AgendaEntry::Voted { item, .. } => AgendaPlace {
                id: item.as_str().to_string(),
                title: state
                    .agenda()
                    .iter()
                    .find(|a| a.item == *item)
                    .map_or_else(String::new, |a| a.title.as_str().to_string()),
                informative: false,
            },
            asamblea_wire::AgendaEntry::Informative { item, title } => AgendaPlace {
                id: item.as_str().to_string(),
                title: title.as_str().to_string(),
                informative: true,
            },
        })
        .collect()
}

/// The sessions as the ledger recorded them.
pub(crate) fn session(state: &asamblea_ledger::State) -> Session {
    use asamblea_api::public::{SessionState as S, SessionStepCode as C};
    let code = |step| match step {
        asamblea_rules::SessionStep::Installed => C::Installed,
        asamblea_rules::SessionStep::Suspended => C::Suspended,
        asamblea_rules::SessionStep::Resumed => C::Resumed,
        asamblea_rules::SessionStep::Adjourned => C::Adjourned,
    };
    Session {
        state: match state.sessions().state() {
            asamblea_rules::SessionState::NotInstalled => S::NotInstalled,
            asamblea_rules::SessionState::InSession => S::InSession,
            asamblea_rules::SessionState::Suspended => S::Suspended,
            asamblea_rules::SessionState::Adjourned => S::Adjourned,
        },
        steps: state
            .session_log()
            .iter()
            .map(|record| SessionStep {
                step: code(record.step),
                seq: record.seq,
                at_ms: record.time_ms,
                note: record.note.clone(),
                quorum: asamblea_documents::quorum::reading(&record.quorum),
            })
            .collect(),
    }
}

/// The meeting as its file convened it.
fn meeting_info(config: &asamblea_venue::meeting_config::MeetingConfig) -> MeetingInfo {
    MeetingInfo {
        company: config.company.clone(),
        date: config.date.clone(),
        time: config.time.clone(),
        place: config.place.clone(),
        kind: config.kind.code().to_string(),
        call: config.call.code().to_string(),
        modality: config.modality.code().to_string(),
        remote: config.remote.as_ref().map(|r| asamblea_api::public::RemoteChannel {
            medium: r.medium.clone(),
            access: r.access.clone(),
            identity_check: r.identity_check.clone(),
            floor: r.floor.clone(),
            identity_delegated: r.identity_delegated,
        }),
    }
}

/// The live status: the meeting, the quorum, every agenda item.
#[utoipa::path(get, path = "/api/v1/status", tag = "public",
    responses((status = 200, description = "The status now / el estado actual", body = Status)))]
pub(crate) async fn status(State(state): State<AppState>) -> Json<Status> {
    Json(status_now(&state))
}

/// Any other path.
pub(crate) async fn not_found(uri: Uri) -> ApiError {
    ApiError::not_found(format!("la ruta {}", uri.path()), format!("route {}", uri.path()))
}

/// A closed item's result, in FORMAT.md's shape.
#[utoipa::path(get, path = "/api/v1/results/{item}", tag = "public",
    params(("item" = asamblea_api::formats::Identifier, Path, description = "The item's id")),
    responses(
        (status = 200, description = "The result", body = ItemResult),
        (status = 404, description = "`not-found`: no such item", body = ErrorAnswer),
        (status = 409, description = "`item-open`: its poll is open; or never opened", body = ErrorAnswer),
        (status = 503, description = "`ledger-failure`", body = ErrorAnswer),
    ))]
pub(crate) async fn result(
    State(state): State<AppState>,
    Path(item): Path<String>,
) -> Result<Json<ItemResult>, ApiError> {
    state.with_service(|service| {
        healthy(&state)?;
        let meeting = service.meeting();
        let entry = meeting.item_index(&item).map(|at| meeting.item(at));
        let on_agenda = service.agenda().iter().any(|e| e.item.as_str() == item);
        match entry {
            Some(entry) if entry.is_closed() => {
                Ok(Json(asamblea_documents::results::item_result(meeting, entry)))
            }
            Some(_) => Err(ApiError::new(
                ErrorCode::ItemOpen,
                "La votación sigue abierta: el resultado se publica al cerrarla.",
                "Voting is still open: the result is published at the close.",
            )),
            None if on_agenda => Err(ApiError::new(
                ErrorCode::ItemOpen,
                "Este punto aún no se ha sometido a votación: el resultado se publica al cerrarla.",
                "This item has not been put to the vote yet: the result is published at the close.",
            )),
            None => Err(ApiError::not_found(format!("el punto «{item}»"), format!("item `{item}`"))),
        }
    })
}

/// A counted ballot's receipt again, by the SHA-256 of its event.
#[utoipa::path(get, path = "/api/v1/receipts/{digest}", tag = "public",
    params(("digest" = asamblea_api::formats::Hex32, Path, description = "The ballot event's SHA-256, 64 hex digits")),
    responses(
        (status = 200, description = "The receipt", body = SignedReceipt),
        (status = 400, description = "`bad-request`: not 64 hex digits", body = ErrorAnswer),
        (status = 404, description = "`not-found`: no ballot with that hash", body = ErrorAnswer),
    ))]
pub(crate) async fn receipt(
    State(state): State<AppState>,
    Path(digest): Path<String>,
) -> Result<Response, ApiError> {
    let digest = Digest::from_hex(&digest).map_err(|e| {
        ApiError::bad_request(
            format!("el resumen debe tener 64 cifras hexadecimales ({})", e.spanish()),
            format!("the digest must be 64 hex digits ({})", e.english()),
        )
    })?;
    let (receipt, signature) = crate::ballots::lookup_blocking(&state, digest)
        .await?
        .ok_or_else(|| ApiError::not_found("una papeleta con ese resumen", "a ballot with that hash"))?;
    Ok(crate::ballots::receipt_response(&receipt, &signature))
}

/// Checks a voter's receipt (the JSON the API answered the ballot with)
/// against the durable ledger, with the very check `asamblea verify
/// --receipts` makes on a bundle (`ballots::receipt_borne_out`). The board's
/// receipt page makes the same check; a voter who distrusts the daemon
/// checks the exported bundle.
#[utoipa::path(post, path = "/api/v1/receipts/check", tag = "public",
    request_body = SignedReceipt,
    responses(
        (status = 200, description = "The ledger bears it out", body = ReceiptBorneOut),
        (status = 400, description = "`bad-request`: not a receipt", body = ErrorAnswer),
        (status = 422, description = "`receipt-not-signed`, `ledger-cut-short`, `ledger-rewritten`, `ledger-rechained`", body = ErrorAnswer),
        (status = 503, description = "`ledger-unreadable`", body = ErrorAnswer),
    ))]
pub(crate) async fn check_receipt(
    State(state): State<AppState>,
    Body(request): Body<SignedReceipt>,
) -> Result<Json<ReceiptBorneOut>, ApiError> {
    let (receipt, signature) =
        crate::receipts::from_api(&request).map_err(|(es, en)| ApiError::bad_request(es, en))?;
    match crate::ballots::receipt_borne_out(&state, receipt, signature).await? {
        Ok(()) => Ok(Json(ReceiptBorneOut {
            valid: true,
            seq: receipt.seq,
            message: crate::receipts::borne_out_es(receipt.seq),
            message_en: crate::receipts::borne_out_en(receipt.seq),
        })),
        Err(problem) => Err(ApiError::new(
            crate::receipts::problem_code(problem),
            crate::receipts::not_borne_out_es(problem),
            crate::receipts::not_borne_out_en(problem),
        )),
    }
}

/// The live feed (SSE): the status now, then every change. At most
/// [`crate::ServiceLimits::max_feeds`] at once; each lasts
/// [`crate::ServiceLimits::feed_max_age`] and then ends (the browser's
/// `EventSource` connects again by itself), so a subscriber gone silent
/// holds its slot that long at most.
#[utoipa::path(get, path = "/api/v1/feed", tag = "public",
    responses(
        (status = 200, description = "Server-sent events; each event's data is a FeedMessage as JSON", content_type = "text/event-stream", body = FeedMessage),
        (status = 503, description = "`too-many-subscribers`", body = ErrorAnswer),
    ))]
pub(crate) async fn feed(State(state): State<AppState>) -> Result<Response, ApiError> {
    let Some(slot) = state.0.bounds.feed_slot() else {
        return Err(ApiError::new(
            ErrorCode::TooManySubscribers,
            "El tablero en vivo tiene el máximo de suscriptores; vuelva a intentarlo en un momento.",
            "The live board has its maximum of subscribers; try again in a moment.",
        ));
    };
    let first = status_message(&state);
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

/// The feed's status message now, as JSON text.
pub(crate) fn status_message(state: &AppState) -> String {
    feed_text(&FeedMessage::Status(Box::new(StatusMessage {
        kind: StatusType::Status,
        status: status_now(state),
    })))
}

/// A feed message as the JSON text an event carries.
pub(crate) fn feed_text(message: &FeedMessage) -> String {
    serde_json::to_string(message).expect("a feed message serializes")
}

async fn board_css() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], include_str!("board.css")).into_response()
}

async fn board_js() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("board.js")).into_response()
}

async fn reading_js() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("reading.js")).into_response()
}

/// `GET /assets/words.js`: the figures of a decision in the law's words
/// (`asamblea_documents::explain::FIGURES`) as one constant every page's
/// script reads (`FIGURES.for.es` is `A favor`), so that the board, the
/// projector and the consoles say what the acta says, written once.
async fn words_js() -> Response {
    let figures: serde_json::Map<String, serde_json::Value> = asamblea_documents::explain::FIGURES
        .iter()
        .map(|f| (f.key.to_string(), serde_json::json!({ "es": f.es, "en": f.en })))
        .collect();
    let script = format!(
        "// The figures of a decision in the law's words, from asamblea_documents::explain::FIGURES.\n\
         \"use strict\";\nconst FIGURES = Object.freeze({});\n",
        serde_json::Value::Object(figures)
    );
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], script).into_response()
}

async fn board() -> Html<&'static str> {
    Html(include_str!("board.html"))
}
