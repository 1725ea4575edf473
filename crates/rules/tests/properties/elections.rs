//! The electoral quotient (C.Co Art. 197, R15, OQ6): `apportion` against a
//! naive largest-remainders reference and the laws it must keep, and a lot
//! drawn through a meeting until every seat is given.

use asamblea_rules::{apportion, Call, ClassShares, ItemResult, MatterKind, Outcome, Shares};
use proptest::collection::vec;
use proptest::prelude::*;

use crate::reference::{naive_apportion, NaiveApportionment};
use crate::support::{config, legal_settings, option, Base, Flavor, HolderGen, ItemGen, Step, MAX_SHARES};

/// Votes per list: tiny counts (ties everywhere), large ones (sums above
/// 2³²), or a few large values repeated (ties at scale); then blank votes
/// and the seats on offer.
fn election() -> impl Strategy<Value = (Vec<u64>, u64, u32)> {
    let votes = prop_oneof![
        vec(0u64..=6, 1..=8),
        vec(prop_oneof![1 => Just(0u64), 4 => 1..=MAX_SHARES], 1..=8),
        (vec(0usize..3, 1..=8), vec(0..=MAX_SHARES, 3))
            .prop_map(|(pick, palette)| { pick.into_iter().map(|i| palette[i]).collect() }),
    ];
    let blank = prop_oneof![2 => Just(0u64), 1 => 0u64..=6, 1 => 0..=MAX_SHARES];
    (votes, blank, 1u32..=12)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_quotient_matches_a_naive_largest_remainders((votes, blank, seats) in election()) {
        let shares: Vec<Shares> = votes.iter().copied().map(Shares::new).collect();
        let got = apportion(&shares, Shares::new(blank), seats);
        let want = naive_apportion(&votes, blank, seats);
        let got_plain = got.as_ref().map(|a| NaiveApportionment {
            seats: a.seats.clone(),
            lot_between: a.lot_between.clone(),
            seats_to_draw: a.seats_to_draw,
            vacant: a.vacant,
        });
        prop_assert_eq!(&got_plain, &want);

        let valid: u128 = votes.iter().map(|&v| u128::from(v)).sum::<u128>() + u128::from(blank);
        let Some(a) = got else {
            prop_assert_eq!(valid, 0, "no apportionment although there are valid votes");
            return Ok(());
        };
        prop_assert_eq!(a.seats.len(), votes.len(), "one entry per list, none for blank");
        let given: u32 = a.seats.iter().sum();
        prop_assert_eq!(given + a.seats_to_draw + a.vacant, seats, "every seat given, drawn or vacant");
        if a.lot_between.is_empty() {
            prop_assert_eq!(a.seats_to_draw, 0);
            prop_assert_eq!(given, seats - a.vacant);
        } else {
            prop_assert!(a.seats_to_draw >= 1 && (a.seats_to_draw as usize) < a.lot_between.len());
            prop_assert_eq!(a.vacant, 0, "a lot and vacant seats at once");
            prop_assert!(a.lot_between.windows(2).all(|w| w[0] < w[1]), "lot not in ballot order");
        }
        let n = u128::from(seats);
        let remainder = |i: usize| u128::from(votes[i]) * n % valid;
        for (i, &v) in votes.iter().enumerate() {
            let whole = (u128::from(v) * n / valid) as u32;
            prop_assert!(a.seats[i] >= whole, "list {} below its whole quotient", i);
            prop_assert!(a.seats[i] <= whole + 1, "list {} took two remainder seats", i);
            if v == 0 {
                prop_assert_eq!(a.seats[i], 0, "a list with no votes took a seat");
                prop_assert!(!a.lot_between.contains(&i));
            }
            if a.vacant > 0 && v > 0 {
                prop_assert_eq!(a.seats[i], whole + 1, "a seat left vacant while list {} could take it", i);
            }
        }
        // Blank votes never win a seat: a seat stays vacant only once every
        // list with votes has its remainder seat, so without blank votes no
        // seat is ever vacant.
        if blank == 0 {
            prop_assert_eq!(a.vacant, 0);
        }
        // Lists tied for the lot share one remainder, and every list that
        // took a remainder seat had at least that remainder.
        if let Some(&first) = a.lot_between.first() {
            let cutoff = remainder(first);
            prop_assert!(a.lot_between.iter().all(|&i| remainder(i) == cutoff));
            for (i, &v) in votes.iter().enumerate() {
                let whole = (u128::from(v) * n / valid) as u32;
                if a.seats[i] == whole + 1 {
                    prop_assert!(remainder(i) > cutoff, "list {} took a remainder seat at or below the tie", i);
                }
            }
        }
    }

    /// Through a meeting: a board election whose lists tie at the cutoff
    /// waits for draws; a draw of a list not in the lot is refused; drawing
    /// the lot's lists one by one ends in `elected` with every seat given.
    #[test]
    fn drawing_lots_gives_exactly_the_seats_left(
        votes in vec((0usize..4, 1u64..=3), 2..=20),
        seats in 1u32..=6,
        order in any::<u16>(),
    ) {
        let holders: Vec<HolderGen> = votes
            .iter()
            .map(|&(_, shares)| HolderGen { ordinary: shares, preferred: 0, role: None, split: None })
            .collect();
        let base = Base {
            holders,
            unheld: ClassShares::default(),
            treasury: ClassShares::default(),
            settings: legal_settings(),
            flavor: Flavor::Legal,
            kind: asamblea_rules::MeetingKind::Ordinary,
            call: Call::Second,
            items: vec![ItemGen { matter: MatterKind::BoardElection, lists: 4, seats }],
        };
        let mut meeting = base.meeting();
        for h in 0..base.holders.len() {
            meeting.arrive_in_person(&Base::holder_id(h)).unwrap();
        }
        meeting.open(base.spec(0, true)).unwrap();
        for (h, &(list, _)) in votes.iter().enumerate() {
            let step = Step::Vote {
                item: Base::item_id(0),
                holder: Base::holder_id(h),
                ballot: asamblea_rules::Ballot::Whole(Some(option(list))),
            };
            step.apply(&mut meeting).unwrap();
        }
        meeting.close("I0").unwrap();
        let result = |meeting: &asamblea_rules::Meeting| match meeting.item(meeting.item_index("I0").unwrap()).result() {
            Some(ItemResult::Election(e)) => e.clone(),
            other => panic!("not an election result: {other:?}"),
        };
        let mut e = result(&meeting);
        let seat_sum = |e: &asamblea_rules::ElectionResult| e.seats.as_ref().unwrap().iter().sum::<u32>();
        // Every ballot names a list (no blank votes), so no seat stays vacant.
        prop_assert_eq!(e.vacant, 0);
        let mut turn = usize::from(order);
        while e.outcome == Outcome::LotRequired {
            prop_assert_eq!(seat_sum(&e) + e.seats_to_draw + e.vacant, seats);
            let outsider = (0..4).find(|i| !e.lot_between.contains(i)).map(Base::list_name);
            if let Some(outsider) = outsider {
                prop_assert_eq!(meeting.draw("I0", &outsider), Err(asamblea_rules::Refusal::UnknownOption));
                prop_assert_eq!(&result(&meeting), &e, "a refused draw changed the result");
            }
            let winner = e.lot_between[turn % e.lot_between.len()];
            turn /= 2;
            meeting.draw("I0", &Base::list_name(winner)).unwrap();
            let next = result(&meeting);
            prop_assert_eq!(next.seats.as_ref().unwrap()[winner], e.seats.as_ref().unwrap()[winner] + 1);
            prop_assert_eq!(next.seats_to_draw + 1, e.seats_to_draw);
            e = next;
        }
        prop_assert_eq!(e.outcome, Outcome::Elected);
        prop_assert!(e.lot_between.is_empty() && e.seats_to_draw == 0);
        prop_assert_eq!(seat_sum(&e), seats - e.vacant);
        prop_assert_eq!(meeting.draw("I0", "L0"), Err(asamblea_rules::Refusal::NoLotPending));
    }
}
