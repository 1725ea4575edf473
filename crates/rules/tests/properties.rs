//! Property tests of the rules engine, the crate's one integration-test
//! binary (STYLE.md §13).
//!
//! - `tallies`: the engine against a naive reference meeting written from
//!   `shared/rules.md` and `shared/scenarios/FORMAT.md`, step by step; and a
//!   refused step changes nothing.
//! - `relations`: permuting ballots changes no result; a refused ballot
//!   changes no tally; arrivals never remove a quorum.
//! - `elections`: the electoral quotient against a naive largest
//!   remainders, and lot draws through a meeting.
//! - `thresholds`: every majority and quorum test at its exact boundary.
//!
//! Each property runs 256 cases; set `PROPTEST_CASES` to run more.

#[path = "properties/support.rs"]
mod support;

#[path = "properties/reference.rs"]
mod reference;

#[path = "properties/tallies.rs"]
mod tallies;

#[path = "properties/relations.rs"]
mod relations;

#[path = "properties/elections.rs"]
mod elections;

#[path = "properties/thresholds.rs"]
mod thresholds;
