//! Admission letters (cartas de admisión) from the meeting: who gets one
//! ([`people`]), the notice data every letter repeats ([`meeting`]), the
//! PDF of all or of one ([`pdf`], shared with `asamblea cartas`), and the
//! desk's download, `GET /api/v1/letters.pdf`.
//!
//! A letter carries the person's admission code
//! (`asamblea_wire::admission_code`): not a secret and not a credential,
//! only what the desk scans to bring the person up before checking their
//! identity document (`docs/threat-model.md`, admission letters).

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use asamblea_api::desk::{LettersQuery, LETTERS_PER_DOWNLOAD};
use asamblea_api::ErrorAnswer;
use asamblea_documents::letters::{LetterMeeting, LetterPerson, LetterPower};
use asamblea_venue::service::Service;
use asamblea_venue::staff::Role;
use asamblea_wire::admission_code;

use crate::access::{bad_query, Staff};
use crate::callers::{Callers, Routes};
use crate::directory::Directory;
use crate::meeting::{id, unlocked};
use crate::{ApiError, AppState};

/// The letters' route: the desk's (the operator prints and sends them).
pub(crate) fn routes() -> Vec<Routes> {
    vec![Routes::api(Callers::Staff(&[Role::Operator]), OpenApiRouter::new().routes(routes!(letters_pdf)))]
}

/// Everyone a letter is for: each holder in the register's order, with
/// their own shares (and the accepted powers they carry, if they are an
/// agent too); then each agent of an accepted power who is not a holder,
/// in the order their first power was lodged.
/// `name_of` gives a holder's name by id (the daemon's directory, or the
/// register file read once by the command line): the meeting's lock is
/// never held while `register.csv` is read.
pub fn people(service: &Service, name_of: &dyn Fn(&str) -> String) -> Vec<LetterPerson> {
    let meeting_id = service.meeting_id();
    let mut people: Vec<LetterPerson> = service
        .meeting()
        .register()
        .iter()
        .map(|(_, holder)| LetterPerson {
            id: holder.id().to_string(),
            name: name_of(holder.id()),
            code: admission_code(&meeting_id, holder.id()).to_string(),
            own: Some(holder.holdings()),
            powers: Vec::new(),
        })
        .collect();
    // The agent of each accepted power gets a letter too: a holder who is
    // also an agent has the power on their own letter; anyone else is a
    // person of their own, named as the power names them. Only the
    // principals the power still covers, and never a voting instruction.
    let meeting = service.meeting();
    let mut agents: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for record in service.state().powers().all().iter().filter(|r| r.accepted()) {
        let Some(agent) = record.power.agent.as_ref().map(|a| a.as_str().to_string()) else { continue };
        let principals: Vec<(String, String, asamblea_rules::ClassShares)> = record
            .power
            .principals
            .iter()
            .filter(|p| record.revoked_for(p.as_str()).is_none())
            .filter_map(|p| {
                let at = meeting.register().lookup(p.as_str())?;
                let name = name_of(p.as_str());
                Some((p.as_str().to_string(), name, meeting.register().holder(at).holdings()))
            })
            .collect();
        if principals.is_empty() {
            continue;
        }
        let power = LetterPower { power: record.power.power.as_str().to_string(), principals };
        let at = match meeting.register().lookup(&agent) {
            Some(holder) => holder.get(),
            None => *agents.entry(agent.clone()).or_insert_with(|| {
                people.push(LetterPerson {
                    id: agent.clone(),
                    name: record.power.agent_name.as_str().to_string(),
                    code: admission_code(&meeting_id, &agent).to_string(),
                    own: None,
                    powers: Vec::new(),
                });
                people.len() - 1
            }),
        };
        people[at].powers.push(power);
    }
    people
}

/// The meeting's notice data, as every letter repeats it: the meeting
/// file's, and the whole agenda as the ledger convened it.
pub fn meeting(service: &Service) -> LetterMeeting {
    let config = service.config();
    let state = service.state();
    let whole = crate::public::whole_agenda(state);
    let agenda = if whole.is_empty() {
        state.agenda().iter().map(|item| item.title.as_str().to_string()).collect()
    } else {
        whole.into_iter().map(|place| place.title).collect()
    };
    LetterMeeting {
        company: config.company.clone(),
        nit: config.nit.clone(),
        kind: config.kind,
        call: config.call,
        date: config.date.clone(),
        time: config.time.clone(),
        place: config.place.clone(),
        convened_by: config.convened_by.clone(),
        convened_on: config.convened_on.clone(),
        agenda,
        classes: asamblea_documents::attendance::classes(service.meeting()),
    }
}

/// Why letters were not made.
#[derive(Debug, thiserror::Error)]
pub enum LettersError {
    /// No letter is for that person.
    #[error("no hay carta de admisión para «{0}» / there is no admission letter for `{0}`")]
    NoSuchPerson(String),
    /// No letter starts at that position.
    #[error("no hay cartas desde la posición {from}: hay {total} / there are no letters from position {from}: there are {total}")]
    NoneFrom {
        /// The position asked for.
        from: usize,
        /// How many letters there are.
        total: usize,
    },
    /// The PDF could not be written.
    #[error("{0:#}")]
    Failed(anyhow::Error),
}

/// What [`pdf`] lays out: the notice data and the people, taken from the
/// meeting at once (under the daemon's lock), laid out after.
pub struct LettersSource {
    meeting: LetterMeeting,
    people: Vec<LetterPerson>,
}

impl LettersSource {
    /// Everyone's letters, or only `person`'s.
    pub fn of(
        service: &Service,
        name_of: &dyn Fn(&str) -> String,
        person: Option<&str>,
    ) -> Result<LettersSource, LettersError> {
        let mut people = people(service, name_of);
        if let Some(person) = person {
            people.retain(|p| p.id == person);
            if people.is_empty() {
                return Err(LettersError::NoSuchPerson(person.to_string()));
            }
        }
        Ok(LettersSource { meeting: meeting(service), people })
    }

    /// The letters as one PDF (Carta, each letter from a new page).
    pub fn pdf(&self) -> Result<Vec<u8>, LettersError> {
        asamblea_documents::pdf::letters(&self.meeting, &self.people)
            .map_err(|e| LettersError::Failed(e.into()))
    }

    /// Only the letters from position `from` (from 0), `count` at most;
    /// how many there were in all.
    pub fn window(&mut self, from: usize, count: usize) -> Result<usize, LettersError> {
        let total = self.people.len();
        if from >= total {
            return Err(LettersError::NoneFrom { from, total });
        }
        self.people.truncate(from.saturating_add(count));
        self.people.drain(..from);
        Ok(total)
    }

    /// How many letters.
    pub fn len(&self) -> usize {
        self.people.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.people.is_empty()
    }
}

/// The admission letters as one PDF on Carta, each from a new page:
/// everyone's (every holder's and, with the lodged powers, every agent's),
/// a hundred from position `from` (saved as
/// `cartas-de-admision-1-100-de-335.pdf`, which says where the next
/// download starts), or only `person`'s. The PDF is laid out off the
/// meeting's lock.
#[utoipa::path(get, path = "/api/v1/letters.pdf", tag = "desk",
    params(LettersQuery),
    responses(
        (status = 200, description = "The letters as one PDF", content_type = "application/pdf", body = Vec<u8>),
        (status = 400, description = "`bad-request`: another parameter, `person` is not an id, or both `person` and `from`", body = ErrorAnswer),
        (status = 404, description = "`not-found`: no letter is for that person, or none starts at `from`", body = ErrorAnswer),
    ))]
pub(crate) async fn letters_pdf(
    State(state): State<AppState>,
    _staff: Staff,
    query: Result<axum::extract::Query<LettersQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let axum::extract::Query(LettersQuery { person, from }) =
        query.map_err(|_| bad_query("`person` o `from` (un número)", "`person` or `from` (a number)"))?;
    if person.is_some() && from.is_some() {
        return Err(ApiError::bad_request(
            "dé `person` (la carta de una persona) o `from` (cien desde esa posición), no ambos",
            "give `person` (one person's letter) or `from` (a hundred from there), not both",
        ));
    }
    let person = person.map(|p| id(p.trim(), "person")).transpose()?;
    let one = person.is_some();
    let (made, saved_as) = unlocked(&state, move |state| {
        let failed = |e: &dyn std::fmt::Display| {
            ApiError::internal("las cartas de admisión / the admission letters", e)
        };
        // The names from the desk's directory, built outside the lock.
        let directory = Directory::of_state(state)?;
        let source = state.with_service(|service| {
            let register = service.meeting().register();
            let name_of =
                |id: &str| register.lookup(id).map_or(String::new(), |at| directory.name(at).to_string());
            LettersSource::of(service, &name_of, person.as_ref().map(|p| p.as_str()))
        });
        let source = match source {
            Ok(source) => source,
            Err(LettersError::NoSuchPerson(who)) => {
                return Err(ApiError::not_found(
                    format!("una carta de admisión para «{who}»"),
                    format!("an admission letter for `{who}`"),
                ))
            }
            Err(e) => return Err(failed(&e)),
        };
        let mut source = source;
        let saved_as = if one {
            "carta-de-admision.pdf".to_string()
        } else {
            let from = from.unwrap_or(0) as usize;
            let total = source.window(from, LETTERS_PER_DOWNLOAD as usize).map_err(|e| match e {
                LettersError::NoneFrom { from, total } => ApiError::not_found(
                    format!("cartas desde la posición {from} (hay {total})"),
                    format!("letters from position {from} (there are {total})"),
                ),
                e => failed(&e),
            })?;
            format!("cartas-de-admision-{}-{}-de-{total}.pdf", from + 1, from + source.len())
        };
        Ok((source.pdf().map_err(|e| failed(&e))?, saved_as))
    })
    .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{saved_as}\"")),
        ],
        made,
    )
        .into_response())
}
