//! Replay benchmark of the engine's hot path: a meeting of 100,000 holders,
//! all present, with 10 items open, takes 1,000,000 pre-resolved ballots
//! through `Meeting::cast` (every holder on every item, in a shuffled
//! order), then closes every item.
//!
//! Run with `cargo bench -p asamblea-rules`. It prints the best and median
//! ballots per second over several runs (each on a fresh meeting; setup is
//! not timed) on one thread, and the memory the meeting holds per holder,
//! counted by a global allocator that tracks live and peak bytes. It fails
//! loudly if the engine refuses a ballot or a total does not add up.
//!
//! Targets: at least 5,000,000 ballots per second, and under 200 bytes per
//! holder live after setup (register, presence and 10 open items).

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use asamblea_rules::{
    Ballot, BallotOptions, Call, Capacity, Capital, ClassCapital, ClassShares, HolderIndex, HolderSpec,
    ItemIndex, ItemResult, ItemSpec, MatterKind, MatterRules, Meeting, MeetingKind, OptionIndex, Profile,
    Register, Role, Settings, Shares, SplitPermission,
};

const HOLDERS: usize = 100_000;
const ADMINISTRATORS: usize = 3_000;
/// Agents carrying four principals each: 20,000 holders come by agent.
const AGENTS: usize = 5_000;
const PRINCIPALS_PER_AGENT: usize = 4;
/// Of the agents, this many are administrators acting as legal
/// representative of holder companies (the only way C.Co Art. 185 allows).
const ADMINISTRATOR_AGENTS: usize = 500;
const RUNS: usize = 7;
const BOARD_LISTS: usize = 5;
const BOARD_SEATS: u32 = 7;

/// The agenda: nine decisions of mixed kinds and one board election. No
/// item of C.Co Art. 185 (year-end statements, liquidation accounts): on
/// those the 3,000 administrators could not vote, and every holder votes
/// on every item here.
const AGENDA: [MatterKind; 10] = [
    MatterKind::Ordinary,
    MatterKind::ProfitDistribution,
    MatterKind::ProfitDistributionBelowMinimum,
    MatterKind::IssueWithoutPreemptiveRights,
    MatterKind::StockDividend,
    MatterKind::PreferredAdverseChange,
    MatterKind::BylawAmendment,
    MatterKind::Merger,
    MatterKind::SuspendMeeting,
    MatterKind::BoardElection,
];

// ----- a counting allocator ------------------------------------------------

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting live bytes and their peak.
struct Counting;

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

fn shrank(bytes: usize) {
    LIVE.fetch_sub(bytes, Ordering::Relaxed);
}

// A global allocator cannot be written without `unsafe`: this one forwards
// every call to `System` unchanged and only counts sizes.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's own guarantees.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's own guarantees.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's own guarantees.
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's own guarantees.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// Starts a new peak from the live bytes now.
fn reset_peak() -> usize {
    let now = live();
    PEAK.store(now, Ordering::Relaxed);
    now
}

// ----- deterministic choices -----------------------------------------------

/// Marsaglia's xorshift64: enough to vary the register and the ballots,
/// the same on every run.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

// ----- the meeting ---------------------------------------------------------

/// `config/legal-default.toml` in code.
fn legal_profile() -> Profile {
    let rules = MatterRules::statutory;
    let settings = Settings { listed: false, ..Settings::default() };
    Profile::new("legal-default", settings, MatterKind::ALL.map(|kind| (kind, rules(kind))))
        .expect("a valid profile")
}

fn holder_id(h: usize) -> String {
    // A ten-digit document number, as a cédula or NIT would be.
    format!("{}", 1_000_000_000 + h * 37)
}

/// The register: ordinary shares for everyone (mostly retail, a few
/// institutional blocks), preferred shares for one holder in seven,
/// administrators and employees, and one holder in a hundred with
/// dismembered voting rights.
fn register(rng: &mut XorShift) -> Register {
    let mut held = ClassShares::default();
    let specs: Vec<HolderSpec> = (0..HOLDERS)
        .map(|h| {
            let ordinary = match rng.below(100) {
                0 => 1_000_000_000 + rng.below(9_000_000_000),
                1..=9 => 1_000_000 + rng.below(99_000_000),
                _ => 1 + rng.below(1_000_000),
            };
            let preferred = if rng.below(7) == 0 { 1 + rng.below(1_000_000) } else { 0 };
            let holdings = ClassShares::new(Shares::new(ordinary), Shares::new(preferred));
            held = ClassShares::new(held.ordinary + holdings.ordinary, held.preferred + holdings.preferred);
            let role = match h {
                h if h < ADMINISTRATORS / 3 => Some(Role::Administrator),
                h if h < ADMINISTRATORS => Some(Role::Employee),
                _ => None,
            };
            let split = (h % 100 == 42).then_some(SplitPermission::Dismembered);
            HolderSpec { id: holder_id(h), holdings, role, split }
        })
        .collect();
    // Some outstanding shares are not represented at all, and a few are in
    // treasury.
    let class = |held: Shares, unheld: u64, treasury: u64| {
        ClassCapital::new(Shares::new(held.get() + unheld + treasury), Shares::new(treasury))
            .expect("a valid class")
    };
    let capital = Capital {
        ordinary: class(held.ordinary, held.ordinary.get() / 4, 1_000_000),
        preferred: class(held.preferred, held.preferred.get() / 10, 0),
    };
    Register::new(capital, specs).expect("a valid register")
}

/// Who comes: 80,000 holders in person; 5,000 agents carrying four holders
/// each, 1,000 of them holders who list themselves too, 500 of them
/// administrators acting as legal representatives.
fn arrive_everyone(meeting: &mut Meeting) {
    let by_agent = AGENTS * PRINCIPALS_PER_AGENT;
    for agent in 0..AGENTS {
        let first = HOLDERS - by_agent + agent * PRINCIPALS_PER_AGENT;
        let principals: Vec<String> = (first..first + PRINCIPALS_PER_AGENT).map(holder_id).collect();
        let principals: Vec<&str> = principals.iter().map(String::as_str).collect();
        let (id, capacity, role) = if agent < ADMINISTRATOR_AGENTS {
            (format!("AG-{agent}"), Capacity::LegalRepresentative, Some(Role::Administrator))
        } else if agent < ADMINISTRATOR_AGENTS + 1_000 {
            // A holder carrying others (and itself, by listing itself).
            (principals[0].to_string(), Capacity::Proxy, None)
        } else {
            (format!("AG-{agent}"), Capacity::Proxy, None)
        };
        meeting.arrive_as_agent(&id, &principals, capacity, role).expect("an accepted arrival");
    }
    for h in 0..HOLDERS - by_agent {
        meeting.arrive_in_person(&holder_id(h)).expect("an accepted arrival");
    }
}

fn open_agenda(meeting: &mut Meeting) -> Vec<ItemIndex> {
    AGENDA
        .iter()
        .enumerate()
        .map(|(k, &matter)| {
            let options = if matter == MatterKind::BoardElection {
                let lists = (0..BOARD_LISTS).map(|l| format!("list-{l}").into_boxed_str()).collect();
                BallotOptions::Election { seats: BOARD_SEATS, lists }
            } else {
                BallotOptions::Decision
            };
            let spec = ItemSpec::new(format!("item-{k}"), matter, true, options).expect("a valid item");
            meeting.open(spec).expect("quorum and notice")
        })
        .collect()
}

/// Register, presence and the 10 open items; the memory each part takes.
struct Setup {
    meeting: Meeting,
    register_bytes: usize,
    presence_bytes: usize,
    items_bytes: usize,
}

fn setup() -> Setup {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    let before = live();
    let register = register(&mut rng);
    let register_bytes = live() - before;
    let mut meeting = Meeting::new(register, legal_profile(), MeetingKind::Ordinary, Call::First);
    arrive_everyone(&mut meeting);
    let presence_bytes = live() - before - register_bytes;
    let opened = open_agenda(&mut meeting).len();
    let items_bytes = live() - before - register_bytes - presence_bytes;
    assert_eq!(opened, AGENDA.len());
    Setup { meeting, register_bytes, presence_bytes, items_bytes }
}

/// Every holder's ballot on every item, resolved to positions, shuffled
/// across items and holders. Decisions: 70 % for, 20 % against, 10 %
/// blank; the election: lists weighted 5:4:3:2:1, 5 % blank. Holders with
/// dismembered rights split between two options.
fn ballots(meeting: &Meeting) -> Vec<(ItemIndex, HolderIndex, Ballot)> {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let holders: Vec<(HolderIndex, bool, Shares)> =
        meeting.register().iter().map(|(at, h)| (at, h.split().is_some(), h.holdings().ordinary)).collect();
    let mut out = Vec::with_capacity(HOLDERS * AGENDA.len());
    for (k, &matter) in AGENDA.iter().enumerate() {
        let item = meeting.item_index(&format!("item-{k}")).expect("opened");
        for &(holder, splits, ordinary) in &holders {
            let roll = rng.below(100);
            let ballot = if matter == MatterKind::BoardElection {
                let list = |roll: u64| match roll {
                    0..=4 => OptionIndex::list(BOARD_LISTS), // blank
                    r => OptionIndex::list([0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 4][(r % 15) as usize]),
                };
                if splits {
                    let part = Shares::new(ordinary.get() / 3);
                    Ballot::Split(vec![
                        (Some(OptionIndex::list(0)), part),
                        (Some(OptionIndex::list(1)), ordinary - part),
                    ])
                } else {
                    Ballot::Whole(Some(list(roll)))
                }
            } else if splits && matter != MatterKind::PreferredAdverseChange {
                let part = Shares::new(ordinary.get() / 2);
                Ballot::Split(vec![
                    (Some(OptionIndex::FOR), part),
                    (Some(OptionIndex::AGAINST), ordinary - part),
                ])
            } else {
                Ballot::Whole(Some(match roll {
                    0..=69 => OptionIndex::FOR,
                    70..=89 => OptionIndex::AGAINST,
                    _ => OptionIndex::BLANK_DECISION,
                }))
            };
            out.push((item, holder, ballot));
        }
    }
    rng.shuffle(&mut out);
    out
}

/// Checks every closed item counted every ballot, and folds the results
/// into a checksum (FNV-1a) so that nothing of the replay is dead code.
fn verify(meeting: &Meeting, items: &[ItemIndex]) -> u64 {
    let outstanding_held = |preferred: bool| -> u64 {
        meeting
            .register()
            .iter()
            .map(|(_, h)| {
                h.holdings().ordinary.get() + if preferred { h.holdings().preferred.get() } else { 0 }
            })
            .sum()
    };
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |value: u64| {
        for byte in value.to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for (&at, &matter) in items.iter().zip(&AGENDA) {
        let item = meeting.item(at);
        assert_eq!(item.ballots() as usize, HOLDERS, "{}: not every ballot was counted", item.id());
        let expected = outstanding_held(matter == MatterKind::PreferredAdverseChange);
        match item.result().expect("closed") {
            ItemResult::Decision(d) => {
                let cast = d.for_votes + d.against + d.blank;
                assert_eq!(cast.get(), expected, "{}: for + against + blank", item.id());
                assert!(d.abstain.is_zero() && d.quorum_at_close, "{}: {d:?}", item.id());
                mix(d.outcome as u64);
                mix(d.for_votes.get());
                mix(d.against.get());
                mix(u64::from(d.holders_for));
                mix(d.withdrawal.as_ref().map_or(0, Vec::len) as u64);
            }
            ItemResult::Election(e) => {
                assert_eq!(e.valid.get(), expected, "{}: list votes + blank", item.id());
                let seats: u32 = e.seats.as_ref().expect("seats").iter().sum();
                assert_eq!(seats + e.seats_to_draw + e.vacant, BOARD_SEATS, "{}: seats", item.id());
                mix(e.outcome as u64);
                for (votes, seats) in e.votes.iter().zip(e.seats.as_ref().expect("seats")) {
                    mix(votes.get());
                    mix(u64::from(*seats));
                }
            }
        }
    }
    hash
}

// ----- figures -------------------------------------------------------------

/// `1234567` as `1,234,567`.
fn thousands(n: u128) -> String {
    let digits = n.to_string();
    let mut groups: Vec<&str> =
        digits.as_bytes().rchunks(3).map(|group| std::str::from_utf8(group).expect("ASCII digits")).collect();
    groups.reverse();
    groups.join(",")
}

/// Ballots per second in millions with one decimal, in integers.
fn millions_per_second(ballots: usize, elapsed: Duration) -> String {
    let per_second = ballots as u128 * 1_000_000_000 / elapsed.as_nanos().max(1);
    let tenths = (per_second + 50_000) / 100_000;
    format!("{}.{} M", tenths / 10, tenths % 10)
}

fn megabytes(bytes: usize) -> String {
    let tenths = (bytes as u128 * 10 + (1 << 19)) >> 20;
    format!("{}.{} MiB", tenths / 10, tenths % 10)
}

fn main() {
    let baseline = live();
    let Setup { meeting: template, register_bytes, presence_bytes, items_bytes } = setup();
    let meeting_bytes = live() - baseline;
    assert_eq!(meeting_bytes, register_bytes + presence_bytes + items_bytes);
    let items: Vec<ItemIndex> =
        (0..AGENDA.len()).map(|k| template.item_index(&format!("item-{k}")).expect("opened")).collect();
    let ballots = ballots(&template);
    assert_eq!(ballots.len(), HOLDERS * AGENDA.len());

    let mut times = Vec::with_capacity(RUNS);
    let mut close_times = Vec::with_capacity(RUNS);
    let mut checksums = Vec::with_capacity(RUNS);
    let mut peak_casting = 0;
    let mut peak_closing = 0;
    let mut live_before_replay = 0;
    for _ in 0..RUNS {
        let mut meeting = template.clone();
        let before = reset_peak();
        live_before_replay = before - baseline;
        let start = Instant::now();
        let mut refused = 0usize;
        for (item, holder, ballot) in &ballots {
            if meeting.cast(*item, *holder, ballot).is_err() {
                refused += 1;
            }
        }
        let cast = start.elapsed();
        peak_casting = peak_casting.max(PEAK.load(Ordering::Relaxed) - before);
        let start = Instant::now();
        for k in 0..AGENDA.len() {
            meeting.close(&format!("item-{k}")).expect("an open item closes");
        }
        close_times.push(start.elapsed());
        peak_closing = peak_closing.max(PEAK.load(Ordering::Relaxed) - before);
        assert_eq!(refused, 0, "the engine refused {refused} ballots");
        times.push(cast);
        checksums.push(verify(black_box(&meeting), &items));
    }
    assert!(checksums.windows(2).all(|w| w[0] == w[1]), "runs disagree: {checksums:x?}");

    times.sort();
    close_times.sort();
    let (best, median) = (times[0], times[RUNS / 2]);
    println!(
        "replay: {} ballots, {} holders, {} items — best {} ballots/s, median {} ballots/s (target ≥ 5 M)",
        thousands(ballots.len() as u128),
        thousands(HOLDERS as u128),
        AGENDA.len(),
        millions_per_second(ballots.len(), best),
        millions_per_second(ballots.len(), median),
    );
    println!(
        "replay: {RUNS} runs on one thread, best {} ms, median {} ms; closing the 10 items: median {} ms",
        best.as_millis(),
        median.as_millis(),
        close_times[RUNS / 2].as_millis(),
    );
    println!(
        "memory: {} bytes per holder live after setup (target < 200): {} bytes in all — register {}, presence {}, 10 open items {}",
        meeting_bytes / HOLDERS,
        thousands(meeting_bytes as u128),
        thousands(register_bytes as u128),
        thousands(presence_bytes as u128),
        thousands(items_bytes as u128),
    );
    println!(
        "memory: peak above the live set before a replay ({}: the template meeting, its fresh copy, the pre-resolved ballots): casting {} bytes, casting and closing {} bytes",
        megabytes(live_before_replay),
        thousands(peak_casting as u128),
        thousands(peak_closing as u128),
    );
    println!("checksum of the closed results: {:016x} (the same on every run)", checksums[0]);
}
