//! Reading TOML tables field by field, with errors that name the key.
//!
//! Config and scenario files come from outside, so every read says what
//! was expected and where; unknown keys are refused, never ignored (a typo
//! in a bylaws profile must not silently fall back to a default).

use std::fmt;

/// A defect in a TOML input: the dotted path of the key, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// Dotted path to the key (`matters.capital-increase.majority`).
    pub key: String,
    /// What is wrong, in a sentence.
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "key `{}`: {}", self.key, self.message)
        }
    }
}

impl std::error::Error for FieldError {}

/// The name TOML gives a value's type, for messages.
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

    fn typed<T>(
        &mut self,
        key: &'a str,
        expected: &str,
        pick: impl FnOnce(&'a toml::Value) -> Option<T>,
    ) -> Result<Option<T>, FieldError> {
        match self.value(key) {
            None => Ok(None),
            Some(value) => match pick(value) {
                Some(v) => Ok(Some(v)),
                None => Err(self.error(key, format!("expected {expected}, found {}", type_name(value)))),
            },
        }
    }

    /// An optional string.
    pub fn string(&mut self, key: &'a str) -> Result<Option<&'a str>, FieldError> {
        self.typed(key, "a string", toml::Value::as_str)
    }

    /// A required string.
    pub fn required_string(&mut self, key: &'a str) -> Result<&'a str, FieldError> {
        self.string(key)?.ok_or_else(|| self.error(key, "is required"))
    }

    /// An optional whole number, zero or more.
    pub fn count(&mut self, key: &'a str) -> Result<Option<u64>, FieldError> {
        match self.typed(key, "a whole number", toml::Value::as_integer)? {
            None => Ok(None),
            Some(n) => u64::try_from(n)
                .map(Some)
                .map_err(|_| self.error(key, format!("must not be negative, found {n}"))),
        }
    }

    /// An optional boolean.
    pub fn boolean(&mut self, key: &'a str) -> Result<Option<bool>, FieldError> {
        self.typed(key, "true or false", toml::Value::as_bool)
    }

    /// An optional table.
    pub fn table(&mut self, key: &'a str) -> Result<Option<&'a toml::Table>, FieldError> {
        self.typed(key, "a table", toml::Value::as_table)
    }

    /// An optional array.
    pub fn array(&mut self, key: &'a str) -> Result<Option<&'a [toml::Value]>, FieldError> {
        self.typed(key, "an array", |v| v.as_array().map(Vec::as_slice))
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
            Some(text) => parse(text)
                .map(Some)
                .ok_or_else(|| self.error(key, format!("`{text}` is not one of: {}", codes.join(", ")))),
        }
    }

    /// Refuses the first key that was never read.
    pub fn finish(self) -> Result<(), FieldError> {
        match self.table.keys().find(|k| !self.read.contains(&k.as_str())) {
            None => Ok(()),
            Some(unknown) => Err(self.error(unknown, "unknown key")),
        }
    }
}
