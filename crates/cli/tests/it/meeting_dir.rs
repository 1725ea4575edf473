//! Meeting directories end to end, through the real binary: init, check-in,
//! badges, a simulated meeting with real signatures, export, verify, and
//! the faults a user can make or meet.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn asamblea(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_asamblea")).args(args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("asamblea-dir-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn ok(args: &[&str]) -> String {
    let out = asamblea(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}\n{}{}", text(&out.stdout), text(&out.stderr));
    text(&out.stdout)
}

/// A demo meeting, simulated and exported; returns (dir, bundle, stdout of export).
fn simulated(name: &str) -> (PathBuf, PathBuf, String) {
    let dir = temp(name);
    ok(&["init", s(&dir)]);
    ok(&["simulate", s(&dir), "--attendance", "70"]);
    let bundle = dir.with_extension("bundle");
    let exported = ok(&["export", s(&dir), s(&bundle)]);
    (dir, bundle, exported)
}

#[test]
fn a_simulated_meeting_exports_a_bundle_that_verifies() {
    let (dir, bundle, exported) = simulated("verify");
    let key_line = exported.lines().find(|l| l.contains("daemon key")).expect("key printed");
    let key = key_line.rsplit(' ').next().expect("hex");
    let checkpoint_line =
        exported.lines().find(|l| l.contains("final checkpoint")).expect("checkpoint printed");
    let checkpoint = checkpoint_line.rsplit(' ').next().expect("SEQ:HEAD");
    let out = ok(&["verify", s(&bundle), "--daemon-key", key, "--checkpoint", checkpoint]);
    assert!(out.contains("VERIFICADO") && out.contains("7 resultados recalculados"), "{out}");
    // The directory's own ledger verifies too.
    assert!(ok(&["verify", s(&dir)]).contains("VERIFICADO"));
    crate::support::remove_meeting(&dir);
}

#[test]
fn a_wrong_daemon_key_or_checkpoint_fails_verification() {
    let (dir, bundle, exported) = simulated("wrong");
    let out = asamblea(&["verify", s(&bundle), "--daemon-key", &"ab".repeat(32)]);
    // Not a valid curve point, or not the key: refused either way.
    assert_ne!(out.status.code(), Some(0));
    let checkpoint = exported
        .lines()
        .find(|l| l.contains("final checkpoint"))
        .expect("printed")
        .rsplit(' ')
        .next()
        .unwrap();
    let (seq, head) = checkpoint.split_once(':').unwrap();
    let other_head: String = head.chars().rev().collect();
    let out = asamblea(&["verify", s(&bundle), "--checkpoint", &format!("{seq}:{other_head}")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains(&format!("checkpoint at event {seq} names another head")),
        "{}",
        text(&out.stdout)
    );
    let beyond: u64 = seq.parse::<u64>().unwrap() + 5;
    let out = asamblea(&["verify", s(&bundle), "--checkpoint", &format!("{beyond}:{head}")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("cut short"), "{}", text(&out.stdout));
    crate::support::remove_meeting(&dir);
}

#[test]
fn a_ledger_edited_by_hand_is_caught_naming_the_event() {
    let (dir, _bundle, _) = simulated("edited");
    let conn = rusqlite::Connection::open(dir.join("ledger.db")).expect("raw open");
    conn.execute_batch("DROP TRIGGER events_no_update;").expect("drop trigger");
    let mut record: Vec<u8> =
        conn.query_row("SELECT record FROM events WHERE seq = 321", [], |r| r.get(0)).expect("row 321");
    // The record's time field: the record still decodes, the chain breaks.
    record[15] ^= 0x01;
    conn.execute("UPDATE events SET record = ?1 WHERE seq = 321", [&record]).expect("edit");
    drop(conn);
    let out = asamblea(&["verify", s(&dir)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("event 321"), "{}", text(&out.stdout));
    // And the directory can no longer be used to run the meeting.
    let out = asamblea(&["checkin", s(&dir), "CC-10000000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("breaks at event 321"), "{}", text(&out.stderr));
    crate::support::remove_meeting(&dir);
}

#[test]
fn badges_are_issued_once_per_person_and_scan_back() {
    let dir = temp("badges");
    ok(&["init", s(&dir)]);
    ok(&["checkin", s(&dir), "CC-10000000"]);
    ok(&[
        "checkin",
        s(&dir),
        "APODERADO-X",
        "--represents",
        "CC-10007919,CC-10015838",
        "--power-document",
        "poder 17",
    ]);
    let out = ok(&["badges", s(&dir)]);
    assert!(out.contains("badges issued: 2"), "{out}");
    // Printed badges hold their seeds: they go beside the meeting, not in it.
    let printed = dir.with_file_name(format!("{}-credenciales", dir.file_name().unwrap().to_string_lossy()));
    assert!(out.contains(&printed.display().to_string()), "{out}");
    assert!(!dir.join("badges").exists());
    let png = std::fs::read(printed.join("credencial-0001.png")).expect("badge PNG");
    assert!(printed.join("hoja-de-credenciales.html").exists());
    // Decode the printed QR code and parse it as this meeting's credential.
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().expect("PNG");
    let mut buffer = vec![0; reader.output_buffer_size().expect("size")];
    let frame = reader.next_frame(&mut buffer).expect("frame");
    let info = reader.info();
    let (width, height) = (info.width as usize, info.height as usize);
    let bytes = &buffer[..frame.buffer_size()];
    let bits_per_row = bytes.len() / height;
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| {
        let byte = bytes[y * bits_per_row + x / 8];
        if byte & (0x80 >> (x % 8)) != 0 {
            255
        } else {
            0
        }
    });
    let grids = image.detect_grids();
    assert_eq!(grids.len(), 1);
    let (_, content) = grids[0].decode().expect("QR decodes");
    let meeting_hex = std::fs::read_to_string(dir.join("meeting-id")).expect("meeting id");
    let meeting = asamblea_wire::MeetingId::from_hex(meeting_hex.trim()).expect("hex");
    let credential =
        asamblea_wire::Credential::parse_qr_text(&content, &meeting).expect("a credential of this meeting");
    assert_eq!(credential.id(), asamblea_wire::CredentialId(1));
    // Nobody new: no badge issued twice.
    assert!(ok(&["badges", s(&dir)]).contains("badges issued: 0"));
    ok(&["revoke", s(&dir), "1"]);
    let out = asamblea(&["revoke", s(&dir), "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("badge 1 was revoked"), "{}", text(&out.stderr));
    crate::support::remove_meeting(&dir);
    std::fs::remove_dir_all(&printed).ok();
}

#[test]
fn refused_check_ins_say_why_in_spanish_and_change_nothing() {
    let dir = temp("refused");
    ok(&["init", s(&dir)]);
    let out = asamblea(&["checkin", s(&dir), "NOBODY"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown-holder — El accionista no figura"), "{}", text(&out.stderr));
    ok(&["checkin", s(&dir), "CC-10000000"]);
    let out = asamblea(&["checkin", s(&dir), "CC-10000000"]);
    assert!(text(&out.stderr).contains("already-present"), "{}", text(&out.stderr));
    // Eleven events from init (convened, the whole agenda, the poll
    // timing, the modality of the demo's mixed meeting, four staff
    // enrolled, register, its names, the meeting file) and one check-in:
    // the refusals left no trace.
    let out = ok(&["verify", s(&dir)]);
    assert!(out.contains("VERIFIED: 12 eventos"), "{out}");
    crate::support::remove_meeting(&dir);
}

#[test]
fn init_refuses_bad_input_and_leaves_no_meeting_behind() {
    let dir = temp("bad-init");
    let register = dir.with_extension("csv");
    std::fs::write(&register, "holder_id,name,class,shares\nA,Ana,ORD,12x\n").expect("write");
    // A register alone would be checked against the demo's capital, a
    // meeting file alone would get the demo's register: both refused,
    // saying to give both.
    let out = asamblea(&["init", s(&dir), "--register", s(&register)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("sin --meeting: el libro de accionistas se revisa contra el capital del archivo de su reunión; indique los dos"), "{}", text(&out.stderr));
    let meeting = dir.with_extension("toml");
    std::fs::write(&meeting, asamblea::commands::DEMO_MEETING).expect("write");
    let out = asamblea(&["init", s(&dir), "--meeting", s(&meeting)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("sin --register: la reunión necesita su libro de accionistas"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.exists(), "a refused init must create nothing");
    let out = asamblea(&["init", s(&dir), "--meeting", s(&meeting), "--register", s(&register)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("línea / line 2, campo / field `shares`: `12x` no es un número entero"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.exists(), "a refused init must create nothing");
    ok(&["init", s(&dir)]);
    let out = asamblea(&["init", s(&dir)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("a meeting already exists here"), "{}", text(&out.stderr));
    let out = asamblea(&["checkin", "/nonexistent/meeting", "A"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is this a meeting directory made by `asamblea init`?"),
        "{}",
        text(&out.stderr)
    );
    crate::support::remove_meeting(&dir);
    std::fs::remove_file(&register).ok();
    std::fs::remove_file(&meeting).ok();
}

#[test]
fn a_flipped_byte_anywhere_in_a_small_bundle_region_fails_verification() {
    let (dir, bundle, _) = simulated("flip");
    let bytes = std::fs::read(&bundle).expect("bundle");
    // Every 997th byte (a prime stride crosses every field), through the
    // real binary; the library's property test flips every byte.
    let flipped = dir.with_extension("flipped");
    for at in (0..bytes.len()).step_by(997) {
        let mut copy = bytes.clone();
        copy[at] ^= 0x20;
        std::fs::write(&flipped, &copy).expect("write");
        let out = asamblea(&["verify", s(&flipped)]);
        assert_ne!(out.status.code(), Some(0), "flipping byte {at} went unnoticed");
    }
    crate::support::remove_meeting(&dir);
}

#[test]
fn the_ballot_command_signs_what_a_kiosk_would_send() {
    let dir = temp("ballot-cmd");
    ok(&["init", s(&dir)]);
    ok(&["checkin", s(&dir), "CC-10000000"]);
    let mut service = asamblea_venue::service::Service::open(&dir).expect("open");
    let meeting = service.meeting_id();
    let seed = asamblea_kiosk::BadgeSeed::draw(&meeting).expect("a seed");
    let (number, _) = service.issue_badge("CC-10000000", seed.public_key()).expect("badge");
    let credential = seed.numbered(number);
    service.close();
    let qr = credential.to_qr_text();
    let body = ok(&["ballot", s(&dir), "--badge", &qr, "--item", "item-4", "--vote", "CC-10000000=Lista 2"]);
    let json: serde_json::Value = serde_json::from_str(body.trim()).expect("a JSON body");
    let hex = json["event"].as_str().expect("event");
    let bytes: Vec<u8> =
        (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
    let event = asamblea_wire::Event::decode(&bytes).expect("a canonical event");
    assert!(matches!(event.body, asamblea_wire::EventBody::Ballot(_)));
    let signature = asamblea_wire::Signature::from_slice(
        &(0..128)
            .step_by(2)
            .map(|i| u8::from_str_radix(&json["signature"].as_str().unwrap()[i..i + 2], 16).unwrap())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    credential
        .public_key()
        .verify(&meeting, &bytes, &signature)
        .expect("signed with the badge's key for this meeting");
    // A mistyped badge or an option not on the ballot is refused, saying which.
    let mut typo = qr.clone();
    typo.replace_range(10..11, if &qr[10..11] == "A" { "B" } else { "A" });
    let out =
        asamblea(&["ballot", s(&dir), "--badge", &typo, "--item", "item-1", "--vote", "CC-10000000=for"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(
            "--badge: el valor de control de la credencial no coincide: un carácter se leyó o se escribió mal / \
             the credential's check value does not match"
        ),
        "{}",
        text(&out.stderr)
    );
    let out = asamblea(&["ballot", s(&dir), "--badge", &qr, "--item", "item-1", "--vote", "CC-10000000=yes"]);
    assert!(
        text(&out.stderr).contains("las opciones de item-1 son for, against, blank")
            && text(&out.stderr).contains("the options of item-1 are for, against, blank"),
        "{}",
        text(&out.stderr)
    );
    crate::support::remove_meeting(&dir);
}

#[test]
fn a_meeting_directory_holds_no_key_and_a_copy_elsewhere_says_to_export() {
    let dir = temp("copy-without-keys");
    ok(&["init", s(&dir)]);
    assert!(!dir.join("keys").exists(), "no key folder inside the meeting directory");
    // The same folder seen from another account or machine: no key folder.
    let elsewhere = std::env::temp_dir().join(format!("asamblea-no-keys-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(["verify", s(&dir)])
        .env("ASAMBLEA_KEYS", &elsewhere)
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(said.contains("asamblea export") && said.contains("daemon.seed"), "{said}");
    assert!(!elsewhere.exists(), "a refused verify creates nothing");
    crate::support::remove_meeting(&dir);
}

#[test]
fn an_agenda_too_large_for_the_convening_event_is_refused_before_anything_is_written() {
    let dir = temp("big-agenda");
    let demo = asamblea::commands::DEMO_MEETING;
    let head = &demo[..demo.find("[[agenda]]").expect("the demo has an agenda")];
    let remote = &demo[demo.find("\n[remote]").expect("the demo's remote channel")..];
    let items: String = (0..250)
        .map(|n| {
            format!("\n[[agenda]]\nid = \"p-{n}\"\ntitle = \"{}\"\nmatter = \"ordinary\"\n", "T".repeat(250))
        })
        .collect();
    let file = dir.with_extension("toml");
    std::fs::write(&file, format!("{head}{items}{remote}")).unwrap();
    let register = dir.with_extension("csv");
    std::fs::write(&register, asamblea::commands::DEMO_REGISTER).unwrap();
    let out = asamblea(&["init", s(&dir), "--meeting", s(&file), "--register", s(&register)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("acorte los títulos o las listas"), "{}", text(&out.stderr));
    assert!(!dir.exists(), "nothing written");
    std::fs::remove_file(&file).ok();
    std::fs::remove_file(&register).ok();
}

#[test]
fn a_start_refuses_a_ledger_shorter_than_a_head_the_daemon_signed() {
    let dir = temp("signed-beyond");
    ok(&["init", s(&dir)]);
    ok(&["checkin", s(&dir), "CC-10000000"]);
    // Closing the commands wrote the daemon-signed head of the ledger's end.
    let kept = std::fs::read_to_string(dir.join("ledger.checkpoints")).expect("signed heads are kept");
    assert!(!kept.trim().is_empty());
    // A head signed (with the daemon's own key) at an event the file does
    // not hold: saved events went missing.
    let meeting = crate::support::meeting_id(&dir);
    let keys = asamblea_venue::secrets::key_folder_of(&dir).unwrap();
    let daemon =
        asamblea_wire::Keypair::from_seed(&asamblea_venue::secrets::read_key(&keys, "daemon").unwrap());
    let beyond = asamblea_wire::Checkpoint { seq: 10_000, head: asamblea_wire::Digest([3; 32]) };
    asamblea_venue::checkpoints::append(&dir, &beyond, &beyond.sign(&meeting, &daemon)).unwrap();
    let out = asamblea(&["checkin", s(&dir), "CC-10007919"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("PERDIÓ EVENTOS GUARDADOS"), "{}", text(&out.stderr));
    // A line nobody with the key signed is not trusted, and changes nothing.
    let dir2 = temp("signed-by-nobody");
    ok(&["init", s(&dir2)]);
    let outsider = asamblea_wire::Keypair::from_seed(&[9; 32]);
    asamblea_venue::checkpoints::append(
        &dir2,
        &beyond,
        &beyond.sign(&crate::support::meeting_id(&dir2), &outsider),
    )
    .unwrap();
    ok(&["checkin", s(&dir2), "CC-10000000"]);
    crate::support::remove_meeting(&dir);
    crate::support::remove_meeting(&dir2);
}

/// A replicated meeting's machine trusts the heads its node signed (while
/// it led, or followed the copy as a standby) as it trusts the meeting
/// key's: a head `nodo-2`'s key signed beyond the file's end stops the
/// start as well.
#[test]
fn a_start_trusts_the_heads_a_node_signed() {
    let dir = temp("signed-by-node");
    ok(&["init", s(&dir), "--nodes", "nodo-1,nodo-2"]);
    let meeting = crate::support::meeting_id(&dir);
    let keys = asamblea_venue::secrets::key_folder_of(&dir).unwrap();
    let node = asamblea_wire::Keypair::from_seed(
        &asamblea_venue::secrets::read_key(&keys, "daemon-nodo-2").unwrap(),
    );
    let beyond = asamblea_wire::Checkpoint { seq: 10_000, head: asamblea_wire::Digest([3; 32]) };
    asamblea_venue::checkpoints::append(&dir, &beyond, &beyond.sign(&meeting, &node)).unwrap();
    let out = asamblea(&["checkin", s(&dir), "CC-10007919"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("PERDIÓ EVENTOS GUARDADOS"), "{}", text(&out.stderr));
    crate::support::remove_meeting(&dir);
}

/// A meeting that enrolled its nodes is served by them alone, each with
/// its own key: `serve --node` with a name it does not enroll, or on a
/// machine without that node's seed, is refused before anything is served
/// (it would sign with a key the record holds to no stretch).
#[test]
fn a_node_is_served_only_under_its_enrolled_name_and_key() {
    let dir = temp("node-keys");
    ok(&["init", s(&dir), "--nodes", "nodo-1,nodo-2"]);
    let serve = |node: &str| {
        asamblea(&["serve", s(&dir), "--listen", "127.0.0.1:0", "--replica", "127.0.0.1:9", "--node", node])
    };
    let out = serve("nodo-9");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr)
            .contains("--node nodo-9: no es un nodo de esta reunión (inscritos al convocar: nodo-1, nodo-2)"),
        "{}",
        text(&out.stderr)
    );
    let keys = asamblea_venue::secrets::key_folder_of(&dir).unwrap();
    std::fs::remove_file(keys.join("daemon-nodo-2.seed")).unwrap();
    let out = serve("nodo-2");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("--node nodo-2: falta la clave de este nodo"),
        "{}",
        text(&out.stderr)
    );
    crate::support::remove_meeting(&dir);
}

/// A desk command on a replicated meeting's node whose daemon is not
/// running asks the copy who leads; when no etcd member answers it says
/// so, naming the members and what to check — not «wait a few seconds»
/// — and writes nothing.
#[test]
fn a_desk_command_on_a_node_says_when_no_etcd_member_answers() {
    let dir = temp("no-etcd");
    ok(&["init", s(&dir)]);
    let events = |said: String| said.lines().find(|l| l.contains("VERIFIED")).unwrap_or_default().to_string();
    let before = events(ok(&["verify", s(&dir)]));
    // Port 9 (discard) on loopback: nothing listens, the connection is refused.
    let mark = asamblea_venue::lock::ReplicaMark {
        node: "nodo-1".into(),
        members: vec!["127.0.0.1:9".into()],
        tls: None,
    };
    mark.write(&dir).unwrap();
    let checkin = |token: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_asamblea"));
        command.args(["checkin", s(&dir), "CC-10000000"]).env_remove("ASAMBLEA_OPERATOR_TOKEN");
        if let Some(token) = token {
            command.env("ASAMBLEA_OPERATOR_TOKEN", token);
        }
        command.output().unwrap()
    };
    let through = checkin(Some("clave-del-operador"));
    assert_eq!(through.status.code(), Some(2), "{}", text(&through.stderr));
    assert!(
        text(&through.stderr).contains("ningún miembro de etcd respondió (127.0.0.1:9)")
            && text(&through.stderr).contains("systemctl status etcd"),
        "{}",
        text(&through.stderr)
    );
    assert!(!text(&through.stderr).contains("espere unos segundos"), "{}", text(&through.stderr));
    let alone = checkin(None);
    assert_eq!(alone.status.code(), Some(2), "{}", text(&alone.stderr));
    assert!(
        text(&alone.stderr).contains("No se pudo saber quién lidera")
            && text(&alone.stderr).contains("ASAMBLEA_OPERATOR_TOKEN"),
        "{}",
        text(&alone.stderr)
    );
    // A member that is no address is named, with the file it is in.
    asamblea_venue::lock::ReplicaMark { members: vec!["sede-1:2379".into()], ..mark }.write(&dir).unwrap();
    let named = checkin(Some("clave-del-operador"));
    assert!(
        text(&named.stderr).contains("nombra «sede-1:2379» como miembro de etcd"),
        "{}",
        text(&named.stderr)
    );
    std::fs::remove_file(asamblea_venue::lock::ReplicaMark::path(&dir)).unwrap();
    assert_eq!(events(ok(&["verify", s(&dir)])), before, "nothing was written");
    crate::support::remove_meeting(&dir);
}
