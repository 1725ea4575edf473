//! A remote attendee's presence held by heartbeats (`rules.md` HY-5,
//! `docs/ledger-format.md` §3.29–3.30): their browser signs one every
//! `heartbeat_seconds` of the meeting's modality; past `timeout_seconds`
//! without one, the daemon records `presence-lapsed` and the quorum drops
//! at once. The heartbeats themselves are kept in memory only: the ledger
//! records the lapse, with how long the silence was.
//!
//! A restart forgets when each was last heard: every remote attendee the
//! ledger shows present is taken as heard at the start, so a restart
//! never declares anyone gone (they have a whole timeout to be heard).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use asamblea_wire::CredentialId;

/// When each present remote attendee was last heard, and the last counter
/// taken from each credential.
#[derive(Default)]
pub(crate) struct Heartbeats {
    inner: Mutex<Heard>,
}

#[derive(Default)]
struct Heard {
    /// The credentials whose person attends remotely, by when last heard.
    present: HashMap<CredentialId, Instant>,
    /// The last counter taken from each credential (kept after a
    /// departure: an old heartbeat sent again proves nothing).
    counters: HashMap<CredentialId, u64>,
    /// Whether the ledger's present remote attendees were taken in.
    seeded: bool,
}

/// A heartbeat whose counter is not above the last one taken.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Stale;

impl Heartbeats {
    fn lock(&self) -> std::sync::MutexGuard<'_, Heard> {
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `credential`'s person arrived remotely at `now`: heard then.
    pub(crate) fn arrived(&self, credential: CredentialId, now: Instant) {
        self.lock().present.insert(credential, now);
    }

    /// `credential`'s person left (or lapsed): no longer watched.
    pub(crate) fn left(&self, credential: CredentialId) {
        self.lock().present.remove(&credential);
    }

    /// A heartbeat with `counter` from `credential` at `now`; it holds the
    /// presence when its person attends remotely.
    pub(crate) fn beat(&self, credential: CredentialId, counter: u64, now: Instant) -> Result<(), Stale> {
        let mut heard = self.lock();
        let last = heard.counters.entry(credential).or_insert(0);
        if counter <= *last {
            return Err(Stale);
        }
        *last = counter;
        if let Some(at) = heard.present.get_mut(&credential) {
            *at = now;
        }
        Ok(())
    }

    /// Takes in, once, the remote attendees the ledger shows present (at a
    /// start), as heard at `now`.
    pub(crate) fn seed(&self, present: impl IntoIterator<Item = CredentialId>, now: Instant) {
        let mut heard = self.lock();
        if heard.seeded {
            return;
        }
        heard.seeded = true;
        for credential in present {
            heard.present.entry(credential).or_insert(now);
        }
    }

    /// Whether the ledger's present remote attendees were taken in.
    pub(crate) fn seeded(&self) -> bool {
        self.lock().seeded
    }

    /// The credentials not heard for `timeout` or more at `now`, with how
    /// long each was silent, oldest silence first.
    pub(crate) fn silent(&self, now: Instant, timeout: Duration) -> Vec<(CredentialId, Duration)> {
        let heard = self.lock();
        let mut silent: Vec<(CredentialId, Duration)> = heard
            .present
            .iter()
            .map(|(&credential, &at)| (credential, now.saturating_duration_since(at)))
            .filter(|(_, silence)| *silence >= timeout)
            .collect();
        silent.sort_by(|a, b| b.1.cmp(&a.1).then(a.0 .0.cmp(&b.0 .0)));
        silent
    }

    /// How long `credential` has been silent at `now`, if watched.
    pub(crate) fn silence(&self, credential: CredentialId, now: Instant) -> Option<Duration> {
        self.lock().present.get(&credential).map(|&at| now.saturating_duration_since(at))
    }
}

impl crate::AppState {
    /// Records `presence-lapsed` for every remote attendee not heard for
    /// the meeting's presence timeout at `now`, each in its own record (the
    /// kiosks' ballots go between them); how many. The daemon's watch
    /// calls it every second; a test calls it with a later `now`.
    pub fn lapse_silent(&self, now: Instant) -> usize {
        let timeout = self.with_service(|service| {
            let ledger = service.state();
            if !ledger.remote_attendance_allowed() {
                return None;
            }
            if !self.0.heartbeats.seeded() {
                self.0.heartbeats.seed(ledger.remote_present(), now);
            }
            ledger.convened_modality().map(|m| Duration::from_secs(u64::from(m.presence.timeout_seconds)))
        });
        let Some(timeout) = timeout else { return 0 };
        let mut lapsed = 0;
        for (credential, _) in self.0.heartbeats.silent(now, timeout) {
            let recorded = self.with_service(|service| {
                // Heard since the list was made: still present.
                let silence = self.0.heartbeats.silence(credential, now)?;
                if silence < timeout {
                    return None;
                }
                let silent_ms = u64::try_from(silence.as_millis()).unwrap_or(u64::MAX);
                let recorded = service.lapse_presence(credential, silent_ms);
                // Forgotten under the same lock: an arrival recorded just
                // after it (the page coming back) is heard afresh, never
                // forgotten by this lapse.
                if matches!(recorded, Ok(_) | Err(asamblea_venue::service::ActionError::Rejected(_))) {
                    self.0.heartbeats.left(credential);
                }
                Some(recorded)
            });
            match recorded {
                None => {}
                Some(Ok(appended)) => {
                    lapsed += 1;
                    tracing::info!(
                        event.seq = appended.seq,
                        badge.number = credential.0,
                        "presencia a distancia perdida: sin señal de vida en el plazo / remote presence lapsed: no heartbeat within the timeout"
                    );
                }
                Some(Err(asamblea_venue::service::ActionError::Rejected(rejection))) => {
                    // Left by other means meanwhile (the desk, a move to
                    // the room): nothing to lapse.
                    tracing::debug!(badge.number = credential.0, %rejection, "no se registra la pérdida / no lapse recorded");
                }
                Some(Err(e)) => {
                    // The ledger failed: the daemon refuses every change
                    // from now on, and says so once.
                    let _ = crate::meeting::action_error(self, e);
                    break;
                }
            }
        }
        if lapsed > 0 {
            self.publish_status();
        }
        lapsed
    }
}

/// Declares lapsed, every second, the remote attendees silent past the
/// meeting's timeout (HY-5).
pub fn spawn_presence_watch(state: crate::AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let watcher = state.clone();
            let _ = tokio::task::spawn_blocking(move || watcher.lapse_silent(Instant::now())).await;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIMEOUT: Duration = Duration::from_secs(300);

    #[test]
    fn silence_is_counted_from_the_last_heartbeat_and_lapses_at_the_timeout_exactly() {
        let heartbeats = Heartbeats::default();
        let t0 = Instant::now();
        heartbeats.arrived(CredentialId(1), t0);
        heartbeats.arrived(CredentialId(2), t0);
        heartbeats.beat(CredentialId(2), 10, t0 + Duration::from_secs(60)).expect("newer");
        let at = |s| t0 + Duration::from_secs(s);
        assert!(heartbeats.silent(at(299), TIMEOUT).is_empty(), "a second short");
        assert_eq!(heartbeats.silent(at(300), TIMEOUT), vec![(CredentialId(1), TIMEOUT)], "at the timeout");
        assert_eq!(heartbeats.silence(CredentialId(2), at(300)), Some(Duration::from_secs(240)));
        assert_eq!(
            heartbeats.silent(at(400), TIMEOUT),
            vec![(CredentialId(1), Duration::from_secs(400)), (CredentialId(2), Duration::from_secs(340))],
            "the longest silence first"
        );
        heartbeats.left(CredentialId(1));
        assert_eq!(heartbeats.silent(at(400), TIMEOUT), vec![(CredentialId(2), Duration::from_secs(340))]);
    }

    #[test]
    fn a_heartbeat_counts_once_and_never_an_older_one() {
        let heartbeats = Heartbeats::default();
        let t0 = Instant::now();
        heartbeats.arrived(CredentialId(1), t0);
        heartbeats.beat(CredentialId(1), 5, t0).expect("the first");
        assert_eq!(heartbeats.beat(CredentialId(1), 5, t0 + TIMEOUT), Err(Stale), "the same again");
        assert_eq!(heartbeats.beat(CredentialId(1), 4, t0 + TIMEOUT), Err(Stale), "an older one");
        assert_eq!(heartbeats.silence(CredentialId(1), t0 + TIMEOUT), Some(TIMEOUT), "neither held it");
        // After leaving and coming back, an old counter is still refused.
        heartbeats.left(CredentialId(1));
        heartbeats.arrived(CredentialId(1), t0 + TIMEOUT);
        assert_eq!(heartbeats.beat(CredentialId(1), 5, t0 + TIMEOUT), Err(Stale));
        heartbeats.beat(CredentialId(1), 6, t0 + TIMEOUT).expect("newer");
        // A heartbeat of someone not present is taken (its counter) and
        // holds nothing.
        heartbeats.beat(CredentialId(9), 1, t0).expect("taken");
        assert_eq!(heartbeats.silence(CredentialId(9), t0), None);
    }

    #[test]
    fn a_start_takes_the_present_as_heard_then_and_only_once() {
        let heartbeats = Heartbeats::default();
        let t0 = Instant::now();
        heartbeats.arrived(CredentialId(3), t0);
        heartbeats.seed([CredentialId(1), CredentialId(3)], t0 + TIMEOUT);
        assert!(heartbeats.seeded());
        assert_eq!(heartbeats.silence(CredentialId(1), t0 + TIMEOUT), Some(Duration::ZERO));
        assert_eq!(heartbeats.silence(CredentialId(3), t0 + TIMEOUT), Some(TIMEOUT), "already heard: kept");
        heartbeats.seed([CredentialId(2)], t0);
        assert_eq!(heartbeats.silence(CredentialId(2), t0), None, "seeded once");
    }
}
