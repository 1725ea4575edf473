//! What the files from outside that are CSV share (the share register,
//! the powers file): their text decoded as Excel in Colombia writes it,
//! their separator, and the file's own line of each record.
//!
//! A file that is not UTF-8 is read as Windows-1252 (Excel's "CSV"
//! there); a UTF-16 file (Excel's "Unicode text") is refused saying so;
//! a header separated by `;` (Excel's list separator where the decimal
//! comma is used) sets `;` as the separator. Each is said in the notes
//! the caller shows the operator.

/// Why a file's bytes are not text this crate reads, Spanish first.
#[derive(Debug)]
pub(crate) enum Undecodable {
    /// The whole file is in an encoding not read here (UTF-16).
    Encoding(String),
    /// A byte at this line is in no encoding read here.
    Line(u64, String),
}

/// The 32 characters Windows-1252 puts at 0x80–0x9F (where Latin-1 has
/// controls); `None` where it has none.
const WINDOWS_1252_HIGH: [Option<char>; 32] = [
    Some('€'),
    None,
    Some('‚'),
    Some('ƒ'),
    Some('„'),
    Some('…'),
    Some('†'),
    Some('‡'),
    Some('ˆ'),
    Some('‰'),
    Some('Š'),
    Some('‹'),
    Some('Œ'),
    None,
    Some('Ž'),
    None,
    None,
    Some('‘'),
    Some('’'),
    Some('“'),
    Some('”'),
    Some('•'),
    Some('–'),
    Some('—'),
    Some('˜'),
    Some('™'),
    Some('š'),
    Some('›'),
    Some('œ'),
    None,
    Some('ž'),
    Some('Ÿ'),
];

/// The file's text: UTF-8 as it is, or Windows-1252 decoded (with a note);
/// refused naming the line when it is neither.
pub(crate) fn decode(file: &str, bytes: Vec<u8>, notes: &mut Vec<String>) -> Result<String, Undecodable> {
    // UTF-16 (Excel's "Unicode text"): a byte-order mark, or the NUL byte
    // every ASCII letter carries in it, in the header's first letter. (A
    // NUL further on is a field's, refused naming its line.)
    let marked = bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]);
    if marked || bytes.iter().take(2).any(|&b| b == 0) {
        let (es, en) = if marked {
            ("el archivo está en UTF-16", "the file is UTF-16")
        } else {
            ("el archivo tiene bytes nulos: parece UTF-16", "the file holds NUL bytes: it looks like UTF-16")
        };
        return Err(Undecodable::Encoding(format!(
                "{es} (lo que Excel llama «Texto Unicode»), no UTF-8: ábralo y guárdelo como «CSV UTF-8 (delimitado por comas)» / {en} (what Excel calls \"Unicode Text\"), not UTF-8: open it and save it as \"CSV UTF-8 (Comma delimited)\""
            )));
    }
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => return Ok(text),
        Err(e) => e.into_bytes(),
    };
    // A file that is UTF-8 but for a bad byte or two is not Windows-1252:
    // read as such, its accented names would turn into mojibake.
    let utf8_accents = bytes.utf8_chunks().any(|chunk| !chunk.valid().is_ascii());
    if utf8_accents {
        let bad = bytes.utf8_chunks().map(|c| c.valid().len()).next().unwrap_or(0);
        let line = bytes[..bad].iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        return Err(Undecodable::Line(line, "el archivo es UTF-8 pero tiene bytes que no lo son: corrija esa línea o guarde de nuevo como CSV UTF-8 / the file is UTF-8 with bytes that are not: fix that line or save again as CSV UTF-8".into()));
    }
    let mut text = String::with_capacity(bytes.len());
    for (at, &b) in bytes.iter().enumerate() {
        let c = match b {
            0x80..=0x9f => WINDOWS_1252_HIGH[usize::from(b - 0x80)],
            _ => Some(char::from(b)),
        };
        let Some(c) = c else {
            let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            return Err(Undecodable::Line(line, format!(
                    "el archivo no es texto UTF-8 ni Windows-1252 (byte 0x{b:02X}); guarde como CSV UTF-8 / the file is neither UTF-8 nor Windows-1252 text; save it as CSV UTF-8"
                )));
        };
        text.push(c);
    }
    notes.push(format!(
        "{file}: no es UTF-8; se leyó como Windows-1252 (lo que escribe Excel). Revise los nombres con tildes y eñes; para evitar dudas, guarde como «CSV UTF-8» / not UTF-8: read as Windows-1252 (what Excel writes); check accented names, or save as CSV UTF-8"
    ));
    Ok(text)
}

/// A CSV reader of `text` with a header row, every row as long as it,
/// separated by [`delimiter`]'s choice.
pub(crate) fn reader<'a>(file: &str, text: &'a str, notes: &mut Vec<String>) -> csv::Reader<&'a [u8]> {
    csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(false)
        .delimiter(delimiter(file, text, notes))
        .from_reader(text.as_bytes())
}

/// `;` when the header line has semicolons and no comma (with a note),
/// else `,`.
fn delimiter(file: &str, text: &str, notes: &mut Vec<String>) -> u8 {
    let header_line = text.lines().next().unwrap_or("");
    if header_line.contains(';') && !header_line.contains(',') {
        notes.push(format!(
            "{file}: separado por punto y coma (como lo guarda Excel en Colombia) / separated by semicolons (as Excel saves it in Colombia)"
        ));
        b';'
    } else {
        b','
    }
}

/// The line and the words, Spanish first, of a record the csv crate
/// could not read.
pub(crate) fn record_problem(lines: &mut Lines<'_>, e: &csv::Error) -> (u64, String) {
    let line = e.position().map_or(0, |p| lines.at(p.byte()));
    let message = match e.kind() {
        csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
            format!(
                "la fila tiene {len} campos y el encabezado {expected_len} / the row has {len} fields where the header has {expected_len}"
            )
        }
        csv::ErrorKind::Utf8 { .. } => {
            "la fila no es texto UTF-8: guarde el archivo como UTF-8 / the row is not valid UTF-8 text: save the file as UTF-8".into()
        }
        _ => format!("la fila no se puede leer como CSV / the row cannot be read as CSV: {e}"),
    };
    (line, message)
}

/// Counts the file's lines (from 1) up to the record at a byte. The
/// csv crate's own `Position::line` is one too low after a CRLF line end
/// (what Excel writes; rust-csv issue 395) and after a blank line (issue
/// 208), and its byte offset may point at the end of the previous line:
/// the line is counted here from the text, past any line ends the offset
/// still points at.
pub(crate) struct Lines<'a> {
    text: &'a str,
    /// The byte up to which line ends are counted, and how many there are.
    counted: usize,
    ends: u64,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Lines { text, counted: 0, ends: 0 }
    }

    /// The line at `byte`. The rows come in order, so each call counts only
    /// the line ends since the last one: linear in the file, not quadratic
    /// (a register of 131.000 rows counted from the start for each row took
    /// minutes; `asamblea bench-scale` times it).
    pub(crate) fn at(&mut self, byte: u64) -> u64 {
        let text = self.text;
        let at = usize::try_from(byte).unwrap_or(usize::MAX).min(text.len());
        let start = text[at..].find(|c| c != '\r' && c != '\n').map_or(text.len(), |n| at + n);
        if start < self.counted {
            // Out of order (an error's position): count afresh.
            self.counted = 0;
            self.ends = 0;
        }
        self.ends += text.as_bytes()[self.counted..start].iter().filter(|&&b| b == b'\n').count() as u64;
        self.counted = start;
        self.ends + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_counted_past_line_ends_in_order_and_out_of_it() {
        let text = "h\r\na\r\n\r\nb\nc\n";
        let mut lines = Lines::new(text);
        assert_eq!(lines.at(0), 1);
        assert_eq!(lines.at(3), 2);
        // An offset on the previous line's end points past it, and a
        // blank line counts.
        assert_eq!(lines.at(5), 4);
        assert_eq!(lines.at(10), 5);
        // Asked again for an earlier place (an error's position).
        assert_eq!(lines.at(3), 2);
        assert_eq!(lines.at(u64::MAX), 6);
    }
}
