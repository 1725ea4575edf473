//! Replaying a scenario through the rules engine, and the outcome JSON of
//! scenarios/FORMAT.md.

use asamblea_rules::{Ballot, DecisionResult, ElectionResult, Item, ItemResult, Meeting, Refusal};
use serde_json::{json, Map, Value};

use super::parse::{Scenario, Step, VoteChoice};

/// What a replay produced: the meeting after the last step, and each
/// step's verdict.
pub struct Replay {
    /// The meeting after the last step.
    pub meeting: Meeting,
    /// One verdict per step, in order.
    pub verdicts: Vec<Result<(), Refusal>>,
}

/// Runs every step through one [`Meeting`].
pub fn replay(scenario: &Scenario) -> Replay {
    let mut meeting =
        Meeting::new(scenario.register.clone(), scenario.profile.clone(), scenario.meeting, scenario.call);
    let verdicts = scenario.steps.iter().map(|step| apply(&mut meeting, step)).collect();
    Replay { meeting, verdicts }
}

/// Applies one step.
pub fn apply(meeting: &mut Meeting, step: &Step) -> Result<(), Refusal> {
    match step {
        Step::ArriveInPerson(holder) => meeting.arrive_in_person(holder),
        Step::ArriveAsAgent { agent, represents, capacity, agent_role } => {
            let principals: Vec<&str> = represents.iter().map(String::as_str).collect();
            meeting.arrive_as_agent(agent, &principals, *capacity, *agent_role)
        }
        Step::Leave(person) => meeting.leave(person),
        Step::Open(spec) => meeting.open(spec.clone()).map(drop),
        Step::Vote { item, holder, choice } => {
            // Option names resolve against the item's ballot; an unknown
            // item is refused by `vote` before any name matters.
            let entry = meeting.item_index(item).map(|at| meeting.item(at));
            let resolve = |name: &str| entry.and_then(|e| e.option(name));
            let ballot = match choice {
                VoteChoice::Whole(name) => Ballot::Whole(resolve(name)),
                VoteChoice::Split(parts) => {
                    Ballot::Split(parts.iter().map(|(name, shares)| (resolve(name), *shares)).collect())
                }
            };
            meeting.vote(item, holder, &ballot)
        }
        Step::Close(item) => meeting.close(item),
        Step::Draw { item, winner } => meeting.draw(item, winner),
    }
}

/// The outcome JSON of a replay.
pub fn outcome_json(replay: &Replay) -> Value {
    let steps: Vec<Value> = replay
        .verdicts
        .iter()
        .map(|v| match v {
            Ok(()) => json!({ "ok": true }),
            Err(refusal) => json!({ "ok": false, "error": refusal.code() }),
        })
        .collect();
    let mut items = Map::new();
    for item in replay.meeting.items() {
        items.insert(item.id().to_string(), item_json(&replay.meeting, item));
    }
    let presence = replay.meeting.presence();
    json!({
        "steps": steps,
        "items": items,
        "presence": { "shares": presence.voting_shares().get(), "holders": presence.voting_holders() },
    })
}

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
