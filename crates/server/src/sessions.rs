//! Staff sessions for the consoles in a browser.
//!
//! A staff member signs in once on `/personal` with the token printed when
//! the meeting was created, posted in a form body (never in a URL, never
//! logged). The daemon answers with a session cookie (`Secure`,
//! `HttpOnly`, `SameSite=Strict`, path `/`), and the consoles and the API
//! then take the cookie in place of the bearer token.
//!
//! Why the printed token and not a password or a one-time code: the
//! tokens already exist, one per role, drawn by `init` with 192 bits of
//! randomness and kept only as digests (`staff.toml`); a password would
//! be a second secret to set up before the meeting, weaker and typed at a
//! public desk, and a one-time code needs a second channel the venue does
//! not have. The token is typed once a day per console; the session it
//! opens is what the browser keeps.
//!
//! Cross-site requests: the cookie is `SameSite=Strict`, so no other site
//! can send it; on top of that, every state-changing request that a
//! cookie authenticates must carry the session's CSRF token (the header
//! [`CSRF_HEADER`] from the consoles' scripts, or the form field `csrf`),
//! and a form posted from another site is refused ([`same_origin`]:
//! `Sec-Fetch-Site`, or else `Origin`). A bearer token needs neither: a browser never attaches one by
//! itself.
//!
//! A session lasts while used: [`IDLE`] without a request ends it, as does
//! signing out, and so does a 65th sign-in of the same account (its own
//! oldest session goes; another role's never does). Sessions live in memory: a restart of the daemon signs
//! everyone out (the consoles send them back to `/personal`).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use asamblea_wire::Digest;
use axum::http::HeaderMap;

/// The session cookie's name.
pub(crate) const COOKIE: &str = "asamblea_personal";
/// The header a console's script sends the CSRF token in.
pub(crate) const CSRF_HEADER: &str = "x-asamblea-csrf";
/// A session unused this long is over.
pub(crate) const IDLE: Duration = Duration::from_secs(8 * 3600);
/// Sessions one account (so one role: the accounts are `staff.toml`'s,
/// one a role) keeps open at once: that account's oldest goes first past
/// it. Per account, never across them, so one token signed in again and
/// again ends only its own sessions, never another role's; and the table
/// holds at most this many per account, a few hundred in all.
const MAX_SESSIONS_PER_ACCOUNT: usize = 64;

/// A signed-in staff member.
#[derive(Clone, Debug)]
pub(crate) struct Session {
    /// The account's name.
    pub(crate) account: String,
    /// The token every state-changing request of this session carries.
    pub(crate) csrf: String,
    last_seen: Instant,
    /// The order sessions were opened in: the older of two used at the
    /// same instant goes first.
    opened: u64,
}

/// The number of the next session opened.
static OPENED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The open sessions, by the SHA-256 of their cookie (a memory dump shows
/// no live cookie).
#[derive(Default)]
pub(crate) struct Sessions(Mutex<HashMap<Digest, Session>>);

impl Sessions {
    /// Opens a session for `account`; its cookie value and CSRF token.
    pub(crate) fn open(&self, account: &str) -> (String, String) {
        let cookie = asamblea_wire::hex::encode(&asamblea_venue::secrets::random::<32>());
        let csrf = asamblea_wire::hex::encode(&asamblea_venue::secrets::random::<32>());
        let mut sessions = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = Instant::now();
        sessions.retain(|_, s| now.duration_since(s.last_seen) < IDLE);
        let own = sessions.values().filter(|s| s.account == account).count();
        if own >= MAX_SESSIONS_PER_ACCOUNT {
            let oldest = sessions
                .iter()
                .filter(|(_, s)| s.account == account)
                .min_by_key(|(_, s)| (s.last_seen, s.opened))
                .map(|(k, _)| *k);
            if let Some(oldest) = oldest {
                sessions.remove(&oldest);
            }
        }
        let opened = OPENED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let session = Session { account: account.to_string(), csrf: csrf.clone(), last_seen: now, opened };
        sessions.insert(Digest::sha256(cookie.as_bytes()), session);
        (cookie, csrf)
    }

    /// The session of a cookie value, if it is open (and now used).
    pub(crate) fn find(&self, cookie: &str) -> Option<Session> {
        let mut sessions = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let key = Digest::sha256(cookie.as_bytes());
        let now = Instant::now();
        match sessions.get_mut(&key) {
            Some(session) if now.duration_since(session.last_seen) < IDLE => {
                session.last_seen = now;
                Some(session.clone())
            }
            Some(_) => {
                sessions.remove(&key);
                None
            }
            None => None,
        }
    }

    /// Whether `account` holds an open session here.
    pub(crate) fn holds(&self, account: &str) -> bool {
        let now = Instant::now();
        let sessions = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        sessions.values().any(|s| s.account == account && now.duration_since(s.last_seen) < IDLE)
    }

    /// Ends the session of a cookie value.
    pub(crate) fn close(&self, cookie: &str) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&Digest::sha256(cookie.as_bytes()));
    }
}

/// The session cookie's value in a request, if any.
pub(crate) fn cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim())
}

/// The `Set-Cookie` value that keeps a session.
pub(crate) fn set_cookie(value: &str) -> String {
    format!("{COOKIE}={value}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age={}", IDLE.as_secs())
}

/// The `Set-Cookie` value that drops it.
pub(crate) fn clear_cookie() -> String {
    format!("{COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0")
}

/// Whether `given` is the session's CSRF token (compared in constant time).
pub(crate) fn csrf_matches(session: &Session, given: &str) -> bool {
    let (a, b) = (session.csrf.as_bytes(), given.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether a form post comes from this site. A browser says so in
/// `Sec-Fetch-Site` (`same-origin`, or `none` for what the user typed);
/// one that does not send it may send `Origin`, which must then name the
/// host the request was sent to. (With this daemon's `Referrer-Policy:
/// no-referrer` a browser sends `Origin: null` even for its own forms,
/// so `null` decides nothing.) A client that sends neither is not a
/// browser on another site: it is let through, and the session's CSRF
/// token still guards every change.
pub(crate) fn same_origin(headers: &HeaderMap) -> bool {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site) = header("sec-fetch-site") {
        return site == "same-origin" || site == "none";
    }
    match header("origin") {
        None | Some("null") => true,
        Some(origin) => {
            let host = header("host").unwrap_or("");
            origin.strip_prefix("https://").is_some_and(|o| o.eq_ignore_ascii_case(host))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_opens_is_found_by_its_cookie_and_closes() {
        let sessions = Sessions::default();
        let (cookie, csrf) = sessions.open("presidente");
        assert_eq!(cookie.len(), 64);
        let found = sessions.find(&cookie).expect("open");
        assert_eq!(found.account, "presidente");
        assert!(csrf_matches(&found, &csrf));
        assert!(!csrf_matches(&found, &csrf[..63]));
        assert!(!csrf_matches(&found, &"0".repeat(64)));
        assert!(sessions.find(&"0".repeat(64)).is_none());
        sessions.close(&cookie);
        assert!(sessions.find(&cookie).is_none());
    }

    #[test]
    fn one_roles_sign_ins_never_end_anothers_session() {
        let sessions = Sessions::default();
        let (desk, _) = sessions.open("registro");
        let chair: Vec<String> = (0..520).map(|_| sessions.open("presidente").0).collect();
        assert!(sessions.find(&desk).is_some(), "520 sign-ins of the chair's token signed the desk out");
        // The chair's own oldest sessions went, its newest stay.
        assert!(sessions.find(&chair[0]).is_none(), "the oldest of a role past its cap is ended");
        assert!(sessions.find(&chair[519]).is_some());
        let open =
            |account: &str| sessions.0.lock().unwrap().values().filter(|s| s.account == account).count();
        assert_eq!(open("presidente"), MAX_SESSIONS_PER_ACCOUNT);
        assert_eq!(open("registro"), 1);
    }

    #[test]
    fn the_cookie_is_read_among_others_and_set_with_every_flag() {
        let mut headers = HeaderMap::new();
        headers.insert(axum::http::header::COOKIE, "a=1; asamblea_personal=abc ; b=2".parse().unwrap());
        assert_eq!(cookie(&headers), Some("abc"));
        let set = set_cookie("abc");
        for flag in ["Secure", "HttpOnly", "SameSite=Strict", "Path=/"] {
            assert!(set.contains(flag), "{set}");
        }
        assert!(clear_cookie().contains("Max-Age=0"));
    }

    #[test]
    fn a_form_from_another_origin_is_told_apart() {
        let mut headers = HeaderMap::new();
        headers.insert(axum::http::header::HOST, "urna.local:8443".parse().unwrap());
        assert!(same_origin(&headers), "no Origin: a same-site navigation");
        headers.insert(axum::http::header::ORIGIN, "https://urna.local:8443".parse().unwrap());
        assert!(same_origin(&headers));
        headers.insert(axum::http::header::ORIGIN, "https://evil.example".parse().unwrap());
        assert!(!same_origin(&headers));
        headers.insert(axum::http::header::ORIGIN, "http://urna.local:8443".parse().unwrap());
        assert!(!same_origin(&headers), "not over HTTPS");
        headers.insert(axum::http::header::ORIGIN, "null".parse().unwrap());
        assert!(same_origin(&headers), "no-referrer: a browser's own form says null");
        headers.insert("sec-fetch-site", "cross-site".parse().unwrap());
        assert!(!same_origin(&headers), "the browser says it came from another site");
        headers.insert("sec-fetch-site", "same-origin".parse().unwrap());
        assert!(same_origin(&headers));
    }
}
