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

use axum::extract::rejection::FormRejection;
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Form;
use serde::Deserialize;

use asamblea_documents::markup::escape;
use asamblea_venue::staff::Role;

use crate::sessions;
use crate::AppState;

/// The client's address, when the serving layer gave one.
pub(crate) struct Peer(Option<std::net::IpAddr>);

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
pub(crate) struct SignInForm {
    #[serde(default)]
    clave: String,
}

/// The sign-out form's one field.
#[derive(Deserialize)]
pub(crate) struct SignOutForm {
    #[serde(default)]
    csrf: String,
}

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

/// The frame of every staff page: `csrf` in a `<meta>` for the script,
/// the signed-in member and a sign-out button in the header.
fn frame(title: (&str, &str), kind: &str, who: Option<(&str, Role, &str)>, body: &str) -> String {
    let (es, en) = title;
    let (meta, signed_in) = match who {
        Some((name, role, csrf)) => (
            format!(r#"<meta name="csrf" content="{}">"#, escape(csrf)),
            format!(
                r#"<form method="post" action="/personal/salir" class="signout">
<input type="hidden" name="csrf" value="{csrf}">
<span>{name} · {role_es} <span class="en">{role_en}</span></span>
<button type="submit">Salir <span class="en">sign out</span></button>
</form>"#,
                csrf = escape(csrf),
                name = escape(name),
                role_es = role_names(role).0,
                role_en = role_names(role).1,
            ),
        ),
        None => (String::new(), String::new()),
    };
    let head = format!(
        "{meta}\n<script src=\"/assets/reading.js\" defer></script>\n<script src=\"/assets/console.js\" defer></script>\n"
    );
    let header = if signed_in.is_empty() { String::new() } else { format!("{signed_in}\n") };
    crate::receipt_page::page_html(&crate::receipt_page::Page {
        title: es,
        head: &head,
        body_attributes: &format!(" data-console=\"{kind}\""),
        heading: (&escape(es), &escape(en)),
        header: &header,
        main_class: "",
        main: body,
    })
}

/// `GET /personal`: the sign-in form, or who is signed in here.
pub(crate) async fn sign_in_page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Some((account, session)) = state.0.session(&headers) {
        let body = format!(
            r#"<p class="lead">Ya entró como <strong>{name}</strong>. <span class="en">You are signed in.</span></p>
<p><a class="button" href="{href}">Ir a la consola de {role_es} <span class="en">go to the {role_en} console</span></a></p>"#,
            name = escape(&account.name),
            href = console_of(account.role),
            role_es = role_names(account.role).0,
            role_en = role_names(account.role).1,
        );
        let who = Some((account.name.as_str(), account.role, session.csrf.as_str()));
        return page(StatusCode::OK, ("Personal de la asamblea", "Meeting staff"), "personal", who, &body);
    }
    sign_in_form(StatusCode::OK, None)
}

/// The form, with what went wrong (if anything) above it.
fn sign_in_form(status: StatusCode, problem: Option<(&str, &str)>) -> Response {
    let notice = problem.map_or_else(String::new, |(es, en)| {
        format!(
            r##"<div class="error-summary" role="alert" aria-labelledby="error-title" tabindex="-1">
<h2 id="error-title">Hay un problema <span class="en">there is a problem</span></h2>
<p><a href="#clave">{}</a></p><p class="en">{}</p>
</div>"##,
            escape(es),
            escape(en)
        )
    });
    let body = format!(
        r#"<div class="narrow">
{notice}
<form method="post" action="/personal/entrar" novalidate>
<label for="clave">Clave del personal <span class="en">staff token</span></label>
<p class="hint">La clave de su cargo, impresa una sola vez al crear la reunión (48 caracteres). Se escribe una vez: el navegador guarda la sesión hasta que usted salga. <span class="en">Your role's token, printed once when the meeting was created. Typed once: the browser keeps the session until you sign out.</span></p>
<input id="clave" name="clave" type="password" autocomplete="off" spellcheck="false" required{aria}>
<button type="submit">Entrar <span class="en">sign in</span></button>
</form>
<p><a href="/">Tablero público <span class="en">public board</span></a></p>
</div>"#,
        aria = if problem.is_some() { r#" aria-invalid="true" aria-describedby="error-title""# } else { "" },
    );
    page(status, ("Personal de la asamblea", "Meeting staff: sign in"), "personal", None, &body)
}

fn page(
    status: StatusCode,
    title: (&str, &str),
    kind: &str,
    who: Option<(&str, Role, &str)>,
    body: &str,
) -> Response {
    (status, Html(frame(title, kind, who, body))).into_response()
}

/// `POST /personal/entrar`: a token in the form body opens a session and
/// sends the member to their console. A wrong token counts toward the
/// address's limit, as on the API.
pub(crate) async fn sign_in(
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

/// `POST /personal/salir`: ends the session (with its CSRF token, so no
/// other site can sign anyone out) and drops the cookie.
pub(crate) async fn sign_out(
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

/// A console for `role` (and `also`): the page, or where to go instead.
fn console(
    state: &AppState,
    headers: &HeaderMap,
    roles: &[Role],
    title: (&str, &str),
    kind: &str,
    body: &str,
) -> Response {
    let Some((account, session)) = state.0.session(headers) else {
        return (StatusCode::SEE_OTHER, [(header::LOCATION, "/personal")]).into_response();
    };
    if !roles.contains(&account.role) {
        let (es, en) = role_names(account.role);
        let body = format!(
            r#"<div class="error-summary" role="alert"><h2>Esta consola no es de su cargo <span class="en">this console is not your role's</span></h2>
<p>Usted entró con la clave de {es}. <span class="en">You signed in with the {en} token.</span></p>
<p><a href="{href}">Ir a su consola <span class="en">go to your console</span></a></p></div>"#,
            href = console_of(account.role)
        );
        let who = Some((account.name.as_str(), account.role, session.csrf.as_str()));
        return page(StatusCode::FORBIDDEN, title, kind, who, &body);
    }
    let who = Some((account.name.as_str(), account.role, session.csrf.as_str()));
    page(StatusCode::OK, title, kind, who, body)
}

/// `GET /registro`: the registration desk.
pub(crate) async fn operator(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let meeting = asamblea_wire::hex::encode(&state.0.meeting_id.0);
    let body = OPERATOR_PAGE.replace("{meeting}", &meeting);
    console(
        &state,
        &headers,
        &[Role::Operator],
        ("Registro de asistentes", "Registration desk"),
        "registro",
        &body,
    )
}

/// The registration desk's page; `{meeting}` is the meeting's id, which a
/// badge's QR text begins with.
const OPERATOR_PAGE: &str = r#"<div id="reunion" data-meeting="{meeting}" hidden></div>
<script src="/assets/qrcode.js" defer></script>
<section id="impresion" class="badge-print" aria-labelledby="print-title" hidden>
<h2 id="print-title">Credencial para imprimir <span class="en">badge to print</span></h2>
<p class="hint">El código QR se hizo en este navegador: la clave de la credencial no salió de este equipo. Imprímala y entréguela en la mano; al cerrar esta vista se borra. <span class="en">The QR code was made in this browser: the badge's key never left this computer. Print it and hand it over; closing this view erases it.</span></p>
<div id="credencial"></div>
<button type="button" id="imprimir">Imprimir <span class="en">print</span></button>
<button type="button" id="cerrar-credencial" class="leave">Cerrar <span class="en">close</span></button>
</section>
<section aria-labelledby="quorum-title">
<h2 id="quorum-title">Quórum <span class="en">quorum</span></h2>
<p id="quorum" class="quorum" aria-live="polite">…</p>
<p id="umbral" class="threshold"></p>
</section>
<section aria-labelledby="search-title">
<h2 id="search-title">Registrar una llegada <span class="en">check in a holder</span></h2>
<label for="buscar">Buscar por documento o nombre <span class="en">search by id or name</span></label>
<input id="buscar" type="search" autocomplete="off" spellcheck="false" aria-describedby="coinciden">
<p id="mensaje" role="status" aria-live="polite"></p>
<div class="table-wrap"><table>
<thead><tr><th>Documento <span class="en">id</span></th><th>Nombre <span class="en">name</span></th><th class="num">Acciones <span class="en">shares</span></th><th>Estado <span class="en">state</span></th><th><span class="visually-hidden">Acción / action</span></th></tr></thead>
<tbody id="resultados"></tbody>
</table></div>
<p id="coinciden" class="hint"></p>
</section>
<section aria-labelledby="agent-title">
<h2 id="agent-title">Registrar un apoderado o representante legal <span class="en">check in an agent</span></h2>
<form id="apoderado" class="agent" novalidate>
<label for="agente">Documento del apoderado <span class="en">the agent's id</span></label>
<input id="agente" autocomplete="off" spellcheck="false">
<label for="representados">Accionistas que representa, separados por comas <span class="en">the holders represented, comma-separated</span></label>
<input id="representados" autocomplete="off" spellcheck="false">
<fieldset>
<legend>Calidad <span class="en">capacity</span></legend>
<label class="choice"><input type="radio" name="calidad" value="proxy" checked> Apoderado, con poder escrito <span class="en">proxy</span></label>
<label class="choice"><input type="radio" name="calidad" value="legal-representative"> Representante legal <span class="en">legal representative</span></label>
</fieldset>
<label for="cargo">¿Es administrador o empleado de la sociedad? <span class="en">is the agent an administrator or employee?</span></label>
<select id="cargo"><option value="">No</option><option value="administrator">Administrador</option><option value="employee">Empleado</option></select>
<label for="poder">Referencia del poder <span class="en">reference of the power of attorney</span></label>
<input id="poder" autocomplete="off">
<p id="veredicto" role="status" aria-live="polite"></p>
<button type="button" id="verificar">Verificar con las reglas <span class="en">check with the rules</span></button>
<button type="button" id="confirmar" disabled>Confirmar la llegada <span class="en">confirm the arrival</span></button>
<button type="button" id="rechazar" class="leave" disabled>Rechazar el poder <span class="en">refuse the power</span></button>
<p class="hint">Un rechazo queda en el registro firmado y en el acta, con su motivo. <span class="en">A refusal is recorded, with its reason, for the minutes.</span></p>
</form>
</section>
<section aria-labelledby="plot-title">
<h2 id="plot-title">El quórum durante la reunión <span class="en">the quorum through the meeting</span></h2>
<figure class="plot">
<div id="serie"></div>
<figcaption id="serie-titulo">Quórum al abrir y cerrar cada votación, en % de las acciones con derecho a voto; la línea punteada es el umbral. <span class="en">Quorum at each poll's open and close, as % of the voting shares; the dotted line is the threshold.</span></figcaption>
</figure>
</section>
<section aria-labelledby="figures-title">
<h2 id="figures-title">Cifras de la mesa de registro <span class="en">desk figures</span></h2>
<div class="table-wrap"><table>
<thead><tr><th>Asistencia <span class="en">attendance</span></th><th class="num">Accionistas <span class="en">holders</span></th><th class="num">Personas <span class="en">people</span></th><th class="num">Acciones <span class="en">shares</span></th></tr></thead>
<tbody id="cifras"></tbody>
</table></div>
<p id="credenciales" class="lead"></p>
<h3>Poderes rechazados <span class="en">refused proxies</span></h3>
<div class="table-wrap"><table>
<thead><tr><th>Apoderado <span class="en">agent</span></th><th>Representados <span class="en">principals</span></th><th>Motivo <span class="en">reason</span></th><th>Poder <span class="en">power</span></th></tr></thead>
<tbody id="rechazados"></tbody>
</table></div>
</section>"#;

/// `GET /presidencia`: the chair's agenda.
pub(crate) async fn chair(State(state): State<AppState>, headers: HeaderMap) -> Response {
    console(
        &state,
        &headers,
        &[Role::Chair],
        ("Presidencia", "Chair"),
        "presidencia",
        r#"<p id="quorum" class="quorum" aria-live="polite">…</p>
<p id="mensaje" role="status" aria-live="polite"></p>
<section id="lectura" class="reading" aria-labelledby="reading-title" hidden>
<h2 id="reading-title">Resultado para leer en voz alta <span class="en">result to read aloud</span></h2>
<div id="lectura-texto"></div>
</section>
<section aria-labelledby="agenda-title">
<h2 id="agenda-title">Orden del día <span class="en">agenda</span></h2>
<div class="table-wrap"><table>
<thead><tr><th>Punto <span class="en">item</span></th><th>Asunto <span class="en">matter</span></th><th>Estado <span class="en">state</span></th><th class="num">Votos <span class="en">votes</span></th><th><span class="visually-hidden">Acción / action</span></th></tr></thead>
<tbody id="agenda"></tbody>
</table></div>
</section>"#,
    )
}

/// `GET /secretaria`: the secretary's results and the audit bundle.
pub(crate) async fn secretary(State(state): State<AppState>, headers: HeaderMap) -> Response {
    console(
        &state,
        &headers,
        &[Role::Secretary, Role::Auditor],
        ("Secretaría", "Secretary"),
        "secretaria",
        r#"<p id="quorum" class="quorum" aria-live="polite">…</p>
<section aria-labelledby="results-title">
<h2 id="results-title">Resultados <span class="en">results</span></h2>
<div class="table-wrap"><table>
<thead><tr><th>Punto y regla <span class="en">item and rule</span></th><th>Decisión <span class="en">decision</span></th><th class="num">Sí <span class="en">for</span></th><th class="num">No <span class="en">against</span></th><th class="num">En blanco <span class="en">blank</span></th><th class="num">Abstención <span class="en">abstained</span></th><th class="num">Impedidas <span class="en">impeded</span></th><th class="num">Base</th></tr></thead>
<tbody id="agenda"></tbody>
</table></div>
</section>
<section aria-labelledby="series-title">
<h2 id="series-title">Continuidad del quórum <span class="en">the quorum series</span></h2>
<p class="hint">El quórum al abrir y al cerrar cada votación, como lo pide el Decreto 398 de 2020 para el acta. <span class="en">The quorum at each poll's open and close, as the minutes must record it.</span></p>
<div class="table-wrap"><table>
<thead><tr><th>Punto <span class="en">item</span></th><th>Momento <span class="en">moment</span></th><th class="num">Acciones presentes <span class="en">shares present</span></th><th class="num">% con voto <span class="en">% voting</span></th><th class="num">Accionistas <span class="en">holders</span></th><th>Quórum</th></tr></thead>
<tbody id="serie-tabla"></tbody>
</table></div>
</section>
<section aria-labelledby="ae-title">
<h2 id="ae-title">Administradores y empleados <span class="en">administrators and employees</span></h2>
<p class="hint">No pueden representar acciones ajenas como apoderados ni votar los estados financieros de fin de ejercicio (art. 185 C.Co.). <span class="en">They may not carry others' shares as proxies nor vote on the year-end statements.</span></p>
<div class="table-wrap"><table>
<thead><tr><th>Documento <span class="en">id</span></th><th>Nombre <span class="en">name</span></th><th>Cargo <span class="en">role</span></th><th class="num">Acciones <span class="en">shares</span></th><th>Estado <span class="en">state</span></th></tr></thead>
<tbody id="administradores"></tbody>
</table></div>
</section>
<section aria-labelledby="impeded-title">
<h2 id="impeded-title">Acciones impedidas y derecho de retiro <span class="en">impeded shares and withdrawal rights</span></h2>
<div id="retiro"></div>
</section>
<section aria-labelledby="statements-title">
<h2 id="statements-title">Constancias escritas <span class="en">written statements</span></h2>
<p class="hint">Lo que un asistente pide que conste en el acta, sobre un punto: queda en el registro firmado con su nombre. <span class="en">What an attendee asks the minutes to record about an item: kept in the signed ledger under their name.</span></p>
<form id="constancia" class="agent" novalidate>
<label for="constancia-punto">Punto <span class="en">item</span></label>
<select id="constancia-punto"></select>
<label for="constancia-persona">Documento de quien la presenta (presente en la reunión) <span class="en">the id of its author, present at the meeting</span></label>
<input id="constancia-persona" autocomplete="off" spellcheck="false">
<label for="constancia-texto">Texto, tal como lo entregó <span class="en">its words, as handed in</span></label>
<textarea id="constancia-texto" rows="5" maxlength="4000"></textarea>
<p id="constancia-mensaje" role="status" aria-live="polite"></p>
<button type="button" id="constancia-registrar">Registrar la constancia <span class="en">record the statement</span></button>
</form>
<div id="constancias"></div>
</section>
<section aria-labelledby="exports-title">
<h2 id="exports-title">Resultados para descargar <span class="en">tallies to download</span></h2>
<p class="hint">Hechos del paquete de auditoría, verificado primero: las mismas cifras que da <code>asamblea verify</code>. <span class="en">Made from the audit bundle, verified first.</span></p>
<p><a class="button" href="/api/v1/exports/acta.docx" download>Borrador del acta (Word) <span class="en">acta draft</span></a>
<a class="button" href="/api/v1/exports/acta.pdf" download>Acta (PDF)</a></p>
<p><a class="button" href="/api/v1/exports/resultados.xlsx" download>Excel (.xlsx)</a>
<a class="button" href="/api/v1/exports/resultados.csv?tabla=puntos" download="puntos.csv">Puntos (CSV)</a>
<a class="button" href="/api/v1/exports/resultados.csv?tabla=accionistas" download="accionistas.csv">Accionistas y votos (CSV)</a>
<a class="button" href="/api/v1/exports/resultados.csv?tabla=asistencia" download="asistencia.csv">Asistencia (CSV)</a>
<a class="button" href="/api/v1/exports/resultados.csv?tabla=retiro" download="retiro.csv">Derecho de retiro (CSV)</a>
<a class="button" href="/api/v1/exports/resultados.json" download>JSON</a></p>
</section>
<section aria-labelledby="bundle-title">
<h2 id="bundle-title">Paquete de auditoría <span class="en">audit bundle</span></h2>
<p>Todo el registro firmado, para verificarlo con <code>asamblea verify</code> sin confiar en este servidor. <span class="en">The whole signed ledger, to check with asamblea verify.</span></p>
<p><a class="button" href="/api/v1/export" download="asamblea.bundle">Descargar el paquete <span class="en">download the bundle</span></a></p>
</section>"#,
    )
}

/// `GET /assets/qrcode.js`: the QR encoder the desk's browser writes a
/// badge's code with (vendored, MIT: `vendor/README.md`).
pub(crate) async fn qr_script() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("vendor/qrcode.js"))
        .into_response()
}

/// `GET /assets/console.js`.
pub(crate) async fn script() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("console.js")).into_response()
}

/// The consoles' pages and their scripts: anyone reaches them; who is not
/// signed in is sent to `/personal`, and each page acts through the API
/// with the signed-in member's session.
pub(crate) fn routes() -> Vec<crate::callers::Routes> {
    use crate::callers::{get_page, post_page, Callers, Routes};
    vec![Routes::pages(
        Callers::Public,
        vec![
            get_page("/personal", sign_in_page),
            post_page("/personal/entrar", sign_in),
            post_page("/personal/salir", sign_out),
            get_page("/registro", operator),
            get_page("/presidencia", chair),
            get_page("/secretaria", secretary),
            get_page("/assets/console.js", script),
            get_page("/assets/qrcode.js", qr_script),
        ],
    )]
}
