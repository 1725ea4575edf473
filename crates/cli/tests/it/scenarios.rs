//! The project's own conformance scenarios (`tests/scenarios/*.toml`), each
//! replayed and compared with its `[expect]`.

use asamblea::scenario;

use crate::workspace_root;

fn scenario_files() -> Vec<std::path::PathBuf> {
    let dir = workspace_root().join("tests/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_own_scenario_matches_its_expectations() {
    let files = scenario_files();
    assert!(files.len() >= 25, "the suite needs at least 25 scenarios, found {}", files.len());
    let mut failures = Vec::new();
    for file in &files {
        let name = file.display().to_string();
        let text = std::fs::read_to_string(file).expect("readable scenario");
        let parsed = match scenario::parse(&name, &text) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{e}"));
                continue;
            }
        };
        let expect = parsed.expect.clone().unwrap_or_else(|| panic!("{name} has no [expect]"));
        assert!(expect.get("steps").is_some(), "{name}: [expect] must list every step");
        let actual = scenario::outcome_json(&scenario::replay(&parsed));
        for difference in scenario::compare(&expect, &actual) {
            failures.push(format!("{name}: {difference}"));
        }
    }
    assert!(failures.is_empty(), "{} differences:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_own_scenarios_cover_every_code_matter_and_outcome() {
    use std::collections::BTreeSet;
    let mut errors = BTreeSet::new();
    let mut matters = BTreeSet::new();
    let mut outcomes = BTreeSet::new();
    for file in scenario_files() {
        let text = std::fs::read_to_string(&file).expect("readable scenario");
        let parsed = scenario::parse(&file.display().to_string(), &text).expect("valid scenario");
        let actual = scenario::outcome_json(&scenario::replay(&parsed));
        for step in actual["steps"].as_array().expect("steps") {
            if let Some(code) = step["error"].as_str() {
                errors.insert(code.to_string());
            }
        }
        for item in actual["items"].as_object().expect("items").values() {
            matters.insert(item["matter"].as_str().expect("matter").to_string());
            outcomes.insert(item["outcome"].as_str().expect("outcome").to_string());
        }
    }
    let missing_errors: Vec<_> =
        asamblea_rules::Refusal::ALL.iter().map(|r| r.code()).filter(|c| !errors.contains(*c)).collect();
    let missing_matters: Vec<_> =
        asamblea_rules::MatterKind::ALL.iter().map(|m| m.code()).filter(|c| !matters.contains(*c)).collect();
    let missing_outcomes: Vec<_> =
        ["open", "pass", "fail", "no-quorum", "all-impeded", "elected", "lot-required"]
            .into_iter()
            .filter(|c| !outcomes.contains(*c))
            .collect();
    assert!(missing_errors.is_empty(), "no scenario refuses a step with {missing_errors:?}");
    assert!(missing_matters.is_empty(), "no scenario opens {missing_matters:?}");
    assert!(missing_outcomes.is_empty(), "no scenario ends an item as {missing_outcomes:?}");
}

#[test]
fn the_demo_meeting_replays_with_its_expectations() {
    let parsed =
        scenario::parse("config/demo-meeting.toml", asamblea::cli::DEMO_SCENARIO).expect("valid demo");
    let actual = scenario::outcome_json(&scenario::replay(&parsed));
    let expect = parsed.expect.as_ref().expect("the demo states what it shows");
    assert_eq!(scenario::compare(expect, &actual), vec![]);
}
