//! Powers of attorney lodged before the meeting and the desk's one-scan
//! admission, through the API: verdicts with their reasons (the demo
//! company is a listed issuer), a batch lodged twice doubling nothing,
//! the desk's figures, an agent admitted with every principal in one
//! action, a principal arriving in either order, a substitute, and
//! nothing lodged once the meeting is installed.

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

use super::fixture::Api;

/// A complete power of `principals` to CC-77000001, dated for the demo
/// meeting (30 March 2027), with CC-77000002 as substitute.
fn power(reference: &str, principals: &[&str]) -> Value {
    json!({
        "reference": reference,
        "principals": principals,
        "agent": "CC-77000001",
        "agent_name": "Ana Apoderada Gómez",
        "substitutes": [{ "id": "CC-77000002", "name": "Sara Sustituta" }],
        "meeting_date": "2027-03-30",
        "received_via": "email",
        "received_on": "2027-03-10",
        "document_sha256": "ab".repeat(32),
    })
}

fn with(mut value: Value, key: &str, field: Value) -> Value {
    value[key] = field;
    value
}

async fn lodge(api: &Api, powers: Vec<Value>) -> Value {
    api.ok(Method::POST, "/api/v1/powers", "operator", Some(json!({ "powers": powers }))).await
}

fn reasons(answer: &Value) -> Vec<(String, String)> {
    answer["lodged"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["reference"].as_str().unwrap().to_string(),
                v["reason"].as_str().unwrap_or("accepted").to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn powers_are_judged_at_lodging_and_a_batch_lodged_twice_doubles_nothing() {
    let api = Api::demo("powers-lodged");
    let batch = vec![
        power("P-1", &["CC-10110866", "CC-10118785"]),
        // CC-10118785 is covered by P-1 now.
        power("P-2", &["CC-10118785"]),
        with(power("P-3", &["CC-10126704"]), "agent", json!("")),
        with(power("P-4", &["CC-10126704"]), "meeting_date", json!("")),
        with(power("P-5", &["CC-10126704"]), "agent", json!("CC-10007919")),
        with(power("P-6", &["CC-10126704"]), "suggested", json!(true)),
        with(power("P-7", &["CC-10126704"]), "agent_tie", json!("tied-to-administration")),
        with(power("P-8", &["CC-10126704"]), "meeting_date", json!("2027-04-30")),
        with(power("P-9", &["CC-10126704"]), "judgement", json!("document-rejected")),
        power("P-10", &["CC-10126704", "CC-99999999"]),
        power("P-11", &["CC-10134623"]),
    ];
    let answer = lodge(&api, batch.clone()).await;
    let expected = [
        ("P-1", "accepted"),
        ("P-2", "already-covered"),
        ("P-3", "missing-agent"),
        ("P-4", "missing-date"),
        ("P-5", "agent-barred"),
        ("P-6", "suggested-by-company"),
        ("P-7", "tied-to-administration"),
        ("P-8", "wrong-meeting"),
        ("P-9", "document-rejected"),
        ("P-10", "unknown-holder"),
        ("P-11", "accepted"),
    ];
    let expected: Vec<(String, String)> =
        expected.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    assert_eq!(reasons(&answer), expected);
    let figures = &answer["figures"];
    assert_eq!(
        (figures["lodged"].as_u64(), figures["accepted"].as_u64(), figures["refused"].as_u64()),
        (Some(11), Some(2), Some(9))
    );
    assert_eq!(figures["principals_covered"], 3, "{figures}");
    assert_eq!(figures["shares_covered"]["ORD"], 140_501 + 178_840 + 339_830, "{figures}");
    assert!(figures["refused_by_reason"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["powers"] == 1 && r["words"]["es"].is_string()));
    // The same batch again: nothing lodged, everything standing.
    let again = lodge(&api, batch).await;
    assert_eq!(again["lodged"], json!([]));
    assert_eq!(again["unchanged"].as_array().unwrap().len(), 11);
    assert_eq!(again["figures"], answer["figures"]);
    // The same reference with other content is refused, naming it.
    let (status, value) = api
        .call(
            Method::POST,
            "/api/v1/powers",
            "operator",
            Some(json!({ "powers": [power("P-1", &["CC-10150461"])] })),
        )
        .await;
    assert_eq!(
        (status, &value["error"]["code"]),
        (StatusCode::UNPROCESSABLE_ENTITY, &json!("desk-refused")),
        "{value}"
    );
    assert!(value["error"]["message"].as_str().unwrap().contains("P-1"), "{value}");
    // A bad field is named, and nothing of the batch is lodged.
    let bad = vec![
        power("P-20", &["CC-10150461"]),
        with(power("P-21", &["CC-10158380"]), "document_sha256", json!("xyz")),
    ];
    let (status, value) =
        api.call(Method::POST, "/api/v1/powers", "operator", Some(json!({ "powers": bad }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
    assert!(value["error"]["message"].as_str().unwrap().contains("powers[1] (P-21)"), "{value}");
    let figures = api.ok(Method::GET, "/api/v1/powers", "secretary", None).await;
    assert_eq!(figures["lodged"], 11, "nothing of a refused batch is lodged: {figures}");
    // CC-10118785 withdraws P-1 in writing: a new power for her is
    // accepted; withdrawing it twice is refused.
    let withdrawal = json!({ "power": "P-1", "principal": "CC-10118785" });
    api.ok(Method::POST, "/api/v1/powers/withdrawals", "operator", Some(withdrawal.clone())).await;
    let (status, value) =
        api.call(Method::POST, "/api/v1/powers/withdrawals", "operator", Some(withdrawal)).await;
    assert_eq!(
        (status, &value["error"]["code"]),
        (StatusCode::UNPROCESSABLE_ENTITY, &json!("refused")),
        "{value}"
    );
    let answer = lodge(&api, vec![power("P-12", &["CC-10118785"])]).await;
    assert_eq!(reasons(&answer), [("P-12".to_string(), "accepted".to_string())]);
    // No voting instruction is ever taken.
    let (status, _) = api
        .call(Method::POST, "/api/v1/powers", "operator", Some(json!({ "powers": [with(power("P-30", &["CC-10150461"]), "instructions", json!("votar sí"))] })))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn an_agent_is_admitted_with_every_principal_in_one_action_and_a_principal_revokes_in_either_order() {
    let api = Api::demo("powers-admitted");
    lodge(
        &api,
        vec![power("P-1", &["CC-10110866", "CC-10118785", "CC-10126704"]), power("P-2", &["CC-10134623"])],
    )
    .await;
    // The principal CC-10126704 arrives first, in person: P-1 revoked for
    // her, in the same action.
    let card = api.ok(Method::GET, "/api/v1/expected?q=10126704", "operator", None).await;
    assert_eq!(
        (card["person"].as_str(), card["covered_by"].as_str()),
        (Some("CC-10126704"), Some("P-1")),
        "{card}"
    );
    let admitted = api
        .ok(Method::POST, "/api/v1/admissions", "operator", Some(json!({ "person": "CC-10126704" })))
        .await;
    assert_eq!(
        (admitted["revoked"].as_str(), admitted["carried"].clone()),
        (Some("P-1"), json!(["CC-10126704"])),
        "{admitted}"
    );
    // The agent, found by the bare number of their card, is told which
    // shares they no longer carry, and comes in with the rest at once.
    let card = api.ok(Method::GET, "/api/v1/expected?q=77000001", "operator", None).await;
    assert_eq!(card["name"], "Ana Apoderada Gómez", "{card}");
    assert_eq!(card["to_carry"], 3, "{card}");
    let statuses: Vec<(String, String)> = card["powers"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["principals"].as_array().unwrap().iter())
        .map(|p| (p["id"].as_str().unwrap().to_string(), p["status"].as_str().unwrap().to_string()))
        .collect();
    assert!(statuses.contains(&("CC-10126704".into(), "principal-arrived".into())), "{statuses:?}");
    let admitted = api
        .ok(Method::POST, "/api/v1/admissions", "operator", Some(json!({ "person": "CC-77000001" })))
        .await;
    assert_eq!(admitted["carried"], json!(["CC-10110866", "CC-10118785", "CC-10134623"]), "{admitted}");
    assert_eq!(admitted["as_substitute"], false);
    let holders = api.holders("CC-10110866").await;
    assert_eq!(holders.holders[0].via.as_deref(), Some("CC-77000001"));
    assert_eq!(
        holders.holders[0].attendee_name.as_deref(),
        Some("Ana Apoderada Gómez"),
        "named as the power names her"
    );
    // Then a principal arrives while the agent carries him: revoked, taken
    // from the agent, present in person; the quorum's holders unchanged.
    let before = admitted["quorum"]["holders"].as_u64().unwrap();
    let admitted = api
        .ok(Method::POST, "/api/v1/admissions", "operator", Some(json!({ "person": "CC-10118785" })))
        .await;
    assert_eq!(
        (admitted["revoked"].as_str(), admitted["quorum"]["holders"].as_u64()),
        (Some("P-1"), Some(before)),
        "{admitted}"
    );
    let card = api.ok(Method::GET, "/api/v1/expected?q=CC-77000001", "operator", None).await;
    let carried = card["powers"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["principals"].as_array().unwrap().iter())
        .filter(|p| p["status"] == "carried")
        .count();
    assert_eq!(carried, 2, "{card}");
    // Nobody more to admit: said so, nothing recorded.
    let (status, value) = api
        .call(Method::POST, "/api/v1/admissions", "operator", Some(json!({ "person": "CC-77000001" })))
        .await;
    assert_eq!(
        (status, &value["error"]["code"]),
        (StatusCode::UNPROCESSABLE_ENTITY, &json!("desk-refused")),
        "{value}"
    );
    let figures = api.ok(Method::GET, "/api/v1/powers", "operator", None).await;
    assert_eq!(
        (figures["revoked"].as_u64(), figures["principals_carried"].as_u64()),
        (Some(2), Some(3)),
        "{figures}"
    );
}

#[tokio::test]
async fn a_substitute_comes_instead_of_the_agent_and_nothing_is_lodged_once_installed() {
    let api = Api::demo("powers-substitute");
    api.check_in_a_quorum().await;
    lodge(&api, vec![power("P-1", &["CC-10110866", "CC-10118785"])]).await;
    let admitted = api
        .ok(
            Method::POST,
            "/api/v1/admissions",
            "operator",
            Some(json!({ "person": "CC-77000002", "attendee_name": "Sara Sustituta Ríos" })),
        )
        .await;
    assert_eq!(
        (admitted["as_substitute"].as_bool(), admitted["carried"].as_array().map(Vec::len)),
        (Some(true), Some(2)),
        "{admitted}"
    );
    // The agent, arriving after, finds their principals carried by the
    // substitute.
    let card = api.ok(Method::GET, "/api/v1/expected?q=CC-77000001", "operator", None).await;
    let by: Vec<&str> = card["powers"][0]["principals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["by"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(by, ["CC-77000002", "CC-77000002"], "{card}");
    api.install().await;
    let (status, value) = api
        .call(
            Method::POST,
            "/api/v1/powers",
            "operator",
            Some(json!({ "powers": [power("P-2", &["CC-10150461"])] })),
        )
        .await;
    assert_eq!((status, &value["error"]["code"]), (StatusCode::CONFLICT, &json!("powers-closed")), "{value}");
    let (status, _) = api.call(Method::GET, "/api/v1/expected?q=nadie-123", "operator", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Only the desk lodges and admits.
    for caller in ["public", "chair", "secretary", "kiosk"] {
        let (status, _) = api
            .call(Method::POST, "/api/v1/admissions", caller, Some(json!({ "person": "CC-10150461" })))
            .await;
        assert!(status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN, "{caller}: {status}");
    }
}

#[tokio::test]
async fn the_acta_and_the_exports_list_the_powers_used_refused_and_revoked() {
    use asamblea_venue::staff::Role;
    let api = Api::demo("powers-acta");
    lodge(
        &api,
        vec![
            power("P-1", &["CC-10110866", "CC-10118785"]),
            with(power("P-2", &["CC-10126704"]), "agent", json!("CC-10007919")),
        ],
    )
    .await;
    api.ok(Method::POST, "/api/v1/admissions", "operator", Some(json!({ "person": "CC-10118785" }))).await;
    api.ok(Method::POST, "/api/v1/admissions", "operator", Some(json!({ "person": "CC-77000002" }))).await;
    let (status, csv) = api.text_as("/api/v1/exports/resultados.csv?tabla=poderes", Role::Secretary).await;
    assert_eq!(status, StatusCode::OK, "{csv}");
    let digest = "ab".repeat(32);
    for expected in [
        format!("P-1;CC-10110866;Paula Martínez Jiménez;140501;0;CC-77000001;Ana Apoderada Gómez;aceptado;;correo electrónico, 2027-03-10;{digest};;CC-77000002;sí"),
        format!("P-1;CC-10118785;Andrés Rodríguez García;178840;0;CC-77000001;Ana Apoderada Gómez;aceptado;;correo electrónico, 2027-03-10;{digest};llegó en persona;;"),
        "P-2;CC-10126704;Mateo Ruiz Martínez;302033;0;CC-10007919;Ana Apoderada Gómez;agent-barred;".to_string(),
    ] {
        assert!(csv.contains(&expected), "the poderes table lacks «{expected}»: {csv}");
    }
    let (status, bytes) = api.bytes_as("/api/v1/exports/acta.pdf", Role::Secretary).await;
    assert_eq!(status, StatusCode::OK);
    let pdf = api.dir.with_extension("powers-acta.pdf");
    std::fs::write(&pdf, &bytes).unwrap();
    let Ok(text) = std::process::Command::new("pdftotext").arg(&pdf).arg("-").output() else {
        return super::fixture::not_run(
            "api::powers::the_acta_and_the_exports_list_the_powers…: the acta's PDF read by poppler",
            "no pdftotext (apt-get install poppler-utils)",
        );
    };
    let text = String::from_utf8_lossy(&text.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "Poderes radicados antes de la reunión",
        "se radicaron 2 poderes",
        "1 aceptado y 1 rechazado",
        "1 poderdante revocó su poder",
        "Poderes usados, por apoderado",
        "Sara Sustituta (CC-77000002), como sustituto de Ana Apoderada Gómez (CC-77000001)",
        "Poderes radicados, como sustituto de CC-77000001: P-1",
        "Poderes rechazados al radicarse",
        "el apoderado es administrador o empleado de la sociedad",
        "Poderes revocados por su poderdante",
        "llegó en persona",
    ] {
        assert!(text.contains(expected), "the acta lacks «{expected}»: {text}");
    }
    assert!(text.contains(&digest[..32]), "the document's hash is in the acta: {text}");
}

#[tokio::test]
async fn an_agent_has_a_letter_with_the_principals_still_covered_and_its_code_brings_them_up() {
    use asamblea_venue::staff::Role;
    let api = Api::demo("powers-letters");
    lodge(&api, vec![power("P-1", &["CC-10110866", "CC-10118785"]), power("P-2", &["CC-10126704"])]).await;
    api.ok(Method::POST, "/api/v1/admissions", "operator", Some(json!({ "person": "CC-10118785" }))).await;
    let code = asamblea_wire::admission_code(&api.meeting, "CC-77000001").to_string();
    // The letter's code, scanned at the desk, brings up the agent.
    let card =
        api.ok(Method::GET, &format!("/api/v1/expected?q={}", code.to_lowercase()), "operator", None).await;
    assert_eq!(
        (card["person"].as_str(), card["to_carry"].as_u64()),
        (Some("CC-77000001"), Some(2)),
        "{card}"
    );
    let (status, bytes) = api.bytes_as("/api/v1/letters.pdf?person=CC-77000001", Role::Operator).await;
    assert_eq!(status, StatusCode::OK);
    let pdf = api.dir.with_extension("agent-letter.pdf");
    std::fs::write(&pdf, &bytes).unwrap();
    let Ok(text) = std::process::Command::new("pdftotext").arg(&pdf).arg("-").output() else {
        return super::fixture::not_run(
            "api::powers::an_agent_has_a_letter…: the letter's PDF read by poppler",
            "no pdftotext (apt-get install poppler-utils)",
        );
    };
    let text = String::from_utf8_lossy(&text.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "Ana Apoderada Gómez",
        code.as_str(),
        "P-1",
        "P-2",
        "Paula Martínez Jiménez",
        "Mateo Ruiz Martínez",
        "140.501",
    ] {
        assert!(text.contains(expected), "the agent's letter lacks «{expected}»: {text}");
    }
    assert!(
        !text.contains("Andrés Rodríguez García"),
        "a principal who came in person is no longer on it: {text}"
    );
}
