//! Conformance scenarios (`shared/scenarios/FORMAT.md`): parse a file,
//! replay it through the rules engine, print or check the outcome
//! (`files`: the command over many files).

mod bundle;
mod check;
pub(crate) mod files;
mod parse;
mod report;
mod run;

pub use bundle::record;
pub use check::{compare, Difference};
pub use parse::{parse, Place, Scenario, ScenarioError, Step, VoteChoice};
pub use report::report;
pub use run::{apply, outcome_json, replay, Replay};
