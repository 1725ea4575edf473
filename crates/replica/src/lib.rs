//! A replicated meeting's copy of the ledger in an etcd cluster
//! (`docs/replication.md`): the ledger's writer hands each committed batch
//! to [`Etcd`] (an [`asamblea_ledger::Replica`]), which writes it in
//! transactions that each compare the chain's head the writer went on from
//! — so a node that is no longer the leader can never fork the chain — and
//! returns only once etcd answered, that is once a majority of its members
//! fsynced the batch (Raft). Only then does the daemon release a receipt.
//!
//! It speaks etcd's JSON gateway (`/v3/kv/txn`, `/v3/kv/range`) over plain
//! HTTP/1.1, blocking, from the writer's own thread: no gRPC, no protoc, no
//! async runtime in the ledger's path. Keys under `/asamblea/<meeting id>/`:
//!
//! ```text
//! head            "<seq>:<head hex>"   the last record replicated
//! r/<seq, 20 digits>   the chain's head after the record (32 bytes), then
//!                      the record's bytes (docs/ledger-format.md §5)
//! ```

pub mod cluster;
mod http;
mod lead;
mod reconcile;

pub use lead::Lease;
pub use reconcile::{reconcile, Reconciled};

use std::net::SocketAddr;
use std::time::Duration;

use asamblea_ledger::{Replica, ReplicaError};
use asamblea_wire::{Digest, MeetingId};
use base64::Engine as _;
use serde_json::{json, Value};

/// At most this many records go in one etcd transaction (etcd's own limit,
/// `--max-txn-ops`, is 128 by default: the head's put makes one more).
pub const RECORDS_PER_TXN: usize = 100;

/// How long one request to one member may take before the next member is
/// tried.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

/// The meeting's copy in an etcd cluster.
pub struct Etcd {
    endpoints: Vec<SocketAddr>,
    prefix: String,
    timeout: Duration,
    /// TLS with a client certificate, when the cluster asks for one.
    tls: Option<std::sync::Arc<rustls::ClientConfig>>,
    /// Set once this node gave up its lead: from then on it copies
    /// nothing more ([`Etcd::retired_by`]).
    retired: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The connection to the member that answered last, kept open for
    /// the next request.
    kept: std::sync::Mutex<Option<http::Connection>>,
    /// Connections opened so far ([`Etcd::connections_opened`]).
    opened: std::sync::atomic::AtomicU64,
}

/// The last record a copy holds: its number and the chain's head after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head {
    /// The record's number.
    pub seq: u64,
    /// The chain's head after it.
    pub head: Digest,
}

impl Head {
    fn text(seq: u64, head: &Digest) -> String {
        format!("{seq}:{head}")
    }

    fn parse(text: &str) -> Option<Head> {
        let (seq, head) = text.split_once(':')?;
        Some(Head { seq: seq.parse().ok()?, head: Digest(asamblea_wire::hex::decode_array(head)?) })
    }
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn unb64(text: &str) -> Result<Vec<u8>, String> {
    base64::engine::general_purpose::STANDARD.decode(text).map_err(|e| format!("base64: {e}"))
}

impl Etcd {
    /// The copy of `meeting` on the cluster whose members answer at
    /// `endpoints` (any of them: each forwards to the cluster's leader).
    pub fn new(endpoints: Vec<SocketAddr>, meeting: &MeetingId) -> Etcd {
        let prefix = format!("/asamblea/{}/", asamblea_wire::hex::encode(&meeting.0));
        Etcd {
            endpoints,
            prefix,
            timeout: REQUEST_TIMEOUT,
            tls: None,
            retired: None,
            kept: std::sync::Mutex::default(),
            opened: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// The same over TLS (`asamblea_pki::etcd_client_config`): the
    /// cluster's CA alone is trusted, and the nodes' certificate shown.
    pub fn with_tls(mut self, tls: Option<std::sync::Arc<rustls::ClientConfig>>) -> Etcd {
        self.tls = tls;
        self
    }

    /// The same, as the ledger's replica, copying nothing more once
    /// `flag` is set (the node gave up its lead): a batch its writer
    /// finishes later — a disk that answered again after the standby took
    /// the meeting — is then refused here, not written over the new
    /// leader's head, where it would fence the leader that serves.
    pub fn retired_by(mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Etcd {
        self.retired = Some(flag);
        self
    }

    /// The same with another time-out per request.
    pub fn with_timeout(mut self, timeout: Duration) -> Etcd {
        self.timeout = timeout;
        self
    }

    fn key(&self, suffix: &str) -> String {
        format!("{}{suffix}", self.prefix)
    }

    fn record_key(&self, seq: u64) -> String {
        self.key(&format!("r/{seq:020}"))
    }

    /// `body` posted to `path` on the first member that answers; its JSON.
    /// First over the connection kept from the last request, if it is
    /// still open; then each member in turn on a new one (a kept
    /// connection that fails is dropped: the member may have closed it, or
    /// be gone). Either way a request may reach the cluster twice — an
    /// answer lost after etcd applied it — which every request here
    /// allows for (`replicate` finds its own head, `campaign` its own
    /// lease).
    fn post(&self, path: &str, body: &Value) -> Result<Value, String> {
        let body = body.to_string();
        let mut kept = self.kept.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut failures = Vec::new();
        // The kept connection first (one the member closed while idle
        // fails here, most often, and the next is a new one), then each
        // member in turn on a new connection, opened only when tried.
        let fresh = self.endpoints.iter().map(|endpoint| {
            self.opened.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            http::Connection::open(*endpoint, (self.timeout, self.tls.as_ref()))
                .map_err(|e| format!("{endpoint}: {e}"))
        });
        for connection in kept.take().map(Ok).into_iter().chain(fresh) {
            let mut connection = match connection {
                Ok(connection) => connection,
                Err(failure) => {
                    failures.push(failure);
                    continue;
                }
            };
            let to = connection.to;
            match connection.post(path, &body) {
                Ok((200, answer, reusable)) => {
                    if reusable {
                        *kept = Some(connection);
                    }
                    return serde_json::from_slice(&answer).map_err(|e| format!("{to}: JSON: {e}"));
                }
                Ok((status, answer, _)) => {
                    failures.push(format!("{to}: HTTP {status} {}", String::from_utf8_lossy(&answer)));
                }
                Err(e) => failures.push(format!("{to}: {e}")),
            }
        }
        Err(failures.join("; "))
    }

    /// How many connections this copy opened to the members: one while
    /// the member it speaks to stays up (each request goes on the same).
    pub fn connections_opened(&self) -> u64 {
        self.opened.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The last record the copy holds; `None` before the first.
    pub fn head(&self) -> Result<Option<Head>, String> {
        let answer = self.post("/v3/kv/range", &json!({ "key": b64(self.key("head").as_bytes()) }))?;
        match answer["kvs"].get(0) {
            None => Ok(None),
            Some(kv) => {
                let text = unb64(kv["value"].as_str().unwrap_or_default())?;
                let text = String::from_utf8(text).map_err(|e| format!("head: {e}"))?;
                Head::parse(&text).map(Some).ok_or_else(|| format!("head: «{text}» is not SEQ:HEX"))
            }
        }
    }

    /// The records after `seq`, up to the copy's head, in order: each
    /// number and bytes (to be admitted through the replay's checks).
    pub fn records_after(&self, seq: u64) -> Result<Vec<(u64, Vec<u8>)>, String> {
        let Some(head) = self.head()? else { return Ok(Vec::new()) };
        if head.seq <= seq {
            return Ok(Vec::new());
        }
        let answer = self.post(
            "/v3/kv/range",
            &json!({
                "key": b64(self.record_key(seq + 1).as_bytes()),
                "range_end": b64(self.record_key(head.seq + 1).as_bytes()),
            }),
        )?;
        let mut out = Vec::new();
        for kv in answer["kvs"].as_array().map(Vec::as_slice).unwrap_or_default() {
            let key = String::from_utf8(unb64(kv["key"].as_str().unwrap_or_default())?)
                .map_err(|e| e.to_string())?;
            let number = key.rsplit('/').next().and_then(|n| n.parse().ok()).ok_or(format!("key «{key}»"))?;
            let value = unb64(kv["value"].as_str().unwrap_or_default())?;
            if value.len() < 32 {
                return Err(format!("record {number}: {} bytes", value.len()));
            }
            out.push((number, value[32..].to_vec()));
        }
        let expected: Vec<u64> = (seq + 1..=head.seq).collect();
        let got: Vec<u64> = out.iter().map(|(n, _)| *n).collect();
        if got != expected {
            return Err(format!("the copy lacks records between {} and {}", seq + 1, head.seq));
        }
        Ok(out)
    }

    /// The chain's head after record `seq` as the copy holds it (none
    /// past its head): where a node and the copy still agree.
    pub fn head_at(&self, seq: u64) -> Result<Option<Digest>, String> {
        let Some(head) = self.head()? else { return Ok(None) };
        if seq == 0 || seq > head.seq {
            return Ok(None);
        }
        let answer = self.post("/v3/kv/range", &json!({ "key": b64(self.record_key(seq).as_bytes()) }))?;
        let Some(kv) = answer["kvs"].get(0) else { return Ok(None) };
        let value = unb64(kv["value"].as_str().unwrap_or_default())?;
        let bytes: [u8; 32] =
            value.get(..32).and_then(|h| h.try_into().ok()).ok_or(format!("record {seq}"))?;
        Ok(Some(Digest(bytes)))
    }

    /// One transaction: if the head is still `after`, the `puts`; else
    /// the head found. `Ok(None)` when it went through.
    fn txn(&self, after: Option<&str>, puts: Vec<Value>) -> Result<Option<String>, ReplicaError> {
        let head_key = b64(self.key("head").as_bytes());
        let compare = match after {
            // The first record: no head yet.
            None => json!({ "key": head_key, "target": "CREATE", "result": "EQUAL", "create_revision": "0" }),
            Some(text) => {
                json!({ "key": head_key, "target": "VALUE", "result": "EQUAL", "value": b64(text.as_bytes()) })
            }
        };
        let body = json!({
            "compare": [compare],
            "success": puts,
            "failure": [{ "requestRange": { "key": head_key } }],
        });
        let answer = self.post("/v3/kv/txn", &body).map_err(|reason| ReplicaError::Unconfirmed { reason })?;
        if answer["succeeded"].as_bool() == Some(true) {
            return Ok(None);
        }
        let found = answer["responses"][0]["response_range"]["kvs"][0]["value"]
            .as_str()
            .and_then(|v| unb64(v).ok())
            .map_or_else(|| "nada / nothing".to_string(), |v| String::from_utf8_lossy(&v).into_owned());
        Ok(Some(found))
    }
}

impl Replica for Etcd {
    fn replicate(
        &mut self,
        after: (u64, Digest),
        records: &[(u64, &[u8], &Digest)],
    ) -> Result<(), ReplicaError> {
        let Some(&(last_seq, _, last_head)) = records.last() else { return Ok(()) };
        if self.retired.as_ref().is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Acquire)) {
            return Err(ReplicaError::Unconfirmed {
                reason: "este nodo cedió el liderazgo y ya no escribe en la copia / this node gave up its lead and writes nothing more to the copy".into(),
            });
        }
        let after_text = (after.0 > 0).then(|| Head::text(after.0, &after.1));
        let done = Head::text(last_seq, last_head);
        let chunks: Vec<&[(u64, &[u8], &Digest)]> = records.chunks(RECORDS_PER_TXN).collect();
        for (i, chunk) in chunks.iter().enumerate() {
            let mut puts: Vec<Value> = chunk
                .iter()
                .map(|(seq, bytes, head)| {
                    let value = [&head.0[..], bytes].concat();
                    json!({ "requestPut": { "key": b64(self.record_key(*seq).as_bytes()), "value": b64(&value) } })
                })
                .collect();
            // The head moves with the last chunk only: a reader trusts the
            // records up to the head, and a chunk written by a writer
            // fenced before its last is overwritten by the leader's.
            if i + 1 == chunks.len() {
                puts.push(json!({ "requestPut": { "key": b64(self.key("head").as_bytes()), "value": b64(done.as_bytes()) } }));
            }
            if let Some(found) = self.txn(after_text.as_deref(), puts)? {
                // An answer lost after etcd applied this very batch, sent
                // again to another member: the head is already ours.
                if i + 1 == chunks.len() && found == done {
                    return Ok(());
                }
                return Err(ReplicaError::Fenced { found });
            }
        }
        Ok(())
    }
}
