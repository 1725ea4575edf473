//! Architecture invariants that a test can see (ARCHITECTURE.md): what each
//! crate may depend on and what it must never know, dependencies pointing
//! one way, and no circle between the modules of a crate.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use crate::workspace_root;

/// Every package in the dependency graph of `package` (normal
/// dependencies, transitively), from `cargo metadata`.
fn dependency_closure(metadata: &serde_json::Value, package: &str) -> BTreeSet<String> {
    dependency_closure_with(metadata, package, None)
}

/// [`dependency_closure`] with one more edge, `extra = (from, to)` by
/// package name: how the rules below are shown to fail on a bad edge.
fn dependency_closure_with(
    metadata: &serde_json::Value,
    package: &str,
    extra: Option<(&str, &str)>,
) -> BTreeSet<String> {
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
    let id_of = |name: &str| names.iter().find(|(_, n)| **n == name).map(|(id, _)| *id);
    let mut nodes = nodes;
    if let Some((from, to)) = extra {
        let (from, to) = (id_of(from).expect("`from` in metadata"), id_of(to).expect("`to` in metadata"));
        nodes.get_mut(from).expect("a node").push(to);
    }
    let start = id_of(package).expect("package in metadata");
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

/// What one crate of ours may depend on (normal dependencies, transitively),
/// as a row of the dependency table in ARCHITECTURE.md.
#[derive(Debug)]
struct Rule {
    package: String,
    /// Exactly these crates of ours, no more and no fewer.
    ours: Vec<String>,
    /// Never any of these (crates.io packages or ours), however indirectly.
    never: Vec<String>,
    why: String,
}

/// The names in backticks in a cell of the table.
fn names(cell: &str) -> Vec<String> {
    cell.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// The dependency table of ARCHITECTURE.md, one [`Rule`] per row whose
/// crate is named in backticks (the `asamblea` row, "every crate above",
/// has no rule: the command line may use them all).
fn rules() -> Vec<Rule> {
    let text = std::fs::read_to_string(workspace_root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let rows: Vec<Rule> = text
        .lines()
        .filter(|line| line.starts_with("| `asamblea"))
        .filter_map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            let [package, ours, never, why] = cells[..] else { panic!("a row of four cells: {line}") };
            let package = names(package).pop().expect("the crate in backticks");
            (package != "asamblea").then(|| Rule {
                package,
                ours: names(ours),
                never: names(never),
                why: why.to_string(),
            })
        })
        .collect();
    assert!(rows.len() >= 8, "ARCHITECTURE.md's dependency table has only {} rows: {rows:?}", rows.len());
    rows
}

/// The rule's violations in `metadata`, with one `extra` edge if given.
fn violations(metadata: &serde_json::Value, rule: &Rule, extra: Option<(&str, &str)>) -> Vec<String> {
    let closure = dependency_closure_with(metadata, &rule.package, extra);
    let ours: Vec<&str> = closure.iter().map(String::as_str).filter(|d| d.starts_with("asamblea")).collect();
    let mut found = Vec::new();
    if ours != rule.ours {
        found.push(format!("{} depends on {ours:?}; it may depend on exactly {:?}", rule.package, rule.ours));
    }
    for never in rule.never.iter().filter(|n| closure.contains(n.as_str())) {
        found.push(format!("{} depends on {never}: {}", rule.package, rule.why));
    }
    found
}

#[test]
fn each_crate_depends_only_on_what_it_may_know() {
    let metadata = metadata();
    let found: Vec<String> = rules().iter().flat_map(|rule| violations(&metadata, rule, None)).collect();
    assert!(found.is_empty(), "{found:#?}");
}

/// Every rule fails on a deliberate bad edge: each forbidden package added
/// as a direct dependency (where the package is in the graph at all), and a
/// crate of ours it may not use.
#[test]
fn each_rule_fails_on_a_deliberate_bad_edge() {
    let metadata = metadata();
    let in_graph =
        |name: &str| metadata["packages"].as_array().expect("packages").iter().any(|p| p["name"] == name);
    let rules = rules();
    for rule in &rules {
        let mut tried = 0;
        for bad in rule.never.iter().filter(|n| in_graph(n)) {
            let found = violations(&metadata, rule, Some((&rule.package, bad)));
            assert!(
                found.iter().any(|v| v.contains(bad)),
                "{} → {bad} was not caught: {found:?}",
                rule.package
            );
            tried += 1;
        }
        assert!(tried > 0, "{}: no forbidden package of its rule is in the graph to try", rule.package);
        let outsider = ["asamblea-server", "asamblea-ledger"]
            .into_iter()
            .find(|o| !rule.ours.iter().any(|ours| ours == o) && *o != rule.package);
        if let Some(outsider) = outsider {
            let found = violations(&metadata, rule, Some((&rule.package, outsider)));
            assert!(!found.is_empty(), "{} → {outsider} was not caught", rule.package);
        }
    }
}

/// Only `asamblea-server` serves the venue over HTTP, and the kiosk its own
/// touch page on loopback: no other crate of ours names axum as a direct
/// dependency, and only the ledger names rusqlite.
#[test]
fn only_the_server_and_the_kiosk_know_axum_and_only_the_ledger_knows_sqlite() {
    let metadata = metadata();
    for package in metadata["packages"].as_array().expect("packages") {
        let name = package["name"].as_str().expect("name");
        if !name.starts_with("asamblea") {
            continue;
        }
        let direct: Vec<&str> = package["dependencies"]
            .as_array()
            .expect("dependencies")
            .iter()
            .filter(|d| d["kind"].is_null())
            .map(|d| d["name"].as_str().expect("name"))
            .collect();
        assert!(
            ["asamblea-server", "asamblea-kiosk"].contains(&name) || !direct.contains(&"axum"),
            "{name} depends on axum directly"
        );
        assert!(
            name == "asamblea-ledger" || !direct.contains(&"rusqlite"),
            "{name} depends on rusqlite directly"
        );
    }
}

#[test]
fn the_closure_helper_sees_a_known_edge() {
    // Guards the tests above against passing vacuously: the command line
    // does depend on the rules engine and on toml, and an added edge shows.
    let metadata = metadata();
    let closure = dependency_closure(&metadata, "asamblea");
    assert!(closure.contains("asamblea-rules") && closure.contains("toml"), "{closure:?}");
    let documents =
        dependency_closure_with(&metadata, "asamblea-documents", Some(("asamblea-rules", "tokio")));
    assert!(documents.contains("tokio"), "an edge added below a crate is in its closure");
}

// ---- Circles between the modules of one crate ------------------------------

/// The top-level modules of a crate (`src/NAME.rs` or `src/NAME/`) and which
/// others each names through `crate::…`, read from the source. Names the
/// root re-exports (`pub use module::{A, B}`) are followed to their module.
fn module_graph(src: &std::path::Path) -> BTreeMap<String, BTreeSet<String>> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap_or_default();
    let mut modules = BTreeSet::new();
    let mut exported: BTreeMap<String, String> = BTreeMap::new();
    // A `use` may span lines (`pub use module::{\n A,\n B,\n};`): its
    // lines are joined up to the `;`.
    let mut statements: Vec<String> = Vec::new();
    let mut open: Option<String> = None;
    for line in lib.lines().map(str::trim) {
        match open.as_mut() {
            Some(statement) => statement.push_str(line),
            None => open = Some(line.to_string()),
        }
        let statement = open.as_ref().expect("just set");
        let is_use =
            statement.trim_start_matches("pub ").trim_start_matches("pub(crate) ").starts_with("use ");
        if !is_use || statement.ends_with(';') {
            statements.push(open.take().expect("just set"));
        }
    }
    for line in &statements {
        let line = line.trim_start_matches("pub ").trim_start_matches("pub(crate) ");
        if let Some(name) = line.strip_prefix("mod ").and_then(|l| l.strip_suffix(';')) {
            modules.insert(name.to_string());
        }
        if let Some(rest) = line.strip_prefix("use ") {
            if let Some((module, names)) = rest.split_once("::") {
                for name in names.trim_matches(|c| "{};".contains(c)).split(',') {
                    let name = name.trim();
                    if !name.is_empty() {
                        exported.insert(name.to_string(), module.to_string());
                    }
                }
            }
        }
    }
    let mut graph = BTreeMap::new();
    for module in &modules {
        let mut files = Vec::new();
        let file = src.join(format!("{module}.rs"));
        if file.exists() {
            files.push(file);
        }
        let mut dirs = vec![src.join(module)];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    files.push(path);
                }
            }
        }
        let mut names = BTreeSet::new();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("source file");
            for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                for (at, _) in line.match_indices("crate::") {
                    let name: String =
                        line[at + 7..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    let target =
                        if modules.contains(&name) { Some(name) } else { exported.get(&name).cloned() };
                    if let Some(target) = target.filter(|t| t != module) {
                        names.insert(target);
                    }
                }
            }
        }
        graph.insert(module.clone(), names);
    }
    graph
}

/// One circle in `graph`, as the path around it, if there is any.
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node.to_string());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_crate_has_a_circle_between_its_modules() {
    let crates = workspace_root().join("crates");
    let mut seen = 0;
    for entry in std::fs::read_dir(&crates).expect("crates/") {
        let src = entry.expect("entry").path().join("src");
        let graph = module_graph(&src);
        seen += graph.len();
        if let Some(circle) = find_circle(&graph) {
            panic!("{}: the modules {} name each other in a circle", src.display(), circle.join(" → "));
        }
    }
    assert!(seen > 30, "only {seen} modules were read: is the source where this test looks?");
}

#[test]
fn the_circle_finder_finds_a_circle_and_reads_real_edges() {
    let edges = |pairs: &[(&str, &str)]| {
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in pairs {
            graph.entry(a.to_string()).or_default().insert(b.to_string());
            graph.entry(b.to_string()).or_default();
        }
        graph
    };
    assert_eq!(find_circle(&edges(&[("a", "b"), ("b", "c")])), None);
    assert_eq!(
        find_circle(&edges(&[("a", "b"), ("b", "c"), ("c", "a")])),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    // A known one-way edge of the real tree: the venue's service uses its
    // staff accounts, and staff take their secrets from `secrets`.
    let venue = module_graph(&workspace_root().join("crates/venue/src"));
    assert!(venue["service"].contains("staff") && venue["staff"].contains("secrets"), "{venue:?}");
    assert!(!venue["staff"].contains("service"), "{venue:?}");
}

#[test]
fn the_module_graph_reads_edges_and_re_exports_across_lines() {
    // The ledger's bundle reads the store (a real edge), and the root's
    // multi-line `pub use bundle::{…}` re-exports are followed to their
    // module, while an empty name (`crate::{A, B}`) names no module.
    let graph = module_graph(&workspace_root().join("crates/ledger/src"));
    assert!(graph["bundle"].contains("store"), "{graph:?}");
    assert!(!graph["store"].contains("bundle"), "{graph:?}");
    let mut circle = graph.clone();
    circle.get_mut("store").expect("store").insert("bundle".to_string());
    assert!(find_circle(&circle).is_some(), "a deliberate circle is found");
}
