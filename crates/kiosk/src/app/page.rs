//! The touch page: its files, the headers it is served with, the state it
//! reads (`/api/estado`) and the actions it posts (scan, review, confirm,
//! cancel…), each allowed only from the page itself.

use super::*;

pub(super) const PAGE: &str = include_str!("../page/kiosco.html");
pub(super) const SCRIPT: &str = include_str!("../page/kiosco.js");
pub(super) const STYLE: &str = include_str!("../page/kiosco.css");

pub(super) async fn page() -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-store")], PAGE)
        .into_response()
}

pub(super) async fn script() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT).into_response()
}

pub(super) async fn style() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response()
}

/// Only the kiosk's own page may drive it.
fn from_the_page(headers: &HeaderMap) -> bool {
    headers.get("x-quiosco").is_some_and(|v| v == "1")
}

/// Only a request addressed to the loopback name is served: a page of
/// another site whose name was pointed at 127.0.0.1 (DNS rebinding) is
/// refused before it reads an attendee's sheet.
pub(super) async fn loopback_host(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let host = request.headers().get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    if matches!(name, "127.0.0.1" | "localhost" | "::1") {
        next.run(request).await
    } else {
        (StatusCode::MISDIRECTED_REQUEST, "solo en 127.0.0.1 / only at 127.0.0.1").into_response()
    }
}

/// The touch page's Content-Security-Policy: as strict as the page
/// allows. It loads its own script and style only (no inline script or
/// style), talks to its own API only, draws the receipt's QR as inline
/// SVG and the camera's frames on a canvas (no `img`, `media-src` or
/// `blob:` source needed: a camera stream is no URL), posts no form, and
/// may be framed by nobody.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     connect-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/// The security headers of every answer of the kiosk's loopback server:
/// another page open on the kiosk (another loopback port, a site in
/// another tab) cannot frame the touch page to click it for the
/// attendee, nor run script in it.
pub(super) async fn secure_headers(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let mut set = |name, value| {
        headers.insert(name, axum::http::HeaderValue::from_static(value));
    };
    set(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY);
    set(header::X_FRAME_OPTIONS, "DENY");
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(header::REFERRER_POLICY, "no-referrer");
    response
}

fn forbidden() -> Response {
    (StatusCode::FORBIDDEN, "solo la página del quiosco / only the kiosk's page").into_response()
}

#[derive(Deserialize)]
pub(super) struct Since {
    desde: Option<u64>,
}

/// `GET /api/estado?desde=N`: the screen as it is, once it is newer than
/// `N` (or after 15 s).
pub(super) async fn status(State(app): State<App>, Query(since): Query<Since>) -> Json<Value> {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let notified = app.0.changed.notified();
        let current = app.with(|k| k.generation);
        // Any other generation answers at once: a newer one, or an older
        // one because this kiosk restarted since the page last asked.
        if since.desde.is_none_or(|d| current != d) || Instant::now() >= deadline {
            break;
        }
        let _ = tokio::time::timeout(Duration::from_secs(1), notified).await;
    }
    Json(app.with(|k| describe(&app, k)))
}

fn describe(app: &App, k: &Kiosk) -> Value {
    let options = &app.0.options;
    let left = |limit: Duration| limit.saturating_sub(k.touched.elapsed()).as_secs();
    let idle_in = match k.screen {
        Screen::Choose | Screen::Review => Some(left(options.idle_after)),
        Screen::Done => Some(left(options.receipt_for)),
        _ => None,
    };
    let outbox: Vec<Value> = k
        .outbox
        .iter()
        .map(|o| {
            let hash = o.digest.to_string();
            let votes: Vec<Value> =
                o.votes.iter().map(|(name, words)| json!({ "name": name, "choice": words })).collect();
            let mut entry = json!({ "item": o.item, "title": o.title, "votes": votes });
            match &o.sent {
                Sent::Waiting => entry["state"] = json!("esperando"),
                Sent::Counted { seq, line, url, qr } => {
                    entry["state"] = json!("registrado");
                    entry["seq"] = json!(seq);
                    entry["short"] = json!(short_code(&hash));
                    entry["hash"] = json!(hash);
                    entry["line"] = json!(line);
                    entry["url"] = json!(url);
                    entry["qr"] = json!(qr);
                }
                Sent::Refused(n) => {
                    entry["state"] = json!("rechazado");
                    entry["es"] = json!(n.es);
                    entry["en"] = json!(n.en);
                }
            }
            entry
        })
        .collect();
    json!({
        "generation": k.generation,
        "screen": k.screen.code(),
        "notice": k.notice.as_ref().map(|n| json!({ "es": n.es, "en": n.en, "error": n.error })),
        "service": k.service.as_ref().map(|n| json!({ "es": n.es, "en": n.en })),
        "idle_in": idle_in,
        "kiosk": app.0.folder.settings.kiosk,
        "sheet": k.voter.as_ref().map(|v| &v.sheet),
        "picks": k.picks.iter().map(|p| json!({ "item": p.item, "holder": p.holder, "choice": p.choice })).collect::<Vec<_>>(),
        "outbox": outbox,
    })
}

/// The first twelve hex digits of a ballot's hash in three groups, upper
/// case: what an attendee notes down and types at `/recibo` or on the
/// board's list to find their ballot (48 bits: among a million ballots,
/// two share one about once in 500 meetings, and the page then lists both).
pub(super) fn short_code(hash: &str) -> String {
    let upper = hash.to_ascii_uppercase();
    format!("{}-{}-{}", &upper[..4], &upper[4..8], &upper[8..12])
}

pub(super) async fn scan_text(State(app): State<App>, headers: HeaderMap, body: Bytes) -> Response {
    if !from_the_page(&headers) {
        return forbidden();
    }
    let text = Zeroizing::new(String::from_utf8_lossy(&body).into_owned());
    // The request's own copy, wiped when this handler holds the only
    // reference (the browser's and the socket's buffers are out of reach:
    // a locked-down kiosk reads its scanner in serial mode).
    if let Ok(mut body) = body.try_into_mut() {
        zeroize::Zeroize::zeroize(&mut body[..]);
    }
    scan(&app, text).await;
    StatusCode::NO_CONTENT.into_response()
}

pub(super) async fn scan_image(State(app): State<App>, headers: HeaderMap, body: Bytes) -> Response {
    if !from_the_page(&headers) {
        return forbidden();
    }
    match crate::scan::decode_image(&body) {
        Ok(text) => scan(&app, text).await,
        Err(crate::scan::ImageError::NoCode) => app.with(|k| {
            if k.screen == Screen::Idle {
                k.notice = Some(Notice::info(
                    "No se ve ningún código en la imagen: acerque la credencial a la cámara.",
                    "No code in the picture: hold the badge up to the camera.",
                ));
                k.changed();
            }
        }),
        Err(crate::scan::ImageError::NotAnImage(why)) => app.with(|k| {
            k.notice = Some(Notice::error(
                "La imagen no se pudo leer: no es un PNG legible. Acerque la credencial a la cámara o use el lector.",
                format!("The picture could not be read ({why}): hold the badge up to the camera or use the reader."),
            ));
            k.changed();
        }),
    }
    StatusCode::NO_CONTENT.into_response()
}

#[derive(Deserialize)]
pub(super) struct ReviewRequest {
    picks: Vec<Pick>,
}

pub(super) async fn review(State(app): State<App>, headers: HeaderMap, body: Bytes) -> Response {
    if !from_the_page(&headers) {
        return forbidden();
    }
    let Ok(request) = serde_json::from_slice::<ReviewRequest>(&body) else {
        return (StatusCode::BAD_REQUEST, "picks: [{item, holder, choice}]").into_response();
    };
    app.with(|k| {
        let Some(voter) = &k.voter else { return };
        if k.screen != Screen::Choose {
            return;
        }
        match check_picks(&voter.sheet, &request.picks) {
            Ok(()) => {
                k.picks = request.picks;
                k.screen = Screen::Review;
                k.notice = None;
            }
            Err(notice) => k.notice = Some(notice),
        }
        k.changed();
    });
    StatusCode::NO_CONTENT.into_response()
}

pub(super) async fn back(State(app): State<App>, headers: HeaderMap) -> Response {
    if !from_the_page(&headers) {
        return forbidden();
    }
    app.with(|k| {
        if k.screen == Screen::Review {
            k.screen = Screen::Choose;
            k.changed();
        }
    });
    StatusCode::NO_CONTENT.into_response()
}

pub(super) async fn confirm(State(app): State<App>, headers: HeaderMap) -> Response {
    if !from_the_page(&headers) {
        return forbidden();
    }
    let signed = app.with(|k| {
        if k.screen != Screen::Review {
            return None;
        }
        let voter = k.voter.take()?;
        let signed = sign_all(voter, &k.picks);
        burn_stack();
        Some(signed)
    });
    match signed {
        None => {}
        Some(Err(error)) => {
            tracing::error!(%error, "no se pudo firmar una papeleta / a ballot could not be signed");
            app.unmark();
            app.with(|k| {
                k.reset(Some(Notice::error(
                    "No se pudo firmar el voto; no se envió nada. Vuelva a escanear su credencial o avise al personal.",
                    "The vote could not be signed; nothing was sent. Scan your badge again or tell the staff.",
                )))
            });
        }
        Some(Ok(outbox)) => {
            let ballots: Vec<Value> = outbox
                .iter()
                .map(|o| json!({ "punto": o.item, "titulo": o.title, "resumen": o.digest.to_string() }))
                .collect();
            app.mark(&json!({ "estado": "enviando", "papeletas": ballots }));
            app.with(|k| {
                k.outbox = outbox;
                k.screen = Screen::Sending;
                k.notice = None;
                k.changed();
            });
            tokio::spawn(send_all(app.clone()));
        }
    }
    StatusCode::NO_CONTENT.into_response()
}

pub(super) async fn cancel(State(app): State<App>, headers: HeaderMap) -> Response {
    if !from_the_page(&headers) {
        return forbidden();
    }
    let cleared = app.with(|k| {
        if matches!(k.screen, Screen::Choose | Screen::Review | Screen::Done) {
            let notice = (k.screen != Screen::Done).then(|| {
                Notice::info("Votación cancelada: no se envió nada.", "Vote cancelled: nothing was sent.")
            });
            k.reset(notice);
            true
        } else {
            false
        }
    });
    if cleared {
        app.unmark();
    }
    StatusCode::NO_CONTENT.into_response()
}

pub(super) async fn touch(State(app): State<App>, headers: HeaderMap) -> Response {
    if !from_the_page(&headers) {
        return forbidden();
    }
    // A change: the page hears the new countdown at once.
    app.with(Kiosk::changed);
    StatusCode::NO_CONTENT.into_response()
}
