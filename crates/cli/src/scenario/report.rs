//! A readable account of a replayed scenario, Spanish first with English,
//! in Colombian number format: what `asamblea demo` and
//! `asamblea scenario --report` print.

use std::fmt::Write;

use asamblea_rules::{Item, ItemResult, Majority, Meeting, OptionIndex};

use super::parse::{Scenario, Step};
use super::run::Replay;
use asamblea_documents::numfmt::{percent, thousands};

/// The report of one replay.
pub fn report(file: &str, scenario: &Scenario, replay: &Replay) -> String {
    let mut out = String::new();
    let meeting = &replay.meeting;
    let rule = "═".repeat(72);
    let _ = writeln!(out, "{rule}\n{}\n{file}", scenario.title);
    let settings = meeting.settings();
    let _ = writeln!(
        out,
        "Perfil / profile: {} · reunión {} · convocatoria: {} · quórum {} · base {}{}",
        meeting.profile().name(),
        match meeting.kind() {
            asamblea_rules::MeetingKind::Ordinary => "ordinaria",
            asamblea_rules::MeetingKind::Extraordinary => "extraordinaria",
        },
        match meeting.call() {
            asamblea_rules::Call::First => "primera",
            asamblea_rules::Call::Second => "segunda",
            asamblea_rules::Call::OwnRight => "derecho propio",
        },
        settings.quorum.code(),
        settings.base.code(),
        if settings.listed { " · emisor listado" } else { "" },
    );
    let refused = replay.verdicts.iter().filter(|v| v.is_err()).count();
    let _ = writeln!(
        out,
        "Pasos / steps: {} ({} aceptados / accepted, {} rechazados / refused)",
        replay.verdicts.len(),
        replay.verdicts.len() - refused,
        refused
    );
    for (i, (step, verdict)) in scenario.steps.iter().zip(&replay.verdicts).enumerate() {
        if let Err(refusal) = verdict {
            let _ = writeln!(
                out,
                "  paso {i} ({}): rechazado — {}: {} / {}",
                describe(step),
                refusal.code(),
                refusal.spanish(),
                refusal.english()
            );
        }
    }
    for item in meeting.items() {
        item_report(&mut out, meeting, item);
    }
    let presence = meeting.presence();
    let _ = writeln!(
        out,
        "Presentes al final / present at the end: {} acciones con voto de {} accionistas",
        thousands(presence.voting_shares().get()),
        thousands(u64::from(presence.voting_holders()))
    );
    out
}

/// The majority in words, Spanish then English.
fn rule(majority: Majority) -> String {
    match majority {
        Majority::Simple => {
            "mayoría de las acciones de la base / more than half of the base (2·F > E)".into()
        }
        Majority::AtLeastPercent { percent, plural } => format!(
            "al menos el {percent} % de la base{} / at least {percent} % of the base{}",
            if plural { " y dos o más accionistas a favor" } else { "" },
            if plural { " and two or more holders for" } else { "" },
        ),
        Majority::TwoClassSubscribed { percent } => format!(
            "{percent} % de las acciones suscritas de ambas clases y {percent} % de las preferenciales / \
             {percent} % of both classes' outstanding shares and {percent} % of the preferred"
        ),
        Majority::ElectoralQuotient => {
            "cuociente electoral y residuos mayores / electoral quotient, largest remainders".into()
        }
        Majority::SingleSeat => "más de la mitad de la base / more than half of the base (2·v > E)".into(),
    }
}

fn describe(step: &Step) -> String {
    match step {
        Step::ArriveInPerson(h) => format!("llega {h}"),
        Step::ArriveAsAgent { agent, represents, .. } => {
            format!("llega {agent} por {}", represents.join(", "))
        }
        Step::Leave(p) => format!("sale {p}"),
        Step::Open(spec) => format!("abre {}", spec.id()),
        Step::Vote { item, holder, .. } => format!("vota {holder} en {item}"),
        Step::Close(item) => format!("cierra {item}"),
        Step::Draw { item, winner } => format!("sorteo en {item}: {winner}"),
    }
}

fn item_report(out: &mut String, meeting: &Meeting, item: &Item) {
    let outcome = item.outcome();
    let _ = writeln!(
        out,
        "\n▶ {} — {} ({}): {} / {}",
        item.id(),
        item.matter().spanish(),
        item.matter().english(),
        outcome.spanish().to_uppercase(),
        outcome.code()
    );
    let _ = writeln!(out, "  Regla / rule: {}", rule(item.majority()));
    match item.result() {
        None => {
            let _ = writeln!(
                out,
                "  Votación abierta: {} papeletas / ballots",
                thousands(u64::from(item.ballots()))
            );
        }
        Some(ItemResult::Decision(d)) => {
            let base = d.base.get();
            let _ = writeln!(
                out,
                "  Presentes {} · impedidas {} · base {}",
                thousands(d.present.get()),
                thousands(d.impeded.get()),
                thousands(base)
            );
            let word = |key: &str| asamblea_documents::explain::figure(key).es;
            let _ = writeln!(
                out,
                "  {} {} ({}) · {} {} ({}) · {} {} · {} {} · accionistas a favor {}",
                word("for"),
                thousands(d.for_votes.get()),
                percent(d.for_votes.get(), base),
                word("against"),
                thousands(d.against.get()),
                percent(d.against.get(), base),
                word("blank"),
                thousands(d.blank.get()),
                word("abstain"),
                thousands(d.abstain.get()),
                d.holders_for
            );
            if let Some(w) = &d.withdrawal {
                let ids: Vec<&str> = w.iter().map(|&h| meeting.register().holder(h).id()).collect();
                let _ = writeln!(
                    out,
                    "  Derecho de retiro / withdrawal: {}",
                    if ids.is_empty() { "nadie".into() } else { ids.join(", ") }
                );
            }
        }
        Some(ItemResult::Election(e)) => {
            let _ = writeln!(
                out,
                "  Votos válidos {} (en blanco {}){}",
                thousands(e.valid.get()),
                thousands(e.blank.get()),
                if item.majority() == Majority::SingleSeat {
                    format!(" · base {}", thousands(e.base.get()))
                } else {
                    String::new()
                }
            );
            for (i, votes) in e.votes.iter().enumerate() {
                let seats = e.seats.as_ref().map_or(String::new(), |s| format!(" → {} puesto(s)", s[i]));
                let _ = writeln!(
                    out,
                    "  Lista {}: {}{}",
                    item.option_name(OptionIndex::list(i)),
                    thousands(votes.get()),
                    seats
                );
            }
            if !e.lot_between.is_empty() {
                let tied: Vec<&str> =
                    e.lot_between.iter().map(|&i| item.option_name(OptionIndex::list(i))).collect();
                let _ = writeln!(out, "  Sorteo pendiente / lot pending between: {}", tied.join(", "));
            }
            if e.vacant > 0 {
                let _ = writeln!(out, "  Puestos vacantes / vacant seats: {}", e.vacant);
            }
        }
    }
}
