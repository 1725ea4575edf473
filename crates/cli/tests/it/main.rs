//! Integration tests of the `asamblea` package — the binary and the crates
//! together, end to end: one test binary, a module per feature (STYLE.md
//! §13).

mod api;
mod architecture;
mod board;
mod cli;
mod consoles;
mod desk_badge;
mod desk_day;
mod desk_powers;
mod exports;
mod firmware;
mod flood;
mod internet;
mod invalid_scenarios;
mod kill;
mod kiosk;
mod letters;
mod meeting_day;
mod meeting_dir;
mod mixed_meeting;
mod powers;
mod private_files;
mod remote_page;
mod replicated;
mod scenarios;
mod support;
mod vectors;
mod verify_dir;
mod webdriver;

/// The workspace root, from this crate's manifest directory.
pub fn workspace_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/cli is two levels down")
        .to_path_buf()
}
