//! The syntax TOML 1.1 added to TOML 1.0, found in a text that the `toml`
//! crate (which reads TOML 1.1) has already parsed.
//!
//! A bylaws profile travels in every audit bundle, and a verifier written
//! in another language loads it with whatever TOML library it has. Most
//! read TOML 1.0 only, so a profile is TOML 1.0 (`docs/profile-format.md`
//! §2): if `asamblea verify` accepted what such a verifier refuses, two
//! conforming verifiers would disagree on one bundle. The `toml` crate 0.9
//! has no TOML 1.0 mode, so what 1.1 added is looked for here, in the
//! text, after the parser accepted it. TOML 1.1.0 added exactly four
//! things (its changelog; everything else in it is a clarification):
//! newlines and a trailing comma in inline tables, the escapes `\e` and
//! `\xHH` in basic strings, and times without seconds.
//!
//! Because the text already parsed as TOML 1.1, the scan can be small: it
//! needs to know only where strings and comments are, which brackets are
//! open, and where a time's colons stand.

/// A construct TOML 1.1 allows and TOML 1.0 does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toml11Only {
    /// A line break inside an inline table `{ … }` (also one that ends a
    /// comment there: TOML 1.0 has no comment inside an inline table).
    NewlineInInlineTable,
    /// A comma right before the `}` that closes an inline table.
    TrailingCommaInInlineTable,
    /// The escape `\e` (U+001B) in a basic string.
    EscapeE,
    /// The escape `\xHH` in a basic string.
    EscapeX,
    /// A time written `HH:MM`, without its seconds.
    TimeWithoutSeconds,
}

impl Toml11Only {
    /// What it is, in Spanish.
    pub const fn spanish(self) -> &'static str {
        match self {
            Toml11Only::NewlineInInlineTable => {
                "un salto de línea (o un comentario) dentro de una tabla en línea `{ … }`"
            }
            Toml11Only::TrailingCommaInInlineTable => "una coma antes del `}` que cierra una tabla en línea",
            Toml11Only::EscapeE => "el escape `\\e`",
            Toml11Only::EscapeX => "un escape `\\xHH`",
            Toml11Only::TimeWithoutSeconds => "una hora sin segundos (`HH:MM`)",
        }
    }

    /// What it is, in English.
    pub const fn english(self) -> &'static str {
        match self {
            Toml11Only::NewlineInInlineTable => "a line break (or a comment) inside an inline table `{ … }`",
            Toml11Only::TrailingCommaInInlineTable => "a comma before the `}` that closes an inline table",
            Toml11Only::EscapeE => "the escape `\\e`",
            Toml11Only::EscapeX => "an escape `\\xHH`",
            Toml11Only::TimeWithoutSeconds => "a time without seconds (`HH:MM`)",
        }
    }
}

/// The first construct of `text` that only TOML 1.1 allows, with its line
/// (from 1). `text` must be TOML 1.1 that the `toml` crate parsed: on
/// anything else the answer means nothing (it never panics).
pub fn first_toml11_only(text: &str) -> Option<(usize, Toml11Only)> {
    let bytes = text.as_bytes();
    let mut scan = Scan { bytes, at: 0, line: 1 };
    // The brackets open at this point: `{` of inline tables, `[` of
    // arrays and of table headers (their contents are keys alone, so
    // telling them apart is not needed).
    let mut open: Vec<u8> = Vec::new();
    while let Some(&byte) = bytes.get(scan.at) {
        let in_inline_table = open.last() == Some(&b'{');
        match byte {
            b'\n' => {
                if in_inline_table {
                    return Some((scan.line, Toml11Only::NewlineInInlineTable));
                }
                scan.line += 1;
            }
            // A comment runs to the end of its line; the line break that
            // ends it is judged as any other.
            b'#' => {
                while bytes.get(scan.at + 1).is_some_and(|&b| b != b'\n') {
                    scan.at += 1;
                }
            }
            b'"' | b'\'' => {
                if let Some(found) = scan.string(byte) {
                    return Some(found);
                }
                continue;
            }
            b'{' | b'[' => open.push(byte),
            b'}' | b']' => {
                open.pop();
            }
            b',' if in_inline_table => {
                let next = bytes[scan.at + 1..].iter().find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
                if next == Some(&b'}') {
                    return Some((scan.line, Toml11Only::TrailingCommaInInlineTable));
                }
            }
            // Outside strings and comments a colon stands only in a time
            // (`HH:MM:SS`) or an offset (`+HH:MM`, `-HH:MM`). The colon
            // after the hours is the one not preceded, three bytes
            // before, by another colon (the seconds' colon) or a sign (an
            // offset's); TOML 1.0 requires the seconds after it.
            b':' => {
                let before = scan.at.checked_sub(3).map(|at| bytes[at]);
                let hours = !matches!(before, Some(b':' | b'+' | b'-'));
                if hours && bytes.get(scan.at + 3) != Some(&b':') {
                    return Some((scan.line, Toml11Only::TimeWithoutSeconds));
                }
            }
            _ => {}
        }
        scan.at += 1;
    }
    None
}

/// A place in the text being scanned.
struct Scan<'a> {
    bytes: &'a [u8],
    /// The byte looked at.
    at: usize,
    /// Its line, from 1.
    line: usize,
}

impl Scan<'_> {
    /// Passes over the string that starts at `self.at` with `quote` (one
    /// of four kinds: basic, literal, and their multi-line forms),
    /// returning a TOML-1.1-only escape if a basic one holds one.
    fn string(&mut self, quote: u8) -> Option<(usize, Toml11Only)> {
        let bytes = self.bytes;
        let multi_line = bytes[self.at..].starts_with(&[quote; 3]);
        self.at += if multi_line { 3 } else { 1 };
        while let Some(&byte) = bytes.get(self.at) {
            if byte == b'\\' && quote == b'"' {
                match bytes.get(self.at + 1) {
                    Some(b'e') => return Some((self.line, Toml11Only::EscapeE)),
                    Some(b'x') => return Some((self.line, Toml11Only::EscapeX)),
                    // A line-ending backslash of a multi-line string.
                    Some(b'\n') => self.line += 1,
                    _ => {}
                }
                self.at += 2;
                continue;
            }
            if byte == b'\n' {
                self.line += 1;
            }
            if byte == quote && !multi_line {
                self.at += 1;
                return None;
            }
            if byte == quote {
                // A multi-line string ends at a run of three or more
                // quotes (up to two before its last three are its own).
                let run = bytes[self.at..].iter().take_while(|&&b| b == quote).count();
                self.at += run;
                if run >= 3 {
                    return None;
                }
                continue;
            }
            self.at += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` is TOML the `toml` crate reads, and its first TOML-1.1-only
    /// construct is `expected`.
    fn check(text: &str, expected: Option<(usize, Toml11Only)>) {
        assert!(text.parse::<toml::Table>().is_ok(), "the toml crate reads {text:?}");
        assert_eq!(first_toml11_only(text), expected, "{text:?}");
    }

    #[test]
    fn what_toml_1_1_added_is_found_with_its_line() {
        use Toml11Only::*;
        check("a = { b = 1,\n c = 2 }\n", Some((1, NewlineInInlineTable)));
        check("x = 1\na = {\n  b = 1 }\n", Some((2, NewlineInInlineTable)));
        check("a = { b = 1 # why\n }\n", Some((1, NewlineInInlineTable)));
        check("a = { b = 1, }\n", Some((1, TrailingCommaInInlineTable)));
        check("a = { b = { c = 1, } }\n", Some((1, TrailingCommaInInlineTable)));
        check("a = \"\\e[0m\"\n", Some((1, EscapeE)));
        check("\n\"k\\x41\" = 1\n", Some((2, EscapeX)));
        check("a = \"\"\"\none\n\\x41\"\"\"\n", Some((3, EscapeX)));
        check("t = 07:32\n", Some((1, TimeWithoutSeconds)));
        check("t = 1979-05-27T07:32Z\n", Some((1, TimeWithoutSeconds)));
        check("t = 1979-05-27 07:32\n", Some((1, TimeWithoutSeconds)));
        check("t = 1979-05-27T07:32-05:00\n", Some((1, TimeWithoutSeconds)));
    }

    #[test]
    fn toml_1_0_is_left_alone_whatever_its_strings_and_comments_hold() {
        for text in [
            "a = { b = 1, c = [1,\n 2,\n ] }\n",
            "a = [\n { b = 1 },\n { c = 2 }, # a comment { ,}\n]\n",
            "[t]\n[[u]]\n[\"v]{\"]\nw = 1\n",
            "a = \"{ b = 1, }\"\nb = 'c:\\e \\x41 07:32'\n",
            "a = \"\\\\e \\\\x41\"\n",
            "a = \"\"\"x\"\"\" # 07:32 { ,}\n",
            "a = \"\"\"one \"\" two\"\"\"\"\"\nb = { c = 1 }\n",
            "a = '''\n{ ,} \\e\n'''\nb = \"\"\"\\\n  c\"\"\"\n",
            "t = 07:32:00\nu = 1979-05-27T07:32:00Z\nv = 1979-05-27 07:32:00.999+05:30\nw = 1979-05-27\n",
            "a = { b = \"x\", c = 'y' }\r\nd = 1\r\n",
        ] {
            check(text, None);
        }
    }
}
