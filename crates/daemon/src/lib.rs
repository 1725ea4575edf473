//! `asamblea`: the venue daemon and its command-line tools — the outermost
//! crate, the only one that knows files, TOML, CSV, JSON, TLS and sockets.
//!
//! The binary (`main.rs`) is one line over [`cli::main`]; every subcommand
//! is a function of [`commands`] (or [`scenario`]) that prints for people
//! and returns an exit code. The HTTP API is [`server::router`] over an
//! [`server::AppState`]; [`tls::serve`] runs it over rustls.
//!
//! # Layout
//!
//! - `badges`: printable attendee badges (SVG, QR PNG, A4 sheets).
//! - `bench`: `asamblea bench`, simulated kiosks against an in-process
//!   daemon, and the pipeline ceiling without HTTP.
//! - `cli`: argument parsing and the subcommands; exit codes.
//! - `commands`: the meeting-directory subcommands (init, checkin, badges,
//!   revoke, simulate, export, verify, serve, demo, kiosk, ballot).
//! - `fields`: reading TOML with errors that name the key.
//! - `hex`: the one hexadecimal form of keys, digests and signed bytes.
//! - `kiosk_client`: what a kiosk does: read a badge, sign a ballot, and a
//!   keep-alive HTTPS client for the API.
//! - `meeting_config`: `meeting.toml` (settings and agenda).
//! - `numfmt`: Colombian number format.
//! - `profiles`: bylaws profiles from `config/*.toml`.
//! - `register_csv`: the share register from CSV.
//! - `scenario`: parse, replay, check and report FORMAT.md scenarios.
//! - `server`: the HTTP API: routes, roles, handlers, the live feed.
//! - `service`: a meeting directory and its signed actions.
//! - `staff`: staff accounts, tokens and keys.
//! - `tls`: the venue PKI (CA, daemon and kiosk certificates, revocation)
//!   and the HTTPS serving layer that runs a `Router` over rustls.

pub mod badges;
pub mod bench;
pub mod cli;
pub mod commands;
pub mod fields;
pub mod hex;
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
