//! What the HTTP service bounds by itself, whatever the client does: the
//! time a request body may take and the size it may declare (on every
//! route, the kiosks' two too, [`bound_body`]), the number and age of
//! live-feed subscribers; and the security headers every answer carries —
//! on every route but the kiosks' two, which skip that layer
//! ([`crate::router`]). (Connections are bounded below, in
//! [`crate::tls::Limits`].)

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::{ApiError, AppState, MAX_BODY_BYTES};

/// How long a request's body may take to arrive once its headers have: a
/// ballot or a check-in is a few hundred bytes.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// How long one live-feed subscription lasts; then the stream ends and the
/// browser's `EventSource` connects again by itself. A subscriber that went
/// away without closing holds its slot this long at most.
pub const FEED_MAX_AGE: Duration = Duration::from_secs(600);

/// The service's own limits; see [`AppState::with_service_limits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServiceLimits {
    /// Live-feed subscribers at once. Below the connection cap for the
    /// public, so that watchers always leave room for the staff.
    pub max_feeds: usize,
    /// See [`FEED_MAX_AGE`].
    pub feed_max_age: Duration,
    /// See [`BODY_TIMEOUT`].
    pub body_timeout: Duration,
    /// How often, while a poll is open, the daemon signs the chain's head
    /// and publishes it on the live feed and in the status (see
    /// [`HEAD_INTERVAL`]).
    pub head_interval: Duration,
}

/// The default of [`ServiceLimits::head_interval`]: an observer who keeps
/// the signed heads (`asamblea verify --witness`) catches any later cut or
/// rewrite of the ledger before that point.
pub const HEAD_INTERVAL: Duration = Duration::from_secs(5);

impl ServiceLimits {
    /// Limits for a daemon that lets in `max_public` connections that are
    /// not kiosks': three quarters of them may be feeds.
    pub fn for_public_connections(max_public: usize) -> ServiceLimits {
        ServiceLimits {
            max_feeds: (max_public / 4 * 3).max(1),
            feed_max_age: FEED_MAX_AGE,
            body_timeout: BODY_TIMEOUT,
            head_interval: HEAD_INTERVAL,
        }
    }
}

impl Default for ServiceLimits {
    fn default() -> ServiceLimits {
        ServiceLimits::for_public_connections(crate::tls::Limits::default().max_public)
    }
}

/// The limits as the handlers read them (atomics: set once at start).
pub(crate) struct Bounds {
    max_feeds: AtomicUsize,
    feed_max_age_ms: AtomicU64,
    body_timeout_ms: AtomicU64,
    head_interval_ms: AtomicU64,
    /// Feed subscribers now.
    feeds: AtomicUsize,
    /// When a limit last said so in the log (ms since the Unix epoch).
    last_warned: AtomicU64,
}

/// A duration in whole milliseconds (saturating).
pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// The wall clock, in milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, millis)
}

impl Bounds {
    pub(crate) fn new(limits: ServiceLimits) -> Bounds {
        let bounds = Bounds {
            max_feeds: AtomicUsize::new(0),
            feed_max_age_ms: AtomicU64::new(0),
            body_timeout_ms: AtomicU64::new(0),
            head_interval_ms: AtomicU64::new(0),
            feeds: AtomicUsize::new(0),
            last_warned: AtomicU64::new(0),
        };
        bounds.set(limits);
        bounds
    }

    pub(crate) fn set(&self, limits: ServiceLimits) {
        self.max_feeds.store(limits.max_feeds, Ordering::Relaxed);
        self.feed_max_age_ms.store(millis(limits.feed_max_age), Ordering::Relaxed);
        self.body_timeout_ms.store(millis(limits.body_timeout), Ordering::Relaxed);
        self.head_interval_ms.store(millis(limits.head_interval), Ordering::Relaxed);
    }

    pub(crate) fn head_interval(&self) -> Duration {
        Duration::from_millis(self.head_interval_ms.load(Ordering::Relaxed))
    }

    pub(crate) fn feed_max_age(&self) -> Duration {
        Duration::from_millis(self.feed_max_age_ms.load(Ordering::Relaxed))
    }

    /// Logs that a limit bit, once a second at most.
    fn bit(&self, message: std::fmt::Arguments<'_>) {
        let now = now_ms();
        let before = self.last_warned.load(Ordering::Relaxed);
        if now.saturating_sub(before) >= 1000
            && self.last_warned.compare_exchange(before, now, Ordering::Relaxed, Ordering::Relaxed).is_ok()
        {
            tracing::warn!("{message}");
        }
    }

    /// A slot for one more feed subscriber, or `None` at the cap.
    pub(crate) fn feed_slot(self: &std::sync::Arc<Self>) -> Option<FeedSlot> {
        let max = self.max_feeds.load(Ordering::Relaxed);
        let taken =
            self.feeds.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < max).then_some(n + 1));
        match taken {
            Ok(_) => Some(FeedSlot(std::sync::Arc::clone(self))),
            Err(_) => {
                self.bit(format_args!(
                    "se rechazan suscriptores del tablero en vivo: ya hay {max} (máximo) / refusing live-feed subscribers: {max} already (the limit)"
                ));
                None
            }
        }
    }
}

/// One live-feed subscriber; its slot is given back when dropped.
pub(crate) struct FeedSlot(std::sync::Arc<Bounds>);

impl Drop for FeedSlot {
    fn drop(&mut self) {
        self.0.feeds.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The security headers of every answer. The pages load only what the
/// daemon itself serves (no inline script or style), are never framed, and
/// a browser that once reached the daemon over HTTPS keeps to it. No
/// answer is kept by the browser (`Cache-Control: no-store`): the
/// consoles, the register's names (`/api/v1/attendees`,
/// `/api/v1/holders`) and the tokens would otherwise stay on a shared
/// desk's disk after sign-out; the few static files are small, and the
/// daemon is on the venue's own network.
fn secure(response: &mut Response, policy: HeaderValue) {
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    let set = |headers: &mut axum::http::HeaderMap, name, value: &'static str| {
        headers.insert(name, HeaderValue::from_static(value));
    };
    set(headers, header::STRICT_TRANSPORT_SECURITY, "max-age=31536000");
    // Only what the daemon serves; in a replicated meeting the pages may
    // also ask the other nodes whether they serve (`nodes`).
    headers.insert(header::CONTENT_SECURITY_POLICY, policy);
    set(headers, header::X_FRAME_OPTIONS, "DENY");
    set(headers, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(headers, header::REFERRER_POLICY, "no-referrer");
}

/// Every request but the kiosks' (see [`crate::router`]): on a connection
/// in the staff's room, only a request with a staff credential; a declared
/// body over [`MAX_BODY_BYTES`] is refused before a byte of it is read, and
/// a body that takes longer than the body time-out to arrive gets `408`;
/// every answer gets the security headers.
pub(crate) async fn bound_and_secure(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let bounds = &state.0.bounds;
    if request.extensions().get::<crate::tls::StaffOnly>().is_some() && !state.0.is_staff(request.headers()) {
        bounds.bit(format_args!(
            "el lugar del público está lleno: en el lugar reservado al personal se atiende solo al personal / the public's room is full: the staff's room serves staff only"
        ));
        let mut response = ApiError::new(
            asamblea_api::ErrorCode::ServerFull,
            "El servicio está lleno para el público; vuelva a intentarlo en un momento.",
            "The service is full for the public; try again in a moment.",
        )
        .into_response();
        response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        secure(&mut response, state.0.nodes.policy());
        return response;
    }
    let mut response = match within_body_limits(bounds, request).await {
        Ok(request) => next.run(request).await,
        Err(refused) => refused,
    };
    secure(&mut response, state.0.nodes.policy());
    response
}

/// The kiosks' routes (see [`crate::router`]): only the body's bounds of
/// [`bound_and_secure`] — a declared body over [`MAX_BODY_BYTES`] refused
/// unread, one that takes longer than the body time-out cut off with
/// `408` — so a kiosk (or whoever holds a kiosk's certificate) that stops
/// sending its body frees its connection as any other caller does. No
/// security headers: no browser reads these answers.
pub(crate) async fn bound_body(State(state): State<AppState>, request: Request, next: Next) -> Response {
    match within_body_limits(&state.0.bounds, request).await {
        Ok(request) => next.run(request).await,
        Err(refused) => refused,
    }
}

/// `request` with its body read whole within the body time-out and
/// [`MAX_BODY_BYTES`], or the answer that refuses it: a declared body
/// over the limit unread (413), one that stops arriving (408), one cut
/// short (400). A `GET` or a declared empty body passes as it is.
async fn within_body_limits(bounds: &Bounds, request: Request) -> Result<Request, Response> {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|length| length > MAX_BODY_BYTES as u64) {
        bounds.bit(format_args!(
            "se rechaza una solicitud que declara un cuerpo de {} bytes (máximo {MAX_BODY_BYTES}) / refusing a request that declares a body of {} bytes (limit {MAX_BODY_BYTES})",
            declared.unwrap_or(0),
            declared.unwrap_or(0)
        ));
        return Err(crate::access::too_large().into_response());
    }
    if declared == Some(0) || request.method() == axum::http::Method::GET {
        return Ok(request);
    }
    let timeout = Duration::from_millis(bounds.body_timeout_ms.load(Ordering::Relaxed));
    let (parts, body) = request.into_parts();
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, MAX_BODY_BYTES)).await {
        Ok(Ok(bytes)) => Ok(Request::from_parts(parts, Body::from(bytes))),
        Ok(Err(error)) => {
            let over = error.into_inner().downcast_ref::<http_body_util::LengthLimitError>().is_some();
            Err(if over {
                crate::access::too_large().into_response()
            } else {
                ApiError::bad_request("el cuerpo llegó incompleto", "the body was cut short").into_response()
            })
        }
        Err(_) => {
            bounds.bit(format_args!(
                "se cortó una solicitud cuyo cuerpo no llegó en {} s / cut off a request whose body did not arrive within {} s",
                timeout.as_secs(),
                timeout.as_secs()
            ));
            Err(ApiError::new(
                asamblea_api::ErrorCode::BodyTimeout,
                format!("El cuerpo de la solicitud no llegó en {} s; envíelo de nuevo.", timeout.as_secs()),
                format!("The request body did not arrive within {} s; send it again.", timeout.as_secs()),
            )
            .into_response())
        }
    }
}
