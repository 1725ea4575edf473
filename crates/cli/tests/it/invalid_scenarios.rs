//! Scenario files that are not valid are refused before anything runs,
//! with the file, the step index and the key (FORMAT.md "File validation").

use asamblea::scenario::{self, Place};

const HEAD: &str = r#"
title = "t"
profile = "legal-default"
[capital]
ORD = { subscribed = 1_000, treasury = 0 }
PREF = { subscribed = 100 }
[[holder]]
id = "A"
shares = { ORD = 600 }
[[holder]]
id = "B"
shares = { ORD = 400, PREF = 100 }
"#;

/// Parses `HEAD + tail` and checks that it is refused at `place` with a
/// message containing every fragment of `expected`.
fn check(tail: &str, place: Place, expected: &[&str]) {
    let text = format!("{HEAD}{tail}");
    let error = scenario::parse("bad.toml", &text).expect_err("the file is invalid");
    assert_eq!(error.place, place, "{error}");
    let message = error.to_string();
    assert!(message.starts_with("bad.toml: "), "{message}");
    for fragment in expected {
        assert!(message.contains(fragment), "`{message}` lacks `{fragment}`");
    }
}

/// Like [`check`] for a top-level key, which TOML wants before any table.
fn check_top(line: &str, expected: &[&str]) {
    let text = format!("{line}\n{HEAD}");
    let error = scenario::parse("bad.toml", &text).expect_err("the file is invalid");
    assert_eq!(error.place, Place::Top, "{error}");
    let message = error.to_string();
    for fragment in expected {
        assert!(message.contains(fragment), "`{message}` lacks `{fragment}`");
    }
}

/// The line of the `n`th `[[step]]` of `HEAD + tail`.
fn step_at(tail: &str, index: usize) -> Place {
    let text = format!("{HEAD}{tail}");
    let line =
        text.lines().enumerate().filter(|(_, l)| l.trim() == "[[step]]").nth(index).map(|(i, _)| i + 1);
    Place::Step { index, line }
}

#[test]
fn a_valid_head_parses() {
    let parsed = scenario::parse("ok.toml", HEAD).expect("valid");
    assert_eq!(parsed.register.len(), 2);
}

#[test]
fn unknown_keys_are_refused_everywhere() {
    check_top("colour = 1", &["key `colour`", "unknown key"]);
    check("[settings]\nquorom = \"x\"\n", Place::Top, &["key `settings.quorom`", "unknown key"]);
    check("[[holder]]\nid = \"C\"\nshares = { ORD = 0 }\nweight = 2\n", Place::Holder(2), &["key `weight`"]);
    let tail = "[[step]]\narrive = \"A\"\n[[step]]\nclose = \"i\"\nwhen = 3\n";
    check(tail, step_at(tail, 1), &["paso / step[1] (línea / line 15)", "key `when`", "unknown key"]);
    check("[expect]\nsteeps = []\n", Place::Top, &["key `expect.steeps`"]);
}

#[test]
fn a_step_needs_exactly_one_action() {
    let tail = "[[step]]\nholder = \"A\"\n";
    check(
        tail,
        step_at(tail, 0),
        &["paso / step[0] (línea / line 13)", "el paso no tiene acción", "/ the step has no action"],
    );
    let tail = "[[step]]\narrive = \"A\"\n[[step]]\nopen = \"i\"\nclose = \"i\"\nmatter = \"ordinary\"\n";
    check(tail, step_at(tail, 1), &["paso / step[1]", "exactamente una acción", "exactly one action"]);
}

#[test]
fn negative_numbers_and_wrong_types_are_refused() {
    check(
        "[[holder]]\nid = \"C\"\nshares = { ORD = -5 }\n",
        Place::Holder(2),
        &["accionista / holder[2]: ", "key `shares.ORD`", "negativo", "negative"],
    );
    let tail = "[[step]]\nopen = \"e\"\nmatter = \"board-election\"\nseats = -1\nlists = [\"X\"]\n";
    check(tail, step_at(tail, 0), &["key `seats`", "negative"]);
    let tail = "[[step]]\nvote = \"i\"\nholder = \"A\"\nchoice = 1\n";
    check(
        tail,
        step_at(tail, 0),
        &["key `choice`", "hay un número entero / expected a string, found an integer"],
    );
    let tail = "[[step]]\nopen = \"i\"\nmatter = \"ordinary\"\nnoticed = \"no\"\n";
    check(tail, step_at(tail, 0), &["key `noticed`", "expected true or false"]);
    let tail = "[[step]]\nvote = \"i\"\nholder = \"A\"\nsplit = { for = 1.5 }\n";
    check(tail, step_at(tail, 0), &["key `split.for`", "whole number"]);
}

#[test]
fn unknown_profiles_matters_and_codes_are_refused() {
    let text = HEAD.replace("legal-default", "acme");
    let error = scenario::parse("bad.toml", &text).unwrap_err().to_string();
    assert!(error.contains("key `profile`") && error.contains("unknown profile `acme`"), "{error}");
    let tail = "[[step]]\nopen = \"i\"\nmatter = \"dividend\"\n";
    check(tail, step_at(tail, 0), &["key `matter`", "`dividend` is not one of"]);
    check_top("meeting = \"annual\"", &["key `meeting`"]);
    check_top("call = \"third\"", &["key `call`"]);
    check("[settings]\nbase = \"votes\"\n", Place::Top, &["key `settings.base`"]);
    check("[[holder]]\nid = \"C\"\nshares = {}\nrole = \"director\"\n", Place::Holder(2), &["key `role`"]);
    let tail = "[[step]]\narrive = \"X\"\nrepresents = [\"A\"]\nas = \"friend\"\n";
    check(tail, step_at(tail, 0), &["key `as`"]);
}

#[test]
fn the_profile_is_required_but_meeting_and_call_default() {
    let text = HEAD.replace("profile = \"legal-default\"\n", "");
    let error = scenario::parse("bad.toml", &text).unwrap_err().to_string();
    assert!(error.contains("clave / key `profile`: falta: es obligatoria / is required"), "{error}");
    let parsed = scenario::parse("ok.toml", HEAD).expect("valid");
    assert_eq!(parsed.meeting, asamblea_rules::MeetingKind::Ordinary);
    assert_eq!(parsed.call, asamblea_rules::Call::First);
}

#[test]
fn the_register_must_fit_the_capital() {
    check(
        "[[holder]]\nid = \"A\"\nshares = { ORD = 0 }\n",
        Place::Holder(2),
        &["key `id`", "el accionista `A` aparece dos veces / holder `A` appears twice"],
    );
    check("[[holder]]\nid = \"C\"\nshares = { ORD = 1 }\n", Place::Top, &["capital.ORD", "1001", "1000"]);
    let text = HEAD.replace("treasury = 0", "treasury = 1_001");
    let error = scenario::parse("bad.toml", &text).unwrap_err().to_string();
    assert!(error.contains("capital.ORD.treasury") && error.contains("exceed"), "{error}");
    // Treasury shares are left out: holdings must fit what is outstanding.
    let text = HEAD.replace("treasury = 0", "treasury = 1");
    let error = scenario::parse("bad.toml", &text).unwrap_err().to_string();
    assert!(error.contains("capital.ORD") && error.contains("999"), "{error}");
}

#[test]
fn elections_and_decisions_take_the_keys_that_fit_them() {
    let cases = [
        ("open = \"i\"\nmatter = \"ordinary\"\nseats = 2\n", "key `seats`"),
        ("open = \"i\"\nmatter = \"ordinary\"\nlists = [\"A\"]\n", "key `lists`"),
        ("open = \"e\"\nmatter = \"board-election\"\nseats = 2\n", "key `lists`"),
        ("open = \"e\"\nmatter = \"board-election\"\nlists = [\"X\"]\n", "key `seats`"),
        ("open = \"e\"\nmatter = \"single-seat-election\"\nseats = 2\nlists = [\"X\"]\n", "key `seats`"),
        ("open = \"e\"\nmatter = \"board-election\"\nseats = 0\nlists = [\"X\"]\n", "key `seats`"),
        (
            "open = \"e\"\nmatter = \"board-election\"\nseats = 1\nlists = [\"X\", \"blank\"]\n",
            "key `lists[1]`",
        ),
        ("open = \"e\"\nmatter = \"board-election\"\nseats = 1\nlists = [\"X\", \"X\"]\n", "key `lists[1]`"),
        ("arrive = \"X\"\nrepresents = []\n", "key `represents`"),
        ("arrive = \"X\"\nrepresents = [\"A\", \"A\"]\n", "key `represents[1]`"),
        ("arrive = \"A\"\nas = \"proxy\"\n", "key `as`"),
        ("arrive = \"A\"\nagent_role = \"employee\"\n", "key `agent_role`"),
        ("vote = \"i\"\nholder = \"A\"\n", "key `choice`"),
        ("vote = \"i\"\nholder = \"A\"\nchoice = \"for\"\nsplit = { for = 600 }\n", "key `split`"),
        ("vote = \"i\"\nholder = \"A\"\nsplit = {}\n", "key `split`"),
        ("vote = \"i\"\nchoice = \"for\"\n", "key `holder`"),
        ("draw = \"e\"\n", "key `winner`"),
        ("open = \"i\"\n", "key `matter`"),
    ];
    for (body, key) in cases {
        let tail = format!("[[step]]\narrive = \"A\"\n[[step]]\n{body}");
        check(&tail, step_at(&tail, 1), &["paso / step[1] (línea / line 15): ", key]);
    }
}

#[test]
fn syntax_errors_name_the_file() {
    let error = scenario::parse("bad.toml", "profile = \n").unwrap_err();
    assert_eq!(error.place, Place::File);
    assert!(
        error.to_string().starts_with("bad.toml: el archivo no es TOML válido / not valid TOML"),
        "{error}"
    );
}
