//! The rule that decides an agenda item, in words, with the source it comes
//! from: what the chair reads before opening a poll and after closing it,
//! and what the acta records (`docs/rules.md` R9–R11, R13, R15, OQ8).
//! Written once here for the consoles and the documents.

use asamblea_rules::{Majority, MatterKind, MeetingKind, Profile};

/// How an item is decided: the rule in Spanish and English, and its
/// source (the article, or the company's bylaws).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleText {
    /// The rule, in Spanish.
    pub es: String,
    /// The same, in English.
    pub en: String,
    /// Where it comes from.
    pub source: String,
}

/// The rule that decides `kind` in a meeting of `meeting` kind under
/// `profile`: its majority, who may not vote, and whether preferred shares
/// vote.
pub fn rule_text(profile: &Profile, kind: MatterKind, meeting: MeetingKind) -> RuleText {
    let majority = profile.effective_majority(kind, meeting);
    let rules = profile.matter(kind);
    let by_bylaws = majority != rules.majority;
    let (mut es, mut en) = match majority {
        Majority::Simple => (
            "mayoría de las acciones presentes: más de la mitad; un empate no aprueba".to_string(),
            "a majority of the shares present: more than half; a tie fails".to_string(),
        ),
        Majority::AtLeastPercent { percent, plural } => (
            format!(
                "mayoría especial del {percent} % de las acciones presentes{}",
                if plural { " y pluralidad (al menos dos accionistas a favor)" } else { "" }
            ),
            format!(
                "a special majority of {percent} % of the shares present{}",
                if plural { " and plurality (at least two holders for)" } else { "" }
            ),
        ),
        Majority::TwoClassSubscribed { percent } => (
            format!(
                "el {percent} % de las acciones suscritas de ambas clases y el {percent} % de las preferenciales"
            ),
            format!("{percent} % of the subscribed shares of both classes and {percent} % of the preferred"),
        ),
        Majority::ElectoralQuotient => (
            "cuociente electoral: cada lista elige tantos puestos como veces quepa el cuociente en sus votos, y los restantes van a los residuos mayores".to_string(),
            "electoral quotient: each list wins a seat per quotient in its votes, the rest go to the largest remainders".to_string(),
        ),
        // OQ8: 2·v > E, with E as every decision's base (OQ2); no one
        // elected is a new round, as a new item.
        Majority::SingleSeat => match profile.settings().base {
            asamblea_rules::DecisionBase::Present => (
                "es elegido el candidato que obtenga más de la mitad de las acciones presentes con derecho a voto en el punto al cierre (los votos en blanco, las abstenciones y quienes no votan cuentan en esa base); si nadie la alcanza, nadie es elegido y se vota de nuevo como un punto nuevo".to_string(),
                "the candidate with more than half of the voting shares present on the item at the close is elected (blank votes, abstentions and those who do not vote count in that base); if no one reaches it, no one is elected and a new round is a new item".to_string(),
            ),
            asamblea_rules::DecisionBase::Cast => (
                "es elegido el candidato que obtenga más de la mitad de los votos emitidos (cada candidato y en blanco); si nadie la alcanza, nadie es elegido y se vota de nuevo como un punto nuevo".to_string(),
                "the candidate with more than half of the votes cast (every candidate and blank) is elected; if no one reaches it, no one is elected and a new round is a new item".to_string(),
            ),
        },
    };
    if rules.administrators_barred {
        es.push_str("; los administradores y empleados no votan y sus acciones salen de la base");
        en.push_str("; administrators and employees may not vote and their shares leave the base");
    }
    if rules.preferred_votes {
        es.push_str("; votan también las acciones preferenciales");
        en.push_str("; preferred shares vote too");
    }
    let source = if by_bylaws {
        format!("estatutos de la sociedad (perfil «{}»)", profile.name())
    } else {
        statutory_source(kind).to_string()
    };
    RuleText { es, en, source }
}

/// The law behind a matter's statutory rule (`docs/rules.md` §8.4).
fn statutory_source(kind: MatterKind) -> &'static str {
    use MatterKind::*;
    match kind {
        FinancialStatements | LiquidationAccounts => "Ley 222 de 1995, art. 68; C.Co. art. 185",
        ProfitDistributionBelowMinimum => "C.Co. art. 155",
        IssueWithoutPreemptiveRights => "C.Co. art. 420 num. 5",
        StockDividend => "C.Co. art. 455",
        PreferredAdverseChange | PreferredConversion => "Ley 222 de 1995, arts. 61 a 64",
        SuspendMeeting => "C.Co. art. 430",
        BoardElection => "C.Co. art. 197",
        SingleSeatElection => "C.Co. art. 204",
        _ => "Ley 222 de 1995, art. 68",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use asamblea_rules::{MatterRules, Settings};

    fn statutory() -> Profile {
        let matters = MatterKind::ALL.iter().map(|&kind| (kind, MatterRules::statutory(kind)));
        Profile::new("ley", Settings::default(), matters).expect("every matter once")
    }

    #[test]
    fn each_majority_reads_as_the_chair_says_it_with_its_article() {
        let p = statutory();
        let below = rule_text(&p, MatterKind::ProfitDistributionBelowMinimum, MeetingKind::Ordinary);
        assert_eq!(
            below.es,
            "mayoría especial del 78 % de las acciones presentes y pluralidad (al menos dos accionistas a favor)"
        );
        assert_eq!(below.source, "C.Co. art. 155");
        let statements = rule_text(&p, MatterKind::FinancialStatements, MeetingKind::Ordinary);
        assert!(statements.es.starts_with("mayoría de las acciones presentes"));
        assert!(statements.es.contains("los administradores y empleados no votan"));
        assert!(statements.source.contains("art. 185"));
        let conversion = rule_text(&p, MatterKind::PreferredConversion, MeetingKind::Ordinary);
        assert!(conversion.es.contains("70 % de las acciones suscritas de ambas clases"));
        assert!(conversion.es.contains("votan también las acciones preferenciales"));
        let board = rule_text(&p, MatterKind::BoardElection, MeetingKind::Ordinary);
        assert!(board.es.starts_with("cuociente electoral") && board.source == "C.Co. art. 197");
        assert_eq!(
            MatterRules::statutory(MatterKind::Ordinary).majority,
            Majority::Simple,
            "the ordinary matter's text is the simple majority's"
        );
    }
}
