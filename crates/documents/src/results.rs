//! The result of an agenda item in the shape FORMAT.md fixes for the
//! conformance scenarios ([`asamblea_api::public::ItemResult`]), which the
//! API's results and the board use too, so one figure has one name
//! everywhere.

use asamblea_api::public::ItemResult;
use asamblea_api::{ByClass, ByList};
use asamblea_rules::{Item, ItemResult as Outcome, Meeting};
use serde_json::Value;

/// One item's result, as FORMAT.md prints it.
pub fn item_result(meeting: &Meeting, item: &Item) -> ItemResult {
    let mut out = ItemResult {
        matter: item.matter().code().to_string(),
        outcome: item.outcome().code().to_string(),
        quorum_at_open: None,
        quorum_at_close: None,
        present: None,
        impeded: None,
        base: None,
        for_votes: None,
        against: None,
        blank: None,
        abstain: None,
        holders_for: None,
        for_by_class: None,
        withdrawal: None,
        valid: None,
        votes: None,
        seats: None,
        lot_between: None,
    };
    match item.result() {
        None => out.quorum_at_open = Some(item.quorum_at_open()),
        Some(Outcome::Decision(d)) => {
            out.quorum_at_open = Some(item.quorum_at_open());
            out.quorum_at_close = Some(d.quorum_at_close);
            out.present = Some(d.present.get());
            out.impeded = Some(d.impeded.get());
            out.base = Some(d.base.get());
            out.for_votes = Some(d.for_votes.get());
            out.against = Some(d.against.get());
            out.blank = Some(d.blank.get());
            out.abstain = Some(d.abstain.get());
            out.holders_for = Some(d.holders_for);
            out.for_by_class =
                d.for_by_class.map(|c| ByClass { ordinary: c.ordinary.get(), preferred: c.preferred.get() });
            out.withdrawal = d
                .withdrawal
                .as_ref()
                .map(|list| list.iter().map(|&h| meeting.register().holder(h).id().to_string()).collect());
        }
        Some(Outcome::Election(e)) => {
            let list = |i: usize| item.option_name(asamblea_rules::OptionIndex::list(i)).to_string();
            out.valid = Some(e.valid.get());
            out.blank = Some(e.blank.get());
            out.votes = Some(ByList(e.votes.iter().enumerate().map(|(i, v)| (list(i), v.get())).collect()));
            out.seats = e
                .seats
                .as_ref()
                .map(|seats| ByList(seats.iter().enumerate().map(|(i, s)| (list(i), *s)).collect()));
            if !e.lot_between.is_empty() {
                out.lot_between = Some(e.lot_between.iter().map(|&i| list(i)).collect());
            }
        }
    }
    out
}

/// [`item_result`] as a JSON value (the conformance runner compares
/// these).
pub fn item_json(meeting: &Meeting, item: &Item) -> Value {
    serde_json::to_value(item_result(meeting, item)).expect("a result serializes")
}
