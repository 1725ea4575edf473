//! The acta (minutes) draft as a Word document the secretary edits and
//! the chair, the secretary and the approval commission sign (C.Co Arts.
//! 189 and 431; `rules.md` R19). A pure function of what a verified audit
//! bundle holds: the meeting the rules folded, the meeting file and the
//! holders' names the ledger recorded, the agents and their powers, the
//! refused proxies, the written statements, the lots, and the bundle's own
//! fingerprint for the annex. The same bundle gives the same bytes (the
//! document's dates are the meeting's, the archive's times fixed).
//!
//! The acta's content is written once, as [`Block`]s ([`blocks`]); each
//! format renders them. As DOCX ([`crate::docx::acta`]) its headings, tables and page
//! numbers are the word processor's own (`docx-rs`), so the secretary edits
//! a document, not a picture of one; as PDF ([`crate::pdf::acta`]) it is
//! text with its fonts embedded, on Carta or A4. (`typst` with `typst-pdf`
//! was measured for the PDF: 452 s of cold release build here, more than
//! three times this whole workspace; krilla, which it builds on, 105 s.)

use asamblea_rules::{Attendance, ItemResult, Meeting, PollMoment};

mod opening;
use opening::{date_place_and_convening, signers};

use crate::attendance::{class_heading_es, classes};
use crate::explain::figure;
use crate::numfmt::{colombia_time, date_es, percent, thousands};

/// The meeting as its file describes it.
pub struct Described {
    /// The company.
    pub company: String,
    /// Its tax id (NIT).
    pub nit: String,
    /// `ordinaria` or `extraordinaria`.
    pub kind_es: String,
    /// How it was called, in words.
    pub call_es: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// `HH:MM`.
    pub time: String,
    /// Where.
    pub place: String,
    /// The notice: by what medium (`None` for a meeting by own right or a
    /// universal one that gave none).
    pub convened_by: Option<String>,
    /// The notice's date, `YYYY-MM-DD`.
    pub convened_on: Option<String>,
    /// A universal meeting (C.Co. art. 426): no notice, every subscribed
    /// share represented.
    pub universal: bool,
    /// The matter of each item of the agenda convened, in its order (the
    /// notice each asks: `asamblea_rules::convening`).
    pub matters: Vec<asamblea_rules::MatterKind>,
    /// The acta's number in the minute book, if the file gives it.
    pub number: Option<String>,
    /// Who chaired.
    pub chair: Option<String>,
    /// Who acted as secretary.
    pub secretary: Option<String>,
    /// The chair's title in its gender (`presidente`, `presidenta`), if
    /// the file gives it.
    pub chair_title: Option<String>,
    /// The secretary's title (`secretario`, `secretaria`), if given.
    pub secretary_title: Option<String>,
    /// How they were designated: a sentence of its own.
    pub designated: Option<String>,
    /// The approval commission.
    pub commission: Vec<String>,
}

/// An agent as checked in: who, in what capacity, for whom, with what
/// power.
pub struct AgentLine {
    /// The agent.
    pub agent: String,
    /// `apoderado` or `representante legal`.
    pub capacity_es: String,
    /// The holders represented.
    pub principals: Vec<String>,
    /// The power's reference.
    pub power: String,
}

/// A place on the whole agenda: id, title, and whether it is informative
/// (read, reported or discussed without a vote).
pub struct AgendaLine {
    /// The item's id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Never voted.
    pub informative: bool,
}

/// A step of the chair's sessions as the ledger recorded it.
pub struct SessionLine {
    /// Which step.
    pub step: asamblea_rules::SessionStep,
    /// Its record's number.
    pub seq: u64,
    /// Its record's time.
    pub at_ms: u64,
    /// The chair's note.
    pub note: String,
    /// The quorum then.
    pub quorum: asamblea_rules::QuorumReading,
}

/// What the acta is made of.
pub struct ActaSource<'a> {
    /// The whole agenda in its order (`agenda-convened`); empty for a
    /// meeting convened before it was recorded (then `agenda` is all).
    pub whole_agenda: &'a [AgendaLine],
    /// The steps of the sessions, in order (none before they existed).
    pub sessions: &'a [SessionLine],
    /// Each election's lists with their candidates, by item id.
    pub candidates: &'a [(String, Vec<asamblea_api::public::ListCandidates>)],
    /// The meeting, every event folded in.
    pub meeting: &'a Meeting,
    /// The meeting file's facts.
    pub described: &'a Described,
    /// The agenda as convened: id and title, in order.
    pub agenda: &'a [(String, String)],
    /// The holders' names in the register's order.
    pub names: &'a [String],
    /// The agents admitted, in order.
    pub agents: &'a [AgentLine],
    /// Every arrival and departure as it happened, with the record of
    /// each and who attended for each person (`attendee-named`).
    pub attendance: &'a Attendance,
    /// When the meeting was installed, if known.
    pub installed: Option<Installed>,
    /// Proxies refused: agent, principals, reason in words, power.
    pub refused: &'a [(String, Vec<String>, String, String)],
    /// The powers lodged before the meeting, in the order lodged.
    pub powers: &'a [crate::powers::PowerLine],
    /// Written statements: item, author, words.
    pub statements: &'a [(String, String, String)],
    /// Lots drawn: item, round, seed (hex), winner.
    pub lots: &'a [(String, u32, String, String)],
    /// The ledger's last record and head.
    pub last: (u64, String),
    /// The ledger time (ms since the epoch) of each poll's opening and
    /// closing, in the order of the meeting's quorum series.
    pub poll_times: &'a [u64],
    /// The ledger time of the last record: the acta's closing time.
    pub last_ms: u64,
    /// The meeting's poll timing (`polls-timed`: minimum open time and
    /// countdown, ms), when its ledger records one.
    pub poll_timing: Option<(u64, u64)>,
    /// Each poll's opening, announced close and close, in the agenda's
    /// order.
    pub poll_clocks: &'a [PollClock],
    /// The bundle's SHA-256, in hex.
    pub bundle_sha256: String,
    /// The daemon's public key, in hex.
    pub daemon_key: String,
    /// How the meeting was convened to be held (`meeting-modality`).
    pub held_as: &'a HeldAs,
    /// The quorum's continuity, derived from the record's presence events
    /// (`asamblea_rules::continuity`).
    pub continuity: &'a asamblea_rules::Continuity,
}

/// The moment the meeting was installed: a record, its time, and how it
/// is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Installed {
    /// The record's number.
    pub seq: u64,
    /// Its time (ms since the Unix epoch).
    pub time_ms: u64,
    /// `true` when the record is the chair's act of installation; `false`
    /// when it is the first poll's opening, taken in its place.
    pub recorded: bool,
}

/// One block of the acta, as every format lays it out: written once here
/// ([`blocks`]), rendered as DOCX ([`crate::docx::acta`]) and PDF
/// ([`crate::pdf::acta`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// The document's title.
    Title(String),
    /// A centred line under the title.
    Centered(String),
    /// A heading of level 1 or 2.
    Heading(u8, String),
    /// A paragraph.
    Text(String),
    /// A paragraph opening with words in bold.
    Lead(String, String),
    /// A table: its heading row, then its rows.
    Table(Vec<String>, Vec<Vec<String>>),
    /// The signatures: for each signer, room to sign by hand, a line to
    /// sign on, and under it the name (or a blank to write it) and the
    /// capacity; two signers abreast.
    Signatures(Vec<Signer>),
}

/// One signer of the acta.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signer {
    /// The name, if the meeting file gives it.
    pub name: Option<String>,
    /// In what capacity they sign: «Presidenta de la reunión».
    pub capacity: String,
}

mod attendees;
mod held;
mod powers;
mod timing;
use attendees::attendance_blocks;
pub use held::{FloorLine, FloorOutcome, HeldAs, LapseLine, NodeLine, RemoteLines};
pub use timing::PollClock;

fn heading(level: u8, text: &str) -> Block {
    Block::Heading(level, text.to_string())
}

fn text(words: String) -> Block {
    Block::Text(words)
}

fn table(header: &[&str], rows: Vec<Vec<String>>) -> Block {
    Block::Table(header.iter().map(|h| h.to_string()).collect(), rows)
}

/// The acta, block by block, in order.
pub fn blocks(source: &ActaSource<'_>) -> Vec<Block> {
    let m = source.meeting;
    let d = source.described;
    let name_of = |id: &str| {
        m.register().lookup(id).and_then(|at| source.names.get(at.get())).cloned().unwrap_or_default()
    };
    let title_of = |id: &str| {
        source.agenda.iter().find(|(item, _)| item == id).map_or(id.to_string(), |(_, t)| t.clone())
    };
    let mut out = vec![
        Block::Title(format!("ACTA DE LA ASAMBLEA GENERAL {} DE ACCIONISTAS", d.kind_es.to_uppercase())),
        Block::Centered(format!("{} — NIT {}", d.company, d.nit)),
        Block::Centered(format!(
            "Acta n.º {} (borrador generado del paquete de auditoría)",
            d.number.as_deref().unwrap_or("______")
        )),
        heading(1, "1. Fecha, hora, lugar y convocatoria"),
    ];
    out.extend(date_place_and_convening(source));

    let capital = m.register().capital();
    let class_row = |name: &str, c: asamblea_rules::ClassCapital| {
        vec![
            name.to_string(),
            thousands(c.subscribed().get()),
            thousands(c.treasury().get()),
            thousands(c.outstanding().get()),
        ]
    };
    let classes = classes(m);
    out.push(heading(1, "2. Capital"));
    out.push(table(
        &["Clase", "Suscritas", "Readquiridas", "En circulación"],
        classes.iter().map(|&class| class_row(&class_heading_es(class), capital.of(class))).collect(),
    ));

    // The quorum at each poll's open and close (Decreto 398/2020).
    let rule = crate::quorum::quorum_rule_text(m);
    // The ledger's times as `HH:MM`, Colombia's time; the days they fell
    // on are said once when any is not the day convened (a rehearsal, a
    // simulation, a meeting past midnight).
    let clock = |ms: u64| colombia_time(ms).1;
    let arrivals = source.attendance.stays().iter().filter_map(|stay| stay.arrived.time_ms);
    let mut days: Vec<String> = source
        .poll_times
        .iter()
        .copied()
        .chain([source.last_ms])
        .chain(arrivals)
        .map(|ms| colombia_time(ms).0)
        .collect();
    days.sort();
    days.dedup();
    let other_days = days.iter().any(|day| *day != d.date);
    let series: Vec<Vec<String>> = m
        .quorum_series()
        .iter()
        .enumerate()
        .map(|(n, p)| {
            vec![
                title_of(m.item(p.item).id()),
                if p.moment == PollMoment::Opened { "apertura" } else { "cierre" }.to_string(),
                source.poll_times.get(n).map_or_else(String::new, |&ms| clock(ms)),
                thousands(p.quorum.present.get()),
                percent(p.quorum.present.get(), p.quorum.voting_outstanding.get()),
                thousands(u64::from(p.quorum.holders)),
                if p.quorum.this_call { "sí" } else { "NO" }.to_string(),
            ]
        })
        .collect();
    out.push(heading(1, "3. Quórum"));
    out.push(text(format!("Quórum de esta convocatoria: {} ({}).", rule.es, rule.source)));
    if !series.is_empty() {
        out.push(table(
            &["Punto", "Momento", "Hora", "Acciones presentes", "% con voto", "Accionistas", "Quórum"],
            series,
        ));
    }
    out.extend(timing::timing_blocks(source.poll_timing, source.poll_clocks));
    if other_days {
        let named: Vec<String> = days.iter().map(|day| date_es(day)).collect();
        out.push(text(format!(
            "Las horas son las del libro electrónico, hora de Colombia, registradas el {}.",
            named.join(" y el ")
        )));
    }
    // Who was present at each point, class by class (the percentages
    // without their sign, which the heading carries: a narrow column
    // keeps each on one line).
    let outstanding = capital.outstanding();
    let by_class: Vec<Vec<String>> = m
        .quorum_series()
        .iter()
        .map(|p| {
            let mut row = vec![
                title_of(m.item(p.item).id()),
                if p.moment == PollMoment::Opened { "apertura" } else { "cierre" }.to_string(),
            ];
            for &class in &classes {
                let shares = p.by_class.shares.of(class).get();
                let holders = match class {
                    asamblea_rules::ShareClass::Ordinary => p.by_class.ordinary_holders,
                    asamblea_rules::ShareClass::Preferred => p.by_class.preferred_holders,
                };
                row.extend([
                    thousands(shares),
                    percent(shares, outstanding.of(class).get()).trim_end_matches(" %").to_string(),
                    thousands(u64::from(holders)),
                ]);
            }
            row
        })
        .collect();
    // Its continuity in words: at the first poll's opening and at the
    // last one's close.
    let reading = |q: &asamblea_rules::QuorumReading| {
        format!(
            "{} acciones con voto de {} accionistas, el {} de las acciones con derecho a voto, {}",
            thousands(q.present.get()),
            thousands(u64::from(q.holders)),
            percent(q.present.get(), q.voting_outstanding.get()),
            if q.this_call { "con quórum" } else { "SIN quórum" }
        )
    };
    let points = m.quorum_series();
    if let (Some(first), Some(last)) = (points.first(), points.last()) {
        let at = |n: usize| {
            source.poll_times.get(n).map_or_else(String::new, |&ms| format!(", a las {}", clock(ms)))
        };
        out.push(text(format!(
            "Al abrirse la primera votación{} («{}»), había {}. Al cerrarse la última{} («{}»), había {}.",
            at(0),
            title_of(m.item(first.item).id()),
            reading(&first.quorum),
            at(points.len() - 1),
            title_of(m.item(last.item).id()),
            reading(&last.quorum),
        )));
    } else {
        out.push(text(format!(
            "No se abrió ninguna votación. Al levantarse la sesión había {}.",
            reading(&m.quorum())
        )));
    }
    out.extend(held::continuity_blocks(source));
    out.extend(held::lapse_blocks(source.held_as));
    if !by_class.is_empty() {
        out.push(text(
            "Presentes por clase de acción (porcentajes de las acciones en circulación de cada clase):"
                .to_string(),
        ));
        let mut header = vec!["Punto".to_string(), "Momento".to_string()];
        for &class in &classes {
            header.extend([class_heading_es(class), "%".to_string(), "Accionistas".to_string()]);
        }
        out.push(Block::Table(header, by_class));
    }

    out.extend(attendance_blocks(source, &classes));
    out.extend(powers::blocks(m, source.names, source.powers));

    // Each item of the agenda as convened, in its order, then any voted
    // that the notice did not list; an item never put to the vote says so.
    out.push(heading(1, "5. Desarrollo del orden del día"));
    let mut not_voted = Vec::new();
    let order: Vec<&str> = if source.whole_agenda.is_empty() {
        source.agenda.iter().map(|(id, _)| id.as_str()).collect()
    } else {
        source.whole_agenda.iter().map(|line| line.id.as_str()).collect()
    };
    let extra = m.items().iter().map(|item| item.id()).filter(|id| !order.contains(id)).collect::<Vec<_>>();
    for id in order.into_iter().chain(extra) {
        // An informative item: in its place, never voted.
        if let Some(line) = source.whole_agenda.iter().find(|line| line.id == id && line.informative) {
            out.push(heading(2, &line.title));
            out.push(text("Punto informativo: se trató sin someterse a votación.".to_string()));
            continue;
        }
        let Some(item) = m.items().iter().find(|item| item.id() == id && item.is_closed()) else {
            out.push(heading(2, &title_of(id)));
            let open = m.items().iter().any(|item| item.id() == id);
            out.push(text(
                if open {
                    "La votación de este punto se abrió y no se cerró: no hay resultado."
                } else {
                    "Este punto no se sometió a votación."
                }
                .to_string(),
            ));
            not_voted.push(format!("«{}»", title_of(id)));
            continue;
        };
        let rule = crate::rule_text::rule_text(m.profile(), item.matter(), m.kind());
        out.push(heading(2, &title_of(item.id())));
        out.push(text(format!("Asunto: {}. Regla: {} ({}).", item.matter().spanish(), rule.es, rule.source)));
        match item.result() {
            Some(ItemResult::Decision(r)) => {
                let row = |label: &str, shares: u64| {
                    vec![label.to_string(), thousands(shares), percent(shares, r.base.get())]
                };
                let mut rows = vec![
                    row(figure("for").es, r.for_votes.get()),
                    row(figure("against").es, r.against.get()),
                    row(figure("blank").es, r.blank.get()),
                    row(figure("abstain").es, r.abstain.get()),
                ];
                // A base of shares subscribed or outstanding holds shares
                // that were not there to vote: said, so the rows add up.
                let voted = r.for_votes.get() + r.against.get() + r.blank.get() + r.abstain.get();
                if r.base.get() > voted {
                    rows.push(row("No presentes o sin votar (en la base)", r.base.get() - voted));
                }
                rows.push(row(&format!("{} de la decisión", figure("base").es), r.base.get()));
                rows.push(vec![
                    format!("{} (fuera de la base)", figure("impeded").es),
                    thousands(r.impeded.get()),
                    String::new(),
                ]);
                out.push(table(&["", "Acciones", "% de la base"], rows));
            }
            Some(ItemResult::Election(e)) => {
                out.extend(election_blocks(item, e));
                // The candidates each list carried, and who took each seat.
                if let Some((_, lists)) = source.candidates.iter().find(|(id, _)| id == item.id()) {
                    let rows = lists
                        .iter()
                        .flat_map(|list| {
                            list.candidates.iter().enumerate().map(|(n, c)| {
                                vec![
                                    list.list.clone(),
                                    (n + 1).to_string(),
                                    c.principal.clone(),
                                    c.suplente.clone(),
                                ]
                            })
                        })
                        .collect();
                    out.push(text("Candidatos inscritos en cada lista, en su orden:".to_string()));
                    out.push(table(&["Lista", "Renglón", "Principal", "Suplente"], rows));
                    let seats = crate::explain::elected(e, lists);
                    if !seats.is_empty() {
                        let rows = seats
                            .iter()
                            .map(|seat| {
                                let (principal, suplente) = seat.candidate.as_ref().map_or_else(
                                    || {
                                        (
                                            "(la lista no inscribió candidato para este puesto)".to_string(),
                                            String::new(),
                                        )
                                    },
                                    |c| (c.principal.clone(), c.suplente.clone()),
                                );
                                vec![seat.list.clone(), seat.seat.to_string(), principal, suplente]
                            })
                            .collect();
                        out.push(text("Fueron elegidos:".to_string()));
                        out.push(table(&["Lista", "Puesto de la lista", "Principal", "Suplente"], rows));
                    }
                }
            }
            None => {}
        }
        if let Some(ItemResult::Election(_)) = item.result() {
            for (_, round, seed, winner) in source.lots.iter().filter(|(lot, ..)| lot == item.id()) {
                out.push(text(format!(
                    "Sorteo {}: el puesto fue para {winner}; semilla, la cabeza de la cadena tras el cierre: {seed}.",
                    round + 1
                )));
            }
        }
        let decision = crate::explain::outcome_es(item);
        // The decision is said first; the why, without repeating it, as a
        // sentence of its own.
        let why = crate::explain::why(m, item).map(|(es, _)| es).unwrap_or_default();
        let why = ["aprobado: ", "no aprobado: ", "elegidos: ", "elegido: "]
            .iter()
            .find_map(|p| why.strip_prefix(p))
            .unwrap_or(&why);
        let mut chars = why.chars();
        let why: String = chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default();
        out.push(Block::Lead(format!("Decisión: {decision}."), format!("{why}.")));
        if let Some(ItemResult::Decision(r)) = item.result() {
            if let Some(list) = &r.withdrawal {
                let rows: Vec<Vec<String>> = list
                    .iter()
                    .map(|&at| {
                        let h = m.register().holder(at);
                        vec![
                            h.id().to_string(),
                            name_of(h.id()),
                            thousands(h.holdings().total().get()),
                            crate::explain::withdrawal_reason(item, at).to_string(),
                        ]
                    })
                    .collect();
                out.push(text(
                    "Pueden ejercer el derecho de retiro los accionistas ausentes y los disidentes (Ley 222 de 1995, arts. 12 a 17), dentro de los ocho días siguientes a la decisión (art. 14):"
                        .to_string(),
                ));
                out.push(table(&["Documento", "Nombre", "Acciones", "Motivo"], rows));
            }
        }
    }

    out.push(heading(1, "6. Constancias escritas"));
    if source.statements.is_empty() && source.held_as.modality.has_remote_channel() {
        out.push(text("No se presentaron constancias escritas en la sala.".to_string()));
    } else if source.statements.is_empty() {
        out.push(text("No se presentaron constancias escritas.".to_string()));
    } else {
        for (item, person, words) in source.statements {
            out.push(text(format!("{} — {} ({person}):", title_of(item), name_of(person))));
            out.extend(words.lines().map(|line| text(line.to_string())));
        }
    }
    out.extend(held::floor_blocks(source.held_as));

    out.push(heading(1, "7. Cierre y firmas"));
    // The sessions: installed, suspended, resumed, adjourned, each with
    // its day, hour and the quorum then (C.Co. arts. 430 and 431).
    if !source.sessions.is_empty() {
        let rows = source
            .sessions
            .iter()
            .map(|s| {
                let (day, time) = colombia_time(s.at_ms);
                vec![
                    s.step.spanish().to_string(),
                    date_es(&day),
                    time,
                    thousands(s.quorum.present.get()),
                    percent(s.quorum.present.get(), s.quorum.voting_outstanding.get()),
                    if s.quorum.this_call { "sí" } else { "NO" }.to_string(),
                    s.note.clone(),
                ]
            })
            .collect();
        out.push(heading(2, "Sesiones"));
        out.push(table(
            &[
                "Acto de la presidencia",
                "Fecha",
                "Hora",
                "Acciones presentes",
                "% con voto",
                "Quórum",
                "Nota",
            ],
            rows,
        ));
    }
    let adjourned = source.sessions.iter().rfind(|s| s.step == asamblea_rules::SessionStep::Adjourned);
    let (closing_day, closing_time) = colombia_time(adjourned.map_or(source.last_ms, |s| s.at_ms));
    let closing_source = if adjourned.is_some() {
        "las del levantamiento de la sesión en el libro electrónico"
    } else {
        "las del último registro del libro electrónico, pues no se registró el levantamiento de la sesión"
    };
    out.push(text(format!(
        "{} Fecha y hora de cierre: {}, a las {}, hora de Colombia, {closing_source} (n.º {}).",
        if not_voted.is_empty() {
            "Agotado el orden del día, se levantó la sesión.".to_string()
        } else if m.quorum_series().is_empty() && !m.quorum().this_call {
            "Sin el quórum de esta convocatoria no se votó el orden del día y se levantó la sesión (para una reunión de segunda convocatoria, C.Co. art. 429).".to_string()
        } else {
            format!("Se levantó la sesión sin votar {}.", not_voted.join(", "))
        },
        date_es(&closing_day),
        closing_time,
        thousands(adjourned.map_or(source.last.0, |s| s.seq))
    )));
    out.extend(held::deadline_block(source.held_as, &d.date));
    out.push(Block::Signatures(signers(d)));

    out.push(heading(1, "Anexo: verificación del registro"));
    out.push(text(format!(
        "Último evento del registro: n.º {}; cabeza de la cadena: {}.",
        thousands(source.last.0),
        source.last.1
    )));
    out.push(text(format!("SHA-256 del paquete de auditoría: {}.", source.bundle_sha256)));
    out.push(text(format!("Clave pública del servicio: {}.", source.daemon_key)));
    out.extend(held::nodes_blocks(source.held_as));
    out.push(text(format!(
        "Cualquier accionista con el paquete lo verifica sin confiar en este documento: asamblea verify paquete.bundle --daemon-key {} --checkpoint {}:{}",
        source.daemon_key, source.last.0, source.last.1
    )));
    out
}

/// An election's votes as the acta gives them (C.Co. arts. 197 and 431):
/// each list's votes with its seats by quotient and by remainder, the blank
/// votes (which count only for the quotient) and the valid votes in all;
/// for a single seat, each candidate's votes against the base of the
/// decision, with the blank votes in it.
fn election_blocks(item: &asamblea_rules::Item, e: &asamblea_rules::ElectionResult) -> Vec<Block> {
    let lists = crate::explain::lists(item, e);
    let blank = figure("blank").es;
    if item.majority() == asamblea_rules::Majority::SingleSeat {
        let row =
            |label: &str, votes: u64| vec![label.to_string(), thousands(votes), percent(votes, e.base.get())];
        let mut rows: Vec<Vec<String>> = lists.iter().map(|l| row(&l.list, l.votes)).collect();
        rows.push(row(blank, e.blank.get()));
        // Present and not voting for anyone: in the base all the same.
        let voted = e.valid.get();
        if e.base.get() > voted {
            rows.push(row("Presentes sin votar (en la base)", e.base.get() - voted));
        }
        rows.push(row(&format!("{} de la decisión", figure("base").es), e.base.get()));
        return vec![table(&["Candidato", "Votos", "% de la base"], rows)];
    }
    let mut rows: Vec<Vec<String>> = lists
        .into_iter()
        .map(|l| {
            vec![
                l.list,
                thousands(l.votes),
                thousands(l.by_quotient),
                l.remainder,
                thousands(l.by_remainder),
                thousands(u64::from(l.seats)),
            ]
        })
        .collect();
    rows.push(vec![
        format!("{blank} (solo para el cuociente)"),
        thousands(e.blank.get()),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
    ]);
    let seats: u32 = e.seats.iter().flatten().sum();
    rows.push(vec![
        "Votos válidos".to_string(),
        thousands(e.valid.get()),
        String::new(),
        String::new(),
        String::new(),
        thousands(u64::from(seats)),
    ]);
    vec![table(&["Lista", "Votos", "Por cuociente", "Residuo", "Por residuo", "Puestos"], rows)]
}
