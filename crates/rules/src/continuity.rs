//! The quorum's continuity, derived (`rules.md` HY-4; Decreto 398 de
//! 2020): the acta of a meeting says that the quorum held «para el inicio
//! de la reunión, para su desarrollo y hasta su culminación», and that is
//! a fact of the record, not a sentence the secretary types. This module
//! derives it from the marks of the record: every arrival and departure,
//! the chair's installation, suspensions, resumptions and adjournment, and
//! every poll's opening and closing, each with its moment (a record's
//! number and time, given as arguments) and the quorum right after it.
//!
//! **When the quorum matters.** While the meeting is in session: from its
//! installation (or a resumption) to a suspension (or the adjournment). A
//! meeting whose record has no installation (written before the sessions
//! were recorded) is taken to be in session while a poll is open. An
//! interval without quorum begins at the first mark in session whose
//! reading lacks it, and ends at the first mark that has it back, or that
//! leaves the session (a suspension, the adjournment); one still running
//! at the end of the record has no end.
//!
//! **What «quorum» is.** The quorum of this meeting's call
//! ([`QuorumReading::this_call`]), as [`crate::Meeting::quorum`] reads it
//! under the profile's rule (OQ1): the threshold exactly reached counts
//! or not as that rule says, never as this module decides.
//!
//! Pure and whole-number: it reads no clock and compares shares as
//! integers.

use crate::attendance::Moment;
use crate::item::ItemIndex;
use crate::meeting::QuorumReading;

/// What a mark of the record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuorumEvent {
    /// Someone arrived or left: who is present changed.
    Presence,
    /// The chair installed the meeting.
    Installed,
    /// The chair suspended it.
    Suspended,
    /// The chair resumed it.
    Resumed,
    /// The chair adjourned it.
    Adjourned,
    /// A poll opened on the item.
    PollOpened(ItemIndex),
    /// The item's poll closed.
    PollClosed(ItemIndex),
}

/// One mark of the record: what happened, when, and the quorum right
/// after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuorumMark {
    /// The record and its time.
    pub moment: Moment,
    /// What happened.
    pub event: QuorumEvent,
    /// The quorum right after it.
    pub quorum: QuorumReading,
}

/// The quorum through one poll, from its opening to its close.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PollQuorum {
    /// The item.
    pub item: ItemIndex,
    /// When it opened.
    pub opened: Moment,
    /// When it closed; `None` while it is open.
    pub closed: Option<Moment>,
    /// The lowest reading between the opening and the close, both
    /// included: the fewest voting shares present (the fewest holders
    /// among equals), the first such.
    pub lowest: QuorumReading,
    /// When that lowest reading was taken.
    pub lowest_at: Moment,
    /// Whether the quorum was lacking at any mark between the opening
    /// and the close, both included.
    pub lost: bool,
}

/// An interval of the session without quorum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuorumGap {
    /// The mark at which the quorum was found lacking.
    pub from: Moment,
    /// The mark at which it was back, or the session ended; `None` when
    /// the record ends first.
    pub to: Option<Moment>,
    /// The lowest reading within the interval.
    pub lowest: QuorumReading,
}

/// The quorum's continuity over a whole record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Continuity {
    /// The installation and the quorum then; `None` when the record has
    /// none.
    pub installation: Option<(Moment, QuorumReading)>,
    /// The lowest reading while in session, and when.
    pub lowest: Option<(Moment, QuorumReading)>,
    /// Each poll, in the order opened.
    pub polls: Vec<PollQuorum>,
    /// The intervals in session without quorum, in order.
    pub gaps: Vec<QuorumGap>,
}

impl Continuity {
    /// Whether the quorum held for the start of the meeting, through its
    /// course and to its end: installed with quorum (or, with no
    /// installation recorded, some poll opened), no interval without it,
    /// no poll that lost it.
    pub fn held_throughout(&self) -> bool {
        let started = match self.installation {
            Some((_, quorum)) => quorum.this_call,
            None => !self.polls.is_empty(),
        };
        started && self.gaps.is_empty() && self.polls.iter().all(|poll| !poll.lost)
    }
}

/// The reading with fewer voting shares present, then fewer holders; the
/// earlier among equals.
fn lower(reading: &QuorumReading, than: &QuorumReading) -> bool {
    (reading.present, reading.holders) < (than.present, than.holders)
}

/// The quorum's continuity of the record whose marks are `marks`, in the
/// record's order.
pub fn continuity(marks: &[QuorumMark]) -> Continuity {
    let sessions = marks.iter().any(|mark| mark.event == QuorumEvent::Installed);
    let mut out = Continuity::default();
    let mut in_session = false;
    // Polls still open: their position in `out.polls`.
    let mut open: Vec<usize> = Vec::new();
    let mut gap: Option<QuorumGap> = None;
    for mark in marks {
        let quorum = mark.quorum;
        match mark.event {
            QuorumEvent::Installed => {
                out.installation.get_or_insert((mark.moment, quorum));
                in_session = true;
            }
            QuorumEvent::Resumed => in_session = true,
            QuorumEvent::Suspended | QuorumEvent::Adjourned => in_session = false,
            QuorumEvent::PollOpened(item) => {
                open.push(out.polls.len());
                out.polls.push(PollQuorum {
                    item,
                    opened: mark.moment,
                    closed: None,
                    lowest: quorum,
                    lowest_at: mark.moment,
                    lost: false,
                });
                if !sessions {
                    in_session = true;
                }
            }
            QuorumEvent::PollClosed(_) | QuorumEvent::Presence => {}
        }
        for &at in &open {
            let poll = &mut out.polls[at];
            if lower(&quorum, &poll.lowest) {
                poll.lowest = quorum;
                poll.lowest_at = mark.moment;
            }
            poll.lost |= !quorum.this_call;
        }
        if let QuorumEvent::PollClosed(item) = mark.event {
            if let Some(position) = open.iter().position(|&at| out.polls[at].item == item) {
                let at = open.remove(position);
                out.polls[at].closed = Some(mark.moment);
            }
            if !sessions && open.is_empty() {
                in_session = false;
            }
        }
        // The session's lowest and its intervals without quorum. A mark
        // that ends the session (a suspension, the adjournment, the last
        // poll's close with no sessions recorded) still counts for what
        // it read, and ends any interval there.
        let counts = in_session
            || matches!(mark.event, QuorumEvent::Suspended | QuorumEvent::Adjourned)
            || (!sessions && matches!(mark.event, QuorumEvent::PollClosed(_)));
        if counts && out.lowest.is_none_or(|(_, lowest)| lower(&quorum, &lowest)) {
            out.lowest = Some((mark.moment, quorum));
        }
        match &mut gap {
            Some(open_gap) => {
                if counts && lower(&quorum, &open_gap.lowest) {
                    open_gap.lowest = quorum;
                }
                if quorum.this_call || !in_session {
                    open_gap.to = Some(mark.moment);
                    out.gaps.extend(gap.take());
                }
            }
            None if counts && !quorum.this_call => {
                let from = QuorumGap { from: mark.moment, to: None, lowest: quorum };
                if in_session {
                    gap = Some(from);
                } else {
                    // Lacking at the very mark that ends the session.
                    out.gaps.push(QuorumGap { to: Some(mark.moment), ..from });
                }
            }
            None => {}
        }
    }
    out.gaps.extend(gap);
    out
}

#[cfg(test)]
mod tests;
