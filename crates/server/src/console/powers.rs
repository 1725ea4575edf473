//! The desk's admission and lodged powers, on the registration desk's
//! console (`/registro`): one field that takes a scanned letter or a typed
//! id or card number and shows the person with everything lodged for them
//! (`GET /api/v1/expected`), admitted with one button
//! (`POST /api/v1/admissions`) and then given their badge; and the powers
//! lodged before the meeting, their figures (`GET /api/v1/powers`) and a
//! form to lodge one by hand (`POST /api/v1/powers`). `console-powers.js`
//! fills and sends them.
//!
//! No field asks for a voting instruction: it is private between the
//! holder and the agent (SFC 2015060395-003), and the page says so.

use maud::{html, Markup};

/// The admission panel, first on the desk's page: the field a scanner
/// types into (its text, then Enter), the person's card, the one button.
pub(super) fn admission() -> Markup {
    html! {
        section #admision-panel .admission aria-labelledby="admision-title" {
            h2 #admision-title { "Admisión " span.en { "admission" } }
            form #admision .scan novalidate {
                label for="escanear" {
                    "Escanee la carta, o escriba el documento o el número de la cédula, y pulse Enter "
                    span.en { "scan the letter or type the id, then Enter" }
                }
                div.scan-line {
                    input #escanear type="text" autocomplete="off" spellcheck="false" autocapitalize="off"
                        aria-describedby="escanear-ayuda";
                    button type="submit" { "Buscar " span.en { "find" } }
                }
                p #escanear-ayuda .hint {
                    "Por ejemplo CC-1085850638, 1085850638 o el código de la carta. Luego Tab lleva al \
                     nombre y al botón «Admitir». "
                    span.en { "Then Tab reaches the name and the «Admitir» button." }
                }
            }
            div #admision-error .alert role="alert" {}
            div #ficha .card hidden {
                div #ficha-datos {}
                div.admit {
                    label for="admision-nombre" #admision-nombre-etiqueta {
                        "Nombre de quien asiste, como en su cédula "
                        span.en { "the attending person's name, as on their identity card" }
                    }
                    input #admision-nombre type="text" autocomplete="off";
                    button #admitir type="button" {
                        "Admitir y emitir credencial " span.en { "admit and issue badge" }
                    }
                }
                div #ficha-poderes {}
            }
            div #admitido .confirmation role="status" aria-live="polite" {}
        }
    }
}

/// The powers lodged before the meeting: the desk's figures on them and
/// the form to lodge one by hand.
pub(super) fn lodged() -> Markup {
    html! {
        section #poderes-panel aria-labelledby="poderes-title" {
            h2 #poderes-title { "Poderes radicados " span.en { "lodged powers" } }
            p #poderes-estado .lead {}
            div.table-wrap {
                table.figures {
                    thead {
                        tr {
                            th { "Poderes " span.en { "powers" } }
                            th.num { "Cantidad " span.en { "count" } }
                        }
                    }
                    tbody #poderes-cifras {}
                }
            }
            h3 { "Rechazados, por motivo " span.en { "refused, by reason" } }
            ul #poderes-motivos .reasons {}
            p.hint {
                "Un archivo de poderes se radica por la línea de comandos: "
                code { "asamblea poderes importar" }
                ". Aquí se radica uno a la vez, antes de instalar la reunión. "
                span.en {
                    "A file of powers is lodged with the command line; here, one at a time, before the \
                     installation."
                }
            }
            details #radicar {
                summary { "Radicar un poder a mano " span.en { "lodge one power by hand" } }
                (lodge_form())
            }
        }
    }
}

/// A select of the ties a declared agent or substitute may have.
fn tie_select(id: &str) -> Markup {
    html! {
        select id=(id) {
            option value="none" { "Ninguno / none" }
            option value="administrator" { "Administrador de la sociedad / administrator" }
            option value="employee" { "Empleado de la sociedad / employee" }
            option value="tied-to-administration" { "Vinculado a la administración / tied to the administration" }
        }
    }
}

/// One power, as the paper says it.
fn lodge_form() -> Markup {
    html! {
        form #radicar-poder .agent .lodge novalidate {
            p.hint {
                "Este formulario no pide instrucciones de voto: son privadas entre el accionista y su \
                 apoderado (SFC 2015060395-003). "
                span.en { "No voting instruction is asked: it is private (SFC 2015060395-003)." }
            }
            label for="poder-referencia" { "Referencia de radicación " span.en { "filing reference" } }
            input #poder-referencia autocomplete="off" spellcheck="false";
            label for="poder-poderdantes" {
                "Poderdantes: documentos, uno por línea o separados por comas "
                span.en { "principals' ids, one a line or comma-separated" }
            }
            textarea #poder-poderdantes rows="3" spellcheck="false" {}
            label for="poder-agente" { "Documento del apoderado " span.en { "the agent's id" } }
            input #poder-agente autocomplete="off" spellcheck="false";
            label for="poder-agente-nombre" {
                "Nombre del apoderado, como lo escribe el poder " span.en { "the agent's name as written" }
            }
            input #poder-agente-nombre autocomplete="off";
            label for="poder-vinculo" {
                "Vínculo declarado del apoderado con la sociedad " span.en { "the agent's declared tie" }
            }
            (tie_select("poder-vinculo"))
            label.choice {
                input #poder-sugerido type="checkbox";
                " La sociedad sugirió al apoderado " span.en { "the company suggested the agent" }
            }
            details.substitutes {
                summary { "Sustitutos (hasta 4) " span.en { "substitutes (up to 4)" } }
                @for i in 1..=4 {
                    fieldset {
                        legend { "Sustituto " (i) " " span.en { "substitute" } }
                        label for=(format!("sustituto-{i}")) { "Documento " span.en { "id" } }
                        input id=(format!("sustituto-{i}")) autocomplete="off" spellcheck="false";
                        label for=(format!("sustituto-{i}-nombre")) { "Nombre " span.en { "name" } }
                        input id=(format!("sustituto-{i}-nombre")) autocomplete="off";
                        label for=(format!("sustituto-{i}-vinculo")) { "Vínculo " span.en { "tie" } }
                        (tie_select(&format!("sustituto-{i}-vinculo")))
                    }
                }
            }
            label for="poder-fecha" {
                "Fecha de la reunión, como la escribe el poder (vacío si no la dice) "
                span.en { "the meeting's date as the power writes it (empty if none)" }
            }
            input #poder-fecha autocomplete="off";
            label for="poder-via" { "Recibido por " span.en { "received via" } }
            select #poder-via {
                option value="email" { "Correo electrónico / email" }
                option value="office" { "En la oficina / at the office" }
                option value="mail" { "Correo postal / mail" }
                option value="other" { "Otro medio / other" }
            }
            label for="poder-recibido" { "Recibido el " span.en { "received on" } }
            input #poder-recibido autocomplete="off" inputmode="numeric" aria-describedby="poder-recibido-ayuda";
            p #poder-recibido-ayuda .hint {
                "Día/mes/año (10/03/2027) o año-mes-día (2027-03-10). "
                span.en { "day/month/year, or year-month-day" }
            }
            label for="poder-sha256" {
                "SHA-256 del documento escaneado " span.en { "SHA-256 of the scanned document" }
            }
            input #poder-sha256 autocomplete="off" spellcheck="false" aria-describedby="poder-sha256-ayuda";
            p #poder-sha256-ayuda .hint {
                "64 cifras hexadecimales; en el equipo donde está el archivo: "
                code { "sha256sum archivo.pdf" }
                " "
                span.en { "64 hex digits, from sha256sum on the file." }
            }
            label for="poder-juicio" {
                "Juicio de la mesa sobre el documento (opcional) "
                span.en { "the desk's judgement of the document (optional)" }
            }
            select #poder-juicio {
                option value="" { "Ninguno: lo juzgan las reglas / none: the rules judge it" }
                option value="document-rejected" { "Rechazo el documento / I reject the document" }
                option value="wrong-meeting" { "Es para otra reunión / it is for another meeting" }
            }
            div #radicar-error .alert role="alert" {}
            p #radicar-veredicto role="status" aria-live="polite" {}
            button #radicar-boton type="submit" { "Radicar el poder " span.en { "lodge the power" } }
        }
    }
}
