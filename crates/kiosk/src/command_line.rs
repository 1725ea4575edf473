//! `asamblea-kiosk`'s command line: `enroll` (the device key and its
//! certificate request, made here) and `run` (the kiosk).

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{FromArgMatches, Parser, Subcommand};

/// asamblea-kiosk — el quiosco de votación / the voting kiosk.
#[derive(Debug, Parser)]
#[command(
    name = "asamblea-kiosk",
    version,
    disable_help_subcommand = true,
    after_help = "Ejemplos / examples:\n  asamblea-kiosk enroll /var/lib/asamblea-kiosk --id K07\n  asamblea-kiosk run /var/lib/asamblea-kiosk --scanner /dev/escaner\n\nCódigos de salida / exit codes: 0 bien / success · 2 no pudo empezar o entrada no válida / could not start, or invalid input."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Crea la clave del quiosco aquí y su solicitud de certificado / make
    /// the kiosk's key here and its certificate request.
    #[command(
        after_help = "Lleve solo solicitud.csr a la mesa de registro: allí se firma con `asamblea kiosk REUNION ID --csr solicitud.csr`, que devuelve kiosk.crt, ca.crt y kiosk.toml para esta carpeta. La clave (kiosk.key) no sale nunca del quiosco. / Take only solicitud.csr to the desk; copy the three files it gives back into this folder. The key never leaves the kiosk."
    )]
    Enroll {
        /// La carpeta del quiosco / the kiosk's folder.
        #[arg(value_name = "CARPETA")]
        dir: PathBuf,
        /// El identificador del quiosco (letras, dígitos, guiones) / the kiosk's id.
        #[arg(long, value_name = "ID")]
        id: String,
    },
    /// Inicia el quiosco: la página táctil en 127.0.0.1 y el lector / run the kiosk.
    #[command(
        after_help = "Abra la página en el navegador del quiosco (en modo quiosco: firmware-notes/). / Open the page in the kiosk's browser (in kiosk mode: firmware-notes/)."
    )]
    Run(RunArgs),
}

/// The options of `run` (and of `asamblea kiosk-run`).
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// La carpeta del quiosco inscrito / the enrolled kiosk's folder.
    #[arg(value_name = "CARPETA")]
    pub dir: PathBuf,
    /// Dirección local de la página táctil / the touch page's local address.
    #[arg(long, default_value = "127.0.0.1:8088", value_name = "DIRECCIÓN")]
    pub listen: SocketAddr,
    /// Lector en modo serie: un dispositivo que da una credencial por línea
    /// / a scanner in serial mode: a device that gives a badge a line.
    #[arg(long, value_name = "DISPOSITIVO")]
    pub scanner: Option<PathBuf>,
    /// Segundos sin tocar la pantalla antes de cerrar una votación a medias
    /// / seconds without a touch before a half-made vote is cleared.
    #[arg(long, default_value_t = 90, value_name = "SEGUNDOS")]
    pub idle: u64,
}

impl RunArgs {
    /// Runs the kiosk until stopped; 0 when stopped, 2 when it could not
    /// start (the message says why).
    pub fn run(self) -> u8 {
        let mut options = crate::app::Options::new(self.dir);
        options.listen = self.listen;
        options.scanner = self.scanner;
        options.idle_after = Duration::from_secs(self.idle.max(10));
        let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().worker_threads(2).build()
        {
            Ok(runtime) => runtime,
            Err(error) => {
                eprintln!("error: {error}");
                return 2;
            }
        };
        let served = runtime.block_on(crate::app::run(options, |addr, trouble| match trouble {
            None => println!("Quiosco listo / kiosk ready: http://{addr}/"),
            Some(notice) => {
                println!("Quiosco abierto SIN servicio de votación / kiosk open WITHOUT the voting service: http://{addr}/");
                eprintln!("ATENCIÓN / WARNING: {} / {}", notice.es, notice.en);
            }
        }));
        match served {
            Ok(()) => 0,
            Err(error) => {
                eprintln!("error: {error:#}");
                2
            }
        }
    }
}

/// Parses `args` and runs.
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    use clap::CommandFactory;
    let matches = crate::help::spanish(Cli::command()).get_matches_from(args);
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    let _ = tracing_subscriber::fmt().with_writer(std::io::stderr).try_init();
    ExitCode::from(match cli.command {
        Command::Enroll { dir, id } => {
            match crate::folder::enroll(&dir, &id) {
                Ok((request, fingerprint)) => {
                    println!(
                        "Clave creada en / key made in {} (no sale de este equipo / it stays here).",
                        dir.join(crate::folder::KEY).display()
                    );
                    println!("Solicitud / request: {}", request.display());
                    println!("Huella SHA-256 para leer en la mesa / fingerprint to read at the desk: {fingerprint}");
                    0
                }
                Err(error) => {
                    eprintln!("error: {error:#}");
                    2
                }
            }
        }
        Command::Run(args) => args.run(),
    })
}
