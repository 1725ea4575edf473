//! The nodes of a replicated meeting (ledger-format §3.33–3.34): each
//! node's daemon key enrolled at convening; the daemon's events of each
//! stretch signed by the key of the node that led it, and a takeover
//! signed by the node taking the lead.

use asamblea_ledger::Rejection;
use asamblea_wire::{EventBody, Keypair};

use crate::fixture::{chair, daemon};
use crate::sessions::{note, Meeting};
use crate::support::{id, T0};

fn node(n: u8) -> Keypair {
    Keypair::from_seed(&[0x90 + n; 32])
}

fn try_submit(m: &mut Meeting, key: &Keypair, body: EventBody) -> Result<(), Rejection> {
    m.try_submit(key, body)
}

#[test]
fn the_daemons_events_are_signed_by_the_node_that_leads_and_a_takeover_by_the_node_taking_the_lead() {
    let mut m = Meeting::convening("nodes", crate::fixture::settings());
    let enrol = |n: u8| EventBody::NodeEnrolled { node: id(&format!("sede-{n}")), key: node(n).public_key() };
    // Enrolled by the convening key, each once.
    assert!(matches!(try_submit(&mut m, &node(2), enrol(2)), Err(Rejection::SignerNotAllowed { .. })));
    m.submit(&daemon(), enrol(2));
    m.submit(&daemon(), enrol(3));
    assert_eq!(try_submit(&mut m, &daemon(), enrol(2)), Err(Rejection::NodeInUse("sede-2".into())));
    let reuse = EventBody::NodeEnrolled { node: id("sede-9"), key: node(3).public_key() };
    assert_eq!(try_submit(&mut m, &daemon(), reuse), Err(Rejection::NodeInUse("sede-9".into())));
    // A node's key is never a staff member's.
    let staffed = EventBody::StaffEnrolled {
        key: node(2).public_key(),
        role: asamblea_wire::StaffRole::Operator,
        name: id("operador-2"),
    };
    assert_eq!(try_submit(&mut m, &daemon(), staffed), Err(Rejection::DaemonKeyEnrolled));
    m.enrolled_and_imported(&["H01", "H02", "H03"]);
    assert_eq!(
        try_submit(&mut m, &daemon(), enrol(4)),
        Err(Rejection::OutOfPlace(
            "node-enrolled: los nodos se inscriben al convocar, antes de importar el registro / \
             nodes are enrolled at convening, before the register is imported"
        ))
    );
    m.at(T0 + 100_000, &chair(), EventBody::MeetingInstalled { note: note() }).expect("installed");
    let state = m.journal.state();
    assert_eq!(state.nodes().len(), 2);
    assert_eq!(state.daemon_keys(), [daemon().public_key(), node(2).public_key(), node(3).public_key()]);
    assert_eq!(state.leader(), None);
    // sede-2 takes the lead, signing it itself; not anyone else for it.
    let takeover = |n: u8| EventBody::LeaderTookOver { node: id(&format!("sede-{n}")) };
    assert!(matches!(try_submit(&mut m, &daemon(), takeover(2)), Err(Rejection::SignerNotAllowed { .. })));
    assert!(matches!(try_submit(&mut m, &node(3), takeover(2)), Err(Rejection::SignerNotAllowed { .. })));
    assert!(matches!(
        try_submit(&mut m, &node(5), EventBody::LeaderTookOver { node: id("sede-5") }),
        Err(Rejection::SignerNotAllowed { .. })
    ));
    m.submit(&node(2), takeover(2));
    assert_eq!(try_submit(&mut m, &node(2), takeover(2)), Err(Rejection::AlreadyLeads("sede-2".into())));
    assert_eq!(m.journal.state().leader().map(|(n, _, _)| n.as_str()), Some("sede-2"));
    // From now on the daemon's events are sede-2's: the convening key's
    // and sede-3's are refused.
    let timed = || EventBody::PollsTimed { min_open_ms: 0, min_countdown_ms: 0 };
    assert!(matches!(try_submit(&mut m, &daemon(), timed()), Err(Rejection::SignerNotAllowed { .. })));
    assert!(matches!(try_submit(&mut m, &node(3), timed()), Err(Rejection::SignerNotAllowed { .. })));
    // And back to sede-3.
    m.submit(&node(3), takeover(3));
    assert!(matches!(try_submit(&mut m, &node(2), timed()), Err(Rejection::SignerNotAllowed { .. })));
}
