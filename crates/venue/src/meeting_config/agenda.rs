//! The `[[agenda]]` tables of `meeting.toml`: items put to the vote (with
//! their lists and each list's candidates) and informative items, in the
//! order convened, every id and name in one form and checked against the
//! ledger's limits.

use asamblea_rules::ItemSpec;

use crate::fields::{FieldError, Fields};

/// One agenda item put to the vote, as noticed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgendaItem {
    /// What the rules need to open it.
    pub spec: ItemSpec,
    /// The title read out and printed in the acta.
    pub title: String,
    /// An election's candidates: none given, or per list in ballot order
    /// the list's candidates in its order (`[[agenda.lists]]`).
    pub candidates: Vec<Vec<CandidateNames>>,
}

/// A candidate on a list: the principal and the alternate (suplente),
/// elected with the principal; empty when the seat has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CandidateNames {
    /// The principal.
    pub principal: String,
    /// The alternate, or empty.
    pub suplente: String,
}

/// A place on the whole agenda, in order: an item put to the vote, or
/// one read, reported or discussed without a vote (`informative = true`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgendaPlace {
    /// The item at this index of [`MeetingConfig::agenda`].
    Voted(usize),
    /// An informative item.
    Informative {
        /// Its id.
        id: String,
        /// Its title.
        title: String,
    },
}

/// The whole `[[agenda]]` array: the items put to the vote, and the whole
/// agenda's order with the informative items in their place.
pub(super) fn read_agenda(f: &mut Fields) -> Result<(Vec<AgendaItem>, Vec<AgendaPlace>), FieldError> {
    let mut agenda = Vec::new();
    let mut order = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    let mut twins = crate::text::Twins::default();
    for (i, value) in f.array("agenda")?.unwrap_or_default().iter().enumerate() {
        let prefix = format!("agenda[{i}]");
        let t = value.as_table().ok_or_else(|| FieldError {
            key: prefix.clone(),
            message: "se esperaba una tabla / expected a table".into(),
        })?;
        let place = read_place(t, &prefix)?;
        let id = match &place {
            Place::Voted(item) => item.spec.id().to_string(),
            Place::Informative { id, .. } => id.clone(),
        };
        if let Some((twin, at)) = twins.check(&id, i) {
            return Err(FieldError {
                key: format!("{prefix}.id"),
                message: format!(
                    "`{id}` se confunde a la vista con `{twin}` (agenda[{at}]) / looks like `{twin}`"
                ),
            });
        }
        if ids.contains(&id) {
            return Err(FieldError {
                key: format!("{prefix}.id"),
                message: format!("`{id}` está repetido / `{id}` is used twice"),
            });
        }
        ids.push(id);
        match place {
            Place::Voted(item) => {
                order.push(AgendaPlace::Voted(agenda.len()));
                agenda.push(*item);
            }
            Place::Informative { id, title } => order.push(AgendaPlace::Informative { id, title }),
        }
    }
    if order.len() > asamblea_wire::limits::MAX_AGENDA_ENTRIES {
        return Err(f.error(
            "agenda",
            format!(
                "{} puntos; el orden del día admite a lo sumo {} / {} items, at most {}",
                order.len(),
                asamblea_wire::limits::MAX_AGENDA_ENTRIES,
                order.len(),
                asamblea_wire::limits::MAX_AGENDA_ENTRIES
            ),
        ));
    }
    if agenda.len() > asamblea_wire::limits::MAX_AGENDA_ITEMS {
        return Err(f.error(
            "agenda",
            format!(
                "{} puntos; el orden del día admite a lo sumo {} / {} items, at most {}",
                agenda.len(),
                asamblea_wire::limits::MAX_AGENDA_ITEMS,
                agenda.len(),
                asamblea_wire::limits::MAX_AGENDA_ITEMS
            ),
        ));
    }
    if agenda.is_empty() {
        return Err(f.error(
            "agenda",
            "el orden del día necesita al menos un punto que se vote / the meeting needs at least one agenda item put to the vote",
        ));
    }
    Ok((agenda, order))
}

/// `table` with its id, title and list names in one form ([`crate::text`]),
/// or the key at fault.
fn normalised_item(table: &toml::Table, prefix: &str) -> Result<toml::Table, FieldError> {
    let mut table = table.clone();
    let fail = |key: &str, message: String| FieldError { key: format!("{prefix}.{key}"), message };
    for (key, check) in
        [("id", crate::text::id as fn(&str) -> Result<String, String>), ("title", crate::text::title)]
    {
        if let Some(toml::Value::String(text)) = table.get(key) {
            let normal = check(text).map_err(|e| fail(key, e))?;
            table.insert(key.into(), toml::Value::String(normal));
        }
    }
    if let Some(toml::Value::Array(lists)) = table.get_mut("lists") {
        let mut twins = crate::text::Twins::default();
        for (i, list) in lists.iter_mut().enumerate() {
            if let toml::Value::String(name) = list {
                let normal = crate::text::list_name(name).map_err(|e| fail(&format!("lists[{i}]"), e))?;
                if let Some((twin, at)) = twins.check(&normal, i) {
                    return Err(fail(
                        &format!("lists[{i}]"),
                        format!("`{normal}` se confunde a la vista con `{twin}` (lists[{at}]) / looks like `{twin}` (lists[{at}])"),
                    ));
                }
                *name = normal;
            }
        }
    }
    Ok(table)
}

/// An agenda entry as read: voted, or informative.
enum Place {
    Voted(Box<AgendaItem>),
    Informative { id: String, title: String },
}

fn read_place(table: &toml::Table, prefix: &str) -> Result<Place, FieldError> {
    let informative = match table.get("informative") {
        None => false,
        Some(toml::Value::Boolean(b)) => *b,
        Some(other) => {
            let (es, en) = crate::fields::found(other);
            return Err(FieldError {
                key: format!("{prefix}.informative"),
                message: format!("se esperaba true o false, hay {es} / expected true or false, found {en}"),
            });
        }
    };
    if !informative {
        if !table.contains_key("matter") {
            return Err(FieldError {
                key: format!("{prefix}.matter"),
                message: "falta `matter`, el asunto que se vota; si el punto no se vota (un informe, \
                          proposiciones y varios) escriba `informative = true` / `matter` is missing; \
                          for an item that is not voted write `informative = true`"
                    .into(),
            });
        }
        return read_item(table, prefix).map(|item| Place::Voted(Box::new(item)));
    }
    let table = normalised_item(table, prefix)?;
    let mut f = Fields::new(&table, prefix);
    f.boolean("informative")?;
    let id = f.required_string("id")?.to_string();
    let title = f.required_string("title")?.to_string();
    for key in ["matter", "seats", "lists", "noticed"] {
        if table.contains_key(key) {
            return Err(f.error(
                key,
                "un punto informativo no se vota: quite esta clave, o `informative = true` si se vota / \
                 an informative item is not voted: remove this key, or `informative = true` if it is",
            ));
        }
    }
    f.finish()?;
    Ok(Place::Informative { id, title })
}

/// `[[agenda.lists]]` tables (`{ name, candidates = [{ principal,
/// suplente }] }`) split into the list names `spec::read_open` reads and
/// the candidates; plain names pass as they are.
fn split_candidates(
    table: &toml::Table,
    prefix: &str,
) -> Result<(toml::Table, Vec<Vec<CandidateNames>>), FieldError> {
    let Some(toml::Value::Array(lists)) = table.get("lists") else {
        return Ok((table.clone(), Vec::new()));
    };
    if !lists.iter().any(toml::Value::is_table) {
        return Ok((table.clone(), Vec::new()));
    }
    let fail = |key: String, message: String| FieldError { key: format!("{prefix}.{key}"), message };
    let mut names = Vec::with_capacity(lists.len());
    let mut candidates = Vec::with_capacity(lists.len());
    for (i, list) in lists.iter().enumerate() {
        let Some(list) = list.as_table() else {
            return Err(fail(
                format!("lists[{i}]"),
                "las listas se escriben todas como tablas con sus candidatos, o todas como nombres / \
                 write every list as a table with its candidates, or every one as a name"
                    .into(),
            ));
        };
        let key = format!("lists[{i}]");
        let mut g = Fields::new(list, &key);
        names.push(toml::Value::String(g.required_string("name")?.to_string()));
        let people = g.array("candidates")?.unwrap_or_default();
        if people.is_empty() {
            return Err(g.error(
                "candidates",
                "nombre al menos un candidato: `candidates = [{ principal = \"…\", suplente = \"…\" }]` / \
                 name at least one candidate",
            ));
        }
        let mut of_list = Vec::with_capacity(people.len());
        for (j, person) in people.iter().enumerate() {
            let at = format!("{key}.candidates[{j}]");
            let person = person.as_table().ok_or_else(|| {
                fail(
                    format!("lists[{i}].candidates[{j}]"),
                    "se esperaba `{ principal = \"…\", suplente = \"…\" }` / expected a table".into(),
                )
            })?;
            let mut h = Fields::new(person, &at);
            let principal = h.required_string("principal")?;
            let principal = crate::text::title(principal).map_err(|e| h.error("principal", e))?;
            let suplente = match h.string("suplente")? {
                Some(raw) if !raw.trim().is_empty() => {
                    crate::text::title(raw).map_err(|e| h.error("suplente", e))?
                }
                _ => String::new(),
            };
            h.finish()?;
            of_list.push(CandidateNames { principal, suplente });
        }
        g.finish()?;
        candidates.push(of_list);
    }
    let mut plain = table.clone();
    plain.insert("lists".into(), toml::Value::Array(names));
    Ok((plain, candidates))
}

fn read_item(table: &toml::Table, prefix: &str) -> Result<AgendaItem, FieldError> {
    let (table, candidates) = split_candidates(table, prefix)?;
    let table = normalised_item(&table, prefix)?;
    let mut f = Fields::new(&table, prefix);
    f.boolean("informative")?;
    let id = f.required_string("id")?.to_string();
    if id.is_empty() {
        return Err(f.error("id", "está vacío / must not be empty"));
    }
    let title = f.required_string("title")?.to_string();
    let spec = crate::spec::read_open(&mut f, id)?;
    f.finish()?;
    if let asamblea_rules::BallotOptions::Election { seats, .. } = spec.options() {
        let most = *seats as usize;
        if let Some(i) = candidates.iter().position(|list| list.len() > most) {
            return Err(f_error(
                prefix,
                &format!("lists[{i}].candidates"),
                format!(
                    "{} candidatos para {most} puesto(s): una lista lleva a lo sumo un candidato por puesto / \
                     {} candidates for {most} seat(s): a list carries at most one candidate a seat",
                    candidates[i].len(),
                    candidates[i].len()
                ),
            ));
        }
    }
    Ok(AgendaItem { spec, title, candidates })
}

fn f_error(prefix: &str, key: &str, message: String) -> FieldError {
    FieldError { key: format!("{prefix}.{key}"), message }
}
