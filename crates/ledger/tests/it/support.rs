//! Small tools every module of the test binary shares: temporary
//! directories, deterministic nonces, signing, and an injected clock.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use asamblea_ledger::{Clock, Signed};
use asamblea_wire::{Digest, Event, EventBody, Id, Keypair, MeetingId, Nonce};

/// 2026-03-26T14:00:00Z, in milliseconds since the Unix epoch.
pub const T0: u64 = 1_774_533_600_000;

/// A directory removed when dropped; unique per process and name, so
/// tests running in parallel (and the crash test's child) never share one.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("asamblea-ledger-it-{}-{name}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }

    pub fn ledger(&self) -> PathBuf {
        self.0.join("ledger.db")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A nonce that is a function of `n` and `space`, so every test builds the
/// same bytes and no two events of one ledger share a nonce.
pub fn nonce(space: &str, n: u64) -> Nonce {
    let digest = Digest::sha256(format!("asamblea-ledger tests/{space}/{n}").as_bytes());
    Nonce(digest.0[..16].try_into().expect("16 bytes"))
}

/// `event` signed by `key` for `meeting`.
pub fn sign(meeting: &MeetingId, key: &Keypair, event: Event) -> Signed {
    let bytes = event.encode().expect("a canonical event");
    let signature = key.sign(meeting, &bytes).expect("a known kind");
    Signed { event, bytes, signer: key.public_key(), signature }
}

pub fn id(s: &str) -> Id {
    Id::new(s).expect("a valid id")
}

/// A `checked-out` event of a made-up person: the cheapest validly signed
/// event for storage tests, where no rule is checked.
pub fn checked_out(meeting: &MeetingId, key: &Keypair, space: &str, n: u64) -> Signed {
    let event =
        Event { nonce: nonce(space, n), body: EventBody::CheckedOut { person: id(&format!("P-{n}")) } };
    sign(meeting, key, event)
}

/// A clock that starts at `T0` and moves one second per reading, and a
/// handle to read how far it got.
pub fn stepping_clock() -> (Clock, Arc<AtomicU64>) {
    let now = Arc::new(AtomicU64::new(T0));
    let handle = Arc::clone(&now);
    (Box::new(move || now.fetch_add(1_000, Ordering::Relaxed) + 1_000), handle)
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A small xorshift generator: the tests that need chance print its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `low..high`.
    pub fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.next() % (high - low)
    }
}

/// A seed from the clock, or from `ASAMBLEA_TEST_SEED` to replay a failure.
pub fn seed() -> u64 {
    if let Some(seed) = std::env::var("ASAMBLEA_TEST_SEED").ok().and_then(|s| s.parse().ok()) {
        return seed;
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970");
    now.as_nanos() as u64 ^ u64::from(std::process::id())
}
