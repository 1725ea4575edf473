//! Ids and names from outside (the register, `meeting.toml`), made into
//! one form before they reach the ledger, and checked against the twins a
//! tired eye cannot tell apart.
//!
//! # Which form, and why
//!
//! Every id and name is put in **NFC** (canonical composition): `JOSÉ`
//! typed as `E` + combining acute (NFD, what some Mac exports write) and as
//! `É` become the same bytes, so they are the same holder. NFKC would go
//! further and also fold *compatibility* characters (full-width digits,
//! `ª`, ligatures) into others, silently changing what was written on an
//! identity document; instead such an id is refused unless it is already
//! plain letters and digits, and the operator sees the line.
//!
//! Ids are letters, digits and `- . _ /` only (no spaces, no invisible
//! characters), at most 64 bytes, as the ledger's ids are. Two ids of one
//! file that look alike — the same **UTS #39 skeleton** after folding case,
//! as Latin `C` and Cyrillic `С` do — are refused, naming both lines: they
//! would be two holders on paper and one on the screen. Names keep their
//! spaces and punctuation but lose no character: a NUL, a control or an
//! invisible character is refused.

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;

/// Characters that show nothing (zero-width spaces and joiners, direction
/// marks and overrides, word joiners, the BOM, the soft hyphen): refused in
/// ids and names alike, since two strings that differ only by them look
/// the same.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{E0000}'..='\u{E0FFF}')
}

/// Names a character for an error message: `U+0007`, and the character
/// itself when it shows.
fn describe(c: char) -> String {
    if c.is_control() || is_invisible(c) {
        format!("U+{:04X} (invisible)", u32::from(c))
    } else {
        format!("`{c}` (U+{:04X})", u32::from(c))
    }
}

/// `raw` without the spaces and tabs around it. Only those: a control or
/// an invisible character at either end is refused, not silently dropped.
pub(crate) fn trim(raw: &str) -> &str {
    raw.trim_matches(|c| c == ' ' || c == '\t' || c == '\r')
}

/// Why an id is refused, in Spanish and in English, for a caller that
/// names the field in each language ([`agent_id`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdProblem {
    /// In Spanish.
    pub es: String,
    /// In English.
    pub en: String,
}

impl std::fmt::Display for IdProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} / {}", self.es, self.en)
    }
}

/// An id (a holder's, an agenda item's), trimmed and in NFC, or what is
/// wrong with it in Spanish and English.
pub fn id(raw: &str) -> Result<String, String> {
    checked_id(raw).map_err(|problem| problem.to_string())
}

/// The one rule for ids, [`id`]'s, with its reason in each language.
pub fn checked_id(raw: &str) -> Result<String, IdProblem> {
    let problem = |es: String, en: String| IdProblem { es, en };
    let id: String = trim(raw).nfc().collect();
    if id.is_empty() {
        return Err(problem("está vacío".into(), "is empty".into()));
    }
    if let Some(c) = id.chars().find(|c| !(c.is_alphanumeric() || "-._/".contains(*c))) {
        return Err(problem(
            format!("contiene {}: un identificador lleva solo letras, dígitos y - . _ /", describe(c)),
            format!("contains {}: an id holds letters, digits and - . _ / only", describe(c)),
        ));
    }
    if let Some(c) = id.chars().find(|c| c.to_string().nfkc().collect::<String>() != c.to_string()) {
        return Err(problem(
            format!(
                "contiene {}, un carácter de compatibilidad (dígitos de ancho completo, superíndices, ª…): escríbalo con letras y dígitos corrientes",
                describe(c)
            ),
            format!("contains {}, a compatibility character: write plain letters and digits", describe(c)),
        ));
    }
    asamblea_wire::Id::new(&id)
        .map_err(|e| problem("no cabe en el registro".into(), format!("does not fit the ledger: {e}")))?;
    Ok(id)
}

/// An agent's id as typed at the desk (who is not in the register): held
/// to the register's own rule ([`checked_id`]), so what a register
/// refuses — a direction override, `<`, `=`, `@`, a space — is refused
/// here too; the reason names the agent, Spanish first.
pub fn agent_id(raw: &str) -> Result<asamblea_wire::Id, IdProblem> {
    let named = |problem: IdProblem| IdProblem {
        es: format!("el identificador del apoderado {}", problem.es),
        en: format!("the agent's id {}", problem.en),
    };
    let id = checked_id(raw).map_err(named)?;
    asamblea_wire::Id::new(&id).map_err(|e| {
        named(IdProblem { es: "no cabe en el registro".into(), en: format!("does not fit the ledger: {e}") })
    })
}

/// A name or title, trimmed and in NFC; refused when empty (unless
/// `may_be_empty`) or holding a NUL, a control or an invisible character.
pub fn name(raw: &str, may_be_empty: bool) -> Result<String, String> {
    let name: String = trim(raw).nfc().collect();
    if name.is_empty() && !may_be_empty {
        return Err("está vacío / is empty".into());
    }
    if let Some(c) = name.chars().find(|c| c.is_control() || is_invisible(*c)) {
        return Err(format!("contiene {} / contains {}", describe(c), describe(c)));
    }
    Ok(name)
}

/// A holder's name in the register: a [`name`] that fits the ledger's
/// texts (it is recorded, for the acta, at most 256 bytes).
pub fn holder_name(raw: &str) -> Result<String, String> {
    let name = name(raw, false)?;
    asamblea_wire::Text::new(&name).map_err(|e| {
        format!("no cabe en el registro (a lo sumo 256 bytes) / does not fit the ledger: {e}")
    })?;
    Ok(name)
}

/// A list's name on a ballot: a [`name`] that also fits the ledger's ids
/// (it is recorded as one).
pub fn list_name(raw: &str) -> Result<String, String> {
    let name = name(raw, false)?;
    asamblea_wire::Id::new(&name)
        .map_err(|e| format!("no cabe en el registro / does not fit the ledger: {e}"))?;
    Ok(name)
}

/// An agenda item's title: a [`name`] that fits the ledger's texts (it is
/// recorded in the convened agenda, at most 256 bytes).
pub fn title(raw: &str) -> Result<String, String> {
    let title = name(raw, false)?;
    asamblea_wire::Text::new(&title)
        .map_err(|e| format!("no cabe en el registro / does not fit the ledger: {e}"))?;
    Ok(title)
}

/// The form two strings share when they look alike: the UTS #39 skeleton
/// of the case-folded string.
pub fn skeleton(text: &str) -> String {
    let folded = text.to_lowercase();
    let skeleton: String = unicode_security::confusable_detection::skeleton(&folded).collect();
    skeleton.to_lowercase()
}

/// Finds look-alike twins among strings, each with where it came from.
#[derive(Default)]
pub struct Twins<P> {
    seen: HashMap<String, (String, P)>,
}

impl<P: Clone> Twins<P> {
    /// Records `text` (from `place`); if a *different* string that looks
    /// the same was recorded, returns it with its place.
    pub fn check(&mut self, text: &str, place: P) -> Option<(String, P)> {
        match self.seen.get(&skeleton(text)) {
            Some((other, at)) if other != text => Some((other.clone(), at.clone())),
            Some(_) => None,
            None => {
                self.seen.insert(skeleton(text), (text.to_string(), place));
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_nfc_and_plain() {
        assert_eq!(id(" CC-79123456 ").unwrap(), "CC-79123456");
        assert_eq!(id("JOSE\u{301}-1").unwrap(), "JOSÉ-1", "NFD becomes NFC");
        for bad in [
            "CC 1",
            "CC-1\u{7}",
            "CC-1\u{85}",
            "CC-1\u{7f}",
            "CC\u{200B}-1",
            "",
            &"9".repeat(65),
            "CC-１２３",
            "CC-1²",
            "Nª-1",
        ] {
            assert!(id(bad).is_err(), "{bad:?} must be refused");
        }
        assert!(id("CC\u{200B}-1").unwrap_err().contains("U+200B (invisible)"));
    }

    #[test]
    fn an_agents_id_is_held_to_the_registers_rule_and_the_reason_names_the_agent() {
        assert_eq!(agent_id(" CC-JOSE\u{301} ").unwrap().as_str(), "CC-JOSÉ");
        for bad in ["\u{202E}gnp.exe", "<b>", "=1+1", "a@b.co", "CC 1", "", "CC-１"] {
            assert!(id(bad).is_err(), "{bad:?}: the register takes it");
            let problem = agent_id(bad).unwrap_err();
            assert!(problem.es.starts_with("el identificador del apoderado "), "{problem}");
            assert!(problem.en.starts_with("the agent's id "), "{problem}");
        }
        assert!(agent_id("\u{202E}gnp.exe").unwrap_err().es.contains("U+202E (invisible)"));
    }

    #[test]
    fn names_keep_their_words_but_no_hidden_character() {
        assert_eq!(name("  María  José Ruiz ", false).unwrap(), "María  José Ruiz");
        assert!(name("Ana\0", false).unwrap_err().contains("U+0000"));
        assert!(name("Ana\u{202E}zuR", false).is_err(), "a direction override");
        assert!(name("", false).is_err());
        assert_eq!(name("", true).unwrap(), "");
    }

    #[test]
    fn twins_that_look_alike_are_found_and_the_same_text_is_not() {
        let mut twins = Twins::default();
        assert_eq!(twins.check("CC-1", 2), None);
        assert_eq!(twins.check("CC-1", 3), None, "the same id again is not a twin");
        assert_eq!(twins.check("\u{421}C-1", 4), Some(("CC-1".to_string(), 2)), "Cyrillic С");
        assert_eq!(twins.check("cc-1", 5), Some(("CC-1".to_string(), 2)), "case");
        assert_eq!(twins.check("CC-2", 6), None);
        assert_eq!(twins.check("C0-7", 7), None);
        assert_eq!(twins.check("CO-7", 8), Some(("C0-7".to_string(), 7)), "O and 0 look alike");
    }
}
