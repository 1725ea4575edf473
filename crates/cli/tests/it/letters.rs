//! `asamblea cartas`: the admission letters of a meeting through the real
//! binary — every holder's on Carta, one person's alone, its words read
//! back by poppler and its QR by zbar, and a person with no letter
//! refused.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use crate::support::{asamblea, asamblea_ok, meeting_id, remove_meeting};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Whether poppler's tools and zbar are here; said loudly when not.
fn tools(test: &str) -> bool {
    let runs = |tool: &str, arg: &str| Command::new(tool).arg(arg).output().is_ok();
    let here = runs("pdftotext", "-v")
        && runs("pdfinfo", "-v")
        && runs("pdftoppm", "-v")
        && runs("zbarimg", "--version");
    if !here {
        crate::webdriver::not_run(
            test,
            "no pdftotext, pdftoppm or zbarimg (apt-get install poppler-utils zbar-tools)",
        );
    }
    here
}

fn text(pdf: &Path) -> String {
    String::from_utf8(Command::new("pdftotext").arg(pdf).arg("-").output().unwrap().stdout).unwrap()
}

#[test]
fn letters_are_written_one_a_person_on_carta_with_a_code_the_desk_scans() {
    let test = "letters::letters_are_written_one_a_person_on_carta_with_a_code_the_desk_scans";
    let dir = std::env::temp_dir().join(format!("asamblea-letters-{}", std::process::id()));
    remove_meeting(&dir);
    asamblea_ok(&["init", s(&dir)]);
    let meeting = meeting_id(&dir);
    let all = dir.with_extension("cartas.pdf");
    let printed = String::from_utf8(asamblea_ok(&["cartas", s(&dir), "--salida", s(&all)]).stdout).unwrap();
    let holders: BTreeSet<String> = std::fs::read_to_string(dir.join("register.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|line| line.split(',').next().map(str::to_string))
        .collect();
    assert!(printed.contains(&format!("{} cartas / letters", holders.len())), "{printed}");
    let one = dir.with_extension("carta.pdf");
    asamblea_ok(&["cartas", s(&dir), "-o", s(&one), "--persona", "CC-10000000"]);
    let refused = asamblea(&["cartas", s(&dir), "-o", s(&one), "--persona", "CC-NADIE"]);
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("no hay carta de admisión para «CC-NADIE»"), "{said}");
    if !tools(test) {
        return;
    }
    let info =
        |file: &Path| String::from_utf8(Command::new("pdfinfo").arg(file).output().unwrap().stdout).unwrap();
    assert!(info(&all).contains("(letter)"), "{}", info(&all));
    let pages: usize = info(&all)
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("a page count");
    assert!(pages >= holders.len(), "one letter a holder at least: {pages} pages, {} holders", holders.len());
    let everyone = text(&all);
    assert_eq!(everyone.matches("Admission letter").count(), holders.len());
    let code = asamblea_wire::admission_code(&meeting, "CC-10000000").to_string();
    let mine = text(&one);
    for expected in [
        "Ana Moreno Martínez",
        "CC-10000000",
        code.as_str(),
        "27.111 acciones ordinarias y 393.507 preferenciales",
        "Página 1 de 1",
    ] {
        assert!(mine.contains(expected), "the letter lacks {expected:?}:\n{mine}");
    }
    assert!(everyone.contains(&code), "the batch holds the same letter");
    let root = std::env::temp_dir().join(format!("asamblea-letters-qr-{}", std::process::id()));
    let png = root.with_extension("png");
    let drawn = Command::new("pdftoppm")
        .args(["-png", "-r", "150", "-singlefile"])
        .arg(&one)
        .arg(&root)
        .status()
        .unwrap();
    assert!(drawn.success());
    let read = Command::new("zbarimg").args(["--raw", "-q"]).arg(&png).output().unwrap();
    assert_eq!(String::from_utf8(read.stdout).unwrap().trim(), code, "the QR holds the code alone");
    for file in [all, one, png] {
        let _ = std::fs::remove_file(file);
    }
    remove_meeting(&dir);
}
