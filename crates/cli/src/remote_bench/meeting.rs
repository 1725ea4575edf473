//! The generated mixed meeting of `bench-remote`, written before the
//! daemon starts: room holders checked in with badges, remote attendees
//! verified by the desk (the operator's key) and checked in by their own
//! key, every item open; the venue's kiosks enrolled and the company's
//! certificate for the internet listener made.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use asamblea_venue::lock::MeetingLock;
use asamblea_venue::service::{NewMeeting, Service};
use asamblea_venue::staff::Role;
use asamblea_wire::{
    Credential, CredentialId, Digest, EventBody, Id, MeetingId, PublicKey, VerificationMethod,
};

use crate::bench::setup::{
    bench_meeting_file, enroll_kiosks, install_and_open, queue_all, queue_signed, register_csv,
};

/// The item the kiosks vote on alone in `round` (from 0).
pub(super) fn alone_item(round: usize) -> String {
    format!("sala-{}", round + 1)
}

/// The item the kiosks and the remote attendees vote on together in
/// `round`, closed under the attendees' eyes.
pub(super) fn mixed_item(round: usize) -> String {
    format!("mixta-{}", round + 1)
}

/// The remote channel the notice of a mixed meeting states.
const REMOTE_TABLE: &str = "\n[remote]\nmedium = \"Plataforma de la sociedad (banco de pruebas)\"\naccess = \"Enlace enviado por correo\"\nidentity_check = \"Documento de identidad ante la mesa\"\nfloor = \"Por escrito desde la página\"\nidentity_delegated = true\n";

/// The meeting ready to serve, and what the simulated callers need.
pub(super) struct Prepared {
    pub(super) dir: PathBuf,
    /// The company's certificate (`tls/server.crt`, `tls/server.key`) and
    /// the authority phones trust (`tls/ca.crt`).
    pub(super) company: PathBuf,
    pub(super) meeting: MeetingId,
    pub(super) daemon_key: PublicKey,
    pub(super) chair_token: String,
    pub(super) room_ids: Vec<String>,
    pub(super) room: Vec<Credential>,
    pub(super) remote_ids: Vec<String>,
    pub(super) remote: Arc<Vec<Credential>>,
    /// How often each attendee's phone signs a heartbeat (the meeting's).
    pub(super) heartbeat: std::time::Duration,
    /// Each enrolled kiosk's client configuration.
    pub(super) kiosks: Vec<Arc<rustls::ClientConfig>>,
}

/// Writes the meeting under `root`: `room_holders` in the room with a
/// badge each, `attendees` remote attendees (one key each, verified by
/// identity document, checked in from afar), two items a round, open.
pub(super) fn prepare(
    root: &Path,
    attendees: usize,
    room_holders: usize,
    rounds: usize,
    kiosks: usize,
) -> Result<Prepared> {
    let dir = root.join("meeting");
    let company = root.join("company");
    let room_ids: Vec<String> = (1..=room_holders).map(|i| format!("SALA-{i:06}")).collect();
    let remote_ids: Vec<String> = (1..=attendees).map(|i| format!("REM-{i:06}")).collect();
    let everyone: Vec<String> = room_ids.iter().chain(&remote_ids).cloned().collect();
    let items: Vec<(String, String)> = (0..rounds)
        .flat_map(|round| {
            [
                (alone_item(round), format!("Solo la sala {}", round + 1)),
                (mixed_item(round), format!("Sala y a distancia {}", round + 1)),
            ]
        })
        .collect();
    let toml = bench_meeting_file(
        "asamblea bench-remote",
        everyone.len() as u64,
        "modality = \"mixta\"\n",
        &items,
        REMOTE_TABLE,
    );
    let new = NewMeeting::check(
        "meeting.toml (bench-remote, generated)",
        &toml,
        "register.csv (bench-remote, generated)",
        register_csv(&everyone).as_bytes(),
        |_| {},
    )?;
    asamblea_venue::secrets::create_private_dir(root)?;
    asamblea_venue::secrets::create_private_dir(&dir)?;
    let mut service = Service::init(&dir, MeetingLock::acquire_fresh_or_explain(&dir)?, new)?;
    asamblea_pki::create_venue_pki(&dir, &[])?;
    // The company's certificate, from an authority that is not the
    // venue's (in a real meeting, a public one).
    asamblea_pki::create_venue_pki(&company, &["localhost".to_string()])?;
    let accounts = asamblea_venue::staff::Accounts::load(&dir)?;
    let operator = accounts.iter().find(|a| a.role == Role::Operator).map(|a| a.key.clone()).context(
        "la reunión de prueba no tiene cuenta de operador / the bench meeting has no operator account",
    )?;
    let meeting = service.meeting_id();
    let credentials = |first: u32, count: usize| -> Vec<Credential> {
        (0..count)
            .map(|i| {
                let number = CredentialId(first + u32::try_from(i).expect("fewer holders than u32::MAX"));
                Credential::generate_from(&meeting, number, &asamblea_venue::secrets::random())
            })
            .collect()
    };

    // The room: checked in at the desk, a badge each.
    let arrivals = room_ids.iter().map(|id| Ok(EventBody::CheckedInPerson { holder: Id::new(id)? }));
    queue_all(&mut service, &operator, arrivals.collect::<Result<Vec<_>>>()?)?;
    let room = credentials(service.state().badges_issued() + 1, room_holders);
    let badges = room.iter().zip(&room_ids).map(|(c, id)| {
        Ok(EventBody::BadgeIssued { credential: c.id(), key: c.public_key(), person: Id::new(id)? })
    });
    queue_all(&mut service, &operator, badges.collect::<Result<Vec<_>>>()?)?;

    // From afar: the desk verified each person and bound the key their
    // browser made; then each attendee signed their own arrival.
    let remote = credentials(service.state().badges_issued() + 1, attendees);
    let mut desk = Vec::with_capacity(2 * attendees);
    for (credential, id) in remote.iter().zip(&remote_ids) {
        let person = Id::new(id)?;
        desk.push(EventBody::IdentityVerified {
            person: person.clone(),
            key: credential.public_key(),
            method: VerificationMethod::IdentityDocument,
            evidence: Digest::sha256(format!("documento de {id}").as_bytes()),
        });
        desk.push(EventBody::RemoteCredentialIssued {
            credential: credential.id(),
            key: credential.public_key(),
            person,
        });
    }
    queue_all(&mut service, &operator, desk)?;
    let arrivals = remote.iter().zip(&remote_ids).map(|(credential, id)| {
        Ok((
            credential.keypair(),
            EventBody::CheckedInRemote { credential: credential.id(), principals: vec![Id::new(id)?] },
        ))
    });
    queue_signed(&mut service, arrivals.collect::<Result<Vec<_>>>()?)?;

    let items: Vec<String> = (0..rounds).flat_map(|round| [alone_item(round), mixed_item(round)]).collect();
    let chair_token = install_and_open(&mut service, &items)?;
    let daemon_key = service.daemon_key();
    let heartbeat = std::time::Duration::from_secs(u64::from(
        service.state().convened_modality().map_or(60, |m| m.presence.heartbeat_seconds),
    ));
    let kiosks = enroll_kiosks(&dir, "sala", kiosks)?;
    // The daemon (a child process) takes the meeting's lock next.
    drop(service.close());
    Ok(Prepared {
        dir,
        company,
        meeting,
        daemon_key,
        chair_token,
        room_ids,
        room,
        remote_ids,
        remote: Arc::new(remote),
        heartbeat,
        kiosks,
    })
}
