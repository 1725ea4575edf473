//! Where each committed batch is copied before anyone is told it is
//! durable (a replicated meeting, `docs/replication.md`): the writer hands
//! every batch, after its local COMMIT, to the [`Replica`] installed on
//! it, and acknowledges the batch only once the replica says a majority
//! holds it. The ledger knows no sockets: the replica's code (etcd, in
//! `asamblea-replica`) lives outside and comes in through this trait.

use asamblea_wire::Digest;

/// A copy of the chain elsewhere, written batch by batch.
pub trait Replica: Send {
    /// Writes `records` — each `(seq, the record's bytes, the chain's head
    /// after it)` — as the records after `after` (the last record already
    /// there: its number and head; `(0, genesis head)` for the first), in
    /// one step that succeeds only if the copy's last record is still
    /// `after` (fencing: a writer that is no longer the leader can never
    /// fork the chain). `Ok` only once the copy is durable on a majority.
    fn replicate(
        &mut self,
        after: (u64, Digest),
        records: &[(u64, &[u8], &Digest)],
    ) -> Result<(), ReplicaError>;
}

/// Why a batch was not replicated: the writer stops, and the batch is
/// acknowledged to no one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplicaError {
    /// The copy's last record is not `after`: another writer went on from
    /// it, and this one is no longer the leader.
    Fenced {
        /// What the copy holds instead, in words.
        found: String,
    },
    /// No majority confirmed the batch in time (the cluster unreachable,
    /// or without a majority).
    Unconfirmed {
        /// Why, in words.
        reason: String,
    },
}

impl std::fmt::Display for ReplicaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplicaError::Fenced { found } => write!(
                f,
                "otro nodo escribió la cadena después de este (la réplica tiene {found}): este nodo ya no es el líder / another node wrote the chain after this one (the copy holds {found}): this node is no longer the leader"
            ),
            ReplicaError::Unconfirmed { reason } => write!(
                f,
                "la mayoría de las réplicas no confirmó el lote ({reason}) / no majority of the replicas confirmed the batch ({reason})"
            ),
        }
    }
}
