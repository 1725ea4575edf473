//! The ballots counted on a closed item, by the hash each voter's receipt
//! names: `GET /api/v1/results/{item}/ballots?q=&pagina=` (JSON) and the
//! board's page `/papeletas?punto=&buscar=&pagina=` (server-rendered, no
//! script). A voter finds their receipt's hash in the list; anyone can
//! count the list against the result. Hashes and numbers only: never a
//! choice, never a holder.
//!
//! The list is read from the ledger file once per item, after its close
//! (beside the writer, without the meeting's lock), and kept: a closed
//! item's ballots never change.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use serde::Deserialize;

use asamblea_documents::markup::escape;
use asamblea_documents::numfmt::thousands;
use asamblea_wire::hex::encode as hex;
use asamblea_wire::Digest;

use asamblea_api::public::{CountedBallot, CountedBallots, CountedQuery};

use crate::{ApiError, AppState};

/// Hashes on one page of the list.
pub(crate) const PAGE: usize = 100;

/// One closed item's ballots: number and event digest, in ledger order.
pub(crate) type Counted = Arc<Vec<(u64, Digest)>>;

/// The query of both routes.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    /// The start of a hash, in hex (either case); empty lists all.
    #[serde(default, alias = "buscar")]
    q: String,
    /// The page, from 1.
    #[serde(default)]
    pagina: Option<usize>,
    /// The item (the page's form; the API takes it in the path).
    #[serde(default)]
    punto: Option<String>,
}

/// The ballots counted on `item`, once it is closed: its title too.
async fn counted(state: &AppState, item: &str) -> Result<(String, Counted), ApiError> {
    let title = state.with_service(|service| {
        let meeting = service.meeting();
        let title = service.agenda().iter().find(|e| e.item.as_str() == item).map(|e| e.title.as_str().to_string());
        match (title, meeting.item_index(item).map(|at| meeting.item(at).is_closed())) {
            (None, _) => Err(ApiError::not_found(format!("el punto «{item}»"), format!("item `{item}`"))),
            (Some(_), None | Some(false)) => Err(ApiError::new(
                asamblea_api::ErrorCode::ItemNotClosed,
                "La votación de este punto no se ha cerrado: la lista de papeletas contadas se publica al cerrarla.",
                "This item's poll has not closed: the list of counted ballots is published at the close.",
            )),
            (Some(title), Some(true)) => Ok(title),
        }
    })?;
    if let Some(found) = state.0.counted.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(item) {
        return Ok((title, found.clone()));
    }
    let path = state.0.ledger_path.clone();
    let meeting = state.0.meeting_id;
    let wanted = item.to_string();
    let found =
        tokio::task::spawn_blocking(move || asamblea_ledger::ballots_on_item(&path, &meeting, &wanted))
            .await
            .map_err(|_| ApiError::task_failed())?
            .map_err(|e| {
                ApiError::internal("leer las papeletas contadas / reading the counted ballots", &e)
            })?;
    let found = Arc::new(found);
    state
        .0
        .counted
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(item.to_string(), found.clone());
    Ok((title, found))
}

/// The hex start `q` asks for, lower case; refused unless hex, at most 64.
fn wanted(q: &str) -> Result<String, ApiError> {
    let q = q.trim().to_ascii_lowercase();
    if q.len() > 64 || !q.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ApiError::bad_request(
            "busque por el comienzo del resumen: solo cifras 0–9 y letras a–f, hasta 64",
            "`q`: the start of a ballot's hash, in hexadecimal (0-9, a-f), at most 64 characters",
        ));
    }
    Ok(q)
}

/// The page of `list` that `q` and `page` ask for: the ballots shown, how
/// many matched, and the page (from 1) and the number of pages.
fn page_of(
    list: &[(u64, Digest)],
    q: &str,
    page: Option<usize>,
) -> (Vec<(u64, String)>, usize, usize, usize) {
    let matched: Vec<(u64, String)> =
        list.iter().map(|(seq, digest)| (*seq, hex(&digest.0))).filter(|(_, h)| h.starts_with(q)).collect();
    let pages = matched.len().div_ceil(PAGE).max(1);
    let page = page.unwrap_or(1).clamp(1, pages);
    let shown = matched.iter().skip((page - 1) * PAGE).take(PAGE).cloned().collect();
    (shown, matched.len(), page, pages)
}

/// The ballots counted on a closed item, by the hash each receipt names,
/// a page at a time (`q`: the start of a hash).
#[utoipa::path(get, path = "/api/v1/results/{item}/ballots", tag = "public",
    params(("item" = String, Path, description = "The item's id"), CountedQuery),
    responses(
        (status = 200, description = "A page of the counted ballots", body = CountedBallots),
        (status = 400, description = "`bad-request`", body = asamblea_api::ErrorAnswer),
        (status = 404, description = "`not-found`", body = asamblea_api::ErrorAnswer),
        (status = 409, description = "`item-not-closed`", body = asamblea_api::ErrorAnswer),
    ))]
pub(crate) async fn list(
    State(state): State<AppState>,
    Path(item): Path<String>,
    query: Result<Query<CountedQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<CountedBallots>, ApiError> {
    let Query(query) = query.map_err(|_| {
        crate::access::bad_query(
            "`q` (hexadecimal) y `pagina` (una página desde 1)",
            "`q` (hex) and `pagina` (a page from 1)",
        )
    })?;
    let q = wanted(&query.q)?;
    let (_, found) = counted(&state, &item).await?;
    let (shown, matched, page, pages) = page_of(&found, &q, query.pagina);
    Ok(Json(CountedBallots {
        item,
        counted: found.len(),
        matched,
        page,
        pages,
        ballots: shown.into_iter().map(|(seq, hash)| CountedBallot { seq, hash }).collect(),
    }))
}

/// `GET /papeletas?punto=ID&buscar=HEX&pagina=N`: the list as a page.
pub(crate) async fn page(
    State(state): State<AppState>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let query = query.map(|Query(q)| q).unwrap_or_default();
    let item = query.punto.clone().unwrap_or_default();
    let searched = query.q.trim().to_string();
    let answer = match wanted(&query.q) {
        Err(e) => Err(e),
        Ok(q) => counted(&state, &item)
            .await
            .map(|(title, found)| (title, found.len(), page_of(&found, &q, query.pagina))),
    };
    let (status, title, body) = match answer {
        Err(error) => (
            error.status(),
            String::new(),
            format!(
                r#"<div class="error-summary" role="alert"><h2>No se puede mostrar la lista <span class="en">the list cannot be shown</span></h2><p>{}</p><p class="en">{}</p></div>"#,
                escape(&error.message_es),
                escape(&error.message_en)
            ),
        ),
        Ok((title, counted, (shown, matched, page, pages))) => {
            let rows: String = shown
                .iter()
                .map(|(seq, hash)| {
                    format!(
                        "<tr><td class=\"num\">{}</td><td class=\"hash\">{hash}</td></tr>\n",
                        thousands(*seq)
                    )
                })
                .collect();
            let more = |to: usize, label: &str| {
                format!(
                    r#"<a class="button" href="/papeletas?punto={}&amp;buscar={}&amp;pagina={to}">{label}</a> "#,
                    escape(&item),
                    escape(&searched)
                )
            };
            let mut nav = String::new();
            if page > 1 {
                nav.push_str(&more(page - 1, "← Anterior / previous"));
            }
            if page < pages {
                nav.push_str(&more(page + 1, "Siguiente / next →"));
            }
            let summary = if searched.is_empty() {
                format!(
                    "{} papeletas contadas. <span class=\"en\">{} ballots counted.</span>",
                    thousands(counted as u64),
                    counted
                )
            } else {
                format!(
                    "{} de {} papeletas empiezan por «{}». <span class=\"en\">{} of {} ballots match.</span>",
                    thousands(matched as u64),
                    thousands(counted as u64),
                    escape(&searched),
                    matched,
                    counted
                )
            };
            (
                StatusCode::OK,
                title,
                format!(
                    r#"<p class="lead" role="status">{summary}</p>
<p class="hint">Página {page} de {pages}. Cada papeleta aparece con su número en el registro y el resumen (hash) que nombra su recibo; nunca su contenido. <span class="en">Page {page} of {pages}. Each ballot by its number and the hash its receipt names; never its content.</span></p>
<div class="table-wrap"><table>
<thead><tr><th class="num">Número <span class="en">number</span></th><th>Resumen de la papeleta <span class="en">ballot hash</span></th></tr></thead>
<tbody>
{rows}</tbody>
</table></div>
<p>{nav}</p>"#
                ),
            )
        }
    };
    let heading = if title.is_empty() {
        "Papeletas contadas".to_string()
    } else {
        format!("Papeletas contadas: {}", escape(&title))
    };
    let body = format!(
        r#"<form method="get" action="/papeletas" class="narrow">
  <input type="hidden" name="punto" value="{item}">
  <label for="buscar">Busque su recibo por el comienzo de su resumen <span class="en">find your receipt by the start of its hash</span></label>
  <p class="hint">En la línea del recibo (NÚMERO:CABEZA:RESUMEN:FIRMA), lo que sigue al segundo «:»; bastan los primeros caracteres (0–9, a–f). <span class="en">In the receipt's line, what follows the second colon; its first characters are enough.</span></p>
  <input id="buscar" name="buscar" type="search" value="{searched}" autocomplete="off" spellcheck="false" maxlength="64">
  <button type="submit">Buscar <span class="en">search</span></button>
</form>
{body}
<p><a href="/">Volver al tablero <span class="en">back to the board</span></a> · <a href="/recibo">Verificar un recibo completo <span class="en">check a whole receipt</span></a></p>"#,
        item = escape(&item),
        searched = escape(&searched),
    );
    let plain_title = if title.is_empty() {
        "Papeletas contadas".to_string()
    } else {
        format!("Papeletas contadas: {title}")
    };
    let html = crate::receipt_page::public_page(&plain_title, (&heading, "Counted ballots"), "", &body);
    (status, Html(html)).into_response()
}
