//! The one error answer of the API, `{"error": {"code", "message",
//! "message_en", "incident"?}}`, and its codes: one enum, each code with
//! its HTTP status and what it means in Spanish and English. The message
//! of an answer says the particular case (which holder, which field); the
//! code's own words say the kind, for a client that only knows the code.

use std::fmt;

use asamblea_rules::Refusal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An error as the client receives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ErrorAnswer {
    /// What went wrong.
    pub error: ErrorDetail,
}

/// What went wrong, for a person (Spanish first) and for a program (the
/// code).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ErrorDetail {
    /// The stable code.
    pub code: ErrorCode,
    /// What happened and what to do, in Spanish.
    pub message: String,
    /// The same in English.
    pub message_en: String,
    /// For a failure inside the daemon (`internal`, `ledger-failure`, …):
    /// the number its log line carries, to tell the technician. The cause
    /// itself is logged, never sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incident: Option<String>,
}

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, $status:literal, $es:literal, $en:literal; )*) => {
        /// Every error code of the API. The rules' refusals keep the codes
        /// of FORMAT.md ([`Refusal::code`]), inside [`ErrorCode::Refused`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $( $(#[$doc])* $variant, )*
            /// A refusal of the rules engine (R1–R18), with its code.
            Refused(Refusal),
        }

        impl ErrorCode {
            /// Every code but the rules' refusals, in this file's order.
            const OWN: &'static [ErrorCode] = &[$(ErrorCode::$variant),*];

            /// The stable code as it travels.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( ErrorCode::$variant => $code, )*
                    ErrorCode::Refused(refusal) => refusal.code(),
                }
            }

            /// The HTTP status every answer with this code carries.
            pub const fn http_status(self) -> u16 {
                match self {
                    $( ErrorCode::$variant => $status, )*
                    ErrorCode::Refused(_) => 422,
                }
            }

            /// What the code means, in Spanish.
            pub const fn meaning_es(self) -> &'static str {
                match self {
                    $( ErrorCode::$variant => $es, )*
                    ErrorCode::Refused(refusal) => refusal.spanish(),
                }
            }

            /// What the code means, in English.
            pub const fn meaning_en(self) -> &'static str {
                match self {
                    $( ErrorCode::$variant => $en, )*
                    ErrorCode::Refused(refusal) => refusal.english(),
                }
            }
        }
    };
}

codes! {
    /// A body, a parameter or a query that is not what the route takes.
    BadRequest = "bad-request", 400, "La solicitud no es válida.", "The request is not valid.";
    /// A body larger than the daemon takes.
    PayloadTooLarge = "payload-too-large", 413, "El cuerpo de la solicitud es demasiado grande.", "The request body is too large.";
    /// No such route, item, badge or ballot.
    NotFound = "not-found", 404, "No existe.", "Not found.";
    /// No staff credential, or an unknown one.
    Unauthorized = "unauthorized", 401, "Falta la clave del personal o no es válida.", "Missing or unknown staff token.";
    /// A staff member whose role may not do this.
    Forbidden = "forbidden", 403, "Su rol no puede hacer esto.", "Your role may not do this.";
    /// A change sent with a session cookie but without its CSRF token.
    Csrf = "csrf", 403, "La solicitud no trae la marca de su sesión.", "The request lacks its session's token.";
    /// A kiosk route without an enrolled kiosk's certificate.
    KioskCertificateRequired = "kiosk-certificate-required", 403, "Solo un quiosco inscrito puede hacer esto.", "Only an enrolled kiosk may do this.";
    /// Too many ballots from one kiosk at once.
    RateLimited = "rate-limited", 429, "Demasiadas solicitudes; espere un momento.", "Too many requests; wait a moment.";
    /// Too many wrong staff tokens from one address.
    TooManySignIns = "too-many-sign-ins", 429, "Demasiados intentos con una clave equivocada.", "Too many attempts with a wrong token.";
    /// The live feed has its maximum of subscribers.
    TooManySubscribers = "too-many-subscribers", 503, "El tablero en vivo está lleno.", "The live board is full.";
    /// The public's room is full; the staff's is kept for staff.
    ServerFull = "server-full", 503, "El servicio está lleno para el público.", "The service is full for the public.";
    /// A request body that did not arrive in time.
    BodyTimeout = "body-timeout", 408, "El cuerpo de la solicitud no llegó a tiempo.", "The request body did not arrive in time.";
    /// A failure inside the daemon; its cause is in the log, under the
    /// answer's `incident`.
    Internal = "internal", 500, "Error interno.", "Internal error.";
    /// The ledger could not be saved: the daemon takes no more changes.
    LedgerFailure = "ledger-failure", 503, "El registro de la reunión no pudo guardarse.", "The meeting's ledger could not be saved.";
    /// A stored record does not decode.
    LedgerBroken = "ledger-broken", 500, "Un evento guardado no se puede leer.", "A stored event cannot be read.";
    /// The ledger could not be read just now.
    LedgerUnreadable = "ledger-unreadable", 503, "No se pudo leer el registro en este momento.", "The ledger could not be read just now.";
    /// A ballot whose signature is not its badge's.
    BadSignature = "bad-signature", 422, "La firma no es válida.", "The signature is not valid.";
    /// A badge the meeting never issued.
    UnknownBadge = "unknown-badge", 422, "Esa credencial no fue emitida en esta reunión.", "That badge was not issued at this meeting.";
    /// A revoked badge.
    RevokedBadge = "revoked-badge", 422, "Esa credencial fue revocada.", "That badge was revoked.";
    /// A ballot for a holder its badge does not carry.
    NotCarried = "not-carried", 422, "La credencial no representa a ese accionista.", "The badge does not carry that holder.";
    /// A badge key recorded already.
    BadgeKeyInUse = "badge-key-in-use", 409, "Esa clave de credencial ya fue registrada.", "That badge key is already recorded.";
    /// A person who holds a live badge already.
    BadgeHeld = "badge-held", 409, "La persona ya tiene una credencial vigente.", "The person already holds a live badge.";
    /// The same signed ballot sent again while the first is being saved.
    Replayed = "replayed", 409, "Esta papeleta ya fue enviada.", "This ballot was already sent.";
    /// A written statement by someone who is not an attendee.
    NotAnAttendee = "not-an-attendee", 422, "La persona no está presente en la reunión.", "The person is not present at the meeting.";
    /// An arrival of a register row that holds no share (R1, R12): the
    /// desk does not check it in.
    NoShares = "no-shares", 422, "Esa fila del libro de accionistas no tiene acciones: no se registra su llegada.", "That register row holds no shares: no arrival is recorded.";
    /// An item that is not on the convened agenda.
    NotOnAgenda = "not-on-agenda", 422, "No es un punto del orden del día convocado.", "Not an item of the convened agenda.";
    /// Another check of the ledger refused it (ledger-format §8).
    RefusedByLedger = "refused", 422, "El registro lo rechaza.", "The ledger refuses it.";
    /// A result asked for while its poll is open.
    ItemOpen = "item-open", 409, "La votación sigue abierta.", "Voting is still open.";
    /// Counted ballots asked for before the poll closed.
    ItemNotClosed = "item-not-closed", 409, "La votación de este punto no se ha cerrado.", "This item's poll has not closed.";
    /// A receipt not signed by this meeting's daemon.
    ReceiptNotSigned = "receipt-not-signed", 422, "No es un recibo de esta reunión.", "Not a receipt of this meeting.";
    /// A receipt naming an event the ledger does not hold.
    LedgerCutShort = "ledger-cut-short", 422, "El registro no tiene el evento del recibo.", "The ledger lacks the receipt's event.";
    /// Another event stands at the receipt's number.
    LedgerRewritten = "ledger-rewritten", 422, "Otro evento ocupa el número del recibo.", "Another event stands at the receipt's number.";
    /// The chain's head at the receipt's number is another.
    LedgerRechained = "ledger-rechained", 422, "La cabeza de la cadena no es la del recibo.", "The chain's head is not the receipt's.";
    /// A kiosk's certificate request that is not valid for its id.
    BadCertificateRequest = "bad-certificate-request", 422, "La solicitud de certificado del quiosco no es válida.", "The kiosk's certificate request is not valid.";
    /// A kiosk id enrolled already.
    KioskEnrolled = "kiosk-enrolled", 409, "Ese quiosco ya está inscrito.", "That kiosk is already enrolled.";
    /// A poll opened before the chair installed the meeting.
    NotInstalled = "not-installed", 409, "La reunión no se ha instalado: la presidencia la instala primero, verificado el quórum.", "The meeting is not installed: the chair installs it first, once the quorum is verified.";
    /// The meeting was installed already.
    AlreadyInstalled = "already-installed", 409, "La reunión ya se instaló.", "The meeting was installed already.";
    /// Installation without this call's quorum.
    NoQuorumToInstall = "no-quorum-to-install", 422, "Sin el quórum de esta convocatoria la reunión no puede instalarse.", "Without this call's quorum the meeting cannot be installed.";
    /// A poll, or a step, while the meeting is suspended.
    MeetingSuspended = "meeting-suspended", 409, "La reunión está suspendida: nada se vota hasta que se reanude.", "The meeting is suspended: nothing is voted until it resumes.";
    /// A resumption of a meeting not suspended.
    NotSuspended = "not-suspended", 409, "La reunión no está suspendida.", "The meeting is not suspended.";
    /// Anything but an exit or a statement once the meeting is adjourned.
    MeetingAdjourned = "meeting-adjourned", 409, "La sesión se levantó: la reunión terminó.", "The meeting was adjourned: it is over.";
    /// A suspension or adjournment while a poll is open.
    PollOpen = "poll-open", 409, "Hay una votación abierta: ciérrela primero.", "A poll is open: close it first.";
    /// Powers lodged once the meeting is installed.
    PowersClosed = "powers-closed", 409, "La reunión ya se instaló: los poderes se radican antes; ahora el apoderado presenta su poder en la mesa.", "The meeting is installed: powers are lodged before; now the agent shows their power at the desk.";
    /// A desk action the meeting cannot take as asked (nobody to admit, a
    /// power lodged before with other content); the message says what to
    /// do.
    DeskRefused = "desk-refused", 422, "La mesa no puede hacerlo así.", "The desk cannot do it this way.";
    /// A person attending by one channel arrives by the other (R2).
    OtherChannel = "other-channel", 409, "La persona asiste por otra vía: primero se registra su salida.", "The person attends by the other channel: record their departure first.";
    /// A credential used outside its channel (a remote one while its
    /// person is not remote, a printed badge while they are).
    WrongChannel = "wrong-channel", 422, "Esa credencial no sirve por esta vía.", "That credential does not serve by this channel.";
    /// A remote credential without the verification of its person and key.
    NotVerified = "not-verified", 422, "La identidad no ha sido verificada con esa clave.", "The identity was not verified with that key.";
    /// A remote registration of someone who cannot attend.
    NotRemoteAttendee = "not-remote-attendee", 422, "No es accionista ni apoderado de un poder aceptado.", "Neither a holder nor the agent of an accepted power.";
    /// A remote arrival bringing a holder no accepted power gives.
    NotCovered = "not-covered", 422, "Ningún poder aceptado le da ese accionista.", "No accepted power gives them that holder.";
    /// Remote attendance in a meeting that admits none.
    RemoteNotAllowed = "remote-not-allowed", 403, "Esta reunión no admite asistencia remota.", "This meeting admits no remote attendance.";
    /// No registration is kept for that key.
    UnknownRegistration = "unknown-registration", 404, "No hay un registro con esa clave.", "No registration with that key.";
    /// Too many registrations are waiting (in all, or from this address).
    RegistrationsFull = "registrations-full", 429, "Hay demasiadas inscripciones en espera; intente más tarde.", "Too many registrations are waiting; try later.";
    /// A heartbeat not newer than the last one taken from its key.
    StaleHeartbeat = "stale-heartbeat", 409, "Esa señal de vida no es más reciente que la anterior.", "That heartbeat is not newer than the last one.";
    /// No remote submission has that record's number.
    UnknownSubmission = "unknown-submission", 404, "No hay una intervención a distancia con ese número.", "No remote submission has that number.";
    /// A remote submission handled already.
    SubmissionHandled = "submission-handled", 409, "Esa intervención ya se tramitó.", "That submission was handled already.";
    /// A submission not read without a reason.
    ReasonRequired = "reason-required", 422, "Diga por qué no se lee.", "Say why it is not read.";
    /// A close before the poll's minimum open time (rules.md §11.5).
    PollMinimumOpen = "poll-minimum-open", 409, "La votación aún no ha estado abierta su tiempo mínimo.", "The poll has not been open its minimum time yet.";
    /// A close not announced with its countdown.
    CloseNotAnnounced = "close-not-announced", 409, "Anuncie el cierre con su cuenta regresiva antes de cerrar.", "Announce the close with its countdown before closing.";
    /// A close before the announced countdown ends.
    CountdownRunning = "countdown-running", 409, "La cuenta regresiva anunciada no ha terminado.", "The announced countdown has not ended.";
    /// A countdown shorter than the meeting's minimum.
    CountdownTooShort = "countdown-too-short", 422, "La cuenta regresiva es más corta que el mínimo de la reunión.", "The countdown is shorter than the meeting's minimum.";
    /// A new announcement that would end before the one the room was given.
    CountdownEndsEarlier = "countdown-ends-earlier", 422, "Un nuevo anuncio solo puede alargar la cuenta regresiva.", "A new announcement may only lengthen the countdown.";
    /// A resumption beyond the three days of C.Co Art. 430.
    BeyondThreeDays = "beyond-three-days", 422, "Las deliberaciones no pueden prolongarse por más de tres días si no está representada la totalidad de las acciones suscritas (C.Co. art. 430).", "Deliberations may not run beyond three days unless every subscribed share is represented.";
}

impl ErrorCode {
    /// Every code, the rules' refusals last.
    pub fn all() -> impl Iterator<Item = ErrorCode> {
        ErrorCode::OWN.iter().copied().chain(Refusal::ALL.iter().map(|&r| ErrorCode::Refused(r)))
    }

    /// The code of `text`, if it is one.
    pub fn from_code(text: &str) -> Option<ErrorCode> {
        ErrorCode::all().find(|code| code.as_str() == text)
    }
}

impl From<Refusal> for ErrorCode {
    fn from(refusal: Refusal) -> ErrorCode {
        ErrorCode::Refused(refusal)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ErrorCode, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        ErrorCode::from_code(&text).ok_or_else(|| {
            serde::de::Error::custom(format!("código de error desconocido / unknown error code `{text}`"))
        })
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for ErrorCode {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let codes: Vec<&str> = ErrorCode::all().map(ErrorCode::as_str).collect();
        let described: Vec<String> = ErrorCode::all()
            .map(|c| format!("`{}` ({}): {}", c.as_str(), c.http_status(), c.meaning_en()))
            .collect();
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(codes))
            .description(Some(format!("The stable error code. {}", described.join("; "))))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for ErrorCode {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_distinct_and_reads_back() {
        let codes: Vec<ErrorCode> = ErrorCode::all().collect();
        let mut texts: Vec<&str> = codes.iter().map(|c| c.as_str()).collect();
        texts.sort_unstable();
        texts.dedup();
        assert_eq!(texts.len(), codes.len(), "two codes share a text");
        for code in codes {
            assert_eq!(ErrorCode::from_code(code.as_str()), Some(code));
            let json = serde_json::to_string(&code).unwrap();
            assert_eq!(serde_json::from_str::<ErrorCode>(&json).unwrap(), code);
            assert!(!code.meaning_es().is_empty() && !code.meaning_en().is_empty());
            assert!((400..600).contains(&code.http_status()), "{code}: an error status");
        }
        assert!(serde_json::from_str::<ErrorCode>("\"no-such-code\"").is_err());
    }

    #[test]
    fn the_rules_refusals_keep_their_format_codes() {
        for refusal in Refusal::ALL {
            let code = ErrorCode::from(refusal);
            assert_eq!(code.as_str(), refusal.code());
            assert_eq!(code.meaning_es(), refusal.spanish());
        }
    }
}
