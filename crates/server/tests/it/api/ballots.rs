//! A kiosk's ballot and what the public checks of it: the ballot sheet,
//! receipts (once, for this meeting only), the board's receipt page and
//! the counted ballots of a closed item.

use asamblea_rules::OptionIndex;
use asamblea_wire::{Choice, Credential, HolderVote, Id, MeetingId};
use axum::http::{Method, StatusCode};
use serde_json::json;

use super::fixture::{hex, Api, BadgeSeed};

#[tokio::test]
async fn the_kiosks_ballot_sheet_says_which_shares_vote_and_why_a_holding_does_not() {
    let api = Api::demo("sheet");
    api.check_in_a_quorum().await;
    api.install().await;
    // An administrator, and a holder of preferred shares only.
    for holder in ["CC-10000000", "CC-12280672"] {
        api.check_in(holder).await;
    }
    for item in ["item-1", "item-2"] {
        api.ok(Method::POST, &format!("/api/v1/items/{item}/open"), "chair", None).await;
    }
    let sheet_of = |holder: &'static str| {
        let api = &api;
        async move {
            let seed = BadgeSeed::draw(&api.meeting);
            let issued = api.ok(Method::POST, "/api/v1/badges", "operator", Some(seed.request(holder))).await;
            let credential = seed.credential(&issued);
            api.ok(Method::GET, &format!("/api/v1/kiosk/badges/{}", credential.id().0), "kiosk", None).await
        }
    };
    let admin = sheet_of("CC-10000000").await;
    assert_eq!(admin["name"], "Ana Moreno Martínez");
    let items = admin["open_items"].as_array().unwrap();
    assert_eq!(items[0]["title"], "Aprobación del orden del día");
    assert_eq!(items[0]["options"][0]["es"], "A favor");
    // On an ordinary matter the administrator votes her ordinary shares
    // only (her preferred ones do not vote there); on the year-end
    // statements not at all, with the article.
    assert_eq!(
        (items[0]["holders"][0]["may_vote"].clone(), items[0]["holders"][0]["shares"].clone()),
        (json!(true), json!(27_111))
    );
    assert_eq!(items[1]["holders"][0]["may_vote"], false);
    assert!(items[1]["holders"][0]["reason_es"].as_str().unwrap().contains("art. 185"), "{}", items[1]);
    let preferred = sheet_of("CC-12280672").await;
    let holding = &preferred["open_items"][0]["holders"][0];
    assert_eq!((holding["may_vote"].clone(), holding["shares"].clone()), (json!(false), json!(0)));
    assert!(
        holding["reason_es"].as_str().unwrap().starts_with("Estas acciones son preferenciales"),
        "{holding}"
    );
}

#[tokio::test]
async fn ballots_get_receipts_only_once_and_only_for_their_meeting() {
    let api = Api::demo("ballots");
    api.check_in_a_quorum().await;
    api.install().await;
    api.ok(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    let credential = api.badge("NIT-800100200").await;
    let vote = |option| HolderVote {
        holder: Id::new("NIT-800100200").unwrap(),
        choice: Choice::Whole(OptionIndex::list(option)),
    };
    let ballot = api.ballot(&credential, "item-1", vec![vote(0)]);
    let first = api.ok(Method::POST, "/api/v1/ballots", "kiosk", Some(ballot.clone())).await;
    let again = api.ok(Method::POST, "/api/v1/ballots", "kiosk", Some(ballot.clone())).await;
    assert_eq!(first, again, "the same ballot gets the same receipt");
    // The voter's receipt, checked against the durable ledger with the
    // check `verify --receipts` makes; a forged one is refused, saying why.
    let checked = api.ok(Method::POST, "/api/v1/receipts/check", "public", Some(first.clone())).await;
    assert_eq!(checked["valid"], true, "{checked}");
    let mut forged = first.clone();
    forged["receipt"]["event"] = json!("11".repeat(32));
    let (status, value) = api.call(Method::POST, "/api/v1/receipts/check", "public", Some(forged)).await;
    assert_eq!(
        (status, &value["error"]["code"]),
        (StatusCode::UNPROCESSABLE_ENTITY, &json!("receipt-not-signed"))
    );
    assert!(
        value["error"]["message_en"].as_str().unwrap().contains("not a receipt of this meeting"),
        "{value}"
    );
    // Signed by the daemon's key, but naming another event at that number
    // (what a ledger rewritten without the ballot would leave its voter
    // holding): the ledger does not bear it out.
    let keys = asamblea_venue::secrets::key_folder_of(&api.dir).unwrap();
    let daemon =
        asamblea_wire::Keypair::from_seed(&asamblea_venue::secrets::read_key(&keys, "daemon").unwrap());
    let (receipt, _) = asamblea_server::receipts::from_json(&first).unwrap();
    let other = asamblea_wire::Receipt { event: asamblea_wire::Digest([0x11; 32]), ..receipt };
    let signed = asamblea_server::receipts::to_json(&other, &other.sign(&api.meeting, &daemon));
    let (status, value) = api
        .call(Method::POST, "/api/v1/receipts/check", "public", Some(serde_json::from_str(&signed).unwrap()))
        .await;
    assert_eq!(
        (status, &value["error"]["code"]),
        (StatusCode::UNPROCESSABLE_ENTITY, &json!("ledger-rewritten"))
    );
    assert!(value["error"]["message"].as_str().unwrap().contains("avise al revisor fiscal"), "{value}");
    let mut garbled = first.clone();
    garbled["signature"] = json!("zz");
    let (status, _) = api.call(Method::POST, "/api/v1/receipts/check", "public", Some(garbled)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // The same ballot in other JSON spellings: an escaped digit, a charset.
    let text = ballot.to_string();
    let digit = ballot["signature"].as_str().unwrap().as_bytes()[0];
    let escaped = text.replacen("\"signature\":\"", &format!("\"signature\":\"\\u00{digit:02x}"), 1);
    let escaped =
        escaped.replacen(&format!("\\u00{digit:02x}{}", char::from(digit)), &format!("\\u00{digit:02x}"), 1);
    assert_ne!(escaped, text);
    for (content_type, body) in [
        ("application/json", escaped),
        ("application/json; charset=utf-8", text.clone()),
        ("Application/vnd.asamblea+JSON", text.clone()),
    ] {
        let (status, value) =
            api.call_raw(Method::POST, "/api/v1/ballots", "kiosk", Some(content_type), body).await;
        assert_eq!((status, &value), (StatusCode::OK, &first), "{content_type}");
    }
    // Not declared as JSON, or with a field too many: refused, naming why.
    for (content_type, body) in [
        (None, text.clone()),
        (Some("text/plain"), text.clone()),
        (Some("text/x+json"), text.clone()),
        (Some("application/json"), text.replacen('{', "{\"extra\":1,", 1)),
    ] {
        let (status, value) =
            api.call_raw(Method::POST, "/api/v1/ballots", "kiosk", content_type, body).await;
        assert_eq!((status, value["error"]["code"].clone()), (StatusCode::BAD_REQUEST, json!("bad-request")));
        assert!(value["error"]["message_en"].as_str().is_some_and(|m| m.len() > 20), "{value}");
    }
    let digest = first["receipt"]["event"].as_str().unwrap();
    assert_eq!(api.ok(Method::GET, &format!("/api/v1/receipts/{digest}"), "public", None).await, first);
    // A second, different ballot for the same holder is a second vote.
    let (status, value) = api
        .call(
            Method::POST,
            "/api/v1/ballots",
            "kiosk",
            Some(api.ballot(&credential, "item-1", vec![vote(1)])),
        )
        .await;
    assert_eq!(
        (status, value["error"]["code"].clone()),
        (StatusCode::UNPROCESSABLE_ENTITY, json!("already-voted"))
    );
    // A ballot for a holder the badge does not carry.
    let other =
        HolderVote { holder: Id::new("NIT-800200300").unwrap(), choice: Choice::Whole(OptionIndex::list(0)) };
    let (_, value) = api
        .call(Method::POST, "/api/v1/ballots", "kiosk", Some(api.ballot(&credential, "item-1", vec![other])))
        .await;
    assert_eq!(value["error"]["code"], "not-carried");
    // Signed for another meeting: the signature does not verify here.
    let foreign = Credential::generate_from(&MeetingId([9; 32]), credential.id(), &[3; 32]);
    let mut body = api.ballot(&foreign, "item-1", vec![vote(0)]);
    body["signer"] = json!(hex(&credential.public_key().to_bytes()));
    let (_, value) = api.call(Method::POST, "/api/v1/ballots", "kiosk", Some(body)).await;
    assert_eq!(value["error"]["code"], "bad-signature");
    // While open, the status shows turnout and no tally.
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    assert_eq!(status["items"][0]["state"], "open");
    assert_eq!(status["items"][0]["ballots"], 1);
    assert!(status["items"][0].get("result").is_none(), "no running tally while open: {status}");
}

#[tokio::test]
async fn the_boards_receipt_page_checks_a_receipt_as_verify_does() {
    let api = Api::demo("receipt-page");
    api.check_in_a_quorum().await;
    api.install().await;
    let (status, page) = api.page(Method::GET, "/recibo", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains(r#"<form method="post" action="/recibo""#) && page.contains(r#"<label for="recibo">"#)
    );
    // Nothing pasted, and something that is no receipt: the error summary
    // links to the field, and what was pasted comes back escaped.
    let (status, page) = api.page(Method::POST, "/recibo", Some("recibo=")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("Hay un problema") && page.contains(r##"<a href="#recibo">"##), "{page}");
    let (status, page) = api.page(Method::POST, "/recibo", Some("recibo=%3Cb%3Ehola")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        page.contains("eso no es un recibo") && page.contains("&lt;b&gt;hola") && !page.contains("<b>hola")
    );

    // A real ballot's receipt, as its line of text: borne out.
    let opened = api.call(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    assert_eq!(opened.0, StatusCode::OK, "{}", opened.1);
    let credential = api.badge("NIT-800100200").await;
    let vote =
        HolderVote { holder: Id::new("NIT-800100200").unwrap(), choice: Choice::Whole(OptionIndex::FOR) };
    let answer = api
        .ok(Method::POST, "/api/v1/ballots", "kiosk", Some(api.ballot(&credential, "item-1", vec![vote])))
        .await;
    let (receipt, signature) = asamblea_server::receipts::from_json(&answer).expect("the API's own JSON");
    let line = receipt.to_text(&signature);
    let form = |text: &str| format!("recibo={}", text.replace(':', "%3A"));
    let (status, page) = api.page(Method::POST, "/recibo", Some(&form(&line))).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains("Su papeleta está en el registro") && page.contains(&format!("evento {}", receipt.seq))
    );
    // The same receipt with another event named: not the daemon's word.
    let mut forged = receipt;
    forged.event = asamblea_wire::Digest([0x11; 32]);
    let (status, page) = api.page(Method::POST, "/recibo", Some(&form(&forged.to_text(&signature)))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        page.contains("No es un recibo de esta reunión") && page.contains("carácter por carácter"),
        "{page}"
    );
}

#[tokio::test]
async fn a_closed_items_counted_ballots_are_listed_by_their_receipts_hashes_and_searchable() {
    let api = Api::demo("counted");
    api.check_in_a_quorum().await;
    api.install().await;
    api.ok(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    let mut receipts = Vec::new();
    for holder in ["NIT-800100200", "NIT-800300400"] {
        let credential = api.badge(holder).await;
        let vote = HolderVote { holder: Id::new(holder).unwrap(), choice: Choice::Whole(OptionIndex::FOR) };
        let answer = api
            .ok(Method::POST, "/api/v1/ballots", "kiosk", Some(api.ballot(&credential, "item-1", vec![vote])))
            .await;
        receipts.push(asamblea_server::receipts::from_json(&answer).unwrap().0);
    }
    // The turnout while open: the ballots and the shares they weigh.
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    assert_eq!(status["items"][0]["ballots"], 2);
    assert_eq!(status["items"][0]["shares_voted"], 18_000_000 + 6_000_000, "{}", status["items"][0]);
    // While the poll is open there is no list (and nothing about choices ever).
    let (status, value) = api.call(Method::GET, "/api/v1/results/item-1/ballots", "public", None).await;
    assert_eq!((status, value["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("item-not-closed")));
    api.ok(Method::POST, "/api/v1/items/item-1/close", "chair", None).await;
    let list = api.ok(Method::GET, "/api/v1/results/item-1/ballots", "public", None).await;
    assert_eq!((list["counted"].as_u64(), list["pages"].as_u64()), (Some(2), Some(1)));
    let listed: Vec<(u64, String)> = list["ballots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["seq"].as_u64().unwrap(), b["hash"].as_str().unwrap().to_string()))
        .collect();
    let expected: Vec<(u64, String)> =
        receipts.iter().map(|r| (r.seq, asamblea_wire::hex::encode(&r.event.0))).collect();
    assert_eq!(listed, expected, "each ballot by its number and its receipt's hash, in ledger order");
    assert!(
        list["ballots"][0].as_object().unwrap().keys().all(|k| k == "seq" || k == "hash"),
        "no choice, no holder"
    );
    // Searched by the start of a hash, in either case.
    let start = expected[1].1[..6].to_ascii_uppercase();
    let found =
        api.ok(Method::GET, &format!("/api/v1/results/item-1/ballots?q={start}"), "public", None).await;
    assert!(
        found["ballots"].as_array().unwrap().iter().any(|b| b["hash"] == expected[1].1.as_str()),
        "{found}"
    );
    assert!(found["matched"].as_u64().unwrap() >= 1 && found["counted"] == 2);
    for bad in ["xyz", &"a".repeat(65)] {
        let (status, _) =
            api.call(Method::GET, &format!("/api/v1/results/item-1/ballots?q={bad}"), "public", None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    }
    let (status, _) = api.call(Method::GET, "/api/v1/results/nada/ballots", "public", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // The board's page lists them; a bad search says what to type.
    let (status, page) = api.page(Method::GET, "/papeletas?punto=item-1", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains(&expected[0].1)
            && page.contains(&expected[1].1)
            && page.contains("2 papeletas contadas")
    );
    let (status, page) = api.page(Method::GET, "/papeletas?punto=item-1&buscar=%3Cb%3E", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        page.contains("solo cifras 0–9 y letras a–f") && page.contains("&lt;b&gt;") && !page.contains("<b>")
    );
    // The receipt check takes the hash alone: where it was counted.
    let (status, page) = api.page(Method::POST, "/recibo", Some(&format!("recibo={}", expected[0].1))).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains("Su papeleta fue contada")
            && page.contains(&format!("posición {}", expected[0].0))
            && page.contains(&asamblea_wire::hex::encode(&receipts[0].head.0)),
        "{page}"
    );
    // The same from a receipt's QR scanned with a phone: a link to the page.
    let (status, page) = api.page(Method::GET, &format!("/recibo?resumen={}", expected[1].1), None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains(&format!("posición {}", expected[1].0)), "{page}");
    let (status, page) = api.page(Method::GET, "/recibo?resumen=%3Cscript%3E", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("no es el de una papeleta") && !page.contains("<script>"), "{page}");
    let (status, page) =
        api.page(Method::POST, "/recibo", Some(&format!("recibo={}", "ab".repeat(32)))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("Ese código no está en el registro"), "{page}");
    // The short code the kiosk shows (99F1-09F1-A3C2: the hash's first 12
    // digits, in groups, either case) finds the ballot too, in the form
    // and on the list.
    let hash = &expected[0].1;
    let code = format!("{}-{}-{}", &hash[..4], &hash[4..8], &hash[8..12]).to_uppercase();
    let (status, page) = api.page(Method::POST, "/recibo", Some(&format!("recibo={code}"))).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains(&format!("La papeleta {hash} fue contada")), "{page}");
    let (status, page) =
        api.page(Method::GET, &format!("/recibo?resumen={}", code.to_lowercase()), None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let (status, page) = api.page(Method::POST, "/recibo", Some("recibo=0000-0000-0000")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("Ese código no está en el registro"), "{page}");
    let (status, page) = api.page(Method::GET, &format!("/papeletas?punto=item-1&buscar={code}"), None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains(hash.as_str()), "the list searched by the code: {page}");
}

#[tokio::test]
async fn a_ballot_sent_again_gets_its_receipt_only_with_its_badges_own_signature() {
    let api = Api::demo("ballot-again");
    api.check_in_a_quorum().await;
    api.install().await;
    api.ok(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    let credential = api.badge("NIT-800100200").await;
    let vote =
        HolderVote { holder: Id::new("NIT-800100200").unwrap(), choice: Choice::Whole(OptionIndex::list(0)) };
    let ballot = api.ballot(&credential, "item-1", vec![vote]);
    let first = api.ok(Method::POST, "/api/v1/ballots", "kiosk", Some(ballot.clone())).await;
    // The same bytes with a garbage signature: no receipt.
    let mut garbage = ballot.clone();
    garbage["signature"] = json!("01".repeat(64));
    let (status, value) = api.call(Method::POST, "/api/v1/ballots", "kiosk", Some(garbage)).await;
    assert_eq!(
        (status, &value["error"]["code"]),
        (StatusCode::UNPROCESSABLE_ENTITY, &json!("bad-signature")),
        "the stored receipt was given for a garbage signature: {value}"
    );
    // Signed well, but by a key that is not the badge's.
    let stranger = Credential::generate_from(&api.meeting, credential.id(), &[7; 32]);
    let bytes = asamblea_wire::hex::decode(ballot["event"].as_str().unwrap()).unwrap();
    let mut resigned = ballot.clone();
    resigned["signer"] = json!(hex(&stranger.public_key().to_bytes()));
    resigned["signature"] = json!(hex(&stranger.keypair().sign(&api.meeting, &bytes).unwrap().0));
    let (status, value) = api.call(Method::POST, "/api/v1/ballots", "kiosk", Some(resigned)).await;
    assert_eq!(
        (status, &value["error"]["code"]),
        (StatusCode::UNPROCESSABLE_ENTITY, &json!("bad-signature")),
        "{value}"
    );
    // With its own signature it gets its first receipt, as before.
    assert_eq!(api.ok(Method::POST, "/api/v1/ballots", "kiosk", Some(ballot)).await, first);
}

/// A kiosk that stops sending its ballot's body is cut off after the body
/// time-out, as every other route's caller is. On tokio's paused clock:
/// the time-out and the test's own bound are virtual, so nothing here
/// depends on the machine's speed.
#[tokio::test(start_paused = true)]
async fn a_kiosk_that_stops_sending_its_body_is_cut_off_after_the_body_time_out() {
    use futures_util::StreamExt as _;
    use tower::ServiceExt as _;
    let api = Api::demo("kiosk-body");
    let limits = asamblea_server::ServiceLimits {
        body_timeout: std::time::Duration::from_secs(2),
        ..asamblea_server::ServiceLimits::default()
    };
    let state = api.state.clone().with_service_limits(limits);
    let stalled = futures_util::stream::once(async {
        Ok::<_, std::io::Error>(axum::body::Bytes::from_static(b"{\"event\":\"0b02"))
    })
    .chain(futures_util::stream::pending());
    let mut request = axum::http::Request::builder()
        .method(Method::POST)
        .uri("/api/v1/ballots")
        .header("content-type", "application/json")
        .header("content-length", "400")
        .body(axum::body::Body::from_stream(stalled))
        .unwrap();
    request.extensions_mut().insert(asamblea_server::tls::ClientCert { kiosk_id: "quiosco-prueba".into() });
    let started = tokio::time::Instant::now();
    let answered = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        asamblea_server::router(state).oneshot(request),
    )
    .await;
    let response = answered.expect("the kiosk's stalled body still held the request after 60 s").unwrap();
    assert_eq!(response.status(), StatusCode::REQUEST_TIMEOUT);
    assert!(started.elapsed() >= std::time::Duration::from_secs(2), "not before the time-out");
    let bytes = http_body_util::BodyExt::collect(response.into_body()).await.unwrap().to_bytes();
    let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(value["error"]["code"], "body-timeout", "{value}");
}

#[tokio::test]
async fn the_kiosks_ballot_and_the_status_name_each_lists_candidates_in_order() {
    let api = Api::demo("candidates");
    api.check_in_a_quorum().await;
    api.install().await;
    api.ok(Method::POST, "/api/v1/items/item-4/open", "chair", None).await;
    let seed = BadgeSeed::draw(&api.meeting);
    let issued =
        api.ok(Method::POST, "/api/v1/badges", "operator", Some(seed.request("NIT-800100200"))).await;
    let credential = seed.credential(&issued);
    let sheet =
        api.ok(Method::GET, &format!("/api/v1/kiosk/badges/{}", credential.id().0), "kiosk", None).await;
    let options = &sheet["open_items"][0]["options"];
    assert_eq!(options[0]["es"], "Lista 1");
    assert_eq!(options[0]["candidates"][0], "Ana María Pérez Gómez (suplente: Luis Fernando Gómez Ríos)");
    assert_eq!(options[0]["candidates"].as_array().unwrap().len(), 5);
    assert_eq!(
        options[2]["candidates"],
        json!(["Beatriz Elena Londoño Cruz (suplente: Ricardo José Pineda Luna)"])
    );
    // The blank option names no one.
    assert_eq!(options[3].get("candidates"), None, "{options}");
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    let board = &status["items"][3];
    assert_eq!(board["candidates"][1]["list"], "Lista 2");
    assert_eq!(board["candidates"][1]["candidates"][2]["suplente"], "Claudia Patricia Niño Rey");
    // The whole agenda ends with the informative item, in its place.
    let agenda = status["agenda"].as_array().unwrap();
    assert_eq!(agenda.len(), status["items"].as_array().unwrap().len() + 1);
    assert_eq!(
        (agenda.last().unwrap()["id"].as_str(), agenda.last().unwrap()["informative"].as_bool()),
        (Some("varios"), Some(true))
    );
}
