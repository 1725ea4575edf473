//! The kiosk as an attendee meets it: `asamblea kiosk-run` (the code of
//! `asamblea-kiosk run`) enrolled by its own certificate request, talking
//! to a real daemon over mutual TLS, driven in headless Chromium at the
//! kiosk's size (1280 × 800), each screen saved as a screenshot.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

use crate::consoles::{decode_qr, screenshots, unlabelled, Demo};
use crate::webdriver::{self, Browser};

/// A kiosk program running on this machine.
struct KioskRun {
    child: Child,
    url: String,
    /// The first line it printed: ready, or open without the service.
    said: String,
}

impl KioskRun {
    fn start(folder: &Path, scanner: Option<&Path>) -> KioskRun {
        let mut command = Command::new(env!("CARGO_BIN_EXE_asamblea"));
        command.args(["kiosk-run", folder.to_str().unwrap(), "--listen", "127.0.0.1:0", "--idle", "600"]);
        if let Some(scanner) = scanner {
            command.arg("--scanner").arg(scanner);
        }
        let mut child =
            command.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("the kiosk starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let ready = lines.next().expect("the kiosk says it is ready").unwrap();
        let url = ready.rsplit(' ').next().unwrap().trim_end_matches('/').to_string();
        assert!(url.starts_with("http://127.0.0.1:"), "{ready}");
        std::thread::spawn(move || for _ in lines {});
        KioskRun { child, url, said: ready }
    }

    /// Killed as a power cut would (SIGKILL).
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for KioskRun {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `GET` or `POST` on the daemon as the venue's staff would (the venue CA
/// trusted, a bearer token when given).
fn daemon(demo: &Demo, method: &str, path: &str, token: Option<&str>) -> (u16, Value) {
    request(demo, method, path, token, &json!({}))
}

/// A POST of `body` to `path` as the staff member of `token`.
fn daemon_with(demo: &Demo, path: &str, token: &str, body: &Value) -> (u16, Value) {
    request(demo, "POST", path, Some(token), body)
}

fn request(demo: &Demo, method: &str, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
    let addr: std::net::SocketAddr = demo.base.trim_start_matches("https://").parse().unwrap();
    let tls = asamblea_kiosk::staff_tls(&demo.dir).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let mut client = asamblea_kiosk::HttpsClient::connect(addr, tls).await.unwrap();
        let (status, value) = match (method, token) {
            ("POST", _) => client.post_json(path, body, token).await.unwrap(),
            (_, Some(token)) => client.get_json_as(path, token).await.unwrap(),
            _ => client.get_json(path).await.unwrap(),
        };
        (status.as_u16(), value)
    })
}

/// The ballots counted so far on an open item (the board's turnout).
fn turnout(demo: &Demo, item: &str) -> u64 {
    let (_, status) = daemon(demo, "GET", "/api/v1/status", None);
    status["items"].as_array().unwrap().iter().find(|i| i["id"] == item).unwrap()["ballots"]
        .as_u64()
        .unwrap_or(0)
}

/// The badges `asamblea badges` printed: (number, the wearer's id as
/// printed, the QR's text, whether it carries others).
fn printed_badges(folder: &Path) -> Vec<(u32, String, String, bool)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            let number: u32 = path
                .file_stem()
                .unwrap()
                .to_str()
                .unwrap()
                .trim_start_matches("credencial-")
                .parse()
                .unwrap();
            let svg = std::fs::read_to_string(path.with_extension("svg")).unwrap();
            let holder = svg
                .split("<text ")
                .filter_map(|t| t.split('>').nth(1)?.split('<').next())
                .find(|t| t.starts_with("CC-") || t.starts_with("NIT-") || t.starts_with("APODERADO-"))
                .unwrap_or("")
                .to_string();
            let carries = svg.contains("En representación de");
            found.push((number, holder, std::fs::read_to_string(&path).unwrap().trim().to_string(), carries));
        }
    }
    found.sort();
    found
}

/// Chooses option `option` for every holder of every item on the screen.
fn choose_all(browser: &Browser, option: u16) {
    browser.eval(&format!(
        "document.querySelectorAll('.accionista:not(.todos) button[data-option=\"{option}\"]').forEach((b) => b.click());"
    ));
}

#[test]
fn an_attendee_votes_at_the_kiosk_from_scan_to_receipt_and_nothing_is_lost_or_counted_twice() {
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("kiosk::an_attendee_votes_at_the_kiosk_from_scan_to_receipt", why);
        return;
    }
    let mut demo = Demo::start("kiosk");
    let port = demo.base.rsplit(':').next().unwrap().to_string();
    let chair = demo.tokens["chair"].clone();
    let work = demo.dir.with_extension("quiosco");
    let _ = std::fs::remove_dir_all(&work);

    // Enrolment: the kiosk makes its key; only the request goes to the desk.
    let folder = work.join("carpeta");
    asamblea_kiosk::folder::enroll(&folder, "K1").unwrap();
    // The receipts' QR codes lead to where the company publishes the board
    // (a certificate a phone trusts); an address that is not https is refused.
    let refused = Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(["kiosk", demo.dir.to_str().unwrap(), "K1", "--csr"])
        .arg(folder.join("solicitud.csr"))
        .args(["--daemon", &format!("127.0.0.1:{port}"), "--board", "http://tablero.example.co"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("se espera la dirección pública del tablero"));
    let signed = Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(["kiosk", demo.dir.to_str().unwrap(), "K1", "--csr"])
        .arg(folder.join("solicitud.csr"))
        .args(["--daemon", &format!("127.0.0.1:{port}"), "--board", "https://tablero.example.co/"])
        .output()
        .unwrap();
    assert!(signed.status.success(), "{}", String::from_utf8_lossy(&signed.stderr));
    assert!(!demo.dir.join("tls/kiosks/K1.key").exists(), "the kiosk's key never reached the desk");

    // The desk prints badges for everyone present; one is lost and revoked.
    let printed = work.join("credenciales");
    let badges = Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(["badges", demo.dir.to_str().unwrap(), "--out", printed.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(badges.status.success(), "{}", String::from_utf8_lossy(&badges.stderr));
    let all = printed_badges(&printed);
    let badge_of =
        |holder: &str| all.iter().find(|b| b.1 == holder).unwrap_or_else(|| panic!("a badge for {holder}"));
    let administrator = badge_of("CC-10000000");
    let agent = all.iter().find(|b| b.3).expect("an agent's badge");
    let in_person: Vec<_> =
        all.iter().filter(|b| !b.3 && b.1.starts_with("CC-1") && b.1 != "CC-10000000").collect();
    let revoked = in_person[0];
    let revoke = Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(["revoke", demo.dir.to_str().unwrap(), &revoked.0.to_string()])
        .output()
        .unwrap();
    assert!(revoke.status.success(), "{}", String::from_utf8_lossy(&revoke.stderr));
    for item in ["item-1", "item-2"] {
        let (status, body) = daemon(&demo, "POST", &format!("/api/v1/items/{item}/open"), Some(&chair));
        assert!(status < 300, "{item}: {status} {body}");
    }

    // A scanner in serial mode: the kiosk reads it from a pipe.
    let serial = work.join("escaner");
    assert!(Command::new("mkfifo").arg(&serial).status().unwrap().success());
    let mut kiosk = KioskRun::start(&folder, Some(&serial));
    let browser = Browser::start();
    let shots = screenshots();
    browser.size(1280, 800);
    browser.goto(&format!("{}/", kiosk.url));
    browser.wait_for_text("Acerque su credencial al lector", Duration::from_secs(10));
    every_size(&browser, &shots, "quiosco-1-espera");
    assert_eq!(unlabelled(&browser), Vec::<String>::new(), "every control of the kiosk is named");
    // Only its own page on loopback: a request for another name pointed at
    // 127.0.0.1 (DNS rebinding) is refused, and so is an action without
    // the page's header.
    let address = kiosk.url.trim_start_matches("http://");
    let answer =
        raw_http(address, "GET /api/estado HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
    assert!(answer.starts_with("HTTP/1.1 421"), "{answer}");
    let answer = raw_http(
        address,
        "POST /api/cancelar HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    // No other page on the kiosk may frame this one or run script in it
    // (the page above, and every step below, work under that policy).
    let answer = raw_http(address, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    let head = answer.split("\r\n\r\n").next().unwrap().to_ascii_lowercase();
    assert!(head.contains("\r\nx-frame-options: deny"), "{head}");
    let policy = head.lines().find(|l| l.starts_with("content-security-policy:")).unwrap_or_default();
    for directive in ["frame-ancestors 'none'", "default-src 'none'", "script-src 'self'", "style-src 'self'"]
    {
        assert!(policy.contains(directive), "{policy}");
    }

    // Scans that must send nothing: cut short, another meeting's, revoked.
    browser.keys(&format!("{}\n", &administrator.2[..60]));
    browser.wait_for_text("quedó incompleta o con errores", Duration::from_secs(10));
    browser.screenshot(&shots.join("quiosco-2-lectura-incompleta-1280x800.png"));
    browser.assert_accessible("quiosco-2-lectura-incompleta-1280x800");
    let foreign = asamblea_kiosk::BadgeSeed::draw(&asamblea_wire::MeetingId([7; 32]))
        .unwrap()
        .numbered(asamblea_wire::CredentialId(1))
        .to_qr_text();
    browser.keys(&format!("{foreign}\n"));
    browser.wait_for_text("Esta credencial es de otra reunión", Duration::from_secs(10));
    browser.keys(&format!("{}\n", revoked.2));
    browser.wait_for_text(&format!("La credencial n.º {} fue anulada", revoked.0), Duration::from_secs(10));
    browser.screenshot(&shots.join("quiosco-3-credencial-anulada-1280x800.png"));
    browser.assert_accessible("quiosco-3-credencial-anulada-1280x800");
    // A dropped file that is no picture: said so, nothing sent.
    drop_image(&browser, b"no soy una imagen");
    browser.wait_for_text("La imagen no se pudo leer: no es un PNG legible", Duration::from_secs(10));

    // An administrator: the year-end statements are not theirs to vote,
    // and the screen says why, with the article.
    browser.keys(&format!("{}\n", administrator.2));
    browser.wait_for_text("Hola, Ana Moreno Martínez", Duration::from_secs(10));
    let text = browser.page_text();
    assert!(
        text.contains("Un administrador o empleado de la sociedad no vota este punto (art. 185"),
        "{text}"
    );
    assert!(text.contains("Sus 393.507 acciones preferenciales no votan este punto"), "{text}");
    browser.eval("document.querySelector('.motivo').scrollIntoView({ block: 'center' });");
    browser.screenshot(&shots.join("quiosco-4-no-vota-1280x800.png"));
    browser.assert_accessible("quiosco-4-no-vota-1280x800");
    // She walks away; the next person scans their own badge: her session
    // ends with nothing sent, and none of her holdings stays on screen.
    browser.keys(&format!("{}\n", in_person[5].2));
    browser.wait_for_text("La votación anterior quedó sin terminar y se canceló", Duration::from_secs(10));
    browser.wait_for_text("Hola, ", Duration::from_secs(10));
    let text = browser.page_text();
    assert!(
        !text.contains("Ana Moreno") && !text.contains("393.507"),
        "the previous voter's sheet is gone: {text}"
    );
    browser.click("#cancelar");
    browser.wait_for_text("Votación cancelada: no se envió nada", Duration::from_secs(10));

    // An agent, from a picture of the badge (as a camera sees it): each
    // principal chosen apart on one item, the same for all on the other.
    let png = std::fs::read(printed.join(format!("credencial-{:04}.png", agent.0))).unwrap();
    drop_image(&browser, &png);
    browser.wait_for_text(&format!("Hola, {}", agent.1), Duration::from_secs(10));
    // The countdown runs on the page between the kiosk's answers, in
    // minutes and seconds («Se cerrará en 9 min 58 s sin actividad»).
    let left = || -> u64 {
        let text = browser.eval("return document.getElementById('cuenta').textContent;");
        let text = text.as_str().unwrap_or_default().to_string();
        let words: Vec<&str> =
            text.split(" sin actividad").next().unwrap_or_default().split_whitespace().collect();
        let number = |unit: &str| {
            words
                .iter()
                .position(|w| *w == unit)
                .and_then(|at| words[at - 1].parse::<u64>().ok())
                .unwrap_or(0)
        };
        assert!(words.contains(&"s"), "a countdown: {text}");
        number("min") * 60 + number("s")
    };
    let first = left();
    std::thread::sleep(Duration::from_millis(2_500));
    assert!(left() < first, "the countdown moves without a touch");
    let principals: Vec<String> = browser
        .eval("return [...document.querySelectorAll('[data-item=\"item-1\"] [data-holder]')].map((r) => r.dataset.holder);")
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(principals.len() >= 2, "the agent carries several: {principals:?}");
    for (at, holder) in principals.iter().enumerate() {
        browser.click(&format!(
            "[data-item=\"item-1\"] [data-holder=\"{holder}\"] button[data-option=\"{}\"]",
            at % 3
        ));
    }
    // On the year-end statements the principals who are administrators or
    // employees have no buttons, only the reason; the others, one choice
    // for all when there are several.
    let item_2_voters = browser
        .eval("return document.querySelectorAll('[data-item=\"item-2\"] .accionista:not(.todos) button[data-option=\"0\"]').length;")
        .as_u64()
        .unwrap();
    match item_2_voters {
        0 => assert!(browser
            .page_text()
            .contains("Un administrador o empleado de la sociedad no vota este punto")),
        1 => browser.click("[data-item=\"item-2\"] .accionista:not(.todos) button[data-option=\"0\"]"),
        _ => browser.click("[data-item=\"item-2\"] .todos button[data-option=\"0\"]"),
    }
    every_size(&browser, &shots, "quiosco-5-eleccion");
    let before = turnout(&demo, "item-1");
    browser.click("#revisar");
    browser.wait_for_text("Revise su voto", Duration::from_secs(10));
    assert!(browser.page_text().contains("Su voto es definitivo"));
    every_size(&browser, &shots, "quiosco-6-revision");
    browser.click("#confirmar");
    browser.wait_for_text("Su voto quedó registrado", Duration::from_secs(20));
    every_size(&browser, &shots, "quiosco-7-recibo");
    let text = browser.page_text();
    assert!(
        !text.contains("[object")
            && text.contains(": A favor")
            && text.contains(": En contra")
            && text.contains(": En blanco"),
        "each principal's choice in words: {text}"
    );
    // Each receipt shows its signed line (NÚMERO:CABEZA:EVENTO:FIRMA) and
    // the short code to note down.
    let lines: Vec<String> = browser
        .eval("return [...document.querySelectorAll('.hash')].map((h) => h.textContent);")
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let hashes: Vec<String> =
        lines.iter().map(|l| l.split(':').nth(2).expect("the line's event").to_string()).collect();
    let codes: Vec<String> = browser
        .eval("return [...document.querySelectorAll('.codigo')].map((h) => h.textContent);")
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        codes[0],
        format!("{}-{}-{}", &hashes[0][..4], &hashes[0][4..8], &hashes[0][8..12]).to_uppercase()
    );
    assert_eq!(hashes.len(), if item_2_voters == 0 { 1 } else { 2 }, "a receipt per item voted");
    for hash in &hashes {
        let (status, found) = daemon(&demo, "GET", &format!("/api/v1/receipts/{hash}"), None);
        assert_eq!(status, 200, "the board bears out {hash}: {found}");
    }
    // The receipt's QR leads to the board's check of that very ballot.
    browser.eval("document.querySelector('.qr').scrollIntoView({ block: 'center' });");
    let qr = decode_qr(&browser.element_png(".qr svg"));
    browser.eval("window.scrollTo(0, 0);");
    assert_eq!(qr, format!("https://tablero.example.co/recibo?resumen={}", hashes[0]));
    // The voter checks from a phone, later, with exactly what the kiosk
    // showed: the code they noted, then the whole line.
    let kiosk_window = browser.window();
    browser.new_window();
    browser.size(390, 844);
    browser.goto(&format!("{}/recibo", demo.base));
    browser.type_into("textarea", &codes[0]);
    browser.click("form button");
    browser.wait_for_text("Su papeleta fue contada", Duration::from_secs(10));
    assert!(
        browser.page_text().contains(&hashes[0]),
        "the code found that very ballot: {}",
        browser.page_text()
    );
    browser.screenshot(&shots.join("recibo-codigo-390x844.png"));
    browser.assert_accessible("recibo-codigo");
    browser.goto(&format!("{}/recibo", demo.base));
    browser.type_into("textarea", &lines[0]);
    browser.click("form button");
    browser.wait_for_text("Su papeleta está en el registro", Duration::from_secs(10));
    browser.size(1280, 800);
    browser.eval("window.close();");
    browser.switch_to(&kiosk_window);
    let principals_count = principals.len() as u64;
    assert_eq!(
        turnout(&demo, "item-1"),
        before + principals_count,
        "a vote for each of the agent's principals"
    );
    browser.click("#terminar");
    browser.wait_for_text("Acerque su credencial al lector", Duration::from_secs(10));

    // The same badge again: everything is voted; nothing can be sent.
    browser.keys(&format!("{}\n", agent.2));
    browser.wait_for_text(
        "No tiene nada que votar en los puntos abiertos: Ya votó en este punto.",
        Duration::from_secs(10),
    );

    // The daemon dies between review and confirm: no receipt is shown, the
    // kiosk retries the same signed ballot, and it is counted once.
    let voter = in_person[1];
    std::fs::OpenOptions::new()
        .write(true)
        .open(&serial)
        .unwrap()
        .write_all(format!("{}\n", voter.2).as_bytes())
        .unwrap();
    browser.wait_for_text("Hola, ", Duration::from_secs(10));
    choose_all(&browser, 0);
    browser.click("#revisar");
    browser.wait_for_text("Revise su voto", Duration::from_secs(10));
    let before = turnout(&demo, "item-1");
    demo.crash();
    browser.click("#confirmar");
    browser.wait_for_text("Sin conexión con el servicio de votación: reintentando", Duration::from_secs(30));
    assert!(!browser.page_text().contains("Registrado: recibo"), "no receipt the daemon did not give");
    browser.screenshot(&shots.join("quiosco-8-sin-conexion-1280x800.png"));
    browser.assert_accessible("quiosco-8-sin-conexion-1280x800");
    demo.restart();
    browser.wait_for_text("Su voto quedó registrado", Duration::from_secs(60));
    assert_eq!(turnout(&demo, "item-1"), before + 1, "the retried ballot is counted once");
    browser.click("#terminar");
    // The badge read from the serial scanner is nowhere in the kiosk's
    // memory once its ballot is signed: every copy was wiped.
    // (The search finds what the kiosk does hold: its daemon's key, read
    // from kiosk.toml.)
    let settings = std::fs::read_to_string(folder.join("kiosk.toml")).unwrap();
    let daemon_key =
        settings.lines().find_map(|l| l.strip_prefix("daemon_key = ")).unwrap().trim_matches('"');
    // Nor is any badge's secret seed, the 32 bytes the text carries:
    // neither this one's, nor the agent's (read from a picture, signed),
    // nor the administrator's (typed by the wedge, then cancelled).
    let meeting = asamblea_wire::MeetingId::from_hex(
        settings.lines().find_map(|l| l.strip_prefix("meeting = ")).unwrap().trim_matches('"'),
    )
    .unwrap();
    let seed_of = |text: &str| {
        asamblea_wire::Credential::parse_qr_text(text, &meeting)
            .expect("a badge of this meeting")
            .keypair()
            .seed()
    };
    match memory_holds(kiosk.child.id(), voter.2.as_bytes()) {
        Ok(found) => {
            assert_eq!(
                memory_holds(kiosk.child.id(), daemon_key.as_bytes()),
                Ok(true),
                "the search sees memory"
            );
            assert!(!found, "the badge's text is still in the kiosk's memory");
            for (who, badge) in [("serial", voter), ("picture", agent), ("wedge, cancelled", administrator)] {
                let seed = seed_of(&badge.2);
                assert_eq!(
                    memory_holds(kiosk.child.id(), &seed[..]),
                    Ok(false),
                    "the {who} badge's seed is still in the kiosk's memory"
                );
            }
        }
        Err(why) => webdriver::not_run("kiosk::…: the kiosk's memory searched for the badge", &why),
    }

    // A badge made by an independent encoder (qrencode) is read by the
    // kiosk's camera path.
    let voter = in_person[2];
    match Command::new("qrencode")
        .args(["-l", "Q", "-o"])
        .arg(work.join("qrencode.png"))
        .arg(&voter.2)
        .status()
    {
        Ok(status) if status.success() => {
            drop_image(&browser, &std::fs::read(work.join("qrencode.png")).unwrap());
            browser.wait_for_text("Hola, ", Duration::from_secs(10));
        }
        _ => webdriver::not_run(
            "kiosk::…: a badge encoded by qrencode",
            "no qrencode (apt-get install qrencode)",
        ),
    }

    // The kiosk loses power mid-vote: after its restart the screen says the
    // vote was not sent.
    // (The badge before it was left on screen: this scan ends that session
    // first, then greets the new voter.)
    browser.keys(&format!("{}\n", in_person[3].2));
    browser.wait_for_text("La votación anterior quedó sin terminar", Duration::from_secs(10));
    browser.wait_for_text("Hola, ", Duration::from_secs(10));
    kiosk.kill();
    let kiosk = KioskRun::start(&folder, None);
    browser.goto(&format!("{}/", kiosk.url));
    browser.wait_for_text(
        "El quiosco se reinició antes de que confirmara su voto: no se envió nada",
        Duration::from_secs(10),
    );
    browser.screenshot(&shots.join("quiosco-9-reinicio-1280x800.png"));
    browser.assert_accessible("quiosco-9-reinicio-1280x800");

    // The badge's secret was never written to the kiosk's disk.
    for entry in std::fs::read_dir(&folder).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for badge in [agent, in_person[1], in_person[3]] {
            assert!(!text.contains(&badge.2), "a badge's text on the kiosk's disk");
        }
    }

    // The chair closes the polls between an attendee's review and confirm:
    // nothing is counted, and the receipt screen says so, with why.
    // First the chair announces item-1's close, with a countdown of 2 s:
    // the kiosk shows it on that item's card (still running, or run).
    let (status, body) =
        daemon_with(&demo, "/api/v1/items/item-1/announce-close", &chair, &json!({ "countdown_seconds": 2 }));
    assert!(status < 300, "announce: {status} {body}");
    browser.wait_for_text("Acerque su credencial al lector", Duration::from_secs(10));
    browser.keys(&format!("{}\n", in_person[4].2));
    browser.wait_for_text("Hola, ", Duration::from_secs(10));
    let closing =
        browser.eval("return document.querySelector('[data-item=\"item-1\"] .cierre').textContent;");
    assert!(
        closing.as_str().unwrap_or("").starts_with("La presidencia anunció el cierre: vote ahora"),
        "item-1's countdown on the kiosk: {closing}"
    );
    assert_eq!(browser.eval("return document.querySelectorAll('[data-item=\"item-2\"] .cierre').length;"), 0);
    // As the voter reads it, on the kiosk and at the other sizes.
    for (width, height) in [(1280, 800), (1280, 720), (390, 844)] {
        browser.size(width, height);
        browser.eval(
            "document.querySelector('[data-item=\"item-1\"] .cierre').scrollIntoView({ block: 'center' });",
        );
        browser.screenshot(&shots.join(format!("quiosco-12-cierre-anunciado-{width}x{height}.png")));
    }
    browser.size(1280, 800);
    choose_all(&browser, 0);
    browser.click("#revisar");
    browser.wait_for_text("Revise su voto", Duration::from_secs(10));
    for item in ["item-1", "item-2"] {
        // item-1 closes once its 2 s have run (the daemon says when).
        let started = std::time::Instant::now();
        let (status, body) = loop {
            let (status, body) = daemon(&demo, "POST", &format!("/api/v1/items/{item}/close"), Some(&chair));
            if body["error"]["code"] != "countdown-running" || started.elapsed() > Duration::from_secs(30) {
                break (status, body);
            }
            std::thread::sleep(Duration::from_millis(200));
        };
        assert!(status < 300, "{item}: {status} {body}");
    }
    browser.click("#confirmar");
    browser.wait_for_text("Su voto NO se contó", Duration::from_secs(20));
    let text = browser.page_text();
    assert!(!text.contains("Su voto quedó registrado") && !text.contains("Registrado: recibo"), "{text}");
    assert!(text.contains("No se contó: "), "the reason, in the daemon's words: {text}");
    browser.screenshot(&shots.join("quiosco-10-no-contado-1280x800.png"));
    browser.assert_accessible("quiosco-10-no-contado-1280x800");

    // A kiosk started while its daemon is down says so at once, in its
    // terminal and on its screen, and recovers by itself.
    drop(kiosk);
    demo.crash();
    let kiosk = KioskRun::start(&folder, None);
    assert!(kiosk.said.contains("SIN servicio de votación"), "{}", kiosk.said);
    browser.goto(&format!("{}/", kiosk.url));
    browser.wait_for_text("Este quiosco no puede recibir votos ahora", Duration::from_secs(10));
    assert!(
        browser.page_text().contains("Sin conexión con el servicio de votación en 127.0.0.1:"),
        "{}",
        browser.page_text()
    );
    assert!(!browser.page_text().contains("Acerque su credencial"), "no attendee is invited to scan");
    browser.screenshot(&shots.join("quiosco-11-sin-servicio-1280x800.png"));
    demo.restart();
    browser.wait_for_text("Acerque su credencial al lector", Duration::from_secs(60));

    // Closed: the result is on the public board.
    browser.goto(&format!("{}/", demo.base));
    browser.wait_for_text("Aprobación del orden del día", Duration::from_secs(10));
    let text = browser.page_text();
    assert!(text.contains("APROBADO"), "the board shows the decision: {text}");
    drop(kiosk);
    let _ = std::fs::remove_dir_all(&work);
}

/// A kiosk screen at the kiosk's size (1280×800), a projector's
/// (1280×720) and a phone's (390×844), the one the kiosk shows read back
/// after: nothing may run off the screen sideways.
fn every_size(browser: &Browser, shots: &std::path::Path, name: &str) {
    for (width, height) in [(1280, 720), (390, 844), (1280, 800)] {
        browser.size(width, height);
        std::thread::sleep(Duration::from_millis(300));
        let wide = browser.eval("return document.documentElement.scrollWidth;").as_i64().unwrap();
        assert!(wide <= i64::from(width), "{name} at {width}×{height} is {wide} px wide");
        // The bottom bar is fixed: its buttons must fit the screen too.
        let right = browser
            .eval("return Math.max(0, ...[...document.querySelectorAll('.barra button')].map((b) => b.getBoundingClientRect().right));")
            .as_f64()
            .unwrap();
        assert!(
            right <= f64::from(width),
            "{name} at {width}×{height}: a button of the bar ends at {right} px"
        );
        browser.screenshot(&shots.join(format!("{name}-{width}x{height}.png")));
        browser.assert_accessible(&format!("{name}-{width}x{height}"));
    }
}

/// One plain HTTP/1.1 exchange with the kiosk's page: the answer's text.
fn raw_http(address: &str, request: &str) -> String {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer
}

/// Whether the process `pid`'s writable memory holds `needle` anywhere
/// (read through `/proc/PID/mem`, as its owner may).
fn memory_holds(pid: u32, needle: &[u8]) -> Result<bool, String> {
    use std::io::{Read, Seek, SeekFrom};
    let maps =
        std::fs::read_to_string(format!("/proc/{pid}/maps")).map_err(|e| format!("/proc/{pid}/maps: {e}"))?;
    let mut memory =
        std::fs::File::open(format!("/proc/{pid}/mem")).map_err(|e| format!("/proc/{pid}/mem: {e}"))?;
    let mut searched = 0;
    for line in maps.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if !fields[1].starts_with("rw") {
            continue;
        }
        let (start, end) = fields[0].split_once('-').unwrap();
        let (start, end) = (u64::from_str_radix(start, 16).unwrap(), u64::from_str_radix(end, 16).unwrap());
        let mut region = vec![0u8; (end - start) as usize];
        if memory.seek(SeekFrom::Start(start)).is_err() || memory.read_exact(&mut region).is_err() {
            continue;
        }
        searched += region.len();
        if region.windows(needle.len()).any(|w| w == needle) {
            return Ok(true);
        }
    }
    if searched == 0 {
        return Err("no memory of the kiosk could be read".into());
    }
    Ok(false)
}

/// Drops a PNG file on the kiosk's page, as a demo's user drags a
/// printed badge's picture onto it; the page sends it to the kiosk's
/// camera path, which decodes it as it does a frame.
fn drop_image(browser: &Browser, png: &[u8]) {
    let encoded = base64(png);
    browser.eval(&format!(
        "const b = atob('{encoded}'); const a = new Uint8Array(b.length); for (let i = 0; i < b.length; i++) a[i] = b.charCodeAt(i);
         const files = new DataTransfer(); files.items.add(new File([a], 'credencial.png', {{ type: 'image/png' }}));
         document.body.dispatchEvent(new DragEvent('drop', {{ dataTransfer: files, bubbles: true, cancelable: true }}));"
    ));
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}
