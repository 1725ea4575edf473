//! One writer per meeting: an operating-system lock on `DIR/lock`, held by
//! every process that writes the meeting directory for as long as it does.
//!
//! The ledger has one writer thread inside one process; a second process
//! appending to the same SQLite file would take sequence numbers the first
//! one also takes, and the first would stop (fail-stop) at its next write.
//! So a process that writes a meeting — `serve`, `demo`, `init`,
//! `simulate`, and `checkin`, `badges`, `revoke`, `kiosk` when no daemon
//! runs — first takes [`MeetingLock::acquire`]. The lock is an advisory
//! `flock` (Unix) / `LockFileEx` (Windows) taken with [`std::fs::File::try_lock`]:
//! the kernel releases it when the process ends, however it ends, so a
//! kill -9 never leaves a stale lock behind.
//!
//! A running daemon also writes `DIR/daemon.run` (owner-only): its process
//! id and the address it serves; and, in the meeting's key folder outside
//! `DIR` (`KEYS/desk-<folder>.token`), a token that the registration desk's commands
//! use to act through its API instead of on the files ([`DaemonRun`]). The
//! token lets in nobody who could not already act: only someone who can
//! read the key folder can read it, and that person can read the
//! operator's signing key beside it.
//!
//! Reading commands (`verify`, `export`) take no lock: the ledger is read
//! through SQLite's own locking, which lets readers beside its writer.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::error::{VenueError, WRITE};

/// What this module's functions return.
type Result<T> = std::result::Result<T, VenueError>;

/// The lock file of a meeting directory.
pub fn lock_path(dir: &Path) -> PathBuf {
    dir.join("lock")
}

/// The file a running daemon writes beside its lock.
pub fn run_path(dir: &Path) -> PathBuf {
    dir.join("daemon.run")
}

/// Who holds a meeting's lock, as far as its files say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holder {
    /// A daemon serving the meeting: act through its API.
    Daemon(DaemonRun),
    /// A node of a replicated meeting on standby: it serves nothing
    /// until it leads; the meeting is served by the node that leads.
    Standby(StandbyRun),
    /// Another command (an `init`, a `simulate`, a check-in): wait for it.
    Command {
        /// Its process id, if it wrote one.
        pid: Option<u32>,
    },
}

/// The lock on a meeting directory: held while this value lives.
#[derive(Debug)]
pub struct MeetingLock {
    /// The open lock file; closing it releases the lock.
    file: fs::File,
    path: PathBuf,
}

impl MeetingLock {
    /// Takes the lock of the meeting directory `dir` (creating `DIR/lock`),
    /// or says who holds it. Never waits: a meeting-day command that would
    /// block silently behind another is worse than one that says why it
    /// cannot go on. A folder that holds no meeting is refused, and left
    /// untouched.
    pub fn acquire(dir: &Path) -> Result<std::result::Result<MeetingLock, Holder>> {
        if !dir.join("meeting.toml").is_file() {
            return Err(VenueError::NotAMeeting { dir: dir.to_path_buf(), file: "meeting.toml" });
        }
        MeetingLock::acquire_fresh(dir)
    }

    /// [`MeetingLock::acquire`] of a folder where a meeting is being made
    /// (it need not hold one yet).
    pub fn acquire_fresh(dir: &Path) -> Result<std::result::Result<MeetingLock, Holder>> {
        let path = lock_path(dir);
        let file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|source| {
                let read_only = matches!(
                    source.kind(),
                    std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied
                );
                let doing = if read_only {
                    "la carpeta de la reunión es de solo lectura: móntela con escritura o corrija sus permisos para escribir en ella (verify y export no lo necesitan) / the meeting's folder is read-only: mount it writable or fix its permissions to write to it (verify and export do not need to)"
                } else {
                    "no se puede abrir el archivo de bloqueo de la reunión / cannot open the meeting's lock file"
                };
                VenueError::Io { path: path.clone(), doing, source }
            })?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => return Ok(Err(holder(dir))),
            Err(fs::TryLockError::Error(source)) => {
                return Err(VenueError::Io {
                    path,
                    doing: "no se puede tomar el bloqueo de la reunión / cannot take the meeting's lock",
                    source,
                })
            }
        }
        let mut lock = MeetingLock { file, path };
        lock.write_pid()?;
        // A run file left by a daemon that was killed names nobody now; a
        // later process given the same id must not look like it.
        DaemonRun::remove(dir);
        StandbyRun::remove(dir);
        Ok(Ok(lock))
    }

    /// [`MeetingLock::acquire`], or an error that says who holds the lock
    /// and what to do, for the commands that must write the files
    /// themselves (`serve`, `init`, `simulate`).
    pub fn acquire_or_explain(dir: &Path) -> Result<MeetingLock> {
        MeetingLock::acquire(dir)?.map_err(|holder| busy(dir, &holder))
    }

    /// [`MeetingLock::acquire_fresh`], or an error that says who holds it.
    pub fn acquire_fresh_or_explain(dir: &Path) -> Result<MeetingLock> {
        MeetingLock::acquire_fresh(dir)?.map_err(|holder| busy(dir, &holder))
    }

    fn write_pid(&mut self) -> Result<()> {
        self.file
            .set_len(0)
            .and_then(|()| writeln!(self.file, "{}", std::process::id()))
            .map_err(VenueError::io(&self.path, WRITE))
    }
}

/// The error of a busy meeting.
fn busy(dir: &Path, holder: &Holder) -> VenueError {
    VenueError::Busy { dir: dir.to_path_buf(), message: busy_message(dir, holder) }
}

/// What an operator reads when a meeting is busy.
pub fn busy_message(dir: &Path, holder: &Holder) -> String {
    match holder {
        Holder::Daemon(run) => format!(
            "{}: la reunión está siendo servida por el proceso {} en https://{}/; detenga ese servicio (Ctrl-C) antes de usar este comando / the meeting is being served by process {} at https://{}/; stop it (Ctrl-C) before using this command",
            dir.display(),
            run.pid,
            run.address,
            run.pid,
            run.address
        ),
        Holder::Standby(run) => format!(
            "{}: este nodo ({}, proceso {}) está en espera: la reunión la sirve el nodo que lidera. Use allí la consola de registro (https://…/personal) o estos comandos en su máquina / this node is on standby: the node that leads serves the meeting; use its desk console, or these commands on its machine",
            dir.display(),
            run.node.node,
            run.pid
        ),
        Holder::Command { pid } => {
            let who = pid.map_or_else(|| "otro proceso / another process".to_string(), |p| format!("el proceso / process {p}"));
            format!(
                "{}: {who} está escribiendo en esta reunión; espere a que termine y repita el comando / {who} is writing to this meeting; wait for it to finish and run the command again",
                dir.display()
            )
        }
    }
}

/// The holder of a busy lock, from `DIR/daemon.run` and `DIR/lock`.
fn holder(dir: &Path) -> Holder {
    let pid = fs::read_to_string(lock_path(dir)).ok().and_then(|t| t.trim().parse::<u32>().ok());
    match (DaemonRun::read(dir), StandbyRun::read(dir)) {
        (Some(run), _) if Some(run.pid) == pid => Holder::Daemon(run),
        (_, Some(run)) if Some(run.pid) == pid => Holder::Standby(run),
        _ => Holder::Command { pid },
    }
}

/// The desk token's file in the meeting's key folder, for the meeting
/// directory `dir`: named after the folder's path, so that a copy of the
/// meeting elsewhere never touches the running daemon's token.
fn desk_token_path(dir: &Path) -> Result<PathBuf> {
    let keys = crate::secrets::key_folder_of(dir)?;
    let place = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let digest = asamblea_wire::Digest::sha256(place.as_os_str().as_encoded_bytes());
    Ok(keys.join(format!("desk-{}.token", &digest.to_string()[..16])))
}

/// The hold of one process on a meeting's key folder (`KEYS/lock`): a
/// meeting id's keys sign for one copy of the meeting at a time, so two
/// copies of a meeting directory can never both be written and signed —
/// two ledgers under one daemon key.
#[derive(Debug)]
pub struct KeysLock {
    /// The open lock file; closing it releases the lock.
    _file: fs::File,
}

impl KeysLock {
    /// Takes the lock of the key folder `keys` for the meeting directory
    /// `dir`, or says which other copy holds it.
    pub fn acquire(keys: &Path, dir: &Path) -> Result<KeysLock> {
        let path = keys.join("lock");
        let mut options = fs::OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        {
            // It names the meeting's folder: the owner's only, like all
            // in the key folder, whatever the umask.
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(&path).map_err(VenueError::io(
            &path,
            "no se puede abrir el bloqueo de la carpeta de claves / cannot open the key folder's lock",
        ))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).map_err(VenueError::io(
                &path,
                "no se pueden fijar sus permisos / cannot set its permissions",
            ))?;
        }
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                let other = fs::read_to_string(&path).unwrap_or_default().trim().to_string();
                return Err(VenueError::KeysInUse { path, other });
            }
            Err(fs::TryLockError::Error(source)) => return Err(VenueError::Io {
                path,
                doing:
                    "no se puede tomar el bloqueo de la carpeta de claves / cannot take the key folder's lock",
                source,
            }),
        }
        let place = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        file.set_len(0)
            .and_then(|()| writeln!(file, "{} (pid {})", place.display(), std::process::id()))
            .map_err(VenueError::io(&path, WRITE))?;
        Ok(KeysLock { _file: file })
    }
}

/// What a running daemon tells the commands beside it.
#[derive(Clone, PartialEq, Eq)]
pub struct DaemonRun {
    /// The daemon's process id (`kill -HUP` re-reads kiosk revocations).
    pub pid: u32,
    /// Where it listens, as `host:port` (a wildcard address is written as
    /// the loopback address of its family, which reaches it from here).
    pub address: String,
    /// The registration desk's bearer token for this run (operator role).
    pub token: String,
}

impl std::fmt::Debug for DaemonRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DaemonRun")
            .field("pid", &self.pid)
            .field("address", &self.address)
            .finish_non_exhaustive()
    }
}

impl DaemonRun {
    /// Writes `DIR/daemon.run` and `KEYS/desk-<folder>.token` (owner-only,
    /// replaced whole). Called by the daemon while it holds the meeting's
    /// lock, once it listens.
    pub fn write(&self, dir: &Path) -> Result<()> {
        crate::secrets::write_private_replacing(
            &desk_token_path(dir)?,
            format!("{}\n", self.token).as_bytes(),
        )?;
        let text = format!("pid = {}\naddress = {}\n", self.pid, toml_string(&self.address));
        crate::secrets::write_private_replacing(&run_path(dir), text.as_bytes())
    }

    /// Reads `DIR/daemon.run` and the desk token beside the meeting's keys;
    /// `None` if the run file is missing or not one. The token is empty
    /// when this account cannot read the key folder: the desk's commands
    /// then say so.
    pub fn read(dir: &Path) -> Option<DaemonRun> {
        let text = fs::read_to_string(run_path(dir)).ok()?;
        let table: toml::Table = text.parse().ok()?;
        let token = desk_token_path(dir)
            .ok()
            .and_then(|path| fs::read_to_string(path).ok())
            .map(|t| t.trim().to_string())
            .unwrap_or_default();
        Some(DaemonRun {
            pid: u32::try_from(table.get("pid")?.as_integer()?).ok()?,
            address: table.get("address")?.as_str()?.to_string(),
            token,
        })
    }

    /// Removes `DIR/daemon.run` and the desk token at a clean stop.
    pub fn remove(dir: &Path) {
        let _ = fs::remove_file(run_path(dir));
        if let Ok(path) = desk_token_path(dir) {
            let _ = fs::remove_file(path);
        }
    }
}

/// What a node on standby tells the commands beside it
/// (`DIR/standby.run`): that it serves nothing yet, and where the copy is
/// (so that a command can say which node leads, and where).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandbyRun {
    /// Its process id.
    pub pid: u32,
    /// The node and where the copy is, as its folder's `replica.toml`.
    pub node: ReplicaMark,
}

impl StandbyRun {
    fn path(dir: &Path) -> PathBuf {
        dir.join("standby.run")
    }

    /// Writes `DIR/standby.run` (owner-only, replaced whole), while the
    /// node holds the meeting's lock and waits.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let node = &self.node;
        let text =
            format!("pid = {}\n{}", self.pid, node_lines(&node.node, &node.members, node.tls.as_deref()));
        crate::secrets::write_private_replacing(&StandbyRun::path(dir), text.as_bytes())
    }

    /// Reads `DIR/standby.run`; `None` if missing or not one.
    pub fn read(dir: &Path) -> Option<StandbyRun> {
        let table: toml::Table = fs::read_to_string(StandbyRun::path(dir)).ok()?.parse().ok()?;
        Some(StandbyRun { pid: u32::try_from(table.get("pid")?.as_integer()?).ok()?, node: node_of(&table)? })
    }

    /// Removes it: the node leads (or stopped).
    pub fn remove(dir: &Path) {
        let _ = fs::remove_file(StandbyRun::path(dir));
    }
}

/// What a node of a replicated meeting leaves in its folder once it has
/// served with the copy in etcd (`DIR/replica.toml`): its ledger is the
/// copy's from then on, so nothing may write it alone. `serve` without
/// `--replica` refuses such a folder, and the desk's commands, with no
/// daemon beside them, go through the node that leads (given the
/// operator's token) or say which one leads, instead of writing records
/// no majority holds (a takeover would set them aside: acknowledged, then
/// lost). Kept until removed by hand, when the copy is given up on
/// purpose (`docs/replication.md`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaMark {
    /// The node's name (`--node`; empty when it served without one).
    pub node: String,
    /// The etcd members (`--replica`), as given.
    pub members: Vec<String>,
    /// The folder of the nodes' etcd certificate (`--replica-tls`).
    pub tls: Option<PathBuf>,
}

impl ReplicaMark {
    /// The file, in the meeting directory.
    pub fn path(dir: &Path) -> PathBuf {
        dir.join("replica.toml")
    }

    /// Writes `DIR/replica.toml` (owner-only, replaced whole).
    pub fn write(&self, dir: &Path) -> Result<()> {
        let text = format!(
            "# Esta carpeta es un nodo de una reunión replicada: su libro es el de la copia en etcd.\n\
             # This folder is a node of a replicated meeting: its ledger is the copy's in etcd.\n{}",
            node_lines(&self.node, &self.members, self.tls.as_deref())
        );
        crate::secrets::write_private_replacing(&ReplicaMark::path(dir), text.as_bytes())
    }

    /// Reads `DIR/replica.toml`; `None` if missing. A file that is not one
    /// is refused, naming it: it says the folder is a node's all the same.
    pub fn read(dir: &Path) -> Result<Option<ReplicaMark>> {
        let path = ReplicaMark::path(dir);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(VenueError::io(&path, crate::error::READ)(e)),
        };
        let mark = text.parse::<toml::Table>().ok().and_then(|table| node_of(&table));
        mark.map(Some).ok_or_else(|| VenueError::Malformed {
            path,
            place: None,
            message: "no dice qué nodo es ni dónde está la copia (node, members) / does not say which node this is or where the copy is (node, members)".into(),
        })
    }
}

/// The lines `DIR/standby.run` and `DIR/replica.toml` share.
fn node_lines(node: &str, members: &[String], tls: Option<&Path>) -> String {
    let members: Vec<String> = members.iter().map(|m| toml_string(m)).collect();
    let mut text = format!("node = {}\nmembers = [{}]\n", toml_string(node), members.join(", "));
    if let Some(tls) = tls {
        text.push_str(&format!("tls = {}\n", toml_string(&tls.to_string_lossy())));
    }
    text
}

/// `text` as a TOML string, as the reader of these files takes it back.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// The node those lines name.
fn node_of(table: &toml::Table) -> Option<ReplicaMark> {
    Some(ReplicaMark {
        node: table.get("node")?.as_str()?.to_string(),
        members: table
            .get("members")?
            .as_array()?
            .iter()
            .filter_map(|m| m.as_str().map(str::to_string))
            .collect(),
        tls: table.get("tls").and_then(|t| t.as_str()).map(PathBuf::from),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("asamblea-lock-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_node_on_standby_says_so_and_its_file_goes_with_it() {
        let dir = temp("standby");
        fs::write(dir.join("meeting.toml"), "").unwrap();
        let held = MeetingLock::acquire(&dir).unwrap().expect("free");
        let run = StandbyRun {
            pid: std::process::id(),
            node: ReplicaMark {
                node: "sede-2".into(),
                members: vec!["10.20.0.11:2379".into(), "10.20.0.12:2379".into()],
                tls: Some(PathBuf::from("/etc/asamblea/etcd \"tls\"")),
            },
        };
        run.write(&dir).unwrap();
        assert_eq!(StandbyRun::read(&dir).as_ref(), Some(&run));
        let holder = MeetingLock::acquire(&dir).unwrap().expect_err("held");
        assert_eq!(holder, Holder::Standby(run));
        let message = busy_message(&dir, &holder);
        assert!(message.contains("este nodo (sede-2, proceso") && message.contains("en espera"), "{message}");
        drop(held);
        // A file left by a node that was killed names nobody now.
        let _again = MeetingLock::acquire(&dir).unwrap().expect("free");
        assert_eq!(StandbyRun::read(&dir), None);
        let _ = fs::remove_dir_all(&dir);
    }

    /// What `replica.toml` says is read back as written, whatever a name
    /// or a path holds: quotes, a backslash, a tab, DEL, an escape, a
    /// letter outside ASCII (Rust's `{:?}` writes `\u{7f}`, which TOML
    /// refuses).
    #[test]
    fn a_replica_mark_reads_back_whatever_its_names_hold() {
        let dir = temp("mark");
        let mark = ReplicaMark {
            node: "sede \"ñ\" \\ 1\t\u{7f}\u{1b}".into(),
            members: vec!["10.20.0.11:2379".into(), "[::1]:2379".into()],
            tls: Some(PathBuf::from("C:\\etcd tls\u{7f}/'a'")),
        };
        mark.write(&dir).unwrap();
        assert_eq!(ReplicaMark::read(&dir).unwrap(), Some(mark));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn one_holder_at_a_time_and_released_when_dropped() {
        let dir = temp("one");
        let error = MeetingLock::acquire(&dir).unwrap_err();
        assert!(matches!(error, VenueError::NotAMeeting { file: "meeting.toml", .. }), "{error:?}");
        assert!(
            error.to_string().contains("¿es una carpeta de reunión hecha con `asamblea init`?"),
            "{error}"
        );
        assert!(!lock_path(&dir).exists(), "a folder without a meeting is left untouched");
        fs::write(dir.join("meeting.toml"), "").unwrap();
        let first = MeetingLock::acquire(&dir).unwrap().expect("free");
        let second = MeetingLock::acquire(&dir).unwrap().expect_err("held");
        assert_eq!(second, Holder::Command { pid: Some(std::process::id()) });
        assert!(busy_message(&dir, &second).contains("espere a que termine"));
        let busy = MeetingLock::acquire_or_explain(&dir).unwrap_err();
        assert!(
            matches!(&busy, VenueError::Busy { message, .. } if *message == busy_message(&dir, &second)),
            "{busy:?}"
        );
        assert_eq!(busy.to_string(), busy_message(&dir, &second));
        drop(first);
        assert!(MeetingLock::acquire(&dir).unwrap().is_ok(), "released on drop");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_daemon_holder_is_named_with_its_address_only_while_it_holds_the_lock() {
        let dir = temp("daemon");
        let run =
            DaemonRun { pid: std::process::id(), address: "127.0.0.1:8443".into(), token: "t0k".into() };
        fs::write(dir.join("meeting.toml"), "").unwrap();
        let meeting = asamblea_wire::MeetingId(crate::secrets::random());
        fs::write(dir.join("meeting-id"), asamblea_wire::hex::encode(&meeting.0)).unwrap();
        let keys = crate::secrets::key_folder(&meeting).unwrap();
        crate::secrets::create_private_dir(&keys).unwrap();
        // A run file left behind by a daemon killed earlier goes when the
        // lock is taken; the daemon then writes its own.
        fs::write(run_path(&dir), "pid = 7\naddress = \"127.0.0.1:1\"\ntoken = \"old\"\n").unwrap();
        let lock = MeetingLock::acquire(&dir).unwrap().expect("free");
        assert_eq!(DaemonRun::read(&dir), None, "the stale run file is gone");
        run.write(&dir).unwrap();
        assert_eq!(DaemonRun::read(&dir), Some(run.clone()));
        let _lock = lock;
        let holder = MeetingLock::acquire(&dir).unwrap().expect_err("held");
        assert_eq!(holder, Holder::Daemon(run));
        assert!(format!("{holder:?}").contains("8443") && !format!("{holder:?}").contains("t0k"));
        assert!(!fs::read_to_string(run_path(&dir)).unwrap().contains("t0k"), "the token is not in DIR");
        assert_eq!(fs::read_to_string(desk_token_path(&dir).unwrap()).unwrap().trim(), "t0k");
        // A copy of the meeting elsewhere has a token file of its own.
        let copy = temp("daemon-copy");
        fs::copy(dir.join("meeting-id"), copy.join("meeting-id")).unwrap();
        assert_ne!(desk_token_path(&copy).unwrap(), desk_token_path(&dir).unwrap());
        DaemonRun::remove(&copy);
        assert!(desk_token_path(&dir).unwrap().exists(), "removing a copy's token leaves the daemon's");
        // And the keys sign for one copy at a time.
        let held = KeysLock::acquire(&keys, &dir).expect("free");
        let refused = KeysLock::acquire(&keys, &copy).expect_err("held by the other copy");
        assert!(matches!(refused, VenueError::KeysInUse { .. }), "{refused:?}");
        assert!(refused.to_string().starts_with("otra copia de esta reunión"), "{refused}");
        assert!(refused.to_string().contains("another copy of this meeting"), "{refused}");
        drop(held);
        fs::remove_dir_all(&copy).unwrap();
        // A run file left by a daemon that was killed names nobody: the
        // lock it held died with it.
        fs::write(run_path(&dir), "pid = 1\naddress = \"127.0.0.1:1\"\ntoken = \"x\"\n").unwrap();
        assert_eq!(
            MeetingLock::acquire(&dir).unwrap().expect_err("held"),
            Holder::Command { pid: Some(std::process::id()) }
        );
        fs::remove_dir_all(&dir).unwrap();
        fs::remove_dir_all(&keys).unwrap();
    }
}
