//! How a command line of asamblea's shows its help: Spanish first, with
//! the English beside it (`Uso / usage`, `Opciones / options`), for
//! `asamblea` and `asamblea-kiosk` alike. Here because both binaries
//! depend on this crate, and it on neither.

use clap::{Arg, ArgAction, Command};

/// `command` with its help and version flags and every section heading in
/// Spanish and English, its subcommands too.
pub fn spanish(command: Command) -> Command {
    let template = |c: &Command| {
        let mut t = String::from("{about-with-newline}\nUso / usage: {usage}\n");
        if c.get_positionals().next().is_some() {
            t.push_str("\nArgumentos / arguments:\n{positionals}\n");
        }
        t.push_str("\nOpciones / options:\n{options}");
        if c.has_subcommands() {
            t.push_str("\n\nComandos / commands:\n{subcommands}");
        }
        t.push_str("{after-help}");
        t
    };
    let help = Arg::new("help")
        .short('h')
        .long("help")
        .action(ArgAction::Help)
        .global(true)
        .help("Muestra esta ayuda / print this help");
    let version = Arg::new("version")
        .short('V')
        .long("version")
        .action(ArgAction::Version)
        .help("Muestra la versión / print the version");
    let command = command
        .disable_help_flag(true)
        .disable_version_flag(true)
        .subcommand_value_name("COMANDO")
        .arg(help)
        .arg(version);
    let top = template(&command);
    command.help_template(top).mut_subcommands(|sub| {
        let t = template(&sub);
        sub.help_template(t)
    })
}
