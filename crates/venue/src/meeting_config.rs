//! `meeting.toml`: the meeting's settings and agenda, as the secretary
//! writes them before the meeting (what the acta must state: company,
//! kind, call, date, place, how and when it was convened; C.Co Art. 189).
//!
//! ```toml
//! company = "Inversiones Andinas S.A."
//! nit = "900.123.456-7"
//! kind = "ordinary"                 # ordinary | extraordinary
//! call = "first"                    # first | second | own-right
//! date = "2027-03-25"
//! time = "10:00"
//! place = "Bogotá D.C., auditorio principal"
//! convened_by = "aviso publicado en El Tiempo y en la página web"
//! convened_on = "2027-03-02"
//! profile = "grupo-aval"            # config/<profile>.toml
//! universal = false                 # true: every share represented (C.Co 426)
//! [settings]                        # optional overrides of the profile
//! [capital]
//! ORD = { subscribed = 10_000_000, treasury = 500_000 }
//! [[agenda]]
//! id = "item-3"
//! title = "Elección de la Junta Directiva"
//! matter = "board-election"
//! noticed = true
//! seats = 5
//! lists = ["A", "B", "C"]
//! ```
//!
//! Every key is documented for the secretary in `docs/meeting-file.md`.
//! [`parse`] reads the file (at `init` and whenever the meeting is opened
//! or its bundle read); [`check_convening`] holds the convening to the
//! law (`docs/rules.md` §12.1), at `init` only: a meeting already
//! recorded is never refused later for it.

use asamblea_rules::calendar::{Date, DateError};
use asamblea_rules::convening::{self, NoticePeriod};
use asamblea_rules::{Call, Capital, ItemSpec, MeetingKind, Profile};

use crate::fields::{FieldError, Fields, TomlFileError};
use crate::profiles::{self, read_settings};

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

/// A validated `meeting.toml`.
#[derive(Clone, Debug)]
pub struct MeetingConfig {
    /// Company name.
    pub company: String,
    /// Tax id (NIT).
    pub nit: String,
    /// Ordinary or extraordinary.
    pub kind: MeetingKind,
    /// Which call.
    pub call: Call,
    /// Date, `YYYY-MM-DD`.
    pub date: String,
    /// Time, `HH:MM`.
    pub time: String,
    /// Where.
    pub place: String,
    /// How it was convened; `None` only for a meeting by own right or a
    /// universal one, which need no notice.
    pub convened_by: Option<String>,
    /// When it was convened, `YYYY-MM-DD`; `None` as `convened_by`.
    pub convened_on: Option<String>,
    /// A universal meeting (C.Co. art. 426): every subscribed share is to
    /// be represented, so no notice is needed (`universal = true`).
    pub universal: bool,
    /// The profile with the meeting's settings applied.
    pub profile: Profile,
    /// The capital.
    pub capital: Capital,
    /// The items put to the vote, in order.
    pub agenda: Vec<AgendaItem>,
    /// The whole agenda in order: the voted items in their place among
    /// the informative ones.
    pub order: Vec<AgendaPlace>,
    /// What the acta names beyond the notice (`[acta]`, optional).
    pub acta: ActaFields,
}

/// The `[acta]` table: the acta's number, who chaired and who took the
/// minutes and how they were designated, and the approval commission.
/// Every field may be left out: the acta draft then leaves a line to fill.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActaFields {
    /// The acta's number in the minute book.
    pub number: Option<String>,
    /// Who chaired the meeting.
    pub chair: Option<String>,
    /// Who acted as secretary.
    pub secretary: Option<String>,
    /// The chair's title under the signature, in its gender: `presidente`
    /// or `presidenta` (`chair_title`). Left out, the acta names the
    /// office: «Presidencia de la reunión».
    pub chair_title: Option<String>,
    /// The secretary's title: `secretario` or `secretaria`
    /// (`secretary_title`). Left out: «Secretaría de la reunión».
    pub secretary_title: Option<String>,
    /// How they were designated, as a full sentence the secretary writes
    /// (it stands alone in the acta): «Fueron designados por unanimidad…».
    pub designated: Option<String>,
    /// The commission that approves the acta.
    pub commission: Vec<String>,
}

impl MeetingConfig {
    /// The line a badge prints in its band: the company and the date.
    pub fn badge_title(&self) -> String {
        format!("{} · {}", self.company, self.date)
    }
}

/// Parses `meeting.toml`; errors name the file, the line and the key,
/// Spanish first.
pub fn parse(file: &str, text: &str) -> Result<MeetingConfig, TomlFileError> {
    crate::fields::parse_file(file, text, read)
}

fn read(table: &toml::Table) -> Result<MeetingConfig, FieldError> {
    let mut f = Fields::new(table, "");
    let text = |f: &mut Fields, key: &'static str| -> Result<String, FieldError> {
        let raw = f.required_string(key)?.to_string();
        if raw.trim().is_empty() {
            return Err(f.error(key, "está vacía / must not be empty"));
        }
        crate::text::name(&raw, false).map_err(|e| f.error(key, e))
    };
    let company = text(&mut f, "company")?;
    let nit = text(&mut f, "nit")?;
    let kind = f
        .choice("kind", &["ordinary", "extraordinary"], MeetingKind::from_code)?
        .ok_or_else(|| f.missing("kind"))?;
    let call = f.choice("call", &["first", "second", "own-right"], Call::from_code)?.unwrap_or(Call::First);
    let date = text(&mut f, "date")?;
    check_date(&f, "date", &date)?;
    let time = text(&mut f, "time")?;
    check_time(&f, "time", &time)?;
    let place = text(&mut f, "place")?;
    let universal = f.boolean("universal")?.unwrap_or(false);
    // A meeting by own right or a universal one needs no notice (C.Co.
    // arts. 422 and 426): the notice's keys may be left out.
    let needs_notice = call != Call::OwnRight && !universal;
    let optional = |f: &mut Fields, key: &'static str| -> Result<Option<String>, FieldError> {
        if f.has(key) || needs_notice {
            text(f, key).map(Some)
        } else {
            Ok(None)
        }
    };
    let convened_by = optional(&mut f, "convened_by")?;
    let convened_on = optional(&mut f, "convened_on")?;
    if let Some(convened_on) = &convened_on {
        check_date(&f, "convened_on", convened_on)?;
        // ISO dates compare as text.
        if *convened_on >= date {
            return Err(f.error(
                "convened_on",
                format!("la convocatoria ({convened_on}) debe ser anterior a la reunión ({date}) / the notice must precede the meeting"),
            ));
        }
    }
    let profile_name = f.required_string("profile")?;
    let profile = profiles::embedded(profile_name).map_err(|e| f.error("profile", e.to_string()))?;
    let settings = match f.table("settings")? {
        Some(t) => read_settings(t, "settings", profile.settings(), false)?,
        None => profile.settings(),
    };
    let profile = profile.with_settings(settings);
    let capital = crate::spec::read_capital(&mut f)?;
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
    let acta = match f.table("acta")? {
        Some(t) => read_acta(t)?,
        None => ActaFields::default(),
    };
    f.finish()?;
    Ok(MeetingConfig {
        company,
        nit,
        kind,
        call,
        date,
        time,
        place,
        convened_by,
        convened_on,
        universal,
        profile,
        capital,
        agenda,
        order,
        acta,
    })
}

/// The `[acta]` table.
fn read_acta(table: &toml::Table) -> Result<ActaFields, FieldError> {
    let mut f = Fields::new(table, "acta");
    let mut text = |key: &'static str| -> Result<Option<String>, FieldError> {
        match f.string(key)? {
            None => Ok(None),
            Some(raw) => crate::text::name(raw, false).map(Some).map_err(|e| f.error(key, e)),
        }
    };
    let number = text("number")?;
    let chair = text("chair")?;
    let secretary = text("secretary")?;
    let designated = text("designated")?;
    // A title in its gender, one of the words given.
    let mut title = |key: &'static str, words: [&'static str; 2]| {
        f.choice(key, &words, |t| words.contains(&t).then(|| t.to_string()))
    };
    let chair_title = title("chair_title", ["presidente", "presidenta"])?;
    let secretary_title = title("secretary_title", ["secretario", "secretaria"])?;
    let mut commission = Vec::new();
    for (i, value) in f.array("commission")?.unwrap_or_default().iter().enumerate() {
        let name = value.as_str().ok_or_else(|| {
            f.error(
                &format!("commission[{i}]"),
                "debe ser un nombre, entre comillas / must be a name, in quotes",
            )
        })?;
        commission.push(crate::text::name(name, false).map_err(|e| f.error(&format!("commission[{i}]"), e))?);
    }
    f.finish()?;
    Ok(ActaFields { number, chair, secretary, chair_title, secretary_title, designated, commission })
}

/// A real calendar date written `YYYY-MM-DD` (the Gregorian calendar,
/// leap years included; `asamblea_rules::calendar`).
fn check_date(f: &Fields, key: &str, value: &str) -> Result<Date, FieldError> {
    Date::parse(value).map_err(|e| {
        f.error(
            key,
            match e {
                DateError::NotWrittenIso => format!(
                    "`{value}` no es una fecha escrita AAAA-MM-DD / `{value}` is not a date written YYYY-MM-DD"
                ),
                DateError::NotInCalendar => {
                    format!("`{value}` no es una fecha del calendario / `{value}` is not a calendar date")
                }
            },
        )
    })
}

/// Holds the convening of a parsed `meeting.toml` to the law (`rules.md`
/// R20; `docs/rules.md` §12.1): the day of a meeting by own right, the
/// window of an ordinary meeting, and the notice each agenda matter asks.
/// Called by `init` only. The error names the key at fault, the rule,
/// what the file says, the last date that would have been enough and what
/// to write instead, Spanish first.
pub fn check_convening(file: &str, text: &str, config: &MeetingConfig) -> Result<(), TomlFileError> {
    convening_breach(config).map_err(|error| TomlFileError::Field {
        file: file.to_string(),
        line: crate::fields::line_of(text, &error.key),
        error,
    })
}

fn convening_breach(config: &MeetingConfig) -> Result<(), FieldError> {
    let fail = |key: &str, message: String| FieldError { key: key.to_string(), message };
    let date = Date::parse(&config.date).map_err(|_| fail("date", "no es una fecha / not a date".into()))?;
    let (year, _, _) = date.ymd();
    if config.call == Call::OwnRight {
        if config.kind != MeetingKind::Ordinary {
            return Err(fail(
                "call",
                "solo la reunión ordinaria se reúne por derecho propio (C.Co. art. 422): escriba kind = \"ordinary\" o otra convocatoria / only an ordinary meeting meets by own right: write kind = \"ordinary\" or another call".into(),
            ));
        }
        let day = convening::own_right_day(year);
        if date != day {
            return Err(fail(
                "date",
                format!(
                    "la reunión por derecho propio se reúne el primer día hábil de abril, a las 10:00, en la sede principal (C.Co. art. 422); el archivo dice {date}: escriba date = \"{day}\" / a meeting by own right meets on the first business day of April (C.Co. art. 422); the file says {date}: write date = \"{day}\""
                ),
            ));
        }
        return Ok(());
    }
    if config.universal {
        return Ok(());
    }
    if config.kind == MeetingKind::Ordinary && config.call == Call::First {
        let end = convening::ordinary_window_end(year);
        if date > end {
            return Err(fail(
                "date",
                format!(
                    "la reunión ordinaria se celebra dentro de los tres meses siguientes al cierre del ejercicio del 31 de diciembre, a más tardar el {end} (C.Co. art. 422); el archivo dice {date}. Escriba una fecha hasta el {end}; si no se convocó a tiempo, la asamblea se reúne por derecho propio el {own} (call = \"own-right\"), o convóquela como extraordinaria (kind = \"extraordinary\") / an ordinary meeting is held within three months of the 31 December year end, by {end} (C.Co. art. 422); the file says {date}: write a date up to {end}, or meet by own right on {own} (call = \"own-right\"), or convene it as extraordinary",
                    own = convening::own_right_day(year),
                ),
            ));
        }
    }
    let Some(notice) = config.convened_on.as_deref() else { return Ok(()) };
    let notice =
        Date::parse(notice).map_err(|_| fail("convened_on", "no es una fecha / not a date".into()))?;
    let matters = config.agenda.iter().map(|item| item.spec.matter());
    let Some((matter, rule)) = convening::strictest_notice(matters, date) else { return Ok(()) };
    let counted = rule.period.counted(notice, date);
    if counted >= rule.period.days() {
        return Ok(());
    }
    let (at, item) = config
        .agenda
        .iter()
        .enumerate()
        .find(|(_, item)| item.spec.matter() == matter)
        .expect("the matter comes from the agenda");
    let last = rule.period.last_notice_day(date);
    let kind_es = match rule.period {
        NoticePeriod::BusinessDays(_) => "hábiles",
        NoticePeriod::CalendarDays(_) => "comunes",
    };
    Err(fail(
        "convened_on",
        format!(
            "«{title}» (agenda[{at}], {code}) pide convocar con {period_es} de antelación ({source}), sin contar el día del aviso ni el de la reunión; del {notice} al {date} hay {counted} días {kind_es}. La última fecha de convocatoria que basta es el {last}: escriba convened_on = \"{last}\" o antes, o una fecha de reunión posterior; si toda acción suscrita estará representada, escriba universal = true (C.Co. art. 426) / «{title}» ({code}) needs {period_en} of notice ({source}), counting neither the notice's day nor the meeting's; from {notice} to {date} there are {counted}. The last notice date that is enough is {last}: write convened_on = \"{last}\" or earlier, or a later meeting date; if every subscribed share will be represented, write universal = true",
            title = item.title,
            code = matter.code(),
            period_es = rule.period.spanish(),
            period_en = rule.period.english(),
            source = rule.source,
        ),
    ))
}

/// A time of day written `HH:MM` (00:00 to 23:59).
fn check_time(f: &Fields, key: &str, value: &str) -> Result<(), FieldError> {
    let b = value.as_bytes();
    let valid = b.len() == 5
        && b[2] == b':'
        && [0, 1, 3, 4].iter().all(|&i| b[i].is_ascii_digit())
        && value[..2].parse::<u32>().is_ok_and(|h| h < 24)
        && value[3..].parse::<u32>().is_ok_and(|m| m < 60);
    if valid {
        Ok(())
    } else {
        Err(f.error(
            key,
            format!("`{value}` no es una hora HH:MM (00:00 a 23:59) / `{value}` is not a time HH:MM"),
        ))
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The demo meeting shipped in `config/demo/`.
    pub const DEMO_MEETING: &str = include_str!("../../../config/demo/meeting.toml");
    const DEMO_REGISTER: &str = include_str!("../../../config/demo/register.csv");

    #[test]
    fn the_demo_meeting_and_its_register_load() {
        let config = parse("config/demo/meeting.toml", DEMO_MEETING).expect("valid demo meeting");
        assert_eq!(config.agenda.len(), 7);
        assert_eq!(config.kind, MeetingKind::Ordinary);
        let crate::register_csv::Imported { register, names, .. } = crate::register_csv::import(
            "config/demo/register.csv",
            DEMO_REGISTER.as_bytes(),
            config.capital,
            |_| {},
        )
        .expect("valid demo register");
        assert!(register.len() >= 300, "{}", register.len());
        assert_eq!(names.len(), register.len());
        assert!(register.iter().any(|(_, h)| h.role().is_some()));
        assert!(register.iter().any(|(_, h)| !h.holdings().preferred.is_zero()));
    }

    fn error_of(edit: impl Fn(&str) -> String) -> String {
        parse("m.toml", &edit(DEMO_MEETING)).expect_err("invalid").to_string()
    }

    #[test]
    fn defects_name_the_file_the_line_and_the_key() {
        let e = error_of(|t| t.replace("date = \"2027-03-30\"", "date = \"25/03/2027\""));
        assert_eq!(
            e,
            "m.toml, línea / line 10, clave / key `date`: `25/03/2027` no es una fecha escrita AAAA-MM-DD / `25/03/2027` is not a date written YYYY-MM-DD"
        );
        let e = error_of(|t| t.replace("kind = \"ordinary\"", "kind = \"annual\""));
        assert!(
            e.starts_with("m.toml, línea / line 5, clave / key `kind`: `annual` no es ninguno de"),
            "{e}"
        );
        assert!(e.contains("/ `annual` is not one of"), "{e}");
        let e = error_of(|t| t.replace("matter = \"profit-distribution\"", "matter = \"profits\""));
        assert!(e.starts_with("m.toml, línea / line 45, clave / key `agenda[2].matter`"), "{e}");
        let e = error_of(|t| t.replace("id = \"item-2\"", "id = \"item-1\""));
        assert_eq!(
            e,
            "m.toml, línea / line 38, clave / key `agenda[1].id`: `item-1` está repetido / `item-1` is used twice"
        );
        // A missing key is told at the table that lacks it.
        let e = error_of(|t| t.replace("seats = 5\n", ""));
        assert_eq!(
            e,
            "m.toml, línea / line 49, clave / key `agenda[3].seats`: la elección de junta necesita `seats`, el número de puestos / a board election needs `seats`"
        );
        // A key missing from the top of the file has no line to name.
        let e = error_of(|t| t.replace("place = ", "venue = "));
        assert_eq!(e, "m.toml, clave / key `place`: falta: es obligatoria / is required");
        // The acta's table: names are names, and nothing unknown.
        let e = error_of(|t| t.replace("commission = [\"Luisa Martínez Ortiz\"", "commission = [7"));
        assert_eq!(
            e,
            "m.toml, línea / line 26, clave / key `acta.commission[0]`: debe ser un nombre, entre comillas / must be a name, in quotes"
        );
        let e = error_of(|t| t.replace("number = \"045\"", "numero = \"045\""));
        assert!(e.contains("acta.numero"), "{e}");
    }

    #[test]
    fn an_unknown_key_is_named_in_spanish_first_with_its_file_and_line() {
        let text = DEMO_MEETING.replace("number = \"045\"", "numero = \"045\"");
        let error = parse("reunion.toml", &text).expect_err("an unknown key is refused");
        let crate::fields::TomlFileError::Field { file, line, error: field } = &error else {
            panic!("{error:?}")
        };
        assert_eq!((file.as_str(), *line, field.key.as_str()), ("reunion.toml", Some(20), "acta.numero"));
        let said = error.to_string();
        assert_eq!(
            said,
            "reunion.toml, línea / line 20, clave / key `acta.numero`: clave desconocida: revise cómo está escrita / unknown key: check its spelling"
        );
        assert!(said.find("clave desconocida").unwrap() < said.find("unknown key").unwrap(), "{said}");
        // At the top of the file, and in an agenda item, the same.
        let said = parse("m.toml", &DEMO_MEETING.replace("call = ", "cal = ")).unwrap_err().to_string();
        assert!(said.starts_with("m.toml, línea / line 6, clave / key `cal`: clave desconocida"), "{said}");
        let said = parse("m.toml", &DEMO_MEETING.replace("seats = 5", "seats = 5\nsillas = 5"))
            .unwrap_err()
            .to_string();
        assert!(
            said.starts_with("m.toml, línea / line 54, clave / key `agenda[3].sillas`: clave desconocida"),
            "{said}"
        );
        // A wrong type says what was expected and what was found.
        let said =
            parse("m.toml", &DEMO_MEETING.replace("seats = 5", "seats = \"cinco\"")).unwrap_err().to_string();
        assert_eq!(
            said,
            "m.toml, línea / line 53, clave / key `agenda[3].seats`: se esperaba un número entero, hay un texto / expected a whole number, found a string"
        );
        // Not TOML at all: the line and the column.
        let said = parse("m.toml", &DEMO_MEETING.replace("time = \"10:00\"", "time = 10:00\""))
            .unwrap_err()
            .to_string();
        assert!(said.starts_with("m.toml, línea / line 11, columna / column "), "{said}");
        assert!(said.contains(": el archivo no es TOML válido / not valid TOML: "), "{said}");
    }

    #[test]
    fn the_actas_table_is_read_and_may_be_left_out() {
        let config = parse("m.toml", DEMO_MEETING).unwrap();
        assert_eq!(config.acta.number.as_deref(), Some("045"));
        assert_eq!(config.acta.commission.len(), 2);
        let start = DEMO_MEETING.find("[acta]").unwrap();
        let end = DEMO_MEETING.find("[capital]").unwrap();
        let without = format!("{}{}", &DEMO_MEETING[..start], &DEMO_MEETING[end..]);
        assert_eq!(parse("m.toml", &without).unwrap().acta, ActaFields::default());
    }

    #[test]
    fn dates_and_times_are_real_and_the_notice_comes_first() {
        let e = error_of(|t| t.replace("date = \"2027-03-30\"", "date = \"2027-02-30\""));
        assert!(
            e.starts_with(
                "m.toml, línea / line 10, clave / key `date`: `2027-02-30` no es una fecha del calendario"
            ),
            "{e}"
        );
        let e = error_of(|t| t.replace("date = \"2027-03-30\"", "date = \"2027-13-01\""));
        assert!(e.contains("no es una fecha del calendario"), "{e}");
        let leap = DEMO_MEETING.replace("date = \"2027-03-30\"", "date = \"2028-02-29\"");
        assert!(parse("m.toml", &leap).is_ok(), "2028 is a leap year");
        let e = error_of(|t| t.replace("date = \"2027-03-30\"", "date = \"2026-02-29\""));
        assert!(e.contains("no es una fecha del calendario"), "{e}");
        let e = error_of(|t| t.replace("time = \"10:00\"", "time = \"25:99\""));
        assert!(
            e.starts_with("m.toml, línea / line 11, clave / key `time`: `25:99` no es una hora HH:MM"),
            "{e}"
        );
        let e = error_of(|t| t.replace("convened_on = \"2027-03-02\"", "convened_on = \"2027-03-31\""));
        assert!(
            e.starts_with("m.toml, línea / line 14, clave / key `convened_on`: la convocatoria (2027-03-31) debe ser anterior"),
            "{e}"
        );
        let e = error_of(|t| t.replace("convened_on = \"2027-03-02\"", "convened_on = \"2027-03-30\""));
        assert!(e.contains("debe ser anterior"), "the same day is not before: {e}");
    }

    /// The demo meeting edited by `edits`, parsed and its convening
    /// checked as `init` does: the error as a person reads it.
    fn convening_of(edits: &[(&str, &str)]) -> Result<(), String> {
        let mut text = DEMO_MEETING.to_string();
        for (from, to) in edits {
            assert!(text.contains(from), "{from}");
            text = text.replace(from, to);
        }
        let config = parse("m.toml", &text).map_err(|e| e.to_string())?;
        check_convening("m.toml", &text, &config).map_err(|e| e.to_string())
    }

    const NOTICE: &str = "convened_on = \"2027-03-02\"";
    const DATE: &str = "date = \"2027-03-30\"";

    /// The demo examines the year-end statements on Tuesday 30 March 2027:
    /// 15 business days (St Joseph's on the 22nd, Holy Thursday and Friday,
    /// the weekends and neither end not counted) from 3 March, 14 from the
    /// 4th.
    #[test]
    fn fifteen_business_days_for_the_statements_at_their_boundary() {
        assert_eq!(convening_of(&[]), Ok(()));
        assert_eq!(convening_of(&[(NOTICE, "convened_on = \"2027-03-03\"")]), Ok(()));
        let e = convening_of(&[(NOTICE, "convened_on = \"2027-03-04\"")]).unwrap_err();
        assert!(
            e.starts_with("m.toml, línea / line 14, clave / key `convened_on`: «Estados financieros de fin de ejercicio 2026» (agenda[1], financial-statements) pide convocar con 15 días hábiles de antelación (C.Co. art. 424), sin contar el día del aviso ni el de la reunión; del 2027-03-04 al 2027-03-30 hay 14 días hábiles. La última fecha de convocatoria que basta es el 2027-03-03: escriba convened_on = \"2027-03-03\" o antes"),
            "{e}"
        );
        assert!(e.contains(" / «Estados financieros de fin de ejercicio 2026» (financial-statements) needs 15 business days of notice"), "{e}");
    }

    /// With no matter that asks more, 5 common days: for Friday 12 March
    /// 2027, from the 6th (7 to 11 between) and not from the 7th.
    #[test]
    fn five_common_days_otherwise_at_their_boundary() {
        let start = DEMO_MEETING.find("[[agenda]]\nid = \"item-2\"").unwrap();
        let agenda_rest = &DEMO_MEETING[start..];
        let only_ordinary: [(&str, &str); 2] = [(agenda_rest, ""), (DATE, "date = \"2027-03-12\"")];
        let with = |notice: &str| {
            let mut edits = only_ordinary.to_vec();
            let line = format!("convened_on = \"{notice}\"");
            edits.push((NOTICE, &line));
            convening_of(&edits)
        };
        assert_eq!(with("2027-03-06"), Ok(()));
        let e = with("2027-03-07").unwrap_err();
        assert!(e.contains("pide convocar con 5 días comunes de antelación (C.Co. art. 424)"), "{e}");
        assert!(e.contains("del 2027-03-07 al 2027-03-12 hay 4 días comunes"), "{e}");
        assert!(e.contains("La última fecha de convocatoria que basta es el 2027-03-06"), "{e}");
    }

    /// An ordinary meeting by 31 March (C.Co. art. 422): the 31st is in,
    /// 1 April out, with the ways out said.
    #[test]
    fn the_ordinary_window_ends_on_31_march() {
        assert_eq!(convening_of(&[(DATE, "date = \"2027-03-31\"")]), Ok(()));
        let e = convening_of(&[(DATE, "date = \"2027-04-01\"")]).unwrap_err();
        assert!(e.starts_with("m.toml, línea / line 10, clave / key `date`: la reunión ordinaria se celebra dentro de los tres meses siguientes al cierre del ejercicio del 31 de diciembre, a más tardar el 2027-03-31 (C.Co. art. 422); el archivo dice 2027-04-01."), "{e}");
        assert!(e.contains("call = \"own-right\"") && e.contains("kind = \"extraordinary\""), "{e}");
        // An extraordinary meeting or a second call has no such window.
        let extraordinary = convening_of(&[
            (DATE, "date = \"2027-04-20\""),
            ("kind = \"ordinary\"", "kind = \"extraordinary\""),
        ]);
        assert_eq!(extraordinary, Ok(()));
    }

    /// A meeting by own right needs no notice and meets on the first
    /// business day of April; a universal one needs no notice.
    #[test]
    fn own_right_and_universal_meetings_need_no_notice() {
        let no_notice = [
            ("convened_by = \"Aviso publicado en El Tiempo y en la página web de la sociedad\"\n", ""),
            ("convened_on = \"2027-03-02\"\n", ""),
        ];
        let own_right = |date: &str| {
            let line = format!("date = \"{date}\"");
            let mut edits = no_notice.to_vec();
            edits.extend([("call = \"first\"", "call = \"own-right\""), (DATE, line.as_str())]);
            convening_of(&edits)
        };
        assert_eq!(own_right("2027-04-01"), Ok(()));
        let e = own_right("2027-04-02").unwrap_err();
        assert!(e.starts_with("m.toml, línea / line 10, clave / key `date`: la reunión por derecho propio se reúne el primer día hábil de abril"), "{e}");
        assert!(e.contains("escriba date = \"2027-04-01\""), "{e}");
        // Without a notice and without a reason, the notice is missing.
        let e = convening_of(&no_notice).unwrap_err();
        assert!(e.contains("`convened_by`: falta"), "{e}");
        let mut universal = no_notice.to_vec();
        universal.push(("profile = \"grupo-aval\"", "profile = \"grupo-aval\"\nuniversal = true"));
        assert_eq!(convening_of(&universal), Ok(()));
        // A universal meeting convened late is not refused either.
        let late = [(NOTICE, "convened_on = \"2027-03-29\"\nuniversal = true")];
        assert_eq!(convening_of(&late), Ok(()));
        let config =
            parse("m.toml", &DEMO_MEETING.replace(NOTICE, "convened_on = \"2027-03-29\"\nuniversal = true"))
                .unwrap();
        assert!(config.universal);
    }

    #[test]
    fn agenda_ids_and_lists_follow_the_ledger_rules_at_init() {
        let long = "x".repeat(65);
        let e = error_of(|t| t.replace("id = \"item-1\"", &format!("id = \"{long}\"")));
        assert!(
            e.starts_with("m.toml, línea / line 33, clave / key `agenda[0].id`: no cabe en el registro"),
            "{e}"
        );
        let e = error_of(|t| t.replace("id = \"item-1\"", "id = \"item\\u0007\""));
        assert!(e.starts_with("m.toml, línea / line 33, clave / key `agenda[0].id`: contiene U+0007"), "{e}");
        let e = error_of(|t| t.replace("\"Lista 1\"", &format!("\"{long}\"")));
        assert!(
            e.starts_with(
                "m.toml, línea / line 55, clave / key `agenda[3].lists[0]`: no cabe en el registro"
            ),
            "{e}"
        );
        // Latin L and Cyrillic Ӏ (U+04C0) look alike.
        let e = error_of(|t| t.replace("\"Lista 2\"", "\"\\u04C0ista 1\""));
        assert!(
            e.starts_with(
                "m.toml, línea / line 65, clave / key `agenda[3].lists[1]`: `Ӏista 1` se confunde a la vista con `Lista 1`"
            ),
            "{e}"
        );
        let e = error_of(|t| t.replace("id = \"item-2\"", "id = \"ITEM-1\""));
        assert!(
            e.starts_with("m.toml, línea / line 38, clave / key `agenda[1].id`: `ITEM-1` se confunde a la vista con `item-1`"),
            "{e}"
        );
        let e = error_of(|t| {
            t.replace("company = \"Inversiones Andinas S.A.\"", "company = \"Inversiones\\u0000\"")
        });
        assert!(e.starts_with("m.toml, línea / line 3, clave / key `company`: contiene U+0000"), "{e}");
        // An id written in NFD is stored in NFC.
        let nfd =
            DEMO_MEETING.replace("id = \"item-1\"", "id = \"ítem-1\"".replace('í', "i\u{301}").as_str());
        let config = parse("m.toml", &nfd).expect("valid");
        assert_eq!(config.agenda[0].spec.id(), "\u{ed}tem-1");
    }
}
