//! kill -9 during a burst of ballots (issue 4, item 6): the real binary
//! serves the demo meeting; several kiosk connections send signed ballots;
//! at a random moment the daemon is killed with SIGKILL and started again
//! with `asamblea serve`. Then:
//!
//! - every receipt issued before the kill is in the ledger: the public
//!   look-up (`GET /api/v1/receipts/{digest}`) gives the same sequence
//!   number and head, and `asamblea verify` accepts the ledger;
//! - no ballot is counted twice: sending every ballot again, acknowledged
//!   or not, gives its first receipt or (never acknowledged) one new
//!   receipt; a newly signed second ballot of the same badge is refused
//!   (`already-voted`); the item's ballot count in `/api/v1/status` equals
//!   the ballots the ledger holds, each once.
//!
//! Three rounds, one agenda item each. The seed of the pauses, the choices
//! and the moment of the kill is printed; `ASAMBLEA_KILL_SEED=N` replays it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use asamblea_kiosk::{kiosk_tls, read_receipt, staff_tls, whole_votes, HttpsClient, SignedBallot};
use asamblea_rules::OptionIndex;
use asamblea_wire::{Credential, Digest, EventBody, MeetingId, PublicKey};
use serde_json::{json, Value};

use crate::support::{meeting_id, printed_after, token, Daemon};

/// Badges issued (one ballot each per round).
const BADGES: usize = 40;
/// Concurrent kiosk connections.
const CLIENTS: usize = 8;
/// Kill rounds, one agenda item each.
const ITEMS: [&str; 3] = ["item-1", "item-2", "item-3"];
/// A small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A ballot signed by a kiosk, and what the daemon answered for it.
struct Sent {
    item: &'static str,
    credential: u32,
    ballot: SignedBallot,
}

/// Receipts acknowledged so far: event digest → (seq, head).
type Receipts = Arc<Mutex<HashMap<Digest, (u64, Digest)>>>;

/// POST with a retry while the kiosk's rate limit says wait.
async fn post(client: &mut HttpsClient, path: &str, body: String) -> anyhow::Result<(u16, Value)> {
    loop {
        let (status, answer) = client.post_body(path, body.clone(), None).await?;
        if status.as_u16() != 429 {
            return Ok((status.as_u16(), answer));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn get(client: &mut HttpsClient, path: &str) -> (u16, Value) {
    loop {
        let (status, answer) = client.get_json(path).await.expect("the daemon answers");
        if status.as_u16() != 429 {
            return (status.as_u16(), answer);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("asamblea-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The ballots in the ledger file: event digest → (seq, head). A ballot
/// stored twice fails the test here.
fn stored_ballots(dir: &Path, meeting: &MeetingId) -> HashMap<Digest, (u64, Digest)> {
    let mut stored = HashMap::new();
    for (record, head) in asamblea_ledger::read_records(&dir.join("ledger.db"), meeting).unwrap() {
        if matches!(record.event.body, EventBody::Ballot(_)) {
            let digest = Digest::sha256(&record.event.encode().unwrap());
            assert!(stored.insert(digest, (record.seq, head)).is_none(), "ballot {digest} stored twice");
        }
    }
    stored
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_during_a_burst_loses_no_receipt_and_counts_no_ballot_twice() {
    let seed = std::env::var("ASAMBLEA_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| u64::from_le_bytes(asamblea_venue::secrets::random()));
    println!("kill -9 test seed: {seed} (ASAMBLEA_KILL_SEED={seed} replays the choices and the timing)");
    let mut rng = Rng(seed);
    let started = Instant::now();
    let dir = temp_dir();
    let dir_arg = dir.display().to_string();

    let (mut daemon, printed) = Daemon::start(&["demo", "--dir", &dir_arg]);
    let operator = token(&printed, "operator");
    let chair = token(&printed, "chair");
    let daemon_key = Digest::from_hex(printed_after(&printed, "daemon key:")).unwrap();
    let daemon_key = PublicKey::from_bytes(&daemon_key.0).unwrap();
    let meeting = meeting_id(&dir);
    let staff = staff_tls(&dir).unwrap();
    let kiosk = kiosk_tls(&dir, "quiosco-1").unwrap();

    // Badges for the first BADGES people present (the register's order;
    // those absent are refused and skipped).
    let register = std::fs::read_to_string(crate::workspace_root().join("config/demo/register.csv")).unwrap();
    let mut seen = std::collections::HashSet::new();
    let holders: Vec<&str> =
        register.lines().skip(1).filter_map(|l| l.split(',').next()).filter(|h| seen.insert(*h)).collect();
    let mut desk = HttpsClient::connect(daemon.addr, staff.clone()).await.unwrap();
    let mut badges: Vec<Credential> = Vec::new();
    for holder in holders {
        if badges.len() == BADGES {
            break;
        }
        let seed = asamblea_kiosk::BadgeSeed::draw(&meeting).unwrap();
        let (status, answer) =
            desk.post_json("/api/v1/badges", &seed.request(holder), Some(&operator)).await.unwrap();
        match status.as_u16() {
            201 => badges.push(seed.credential(&answer).unwrap()),
            422 => assert_eq!(answer["error"]["code"], "not-present", "{holder}: {answer}"),
            _ => panic!("{holder}: {status} {answer}"),
        }
    }
    assert_eq!(badges.len(), BADGES, "the demo has enough people present");
    drop(desk);

    let receipts: Receipts = Arc::default();
    let mut sent: Vec<Sent> = Vec::new();
    for (round, item) in ITEMS.into_iter().enumerate() {
        // Open the round's item; each badge votes for the holders it
        // carries who may vote on it.
        let mut desk = HttpsClient::connect(daemon.addr, staff.clone()).await.unwrap();
        let (status, answer) =
            desk.post_json(&format!("/api/v1/items/{item}/open"), &json!({}), Some(&chair)).await.unwrap();
        assert!(status.is_success(), "open {item}: {status} {answer}");
        drop(desk);
        let mut sheet_reader = HttpsClient::connect(daemon.addr, kiosk.clone()).await.unwrap();
        let mut burst = Vec::new();
        for badge in &badges {
            let (status, sheet) =
                get(&mut sheet_reader, &format!("/api/v1/kiosk/badges/{}", badge.id().0)).await;
            assert_eq!(status, 200, "{sheet}");
            let open = sheet["open_items"].as_array().unwrap().iter().find(|i| i["id"] == item).unwrap();
            let voters: Vec<&str> = open["holders"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|h| h["may_vote"] == true)
                .map(|h| h["holder"].as_str().unwrap())
                .collect();
            if voters.is_empty() {
                continue;
            }
            let option = OptionIndex::list(rng.below(3) as usize);
            let ballot = SignedBallot::sign(badge, item, whole_votes(&voters, option).unwrap()).unwrap();
            burst.push(Sent { item, credential: badge.id().0, ballot });
        }
        drop(sheet_reader);
        assert!(burst.len() >= BADGES / 2, "{item}: only {} ballots", burst.len());

        // The burst: CLIENTS connections, each sending its share with short
        // pauses, until the daemon dies under them.
        // Pauses of 0 to 120 ms (five ballots a connection) make a burst
        // of about 300 ms, so that the kill (50 to 400 ms in) most often
        // lands in the middle of it.
        let pauses: Vec<u64> = burst.iter().map(|_| rng.below(121)).collect();
        let mut tasks = tokio::task::JoinSet::new();
        for k in 0..CLIENTS {
            let share: Vec<(SignedBallot, u64)> = burst
                .iter()
                .zip(&pauses)
                .skip(k)
                .step_by(CLIENTS)
                .map(|(s, p)| (s.ballot.clone(), *p))
                .collect();
            let (addr, tls, receipts) = (daemon.addr, kiosk.clone(), receipts.clone());
            tasks.spawn(async move {
                let Ok(mut client) = HttpsClient::connect(addr, tls).await else { return 0 };
                let mut acknowledged = 0;
                for (ballot, pause) in share {
                    tokio::time::sleep(Duration::from_millis(pause)).await;
                    let Ok((status, answer)) = post(&mut client, "/api/v1/ballots", ballot.body()).await
                    else {
                        return acknowledged; // the daemon is gone
                    };
                    assert_eq!(status, 200, "{answer}");
                    let (receipt, _) = read_receipt(&answer, &meeting, Some(&daemon_key)).unwrap();
                    assert_eq!(receipt.event, ballot.digest());
                    receipts.lock().unwrap().insert(receipt.event, (receipt.seq, receipt.head));
                    acknowledged += 1;
                }
                acknowledged
            });
        }
        let kill_after = Duration::from_millis(50 + rng.below(351));
        tokio::time::sleep(kill_after).await;
        let acknowledged_at_kill = receipts.lock().unwrap().len();
        daemon.kill();
        let mut acknowledged_in_burst = 0;
        while let Some(done) = tasks.join_next().await {
            acknowledged_in_burst += done.expect("a client task panicked");
        }
        let in_burst = burst.len();
        sent.extend(burst);
        let before_kill = receipts.lock().unwrap().clone();
        assert!(before_kill.len() >= acknowledged_at_kill);

        // The file as the kill left it holds every receipt issued.
        let on_disk = stored_ballots(&dir, &meeting);
        for (digest, receipt) in &before_kill {
            assert_eq!(on_disk.get(digest), Some(receipt), "receipt {digest} is not in the ledger");
        }
        let last_durable = on_disk.values().map(|(seq, _)| *seq).max().unwrap_or(0);

        // Restart, and find every receipt issued before the kill.
        let (restarted, _) = Daemon::start(&["serve", &dir_arg]);
        daemon = restarted;
        let mut public = HttpsClient::connect(daemon.addr, staff.clone()).await.unwrap();
        for (digest, (seq, head)) in &before_kill {
            let (status, answer) = public.get_json(&format!("/api/v1/receipts/{digest}")).await.unwrap();
            assert_eq!(status.as_u16(), 200, "receipt {digest} issued before the kill is lost: {answer}");
            let (receipt, _) = read_receipt(&answer, &meeting, Some(&daemon_key)).unwrap();
            assert_eq!((receipt.seq, receipt.head), (*seq, *head), "receipt {digest} changed");
        }

        // Send every ballot again: the same receipt, or one new one.
        let mut kiosk_client = HttpsClient::connect(daemon.addr, kiosk.clone()).await.unwrap();
        let mut saved_unanswered = 0;
        for s in &sent {
            let (status, answer) = post(&mut kiosk_client, "/api/v1/ballots", s.ballot.body()).await.unwrap();
            assert_eq!(status, 200, "{} on {}: {answer}", s.credential, s.item);
            let (receipt, _) = read_receipt(&answer, &meeting, Some(&daemon_key)).unwrap();
            let mut known = receipts.lock().unwrap();
            if let Some(first) = known.get(&receipt.event) {
                assert_eq!(
                    *first,
                    (receipt.seq, receipt.head),
                    "a second receipt for ballot {}",
                    receipt.event
                );
            } else if receipt.seq <= last_durable {
                // Saved before the kill, its answer lost: the ledger's receipt.
                assert_eq!(on_disk.get(&receipt.event), Some(&(receipt.seq, receipt.head)));
                saved_unanswered += 1;
            }
            known.insert(receipt.event, (receipt.seq, receipt.head));
        }
        println!(
            "round {}: {item}: killed after {} ms; of {in_burst} ballots {acknowledged_in_burst} were acknowledged before the kill, {saved_unanswered} more were saved but unanswered",
            round + 1,
            kill_after.as_millis(),
        );
        // A second, newly signed ballot of the same badge is a second vote:
        // refused, whether or not the first was acknowledged before the kill.
        for s in sent.iter().filter(|s| s.item == item).take(5) {
            let badge = badges.iter().find(|b| b.id().0 == s.credential).unwrap();
            let event = asamblea_wire::Event::decode(&s.ballot.event).unwrap();
            let EventBody::Ballot(first) = event.body else { unreachable!() };
            let again = SignedBallot::sign(badge, item, first.votes).unwrap();
            let (status, answer) = post(&mut kiosk_client, "/api/v1/ballots", again.body()).await.unwrap();
            assert_eq!((status, answer["error"]["code"].as_str()), (422, Some("already-voted")), "{answer}");
        }

        // The board counts each ballot once.
        let (status, board) = public.get_json("/api/v1/status").await.unwrap();
        assert_eq!(status.as_u16(), 200);
        for counted in ITEMS.iter().take(round + 1) {
            let shown = board["items"].as_array().unwrap().iter().find(|i| i["id"] == *counted).unwrap();
            let ours = sent.iter().filter(|s| s.item == *counted).count();
            assert_eq!(shown["ballots"], json!(ours), "{counted}: {shown}");
        }
    }

    // The ledger itself: verified from scratch, each ballot once, every
    // receipt where it said.
    daemon.kill();
    let verify = Command::new(env!("CARGO_BIN_EXE_asamblea")).args(["verify", &dir_arg]).output().unwrap();
    assert!(
        verify.status.success(),
        "asamblea verify: {}{}",
        String::from_utf8_lossy(&verify.stdout),
        String::from_utf8_lossy(&verify.stderr)
    );
    let records = asamblea_ledger::read_records(&dir.join("ledger.db"), &meeting).unwrap();
    let mut votes: HashMap<(String, u32), usize> = HashMap::new();
    for (record, _) in &records {
        if let EventBody::Ballot(ballot) = &record.event.body {
            *votes.entry((ballot.item.as_str().to_string(), ballot.credential.0)).or_default() += 1;
        }
    }
    assert!(votes.values().all(|n| *n == 1), "a badge voted twice on an item: {votes:?}");
    let stored = stored_ballots(&dir, &meeting);
    assert_eq!(stored.len(), sent.len(), "every ballot sent is stored, once");
    for (digest, receipt) in receipts.lock().unwrap().iter() {
        assert_eq!(stored.get(digest), Some(receipt), "receipt {digest} is not where it said");
    }
    println!(
        "kill -9 test: {} ballots in {} rounds, {:.1} s",
        sent.len(),
        ITEMS.len(),
        started.elapsed().as_secs_f64()
    );
    crate::support::remove_meeting(&dir);
}
