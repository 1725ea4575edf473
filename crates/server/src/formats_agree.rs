//! The formats the OpenAPI document states (`asamblea_api::formats`) held
//! to the validators that decide them here, in both directions: a value
//! the daemon accepts is one the document allows (the document is never
//! stricter: a client written from it can send everything the daemon
//! takes), and a value the document allows the daemon accepts, but for
//! the one gap a schema cannot close (lengths in characters, limits in
//! bytes; a search folded longer).
//!
//! The patterns are read from the schemas themselves, and matched by a
//! small matcher over `regex_syntax`'s parse (the patterns are anchored,
//! so a match is of the whole value, as JSON Schema's search is of an
//! anchored pattern).

use std::collections::BTreeSet;

use proptest::prelude::*;
use regex_syntax::hir::{Class, Hir, HirKind, Look};
use utoipa::openapi::schema::Schema;
use utoipa::openapi::RefOr;

use asamblea_api::formats;

/// A format's schema as the document has it: its pattern, lengths and
/// values.
struct Stated {
    pattern: Option<String>,
    min_length: Option<usize>,
    max_length: Option<usize>,
    values: Option<Vec<String>>,
}

fn stated(name: &str) -> Stated {
    let (_, schema) = formats::all().into_iter().find(|(n, _)| n == name).expect("a format of that name");
    let RefOr::T(Schema::Object(object)) = schema else { panic!("{name}: an inline object schema") };
    Stated {
        pattern: object.pattern.clone(),
        min_length: object.min_length,
        max_length: object.max_length,
        values: object
            .enum_values
            .as_ref()
            .map(|values| values.iter().map(|v| v.as_str().expect("a text value").to_string()).collect()),
    }
}

impl Stated {
    /// Whether the document allows `text`.
    fn allows(&self, text: &str) -> bool {
        let length = text.chars().count();
        self.min_length.is_none_or(|min| length >= min)
            && self.max_length.is_none_or(|max| length <= max)
            && self.pattern.as_ref().is_none_or(|pattern| matches(&parse(pattern), text))
            && self.values.as_ref().is_none_or(|values| values.iter().any(|v| v == text))
    }
}

fn parse(pattern: &str) -> Hir {
    regex_syntax::Parser::new().parse(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"))
}

/// Whether `hir` matches the whole of `text`.
fn matches(hir: &Hir, text: &str) -> bool {
    ends(hir, text, BTreeSet::from([0])).contains(&text.len())
}

/// Where a match of `hir` may end in `text`, starting at any of `starts`
/// (byte offsets).
fn ends(hir: &Hir, text: &str, starts: BTreeSet<usize>) -> BTreeSet<usize> {
    match hir.kind() {
        HirKind::Empty => starts,
        HirKind::Literal(literal) => starts
            .into_iter()
            .filter(|&at| text.as_bytes()[at..].starts_with(&literal.0))
            .map(|at| at + literal.0.len())
            .collect(),
        HirKind::Class(Class::Unicode(class)) => starts
            .into_iter()
            .filter_map(|at| {
                let c = text[at..].chars().next()?;
                class.ranges().iter().any(|r| r.start() <= c && c <= r.end()).then(|| at + c.len_utf8())
            })
            .collect(),
        HirKind::Class(Class::Bytes(_)) => panic!("a pattern of bytes"),
        HirKind::Look(Look::Start) => starts.into_iter().filter(|&at| at == 0).collect(),
        HirKind::Look(Look::End) => starts.into_iter().filter(|&at| at == text.len()).collect(),
        HirKind::Look(other) => panic!("{other:?} is not used by the formats"),
        HirKind::Capture(capture) => ends(&capture.sub, text, starts),
        HirKind::Concat(parts) => parts.iter().fold(starts, |at, part| ends(part, text, at)),
        HirKind::Alternation(branches) => {
            branches.iter().flat_map(|branch| ends(branch, text, starts.clone())).collect()
        }
        HirKind::Repetition(repetition) => {
            let mut reached = if repetition.min == 0 { starts.clone() } else { BTreeSet::new() };
            let mut current = starts;
            let mut seen = BTreeSet::new();
            for round in 1..=repetition.max.unwrap_or(u32::MAX) {
                current = ends(&repetition.sub, text, current);
                // Unbounded: stop once a round reaches nowhere new.
                current.retain(|at| repetition.max.is_some() || seen.insert(*at));
                if current.is_empty() {
                    break;
                }
                if round >= repetition.min {
                    reached.extend(current.iter().copied());
                }
            }
            reached
        }
    }
}

/// Values near a format: drawn from its own pattern, the same with one
/// character put in, taken out or changed, from the pattern with its
/// counts widened by one, and short texts of the characters that
/// tell formats apart (hex digits, spaces and line ends, controls, a
/// letter whose lower case is two, accents, `-`).
fn near(name: &str) -> BoxedStrategy<String> {
    let stated = stated(name);
    let tricky = prop::sample::select(vec![
        'a', 'F', '0', '9', 'g', 'Z', '-', '.', '/', ' ', '\t', '\n', '\r', '\u{0}', '\u{7f}', '\u{85}',
        '\u{a0}', '\u{3000}', 'é', 'ñ', 'İ', '😀',
    ]);
    let short = prop::collection::vec(tricky.clone(), 0..8).prop_map(|c| c.into_iter().collect::<String>());
    let Some(pattern) = stated.pattern else {
        let values = stated.values.expect("a pattern or values");
        return prop_oneof![prop::sample::select(values), short].boxed();
    };
    let unanchored = pattern.trim_start_matches('^').trim_end_matches('$').to_string();
    let own = || proptest::string::string_regex(&unanchored).expect("a pattern proptest draws from");
    let edited = (own(), any::<prop::sample::Index>(), tricky, 0..3u8).prop_map(|(text, at, c, edit)| {
        let mut chars: Vec<char> = text.chars().collect();
        let at = at.index(chars.len() + 1);
        match edit {
            0 => chars.insert(at, c),
            _ if at == chars.len() => {}
            1 => drop(chars.remove(at)),
            _ => chars[at] = c,
        }
        chars.into_iter().collect()
    });
    let widened = proptest::string::string_regex(&widened(&unanchored)).expect("a widened pattern");
    prop_oneof![own(), edited, widened, short].boxed()
}

/// `pattern` with each counted repetition one wider at both ends
/// (`{64}` as `{63,65}`, `{1,32}` as `{0,33}`): values just past a
/// format's lengths.
fn widened(pattern: &str) -> String {
    let mut out = String::new();
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        let (before, after) = rest.split_at(open);
        out.push_str(before);
        let close = after.find('}').expect("a closed repetition");
        let (min, max) = after[1..close].split_once(',').unwrap_or((&after[1..close], &after[1..close]));
        let (min, max): (u32, u32) = (min.parse().expect("a count"), max.parse().expect("a count"));
        out.push_str(&format!("{{{},{}}}", min.saturating_sub(1), max + 1));
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Checks a format against the daemon's validator: accepted implies
/// allowed, always; allowed implies accepted where `exact` says the value
/// is within what a schema can state.
fn check(name: &'static str, accepts: fn(&str) -> bool, exact: fn(&str) -> bool) {
    let stated = stated(name);
    let config = ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() };
    proptest!(config, |(text in near(name))| {
        let (accepted, allowed) = (accepts(&text), stated.allows(&text));
        prop_assert!(!accepted || allowed, "{name}: the daemon accepts {text:?}, the document does not");
        prop_assert!(!allowed || !exact(&text) || accepted, "{name}: the document allows {text:?}, the daemon does not");
    });
}

fn always(_: &str) -> bool {
    true
}

#[test]
fn ids_and_texts_are_stated_as_the_ledger_checks_them() {
    check("Identifier", |t| crate::meeting::id(t, "id").is_ok(), |t| t.len() <= formats::ID_MAX_BYTES);
    check(
        "TrimmedIdentifier",
        |t| crate::meeting::id(t.trim(), "person").is_ok(),
        |t| !t.trim().is_empty() && t.trim().len() <= formats::ID_MAX_BYTES,
    );
    check("ShortText", |t| asamblea_wire::Text::new(t).is_ok(), |t| t.len() <= formats::TEXT_MAX_BYTES);
    check(
        "StatementText",
        |t| crate::secretary::statement_text(t).is_ok(),
        |t| t.trim().len() <= formats::PROSE_MAX_BYTES,
    );
    assert_eq!(formats::ID_MAX_BYTES, asamblea_wire::limits::MAX_ID_LEN);
    assert_eq!(formats::TEXT_MAX_BYTES, asamblea_wire::limits::MAX_TEXT_LEN);
    assert_eq!(formats::PROSE_MAX_BYTES, asamblea_wire::limits::MAX_PROSE_LEN);
}

#[test]
fn hexadecimal_kiosk_ids_and_queries_are_stated_as_the_daemon_checks_them() {
    check("Hex32", |t| asamblea_wire::Digest::from_hex(t).is_ok(), always);
    check(
        "Hex64",
        |t| {
            crate::meeting::unhex(t, "signature")
                .is_ok_and(|b| asamblea_wire::Signature::from_slice(&b).is_ok())
        },
        always,
    );
    check("HexBytes", |t| crate::meeting::unhex(t, "event").is_ok_and(|b| !b.is_empty()), always);
    check("KioskId", |t| asamblea_pki::check_kiosk_id(t).is_ok(), always);
    check("HashPrefix", |t| crate::counted::wanted(t).is_ok(), always);
    check(
        "HolderSearch",
        |t| crate::desk::holder_search(t).is_ok(),
        |t| crate::directory::fold(t.trim()).chars().count() == t.trim().chars().count(),
    );
    check("AgentRole", |t| asamblea_rules::Role::from_code(t).is_some(), always);
    check("ExportFile", |t| crate::secretary::export_format(t).is_some(), always);
}

#[test]
fn the_document_names_no_schema_it_does_not_hold() {
    let document = crate::openapi_json();
    let held: serde_json::Value = serde_json::from_str(document).expect("JSON");
    let schemas = held["components"]["schemas"].as_object().expect("components");
    let mut rest = document;
    while let Some(at) = rest.find("#/components/schemas/") {
        rest = &rest[at + "#/components/schemas/".len()..];
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        assert!(schemas.contains_key(&name), "`{name}` is named but not held");
    }
    for (name, _) in formats::all() {
        assert!(schemas.contains_key(&name), "the format `{name}` is not in the document");
    }
}
