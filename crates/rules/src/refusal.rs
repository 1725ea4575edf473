//! Why the rules refuse a step. A refusal changes nothing.
//!
//! The codes are a contract (scenarios/FORMAT.md, the HTTP API, the
//! ledger): they never change spelling.

use std::fmt;

/// A step the rules refuse. The meeting is left exactly as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// No holder with that id in the register.
    UnknownHolder,
    /// No item with that id was opened.
    UnknownItem,
    /// The holder is already represented by another channel (R2).
    AlreadyPresent,
    /// An administrator or employee may not represent others' shares as a
    /// proxy (C.Co Art. 185, R2).
    ProxyAgentBarred,
    /// Nothing of that id is present.
    NotPresent,
    /// The quorum is not met (R3, R4).
    NoQuorum,
    /// The item is closed.
    ItemClosed,
    /// The item id was opened once already; a decided item never reopens
    /// (R16).
    ItemAlreadyDecided,
    /// The holder already voted on this item.
    AlreadyVoted,
    /// The holder's shares do not vote on this item (R10, R13).
    NotEligible,
    /// The holder may not split its vote, or the parts do not fit (R14).
    SplitNotAllowed,
    /// No such option on this item.
    UnknownOption,
    /// The matter needed to be in the notice of the meeting (R17).
    NotInNotice,
    /// No lot is pending on this item (R15).
    NoLotPending,
}

impl Refusal {
    /// Every refusal, in the order of FORMAT.md.
    pub const ALL: [Refusal; 14] = [
        Refusal::UnknownHolder,
        Refusal::UnknownItem,
        Refusal::AlreadyPresent,
        Refusal::ProxyAgentBarred,
        Refusal::NotPresent,
        Refusal::NoQuorum,
        Refusal::ItemClosed,
        Refusal::ItemAlreadyDecided,
        Refusal::AlreadyVoted,
        Refusal::NotEligible,
        Refusal::SplitNotAllowed,
        Refusal::UnknownOption,
        Refusal::NotInNotice,
        Refusal::NoLotPending,
    ];

    /// The stable code (`proxy-agent-barred`, …).
    pub const fn code(self) -> &'static str {
        match self {
            Refusal::UnknownHolder => "unknown-holder",
            Refusal::UnknownItem => "unknown-item",
            Refusal::AlreadyPresent => "already-present",
            Refusal::ProxyAgentBarred => "proxy-agent-barred",
            Refusal::NotPresent => "not-present",
            Refusal::NoQuorum => "no-quorum",
            Refusal::ItemClosed => "item-closed",
            Refusal::ItemAlreadyDecided => "item-already-decided",
            Refusal::AlreadyVoted => "already-voted",
            Refusal::NotEligible => "not-eligible",
            Refusal::SplitNotAllowed => "split-not-allowed",
            Refusal::UnknownOption => "unknown-option",
            Refusal::NotInNotice => "not-in-notice",
            Refusal::NoLotPending => "no-lot-pending",
        }
    }

    /// What a person at a kiosk or console reads, in Spanish.
    pub const fn spanish(self) -> &'static str {
        match self {
            Refusal::UnknownHolder => "El accionista no figura en el libro de registro de acciones.",
            Refusal::UnknownItem => "Ese punto del orden del día no ha sido abierto a votación.",
            Refusal::AlreadyPresent => "El accionista ya está presente o representado por otra persona.",
            Refusal::ProxyAgentBarred => {
                "Un administrador o empleado no puede representar acciones ajenas como apoderado (Art. 185 C.Co)."
            }
            Refusal::NotPresent => "No está registrado como presente en la reunión.",
            Refusal::NoQuorum => "No hay quórum para votar.",
            Refusal::ItemClosed => "La votación de este punto ya está cerrada.",
            Refusal::ItemAlreadyDecided => "Este punto ya fue sometido a votación y no puede votarse de nuevo.",
            Refusal::AlreadyVoted => "Ya votó en este punto.",
            Refusal::NotEligible => "Sus acciones no tienen derecho a voto en este punto.",
            Refusal::SplitNotAllowed => "No se permite fraccionar el voto.",
            Refusal::UnknownOption => "Esa opción no está en la papeleta de este punto.",
            Refusal::NotInNotice => "Este asunto debía figurar en la convocatoria.",
            Refusal::NoLotPending => "No hay un sorteo pendiente en este punto.",
        }
    }

    /// The same in English.
    pub const fn english(self) -> &'static str {
        match self {
            Refusal::UnknownHolder => "The holder is not in the share register.",
            Refusal::UnknownItem => "That agenda item has not been opened for voting.",
            Refusal::AlreadyPresent => "The holder is already present or represented by someone else.",
            Refusal::ProxyAgentBarred => {
                "An administrator or employee may not represent others' shares as a proxy (C.Co Art. 185)."
            }
            Refusal::NotPresent => "Not registered as present at the meeting.",
            Refusal::NoQuorum => "There is no quorum to vote.",
            Refusal::ItemClosed => "Voting on this item is closed.",
            Refusal::ItemAlreadyDecided => "This item was already put to the vote and cannot be voted again.",
            Refusal::AlreadyVoted => "Already voted on this item.",
            Refusal::NotEligible => "These shares do not vote on this item.",
            Refusal::SplitNotAllowed => "Splitting the vote is not allowed.",
            Refusal::UnknownOption => "That option is not on this item's ballot.",
            Refusal::NotInNotice => "This matter had to be in the notice of the meeting.",
            Refusal::NoLotPending => "No lot draw is pending on this item.",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl std::error::Error for Refusal {}
