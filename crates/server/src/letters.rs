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

use asamblea_api::desk::LettersQuery;
use asamblea_api::ErrorAnswer;
use asamblea_documents::letters::{LetterMeeting, LetterPerson};
use asamblea_venue::service::Service;
use asamblea_venue::staff::Role;
use asamblea_wire::admission_code;

use crate::access::{bad_query, Staff};
use crate::callers::{Callers, Routes};
use crate::meeting::{id, unlocked};
use crate::{ApiError, AppState};

/// The letters' route: the desk's (the operator prints and sends them).
pub(crate) fn routes() -> Vec<Routes> {
    vec![Routes::api(Callers::Staff(&[Role::Operator]), OpenApiRouter::new().routes(routes!(letters_pdf)))]
}

/// Everyone a letter is for, in the register's order: each holder, with
/// their own shares.
pub fn people(service: &Service) -> anyhow::Result<Vec<LetterPerson>> {
    let mut names = service.holder_names()?;
    let meeting_id = service.meeting_id();
    let people = service
        .meeting()
        .register()
        .iter()
        .map(|(_, holder)| LetterPerson {
            id: holder.id().to_string(),
            name: names.remove(holder.id()).unwrap_or_default(),
            code: admission_code(&meeting_id, holder.id()).to_string(),
            own: Some(holder.holdings()),
            powers: Vec::new(),
        })
        .collect();
    // TODO(powers): the agent of each accepted power (from the ledger
    // state's lodged powers) gets a letter too: a holder who is also an
    // agent has the power added to their own letter; any other agent is
    // a person of their own (`own: None`, code of the agent's id), with
    // each power's principals (id, name, shares) and never any voting
    // instruction.
    Ok(people)
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
    /// The register's names could not be read, or the PDF not written.
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
    pub fn of(service: &Service, person: Option<&str>) -> Result<LettersSource, LettersError> {
        let mut people = people(service).map_err(LettersError::Failed)?;
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

    /// How many letters.
    pub fn len(&self) -> usize {
        self.people.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.people.is_empty()
    }
}

/// The admission letters as one PDF on Carta, each from a new page: every
/// holder's (and, with the lodged powers, every agent's), or only
/// `person`'s. The PDF is laid out off the meeting's lock.
#[utoipa::path(get, path = "/api/v1/letters.pdf", tag = "desk",
    params(LettersQuery),
    responses(
        (status = 200, description = "The letters as one PDF", content_type = "application/pdf", body = Vec<u8>),
        (status = 400, description = "`bad-request`: another parameter, or `person` is not an id", body = ErrorAnswer),
        (status = 404, description = "`not-found`: no letter is for that person", body = ErrorAnswer),
    ))]
pub(crate) async fn letters_pdf(
    State(state): State<AppState>,
    _staff: Staff,
    query: Result<axum::extract::Query<LettersQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let axum::extract::Query(LettersQuery { person }) =
        query.map_err(|_| bad_query("un parámetro, `person`", "one parameter, `person`"))?;
    let person = person.map(|p| id(p.trim(), "person")).transpose()?;
    let made = unlocked(&state, move |state| {
        let failed = |e: &dyn std::fmt::Display| {
            ApiError::internal("las cartas de admisión / the admission letters", e)
        };
        let source =
            state.with_service(|service| LettersSource::of(service, person.as_ref().map(|p| p.as_str())));
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
        source.pdf().map_err(|e| failed(&e))
    })
    .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (header::CONTENT_DISPOSITION, "attachment; filename=\"cartas-de-admision.pdf\"".to_string()),
        ],
        made,
    )
        .into_response())
}
