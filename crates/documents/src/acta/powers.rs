//! The acta's subsection on the powers lodged before the meeting (in
//! section 4): how many, the powers used by agent, those refused, those
//! revoked, those never used.

use asamblea_rules::Meeting;

use super::Block;
use crate::attendance::{class_heading_es, classes, Names};
use crate::numfmt::thousands;
use crate::powers::{agent_of, counted, person, PowerLine};

/// The acta's section on the powers lodged before the meeting; nothing
/// when none was.
pub(super) fn blocks(meeting: &Meeting, names: &[String], powers: &[PowerLine]) -> Vec<Block> {
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
