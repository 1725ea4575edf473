//! Admission letters (cartas de admisión): one letter for each holder and
//! each agent of an accepted power, with the meeting's notice data, whom
//! the letter is for and what they are expected for, and the person's
//! admission code printed large and as a QR.
//!
//! The code (`asamblea_wire::admission_code`, ledger-format §7.4) comes in
//! already made: this crate does not know the wire format. It is an
//! admission token only, not a secret and never a voting key: the QR holds
//! the code and nothing else, no personal data. A power's voting
//! instructions, if it has any, are never printed (SFC 2015060395-003):
//! an agent's letter lists the powers and their principals' shares only.
//!
//! The content is written here once, as the acta's [`Block`]s; the PDF is
//! laid out by [`crate::pdf::letters`] (US Letter, one letter a person,
//! each starting on a page of its own).

use asamblea_rules::calendar::Date;
use asamblea_rules::{Call, ClassShares, MeetingKind, ShareClass};

use crate::acta::Block;
use crate::attendance::class_heading_es;
use crate::numfmt::{date_es, thousands};

/// The meeting as its notice gave it: what every letter repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LetterMeeting {
    /// The company.
    pub company: String,
    /// Its tax id (NIT), as the meeting file writes it.
    pub nit: String,
    /// Ordinary or extraordinary.
    pub kind: MeetingKind,
    /// First or second call, or by own right.
    pub call: Call,
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// The hour, `HH:MM`.
    pub time: String,
    /// Where.
    pub place: String,
    /// Who convened it, by what medium, as the meeting file says it.
    pub convened_by: Option<String>,
    /// The notice's date, `YYYY-MM-DD`.
    pub convened_on: Option<String>,
    /// The whole agenda's titles, in order.
    pub agenda: Vec<String>,
    /// The share classes the company has (no «preferenciales 0»).
    pub classes: Vec<ShareClass>,
}

/// One person a letter is for: a holder, an agent, or both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LetterPerson {
    /// The person's id (the register's, or the power's for an agent).
    pub id: String,
    /// Their name.
    pub name: String,
    /// Their admission code as shown, `XXXXX-XXXXX`: printed, and the QR's
    /// whole payload.
    pub code: String,
    /// Their own shares, when they are a holder.
    pub own: Option<ClassShares>,
    /// The accepted powers they carry.
    pub powers: Vec<LetterPower>,
}

/// An accepted power an agent carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LetterPower {
    /// The power's reference.
    pub power: String,
    /// The holders who gave it: id, name and shares.
    pub principals: Vec<(String, String, ClassShares)>,
}

/// Why the letters could not be made (a bug, or a code that is not one).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LetterError {
    /// The code would not encode as a QR.
    #[error("carta de {person}: el código no cabe en un QR / the code does not fit a QR: {reason}")]
    Qr {
        /// Whose letter.
        person: String,
        /// The encoder's words.
        reason: String,
    },
    /// The PDF writer failed.
    #[error("las cartas no se pudieron escribir en PDF / the letters' PDF could not be written: {0}")]
    Pdf(String),
}

/// What a letter says under its heading, in order.
pub(crate) fn body(meeting: &LetterMeeting, person: &LetterPerson) -> Vec<Block> {
    let mut out = vec![Block::Heading(2, "La reunión / The meeting".into())];
    out.push(Block::Text(notice_es(meeting)));
    out.push(Block::Text(notice_en(meeting)));
    if let (Some(by), Some(on)) = (&meeting.convened_by, &meeting.convened_on) {
        out.push(Block::Lead(
            "Convocatoria / notice:".into(),
            format!("{}, el {} ({on}).", by.trim_end_matches('.'), date_es(on)),
        ));
    }
    out.push(Block::Heading(2, "Orden del día / Agenda".into()));
    out.extend(
        meeting.agenda.iter().enumerate().map(|(n, title)| Block::Text(format!("{}. {title}", n + 1))),
    );
    out.push(Block::Heading(2, "A quién se espera / Who is expected".into()));
    out.push(Block::Lead(format!("{} —", person.name), format!("documento {}.", person.id)));
    if let Some(own) = person.own {
        out.push(Block::Lead(
            "Como accionista / as a holder:".into(),
            format!("{} en nombre propio / own shares.", shares_es(meeting, own)),
        ));
    }
    out.extend(person.powers.iter().map(|power| power_lead(meeting, power)));
    out.push(Block::Heading(2, "Para entrar / To be admitted".into()));
    out.extend(
        [
            "Traiga su documento de identidad original. En la mesa de registro se escanea esta carta (o se digita el código o el número de su documento) y se verifica su identidad; después se le entrega la credencial con la que vota.",
            "Esta carta no es un voto ni una credencial de voto: solo dice a quién se espera. Sin la verificación de identidad en la mesa no da acceso a nada.",
            "Bring your identity document. This letter is neither a vote nor a voting credential: the badge you vote with is given at the desk after your identity is checked.",
        ]
        .map(|text| Block::Text(text.into())),
    );
    // Each power's principals last: hundreds of them flow onto further
    // pages without pushing the instructions off the first.
    for power in &person.powers {
        out.push(Block::Heading(2, format!("Poderdantes / principals — {}", power.power)));
        out.push(principals_table(meeting, power));
    }
    out
}

/// What a power brings: its reference, how many principals, and their
/// shares together.
fn power_lead(meeting: &LetterMeeting, power: &LetterPower) -> Block {
    let total = power.principals.iter().fold(ClassShares::default(), |sum, (_, _, shares)| {
        ClassShares::new(sum.ordinary + shares.ordinary, sum.preferred + shares.preferred)
    });
    let count = power.principals.len();
    Block::Lead(
        format!("Como apoderado / as agent — {}:", power.power),
        format!(
            "{} {} / {} principal{}; {}.",
            thousands(count as u64),
            if count == 1 { "poderdante" } else { "poderdantes" },
            thousands(count as u64),
            if count == 1 { "" } else { "s" },
            shares_es(meeting, total)
        ),
    )
}

/// A power's principals, one row each: document, name, shares by class.
fn principals_table(meeting: &LetterMeeting, power: &LetterPower) -> Block {
    let mut header = vec!["Documento".to_string(), "Poderdante / principal".to_string()];
    header.extend(meeting.classes.iter().map(|&c| class_heading_es(c)));
    let rows = power
        .principals
        .iter()
        .map(|(id, name, shares)| {
            let mut row = vec![id.clone(), name.clone()];
            row.extend(meeting.classes.iter().map(|&c| thousands(shares.of(c).get())));
            row
        })
        .collect();
    Block::Table(header, rows)
}

/// Shares in words, by the classes held (of the company's): «1.234
/// acciones ordinarias y 50 preferenciales»; «0 acciones ordinarias»
/// when none.
fn shares_es(meeting: &LetterMeeting, shares: ClassShares) -> String {
    let held: Vec<ShareClass> =
        meeting.classes.iter().copied().filter(|&class| !shares.of(class).is_zero()).collect();
    let shown = if held.is_empty() { &meeting.classes[..meeting.classes.len().min(1)] } else { &held[..] };
    let mut said = String::new();
    for (n, &class) in shown.iter().enumerate() {
        let (figure, name) = (thousands(shares.of(class).get()), crate::attendance::class_es(class));
        if n == 0 {
            said = format!("{figure} acciones {name}");
        } else {
            said.push_str(&format!(" y {figure} {name}"));
        }
    }
    said
}

/// «Asamblea general ordinaria de accionistas, en primera convocatoria: el
/// jueves 25 de marzo de 2027 a las 10:00, en …».
fn notice_es(meeting: &LetterMeeting) -> String {
    let weekday =
        Date::parse(&meeting.date).map(|d| format!("{} ", d.weekday().spanish())).unwrap_or_default();
    let kind = match meeting.kind {
        MeetingKind::Ordinary => "ordinaria",
        MeetingKind::Extraordinary => "extraordinaria",
    };
    let call = match meeting.call {
        Call::First => "en primera convocatoria",
        Call::Second => "en segunda convocatoria (C.Co. art. 429)",
        Call::OwnRight => "por derecho propio (C.Co. art. 422)",
    };
    format!(
        "Asamblea general {kind} de accionistas de {}, {call}: el {weekday}{} a las {}, en {}.",
        meeting.company,
        date_es(&meeting.date),
        meeting.time,
        meeting.place
    )
}

/// The same, short, in English.
fn notice_en(meeting: &LetterMeeting) -> String {
    let kind = match meeting.kind {
        MeetingKind::Ordinary => "Ordinary",
        MeetingKind::Extraordinary => "Extraordinary",
    };
    let call = match meeting.call {
        Call::First => "first call",
        Call::Second => "second call",
        Call::OwnRight => "by its own right",
    };
    format!("{kind} general meeting of shareholders, {call}: {} at {}.", meeting.date, meeting.time)
}
