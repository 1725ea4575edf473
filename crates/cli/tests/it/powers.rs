//! `asamblea poderes importar` end to end, on a meeting of the
//! bench-scale register made with `asamblea init`: the summary's counts,
//! the same file twice (nothing doubled), a file with bad rows (refused by
//! default, the good kept with `--solo-buenos`), a reference lodged
//! before with other content, a meeting a daemon serves, and kill -9
//! during a large import (the ledger holds none of the powers or all of
//! them).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use asamblea::powers_gen::{powers_csv, GeneratedPowers};
use asamblea::scale::{meeting_toml, register_csv, MEETING_DATE};

use crate::support::{asamblea, asamblea_ok, meeting_id, remove_meeting, Daemon};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// A fresh meeting of the bench register's first `holders` holders, and
/// a folder beside it for its inputs.
fn meeting(name: &str, holders: u64) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("asamblea-powers-{name}-{}", std::process::id()));
    remove_meeting(&dir);
    let inputs = dir.with_extension("inputs");
    let _ = std::fs::remove_dir_all(&inputs);
    std::fs::create_dir_all(&inputs).unwrap();
    let (capital, register) = register_csv(holders);
    std::fs::write(inputs.join("meeting.toml"), meeting_toml(1, capital)).unwrap();
    std::fs::write(inputs.join("register.csv"), register).unwrap();
    let (toml, csv) = (inputs.join("meeting.toml"), inputs.join("register.csv"));
    asamblea_ok(&["init", s(&dir), "--meeting", s(&toml), "--register", s(&csv)]);
    (dir, inputs)
}

/// A meeting of `holders` holders, a generated file of `powers` powers
/// (the first for `big` principals) written beside it, and the meeting's
/// record count before any import.
struct Fixture {
    dir: PathBuf,
    inputs: PathBuf,
    made: GeneratedPowers,
    file: PathBuf,
    before: u64,
}

fn fixture(name: &str, holders: u64, powers: u64, big: u64, defects: bool) -> Fixture {
    let (dir, inputs) = meeting(name, holders);
    let made = powers_csv(holders, powers, big, defects, MEETING_DATE).unwrap();
    let file = inputs.join("poderes.csv");
    std::fs::write(&file, &made.csv).unwrap();
    let before = records(&dir);
    Fixture { dir, inputs, made, file, before }
}

fn records(dir: &Path) -> u64 {
    asamblea_ledger::record_count(&dir.join("ledger.db"), &meeting_id(dir)).unwrap()
}

fn clean(dir: &Path, inputs: &Path) {
    remove_meeting(dir);
    let _ = std::fs::remove_dir_all(inputs);
}

#[test]
fn a_file_imported_twice_doubles_nothing_and_the_summary_counts_each_verdict() {
    let Fixture { dir, inputs, made, file, before } = fixture("twice", 2_000, 1_100, 20, false);
    assert_eq!((made.agent_barred, made.already_covered), (1, 1));

    let out = asamblea_ok(&["poderes", "importar", s(&dir), s(&file)]);
    let said = text(&out);
    assert!(
        said.contains("Poderes leídos / powers read: 1.100 buenos / good; 0 filas / rows con error"),
        "{said}"
    );
    assert!(said.contains("Radicados / lodged: 1.100\n"), "{said}");
    assert!(said.contains("  aceptados / accepted: 1.098\n"), "{said}");
    assert!(said.contains("  rechazados / refused: 2\n"), "{said}");
    assert!(
        said.contains("    1: el apoderado es administrador o empleado de la sociedad (art. 185 C.Co.)"),
        "{said}"
    );
    assert!(said.contains("(already-covered)"), "{said}");
    assert!(said.contains("omitidos / already lodged with the same content, skipped: 0\n"), "{said}");
    assert_eq!(records(&dir), before + 1_100);

    // Again, under its English name: nothing new.
    let out = asamblea_ok(&["powers", "import", s(&dir), s(&file)]);
    let said = text(&out);
    assert!(said.contains("Radicados / lodged: 0\n"), "{said}");
    assert!(said.contains("skipped: 1.100\n"), "{said}");
    assert_eq!(records(&dir), before + 1_100);
    assert!(text(&asamblea_ok(&["verify", s(&dir)])).contains("VERIFICADO"));
    clean(&dir, &inputs);
}

#[test]
fn a_file_with_bad_rows_lodges_nothing_unless_the_good_are_chosen() {
    let Fixture { dir, inputs, made, file, before } = fixture("bad", 1_000, 60, 10, true);

    for choice in [None, Some("--todo-o-nada"), Some("--all-or-nothing")] {
        let mut args = vec!["poderes", "importar", s(&dir), s(&file)];
        args.extend(choice);
        let out = asamblea(&args);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{choice:?}: {said}");
        assert!(said.contains("No se radicó nada"), "{choice:?}: {said}");
        assert_eq!(records(&dir), before, "{choice:?}");
        // Every bad row, by its line and column.
        let first = made.rows - 3;
        for (line, column) in [
            (first, "document_sha256"),
            (first + 1, "received_via"),
            (first + 2, "received_on"),
            (first + 3, "power"),
            (first + 4, "agent_name"),
        ] {
            let listed = format!("  línea {line}, {column}: ");
            assert!(said.contains(&listed), "{choice:?}: {listed} in\n{said}");
        }
    }
    let said = text(&asamblea(&["poderes", "importar", s(&dir), s(&file)]));
    assert!(said.contains("--solo-buenos") && said.contains("--todo-o-nada"), "{said}");

    let out = asamblea_ok(&["poderes", "importar", s(&dir), s(&file), "--solo-buenos"]);
    let said = text(&out);
    assert!(said.contains("Radicados / lodged: 60\n"), "{said}");
    assert!(said.contains("Filas con error, fuera / bad rows, left out: 5"), "{said}");
    assert_eq!(records(&dir), before + 60);
    clean(&dir, &inputs);
}

#[test]
fn kill_9_during_an_import_leaves_none_of_the_powers_or_all_of_them() {
    const POWERS: u64 = 5_000;
    let Fixture { dir, inputs, file, before, .. } = fixture("kill", 6_000, POWERS, 500, false);
    // A moment after the lodging began, different on each run (printed,
    // to repeat a failure by hand).
    let pause = Duration::from_millis(u64::from(std::process::id()) % 3_000);
    eprintln!("kill -9 {} ms after the lodging began", pause.as_millis());

    let mut child = Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(["poderes", "importar", s(&dir), s(&file)])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let stdout = child.stdout.take().expect("piped");
    let mut printed = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.expect("text");
        let lodging = line.starts_with("Radicando ");
        printed.push(line);
        if lodging {
            break;
        }
    }
    assert!(printed.last().is_some_and(|l| l.starts_with("Radicando 5.000 poderes")), "{printed:?}");
    std::thread::sleep(pause);
    child.kill().expect("SIGKILL");
    let _ = child.wait();

    let after = records(&dir);
    assert!(after == before || after == before + POWERS, "{after} records: {before} before, {POWERS} powers");
    eprintln!("after the kill: {} of the powers in the ledger", after - before);
    assert!(text(&asamblea_ok(&["verify", s(&dir)])).contains("VERIFICADO"));
    // And the import, run again, ends with every power once.
    let said = text(&asamblea_ok(&["poderes", "importar", s(&dir), s(&file)]));
    let expected = if after == before { "Radicados / lodged: 5.000\n" } else { "skipped: 5.000\n" };
    assert!(said.contains(expected), "{said}");
    assert_eq!(records(&dir), before + POWERS);
    clean(&dir, &inputs);
}

#[test]
fn a_reference_lodged_with_other_content_or_a_served_meeting_lodges_nothing() {
    let Fixture { dir, inputs, made, file, .. } = fixture("other", 1_000, 30, 5, false);
    asamblea_ok(&["poderes", "importar", s(&dir), s(&file)]);
    let before = records(&dir);
    // P-000030's agent (CC-90000031, its only power) renamed, and a new
    // power after it.
    let changed = made.csv.replace("Apoderado CC-90000031", "Otro Nombre")
        + "P-000031,CC-00000900,CC-95000000,Nuevo,2027-03-25,oficina,2027-03-12,"
        + &"cd".repeat(32)
        + ",,\n";
    assert_eq!(changed.matches("Otro Nombre").count(), 1);
    std::fs::write(&file, changed).unwrap();
    let out = asamblea(&["poderes", "importar", s(&dir), s(&file)]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("poder `P-000030`: ya se radicó con otro contenido"), "{said}");
    assert_eq!(records(&dir), before, "not even the new power");

    let (daemon, _) = Daemon::start(&["serve", s(&dir)]);
    let out = asamblea(&["poderes", "importar", s(&dir), s(&file)]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("está siendo servida por el proceso"), "{said}");
    daemon.kill();
    assert_eq!(records(&dir), before);
    clean(&dir, &inputs);
}
