//! `asamblea-kiosk`: the program a voting kiosk runs. A binary of its own,
//! not a command of `asamblea`, so that a kiosk's image holds no ledger,
//! no SQLite and no daemon (`cargo tree -p asamblea-kiosk` shows neither);
//! `asamblea kiosk-run` runs the same code on the venue's machine, for a
//! demo and the tests.

use std::process::ExitCode;

fn main() -> ExitCode {
    asamblea_kiosk::command_line::main(std::env::args_os())
}
