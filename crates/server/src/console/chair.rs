//! The chair's console (`/presidencia`): the quorum, the agenda with a
//! button to open or close each item's poll, and a closed item's result
//! to read aloud (`reading.js`, shared with the projector view).

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use maud::html;

use asamblea_venue::staff::Role;

use crate::AppState;

/// `GET /presidencia`: the chair's agenda.
pub(super) async fn page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let main = html! {
        p #quorum .quorum aria-live="polite" { "…" }
        p #mensaje role="status" aria-live="polite" {}
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
    };
    super::console(&state, &headers, &[Role::Chair], ("Presidencia", "Chair"), "presidencia", main)
}
