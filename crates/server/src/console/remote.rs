//! The desk's «Verificación de asistentes remotos»: the registrations
//! waiting (the person as typed and as the register or a lodged power
//! knows them, and the key's fingerprint the person's phone shows too, to
//! compare on the video call), the method the notice states, the evidence
//! (a file whose SHA-256 this browser computes, or a reference typed), and
//! «Verificar y habilitar». `console-remote.js` fills and sends it.

use maud::{html, Markup};

/// The panel, on the desk's page.
pub(super) fn panel() -> Markup {
    html! {
        section.remote aria-labelledby="remote-title" {
            h2 #remote-title { "Verificación de asistentes remotos " span.en { "remote attendees' verification" } }
            p {
                "Verifique a la persona como dice la convocatoria y compare la huella con la que ve en su teléfono. "
                span.en { "Verify the person as the notice says and compare the fingerprint with their phone's." }
            }
            p #remote-mensaje role="status" aria-live="polite" {}
            p #remote-vacio { "No hay inscripciones en espera. " span.en { "no registrations waiting" } }
            ul #remote-pendientes {}
        }
    }
}
