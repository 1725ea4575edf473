//! `asamblea`: the venue daemon's library and its command-line tools.
//!
//! For now it holds the conformance-scenario runner (`asamblea scenario`)
//! and the loading of bylaws profiles; the daemon, the ledger and the kiosk
//! API come in later issues. The binary (`main.rs`) is thin glue over
//! [`cli::run`].
//!
//! # Layout
//!
//! - `badges`: printable attendee badges (SVG, QR PNG, A4 sheets).
//! - `bench`: `asamblea bench`, simulated kiosks against an in-process
//!   daemon, and the pipeline ceiling without HTTP.
//! - `cli`: argument parsing and the subcommands; exit codes.
//! - `fields`: reading TOML with errors that name the key.
//! - `kiosk_client`: what a kiosk does: read a badge, sign a ballot, and a
//!   keep-alive HTTPS client for the API.
//! - `profiles`: bylaws profiles from `config/*.toml`.
//! - `scenario`: parse, replay, check and report FORMAT.md scenarios.
//! - `numfmt`: Colombian number format.
//! - `tls`: the venue PKI (CA, daemon and kiosk certificates, revocation)
//!   and the HTTPS serving layer that runs a `Router` over rustls.

pub mod badges;
pub mod bench;
pub mod cli;
pub mod commands;
pub mod fields;
pub mod kiosk_client;
pub mod meeting_config;
pub mod numfmt;
pub mod profiles;
pub mod register_csv;
pub mod scenario;
pub mod server;
pub mod service;
pub mod staff;
pub mod tls;
