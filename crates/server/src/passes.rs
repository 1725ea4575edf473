//! A staff session's pass from one node of a replicated meeting to the
//! next (`docs/replication.md`, «The consoles follow the leader»).
//!
//! A session lives in the memory of the node that opened it, and its
//! cookie goes only to that node's address: when the leader dies, the
//! console open there would have to be signed into again at the node that
//! took over, with the 48-character token, in the middle of the meeting.
//! So a console signed in at a replicated meeting asks its node, every
//! minute, for a pass ([`issue_pass`]): the node's word, signed with its
//! enrolled key (`asamblea_wire::SessionPass`, ledger-format §6), that
//! this staff key holds a session there, good for [`VALIDITY`]. The page
//! keeps it in memory only (never in storage, never in a URL); when its
//! node stops answering it posts the pass to the node that serves now
//! (`POST /personal/continuar`), which opens a session of its own for
//! the same account ([`take`]).
//!
//! What a node checks before it takes a pass: signed by an enrolled node
//! of this meeting, for this meeting; not expired by its own clock, not
//! issued more than [`SKEW`] in its future, never longer than
//! [`VALIDITY`]; never taken before at this node (its nonce); the key is
//! one of this node's staff accounts, still signed in here when this very
//! node gave it; and the form came from a page of a node of the meeting
//! (`Origin`). A pass is no more than the session it
//! continues: whoever could read it from the page could already act with
//! that session; it lets no one in after [`VALIDITY`], and a meeting
//! served from one machine gives none.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use axum::extract::State;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use asamblea_api::public::SessionPassAnswer;
use asamblea_venue::staff::{Account, Role};
use asamblea_wire::SessionPass;

use crate::access::Staff;
use crate::callers::{Callers, Routes};
use crate::limits::{millis, now_ms};
use crate::{ApiError, AppState};

/// How long a pass is good for. A console asks for a new one every
/// minute (`nodes.js`), so the one it holds when its node dies is at most
/// a minute old, and the takeover takes seconds.
pub(crate) const VALIDITY: Duration = Duration::from_secs(5 * 60);

/// How far in its future a node takes a pass's issue time: the nodes'
/// clocks may differ by this much (the venue keeps them on NTP).
pub(crate) const SKEW: Duration = Duration::from_secs(60);

/// The passes this node took, by nonce, with when each expires: a pass is
/// taken once. Forgotten after they expire (so at most a few a console).
#[derive(Default)]
pub(crate) struct Taken(Mutex<HashMap<[u8; 16], u64>>);

/// The route: any staff member, signed in.
pub(crate) fn routes() -> Vec<Routes> {
    vec![Routes::api(Callers::Staff(&Role::ALL), OpenApiRouter::new().routes(routes!(issue_pass)))]
}

/// A pass for the caller's session, to continue it at another node of a
/// replicated meeting if this one stops answering.
#[utoipa::path(post, path = "/api/v1/session/pass", tag = "staff",
    responses(
        (status = 200, description = "The pass / el pase", body = SessionPassAnswer),
        (status = 404, description = "The meeting is served from one machine / la reunión no está replicada", body = asamblea_api::ErrorAnswer),
    ))]
pub(crate) async fn issue_pass(
    State(state): State<AppState>,
    staff: Staff,
) -> Result<Json<SessionPassAnswer>, ApiError> {
    if !state.0.nodes.replicated() {
        return Err(ApiError::new(
            asamblea_api::ErrorCode::NotFound,
            "Esta reunión se sirve desde una sola máquina: no hay otro nodo al que pasar la sesión.",
            "This meeting is served from one machine: there is no other node to pass the session to.",
        ));
    }
    let issued_ms = now_ms();
    let pass = SessionPass {
        staff: staff.key.public_key(),
        issued_ms,
        expires_ms: issued_ms.saturating_add(millis(VALIDITY)),
        nonce: asamblea_venue::secrets::random::<16>(),
    };
    let signature = pass.sign(&state.0.meeting_id, &state.0.daemon);
    Ok(Json(SessionPassAnswer { pass: pass.to_text(&signature), expires_in_ms: millis(VALIDITY) }))
}

/// Why a pass was not taken, in Spanish and in English.
pub(crate) type Refusal = (&'static str, &'static str);

/// The account whose session `text` continues, once every check of the
/// module's documentation holds; the pass is then spent at this node.
pub(crate) fn take<'a>(state: &'a AppState, text: &str) -> Result<&'a Account, Refusal> {
    let nodes: Vec<asamblea_wire::PublicKey> =
        state.with_service(|service| service.state().nodes().iter().map(|(_, key)| *key).collect());
    let Some((pass, signer)) = SessionPass::from_text(text, &state.0.meeting_id, &nodes) else {
        return Err((
            "El pase de sesión no es de un nodo de esta reunión o llegó alterado.",
            "The session pass is not from a node of this meeting, or it was altered.",
        ));
    };
    let now = now_ms();
    in_time(&pass, now)?;
    let Some(account) = state.0.accounts.iter().find(|a| a.key.public_key() == pass.staff) else {
        return Err((
            "El pase de sesión no es de una cuenta del personal de esta reunión.",
            "The session pass is not of a staff account of this meeting.",
        ));
    };
    // A pass this very node gave continues a session it still holds: one
    // signed out here opens nothing again.
    if signer == state.0.daemon.public_key() && !state.0.sessions.holds(&account.name) {
        return Err((
            "La sesión de ese pase ya terminó en este nodo.",
            "That pass's session has ended at this node.",
        ));
    }
    let mut taken = state.0.passes.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    taken.retain(|_, expires| *expires >= now);
    if taken.insert(pass.nonce, pass.expires_ms).is_some() {
        return Err(("Ese pase de sesión ya se usó.", "That session pass was used already."));
    }
    Ok(account)
}

/// Whether a pass is good at `now` (Unix milliseconds, this node's
/// clock): not expired, not issued more than [`SKEW`] ahead, never longer
/// than [`VALIDITY`].
fn in_time(pass: &SessionPass, now: u64) -> Result<(), Refusal> {
    if pass.expires_ms < now {
        return Err(("El pase de sesión ya venció.", "The session pass has expired."));
    }
    if pass.issued_ms > now.saturating_add(millis(SKEW))
        || pass.expires_ms < pass.issued_ms
        || pass.expires_ms - pass.issued_ms > millis(VALIDITY)
    {
        return Err((
            "El pase de sesión no tiene fechas posibles: revise que los relojes de los nodos estén en hora.",
            "The session pass has impossible times: check that the nodes' clocks are right.",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each limit of time, at its edge and a millisecond past it.
    #[test]
    fn a_pass_is_good_up_to_its_expiry_and_no_further() {
        let staff = asamblea_wire::Keypair::from_seed(&[5; 32]).public_key();
        let issued = 1_774_533_600_000;
        let pass =
            |issued_ms: u64, expires_ms: u64| SessionPass { staff, issued_ms, expires_ms, nonce: [0; 16] };
        let whole = pass(issued, issued + millis(VALIDITY));
        assert!(in_time(&whole, issued).is_ok());
        assert!(in_time(&whole, issued + millis(VALIDITY)).is_ok(), "at its expiry");
        assert!(in_time(&whole, issued + millis(VALIDITY) + 1).is_err(), "a millisecond after");
        assert!(in_time(&whole, issued - millis(SKEW)).is_ok(), "issued by a clock a minute ahead");
        assert!(in_time(&whole, issued - millis(SKEW) - 1).is_err(), "a clock further ahead");
        assert!(
            in_time(&pass(issued, issued + millis(VALIDITY) + 1), issued).is_err(),
            "longer than allowed"
        );
        assert!(in_time(&pass(issued, issued - 1), issued - 2).is_err(), "expiring before it was issued");
        assert!(in_time(&pass(u64::MAX - 1, u64::MAX), u64::MAX).is_ok(), "no overflow at the end of time");
    }
}
