//! The whole-bundle vectors of `docs/ledger-format.md` §10.7 and of
//! `docs/vectors/every-figure.md`, checked.
//!
//! Built only from what the document prints — the keys of §10.1, the
//! records of §10.2 (event, signature, head), the register of §10.4, the
//! profile file `docs/vectors/profile.toml` — plus a daemon-signed
//! checkpoint at each `item-closed` and at the end (§11): the bytes must
//! be the bundle the document prints, and `verify` (with the real profile
//! loader) must find it VERIFIED, with the §10.5 receipt and checkpoint as
//! a voter and the chair would hold them. `crates/wire/tests/vectors.rs`
//! checks §10.1–10.6 against the code; this closes the loop from the
//! document to a verified meeting, so an implementer has one whole bundle
//! to test against.
//!
//! To regenerate them after a deliberate change, run
//! `ASAMBLEA_PRINT_VECTORS=1 cargo test -p asamblea --test it vectors -- --nocapture`
//! and paste the printed Markdown over §10.7 and over the last section of
//! `every-figure.md`.

use asamblea_ledger::{verify_bundle, Bundle, Verified, VerifyOptions};
use asamblea_wire::{Checkpoint, Digest, Keypair, MeetingId, PublicKey, Receipt, Signature};

fn read_doc(path: &str) -> String {
    std::fs::read_to_string(crate::workspace_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn unhex(hex: &str) -> Vec<u8> {
    asamblea_wire::hex::decode(hex).unwrap_or_else(|| panic!("{hex}: not hexadecimal"))
}

/// The hex of the ```text block that follows `label` (at or after `from`).
fn block_after(doc: &str, from: usize, label: &str) -> (String, usize) {
    let at = from + doc[from..].find(label).unwrap_or_else(|| panic!("the document lacks `{label}`"));
    let open = at + doc[at..].find("```text\n").expect("a block") + "```text\n".len();
    let close = open + doc[open..].find("```").expect("a closed block");
    (doc[open..close].split_whitespace().collect(), close)
}

/// ledger-format §10.1: the public key of `role` (`daemon`, `operator`,
/// `attendee`, `chair`).
fn key(doc: &str, role: &str) -> PublicKey {
    let line = doc.lines().find(|l| l.starts_with(&format!("- {role} (seed"))).expect("a key line");
    let hex = line.split('`').nth(1).expect("the key in backticks");
    PublicKey::from_hex(hex).expect("a key")
}

/// The meeting id of the bytes `first`, `first + 1`, … (32 of them).
fn meeting(first: u8) -> MeetingId {
    let mut id = [0u8; 32];
    for (i, byte) in id.iter_mut().enumerate() {
        *byte = first + u8::try_from(i).expect("32 bytes");
    }
    MeetingId(id)
}

/// The bundle as ledger-format §10–§11 describe it, from a document's own
/// vectors: its records from the heading `records_at` on (each heading
/// names its signer by role, as in §10.2 where the keys are listed, or by
/// key), its register from the first "Register digest input" after
/// `register_at`, `docs/vectors/profile.toml`, and a daemon-signed
/// checkpoint at each `item-closed` and at the end. Returns the bundle and
/// the checkpoints' record numbers.
fn bundle_from_the_document(
    doc: &str,
    meeting: MeetingId,
    records_at: &str,
    register_at: &str,
) -> (Bundle, Vec<u64>) {
    let mut at = doc.find(records_at).unwrap_or_else(|| panic!("the document lacks `{records_at}`"));
    let mut records = Vec::new();
    let mut marks = Vec::new();
    for seq in 1u64.. {
        let Some(found) = doc[at..].find(&format!("#### Record {seq}: `")) else { break };
        let heading_at = at + found;
        let heading = doc[heading_at..].lines().next().expect("a heading");
        let kind = heading.split('`').nth(1).expect("the kind");
        let signer = match heading.split("signer `").nth(1) {
            Some(rest) => PublicKey::from_hex(rest.split('`').next().expect("a key")).expect("a signer key"),
            None => {
                let role = heading.split("signed by the ").nth(1).and_then(|r| r.split(' ').next());
                key(doc, role.expect("a signer"))
            }
        };
        let (event, next) = block_after(doc, heading_at, "Event (");
        let (signature, next) = block_after(doc, next, "Signature:");
        let (head, next) = block_after(doc, next, &format!("`head_{seq}`:"));
        at = next;
        let event = unhex(&event);
        let record = [
            &seq.to_be_bytes()[..],
            &(1_774_533_600_000 + seq * 1_000).to_be_bytes(),
            &signer.to_bytes(),
            &unhex(&signature),
            &u32::try_from(event.len()).expect("short").to_be_bytes(),
            &event,
        ]
        .concat();
        records.push((record, Digest::from_hex(&head).expect("a head")));
        if kind == "item-closed" {
            marks.push(seq);
        }
    }
    marks.push(records.len() as u64);
    let daemon = Keypair::from_seed(&[0x11; 32]);
    let checkpoints = marks
        .iter()
        .map(|&seq| {
            let checkpoint = Checkpoint { seq, head: records[seq as usize - 1].1 };
            (checkpoint, checkpoint.sign(&meeting, &daemon))
        })
        .collect();
    let register_from = doc.find(register_at).expect("the register's section");
    let (register, _) = block_after(doc, register_from, "Register digest input:");
    let bundle = Bundle {
        meeting,
        daemon_key: daemon.public_key(),
        profile_name: "vectors".into(),
        profile_bytes: std::fs::read(crate::workspace_root().join("docs/vectors/profile.toml"))
            .expect("the vectors' profile"),
        register_bytes: unhex(&register),
        records,
        checkpoints,
    };
    (bundle, marks)
}

/// Checks that the document at `path` carries `bytes` as hex, after
/// handing their wrapped hex to `print` when regenerating.
fn check_carried(path: &str, doc: &str, bytes: &[u8], print: impl FnOnce(&str)) {
    let hex = asamblea_wire::hex::encode(bytes);
    if std::env::var_os("ASAMBLEA_PRINT_VECTORS").is_some() {
        let lines: Vec<String> =
            hex.as_bytes().chunks(64).map(|c| String::from_utf8_lossy(c).into_owned()).collect();
        print(&lines.join("\n"));
    }
    let flat: String = doc.split_whitespace().collect();
    assert!(
        flat.contains(&hex),
        "{path} lacks the bundle built from its own vectors (regenerate: see this file)"
    );
}

fn marks_text(marks: &[u64]) -> String {
    marks.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

#[test]
fn the_documents_whole_bundle_is_built_from_its_vectors_and_verifies() {
    let path = "docs/ledger-format.md";
    let doc = read_doc(path);
    let (bundle, marks) = bundle_from_the_document(&doc, meeting(0), "### 10.2 The ledger", "### 10.4");
    assert_eq!(bundle.records.len(), 20, "§10.2 has the story's twenty records");
    assert_eq!(bundle.daemon_key, key(&doc, "daemon"));
    let bytes = bundle.encode();
    check_carried(path, &doc, &bytes, |wrapped| {
        println!(
            "### 10.7 A whole bundle\n\nThe bundle (§11) of the story: the register of §10.4, the profile file \
             `docs/vectors/profile.toml`, the twenty records with their heads, and a checkpoint signed by the \
             daemon at records {} (the closes and the end). Signatures are deterministic (RFC 8032), so these \
             are its only bytes.\n\nBundle ({} bytes):\n\n```text\n{wrapped}\n```\n",
            marks_text(&marks),
            bytes.len(),
        );
    });

    // Verified as a voter and the chair would: with the §10.5 receipt of
    // record 10 and the checkpoint at record 20, and the daemon's key.
    let (receipt, next) = block_after(&doc, doc.find("### 10.5").expect("§10.5"), "Receipt of record 10:");
    let (receipt_signature, next) = block_after(&doc, next, "Its signature:");
    let (checkpoint, _) = block_after(&doc, next, "Checkpoint at record 20:");
    let receipt = Receipt::decode(&unhex(&receipt)).expect("a receipt");
    let checkpoint = Checkpoint::decode(&unhex(&checkpoint)).expect("a checkpoint");
    let options = VerifyOptions {
        daemon_key: Some(bundle.daemon_key),
        checkpoints: vec![(checkpoint.seq, checkpoint.head)],
        witnesses: Vec::new(),
        receipts: vec![(receipt, Signature::from_slice(&unhex(&receipt_signature)).expect("a signature"))],
        load_profile: &asamblea::commands::load_profile,
    };
    let verified = verify_bundle(&bytes, &options);
    assert_eq!(
        verified,
        Ok(Verified {
            records: 20,
            head: bundle.records[19].1,
            results: ["item-1", "item-2", "item-2"].map(String::from).to_vec(),
            checkpoints: marks.len() + 1,
            receipts: 1,
        })
    );

    // What the replay keeps for the documents: the refused proxy (record
    // 7) and the lot (record 17, seeded by the head after record 15).
    let (_, state) =
        asamblea_ledger::verify_bundle_state(std::io::Cursor::new(&bytes), &options, &mut |_, _| {}).unwrap();
    assert_eq!(state.refused_proxies().len(), 1);
    assert_eq!(state.refused_proxies()[0].0.agent.as_str(), "E-9");
    let lots: Vec<(&str, u32, asamblea_wire::Digest, &str)> = state
        .lots()
        .iter()
        .map(|(item, round, seed, winner)| (item.as_str(), *round, *seed, winner.as_str()))
        .collect();
    assert_eq!(lots, vec![("item-2", 0, bundle.records[14].1, "Lista A")]);
    assert_eq!(state.badges_revoked(), 1);

    // And the same bytes cut before the last record are refused: the end
    // checkpoint is missing (§11, step 7).
    let mut cut = bundle.clone();
    cut.records.pop();
    cut.checkpoints.pop();
    let options = VerifyOptions { receipts: Vec::new(), checkpoints: Vec::new(), ..options };
    assert!(verify_bundle(&cut.encode(), &options).is_err(), "a cut bundle verifies");
}

#[test]
fn the_second_meetings_bundle_is_built_from_its_vectors_and_verifies() {
    let path = "docs/vectors/every-figure.md";
    let doc = read_doc(path);
    let (bundle, marks) = bundle_from_the_document(&doc, meeting(0x20), "## The records", "## The records");
    assert_eq!(bundle.records.len(), 45, "the second story has 45 records");
    let bytes = bundle.encode();
    check_carried(path, &doc, &bytes, |wrapped| {
        println!(
            "## The bundle\n\nThe records above as an audit bundle (ledger-format §11), with `profile.toml` \
             and a checkpoint signed by the daemon at records {} (the closes and the end).\n\n\
             Bundle ({} bytes):\n\n```text\n{wrapped}\n```\n",
            marks_text(&marks),
            bytes.len(),
        );
    });
    let options = VerifyOptions {
        daemon_key: Some(bundle.daemon_key),
        checkpoints: Vec::new(),
        witnesses: Vec::new(),
        receipts: Vec::new(),
        load_profile: &asamblea::commands::load_profile,
    };
    let verified = verify_bundle(&bytes, &options).expect("the second meeting verifies");
    assert_eq!(verified.records, 45);
    assert_eq!(verified.results, ["item-1", "item-2", "item-3", "item-4", "item-4", "item-4"]);
    assert_eq!(verified.checkpoints, marks.len());
}

/// The §10.7 bundle convened under the profile file `profile` instead:
/// record 1 names its digest and is signed again by the daemon (the seed of
/// §10.1), every head is chained afresh, the lot (record 17) takes its new
/// seed, the head after the close, and is signed again by the chair, and
/// every checkpoint is signed again. Also whether the lot, drawn from that
/// seed, still gives the seat to the list the story's later records say
/// (one profile in two): only then can the bundle verify.
fn the_story_under(profile: &[u8]) -> (Vec<u8>, bool) {
    use asamblea_wire::{EventBody, EventRecord};
    let doc = read_doc("docs/ledger-format.md");
    let (mut bundle, _) = bundle_from_the_document(&doc, meeting(0), "### 10.2 The ledger", "### 10.4");
    let daemon = Keypair::from_seed(&[0x11; 32]);
    let chair = Keypair::from_seed(&[0x44; 32]);
    let mut chain = asamblea_wire::Chain::new(&bundle.meeting);
    let (mut lists, mut closed, mut same_winner) = (Vec::new(), None, true);
    for (bytes, head) in &mut bundle.records {
        let mut record = EventRecord::decode(bytes).expect("a record of the document");
        let signer = match &mut record.event.body {
            EventBody::MeetingConvened { profile_digest, agenda, .. } => {
                *profile_digest = Digest::sha256(profile);
                lists = agenda[1].lists.clone();
                Some(&daemon)
            }
            EventBody::LotDrawn { item, round, seed, winner } => {
                *seed = closed.expect("the lot follows item-2's close");
                // The story's tie is between both lists of item-2.
                let candidates = u32::try_from(lists.len()).expect("two lists");
                let position = asamblea_wire::lot_index(seed, item, *round, candidates).expect("drawn");
                same_winner = lists[position as usize] == *winner;
                Some(&chair)
            }
            _ => None,
        };
        if let Some(key) = signer {
            let (seq, time_ms) = (record.seq, record.time_ms);
            record = EventRecord::sign(seq, time_ms, record.event, &bundle.meeting, key).expect("signed");
        }
        *head = chain.append(&record).expect("in order");
        if matches!(record.event.body, EventBody::ItemClosed { .. }) {
            closed = Some(*head);
        }
        *bytes = record.encode().expect("encodes");
    }
    for (checkpoint, signature) in &mut bundle.checkpoints {
        checkpoint.head = bundle.records[checkpoint.seq as usize - 1].1;
        *signature = checkpoint.sign(&bundle.meeting, &daemon);
    }
    bundle.profile_bytes = profile.to_vec();
    (bundle.encode(), same_winner)
}

/// A profile is TOML 1.0 (profile-format §2): a bundle whose profile uses
/// what only TOML 1.1 allows is refused, though the `toml` crate reads it
/// and every signature, head and digest is right; the same bundle under a
/// TOML 1.0 profile verifies.
#[test]
fn a_bundle_whose_profile_uses_toml_1_1_syntax_is_refused() {
    let profile = std::fs::read_to_string(crate::workspace_root().join("docs/vectors/profile.toml"))
        .expect("the vectors' profile");
    let verify = |bytes: &[u8]| {
        let options = VerifyOptions::bundle_alone(&asamblea::commands::load_profile);
        verify_bundle(bytes, &options)
    };
    // A comment changes the digest, so the chain and the lot's seed: the
    // first spelling whose lot falls as the story's does.
    let (respelt, _) = (0..64)
        .map(|n| the_story_under(format!("{profile}# Re-spelt ({n}), still TOML 1.0.\n").as_bytes()))
        .find(|(_, same_winner)| *same_winner)
        .expect("one spelling in two keeps the lot");
    assert_eq!(verify(&respelt).map(|v| v.records), Ok(20));
    let ordinary = "ordinary = { majority = \"simple\" }";
    let line = profile.lines().position(|l| l == ordinary).expect("the ordinary line") + 1;
    for toml_1_1 in [
        profile.replacen(ordinary, "ordinary = { majority = \"simple\", }", 1),
        profile.replacen(ordinary, "ordinary = {\n  majority = \"simple\" }", 1),
        profile.replacen(ordinary, "ordinary = { majority = \"\\x73imple\" }", 1),
    ] {
        assert!(toml_1_1.parse::<toml::Table>().is_ok(), "the toml crate reads it");
        // Refused when the profile is loaded, before any record: whatever
        // the lot, the verdict is the profile's.
        match verify(&the_story_under(toml_1_1.as_bytes()).0) {
            Err(asamblea_ledger::VerifyError::Profile(message)) => {
                assert!(message.contains(&format!("línea {line}: ")), "{message}");
                assert!(message.contains("is TOML 1.1 syntax, and a profile is TOML 1.0"), "{message}");
            }
            other => panic!("a TOML 1.1 profile: {other:?}"),
        }
    }
}

/// `asamblea verify` run on `args`: its exit code, standard output and
/// standard error.
fn verify_command(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .arg("verify")
        .args(args)
        .output()
        .expect("the binary runs");
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// A path in the temporary folder for this test process.
fn temporary(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("asamblea-vectors-{name}-{}", std::process::id()))
}

/// `verify --json` lists every item of the convened agenda with its state,
/// so an open poll is told from an item never opened: the second meeting
/// of the vectors cut while item-2's poll is open (ledger-format §11.1).
#[test]
fn verify_json_gives_every_agenda_item_with_its_state() {
    let doc = read_doc("docs/vectors/every-figure.md");
    let (mut bundle, _) = bundle_from_the_document(&doc, meeting(0x20), "## The records", "## The records");
    // Records 1–26: item-1 closed (22) with its result, item-2 opened (24)
    // with two ballots; item-3 and item-4 never opened. Checkpoints at
    // the close and at the end, as the daemon signs them.
    bundle.records.truncate(26);
    let daemon = Keypair::from_seed(&[0x11; 32]);
    bundle.checkpoints = [22u64, 26]
        .map(|seq| {
            let checkpoint = Checkpoint { seq, head: bundle.records[seq as usize - 1].1 };
            (checkpoint, checkpoint.sign(&bundle.meeting, &daemon))
        })
        .to_vec();
    let path = temporary("open.bundle");
    std::fs::write(&path, bundle.encode()).expect("written");
    let (code, stdout, stderr) = verify_command(&[path.to_str().expect("a path"), "--json"]);
    std::fs::remove_file(&path).ok();
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let answer: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(answer["verified"], true);
    let items = answer["items"].as_array().expect("items");
    let states: Vec<(&str, &str, u64)> = items
        .iter()
        .map(|item| {
            let field = |key: &str| item[key].as_str().unwrap_or_else(|| panic!("{key} in {item}"));
            (field("id"), field("state"), item["ballots"].as_u64().expect("ballots"))
        })
        .collect();
    assert_eq!(
        states,
        [("item-1", "closed", 3), ("item-2", "open", 2), ("item-3", "pending", 0), ("item-4", "pending", 0)]
    );
    assert!(items[0]["result"]["outcome"].is_string(), "a closed item has its result: {}", items[0]);
    for item in &items[1..] {
        assert!(item.get("result").is_none(), "no result, and no tally, before the close: {item}");
    }
    assert_eq!(answer["skipped"], serde_json::json!([]));
}

/// Events are numbered from 1: `--checkpoint 0:HEAD` is refused as a
/// mistake in what was typed (exit 2), saying so, not as a bundle cut
/// short.
#[test]
fn a_checkpoint_numbered_zero_is_refused_for_its_number() {
    let doc = read_doc("docs/ledger-format.md");
    let (bundle, _) = bundle_from_the_document(&doc, meeting(0), "### 10.2 The ledger", "### 10.4");
    let path = temporary("zero.bundle");
    std::fs::write(&path, bundle.encode()).expect("written");
    let path_text = path.to_str().expect("a path");
    let head = bundle.records[0].1.to_string();
    let (code, stdout, stderr) = verify_command(&[path_text, "--checkpoint", &format!("0:{head}")]);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains(
            "el punto de control 0 no existe: la numeración empieza en 1 / checkpoint 0 does not exist: numbering starts at 1"
        ),
        "{stderr}"
    );
    assert!(!stdout.contains("cut short") && !stderr.contains("cut short"), "{stdout}{stderr}");
    // The same head at its number, 1, verifies.
    let (code, stdout, _) = verify_command(&[path_text, "--checkpoint", &format!("1:{head}")]);
    std::fs::remove_file(&path).ok();
    assert_eq!(code, Some(0), "{stdout}");
}

/// A folder of receipts (ledger-format §11.1): `*.json` files hold one
/// receipt each, `*.txt` files one a line; anything else is passed over
/// and named in one line; a receipt file that does not read refuses the
/// input, by its name and line.
#[test]
fn a_receipts_folder_skips_what_is_not_a_receipt_by_name_and_names_a_bad_receipt() {
    let doc = read_doc("docs/ledger-format.md");
    let (bundle, _) = bundle_from_the_document(&doc, meeting(0), "### 10.2 The ledger", "### 10.4");
    let (receipt, next) = block_after(&doc, doc.find("### 10.5").expect("§10.5"), "Receipt of record 10:");
    let (signature, _) = block_after(&doc, next, "Its signature:");
    let receipt = Receipt::decode(&unhex(&receipt)).expect("a receipt");
    let signature = Signature::from_slice(&unhex(&signature)).expect("a signature");

    let folder = temporary("receipts");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(folder.join("fotos")).expect("a folder");
    let path = temporary("receipts.bundle");
    std::fs::write(&path, bundle.encode()).expect("written");
    let json = asamblea_server::receipts::to_json(&receipt, &signature);
    let pretty =
        serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(&json).unwrap()).unwrap();
    std::fs::write(folder.join("papeleta-10.json"), pretty).expect("written");
    std::fs::write(folder.join("quiosco.TXT"), format!("\n{}\n", receipt.to_text(&signature)))
        .expect("written");
    std::fs::write(folder.join("LEEME.md"), "Recibos de la asamblea.\n").expect("written");
    std::fs::write(folder.join(".DS_Store"), [0u8, 1, 2]).expect("written");
    let args = [path.to_str().expect("a path"), "--receipts", folder.to_str().expect("a path")];
    let (code, stdout, stderr) = verify_command(&args);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("Omitidos / skipped: .DS_Store, LEEME.md, fotos/ (no son recibos por su nombre"),
        "{stdout}"
    );
    assert!(stdout.contains("Recibos / receipts: 2 comprobados"), "{stdout}");
    let (code, stdout, _) = verify_command(&[args[0], args[1], args[2], "--json"]);
    assert_eq!(code, Some(0), "{stdout}");
    let answer: serde_json::Value = serde_json::from_str(&stdout).expect("JSON alone on standard output");
    assert_eq!(answer["receipts"], 2);
    assert_eq!(answer["skipped"], serde_json::json!([".DS_Store", "LEEME.md", "fotos/"]));

    // A receipt file whose second receipt is cut: refused, by name and line.
    let text = receipt.to_text(&signature);
    std::fs::write(folder.join("quiosco-2.txt"), format!("{text}\n{}\n", &text[..40])).expect("written");
    let (code, stdout, stderr) = verify_command(&args);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("--receipts ") && stderr.contains("quiosco-2.txt, línea / line 2: "), "{stderr}");
    std::fs::remove_dir_all(&folder).ok();
    std::fs::remove_file(&path).ok();
}
