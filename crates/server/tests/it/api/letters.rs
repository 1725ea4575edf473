//! Admission letters: the desk's download (its callers, one person's
//! letter, a person with none), and the register's search finding a
//! holder by the code on their letter or by the bare number of their ID
//! card.

use asamblea_venue::staff::Role;
use asamblea_wire::admission_code;
use axum::http::{Method, StatusCode};

use super::fixture::Api;

/// The ids the desk's search answers `query` with.
async fn found(api: &Api, query: &str) -> Vec<String> {
    api.holders(query).await.holders.into_iter().map(|h| h.id).collect()
}

#[tokio::test]
async fn the_desk_finds_a_holder_by_the_code_on_their_letter_however_it_is_read() {
    let api = Api::demo("letters-search");
    let code = admission_code(&api.meeting, "CC-10000000").to_string();
    let sloppy = code.to_lowercase().replace('-', "%20");
    let compact = code.replace('-', "");
    for typed in [code.as_str(), &sloppy, &compact] {
        assert_eq!(found(&api, typed).await, ["CC-10000000"], "{typed}");
    }
    // The code of the same person in another meeting finds nobody.
    let other = admission_code(&asamblea_wire::MeetingId([1; 32]), "CC-10000000").to_string();
    assert!(found(&api, &other).await.is_empty(), "{other}");
    // The bare number of the ID card, whole, finds its holder too.
    assert!(found(&api, "10000000").await.contains(&"CC-10000000".to_string()));
    assert_eq!(found(&api, "NIT-800100200").await, ["NIT-800100200"]);
    assert_eq!(found(&api, "800100200").await, ["NIT-800100200"]);
}

#[tokio::test]
async fn the_desk_downloads_one_persons_letter_or_everyones_and_nobody_else_may() {
    let api = Api::demo("letters-pdf");
    let (status, pdf) = api.bytes_as("/api/v1/letters.pdf?person=CC-10000000", Role::Operator).await;
    assert_eq!(status, StatusCode::OK);
    assert!(pdf.starts_with(b"%PDF-"), "a PDF");
    assert_eq!(
        api.saved_as("/api/v1/letters.pdf?person=CC-10000000", Role::Operator).await.as_deref(),
        Some("carta-de-admision.pdf")
    );
    // Everyone's, a hundred at a time: the name says which and of how
    // many, and past the last there is nothing.
    let holders = api.holders("").await.matched;
    assert!(holders > 200, "the demo's register: {holders}");
    let (status, first) = api.bytes_as("/api/v1/letters.pdf", Role::Operator).await;
    assert_eq!(status, StatusCode::OK);
    assert!(first.len() > pdf.len() * 10, "a hundred letters: {} bytes, one: {}", first.len(), pdf.len());
    assert_eq!(
        api.saved_as("/api/v1/letters.pdf", Role::Operator).await,
        Some(format!("cartas-de-admision-1-100-de-{holders}.pdf"))
    );
    let last = (holders - 1) / 100 * 100;
    assert_eq!(
        api.saved_as(&format!("/api/v1/letters.pdf?from={last}"), Role::Operator).await,
        Some(format!("cartas-de-admision-{}-{holders}-de-{holders}.pdf", last + 1))
    );
    let (status, answer) =
        api.call(Method::GET, &format!("/api/v1/letters.pdf?from={holders}"), "operator", None).await;
    assert_eq!(
        (status, answer["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not-found")),
        "{answer}"
    );
    let (status, answer) =
        api.call(Method::GET, "/api/v1/letters.pdf?from=1&person=CC-10000000", "operator", None).await;
    assert_eq!((status, answer["error"]["code"].as_str()), (StatusCode::BAD_REQUEST, Some("bad-request")));
    // A person with no letter, and a query it does not take.
    let (status, answer) =
        api.call(Method::GET, "/api/v1/letters.pdf?person=CC-NADIE", "operator", None).await;
    assert_eq!(
        (status, answer["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not-found")),
        "{answer}"
    );
    let (status, answer) = api.call(Method::GET, "/api/v1/letters.pdf?q=1", "operator", None).await;
    assert_eq!((status, answer["error"]["code"].as_str()), (StatusCode::BAD_REQUEST, Some("bad-request")));
    // Only the desk: the public and a kiosk are not let in, other staff
    // are refused.
    for (caller, code) in [
        ("public", "unauthorized"),
        ("kiosk", "unauthorized"),
        ("chair", "forbidden"),
        ("secretary", "forbidden"),
        ("auditor", "forbidden"),
    ] {
        let (status, answer) =
            api.call(Method::GET, "/api/v1/letters.pdf?person=CC-10000000", caller, None).await;
        assert_eq!(answer["error"]["code"].as_str(), Some(code), "{caller}: {status} {answer}");
    }
}
