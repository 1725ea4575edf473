//! Text inside HTML, SVG and XML, escaped: written once for every page and
//! document (badges, the board's receipt page, the acta to come).

/// `text` with the five XML special characters escaped, and the characters
/// XML 1.0 forbids (C0 controls other than tab and line breaks, U+FFFE,
/// U+FFFF) replaced by U+FFFD so that a stray byte in the register shows as
/// `�` instead of making the whole document unreadable.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_special_characters_are_escaped_and_forbidden_ones_replaced() {
        assert_eq!(
            super::escape("<b>\"x\" & 'y'</b>\u{7}\n"),
            "&lt;b&gt;&quot;x&quot; &amp; &apos;y&apos;&lt;/b&gt;\u{FFFD}\n"
        );
    }
}
