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
use page::*;

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
                let folder = &self.0.folder;
                let addr = folder.daemon_addr()?;
                let name = rustls::pki_types::ServerName::try_from(folder.daemon_host()).context(
                    "kiosk.toml: el nombre del daemon no es válido / the daemon's name is not valid",
                )?;
                let client = tokio::time::timeout(
                    Duration::from_secs(5),
                    HttpsClient::connect_named(addr, name, folder.tls.clone()),
                )
                .await
                .context("el daemon no respondió en 5 s / the daemon did not answer within 5 s")??;
                held.insert(client)
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
                *held = None;
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

/// A restart during a vote: say what became of it.
async fn recover(app: &App) {
    let path = app.0.folder.dir.join(IN_PROGRESS);
    let Ok(text) = std::fs::read_to_string(&path) else { return };
    let mark: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    let notice = match mark["estado"].as_str() {
        Some("enviando") => {
            let mut said_es = Vec::new();
            let mut said_en = Vec::new();
            for ballot in mark["papeletas"].as_array().into_iter().flatten() {
                let title = ballot["titulo"].as_str().unwrap_or("?");
                let digest = ballot["resumen"].as_str().unwrap_or("");
                match app.daemon(&format!("/api/v1/receipts/{digest}"), None).await {
                    Ok((status, answer)) if status.is_success() => {
                        let seq = answer["receipt"]["seq"].as_u64().unwrap_or(0);
                        said_es.push(format!("«{title}»: registrado (n.º {seq})"));
                        said_en.push(format!("“{title}”: recorded (no. {seq})"));
                    }
                    Ok(_) => {
                        said_es.push(format!("«{title}»: NO se registró"));
                        said_en.push(format!("“{title}”: NOT recorded"));
                    }
                    Err(_) => {
                        said_es.push(format!("«{title}»: no se pudo comprobar; consúltelo en el tablero público"));
                        said_en.push(format!("“{title}”: could not be checked; see the public board"));
                    }
                }
            }
            Notice::error(
                format!(
                    "El quiosco se reinició mientras enviaba su voto. {}. Si algún punto no se registró, vuelva a escanear su credencial.",
                    said_es.join("; ")
                ),
                format!("The kiosk restarted while sending your vote. {}. If an item was not recorded, scan your badge again.", said_en.join("; ")),
            )
        }
        _ => Notice::error(
            "El quiosco se reinició antes de que confirmara su voto: no se envió nada. Vuelva a escanear su credencial.",
            "The kiosk restarted before you confirmed: nothing was sent. Scan your badge again.",
        ),
    };
    app.with(|k| {
        k.notice = Some(notice);
        k.changed();
    });
    app.unmark();
}

/// Clears a half-made vote after a while without a touch, and the
/// receipt after its time on screen.
async fn watch_idle(app: App) {
    let (idle_after, receipt_for) = (app.0.options.idle_after, app.0.options.receipt_for);
    loop {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let cleared = app.with(|k| match k.screen {
            Screen::Choose | Screen::Review if k.touched.elapsed() >= idle_after => {
                k.reset(Some(Notice::info(
                    "Se cerró por inactividad: no se envió ningún voto. Vuelva a escanear su credencial para votar.",
                    "Closed after inactivity: no vote was sent. Scan your badge again to vote.",
                )));
                true
            }
            Screen::Done if k.touched.elapsed() >= receipt_for => {
                k.reset(None);
                false
            }
            _ => false,
        });
        if cleared {
            app.unmark();
        }
    }
}

/// Asks the daemon for its status: `None` when it answers, or what is
/// wrong, for the staff (where the kiosk looked, and why it failed).
async fn check_daemon(app: &App) -> Option<Notice> {
    let daemon = &app.0.folder.settings.daemon;
    match app.daemon("/api/v1/status", None).await {
        Ok((status, _)) if status.is_success() => None,
        Ok((status, _)) => Some(Notice::error(
            format!("El servicio de votación en {daemon} responde con error ({status}). Personal: revise el servicio; aquí no se puede votar por ahora."),
            format!("The voting service at {daemon} answers with an error ({status}). Staff: check the daemon; no voting here for now."),
        )),
        Err(error) => Some(Notice::error(
            format!("Sin conexión con el servicio de votación en {daemon}: {error:#}. Personal: revise la red, que el servicio esté en marcha y la dirección del quiosco (--daemon); aquí no se puede votar por ahora."),
            format!("No connection to the voting service at {daemon}. Staff: check the network, that the daemon runs, and the kiosk's --daemon; no voting here for now."),
        )),
    }
}

/// How often an idle kiosk checks its daemon.
const DAEMON_CHECK: Duration = Duration::from_secs(10);

/// Checks the daemon every [`DAEMON_CHECK`] while the kiosk is idle, and
/// keeps what it found for the idle screen.
async fn watch_daemon(app: App) {
    loop {
        tokio::time::sleep(DAEMON_CHECK).await;
        if !app.with(|k| k.screen == Screen::Idle) {
            continue;
        }
        let service = check_daemon(&app).await;
        app.with(|k| {
            if k.service != service {
                k.service = service;
                k.changed();
            }
        });
    }
}

/// Words for a scan that is not a badge of this meeting.
fn unreadable(error: &WireError) -> Notice {
    match error {
        WireError::CredentialOtherMeeting => Notice::error(
            "Esta credencial es de otra reunión. Use la credencial que le entregaron hoy en el registro.",
            "This badge belongs to another meeting. Use the badge the registration desk gave you today.",
        ),
        WireError::CredentialLength { .. } | WireError::CredentialCheck | WireError::CredentialCharacter { .. } => {
            Notice::error(
                "La lectura de la credencial quedó incompleta o con errores. Vuelva a acercarla al lector, despacio y sin doblarla.",
                "The badge was read incompletely or with errors. Hold it to the reader again, slowly and flat.",
            )
        }
        _ => Notice::error(
            "Eso no es una credencial de votación. Acerque al lector el código QR de su credencial.",
            "That is not a voting badge. Hold your badge's QR code to the reader.",
        ),
    }
}

fn unreachable_notice() -> Notice {
    Notice::error(
        "No hay conexión con el servicio de votación. Avise al personal de la mesa. No se ha contado nada.",
        "The voting service cannot be reached. Tell the staff. Nothing has been counted.",
    )
}

/// A scan, from any reader.
async fn scan(app: &App, text: Zeroizing<String>) {
    // A ballot being sent is finished first (it is signed; it must reach
    // the daemon). A vote still being chosen is someone who walked away:
    // a new badge ends it, with nothing signed or sent for them, and the
    // screen shows none of their holdings to the newcomer.
    let (sending, walked_away) =
        app.with(|k| (k.screen == Screen::Sending, matches!(k.screen, Screen::Choose | Screen::Review)));
    if sending {
        app.with(|k| {
            k.notice = Some(Notice::info(
                "Espere: se está enviando el voto anterior. Escanee de nuevo en un momento.",
                "Wait: the previous vote is being sent. Scan again in a moment.",
            ));
            k.changed();
        });
        return;
    }
    if walked_away {
        app.with(|k| {
            k.reset(Some(Notice::info(
                "La votación anterior quedó sin terminar y se canceló: no se envió nada. Leyendo la nueva credencial…",
                "The previous vote was left unfinished and was cancelled: nothing was sent. Reading the new badge…",
            )))
        });
        app.unmark();
    }
    let credential = match parse_boxed(&text, &app.0.folder.meeting) {
        Ok(credential) => credential,
        Err(error) => {
            burn_stack();
            app.with(|k| k.reset(Some(unreadable(&error))));
            return;
        }
    };
    burn_stack();
    drop(text);
    let number = credential.id().0;
    let sheet = match app.daemon(&format!("/api/v1/kiosk/badges/{number}"), None).await {
        Ok((status, sheet)) if status.is_success() => match serde_json::from_value::<BallotSheet>(sheet) {
            Ok(sheet) => sheet,
            Err(error) => {
                tracing::error!(%error, "la papeleta del servicio no se lee / the daemon's ballot sheet does not read");
                app.with(|k| k.reset(Some(unreachable_notice())));
                return;
            }
        },
        Ok((_, answer)) => {
            let error = error_of(&answer);
            let notice = match error.as_ref().map(|e| e.code) {
                Some(ErrorCode::RevokedBadge) => Notice::error(
                    format!("La credencial n.º {number} fue anulada. Pida una nueva en la mesa de registro."),
                    format!("Badge no. {number} was revoked. Ask the registration desk for a new one."),
                ),
                Some(ErrorCode::UnknownBadge) => Notice::error(
                    format!("La credencial n.º {number} no fue emitida en esta reunión. Acuda a la mesa de registro."),
                    format!("Badge no. {number} was not issued at this meeting. Go to the registration desk."),
                ),
                _ => match error {
                    Some(error) => Notice::error(error.message, error.message_en),
                    None => Notice::error("El servicio rechazó la credencial.", "The service refused the badge."),
                },
            };
            app.with(|k| k.reset(Some(notice)));
            return;
        }
        Err(_) => {
            app.with(|k| k.reset(Some(unreachable_notice())));
            return;
        }
    };
    if sheet.open_items.is_empty() {
        app.with(|k| {
            k.reset(Some(Notice::info(
                "No hay ningún punto abierto a votación en este momento. Espere a que la presidencia abra el siguiente.",
                "No item is open for voting now. Wait for the chair to open the next one.",
            )))
        });
        return;
    }
    // Nothing this badge may vote now (already voted, or no holding votes
    // on what is open): say why, and send nothing.
    let mut why: Vec<(String, String)> = Vec::new();
    let mut votes = false;
    for holder in sheet.open_items.iter().flat_map(|i| &i.holders) {
        if holder.may_vote {
            votes = true;
        } else {
            let reason =
                (holder.reason_es.clone().unwrap_or_default(), holder.reason_en.clone().unwrap_or_default());
            if !why.contains(&reason) {
                why.push(reason);
            }
        }
    }
    if !votes {
        let (es, en): (Vec<String>, Vec<String>) = why.into_iter().unzip();
        app.with(|k| {
            k.reset(Some(Notice::info(
                format!("No tiene nada que votar en los puntos abiertos: {}", es.join(" ")),
                format!("Nothing to vote on the open items: {}", en.join(" ")),
            )))
        });
        return;
    }
    app.mark(&json!({ "estado": "eligiendo" }));
    app.with(|k| {
        // The newcomer is told the previous vote was cancelled, if it was.
        let kept = if walked_away { k.notice.take() } else { None };
        k.reset(kept);
        k.voter = Some(Voter { credential, sheet });
        k.screen = Screen::Choose;
        k.changed();
    });
}

/// Every holder that may vote on an item has a pick, with an option on
/// the item's ballot; nothing else is picked.
fn check_picks(sheet: &BallotSheet, picks: &[Pick]) -> Result<(), Notice> {
    let mut wanted: BTreeMap<(String, String), usize> = BTreeMap::new();
    for item in &sheet.open_items {
        for holder in item.holders.iter().filter(|h| h.may_vote) {
            wanted.insert((item.id.clone(), holder.holder.clone()), item.options.len());
        }
    }
    for pick in picks {
        match wanted.remove(&(pick.item.clone(), pick.holder.clone())) {
            Some(options) if pick.choice.is_none_or(|c| usize::from(c) < options) => {}
            _ => {
                return Err(Notice::error(
                    "Esa elección no corresponde a su papeleta. Vuelva a elegir.",
                    "That choice is not on your ballot. Choose again.",
                ))
            }
        }
    }
    if wanted.is_empty() {
        Ok(())
    } else {
        Err(Notice::error(
            "Falta elegir en algún punto: cada punto y cada accionista necesita una opción (o «Abstención»).",
            "A choice is missing: each item and each holder needs an option (or “Abstain”).",
        ))
    }
}

/// The words of option `choice` on `item`, `Abstención` for none.
fn option_words(item: &SheetItem, choice: Option<u16>) -> String {
    match choice {
        None => "Abstención (no se envía voto) / Abstain (no vote sent)".to_string(),
        Some(c) => match item.options.get(usize::from(c)) {
            Some(option) if option.es != option.en => format!("{} / {}", option.es, option.en),
            Some(option) => option.es.clone(),
            None => "?".to_string(),
        },
    }
}

/// Signs one ballot per item that has a vote (abstentions send nothing),
/// then drops the credential.
fn sign_all(voter: Voter, picks: &[Pick]) -> Result<Vec<Outgoing>> {
    let mut out = Vec::new();
    for item in &voter.sheet.open_items {
        let id = item.id.as_str();
        let name_of = |holder: &str| {
            item.holders.iter().find(|h| h.holder == holder).map_or(holder, |h| h.name.as_str()).to_string()
        };
        let mine: Vec<&Pick> = picks.iter().filter(|p| p.item == id).collect();
        let votes: Vec<HolderVote> = mine
            .iter()
            .filter_map(|p| {
                p.choice.map(|c| {
                    Ok(HolderVote {
                        holder: Id::new(&p.holder)?,
                        choice: Choice::Whole(asamblea_rules::OptionIndex::list(usize::from(c))),
                    })
                })
            })
            .collect::<Result<_, WireError>>()?;
        if votes.is_empty() {
            continue;
        }
        let signed = SignedBallot::sign(&voter.credential, id, votes)?;
        out.push(Outgoing {
            item: id.to_string(),
            title: item.title.clone(),
            body: signed.body(),
            digest: signed.digest(),
            votes: mine.iter().map(|p| (name_of(&p.holder), option_words(item, p.choice))).collect(),
            sent: Sent::Waiting,
        });
    }
    // The credential goes here, and its key is wiped with it.
    drop(voter);
    Ok(out)
}

/// The daemon's refusal of a ballot, in its words.
fn refusal(answer: &Value) -> Notice {
    match error_of(answer) {
        Some(error) => Notice::error(
            format!("No se contó: {}", error.message),
            format!("Not counted: {}", error.message_en),
        ),
        None => Notice::error("No se contó: el servicio lo rechazó.", "Not counted: the service refused it."),
    }
}

/// The daemon's error answer (`asamblea_api::ErrorAnswer`), if it is one.
fn error_of(answer: &Value) -> Option<ErrorDetail> {
    serde_json::from_value::<asamblea_api::ErrorAnswer>(answer.clone()).ok().map(|answer| answer.error)
}

/// Why [`send_all`] waits before sending again.
enum Pause {
    /// The daemon cannot be reached, or failed (5xx).
    Unreachable,
    /// The daemon is still saving this ballot, or asks for a slower pace:
    /// which ballot, and the daemon's words, said as a refusal if it is
    /// still so after [`BUSY_LIMIT`] tries (a copy being saved answers
    /// with its receipt within seconds).
    Busy(usize, Notice),
}

/// Tries, two seconds apart, before a "still saving" answer is shown as
/// the daemon's refusal.
const BUSY_LIMIT: u32 = 15;

/// Sends every ballot still waiting, again and again until the daemon
/// answers each.
async fn send_all(app: App) {
    // "Still saving" answers in a row.
    let mut busy = 0;
    loop {
        let waiting: Vec<(usize, String)> = app.with(|k| {
            k.outbox
                .iter()
                .enumerate()
                .filter(|(_, o)| matches!(o.sent, Sent::Waiting))
                .map(|(at, o)| (at, o.body.clone()))
                .collect()
        });
        if waiting.is_empty() {
            app.unmark();
            app.with(|k| {
                k.screen = Screen::Done;
                k.notice = None;
                k.changed();
            });
            return;
        }
        // Why the loop waits: the daemon cannot be reached (or failed),
        // or it is still saving this very ballot or asks the kiosk to
        // slow down; either way the same bytes go again shortly.
        let mut pause = None;
        for (at, body) in waiting {
            match app.daemon("/api/v1/ballots", Some(body)).await {
                Ok((status, answer)) if status.is_success() => {
                    let folder = &app.0.folder;
                    let digest = app.with(|k| k.outbox[at].digest);
                    let sent = match crate::read_receipt(&answer, &folder.meeting, Some(&folder.daemon_key)) {
                        Ok((receipt, signature)) if receipt.event == digest => {
                            let board = folder.settings.board.trim_end_matches('/');
                            let url = format!("{board}/recibo?resumen={digest}");
                            let qr = crate::scan::qr_svg(&url);
                            Sent::Counted { seq: receipt.seq, line: receipt.to_text(&signature), url, qr }
                        }
                        Ok(_) => Sent::Refused(Notice::error(
                            "El recibo recibido es de otra papeleta: no se puede mostrar como suyo. Avise al personal.",
                            "The receipt received is another ballot's: it cannot be shown as yours. Tell the staff.",
                        )),
                        Err(_) => Sent::Refused(Notice::error(
                            "El recibo recibido no lleva la firma del servicio: avise al personal.",
                            "The receipt does not carry the service's signature: tell the staff.",
                        )),
                    };
                    app.with(|k| {
                        k.outbox[at].sent = sent;
                        k.changed();
                    });
                }
                // The first copy of this ballot is still being saved (a
                // retry overtook it), or too many requests: not a refusal.
                Ok((status, answer))
                    if status == StatusCode::TOO_MANY_REQUESTS
                        || error_of(&answer).is_some_and(|e| e.code == ErrorCode::Replayed) =>
                {
                    pause = Some(Pause::Busy(at, refusal(&answer)));
                    break;
                }
                Ok((status, answer)) if status.is_client_error() => {
                    let notice = refusal(&answer);
                    app.with(|k| {
                        k.outbox[at].sent = Sent::Refused(notice);
                        k.changed();
                    });
                }
                // The daemon is there but cannot take it now (5xx), or
                // cannot be reached: the same bytes again, shortly.
                _ => {
                    pause = Some(Pause::Unreachable);
                    break;
                }
            }
        }
        if let Some(pause) = pause {
            if let Pause::Busy(at, notice) = &pause {
                busy += 1;
                if busy >= BUSY_LIMIT {
                    busy = 0;
                    app.with(|k| {
                        k.outbox[*at].sent = Sent::Refused(notice.clone());
                        k.changed();
                    });
                    continue;
                }
            }
            app.with(|k| {
                k.attempts += 1;
                k.notice = Some(match pause {
                    Pause::Unreachable => Notice::error(
                        format!(
                            "Sin conexión con el servicio de votación: reintentando (intento {}). Su voto está firmado y se enviará en cuanto vuelva la conexión; no se cuenta dos veces. No se retire.",
                            k.attempts
                        ),
                        "No connection to the voting service: retrying. Your signed vote will be sent as soon as it returns, and never counted twice. Please wait.",
                    ),
                    Pause::Busy(..) => Notice::info(
                        format!("El servicio está guardando su voto: un momento (intento {}). No se retire.", k.attempts),
                        "The service is saving your vote: one moment. Please wait.",
                    ),
                });
                k.changed();
            });
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_answer_of_the_touch_page_forbids_framing_and_foreign_script() {
        use tower::ServiceExt as _;
        let router = Router::new()
            .route("/", get(page))
            .route("/kiosco.js", get(script))
            .layer(axum::middleware::from_fn(secure_headers));
        for path in ["/", "/kiosco.js", "/no-such-page"] {
            let request = axum::http::Request::builder().uri(path).body(axum::body::Body::empty()).unwrap();
            let response = router.clone().oneshot(request).await.unwrap();
            let header = |name| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
            assert_eq!(header(header::X_FRAME_OPTIONS), "DENY", "{path}");
            let policy = header(header::CONTENT_SECURITY_POLICY);
            for directive in ["frame-ancestors 'none'", "default-src 'none'", "script-src 'self'"] {
                assert!(policy.contains(directive), "{path}: {policy}");
            }
            assert!(!policy.contains("unsafe"), "{policy}");
        }
        // The page itself needs no more: no inline script or style.
        assert!(!PAGE.contains("<style") && !PAGE.contains("style=") && !PAGE.contains("<script>"));
    }

    fn sheet() -> BallotSheet {
        use asamblea_api::kiosk::{SheetOption, SheetVoter};
        let options = ["A favor", "En contra", "En blanco"]
            .iter()
            .zip(0..)
            .map(|(es, index)| SheetOption {
                index,
                es: es.to_string(),
                en: es.to_string(),
                candidates: Vec::new(),
            })
            .collect::<Vec<_>>();
        let voter = |holder: &str, name: &str, may_vote| SheetVoter {
            holder: holder.into(),
            name: name.into(),
            shares: 1,
            may_vote,
            reason: None,
            reason_es: None,
            reason_en: None,
        };
        let item = |id: &str, title: &str, b_votes| SheetItem {
            id: id.into(),
            title: title.into(),
            matter: "ordinary".into(),
            matter_es: String::new(),
            matter_en: String::new(),
            options: options.clone(),
            holders: vec![voter("A", "Ana", true), voter("B", "Beto", b_votes)],
        };
        BallotSheet {
            credential: 1,
            person: "A".into(),
            name: "Ana".into(),
            holders: Vec::new(),
            open_items: vec![item("i1", "Uno", false), item("i2", "Dos", true)],
        }
    }

    fn pick(item: &str, holder: &str, choice: Option<u16>) -> Pick {
        Pick { item: item.into(), holder: holder.into(), choice }
    }

    #[test]
    fn every_holder_who_may_vote_needs_a_choice_and_no_other_is_taken() {
        let full = [pick("i1", "A", Some(0)), pick("i2", "A", Some(1)), pick("i2", "B", None)];
        assert_eq!(check_picks(&sheet(), &full), Ok(()));
        assert!(check_picks(&sheet(), &full[..2]).unwrap_err().es.contains("Falta elegir"));
        // B may not vote on i1; an option past the ballot's; an item not open.
        for wrong in [pick("i1", "B", Some(0)), pick("i1", "A", Some(3)), pick("i9", "A", Some(0))] {
            let mut picks = full.to_vec();
            picks[0] = wrong;
            assert!(check_picks(&sheet(), &picks).unwrap_err().es.contains("no corresponde"));
        }
    }

    #[test]
    fn the_short_code_is_the_hashs_first_twelve_digits() {
        assert_eq!(short_code("ab12cd34ef567890"), "AB12-CD34-EF56");
    }
}
