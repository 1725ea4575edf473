//! The desk on the day with powers lodged ahead (issue 25), in a real
//! browser on the demo company (a listed issuer): an agent with 50
//! principals is admitted by one scan of their admission letter's QR, with one
//! button, in one arrival; a principal who came in person first is
//! listed as no longer carried; a substitute comes instead of an agent;
//! and a power lodged by hand at the console shows its verdict and the
//! desk's figures. Checked by axe-core with the
//! card open, saved at 1280×720 and 390×844.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::consoles::{screenshots, sign_in, Demo};
use crate::webdriver::{self, Browser};

/// The agent the power names, who is not in the register.
const AGENT: &str = "CC-77000001";
const AGENT_NAME: &str = "Ana Apoderada Gómez";

/// The demo register's natural persons with no role (no administrator or
/// employee: the rules would bar them from nothing here, but the test is
/// about ordinary holders), each once, in the register's order.
fn ordinary_holders(register: &str) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for line in register.lines().skip(1) {
        // The name may hold commas (it is quoted): the id is first, the
        // role second from the end.
        let mut from_end = line.rsplitn(3, ',');
        let (_split, role, rest) = (from_end.next(), from_end.next(), from_end.next().unwrap_or(""));
        let id = rest.split(',').next().unwrap_or("").to_string();
        if role == Some("") && id.starts_with("CC-") && !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids
}

/// `method path` on the daemon as the operator: the status and the JSON.
fn call(demo: &Demo, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let addr: std::net::SocketAddr = demo.base.trim_start_matches("https://").parse().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        use asamblea_kiosk::{staff_tls, HttpsClient};
        let mut client = HttpsClient::connect(addr, staff_tls(&demo.dir).unwrap()).await.unwrap();
        let token = demo.tokens["operator"].as_str();
        let (status, answer) = match (method, body) {
            ("GET", _) => client.get_json_as(path, token).await.unwrap(),
            (_, body) => client.post_json(path, &body.unwrap_or(json!({})), Some(token)).await.unwrap(),
        };
        (status.as_u16(), answer)
    })
}

/// What a scanner reads from `person`'s admission letter: the letter as
/// the desk downloads it (`GET /api/v1/letters.pdf?person=`, by curl),
/// drawn by poppler and its QR read by zbar.
fn scan_letter(demo: &Demo, person: &str) -> String {
    let pdf = demo.dir.with_extension("letter.pdf");
    let got = std::process::Command::new("curl")
        .args(["-sSf", "--cacert"])
        .arg(demo.dir.join("tls/ca.crt"))
        .args(["-H", &format!("Authorization: Bearer {}", demo.tokens["operator"])])
        .arg(format!("{}/api/v1/letters.pdf?person={person}", demo.base))
        .arg("-o")
        .arg(&pdf)
        .status()
        .expect("curl runs");
    assert!(got.success(), "the desk downloads the letter");
    let root = demo.dir.with_extension("letter");
    let drawn = std::process::Command::new("pdftoppm")
        .args(["-png", "-r", "150", "-singlefile", "-f", "1", "-l", "1"])
        .arg(&pdf)
        .arg(&root)
        .status()
        .expect("pdftoppm runs");
    assert!(drawn.success());
    let read = std::process::Command::new("zbarimg")
        .args(["--raw", "-q"])
        .arg(format!("{}.png", root.display()))
        .output()
        .expect("zbarimg runs");
    let code = String::from_utf8(read.stdout).unwrap().trim().to_string();
    assert_eq!(code.len(), 11, "the QR holds the code alone: {code:?}");
    code
}

/// The ledger's number for the next event: a holder checked in through
/// the API answers it with their arrival's.
fn check_in(demo: &Demo, holder: &str) -> u64 {
    let (status, answer) = call(demo, "POST", "/api/v1/checkins", Some(json!({ "holder": holder })));
    assert_eq!(status, 201, "{answer}");
    answer["seq"].as_u64().unwrap()
}

/// A screenshot of the page as it is, checked by axe-core.
fn shot(browser: &Browser, name: &str) {
    browser.screenshot(&screenshots().join(format!("{name}.png")));
    browser.assert_accessible(name);
}

/// The id of the element with the keyboard's focus.
fn focused(browser: &Browser) -> String {
    browser.eval("return document.activeElement.id;").as_str().unwrap_or("").to_string()
}

/// The text of an element.
fn text(browser: &Browser, css: &str) -> String {
    browser
        .eval(&format!("return document.querySelector({}).innerText;", json!(css)))
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// Waits until the element `css` shows `wanted`.
fn wait_in(browser: &Browser, css: &str, wanted: &str) {
    let started = Instant::now();
    while !text(browser, css).contains(wanted) {
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "{css} says {:?}, not {wanted:?}",
            text(browser, css)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn an_agent_with_50_principals_is_admitted_by_one_scan_and_one_button() {
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("desk_powers::an_agent_with_50_principals_is_admitted…", why);
        return;
    }
    let runs = |tool: &str, arg: &str| std::process::Command::new(tool).arg(arg).output().is_ok();
    if !(runs("curl", "--version") && runs("pdftoppm", "-v") && runs("zbarimg", "--version")) {
        webdriver::not_run(
            "desk_powers::an_agent_with_50_principals_is_admitted…",
            "no curl, pdftoppm or zbarimg to read the letter's QR (apt-get install curl poppler-utils zbar-tools)",
        );
        return;
    }
    let root = crate::workspace_root();
    let register = std::fs::read_to_string(root.join("config/demo/register.csv")).unwrap();
    let meeting = std::fs::read_to_string(root.join("config/demo/meeting.toml")).unwrap();
    let demo = Demo::serve("desk-powers", &meeting, &register);
    let ordinary = ordinary_holders(&register);
    assert!(ordinary.len() >= 53, "the demo register has enough ordinary holders");
    let principals = &ordinary[..50];
    // The first principal comes in person before the agent.
    let arriving = &principals[0];

    // One power, lodged ahead through the API: the agent has no tie and
    // was not suggested by the company (a listed issuer).
    let power = json!({
        "reference": "P-100",
        "principals": principals,
        "agent": AGENT,
        "agent_name": AGENT_NAME,
        "meeting_date": "30 de marzo de 2027",
        "received_via": "email",
        "received_on": "2027-03-10",
        "document_sha256": "ab".repeat(32),
    });
    // And a power of three whose agent sends their substitute instead.
    let substituted = json!({
        "reference": "P-102",
        "principals": &ordinary[53..56],
        "agent": "CC-77000004",
        "agent_name": "Jorge Apoderado Díaz",
        "substitutes": [{ "id": "CC-77000005", "name": "Sara Sustituta Ríos" }],
        "meeting_date": "2027-03-30",
        "received_via": "office",
        "received_on": "2027-03-11",
        "document_sha256": "ef".repeat(32),
    });
    let (status, lodged) =
        call(&demo, "POST", "/api/v1/powers", Some(json!({ "powers": [power, substituted] })));
    assert_eq!(status, 201, "{lodged}");
    assert_eq!(
        (&lodged["lodged"][0]["accepted"], &lodged["lodged"][1]["accepted"]),
        (&json!(true), &json!(true)),
        "{lodged}"
    );

    let browser = Browser::start();
    browser.size(1280, 720);
    sign_in(&browser, &demo, "operator", "Registro de asistentes");
    browser.wait_for_text("Radicación abierta", Duration::from_secs(10));
    wait_in(&browser, "#poderes-cifras", "Aceptados accepted\t2");
    assert_eq!(focused(&browser), "escanear", "the scan field has the focus on load");

    // The principal: the bare number of her card, as typed or scanned.
    browser.keys(&format!("{}\n", arriving.trim_start_matches("CC-")));
    wait_in(&browser, "#ficha-datos", "se revoca el poder P-100");
    shot(&browser, "registro-admision-poderdante-1280x720");
    browser.click("#admitir");
    wait_in(&browser, "#admitido", "Poder P-100 revocado");
    wait_in(&browser, "#admitido", "Credencial n.º 1 emitida");
    assert_eq!(focused(&browser), "escanear", "the keyboard is back for the next person");

    // The agent, by one scan of their admission letter: the letter the
    // desk downloads, its QR read by zbar (what a scanner types), then
    // Enter.
    let scanned = scan_letter(&demo, AGENT);
    let before = check_in(&demo, &ordinary[50]);
    browser.keys(&format!("{scanned}\n"));
    wait_in(&browser, "#ficha-datos", "Al admitir, vota por 49 accionistas");
    let card = text(&browser, "#ficha-datos");
    assert!(card.contains(&format!("{AGENT_NAME} · {AGENT}")), "{card}");
    let gone = text(&browser, "#ficha-datos .warning");
    assert!(
        gone.contains(arriving.as_str()) && gone.contains("ya no lo lleva: el poderdante llegó en persona"),
        "the agent is told which shares they no longer carry: {gone}"
    );
    let to_carry = browser
        .eval("return [...document.querySelectorAll('#ficha-poderes tbody tr')].filter((tr) => tr.cells[3].textContent.startsWith('lo lleva al admitirlo')).length;");
    assert_eq!(to_carry, 49, "the card lists the 49 to carry");
    assert_eq!(
        browser.eval("return document.getElementById('admision-nombre').value;"),
        AGENT_NAME,
        "the name the power gives, to correct as on the card"
    );
    assert_eq!(focused(&browser), "escanear", "a second scan replaces the card, never admits");
    browser.eval("window.scrollTo(0, 0);");
    shot(&browser, "registro-admision-apoderado-1280x720");
    // On a phone: the card fits the width, the button in reach.
    browser.size(390, 844);
    let wide = browser.eval("return document.documentElement.scrollWidth;").as_i64().unwrap();
    assert!(wide <= 390, "the admission on a phone is {wide} px wide");
    browser.eval("document.getElementById('admitir').scrollIntoView({ block: 'center' });");
    shot(&browser, "registro-admision-apoderado-390x844");
    browser.size(1280, 720);

    // One press admits the 49 and issues the badge.
    browser.click("#admitir");
    wait_in(&browser, "#admitido", "con 49 accionistas");
    wait_in(&browser, "#admitido", "Credencial n.º 2 emitida");
    assert!(
        text(&browser, "#admitido button").contains("Imprimir la credencial n.º 2"),
        "the print is one Tab away from the scan field"
    );
    let badge = browser.eval("return document.querySelector('#credencial svg').textContent;");
    assert!(badge.as_str().unwrap().contains(AGENT_NAME), "the badge names the agent: {badge}");
    assert_eq!(focused(&browser), "escanear");
    browser.eval("window.scrollTo(0, 0);");
    shot(&browser, "registro-admitido-1280x720");

    // One arrival, not 49: between two check-ins the ledger holds the
    // arrival, the name recorded with it and the badge.
    let after = check_in(&demo, &ordinary[51]);
    assert_eq!(after - before, 4, "the admission recorded 3 events (arrival, name, badge)");
    let (_, attendees) = call(&demo, "GET", "/api/v1/attendees", None);
    let agent = attendees["attendees"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["person"] == AGENT)
        .unwrap_or_else(|| panic!("the agent attends: {attendees}"))
        .clone();
    let carries: Vec<&str> =
        agent["carries"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    assert_eq!(carries.len(), 49, "{agent}");
    assert!(!carries.contains(&arriving.as_str()), "{agent}");
    assert_eq!(agent["badge"], 2, "{agent}");
    let (_, figures) = call(&demo, "GET", "/api/v1/powers", None);
    assert_eq!((figures["revoked"].as_u64(), figures["principals_carried"].as_u64()), (Some(1), Some(49)));

    // The same agent again: nothing left to admit, said before any press.
    browser.keys("CC-77000001\n");
    wait_in(&browser, "#ficha-datos", "Nada que admitir");
    assert_eq!(browser.eval("return document.getElementById('admitir').disabled;"), true);
    // Nobody: the API's words, and what to do next.
    // The text of the last scan is selected: the next one replaces it.
    browser.keys("99999999\n");
    wait_in(&browser, "#admision-error", "Nadie con");
    assert!(text(&browser, "#admision-error").contains("Qué hacer"));

    // The substitute comes instead of the agent: said on the card and in
    // the confirmation, with the name as on her card.
    browser.keys("77000005\n");
    wait_in(
        &browser,
        "#ficha-datos",
        "Viene como sustituto de Jorge Apoderado Díaz (CC-77000004), por el poder P-102",
    );
    assert!(text(&browser, "#ficha-poderes").contains("como sustituto de Jorge Apoderado Díaz (CC-77000004)"));
    browser.eval("window.scrollTo(0, 0);");
    shot(&browser, "registro-admision-sustituto-1280x720");
    // The power names her: her name is offered, to correct as on her card
    // (here the card adds a surname).
    assert_eq!(
        browser.eval("return document.getElementById('admision-nombre').value;"),
        "Sara Sustituta Ríos",
        "the name the power gives the substitute"
    );
    browser.type_into("#admision-nombre", " de Mejía");
    browser.click("#admitir");
    wait_in(
        &browser,
        "#admitido",
        "Admitido: Sara Sustituta Ríos de Mejía (CC-77000005), como sustituto, con 3 accionistas",
    );
    wait_in(&browser, "#admitido", "Credencial n.º 3 emitida");
    assert_eq!(text(&browser, "#admision-error"), "", "no error");

    // A power lodged by hand, suggested by the company: refused, and why.
    browser.click("#radicar summary");
    browser.type_into("#poder-referencia", "P-101");
    browser.type_into("#poder-poderdantes", &ordinary[52]);
    browser.type_into("#poder-agente", "CC-77000003");
    browser.type_into("#poder-agente-nombre", "Pedro Sugerido Ruiz");
    browser.click("#poder-sugerido");
    browser.type_into("#poder-fecha", "2027-03-30");
    // The day as typed in Colombia, day first.
    browser.type_into("#poder-recibido", "12/03/2027");
    browser.type_into("#poder-sha256", &"cd".repeat(32));
    browser.click("#radicar-boton");
    wait_in(&browser, "#radicar-veredicto", "RECHAZADO");
    wait_in(&browser, "#poderes-cifras", "Rechazados refused\t1");
    let reasons = text(&browser, "#poderes-motivos");
    assert!(reasons.contains("1 poder"), "{reasons}");
    assert_eq!(focused(&browser), "poder-referencia", "ready for the next power");
    browser.eval("document.getElementById('radicar-veredicto').scrollIntoView({ block: 'center' });");
    shot(&browser, "registro-poder-a-mano-1280x720");
    browser.eval("document.getElementById('poderes-panel').scrollIntoView();");
    shot(&browser, "registro-poderes-1280x720");
    browser.size(390, 844);
    browser.eval("document.getElementById('poderes-panel').scrollIntoView();");
    shot(&browser, "registro-poderes-390x844");
    let (_, figures) = call(&demo, "GET", "/api/v1/powers", None);
    assert_eq!((figures["lodged"].as_u64(), figures["refused"].as_u64()), (Some(3), Some(1)), "{figures}");
}
