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
    /// The notice: by what medium.
    pub convened_by: String,
    /// The notice's date.
    pub convened_on: String,
    /// The acta's number in the minute book, if the file gives it.
    pub number: Option<String>,
    /// Who chaired.
    pub chair: Option<String>,
    /// Who acted as secretary.
    pub secretary: Option<String>,
    /// How they were designated.
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

/// What the acta is made of.
pub struct ActaSource<'a> {
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
    /// The bundle's SHA-256, in hex.
    pub bundle_sha256: String,
    /// The daemon's public key, in hex.
    pub daemon_key: String,
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
}

mod attendees;
use attendees::{attendance_blocks, installed_how};

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
    let blank = "______________________";
    let mut out = vec![
        Block::Title(format!("ACTA DE LA ASAMBLEA GENERAL {} DE ACCIONISTAS", d.kind_es.to_uppercase())),
        Block::Centered(format!("{} — NIT {}", d.company, d.nit)),
        Block::Centered(format!(
            "Acta n.º {} (borrador generado del paquete de auditoría)",
            d.number.as_deref().unwrap_or("______")
        )),
        heading(1, "1. Fecha, hora, lugar y convocatoria"),
        text(format!(
            "La asamblea {kind} se convocó para el {date} a las {time} en {place}, {call}. Fue convocada por {by}, el {on}{ahead}.{installed}",
            kind = d.kind_es,
            date = crate::numfmt::date_es(&d.date),
            time = d.time,
            place = d.place,
            call = d.call_es,
            by = d.convened_by,
            on = crate::numfmt::date_es(&d.convened_on),
            ahead = match (
                crate::numfmt::days_between(&d.convened_on, &d.date),
                crate::numfmt::business_days_between(&d.convened_on, &d.date),
            ) {
                (Some(days), Some(business)) => {
                    format!(", con {days} días calendario ({business} días hábiles) de antelación")
                }
                _ => String::new(),
            },
            installed = source.installed.map_or_else(String::new, |i| format!(
                " Se instaló a las {}, hora de Colombia, {} (sección 4).",
                colombia_time(i.time_ms).1,
                installed_how(i)
            )),
        )),
        text(format!(
            "Presidió la reunión {} y actuó como secretario {}, {}.",
            d.chair.as_deref().unwrap_or(blank),
            d.secretary.as_deref().unwrap_or(blank),
            d.designated.as_deref().unwrap_or("designados por ______________________")
        )),
    ];

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

    // Each item of the agenda as convened, in its order, then any voted
    // that the notice did not list; an item never put to the vote says so.
    out.push(heading(1, "5. Desarrollo del orden del día"));
    let mut not_voted = Vec::new();
    let order = source.agenda.iter().map(|(id, _)| id.as_str()).chain(
        m.items().iter().map(|item| item.id()).filter(|id| !source.agenda.iter().any(|(a, _)| a == id)),
    );
    for id in order {
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
            Some(ItemResult::Election(e)) => out.extend(election_blocks(item, e)),
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
    if source.statements.is_empty() {
        out.push(text("No se presentaron constancias escritas.".to_string()));
    } else {
        for (item, person, words) in source.statements {
            out.push(text(format!("{} — {} ({person}):", title_of(item), name_of(person))));
            out.extend(words.lines().map(|line| text(line.to_string())));
        }
    }

    out.push(heading(1, "7. Cierre y firmas"));
    let (closing_day, closing_time) = colombia_time(source.last_ms);
    out.push(text(format!(
        "{} Fecha y hora de cierre: {}, a las {}, hora de Colombia, las del último registro del libro electrónico (n.º {}).",
        if not_voted.is_empty() {
            "Agotado el orden del día, se levantó la sesión.".to_string()
        } else if m.quorum_series().is_empty() && !m.quorum().this_call {
            "Sin el quórum de esta convocatoria no se votó el orden del día y se levantó la sesión (para una reunión de segunda convocatoria, C.Co. art. 429).".to_string()
        } else {
            format!("Se levantó la sesión sin votar {}.", not_voted.join(", "))
        },
        date_es(&closing_day),
        closing_time,
        thousands(source.last.0)
    )));
    out.push(table(
        &["Presidente", "Secretario", "Comisión aprobatoria", "Comisión aprobatoria"],
        vec![
            vec![blank.to_string(); 4],
            [d.chair.as_ref(), d.secretary.as_ref(), d.commission.first(), d.commission.get(1)]
                .map(|name| name.cloned().unwrap_or_else(|| "Nombre:".to_string()))
                .to_vec(),
        ],
    ));

    out.push(heading(1, "Anexo: verificación del registro"));
    out.push(text(format!(
        "Último evento del registro: n.º {}; cabeza de la cadena: {}.",
        thousands(source.last.0),
        source.last.1
    )));
    out.push(text(format!("SHA-256 del paquete de auditoría: {}.", source.bundle_sha256)));
    out.push(text(format!("Clave pública del servicio: {}.", source.daemon_key)));
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
