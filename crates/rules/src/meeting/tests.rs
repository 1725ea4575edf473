//! Tests of the meeting's majority tests against known points.

use super::figures::passes;
use super::*;
use proptest::prelude::*;

fn majority() -> impl Strategy<Value = Majority> {
    prop_oneof![
        Just(Majority::Simple),
        (1u8..=100, any::<bool>()).prop_map(|(percent, plural)| Majority::AtLeastPercent { percent, plural }),
    ]
}

proptest! {
    /// The threshold the chair reads is exactly the kernel's test: the
    /// fewest votes for that pass, one fewer fails (shares above 2^32
    /// included).
    #[test]
    fn for_votes_needed_is_the_boundary_of_passes(m in majority(), base in 1u64..u64::MAX, small in any::<bool>()) {
        let base = if small { base % 10_000 + 1 } else { base };
        let needed = m.for_votes_needed(Shares::new(base)).unwrap().get();
        let pass = |f: u64| passes(m, Shares::new(f), Shares::new(base), 2, ClassShares::default(), ClassShares::default());
        prop_assert!(needed > 0);
        if needed <= base { prop_assert!(pass(needed)); }
        prop_assert!(!pass(needed - 1));
    }
}

#[test]
fn for_votes_needed_at_known_points() {
    let needed = |m: Majority, e: u64| m.for_votes_needed(Shares::new(e)).unwrap().get();
    assert_eq!(needed(Majority::Simple, 100), 51);
    assert_eq!(needed(Majority::Simple, 101), 51);
    assert_eq!(needed(Majority::AtLeastPercent { percent: 78, plural: true }, 1_000), 780);
    assert_eq!(needed(Majority::AtLeastPercent { percent: 78, plural: true }, 1_001), 781);
    assert_eq!(needed(Majority::AtLeastPercent { percent: 100, plural: false }, u64::MAX), u64::MAX);
    assert_eq!(Majority::ElectoralQuotient.for_votes_needed(Shares::new(9)), None);
}
