//! The powers file: the powers of attorney lodged with the company before
//! the meeting, as a CSV the company's office keeps (`docs/powers-file.md`
//! says it for the secretary, with examples).
//!
//! ```text
//! power,principal,agent,agent_name,meeting_date,received_via,received_on,document_sha256
//! P-0001,CC-79123456,CC-52000111,Ana Apoderada,2027-03-25,correo-electrónico,2027-03-10,9f86…08
//! P-0001,NIT-900123456,CC-52000111,Ana Apoderada,2027-03-25,correo-electrónico,2027-03-10,9f86…08
//! ```
//!
//! One row per principal: rows sharing the `power` reference are one power
//! with several principals, and must agree on every other column. The
//! text is read as the share register's is (UTF-8, or Windows-1252 as
//! Excel saves it in Colombia; `;` or `,`), and a `received_on` written
//! `DD/MM/YYYY`, as Colombian Excel writes dates, is read as such; each is
//! said in [`PowersFile::notes`].
//!
//! Unlike the register, a bad row does not stop the reading: **every** bad
//! row is collected with its line, its column and why, Spanish first,
//! so that the operator sees them all at once and chooses to lodge the
//! good powers or none. A power with one bad row is not lodged at all
//! (it would lose a principal): its other rows are named too. What the
//! rules refuse (no agent, no date, an administrator as agent…) is not a
//! bad row: such a power is lodged as refused, with its reason.
//!
//! There is no column for voting instructions, and a file that has one is
//! refused: they are private between the holder and the agent, never asked
//! for nor shown (SFC 2015060395-003).

use std::collections::HashMap;
use std::io::Read;

use asamblea_rules::powers::{PowerRefusal, Tie};
use asamblea_wire::limits::MAX_PRINCIPALS;
use asamblea_wire::Reception;

use crate::csv_text::{self, Lines};
use crate::powers::{PowerInput, SubstituteInput};

/// The columns, in the order documented; the first eight are required.
pub const COLUMNS: [&str; 14] = [
    "power",
    "principal",
    "agent",
    "agent_name",
    "meeting_date",
    "received_via",
    "received_on",
    "document_sha256",
    "agent_tie",
    "suggested",
    "substitutes",
    "substitute_names",
    "substitute_ties",
    "judgement",
];
const REQUIRED: usize = 8;

/// A powers file as read.
#[derive(Debug, Default)]
pub struct PowersFile {
    /// Each power whose rows are all good, with the line of its first row,
    /// in the order of those lines.
    pub powers: Vec<(u64, PowerInput)>,
    /// Every bad row, in the order of the file.
    pub bad: Vec<BadRow>,
    /// What was read other than as written in the format (an encoding, a
    /// separator, a date's order), for the operator to see.
    pub notes: Vec<String>,
}

/// A row that cannot be lodged, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRow {
    /// The file's line, from 1.
    pub line: u64,
    /// The column, or `None` when the row as a whole is wrong (its number
    /// of fields).
    pub field: Option<&'static str>,
    /// Why, Spanish first, ` / `, then English.
    pub message: String,
}

impl std::fmt::Display for BadRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.field {
            Some(field) => write!(f, "línea / line {}, {field}: {}", self.line, self.message),
            None => write!(f, "línea / line {}: {}", self.line, self.message),
        }
    }
}

/// A file that cannot be read at all: unreadable, undecodable, or a
/// header that is wrong. Nothing of it is lodged.
#[derive(Debug, thiserror::Error)]
pub struct FileError {
    /// The file.
    pub file: String,
    /// The line, from 1; 0 for the file as a whole.
    pub line: u64,
    /// What is wrong and what to do, Spanish first.
    pub message: String,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            0 => write!(f, "{}: {}", self.file, self.message),
            line => write!(f, "{}, línea / line {line}: {}", self.file, self.message),
        }
    }
}

/// One row's power, all but its principal: what rows of one power share.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Terms {
    agent: String,
    agent_name: String,
    agent_tie: Tie,
    suggested: bool,
    substitutes: Vec<SubstituteInput>,
    meeting_date: String,
    received_via: Reception,
    received_on: String,
    document_sha256: String,
    judgement: Option<PowerRefusal>,
}

impl Terms {
    fn input(&self, reference: &str, principals: Vec<String>) -> PowerInput {
        PowerInput {
            reference: reference.to_string(),
            principals,
            agent: self.agent.clone(),
            agent_name: self.agent_name.clone(),
            agent_tie: self.agent_tie,
            suggested: self.suggested,
            substitutes: self.substitutes.clone(),
            meeting_date: self.meeting_date.clone(),
            received_via: self.received_via,
            received_on: self.received_on.clone(),
            document_sha256: self.document_sha256.clone(),
            judgement: self.judgement,
        }
    }

    /// The first column on which two rows of one power disagree.
    fn disagreement(&self, other: &Terms) -> Option<&'static str> {
        let ids = |t: &Terms| t.substitutes.iter().map(|s| s.id.clone()).collect::<Vec<_>>();
        let names = |t: &Terms| t.substitutes.iter().map(|s| s.name.clone()).collect::<Vec<_>>();
        let ties = |t: &Terms| t.substitutes.iter().map(|s| s.tie).collect::<Vec<_>>();
        [
            ("agent", self.agent == other.agent),
            ("agent_name", self.agent_name == other.agent_name),
            ("agent_tie", self.agent_tie == other.agent_tie),
            ("suggested", self.suggested == other.suggested),
            ("substitutes", ids(self) == ids(other)),
            ("substitute_names", names(self) == names(other)),
            ("substitute_ties", ties(self) == ties(other)),
            ("meeting_date", self.meeting_date == other.meeting_date),
            ("received_via", self.received_via == other.received_via),
            ("received_on", self.received_on == other.received_on),
            ("document_sha256", self.document_sha256.eq_ignore_ascii_case(&other.document_sha256)),
            ("judgement", self.judgement == other.judgement),
        ]
        .into_iter()
        .find_map(|(column, same)| (!same).then_some(column))
    }
}

/// The rows of one reference gathered so far.
struct Group {
    reference: String,
    first_line: u64,
    /// The first good row's terms and line.
    terms: Option<(Terms, u64)>,
    /// Each good row's principal (as an id) and line.
    principals: Vec<(String, u64)>,
    /// The line of its first bad row, if it has one.
    bad_at: Option<u64>,
}

/// Reads a powers file; `progress` is called with the rows read so far.
pub fn read(
    file: &str,
    mut bytes: impl Read,
    mut progress: impl FnMut(u64),
) -> Result<PowersFile, FileError> {
    let refuse = |line: u64, message: String| FileError { file: file.into(), line, message };
    let mut raw = Vec::new();
    bytes.read_to_end(&mut raw).map_err(|e| refuse(0, format!("no se puede leer / cannot read: {e}")))?;
    let mut notes = Vec::new();
    let text = csv_text::decode(file, raw, &mut notes).map_err(|e| match e {
        csv_text::Undecodable::Encoding(message) => refuse(0, message),
        csv_text::Undecodable::Line(line, message) => refuse(line, message),
    })?;
    let mut reader = csv_text::reader(file, &text, &mut notes);
    let header = reader
        .headers()
        .map_err(|e| refuse(1, format!("el encabezado no se puede leer / the header cannot be read: {e}")))?
        .clone();
    let at = columns(&header).map_err(|message| refuse(1, message))?;

    let mut lines = Lines::new(&text);
    let mut bad = Vec::new();
    let mut groups: Vec<Group> = Vec::new();
    let mut by_reference: HashMap<String, usize> = HashMap::new();
    let mut day_first = false;
    let mut rows = 0u64;
    for record in reader.records() {
        rows += 1;
        if rows.is_multiple_of(1024) {
            progress(rows);
        }
        let record = match record {
            Ok(record) => record,
            Err(e) => {
                let (line, message) = csv_text::record_problem(&mut lines, &e);
                bad.push(BadRow { line, field: None, message });
                continue;
            }
        };
        let line = record.position().map_or(0, |p| lines.at(p.byte()));
        let field = |c: usize| at[c].and_then(|i| record.get(i)).map_or("", crate::text::trim);
        let reference = match crate::text::checked_id(field(0)) {
            Ok(reference) => reference,
            Err(problem) => {
                let message = if field(0).is_empty() {
                    "está vacía: cada fila lleva la referencia de su poder / is empty: every row needs its power's reference".into()
                } else {
                    problem.to_string()
                };
                bad.push(BadRow { line, field: Some("power"), message });
                continue;
            }
        };
        let g = *by_reference.entry(reference.clone()).or_insert_with(|| {
            groups.push(Group {
                reference,
                first_line: line,
                terms: None,
                principals: Vec::new(),
                bad_at: None,
            });
            groups.len() - 1
        });
        let group = &mut groups[g];
        match check_row(group, &field, &mut day_first) {
            Ok((terms, principal)) => {
                group.terms.get_or_insert((terms, line));
                group.principals.push((principal, line));
            }
            Err((column, message)) => {
                group.bad_at.get_or_insert(line);
                bad.push(BadRow { line, field: Some(column), message });
            }
        }
    }
    progress(rows);
    if day_first {
        notes.push(format!(
            "{file}: fechas de `received_on` escritas DD/MM/AAAA (como las escribe Excel en Colombia), leídas día/mes/año / `received_on` dates written DD/MM/YYYY (as Excel writes them in Colombia), read day/month/year"
        ));
    }

    let mut powers = Vec::with_capacity(groups.len());
    for group in groups {
        match (group.bad_at, group.terms) {
            (Some(bad_line), _) => {
                for &(_, line) in &group.principals {
                    bad.push(BadRow {
                        line,
                        field: Some("power"),
                        message: format!(
                            "el poder `{r}` tiene una fila con error (línea {bad_line}): un poder se radica entero o no se radica / power `{r}` has a bad row (line {bad_line}): a power is lodged whole or not at all",
                            r = group.reference
                        ),
                    });
                }
            }
            (None, Some((terms, _))) => {
                let principals = group.principals.into_iter().map(|(p, _)| p).collect();
                powers.push((group.first_line, terms.input(&group.reference, principals)));
            }
            (None, None) => {}
        }
    }
    bad.sort_by_key(|b| b.line);
    Ok(PowersFile { powers, bad, notes })
}

/// A row of `group`'s power: its terms and its principal (as an id), or
/// its first bad column and why.
fn check_row<'r>(
    group: &Group,
    field: &impl Fn(usize) -> &'r str,
    day_first: &mut bool,
) -> Result<(Terms, String), (&'static str, String)> {
    let terms = terms(field, day_first)?;
    // The row on its own, as the ledger would take it: every form problem
    // named at its own line.
    let principal = field(1).to_string();
    if let Err(problem) = terms.input(&group.reference, vec![principal.clone()]).to_lodged() {
        let column = if problem.field == "principals" { "principal" } else { problem.field };
        return Err((column, problem.message));
    }
    let principal = crate::text::checked_id(&principal).unwrap_or(principal);
    if let Some((first, first_line)) = &group.terms {
        if let Some(column) = first.disagreement(&terms) {
            return Err((
                column,
                format!(
                    "no coincide con la línea {first_line} del mismo poder `{r}`: las filas de un poder solo difieren en `principal` / does not agree with line {first_line} of the same power `{r}`: the rows of one power differ only in `principal`",
                    r = group.reference
                ),
            ));
        }
    }
    if let Some((_, twice)) = group.principals.iter().find(|(p, _)| *p == principal) {
        return Err((
            "principal",
            format!(
                "`{principal}` ya es poderdante de este poder en la línea {twice} / `{principal}` is already a principal of this power at line {twice}"
            ),
        ));
    }
    if group.principals.len() >= MAX_PRINCIPALS {
        // Written as Colombians write numbers (1.000); the limit is below a
        // million.
        let most = format!("{}.{:03}", MAX_PRINCIPALS / 1000, MAX_PRINCIPALS % 1000);
        return Err((
            "principal",
            format!(
                "el poder `{r}` ya tiene {most} poderdantes, el máximo de un poder: divídalo en varios / power `{r}` already has {most} principals, the most one power takes: split it into several",
                r = group.reference
            ),
        ));
    }
    Ok((terms, principal))
}

/// Where each column is in the header, or why the header is refused.
fn columns(header: &csv::StringRecord) -> Result<[Option<usize>; COLUMNS.len()], String> {
    let mut at = [None; COLUMNS.len()];
    for (i, name) in header.iter().enumerate() {
        let name = name.trim().trim_start_matches('\u{feff}');
        let folded = name.to_lowercase();
        if ["instruc", "voto", "vote"].iter().any(|w| folded.contains(w)) {
            return Err(format!(
                "la columna `{name}` parece de instrucciones de voto: un poder no lleva instrucciones aquí; son privadas entre el accionista y su apoderado, no se piden ni se muestran (Superfinanciera, concepto 2015060395-003). Quite la columna / column `{name}` looks like voting instructions: they are private between the holder and the agent, never asked for nor shown (Superfinanciera, 2015060395-003). Remove the column"
            ));
        }
        match COLUMNS.iter().position(|c| *c == name) {
            Some(c) if at[c].is_none() => at[c] = Some(i),
            Some(_) => {
                return Err(format!("la columna `{name}` aparece dos veces / column `{name}` appears twice"))
            }
            None => {
                let all = COLUMNS.join(", ");
                return Err(format!(
                    "columna desconocida `{name}`; las columnas son {all} / unknown column `{name}`; the columns are {all}"
                ));
            }
        }
    }
    if let Some(c) = (0..REQUIRED).find(|&c| at[c].is_none()) {
        let column = COLUMNS[c];
        return Err(format!("falta la columna `{column}` / column `{column}` is missing"));
    }
    Ok(at)
}

/// A row's terms, or its first bad column and why.
fn terms<'r>(
    field: &impl Fn(usize) -> &'r str,
    day_first: &mut bool,
) -> Result<Terms, (&'static str, String)> {
    let agent_tie = tie("agent_tie", field(8))?;
    let suggested = match field(9).to_lowercase().as_str() {
        "" | "no" => false,
        "sí" | "si" | "yes" => true,
        other => {
            return Err((
                "suggested",
                format!("`{other}` no es sí ni no (o vacío) / `{other}` is not yes or no (or empty)"),
            ))
        }
    };
    let list = |text: &'r str| -> Vec<&'r str> {
        if text.is_empty() {
            Vec::new()
        } else {
            text.split('|').map(crate::text::trim).collect()
        }
    };
    let (ids, names, ties) = (list(field(10)), list(field(11)), list(field(12)));
    for (column, given) in [("substitute_names", names.len()), ("substitute_ties", ties.len())] {
        if given != 0 && given != ids.len() {
            return Err((
                column,
                format!(
                    "da {given} valores separados por `|` y `substitutes` nombra {n}: uno por sustituto, en el mismo orden / gives {given} values separated by `|` where `substitutes` names {n}: one per substitute, in the same order",
                    n = ids.len()
                ),
            ));
        }
    }
    let substitutes = ids
        .iter()
        .enumerate()
        .map(|(i, id)| -> Result<SubstituteInput, (&'static str, String)> {
            Ok(SubstituteInput {
                id: id.to_string(),
                name: names.get(i).map_or(String::new(), |n| n.to_string()),
                tie: tie("substitute_ties", ties.get(i).copied().unwrap_or(""))?,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let received_via = match field(5).to_lowercase().as_str() {
        "correo" | "mail" => Reception::Mail,
        "correo-electrónico" | "correo-electronico" | "email" => Reception::Email,
        "oficina" | "office" => Reception::Office,
        "otro" | "other" => Reception::Other,
        other => {
            return Err((
                "received_via",
                format!(
                    "`{other}` no es correo, correo-electrónico, oficina ni otro / `{other}` is not mail, email, office or other"
                ),
            ))
        }
    };
    let judgement = match field(13).to_lowercase().as_str() {
        "" => None,
        "documento-rechazado" => Some(PowerRefusal::DocumentRejected),
        "otra-reunión" | "otra-reunion" => Some(PowerRefusal::WrongMeeting),
        other => Some(PowerRefusal::from_code(other).ok_or_else(|| {
            (
                "judgement",
                format!(
                    "`{other}` no es documento-rechazado ni otra-reunión (o vacío) / `{other}` is not document-rejected or wrong-meeting (or empty)"
                ),
            )
        })?),
    };
    Ok(Terms {
        agent: field(2).to_string(),
        agent_name: field(3).to_string(),
        agent_tie,
        suggested,
        substitutes,
        meeting_date: field(4).to_string(),
        received_via,
        received_on: year_first(field(6), day_first),
        document_sha256: field(7).to_string(),
        judgement,
    })
}

/// A tie in Spanish or by its code.
fn tie(column: &'static str, text: &str) -> Result<Tie, (&'static str, String)> {
    match text.to_lowercase().as_str() {
        "" | "ninguno" => Ok(Tie::None),
        "administrador" => Ok(Tie::Administrator),
        "empleado" => Ok(Tie::Employee),
        "vinculado" => Ok(Tie::Administration),
        other => Tie::from_code(other).ok_or_else(|| {
            (
                column,
                format!(
                    "`{other}` no es administrador, empleado ni vinculado (o vacío) / `{other}` is not administrator, employee or tied-to-administration (or empty)"
                ),
            )
        }),
    }
}

/// `DD/MM/YYYY` as `YYYY-MM-DD` (noting that one was read); anything else
/// as it is, for the form's check to judge.
fn year_first(text: &str, day_first: &mut bool) -> String {
    let parts: Vec<&str> = text.split('/').collect();
    match parts.as_slice() {
        [d, m, y] if (1..=2).contains(&d.len()) && (1..=2).contains(&m.len()) && y.len() == 4 => {
            *day_first = true;
            format!("{y}-{m:0>2}-{d:0>2}")
        }
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests;
