//! The register as the desk searches it: each holder's id and name, built
//! once from `register.csv` on the first search (a restart stays quick),
//! then searched with one scan over all the names.

use crate::{ApiError, AppState};

/// Holders a search answers with, at most.
pub(crate) const HOLDERS_FOUND: usize = 20;

/// The register as the desk searches it: each holder's id and name, the
/// ids folded ([`fold`]), and every folded name in one text (one search
/// over it finds every name that holds the query: one scan, not one a
/// holder). Built on the first search (the names are read from
/// `register.csv`), then kept.
pub(crate) struct Directory {
    /// Each holder's id, name and folded id, in register order.
    pub(crate) holders: Vec<(String, String, Box<str>)>,
    names: String,
    /// Where each holder's folded name starts in `names`.
    starts: Vec<usize>,
}

impl Directory {
    /// The daemon's directory, built on first use (call it off the async
    /// threads: it reads `register.csv` the first time).
    pub(crate) fn of_state(state: &AppState) -> Result<&Directory, ApiError> {
        if let Some(directory) = state.0.directory.get() {
            return Ok(directory);
        }
        let built = state.with_service(|service| Directory::of(service)).map_err(|e| {
            ApiError::internal("no se pudo leer register.csv para los nombres / register.csv could not be read for the names", &format!("{e:#}"))
        })?;
        Ok(state.0.directory.get_or_init(|| built))
    }

    fn of(service: &asamblea_venue::service::Service) -> anyhow::Result<Directory> {
        let mut by_id = service.holder_names()?;
        let mut directory = Directory { holders: Vec::new(), names: String::new(), starts: Vec::new() };
        for (_, holder) in service.meeting().register().iter() {
            let name = by_id.remove(holder.id()).unwrap_or_default();
            directory.starts.push(directory.names.len());
            // A name holds no line break (the register refuses control
            // characters): it separates one name from the next.
            directory.names.push_str(&fold(&name));
            directory.names.push('\n');
            directory.holders.push((holder.id().to_string(), name, fold(holder.id()).into_boxed_str()));
        }
        Ok(directory)
    }

    /// The name of the holder at `at` (the directory lists the register
    /// in its order).
    pub(crate) fn name(&self, at: asamblea_rules::HolderIndex) -> &str {
        self.holders.get(at.get()).map_or("", |(_, name, _)| name.as_str())
    }

    /// Which holders `wanted` (folded) finds: by the start of the id, or
    /// anywhere in the name.
    pub(crate) fn find(&self, wanted: &str) -> Vec<bool> {
        let mut hit: Vec<bool> = self.holders.iter().map(|(_, _, id)| id.starts_with(wanted)).collect();
        if !wanted.contains('\n') {
            for (offset, _) in self.names.match_indices(wanted) {
                let at = self.starts.partition_point(|&start| start <= offset) - 1;
                hit[at] = true;
            }
        }
        hit
    }
}

/// Lower case, without the accents of Spanish names: "Peña" finds "pena".
pub(crate) fn fold(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'ä' | 'â' => 'a',
            'é' | 'è' | 'ë' | 'ê' => 'e',
            'í' | 'ì' | 'ï' | 'î' => 'i',
            'ó' | 'ò' | 'ö' | 'ô' => 'o',
            'ú' | 'ù' | 'ü' | 'û' => 'u',
            'ñ' => 'n',
            other => other,
        })
        .collect()
}

/// A holder as the consoles list one: id, name, shares by class, role,
/// whether present, and the agent who carries them (`via`), if any.
pub(crate) fn holder(
    meeting: &asamblea_rules::Meeting,
    at: asamblea_rules::HolderIndex,
    directory: &Directory,
) -> asamblea_api::desk::Holder {
    let holder = meeting.register().holder(at);
    let shares = holder.holdings();
    let via = match meeting.presence().channel(at) {
        asamblea_rules::Channel::Agent { agent, .. } => Some(meeting.presence().agent_id(agent).to_string()),
        _ => None,
    };
    asamblea_api::desk::Holder {
        id: holder.id().to_string(),
        name: directory.name(at).to_string(),
        shares: asamblea_api::ByClass { ordinary: shares.ordinary.get(), preferred: shares.preferred.get() },
        role: holder.role().map(|r| r.code().to_string()),
        present: meeting.presence().is_present(at),
        via,
        badge: None,
    }
}
