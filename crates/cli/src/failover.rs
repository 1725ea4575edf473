//! `asamblea bench-failover` (`docs/replication.md`): a replicated meeting
//! of three nodes beside a real etcd cluster of three members on loopback,
//! kiosks voting without pause, and the leader killed with SIGKILL at
//! random moments, round after round; then every receipt a kiosk was
//! given is looked for in the surviving chain. Prints what it measured:
//! how long the kiosks waited at each takeover, and what was found.
//!
//! What it checks after the rounds (any failure is an error, exit 2): every
//! receipt a kiosk showed is in the copy at its number with its ballot's
//! digest, signed by the daemon; no ballot is in the chain twice; every
//! node's ledger, brought in step, is the copy's chain; every folder
//! verifies.

use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::bench::figures::{millis, seconds as seconds_of};
use asamblea_documents::numfmt::thousands;
use asamblea_replica::cluster::Cluster;
use asamblea_replica::Etcd;
use asamblea_wire::{Digest, EventRecord, MeetingId};

/// What the bench is asked for.
#[derive(Clone, Debug)]
pub struct FailoverOptions {
    /// Leaders killed.
    pub rounds: u32,
    /// Kiosks voting at once.
    pub kiosks: u32,
    /// Ballots a second, all kiosks together.
    pub rate: u32,
    /// The seed of the moments the leader is killed.
    pub seed: u64,
}

/// What a run found: per round, how long the kiosks waited.
#[derive(Debug)]
pub struct FailoverRun {
    /// Per round, from the kill to the next ballot acknowledged.
    pub waits: Vec<Duration>,
    /// Receipts the kiosks were given.
    pub receipts: usize,
    /// Records in the surviving chain.
    pub records: u64,
    /// `leader-took-over` records in it: each node signs with its own key.
    pub takeovers: u64,
    /// Nodes that stopped by themselves (fenced) and were started again.
    pub restarted: u32,
}

const NODES: [&str; 3] = ["nodo-1", "nodo-2", "nodo-3"];
/// Kiosk `n`'s id (from 0): each kiosk has a certificate of its own, as
/// in a venue (the daemon paces each kiosk apart).
fn kiosk_id(n: usize) -> String {
    format!("banco-{}", n + 1)
}

/// The items of a generated meeting (`--throughput`).
const GENERATED_ITEMS: u64 = 4;

/// A small deterministic sequence (xorshift64*) for the kill moments.
struct Moments(u64);

impl Moments {
    fn next_ms(&mut self, from: u64, to: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        from + self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % (to - from + 1)
    }
}

struct Node {
    /// This very program, as it was when the bench started (a rebuild
    /// meanwhile replaces the file `current_exe` names).
    exe: PathBuf,
    name: &'static str,
    dir: PathBuf,
    keys: PathBuf,
    address: SocketAddr,
    child: Option<Child>,
}

impl Node {
    /// `serve` of its folder as a node of the replicated meeting.
    fn start(&mut self, members: &str, logs: &Path) -> Result<()> {
        let name = self.name;
        self.spawn(&["--replica", members, "--node", name], logs)
    }

    /// `serve` of its folder alone: one process, no replica.
    fn start_alone(&mut self, logs: &Path) -> Result<()> {
        self.spawn(&[], logs)
    }

    /// `serve` of its folder on its address with `more` arguments, its log
    /// appended to `LOGS/<name>.log`.
    fn spawn(&mut self, more: &[&str], logs: &Path) -> Result<()> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(logs.join(format!("{}.log", self.name)))?;
        let child = Command::new(&self.exe)
            .arg("serve")
            .arg(&self.dir)
            .args(["--listen", &self.address.to_string()])
            .args(more)
            .env("ASAMBLEA_KEYS", &self.keys)
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .with_context(|| format!("{}: no arranca / does not start", self.name))?;
        self.child = Some(child);
        Ok(())
    }

    /// Whether its process ended by itself: a leader whose commit failed
    /// (fenced, or unconfirmed within the time-out on a loaded machine)
    /// steps down and ends; a service manager starts it again, and it
    /// comes back as a standby brought in step with the copy.
    fn exited(&mut self) -> bool {
        self.child.as_mut().is_some_and(|child| child.try_wait().ok().flatten().is_some())
    }

    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

/// One kiosk's ballots: each body with its event's digest.
type Ballots = Vec<(String, Digest)>;

/// What the kiosks share: their receipts, when each ballot was
/// acknowledged, refusals.
#[derive(Default)]
struct Seen {
    receipts: Vec<(u64, Digest)>,
    acknowledged: Vec<Instant>,
    /// Each acknowledged ballot's time from its first try.
    latencies: Vec<Duration>,
    refused: Vec<String>,
}

fn free_address() -> Result<SocketAddr> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?)
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    let status = Command::new("cp").arg("-a").arg(from).arg(to).status()?;
    if !status.success() {
        bail!("cp -a {} {}", from.display(), to.display());
    }
    Ok(())
}

/// The meeting made once, on nodo-1's disk: the demo (or, with
/// `holders`, a generated meeting of that many holders and
/// [`GENERATED_ITEMS`] ordinary items), every ordinary holder with no
/// role present with a badge, installed, every item open, each kiosk
/// enrolled; then each node's copy of the folder and of its keys.
/// Returns each kiosk's ballots and the meeting's id and daemon key.
fn prepare(
    work: &Path,
    nodes: &[Node],
    (kiosks, holders): (u32, Option<u64>),
) -> Result<(Vec<Ballots>, MeetingId, Vec<asamblea_wire::PublicKey>)> {
    let first = &nodes[0];
    let mut init = Command::new(&first.exe);
    init.arg("init").arg(&first.dir).args(["--nodes", &NODES.join(",")]).env("ASAMBLEA_KEYS", &first.keys);
    if let Some(holders) = holders {
        let items: Vec<(String, String)> =
            (1..=GENERATED_ITEMS).map(|n| (format!("item-{n}"), format!("Proposición {n}"))).collect();
        let ids: Vec<String> = (1..=holders).map(|i| format!("CC-{i:08}")).collect();
        let meeting = work.join("meeting.toml");
        let register = work.join("register.csv");
        std::fs::write(
            &meeting,
            crate::bench::setup::bench_meeting_file("asamblea bench-failover", holders, "", &items, ""),
        )?;
        std::fs::write(&register, crate::bench::setup::register_csv(&ids))?;
        init.arg("--meeting").arg(&meeting).arg("--register").arg(&register);
    }
    let init = init.output()?;
    if !init.status.success() {
        bail!("init: {}", String::from_utf8_lossy(&init.stderr));
    }
    // This process opens the meeting with nodo-1's keys.
    std::env::set_var("ASAMBLEA_KEYS", &first.keys);
    let mut service = asamblea_venue::service::Service::open(&first.dir)?;
    let meeting = service.meeting_id();
    // Each node signs with its own key (`init --nodes`): a receipt may be
    // any of theirs.
    let daemon_keys = service.state().daemon_keys();
    let voters: Vec<String> = service
        .meeting()
        .register()
        .iter()
        .filter(|(_, h)| {
            h.role().is_none() && h.holdings().preferred.get() == 0 && h.holdings().ordinary.get() > 0
        })
        .map(|(_, h)| h.id().to_string())
        .collect();
    let mut credentials = Vec::new();
    for (n, holder) in voters.iter().enumerate() {
        service.check_in(holder)?;
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&(n as u64 + 1).to_be_bytes());
        seed[8] = 0xfa;
        let key = asamblea_wire::Keypair::from_seed(&seed).public_key();
        let (number, _) = service.issue_badge(holder, key)?;
        credentials.push((holder.clone(), asamblea_wire::Credential::generate_from(&meeting, number, &seed)));
    }
    service.session_step(asamblea_rules::SessionStep::Installed, "banco de conmutación / failover bench")?;
    let items: Vec<String> = service.agenda().iter().map(|e| e.item.as_str().to_string()).collect();
    for item in &items {
        service.open_item(item)?;
    }
    drop(service.close());
    for n in 0..kiosks as usize {
        asamblea_pki::enroll_kiosk(&first.dir, &kiosk_id(n))?;
    }
    let keys = asamblea_venue::secrets::key_folder(&meeting)?;
    for node in &nodes[1..] {
        copy_dir(&first.dir, &node.dir)?;
        std::fs::create_dir_all(&node.keys)?;
        copy_dir(&keys, &node.keys.join(keys.file_name().context("a key folder")?))?;
    }
    // Every holder on every item, dealt to the kiosks in turn.
    let mut ballots: Vec<Ballots> = vec![Vec::new(); kiosks as usize];
    let mut at = 0usize;
    for item in &items {
        for (holder, credential) in &credentials {
            let votes =
                asamblea_kiosk::whole_votes(&[holder.as_str()], asamblea_rules::OptionIndex::list(0))?;
            let signed = asamblea_kiosk::SignedBallot::sign(credential, item, votes)?;
            ballots[at % kiosks as usize].push((signed.body(), signed.digest()));
            at += 1;
        }
    }
    Ok((ballots, meeting, daemon_keys))
}

/// A kiosk: sends each ballot, the same bytes again on the next node
/// until one answers, at its pace, until `stop`.
#[allow(clippy::too_many_arguments)]
fn kiosk(
    ballots: Ballots,
    addresses: Vec<SocketAddr>,
    tls: Arc<rustls::ClientConfig>,
    meeting: MeetingId,
    daemon_keys: Vec<asamblea_wire::PublicKey>,
    gap: Duration,
    seen: Arc<Mutex<Seen>>,
    stop: Arc<AtomicBool>,
) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async move {
        let mut next = 0usize;
        let mut client: Option<asamblea_kiosk::HttpsClient> = None;
        for (body, digest) in ballots {
            let first_try = Instant::now();
            loop {
                if stop.load(Ordering::Relaxed) {
                    return Ok(());
                }
                if client.is_none() {
                    let addr = addresses[next % addresses.len()];
                    match tokio::time::timeout(
                        Duration::from_secs(2),
                        asamblea_kiosk::HttpsClient::connect(addr, tls.clone()),
                    )
                    .await
                    {
                        Ok(Ok(c)) => client = Some(c),
                        _ => {
                            next += 1;
                            tokio::time::sleep(Duration::from_millis(50)).await;
                            continue;
                        }
                    }
                }
                let c = client.as_mut().expect("connected above");
                match tokio::time::timeout(
                    Duration::from_secs(10),
                    c.post_body("/api/v1/ballots", body.clone(), None),
                )
                .await
                {
                    Ok(Ok((status, answer))) if status.is_success() => {
                        let (receipt, _) = daemon_keys
                            .iter()
                            .map(|key| asamblea_kiosk::read_receipt(&answer, &meeting, Some(key)))
                            .find(Result::is_ok)
                            .unwrap_or_else(|| {
                                asamblea_kiosk::read_receipt(&answer, &meeting, daemon_keys.first())
                            })?;
                        if receipt.event != digest {
                            bail!("a receipt of another ballot: {answer}");
                        }
                        let mut seen = seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                        seen.receipts.push((receipt.seq, digest));
                        seen.acknowledged.push(Instant::now());
                        seen.latencies.push(first_try.elapsed());
                        break;
                    }
                    Ok(Ok((status, answer))) if status.is_server_error() || status.as_u16() == 429 => {
                        // A node that is stopping, or a pace too fast:
                        // the same bytes again.
                        client = None;
                        next += 1;
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        let _ = answer;
                    }
                    Ok(Ok((status, answer))) => {
                        seen.lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .refused
                            .push(format!("{status}: {answer}"));
                        break;
                    }
                    _ => {
                        client = None;
                        next += 1;
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                }
            }
            tokio::time::sleep(gap).await;
        }
        Ok(())
    })
}

/// `work` made empty, an etcd cluster of three members (and their
/// addresses as `--replica` takes them), this program, and the three
/// nodes, not started.
fn stage(work: &Path, name: &str) -> Result<(Cluster, String, PathBuf, Vec<Node>)> {
    let _ = std::fs::remove_dir_all(work);
    std::fs::create_dir_all(work)?;
    let cluster = Cluster::start(&format!("{name}-{}", std::process::id()));
    let members: Vec<String> = cluster.endpoints().iter().map(ToString::to_string).collect();
    let exe = std::env::current_exe()?;
    let nodes = NODES
        .iter()
        .map(|name| {
            Ok(Node {
                exe: exe.clone(),
                name,
                dir: work.join(name),
                keys: work.join(format!("claves-{name}")),
                address: free_address()?,
                child: None,
            })
        })
        .collect::<Result<_>>()?;
    Ok((cluster, members.join(","), exe, nodes))
}

/// Runs the bench in `work` (made empty), saying what it does on `out`.
pub fn run(options: &FailoverOptions, work: &Path, out: &mut dyn Write) -> Result<FailoverRun> {
    if let Some(why) = asamblea_replica::cluster::missing() {
        bail!("{why}: la conmutación se mide con un clúster etcd real / failover is measured with a real etcd cluster");
    }
    let (cluster, members, _, mut nodes) = stage(work, "failover")?;
    let (ballots, meeting, daemon_keys) = prepare(work, &nodes, (options.kiosks, None))?;
    let total: usize = ballots.iter().map(Vec::len).sum();
    writeln!(
        out,
        "Reunión: {} papeletas por enviar en {} quioscos / ballots to send from kiosks",
        total, options.kiosks
    )?;
    let copy = Etcd::new(cluster.endpoints(), &meeting).with_timeout(Duration::from_secs(1));
    // nodo-1 first, until it leads; then the standbys.
    nodes[0].start(&members, work)?;
    let started = Instant::now();
    while copy.leader().ok().flatten().as_deref() != Some(NODES[0])
        || std::net::TcpStream::connect(nodes[0].address).is_err()
    {
        if started.elapsed() > Duration::from_secs(120) {
            bail!(
                "nodo-1 no lidera tras 120 s / nodo-1 does not lead after 120 s (see {}/nodo-1.log)",
                work.display()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    for node in &mut nodes[1..] {
        node.start(&members, work)?;
    }
    let addresses: Vec<SocketAddr> = nodes.iter().map(|n| n.address).collect();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let gap = Duration::from_micros(1_000_000 * u64::from(options.kiosks) / u64::from(options.rate.max(1)));
    let kiosks: Vec<_> = ballots
        .into_iter()
        .enumerate()
        .map(|(n, ballots)| {
            let tls = asamblea_kiosk::kiosk_tls(&nodes[0].dir, &kiosk_id(n))?;
            let (addresses, seen, stop) = (addresses.clone(), seen.clone(), stop.clone());
            let keys = daemon_keys.clone();
            Ok(std::thread::spawn(move || kiosk(ballots, addresses, tls, meeting, keys, gap, seen, stop)))
        })
        .collect::<Result<_>>()?;
    let acknowledged = || seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner).acknowledged.len();
    let mut moments = Moments(options.seed | 1);
    let mut waits = Vec::new();
    let mut restarted = 0u32;
    for round in 1..=options.rounds {
        std::thread::sleep(Duration::from_millis(moments.next_ms(200, 1_500)));
        for node in &mut nodes {
            if node.exited() {
                let log =
                    std::fs::read_to_string(work.join(format!("{}.log", node.name))).unwrap_or_default();
                let last = log.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or_default();
                writeln!(
                    out,
                    "  {} se detuvo solo y se arranca de nuevo / stopped by itself, started again: «{}»",
                    node.name,
                    last.trim()
                )?;
                restarted += 1;
                node.start(&members, work)?;
            }
        }
        let Some(leader) = copy.leader().ok().flatten() else { continue };
        let Some(at) = nodes.iter().position(|n| n.name == leader) else {
            bail!("an unknown leader {leader}")
        };
        let before = acknowledged();
        nodes[at].kill();
        let killed = Instant::now();
        // Until a kiosk's ballot is acknowledged again.
        loop {
            let seen_now = seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(first) = seen_now.acknowledged[before..].iter().find(|t| **t > killed) {
                waits.push(first.duration_since(killed));
                break;
            }
            drop(seen_now);
            if killed.elapsed() > Duration::from_secs(120) {
                bail!(
                    "round {round}: no ballot acknowledged 120 s after {leader}'s kill (see the logs in {})",
                    work.display()
                );
            }
            if kiosks.iter().all(std::thread::JoinHandle::is_finished) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        nodes[at].start(&members, work)?;
        writeln!(
            out,
            "  ronda / round {round}: {leader} muerto (SIGKILL); los quioscos esperaron / kiosks waited {} ms",
            waits.last().map_or(0, |w| w.as_millis())
        )?;
        if kiosks.iter().all(std::thread::JoinHandle::is_finished) {
            writeln!(out, "  (se enviaron todas las papeletas / every ballot was sent)")?;
            break;
        }
    }
    stop.store(true, Ordering::Relaxed);
    for kiosk in kiosks {
        kiosk.join().map_err(|_| anyhow::anyhow!("a kiosk thread panicked"))??;
    }
    for node in &mut nodes {
        node.kill();
    }
    // The checks.
    let seen = std::mem::take(&mut *seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    if !seen.refused.is_empty() {
        bail!("{} ballots refused, the first: {}", seen.refused.len(), seen.refused[0]);
    }
    let chain = copy.records_after(0).map_err(anyhow::Error::msg)?;
    let mut takeovers = 0u64;
    let mut ballots_in_chain: HashMap<Digest, u64> = HashMap::new();
    let mut at_seq: HashMap<u64, Digest> = HashMap::new();
    for (seq, bytes) in &chain {
        let record = EventRecord::decode(bytes)?;
        if matches!(record.event.body, asamblea_wire::EventBody::LeaderTookOver { .. }) {
            takeovers += 1;
        }
        if matches!(record.event.body, asamblea_wire::EventBody::Ballot(_)) {
            let digest = Digest::sha256(EventRecord::event_bytes(bytes).unwrap_or_default());
            if ballots_in_chain.insert(digest, *seq).is_some() {
                bail!("ballot {digest} is in the chain twice");
            }
            at_seq.insert(*seq, digest);
        }
    }
    for (seq, digest) in &seen.receipts {
        if at_seq.get(seq) != Some(digest) {
            bail!("a kiosk's receipt n.º {seq} ({digest}) is not in the surviving chain");
        }
    }
    // Every node in step with the copy, and each folder verifies.
    for node in &nodes {
        std::env::set_var("ASAMBLEA_KEYS", &node.keys);
        // As `serve` does at its start: a node killed between its local
        // commit and the copy's transaction holds records no kiosk was
        // acknowledged; they are set aside and the ledger rebuilt.
        let service = asamblea_venue::service::Service::open(&node.dir)?.as_node(node.name)?;
        let (service, _) = crate::commands::replica::reconcile(
            &node.dir,
            service,
            (&cluster.endpoints(), Some(node.name)),
            out,
        )?;
        drop(service.close());
        let stored: Vec<Vec<u8>> = asamblea_ledger::raw_records(&node.dir.join("ledger.db"), &meeting)?
            .into_iter()
            .map(|(bytes, _)| bytes)
            .collect();
        if stored.len() != chain.len() || stored.iter().zip(&chain).any(|(a, (_, b))| a != b) {
            bail!("{}: its ledger is not the copy's chain", node.name);
        }
        let verified =
            Command::new(&node.exe).arg("verify").arg(&node.dir).env("ASAMBLEA_KEYS", &node.keys).output()?;
        if !verified.status.success() {
            bail!("{}: verify: {}", node.name, String::from_utf8_lossy(&verified.stdout));
        }
    }
    Ok(FailoverRun {
        waits,
        receipts: seen.receipts.len(),
        records: chain.len() as u64,
        takeovers,
        restarted,
    })
}

/// The bench: runs, then prints its figures.
pub fn bench_failover(options: &FailoverOptions, out: &mut dyn Write) -> Result<()> {
    let work = std::env::temp_dir().join(format!("asamblea-bench-failover-{}", std::process::id()));
    writeln!(
        out,
        "asamblea bench-failover: 3 nodos, etcd de 3 miembros, {} quioscos a {} papeletas/s, {} rondas (semilla {}) / 3 nodes, 3 etcd members",
        options.kiosks, options.rate, options.rounds, options.seed
    )?;
    let run = run(options, &work, out)?;
    let mut waits: Vec<u128> = run.waits.iter().map(Duration::as_millis).collect();
    waits.sort_unstable();
    let at = |q: usize| waits.get((waits.len().saturating_sub(1)) * q / 100).copied().unwrap_or(0);
    writeln!(
        out,
        "Resultado / result: {} rondas; espera de los quioscos en la toma del líder / kiosks' wait at a takeover: p50 {} ms, p90 {} ms, máx. / max {} ms (meta / target ≤ 5.000 ms)",
        waits.len(),
        at(50),
        at(90),
        waits.last().copied().unwrap_or(0)
    )?;
    writeln!(
        out,
        "  {} recibos entregados, todos en la cadena superviviente; {} registros, {} tomas del liderazgo firmadas cada una por el nodo que tomó; ninguna papeleta dos veces; los 3 registros iguales a la copia y verificados / receipts given, all in the surviving chain; records, takeovers each signed by the node taking over; no ballot twice; the 3 ledgers equal the copy and verified",
        run.receipts, run.records, run.takeovers
    )?;
    if run.restarted > 0 {
        writeln!(
            out,
            "  {} veces un nodo se detuvo solo (su registro dice por qué) y se arrancó de nuevo, como lo haría el gestor de servicios / times a node stopped by itself (its log says why) and was started again, as a service manager would",
            run.restarted
        )?;
    }
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}

/// Waits until `address` accepts a connection.
fn listening(address: SocketAddr, what: &str) -> Result<()> {
    let started = Instant::now();
    while std::net::TcpStream::connect(address).is_err() {
        if started.elapsed() > Duration::from_secs(120) {
            bail!("{what} no escucha tras 120 s / does not listen after 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}

/// Every kiosk sends its ballots as fast as the answers come, for
/// `seconds`: how many were acknowledged, in how long, and their times.
fn flat_out(
    ballots: &[Ballots],
    (addresses, dir): (Vec<SocketAddr>, &Path),
    meeting: MeetingId,
    daemon_keys: &[asamblea_wire::PublicKey],
    seconds: u64,
) -> Result<(usize, Duration, Vec<Duration>)> {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let kiosks: Vec<_> = ballots
        .iter()
        .cloned()
        .enumerate()
        .map(|(n, ballots)| {
            let tls = asamblea_kiosk::kiosk_tls(dir, &kiosk_id(n))?;
            let (addresses, seen, stop) = (addresses.clone(), seen.clone(), stop.clone());
            let keys = daemon_keys.to_vec();
            Ok(std::thread::spawn(move || {
                kiosk(ballots, addresses, tls, meeting, keys, Duration::ZERO, seen, stop)
            }))
        })
        .collect::<Result<_>>()?;
    while started.elapsed() < Duration::from_secs(seconds)
        && !kiosks.iter().all(std::thread::JoinHandle::is_finished)
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    stop.store(true, Ordering::Relaxed);
    for kiosk in kiosks {
        kiosk.join().map_err(|_| anyhow::anyhow!("a kiosk thread panicked"))??;
    }
    let seen = std::mem::take(&mut *seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    if !seen.refused.is_empty() {
        bail!("{} ballots refused, the first: {}", seen.refused.len(), seen.refused[0]);
    }
    let last = seen.acknowledged.iter().max().map_or(Duration::ZERO, |t| t.duration_since(started));
    Ok((seen.acknowledged.len(), last, seen.latencies))
}

/// `a ÷ b` with two decimals, `1,87` (integers only).
fn hundredths(a: u128, b: u128) -> String {
    let h = a * 100 / b.max(1);
    format!("{},{:02}", h / 100, h % 100)
}

fn rate_and_tail(count: usize, elapsed: Duration, latencies: &mut [Duration]) -> (u64, Duration, Duration) {
    latencies.sort_unstable();
    let at =
        |q: usize| latencies.get(latencies.len().saturating_sub(1) * q / 1000).copied().unwrap_or_default();
    let per_second = (count as u128 * 1_000_000 / elapsed.as_micros().max(1)) as u64;
    (per_second, at(500), at(990))
}

/// `asamblea bench-failover --throughput SECONDS`: the same kiosks and
/// ballots as fast as they are answered, for that long, through one
/// daemon alone (no replica) and through a replicated leader (three nodes,
/// three etcd members; each batch waits for a majority): ballots a second
/// and p50/p99 of each, and their ratio; then a follower that was down
/// while they voted comes back, and the time it takes to take in what it
/// missed.
pub fn throughput(seconds: u64, kiosks: u32, out: &mut dyn Write) -> Result<()> {
    if let Some(why) = asamblea_replica::cluster::missing() {
        bail!("{why}: la réplica se mide con un clúster etcd real / replication is measured with a real etcd cluster");
    }
    let work = std::env::temp_dir().join(format!("asamblea-bench-throughput-{}", std::process::id()));
    let (cluster, members, exe, mut nodes) = stage(&work, "throughput")?;
    // Ballots enough that no kiosk runs out at the most the daemon lets
    // it send (its pace and burst), each kiosk with a certificate of its
    // own: what is measured is the daemon's capacity, not one kiosk's pace.
    let (rate, burst) = asamblea_server::KIOSK_RATE;
    let needed = u64::from(kiosks) * (u64::from(rate) * seconds + u64::from(burst));
    let holders = needed.div_ceil(GENERATED_ITEMS).max(10);
    let (ballots, meeting, daemon_keys) = prepare(&work, &nodes, (kiosks, Some(holders)))?;
    let mut solo = Node {
        exe: exe.clone(),
        name: "solo",
        dir: work.join("solo"),
        keys: work.join("claves-solo"),
        address: free_address()?,
        child: None,
    };
    copy_dir(&nodes[0].dir, &solo.dir)?;
    copy_dir(&nodes[0].keys, &solo.keys)?;
    // The most the kiosks may send a second on average over the run: each
    // its pace, plus its burst spread over the run.
    let bound = needed / seconds.max(1);
    writeln!(
        out,
        "asamblea bench-failover --throughput: {kiosks} quioscos tan rápido como se les responde, {seconds} s, un daemon solo y luego un líder replicado (3 nodos, 3 miembros de etcd) / kiosks as fast as answered, one daemon alone then a replicated leader"
    )?;
    writeln!(
        out,
        "  reunión generada / generated meeting: {} accionistas, {GENERATED_ITEMS} puntos, {} papeletas firmadas; cada quiosco con su certificado, a lo sumo {rate}/s y una ráfaga: {} por segundo entre todos / holders, items, signed ballots; each kiosk at most {rate}/s and a burst: that many a second in all",
        thousands(holders),
        thousands(ballots.iter().map(|b| b.len() as u64).sum()),
        thousands(bound)
    )?;
    // One daemon alone.
    solo.start_alone(&work)?;
    listening(solo.address, "solo")?;
    let (count, took, mut latencies) =
        flat_out(&ballots, (vec![solo.address], &solo.dir), meeting, &daemon_keys, seconds)?;
    solo.kill();
    let (one, one_p50, one_p99) = rate_and_tail(count, took, &mut latencies);
    writeln!(
        out,
        "  un daemon solo / one daemon alone: {} papeletas en / ballots in {}: {} por segundo / a second, p50 {} · p99 {}",
        count,
        seconds_of(took),
        one,
        millis(one_p50),
        millis(one_p99)
    )?;
    // A replicated leader; nodo-3 down while they vote.
    nodes[0].start(&members, &work)?;
    let copy = Etcd::new(cluster.endpoints(), &meeting).with_timeout(Duration::from_secs(1));
    let started = Instant::now();
    while copy.leader().ok().flatten().as_deref() != Some(NODES[0])
        || std::net::TcpStream::connect(nodes[0].address).is_err()
    {
        if started.elapsed() > Duration::from_secs(120) {
            bail!("nodo-1 no lidera tras 120 s / nodo-1 does not lead after 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    nodes[1].start(&members, &work)?;
    let (count, took, mut latencies) =
        flat_out(&ballots, (vec![nodes[0].address], &nodes[0].dir), meeting, &daemon_keys, seconds)?;
    let (three, three_p50, three_p99) = rate_and_tail(count, took, &mut latencies);
    writeln!(
        out,
        "  líder replicado / replicated leader: {} papeletas en / ballots in {}: {} por segundo / a second, p50 {} · p99 {}",
        count,
        seconds_of(took),
        three,
        millis(three_p50),
        millis(three_p99)
    )?;
    writeln!(
        out,
        "  costo de la réplica / the cost of replication: una papeleta por segundo con réplica por cada {} sin ella; p99 × {} / one ballot a second replicated for every that many alone; p99 times that",
        hundredths(u128::from(one), u128::from(three)),
        hundredths(three_p99.as_micros(), one_p99.as_micros())
    )?;
    // Whether the machine or the kiosks' pace set the rate (within 5 %).
    let paced = |got: u64| got * 100 >= bound * 95;
    writeln!(
        out,
        "  {} / {}",
        match (paced(one), paced(three)) {
            (true, true) => "ambos al ritmo de los quioscos: súmense quioscos para medir la capacidad",
            (true, false) => "el daemon solo va al ritmo de los quioscos; el líder replicado, a su capacidad en esta máquina",
            _ => "ambos a su capacidad en esta máquina (no al ritmo de los quioscos)",
        },
        match (paced(one), paced(three)) {
            (true, true) => "both at the kiosks' pace: add kiosks to measure capacity",
            (true, false) => "one daemon at the kiosks' pace; the replicated leader at its capacity on this machine",
            _ => "both at their capacity on this machine (not at the kiosks' pace)",
        }
    )?;
    // The follower that was down catches up.
    let behind = copy.head().map_err(anyhow::Error::msg)?.map_or(0, |h| h.seq)
        - asamblea_ledger::record_count(&nodes[2].dir.join("ledger.db"), &meeting)?;
    let caught = Instant::now();
    let mut follower = Command::new(&exe)
        .arg("serve")
        .arg(&nodes[2].dir)
        .args(["--listen", &nodes[2].address.to_string(), "--replica", &members, "--node", NODES[2]])
        .env("ASAMBLEA_KEYS", &nodes[2].keys)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut lines =
        std::io::BufRead::lines(std::io::BufReader::new(follower.stdout.take().context("stdout")?));
    let waited = loop {
        match lines.next() {
            Some(Ok(line)) if line.contains("en espera") => break caught.elapsed(),
            Some(Ok(_)) => {}
            _ => bail!("nodo-3 ended before it caught up"),
        }
    };
    let _ = follower.kill();
    let _ = follower.wait();
    writeln!(
        out,
        "  seguidor al día / follower caught up: {} registros en / records in {} (desde que arrancó hasta quedar en espera / from its start to standby)",
        behind,
        seconds_of(waited)
    )?;
    for node in &mut nodes {
        node.kill();
    }
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}
