//! A replicated ledger against a real etcd cluster of three members on
//! loopback (Debian's `etcd-server`, started by the tests): nothing is
//! acknowledged before a majority holds it, and a writer that is no longer
//! the leader cannot fork the chain.

#[path = "it/replication.rs"]
mod replication;
