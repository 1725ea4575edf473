//! Why a ledger file could not be written or read, in the words an
//! operator can act on, and the faults a test may inject.
//!
//! A fail-stop must name its real cause: a technician facing "disk I/O
//! error" at 10 a.m. with a room waiting needs to know whether to free
//! space, remount a disk, stop a second program or restore a copy.

use std::time::Duration;

/// The cause of a ledger failure, as far as SQLite's error code tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// The disk (or the file system's quota) is full.
    DiskFull,
    /// The file or its folder cannot be written (read-only media, a file
    /// made read-only, permissions).
    ReadOnly,
    /// Another process is writing the same ledger, or holds its lock.
    OtherWriter,
    /// The file is damaged or not a ledger at all.
    Corrupt,
    /// The operating system failed to read or write (a failing disk, a
    /// removed drive).
    Io,
    /// Another node of a replicated meeting wrote the chain after this
    /// one: this node is no longer the leader (`Replica`).
    Fenced,
    /// No majority of a replicated meeting's copies confirmed a batch.
    Unreplicated,
    /// Anything else.
    Other,
}

impl Cause {
    /// The cause of a SQLite error.
    pub(crate) fn of(error: &rusqlite::Error) -> Cause {
        use rusqlite::ffi::ErrorCode;
        let Some(code) = error.sqlite_error_code() else { return Cause::Other };
        match code {
            ErrorCode::DiskFull => Cause::DiskFull,
            ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied => Cause::ReadOnly,
            ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked => Cause::OtherWriter,
            // Two writers taking the same sequence number.
            ErrorCode::ConstraintViolation => Cause::OtherWriter,
            ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase => Cause::Corrupt,
            ErrorCode::SystemIoFailure => Cause::Io,
            _ => Cause::Other,
        }
    }

    /// The cause of an I/O error from the operating system.
    pub(crate) fn of_io(error: &std::io::Error) -> Cause {
        match error.kind() {
            std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded => Cause::DiskFull,
            std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied => Cause::ReadOnly,
            _ => Cause::Io,
        }
    }

    /// A stable code for logs and the API.
    pub fn code(self) -> &'static str {
        match self {
            Cause::DiskFull => "disk-full",
            Cause::ReadOnly => "read-only",
            Cause::OtherWriter => "other-writer",
            Cause::Corrupt => "corrupt",
            Cause::Io => "io-error",
            Cause::Fenced => "fenced",
            Cause::Unreplicated => "unreplicated",
            Cause::Other => "other",
        }
    }

    /// What the technician should do, in Spanish.
    pub fn remedy_es(self) -> &'static str {
        match self {
            Cause::DiskFull => "el disco está lleno: libere espacio en el disco de la reunión (o muévala a otro disco) y vuelva a iniciar `asamblea serve DIR`",
            Cause::ReadOnly => "el registro no se puede escribir (disco de solo lectura o permisos): móntelo con escritura o corrija los permisos de DIR y vuelva a iniciar `asamblea serve DIR`",
            Cause::OtherWriter => "otro programa escribe el mismo registro: deténgalo (solo un `asamblea serve` por reunión; los comandos de registro pasan por él) y vuelva a iniciar `asamblea serve DIR`",
            Cause::Corrupt => "el archivo del registro está dañado: no lo modifique; ejecute `asamblea verify DIR` para ver dónde, y restaure la última copia verificada",
            Cause::Io => "el sistema operativo no pudo leer o escribir el disco: revise el disco (¿se desconectó? ¿falla?) y vuelva a iniciar `asamblea serve DIR`",
            Cause::Fenced => "otro nodo tomó la reunión y este dejó de ser el líder: no lo reinicie como líder; los quioscos siguen con el nuevo (docs/replication.md)",
            Cause::Unreplicated => "la mayoría de los nodos de etcd no confirmó: revise la red y los tres nodos (`etcdctl endpoint health`); nada de lo no confirmado se le mostró a nadie",
            Cause::Other => "revise el mensaje de SQLite y el disco, y vuelva a iniciar `asamblea serve DIR`",
        }
    }

    /// The same in English.
    pub fn remedy_en(self) -> &'static str {
        match self {
            Cause::DiskFull => "the disk is full: free space on the meeting's disk (or move it to another) and start `asamblea serve DIR` again",
            Cause::ReadOnly => "the ledger cannot be written (read-only media or permissions): mount it writable or fix DIR's permissions and start `asamblea serve DIR` again",
            Cause::OtherWriter => "another program writes the same ledger: stop it (one `asamblea serve` per meeting; the desk's commands go through it) and start `asamblea serve DIR` again",
            Cause::Corrupt => "the ledger file is damaged: do not edit it; run `asamblea verify DIR` to see where, and restore the last verified copy",
            Cause::Io => "the operating system could not read or write the disk: check the disk (unplugged? failing?) and start `asamblea serve DIR` again",
            Cause::Fenced => "another node took the meeting and this one is no longer the leader: do not restart it as leader; the kiosks go on with the new one (docs/replication.md)",
            Cause::Unreplicated => "no majority of the etcd members confirmed: check the network and the three nodes (`etcdctl endpoint health`); nothing unconfirmed was shown to anyone",
            Cause::Other => "check SQLite's message and the disk, and start `asamblea serve DIR` again",
        }
    }
}

impl std::fmt::Display for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// Faults a test injects into the writer through the environment, read
/// once when a ledger is opened. Unset (as in every meeting), they do
/// nothing. They let the crash and failure tests reach states the real
/// disk reaches rarely: a commit that takes long (so a kill -9 lands
/// between two commits) and a commit that fails (so the daemon's fail-stop
/// is seen with a running board).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Faults {
    /// `ASAMBLEA_TEST_COMMIT_DELAY_MS`: every COMMIT waits this long first,
    /// as a slow fsync would.
    pub(crate) commit_delay: Option<Duration>,
    /// `ASAMBLEA_TEST_FAIL_COMMIT_AT`: the commit of the batch holding this
    /// sequence number fails, as with a full disk.
    pub(crate) fail_at_seq: Option<u64>,
}

impl Faults {
    pub(crate) fn from_env() -> Faults {
        let number = |name: &str| std::env::var(name).ok().and_then(|v| v.trim().parse::<u64>().ok());
        Faults {
            commit_delay: number("ASAMBLEA_TEST_COMMIT_DELAY_MS").map(Duration::from_millis),
            fail_at_seq: number("ASAMBLEA_TEST_FAIL_COMMIT_AT"),
        }
    }
}
