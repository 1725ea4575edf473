//! The powers file's reader: good files in both of Excel's flavours, and
//! every bad row named with its line, its column and why.

use super::*;

const HEAD: &str = "power,principal,agent,agent_name,meeting_date,received_via,received_on,document_sha256";

fn sha(c: char) -> String {
    c.to_string().repeat(64)
}

/// A row of [`HEAD`]'s columns for power `p`, principal `h`.
fn row(p: &str, h: &str) -> String {
    format!("{p},{h},CC-77,Ana Apoderada,2027-03-25,correo-electrónico,2027-03-10,{}", sha('a'))
}

fn read_text(text: &str) -> PowersFile {
    read("poderes.csv", text.as_bytes(), |_| {}).expect("the file reads")
}

/// The (line, column) of each bad row.
fn bad_at(file: &PowersFile) -> Vec<(u64, Option<&'static str>)> {
    file.bad.iter().map(|b| (b.line, b.field)).collect()
}

#[test]
fn a_good_file_gives_one_power_per_reference_with_its_principals() {
    let text = format!(
        "power,principal,agent,agent_name,meeting_date,received_via,received_on,document_sha256,agent_tie,suggested,substitutes,substitute_names,substitute_ties,judgement\n\
         P-1,CC-1,CC-77,Ana Apoderada,2027-03-25,email,2027-03-10,{a},,no,CC-78|CC-79,Sara|Tomás,|empleado,\n\
         P-2,CC-3,CC-80,Luis,,oficina,2027-03-11,{b},vinculado,sí,,,,documento-rechazado\n\
         P-1,CC-2,CC-77,Ana Apoderada,2027-03-25,correo-electrónico,2027-03-10,{a},none,,CC-78|CC-79,Sara|Tomás,none|employee,\n",
        a = sha('a'),
        b = sha('B'),
    );
    let mut seen = Vec::new();
    let file = read("poderes.csv", text.as_bytes(), |n| seen.push(n)).unwrap();
    assert!(file.bad.is_empty(), "{:?}", file.bad);
    assert_eq!(seen.last(), Some(&3));
    assert_eq!(file.powers.len(), 2);
    let (line, first) = &file.powers[0];
    assert_eq!((*line, first.reference.as_str()), (2, "P-1"));
    assert_eq!(first.principals, ["CC-1", "CC-2"]);
    assert_eq!(first.received_via, Reception::Email);
    assert_eq!(first.substitutes.len(), 2);
    assert_eq!(first.substitutes[1].name, "Tomás");
    assert_eq!(first.substitutes[1].tie, Tie::Employee);
    assert!(first.to_lodged().is_ok());
    let (line, second) = &file.powers[1];
    assert_eq!(*line, 3);
    assert_eq!(second.agent_tie, Tie::Administration);
    assert!(second.suggested);
    assert_eq!(second.received_via, Reception::Office);
    assert_eq!(second.judgement, Some(PowerRefusal::DocumentRejected));
    // No date is the rules' refusal (missing-date), not a bad row.
    assert_eq!(second.meeting_date, "");
    assert!(file.notes.is_empty(), "{:?}", file.notes);
}

#[test]
fn what_excel_writes_in_colombia_is_read_and_said() {
    let mut bytes = HEAD.replace(',', ";").into_bytes();
    bytes.extend_from_slice(
        format!("\r\nP-1;CC-1;CC-77;Jos\u{e9} Pe\u{f1}a;25/03/2027;correo;9/3/2027;{}\r\n", sha('c'))
            .as_bytes(),
    );
    // As Windows-1252: é and ñ one byte each.
    let cp1252: Vec<u8> =
        String::from_utf8(bytes).unwrap().chars().map(|c| u8::try_from(u32::from(c)).unwrap()).collect();
    let file = read("poderes.csv", &cp1252[..], |_| {}).unwrap();
    assert!(file.bad.is_empty(), "{:?}", file.bad);
    let power = &file.powers[0].1;
    assert_eq!(power.agent_name, "José Peña");
    assert_eq!(power.received_on, "2027-03-09");
    assert_eq!(power.received_via, Reception::Mail);
    // The meeting's date stays as the power words it.
    assert_eq!(power.meeting_date, "25/03/2027");
    let notes = file.notes.join("\n");
    assert!(notes.contains("Windows-1252"), "{notes}");
    assert!(notes.contains("punto y coma"), "{notes}");
    assert!(notes.contains("DD/MM/AAAA"), "{notes}");
}

#[test]
fn every_bad_row_is_named_with_its_line_and_column_and_the_good_kept() {
    let good = row("P-1", "CC-1");
    let text = [
        HEAD.to_string(),
        good.clone(),                                            // 2 good
        row("P-2", "CC-2").replace(&sha('a'), "abc"),            // 3 bad hash
        row("P-3", "CC-3").replace("correo-electrónico", "fax"), // 4 unknown code
        row("P-4", "CC-4").replace("2027-03-10", "2027-02-30"),  // 5 bad date
        row("P-5", "CC-5").replace("2027-03-10", "mañana"),      // 6 not a date
        row(",", "CC-6").replacen(",,", ",", 1),                 // 7 no reference
        "P-6,CC-7,CC-77".into(),                                 // 8 too few fields
        row("P-7", "CC 8"),                                      // 9 bad id
        row("P-1", "CC-1"),                                      // 10 principal twice in P-1
    ]
    .join("\n");
    let file = read_text(&text);
    assert_eq!(
        bad_at(&file),
        [
            (3, Some("document_sha256")),
            (4, Some("received_via")),
            (5, Some("received_on")),
            (6, Some("received_on")),
            (7, Some("power")),
            (8, None),
            (9, Some("principal")),
            (10, Some("principal")),
            // P-1's good row, named because its power has a bad row.
            (2, Some("power")),
        ]
        .into_iter()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect::<Vec<_>>()
    );
    assert!(file.powers.is_empty());
    // Each says why, Spanish first.
    for bad in &file.bad {
        let (es, en) = bad.message.split_once(" / ").unwrap_or_else(|| panic!("{bad}"));
        assert!(!es.is_empty() && !en.is_empty(), "{bad}");
    }
    assert!(
        file.bad[0]
            .to_string()
            .starts_with("línea / line 2, power: el poder `P-1` tiene una fila con error (línea 10)"),
        "{}",
        file.bad[0]
    );
    assert!(file.bad[2].message.contains("`fax` no es correo"), "{}", file.bad[2]);
    // Two bad rows of two powers, and the good powers kept.
    let text = [
        HEAD.to_string(),
        good,
        row("P-2", "CC-2").replace("correo-electrónico", "fax"),
        row("P-3", "CC-3"),
        row("P-4", "CC-4").replace(&sha('a'), ""),
    ]
    .join("\n");
    let file = read_text(&text);
    assert_eq!(bad_at(&file), [(3, Some("received_via")), (5, Some("document_sha256"))]);
    let kept: Vec<&str> = file.powers.iter().map(|(_, p)| p.reference.as_str()).collect();
    assert_eq!(kept, ["P-1", "P-3"]);
}

#[test]
fn rows_of_one_power_that_disagree_name_the_column() {
    let text = [
        HEAD.to_string(),
        row("P-1", "CC-1"),
        row("P-2", "CC-9"),
        row("P-1", "CC-2").replace("Ana Apoderada", "Ana M. Apoderada"),
        row("P-1", "CC-3"),
    ]
    .join("\n");
    let file = read_text(&text);
    assert_eq!(bad_at(&file), [(2, Some("power")), (4, Some("agent_name")), (5, Some("power"))]);
    assert!(
        file.bad[1].message.contains("no coincide con la línea 2 del mismo poder `P-1`"),
        "{}",
        file.bad[1]
    );
    // The power between them is untouched.
    assert_eq!(file.powers.len(), 1);
    assert_eq!(file.powers[0].1.reference, "P-2");
    // The same hash in another case agrees.
    let text =
        [HEAD.to_string(), row("P-1", "CC-1"), row("P-1", "CC-2").replace(&sha('a'), &sha('A'))].join("\n");
    assert!(read_text(&text).bad.is_empty());
}

#[test]
fn a_column_of_voting_instructions_is_refused_citing_the_superfinanciera() {
    for column in ["instrucciones", "Instrucciones de voto", "voting_instructions", "sentido_voto"] {
        let text = format!("{HEAD},{column}\n");
        let e = read("poderes.csv", text.as_bytes(), |_| {}).unwrap_err();
        assert_eq!(e.line, 1);
        let said = e.to_string();
        assert!(said.starts_with("poderes.csv, línea / line 1: la columna"), "{said}");
        assert!(said.contains("2015060395-003") && said.contains("privadas"), "{said}");
    }
    let e = read("poderes.csv", "power,principal,agent\n".as_bytes(), |_| {}).unwrap_err();
    assert!(e.message.starts_with("falta la columna `agent_name`"), "{e}");
    let e = read("poderes.csv", format!("{HEAD},colour\n").as_bytes(), |_| {}).unwrap_err();
    assert!(e.message.starts_with("columna desconocida `colour`"), "{e}");
}

#[test]
fn a_power_of_more_than_a_thousand_principals_is_bad() {
    let rows = (1..=1_001).map(|i| row("P-1", &format!("CC-{i}")));
    let text = std::iter::once(HEAD.to_string()).chain(rows).collect::<Vec<_>>().join("\n");
    let file = read_text(&text);
    assert!(file.powers.is_empty());
    assert_eq!(file.bad.len(), 1_001);
    let over = file.bad.iter().find(|b| b.field == Some("principal")).expect("the 1.001st named");
    assert_eq!(over.line, 1_002);
    assert!(over.message.contains("ya tiene 1.000 poderdantes"), "{over}");
    // A thousand exactly is one power.
    let rows = (1..=1_000).map(|i| row("P-1", &format!("CC-{i}")));
    let text = std::iter::once(HEAD.to_string()).chain(rows).collect::<Vec<_>>().join("\n");
    let file = read_text(&text);
    assert!(file.bad.is_empty());
    assert_eq!(file.powers[0].1.principals.len(), 1_000);
}

#[test]
fn a_utf16_file_is_refused_whole() {
    let bytes: Vec<u8> =
        [0xFF, 0xFE].into_iter().chain(HEAD.encode_utf16().flat_map(u16::to_le_bytes)).collect();
    let e = read("poderes.csv", &bytes[..], |_| {}).unwrap_err();
    assert!(e.to_string().starts_with("poderes.csv: el archivo está en UTF-16"), "{e}");
}

#[test]
fn the_optional_columns_name_their_own_bad_values() {
    let head = format!("{HEAD},agent_tie,suggested,substitutes,substitute_names,substitute_ties,judgement");
    let with = |p: &str, h: &str, extra: &str| format!("{},{extra}", row(p, h));
    let text = [
        head,
        with("P-1", "CC-1", ",,,,,"),                         // 2 good
        with("P-2", "CC-2", "jefe,,,,,"),                     // 3 unknown tie
        with("P-3", "CC-3", ",quizás,,,,"),                   // 4 not yes or no
        with("P-4", "CC-4", ",,CC-8|CC-9,Sara,,"),            // 5 one name for two
        with("P-5", "CC-5", ",,CC-8,Sara,primo,"),            // 6 unknown substitute tie
        with("P-6", "CC-6", ",,,,,perdido"),                  // 7 unknown judgement
        with("P-7", "CC-7", ",,,,,already-covered"),          // 8 the rules', not the desk's
        with("P-8", "CC-8", ",,CC-1|CC-2|CC-3|CC-4|CC-5,,,"), // 9 five substitutes
        with("P-9", "CC-9", ",,CC-77,,,"),                    // 10 the agent as substitute
        with("P-10", "CC-10", "EMPLEADO,Sí,CC-8,Sara,vinculado,otra-reunión"), // 11 good
    ]
    .join("\n");
    let file = read_text(&text);
    assert_eq!(
        bad_at(&file),
        [
            (3, Some("agent_tie")),
            (4, Some("suggested")),
            (5, Some("substitute_names")),
            (6, Some("substitute_ties")),
            (7, Some("judgement")),
            (8, Some("judgement")),
            (9, Some("substitutes")),
            (10, Some("substitutes")),
        ]
    );
    assert!(file.bad[5].message.contains("lo deciden las reglas"), "{}", file.bad[5]);
    let kept: Vec<&str> = file.powers.iter().map(|(_, p)| p.reference.as_str()).collect();
    assert_eq!(kept, ["P-1", "P-10"]);
    let last = &file.powers[1].1;
    assert_eq!((last.agent_tie, last.suggested), (Tie::Employee, true));
    assert_eq!(last.substitutes[0].tie, Tie::Administration);
    assert_eq!(last.judgement, Some(PowerRefusal::WrongMeeting));
}
