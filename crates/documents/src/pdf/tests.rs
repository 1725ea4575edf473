//! The PDFs keep every character they are given: a word too long for its
//! line or cell is broken inside, never cut at the edge nor run over the
//! next column, and a character the Liberation fonts lack is set in the
//! fallback font, so poppler's `pdftotext` reads back the whole text.

use super::*;

/// A web address of 170 characters, as a written statement may quote.
fn long_url() -> String {
    let url = format!(
        "https://www.supersociedades.gov.co/documentos/actas/{}/anexo?expediente=2027-000123&folio=45",
        "resolucion-asamblea-ordinaria".repeat(2)
    );
    let url = format!("{url}{}", "x".repeat(170 - url.chars().count()));
    assert_eq!(url.chars().count(), 170);
    url
}

/// One word of 4.000 characters.
fn long_word() -> String {
    "Accionista".repeat(400)
}

/// A name of 256 bytes with no space.
fn long_name() -> String {
    let name = "InversionesDelValleDelCaucaYAsociados".repeat(7);
    name[..256].to_string()
}

const CJK: &str = "山田太郎";
const ARABIC: &str = "محمد بن سلمان";
const EMOJI: &str = "Ana 😀 Ruiz";

/// What the acta says, in blocks: the long texts in paragraphs and in a
/// table's cells, the names in other scripts in both.
fn hard_blocks() -> Vec<Block> {
    let row = |name: &str, shares: &str| vec![name.to_string(), "C.C. 1".to_string(), shares.to_string()];
    vec![
        Block::Title("Acta".into()),
        Block::Text(format!("El accionista dejó constancia escrita: véase {} al respecto.", long_url())),
        Block::Text(format!("Palabra larga: {} y fin.", long_word())),
        Block::Lead(format!("{CJK}:"), format!("intervino {ARABIC} y luego {EMOJI}.")),
        Block::Table(
            vec!["Accionista".into(), "Identificación".into(), "Acciones".into()],
            vec![
                row(&long_name(), "1.234.567"),
                row(CJK, "10"),
                row(ARABIC, "20"),
                row(EMOJI, "30"),
                row(&long_url(), "40"),
            ],
        ),
    ]
}

/// How `pdftotext` orders what it reads.
#[derive(Clone, Copy)]
pub(super) enum Order {
    /// As a person reads the page (right-to-left runs in their logical
    /// order), but a table's lines row by row, across its cells.
    Reading,
    /// In the order it is drawn (`-raw`): each table cell whole before
    /// the next, but a right-to-left run in its visual order.
    Drawn,
}

/// `pdf`'s text as poppler's `pdftotext` reads it in `order`, or `None`
/// (said loudly, and failing in CI) where it is not installed.
pub(super) fn pdf_text(test: &str, pdf: &[u8], order: Order) -> Option<String> {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let child = Command::new("pdftotext")
        .args(match order {
            Order::Reading => &["-enc", "UTF-8", "-", "-"][..],
            Order::Drawn => &["-raw", "-enc", "UTF-8", "-", "-"][..],
        })
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        not_run(test, "no pdftotext (apt-get install poppler-utils)");
        return None;
    };
    child.stdin.take().expect("stdin").write_all(pdf).expect("pdftotext reads the PDF");
    let out = child.wait_with_output().expect("pdftotext runs");
    assert!(out.status.success(), "pdftotext failed: {out:?}");
    Some(String::from_utf8(out.stdout).expect("UTF-8 text"))
}

/// Says loudly that a test needing poppler did not run, and leaves the
/// mark `scripts/test` reports at the end; fails in CI, where it must run.
pub(super) fn not_run(test: &str, why: &str) {
    assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "CI must run this test: {why} (see .ci/run)");
    eprintln!("\n**** PRUEBA NO EJECUTADA / TEST NOT RUN: {test}: {why} ****\n");
    let marks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tmp");
    let _ = std::fs::create_dir_all(&marks);
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(marks.join("browser-tests-not-run"))
        .and_then(|mut f| {
            use std::io::Write as _;
            writeln!(f, "{test}: {why}")
        });
}

/// Text without any white space: a line broken inside a word, or two
/// columns' lines interleaved by `pdftotext`, still hold each text whole
/// where the breaks are removed.
/// `pdftotext` also marks a right-to-left run with embedding controls
/// (U+202B … U+202C), removed here with the white space.
fn squeezed(text: &str) -> String {
    text.chars()
        .filter(|c| {
            !c.is_whitespace()
                && !matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        })
        .collect()
}

/// Every one of `texts` is in `read` whole, but for line breaks and the
/// page numbers at the foot of each page.
fn assert_whole(read: &str, texts: &[String]) {
    let mut read = squeezed(read);
    for page in 1..=20 {
        for total in page..=20 {
            read = read.replace(&format!("Página{page}de{total}"), "");
        }
    }
    for text in texts {
        let wanted = squeezed(text);
        assert!(
            read.contains(&wanted),
            "the PDF lost part of {:?} ({} characters); it reads:\n{read}",
            text.chars().take(60).collect::<String>(),
            text.chars().count()
        );
    }
}

#[test]
fn the_acta_pdf_keeps_every_character_of_long_words_and_other_scripts() {
    let pdf = render(&hard_blocks(), Paper::Carta).unwrap();
    let test = "pdf::tests::acta_keeps_every_character";
    let Some(drawn) = pdf_text(test, &pdf, Order::Drawn) else { return };
    assert_whole(&drawn, &[long_url(), long_word(), long_name(), CJK.into(), EMOJI.into()]);
    let Some(read) = pdf_text(test, &pdf, Order::Reading) else { return };
    assert_whole(&read, &[CJK.into(), ARABIC.into(), EMOJI.into()]);
}

#[test]
fn the_badge_pdf_sets_names_in_other_scripts_in_a_font_that_has_them() {
    let represents = [ARABIC.to_string(), EMOJI.to_string()];
    let name_and_title = format!("{CJK} {EMOJI}");
    let infos = [
        badges::BadgeInfo {
            holder_id: "C.C. 1",
            holder_name: CJK,
            credential_id: 1,
            represents: &[],
            meeting_title: &name_and_title,
            qr_text: "AS1TEST",
        },
        badges::BadgeInfo {
            holder_id: "C.C. 2",
            holder_name: ARABIC,
            credential_id: 2,
            represents: &represents,
            meeting_title: "Asamblea",
            qr_text: "AS1TEST",
        },
        badges::BadgeInfo {
            holder_id: "C.C. 3",
            holder_name: &long_name(),
            credential_id: 3,
            represents: &[],
            meeting_title: "Asamblea",
            qr_text: "AS1TEST",
        },
    ];
    for print in [BadgePrint::One, BadgePrint::Sheets(Paper::A4)] {
        let pdf = super::badges(&infos, print).unwrap();
        let Some(read) = pdf_text("pdf::tests::badges_in_other_scripts", &pdf, Order::Reading) else {
            return;
        };
        assert_whole(&read, &[CJK.into(), ARABIC.into(), EMOJI.into(), long_name()]);
    }
}

/// Every text the layout draws, with its right end: `(page, x, right,
/// baseline)`.
fn texts_drawn(layout: &Layout, fonts: &Fonts) -> Vec<(usize, f32, f32, f32)> {
    let mut out = Vec::new();
    for (page, draws) in layout.pages.iter().enumerate() {
        for draw in draws {
            if let Draw::Text { x, y, size, style, text } = draw {
                out.push((page, *x, x + fonts.width(*style, text, *size), *y));
            }
        }
    }
    out
}

#[test]
fn no_text_runs_past_the_margin_or_into_the_next_column() {
    let fonts = acta_fonts().unwrap();
    for paper in [Paper::Carta, Paper::A4] {
        let layout = lay_out(&hard_blocks(), paper, &fonts);
        let right_margin = layout.paper.0 - MARGIN;
        let texts = texts_drawn(&layout, &fonts);
        assert!(texts.len() > 10, "the blocks draw text");
        for &(page, x, right, baseline) in &texts {
            assert!(
                x >= MARGIN - 0.01 && right <= right_margin + 0.01,
                "a text from {x} to {right} leaves the text width ({MARGIN} to {right_margin})"
            );
            // No column rule crosses the text at its height.
            for draw in &layout.pages[page] {
                if let Draw::Line { from, to } = draw {
                    let vertical = (from.0 - to.0).abs() < 0.01;
                    let beside = from.1.min(to.1) < baseline && from.1.max(to.1) > baseline;
                    assert!(
                        !(vertical && beside && from.0 > x + 0.01 && from.0 < right - 0.01),
                        "a text from {x} to {right} crosses the column rule at {}",
                        from.0
                    );
                }
            }
        }
    }
}

#[test]
fn every_character_drawn_is_in_a_font_that_has_its_glyph() {
    let fonts = acta_fonts().unwrap();
    let layout = lay_out(&hard_blocks(), Paper::Carta, &fonts);
    let mut seen = String::new();
    for draw in layout.pages.iter().flatten() {
        if let Draw::Text { style, text, .. } = draw {
            for (face, run) in fonts.runs(*style, text) {
                for c in run.chars() {
                    assert!(
                        face.advance(c).is_some(),
                        "{c:?} (U+{:04X}) is drawn as an empty box",
                        u32::from(c)
                    );
                }
            }
            seen.push_str(text);
        }
    }
    for c in CJK.chars().chain(ARABIC.chars()).chain(EMOJI.chars()).filter(|c| !c.is_whitespace()) {
        assert!(seen.contains(c), "{c:?} is drawn");
    }
}

#[test]
fn a_word_wider_than_its_line_is_broken_between_characters_and_nothing_is_lost() {
    let fonts = acta_fonts().unwrap();
    let word = long_word();
    let broken = lines(&[(word.clone(), REGULAR), ("fin".into(), BOLD)], 200.0, TEXT, &fonts);
    assert!(broken.len() > 10, "4.000 characters take many lines of 200 points");
    for line in &broken {
        let width: f32 = line.iter().map(|(w, style)| fonts.width(*style, w, TEXT)).sum();
        assert!(width <= 200.0 + 0.01, "a line of {width} points in 200");
    }
    let joined: String = broken.iter().flatten().map(|(w, _)| w.as_str()).collect();
    assert_eq!(joined, format!("{word}fin"), "every character, in order");
    assert_eq!(broken.last().unwrap().last().unwrap(), &("fin".to_string(), BOLD));
    // A line narrower than one character still takes one, and ends.
    let narrow = lines(&[("abc".into(), REGULAR)], 1.0, TEXT, &fonts);
    assert_eq!(narrow.len(), 3);
    // A combining accent stays with its letter.
    let accented = lines(&[("e\u{301}e\u{301}".into(), REGULAR)], 1.0, TEXT, &fonts);
    assert_eq!(accented, [[("e\u{301}".to_string(), REGULAR)], [("e\u{301}".to_string(), REGULAR)]]);
}

#[test]
fn right_to_left_words_are_placed_right_to_left_among_the_others() {
    let line: Vec<Word> =
        ["dijo", "محمد", "بن", "سلمان", "y", "שלום"].iter().map(|w| (w.to_string(), REGULAR)).collect();
    assert_eq!(visual_order(&line), [0, 3, 2, 1, 4, 5]);
}

/// Each signer gets room to sign by hand above a line of their own, and
/// under it the name (or «Nombre:» to write it) and the capacity, two
/// abreast, with nothing drawn in the room; a pair is never split across
/// pages.
#[test]
fn the_signatures_give_each_signer_room_a_line_and_the_name_and_capacity_under_it() {
    let fonts = acta_fonts().unwrap();
    let signer = |name: Option<&str>, capacity: &str| crate::acta::Signer {
        name: name.map(str::to_string),
        capacity: capacity.to_string(),
    };
    let signers = vec![
        signer(Some("María Fernanda Gómez Rueda"), "Presidenta de la reunión"),
        signer(Some("Carlos Andrés Restrepo Vélez"), "Secretario de la reunión"),
        signer(None, "Comisión aprobatoria del acta"),
    ];
    // Far down a page, so that the second pair must move to the next one.
    let mut blocks: Vec<Block> = (0..38).map(|n| Block::Text(format!("Párrafo {n}."))).collect();
    blocks.push(Block::Signatures(signers.clone()));
    let layout = lay_out(&blocks, Paper::Carta, &fonts);
    let mut found = Vec::new();
    for (page, draws) in layout.pages.iter().enumerate() {
        for draw in draws {
            let Draw::Line { from, to } = draw else { continue };
            assert!((from.1 - to.1).abs() < 0.01, "a signature line is horizontal");
            let width = to.0 - from.0;
            assert!(width > 180.0, "a line long enough to sign on: {width} pt");
            // What is drawn on that page near the line: above it, only
            // the paragraphs before; below it, the name then the capacity.
            let texts: Vec<(f32, f32, &str)> = draws
                .iter()
                .filter_map(|d| match d {
                    Draw::Text { x, y, text, .. } if *x >= from.0 - 0.01 && *x < to.0 => {
                        Some((*x, *y, text.as_str()))
                    }
                    _ => None,
                })
                .collect();
            let above = texts.iter().filter(|(_, y, _)| *y < from.1).map(|(_, y, _)| *y).fold(0.0, f32::max);
            assert!(from.1 - above >= SIGNING_ROOM - TEXT, "room to sign: {} pt", from.1 - above);
            let under: Vec<&str> =
                texts.iter().filter(|(_, y, _)| *y > from.1 && *y < from.1 + 40.0).map(|t| t.2).collect();
            found.push((page, from.0, under.join(" ")));
        }
    }
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(found[0].2, "María Fernanda Gómez Rueda Presidenta de la reunión");
    assert_eq!(found[1].2, "Carlos Andrés Restrepo Vélez Secretario de la reunión");
    assert_eq!(found[2].2, "Nombre: Comisión aprobatoria del acta");
    assert_eq!(found[0].0, found[1].0, "a pair on one page");
    assert!(found[1].1 > found[0].1 + 200.0, "abreast");
    assert_eq!(found[2].1, found[0].1, "the next pair starts a row");
}
