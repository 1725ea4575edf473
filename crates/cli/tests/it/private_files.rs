//! Nothing of a meeting in a file another account could read or name
//! (issue 22, point 3): `verify DIR` writes its bundle to no file at a
//! name chosen in advance — a file or a symbolic link someone made there
//! first receives nothing — and what a crash leaves in the meeting's own
//! temporary folder (`DIR/tmp`) is gone at the next start.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::asamblea_ok as ok;

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("asamblea-private-{name}-{}", std::process::id()));
    crate::support::remove_meeting(&dir);
    dir
}

/// The entries of a folder, by name (none when it does not exist).
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|read| read.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn verify_dir_writes_through_no_file_or_link_someone_made_at_the_name_it_used_to_take() {
    let dir = temp("verify");
    ok(&["init", s(&dir)]);
    ok(&["checkin", s(&dir), "CC-10000000"]);
    // Another account's temporary folder, as `verify` sees it ($TMPDIR),
    // where that account made, at the name the old `verify` took (its
    // process number and the meeting id's first bytes), first a link to a
    // file of its own, then a plain file it may write.
    let tmp = dir.with_extension("tmpdir");
    let prefix: String = crate::support::meeting_id(&dir).0[..4].iter().map(|b| format!("{b:02x}")).collect();
    for made in [r#"ln -s "$1" "$name""#, r#": > "$name" && chmod 666 "$name""#] {
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).unwrap();
        let target = tmp.join("target");
        std::fs::write(&target, b"").unwrap();
        // `exec` keeps the shell's process number: the name is the one the
        // binary would compute.
        let script =
            format!(r#"name="$TMPDIR/asamblea-verify-$$-$2.bundle" && {made} && exec "$3" verify "$4""#);
        let out = Command::new("sh")
            .args(["-c", &script, "sh", s(&target), &prefix, env!("CARGO_BIN_EXE_asamblea"), s(&dir)])
            .env("TMPDIR", &tmp)
            .output()
            .expect("sh runs");
        let said = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{made}: {said}{}", String::from_utf8_lossy(&out.stderr));
        assert!(said.contains("VERIFICADO"), "{said}");
        let names = entries(&tmp);
        for name in &names {
            let file = tmp.join(name);
            if !file.is_symlink() {
                let written = std::fs::metadata(&file).unwrap().len();
                assert_eq!(written, 0, "{made}: {written} bytes of the bundle were written into {name}");
            }
        }
        assert_eq!(names.len(), 2, "{made}: nothing added or removed in $TMPDIR: {names:?}");
    }
    // Nor is anything left in the meeting's own temporary folder.
    assert_eq!(entries(&dir.join("tmp")), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&tmp);
    crate::support::remove_meeting(&dir);
}

#[test]
fn a_start_removes_what_a_crash_left_in_the_meetings_temporary_folder() {
    let dir = temp("leftovers");
    ok(&["init", s(&dir)]);
    // What a kill -9 could leave: a file, a folder, a link (removed, never
    // followed).
    let scratch = dir.join("tmp");
    std::fs::create_dir_all(scratch.join("folder")).unwrap();
    std::fs::write(scratch.join(".tmpAbC123"), b"the whole bundle").unwrap();
    std::fs::write(scratch.join("folder").join("inside"), b"x").unwrap();
    let outside = dir.with_extension("outside");
    std::fs::write(&outside, b"keep").unwrap();
    std::os::unix::fs::symlink(&outside, scratch.join("link")).unwrap();
    let lock = asamblea_venue::lock::MeetingLock::acquire_or_explain(&dir).expect("the meeting's lock");
    let service = asamblea_venue::service::Service::open_locked(&dir, lock).expect("a start");
    assert_eq!(entries(&scratch), Vec::<String>::new(), "the start empties DIR/tmp");
    assert_eq!(std::fs::read(&outside).unwrap(), b"keep", "a link's target is not touched");
    drop(service.close());
    // The command line's start is the same start.
    std::fs::create_dir_all(&scratch).unwrap();
    std::fs::write(scratch.join("again"), b"x").unwrap();
    ok(&["checkin", s(&dir), "CC-10000000"]);
    assert_eq!(entries(&scratch), Vec::<String>::new());
    let _ = std::fs::remove_file(outside);
    crate::support::remove_meeting(&dir);
}
