//! `/remoto`: the remote attendee's page, for a phone first (390×844),
//! a keyboard and a screen reader. One step shows at a time: register,
//! wait for the desk's verification (the key's fingerprint, to compare
//! with staff's), join, the meeting (the quorum, each open item's ballot
//! sheet, the results as they close, the receipts, a question or a written
//! statement for the chair), the end. Every
//! signature is made in the browser (`remote.js`): with no script there is
//! no key, and the page says so.

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use maud::html;

use crate::layout::{self, Frame};
use crate::AppState;

/// `GET /remoto`.
pub(crate) async fn page(State(state): State<AppState>) -> Response {
    let meeting = asamblea_wire::hex::encode(&state.0.meeting_id.0);
    let head = html! { script src="/assets/remote.js" defer {} };
    let main = html! {
        div #remoto data-meeting=(meeting) {
            p #sin-script .said.no {
                "Esta página firma su voto en su propio teléfono y necesita JavaScript: actívelo, o asista en la sala. "
                span.en { "This page signs your vote on your own phone and needs JavaScript." }
            }
            p #aviso role="status" aria-live="polite" {}
            section #paso-inscripcion aria-labelledby="t-inscripcion" hidden {
                h2 #t-inscripcion { "Inscribirse para asistir a distancia " span.en { "register to attend remotely" } }
                p {
                    "Su teléfono crea una clave que no sale de él. La mesa de registro verificará su identidad "
                    "como dice la convocatoria (documento, videollamada o el código de su carta de admisión) y solo entonces podrá votar. "
                    span.en { "Your phone makes a key that never leaves it; the desk verifies your identity before you can vote." }
                }
                form #form-inscripcion {
                    label for="documento" { "Su documento, como figura en el libro de accionistas o en su poder " span.en { "your id" } }
                    input #documento name="documento" autocomplete="off" spellcheck="false" required;
                    label for="nombre" { "Su nombre completo " span.en { "your full name" } }
                    input #nombre name="nombre" autocomplete="name" required;
                    button type="submit" { "Crear mi clave e inscribirme " span.en { "make my key and register" } }
                }
            }
            section #paso-espera aria-labelledby="t-espera" hidden {
                h2 #t-espera { "Esperando la verificación de la mesa " span.en { "waiting for the desk" } }
                p { "La huella de su clave es " span.en { "your key's fingerprint" } }
                p.huella-grande { strong.huella {} }
                p {
                    "Cuando la mesa lo llame o lo vea en la videollamada, compruebe que le lean esta misma huella. "
                    "Esta página avanza sola cuando la mesa lo habilite. "
                    span.en { "Check that staff read you the same fingerprint; this page moves on by itself." }
                }
            }
            section #paso-unirse aria-labelledby="t-unirse" hidden {
                h2 #t-unirse { "Su identidad fue verificada " span.en { "your identity was verified" } }
                p #en-sala hidden {
                    "La mesa lo tiene registrado en la sala: para asistir a distancia, pida que registren su salida. "
                    span.en { "The desk has you in the room: ask them to record your departure first." }
                }
                p { "Huella de su clave: " strong.huella {} }
                button #unirse type="button" { "Unirme a la reunión " span.en { "join the meeting" } }
            }
            section #paso-reunion aria-labelledby="t-reunion" hidden {
                h2 #t-reunion { "En la reunión, a distancia " span.en { "in the meeting, remotely" } }
                p #sin-conexion .said.no role="alert" hidden {
                    "Sin conexión con la reunión: reconectando… Si no vuelve en unos minutos, su presencia se interrumpe y la página lo reingresa al volver. "
                    span.en { "Offline: reconnecting. If it takes minutes, your presence lapses and the page brings you back." }
                }
                p #quorum aria-live="polite" { "…" }
                h3 { "Puntos abiertos para votar " span.en { "items open to vote" } }
                p #sin-puntos { "No hay votaciones abiertas ahora. Esta página las mostrará cuando se abran. " span.en { "No poll is open now." } }
                div #puntos {}
                section #seccion-resultados aria-labelledby="t-resultados" hidden {
                    h3 #t-resultados { "Resultados " span.en { "results" } }
                    ul #resultados aria-live="polite" {}
                }
                section #seccion-recibos aria-labelledby="t-recibos" hidden {
                    h3 #t-recibos { "Sus recibos " span.en { "your receipts" } }
                    ul #recibos {}
                }
                section aria-labelledby="t-intervenir" {
                    h3 #t-intervenir { "Pedir la palabra o dejar constancia " span.en { "ask for the floor or leave a written statement" } }
                    p {
                        "Lo que envíe queda registrado al llegar, firmado con su clave; la presidencia lo ve en su lista y el acta dice qué se hizo con cada una. "
                        span.en { "What you send is recorded as it arrives; the chair sees it and the acta says what was done with it." }
                    }
                    form #form-intervencion {
                        fieldset {
                            legend { "Qué envía " span.en { "what you send" } }
                            div.opcion {
                                input #clase-pregunta type="radio" name="clase" value="pregunta" checked;
                                label for="clase-pregunta" { "Una pregunta o solicitud de palabra " span.en { "a question" } }
                            }
                            div.opcion {
                                input #clase-constancia type="radio" name="clase" value="constancia";
                                label for="clase-constancia" { "Una constancia escrita para el acta " span.en { "a written statement for the acta" } }
                            }
                        }
                        label for="sobre" { "Sobre " span.en { "about" } }
                        select #sobre name="sobre" { option value="" { "La reunión en general / the meeting as a whole" } }
                        label for="texto" { "Su texto (hasta 4.000 caracteres) " span.en { "your text" } }
                        textarea #texto name="texto" rows="4" maxlength="4000" required {}
                        button type="submit" { "Firmar y enviar " span.en { "sign and send" } }
                    }
                    section #seccion-enviadas aria-labelledby="t-enviadas" hidden {
                        h4 #t-enviadas { "Enviadas desde este teléfono " span.en { "sent from this phone" } }
                        ul #enviadas {}
                    }
                }
                button #salir type="button" { "Salir de la reunión " span.en { "leave the meeting" } }
            }
            section #paso-fin aria-labelledby="t-fin" hidden {
                h2 #t-fin { "Su credencial remota fue revocada " span.en { "your remote credential was revoked" } }
                p { "Si perdió el teléfono o cambió de equipo, inscríbase de nuevo: la mesa verificará otra vez su identidad. " span.en { "Register again; the desk verifies you again." } }
                button #de-nuevo type="button" { "Inscribirme de nuevo " span.en { "register again" } }
            }
        }
    };
    let frame = Frame {
        title: "Asistencia a distancia",
        heading: ("Asistencia a distancia", "Remote attendance"),
        head,
        main_class: Some("narrow"),
        ..Frame::default()
    };
    layout::respond(StatusCode::OK, layout::page(frame, main))
}

/// `GET /assets/remote.js`: the page's script, which makes and keeps the
/// key and signs every message.
pub(crate) async fn script() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("../remote.js")).into_response()
}
