//! The HTTP API in process (the router called with `oneshot`, no socket),
//! by caller: who is let in where, the desk, the chair, the kiosk's
//! ballots and their receipts, the secretary, and staff in a browser. A
//! whole meeting driven through the API against the same meeting run as a
//! scenario needs the conformance runner, so it is the command line's test
//! (`crates/cli/tests/it/api.rs`).

mod ballots;
mod chair;
mod desk;
pub(super) mod fixture;
mod letters;
mod powers;
mod remote;
mod roles;
mod secretary;
mod sessions;
mod timing;
