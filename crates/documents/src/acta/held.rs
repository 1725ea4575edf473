//! How the meeting was held, in the acta: its modality and what the notice
//! said of the remote channel (section 1; Ley 222 de 1995 art. 19,
//! Decreto 398 de 2020, `rules.md` HY-1, HY-7), the quorum's continuity
//! derived from the record's presence events (section 3; HY-4), and the
//! deadline to enter the acta of an art. 19 meeting in the book (section
//! 7; HY-9).

use asamblea_rules::calendar::Date;
use asamblea_rules::{convening, Continuity, Modality, Moment, QuorumReading};

use super::{table, text, ActaSource, Block};
use crate::numfmt::{colombia_time, date_es, percent, thousands};

/// How the meeting was convened to be held, as `meeting-modality`
/// recorded it (presencial when the ledger has none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeldAs {
    /// Presencial, mixta or no presencial.
    pub modality: Modality,
    /// The remote channel, when there is one.
    pub remote: Option<RemoteLines>,
    /// The remote attendees whose identity the desk verified, by method
    /// (HY-7): each method in Spanish with how many, in the ledger's
    /// order of the methods; none counted are left out.
    pub verified: Vec<(String, u64)>,
    /// Every remote stay the daemon ended for want of heartbeats, in
    /// order (HY-5).
    pub lapses: Vec<LapseLine>,
    /// Every question and written statement sent from afar, in order of
    /// arrival (HY-7, C.Co Art. 189).
    pub floor: Vec<FloorLine>,
    /// A replicated meeting's nodes with their keys (hex), in order; none
    /// for a meeting served from one machine.
    pub nodes: Vec<NodeLine>,
    /// Every takeover: its record and the node that took the lead.
    pub takeovers: Vec<(u64, String)>,
}

/// A node of a replicated meeting (`node-enrolled`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeLine {
    /// Its name.
    pub node: String,
    /// Its daemon key, hex.
    pub key: String,
}

/// A remote stay ended because its heartbeats stopped (`presence-lapsed`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LapseLine {
    /// Its record.
    pub seq: u64,
    /// Its time, ms since the Unix epoch.
    pub at_ms: Option<u64>,
    /// Who: «Nombre (documento)».
    pub who: String,
    /// How long no heartbeat had come, in ms.
    pub silent_ms: u64,
}

/// A question or written statement sent from afar (`remote-submission`)
/// and what the chair did with it (`submission-handled`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloorLine {
    /// Its record.
    pub seq: u64,
    /// Its time, ms since the Unix epoch.
    pub at_ms: Option<u64>,
    /// Who: «Nombre (documento)».
    pub who: String,
    /// A written statement (else a question).
    pub statement: bool,
    /// The item it is about, by its title; none for the meeting as a whole.
    pub about: Option<String>,
    /// Its words.
    pub text: String,
    /// What the chair did, once recorded.
    pub outcome: Option<FloorOutcome>,
    /// The chair's note.
    pub note: String,
}

/// What the chair did with a submission (`submission-handled`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloorOutcome {
    /// Read aloud to the meeting.
    Read,
    /// Answered in the meeting.
    Answered,
    /// Not read, for the reason in the note.
    NotRead,
}

impl FloorOutcome {
    /// As the acta says it.
    pub fn spanish(self) -> &'static str {
        match self {
            FloorOutcome::Read => "leída",
            FloorOutcome::Answered => "respondida",
            FloorOutcome::NotRead => "no leída",
        }
    }
}

/// The remote channel as the notice stated it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteLines {
    /// The medium: the platform and its address.
    pub medium: String,
    /// The access instructions.
    pub access: String,
    /// The identity-verification procedure.
    pub identity_check: String,
    /// How the floor is given.
    pub floor: String,
    /// The legal representative delegated the identity check to the
    /// registration staff (OQ12).
    pub identity_delegated: bool,
}

/// Section 1's paragraph on the modality: for a mixed or non-presential
/// meeting, the medium, the access, the identity check (and who made it)
/// and the floor. Nothing for a presencial one.
pub(super) fn modality_blocks(held: &HeldAs) -> Vec<Block> {
    let Some(remote) = &held.remote else { return Vec::new() };
    let end = |words: &str| words.trim_end_matches('.').to_string();
    let who = if remote.identity_delegated {
        "El representante legal delegó la verificación de identidad de los asistentes a distancia en el personal de registro, como lo previó la convocatoria."
    } else {
        "La identidad de los asistentes a distancia la verificó el representante legal (Decreto 398 de 2020)."
    };
    vec![
        text(format!(
            "Modalidad: reunión {}, conforme al artículo 19 de la Ley 222 de 1995 y al Decreto 398 de 2020.{}",
            held.modality.spanish(),
            if held.modality.has_room() {
                " Los accionistas pudieron asistir en el lugar indicado o a distancia, por el medio que dijo la convocatoria."
            } else {
                " Los accionistas participaron a distancia, por el medio que dijo la convocatoria."
            }
        )),
        text(format!("Medio: {}.", end(&remote.medium))),
        text(format!("Instrucciones de acceso: {}.", end(&remote.access))),
        text(format!("Verificación de identidad: {}. {who} {}", end(&remote.identity_check), verified(&held.verified))),
        text(format!("Uso de la palabra: {}.", end(&remote.floor))),
    ]
}

/// How many remote attendees the desk verified, and how (HY-7): «Se
/// verificó la identidad de 3 asistentes a distancia: 2 por videollamada
/// y 1 por documento de identidad.»
fn verified(by_method: &[(String, u64)]) -> String {
    let all: u64 = by_method.iter().map(|(_, n)| n).sum();
    if all == 0 {
        return "No se verificó la identidad de ningún asistente a distancia.".to_string();
    }
    let parts: Vec<String> = by_method.iter().map(|(how, n)| format!("{} {how}", thousands(*n))).collect();
    let listed = match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} y {last}", rest.join(", ")),
        _ => parts.join(""),
    };
    format!(
        "Se verificó la identidad de {} {} a distancia: {listed}.",
        thousands(all),
        if all == 1 { "asistente" } else { "asistentes" }
    )
}

/// A reading in words: `401 acciones con voto de 2 accionistas, el
/// 66,72 %`.
fn reading(q: &QuorumReading) -> String {
    format!(
        "{} acciones con voto de {} {}, el {}",
        thousands(q.present.get()),
        thousands(u64::from(q.holders)),
        if q.holders == 1 { "accionista" } else { "accionistas" },
        percent(q.present.get(), q.voting_outstanding.get())
    )
}

/// A moment as `10:42` (Colombia), or its record's number when its time
/// is not known (a table's cell).
fn at(moment: Moment) -> String {
    moment.time_ms.map_or_else(|| format!("registro n.º {}", thousands(moment.seq)), |ms| colombia_time(ms).1)
}

/// A moment in a sentence: `las 10:42`, or `el registro n.º 5`.
fn at_the(moment: Moment) -> String {
    match moment.time_ms {
        Some(_) => format!("las {}", at(moment)),
        None => format!("el {}", at(moment)),
    }
}

/// A bound of an interval in a sentence, with its record (two moments
/// of one minute are told apart): `las 10:42 (registro n.º 5)`.
fn bound(moment: Moment) -> String {
    match moment.time_ms {
        Some(_) => format!("{} (registro n.º {})", at_the(moment), thousands(moment.seq)),
        None => at_the(moment),
    }
}

/// Section 3's statement of the quorum's continuity, in the law's words
/// when it held throughout, else each interval without it; and each
/// poll's lowest reading between its opening and its close.
pub(super) fn continuity_blocks(source: &ActaSource<'_>) -> Vec<Block> {
    let c: &Continuity = source.continuity;
    let m = source.meeting;
    let mut out = Vec::new();
    // The lowest reading in session, when it is not the installation's
    // own.
    let lowest = c
        .lowest
        .filter(|(when, _)| c.installation.is_none_or(|(installed, _)| installed.seq != when.seq))
        .map(|(when, q)| format!(" El mínimo en sesión fue de {}, a {}.", reading(&q), at_the(when)));
    let start = match c.installation {
        Some((when, q)) => format!("Al instalarse la reunión, a {}, había {}.", at_the(when), reading(&q)),
        None => "El libro no registra el acto de instalación: la continuidad se juzga mientras hubo votaciones abiertas."
            .to_string(),
    };
    if c.held_throughout() {
        out.push(text(format!(
            "Continuidad del quórum: según los registros de presencia del libro electrónico, el quórum se mantuvo para el inicio de la reunión, para su desarrollo y hasta su culminación (Decreto 398 de 2020). {start}{}",
            lowest.unwrap_or_default()
        )));
    } else if c.installation.is_none() && c.polls.is_empty() {
        out.push(text(
            "Continuidad del quórum: la reunión no se instaló ni abrió votaciones; el libro electrónico no muestra sesión sobre la cual declararla."
                .to_string(),
        ));
    } else {
        let gaps: Vec<String> = c
            .gaps
            .iter()
            .map(|g| {
                let until = g.to.map_or_else(|| "el final del registro".to_string(), bound);
                format!("desde {} hasta {}, con un mínimo de {}", bound(g.from), until, reading(&g.lowest))
            })
            .collect();
        out.push(text(format!(
            "Continuidad del quórum: según los registros de presencia del libro electrónico, el quórum NO se mantuvo durante toda la reunión. {start} {}",
            if gaps.is_empty() {
                "La reunión se instaló sin el quórum de esta convocatoria.".to_string()
            } else {
                format!("No hubo quórum {}.", gaps.join("; "))
            },
        )));
    }
    if !c.polls.is_empty() {
        let title_of = |id: &str| {
            source.agenda.iter().find(|(item, _)| item == id).map_or(id.to_string(), |(_, t)| t.clone())
        };
        let rows = c
            .polls
            .iter()
            .map(|p| {
                vec![
                    title_of(m.item(p.item).id()),
                    at(p.opened),
                    p.closed.map_or_else(|| "abierta".to_string(), at),
                    thousands(p.lowest.present.get()),
                    percent(p.lowest.present.get(), p.lowest.voting_outstanding.get()),
                    if p.lost { "NO" } else { "sí" }.to_string(),
                ]
            })
            .collect();
        out.push(text(
            "Quórum durante cada votación, de su apertura a su cierre (el mínimo de acciones con voto presentes):"
                .to_string(),
        ));
        out.push(table(
            &["Punto", "Apertura", "Cierre", "Mínimo de acciones", "% con voto", "Quórum todo el tiempo"],
            rows,
        ));
    }
    out
}

/// Section 3's remote stays ended for want of heartbeats (HY-5): how
/// many, and each one's record, time, person and silence.
pub(super) fn lapse_blocks(held: &HeldAs) -> Vec<Block> {
    if !held.modality.has_remote_channel() {
        return Vec::new();
    }
    if held.lapses.is_empty() {
        return vec![text(
            "Ninguna presencia a distancia se interrumpió por falta de señal de vida de la conexión."
                .to_string(),
        )];
    }
    let n = held.lapses.len() as u64;
    let rows = held
        .lapses
        .iter()
        .map(|l| {
            vec![
                thousands(l.seq),
                hour(l.at_ms),
                l.who.clone(),
                format!("{} s", thousands(l.silent_ms / 1_000)),
            ]
        })
        .collect();
    vec![
        text(format!(
            "{} {} a distancia se {} por falta de señal de vida de la conexión durante el plazo que fijó la convocatoria; el servicio registró cada salida y el quórum se recalculó en ese momento (una vuelta es una nueva llegada):",
            thousands(n),
            if n == 1 { "presencia" } else { "presencias" },
            if n == 1 { "interrumpió" } else { "interrumpieron" },
        )),
        table(&["Registro", "Hora", "Asistente", "Sin señal"], rows),
    ]
}

/// Section 6's written statements sent from afar, in full, and the
/// questions received from afar: how many and what was done with each
/// (HY-7, C.Co Art. 189). Nothing for a presencial meeting.
pub(super) fn floor_blocks(held: &HeldAs) -> Vec<Block> {
    if !held.modality.has_remote_channel() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let when =
        |l: &FloorLine| l.at_ms.map_or_else(String::new, |ms| format!(", a las {}", colombia_time(ms).1));
    let done = |l: &FloorLine| match handled(l) {
        Some(words) => format!("Trámite: {}.", words.trim_end_matches('.')),
        None => "Trámite: ninguno registrado.".to_string(),
    };
    let about = |l: &FloorLine| {
        l.about.as_ref().map_or_else(|| "la reunión en general".to_string(), |t| format!("«{t}»"))
    };
    let statements: Vec<&FloorLine> = held.floor.iter().filter(|l| l.statement).collect();
    if statements.is_empty() {
        out.push(text("No se enviaron constancias escritas a distancia.".to_string()));
    } else {
        out.push(text(format!(
            "Constancias escritas enviadas a distancia ({}):",
            thousands(statements.len() as u64)
        )));
        for l in statements {
            out.push(text(format!(
                "Registro n.º {}{} — {}, sobre {}:",
                thousands(l.seq),
                when(l),
                l.who,
                about(l)
            )));
            out.extend(l.text.lines().map(|line| text(line.to_string())));
            out.push(text(done(l)));
        }
    }
    let questions: Vec<&FloorLine> = held.floor.iter().filter(|l| !l.statement).collect();
    if questions.is_empty() {
        out.push(text("No se recibieron preguntas a distancia.".to_string()));
        return out;
    }
    let count =
        |outcome: FloorOutcome| questions.iter().filter(|l| l.outcome == Some(outcome)).count() as u64;
    let pending = questions.iter().filter(|l| l.outcome.is_none()).count() as u64;
    out.push(text(format!(
        "{} {} a distancia: {}, {}, {} y {} sin trámite registrado.",
        if questions.len() == 1 { "Se recibió" } else { "Se recibieron" },
        if questions.len() == 1 {
            "1 pregunta".to_string()
        } else {
            format!("{} preguntas", thousands(questions.len() as u64))
        },
        counted(count(FloorOutcome::Read), "leída", "leídas"),
        counted(count(FloorOutcome::Answered), "respondida", "respondidas"),
        counted(count(FloorOutcome::NotRead), "no leída", "no leídas"),
        thousands(pending),
    )));
    let rows = questions
        .iter()
        .map(|l| {
            vec![
                thousands(l.seq),
                hour(l.at_ms),
                l.who.clone(),
                about(l),
                l.text.clone(),
                handled(l).unwrap_or_else(|| "sin trámite".to_string()),
            ]
        })
        .collect();
    out.push(table(&["Registro", "Hora", "Asistente", "Sobre", "Pregunta", "Trámite"], rows));
    out
}

/// The annex's nodes of a replicated meeting and its takeovers: who could
/// sign the daemon's events and receipts, and who led from which record.
pub(super) fn nodes_blocks(held: &HeldAs) -> Vec<Block> {
    if held.nodes.is_empty() {
        return Vec::new();
    }
    let rows = held.nodes.iter().map(|n| vec![n.node.clone(), n.key.clone()]).collect();
    let takeovers = if held.takeovers.is_empty() {
        "El primer nodo lideró toda la reunión: no hubo tomas del liderazgo.".to_string()
    } else {
        let each: Vec<String> = held
            .takeovers
            .iter()
            .map(|(seq, node)| format!("{node} desde el registro n.º {}", thousands(*seq)))
            .collect();
        format!(
            "Tomas del liderazgo, cada una firmada por el nodo que tomó la reunión: {}. Los eventos del servicio de cada tramo los firmó el nodo que lo lideró; los recibos, el nodo que atendió cada papeleta.",
            each.join("; ")
        )
    };
    vec![
        text(format!(
            "La reunión se sirvió replicada en {} nodos, cada uno con su clave inscrita al convocarla (docs/replication.md):",
            thousands(held.nodes.len() as u64)
        )),
        table(&["Nodo", "Clave pública"], rows),
        text(takeovers),
    ]
}

/// A record's hour, `10:42`, or nothing when its time is not known.
fn hour(at_ms: Option<u64>) -> String {
    at_ms.map_or_else(String::new, |ms| colombia_time(ms).1)
}

/// «1 leída», «3 leídas», «0 leídas».
fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// What the chair did with a submission, with the note: «no leída:
/// repetida»; none when nothing was recorded.
fn handled(l: &FloorLine) -> Option<String> {
    let outcome = l.outcome?.spanish();
    Some(if l.note.is_empty() { outcome.to_string() } else { format!("{outcome}: {}", l.note) })
}

/// Section 7's deadline for entering the acta of an art. 19 meeting in
/// the book: 30 business days after the meeting's day, not counting it.
pub(super) fn deadline_block(held: &HeldAs, meeting_date: &str) -> Option<Block> {
    if !held.modality.has_remote_channel() {
        return None;
    }
    let day = Date::parse(meeting_date).ok()?;
    let deadline = convening::acta_book_deadline(day);
    Some(text(format!(
        "Por ser una reunión {}, del artículo 19 de la Ley 222 de 1995, esta acta debe asentarse en el libro de actas a más tardar el {} {}: dentro de los {} días hábiles siguientes a la reunión, sin contar el día de esta, ni los sábados, domingos y festivos de Colombia (Supersociedades, Concepto 220-97619 de 2016; C.Co. art. 829).",
        held.modality.spanish(),
        deadline.weekday().spanish(),
        date_es(&deadline.to_string()),
        convening::ACTA_BOOK_BUSINESS_DAYS,
    )))
}

#[cfg(test)]
mod verified_tests {
    #[test]
    fn the_verified_attendees_are_counted_by_method_in_words() {
        assert_eq!(super::verified(&[]), "No se verificó la identidad de ningún asistente a distancia.");
        assert_eq!(
            super::verified(&[("por videollamada".into(), 1)]),
            "Se verificó la identidad de 1 asistente a distancia: 1 por videollamada."
        );
        let three = [
            ("por documento de identidad".to_string(), 1_200),
            ("por videollamada".to_string(), 2),
            ("por el código de su carta de admisión, con otra prueba".to_string(), 1),
        ];
        assert_eq!(
            super::verified(&three),
            "Se verificó la identidad de 1.203 asistentes a distancia: 1.200 por documento de identidad, 2 por \
             videollamada y 1 por el código de su carta de admisión, con otra prueba."
        );
    }
}

#[cfg(test)]
mod floor_tests {
    use super::*;

    /// The questions' summary counts each outcome by what the chair
    /// recorded, and those with none apart.
    #[test]
    fn the_questions_are_counted_by_what_the_chair_did() {
        let question = |seq: u64, outcome: Option<FloorOutcome>| FloorLine {
            seq,
            at_ms: None,
            who: "Ana (CC-1)".into(),
            statement: false,
            about: None,
            text: "¿Cuándo?".into(),
            outcome,
            note: String::new(),
        };
        let held = HeldAs {
            modality: Modality::Mixed,
            remote: None,
            verified: Vec::new(),
            lapses: Vec::new(),
            floor: vec![
                question(1, Some(FloorOutcome::Read)),
                question(2, Some(FloorOutcome::Answered)),
                question(3, Some(FloorOutcome::Answered)),
                question(4, Some(FloorOutcome::NotRead)),
                question(5, None),
            ],
            nodes: Vec::new(),
            takeovers: Vec::new(),
        };
        let said: Vec<String> = floor_blocks(&held)
            .into_iter()
            .filter_map(|b| if let Block::Text(t) = b { Some(t) } else { None })
            .collect();
        assert!(
            said.iter().any(|t| t.contains(
                "Se recibieron 5 preguntas a distancia: 1 leída, 2 respondidas, 1 no leída y 1 sin trámite registrado."
            )),
            "{said:?}"
        );
    }
}
