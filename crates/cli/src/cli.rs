//! The command line: `asamblea <subcommand>`, its output and exit codes.
//!
//! Exit codes: 0 success; 1 a `--check` found a difference; 2 the input is
//! not valid (unreadable file, malformed scenario, bad arguments).

use std::io::Write;
use std::process::ExitCode;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::scenario;

/// asamblea — votación electrónica para asambleas de accionistas /
/// electronic voting for shareholder meetings.
#[derive(Debug, Parser)]
#[command(name = "asamblea", version)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Replay conformance scenarios (shared/scenarios/FORMAT.md).
    /// Reproduce escenarios de conformidad.
    Scenario {
        /// Compare each file's outcome with its [expect]; exit 1 on any
        /// difference.
        #[arg(long, conflicts_with = "report")]
        check: bool,
        /// Print a readable report (Spanish first) instead of JSON.
        #[arg(long)]
        report: bool,
        /// Scenario files (TOML).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
    /// The demo meeting, served over HTTPS (created on first run).
    /// La reunión de demostración, en HTTPS.
    Demo {
        /// Where the demo meeting lives.
        #[arg(long, default_value = "asamblea-demo")]
        dir: PathBuf,
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:8443")]
        listen: String,
        /// Instead: replay the demo scenario and print its report.
        #[arg(long)]
        replay: bool,
        /// A name or address kiosks use to reach the daemon, besides
        /// localhost (repeatable); fixed when the meeting is created.
        #[arg(long = "host")]
        hosts: Vec<String>,
        #[command(flatten)]
        limits: crate::commands::LimitOverrides,
    },
    /// Serve a meeting directory over HTTPS. Sirve una reunión.
    Serve {
        /// The meeting directory.
        dir: PathBuf,
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:8443")]
        listen: String,
        #[command(flatten)]
        limits: crate::commands::LimitOverrides,
    },
    /// Sign a ballot with a scanned badge, as a kiosk does; prints the body
    /// of POST /api/v1/ballots. Firma una papeleta.
    Ballot {
        /// The meeting directory (for its id and agenda).
        dir: PathBuf,
        /// The badge's QR text.
        #[arg(long)]
        badge: String,
        /// The agenda item.
        #[arg(long)]
        item: String,
        /// HOLDER=OPTION (for, against, blank, or a list name); repeatable.
        #[arg(long = "vote", required = true)]
        votes: Vec<String>,
    },
    /// Enroll (or revoke) a kiosk's client certificate. Inscribe un quiosco.
    Kiosk {
        /// The meeting directory.
        dir: PathBuf,
        /// The kiosk's id (letters, digits, dashes).
        id: String,
        /// Revoke it instead.
        #[arg(long)]
        revoke: bool,
    },
    /// Create a meeting directory: settings, register, keys, ledger.
    /// Crea el directorio de una reunión.
    Init {
        /// The directory to create (must not hold a meeting yet).
        dir: PathBuf,
        /// meeting.toml (default: the embedded demo meeting).
        #[arg(long)]
        meeting: Option<PathBuf>,
        /// The share register as CSV (default: the embedded demo register).
        #[arg(long)]
        register: Option<PathBuf>,
        /// A name or address kiosks use to reach the daemon, besides
        /// localhost (repeatable): the daemon's certificate names them.
        #[arg(long = "host")]
        hosts: Vec<String>,
    },
    /// Check in a holder in person, or an agent with its principals.
    /// Registra la llegada de un accionista o apoderado.
    Checkin {
        /// The meeting directory.
        dir: PathBuf,
        /// The holder (or the agent, with --represents).
        person: String,
        /// The holders the agent represents, comma-separated.
        #[arg(long, value_delimiter = ',')]
        represents: Vec<String>,
        /// The agent is the holders' legal representative (not a proxy).
        #[arg(long)]
        legal_representative: bool,
        /// Reference of the power of attorney shown.
        #[arg(long, default_value = "")]
        power_document: String,
    },
    /// Issue and print QR badges for everyone present without one.
    /// Emite las credenciales QR.
    Badges {
        /// The meeting directory.
        dir: PathBuf,
        /// Where to write the badges (default: DIR/badges).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Revoke a lost badge. Revoca una credencial.
    Revoke {
        /// The meeting directory.
        dir: PathBuf,
        /// The badge's number.
        credential: u32,
    },
    /// Run the whole agenda with simulated kiosks and real signed ballots.
    /// Simula la reunión completa.
    Simulate {
        /// The meeting directory.
        dir: PathBuf,
        /// Seed of the simulated choices.
        #[arg(long, default_value_t = 2027)]
        seed: u64,
        /// Percentage of holders who attend.
        #[arg(long, default_value_t = 80, value_parser = clap::value_parser!(u64).range(0..=100))]
        attendance: u64,
    },
    /// Write the audit bundle (events, keys, register, profile, checkpoints).
    /// Exporta el paquete de auditoría.
    Export {
        /// The meeting directory.
        dir: PathBuf,
        /// The bundle file to write.
        out: PathBuf,
    },
    /// Simulated kiosks cast real signed ballots at an in-process daemon
    /// over HTTPS: ballots per second, latency, and the pipeline ceiling.
    /// Mide el rendimiento.
    Bench {
        /// Concurrent kiosks, each with its own keep-alive connection.
        #[arg(long, default_value_t = 64)]
        kiosks: usize,
        /// Ballots in each run (one holder each), shared among the kiosks.
        #[arg(long, default_value_t = 20_000)]
        ballots: usize,
        /// Where to create the bench meeting (default: a fresh temporary
        /// directory, removed at the end).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Address the daemon listens on.
        #[arg(long, default_value = "127.0.0.1:0")]
        listen: String,
        /// Rounds of (ceiling, HTTPS) runs, taken in turn so that both
        /// see the same machine; the targets are judged on all of them
        /// together.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=100))]
        rounds: u16,
    },
    /// Verify a bundle or a meeting directory's ledger, trusting nothing.
    /// Verifica un paquete de auditoría.
    Verify {
        /// A bundle file, or a meeting directory.
        path: PathBuf,
        /// The daemon key published at the meeting (64 hex digits).
        #[arg(long)]
        daemon_key: Option<String>,
        /// A checkpoint read out at the meeting: SEQ:HEAD.
        #[arg(long)]
        checkpoint: Option<String>,
    },
}

/// The demo meeting, embedded so that `asamblea demo` needs no files.
pub const DEMO_SCENARIO: &str = include_str!("../../../config/demo-meeting.toml");

/// Parses the arguments, runs, prints, and returns the exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut stdout = std::io::stdout().lock();
    // Not locked for the whole run: the daemon's log lines go to standard
    // error from its worker threads, and would wait forever on a lock the
    // main thread holds.
    let mut stderr = std::io::stderr();
    let code = run(cli, &mut stdout, &mut stderr);
    let _ = stdout.flush();
    ExitCode::from(code)
}

/// Runs a parsed command line, writing to the given streams.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match cli.command {
        Command::Scenario { check, report, files } => {
            if check {
                check_files(&files, out, err)
            } else if report {
                report_files(&files, out, err)
            } else if let [file] = files.as_slice() {
                match load(file) {
                    Ok(s) => {
                        let json = scenario::outcome_json(&scenario::replay(&s));
                        let _ = writeln!(
                            out,
                            "{}",
                            serde_json::to_string_pretty(&json).expect("JSON values print")
                        );
                        0
                    }
                    Err(message) => {
                        let _ = writeln!(err, "error: {message}");
                        2
                    }
                }
            } else {
                let _ = writeln!(
                    err,
                    "error: give one FILE for JSON output, or use --check or --report for several"
                );
                2
            }
        }
        Command::Demo { dir, listen, replay: false, hosts, limits } => finish(
            start_logging().and_then(|()| crate::commands::demo(&dir, &listen, &hosts, &limits, out)),
            err,
        ),
        Command::Serve { dir, listen, limits } => {
            finish(start_logging().and_then(|()| crate::commands::serve(&dir, &listen, &limits, out)), err)
        }
        Command::Ballot { dir, badge, item, votes } => {
            finish(crate::commands::sign_ballot(&dir, &badge, &item, &votes, out), err)
        }
        Command::Kiosk { dir, id, revoke } => finish(crate::desk::kiosk(&dir, &id, revoke, out), err),
        Command::Demo { replay: true, .. } => {
            match scenario::parse("config/demo-meeting.toml", DEMO_SCENARIO) {
                Ok(s) => {
                    let replay = scenario::replay(&s);
                    let _ = write!(out, "{}", scenario::report("config/demo-meeting.toml", &s, &replay));
                    0
                }
                Err(e) => {
                    let _ = writeln!(err, "error: {e}");
                    2
                }
            }
        }
        Command::Init { dir, meeting, register, hosts } => {
            finish(crate::commands::init(&dir, meeting.as_deref(), register.as_deref(), &hosts, out), err)
        }
        Command::Checkin { dir, person, represents, legal_representative, power_document } => finish(
            crate::desk::checkin(&dir, &person, &represents, legal_representative, &power_document, out),
            err,
        ),
        Command::Badges { dir, out: to } => finish(crate::desk::issue_badges(&dir, to.as_deref(), out), err),
        Command::Revoke { dir, credential } => finish(crate::desk::revoke(&dir, credential, out), err),
        Command::Simulate { dir, seed, attendance } => {
            finish(crate::commands::simulate(&dir, seed, attendance, out), err)
        }
        Command::Bench { kiosks, ballots, dir, listen, rounds } => finish(
            crate::bench::bench(
                &crate::bench::BenchOptions { kiosks, ballots, dir, listen, rounds: usize::from(rounds) },
                out,
            ),
            err,
        ),
        Command::Export { dir, out: file } => finish(crate::commands::export(&dir, &file, out), err),
        Command::Verify { path, daemon_key, checkpoint } => {
            match crate::commands::verify(&path, daemon_key.as_deref(), checkpoint.as_deref(), out) {
                Ok(true) => 0,
                Ok(false) => 1,
                Err(e) => finish(Err(e), err),
            }
        }
    }
}

/// The variable that sets how much a running daemon logs.
const LOG_VARIABLE: &str = "ASAMBLEA_LOG";

/// The level `ASAMBLEA_LOG` names: one of `error`, `warn`, `info`,
/// `debug`, `trace`, `off` (any case); unset or empty, `info`. Anything
/// else (a number too, or bytes that are not text) is refused.
fn log_level(
    value: Result<String, std::env::VarError>,
) -> anyhow::Result<tracing_subscriber::filter::LevelFilter> {
    use tracing_subscriber::filter::LevelFilter;
    let value = match value {
        Ok(value) => value,
        Err(std::env::VarError::NotPresent) => return Ok(LevelFilter::INFO),
        Err(std::env::VarError::NotUnicode(value)) => value.to_string_lossy().into_owned(),
    };
    let level = match value.trim().to_ascii_lowercase().as_str() {
        "" | "info" => LevelFilter::INFO,
        "error" => LevelFilter::ERROR,
        "warn" => LevelFilter::WARN,
        "debug" => LevelFilter::DEBUG,
        "trace" => LevelFilter::TRACE,
        "off" => LevelFilter::OFF,
        _ => anyhow::bail!(
            "{LOG_VARIABLE}={value:?} no es un nivel de registro: use error, warn, info, debug, trace u off / \
             is not a log level: use error, warn, info, debug, trace or off"
        ),
    };
    Ok(level)
}

/// Sends a running daemon's log to standard error, one line per event
/// with its time (UTC) and level: what the operator's terminal shows
/// besides the addresses and tokens printed at start, at the level
/// [`log_level`] reads from `ASAMBLEA_LOG`; a wrong value is refused
/// before anything starts.
fn start_logging() -> anyhow::Result<()> {
    let level = log_level(std::env::var(LOG_VARIABLE))?;
    // A second daemon in the same process (tests) keeps the first's.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .with_target(false)
        .with_ansi(false)
        .try_init();
    Ok(())
}

/// Exit code 0, or the error chain printed once and exit code 2.
fn finish(result: anyhow::Result<()>, err: &mut dyn Write) -> u8 {
    match result {
        Ok(()) => 0,
        Err(e) => {
            let _ = writeln!(err, "error: {e:#}");
            2
        }
    }
}

fn load(file: &str) -> Result<scenario::Scenario, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: cannot read the file: {e}"))?;
    scenario::parse(file, &text).map_err(|e| e.to_string())
}

fn report_files(files: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let mut code = 0;
    for file in files {
        match load(file) {
            Ok(s) => {
                let replay = scenario::replay(&s);
                let _ = writeln!(out, "{}", scenario::report(file, &s, &replay));
            }
            Err(message) => {
                let _ = writeln!(err, "error: {message}");
                code = 2;
            }
        }
    }
    code
}

fn check_files(files: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let (mut passed, mut failed, mut invalid) = (0, 0, 0);
    for file in files {
        let s = match load(file) {
            Ok(s) => s,
            Err(message) => {
                let _ = writeln!(err, "error: {message}");
                invalid += 1;
                continue;
            }
        };
        let Some(expect) = &s.expect else {
            let _ = writeln!(out, "FAIL {file}: no [expect] table to check against");
            failed += 1;
            continue;
        };
        let actual = scenario::outcome_json(&scenario::replay(&s));
        let differences = scenario::compare(expect, &actual);
        if differences.is_empty() {
            let _ = writeln!(out, "ok   {file}");
            passed += 1;
        } else {
            let _ = writeln!(out, "FAIL {file}");
            for d in differences {
                let _ = writeln!(out, "     {d}");
            }
            failed += 1;
        }
    }
    let _ = writeln!(out, "scenarios: {passed} passed, {} failed", failed + invalid);
    if invalid > 0 {
        2
    } else if failed > 0 {
        1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::env::VarError;
    use tracing_subscriber::filter::LevelFilter;

    #[test]
    fn log_levels_are_the_six_names_and_unset_or_empty_is_info() {
        let level = |value: &str| log_level(Ok(value.to_string())).map_err(|e| e.to_string());
        assert_eq!(log_level(Err(VarError::NotPresent)).unwrap(), LevelFilter::INFO);
        assert_eq!(level("").unwrap(), LevelFilter::INFO);
        assert_eq!(level(" WARN ").unwrap(), LevelFilter::WARN);
        assert_eq!(level("off").unwrap(), LevelFilter::OFF);
        assert_eq!(level("trace").unwrap(), LevelFilter::TRACE);
        for wrong in ["loud", "3", "warning"] {
            let error = level(wrong).unwrap_err();
            assert!(error.contains("no es un nivel de registro"), "{wrong}: {error}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt;
            let bytes = std::ffi::OsString::from_vec(vec![0x69, 0x6e, 0xff]);
            assert!(log_level(Err(VarError::NotUnicode(bytes))).is_err());
        }
    }
}
