//! The integration tests of `asamblea-ledger`, in one binary: a realistic
//! meeting recorded through the journal and exported as an audit bundle,
//! the tamper table and the byte-flip property against `verify_bundle`,
//! arbitrary and mutated bytes given to the bundle reader,
//! the SQLite file's storage guarantees, a bundle of many slices read from
//! its file, and kill -9 at random moments.
//!
//! The modules live in `tests/it/`.

#[path = "it/arbitrary.rs"]
mod arbitrary;
#[path = "it/copied.rs"]
mod copied;
#[path = "it/crash.rs"]
mod crash;
#[path = "it/fixture.rs"]
mod fixture;
#[path = "it/flips.rs"]
mod flips;
#[path = "it/modality.rs"]
mod modality;
#[path = "it/nodes.rs"]
mod nodes;
#[path = "it/observers.rs"]
mod observers;
#[path = "it/powers.rs"]
mod powers;
#[path = "it/remote.rs"]
mod remote;
#[path = "it/sessions.rs"]
mod sessions;
#[path = "it/storage.rs"]
mod storage;
#[path = "it/streaming.rs"]
mod streaming;
#[path = "it/support.rs"]
mod support;
#[path = "it/tamper.rs"]
mod tamper;
#[path = "it/timing.rs"]
mod timing;
