//! Unit tests of `bench-remote`'s pure parts: the options' bounds, the
//! phones' addresses and moments, the kiosks' pace, the figures.

use std::time::Duration;

use super::kiosks::due;
use super::phones::{moment, source_of, PER_ADDRESS};
use super::{check_options, kiosk_ballots, RemoteOptions};
use crate::bench::figures::{stat_cpu, status_kb};

fn options(attendees: &[usize]) -> RemoteOptions {
    RemoteOptions {
        attendees: attendees.to_vec(),
        window: Duration::from_secs(120),
        kiosks: 16,
        kiosk_rate: 40,
        rounds: 1,
    }
}

#[test]
fn the_options_are_bounded_and_each_refusal_names_its_flag() {
    assert!(check_options(&options(&[5_000, 10_000, 20_000])).is_ok());
    for (wrong, flag) in [
        (options(&[]), "--attendees"),
        (options(&[0]), "--attendees"),
        (options(&[super::MAX_ATTENDEES + 1]), "--attendees"),
        (RemoteOptions { window: Duration::from_millis(999), ..options(&[10]) }, "--window"),
        (RemoteOptions { kiosks: 0, ..options(&[10]) }, "--kiosks"),
        (RemoteOptions { kiosk_rate: 15, ..options(&[10]) }, "--kiosk-rate"),
        (RemoteOptions { rounds: 0, ..options(&[10]) }, "--rounds"),
        (RemoteOptions { rounds: 129, ..options(&[10]) }, "--rounds"),
    ] {
        let message = check_options(&wrong).expect_err(flag).to_string();
        assert!(message.contains(flag), "{message}");
    }
    assert!(check_options(&RemoteOptions { rounds: 128, ..options(&[10]) }).is_ok());
}

#[test]
fn the_kiosks_send_their_rate_over_the_window() {
    assert_eq!(kiosk_ballots(&options(&[10])), 4_800, "40 a second for 120 s");
    let short = RemoteOptions { window: Duration::from_millis(1_500), kiosk_rate: 16, ..options(&[10]) };
    assert_eq!(kiosk_ballots(&short), 24);
    let window = Duration::from_secs(120);
    assert_eq!(due(0, 4_800, window), Duration::ZERO);
    assert_eq!(due(2_400, 4_800, window), Duration::from_secs(60));
    assert_eq!(due(4_799, 4_800, window), Duration::from_millis(119_975));
}

#[test]
fn phones_share_an_address_by_25_and_vote_in_the_middle_of_their_slice() {
    assert_eq!(PER_ADDRESS, 25);
    assert_eq!(source_of(0).to_string(), "127.2.0.1");
    assert_eq!(source_of(24).to_string(), "127.2.0.1");
    assert_eq!(source_of(25).to_string(), "127.2.0.2");
    assert_eq!(source_of(25 * 250).to_string(), "127.2.1.1");
    assert_eq!(source_of(25 * 250 * 250).to_string(), "127.3.0.1");
    let addresses: std::collections::HashSet<_> = (0..200_000).map(source_of).collect();
    assert_eq!(addresses.len(), 200_000 / 25, "every address its own 25");
    assert!(addresses.iter().all(|a| a.is_loopback()));
    let window = Duration::from_secs(120);
    assert_eq!(moment(0, 2, window), Duration::from_secs(30));
    assert_eq!(moment(1, 2, window), Duration::from_secs(90));
    assert_eq!(moment(19_999, 20_000, window), Duration::from_micros(119_997_000));
}

#[test]
fn the_daemons_memory_and_cpu_are_read_from_proc_texts() {
    let status = "Name:\tasamblea\nVmHWM:\t  90000 kB\nVmRSS:\t   81234 kB\n";
    assert_eq!(status_kb(status, "VmRSS:"), Some(81_234));
    assert_eq!(status_kb(status, "VmHWM:"), Some(90_000));
    assert_eq!(status_kb(status, "VmSwap:"), None);
    // A command with a space and a parenthesis; utime 250, stime 50 ticks.
    let stat = "4242 (tokio (x) y) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 3 0";
    assert_eq!(stat_cpu(stat), Some(Duration::from_secs(3)));
    assert_eq!(stat_cpu("4242 (x) S 1"), None);
}

#[test]
fn feeds_past_this_process_s_descriptors_go_to_helpers_each_as_many_as_fit() {
    use super::feeds::{parse_connected, split, RESERVED_FILES};
    // 20.000 descriptors: 15.904 here, the rest in one helper.
    let (here, helpers) = split(20_000, 20_000);
    assert_eq!(here, 20_000 - RESERVED_FILES as usize);
    assert_eq!(helpers.len(), 1);
    assert_eq!(helpers[0], 15_904..20_000);
    // Plenty of descriptors: none.
    assert_eq!(split(5_000, 20_000), (5_000, vec![]));
    // Few: as many helpers as it takes, none holding more than fits.
    let (here, helpers) = split(1_000, RESERVED_FILES + 300);
    assert_eq!(here, 300);
    assert_eq!(helpers, [300..600, 600..900, 900..1_000]);

    assert_eq!(parse_connected("9950 0:40,429:10"), Some((9_950, vec![(0, 40), (429, 10)])));
    assert_eq!(parse_connected("10000 "), Some((10_000, vec![])));
    assert_eq!(parse_connected("x"), None);
    assert_eq!(parse_connected("10 429"), None, "a refusal without its count");
}

#[test]
fn the_daemons_caps_leave_descriptors_for_the_kiosks() {
    use super::report::{caps, DAEMON_SPARE_FILES};
    // Room enough: every attendee's feed, half as many requests, the staff.
    assert_eq!(caps(10_000, 48_192), (16_024, 10_064));
    // 20.000 descriptors cannot hold 20.000 feeds and the kiosks.
    let (connections, feeds) = caps(20_000, 20_000);
    assert_eq!(feeds, 20_000 - DAEMON_SPARE_FILES as usize);
    assert_eq!(connections, 20_000 - DAEMON_SPARE_FILES as usize / 2);
    assert!(feeds < connections && (connections as u64) < 20_000);
}
