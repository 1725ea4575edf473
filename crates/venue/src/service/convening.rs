//! The convening events `init` writes from the meeting file: the agenda
//! of `meeting-convened` and the whole agenda of `agenda-convened`
//! (informative items in their place, each list's candidates).

use asamblea_wire::{AgendaItem, EventBody, Text};

use super::{id, Result};
use crate::error::VenueError;
use crate::meeting_config::MeetingConfig;

/// The agenda of `meeting.toml` as the `meeting-convened` event carries it.
pub(super) fn convened_agenda(config: &MeetingConfig) -> Result<Vec<AgendaItem>> {
    config
        .agenda
        .iter()
        .map(|entry| {
            let (seats, lists) = match entry.spec.options() {
                asamblea_rules::BallotOptions::Decision => (0, Vec::new()),
                asamblea_rules::BallotOptions::Election { seats, lists } => {
                    (*seats, lists.iter().map(|l| id("la lista / list", l)).collect::<Result<Vec<_>>>()?)
                }
            };
            let item = entry.spec.id();
            Ok(AgendaItem {
                item: id("el punto / agenda item", item)?,
                title: Text::new(&entry.title).map_err(VenueError::invalid(format!(
                    "el título del punto / the title of agenda item `{item}`"
                )))?,
                matter: entry.spec.matter(),
                noticed: entry.spec.noticed(),
                seats,
                lists,
            })
        })
        .collect()
}

/// The whole agenda of `config` as `agenda-convened` records it: the voted
/// items in their place among the informative ones, with the candidates.
pub(super) fn whole_agenda(config: &MeetingConfig) -> Result<EventBody> {
    use crate::meeting_config::AgendaPlace;
    let text = |what: String, value: &str| Text::new(value).map_err(VenueError::invalid(what));
    let entries = config
        .order
        .iter()
        .map(|place| match place {
            AgendaPlace::Voted(at) => {
                let entry = &config.agenda[*at];
                let item = entry.spec.id();
                let candidates = entry
                    .candidates
                    .iter()
                    .map(|list| {
                        list.iter()
                            .map(|c| {
                                Ok(asamblea_wire::Candidate {
                                    principal: text(
                                        format!("un candidato de `{item}` / a candidate of `{item}`"),
                                        &c.principal,
                                    )?,
                                    suplente: text(
                                        format!("un suplente de `{item}` / an alternate of `{item}`"),
                                        &c.suplente,
                                    )?,
                                })
                            })
                            .collect::<Result<Vec<_>>>()
                    })
                    .collect::<Result<Vec<_>>>()?;
                Ok(asamblea_wire::AgendaEntry::Voted {
                    item: id("el punto / agenda item", item)?,
                    candidates,
                })
            }
            AgendaPlace::Informative { id: item, title } => Ok(asamblea_wire::AgendaEntry::Informative {
                item: id("el punto / agenda item", item)?,
                title: text(format!("el título del punto / the title of agenda item `{item}`"), title)?,
            }),
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(EventBody::AgendaConvened { entries })
}

/// The modality of `config` as `meeting-modality` records it: for a mixed
/// or non-presential meeting, with its remote channel and the heartbeat
/// and timeout; `None` for a presencial one, whose ledger stays as every
/// ledger written before the kind (its absence means presencial).
pub(super) fn convened_modality(config: &MeetingConfig) -> Result<Option<EventBody>> {
    let Some(remote) = &config.remote else { return Ok(None) };
    let prose = |key: &str, value: &str| {
        asamblea_wire::Prose::new(value).map_err(VenueError::invalid(format!(
            "`remote.{key}` del archivo de la reunión / of the meeting file"
        )))
    };
    Ok(Some(EventBody::MeetingModality(asamblea_wire::ConvenedModality {
        modality: config.modality,
        presence: config.remote_presence,
        remote: Some(asamblea_wire::RemoteConvening {
            medium: prose("medium", &remote.medium)?,
            access: prose("access", &remote.access)?,
            identity_check: prose("identity_check", &remote.identity_check)?,
            floor: prose("floor", &remote.floor)?,
            identity_delegated: remote.identity_delegated,
        }),
    })))
}
