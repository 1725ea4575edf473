//! A small W3C WebDriver client for the browser tests: ChromeDriver on
//! loopback drives headless Chromium as a person would — typing, clicking,
//! reading what the page shows, taking screenshots.
//!
//! Written here rather than taken from a crate (fantoccini, thirtyfour):
//! the tests need a dozen commands, each one JSON request over plain HTTP
//! on 127.0.0.1, which `serde_json` and a socket do; a client crate would
//! bring its own HTTP stack and async runtime into the test build.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The W3C name of an element reference in JSON.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Why the browser tests cannot run here, if they cannot.
pub fn missing() -> Option<&'static str> {
    let runs = |program: &str| {
        Command::new(program)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !runs("chromium") {
        return Some("no Chromium (apt-get install chromium)");
    }
    if !runs("chromedriver") {
        return Some("no ChromeDriver (apt-get install chromium-driver)");
    }
    None
}

/// Says loudly that a browser test did not run, and leaves a mark that
/// `scripts/test` reports at the end; fails in CI, where it must run.
pub fn not_run(test: &str, why: &str) {
    assert_ne!(
        std::env::var("CI").as_deref(),
        Ok("true"),
        "CI must run the browser tests: {why} (see .ci/run)"
    );
    eprintln!("\n**** PRUEBA DEL NAVEGADOR NO EJECUTADA / BROWSER TEST NOT RUN: {test}: {why} ****\n");
    let marks = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-tests-not-run");
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(marks)
        .and_then(|mut f| writeln!(f, "{test}: {why}"));
}

/// Where `.ci/run` installs axe-core (`npm install --prefix .tools`), or
/// the file `ASAMBLEA_AXE` names.
pub fn axe_script() -> Result<String, String> {
    let path = std::env::var_os("ASAMBLEA_AXE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| crate::workspace_root().join(".tools/node_modules/axe-core/axe.min.js"));
    std::fs::read_to_string(&path).map_err(|e| {
        format!("no axe-core at {} ({e}): npm install --prefix .tools axe-core@{AXE_VERSION}", path.display())
    })
}

/// The axe-core release `.ci/run` installs (its rules decide what a
/// violation is, so the version is pinned).
pub const AXE_VERSION: &str = "4.14.1";

/// One rule axe-core found broken on a page, with the elements that break
/// it.
#[derive(Debug, Clone)]
pub struct Violation {
    /// The rule (`button-name`, `color-contrast`, …).
    pub id: String,
    /// `minor`, `moderate`, `serious` or `critical`.
    pub impact: String,
    /// What the rule asks, in axe's words.
    pub help: String,
    /// Each element at fault, as a CSS selector.
    pub nodes: Vec<String>,
}

impl Violation {
    /// A violation the bar refuses (serious or critical).
    pub fn is_grave(&self) -> bool {
        self.impact == "serious" || self.impact == "critical"
    }
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {} — {}", self.id, self.impact, self.help, self.nodes.join(" | "))
    }
}

/// A browser session through ChromeDriver.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
}

impl Browser {
    /// Starts ChromeDriver and a headless Chromium that accepts the venue's
    /// self-made certificate (TLS itself is tested in `tls.rs`).
    pub fn start() -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("ChromeDriver starts");
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < Duration::from_secs(30), "ChromeDriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut browser = Browser { driver, port, session: String::new() };
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ];
        let capabilities = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "acceptInsecureCerts": true,
            "goog:chromeOptions": { "args": args },
        } } });
        let created = browser.call("POST", "/session", Some(capabilities));
        browser.session = created["sessionId"].as_str().expect("a session id").to_string();
        browser
    }

    /// One WebDriver command; its `value`. An error answer fails the test.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.try_call(method, path, body).unwrap_or_else(|e| panic!("{e}"))
    }

    /// One WebDriver command; its `value`, or the error it answered.
    fn try_call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut socket = TcpStream::connect(("127.0.0.1", self.port)).expect("ChromeDriver answers");
        socket.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        write!(
            socket,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        // ChromeDriver keeps the connection open: read the head, then
        // exactly the body its Content-Length announces.
        let mut answer = Vec::new();
        let mut chunk = [0u8; 16_384];
        let body_at = loop {
            let read = socket.read(&mut chunk).expect("ChromeDriver answers");
            assert!(read > 0, "ChromeDriver closed the connection mid-answer");
            answer.extend_from_slice(&chunk[..read]);
            if let Some(at) = answer.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
        };
        let head = String::from_utf8_lossy(&answer[..body_at]).to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|n| n.trim().parse().ok())
            .expect("ChromeDriver sends a Content-Length");
        while answer.len() < body_at + length {
            let read = socket.read(&mut chunk).expect("ChromeDriver answers");
            assert!(read > 0, "ChromeDriver closed the connection mid-answer");
            answer.extend_from_slice(&chunk[..read]);
        }
        let json = String::from_utf8_lossy(&answer[body_at..body_at + length]).into_owned();
        let value: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
        if let Some(error) = value["value"]["error"].as_str() {
            return Err(format!("WebDriver {method} {path}: {error}: {}", value["value"]["message"]));
        }
        Ok(value.get("value").cloned().unwrap_or(value))
    }

    fn session_call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    /// Resizes the window to `width` × `height` CSS pixels of viewport.
    pub fn size(&self, width: u32, height: u32) {
        // The window's frame is not the viewport: set it, then correct by
        // the difference the page measures.
        self.session_call("POST", "/window/rect", Some(json!({ "width": width, "height": height })));
        let inner = self.eval("return [window.innerWidth, window.innerHeight];");
        let (w, h) = (inner[0].as_i64().unwrap_or(0), inner[1].as_i64().unwrap_or(0));
        let (dw, dh) = (i64::from(width) - w, i64::from(height) - h);
        if dw != 0 || dh != 0 {
            self.session_call(
                "POST",
                "/window/rect",
                Some(json!({ "width": i64::from(width) + dw, "height": i64::from(height) + dh })),
            );
        }
    }

    /// Cuts this window's network (`true`) or gives it back, as Chromium's
    /// own network emulation does (ChromeDriver's `network_conditions`):
    /// every request and the live feed fail as on a phone that lost its
    /// signal.
    pub fn offline(&self, offline: bool) {
        if offline {
            let conditions = json!({ "network_conditions": {
                "offline": true, "latency": 0, "download_throughput": 0, "upload_throughput": 0,
            } });
            self.session_call("POST", "/chromium/network_conditions", Some(conditions));
        } else {
            self.session_call("DELETE", "/chromium/network_conditions", None);
        }
    }

    /// Opens `url`.
    pub fn goto(&self, url: &str) {
        self.session_call("POST", "/url", Some(json!({ "url": url })));
    }

    /// The address the window shows.
    pub fn url(&self) -> String {
        self.session_call("GET", "/url", None).as_str().unwrap_or("").to_string()
    }

    /// Runs `script` in the page; what it returns.
    pub fn eval(&self, script: &str) -> Value {
        self.session_call("POST", "/execute/sync", Some(json!({ "script": script, "args": [] })))
    }

    /// Runs `script` in the page as an asynchronous function: it ends by
    /// calling its last argument with what it returns.
    pub fn eval_async(&self, script: &str) -> Value {
        self.session_call("POST", "/execute/async", Some(json!({ "script": script, "args": [] })))
    }

    /// axe-core's violations on the page as it is now (every rule axe
    /// runs by default: WCAG 2.0–2.2 A and AA, and its best practices;
    /// and `label-content-name-mismatch`, WCAG 2.5.3, still marked
    /// experimental by axe: a button whose visible words are not in its
    /// accessible name), injected over WebDriver; `Err` when axe-core is
    /// not installed.
    pub fn axe(&self) -> Result<Vec<Violation>, String> {
        if self.eval("return typeof window.axe;") != json!("object") {
            let source = axe_script()?;
            self.eval(&format!("{source}\nreturn true;"));
        }
        let found = self.eval_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'],
               rules: { 'label-content-name-mismatch': { enabled: true } } }).then(
               (r) => done(r.violations.map((v) => ({ id: v.id, impact: v.impact || '', help: v.help,
                 nodes: v.nodes.map((n) => n.target.join(' ')) }))),
               (e) => done({ error: String(e) }));",
        );
        let list = found.as_array().ok_or_else(|| format!("axe-core failed on {}: {found}", self.url()))?;
        Ok(list
            .iter()
            .map(|v| Violation {
                id: v["id"].as_str().unwrap_or_default().to_string(),
                impact: v["impact"].as_str().unwrap_or_default().to_string(),
                help: v["help"].as_str().unwrap_or_default().to_string(),
                nodes: v["nodes"]
                    .as_array()
                    .map(|n| n.iter().filter_map(|t| t.as_str().map(str::to_string)).collect())
                    .unwrap_or_default(),
            })
            .collect())
    }

    /// Fails on any serious or critical axe-core violation on the page
    /// (`page` names it in the message), printing every violation's rule,
    /// impact and elements; prints the count either way, and adds it to
    /// the run's summary (`axe-results` in the target's tmp folder, which
    /// `scripts/test` prints). Without axe-core: says so loudly and marks
    /// the check as not run (a failure in CI), as for a missing browser.
    pub fn assert_accessible(&self, page: &str) {
        let violations = match self.axe() {
            Ok(violations) => violations,
            Err(why) => {
                not_run(&format!("axe-core on {page}"), &why);
                return;
            }
        };
        let grave: Vec<&Violation> = violations.iter().filter(|v| v.is_grave()).collect();
        let line = format!(
            "{page}: {} serious/critical, {} in all ({})",
            grave.len(),
            violations.len(),
            violations.iter().map(|v| format!("{} {}", v.id, v.impact)).collect::<Vec<_>>().join(", ")
        );
        eprintln!("axe-core: {line}");
        let summary = Path::new(env!("CARGO_TARGET_TMPDIR")).join("axe-results");
        let _ = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(summary)
            .and_then(|mut f| writeln!(f, "{line}"));
        assert!(
            grave.is_empty(),
            "axe-core: {} serious or critical violations on {page} ({}):\n{}",
            grave.len(),
            self.url(),
            grave.iter().map(|v| format!("  - {v}")).collect::<Vec<_>>().join("\n")
        );
    }

    /// The first element `css` finds, waiting up to 10 s for it.
    pub fn find(&self, css: &str) -> String {
        let started = Instant::now();
        loop {
            let found = self.eval(&format!("return document.querySelector({}) !== null;", json!(css)));
            if found == json!(true) {
                let element = self.session_call(
                    "POST",
                    "/element",
                    Some(json!({ "using": "css selector", "value": css })),
                );
                return element[ELEMENT]
                    .as_str()
                    .unwrap_or_else(|| panic!("an element reference: {element}"))
                    .to_string();
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "nothing matches {css} on {}:\n{}",
                self.url(),
                self.page_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Types `text` into the element `css` finds, as keys.
    pub fn type_into(&self, css: &str, text: &str) {
        let element = self.find(css);
        self.session_call("POST", &format!("/element/{element}/value"), Some(json!({ "text": text })));
    }

    /// Types `text` as key presses into whatever has the focus, as a
    /// scanner that works as a keyboard does (`\n` is Enter).
    pub fn keys(&self, text: &str) {
        let actions: Vec<Value> = text
            .chars()
            .map(|c| if c == '\n' { '\u{E007}' } else { c })
            .flat_map(|c| {
                [
                    json!({ "type": "keyDown", "value": c.to_string() }),
                    json!({ "type": "keyUp", "value": c.to_string() }),
                ]
            })
            .collect();
        self.session_call(
            "POST",
            "/actions",
            Some(json!({ "actions": [{ "type": "key", "id": "escaner", "actions": actions }] })),
        );
    }

    /// Clicks the element `css` finds (found again if the page redrew it
    /// in between, as a live list does).
    pub fn click(&self, css: &str) {
        for _ in 0..40 {
            let element = self.find(css);
            // In the middle of the view, as a person scrolls to what they
            // touch: clear of a bar fixed at the bottom of the screen.
            let _ = self.try_call(
                "POST",
                &format!("/session/{}/execute/sync", self.session),
                Some(json!({
                    "script": "arguments[0].scrollIntoView({ block: 'center' });",
                    "args": [{ (ELEMENT): element }],
                })),
            );
            let path = format!("/session/{}/element/{element}/click", self.session);
            match self.try_call("POST", &path, Some(json!({}))) {
                Ok(_) => return,
                Err(e) if e.contains("stale element") => std::thread::sleep(Duration::from_millis(50)),
                Err(e) => panic!("{e}"),
            }
        }
        panic!("{css} kept being redrawn on {}", self.url());
    }

    /// Taps the screen at (`x`, `y`) CSS pixels of the viewport, `times`
    /// times, `gap` apart, as a finger does: whatever is under the point at
    /// each tap gets it (a button the page put there in between, too).
    pub fn tap_at(&self, x: f64, y: f64, times: usize, gap: Duration) {
        let mut actions = vec![
            json!({ "type": "pointerMove", "duration": 0, "x": x.round() as i64, "y": y.round() as i64 }),
        ];
        for at in 0..times {
            if at > 0 {
                actions.push(json!({ "type": "pause", "duration": gap.as_millis() as u64 }));
            }
            actions.push(json!({ "type": "pointerDown", "button": 0 }));
            actions.push(json!({ "type": "pointerUp", "button": 0 }));
        }
        self.session_call(
            "POST",
            "/actions",
            Some(json!({ "actions": [{ "type": "pointer", "id": "dedo", "parameters": { "pointerType": "mouse" }, "actions": actions }] })),
        );
        self.session_call("DELETE", "/actions", None);
    }

    /// The text the page shows (what a person reads).
    pub fn page_text(&self) -> String {
        self.eval("return document.body.innerText;").as_str().unwrap_or("").to_string()
    }

    /// Waits until the page shows `text`, up to `limit`; how long it took.
    pub fn wait_for_text(&self, text: &str, limit: Duration) -> Duration {
        let started = Instant::now();
        loop {
            if self.page_text().contains(text) {
                return started.elapsed();
            }
            assert!(
                started.elapsed() < limit,
                "the page at {} did not show {text:?} within {limit:?}; it shows:\n{}",
                self.url(),
                self.page_text()
            );
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Saves a screenshot of the viewport as PNG.
    pub fn screenshot(&self, path: &Path) {
        let encoded = self.session_call("GET", "/screenshot", None);
        let bytes = base64_decode(encoded.as_str().expect("base64"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }

    /// The PNG of one element (the first `css` finds), as the browser
    /// renders it.
    pub fn element_png(&self, css: &str) -> Vec<u8> {
        let element = self.find(css);
        let encoded = self.session_call("GET", &format!("/element/{element}/screenshot"), None);
        base64_decode(encoded.as_str().expect("base64"))
    }

    /// Opens a second window and switches to it; its handle.
    pub fn new_window(&self) -> String {
        let made = self.session_call("POST", "/window/new", Some(json!({ "type": "window" })));
        let handle = made["handle"].as_str().expect("a window handle").to_string();
        self.switch_to(&handle);
        handle
    }

    /// The current window's handle.
    pub fn window(&self) -> String {
        self.session_call("GET", "/window", None).as_str().unwrap_or("").to_string()
    }

    /// Switches to the window `handle`.
    pub fn switch_to(&self, handle: &str) {
        self.session_call("POST", "/window", Some(json!({ "handle": handle })));
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.call("DELETE", &format!("/session/{}", self.session), None)
            }));
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64, as WebDriver sends screenshots.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut buffer, mut bits) = (0u32, 0);
    for sextet in text.bytes().filter_map(value) {
        buffer = (buffer << 6) | u32::from(sextet);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
        }
    }
    out
}
