//! Reading TOML tables field by field, with errors that name the file,
//! the line and the key.
//!
//! Config and scenario files come from outside, so every read says what
//! was expected and where; unknown keys are refused, never ignored (a typo
//! in a bylaws profile must not silently fall back to a default). A
//! person reads these messages at the registration desk: each says it in
//! Spanish first and in English after, separated by ` / `.
//!
//! The readers work on a plain [`toml::Table`], which keeps no positions;
//! [`parse_file`] reads the file a second time with positions only when
//! something is wrong, to name the line of the key at fault
//! ([`line_of`]).

use std::fmt;

/// A defect in a TOML input: the dotted path of the key, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// Dotted path to the key (`matters.capital-increase.majority`).
    pub key: String,
    /// What is wrong, in a sentence: Spanish first, then English, separated
    /// by ` / `.
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "clave / key `{}`: {}", self.key, self.message)
        }
    }
}

impl std::error::Error for FieldError {}

/// A TOML file that does not hold what it should (`meeting.toml`, a bylaws
/// profile): which file, where in it, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TomlFileError {
    /// The text is not TOML at all.
    #[error(
        "{file}, línea / line {line}, columna / column {column}: el archivo no es TOML válido / not valid TOML: {message}"
    )]
    Syntax {
        /// The file, as the person named it.
        file: String,
        /// The line of the defect, from 1.
        line: usize,
        /// The column of the defect, from 1 (in characters).
        column: usize,
        /// What the TOML parser said (in English).
        message: String,
    },
    /// TOML, but a key is missing, unknown, of the wrong type or of a
    /// value the meeting cannot have.
    #[error("{}", field_place(file, *line, error))]
    Field {
        /// The file, as the person named it.
        file: String,
        /// The line of the key, or of the table that lacks it, from 1;
        /// `None` for a key missing from the top of the file.
        line: Option<usize>,
        /// The key and what is wrong with it.
        error: FieldError,
    },
}

impl TomlFileError {
    /// The key at fault and what is wrong, when the file is TOML.
    pub fn field(&self) -> Option<&FieldError> {
        match self {
            TomlFileError::Syntax { .. } => None,
            TomlFileError::Field { error, .. } => Some(error),
        }
    }
}

/// `file, línea / line N, clave / key `k`: message`, each part there only
/// when known.
fn field_place(file: &str, line: Option<usize>, error: &FieldError) -> String {
    let mut text = file.to_string();
    if let Some(line) = line {
        text.push_str(&format!(", línea / line {line}"));
    }
    if !error.key.is_empty() {
        text.push_str(&format!(", clave / key `{}`", error.key));
    }
    format!("{text}: {}", error.message)
}

/// Parses the TOML `text` of `file` and reads it with `read`; a defect is
/// named by file, line and key.
pub fn parse_file<T>(
    file: &str,
    text: &str,
    read: impl FnOnce(&toml::Table) -> Result<T, FieldError>,
) -> Result<T, TomlFileError> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let at = e.span().map_or(0, |span| span.start);
        let (line, column) = line_and_column(text, at);
        TomlFileError::Syntax {
            file: file.to_string(),
            line,
            column,
            message: e.message().trim().to_string(),
        }
    })?;
    read(&table).map_err(|error| TomlFileError::Field {
        file: file.to_string(),
        line: line_of(text, &error.key),
        error,
    })
}

/// The line and column (both from 1, the column in characters) of the
/// byte offset `at` of `text`.
fn line_and_column(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    // A span may end inside a character; its start never does, but the
    // offset is floored to a character boundary all the same.
    let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// One step of a key's dotted path: a key of a table, or an index of an
/// array.
enum Step<'p> {
    Key(&'p str),
    Index(usize),
}

/// The steps of a path such as `agenda[3].lists[1]`; `None` when it is not
/// one this module writes.
fn steps(path: &str) -> Option<Vec<Step<'_>>> {
    let mut steps = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = part.split_at(part.find('[').unwrap_or(part.len()));
        if !key.is_empty() {
            steps.push(Step::Key(key));
        }
        while let Some(inner) = rest.strip_prefix('[') {
            let close = inner.find(']')?;
            steps.push(Step::Index(inner[..close].parse().ok()?));
            rest = &inner[close + 1..];
        }
        if !rest.is_empty() {
            return None;
        }
    }
    Some(steps)
}

/// The line (from 1) of the key `path` (a [`FieldError`]'s, such as
/// `agenda[3].lists[1]`) in the TOML `text`: of the key itself when it is
/// there, else of the nearest table or array element that holds it (a
/// missing key is told at its table). `None` when nothing of the path is
/// in the text (a key missing from the top of the file) or the text is
/// not TOML.
pub fn line_of(text: &str, path: &str) -> Option<usize> {
    use toml::de::{DeTable, DeValue};
    let steps = steps(path)?;
    let root = DeTable::parse(text).ok()?;
    let mut current: Option<&DeValue<'_>> = None;
    let mut found: Option<usize> = None;
    for step in steps {
        let next = match (step, current) {
            (Step::Key(key), None) => root.get_ref().iter().find(|(k, _)| k.get_ref() == key),
            (Step::Key(key), Some(DeValue::Table(table))) => table.iter().find(|(k, _)| k.get_ref() == key),
            (Step::Index(i), Some(DeValue::Array(array))) => {
                let Some(element) = array.get(i) else { break };
                found = Some(element.span().start);
                current = Some(element.get_ref());
                continue;
            }
            _ => None,
        };
        let Some((key, value)) = next else { break };
        found = Some(key.span().start);
        current = Some(value.get_ref());
    }
    found.map(|at| line_and_column(text, at).0)
}

/// The name TOML gives a value's type, for messages (in English).
pub fn type_name(value: &toml::Value) -> &'static str {
    match value {
        toml::Value::String(_) => "a string",
        toml::Value::Integer(_) => "an integer",
        toml::Value::Float(_) => "a decimal number",
        toml::Value::Boolean(_) => "true/false",
        toml::Value::Datetime(_) => "a date",
        toml::Value::Array(_) => "an array",
        toml::Value::Table(_) => "a table",
    }
}

/// The name of a value's type in Spanish, for messages.
pub fn type_name_es(value: &toml::Value) -> &'static str {
    match value {
        toml::Value::String(_) => "un texto",
        toml::Value::Integer(_) => "un número entero",
        toml::Value::Float(_) => "un número decimal",
        toml::Value::Boolean(_) => "true/false",
        toml::Value::Datetime(_) => "una fecha",
        toml::Value::Array(_) => "una lista",
        toml::Value::Table(_) => "una tabla",
    }
}

/// What a value found is, in both languages: `un texto / a string`.
pub fn found(value: &toml::Value) -> (&'static str, &'static str) {
    (type_name_es(value), type_name(value))
}

/// A table being read; [`Fields::finish`] refuses any key not read.
pub struct Fields<'a> {
    table: &'a toml::Table,
    prefix: String,
    read: Vec<&'a str>,
}

impl<'a> Fields<'a> {
    /// Starts reading `table`, whose keys are reported under `prefix`.
    pub fn new(table: &'a toml::Table, prefix: impl Into<String>) -> Fields<'a> {
        Fields { table, prefix: prefix.into(), read: Vec::new() }
    }

    /// The full path of a key of this table.
    pub fn path(&self, key: &str) -> String {
        if self.prefix.is_empty() {
            key.to_string()
        } else {
            format!("{}.{}", self.prefix, key)
        }
    }

    /// An error about a key of this table.
    pub fn error(&self, key: &str, message: impl Into<String>) -> FieldError {
        FieldError { key: self.path(key), message: message.into() }
    }

    /// Whether the table has this key (marks nothing).
    pub fn has(&self, key: &str) -> bool {
        self.table.contains_key(key)
    }

    /// The raw value of a key, marking it read.
    pub fn value(&mut self, key: &'a str) -> Option<&'a toml::Value> {
        let value = self.table.get(key)?;
        self.read.push(key);
        Some(value)
    }

    /// A required key that is not there.
    pub fn missing(&self, key: &str) -> FieldError {
        self.error(key, REQUIRED)
    }

    fn typed<T>(
        &mut self,
        key: &'a str,
        expected: (&str, &str),
        pick: impl FnOnce(&'a toml::Value) -> Option<T>,
    ) -> Result<Option<T>, FieldError> {
        match self.value(key) {
            None => Ok(None),
            Some(value) => match pick(value) {
                Some(v) => Ok(Some(v)),
                None => Err(self.error(
                    key,
                    format!(
                        "se esperaba {}, hay {} / expected {}, found {}",
                        expected.0,
                        type_name_es(value),
                        expected.1,
                        type_name(value)
                    ),
                )),
            },
        }
    }

    /// An optional string.
    pub fn string(&mut self, key: &'a str) -> Result<Option<&'a str>, FieldError> {
        self.typed(key, ("un texto entre comillas", "a string"), toml::Value::as_str)
    }

    /// A required string.
    pub fn required_string(&mut self, key: &'a str) -> Result<&'a str, FieldError> {
        self.string(key)?.ok_or_else(|| self.missing(key))
    }

    /// An optional whole number, zero or more.
    pub fn count(&mut self, key: &'a str) -> Result<Option<u64>, FieldError> {
        match self.typed(key, ("un número entero", "a whole number"), toml::Value::as_integer)? {
            None => Ok(None),
            Some(n) => u64::try_from(n).map(Some).map_err(|_| {
                self.error(key, format!("no puede ser negativo, y es {n} / must not be negative, found {n}"))
            }),
        }
    }

    /// An optional boolean.
    pub fn boolean(&mut self, key: &'a str) -> Result<Option<bool>, FieldError> {
        self.typed(key, ("true o false", "true or false"), toml::Value::as_bool)
    }

    /// An optional table.
    pub fn table(&mut self, key: &'a str) -> Result<Option<&'a toml::Table>, FieldError> {
        self.typed(key, ("una tabla", "a table"), toml::Value::as_table)
    }

    /// An optional array.
    pub fn array(&mut self, key: &'a str) -> Result<Option<&'a [toml::Value]>, FieldError> {
        self.typed(key, ("una lista", "an array"), |v| v.as_array().map(Vec::as_slice))
    }

    /// An optional string that must be one of `codes`, parsed by `parse`.
    pub fn choice<T>(
        &mut self,
        key: &'a str,
        codes: &[&str],
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<Option<T>, FieldError> {
        match self.string(key)? {
            None => Ok(None),
            Some(text) => parse(text).map(Some).ok_or_else(|| {
                let codes = codes.join(", ");
                self.error(
                    key,
                    format!("`{text}` no es ninguno de: {codes} / `{text}` is not one of: {codes}"),
                )
            }),
        }
    }

    /// Refuses the first key that was never read.
    pub fn finish(self) -> Result<(), FieldError> {
        match self.table.keys().find(|k| !self.read.contains(&k.as_str())) {
            None => Ok(()),
            Some(unknown) => Err(self.error(unknown, UNKNOWN_KEY)),
        }
    }
}

/// The message of a required key that is missing.
pub const REQUIRED: &str = "falta: es obligatoria / is required";

/// The message of a key no reader asked for.
pub const UNKNOWN_KEY: &str = "clave desconocida: revise cómo está escrita / unknown key: check its spelling";

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "company = \"X\"\n\n[acta]\nnumber = \"1\"\nnumero = 2\n\n[[agenda]]\nid = \"a\"\n\n[[agenda]]\nid = \"b\"\nlists = [\"A\",\n  \"B\"]\n";

    #[test]
    fn a_key_is_found_at_its_line_and_a_missing_one_at_its_table() {
        assert_eq!(line_of(TEXT, "company"), Some(1));
        assert_eq!(line_of(TEXT, "acta.numero"), Some(5));
        assert_eq!(line_of(TEXT, "agenda[1].id"), Some(11));
        assert_eq!(line_of(TEXT, "agenda[1].lists[1]"), Some(13));
        // Missing: the table that lacks it.
        assert_eq!(line_of(TEXT, "acta.chair"), Some(3));
        assert_eq!(line_of(TEXT, "agenda[1].seats"), Some(10), "the `[[agenda]]` header");
        // Missing at the top: no line to name.
        assert_eq!(line_of(TEXT, "place"), None);
        assert_eq!(line_of(TEXT, ""), None);
        assert_eq!(line_of("not = = toml", "not"), None);
    }

    #[test]
    fn a_defect_names_the_file_the_line_and_the_key_spanish_first() {
        let read = |table: &toml::Table| {
            let mut f = Fields::new(table, "");
            f.string("company")?;
            f.value("acta");
            f.value("agenda");
            f.finish()
        };
        assert_eq!(parse_file("m.toml", "company = \"X\"\n", read), Ok(()));
        let error = parse_file("m.toml", "company = \"X\"\n\ncompnay = \"Y\"\n", read).unwrap_err();
        assert_eq!(
            error.to_string(),
            "m.toml, línea / line 3, clave / key `compnay`: clave desconocida: revise cómo está escrita / unknown key: check its spelling"
        );
        let error = parse_file("m.toml", "company = 7\n", read).unwrap_err();
        assert_eq!(
            error.to_string(),
            "m.toml, línea / line 1, clave / key `company`: se esperaba un texto entre comillas, hay un número entero / expected a string, found an integer"
        );
        let error = parse_file("m.toml", "company = \"X\"\nplace = \n", read).unwrap_err();
        assert!(
            error.to_string().starts_with(
                "m.toml, línea / line 2, columna / column 9: el archivo no es TOML válido / not valid TOML: "
            ),
            "{error}"
        );
    }
}
