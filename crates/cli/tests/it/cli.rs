//! The `asamblea` binary as a user runs it: output, exit codes, messages.

use std::process::{Command, Output};

use crate::workspace_root;

fn asamblea(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn scenario_prints_the_outcome_json() {
    let out = asamblea(&["scenario", "config/demo-meeting.toml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert!(json["steps"].is_array() && json["items"].is_object() && json["presence"]["shares"].is_u64());
}

#[test]
fn check_passes_on_the_own_scenarios_and_counts_them() {
    let mut args = vec!["scenario".to_string(), "--check".to_string()];
    let mut files: Vec<String> = std::fs::read_dir(workspace_root().join("tests/scenarios"))
        .expect("scenario dir")
        .map(|e| format!("tests/scenarios/{}", e.expect("entry").file_name().to_string_lossy()))
        .filter(|f| f.ends_with(".toml"))
        .collect();
    files.sort();
    let count = files.len();
    args.extend(files);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = asamblea(&args);
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        text(&out.stdout)
            .contains(&format!("escenarios / scenarios: {count} correctos / passed, 0 fallidos / failed")),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn check_exits_1_and_names_each_difference() {
    let dir = std::env::temp_dir().join(format!("asamblea-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("wrong.toml");
    let original = std::fs::read_to_string(workspace_root().join("config/demo-meeting.toml")).expect("demo");
    std::fs::write(&file, original.replacen("outcome = \"pass\"", "outcome = \"fail\"", 1)).expect("write");
    let out = asamblea(&["scenario", "--check", file.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("FAIL")
            && stdout
                .contains(".outcome: se esperaba \"fail\", hay \"pass\" / expected \"fail\", got \"pass\""),
        "{stdout}"
    );
    crate::support::remove_meeting(&dir);
}

#[test]
fn an_invalid_file_exits_2_naming_file_step_and_key() {
    let dir = std::env::temp_dir().join(format!("asamblea-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("bad.toml");
    std::fs::write(
        &file,
        "profile = \"legal-default\"\n[capital]\nORD = { subscribed = 10 }\n[[step]]\narrive = \"A\"\n[[step]]\nvote = \"i\"\nholder = \"A\"\nchioce = \"for\"\n",
    )
    .expect("write");
    for mode in [&["scenario"][..], &["scenario", "--check"][..]] {
        let mut args = mode.to_vec();
        args.push(file.to_str().expect("utf-8 path"));
        let out = asamblea(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr
                .contains("bad.toml: paso / step[1] (línea / line 6): clave / key `chioce`: clave desconocida en un paso `vote` / unknown key for a `vote` step"),
            "{stderr}"
        );
    }
    let out = asamblea(&["scenario", "/nonexistent/x.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("/nonexistent/x.toml: no se puede leer el archivo / cannot read the file"),
        "{}",
        text(&out.stderr)
    );
    crate::support::remove_meeting(&dir);
}

#[test]
fn demo_prints_a_readable_spanish_report_in_colombian_format() {
    let out = asamblea(&["demo", "--replay"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("APROBADO") || stdout.contains("NO APROBADO"), "{stdout}");
    assert!(stdout.contains("Presentes al final"), "{stdout}");
    // Thousands separated with dots, never commas.
    assert!(stdout.contains(".000"), "{stdout}");
    assert!(!stdout.contains(",000"), "{stdout}");
}

#[test]
fn usage_errors_exit_2() {
    let out = asamblea(&["scenario"]);
    assert_eq!(out.status.code(), Some(2));
    let out = asamblea(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The bench, small: every ballot of every round acknowledged with a
/// receipt the daemon signed for that very ballot (the bench checks each
/// and fails otherwise), stored once, and the figures printed.
#[test]
fn bench_acknowledges_and_stores_every_ballot_of_every_round() {
    let out = asamblea(&["bench", "--kiosks", "4", "--ballots", "150", "--rounds", "2"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert_eq!(stdout.matches("Ronda / round ").count(), 2, "{stdout}");
    assert_eq!(stdout.matches("300 papeletas guardadas / ballots stored").count(), 2, "{stdout}");
    assert!(!stdout.contains("NO COINCIDE"), "{stdout}");
    assert!(stdout.contains("Razón / ratio HTTPS ÷ techo / ceiling: "), "{stdout}");
    assert!(stdout.contains("p99 < 50,0 ms: "), "{stdout}");
}

#[test]
fn bench_refuses_bad_options_before_doing_anything() {
    for (args, says) in [
        (
            &["bench", "--kiosks", "0"][..],
            "--kiosks debe estar entre 1 y 10000 / --kiosks must be between 1 and 10000",
        ),
        (&["bench", "--kiosks", "8", "--ballots", "4"][..], "--ballots debe ser al menos --kiosks (8)"),
        (&["bench", "--kiosks", "8", "--ballots", "4"][..], "--ballots must be at least --kiosks (8)"),
        // clap refuses it first (1..=100), in its own words.
        (&["bench", "--rounds", "0"][..], "--rounds"),
    ] {
        let out = asamblea(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stdout));
        assert!(text(&out.stderr).contains(says), "{args:?}: {}", text(&out.stderr));
    }
}

/// The mixed meeting's bench, small: two sizes, every remote ballot and
/// every kiosk's acknowledged with a receipt for that very ballot (the
/// bench checks each and fails otherwise), every feed held saw the close,
/// and the curve and its projection printed.
#[test]
fn bench_remote_measures_each_size_and_projects_the_curve() {
    let out = asamblea(&[
        "bench-remote",
        "--attendees",
        "20,40",
        "--window",
        "2",
        "--kiosks",
        "2",
        "--kiosk-rate",
        "6",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    for (attendees, line) in [(20, "  20 | 20 | "), (40, "  40 | 40 | ")] {
        assert!(stdout.contains(line), "{attendees}: {stdout}");
        assert!(
            stdout.contains(&format!("{attendees} de {attendees} lo vieron / saw it")),
            "{attendees}: every feed saw the close: {stdout}"
        );
        assert!(
            stdout.contains(&format!("{attendees} papeletas a distancia / remote ballots")),
            "{attendees}: {stdout}"
        );
    }
    assert!(stdout.contains("Proyección a / projection to 100.000 asistentes"), "{stdout}");
    assert!(!stdout.contains("RECHAZADOS") && !stdout.contains("sin confirmar"), "{stdout}");
}

#[test]
fn bench_remote_refuses_bad_options_before_doing_anything() {
    for (args, says) in [
        (&["bench-remote", "--attendees", "0"][..], "--attendees: cada cifra entre 1 y 200.000"),
        (&["bench-remote", "--kiosks", "8", "--kiosk-rate", "4"][..], "--kiosk-rate at least --kiosks"),
        // clap refuses these first, in its own words.
        (&["bench-remote", "--attendees", "10,x"][..], "--attendees"),
        (&["bench-remote", "--window", "0"][..], "--window"),
    ] {
        let out = asamblea(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stdout));
        assert!(text(&out.stderr).contains(says), "{args:?}: {}", text(&out.stderr));
    }
}

/// A running daemon logs to standard error, from its worker threads too,
/// while the main thread prints the addresses: the log reaches the
/// terminal (a log line from a worker waits on no lock the main thread
/// holds), and a stop is logged.
#[test]
fn a_running_daemon_logs_to_standard_error_and_stops_on_sigterm() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let dir = std::env::temp_dir().join(format!("asamblea-cli-log-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(["demo", "--dir", dir.to_str().unwrap(), "--listen", &format!("127.0.0.1:{port}")])
        .current_dir(workspace_root())
        .env("ASAMBLEA_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !line.contains("serving at") {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "the demo ended before serving");
        assert!(Instant::now() < deadline, "the demo did not start serving");
    }
    let pid = child.id();
    // SIGHUP is handled on a worker thread, which logs what it did.
    // `kill` as the shell's builtin: no procps package needed.
    let signal = |name: &str| {
        Command::new("sh").args(["-c", &format!("kill -{name} {pid}")]).status().unwrap().success()
    };
    assert!(signal("HUP"));
    std::thread::sleep(Duration::from_millis(500));
    assert!(signal("TERM"));
    // The rest of the output and the exit, or a stuck daemon after a minute.
    let (done, finished) = std::sync::mpsc::channel();
    let mut stderr_pipe = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = stdout.read_to_string(&mut rest);
        let mut stderr = String::new();
        let _ = stderr_pipe.read_to_string(&mut stderr);
        let _ = done.send((rest, stderr, child.wait().map(|s| s.code())));
    });
    let Ok((rest, stderr, code)) = finished.recv_timeout(Duration::from_secs(60)) else {
        signal("KILL");
        panic!("the daemon did not stop within a minute of SIGTERM");
    };
    assert_eq!(code.unwrap(), Some(0), "stdout: {rest}\nstderr: {stderr}");
    assert!(rest.contains("Servicio detenido; registro guardado / stopped, ledger flushed."), "{rest}");
    for logged in ["revocaciones de quioscos releídas", "cerrando: no se aceptan conexiones nuevas"] {
        assert!(stderr.lines().any(|l| l.contains("INFO") && l.contains(logged)), "{logged}: {stderr}");
    }
    crate::support::remove_meeting(&dir);
}

#[test]
fn a_log_level_that_is_not_one_is_refused_before_anything_starts() {
    let dir = std::env::temp_dir().join(format!("asamblea-cli-badlog-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_asamblea"))
        .args(["demo", "--dir", dir.to_str().unwrap(), "--listen", "127.0.0.1:0"])
        .current_dir(workspace_root())
        .env("ASAMBLEA_LOG", "loud")
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("ASAMBLEA_LOG=\"loud\" no es un nivel de registro"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.exists(), "nothing is created");
}

/// Caps set by hand above the open-file limit are said before anything is
/// served: one listener's flood could take the descriptors a kiosk needs.
#[test]
fn serve_warns_when_the_caps_exceed_the_open_file_limit() {
    use std::io::{BufRead, BufReader};
    let dir = std::env::temp_dir().join(format!("asamblea-caps-{}", std::process::id()));
    crate::support::remove_meeting(&dir);
    let init = asamblea(&["init", dir.to_str().unwrap()]);
    assert!(init.status.success(), "{}", text(&init.stderr));
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let serve = |caps: &str| {
        let mut daemon = std::process::Command::new(env!("CARGO_BIN_EXE_asamblea"))
            .args([
                "serve",
                dir.to_str().unwrap(),
                "--listen",
                &format!("127.0.0.1:{port}"),
                "--max-connections",
                caps,
            ])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut said = String::new();
        for line in BufReader::new(daemon.stdout.take().unwrap()).lines() {
            let line = line.unwrap();
            said.push_str(&line);
            said.push('\n');
            if line.starts_with("Ctrl-C") {
                break;
            }
        }
        let _ = daemon.kill();
        let _ = daemon.wait();
        said
    };
    let said = serve("100000000");
    assert!(said.contains("AVISO / WARNING: --max-connections 100.000.000 por escucha"), "{said}");
    let said = serve("100");
    assert!(!said.contains("AVISO"), "{said}");
    crate::support::remove_meeting(&dir);
}
