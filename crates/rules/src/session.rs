//! The meeting's sessions: the chair installs it, may suspend and resume
//! it, and adjourns it (C.Co Arts. 427–430; `rules.md` R20).
//!
//! A meeting is **installed** once, with the quorum of its call (the
//! deliberative quorum, C.Co Arts. 427–429); while it is **suspended**
//! nothing is put to the vote; it may be **resumed** as often as the
//! assembly decides, but its deliberations may not run beyond three days
//! unless every outstanding share is represented (Art. 430); once
//! **adjourned** nothing more is voted and nobody more arrives. A poll
//! must be closed before the meeting is suspended or adjourned. Days are
//! calendar days in Colombia's time, counted from the day of the
//! installation as the first: installed on a Monday, it may resume up to
//! Wednesday; on Thursday only with every outstanding share represented.

use std::fmt;

/// Colombia's offset from UTC, in milliseconds: UTC−5 all year (no
/// daylight saving since 1993).
const COLOMBIA_OFFSET_MS: i64 = 5 * 3_600_000;

/// Milliseconds in a day.
const DAY_MS: i64 = 86_400_000;

/// The days a meeting's deliberations may span without every outstanding
/// share represented (C.Co Art. 430), the installation's day the first.
pub const SESSION_DAYS: i64 = 3;

/// The calendar day in Colombia of a ledger time (ms since the Unix
/// epoch): days since 1970-01-01 there.
pub fn colombia_day(time_ms: u64) -> i64 {
    let ms = i64::try_from(time_ms).unwrap_or(i64::MAX);
    (ms - COLOMBIA_OFFSET_MS).div_euclid(DAY_MS)
}

/// Where the meeting stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SessionState {
    /// Not installed yet.
    #[default]
    NotInstalled,
    /// Installed (or resumed), in session.
    InSession,
    /// Suspended, to resume.
    Suspended,
    /// Adjourned: over.
    Adjourned,
}

/// A step of the chair's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionStep {
    /// Installed.
    Installed,
    /// Suspended.
    Suspended,
    /// Resumed.
    Resumed,
    /// Adjourned.
    Adjourned,
}

impl SessionStep {
    /// The step in Spanish, as the acta and the consoles say it.
    pub const fn spanish(self) -> &'static str {
        match self {
            SessionStep::Installed => "Instalación",
            SessionStep::Suspended => "Suspensión",
            SessionStep::Resumed => "Reanudación",
            SessionStep::Adjourned => "Levantamiento de la sesión",
        }
    }

    /// The step in English.
    pub const fn english(self) -> &'static str {
        match self {
            SessionStep::Installed => "Installation",
            SessionStep::Suspended => "Suspension",
            SessionStep::Resumed => "Resumption",
            SessionStep::Adjourned => "Adjournment",
        }
    }
}

/// Why a step of the sessions, or a poll, an arrival, is refused now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionRefusal {
    /// The meeting is not installed yet.
    NotInstalled,
    /// It was installed already.
    AlreadyInstalled,
    /// Without the quorum of its call it cannot be installed.
    NoQuorum,
    /// It is suspended.
    Suspended,
    /// It is not suspended, so it cannot resume.
    NotSuspended,
    /// It was adjourned.
    Adjourned,
    /// A poll is open: close it first.
    PollOpen,
    /// The resumption falls after the three days of Art. 430 and not every
    /// outstanding share is represented. `day` is the resumption's day
    /// counted from the installation's (1 = the same day).
    BeyondThreeDays {
        /// The day of the meeting the resumption would fall on.
        day: i64,
    },
}

impl SessionRefusal {
    /// The stable code.
    pub const fn code(self) -> &'static str {
        match self {
            SessionRefusal::NotInstalled => "not-installed",
            SessionRefusal::AlreadyInstalled => "already-installed",
            SessionRefusal::NoQuorum => "no-quorum-to-install",
            SessionRefusal::Suspended => "meeting-suspended",
            SessionRefusal::NotSuspended => "not-suspended",
            SessionRefusal::Adjourned => "meeting-adjourned",
            SessionRefusal::PollOpen => "poll-open",
            SessionRefusal::BeyondThreeDays { .. } => "beyond-three-days",
        }
    }
}

impl fmt::Display for SessionRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionRefusal::NotInstalled => f.write_str(
                "la reunión no se ha instalado: la presidencia la instala primero, verificado el quórum / \
                 the meeting is not installed: the chair installs it first, once the quorum is verified",
            ),
            SessionRefusal::AlreadyInstalled => {
                f.write_str("la reunión ya se instaló / the meeting was installed already")
            }
            SessionRefusal::NoQuorum => f.write_str(
                "sin el quórum de esta convocatoria la reunión no puede instalarse (C.Co. arts. 427–429) / \
                 without this call's quorum the meeting cannot be installed",
            ),
            SessionRefusal::Suspended => f.write_str(
                "la reunión está suspendida: nada se vota hasta que se reanude / \
                 the meeting is suspended: nothing is voted until it resumes",
            ),
            SessionRefusal::NotSuspended => {
                f.write_str("la reunión no está suspendida / the meeting is not suspended")
            }
            SessionRefusal::Adjourned => f.write_str(
                "la sesión se levantó: la reunión terminó / the meeting was adjourned: it is over",
            ),
            SessionRefusal::PollOpen => {
                f.write_str("hay una votación abierta: ciérrela primero / a poll is open: close it first")
            }
            SessionRefusal::BeyondThreeDays { day } => write!(
                f,
                "hoy sería el día {day} de la reunión: las deliberaciones no pueden prolongarse por más de \
                 {SESSION_DAYS} días si no está representada la totalidad de las acciones suscritas (C.Co. \
                 art. 430) / today would be day {day} of the meeting: deliberations may not run beyond \
                 {SESSION_DAYS} days unless every subscribed share is represented"
            ),
        }
    }
}

/// The sessions' state machine. Each step applies completely or returns a
/// [`SessionRefusal`] and changes nothing.
#[derive(Clone, Debug, Default)]
pub struct Sessions {
    state: SessionState,
    installed_day: Option<i64>,
}

impl Sessions {
    /// Where the meeting stands.
    pub fn state(&self) -> SessionState {
        self.state
    }

    /// Installs the meeting on `day` ([`colombia_day`]), with the quorum
    /// of its call or not, a poll open or not.
    pub fn install(&mut self, day: i64, quorate: bool, poll_open: bool) -> Result<(), SessionRefusal> {
        match self.state {
            SessionState::NotInstalled => {}
            SessionState::Adjourned => return Err(SessionRefusal::Adjourned),
            _ => return Err(SessionRefusal::AlreadyInstalled),
        }
        if poll_open {
            return Err(SessionRefusal::PollOpen);
        }
        if !quorate {
            return Err(SessionRefusal::NoQuorum);
        }
        self.state = SessionState::InSession;
        self.installed_day = Some(day);
        Ok(())
    }

    /// Suspends the meeting.
    pub fn suspend(&mut self, poll_open: bool) -> Result<(), SessionRefusal> {
        self.in_session()?;
        if poll_open {
            return Err(SessionRefusal::PollOpen);
        }
        self.state = SessionState::Suspended;
        Ok(())
    }

    /// Resumes the meeting on `day`, with every outstanding share
    /// represented or not.
    pub fn resume(&mut self, day: i64, all_represented: bool) -> Result<(), SessionRefusal> {
        match self.state {
            SessionState::Suspended => {}
            SessionState::Adjourned => return Err(SessionRefusal::Adjourned),
            SessionState::NotInstalled => return Err(SessionRefusal::NotInstalled),
            SessionState::InSession => return Err(SessionRefusal::NotSuspended),
        }
        let nth = self.day_of_meeting(day);
        if nth > SESSION_DAYS && !all_represented {
            return Err(SessionRefusal::BeyondThreeDays { day: nth });
        }
        self.state = SessionState::InSession;
        Ok(())
    }

    /// Adjourns the meeting, in session or suspended.
    pub fn adjourn(&mut self, poll_open: bool) -> Result<(), SessionRefusal> {
        match self.state {
            SessionState::InSession | SessionState::Suspended => {}
            SessionState::Adjourned => return Err(SessionRefusal::Adjourned),
            SessionState::NotInstalled => return Err(SessionRefusal::NotInstalled),
        }
        if poll_open {
            return Err(SessionRefusal::PollOpen);
        }
        self.state = SessionState::Adjourned;
        Ok(())
    }

    /// Whether a poll may be opened now. `installation_required`: a
    /// meeting whose convening records its sessions (every meeting
    /// convened since they exist) opens no poll before it is installed.
    pub fn check_poll(&self, installation_required: bool) -> Result<(), SessionRefusal> {
        match self.state {
            SessionState::NotInstalled if installation_required => Err(SessionRefusal::NotInstalled),
            SessionState::NotInstalled | SessionState::InSession => Ok(()),
            SessionState::Suspended => Err(SessionRefusal::Suspended),
            SessionState::Adjourned => Err(SessionRefusal::Adjourned),
        }
    }

    /// Whether anyone may arrive now: not once the meeting is adjourned.
    pub fn check_arrival(&self) -> Result<(), SessionRefusal> {
        match self.state {
            SessionState::Adjourned => Err(SessionRefusal::Adjourned),
            _ => Ok(()),
        }
    }

    /// The day of the meeting `day` is, the installation's day being 1
    /// (1 before the installation).
    pub fn day_of_meeting(&self, day: i64) -> i64 {
        self.installed_day.map_or(1, |first| day - first + 1)
    }

    fn in_session(&self) -> Result<(), SessionRefusal> {
        match self.state {
            SessionState::InSession => Ok(()),
            SessionState::NotInstalled => Err(SessionRefusal::NotInstalled),
            SessionState::Suspended => Err(SessionRefusal::Suspended),
            SessionState::Adjourned => Err(SessionRefusal::Adjourned),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2027-03-29 00:00 in Bogotá is 05:00 UTC.
    const MONDAY_MIDNIGHT_MS: u64 = 1_806_296_400_000;

    #[test]
    fn a_day_begins_at_midnight_in_bogota_not_in_greenwich() {
        let monday = colombia_day(MONDAY_MIDNIGHT_MS);
        assert_eq!(colombia_day(MONDAY_MIDNIGHT_MS - 1), monday - 1, "23:59:59.999 on Sunday");
        assert_eq!(colombia_day(MONDAY_MIDNIGHT_MS + DAY_MS as u64 - 1), monday, "23:59:59.999 on Monday");
        assert_eq!(colombia_day(MONDAY_MIDNIGHT_MS + DAY_MS as u64), monday + 1);
        // 1970-01-01 00:00 UTC was still 31 December 1969 in Bogotá.
        assert_eq!(colombia_day(0), -1);
    }

    #[test]
    fn resumption_on_the_third_day_is_allowed_and_on_the_fourth_needs_every_share() {
        let monday = colombia_day(MONDAY_MIDNIGHT_MS);
        let installed = |s: &mut Sessions| {
            s.install(monday, true, false).unwrap();
            s.suspend(false).unwrap();
        };
        let mut s = Sessions::default();
        installed(&mut s);
        assert_eq!(s.resume(monday + 2, false), Ok(()), "Wednesday: the third day");
        let mut s = Sessions::default();
        installed(&mut s);
        assert_eq!(s.resume(monday + 3, false), Err(SessionRefusal::BeyondThreeDays { day: 4 }));
        assert_eq!(s.state(), SessionState::Suspended, "a refusal changes nothing");
        assert_eq!(s.resume(monday + 3, true), Ok(()), "every share represented: no limit");
    }

    #[test]
    fn each_step_only_where_the_law_lets_it() {
        let mut s = Sessions::default();
        assert_eq!(s.check_poll(true), Err(SessionRefusal::NotInstalled));
        assert_eq!(s.check_poll(false), Ok(()), "a meeting convened before sessions existed");
        assert_eq!(s.suspend(false), Err(SessionRefusal::NotInstalled));
        assert_eq!(s.adjourn(false), Err(SessionRefusal::NotInstalled));
        assert_eq!(s.resume(0, true), Err(SessionRefusal::NotInstalled));
        assert_eq!(s.install(0, false, false), Err(SessionRefusal::NoQuorum));
        assert_eq!(s.install(0, true, true), Err(SessionRefusal::PollOpen));
        s.install(0, true, false).unwrap();
        assert_eq!(s.install(0, true, false), Err(SessionRefusal::AlreadyInstalled));
        assert_eq!(s.resume(0, true), Err(SessionRefusal::NotSuspended));
        assert_eq!(s.suspend(true), Err(SessionRefusal::PollOpen));
        s.suspend(false).unwrap();
        assert_eq!(s.check_poll(true), Err(SessionRefusal::Suspended));
        assert_eq!(s.suspend(false), Err(SessionRefusal::Suspended));
        assert_eq!(s.check_arrival(), Ok(()), "people may come and go while suspended");
        s.resume(1, false).unwrap();
        assert_eq!(s.check_poll(true), Ok(()));
        assert_eq!(s.adjourn(true), Err(SessionRefusal::PollOpen));
        s.adjourn(false).unwrap();
        assert_eq!(s.check_poll(false), Err(SessionRefusal::Adjourned));
        assert_eq!(s.check_arrival(), Err(SessionRefusal::Adjourned));
        assert_eq!(s.adjourn(false), Err(SessionRefusal::Adjourned));
        assert_eq!(s.install(0, true, false), Err(SessionRefusal::Adjourned));
        // A suspended meeting that cannot resume may still be adjourned.
        let mut s = Sessions::default();
        s.install(0, true, false).unwrap();
        s.suspend(false).unwrap();
        assert_eq!(s.adjourn(false), Ok(()));
    }
}
