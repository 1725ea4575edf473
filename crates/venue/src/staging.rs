//! Making a meeting directory as one step: everything is written into a
//! hidden folder beside it (`.NAME.init-PID`), then renamed into place.
//! A failed `init` removes its folder; a killed one leaves it behind, and
//! the next `init` of the same directory removes it and says so. Either
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

/// The hidden folders of earlier `init`s of `target`.
fn leftovers(target: &Path) -> Result<Vec<PathBuf>> {
    let (parent, prefix) = parts(target)?;
    let mut found = Vec::new();
    let entries = match fs::read_dir(&parent) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(VenueError::io(&parent, READ)(e)),
    };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            found.push(entry.path());
        }
    }
    Ok(found)
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
    /// holds anything already, clears what a killed `init` of it left
    /// (telling `notice`), and takes the new meeting's lock. Call it after
    /// every input has been checked, so that bad input writes nothing.
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
        for leftover in leftovers(target)? {
            match MeetingLock::acquire_fresh(&leftover)? {
                Ok(lock) => {
                    drop(lock);
                    // A killed init may have made its meeting's key folder.
                    remove_key_folder(&leftover);
                    fs::remove_dir_all(&leftover)
                        .map_err(VenueError::io(&leftover, "no se puede borrar / cannot remove"))?;
                    notice(format!(
                        "Se borró una creación anterior incompleta / removed an earlier, unfinished init: {}",
                        leftover.display()
                    ));
                }
                Err(_) => {
                    return Err(VenueError::refused(format!(
                        "{}: otro `asamblea init` de esta reunión está en curso; espere a que termine / \
                         another `asamblea init` of this meeting is running; wait for it to finish",
                        target.display()
                    )))
                }
            }
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
