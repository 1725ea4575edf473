//! The attendees' live feeds, held by this process and, past what its
//! open-file limit lets it hold, by helper processes (`asamblea
//! bench-remote-feeds`, hidden): each feed is a descriptor on the
//! bench's side too, and where the hard limit cannot be raised (a
//! container without `CAP_SYS_RESOURCE`) one process cannot hold 20.000
//! of them beside the kiosks and the phones' requests. A helper says on
//! its standard output how many it held, then the wall-clock time each
//! feed saw the mark, which this process turns back into instants.

use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::ops::Range;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context, Result};

use super::phones;

/// Descriptors this process keeps for everything but the feeds: the
/// kiosks, the phones' requests in flight, the runtime.
pub(super) const RESERVED_FILES: u64 = 4_096;

/// The attendees' feeds, connected.
pub(super) struct Feeds {
    pub(super) held: usize,
    pub(super) refused: Vec<(u16, usize)>,
    pub(super) took: Duration,
    /// Feeds held by helper processes, and how many helpers.
    pub(super) elsewhere: (usize, usize),
    /// When each feed saw the mark.
    pub(super) seen: tokio::sync::mpsc::UnboundedReceiver<Instant>,
    tasks: tokio::task::JoinSet<()>,
    helpers: Vec<Helper>,
}

impl Feeds {
    /// Closes every feed (the helpers end).
    pub(super) async fn close(mut self) {
        self.tasks.abort_all();
        while self.tasks.join_next().await.is_some() {}
        for mut helper in self.helpers.drain(..) {
            let _ = helper.child.kill();
            let _ = helper.child.wait();
        }
    }
}

/// Adds `count` of a refusal's `status` to `refused`.
pub(super) fn count_refusal(refused: &mut Vec<(u16, usize)>, status: u16, count: usize) {
    match refused.iter_mut().find(|(s, _)| *s == status) {
        Some((_, c)) => *c += count,
        None => refused.push((status, count)),
    }
}

/// How many feeds this process holds of `attendees` with `open_files`
/// descriptors, and the ranges each helper holds (as many as this
/// process could each).
pub(super) fn split(attendees: usize, open_files: u64) -> (usize, Vec<Range<usize>>) {
    let room = usize::try_from(open_files.saturating_sub(RESERVED_FILES)).unwrap_or(usize::MAX).max(1);
    let here = attendees.min(room);
    let mut helpers = Vec::new();
    let mut next = here;
    while next < attendees {
        let end = attendees.min(next + room);
        helpers.push(next..end);
        next = end;
    }
    (here, helpers)
}

/// Connects `attendees` feeds to the internet listener at `public`, each
/// from its attendee's address: the first ones here, the rest in helpers
/// (`exe`, trusting the authority at `ca`).
pub(super) async fn connect(
    exe: &Path,
    public: SocketAddr,
    ca: &Path,
    tls: &Arc<rustls::ClientConfig>,
    (attendees, open_files): (usize, u64),
    mark: &str,
) -> Result<Feeds> {
    let started = Instant::now();
    let (here, elsewhere) = split(attendees, open_files);
    let moved = (attendees - here, elsewhere.len());
    let (seen_tx, seen) = tokio::sync::mpsc::unbounded_channel();
    let mut helpers = Vec::new();
    let (mut held, mut refused) = (0, Vec::new());
    for range in elsewhere {
        let (helper, connected) = Helper::start(exe, public, ca, range, mark, seen_tx.clone())?;
        let (helper_held, helper_refused) = connected.await.context(
            "un proceso auxiliar de feeds terminó sin decir cuántos tuvo / a feed helper ended without saying how many it held",
        )?;
        held += helper_held;
        for (status, count) in helper_refused {
            count_refusal(&mut refused, status, count);
        }
        helpers.push(helper);
    }
    let (tasks, here_held, here_refused) =
        hold(public, tls, 0..here, Arc::from(mark.as_bytes()), seen_tx).await;
    held += here_held;
    for (status, count) in here_refused {
        count_refusal(&mut refused, status, count);
    }
    Ok(Feeds { held, refused, took: started.elapsed(), elsewhere: moved, seen, tasks, helpers })
}

/// Connects the feeds of attendees `range`, a few hundred handshakes at a
/// time: the tasks holding them, how many answered `200`, the others'
/// answers by status (0: none).
async fn hold(
    public: SocketAddr,
    tls: &Arc<rustls::ClientConfig>,
    range: Range<usize>,
    mark: Arc<[u8]>,
    seen: tokio::sync::mpsc::UnboundedSender<Instant>,
) -> (tokio::task::JoinSet<()>, usize, Vec<(u16, usize)>) {
    let (connected_tx, mut connected_rx) = tokio::sync::mpsc::unbounded_channel();
    let mut tasks = tokio::task::JoinSet::new();
    let (mut held, mut refused) = (0, Vec::new());
    for batch in range.collect::<Vec<_>>().chunks(200) {
        for &k in batch {
            tasks.spawn(crate::bench::watch::subscriber(
                public,
                phones::source_of(k),
                tls.clone(),
                mark.clone(),
                connected_tx.clone(),
                seen.clone(),
            ));
        }
        for _ in batch {
            match connected_rx.recv().await {
                Some(200) => held += 1,
                status => count_refusal(&mut refused, status.unwrap_or(0), 1),
            }
        }
    }
    (tasks, held, refused)
}

/// A helper process holding feeds.
struct Helper {
    child: Child,
}

/// A helper's first line: how many feeds it held, and the refusals by
/// status.
type Connected = (usize, Vec<(u16, usize)>);

impl Drop for Helper {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Helper {
    fn start(
        exe: &Path,
        public: SocketAddr,
        ca: &Path,
        range: Range<usize>,
        mark: &str,
        seen: tokio::sync::mpsc::UnboundedSender<Instant>,
    ) -> Result<(Helper, tokio::sync::oneshot::Receiver<Connected>)> {
        let mut child = Command::new(exe)
            .args(["bench-remote-feeds", "--public", &public.to_string(), "--ca"])
            .arg(ca)
            .args(["--first", &range.start.to_string(), "--count", &range.len().to_string(), "--mark", mark])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .context("no se pudo iniciar un proceso auxiliar de feeds / could not start a feed helper")?;
        let stdout = child.stdout.take().context("sin salida del auxiliar / no helper output")?;
        let (connected_tx, connected) = tokio::sync::oneshot::channel();
        let mut connected_tx = Some(connected_tx);
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if let Some(said) = line.strip_prefix("connected ") {
                    if let (Some(parsed), Some(tx)) = (parse_connected(said), connected_tx.take()) {
                        let _ = tx.send(parsed);
                    }
                } else if let Some(micros) =
                    line.strip_prefix("seen ").and_then(|m| m.trim().parse::<u64>().ok())
                {
                    // Back to an instant of this process: as long ago as
                    // the wall clock says.
                    let ago = since_epoch().saturating_sub(Duration::from_micros(micros));
                    let _ = seen.send(Instant::now().checked_sub(ago).unwrap_or_else(Instant::now));
                }
            }
        });
        Ok((Helper { child }, connected))
    }
}

fn since_epoch() -> Duration {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default()
}

/// `HELD STATUS:COUNT,…` (the helper's first line after `connected `).
pub(super) fn parse_connected(said: &str) -> Option<Connected> {
    let mut parts = said.split_whitespace();
    let held = parts.next()?.parse().ok()?;
    let mut refused = Vec::new();
    if let Some(list) = parts.next() {
        for pair in list.split(',').filter(|p| !p.is_empty()) {
            let (status, count) = pair.split_once(':')?;
            refused.push((status.parse().ok()?, count.parse().ok()?));
        }
    }
    Some((held, refused))
}

/// `asamblea bench-remote-feeds` (hidden): holds the feeds of attendees
/// `first..first + count`, says `connected HELD STATUS:COUNT,…`, then
/// `seen MICROS` (since the Unix epoch) as each feed sees `mark`, until
/// it is killed.
pub fn hold_feeds(
    public: SocketAddr,
    ca: &Path,
    first: usize,
    count: usize,
    mark: &str,
    out: &mut dyn Write,
) -> Result<()> {
    let tls = Arc::new(asamblea_pki::client_config(&std::fs::read_to_string(ca)?, None)?);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let (seen_tx, mut seen) = tokio::sync::mpsc::unbounded_channel();
        let (_tasks, held, refused) =
            hold(public, &tls, first..first + count, Arc::from(mark.as_bytes()), seen_tx).await;
        let refused: Vec<String> = refused.iter().map(|(s, c)| format!("{s}:{c}")).collect();
        writeln!(out, "connected {held} {}", refused.join(","))?;
        out.flush()?;
        while let Some(at) = seen.recv().await {
            let micros = since_epoch().saturating_sub(at.elapsed()).as_micros();
            writeln!(out, "seen {micros}")?;
            out.flush()?;
        }
        bail!("los feeds terminaron / the feeds ended")
    })
}
