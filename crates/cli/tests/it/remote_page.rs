//! The remote attendee's page (`/remoto`, the server's `remote.js`) in a
//! real browser: its encoder and WebCrypto signatures against the vectors
//! of `docs/ledger-format.md` §10.13–10.14 and against the Rust encoder for
//! other choices (the browser's ballot bytes are the ledger's); and a
//! remote holder at phone size who registers, is verified at the desk's
//! panel, joins, votes on two items, loses the network (the presence
//! lapses, the quorum drops), comes back, votes, sends a written statement
//! the chair answers, and checks the receipt.

use std::time::{Duration, Instant};

use asamblea_rules::{OptionIndex, Shares};
use asamblea_wire::{
    Ballot, Choice, CredentialId, Event, EventBody, HolderVote, Id, Keypair, MeetingId, Nonce, SplitPart,
};
use serde_json::Value;

use crate::consoles::Demo;
use crate::webdriver::{self, Browser};

/// The hex of the block named `name` in the section headed `section`
/// (§10.13 or §10.14), white space removed.
fn documented(section: &str, name: &str) -> String {
    let doc = std::fs::read_to_string(crate::workspace_root().join("docs/ledger-format.md"))
        .expect("docs/ledger-format.md");
    let section = doc.split(&format!("### {section}")).nth(1).unwrap_or_else(|| panic!("{section}"));
    let block =
        section.split(&format!("`{name}`:")).nth(1).unwrap_or_else(|| panic!("{section} has `{name}`"));
    let text = block.split("```text").nth(1).and_then(|b| b.split("```").next()).expect("a text block");
    text.split_whitespace().collect()
}

/// PKCS#8 (RFC 8410) of an Ed25519 seed, as WebCrypto imports it.
fn pkcs8(seed: &[u8; 32]) -> String {
    let prefix =
        [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];
    asamblea_wire::hex::encode(&[&prefix[..], seed].concat())
}

/// Runs `body` (an async function body using `R`, the page's encoder,
/// `key`, the imported private key, and `meeting`) in the page; its
/// answer.
fn in_page(browser: &Browser, seed: &[u8; 32], meeting: &MeetingId, body: &str) -> Value {
    let script = format!(
        "const done = arguments[arguments.length - 1];
         (async () => {{
           const R = window.asambleaRemote;
           const key = await crypto.subtle.importKey('pkcs8', R.bytesOf('{}'), {{ name: 'Ed25519' }}, false, ['sign']);
           const meeting = R.bytesOf('{}');
           {body}
         }})().then(done, (e) => done({{ error: String(e) }}));",
        pkcs8(seed),
        asamblea_wire::hex::encode(&meeting.0)
    );
    let answer = browser.eval_async(&script);
    assert!(answer.get("error").is_none(), "the page's script failed: {answer}");
    answer
}

fn page_ready(browser: &Browser) {
    let started = Instant::now();
    while browser.eval("return typeof window.asambleaRemote;") != "object" {
        assert!(started.elapsed() < Duration::from_secs(10), "remote.js did not load on /remoto");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_phones_encoder_and_signatures_are_the_documents_and_the_rust_encoders() {
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("remote_page::the_phones_encoder_and_signatures", why);
        return;
    }
    let demo = Demo::serve("remote-vectors", crate::support::MERGER_MEETING, crate::support::MERGER_REGISTER);
    let browser = Browser::start();
    browser.size(390, 844);
    browser.goto(&format!("{}/remoto", demo.base));
    page_ready(&browser);

    // §10.13: meeting 00 01 … 1f, the browser's seed 32 × 0x55.
    let vector_meeting = MeetingId(std::array::from_fn(|i| i as u8));
    let got = in_page(
        &browser,
        &[0x55; 32],
        &vector_meeting,
        "const nonce = (b) => new Uint8Array(16).fill(b);
         const pub = R.bytesOf('c6822637c7d310ec57627be00ba259d253749f4aaf644470cffbe53a35f73242');
         const ballot = R.encodeBallot(nonce(0xc4), 'item-2', 7, [
           { holder: 'H3', split: [{ option: 2, shares: 500 }, { option: 0, shares: 1000 }] },
           { holder: 'CC-1032456789', option: 1 }]);
         const registration = R.encodeRegistration(pub, 'CC-1032456789', 'María Gómez');
         return {
           ballot: R.hexOf(ballot),
           input: R.hexOf(R.signingInput(meeting, ballot)),
           signature: R.hexOf(await R.signWith(key, meeting, ballot)),
           registration: R.hexOf(registration),
           proof: R.hexOf(await R.signWith(key, meeting, registration)),
           arrival: R.hexOf(R.encodeArrival(nonce(0xc3), 7, ['H3', 'CC-1032456789'])),
           departure: R.hexOf(R.encodeDeparture(nonce(0xc5), 7)),
           fingerprint: await R.fingerprint(pub),
           heartbeat: R.hexOf(R.encodeHeartbeat(pub, 1764856800000)),
           beat: R.hexOf(await R.signWith(key, meeting, R.encodeHeartbeat(pub, 1764856800000))),
           submission: R.hexOf(R.encodeSubmission(nonce(0xd2), 7, 1, 'item-2', '¿Cuándo se pagan los dividendos?')),
           asked: R.hexOf(await R.signWith(key, meeting,
             R.encodeSubmission(nonce(0xd2), 7, 1, 'item-2', '¿Cuándo se pagan los dividendos?'))),
           general: R.hexOf(R.encodeSubmission(nonce(0xd4), 8, 2, '', 'Constancia.')),
         };",
    );
    for (field, name) in [
        ("ballot", "ballot"),
        ("input", "signing input of the ballot"),
        ("signature", "signature of the ballot"),
        ("registration", "remote-registration"),
        ("proof", "proof of the registration"),
        ("arrival", "checked-in-remote"),
        ("departure", "checked-out-remote"),
    ] {
        assert_eq!(
            got[field].as_str().unwrap(),
            documented("10.13", name),
            "the page's `{name}` is §10.13's"
        );
    }
    for (field, name) in [
        ("heartbeat", "remote-heartbeat"),
        ("beat", "signature of the heartbeat"),
        ("submission", "remote-submission"),
        ("asked", "signature of the submission"),
    ] {
        assert_eq!(
            got[field].as_str().unwrap(),
            documented("10.14", name),
            "the page's `{name}` is §10.14's"
        );
    }
    // A statement about the meeting as a whole (no item), as Rust writes it.
    let general = Event {
        nonce: Nonce([0xd4; 16]),
        body: EventBody::RemoteSubmission {
            credential: CredentialId(8),
            kind: asamblea_wire::SubmissionKind::Statement,
            item: None,
            text: asamblea_wire::Prose::new("Constancia.").unwrap(),
        },
    };
    assert_eq!(got["general"].as_str().unwrap(), asamblea_wire::hex::encode(&general.encode().unwrap()));
    assert_eq!(
        got["fingerprint"],
        asamblea_wire::key_fingerprint(&Keypair::from_seed(&[0x55; 32]).public_key())
    );

    // Other choices than the one vector, against the Rust encoder: the
    // extremes of every number, ids in UTF-8 byte order where JavaScript's
    // own order differs (U+FF5E before U+1F600 in UTF-8, after in UTF-16),
    // an item and holders with accents.
    let seed: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(29).wrapping_add(3));
    let meeting = demo.meeting();
    let whole = |holder: &str, option: u16| HolderVote {
        holder: Id::new(holder).unwrap(),
        choice: Choice::Whole(option_index(option)),
    };
    let cases: Vec<(u32, &str, Vec<HolderVote>, String)> = vec![
        (u32::MAX, "punto-ñ", vec![whole("\u{ff5e}-1", 0), whole("\u{1f600}-2", 2)],
         "[{ holder: '\\u{1f600}-2', option: 2 }, { holder: '\\u{ff5e}-1', option: 0 }]".into()),
        (1, "item-1", vec![whole("CC-Ñúñez", 65_535)], "[{ holder: 'CC-Ñúñez', option: 65535 }]".into()),
        (0x0102_0304, "elección", vec![HolderVote {
            holder: Id::new("NIT-9").unwrap(),
            choice: Choice::Split(vec![
                SplitPart { option: option_index(0), shares: Shares::new(1) },
                SplitPart { option: option_index(3), shares: Shares::new(u64::MAX) },
            ]),
        }], "[{ holder: 'NIT-9', split: [{ option: 3, shares: '18446744073709551615' }, { option: 0, shares: 1 }] }]".into()),
    ];
    for (i, (credential, item, votes, js_votes)) in cases.into_iter().enumerate() {
        let nonce = [0x10 + i as u8; 16];
        let event = Event {
            nonce: Nonce(nonce),
            body: EventBody::Ballot(Ballot {
                item: Id::new(item).unwrap(),
                credential: CredentialId(credential),
                votes,
            }),
        };
        let bytes = event.encode().expect("encodes");
        let signature = Keypair::from_seed(&seed).sign(&meeting, &bytes).expect("signs");
        let got = in_page(
            &browser,
            &seed,
            &meeting,
            &format!(
                "const ballot = R.encodeBallot(R.bytesOf('{}'), '{item}', {credential}, {js_votes});
                 return {{ ballot: R.hexOf(ballot), signature: R.hexOf(await R.signWith(key, meeting, ballot)) }};",
                asamblea_wire::hex::encode(&nonce)
            ),
        );
        assert_eq!(
            got["ballot"].as_str().unwrap(),
            asamblea_wire::hex::encode(&bytes),
            "case {i}: the bytes"
        );
        assert_eq!(
            got["signature"].as_str().unwrap(),
            asamblea_wire::hex::encode(&signature.0),
            "case {i}: the signature"
        );
    }
}

fn option_index(option: u16) -> OptionIndex {
    OptionIndex::list(usize::from(option))
}

/// `method path` on the daemon over HTTPS as `role` (or the public): the
/// status and the JSON.
fn api(demo: &Demo, method: &str, path: &str, role: Option<&str>) -> (u16, Value) {
    send(demo, method, path, role, serde_json::json!({}))
}

/// [`api`] with `body` for a POST.
fn send(demo: &Demo, method: &str, path: &str, role: Option<&str>, body: Value) -> (u16, Value) {
    let addr: std::net::SocketAddr = demo.base.trim_start_matches("https://").parse().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        use asamblea_kiosk::{staff_tls, HttpsClient};
        let mut client = HttpsClient::connect(addr, staff_tls(&demo.dir).unwrap()).await.unwrap();
        let token = role.map(|r| demo.tokens[r].as_str());
        let (status, answer) = match (method, token) {
            ("POST", token) => client.post_json(path, &body, token).await.unwrap(),
            (_, Some(token)) => client.get_json_as(path, token).await.unwrap(),
            (_, None) => client.get_json(path).await.unwrap(),
        };
        (status.as_u16(), answer)
    })
}

#[test]
fn a_remote_holder_at_phone_size_registers_is_verified_at_the_desk_joins_votes_twice_and_checks_a_receipt() {
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("remote_page::a_remote_holder_at_phone_size", why);
        return;
    }
    let demo = Demo::start("remote-phone");
    let shots = crate::consoles::screenshots();
    // An absent holder of ordinary shares, neither administrator nor
    // employee (so both items are theirs to vote), attending from home.
    let (_, found) = api(&demo, "GET", "/api/v1/holders?q=cc-1", Some("operator"));
    let holder = found["holders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["present"] == false && h["role"].is_null() && h["shares"]["ORD"].as_u64() > Some(0))
        .expect("an absent holder")
        .clone();
    let (id, name) =
        (holder["id"].as_str().unwrap().to_string(), holder["name"].as_str().unwrap().to_string());

    let browser = Browser::start();
    browser.size(390, 844);
    browser.goto(&format!("{}/remoto", demo.base));
    browser.wait_for_text("Inscribirse para asistir a distancia", Duration::from_secs(10));
    browser.screenshot(&shots.join("remoto-inscripcion-390x844.png"));
    browser.assert_accessible("remoto-inscripcion-390x844");
    browser.type_into("#documento", &id);
    browser.type_into("#nombre", &name);
    browser.click("#form-inscripcion button[type=submit]");
    browser.wait_for_text("Esperando la verificación de la mesa", Duration::from_secs(10));
    let fingerprint = browser.eval("return document.querySelector('#paso-espera .huella').textContent;");
    let fingerprint = fingerprint.as_str().unwrap().to_string();
    assert_eq!(fingerprint.len(), 19, "four groups of four: {fingerprint}");
    browser.screenshot(&shots.join("remoto-espera-390x844.png"));
    browser.assert_accessible("remoto-espera-390x844");
    // The key is not extractable: the page itself cannot read it out.
    let exported = browser.eval_async(
        "const done = arguments[arguments.length - 1];
         const open = indexedDB.open('asamblea-remoto', 1);
         open.onsuccess = () => {
           const get = open.result.transaction('claves').objectStore('claves').getAll();
           get.onsuccess = () => crypto.subtle.exportKey('pkcs8', get.result[0].privateKey)
             .then(() => done('exported'), (e) => done(e.name));
         };",
    );
    assert_eq!(exported, "InvalidAccessError", "WebCrypto refuses to export the private key");

    // The desk, in another window: the panel shows the same fingerprint.
    let phone = browser.window();
    browser.new_window();
    browser.size(1280, 720);
    crate::consoles::sign_in(&browser, &demo, "operator", "Registro de asistentes");
    browser.wait_for_text("Verificación de asistentes remotos", Duration::from_secs(10));
    browser.wait_for_text(&fingerprint, Duration::from_secs(15));
    browser.type_into("#referencia-0", "Videollamada de las 10:02, cédula vista");
    browser.eval("document.getElementById('remote-title').scrollIntoView();");
    browser.screenshot(&shots.join("registro-remotos-1280x720.png"));
    browser.assert_accessible("registro-remotos-1280x720");
    // The same card on a phone-sized window, as a desk on a tablet sees it.
    browser.size(390, 844);
    browser.eval("document.getElementById('remote-title').scrollIntoView();");
    browser.screenshot(&shots.join("registro-remotos-390x844.png"));
    browser.assert_accessible("registro-remotos-390x844");
    browser.size(1280, 720);
    browser.click("#remote-pendientes button[type=submit]");
    browser.wait_for_text("quedó habilitado con la credencial remota", Duration::from_secs(10));
    let desk = browser.window();

    // The phone moves on by itself, and joins.
    browser.switch_to(&phone);
    browser.wait_for_text("Su identidad fue verificada", Duration::from_secs(15));
    browser.assert_accessible("remoto-unirse-390x844");
    browser.click("#unirse");
    browser.wait_for_text("En la reunión, a distancia", Duration::from_secs(10));
    browser.wait_for_text("No hay votaciones abiertas ahora", Duration::from_secs(10));
    // The chair opens two items; the phone shows both.
    for item in ["item-1", "item-2"] {
        let (status, answer) = api(&demo, "POST", &format!("/api/v1/items/{item}/open"), Some("chair"));
        assert!((200..300).contains(&status), "{item}: {status} {answer}");
    }
    browser.wait_for_text("Aprobación del orden del día", Duration::from_secs(15));
    browser.wait_for_text("Firmar y enviar mi voto", Duration::from_secs(10));
    browser.screenshot(&shots.join("remoto-papeleta-390x844.png"));
    browser.assert_accessible("remoto-papeleta-390x844");
    // The same page on a laptop's screen.
    browser.size(1280, 720);
    browser.screenshot(&shots.join("remoto-papeleta-1280x720.png"));
    browser.assert_accessible("remoto-papeleta-1280x720");
    browser.size(390, 844);
    // Votes with the keyboard alone: Tab to the first option, Space
    // chooses it, then Tab on to the button and Enter sends it.
    browser.eval("document.querySelector('#puntos form input[type=radio]').focus();");
    browser.keys(" ");
    browser.eval("document.querySelector('#puntos form button[type=submit]').focus();");
    browser.keys("\u{e007}");
    browser.wait_for_text("quedó registrado", Duration::from_secs(10));
    browser.wait_for_text("Código de su voto", Duration::from_secs(10));
    // The second item, now the only one open to this phone.
    browser.click("#puntos form input[type=radio]");
    browser.click("#puntos form button[type=submit]");
    let started = Instant::now();
    while browser.eval("return document.querySelectorAll('#recibos li').length;") != 2 {
        assert!(started.elapsed() < Duration::from_secs(10), "two receipts: {}", browser.page_text());
        std::thread::sleep(Duration::from_millis(50));
    }
    browser.screenshot(&shots.join("remoto-recibos-390x844.png"));
    browser.assert_accessible("remoto-recibos-390x844");
    // Both ballots are in the turnout of their items.
    let (_, status) = api(&demo, "GET", "/api/v1/status", None);
    let link = browser.eval("return document.querySelector('#recibos a').getAttribute('href');");
    // The receipt, checked on the public board as a kiosk's is.
    browser.goto(&format!("{}{}", demo.base, link.as_str().unwrap()));
    browser.wait_for_text("Su papeleta fue contada", Duration::from_secs(10));
    browser.screenshot(&shots.join("remoto-recibo-comprobado-390x844.png"));
    assert!(
        status["items"].as_array().unwrap().iter().filter(|i| i["state"] == "open").count() == 2,
        "{status}"
    );
    // The desk sees nobody waiting any more.
    browser.switch_to(&desk);
    browser.wait_for_text("No hay inscripciones en espera", Duration::from_secs(10));
}

/// A mixed meeting of three holders whose remote presence lapses after
/// 15 s without a heartbeat (one a second): A-1 (600) in the room, B-2
/// (300) from a phone.
fn short_timeout_meeting() -> String {
    let meeting = crate::support::SESSIONS_MEETING.replacen(
        "profile = \"legal-default\"",
        "profile = \"legal-default\"\nmodality = \"mixta\"",
        1,
    );
    format!(
        "{meeting}
[remote]
medium = \"La página /remoto de la asamblea\"
access = \"Cada accionista abre la página y se inscribe con su documento\"
identity_check = \"Videollamada con la mesa de registro\"
floor = \"Preguntas y constancias por escrito desde la misma página\"
identity_delegated = true
heartbeat_seconds = 1
presence_timeout_seconds = 15
"
    )
}

/// Waits up to `limit` for `check` to hold, polling; the time it took.
fn eventually(limit: Duration, what: &str, mut check: impl FnMut() -> bool) -> Duration {
    let started = Instant::now();
    while !check() {
        assert!(started.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(250));
    }
    started.elapsed()
}

#[test]
fn a_phone_that_loses_the_network_lapses_comes_back_by_itself_votes_and_leaves_a_statement() {
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("remote_page::a_phone_that_loses_the_network", why);
        return;
    }
    let demo = Demo::serve("remote-lapse", &short_timeout_meeting(), crate::support::SESSIONS_REGISTER);
    let shots = crate::consoles::screenshots();
    let (status, answer) =
        send(&demo, "POST", "/api/v1/checkins", Some("operator"), serde_json::json!({ "holder": "A-1" }));
    assert!((200..300).contains(&status), "{status} {answer}");
    let browser = Browser::start();
    browser.size(390, 844);
    browser.goto(&format!("{}/remoto", demo.base));
    browser.wait_for_text("Inscribirse para asistir a distancia", Duration::from_secs(10));
    browser.type_into("#documento", "B-2");
    browser.type_into("#nombre", "Bruno Accionista");
    browser.click("#form-inscripcion button[type=submit]");
    browser.wait_for_text("Esperando la verificación de la mesa", Duration::from_secs(10));
    let (_, pending) = api(&demo, "GET", "/api/v1/remote/pending", Some("operator"));
    let key = pending["pending"][0]["key"].as_str().expect("the phone's registration").to_string();
    let verification = serde_json::json!({ "key": key, "method": "video-call", "evidence": "cd".repeat(32) });
    let (status, answer) =
        send(&demo, "POST", "/api/v1/remote/verifications", Some("operator"), verification);
    assert!((200..300).contains(&status), "{status} {answer}");
    browser.wait_for_text("Su identidad fue verificada", Duration::from_secs(15));
    browser.click("#unirse");
    browser.wait_for_text("En la reunión, a distancia", Duration::from_secs(10));
    let shares =
        || api(&demo, "GET", "/api/v1/status", None).1["quorum"]["present_shares"].as_u64().unwrap_or(0);
    assert_eq!(shares(), 900);
    let (status, answer) =
        send(&demo, "POST", "/api/v1/meeting/install", Some("chair"), serde_json::json!({ "note": "" }));
    assert!((200..300).contains(&status), "{status} {answer}");

    // The signal goes: no heartbeat reaches the daemon, which records the
    // lapse after the meeting's 15 s; the quorum drops to the room's.
    browser.offline(true);
    browser.wait_for_text("Sin conexión con la reunión", Duration::from_secs(30));
    let took = eventually(Duration::from_secs(120), "the lapse", || shares() == 600);
    println!("remote_page: the lapse was recorded {took:?} after the phone went offline (timeout 15 s)");
    browser.screenshot(&shots.join("remoto-sin-conexion-390x844.png"));
    browser.assert_accessible("remoto-sin-conexion-390x844");
    // Back online: the page records the return by itself and says so.
    browser.offline(false);
    browser.wait_for_text("Volvió a la reunión a las", Duration::from_secs(60));
    eventually(Duration::from_secs(30), "the return", || shares() == 900);

    // The chair opens the election; the phone votes for Lista A.
    let (status, answer) = api(&demo, "POST", "/api/v1/items/junta/open", Some("chair"));
    assert!((200..300).contains(&status), "{status} {answer}");
    browser.wait_for_text("Elección de la Junta Directiva", Duration::from_secs(20));
    browser.wait_for_text("Firmar y enviar mi voto", Duration::from_secs(10));
    // The chair announces the close: the phone counts it down too.
    let (status, answer) = send(
        &demo,
        "POST",
        "/api/v1/items/junta/announce-close",
        Some("chair"),
        serde_json::json!({ "countdown_seconds": 600 }),
    );
    assert!((200..300).contains(&status), "{status} {answer}");
    browser.wait_for_text(
        "La presidencia anunció el cierre: vote ahora; puede cerrarse en",
        Duration::from_secs(20),
    );
    let left = browser.eval("return document.querySelector('#puntos .cierre').textContent;");
    assert!(left.as_str().unwrap().contains(" min "), "minutes left of the ten: {left}");
    browser.screenshot(&shots.join("remoto-cuenta-regresiva-390x844.png"));
    browser.assert_accessible("remoto-cuenta-regresiva-390x844");
    browser.size(1280, 720);
    browser.screenshot(&shots.join("remoto-cuenta-regresiva-1280x720.png"));
    browser.assert_accessible("remoto-cuenta-regresiva-1280x720");
    browser.size(390, 844);
    browser.click("#puntos form input[type=radio]");
    browser.click("#puntos form button[type=submit]");
    browser.wait_for_text("Código de su voto", Duration::from_secs(10));
    let phone = browser.window();

    // A written statement for the acta, about «Proposiciones y varios».
    browser.click("#clase-constancia");
    browser.eval("const s = document.getElementById('sobre'); s.value = 'varios'; s.dispatchEvent(new Event('change'));");
    browser.type_into("#texto", "Dejo constancia de que voté desde mi teléfono.");
    browser.eval("document.getElementById('form-intervencion').scrollIntoView();");
    browser.click("#form-intervencion button[type=submit]");
    browser.wait_for_text("quedó registrada con el n.º", Duration::from_secs(10));
    browser.screenshot(&shots.join("remoto-constancia-390x844.png"));
    browser.assert_accessible("remoto-constancia-390x844");
    let (_, floor) = api(&demo, "GET", "/api/v1/floor", Some("chair"));
    let sent = &floor["submissions"][0];
    assert_eq!(
        (sent["person"].as_str(), sent["kind"].as_str(), sent["item"].as_str(), sent["text"].as_str()),
        (
            Some("B-2"),
            Some("statement"),
            Some("varios"),
            Some("Dejo constancia de que voté desde mi teléfono.")
        )
    );
    // The chair's console lists it; «Leída» records it read.
    browser.new_window();
    browser.size(1280, 720);
    crate::consoles::sign_in(&browser, &demo, "chair", "Presidencia");
    browser.wait_for_text("Intervenciones a distancia", Duration::from_secs(10));
    browser.wait_for_text("Dejo constancia de que voté desde mi teléfono.", Duration::from_secs(10));
    browser.eval("document.getElementById('floor-title').scrollIntoView();");
    browser.screenshot(&shots.join("presidencia-intervenciones-1280x720.png"));
    browser.assert_accessible("presidencia-intervenciones-1280x720");
    browser.size(390, 844);
    browser.eval("document.getElementById('floor-title').scrollIntoView();");
    browser.screenshot(&shots.join("presidencia-intervenciones-390x844.png"));
    browser.assert_accessible("presidencia-intervenciones-390x844");
    browser.size(1280, 720);
    browser.click("#intervenciones li button");
    browser.wait_for_text("Leída / read", Duration::from_secs(10));
    let (_, floor) = api(&demo, "GET", "/api/v1/floor", Some("chair"));
    assert_eq!(floor["submissions"][0]["outcome"], "read");
    // Back on the phone, the receipt of the vote cast after the return is
    // checked on the public board.
    browser.switch_to(&phone);
    let link = browser.eval("return document.querySelector('#recibos a').getAttribute('href');");
    browser.goto(&format!("{}{}", demo.base, link.as_str().unwrap()));
    browser.wait_for_text("Su papeleta fue contada", Duration::from_secs(10));
}

/// `asamblea verify DIR --json` names each remote verification (HY-2):
/// who, the key, how, the evidence's hash, the operator who verified, the
/// credential bound; and says so in words without `--json`.
#[test]
fn verify_names_each_remote_verification_and_its_credential() {
    use asamblea_wire::{Digest, VerificationMethod};
    // In a folder of its own: an `init` clears what killed inits left
    // beside it, and other tests init in the shared temporary folder.
    let parent = std::env::temp_dir().join(format!("asamblea-remote-verify-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&parent);
    std::fs::create_dir_all(&parent).unwrap();
    let dir = parent.join("reunion");
    let (meeting, register) = (dir.with_extension("toml"), dir.with_extension("csv"));
    std::fs::write(&meeting, crate::support::mixed(crate::support::MERGER_MEETING)).unwrap();
    std::fs::write(&register, crate::support::MERGER_REGISTER).unwrap();
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let out = crate::support::asamblea(&[
        "init",
        &path(&dir),
        "--meeting",
        &path(&meeting),
        "--register",
        &path(&register),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = (std::fs::remove_file(meeting), std::fs::remove_file(register));
    let browser = Keypair::from_seed(&[0x66; 32]);
    let mut service = asamblea_venue::service::Service::open(&dir).expect("open");
    let person = Id::new("B-2").unwrap();
    service
        .staff_event(EventBody::IdentityVerified {
            person: person.clone(),
            key: browser.public_key(),
            method: VerificationMethod::AdmissionCode,
            evidence: Digest([0xE1; 32]),
        })
        .expect("verified");
    service
        .staff_event(EventBody::RemoteCredentialIssued {
            credential: CredentialId(1),
            key: browser.public_key(),
            person,
        })
        .expect("bound");
    let event = Event {
        nonce: Nonce([0x77; 16]),
        body: EventBody::CheckedInRemote {
            credential: CredentialId(1),
            principals: vec![Id::new("B-2").unwrap()],
        },
    };
    let bytes = event.encode().unwrap();
    let signature = browser.sign(&service.meeting_id(), &bytes).unwrap();
    service
        .remote_event(asamblea_ledger::Signed { event, bytes, signer: browser.public_key(), signature })
        .expect("arrived remotely");
    // The phone goes silent: the daemon ends the stay (HY-5); the person
    // comes back, asks a question and leaves a statement the chair reads.
    let lapse = service.lapse_presence(CredentialId(1), 300_250).expect("lapsed");
    let mut from_phone = |nonce: u8, body: EventBody| {
        let event = Event { nonce: Nonce([nonce; 16]), body };
        let bytes = event.encode().unwrap();
        let signature = browser.sign(&service.meeting_id(), &bytes).unwrap();
        service
            .remote_event(asamblea_ledger::Signed { event, bytes, signer: browser.public_key(), signature })
            .expect("from the phone")
    };
    from_phone(
        0x78,
        EventBody::CheckedInRemote { credential: CredentialId(1), principals: vec![Id::new("B-2").unwrap()] },
    );
    let ask = |kind, item: Option<&str>, text: &str| EventBody::RemoteSubmission {
        credential: CredentialId(1),
        kind,
        item: item.map(|i| Id::new(i).unwrap()),
        text: asamblea_wire::Prose::new(text).unwrap(),
    };
    let question = from_phone(
        0x79,
        ask(asamblea_wire::SubmissionKind::Question, None, "¿Hay quórum para reformar los estatutos?"),
    );
    let statement = from_phone(
        0x7A,
        ask(asamblea_wire::SubmissionKind::Statement, None, "Dejo constancia de mi desacuerdo.\nB-2."),
    );
    service
        .staff_event(EventBody::SubmissionHandled {
            submission: statement.seq,
            outcome: asamblea_wire::SubmissionOutcome::Read,
            note: asamblea_wire::Text::new("").unwrap(),
        })
        .expect("read");
    drop(service.close());
    let out = crate::support::asamblea(&["verify", &path(&dir), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let answer: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let remote = &answer["remote"][0];
    assert_eq!(remote["person"], "B-2");
    assert_eq!(remote["key"], browser.public_key().to_string());
    assert_eq!(remote["method"], "admission-code");
    assert_eq!(remote["evidence_sha256"], "e1".repeat(32));
    assert!(remote["verified_by"].is_string(), "{remote}");
    assert_eq!(
        (remote["credential"].clone(), remote["revoked"].clone()),
        (serde_json::json!(1), serde_json::json!(false))
    );
    let floor = &answer["floor"];
    assert_eq!(floor["lapses"][0]["seq"], lapse.seq, "{floor}");
    assert_eq!(
        (floor["lapses"][0]["person"].as_str(), floor["lapses"][0]["silent_ms"].as_u64()),
        (Some("B-2"), Some(300_250))
    );
    let submissions = floor["submissions"].as_array().unwrap();
    assert_eq!(submissions.len(), 2, "{floor}");
    assert_eq!(
        (submissions[0]["seq"].as_u64(), submissions[0]["kind"].as_str()),
        (Some(question.seq), Some("question"))
    );
    assert_eq!(submissions[0]["handled"], Value::Null);
    assert_eq!(submissions[1]["handled"]["outcome"], "read");
    assert_eq!(submissions[1]["text"], "Dejo constancia de mi desacuerdo.\nB-2.");
    let out = crate::support::asamblea(&["verify", &path(&dir)]);
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("remote identities verified: 1 (credenciales remotas / remote credentials 1)"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // The acta counts the verified by method and marks the remote
    // attendee's interval as such (HY-7).
    let (bundle, acta) = (parent.join("reunion.bundle"), parent.join("acta.docx"));
    crate::support::asamblea_ok(&["export", &path(&dir), &path(&bundle)]);
    crate::support::asamblea_ok(&["acta", &path(&bundle), "-o", &path(&acta)]);
    let text = crate::exports::docx_text(&acta);
    assert!(
        text.contains(
            "Se verificó la identidad de 1 asistente a distancia: 1 por código de la carta de admisión."
        ),
        "{text}"
    );
    assert!(text.contains("hasta el cierre (a distancia)"), "{text}");
    for expected in [
        "1 presencia a distancia se interrumpió por falta de señal de vida de la conexión",
        "300 s",
        "No se presentaron constancias escritas en la sala.",
        "Constancias escritas enviadas a distancia (1):",
        "Dejo constancia de mi desacuerdo.",
        "Trámite: leída.",
        "Se recibió 1 pregunta a distancia: 0 leídas, 0 respondidas, 0 no leídas y 1 sin trámite registrado.",
        "¿Hay quórum para reformar los estatutos?",
        "sin trámite",
    ] {
        assert!(text.contains(expected), "the acta lacks «{expected}»: {text}");
    }
    // Two stays of B-2, both from afar: the lapse ended the first.
    assert!(text.contains("(a distancia); ") && text.contains("hasta el cierre (a distancia)"), "{text}");
    crate::support::remove_meeting(&dir);
    let _ = std::fs::remove_dir_all(&parent);
}
