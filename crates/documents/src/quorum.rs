//! The quorum as people read it: the threshold of this meeting's call in
//! words with its article and the fewest shares that meet it, who is
//! present by share class, and one point of the quorum series (every poll's
//! open and close, R3) as the API's types. Written once here for the status the
//! consoles and the board poll, the secretary's series and the acta.

use asamblea_api::public as api;
use asamblea_rules::{
    Call, ClassPresence, Meeting, PollMoment, QuorumPoint, QuorumReading, QuorumRule, ShareClass,
};

use crate::numfmt::{percent, thousands};
use crate::rule_text::RuleText;

/// The quorum this meeting's call needs, in words, with its source
/// (`rules.md` R3, R4, OQ1). On a first call the words carry the fewest
/// voting shares that meet it, out of `meeting`'s outstanding voting
/// shares.
pub fn quorum_rule_text(meeting: &Meeting) -> RuleText {
    let voting = meeting.quorum().voting_outstanding;
    let rule = meeting.settings().quorum;
    let outstanding = thousands(voting.get());
    match minimum_shares(meeting) {
        Some(minimum) => {
            let minimum = thousands(minimum);
            let (es, en) = match rule {
                QuorumRule::MoreThanHalf => ("más de la mitad", "more than half"),
                QuorumRule::HalfPlusOne => ("la mitad más una", "half plus one"),
            };
            RuleText {
                es: format!(
                    "{es} de las acciones con derecho a voto: al menos {minimum} de {outstanding}, \
                     de dos o más accionistas"
                ),
                en: format!("{en} of the voting shares: at least {minimum} of {outstanding}, from two or more holders"),
                source: "Ley 222 de 1995, art. 68".to_string(),
            }
        }
        None => RuleText {
            es: "dos o más accionistas, cualquiera sea la cantidad de acciones representada".to_string(),
            en: "two or more holders, whatever the shares represented".to_string(),
            source: if meeting.call() == Call::Second { "C.Co. art. 429" } else { "C.Co. arts. 422 y 429" }
                .to_string(),
        },
    }
}

/// The fewest voting shares present that make this meeting's quorum: on a
/// first call, the OQ1 rule's minimum of the outstanding voting shares; on
/// a second call or by own right none (two holders suffice, R4).
pub fn minimum_shares(meeting: &Meeting) -> Option<u64> {
    (meeting.call() == Call::First)
        .then(|| meeting.settings().quorum.minimum(meeting.quorum().voting_outstanding).get())
}

/// Who is present in each share class, with the percentage of the class's
/// outstanding shares; the preferred class only where the company has
/// preferred shares.
pub fn by_class(meeting: &Meeting, present: &ClassPresence) -> Vec<api::ClassPresence> {
    let outstanding = meeting.register().capital().outstanding();
    crate::attendance::classes(meeting)
        .into_iter()
        .map(|class| {
            let shares = present.shares.of(class).get();
            api::ClassPresence {
                class: class.code().to_string(),
                name_es: crate::attendance::class_es(class).to_string(),
                present: shares,
                outstanding: outstanding.of(class).get(),
                holders: match class {
                    ShareClass::Ordinary => present.ordinary_holders,
                    ShareClass::Preferred => present.preferred_holders,
                },
                percent: percent(shares, outstanding.of(class).get()),
            }
        })
        .collect()
}

/// A reading of the quorum: voting shares and holders present, the
/// denominator, the percentage and whether this call's quorum holds.
pub fn reading(reading: &QuorumReading) -> api::QuorumReading {
    api::QuorumReading {
        present_shares: reading.present.get(),
        holders: reading.holders,
        voting_outstanding: reading.voting_outstanding.get(),
        percent: percent(reading.present.get(), reading.voting_outstanding.get()),
        met: reading.this_call,
    }
}

/// One point of the quorum series: the item, `open` or `close`, the
/// reading and the presence by class then.
pub fn point(meeting: &Meeting, point: &QuorumPoint) -> api::QuorumPoint {
    api::QuorumPoint {
        reading: reading(&point.quorum),
        item: meeting.item(point.item).id().to_string(),
        moment: match point.moment {
            PollMoment::Opened => "open",
            PollMoment::Closed => "close",
        }
        .to_string(),
        by_class: by_class(meeting, &point.by_class),
    }
}

/// The whole series so far, in order.
pub fn series(meeting: &Meeting) -> Vec<api::QuorumPoint> {
    meeting.quorum_series().iter().map(|p| point(meeting, p)).collect()
}

/// The quorum now as the board shows it: the reading, the first call's
/// verdict, the threshold in words, presence by class, and the series
/// every poll's open and close recorded.
pub fn now(meeting: &Meeting) -> api::Quorum {
    let current = meeting.quorum();
    let rule = quorum_rule_text(meeting);
    api::Quorum {
        reading: reading(&current),
        first_call_met: current.first_call,
        threshold_es: rule.es,
        threshold_en: rule.en,
        threshold_source: rule.source,
        minimum_shares: minimum_shares(meeting),
        by_class: by_class(meeting, &meeting.presence_by_class()),
        series: series(meeting),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use asamblea_rules::{
        BallotOptions, Capital, ClassCapital, ClassShares, HolderSpec, ItemSpec, MatterKind, MatterRules,
        MeetingKind, Profile, Register, Settings, Shares,
    };

    fn meeting(call: Call, quorum: QuorumRule) -> Meeting {
        let capital = Capital {
            ordinary: ClassCapital::new(Shares::new(1_001), Shares::ZERO).unwrap(),
            preferred: ClassCapital::new(Shares::new(10), Shares::ZERO).unwrap(),
        };
        let spec = |id: &str, ordinary: u64, preferred: u64| HolderSpec {
            id: id.into(),
            holdings: ClassShares::new(Shares::new(ordinary), Shares::new(preferred)),
            role: None,
            split: None,
        };
        let register =
            Register::new(capital, [spec("A", 500, 0), spec("B", 1, 10), spec("C", 500, 0)]).unwrap();
        let settings = Settings { quorum, ..Settings::default() };
        let matters = MatterKind::ALL.iter().map(|&kind| (kind, MatterRules::statutory(kind)));
        Meeting::new(register, Profile::new("ley", settings, matters).unwrap(), MeetingKind::Ordinary, call)
    }

    #[test]
    fn the_threshold_reads_with_its_fewest_shares_and_article() {
        let first = quorum_rule_text(&meeting(Call::First, QuorumRule::MoreThanHalf));
        assert_eq!(
            first.es,
            "más de la mitad de las acciones con derecho a voto: al menos 501 de 1.001, de dos o más accionistas"
        );
        assert_eq!(first.source, "Ley 222 de 1995, art. 68");
        let literal = quorum_rule_text(&meeting(Call::First, QuorumRule::HalfPlusOne));
        assert!(literal.es.starts_with("la mitad más una") && literal.es.contains("al menos 502 de 1.001"));
        let second = quorum_rule_text(&meeting(Call::Second, QuorumRule::MoreThanHalf));
        assert!(second.es.starts_with("dos o más accionistas") && second.source == "C.Co. art. 429");
        assert_eq!(minimum_shares(&meeting(Call::First, QuorumRule::HalfPlusOne)), Some(502));
        assert_eq!(minimum_shares(&meeting(Call::Second, QuorumRule::HalfPlusOne)), None);
    }

    #[test]
    fn the_series_names_each_item_and_moment_with_the_classes_then() {
        let mut m = meeting(Call::First, QuorumRule::MoreThanHalf);
        m.arrive_in_person("A").unwrap();
        m.arrive_in_person("B").unwrap();
        m.open(ItemSpec::new("1", MatterKind::Ordinary, true, BallotOptions::Decision).unwrap()).unwrap();
        m.leave("B").unwrap();
        m.close("1").unwrap();
        let series = series(&m);
        assert_eq!(series[0].item, "1");
        assert_eq!(series[0].moment, "open");
        assert_eq!(series[0].reading.present_shares, 501);
        assert_eq!(series[0].reading.percent, "50,04 %");
        assert!(series[0].reading.met);
        assert_eq!(series[0].by_class[1].present, 10);
        assert_eq!(series[1].moment, "close");
        assert!(!series[1].reading.met, "B left: one holder is no quorum");
        assert_eq!(series[1].by_class[1].holders, 0);
    }
}
