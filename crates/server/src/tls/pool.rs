//! How many connections anyone may hold: the limits of the serving layer
//! ([`Limits`]) and the pools that count connections against them
//! ([`Pool`]), with the rule that keeps a flood of silent connections from
//! pushing the kiosks and the staff out (see [`Limits`]).

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::oneshot;

/// How long a client has to complete the TLS handshake after connecting. A
/// silent or plain-HTTP client holds only its own task and one handshake
/// slot, and only this long.
/// The default of [`Limits::handshake_timeout`].
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a client has to send a request's headers, counted from when the
/// connection is ready for the next request: it is also the idle time after
/// which a keep-alive connection is closed. The default of
/// [`Limits::header_read_timeout`].
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// The largest request line plus headers accepted; larger gets `431`.
/// Bodies are limited by the router, per route. The default of
/// [`Limits::max_header_bytes`].
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// After shutdown is asked, how long in-flight requests have to finish
/// before their connections are dropped. The default of
/// [`Limits::shutdown_grace`].
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// The serving layer's limits on slow or silent clients, on how many
/// connections anyone may hold, and on shutdown. `Limits::default()` is
/// what [`super::serve`] uses (tests shorten them; the daemon sizes the connection
/// caps from its open-file limit with [`Limits::for_open_files`]).
///
/// Connections are counted in three pools, so that the public can never
/// crowd out the kiosks or the staff:
///
/// - **handshakes** in progress ([`Limits::max_handshakes`] in all, at most
///   [`Limits::max_handshakes_per_address`] of them from one address, an
///   eighth): a silent or bare TCP client holds a slot for
///   [`Limits::handshake_timeout`] at most. A kiosk cannot be told apart
///   before its handshake, so when the pool is full a newcomer is not
///   refused if it comes from an address holding fewer handshakes than the
///   address holding most: that address's oldest handshake is closed to
///   make room (IPv6 addresses count by their /64, what one host holds).
///   However many silent connections a flood opens from however many
///   addresses, a kiosk or a staff browser connecting from its own address
///   holds one or two and is never the one pushed out;
/// - **kiosks**, once their enrolled certificate is seen: never counted
///   against the public, at most [`Limits::max_per_kiosk`] each (kiosks
///   are few, and each needs one or two);
/// - **everyone else** (staff consoles, the board, phones, the live feed):
///   [`Limits::max_public`] in all and [`Limits::max_per_address`] from one
///   address. The live feed has its own, lower cap in the router;
/// - **staff room**: when the public's room is full, up to
///   [`Limits::max_staff_room`] more connections are let in marked
///   [`super::StaffOnly`], and the router answers on them only requests with a
///   staff credential (anything else gets `503` and the connection is
///   closed), so a flood of watchers never locks the operator or the chair
///   out.
///
/// A connection over a cap is closed at once, and the daemon says so in
/// its log (once a second at most per cap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// See [`HANDSHAKE_TIMEOUT`].
    pub handshake_timeout: Duration,
    /// See [`HEADER_READ_TIMEOUT`].
    pub header_read_timeout: Duration,
    /// See [`MAX_HEADER_BYTES`].
    pub max_header_bytes: usize,
    /// See [`SHUTDOWN_GRACE`].
    pub shutdown_grace: Duration,
    /// TLS handshakes in progress, from everyone.
    pub max_handshakes: usize,
    /// TLS handshakes in progress from one client address.
    pub max_handshakes_per_address: usize,
    /// Connections (handshakes and public ones) from one client address.
    pub max_per_address: usize,
    /// Connections that are not an enrolled kiosk's, in all.
    pub max_public: usize,
    /// Connections of one enrolled kiosk.
    pub max_per_kiosk: usize,
    /// Connections let in past the public's room, for staff only.
    pub max_staff_room: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::for_open_files(DEFAULT_OPEN_FILES)
    }
}

/// The open-file limit [`Limits::default`] is sized for.
pub const DEFAULT_OPEN_FILES: u64 = 1024;

/// File descriptors kept for everything but connections: the ledger and
/// its WAL, the log, certificates read at start, the runtime.
pub const RESERVED_FILES: u64 = 64;

/// The most public connections, whatever the open-file limit: past it,
/// memory (TLS buffers, ~50 kB a connection) runs out before descriptors.
pub const MAX_PUBLIC_CONNECTIONS: usize = 12_000;

impl Limits {
    /// Caps that fit a process allowed `open_files` descriptors: after
    /// [`RESERVED_FILES`], a quarter for kiosks, an eighth for handshakes,
    /// the rest (at most [`MAX_PUBLIC_CONNECTIONS`]) for the public; one
    /// address may hold at most 64 (or half the public's room).
    pub fn for_open_files(open_files: u64) -> Limits {
        let room = usize::try_from(open_files.saturating_sub(RESERVED_FILES)).unwrap_or(usize::MAX).max(16);
        let handshakes = (room / 8).clamp(4, 1024);
        let public = (room - room / 4 - handshakes).clamp(4, MAX_PUBLIC_CONNECTIONS);
        Limits {
            handshake_timeout: HANDSHAKE_TIMEOUT,
            header_read_timeout: HEADER_READ_TIMEOUT,
            max_header_bytes: MAX_HEADER_BYTES,
            shutdown_grace: SHUTDOWN_GRACE,
            max_handshakes: handshakes,
            max_handshakes_per_address: (handshakes / 8).max(2),
            max_per_address: (public / 2).clamp(2, 64),
            max_public: public,
            max_per_kiosk: 8,
            max_staff_room: 16,
        }
    }
}

/// Open connections by pool (see [`Limits`]).
#[derive(Default)]
struct Counts {
    handshakes: usize,
    public: usize,
    staff_room: usize,
    /// Handshakes and public connections, by source ([`source`]).
    by_address: HashMap<IpAddr, usize>,
    /// Handshakes in progress by source, oldest first: each one's number
    /// and the sender that closes it when it is pushed out.
    pending: HashMap<IpAddr, VecDeque<(u64, oneshot::Sender<()>)>>,
    /// The number the next handshake gets.
    next: u64,
    /// Connections by kiosk id.
    by_kiosk: HashMap<Arc<str>, usize>,
}

/// Which cap refused a connection (or pushed one out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cap {
    Handshakes = 0,
    PerAddress = 1,
    Public = 2,
    PerKiosk = 3,
    PushedOut = 4,
}

/// Where a connection comes from, for counting: its IPv4 address, or the
/// /64 network of its IPv6 address (one host's addresses; an IPv4 address
/// written as IPv6 is the IPv4 address).
pub(super) fn source(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(std::net::Ipv6Addr::from(bits))
            }
        },
    }
}

/// A handshake slot: its source and number, and what says it was pushed
/// out to make room ([`Limits`]).
pub(super) struct Handshake {
    pub(super) slot: Slot,
    pub(super) pushed_out: oneshot::Receiver<()>,
}

/// What an open connection holds.
pub(super) enum Slot {
    Handshake(IpAddr, u64),
    Public(IpAddr),
    StaffRoom(IpAddr),
    Kiosk(Arc<str>),
}

/// The connection counts, shared by every connection task.
pub(super) struct Pool {
    pub(super) limits: Limits,
    counts: std::sync::Mutex<Counts>,
    /// When each cap last said so in the log (milliseconds since start).
    last_warned: [AtomicU64; 5],
    started: std::time::Instant,
}

impl Pool {
    pub(super) fn new(limits: Limits) -> Pool {
        Pool {
            limits,
            counts: std::sync::Mutex::new(Counts::default()),
            last_warned: Default::default(),
            started: std::time::Instant::now(),
        }
    }

    fn counts(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Logs that `cap` refused `peer` (or pushed a connection of `peer`
    /// out), once a second at most per cap.
    pub(super) fn refused(&self, cap: Cap, peer: SocketAddr) {
        let now = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let last = &self.last_warned[cap as usize];
        let before = last.load(Ordering::Relaxed);
        if before != 0 && now.saturating_sub(before) < 1000 {
            return;
        }
        last.store(now.max(1), Ordering::Relaxed);
        let limits = &self.limits;
        let (limit, what_es, what_en) = match cap {
            Cap::Handshakes => {
                (limits.max_handshakes, "conexiones en saludo TLS", "TLS handshakes in progress")
            }
            Cap::PerAddress => (
                limits.max_per_address,
                "conexiones desde una misma dirección",
                "connections from one address",
            ),
            Cap::Public => {
                (limits.max_public, "conexiones del público y del personal", "public and staff connections")
            }
            Cap::PerKiosk => {
                (limits.max_per_kiosk, "conexiones de un mismo quiosco", "connections of one kiosk")
            }
            Cap::PushedOut => {
                tracing::warn!(
                    peer.addr = %peer,
                    limit = limits.max_handshakes,
                    "saludos TLS llenos: se cierra el más antiguo de la dirección que más ocupa, para dar lugar a quien llega de otra / TLS handshakes full: the oldest of the address holding most is closed, to make room for a newcomer from another"
                );
                return;
            }
        };
        tracing::warn!(
            peer.addr = %peer,
            limit,
            "se rechazan conexiones: se alcanzó el máximo de {limit} {what_es}; los quioscos inscritos conservan su lugar / refusing connections: the limit of {limit} {what_en} was reached; enrolled kiosks keep their room"
        );
    }

    /// Takes a handshake slot for `peer`, pushing out the oldest handshake
    /// of the source holding most when the pool is full and `peer`'s source
    /// holds fewer (the peer pushed out is returned, for the log); or says
    /// which cap refused it.
    pub(super) fn admit_handshake(&self, peer: IpAddr) -> Result<(Handshake, Option<IpAddr>), Cap> {
        let from = source(peer);
        let mut counts = self.counts();
        let mine = counts.pending.get(&from).map_or(0, VecDeque::len);
        if mine >= self.limits.max_handshakes_per_address {
            return Err(Cap::Handshakes);
        }
        if counts.by_address.get(&from).is_some_and(|n| *n >= self.limits.max_per_address) {
            return Err(Cap::PerAddress);
        }
        let mut pushed_out = None;
        if counts.handshakes >= self.limits.max_handshakes {
            // The source holding most (the oldest first among equals), if
            // it holds more than the newcomer's.
            let victim = counts
                .pending
                .iter()
                .filter(|(_, queue)| queue.len() > mine)
                .max_by(|(_, a), (_, b)| {
                    a.len().cmp(&b.len()).then_with(|| {
                        let oldest =
                            |q: &VecDeque<(u64, oneshot::Sender<()>)>| q.front().map_or(u64::MAX, |e| e.0);
                        oldest(b).cmp(&oldest(a))
                    })
                })
                .map(|(source, _)| *source);
            let Some(victim) = victim else {
                return Err(Cap::Handshakes);
            };
            if let Some((_, close)) = counts.pending.get_mut(&victim).and_then(VecDeque::pop_front) {
                // The connection may be finishing its handshake right now:
                // then its admission finds it gone and closes it.
                let _ = close.send(());
            }
            Counts::forget_pending(&mut counts.pending, victim);
            counts.handshakes -= 1;
            Counts::release_address(&mut counts.by_address, victim);
            pushed_out = Some(victim);
        }
        let id = counts.next;
        counts.next += 1;
        let (close, closed) = oneshot::channel();
        counts.pending.entry(from).or_default().push_back((id, close));
        *counts.by_address.entry(from).or_insert(0) += 1;
        counts.handshakes += 1;
        Ok((Handshake { slot: Slot::Handshake(from, id), pushed_out: closed }, pushed_out))
    }

    /// Moves a connection whose handshake is done from the handshake pool
    /// to its own: the kiosk's (it leaves its address's count) or the
    /// public's. On refusal the connection holds nothing. `handshake` is
    /// the slot [`Pool::admit_handshake`] gave.
    pub(super) fn admit_connection(&self, handshake: Slot, kiosk: Option<&Arc<str>>) -> Result<Slot, Cap> {
        let Slot::Handshake(from, id) = handshake else {
            unreachable!("only a handshake is admitted");
        };
        let mut counts = self.counts();
        if !counts.take_pending(from, id) {
            // Pushed out as its handshake finished: it holds nothing.
            return Err(Cap::PushedOut);
        }
        counts.handshakes -= 1;
        match kiosk {
            Some(kiosk) => {
                Counts::release_address(&mut counts.by_address, from);
                let held = counts.by_kiosk.entry(Arc::clone(kiosk)).or_insert(0);
                if *held >= self.limits.max_per_kiosk {
                    return Err(Cap::PerKiosk);
                }
                *held += 1;
                Ok(Slot::Kiosk(Arc::clone(kiosk)))
            }
            None if counts.public >= self.limits.max_public => {
                if counts.staff_room < self.limits.max_staff_room {
                    counts.staff_room += 1;
                    return Ok(Slot::StaffRoom(from));
                }
                Counts::release_address(&mut counts.by_address, from);
                Err(Cap::Public)
            }
            None => {
                counts.public += 1;
                Ok(Slot::Public(from))
            }
        }
    }

    /// Gives back what a connection held.
    pub(super) fn release(&self, slot: Slot) {
        let mut counts = self.counts();
        match slot {
            Slot::Handshake(from, id) => {
                // A handshake pushed out was given back then.
                if counts.take_pending(from, id) {
                    counts.handshakes -= 1;
                    Counts::release_address(&mut counts.by_address, from);
                }
            }
            Slot::Public(from) => {
                counts.public -= 1;
                Counts::release_address(&mut counts.by_address, from);
            }
            Slot::StaffRoom(from) => {
                counts.staff_room -= 1;
                Counts::release_address(&mut counts.by_address, from);
            }
            Slot::Kiosk(kiosk) => {
                if let Some(held) = counts.by_kiosk.get_mut(&kiosk) {
                    *held -= 1;
                    if *held == 0 {
                        counts.by_kiosk.remove(&kiosk);
                    }
                }
            }
        }
    }

    /// Handshakes in progress, in all and from `peer`'s source (for tests).
    #[cfg(test)]
    fn handshakes(&self, peer: IpAddr) -> (usize, usize) {
        let counts = self.counts();
        (counts.handshakes, counts.pending.get(&source(peer)).map_or(0, VecDeque::len))
    }
}

impl Counts {
    /// Removes handshake `id` of `from` from the pending ones; whether it
    /// was there (it is not when it was pushed out).
    fn take_pending(&mut self, from: IpAddr, id: u64) -> bool {
        let Some(queue) = self.pending.get_mut(&from) else {
            return false;
        };
        let Some(at) = queue.iter().position(|(n, _)| *n == id) else {
            return false;
        };
        queue.remove(at);
        Counts::forget_pending(&mut self.pending, from);
        true
    }

    /// Drops `from`'s entry once it holds no handshake.
    fn forget_pending(pending: &mut HashMap<IpAddr, VecDeque<(u64, oneshot::Sender<()>)>>, from: IpAddr) {
        if pending.get(&from).is_some_and(VecDeque::is_empty) {
            pending.remove(&from);
        }
    }

    fn release_address(by_address: &mut HashMap<IpAddr, usize>, peer: IpAddr) {
        if let Some(held) = by_address.get_mut(&peer) {
            *held -= 1;
            if *held == 0 {
                by_address.remove(&peer);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(handshakes: usize, per_address: usize) -> Pool {
        Pool::new(Limits {
            max_handshakes: handshakes,
            max_handshakes_per_address: per_address,
            max_per_address: per_address,
            ..Limits::default()
        })
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_newcomer_from_a_quiet_address_pushes_out_the_oldest_of_the_busiest() {
        let pool = pool(8, 8);
        let mut held = Vec::new();
        // A flood fills the pool from two addresses, 5 and 3.
        for _ in 0..5 {
            held.push(pool.admit_handshake(ip("10.0.0.2")).unwrap().0);
        }
        for _ in 0..3 {
            held.push(pool.admit_handshake(ip("10.0.0.3")).unwrap().0);
        }
        assert_eq!(pool.handshakes(ip("10.0.0.2")), (8, 5));
        // The busiest address cannot take more of it.
        assert_eq!(pool.admit_handshake(ip("10.0.0.2")).err(), Some(Cap::Handshakes));
        // A kiosk gets in, and the first of 10.0.0.2's is told to close.
        let (kiosk, pushed) = pool.admit_handshake(ip("10.0.0.9")).unwrap();
        assert_eq!(pushed, Some(ip("10.0.0.2")));
        assert_eq!(pool.handshakes(ip("10.0.0.2")), (8, 4));
        assert!(held[0].pushed_out.try_recv().is_ok(), "the oldest was told to close");
        assert!(held[1].pushed_out.try_recv().is_err(), "the others were not");
        // Giving back the pushed-out one counts nothing twice.
        let first = held.remove(0);
        pool.release(first.slot);
        assert_eq!(pool.handshakes(ip("10.0.0.2")), (8, 4));
        // The kiosk's handshake finishes: it leaves the pool as a kiosk.
        let kiosk_id: Arc<str> = Arc::from("quiosco-1");
        let slot = pool.admit_connection(kiosk.slot, Some(&kiosk_id)).unwrap();
        assert!(matches!(slot, Slot::Kiosk(_)));
        assert_eq!(pool.handshakes(ip("10.0.0.9")), (7, 0));
        pool.release(slot);
    }

    #[test]
    fn the_pool_is_shared_fairly_and_a_fair_share_pushes_no_one() {
        let pool = pool(6, 6);
        let mut held = Vec::new();
        for address in ["10.0.0.2", "10.0.0.3", "10.0.0.4"] {
            for _ in 0..2 {
                held.push(pool.admit_handshake(ip(address)).unwrap().0);
            }
        }
        // 10.0.0.2 holds 2, as many as anyone: it is refused.
        assert_eq!(pool.admit_handshake(ip("10.0.0.2")).err(), Some(Cap::Handshakes));
        // A new address with none pushes out the oldest among those holding most.
        let (_, pushed) = pool.admit_handshake(ip("10.0.0.5")).unwrap();
        assert_eq!(pushed, Some(ip("10.0.0.2")));
    }

    #[test]
    fn a_handshake_pushed_out_as_it_finishes_is_not_admitted() {
        let pool = pool(1, 1);
        let (first, _) = pool.admit_handshake(ip("10.0.0.2")).unwrap();
        let (second, pushed) = pool.admit_handshake(ip("10.0.0.3")).unwrap();
        assert_eq!(pushed, Some(ip("10.0.0.2")));
        assert_eq!(pool.admit_connection(first.slot, None).err(), Some(Cap::PushedOut));
        assert!(matches!(pool.admit_connection(second.slot, None), Ok(Slot::Public(_))));
        assert_eq!(pool.handshakes(ip("10.0.0.3")), (0, 0));
    }

    #[test]
    fn ipv6_counts_by_its_64_and_mapped_ipv4_as_ipv4() {
        assert_eq!(source(ip("2001:db8:1:2:aaaa::1")), source(ip("2001:db8:1:2:bbbb::9")));
        assert_ne!(source(ip("2001:db8:1:2::1")), source(ip("2001:db8:1:3::1")));
        assert_eq!(source(ip("::ffff:10.0.0.2")), ip("10.0.0.2"));
    }
}
