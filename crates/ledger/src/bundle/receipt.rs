//! A voter's receipt checked against a ledger: the one check of `verify --receipts` and of the daemon.

use asamblea_wire::{Digest, MeetingId, PublicKey, Receipt, Signature};

/// Why a voter's receipt is not borne out by a ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReceiptProblem {
    /// The daemon's signature does not verify.
    NotSigned,
    /// The ledger holds no event at its number.
    CutShort,
    /// Another event stands at its number.
    OtherEvent,
    /// The event is there, but the chain's head at its number is another.
    OtherHead,
}

impl ReceiptProblem {
    /// A stable code for each (the API's error code).
    pub const fn code(self) -> &'static str {
        match self {
            ReceiptProblem::NotSigned => "receipt-not-signed",
            ReceiptProblem::CutShort => "ledger-cut-short",
            ReceiptProblem::OtherEvent => "ledger-rewritten",
            ReceiptProblem::OtherHead => "ledger-rechained",
        }
    }

    /// What it means, in English.
    pub const fn reason(self) -> &'static str {
        match self {
            ReceiptProblem::NotSigned => "not signed by the daemon key",
            ReceiptProblem::CutShort => "names an event the ledger does not hold: it was cut short",
            ReceiptProblem::OtherEvent => {
                "another event stands at its number: the ledger was rewritten without it"
            }
            ReceiptProblem::OtherHead => {
                "the chain's head at its number is another: the ledger was re-chained"
            }
        }
    }

    /// The same, in Spanish.
    pub const fn reason_es(self) -> &'static str {
        match self {
            ReceiptProblem::NotSigned => "no lo firmó la clave del servicio de la reunión",
            ReceiptProblem::CutShort => {
                "nombra un evento que el registro no tiene: el registro fue recortado"
            }
            ReceiptProblem::OtherEvent => "otro evento ocupa su número: el registro fue reescrito sin él",
            ReceiptProblem::OtherHead => {
                "la cabeza de la cadena en su número es otra: el registro fue reencadenado"
            }
        }
    }
}

/// Checks a voter's receipt (ledger-format §6) against a ledger: signed by
/// one of `daemon_keys` (the convening key and, in a replicated meeting,
/// every enrolled node's, §3.33) for `meeting`, and the ledger's event
/// digest and head at its number (`at`, `None` past the end) are the ones
/// it names. The one check of `verify --receipts` and of the daemon's
/// public receipt check.
pub fn check_receipt(
    receipt: &Receipt,
    signature: &Signature,
    meeting: &MeetingId,
    daemon_keys: &[PublicKey],
    at: impl FnOnce(u64) -> Option<(Digest, Digest)>,
) -> Result<(), ReceiptProblem> {
    if !daemon_keys.iter().any(|key| receipt.verify(meeting, key, signature).is_ok()) {
        return Err(ReceiptProblem::NotSigned);
    }
    let (event, head) = at(receipt.seq).ok_or(ReceiptProblem::CutShort)?;
    if event != receipt.event {
        return Err(ReceiptProblem::OtherEvent);
    }
    if head != receipt.head {
        return Err(ReceiptProblem::OtherHead);
    }
    Ok(())
}
