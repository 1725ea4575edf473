//! The kiosk program: the touch page served on the loopback address, the
//! badge readers, and the link to the daemon over mutual TLS.
//!
//! # One attendee at a time
//!
//! ```text
//! espera ──scan──▶ elección ──revisar──▶ revisión ──confirmar──▶ envío ──▶ recibo ──▶ espera
//!    ▲                │  ▲                   │                    (retries the same
//!    └──cancel/idle───┘  └──────volver───────┘                     signed ballots)
//! ```
//!
//! - A scan (typed by a wedge scanner into the page, a line from a serial
//!   scanner, or a camera frame decoded here) is parsed against this
//!   meeting ([`crate::parse_badge`]); a partial, garbled or foreign scan
//!   is refused with words and nothing is sent. The daemon then says whom
//!   the badge carries and what is open (the ballot sheet); a revoked or
//!   unknown badge is refused there.
//! - The choices stay on this machine until "Confirmar". Then one ballot
//!   per item is signed with the badge's key, the credential is dropped
//!   (its key is wiped: ed25519-dalek zeroizes on drop) and the scanned
//!   text was wiped already ([`zeroize::Zeroizing`]). The badge's secret
//!   is never written to disk; the mark of a vote in progress
//!   ([`crate::folder::IN_PROGRESS`]) holds item ids and ballot digests
//!   only.
//! - Sending retries the very same signed bytes until the daemon answers:
//!   a lost answer or a restarted daemon gives back the same receipt, and
//!   the ballot is counted once. A receipt is shown only once the daemon
//!   has answered with it (after its commit) and its signature is the
//!   daemon's.
//! - A kiosk restarted mid-vote finds the mark: before confirming, nothing
//!   was sent, and the screen says so ("vuelva a escanear su credencial");
//!   after, it asks the public board which of the ballots were recorded
//!   and says which were and which were not.
//! - Inactivity clears the screen: 90 s while choosing, 90 s on the
//!   receipt (time to note the code or photograph it). A new badge
//!   scanned while someone else is still choosing ends that session,
//!   nothing sent.
//!
//! The page's API takes only requests carrying `X-Quiosco: 1`, a header
//! no other origin can send without a CORS preflight this server never
//! answers, and listens on the loopback address only.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use asamblea_wire::{Choice, Credential, Digest, HolderVote, Id, WireError};
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use asamblea_api::kiosk::{BallotSheet, SheetItem};
use asamblea_api::{ErrorCode, ErrorDetail};
use zeroize::Zeroizing;

use crate::folder::{Folder, IN_PROGRESS};
use crate::{HttpsClient, SignedBallot};

mod page;
mod send;
mod vote;
mod watch;
use page::*;
use send::*;
use vote::*;
use watch::*;

/// How the kiosk runs.
pub struct Options {
    /// The kiosk's folder.
    pub folder: PathBuf,
    /// Where the page is served: a loopback address.
    pub listen: SocketAddr,
    /// A scanner in serial mode: a device (or pipe) that gives one badge a
    /// line.
    pub scanner: Option<PathBuf>,
    /// How long a half-made choice waits for a touch.
    pub idle_after: Duration,
    /// How long the receipt stays on screen.
    pub receipt_for: Duration,
}

impl Options {
    /// The defaults for a folder.
    pub fn new(folder: PathBuf) -> Options {
        Options {
            folder,
            listen: SocketAddr::from(([127, 0, 0, 1], 8088)),
            scanner: None,
            idle_after: Duration::from_secs(90),
            receipt_for: Duration::from_secs(90),
        }
    }
}

/// A message on screen, in Spanish and English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// In Spanish.
    pub es: String,
    /// In English.
    pub en: String,
    error: bool,
}

impl Notice {
    fn error(es: impl Into<String>, en: impl Into<String>) -> Notice {
        Notice { es: es.into(), en: en.into(), error: true }
    }

    fn info(es: impl Into<String>, en: impl Into<String>) -> Notice {
        Notice { es: es.into(), en: en.into(), error: false }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Screen {
    Idle,
    Choose,
    Review,
    Sending,
    Done,
}

impl Screen {
    fn code(self) -> &'static str {
        match self {
            Screen::Idle => "espera",
            Screen::Choose => "eleccion",
            Screen::Review => "revision",
            Screen::Sending => "envio",
            Screen::Done => "recibo",
        }
    }
}

/// The attendee at the kiosk: the badge's credential (its key is wiped
/// when this is dropped) and the daemon's ballot sheet.
struct Voter {
    /// Boxed from the moment it is parsed: a move of the voter (into the
    /// screen's state, out of it to sign) moves a pointer, never the key,
    /// so the one copy is wiped when the box is dropped.
    credential: Box<Credential>,
    sheet: BallotSheet,
}

/// A badge read and boxed in a frame of its own, below the caller's, so
/// that [`burn_stack`] reaches every copy the parsing left.
#[inline(never)]
fn parse_boxed(text: &str, meeting: &asamblea_wire::MeetingId) -> Result<Box<Credential>, WireError> {
    crate::parse_badge(text, meeting).map(Box::new)
}

/// Overwrites the stack below the caller's frame, where parsing a badge
/// or signing with its key leaves copies of the seed (a function's
/// locals are not wiped when it returns). Called at once after each,
/// before any `.await` could move the task to another thread.
#[inline(never)]
fn burn_stack() {
    let mut below = [0u8; 64 * 1024];
    zeroize::Zeroize::zeroize(&mut below[..]);
    std::hint::black_box(&below);
}

/// One choice: an item, a holder, and an option or `None` for an
/// abstention (nothing is sent for it).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
struct Pick {
    item: String,
    holder: String,
    choice: Option<u16>,
}

#[derive(Clone, Debug)]
enum Sent {
    Waiting,
    /// The receipt: its number, its text, and the board's check of it as
    /// a link and its QR (drawn once, when the receipt arrives).
    Counted {
        seq: u64,
        line: String,
        url: String,
        qr: String,
    },
    Refused(Notice),
}

/// A signed ballot on its way, and what became of it.
struct Outgoing {
    item: String,
    title: String,
    body: String,
    digest: Digest,
    /// Each holder's name and choice in words, for the receipt screen.
    votes: Vec<(String, String)>,
    sent: Sent,
}

struct Kiosk {
    screen: Screen,
    generation: u64,
    notice: Option<Notice>,
    voter: Option<Voter>,
    picks: Vec<Pick>,
    outbox: Vec<Outgoing>,
    touched: Instant,
    /// Attempts to reach the daemon for the ballots on their way.
    attempts: u32,
    /// What is wrong with the voting service, as last checked at start
    /// and while idle ([`watch_daemon`]); `None` when it answered.
    service: Option<Notice>,
}

impl Kiosk {
    fn changed(&mut self) {
        self.generation += 1;
        self.touched = Instant::now();
    }

    /// Back to the idle screen with `notice`, every trace of the attendee
    /// dropped (the credential's key wiped with it).
    fn reset(&mut self, notice: Option<Notice>) {
        self.voter = None;
        self.picks.clear();
        self.outbox.clear();
        self.attempts = 0;
        self.screen = Screen::Idle;
        self.notice = notice;
        self.changed();
    }
}

struct Shared {
    folder: Folder,
    options: Options,
    kiosk: Mutex<Kiosk>,
    changed: tokio::sync::Notify,
    /// The one keep-alive connection to the daemon, opened at the first
    /// exchange and again whenever it is lost. A kiosk that already holds
    /// a connection needs no new one, so a flood of connections on the
    /// venue network cannot keep it from the daemon (`docs/threat-model.md`
    /// R10); the exchanges of the page wait for each other on it.
    daemon: tokio::sync::Mutex<Option<HttpsClient>>,
    /// Which of the daemon's addresses to try first (`kiosk.toml`'s
    /// `daemon`: several for a replicated meeting).
    next_daemon: std::sync::atomic::AtomicUsize,
}

#[derive(Clone)]
struct App(Arc<Shared>);

impl App {
    fn with<T>(&self, f: impl FnOnce(&mut Kiosk) -> T) -> T {
        let mut kiosk = self.0.kiosk.lock().unwrap_or_else(PoisonError::into_inner);
        let generation = kiosk.generation;
        let out = f(&mut kiosk);
        if kiosk.generation != generation {
            self.0.changed.notify_waiters();
        }
        out
    }

    /// One exchange with the daemon on the kiosk's mutual-TLS connection:
    /// a `POST` of `body`, or a `GET`.
    async fn daemon(&self, path: &str, body: Option<String>) -> Result<(StatusCode, Value)> {
        let answer = self.daemon_once(path, body).await;
        // What went wrong, and where, for the technician: the screen only
        // says the service cannot be reached.
        match &answer {
            Err(error) => tracing::warn!(
                daemon = %self.0.folder.settings.daemon,
                path,
                error = %format!("{error:#}"),
                "sin conexión con el servicio / cannot reach the daemon"
            ),
            Ok((status, value)) if status.is_server_error() => tracing::warn!(
                daemon = %self.0.folder.settings.daemon,
                path,
                %status,
                answer = %value,
                "el servicio no pudo atender / the daemon could not serve"
            ),
            Ok(_) => {}
        }
        answer
    }

    async fn daemon_once(&self, path: &str, body: Option<String>) -> Result<(StatusCode, Value)> {
        let mut held = self.0.daemon.lock().await;
        let client = match held.as_mut() {
            Some(client) => client,
            None => {
                // One address, or a replicated meeting's nodes: from the
                // one that answered last, each in turn (a standby does not
                // listen; the node that leads does).
                let folder = &self.0.folder;
                let entries = folder.settings.daemon_entries();
                let start = self.0.next_daemon.load(std::sync::atomic::Ordering::Relaxed);
                let wait = if entries.len() > 1 { Duration::from_secs(3) } else { Duration::from_secs(5) };
                let mut failures = Vec::new();
                let mut connected = None;
                for k in 0..entries.len() {
                    let at = (start + k) % entries.len();
                    let (addr, host) = match crate::folder::Settings::resolve(entries[at]) {
                        Ok(resolved) => resolved,
                        Err(e) => {
                            failures.push(format!("{e:#}"));
                            continue;
                        }
                    };
                    let (addr, host) = (&addr, &host);
                    let name = rustls::pki_types::ServerName::try_from(host.clone()).context(
                        "kiosk.toml: el nombre del daemon no es válido / the daemon's name is not valid",
                    )?;
                    match tokio::time::timeout(
                        wait,
                        HttpsClient::connect_named(*addr, name, folder.tls.clone()),
                    )
                    .await
                    {
                        Ok(Ok(client)) => {
                            self.0.next_daemon.store(at, std::sync::atomic::Ordering::Relaxed);
                            connected = Some(client);
                            break;
                        }
                        Ok(Err(e)) => failures.push(format!("{addr}: {e:#}")),
                        Err(_) => failures.push(format!(
                            "{addr}: no respondió en {} s / did not answer within {} s",
                            wait.as_secs(),
                            wait.as_secs()
                        )),
                    }
                }
                match connected {
                    Some(client) => held.insert(client),
                    None => anyhow::bail!("{}", failures.join("; ")),
                }
            }
        };
        // A connection the daemon closed is opened again by the client
        // itself; one that failed or timed out is dropped, and the next
        // exchange opens a new one.
        let answer = async {
            match body {
                Some(body) => client.post_body(path, body, None).await,
                None => client.get_json(path).await,
            }
        };
        let answered = tokio::time::timeout(Duration::from_secs(10), answer)
            .await
            .context("el daemon no respondió en 10 s / the daemon did not answer within 10 s")
            .and_then(|answer| answer);
        let (status, value) = match answered {
            Ok(answer) => answer,
            Err(error) => {
                // The next try starts at the next node (the same one when
                // there is only one).
                *held = None;
                self.0.next_daemon.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                return Err(error);
            }
        };
        Ok((StatusCode::from_u16(status.as_u16())?, value))
    }

    fn mark(&self, state: &Value) {
        let path = self.0.folder.dir.join(IN_PROGRESS);
        if let Err(error) = write_durably(&path, state.to_string().as_bytes()) {
            tracing::warn!(%error, "no se puede escribir la marca del voto en curso / cannot write the mark of a vote in progress");
        }
    }

    fn unmark(&self) {
        let _ = std::fs::remove_file(self.0.folder.dir.join(IN_PROGRESS));
    }
}

/// Writes `bytes` to `path` through a new file renamed over it, synced.
fn write_durably(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let temporary = path.with_extension("nuevo");
    let mut file = std::fs::File::create(&temporary)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&temporary, path)
}

/// Runs the kiosk until the process is stopped; `ready` hears the
/// address it serves on.
pub async fn run(options: Options, ready: impl FnOnce(SocketAddr, Option<&Notice>)) -> Result<()> {
    if !options.listen.ip().is_loopback() {
        anyhow::bail!(
            "--listen {}: el quiosco sirve su página solo en la dirección local (127.0.0.1) / the kiosk serves its page on loopback only",
            options.listen
        );
    }
    let folder = Folder::open(&options.folder)?;
    let listener = tokio::net::TcpListener::bind(options.listen)
        .await
        .with_context(|| format!("{}: no se puede escuchar; ¿hay otro quiosco abierto en este equipo? / cannot listen: is another kiosk running here?", options.listen))?;
    let addr = listener.local_addr()?;
    let app = App(Arc::new(Shared {
        folder,
        options,
        daemon: tokio::sync::Mutex::new(None),
        next_daemon: std::sync::atomic::AtomicUsize::new(0),
        kiosk: Mutex::new(Kiosk {
            screen: Screen::Idle,
            generation: 1,
            notice: None,
            voter: None,
            picks: Vec::new(),
            outbox: Vec::new(),
            touched: Instant::now(),
            attempts: 0,
            service: None,
        }),
        changed: tokio::sync::Notify::new(),
    }));
    recover(&app).await;
    if let Some(path) = app.0.options.scanner.clone() {
        let runtime = tokio::runtime::Handle::current();
        let (reading, troubled) = (app.clone(), app.clone());
        crate::scan::serial(
            path,
            move |line| runtime.block_on(scan(&reading, line)),
            move |es, en| {
                troubled.with(|k| {
                    k.notice = Some(Notice::error(es, en));
                    k.changed();
                })
            },
        );
    }
    tokio::spawn(watch_idle(app.clone()));
    // The daemon is checked before the kiosk says it is ready, then while
    // idle: staff see at once what is wrong, not at the first scan.
    let service = check_daemon(&app).await;
    app.with(|k| {
        k.service = service.clone();
        k.changed();
    });
    tokio::spawn(watch_daemon(app.clone()));
    let router = Router::new()
        .route("/", get(page))
        .route("/kiosco.js", get(script))
        .route("/kiosco.css", get(style))
        .route("/api/estado", get(status))
        .route("/api/escaneo", post(scan_text))
        .route("/api/escaneo/imagen", post(scan_image))
        .route("/api/revisar", post(review))
        .route("/api/volver", post(back))
        .route("/api/confirmar", post(confirm))
        .route("/api/cancelar", post(cancel))
        .route("/api/tocar", post(touch))
        .layer(axum::middleware::from_fn(secure_headers))
        .layer(axum::middleware::from_fn(loopback_host))
        .with_state(app);
    ready(addr, service.as_ref());
    axum::serve(listener, router).await.context("la página del quiosco se detuvo / the kiosk page stopped")
}

#[cfg(test)]
mod tests;
