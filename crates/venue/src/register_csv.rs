//! Importing the share register (libro de registro de acciones) from CSV.
//!
//! The operator exports the register from Deceval or the company's books as
//! CSV with a header row:
//!
//! ```text
//! holder_id,name,class,shares,role,split
//! CC-79123456,María Ruiz,ORD,900000,administrator,
//! NIT-900123456,"Inversiones Alfa, S.A.",ORD,1200000,,
//! NIT-900123456,"Inversiones Alfa, S.A.",PREF,50000,,
//! ```
//!
//! The columns and the words each accepts are documented for the
//! secretary in `docs/register.md`. `role` is empty,
//! `administrator`/`administrador` or `employee`/`empleado`; `split` is
//! empty, `omnibus-custodian` or `dismembered`. A holder of both classes has one row per class. `shares`
//! is a whole number written with digits only. Any bad row refuses the
//! whole file, naming the line and the field, in Spanish first and in
//! English after: a register is imported whole or not at all.
//!
//! What Excel in Colombia writes is read too: a file that is not UTF-8 is
//! read as Windows-1252 (Excel's "CSV" there; a UTF-16 file, Excel's
//! "Unicode text", is refused saying so) and a header separated by `;`
//! (Excel's list separator where the decimal comma is used) sets `;` as
//! the separator; each is said in [`Imported::notes`]. Ids and names are
//! put in NFC and look-alike ids refused, naming both lines
//! ([`crate::text`]). A register with no holder, or whose holders hold no
//! share at all, is refused.

use std::collections::HashMap;
use std::io::Read;

use crate::csv_text::{self, Lines};
use asamblea_rules::{Capital, ClassShares, HolderSpec, Register, Role, ShareClass, Shares, SplitPermission};

/// A holder's name, kept beside the rules' register (the rules need only
/// ids).
pub type Names = HashMap<String, String>;

/// A register as imported.
#[derive(Debug)]
pub struct Imported {
    /// The register.
    pub register: Register,
    /// Each holder's name, by id.
    pub names: Names,
    /// What was read other than as written in the format (an encoding, a
    /// separator), for the operator to see.
    pub notes: Vec<String>,
}

/// A register file that could not be imported. Every message names the
/// file and, where there is one, the line and the column; it says what is
/// wrong in Spanish first and in English after.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file could not be read at all.
    #[error("{file}: no se puede leer / cannot read: {source}")]
    Io {
        /// The file.
        file: String,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// Not readable as CSV (an encoding, a row of the wrong length).
    #[error("{file}, línea / line {line}: {message}")]
    Csv {
        /// The file.
        file: String,
        /// The line, from 1.
        line: u64,
        /// What is wrong, Spanish first.
        message: String,
    },
    /// A field with a bad value.
    #[error("{file}, línea / line {line}, campo / field `{field}`: {message}")]
    Field {
        /// The file.
        file: String,
        /// The line, from 1.
        line: u64,
        /// The column.
        field: &'static str,
        /// What is wrong and what to do, Spanish first.
        message: String,
    },
    /// The header lacks a column, or has an unknown one.
    #[error("{file}, línea / line 1 (encabezado / header): {message}")]
    Header {
        /// The file.
        file: String,
        /// What is wrong, Spanish first.
        message: String,
    },
    /// The file is in an encoding a register is not read from (UTF-16).
    #[error("{file}: {message}")]
    Encoding {
        /// The file.
        file: String,
        /// Which encoding and what to do, Spanish first.
        message: String,
    },
    /// The rows are fine one by one but not together.
    #[error("{file}: {message}")]
    Register {
        /// The file.
        file: String,
        /// What is wrong, Spanish first.
        message: String,
    },
}

const COLUMNS: [&str; 6] = ["holder_id", "name", "class", "shares", "role", "split"];

/// Reads a register CSV; `progress` is called with the number of rows read
/// so far (for a progress bar).
pub fn import(
    file: &str,
    mut input: impl Read,
    capital: Capital,
    mut progress: impl FnMut(u64),
) -> Result<Imported, ImportError> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes).map_err(|source| ImportError::Io { file: file.into(), source })?;
    let mut notes = Vec::new();
    let text = csv_text::decode(file, bytes, &mut notes).map_err(|e| match e {
        csv_text::Undecodable::Encoding(message) => ImportError::Encoding { file: file.into(), message },
        csv_text::Undecodable::Line(line, message) => ImportError::Csv { file: file.into(), line, message },
    })?;
    let mut reader = csv_text::reader(file, &text, &mut notes);
    let header = reader
        .headers()
        .map_err(|e| ImportError::Header {
            file: file.into(),
            message: format!("el encabezado no se puede leer / the header cannot be read: {e}"),
        })?
        .clone();
    let mut at = [usize::MAX; 6];
    for (i, name) in header.iter().enumerate() {
        let name = name.trim().trim_start_matches('\u{feff}');
        match COLUMNS.iter().position(|c| *c == name) {
            Some(c) if at[c] == usize::MAX => at[c] = i,
            Some(_) => {
                return Err(ImportError::Header {
                    file: file.into(),
                    message: format!("la columna `{name}` aparece dos veces / column `{name}` appears twice"),
                })
            }
            None => {
                let (hint_es, hint_en) = if name.contains(';') {
                    (
                        "; las columnas parecen separadas por `;` y `,` a la vez: guarde como CSV con un solo separador",
                        "; the columns seem separated by `;` and `,` at once: save as CSV with one separator",
                    )
                } else {
                    ("", "")
                };
                let columns = COLUMNS.join(", ");
                return Err(ImportError::Header {
                    file: file.into(),
                    message: format!(
                        "columna desconocida `{name}`; las columnas son {columns}{hint_es} / unknown column `{name}`; the columns are {columns}{hint_en}"
                    ),
                });
            }
        }
    }
    for (c, &i) in at.iter().enumerate().take(4) {
        if i == usize::MAX {
            return Err(ImportError::Header {
                file: file.into(),
                message: format!(
                    "falta la columna `{column}` / column `{column}` is missing",
                    column = COLUMNS[c]
                ),
            });
        }
    }

    let mut order: Vec<String> = Vec::new();
    let mut holders: HashMap<String, (HolderSpec, u64)> = HashMap::new();
    let mut names = Names::new();
    let mut rows = 0u64;
    let mut twins = crate::text::Twins::default();
    // (holder, class) of every row so far: a class appears once a holder.
    let mut seen_classes: std::collections::HashSet<(String, &'static str)> =
        std::collections::HashSet::new();
    let mut lines = Lines::new(&text);
    for record in reader.records() {
        let record = record.map_err(|e| {
            let (line, message) = csv_text::record_problem(&mut lines, &e);
            ImportError::Csv { file: file.into(), line, message }
        })?;
        let line = record.position().map_or(0, |p| lines.at(p.byte()));
        let field = |c: usize| record.get(at[c]).unwrap_or("").trim_matches(|c| c == ' ' || c == '\t');
        let bad = |field: &'static str, message: String| ImportError::Field {
            file: file.into(),
            line,
            field,
            message,
        };

        if field(0).is_empty() {
            return Err(bad(
                "holder_id",
                "está vacío: cada fila necesita el identificador del accionista / is empty: every row needs the holder's id"
                    .into(),
            ));
        }
        let id = crate::text::id(field(0)).map_err(|e| bad("holder_id", e))?;
        let id = id.as_str();
        if let Some((twin, twin_line)) = twins.check(id, line) {
            return Err(bad(
                "holder_id",
                format!(
                    "`{id}` se confunde a la vista con `{twin}` de la línea {twin_line}: corrija uno de los dos / `{id}` looks like `{twin}` at line {twin_line}: correct one of them"
                ),
            ));
        }
        if field(1).is_empty() {
            return Err(bad(
                "name",
                "está vacío: cada fila necesita el nombre del accionista / is empty: every row needs the holder's name"
                    .into(),
            ));
        }
        let name = crate::text::holder_name(field(1)).map_err(|e| bad("name", e))?;
        let name = name.as_str();
        let class = ShareClass::from_code(field(2)).ok_or_else(|| {
            bad(
                "class",
                format!(
                    "`{x}` no es ORD ni PREF: escriba ORD (ordinarias) o PREF (preferenciales), en mayúsculas / `{x}` is not ORD or PREF: write ORD (ordinary) or PREF (preferred), in capitals",
                    x = field(2)
                ),
            )
        })?;
        let shares_text = field(3);
        if shares_text.is_empty() || !shares_text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad(
                "shares",
                format!(
                    "`{shares_text}` no es un número entero de acciones (escriba solo dígitos, sin separadores) / `{shares_text}` is not a whole number of shares (write digits only, no separators)"
                ),
            ));
        }
        let shares = shares_text.parse::<u64>().map_err(|_| {
            bad("shares", format!("`{shares_text}` es demasiado grande / `{shares_text}` is too large"))
        })?;
        let role = match field(4) {
            "" => None,
            "administrator" | "administrador" => Some(Role::Administrator),
            "employee" | "empleado" => Some(Role::Employee),
            other => {
                return Err(bad(
                    "role",
                    format!(
                        "`{other}` no es vacío, administrador ni empleado: escriba administrador (o administrator), empleado (o employee), o déjelo vacío / `{other}` is not empty, administrator or employee: write one of those, or leave it empty"
                    ),
                ))
            }
        };
        let split = match field(5) {
            "" => None,
            other => Some(SplitPermission::from_code(other).ok_or_else(|| {
                bad(
                    "split",
                    format!(
                        "`{other}` no es vacío, omnibus-custodian ni dismembered: escriba omnibus-custodian (custodio que vota por varios beneficiarios), dismembered (derecho de voto desmembrado) o déjelo vacío / `{other}` is not empty, omnibus-custodian or dismembered: write one of those, or leave it empty"
                    ),
                )
            })?),
        };

        match holders.get_mut(id) {
            None => {
                seen_classes.insert((id.to_string(), class.code()));
                let mut holdings = ClassShares::default();
                set(&mut holdings, class, Shares::new(shares));
                order.push(id.to_string());
                names.insert(id.to_string(), name.to_string());
                holders
                    .insert(id.to_string(), (HolderSpec { id: id.to_string(), holdings, role, split }, line));
            }
            Some((spec, first_line)) => {
                if !seen_classes.insert((id.to_string(), class.code())) {
                    return Err(bad(
                        "class",
                        format!(
                            "el accionista `{id}` ya tiene una fila {class} en la línea {first_line} / holder `{id}` already has a {class} row at line {first_line}",
                            class = class.code()
                        ),
                    ));
                }
                if spec.role != role || spec.split != split || names.get(id).map(String::as_str) != Some(name)
                {
                    return Err(bad(
                        "holder_id",
                        format!(
                            "el accionista `{id}` aparece en la línea {first_line} con otro nombre, cargo o división / holder `{id}` appears at line {first_line} with another name, role or split"
                        ),
                    ));
                }
                set(&mut spec.holdings, class, Shares::new(shares));
            }
        }
        rows += 1;
        if rows.is_multiple_of(1024) {
            progress(rows);
        }
    }
    progress(rows);
    if order.is_empty() {
        return Err(ImportError::Register {
            file: file.into(),
            message: "no tiene ningún accionista: exporte el libro completo / holds no holder: export the whole register".into(),
        });
    }
    if holders.values().all(|(spec, _)| spec.holdings.ordinary.is_zero() && spec.holdings.preferred.is_zero())
    {
        return Err(ImportError::Register {
            file: file.into(),
            message: "ningún accionista tiene acciones: revise la columna shares / no holder holds any share: check the shares column".into(),
        });
    }
    let specs = order.into_iter().map(|id| holders.remove(&id).expect("every ordered id has a row").0);
    let register = Register::new(capital, specs).map_err(|e| ImportError::Register {
        file: file.into(),
        message: format!(
            "el registro no cuadra con el capital: revise [capital] en meeting.toml / {e}; check the capital in meeting.toml"
        ),
    })?;
    Ok(Imported { register, names, notes })
}

/// Refuses a register whose holders do not hold every outstanding share
/// of a class (subscribed − treasury in `[capital]`). The quorum and the
/// majorities are counted over the outstanding subscribed shares whoever
/// holds them (C.Co. art. 427 and Ley 222 de 1995 art. 68: «la mitad más
/// una de las acciones suscritas»), so shares missing from the register
/// would stay in the base while their holders could not be admitted: such
/// a register is a wrong one (`docs/register.md`). Checked at `init`; a
/// register already recorded is not refused later for it.
pub fn check_whole(file: &str, register: &Register) -> Result<(), ImportError> {
    let capital = register.capital();
    let mut held = ClassShares::default();
    for (_, holder) in register.iter() {
        held.ordinary = Shares::new(held.ordinary.get() + holder.holdings().ordinary.get());
        held.preferred = Shares::new(held.preferred.get() + holder.holdings().preferred.get());
    }
    for (class, class_capital, held) in [
        (ShareClass::Ordinary, capital.ordinary, held.ordinary),
        (ShareClass::Preferred, capital.preferred, held.preferred),
    ] {
        let outstanding = class_capital.outstanding();
        if held != outstanding {
            let (subscribed, treasury) = (class_capital.subscribed().get(), class_capital.treasury().get());
            let (held, outstanding) = (held.get(), outstanding.get());
            let code = class.code();
            return Err(ImportError::Register {
                file: file.into(),
                message: format!(
                    "los accionistas del libro tienen {held} acciones {code} y el capital de meeting.toml deja {outstanding} en circulación (suscritas {subscribed} − readquiridas {treasury}); faltan {missing}. El quórum se cuenta sobre todas las acciones suscritas en circulación (C.Co. art. 427; Ley 222 de 1995, art. 68), así que el libro debe tenerlas todas: exporte el libro completo, con cada accionista y sus acciones {code}, o corrija `subscribed` y `treasury` de {code} en [capital] (docs/register.md) / the register's holders hold {held} {code} shares and meeting.toml's capital leaves {outstanding} outstanding (subscribed {subscribed} − treasury {treasury}); {missing} are missing. The quorum counts every outstanding subscribed share, so the register must hold them all: export the whole register, or correct [capital]",
                    missing = outstanding - held,
                ),
            });
        }
    }
    Ok(())
}

fn set(holdings: &mut ClassShares, class: ShareClass, shares: Shares) {
    match class {
        ShareClass::Ordinary => holdings.ordinary = shares,
        ShareClass::Preferred => holdings.preferred = shares,
    }
}

#[cfg(test)]
mod properties;

#[cfg(test)]
mod tests {
    use super::*;
    use asamblea_rules::ClassCapital;

    fn capital() -> Capital {
        Capital {
            ordinary: ClassCapital::new(Shares::new(10_000_000), Shares::ZERO).unwrap(),
            preferred: ClassCapital::new(Shares::new(1_000_000), Shares::ZERO).unwrap(),
        }
    }

    fn check_error(csv: &str, expected: &str) {
        let Err(error) = import("r.csv", csv.as_bytes(), capital(), |_| {}) else { panic!("refused") };
        assert_eq!(error.to_string(), expected);
    }

    #[test]
    fn a_good_register_imports_with_names_roles_and_both_classes() {
        let csv = "holder_id,name,class,shares,role,split\n\
                   CC-1,María Ruiz,ORD,900000,administrador,\n\
                   NIT-9,\"Inversiones Alfa, S.A.\",ORD,1200000,,\n\
                   NIT-9,\"Inversiones Alfa, S.A.\",PREF,50000,,\n\
                   C-3,Custodio,ORD,5000000000,,omnibus-custodian\n";
        let mut seen = 0;
        let big = Capital {
            ordinary: ClassCapital::new(Shares::new(10_000_000_000), Shares::ZERO).unwrap(),
            ..capital()
        };
        let Imported { register, names, .. } =
            import("r.csv", csv.as_bytes(), big, |n| seen = n).expect("imports");
        assert_eq!(seen, 4);
        assert_eq!(register.len(), 3);
        let alfa = register.holder(register.lookup("NIT-9").unwrap());
        assert_eq!(alfa.holdings(), ClassShares::new(Shares::new(1_200_000), Shares::new(50_000)));
        assert_eq!(names["NIT-9"], "Inversiones Alfa, S.A.");
        assert_eq!(register.holder(register.lookup("CC-1").unwrap()).role(), Some(Role::Administrator));
        assert_eq!(
            register.holder(register.lookup("C-3").unwrap()).holdings().ordinary,
            Shares::new(5_000_000_000)
        );
    }

    #[test]
    fn bad_rows_name_the_line_and_the_field() {
        let head = "holder_id,name,class,shares,role,split\nA,Ana,ORD,10,,\n";
        check_error(
            &format!("{head}B,Bea,ORD,1.000,,\n"),
            "r.csv, línea / line 3, campo / field `shares`: `1.000` no es un número entero de acciones (escriba solo dígitos, sin separadores) / `1.000` is not a whole number of shares (write digits only, no separators)",
        );
        check_error(&format!("{head}B,Bea,ORD,-4,,\n"), "r.csv, línea / line 3, campo / field `shares`: `-4` no es un número entero de acciones (escriba solo dígitos, sin separadores) / `-4` is not a whole number of shares (write digits only, no separators)");
        check_error(
            &format!("{head}B,Bea,COMMON,4,,\n"),
            "r.csv, línea / line 3, campo / field `class`: `COMMON` no es ORD ni PREF: escriba ORD (ordinarias) o PREF (preferenciales), en mayúsculas / `COMMON` is not ORD or PREF: write ORD (ordinary) or PREF (preferred), in capitals",
        );
        check_error(
            &format!("{head},Bea,ORD,4,,\n"),
            "r.csv, línea / line 3, campo / field `holder_id`: está vacío: cada fila necesita el identificador del accionista / is empty: every row needs the holder's id",
        );
        check_error(
            &format!("{head}B,Bea,ORD,4,boss,\n"),
            "r.csv, línea / line 3, campo / field `role`: `boss` no es vacío, administrador ni empleado: escriba administrador (o administrator), empleado (o employee), o déjelo vacío / `boss` is not empty, administrator or employee: write one of those, or leave it empty",
        );
        check_error(
            &format!("{head}A,Ana,ORD,4,,\n"),
            "r.csv, línea / line 3, campo / field `class`: el accionista `A` ya tiene una fila ORD en la línea 2 / holder `A` already has a ORD row at line 2",
        );
        check_error(
            "holder_id,name,class,shares\nA,Ana,ORD,0\nA,Ana,ORD,500\n",
            "r.csv, línea / line 3, campo / field `class`: el accionista `A` ya tiene una fila ORD en la línea 2 / holder `A` already has a ORD row at line 2",
        );
        check_error(
            &format!("{head}A,Ana María,PREF,4,,\n"),
            "r.csv, línea / line 3, campo / field `holder_id`: el accionista `A` aparece en la línea 2 con otro nombre, cargo o división / holder `A` appears at line 2 with another name, role or split",
        );
        check_error(
            &format!("{head}B,Bea,ORD\n"),
            "r.csv, línea / line 3: la fila tiene 3 campos y el encabezado 6 / the row has 3 fields where the header has 6",
        );
    }

    /// Excel writes CRLF line ends, and a register may hold a blank line:
    /// a bad class on the file's line 5 is said on line 5 either way (the
    /// csv crate alone says 4).
    #[test]
    fn errors_name_the_files_own_line_after_crlf_and_blank_lines() {
        let rows =
            ["holder_id,name,class,shares", "A,Ana,ORD,1", "B,Bea,ORD,1", "C,Cas,ORD,1", "D,Dan,ORDINARIA,1"];
        let bad_class = "r.csv, línea / line 5, campo / field `class`: `ORDINARIA` no es ORD ni PREF";
        for (end, what) in [("\n", "LF"), ("\r\n", "CRLF")] {
            let Err(e) = import("r.csv", rows.join(end).as_bytes(), capital(), |_| {}) else {
                panic!("{what}")
            };
            assert!(e.to_string().starts_with(bad_class), "{what}: {e}");
        }
        let blank = "holder_id,name,class,shares\r\nA,Ana,ORD,1\r\n\r\nC,Cas,ORD,1\r\nD,Dan,ORDINARIA,1\r\n";
        let Err(e) = import("r.csv", blank.as_bytes(), capital(), |_| {}) else { panic!("blank line") };
        assert!(e.to_string().starts_with(bad_class), "{e}");
        let blank = "holder_id,name,class,shares\nA,Ana,ORD,1\n\nD,Dan,ORDINARIA,1\n";
        let Err(e) = import("r.csv", blank.as_bytes(), capital(), |_| {}) else { panic!("blank line") };
        assert!(e.to_string().starts_with("r.csv, línea / line 4, campo / field `class`"), "{e}");
        // A row of the wrong length, after CRLF lines.
        let short = "holder_id,name,class,shares\r\nA,Ana,ORD,1\r\nB,Bea,ORD,1\r\nC,Cas\r\n";
        let Err(e) = import("r.csv", short.as_bytes(), capital(), |_| {}) else { panic!("short row") };
        assert!(e.to_string().starts_with("r.csv, línea / line 4: la fila tiene 2 campos"), "{e}");
        // And the twin's line in a message too.
        let twins = "holder_id,name,class,shares\r\nX,Xu,ORD,1\r\nA,Ana,ORD,1\r\nA,Ana,ORD,2\r\n";
        let Err(e) = import("r.csv", twins.as_bytes(), capital(), |_| {}) else { panic!("twice") };
        assert!(e.to_string().starts_with("r.csv, línea / line 4, campo / field `class`: el accionista `A` ya tiene una fila ORD en la línea 3"), "{e}");
    }

    #[test]
    fn a_register_that_does_not_add_up_to_the_capital_is_refused_at_init() {
        let csv = "holder_id,name,class,shares\nA,Ana,ORD,9000000\nB,Bea,PREF,1000000\n";
        let imported = import("r.csv", csv.as_bytes(), capital(), |_| {}).expect("each row is fine");
        let Err(e) = check_whole("r.csv", &imported.register) else { panic!("1.000.000 ORD missing") };
        let said = e.to_string();
        assert!(
            said.starts_with("r.csv: los accionistas del libro tienen 9000000 acciones ORD y el capital de meeting.toml deja 10000000 en circulación (suscritas 10000000 − readquiridas 0); faltan 1000000."),
            "{said}"
        );
        assert!(
            said.find("exporte el libro completo").unwrap() < said.find("export the whole register").unwrap()
        );
        let whole = "holder_id,name,class,shares\nA,Ana,ORD,9000000\nC,Cas,ORD,1000000\nB,Bea,PREF,1000000\n";
        let imported = import("r.csv", whole.as_bytes(), capital(), |_| {}).unwrap();
        assert!(check_whole("r.csv", &imported.register).is_ok());
        // Treasury shares are not in the register: 500.000 of them leave
        // 9.500.000 outstanding, and the preferred class is named.
        let with_treasury = Capital {
            ordinary: ClassCapital::new(Shares::new(10_000_000), Shares::new(500_000)).unwrap(),
            ..capital()
        };
        let csv = "holder_id,name,class,shares\nA,Ana,ORD,9500000\nB,Bea,PREF,999999\n";
        let imported = import("r.csv", csv.as_bytes(), with_treasury, |_| {}).unwrap();
        let said = check_whole("r.csv", &imported.register).unwrap_err().to_string();
        assert!(said.contains("999999 acciones PREF") && said.contains("faltan 1."), "{said}");
    }

    #[test]
    fn ids_and_names_are_checked_and_look_alike_ids_refused_naming_both_lines() {
        let head = "holder_id,name,class,shares,role,split\nCC-1,Ana,ORD,10,,\n";
        check_error(
            &format!("{head}CC-2\u{7},Bea,ORD,4,,\n"),
            "r.csv, línea / line 3, campo / field `holder_id`: contiene U+0007 (invisible): un identificador lleva solo letras, dígitos y - . _ / / contains U+0007 (invisible): an id holds letters, digits and - . _ / only",
        );
        for bad in ["CC-2\u{85}", "CC-2\u{7f}", "CC\u{200B}-2"] {
            let Err(e) = import("r.csv", format!("{head}{bad},Bea,ORD,4,,\n").as_bytes(), capital(), |_| {})
            else {
                panic!("{bad:?} accepted")
            };
            assert!(
                e.to_string().starts_with("r.csv, línea / line 3, campo / field `holder_id`: contiene U+"),
                "{e}"
            );
        }
        // Cyrillic С (U+0421) and Latin C.
        check_error(
            &format!("{head}\u{421}C-1,Bea,ORD,4,,\n"),
            "r.csv, línea / line 3, campo / field `holder_id`: `СC-1` se confunde a la vista con `CC-1` de la línea 2: corrija uno de los dos / `СC-1` looks like `CC-1` at line 2: correct one of them",
        );
        // NFD and NFC are one id: a second row of the same holder.
        let both = "holder_id,name,class,shares\nJOSE\u{301}-1,José,ORD,10\nJOS\u{c9}-1,José,ORD,4\n";
        check_error(
            both,
            "r.csv, línea / line 3, campo / field `class`: el accionista `JOSÉ-1` ya tiene una fila ORD en la línea 2 / holder `JOSÉ-1` already has a ORD row at line 2",
        );
        check_error(
            &format!("{head}CC-2,Bea\0,ORD,4,,\n"),
            "r.csv, línea / line 3, campo / field `name`: contiene U+0000 (invisible) / contains U+0000 (invisible)",
        );
    }

    #[test]
    fn an_empty_or_shareless_register_is_refused() {
        check_error(
            "holder_id,name,class,shares\n",
            "r.csv: no tiene ningún accionista: exporte el libro completo / holds no holder: export the whole register",
        );
        check_error(
            "holder_id,name,class,shares\nA,Ana,ORD,0\nB,Bea,PREF,0\n",
            "r.csv: ningún accionista tiene acciones: revise la columna shares / no holder holds any share: check the shares column",
        );
    }

    /// A register saved as UTF-16 (Excel's "Unicode text", with or without
    /// its byte-order mark) is named as such, with what to do, instead of
    /// its header read as a column `ÿþh o l d e r _ i d`.
    #[test]
    fn a_utf16_register_is_named_as_such_with_what_to_do() {
        let text = "holder_id,name,class,shares\nA,Ana,ORD,10\n";
        let utf16 = |bom: &[u8], little: bool| {
            let mut bytes = bom.to_vec();
            for unit in text.encode_utf16() {
                bytes.extend(if little { unit.to_le_bytes() } else { unit.to_be_bytes() });
            }
            bytes
        };
        for (bytes, what) in [
            (utf16(&[0xFF, 0xFE], true), "UTF-16LE with its mark"),
            (utf16(&[0xFE, 0xFF], false), "UTF-16BE with its mark"),
            (utf16(&[], true), "UTF-16LE without a mark"),
            (utf16(&[], false), "UTF-16BE without a mark"),
        ] {
            let Err(e) = import("registro.csv", &bytes[..], capital(), |_| {}) else {
                panic!("{what} was read")
            };
            let said = e.to_string();
            assert!(said.starts_with("registro.csv: "), "{what}: {said}");
            assert!(said.contains("UTF-16") && said.contains("CSV UTF-8"), "{what}: {said}");
            assert!(said.find("guárdelo").unwrap() < said.find("save it").unwrap(), "{what}: {said}");
            assert!(!said.contains("column") && !said.contains('\u{fffd}'), "{what}: {said}");
        }
    }

    #[test]
    fn what_excel_writes_in_colombia_is_read_and_said() {
        let cp1252 = b"holder_id,name,class,shares\nA,Jos\xe9 Pe\xf1a \x96 \x80,ORD,10\n";
        let imported = import("r.csv", &cp1252[..], capital(), |_| {}).expect("read as Windows-1252");
        assert_eq!(imported.names["A"], "José Peña – €");
        assert!(imported.notes[0].contains("Windows-1252") && imported.notes[0].contains("CSV UTF-8"));
        let semicolons = "holder_id;name;class;shares\nNIT-9;Inversiones Alfa, S.A.;ORD;10\n";
        let imported = import("r.csv", semicolons.as_bytes(), capital(), |_| {}).expect("read with ;");
        assert_eq!(imported.names["NIT-9"], "Inversiones Alfa, S.A.");
        assert!(imported.notes[0].contains("punto y coma"), "{:?}", imported.notes);
        let Err(e) =
            import("r.csv", &b"holder_id,name,class,shares\nA,An\x81a,ORD,10\n"[..], capital(), |_| {})
        else {
            panic!("0x81 is in no encoding here")
        };
        assert!(
            e.to_string().starts_with("r.csv, línea / line 2: el archivo no es texto UTF-8 ni Windows-1252"),
            "{e}"
        );
        assert!(e.to_string().contains("guarde como CSV UTF-8"), "{e}");
        let mut bytes = "holder_id,name,class,shares\nA,José,ORD,10\nB,Bea,ORD,4\n".as_bytes().to_vec();
        bytes.extend_from_slice(b"C,Ca\xf1o,ORD,1\n");
        let Err(e) = import("r.csv", &bytes[..], capital(), |_| {}) else {
            panic!("a UTF-8 file with a bad byte")
        };
        assert!(
            e.to_string().starts_with("r.csv, línea / line 4: el archivo es UTF-8 pero tiene bytes"),
            "{e}"
        );
    }

    #[test]
    fn the_header_must_name_the_columns() {
        check_error(
            "holder_id,name,shares\n",
            "r.csv, línea / line 1 (encabezado / header): falta la columna `class` / column `class` is missing",
        );
    }

    #[test]
    fn an_unknown_column_is_named_in_spanish_first_at_the_header() {
        let Err(error) =
            import("registro.csv", "holder_id,name,class,shares,colour\n".as_bytes(), capital(), |_| {})
        else {
            panic!("an unknown column is refused")
        };
        assert!(matches!(error, ImportError::Header { .. }), "{error:?}");
        let text = error.to_string();
        assert_eq!(
            text,
            "registro.csv, línea / line 1 (encabezado / header): columna desconocida `colour`; las columnas son holder_id, name, class, shares, role, split / unknown column `colour`; the columns are holder_id, name, class, shares, role, split"
        );
        // The Spanish sentence comes first: it ends before the English one
        // begins.
        let spanish = text.find("columna desconocida").expect("in Spanish");
        let english = text.find("unknown column").expect("in English");
        assert!(spanish < english, "{text}");
        // Separated by `;` and `,` at once: the hint says so in both.
        let Err(error) = import("r.csv", "holder_id;name,class;shares\n".as_bytes(), capital(), |_| {})
        else {
            panic!("mixed separators are refused")
        };
        let text = error.to_string();
        assert!(text.contains("guarde como CSV con un solo separador"), "{text}");
        assert!(text.contains("save as CSV with one separator"), "{text}");
    }

    #[test]
    fn a_register_beyond_the_capital_is_refused_whole() {
        check_error(
            "holder_id,name,class,shares\nA,Ana,ORD,9000000\nB,Bea,ORD,1000001\n",
            "r.csv: el registro no cuadra con el capital: revise [capital] en meeting.toml / holders hold 10000001 ORD shares but only 10000000 are outstanding; check the capital in meeting.toml",
        );
    }
}
