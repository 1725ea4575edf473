//! The secretary's routes (and the auditor's, who reads what the secretary
//! reads): the minutes' lists, written statements, the audit bundle, and
//! the tallies and acta made from it.

use axum::body::Body as HttpBody;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use asamblea_api::formats::CSV_TABLES;
use asamblea_api::secretary::{ExportQuery, Minutes, MinutesItem, Statement, StatementRequest, Statements};
use asamblea_api::{ErrorAnswer, Recorded};
use asamblea_documents::pdf;
use asamblea_documents::tables;
use asamblea_wire::EventBody;

use asamblea_venue::staff::Role;

use crate::access::{bad_query, Body, Staff};
use crate::callers::{Callers, Routes};
use crate::directory::{holder, Directory};
use crate::meeting::{action_error, blocking, healthy, id, unlocked};
use crate::reports::{acta, from_bundle, ActaFormat};
use crate::{ApiError, AppState};

/// The secretary's routes: what the secretary and the auditor both read,
/// and what the secretary alone does (record a written statement).
pub(crate) fn routes() -> Vec<Routes> {
    vec![
        Routes::api(
            Callers::Staff(&[Role::Secretary, Role::Auditor]),
            OpenApiRouter::new()
                .routes(routes!(minutes))
                .routes(routes!(statements))
                .routes(routes!(export))
                .routes(routes!(download)),
        ),
        Routes::api(
            Callers::Staff(&[Role::Secretary]),
            OpenApiRouter::new().routes(routes!(record_statement)),
        ),
    ]
}

/// What the secretary records beside the results — the administrators
/// and employees of the register (C.Co art. 185: they may not carry
/// others' shares as proxies, nor vote on the year-end statements) with
/// their shares and whether they are present; and, for each closed item,
/// the shares impeded and the holders who may withdraw (derecho de
/// retiro, R18: the absent and the dissenting) with names and shares.
#[utoipa::path(get, path = "/api/v1/minutes", tag = "secretary",
    responses((status = 200, description = "The minutes' lists", body = Minutes)))]
pub(crate) async fn minutes(State(state): State<AppState>, _staff: Staff) -> Result<Json<Minutes>, ApiError> {
    let found = unlocked(&state, |state| {
        let directory = Directory::of_state(state)?;
        Ok(state.with_service(|service| {
            let meeting = service.meeting();
            let administrators = meeting
                .register()
                .iter()
                .filter(|(_, h)| h.role().is_some())
                .map(|(at, _)| holder(service.state(), meeting, at, directory))
                .collect();
            let items = meeting
                .items()
                .iter()
                .filter_map(|item| match item.result() {
                    Some(asamblea_rules::ItemResult::Decision(d)) => Some(MinutesItem {
                        id: item.id().to_string(),
                        impeded: d.impeded.get(),
                        withdrawal: d.withdrawal.as_ref().map(|list| {
                            list.iter().map(|&at| holder(service.state(), meeting, at, directory)).collect()
                        }),
                    }),
                    _ => None,
                })
                .collect();
            Minutes { administrators, items }
        }))
    })
    .await?;
    Ok(Json(found))
}

/// A written statement (constancia) an attendee handed in, recorded as a
/// `statement-recorded` event signed by the secretary. The words are kept
/// as written, line breaks included (Windows' `\r\n` read as one), without
/// spaces at either end.
#[utoipa::path(post, path = "/api/v1/statements", tag = "secretary",
    request_body = StatementRequest,
    responses(
        (status = 201, description = "Recorded", body = Recorded),
        (status = 400, description = "`bad-request`", body = ErrorAnswer),
        (status = 422, description = "`not-an-attendee`, `not-on-agenda`", body = ErrorAnswer),
    ))]
pub(crate) async fn record_statement(
    State(state): State<AppState>,
    staff: Staff,
    Body(request): Body<StatementRequest>,
) -> Result<(StatusCode, Json<Recorded>), ApiError> {
    let item = id(&request.item, "item")?;
    let person = id(request.person.trim(), "person")?;
    let text = statement_text(&request.text)?;
    let state2 = state.clone();
    let seq = blocking(&state, move |service| {
        let appended = service
            .staff_event_as(&staff.key, EventBody::StatementRecorded { item, person: person.clone(), text })
            .map_err(|e| action_error(&state2, e))?;
        tracing::info!(event.seq = appended.seq, person.id = %person, staff.name = %staff.name, "constancia registrada / statement recorded");
        Ok(appended.seq)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(Recorded { seq })))
}

/// Every written statement recorded, in order, with the item's title and
/// the author's name.
#[utoipa::path(get, path = "/api/v1/statements", tag = "secretary",
    responses((status = 200, description = "The statements", body = Statements)))]
pub(crate) async fn statements(
    State(state): State<AppState>,
    _staff: Staff,
) -> Result<Json<Statements>, ApiError> {
    let found = unlocked(&state, |state| {
        let directory = Directory::of_state(state)?;
        Ok(state.with_service(|service| {
            let meeting = service.meeting();
            let statements = service
                .state()
                .statements()
                .iter()
                .map(|statement| Statement {
                    item: statement.item.as_str().to_string(),
                    title: service
                        .agenda()
                        .iter()
                        .find(|e| e.item == statement.item)
                        .map(|e| e.title.as_str().to_string()),
                    person: statement.person.as_str().to_string(),
                    name: meeting
                        .register()
                        .lookup(statement.person.as_str())
                        .map(|at| directory.name(at).to_string()),
                    text: statement.text.as_str().to_string(),
                })
                .collect();
            Statements { statements }
        }))
    })
    .await?;
    Ok(Json(found))
}

/// The audit bundle (ledger-format §11), read beside the writer, without
/// the meeting's lock: ballots go on while a large meeting's bundle is
/// written.
#[utoipa::path(get, path = "/api/v1/export", tag = "secretary",
    responses((status = 200, description = "The audit bundle", content_type = "application/octet-stream", body = Vec<u8>)))]
pub(crate) async fn export(State(state): State<AppState>, _staff: Staff) -> Result<Response, ApiError> {
    healthy(&state)?;
    let dir = meeting_dir(&state);
    let bytes = tokio::task::spawn_blocking(move || {
        let mut bytes = Vec::new();
        asamblea_venue::service::MeetingFiles::export_to(&dir, &mut bytes).map(|_| bytes)
    })
    .await
    .map_err(|_| ApiError::task_failed())?
    .map_err(|e| ApiError::internal("el paquete de auditoría / the audit bundle", &format!("{e:#}")))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/octet-stream"),
            (header::CONTENT_DISPOSITION, "attachment; filename=\"asamblea.bundle\""),
        ],
        HttpBody::from(bytes),
    )
        .into_response())
}

/// The meeting directory: where the ledger is.
fn meeting_dir(state: &AppState) -> std::path::PathBuf {
    state.0.ledger_path.parent().map_or_else(|| std::path::PathBuf::from("."), std::path::Path::to_path_buf)
}

/// `resultados.xlsx`, `resultados.json` or `resultados.csv` (`?tabla=`),
/// made as `export-results` makes them, or `acta.docx` / `acta.pdf`, as
/// `asamblea acta` does, from the meeting's audit bundle written to a
/// temporary file of the meeting (`DIR/tmp`: no name, owner-only) and
/// verified first.
#[utoipa::path(get, path = "/api/v1/exports/{file}", tag = "secretary",
    params(
        ("file" = asamblea_api::formats::ExportFile, Path, description = "`resultados.xlsx`, `resultados.json`, `resultados.csv`, `acta.docx` or `acta.pdf`"),
        ExportQuery,
    ),
    responses(
        (status = 200, description = "The file", content_type = "application/octet-stream", body = Vec<u8>),
        (status = 400, description = "`bad-request`: another parameter, or an unknown `tabla`", body = ErrorAnswer),
        (status = 404, description = "`not-found`: no such export", body = ErrorAnswer),
    ))]
pub(crate) async fn download(
    State(state): State<AppState>,
    _staff: Staff,
    Path(file): Path<String>,
    query: Result<axum::extract::Query<ExportQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let axum::extract::Query(query) = query.map_err(|_| bad_query("`tabla`", "`tabla` only"))?;
    let Some((format, content_type)) = export_format(&file) else {
        return Err(ApiError::not_found(format!("la exportación {file}"), format!("export {file}")));
    };
    let table = query.tabla.unwrap_or_else(|| "puntos".to_string());
    if !CSV_TABLES.contains(&table.as_str()) {
        return Err(ApiError::bad_request(
            format!("`tabla` debe ser una de: {}", CSV_TABLES.join(", ")),
            format!("`tabla` must be one of: {}", CSV_TABLES.join(", ")),
        ));
    }
    // Each table's CSV under a name of its own: a browser that saves them
    // all keeps them all.
    let saved_as = if format == "csv" { crate::console::csv_name(&table) } else { file };
    let dir = meeting_dir(&state);
    let made = tokio::task::spawn_blocking(move || -> Result<Vec<u8>, ApiError> {
        let failed = |e: &dyn std::fmt::Display| ApiError::internal("una exportación / an export", e);
        // The bundle in a file of the meeting's own temporary folder, with
        // no name and owner-only, gone when dropped (`asamblea_venue::scratch`).
        let bundle = asamblea_venue::scratch::file(&dir).map_err(|e| failed(&e))?;
        asamblea_venue::service::MeetingFiles::export_to(&dir, &bundle)
            .map_err(|e| failed(&format!("{e:#}")))?;
        if format == "docx" || format == "pdf" {
            let kind = if format == "docx" { ActaFormat::Docx } else { ActaFormat::Pdf(pdf::Paper::Carta) };
            return acta(&bundle, kind, None, &mut |_, _| {}).map_err(|e| failed(&e));
        }
        let report = from_bundle(&bundle, &mut |_, _| {}).map_err(|e| failed(&e))?;
        drop(bundle);
        Ok(match format {
            "xlsx" => tables::xlsx(&report.tables, &report.title, report.date).map_err(|e| failed(&e))?,
            "json" => tables::json(&report.tables, report.meeting, report.verified).to_string().into_bytes(),
            _ => {
                let chosen = report.tables.iter().find(|t| t.name == table).ok_or_else(|| failed(&table))?;
                tables::csv(chosen, tables::CsvFlavour::Excel).into_bytes()
            }
        })
    })
    .await
    .map_err(|_| ApiError::task_failed())??;
    let disposition = format!("attachment; filename=\"{saved_as}\"");
    Ok(([(header::CONTENT_TYPE, content_type.to_string()), (header::CONTENT_DISPOSITION, disposition)], made)
        .into_response())
}

/// A statement's words as the secretary typed them: `\r\n` read as one
/// line feed, trimmed, then held to the ledger's rules for them
/// (`asamblea_api::formats`' `StatementText`).
pub(crate) fn statement_text(words: &str) -> Result<asamblea_wire::Prose, ApiError> {
    let words = words.replace("\r\n", "\n");
    asamblea_wire::Prose::new(words.trim()).map_err(|e| {
        ApiError::bad_request(
            format!(
                "el texto de la constancia debe tener entre 1 y {} caracteres, sin tabulaciones ni otros caracteres de control ({})",
                asamblea_wire::limits::MAX_PROSE_LEN,
                e.spanish()
            ),
            format!("`text`: {}", e.english()),
        )
    })
}

/// The format and content type of an export's file name (one of
/// `asamblea_api::formats::EXPORT_FILES`), or `None`.
pub(crate) fn export_format(file: &str) -> Option<(&'static str, &'static str)> {
    Some(match file {
        "resultados.xlsx" => ("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        "resultados.json" => ("json", "application/json"),
        "resultados.csv" => ("csv", "text/csv; charset=utf-8"),
        "acta.docx" => ("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        "acta.pdf" => ("pdf", "application/pdf"),
        _ => return None,
    })
}
