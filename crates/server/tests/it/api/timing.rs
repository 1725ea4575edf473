//! Poll timing through the daemon (rules.md §11.5), its clock injected:
//! the close refused before the minimum open time and before the
//! announced countdown's end, each a millisecond before, and admitted at
//! the exact millisecond; the status carries what every screen counts
//! down.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::http::{Method, StatusCode};
use serde_json::json;

use super::fixture::{Api, DEMO_MEETING, DEMO_REGISTER};

/// Tuesday 30 March 2027, 10:00 in Bogotá.
const T0: u64 = 1_806_418_800_000;

#[tokio::test]
async fn a_close_waits_for_the_minimum_and_the_announced_countdown_to_the_millisecond() {
    let now = Arc::new(AtomicU64::new(T0 - 60_000));
    let clock_now = Arc::clone(&now);
    let clock = Box::new(move || clock_now.load(Ordering::Relaxed));
    // The demo under the profile's timing: two minutes, 30 s of countdown.
    let meeting = DEMO_MEETING
        .replace("poll_minimum_open_seconds = 0\n", "")
        .replace("poll_minimum_countdown_seconds = 0\n", "");
    let api = Api::with_clock("timing", &meeting, DEMO_REGISTER, clock);
    api.check_in_a_quorum().await;
    api.install().await;
    let at = |ms: u64| now.store(ms, Ordering::Relaxed);
    at(T0);
    api.ok(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    let item = &status["items"][0];
    assert_eq!((item["opened_at_ms"].as_u64(), item["min_countdown_ms"].as_u64()), (Some(T0), Some(30_000)));
    assert_eq!(item.get("closes_from_ms"), None, "not announced: no close yet");

    let close = || api.call(Method::POST, "/api/v1/items/item-1/close", "chair", None);
    let announce = |seconds: u32| {
        api.call(
            Method::POST,
            "/api/v1/items/item-1/announce-close",
            "chair",
            Some(json!({ "countdown_seconds": seconds })),
        )
    };
    at(T0 + 1_000);
    let (status, refused) = close().await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("close-not-announced"))
    );
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("La votación no se puede cerrar sin anunciar"),
        "{refused}"
    );
    let (status, refused) = announce(29).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("countdown-too-short"))
    );
    let announced = api
        .ok(
            Method::POST,
            "/api/v1/items/item-1/announce-close",
            "chair",
            Some(json!({"countdown_seconds": 30})),
        )
        .await;
    assert_eq!(announced["closes_from_ms"], T0 + 120_000, "the minimum open time is the later bound");

    at(T0 + 119_999);
    let (status, refused) = close().await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("poll-minimum-open"))
    );
    let said = refused["error"]["message"].as_str().unwrap();
    assert!(said.starts_with("Faltan 1 s para poder cerrar la votación"), "{said}");

    // Someone asks for time: a new countdown, ending later; one that
    // would end sooner than the room was told is refused.
    let (status, extended) = announce(45).await;
    assert_eq!(status, StatusCode::OK, "{extended}");
    let end = T0 + 119_999 + 45_000;
    assert_eq!(extended["closes_from_ms"], end);
    at(T0 + 120_000);
    let (status, refused) = announce(30).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("countdown-ends-earlier"))
    );
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    let item = &status["items"][0];
    assert_eq!(
        (
            item["close_announced_at_ms"].as_u64(),
            item["close_countdown_ms"].as_u64(),
            item["closes_from_ms"].as_u64()
        ),
        (Some(T0 + 119_999), Some(45_000), Some(end))
    );
    at(end - 1);
    let (status, refused) = close().await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("countdown-running"))
    );
    assert!(
        refused["error"]["message"].as_str().unwrap().starts_with("Faltan 1 s para poder cerrar"),
        "{refused}"
    );
    at(end);
    let (status, closed) = close().await;
    assert_eq!(status, StatusCode::OK, "closed at the exact millisecond: {closed}");
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    assert_eq!(
        status["items"][0]["close_announced_at_ms"],
        T0 + 119_999,
        "the announcement stays once closed"
    );
    assert_eq!(status["items"][0].get("closes_from_ms"), None);
}
