//! `asamblea-documents`: everything a person prints or opens, as pure
//! functions from meeting data to bytes or text — today the attendee
//! badges (SVG, PNG, the A4 sheet), an item's result as JSON and the
//! Colombian number format; the acta and the tally exports join them.
//!
//! # Invariants
//!
//! - Pure: no files, sockets, clock or randomness. A date or a seed comes
//!   in as an argument, so the same input gives the same bytes (the
//!   workbook writer's zip library links `getrandom` without using it for
//!   what we write; the exports test checks the bytes).
//! - Each format is written once here and used by every caller (the
//!   command line, the daemon's pages and API, the conformance runner).
//!
//! # What this crate does not know
//!
//! The ledger, SQLite, HTTP, TLS, async. A test of the `asamblea` package
//! reads `cargo metadata` and fails if this crate depends on tokio,
//! rusqlite, axum, hyper or rustls.
//!
//! # Layout
//!
//! - `badges`: printable attendee badges (SVG, QR PNG, A4 sheets).
//! - `letters`: admission letters (cartas de admisión), one a person,
//!   with the admission code and its QR, as a PDF.
//! - `results`: an item's result as FORMAT.md's JSON.
//! - `rule_text`: the rule that decides an item, in words, with its source.
//! - `explain`: why a closed item passed or failed, with its figures, and
//!   an election's seats per list (quotient and remainders).
//! - `quorum`: the quorum's threshold in words, presence by class, and the
//!   quorum series (every poll's open and close) as JSON.
//! - `tables`: the tallies (items, holders with their choices, attendance,
//!   withdrawal) as CSV, JSON and an Excel workbook.
//! - `attendance`: who attended at any moment, when, and who was present
//!   at a record (the installation, the close), in words; the classes the
//!   company has.
//! - `acta`: the minutes' draft, its content once as blocks; `docx` and
//!   `pdf` render them (`pdf` also lays out the badges as PDF).
//! - `numfmt`: Colombian number format (1.234.567; 12,34 %), dates in
//!   words, ledger times in Colombia, and business days with Colombia's
//!   public holidays.
//! - `markup`: text escaped for HTML, SVG and XML.

pub mod acta;
pub mod attendance;
pub mod badges;
pub mod docx;
pub mod explain;
pub mod letters;
pub mod markup;
pub mod numfmt;
pub mod pdf;
pub mod powers;
pub mod quorum;
pub mod results;
pub mod rule_text;
pub mod tables;
