//! Bylaws profiles from TOML (`config/*.toml`), validated at load.
//!
//! The three shipped profiles are embedded in the binary so that
//! `asamblea` runs from any directory; a profile file of one's own can be
//! loaded with [`parse_profile`]. The format is documented in
//! `docs/profile-format.md`: a profile is TOML 1.0, and what only TOML 1.1
//! allows is refused ([`crate::toml_one`]).

use asamblea_rules::{
    BylawRules, DecisionBase, Majority, MatterKind, MatterRules, MeetingKind, PollTiming, Profile,
    QuorumRule, Settings,
};

use crate::fields::{FieldError, Fields, TomlFileError};

/// The profiles shipped in `config/`, by name.
pub const EMBEDDED: [(&str, &str); 3] = [
    ("grupo-aval", include_str!("../../../config/grupo-aval.toml")),
    ("almagrario", include_str!("../../../config/almagrario.toml")),
    ("legal-default", include_str!("../../../config/legal-default.toml")),
];

/// A profile that could not be loaded: which file, which line and key,
/// what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProfileLoadError {
    /// No shipped profile of that name.
    #[error(
        "no hay un perfil `{0}`: los perfiles son grupo-aval, almagrario y legal-default / unknown profile `{0}`: expected one of grupo-aval, almagrario, legal-default"
    )]
    Unknown(String),
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
    /// Not TOML, or a key with a bad value, missing or unknown: the file,
    /// the line and the key.
    #[error(transparent)]
    File(#[from] TomlFileError),
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
    // The parser reads TOML 1.1; a profile must be TOML 1.0 (see
    // `toml_one` for why), so what 1.1 added is refused here, once the
    // text is TOML at all (a syntax error is said as such first).
    if text.parse::<toml::Table>().is_ok() {
        if let Some((line, what)) = crate::toml_one::first_toml11_only(text) {
            return Err(ProfileLoadError::Toml11 { file: file.to_string(), line, what });
        }
    }
    Ok(crate::fields::parse_file(file, text, read_profile)?)
}

fn read_profile(table: &toml::Table) -> Result<Profile, FieldError> {
    let mut top = Fields::new(table, "");
    let name = top.required_string("name")?.to_string();
    top.string("company")?;
    let (settings, timing) = match top.table("settings")? {
        Some(t) => read_settings_and_timing(t, "settings", Settings::default(), PollTiming::DEFAULT, true)?,
        None => return Err(top.missing("settings")),
    };
    let matters_table = top.table("matters")?.ok_or_else(|| top.missing("matters"))?;
    let remote_presence = match top.table("remote_presence")? {
        Some(t) => read_remote_presence(t)?,
        None => asamblea_rules::RemotePresence::default(),
    };
    top.finish()?;

    let mut matters = Fields::new(matters_table, "matters");
    let mut rules = Vec::new();
    for kind in MatterKind::ALL {
        let Some(value) = matters.value(kind.code()) else {
            return Err(matters.error(
                kind.code(),
                "falta: cada clase de asunto necesita sus reglas / is missing: every matter kind needs its rules",
            ));
        };
        let path = matters.path(kind.code());
        let table = value.as_table().ok_or_else(|| FieldError {
            key: path.clone(),
            message: "se esperaba una tabla / expected a table".into(),
        })?;
        rules.push((kind, read_matter(table, &path)?));
    }
    matters.finish()?;
    Profile::new(name, settings, rules)
        .map(|profile| profile.with_remote_presence(remote_presence).with_poll_timing(timing))
        .map_err(|e| FieldError { key: "matters".into(), message: format!("las reglas no concuerdan / {e}") })
}

/// The profile's `[remote_presence]` (HY-5): `heartbeat_seconds` and
/// `timeout_seconds`, each defaulting to 60 and 300, the timeout longer
/// than the heartbeat.
fn read_remote_presence(table: &toml::Table) -> Result<asamblea_rules::RemotePresence, FieldError> {
    let mut f = Fields::new(table, "remote_presence");
    let mut presence = asamblea_rules::RemotePresence::default();
    for (key, slot) in [
        ("heartbeat_seconds", &mut presence.heartbeat_seconds),
        ("timeout_seconds", &mut presence.timeout_seconds),
    ] {
        if let Some(n) = f.count(key)? {
            *slot = u32::try_from(n).ok().filter(|n| (1..=86_400).contains(n)).ok_or_else(|| {
                f.error(key, format!("{n} no es un número de segundos entre 1 y 86.400 / {n} is not a number of seconds from 1 to 86,400"))
            })?;
        }
    }
    if !presence.is_coherent() {
        return Err(f.error(
            "timeout_seconds",
            "la ausencia debe durar más que un latido / the timeout must be longer than a heartbeat",
        ));
    }
    f.finish()?;
    Ok(presence)
}

/// Reads a `[settings]` table over `defaults`. Scenario files use it too,
/// without `legal_representative_impeded` (OQ4), which FORMAT.md does not
/// let a scenario change: `profile_level` says which. The poll timing's
/// keys are a profile's and a meeting file's only
/// ([`read_settings_and_timing`]): a scenario has no times.
pub fn read_settings(
    table: &toml::Table,
    prefix: &str,
    defaults: Settings,
    profile_level: bool,
) -> Result<Settings, FieldError> {
    let mut f = Fields::new(table, prefix);
    let s = read_settings_from(&mut f, defaults, profile_level)?;
    f.finish()?;
    Ok(s)
}

/// [`read_settings`] of a profile or a meeting file, with the poll timing
/// over `timing` (rules.md §11.5): `poll_minimum_open_seconds` and
/// `poll_minimum_countdown_seconds`, whole seconds from 0 to 86.400.
pub fn read_settings_and_timing(
    table: &toml::Table,
    prefix: &str,
    defaults: Settings,
    timing: PollTiming,
    profile_level: bool,
) -> Result<(Settings, PollTiming), FieldError> {
    let mut f = Fields::new(table, prefix);
    let s = read_settings_from(&mut f, defaults, profile_level)?;
    let seconds = |f: &mut Fields, key: &'static str, default_ms: u64| -> Result<u64, FieldError> {
        match f.count(key)? {
            None => Ok(default_ms),
            Some(n) if n <= 86_400 => Ok(n * 1000),
            Some(n) => Err(f.error(
                key,
                format!("a lo sumo 86.400 segundos (un día), y es {n} / at most 86,400 seconds (a day), found {n}"),
            )),
        }
    };
    let min_open_ms = seconds(&mut f, "poll_minimum_open_seconds", timing.min_open_ms)?;
    let min_countdown_ms = seconds(&mut f, "poll_minimum_countdown_seconds", timing.min_countdown_ms)?;
    f.finish()?;
    Ok((s, PollTiming { min_open_ms, min_countdown_ms }))
}

fn read_settings_from(
    f: &mut Fields,
    defaults: Settings,
    profile_level: bool,
) -> Result<Settings, FieldError> {
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
    Ok(s)
}

fn read_matter(table: &toml::Table, path: &str) -> Result<MatterRules, FieldError> {
    let mut f = Fields::new(table, path);
    let majority = match f.value("majority") {
        Some(v) => read_majority(v, &f.path("majority"))?,
        None => return Err(f.missing("majority")),
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
                "`{other}` no es simple, electoral-quotient, single-seat ni una tabla {{ percent = N, plural = bool }} o {{ two_class_percent = N }} / \
                 `{other}` is not one of: simple, electoral-quotient, single-seat, or a table {{ percent = N, plural = bool }} or {{ two_class_percent = N }}"
            ))),
        },
        toml::Value::Table(t) => {
            let mut f = Fields::new(t, path);
            let percent = |f: &Fields, key: &str, n: u64| {
                u8::try_from(n)
                    .ok()
                    .filter(|p| (1..=100).contains(p))
                    .ok_or_else(|| {
                        f.error(
                            key,
                            format!("debe ser un porcentaje de 1 a 100, y es {n} / must be a percentage from 1 to 100, found {n}"),
                        )
                    })
            };
            let result = if let Some(n) = f.count("two_class_percent")? {
                Majority::TwoClassSubscribed { percent: percent(&f, "two_class_percent", n)? }
            } else if let Some(n) = f.count("percent")? {
                let plural = f.boolean("plural")?.unwrap_or(false);
                Majority::AtLeastPercent { percent: percent(&f, "percent", n)?, plural }
            } else {
                return Err(bad(
                    "se esperaba `percent` o `two_class_percent` / expected `percent` or `two_class_percent`".into(),
                ));
            };
            f.finish()?;
            Ok(result)
        }
        other => {
            let (es, en) = crate::fields::found(other);
            Err(bad(format!("se esperaba un texto o una tabla, hay {es} / expected a string or a table, found {en}")))
        }
    }
}

/// The profile a bundle names, from the file the bundle carries: what
/// every verifier of a bundle loads (`asamblea_ledger::ProfileLoader`,
/// which takes its error as text).
pub fn load_profile(name: &str, bytes: &[u8]) -> Result<Profile, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| {
        format!("el perfil `{name}` no es texto UTF-8 / the profile `{name}` is not UTF-8 text")
    })?;
    let profile = parse_profile(&format!("perfil / profile `{name}`"), text).map_err(|e| e.to_string())?;
    if profile.name() != name {
        return Err(format!(
            "el archivo del perfil se llama `{got}`, no `{name}` / the profile file is named `{got}`, not `{name}`",
            got = profile.name()
        ));
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

    /// A profile may set a remote attendee's heartbeat and timeout; left
    /// out, 60 s and 5 minutes; a timeout no longer than a heartbeat is
    /// refused, named.
    #[test]
    fn remote_presence_defaults_and_its_table_is_read_strictly() {
        use asamblea_rules::RemotePresence;
        let (_, text) = EMBEDDED[2];
        assert_eq!(parse_profile("p.toml", text).unwrap().remote_presence(), RemotePresence::default());
        let with = |table: &str| format!("{text}\n[remote_presence]\n{table}");
        let profile =
            parse_profile("p.toml", &with("heartbeat_seconds = 30\ntimeout_seconds = 90\n")).unwrap();
        assert_eq!(profile.remote_presence(), RemotePresence { heartbeat_seconds: 30, timeout_seconds: 90 });
        let message = error_of(&with("heartbeat_seconds = 300\n"));
        assert!(
            message.contains("`remote_presence.timeout_seconds`: la ausencia debe durar más que un latido"),
            "{message}"
        );
        let message = error_of(&with("heartbeat = 30\n"));
        assert!(message.contains("`remote_presence.heartbeat`: clave desconocida"), "{message}");
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
        let message = error_of(&text);
        assert!(message.starts_with("p.toml, línea / line "), "{message}");
        assert!(message.contains(", clave / key `settings.listeed`: clave desconocida"), "{message}");
        assert!(message.ends_with("/ unknown key: check its spelling"), "{message}");
    }

    #[test]
    fn a_wrong_type_is_named() {
        let text = EMBEDDED[0].1.replace("listed = true", "listed = \"yes\"");
        assert!(error_of(&text).contains(
            "clave / key `settings.listed`: se esperaba true o false, hay un texto / expected true or false, found a string"
        ));
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
        let message = error_of("name = ");
        assert!(
            message.starts_with(
                "p.toml, línea / line 1, columna / column 8: el archivo no es TOML válido / not valid TOML"
            ),
            "{message}"
        );
    }

    #[test]
    fn an_unknown_profile_is_named_spanish_first() {
        let message = embedded("acme").unwrap_err().to_string();
        assert!(message.starts_with("no hay un perfil `acme`"), "{message}");
        assert!(message.contains("/ unknown profile `acme`"), "{message}");
    }
}
