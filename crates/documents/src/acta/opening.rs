//! The acta's section 1 (date, hour, place and the convening: C.Co. arts.
//! 189 and 431 ask "la forma y antelación de la convocatoria") and its
//! signature block.
//!
//! **How the meeting file's words go into sentences.** What the secretary
//! writes is never spliced mid-sentence where its capital letter or its
//! gender could be wrong: the medium of the notice (`convened_by`) follows
//! «Convocatoria:», a label, so it reads whether it starts with a capital
//! or not; the chair and the secretary are named in sentences that carry
//! no gender («Presidió la reunión …», «Ejerció la secretaría …»); their
//! designation (`designated`) is a full sentence of the secretary's own;
//! and under each signature the title is the one the file gives in its
//! gender (`chair_title = "presidenta"`), or the office's name
//! («Presidencia de la reunión») when it gives none
//! (`docs/meeting-file.md`, `[acta]`).

use asamblea_rules::calendar::Date;
use asamblea_rules::convening;

use super::{ActaSource, Block, Described, Signer};
use crate::numfmt::{colombia_time, date_es, thousands};

/// Section 1's paragraphs: the meeting, its convening with the days
/// counted as the law counts them, and who chaired and took the minutes.
pub(super) fn date_place_and_convening(source: &ActaSource<'_>) -> Vec<Block> {
    let d = source.described;
    let mut out = Vec::new();
    let weekday = Date::parse(&d.date).map(|day| format!("{} ", day.weekday().spanish())).unwrap_or_default();
    out.push(Block::Text(format!(
        "La asamblea general {kind} de accionistas se reunió el {weekday}{date} a las {time} en {place}, {call}.{installed}",
        kind = d.kind_es,
        date = date_es(&d.date),
        time = d.time,
        place = d.place,
        call = d.call_es,
        installed = source.installed.map_or_else(String::new, |i| format!(
            " Se instaló el {} a las {}, hora de Colombia, {}.",
            date_es(&colombia_time(i.time_ms).0),
            colombia_time(i.time_ms).1,
            super::attendees::installed_how(i)
        )),
    )));
    if source.meeting.call() == asamblea_rules::Call::OwnRight && d.convened_on.is_none() {
        out.push(Block::Text(
            "No hubo convocatoria: la asamblea ordinaria que no se convoca se reúne por derecho propio el primer día hábil de abril, a las 10:00 a. m., en las oficinas del domicilio principal (C.Co. art. 422)."
                .to_string(),
        ));
    }
    if d.universal {
        out.push(Block::Text(
            "Reunión universal (C.Co. art. 426): se reunió sin necesidad de convocatoria previa, por estar representada la totalidad de las acciones suscritas."
                .to_string(),
        ));
        out.extend(universal_gaps(source));
    }
    if let Some(notice) = notice(d) {
        out.push(Block::Text(notice));
    }
    out.extend(super::held::modality_blocks(source.held_as));
    let blank = "______________________";
    let designated = match d.designated.as_deref() {
        // A sentence of the secretary's own stands as it is; anything else
        // (a file written before `designated` was a sentence) after a label.
        Some(words) if words.starts_with(char::is_uppercase) => {
            let end = if words.ends_with(['.', '!', '?']) { "" } else { "." };
            format!("{words}{end}")
        }
        Some(words) => {
            format!("Designación de la presidencia y la secretaría: {}.", words.trim_end_matches('.'))
        }
        None => format!("Designación de la presidencia y la secretaría: {blank}."),
    };
    out.push(Block::Text(format!(
        "Presidió la reunión {}. Ejerció la secretaría {}. {designated}",
        d.chair.as_deref().unwrap_or(blank),
        d.secretary.as_deref().unwrap_or(blank),
    )));
    out
}

/// The notice in words: its medium and date, and the days between it and
/// the meeting counted as `asamblea_rules::calendar` counts them (neither
/// end), both calendar and business days, and what the agenda asked.
fn notice(d: &Described) -> Option<String> {
    let (by, on) = (d.convened_by.as_deref()?, d.convened_on.as_deref()?);
    let mut said = format!("Convocatoria: {}, el {}.", by.trim_end_matches('.'), date_es(on));
    if let (Ok(notice), Ok(meeting)) = (Date::parse(on), Date::parse(&d.date)) {
        said.push_str(&format!(
            " Entre la convocatoria y la reunión, sin contar el día de la una ni el de la otra, hubo {} días comunes y {} días hábiles (de lunes a viernes, sin los festivos de Colombia).",
            thousands(notice.calendar_days_between(meeting)),
            thousands(notice.business_days_between(meeting)),
        ));
        if let Some((matter, rule)) = convening::strictest_notice(d.matters.iter().copied(), meeting) {
            said.push_str(&format!(
                " El orden del día pedía al menos {} ({}, por el asunto «{}»).",
                rule.period.spanish(),
                rule.source,
                matter.spanish().to_lowercase()
            ));
        }
    }
    Some(said)
}

/// A universal meeting's poll moments at which not every voting share was
/// represented, said plainly: art. 426 holds only with all of them.
fn universal_gaps(source: &ActaSource<'_>) -> Option<Block> {
    let m = source.meeting;
    let short: Vec<String> = m
        .quorum_series()
        .iter()
        .enumerate()
        .filter(|(_, p)| p.quorum.present < p.quorum.voting_outstanding)
        .map(|(n, p)| {
            let at =
                source.poll_times.get(n).map_or_else(String::new, |&ms| format!(", {}", colombia_time(ms).1));
            format!(
                "{} ({}{at}: {} de {})",
                m.item(p.item).id(),
                if p.moment == asamblea_rules::PollMoment::Opened { "apertura" } else { "cierre" },
                thousands(p.quorum.present.get()),
                thousands(p.quorum.voting_outstanding.get())
            )
        })
        .collect();
    (!short.is_empty()).then(|| {
        Block::Text(format!(
            "ATENCIÓN: el libro electrónico no muestra representada la totalidad de las acciones con voto en {}; sin convocatoria, una reunión universal la requiere (C.Co. art. 426).",
            short.join("; ")
        ))
    })
}

/// Who signs the acta (C.Co. art. 189; Aval's reglamento art. 10;
/// Almagrario §8): the chair, the secretary and the approval commission,
/// each under the title the meeting file gives, or the office's name.
pub(super) fn signers(d: &Described) -> Vec<Signer> {
    let titled = |title: Option<&String>, office: &str| match title {
        Some(word) => {
            let mut chars = word.chars();
            let first: String =
                chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default();
            format!("{first} de la reunión")
        }
        None => office.to_string(),
    };
    let mut out = vec![
        Signer {
            name: d.chair.clone(),
            capacity: titled(d.chair_title.as_ref(), "Presidencia de la reunión"),
        },
        Signer {
            name: d.secretary.clone(),
            capacity: titled(d.secretary_title.as_ref(), "Secretaría de la reunión"),
        },
    ];
    let commission = if d.commission.is_empty() {
        vec![None, None]
    } else {
        d.commission.iter().cloned().map(Some).collect()
    };
    out.extend(
        commission
            .into_iter()
            .map(|name| Signer { name, capacity: "Comisión aprobatoria del acta".to_string() }),
    );
    out
}
