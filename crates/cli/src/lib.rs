//! `asamblea`: the command line — thin glue over the library crates. Every
//! subcommand is a function of [`commands`] (or [`scenario`], [`mod@bench`])
//! that prints for people and returns an exit code; [`cli::main`] parses
//! the arguments, sets up logging and maps results to exit codes (0 ok, 1
//! a difference, 2 invalid input). The binary (`main.rs`) is one line.
//!
//! What each crate below knows, and must not, is in `ARCHITECTURE.md` at
//! the root; `tests/it/architecture.rs` holds them to it.
//!
//! # Layout
//!
//! - `cli`: argument parsing and the subcommands; exit codes; logging.
//! - `commands`: the other meeting-directory subcommands (init, simulate,
//!   export, verify, serve, demo, ballot).
//! - `desk`: the registration desk's commands (checkin, badges, revoke,
//!   kiosk), on the files or through a running daemon's API.
//! - `powers`: `asamblea poderes importar`, the powers file lodged in one
//!   transaction, every bad row named.
//! - `powers_gen`: a powers file for the bench-scale register, with
//!   planted defects, and bench-scale's measured import of it.
//! - `bench`: `asamblea bench`, simulated kiosks against an in-process
//!   daemon, and the pipeline ceiling without HTTP.
//! - `scale`: `asamblea bench-scale`, a million-ballot meeting built once
//!   and cached, then a restart after kill -9, `export` and `verify`.
//! - `remote_bench`: `asamblea bench-remote`, the mixed meeting's scale:
//!   thousands of remote attendees on the internet listener's live feed,
//!   all voting within a window beside the kiosks, against `asamblea
//!   serve` as a child; the curve and its projection to 100.000.
//! - `scenario`: parse, replay, check and report FORMAT.md scenarios (the
//!   conformance runner).

pub mod bench;
pub mod cli;
pub mod commands;
pub mod desk;
pub mod failover;
pub mod powers;
pub mod powers_gen;
pub mod remote_bench;
pub mod scale;
pub mod scenario;
pub mod verify;
pub mod verify_json;
