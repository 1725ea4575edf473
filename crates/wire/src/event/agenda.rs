//! The agenda in the ledger: an item as `meeting-convened` convenes it,
//! and the whole agenda of `agenda-convened` (informative items, each
//! list's candidates), with their encodings.

use super::*;

/// An entry of the whole agenda (`agenda-convened`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgendaEntry {
    /// An item of `meeting-convened`'s agenda, in its place, with the
    /// candidates of its lists: none given, or one list of candidates per
    /// list in ballot order (elections only).
    Voted {
        /// The item's id, as convened in `meeting-convened`.
        item: Id,
        /// Per list, in ballot order, its candidates in the list's order.
        candidates: Vec<Vec<Candidate>>,
    },
    /// An item read, reported or discussed, not voted ("informe de
    /// gestión", "proposiciones y varios").
    Informative {
        /// Its id, unique in the whole agenda.
        item: Id,
        /// Its title.
        title: Text,
    },
}

impl AgendaEntry {
    /// The entry's id.
    pub fn item(&self) -> &Id {
        match self {
            AgendaEntry::Voted { item, .. } | AgendaEntry::Informative { item, .. } => item,
        }
    }
}

/// A candidate a list carries: the principal and, where the seat has one,
/// the alternate (suplente), elected with the principal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The principal's name: 1 to 256 bytes.
    pub principal: Text,
    /// The alternate's name; empty when the seat has none.
    pub suplente: Text,
}

/// An item of the convened agenda. A decision carries `seats = 0` and no
/// lists; an election carries its seats (1 on a single-seat election) and
/// 1 to [`MAX_LISTS`] lists in ballot order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgendaItem {
    /// The item's id.
    pub item: Id,
    /// The title read out and printed in the acta.
    pub title: Text,
    /// The matter kind.
    pub matter: MatterKind,
    /// Whether the matter was in the notice of the meeting (R17).
    pub noticed: bool,
    /// Seats to fill; 0 on a decision.
    pub seats: u32,
    /// The lists, in ballot order; none on a decision.
    pub lists: Vec<Id>,
}

impl AgendaItem {
    /// The rules engine's description of the item.
    pub fn to_spec(&self) -> Result<ItemSpec, ItemSpecError> {
        let options = if self.matter.is_election() {
            BallotOptions::Election {
                seats: self.seats,
                lists: self.lists.iter().map(|l| l.as_str().into()).collect(),
            }
        } else {
            if self.seats != 0 || !self.lists.is_empty() {
                return Err(ItemSpecError::OptionsDoNotFit(self.matter));
            }
            BallotOptions::Decision
        };
        ItemSpec::new(self.item.as_str(), self.matter, self.noticed, options)
    }
}

impl AgendaEntry {
    pub(super) fn write(&self, w: &mut Writer) -> Result<(), WireError> {
        match self {
            AgendaEntry::Voted { item, candidates } => {
                w.u8(1);
                w.str(item.as_str());
                w.count("agenda-convened.entries.candidates", candidates.len(), 0, MAX_LISTS)?;
                for list in candidates {
                    w.count("agenda-convened.entries.candidates", list.len(), 1, MAX_CANDIDATES)?;
                    for candidate in list {
                        if candidate.principal.as_str().is_empty() {
                            let problem = Problem::TooShort { len: 0, min: 1 };
                            let field = "agenda-convened.entries.candidates.principal";
                            return Err(WireError::Invalid { field, problem });
                        }
                        w.str(candidate.principal.as_str());
                        w.str(candidate.suplente.as_str());
                    }
                }
            }
            AgendaEntry::Informative { item, title } => {
                w.u8(2);
                w.str(item.as_str());
                w.str(title.as_str());
            }
        }
        Ok(())
    }

    pub(super) fn read(r: &mut Reader<'_>) -> Result<AgendaEntry, WireError> {
        let at = r.at();
        Ok(match r.u8("agenda-convened.entries.kind")? {
            1 => {
                let item = r.id("agenda-convened.entries.item")?;
                let lists = r.count("agenda-convened.entries.candidates", 0, MAX_LISTS)?;
                let mut candidates = Vec::with_capacity(lists);
                for _ in 0..lists {
                    let count = r.count("agenda-convened.entries.candidates", 1, MAX_CANDIDATES)?;
                    let mut list = Vec::with_capacity(count);
                    for _ in 0..count {
                        list.push(Candidate {
                            principal: r.name("agenda-convened.entries.candidates.principal")?,
                            suplente: r.text("agenda-convened.entries.candidates.suplente")?,
                        });
                    }
                    candidates.push(list);
                }
                AgendaEntry::Voted { item, candidates }
            }
            2 => AgendaEntry::Informative {
                item: r.id("agenda-convened.entries.item")?,
                title: r.text("agenda-convened.entries.title")?,
            },
            other => {
                return Err(r.malformed("agenda-convened.entries.kind", at, Problem::UnknownCode(other)))
            }
        })
    }
}

impl AgendaItem {
    /// Decisions carry no seats or lists; elections what the rules accept.
    fn check(&self) -> Result<(), Problem> {
        self.to_spec().map(drop).map_err(Problem::Item)
    }

    pub(super) fn write(&self, w: &mut Writer) -> Result<(), WireError> {
        w.str(self.item.as_str());
        w.str(self.title.as_str());
        w.code(self.matter);
        w.bool(self.noticed);
        w.u32(self.seats);
        w.count("meeting-convened.agenda.lists", self.lists.len(), 0, MAX_LISTS)?;
        for list in &self.lists {
            w.str(list.as_str());
        }
        self.check().map_err(|problem| WireError::Invalid { field: "meeting-convened.agenda.seats", problem })
    }

    pub(super) fn read(r: &mut Reader<'_>) -> Result<AgendaItem, WireError> {
        let item = r.id("meeting-convened.agenda.item")?;
        let title = r.text("meeting-convened.agenda.title")?;
        let matter = r.code("meeting-convened.agenda.matter")?;
        let noticed = r.bool("meeting-convened.agenda.noticed")?;
        let seats_at = r.at();
        let seats = r.u32("meeting-convened.agenda.seats")?;
        let count = r.count("meeting-convened.agenda.lists", 0, MAX_LISTS)?;
        let mut lists = Vec::with_capacity(count);
        for _ in 0..count {
            lists.push(r.id("meeting-convened.agenda.lists")?);
        }
        let entry = AgendaItem { item, title, matter, noticed, seats, lists };
        entry.check().map_err(|problem| r.malformed("meeting-convened.agenda.seats", seats_at, problem))?;
        Ok(entry)
    }
}
