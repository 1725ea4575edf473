//! Poll timing as the replay judges it (ledger-format §3.21–3.22,
//! rules.md §11.5): `polls-timed` sets the meeting's minimum open time
//! and countdown, `close-announced` starts a countdown, and `item-closed`
//! waits for both, judged by the records' times.

use asamblea_rules::{PollTiming, Refusal};

use super::{Rejection, State};

/// The latest close announcement of an item, as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Announcement {
    /// Its record's number.
    pub seq: u64,
    /// Its record's time, ms since the Unix epoch.
    pub time_ms: u64,
    /// The countdown's length, in ms.
    pub countdown_ms: u64,
}

impl Announcement {
    /// When the countdown ends, ms since the Unix epoch.
    pub fn end_ms(&self) -> u64 {
        self.time_ms.saturating_add(self.countdown_ms)
    }
}

impl State {
    /// The meeting's poll timing, when its ledger records one.
    pub fn poll_timing(&self) -> Option<PollTiming> {
        self.poll_timing
    }

    /// The latest close announcement of `item`, if any.
    pub fn announcement(&self, item: &str) -> Option<Announcement> {
        self.announcements.get(item).copied()
    }

    /// When `item`'s poll closed (ms since the Unix epoch), if it did.
    pub fn closed_at(&self, item: &str) -> Option<u64> {
        self.closed_at.get(item).copied()
    }

    /// The first moment `item`'s open poll may close (ms since the Unix
    /// epoch): `None` when it must first be announced. A meeting without
    /// timing, or an item not open, may close at once (`Some(0)`): the
    /// rules judge the rest.
    pub fn earliest_close(&self, item: &str) -> Option<u64> {
        let (Some(timing), Some(opened)) = (self.poll_timing, self.opened_at(item)) else {
            return Some(0);
        };
        timing.earliest_close(opened, self.announcement(item).map(|a| a.end_ms()))
    }

    /// Whether `item` is open now: opened and not closed.
    fn item_open(&self, item: &str) -> Result<(), Rejection> {
        let meeting = self.meeting.as_ref().ok_or(Rejection::OutOfPlace(
            "primero se importa el registro de accionistas / the register must be imported first",
        ))?;
        let at = meeting.item_index(item).ok_or(Rejection::Rules(Refusal::UnknownItem))?;
        if meeting.item(at).is_closed() {
            return Err(Rejection::Rules(Refusal::ItemClosed));
        }
        Ok(())
    }

    /// A `close-announced`: only in a meeting with timing, with its
    /// record's time, on an open item, at least the minimum countdown,
    /// never ending before the announcement it replaces.
    pub(super) fn check_announcement(
        &self,
        item: &str,
        countdown_ms: u64,
        time_ms: Option<u64>,
    ) -> Result<(), Rejection> {
        let timing = self.poll_timing.ok_or(Rejection::OutOfPlace(
            "esta reunión no registra tiempos de votación (polls-timed): su cierre no se anuncia / \
             this meeting records no poll timing (polls-timed): its closes are not announced",
        ))?;
        let time_ms = time_ms.ok_or(Rejection::OutOfPlace(
            "un anuncio de cierre se admite solo con la hora de su registro / \
             a close announcement is admitted only with its record's time",
        ))?;
        self.item_open(item)?;
        let previous = self.announcement(item).map(|a| a.end_ms());
        timing.check_announcement(countdown_ms, time_ms, previous).map_err(Rejection::Timing)
    }

    /// An `item-closed` in a meeting with timing: its record's time at
    /// least the item's opening + the minimum, and the announced
    /// countdown run. An item not open is left to the rules' refusal.
    pub(super) fn check_close_timing(&self, item: &str, time_ms: Option<u64>) -> Result<(), Rejection> {
        let Some(timing) = self.poll_timing else { return Ok(()) };
        if self.item_open(item).is_err() {
            return Ok(());
        }
        let time_ms = time_ms.ok_or(Rejection::OutOfPlace(
            "un cierre se admite solo con la hora de su registro / a close is admitted only with its record's time",
        ))?;
        // Opened in the same group (not yet chained): opened now.
        let opened = self.opened_at(item).unwrap_or(time_ms);
        let announced = self.announcement(item).map(|a| a.end_ms());
        timing.check_close(opened, announced, time_ms).map_err(Rejection::Timing)
    }
}
