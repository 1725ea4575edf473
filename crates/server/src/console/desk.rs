//! The registration desk's console (`/registro`): the quorum, the
//! admission of a person with everything lodged for them and the powers
//! lodged before the meeting (`powers`), the search that checks a holder
//! in or out, an agent's arrival checked with the
//! rules before it is recorded, a badge printed from this browser, and the
//! desk's figures. `console.js` fills every list from the API.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use maud::{html, Markup};

use asamblea_venue::staff::Role;

use crate::AppState;

/// `GET /registro`: the registration desk.
pub(super) async fn page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let meeting = asamblea_wire::hex::encode(&state.0.meeting_id.0);
    super::console(
        &state,
        &headers,
        &[Role::Operator],
        ("Registro de asistentes", "Registration desk"),
        "registro",
        main(&meeting),
    )
}

/// The desk's page. `meeting` is the meeting's id in hex: a badge's QR
/// text begins with its first bytes, and the script writes that text here
/// (`docs/ledger-format.md` §9).
fn main(meeting: &str) -> Markup {
    html! {
        div #reunion data-meeting=(meeting) hidden {}
        script src="/assets/qrcode.js" defer {}
        // One line of quorum at the top: the search below is the desk's
        // work, and several of its answers must show without scrolling.
        section.quorum-line aria-labelledby="quorum-title" {
            h2 #quorum-title { "Quórum " span.en { "quorum" } }
            p #quorum .quorum aria-live="polite" { "…" }
        }
        (super::powers::admission())
        // The badge to print, under the admission that issued it: the
        // next person's card stays in view above it.
        (badge_to_print())
        section.search aria-labelledby="search-title" {
            h2 #search-title { "Registrar una llegada " span.en { "check in a holder" } }
            label for="buscar" { "Buscar por documento o nombre " span.en { "search by id or name" } }
            input #buscar type="search" autocomplete="off" spellcheck="false" aria-describedby="coinciden";
            p #mensaje role="status" aria-live="polite" {}
            div.table-wrap {
                table {
                    thead {
                        tr {
                            th { "Documento " span.en { "id" } }
                            th { "Nombre " span.en { "name" } }
                            th.num { "Acciones " span.en { "shares" } }
                            th { "Estado " span.en { "state" } }
                            th { span.visually-hidden { "Acción / action" } }
                        }
                    }
                    tbody #resultados {}
                }
            }
            p #coinciden .hint {}
        }
        (agent_form())
        // Below the desk's daily work: the registrations come in over
        // the day, a few at a time, and the search stays above the fold.
        (super::remote::panel())
        (super::powers::lodged())
        section aria-labelledby="plot-title" {
            h2 #plot-title { "El quórum durante la reunión " span.en { "the quorum through the meeting" } }
            p #umbral .threshold {}
            figure.plot {
                div #serie {}
                figcaption #serie-titulo {
                    "Quórum al abrir y cerrar cada votación, en % de las acciones con derecho a voto; la \
                     línea punteada es el umbral. "
                    span.en {
                        "Quorum at each poll's open and close, as % of the voting shares; the dotted line \
                         is the threshold."
                    }
                }
            }
        }
        (figures())
    }
}

/// Where a badge drawn in this browser is shown to be printed (hidden
/// until there is one).
fn badge_to_print() -> Markup {
    html! {
        section #impresion .badge-print aria-labelledby="print-title" hidden {
            h2 #print-title { "Credencial para imprimir " span.en { "badge to print" } }
            p.hint {
                "El código QR se hizo en este navegador: la clave de la credencial no salió de este \
                 equipo. Imprímala y entréguela en la mano; al cerrar esta vista se borra. "
                span.en {
                    "The QR code was made in this browser: the badge's key never left this computer. \
                     Print it and hand it over; closing this view erases it."
                }
            }
            div #credencial {}
            button type="button" #imprimir { "Imprimir " span.en { "print" } }
            " "
            button.leave type="button" #cerrar-credencial { "Cerrar " span.en { "close" } }
        }
    }
}

/// An agent's arrival: the rules check it first (`verificar`), then the
/// operator confirms it or records the refusal.
fn agent_form() -> Markup {
    html! {
        section aria-labelledby="agent-title" {
            h2 #agent-title {
                "Registrar un apoderado o representante legal " span.en { "check in an agent" }
            }
            form #apoderado .agent novalidate {
                label for="agente" { "Documento del apoderado " span.en { "the agent's id" } }
                input #agente autocomplete="off" spellcheck="false";
                label for="agente-nombre" {
                    "Nombre del apoderado, como en su documento "
                    span.en { "the agent's full name, as on their id" }
                }
                input #agente-nombre autocomplete="off";
                label for="representados" {
                    "Accionistas que representa, separados por comas "
                    span.en { "the holders represented, comma-separated" }
                }
                input #representados autocomplete="off" spellcheck="false";
                fieldset {
                    legend { "Calidad " span.en { "capacity" } }
                    label.choice {
                        input type="radio" name="calidad" value="proxy" checked;
                        " Apoderado, con poder escrito " span.en { "proxy" }
                    }
                    label.choice {
                        input type="radio" name="calidad" value="legal-representative";
                        " Representante legal " span.en { "legal representative" }
                    }
                }
                label for="cargo" {
                    "¿Es administrador o empleado de la sociedad? "
                    span.en { "is the agent an administrator or employee?" }
                }
                select #cargo {
                    option value="" { "No" }
                    option value="administrator" { "Administrador" }
                    option value="employee" { "Empleado" }
                }
                label for="poder" {
                    "Referencia del poder " span.en { "reference of the power of attorney" }
                }
                input #poder autocomplete="off";
                p #veredicto role="status" aria-live="polite" {}
                button type="button" #verificar { "Verificar con las reglas " span.en { "check with the rules" } }
                " "
                button type="button" #confirmar disabled { "Confirmar la llegada " span.en { "confirm the arrival" } }
                " "
                button.leave type="button" #rechazar disabled {
                    "Rechazar el poder " span.en { "refuse the power" }
                }
                p.hint {
                    "Un rechazo queda en el registro firmado y en el acta, con su motivo. "
                    span.en { "A refusal is recorded, with its reason, for the minutes." }
                }
            }
        }
    }
}

/// The desk's figures: attendance by channel, badges, refused proxies.
fn figures() -> Markup {
    html! {
        section aria-labelledby="figures-title" {
            h2 #figures-title { "Cifras de la mesa de registro " span.en { "desk figures" } }
            div.table-wrap {
                table {
                    thead {
                        tr {
                            th { "Asistencia " span.en { "attendance" } }
                            th.num { "Accionistas " span.en { "holders" } }
                            th.num { "Personas " span.en { "people" } }
                            th.num { "Acciones " span.en { "shares" } }
                        }
                    }
                    tbody #cifras {}
                }
            }
            p #credenciales .lead {}
            h3 { "Poderes rechazados " span.en { "refused proxies" } }
            div.table-wrap {
                table {
                    thead {
                        tr {
                            th { "Apoderado " span.en { "agent" } }
                            th { "Representados " span.en { "principals" } }
                            th { "Motivo " span.en { "reason" } }
                            th { "Poder " span.en { "power" } }
                        }
                    }
                    tbody #rechazados {}
                }
            }
        }
    }
}
