//! Who leads a replicated meeting (`docs/replication.md`): the node whose
//! name is under `leader`, put with a lease it keeps alive. Safety does not
//! rest on it — the chain's head fences every write — only who serves: a
//! standby campaigns when the key is gone (its leader's lease ran out) and
//! a leader whose lease is lost stops serving.

use serde_json::json;

use crate::{b64, Etcd};

/// A lease this node holds in the cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lease {
    id: i64,
    /// Its time to live, in seconds.
    pub ttl: u64,
}

fn number(value: &serde_json::Value) -> Option<i64> {
    value.as_str().and_then(|s| s.parse().ok()).or_else(|| value.as_i64())
}

impl Etcd {
    /// A new lease of `ttl` seconds.
    pub fn grant(&self, ttl: u64) -> Result<Lease, String> {
        let answer = self.post("/v3/lease/grant", &json!({ "TTL": ttl }))?;
        let id = number(&answer["ID"]).ok_or_else(|| format!("lease: {answer}"))?;
        Ok(Lease { id, ttl })
    }

    /// Keeps `lease` alive one more time to live: `false` once it has
    /// expired (the cluster forgot it, and this node's leadership with it).
    pub fn keep_alive(&self, lease: Lease) -> Result<bool, String> {
        let answer = self.post("/v3/lease/keepalive", &json!({ "ID": lease.id.to_string() }))?;
        let ttl = number(&answer["result"]["TTL"]).unwrap_or(0);
        Ok(ttl > 0)
    }

    /// Gives `lease` up at once: the lead it held passes without waiting
    /// for its time to live.
    pub fn revoke(&self, lease: Lease) -> Result<(), String> {
        self.post("/v3/lease/revoke", &json!({ "ID": lease.id.to_string() })).map(|_| ())
    }

    /// Takes the lead for `node` under `lease` if no one holds it: `true`
    /// when this node leads now under this very lease (or already did).
    /// The key held under another lease is someone else's lead, even in
    /// `node`'s name: a node killed and started again within its lease's
    /// time finds its old name there, under a lease no one keeps alive any
    /// more, and waits for it to run out like any standby.
    pub fn campaign(&self, node: &str, lease: Lease) -> Result<bool, String> {
        let key = b64(self.key("leader").as_bytes());
        let answer = self.post(
            "/v3/kv/txn",
            &json!({
                "compare": [{ "key": key, "target": "CREATE", "result": "EQUAL", "create_revision": "0" }],
                "success": [{ "requestPut": { "key": key, "value": b64(node.as_bytes()), "lease": lease.id.to_string() } }],
                "failure": [{ "requestRange": { "key": key } }],
            }),
        )?;
        if answer["succeeded"].as_bool() == Some(true) {
            return Ok(true);
        }
        let held = &answer["responses"][0]["response_range"]["kvs"][0];
        let value = crate::unb64(held["value"].as_str().unwrap_or_default())?;
        Ok(value == node.as_bytes() && number(&held["lease"]) == Some(lease.id))
    }

    /// The node that leads, if one does.
    pub fn leader(&self) -> Result<Option<String>, String> {
        let answer = self.post("/v3/kv/range", &json!({ "key": b64(self.key("leader").as_bytes()) }))?;
        match answer["kvs"].get(0) {
            None => Ok(None),
            Some(kv) => {
                let bytes = crate::unb64(kv["value"].as_str().unwrap_or_default())?;
                Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
            }
        }
    }
    /// Says where `node` serves (`host:port`, as a browser on the venue's
    /// network reaches it), kept after the node stops: the pages of the
    /// node that leads list every node, so that a console or the board
    /// open at a node that died find the one that serves now.
    pub fn publish_address(&self, node: &str, address: &str) -> Result<(), String> {
        let key = b64(self.key(&format!("nodes/{node}")).as_bytes());
        self.post("/v3/kv/put", &json!({ "key": key, "value": b64(address.as_bytes()) })).map(|_| ())
    }

    /// Every node's address as published, by name.
    pub fn addresses(&self) -> Result<Vec<(String, String)>, String> {
        let from = self.key("nodes/");
        let mut end = from.clone().into_bytes();
        // The range's end: the prefix with its last byte one higher.
        if let Some(last) = end.last_mut() {
            *last += 1;
        }
        let answer =
            self.post("/v3/kv/range", &json!({ "key": b64(from.as_bytes()), "range_end": b64(&end) }))?;
        let mut out = Vec::new();
        for kv in answer["kvs"].as_array().map(Vec::as_slice).unwrap_or_default() {
            let key = String::from_utf8(crate::unb64(kv["key"].as_str().unwrap_or_default())?)
                .map_err(|e| e.to_string())?;
            let value = crate::unb64(kv["value"].as_str().unwrap_or_default())?;
            let name = key.strip_prefix(&from).unwrap_or(&key).to_string();
            out.push((name, String::from_utf8_lossy(&value).into_owned()));
        }
        Ok(out)
    }
}
