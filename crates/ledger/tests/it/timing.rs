//! Poll timing judged by the records' times (ledger-format §3.21–3.22,
//! rules.md §11.5): a close comes no sooner than the minimum open time
//! after the opening and the end of the announced countdown, both
//! admitted at their exact millisecond; a ledger whose close came a
//! millisecond sooner is refused by the replay `verify` runs.

use asamblea_ledger::{Rejection, State, SubmitError};
use asamblea_rules::{PollTiming, TimingRefusal};
use asamblea_wire::{Digest, EventBody};

use crate::fixture::{chair, daemon, profile, register, settings, MEETING, PROFILE_BYTES};
use crate::sessions::{note, Meeting};
use crate::support::{id, T0};

const TIMING: PollTiming = PollTiming { min_open_ms: 120_000, min_countdown_ms: 30_000 };
const OPENED: u64 = T0 + 10_000;

fn announce(countdown_ms: u64) -> EventBody {
    EventBody::CloseAnnounced { item: id("item-1"), countdown_ms }
}

fn close() -> EventBody {
    EventBody::ItemClosed { item: id("item-1") }
}

fn timing(refusal: TimingRefusal) -> Result<asamblea_ledger::Appended, SubmitError> {
    Err(SubmitError::Rejected(Rejection::Timing(refusal)))
}

/// Convened with the timing, installed, `item-1` opened at `OPENED`.
fn opened(name: &str) -> Meeting {
    let mut m = Meeting::convened_timed(name, &["H01", "H02", "H03"], settings(), Some(TIMING));
    m.at(T0, &chair(), EventBody::MeetingInstalled { note: note() }).expect("installed");
    m.at(OPENED, &chair(), EventBody::ItemOpened { item: id("item-1") }).expect("opened");
    m
}

#[test]
fn a_close_waits_for_the_minimum_open_time_to_the_millisecond() {
    let mut m = opened("minimum-open");
    assert_eq!(m.at(OPENED + 1_000, &chair(), close()), timing(TimingRefusal::NotAnnounced));
    m.at(OPENED + 2_000, &chair(), announce(30_000)).expect("announced");
    assert_eq!(
        m.at(OPENED + 119_999, &chair(), close()),
        timing(TimingRefusal::MinimumOpen { remaining_ms: 1, min_open_ms: 120_000 })
    );
    m.at(OPENED + 120_000, &chair(), close()).expect("closed at the exact millisecond");
    assert_eq!(m.journal.state().closed_at("item-1"), Some(OPENED + 120_000));
}

#[test]
fn a_close_waits_for_the_countdown_and_a_new_announcement_lengthens_it() {
    let mut m = opened("countdown");
    let announced = OPENED + 200_000;
    assert_eq!(
        m.at(announced - 1_000, &chair(), announce(29_999)),
        timing(TimingRefusal::CountdownTooShort { countdown_ms: 29_999, min_ms: 30_000 })
    );
    m.at(announced, &chair(), announce(30_000)).expect("announced");
    // A new announcement ending a second later: the latest stands.
    m.at(announced + 1_000, &chair(), announce(30_000)).expect("announced again, later");
    let end = announced + 31_000;
    let latest = m.journal.state().announcement("item-1").expect("an announcement");
    assert_eq!((latest.time_ms, latest.end_ms()), (announced + 1_000, end));
    assert_eq!(m.journal.state().earliest_close("item-1"), Some(end));
    assert_eq!(m.at(end - 1, &chair(), close()), timing(TimingRefusal::CountdownRunning { remaining_ms: 1 }));
    m.at(end, &chair(), close()).expect("closed when the countdown ends");
    assert_eq!(
        m.at(end + 1_000, &chair(), announce(30_000)),
        Err(SubmitError::Rejected(Rejection::Rules(asamblea_rules::Refusal::ItemClosed)))
    );
}

#[test]
fn a_close_a_millisecond_before_the_countdown_ends_does_not_verify() {
    let mut m = opened("verify");
    let announced = OPENED + 200_000;
    m.at(announced, &chair(), announce(45_000)).expect("announced");
    m.at(announced + 45_000, &chair(), close()).expect("closed at the end");
    let replay = |records: &[asamblea_wire::EventRecord]| -> Result<(), (u64, Rejection)> {
        let mut state = State::new(
            MEETING,
            register(),
            profile(),
            Digest::sha256(PROFILE_BYTES),
            Some(daemon().public_key()),
        );
        for record in records {
            state
                .admit_verified_at(&record.event, &record.signer, record.time_ms)
                .map_err(|e| (record.seq, e))?;
            state.chained(Digest([0; 32]), record.time_ms);
        }
        Ok(())
    };
    let mut records = m.records();
    assert_eq!(replay(&records), Ok(()), "the ledger as written verifies");
    let last = records.last_mut().expect("the close");
    assert!(matches!(last.event.body, EventBody::ItemClosed { .. }));
    last.time_ms -= 1;
    let seq = last.seq;
    assert_eq!(
        replay(&records),
        Err((seq, Rejection::Timing(TimingRefusal::CountdownRunning { remaining_ms: 1 })))
    );
}

#[test]
fn a_ledger_without_timing_closes_at_once_and_takes_no_announcement() {
    let mut m = Meeting::convened_timed("untimed", &["H01", "H02", "H03"], settings(), None);
    m.at(T0, &chair(), EventBody::MeetingInstalled { note: note() }).expect("installed");
    m.at(OPENED, &chair(), EventBody::ItemOpened { item: id("item-1") }).expect("opened");
    assert!(matches!(
        m.at(OPENED + 1_000, &chair(), announce(30_000)),
        Err(SubmitError::Rejected(Rejection::OutOfPlace(_)))
    ));
    m.at(OPENED + 1_000, &chair(), close()).expect("closed a second after it opened, as before");
}
