//! Every majority and quorum test at its exact boundary and one share on
//! either side, table-driven through a `check(input, expected)` helper.
//! The meetings are built by hand: every voter present in person, second
//! call (so the quorum is plural holders only) unless the case is about
//! the quorum itself.

use asamblea_rules::{
    BallotOptions, Call, Capital, ClassCapital, ClassShares, HolderSpec, ItemResult, ItemSpec, MatterKind,
    Meeting, MeetingKind, QuorumRule, Register, Settings, Shares,
};

use crate::support::{legal_settings, profile, Flavor};

/// A voter: ordinary shares, preferred shares, and its choice (`for`,
/// `against`, `blank`, a list name, or `-` for no ballot).
#[derive(Clone, Copy, Debug)]
struct Voter(u64, u64, &'static str);

fn f(shares: u64) -> Voter {
    Voter(shares, 0, "for")
}
fn a(shares: u64) -> Voter {
    Voter(shares, 0, "against")
}
fn b(shares: u64) -> Voter {
    Voter(shares, 0, "blank")
}
/// Present, casts no ballot.
fn x(shares: u64) -> Voter {
    Voter(shares, 0, "-")
}
/// An administrator, present, casting no ballot.
fn adm(shares: u64) -> Voter {
    Voter(shares, 0, "administrator")
}

/// One decision: a matter, the voters (all present), the outstanding
/// shares per class (by default exactly what the voters hold; the rest is
/// held by nobody present), and treasury shares per class.
#[derive(Clone, Debug)]
struct Case {
    matter: MatterKind,
    voters: Vec<Voter>,
    outstanding: Option<(u64, u64)>,
    treasury: (u64, u64),
}

fn case(matter: MatterKind, voters: &[Voter]) -> Case {
    Case { matter, voters: voters.to_vec(), outstanding: None, treasury: (0, 0) }
}

/// The outcome code, with the winning list on an election (`elected A`).
fn decide(case: &Case) -> String {
    let held = |f: fn(&Voter) -> u64| case.voters.iter().map(f).sum::<u64>();
    let (ordinary, preferred) = case.outstanding.unwrap_or((held(|v| v.0), held(|v| v.1)));
    let class = |outstanding: u64, treasury: u64| {
        ClassCapital::new(Shares::new(outstanding + treasury), Shares::new(treasury)).unwrap()
    };
    let capital =
        Capital { ordinary: class(ordinary, case.treasury.0), preferred: class(preferred, case.treasury.1) };
    let holders = case.voters.iter().enumerate().map(|(i, v)| HolderSpec {
        id: format!("V{i}"),
        holdings: ClassShares::new(Shares::new(v.0), Shares::new(v.1)),
        role: (v.2 == "administrator").then_some(asamblea_rules::Role::Administrator),
        split: None,
    });
    let register = Register::new(capital, holders).unwrap();
    let mut meeting =
        Meeting::new(register, profile(Flavor::Legal, legal_settings()), MeetingKind::Ordinary, Call::Second);
    for i in 0..case.voters.len() {
        meeting.arrive_in_person(&format!("V{i}")).unwrap();
    }
    let options = if case.matter.is_election() {
        BallotOptions::Election { seats: 1, lists: vec!["A".into(), "B".into()] }
    } else {
        BallotOptions::Decision
    };
    let at = meeting.open(ItemSpec::new("item", case.matter, true, options).unwrap()).unwrap();
    for (i, voter) in case.voters.iter().enumerate() {
        if voter.2 != "-" && voter.2 != "administrator" {
            let ballot = asamblea_rules::Ballot::Whole(meeting.item(at).option(voter.2));
            meeting.vote("item", &format!("V{i}"), &ballot).unwrap();
        }
    }
    meeting.close("item").unwrap();
    let item = meeting.item(at);
    match item.result().unwrap() {
        ItemResult::Election(e) => match e.seats.as_ref().unwrap().iter().position(|&s| s == 1) {
            Some(w) => {
                format!("{} {}", e.outcome.code(), item.option_name(asamblea_rules::OptionIndex::list(w)))
            }
            None => e.outcome.code().to_string(),
        },
        ItemResult::Decision(d) => d.outcome.code().to_string(),
    }
}

fn check(case: Case, expected: &str) {
    assert_eq!(decide(&case), expected, "{case:?}");
}

const BIG: u64 = 1 << 40;

#[test]
fn simple_majority_needs_twice_the_for_votes_above_the_base() {
    use MatterKind::Ordinary;
    check(case(Ordinary, &[f(501), a(499)]), "pass");
    check(case(Ordinary, &[f(500), a(500)]), "fail"); // a tie fails
    check(case(Ordinary, &[f(499), a(501)]), "fail");
    // Blank votes and abstentions stay in the base (R8).
    check(case(Ordinary, &[f(500), b(1), x(499)]), "fail");
    check(case(Ordinary, &[f(501), b(1), x(498)]), "pass");
    // Odd base: 1.001.
    check(case(Ordinary, &[f(500), a(501)]), "fail");
    check(case(Ordinary, &[f(501), a(500)]), "pass");
    check(case(Ordinary, &[f(502), a(499)]), "pass");
    // A base above 2⁴⁰: 2·F against 2⁴¹ + 1.
    check(case(Ordinary, &[f(BIG), a(BIG + 1)]), "fail");
    check(case(Ordinary, &[f(BIG + 1), a(BIG)]), "pass");
    check(case(Ordinary, &[f(BIG + 2), x(BIG - 1)]), "pass");
}

#[test]
fn administrators_shares_leave_the_base_of_year_end_accounts() {
    use MatterKind::{FinancialStatements, LiquidationAccounts, Ordinary};
    // E = 1.000 − 400 impeded = 600.
    check(case(FinancialStatements, &[f(301), a(299), adm(400)]), "pass");
    check(case(FinancialStatements, &[f(300), a(300), adm(400)]), "fail");
    check(case(FinancialStatements, &[f(300), x(299), adm(401)]), "pass");
    check(case(LiquidationAccounts, &[f(299), b(301), adm(400)]), "fail");
    // The same shares on an ordinary item stay in the base.
    check(case(Ordinary, &[f(301), a(299), adm(400)]), "fail");
    // Every share present impeded (R10).
    check(case(FinancialStatements, &[adm(1), adm(999)]), "all-impeded");
}

#[test]
fn seventy_eight_percent_needs_two_holders_for() {
    use MatterKind::ProfitDistributionBelowMinimum as M;
    check(case(M, &[f(390), f(390), a(220)]), "pass"); // exactly 78 %
    check(case(M, &[f(390), f(389), a(221)]), "fail");
    check(case(M, &[f(391), f(390), a(219)]), "pass");
    check(case(M, &[f(780), a(220)]), "fail"); // 78 % from one holder
    check(case(M, &[f(999), b(1)]), "fail"); // 99.9 % from one holder
                                             // Base 1.001: 78 % is 780,78 shares, so 781.
    check(case(M, &[f(390), f(390), a(221)]), "fail");
    check(case(M, &[f(391), f(390), a(220)]), "pass");
    check(case(M, &[f(391), f(391), x(219)]), "pass");
}

#[test]
fn seventy_percent_issue_without_preemptive_rights() {
    use MatterKind::IssueWithoutPreemptiveRights as M;
    check(case(M, &[f(700), a(300)]), "pass");
    check(case(M, &[f(699), a(301)]), "fail");
    check(case(M, &[f(701), x(299)]), "pass");
    check(case(M, &[f(7), b(3)]), "pass");
    check(case(M, &[f(6), b(4)]), "fail");
    // 70 % of 2⁴⁰ + 10 is 769.658.139.450,2: 769.658.139.451 passes.
    let e = BIG + 10;
    check(case(M, &[f(769_658_139_450), a(e - 769_658_139_450)]), "fail");
    check(case(M, &[f(769_658_139_451), a(e - 769_658_139_451)]), "pass");
    check(case(M, &[f(769_658_139_452), b(e - 769_658_139_452)]), "pass");
}

#[test]
fn eighty_percent_stock_dividend() {
    use MatterKind::StockDividend as M;
    check(case(M, &[f(800), a(200)]), "pass");
    check(case(M, &[f(799), a(201)]), "fail");
    check(case(M, &[f(801), b(199)]), "pass");
}

#[test]
fn fifty_one_percent_suspension_needs_two_holders_for() {
    use MatterKind::SuspendMeeting as M;
    check(case(M, &[f(255), f(255), a(490)]), "pass");
    check(case(M, &[f(255), f(254), a(491)]), "fail");
    check(case(M, &[f(256), f(255), x(489)]), "pass");
    check(case(M, &[f(510), a(490)]), "fail"); // one holder
}

#[test]
fn preferred_changes_need_seventy_percent_of_both_classes_outstanding() {
    use MatterKind::{PreferredAdverseChange, PreferredConversion};
    // S_ORD = 1.000 and S_PREF = 1.000 outstanding, some of it absent:
    // 1.400 for in all, 700 of them preferred. A holder of preferred
    // shares alone is not in H, so a third holder makes the quorum plural.
    let absent = |voters: &[Voter]| {
        let mut voters = voters.to_vec();
        voters.push(Voter(1, 0, "-"));
        Case { outstanding: Some((1_000, 1_000)), ..case(PreferredAdverseChange, &voters) }
    };
    check(absent(&[Voter(700, 0, "for"), Voter(0, 700, "for")]), "pass");
    check(absent(&[Voter(701, 0, "for"), Voter(0, 699, "for")]), "fail"); // preferred one short
    check(absent(&[Voter(699, 0, "for"), Voter(0, 700, "for")]), "fail"); // total one short
    check(absent(&[Voter(701, 0, "for"), Voter(0, 700, "for")]), "pass");
    check(absent(&[Voter(700, 701, "for"), Voter(1, 0, "against")]), "pass"); // one holder, both classes
                                                                              // The base is the outstanding capital, not the shares present: with
                                                                              // everything present, 1.399 for fails.
    let all = |voters: &[Voter]| case(PreferredConversion, voters);
    check(all(&[Voter(699, 700, "for"), Voter(301, 300, "against")]), "fail");
    check(all(&[Voter(700, 700, "for"), Voter(300, 300, "-")]), "pass");
    check(all(&[Voter(700, 699, "for"), Voter(300, 301, "blank")]), "fail");
    // Treasury shares are not outstanding: 500 preferred in treasury still
    // leave S_PREF = 1.000.
    let treasury = |voters: &[Voter]| Case { treasury: (0, 500), ..absent(voters) };
    check(treasury(&[Voter(700, 0, "for"), Voter(0, 700, "for")]), "pass");
    check(treasury(&[Voter(701, 0, "for"), Voter(0, 699, "for")]), "fail");
}

#[test]
fn a_single_seat_needs_twice_its_votes_above_the_base() {
    use MatterKind::SingleSeatElection as M;
    let v = |shares: u64, choice: &'static str| Voter(shares, 0, choice);
    check(case(M, &[v(501, "A"), v(499, "B")]), "elected A");
    check(case(M, &[v(500, "A"), v(500, "B")]), "fail");
    check(case(M, &[v(499, "A"), v(501, "B")]), "elected B");
    check(case(M, &[v(500, "A"), v(499, "B"), v(1, "blank")]), "fail"); // blank is in the base
    check(case(M, &[v(501, "A"), x(499)]), "elected A");
    check(case(M, &[v(500, "A"), x(500)]), "fail"); // abstentions are in the base
}

// ----- quorum --------------------------------------------------------------

/// A first-call quorum question: the OQ1 rule, `S_v`, the voting shares
/// present (held by two present holders), and the settings that change
/// what `S_v` is made of.
#[derive(Clone, Copy, Debug)]
struct QuorumCase {
    rule: QuorumRule,
    voting_outstanding: u64,
    present: u64,
}

/// Whether the first-call quorum holds: two holders present (1 share and
/// `present − 1`), the rest of `S_v` absent.
fn first_call_quorum(case: QuorumCase) -> bool {
    let QuorumCase { rule, voting_outstanding, present } = case;
    assert!(present >= 2 && present <= voting_outstanding);
    let capital = Capital {
        ordinary: ClassCapital::new(Shares::new(voting_outstanding), Shares::ZERO).unwrap(),
        preferred: ClassCapital::default(),
    };
    let spec = |id: &str, shares: u64| HolderSpec {
        id: id.into(),
        holdings: ClassShares::new(Shares::new(shares), Shares::ZERO),
        role: None,
        split: None,
    };
    let holders = vec![spec("P1", 1), spec("P2", present - 1), spec("R", voting_outstanding - present)];
    let settings = Settings { quorum: rule, ..legal_settings() };
    let mut meeting = Meeting::new(
        Register::new(capital, holders).unwrap(),
        profile(Flavor::Legal, settings),
        MeetingKind::Ordinary,
        Call::First,
    );
    meeting.arrive_in_person("P1").unwrap();
    meeting.arrive_in_person("P2").unwrap();
    let reading = meeting.quorum();
    assert_eq!(reading.present.get(), present);
    assert_eq!(reading.voting_outstanding.get(), voting_outstanding);
    assert_eq!(reading.first_call, reading.this_call, "on a first call the two readings agree");
    reading.first_call
}

fn check_quorum(case: QuorumCase, expected: bool) {
    assert_eq!(first_call_quorum(case), expected, "{case:?}");
}

#[test]
fn the_first_call_quorum_at_its_boundary() {
    use QuorumRule::{HalfPlusOne, MoreThanHalf};
    let two_41 = 1u64 << 41;
    // (rule, S_v, the fewest shares present that make the quorum)
    let table = [
        (MoreThanHalf, 1_000, 501),
        (HalfPlusOne, 1_000, 501),
        (MoreThanHalf, 1_001, 501), // OQ1 default: 501 of 1.001
        (HalfPlusOne, 1_001, 502),  // OQ1 literal reading: 502 of 1.001
        (MoreThanHalf, two_41, BIG + 1),
        (HalfPlusOne, two_41, BIG + 1),
        (MoreThanHalf, two_41 + 1, BIG + 1),
        (HalfPlusOne, two_41 + 1, BIG + 2),
        (MoreThanHalf, u64::MAX, 1 << 63),
        (HalfPlusOne, u64::MAX, (1 << 63) + 1),
    ];
    for (rule, voting_outstanding, threshold) in table {
        assert_eq!(
            rule.minimum(Shares::new(voting_outstanding)).get(),
            threshold,
            "{rule:?} of {voting_outstanding}"
        );
        let at = |present| QuorumCase { rule, voting_outstanding, present };
        check_quorum(at(threshold - 1), false);
        check_quorum(at(threshold), true);
        check_quorum(at(threshold + 1), true);
    }
}

#[test]
fn the_quorum_needs_plural_holders_and_counts_only_outstanding_voting_shares() {
    let settings = legal_settings();
    let meeting_with = |holders: &[(&str, u64, u64)], treasury: u64, settings: Settings, call: Call| {
        let ordinary: u64 = holders.iter().map(|h| h.1).sum();
        let preferred: u64 = holders.iter().map(|h| h.2).sum();
        let capital = Capital {
            ordinary: ClassCapital::new(Shares::new(ordinary + treasury), Shares::new(treasury)).unwrap(),
            preferred: ClassCapital::new(Shares::new(preferred), Shares::ZERO).unwrap(),
        };
        let specs = holders.iter().map(|&(id, o, p)| HolderSpec {
            id: id.into(),
            holdings: ClassShares::new(Shares::new(o), Shares::new(p)),
            role: None,
            split: None,
        });
        Meeting::new(
            Register::new(capital, specs).unwrap(),
            profile(Flavor::Legal, settings),
            MeetingKind::Ordinary,
            call,
        )
    };
    // One holder with every share is not plural (R12).
    let mut alone = meeting_with(&[("A", 1_000, 0), ("B", 0, 0)], 0, settings, Call::First);
    alone.arrive_in_person("A").unwrap();
    alone.arrive_in_person("B").unwrap(); // no voting shares: not counted in H
    assert_eq!((alone.quorum().holders, alone.quorum().first_call), (1, false));

    // Treasury shares are not outstanding: 1.201 subscribed, 200 in
    // treasury, so S_v = 1.001 and 501 present make the quorum.
    let holders = [("A", 500, 0), ("B", 1, 0), ("C", 500, 0)];
    let mut treasury = meeting_with(&holders, 200, settings, Call::First);
    treasury.arrive_in_person("A").unwrap();
    assert!(!treasury.quorum().first_call);
    treasury.arrive_in_person("B").unwrap();
    assert_eq!((treasury.quorum().voting_outstanding.get(), treasury.quorum().first_call), (1_001, true));

    // Preferred shares count in S_v and P only under full vote (R13).
    let holders = [("A", 300, 0), ("B", 300, 0), ("C", 0, 500)];
    let mut limited = meeting_with(&holders, 0, settings, Call::First);
    let full = Settings { preferred_full_vote: true, ..settings };
    let mut full = meeting_with(&holders, 0, full, Call::First);
    for meeting in [&mut limited, &mut full] {
        meeting.arrive_in_person("A").unwrap();
        meeting.arrive_in_person("B").unwrap();
    }
    assert_eq!((limited.quorum().voting_outstanding.get(), limited.quorum().first_call), (600, true));
    assert_eq!((full.quorum().voting_outstanding.get(), full.quorum().first_call), (1_100, true));
    full.leave("B").unwrap();
    full.arrive_in_person("C").unwrap();
    assert_eq!((full.quorum().present.get(), full.quorum().first_call), (800, true));
    full.leave("C").unwrap();
    assert_eq!(
        (full.quorum().present.get(), full.quorum().holders, full.quorum().first_call),
        (300, 1, false)
    );

    // Second call: plural holders whatever the shares (R4).
    let holders = [("A", 1, 0), ("B", 1, 0), ("C", 998, 0)];
    let mut second = meeting_with(&holders, 0, settings, Call::Second);
    second.arrive_in_person("A").unwrap();
    assert_eq!((second.quorum().first_call, second.quorum().this_call), (false, false));
    second.arrive_in_person("B").unwrap();
    assert_eq!((second.quorum().first_call, second.quorum().this_call), (false, true));
}

#[test]
fn presence_by_class_counts_each_class_apart_above_2_32_and_follows_departures() {
    let big = (1u64 << 33) + 7;
    let capital = Capital {
        ordinary: ClassCapital::new(Shares::new(big + 300), Shares::ZERO).unwrap(),
        preferred: ClassCapital::new(Shares::new(big + 50), Shares::ZERO).unwrap(),
    };
    let spec = |id: &str, ordinary: u64, preferred: u64| HolderSpec {
        id: id.into(),
        holdings: ClassShares::new(Shares::new(ordinary), Shares::new(preferred)),
        role: None,
        split: None,
    };
    let holders = vec![spec("O", big, 0), spec("P", 0, big), spec("B", 100, 50), spec("A", 200, 0)];
    let mut meeting = Meeting::new(
        Register::new(capital, holders).unwrap(),
        profile(Flavor::Legal, legal_settings()),
        MeetingKind::Ordinary,
        Call::First,
    );
    assert_eq!(meeting.presence_by_class(), asamblea_rules::ClassPresence::default());
    for id in ["O", "P", "B"] {
        meeting.arrive_in_person(id).unwrap();
    }
    let present = meeting.presence_by_class();
    assert_eq!(present.shares, ClassShares::new(Shares::new(big + 100), Shares::new(big + 50)));
    assert_eq!((present.ordinary_holders, present.preferred_holders), (2, 2));
    meeting.leave("P").unwrap();
    let present = meeting.presence_by_class();
    assert_eq!(present.shares, ClassShares::new(Shares::new(big + 100), Shares::new(50)));
    assert_eq!((present.ordinary_holders, present.preferred_holders), (2, 1));
}

#[test]
fn every_poll_open_and_close_records_the_quorum_then_and_a_refused_open_records_nothing() {
    use asamblea_rules::PollMoment;
    let big = (1u64 << 33) + 7;
    let capital = Capital {
        ordinary: ClassCapital::new(Shares::new(big + 300), Shares::ZERO).unwrap(),
        preferred: ClassCapital::new(Shares::new(50), Shares::ZERO).unwrap(),
    };
    let spec = |id: &str, ordinary: u64, preferred: u64| HolderSpec {
        id: id.into(),
        holdings: ClassShares::new(Shares::new(ordinary), Shares::new(preferred)),
        role: None,
        split: None,
    };
    let holders = vec![spec("O", big, 0), spec("B", 100, 50), spec("A", 200, 0)];
    let mut meeting = Meeting::new(
        Register::new(capital, holders).unwrap(),
        profile(Flavor::Legal, legal_settings()),
        MeetingKind::Ordinary,
        Call::First,
    );
    let item = |id: &str| ItemSpec::new(id, MatterKind::Ordinary, true, BallotOptions::Decision).unwrap();
    meeting.arrive_in_person("O").unwrap();
    assert!(meeting.open(item("1")).is_err(), "one holder is no quorum");
    assert!(meeting.quorum_series().is_empty(), "a refused open records nothing");
    meeting.arrive_in_person("B").unwrap();
    let first = meeting.open(item("1")).unwrap();
    meeting.arrive_in_person("A").unwrap();
    meeting.close("1").unwrap();
    meeting.leave("B").unwrap();
    assert!(meeting.close("1").is_err());
    let series = meeting.quorum_series();
    assert_eq!(series.len(), 2, "a refused close records nothing either");
    assert_eq!((series[0].item, series[0].moment), (first, PollMoment::Opened));
    assert_eq!(series[0].quorum.present.get(), big + 100);
    assert_eq!((series[0].quorum.holders, series[0].by_class.preferred_holders), (2, 1));
    assert_eq!(series[0].by_class.shares.preferred.get(), 50);
    assert_eq!((series[1].item, series[1].moment), (first, PollMoment::Closed));
    assert_eq!(series[1].quorum.present.get(), big + 300);
    assert_eq!(series[1].quorum.holders, 3);
    assert!(series.iter().all(|p| p.quorum.this_call));
}
