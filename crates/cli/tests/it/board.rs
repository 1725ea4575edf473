//! The public board in a real browser (headless Chromium over WebDriver)
//! against the real daemon over HTTPS: what a projector in the room shows.

use std::time::Duration;

use crate::consoles::Demo;
use crate::webdriver::{self, Browser};

#[test]
fn the_public_board_shows_quorum_and_agenda_in_spanish_and_colombian_numbers() {
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("board::the_public_board_shows_quorum_and_agenda", why);
        return;
    }
    let demo = Demo::start("board");
    let browser = Browser::start();
    browser.size(1280, 720);
    browser.goto(&format!("{}/", demo.base));
    browser.wait_for_text("HAY QUÓRUM", Duration::from_secs(10));
    let text = browser.page_text();
    assert!(text.contains("Inversiones Andinas S.A."), "the company's name is shown: {text}");
    // 215 holders checked in by the demo; shares in Colombian format.
    assert!(text.contains("84.134.118 de 98.000.000 acciones"), "{text}");
    // Each share class apart: the preferred shares are present too, though
    // they do not count toward this meeting's quorum.
    assert!(text.contains("Acciones ordinarias: 84.134.118 de 98.000.000 (85,85\u{a0}%)"), "{text}");
    assert!(text.contains("Acciones preferenciales: ") && text.contains("de 11.178.223"), "{text}");
    let pending = browser.eval(
        "return [...document.querySelectorAll('#items td')].filter((td) => td.textContent === 'pendiente').length;",
    );
    assert_eq!(pending, 7, "the seven agenda items, none opened yet: {text}");
    browser.assert_accessible("tablero (board.rs)");
    assert!(text.contains("Estados financieros de fin de ejercicio 2026"), "the agenda's titles: {text}");
    // The voter's receipt check, linked from the board: a plain form.
    browser.click("a[href='/recibo']");
    browser.wait_for_text("Verifique su recibo", Duration::from_secs(10));
    let form = browser.eval("return document.querySelector('textarea#recibo[name=recibo]') !== null;");
    assert_eq!(form, true, "the receipt page is a form with one field");
    assert!(browser.page_text().contains("Verificar el recibo"));
    browser.assert_accessible("recibo");
    // A receipt that is no receipt: the page's error summary.
    browser.type_into("#recibo", "mi recibo");
    browser.click("form button[type=submit]");
    browser.wait_for_text("Hay un problema", Duration::from_secs(10));
    browser.assert_accessible("recibo-error");
    // A kiosk's code no ballot has: said plainly.
    browser.eval("document.querySelector('#recibo').value = '';");
    browser.type_into("#recibo", "99F1-09F1-A3C2");
    browser.click("form button[type=submit]");
    browser.wait_for_text("Ese código no está en el registro", Duration::from_secs(10));
    browser.assert_accessible("recibo-no-encontrado");
}

/// A mixed meeting's board (and projector) says so under the date, with
/// the remote channel as the notice stated it: on a projector and on a
/// phone.
#[test]
fn the_board_of_a_mixed_meeting_shows_its_remote_channel() {
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("board::the_board_of_a_mixed_meeting_shows_its_remote_channel", why);
        return;
    }
    let meeting = crate::support::SESSIONS_MEETING.replace(
        "profile = \"legal-default\"\n",
        "profile = \"legal-default\"\nmodality = \"mixta\"\n",
    ) + "\n[remote]\nmedium = \"Plataforma Reuniones Andinas, https://asamblea.example.co\"\naccess = \"El enlace y la clave llegan al correo registrado el día anterior\"\nidentity_check = \"Cada asistente muestra su cédula ante la cámara\"\nfloor = \"Se pide la palabra en el chat; la presidencia la concede en orden\"\nidentity_delegated = true\n";
    let demo = Demo::serve("board-mixed", &meeting, crate::support::SESSIONS_REGISTER);
    let browser = Browser::start();
    let shots = crate::consoles::screenshots();
    std::fs::create_dir_all(&shots).unwrap();
    for (width, height, path) in [(1280, 720, "/"), (390, 844, "/"), (1280, 720, "/proyeccion")] {
        browser.size(width, height);
        browser.goto(&format!("{}{path}", demo.base));
        browser.wait_for_text("Reunión mixta: presencial y a distancia", Duration::from_secs(10));
        let text = browser.page_text();
        if path == "/proyeccion" {
            // The projector reads one result on one screen: the modality
            // alone, the channel's details are on the board.
            assert!(!text.contains("Plataforma Reuniones Andinas"), "{text}");
            let name = format!("tablero-mixta-proyeccion-{width}x{height}.png");
            browser.screenshot(&shots.join(name));
            browser.assert_accessible(&format!("tablero mixto {path} {width}"));
            continue;
        }
        for expected in [
            "Medio",
            "Plataforma Reuniones Andinas, https://asamblea.example.co",
            "Acceso",
            "El enlace y la clave llegan al correo registrado el día anterior",
            "Cada asistente muestra su cédula ante la cámara (la verifica el personal de registro, por delegación del representante legal)",
            "Se pide la palabra en el chat; la presidencia la concede en orden",
        ] {
            assert!(text.contains(expected), "{path} at {width}: the board lacks «{expected}»: {text}");
        }
        let name =
            format!("tablero-mixta{}-{width}x{height}.png", path.replace('/', "-").trim_end_matches('-'));
        browser.screenshot(&shots.join(name));
        browser.assert_accessible(&format!("tablero mixto {path} {width}"));
    }
    // The English switch says it in English.
    browser.goto(&format!("{}/", demo.base));
    browser.wait_for_text("Reunión mixta", Duration::from_secs(10));
    browser.click("header button.language");
    browser.wait_for_text("Mixed meeting: in person and remote", Duration::from_secs(10));
    browser.click("header button.language");
    // A presencial meeting's board shows no remote channel.
    let plain =
        Demo::serve("board-plain", crate::support::SESSIONS_MEETING, crate::support::SESSIONS_REGISTER);
    browser.goto(&format!("{}/", plain.base));
    browser.wait_for_text("Sesiones de Prueba S.A.", Duration::from_secs(10));
    assert_eq!(browser.eval("return document.getElementById('modality').hidden;"), true);
}
