//! The project's own conformance scenarios (`tests/scenarios/*.toml`), each
//! replayed and compared with its `[expect]`.

use asamblea::scenario;

use crate::workspace_root;

pub(crate) fn scenario_files() -> Vec<std::path::PathBuf> {
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

/// Every scenario, own and public, recorded the way the daemon records a
/// meeting (`asamblea scenario --bundle`): its bundle verifies, and every
/// item the scenario decides without a named lot ends, in the ledger, with
/// the very figures the rules engine gave the scenario. (Items whose
/// scenario names lot winners are left out: the daemon draws lots from the
/// chain.)
#[test]
fn every_scenario_recorded_as_the_daemon_would_verifies_with_its_outcomes() {
    let mut files = scenario_files();
    let public = workspace_root().join("../shared/scenarios");
    if let Ok(entries) = std::fs::read_dir(&public) {
        files.extend(
            entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "toml")),
        );
    }
    let options = asamblea_ledger::VerifyOptions::bundle_alone(&asamblea::commands::load_profile);
    let mut compared = 0;
    for file in &files {
        let name = file.display().to_string();
        let parsed = scenario::parse(&name, &std::fs::read_to_string(file).unwrap()).expect("valid scenario");
        let work = std::env::temp_dir().join(format!(
            "asamblea-scenario-bundle-{}-{}",
            std::process::id(),
            file.file_stem().unwrap().to_string_lossy()
        ));
        crate::support::remove_meeting(&work);
        let bundle = scenario::record(&parsed, &work).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        crate::support::remove_meeting(&work);
        let verified = asamblea_ledger::verify_bundle(&bundle.encode(), &options);
        assert!(verified.is_ok(), "{name}: {verified:?}");
        // The last result the ledger published for each item.
        let mut published = std::collections::HashMap::new();
        for (bytes, _) in &bundle.records {
            let record = asamblea_wire::EventRecord::decode(bytes).unwrap();
            if let asamblea_wire::EventBody::ResultPublished { item, result } = record.event.body {
                published.insert(item.as_str().to_string(), result);
            }
        }
        let replay = scenario::replay(&parsed);
        let drawn: Vec<&str> = parsed
            .steps
            .iter()
            .filter_map(|s| match s {
                scenario::Step::Draw { item, .. } => Some(item.as_str()),
                _ => None,
            })
            .collect();
        for item in replay.meeting.items() {
            let (Some(result), false) = (item.result(), drawn.contains(&item.id())) else { continue };
            let expected = asamblea_wire::PublishedResult::from_rules(result, replay.meeting.register());
            // A tie the scenario leaves open, the daemon settles by lot.
            if expected.outcome() == asamblea_rules::Outcome::LotRequired {
                continue;
            }
            assert_eq!(published.get(item.id()), Some(&expected), "{name}: `{}`", item.id());
            compared += 1;
        }
    }
    assert!(compared >= 60, "only {compared} items compared");
}
