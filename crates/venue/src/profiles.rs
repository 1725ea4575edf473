//! Bylaws profiles from TOML (`config/*.toml`), validated at load.
//!
//! The three shipped profiles are embedded in the binary so that
//! `asamblea` runs from any directory; a profile file of one's own can be
//! loaded with [`parse_profile`]. The format is documented in
//! `docs/profile-format.md`: a profile is TOML 1.0, and what only TOML 1.1
//! allows is refused ([`crate::toml_one`]).

use asamblea_rules::{
    BylawRules, DecisionBase, Majority, MatterKind, MatterRules, MeetingKind, Profile, QuorumRule, Settings,
};

use crate::fields::{FieldError, Fields};

/// The profiles shipped in `config/`, by name.
pub const EMBEDDED: [(&str, &str); 3] = [
    ("grupo-aval", include_str!("../../../config/grupo-aval.toml")),
    ("almagrario", include_str!("../../../config/almagrario.toml")),
    ("legal-default", include_str!("../../../config/legal-default.toml")),
];

/// A profile that could not be loaded: which file, which key, what.
#[derive(Debug, thiserror::Error)]
pub enum ProfileLoadError {
    /// No shipped profile of that name.
    #[error("unknown profile `{0}`: expected one of grupo-aval, almagrario, legal-default")]
    Unknown(String),
    /// Not TOML.
    #[error("{file}: not valid TOML: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// The parser's message, with line and column.
        message: String,
    },
    /// TOML, but of a kind only TOML 1.1 allows: a profile is TOML 1.0, so
    /// that every verifier of a bundle reads the same profiles.
    #[error(
        "{file}, línea {line}: {} es sintaxis de TOML 1.1, y un perfil es TOML 1.0 / line {line}: {} is TOML 1.1 syntax, and a profile is TOML 1.0 (docs/profile-format.md §2)",
        .what.spanish(),
        .what.english()
    )]
    Toml11 {
        /// The file.
        file: String,
        /// The line, from 1.
        line: usize,
        /// What only TOML 1.1 allows.
        what: crate::toml_one::Toml11Only,
    },
    /// A key with a bad value, or missing, or unknown.
    #[error("{file}: {error}")]
    Field {
        /// The file.
        file: String,
        /// The key and what is wrong.
        error: FieldError,
    },
}

/// One of the shipped profiles, by name.
pub fn embedded(name: &str) -> Result<Profile, ProfileLoadError> {
    let (_, text) = EMBEDDED
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| ProfileLoadError::Unknown(name.to_string()))?;
    parse_profile(&format!("config/{name}.toml"), text)
}

/// Parses and validates a profile; `file` names it in errors.
pub fn parse_profile(file: &str, text: &str) -> Result<Profile, ProfileLoadError> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| ProfileLoadError::Syntax {
        file: file.to_string(),
        message: e.to_string(),
    })?;
    // The parser reads TOML 1.1; a profile must be TOML 1.0 (see
    // `toml_one` for why), so what 1.1 added is refused here.
    if let Some((line, what)) = crate::toml_one::first_toml11_only(text) {
        return Err(ProfileLoadError::Toml11 { file: file.to_string(), line, what });
    }
    read_profile(&table).map_err(|error| ProfileLoadError::Field { file: file.to_string(), error })
}

fn read_profile(table: &toml::Table) -> Result<Profile, FieldError> {
    let mut top = Fields::new(table, "");
    let name = top.required_string("name")?.to_string();
    top.string("company")?;
    let settings = match top.table("settings")? {
        Some(t) => read_settings(t, "settings", Settings::default(), true)?,
        None => return Err(top.error("settings", "is required")),
    };
    let matters_table = top.table("matters")?.ok_or_else(|| top.error("matters", "is required"))?;
    top.finish()?;

    let mut matters = Fields::new(matters_table, "matters");
    let mut rules = Vec::new();
    for kind in MatterKind::ALL {
        let Some(value) = matters.value(kind.code()) else {
            return Err(matters.error(kind.code(), "is missing: every matter kind needs its rules"));
        };
        let path = matters.path(kind.code());
        let table = value
            .as_table()
            .ok_or_else(|| FieldError { key: path.clone(), message: "expected a table".into() })?;
        rules.push((kind, read_matter(table, &path)?));
    }
    matters.finish()?;
    Profile::new(name, settings, rules)
        .map_err(|e| FieldError { key: "matters".into(), message: e.to_string() })
}

/// Reads a `[settings]` table over `defaults`. Scenario files use it too,
/// without `legal_representative_impeded` (OQ4), which FORMAT.md does not
/// let a scenario change: `profile_level` says which.
pub fn read_settings(
    table: &toml::Table,
    prefix: &str,
    defaults: Settings,
    profile_level: bool,
) -> Result<Settings, FieldError> {
    let mut f = Fields::new(table, prefix);
    let mut s = defaults;
    if let Some(q) = f.choice("quorum", &["more-than-half", "half-plus-one"], QuorumRule::from_code)? {
        s.quorum = q;
    }
    if let Some(b) = f.choice("base", &["present", "cast"], DecisionBase::from_code)? {
        s.base = b;
    }
    if let Some(v) = f.boolean("listed")? {
        s.listed = v;
    }
    if let Some(v) = f.boolean("pref_full_vote")? {
        s.preferred_full_vote = v;
    }
    if let Some(v) = f.boolean("split_custodians")? {
        s.split_custodians = v;
    }
    if profile_level {
        if let Some(v) = f.boolean("legal_representative_impeded")? {
            s.legal_representative_impeded = v;
        }
    }
    f.finish()?;
    Ok(s)
}

fn read_matter(table: &toml::Table, path: &str) -> Result<MatterRules, FieldError> {
    let mut f = Fields::new(table, path);
    let majority = match f.value("majority") {
        Some(v) => read_majority(v, &f.path("majority"))?,
        None => return Err(f.error("majority", "is required")),
    };
    let mut rules = MatterRules::plain(majority);
    rules.administrators_barred = f.boolean("administrators_barred")?.unwrap_or(false);
    rules.preferred_votes = f.boolean("preferred_votes")?.unwrap_or(false);
    rules.notice_required = f.boolean("notice_required")?.unwrap_or(false);
    rules.withdrawal = f.boolean("withdrawal")?.unwrap_or(false);
    if let Some(bylaws) = f.table("bylaws")? {
        let bpath = f.path("bylaws");
        let mut b = Fields::new(bylaws, bpath.clone());
        let mut out = BylawRules::default();
        if let Some(v) = b.value("majority") {
            out.majority = Some(read_majority(v, &b.path("majority"))?);
        }
        out.majority_only_in = b.choice("only_in", &["ordinary", "extraordinary"], MeetingKind::from_code)?;
        out.first_call_quorum = b.boolean("first_call_quorum")?.unwrap_or(false);
        b.finish()?;
        rules.bylaws = out;
    }
    f.finish()?;
    Ok(rules)
}

fn read_majority(value: &toml::Value, path: &str) -> Result<Majority, FieldError> {
    let bad = |message: String| FieldError { key: path.to_string(), message };
    match value {
        toml::Value::String(s) => match s.as_str() {
            "simple" => Ok(Majority::Simple),
            "electoral-quotient" => Ok(Majority::ElectoralQuotient),
            "single-seat" => Ok(Majority::SingleSeat),
            other => Err(bad(format!(
                "`{other}` is not one of: simple, electoral-quotient, single-seat, or a table {{ percent = N, plural = bool }} / {{ two_class_percent = N }}"
            ))),
        },
        toml::Value::Table(t) => {
            let mut f = Fields::new(t, path);
            let percent = |f: &Fields, key: &str, n: u64| {
                u8::try_from(n)
                    .ok()
                    .filter(|p| (1..=100).contains(p))
                    .ok_or_else(|| f.error(key, format!("must be a percentage from 1 to 100, found {n}")))
            };
            let result = if let Some(n) = f.count("two_class_percent")? {
                Majority::TwoClassSubscribed { percent: percent(&f, "two_class_percent", n)? }
            } else if let Some(n) = f.count("percent")? {
                let plural = f.boolean("plural")?.unwrap_or(false);
                Majority::AtLeastPercent { percent: percent(&f, "percent", n)?, plural }
            } else {
                return Err(bad("expected `percent` or `two_class_percent`".into()));
            };
            f.finish()?;
            Ok(result)
        }
        other => Err(bad(format!("expected a string or a table, found {}", crate::fields::type_name(other)))),
    }
}

/// The profile a bundle names, from the file the bundle carries: what
/// every verifier of a bundle loads (`asamblea_ledger::ProfileLoader`).
pub fn load_profile(name: &str, bytes: &[u8]) -> Result<Profile, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "the profile is not UTF-8 text".to_string())?;
    let profile = parse_profile(&format!("profile `{name}`"), text).map_err(|e| e.to_string())?;
    if profile.name() != name {
        return Err(format!("the profile file is named `{}`, not `{name}`", profile.name()));
    }
    Ok(profile)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_profiles_load() {
        for (name, _) in EMBEDDED {
            let profile = embedded(name).unwrap();
            assert_eq!(profile.name(), name);
        }
    }

    #[test]
    fn every_profile_keeps_the_law_and_legal_default_is_the_law_alone() {
        use asamblea_rules::{BylawRules, MatterKind, MatterRules};
        for (name, _) in EMBEDDED {
            let profile = embedded(name).unwrap();
            for kind in MatterKind::ALL {
                let mut rules = *profile.matter(kind);
                // Almagrario's extra notice gate (its bylaws list the waiver
                // of preemptive rights) is the one addition outside `bylaws`.
                if name == "almagrario" && kind == MatterKind::IssueWithoutPreemptiveRights {
                    rules.notice_required = false;
                }
                if name != "legal-default" {
                    rules.bylaws = BylawRules::default();
                }
                assert_eq!(rules, MatterRules::statutory(kind), "{name}: {kind}");
            }
        }
    }

    fn error_of(text: &str) -> String {
        parse_profile("p.toml", text).unwrap_err().to_string()
    }

    #[test]
    fn a_missing_matter_is_named() {
        let text = EMBEDDED[2].1.replace("stock-dividend", "stock-dividen");
        let message = error_of(&text);
        assert!(message.contains("p.toml"), "{message}");
        assert!(message.contains("matters.stock-dividend"), "{message}");
    }

    #[test]
    fn a_bad_percent_is_named_with_its_key() {
        let text = EMBEDDED[2].1.replace("percent = 78", "percent = 178");
        let message = error_of(&text);
        assert!(message.contains("profit-distribution-below-minimum.majority.percent"), "{message}");
        assert!(message.contains("178"), "{message}");
    }

    #[test]
    fn an_unknown_setting_is_refused() {
        let text = EMBEDDED[0].1.replace("listed = true", "listed = true\nlisteed = false");
        assert!(error_of(&text).contains("key `settings.listeed`: unknown key"));
    }

    #[test]
    fn a_wrong_type_is_named() {
        let text = EMBEDDED[0].1.replace("listed = true", "listed = \"yes\"");
        assert!(error_of(&text).contains("key `settings.listed`: expected true or false, found a string"));
    }

    #[test]
    fn the_shipped_profiles_and_the_vectors_profile_are_toml_1_0() {
        for (name, text) in EMBEDDED {
            assert_eq!(crate::toml_one::first_toml11_only(text), None, "{name}");
        }
        let vectors = include_str!("../../../docs/vectors/profile.toml");
        assert_eq!(crate::toml_one::first_toml11_only(vectors), None, "docs/vectors/profile.toml");
    }

    #[test]
    fn toml_1_1_syntax_is_refused_with_its_line_in_spanish_and_english() {
        // Each construct is one the `toml` crate reads; the profile is
        // otherwise the shipped legal-default, which loads.
        let text = EMBEDDED[2].1;
        assert!(parse_profile("p.toml", text).is_ok());
        let line_of = |needle: &str| text.lines().position(|l| l.contains(needle)).expect("in the file") + 1;
        for (from, to, what) in [
            (
                "ordinary = { majority = \"simple\" }",
                "ordinary = { majority = \"simple\", }",
                "a comma before the `}`",
            ),
            (
                "ordinary = { majority = \"simple\" }",
                "ordinary = {\n  majority = \"simple\" }",
                "a line break",
            ),
            ("anónima", "an\\xF3nima", "`\\xHH`"),
            ("anónima", "anónima\\e", "`\\e`"),
        ] {
            let changed = text.replacen(from, to, 1);
            assert!(changed.parse::<toml::Table>().is_ok(), "{to:?} is TOML 1.1");
            let message = error_of(&changed);
            let line = line_of(from);
            assert!(message.starts_with(&format!("p.toml, línea {line}: ")), "{message}");
            assert!(message.contains("TOML 1.1") && message.contains(what), "{message}");
            assert!(message.contains(&format!(" / line {line}: ")), "{message}");
        }
    }

    #[test]
    fn syntax_errors_name_the_file() {
        assert!(error_of("name = ").starts_with("p.toml: not valid TOML"));
    }
}
