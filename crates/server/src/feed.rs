//! The live feed's messages and each subscriber's stream of them.
//!
//! A message is an **event** (a poll opened or closed, an arrival, a
//! result: [`crate::AppState::publish_status`]), which goes to every
//! subscriber at once, or a **paced** update (the ticker's turnout and
//! signed heads), which each subscriber receives at its own moment within
//! [`feed_period`]: thousands of watchers never wake at the same instant
//! ahead of a kiosk's ballot (`asamblea bench --subscribers` measures it).
//! While a subscriber waits for its moment, a newer update of the same kind
//! replaces the one waiting, and an event goes out at once (it makes the
//! waiting updates of its kind needless; those of another kind are sent
//! right after it).

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::broadcast::{self, error::RecvError};

/// One message of the live feed, the same text for every subscriber.
#[derive(Clone, Debug)]
pub(crate) struct FeedMessage {
    /// `status`, `head` or `result`: its `type`.
    pub(crate) kind: &'static str,
    pub(crate) text: Arc<str>,
    pub(crate) paced: bool,
}

impl FeedMessage {
    /// An event: to every subscriber at once.
    pub(crate) fn now(kind: &'static str, text: String) -> FeedMessage {
        FeedMessage { kind, text: text.into(), paced: false }
    }

    /// A paced update.
    pub(crate) fn paced(kind: &'static str, text: String) -> FeedMessage {
        FeedMessage { kind, text: text.into(), paced: true }
    }
}

/// Subscriber messages a second the ticker's updates may cost in all.
pub const FEED_MESSAGES_PER_SECOND: usize = 2_000;

/// How often the ticker's updates go out to `watchers` subscribers: twice
/// a second, or less often once more than a thousand watch, so that the
/// updates cost at most [`FEED_MESSAGES_PER_SECOND`] messages a second
/// (5.000 watchers: every 2,5 s). Events are not paced.
pub(crate) fn feed_period(watchers: usize) -> Duration {
    let per_watcher = Duration::from_secs(1) / FEED_MESSAGES_PER_SECOND as u32;
    (per_watcher * u32::try_from(watchers).unwrap_or(u32::MAX)).max(Duration::from_millis(500))
}

/// One subscriber's feed: what it is sent, in order.
pub(crate) struct Subscription<S> {
    receiver: broadcast::Receiver<FeedMessage>,
    /// To count the subscribers (the period grows with them).
    feed: broadcast::Sender<FeedMessage>,
    closing: tokio::sync::watch::Receiver<bool>,
    expiry: Pin<Box<tokio::time::Sleep>>,
    /// This subscriber's moment within each period, in thousandths.
    phase: u32,
    /// Updates overtaken by an event, sent next.
    backlog: VecDeque<FeedMessage>,
    /// Held for as long as the subscription lives (the feed's cap).
    _slot: S,
}

impl<S> Subscription<S> {
    pub(crate) fn new(
        feed: &broadcast::Sender<FeedMessage>,
        closing: tokio::sync::watch::Receiver<bool>,
        max_age: Duration,
        slot: S,
    ) -> Subscription<S> {
        // Spread evenly over the subscribers: the golden ratio's fraction.
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let phase = NEXT.fetch_add(618, std::sync::atomic::Ordering::Relaxed) % 1000;
        Subscription {
            receiver: feed.subscribe(),
            feed: feed.clone(),
            closing,
            expiry: Box::pin(tokio::time::sleep(max_age)),
            phase,
            backlog: VecDeque::new(),
            _slot: slot,
        }
    }

    /// The next message to send; `None` when the subscription ends (the
    /// daemon stops, the subscription's age is up, the feed is gone).
    pub(crate) async fn next(&mut self) -> Option<Arc<str>> {
        loop {
            if *self.closing.borrow() {
                return None;
            }
            if let Some(waiting) = self.backlog.pop_front() {
                return Some(waiting.text);
            }
            let message = tokio::select! {
                message = self.receiver.recv() => match message {
                    Ok(message) => message,
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => return None,
                },
                changed = self.closing.changed() => {
                    if changed.is_err() || *self.closing.borrow() {
                        return None;
                    }
                    continue;
                }
                () = &mut self.expiry => return None,
            };
            if !message.paced {
                return Some(message.text);
            }
            return self.at_my_moment(message).await;
        }
    }

    /// `update` at this subscriber's moment in the period, unless an event
    /// comes first.
    async fn at_my_moment(&mut self, mut update: FeedMessage) -> Option<Arc<str>> {
        let period = feed_period(self.feed.receiver_count());
        let moment = tokio::time::Instant::now() + period * self.phase / 1000;
        loop {
            tokio::select! {
                () = tokio::time::sleep_until(moment) => return Some(update.text),
                newer = self.receiver.recv() => match newer {
                    Ok(newer) if newer.paced && newer.kind == update.kind => update = newer,
                    Ok(newer) if newer.paced => self.keep(newer),
                    Ok(event) => {
                        // Updates of the event's kind are now old news.
                        self.backlog.retain(|waiting| waiting.kind != event.kind);
                        if update.kind != event.kind {
                            self.keep(update);
                        }
                        return Some(event.text);
                    }
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => return None,
                },
                changed = self.closing.changed() => {
                    if changed.is_err() || *self.closing.borrow() {
                        return None;
                    }
                }
            }
        }
    }

    /// Keeps `update` to send next, in place of a waiting one of its kind.
    fn keep(&mut self, update: FeedMessage) {
        match self.backlog.iter_mut().find(|waiting| waiting.kind == update.kind) {
            Some(waiting) => *waiting = update,
            None => self.backlog.push_back(update),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(kind: &'static str, text: &str, paced: bool) -> FeedMessage {
        FeedMessage { kind, text: text.into(), paced }
    }

    #[test]
    fn the_feeds_paced_updates_cost_at_most_their_budget_and_come_twice_a_second_to_few() {
        assert_eq!(feed_period(0), Duration::from_millis(500));
        assert_eq!(feed_period(1_000), Duration::from_millis(500));
        assert_eq!(feed_period(5_000), Duration::from_millis(2_500));
        for watchers in [1_001, 5_000, 12_000] {
            let per_second = watchers as f64 / feed_period(watchers).as_secs_f64();
            assert!(per_second <= FEED_MESSAGES_PER_SECOND as f64 + 1e-6, "{watchers}: {per_second}");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn an_event_overtakes_a_waiting_update_and_an_update_of_another_kind_is_not_lost() {
        let (feed, _) = broadcast::channel(16);
        let (_closing, closing) = tokio::sync::watch::channel(false);
        // Several subscribers, so that one has its moment past the start.
        let mut subscribers: Vec<Subscription<()>> =
            (0..3).map(|_| Subscription::new(&feed, closing.clone(), Duration::from_secs(600), ())).collect();
        let late = subscribers.iter_mut().find(|s| s.phase > 0).expect("a subscriber with a later moment");
        feed.send(message("head", "head-1", true)).unwrap();
        feed.send(message("status", "status-1", true)).unwrap();
        feed.send(message("status", "closed", false)).unwrap();
        // The event first; then the head that waited; the status update the
        // event made needless is never sent.
        assert_eq!(late.next().await.as_deref(), Some("closed"));
        assert_eq!(late.next().await.as_deref(), Some("head-1"));
        feed.send(message("status", "status-2", true)).unwrap();
        feed.send(message("status", "status-3", true)).unwrap();
        let started = tokio::time::Instant::now();
        assert_eq!(late.next().await.as_deref(), Some("status-3"), "a newer update replaces the one waiting");
        assert!(started.elapsed() <= feed_period(3), "within the period");
        assert!(started.elapsed() > Duration::ZERO, "at its own moment, not at once");
    }
}
