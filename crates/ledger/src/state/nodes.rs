//! The nodes of a replicated meeting (`docs/ledger-format.md` §3.33–3.34,
//! `docs/replication.md`): each node's daemon key, enrolled at convening,
//! and who leads — the daemon's events of each stretch are signed by the
//! key of the node that led it; receipts and heads by any enrolled node.

use asamblea_wire::{EventBody, Id, PublicKey};

use super::{Rejection, State};

impl State {
    /// The enrolled nodes with their keys, in order (none for a meeting
    /// served from one machine).
    pub fn nodes(&self) -> &[(Id, PublicKey)] {
        &self.nodes
    }

    /// The node that took the lead last, with its key and the record of
    /// its takeover; none before any takeover.
    pub fn leader(&self) -> Option<&(Id, PublicKey, u64)> {
        self.leader.as_ref()
    }

    /// Every takeover, in order: its record and the node that took the
    /// lead.
    pub fn takeovers(&self) -> &[(u64, Id)] {
        &self.takeovers
    }

    /// Every key that may sign a receipt or a head: the convening key and
    /// each enrolled node's.
    pub fn daemon_keys(&self) -> Vec<PublicKey> {
        let mut keys: Vec<PublicKey> = self.daemon_key.into_iter().collect();
        for (_, key) in &self.nodes {
            if !keys.contains(key) {
                keys.push(*key);
            }
        }
        keys
    }

    /// The key the daemon's events must carry now: the leading node's, or
    /// the convening key before any takeover.
    pub(super) fn leading_key(&self) -> Option<PublicKey> {
        self.leader.as_ref().map(|(_, key, _)| *key).or(self.daemon_key)
    }

    /// Admits `node-enrolled` and `leader-took-over` (their signers are
    /// checked by `check_signer`).
    pub(super) fn node_step(&mut self, body: &EventBody, seq: u64) -> Result<(), Rejection> {
        match body {
            EventBody::NodeEnrolled { node, key } => {
                if self.meeting.is_some() {
                    return Err(Rejection::OutOfPlace(
                        "node-enrolled: los nodos se inscriben al convocar, antes de importar el registro / \
                         nodes are enrolled at convening, before the register is imported",
                    ));
                }
                if self.nodes.iter().any(|(name, k)| name == node || k == key) || self.staff.contains_key(key)
                {
                    return Err(Rejection::NodeInUse(node.as_str().to_string()));
                }
                self.nodes.push((node.clone(), *key));
            }
            EventBody::LeaderTookOver { node } => {
                let key = self
                    .nodes
                    .iter()
                    .find(|(name, _)| name == node)
                    .map(|(_, key)| *key)
                    .ok_or_else(|| Rejection::UnknownNode(node.as_str().to_string()))?;
                if self.leading_key() == Some(key) {
                    return Err(Rejection::AlreadyLeads(node.as_str().to_string()));
                }
                self.leader = Some((Id::clone(node), key, seq));
                self.takeovers.push((seq, Id::clone(node)));
            }
            _ => unreachable!("node_step takes the nodes' kinds only"),
        }
        Ok(())
    }
}
