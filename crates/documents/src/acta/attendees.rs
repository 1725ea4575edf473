//! The acta's section 4, the attendees (C.Co. art. 189; Almagrario §8):
//! everyone who attended at any moment, one row per person with their own
//! and represented shares by class and the intervals they were in the
//! room; who was present at the installation and at the close, by class
//! and as a share of the outstanding shares; the administrators and
//! employees; the agents with their powers; the powers refused.

use asamblea_rules::{ClassShares, ShareClass};

use super::{heading, table, text, ActaSource, Block, Installed};
use crate::attendance::{class_es, class_heading_es, ever_present, present_after, Names};
use crate::numfmt::{colombia_time, percent, thousands};

/// How the installation's moment is known, in words for a sentence.
pub(super) fn installed_how(installed: Installed) -> String {
    if installed.recorded {
        format!(
            "según el acto de instalación del libro electrónico (registro n.º {})",
            thousands(installed.seq)
        )
    } else {
        format!(
            "la del libro electrónico al abrirse la primera votación (registro n.º {}), que este borrador toma \
             como instalación porque el libro no registra el acto de instalación",
            thousands(installed.seq)
        )
    }
}

/// Shares by class in words: `1.000 ordinarias y 50 preferenciales`.
fn shares_in_words(shares: ClassShares, classes: &[ShareClass]) -> String {
    classes
        .iter()
        .map(|&class| format!("{} {}", thousands(shares.of(class).get()), class_es(class)))
        .collect::<Vec<_>>()
        .join(" y ")
}

/// Section 4, block by block.
pub(super) fn attendance_blocks(source: &ActaSource<'_>, classes: &[ShareClass]) -> Vec<Block> {
    let m = source.meeting;
    let names = Names::new(m, source.names);
    let outstanding = m.register().capital().outstanding();
    let mut out = vec![heading(1, "4. Asistentes")];

    let persons = source
        .attendance
        .visits()
        .iter()
        .map(|v| &*v.person)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let (holders, shares) = ever_present(m, source.attendance);
    out.push(text(format!(
        "Asistieron en algún momento de la reunión {} personas, por {} accionistas con {} acciones ({}), el {} de \
         las acciones en circulación.",
        thousands(persons as u64),
        thousands(holders),
        thousands(shares.total().get()),
        shares_in_words(shares, classes),
        percent(shares.total().get(), outstanding.total().get()),
    )));
    // Present at the installation and at the close (C.Co. art. 189; the
    // installation's moment as known, said in the words).
    let last = source.last.0;
    let mut moments: Vec<(String, u64, String)> = Vec::new();
    match source.installed {
        Some(installed) => {
            out.push(text(format!(
                "La reunión se instaló a las {}, {}. Presentes al instalarse y al cierre (último registro), por clase \
                 de acción y en porcentaje de las acciones en circulación de cada clase:",
                colombia_time(installed.time_ms).1,
                installed_how(installed)
            )));
            moments.push(("Instalación".to_string(), installed.seq, colombia_time(installed.time_ms).1));
        }
        None => out.push(text(
            "El libro no registra la instalación ni se abrió ninguna votación. Presentes al cierre (último registro), \
             por clase de acción y en porcentaje de las acciones en circulación de cada clase:"
                .to_string(),
        )),
    }
    moments.push(("Cierre".to_string(), last, colombia_time(source.last_ms).1));
    let mut header: Vec<String> =
        ["Momento", "Hora", "Registro", "Personas", "Accionistas"].map(String::from).to_vec();
    for &class in classes {
        header.extend([class_heading_es(class), "%".to_string()]);
    }
    let rows = moments
        .into_iter()
        .map(|(moment, seq, time)| {
            let present = present_after(m, source.attendance, seq);
            let mut row =
                vec![moment, time, thousands(seq), thousands(present.persons), thousands(present.holders)];
            for &class in classes {
                let of = present.shares.of(class).get();
                row.extend([thousands(of), percent(of, outstanding.of(class).get())]);
            }
            row
        })
        .collect();
    out.push(Block::Table(header, rows));

    out.push(text(
        "La lista de asistentes (C.Co. art. 189): cada persona que asistió tiene una fila, con sus acciones \
         propias y las ajenas que representó y las horas en que estuvo presente (hora de Colombia, las del libro \
         electrónico); quien salió y volvió tiene varios intervalos en su fila, y un intervalo en que asistió a \
         distancia dice «(a distancia)»."
            .to_string(),
    ));
    let listed = crate::attendance::table(m, source.attendance, &names);
    out.push(Block::Table(listed.header, listed.rows));

    // The administrators and employees of the register and their shares
    // (C.Co. art. 185: they carry no proxies, and do not vote the year-end
    // statements).
    let mut came = vec![false; m.register().len()];
    for stay in source.attendance.stays() {
        came[stay.holder.get()] = true;
    }
    let barred: Vec<Vec<String>> = m
        .register()
        .iter()
        .filter_map(|(at, holder)| {
            let role = match holder.role()? {
                asamblea_rules::Role::Administrator => "administrador",
                asamblea_rules::Role::Employee => "empleado",
            };
            let mut row = vec![holder.id().to_string(), names.holder(at).to_string(), role.to_string()];
            row.extend(classes.iter().map(|&class| thousands(holder.holdings().of(class).get())));
            row.push(if came[at.get()] { "asistió" } else { "no asistió" }.to_string());
            Some(row)
        })
        .collect();
    if !barred.is_empty() {
        let mut header: Vec<String> = ["Documento", "Nombre", "Calidad"].map(String::from).to_vec();
        header.extend(classes.iter().map(|&class| class_heading_es(class)));
        header.push("Asistencia".to_string());
        out.push(heading(2, "Administradores y empleados (art. 185 C.Co.)"));
        out.push(Block::Table(header, barred));
    }
    if !source.agents.is_empty() {
        let mut visits: std::collections::HashMap<&str, Vec<&asamblea_rules::Visit>> =
            std::collections::HashMap::new();
        for visit in source.attendance.visits() {
            visits.entry(&visit.person).or_default().push(visit);
        }
        let rows = source
            .agents
            .iter()
            .map(|a| {
                let principals: Vec<String> = a
                    .principals
                    .iter()
                    .map(|p| m.register().lookup(p).map_or_else(|| p.clone(), |at| names.holder_with_id(at)))
                    .collect();
                let agent = visits
                    .get(a.agent.as_str())
                    .map_or_else(|| a.agent.clone(), |theirs| names.person(theirs));
                vec![agent, a.capacity_es.clone(), principals.join(", "), a.power.clone()]
            })
            .collect();
        out.push(heading(2, "Apoderados y representantes legales"));
        out.push(table(&["Persona", "Calidad", "Representa a", "Poder o certificado"], rows));
    }
    if !source.refused.is_empty() {
        let rows = source
            .refused
            .iter()
            .map(|(agent, principals, why, power)| {
                vec![agent.clone(), principals.join(", "), why.clone(), power.clone()]
            })
            .collect();
        out.push(heading(2, "Poderes rechazados (arts. 184 y 185 C.Co.)"));
        out.push(table(&["Apoderado", "Representados", "Motivo", "Poder"], rows));
    }
    out
}

#[cfg(test)]
mod installation_tests {
    use super::*;

    #[test]
    fn the_installation_says_whether_the_chair_recorded_it_or_the_first_poll_stands_in() {
        let recorded = installed_how(Installed { seq: 426, time_ms: 0, recorded: true });
        assert_eq!(recorded, "según el acto de instalación del libro electrónico (registro n.º 426)");
        let stand_in = installed_how(Installed { seq: 1_425, time_ms: 0, recorded: false });
        assert!(stand_in.contains("al abrirse la primera votación (registro n.º 1.425)"), "{stand_in}");
        assert!(stand_in.contains("el libro no registra el acto de instalación"), "{stand_in}");
    }
}
