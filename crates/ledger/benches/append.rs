//! How many ballots a second the ledger takes with strict signature
//! verification and group commit, against the two ceilings it is bound by
//! on this machine, measured in one run (issue 3, "Speed"):
//!
//! - (a) strict verifications a second alone: `PublicKey::verify` of
//!   pre-signed ballots on one thread;
//! - (b) group-committed appends a second alone: the same ballots, already
//!   signed and not checked, through `Ledger::append` with up to
//!   `IN_FLIGHT` waiting for their acknowledgement, so batches form;
//! - (c) the full path: each ballot verified strictly on this thread and
//!   admitted into the meeting (`Journal::admit_and_append`, the rules'
//!   checks), while the ledger's writer thread commits the ones before it.
//!
//! Each figure is the best of three interleaved runs. It prints
//! (c) / min(a, b) (target ≥ 0.70), the fsyncs (= batches), where the full
//! path's thread spends its time and the CPU the writer takes meanwhile.
//! Run it with `cargo bench -p asamblea-ledger` on a quiet machine (the
//! load average is printed); the files go to a temporary directory.
//! `ASAMBLEA_BENCH_GROUP=64` hands the ballots to the journal 64 at a
//! time, to see what fuller batches would give.

use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use asamblea_ledger::{Completion, Journal, Ledger, Signed, WriterStats};
use asamblea_rules::{
    Call, Capital, ClassCapital, ClassShares, HolderSpec, Majority, MatterKind, MatterRules, MeetingKind,
    OptionIndex, Profile, Register, Settings, Shares,
};
use asamblea_wire::{
    register_digest, AgendaItem, Ballot, Choice, Credential, CredentialId, Digest, Event, EventBody,
    HolderVote, Id, Keypair, MeetingId, Nonce, StaffRole, Text,
};

/// Holders, each with a badge, voting on every item: HOLDERS × ITEMS
/// ballots.
const HOLDERS: u32 = 1_000;
const ITEMS: u32 = 30;
/// Appends allowed to wait for their acknowledgement at once.
const IN_FLIGHT: usize = 4_096;
const MEETING: MeetingId = MeetingId([0xbe; 32]);
/// Runs of the three measures; each figure printed is the best.
const ROUNDS: usize = 3;

fn main() {
    let dir = std::env::temp_dir().join(format!("asamblea-ledger-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let meeting = Setup::new();
    println!(
        "asamblea-ledger append bench: {} ballots ({HOLDERS} holders × {ITEMS} items), {} in flight, in {}",
        thousands(meeting.ballots.len() as u64),
        thousands(IN_FLIGHT as u64),
        dir.display()
    );

    // Each figure is the best of ROUNDS runs, interleaved, so that another
    // process's burst on this machine does not decide the ratio.
    let mut verify = 0;
    let (mut commit, mut commit_stats) = (0, WriterStats::default());
    let mut best_full: Option<(u64, WriterStats, Spent)> = None;
    for round in 1..=ROUNDS {
        let v = verify_alone(&meeting.ballots);
        let (c, c_stats) = commit_alone(&dir.join(format!("commit-{round}.db")), &meeting.ballots);
        let (f, f_stats, f_spent) = full_path(&dir.join(format!("full-{round}.db")), &meeting);
        println!(
            "  run {round}: verify {}/s, commit {}/s, full path {}/s ({} fsyncs)",
            thousands(v),
            thousands(c),
            thousands(f),
            thousands(f_stats.batches)
        );
        verify = verify.max(v);
        if c > commit {
            (commit, commit_stats) = (c, c_stats);
        }
        if best_full.as_ref().is_none_or(|(best, _, _)| f > *best) {
            best_full = Some((f, f_stats, f_spent));
        }
    }
    let (full, full_stats, spent) = best_full.expect("at least one run");
    let _ = std::fs::remove_dir_all(&dir);

    // Per mille of the lower ceiling.
    let ratio = full * 1_000 / verify.min(commit).max(1);
    println!(
        "verify: {}/s  commit: {}/s  full path: {}/s  ratio {} of the lower ceiling (target ≥ 0.70); \
         {} fsyncs for {} records",
        thousands(verify),
        thousands(commit),
        thousands(full),
        per_mille(ratio),
        thousands(full_stats.batches),
        thousands(full_stats.records),
    );
    println!(
        "  commit alone: {} fsyncs for {} records ({} records a batch); full path: {} records a batch",
        thousands(commit_stats.batches),
        thousands(commit_stats.records),
        thousands(commit_stats.records / commit_stats.batches.max(1)),
        tenths(full_stats.records * 10 / full_stats.batches.max(1)),
    );
    let total = spent.total().as_nanos().max(1);
    let percent = |d: Duration| d.as_nanos() * 100 / total;
    let nanos_per = |d: Duration| d.as_nanos() / u128::from(full_stats.records.max(1));
    println!(
        "  full path's thread: verify {}%, admit and enqueue {}%, waiting for the writer {}% \
         (per ballot: verify {} µs, admit and enqueue {} µs)",
        percent(spent.verify),
        percent(spent.admit),
        percent(spent.waiting),
        tenths((nanos_per(spent.verify) / 100) as u64),
        tenths((nanos_per(spent.admit) / 100) as u64),
    );
    if let Some((this_thread, rest)) = spent.cpu {
        println!(
            "  CPU over {} s of wall time: this thread {} s, the writer and SQLite {} s ({} cores, load average {})",
            hundredths((spent.wall.as_millis() / 10) as u64),
            hundredths(this_thread),
            hundredths(rest),
            std::thread::available_parallelism().map_or(0, |n| n.get()),
            std::fs::read_to_string("/proc/loadavg")
                .map_or("?".into(), |l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")),
        );
    }
    if ratio < 700 {
        println!("  BELOW TARGET: the full path reaches {} of min(verify, commit)", per_mille(ratio));
    }
}

// ----- the meeting ------------------------------------------------------

/// A convened meeting with every holder present and badged and every item
/// open, and one signed ballot per holder and item.
struct Setup {
    register: Register,
    profile: Profile,
    daemon: Keypair,
    /// Every event before the first ballot, signed.
    preamble: Vec<Signed>,
    ballots: Vec<Signed>,
}

fn id(s: &str) -> Id {
    Id::new(s).expect("a valid id")
}

fn nonce(n: u64) -> Nonce {
    let mut nonce = [0u8; 16];
    nonce[8..].copy_from_slice(&n.to_be_bytes());
    Nonce(nonce)
}

fn sign(key: &Keypair, n: u64, body: EventBody) -> Signed {
    let event = Event { nonce: nonce(n), body };
    let bytes = event.encode().expect("a canonical event");
    let signature = key.sign(&MEETING, &bytes).expect("a known kind");
    Signed { event, bytes, signer: key.public_key(), signature }
}

fn holder(i: u32) -> String {
    format!("H{i:05}")
}

impl Setup {
    fn new() -> Setup {
        let profile = Profile::new(
            "bench",
            Settings::default(),
            MatterKind::ALL.map(|kind| {
                let majority = match kind {
                    MatterKind::BoardElection => Majority::ElectoralQuotient,
                    MatterKind::SingleSeatElection => Majority::SingleSeat,
                    _ => Majority::Simple,
                };
                (kind, MatterRules::plain(majority))
            }),
        )
        .expect("a valid profile");
        let shares = 1_000u64;
        let ordinary =
            ClassCapital::new(Shares::new(shares * u64::from(HOLDERS)), Shares::ZERO).expect("valid");
        let capital =
            Capital { ordinary, preferred: ClassCapital::new(Shares::ZERO, Shares::ZERO).expect("valid") };
        let register = Register::new(
            capital,
            (0..HOLDERS).map(|i| HolderSpec {
                id: holder(i),
                holdings: ClassShares::new(Shares::new(shares), Shares::ZERO),
                role: None,
                split: None,
            }),
        )
        .expect("a valid register");
        let daemon = Keypair::from_seed(&[0x11; 32]);
        let staff = Keypair::from_seed(&[0x22; 32]);
        let chair = Keypair::from_seed(&[0x44; 32]);
        let mut n = 0u64;
        let mut next = || {
            n += 1;
            n
        };
        let mut preamble = vec![
            sign(
                &daemon,
                next(),
                EventBody::MeetingConvened {
                    daemon_key: daemon.public_key(),
                    profile: id("bench"),
                    profile_digest: Digest::sha256(b"bench profile"),
                    meeting_kind: MeetingKind::Ordinary,
                    call: Call::First,
                    settings: Settings::default(),
                    agenda: (0..ITEMS)
                        .map(|item| AgendaItem {
                            item: id(&format!("item-{item}")),
                            title: Text::new("Proposición de prueba").expect("a valid title"),
                            matter: MatterKind::Ordinary,
                            noticed: true,
                            seats: 0,
                            lists: vec![],
                        })
                        .collect(),
                },
            ),
            sign(
                &daemon,
                next(),
                EventBody::StaffEnrolled {
                    key: staff.public_key(),
                    role: StaffRole::Operator,
                    name: id("operador"),
                },
            ),
            sign(
                &daemon,
                next(),
                EventBody::StaffEnrolled {
                    key: chair.public_key(),
                    role: StaffRole::Chair,
                    name: id("presidente"),
                },
            ),
            sign(
                &staff,
                next(),
                EventBody::RegisterImported {
                    register_digest: register_digest(&register),
                    holders: HOLDERS,
                    capital: *register.capital(),
                },
            ),
        ];
        let badges: Vec<Credential> = (0..HOLDERS)
            .map(|i| {
                let mut seed = [0x33; 32];
                seed[..4].copy_from_slice(&i.to_be_bytes());
                Credential::generate_from(&MEETING, CredentialId(i + 1), &seed)
            })
            .collect();
        for i in 0..HOLDERS {
            preamble.push(sign(&staff, next(), EventBody::CheckedInPerson { holder: id(&holder(i)) }));
        }
        for (i, badge) in (0..HOLDERS).zip(&badges) {
            let body = EventBody::BadgeIssued {
                credential: badge.id(),
                key: badge.public_key(),
                person: id(&holder(i)),
            };
            preamble.push(sign(&staff, next(), body));
        }
        for item in 0..ITEMS {
            let opened = EventBody::ItemOpened { item: id(&format!("item-{item}")) };
            preamble.push(sign(&chair, next(), opened));
        }
        let mut ballots = Vec::with_capacity((HOLDERS * ITEMS) as usize);
        for item in 0..ITEMS {
            for (i, badge) in (0..HOLDERS).zip(&badges) {
                let option = if (i + item) % 3 == 0 { OptionIndex::AGAINST } else { OptionIndex::FOR };
                let ballot = Ballot {
                    item: id(&format!("item-{item}")),
                    credential: badge.id(),
                    votes: vec![HolderVote { holder: id(&holder(i)), choice: Choice::Whole(option) }],
                };
                ballots.push(sign(badge.keypair(), next(), EventBody::Ballot(ballot)));
            }
        }
        Setup { register, profile, daemon, preamble, ballots }
    }
}

// ----- the three measures ---------------------------------------------------

/// `n` events in `elapsed`, a second.
fn per_second(n: usize, elapsed: Duration) -> u64 {
    u64::try_from(n as u128 * 1_000_000_000 / elapsed.as_nanos().max(1)).expect("a rate fits")
}

/// (a) Strict verifications a second, one thread.
fn verify_alone(ballots: &[Signed]) -> u64 {
    let started = Instant::now();
    for signed in ballots {
        signed.signer.verify(&MEETING, &signed.bytes, &signed.signature).expect("a valid signature");
    }
    per_second(ballots.len(), started.elapsed())
}

/// At most `limit` appends waiting for their acknowledgement.
struct Window {
    waiting: Mutex<(usize, usize)>,
    changed: Condvar,
    limit: usize,
}

impl Window {
    fn new(limit: usize) -> Arc<Window> {
        Arc::new(Window { waiting: Mutex::new((0, 0)), changed: Condvar::new(), limit })
    }

    /// Waits for a place; returns how long it waited.
    fn enter(&self) -> Duration {
        let started = Instant::now();
        let mut state = self.waiting.lock().expect("not poisoned");
        while state.0 >= self.limit {
            state = self.changed.wait(state).expect("not poisoned");
        }
        state.0 += 1;
        started.elapsed()
    }

    fn completion(self: &Arc<Window>) -> Completion {
        let window = Arc::clone(self);
        Box::new(move |result| {
            let mut state = window.waiting.lock().expect("not poisoned");
            state.0 -= 1;
            state.1 += usize::from(result.is_err());
            window.changed.notify_all();
        })
    }

    /// Waits until every append is acknowledged; the number refused.
    fn drain(&self) -> usize {
        let mut state = self.waiting.lock().expect("not poisoned");
        while state.0 > 0 {
            state = self.changed.wait(state).expect("not poisoned");
        }
        state.1
    }
}

fn wall_clock() -> asamblea_ledger::Clock {
    Box::new(|| SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970").as_millis() as u64)
}

/// (b) Group-committed appends a second: no verification, no rules.
fn commit_alone(path: &Path, ballots: &[Signed]) -> (u64, WriterStats) {
    let (ledger, _) = Ledger::open(path, &MEETING, wall_clock()).expect("a new ledger");
    let window = Window::new(IN_FLIGHT);
    let started = Instant::now();
    for signed in ballots {
        window.enter();
        ledger.append(signed.clone(), window.completion());
    }
    assert_eq!(window.drain(), 0, "every append is acknowledged");
    let elapsed = started.elapsed();
    let stats = ledger.shutdown();
    (per_second(ballots.len(), elapsed), stats)
}

/// Where the full path's thread spent its time.
#[derive(Default)]
struct Spent {
    verify: Duration,
    /// `Journal::admit_and_append`: the rules' checks and the hand-off to
    /// the writer's queue.
    admit: Duration,
    /// For a place in the window: the writer is behind.
    waiting: Duration,
    /// CPU time of this thread and of the rest of the process (the
    /// writer, SQLite), in hundredths of a second, where `/proc` tells.
    cpu: Option<(u64, u64)>,
    wall: Duration,
}

impl Spent {
    fn total(&self) -> Duration {
        self.verify + self.admit + self.waiting
    }
}

fn open_journal(path: &Path, meeting: &Setup) -> Journal {
    Journal::open(
        path,
        MEETING,
        meeting.register.clone(),
        meeting.profile.clone(),
        Digest::sha256(b"bench profile"),
        meeting.daemon.public_key(),
        wall_clock(),
    )
    .expect("the journal opens")
}

/// Ballots verified before they are handed to the journal together:
/// `ASAMBLEA_BENCH_GROUP`, 1 by default (each ballot handed over as soon as
/// it is verified, as the daemon does). A larger group shows what bigger
/// batches (fewer, fuller fsyncs) would give the full path.
fn group() -> usize {
    std::env::var("ASAMBLEA_BENCH_GROUP").ok().and_then(|g| g.parse().ok()).filter(|&g| g >= 1).unwrap_or(1)
}

/// (c) Each ballot verified strictly and admitted here, appended by the
/// writer thread meanwhile.
fn full_path(path: &Path, meeting: &Setup) -> (u64, WriterStats, Spent) {
    // The preamble is recorded (and replayed by the reopen) untimed, so
    // the writer's counters below are the ballots' alone.
    let mut journal = open_journal(path, meeting);
    let window = Window::new(IN_FLIGHT);
    for signed in &meeting.preamble {
        signed.signer.verify(&MEETING, &signed.bytes, &signed.signature).expect("valid");
        window.enter();
        journal.admit_and_append(signed.clone(), window.completion()).expect("the preamble is admitted");
    }
    assert_eq!(window.drain(), 0);
    journal.close();
    let mut journal = open_journal(path, meeting);

    let mut spent = Spent::default();
    let cpu_before = (cpu_ticks("/proc/thread-self/stat"), cpu_ticks("/proc/self/stat"));
    let started = Instant::now();
    for chunk in meeting.ballots.chunks(group()) {
        let t0 = Instant::now();
        for signed in chunk {
            signed.signer.verify(&MEETING, &signed.bytes, &signed.signature).expect("a valid signature");
        }
        spent.verify += t0.elapsed();
        for signed in chunk {
            spent.waiting += window.enter();
            let t1 = Instant::now();
            journal.admit_and_append(signed.clone(), window.completion()).expect("every ballot is admitted");
            spent.admit += t1.elapsed();
        }
    }
    let t4 = Instant::now();
    assert_eq!(window.drain(), 0, "every ballot is acknowledged");
    spent.waiting += t4.elapsed();
    let elapsed = started.elapsed();
    if let ((Some(thread_0), Some(process_0)), Some(thread_1), Some(process_1)) =
        (cpu_before, cpu_ticks("/proc/thread-self/stat"), cpu_ticks("/proc/self/stat"))
    {
        spent.cpu = Some((thread_1 - thread_0, (process_1 - process_0) - (thread_1 - thread_0)));
    }
    spent.wall = elapsed;
    let stats = journal.close();
    assert_eq!(stats.records, meeting.ballots.len() as u64);
    (per_second(meeting.ballots.len(), elapsed), stats, spent)
}

/// User plus system CPU time from a `/proc/.../stat` file (Linux), in
/// clock ticks (1/100 s on Linux).
fn cpu_ticks(path: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(path).ok()?;
    // Fields after the command name, which is in parentheses: utime and
    // stime are the 12th and 13th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

// ----- printing -------------------------------------------------------------

/// 12345 as `12,345`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// 805 as `0.80`.
fn per_mille(n: u64) -> String {
    format!("{}.{:02}", n / 1_000, n % 1_000 / 10)
}

/// 123 as `12.3`.
fn tenths(n: u64) -> String {
    format!("{}.{}", n / 10, n % 10)
}

/// 123 as `1.23`.
fn hundredths(n: u64) -> String {
    format!("{}.{:02}", n / 100, n % 100)
}
