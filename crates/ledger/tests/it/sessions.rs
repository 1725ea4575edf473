//! The sessions judged by their records' times (ledger-format §3.18,
//! rules.md §11.1): a meeting installed on a Thursday morning in Bogotá
//! may resume until Saturday 23:59:59 there; from Sunday 00:00 only with
//! every outstanding share represented (C.Co Art. 430). And a meeting
//! convened with its whole agenda opens no poll before its installation,
//! nor while suspended, and takes no arrival once adjourned.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use asamblea_ledger::{Appended, Journal, Rejection, SubmitError};
use asamblea_rules::{Call, MeetingKind, SessionRefusal};
use asamblea_wire::{register_digest, AgendaEntry, Digest, Event, EventBody, Keypair, StaffRole, Text};

use crate::fixture::{
    agenda, chair, daemon, profile, register, settings, staff, MEETING, PROFILE_BYTES, PROFILE_NAME,
};
use crate::support::{id, nonce, sign, stepping_clock, TempDir, T0};

/// Sunday 29 March 2026, 00:00 in Bogotá (05:00 UTC); `T0` is Thursday
/// 26 March, 09:00 there.
const SUNDAY_MIDNIGHT: u64 = T0 + 63 * 3_600_000;

/// A meeting recorded through the journal, one event at a time (also the
/// powers' tests').
pub(crate) struct Meeting {
    pub(crate) journal: Journal,
    clock: Arc<AtomicU64>,
    nonces: u64,
    _dir: TempDir,
}

impl Meeting {
    /// Convened with its whole agenda, staff enrolled, the register
    /// imported, and `present` checked in.
    pub(crate) fn convened(name: &str, present: &[&str]) -> Meeting {
        Meeting::convened_with(name, present, settings())
    }

    /// [`Meeting::convened`] as a mixed meeting (`meeting-modality`
    /// recorded before the staff and the register, as `init` does): the
    /// remote attendee's tests'.
    pub(crate) fn convened_mixed(name: &str, present: &[&str]) -> Meeting {
        let mut m = Meeting::convening(name, settings());
        let presence = asamblea_rules::RemotePresence { heartbeat_seconds: 60, timeout_seconds: 300 };
        m.submit(&daemon(), crate::modality::mixed(presence));
        m.enrolled_and_imported(present);
        m
    }

    /// [`Meeting::convened`] under these settings.
    pub(crate) fn convened_with(name: &str, present: &[&str], settings: asamblea_rules::Settings) -> Meeting {
        Meeting::convened_timed(name, present, settings, None)
    }

    /// [`Meeting::convened_with`] and, when `timing` is given, its
    /// `polls-timed` right after the whole agenda.
    pub(crate) fn convened_timed(
        name: &str,
        present: &[&str],
        settings: asamblea_rules::Settings,
        timing: Option<asamblea_rules::PollTiming>,
    ) -> Meeting {
        let mut m = Meeting::convening(name, settings);
        if let Some(timing) = timing {
            m.submit(
                &daemon(),
                EventBody::PollsTimed {
                    min_open_ms: timing.min_open_ms,
                    min_countdown_ms: timing.min_countdown_ms,
                },
            );
        }
        m.enrolled_and_imported(present);
        m
    }

    /// Convened with its whole agenda, nothing more: what `init` records
    /// next (the poll timing, the modality, the staff, the register) is
    /// the caller's.
    pub(crate) fn convening(name: &str, settings: asamblea_rules::Settings) -> Meeting {
        let dir = TempDir::new(name);
        let (clock, handle) = stepping_clock();
        let journal = Journal::open(
            &dir.ledger(),
            MEETING,
            register(),
            profile(),
            Digest::sha256(PROFILE_BYTES),
            daemon().public_key(),
            clock,
        )
        .expect("a new journal opens");
        let mut m = Meeting { journal, clock: handle, nonces: 0, _dir: dir };
        m.submit(
            &daemon(),
            EventBody::MeetingConvened {
                daemon_key: daemon().public_key(),
                profile: id(PROFILE_NAME),
                profile_digest: Digest::sha256(PROFILE_BYTES),
                meeting_kind: MeetingKind::Ordinary,
                call: Call::First,
                settings,
                agenda: agenda(),
            },
        );
        let entries = agenda()
            .into_iter()
            .map(|item| AgendaEntry::Voted { item: item.item, candidates: vec![] })
            .chain([AgendaEntry::Informative {
                item: id("varios"),
                title: Text::new("Proposiciones y varios").unwrap(),
            }])
            .collect();
        m.submit(&daemon(), EventBody::AgendaConvened { entries });
        m
    }

    /// Staff enrolled, the register imported, and `present` checked in.
    pub(crate) fn enrolled_and_imported(&mut self, present: &[&str]) {
        let m = self;
        m.submit(
            &daemon(),
            EventBody::StaffEnrolled {
                key: staff().public_key(),
                role: StaffRole::Operator,
                name: id("operador"),
            },
        );
        m.submit(
            &daemon(),
            EventBody::StaffEnrolled {
                key: chair().public_key(),
                role: StaffRole::Chair,
                name: id("presidente"),
            },
        );
        let register = register();
        m.submit(
            &staff(),
            EventBody::RegisterImported {
                register_digest: register_digest(&register),
                holders: register.len() as u32,
                capital: *register.capital(),
            },
        );
        for holder in present {
            m.submit(&staff(), EventBody::CheckedInPerson { holder: id(holder) });
        }
    }

    /// Every record written so far, as a verifier reads them.
    pub(crate) fn records(&self) -> Vec<asamblea_wire::EventRecord> {
        let records = Journal::read_records(&self._dir.ledger(), &MEETING).expect("the ledger reads");
        records.into_iter().map(|(record, _)| record).collect()
    }

    pub(crate) fn event(&mut self, body: EventBody) -> Event {
        self.nonces += 1;
        Event { nonce: nonce("sessions", self.nonces), body }
    }

    /// Submits an event; its refusal, if refused (anything else fails).
    pub(crate) fn try_submit(
        &mut self,
        key: &Keypair,
        body: EventBody,
    ) -> Result<(), asamblea_ledger::Rejection> {
        let event = self.event(body);
        match self.journal.submit(sign(&MEETING, key, event)) {
            Ok(_) => Ok(()),
            Err(asamblea_ledger::SubmitError::Rejected(rejection)) => Err(rejection),
            Err(other) => panic!("not a rejection: {other}"),
        }
    }

    pub(crate) fn submit(&mut self, key: &Keypair, body: EventBody) -> Appended {
        let kind = body.kind();
        let event = self.event(body);
        self.journal
            .submit(sign(&MEETING, key, event))
            .unwrap_or_else(|e| panic!("`{kind}` is admitted: {e}"))
    }

    /// An event placed in a group at `at_ms` (the writer's clock reads
    /// one second on).
    pub(crate) fn at(&mut self, at_ms: u64, key: &Keypair, body: EventBody) -> Result<Appended, SubmitError> {
        self.clock.store(at_ms - 1_000, Ordering::Relaxed);
        let event = self.event(body);
        let mut group = self.journal.begin_group()?;
        let appended = group.push(sign(&MEETING, key, event))?;
        group.commit()?;
        Ok(appended)
    }
}

pub(crate) fn note() -> Text {
    Text::new("").unwrap()
}

fn session(refusal: SessionRefusal) -> Result<Appended, SubmitError> {
    Err(SubmitError::Rejected(Rejection::Session(refusal)))
}

/// H01, H02 and H03: 550.000 of the 890.000 ordinary voting shares.
const QUORUM: [&str; 3] = ["H01", "H02", "H03"];

#[test]
fn a_resumption_on_the_third_day_is_admitted_and_on_the_fourth_only_with_every_share() {
    for (name, present, resumed_at, expected) in [
        ("third-day", &QUORUM[..], SUNDAY_MIDNIGHT - 1, Ok(())),
        ("fourth-day", &QUORUM[..], SUNDAY_MIDNIGHT, Err(SessionRefusal::BeyondThreeDays { day: 4 })),
        (
            "fourth-day-all-present",
            &["H01", "H02", "H03", "H04", "H05", "H06", "H07", "H08", "H09", "H10"][..],
            SUNDAY_MIDNIGHT,
            Ok(()),
        ),
    ] {
        let mut m = Meeting::convened(name, present);
        m.at(T0, &chair(), EventBody::MeetingInstalled { note: note() }).expect("installed");
        m.at(T0 + 3_600_000, &chair(), EventBody::MeetingSuspended { note: note() }).expect("suspended");
        let resumed = m.at(resumed_at, &chair(), EventBody::MeetingResumed { note: note() });
        match expected {
            Ok(()) => {
                let appended = resumed.unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(appended.time_ms, resumed_at, "{name}: the record's time is the one judged");
            }
            Err(refusal) => assert_eq!(resumed, session(refusal), "{name}"),
        }
    }
}

#[test]
fn no_poll_before_the_installation_or_while_suspended_and_no_arrival_once_adjourned() {
    let mut m = Meeting::convened("order", &QUORUM);
    let open = |item: &str| EventBody::ItemOpened { item: id(item) };
    assert_eq!(m.at(T0, &chair(), open("item-1")), session(SessionRefusal::NotInstalled));
    m.at(T0 + 1_000, &chair(), EventBody::MeetingInstalled { note: note() }).expect("installed");
    m.at(T0 + 2_000, &chair(), open("item-1")).expect("opened in session");
    assert_eq!(
        m.at(T0 + 3_000, &chair(), EventBody::MeetingSuspended { note: note() }),
        session(SessionRefusal::PollOpen)
    );
    m.at(T0 + 4_000, &chair(), EventBody::ItemClosed { item: id("item-1") }).expect("closed");
    // The daemon publishes a close's result in the same group; here the
    // close stands alone, and the sessions judge only what is open.
    m.at(T0 + 5_000, &chair(), EventBody::MeetingSuspended { note: note() }).expect("suspended");
    assert_eq!(m.at(T0 + 6_000, &chair(), open("item-2")), session(SessionRefusal::Suspended));
    m.at(T0 + 7_000, &chair(), EventBody::MeetingAdjourned { note: note() })
        .expect("adjourned from a suspension");
    let arrival = m.event(EventBody::CheckedInPerson { holder: id("H10") });
    assert_eq!(
        m.journal.submit(sign(&MEETING, &staff(), arrival)),
        Err(SubmitError::Rejected(Rejection::Session(SessionRefusal::Adjourned)))
    );
    // A step of the sessions needs its record's time: `submit` knows none.
    let step = m.event(EventBody::MeetingResumed { note: note() });
    assert!(matches!(
        m.journal.submit(sign(&MEETING, &chair(), step)),
        Err(SubmitError::Rejected(Rejection::OutOfPlace(_)))
    ));
}
