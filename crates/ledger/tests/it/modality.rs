//! The modality (ledger-format §3.23) and the quorum's continuity as the
//! replay derives them (§8 item 11): `meeting-modality` once, by the
//! daemon, before the register; none means presencial; the continuity's
//! moments are the records' numbers and times.

use asamblea_ledger::{Rejection, SubmitError};
use asamblea_rules::{Modality, RemotePresence};
use asamblea_wire::{ConvenedModality, EventBody, Prose, RemoteConvening};

use crate::fixture::{chair, daemon, settings, staff, MEETING};
use crate::sessions::{note, Meeting};
use crate::support::{id, sign, T0};

/// A mixed meeting's `meeting-modality`, with this heartbeat and timeout.
pub(crate) fn mixed(presence: RemotePresence) -> EventBody {
    let prose = |s: &str| Prose::new(s).unwrap();
    EventBody::MeetingModality(ConvenedModality {
        modality: Modality::Mixed,
        presence,
        remote: Some(RemoteConvening {
            medium: prose("Plataforma de la sociedad"),
            access: prose("Enlace por correo"),
            identity_check: prose("Cédula ante la cámara"),
            floor: prose("En el chat"),
            identity_delegated: false,
        }),
    })
}

fn out_of_place(m: &mut Meeting, key: &asamblea_wire::Keypair, body: EventBody) -> bool {
    let event = m.event(body);
    matches!(
        m.journal.submit(sign(&MEETING, key, event)),
        Err(SubmitError::Rejected(Rejection::OutOfPlace(_)))
    )
}

#[test]
fn the_modality_is_recorded_once_by_the_daemon_before_the_register_and_none_is_presencial() {
    let m = Meeting::convened("modality-none", &[]);
    assert_eq!(m.journal.state().modality(), Modality::InPerson);
    assert!(m.journal.state().convened_modality().is_none());

    let mut m = Meeting::convening("modality-mixed", settings());
    // A timeout no longer than a heartbeat, or a heartbeat of nothing.
    for (heartbeat_seconds, timeout_seconds) in [(60, 60), (0, 300)] {
        let incoherent = mixed(RemotePresence { heartbeat_seconds, timeout_seconds });
        assert!(out_of_place(&mut m, &daemon(), incoherent), "{heartbeat_seconds} s, {timeout_seconds} s");
    }
    // Only the daemon signs it.
    let event = m.event(mixed(RemotePresence::default()));
    assert!(matches!(
        m.journal.submit(sign(&MEETING, &staff(), event)),
        Err(SubmitError::Rejected(Rejection::SignerNotAllowed { .. }))
    ));
    m.submit(&daemon(), mixed(RemotePresence::default()));
    let state = m.journal.state();
    assert_eq!(state.modality(), Modality::Mixed);
    assert_eq!(state.convened_modality().unwrap().presence, RemotePresence::default());
    assert!(out_of_place(&mut m, &daemon(), mixed(RemotePresence::default())), "once");
    m.enrolled_and_imported(&[]);
    let mut late = Meeting::convened("modality-late", &[]);
    assert!(out_of_place(&mut late, &daemon(), mixed(RemotePresence::default())), "after the register");
}

/// H01, H02 and H03 hold 550.000 of 890.000 voting shares; H01 leaves
/// during the poll (250.000: no quorum) and comes back.
#[test]
fn the_continuity_is_derived_from_the_records_numbers_and_times() {
    let mut m = Meeting::convened("modality-continuity", &["H01", "H02", "H03"]);
    let installed = m.at(T0, &chair(), EventBody::MeetingInstalled { note: note() }).expect("installed");
    m.at(T0 + 60_000, &chair(), EventBody::ItemOpened { item: id("item-1") }).expect("opened");
    let left = m.at(T0 + 120_000, &staff(), EventBody::CheckedOut { person: id("H01") }).expect("left");
    let back = m.at(T0 + 300_000, &staff(), EventBody::CheckedInPerson { holder: id("H01") }).expect("back");
    let closed = m.at(T0 + 360_000, &chair(), EventBody::ItemClosed { item: id("item-1") }).expect("closed");
    let c = m.journal.state().continuity();
    assert!(!c.held_throughout());
    assert_eq!(c.gaps.len(), 1);
    let gap = c.gaps[0];
    // Each moment is its record's number and the time the ledger gave it.
    assert_eq!((gap.from.seq, gap.from.time_ms), (left.seq, Some(left.time_ms)));
    assert_eq!(gap.to.map(|to| (to.seq, to.time_ms)), Some((back.seq, Some(back.time_ms))));
    assert_eq!(back.time_ms - left.time_ms, 180_000);
    assert_eq!(gap.lowest.present.get(), 250_000);
    let poll = c.polls[0];
    assert!(poll.lost);
    assert_eq!((poll.lowest.present.get(), poll.lowest_at.seq), (250_000, left.seq));
    assert_eq!(poll.closed.map(|at| at.time_ms), Some(Some(closed.time_ms)));
    assert_eq!(
        c.installation.map(|(at, q)| (at.seq, at.time_ms, q.present.get())),
        Some((installed.seq, Some(installed.time_ms), 550_000))
    );
}
