//! The chair's console (`/presidencia`): the quorum, the meeting's
//! sessions (install, suspend, resume, adjourn, each with a note for the
//! acta), the agenda with a button to open or close each item's poll (the
//! informative items in their place, the candidates of each list), and a
//! closed item's result to read aloud (`reading.js`, shared with the
//! projector view); in a meeting with a remote channel, the questions and
//! statements sent from afar (`remote::floor_panel`).

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use maud::html;

use asamblea_venue::staff::Role;

use crate::AppState;

/// `GET /presidencia`: the chair's agenda.
pub(super) async fn page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let remote = state.with_service(|service| service.state().remote_attendance_allowed());
    let main = html! {
        p #quorum .quorum aria-live="polite" { "…" }
        p #mensaje role="status" aria-live="polite" {}
        section .session aria-labelledby="session-title" {
            h2 #session-title { "Sesión " span.en { "session" } }
            div #sesion {}
            p.session-note {
                label for="sesion-nota" { "Nota para el acta (opcional) " span.en { "note for the minutes (optional)" } }
                br;
                input #sesion-nota type="text" maxlength="256" autocomplete="off"
                    placeholder="p. ej. se reanuda mañana a las 9:00 en el mismo lugar";
            }
            div #sesion-acciones .session-actions {}
        }
        section #lectura .reading aria-labelledby="reading-title" hidden {
            h2 #reading-title { "Resultado para leer en voz alta " span.en { "result to read aloud" } }
            div #lectura-texto {}
        }
        section aria-labelledby="agenda-title" {
            h2 #agenda-title { "Orden del día " span.en { "agenda" } }
            div.table-wrap {
                table {
                    thead {
                        tr {
                            th { "Punto " span.en { "item" } }
                            th { "Asunto " span.en { "matter" } }
                            th { "Estado " span.en { "state" } }
                            th.num { "Votos " span.en { "votes" } }
                            th { span.visually-hidden { "Acción / action" } }
                        }
                    }
                    tbody #agenda {}
                }
            }
        }
        @if remote {
            (super::remote::floor_panel())
        }
    };
    super::console(&state, &headers, &[Role::Chair], ("Presidencia", "Chair"), "presidencia", main)
}
