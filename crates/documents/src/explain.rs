//! Why a closed item passed or failed, in words with its figures: what the
//! chair reads aloud after the close and the acta records beside the
//! result. An election's seats per list (by quotient and by remainder,
//! with the quotient itself) are written here too. Written once for the
//! consoles, the board and the documents; every figure comes from the
//! rules engine's result, every threshold from
//! [`Majority::for_votes_needed`].

use asamblea_rules::{
    BallotOptions, DecisionResult, ElectionResult, Item, ItemResult, Majority, Meeting, OptionIndex, Outcome,
};

use crate::numfmt::{percent, thousands};

/// The outcome as read aloud and printed, in capitals: APROBADO, NO
/// APROBADO, ELEGIDOS, and ELEGIDO for a single seat.
pub fn outcome_es(item: &Item) -> String {
    match item.outcome() {
        asamblea_rules::Outcome::Elected if item.majority() == asamblea_rules::Majority::SingleSeat => {
            "ELEGIDO".to_string()
        }
        outcome => outcome.spanish().to_uppercase(),
    }
}

/// Why a holder on an item's withdrawal list may withdraw (R18: the
/// absent and the dissenting): `votó en contra` if the holder voted on
/// it, else `ausente`.
pub fn withdrawal_reason(item: &Item, holder: asamblea_rules::HolderIndex) -> &'static str {
    if item.has_voted(holder) {
        "votó en contra"
    } else {
        "ausente"
    }
}

/// Why the item came out as it did, in Spanish and in English; `None`
/// while it is open.
pub fn why(meeting: &Meeting, item: &Item) -> Option<(String, String)> {
    match item.result()? {
        ItemResult::Decision(d) => Some(decision(meeting, item, d)),
        ItemResult::Election(e) => Some(election(item, e)),
    }
}

fn decision(meeting: &Meeting, item: &Item, d: &DecisionResult) -> (String, String) {
    match d.outcome {
        Outcome::NoQuorum => {
            return (
                "no se decidió: al cierre de la votación no había quórum".to_string(),
                "not decided: there was no quorum when the poll closed".to_string(),
            )
        }
        Outcome::AllImpeded => {
            return (
                "no se decidió: todas las acciones presentes estaban impedidas (administradores y empleados, art. 185 C.Co.)"
                    .to_string(),
                "not decided: every share present was impeded (administrators and employees)".to_string(),
            )
        }
        _ => {}
    }
    if d.base.is_zero() {
        return ("no hubo acciones en la base de la decisión".to_string(), "the base was empty".to_string());
    }
    let verb = if d.outcome == Outcome::Pass { ("aprobado", "passed") } else { ("no aprobado", "failed") };
    let majority = item.majority();
    let (for_votes, base) = (thousands(d.for_votes.get()), thousands(d.base.get()));
    let share = percent(d.for_votes.get(), d.base.get());
    match majority {
        Majority::TwoClassSubscribed { .. } => {
            let outstanding = meeting.register().capital().outstanding();
            let by_class = d.for_by_class.unwrap_or_default();
            let both = majority.for_votes_needed(outstanding.total()).unwrap_or_default();
            let preferred = majority.for_votes_needed(outstanding.preferred).unwrap_or_default();
            let (total, pref) = (thousands(by_class.total().get()), thousands(by_class.preferred.get()));
            let (both, preferred) = (thousands(both.get()), thousands(preferred.get()));
            let pref_outstanding = thousands(outstanding.preferred.get());
            (
                format!(
                    "{}: {total} acciones a favor de {base} suscritas de ambas clases (se necesitaban al menos {both}) \
                     y {pref} preferenciales de {pref_outstanding} (se necesitaban al menos {preferred})",
                    verb.0
                ),
                format!(
                    "{}: {total} shares for, out of {base} subscribed in both classes (at least {both} needed) \
                     and {pref} preferred of {pref_outstanding} (at least {preferred} needed)",
                    verb.1
                ),
            )
        }
        _ => {
            let needed = thousands(majority.for_votes_needed(d.base).unwrap_or_default().get());
            let mut es = format!(
                "{}: {for_votes} acciones a favor, el {share} de la base de {base}; se necesitaban al menos {needed}",
                verb.0
            );
            let mut en = format!(
                "{}: {for_votes} shares for, {share} of the base of {base}; at least {needed} needed",
                verb.1
            );
            if let Majority::AtLeastPercent { plural: true, .. } = majority {
                es.push_str(&format!(
                    ", de al menos dos accionistas (votaron a favor {})",
                    thousands(u64::from(d.holders_for))
                ));
                en.push_str(&format!(", from two or more holders ({} voted for)", d.holders_for));
            }
            (es, en)
        }
    }
}

fn election(item: &Item, e: &ElectionResult) -> (String, String) {
    let name = |i: usize| item.option_name(OptionIndex::list(i)).to_string();
    if !e.quorum_at_close {
        return (
            "no se eligió: al cierre de la votación no había quórum".to_string(),
            "nobody elected: there was no quorum when the poll closed".to_string(),
        );
    }
    if e.valid.is_zero() {
        return (
            "no se eligió: no hubo votos válidos".to_string(),
            "nobody elected: no valid votes".to_string(),
        );
    }
    let mut out = match item.majority() {
        Majority::SingleSeat => {
            let needed = thousands(item.majority().for_votes_needed(e.base).unwrap_or_default().get());
            let best = (0..e.votes.len()).max_by_key(|&i| e.votes[i]).unwrap_or(0);
            let votes = thousands(e.votes.get(best).map_or(0, |v| v.get()));
            let base = thousands(e.base.get());
            match e.outcome {
                Outcome::Elected => (
                    format!("elegido {}: {votes} votos de una base de {base}; se necesitaban al menos {needed}", name(best)),
                    format!("{} elected: {votes} votes of a base of {base}; at least {needed} needed", name(best)),
                ),
                _ => (
                    format!("nadie fue elegido: la más votada, {}, obtuvo {votes} de una base de {base}; se necesitaban al menos {needed}", name(best)),
                    format!("nobody elected: the most voted, {}, had {votes} of a base of {base}; at least {needed} needed", name(best)),
                ),
            }
        }
        _ => {
            let seats = seats_on_offer(item);
            let quotient = quotient_text(e.valid.get(), seats);
            (
                format!(
                    "cuociente electoral: {} votos válidos (en blanco incluidos) entre {seats} puestos = {quotient}",
                    thousands(e.valid.get())
                ),
                format!("electoral quotient: {} valid votes (blank included) over {seats} seats = {quotient}", thousands(e.valid.get())),
            )
        }
    };
    if e.outcome == Outcome::LotRequired {
        let tied: Vec<String> = e.lot_between.iter().map(|&i| name(i)).collect();
        out.0.push_str(&format!(
            "; empate de residuos entre {}: {} por sorteo",
            tied.join(", "),
            if e.seats_to_draw == 1 {
                "un puesto se decide".to_string()
            } else {
                format!("{} puestos se deciden", e.seats_to_draw)
            }
        ));
        out.1.push_str(&format!(
            "; remainders tied between {}: {} seat(s) by lot",
            tied.join(", "),
            e.seats_to_draw
        ));
    }
    if e.vacant > 0 {
        out.0.push_str(&format!("; {} puesto(s) quedan vacantes", e.vacant));
        out.1.push_str(&format!("; {} seat(s) stay vacant", e.vacant));
    }
    (out.0, out.1)
}

/// The base an election is decided on, as every table shows it: a
/// single seat's `E`, the shares present (R8; OQ8: elected when `2·v >
/// E`), which its explanation names; a board's `V`, the valid votes
/// (blank included) its quotient divides (R15).
pub fn election_base(item: &Item, e: &ElectionResult) -> asamblea_rules::Shares {
    match item.majority() {
        Majority::SingleSeat => e.base,
        _ => e.valid,
    }
}

/// An election's lists in words, in ballot order: `Lista 1 47.143.561
/// votos, 3 puestos`.
pub fn lists_in_words(item: &Item, e: &ElectionResult) -> Vec<String> {
    let seats = e.seats.clone().unwrap_or_default();
    e.votes
        .iter()
        .enumerate()
        .map(|(i, votes)| {
            let won = seats.get(i).copied().unwrap_or(0);
            format!(
                "{} {} votos, {won} {}",
                item.option_name(OptionIndex::list(i)),
                thousands(votes.get()),
                if won == 1 { "puesto" } else { "puestos" }
            )
        })
        .collect()
}

/// The seats an election fills.
fn seats_on_offer(item: &Item) -> u32 {
    match item.options() {
        BallotOptions::Election { seats, .. } => *seats,
        BallotOptions::Decision => 0,
    }
}

/// `valid / seats` with two decimals, truncated: `1.234.567,33`.
fn quotient_text(valid: u64, seats: u32) -> String {
    if seats == 0 {
        return "—".to_string();
    }
    let hundredths = u128::from(valid) * 100 / u128::from(seats);
    format!("{},{:02}", thousands((hundredths / 100) as u64), hundredths % 100)
}

/// An election's lists as the chair reads them and the acta prints them:
/// votes, seats by quotient (`⌊v·N/V⌋`), the remainder in votes (two
/// decimals, truncated), seats by remainder or lot, and seats in all.
pub fn lists(item: &Item, e: &ElectionResult) -> Vec<asamblea_api::public::ListFigures> {
    let seats = u128::from(seats_on_offer(item));
    let valid = e.valid.wide();
    e.votes
        .iter()
        .enumerate()
        .map(|(i, votes)| {
            let scaled = votes.wide() * seats;
            let by_quotient =
                if valid == 0 || item.majority() != Majority::ElectoralQuotient { 0 } else { scaled / valid };
            // The remainder in votes: (v·N − q·V) / N, in hundredths.
            let remainder_hundredths =
                if seats == 0 || valid == 0 { 0 } else { (scaled - by_quotient * valid) * 100 / seats };
            let won = e.seats.as_ref().and_then(|s| s.get(i)).copied().unwrap_or(0);
            asamblea_api::public::ListFigures {
                list: item.option_name(OptionIndex::list(i)).to_string(),
                votes: votes.get(),
                by_quotient: by_quotient as u64,
                remainder: format!(
                    "{},{:02}",
                    thousands((remainder_hundredths / 100) as u64),
                    remainder_hundredths % 100
                ),
                by_remainder: u64::from(won).saturating_sub(by_quotient as u64),
                seats: won,
            }
        })
        .collect()
}

/// A figure of a decision with its words, Spanish and English.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    /// Its key: FORMAT.md's and the API's (`for`, `against`, …).
    pub key: &'static str,
    /// How a person reads it in Spanish, as a heading: `A favor`.
    pub es: &'static str,
    /// In English: `For`.
    pub en: &'static str,
}

/// A decision's figures in the law's words (C.Co. arts. 189 and 431: the
/// votes «a favor, en contra y en blanco»; the reglamentos' abstentions,
/// impeded shares and base), in the order every table shows them. Written
/// once: the acta, the exports' headings, the consoles, the board and the
/// projector (the daemon serves them as `/assets/words.js`), the kiosk's
/// ballot buttons ([`option_words`]) and the command line.
pub const FIGURES: [Figure; 6] = [
    Figure { key: "for", es: "A favor", en: "For" },
    Figure { key: "against", es: "En contra", en: "Against" },
    Figure { key: "blank", es: "En blanco", en: "Blank" },
    Figure { key: "abstain", es: "Abstención", en: "Abstained" },
    Figure { key: "impeded", es: "Impedidas", en: "Impeded" },
    Figure { key: "base", es: "Base", en: "Base" },
];

/// The figure of `key` (one of [`FIGURES`]' keys).
///
/// # Panics
///
/// On a key that is not one: a mistake in the code, never in the data.
pub fn figure(key: &str) -> Figure {
    *FIGURES.iter().find(|f| f.key == key).unwrap_or_else(|| panic!("no figure named {key}"))
}

/// An option of `item`'s ballot in words, Spanish and English: `A favor`,
/// `En contra` and `En blanco` on a decision, the list's own name on an
/// election (and `En blanco`). Written once for the kiosk's sheet and
/// every page.
pub fn option_words(item: &Item, index: OptionIndex) -> (String, String) {
    let name = item.option_name(index);
    let election = matches!(item.options(), asamblea_rules::BallotOptions::Election { .. });
    let (es, en) = match (election, name) {
        (false, "for" | "against") | (_, "blank") => {
            let figure = figure(name);
            (figure.es, figure.en)
        }
        (_, list) => (list, list),
    };
    (es.to_string(), en.to_string())
}

/// A choice as it reads inside a sentence or a cell, in lower case: `a
/// favor`, `en contra`, `en blanco`, a list's own name.
pub fn option_words_lower(item: &Item, index: OptionIndex) -> String {
    let (es, _) = option_words(item, index);
    match item.option_name(index) {
        "for" | "against" | "blank" => es.to_lowercase(),
        _ => es,
    }
}

/// Why a holding may not vote on an item, as the attendee reads it, with
/// the law: preferred shares on a matter not reserved to them (Ley 222 de
/// 1995, art. 63), an administrator or employee on a matter that bars
/// them (C.Co. art. 185), or the rules' own refusal. `shares` are those
/// of the holding that vote on the item.
pub fn why_not_voting(refusal: asamblea_rules::Refusal, shares: u64) -> (String, String) {
    use asamblea_rules::Refusal;
    let (es, en) = match refusal {
        Refusal::NotEligible if shares == 0 => (
            "Estas acciones son preferenciales: no votan este punto, solo los asuntos que la ley o los estatutos les reservan (Ley 222 de 1995, art. 63).",
            "These are preferred shares: they do not vote on this item, only on the matters the law or the bylaws reserve to them.",
        ),
        Refusal::NotEligible => (
            "Un administrador o empleado de la sociedad no vota este punto (art. 185 del Código de Comercio): sus acciones no cuentan en la decisión.",
            "An administrator or employee of the company does not vote on this item (Commercial Code, art. 185).",
        ),
        other => (other.spanish(), other.english()),
    };
    (es.to_string(), en.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use asamblea_rules::{
        Ballot, Call, Capital, ClassCapital, ClassShares, HolderSpec, ItemSpec, MatterKind, MatterRules,
        MeetingKind, Profile, Register, Settings, Shares,
    };

    /// Holders `H0…` with these ordinary shares, all present, second call.
    fn meeting(shares: &[u64]) -> Meeting {
        let total = shares.iter().sum();
        let capital = Capital {
            ordinary: ClassCapital::new(Shares::new(total), Shares::ZERO).unwrap(),
            preferred: ClassCapital::default(),
        };
        let holders = shares.iter().enumerate().map(|(i, &s)| HolderSpec {
            id: format!("H{i}"),
            holdings: ClassShares::new(Shares::new(s), Shares::ZERO),
            role: None,
            split: None,
        });
        let matters = MatterKind::ALL.iter().map(|&kind| (kind, MatterRules::statutory(kind)));
        let profile = Profile::new("ley", Settings::default(), matters).unwrap();
        let mut m = Meeting::new(
            Register::new(capital, holders).unwrap(),
            profile,
            MeetingKind::Ordinary,
            Call::Second,
        );
        for i in 0..shares.len() {
            m.arrive_in_person(&format!("H{i}")).unwrap();
        }
        m
    }

    fn decided(shares: &[u64], matter: MatterKind, votes: &[Option<OptionIndex>]) -> (String, String) {
        let mut m = meeting(shares);
        m.open(ItemSpec::new("1", matter, true, BallotOptions::Decision).unwrap()).unwrap();
        for (i, choice) in votes.iter().enumerate() {
            m.vote("1", &format!("H{i}"), &Ballot::Whole(*choice)).unwrap();
        }
        m.close("1").unwrap();
        why(&m, m.item(m.item_index("1").unwrap())).unwrap()
    }

    #[test]
    fn a_decision_says_how_many_for_were_needed_at_the_exact_boundary() {
        let (yes, no) = (Some(OptionIndex::FOR), Some(OptionIndex::AGAINST));
        let (es, en) = decided(&[51, 49], MatterKind::Ordinary, &[yes, no]);
        assert_eq!(
            es,
            "aprobado: 51 acciones a favor, el 51,00 % de la base de 100; se necesitaban al menos 51"
        );
        assert!(en.starts_with("passed: 51 shares for"));
        let (es, _) = decided(&[50, 50], MatterKind::Ordinary, &[yes, no]);
        assert_eq!(
            es,
            "no aprobado: 50 acciones a favor, el 50,00 % de la base de 100; se necesitaban al menos 51"
        );
        // Above 2^32, with a special majority and its plurality.
        let big = 1u64 << 40;
        let (es, _) = decided(&[big, big / 4], MatterKind::ProfitDistributionBelowMinimum, &[yes, no]);
        // 80 % of the base is enough shares, but one holder is no plurality.
        assert_eq!(
            es,
            "no aprobado: 1.099.511.627.776 acciones a favor, el 80,00 % de la base de 1.374.389.534.720; \
             se necesitaban al menos 1.072.023.837.082, de al menos dos accionistas (votaron a favor 1)"
        );
    }

    #[test]
    fn an_election_reads_its_quotient_and_each_lists_seats() {
        let mut m = meeting(&[500, 300, 200]);
        let lists = ["X", "Y", "Z"].map(|s| s.into()).to_vec();
        m.open(
            ItemSpec::new("J", MatterKind::BoardElection, true, BallotOptions::Election { seats: 3, lists })
                .unwrap(),
        )
        .unwrap();
        for i in 0..3 {
            m.vote("J", &format!("H{i}"), &Ballot::Whole(Some(OptionIndex::list(i)))).unwrap();
        }
        m.close("J").unwrap();
        let item = m.item(m.item_index("J").unwrap());
        let (es, _) = why(&m, item).unwrap();
        assert_eq!(
            es,
            "cuociente electoral: 1.000 votos válidos (en blanco incluidos) entre 3 puestos = 333,33"
        );
        let Some(ItemResult::Election(e)) = item.result() else { panic!("an election") };
        let lists = super::lists(item, e);
        fn row(l: &asamblea_api::public::ListFigures) -> (&str, u64, u64, &str, u64, u32) {
            (l.list.as_str(), l.votes, l.by_quotient, l.remainder.as_str(), l.by_remainder, l.seats)
        }
        assert_eq!(row(&lists[0]), ("X", 500, 1, "166,66", 0, 1));
        assert_eq!(row(&lists[1]), ("Y", 300, 0, "300,00", 1, 1));
        assert_eq!(row(&lists[2]), ("Z", 200, 0, "200,00", 1, 1));
    }

    #[test]
    fn the_quotient_reads_with_two_truncated_decimals() {
        assert_eq!(quotient_text(1_000, 3), "333,33");
        assert_eq!(quotient_text(2_000_000, 3), "666.666,66");
        assert_eq!(quotient_text(u64::MAX, 1), "18.446.744.073.709.551.615,00");
        assert_eq!(quotient_text(5, 0), "—");
    }
}

/// A candidate in words, as every page and the acta print one: the
/// principal, and the suplente in brackets when the seat has one.
pub fn candidate_words(principal: &str, suplente: &str) -> String {
    if suplente.is_empty() {
        principal.to_string()
    } else {
        format!("{principal} (suplente: {suplente})")
    }
}

/// Who an election elected to each seat: each list's candidates take the
/// seats it won in the list's order (principal with their suplente). A
/// seat beyond the list's candidates has none; an election without its
/// seats (no quorum, a lot pending) elects no one. `candidates` is per
/// list in ballot order, as the meeting file named them.
pub fn elected(
    e: &ElectionResult,
    candidates: &[asamblea_api::public::ListCandidates],
) -> Vec<asamblea_api::public::ElectedSeat> {
    let Some(seats) = &e.seats else { return Vec::new() };
    if e.seats_to_draw > 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (list, won) in candidates.iter().zip(seats) {
        for seat in 0..*won {
            out.push(asamblea_api::public::ElectedSeat {
                list: list.list.clone(),
                seat: seat + 1,
                candidate: list.candidates.get(seat as usize).cloned(),
            });
        }
    }
    out
}

#[cfg(test)]
mod elected_tests {
    use super::*;
    use asamblea_api::public::{Candidate, ListCandidates};
    use asamblea_rules::{Outcome, Shares};

    fn list(name: &str, people: &[&str]) -> ListCandidates {
        ListCandidates {
            list: name.into(),
            candidates: people
                .iter()
                .map(|p| Candidate {
                    principal: p.to_string(),
                    suplente: format!("suplente de {p}"),
                    words: candidate_words(p, &format!("suplente de {p}")),
                })
                .collect(),
        }
    }

    fn result(seats: Option<Vec<u32>>, seats_to_draw: u32) -> ElectionResult {
        ElectionResult {
            outcome: Outcome::Elected,
            quorum_at_close: true,
            valid: Shares::new(10),
            blank: Shares::new(0),
            votes: vec![Shares::new(6), Shares::new(4)],
            seats,
            lot_between: Vec::new(),
            seats_to_draw,
            vacant: 0,
            base: Shares::new(0),
        }
    }

    #[test]
    fn each_list_fills_its_seats_with_its_candidates_in_order() {
        let lists = [list("A", &["Ana", "Beto"]), list("B", &["Carla"])];
        let seats = elected(&result(Some(vec![2, 2]), 0), &lists);
        let names: Vec<_> = seats
            .iter()
            .map(|s| (s.list.as_str(), s.seat, s.candidate.as_ref().map(|c| c.principal.as_str())))
            .collect();
        assert_eq!(
            names,
            [("A", 1, Some("Ana")), ("A", 2, Some("Beto")), ("B", 1, Some("Carla")), ("B", 2, None)]
        );
        assert_eq!(seats[0].candidate.as_ref().unwrap().suplente, "suplente de Ana");
        assert!(elected(&result(None, 0), &lists).is_empty(), "no quorum: no seats");
        assert!(elected(&result(Some(vec![1, 1]), 1), &lists).is_empty(), "a lot still owed");
    }
}
