//! The secretary's console (`/secretaria`, also the statutory auditor's):
//! the results, the quorum series, administrators and employees, impeded
//! shares and withdrawal rights, written statements, and the downloads —
//! the tallies made from the audit bundle and the bundle itself.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use maud::{html, Markup};

use asamblea_documents::attendance::Names;
use asamblea_documents::explain::FIGURES;
use asamblea_venue::staff::Role;

use crate::AppState;

/// `GET /secretaria`: the secretary's results and the audit bundle.
pub(super) async fn page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    const ROLES: [Role; 2] = [Role::Secretary, Role::Auditor];
    // The attendance is read for a member of these roles only: a page
    // asked without a session is only a redirection.
    let allowed = state.0.session(&headers).is_some_and(|(account, _)| ROLES.contains(&account.role));
    let attendance = if allowed {
        attendance(&state).await
    } else {
        html! {}
    };
    let main = html! {
        p #quorum .quorum aria-live="polite" { "…" }
        (results())
        (attendance)
        section aria-labelledby="impeded-title" {
            h2 #impeded-title {
                "Acciones impedidas y derecho de retiro " span.en { "impeded shares and withdrawal rights" }
            }
            div #retiro {}
        }
        (statements())
        (downloads())
    };
    super::console(&state, &headers, &ROLES, ("Secretaría", "Secretary"), "secretaria", main)
}

/// Everyone who attended at any moment, as the acta lists them
/// (`asamblea_documents::attendance::table`), read from the ledger's state
/// when the page is asked for.
async fn attendance(state: &AppState) -> Markup {
    let table = crate::meeting::unlocked(state, |state| {
        let directory = crate::directory::Directory::of_state(state)?;
        Ok(state.with_service(|service| {
            let meeting = service.meeting();
            let names = Names::by(meeting, |at| directory.name(at));
            asamblea_documents::attendance::table(meeting, service.state().attendance(), &names)
        }))
    })
    .await;
    html! {
        section aria-labelledby="attendance-title" {
            h2 #attendance-title { "Asistencia " span.en { "attendance" } }
            p.hint {
                "Cada persona que asistió en algún momento, con sus acciones propias y las ajenas que representó, \
                 y las horas en que estuvo presente (hora de Colombia): la lista del acta. Se actualiza al \
                 recargar la página. "
                span.en {
                    "Everyone who attended at any moment, with their own and represented shares and \
                     when they were present: the acta's list. Reload the page to update it."
                }
            }
            @match table {
                Ok(listed) if !listed.rows.is_empty() => {
                    div.table-wrap {
                        table #asistencia {
                            thead { tr { @for (i, h) in listed.header.iter().enumerate() {
                                @if listed.figures.contains(&i) { th.num { (h) } } @else { th { (h) } }
                            } } }
                            tbody { @for row in &listed.rows { tr { @for (i, cell) in row.iter().enumerate() {
                                @if listed.figures.contains(&i) {
                                    td.num data-label=(listed.header[i]) { (cell) }
                                } @else {
                                    td data-label=(listed.header[i]) { (cell) }
                                }
                            } } } }
                        }
                    }
                }
                Ok(_) => p #asistencia { "Nadie ha llegado todavía. " span.en { "Nobody has arrived yet." } },
                Err(e) => p #asistencia .error { (e.message_es) " " span.en { (e.message_en) } },
            }
        }
    }
}

/// The results, the quorum series and the administrators and employees:
/// tables `console.js` fills from the API.
fn results() -> Markup {
    html! {
        section aria-labelledby="results-title" {
            h2 #results-title { "Resultados " span.en { "results" } }
            div.table-wrap {
                table {
                    thead {
                        tr {
                            th { "Punto y regla " span.en { "item and rule" } }
                            th { "Decisión " span.en { "decision" } }
                            // The law's words, as the acta's (explain::FIGURES).
                            @for figure in FIGURES {
                                th.num { (figure.es) " " span.en { (figure.en.to_lowercase()) } }
                            }
                        }
                    }
                    tbody #agenda {}
                }
            }
        }
        section aria-labelledby="series-title" {
            h2 #series-title { "Continuidad del quórum " span.en { "the quorum series" } }
            p.hint {
                "El quórum al abrir y al cerrar cada votación, como lo pide el Decreto 398 de 2020 para el \
                 acta. "
                span.en { "The quorum at each poll's open and close, as the minutes must record it." }
            }
            div.table-wrap {
                table {
                    thead {
                        tr {
                            th { "Punto " span.en { "item" } }
                            th { "Momento " span.en { "moment" } }
                            th.num { "Acciones presentes " span.en { "shares present" } }
                            th.num { "% con voto " span.en { "% voting" } }
                            th.num { "Accionistas " span.en { "holders" } }
                            th { "Quórum" }
                        }
                    }
                    tbody #serie-tabla {}
                }
            }
        }
        section aria-labelledby="ae-title" {
            h2 #ae-title { "Administradores y empleados " span.en { "administrators and employees" } }
            p.hint {
                "No pueden representar acciones ajenas como apoderados ni votar los estados financieros \
                 de fin de ejercicio (art. 185 C.Co.). "
                span.en {
                    "They may not carry others' shares as proxies nor vote on the year-end statements."
                }
            }
            div.table-wrap {
                table {
                    thead {
                        tr {
                            th { "Documento " span.en { "id" } }
                            th { "Nombre " span.en { "name" } }
                            th { "Cargo " span.en { "role" } }
                            th.num { "Acciones " span.en { "shares" } }
                            th { "Estado " span.en { "state" } }
                        }
                    }
                    tbody #administradores {}
                }
            }
        }
    }
}

/// A written statement (constancia) to record, and those recorded.
fn statements() -> Markup {
    html! {
        section aria-labelledby="statements-title" {
            h2 #statements-title { "Constancias escritas " span.en { "written statements" } }
            p.hint {
                "Lo que un asistente pide que conste en el acta, sobre un punto: queda en el registro \
                 firmado con su nombre. "
                span.en {
                    "What an attendee asks the minutes to record about an item: kept in the signed \
                     ledger under their name."
                }
            }
            form #constancia .agent novalidate {
                label for="constancia-punto" { "Punto " span.en { "item" } }
                select #constancia-punto {}
                label for="constancia-persona" {
                    "Documento de quien la presenta (presente en la reunión) "
                    span.en { "the id of its author, present at the meeting" }
                }
                input #constancia-persona autocomplete="off" spellcheck="false";
                label for="constancia-texto" {
                    "Texto, tal como lo entregó " span.en { "its words, as handed in" }
                }
                textarea #constancia-texto rows="5" maxlength="4000" {}
                p #constancia-mensaje role="status" aria-live="polite" {}
                button type="button" #constancia-registrar {
                    "Registrar la constancia " span.en { "record the statement" }
                }
            }
            div #constancias {}
        }
    }
}

/// The file a table's CSV download is saved as: one name per table, so a
/// browser keeps every one (`resultados-puntos.csv`, …).
pub(crate) fn csv_name(table: &str) -> String {
    format!("resultados-{table}.csv")
}

/// The downloads: the tallies (made from the audit bundle, verified
/// first) and the bundle itself.
fn downloads() -> Markup {
    /// Each table of the tallies as CSV: its `tabla`, and its name.
    const TABLES: [(&str, &str); 6] = [
        ("puntos", "Puntos (CSV)"),
        ("accionistas", "Accionistas y votos (CSV)"),
        ("asistencia", "Asistencia (CSV)"),
        ("retiro", "Derecho de retiro (CSV)"),
        ("listas", "Elecciones: listas (CSV)"),
        ("poderes", "Poderes radicados (CSV)"),
    ];
    html! {
        section aria-labelledby="exports-title" {
            h2 #exports-title { "Resultados para descargar " span.en { "tallies to download" } }
            p.hint {
                "Hechos del paquete de auditoría, verificado primero: las mismas cifras que da "
                code { "asamblea verify" } ". "
                span.en { "Made from the audit bundle, verified first." }
            }
            p {
                a.button href="/api/v1/exports/acta.docx" download {
                    "Borrador del acta (Word) " span.en { "acta draft" }
                }
                " "
                a.button href="/api/v1/exports/acta.pdf" download { "Acta (PDF)" }
            }
            p {
                a.button href="/api/v1/exports/resultados.xlsx" download { "Excel (.xlsx)" }
                @for (table, name) in TABLES {
                    " "
                    a.button href={ "/api/v1/exports/resultados.csv?tabla=" (table) } download={ (csv_name(table)) } {
                        (name)
                    }
                }
                " "
                a.button href="/api/v1/exports/resultados.json" download { "JSON" }
            }
        }
        section aria-labelledby="bundle-title" {
            h2 #bundle-title { "Paquete de auditoría " span.en { "audit bundle" } }
            p {
                "Todo el registro firmado, para verificarlo con " code { "asamblea verify" }
                " sin confiar en este servidor. "
                span.en { "The whole signed ledger, to check with asamblea verify." }
            }
            p {
                a.button href="/api/v1/export" download="asamblea.bundle" {
                    "Descargar el paquete " span.en { "download the bundle" }
                }
            }
        }
    }
}
