//! `asamblea-venue`: a meeting directory and the signed actions on it, and
//! the formats that come from outside (`meeting.toml`, the register CSV,
//! bylaws profiles, staff accounts).
//!
//! [`service::Service`] is an open meeting directory: it replays the
//! ledger at open and turns each action (a check-in, a badge, a poll opened
//! or closed, a ballot) into an event signed by its actor and durable
//! before it returns. The command line and the HTTP daemon both act
//! through it, so a check-in means the same thing wherever it comes from.
//!
//! # Errors
//!
//! One error type, [`VenueError`], whose variants are what a caller
//! branches on (a file the system refused, a folder with no meeting, a
//! file that does not parse and where, a meeting held by another process,
//! a request refused, an event the ledger refuses, a ledger that failed).
//! The register's and the TOML files' own errors
//! ([`register_csv::ImportError`], [`fields::TomlFileError`]) are variants
//! of it. Every message a person reads is Spanish first, then English,
//! separated by ` / `.
//!
//! # Invariants
//!
//! - Every file from outside is validated here, at the edge, with an error
//!   that names the file, the line or the key; nothing is written when the
//!   input is bad.
//! - Secrets (seeds) are drawn and written only by [`secrets`], owner-only.
//!
//! # What this crate does not know
//!
//! HTTP, TLS, sockets and async: the daemon (`asamblea-server`) wraps a
//! `Service` in its own lock and serves it. Nor what a document looks like
//! (`asamblea-documents`). A test of the `asamblea` package reads `cargo
//! metadata` and fails if this crate depends on axum, hyper, rustls or
//! tokio.
//!
//! # Layout
//!
//! - `error`: [`VenueError`].
//! - `service`: a meeting directory (files, keys, ledger) and its actions.
//! - `staff`: staff accounts, tokens and keys.
//! - `lock`: one writer per meeting (`DIR/lock`), and how a running
//!   daemon is reached by the commands beside it (`DIR/daemon.run`).
//! - `staging`: a new meeting directory made whole or not at all.
//! - `secrets`: randomness, key files, owner-only files and folders.
//! - `scratch`: `DIR/tmp`, the meeting's owner-only temporary files
//!   (no name, 0600), emptied at every start.
//! - `meeting_config`: `meeting.toml` (settings and agenda).
//! - `profiles`: bylaws profiles from `config/*.toml`.
//! - `register_csv`: the share register from CSV.
//! - `csv_text` (private): what the CSV files from outside share — their
//!   text decoded as Excel in Colombia writes it (Windows-1252, `;`) and
//!   each record's own line.
//! - `powers`: a power of attorney from outside (the desk's form, the
//!   powers file), checked for form before the rules judge it.
//! - `powers_file`: the powers lodged before the meeting, from CSV
//!   (`docs/powers-file.md`): every bad row named, never just the first.
//! - `spec`: capital and agenda items as TOML (shared with the scenarios).
//! - `text`: ids and names from outside in one form (NFC), and their
//!   look-alike twins refused.
//! - `fields`: reading TOML with errors that name the key.
//! - `toml_one`: what TOML 1.1 added, found so that a profile stays
//!   TOML 1.0 (`docs/profile-format.md` §2).

pub mod checkpoints;
mod csv_text;
pub mod error;
pub mod fields;
pub mod lock;
pub mod meeting_config;
pub mod powers;
pub mod powers_file;
pub mod profiles;
pub mod register_csv;
pub mod scratch;
pub mod secrets;
pub mod service;
pub mod spec;
pub mod staff;
pub mod staging;
pub mod text;
pub mod toml_one;

pub use error::VenueError;
