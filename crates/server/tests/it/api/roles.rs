//! Who is let in where: every route's callers as the route table says,
//! the OpenAPI document of every route, the security headers of every
//! answer, and bad input refused with a code, changing nothing.

use asamblea_server::{route_table, router};
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use super::fixture::Api;

const CALLERS: [&str; 6] = ["public", "operator", "chair", "secretary", "auditor", "kiosk"];

#[tokio::test]
async fn every_route_lets_in_exactly_its_callers() {
    let api = Api::demo("roles");
    for route in route_table() {
        let (method, path, allowed) = (route.method, route.path, route.callers);
        let path = path
            .replace("{item}", "item-1")
            .replace("{digest}", &"00".repeat(32))
            .replace("{credential}", "1");
        let method = Method::from_bytes(method.as_bytes()).expect("method");
        for caller in CALLERS {
            let body = (method == Method::POST).then(|| json!({}));
            if path == "/api/v1/feed" {
                // A live stream never ends: read its head only.
                let response = router(api.state.clone())
                    .oneshot(Request::get(&path).body(Body::empty()).expect("request"))
                    .await
                    .expect("infallible");
                assert_eq!(response.status(), StatusCode::OK);
                assert_eq!(response.headers()["content-type"], "text/event-stream");
                continue;
            }
            let (status, value) = api.call(method.clone(), &path, caller, body).await;
            let let_in = allowed.contains(&"public") || allowed.contains(&caller);
            if let_in {
                assert!(
                    status != StatusCode::UNAUTHORIZED && status != StatusCode::FORBIDDEN,
                    "{method} {path}: {caller} must be let in, got {status} {value}"
                );
            } else {
                let expected = if allowed.contains(&"kiosk") {
                    "kiosk-certificate-required"
                } else if caller == "public" || caller == "kiosk" {
                    "unauthorized"
                } else {
                    "forbidden"
                };
                assert_eq!(value["error"]["code"], expected, "{method} {path} as {caller}: {status} {value}");
            }
        }
    }
}

#[tokio::test]
async fn the_openapi_document_describes_every_route() {
    let api = Api::demo("openapi");
    let doc = api.ok(Method::GET, "/api/v1/openapi.json", "public", None).await;
    for route in route_table()
        .into_iter()
        .filter(|r| r.path.starts_with("/api/v1/") && r.path != "/api/v1/openapi.json")
    {
        let (method, path) = (route.method, route.path.as_str());
        let operation = &doc["paths"][path][method.to_lowercase()];
        assert!(operation.is_object(), "{method} {path} is not in the OpenAPI document");
    }
    // What is served is the generated document, the one committed beside
    // the server (its own test compares the two).
    assert_eq!(doc, serde_json::from_str::<Value>(asamblea_server::openapi_json()).unwrap());
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let api = Api::demo("headers");
    for path in ["/", "/assets/board.js", "/api/v1/status", "/api/v1/nothing-here"] {
        let request = Request::builder().uri(path).body(Body::empty()).unwrap();
        let response = router(api.state.clone()).oneshot(request).await.unwrap();
        let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
        assert!(header("content-security-policy").contains("default-src 'none'"), "{path}");
        assert!(header("content-security-policy").contains("frame-ancestors 'none'"), "{path}");
        assert!(!header("content-security-policy").contains("unsafe-inline"), "{path}");
        assert!(header("strict-transport-security").starts_with("max-age="), "{path}");
        assert_eq!(header("x-frame-options"), "DENY", "{path}");
        assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
    }
    // The board loads only what the daemon serves: no inline script or style.
    let request = Request::builder().uri("/").body(Body::empty()).unwrap();
    let page = router(api.state.clone()).oneshot(request).await.unwrap().into_body().collect().await.unwrap();
    let page = String::from_utf8(page.to_bytes().to_vec()).unwrap();
    assert!(page.contains(r#"<script src="/assets/board.js">"#) && !page.contains("<style"), "{page}");
}

#[tokio::test]
async fn bad_requests_are_refused_with_a_code_and_change_nothing() {
    let api = Api::demo("bad");
    let before = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    let cases = [
        (json!({ "holder": "X", "agent": "Y" }), "bad-request"),
        (json!({ "holder": "CC-10000000", "colour": 1 }), "bad-request"),
        (json!({ "holder": "" }), "bad-request"),
        (json!({ "agent": "Y", "represents": ["CC-10000000", "CC-10000000"] }), "bad-request"),
        (json!({ "agent": "Y", "represents": ["CC-10000000"], "as": "friend" }), "bad-request"),
        (json!({ "holder": "NOBODY" }), "unknown-holder"),
    ];
    for (body, code) in cases {
        let (status, value) =
            api.call(Method::POST, "/api/v1/checkins", "operator", Some(body.clone())).await;
        assert_eq!(value["error"]["code"], code, "{body}: {status} {value}");
        assert!(value["error"]["message"].as_str().is_some_and(|m| !m.is_empty()));
        assert!(value["error"]["message_en"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let huge = json!({ "person": "x".repeat(100_000) });
    let (status, value) = api.call(Method::POST, "/api/v1/badges", "operator", Some(huge)).await;
    assert_eq!(
        (status, value["error"]["code"].clone()),
        (StatusCode::PAYLOAD_TOO_LARGE, json!("payload-too-large"))
    );
    let huge = json!({ "event": "0".repeat(100_000), "signer": "00", "signature": "00" });
    let (status, value) = api.call(Method::POST, "/api/v1/ballots", "kiosk", Some(huge)).await;
    assert_eq!(
        (status, value["error"]["code"].clone()),
        (StatusCode::PAYLOAD_TOO_LARGE, json!("payload-too-large"))
    );
    for body in [
        json!({ "event": "zz", "signer": "00", "signature": "00" }),
        json!({ "event": "0b01", "signer": "00", "signature": "00" }),
    ] {
        let (status, value) = api.call(Method::POST, "/api/v1/ballots", "kiosk", Some(body)).await;
        assert_eq!(
            (status, value["error"]["code"].clone()),
            (StatusCode::BAD_REQUEST, json!("bad-request")),
            "{value}"
        );
    }
    let (status, _) = api.call(Method::GET, "/api/v1/nothing-here", "public", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        api.ok(Method::GET, "/api/v1/status", "public", None).await,
        before,
        "refusals changed the meeting"
    );
}
