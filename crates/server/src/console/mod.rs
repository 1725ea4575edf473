//! The staff consoles in a browser: signing in (`/personal`), the
//! registration desk (`/registro`), the chair (`/presidencia`) and the
//! secretary (`/secretaria`), and their one script (`/assets/console.js`).
//!
//! A console is a page for one role: anyone else signed in is told whose
//! it is and sent to their own; someone not signed in is sent to
//! `/personal`. The pages act through the same API as the command line
//! (`/api/v1/…`), with the session cookie and the session's CSRF token
//! (`sessions`); no page holds a figure the API does not give. Spanish
//! first, English beside it; no inline script or style (the CSP forbids
//! them), so the CSRF token travels in a `<meta>` the script reads.
//!
//! The pages are `maud` templates in the frame of `layout`: this file
//! holds what every console shares (the staff frame, the role gate, the
//! scripts and the routes), `sign_in` the sign-in and sign-out forms,
//! `desk`, `chair` and `secretary` one console each, and `powers` the
//! desk's admission and lodged powers. The ids and texts of
//! the pages are what `console.js` and the browser tests read.

mod chair;
mod desk;
mod powers;
mod remote;
mod secretary;
mod sign_in;

pub(crate) use secretary::csv_name;

use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use maud::{html, Markup};

use asamblea_venue::staff::Role;

use crate::layout::{self, Frame};
use crate::AppState;

/// Where a role works.
fn console_of(role: Role) -> &'static str {
    match role {
        Role::Operator => "/registro",
        Role::Chair => "/presidencia",
        Role::Secretary | Role::Auditor => "/secretaria",
    }
}

/// A role's name in Spanish and in English.
fn role_names(role: Role) -> (&'static str, &'static str) {
    match role {
        Role::Operator => ("registro", "registration desk"),
        Role::Chair => ("presidencia", "chair"),
        Role::Secretary => ("secretaría", "secretary"),
        Role::Auditor => ("revisoría fiscal", "statutory auditor"),
    }
}

/// The member signed in on a staff page: their name, role and the
/// session's CSRF token.
#[derive(Clone, Copy)]
struct SignedIn<'a> {
    name: &'a str,
    role: Role,
    csrf: &'a str,
}

/// A staff page (`kind`: `personal`, `registro`, …) in the frame of every
/// page: the CSRF token in a `<meta>` for the script, the scripts, and
/// who is signed in with a button to sign out in the header.
fn staff_page(
    status: StatusCode,
    title: (&str, &str),
    kind: &str,
    who: Option<SignedIn<'_>>,
    main: Markup,
) -> Response {
    let head = html! {
        @if let Some(who) = who {
            meta name="csrf" content=(who.csrf);
        }
        script src="/assets/words.js" defer {}
        script src="/assets/reading.js" defer {}
        script src="/assets/console-desk.js" defer {}
        script src="/assets/console-powers.js" defer {}
        script src="/assets/console-agenda.js" defer {}
        script src="/assets/console-remote.js" defer {}
        script src="/assets/console.js" defer {}
        script src="/assets/nodes.js" defer {}
    };
    let header = html! {
        @if let Some(who) = who {
            form.signout method="post" action="/personal/salir" {
                input type="hidden" name="csrf" value=(who.csrf);
                span { (who.name) " · " (role_names(who.role).0) " " span.en { (role_names(who.role).1) } }
                " "
                button type="submit" { "Salir " span.en { "sign out" } }
            }
        }
    };
    let frame =
        Frame { title: title.0, heading: title, head, console: Some(kind), header, ..Frame::default() };
    layout::respond(status, layout::page(frame, main))
}

/// A console for `roles`: the page, or where to go instead — `/personal`
/// for who is not signed in, a note that says whose console it is for a
/// member of another role.
fn console(
    state: &AppState,
    headers: &HeaderMap,
    roles: &[Role],
    title: (&str, &str),
    kind: &str,
    main: Markup,
) -> Response {
    let Some((account, session)) = state.0.session(headers) else {
        return (StatusCode::SEE_OTHER, [(header::LOCATION, "/personal")]).into_response();
    };
    let who = SignedIn { name: &account.name, role: account.role, csrf: &session.csrf };
    if !roles.contains(&account.role) {
        let (es, en) = role_names(account.role);
        let not_yours = html! {
            div.error-summary role="alert" {
                h2 { "Esta consola no es de su cargo " span.en { "this console is not your role's" } }
                p { "Usted entró con la clave de " (es) ". " span.en { "You signed in with the " (en) " token." } }
                p { a href=(console_of(account.role)) { "Ir a su consola " span.en { "go to your console" } } }
            }
        };
        return staff_page(StatusCode::FORBIDDEN, title, kind, Some(who), not_yours);
    }
    staff_page(StatusCode::OK, title, kind, Some(who), main)
}

/// A script, as the daemon serves every one of its own.
fn javascript(source: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], source).into_response()
}

/// `GET /assets/qrcode.js`: the QR encoder the desk's browser writes a
/// badge's code with (vendored, MIT: `vendor/README.md`).
async fn qr_script() -> Response {
    javascript(include_str!("../vendor/qrcode.js"))
}

/// `GET /assets/console.js`: what every console shares (the API, the
/// quorum, the status) and the start of each.
async fn script() -> Response {
    javascript(include_str!("../console.js"))
}

/// `GET /assets/console-desk.js`: the registration desk's console.
async fn desk_script() -> Response {
    javascript(include_str!("../console-desk.js"))
}

/// `GET /assets/console-powers.js`: the desk's admissions and lodged
/// powers.
async fn powers_script() -> Response {
    javascript(include_str!("../console-powers.js"))
}

/// `GET /assets/console-remote.js`: the desk's verification of remote
/// attendees.
async fn remote_script() -> Response {
    javascript(include_str!("../console-remote.js"))
}

/// `GET /assets/console-agenda.js`: the chair's and the secretary's.
async fn agenda_script() -> Response {
    javascript(include_str!("../console-agenda.js"))
}

/// The consoles' pages and their scripts: anyone reaches them; who is not
/// signed in is sent to `/personal`, and each page acts through the API
/// with the signed-in member's session.
pub(crate) fn routes() -> Vec<crate::callers::Routes> {
    use crate::callers::{get_page, post_page, Callers, Routes};
    vec![Routes::pages(
        Callers::Public,
        vec![
            get_page("/personal", sign_in::page),
            post_page("/personal/entrar", sign_in::sign_in),
            post_page("/personal/continuar", sign_in::continue_session),
            post_page("/personal/salir", sign_in::sign_out),
            get_page("/registro", desk::page),
            get_page("/presidencia", chair::page),
            get_page("/secretaria", secretary::page),
            get_page("/assets/console.js", script),
            get_page("/assets/console-desk.js", desk_script),
            get_page("/assets/console-powers.js", powers_script),
            get_page("/assets/console-agenda.js", agenda_script),
            get_page("/assets/console-remote.js", remote_script),
            get_page("/assets/qrcode.js", qr_script),
        ],
    )]
}
