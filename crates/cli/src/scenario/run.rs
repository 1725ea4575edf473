//! Replaying a scenario through the rules engine, and the outcome JSON of
//! scenarios/FORMAT.md.

use asamblea_documents::results::item_json;
use asamblea_rules::{Ballot, Meeting, Refusal};
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
