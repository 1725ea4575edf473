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
//! `role` is empty, `administrator`/`administrador` or
//! `employee`/`empleado`; `split` is empty, `omnibus-custodian` or
//! `dismembered`. A holder of both classes has one row per class. `shares`
//! is a whole number written with digits only. Any bad row refuses the
//! whole file, naming the line and the field: a register is imported whole
//! or not at all.

use std::collections::HashMap;
use std::io::Read;

use asamblea_rules::{Capital, ClassShares, HolderSpec, Register, Role, ShareClass, Shares, SplitPermission};

/// A holder's name, kept beside the rules' register (the rules need only
/// ids).
pub type Names = HashMap<String, String>;

/// A register file that could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// Not readable as CSV.
    #[error("{file}: line {line}: {message}")]
    Csv {
        /// The file.
        file: String,
        /// The line, from 1.
        line: u64,
        /// What the CSV reader said.
        message: String,
    },
    /// A field with a bad value.
    #[error("{file}: line {line}, field `{field}`: {message}")]
    Field {
        /// The file.
        file: String,
        /// The line, from 1.
        line: u64,
        /// The column.
        field: &'static str,
        /// What is wrong and what to do.
        message: String,
    },
    /// The header lacks a column, or has an unknown one.
    #[error("{file}: line 1 (header): {message}")]
    Header {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// The rows are fine one by one but not together.
    #[error("{file}: {message}")]
    Register {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
}

const COLUMNS: [&str; 6] = ["holder_id", "name", "class", "shares", "role", "split"];

/// Reads a register CSV; `progress` is called with the number of rows read
/// so far (for a progress bar).
pub fn import(
    file: &str,
    input: impl Read,
    capital: Capital,
    mut progress: impl FnMut(u64),
) -> Result<(Register, Names), ImportError> {
    let mut reader = csv::ReaderBuilder::new().has_headers(true).flexible(false).from_reader(input);
    let header = reader
        .headers()
        .map_err(|e| ImportError::Header { file: file.into(), message: e.to_string() })?
        .clone();
    let mut at = [usize::MAX; 6];
    for (i, name) in header.iter().enumerate() {
        let name = name.trim().trim_start_matches('\u{feff}');
        match COLUMNS.iter().position(|c| *c == name) {
            Some(c) if at[c] == usize::MAX => at[c] = i,
            Some(_) => {
                return Err(ImportError::Header {
                    file: file.into(),
                    message: format!("column `{name}` appears twice"),
                })
            }
            None => {
                return Err(ImportError::Header {
                    file: file.into(),
                    message: format!("unknown column `{name}`; the columns are {}", COLUMNS.join(", ")),
                })
            }
        }
    }
    for (c, &i) in at.iter().enumerate().take(4) {
        if i == usize::MAX {
            return Err(ImportError::Header {
                file: file.into(),
                message: format!("column `{}` is missing", COLUMNS[c]),
            });
        }
    }

    let mut order: Vec<String> = Vec::new();
    let mut holders: HashMap<String, (HolderSpec, u64)> = HashMap::new();
    let mut names = Names::new();
    let mut rows = 0u64;
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            let message = match e.kind() {
                csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
                    format!("the row has {len} fields where the header has {expected_len}")
                }
                csv::ErrorKind::Utf8 { .. } => {
                    "the row is not valid UTF-8 text: save the file as UTF-8".into()
                }
                _ => e.to_string(),
            };
            ImportError::Csv { file: file.into(), line, message }
        })?;
        let line = record.position().map_or(0, |p| p.line());
        let field = |c: usize| record.get(at[c]).unwrap_or("").trim();
        let bad = |field: &'static str, message: String| ImportError::Field {
            file: file.into(),
            line,
            field,
            message,
        };

        let id = field(0);
        if id.is_empty() {
            return Err(bad("holder_id", "is empty: every row needs the holder's id".into()));
        }
        if id.len() > 64 {
            return Err(bad("holder_id", format!("is {} bytes long; at most 64", id.len())));
        }
        let name = field(1);
        if name.is_empty() {
            return Err(bad("name", "is empty: every row needs the holder's name".into()));
        }
        let class = ShareClass::from_code(field(2))
            .ok_or_else(|| bad("class", format!("`{}` is not ORD or PREF", field(2))))?;
        let shares_text = field(3);
        if shares_text.is_empty() || !shares_text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad(
                "shares",
                format!("`{shares_text}` is not a whole number of shares (write digits only, no separators)"),
            ));
        }
        let shares =
            shares_text.parse::<u64>().map_err(|_| bad("shares", format!("`{shares_text}` is too large")))?;
        let role = match field(4) {
            "" => None,
            "administrator" | "administrador" => Some(Role::Administrator),
            "employee" | "empleado" => Some(Role::Employee),
            other => return Err(bad("role", format!("`{other}` is not empty, administrator or employee"))),
        };
        let split = match field(5) {
            "" => None,
            other => Some(SplitPermission::from_code(other).ok_or_else(|| {
                bad("split", format!("`{other}` is not empty, omnibus-custodian or dismembered"))
            })?),
        };

        match holders.get_mut(id) {
            None => {
                let mut holdings = ClassShares::default();
                set(&mut holdings, class, Shares::new(shares));
                order.push(id.to_string());
                names.insert(id.to_string(), name.to_string());
                holders
                    .insert(id.to_string(), (HolderSpec { id: id.to_string(), holdings, role, split }, line));
            }
            Some((spec, first_line)) => {
                if !spec.holdings.of(class).is_zero() {
                    return Err(bad(
                        "class",
                        format!("holder `{id}` already has a {} row at line {first_line}", class.code()),
                    ));
                }
                if spec.role != role || spec.split != split || names.get(id).map(String::as_str) != Some(name)
                {
                    return Err(bad(
                        "holder_id",
                        format!(
                            "holder `{id}` appears at line {first_line} with another name, role or split"
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
    let specs = order.into_iter().map(|id| holders.remove(&id).expect("every ordered id has a row").0);
    let register = Register::new(capital, specs).map_err(|e| ImportError::Register {
        file: file.into(),
        message: format!("{e}; check the capital in meeting.toml"),
    })?;
    Ok((register, names))
}

fn set(holdings: &mut ClassShares, class: ShareClass, shares: Shares) {
    match class {
        ShareClass::Ordinary => holdings.ordinary = shares,
        ShareClass::Preferred => holdings.preferred = shares,
    }
}

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
        let (register, names) = import("r.csv", csv.as_bytes(), big, |n| seen = n).expect("imports");
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
            "r.csv: line 3, field `shares`: `1.000` is not a whole number of shares (write digits only, no separators)",
        );
        check_error(&format!("{head}B,Bea,ORD,-4,,\n"), "r.csv: line 3, field `shares`: `-4` is not a whole number of shares (write digits only, no separators)");
        check_error(
            &format!("{head}B,Bea,COMMON,4,,\n"),
            "r.csv: line 3, field `class`: `COMMON` is not ORD or PREF",
        );
        check_error(
            &format!("{head},Bea,ORD,4,,\n"),
            "r.csv: line 3, field `holder_id`: is empty: every row needs the holder's id",
        );
        check_error(
            &format!("{head}B,Bea,ORD,4,boss,\n"),
            "r.csv: line 3, field `role`: `boss` is not empty, administrator or employee",
        );
        check_error(
            &format!("{head}A,Ana,ORD,4,,\n"),
            "r.csv: line 3, field `class`: holder `A` already has a ORD row at line 2",
        );
        check_error(
            &format!("{head}A,Ana María,PREF,4,,\n"),
            "r.csv: line 3, field `holder_id`: holder `A` appears at line 2 with another name, role or split",
        );
        check_error(
            &format!("{head}B,Bea,ORD\n"),
            "r.csv: line 3: the row has 3 fields where the header has 6",
        );
    }

    #[test]
    fn the_header_must_name_the_columns() {
        check_error("holder_id,name,shares\n", "r.csv: line 1 (header): column `class` is missing");
        check_error("holder_id,name,class,shares,colour\n", "r.csv: line 1 (header): unknown column `colour`; the columns are holder_id, name, class, shares, role, split");
    }

    #[test]
    fn a_register_beyond_the_capital_is_refused_whole() {
        check_error(
            "holder_id,name,class,shares\nA,Ana,ORD,9000000\nB,Bea,ORD,1000001\n",
            "r.csv: holders hold 10000001 ORD shares but only 10000000 are outstanding; check the capital in meeting.toml",
        );
    }
}
