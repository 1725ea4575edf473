//! The registration desk's badge encoder (`badgeText` in the server's
//! `console.js`) against the QR credential of `docs/ledger-format.md` §9,
//! in a real browser on the page the daemon serves: the desk's browser
//! writes the QR of every badge it prints, so its JavaScript must spell a
//! credential exactly as the document and the kiosk's reader do.

use std::time::{Duration, Instant};

use asamblea_wire::{Credential, CredentialId, MeetingId};

use crate::consoles::{sign_in, Demo};
use crate::webdriver::{self, Browser};

/// The QR text of §10.6, as the document prints it.
fn documented_qr_text() -> String {
    let doc = std::fs::read_to_string(crate::workspace_root().join("docs/ledger-format.md"))
        .expect("docs/ledger-format.md");
    let section = doc.split("### 10.6 Credential").nth(1).expect("ledger-format.md has §10.6");
    let line = section.lines().find_map(|l| l.strip_prefix("QR text: `")).expect("§10.6 prints a QR text");
    line.trim_end_matches('`').to_string()
}

/// What `badgeText(number, seed)` writes on the desk's page, for a badge
/// of `meeting` (the page's `data-meeting`, set to it first when given).
fn badge_text(browser: &Browser, meeting: Option<&MeetingId>, number: u32, seed: &[u8; 32]) -> String {
    let set_meeting = meeting.map_or_else(String::new, |m| {
        format!(
            "document.getElementById('reunion').dataset.meeting = '{}';",
            asamblea_wire::hex::encode(&m.0)
        )
    });
    // WebDriver waits for the promise the script returns.
    let text = browser.eval(&format!(
        "{set_meeting} return badgeText({number}, bytesOf('{}'));",
        asamblea_wire::hex::encode(seed)
    ));
    text.as_str().unwrap_or_else(|| panic!("badgeText answered {text}")).to_string()
}

#[test]
fn the_desks_badge_encoder_in_the_browser_writes_the_documents_credential_vector() {
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("desk_badge::the_desks_badge_encoder_writes_the_documents_vector", why);
        return;
    }
    let demo = Demo::serve("desk-badge", crate::support::MERGER_MEETING, crate::support::MERGER_REGISTER);
    let browser = Browser::start();
    browser.size(1280, 720);
    sign_in(&browser, &demo, "operator", "Registro de asistentes");
    // The script is deferred: wait until it has defined the encoder.
    let started = Instant::now();
    while browser.eval("return typeof badgeText;") != "function" {
        assert!(started.elapsed() < Duration::from_secs(10), "console.js did not load on /registro");
        std::thread::sleep(Duration::from_millis(50));
    }

    // The page's own meeting: what it writes is this meeting's badge, as
    // the kiosk reads it.
    let written = badge_text(&browser, None, 7, &[0x5a; 32]);
    let read = asamblea_kiosk::parse_badge(&written, &demo.meeting()).expect("a badge of the page's meeting");
    assert_eq!(read.id(), CredentialId(7));
    assert_eq!(
        written,
        Credential::generate_from(&demo.meeting(), CredentialId(7), &[0x5a; 32]).to_qr_text()
    );

    // The document's vector (§10: meeting id 00 01 … 1f; credential 1
    // with the attendee seed, 32 × 0x33).
    let vector_meeting = MeetingId(std::array::from_fn(|i| i as u8));
    let expected = documented_qr_text();
    assert_eq!(expected.len(), 83, "§9: 83 characters");
    assert_eq!(badge_text(&browser, Some(&vector_meeting), 1, &[0x33; 32]), expected);

    // The edges the one vector does not reach — the number's every byte
    // and its top bit, seeds of all ones and of every value — agree with
    // the Rust encoder that `crates/wire/tests/vectors.rs` holds to §10.6.
    let counting: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(200));
    for (number, seed) in [(0x0102_0304, [0xff; 32]), (u32::MAX, counting), (1, [0x00; 32])] {
        assert_eq!(
            badge_text(&browser, Some(&vector_meeting), number, &seed),
            Credential::generate_from(&vector_meeting, CredentialId(number), &seed).to_qr_text(),
            "credential {number}, seed {}",
            asamblea_wire::hex::encode(&seed)
        );
    }
    // A check the assertions can fail: another seed is another text.
    assert_ne!(badge_text(&browser, Some(&vector_meeting), 1, &[0x34; 32]), expected);
}
