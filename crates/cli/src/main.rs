//! The `asamblea` command. All the work is in the library.

fn main() -> std::process::ExitCode {
    asamblea::cli::main()
}
