//! Powers of attorney lodged before the meeting, and the desk's one-scan
//! admission (the operator): `POST /api/v1/powers`, `GET /api/v1/powers`,
//! `GET /api/v1/expected?q=`, `POST /api/v1/admissions`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use asamblea_api::desk::QuorumAfter;
use asamblea_api::powers::{
    AdmissionAnswer, AdmissionRequest, ExpectedAnswer, ExpectedPower, ExpectedPrincipal, ExpectedQuery,
    LodgeAnswer, PowerFigures, PowerRequest, PowerVerdict, PowersRequest, ReasonCount, WithdrawalRequest,
};
use asamblea_api::{ByClass, ErrorAnswer, ErrorCode, Recorded, Words};
use asamblea_rules::powers::{PowerRefusal, Tie};
use asamblea_rules::{Channel, SessionState};
use asamblea_venue::powers::{PowerInput, SubstituteInput};
use asamblea_venue::service::{PrincipalStatus, Service};
use asamblea_venue::staff::Role;
use asamblea_wire::{Reception, Revocation, Text};

use crate::access::{bad_query, Body, Staff};
use crate::callers::{Callers, Routes};
use crate::directory::{compact, fold, Directory, IdKeys};
use crate::meeting::{action_error, blocking, unlocked};
use crate::{ApiError, AppState};

/// Powers a request may lodge at once (a file is sent in parts of this
/// size at most; the body's limit comes first).
pub(crate) const MAX_POWERS: usize = 20_000;

/// The operator's routes; the figures also for the secretary and the
/// auditor, who write and check the acta.
pub(crate) fn routes() -> Vec<Routes> {
    vec![
        Routes::api(
            Callers::Staff(&[Role::Operator]),
            OpenApiRouter::new()
                .routes(routes!(lodge))
                .routes(routes!(withdraw))
                .routes(routes!(expected))
                .routes(routes!(admit)),
        ),
        Routes::api(
            Callers::Staff(&[Role::Operator, Role::Secretary, Role::Auditor]),
            OpenApiRouter::new().routes(routes!(powers_figures)),
        ),
    ]
}

fn bad(es: impl Into<String>, en: impl Into<String>) -> ApiError {
    ApiError::bad_request(es.into(), en.into())
}

fn tie(code: Option<&str>, field: &str) -> Result<Tie, ApiError> {
    match code {
        None => Ok(Tie::None),
        Some(code) => Tie::from_code(code).ok_or_else(|| {
            bad(
                format!(
                    "`{field}` debe ser none, administrator, employee o tied-to-administration, no «{code}»"
                ),
                format!(
                    "`{field}` must be none, administrator, employee or tied-to-administration, not `{code}`"
                ),
            )
        }),
    }
}

/// A request's power as the venue takes it, its codes checked.
fn input(request: &PowerRequest) -> Result<PowerInput, ApiError> {
    let received_via = Reception::from_code(&request.received_via).ok_or_else(|| {
        bad(
            format!("`received_via` debe ser mail, email, office u other, no «{}»", request.received_via),
            format!("`received_via` must be mail, email, office or other, not `{}`", request.received_via),
        )
    })?;
    let judgement = match request.judgement.as_deref() {
        None => None,
        Some(code) => Some(PowerRefusal::from_code(code).filter(|r| r.is_judgement()).ok_or_else(|| {
            bad(
                format!("`judgement` debe ser document-rejected o wrong-meeting, no «{code}»: los demás motivos los deciden las reglas"),
                format!("`judgement` must be document-rejected or wrong-meeting, not `{code}`: the other reasons are the rules'"),
            )
        })?),
    };
    Ok(PowerInput {
        reference: request.reference.clone(),
        principals: request.principals.clone(),
        agent: request.agent.clone(),
        agent_name: request.agent_name.clone(),
        agent_tie: tie(request.agent_tie.as_deref(), "agent_tie")?,
        suggested: request.suggested,
        substitutes: request
            .substitutes
            .iter()
            .map(|s| {
                Ok(SubstituteInput {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    tie: tie(s.tie.as_deref(), "substitutes.tie")?,
                })
            })
            .collect::<Result<_, ApiError>>()?,
        meeting_date: request.meeting_date.clone(),
        received_via,
        received_on: request.received_on.clone(),
        document_sha256: request.document_sha256.clone(),
        judgement,
    })
}

fn words((es, en): (&str, &str)) -> Words {
    Words { es: es.to_string(), en: en.to_string() }
}

fn verdict(reference: &str, refusal: Option<PowerRefusal>) -> PowerVerdict {
    PowerVerdict {
        reference: reference.to_string(),
        accepted: refusal.is_none(),
        reason: refusal.map(|r| r.code().to_string()),
        reason_words: refusal.map(|r| words(r.words())),
    }
}

fn by_class(shares: asamblea_rules::ClassShares) -> ByClass {
    ByClass { ordinary: shares.ordinary.get(), preferred: shares.preferred.get() }
}

/// Lodges powers of attorney before the meeting, each with the rules'
/// verdict (or the desk's judgement of its document), all in one
/// transaction. A power already lodged with the same content stands.
#[utoipa::path(post, path = "/api/v1/powers", tag = "desk",
    request_body = PowersRequest,
    responses(
        (status = 201, description = "Lodged, each with its verdict", body = LodgeAnswer),
        (status = 400, description = "`bad-request`: a field's form (named)", body = ErrorAnswer),
        (status = 409, description = "`powers-closed`: the meeting is installed", body = ErrorAnswer),
        (status = 422, description = "`desk-refused`: a reference lodged before with other content", body = ErrorAnswer),
        (status = 503, description = "`ledger-failure`", body = ErrorAnswer),
    ))]
pub(crate) async fn lodge(
    State(state): State<AppState>,
    staff: Staff,
    Body(request): Body<PowersRequest>,
) -> Result<(StatusCode, Json<LodgeAnswer>), ApiError> {
    if request.powers.is_empty() || request.powers.len() > MAX_POWERS {
        return Err(bad(
            format!("`powers`: de 1 a {MAX_POWERS} poderes"),
            format!("`powers`: 1 to {MAX_POWERS} powers"),
        ));
    }
    let mut inputs = Vec::with_capacity(request.powers.len());
    for (i, power) in request.powers.iter().enumerate() {
        let at = format!("powers[{i}] ({})", power.reference.trim());
        let input = input(power)
            .map_err(|e| bad(format!("{at}: {}", e.message_es), format!("{at}: {}", e.message_en)))?;
        input.to_lodged().map_err(|p| {
            let (es, en) = p.words();
            bad(format!("{at}: {es}"), format!("{at}: {en}"))
        })?;
        inputs.push(input);
    }
    let state2 = state.clone();
    let answer = blocking(&state, move |service| {
        if service.state().sessions().state() != SessionState::NotInstalled {
            return Err(ApiError::new(
                ErrorCode::PowersClosed,
                "La reunión ya se instaló: los poderes se radican antes. Ahora el apoderado presenta su poder en la mesa («+ Representado»).",
                "The meeting is installed: powers are lodged before. Now the agent shows their power at the desk.",
            ));
        }
        let report = service.lodge_powers_as(&staff.key, &inputs, |_, _| {}).map_err(|e| action_error(&state2, e))?;
        Ok(LodgeAnswer {
            lodged: report.lodged.iter().map(|(reference, refusal)| verdict(reference, *refusal)).collect(),
            unchanged: report.unchanged,
            figures: power_figures(service),
        })
    })
    .await?;
    state.publish_status();
    Ok((StatusCode::CREATED, Json(answer)))
}

/// A principal withdrew in writing the power lodged for them: it no longer
/// covers them (`power-revoked`, reason `withdrawn`), so another power for
/// their shares may be lodged.
#[utoipa::path(post, path = "/api/v1/powers/withdrawals", tag = "desk",
    request_body = WithdrawalRequest,
    responses(
        (status = 201, description = "Recorded", body = Recorded),
        (status = 400, description = "`bad-request`", body = ErrorAnswer),
        (status = 422, description = "`refused`: the power does not cover that principal", body = ErrorAnswer),
        (status = 503, description = "`ledger-failure`", body = ErrorAnswer),
    ))]
pub(crate) async fn withdraw(
    State(state): State<AppState>,
    staff: Staff,
    Body(request): Body<WithdrawalRequest>,
) -> Result<(StatusCode, Json<Recorded>), ApiError> {
    let state2 = state.clone();
    let seq = blocking(&state, move |service| {
        let appended = service
            .withdraw_power_as(&staff.key, request.power.trim(), request.principal.trim())
            .map_err(|e| action_error(&state2, e))?;
        Ok(appended.seq)
    })
    .await?;
    state.publish_status();
    Ok((StatusCode::CREATED, Json(Recorded { seq })))
}

/// The desk's figures on the powers: lodged, accepted, refused by reason,
/// revoked, and what they cover.
fn power_figures(service: &Service) -> PowerFigures {
    let meeting = service.meeting();
    let powers = service.state().powers();
    let mut figures = PowerFigures {
        open: service.state().sessions().state() == SessionState::NotInstalled,
        ..PowerFigures::default()
    };
    let mut reasons = [0u32; PowerRefusal::ALL.len()];
    let mut shares = asamblea_rules::ClassShares::default();
    for record in powers.all() {
        figures.lodged += 1;
        match record.power.verdict {
            None => figures.accepted += 1,
            Some(reason) => {
                figures.refused += 1;
                if let Some(at) = PowerRefusal::ALL.iter().position(|r| *r == reason) {
                    reasons[at] += 1;
                }
            }
        }
        figures.revoked += record.revoked.len() as u32;
        figures.principals_carried += record.used.len() as u32;
        for principal in &record.power.principals {
            let Some(at) = meeting.register().lookup(principal.as_str()) else { continue };
            if powers.covering(at).is_some_and(|c| c.seq == record.seq) {
                figures.principals_covered += 1;
                let held = meeting.register().holder(at).holdings();
                shares.ordinary += held.ordinary;
                shares.preferred += held.preferred;
            }
        }
    }
    figures.shares_covered = by_class(shares);
    figures.refused_by_reason = PowerRefusal::ALL
        .iter()
        .zip(reasons)
        .filter(|(_, n)| *n > 0)
        .map(|(r, powers)| ReasonCount { reason: r.code().to_string(), words: words(r.words()), powers })
        .collect();
    figures
}

/// The desk's figures on the powers lodged.
#[utoipa::path(get, path = "/api/v1/powers", tag = "desk",
    responses((status = 200, description = "The powers' figures", body = PowerFigures)))]
pub(crate) async fn powers_figures(
    State(state): State<AppState>,
    _staff: Staff,
) -> Result<Json<PowerFigures>, ApiError> {
    blocking(&state, |service| Ok(Json(power_figures(service)))).await
}

/// The person a desk's query names: a holder's or a power's person by id,
/// by the bare number of their identity card, or by the admission code of
/// their letter (scanned or typed).
fn resolve(service: &Service, directory: &Directory, q: &str) -> Option<String> {
    let q = q.trim();
    if let Ok(code) = asamblea_wire::AdmissionCode::parse(q) {
        if let Some(holder) = directory.by_code(&code) {
            return Some(holder.to_string());
        }
        let meeting = service.meeting_id();
        if let Some(carrier) =
            service.state().powers().carriers().find(|c| asamblea_wire::admission_code(&meeting, c) == code)
        {
            return Some(carrier.to_string());
        }
    }
    if service.meeting().register().lookup(q).is_some() {
        return Some(q.to_string());
    }
    let powers = service.state().powers();
    if powers.carried_by(q).next().is_some() {
        return Some(q.to_string());
    }
    let typed = compact(&fold(q));
    if typed.is_empty() {
        return None;
    }
    let mut found: Vec<String> = directory.exact(q).into_iter().map(str::to_string).collect();
    found.extend(powers.carriers().filter(|c| IdKeys::of(c).is(&typed)).map(str::to_string));
    found.sort();
    found.dedup();
    // A number that two people share (a CC and a NIT with the same
    // digits) names neither: the desk types the whole id.
    (found.len() == 1).then(|| found.remove(0))
}

fn status_words(status: &PrincipalStatus) -> (&'static str, (&'static str, &'static str)) {
    match status {
        PrincipalStatus::ToCarry => ("to-carry", ("lo lleva al admitirlo", "carried on admission")),
        PrincipalStatus::Carried => ("carried", ("ya lo lleva", "carried now")),
        PrincipalStatus::CarriedBy(_) => ("carried-by", ("lo lleva otra persona", "carried by someone else")),
        PrincipalStatus::InPerson => ("in-person", ("está presente en persona", "present in person")),
        PrincipalStatus::Revoked(Revocation::PrincipalArrived) => (
            "principal-arrived",
            (
                "ya no lo lleva: el poderdante llegó en persona",
                "no longer carried: the principal came in person",
            ),
        ),
        PrincipalStatus::Revoked(Revocation::Withdrawn) => (
            "withdrawn",
            (
                "ya no lo lleva: el poderdante revocó el poder",
                "no longer carried: the principal withdrew the power",
            ),
        ),
        PrincipalStatus::Unknown => {
            ("not-covered", ("este poder no lo cubre", "this power does not cover them"))
        }
    }
}

/// Everything lodged for the person `q` names, as the desk shows it.
fn expected_answer(service: &Service, directory: &Directory, person: &str) -> ExpectedAnswer {
    let meeting = service.meeting();
    let expected = service.expected(person);
    let shares_of = |at: Option<asamblea_rules::HolderIndex>| {
        at.map_or(ByClass::default(), |at| by_class(meeting.register().holder(at).holdings()))
    };
    let mut to_carry =
        expected.to_carry().iter().filter_map(|p| meeting.register().lookup(p)).collect::<Vec<_>>();
    if let (Some(at), Some(Channel::Absent | Channel::Agent { .. })) = (expected.holder, expected.channel) {
        to_carry.push(at);
    }
    to_carry.sort();
    to_carry.dedup();
    let mut carried_shares = asamblea_rules::ClassShares::default();
    for &at in &to_carry {
        let held = meeting.register().holder(at).holdings();
        carried_shares.ordinary += held.ordinary;
        carried_shares.preferred += held.preferred;
    }
    // A holder by the register's name; anyone else as the desk named them,
    // else as their power names them (as its agent or its substitute).
    let registered = expected.holder.map(|at| directory.name(at));
    let name = crate::directory::person_name(service.state(), registered, person).unwrap_or_default();
    ExpectedAnswer {
        person: person.to_string(),
        name,
        own: expected.holder.map(|at| shares_of(Some(at))),
        present: matches!(expected.channel, Some(Channel::InPerson | Channel::Agent { .. })),
        carried_by: match expected.channel {
            Some(Channel::Agent { agent, .. }) => Some(meeting.presence().agent_id(agent).to_string()),
            _ => None,
        },
        covered_by: expected.covered_by.as_ref().map(|(power, _)| power.clone()),
        covered_by_agent: expected.covered_by.as_ref().and_then(|(_, agent)| agent.clone()),
        badge: service.state().badge_of(person).map(|b| b.0),
        powers: expected
            .powers
            .iter()
            .map(|p| ExpectedPower {
                verdict: verdict(&p.reference, p.verdict),
                as_substitute: p.as_substitute,
                agent: p.agent.clone(),
                agent_name: p.agent_name.clone(),
                principals: p
                    .principals
                    .iter()
                    .map(|q| {
                        let (status, said) = status_words(&q.status);
                        ExpectedPrincipal {
                            id: q.id.clone(),
                            name: q.at.map_or(String::new(), |at| directory.name(at).to_string()),
                            shares: shares_of(q.at),
                            status: status.to_string(),
                            words: words(said),
                            by: match &q.status {
                                PrincipalStatus::CarriedBy(by) => Some(by.clone()),
                                _ => None,
                            },
                        }
                    })
                    .collect(),
            })
            .collect(),
        to_carry: to_carry.len() as u32,
        to_carry_shares: by_class(carried_shares),
    }
}

/// A person and everything lodged for them — their own shares, each power
/// naming them as agent or substitute with its principals and where each
/// stands, any refused power with its reason — found by their id, or by
/// the bare number of their identity card.
#[utoipa::path(get, path = "/api/v1/expected", tag = "desk",
    params(ExpectedQuery),
    responses(
        (status = 200, description = "The person and what is lodged for them", body = ExpectedAnswer),
        (status = 400, description = "`bad-request`", body = ErrorAnswer),
        (status = 404, description = "`not-found`: no holder and no power names them", body = ErrorAnswer),
    ))]
pub(crate) async fn expected(
    State(state): State<AppState>,
    _staff: Staff,
    query: Result<axum::extract::Query<ExpectedQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<ExpectedAnswer>, ApiError> {
    let axum::extract::Query(ExpectedQuery { q }) =
        query.map_err(|_| bad_query("un parámetro, `q`", "one parameter, `q`"))?;
    if q.trim().is_empty() || q.chars().count() > 64 {
        return Err(bad("`q`: de 1 a 64 caracteres", "`q`: 1 to 64 characters"));
    }
    unlocked(&state, move |state| {
        let directory = Directory::of_state(state)?;
        state.with_service(|service| {
            let person = resolve(service, directory, &q).ok_or_else(|| {
                ApiError::new(
                    ErrorCode::NotFound,
                    format!("Nadie con «{q}»: ni en el libro de accionistas ni en un poder radicado. Busque por nombre o escriba el documento completo (CC-…)."),
                    format!("No one with `{q}`: neither in the register nor in a lodged power. Search by name or type the whole document (CC-…)."),
                )
            })?;
            Ok(Json(expected_answer(service, directory, &person)))
        })
    })
    .await
}

/// Admits a person with everything lodged for them, in one action: their
/// own shares (revoking the power that covered them, and taking them
/// from its agent), and every principal their accepted powers still
/// cover; the name recorded with it. The desk then prints the badge.
#[utoipa::path(post, path = "/api/v1/admissions", tag = "desk",
    request_body = AdmissionRequest,
    responses(
        (status = 201, description = "Admitted, with the quorum after it", body = AdmissionAnswer),
        (status = 400, description = "`bad-request`", body = ErrorAnswer),
        (status = 422, description = "`desk-refused`: nobody to admit; or a rules refusal", body = ErrorAnswer),
        (status = 503, description = "`ledger-failure`", body = ErrorAnswer),
    ))]
pub(crate) async fn admit(
    State(state): State<AppState>,
    staff: Staff,
    Body(request): Body<AdmissionRequest>,
) -> Result<(StatusCode, Json<AdmissionAnswer>), ApiError> {
    let name = match request.attendee_name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
        None => None,
        Some(name) => Some(Text::new(name).map_err(|e| {
            bad(format!("`attendee_name` no es un nombre válido ({e})"), format!("`attendee_name`: {e}"))
        })?),
    };
    let document = match request.attendee_document.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        None => None,
        Some(_) if name.is_none() => {
            return Err(bad(
                "`attendee_document` va con `attendee_name`",
                "`attendee_document` goes with `attendee_name`",
            ))
        }
        Some(document) => Some(crate::meeting::id(document, "attendee_document")?),
    };
    let state2 = state.clone();
    let answer = blocking(&state, move |service| {
        let admitted = service
            .admit_as(&staff.key, request.person.trim(), name, document)
            .map_err(|e| action_error(&state2, e))?;
        let meeting = service.meeting();
        let quorum = meeting.quorum();
        Ok(AdmissionAnswer {
            seq: admitted.appended.seq,
            person: request.person.trim().to_string(),
            carried: admitted.carried,
            revoked: admitted.revoked,
            as_substitute: admitted.as_substitute,
            quorum: QuorumAfter {
                present_shares: quorum.present.get(),
                holders: quorum.holders,
                met: quorum.this_call,
            },
        })
    })
    .await?;
    state.publish_status();
    Ok((StatusCode::CREATED, Json(answer)))
}
