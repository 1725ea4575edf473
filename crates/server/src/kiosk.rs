//! The kiosk's routes, the ballot's hot path: a badge's ballot sheet and
//! a signed ballot answered with the daemon's receipt once durable. Only
//! an enrolled kiosk is let in (`access::kiosk_gate`).

use std::borrow::Cow;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use asamblea_api::kiosk::{BallotSheet, SheetHolder, SheetItem, SheetOption, SheetVoter};
use asamblea_api::public::SignedReceipt;
use asamblea_api::{ByClass, ErrorAnswer};
use asamblea_ledger::{LedgerError, Rejection, Signed};
use asamblea_rules::{OptionIndex, Refusal};
use asamblea_wire::{CredentialId, Digest, Event, EventBody, PublicKey, Receipt, Signature};

use crate::access::{JsonBytes, Kiosk};
use crate::callers::{Callers, Routes};
use crate::directory::Directory;
use crate::meeting::{badge_number, healthy, ledger_error, unhex, unlocked};
use crate::{ApiError, AppState};

/// The kiosks' routes.
pub(crate) fn routes() -> Vec<Routes> {
    vec![Routes::api(
        Callers::Kiosk,
        OpenApiRouter::new().routes(routes!(ballot_sheet)).routes(routes!(cast)),
    )]
}

/// What a kiosk shows the attendee who scanned this badge: who they are,
/// the holders they carry with their names and shares, and each open item
/// with its title, its options in words and, for each holder, the shares
/// that vote on it or why none do, in plain words
/// (`asamblea_documents::explain::why_not_voting`).
#[utoipa::path(get, path = "/api/v1/kiosk/badges/{credential}", tag = "kiosk",
    params(("credential" = u32, Path, description = "The badge's number, from its QR")),
    responses(
        (status = 200, description = "The ballot sheet", body = BallotSheet),
        (status = 400, description = "`bad-request`", body = ErrorAnswer),
        (status = 422, description = "`unknown-badge`, `revoked-badge`", body = ErrorAnswer),
        (status = 429, description = "`rate-limited`", body = ErrorAnswer),
    ))]
pub(crate) async fn ballot_sheet(
    State(state): State<AppState>,
    kiosk: Kiosk,
    Path(credential): Path<String>,
) -> Result<([(axum::http::HeaderName, &'static str); 1], Json<BallotSheet>), ApiError> {
    tracing::debug!(kiosk.id = %kiosk.0, "ballot sheet");
    let number = badge_number(&credential)?;
    let sheet = unlocked(&state, move |state| {
        let directory = Directory::of_state(state)?;
        state.with_service(|service| sheet_of(service, directory, CredentialId(number)))
    })
    .await?;
    // It names the attendee and the holders carried: kept by no cache.
    Ok(([(axum::http::header::CACHE_CONTROL, "no-store")], Json(sheet)))
}

pub(crate) fn sheet_of(
    service: &asamblea_venue::service::Service,
    directory: &Directory,
    credential: CredentialId,
) -> Result<BallotSheet, ApiError> {
    let (_, person, revoked) = service
        .state()
        .badge(credential)
        .ok_or_else(|| ApiError::rejected(&Rejection::UnknownBadge(credential)))?;
    if revoked {
        return Err(ApiError::rejected(&Rejection::RevokedBadge(credential)));
    }
    let meeting = service.meeting();
    let carried: Vec<_> = meeting.carried_by(person).collect();
    // Greeted by the name the desk recorded (an agent, or who attends for
    // a company), else the register's.
    let name = crate::directory::attendee_name(service.state(), meeting, directory, person);
    let holders = carried
        .iter()
        .map(|&at| {
            let h = meeting.register().holder(at);
            SheetHolder {
                holder: h.id().to_string(),
                name: directory.name(at).to_string(),
                shares: ByClass {
                    ordinary: h.holdings().ordinary.get(),
                    preferred: h.holdings().preferred.get(),
                },
            }
        })
        .collect();
    let open_items = meeting
        .items()
        .iter()
        .filter(|item| !item.is_closed())
        .map(|item| {
            let at = meeting.item_index(item.id()).expect("listed");
            let title = service
                .agenda()
                .iter()
                .find(|e| e.item.as_str() == item.id())
                .map_or(item.id(), |e| e.title.as_str());
            let candidates = service
                .agenda()
                .iter()
                .find(|e| e.item.as_str() == item.id())
                .and_then(|entry| crate::public::candidates_of(service.state(), entry));
            let options = (0..item.option_count())
                .map(|o| {
                    let (es, en) = asamblea_documents::explain::option_words(item, OptionIndex::list(o));
                    let candidates = candidates
                        .as_ref()
                        .and_then(|lists| lists.get(o))
                        .map(|list| list.candidates.iter().map(|c| c.words.clone()).collect())
                        .unwrap_or_default();
                    SheetOption { index: u32::try_from(o).unwrap_or(u32::MAX), es, en, candidates }
                })
                .collect();
            let holders = carried
                .iter()
                .map(|&h| {
                    let verdict =
                        meeting.check_cast(at, h, &asamblea_rules::Ballot::Whole(Some(OptionIndex::list(0))));
                    let shares = meeting.shares_on(at, h).get();
                    let why = verdict
                        .err()
                        .map(|refusal| asamblea_documents::explain::why_not_voting(refusal, shares));
                    SheetVoter {
                        holder: meeting.register().holder(h).id().to_string(),
                        name: directory.name(h).to_string(),
                        shares,
                        may_vote: verdict.is_ok(),
                        reason: verdict.err().map(|r: Refusal| r.code().to_string()),
                        reason_es: why.as_ref().map(|(es, _)| es.clone()),
                        reason_en: why.map(|(_, en)| en),
                    }
                })
                .collect();
            SheetItem {
                id: item.id().to_string(),
                title: title.to_string(),
                matter: item.matter().code().to_string(),
                matter_es: item.matter().spanish().to_string(),
                matter_en: item.matter().english().to_string(),
                options,
                holders,
                close_in_ms: close_in_ms(service.state(), item.id()),
            }
        })
        .collect();
    Ok(BallotSheet { credential: credential.0, person: person.to_string(), name, holders, open_items })
}

/// How long until the countdown the chair announced for `item` ends, ms
/// from now (0 once it has run); none before an announcement.
fn close_in_ms(state: &asamblea_ledger::State, item: &str) -> Option<u64> {
    let end = state.announcement(item)?.end_ms();
    Some(end.saturating_sub(crate::limits::now_ms()))
}

/// A ballot as a kiosk sends it. Its fields borrow from the request's
/// bytes (hexadecimal has nothing to unescape): the hot path copies
/// nothing it does not keep.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BallotRequest<'a> {
    /// The ballot event's canonical bytes, hex.
    #[serde(borrow)]
    event: Cow<'a, str>,
    /// The badge's public key, hex.
    #[serde(borrow)]
    signer: Cow<'a, str>,
    /// The signature, hex.
    #[serde(borrow)]
    signature: Cow<'a, str>,
}

#[utoipa::path(post, path = "/api/v1/ballots", tag = "kiosk",
    request_body = asamblea_api::kiosk::BallotRequest,
    responses(
        (status = 200, description = "Durable: the daemon's signed receipt (the same again for the same ballot)", body = SignedReceipt),
        (status = 400, description = "`bad-request`: not hex, not a ballot event", body = ErrorAnswer),
        (status = 409, description = "`replayed`: the same ballot still being saved; send it again", body = ErrorAnswer),
        (status = 422, description = "`bad-signature`, `unknown-badge`, `revoked-badge`, `not-carried`, or a rules refusal (`already-voted`, `not-eligible`, `item-closed`, …)", body = ErrorAnswer),
        (status = 429, description = "`rate-limited`", body = ErrorAnswer),
        (status = 503, description = "`ledger-failure`", body = ErrorAnswer),
    ))]
pub(crate) async fn cast(
    State(state): State<AppState>,
    Kiosk(kiosk_id): Kiosk,
    JsonBytes(body): JsonBytes,
) -> Result<Response, ApiError> {
    tracing::debug!(kiosk.id = %kiosk_id, "ballot received");
    let request: BallotRequest<'_> = serde_json::from_slice(&body).map_err(|e| {
        ApiError::bad_request(
            format!(
                "el cuerpo no es una papeleta ({{\"event\", \"signer\", \"signature\"}} en hexadecimal): {e}"
            ),
            format!("the body is not a ballot ({{\"event\", \"signer\", \"signature\"}} in hex): {e}"),
        )
    })?;
    let event = unhex(&request.event, "event")?;
    let signer = unhex(&request.signer, "signer")?;
    let signature = unhex(&request.signature, "signature")?;
    let (receipt, signature) = submit_ballot(&state, event, &signer, &signature).await?;
    Ok(crate::ballots::receipt_response(&receipt, &signature))
}

/// The hot path of a ballot once its kiosk is let in: it is decoded and
/// its signature checked strictly; the same ballot again, signed by its
/// badge's key, gets its first receipt; otherwise it is admitted under the
/// lock, group-committed, and answered with the daemon's receipt once
/// durable. What the handler and
/// `asamblea bench`'s pipeline ceiling both run ([`AppState::cast_ballot`]).
pub(crate) async fn submit_ballot(
    state: &AppState,
    bytes: Vec<u8>,
    signer: &[u8],
    signature: &[u8],
) -> Result<(Receipt, Signature), ApiError> {
    healthy(state)?;
    let digest = Digest::sha256(&bytes);
    let event = Event::decode(&bytes).map_err(|e| {
        ApiError::bad_request(
            format!("`event` no es un evento canónico ({})", e.spanish()),
            format!("`event`: {}", e.english()),
        )
    })?;
    if !matches!(event.body, EventBody::Ballot(_)) {
        return Err(ApiError::bad_request("`event` debe ser una papeleta", "`event` must be a ballot"));
    }
    let signer = PublicKey::from_slice(signer).map_err(|e| {
        ApiError::bad_request(
            format!("`signer` no es una clave pública ({})", e.spanish()),
            format!("`signer`: {}", e.english()),
        )
    })?;
    let signature = Signature::from_slice(signature).map_err(|e| {
        ApiError::bad_request(
            format!("`signature` no es una firma ({})", e.spanish()),
            format!("`signature`: {}", e.english()),
        )
    })?;
    // Strict verification here, on the request's own thread: many run at
    // once; the admission under the lock that follows is short.
    signer
        .verify(&state.0.meeting_id, &bytes, &signature)
        .map_err(|_| ApiError::rejected(&Rejection::BadSignature))?;
    let EventBody::Ballot(ballot) = &event.body else { unreachable!("checked above") };
    // The same ballot again (a kiosk's retry) gets its first receipt, but
    // only signed as the first was, by its badge's key: the same bytes
    // with a garbage signature, or signed by another key, get nothing.
    if let Some(found) = crate::ballots::lookup_blocking(state, digest).await? {
        signed_by_its_badge(state, ballot.credential, &signer)?;
        return Ok(found);
    }
    let item = ballot.item.as_str().to_string();
    let (credential, signer_bytes) = (ballot.credential, signer);
    let (done, acknowledged) = tokio::sync::oneshot::channel();
    let holders: Vec<String> = ballot.votes.iter().map(|vote| vote.holder.as_str().to_string()).collect();
    let votes = u32::try_from(holders.len()).unwrap_or(u32::MAX);
    let queued = state.with_service(|service| {
        service.queue_ballot(
            Signed { event, bytes, signer, signature },
            Box::new(move |result| {
                let _ = done.send(result);
            }),
        )?;
        // What the ballot weighs: the shares its holders vote with on the
        // item (admitted, so every one is known and may vote).
        let meeting = service.meeting();
        let at = meeting.item_index(&item).ok_or(Rejection::Rules(Refusal::UnknownItem))?;
        Ok(holders
            .iter()
            .filter_map(|holder| meeting.register().lookup(holder))
            .map(|holder| meeting.shares_on(at, holder).get())
            .sum::<u64>())
    });
    let weight = match queued {
        Ok(weight) => weight,
        Err(Rejection::RepeatedNonce) => {
            // The same ballot, sent again while the first is being saved:
            // answer with the first one's receipt.
            signed_by_its_badge(state, credential, &signer_bytes)?;
            for _ in 0..200 {
                if let Some(found) = crate::ballots::lookup_blocking(state, digest).await? {
                    return Ok(found);
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            return Err(ApiError::rejected(&Rejection::RepeatedNonce));
        }
        Err(rejection) => return Err(ApiError::rejected(&rejection)),
    };
    // What follows the commit runs in a task of its own: if the kiosk goes
    // away while its ballot is being saved, the handler is dropped, but the
    // durable ballot still gets its receipt kept (for the retry) and its
    // place in the turnout.
    let state = state.clone();
    let finish = tokio::spawn(async move {
        let appended = match acknowledged.await {
            Ok(Ok(appended)) => appended,
            Ok(Err(error)) => return Err(ledger_error(&state, &error)),
            Err(_) => {
                let stopped = LedgerError::WriterStopped {
                    reason: "no answer".into(),
                    cause: asamblea_ledger::Cause::Other,
                };
                return Err(ledger_error(&state, &stopped));
            }
        };
        // Counted as the rules count them (`Item::ballots`): a vote per
        // holder, so an agent's ballot for three principals counts three,
        // and the figure is the same after a restart rebuilds it.
        let mut turnout = state.0.turnout.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let entry = turnout.entry(item).or_insert((0, 0));
        *entry = (entry.0 + votes, entry.1 + weight);
        drop(turnout);
        let receipt = Receipt { seq: appended.seq, head: appended.head, event: appended.event_digest };
        let signature = receipt.sign(&state.0.meeting_id, &state.0.daemon);
        state
            .0
            .receipts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(&digest, appended.seq);
        Ok((receipt, signature))
    });
    finish.await.map_err(|_| ApiError::task_failed())?
}

/// A ballot found saved already is answered with its receipt only when
/// `signer` (whose signature was checked) is the key of the ballot's
/// badge, as the saved one's was: refused as `bad-signature` otherwise.
fn signed_by_its_badge(
    state: &AppState,
    credential: CredentialId,
    signer: &PublicKey,
) -> Result<(), ApiError> {
    let badge_key = state.with_service(|service| service.state().badge(credential).map(|(key, ..)| key));
    if badge_key == Some(signer.to_bytes()) {
        Ok(())
    } else {
        Err(ApiError::rejected(&Rejection::BadSignature))
    }
}

#[cfg(test)]
mod tests {
    use super::BallotRequest;

    /// The hot path reads the contract's ballot (`asamblea_api::kiosk::
    /// BallotRequest`, what the kiosk sends and the document describes)
    /// into its own borrowing struct: both must take exactly the same JSON.
    #[test]
    fn the_hot_paths_ballot_reads_what_the_contract_writes_and_nothing_else() {
        let sent = asamblea_api::kiosk::BallotRequest {
            event: "ab".repeat(8),
            signer: "cd".repeat(32),
            signature: "ef".repeat(64),
        };
        let text = serde_json::to_string(&sent).unwrap();
        let read: BallotRequest<'_> = serde_json::from_str(&text).expect("the contract's ballot reads");
        assert_eq!(
            (&*read.event, &*read.signer, &*read.signature),
            (&*sent.event, &*sent.signer, &*sent.signature)
        );
        let extra = text.replacen('{', "{\"colour\":1,", 1);
        assert!(serde_json::from_str::<BallotRequest<'_>>(&extra).is_err());
        assert!(serde_json::from_str::<asamblea_api::kiosk::BallotRequest>(&extra).is_err());
        let short = format!(r#"{{"event":"{}","signer":"{}"}}"#, sent.event, sent.signer);
        assert!(serde_json::from_str::<BallotRequest<'_>>(&short).is_err());
        assert!(serde_json::from_str::<asamblea_api::kiosk::BallotRequest>(&short).is_err());
    }
}
