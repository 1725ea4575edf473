//! `DIR/tmp`: where the meeting's own temporary files go — the audit
//! bundle the secretary's downloads and `asamblea verify DIR` write and
//! read back. A bundle holds every holder id and every vote, so its
//! temporary copy must be readable by no other account, at no name
//! another account could choose or guess, and gone after a crash.
//!
//! - The folder is the meeting's, owner-only (0700), a real folder (a
//!   symbolic link there is refused, not followed).
//! - Each file is made by the `tempfile` crate: on Linux with `O_TMPFILE`,
//!   a file that never has a name, so nothing can open it by one, a link
//!   or file made in advance is never written through, and it is gone
//!   when closed, even by a kill -9; elsewhere (or on a file system
//!   without `O_TMPFILE`) at a random name, created exclusively
//!   (`O_EXCL`) and removed at once. Either way owner-only (0600).
//! - Every start of the meeting (`asamblea serve` and every command that
//!   opens it, under the meeting's lock) removes whatever is in `DIR/tmp`:
//!   only a crash in the instant between creating a named file and
//!   removing it could leave one, and empty.
//! - A meeting directory that cannot be written (a read-only copy given to
//!   `asamblea verify`) has its file made in the system's temporary folder
//!   instead, the same way (no name, 0600).

use std::fs::{self, File};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::error::{VenueError, CREATE};

/// The folder, in the meeting directory.
pub fn folder(dir: &Path) -> PathBuf {
    dir.join("tmp")
}

/// A new owner-only temporary file of the meeting at `dir`, with no name
/// where the system allows it (see the module's notes); removed when
/// dropped.
pub fn file(dir: &Path) -> Result<File, VenueError> {
    let folder = folder(dir);
    let made = match private_folder(&folder) {
        Ok(()) => tempfile::tempfile_in(&folder).map_err(VenueError::io(&folder, CREATE))?,
        // A meeting directory this account cannot write: the system's.
        Err(e) if matches!(e.kind(), ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem) => {
            let system = std::env::temp_dir();
            tempfile::tempfile_in(&system).map_err(VenueError::io(&system, CREATE))?
        }
        Err(e) => return Err(VenueError::io(&folder, CREATE)(e)),
    };
    owner_only(&made).map_err(VenueError::io(&folder, CREATE))?;
    Ok(made)
}

/// `DIR/tmp` as an owner-only folder: made 0700 when missing, set 0700
/// when there; anything else there (a link, a file) is refused.
fn private_folder(folder: &Path) -> std::io::Result<()> {
    match fs::symlink_metadata(folder) {
        Ok(meta) if meta.is_dir() => set_owner_only_folder(folder),
        Ok(_) => Err(std::io::Error::new(
            ErrorKind::AlreadyExists,
            "no es una carpeta (¿un enlace?); se quita al iniciar la reunión / is not a folder (a link?); it is removed when the meeting starts",
        )),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            let mut builder = fs::DirBuilder::new();
            #[cfg(unix)]
            {
                use std::os::unix::fs::DirBuilderExt;
                builder.mode(0o700);
            }
            match builder.create(folder) {
                // Made by another process at the same moment.
                Err(e) if e.kind() == ErrorKind::AlreadyExists => private_folder(folder),
                made => made.and_then(|()| set_owner_only_folder(folder)),
            }
        }
        Err(e) => Err(e),
    }
}

#[cfg(unix)]
fn set_owner_only_folder(folder: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(folder, fs::Permissions::from_mode(0o700))
}

#[cfg(not(unix))]
fn set_owner_only_folder(_folder: &Path) -> std::io::Result<()> {
    Ok(())
}

/// 0600 on the open file itself (`fchmod`), whatever the umask: a file
/// made with `O_TMPFILE` takes its mode from the umask.
#[cfg(unix)]
fn owner_only(file: &File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(fs::Permissions::from_mode(0o600))
}

#[cfg(not(unix))]
fn owner_only(_file: &File) -> std::io::Result<()> {
    Ok(())
}

/// Removes whatever a crash left in `DIR/tmp` (the folder itself, made
/// again when next needed; a link there is removed, never followed). Run
/// by every start, under the meeting's lock.
pub fn clear(dir: &Path) -> Result<(), VenueError> {
    const REMOVE: &str = "no se pueden quitar los archivos temporales que dejó una caída / cannot remove the temporary files a crash left";
    let folder = folder(dir);
    match fs::symlink_metadata(&folder) {
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(&folder).map_err(VenueError::io(&folder, REMOVE)),
        Ok(_) => fs::remove_file(&folder).map_err(VenueError::io(&folder, REMOVE)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
        Err(e) => Err(VenueError::io(&folder, REMOVE)(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Seek, Write};
    use std::os::unix::fs::PermissionsExt;

    fn meeting(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("asamblea-scratch-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn mode(meta: &fs::Metadata) -> u32 {
        meta.permissions().mode() & 0o777
    }

    fn names(dir: &Path) -> Vec<String> {
        fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn a_scratch_file_is_owner_only_in_an_owner_only_folder_and_has_no_name() {
        let dir = meeting("mode");
        // A permissive folder made by hand is made owner-only.
        fs::create_dir(folder(&dir)).unwrap();
        fs::set_permissions(folder(&dir), fs::Permissions::from_mode(0o777)).unwrap();
        let mut file = file(&dir).expect("a scratch file");
        assert_eq!(mode(&file.metadata().unwrap()), 0o600, "the file, while it exists");
        assert_eq!(mode(&fs::symlink_metadata(folder(&dir)).unwrap()), 0o700, "the folder");
        file.write_all(b"the bundle").unwrap();
        file.rewind().unwrap();
        let mut back = String::new();
        file.read_to_string(&mut back).unwrap();
        assert_eq!(back, "the bundle");
        // On Linux the file never has a name (O_TMPFILE); elsewhere it is
        // removed as soon as it is made. Either way nothing is listed.
        assert_eq!(names(&folder(&dir)), Vec::<String>::new());
        drop(file);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_link_where_the_folder_goes_is_not_followed_and_a_start_removes_it() {
        let dir = meeting("link");
        let elsewhere = meeting("link-elsewhere");
        std::os::unix::fs::symlink(&elsewhere, folder(&dir)).unwrap();
        assert!(file(&dir).is_err(), "a link is refused, not followed");
        assert_eq!(names(&elsewhere), Vec::<String>::new());
        clear(&dir).unwrap();
        assert!(!folder(&dir).exists() && elsewhere.is_dir(), "the link removed, its target kept");
        assert!(file(&dir).is_ok(), "made again as a folder");
        fs::remove_dir_all(&dir).unwrap();
        fs::remove_dir_all(&elsewhere).unwrap();
    }

    #[test]
    fn a_start_removes_every_leftover_and_the_next_file_is_made_again() {
        let dir = meeting("clear");
        fs::create_dir_all(folder(&dir).join("inner")).unwrap();
        fs::write(folder(&dir).join(".tmpXyZ"), b"a bundle left by a crash").unwrap();
        clear(&dir).unwrap();
        assert!(!folder(&dir).exists());
        clear(&dir).unwrap();
        assert!(file(&dir).is_ok());
        fs::remove_dir_all(&dir).unwrap();
    }
}
