//! The tallies made from an audit bundle: the bundle verified with nothing
//! from outside, then its events read once more for each ballot's choice,
//! and `asamblea_documents::tables` over the meeting they fold into. No
//! figure comes from anywhere but the bundle, and a bundle that does not
//! verify gives no tables. The command line (`asamblea export-results`)
//! and the secretary's console (`GET /api/v1/exports/…`) both call this.

use std::fs::File;
use std::io::{Read as _, Seek as _};

use asamblea_documents::pdf;
use asamblea_documents::tables::{self, Table};
use asamblea_rules::OptionIndex;
use asamblea_wire::{Choice, EventBody};
use serde_json::{json, Value};

/// Tables made from a bundle, with what the exports say beside them.
pub struct Report {
    /// Items, holders, attendance, withdrawal.
    pub tables: Vec<Table>,
    /// The meeting as its file describes it (`null` for a ledger written
    /// before the file was recorded).
    pub meeting: Value,
    /// What was verified: records, the last head.
    pub verified: Value,
    /// The company and date, for a workbook's title.
    pub title: String,
    /// The meeting's date (year, month, day), a workbook's date.
    pub date: (u16, u8, u8),
    /// What the bundle lacks for the documents, in words (names, the
    /// meeting file); empty when nothing.
    pub missing: Vec<String>,
}

/// Why no tables were made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The bundle does not verify: no document is made from it.
    #[error("el paquete no verifica; no se hace ningún documento con él / the bundle does not verify, so no document is made from it: {0}")]
    NotVerified(String),
    /// The bundle could not be read.
    #[error("{0}")]
    Unreadable(String),
}

/// A choice in words: `a favor`, `en contra`, `en blanco`, a list's name,
/// or a split (`a favor 100 · en contra 50`).
fn words(item: &asamblea_rules::Item, choice: &Choice) -> String {
    let name = |option: OptionIndex| asamblea_documents::explain::option_words_lower(item, option);
    match choice {
        Choice::Whole(option) => name(*option),
        Choice::Split(parts) => parts
            .iter()
            .map(|p| format!("{} {}", name(p.option), p.shares.get()))
            .collect::<Vec<_>>()
            .join(" · "),
    }
}

/// What a verified bundle holds for the documents.
struct Gathered {
    verified: asamblea_ledger::Verified,
    state: asamblea_ledger::State,
    /// Each ballot's choice in words, by item and holder.
    choices: Vec<Vec<Option<String>>>,
    /// The agents admitted, in order.
    agents: Vec<asamblea_documents::acta::AgentLine>,
    /// The ledger time of each poll's opening and closing, in the order of
    /// the quorum series.
    poll_times: Vec<u64>,
    /// The last record's ledger time.
    last_ms: u64,
    /// The first poll's opening: its record and time.
    first_opened: Option<(u64, u64)>,
}

/// The bundle in `bundle`, verified with nothing from outside, then read
/// once more for each ballot's choice and each agent's power.
fn gather(bundle: &File, progress: &mut dyn FnMut(u64, u64)) -> Result<Gathered, ReportError> {
    let options = asamblea_ledger::VerifyOptions::bundle_alone(&asamblea_venue::profiles::load_profile);
    let (verified, state) = asamblea_ledger::verify_bundle_state(rewound(bundle)?, &options, progress)
        .map_err(|e| ReportError::NotVerified(e.to_string()))?;
    let meeting =
        state.meeting().ok_or_else(|| ReportError::NotVerified("the register was never imported".into()))?;
    let mut choices: Vec<Vec<Option<String>>> =
        vec![vec![None; meeting.register().len()]; meeting.items().len()];
    let mut agents = Vec::new();
    let mut poll_times = Vec::new();
    let mut last_ms = 0;
    let mut first_opened = None;
    asamblea_ledger::for_each_event(rewound(bundle)?, progress, |record| {
        last_ms = record.time_ms;
        if first_opened.is_none() && matches!(record.event.body, EventBody::ItemOpened { .. }) {
            first_opened = Some((record.seq, record.time_ms));
        }
        gather_event(meeting, &record.event.body, record.time_ms, &mut choices, &mut agents, &mut poll_times);
    })
    .map_err(|e| ReportError::Unreadable(e.to_string()))?;
    Ok(Gathered { verified, state, choices, agents, poll_times, last_ms, first_opened })
}

/// The bundle's file read from its start again: each pass (verify, the
/// choices, the digest) reads it whole, from one open file — a named file
/// the caller opened, or a temporary one that has no name to open again.
fn rewound(bundle: &File) -> Result<&File, ReportError> {
    let mut reader = bundle;
    reader.seek(std::io::SeekFrom::Start(0)).map_err(|e| {
        ReportError::Unreadable(format!("el paquete no se puede leer / the bundle cannot be read: {e}"))
    })?;
    Ok(bundle)
}

/// What one event adds to the documents' gathering.
fn gather_event(
    meeting: &asamblea_rules::Meeting,
    body: &EventBody,
    time_ms: u64,
    choices: &mut [Vec<Option<String>>],
    agents: &mut Vec<asamblea_documents::acta::AgentLine>,
    poll_times: &mut Vec<u64>,
) {
    match body {
        EventBody::Ballot(ballot) => {
            let Some(at) = meeting.item_index(ballot.item.as_str()) else { return };
            for vote in &ballot.votes {
                if let Some(holder) = meeting.register().lookup(vote.holder.as_str()) {
                    choices[at.get()][holder.get()] = Some(words(meeting.item(at), &vote.choice));
                }
            }
        }
        EventBody::CheckedInAgent(arrival) => agents.push(asamblea_documents::acta::AgentLine {
            agent: arrival.agent.as_str().to_string(),
            capacity_es: match arrival.capacity {
                asamblea_rules::Capacity::Proxy => "apoderado".to_string(),
                asamblea_rules::Capacity::LegalRepresentative => "representante legal".to_string(),
            },
            principals: arrival.principals.iter().map(|p| p.as_str().to_string()).collect(),
            power: arrival.power_document.as_str().to_string(),
        }),
        EventBody::ItemOpened { .. } | EventBody::ItemClosed { .. } => poll_times.push(time_ms),
        _ => {}
    }
}

/// The SHA-256 of a file, read a slice at a time.
fn sha256_of(mut file: &File) -> std::io::Result<asamblea_wire::Digest> {
    use sha2::Digest as _;
    let mut hasher = sha2::Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            return Ok(asamblea_wire::Digest(hasher.finalize().into()));
        }
        hasher.update(&buffer[..n]);
    }
}

/// The holders' names in register order (empty where the bundle has none),
/// and the meeting file's facts, with what is missing said in words.
fn described(
    state: &asamblea_ledger::State,
    missing: &mut Vec<String>,
) -> (Vec<String>, Option<asamblea_venue::meeting_config::MeetingConfig>) {
    let holders = state.meeting().map_or(0, |m| m.register().len());
    let mut names: Vec<String> = state.names().iter().map(|n| n.as_str().to_string()).collect();
    if names.len() < holders {
        missing.push(
            "el paquete no trae los nombres de los accionistas (un registro anterior a que se guardaran) / \
             the bundle holds no holders' names"
                .to_string(),
        );
        names.resize(holders, String::new());
    }
    let config =
        match state.description().map(|text| asamblea_venue::meeting_config::parse("meeting.toml", text)) {
            Some(Ok(config)) => Some(config),
            Some(Err(e)) => {
                missing.push(format!(
                    "el archivo de la reunión no se puede leer / the meeting file cannot be read: {e}"
                ));
                None
            }
            None => {
                missing.push(
                    "el paquete no trae el archivo de la reunión (un registro anterior a que se guardara) / \
                 the bundle holds no meeting file"
                        .to_string(),
                );
                None
            }
        };
    (names, config)
}

/// The tables of the bundle in `bundle` (an open file, read from its
/// start); `progress` hears `(done, total)` records while it is verified,
/// then again while its ballots are read.
pub fn from_bundle(bundle: &File, progress: &mut dyn FnMut(u64, u64)) -> Result<Report, ReportError> {
    let gathered = gather(bundle, progress)?;
    let state = &gathered.state;
    let meeting = state.meeting().expect("gather checks the register was imported");
    let mut missing = Vec::new();
    let (names, config) = described(state, &mut missing);
    let (meeting_json, title, date) = match &config {
        Some(config) => (
            json!({
                "company": config.company,
                "nit": config.nit,
                "kind": config.kind.code(),
                "call": config.call.code(),
                "date": config.date,
                "time": config.time,
                "place": config.place,
                "convened_by": config.convened_by,
                "convened_on": config.convened_on,
            }),
            format!("{} · {}", config.company, config.date),
            parse_date(&config.date).unwrap_or((2000, 1, 1)),
        ),
        None => (Value::Null, "Asamblea".to_string(), (2000, 1, 1)),
    };
    let agenda: Vec<(String, String)> =
        state.agenda().iter().map(|e| (e.item.as_str().to_string(), e.title.as_str().to_string())).collect();
    let powers = power_lines(state);
    let source = tables::Source {
        meeting,
        agenda: &agenda,
        names: &names,
        choices: &gathered.choices,
        attendance: state.attendance(),
        powers: &powers,
    };
    Ok(Report {
        tables: tables::tables(&source),
        meeting: meeting_json,
        verified: json!({ "records": gathered.verified.records, "head": gathered.verified.head.to_string() }),
        title,
        date,
        missing,
    })
}

/// The acta's file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActaFormat {
    /// A Word document the secretary edits.
    Docx,
    /// A PDF on this paper, its fonts embedded.
    Pdf(pdf::Paper),
}

/// The acta draft of the bundle in `bundle` (an open file, read from its
/// start), as `format`; `Err` when the bundle does not verify or lacks the
/// meeting file (a ledger written before it was recorded).
///
/// The installation is the chair's act recorded in the ledger
/// (`meeting-installed`); a ledger without one (written before it
/// existed) has the first poll's opening taken in its place, and the acta
/// says so.
pub fn acta(
    bundle: &File,
    format: ActaFormat,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Vec<u8>, ReportError> {
    use asamblea_documents::acta;
    let gathered = gather(bundle, progress)?;
    let state = &gathered.state;
    let meeting = state.meeting().expect("gather checks the register was imported");
    let mut missing = Vec::new();
    let (names, config) = described(state, &mut missing);
    let config = config.ok_or_else(|| ReportError::Unreadable(missing.join("; ")))?;
    let described = acta::Described {
        company: config.company.clone(),
        nit: config.nit.clone(),
        kind_es: match config.kind {
            asamblea_rules::MeetingKind::Ordinary => "ordinaria",
            asamblea_rules::MeetingKind::Extraordinary => "extraordinaria",
        }
        .to_string(),
        call_es: match config.call {
            asamblea_rules::Call::First => "en primera convocatoria",
            asamblea_rules::Call::Second => "en segunda convocatoria (C.Co. art. 429)",
            asamblea_rules::Call::OwnRight => "por derecho propio (C.Co. art. 422)",
        }
        .to_string(),
        date: config.date.clone(),
        time: config.time.clone(),
        place: config.place.clone(),
        convened_by: config.convened_by.clone(),
        convened_on: config.convened_on.clone(),
        universal: config.universal,
        matters: state.agenda().iter().map(|e| e.matter).collect(),
        number: config.acta.number.clone(),
        chair: config.acta.chair.clone(),
        secretary: config.acta.secretary.clone(),
        chair_title: config.acta.chair_title.clone(),
        secretary_title: config.acta.secretary_title.clone(),
        designated: config.acta.designated.clone(),
        commission: config.acta.commission.clone(),
    };
    let agenda: Vec<(String, String)> =
        state.agenda().iter().map(|e| (e.item.as_str().to_string(), e.title.as_str().to_string())).collect();
    let refused: Vec<(String, Vec<String>, String, String)> = state
        .refused_proxies()
        .iter()
        .map(|(arrival, reason)| {
            let why = reason
                .rules_refusal()
                .map_or("el poder no cumple los requisitos (art. 184 C.Co.)", |r| r.spanish());
            (
                arrival.agent.as_str().to_string(),
                arrival.principals.iter().map(|p| p.as_str().to_string()).collect(),
                why.to_string(),
                arrival.power_document.as_str().to_string(),
            )
        })
        .collect();
    let statements: Vec<(String, String, String)> = state
        .statements()
        .iter()
        .map(|s| (s.item.as_str().to_string(), s.person.as_str().to_string(), s.text.as_str().to_string()))
        .collect();
    let lots: Vec<(String, u32, String, String)> = state
        .lots()
        .iter()
        .map(|(item, round, seed, winner)| {
            (item.as_str().to_string(), *round, seed.to_string(), winner.as_str().to_string())
        })
        .collect();
    let mut attendees: Vec<(String, String, Option<String>)> = gathered
        .state
        .attendee_names()
        .map(|(person, named)| {
            (
                person.to_string(),
                named.name.as_str().to_string(),
                named.document.as_ref().map(|d| d.as_str().to_string()),
            )
        })
        .collect();
    attendees.sort();
    let whole_agenda: Vec<acta::AgendaLine> = crate::public::whole_agenda(state)
        .into_iter()
        .map(|place| acta::AgendaLine { id: place.id, title: place.title, informative: place.informative })
        .collect();
    let sessions: Vec<acta::SessionLine> = state
        .session_log()
        .iter()
        .map(|s| acta::SessionLine {
            step: s.step,
            seq: s.seq,
            at_ms: s.time_ms,
            note: s.note.clone(),
            quorum: s.quorum,
        })
        .collect();
    let candidates: Vec<(String, Vec<asamblea_api::public::ListCandidates>)> = state
        .agenda()
        .iter()
        .filter_map(|entry| {
            crate::public::candidates_of(state, entry).map(|lists| (entry.item.as_str().to_string(), lists))
        })
        .collect();
    // The installation: the chair's recorded act, else (a ledger written
    // before it existed) the first poll's opening, said as such.
    let installed = sessions
        .iter()
        .find(|s| s.step == asamblea_rules::SessionStep::Installed)
        .map(|s| acta::Installed { seq: s.seq, time_ms: s.at_ms, recorded: true })
        .or_else(|| {
            gathered.first_opened.map(|(seq, time_ms)| acta::Installed { seq, time_ms, recorded: false })
        });
    let held_as = held_as(state, &names, &whole_agenda);
    let continuity = state.continuity();
    // Each poll's opening, announced close and close (rules.md §11.5).
    let poll_clocks: Vec<acta::PollClock> = state
        .agenda()
        .iter()
        .filter_map(|entry| {
            let id = entry.item.as_str();
            Some(acta::PollClock {
                title: entry.title.as_str().to_string(),
                opened_ms: state.opened_at(id)?,
                announced: state.announcement(id).map(|a| (a.time_ms, a.countdown_ms)),
                closed_ms: state.closed_at(id),
            })
        })
        .collect();
    let source = acta::ActaSource {
        held_as: &held_as,
        continuity: &continuity,
        whole_agenda: &whole_agenda,
        sessions: &sessions,
        candidates: &candidates,
        meeting,
        attendance: state.attendance(),
        installed,
        described: &described,
        agenda: &agenda,
        names: &names,
        agents: &gathered.agents,
        refused: &refused,
        powers: &power_lines(state),
        statements: &statements,
        lots: &lots,
        last: (gathered.verified.records, gathered.verified.head.to_string()),
        poll_times: &gathered.poll_times,
        last_ms: gathered.last_ms,
        poll_timing: state.poll_timing().map(|t| (t.min_open_ms, t.min_countdown_ms)),
        poll_clocks: &poll_clocks,
        // The acta's annex alone names the bundle's digest: only it reads
        // the file a third time for it.
        bundle_sha256: sha256_of(rewound(bundle)?)
            .map_err(|e| {
                ReportError::Unreadable(format!(
                    "el paquete no se puede leer / the bundle cannot be read: {e}"
                ))
            })?
            .to_string(),
        daemon_key: state.daemon_key().map(|k| k.to_string()).unwrap_or_default(),
    };
    match format {
        ActaFormat::Docx => asamblea_documents::docx::acta(&source),
        ActaFormat::Pdf(paper) => pdf::acta(&source, paper),
    }
    .map_err(ReportError::Unreadable)
}

/// How the meeting was convened to be held, as the ledger recorded it
/// (`meeting-modality`; presencial without it), with what the remote
/// channel left on the record: the verifications, the lapses, and the
/// questions and statements sent from afar.
fn held_as(
    state: &asamblea_ledger::State,
    names: &[String],
    agenda: &[asamblea_documents::acta::AgendaLine],
) -> asamblea_documents::acta::HeldAs {
    use asamblea_documents::acta::{FloorLine, HeldAs, LapseLine, RemoteLines};
    let remote = state.convened_modality().and_then(|m| m.remote.as_ref()).map(|r| RemoteLines {
        medium: r.medium.as_str().to_string(),
        access: r.access.as_str().to_string(),
        identity_check: r.identity_check.as_str().to_string(),
        floor: r.floor.as_str().to_string(),
        identity_delegated: r.identity_delegated,
    });
    // How many remote attendees the desk verified, by method (HY-7), in
    // the words the desk uses (`VerificationMethod::spanish`).
    let verified = asamblea_wire::VerificationMethod::ALL
        .iter()
        .map(|&method| {
            let n = state.verifications().iter().filter(|v| v.method == method).count() as u64;
            (format!("por {}", method.spanish()), n)
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    // «Nombre (documento)»: the register's name for a holder, the desk's
    // naming or a lodged power's for an agent.
    let who = |person: &str| {
        let registered = state
            .meeting()
            .and_then(|m| m.register().lookup(person))
            .and_then(|at| names.get(at.get()))
            .map(String::as_str);
        crate::directory::person_name(state, registered, person)
            .map_or_else(|| person.to_string(), |name| format!("{name} ({person})"))
    };
    let lapses = state
        .lapses()
        .iter()
        .map(|l| LapseLine {
            seq: l.seq,
            at_ms: l.time_ms,
            who: who(l.person.as_str()),
            silent_ms: l.silent_ms,
        })
        .collect();
    let floor = state
        .submissions()
        .iter()
        .map(|s| FloorLine {
            seq: s.seq,
            at_ms: s.time_ms,
            who: who(s.person.as_str()),
            statement: s.kind == asamblea_wire::SubmissionKind::Statement,
            about: s.item.as_ref().map(|item| {
                agenda
                    .iter()
                    .find(|a| a.id == item.as_str())
                    .map_or(item.as_str().to_string(), |a| a.title.clone())
            }),
            text: s.text.as_str().to_string(),
            outcome: s.handled.as_ref().map(|h| match h.1 {
                asamblea_wire::SubmissionOutcome::Read => asamblea_documents::acta::FloorOutcome::Read,
                asamblea_wire::SubmissionOutcome::Answered => {
                    asamblea_documents::acta::FloorOutcome::Answered
                }
                asamblea_wire::SubmissionOutcome::NotRead => asamblea_documents::acta::FloorOutcome::NotRead,
            }),
            note: s.handled.as_ref().map(|h| h.2.as_str().to_string()).unwrap_or_default(),
        })
        .collect();
    let nodes = state
        .nodes()
        .iter()
        .map(|(node, key)| asamblea_documents::acta::NodeLine {
            node: node.as_str().to_string(),
            key: key.to_string(),
        })
        .collect();
    let takeovers = state.takeovers().iter().map(|(seq, node)| (*seq, node.as_str().to_string())).collect();
    HeldAs { modality: state.modality(), remote, verified, lapses, floor, nodes, takeovers }
}

/// `YYYY-MM-DD`.
fn parse_date(text: &str) -> Option<(u16, u8, u8)> {
    let mut parts = text.split('-');
    let year = parts.next()?.parse().ok()?;
    let month = parts.next()?.parse().ok()?;
    let day = parts.next()?.parse().ok()?;
    Some((year, month, day))
}

/// The powers lodged before the meeting as the documents show them, from
/// the ledger's state (`power-lodged`, `power-revoked` and the arrivals
/// that used them).
fn power_lines(state: &asamblea_ledger::State) -> Vec<asamblea_documents::powers::PowerLine> {
    use asamblea_documents::powers::{PowerLine, Used};
    let via = |reception: asamblea_wire::Reception| match reception {
        asamblea_wire::Reception::Mail => "correo",
        asamblea_wire::Reception::Email => "correo electrónico",
        asamblea_wire::Reception::Office => "en la oficina",
        asamblea_wire::Reception::Other => "otro medio",
    };
    state
        .powers()
        .all()
        .iter()
        .map(|record| {
            let p = &record.power;
            PowerLine {
                reference: p.power.as_str().to_string(),
                agent: p.agent.as_ref().map(|a| a.as_str().to_string()),
                agent_name: p.agent_name.as_str().to_string(),
                principals: p.principals.iter().map(|i| i.as_str().to_string()).collect(),
                document_sha256: p.document.to_string(),
                received: format!("{}, {}", via(p.received_via), p.received_on.as_str()),
                refused: p.verdict.map(|r| (r.code().to_string(), r.words().0.to_string())),
                revoked: record
                    .revoked
                    .iter()
                    .map(|(who, why, _)| {
                        let words = match why {
                            asamblea_wire::Revocation::PrincipalArrived => "llegó en persona",
                            asamblea_wire::Revocation::Withdrawn => "lo revocó por escrito",
                        };
                        (who.as_str().to_string(), words.to_string())
                    })
                    .collect(),
                used: record
                    .used
                    .iter()
                    .map(|(principal, by, substitute, _)| Used {
                        principal: principal.as_str().to_string(),
                        by: by.as_str().to_string(),
                        by_name: state
                            .attendee_name(by.as_str())
                            .map(|n| n.name.as_str().to_string())
                            .unwrap_or_default(),
                        substitute: *substitute,
                    })
                    .collect(),
            }
        })
        .collect()
}
