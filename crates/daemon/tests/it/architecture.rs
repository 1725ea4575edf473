//! Architecture invariants that a test can see (ARCHITECTURE.md): the rules
//! engine stays pure, dependencies point one way.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use crate::workspace_root;

/// Every package in the dependency graph of `package` (normal
/// dependencies, transitively), from `cargo metadata`.
fn dependency_closure(metadata: &serde_json::Value, package: &str) -> BTreeSet<String> {
    let names: BTreeMap<&str, &str> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| (p["id"].as_str().expect("id"), p["name"].as_str().expect("name")))
        .collect();
    let nodes: BTreeMap<&str, Vec<&str>> = metadata["resolve"]["nodes"]
        .as_array()
        .expect("resolve.nodes")
        .iter()
        .map(|n| {
            let deps = n["deps"]
                .as_array()
                .expect("deps")
                .iter()
                .filter(|d| d["dep_kinds"].as_array().expect("dep_kinds").iter().any(|k| k["kind"].is_null()))
                .map(|d| d["pkg"].as_str().expect("pkg"))
                .collect();
            (n["id"].as_str().expect("id"), deps)
        })
        .collect();
    let start = names.iter().find(|(_, n)| **n == package).map(|(id, _)| *id).expect("package in metadata");
    let mut seen = BTreeSet::new();
    let mut stack = vec![start];
    while let Some(id) = stack.pop() {
        for &dep in &nodes[id] {
            if seen.insert(names[dep].to_string()) {
                stack.push(dep);
            }
        }
    }
    seen
}

/// The dependency graph for this machine's platform: offline, and without
/// the packages only other platforms build (a fresh machine's cache holds
/// only what the build fetched, and `cargo metadata` would want the rest).
fn metadata() -> serde_json::Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc).arg("-vV").output().expect("rustc -vV runs");
    let version = String::from_utf8_lossy(&version.stdout).into_owned();
    let host = version
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .trim()
        .to_string();
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline", "--filter-platform", &host])
        .current_dir(workspace_root())
        .output()
        .expect("cargo metadata runs");
    assert!(output.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

const FORBIDDEN_IN_RULES: [&str; 12] = [
    "tokio",
    "rusqlite",
    "libsqlite3-sys",
    "axum",
    "hyper",
    "rustls",
    "serde",
    "serde_json",
    "toml",
    "rand",
    "getrandom",
    "chrono",
];

#[test]
fn the_rules_engine_depends_on_no_io_clock_randomness_or_wire_format() {
    let closure = dependency_closure(&metadata(), "asamblea-rules");
    let forbidden: Vec<_> = FORBIDDEN_IN_RULES.iter().filter(|f| closure.contains(**f)).collect();
    assert!(forbidden.is_empty(), "asamblea-rules depends on {forbidden:?} (all: {closure:?})");
}

#[test]
fn dependencies_between_our_crates_point_one_way() {
    let metadata = metadata();
    let ours = |p: &str| p.starts_with("asamblea");
    let rules = dependency_closure(&metadata, "asamblea-rules");
    assert!(
        rules.iter().all(|d| !ours(d)),
        "asamblea-rules must not depend on another asamblea crate: {rules:?}"
    );
    let members: Vec<String> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| p["name"].as_str().expect("name").to_string())
        .collect();
    assert!(members.iter().any(|m| m == "asamblea-wire") && members.iter().any(|m| m == "asamblea-ledger"));
    let wire = dependency_closure(&metadata, "asamblea-wire");
    let inner: Vec<_> = wire.iter().filter(|d| ours(d)).collect();
    assert_eq!(inner, ["asamblea-rules"], "asamblea-wire may depend on asamblea-rules only");
    let ledger = dependency_closure(&metadata, "asamblea-ledger");
    let inner: Vec<_> = ledger.iter().filter(|d| ours(d)).collect();
    assert_eq!(
        inner,
        ["asamblea-rules", "asamblea-wire"],
        "asamblea-ledger may depend on rules and wire only"
    );
    for forbidden in ["tokio", "axum", "hyper", "rustls"] {
        assert!(
            !ledger.contains(forbidden),
            "asamblea-ledger knows no sockets or HTTP: it depends on {forbidden}"
        );
        assert!(
            !wire.contains(forbidden),
            "asamblea-wire knows no sockets or HTTP: it depends on {forbidden}"
        );
    }
    assert!(!wire.contains("rusqlite"), "asamblea-wire knows no storage");
}

#[test]
fn the_closure_helper_sees_a_known_edge() {
    // Guards the test above against passing vacuously: the daemon crate does
    // depend on the rules engine and on toml.
    let closure = dependency_closure(&metadata(), "asamblea");
    assert!(closure.contains("asamblea-rules") && closure.contains("toml"), "{closure:?}");
}
