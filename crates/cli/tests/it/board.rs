//! The public board in a real browser (headless Chromium) against the real
//! daemon over HTTPS: what a projector in the room shows.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"].into_iter().find(|b| {
        Command::new(b)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

#[test]
fn the_public_board_shows_quorum_and_agenda_in_spanish_and_colombian_numbers() {
    let Some(browser) = chromium() else {
        // .ci/run installs Chromium; without it this test cannot run here.
        assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "CI must have Chromium (see .ci/run)");
        eprintln!("skipped: no Chromium on this machine (apt-get install chromium)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("asamblea-board-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut daemon = Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(["demo", "--dir", dir.to_str().unwrap(), "--listen", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the daemon starts");
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(60), "the daemon did not start listening");
        std::thread::sleep(Duration::from_millis(100));
    }
    let profile = dir.with_extension("chromium");
    let dump = |page: &str| {
        let output = Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                // The venue CA is not in the browser's store; TLS itself is
                // tested in tls.rs.
                "--ignore-certificate-errors",
                "--virtual-time-budget=5000",
                &format!("--user-data-dir={}", profile.display()),
                "--dump-dom",
                &format!("https://127.0.0.1:{port}{page}"),
            ])
            .stderr(Stdio::null())
            .output()
            .expect("the browser runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let dom = dump("/?once");
    // The voter's receipt check, linked from the board: a plain form.
    let receipt_page = dump("/recibo");
    let _ = daemon.kill();
    let _ = daemon.wait();
    assert!(
        dom.contains(r#"<a href="/recibo">¿Votó? Verifique su recibo"#),
        "the board links the receipt check: {dom}"
    );
    assert!(
        receipt_page.contains("<h1>Verifique su recibo</h1>")
            && receipt_page.contains(r#"<textarea id="recibo" name="recibo""#)
            && receipt_page.contains("Verificar el recibo"),
        "{receipt_page}"
    );
    assert!(dom.contains("Inversiones Andinas S.A."), "the company's name is shown: {dom}");
    assert!(dom.contains(">HAY QUÓRUM</span>"), "the quorum verdict is shown: {dom}");
    // 215 holders checked in by the demo; shares in Colombian format.
    assert!(dom.contains("84.134.118 de 98.000.000 acciones"), "{dom}");
    assert_eq!(
        dom.matches("<td>pendiente</td>").count(),
        7,
        "the seven agenda items, none opened yet: {dom}"
    );
    crate::support::remove_meeting(&dir);
    let _ = std::fs::remove_dir_all(&profile);
}
