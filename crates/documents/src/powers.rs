//! Powers of attorney lodged before the meeting in the documents: the
//! acta's section on them (the powers used, by agent, with principals,
//! shares and the document's hash; those refused with their reasons;
//! those revoked by their principal's arrival) and the `poderes` table of
//! the exports, one row per power and principal.

use asamblea_rules::Meeting;

use crate::acta::Block;
use crate::attendance::{class_heading_es, classes, Names};
use crate::numfmt::thousands;
use crate::tables::{class_column, columns, Cell, Table};

/// A lodged power as the documents show it (from the ledger's
/// `power-lodged` and `power-revoked`, and the arrivals that used it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PowerLine {
    /// The company's reference.
    pub reference: String,
    /// The agent's document, when the power names one.
    pub agent: Option<String>,
    /// The agent's name as written.
    pub agent_name: String,
    /// Its principals' ids.
    pub principals: Vec<String>,
    /// SHA-256 of the scanned document, hex.
    pub document_sha256: String,
    /// How and when received, in words (`correo electrónico, 2027-03-10`).
    pub received: String,
    /// Why it was refused (code and words), or `None` when accepted.
    pub refused: Option<(String, String)>,
    /// Principals it no longer covers, with why, in words.
    pub revoked: Vec<(String, String)>,
    /// Principals carried under it: who, by whom (id and name), and
    /// whether that person was a substitute.
    pub used: Vec<Used>,
}

/// A principal carried under a power.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Used {
    /// The principal.
    pub principal: String,
    /// Who carried them.
    pub by: String,
    /// That person's name, as the desk recorded it.
    pub by_name: String,
    /// They were a substitute.
    pub substitute: bool,
}

fn person(id: &str, name: &str) -> String {
    if name.trim().is_empty() {
        id.to_string()
    } else {
        format!("{name} ({id})")
    }
}

fn agent_of(p: &PowerLine) -> String {
    match &p.agent {
        Some(agent) => person(agent, &p.agent_name),
        None => "(no nombra apoderado)".to_string(),
    }
}

/// The acta's section on the powers lodged before the meeting; nothing
/// when none was.
pub fn acta_blocks(meeting: &Meeting, names: &[String], powers: &[PowerLine]) -> Vec<Block> {
    if powers.is_empty() {
        return Vec::new();
    }
    let names = Names::new(meeting, names);
    let classes = classes(meeting);
    let principal = |id: &str| {
        meeting.register().lookup(id).map_or_else(|| id.to_string(), |at| names.holder_with_id(at))
    };
    let accepted = powers.iter().filter(|p| p.refused.is_none()).count() as u64;
    let revoked: u64 = powers.iter().map(|p| p.revoked.len() as u64).sum();
    let unused: Vec<&PowerLine> =
        powers.iter().filter(|p| p.refused.is_none() && p.used.is_empty()).collect();
    let mut out = vec![
        Block::Heading(2, "Poderes radicados antes de la reunión".to_string()),
        Block::Text(format!(
            "Antes de la instalación se {} (C.Co. art. 184), que la mesa de registro verificó contra el libro de \
             accionistas y las reglas (arts. 184 y 185 C.Co.; para un emisor inscrito, las de la Superintendencia \
             Financiera): {} y {}. {} Cada documento queda en poder de la sociedad; su huella SHA-256 está en el \
             libro electrónico y aquí. Ningún poder lleva instrucciones de voto.",
            counted(powers.len() as u64, "radicó 1 poder", "radicaron {} poderes"),
            counted(accepted, "1 aceptado", "{} aceptados"),
            counted(powers.len() as u64 - accepted, "1 rechazado", "{} rechazados"),
            match revoked {
                0 => "Ningún poderdante revocó su poder.".to_string(),
                n => counted(n, "1 poderdante revocó su poder al llegar en persona o por escrito.", "{} poderdantes revocaron su poder al llegar en persona o por escrito."),
            },
        )),
    ];
    // Used, by the person who carried them.
    let mut used: Vec<(&str, &str, bool, &PowerLine, Vec<&str>)> = Vec::new();
    for p in powers {
        for u in &p.used {
            match used.iter_mut().find(|(by, _, _, q, _)| *by == u.by && q.reference == p.reference) {
                Some(row) => row.4.push(&u.principal),
                None => used.push((&u.by, &u.by_name, u.substitute, p, vec![&u.principal])),
            }
        }
    }
    used.sort_by(|a, b| (a.0, &a.3.reference).cmp(&(b.0, &b.3.reference)));
    if !used.is_empty() {
        let mut header: Vec<String> = ["Apoderado", "Poder", "Poderdantes"].map(String::from).to_vec();
        header.extend(classes.iter().map(|&class| class_heading_es(class)));
        header.push("Documento (SHA-256)".to_string());
        let rows = used
            .iter()
            .map(|(by, by_name, substitute, p, principals)| {
                let mut who = person(by, by_name);
                if *substitute {
                    who.push_str(&format!(", como sustituto de {}", agent_of(p)));
                }
                let mut unique = principals.clone();
                unique.sort_unstable();
                unique.dedup();
                let mut row = vec![
                    who,
                    p.reference.clone(),
                    unique.iter().map(|id| principal(id)).collect::<Vec<_>>().join("; "),
                ];
                for &class in &classes {
                    let shares: u64 = unique
                        .iter()
                        .filter_map(|id| meeting.register().lookup(id))
                        .map(|at| meeting.register().holder(at).holdings().of(class).get())
                        .sum();
                    row.push(thousands(shares));
                }
                row.push(p.document_sha256.clone());
                row
            })
            .collect();
        out.push(Block::Heading(3, "Poderes usados, por apoderado".to_string()));
        out.push(Block::Table(header, rows));
    }
    let refused: Vec<Vec<String>> = powers
        .iter()
        .filter_map(|p| {
            let (_, why) = p.refused.as_ref()?;
            Some(vec![
                p.reference.clone(),
                agent_of(p),
                p.principals.iter().map(|id| principal(id)).collect::<Vec<_>>().join("; "),
                why.clone(),
                p.document_sha256.clone(),
            ])
        })
        .collect();
    if !refused.is_empty() {
        out.push(Block::Heading(3, "Poderes rechazados al radicarse".to_string()));
        out.push(table(&["Poder", "Apoderado", "Poderdantes", "Motivo", "Documento (SHA-256)"], refused));
    }
    let revocations: Vec<Vec<String>> = powers
        .iter()
        .flat_map(|p| p.revoked.iter().map(move |(who, why)| (p, who, why)))
        .map(|(p, who, why)| vec![p.reference.clone(), principal(who), agent_of(p), why.clone()])
        .collect();
    if !revocations.is_empty() {
        out.push(Block::Heading(3, "Poderes revocados por su poderdante".to_string()));
        out.push(table(&["Poder", "Poderdante", "Apoderado", "Motivo"], revocations));
    }
    if !unused.is_empty() {
        let rows = unused
            .iter()
            .map(|p| {
                vec![
                    p.reference.clone(),
                    agent_of(p),
                    p.principals.iter().map(|id| principal(id)).collect::<Vec<_>>().join("; "),
                ]
            })
            .collect();
        out.push(Block::Heading(
            3,
            "Poderes aceptados que no se usaron (el apoderado no asistió)".to_string(),
        ));
        out.push(table(&["Poder", "Apoderado", "Poderdantes"], rows));
    }
    out
}

fn table(header: &[&str], rows: Vec<Vec<String>>) -> Block {
    Block::Table(header.iter().map(|h| h.to_string()).collect(), rows)
}

/// The `poderes` table: one row per power and principal, with the
/// verdict, the document's hash, any revocation and who carried them.
pub fn table_of(meeting: &Meeting, names: &[String], powers: &[PowerLine]) -> Table {
    let names = Names::new(meeting, names);
    let classes = classes(meeting);
    let mut columns = columns(&[
        ("power", "poder (power)"),
        ("holder", "poderdante: documento (principal: id)"),
        ("name", "poderdante (principal)"),
    ]);
    columns.extend(classes.iter().map(|&class| class_column(class)));
    columns.extend(self::columns(&[
        ("agent", "apoderado: documento (agent: id)"),
        ("agent_name", "apoderado (agent)"),
        ("verdict", "dictamen (verdict)"),
        ("reason", "motivo del rechazo (why refused)"),
        ("received", "recibido (received)"),
        ("document_sha256", "documento, SHA-256 (document)"),
        ("revoked", "revocado (revoked)"),
        ("carried_by", "lo llevó (carried by)"),
        ("substitute", "como sustituto (as substitute)"),
    ]));
    let mut rows = Vec::new();
    for p in powers {
        for id in &p.principals {
            let at = meeting.register().lookup(id);
            let mut row: Vec<Cell> = vec![
                p.reference.as_str().into(),
                id.as_str().into(),
                at.map_or("", |at| names.holder(at)).into(),
            ];
            row.extend(classes.iter().map(|&class| {
                Cell::from(at.map_or(0, |at| meeting.register().holder(at).holdings().of(class).get()))
            }));
            let used = p.used.iter().find(|u| u.principal == *id);
            row.extend([
                Cell::from(p.agent.clone().unwrap_or_default()),
                p.agent_name.as_str().into(),
                p.refused.as_ref().map_or("aceptado", |(code, _)| code.as_str()).into(),
                p.refused.as_ref().map_or("", |(_, why)| why.as_str()).into(),
                p.received.as_str().into(),
                p.document_sha256.as_str().into(),
                p.revoked.iter().find(|(who, _)| who == id).map_or("", |(_, why)| why.as_str()).into(),
                used.map_or("", |u| u.by.as_str()).into(),
                used.map_or("", |u| if u.substitute { "sí" } else { "no" }).into(),
            ]);
            rows.push(row);
        }
    }
    Table { name: "poderes", columns, rows }
}

/// `one` for 1, else `many` with the number (Colombian format) in its `{}`.
fn counted(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        one.to_string()
    } else {
        many.replacen("{}", &thousands(n), 1)
    }
}
