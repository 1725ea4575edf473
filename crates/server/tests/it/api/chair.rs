//! The chair's polls as the public status shows them: the quorum's
//! threshold, and its series at every poll's open and close.

use axum::http::{Method, StatusCode};
use serde_json::json;

use super::fixture::Api;

#[tokio::test]
async fn the_status_says_the_quorum_threshold_and_records_it_at_every_poll_open_and_close() {
    let api = Api::demo("series");
    // Without a quorum a poll is refused as the rules refuse it
    // (FORMAT.md's `no-quorum`), with the figures.
    let (status, refused) = api.call(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("no-quorum"))
    );
    assert!(
        refused["error"]["message"].as_str().unwrap().starts_with("No hay quórum para abrir la votación"),
        "{refused}"
    );
    // So is the installation, with the same figures.
    let (status, refused) = api.call(Method::POST, "/api/v1/meeting/install", "chair", Some(json!({}))).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("no-quorum-to-install"))
    );
    let said = refused["error"]["message"].as_str().unwrap();
    assert!(
        said.starts_with("No hay quórum para instalar la reunión: están presentes 0 de 98.000.000 acciones")
            && said.contains("al menos 49.000.001 de 98.000.000")
            && said.contains("Registre más llegadas"),
        "{said}"
    );
    api.check_in_a_quorum().await;
    // With the quorum, no poll opens before the chair installs the meeting.
    let (status, refused) = api.call(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("not-installed")));
    api.install().await;
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    let quorum = &status["quorum"];
    // The demo is a first call on 98.000.000 voting shares: more than half.
    assert_eq!(quorum["minimum_shares"], 49_000_001);
    assert!(
        quorum["threshold_es"].as_str().unwrap().contains("al menos 49.000.001 de 98.000.000"),
        "{quorum}"
    );
    assert_eq!(quorum["threshold_source"], "Ley 222 de 1995, art. 68");
    assert_eq!(quorum["series"], json!([]));
    let item = status["items"][0]["id"].as_str().unwrap().to_string();
    let before =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64;
    api.ok(Method::POST, &format!("/api/v1/items/{item}/open"), "chair", None).await;
    // The room is told since when the poll is open: its record's time.
    let open = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    let opened = open["items"][0]["opened_at_ms"].as_u64().expect("an open poll says when it opened");
    assert!(opened >= before, "{opened} >= {before}");
    assert_eq!(open["items"][1].get("opened_at_ms"), None, "an item never opened says nothing");
    let closed = api.ok(Method::POST, &format!("/api/v1/items/{item}/close"), "chair", None).await;
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    assert_eq!(status["items"][0]["opened_at_ms"], opened, "the opening time stays once closed");
    // The head read aloud with the result is the chain after the close,
    // signed then: not one from before it.
    let head = &status["head"];
    assert!(
        head["seq"].as_u64().unwrap() > closed["checkpoint"]["seq"].as_u64().unwrap(),
        "the head {head} comes after the close {} and its result",
        closed["checkpoint"]
    );
    let series = status["quorum"]["series"].as_array().unwrap();
    assert_eq!(series.len(), 2);
    assert_eq!(
        (series[0]["item"].as_str(), series[0]["moment"].as_str()),
        (Some(item.as_str()), Some("open"))
    );
    assert_eq!(series[1]["moment"], "close");
    for point in series {
        assert_eq!(point["present_shares"], status["quorum"]["present_shares"]);
        assert_eq!(point["met"], true);
    }
    // The closed item says why it failed (nobody voted), with what was needed.
    let why = status["items"][0]["why_es"].as_str().unwrap();
    assert!(
        why.starts_with("no aprobado: 0 acciones a favor") && why.contains("se necesitaban al menos"),
        "{why}"
    );
}

#[tokio::test]
async fn the_chair_installs_suspends_resumes_and_adjourns_and_the_ledger_holds_each_step() {
    let api = Api::demo("sessions");
    api.check_in_a_quorum().await;
    let installed = api
        .ok(Method::POST, "/api/v1/meeting/install", "chair", Some(json!({"note": "verificado el quórum"})))
        .await;
    assert_eq!(installed["session"]["state"], "in-session");
    assert_eq!(installed["session"]["steps"][0]["step"], "installed");
    assert_eq!(installed["session"]["steps"][0]["note"], "verificado el quórum");
    assert_eq!(installed["session"]["steps"][0]["quorum"]["met"], true);
    let (status, again) = api.call(Method::POST, "/api/v1/meeting/install", "chair", Some(json!({}))).await;
    assert_eq!((status, again["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("already-installed")));
    // Only the chair: the desk may not.
    let (status, _) = api.call(Method::POST, "/api/v1/meeting/suspend", "operator", Some(json!({}))).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // A poll open: close it before suspending.
    api.ok(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    let (status, open) = api.call(Method::POST, "/api/v1/meeting/suspend", "chair", Some(json!({}))).await;
    assert_eq!((status, open["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("poll-open")));
    api.ok(Method::POST, "/api/v1/items/item-1/close", "chair", None).await;
    api.ok(
        Method::POST,
        "/api/v1/meeting/suspend",
        "chair",
        Some(json!({"note": "continúa mañana a las 9:00"})),
    )
    .await;
    // Suspended: nothing is voted.
    let (status, refused) = api.call(Method::POST, "/api/v1/items/item-2/open", "chair", None).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("meeting-suspended"))
    );
    assert!(
        refused["error"]["message"].as_str().unwrap().starts_with("La reunión está suspendida"),
        "{refused}"
    );
    api.ok(Method::POST, "/api/v1/meeting/resume", "chair", Some(json!({}))).await;
    api.ok(Method::POST, "/api/v1/items/item-2/open", "chair", None).await;
    api.ok(Method::POST, "/api/v1/items/item-2/close", "chair", None).await;
    let adjourned = api.ok(Method::POST, "/api/v1/meeting/adjourn", "chair", Some(json!({}))).await;
    let steps: Vec<&str> = adjourned["session"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["step"].as_str().unwrap())
        .collect();
    assert_eq!(steps, ["installed", "suspended", "resumed", "adjourned"]);
    // Over: nobody more arrives, no poll opens.
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    assert_eq!(status["session"]["state"], "adjourned");
    let (status, refused) = api.call(Method::POST, "/api/v1/items/item-3/open", "chair", None).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("meeting-adjourned"))
    );
    let (status, refused) =
        api.call(Method::POST, "/api/v1/checkins", "operator", Some(json!({"holder": "CC-10372193"}))).await;
    assert_eq!(refused["error"]["code"], "meeting-adjourned", "{status} {refused}");
}
