//! Signing in and out of the consoles: `/personal` (the form, or who is
//! signed in here), `POST /personal/entrar` (a staff token opens a
//! session), `POST /personal/continuar` (a session of another node of a
//! replicated meeting goes on here, by its pass: `passes`) and `POST
//! /personal/salir` (the session ends).

use axum::extract::rejection::FormRejection;
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Form;
use maud::html;
use serde::Deserialize;

use super::{console_of, role_names, staff_page, SignedIn};
use crate::layout::error_summary;
use crate::sessions;
use crate::AppState;

/// The client's address, when the serving layer gave one.
pub(super) struct Peer(Option<std::net::IpAddr>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Peer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(Peer(parts.extensions.get::<ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip())))
    }
}

/// The sign-in form's one field.
#[derive(Deserialize)]
pub(super) struct SignInForm {
    #[serde(default)]
    clave: String,
}

/// The form a console posts to the node that took the meeting over.
#[derive(Deserialize)]
pub(super) struct ContinueForm {
    #[serde(default)]
    pase: String,
    #[serde(default)]
    destino: String,
}

/// The sign-out form's one field.
#[derive(Deserialize)]
pub(super) struct SignOutForm {
    #[serde(default)]
    csrf: String,
}

/// `GET /personal`: the sign-in form, or who is signed in here.
pub(super) async fn page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let Some((account, session)) = state.0.session(&headers) else {
        return sign_in_form(StatusCode::OK, None);
    };
    let (role_es, role_en) = role_names(account.role);
    let main = html! {
        p.lead { "Ya entró como " strong { (account.name) } ". " span.en { "You are signed in." } }
        p {
            a.button href=(console_of(account.role)) {
                "Ir a la consola de " (role_es) " " span.en { "go to the " (role_en) " console" }
            }
        }
    };
    let who = SignedIn { name: &account.name, role: account.role, csrf: &session.csrf };
    staff_page(StatusCode::OK, ("Personal de la asamblea", "Meeting staff"), "personal", Some(who), main)
}

/// The form, with what went wrong (if anything) above it, in Spanish and
/// English.
fn sign_in_form(status: StatusCode, problem: Option<(&str, &str)>) -> Response {
    let invalid = problem.is_some();
    let main = html! {
        div.narrow {
            @if let Some((es, en)) = problem {
                (error_summary("clave", es, Some(en)))
            }
            form method="post" action="/personal/entrar" novalidate {
                label for="clave" { "Clave del personal " span.en { "staff token" } }
                p.hint {
                    "La clave de su cargo, impresa una sola vez al crear la reunión (48 caracteres). Se \
                     escribe una vez: el navegador guarda la sesión hasta que usted salga. "
                    span.en {
                        "Your role's token, printed once when the meeting was created. Typed once: the \
                         browser keeps the session until you sign out."
                    }
                }
                input #clave name="clave" type="password" autocomplete="off" spellcheck="false" required
                    aria-invalid=[invalid.then_some("true")] aria-describedby=[invalid.then_some("error-title")];
                " "
                button type="submit" { "Entrar " span.en { "sign in" } }
            }
            p { a href="/" { "Tablero público " span.en { "public board" } } }
        }
    };
    staff_page(status, ("Personal de la asamblea", "Meeting staff: sign in"), "personal", None, main)
}

/// `POST /personal/entrar`: a token in the form body opens a session and
/// sends the member to their console. A wrong token counts toward the
/// address's limit, as on the API.
pub(super) async fn sign_in(
    State(state): State<AppState>,
    Peer(peer): Peer,
    headers: HeaderMap,
    form: Result<Form<SignInForm>, FormRejection>,
) -> Response {
    if !sessions::same_origin(&headers) {
        return sign_in_form(
            StatusCode::FORBIDDEN,
            Some((
                "El formulario llegó desde otro sitio; abra esta página directamente.",
                "The form came from another site; open this page directly.",
            )),
        );
    }
    let Ok(Form(SignInForm { clave })) = form else {
        return sign_in_form(
            StatusCode::BAD_REQUEST,
            Some((
                "El formulario no llegó completo; escriba la clave otra vez.",
                "The form did not arrive whole; type the token again.",
            )),
        );
    };
    match state.0.check_token(clave.trim(), peer) {
        Ok(account) => {
            let (cookie, _) = state.0.sessions.open(&account.name);
            tracing::info!(staff.name = %account.name, "entrada del personal / staff signed in");
            (
                StatusCode::SEE_OTHER,
                [(header::SET_COOKIE, sessions::set_cookie(&cookie)), (header::LOCATION, console_of(account.role).to_string())],
            )
                .into_response()
        }
        Err(error) if error.status() == StatusCode::TOO_MANY_REQUESTS => {
            sign_in_form(error.status(), Some((&error.message_es, &error.message_en)))
        }
        Err(_) => sign_in_form(
            StatusCode::UNAUTHORIZED,
            Some((
                "Esa clave no es de esta reunión. Cópiela otra vez de la hoja impresa al crear la reunión, carácter por carácter.",
                "That token is not one of this meeting's. Copy it again from the sheet printed when the meeting was created.",
            )),
        ),
    }
}

/// `POST /personal/continuar`: a console whose node stopped answering
/// posts its session's pass here (`nodes.js`); a good pass opens a
/// session for the same account and the page goes on to the console it
/// was (`destino`). The form comes from another node's page, so instead
/// of [`sessions::same_origin`] its `Origin` must be one of the meeting's
/// nodes. A refused pass leaves the sign-in form, saying why.
pub(super) async fn continue_session(
    State(state): State<AppState>,
    headers: HeaderMap,
    form: Result<Form<ContinueForm>, FormRejection>,
) -> Response {
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if !state.0.nodes.names_origin(origin) && !sessions::same_origin(&headers) {
        return sign_in_form(
            StatusCode::FORBIDDEN,
            Some((
                "El pase llegó desde una página que no es de un nodo de esta reunión; entre con su clave.",
                "The pass came from a page that is not a node of this meeting's; sign in with your token.",
            )),
        );
    }
    let Ok(Form(ContinueForm { pase, destino })) = form else {
        return sign_in_form(
            StatusCode::BAD_REQUEST,
            Some((
                "El pase de sesión no llegó completo; entre con su clave.",
                "The session pass did not arrive whole; sign in with your token.",
            )),
        );
    };
    let account = match crate::passes::take(&state, &pase) {
        Ok(account) => account,
        Err((es, en)) => {
            tracing::warn!(%origin, "pase de sesión rechazado / session pass refused: {en}");
            let es = format!("{es} Entre con su clave.");
            let en = format!("{en} Sign in with your token.");
            return sign_in_form(StatusCode::UNAUTHORIZED, Some((es.as_str(), en.as_str())));
        }
    };
    let (cookie, _) = state.0.sessions.open(&account.name);
    tracing::info!(staff.name = %account.name, %origin, "sesión continuada desde otro nodo / session continued from another node");
    // Only a console's own address: never another site, never a path the
    // form chose freely.
    let to = ["/registro", "/presidencia", "/secretaria"]
        .into_iter()
        .find(|path| *path == destino)
        .unwrap_or(console_of(account.role));
    // A page, not a redirect: the cookie is `SameSite=Strict`, and a
    // browser sends it on a navigation this node's page starts, not on a
    // redirect that ends a post from another site.
    let head = html! { meta http-equiv="refresh" content=(format!("0; url={to}?siguio=1")); };
    let main = html! {
        p.lead role="status" {
            "Su sesión sigue en este nodo: abriendo su consola… "
            span.en { "Your session goes on at this node: opening your console…" }
        }
        p { a.button href=(to) { "Abrir la consola " span.en { "open the console" } } }
    };
    let frame = crate::layout::Frame {
        title: "Sesión continuada",
        heading: ("Sesión continuada", "Session continued"),
        head,
        console: None,
        ..crate::layout::Frame::default()
    };
    let mut response = crate::layout::respond(StatusCode::OK, crate::layout::page(frame, main));
    if let Ok(value) = axum::http::HeaderValue::from_str(&sessions::set_cookie(&cookie)) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    response
}

/// `POST /personal/salir`: ends the session (with its CSRF token, so no
/// other site can sign anyone out) and drops the cookie.
pub(super) async fn sign_out(
    State(state): State<AppState>,
    headers: HeaderMap,
    form: Result<Form<SignOutForm>, FormRejection>,
) -> Response {
    let csrf = form.map(|Form(f)| f.csrf).unwrap_or_default();
    let session = state.0.session(&headers).map(|(_, session)| session);
    match (sessions::cookie(&headers), session) {
        (Some(cookie), Some(session))
            if sessions::csrf_matches(&session, &csrf) && sessions::same_origin(&headers) =>
        {
            state.0.sessions.close(cookie);
            (
                StatusCode::SEE_OTHER,
                [(header::SET_COOKIE, sessions::clear_cookie()), (header::LOCATION, "/personal".to_string())],
            )
                .into_response()
        }
        (_, Some(_)) => crate::error::ApiError::csrf().into_response(),
        _ => (StatusCode::SEE_OTHER, [(header::LOCATION, "/personal".to_string())]).into_response(),
    }
}
