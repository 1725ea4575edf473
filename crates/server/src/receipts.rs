//! A voter's receipt as text and JSON, the way the daemon writes it and
//! takes it back: the JSON the API answers a ballot with
//! (`{"receipt": {"seq", "head", "event"}, "signature"}`) and the one-line
//! text a kiosk prints (`SEQ:HEAD:EVENT:SIGNATURE`,
//! [`asamblea_wire::Receipt::to_text`]). Written once, here, for the
//! ballot route, the receipt check (API and page) and `asamblea verify
//! --receipts`.

use asamblea_api::public::SignedReceipt;
use asamblea_api::ErrorCode;
use asamblea_wire::{Digest, Receipt, Signature};
use serde_json::Value;

use asamblea_wire::hex::encode as hex;

/// The JSON of a receipt and its signature, as the API answers a ballot.
pub fn to_json(receipt: &Receipt, signature: &Signature) -> String {
    format!(
        r#"{{"receipt":{{"seq":{},"head":"{}","event":"{}"}},"signature":"{}"}}"#,
        receipt.seq,
        hex(&receipt.head.0),
        hex(&receipt.event.0),
        hex(&signature.0)
    )
}

/// A receipt from the API's type; the error names the field at fault, in
/// Spanish and in English.
pub fn from_api(value: &SignedReceipt) -> Result<(Receipt, Signature), (String, String)> {
    let digest = |key: &str, text: &str| -> Result<Digest, (String, String)> {
        Digest::from_hex(text).map_err(|e| {
            (
                format!("`receipt.{key}` debe tener 64 cifras hexadecimales ({})", e.spanish()),
                format!("`receipt.{key}`: {}", e.english()),
            )
        })
    };
    let signature = asamblea_wire::hex::decode(&value.signature)
        .and_then(|bytes| Signature::from_slice(&bytes).ok())
        .ok_or_else(|| {
            (
                "`signature` debe tener 128 cifras hexadecimales".to_string(),
                "`signature`: 128 hexadecimal digits".to_string(),
            )
        })?;
    let receipt = Receipt {
        seq: value.receipt.seq,
        head: digest("head", &value.receipt.head)?,
        event: digest("event", &value.receipt.event)?,
    };
    Ok((receipt, signature))
}

/// A receipt from its JSON value (the API's [`SignedReceipt`]); the error
/// names the field at fault, Spanish first.
pub fn from_json(value: &Value) -> Result<(Receipt, Signature), String> {
    let typed: SignedReceipt = serde_json::from_value(value.clone()).map_err(|e| {
        format!("no es el JSON de un recibo ({{\"receipt\": {{\"seq\", \"head\", \"event\"}}, \"signature\"}}) / not a receipt's JSON: {e}")
    })?;
    from_api(&typed).map_err(|(es, en)| format!("{es} / {en}"))
}

/// A receipt from either form: its JSON, or its one-line text.
pub fn parse(text: &str) -> Result<(Receipt, Signature), String> {
    let text = text.trim();
    if text.starts_with('{') {
        let value: Value =
            serde_json::from_str(text).map_err(|e| format!("no es JSON válido / not JSON: {e}"))?;
        from_json(&value)
    } else {
        Receipt::from_text(text).ok_or_else(|| {
            "escriba NÚMERO:CABEZA:EVENTO:FIRMA, o el JSON del recibo / write SEQ:HEAD:EVENT:SIGNATURE, or the receipt's JSON"
                .to_string()
        })
    }
}

/// The API's error code for a receipt the ledger does not bear out.
pub fn problem_code(problem: asamblea_ledger::ReceiptProblem) -> ErrorCode {
    use asamblea_ledger::ReceiptProblem;
    match problem {
        ReceiptProblem::NotSigned => ErrorCode::ReceiptNotSigned,
        ReceiptProblem::CutShort => ErrorCode::LedgerCutShort,
        ReceiptProblem::OtherEvent => ErrorCode::LedgerRewritten,
        ReceiptProblem::OtherHead => ErrorCode::LedgerRechained,
    }
}

/// What the voter is told when the ledger bears the receipt out.
pub fn borne_out_es(seq: u64) -> String {
    format!("Su papeleta está en el registro: evento {seq}, con la cabeza de la cadena que su recibo nombra.")
}

/// [`borne_out_es`] in English.
pub fn borne_out_en(seq: u64) -> String {
    format!("Your ballot is in the ledger: event {seq}, with the chain head your receipt names.")
}

/// What the voter is told when it does not, and what to do. A receipt
/// not signed by this meeting's daemon is most likely mistyped (or of
/// another meeting): that is said first, and no alarm raised; the other
/// problems mean the ledger lost or changed the ballot.
pub fn not_borne_out_es(problem: asamblea_ledger::ReceiptProblem) -> String {
    match problem {
        asamblea_ledger::ReceiptProblem::NotSigned => "Este texto no es un recibo de esta reunión: revise que lo copió completo y sin errores, carácter por carácter.".to_string(),
        _ => format!(
            "El registro no respalda este recibo: {}. Guarde el recibo y avise al revisor fiscal.",
            problem.reason_es()
        ),
    }
}

/// [`not_borne_out_es`] in English.
pub fn not_borne_out_en(problem: asamblea_ledger::ReceiptProblem) -> String {
    match problem {
        asamblea_ledger::ReceiptProblem::NotSigned => "This text is not a receipt of this meeting: check that it was copied whole and without mistakes, character by character.".to_string(),
        _ => format!(
            "The ledger does not bear this receipt out: {}. Keep the receipt and tell the statutory auditor.",
            problem.reason()
        ),
    }
}
