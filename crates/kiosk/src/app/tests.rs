//! Tests of the kiosk program: the page's headers, the check of the choices, the receipt's short code.

use super::*;

#[tokio::test]
async fn every_answer_of_the_touch_page_forbids_framing_and_foreign_script() {
    use tower::ServiceExt as _;
    let router = Router::new()
        .route("/", get(page))
        .route("/kiosco.js", get(script))
        .layer(axum::middleware::from_fn(secure_headers));
    for path in ["/", "/kiosco.js", "/no-such-page"] {
        let request = axum::http::Request::builder().uri(path).body(axum::body::Body::empty()).unwrap();
        let response = router.clone().oneshot(request).await.unwrap();
        let header = |name| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
        assert_eq!(header(header::X_FRAME_OPTIONS), "DENY", "{path}");
        let policy = header(header::CONTENT_SECURITY_POLICY);
        for directive in ["frame-ancestors 'none'", "default-src 'none'", "script-src 'self'"] {
            assert!(policy.contains(directive), "{path}: {policy}");
        }
        assert!(!policy.contains("unsafe"), "{policy}");
    }
    // The page itself needs no more: no inline script or style.
    assert!(!PAGE.contains("<style") && !PAGE.contains("style=") && !PAGE.contains("<script>"));
}

fn sheet() -> BallotSheet {
    use asamblea_api::kiosk::{SheetOption, SheetVoter};
    let options = ["A favor", "En contra", "En blanco"]
        .iter()
        .zip(0..)
        .map(|(es, index)| SheetOption {
            index,
            es: es.to_string(),
            en: es.to_string(),
            candidates: Vec::new(),
        })
        .collect::<Vec<_>>();
    let voter = |holder: &str, name: &str, may_vote| SheetVoter {
        holder: holder.into(),
        name: name.into(),
        shares: 1,
        may_vote,
        reason: None,
        reason_es: None,
        reason_en: None,
    };
    let item = |id: &str, title: &str, b_votes| SheetItem {
        id: id.into(),
        title: title.into(),
        matter: "ordinary".into(),
        matter_es: String::new(),
        matter_en: String::new(),
        options: options.clone(),
        holders: vec![voter("A", "Ana", true), voter("B", "Beto", b_votes)],
        close_in_ms: None,
    };
    BallotSheet {
        credential: 1,
        person: "A".into(),
        name: "Ana".into(),
        holders: Vec::new(),
        open_items: vec![item("i1", "Uno", false), item("i2", "Dos", true)],
    }
}

fn pick(item: &str, holder: &str, choice: Option<u16>) -> Pick {
    Pick { item: item.into(), holder: holder.into(), choice }
}

#[test]
fn every_holder_who_may_vote_needs_a_choice_and_no_other_is_taken() {
    let full = [pick("i1", "A", Some(0)), pick("i2", "A", Some(1)), pick("i2", "B", None)];
    assert_eq!(check_picks(&sheet(), &full), Ok(()));
    assert!(check_picks(&sheet(), &full[..2]).unwrap_err().es.contains("Falta elegir"));
    // B may not vote on i1; an option past the ballot's; an item not open.
    for wrong in [pick("i1", "B", Some(0)), pick("i1", "A", Some(3)), pick("i9", "A", Some(0))] {
        let mut picks = full.to_vec();
        picks[0] = wrong;
        assert!(check_picks(&sheet(), &picks).unwrap_err().es.contains("no corresponde"));
    }
}

#[test]
fn the_short_code_is_the_hashs_first_twelve_digits() {
    assert_eq!(short_code("ab12cd34ef567890"), "AB12-CD34-EF56");
}
