//! Unit tests across the crate: round trips, the refusal of every
//! malformed input, signatures and replays, the chain.

mod chain;
mod malformed;
mod roundtrip;
mod signatures;
mod strategies;
mod untrusted;
