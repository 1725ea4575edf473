//! A meeting convened as mixed (Ley 222 art. 19, Decreto 398 de 2020),
//! through the real binary: `init` refuses a remote channel left
//! unstated, the ledger records the modality, and the acta (DOCX and
//! PDF) and `verify --json` give the modality, the quorum's continuity
//! derived from the presence events, and the deadline to enter the acta
//! in the book.

use std::path::Path;
use std::process::Command;

use crate::support::{asamblea, asamblea_ok, SESSIONS_MEETING, SESSIONS_REGISTER};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

const REMOTE: &str = "\n[remote]\nmedium = \"Plataforma Reuniones Andinas, https://asamblea.example.co\"\naccess = \"El enlace y la clave llegan al correo registrado el día anterior\"\nidentity_check = \"Cada asistente muestra su cédula ante la cámara al ingresar\"\nfloor = \"Se pide la palabra en el chat y la presidencia la concede en orden\"\nidentity_delegated = true\n";

/// The sessions' meeting convened as `mixta`, with `remote` as its
/// `[remote]` table.
fn mixed(remote: &str) -> String {
    SESSIONS_MEETING
        .replace("profile = \"legal-default\"\n", "profile = \"legal-default\"\nmodality = \"mixta\"\n")
        + remote
}

#[test]
fn init_refuses_a_mixed_meeting_whose_notice_leaves_a_remote_key_unstated() {
    let dir = std::env::temp_dir().join(format!("asamblea-mixed-refused-{}", std::process::id()));
    crate::support::remove_meeting(&dir);
    let (meeting, register) = (dir.with_extension("toml"), dir.with_extension("csv"));
    std::fs::write(&register, SESSIONS_REGISTER).unwrap();
    for key in ["medium", "access", "identity_check", "floor", "identity_delegated"] {
        let without: String =
            REMOTE.lines().filter(|l| !l.starts_with(&format!("{key} "))).map(|l| format!("{l}\n")).collect();
        let text = mixed(&without);
        std::fs::write(&meeting, &text).unwrap();
        let out = asamblea(&["init", s(&dir), "--meeting", s(&meeting), "--register", s(&register)]);
        assert_eq!(out.status.code(), Some(2), "{key}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let line = text.lines().position(|l| l == "[remote]").unwrap() + 1;
        assert!(
            stderr.contains(&format!("línea / line {line}, clave / key `remote.{key}`: falta")),
            "{key}: {stderr}"
        );
        assert!(!dir.exists(), "nothing is created");
    }
    let _ = (std::fs::remove_file(meeting), std::fs::remove_file(register));
}

/// A mixed meeting whose quorum is lost during its poll and comes back:
/// the acta and the verifier say when, and how low it went.
#[test]
fn a_mixed_meetings_acta_gives_its_channel_the_quorums_lapse_and_the_books_deadline() {
    use asamblea_rules::SessionStep;
    use asamblea_wire::{EventBody, Id};
    let dir = std::env::temp_dir().join(format!("asamblea-mixed-{}", std::process::id()));
    crate::support::remove_meeting(&dir);
    let (meeting, register) = (dir.with_extension("toml"), dir.with_extension("csv"));
    std::fs::write(&meeting, mixed(REMOTE)).unwrap();
    std::fs::write(&register, SESSIONS_REGISTER).unwrap();
    asamblea_ok(&["init", s(&dir), "--meeting", s(&meeting), "--register", s(&register)]);
    let mut service = asamblea_venue::service::Service::open(&dir).expect("open");
    // 1.000 shares: more than half is 501. A-1 (600) and C-3 (100) open.
    for holder in ["A-1", "C-3"] {
        service.check_in(holder).expect("checked in");
    }
    service.session_step(SessionStep::Installed, "").expect("installed");
    service.open_item("junta").expect("opened");
    let left = service.staff_event(EventBody::CheckedOut { person: Id::new("A-1").unwrap() }).expect("left");
    service.check_in("B-2").expect("B-2"); // 400: still short
    let back = service.check_in("A-1").expect("back"); // 1.000
    service.close_item("junta").expect("closed");
    service.session_step(SessionStep::Adjourned, "").expect("adjourned");
    drop(service.close());
    let bundle = dir.with_extension("bundle");
    asamblea_ok(&["export", s(&dir), s(&bundle)]);

    let said = String::from_utf8(asamblea_ok(&["verify", s(&bundle)]).stdout).unwrap();
    assert!(said.contains("Modalidad / modality: mixta (presencial y no presencial)"), "{said}");
    assert!(said.contains("NO se mantuvo / NOT held — 1 intervalo sin quórum / interval without quorum; 1 votación lo perdió / poll lost it"), "{said}");
    let verified: serde_json::Value =
        serde_json::from_slice(&asamblea_ok(&["verify", s(&bundle), "--json"]).stdout).unwrap();
    let modality = &verified["modality"];
    assert_eq!(modality["modality"], "mixta", "{modality}");
    assert_eq!(modality["recorded"], true);
    assert_eq!(modality["identity_delegated"], true);
    assert_eq!(modality["heartbeat_seconds"], 60);
    assert_eq!(modality["presence_timeout_seconds"], 300);
    assert_eq!(modality["medium"], "Plataforma Reuniones Andinas, https://asamblea.example.co");
    let continuity = &verified["continuity"];
    assert_eq!(continuity["held_throughout"], false, "{continuity}");
    assert_eq!(continuity["installation"]["reading"]["present"], 700);
    let gaps = continuity["without_quorum"].as_array().unwrap();
    assert_eq!(gaps.len(), 1, "{continuity}");
    assert_eq!(gaps[0]["from"]["seq"], left.seq, "{continuity}");
    assert_eq!(gaps[0]["to"]["seq"], back.seq, "{continuity}");
    assert_eq!(gaps[0]["lowest"]["present"], 100);
    let poll = &continuity["polls"][0];
    assert_eq!((poll["item"].as_str(), poll["lost"].as_bool()), (Some("junta"), Some(true)), "{poll}");
    assert_eq!(poll["lowest"]["present"], 100);
    assert_eq!(poll["lowest_at"]["seq"], left.seq);

    let acta = dir.with_extension("docx");
    asamblea_ok(&["acta", s(&bundle), "-o", s(&acta)]);
    let text = crate::exports::docx_text(&acta);
    for expected in [
        "Modalidad: reunión mixta (presencial y no presencial), conforme al artículo 19 de la Ley 222 de 1995 y al Decreto 398 de 2020.",
        "Medio: Plataforma Reuniones Andinas, https://asamblea.example.co.",
        "Instrucciones de acceso: El enlace y la clave llegan al correo registrado el día anterior.",
        "Verificación de identidad: Cada asistente muestra su cédula ante la cámara al ingresar.",
        "El representante legal delegó la verificación de identidad de los asistentes a distancia en el personal de registro",
        "Uso de la palabra: Se pide la palabra en el chat y la presidencia la concede en orden.",
        "el quórum NO se mantuvo durante toda la reunión",
        "con un mínimo de 100 acciones con voto de 1 accionista, el 10,00 %.",
        "Quórum todo el tiempo",
        // Tuesday 15 June 2027: 5 July (St Peter and St Paul, moved) and
        // 20 July are holidays inside the thirty business days.
        "esta acta debe asentarse en el libro de actas a más tardar el jueves 29 de julio de 2027",
    ] {
        assert!(text.contains(expected), "the acta lacks «{expected}»: {text}");
    }
    // The interval is told by its records too: both may fall in one minute.
    let interval = format!("(registro n.º {}) hasta las ", left.seq);
    assert!(
        text.contains(&interval) && text.contains(&format!("(registro n.º {}), con un mínimo", back.seq)),
        "{text}"
    );
    // Its section 1 says the modality, before the quorum's section.
    assert!(text.find("Modalidad: reunión mixta").unwrap() < text.find("3. Quórum").unwrap());
    assert!(text.find("Continuidad del quórum").unwrap() > text.find("3. Quórum").unwrap());
    if crate::exports::poppler() {
        let pdf = dir.with_extension("pdf");
        asamblea_ok(&["acta", s(&bundle), "-o", s(&pdf)]);
        let out = Command::new("pdftotext").arg(&pdf).arg("-").output().unwrap();
        let words = String::from_utf8_lossy(&out.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
        for expected in
            ["Modalidad: reunión mixta", "Uso de la palabra:", "29 de julio de 2027", "NO se mantuvo"]
        {
            assert!(words.contains(expected), "the PDF lacks «{expected}»: {words}");
        }
    }
    let _ = (std::fs::remove_file(meeting), std::fs::remove_file(register), std::fs::remove_file(bundle));
    crate::support::remove_meeting(&dir);
}

/// HY-3 in the acta: the same three holders casting the same votes, each
/// in the room or from afar in all 8 ways, give the same acta but for
/// each stay's channel, the count of identities verified, and the record
/// numbers, hours and digests (a remote arrival takes one record more).
#[test]
fn the_channel_changes_nothing_in_the_acta_but_the_channel() {
    use asamblea_rules::{OptionIndex, SessionStep};
    use asamblea_wire::{
        Choice, Credential, CredentialId, Digest, EventBody, HolderVote, Id, VerificationMethod,
    };
    let holders = [("A-1", 0), ("B-2", 1), ("C-3", 0)];
    let mut first: Option<String> = None;
    for remote in 0..(1u32 << holders.len()) {
        let dir = std::env::temp_dir().join(format!("asamblea-one-path-{remote}-{}", std::process::id()));
        crate::support::remove_meeting(&dir);
        let (meeting, register) = (dir.with_extension("toml"), dir.with_extension("csv"));
        std::fs::write(&meeting, mixed(REMOTE)).unwrap();
        std::fs::write(&register, SESSIONS_REGISTER).unwrap();
        asamblea_ok(&["init", s(&dir), "--meeting", s(&meeting), "--register", s(&register)]);
        let mut service = asamblea_venue::service::Service::open(&dir).expect("open");
        let meeting_id = service.meeting_id();
        let mut credentials = Vec::new();
        for (i, (holder, _)) in holders.iter().enumerate() {
            let seed = [0x40 + u8::try_from(i).unwrap(); 32];
            let number = CredentialId(service.state().badges_issued() + 1);
            let credential = Credential::generate_from(&meeting_id, number, &seed);
            let person = Id::new(holder).unwrap();
            if remote & (1 << i) != 0 {
                let key = credential.public_key();
                let method = VerificationMethod::VideoCall;
                let evidence = Digest([0xE0; 32]);
                service
                    .staff_event(EventBody::IdentityVerified {
                        person: person.clone(),
                        key,
                        method,
                        evidence,
                    })
                    .unwrap();
                service
                    .staff_event(EventBody::RemoteCredentialIssued {
                        credential: number,
                        key,
                        person: person.clone(),
                    })
                    .unwrap();
                let event = asamblea_wire::Event {
                    nonce: asamblea_wire::Nonce([0x70 + u8::try_from(i).unwrap(); 16]),
                    body: EventBody::CheckedInRemote { credential: number, principals: vec![person] },
                };
                let bytes = event.encode().unwrap();
                let signature = credential.keypair().sign(&meeting_id, &bytes).unwrap();
                let signer = credential.public_key();
                service.remote_event(asamblea_ledger::Signed { event, bytes, signer, signature }).unwrap();
            } else {
                service.check_in(holder).unwrap();
                let (issued, _) = service.issue_badge(holder, credential.public_key()).unwrap();
                assert_eq!(issued, number);
            }
            credentials.push(credential);
        }
        service.session_step(SessionStep::Installed, "").unwrap();
        service.open_item("junta").unwrap();
        for (i, (holder, list)) in holders.iter().enumerate() {
            let vote = HolderVote {
                holder: Id::new(holder).unwrap(),
                choice: Choice::Whole(OptionIndex::list(*list)),
            };
            service.cast(&credentials[i], "junta", vec![vote]).unwrap();
        }
        service.close_item("junta").unwrap();
        service.session_step(SessionStep::Adjourned, "").unwrap();
        drop(service.close());
        let (bundle, acta) = (dir.with_extension("bundle"), dir.with_extension("docx"));
        asamblea_ok(&["export", s(&dir), s(&bundle)]);
        asamblea_ok(&["acta", s(&bundle), "-o", s(&acta)]);
        let text = crate::exports::docx_text(&acta);
        let channels = text.matches("(a distancia);").count() + text.matches("cierre (a distancia)").count();
        assert_eq!(channels, remote.count_ones() as usize, "each remote stay is marked: {remote:03b}");
        let same = without_channel(&text);
        match &first {
            None => first = Some(same),
            Some(all_in_the_room) if *all_in_the_room != same => {
                let (a, b): (Vec<&str>, Vec<&str>) =
                    (all_in_the_room.split(' ').collect(), same.split(' ').collect());
                let at = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
                let from = at.saturating_sub(12);
                panic!(
                    "channels {remote:03b}: the acta differs beyond the channel at word {at}:\n  all in the room: {}\n  this way:        {}",
                    a[from..(at + 12).min(a.len())].join(" "),
                    b[from..(at + 12).min(b.len())].join(" ")
                );
            }
            Some(_) => {}
        }
        let _ = (std::fs::remove_file(meeting), std::fs::remove_file(register));
        let _ = (std::fs::remove_file(bundle), std::fs::remove_file(acta));
        crate::support::remove_meeting(&dir);
    }
}

/// The acta's words without what the channel changes by its nature: the
/// «(a distancia)» marks, the sentence counting identities verified, and
/// record numbers, hours and digests; every figure of shares and votes
/// stays.
fn without_channel(text: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    for w in text.replace(" (a distancia)", "").split(' ') {
        let bare = w.trim_end_matches(|c: char| ",.);:".contains(c)).trim_start_matches('(');
        // `10:42`, or `10:42:05` to the second.
        let hour = (bare.len() == 5 || bare.len() == 8)
            && bare.split(':').all(|part| part.len() == 2 && part.chars().all(|c| c.is_ascii_digit()));
        // A digest, alone or after its record's number (`25:fb8e…`).
        let digest = bare.rsplit(':').next().unwrap_or(bare);
        let hex = digest.len() >= 64 && digest.chars().all(|c| c.is_ascii_hexdigit());
        // A record's number: after «n.º», or in a table right after an hour.
        let after = words.last().map(String::as_str);
        let record = !bare.is_empty()
            && bare.chars().all(|c| c.is_ascii_digit() || c == '.')
            && matches!(after, Some("n.º" | "(n.º" | "HH:MM"));
        words.push(if hour {
            "HH:MM".to_string()
        } else if hex {
            "HEX".to_string()
        } else if record {
            "N".to_string()
        } else {
            w.to_string()
        });
    }
    let joined = words.join(" ");
    // The one sentence that counts the identities verified.
    let start =
        joined.find("Se verificó la identidad de").or_else(|| joined.find("No se verificó la identidad"));
    match start {
        Some(at) => {
            let end = joined[at..].find(". ").map_or(joined.len(), |e| at + e + 2);
            format!("{}{}", &joined[..at], &joined[end..])
        }
        None => joined,
    }
}
