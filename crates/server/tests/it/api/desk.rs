//! The registration desk: badges for keys the desk drew, their
//! replacement and layout, the register's search, and the desk's figures.

use asamblea_venue::staff::Role;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

use super::fixture::{Api, BadgeSeed};

#[tokio::test]
async fn a_badge_is_issued_for_a_key_the_desk_drew_and_never_for_a_seed() {
    let api = Api::demo("badge-keys");
    api.ok(Method::POST, "/api/v1/checkins", "operator", Some(json!({ "holder": "CC-10000000" }))).await;
    let before = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    for (body, field) in [
        (json!({ "person": "CC-10000000" }), "key"),
        (json!({ "person": "CC-10000000", "key": "zz" }), "`key`"),
        (json!({ "person": "CC-10000000", "key": "00".repeat(32) }), "`key`"),
        (json!({ "person": "CC-10000000", "key": "ab".repeat(31) }), "`key`"),
    ] {
        let (status, value) = api.call(Method::POST, "/api/v1/badges", "operator", Some(body.clone())).await;
        assert_eq!(
            (status, &value["error"]["code"]),
            (StatusCode::BAD_REQUEST, &json!("bad-request")),
            "{body}"
        );
        assert!(value["error"]["message_en"].as_str().unwrap().contains(field), "{body}: {value}");
        if field == "`key`" {
            // The key's own refusal (asamblea-wire's) in each message's
            // language, never both in one.
            let (es, en) =
                (value["error"]["message"].as_str().unwrap(), value["error"]["message_en"].as_str().unwrap());
            assert!(es.contains("hexadecimal") && !es.contains(" must ") && !es.contains(" / "), "{value}");
            assert!(!en.contains(" debe ") && !en.contains(" / "), "{value}");
        }
    }
    let seed = BadgeSeed::draw(&api.meeting);
    let issued = api.ok(Method::POST, "/api/v1/badges", "operator", Some(seed.request("CC-10000000"))).await;
    assert_eq!(issued["key"], seed.public_key().to_string());
    assert!(issued.get("qr_text").is_none(), "no seed ever leaves the daemon: {issued}");
    let credential = seed.credential(&issued);
    let sheet =
        api.ok(Method::GET, &format!("/api/v1/kiosk/badges/{}", credential.id().0), "kiosk", None).await;
    assert_eq!(sheet["person"], "CC-10000000", "{sheet}");
    // The same request again (the desk lost the answer): the same badge,
    // not a second one.
    let (status, again) =
        api.call(Method::POST, "/api/v1/badges", "operator", Some(seed.request("CC-10000000"))).await;
    assert_eq!((status, &again["credential"]), (StatusCode::OK, &issued["credential"]), "{again}");
    // The same key for someone else is refused: a badge key is one badge's.
    api.ok(Method::POST, "/api/v1/checkins", "operator", Some(json!({ "holder": "CC-10007919" }))).await;
    let (status, value) =
        api.call(Method::POST, "/api/v1/badges", "operator", Some(seed.request("CC-10007919"))).await;
    assert_eq!(
        (status, &value["error"]["code"]),
        (StatusCode::CONFLICT, &json!("badge-key-in-use")),
        "{value}"
    );
    // And a second badge for CC-10000000 waits for the first's revocation.
    let other = BadgeSeed::draw(&api.meeting);
    let (status, value) =
        api.call(Method::POST, "/api/v1/badges", "operator", Some(other.request("CC-10000000"))).await;
    assert_eq!((status, &value["error"]["code"]), (StatusCode::CONFLICT, &json!("badge-held")), "{value}");
    let mut after = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    after["head"] = before["head"].clone();
    after["quorum"] = before["quorum"].clone();
    assert_eq!(after, before, "a badge changes no public figure (but the quorum, by the check-in)");
}

#[tokio::test]
async fn a_lost_badge_is_replaced_in_one_step_and_the_desk_prints_from_the_daemons_layout() {
    let api = Api::demo("reissue");
    api.check_in_a_quorum().await;
    let old = api.badge("NIT-800100200").await;
    // The layout the desk's browser prints: the person's name and number,
    // the QR square left for the browser (the daemon never holds the seed).
    let (status, svg) = api.page(Method::GET, &format!("/api/v1/badges/{}/layout", old.id().0), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "the layout is the desk's: {svg}");
    let (status, svg) = api.text_as(&format!("/api/v1/badges/{}/layout", old.id().0), Role::Operator).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        svg.contains(r#"id="qr-slot""#)
            && svg.contains("NIT-800100200")
            && svg.contains(&format!("N.º {}", old.id().0)),
        "{svg}"
    );
    // Re-issued: a new number for the same person, the old one revoked in the same transaction.
    let seed = BadgeSeed::draw(&api.meeting);
    let key = json!({ "key": seed.public_key().to_string() });
    let answer = api
        .ok(Method::POST, &format!("/api/v1/badges/{}/reissue", old.id().0), "operator", Some(key.clone()))
        .await;
    assert_eq!(
        (answer["revoked"].as_u64(), answer["person"].as_str()),
        (Some(u64::from(old.id().0)), Some("NIT-800100200"))
    );
    let number = answer["credential"].as_u64().unwrap();
    assert_eq!(number, u64::from(old.id().0) + 1);
    // The old one is revoked; a second re-issue of it, or one with a key already used, changes nothing.
    let (status, value) = api
        .call(Method::POST, &format!("/api/v1/badges/{}/reissue", old.id().0), "operator", Some(key.clone()))
        .await;
    assert_eq!(
        (status, value["error"]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("revoked-badge")),
        "{value}"
    );
    let (status, value) =
        api.call(Method::POST, &format!("/api/v1/badges/{number}/reissue"), "operator", Some(key)).await;
    assert!(status.is_client_error() && value["error"]["code"].as_str().is_some(), "{status} {value}");
    let desk = api.ok(Method::GET, "/api/v1/desk", "operator", None).await;
    assert_eq!(
        (
            desk["badges"]["issued"].as_u64(),
            desk["badges"]["revoked"].as_u64(),
            desk["badges"]["live"].as_u64()
        ),
        (Some(2), Some(1), Some(1))
    );
    let (status, _) = api.text_as(&format!("/api/v1/badges/{}/layout", old.id().0), Role::Operator).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "a revoked badge is not printed again");
    // The search says who holds which badge.
    let found = api.ok(Method::GET, "/api/v1/holders?q=NIT-800100200", "operator", None).await;
    assert_eq!(found["holders"][0]["badge"].as_u64(), Some(number));
}

#[tokio::test]
async fn the_desk_search_finds_by_id_start_or_any_part_of_the_name_accents_aside() {
    let api = Api::demo("search");
    let found = api.ok(Method::GET, "/api/v1/holders?q=", "operator", None).await;
    let all = found["matched"].as_u64().unwrap();
    assert!(all > 20 && found["holders"].as_array().unwrap().len() == 20, "{found}");
    let by_id = api.ok(Method::GET, "/api/v1/holders?q=cc-1000000", "operator", None).await;
    assert!(by_id["holders"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["id"].as_str().unwrap().starts_with("CC-1000000")));
    assert!(by_id["matched"].as_u64().unwrap() >= 1);
    // A name from the register, searched by a part of it without accents.
    let first = &found["holders"][0];
    let name = first["name"].as_str().unwrap().to_string();
    let word = name.split_whitespace().last().unwrap().to_lowercase();
    let plain: String = word
        .chars()
        .map(|c| match c {
            'á' => 'a',
            'é' => 'e',
            'í' => 'i',
            'ó' => 'o',
            'ú' => 'u',
            'ñ' => 'n',
            c => c,
        })
        .collect();
    let by_name = api.ok(Method::GET, &format!("/api/v1/holders?q={}", plain), "operator", None).await;
    assert!(
        by_name["holders"].as_array().unwrap().iter().any(|h| h["id"] == first["id"]),
        "{plain}: {by_name}"
    );
    let none = api.ok(Method::GET, "/api/v1/holders?q=zzzz-nadie", "operator", None).await;
    assert_eq!(none["matched"], 0);
    let (status, answer) =
        api.call(Method::GET, &format!("/api/v1/holders?q={}", "x".repeat(65)), "operator", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
}

#[tokio::test]
async fn the_desk_figures_count_arrivals_refusals_and_badges_as_the_ledger_records_them() {
    let api = Api::demo("desk");
    let desk = || api.ok(Method::GET, "/api/v1/desk", "operator", None);
    let before = desk().await;
    let absent: Vec<(String, u64)> = api
        .holders("cc-")
        .await
        .holders
        .into_iter()
        .filter(|h| !h.present && h.shares.preferred == 0)
        .map(|h| (h.id, h.shares.ordinary))
        .collect();
    assert!(absent.len() >= 5, "five absent holders: {absent:?}");
    // One holder in person.
    api.check_in(&absent[0].0).await;
    // An administrator as a proxy: refused by the rules, and the refusal recorded.
    let barred = json!({ "agent": "CC-77777777", "represents": [absent[1].0, absent[2].0], "as": "proxy", "agent_role": "administrator", "power_document": "P-1" });
    let (status, refused) = api.call(Method::POST, "/api/v1/checkins", "operator", Some(barred)).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("proxy-agent-barred"))
    );
    // A power the desk found wanting: recorded, nobody admitted.
    let wanting = json!({ "agent": "CC-66666666", "represents": [absent[3].0], "as": "proxy", "power_document": "sin firma", "power_rejected": true });
    let recorded = api.ok(Method::POST, "/api/v1/checkins", "operator", Some(wanting)).await;
    assert_eq!(recorded["refused"], "power-document-rejected");
    // `power_rejected` belongs to an agent's arrival only, and changes nothing else.
    let (status, _) = api
        .call(
            Method::POST,
            "/api/v1/checkins",
            "operator",
            Some(json!({ "holder": absent[4].0, "power_rejected": true })),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A proxy admitted for two holders.
    let proxy = json!({ "agent": "CC-55555555", "represents": [absent[1].0, absent[2].0], "as": "proxy", "power_document": "P-2" });
    api.ok(Method::POST, "/api/v1/checkins", "operator", Some(proxy)).await;
    // A badge issued, and revoked.
    let credential = api.badge(&absent[0].0).await;
    api.ok(Method::POST, &format!("/api/v1/badges/{}/revoke", credential.id().0), "operator", None).await;

    let after = api.ok(Method::GET, "/api/v1/desk", "secretary", None).await;
    let delta = |path: &[&str]| {
        let pick = |v: &Value| path.iter().fold(v.clone(), |v, k| v[*k].clone()).as_u64().unwrap();
        pick(&after) - pick(&before)
    };
    assert_eq!(delta(&["in_person", "holders"]), 1);
    assert_eq!(delta(&["in_person", "shares"]), absent[0].1);
    assert_eq!(delta(&["proxy", "holders"]), 2);
    assert_eq!(delta(&["proxy", "agents"]), 1);
    assert_eq!(delta(&["proxy", "shares"]), absent[1].1 + absent[2].1);
    assert_eq!(
        (delta(&["badges", "issued"]), delta(&["badges", "revoked"]), delta(&["badges", "live"])),
        (1, 1, 0)
    );
    let refused = after["refused"].as_array().unwrap();
    assert_eq!(refused.len() - before["refused"].as_array().unwrap().len(), 2);
    let barred = &refused[refused.len() - 2];
    assert_eq!(
        (barred["agent"].as_str(), barred["reason"].as_str()),
        (Some("CC-77777777"), Some("proxy-agent-barred"))
    );
    assert!(barred["reason_es"].as_str().unwrap().contains("Art. 185"), "{barred}");
    assert_eq!(barred["principals"], json!([absent[1].0, absent[2].0]));
    let wanting = &refused[refused.len() - 1];
    assert_eq!(
        (wanting["reason"].as_str(), wanting["power_document"].as_str()),
        (Some("power-document-rejected"), Some("sin firma"))
    );
    // The chair and the public do not get the desk's figures.
    for caller in ["chair", "public"] {
        let (status, _) = api.call(Method::GET, "/api/v1/desk", caller, None).await;
        assert!(status == StatusCode::FORBIDDEN || status == StatusCode::UNAUTHORIZED, "{caller}: {status}");
    }
}

/// An agent's id typed at the desk is held to the register's own rule for
/// ids (`asamblea_venue::text::id`): what a register refuses — a direction
/// override (U+202E) that printed `gnp.exe` reversed in the acta, markup, a
/// spreadsheet formula, an address, a space — is refused here too, saying
/// why in Spanish first; nothing is recorded.
#[tokio::test]
async fn an_agents_id_is_held_to_the_registers_rule_for_ids() {
    let api = Api::demo("agent-ids");
    let before = api.ok(Method::GET, "/api/v1/desk", "operator", None).await;
    for bad in ["\u{202E}gnp.exe", "<b>CC-1</b>", "=1+1", "ana@example.com", "CC 55555555", "CC-\u{200B}5"] {
        for rejected in [false, true] {
            let body = json!({ "agent": bad, "represents": ["CC-10000000"], "as": "proxy",
                               "power_document": "P-1", "power_rejected": rejected });
            let (status, value) = api.call(Method::POST, "/api/v1/checkins", "operator", Some(body)).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad:?} was let in: {value}");
            let (es, en) =
                (value["error"]["message"].as_str().unwrap(), value["error"]["message_en"].as_str().unwrap());
            assert!(es.contains("apoderado") && es.contains("identificador"), "{es}");
            assert!(en.contains("agent") && !en.contains("apoderado"), "{en}");
        }
    }
    assert_eq!(api.ok(Method::GET, "/api/v1/desk", "operator", None).await, before, "nothing recorded");
    // An id the register would take is taken, in its NFC form.
    let body = json!({ "agent": "CC-JOSE\u{301}", "represents": ["CC-10000000"], "as": "proxy", "power_document": "P-1" });
    api.ok(Method::POST, "/api/v1/checkins", "operator", Some(body)).await;
    let attendees = api.ok(Method::GET, "/api/v1/attendees", "operator", None).await;
    assert!(attendees.to_string().contains("CC-JOSÉ"), "{attendees}");
}

#[tokio::test]
async fn the_desk_search_finds_the_number_on_the_id_card_however_it_is_typed() {
    let api = Api::demo("search-card");
    for typed in ["1000000", "CC%201000000", "cc1000000", "1.000.000", "800100200", "NIT%20800.100.200"] {
        let found = api.ok(Method::GET, &format!("/api/v1/holders?q={typed}"), "operator", None).await;
        let ids: Vec<&str> =
            found["holders"].as_array().unwrap().iter().map(|h| h["id"].as_str().unwrap()).collect();
        let wanted = if typed.contains("800") { "NIT-800100200" } else { "CC-10000000" };
        assert!(ids.contains(&wanted), "{typed}: {ids:?}");
    }
}

#[tokio::test]
async fn an_agent_and_whoever_attends_for_a_holder_are_named_on_the_badge_the_kiosk_and_the_acta() {
    let api = Api::new("named", super::fixture::MERGER_MEETING, super::fixture::MERGER_REGISTER);
    // A holder in person, attended by someone with their own document (a
    // company's representative), and an agent with a name.
    let company =
        json!({ "holder": "A-1", "attendee_name": "María Gómez", "attendee_document": "CC-80999111" });
    api.ok(Method::POST, "/api/v1/checkins", "operator", Some(company)).await;
    let agent = json!({ "agent": "CC-71234567", "attendee_name": "Carlos Andrés Rojas", "represents": ["C-3"], "as": "proxy", "power_document": "P-1" });
    api.ok(Method::POST, "/api/v1/checkins", "operator", Some(agent)).await;
    let attendees = api.ok(Method::GET, "/api/v1/attendees", "operator", None).await;
    let named: Vec<(String, Option<String>)> = attendees["attendees"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["person"].as_str().unwrap().to_string(), a["name"].as_str().map(str::to_string)))
        .collect();
    assert!(named.contains(&("CC-71234567".into(), Some("Carlos Andrés Rojas".into()))), "{named:?}");
    assert!(named.contains(&("A-1".into(), Some("María Gómez".into()))), "{named:?}");
    // The search says who attends for whom.
    let found = api.ok(Method::GET, "/api/v1/holders?q=C-3", "operator", None).await;
    assert_eq!(found["holders"][0]["attendee_name"], "Carlos Andrés Rojas", "{found}");
    // The badge: the agent by name, not their id twice.
    let credential = api.badge("CC-71234567").await;
    let (status, svg) =
        api.text_as(&format!("/api/v1/badges/{}/layout", credential.id().0), Role::Operator).await;
    assert_eq!(status, StatusCode::OK);
    assert!(svg.contains("Carlos Andrés Rojas") && svg.contains("Carmen Díaz"), "{svg}");
    let badge = api.badge("A-1").await;
    let (_, svg) = api.text_as(&format!("/api/v1/badges/{}/layout", badge.id().0), Role::Operator).await;
    assert!(svg.contains("María Gómez") && svg.contains("Ana"), "who attends, and for whom: {svg}");
    // The kiosk greets the agent by name.
    let sheet =
        api.ok(Method::GET, &format!("/api/v1/kiosk/badges/{}", credential.id().0), "kiosk", None).await;
    assert_eq!(sheet["name"], "Carlos Andrés Rojas", "{sheet}");
    // A name the ledger cannot hold, or a document for an agent: refused,
    // nothing recorded.
    for body in [
        json!({ "holder": "B-2", "attendee_name": "x".repeat(257) }),
        json!({ "agent": "CC-5", "attendee_name": "Ana", "attendee_document": "CC-6", "represents": ["B-2"] }),
        json!({ "holder": "B-2", "attendee_document": "CC-6" }),
    ] {
        let (status, answer) =
            api.call(Method::POST, "/api/v1/checkins", "operator", Some(body.clone())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
    }
    assert!(!api.holders("B-2").await.holders[0].present, "nothing recorded");
    // The acta, made from the verified bundle, names them.
    let (status, bytes) = api.bytes_as("/api/v1/exports/acta.pdf", Role::Secretary).await;
    assert_eq!(status, StatusCode::OK);
    let pdf = api.dir.with_extension("named.pdf");
    std::fs::write(&pdf, &bytes).unwrap();
    let Ok(text) = std::process::Command::new("pdftotext").arg(&pdf).arg("-").output() else {
        return super::fixture::not_run(
            "api::desk::an_agent_and_whoever_attends…: the acta's PDF read by poppler",
            "no pdftotext (apt-get install poppler-utils)",
        );
    };
    let text = String::from_utf8_lossy(&text.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        // The list of attendees: the company with who attended for it,
        // the agent by name with whom he represented.
        "Ana Pérez (A-1), por María Gómez (CC-80999111), en persona",
        "Carlos Andrés Rojas (CC-71234567), apoderado Carmen Díaz (C-3)",
        "Carlos Andrés Rojas (CC-71234567) apoderado",
    ] {
        assert!(text.contains(expected), "the acta lacks «{expected}»: {text}");
    }
}

#[tokio::test]
async fn already_present_names_the_holder_and_who_carries_them() {
    let api = Api::new("present", super::fixture::MERGER_MEETING, super::fixture::MERGER_REGISTER);
    api.check_in("A-1").await;
    let agent =
        json!({ "agent": "CC-71234567", "attendee_name": "Carlos Andrés Rojas", "represents": ["C-3"] });
    api.ok(Method::POST, "/api/v1/checkins", "operator", Some(agent)).await;
    for (represents, said) in [
        (json!(["A-1"]), "Ana"),
        (json!(["B-2", "C-3"]), "ya está representado por Carlos Andrés Rojas (CC-71234567)"),
    ] {
        for path in ["/api/v1/checkins/check", "/api/v1/checkins"] {
            let body = json!({ "agent": "CC-5", "attendee_name": "Otro", "represents": represents });
            let (status, answer) = api.call(Method::POST, path, "operator", Some(body)).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
            assert_eq!(answer["error"]["code"], "already-present");
            let message = answer["error"]["message"].as_str().unwrap();
            assert!(message.contains(said), "{path}: {message}");
        }
    }
    let (_, answer) =
        api.call(Method::POST, "/api/v1/checkins", "operator", Some(json!({ "holder": "A-1" }))).await;
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("(A-1) ya está presente en persona"), "{message}");
}

#[tokio::test]
async fn a_register_row_with_no_shares_is_refused_at_the_desk_saying_why() {
    let api = Api::demo("no-shares");
    let before = api.ok(Method::GET, "/api/v1/desk", "operator", None).await;
    let zero = "CC-12217320";
    for (path, body) in [
        ("/api/v1/checkins/check", json!({ "holder": zero })),
        ("/api/v1/checkins", json!({ "holder": zero })),
        ("/api/v1/checkins", json!({ "agent": "CC-5", "represents": [zero] })),
    ] {
        let (status, answer) = api.call(Method::POST, path, "operator", Some(body.clone())).await;
        assert_eq!(
            (status, answer["error"]["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("no-shares")),
            "{body}: {answer}"
        );
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message
                .contains("Juan López Díaz (CC-12217320) figura en el libro de accionistas con 0 acciones"),
            "{message}"
        );
    }
    assert!(!api.holders(zero).await.holders[0].present);
    assert_eq!(api.ok(Method::GET, "/api/v1/desk", "operator", None).await, before, "nothing recorded");
}
