//! The one frame of every page the daemon renders itself — the staff
//! consoles (`console`), the receipt check (`receipt_page`) and the counted
//! ballots (`counted`) — and the parts those pages share, written once as
//! `maud` templates.
//!
//! `maud`'s `html!` is checked when the crate compiles (an unclosed element
//! or a misspelt variable does not build) and escapes every value it is
//! given, so no page escapes by hand and none can forget to. The frame
//! holds no inline script and no inline style: the Content-Security-Policy
//! of every answer (`limits`) forbids both, so a page's script is a file of
//! its own and its data travels in attributes (`<meta name="csrf">`,
//! `data-console`, `data-meeting`) that the script reads.

use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use maud::{html, Markup, DOCTYPE};

/// What a page puts into the frame besides its body. Every field but the
/// title and the heading is empty on a public page.
#[derive(Default)]
pub(crate) struct Frame<'a> {
    /// The title, before "— Asamblea".
    pub(crate) title: &'a str,
    /// The heading in Spanish, and the line in English under it.
    pub(crate) heading: (&'a str, &'a str),
    /// More of `<head>`: a console's CSRF token and its scripts.
    pub(crate) head: Markup,
    /// Which console the page is (`data-console` on `<body>`): the
    /// consoles' one script reads it to know what to start.
    pub(crate) console: Option<&'a str>,
    /// More of the header: who is signed in, and the button to sign out.
    pub(crate) header: Markup,
    /// The class of `<main>` (`narrow` for a page of one short form).
    pub(crate) main_class: Option<&'a str>,
}

/// A whole page: Spanish, the board's style sheet, `main` in the frame.
pub(crate) fn page(frame: Frame<'_>, main: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="es" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                (frame.head)
                title { (frame.title) " — Asamblea" }
                link rel="stylesheet" href="/assets/board.css";
            }
            body data-console=[frame.console] {
                header {
                    h1 { (frame.heading.0) }
                    p { (frame.heading.1) }
                    (frame.header)
                }
                main class=[frame.main_class] { (main) }
            }
        }
    }
}

/// A rendered page as the answer, with its status.
pub(crate) fn respond(status: StatusCode, page: Markup) -> Response {
    (status, Html(page.into_string())).into_response()
}

/// The error summary at the top of a form (the GOV.UK Design System's):
/// focusable, announced at once, its message a link to the field `field`
/// to correct; `en`, when given, the message in English under it.
pub(crate) fn error_summary(field: &str, es: &str, en: Option<&str>) -> Markup {
    html! {
        div.error-summary role="alert" aria-labelledby="error-title" tabindex="-1" {
            h2 #error-title { "Hay un problema " span.en { "there is a problem" } }
            p { a href={ "#" (field) } { (es) } }
            @if let Some(en) = en {
                p.en { (en) }
            }
        }
    }
}

/// A link's query string (`name=value&…`), each name and value encoded
/// as a form sends it: an item's id may hold any character but a control.
pub(crate) fn query(pairs: &[(&str, &str)]) -> String {
    form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frame_escapes_what_it_is_given_and_holds_no_inline_script_or_style() {
        let html = page(
            Frame {
                title: "<b>título</b>",
                heading: ("Papeletas contadas: «A & B»", "Counted ballots"),
                console: Some("registro"),
                main_class: Some("narrow"),
                ..Frame::default()
            },
            html! { p { "<script>" } },
        )
        .into_string();
        assert!(html.starts_with("<!DOCTYPE html><html lang=\"es\">"), "{html}");
        assert!(html.contains("<title>&lt;b&gt;título&lt;/b&gt; — Asamblea</title>"), "{html}");
        assert!(html.contains("<h1>Papeletas contadas: «A &amp; B»</h1><p>Counted ballots</p>"), "{html}");
        assert!(html.contains("<body data-console=\"registro\">"), "{html}");
        assert!(html.contains("<main class=\"narrow\"><p>&lt;script&gt;</p></main>"), "{html}");
        assert!(!html.contains("<script") && !html.contains("<style") && !html.contains("style="), "{html}");
    }

    #[test]
    fn a_public_page_has_no_console_and_main_no_empty_class() {
        let html =
            page(Frame { title: "t", heading: ("es", "en"), ..Frame::default() }, html! {}).into_string();
        assert!(html.contains("<body><header>") && html.contains("<main></main>"), "{html}");
    }

    #[test]
    fn a_query_encodes_what_a_form_would() {
        assert_eq!(query(&[("punto", "item-1"), ("pagina", "2")]), "punto=item-1&pagina=2");
        assert_eq!(query(&[("punto", "a&b #1=ñ")]), "punto=a%26b+%231%3D%C3%B1");
    }

    #[test]
    fn the_error_summary_links_to_its_field() {
        let html = error_summary("clave", "Esa clave <no>", Some("That token")).into_string();
        assert_eq!(
            html,
            "<div class=\"error-summary\" role=\"alert\" aria-labelledby=\"error-title\" tabindex=\"-1\">\
             <h2 id=\"error-title\">Hay un problema <span class=\"en\">there is a problem</span></h2>\
             <p><a href=\"#clave\">Esa clave &lt;no&gt;</a></p><p class=\"en\">That token</p></div>"
        );
    }
}
