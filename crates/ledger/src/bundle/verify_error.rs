//! Why a bundle does not verify: the first problem, named by sequence number, in Spanish and English.

use asamblea_wire::WireError;

use super::{BundleError, ReceiptProblem};
use crate::state::Rejection;

/// Why a bundle does not verify: the first problem, by sequence number
/// where it has one. The text is Spanish first, English after.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The bytes are not a bundle.
    #[error("el paquete no se puede leer / the bundle cannot be read: {0}")]
    Bundle(BundleError),
    /// The profile in the bundle does not load.
    #[error("el perfil del paquete no se puede cargar / the profile in the bundle does not load: {0}")]
    Profile(String),
    /// The register in the bundle is not valid.
    #[error(
        "el registro de accionistas del paquete no es válido / the register in the bundle is not valid: {0}"
    )]
    Register(BundleError),
    /// The daemon key is not the one the user expects.
    #[error(
        "la clave del servicio del paquete no es la clave publicada de la reunión / \
         the bundle's daemon key is not the meeting's published key"
    )]
    DaemonKeyMismatch,
    /// A record that does not decode.
    #[error(
        "evento {seq}: el registro no se puede decodificar / event {seq}: the record does not decode: {error}"
    )]
    Decode {
        /// Position in the bundle (1-based).
        seq: u64,
        /// The decoder's words.
        error: WireError,
    },
    /// A record missing: a later number stands where it should, and it
    /// appears nowhere after.
    #[error(
        "falta el evento {seq}: el siguiente registro es el número {found} / event {seq} is missing: the next record is number {found}"
    )]
    Missing {
        /// The number expected.
        seq: u64,
        /// The number found.
        found: u64,
    },
    /// A record whose number was seen already (a copy of an earlier
    /// record).
    #[error(
        "el evento {seq} aparece otra vez donde debería estar el evento {expected} (duplicado) / \
         event {seq} appears again where event {expected} should be (duplicated)"
    )]
    Duplicated {
        /// The repeated number.
        seq: u64,
        /// The number expected there.
        expected: u64,
    },
    /// A record out of order: the one expected here comes later in the
    /// bundle.
    #[error(
        "el evento {seq} viene donde debería estar el evento {expected} (reordenado) / \
         event {seq} comes where event {expected} should be (reordered)"
    )]
    Reordered {
        /// The number found.
        seq: u64,
        /// The number expected.
        expected: u64,
    },
    /// Time going backwards.
    #[error(
        "evento {seq}: su hora es anterior a la del evento previo / event {seq}: its time is earlier than the event before it"
    )]
    TimeWentBackwards {
        /// The record.
        seq: u64,
    },
    /// A stored head that is not the one its record gives.
    #[error(
        "evento {seq}: la cabeza guardada no es la de la cadena en ese punto / event {seq}: the stored head is not the chain's head there"
    )]
    HeadMismatch {
        /// The record.
        seq: u64,
    },
    /// An event the replay does not admit.
    #[error("evento {seq} / event {seq}: {rejection}")]
    Rejected {
        /// The record.
        seq: u64,
        /// Why.
        rejection: Rejection,
    },
    /// A checkpoint whose daemon signature does not verify.
    #[error(
        "el punto de control del evento {seq} no lo firmó la clave del servicio / \
         the checkpoint at event {seq} is not signed by the daemon key"
    )]
    CheckpointSignature {
        /// Its sequence number.
        seq: u64,
    },
    /// A checkpoint whose head is not the chain's.
    #[error(
        "el punto de control del evento {seq} nombra otra cabeza: el registro fue reescrito / \
         the checkpoint at event {seq} names another head: the ledger was rewritten"
    )]
    CheckpointMismatch {
        /// Its sequence number.
        seq: u64,
    },
    /// A close, or a lot, whose result was never published.
    #[error(
        "evento {seq}: `{item}` se cerró (o se sorteó) pero su resultado nunca se publicó / \
         event {seq}: `{item}` was closed (or a lot drawn) but its result was never published"
    )]
    UnpublishedResult {
        /// The item.
        item: String,
        /// The close or lot still owed a result.
        seq: u64,
    },
    /// A result published that no close or lot asked for.
    #[error(
        "evento {seq}: un resultado de `{item}` que ningún cierre ni sorteo pidió / \
         event {seq}: a result of `{item}` that no close or lot asked for"
    )]
    UnaskedResult {
        /// The item.
        item: String,
        /// The result's sequence number.
        seq: u64,
    },
    /// A lot drawn on an item whose close, or whose last lot, still owes
    /// its result: on one item the order is close, result, lot, result.
    #[error(
        "evento {seq}: se sorteó `{item}` antes de publicar el resultado que el sorteo desempata / event {seq}: a lot is drawn on `{item}` before the result whose tie it breaks is published (the order is close, result, lot, result)"
    )]
    LotBeforeResult {
        /// The item.
        item: String,
        /// The lot's sequence number.
        seq: u64,
    },
    /// An election closed on a tie whose lot was never drawn.
    #[error(
        "`{item}` terminó en un empate por el último puesto y no se sorteó / \
         `{item}` ended on a tie across the last seat and no lot was drawn"
    )]
    LotNotDrawn {
        /// The item.
        item: String,
    },
    /// A close or the end of the bundle without its daemon-signed
    /// checkpoint.
    #[error(
        "el paquete no tiene un punto de control firmado por el servicio en el evento {seq} (cada cierre y el final necesitan uno) / \
         the bundle has no daemon-signed checkpoint at event {seq} (every close and the end need one)"
    )]
    MissingCheckpoint {
        /// Where one is needed.
        seq: u64,
    },
    /// An observer's signed head not signed by the daemon key.
    #[error(
        "la cabeza atestiguada del evento {seq} no la firmó la clave del servicio / \
         the witnessed head at event {seq} is not signed by the daemon key"
    )]
    WitnessSignature {
        /// Its sequence number.
        seq: u64,
    },
    /// A receipt the ledger does not bear out.
    #[error(
        "recibo {index} (evento {seq}): {} / receipt {index} (event {seq}): {}",
        .problem.reason_es(),
        .problem.reason()
    )]
    Receipt {
        /// Its place among the receipts given (1-based).
        index: usize,
        /// The event it names.
        seq: u64,
        /// What is wrong.
        problem: ReceiptProblem,
    },
    /// A checkpoint, witnessed head or receipt numbered 0: records are
    /// numbered from 1, so it names no record (it is not a bundle cut
    /// short).
    #[error("{es} 0 no existe: la numeración empieza en 1 / {en} 0 does not exist: numbering starts at 1")]
    NumberedZero {
        /// What names 0, in Spanish.
        es: &'static str,
        /// The same, in English.
        en: &'static str,
    },
    /// A checkpoint beyond the end of the bundle.
    #[error(
        "el paquete termina en el evento {last} pero un punto de control nombra el evento {seq}: fue recortado / \
         the bundle ends at event {last} but a checkpoint names event {seq}: it was cut short"
    )]
    Truncated {
        /// The last record in the bundle.
        last: u64,
        /// The checkpoint's sequence number.
        seq: u64,
    },
}
