//! Making a meeting directory as one step: everything is written into a
//! hidden folder beside it (`.NAME.init-PID`), then renamed into place.
//! A failed `init` removes its folder; a killed one leaves it behind (the
//! register's names, and past the meeting's id a key folder of seeds
//! outside it), and the next `init` or `serve` in the same parent folder,
//! of this meeting or any other, removes it with its key folder and says
//! so ([`clear_killed_inits`]); one whose `init` still runs holds its lock
//! and is left alone. Either
//! way `DIR` is a whole meeting or nothing: never a half-made directory that
//! `serve` cannot start and `init` refuses to redo.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{VenueError, READ};
use crate::lock::MeetingLock;

/// What this module's functions return.
type Result<T> = std::result::Result<T, VenueError>;

/// A meeting directory being made.
#[derive(Debug)]
pub struct Staging {
    /// Where the meeting will be.
    target: PathBuf,
    /// The hidden folder it is made in; `None` once renamed.
    temporary: Option<PathBuf>,
}

/// Whether a folder's name is a staging folder's, `.NAME.init-PID`.
fn is_staging_name(name: &str) -> bool {
    name.starts_with('.')
        && name.rsplit_once(".init-").is_some_and(|(meeting, pid)| {
            meeting.len() > 1 && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
        })
}

/// The staging folders beside `target` (in its parent folder), of any
/// meeting: real folders (not links) named `.NAME.init-PID`.
fn staging_folders(target: &Path) -> Result<Vec<PathBuf>> {
    let (parent, _) = parts(target)?;
    let mut found = Vec::new();
    let entries = match fs::read_dir(&parent) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(VenueError::io(&parent, READ)(e)),
    };
    for entry in entries.flatten() {
        let is_folder = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_folder && is_staging_name(&entry.file_name().to_string_lossy()) {
            found.push(entry.path());
        }
    }
    found.sort();
    Ok(found)
}

/// Removes what killed `init`s left beside the meeting directory `dir`:
/// every staging folder in its parent, of any meeting, whose lock nobody
/// holds (an `init` still running holds its own), with the key folder
/// its meeting id names, telling `notice` of each. `init` calls it
/// through [`Staging::begin`], and `serve` at its start: a killed `init`
/// leaves the register's names and signing seeds that belong to no
/// meeting, and nothing else would ever remove them.
pub fn clear_killed_inits(dir: &Path, notice: &mut dyn FnMut(String)) -> Result<()> {
    clear(dir, notice).map(|_| ())
}

/// [`clear_killed_inits`]; whether an `init` of `dir` itself is running.
/// A folder of another meeting that cannot be cleared (another account's,
/// say) is told of and left; one of `dir`'s own is an error.
fn clear(dir: &Path, notice: &mut dyn FnMut(String)) -> Result<bool> {
    let (_, own_prefix) = parts(dir)?;
    let mut own_running = false;
    for leftover in staging_folders(dir)? {
        let name = leftover.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let own = name.starts_with(&own_prefix);
        match remove_if_killed(&leftover) {
            Ok(true) => notice(format!(
                "Se borró una creación anterior incompleta, con sus claves / removed an earlier, unfinished init, with its keys: {}",
                leftover.display()
            )),
            Ok(false) => own_running |= own,
            Err(error) if own => return Err(error),
            Err(error) => notice(format!(
                "No se pudo borrar una creación anterior incompleta / could not remove an earlier, unfinished init: {error}"
            )),
        }
    }
    Ok(own_running)
}

/// Removes the staging folder `leftover` and its key folder if no `init`
/// holds its lock; whether it did.
fn remove_if_killed(leftover: &Path) -> Result<bool> {
    match MeetingLock::acquire_fresh(leftover)? {
        Ok(lock) => {
            drop(lock);
            // A killed init may have made its meeting's key folder.
            remove_key_folder(leftover);
            fs::remove_dir_all(leftover)
                .map_err(VenueError::io(leftover, "no se puede borrar / cannot remove"))?;
            Ok(true)
        }
        Err(_) => Ok(false),
    }
}

/// The parent folder of `target` and the prefix of its hidden folders.
fn parts(target: &Path) -> Result<(PathBuf, String)> {
    let name = target
        .file_name()
        .ok_or_else(|| {
            VenueError::refused(format!(
                "{}: nombre una carpeta para la reunión / name a folder for the meeting",
                target.display()
            ))
        })?
        .to_string_lossy()
        .into_owned();
    let parent = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, format!(".{name}.init-")))
}

impl Staging {
    /// Starts making the meeting directory `target`: refuses one that
    /// holds anything already, clears what killed `init`s left beside it
    /// (telling `notice`, [`clear_killed_inits`]), and takes the new
    /// meeting's lock. Call it after every input has been checked, so that
    /// bad input writes nothing.
    pub fn begin(target: &Path, notice: &mut dyn FnMut(String)) -> Result<(Staging, MeetingLock)> {
        if target.join("ledger.db").exists() {
            return Err(VenueError::refused(format!(
                "{}: aquí ya hay una reunión; elija una carpeta vacía / a meeting already exists here; choose an empty directory",
                target.display()
            )));
        }
        match fs::read_dir(target) {
            Ok(mut entries) => {
                if entries.next().is_some() {
                    return Err(VenueError::refused(format!(
                        "{}: la carpeta no está vacía; `init` hace una reunión nueva en una carpeta vacía o nueva / \
                         the folder is not empty; `init` makes a new meeting in an empty or new folder",
                        target.display()
                    )));
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(VenueError::io(target, READ)(e)),
        }
        if clear(target, notice)? {
            return Err(VenueError::refused(format!(
                "{}: otro `asamblea init` de esta reunión está en curso; espere a que termine / \
                 another `asamblea init` of this meeting is running; wait for it to finish",
                target.display()
            )));
        }
        let (parent, prefix) = parts(target)?;
        // The parent is made if missing, never changed if it exists.
        crate::secrets::create_private_dir(&parent)?;
        let temporary = parent.join(format!("{prefix}{}", std::process::id()));
        crate::secrets::create_private_dir(&temporary)?;
        let lock = MeetingLock::acquire_fresh_or_explain(&temporary)?;
        Ok((Staging { target: target.to_path_buf(), temporary: Some(temporary) }, lock))
    }

    /// The folder to write the meeting into.
    pub fn path(&self) -> &Path {
        self.temporary.as_deref().expect("not yet committed")
    }

    /// Renames the finished meeting into place. Whatever was opened in the
    /// staging folder must be closed first (SQLite keeps the paths it
    /// opened). The lock taken by [`Staging::begin`] goes with the folder.
    pub fn commit(mut self) -> Result<()> {
        let temporary = self.temporary.take().expect("committed once");
        // An empty target folder (made by hand) is replaced.
        if self.target.is_dir() {
            fs::remove_dir(&self.target).map_err(VenueError::io(
                &self.target,
                "no se puede reemplazar la carpeta vacía / cannot replace the empty folder",
            ))?;
        }
        fs::rename(&temporary, &self.target).map_err(VenueError::io(
            &self.target,
            "no se puede poner la reunión nueva en su lugar / cannot move the new meeting into place",
        ))?;
        // The rename itself is durable once the parent folder is.
        if let Ok((parent, _)) = parts(&self.target) {
            if let Ok(folder) = fs::File::open(parent) {
                let _ = folder.sync_all();
            }
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if let Some(temporary) = self.temporary.take() {
            remove_key_folder(&temporary);
            let _ = fs::remove_dir_all(temporary);
        }
    }
}

/// Removes the key folder of an unfinished meeting in `folder`, if it got
/// as far as drawing its id: no signing seed outlives a failed `init`.
fn remove_key_folder(folder: &Path) {
    if let Ok(keys) = crate::secrets::key_folder_of(folder) {
        let _ = fs::remove_dir_all(keys);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hidden staging folder as a kill -9 during `init` leaves it: the
    /// register's names, the meeting's id, and its key folder of seeds
    /// outside it. Its key folder, to check it goes too.
    fn killed_init(parent: &Path, name: &str) -> (PathBuf, PathBuf) {
        let folder = parent.join(name);
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join("register.csv"), "holder_id,name,class,shares\nCC-1,Ana Ruiz,ORD,10\n")
            .unwrap();
        let meeting = asamblea_wire::MeetingId(crate::secrets::random());
        fs::write(folder.join("meeting-id"), format!("{}\n", asamblea_wire::hex::encode(&meeting.0)))
            .unwrap();
        let keys = crate::secrets::key_folder(&meeting).unwrap();
        fs::create_dir_all(&keys).unwrap();
        fs::write(keys.join("daemon.seed"), "00".repeat(32)).unwrap();
        (folder, keys)
    }

    #[test]
    fn what_killed_inits_left_beside_a_meeting_is_removed_with_their_keys_but_nothing_else() {
        let parent = std::env::temp_dir().join(format!("asamblea-staging-{}", std::process::id()));
        let _ = fs::remove_dir_all(&parent);
        fs::create_dir_all(&parent).unwrap();
        // Killed inits of this meeting and of another one in the same folder.
        let (same, same_keys) = killed_init(&parent, ".nueva.init-4242");
        let (other, other_keys) = killed_init(&parent, ".otra.init-4343");
        // An init still running (its lock held), and folders that only
        // look alike: left alone.
        let (running, running_keys) = killed_init(&parent, ".viva.init-4444");
        let held = MeetingLock::acquire_fresh_or_explain(&running).unwrap();
        let look_alike = parent.join(".notas.init-borrador");
        fs::create_dir_all(&look_alike).unwrap();
        let mut said = Vec::new();
        let (staging, lock) = Staging::begin(&parent.join("nueva"), &mut |n| said.push(n)).unwrap();
        for gone in [&same, &same_keys, &other, &other_keys] {
            assert!(!gone.exists(), "{} is left behind", gone.display());
        }
        for kept in [&running, &running_keys, &look_alike] {
            assert!(kept.exists(), "{} was removed", kept.display());
        }
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(said.iter().all(|n| n.contains("removed an earlier, unfinished init")), "{said:?}");
        drop(lock);
        drop(staging);

        // `serve` clears them too, beside the meeting it serves.
        let (late, late_keys) = killed_init(&parent, ".tarde.init-4545");
        let mut said = Vec::new();
        clear_killed_inits(&parent.join("nueva"), &mut |n| said.push(n)).unwrap();
        assert!(!late.exists() && !late_keys.exists() && said.len() == 1, "{said:?}");
        assert!(running.exists() && look_alike.exists());
        drop(held);
        let _ = fs::remove_dir_all(&running_keys);
        fs::remove_dir_all(&parent).unwrap();
    }
}
