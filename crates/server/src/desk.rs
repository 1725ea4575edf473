//! The registration desk's routes (the operator): arrivals and exits, the
//! register's search, the attendees and the desk's figures. Badges and
//! kiosks, also the desk's, are in `badges`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use asamblea_api::desk::{
    Attendee, Attendees, BadgeCounts, Capacity as ApiCapacity, ChannelFigures, CheckinAnswer, CheckinRequest,
    CheckinVerdict, DeskFigures, HolderQuery, HoldersFound, PersonRequest, QuorumAfter, RefusedPower,
};
use asamblea_api::{ErrorAnswer, ErrorCode, Recorded};
use asamblea_ledger::Rejection;
use asamblea_rules::{Capacity, Channel, Role as HolderRole};
use asamblea_wire::{AgentArrival, EventBody, Id, Text};

use asamblea_venue::staff::Role;

use crate::access::{bad_query, Body, Staff};
use crate::callers::{Callers, Routes};
use crate::directory::{holder, Directory, HOLDERS_FOUND};
use crate::meeting::{action_error, agent_id, blocking, id, unlocked};
use crate::{ApiError, AppState};
use asamblea_venue::service::ActionError;

/// The desk's routes: the operator's; and the desk's figures, which the
/// secretary and the auditor, who write and check the acta, read too.
pub(crate) fn routes() -> Vec<Routes> {
    vec![
        Routes::api(
            Callers::Staff(&[Role::Operator]),
            OpenApiRouter::new()
                .routes(routes!(checkin))
                .routes(routes!(checkin_check))
                .routes(routes!(checkout))
                .routes(routes!(attendees))
                .routes(routes!(holders)),
        ),
        Routes::api(
            Callers::Staff(&[Role::Operator, Role::Secretary, Role::Auditor]),
            OpenApiRouter::new().routes(routes!(figures)),
        ),
    ]
}

/// The arrival a check-in request describes (in person, or an agent with
/// its principals), its fields checked.
fn arrival_body(request: &CheckinRequest) -> Result<EventBody, ApiError> {
    Ok(match (&request.holder, &request.agent) {
        (Some(holder), None) if request.represents.is_empty() => {
            EventBody::CheckedInPerson { holder: id(holder, "holder")? }
        }
        (None, Some(agent)) if !request.represents.is_empty() => {
            let mut principals =
                request.represents.iter().map(|p| id(p, "represents")).collect::<Result<Vec<_>, _>>()?;
            principals.sort();
            if principals.windows(2).any(|w| w[0] == w[1]) {
                return Err(ApiError::bad_request(
                    "`represents` nombra dos veces al mismo accionista",
                    "`represents` names a holder twice",
                ));
            }
            let capacity = match request.capacity.unwrap_or_default() {
                ApiCapacity::Proxy => Capacity::Proxy,
                ApiCapacity::LegalRepresentative => Capacity::LegalRepresentative,
            };
            let declared_role = match request.agent_role.as_deref() {
                None => None,
                Some(code) => Some(HolderRole::from_code(code).ok_or_else(|| {
                    ApiError::bad_request(
                        format!("`agent_role` debe ser administrator o employee, no «{code}»"),
                        format!("`agent_role` must be administrator or employee, not `{code}`"),
                    )
                })?),
            };
            let power_document = Text::new(&request.power_document).map_err(|e| {
                ApiError::bad_request(
                    format!("`power_document` no es un texto válido ({})", e.spanish()),
                    format!("`power_document`: {}", e.english()),
                )
            })?;
            EventBody::CheckedInAgent(AgentArrival {
                agent: agent_id(agent)?,
                principals,
                capacity,
                declared_role,
                power_document,
            })
        }
        _ => {
            return Err(ApiError::bad_request(
                "dé `holder` (en persona) o `agent` con `represents` (un apoderado), no ambos",
                "give `holder` (in person) or `agent` with `represents` (an agent), not both",
            ))
        }
    })
}

/// The name of who attends, as the request gives it (`attendee_name`,
/// and `attendee_document` for whoever attends for a company in person),
/// its fields checked; none when no name is given.
fn attendee(request: &CheckinRequest) -> Result<Option<(Text, Option<Id>)>, ApiError> {
    let name = request.attendee_name.as_deref().map(str::trim).filter(|name| !name.is_empty());
    let Some(name) = name else {
        if request.attendee_document.is_some() {
            return Err(ApiError::bad_request(
                "`attendee_document` va con `attendee_name`",
                "`attendee_document` goes with `attendee_name`",
            ));
        }
        return Ok(None);
    };
    let name = Text::new(name).map_err(|e| {
        ApiError::bad_request(
            format!("`attendee_name` no es un nombre válido ({e})"),
            format!("`attendee_name`: {e}"),
        )
    })?;
    let document = match request.attendee_document.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        None => None,
        Some(_) if request.holder.is_none() => {
            return Err(ApiError::bad_request(
                "`attendee_document` es de quien asiste por un accionista en persona (`holder`); el documento de un apoderado es `agent`",
                "`attendee_document` is for whoever attends for a holder in person (`holder`); an agent's document is `agent`",
            ))
        }
        Some(document) => Some(id(document, "attendee_document")?),
    };
    Ok(Some((name, document)))
}

/// The holders an arrival brings in.
fn arriving(body: &EventBody) -> Vec<&str> {
    match body {
        EventBody::CheckedInPerson { holder } => vec![holder.as_str()],
        EventBody::CheckedInAgent(arrival) => arrival.principals.iter().map(Id::as_str).collect(),
        _ => Vec::new(),
    }
}

/// An arrival the desk refuses before the rules are asked: a register row
/// with no share (R1, R12), named with its name.
fn refuse_without_shares(
    service: &asamblea_venue::service::Service,
    directory: &Directory,
    body: &EventBody,
) -> Result<(), ApiError> {
    let Some(holder) = service.holder_without_shares(&arriving(body)) else { return Ok(()) };
    let named = named(service, directory, holder);
    Err(ApiError::new(
        ErrorCode::NoShares,
        format!(
            "{named} figura en el libro de accionistas con 0 acciones: no vota ni cuenta para el quórum ni \
             para el número plural de accionistas (reglas R1 y R12), así que no se registra su llegada. Si el \
             libro está desactualizado, la sociedad debe corregirlo."
        ),
        format!(
            "{named} holds 0 shares in the register: no vote, not counted for the quorum or the plural \
             number of holders (rules R1, R12), so the arrival is not recorded."
        ),
    ))
}

/// A holder by name and id, as a message names them: «Ana Díaz
/// (CC-52000111)», or the id alone when the register gives no name.
fn named(service: &asamblea_venue::service::Service, directory: &Directory, holder: &str) -> String {
    match service.meeting().register().lookup(holder).map(|at| directory.name(at)) {
        Some(name) if !name.is_empty() => format!("{name} ({holder})"),
        _ => holder.to_string(),
    }
}

/// The rules' `already-present` refusal, saying which holder and how they
/// are present (in person, or through which agent), so the desk knows
/// whom to look for; any other refusal as the rules word it.
fn refusal_of(
    service: &asamblea_venue::service::Service,
    directory: &Directory,
    body: &EventBody,
    rejection: &Rejection,
) -> ApiError {
    let Rejection::Rules(asamblea_rules::Refusal::AlreadyPresent) = rejection else {
        return ApiError::rejected(rejection);
    };
    let meeting = service.meeting();
    let holders = arriving(body);
    let mut seen: Vec<&str> = Vec::new();
    let present = holders.iter().copied().find(|&holder| {
        let twice = seen.contains(&holder);
        seen.push(holder);
        twice || meeting.register().lookup(holder).is_some_and(|at| meeting.presence().is_present(at))
    });
    let Some(holder) = present else { return ApiError::rejected(rejection) };
    let who = named(service, directory, holder);
    let (es, en) = match meeting.register().lookup(holder).map(|at| meeting.presence().channel(at)) {
        Some(Channel::Agent { agent, .. }) => {
            let agent = meeting.presence().agent_id(agent);
            let by = match service.state().attendee_name(agent) {
                Some(named) => format!("{} ({agent})", named.name),
                None => agent.to_string(),
            };
            (
                format!("{who} ya está representado por {by}: no se registra otra vez. Para cambiar de representante, registre primero la salida de {by}."),
                format!("{who} is already represented by {by}: not checked in again. To change the representative, check {by} out first."),
            )
        }
        Some(Channel::InPerson) => (
            format!("{who} ya está presente en persona: no se registra otra vez."),
            format!("{who} is already present in person: not checked in again."),
        ),
        _ => (
            format!("{who} figura dos veces en esta llegada."),
            format!("{who} is named twice in this arrival."),
        ),
    };
    ApiError::new(ErrorCode::Refused(asamblea_rules::Refusal::AlreadyPresent), es, en)
}

/// What the rules say of an arrival (R2: who may carry whose shares),
/// before the desk confirms it. Records nothing: the real check-in records
/// a refused proxy as `proxy-refused`.
#[utoipa::path(post, path = "/api/v1/checkins/check", tag = "desk",
    request_body = CheckinRequest,
    responses(
        (status = 200, description = "The rules admit it", body = CheckinVerdict),
        (status = 400, description = "`bad-request`", body = ErrorAnswer),
        (status = 422, description = "A rules refusal: `unknown-holder`, `already-present`, `proxy-agent-barred`, …", body = ErrorAnswer),
    ))]
pub(crate) async fn checkin_check(
    State(state): State<AppState>,
    _staff: Staff,
    Body(request): Body<CheckinRequest>,
) -> Result<Json<CheckinVerdict>, ApiError> {
    let body = arrival_body(&request)?;
    attendee(&request)?;
    unlocked(&state, move |state| {
        let directory = Directory::of_state(state)?;
        state.with_service(|service| check_arrival(service, directory, &body))
    })
    .await
}

/// [`checkin_check`] on the meeting.
fn check_arrival(
    service: &asamblea_venue::service::Service,
    directory: &Directory,
    body: &EventBody,
) -> Result<Json<CheckinVerdict>, ApiError> {
    refuse_without_shares(service, directory, body)?;
    {
        let meeting = service.meeting();
        let verdict = match body {
            EventBody::CheckedInPerson { holder } => meeting.check_arrival_in_person(holder.as_str()),
            EventBody::CheckedInAgent(arrival) => {
                let principals: Vec<&str> = arrival.principals.iter().map(Id::as_str).collect();
                meeting.check_arrival(
                    arrival.agent.as_str(),
                    &principals,
                    arrival.capacity,
                    arrival.declared_role,
                )
            }
            _ => unreachable!("arrival_body builds arrivals only"),
        };
        verdict.map_err(|refusal| refusal_of(service, directory, body, &Rejection::Rules(refusal)))?;
        Ok(Json(CheckinVerdict {
            admissible: true,
            message: "Las reglas admiten esta llegada: puede confirmarla.".to_string(),
            message_en: "The rules admit this arrival: you may confirm it.".to_string(),
        }))
    }
}

/// An arrival, in person or by an agent; or, with `power_rejected`, an
/// agent's power refused at the desk (recorded, nobody admitted).
#[utoipa::path(post, path = "/api/v1/checkins", tag = "desk",
    request_body = CheckinRequest,
    responses(
        (status = 201, description = "Recorded, with the quorum after it", body = CheckinAnswer),
        (status = 400, description = "`bad-request`", body = ErrorAnswer),
        (status = 422, description = "A rules refusal (`already-present`, `proxy-agent-barred`, …), recorded as a refused proxy where R2 says so", body = ErrorAnswer),
        (status = 503, description = "`ledger-failure`", body = ErrorAnswer),
    ))]
pub(crate) async fn checkin(
    State(state): State<AppState>,
    staff: Staff,
    Body(request): Body<CheckinRequest>,
) -> Result<(StatusCode, Json<CheckinAnswer>), ApiError> {
    let body = arrival_body(&request)?;
    let power_rejected = request.power_rejected;
    if power_rejected && !matches!(body, EventBody::CheckedInAgent(_)) {
        return Err(ApiError::bad_request(
            "`power_rejected` es para la llegada de un apoderado (`agent`, `represents`)",
            "`power_rejected` is for an agent's arrival (`agent`, `represents`)",
        ));
    }
    let named = attendee(&request)?;
    let answer = unlocked(&state, move |state| {
        let directory = Directory::of_state(state)?;
        state.with_service(|service| {
            record_arrival(service, directory, state, &staff, body, named, power_rejected)
        })
    })
    .await?;
    state.publish_status();
    Ok((StatusCode::CREATED, Json(answer)))
}

/// [`checkin`] on the meeting: the refusal of a power, or the arrival with
/// the name of who attends.
fn record_arrival(
    service: &mut asamblea_venue::service::Service,
    directory: &Directory,
    state: &AppState,
    staff: &Staff,
    body: EventBody,
    named: Option<(Text, Option<Id>)>,
    power_rejected: bool,
) -> Result<CheckinAnswer, ApiError> {
    let (person, carried) = match &body {
        EventBody::CheckedInPerson { holder } => (holder.to_string(), 1),
        EventBody::CheckedInAgent(arrival) => (arrival.agent.to_string(), arrival.principals.len()),
        _ => unreachable!("arrival_body builds arrivals only"),
    };
    {
        if let (true, EventBody::CheckedInAgent(arrival)) = (power_rejected, &body) {
            let appended =
                service.refuse_power_as(&staff.key, arrival.clone()).map_err(|e| action_error(state, e))?;
            tracing::info!(event.seq = appended.seq, person.id = %person, staff.name = %staff.name, "poder rechazado / power refused");
            return Ok(CheckinAnswer {
                seq: appended.seq,
                quorum: None,
                refused: Some("power-document-rejected".to_string()),
            });
        }
        refuse_without_shares(service, directory, &body)?;
        let appended = match service.arrive_named_as(&staff.key, body.clone(), named) {
            Ok(appended) => appended,
            Err(ActionError::Rejected(rejection)) => {
                return Err(refusal_of(service, directory, &body, &rejection))
            }
            Err(e) => return Err(action_error(state, e)),
        };
        let quorum = service.meeting().quorum();
        tracing::info!(
            event.seq = appended.seq,
            person.id = %person,
            person.carries = carried,
            quorum.present_shares = quorum.present.get(),
            quorum.holders = quorum.holders,
            quorum.met = quorum.this_call,
            staff.name = %staff.name,
            "llegada registrada / checked in"
        );
        Ok(CheckinAnswer {
            seq: appended.seq,
            quorum: Some(QuorumAfter {
                present_shares: quorum.present.get(),
                holders: quorum.holders,
                met: quorum.this_call,
            }),
            refused: None,
        })
    }
}

/// A person leaves: the holder in person, or an agent with all it carries.
#[utoipa::path(post, path = "/api/v1/checkouts", tag = "desk",
    request_body = PersonRequest,
    responses(
        (status = 200, description = "Recorded", body = Recorded),
        (status = 400, description = "`bad-request`", body = ErrorAnswer),
        (status = 422, description = "`not-present`", body = ErrorAnswer),
    ))]
pub(crate) async fn checkout(
    State(state): State<AppState>,
    staff: Staff,
    Body(request): Body<PersonRequest>,
) -> Result<Json<Recorded>, ApiError> {
    let person = id(&request.person, "person")?;
    let state2 = state.clone();
    let seq = blocking(&state, move |service| {
        let seq = service
            .staff_event_as(&staff.key, EventBody::CheckedOut { person: person.clone() })
            .map(|a| a.seq)
            .map_err(|e| action_error(&state2, e))?;
        let quorum = service.meeting().quorum();
        tracing::info!(
            event.seq = seq,
            person.id = %person,
            quorum.present_shares = quorum.present.get(),
            quorum.met = quorum.this_call,
            staff.name = %staff.name,
            "salida registrada / checked out"
        );
        Ok(seq)
    })
    .await?;
    state.publish_status();
    Ok(Json(Recorded { seq }))
}

/// Everyone present, with whom they carry and their badge.
#[utoipa::path(get, path = "/api/v1/attendees", tag = "desk",
    responses((status = 200, description = "The attendees", body = Attendees)))]
pub(crate) async fn attendees(
    State(state): State<AppState>,
    _staff: Staff,
) -> Result<Json<Attendees>, ApiError> {
    let attendees = blocking(&state, |service| {
        Ok(service
            .attendees()
            .into_iter()
            .map(|a| Attendee {
                name: service.state().attendee_name(&a.person).map(|named| named.name.as_str().to_string()),
                person: a.person,
                carries: a.carries,
                badge: a.badge.map(|b| b.0),
            })
            .collect())
    })
    .await?;
    Ok(Json(Attendees { attendees }))
}

/// The registration desk's figures — who is present in person, by proxy
/// and by legal representative (holders, agents, shares), every proxy
/// refused with its reason (Art. 185), and badges issued and revoked.
/// Everything is read from the ledger's state, so the figures are those
/// `verify` re-derives.
#[utoipa::path(get, path = "/api/v1/desk", tag = "desk",
    responses((status = 200, description = "The desk's figures", body = DeskFigures)))]
pub(crate) async fn figures(
    State(state): State<AppState>,
    _staff: Staff,
) -> Result<Json<DeskFigures>, ApiError> {
    blocking(&state, |service| {
        let meeting = service.meeting();
        #[derive(Default)]
        struct Tally {
            holders: u32,
            shares: u64,
            agents: std::collections::HashSet<asamblea_rules::AgentIndex>,
        }
        let (mut in_person, mut proxy, mut legal) = (Tally::default(), Tally::default(), Tally::default());
        for (at, holder) in meeting.register().iter() {
            let shares = holder.holdings().total().get();
            let tally = match meeting.presence().channel(at) {
                Channel::Absent => continue,
                Channel::InPerson => &mut in_person,
                Channel::Agent { agent, capacity, .. } => {
                    let tally = if capacity == Capacity::Proxy { &mut proxy } else { &mut legal };
                    tally.agents.insert(agent);
                    tally
                }
            };
            tally.holders += 1;
            tally.shares += shares;
        }
        let figures =
            |t: &Tally| ChannelFigures { holders: t.holders, shares: t.shares, agents: t.agents.len() };
        let refused = service
            .state()
            .refused_proxies()
            .iter()
            .map(|(arrival, reason)| {
                let (es, en) = match reason.rules_refusal() {
                    Some(refusal) => (refusal.spanish(), refusal.english()),
                    None => (
                        "El personal encontró el poder deficiente (art. 184 C.Co.).",
                        "The staff found the power of attorney wanting.",
                    ),
                };
                RefusedPower {
                    agent: arrival.agent.as_str().to_string(),
                    principals: arrival.principals.iter().map(|p| p.as_str().to_string()).collect(),
                    capacity: match arrival.capacity {
                        Capacity::Proxy => ApiCapacity::Proxy,
                        Capacity::LegalRepresentative => ApiCapacity::LegalRepresentative,
                    },
                    power_document: arrival.power_document.as_str().to_string(),
                    reason: reason.code().to_string(),
                    reason_es: es.to_string(),
                    reason_en: en.to_string(),
                }
            })
            .collect();
        let issued = service.state().badges_issued();
        let revoked = service.state().badges_revoked();
        Ok(Json(DeskFigures {
            in_person: figures(&in_person),
            proxy: figures(&proxy),
            legal_representative: figures(&legal),
            refused,
            badges: BadgeCounts { issued, revoked, live: issued - revoked },
        }))
    })
    .await
}

/// The register searched by id (its start, or the bare number of an ID
/// card), name (any part of it), case and accents aside, or the admission
/// code of a holder's letter (scanned or typed): up to 20 holders, in register order, each with its
/// shares, role, whether it is present and the live badge of whoever votes
/// its shares, and how many matched in all. The scan needs no lock; only
/// the few found are looked up in the meeting (`asamblea bench-scale`
/// times it at 131.000 holders).
#[utoipa::path(get, path = "/api/v1/holders", tag = "desk",
    params(HolderQuery),
    responses(
        (status = 200, description = "The holders found", body = HoldersFound),
        (status = 400, description = "`bad-request`: another parameter, or `q` over 64 characters", body = ErrorAnswer),
    ))]
pub(crate) async fn holders(
    State(state): State<AppState>,
    _staff: Staff,
    query: Result<axum::extract::Query<HolderQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<HoldersFound>, ApiError> {
    let axum::extract::Query(HolderQuery { q }) =
        query.map_err(|_| bad_query("un parámetro, `q`", "one parameter, `q`"))?;
    let wanted = holder_search(&q)?;
    let found = unlocked(&state, move |state| {
        let directory = Directory::of_state(state)?;
        let found = directory.find(&wanted);
        let matched = found.iter().filter(|&&hit| hit).count();
        let hits: Vec<&str> = directory
            .holders
            .iter()
            .zip(&found)
            .filter(|(_, &hit)| hit)
            .take(HOLDERS_FOUND)
            .map(|((id, _), _)| id.as_str())
            .collect();
        let holders = state.with_service(|service| {
            let meeting = service.meeting();
            hits.iter()
                .filter_map(|id| meeting.register().lookup(id))
                .map(|at| {
                    let mut found = holder(service.state(), meeting, at, directory);
                    // The live badge of whoever votes these shares: the
                    // holder in person, or the agent who carries them.
                    found.badge =
                        meeting.voter_of(at).and_then(|person| service.state().badge_of(person)).map(|b| b.0);
                    found
                })
                .collect()
        });
        Ok(HoldersFound { holders, matched })
    })
    .await?;
    Ok(Json(found))
}

/// A search of the register as the desk types it: trimmed and folded (case
/// and accents aside), at most 64 characters (`asamblea_api::formats`'
/// `HolderSearch`).
pub(crate) fn holder_search(q: &str) -> Result<String, ApiError> {
    let wanted = crate::directory::fold(q.trim());
    if wanted.chars().count() > 64 {
        return Err(ApiError::bad_request("`q`: a lo sumo 64 caracteres", "`q`: at most 64 characters"));
    }
    Ok(wanted)
}
