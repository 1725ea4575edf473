//! What a timed run measured, the threads' CPU time read from `/proc`, and
//! how the figures are printed.

use std::io::Write;
use std::time::Duration;

use anyhow::Result;
use asamblea_documents::numfmt::{percent, thousands};

/// What one timed run measured.
pub(crate) struct Run {
    pub(crate) ballots: usize,
    pub(crate) elapsed: Duration,
    pub(crate) latencies: Vec<Duration>,
    pub(crate) failures: usize,
    pub(crate) first_failure: Option<String>,
    /// CPU use of the run by thread (Linux only).
    pub(crate) cpu: Vec<Spent>,
}

impl Run {
    pub(crate) fn rate(&self) -> u64 {
        per_second(self.ballots as u64, self.elapsed)
    }

    /// Several runs as one: their ballots, times, latencies (sorted) and
    /// CPU added up.
    pub(crate) fn pooled(runs: &[Run]) -> Run {
        let mut latencies: Vec<Duration> = runs.iter().flat_map(|r| r.latencies.iter().copied()).collect();
        latencies.sort_unstable();
        let mut cpu: Vec<Spent> = Vec::new();
        for spent in runs.iter().flat_map(|r| &r.cpu) {
            match cpu.iter_mut().find(|s| s.name == spent.name) {
                Some(sum) => {
                    sum.cpu += spent.cpu;
                    sum.switches += spent.switches;
                }
                None => cpu.push(Spent { name: spent.name, cpu: spent.cpu, switches: spent.switches }),
            }
        }
        Run {
            ballots: runs.iter().map(|r| r.ballots).sum(),
            elapsed: runs.iter().map(|r| r.elapsed).sum(),
            latencies,
            failures: runs.iter().map(|r| r.failures).sum(),
            first_failure: runs.iter().find_map(|r| r.first_failure.clone()),
            cpu,
        }
    }

    /// CPU time of every thread per ballot, in µs (`None` without `/proc`).
    pub(super) fn cpu_per_ballot(&self) -> Option<u64> {
        if self.cpu.is_empty() {
            return None;
        }
        let total: Duration = self.cpu.iter().map(|s| s.cpu).sum();
        Some(u64::try_from(total.as_micros()).unwrap_or(u64::MAX) / (self.ballots as u64).max(1))
    }
}

/// The nearest-rank quantile of sorted `latencies`, in thousandths.
pub(crate) fn quantile(latencies: &[Duration], per_mille: usize) -> Duration {
    if latencies.is_empty() {
        return Duration::ZERO;
    }
    let rank = (latencies.len() * per_mille).div_ceil(1000).max(1);
    latencies[rank - 1]
}

pub(crate) fn report(out: &mut dyn Write, title: &str, run: &Run) -> Result<()> {
    writeln!(out, "{title}")?;
    writeln!(
        out,
        "  {} papeletas en / ballots in {}: {} papeletas/s / ballots/s",
        thousands(run.ballots as u64),
        seconds(run.elapsed),
        thousands(run.rate())
    )?;
    writeln!(
        out,
        "  latencia / latency p50 {} · p99 {} · máx / max {}",
        millis(quantile(&run.latencies, 500)),
        millis(quantile(&run.latencies, 990)),
        millis(run.latencies.last().copied().unwrap_or_default())
    )?;
    if !run.cpu.is_empty() {
        let total: Duration = run.cpu.iter().map(|s| s.cpu).sum();
        let switches: u64 = run.cpu.iter().map(|s| s.switches).sum();
        let threads: Vec<String> = run.cpu.iter().map(|s| format!("{} {}", s.name, seconds(s.cpu))).collect();
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get) as u64;
        let available = u64::try_from(run.elapsed.as_micros()).unwrap_or(u64::MAX).saturating_mul(cores);
        writeln!(
            out,
            "  CPU: {} = {} de los núcleos / of the cores; {} µs y {} cambios de contexto por solicitud / µs and context switches per request",
            threads.join(" · "),
            percent(u64::try_from(total.as_micros()).unwrap_or(u64::MAX), available),
            thousands(run.cpu_per_ballot().unwrap_or(0)),
            decimal(switches * 10 / (run.ballots as u64).max(1)),
        )?;
    }
    if run.failures > 0 {
        writeln!(
            out,
            "  ¡{} sin confirmar / not acknowledged! primera / first: {}",
            thousands(run.failures as u64),
            run.first_failure.as_deref().unwrap_or("?")
        )?;
    }
    out.flush()?;
    Ok(())
}

/// A thread's CPU use so far.
pub(super) struct ThreadTimes {
    pub(super) id: u32,
    pub(super) name: String,
    /// Nanoseconds on a CPU.
    pub(super) nanos: u64,
    /// Context switches, voluntary or not.
    pub(super) switches: u64,
}

/// CPU use of every thread of this process so far (from
/// `/proc/self/task/*/{comm,schedstat,status}`; empty where there is no
/// `/proc`).
pub(super) fn cpu_times() -> Vec<ThreadTimes> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return Vec::new() };
    tasks
        .filter_map(|task| {
            let task = task.ok()?;
            let id = task.file_name().to_str()?.parse().ok()?;
            let name = std::fs::read_to_string(task.path().join("comm")).ok()?.trim().to_string();
            let schedstat = std::fs::read_to_string(task.path().join("schedstat")).ok()?;
            let nanos = schedstat.split_whitespace().next()?.parse().ok()?;
            let status = std::fs::read_to_string(task.path().join("status")).ok()?;
            let switches = status
                .lines()
                .filter(|line| line.contains("ctxt_switches"))
                .filter_map(|line| line.split_whitespace().nth(1)?.parse::<u64>().ok())
                .sum();
            Some(ThreadTimes { id, name, nanos, switches })
        })
        .collect()
}

/// What one kind of thread spent during a run.
pub(crate) struct Spent {
    pub(super) name: &'static str,
    pub(super) cpu: Duration,
    pub(super) switches: u64,
}

/// CPU use between two [`cpu_times`], by thread: the daemon's workers
/// (with the simulated kiosks' tasks), the ledger writer, the rest.
pub(super) fn cpu_spent(before: &[ThreadTimes], after: &[ThreadTimes]) -> Vec<Spent> {
    if after.is_empty() {
        return Vec::new();
    }
    let mut spent: Vec<Spent> = ["daemon", "ledger-writer", "other"]
        .into_iter()
        .map(|name| Spent { name, cpu: Duration::ZERO, switches: 0 })
        .collect();
    for thread in after {
        let start = before.iter().find(|b| b.id == thread.id);
        let at = spent.iter().position(|s| s.name == thread.name).unwrap_or(spent.len() - 1);
        spent[at].cpu += Duration::from_nanos(thread.nanos.saturating_sub(start.map_or(0, |s| s.nanos)));
        spent[at].switches += thread.switches.saturating_sub(start.map_or(0, |s| s.switches));
    }
    spent
}

pub(crate) fn per_second(count: u64, elapsed: Duration) -> u64 {
    let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX).max(1);
    count.saturating_mul(1_000_000) / micros
}

/// The figure in kB of the line `field` (`VmRSS:`, `VmHWM:`) of a
/// `/proc/PID/status` text.
pub(crate) fn status_kb(status: &str, field: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(field))?;
    line[field.len()..].trim().trim_end_matches("kB").trim().parse().ok()
}

/// The CPU time process `pid` (`self`: this one) has spent so far, all
/// its threads, those ended included (`None` without `/proc`).
pub(crate) fn process_cpu(pid: &str) -> Option<Duration> {
    stat_cpu(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// User and system time of a `/proc/PID/stat` text (fields 14 and 15, in
/// the kernel's fixed 100 ticks a second, counted after the command's
/// closing parenthesis: a command may hold spaces).
pub(crate) fn stat_cpu(stat: &str) -> Option<Duration> {
    let after = &stat[stat.rfind(')')? + 1..];
    let mut fields = after.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(Duration::from_millis((user + system) * 10))
}

/// The machine's load averages over 1, 5 and 15 minutes, as `/proc/loadavg`
/// gives them (`?` without it).
pub(crate) fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|l| l.split_whitespace().take(3).map(|n| n.replace('.', ",")).collect::<Vec<_>>().join(" · "))
        .unwrap_or_else(|| "?".to_string())
}

/// Tenths as `1,2`.
pub(crate) fn decimal(tenths: u64) -> String {
    format!("{},{}", thousands(tenths / 10), tenths % 10)
}

/// `12,3 ms`.
pub(crate) fn millis(d: Duration) -> String {
    let micros = d.as_micros();
    format!("{},{} ms", micros / 1000, micros % 1000 / 100)
}

/// `2,41 s`.
pub(crate) fn seconds(d: Duration) -> String {
    let millis = d.as_millis();
    format!("{},{:02} s", millis / 1000, millis % 1000 / 10)
}
