//! Ballots saved, found again by their event's digest: the receipt a
//! ballot was answered with, rebuilt from its record in the file and
//! signed again (the kiosk's retry, the public's look-up, the board's
//! receipt page).

use axum::http::header;
use axum::response::{IntoResponse, Response};

use asamblea_ledger::LedgerError;
use asamblea_wire::{Digest, Receipt, Signature};

use asamblea_api::ErrorCode;

use crate::{ApiError, AppState};

/// A receipt and the daemon's signature as the API answers them, written
/// directly (this is the ballot hot path's answer too).
pub(crate) fn receipt_response(receipt: &Receipt, signature: &Signature) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], crate::receipts::to_json(receipt, signature))
        .into_response()
}

/// The receipt of a saved ballot, rebuilt from its record in the file and
/// signed now (see [`crate::Inner::receipts`]). Reads the file: call it
/// off the async threads.
fn lookup(
    state: &AppState,
    candidates: Vec<u64>,
    digest: &Digest,
) -> Result<Option<(Receipt, Signature)>, LedgerError> {
    for seq in candidates {
        if let Some((event, head)) =
            asamblea_ledger::record_at(&state.0.ledger_path, &state.0.meeting_id, seq)?
        {
            if event == *digest {
                let receipt = Receipt { seq, head, event };
                return Ok(Some((receipt, receipt.sign(&state.0.meeting_id, &state.0.daemon))));
            }
        }
    }
    Ok(None)
}

/// The short code a kiosk shows for a ballot (`99F1-09F1-A3C2`: the first
/// hex digits of its event's hash, in groups), read leniently: dashes,
/// spaces and either case; 8 to 16 digits. `None` when it is not one.
pub(crate) fn short_code(text: &str) -> Option<String> {
    let digits = hex_digits(text);
    ((8..=16).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_hexdigit())).then_some(digits)
}

/// `text` without white space and `-`, lower case: the digits of a hash,
/// or of its start, however a person wrote it (in groups, with spaces).
pub(crate) fn hex_digits(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace() && *c != '-').collect::<String>().to_ascii_lowercase()
}

/// The ballots saved whose event's hash starts with `code` (a
/// [`short_code`]): almost always one, or none.
pub(crate) async fn by_short_code(state: &AppState, code: &str) -> Result<Vec<Digest>, ApiError> {
    let bits = u32::try_from(code.len() * 4).unwrap_or(64);
    let padded = format!("{code:0<16}");
    let start = u64::from_str_radix(&padded, 16).unwrap_or(0);
    let candidates =
        state.0.receipts.lock().unwrap_or_else(std::sync::PoisonError::into_inner).starting_with(start, bits);
    if candidates.is_empty() {
        return Ok(Vec::new());
    }
    let (path, meeting, code) = (state.0.ledger_path.clone(), state.0.meeting_id, code.to_string());
    tokio::task::spawn_blocking(move || {
        let mut found = Vec::new();
        for seq in candidates {
            if let Some((event, _)) = asamblea_ledger::record_at(&path, &meeting, seq)? {
                if asamblea_wire::hex::encode(&event.0).starts_with(&code) {
                    found.push(event);
                }
            }
        }
        Ok::<_, LedgerError>(found)
    })
    .await
    .map_err(|_| ApiError::task_failed())?
    .map_err(|e| {
        ApiError::internal(
            "leer el registro para un código de recibo / reading the ledger for a receipt code",
            &e,
        )
    })
}

/// [`lookup`] on a blocking thread, when the index has a ballot that may
/// be it (for a new ballot, almost never: the hot path reads no file).
pub(crate) async fn lookup_blocking(
    state: &AppState,
    digest: Digest,
) -> Result<Option<(Receipt, Signature)>, ApiError> {
    let candidates =
        state.0.receipts.lock().unwrap_or_else(std::sync::PoisonError::into_inner).candidates(&digest);
    if candidates.is_empty() {
        return Ok(None);
    }
    let state = state.clone();
    tokio::task::spawn_blocking(move || lookup(&state, candidates, &digest))
        .await
        .map_err(|_| ApiError::task_failed())?
        .map_err(|e| {
            ApiError::internal("leer el registro para un recibo / reading the ledger for a receipt", &e)
        })
}

/// Whether the durable ledger bears `receipt` out:
/// `asamblea_ledger::check_receipt` against the one record stored at its
/// number, read beside the writer. The signature is checked first, so a
/// receipt the daemon never signed costs no read of the ledger. The outer
/// error is a ledger that could not be read just now (503) or a stored
/// record that does not decode (500); neither stops anything.
pub(crate) async fn receipt_borne_out(
    state: &AppState,
    receipt: Receipt,
    signature: Signature,
) -> Result<Result<(), asamblea_ledger::ReceiptProblem>, ApiError> {
    // This node's key, or any enrolled node's (a replicated meeting's
    // receipts are signed by the node that served each).
    let daemon_keys = state.with_service(|service| {
        let mut keys = service.state().daemon_keys();
        let own = state.0.daemon.public_key();
        if !keys.contains(&own) {
            keys.push(own);
        }
        keys
    });
    if !daemon_keys.iter().any(|key| receipt.verify(&state.0.meeting_id, key, &signature).is_ok()) {
        return Ok(Err(asamblea_ledger::ReceiptProblem::NotSigned));
    }
    let inner = state.0.clone();
    let stored = tokio::task::spawn_blocking(move || {
        asamblea_ledger::record_at(&inner.ledger_path, &inner.meeting_id, receipt.seq)
    })
    .await
    .map_err(|_| ApiError::task_failed())?
    .map_err(|e| {
        if let LedgerError::BrokenChain { .. } = e {
            tracing::error!(error = %e, "un registro guardado no se lee / a stored record does not decode");
            return ApiError::new(
                ErrorCode::LedgerBroken,
                "Un evento guardado en el registro no se puede leer. Guarde su recibo y avise al revisor fiscal.",
                "A stored event of the ledger cannot be read. Keep your receipt and tell the statutory auditor.",
            );
        }
        tracing::warn!(error = %e, "no se pudo leer el registro para un recibo / could not read the ledger for a receipt");
        ApiError::new(
            ErrorCode::LedgerUnreadable,
            "No se pudo leer el registro en este momento; intente de nuevo.",
            "The ledger could not be read just now; try again.",
        )
    })?;
    Ok(asamblea_ledger::check_receipt(&receipt, &signature, &state.0.meeting_id, &daemon_keys, |_| stored))
}
