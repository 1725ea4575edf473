//! `scenario --check`: the outcome against a file's `[expect]`.
//!
//! `[expect]` may give any subset of the output: any of `steps`, `items`,
//! `presence`; any subset of the items; any subset of an item's keys. What
//! it gives is compared whole: `steps` element by element, and each item
//! key's value exactly (a `votes` table must list every list).

use serde_json::Value;

/// One difference between expected and actual.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Dotted path (`items.item-2.base`, `steps[4]`).
    pub path: String,
    /// What `[expect]` says.
    pub expected: Value,
    /// What the replay produced; `None` when the output lacks it.
    pub actual: Option<Value>,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.actual {
            Some(actual) => write!(
                f,
                "{0}: se esperaba {1}, hay {2} / expected {1}, got {2}",
                self.path, self.expected, actual
            ),
            None => write!(
                f,
                "{0}: se esperaba {1}, pero la salida no tiene esa clave / expected {1}, but the output has no such key",
                self.path, self.expected
            ),
        }
    }
}

/// Every difference between `expect` and `actual`, in a stable order.
pub fn compare(expect: &Value, actual: &Value) -> Vec<Difference> {
    let mut out = Vec::new();
    if let Some(expected) = expect.get("steps").and_then(Value::as_array) {
        let got = actual["steps"].as_array().map(Vec::as_slice).unwrap_or_default();
        if expected.len() != got.len() {
            out.push(Difference {
                path: "steps (count)".into(),
                expected: expected.len().into(),
                actual: Some(got.len().into()),
            });
        }
        for (i, e) in expected.iter().enumerate() {
            if got.get(i) != Some(e) {
                out.push(Difference {
                    path: format!("steps[{i}]"),
                    expected: e.clone(),
                    actual: got.get(i).cloned(),
                });
            }
        }
    }
    if let Some(expected) = expect.get("presence").and_then(Value::as_object) {
        subset(&mut out, "presence", expected, &actual["presence"]);
    }
    if let Some(expected) = expect.get("items").and_then(Value::as_object) {
        for (id, e) in expected {
            let path = format!("items.{id}");
            match (e.as_object(), actual["items"].get(id)) {
                (Some(keys), Some(got)) => subset(&mut out, &path, keys, got),
                _ => out.push(Difference {
                    path,
                    expected: e.clone(),
                    actual: actual["items"].get(id).cloned(),
                }),
            }
        }
    }
    out
}

fn subset(out: &mut Vec<Difference>, path: &str, expected: &serde_json::Map<String, Value>, got: &Value) {
    for (key, e) in expected {
        let actual = got.get(key);
        if actual != Some(e) {
            out.push(Difference {
                path: format!("{path}.{key}"),
                expected: e.clone(),
                actual: actual.cloned(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_subset_that_matches_has_no_differences() {
        let actual = json!({"steps": [{"ok": true}], "items": {"i": {"outcome": "pass", "base": 3}}, "presence": {"shares": 3, "holders": 2}});
        assert!(compare(&json!({"items": {"i": {"base": 3}}}), &actual).is_empty());
    }

    #[test]
    fn each_kind_of_difference_is_named_by_path() {
        let actual = json!({"steps": [{"ok": true}], "items": {"i": {"outcome": "pass"}}, "presence": {"shares": 3, "holders": 2}});
        let expect = json!({
            "steps": [{"ok": false, "error": "no-quorum"}, {"ok": true}],
            "items": {"i": {"outcome": "fail", "base": 1}, "j": {"outcome": "pass"}},
            "presence": {"holders": 3},
        });
        let paths: Vec<String> = compare(&expect, &actual).into_iter().map(|d| d.path).collect();
        assert_eq!(
            paths,
            [
                "steps (count)",
                "steps[0]",
                "steps[1]",
                "presence.holders",
                "items.i.outcome",
                "items.i.base",
                "items.j"
            ]
        );
    }

    #[test]
    fn a_nested_table_is_compared_whole() {
        let actual = json!({"items": {"e": {"votes": {"A": 1, "B": 0}}}});
        assert_eq!(compare(&json!({"items": {"e": {"votes": {"A": 1}}}}), &actual).len(), 1);
    }
}
