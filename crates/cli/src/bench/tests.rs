//! Unit tests of the bench's pooling, shares and quantiles.

use std::time::Duration;

use super::figures::{millis, quantile, seconds, Run, Spent};
use super::setup::shares;

#[test]
fn pooled_runs_add_up_ballots_time_cpu_and_latencies() {
    let run = |ballots: usize, millis: u64, cpu: u64, failure: Option<&str>| Run {
        ballots,
        elapsed: Duration::from_millis(millis),
        latencies: (1..=ballots as u64).rev().map(Duration::from_micros).collect(),
        failures: usize::from(failure.is_some()),
        first_failure: failure.map(str::to_string),
        cpu: vec![Spent { name: "daemon", cpu: Duration::from_millis(cpu), switches: 3 }],
    };
    let pooled = Run::pooled(&[run(100, 1_000, 10, None), run(300, 1_000, 30, Some("boom"))]);
    assert_eq!(pooled.ballots, 400);
    assert_eq!(pooled.rate(), 200, "400 ballots in 2 s");
    assert_eq!(pooled.latencies.len(), 400);
    assert!(pooled.latencies.windows(2).all(|w| w[0] <= w[1]), "sorted");
    assert_eq!((pooled.failures, pooled.first_failure.as_deref()), (1, Some("boom")));
    assert_eq!(pooled.cpu.len(), 1);
    assert_eq!((pooled.cpu[0].cpu, pooled.cpu[0].switches), (Duration::from_millis(40), 6));
    assert_eq!(pooled.cpu_per_ballot(), Some(100));
}

#[test]
fn shares_are_nearly_equal_and_keep_everything_in_order() {
    let split = shares((0..10).collect(), 3);
    assert_eq!(split, [vec![0, 1, 2, 3], vec![4, 5, 6], vec![7, 8, 9]]);
    assert_eq!(shares(vec![1, 2], 2), [vec![1], vec![2]]);
}

#[test]
fn quantiles_are_nearest_rank() {
    let run = Run {
        ballots: 100,
        elapsed: Duration::from_secs(1),
        latencies: (1..=100).map(Duration::from_millis).collect(),
        failures: 0,
        first_failure: None,
        cpu: Vec::new(),
    };
    assert_eq!(quantile(&run.latencies, 500), Duration::from_millis(50));
    assert_eq!(quantile(&run.latencies, 990), Duration::from_millis(99));
    assert_eq!(run.rate(), 100);
    assert_eq!(millis(Duration::from_micros(12_345)), "12,3 ms");
    assert_eq!(quantile(&[], 990), Duration::ZERO);
    assert_eq!(seconds(Duration::from_millis(2_415)), "2,41 s");
}
