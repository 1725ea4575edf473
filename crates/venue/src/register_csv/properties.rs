//! Property tests of the register reader: whatever bytes a register file
//! holds — Excel's, a truncated copy, a mistyped field, noise — the import
//! never panics, and a file it refuses is refused with a message that
//! names the file and says what is wrong in Spanish and in English.

use proptest::prelude::*;

use asamblea_rules::{Capital, ClassCapital, Shares};

use super::{import, ImportError, Imported};

/// Room enough for every register generated below.
fn capital() -> Capital {
    Capital {
        ordinary: ClassCapital::new(Shares::new(10_000_000_000_000), Shares::ZERO).unwrap(),
        preferred: ClassCapital::new(Shares::new(10_000_000_000_000), Shares::ZERO).unwrap(),
    }
}

/// The file name every message must start with.
const FILE: &str = "registro.csv";

/// Imports `bytes`; a refusal must name the file and be said in both
/// languages; an import must give every holder its name.
fn check(bytes: &[u8]) -> Result<Option<Imported>, TestCaseError> {
    match import(FILE, bytes, capital(), |_| {}) {
        Ok(imported) => {
            prop_assert_eq!(imported.names.len(), imported.register.len());
            prop_assert!(imported.names.values().all(|name| !name.is_empty()));
            Ok(Some(imported))
        }
        Err(error) => {
            let said = error.to_string();
            prop_assert!(said.starts_with(FILE), "the file is not named first: {said}");
            prop_assert!(said.contains(" / "), "not said in both languages: {said}");
            if let ImportError::Field { line, .. } | ImportError::Csv { line, .. } = error {
                // The CSV reader also ends a line at a lone carriage return.
                let lines = bytes.iter().filter(|&&b| b == b'\n' || b == b'\r').count() as u64 + 1;
                prop_assert!((1..=lines).contains(&line), "line {line} of {lines}: {said}");
            }
            Ok(None)
        }
    }
}

/// One row of a valid register: id, name, class, shares, role, split.
type Row = (String, String, &'static str, u64, &'static str, &'static str);

/// A valid register: distinct ids (digits only, so no two look alike), at
/// least one share, the optional columns sometimes left out.
fn arb_register() -> impl Strategy<Value = (bool, Vec<Row>)> {
    let row = (
        "[A-Za-zÁÉÍÓÚáéíóúñÑ][A-Za-zÁÉÍÓÚáéíóúñÑ ,.'-]{0,24}[A-Za-z.]",
        prop::sample::select(vec!["ORD", "PREF"]),
        1u64..1_000_000,
        prop::sample::select(vec!["", "administrator", "administrador", "employee", "empleado"]),
        prop::sample::select(vec!["", "omnibus-custodian", "dismembered"]),
    );
    (any::<bool>(), prop::collection::btree_map(1u64..10_000_000_000, row, 1..12)).prop_map(|(full, rows)| {
        let rows = rows
            .into_iter()
            .map(|(id, (name, class, shares, role, split))| {
                let (role, split) = if full { (role, split) } else { ("", "") };
                (format!("CC-{id}"), name, class, shares, role, split)
            })
            .collect();
        (full, rows)
    })
}

/// The CSV text of a register, names always quoted (they hold commas).
fn csv_of(full: bool, rows: &[Row]) -> String {
    let mut text = String::from(if full {
        "holder_id,name,class,shares,role,split\n"
    } else {
        "holder_id,name,class,shares\n"
    });
    for (id, name, class, shares, role, split) in rows {
        text.push_str(&format!("{id},\"{name}\",{class},{shares}"));
        if full {
            text.push_str(&format!(",{role},{split}"));
        }
        text.push('\n');
    }
    text
}

/// A byte of the file changed, added or lost.
#[derive(Clone, Debug)]
enum Mutation {
    Flip { at: prop::sample::Index, mask: u8 },
    Insert { at: prop::sample::Index, byte: u8 },
    Cut { at: prop::sample::Index },
}

fn arb_mutation() -> impl Strategy<Value = Mutation> {
    let index = any::<prop::sample::Index>;
    prop_oneof![
        2 => (index(), 1u8..=255).prop_map(|(at, mask)| Mutation::Flip { at, mask }),
        2 => (index(), prop_oneof![Just(b','), Just(b';'), Just(b'"'), Just(b'\n'), Just(b'\r'), any::<u8>()])
            .prop_map(|(at, byte)| Mutation::Insert { at, byte }),
        1 => index().prop_map(|at| Mutation::Cut { at }),
    ]
}

fn mutate(mut bytes: Vec<u8>, mutation: &Mutation) -> Vec<u8> {
    match mutation {
        Mutation::Flip { at, mask } => {
            let at = at.index(bytes.len());
            bytes[at] ^= mask;
        }
        Mutation::Insert { at, byte } => bytes.insert(at.index(bytes.len() + 1), *byte),
        Mutation::Cut { at } => bytes.truncate(at.index(bytes.len())),
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic_and_a_refusal_names_the_file(
        bytes in prop::collection::vec(any::<u8>(), 0..400),
    ) {
        check(&bytes)?;
    }

    #[test]
    fn arbitrary_rows_under_a_good_header_are_told_by_line_and_field(
        rows in prop::collection::vec("[ -~ñé\u{85}\u{200B};\"\t]{0,60}", 0..8),
    ) {
        let text = format!("holder_id,name,class,shares,role,split\n{}\n", rows.join("\n"));
        check(text.as_bytes())?;
    }

    #[test]
    fn a_valid_register_imports_whole((full, rows) in arb_register()) {
        let imported = check(csv_of(full, &rows).as_bytes())?.expect("a valid register imports");
        prop_assert_eq!(imported.register.len(), rows.len());
        for (id, name, ..) in &rows {
            prop_assert_eq!(imported.names.get(id), Some(name));
        }
    }

    #[test]
    fn a_mutated_register_never_panics_and_a_refusal_says_where(
        (full, rows) in arb_register(),
        mutations in prop::collection::vec(arb_mutation(), 1..4),
    ) {
        let mut bytes = csv_of(full, &rows).into_bytes();
        for mutation in &mutations {
            if !bytes.is_empty() {
                bytes = mutate(bytes, mutation);
            }
        }
        check(&bytes)?;
    }

    #[test]
    fn a_field_replaced_by_anything_is_refused_naming_its_line_or_accepted_whole(
        (full, rows) in arb_register(),
        row in any::<prop::sample::Index>(),
        column in 0usize..6,
        value in prop_oneof![any::<String>(), "[0-9., -]{0,12}", Just(String::new())],
    ) {
        let text = csv_of(full, &rows);
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let at = 1 + row.index(rows.len());
        // Quoted, so the value stays one field whatever it holds.
        let quoted = format!("\"{}\"", value.replace('"', "\"\""));
        let mut fields: Vec<String> = split_row(&lines[at]);
        let column = column % fields.len();
        fields[column] = quoted;
        lines[at] = fields.join(",");
        let changed = lines.join("\n") + "\n";
        if let Err(ImportError::Field { line, .. }) = import(FILE, changed.as_bytes(), capital(), |_| {}) {
            prop_assert_eq!(line, at as u64 + 1, "the row changed is the one named");
        }
        check(changed.as_bytes())?;
    }
}

/// The fields of a row written by [`csv_of`] (only names are quoted, and
/// a quoted name holds no quote).
fn split_row(row: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    for c in row.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                field.push(c);
            }
            ',' if !quoted => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}
