//! The registration desk's day in a real browser (issue 23): a person
//! hands over an ID card and the operator types what is on it, a tired
//! finger taps twice, an agent and a company's representative arrive with
//! names, a row of the register holds no share. Every page checked by
//! axe-core and saved at 1280×720 and 390×844.

use std::time::{Duration, Instant};

use crate::consoles::{screenshots, sign_in, Demo};
use crate::webdriver::{self, Browser};

/// A small meeting for the desk: one item, first call.
const MEETING: &str = r#"company = "Almacenes de Prueba S.A."
nit = "900.000.002-3"
kind = "ordinary"
call = "first"
date = "2027-03-17"
time = "09:00"
place = "Bogotá, sede principal"
convened_by = "Aviso en la página web"
convened_on = "2027-02-20"
profile = "legal-default"

[settings]
poll_minimum_open_seconds = 0
poll_minimum_countdown_seconds = 0

[capital]
ORD = { subscribed = 9_400 }

[[agenda]]
id = "item-1"
title = "Aprobación del orden del día"
matter = "ordinary"
"#;

/// Its register: a person whose card reads 1.085.850.638, a company, names
/// with accents, fourteen more Pérez (a search with many answers), and a
/// row with no share.
fn register() -> String {
    let mut rows = vec![
        "holder_id,name,class,shares,role,split".to_string(),
        "CC-1085850638,José Antonio Pérez Muñoz,ORD,1200,,".to_string(),
        "NIT-860002180,Almagrario S.A.,ORD,5000,,".to_string(),
        "CC-52000111,María Ángela Núñez Peña,ORD,800,,".to_string(),
        "CC-79123456,Andrés Gómez Ortiz,ORD,700,,".to_string(),
        "CC-80999111,Lucía Ramírez Pérez,ORD,300,,".to_string(),
        "CC-12217320,Juan López Díaz,ORD,0,,".to_string(),
    ];
    let given = ["Carlos", "Ana", "Jorge", "Paula", "Mateo", "Sofía", "Diego"];
    for n in 0..14 {
        rows.push(format!("CC-3000{n:04},{} Pérez Gutiérrez,ORD,100,,", given[n % given.len()]));
    }
    rows.join("\n") + "\n"
}

/// The ids of the search's rows, in order.
fn rows(browser: &Browser) -> Vec<String> {
    let ids = browser.eval(
        "return [...document.querySelectorAll('#resultados tr:not(.attending)')].map((tr) => tr.cells[0].textContent);",
    );
    ids.as_array().unwrap().iter().map(|v| v.as_str().unwrap_or("").to_string()).collect()
}

/// Types `typed` into the search, as the operator does, and waits for
/// exactly `expected` (ids in order) to be listed.
fn search(browser: &Browser, typed: &str, expected: &[&str]) {
    browser.eval("document.getElementById('buscar').value = '';");
    browser.type_into("#buscar", typed);
    let started = Instant::now();
    while rows(browser) != expected {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "searching {typed:?} lists {:?}, not {expected:?}; the page says:\n{}",
            rows(browser),
            browser.page_text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The state cell of the first row.
fn state(browser: &Browser) -> String {
    browser
        .eval("return document.querySelector('#resultados tr').cells[3].textContent;")
        .as_str()
        .unwrap()
        .into()
}

/// Waits until the first row's state starts with `wanted`.
fn wait_state(browser: &Browser, wanted: &str) {
    let started = Instant::now();
    while !state(browser).starts_with(wanted) {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the row says {:?}, not {wanted:?}",
            state(browser)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The status line's background, as the operator sees it.
fn message_colour(browser: &Browser) -> String {
    browser
        .eval("return getComputedStyle(document.getElementById('mensaje')).backgroundColor;")
        .as_str()
        .unwrap()
        .to_string()
}

/// A screenshot of the page as it is, checked by axe-core.
fn shot(browser: &Browser, name: &str) {
    browser.screenshot(&screenshots().join(format!("{name}.png")));
    browser.assert_accessible(name);
}

#[test]
fn the_desk_finds_by_the_card_never_undoes_an_arrival_on_a_double_tap_and_names_who_attends() {
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("desk_day::the_desk_finds_by_the_card…", why);
        return;
    }
    let demo = Demo::serve("desk-day", MEETING, &register());
    let browser = Browser::start();
    browser.size(1280, 720);
    sign_in(&browser, &demo, "operator", "Registro de asistentes");
    browser.wait_for_text("20 coinciden", Duration::from_secs(10));
    // The accessibility check sees what it must: a button without words.
    browser.eval(
        "const probe = document.createElement('button'); probe.id = 'sonda'; document.body.append(probe);",
    );
    match browser.axe() {
        Ok(found) => assert!(
            found.iter().any(|v| v.id == "button-name" && v.is_grave() && v.nodes == ["#sonda"]),
            "axe-core missed a nameless button: {found:?}"
        ),
        Err(why) => webdriver::not_run("desk_day::…: axe-core's own check", &why),
    }
    browser.eval("document.getElementById('sonda').remove();");

    // The number on the card, however it is typed; a name without its
    // accents, its words in any order.
    for typed in ["1085850638", "CC 1085850638", "1.085.850.638", "cc-1085850638"] {
        search(&browser, typed, &["CC-1085850638"]);
    }
    assert!(browser.page_text().contains("1 coincide."));
    search(&browser, "860002180", &["NIT-860002180"]);
    search(&browser, "jose perez", &["CC-1085850638"]);
    search(&browser, "nunez pena", &["CC-52000111"]);
    search(&browser, "pena maria", &["CC-52000111"]);

    // Many answers: several above the fold of a 1280×720 screen, each id
    // on one line.
    let many: Vec<String> = std::iter::once("CC-1085850638".to_string())
        .chain(["CC-80999111".to_string()])
        .chain((0..14).map(|n| format!("CC-3000{n:04}")))
        .collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    search(&browser, "perez", &many);
    browser.eval("window.scrollTo(0, 0);");
    browser.screenshot(&screenshots().join("registro-busqueda-1280x720.png"));
    let seen = browser
        .eval("return [...document.querySelectorAll('#resultados tr')].filter((tr) => tr.getBoundingClientRect().bottom <= window.innerHeight).length;")
        .as_u64()
        .unwrap();
    assert!(seen >= 5, "only {seen} results above the fold at 1280×720");
    let wrapped = browser.eval(
        "return [...document.querySelectorAll('#resultados tr')].map((tr) => tr.cells[0]).filter((td) => {
           const r = document.createRange(); r.selectNodeContents(td);
           return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1; }).map((td) => td.textContent);",
    );
    assert_eq!(wrapped, serde_json::json!([]), "ids broken over two lines");
    shot(&browser, "registro-busqueda-1280x720");

    // A double tap on «Registrar llegada»: the second tap lands where the
    // same row now offers the exit, and must not check the person out.
    search(&browser, "1085850638", &["CC-1085850638"]);
    let centre = browser.eval(
        "const r = document.querySelector('#resultados td.actions button, #resultados td:last-child button').getBoundingClientRect();
         return [r.left + r.width / 2, r.top + r.height / 2];",
    );
    let (x, y) = (centre[0].as_f64().unwrap(), centre[1].as_f64().unwrap());
    browser.tap_at(x, y, 1, Duration::ZERO);
    browser.wait_for_text(
        "Llegada registrada: José Antonio Pérez Muñoz (CC-1085850638)",
        Duration::from_secs(10),
    );
    wait_state(&browser, "presente");
    let arrived = message_colour(&browser);
    browser.tap_at(x, y, 1, Duration::ZERO);
    std::thread::sleep(Duration::from_millis(1_500));
    let text = browser.page_text();
    assert!(!text.contains("Salida registrada"), "a second tap checked the person out:\n{text}");
    assert!(state(&browser).starts_with("presente"), "{}", state(&browser));
    assert!(text.contains("No, sigue presente"), "the second tap asks first:\n{text}");
    shot(&browser, "registro-doble-toque-1280x720");
    // A third, impatient tap keeps them in too.
    browser.tap_at(x, y, 1, Duration::ZERO);
    std::thread::sleep(Duration::from_millis(800));
    assert!(state(&browser).starts_with("presente"), "{}", state(&browser));
    assert!(!browser.page_text().contains("Salida registrada"));

    // A departure meant: asked, then confirmed; said in another colour
    // than an arrival.
    browser.click("#resultados button.leave");
    browser.wait_for_text(
        "¿Registrar la salida de José Antonio Pérez Muñoz (CC-1085850638)?",
        Duration::from_secs(10),
    );
    std::thread::sleep(Duration::from_millis(800));
    browser.click("#resultados button.danger");
    browser.wait_for_text(
        "Salida registrada: José Antonio Pérez Muñoz (CC-1085850638)",
        Duration::from_secs(10),
    );
    wait_state(&browser, "ausente");
    let left = message_colour(&browser);
    assert_ne!(left, arrived, "an exit must not look like a success");
    shot(&browser, "registro-salida-1280x720");
    browser.click("#resultados td:last-child button:not(.leave)");
    wait_state(&browser, "presente");

    // An agent for a holder already present: the refusal names the holder.
    browser.type_into("#agente", "CC-71234567");
    browser.type_into("#agente-nombre", "Carlos Andrés Rojas");
    browser.type_into("#representados", "CC-1085850638");
    browser.type_into("#poder", "Poder 4");
    browser.click("#verificar");
    browser.wait_for_text(
        "José Antonio Pérez Muñoz (CC-1085850638) ya está presente en persona",
        Duration::from_secs(10),
    );
    // The same agent, with a name, for two absent holders: the name is on
    // the desk's list, the message and the badge.
    browser.eval("document.getElementById('representados').value = '';");
    browser.type_into("#representados", "CC-79123456, CC-80999111");
    browser.click("#verificar");
    browser.wait_for_text("Las reglas admiten esta llegada", Duration::from_secs(10));
    browser.eval("document.getElementById('apoderado').scrollIntoView();");
    shot(&browser, "registro-apoderado-1280x720");
    browser.click("#confirmar");
    browser.wait_for_text(
        "Llegada registrada: Carlos Andrés Rojas (CC-71234567) con 2 representados",
        Duration::from_secs(10),
    );
    search(&browser, "79123456", &["CC-79123456"]);
    wait_state(&browser, "presente, por Carlos Andrés Rojas (CC-71234567)");
    browser.click("#resultados button.badge");
    browser.wait_for_text("imprímala", Duration::from_secs(10));
    let badge = browser.eval("return document.querySelector('#credencial svg').textContent;");
    let badge = badge.as_str().unwrap();
    assert!(badge.contains("Carlos Andrés Rojas"), "the badge names the agent: {badge}");
    assert!(badge.matches("CC-71234567").count() <= 1, "the agent's id is not their name: {badge}");
    shot(&browser, "registro-credencial-apoderado-1280x720");
    browser.click("#cerrar-credencial");

    // A company in person: who attends for it, and their document.
    search(&browser, "860002180", &["NIT-860002180"]);
    browser.click("#resultados td:last-child button:not(.leave)");
    browser.wait_for_text("Nombre de quien asiste por Almagrario S.A.", Duration::from_secs(10));
    browser.type_into("#asiste-nombre-NIT860002180", "Marta Lucía Gómez");
    browser.type_into("#asiste-documento-NIT860002180", "CC-80999112");
    shot(&browser, "registro-sociedad-1280x720");
    browser.click("#resultados tr.attending button:not(.leave)");
    browser.wait_for_text(
        "Llegada registrada: Almagrario S.A. (NIT-860002180), asiste Marta Lucía Gómez (CC-80999112)",
        Duration::from_secs(10),
    );
    wait_state(&browser, "presente (Marta Lucía Gómez)");

    // A row of the register with no share: refused, saying why.
    search(&browser, "12217320", &["CC-12217320"]);
    browser.click("#resultados td:last-child button:not(.leave)");
    browser.wait_for_text("figura en el libro de accionistas con 0 acciones", Duration::from_secs(10));
    assert!(state(&browser).starts_with("ausente"));
    shot(&browser, "registro-sin-acciones-1280x720");

    // On a phone: the same search, nothing off the screen, the exit asked.
    browser.size(390, 844);
    search(&browser, "perez", &many);
    browser.eval("window.scrollTo(0, 0);");
    let wide = browser.eval("return document.documentElement.scrollWidth;").as_i64().unwrap();
    assert!(wide <= 390, "the desk on a phone is {wide} px wide");
    shot(&browser, "registro-busqueda-390x844");
    search(&browser, "1085850638", &["CC-1085850638"]);
    browser.click("#resultados button.leave");
    browser.wait_for_text("No, sigue presente", Duration::from_secs(10));
    browser.eval("document.querySelector('#resultados tr').scrollIntoView();");
    shot(&browser, "registro-confirmar-salida-390x844");
    browser.click("#resultados td:last-child button.leave");
    browser.wait_for_text("sigue presente", Duration::from_secs(10));
    assert!(state(&browser).starts_with("presente"));
    browser.eval("document.getElementById('apoderado').scrollIntoView();");
    shot(&browser, "registro-apoderado-390x844");
}
