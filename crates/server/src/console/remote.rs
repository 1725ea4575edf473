//! The desk's «Verificación de asistentes remotos»: the registrations
//! waiting (the person as typed and as the register or a lodged power
//! knows them, and the key's fingerprint the person's phone shows too, to
//! compare on the video call), the method the notice states, the evidence
//! (a file whose SHA-256 this browser computes, or a reference typed), and
//! «Verificar y habilitar». `console-remote.js` fills and sends it.
//!
//! And the chair's «Intervenciones a distancia» (`floor_panel`): every
//! question and written statement sent from afar, in order of arrival,
//! with «Leída», «Respondida» or «No leída» (saying why) for each.

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

/// The chair's queue of questions and statements from afar, on the
/// chair's page of a meeting with a remote channel.
pub(super) fn floor_panel() -> Markup {
    html! {
        section.remote.floor aria-labelledby="floor-title" {
            h2 #floor-title { "Intervenciones a distancia " span.en { "questions and statements from afar" } }
            p {
                "En el orden en que llegaron. Marque qué se hizo con cada una: el acta lo dice, y las que queden sin trámite también. "
                span.en { "In order of arrival; the acta says what was done with each, and lists those left unhandled." }
            }
            p #floor-mensaje role="status" aria-live="polite" {}
            p #floor-vacio { "Nadie ha enviado preguntas ni constancias. " span.en { "nothing sent yet" } }
            ol #intervenciones {}
        }
    }
}
