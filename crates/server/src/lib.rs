//! `asamblea-server`: the venue daemon's HTTPS service — one [`router`]
//! over an [`AppState`], served over rustls by [`tls::serve`].
//!
//! Who may call what is written once, in each caller's module (`public`,
//! `desk`, `badges`, `chair`, `secretary`, `kiosk`, `remote`, `console`): its
//! `routes()` groups its routes with the callers they let in. The router,
//! the role table ([`route_table`], walked by the role test) and the
//! OpenAPI document ([`openapi_json`], committed as
//! `crates/server/openapi.json`) are all made from those groups
//! (`routes`). The public needs nothing; staff a bearer token (or a
//! console's session); a kiosk its enrolled client certificate; a remote
//! attendee the signature of the key their browser made (`remote`).
//!
//! Every staff action is a ledger event signed with the acting member's
//! key; a ballot is signed by the attendee's badge key in the kiosk and
//! only checked here. A ballot is answered with a daemon-signed receipt
//! only once the batch holding it is durable.
//!
//! # What this crate does not know
//!
//! Files and formats (the meeting directory is `asamblea-venue`'s, the
//! certificates `asamblea-pki`'s), the command line, and what a document
//! looks like (`asamblea-documents`). It is the only crate that knows axum
//! and hyper's serving side; a test of the `asamblea` package reads `cargo
//! metadata` and fails if any crate this one depends on knows axum.
//!
//! # Layout
//!
//! - this file: [`AppState`] (the meeting behind a lock, receipts, the
//!   live feed, rate limits) and [`router`]; [`Daemon`] assembles the
//!   daemon for `serve`, `demo` and `bench`.
//! - the callers' modules (above), `callers` (what they declare) and
//!   [`routes`] (the assembly and the document); `access`: the gates and
//!   extractors; `meeting`: work on the meeting and its errors; `directory`:
//!   the desk's search; `ballots`: receipts found again, and checked.
//! - `error`: [`ApiError`], the one error answer (an
//!   [`asamblea_api::ErrorCode`], Spanish and English messages, an incident
//!   number for a failure inside the daemon, whose cause is only logged).
//! - [`tls`]: the accept loop over rustls, with its limits and the kiosk
//!   identity of each connection.
//! - `limits`: what the service bounds itself (body time and size, feed
//!   subscribers and their age) and the security headers of every answer
//!   but the kiosks' two routes'.
//! - `board.html` (with `board.css`, `board.js`; at `/proyeccion` the
//!   same page shows one closed item read aloud in projector type, with
//!   `reading.js`, which the chair's console shares): the public pages,
//!   served as they are.
//! - [`receipts`]: a voter's receipt as JSON and as one line of text,
//!   written and read back in one place; `receipt_page`: the board's
//!   receipt check (`/recibo`), server-rendered, no script.
//! - `layout`: the one frame of the pages the daemon renders (the staff
//!   consoles, `/recibo`, `/papeletas`), as `maud` templates that escape
//!   every value; `console` (a folder, one file per console): the staff
//!   consoles and their sign-in.
//! - [`reports`]: the tallies made from an audit bundle (verified first),
//!   for `asamblea export-results` and the secretary's downloads.
//! - [`letters`]: the admission letters (who gets one, the notice data),
//!   for `asamblea cartas` and the desk's `GET /api/v1/letters.pdf`.
//! - `counted`: the ballots counted on a closed item, by the hash each
//!   receipt names (`/api/v1/results/{item}/ballots`, and the board's page
//!   `/papeletas`).

mod access;
mod badges;
mod ballots;
mod callers;
mod chair;
mod console;
mod counted;
mod daemon;
mod desk;
mod directory;
mod error;
mod feed;
#[cfg(test)]
mod formats_agree;
mod kiosk;
mod layout;
pub mod letters;
mod limits;
mod meeting;
mod nodes;
mod passes;
mod powers;
mod public;
mod receipt_page;
pub mod receipts;
mod remote;
pub mod reports;
pub mod routes;
mod secretary;
mod sessions;
pub mod tls;

pub use daemon::{Daemon, Internet};
pub use feed::FEED_MESSAGES_PER_SECOND;
pub(crate) use feed::{feed_period, FeedMessage};
pub use limits::{ServiceLimits, BODY_TIMEOUT, FEED_MAX_AGE, HEAD_INTERVAL};
pub use routes::{internet_table, openapi_json, route_table, Callers, Route};

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::DefaultBodyLimit;
use axum::http::HeaderMap;
use axum::Router;
use tokio::sync::broadcast;

use asamblea_wire::{MeetingId, Receipt, Signature};

pub use error::ApiError;

use asamblea_venue::service::Service;
use asamblea_venue::staff::{Account, Accounts, Role};

/// Largest request body accepted: a ballot for many principals fits well
/// within it; anything bigger is refused before it is read.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// Wrong staff tokens from one address before it is refused for a while.
pub const SIGN_IN_FAILURES: u32 = 10;

/// The window in which [`SIGN_IN_FAILURES`] are counted, and how long an
/// address is refused after them.
pub const SIGN_IN_WINDOW: Duration = Duration::from_secs(60);

use access::bearer;

/// Ballots a kiosk may send per second on average, and in a burst.
pub const KIOSK_RATE: (u32, u32) = (50, 200);

/// The state every handler shares; cheap to clone.
#[derive(Clone)]
pub struct AppState(pub(crate) Arc<Inner>);

pub(crate) struct Inner {
    /// The meeting: its ledger and the rules state folded from it. A
    /// `std` mutex, never held across an `.await`.
    pub(crate) service: Mutex<Service>,
    pub(crate) meeting_id: MeetingId,
    /// The ledger file, read beside the writer by the public receipt check.
    pub(crate) ledger_path: std::path::PathBuf,
    /// The daemon's key, for receipts signed on the request's thread.
    pub(crate) daemon: asamblea_wire::Keypair,
    pub(crate) accounts: Accounts,
    /// The revoked kiosks, shared with the serving layer: a revocation
    /// through the API takes effect on the kiosk's next request.
    pub(crate) kiosks: asamblea_pki::KioskRegistry,
    /// Where each counted ballot is, by event digest, so that a ballot
    /// sent twice gets the same receipt and the public can look one up:
    /// the receipt is rebuilt from the record in the file and signed when
    /// asked for (ed25519 signatures are deterministic: the same receipt
    /// gets the same signature). Some 16 bytes a ballot, not a copy of
    /// each receipt: a million ballots keep the daemon small.
    pub(crate) receipts: Mutex<asamblea_ledger::BallotIndex>,
    /// The live feed (SSE): JSON documents.
    pub(crate) feed: broadcast::Sender<FeedMessage>,
    /// The service's own limits (bodies, feeds) and the feed count.
    pub(crate) bounds: Arc<limits::Bounds>,
    /// The register as the desk searches it, with the holders' names from
    /// `register.csv`: built on the first search, not at start (a restart
    /// stays as small and quick as it can).
    pub(crate) directory: std::sync::OnceLock<directory::Directory>,
    /// Staff signed in from a browser (`sessions`).
    pub(crate) sessions: sessions::Sessions,
    /// Wrong staff tokens by client address: how many, since when.
    pub(crate) sign_in_failures: Mutex<HashMap<Option<std::net::IpAddr>, (u32, Instant)>>,
    /// Per-kiosk token buckets.
    pub(crate) buckets: Mutex<HashMap<String, Bucket>>,
    /// Per-kiosk rate: ballots per second and burst ([`KIOSK_RATE`] unless
    /// [`AppState::with_kiosk_rate`] set another).
    pub(crate) kiosk_rate: (AtomicU32, AtomicU32),
    /// Becomes true when the daemon is shutting down: live feeds end.
    pub(crate) closing: tokio::sync::watch::Sender<bool>,
    /// Set once the ledger failed, with why: every change is refused from
    /// then on, and the status stays the last one computed before.
    pub(crate) failed: Mutex<Option<asamblea_ledger::Cause>>,
    /// Asks the ledger's writer for its durable head, without the lock.
    pub(crate) tip: asamblea_ledger::TipHandle,
    /// The last head the daemon signed for observers (`type: head`).
    pub(crate) signed_head: Mutex<Option<asamblea_api::public::SignedHead>>,
    /// The last status computed while the ledger was healthy.
    pub(crate) last_status: Mutex<Option<asamblea_api::public::Status>>,
    /// Durable ballots per open item: counted once the ballot's commit
    /// returned, so the turnout shown never includes one still on its way
    /// to the disk (or lost with a failed commit).
    /// Ballots and the shares they weigh, per item.
    pub(crate) turnout: Mutex<HashMap<String, (u32, u64)>>,
    /// The ballots counted on each closed item whose list was asked for,
    /// read once from the file (`counted`).
    pub(crate) counted: Mutex<HashMap<String, counted::Counted>>,
    /// The remote attendees' registrations waiting for the desk
    /// (`remote::pending`): in memory, bounded, never in the ledger.
    pub(crate) registrations: remote::pending::Registrations,
    /// When each remote attendee was last heard (`remote::presence`).
    pub(crate) heartbeats: remote::presence::Heartbeats,
    /// A replicated meeting's nodes and the pages' policy naming them.
    pub(crate) nodes: nodes::Known,
    /// The session passes this node took from another (`passes`).
    pub(crate) passes: passes::Taken,
}

/// A token bucket, in thousandths of a request (integers only).
pub(crate) struct Bucket {
    millitokens: u64,
    at: Instant,
}

impl AppState {
    /// The state of an open meeting directory. Receipts of ballots stored
    /// before are re-issued from the ledger.
    pub fn new(
        mut service: Service,
        accounts: Accounts,
        kiosks: asamblea_pki::KioskRegistry,
    ) -> anyhow::Result<AppState> {
        let meeting_id = service.meeting_id();
        let ledger_path = service.dir().join("ledger.db");
        let daemon = service.daemon_keypair()?;
        let receipts = service.take_stored_ballots();
        let (feed, _) = broadcast::channel(256);
        let tip = service.tip_handle();
        // Every ballot in the state at start was read back from the file.
        let turnout = service
            .meeting()
            .items()
            .iter()
            .map(|item| (item.id().to_string(), (item.ballots(), item.shares_voted().get())))
            .collect();
        Ok(AppState(Arc::new(Inner {
            service: Mutex::new(service),
            meeting_id,
            ledger_path,
            daemon,
            accounts,
            kiosks,
            receipts: Mutex::new(receipts),
            feed,
            buckets: Mutex::new(HashMap::new()),
            sign_in_failures: Mutex::new(HashMap::new()),
            sessions: sessions::Sessions::default(),
            directory: std::sync::OnceLock::new(),
            kiosk_rate: (AtomicU32::new(KIOSK_RATE.0), AtomicU32::new(KIOSK_RATE.1)),
            bounds: Arc::new(limits::Bounds::new(ServiceLimits::default())),
            failed: Mutex::new(None),
            last_status: Mutex::new(None),
            signed_head: Mutex::new(None),
            tip,
            turnout: Mutex::new(turnout),
            counted: Mutex::new(HashMap::new()),
            registrations: remote::pending::Registrations::default(),
            heartbeats: remote::presence::Heartbeats::default(),
            nodes: nodes::Known::default(),
            passes: passes::Taken::default(),
            closing: tokio::sync::watch::channel(false).0,
        })))
    }

    /// The same state with another per-kiosk rate limit: `per_second` on
    /// average, `burst` at once. For `asamblea bench`, whose simulated
    /// kiosks each send far more than a real one; a meeting keeps
    /// [`KIOSK_RATE`].
    pub fn with_kiosk_rate(self, per_second: u32, burst: u32) -> AppState {
        self.0.kiosk_rate.0.store(per_second, Ordering::Relaxed);
        self.0.kiosk_rate.1.store(burst, Ordering::Relaxed);
        self
    }

    /// A ballot through the same path as `POST /api/v1/ballots` once the
    /// kiosk is identified and its rate checked: decode and strict
    /// signature check; the same ballot again, signed by its badge's key,
    /// gets its receipt; otherwise admission by the ledger's checks and the
    /// rules, group commit, and the daemon's signed receipt once durable. (The bench measures the pipeline
    /// ceiling through it.)
    pub async fn cast_ballot(
        &self,
        event: Vec<u8>,
        signer: &[u8],
        signature: &[u8],
    ) -> Result<(Receipt, Signature), ApiError> {
        kiosk::submit_ballot(self, event, signer, signature).await
    }

    /// The same state with other limits on request bodies and live-feed
    /// subscribers ([`ServiceLimits::default`] unless set).
    pub fn with_service_limits(self, limits: ServiceLimits) -> AppState {
        self.0.bounds.set(limits);
        self
    }

    /// The daemon's public key, which signs receipts and results.
    pub fn daemon_key(&self) -> asamblea_wire::PublicKey {
        self.0.daemon.public_key()
    }

    /// Runs `f` on the meeting, under the lock.
    pub fn with_service<T>(&self, f: impl FnOnce(&mut Service) -> T) -> T {
        let mut guard = self.0.service.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut guard)
    }

    /// Why the ledger failed, once it did (the daemon then refuses every
    /// change): a replicated meeting's leader stops serving then, so that
    /// another node takes the meeting.
    pub fn ledger_failure(&self) -> Option<asamblea_ledger::Cause> {
        *self.0.failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Ends every live feed (the daemon is shutting down).
    pub fn begin_shutdown(&self) {
        self.0.closing.send_replace(true);
    }

    /// Publishes the live status on the feed now.
    pub fn publish_status(&self) {
        let _ = self.0.feed.send(FeedMessage::now("status", public::status_message(self)));
    }

    /// Stops the ledger writer after the queued appends (graceful
    /// shutdown). Only the last clone of the state can do it; others
    /// return without waiting.
    pub fn close(self) {
        if let Ok(inner) = Arc::try_unwrap(self.0) {
            inner.service.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner).close();
        }
    }
}

impl Inner {
    /// [`Inner::staff`] for a sign-in from `peer`: a wrong token is logged
    /// with the client's address, and after [`SIGN_IN_FAILURES`] of them
    /// within [`SIGN_IN_WINDOW`] that address is refused (even with a good
    /// token) until the window has passed.
    pub(crate) fn sign_in(
        &self,
        headers: &HeaderMap,
        allowed: &[Role],
        peer: Option<std::net::IpAddr>,
    ) -> Result<&Account, ApiError> {
        self.throttled(peer)?;
        let result = self.staff(headers, allowed);
        if result.is_err() && bearer(headers).is_some_and(|t| self.accounts.authenticate(t).is_none()) {
            self.note_wrong_token(peer);
        }
        result
    }

    /// The account a token typed on the sign-in page opens, counted as a
    /// sign-in from `peer` like a bearer token ([`Inner::sign_in`]).
    pub(crate) fn check_token(
        &self,
        token: &str,
        peer: Option<std::net::IpAddr>,
    ) -> Result<&Account, ApiError> {
        self.throttled(peer)?;
        match self.accounts.authenticate(token) {
            Some(account) => Ok(account),
            None => {
                self.note_wrong_token(peer);
                Err(ApiError::unauthorized())
            }
        }
    }

    /// Refuses an address that sent [`SIGN_IN_FAILURES`] wrong tokens
    /// within [`SIGN_IN_WINDOW`].
    fn throttled(&self, peer: Option<std::net::IpAddr>) -> Result<(), ApiError> {
        let now = Instant::now();
        let mut failures = self.sign_in_failures.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        failures.retain(|_, (_, since)| now.duration_since(*since) < SIGN_IN_WINDOW);
        if failures.get(&peer).is_some_and(|(count, _)| *count >= SIGN_IN_FAILURES) {
            return Err(ApiError::new(
                asamblea_api::ErrorCode::TooManySignIns,
                "Demasiados intentos con una clave equivocada desde este equipo; espere un minuto y use la clave impresa al crear la reunión.",
                "Too many attempts with a wrong token from this device; wait a minute and use the token printed when the meeting was created.",
            ));
        }
        Ok(())
    }

    /// Counts a wrong token from `peer`, and logs it (with the address,
    /// never the token).
    fn note_wrong_token(&self, peer: Option<std::net::IpAddr>) {
        let mut failures = self.sign_in_failures.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let entry = failures.entry(peer).or_insert((0, Instant::now()));
        entry.0 += 1;
        let address = peer.map_or_else(|| "desconocida / unknown".to_string(), |ip| ip.to_string());
        tracing::warn!(
            peer.addr = %address,
            sign_in.failures = entry.0,
            "intento de acceso del personal con una clave equivocada / staff sign-in with a wrong token"
        );
    }

    /// The open session of the request's cookie, with its account.
    pub(crate) fn session(&self, headers: &HeaderMap) -> Option<(&Account, sessions::Session)> {
        let session = self.sessions.find(sessions::cookie(headers)?)?;
        let account = self.accounts.iter().find(|a| a.name == session.account)?;
        Some((account, session))
    }

    /// Whether the request carries a staff credential of any role.
    pub(crate) fn is_staff(&self, headers: &HeaderMap) -> bool {
        self.staff(headers, &Role::ALL).is_ok()
    }

    /// The staff account of the request, if its role is one of `allowed`:
    /// by its bearer token, or else by its session cookie (`sessions`).
    pub(crate) fn staff(&self, headers: &HeaderMap, allowed: &[Role]) -> Result<&Account, ApiError> {
        let account = match bearer(headers) {
            Some(token) => self.accounts.authenticate(token).ok_or_else(ApiError::unauthorized)?,
            None => self.session(headers).ok_or_else(ApiError::unauthorized)?.0,
        };
        if !allowed.contains(&account.role) {
            let names: Vec<&str> = allowed.iter().map(|r| r.code()).collect();
            return Err(ApiError::forbidden(account.role.code(), &names.join(", ")));
        }
        Ok(account)
    }

    /// Takes one token from a kiosk's bucket.
    pub(crate) fn rate_limit(&self, kiosk: &str) -> Result<(), ApiError> {
        let rate = self.kiosk_rate.0.load(Ordering::Relaxed);
        let burst = self.kiosk_rate.1.load(Ordering::Relaxed);
        self.take_token(kiosk, rate, burst)
    }

    /// Takes one token from a remote credential's bucket
    /// (`remote::REMOTE_RATE`).
    pub(crate) fn rate_limit_remote(&self, credential: asamblea_wire::CredentialId) -> Result<(), ApiError> {
        let (rate, burst) = remote::REMOTE_RATE;
        self.take_token(&format!("remote:{}", credential.0), rate, burst)
    }

    /// Takes one token from the bucket `name` refilled at `rate` a second
    /// up to `burst`. A kiosk's bucket is named by its id, a remote
    /// credential's `remote:N` (a kiosk id holds no colon).
    fn take_token(&self, name: &str, rate: u32, burst: u32) -> Result<(), ApiError> {
        let rate = u64::from(rate);
        let burst = u64::from(burst) * 1000;
        let mut buckets = self.buckets.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = Instant::now();
        if !buckets.contains_key(name) {
            buckets.insert(name.to_string(), Bucket { millitokens: burst, at: now });
        }
        let bucket = buckets.get_mut(name).expect("inserted above");
        let elapsed_us = u64::try_from(now.duration_since(bucket.at).as_micros()).unwrap_or(u64::MAX);
        bucket.millitokens =
            bucket.millitokens.saturating_add(elapsed_us.saturating_mul(rate) / 1000).min(burst);
        bucket.at = now;
        if bucket.millitokens < 1000 {
            return Err(ApiError::rate_limited());
        }
        bucket.millitokens -= 1000;
        Ok(())
    }
}

/// The daemon's routes, assembled from each caller's module (`routes`).
pub fn router(state: AppState) -> Router {
    let (people, kiosks) = routes::routers(&state);
    // Everything a browser or a desk reaches: bounded bodies, the staff
    // room, the security headers (`limits`). The kiosks' routes, the
    // ballot's hot path (none is a browser, and each holds its own few
    // connections), skip the headers and the staff room; behind their
    // gate their bodies are bounded as everyone's (`routes::routers`).
    let people = people
        .fallback(public::not_found)
        .layer(axum::middleware::from_fn_with_state(state.clone(), limits::bound_and_secure));
    people.merge(kiosks).layer(DefaultBodyLimit::max(MAX_BODY_BYTES)).with_state(state)
}

/// The internet listener's routes (`serve --public-listen`): the public's
/// alone (`routes::internet_router`), with the same bounded bodies and
/// security headers as on the venue's listener, and `404` for every other
/// path, the consoles' and the kiosks' among them.
pub fn internet_router(state: AppState) -> Router {
    routes::internet_router()
        .fallback(public::not_found)
        .layer(axum::middleware::from_fn_with_state(state.clone(), limits::bound_and_secure))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state)
}

/// Sends the live status on the feed twice a second while it changes:
/// quorum and turnout, never a running tally of an open poll. While a poll
/// is open it also signs the chain's durable head every
/// [`ServiceLimits::head_interval`] and publishes it (`{"type": "head",
/// "seq", "head", "signature"}`, and in the status), for observers to keep
/// as witnesses.
pub fn spawn_feed_ticker(state: AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut last = String::new();
        let mut last_status: Option<Instant> = None;
        let mut last_head: Option<(Instant, u64)> = None;
        let mut tick = tokio::time::interval(Duration::from_millis(500));
        loop {
            tick.tick().await;
            let due = last_head.is_none_or(|(at, _)| at.elapsed() >= state.0.bounds.head_interval());
            if due && state.is_open() {
                let signer = state.clone();
                if let Ok(Some(head)) = tokio::task::spawn_blocking(move || signer.sign_head()).await {
                    let seq = head.seq;
                    if last_head.is_none_or(|(_, before)| before != seq) {
                        let text = public::feed_text(&asamblea_api::public::FeedMessage::Head(head));
                        let _ = state.0.feed.send(FeedMessage::paced("head", text));
                    }
                    last_head = Some((Instant::now(), seq));
                }
            }
            let watchers = state.0.feed.receiver_count();
            if watchers == 0 || last_status.is_some_and(|at: Instant| at.elapsed() < feed_period(watchers)) {
                continue;
            }
            let status = public::status_message(&state);
            if status != last {
                let _ = state.0.feed.send(FeedMessage::paced("status", status.clone()));
                last = status;
                last_status = Some(Instant::now());
            }
        }
    })
}

impl AppState {
    /// Whether a poll is open.
    fn is_open(&self) -> bool {
        self.with_service(|service| service.meeting().items().iter().any(|item| !item.is_closed()))
    }

    /// Signs the durable head and keeps it for the status; `None` once the
    /// ledger failed. Waits for the queued ballots' commit, but without the
    /// meeting's lock, so ballots go on meanwhile.
    pub(crate) fn sign_head(&self) -> Option<asamblea_api::public::SignedHead> {
        let failed = || self.0.failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner).is_some();
        if failed() {
            return None;
        }
        let (seq, head) = self.0.tip.durable_tip().ok()?;
        let checkpoint = asamblea_wire::Checkpoint { seq, head };
        let signature = checkpoint.sign(&self.0.meeting_id, &self.0.daemon);
        let hex = asamblea_wire::hex::encode;
        let signed = asamblea_api::public::SignedHead {
            kind: asamblea_api::public::HeadType::Head,
            seq,
            head: hex(&head.0),
            signature: hex(&signature.0),
        };
        if failed() {
            return None;
        }
        *self.0.signed_head.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(signed.clone());
        // Kept beside the ledger too, for a quick start after a crash
        // (`asamblea_venue::checkpoints`); a lost line only slows it.
        if let Some(dir) = self.0.ledger_path.parent() {
            if let Err(e) = asamblea_venue::checkpoints::append(dir, &checkpoint, &signature) {
                tracing::warn!(error = %e, "no se guardó la cabeza firmada / the signed head was not kept");
            }
        }
        Some(signed)
    }
}

/// A hello-world at the ballot route: the same TLS, HTTP/1.1, kiosk
/// check, JSON body and a JSON answer the size of a receipt, and nothing
/// else. What the HTTP layer costs on this machine, for reading the ratio
/// of `asamblea bench`; never served by a meeting.
pub fn hello_router() -> axum::Router {
    let answer = asamblea_api::public::SignedReceipt {
        receipt: asamblea_api::public::ReceiptFields {
            seq: 123_456,
            head: "0".repeat(64),
            event: "1".repeat(64),
        },
        signature: "2".repeat(128),
    };
    axum::Router::new().route(
        "/api/v1/ballots",
        axum::routing::post(
            move |cert: Option<axum::Extension<crate::tls::ClientCert>>,
                  axum::Json(_): axum::Json<asamblea_api::kiosk::BallotRequest>| {
                let answer = answer.clone();
                async move {
                    match cert {
                        Some(_) => Ok(axum::Json(answer)),
                        None => Err(ApiError::kiosk_only()),
                    }
                }
            },
        ),
    )
}
