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
use axum::response::Response;
use axum::Json;
use maud::{html, Markup};
use serde::Deserialize;

use asamblea_documents::numfmt::thousands;
use asamblea_wire::hex::encode as hex;
use asamblea_wire::Digest;

use asamblea_api::public::{CountedBallot, CountedBallots, CountedQuery};

use crate::layout::{self, Frame};
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
pub(crate) fn wanted(q: &str) -> Result<String, ApiError> {
    // The kiosk's short code is written in groups (99F1-09F1-A3C2).
    let q = crate::ballots::hex_digits(q);
    if q.len() > 64 || !q.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ApiError::bad_request(
            "busque por el código del recibo (por ejemplo 99F1-09F1-A3C2) o el comienzo del resumen: solo cifras 0–9 y letras a–f, hasta 64",
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
    params(("item" = asamblea_api::formats::Identifier, Path, description = "The item's id"), CountedQuery),
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
    let found = match wanted(&query.q) {
        Err(e) => Err(e),
        Ok(q) => counted(&state, &item).await.map(|(title, found)| {
            let (ballots, matched, page, pages) = page_of(&found, &q, query.pagina);
            Found { title, counted: found.len(), matched, page, pages, ballots }
        }),
    };
    let (status, html) = list_page(&item, &searched, &found);
    layout::respond(status, html)
}

/// What `/papeletas` found: a page of an item's counted ballots.
struct Found {
    /// The item's title.
    title: String,
    /// The ballots counted on it.
    counted: usize,
    /// Those the search matched.
    matched: usize,
    /// This page, from 1, and how many there are.
    page: usize,
    pages: usize,
    /// This page's ballots: number and hash.
    ballots: Vec<(u64, String)>,
}

/// The page of the list: the search form, then the ballots found (or why
/// there are none to show), with links to the pages before and after.
fn list_page(item: &str, searched: &str, found: &Result<Found, ApiError>) -> (StatusCode, Markup) {
    let status = found.as_ref().map_or_else(ApiError::status, |_| StatusCode::OK);
    let title = found.as_ref().map_or("", |f| f.title.as_str());
    let heading = if title.is_empty() {
        "Papeletas contadas".to_string()
    } else {
        format!("Papeletas contadas: {title}")
    };
    let main = html! {
        form.narrow method="get" action="/papeletas" {
            input type="hidden" name="punto" value=(item);
            label for="buscar" {
                "Busque su recibo por el comienzo de su resumen "
                span.en { "find your receipt by the start of its hash" }
            }
            p.hint {
                "En la línea del recibo (NÚMERO:CABEZA:RESUMEN:FIRMA), lo que sigue al segundo «:»; bastan \
                 los primeros caracteres (0–9, a–f). "
                span.en {
                    "In the receipt's line, what follows the second colon; its first characters are enough."
                }
            }
            input #buscar name="buscar" type="search" value=(searched) autocomplete="off" spellcheck="false"
                maxlength="64";
            " "
            button type="submit" { "Buscar " span.en { "search" } }
        }
        @match found {
            Err(error) => {
                div.error-summary role="alert" {
                    h2 { "No se puede mostrar la lista " span.en { "the list cannot be shown" } }
                    p { (error.message_es) }
                    p.en { (error.message_en) }
                }
            }
            Ok(found) => { (ballots(item, searched, found)) }
        }
        p {
            a href="/" { "Volver al tablero " span.en { "back to the board" } }
            " · "
            a href="/recibo" { "Verificar un recibo completo " span.en { "check a whole receipt" } }
        }
    };
    let frame = Frame { title: &heading, heading: (&heading, "Counted ballots"), ..Frame::default() };
    (status, layout::page(frame, main))
}

/// A page of the ballots found: how many, the table of numbers and hashes,
/// and links to the pages before and after it.
fn ballots(item: &str, searched: &str, found: &Found) -> Markup {
    let Found { counted, matched, page, pages, .. } = *found;
    let (counted_es, matched_es) = (thousands(counted as u64), thousands(matched as u64));
    // The same search, another page.
    let link =
        |to: usize| layout::query(&[("punto", item), ("buscar", searched), ("pagina", &to.to_string())]);
    html! {
        p.lead role="status" {
            @if searched.is_empty() {
                (counted_es) " papeletas contadas. "
                span.en { (counted) " ballots counted." }
            } @else {
                (matched_es) " de " (counted_es) " papeletas empiezan por «" (searched) "». "
                span.en { (matched) " of " (counted) " ballots match." }
            }
        }
        p.hint {
            "Página " (page) " de " (pages) ". Cada papeleta aparece con su número en el registro y el \
             resumen (hash) que nombra su recibo; nunca su contenido. "
            span.en {
                "Page " (page) " of " (pages) ". Each ballot by its number and the hash its receipt names; \
                 never its content."
            }
        }
        div.table-wrap {
            table {
                thead {
                    tr {
                        th.num { "Número " span.en { "number" } }
                        th { "Resumen de la papeleta " span.en { "ballot hash" } }
                    }
                }
                tbody {
                    @for (seq, hash) in &found.ballots {
                        tr { td.num { (thousands(*seq)) } td.hash { (hash) } }
                    }
                }
            }
        }
        @if pages > 1 {
            p {
                @if page > 1 {
                    a.button href={ "/papeletas?" (link(page - 1)) } { "← Anterior / previous" }
                    " "
                }
                @if page < pages {
                    a.button href={ "/papeletas?" (link(page + 1)) } { "Siguiente / next →" }
                    " "
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The second of three pages of a search on an item whose id and
    /// title need escaping and encoding.
    fn middle_page() -> Found {
        Found {
            title: "Fusión <A & B>".into(),
            counted: 1_234,
            matched: 250,
            page: 2,
            pages: 3,
            ballots: vec![(1_001, "ab".repeat(32)), (1_002, format!("ab{}", "0".repeat(62)))],
        }
    }

    #[test]
    fn a_middle_page_links_to_the_pages_around_it_with_the_same_search() {
        let (status, html) = list_page("punto 1&x", "ab", &Ok(middle_page()));
        let html = html.into_string();
        assert_eq!(status, StatusCode::OK);
        assert!(html.contains("<h1>Papeletas contadas: Fusión &lt;A &amp; B&gt;</h1>"), "{html}");
        assert!(html.contains("value=\"punto 1&amp;x\""), "{html}");
        assert!(html.contains("250 de 1.234 papeletas empiezan por «ab». "), "{html}");
        assert!(html.contains("<td class=\"num\">1.001</td><td class=\"hash\">abab"), "{html}");
        for (to, label) in [(1, "← Anterior / previous"), (3, "Siguiente / next →")] {
            let link = format!(
                "<a class=\"button\" href=\"/papeletas?punto=punto+1%26x&amp;buscar=ab&amp;pagina={to}\">{label}</a>"
            );
            assert!(html.contains(&link), "{link} in {html}");
        }
    }

    #[test]
    fn the_first_and_only_page_has_no_links_to_other_pages() {
        let only = Found { page: 1, pages: 1, ..middle_page() };
        let html = list_page("item-1", "", &Ok(only)).1.into_string();
        assert!(html.contains("1.234 papeletas contadas. <span class=\"en\">1234 ballots counted.</span>"));
        assert!(!html.contains("pagina="), "{html}");
    }

    #[test]
    fn a_list_that_cannot_be_shown_says_why_with_the_errors_status() {
        let error = ApiError::not_found("el punto «<x>»", "item `<x>`");
        let (status, html) = list_page("<x>", "", &Err(error));
        let html = html.into_string();
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(html.contains("<h1>Papeletas contadas</h1>"), "{html}");
        assert!(
            html.contains("No se puede mostrar la lista") && html.contains("el punto «&lt;x&gt;»"),
            "{html}"
        );
        assert!(!html.contains("<x>"), "{html}");
    }
}
