//! The badges' unit tests: layouts, fitted texts, QR payloads, sheets.

use super::*;

/// A payload of the expected shape: 120 characters of the QR
/// alphanumeric set (digits, capitals, space and `$%*+-./:`).
const LONG_PAYLOAD: &str = "ASM1:CRED:0042:K7Q2M9X4B8T1R5W3Z6P0N2D4F6H8J1L3V5C7Y9G0S2E4U6A8Q1W3E5R7T9Y0U2I4O6P8A1S3D5F7G9H0J2K4L6Z8X1C3V5B7N9M0Q2W";

fn principals() -> Vec<String> {
    vec!["Inversiones El Roble S.A.S.".to_string(), "María Fernanda Ospina Uribe".to_string()]
}

fn badge<'a>(name: &'a str, credential_id: u32, qr_text: &'a str, represents: &'a [String]) -> BadgeInfo<'a> {
    BadgeInfo {
        holder_id: "C.C. 79.123.456",
        holder_name: name,
        credential_id,
        represents,
        meeting_title: "Asamblea General Ordinaria de Accionistas 2025",
        qr_text,
    }
}

/// Decodes a PNG with the `png` crate and reads its QR code with `rqrr`:
/// the text and the error correction level (rqrr gives the raw format
/// bits: 0 is M, 1 L, 2 H, 3 Q).
fn read_png_qr(bytes: &[u8]) -> (String, u16) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buffer = vec![0; reader.output_buffer_size().expect("a bounded image")];
    let frame = reader.next_frame(&mut buffer).expect("a PNG frame");
    assert_eq!((frame.color_type, frame.bit_depth), (png::ColorType::Grayscale, png::BitDepth::Eight));
    let (width, height) = (frame.width as usize, frame.height as usize);
    let mut image =
        rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| buffer[y * frame.line_size + x]);
    let grids = image.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code in the image");
    let (meta, text) = grids[0].decode().expect("a readable QR code");
    (text, meta.ecc_level)
}

#[test]
fn png_round_trips_through_a_qr_reader() {
    for payload in [LONG_PAYLOAD, "A", "ASM1:CRED:7:$%*+-./: 0123456789"] {
        let bytes = badge_png(&badge("Ana", 7, payload, &[]), DEFAULT_PNG_SCALE).unwrap();
        let (text, ecc_level) = read_png_qr(&bytes);
        assert_eq!(text, payload);
        assert_eq!(ecc_level, 3, "error correction level Q");
    }
}

#[test]
fn png_round_trips_at_the_smallest_scale() {
    let bytes = badge_png(&badge("Ana", 7, LONG_PAYLOAD, &[]), 1).unwrap();
    assert_eq!(read_png_qr(&bytes).0, LONG_PAYLOAD);
}

#[test]
fn png_has_the_quiet_zone_the_scale_and_a_print_size() {
    let bytes = badge_png(&badge("Ana", 7, LONG_PAYLOAD, &[]), 8).unwrap();
    let reader = png::Decoder::new(std::io::Cursor::new(&bytes[..])).read_info().unwrap();
    let info = reader.info();
    // 120 alphanumeric characters at level Q: version 7, 45 modules,
    // plus 4 of quiet zone on each side, 8 pixels each.
    assert_eq!((info.width, info.height), (424, 424));
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Grayscale, png::BitDepth::One));
    let dims = info.pixel_dims.expect("a physical size");
    assert_eq!((dims.xppu, dims.unit), (424 * 1000 / 42, png::Unit::Meter));
}

#[test]
fn png_scale_out_of_range_is_refused() {
    let info = badge("Ana", 7, "A", &[]);
    assert_eq!(badge_png(&info, 0), Err(BadgeError::ScaleOutOfRange { scale: 0 }));
    assert_eq!(
        badge_png(&info, MAX_PNG_SCALE + 1),
        Err(BadgeError::ScaleOutOfRange { scale: MAX_PNG_SCALE + 1 })
    );
}

#[test]
fn a_payload_too_big_for_a_badge_is_refused() {
    // Version 10 at level Q holds 154 data codewords, 1,232 bits: 221
    // alphanumeric characters take 4 + 11 + 110 × 11 + 6 = 1,231 of
    // them, a 222nd makes it 1,236 and needs version 11.
    let payload = "A".repeat(222);
    let error = BadgeError::PayloadTooLong { credential_id: 9, chars: 222 };
    assert_eq!(badge_svg(&badge("Ana", 9, &payload, &[])), Err(error.clone()));
    assert_eq!(badge_png(&badge("Ana", 9, &payload, &[]), 8), Err(error.clone()));
    let ok = badge("Ana", 1, "A", &[]);
    assert_eq!(badge_sheet_html(&[ok, badge("Ana", 9, &payload, &[])]), Err(error));
    let svg = badge_svg(&badge("Ana", 9, &"A".repeat(221), &[])).unwrap();
    assert!(
        svg.contains(r#"viewBox="0 0 65 65" shape-rendering="crispEdges""#),
        "57 modules and the quiet zone"
    );
}

/// Reads the QR modules back from a badge's SVG path, draws them at 4
/// pixels per module and reads the code with `rqrr`: the printed badge
/// carries the payload, not only the PNG.
fn read_svg_qr(svg: &str) -> String {
    let viewbox_at = svg.find("shape-rendering=\"crispEdges\"").expect("the QR square");
    let viewbox = &svg[..viewbox_at];
    let viewbox = &viewbox[viewbox.rfind("viewBox=\"0 0 ").unwrap() + 13..];
    let side: usize = viewbox.split(' ').next().unwrap().parse().unwrap();
    let d_at = svg.find(r##"class="qr-modules" fill="#000" d=""##).unwrap() + 34;
    let d = &svg[d_at..d_at + svg[d_at..].find('"').unwrap()];
    let mut dark = vec![false; side * side];
    for run in d.split('M').filter(|run| !run.is_empty()) {
        // `{x} {y}h{n}v1h-{n}z`
        let (x, rest) = run.split_once(' ').unwrap();
        let (y, rest) = rest.split_once('h').unwrap();
        let (n, _) = rest.split_once('v').unwrap();
        let (x, y, n): (usize, usize, usize) = (x.parse().unwrap(), y.parse().unwrap(), n.parse().unwrap());
        for module in &mut dark[y * side + x..y * side + x + n] {
            *module = true;
        }
    }
    let mut image =
        rqrr::PreparedImage::prepare_from_bitmap(side * 4, side * 4, |x, y| dark[(y / 4) * side + x / 4]);
    let grids = image.detect_grids();
    assert_eq!(grids.len(), 1);
    grids[0].decode().expect("a readable QR code").1
}

#[test]
fn svg_qr_round_trips_through_a_qr_reader() {
    let svg = badge_svg(&badge("Ana", 7, LONG_PAYLOAD, &[])).unwrap();
    assert_eq!(read_svg_qr(&svg), LONG_PAYLOAD);
}

fn check_escape(input: &str, expected: &str) {
    assert_eq!(crate::markup::escape(input), expected);
}

#[test]
fn escaping() {
    check_escape("Pérez & Hijos <S.A.>", "Pérez &amp; Hijos &lt;S.A.&gt;");
    check_escape(r#"O'Neil "Ltda""#, "O&apos;Neil &quot;Ltda&quot;");
    check_escape("a\u{0}b\u{1b}c\u{FFFF}", "a\u{FFFD}b\u{FFFD}c\u{FFFD}");
    check_escape("tab\there", "tab\there");
}

#[test]
fn every_text_of_the_badge_is_escaped() {
    let represents = vec!["López & Cía <Ltda>".to_string()];
    let info = BadgeInfo {
        holder_id: "NIT <900.123.456-7>",
        holder_name: "Pérez & Hijos <S.A.>",
        credential_id: 12,
        represents: &represents,
        meeting_title: "Asamblea \"extraordinaria\" & <urgente>",
        qr_text: "A",
    };
    let svg = badge_svg(&info).unwrap();
    assert_well_formed(&svg);
    assert!(svg.contains("<title>Escarapela de Pérez &amp; Hijos &lt;S.A.&gt;</title>"));
    for escaped in ["&lt;S.A.&gt;", "NIT &lt;900.123.456-7&gt;", "&lt;Ltda&gt;", "&quot;extraordinaria&quot;"]
    {
        assert!(svg.contains(escaped), "{escaped} in {svg}");
    }
    for raw in ["<S.A.>", "<900", "<Ltda>", "<urgente>", "& ", "\"extraordinaria"] {
        assert!(!svg.contains(raw), "raw {raw:?} in the SVG");
    }
    let html = badge_sheet_html(&[info]).unwrap();
    assert!(html
        .contains("<title>Escarapelas — Asamblea &quot;extraordinaria&quot; &amp; &lt;urgente&gt;</title>"));
    assert_well_formed(&html);
}

/// A small well-formedness check, enough for what this module writes:
/// tags nest and close, attributes are quoted, every `&` starts an
/// entity, no `<` or `>` appears in text, and there is one root element.
fn assert_well_formed(document: &str) {
    let mut open: Vec<&str> = Vec::new();
    let mut roots = 0;
    let mut rest = document;
    while let Some(at) = rest.find(['<', '&', '>']) {
        let (text, tail) = rest.split_at(at);
        assert!(!text.contains(['<', '>']), "stray angle bracket before {tail:.40}");
        if tail.starts_with('>') {
            panic!("a `>` in text at {tail:.40}");
        }
        if tail.starts_with('&') {
            let entity = &tail[1..tail.find(';').expect("an entity ends with `;`")];
            assert!(
                ["amp", "lt", "gt", "quot", "apos"].contains(&entity),
                "unknown entity &{entity}; at {tail:.40}"
            );
            rest = &tail[entity.len() + 2..];
            continue;
        }
        if let Some(declaration) = tail.strip_prefix("<?").or_else(|| tail.strip_prefix("<!")) {
            rest = &declaration[declaration.find('>').unwrap() + 1..];
            continue;
        }
        // A tag: find its end outside quoted attribute values.
        let mut quote = None;
        let end = tail
            .char_indices()
            .skip(1)
            .find(|&(_, c)| match (quote, c) {
                (None, '"' | '\'') => {
                    quote = Some(c);
                    false
                }
                (Some(q), c) if c == q => {
                    quote = None;
                    false
                }
                (Some(_), '<') => panic!("a `<` inside an attribute at {tail:.60}"),
                (None, '>') => true,
                _ => false,
            })
            .expect("a tag ends with `>`")
            .0;
        let tag = &tail[1..end];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop(), Some(name.trim()), "closing tag out of order");
        } else {
            let name = tag.split(|c: char| c.is_whitespace() || c == '/').next().unwrap();
            assert!(!name.is_empty(), "a tag without a name at {tail:.40}");
            if open.is_empty() {
                roots += 1;
            }
            if !tag.ends_with('/') {
                open.push(name);
            }
        }
        rest = &tail[end + 1..];
    }
    assert!(open.is_empty(), "unclosed tags {open:?}");
    assert_eq!(roots, 1, "one root element");
}

#[test]
fn the_well_formedness_check_can_fail() {
    for broken in ["<svg><g></svg>", "<svg>a & b</svg>", "<svg a=\"<\"/>", "<svg/><svg/>", "<svg>1 > 0</svg>"]
    {
        assert!(std::panic::catch_unwind(|| assert_well_formed(broken)).is_err(), "{broken}");
    }
    assert_well_formed("<?xml version=\"1.0\"?><svg a='1'><g/>x &amp; y</svg>");
}

#[test]
fn badge_svg_is_well_formed_and_shows_everything() {
    let represents = principals();
    let svg = badge_svg(&badge("Jorge Ignacio Pérez Montoya", 42, LONG_PAYLOAD, &represents)).unwrap();
    assert_well_formed(&svg);
    assert!(svg.contains(r#"width="85.6mm" height="54mm" viewBox="0 0 856 540""#));
    for shown in [
        "Jorge",
        "C.C. 79.123.456",
        "Credencial N.º 42",
        "En representación de · On behalf of",
        "Inversiones El Roble S.A.S.,",
        "Ospina Uribe",
        "Asamblea General Ordinaria",
        "Presente este código",
        "Show this code at the voting kiosk",
    ] {
        assert!(svg.contains(shown), "{shown:?} missing from the badge");
    }
    // The payload is in the QR code only, never printed as text.
    assert!(!svg.contains("K7Q2M9X4"));
}

/// The boxes of a badge's texts: none leaves the badge, none overlaps
/// another or the QR square, even with every text far too long.
fn assert_texts_in_place(info: &BadgeInfo<'_>) {
    let blocks = layout_texts(info);
    for (index, block) in blocks.iter().enumerate() {
        assert!(block.x + block.width <= BADGE_WIDTH && block.bottom() <= BADGE_HEIGHT);
        assert!(!block.fitted.lines.is_empty() || block.style.max_size == NAME_STYLE.max_size);
        assert!(block.fitted.lines.len() <= block.style.max_lines);
        let beside_qr = block.x >= QR_X + QR_SIDE || block.bottom() <= QR_Y;
        assert!(beside_qr, "text block {index} over the QR code");
        for other in &blocks[index + 1..] {
            let apart = block.bottom() <= other.top || other.bottom() <= block.top;
            assert!(apart, "text blocks overlap: {:?} and {:?}", block.fitted.lines, other.fitted.lines);
        }
    }
}

#[test]
fn long_texts_stay_in_their_boxes() {
    let many: Vec<String> = (1..=40).map(|i| format!("Sociedad Inversora Número {i} S.A.S.")).collect();
    let long_name = "Inversiones y Construcciones Pérez Montoya & Hijos Sociedad por Acciones Simplificada";
    let long_title = "Asamblea General Extraordinaria de Accionistas de la Sociedad Inversiones y \
                      Construcciones del Valle del Cauca S.A., segunda convocatoria por falta de quórum";
    let mut info = badge(long_name, 4_000_000_000, "A", &many);
    info.meeting_title = long_title;
    info.holder_id = "NIT 900.123.456-7 / C.C. 1.020.304.050 de Bogotá D.C.";
    assert_texts_in_place(&info);
    assert_texts_in_place(&badge("Ana", 1, "A", &[]));
    assert_texts_in_place(&badge("", 1, "A", &[]));
    assert_texts_in_place(&badge("Supercalifragilisticoexpialidoso", 1, "A", &principals()));
    let svg = badge_svg(&info).unwrap();
    assert_well_formed(&svg);
    assert!(svg.contains(" más</text>"), "the principals that do not fit are counted: {svg}");
}

fn check_fit(text: &str, width: u32, max_height: u32, expected_size: u32, expected_lines: &[&str]) {
    let fitted = fit_or_truncate(text, &NAME_STYLE, width, max_height);
    assert_eq!(
        fitted,
        Fitted { size: expected_size, lines: expected_lines.iter().map(|l| l.to_string()).collect() }
    );
}

#[test]
fn fitting_prefers_the_largest_size_then_wraps_then_truncates() {
    // "Ana" at 56: (667 + 556 + 556) × 56 × 1.25 / 1000 = 124 units.
    check_fit("Ana", COLUMN_WIDTH, NAME_MAX_HEIGHT, 56, &["Ana"]);
    check_fit("Ana   Gómez", COLUMN_WIDTH, NAME_MAX_HEIGHT, 56, &["Ana Gómez"]);
    // "Pérez Montoya" in bold at 44 is 6,725‰ × 1.25 × 44 = 369 units, just
    // under the column's 371; at 45 it would be 378.
    check_fit(
        "Jorge Ignacio Pérez Montoya",
        COLUMN_WIDTH,
        NAME_MAX_HEIGHT,
        44,
        &["Jorge Ignacio", "Pérez Montoya"],
    );
    // At the smallest size three lines are not enough: the third takes
    // the rest, every word of it, to be squeezed.
    let name = "Palabra ".repeat(30);
    let fitted = fit_or_truncate(&name, &NAME_STYLE, COLUMN_WIDTH, NAME_MAX_HEIGHT);
    assert_eq!((fitted.size, fitted.lines.len()), (NAME_STYLE.min_size, 3));
    assert_eq!(fitted.lines.join(" "), name.trim_end(), "every word is on the badge");
    assert!(fitted.lines[..2].iter().all(|line| estimated_width(line, fitted.size, true) <= COLUMN_WIDTH));
    assert!(estimated_width(&fitted.lines[2], fitted.size, true) > COLUMN_WIDTH, "the last is squeezed");
}

#[test]
fn only_a_word_wider_than_its_box_is_squeezed() {
    // Each line's size and the width it is squeezed to, if any.
    let lines = |width: u32, text: &str| {
        let mut marks = Vec::new();
        TextBlock::new(0, 0, width, NAME_MAX_HEIGHT, &NAME_STYLE, text).marks(&mut marks);
        marks
            .into_iter()
            .map(|mark| match mark {
                Mark::Text { size, squeeze_to, .. } => (size, squeeze_to),
                _ => unreachable!("a text block marks only text"),
            })
            .collect::<Vec<_>>()
    };
    assert!(lines(200, "Supercalifragilisticoexpialidoso").iter().all(|line| line.1 == Some(200)));
    // "Pérez Montoya" fills the column to within 2 units at size 44.
    assert_eq!(lines(COLUMN_WIDTH, "Jorge Ignacio Pérez Montoya"), [(44, None), (44, None)]);
    assert_eq!(lines(COLUMN_WIDTH, "Ana").iter().filter(|line| line.1.is_some()).count(), 0);
    // The SVG squeezes with textLength.
    let badge = standalone(
        &BadgeInfo {
            holder_id: "C.C. 1",
            holder_name: "Supercalifragilisticoexpialidosamente",
            credential_id: 1,
            represents: &[],
            meeting_title: "Asamblea",
            qr_text: "",
        },
        None,
    );
    assert!(badge.contains(r#"lengthAdjust="spacingAndGlyphs""#), "{badge}");
}

#[test]
fn eleven_badges_make_two_pages() {
    let names: Vec<String> = (1..=11).map(|i| format!("Accionista {i}")).collect();
    let payloads: Vec<String> = (1..=11).map(|i| format!("ASM1:CRED:{i}")).collect();
    let badges: Vec<BadgeInfo<'_>> =
        (0..11).map(|i| badge(&names[i], i as u32 + 1, &payloads[i], &[])).collect();

    let pages = badge_sheet_svg_pages(&badges).unwrap();
    assert_eq!(pages.len(), 2);
    let credentials = |page: &str| -> Vec<u32> {
        page.split("data-credential=\"").skip(1).map(|s| s[..s.find('"').unwrap()].parse().unwrap()).collect()
    };
    assert_eq!(credentials(&pages[0]), (1..=10).collect::<Vec<_>>());
    assert_eq!(credentials(&pages[1]), vec![11]);
    for page in &pages {
        assert_well_formed(page);
        assert!(page.contains(r#"width="210mm" height="297mm" viewBox="0 0 2100 2970""#));
        // Three vertical cuts marked top and bottom, six horizontal
        // ones marked left and right.
        let marks = &page[page.find("class=\"cut-marks\"").unwrap()..];
        assert_eq!(marks[..marks.find("</g>").unwrap()].matches("<line").count(), 3 * 2 + 6 * 2);
    }
    assert!(pages[1].contains("página 2 de 2"));

    let html = badge_sheet_html(&badges).unwrap();
    assert_well_formed(&html);
    assert_eq!(html.matches("<div class=\"page\">").count(), 2);
    assert!(html.contains("size: A4 portrait") && html.contains("break-after: page"));
    assert_eq!(credentials(&html), (1..=11).collect::<Vec<_>>());

    assert_eq!(badge_sheet_svg_pages(&badges[..10]).unwrap().len(), 1);
    assert!(badge_sheet_svg_pages(&[]).unwrap().is_empty());
}

#[test]
fn the_grid_and_its_marks_fit_the_page() {
    assert_eq!((A4_SHEET.grid_x(), A4_SHEET.grid_y()), (194, 135));
    assert_eq!((CARTA_SHEET.grid_x(), CARTA_SHEET.grid_y()), (223, 317));
    // The bottom marks end 5.5 mm above the paper's edge, inside the
    // printable area of common printers, and the clipped page box of
    // the HTML (296 mm) still shows them.
    let lowest = |sheet: Sheet| sheet.cut_marks().iter().map(|m| m.1.max(m.3)).max().unwrap();
    assert_eq!(A4_SHEET.height - lowest(A4_SHEET), 55);
    // Every mark on the paper, none over a badge.
    for sheet in [A4_SHEET, CARTA_SHEET] {
        let badges: Vec<(u32, u32)> = (0..sheet.per_page()).map(|slot| sheet.slot(slot)).collect();
        for (x1, y1, x2, y2) in sheet.cut_marks() {
            assert!(x1.max(x2) <= sheet.width && y1.max(y2) <= sheet.height);
            let over = |x: u32, y: u32| {
                badges
                    .iter()
                    .any(|&(bx, by)| x > bx && x < bx + BADGE_WIDTH && y > by && y < by + BADGE_HEIGHT)
            };
            assert!(!over(x1, y1) && !over(x2, y2), "{sheet:?}: a mark over a badge");
        }
    }
}
