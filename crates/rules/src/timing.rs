//! Poll timing that cannot be rushed (`rules.md` §11.5, Decreto 398 de
//! 2020): a poll stays open a minimum time, and the chair closes it only
//! after announcing the close with a countdown that has run.
//!
//! The times are the ledger records' (ms since the Unix epoch), passed in
//! as arguments: the rules read no clock. A meeting without timing (a
//! ledger written before `polls-timed`) is judged by none of this.

use std::fmt;

/// The meeting's poll timing, from its profile and meeting file, as the
/// ledger's `polls-timed` records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PollTiming {
    /// The least time a poll stays open, in ms; 0: none.
    pub min_open_ms: u64,
    /// The shortest countdown of a close announcement, in ms; 0: a close
    /// needs no announcement.
    pub min_countdown_ms: u64,
}

impl PollTiming {
    /// What a profile that says nothing sets: two minutes open, a
    /// countdown of thirty seconds.
    pub const DEFAULT: PollTiming = PollTiming { min_open_ms: 120_000, min_countdown_ms: 30_000 };

    /// Whether a close must follow an announcement.
    pub const fn requires_announcement(self) -> bool {
        self.min_countdown_ms > 0
    }

    /// Whether the chair may announce, at `now_ms`, a countdown of
    /// `countdown_ms` on an open poll whose latest announcement (if any)
    /// ends at `previous_end_ms`. A re-announcement may end later, never
    /// earlier: the room was told a time, and nobody shortens it.
    pub fn check_announcement(
        self,
        countdown_ms: u64,
        now_ms: u64,
        previous_end_ms: Option<u64>,
    ) -> Result<(), TimingRefusal> {
        if countdown_ms < self.min_countdown_ms {
            return Err(TimingRefusal::CountdownTooShort { countdown_ms, min_ms: self.min_countdown_ms });
        }
        let end_ms = now_ms.saturating_add(countdown_ms);
        match previous_end_ms {
            Some(previous_end_ms) if end_ms < previous_end_ms => {
                Err(TimingRefusal::EndsEarlier { end_ms, previous_end_ms })
            }
            _ => Ok(()),
        }
    }

    /// The first moment a poll opened at `opened_ms`, whose latest
    /// announcement ends at `announced_end_ms`, may close; `None` while it
    /// needs an announcement it lacks.
    pub fn earliest_close(self, opened_ms: u64, announced_end_ms: Option<u64>) -> Option<u64> {
        let open_until = opened_ms.saturating_add(self.min_open_ms);
        match announced_end_ms {
            Some(end) => Some(open_until.max(end)),
            None if self.requires_announcement() => None,
            None => Some(open_until),
        }
    }

    /// Whether a poll opened at `opened_ms`, whose latest announcement
    /// ends at `announced_end_ms`, may close at `now_ms`. Admitted at the
    /// exact millisecond of either bound.
    pub fn check_close(
        self,
        opened_ms: u64,
        announced_end_ms: Option<u64>,
        now_ms: u64,
    ) -> Result<(), TimingRefusal> {
        let open_until = opened_ms.saturating_add(self.min_open_ms);
        let Some(earliest) = self.earliest_close(opened_ms, announced_end_ms) else {
            return Err(TimingRefusal::NotAnnounced);
        };
        if now_ms >= earliest {
            return Ok(());
        }
        let remaining_ms = earliest - now_ms;
        if now_ms < open_until && open_until >= earliest {
            Err(TimingRefusal::MinimumOpen { remaining_ms, min_open_ms: self.min_open_ms })
        } else {
            Err(TimingRefusal::CountdownRunning { remaining_ms })
        }
    }
}

/// Why a close, or its announcement, is refused now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimingRefusal {
    /// The poll has not been open its minimum time.
    MinimumOpen {
        /// How long until it may close, in ms.
        remaining_ms: u64,
        /// The meeting's minimum, in ms.
        min_open_ms: u64,
    },
    /// The close was not announced.
    NotAnnounced,
    /// The announced countdown has not run.
    CountdownRunning {
        /// How long until it has, in ms.
        remaining_ms: u64,
    },
    /// A countdown shorter than the meeting's minimum.
    CountdownTooShort {
        /// The countdown asked for, in ms.
        countdown_ms: u64,
        /// The meeting's minimum, in ms.
        min_ms: u64,
    },
    /// A re-announcement that would end before the one the room was
    /// given.
    EndsEarlier {
        /// When it would end, ms since the Unix epoch.
        end_ms: u64,
        /// When the one it replaces ends.
        previous_end_ms: u64,
    },
}

impl TimingRefusal {
    /// The stable code.
    pub const fn code(self) -> &'static str {
        match self {
            TimingRefusal::MinimumOpen { .. } => "poll-minimum-open",
            TimingRefusal::NotAnnounced => "close-not-announced",
            TimingRefusal::CountdownRunning { .. } => "countdown-running",
            TimingRefusal::CountdownTooShort { .. } => "countdown-too-short",
            TimingRefusal::EndsEarlier { .. } => "countdown-ends-earlier",
        }
    }
}

impl fmt::Display for TimingRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimingRefusal::MinimumOpen { remaining_ms, min_open_ms } => {
                let left = duration_text(remaining_ms);
                let min = duration_text(min_open_ms);
                write!(
                    f,
                    "faltan {left} para poder cerrar la votación: debe estar abierta al menos {min}; espere y \
                     vuelva a cerrar / {left} left before the poll may close: it stays open at least {min}; \
                     wait and close again"
                )
            }
            TimingRefusal::NotAnnounced => f.write_str(
                "la votación no se puede cerrar sin anunciar antes el cierre: anúncielo con su cuenta \
                 regresiva y cierre cuando termine / the poll cannot close before its close is announced: \
                 announce it with its countdown and close when it ends",
            ),
            TimingRefusal::CountdownRunning { remaining_ms } => {
                let left = duration_text(remaining_ms);
                write!(
                    f,
                    "faltan {left} para poder cerrar la votación: la cuenta regresiva anunciada no ha \
                     terminado; espere y vuelva a cerrar / {left} left before the poll may close: the \
                     announced countdown has not ended; wait and close again"
                )
            }
            TimingRefusal::CountdownTooShort { countdown_ms, min_ms } => {
                let asked = duration_text(countdown_ms);
                let min = duration_text(min_ms);
                write!(
                    f,
                    "una cuenta regresiva de {asked} es más corta que el mínimo de esta reunión, {min}: \
                     anuncie al menos {min} / a countdown of {asked} is shorter than this meeting's \
                     minimum, {min}: announce at least {min}"
                )
            }
            TimingRefusal::EndsEarlier { end_ms, previous_end_ms } => {
                let sooner = duration_text(previous_end_ms - end_ms);
                write!(
                    f,
                    "el nuevo anuncio terminaría {sooner} antes que el anterior: un anuncio solo puede \
                     alargar la cuenta regresiva, nunca acortarla / the new announcement would end \
                     {sooner} before the earlier one: an announcement may only lengthen the countdown, \
                     never shorten it"
                )
            }
        }
    }
}

/// A duration as the consoles and messages say it, seconds rounded up (a
/// person told «0 s» would close and be refused): «2 min», «1 min 12 s»,
/// «45 s», «1 h 05 min».
pub fn duration_text(ms: u64) -> String {
    let seconds = ms.div_ceil(1000);
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    match (hours, minutes, seconds) {
        (0, 0, s) => format!("{s} s"),
        (0, m, 0) => format!("{m} min"),
        (0, m, s) => format!("{m} min {s:02} s"),
        (h, m, _) => format!("{h} h {m:02} min"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPENED: u64 = 1_806_296_400_000;
    const TIMING: PollTiming = PollTiming::DEFAULT;

    #[test]
    fn a_close_is_admitted_at_the_minimum_and_refused_a_millisecond_before() {
        // Announced at once with the minimum countdown: the minimum open
        // time is the later bound.
        let end = Some(OPENED + 30_000);
        assert_eq!(TIMING.check_close(OPENED, end, OPENED + 120_000), Ok(()));
        assert_eq!(
            TIMING.check_close(OPENED, end, OPENED + 119_999),
            Err(TimingRefusal::MinimumOpen { remaining_ms: 1, min_open_ms: 120_000 })
        );
    }

    #[test]
    fn a_close_is_admitted_when_the_countdown_ends_and_refused_a_millisecond_before() {
        let announced = OPENED + 200_000;
        let end = announced + 30_000;
        TIMING.check_announcement(30_000, announced, None).unwrap();
        assert_eq!(TIMING.check_close(OPENED, Some(end), end), Ok(()));
        assert_eq!(
            TIMING.check_close(OPENED, Some(end), end - 1),
            Err(TimingRefusal::CountdownRunning { remaining_ms: 1 })
        );
        assert_eq!(
            TIMING.check_close(OPENED, None, OPENED + 10_000_000),
            Err(TimingRefusal::NotAnnounced),
            "however long it has been open"
        );
    }

    #[test]
    fn a_countdown_is_at_least_the_minimum_and_a_new_one_never_ends_sooner() {
        assert_eq!(TIMING.check_announcement(30_000, OPENED, None), Ok(()));
        assert_eq!(
            TIMING.check_announcement(29_999, OPENED, None),
            Err(TimingRefusal::CountdownTooShort { countdown_ms: 29_999, min_ms: 30_000 })
        );
        let previous = Some(OPENED + 60_000);
        assert_eq!(TIMING.check_announcement(30_000, OPENED + 30_000, previous), Ok(()), "the same end");
        assert_eq!(
            TIMING.check_announcement(30_000, OPENED + 29_999, previous),
            Err(TimingRefusal::EndsEarlier { end_ms: OPENED + 59_999, previous_end_ms: OPENED + 60_000 })
        );
        assert_eq!(TIMING.check_announcement(90_000, OPENED + 1, previous), Ok(()), "an extension");
    }

    #[test]
    fn no_timing_closes_at_once_and_a_zero_countdown_needs_no_announcement() {
        let none = PollTiming { min_open_ms: 0, min_countdown_ms: 0 };
        assert_eq!(none.check_close(OPENED, None, OPENED), Ok(()));
        let open_only = PollTiming { min_open_ms: 120_000, min_countdown_ms: 0 };
        assert_eq!(open_only.check_close(OPENED, None, OPENED + 120_000), Ok(()));
        assert!(open_only.check_close(OPENED, None, OPENED + 119_999).is_err());
        assert_eq!(open_only.earliest_close(OPENED, None), Some(OPENED + 120_000));
        assert_eq!(TIMING.earliest_close(OPENED, None), None);
    }

    #[test]
    fn durations_read_as_a_person_says_them() {
        assert_eq!(duration_text(72_000), "1 min 12 s");
        assert_eq!(duration_text(71_001), "1 min 12 s", "seconds rounded up");
        assert_eq!(duration_text(120_000), "2 min");
        assert_eq!(duration_text(1), "1 s");
        assert_eq!(duration_text(0), "0 s");
        assert_eq!(duration_text(3_900_000), "1 h 05 min");
        assert!(TimingRefusal::CountdownRunning { remaining_ms: 72_000 }
            .to_string()
            .starts_with("faltan 1 min 12 s para poder cerrar"));
    }
}
