//! The voter's receipt check as a page of the public board (`GET /recibo`,
//! `POST /recibo`): server-rendered, no script, Spanish first with
//! English. A voter pastes the receipt the kiosk gave them (its one line of
//! text, or its JSON) and learns whether the durable ledger holds their
//! ballot at the number the receipt names, with the head it names: the
//! check `asamblea verify --receipts` makes on the bundle
//! (`crate::handlers::receipt_borne_out`).
//!
//! One thing per page, an error summary at the top that links to the
//! field, a label that says what to paste and a button that says what
//! happens (the GOV.UK Design System's habits); the style is the board's
//! (`board.css`), large type for a phone in the room.

use axum::extract::rejection::FormRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::Form;
use serde::Deserialize;

use asamblea_documents::markup::escape;

use crate::handlers::receipt_borne_out;
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
}

/// `GET /recibo`: the empty form.
pub(crate) async fn form() -> Response {
    page(StatusCode::OK, &Outcome::Ask, "")
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
        Err(error) => page(error.status, &Outcome::Unreadable(error), &recibo),
    }
}

/// The box with the check's answer: `good` or `bad`, a heading, the
/// message in Spanish and English (escaped here), and `more` (markup).
fn verdict(kind: &str, heading: &str, es: &str, en: &str, more: &str) -> String {
    let role = if kind == "good" { "status" } else { "alert" };
    format!(
        "<div class=\"verdict {kind}\" role=\"{role}\">\n<h2>{}</h2>\n<p>{}</p>\n<p class=\"en\">{}</p>\n{more}</div>",
        escape(heading),
        escape(es),
        escape(en)
    )
}

fn page(status: StatusCode, outcome: &Outcome, pasted: &str) -> Response {
    let (title, notice) = match outcome {
        Outcome::Ask => ("Verifique su recibo", String::new()),
        Outcome::NotAReceipt(why) => (
            "Error: verifique su recibo",
            format!(
                r##"<div class="error-summary" role="alert" aria-labelledby="error-title" tabindex="-1">
<h2 id="error-title">Hay un problema <span class="en">there is a problem</span></h2>
<p><a href="#recibo">{}</a></p>
</div>"##,
                escape(why)
            ),
        ),
        Outcome::BorneOut(seq) => (
            "Recibo verificado",
            verdict(
                "good",
                "✔ Su papeleta está en el registro",
                &crate::receipts::borne_out_es(*seq),
                &crate::receipts::borne_out_en(*seq),
                "<p>Guarde el recibo: cuando se publique el paquete de auditoría, cualquiera puede comprobarlo allí \
                 con <code>asamblea verify --receipts</code>, sin confiar en este servidor.</p>",
            ),
        ),
        Outcome::NotBorneOut(problem) => (
            "Recibo no respaldado",
            verdict(
                "bad",
                if *problem == asamblea_ledger::ReceiptProblem::NotSigned {
                    "✘ No es un recibo de esta reunión"
                } else {
                    "✘ El registro no respalda este recibo"
                },
                &crate::receipts::not_borne_out_es(*problem),
                &crate::receipts::not_borne_out_en(*problem),
                "",
            ),
        ),
        Outcome::Unreadable(error) => (
            "No se pudo verificar",
            verdict("bad", "No se pudo verificar el recibo", &error.message_es, &error.message_en, ""),
        ),
    };
    let invalid = matches!(outcome, Outcome::NotAReceipt(_));
    let html = format!(
        r#"<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} — Asamblea</title>
<link rel="stylesheet" href="/assets/board.css">
</head>
<body>
<header>
  <h1>Verifique su recibo</h1>
  <p>Check your receipt</p>
</header>
<main class="narrow">
{notice}
<form method="post" action="/recibo" novalidate>
  <label for="recibo">Pegue el recibo que le entregó el quiosco <span class="en">paste the receipt the kiosk gave you</span></label>
  <p class="hint">Es una línea que empieza con un número y dos puntos, o el texto entre llaves que muestra el quiosco. <span class="en">One line that starts with a number and a colon, or the text in braces the kiosk shows.</span></p>
  <textarea id="recibo" name="recibo" rows="5" spellcheck="false" autocomplete="off"{aria}>{pasted}</textarea>
  <button type="submit">Verificar el recibo <span class="en">check the receipt</span></button>
</form>
<p><a href="/">Volver al tablero <span class="en">back to the board</span></a></p>
</main>
</body>
</html>
"#,
        aria = if invalid { r#" aria-invalid="true" aria-describedby="error-title""# } else { "" },
        pasted = escape(pasted),
    );
    (status, Html(html)).into_response()
}
