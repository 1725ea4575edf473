//! Text that fits its box on a badge (see the module's "Text that fits"):
//! the largest size at which a text fits in its lines, balanced lines, and
//! past the smallest size the rest on the last line, to be squeezed; widths
//! estimated from Helvetica's advances, erring wide.

use super::*;

/// The principals joined with commas, as many as fit, the rest counted:
/// `Ana Gómez, Inversiones El Roble S.A.S. y 3 más`.
pub(super) fn fit_principals(
    principals: &[String],
    style: &TextStyle,
    width: u32,
    max_height: u32,
) -> Fitted {
    let listing = |shown: usize| {
        let names = principals[..shown].join(", ");
        match principals.len() - shown {
            0 => names,
            rest => format!("{names} y {rest} más"),
        }
    };
    (1..=principals.len())
        .rev()
        .find_map(|shown| try_fit(&listing(shown), style, width, max_height))
        .unwrap_or_else(|| fit_or_truncate(&listing(1), style, width, max_height))
}

/// A text broken into lines at one size.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Fitted {
    pub(super) size: u32,
    pub(super) lines: Vec<String>,
}

impl Fitted {
    pub(super) fn height(&self) -> u32 {
        block_height(self.size, self.lines.len())
    }
}

pub(super) fn line_height(size: u32) -> u32 {
    size * 6 / 5
}

/// From the top of the first line's ascenders to the bottom of the last
/// line's descenders.
pub(super) fn block_height(size: u32, lines: usize) -> u32 {
    match lines {
        0 => 0,
        n => size + (n as u32 - 1) * line_height(size),
    }
}

/// The largest size at which `text` fits `width` × `max_height` in at most
/// the style's number of lines, breaking only between words.
pub(super) fn try_fit(text: &str, style: &TextStyle, width: u32, max_height: u32) -> Option<Fitted> {
    let words: Vec<&str> = text.split_whitespace().collect();
    (style.min_size..=style.max_size).rev().find_map(|size| {
        let lines = wrap(&words, width, size, style.bold);
        let fits = lines.len() <= style.max_lines
            && block_height(size, lines.len()) <= max_height
            && lines.iter().all(|line| estimated_width(line, size, style.bold) <= width);
        fits.then(|| Fitted { size, lines: balance(&words, lines.len(), width, size, style.bold) })
    })
}

/// The same words in the same number of lines, but as even as they go: the
/// narrowest width at which greedy breaking still needs no more lines. So a
/// title reads "Asamblea General Ordinaria / de Accionistas 2025" rather
/// than leaving "2025" alone on the second line.
pub(super) fn balance(words: &[&str], line_count: usize, width: u32, size: u32, bold: bool) -> Vec<String> {
    // Greedy breaking never needs fewer lines in a narrower box, so the
    // narrowest such width can be bisected.
    let (mut too_narrow, mut enough) = (0, width);
    while enough - too_narrow > 1 {
        let middle = too_narrow + (enough - too_narrow) / 2;
        if wrap(words, middle, size, bold).len() <= line_count {
            enough = middle;
        } else {
            too_narrow = middle;
        }
    }
    wrap(words, enough, size, bold)
}

/// [`try_fit`], or else the text at the smallest size, the lines past the
/// last that fits joined on it; a line wider than the box (that one, or a
/// single long word) stays whole: [`Mark::Text`] squeezes it in
/// (`textLength` in the SVG, horizontal scaling in the PDF).
pub(super) fn fit_or_truncate(text: &str, style: &TextStyle, width: u32, max_height: u32) -> Fitted {
    if let Some(fitted) = try_fit(text, style, width, max_height) {
        return fitted;
    }
    let size = style.min_size;
    let lines_in_height = match max_height.checked_sub(size) {
        Some(spare) => spare / line_height(size) + 1,
        None => 1,
    };
    let allowed = style.max_lines.min(lines_in_height as usize).max(1);
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut lines = wrap(&words, width, size, style.bold);
    if lines.len() > allowed {
        // Every character stays on the badge: what does not fit goes on
        // the last line, which [`Mark::Text`] squeezes into the width.
        let rest = lines[allowed - 1..].join(" ");
        lines.truncate(allowed - 1);
        lines.push(rest);
    }
    Fitted { size, lines }
}

/// Greedy line breaking: each line takes as many words as fit.
pub(super) fn wrap(words: &[&str], width: u32, size: u32, bold: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in words {
        if current.is_empty() {
            current.push_str(word);
            continue;
        }
        let candidate = format!("{current} {word}");
        if estimated_width(&candidate, size, bold) <= width {
            current = candidate;
        } else {
            lines.push(std::mem::replace(&mut current, (*word).to_string()));
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

/// The width of `text` set at `size`, in the same units, erring wide:
/// Helvetica's advances plus 15 % (25 % for bold), which covers DejaVu Sans,
/// the widest of the usual fallbacks, for renderers that ignore
/// `textLength` (librsvg does).
pub(super) fn estimated_width(text: &str, size: u32, bold: bool) -> u32 {
    let per_mille: u32 = text.chars().map(advance_per_mille).sum();
    let margin = if bold { 125 } else { 115 };
    let width = u64::from(per_mille) * u64::from(size) * margin / 100_000;
    u32::try_from(width).unwrap_or(u32::MAX)
}

/// A character's advance in thousandths of the font size (Helvetica's AFM
/// widths), accented Latin letters as their base letter.
pub(super) fn advance_per_mille(c: char) -> u32 {
    match strip_accent(c) {
        ' ' | '!' | ',' | '.' | '/' | ':' | ';' | '[' | '\\' | ']' | 'f' | 't' | 'I' => 278,
        'i' | 'j' | 'l' => 222,
        '\'' => 191,
        '|' => 260,
        '(' | ')' | '-' | '`' | 'r' => 333,
        '{' | '}' => 334,
        '"' => 355,
        '*' => 389,
        '^' => 469,
        'c' | 'k' | 's' | 'v' | 'x' | 'y' | 'z' | 'J' => 500,
        '0'..='9'
        | '#'
        | '$'
        | '?'
        | '_'
        | 'a'
        | 'b'
        | 'd'
        | 'e'
        | 'g'
        | 'h'
        | 'n'
        | 'o'
        | 'p'
        | 'q'
        | 'u' => 556,
        'L' => 556,
        '+' | '<' | '=' | '>' | '~' => 584,
        'F' | 'T' | 'Z' => 611,
        '&' | 'A' | 'B' | 'E' | 'K' | 'P' | 'S' | 'V' | 'X' | 'Y' => 667,
        'C' | 'D' | 'H' | 'N' | 'R' | 'U' | 'w' => 722,
        'G' | 'O' | 'Q' => 778,
        'm' | 'M' => 833,
        '%' => 889,
        'W' => 944,
        '@' | '—' | '…' => 1000,
        '·' => 278,
        '¿' => 611,
        '¡' => 333,
        'º' | 'ª' => 370,
        c if u32::from(c) >= 0x1100 => 1000,
        c if c.is_uppercase() => 722,
        _ => 600,
    }
}

pub(super) fn strip_accent(c: char) -> char {
    match c {
        'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' => 'a',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'í' | 'ì' | 'î' | 'ï' => 'i',
        'ó' | 'ò' | 'ô' | 'ö' | 'õ' => 'o',
        'ú' | 'ù' | 'û' | 'ü' => 'u',
        'ñ' => 'n',
        'ç' => 'c',
        'Á' | 'À' | 'Â' | 'Ä' | 'Ã' | 'Å' => 'A',
        'É' | 'È' | 'Ê' | 'Ë' => 'E',
        'Í' | 'Ì' | 'Î' | 'Ï' => 'I',
        'Ó' | 'Ò' | 'Ô' | 'Ö' | 'Õ' => 'O',
        'Ú' | 'Ù' | 'Û' | 'Ü' => 'U',
        'Ñ' => 'N',
        'Ç' => 'C',
        c => c,
    }
}
