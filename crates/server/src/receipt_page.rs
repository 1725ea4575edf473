//! The voter's receipt check as a page of the public board (`GET /recibo`,
//! `POST /recibo`): server-rendered, no script, Spanish first with
//! English. A voter pastes the receipt the kiosk gave them (its one line of
//! text, or its JSON) and learns whether the durable ledger holds their
//! ballot at the number the receipt names, with the head it names: the
//! check `asamblea verify --receipts` makes on the bundle
//! (`crate::ballots::receipt_borne_out`).
//!
//! One thing per page, an error summary at the top that links to the
//! field, a label that says what to paste and a button that says what
//! happens (the GOV.UK Design System's habits); the style is the board's
//! (`board.css`), large type for a phone in the room. The page is a `maud`
//! template in the frame every page of the daemon shares (`layout`).

use axum::extract::rejection::FormRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Form;
use maud::{html, Markup};
use serde::Deserialize;

use crate::ballots::receipt_borne_out;
use crate::layout::{self, error_summary, Frame};
use crate::AppState;

/// The form's one field.
#[derive(Deserialize)]
pub(crate) struct ReceiptForm {
    #[serde(default)]
    recibo: String,
}

/// What the page says above the form.
enum Outcome {
    /// Nothing yet: the empty form.
    Ask,
    /// The text is not a receipt; the message says why.
    NotAReceipt(String),
    /// The ledger holds the ballot.
    BorneOut(u64),
    /// It does not; the message says how.
    NotBorneOut(asamblea_ledger::ReceiptProblem),
    /// The ledger could not be read (now, or that record at all): the
    /// daemon's own answer says which and what to do.
    Unreadable(crate::ApiError),
    /// A ballot (by its hash or short code) the ledger holds: the item's
    /// title and id, the ballot's number and hash, the head after it.
    Counted { title: String, item: String, seq: u64, hash: String, head: String },
    /// A bare ballot hash the ledger does not hold.
    NotCounted,
}

/// The query of `GET /recibo`: a ballot's hash, as the QR code on a
/// kiosk's receipt carries it (`/recibo?resumen=HASH`), so that a phone's
/// camera opens the check at once.
#[derive(Deserialize, Default)]
pub(crate) struct ReceiptQuery {
    #[serde(default)]
    resumen: String,
}

/// `GET /recibo`: the empty form, or (`?resumen=HASH`, a receipt's QR
/// scanned with a phone) where that ballot was counted.
pub(crate) async fn form(
    State(state): State<AppState>,
    query: Result<axum::extract::Query<ReceiptQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let wanted = query.map(|axum::extract::Query(q)| q.resumen).unwrap_or_default();
    if wanted.trim().is_empty() {
        return page(StatusCode::OK, &Outcome::Ask, "");
    }
    if let Some(digest) = bare_hash(&wanted) {
        return hash_check(&state, digest, &wanted).await;
    }
    if let Some(code) = crate::ballots::short_code(&wanted) {
        return code_check(&state, &code, &wanted).await;
    }
    let why = "el código leído no es el de una papeleta: escriba el código que mostró el quiosco (por ejemplo 99F1-09F1-A3C2) o pegue el recibo completo / \
               the scanned code is not a ballot's: type the code the kiosk showed, or paste the whole receipt";
    page(StatusCode::UNPROCESSABLE_ENTITY, &Outcome::NotAReceipt(why.into()), &wanted)
}

/// `POST /recibo`: the check, and the form again with what was pasted.
pub(crate) async fn check(
    State(state): State<AppState>,
    form: Result<Form<ReceiptForm>, FormRejection>,
) -> Response {
    let Ok(Form(ReceiptForm { recibo })) = form else {
        let why = "el formulario no llegó completo; vuelva a pegar el recibo / the form did not arrive whole; paste the receipt again";
        return page(StatusCode::BAD_REQUEST, &Outcome::NotAReceipt(why.into()), "");
    };
    if recibo.trim().is_empty() {
        let why = "pegue el recibo completo / paste the whole receipt";
        return page(StatusCode::UNPROCESSABLE_ENTITY, &Outcome::NotAReceipt(why.into()), &recibo);
    }
    if let Some(digest) = bare_hash(&recibo) {
        return hash_check(&state, digest, &recibo).await;
    }
    if let Some(code) = crate::ballots::short_code(&recibo) {
        return code_check(&state, &code, &recibo).await;
    }
    let (receipt, signature) = match crate::receipts::parse(&recibo) {
        Ok(parsed) => parsed,
        Err(e) => {
            // What is wrong inside a JSON receipt helps; for anything else
            // the expected form says it all.
            let detail = if recibo.trim_start().starts_with('{') { format!(" ({e})") } else { String::new() };
            let why = format!(
                "eso no es un recibo: se espera la línea NÚMERO:CABEZA:EVENTO:FIRMA que imprime el quiosco, o su JSON / \
                 that is not a receipt: expected the line the kiosk prints, or its JSON{detail}"
            );
            return page(StatusCode::UNPROCESSABLE_ENTITY, &Outcome::NotAReceipt(why), &recibo);
        }
    };
    match receipt_borne_out(&state, receipt, signature).await {
        Ok(Ok(())) => page(StatusCode::OK, &Outcome::BorneOut(receipt.seq), &recibo),
        Ok(Err(problem)) => page(StatusCode::UNPROCESSABLE_ENTITY, &Outcome::NotBorneOut(problem), &recibo),
        Err(error) => page(error.status(), &Outcome::Unreadable(error), &recibo),
    }
}

/// A ballot's hash alone (64 hex digits, as the kiosk's QR or the list of
/// counted ballots shows it), rather than a whole receipt.
fn bare_hash(text: &str) -> Option<asamblea_wire::Digest> {
    let text = text.trim();
    (text.len() == 64).then(|| asamblea_wire::Digest::from_hex(text).ok()).flatten()
}

/// The page for the short code the kiosk showed: the ballot it names,
/// as for its whole hash; or that none, or several, have it.
async fn code_check(state: &AppState, code: &str, shown: &str) -> Response {
    match crate::ballots::by_short_code(state, code).await {
        Ok(found) if found.len() == 1 => hash_check(state, found[0], shown).await,
        Ok(found) if found.is_empty() => page(StatusCode::UNPROCESSABLE_ENTITY, &Outcome::NotCounted, shown),
        Ok(found) => {
            let hashes: Vec<String> = found.iter().map(|d| asamblea_wire::hex::encode(&d.0)).collect();
            let why = format!(
                "{} papeletas empiezan con ese código: {}. Compare con el recibo completo que mostró el quiosco, o escriba más cifras / \
                 several ballots start with that code: compare with the whole receipt, or type more digits",
                found.len(),
                hashes.join(", ")
            );
            page(StatusCode::UNPROCESSABLE_ENTITY, &Outcome::NotAReceipt(why), shown)
        }
        Err(error) => page(error.status(), &Outcome::Unreadable(error), shown),
    }
}

/// The page for a ballot's hash alone: where it was counted, or that no
/// ballot has it.
async fn hash_check(state: &AppState, digest: asamblea_wire::Digest, shown: &str) -> Response {
    let outcome = match counted_at(state, digest).await {
        Ok(Some(found)) => found,
        Ok(None) => Outcome::NotCounted,
        Err(error) => Outcome::Unreadable(error),
    };
    let status = if matches!(outcome, Outcome::Counted { .. }) {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    page(status, &outcome, shown)
}

/// Where the ledger counted the ballot whose event has `digest`.
async fn counted_at(
    state: &AppState,
    digest: asamblea_wire::Digest,
) -> Result<Option<Outcome>, crate::ApiError> {
    let Some((receipt, _)) = crate::ballots::lookup_blocking(state, digest).await? else { return Ok(None) };
    let (path, meeting) = (state.0.ledger_path.clone(), state.0.meeting_id);
    let item =
        tokio::task::spawn_blocking(move || asamblea_ledger::ballot_item_at(&path, &meeting, receipt.seq))
            .await
            .map_err(|_| crate::ApiError::task_failed())?
            .map_err(|e| crate::ApiError::internal("leer una papeleta / reading a ballot", &e))?
            .unwrap_or_default();
    let title = state.with_service(|service| {
        service.agenda().iter().find(|e| e.item.as_str() == item).map(|e| e.title.as_str().to_string())
    });
    Ok(Some(Outcome::Counted {
        title: title.unwrap_or_else(|| item.clone()),
        item,
        seq: receipt.seq,
        hash: asamblea_wire::hex::encode(&digest.0),
        head: asamblea_wire::hex::encode(&receipt.head.0),
    }))
}

/// The box with the check's answer: good (a status) or not (an alert), a
/// heading, the message in Spanish and English, and `more` below it.
fn verdict(good: bool, heading: &str, es: &str, en: &str, more: Markup) -> Markup {
    html! {
        div.verdict.good[good].bad[!good] role=(if good { "status" } else { "alert" }) {
            h2 { (heading) }
            p { (es) }
            p.en { (en) }
            (more)
        }
    }
}

/// The answer: the page with what the check found, and its status.
fn page(status: StatusCode, outcome: &Outcome, pasted: &str) -> Response {
    layout::respond(status, render(outcome, pasted))
}

/// The page: what the check found (if anything), then the form again with
/// what was pasted.
fn render(outcome: &Outcome, pasted: &str) -> Markup {
    let (title, notice) = match outcome {
        Outcome::Ask => ("Verifique su voto", html! {}),
        Outcome::NotAReceipt(why) => ("Error: verifique su recibo", error_summary("recibo", why, None)),
        Outcome::BorneOut(seq) => (
            "Recibo verificado",
            verdict(
                true,
                "✔ Su papeleta está en el registro",
                &crate::receipts::borne_out_es(*seq),
                &crate::receipts::borne_out_en(*seq),
                html! {
                    p {
                        "Guarde el recibo: cuando se publique el paquete de auditoría, cualquiera puede \
                         comprobarlo allí con " code { "asamblea verify --receipts" } ", sin confiar en este \
                         servidor."
                    }
                },
            ),
        ),
        Outcome::NotBorneOut(problem) => (
            "Recibo no respaldado",
            verdict(
                false,
                if *problem == asamblea_ledger::ReceiptProblem::NotSigned {
                    "✘ No es un recibo de esta reunión"
                } else {
                    "✘ El registro no respalda este recibo"
                },
                &crate::receipts::not_borne_out_es(*problem),
                &crate::receipts::not_borne_out_en(*problem),
                html! {},
            ),
        ),
        Outcome::Counted { title, item, seq, hash, head } => (
            "Papeleta contada",
            verdict(
                true,
                "✔ Su papeleta fue contada",
                &format!("La papeleta {hash} fue contada en el punto «{title}», posición {seq}, cadena {head}."),
                &format!("Ballot {hash} was counted on item “{title}”, position {seq}, chain {head}."),
                html! {
                    p {
                        a href={ "/papeletas?" (layout::query(&[("punto", item)])) } {
                            "Ver todas las papeletas contadas en este punto "
                            span.en { "see every ballot counted on this item" }
                        }
                    }
                },
            ),
        ),
        Outcome::NotCounted => (
            "Papeleta no encontrada",
            verdict(
                false,
                "✘ Ese código no está en el registro",
                "Ninguna papeleta guardada tiene ese código o resumen. Revise que lo escribió tal como lo mostró \
                 el quiosco (por ejemplo 99F1-09F1-A3C2), o pegue el recibo entero.",
                "No saved ballot has that code or hash. Check you typed it as the kiosk showed it, or paste the whole receipt.",
                html! {},
            ),
        ),
        Outcome::Unreadable(error) => (
            "No se pudo verificar",
            verdict(false, "No se pudo verificar el recibo", &error.message_es, &error.message_en, html! {}),
        ),
    };
    let invalid = matches!(outcome, Outcome::NotAReceipt(_));
    let main = html! {
        (notice)
        form method="post" action="/recibo" novalidate {
            label for="recibo" {
                "Escriba el código de su voto que mostró el quiosco, o pegue el recibo completo "
                span.en { "type your vote's code the kiosk showed, or paste the whole receipt" }
            }
            p.hint {
                "El código son 12 cifras y letras en tres grupos (por ejemplo 99F1-09F1-A3C2); el recibo \
                 completo, la línea larga que empieza con un número y dos puntos. "
                span.en {
                    "The code is 12 digits and letters in three groups; the whole receipt, the long line \
                     that starts with a number and a colon."
                }
            }
            textarea #recibo name="recibo" rows="5" spellcheck="false" autocomplete="off"
                aria-invalid=[invalid.then_some("true")] aria-describedby=[invalid.then_some("error-title")] {
                (pasted)
            }
            " "
            button type="submit" { "Verificar el recibo " span.en { "check the receipt" } }
        }
        p { a href="/" { "Volver al tablero " span.en { "back to the board" } } }
    };
    let frame = Frame {
        title,
        heading: ("Verifique su recibo", "Check your receipt"),
        main_class: Some("narrow"),
        ..Frame::default()
    };
    layout::page(frame, main)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counted_ballot_links_to_its_items_list_and_escapes_what_it_shows() {
        let counted = Outcome::Counted {
            title: "<Fusión>".into(),
            item: "a&b 1".into(),
            seq: 42,
            hash: "ab".repeat(32),
            head: "0f".repeat(32),
        };
        let html = render(&counted, "<b>").into_string();
        assert!(
            html.contains("<div class=\"verdict good\" role=\"status\"><h2>✔ Su papeleta fue contada</h2>")
        );
        assert!(
            html.contains("fue contada en el punto «&lt;Fusión&gt;», posición 42, cadena 0f0f"),
            "{html}"
        );
        assert!(html.contains(&format!("La papeleta {} fue contada", "ab".repeat(32))), "{html}");
        assert!(html.contains("<a href=\"/papeletas?punto=a%26b+1\">"), "{html}");
        assert!(html.contains(">&lt;b&gt;</textarea>") && !html.contains("<b>"), "{html}");
        assert!(!html.contains("aria-invalid"), "nothing to correct: {html}");
    }

    #[test]
    fn what_is_not_a_receipt_is_summarised_above_the_field_it_marks() {
        let html = render(&Outcome::NotAReceipt("pegue el recibo / paste it".into()), "").into_string();
        assert!(html.contains("<title>Error: verifique su recibo — Asamblea</title>"), "{html}");
        assert!(html.contains("<p><a href=\"#recibo\">pegue el recibo / paste it</a></p></div>"), "{html}");
        assert!(
            html.contains("aria-invalid=\"true\" aria-describedby=\"error-title\"></textarea>"),
            "{html}"
        );
        assert!(html.contains("<main class=\"narrow\">"), "{html}");
    }
}
