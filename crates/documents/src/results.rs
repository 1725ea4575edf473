//! The result of an agenda item as JSON: the shape FORMAT.md fixes for the
//! conformance scenarios, which the API's results and the board use too, so
//! one figure has one name everywhere.

use asamblea_rules::{DecisionResult, ElectionResult, Item, ItemResult, Meeting};
use serde_json::{json, Map, Value};

/// One item as FORMAT.md prints it (the API's results use the same shape).
pub fn item_json(meeting: &Meeting, item: &Item) -> Value {
    let mut out = Map::new();
    out.insert("matter".into(), item.matter().code().into());
    out.insert("outcome".into(), item.outcome().code().into());
    match item.result() {
        None => {
            out.insert("quorum_at_open".into(), item.quorum_at_open().into());
        }
        Some(ItemResult::Decision(d)) => decision_json(&mut out, meeting, item, d),
        Some(ItemResult::Election(e)) => election_json(&mut out, item, e),
    }
    Value::Object(out)
}

fn decision_json(out: &mut Map<String, Value>, meeting: &Meeting, item: &Item, d: &DecisionResult) {
    out.insert("quorum_at_open".into(), item.quorum_at_open().into());
    out.insert("quorum_at_close".into(), d.quorum_at_close.into());
    for (key, shares) in [
        ("present", d.present),
        ("impeded", d.impeded),
        ("base", d.base),
        ("for", d.for_votes),
        ("against", d.against),
        ("blank", d.blank),
        ("abstain", d.abstain),
    ] {
        out.insert(key.into(), shares.get().into());
    }
    out.insert("holders_for".into(), d.holders_for.into());
    if let Some(by_class) = d.for_by_class {
        out.insert(
            "for_by_class".into(),
            json!({ "ORD": by_class.ordinary.get(), "PREF": by_class.preferred.get() }),
        );
    }
    if let Some(withdrawal) = &d.withdrawal {
        let ids: Vec<Value> = withdrawal.iter().map(|&h| meeting.register().holder(h).id().into()).collect();
        out.insert("withdrawal".into(), Value::Array(ids));
    }
}

fn election_json(out: &mut Map<String, Value>, item: &Item, e: &ElectionResult) {
    out.insert("valid".into(), e.valid.get().into());
    out.insert("blank".into(), e.blank.get().into());
    let lists = |i: usize| item.option_name(asamblea_rules::OptionIndex::list(i)).to_string();
    let votes: Map<String, Value> =
        e.votes.iter().enumerate().map(|(i, v)| (lists(i), v.get().into())).collect();
    out.insert("votes".into(), Value::Object(votes));
    if let Some(seats) = &e.seats {
        let seats: Map<String, Value> =
            seats.iter().enumerate().map(|(i, s)| (lists(i), (*s).into())).collect();
        out.insert("seats".into(), Value::Object(seats));
    }
    if !e.lot_between.is_empty() {
        out.insert("lot_between".into(), e.lot_between.iter().map(|&i| Value::from(lists(i))).collect());
    }
}
