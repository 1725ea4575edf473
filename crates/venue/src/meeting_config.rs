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
//! modality = "mixta"                # presencial (default) | mixta | no-presencial
//! [remote]                          # required with mixta / no-presencial
//! medium = "Plataforma …, https://…"
//! access = "…"
//! identity_check = "…"
//! floor = "…"
//! identity_delegated = true         # OQ12
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
use asamblea_rules::{Call, Capital, MeetingKind, Modality, Profile, RemotePresence};

mod agenda;
mod remote;

pub use agenda::{AgendaItem, AgendaPlace, CandidateNames};
pub use remote::{RemoteChannel, REQUIRED_TEXTS};

use crate::fields::{FieldError, Fields, TomlFileError};
use crate::profiles::{self, read_settings_and_timing};

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
    /// Presencial (the default), mixta or no presencial (`modality`).
    pub modality: Modality,
    /// The remote channel as the notice states it (`[remote]`): present
    /// exactly when the modality has one.
    pub remote: Option<RemoteChannel>,
    /// The heartbeat and the presence timeout of a remote attendee: the
    /// profile's, or `[remote]`'s own (HY-5).
    pub remote_presence: RemotePresence,
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
    let (settings, timing) = match f.table("settings")? {
        Some(t) => read_settings_and_timing(t, "settings", profile.settings(), profile.poll_timing(), false)?,
        None => (profile.settings(), profile.poll_timing()),
    };
    let profile = profile.with_settings(settings).with_poll_timing(timing);
    let (modality, remote, remote_presence) = remote::read_modality(&mut f, profile.remote_presence())?;
    let capital = crate::spec::read_capital(&mut f)?;
    let (agenda, order) = agenda::read_agenda(&mut f)?;
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
        modality,
        remote,
        remote_presence,
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
    Date::parse(value).map_err(|e| f.error(key, date_problem(value, e)))
}

/// Why `value` is not a date, Spanish first (every date from outside).
pub(crate) fn date_problem(value: &str, e: DateError) -> String {
    match e {
        DateError::NotWrittenIso => {
            format!(
                "`{value}` no es una fecha escrita AAAA-MM-DD / `{value}` is not a date written YYYY-MM-DD"
            )
        }
        DateError::NotInCalendar => {
            format!("`{value}` no es una fecha del calendario / `{value}` is not a calendar date")
        }
    }
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

#[cfg(test)]
mod tests;
