//! What the end-to-end tests share: the daemon as a child process, and
//! reading what it printed.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use asamblea_wire::MeetingId;

/// How long a daemon may take to start serving (debug build, loaded CI).
pub const START_PATIENCE: Duration = Duration::from_secs(30);

/// The daemon as a child process.
pub struct Daemon {
    pub child: Child,
    pub addr: SocketAddr,
    /// Every line the daemon wrote to standard error (its log), so far.
    pub log: Arc<Mutex<Vec<String>>>,
}

impl Daemon {
    /// Starts `asamblea ARGS --listen 127.0.0.1:PORT` on a free port and
    /// waits until it serves; returns it and what it printed until then.
    pub fn start(args: &[&str]) -> (Daemon, Vec<String>) {
        Daemon::start_with(args, &[])
    }

    /// [`Daemon::start`] with environment variables set for the daemon
    /// (the ledger's fault injection, for one).
    pub fn start_with(args: &[&str], env: &[(&str, &str)]) -> (Daemon, Vec<String>) {
        let mut command = Command::new(env!("CARGO_BIN_EXE_asamblea"));
        command.args(args).envs(env.iter().copied());
        Daemon::start_command(&mut command)
    }

    /// [`Daemon::start`] of a prepared command (a shell that sets a limit
    /// and `exec`s the binary, say), given `--listen` last.
    pub fn start_command(command: &mut Command) -> (Daemon, Vec<String>) {
        let args: Vec<String> = command.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let mut child = command
            .args(["--listen", &addr.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        let (lines, printed) = mpsc::channel();
        // Drains the daemon's output for its whole life, so it never blocks
        // on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = lines.send(line);
            }
        });
        let deadline = Instant::now() + START_PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match printed.recv_timeout(left) {
                Ok(line) => {
                    // The banner ends with how to stop the daemon.
                    let done = line.contains("Ctrl-C");
                    seen.push(line);
                    if done && seen.iter().any(|l| l.contains("serving at")) {
                        break;
                    }
                }
                Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    std::thread::sleep(Duration::from_millis(100));
                    panic!(
                        "`asamblea {}` did not start serving; it printed:\n{}\nand logged:\n{}",
                        args.join(" "),
                        seen.join("\n"),
                        log.lock().unwrap().join("\n")
                    );
                }
            }
        }
        (Daemon { child, addr, log }, seen)
    }

    /// SIGKILL, and wait for the process to be gone.
    pub fn kill(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }
}

impl Daemon {
    /// SIGTERM (through the shell's `kill` builtin: no procps needed), and
    /// the exit status once it stopped.
    pub fn terminate(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        Command::new("sh").args(["-c", &format!("kill -TERM {pid}")]).status().expect("sh runs");
        self.child.wait().expect("reaped")
    }

    /// The log so far, one line each.
    pub fn logged(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `asamblea ARGS`, run to its end.
pub fn asamblea(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_asamblea")).args(args).output().expect("the binary runs")
}

/// `asamblea ARGS`, which must succeed (anything else fails the test,
/// with what it printed).
pub fn asamblea_ok(args: &[&str]) -> std::process::Output {
    let out = asamblea(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The meeting id of a meeting directory.
pub fn meeting_id(dir: &Path) -> MeetingId {
    MeetingId::from_hex(std::fs::read_to_string(dir.join("meeting-id")).unwrap().trim()).unwrap()
}

/// The value after `label` on the first printed line that has it.
pub fn printed_after<'a>(printed: &'a [String], label: &str) -> &'a str {
    printed
        .iter()
        .find_map(|line| line.split_once(label).map(|(_, rest)| rest.trim()))
        .unwrap_or_else(|| panic!("`{label}` was not printed:\n{}", printed.join("\n")))
}

/// A staff token from the demo's output (`  name  role  token`).
pub fn token(printed: &[String], role: &str) -> String {
    printed
        .iter()
        .find_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            (fields.len() == 3 && fields[1] == role && fields[2].len() == 48).then(|| fields[2].to_string())
        })
        .unwrap_or_else(|| panic!("no {role} token printed:\n{}", printed.join("\n")))
}

/// Removes a test's meeting directory and its key folder (outside it, see
/// `asamblea_venue::secrets::key_folder`), so a test run leaves no keys
/// behind.
pub fn remove_meeting(dir: &Path) {
    if let Ok(keys) = asamblea_venue::secrets::key_folder_of(dir) {
        let _ = std::fs::remove_dir_all(keys);
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A small extraordinary meeting on one merger (which gives the derecho de
/// retiro) and its register of three holders: A-1 (500), B-2 (300), C-3
/// (200). The server's API tests use the same files.
pub const MERGER_MEETING: &str = include_str!("../../../server/tests/fixtures/merger/meeting.toml");

/// `meeting` (a meeting file) convened as a mixed meeting: `modality =
/// "mixta"` among the keys at the top, before the first table, and its
/// remote channel at the end (docs/meeting-file.md §1.3).
pub fn mixed(meeting: &str) -> String {
    let table = meeting.find("\n[").map_or(meeting.len(), |at| at + 1);
    format!(
        "{}modality = \"mixta\"\n\n{}\n[remote]\nmedium = \"Plataforma de la sociedad\"\naccess = \"Enlace por correo\"\nidentity_check = \"Cédula ante la cámara\"\nfloor = \"En el chat\"\nidentity_delegated = true\n",
        &meeting[..table],
        &meeting[table..]
    )
}

/// The register of [`MERGER_MEETING`].
pub const MERGER_REGISTER: &str = include_str!("../../../server/tests/fixtures/merger/register.csv");

/// A meeting with informative items and a board election whose lists
/// name their candidates (principal and suplente), on three holders: A-1
/// (600), B-2 (300), C-3 (100).
pub const SESSIONS_MEETING: &str = r#"
company = "Sesiones de Prueba S.A."
nit = "900.000.002-3"
kind = "extraordinary"
call = "first"
date = "2027-06-15"
time = "09:00"
place = "Medellín, sede principal"
convened_by = "Aviso en la página web"
convened_on = "2027-05-03"
profile = "legal-default"

[settings]
poll_minimum_open_seconds = 0
poll_minimum_countdown_seconds = 0

[capital]
ORD = { subscribed = 1_000 }

[[agenda]]
id = "quorum"
title = "Verificación del quórum"
informative = true

[[agenda]]
id = "junta"
title = "Elección de la Junta Directiva"
matter = "board-election"
seats = 3

[[agenda.lists]]
name = "Lista A"
candidates = [
  { principal = "Ana Pérez", suplente = "Luis Gómez" },
  { principal = "Jorge Castro", suplente = "Paula Ríos" },
]

[[agenda.lists]]
name = "Lista B"
candidates = [{ principal = "Carla Ruiz" }]

[[agenda]]
id = "varios"
title = "Proposiciones y varios"
informative = true
"#;

/// The register of [`SESSIONS_MEETING`].
pub const SESSIONS_REGISTER: &str = "holder_id,name,class,shares,role,split\nA-1,Ana Accionista,ORD,600,,\nB-2,Bruno Accionista,ORD,300,,\nC-3,Clara Accionista,ORD,100,,\n";
