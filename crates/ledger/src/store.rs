//! The SQLite file: schema, migrations, pragmas, and reading the chain back.
//!
//! One table holds the events, append-only: SQLite triggers refuse any
//! UPDATE or DELETE, so even a bug in this crate cannot rewrite history
//! through the normal connection (a hand edit of the file is caught by the
//! chain instead). Durability: WAL with `synchronous = FULL`, so a COMMIT
//! returns only after the WAL is fsynced.

use std::path::Path;

use rusqlite::{params, Connection, OpenFlags};

use crate::Cause;

use asamblea_wire::{Digest, MeetingId};

use crate::{LedgerError, Row};

/// Numbered migrations; `PRAGMA user_version` holds how many have run.
const MIGRATIONS: &[&str] = &[
    // 1: the event log and the meeting it belongs to.
    "CREATE TABLE meta (
         key   TEXT PRIMARY KEY,
         value BLOB NOT NULL
     ) STRICT;
     CREATE TABLE events (
         seq    INTEGER PRIMARY KEY CHECK (seq >= 1),
         record BLOB NOT NULL,
         head   BLOB NOT NULL CHECK (length(head) = 32)
     ) STRICT;
     CREATE TRIGGER events_no_update BEFORE UPDATE ON events
         BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: events are never updated'); END;
     CREATE TRIGGER events_no_delete BEFORE DELETE ON events
         BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: events are never deleted'); END;
     CREATE TRIGGER meta_no_update BEFORE UPDATE ON meta
         BEGIN SELECT RAISE(ABORT, 'the meeting of a ledger never changes'); END;",
];

/// Opens (creating if needed) a ledger file for `meeting_id` and applies the
/// migrations. A file of another meeting is refused.
pub(crate) fn open(path: &Path, meeting: &MeetingId) -> Result<Connection, LedgerError> {
    let meeting_id = &meeting.0;
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| LedgerError::sqlite(path, e))?;
    configure(&conn).map_err(|e| LedgerError::sqlite(path, e))?;
    check_writable(path, &conn)?;
    migrate(&conn).map_err(|e| LedgerError::sqlite(path, e))?;
    let stored: Option<Vec<u8>> = conn
        .query_row("SELECT value FROM meta WHERE key = 'meeting_id'", [], |r| r.get(0))
        .map(Some)
        .or_else(|e| if e == rusqlite::Error::QueryReturnedNoRows { Ok(None) } else { Err(e) })
        .map_err(|e| LedgerError::sqlite(path, e))?;
    match stored {
        None => {
            conn.execute("INSERT INTO meta (key, value) VALUES ('meeting_id', ?1)", params![&meeting_id[..]])
                .map_err(|e| LedgerError::sqlite(path, e))?;
        }
        Some(stored) if stored.as_slice() == meeting_id => {}
        Some(_) => return Err(LedgerError::OtherMeeting { path: path.display().to_string() }),
    }
    Ok(conn)
}

/// Bytes written and removed beside the ledger at open.
const SPACE_PROBE_BYTES: usize = 1 << 20;

/// Finds at open, not at the first ballot, a ledger that cannot be
/// written: a read-only file or medium, and a disk without even
/// [`SPACE_PROBE_BYTES`] free (a probe file is written, synced and
/// removed beside the ledger). A disk that fills during the meeting stops
/// the writer with [`crate::Cause::DiskFull`] named.
fn check_writable(path: &Path, conn: &Connection) -> Result<(), LedgerError> {
    let failure =
        |message: String, cause| LedgerError::Sqlite { path: path.display().to_string(), message, cause };
    if conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(false) {
        return Err(failure("el archivo del registro no se puede escribir (solo lectura) / the ledger file cannot be written (read-only)".into(), crate::Cause::ReadOnly));
    }
    let probe = path.with_extension("space-probe");
    let written = (|| {
        use std::io::Write;
        let mut file = std::fs::File::create(&probe)?;
        file.write_all(&vec![0u8; SPACE_PROBE_BYTES])?;
        file.sync_all()
    })();
    let _ = std::fs::remove_file(&probe);
    written.map_err(|e| {
        let cause = crate::Cause::of_io(&e);
        failure(
            format!(
            "no se pueden escribir {0} MiB junto al registro / cannot write {0} MiB beside the ledger: {e}",
            SPACE_PROBE_BYTES >> 20
        ),
            cause,
        )
    })
}

/// Opens an existing ledger file read-only, refusing one of another
/// meeting; nothing is created or migrated.
pub(crate) fn open_existing(path: &Path, meeting: &MeetingId) -> Result<Connection, LedgerError> {
    if !path.exists() {
        return Err(LedgerError::Sqlite {
            path: path.display().to_string(),
            message: "el archivo no existe / no such file".into(),
            cause: crate::Cause::Other,
        });
    }
    let meeting_of = |conn: &Connection| -> rusqlite::Result<Vec<u8>> {
        conn.query_row("SELECT value FROM meta WHERE key = 'meeting_id'", [], |r| r.get(0))
    };
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let opened = Connection::open_with_flags(path, flags).and_then(|conn| Ok((meeting_of(&conn)?, conn)));
    let (stored, conn) = match opened {
        Ok(opened) => opened,
        // On read-only media SQLite cannot make the WAL's shared-memory
        // file. With no WAL content beside the file (a ledger closed
        // cleanly, or copied), the file alone is the whole ledger, and it
        // is read as immutable.
        Err(e) if !wal_has_content(path) && Cause::of(&e) == Cause::ReadOnly => {
            let conn = Connection::open_with_flags(immutable_uri(path), flags | OpenFlags::SQLITE_OPEN_URI)
                .map_err(|e| LedgerError::sqlite(path, e))?;
            (meeting_of(&conn).map_err(|e| LedgerError::sqlite(path, e))?, conn)
        }
        Err(e) => return Err(LedgerError::sqlite(path, e)),
    };
    if stored.as_slice() != meeting.0 {
        return Err(LedgerError::OtherMeeting { path: path.display().to_string() });
    }
    Ok(conn)
}

/// Whether a WAL file with content stands beside the ledger.
fn wal_has_content(path: &Path) -> bool {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(wal).is_ok_and(|m| m.len() > 0)
}

/// `file:PATH?immutable=1`, the path percent-encoded as SQLite's URIs want.
fn immutable_uri(path: &Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut uri = String::from("file:");
    for byte in absolute.to_string_lossy().bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri.push_str("?immutable=1");
    uri
}

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    // WAL: readers never block the writer. FULL: the WAL is fsynced at
    // every COMMIT, so an acknowledged event survives power loss.
    let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(rusqlite::Error::InvalidQuery);
    }
    conn.execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;")
}

fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    let done: usize = conn.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))? as usize;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(done) {
        let tx = conn.unchecked_transaction()?;
        tx.execute_batch(sql)?;
        tx.execute_batch(&format!("PRAGMA user_version = {}", i + 1))?;
        tx.commit()?;
    }
    Ok(())
}

/// Every stored record in order, as stored (heads not yet checked).
pub(crate) fn read_all(conn: &Connection) -> rusqlite::Result<Vec<Row>> {
    let mut stmt = conn.prepare("SELECT seq, record, head FROM events ORDER BY seq")?;
    let rows = stmt.query_map([], |r| {
        let seq: i64 = r.get(0)?;
        Ok(Row { seq: seq as u64, record: r.get(1)?, head: r.get(2)? })
    })?;
    rows.collect()
}

/// The last stored record's number (0 for none).
pub(crate) fn last_seq(conn: &Connection) -> rusqlite::Result<u64> {
    let last: Option<i64> = conn.query_row("SELECT max(seq) FROM events", [], |r| r.get(0))?;
    Ok(last.map_or(0, |n| n as u64))
}

/// Up to `limit` stored rows after number `after`, in order: the ledger
/// read a slice at a time, never whole.
pub(crate) fn read_after(conn: &Connection, after: u64, limit: usize) -> rusqlite::Result<Vec<Row>> {
    let mut stmt =
        conn.prepare("SELECT seq, record, head FROM events WHERE seq > ?1 ORDER BY seq LIMIT ?2")?;
    let rows = stmt.query_map(params![i64::try_from(after).unwrap_or(i64::MAX), limit as i64], |r| {
        let seq: i64 = r.get(0)?;
        Ok(Row { seq: seq as u64, record: r.get(1)?, head: r.get(2)? })
    })?;
    rows.collect()
}

/// The stored row `seq`, if there is one.
pub(crate) fn read_one(conn: &Connection, seq: u64) -> rusqlite::Result<Option<Row>> {
    let Ok(key) = i64::try_from(seq) else { return Ok(None) };
    let mut stmt = conn.prepare("SELECT seq, record, head FROM events WHERE seq = ?1")?;
    let mut rows = stmt.query_map([key], |r| {
        let seq: i64 = r.get(0)?;
        Ok(Row { seq: seq as u64, record: r.get(1)?, head: r.get(2)? })
    })?;
    rows.next().transpose()
}

/// Appends a batch in one transaction: one COMMIT, one fsync. `faults`
/// (tests only) may slow or fail the commit.
pub(crate) fn append_batch(
    conn: &mut Connection,
    batch: &[(u64, &[u8], &Digest)],
    faults: &crate::cause::Faults,
) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    {
        let mut stmt = tx.prepare("INSERT INTO events (seq, record, head) VALUES (?1, ?2, ?3)")?;
        for (seq, record, head) in batch {
            stmt.execute(params![*seq as i64, record, &head.0[..]])?;
        }
    }
    if let Some(delay) = faults.commit_delay {
        std::thread::sleep(delay);
    }
    if let Some(at) = faults.fail_at_seq {
        if batch.iter().any(|(seq, _, _)| *seq == at) {
            return Err(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_FULL),
                Some(format!("injected by ASAMBLEA_TEST_FAIL_COMMIT_AT={at}")),
            ));
        }
    }
    tx.commit()
}
