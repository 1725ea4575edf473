//! The admission letters read back as a person and a desk scanner read
//! them: poppler's `pdftotext` for the words, and the first page drawn by
//! `pdftoppm` and decoded by `zbarimg` for the QR.

use std::process::Command;

use asamblea_rules::{Call, ClassShares, MeetingKind, ShareClass, Shares};

use super::super::tests::{not_run, pdf_text, Order};
use super::letters as pdf;
use crate::letters::{LetterMeeting, LetterPerson, LetterPower};

fn meeting(classes: Vec<ShareClass>) -> LetterMeeting {
    LetterMeeting {
        company: "Almacenes Generales de Depósito Almagrario S.A.".into(),
        nit: "860.002.180-1".into(),
        kind: MeetingKind::Ordinary,
        call: Call::First,
        date: "2027-03-25".into(),
        time: "10:00".into(),
        place: "Calle 72 n.º 10-07, Bogotá".into(),
        convened_by: Some("Aviso en El Tiempo, por el representante legal".into()),
        convened_on: Some("2027-03-01".into()),
        agenda: vec![
            "Verificación del quórum".into(),
            "Aprobación del orden del día".into(),
            "Estados financieros de 2026".into(),
            "Elección de la Junta Directiva".into(),
        ],
        classes,
    }
}

fn shares(ordinary: u64, preferred: u64) -> ClassShares {
    ClassShares::new(Shares::new(ordinary), Shares::new(preferred))
}

fn holder() -> LetterPerson {
    LetterPerson {
        id: "CC-1032456789".into(),
        name: "José Antonio Pérez Muñoz".into(),
        code: "7QX2M-04KHD".into(),
        own: Some(shares(1_234_567, 0)),
        powers: Vec::new(),
    }
}

/// An agent with one power of `principals` holders, each of `1.000 + i`
/// shares.
fn agent(principals: usize) -> LetterPerson {
    LetterPerson {
        id: "CC-52111222".into(),
        name: "Lucía Fernanda Peña Ortiz".into(),
        code: "R9T3V-XY8WZ".into(),
        own: None,
        powers: vec![LetterPower {
            power: "Poder 2027-0042".into(),
            principals: (1..=principals)
                .map(|i| {
                    (
                        format!("CC-{}", 70_000_000 + i),
                        format!("Poderdante número {i}"),
                        shares(1_000 + i as u64, 0),
                    )
                })
                .collect(),
        }],
    }
}

/// The text of each page, in reading order.
fn pages(test: &str, pdf: &[u8]) -> Option<Vec<String>> {
    let text = pdf_text(test, pdf, Order::Reading)?;
    let mut pages: Vec<String> = text.split('\u{c}').map(str::to_string).collect();
    if pages.last().is_some_and(|p| p.trim().is_empty()) {
        pages.pop();
    }
    Some(pages)
}

/// What `zbarimg` reads from the first page drawn at 150 dpi, or `None`
/// (said loudly) where poppler or zbar is missing.
fn qr_of_first_page(test: &str, pdf: &[u8]) -> Option<String> {
    let dir = std::env::temp_dir().join(format!("asamblea-letters-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let file = dir.join("letter.pdf");
    std::fs::write(&file, pdf).expect("the PDF is written");
    let drawn = Command::new("pdftoppm")
        .args(["-png", "-r", "150", "-f", "1", "-l", "1", "-singlefile"])
        .arg(&file)
        .arg(dir.join("page"))
        .status();
    let Ok(drawn) = drawn else {
        not_run(test, "no pdftoppm (apt-get install poppler-utils)");
        return None;
    };
    assert!(drawn.success(), "pdftoppm failed");
    let Ok(read) = Command::new("zbarimg").args(["--raw", "-q"]).arg(dir.join("page.png")).output() else {
        not_run(test, "no zbarimg (apt-get install zbar-tools)");
        return None;
    };
    let _ = std::fs::remove_dir_all(&dir);
    assert!(read.status.success(), "zbarimg found no code: {read:?}");
    Some(String::from_utf8(read.stdout).expect("text").trim().to_string())
}

#[test]
fn a_holders_letter_says_who_is_expected_and_carries_the_code() {
    let test = "pdf::letters::tests::a_holders_letter";
    let pdf = pdf(&meeting(vec![ShareClass::Ordinary]), &[holder()]).unwrap();
    let Some(pages) = pages(test, &pdf) else { return };
    assert_eq!(pages.len(), 1, "a holder's letter is one page: {pages:#?}");
    let text = &pages[0].split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "Carta de admisión",
        "Almacenes Generales de Depósito Almagrario S.A.",
        "NIT 860.002.180-1",
        "José Antonio Pérez Muñoz",
        "CC-1032456789",
        "7QX2M-04KHD",
        "1.234.567 acciones ordinarias",
        "jueves 25 de marzo de 2027 a las 10:00",
        "Calle 72 n.º 10-07, Bogotá",
        "1 de marzo de 2027",
        "4. Elección de la Junta Directiva",
        "documento de identidad",
        "no es un voto ni una credencial de voto",
        "Página 1 de 1",
    ] {
        assert!(text.contains(expected), "the letter lacks {expected:?}:\n{text}");
    }
    // No class the company does not have.
    assert!(!text.contains("preferenciales"), "{text}");
    let Some(qr) = qr_of_first_page(test, &pdf) else { return };
    assert_eq!(qr, "7QX2M-04KHD", "the QR holds the code and nothing else");
}

#[test]
fn a_long_agents_letter_flows_onto_pages_headed_with_the_person() {
    let test = "pdf::letters::tests::a_long_agents_letter";
    let pdf = pdf(&meeting(vec![ShareClass::Ordinary, ShareClass::Preferred]), &[agent(500)]).unwrap();
    let Some(pages) = pages(test, &pdf) else { return };
    assert!(pages.len() >= 5, "500 principals take pages: {}", pages.len());
    // Lines joined: a sentence may wrap anywhere.
    let all = pages.concat().split_whitespace().collect::<Vec<_>>().join(" ");
    // Every principal, with their shares in Colombian format; the total.
    for i in [1, 250, 500] {
        assert!(all.contains(&format!("CC-{}", 70_000_000 + i)), "principal {i} is missing");
        assert!(all.contains(&format!("Poderdante número {i}")), "principal {i}'s name is missing");
    }
    assert!(all.contains("1.500"), "principal 500's 1.500 shares");
    // 500 × 1.000 + (1 + … + 500) = 625.250 ordinary shares.
    assert!(all.contains("500 poderdantes"), "{}", pages[0]);
    // Only the classes held: no «y 0 preferenciales».
    assert!(all.contains("625.250 acciones ordinarias."), "{}", pages[0]);
    assert!(!all.contains("y 0 preferenciales"), "{}", pages[0]);
    assert!(all.contains("Poder 2027-0042"));
    let total = pages.len();
    for (n, page) in pages.iter().enumerate() {
        assert!(page.contains(&format!("Página {} de {total}", n + 1)), "page {}: {page}", n + 1);
        if n > 0 {
            assert!(
                page.contains(
                    "Carta de admisión de Lucía Fernanda Peña Ortiz · CC-52111222 · código R9T3V-XY8WZ"
                ),
                "page {} lacks the running head:\n{page}",
                n + 1
            );
            // The table's heading row again.
            assert!(page.contains("Poderdante / principal"), "page {}: {page}", n + 1);
            assert!(page.contains("Preferenciales"), "the company's classes, all of them: {page}");
        }
    }
    assert!(!pages[0].contains("Carta de admisión de Lucía"), "the first page has the full head instead");
    // What to bring and what the letter is not, on the first page, before
    // the principals.
    assert!(pages[0].contains("no es un voto ni una credencial de voto"), "{}", pages[0]);
    let Some(qr) = qr_of_first_page(test, &pdf) else { return };
    assert_eq!(qr, "R9T3V-XY8WZ");
}

#[test]
fn a_batch_starts_each_letter_on_a_page_of_its_own() {
    let test = "pdf::letters::tests::a_batch";
    let mut second = holder();
    second.id = "NIT-860002180".into();
    second.name = "Inversiones del Valle S.A.S.".into();
    second.code = "00000-11111".into();
    let people = [holder(), agent(60), second];
    let pdf = pdf(&meeting(vec![ShareClass::Ordinary]), &people).unwrap();
    let Some(pages) = pages(test, &pdf) else { return };
    let starts: Vec<usize> = (0..pages.len()).filter(|&n| pages[n].contains("Página 1 de")).collect();
    assert_eq!(starts.len(), 3, "three letters: {pages:#?}");
    for (start, person) in starts.iter().zip(&people) {
        let page = &pages[*start];
        assert!(page.contains("Admission letter"), "{page}");
        assert!(
            page.contains(&person.name) && page.contains(&person.code),
            "letter of {}: {page}",
            person.id
        );
    }
    // Each letter's pages are counted on their own: the agent's 60
    // principals take more than one, the last saying how many.
    assert_eq!(starts[0], 0);
    let agents = starts[2] - starts[1];
    assert!(agents > 1, "{pages:#?}");
    assert!(pages[starts[2] - 1].contains(&format!("Página {agents} de {agents}")), "{pages:#?}");
}

#[test]
fn no_letters_is_a_page_that_says_so() {
    let test = "pdf::letters::tests::no_letters";
    let pdf = pdf(&meeting(vec![ShareClass::Ordinary]), &[]).unwrap();
    let Some(pages) = pages(test, &pdf) else { return };
    assert_eq!(pages.len(), 1);
    assert!(pages[0].contains("Sin cartas que imprimir"), "{}", pages[0]);
}

/// Writes a holder's and a long agent's letters to `ASAMBLEA_LETTERS_SAMPLE`
/// when it is set, to look at them.
#[test]
fn sample_letters_for_a_reader() {
    let Some(path) = std::env::var_os("ASAMBLEA_LETTERS_SAMPLE") else { return };
    let pdf =
        pdf(&meeting(vec![ShareClass::Ordinary, ShareClass::Preferred]), &[holder(), agent(80)]).unwrap();
    std::fs::write(path, pdf).unwrap();
}
