//! Staff in a browser: the sign-in form and its throttle, the session
//! cookie and its CSRF token, and the consoles, one role each.

use asamblea_server::{route_table, router};
use asamblea_venue::staff::Role;
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use super::fixture::{browser, sign_in, Api};

#[tokio::test]
async fn wrong_staff_tokens_are_refused_for_a_while_after_ten() {
    let api = Api::demo("sign-in");
    let attempt = |token: String| {
        let request = Request::builder()
            .method(Method::POST)
            .uri("/api/v1/checkouts")
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", "application/json")
            .body(Body::from(r#"{"person":"CC-10000000"}"#))
            .unwrap();
        let app = router(api.state.clone());
        async move {
            let response = app.oneshot(request).await.unwrap();
            let status = response.status();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            (status, serde_json::from_slice::<Value>(&bytes).unwrap_or(Value::Null))
        }
    };
    for n in 1..=asamblea_server::SIGN_IN_FAILURES {
        let (status, answer) = attempt(format!("wrong-{n}")).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "attempt {n}: {answer}");
    }
    let (status, answer) = attempt("wrong-again".into()).await;
    assert_eq!(
        (status, answer["error"]["code"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("too-many-sign-ins"))
    );
    // Refused even with the right token, from that address, for a while.
    let (status, _) = attempt(api.tokens[&Role::Operator].clone()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn a_staff_member_signs_in_once_and_the_cookie_acts_only_with_its_csrf_token() {
    let api = Api::demo("session");
    let token = api.tokens[&Role::Operator].clone();
    // The form: a wrong token is refused and opens nothing.
    let (status, headers, page) = browser(
        &api,
        Method::POST,
        "/personal/entrar",
        None,
        None,
        Some(("application/x-www-form-urlencoded", "clave=no-es-una-clave".into())),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(headers.get("set-cookie").is_none());
    assert!(page.contains("Esa clave no es de esta reunión") && !page.contains("no-es-una-clave"), "{page}");
    // A sign-in form posted from another site is refused.
    let request = Request::builder()
        .method(Method::POST)
        .uri("/personal/entrar")
        .header("host", "urna.local:8443")
        .header("origin", "https://evil.example")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(format!("clave={token}")))
        .unwrap();
    let response = router(api.state.clone()).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(response.headers().get("set-cookie").is_none());

    let (cookie, csrf) = sign_in(&api, Role::Operator).await;
    assert_ne!(cookie, token, "the cookie is not the token");
    // The console is the operator's; without a session, the sign-in page.
    let (status, _, page) = browser(&api, Method::GET, "/registro", Some(&cookie), None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains(&csrf) && !page.contains(&token),
        "the page holds the CSRF token, never the staff token"
    );
    let (status, headers, _) = browser(&api, Method::GET, "/registro", None, None, None).await;
    assert_eq!((status, headers["location"].to_str().unwrap()), (StatusCode::SEE_OTHER, "/personal"));

    // A change with the cookie but without its CSRF token changes nothing.
    let holder = "CC-10000000";
    let present = |api: &Api, cookie: String| {
        let app = router(api.state.clone());
        async move {
            let request = Request::get(format!("/api/v1/holders?q={holder}"))
                .header("cookie", format!("asamblea_personal={cookie}"))
                .body(Body::empty())
                .unwrap();
            let bytes = app.oneshot(request).await.unwrap().into_body().collect().await.unwrap().to_bytes();
            let found: Value = serde_json::from_slice(&bytes).unwrap();
            found["holders"][0]["present"].as_bool().unwrap()
        }
    };
    let checkin = Some(("application/json", json!({ "holder": holder }).to_string()));
    for wrong in [None, Some("0".repeat(64)), Some(csrf[..10].to_string())] {
        let (status, _, answer) =
            browser(&api, Method::POST, "/api/v1/checkins", Some(&cookie), wrong.as_deref(), checkin.clone())
                .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
        assert!(answer.contains(r#""code":"csrf""#), "{answer}");
        assert!(!present(&api, cookie.clone()).await, "refused: nothing changed");
    }
    let (status, _, answer) =
        browser(&api, Method::POST, "/api/v1/checkins", Some(&cookie), Some(&csrf), checkin.clone()).await;
    assert!(status.is_success(), "{status} {answer}");
    assert!(present(&api, cookie.clone()).await);

    // Signing out takes the CSRF token too; after it the cookie opens nothing.
    let (status, _, _) = browser(
        &api,
        Method::POST,
        "/personal/salir",
        Some(&cookie),
        None,
        Some(("application/x-www-form-urlencoded", "csrf=wrong".into())),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, headers, _) = browser(
        &api,
        Method::POST,
        "/personal/salir",
        Some(&cookie),
        None,
        Some(("application/x-www-form-urlencoded", format!("csrf={csrf}"))),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(headers["set-cookie"].to_str().unwrap().contains("Max-Age=0"));
    let (status, _, _) = browser(&api, Method::GET, "/api/v1/attendees", Some(&cookie), None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, headers, _) = browser(&api, Method::GET, "/registro", Some(&cookie), None, None).await;
    assert_eq!((status, headers["location"].to_str().unwrap()), (StatusCode::SEE_OTHER, "/personal"));
}

#[tokio::test]
async fn every_console_lets_in_exactly_its_role_and_every_api_route_takes_the_cookie_as_the_token() {
    let api = Api::demo("consoles");
    let consoles = [
        ("/registro", &["operator"][..]),
        ("/presidencia", &["chair"][..]),
        ("/secretaria", &["secretary", "auditor"][..]),
    ];
    for role in Role::ALL {
        let (cookie, csrf) = sign_in(&api, role).await;
        for (path, allowed) in consoles {
            let (status, _, page) = browser(&api, Method::GET, path, Some(&cookie), None, None).await;
            if allowed.contains(&role.code()) {
                assert_eq!(status, StatusCode::OK, "{path} as {}", role.code());
                assert!(
                    page.contains(r#"<script src="/assets/console.js" defer>"#) && !page.contains("<style")
                );
            } else {
                assert_eq!(status, StatusCode::FORBIDDEN, "{path} as {}", role.code());
                assert!(page.contains("Esta consola no es de su cargo"), "{page}");
            }
        }
        // The API lets the cookie in exactly where the role's token goes.
        for route in route_table() {
            let (method, path, allowed) = (route.method, route.path, route.callers);
            if !allowed.iter().any(|a| Role::ALL.iter().any(|r| r.code() == *a)) {
                continue;
            }
            let path = path.replace("{item}", "item-1").replace("{credential}", "1").replace("{kiosk}", "k");
            let method = Method::from_bytes(method.as_bytes()).unwrap();
            let body = (method == Method::POST).then(|| ("application/json", "{}".to_string()));
            let (status, _, answer) =
                browser(&api, method.clone(), &path, Some(&cookie), Some(&csrf), body).await;
            if allowed.contains(&role.code()) {
                assert!(
                    status != StatusCode::UNAUTHORIZED && status != StatusCode::FORBIDDEN,
                    "{method} {path}: {} with a cookie must be let in, got {status} {answer}",
                    role.code()
                );
            } else {
                assert_eq!(status, StatusCode::FORBIDDEN, "{method} {path} as {}: {answer}", role.code());
            }
        }
    }
}

/// What a shared desk browser must not keep after sign-out: every answer
/// a staff member gets (the consoles, the register's names in
/// `/api/v1/attendees` and `/api/v1/holders`, the sign-in that sets the
/// cookie, checked in `sign_in`), and the kiosk's ballot sheet, says
/// `Cache-Control: no-store`.
#[tokio::test]
async fn no_answer_holding_the_registers_names_or_a_token_may_be_kept_by_a_browser() {
    let api = Api::demo("no-store");
    api.check_in("CC-10000000").await;
    let no_store = |headers: &axum::http::HeaderMap, what: &str| {
        assert_eq!(
            headers.get("cache-control").and_then(|v| v.to_str().ok()),
            Some("no-store"),
            "{what}: a browser may keep it"
        );
    };
    // The sign-in's own answer, which sets the cookie: `sign_in` checks it.
    for role in Role::ALL {
        let (cookie, _) = sign_in(&api, role).await;
        let mut pages = vec!["/personal".to_string()];
        for route in route_table() {
            if route.method == "GET" && route.callers.contains(&role.code()) {
                pages.push(route.path.replace("{item}", "item-1").replace("{credential}", "1"));
            }
        }
        pages.push("/api/v1/holders?q=ana".into());
        for path in pages {
            let (status, headers, _) = browser(&api, Method::GET, &path, Some(&cookie), None, None).await;
            no_store(&headers, &format!("GET {path} as {} ({status})", role.code()));
        }
    }
    let (cookie, _) = sign_in(&api, Role::Operator).await;
    for (path, holds) in
        [("/registro", "</html>"), ("/api/v1/attendees", "CC-10000000"), ("/api/v1/holders?q=ana", "Ana")]
    {
        let (status, headers, page) = browser(&api, Method::GET, path, Some(&cookie), None, None).await;
        assert_eq!(status, StatusCode::OK, "{path}: {page}");
        assert!(page.contains(holds), "{path} holds the register's ids or names: {page}");
        no_store(&headers, path);
    }
    // The kiosk's ballot sheet names the attendee and the holders carried.
    let credential = api.badge("CC-10000000").await;
    let mut request = Request::builder()
        .uri(format!("/api/v1/kiosk/badges/{}", credential.id().0))
        .body(Body::empty())
        .unwrap();
    request.extensions_mut().insert(asamblea_server::tls::ClientCert { kiosk_id: "quiosco-prueba".into() });
    let response = router(api.state.clone()).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    no_store(response.headers(), "the kiosk's ballot sheet");
}

/// A form posted to `/personal/continuar` from a page at `origin`.
async fn carried(api: &Api, origin: &str, pass: &str, to: &str) -> (StatusCode, HeaderMap, String) {
    let form = format!("pase={pass}&destino={}", to.replace('/', "%2F").replace(':', "%3A"));
    let request = Request::builder()
        .method(Method::POST)
        .uri("/personal/continuar")
        .header("host", "urna.local:8443")
        .header("origin", origin)
        .header("sec-fetch-site", "cross-site")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(form))
        .unwrap();
    let response = router(api.state.clone()).oneshot(request).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8_lossy(&bytes).into_owned())
}

/// A replicated meeting's console goes on at the next node with its
/// session's pass (`passes`): the pass is given only to a session with
/// its CSRF token and only where there are nodes; it opens a session for
/// the same account, once, from a page of a node of the meeting, and only
/// to a console's own path; a pass of another node of the meeting is
/// taken too, one altered or of another meeting's node is not.
#[tokio::test]
async fn a_consoles_session_goes_on_at_another_node_with_its_pass_once() {
    // One machine: no pass.
    let single = Api::demo("pass-single");
    let (cookie, csrf) = sign_in(&single, Role::Chair).await;
    let (status, _, answer) =
        browser(&single, Method::POST, "/api/v1/session/pass", Some(&cookie), Some(&csrf), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    assert!(answer.contains("una sola máquina"), "{answer}");

    let api = Api::replicated("pass", &["nodo-1", "nodo-2"]);
    api.state.set_nodes(
        "nodo-1",
        vec![("nodo-1".into(), "urna.local:8443".into()), ("nodo-2".into(), "urna-2.local:8443".into())],
    );
    let (cookie, csrf) = sign_in(&api, Role::Chair).await;
    let (status, _, answer) =
        browser(&api, Method::POST, "/api/v1/session/pass", Some(&cookie), None, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "no pass without the session's CSRF token: {answer}");
    let (status, _, answer) =
        browser(&api, Method::POST, "/api/v1/session/pass", Some(&cookie), Some(&csrf), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["expires_in_ms"], 300_000);
    let pass = answer["pass"].as_str().unwrap().to_string();
    // From a page that is not a node's: refused, nothing opened.
    let (status, headers, page) = carried(&api, "https://evil.example", &pass, "/presidencia").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{page}");
    assert!(headers.get("set-cookie").is_none() && page.contains("no es de un nodo"), "{page}");
    // Altered: refused.
    let altered = format!("{}0{}", &pass[..10], &pass[11..]);
    let altered = if altered == pass { format!("{}1{}", &pass[..10], &pass[11..]) } else { altered };
    let (status, headers, page) = carried(&api, "https://urna-2.local:8443", &altered, "/presidencia").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{page}");
    assert!(headers.get("set-cookie").is_none() && page.contains("Entre con su clave"), "{page}");
    // From nodo-2's page: a session of the chair's, and on to the chair's
    // console by a page of this node (the cookie is SameSite=Strict).
    let (status, headers, page) = carried(&api, "https://urna-2.local:8443", &pass, "/presidencia").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains(r#"http-equiv="refresh" content="0; url=/presidencia?siguio=1""#), "{page}");
    let set = headers["set-cookie"].to_str().unwrap();
    assert!(set.contains("SameSite=Strict") && set.contains("HttpOnly"), "{set}");
    let new_cookie = set.split(';').next().unwrap().trim_start_matches("asamblea_personal=").to_string();
    assert_ne!(new_cookie, cookie);
    let (status, _, page) = browser(&api, Method::GET, "/presidencia", Some(&new_cookie), None, None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("presidencia"), "{page}");
    // Once.
    let (status, headers, page) = carried(&api, "https://urna-2.local:8443", &pass, "/presidencia").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(headers.get("set-cookie").is_none() && page.contains("ya se usó"), "{page}");
    // A pass nodo-2 gave (its own enrolled key), to a path that is not a
    // console: the chair's console.
    let keys = asamblea_venue::secrets::key_folder_of(&api.dir).unwrap();
    let seed = asamblea_venue::secrets::read_seed(&keys.join("daemon-nodo-2.seed")).unwrap();
    let nodo_2 = asamblea_wire::Keypair::from_seed(&seed);
    let chair = asamblea_venue::staff::Accounts::load(&api.dir)
        .unwrap()
        .iter()
        .find(|a| a.role == Role::Chair)
        .unwrap()
        .key
        .public_key();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64;
    let given =
        asamblea_wire::SessionPass { staff: chair, issued_ms: now, expires_ms: now + 60_000, nonce: [7; 16] };
    let text = given.to_text(&given.sign(&api.meeting, &nodo_2));
    let (status, _, page) = carried(&api, "https://urna-2.local:8443", &text, "https://evil.example/").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("url=/presidencia"), "{page}");
    // The same key, another meeting's: refused; an expired one: refused.
    let elsewhere = given.to_text(&given.sign(&asamblea_wire::MeetingId([9; 32]), &nodo_2));
    let (status, _, _) = carried(&api, "https://urna-2.local:8443", &elsewhere, "/presidencia").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let old = asamblea_wire::SessionPass {
        issued_ms: now - 400_000,
        expires_ms: now - 100_000,
        nonce: [8; 16],
        ..given
    };
    let (status, _, page) = carried(
        &api,
        "https://urna-2.local:8443",
        &old.to_text(&old.sign(&api.meeting, &nodo_2)),
        "/presidencia",
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(page.contains("venció"), "{page}");
    // A pass this node gave, once its session signed out here: refused.
    let (cookie, csrf) = sign_in(&api, Role::Operator).await;
    let (_, _, answer) =
        browser(&api, Method::POST, "/api/v1/session/pass", Some(&cookie), Some(&csrf), None).await;
    let pass = serde_json::from_str::<Value>(&answer).unwrap()["pass"].as_str().unwrap().to_string();
    let form = Some(("application/x-www-form-urlencoded", format!("csrf={csrf}")));
    let (status, _, _) = browser(&api, Method::POST, "/personal/salir", Some(&cookie), None, form).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let (status, headers, page) = carried(&api, "https://urna-2.local:8443", &pass, "/registro").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{page}");
    assert!(headers.get("set-cookie").is_none() && page.contains("ya terminó en este nodo"), "{page}");
}
