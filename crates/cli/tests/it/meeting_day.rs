//! What stops a meeting on the day, with the real binary: a second writer
//! (the registration desk's commands beside a running daemon), a crash in
//! the middle of a close, a failed commit under a running board, a
//! half-made `init`, secrets readable by others, read-only media.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use asamblea_kiosk::{kiosk_tls, staff_tls, whole_votes, BadgeSeed, HttpsClient, SignedBallot};
use asamblea_rules::OptionIndex;
use serde_json::{json, Value};

use crate::flood::{status_of, tls_from};
use crate::support::{meeting_id, token, Daemon};

fn asamblea(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_asamblea")).args(args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn ok(args: &[&str]) -> String {
    let out = asamblea(args);
    assert!(out.status.success(), "asamblea {}: {}{}", args.join(" "), text(&out.stdout), text(&out.stderr));
    text(&out.stdout)
}

pub(crate) fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("asamblea-day-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub(crate) fn s(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).permissions().mode() & 0o777
}

pub(crate) async fn get(client: &mut HttpsClient, path: &str, bearer: Option<&str>) -> (u16, Value) {
    let (status, answer) = match bearer {
        Some(token) => client.get_json_as(path, token).await,
        None => client.get_json(path).await,
    }
    .expect("the daemon answers");
    (status.as_u16(), answer)
}

pub(crate) async fn post(
    client: &mut HttpsClient,
    path: &str,
    body: Value,
    bearer: Option<&str>,
) -> (u16, Value) {
    let (status, answer) = client.post_json(path, &body, bearer).await.expect("the daemon answers");
    (status.as_u16(), answer)
}

/// Holders of the demo register with one row of ordinary shares and no
/// role, absent from `attendees` (the daemon's list), with their shares.
fn absent_holders(attendees: &Value) -> Vec<(String, u64)> {
    let present: Vec<&str> = attendees["attendees"]
        .as_array()
        .expect("the list")
        .iter()
        .flat_map(|a| a["carries"].as_array().expect("carries").iter().map(|h| h.as_str().unwrap()))
        .collect();
    let register = std::fs::read_to_string(crate::workspace_root().join("config/demo/register.csv")).unwrap();
    let rows: Vec<Vec<&str>> = register.lines().skip(1).map(|l| l.rsplitn(5, ',').collect()).collect();
    // rsplitn: split, role, shares, class, then id and name.
    rows.iter()
        .filter(|r| r[0].is_empty() && r[1].is_empty() && r[3] == "ORD")
        .map(|r| (r[4].split(',').next().unwrap().to_string(), r[2].parse::<u64>().unwrap()))
        .filter(|(id, _)| {
            !present.contains(&id.as_str())
                && rows.iter().filter(|r| r[4].starts_with(&format!("{id},"))).count() == 1
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_desk_acts_through_a_running_daemon_and_the_meeting_goes_on() {
    let dir = temp("desk");
    let (daemon, printed) = Daemon::start(&["demo", "--dir", s(&dir)]);
    let chair = token(&printed, "chair");
    let operator = token(&printed, "operator");
    let staff = staff_tls(&dir).unwrap();
    let mut public = HttpsClient::connect(daemon.addr, staff.clone()).await.unwrap();
    let (_, before) = get(&mut public, "/api/v1/status", None).await;
    let absent = absent_holders(&get(&mut public, "/api/v1/attendees", Some(&operator)).await.1);
    assert!(absent.len() >= 2, "the demo leaves holders absent: {absent:?}");
    let (late, late_shares) = (absent[0].0.as_str(), absent[0].1);

    // A late arrival at the desk, from a second shell.
    let out = ok(&["checkin", s(&dir), late]);
    assert!(out.contains("through the daemon") && out.contains("HAY QUÓRUM"), "{out}");
    let (_, after) = get(&mut public, "/api/v1/status", None).await;
    assert_eq!(
        after["quorum"]["present_shares"].as_u64().unwrap(),
        before["quorum"]["present_shares"].as_u64().unwrap() + late_shares,
        "the board counts the arrival at once"
    );
    // A refusal through the daemon says why, as on the files.
    let out = asamblea(&["checkin", s(&dir), late]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("already-present"), "{}", text(&out.stderr));

    // Badges for everyone present, written owner-only.
    let out = ok(&["badges", s(&dir)]);
    assert!(out.contains("badges issued"), "{out}");
    let badge_folder =
        dir.with_file_name(format!("{}-credenciales", dir.file_name().unwrap().to_string_lossy()));
    assert_eq!(mode(&badge_folder), 0o700);
    let first = badge_folder.join("credencial-0001.png");
    assert_eq!(mode(&first), 0o600, "a badge holds a signing seed");
    let (_, attendees) = get(&mut public, "/api/v1/attendees", Some(&operator)).await;
    let list = attendees["attendees"].as_array().expect("the list");
    assert!(list.iter().all(|a| a["badge"].is_u64()), "every attendee has a badge now: {attendees}");

    // The meeting goes on: the late arrival votes on an open item.
    let (status, _) = post(&mut public, "/api/v1/items/item-1/open", json!({}), Some(&chair)).await;
    assert_eq!(status, 200);
    // A lost badge: revoked from the desk, and a new one issued.
    let out =
        ok(&["revoke", s(&dir), &list.iter().find(|a| a["person"] == late).unwrap()["badge"].to_string()]);
    assert!(out.contains("revocada / revoked"), "{out}");
    let seed = BadgeSeed::draw(&meeting_id(&dir)).unwrap();
    let (status, badge) = post(&mut public, "/api/v1/badges", seed.request(late), Some(&operator)).await;
    assert_eq!(status, 201, "{badge}");
    assert!(badge.get("qr_text").is_none(), "the daemon never holds a badge's seed: {badge}");
    let credential = seed.credential(&badge).unwrap();
    let ballot =
        SignedBallot::sign(&credential, "item-1", whole_votes(&[late], OptionIndex::FOR).unwrap()).unwrap();
    let mut kiosk = HttpsClient::connect(daemon.addr, kiosk_tls(&dir, "quiosco-1").unwrap()).await.unwrap();
    let (status, receipt) = kiosk.post_body("/api/v1/ballots", ballot.body(), None).await.unwrap();
    assert_eq!(status.as_u16(), 200, "{receipt}");

    // A kiosk enrolled and revoked through the daemon.
    let out = ok(&["kiosk", s(&dir), "quiosco-2"]);
    assert!(out.contains("kiosk enrolled"), "{out}");
    let mut second = HttpsClient::connect(daemon.addr, kiosk_tls(&dir, "quiosco-2").unwrap()).await.unwrap();
    let sheet = format!("/api/v1/kiosk/badges/{}", credential.id().0);
    assert_eq!(get(&mut second, &sheet, None).await.0, 200);
    ok(&["kiosk", s(&dir), "quiosco-2", "--revoke"]);
    assert_eq!(get(&mut second, &sheet, None).await.0, 403, "refused at once, on its open connection");

    // Reading commands work beside the daemon.
    let bundle = dir.with_extension("bundle");
    assert!(ok(&["export", s(&dir), s(&bundle)]).contains("audit bundle"));
    assert!(ok(&["verify", s(&bundle)]).contains("VERIFIED"));
    assert!(ok(&["verify", s(&dir)]).contains("VERIFIED"));
    // A second daemon is refused, naming the first.
    let out = asamblea(&["serve", s(&dir), "--listen", "127.0.0.1:0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains(&format!("proceso {}", daemon.child.id())), "{}", text(&out.stderr));

    // The daemon logged every meeting event, one line each, with no secret.
    assert!(printed.iter().any(|l| l.contains(&format!("(PID): {}", daemon.child.id()))), "{printed:?}");
    std::thread::sleep(Duration::from_millis(200));
    let log = daemon.logged();
    for line in [
        "llegada registrada / checked in",
        "credencial emitida / badge issued",
        "credencial revocada / badge revoked",
        "votación abierta / poll opened",
        "quiosco inscrito / kiosk enrolled",
        "quiosco revocado / kiosk revoked",
    ] {
        assert!(log.contains(line), "`{line}` is not in the log:\n{log}");
    }
    assert!(log.contains(&format!("person.id={late}")), "{log}");
    assert!(!log.contains(&operator) && !log.contains(&credential.to_qr_text()[3..]), "a secret in the log");

    // Stopped, the desk writes the files itself again.
    assert!(daemon.terminate().success());
    assert!(!dir.join("daemon.run").exists(), "a clean stop removes the run file");
    let out = ok(&["checkin", s(&dir), &absent[1].0]);
    assert!(!out.contains("through the daemon"), "{out}");
    assert!(ok(&["verify", s(&dir)]).contains("VERIFIED"));
    crate::support::remove_meeting(&dir);
    std::fs::remove_dir_all(&badge_folder).ok();
    std::fs::remove_file(&bundle).ok();
}

#[test]
fn a_command_holding_the_meeting_keeps_the_daemon_and_the_desk_out() {
    let dir = temp("held");
    ok(&["init", s(&dir)]);
    let lock = std::fs::OpenOptions::new().write(true).open(dir.join("lock")).unwrap();
    lock.try_lock().expect("free");
    std::fs::write(dir.join("lock"), format!("{}\n", std::process::id())).unwrap();
    for args in [vec!["serve", s(&dir), "--listen", "127.0.0.1:0"], vec!["checkin", s(&dir), "CC-10000000"]] {
        let out = asamblea(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let error = text(&out.stderr);
        assert!(error.contains(&format!("proceso / process {}", std::process::id())), "{error}");
        assert!(error.contains("espere a que termine"), "{error}");
    }
    drop(lock);
    ok(&["checkin", s(&dir), "CC-10000000"]);
    crate::support::remove_meeting(&dir);
}

/// A meeting of two holders with equal shares and a board election for one
/// seat: one ballot each for a different list ties their remainders across
/// the seat, settled by a lot drawn at the close.
fn tied_meeting(dir: &Path) -> (String, String) {
    let meeting = dir.with_extension("toml");
    let register = dir.with_extension("csv");
    std::fs::write(
        &meeting,
        r#"company = "Empate S.A."
nit = "900.000.001-1"
kind = "ordinary"
call = "first"
date = "2027-03-25"
time = "10:00"
place = "Bogotá"
convened_by = "Aviso en El Tiempo"
convened_on = "2027-03-02"
profile = "legal-default"

[settings]
poll_minimum_open_seconds = 0
poll_minimum_countdown_seconds = 0

[capital]
ORD = { subscribed = 2000 }

[[agenda]]
id = "item-1"
title = "Elección de la Junta Directiva"
matter = "board-election"
seats = 1
lists = ["Lista A", "Lista B"]
"#,
    )
    .unwrap();
    std::fs::write(
        &register,
        "holder_id,name,class,shares,role,split\nA-1,Ana,ORD,1000,,\nB-2,Beto,ORD,1000,,\n",
    )
    .unwrap();
    let out = ok(&["init", s(dir), "--meeting", s(&meeting), "--register", s(&register)]);
    std::fs::remove_file(&meeting).ok();
    std::fs::remove_file(&register).ok();
    let printed: Vec<String> = out.lines().map(str::to_string).collect();
    (token(&printed, "chair"), token(&printed, "operator"))
}

/// kill -9 at every point of a close of a tied election, with every commit
/// slowed as a slow fsync would: after the restart the item is still open,
/// or closed with its signed result and its lot; never closed without them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_close_is_one_step_whatever_the_moment_of_a_kill() {
    const COMMIT_DELAY_MS: u64 = 150;
    let mut outcomes = Vec::new();
    for kill_after_ms in [0u64, 40, 80, 120, 140, 170, 220, 400, 1000] {
        let dir = temp(&format!("close-{kill_after_ms}"));
        let (chair, operator) = tied_meeting(&dir);
        let delay = COMMIT_DELAY_MS.to_string();
        let (daemon, _) =
            Daemon::start_with(&["serve", s(&dir)], &[("ASAMBLEA_TEST_COMMIT_DELAY_MS", &delay)]);
        let staff = staff_tls(&dir).unwrap();
        let mut desk = HttpsClient::connect(daemon.addr, staff.clone()).await.unwrap();
        let meeting = meeting_id(&dir);
        ok(&["kiosk", s(&dir), "quiosco-1"]);
        let mut kiosk =
            HttpsClient::connect(daemon.addr, kiosk_tls(&dir, "quiosco-1").unwrap()).await.unwrap();
        for holder in ["A-1", "B-2"] {
            assert_eq!(
                post(&mut desk, "/api/v1/checkins", json!({ "holder": holder }), Some(&operator)).await.0,
                201
            );
        }
        assert_eq!(post(&mut desk, "/api/v1/meeting/install", json!({}), Some(&chair)).await.0, 200);
        assert_eq!(post(&mut desk, "/api/v1/items/item-1/open", json!({}), Some(&chair)).await.0, 200);
        for (holder, list) in [("A-1", 0), ("B-2", 1)] {
            let seed = BadgeSeed::draw(&meeting).unwrap();
            let (_, badge) = post(&mut desk, "/api/v1/badges", seed.request(holder), Some(&operator)).await;
            let credential = seed.credential(&badge).unwrap();
            let votes = whole_votes(&[holder], OptionIndex::list(list)).unwrap();
            let ballot = SignedBallot::sign(&credential, "item-1", votes).unwrap();
            let (status, answer) = kiosk.post_body("/api/v1/ballots", ballot.body(), None).await.unwrap();
            assert_eq!(status.as_u16(), 200, "{answer}");
        }
        // The close, and a kill -9 while it may be anywhere.
        let addr = daemon.addr;
        let chair2 = chair.clone();
        let closing = tokio::spawn(async move {
            // The kill may come first: then there is no answer at all.
            let mut desk = HttpsClient::connect(addr, staff).await.ok()?;
            desk.post_json("/api/v1/items/item-1/close", &json!({}), Some(&chair2)).await.ok()
        });
        tokio::time::sleep(Duration::from_millis(kill_after_ms)).await;
        daemon.kill();
        let _ = closing.await;

        let (restarted, _) = Daemon::start(&["serve", s(&dir)]);
        let mut public = HttpsClient::connect(restarted.addr, staff_tls(&dir).unwrap()).await.unwrap();
        let (_, status) = get(&mut public, "/api/v1/status", None).await;
        let item = &status["items"][0];
        match item["state"].as_str() {
            Some("open") => outcomes.push("open"),
            Some("closed") => {
                assert_eq!(item["result"]["outcome"], "elected", "the lot settled the tie: {item}");
                let (code, result) = get(&mut public, "/api/v1/results/item-1", None).await;
                assert_eq!(code, 200, "{result}");
                outcomes.push("closed");
            }
            other => panic!("item-1 is {other:?} after a kill at {kill_after_ms} ms: {status}"),
        }
        drop(restarted);
        let records = asamblea_ledger::read_records(&dir.join("ledger.db"), &meeting).unwrap();
        let kinds: Vec<&str> = records.iter().map(|(r, _)| r.event.kind().name()).collect();
        let closes = kinds.iter().filter(|k| **k == "item-closed").count();
        let results = kinds.iter().filter(|k| **k == "result-published").count();
        let lots = kinds.iter().filter(|k| **k == "lot-drawn").count();
        assert!(
            (closes, lots, results) == (0, 0, 0) || (closes == 1 && lots >= 1 && results == lots + 1),
            "after a kill at {kill_after_ms} ms the ledger holds {kinds:?}"
        );
        assert!(ok(&["verify", s(&dir)]).contains("VERIFIED"));
        crate::support::remove_meeting(&dir);
    }
    println!("close outcomes by kill time: {outcomes:?}");
    assert!(outcomes.contains(&"open") && outcomes.contains(&"closed"), "both sides reached: {outcomes:?}");
}

/// A commit that fails under a running daemon (as on a full disk): every
/// figure stays as it was, the failure is named with what to do, and
/// nothing unsaved is shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_commit_freezes_every_figure_and_names_its_cause() {
    let dir = temp("failed");
    let printed: Vec<String> = ok(&["init", s(&dir)]).lines().map(str::to_string).collect();
    let operator = token(&printed, "operator");
    // `init` writes eleven events (convened, the whole agenda, the poll
    // timing, the modality of the demo's mixed meeting, four staff, the
    // register, its names in one event, the meeting file) in eleven
    // commits; the twelfth fails.
    let (daemon, _) = Daemon::start_with(&["serve", s(&dir)], &[("ASAMBLEA_TEST_FAIL_COMMIT_AT", "12")]);
    let mut desk = HttpsClient::connect(daemon.addr, staff_tls(&dir).unwrap()).await.unwrap();
    let (_, before) = get(&mut desk, "/api/v1/status", None).await;
    let (code, answer) =
        post(&mut desk, "/api/v1/checkins", json!({ "holder": "CC-10000000" }), Some(&operator)).await;
    assert_eq!((code, answer["error"]["code"].as_str()), (503, Some("ledger-failure")), "{answer}");
    let (_, after) = get(&mut desk, "/api/v1/status", None).await;
    assert_eq!(after["quorum"], before["quorum"], "the unsaved arrival is not counted");
    assert_eq!(after["items"], before["items"]);
    assert_eq!(after["ledger_failed"]["cause"], "disk-full", "{after}");
    assert_eq!(get(&mut desk, "/api/v1/results/item-1", None).await.0, 503);
    let (code, _) =
        post(&mut desk, "/api/v1/checkins", json!({ "holder": "CC-10000001" }), Some(&operator)).await;
    assert_eq!(code, 503, "fail-stop: nothing more is taken");
    std::thread::sleep(Duration::from_millis(200));
    let log = daemon.logged();
    assert!(
        log.contains("disk-full") && log.contains("libere espacio") && log.contains("free space"),
        "{log}"
    );
    daemon.kill();
    // Restarted, the ledger is what was saved: the arrival never was.
    let (restarted, _) = Daemon::start(&["serve", s(&dir)]);
    let mut desk = HttpsClient::connect(restarted.addr, staff_tls(&dir).unwrap()).await.unwrap();
    let (_, again) = get(&mut desk, "/api/v1/status", None).await;
    assert_eq!(again["quorum"], before["quorum"]);
    drop(restarted);
    crate::support::remove_meeting(&dir);
}

#[test]
fn init_checks_everything_first_and_clears_what_a_killed_init_left() {
    let dir = temp("atomic");
    let parent = dir.parent().unwrap();
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let hidden = |parent: &Path| -> Vec<String> {
        std::fs::read_dir(parent)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(&format!(".{name}.init-")))
            .collect()
    };
    let out = asamblea(&["init", s(&dir), "--host", "two words"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--host"), "{}", text(&out.stderr));
    assert!(!dir.exists() && hidden(parent).is_empty(), "a refused init writes nothing");

    // What a kill -9 in the middle of `init` leaves: a hidden folder whose
    // lock nobody holds.
    let leftover = parent.join(format!(".{name}.init-4242"));
    std::fs::create_dir_all(leftover.join("keys")).unwrap();
    std::fs::write(leftover.join("ledger.db"), b"half").unwrap();
    // … and, past the meeting's id, its key folder of seeds; this one of
    // another meeting in the same folder, which `init` clears too.
    let (other, other_keys) = killed_init(parent, &format!(".{name}-otra.init-4343"));
    let out = ok(&["init", s(&dir)]);
    assert!(out.contains("removed an earlier, unfinished init"), "{out}");
    assert!(hidden(parent).is_empty() && dir.join("ledger.db").exists());
    assert!(!other.exists() && !other_keys.exists(), "{out}");
    assert!(ok(&["verify", s(&dir)]).contains("VERIFIED"));
    // `serve` clears what a killed init left beside the meeting it serves.
    let (late, late_keys) = killed_init(parent, &format!(".{name}-tarde.init-4545"));
    let (daemon, printed) = Daemon::start(&["serve", s(&dir)]);
    assert!(printed.iter().any(|l| l.contains("removed an earlier, unfinished init")), "{printed:?}");
    assert!(!late.exists() && !late_keys.exists());
    drop(daemon);
    // An agent's id is held to the register's rule for ids here too.
    let out = asamblea(&["checkin", s(&dir), "\u{202E}gnp.exe", "--represents", "CC-10000000"]);
    let said = text(&out.stderr);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains("el identificador del apoderado") && said.contains("the agent's id"), "{said}");
    crate::support::remove_meeting(&dir);
}

/// A hidden staging folder as a kill -9 past the meeting's id leaves it:
/// the register's names, the id, and a key folder of seeds outside it.
fn killed_init(parent: &Path, name: &str) -> (PathBuf, PathBuf) {
    let folder = parent.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("register.csv"), "holder_id,name,class,shares\nCC-1,Ana Ruiz,ORD,10\n")
        .unwrap();
    let meeting = asamblea_wire::MeetingId(asamblea_venue::secrets::random());
    std::fs::write(folder.join("meeting-id"), format!("{}\n", asamblea_wire::hex::encode(&meeting.0)))
        .unwrap();
    let keys = asamblea_venue::secrets::key_folder(&meeting).unwrap();
    std::fs::create_dir_all(&keys).unwrap();
    std::fs::write(keys.join("daemon.seed"), "00".repeat(32)).unwrap();
    (folder, keys)
}

#[test]
fn secrets_are_the_owners_only_whatever_the_umask() {
    // The meeting goes in a folder that is everyone's: it stays so.
    let parent = temp("modes-parent");
    std::fs::create_dir_all(&parent).unwrap();
    std::fs::set_permissions(&parent, std::fs::Permissions::from_mode(0o755)).unwrap();
    let dir = parent.join("reunion");
    let key_root = parent.join("llaves");
    let binary = env!("CARGO_BIN_EXE_asamblea");
    let status = Command::new("sh")
        .args(["-c", &format!("umask 000 && '{binary}' init '{}' && '{binary}' checkin '{}' CC-10000000 && '{binary}' badges '{}'", s(&dir), s(&dir), s(&dir))])
        .env("ASAMBLEA_KEYS", &key_root)
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", text(&status.stderr));
    let keys = key_root.join(asamblea_wire::hex::encode(&meeting_id(&dir).0));
    let badges = parent.join("reunion-credenciales");
    for folder in
        [dir.clone(), dir.join("tls"), dir.join("tls/kiosks"), key_root.clone(), keys.clone(), badges.clone()]
    {
        assert_eq!(mode(&folder), 0o700, "{} must be 0700", folder.display());
    }
    let mut files: Vec<PathBuf> = [
        "register.csv",
        "register.bin",
        "meeting.toml",
        "staff.toml",
        "ledger.db",
        "tls/ca.key",
        "tls/server.key",
    ]
    .iter()
    .map(|f| dir.join(f))
    .collect();
    files.extend(
        ["credencial-0001.png", "credencial-0001.svg", "credencial-0001.txt", "hoja-de-credenciales.html"]
            .iter()
            .map(|f| badges.join(f)),
    );
    // The signing seeds: the daemon's and one per staff account, in the
    // key folder outside the meeting directory.
    let seeds: Vec<PathBuf> = std::fs::read_dir(&keys).unwrap().flatten().map(|e| e.path()).collect();
    assert!(seeds.len() >= 5, "{seeds:?}");
    files.extend(seeds.iter().cloned());
    for file in &files {
        assert_eq!(mode(file) & 0o077, 0, "{} is {:o}: readable by others", file.display(), mode(file));
    }
    // Nothing in the meeting directory can sign: no key folder there, and
    // no file of it holds any of the seeds.
    assert!(!dir.join("keys").exists());
    let secrets: Vec<String> =
        seeds.iter().map(|p| std::fs::read_to_string(p).unwrap().trim().to_string()).collect();
    let mut pending = vec![dir.clone()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let bytes = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            for secret in &secrets {
                assert!(!bytes.contains(secret.as_str()), "{} holds a signing seed", path.display());
            }
        }
    }
    assert_eq!(mode(&parent), 0o755, "the folder the meeting was made in is left as it was");
    std::fs::remove_dir_all(&parent).ok();
}

/// `verify` of a meeting directory on read-only media (a bind mount made
/// read-only; root is needed to make one, and CI runs as root).
#[test]
fn verify_works_on_read_only_media_and_serve_refuses_them_at_start() {
    let dir = temp("ro-source");
    let mount = temp("ro-mount");
    ok(&["init", s(&dir)]);
    ok(&["checkin", s(&dir), "CC-10000000"]);
    std::fs::create_dir_all(&mount).unwrap();
    let sh = |script: &str| Command::new("sh").args(["-c", script]).output().unwrap();
    let mounted = sh(&format!(
        "mount --bind '{}' '{}' && mount -o remount,bind,ro '{}'",
        s(&dir),
        s(&mount),
        s(&mount)
    ));
    if !mounted.status.success() {
        let _ = sh(&format!("umount '{}'", s(&mount)));
        panic!(
            "NO SE PUDO MONTAR SOLO LECTURA / COULD NOT MAKE A READ-ONLY MOUNT ({}): this test needs root (CI runs as root)",
            text(&mounted.stderr).trim()
        );
    }
    let verified = asamblea(&["verify", s(&mount)]);
    let served = asamblea(&["serve", s(&mount), "--listen", "127.0.0.1:0"]);
    let _ = sh(&format!("umount '{}'", s(&mount)));
    assert!(
        text(&verified.stdout).contains("VERIFIED"),
        "{}{}",
        text(&verified.stdout),
        text(&verified.stderr)
    );
    assert_eq!(served.status.code(), Some(2));
    assert!(text(&served.stderr).contains("solo lectura"), "{}", text(&served.stderr));
    crate::support::remove_meeting(&dir);
    std::fs::remove_dir_all(&mount).ok();
}

/// A badge for someone present who carries only their own shares, and
/// their ballot for `item-1` (signed as a kiosk would).
async fn a_ballot_for_item_1(desk: &mut HttpsClient, dir: &Path, operator: &str) -> SignedBallot {
    let (_, attendees) = get(desk, "/api/v1/attendees", Some(operator)).await;
    let voter = attendees["attendees"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["carries"].as_array().unwrap().len() == 1 && a["carries"][0] == a["person"])
        .map(|a| a["person"].as_str().unwrap().to_string())
        .unwrap();
    let seed = BadgeSeed::draw(&meeting_id(dir)).unwrap();
    let (_, badge) = post(desk, "/api/v1/badges", seed.request(&voter), Some(operator)).await;
    let credential = seed.credential(&badge).unwrap();
    SignedBallot::sign(&credential, "item-1", whole_votes(&[&voter], OptionIndex::FOR).unwrap()).unwrap()
}

/// Reads the live feed until a message of `kind` arrives (within 20 s).
async fn next_message(stream: &mut (impl tokio::io::AsyncRead + Unpin), kind: &str) -> Value {
    use tokio::io::AsyncReadExt;
    let mut seen = String::new();
    let mut buffer = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let read =
            tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await.expect("a message in time");
        let n = read.expect("the feed stays open");
        assert!(n > 0, "the feed ended");
        seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
        for line in seen.lines() {
            if let Some(data) = line.strip_prefix("data: ").or_else(|| line.strip_prefix("data:")) {
                if let Ok(value) = serde_json::from_str::<Value>(data) {
                    if value["type"] == kind {
                        return value;
                    }
                }
            }
        }
    }
}

/// The daemon signs its head on the feed while a poll is open; an observer
/// keeps it, and a voter keeps the receipt: `verify` checks the bundle
/// against both, and a forged one is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn witnesses_from_the_feed_and_voters_receipts_are_checked_by_verify() {
    let dir = temp("witness");
    let (daemon, printed) = Daemon::start(&["demo", "--dir", s(&dir), "--head-interval", "1"]);
    let (chair, operator) = (token(&printed, "chair"), token(&printed, "operator"));
    let mut desk = HttpsClient::connect(daemon.addr, staff_tls(&dir).unwrap()).await.unwrap();
    assert_eq!(post(&mut desk, "/api/v1/items/item-1/open", json!({}), Some(&chair)).await.0, 200);
    let ballot = a_ballot_for_item_1(&mut desk, &dir, &operator).await;
    let mut kiosk = HttpsClient::connect(daemon.addr, kiosk_tls(&dir, "quiosco-1").unwrap()).await.unwrap();
    let (status, receipt) = kiosk.post_body("/api/v1/ballots", ballot.body(), None).await.unwrap();
    assert_eq!(status.as_u16(), 200, "{receipt}");

    // An observer on the feed keeps a signed head that covers the ballot.
    let mut feed = tls_from("127.0.0.9", daemon.addr, &dir).await.unwrap();
    assert_eq!(status_of(&mut feed, b"GET /api/v1/feed HTTP/1.1\r\nHost: x\r\n\r\n").await, Some(200));
    let mut head = next_message(&mut feed, "head").await;
    while head["seq"].as_u64().unwrap() < receipt["receipt"]["seq"].as_u64().unwrap() {
        head = next_message(&mut feed, "head").await;
    }
    let (_, status) = get(&mut desk, "/api/v1/status", None).await;
    assert_eq!(status["head"]["type"], "head", "the status carries the signed head: {status}");
    assert_eq!(post(&mut desk, "/api/v1/items/item-1/close", json!({}), Some(&chair)).await.0, 200);

    let bundle = dir.with_extension("bundle");
    ok(&["export", s(&dir), s(&bundle)]);
    let witness = dir.with_extension("witness");
    std::fs::write(&witness, format!("{head}\n")).unwrap();
    let receipts = dir.with_extension("receipts");
    std::fs::write(&receipts, format!("{receipt}\n")).unwrap();
    let out = ok(&["verify", s(&bundle), "--witness", s(&witness), "--receipts", s(&receipts)]);
    assert!(out.contains("VERIFIED") && out.contains("Recibos / receipts: 1"), "{out}");

    // A head the daemon never signed, and a receipt for another event.
    let mut forged = head.clone();
    forged["head"] = json!("0".repeat(64));
    std::fs::write(&witness, format!("{forged}\n")).unwrap();
    let out = asamblea(&["verify", s(&bundle), "--witness", s(&witness)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let mut other = receipt.clone();
    other["receipt"]["event"] = json!("1".repeat(64));
    std::fs::write(&receipts, format!("{other}\n")).unwrap();
    let out = asamblea(&["verify", s(&bundle), "--receipts", s(&receipts)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("receipt 1"), "{}", text(&out.stdout));
    drop(daemon);
    for file in [&bundle, &witness, &receipts] {
        std::fs::remove_file(file).ok();
    }
    crate::support::remove_meeting(&dir);
}

/// A kiosk that goes away while its ballot is being saved: the ballot is
/// durable, so its retry gets the very receipt, and the turnout counts it
/// once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ballot_whose_kiosk_left_mid_save_keeps_its_receipt_for_the_retry() {
    let dir = temp("left");
    // The demo made without delay; then served with every commit slowed.
    let (demo, printed) = Daemon::start(&["demo", "--dir", s(&dir)]);
    let (chair, operator) = (token(&printed, "chair"), token(&printed, "operator"));
    assert!(demo.terminate().success());
    let (daemon, _) = Daemon::start_with(&["serve", s(&dir)], &[("ASAMBLEA_TEST_COMMIT_DELAY_MS", "400")]);
    let mut desk = HttpsClient::connect(daemon.addr, staff_tls(&dir).unwrap()).await.unwrap();
    assert_eq!(post(&mut desk, "/api/v1/items/item-1/open", json!({}), Some(&chair)).await.0, 200);
    let ballot = a_ballot_for_item_1(&mut desk, &dir, &operator).await;

    // Sent, and the connection dropped before the commit (400 ms) returns.
    let kiosk_tls = kiosk_tls(&dir, "quiosco-1").unwrap();
    let mut first = HttpsClient::connect(daemon.addr, kiosk_tls.clone()).await.unwrap();
    let body = ballot.body();
    let sending =
        tokio::spawn(async move { first.post_body("/api/v1/ballots", body, None).await.map(|(s, _)| s) });
    tokio::time::sleep(Duration::from_millis(100)).await;
    sending.abort();
    let _ = sending.await;
    tokio::time::sleep(Duration::from_millis(800)).await;

    let mut again = HttpsClient::connect(daemon.addr, kiosk_tls).await.unwrap();
    let started = std::time::Instant::now();
    let (status, receipt) = again.post_body("/api/v1/ballots", ballot.body(), None).await.unwrap();
    assert_eq!(status.as_u16(), 200, "the retry gets the receipt: {receipt}");
    assert!(started.elapsed() < Duration::from_secs(1), "at once, from the kept receipt");
    assert_eq!(receipt["receipt"]["event"], asamblea_wire::hex::encode(&ballot.digest().0));
    let (_, status) = get(&mut desk, "/api/v1/status", None).await;
    assert_eq!(status["items"][0]["ballots"], 1, "counted once: {}", status["items"][0]);
    drop(daemon);
    crate::support::remove_meeting(&dir);
}

/// The agenda is a fact of the notice, fixed in the ledger at convening:
/// an item's matter kind changed in `meeting.toml` afterwards changes
/// nothing that is counted (issue 10's reproduction: item-2, the year-end
/// statements, turned `ordinary` so that administrators could vote).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agenda_edited_after_convening_changes_nothing_counted() {
    let dir = temp("agenda");
    let (demo, printed) = Daemon::start(&["demo", "--dir", s(&dir)]);
    let chair = token(&printed, "chair");
    assert!(demo.terminate().success());
    let file = dir.join("meeting.toml");
    let toml = std::fs::read_to_string(&file).unwrap();
    let edited = toml.replacen("matter = \"financial-statements\"", "matter = \"ordinary\"", 1);
    assert_ne!(edited, toml, "the demo's item-2 is the year-end statements");
    std::fs::write(&file, edited).unwrap();

    let (daemon, _) = Daemon::start(&["serve", s(&dir)]);
    let mut desk = HttpsClient::connect(daemon.addr, staff_tls(&dir).unwrap()).await.unwrap();
    let (_, status) = get(&mut desk, "/api/v1/status", None).await;
    assert_eq!(status["items"][1]["id"], "item-2");
    assert_eq!(status["items"][1]["matter"], "financial-statements", "the board shows the convened matter");
    assert_eq!(post(&mut desk, "/api/v1/items/item-2/open", json!({}), Some(&chair)).await.0, 200);
    let (status, closed) = post(&mut desk, "/api/v1/items/item-2/close", json!({}), Some(&chair)).await;
    assert_eq!(status, 200, "{closed}");
    let (_, status) = get(&mut desk, "/api/v1/status", None).await;
    let result = &status["items"][1]["result"];
    assert!(
        result["impeded"].as_u64().unwrap() > 0,
        "the administrators present are barred (R10), as convened: {result}"
    );
    let log = daemon.logged();
    assert!(log.contains("meeting.toml cambió el punto `item-2`"), "the operator is told: {log}");
    drop(daemon);
    crate::support::remove_meeting(&dir);
}
