//! The staff consoles and the board in a real browser (headless Chromium
//! driven over WebDriver) against the real daemon over HTTPS, as staff
//! use them on the day: sign in with the printed token, check a holder in,
//! open and close a poll, see the result reach the board without a reload,
//! read it at the secretary's console, sign out. Every page is saved as a
//! screenshot at 1280×720 (a projector) and 390×844 (a phone) in
//! `target/screenshots/`.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::webdriver::{self, Browser};

/// The demo daemon, with the staff tokens it printed.
pub(crate) struct Demo {
    daemon: Child,
    pub(crate) dir: PathBuf,
    /// `https://127.0.0.1:PORT`.
    pub(crate) base: String,
    pub(crate) tokens: std::collections::HashMap<String, String>,
}

impl Demo {
    /// `asamblea demo` in a fresh folder on a free port, once it serves.
    pub(crate) fn start(name: &str) -> Demo {
        let dir = std::env::temp_dir().join(format!("asamblea-{name}-{}", std::process::id()));
        crate::support::remove_meeting(&dir);
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut daemon = Command::new(env!("CARGO_BIN_EXE_asamblea"))
            .args(["demo", "--dir", dir.to_str().unwrap(), "--listen", &format!("127.0.0.1:{port}")])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the daemon starts");
        // The tokens are printed once, before the daemon serves.
        let mut tokens = std::collections::HashMap::new();
        let mut lines = BufReader::new(daemon.stdout.take().unwrap()).lines();
        for line in lines.by_ref() {
            let line = line.unwrap();
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() == 3 && ["operator", "chair", "secretary", "auditor"].contains(&words[1]) {
                tokens.insert(words[1].to_string(), words[2].to_string());
            }
            if line.starts_with("Ctrl-C") {
                break;
            }
        }
        // Keep draining what the daemon prints, so it never blocks on it.
        std::thread::spawn(move || for _ in lines {});
        assert_eq!(tokens.len(), 4, "the demo prints a token per role");
        Demo { daemon, dir, base: format!("https://127.0.0.1:{port}"), tokens }
    }
}

impl Demo {
    /// A meeting made with `asamblea init` from the given files, served by
    /// `asamblea serve` on a free port, once it serves.
    pub(crate) fn serve(name: &str, meeting: &str, register: &str) -> Demo {
        let dir = std::env::temp_dir().join(format!("asamblea-{name}-{}", std::process::id()));
        crate::support::remove_meeting(&dir);
        let files = dir.with_extension("files");
        std::fs::create_dir_all(&files).unwrap();
        std::fs::write(files.join("meeting.toml"), meeting).unwrap();
        std::fs::write(files.join("register.csv"), register).unwrap();
        let init = Command::new(env!("CARGO_BIN_EXE_asamblea"))
            .args(["init", dir.to_str().unwrap(), "--meeting"])
            .arg(files.join("meeting.toml"))
            .arg("--register")
            .arg(files.join("register.csv"))
            .output()
            .unwrap();
        assert!(init.status.success(), "{}", String::from_utf8_lossy(&init.stderr));
        let _ = std::fs::remove_dir_all(&files);
        let mut tokens = std::collections::HashMap::new();
        for line in String::from_utf8_lossy(&init.stdout).lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() == 3 && ["operator", "chair", "secretary", "auditor"].contains(&words[1]) {
                tokens.insert(words[1].to_string(), words[2].to_string());
            }
        }
        assert_eq!(tokens.len(), 4, "init prints a token per role");
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut daemon = Command::new(env!("CARGO_BIN_EXE_asamblea"))
            .args(["serve", dir.to_str().unwrap(), "--listen", &format!("127.0.0.1:{port}")])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the daemon starts");
        let mut lines = BufReader::new(daemon.stdout.take().unwrap()).lines();
        for line in lines.by_ref() {
            if line.unwrap().starts_with("Ctrl-C") {
                break;
            }
        }
        std::thread::spawn(move || for _ in lines {});
        Demo { daemon, dir, base: format!("https://127.0.0.1:{port}"), tokens }
    }

    /// Kills the daemon as a crash would (SIGKILL).
    pub(crate) fn crash(&mut self) {
        self.daemon.kill().unwrap();
        self.daemon.wait().unwrap();
    }

    /// Starts it again on the same meeting and address.
    pub(crate) fn restart(&mut self) {
        let listen = self.base.trim_start_matches("https://").to_string();
        self.daemon = Command::new(env!("CARGO_BIN_EXE_asamblea"))
            .args(["demo", "--dir", self.dir.to_str().unwrap(), "--listen", &listen])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the daemon starts again");
    }
}

impl Drop for Demo {
    fn drop(&mut self) {
        let _ = self.daemon.kill();
        let _ = self.daemon.wait();
        crate::support::remove_meeting(&self.dir);
    }
}

impl Demo {
    /// Casts ballots on `item` as kiosks do: the desk issues a badge for
    /// each of the largest holders present in person (their key drawn here,
    /// the seed never sent), and an enrolled kiosk sends each holder's
    /// ballot over mutual TLS, `for` until more than half the shares
    /// present are for, then `against`. Returns how many were cast.
    pub(crate) fn cast(&self, item: &str) -> usize {
        self.cast_among(item, &["nit", "cc-1", "cc-5", "cc-7"])
    }

    /// [`Demo::cast`] by the holders the desk's searches for `queries` find.
    pub(crate) fn cast_among(&self, item: &str, queries: &[&str]) -> usize {
        self.enrol_kiosk();
        let meeting = self.meeting();
        let addr: std::net::SocketAddr = self.base.trim_start_matches("https://").parse().unwrap();
        let operator = self.tokens["operator"].clone();
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            use asamblea_kiosk::{kiosk_tls, staff_tls, whole_votes, BadgeSeed, HttpsClient, SignedBallot};
            let mut desk = HttpsClient::connect(addr, staff_tls(&self.dir).unwrap()).await.unwrap();
            let mut kiosk =
                HttpsClient::connect(addr, kiosk_tls(&self.dir, "quiosco-prueba").unwrap()).await.unwrap();
            let (_, status) = desk.get_json("/api/v1/status").await.unwrap();
            let present = status["quorum"]["present_shares"].as_u64().unwrap();
            // The desk's search answers 20 at a time: a few searches give
            // the companies (the largest holders) and enough people.
            let mut holders: Vec<(String, u64)> = Vec::new();
            for q in queries {
                let (_, found) =
                    desk.get_json_as(&format!("/api/v1/holders?q={q}"), &operator).await.unwrap();
                for h in found["holders"].as_array().unwrap() {
                    let id = h["id"].as_str().unwrap().to_string();
                    // Holders with a badge already (the desk printed one
                    // in the browser) vote with it elsewhere in the test.
                    if h["present"] == true
                        && h["via"].is_null()
                        && h["badge"].is_null()
                        && h["shares"]["ORD"].as_u64() > Some(0)
                        && !holders.iter().any(|(known, _)| *known == id)
                    {
                        holders.push((id, h["shares"]["ORD"].as_u64().unwrap()));
                    }
                }
            }
            holders.sort_by_key(|h| std::cmp::Reverse(h.1));
            holders.truncate(30);
            let mut for_shares = 0;
            for (holder, shares) in &holders {
                let seed = BadgeSeed::draw(&meeting).unwrap();
                let (status, issued) =
                    desk.post_json("/api/v1/badges", &seed.request(holder), Some(&operator)).await.unwrap();
                assert!(status.is_success(), "{status} {issued}");
                let option = if 2 * for_shares > present {
                    asamblea_rules::OptionIndex::AGAINST
                } else {
                    for_shares += shares;
                    asamblea_rules::OptionIndex::FOR
                };
                let credential = seed.credential(&issued).unwrap();
                let ballot =
                    SignedBallot::sign(&credential, item, whole_votes(&[holder.as_str()], option).unwrap())
                        .unwrap();
                let (status, receipt) =
                    kiosk.post_body("/api/v1/ballots", ballot.body(), None).await.unwrap();
                assert!(status.is_success(), "{status} {receipt}");
            }
            assert!(2 * for_shares > present, "the ballots cast carry the item: {for_shares} of {present}");
            holders.len()
        })
    }
}

impl Demo {
    /// One ballot from `credential` for `holder` on `item`, sent by an
    /// enrolled kiosk: the answer's status and body.
    fn vote(
        &self,
        credential: &asamblea_wire::Credential,
        item: &str,
        holder: &str,
        option: asamblea_rules::OptionIndex,
    ) -> (u16, serde_json::Value) {
        self.enrol_kiosk();
        let addr: std::net::SocketAddr = self.base.trim_start_matches("https://").parse().unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            use asamblea_kiosk::{kiosk_tls, whole_votes, HttpsClient, SignedBallot};
            let mut kiosk =
                HttpsClient::connect(addr, kiosk_tls(&self.dir, "quiosco-prueba").unwrap()).await.unwrap();
            let ballot =
                SignedBallot::sign(credential, item, whole_votes(&[holder], option).unwrap()).unwrap();
            let (status, answer) = kiosk.post_body("/api/v1/ballots", ballot.body(), None).await.unwrap();
            (status.as_u16(), answer)
        })
    }

    /// `GET path` on the daemon, as `role` (or the public): its JSON.
    fn api_get(&self, path: &str, role: Option<&str>) -> serde_json::Value {
        let addr: std::net::SocketAddr = self.base.trim_start_matches("https://").parse().unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            use asamblea_kiosk::{staff_tls, HttpsClient};
            let mut client = HttpsClient::connect(addr, staff_tls(&self.dir).unwrap()).await.unwrap();
            let (status, answer) = match role {
                Some(role) => client.get_json_as(path, &self.tokens[role]).await.unwrap(),
                None => client.get_json(path).await.unwrap(),
            };
            assert!(status.is_success(), "{path}: {status} {answer}");
            answer
        })
    }

    /// An item's state as the daemon says it (`pending`, `open`, `closed`).
    pub(crate) fn item_state(&self, item: &str) -> String {
        let status = self.api_get("/api/v1/status", None);
        let items = status["items"].as_array().unwrap();
        let found = items.iter().find(|i| i["id"] == item).unwrap_or_else(|| panic!("{item} in {status}"));
        found["state"].as_str().unwrap().to_string()
    }

    /// Checks in, through the API, one holder of the register not present
    /// yet whose id matches `query`; their id.
    pub(crate) fn check_in_one(&self, query: &str) -> String {
        let found = self.api_get(&format!("/api/v1/holders?q={query}"), Some("operator"));
        let holder = found["holders"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["present"] == false)
            .unwrap_or_else(|| panic!("someone absent among {found}"))["id"]
            .as_str()
            .unwrap()
            .to_string();
        let addr: std::net::SocketAddr = self.base.trim_start_matches("https://").parse().unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            use asamblea_kiosk::{staff_tls, HttpsClient};
            let mut desk = HttpsClient::connect(addr, staff_tls(&self.dir).unwrap()).await.unwrap();
            let body = serde_json::json!({ "holder": holder });
            let (status, answer) =
                desk.post_json("/api/v1/checkins", &body, Some(&self.tokens["operator"])).await.unwrap();
            assert!(status.is_success(), "{status} {answer}");
        });
        holder
    }

    /// Enrols the test's kiosk (`asamblea kiosk`, through the running
    /// daemon), once.
    fn enrol_kiosk(&self) {
        if self.dir.join("tls/kiosks/quiosco-prueba.crt").exists() {
            return;
        }
        let enrolled = Command::new(env!("CARGO_BIN_EXE_asamblea"))
            .args(["kiosk", self.dir.to_str().unwrap(), "quiosco-prueba"])
            .output()
            .unwrap();
        assert!(enrolled.status.success(), "{}", String::from_utf8_lossy(&enrolled.stderr));
    }

    /// The meeting's id.
    pub(crate) fn meeting(&self) -> asamblea_wire::MeetingId {
        asamblea_venue::service::MeetingFiles::meeting_id(&self.dir).unwrap()
    }
}

/// The text of the one QR code in a PNG, read by an independent decoder
/// (`rqrr`).
pub(crate) fn decode_qr(png: &[u8]) -> String {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buffer = vec![0; reader.output_buffer_size().expect("size")];
    let frame = reader.next_frame(&mut buffer).expect("a frame");
    let (width, height) = (frame.width as usize, frame.height as usize);
    let channels = frame.line_size / width;
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| {
        buffer[y * frame.line_size + x * channels]
    });
    let grids = image.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code in the picture");
    grids[0].decode().expect("the QR code decodes").1
}

/// The form controls and buttons of the page a screen reader could not
/// name: a control without a label (`<label for>`, around it, or
/// `aria-label`), a button without words. Empty when every one is named.
pub(crate) fn unlabelled(browser: &Browser) -> Vec<String> {
    let found = browser.eval(
        "return [...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
           .filter((c) => c.closest('[hidden]') === null)
           .filter((c) => c.tagName === 'BUTTON'
             ? !(c.getAttribute('aria-label') || c.textContent.trim())
             : !(c.getAttribute('aria-label') || c.closest('label') || (c.id && document.querySelector('label[for=\"' + c.id + '\"]'))))
           .map((c) => c.outerHTML.slice(0, 120));",
    );
    found.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
}

/// Where the test run writes its screenshots (named in the README).
pub(crate) fn screenshots() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).parent().expect("target/tmp is in target").join("screenshots")
}

/// Signs in on `/personal` as `role`, typing the token; waits for the
/// console's heading.
pub(crate) fn sign_in(browser: &Browser, demo: &Demo, role: &str, heading: &str) {
    browser.goto(&format!("{}/personal", demo.base));
    browser.type_into("#clave", &demo.tokens[role]);
    browser.click("form button[type=submit]");
    browser.wait_for_text(heading, Duration::from_secs(10));
}

fn sign_out(browser: &Browser) {
    browser.click(".signout button");
    browser.wait_for_text("Clave del personal", Duration::from_secs(10));
    assert!(browser.url().ends_with("/personal"), "{}", browser.url());
}

#[test]
fn a_meeting_run_from_the_consoles_in_a_real_browser_reaches_the_board_at_once() {
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("consoles::a_meeting_run_from_the_consoles_in_a_real_browser", why);
        return;
    }
    let demo = Demo::start("consoles");
    let browser = Browser::start();
    let shots = screenshots();
    browser.size(1280, 720);

    // The public board, open on the projector the whole time.
    browser.goto(&format!("{}/", demo.base));
    browser.wait_for_text("HAY QUÓRUM", Duration::from_secs(10));
    assert!(browser.page_text().contains("215 accionistas"), "{}", browser.page_text());
    let board = browser.window();
    browser.screenshot(&shots.join("tablero-1280x720.png"));
    browser.assert_accessible("tablero-1280x720");
    assert_eq!(unlabelled(&browser), Vec::<String>::new(), "every control of the board is named");
    // The check sees a control nobody named.
    browser.eval(
        "const probe = document.createElement('input'); probe.id = 'sonda'; document.body.append(probe);",
    );
    assert_eq!(unlabelled(&browser).len(), 1);
    browser.eval("document.getElementById('sonda').remove();");

    // The registration desk, in a second window: sign in, find an absent
    // holder, check them in; the quorum counts them.
    browser.new_window();
    browser.goto(&format!("{}/personal", demo.base));
    browser.screenshot(&shots.join("personal-1280x720.png"));
    browser.assert_accessible("personal-1280x720");
    sign_in(&browser, &demo, "operator", "Registro de asistentes");
    assert!(browser.url().ends_with("/registro"));
    browser.wait_for_text("215 accionistas", Duration::from_secs(10));
    browser.type_into("#buscar", "a");
    browser.find("#resultados button:not(.leave)");
    browser.screenshot(&shots.join("registro-1280x720.png"));
    browser.assert_accessible("registro-1280x720");
    assert_eq!(unlabelled(&browser), Vec::<String>::new(), "every control of the desk is named");
    let who = browser.eval(
        "return document.querySelector('#resultados button:not(.leave)').closest('tr').cells[0].textContent;",
    );
    browser.click("#resultados button:not(.leave)");
    browser.wait_for_text("Llegada registrada", Duration::from_secs(10));
    assert!(browser.page_text().contains(who.as_str().unwrap()), "the message names who arrived");
    browser.wait_for_text("216 accionistas", Duration::from_secs(10));
    // They leave, and come back: the quorum follows.
    let id = who.as_str().unwrap().to_string();
    browser.eval("document.getElementById('buscar').value = '';");
    browser.type_into("#buscar", &id);
    // Only once the list is theirs alone (an earlier search's list may
    // still be on screen while this one is on its way).
    browser.wait_for_text("1 coincide.", Duration::from_secs(10));
    browser.wait_for_text("Registrar salida", Duration::from_secs(10));
    // A departure is asked twice: the confirmation wakes after a moment.
    browser.click("#resultados button.leave");
    browser.wait_for_text("No, sigue presente", Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(800));
    browser.click("#resultados button.danger");
    browser.wait_for_text("Salida registrada", Duration::from_secs(10));
    browser.wait_for_text("215 accionistas", Duration::from_secs(10));
    browser.wait_for_text("ausente", Duration::from_secs(10));
    browser.click("#resultados button:not(.leave)");
    browser.wait_for_text("216 accionistas", Duration::from_secs(10));

    // An agent for two absent holders. Declared an administrator, the
    // rules refuse it as a proxy before anything is recorded (Art. 185);
    // as no one's employee, it is admitted and confirmed.
    browser.eval("document.getElementById('buscar').value = '';");
    browser.type_into("#buscar", "cc-1");
    browser.wait_for_text("coinciden", Duration::from_secs(10));
    let absent = browser.eval(
        "return [...document.querySelectorAll('#resultados tr')].filter((tr) => tr.cells[3].textContent === 'ausente').map((tr) => tr.cells[0].textContent);",
    );
    let absent: Vec<String> =
        absent.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
    assert!(absent.len() >= 2, "two absent holders to represent: {absent:?}");
    browser.type_into("#agente", "CC-99999999");
    // The principals are picked from the search: each absent holder's
    // "+ Representado" adds it to the form.
    for holder in &absent[..2] {
        browser.eval(&format!(
            "[...document.querySelectorAll('#resultados tr')].find((tr) => tr.cells[0].textContent === '{holder}').querySelector('button.principal').click();"
        ));
    }
    assert_eq!(
        browser.eval("return document.getElementById('representados').value;"),
        format!("{}, {}", absent[0], absent[1])
    );
    browser.type_into("#poder", "Poder escrito 17");
    browser.eval("document.getElementById('cargo').value = 'administrator'; document.getElementById('cargo').dispatchEvent(new Event('input', { bubbles: true }));");
    browser.click("#verificar");
    browser.wait_for_text("Art. 185", Duration::from_secs(10));
    assert_eq!(
        browser.eval("return document.getElementById('confirmar').disabled;"),
        true,
        "a refusal cannot be confirmed"
    );
    browser.screenshot(&shots.join("registro-apoderado-rechazado-1280x720.png"));
    browser.assert_accessible("registro-apoderado-rechazado-1280x720");
    // The refusal is recorded for the acta, with its reason, and the
    // desk's figures list it.
    browser.click("#rechazar");
    browser.wait_for_text("Rechazo registrado: CC-99999999", Duration::from_secs(10));
    let refused = browser.eval("return document.getElementById('rechazados').textContent;");
    assert!(
        refused.as_str().unwrap().contains("CC-99999999") && refused.as_str().unwrap().contains("Art. 185"),
        "{refused}"
    );
    // The same agent, declared as no one's employee, is admitted.
    browser.type_into("#agente", "CC-99999999");
    browser.type_into("#representados", &format!("{}, {}", absent[0], absent[1]));
    browser.type_into("#poder", "Poder escrito 17");
    browser.type_into("#agente-nombre", "Pedro Pablo Castaño");
    browser.click("#verificar");
    browser.wait_for_text("Las reglas admiten esta llegada", Duration::from_secs(10));
    browser.click("#confirmar");
    browser.wait_for_text(
        "Llegada registrada: Pedro Pablo Castaño (CC-99999999) con 2 representados",
        Duration::from_secs(10),
    );
    browser.wait_for_text("218 accionistas", Duration::from_secs(10));
    // A badge printed at once for the holder who arrived: the seed drawn
    // in this browser, the QR written here, read back by an independent
    // decoder as this meeting's credential.
    browser.eval("document.getElementById('buscar').value = '';");
    browser.type_into("#buscar", &id);
    browser.wait_for_text("1 coincide.", Duration::from_secs(10));
    browser.click("#resultados button.badge");
    browser.wait_for_text("imprímala", Duration::from_secs(10));
    let badge_png = |browser: &Browser| {
        browser.eval("const svg = document.querySelector('#credencial svg'); svg.style.width = '856px'; svg.style.height = '540px';");
        let png = browser.element_png("#credencial svg");
        browser.eval("const svg = document.querySelector('#credencial svg'); svg.style.width = ''; svg.style.height = '';");
        png
    };
    let first = asamblea_kiosk::parse_badge(&decode_qr(&badge_png(&browser)), &demo.meeting())
        .expect("the printed QR is a credential of this meeting");
    assert!(
        browser.page_text().contains(&format!("Credencial n.º {} para ", first.id().0))
            && browser.page_text().contains(&format!("({id}): imprímala")),
        "the message names whose badge it is"
    );
    browser.screenshot(&shots.join("registro-credencial-1280x720.png"));
    browser.assert_accessible("registro-credencial-1280x720");
    browser.click("#cerrar-credencial");
    // Lost: replaced by a new one in one step, the old one revoked with it.
    browser.wait_for_text(&format!("Reponer credencial n.º {}", first.id().0), Duration::from_secs(10));
    browser.click("#resultados button.badge");
    browser.wait_for_text("pulse otra vez", Duration::from_secs(10));
    browser.click("#resultados button.badge");
    browser.wait_for_text(&format!("Credencial n.º {} revocada", first.id().0), Duration::from_secs(10));
    let second = asamblea_kiosk::parse_badge(&decode_qr(&badge_png(&browser)), &demo.meeting())
        .expect("the new badge is a credential of this meeting");
    assert_eq!(second.id().0, first.id().0 + 1);
    browser.click("#cerrar-credencial");

    // The desk's figures follow: two holders more by proxy, one agent.
    let figures = browser.eval("return document.getElementById('cifras').textContent;");
    assert!(figures.as_str().unwrap().contains("Por apoderado"), "{figures}");
    // The quorum's threshold in words and its series (only "now" so far).
    assert!(
        browser.page_text().contains("Umbral de esta convocatoria: más de la mitad"),
        "the threshold in words"
    );
    assert_eq!(browser.eval("return document.querySelectorAll('#serie svg rect').length;"), 1);
    browser.eval("document.getElementById('figures-title').scrollIntoView();");
    browser.screenshot(&shots.join("registro-cifras-1280x720.png"));
    browser.assert_accessible("registro-cifras-1280x720");
    sign_out(&browser);

    // The chair opens the first item and closes it.
    sign_in(&browser, &demo, "chair", "Presidencia");
    browser.wait_for_text("Aprobación del orden del día", Duration::from_secs(10));
    // Each item shows the rule that will decide it, with its source.
    browser.wait_for_text("Regla: mayoría de las acciones presentes", Duration::from_secs(10));
    assert!(browser.page_text().contains("los administradores y empleados no votan"), "item 2's rule");
    browser.screenshot(&shots.join("presidencia-1280x720.png"));
    browser.assert_accessible("presidencia-1280x720");
    assert_eq!(unlabelled(&browser), Vec::<String>::new(), "every control of the chair's console is named");
    browser.click("#agenda button");
    browser.wait_for_text("Votación abierta: Aprobación del orden del día", Duration::from_secs(10));
    browser.wait_for_text("Cerrar la votación", Duration::from_secs(10));
    // The badge printed in the browser votes; the one it replaced cannot.
    let (status, refused) = demo.vote(&first, "item-1", &id, asamblea_rules::OptionIndex::FOR);
    assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("revoked-badge")), "{refused}");
    let (status, receipt) = demo.vote(&second, "item-1", &id, asamblea_rules::OptionIndex::FOR);
    assert!((200..300).contains(&status), "{status} {receipt}");
    // Kiosks cast ballots; the chair sees the turnout, never the choices.
    let cast = demo.cast("item-1") + 1;
    let started = Instant::now();
    while browser
        .eval("return document.querySelector('#agenda tr td.num').textContent;")
        .as_str()
        .and_then(|shown| shown.parse::<usize>().ok())
        != Some(cast)
    {
        assert!(started.elapsed() < Duration::from_secs(10), "the turnout did not reach {cast}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let row = browser.eval("return document.querySelector('#agenda tr').textContent;");
    assert!(!row.as_str().unwrap().contains("APROBADO"), "no result while the poll is open: {row}");
    // The chair sees the turnout as a share of those present, and since when.
    let open_row = browser.eval("return document.querySelector('#agenda tr').textContent;");
    assert!(
        open_row.as_str().unwrap().contains("de las presentes")
            && open_row.as_str().unwrap().contains("Abierta a las"),
        "{open_row}"
    );
    browser.screenshot(&shots.join("presidencia-abierta-1280x720.png"));
    browser.assert_accessible("presidencia-abierta-1280x720");

    // The room, while the poll is open: which item, vote now at the
    // kiosks, the turnout of those present, and for how long it is open.
    browser.goto(&format!("{}/proyeccion", demo.base));
    browser.wait_for_text("Vote ahora en los quioscos", Duration::from_secs(10));
    browser.wait_for_text("Abierta hace", Duration::from_secs(10));
    let room = browser.page_text();
    assert!(room.contains("VOTACIÓN ABIERTA") && room.contains("Aprobación del orden del día"), "{room}");
    assert!(
        room.contains(&format!("{cast} votos")) && room.contains("de las acciones presentes con voto"),
        "{room}"
    );
    assert!(!room.contains("APROBADO"), "no result while the poll is open: {room}");
    browser.screenshot(&shots.join("proyeccion-abierta-1280x720.png"));
    browser.size(390, 844);
    browser.screenshot(&shots.join("proyeccion-abierta-390x844.png"));
    browser.size(1280, 720);
    browser.goto(&format!("{}/presidencia", demo.base));
    browser.wait_for_text("Cerrar la votación…", Duration::from_secs(10));

    // The console redraws as votes come in; the keyboard stays where it was.
    browser.eval("document.querySelector('#agenda button').focus();");
    let before = browser.eval("return document.querySelector('#agenda tr').dataset.key;");
    demo.check_in_one("cc-12");
    let started = Instant::now();
    while browser.eval("return document.querySelector('#agenda tr').dataset.key;") == before {
        assert!(started.elapsed() < Duration::from_secs(20), "the console never redrew the open item");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(
        browser.eval("return document.activeElement.dataset.focus || document.activeElement.tagName;"),
        "close-item-1",
        "the focus survives the redraw"
    );
    // Closing takes a second, deliberate step: the first press asks, and a
    // second tap at the same place cancels.
    browser.click("#agenda button");
    browser.wait_for_text("no se puede reabrir", Duration::from_secs(10));
    assert_eq!(demo.item_state("item-1"), "open", "one press closes nothing");
    browser.screenshot(&shots.join("presidencia-cerrar-1280x720.png"));
    browser.click("#agenda button");
    browser.wait_for_text("Cerrar la votación…", Duration::from_secs(10));
    assert_eq!(demo.item_state("item-1"), "open", "a double tap closes nothing");
    browser.click("#agenda button");
    browser.click("#agenda button.danger");
    browser.wait_for_text("Votación cerrada", Duration::from_secs(10));
    // The result to read aloud: the decision, the rule, the figures.
    browser.wait_for_text("Resultado para leer en voz alta", Duration::from_secs(10));
    let text = browser.page_text();
    assert!(text.contains("Aprobación del orden del día: APROBADO"), "{text}");
    assert!(
        text.contains("Regla aplicada: mayoría de las acciones presentes")
            && text.contains("Ley 222 de 1995, art. 68")
    );
    assert!(text.contains("Base de la decisión / base") && text.contains("Abstención / abstained"), "{text}");
    // Why it passed, with what was needed.
    assert!(text.contains("Aprobado: ") && text.contains("se necesitaban al menos"), "{text}");
    browser.screenshot(&shots.join("presidencia-resultado-1280x720.png"));
    browser.assert_accessible("presidencia-resultado-1280x720");
    // When the daemon stops answering, the console says its figures are
    // old (every request fails as it would with the daemon stopped).
    browser.eval("window.fetch = () => Promise.reject(new TypeError('offline'));");
    browser.wait_for_text("SIN CONEXIÓN con el servicio", Duration::from_secs(10));
    assert_eq!(browser.eval("return document.body.classList.contains('stale');"), true);
    browser.screenshot(&shots.join("presidencia-sin-conexion-1280x720.png"));
    // The same reading in projector type, on the public projector view.
    browser.goto(&format!("{}/proyeccion?punto=item-1", demo.base));
    browser.wait_for_text("Aprobación del orden del día: APROBADO", Duration::from_secs(10));
    assert!(browser.page_text().contains("se necesitaban al menos"));
    let tall = browser.eval("return document.documentElement.scrollHeight;").as_i64().unwrap();
    assert!(tall <= 720, "the projector view is {tall} px tall: it must fit one 1280×720 screen");
    browser.screenshot(&shots.join("proyeccion-1280x720.png"));
    browser.assert_accessible("proyeccion-1280x720");
    browser.goto(&format!("{}/presidencia", demo.base));
    browser.wait_for_text("Resultado para leer en voz alta", Duration::from_secs(10));
    let chair = browser.window();

    // The board shows the decision in words without being reloaded.
    browser.switch_to(&board);
    // How fast is printed, not asserted: it depends on the machine.
    let took = browser.wait_for_text("APROBADO", Duration::from_secs(10));
    println!("the result reached the board in {took:?}");
    assert!(
        browser.page_text().contains("Aprobación del orden del día"),
        "the board shows the agenda's titles"
    );
    browser.screenshot(&shots.join("tablero-resultado-1280x720.png"));
    browser.assert_accessible("tablero-resultado-1280x720");
    // The English switch changes every word the board writes, not the figures.
    browser.click("header button.language");
    browser.wait_for_text("PASSED", Duration::from_secs(5));
    assert!(browser.page_text().contains("QUORUM ·") && browser.page_text().contains(" holders"));
    browser.screenshot(&shots.join("tablero-ingles-1280x720.png"));
    browser.assert_accessible("tablero-ingles-1280x720");
    browser.click("header button.language");
    browser.wait_for_text("APROBADO", Duration::from_secs(5));
    // The ballots counted on it, by their receipts' hashes.
    browser.click("a.ballots");
    browser.wait_for_text(&format!("{cast} papeletas contadas"), Duration::from_secs(10));
    browser.screenshot(&shots.join("papeletas-1280x720.png"));
    browser.assert_accessible("papeletas-1280x720");
    browser.goto(&format!("{}/", demo.base));
    browser.wait_for_text("APROBADO", Duration::from_secs(10));

    // The secretary reads it; the chair's console is not theirs.
    browser.switch_to(&chair);
    sign_out(&browser);
    sign_in(&browser, &demo, "secretary", "Secretaría");
    browser.wait_for_text("APROBADO", Duration::from_secs(10));
    assert!(browser.page_text().contains("Descargar el paquete"));
    // The register's administrators and employees, and the closed item's
    // impeded shares.
    browser.wait_for_text("Acciones impedidas / impeded shares: 0", Duration::from_secs(10));
    // A written statement handed in by the holder who arrived, about the
    // first item: recorded as a signed event, listed for the acta.
    browser.type_into("#constancia-persona", &id);
    browser.type_into("#constancia-texto", "Dejo constancia de que voté a favor\ny pido copia del acta.");
    browser.click("#constancia-registrar");
    browser.wait_for_text("Constancia registrada", Duration::from_secs(10));
    browser.wait_for_text("y pido copia del acta.", Duration::from_secs(10));
    browser.screenshot(&shots.join("secretaria-constancia-1280x720.png"));
    browser.assert_accessible("secretaria-constancia-1280x720");
    // The quorum series: the first item's open and close.
    assert_eq!(browser.eval("return document.querySelectorAll('#serie-tabla tr').length;"), 2);
    assert!(
        browser.page_text().contains("apertura / open") && browser.page_text().contains("cierre / close")
    );
    // Everyone who attended, as the acta lists them: the holder who
    // arrived at the desk, with when (the page reads the ledger's state).
    let attendance = browser.eval("return document.getElementById('asistencia').textContent;");
    assert!(attendance.as_str().unwrap().contains(&format!("({id})")), "{attendance}");
    assert!(attendance.as_str().unwrap().contains("hasta el cierre"), "{attendance}");
    browser.eval("document.getElementById('attendance-title').scrollIntoView();");
    browser.screenshot(&shots.join("secretaria-asistencia-1280x720.png"));
    let administrators = browser.eval("return document.querySelectorAll('#administradores tr').length;");
    assert!(administrators.as_u64().unwrap() >= 1, "the demo's register has administrators");
    browser.eval("window.scrollTo(0, 0);");
    browser.screenshot(&shots.join("secretaria-1280x720.png"));
    browser.assert_accessible("secretaria-1280x720");
    assert_eq!(
        unlabelled(&browser),
        Vec::<String>::new(),
        "every control of the secretary's console is named"
    );
    // The figures on the pages are the verifier's: `asamblea verify` of
    // the meeting's ledger re-derives the item from its signed events alone.
    let verified = Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(["verify", demo.dir.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stdout));
    let verified: serde_json::Value = serde_json::from_slice(&verified.stdout).unwrap();
    let result = &verified["items"][0]["result"];
    assert_eq!(verified["items"][0]["id"], "item-1");
    let figures: Vec<String> = ["for", "against", "blank", "base"]
        .iter()
        .map(|key| asamblea_documents::numfmt::thousands(result[key].as_u64().unwrap()))
        .collect();
    let secretary_row = browser.eval("return document.querySelector('#agenda tr').textContent;");
    browser.switch_to(&board);
    let board_row = browser.eval("return document.querySelector('#items tr').textContent;");
    browser.switch_to(&chair);
    for figure in &figures {
        assert!(
            secretary_row.as_str().unwrap().contains(figure.as_str()),
            "secretary: {figure} in {secretary_row}"
        );
        assert!(board_row.as_str().unwrap().contains(figure.as_str()), "board: {figure} in {board_row}");
    }

    browser.goto(&format!("{}/presidencia", demo.base));
    browser.wait_for_text("Esta consola no es de su cargo", Duration::from_secs(10));

    // Every page on a phone.
    browser.size(390, 844);
    browser.goto(&format!("{}/secretaria", demo.base));
    browser.wait_for_text("APROBADO", Duration::from_secs(10));
    let wide = browser.eval("return document.documentElement.scrollWidth;").as_i64().unwrap();
    assert!(wide <= 390, "secretaria on a phone is {wide} px wide");
    let first = browser.eval("return document.querySelector('#agenda td').getBoundingClientRect().width;");
    assert!(
        first.as_f64().unwrap() > 300.0,
        "on a phone each result is a card as wide as the screen: {first}"
    );
    browser.screenshot(&shots.join("secretaria-390x844.png"));
    browser.assert_accessible("secretaria-390x844");
    sign_out(&browser);
    browser.screenshot(&shots.join("personal-390x844.png"));
    browser.assert_accessible("personal-390x844");
    for (role, heading, page) in
        [("operator", "Registro de asistentes", "registro"), ("chair", "Presidencia", "presidencia")]
    {
        sign_in(&browser, &demo, role, heading);
        browser.wait_for_text("HAY QUÓRUM", Duration::from_secs(10));
        let wide = browser.eval("return document.documentElement.scrollWidth;").as_i64().unwrap();
        assert!(wide <= 390, "{page} on a phone is {wide} px wide: nothing may run off the screen");
        browser.screenshot(&shots.join(format!("{page}-390x844.png")));
        browser.assert_accessible(&format!("{page}-390x844"));
        sign_out(&browser);
    }
    browser.switch_to(&board);
    browser.size(390, 844);
    browser.wait_for_text("APROBADO", Duration::from_secs(10));
    let wide = browser.eval("return document.documentElement.scrollWidth;").as_i64().unwrap();
    assert!(wide <= 390, "the board on a phone is {wide} px wide");
    browser.screenshot(&shots.join("tablero-390x844.png"));
    browser.assert_accessible("tablero-390x844");
    let started = Instant::now();
    drop(browser);
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn the_board_says_at_once_when_its_feed_drops_and_recovers_by_itself() {
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("consoles::the_board_says_at_once_when_its_feed_drops", why);
        return;
    }
    let mut demo = Demo::start("offline");
    let browser = Browser::start();
    browser.size(1280, 720);
    browser.goto(&format!("{}/", demo.base));
    browser.wait_for_text("HAY QUÓRUM", Duration::from_secs(10));
    assert!(!browser.page_text().contains("SIN CONEXIÓN"));
    demo.crash();
    let took = browser.wait_for_text("SIN CONEXIÓN — datos de las ", Duration::from_secs(10));
    assert!(took < Duration::from_secs(3), "the banner came after {took:?}");
    assert!(browser.page_text().contains("HAY QUÓRUM"), "the last figures stay, marked as old");
    browser.screenshot(&screenshots().join("tablero-sin-conexion-1280x720.png"));
    browser.assert_accessible("tablero-sin-conexion-1280x720");
    demo.restart();
    let started = Instant::now();
    while browser.page_text().contains("SIN CONEXIÓN") {
        assert!(started.elapsed() < Duration::from_secs(30), "the board did not reconnect by itself");
        std::thread::sleep(Duration::from_millis(100));
    }
    browser.wait_for_text("HAY QUÓRUM", Duration::from_secs(10));
}

#[test]
fn the_secretary_reads_in_the_browser_who_may_withdraw_after_a_merger() {
    let shots = screenshots();
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("consoles::the_secretary_reads_who_may_withdraw", why);
        return;
    }
    let demo = Demo::serve("withdrawal", crate::support::MERGER_MEETING, crate::support::MERGER_REGISTER);
    let browser = Browser::start();
    browser.size(1280, 720);
    // The desk checks two holders in; the chair opens the merger; they vote
    // (A for, B against) through an enrolled kiosk; the chair closes it.
    sign_in(&browser, &demo, "operator", "Registro de asistentes");
    for holder in ["A-1", "B-2"] {
        browser.eval("document.getElementById('buscar').value = '';");
        browser.type_into("#buscar", holder);
        browser.wait_for_text("1 coincide.", Duration::from_secs(10));
        browser.click("#resultados button:not(.leave)");
        browser.wait_for_text("Llegada registrada", Duration::from_secs(10));
    }
    sign_out(&browser);
    sign_in(&browser, &demo, "chair", "Presidencia");
    // No poll opens before the chair installs the meeting, with a note
    // for the acta.
    browser.wait_for_text("Instale la reunión para abrir votaciones", Duration::from_secs(10));
    browser.type_into("#sesion-nota", "verificado el quórum por la presidencia");
    browser.click("#sesion-acciones button");
    browser.wait_for_text("Reunión instalada", Duration::from_secs(10));
    browser.wait_for_text("verificado el quórum por la presidencia", Duration::from_secs(10));
    browser.screenshot(&shots.join("presidencia-instalada-1280x720.png"));
    browser.assert_accessible("presidencia-instalada-1280x720");
    browser.wait_for_text("Abrir la votación", Duration::from_secs(10));
    browser.click("#agenda button");
    browser.wait_for_text("Cerrar la votación", Duration::from_secs(10));
    // A-1 (500 shares) for, then B-2 against: more than half is for.
    assert_eq!(demo.cast_among("fusion", &["a-1", "b-2"]), 2);
    browser.click("#agenda button");
    browser.wait_for_text("no se puede reabrir", Duration::from_secs(10));
    browser.click("#agenda button.danger");
    browser.wait_for_text("Resultado para leer en voz alta", Duration::from_secs(10));
    sign_out(&browser);
    // The secretary reads who may withdraw: the dissenter and the absent
    // holder, by name and shares.
    sign_in(&browser, &demo, "secretary", "Secretaría");
    browser.wait_for_text("Pueden retirarse", Duration::from_secs(10));
    let list = browser.eval("return document.getElementById('retiro').textContent;");
    let list = list.as_str().unwrap();
    assert!(
        list.contains("B-2 · Bernardo Ruiz · 300 ORD") && list.contains("C-3 · Carmen Díaz · 200 ORD"),
        "{list}"
    );
    assert!(!list.contains("A-1"), "who voted for may not withdraw: {list}");
    browser.eval("document.getElementById('retiro').scrollIntoView();");
    browser.screenshot(&screenshots().join("secretaria-retiro-1280x720.png"));
    browser.assert_accessible("secretaria-retiro-1280x720");
}

/// The chair installs the meeting, suspends it with a note, resumes and
/// adjourns it from the console, each act with its hour and quorum on the
/// page; the board shows the whole agenda with its informative items and
/// each list's candidates, and says when the meeting is suspended or over.
/// `meeting` (the sessions' meeting, or one made from it) served, with
/// A-1 and B-2 (900 of its 1.000 shares) checked in, and a browser at
/// 1280×720.
fn sessions_with_quorum(name: &str, meeting: &str) -> (Demo, Browser) {
    let demo = Demo::serve(name, meeting, crate::support::SESSIONS_REGISTER);
    for holder in ["A-1", "B-2"] {
        let out = Command::new(env!("CARGO_BIN_EXE_asamblea"))
            .args(["checkin", demo.dir.to_str().unwrap(), holder])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let browser = Browser::start();
    browser.size(1280, 720);
    (demo, browser)
}

#[test]
fn the_chair_runs_the_sessions_and_the_board_names_the_candidates() {
    let shots = screenshots();
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("consoles::the_chair_runs_the_sessions", why);
        return;
    }
    let (demo, browser) = sessions_with_quorum("sessions", crate::support::SESSIONS_MEETING);
    // The board before the installation: the whole agenda, in its order,
    // with the candidates of each list.
    browser.goto(&format!("{}/", demo.base));
    browser.wait_for_text("Reunión aún sin instalar", Duration::from_secs(10));
    let board = browser.page_text();
    let at = |text: &str| board.find(text).unwrap_or_else(|| panic!("the board lacks «{text}»: {board}"));
    assert!(at("Verificación del quórum") < at("Elección de la Junta Directiva"));
    assert!(at("Elección de la Junta Directiva") < at("Proposiciones y varios"));
    assert!(board.contains("punto informativo: no se vota"), "{board}");
    assert!(
        board.contains("Lista A: Ana Pérez (suplente: Luis Gómez); Jorge Castro (suplente: Paula Ríos)"),
        "{board}"
    );
    assert!(board.contains("Lista B: Carla Ruiz"), "{board}");
    browser.screenshot(&shots.join("tablero-candidatos-1280x720.png"));
    browser.assert_accessible("tablero-candidatos-1280x720");

    sign_in(&browser, &demo, "chair", "Presidencia");
    browser.wait_for_text("Sin instalar", Duration::from_secs(10));
    browser.wait_for_text("Instale la reunión para abrir votaciones", Duration::from_secs(10));
    browser.wait_for_text("Ana Pérez (suplente: Luis Gómez)", Duration::from_secs(10));
    browser.type_into("#sesion-nota", "verificado el quórum");
    browser.click("#sesion-acciones button");
    browser.wait_for_text("Reunión instalada", Duration::from_secs(10));
    browser.wait_for_text("Instalación a las", Duration::from_secs(10));
    browser.type_into("#sesion-nota", "se reanuda a las 14:00 en el mismo lugar");
    browser.click("#sesion-acciones button[data-focus=session-suspend]");
    browser.wait_for_text("Suspendida: nada se vota hasta reanudarla", Duration::from_secs(10));
    browser.wait_for_text("se reanuda a las 14:00 en el mismo lugar", Duration::from_secs(10));
    browser.wait_for_text("Reunión suspendida", Duration::from_secs(10));
    browser.screenshot(&shots.join("presidencia-suspendida-1280x720.png"));
    browser.assert_accessible("presidencia-suspendida-1280x720");
    assert_eq!(unlabelled(&browser), Vec::<String>::new(), "every control of the sessions is named");
    browser.click("#sesion-acciones button[data-focus=session-resume]");
    browser.wait_for_text("Reunión reanudada", Duration::from_secs(10));
    // Adjourning is asked twice: it cannot be undone.
    browser.click("#sesion-acciones button[data-focus=session-ask]");
    browser.wait_for_text("¿Levantar la sesión?", Duration::from_secs(10));
    browser.click("#sesion-acciones button.danger");
    browser.wait_for_text("Sesión levantada: la reunión terminó", Duration::from_secs(10));
    let page = browser.page_text();
    for step in
        ["Instalación a las", "Suspensión a las", "Reanudación a las", "Levantamiento de la sesión a las"]
    {
        assert!(page.contains(step), "the console lists «{step}»: {page}");
    }
    browser.screenshot(&shots.join("presidencia-levantada-1280x720.png"));
    browser.assert_accessible("presidencia-levantada-1280x720");
    browser.goto(&format!("{}/", demo.base));
    browser.wait_for_text("Sesión levantada: la reunión terminó", Duration::from_secs(10));
}

/// Poll timing on the screens (rules.md §11.5): the chair's close button
/// waits, saying why, until the close is announced and its countdown has
/// run; the announcement is one clear button with the countdown's length,
/// and the console and the projector count it down. A countdown of ten
/// minutes keeps every screenshot the same whatever the machine's speed.
#[test]
fn the_chair_announces_the_close_and_every_screen_counts_it_down() {
    let shots = screenshots();
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("consoles::the_chair_announces_the_close", why);
        return;
    }
    let meeting = crate::support::SESSIONS_MEETING
        .replace("poll_minimum_open_seconds = 0", "poll_minimum_open_seconds = 120")
        .replace("poll_minimum_countdown_seconds = 0", "poll_minimum_countdown_seconds = 600");
    let (demo, browser) = sessions_with_quorum("timing", &meeting);
    sign_in(&browser, &demo, "chair", "Presidencia");
    browser.wait_for_text("Sin instalar", Duration::from_secs(10));
    browser.click("#sesion-acciones button");
    browser.wait_for_text("Reunión instalada", Duration::from_secs(10));
    browser.click("#agenda button");
    browser
        .wait_for_text("Anuncie el cierre con su cuenta regresiva antes de cerrar", Duration::from_secs(10));
    let disabled = |css: &str| browser.eval(&format!("return document.querySelector('{css}').disabled;"));
    assert_eq!(disabled("[data-focus=close-junta]"), true, "no close before the announcement");
    browser.wait_for_text("Anunciar el cierre: 10 min", Duration::from_secs(10));
    browser.click("[data-focus=announce-junta]");
    browser.wait_for_text("Cierre anunciado", Duration::from_secs(10));
    browser.wait_for_text("Cierre en 9 min", Duration::from_secs(10));
    browser.wait_for_text("para poder cerrar la votación", Duration::from_secs(10));
    assert_eq!(disabled("[data-focus=close-junta]"), true, "no close before the countdown has run");
    let page = browser.page_text();
    assert!(page.contains("Faltan 9 min") || page.contains("Faltan 10 min"), "{page}");
    assert!(page.contains("Anunciar de nuevo el cierre: 10 min"), "{page}");
    browser.screenshot(&shots.join("presidencia-cuenta-regresiva-1280x720.png"));
    browser.assert_accessible("presidencia-cuenta-regresiva-1280x720");
    assert_eq!(unlabelled(&browser), Vec::<String>::new(), "every control is named");
    browser.size(390, 844);
    browser.wait_for_text("Cierre en 9 min", Duration::from_secs(10));
    browser.screenshot(&shots.join("presidencia-cuenta-regresiva-390x844.png"));
    browser.goto(&format!("{}/proyeccion", demo.base));
    browser.size(1280, 720);
    browser.wait_for_text("Cierre en 9 min", Duration::from_secs(10));
    browser.wait_for_text("VOTACIÓN ABIERTA", Duration::from_secs(10));
    browser.screenshot(&shots.join("proyeccion-cuenta-regresiva-1280x720.png"));
    browser.assert_accessible("proyeccion-cuenta-regresiva-1280x720");
}
