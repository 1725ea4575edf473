//! A replicated meeting through the real binary (`serve --replica`,
//! `docs/replication.md`) beside a real etcd cluster of three members on
//! loopback: the node that made the meeting seeds the copy; after a
//! kill -9 of it, the other node takes in every acknowledged record from
//! the copy through the replay and serves on; the first, back, is brought
//! in step.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};

use asamblea_replica::cluster::{missing, Cluster};

use crate::support::{asamblea_ok, SESSIONS_MEETING, SESSIONS_REGISTER};

/// `asamblea serve DIR --replica …` on a free port; what it printed up to
/// «Ctrl-C», once it serves.
fn serve(dir: &Path, cluster: &Cluster) -> (Child, String, String) {
    let (daemon, address) = start(dir, cluster, None);
    let (daemon, said) = serving(daemon);
    (daemon, address, said)
}

/// The same, as node `node` (it serves once it leads), not waited for;
/// each node's keys in a folder of its own (`ASAMBLEA_KEYS`: `keys-NODE`
/// beside the meeting), as on machines of their own.
fn start(dir: &Path, cluster: &Cluster, node: Option<&str>) -> (Child, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    start_on(dir, cluster, (node, port), &[])
}

/// [`start`] on `port`, with `extra` arguments.
fn start_on(
    dir: &Path,
    cluster: &Cluster,
    (node, port): (Option<&str>, u16),
    extra: &[&str],
) -> (Child, String) {
    let members: Vec<String> = cluster.endpoints().iter().map(ToString::to_string).collect();
    let mut command = Command::new(env!("CARGO_BIN_EXE_asamblea"));
    command
        .args(["serve", dir.to_str().unwrap(), "--listen", &format!("127.0.0.1:{port}")])
        .args(["--replica", &members.join(",")])
        .args(extra);
    if let Some(node) = node {
        command.args(["--node", node]);
        command.env("ASAMBLEA_KEYS", dir.with_file_name(format!("keys-{node}")));
    }
    let daemon = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the daemon starts");
    (daemon, format!("127.0.0.1:{port}"))
}

/// Waits until `daemon` serves; what it printed until then.
fn serving(mut daemon: Child) -> (Child, String) {
    let mut said = String::new();
    let mut lines = BufReader::new(daemon.stdout.take().unwrap()).lines();
    for line in lines.by_ref() {
        let line = line.unwrap();
        said.push_str(&line);
        said.push('\n');
        if line.starts_with("Ctrl-C") {
            break;
        }
    }
    if !said.contains("Ctrl-C") {
        let mut stderr = String::new();
        let _ = std::io::Read::read_to_string(&mut daemon.stderr.take().unwrap(), &mut stderr);
        panic!("the daemon did not serve: {said}{stderr}");
    }
    std::thread::spawn(move || for _ in lines {});
    (daemon, said)
}

/// Whether etcd is missing here: then `test` says so loudly, leaves the
/// mark `scripts/test` reports, and fails in CI (`cluster::not_run`).
fn without_etcd(test: &str) -> bool {
    let Some(why) = missing() else { return false };
    asamblea_replica::cluster::not_run(test, why, Path::new(env!("CARGO_TARGET_TMPDIR")));
    true
}

/// `asamblea bench-failover ARGS`, which must succeed; what it printed.
fn bench_failover(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_asamblea")).arg("bench-failover").args(args).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    println!("{said}");
    said
}

/// A POST as the operator (`token`), over the venue's TLS.
fn post(dir: &Path, address: &str, token: &str, path: &str, body: Value) -> (u16, Value) {
    try_post(dir, address, token, path, body).unwrap()
}

/// [`post`], or why no answer came (the connection refused, or closed
/// unanswered).
fn try_post(dir: &Path, address: &str, token: &str, path: &str, body: Value) -> Result<(u16, Value), String> {
    let addr: std::net::SocketAddr = address.parse().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let mut client = asamblea_kiosk::HttpsClient::connect(addr, asamblea_kiosk::staff_tls(dir).unwrap())
            .await
            .map_err(|e| format!("{e:#}"))?;
        let (status, answer) =
            client.post_json(path, &body, Some(token)).await.map_err(|e| format!("{e:#}"))?;
        Ok((status.as_u16(), answer))
    })
}

fn present(dir: &Path, address: &str) -> u64 {
    let addr: std::net::SocketAddr = address.parse().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let mut client = asamblea_kiosk::HttpsClient::connect(addr, asamblea_kiosk::staff_tls(dir).unwrap())
            .await
            .unwrap();
        let (_, status) = client.get_json("/api/v1/status").await.unwrap();
        status["quorum"]["present_shares"].as_u64().unwrap()
    })
}

/// A ballot's body sent as kiosk `quiosco-1` (mutual TLS): the status and
/// the answer.
fn from_kiosk(dir: &Path, address: &str, body: &str) -> (u16, Value) {
    let addr: std::net::SocketAddr = address.parse().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let tls = asamblea_kiosk::kiosk_tls(dir, "quiosco-1").unwrap();
        let mut client = asamblea_kiosk::HttpsClient::connect(addr, tls).await.unwrap();
        let (status, answer) = client.post_body("/api/v1/ballots", body.to_string(), None).await.unwrap();
        (status.as_u16(), answer)
    })
}

/// A meeting made by `init` on nodo-1's disk, in a folder of `name`'s:
/// the folder, nodo-1's and nodo-2's meeting folders (nodo-2's copied
/// after `prepare` ran on nodo-1's), and the staff's tokens by role.
fn two_nodes(
    name: &str,
    prepare: impl FnOnce(&Path),
) -> (PathBuf, PathBuf, PathBuf, std::collections::HashMap<String, String>) {
    let parent: PathBuf = std::env::temp_dir().join(format!("asamblea-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&parent);
    std::fs::create_dir_all(&parent).unwrap();
    let (first, second) = (parent.join("nodo-1"), parent.join("nodo-2"));
    std::fs::write(parent.join("meeting.toml"), SESSIONS_MEETING).unwrap();
    std::fs::write(parent.join("register.csv"), SESSIONS_REGISTER).unwrap();
    // A meeting named `keyed-…` is made with each node's key of its own
    // (`init --nodes`).
    let mut args = vec![
        "init".to_string(),
        first.to_str().unwrap().to_string(),
        "--meeting".to_string(),
        parent.join("meeting.toml").to_str().unwrap().to_string(),
        "--register".to_string(),
        parent.join("register.csv").to_str().unwrap().to_string(),
    ];
    if name.starts_with("keyed-") {
        args.extend(["--nodes".to_string(), "nodo-1,nodo-2".to_string()]);
    }
    let init = asamblea_ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let tokens = String::from_utf8_lossy(&init.stdout)
        .lines()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            (words.len() == 3).then(|| (words[1].to_string(), words[2].to_string()))
        })
        .collect();
    prepare(&first);
    copy_folder(&first, &second);
    (parent, first, second, tokens)
}

fn copy_folder(from: &Path, to: &Path) {
    let copied = Command::new("cp").arg("-a").arg(from).arg(to).status().unwrap();
    assert!(copied.success(), "cp -a");
}

#[test]
fn the_other_node_takes_in_every_acknowledged_record_after_a_kill_and_serves_on() {
    if without_etcd("replicated::the_other_node_takes_in_every_acknowledged_record") {
        return;
    }
    let cluster = Cluster::start("replicated-serve");
    // The second node's disk: the meeting as init made it.
    let (parent, first, second, tokens) = two_nodes("replicated", |_| {});
    let operator = tokens["operator"].clone();
    let made = asamblea_ledger::record_count(&first.join("ledger.db"), &read_id(&first)).unwrap();

    // The first node seeds the copy and serves; two holders arrive.
    let (mut leader, address, said) = serve(&first, &cluster);
    assert!(said.contains(&format!("la copia estaba vacía; registros escritos en ella: {made} /")), "{said}");
    for holder in ["A-1", "B-2"] {
        let (status, answer) =
            post(&first, &address, &operator, "/api/v1/checkins", json!({ "holder": holder }));
        assert!((200..300).contains(&status), "{holder}: {status} {answer}");
    }
    assert_eq!(present(&first, &address), 900);
    let acknowledged = asamblea_ledger::raw_records(&first.join("ledger.db"), &read_id(&first)).unwrap();
    // kill -9: the machine is gone.
    leader.kill().unwrap();
    leader.wait().unwrap();

    // The second node takes in what the first acknowledged, and serves on.
    let (mut standby, address, said) = serve(&second, &cluster);
    let taken = acknowledged.len() as u64 - made;
    assert!(
        said.contains(&format!("registros tomados de la copia, admitidos por la reproducción: {taken} /")),
        "{said}"
    );
    assert_eq!(present(&second, &address), 900, "both arrivals");
    let (status, answer) = post(&second, &address, &operator, "/api/v1/checkins", json!({ "holder": "C-3" }));
    assert!((200..300).contains(&status), "{status} {answer}");
    assert_eq!(present(&second, &address), 1_000);
    let on_second = asamblea_ledger::raw_records(&second.join("ledger.db"), &read_id(&second)).unwrap();
    assert_eq!(
        on_second[..acknowledged.len()],
        acknowledged[..],
        "every record the first acknowledged, as it wrote it"
    );
    standby.kill().unwrap();
    standby.wait().unwrap();

    // The first node, back, is brought in step before it serves.
    let (mut back, address, said) = serve(&first, &cluster);
    assert!(said.contains("registros tomados de la copia, admitidos por la reproducción: 1 /"), "{said}");
    assert_eq!(present(&first, &address), 1_000);
    back.kill().unwrap();
    back.wait().unwrap();
    // Both folders verify, and hold the same chain.
    asamblea_ok(&["verify", first.to_str().unwrap()]);
    asamblea_ok(&["verify", second.to_str().unwrap()]);
    assert_eq!(
        asamblea_ledger::raw_records(&first.join("ledger.db"), &read_id(&first)).unwrap(),
        asamblea_ledger::raw_records(&second.join("ledger.db"), &read_id(&second)).unwrap()
    );
    crate::support::remove_meeting(&first);
    let _ = std::fs::remove_dir_all(&parent);
}

fn read_id(dir: &Path) -> asamblea_wire::MeetingId {
    asamblea_venue::service::MeetingFiles::meeting_id(dir).unwrap()
}

#[test]
fn a_standby_takes_the_meeting_by_itself_when_its_leader_dies() {
    if without_etcd("replicated::a_standby_takes_the_meeting_by_itself") {
        return;
    }
    let cluster = Cluster::start("replicated-standby");
    // A kiosk, enrolled before the folder is copied: both nodes know it.
    let (parent, first, second, tokens) =
        two_nodes("keyed-standby", |first| drop(asamblea_pki::enroll_kiosk(first, "quiosco-1").unwrap()));
    let (operator, chair) = (tokens["operator"].clone(), tokens["chair"].clone());
    // Each machine holds the meeting's keys (docs/replication.md).
    let keys = asamblea_venue::secrets::key_folder_of(&first).unwrap();
    for node in ["nodo-1", "nodo-2"] {
        let root = parent.join(format!("keys-{node}"));
        std::fs::create_dir_all(&root).unwrap();
        copy_folder(&keys, &root.join(keys.file_name().unwrap()));
    }
    // nodo-1 leads and serves; nodo-2 waits, following the copy.
    let (leader, leader_address) = start(&first, &cluster, Some("nodo-1"));
    let (mut leader, said) = serving(leader);
    assert!(said.contains("Nodo nodo-1: lidera la reunión"), "{said}");
    let (mut standby, standby_address) = start(&second, &cluster, Some("nodo-2"));
    let mut standby_out = BufReader::new(standby.stdout.take().unwrap());
    until(&mut standby_out, "en espera");
    // The desk's command on the standby's machine says it waits, and
    // which node leads, where.
    desk_on_standby_names_the_leader(&parent, &second, &leader_address);
    // With the operator's token, the same command goes through the leader.
    let through = Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(["checkin", second.to_str().unwrap(), "B-2"])
        .env("ASAMBLEA_KEYS", parent.join("keys-nodo-2"))
        .env("ASAMBLEA_OPERATOR_TOKEN", &operator)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&through.stdout);
    assert!(through.status.success(), "{said}{}", String::from_utf8_lossy(&through.stderr));
    assert!(said.contains("Registrado / checked in: B-2"), "{said}");
    assert_eq!(present(&first, &leader_address), 300, "recorded by the leader");
    let (status, answer) =
        post(&first, &leader_address, &operator, "/api/v1/checkins", json!({ "holder": "A-1" }));
    assert!((200..300).contains(&status), "A-1: {status} {answer}");
    // The meeting is installed, the election opened, and A-1 votes at
    // the kiosk: the leader's receipt.
    let (status, answer) =
        post(&first, &leader_address, &chair, "/api/v1/meeting/install", json!({ "note": "" }));
    assert!((200..300).contains(&status), "{status} {answer}");
    let (status, answer) = post(&first, &leader_address, &chair, "/api/v1/items/junta/open", json!({}));
    assert!((200..300).contains(&status), "{status} {answer}");
    let meeting = read_id(&first);
    let seed = asamblea_kiosk::BadgeSeed::draw(&meeting).unwrap();
    let (status, answer) = post(&first, &leader_address, &operator, "/api/v1/badges", seed.request("A-1"));
    assert!((200..300).contains(&status), "{status} {answer}");
    let credential = seed.credential(&answer).unwrap();
    let votes = asamblea_kiosk::whole_votes(&["A-1"], asamblea_rules::OptionIndex::list(0)).unwrap();
    let ballot = asamblea_kiosk::SignedBallot::sign(&credential, "junta", votes).unwrap().body();
    let (status, receipt) = from_kiosk(&first, &leader_address, &ballot);
    assert_eq!(status, 200, "{receipt}");
    // kill -9 of the leader: the standby takes the meeting by itself.
    leader.kill().unwrap();
    leader.wait().unwrap();
    let killed = std::time::Instant::now();
    let mut said = String::new();
    for line in (&mut standby_out).lines() {
        let line = line.unwrap();
        said.push_str(&line);
        said.push('\n');
        if line.starts_with("Ctrl-C") {
            break;
        }
    }
    let took = killed.elapsed();
    println!("replicated: nodo-2 served {took:?} after nodo-1's kill -9 (lease of {} s)", 2);
    assert!(said.contains("Nodo nodo-2: toma la reunión"), "{said}");
    assert_eq!(present(&second, &standby_address), 900, "every acknowledged arrival");
    // The kiosk sends the same ballot again, to the next address: the new
    // leader answers with the same receipt (the ballot is not counted
    // twice).
    // Each node signs with its own key (`init --nodes`): the same receipt,
    // signed now by nodo-2.
    let (status, again) = from_kiosk(&second, &standby_address, &ballot);
    assert_eq!(
        (status, &again["receipt"]),
        (200, &receipt["receipt"]),
        "the same receipt from the new leader"
    );
    assert_ne!(again["signature"], receipt["signature"], "signed by nodo-2's own key");
    // On the dead leader's machine, whose folder is the copy's: a desk
    // command writes nothing there alone, names who leads, and with the
    // operator's token goes through nodo-2; `serve` without the copy is
    // refused.
    let desk = |token: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_asamblea"));
        command
            .args(["checkin", first.to_str().unwrap(), "C-3"])
            .env("ASAMBLEA_KEYS", parent.join("keys-nodo-1"));
        if let Some(token) = token {
            command.env("ASAMBLEA_OPERATOR_TOKEN", token);
        }
        command.output().unwrap()
    };
    let before = asamblea_ledger::record_count(&first.join("ledger.db"), &meeting).unwrap();
    let refused = desk(None);
    let why = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{why}");
    assert!(
        why.contains("es el nodo «nodo-1» de una reunión replicada y su daemon no está corriendo"),
        "{why}"
    );
    assert!(
        why.contains(&format!(
            "Lidera nodo-2: su consola de registro está en https://{standby_address}/personal"
        )),
        "{why}"
    );
    let through = desk(Some(&operator));
    let said_desk = String::from_utf8_lossy(&through.stdout);
    assert!(through.status.success(), "{said_desk}{}", String::from_utf8_lossy(&through.stderr));
    assert!(said_desk.contains("Registrado / checked in: C-3"), "{said_desk}");
    assert_eq!(present(&second, &standby_address), 1000, "recorded by nodo-2");
    let alone = Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(["serve", first.to_str().unwrap(), "--listen", "127.0.0.1:0"])
        .env("ASAMBLEA_KEYS", parent.join("keys-nodo-1"))
        .output()
        .unwrap();
    let why = String::from_utf8_lossy(&alone.stderr);
    assert_eq!(alone.status.code(), Some(2), "{why}");
    assert!(
        why.contains("esta carpeta es el nodo «nodo-1» de una reunión replicada")
            && why.contains("--replica"),
        "{why}"
    );
    assert_eq!(
        asamblea_ledger::record_count(&first.join("ledger.db"), &meeting).unwrap(),
        before,
        "nothing written on nodo-1's folder"
    );
    assert!(said.contains("Nodo nodo-2: su toma de la reunión queda en el libro"), "{said}");
    standby.kill().unwrap();
    standby.wait().unwrap();
    // On the record: the takeover, signed by nodo-2; the receipts of both
    // nodes check against the bundle; the acta names the nodes.
    let verified: Value =
        serde_json::from_slice(&asamblea_ok(&["verify", second.to_str().unwrap(), "--json"]).stdout).unwrap();
    let nodes = &verified["nodes"];
    assert_eq!(nodes["enrolled"].as_array().map(Vec::len), Some(2), "{nodes}");
    assert_eq!(nodes["takeovers"][0]["node"], "nodo-2", "{nodes}");
    let bundle = parent.join("reunion.bundle");
    let exported = Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(["export", second.to_str().unwrap(), bundle.to_str().unwrap()])
        .env("ASAMBLEA_KEYS", parent.join("keys-nodo-2"))
        .output()
        .unwrap();
    assert!(exported.status.success(), "{}", String::from_utf8_lossy(&exported.stderr));
    let receipts = parent.join("recibos.txt");
    let line = |r: &Value| {
        format!(
            "{}:{}:{}:{}\n",
            r["receipt"]["seq"],
            r["receipt"]["head"].as_str().unwrap(),
            r["receipt"]["event"].as_str().unwrap(),
            r["signature"].as_str().unwrap()
        )
    };
    std::fs::write(&receipts, format!("{}{}", line(&receipt), line(&again))).unwrap();
    asamblea_ok(&["verify", bundle.to_str().unwrap(), "--receipts", receipts.to_str().unwrap()]);
    let acta = parent.join("acta.docx");
    asamblea_ok(&["acta", bundle.to_str().unwrap(), "-o", acta.to_str().unwrap()]);
    let text = crate::exports::docx_text(&acta);
    assert!(text.contains("La reunión se sirvió replicada en 2 nodos"), "{text}");
    assert!(text.contains("nodo-2 desde el registro n.º"), "{text}");
    crate::support::remove_meeting(&first);
    let _ = std::fs::remove_dir_all(&parent);
}

/// A standby reads the copy while the leader writes: the copy's head may
/// move between its two reads, and that must not look like a chain of its
/// own (a standby writes nothing, so it can never have diverged). Found by
/// `bench-failover` beside other work: a standby set its ledger aside for
/// nothing and, the race met twice, ended.
#[test]
fn a_standby_following_a_busy_leader_never_sets_its_ledger_aside() {
    if without_etcd("replicated::a_standby_following_a_busy_leader") {
        return;
    }
    let cluster = Cluster::start("replicated-busy");
    let (parent, first, second, tokens) = two_nodes("keyed-busy", |_| {});
    keys_for_each(&parent, &first);
    let operator = tokens["operator"].clone();
    let (leader, leader_address) = start(&first, &cluster, Some("nodo-1"));
    let (mut leader, said) = serving(leader);
    assert!(said.contains("Nodo nodo-1: lidera la reunión"), "{said}");
    // The leader logs each record: read, or its pipe fills and it waits.
    let mut log = leader.stderr.take().unwrap();
    std::thread::spawn(move || std::io::copy(&mut log, &mut std::io::sink()));
    let (mut standby, _) = start(&second, &cluster, Some("nodo-2"));
    let mut standby_out = BufReader::new(standby.stdout.take().unwrap());
    let mut standby_log = standby.stderr.take().unwrap();
    let standby_log = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut standby_log, &mut text);
        text
    });
    let mut said = String::new();
    while !said.contains("en espera") {
        assert!(standby_out.read_line(&mut said).unwrap() > 0, "the standby ended: {said}");
    }
    // Arrivals and departures without pause for 4 s (the standby reads
    // the copy 20 times meanwhile), over one connection.
    let addr: std::net::SocketAddr = leader_address.parse().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let written = runtime.block_on(async {
        let mut client =
            asamblea_kiosk::HttpsClient::connect(addr, asamblea_kiosk::staff_tls(&first).unwrap())
                .await
                .unwrap();
        let started = std::time::Instant::now();
        let mut written = 0u32;
        while started.elapsed() < std::time::Duration::from_secs(4) {
            for (path, body) in [
                ("/api/v1/checkins", json!({ "holder": "A-1" })),
                ("/api/v1/checkouts", json!({ "person": "A-1" })),
            ] {
                let (status, answer) = client.post_json(path, &body, Some(&operator)).await.unwrap();
                assert!(status.is_success(), "{path}: {status} {answer}");
                written += 1;
            }
        }
        written
    });
    println!("replicated: {written} records written while the standby followed");
    // And signed, with its node's key, heads of what it took in (every
    // 2 s while it takes records in): its next start trusts them
    // (`checkpoints`), checking the records before them by their chain
    // alone.
    let meeting = read_id(&second);
    let keys = parent.join("keys-nodo-2").join(asamblea_wire::hex::encode(&meeting.0));
    let node = asamblea_wire::Keypair::from_seed(
        &asamblea_venue::secrets::read_key(&keys, "daemon-nodo-2").unwrap(),
    );
    let waited = std::time::Instant::now();
    let kept = loop {
        let kept =
            asamblea_venue::checkpoints::read(&second, &meeting, &[node.public_key()]).unwrap().latest();
        match kept {
            Some(kept) if kept.seq > 1 => break kept,
            _ => assert!(waited.elapsed() < std::time::Duration::from_secs(30), "the standby signed no head"),
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    let ended = standby.try_wait().unwrap();
    standby.kill().unwrap();
    standby.wait().unwrap();
    std::io::Read::read_to_string(&mut standby_out, &mut said).unwrap();
    let log = standby_log.join().unwrap();
    assert!(ended.is_none(), "the standby ended while following ({ended:?}): {said}{log}");
    assert!(!said.contains("quedó aparte"), "the standby set its ledger aside: {said}");
    // It followed: the records written up to its last read are in its
    // ledger (it reads every 200 ms).
    let followed = asamblea_ledger::record_count(&second.join("ledger.db"), &read_id(&second)).unwrap();
    assert!(followed > u64::from(written) / 2, "the standby holds {followed} records of {written}");
    let records = asamblea_ledger::read_records(&second.join("ledger.db"), &meeting).unwrap();
    assert!(kept.seq <= followed, "{kept:?} of {followed}");
    assert_eq!(
        records[usize::try_from(kept.seq).unwrap() - 1].1,
        kept.head,
        "the head it signed is its ledger's"
    );
    leader.kill().unwrap();
    leader.wait().unwrap();
    crate::support::remove_meeting(&first);
    let _ = std::fs::remove_dir_all(&parent);
}

#[test]
fn a_node_that_wrote_what_no_one_confirmed_is_set_aside_and_rebuilt_from_the_copy() {
    if without_etcd("replicated::a_node_that_wrote_what_no_one_confirmed") {
        return;
    }
    let cluster = Cluster::start("replicated-diverged");
    let (parent, first, second, tokens) = two_nodes("diverged", |_| {});
    let operator = tokens["operator"].clone();
    // nodo-1 seeds the copy, checks in A-1, and dies.
    let (mut one, address, _) = serve(&first, &cluster);
    let (status, answer) = post(&first, &address, &operator, "/api/v1/checkins", json!({ "holder": "A-1" }));
    assert!((200..300).contains(&status), "{status} {answer}");
    one.kill().unwrap();
    one.wait().unwrap();
    let id = read_id(&first);
    let confirmed = asamblea_ledger::record_count(&first.join("ledger.db"), &id).unwrap();
    // On its own disk, with no copy, it records C-3's arrival: confirmed
    // to no one. (The desk's command refuses a node's folder while its
    // daemon is not running, `replica.toml`; with that mark removed by
    // hand it writes the ledger alone, as a commit etcd never took would.)
    std::fs::remove_file(asamblea_venue::lock::ReplicaMark::path(&first)).unwrap();
    asamblea_ok(&["checkin", first.to_str().unwrap(), "C-3"]);
    // nodo-2 takes the meeting from the copy and records B-2's arrival.
    let (mut two, address, _) = serve(&second, &cluster);
    let (status, answer) = post(&second, &address, &operator, "/api/v1/checkins", json!({ "holder": "B-2" }));
    assert!((200..300).contains(&status), "{status} {answer}");
    two.kill().unwrap();
    two.wait().unwrap();
    // nodo-1 again: its C-3 is not the copy's chain. Its ledger is set
    // aside and rebuilt from the copy; it then holds A-1 and B-2.
    let (mut again, address, said) = serve(&first, &cluster);
    let next = confirmed + 1;
    assert!(
        said.contains(&format!("coinciden hasta el registro n.º {confirmed}; los registros {next} a {next} de este nodo nadie los confirmó")),
        "{said}"
    );
    let aside = first.join(format!("ledger.db.sin-confirmar-{next}-a-{next}"));
    assert!(said.contains(&aside.display().to_string()), "{said}");
    assert_eq!(present(&first, &address), 900, "A-1 and B-2, not C-3");
    again.kill().unwrap();
    again.wait().unwrap();
    assert_eq!(
        asamblea_ledger::raw_records(&first.join("ledger.db"), &id).unwrap(),
        asamblea_ledger::raw_records(&second.join("ledger.db"), &id).unwrap(),
        "one chain"
    );
    // What no one confirmed is kept, never deleted.
    assert_eq!(asamblea_ledger::record_count(&aside, &id).unwrap(), next);
    asamblea_ok(&["verify", first.to_str().unwrap()]);
    crate::support::remove_meeting(&first);
    let _ = std::fs::remove_dir_all(&parent);
}

/// Issue 27's fault test, bounded for the suite (`bench-failover` runs 50
/// rounds and more): kiosks voting without pause across three nodes, the
/// leader killed at random moments three times; the command itself checks
/// every receipt against the surviving chain, that no ballot is in it
/// twice, that the three ledgers are the copy's chain and verify, and
/// exits 2 if any of it fails.
#[test]
fn kiosks_voting_through_three_killed_leaders_lose_no_receipt_and_count_none_twice() {
    if without_etcd("replicated::kiosks_voting_through_three_killed_leaders") {
        return;
    }
    let said = bench_failover(&["--rounds", "3", "--kiosks", "2", "--rate", "20", "--seed", "7"]);
    assert_eq!(said.matches("muerto (SIGKILL)").count(), 3, "{said}");
    assert!(said.contains("todos en la cadena superviviente"), "{said}");
}

/// A TCP proxy in front of each etcd member, for one node: cutting it
/// cuts that node off from the cluster (and so from the other nodes,
/// which meet only there). Cut `refused`, every connection closes at once
/// (as a switch port that went down answers); cut `silent`, connections
/// stay open and nothing crosses in either way (as a pulled cable, or a
/// firewall that drops): the node learns only from its own time-outs.
struct Cable {
    addresses: Vec<std::net::SocketAddr>,
    /// 0: joined; 1: cut, refused; 2: cut, silent.
    cut: std::sync::Arc<std::sync::atomic::AtomicU8>,
}

impl Cable {
    fn to(members: &[std::net::SocketAddr]) -> Cable {
        use std::sync::atomic::Ordering;
        let cut = std::sync::Arc::new(std::sync::atomic::AtomicU8::new(0));
        let mut addresses = Vec::new();
        for &member in members {
            let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            addresses.push(listener.local_addr().unwrap());
            let cut = cut.clone();
            std::thread::spawn(move || {
                let mut held = Vec::new();
                for client in listener.incoming() {
                    let Ok(client) = client else { continue };
                    match cut.load(Ordering::Relaxed) {
                        1 => continue, // dropped: the connection closes at once
                        2 => {
                            held.push(client); // open, and never answered
                            continue;
                        }
                        _ => {}
                    }
                    let Ok(upstream) = std::net::TcpStream::connect(member) else { continue };
                    for (mut from, mut to) in
                        [(client.try_clone().unwrap(), upstream.try_clone().unwrap()), (upstream, client)]
                    {
                        let cut = cut.clone();
                        std::thread::spawn(move || {
                            let mut buffer = [0u8; 16 * 1024];
                            while let Ok(n) = std::io::Read::read(&mut from, &mut buffer) {
                                match cut.load(Ordering::Relaxed) {
                                    _ if n == 0 => break,
                                    1 => break,
                                    2 => continue, // swallowed; the connection stays open
                                    _ => {}
                                }
                                if std::io::Write::write_all(&mut to, &buffer[..n]).is_err() {
                                    break;
                                }
                            }
                            if cut.load(Ordering::Relaxed) != 2 {
                                let _ = to.shutdown(std::net::Shutdown::Both);
                            }
                        });
                    }
                }
            });
        }
        Cable { addresses, cut }
    }

    /// Cuts the cable: `silent` keeps every connection open and answers
    /// nothing; else every connection closes.
    fn cut(&self, silent: bool) {
        self.cut.store(if silent { 2 } else { 1 }, std::sync::atomic::Ordering::Relaxed);
    }
}

/// `serve` of `dir` as `node`, its etcd members `members`, its keys in a
/// folder of its own, with `env` set: the child, its address, and what it
/// prints, to read with [`until`].
fn node_with(
    dir: &Path,
    node: &str,
    members: &[std::net::SocketAddr],
    env: &[(&str, String)],
) -> (Child, String, BufReader<std::process::ChildStdout>) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let members: Vec<String> = members.iter().map(ToString::to_string).collect();
    let mut command = Command::new(env!("CARGO_BIN_EXE_asamblea"));
    command
        .args(["serve", dir.to_str().unwrap(), "--listen", &format!("127.0.0.1:{port}")])
        .args(["--replica", &members.join(","), "--node", node])
        .env("ASAMBLEA_KEYS", dir.with_file_name(format!("keys-{node}")));
    for (key, value) in env {
        command.env(key, value);
    }
    let mut daemon = command.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("the daemon starts");
    let out = BufReader::new(daemon.stdout.take().unwrap());
    (daemon, format!("127.0.0.1:{port}"), out)
}

/// Reads `out` until a line starts with `mark`; what it read.
fn until(out: &mut BufReader<std::process::ChildStdout>, mark: &str) -> String {
    let mut said = String::new();
    loop {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "the daemon ended before «{mark}»: {said}");
        said.push_str(&line);
        if line.contains(mark) {
            return said;
        }
    }
}

/// Each node's keys in a folder of its own, as on machines of their own.
fn keys_for_each(parent: &Path, first: &Path) {
    let keys = asamblea_venue::secrets::key_folder_of(first).unwrap();
    for node in ["nodo-1", "nodo-2"] {
        let root = parent.join(format!("keys-{node}"));
        std::fs::create_dir_all(&root).unwrap();
        copy_folder(&keys, &root.join(keys.file_name().unwrap()));
    }
}

/// The leader is cut off from the cluster: its next commit is not
/// confirmed and acknowledges nothing, it stops serving, and the standby
/// takes the meeting. Cut two ways: the connections refused (it knows at
/// once), and silent (it knows only by its time-outs: its lease's keeper
/// within some 3 s, its commit within 5 s a member).
#[test]
fn a_leader_whose_network_is_cut_acknowledges_nothing_more_and_the_standby_goes_on() {
    if without_etcd("replicated::a_leader_whose_network_is_cut") {
        return;
    }
    for silent in [false, true] {
        let how = if silent { "silent" } else { "refused" };
        let cluster = Cluster::start(&format!("replicated-network-{how}"));
        let (parent, first, second, tokens) = two_nodes(&format!("fault-network-{how}"), |_| {});
        keys_for_each(&parent, &first);
        // The leader reaches etcd through a cable the test cuts.
        let cable = Cable::to(&cluster.endpoints());
        the_standby_goes_on_after_a_fault(
            (&first, &second, &tokens["operator"]),
            (&cluster, &cable.addresses),
            &format!("network cut, {how}"),
            || cable.cut(silent),
            || {},
        );
        crate::support::remove_meeting(&first);
        let _ = std::fs::remove_dir_all(&parent);
    }
}

/// nodo-1 leads, reaching etcd at `leader_members`, with nodo-2 on
/// standby; A-1 arrives; then `fault` (named `what`) strikes nodo-1.
/// From then on: B-2 asked of nodo-1 is never acknowledged (refused, or
/// never answered); nodo-2 takes the meeting within a minute (else it is
/// killed, and the test fails there rather than hang) and records B-2
/// once; after `recover`, nodo-1 ends by itself; nodo-2's folder
/// verifies.
fn the_standby_goes_on_after_a_fault(
    (first, second, operator): (&Path, &Path, &str),
    (cluster, leader_members): (&Cluster, &[std::net::SocketAddr]),
    what: &str,
    fault: impl FnOnce(),
    recover: impl FnOnce(),
) {
    let (mut leader, leader_address, mut leader_out) = node_with(first, "nodo-1", leader_members, &[]);
    until(&mut leader_out, "Ctrl-C");
    std::thread::spawn(move || for _ in leader_out.lines() {});
    let (mut standby, standby_address, mut standby_out) =
        node_with(second, "nodo-2", &cluster.endpoints(), &[]);
    until(&mut standby_out, "en espera");
    let (status, answer) =
        post(first, &leader_address, operator, "/api/v1/checkins", json!({ "holder": "A-1" }));
    assert!((200..300).contains(&status), "{what}: {status} {answer}");
    fault();
    let failed = std::time::Instant::now();
    let asked = {
        let (first, address, operator) = (first.to_path_buf(), leader_address.clone(), operator.to_string());
        std::thread::spawn(move || {
            try_post(&first, &address, &operator, "/api/v1/checkins", json!({ "holder": "B-2" }))
        })
    };
    // A leader that kept its lead would hold the meeting for good: a
    // minute is far past the seconds it may take.
    let deadline = Deadline::kill_after(vec![standby.id()], std::time::Duration::from_secs(60));
    let said = until(&mut standby_out, "Ctrl-C");
    drop(deadline);
    println!("replicated: {what}: nodo-2 served {:?} after the fault", failed.elapsed());
    assert!(said.contains("Nodo nodo-2: toma la reunión"), "{what}: {said}");
    let (status, answer) =
        post(second, &standby_address, operator, "/api/v1/checkins", json!({ "holder": "B-2" }));
    assert!((200..300).contains(&status), "{what}: {status} {answer}");
    assert_eq!(present(second, &standby_address), 900, "{what}: A-1 and B-2, once each");
    recover();
    assert!(leader.ended_by_itself(), "{what}: the leader stops serving and ends");
    // Whatever the leader's answer to B-2 was, it was no acknowledgement
    // (or none came: its connection closed unanswered).
    match asked.join().unwrap() {
        Ok((status, answer)) => {
            assert!(!(200..300).contains(&status), "{what}: acknowledged after the fault: {answer}")
        }
        Err(unanswered) => println!("replicated: {what}: B-2 unanswered by nodo-1 ({unanswered})"),
    }
    standby.kill().unwrap();
    standby.wait().unwrap();
    asamblea_ok(&["verify", second.to_str().unwrap()]);
}

/// A disk of its own for a node's folder: an ext4 file system in a file,
/// on a loop device, mounted at the folder (its files copied in). The test
/// makes it read-only from outside as ext4 does itself when its drive
/// fails (`mount -o remount,abort`: every write then refused), or stops
/// it (`fsfreeze`: every write then waits, as on a drive that no longer
/// answers). Needs root and the loop devices (CI has both); thawed and
/// unmounted when dropped, whatever the test did.
struct Disk {
    at: PathBuf,
    image: PathBuf,
    frozen: std::cell::Cell<bool>,
}

impl Disk {
    fn run(what: &str, command: &mut Command) -> Result<(), String> {
        match command.output() {
            Ok(out) if out.status.success() => Ok(()),
            Ok(out) => Err(format!("{what}: {}", String::from_utf8_lossy(&out.stderr).trim())),
            Err(e) => Err(format!("{what}: {e}")),
        }
    }

    /// `dir`, moved onto a disk of its own; why not, when this machine
    /// cannot (no root, no loop device, a tool missing).
    fn under(dir: &Path) -> Result<Disk, String> {
        let uid = Command::new("id").arg("-u").output().map_err(|e| format!("id -u: {e}"))?;
        if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
            return Err("a loop-mounted disk needs root".into());
        }
        let image = dir.with_extension("ext4");
        let aside = dir.with_extension("aside");
        std::fs::File::create(&image)
            .and_then(|f| f.set_len(64 << 20))
            .map_err(|e| format!("{}: {e}", image.display()))?;
        Disk::run("mkfs.ext4", Command::new("mkfs.ext4").arg("-q").arg(&image))?;
        std::fs::rename(dir, &aside).unwrap();
        std::fs::create_dir(dir).unwrap();
        let disk = Disk { at: dir.to_path_buf(), image, frozen: std::cell::Cell::new(false) };
        if let Err(why) =
            Disk::run("mount -o loop", Command::new("mount").arg("-o").arg("loop").arg(&disk.image).arg(dir))
        {
            std::fs::remove_dir(dir).unwrap();
            std::fs::rename(&aside, dir).unwrap();
            return Err(why);
        }
        let _ = std::fs::remove_dir(dir.join("lost+found"));
        Disk::run("cp -a", Command::new("cp").arg("-a").arg(aside.join(".")).arg(dir)).unwrap();
        Disk::run("chmod", Command::new("chmod").arg("--reference").arg(&aside).arg(dir)).unwrap();
        std::fs::remove_dir_all(&aside).unwrap();
        Ok(disk)
    }

    /// Every write refused from now on (EROFS), with the files open.
    fn make_read_only(&self) {
        Disk::run(
            "mount -o remount,abort",
            Command::new("mount").arg("-o").arg("remount,abort").arg(&self.at),
        )
        .unwrap();
    }

    /// Every write waits from now on, until [`Disk::thaw`].
    fn freeze(&self) {
        Disk::run("fsfreeze -f", Command::new("fsfreeze").arg("-f").arg(&self.at)).unwrap();
        self.frozen.set(true);
    }

    fn thaw(&self) {
        if self.frozen.replace(false) {
            let _ = Disk::run("fsfreeze -u", Command::new("fsfreeze").arg("-u").arg(&self.at));
        }
    }
}

impl Drop for Disk {
    fn drop(&mut self) {
        self.thaw();
        let _ = Disk::run("umount", Command::new("umount").arg("-l").arg(&self.at));
        let _ = std::fs::remove_file(&self.image);
    }
}

/// Kills `pids` with SIGKILL unless dropped within `limit`: a wait on a
/// daemon's output that would otherwise last for ever ends, and the test
/// fails there (its output closed before the line it waited for).
struct Deadline(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Deadline {
    fn kill_after(pids: Vec<u32>, limit: std::time::Duration) -> Deadline {
        let met = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let watched = met.clone();
        std::thread::spawn(move || {
            let started = std::time::Instant::now();
            while started.elapsed() < limit {
                std::thread::sleep(std::time::Duration::from_millis(100));
                if watched.load(std::sync::atomic::Ordering::Relaxed) {
                    return;
                }
            }
            eprintln!("replicated: {limit:?} passed: killing {pids:?}");
            for pid in pids {
                let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            }
        });
        Deadline(met)
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The leader's own disk fails under it, from outside the process: made
/// read-only, it refuses the next commit; stopped, the commit never ends.
/// Either way the leader acknowledges nothing more, gives up its lead at
/// once (stopped: once its write has waited `DISK_STALL`, 5 s) and ends;
/// the standby takes the meeting and records the arrival once.
#[test]
fn a_leader_whose_disk_turns_read_only_or_stops_answering_acknowledges_nothing_more_and_the_standby_goes_on()
{
    if without_etcd("replicated::a_leader_whose_disk_turns_read_only_or_stops_answering") {
        return;
    }
    for fault in ["read-only", "stopped"] {
        let (parent, first, second, tokens) = two_nodes(&format!("disk-{fault}"), |_| {});
        let disk = match Disk::under(&first) {
            Ok(disk) => disk,
            Err(why) => {
                asamblea_replica::cluster::not_run(
                    "replicated::a_leader_whose_disk_turns_read_only_or_stops_answering",
                    &why,
                    Path::new(env!("CARGO_TARGET_TMPDIR")),
                );
                let _ = std::fs::remove_dir_all(&parent);
                return;
            }
        };
        let cluster = Cluster::start(&format!("replicated-disk-{fault}"));
        keys_for_each(&parent, &first);
        the_standby_goes_on_after_a_fault(
            (&first, &second, &tokens["operator"]),
            (&cluster, &cluster.endpoints()),
            &format!("disk {fault}"),
            || match fault {
                "read-only" => disk.make_read_only(),
                _ => disk.freeze(),
            },
            || disk.thaw(),
        );
        drop(disk);
        crate::support::remove_meeting(&first);
        let _ = std::fs::remove_dir_all(&parent);
    }
}

/// Whether a child ends by itself within a minute (else it is killed).
trait EndsByItself {
    fn ended_by_itself(&mut self) -> bool;
}

impl EndsByItself for Child {
    fn ended_by_itself(&mut self) -> bool {
        let started = std::time::Instant::now();
        while started.elapsed() < std::time::Duration::from_secs(60) {
            if let Ok(Some(_)) = self.try_wait() {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let _ = self.kill();
        let _ = self.wait();
        false
    }
}

#[test]
fn the_meeting_goes_on_when_the_leaders_etcd_member_stops_and_after_every_node_is_killed_at_once() {
    if without_etcd("replicated::the_meeting_goes_on_when_the_leaders_etcd_member_stops") {
        return;
    }
    let mut cluster = Cluster::start("replicated-all");
    let (parent, first, second, tokens) = two_nodes("all-killed", |_| {});
    keys_for_each(&parent, &first);
    let operator = tokens["operator"].clone();
    let (mut leader, leader_address, mut leader_out) = node_with(&first, "nodo-1", &cluster.endpoints(), &[]);
    until(&mut leader_out, "Ctrl-C");
    let (mut standby, _, mut standby_out) = node_with(&second, "nodo-2", &cluster.endpoints(), &[]);
    until(&mut standby_out, "en espera");
    let (status, answer) =
        post(&first, &leader_address, &operator, "/api/v1/checkins", json!({ "holder": "A-1" }));
    assert!((200..300).contains(&status), "{status} {answer}");
    // The etcd member the leader asks first stops: two of three remain,
    // and the leader goes on through the next.
    cluster.kill(0);
    let (status, answer) =
        post(&first, &leader_address, &operator, "/api/v1/checkins", json!({ "holder": "B-2" }));
    assert!((200..300).contains(&status), "with one member down: {status} {answer}");
    cluster.restart(0);
    // Both nodes killed at once; both started again: one leads, with both
    // arrivals, and the meeting goes on.
    leader.kill().unwrap();
    standby.kill().unwrap();
    leader.wait().unwrap();
    standby.wait().unwrap();
    let (mut one, one_address, one_out) = node_with(&first, "nodo-1", &cluster.endpoints(), &[]);
    let (mut two, two_address, two_out) = node_with(&second, "nodo-2", &cluster.endpoints(), &[]);
    // Whichever leads serves, once the lease of the killed leader runs
    // out (both may say first that they wait); the other waits on.
    let (said, heard) = std::sync::mpsc::channel();
    for (at, out) in [(0, one_out), (1, two_out)] {
        let said = said.clone();
        std::thread::spawn(move || {
            for line in out.lines().map_while(Result::ok) {
                if said.send((at, line)).is_err() {
                    break;
                }
            }
        });
    }
    let serving = loop {
        let (at, line) = heard.recv_timeout(std::time::Duration::from_secs(120)).expect("a node serves");
        if line.starts_with("Ctrl-C") {
            break at;
        }
    };
    let (address, dir) = if serving == 0 {
        (one_address.clone(), first.clone())
    } else {
        (two_address.clone(), second.clone())
    };
    assert_eq!(present(&dir, &address), 900, "both arrivals, once each");
    let (status, answer) = post(&dir, &address, &operator, "/api/v1/checkins", json!({ "holder": "C-3" }));
    assert!((200..300).contains(&status), "{status} {answer}");
    for node in [&mut one, &mut two] {
        node.kill().unwrap();
        node.wait().unwrap();
    }
    asamblea_ok(&["verify", dir.to_str().unwrap()]);
    crate::support::remove_meeting(&first);
    let _ = std::fs::remove_dir_all(&parent);
}

/// `bench-failover --throughput`: the same kiosks through one daemon alone
/// and through a replicated leader print their rates and tails, and a
/// follower that was down takes in what it missed.
#[test]
fn the_throughput_of_one_daemon_and_of_a_replicated_leader_are_printed_side_by_side() {
    if without_etcd("replicated::the_throughput_of_one_daemon") {
        return;
    }
    let said = bench_failover(&["--throughput", "1", "--kiosks", "2"]);
    for line in [
        "un daemon solo / one daemon alone:",
        "líder replicado / replicated leader:",
        "costo de la réplica",
        "seguidor al día",
    ] {
        assert!(said.contains(line), "«{line}»: {said}");
    }
}

/// The pages follow the leader (`nodes.js`): the public board open at the
/// leader, after its kill -9, goes on by itself at the node that took over
/// (the same page, its figures); the chair's console signed in there,
/// after that node's kill -9, goes on at the next leader's chair console,
/// signed in by its session's pass (`passes`), and acts there; a page
/// not signed in goes to the next leader's sign-in. In a real browser,
/// over the venue's TLS.
#[test]
fn the_board_and_a_console_open_at_a_dead_leader_go_on_at_the_node_that_took_over() {
    if without_etcd("replicated::the_board_and_a_console_open_at_a_dead_leader") {
        return;
    }
    if let Some(why) = crate::webdriver::missing() {
        return crate::webdriver::not_run("replicated::the_board_and_a_console_open_at_a_dead_leader", why);
    }
    let cluster = Cluster::start("replicated-pages");
    let (parent, first, second, tokens) = two_nodes("keyed-pages", |_| {});
    keys_for_each(&parent, &first);
    let quiet = |mut daemon: Child| {
        let mut log = daemon.stderr.take().unwrap();
        std::thread::spawn(move || std::io::copy(&mut log, &mut std::io::sink()));
        daemon
    };
    // An address written in etcd by another, which the daemon's
    // certificate does not name: no page is led there.
    asamblea_replica::Etcd::new(cluster.endpoints(), &read_id(&first))
        .publish_address("intruso", "evil.example:443")
        .unwrap();
    let (one, one_address) = start(&first, &cluster, Some("nodo-1"));
    let (one, _) = serving(quiet(one));
    let mut one = one;
    let (two, two_address) = start(&second, &cluster, Some("nodo-2"));
    let mut two = quiet(two);
    let browser = crate::webdriver::Browser::start();
    browser.size(1280, 720);
    browser.goto(&format!("https://{one_address}/"));
    browser.wait_for_text("acciones", std::time::Duration::from_secs(20));
    // The page learns both nodes from the leader (nodo-2 published its
    // address while waiting; the leader reads the list every 10 s, the
    // page asks every 2 s).
    let knows = |address: &str| {
        let started = std::time::Instant::now();
        loop {
            let stored = browser.eval("return sessionStorage.getItem('asamblea-nodos') || '';");
            let stored = stored.as_str().unwrap_or_default().to_string();
            if stored.contains(&format!("\"{address}\"")) {
                return stored;
            }
            assert!(started.elapsed() < std::time::Duration::from_secs(30), "the page knows {stored}");
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    };
    let stored = knows(&two_address);
    assert!(stored.contains("\"this\":\"nodo-1\"") && !stored.contains("intruso"), "{stored}");
    let csp = browser.eval_async(
        "const done = arguments[arguments.length - 1]; fetch('/').then((r) => done(r.headers.get('content-security-policy')), () => done(null));",
    );
    let csp = csp.as_str().unwrap_or_default();
    assert!(
        csp.contains(&format!("connect-src 'self' https://{one_address} https://{two_address};")),
        "{csp}"
    );
    assert!(!csp.contains("evil"), "{csp}");
    browser.wait_for_text("acciones", std::time::Duration::from_secs(20));
    one.kill().unwrap();
    one.wait().unwrap();
    let killed = std::time::Instant::now();
    let mut shot = false;
    while !browser.url().starts_with(&format!("https://{two_address}/")) {
        // The notice, as the room sees it for a moment.
        if !shot && browser.page_text().contains("sigue en el nodo") {
            browser
                .screenshot(&crate::consoles::screenshots().join("tablero-sigue-en-otro-nodo-1280x720.png"));
            shot = true;
        }
        assert!(
            killed.elapsed() < std::time::Duration::from_secs(60),
            "the board stayed at {}: {}",
            browser.url(),
            browser.page_text()
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    browser.wait_for_text("acciones", std::time::Duration::from_secs(20));
    println!("replicated: the board went on at nodo-2 {:?} after nodo-1's kill -9", killed.elapsed());
    browser.assert_accessible("tablero en el nodo que tomó la reunión");
    assert!(!browser.page_text().contains("SIN CONEXIÓN"), "{}", browser.page_text());
    // nodo-1 back, as a standby; a console's sign-in open at nodo-2.
    let port = one_address.rsplit_once(':').unwrap().1.parse().unwrap();
    let (back, _) = start_on(&first, &cluster, (Some("nodo-1"), port), &[]);
    let mut back = quiet(back);
    let mut out = BufReader::new(back.stdout.take().unwrap());
    until(&mut out, "en espera");
    std::thread::spawn(move || for _ in out.lines() {});
    // The chair signs in at nodo-2; a second window stays at the sign-in.
    browser.goto(&format!("https://{two_address}/personal"));
    browser.wait_for_text("clave", std::time::Duration::from_secs(20));
    let signed_out = browser.window();
    let chair = browser.new_window();
    browser.switch_to(&chair);
    browser.goto(&format!("https://{two_address}/personal"));
    browser.wait_for_text("clave", std::time::Duration::from_secs(20));
    browser.type_into("#clave", &tokens["chair"]);
    browser.click("form[action='/personal/entrar'] button");
    browser.wait_for_text("Presidencia", std::time::Duration::from_secs(20));
    knows(&one_address);
    let started = std::time::Instant::now();
    while browser.eval("return document.body.dataset.pase || '';") != json!("1") {
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "the console holds no pass");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    browser.switch_to(&signed_out);
    knows(&one_address);
    // A quorum arrives at nodo-2, for the chair to install the meeting
    // later at nodo-1.
    for holder in ["A-1", "B-2"] {
        let (status, answer) =
            post(&second, &two_address, &tokens["operator"], "/api/v1/checkins", json!({ "holder": holder }));
        assert!((200..300).contains(&status), "{status} {answer}");
    }
    two.kill().unwrap();
    two.wait().unwrap();
    let killed = std::time::Instant::now();
    let moved = |to: &str| {
        while !browser.url().starts_with(&format!("https://{one_address}{to}")) {
            assert!(
                killed.elapsed() < std::time::Duration::from_secs(60),
                "the page stayed at {}: {}",
                browser.url(),
                browser.page_text()
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    };
    moved("/personal");
    println!(
        "replicated: a page not signed in went on at nodo-1's sign-in {:?} after nodo-2's kill -9",
        killed.elapsed()
    );
    browser.wait_for_text("clave", std::time::Duration::from_secs(20));
    browser.switch_to(&chair);
    moved("/presidencia");
    browser.wait_for_text("Presidencia", std::time::Duration::from_secs(20));
    println!(
        "replicated: the chair's console went on at nodo-1, signed in, {:?} after nodo-2's kill -9",
        killed.elapsed()
    );
    // Signed in there, by a session of nodo-1's own: the page acts.
    browser.wait_for_text("Su sesión siguió en el nodo nodo-1", std::time::Duration::from_secs(20));
    let text = browser.page_text();
    assert!(text.contains("Salir") && !text.contains("entre de nuevo"), "{text}");
    assert!(!browser.url().contains("siguio"), "{}", browser.url());
    let installed = browser.eval_async(
        "const done = arguments[arguments.length - 1]; \
         const csrf = document.querySelector('meta[name=\"csrf\"]').content; \
         fetch('/api/v1/meeting/install', { method: 'POST', credentials: 'same-origin', \
           headers: { 'content-type': 'application/json', 'x-asamblea-csrf': csrf }, body: '{\"note\":\"\"}' }) \
           .then((r) => r.text().then((t) => done(r.status + ' ' + t)), () => done('0'));",
    );
    let installed = installed.as_str().unwrap_or_default();
    assert!(installed.starts_with("200 "), "the chair installs the meeting at nodo-1: {installed}");
    // The console shows it at its next reading (every 3 s).
    browser.wait_for_text("En sesión", std::time::Duration::from_secs(20));
    browser.screenshot(&crate::consoles::screenshots().join("presidencia-sigue-en-otro-nodo-1280x720.png"));
    browser.assert_accessible("consola de la presidencia en el nodo que tomó la reunión");
    browser.size(390, 844);
    browser.screenshot(&crate::consoles::screenshots().join("presidencia-sigue-en-otro-nodo-390x844.png"));
    browser.assert_accessible("consola de la presidencia en el nodo que tomó la reunión, 390x844");
    back.kill().unwrap();
    back.wait().unwrap();
    crate::support::remove_meeting(&first);
    let _ = std::fs::remove_dir_all(&parent);
}

/// etcd with TLS alone (`asamblea etcd-tls`, `serve --replica-tls`): the
/// nodes replicate, follow and take over through it; a client without
/// the nodes' certificate, or with a kiosk's (the venue's CA), gets
/// nothing from the cluster; a desk command on the standby's machine
/// still finds the leader.
#[test]
fn a_replicated_meeting_over_tls_lets_in_only_the_nodes_certificate() {
    if without_etcd("replicated::a_replicated_meeting_over_tls") {
        return;
    }
    let (parent, first, second, tokens) =
        two_nodes("keyed-tls", |first| drop(asamblea_pki::enroll_kiosk(first, "quiosco-1").unwrap()));
    keys_for_each(&parent, &first);
    let pki = parent.join("etcd-tls");
    let made = asamblea_ok(&["etcd-tls", pki.to_str().unwrap(), "--host", "127.0.0.1"]);
    assert!(String::from_utf8_lossy(&made.stdout).contains("client.crt"));
    let client = asamblea_pki::etcd_client_config(&pki).unwrap();
    let cluster = Cluster::start_tls("replicated-tls", &pki, client.clone());
    let tls = ["--replica-tls", pki.to_str().unwrap()];
    let port = || std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let (leader, leader_address) = start_on(&first, &cluster, (Some("nodo-1"), port()), &tls);
    let (mut leader, said) = serving(leader);
    assert!(said.contains("Nodo nodo-1: lidera la reunión") && !said.contains("sin --replica-tls"), "{said}");
    let (mut standby, standby_address) = start_on(&second, &cluster, (Some("nodo-2"), port()), &tls);
    let mut standby_out = BufReader::new(standby.stdout.take().unwrap());
    until(&mut standby_out, "en espera");
    let (status, answer) =
        post(&first, &leader_address, &tokens["operator"], "/api/v1/checkins", json!({ "holder": "A-1" }));
    assert!((200..300).contains(&status), "{status} {answer}");
    // In the copy, read over TLS with the nodes' certificate.
    let meeting = read_id(&first);
    let copy = asamblea_replica::Etcd::new(cluster.endpoints(), &meeting).with_tls(Some(client));
    let head = copy.head().unwrap().expect("a head");
    // Over TLS too, each request on the connection kept open: one
    // handshake, not one a request.
    for _ in 0..20 {
        assert_eq!(copy.head().unwrap(), Some(head));
    }
    assert_eq!(copy.connections_opened(), 1, "a TLS connection per request");
    assert_eq!(head.seq, asamblea_ledger::record_count(&first.join("ledger.db"), &meeting).unwrap());
    // Plain HTTP, and a kiosk's certificate of the venue's CA: nothing.
    let plain = asamblea_replica::Etcd::new(cluster.endpoints(), &meeting)
        .with_timeout(std::time::Duration::from_secs(2));
    assert!(plain.head().is_err(), "plain HTTP answered");
    let kiosk = std::fs::read_to_string(first.join("tls/kiosks/quiosco-1.crt")).unwrap();
    let kiosk_key = std::fs::read_to_string(first.join("tls/kiosks/quiosco-1.key")).unwrap();
    let etcd_ca = std::fs::read_to_string(pki.join("ca.crt")).unwrap();
    let stranger = asamblea_pki::client_config(&etcd_ca, Some((&kiosk, &kiosk_key))).unwrap();
    let stranger = asamblea_replica::Etcd::new(cluster.endpoints(), &meeting)
        .with_timeout(std::time::Duration::from_secs(2))
        .with_tls(Some(std::sync::Arc::new(stranger)));
    assert!(stranger.head().is_err(), "a kiosk's certificate was let in");
    // The desk's command on the standby's machine asks the copy over TLS.
    desk_on_standby_names_the_leader(&parent, &second, &leader_address);
    // The leader dies: the standby takes over through the TLS cluster.
    leader.kill().unwrap();
    leader.wait().unwrap();
    let said = until(&mut standby_out, "Ctrl-C");
    assert!(said.contains("Nodo nodo-2: toma la reunión"), "{said}");
    std::thread::spawn(move || for _ in standby_out.lines() {});
    assert_eq!(present(&second, &standby_address), 600, "the arrival the leader acknowledged");
    standby.kill().unwrap();
    standby.wait().unwrap();
    crate::support::remove_meeting(&first);
    let _ = std::fs::remove_dir_all(&parent);
}

/// `checkin` on nodo-2's machine while it waits: refused (nothing
/// recorded), saying it waits, that nodo-1 leads and where its console
/// is, and the way through with the operator's token.
fn desk_on_standby_names_the_leader(parent: &Path, second: &Path, leader_address: &str) {
    let refused = Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(["checkin", second.to_str().unwrap(), "C-3"])
        .env("ASAMBLEA_KEYS", parent.join("keys-nodo-2"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{said}");
    assert!(said.contains("este nodo (nodo-2, proceso") && said.contains("en espera"), "{said}");
    let console = format!("Lidera nodo-1: su consola de registro está en https://{leader_address}/personal");
    assert!(said.contains(&console), "{said}");
    assert!(said.contains("ASAMBLEA_OPERATOR_TOKEN"), "{said}");
}
