//! The command line: `asamblea <subcommand>`, its output and exit codes.
//!
//! Exit codes: 0 success; 1 a `--check` found a difference; 2 the input is
//! not valid (unreadable file, malformed scenario, bad arguments).

use std::io::Write;
use std::process::ExitCode;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

mod logging;

use crate::scenario;

use crate::scenario::files::command as scenario_command;
use logging::start_logging;

/// asamblea — votación electrónica para asambleas de accionistas /
/// electronic voting for shareholder meetings.
#[derive(Debug, Parser)]
#[command(
    name = "asamblea",
    version,
    disable_help_subcommand = true,
    after_help = "Ejemplos / examples:\n  asamblea demo                          la reunión de demostración en https://127.0.0.1:8443/\n  asamblea init reunion --meeting reunion.toml --register registro.csv\n  asamblea serve reunion                 sirve la reunión / serves the meeting\n  asamblea checkin reunion CC-79123456   registra una llegada / checks in a holder\n  asamblea verify paquete.bundle         verifica el paquete de auditoría / verifies the bundle\n\nCódigos de salida / exit codes: 0 bien / success · 1 una comprobación encontró una diferencia / a check found a difference · 2 entrada no válida / invalid input."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Reproduce escenarios de conformidad (shared/scenarios/FORMAT.md) /
    /// replay conformance scenarios.
    #[command(
        after_help = "Ejemplo / example:\n  asamblea scenario --check tests/scenarios/*.toml\n\nCódigos de salida / exit codes: 0 todos coinciden / all match · 1 alguno difiere / one differs · 2 archivo no válido / invalid file."
    )]
    Scenario {
        /// Compara el resultado con su [expect]; sale con 1 si difiere /
        /// compare each outcome with its [expect]; exit 1 on a difference.
        #[arg(long, conflicts_with = "report")]
        check: bool,
        /// Informe legible en español / a readable report (Spanish first).
        #[arg(long)]
        report: bool,
        /// En cambio: registra cada escenario como lo haría el servicio y
        /// escribe su paquete de auditoría en CARPETA/<nombre>.bundle /
        /// instead: record each scenario as the daemon would and write its
        /// audit bundle to DIR/<name>.bundle (for an outside verifier).
        #[arg(long, value_name = "CARPETA", conflicts_with_all = ["check", "report"])]
        bundle: Option<PathBuf>,
        /// Archivos de escenario (TOML) / scenario files.
        #[arg(required = true, value_name = "ARCHIVO")]
        files: Vec<String>,
    },
    /// La reunión de demostración, en HTTPS (se crea la primera vez) / the
    /// demo meeting, served over HTTPS (created on first run).
    #[command(
        after_help = "Ejemplo / example:\n  asamblea demo --listen 0.0.0.0:8443 --host urna.local\n\nCódigos de salida / exit codes: 0 detenida con Ctrl-C, todo guardado / stopped, all saved · 2 no pudo empezar / could not start."
    )]
    Demo {
        /// Dónde vive la reunión de demostración / where the demo meeting lives.
        #[arg(long, default_value = "asamblea-demo", value_name = "CARPETA")]
        dir: PathBuf,
        /// Dirección en la que escucha / address to listen on.
        #[arg(long, default_value = "127.0.0.1:8443", value_name = "DIRECCIÓN")]
        listen: String,
        /// En cambio: el informe del escenario de demostración
        /// (config/demo-meeting.toml), un ejemplo del formato de escenarios /
        /// instead: the report of the demo scenario, an example of the
        /// scenario format.
        #[arg(long)]
        replay: bool,
        /// Nombre o dirección con que los quioscos llegan al servicio, además
        /// de localhost (repetible; fijado al crear la reunión) / a name or
        /// address kiosks use, besides localhost.
        #[arg(long = "host", value_name = "NOMBRE")]
        hosts: Vec<String>,
        #[command(flatten)]
        limits: crate::commands::LimitOverrides,
    },
    /// Sirve una reunión en HTTPS / serve a meeting directory over HTTPS.
    #[command(
        after_help = "Ejemplo / example:\n  asamblea serve reunion --listen 0.0.0.0:8443\n\nMientras sirve, checkin, badges, revoke y kiosk pasan por el servicio / while it serves, the desk's commands go through it.\n\nCódigos de salida / exit codes: 0 detenido con Ctrl-C o SIGTERM, todo guardado / stopped, all saved · 2 no pudo empezar (el mensaje dice por qué) / could not start."
    )]
    Serve {
        /// La carpeta de la reunión / the meeting directory.
        #[arg(value_name = "CARPETA")]
        dir: PathBuf,
        /// Dirección en la que escucha / address to listen on.
        #[arg(long, default_value = "127.0.0.1:8443", value_name = "DIRECCIÓN")]
        listen: String,
        #[command(flatten)]
        internet: crate::commands::InternetListener,
        #[command(flatten)]
        limits: crate::commands::LimitOverrides,
        #[command(flatten)]
        replication: crate::commands::Replication,
    },
    /// Firma una papeleta con una credencial leída, como un quiosco; imprime
    /// el cuerpo de POST /api/v1/ballots / sign a ballot as a kiosk does.
    #[command(
        after_help = "Ejemplo / example:\n  asamblea ballot reunion --badge AS1… --item item-1 --vote CC-79123456=for\n\nCódigos de salida / exit codes: 0 bien / success · 2 entrada no válida / invalid input."
    )]
    Ballot {
        /// La carpeta de la reunión (su identificador y orden del día) /
        /// the meeting directory (its id and agenda).
        #[arg(value_name = "CARPETA")]
        dir: PathBuf,
        /// El texto del QR de la credencial / the badge's QR text.
        #[arg(long, value_name = "QR")]
        badge: String,
        /// El punto del orden del día / the agenda item.
        #[arg(long, value_name = "PUNTO")]
        item: String,
        /// ACCIONISTA=OPCIÓN (for, against, blank, o el nombre de una lista);
        /// repetible / HOLDER=OPTION, repeatable.
        #[arg(long = "vote", required = true, value_name = "ACCIONISTA=OPCIÓN")]
        votes: Vec<String>,
    },
    /// Inscribe (o revoca) el certificado de un quiosco / enrol (or revoke)
    /// a kiosk's client certificate.
    #[command(
        after_help = "Ejemplos / examples:\n  asamblea kiosk reunion K07 --csr solicitud.csr --daemon 10.20.0.10:8443   (la clave la hizo el quiosco / the kiosk made its key)\n  asamblea kiosk reunion K07 --out quiosco-7     (demostración: la clave se hace aquí / demo: the key is made here)\n  asamblea kiosk reunion K07 --revoke\n\nCódigos de salida / exit codes: 0 bien / success · 2 entrada no válida / invalid input."
    )]
    Kiosk {
        /// La carpeta de la reunión / the meeting directory.
        #[arg(value_name = "CARPETA")]
        dir: PathBuf,
        /// El identificador del quiosco (letras, dígitos, guiones) / the
        /// kiosk's id (letters, digits, dashes).
        #[arg(value_name = "QUIOSCO")]
        id: String,
        /// Revocarlo / revoke it instead.
        #[arg(long, conflicts_with_all = ["csr", "out"])]
        revoke: bool,
        /// Firma la solicitud que hizo el quiosco (asamblea-kiosk enroll) y
        /// escribe junto a ella kiosk.crt, ca.crt y kiosk.toml; la clave no
        /// sale del quiosco / sign the kiosk's own request and write the
        /// certificate, the CA and the settings beside it.
        #[arg(long, value_name = "ARCHIVO", conflicts_with = "out")]
        csr: Option<PathBuf>,
        /// Atajo de demostración: la clave se hace aquí y la carpeta entera
        /// del quiosco se escribe en CARPETA / demo shortcut: the key is made
        /// here and the kiosk's whole folder written to FOLDER.
        #[arg(long, value_name = "CARPETA")]
        out: Option<PathBuf>,
        /// Dirección del servicio que usará el quiosco / the daemon's
        /// address for the kiosk.
        #[arg(long, default_value = "127.0.0.1:8443", value_name = "HOST:PUERTO")]
        daemon: String,
        /// Dirección pública del tablero, a la que llevan los QR de los
        /// recibos: donde la sociedad lo publica con un certificado que un
        /// teléfono acepta (por omisión, la del servicio) / the board's
        /// public address, where the receipts' QR codes lead.
        #[arg(long, value_name = "https://HOST")]
        board: Option<String>,
    },
    /// Inicia un quiosco en este equipo (el mismo programa que
    /// asamblea-kiosk run) / run a kiosk on this machine (the same as
    /// asamblea-kiosk run).
    #[command(
        after_help = "En un quiosco de verdad use el programa asamblea-kiosk, que no lleva el libro ni SQLite (firmware-notes/). / On a real kiosk use the asamblea-kiosk program, which holds no ledger.\n\nEjemplo / example:\n  asamblea kiosk-run quiosco-1\n\nCódigos de salida / exit codes: 0 detenido / stopped · 2 no pudo empezar / could not start."
    )]
    KioskRun(asamblea_kiosk::command_line::RunArgs),
    /// Crea la carpeta de una reunión: configuración, registro, claves,
    /// libro / create a meeting directory: settings, register, keys, ledger.
    #[command(
        after_help = "Ejemplo / example:\n  asamblea init reunion --meeting reunion.toml --register registro.csv --host urna.local\n\nSe revisa todo antes de escribir nada; si algo falla no queda nada a medias / everything is checked before anything is written.\n\nCódigos de salida / exit codes: 0 bien / success · 2 entrada no válida / invalid input."
    )]
    Init {
        /// La carpeta a crear (no debe tener ya una reunión) / the directory
        /// to create (must not hold a meeting yet).
        #[arg(value_name = "CARPETA")]
        dir: PathBuf,
        /// meeting.toml, con --register (sin ninguno, la reunión de
        /// demostración; docs/meeting-file.md) / with --register (neither:
        /// the embedded demo meeting).
        #[arg(long, value_name = "ARCHIVO")]
        meeting: Option<PathBuf>,
        /// El libro de accionistas en CSV, con --meeting (docs/register.md) /
        /// the share register as CSV, with --meeting.
        #[arg(long, value_name = "ARCHIVO")]
        register: Option<PathBuf>,
        /// Nombre o dirección con que los quioscos llegan al servicio, además
        /// de localhost (repetible): el certificado del servicio los nombra /
        /// a name or address kiosks use, besides localhost (repeatable).
        #[arg(long = "host", value_name = "NOMBRE")]
        hosts: Vec<String>,
        /// Los nodos de una reunión replicada (separados por comas): el
        /// primero firma con la clave de la convocatoria, cada otro con una
        /// suya, inscrita en el libro (docs/replication.md) / a replicated
        /// meeting's nodes: each enrolled with a key of its own.
        #[arg(long, value_name = "NODOS", value_delimiter = ',')]
        nodes: Vec<String>,
    },
    /// Registra la llegada de un accionista o de un apoderado con sus
    /// representados / check in a holder in person, or an agent.
    #[command(
        after_help = "Ejemplos / examples:\n  asamblea checkin reunion CC-79123456\n  asamblea checkin reunion CC-52000111 --represents CC-79123456,NIT-900123456 --power-document \"poder 17\"\n\nCódigos de salida / exit codes: 0 registrado / checked in · 2 rechazado, el mensaje dice por qué / refused, the message says why."
    )]
    Checkin {
        /// La carpeta de la reunión / the meeting directory.
        #[arg(value_name = "CARPETA")]
        dir: PathBuf,
        /// El accionista (o el apoderado, con --represents) / the holder (or
        /// the agent, with --represents).
        #[arg(value_name = "PERSONA")]
        person: String,
        /// Los representados, separados por comas / the holders the agent
        /// represents, comma-separated.
        #[arg(long, value_delimiter = ',', value_name = "ACCIONISTAS")]
        represents: Vec<String>,
        /// Es su representante legal, no un apoderado / the agent is the
        /// holders' legal representative (not a proxy).
        #[arg(long)]
        legal_representative: bool,
        /// Referencia del poder presentado / reference of the power of
        /// attorney shown.
        #[arg(long, default_value = "", value_name = "REFERENCIA")]
        power_document: String,
    },
    /// Poderes radicados ante la sociedad antes de la reunión / powers of
    /// attorney lodged with the company before the meeting.
    #[command(visible_alias = "powers", subcommand)]
    Poderes(crate::powers::PowersCommand),
    /// Emite e imprime las credenciales QR de quienes estén presentes sin una
    /// / issue and print QR badges for everyone present without one.
    #[command(
        after_help = "Escribe, por credencial, credencial-NNNN.pdf (una por página, del tamaño de una tarjeta), .svg, .png (el QR) y .txt; y las hojas para imprimir: hoja-de-credenciales.pdf (con marcas de corte) y hoja-de-credenciales.html (A4, desde un navegador). / Writes, per badge, credencial-NNNN.pdf (card-sized), .svg, .png (the QR) and .txt; and the sheets to print: hoja-de-credenciales.pdf (with cut marks) and .html (A4, from a browser).\n\nEjemplo / example:\n  asamblea badges reunion --out credenciales --paper a4\n\nCada credencial contiene una clave secreta: los archivos son solo del dueño / each badge holds a secret key: the files are owner-only.\n\nCódigos de salida / exit codes: 0 bien / success · 2 entrada no válida / invalid input."
    )]
    Badges {
        /// La carpeta de la reunión / the meeting directory.
        #[arg(value_name = "CARPETA")]
        dir: PathBuf,
        /// Dónde escribirlas (por defecto CARPETA-credenciales, junto a la
        /// reunión: tienen las claves de voto) / where to write them
        /// (default: DIR-credenciales, beside the meeting: they hold the
        /// voting keys).
        #[arg(long, value_name = "CARPETA")]
        out: Option<PathBuf>,
        /// Papel de la hoja en PDF: carta (por defecto en Colombia, 8 por hoja) o a4 (10 por hoja) / the PDF sheet's paper: carta (letter, the default, 8 a page) or a4 (10 a page).
        #[arg(long, default_value = "carta", value_parser = ["carta", "a4"])]
        paper: String,
    },
    /// Escribe las cartas de admisión (PDF, Carta): una por accionista y
    /// por apoderado, cada una desde una página nueva / write the
    /// admission letters: one per holder and per agent, each from a new page.
    #[command(
        after_help = "Cada carta lleva los datos de la convocatoria, a quién se espera y para qué, y su código de admisión impreso y en QR. El código no es secreto ni una credencial: en la mesa trae a la persona, que muestra su documento; la credencial de voto se entrega después. / Each letter carries the notice, whom it expects and for what, and the admission code printed and as a QR. The code is neither a secret nor a credential: at the desk it brings up the person, who shows their ID; the voting badge is given after.\n\nEjemplos / examples:\n  asamblea cartas reunion --salida cartas.pdf\n  asamblea cartas reunion --salida carta.pdf --persona CC-1032456789\n\nCódigos de salida / exit codes: 0 escritas / written · 2 entrada no válida, o el servicio sirve la reunión (descárguelas de él) / invalid input, or a daemon serves the meeting (download them from it)."
    )]
    Cartas {
        /// La carpeta de la reunión / the meeting directory.
        #[arg(value_name = "CARPETA")]
        dir: PathBuf,
        /// El PDF que se escribe / the PDF to write.
        #[arg(long = "salida", short = 'o', value_name = "ARCHIVO")]
        out: PathBuf,
        /// Solo la carta de esta persona (su documento) / only this person's letter.
        #[arg(long = "persona", value_name = "DOCUMENTO")]
        person: Option<String>,
    },
    /// Revoca una credencial perdida / revoke a lost badge.
    #[command(
        after_help = "Ejemplo / example:\n  asamblea revoke reunion 17\n\nCódigos de salida / exit codes: 0 revocada / revoked · 2 entrada no válida / invalid input."
    )]
    Revoke {
        /// La carpeta de la reunión / the meeting directory.
        #[arg(value_name = "CARPETA")]
        dir: PathBuf,
        /// El número de la credencial / the badge's number.
        #[arg(value_name = "NÚMERO")]
        credential: u32,
    },
    /// Simula la reunión completa con quioscos simulados y papeletas firmadas
    /// / run the whole agenda with simulated kiosks and real signed ballots.
    #[command(
        after_help = "Ejemplo / example:\n  asamblea simulate reunion --attendance 90 --seed 7\n\nNo espera: cada cierre se anuncia y la hora de sus registros avanza lo que exige el tiempo mínimo de las votaciones / it never waits: each close is announced and its records' time moves forward as far as the poll timing requires.\n\nCódigos de salida / exit codes: 0 bien / success · 2 entrada no válida / invalid input."
    )]
    Simulate {
        /// La carpeta de la reunión / the meeting directory.
        #[arg(value_name = "CARPETA")]
        dir: PathBuf,
        /// Semilla de las decisiones simuladas / seed of the simulated choices.
        #[arg(long, default_value_t = 2027)]
        seed: u64,
        /// Porcentaje de accionistas que asisten / percentage who attend.
        #[arg(long, default_value_t = 80, value_parser = clap::value_parser!(u64).range(0..=100))]
        attendance: u64,
    },
    /// Escribe el paquete de auditoría (eventos, claves, registro, perfil,
    /// puntos de control) / write the audit bundle.
    #[command(
        after_help = "Ejemplo / example:\n  asamblea export reunion paquete.bundle\n\nFunciona con el servicio en marcha / works beside a running daemon.\n\nCódigos de salida / exit codes: 0 bien / success · 2 entrada no válida / invalid input."
    )]
    Export {
        /// La carpeta de la reunión / the meeting directory.
        #[arg(value_name = "CARPETA")]
        dir: PathBuf,
        /// El archivo del paquete / the bundle file to write.
        #[arg(value_name = "ARCHIVO")]
        out: PathBuf,
    },
    /// Mide el rendimiento: quioscos simulados contra un servicio en este
    /// proceso / simulated kiosks against an in-process daemon over HTTPS.
    #[command(
        after_help = "Ejemplo / example:\n  cargo run --release -p asamblea -- bench --rounds 3\n\nCódigos de salida / exit codes: 0 medido / measured · 2 entrada no válida / invalid input."
    )]
    Bench {
        /// Quioscos a la vez, cada uno con su conexión / concurrent kiosks.
        #[arg(long, default_value_t = 64)]
        kiosks: usize,
        /// Papeletas por corrida / ballots in each run.
        #[arg(long, default_value_t = 20_000)]
        ballots: usize,
        /// Dónde crear la reunión de prueba (por defecto una carpeta temporal)
        /// / where to create the bench meeting (default: a temporary one).
        #[arg(long, value_name = "CARPETA")]
        dir: Option<PathBuf>,
        /// Dirección del servicio / address the daemon listens on.
        #[arg(long, default_value = "127.0.0.1:0", value_name = "DIRECCIÓN")]
        listen: String,
        /// Rondas de (techo, HTTPS), alternadas / rounds of (ceiling, HTTPS)
        /// runs, taken in turn.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=100))]
        rounds: u16,
        /// Suscriptores del tablero en vivo durante una fase aparte (0: sin
        /// ella) / live-board subscribers held during a phase of their own
        /// (0: none).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=20_000))]
        subscribers: u32,
    },
    /// Mide una reunión grande (cien mil accionistas, un millón de
    /// papeletas): reinicio tras kill -9, verify y export, con su memoria /
    /// measure a large meeting: restart after kill -9, verify and export.
    #[command(
        name = "bench-scale",
        after_help = "La reunión se construye una vez (unos minutos) y se guarda en la caché; las corridas siguientes solo miden / the meeting is built once and cached; later runs only measure.\n\nEjemplo / example:\n  cargo run --release -p asamblea -- bench-scale\n\nCódigos de salida / exit codes: 0 medido / measured · 2 no pudo medir / could not measure."
    )]
    BenchScale {
        /// Accionistas en el libro (131.000: con diez puntos y 90 % de
        /// asistencia pasan del millón de papeletas) / holders in the
        /// register (131.000: ten items, 90 % attending, over a million
        /// ballots).
        #[arg(long, default_value_t = 131_000)]
        holders: u64,
        /// Puntos del orden del día / agenda items.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=256))]
        items: u16,
        /// Porcentaje que asiste / percentage attending.
        #[arg(long, default_value_t = 90, value_parser = clap::value_parser!(u64).range(1..=100))]
        attendance: u64,
        /// Dónde guardar la reunión construida / where the built meeting is
        /// kept between runs.
        #[arg(long, value_name = "CARPETA")]
        cache: Option<PathBuf>,
        /// Reinicios medidos / timed restarts.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=20))]
        restarts: u16,
        /// Poderes importados de un archivo en una reunión nueva del mismo
        /// libro, medidos (0: no se mide) / powers imported from a file into
        /// a fresh meeting of the same register, timed (0: none).
        #[arg(long, default_value_t = 20_000)]
        powers: u64,
    },
    /// Mide la conmutación de una reunión replicada: tres nodos, un clúster
    /// etcd de tres miembros, quioscos votando, y el líder muerto (SIGKILL)
    /// en momentos al azar; luego busca cada recibo en la cadena / measures
    /// a replicated meeting's failover and looks for every receipt.
    #[command(
        after_help = "Necesita etcd (apt-get install etcd-server) / needs etcd.\n\nEjemplo / example:\n  cargo run --release -p asamblea -- bench-failover --rounds 50\n\nCódigos de salida / exit codes: 0 medido y comprobado / measured and checked · 2 falló una comprobación o no pudo medir / a check failed or could not measure."
    )]
    BenchFailover {
        /// Líderes muertos / leaders killed.
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=1000))]
        rounds: u32,
        /// Quioscos votando a la vez / kiosks voting at once.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=256))]
        kiosks: u32,
        /// Papeletas por segundo entre todos / ballots a second, all kiosks.
        #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        rate: u32,
        /// Semilla de los momentos / seed of the moments.
        #[arg(long, default_value_t = 2027)]
        seed: u64,
        /// En cambio: papeletas por segundo y p99 de un daemon solo y de un
        /// líder replicado, por estos segundos, y la puesta al día de un
        /// seguidor / instead: ballots a second and p99, one daemon alone
        /// and a replicated leader, for this long; and a follower's catch-up.
        #[arg(
            long,
            value_name = "SEGUNDOS",
            value_parser = clap::value_parser!(u64).range(1..=600),
            conflicts_with_all = ["rounds", "rate", "seed"]
        )]
        throughput: Option<u64>,
    },
    /// Mide la reunión mixta a escala: asistentes a distancia con el
    /// tablero en vivo abierto, votando todos en una ventana junto a los
    /// quioscos / measure the mixed meeting at scale: remote attendees
    /// holding the live feed, all voting within a window beside the kiosks.
    #[command(
        name = "bench-remote",
        after_help = "Cada cifra de --attendees es una medida con su propio daemon (`asamblea serve`, con la escucha de internet); al final, la curva y su proyección a 100.000 / each figure of --attendees is one measure with a daemon of its own; at the end, the curve and its projection to 100.000.\n\nEjemplo / example:\n  cargo run --release -p asamblea -- bench-remote --attendees 5000,10000,20000\n\nCódigos de salida / exit codes: 0 medido / measured · 2 no pudo medir, o hubo papeletas sin confirmar o asistentes sin feed (las cifras lo dicen) / could not measure, or ballots were not acknowledged or attendees got no feed (the figures say which)."
    )]
    BenchRemote {
        /// Asistentes a distancia, una medida por cifra / remote attendees,
        /// one measure per figure (5000,10000,20000).
        #[arg(long, value_delimiter = ',', default_value = "5000,10000,20000", value_name = "N,N,…")]
        attendees: Vec<usize>,
        /// Segundos de la ventana en que todos votan (y de cada corrida de
        /// los quioscos) / seconds of the window in which everyone votes
        /// (and of each kiosk run).
        #[arg(long, default_value_t = 120, value_name = "SEGUNDOS", value_parser = clap::value_parser!(u64).range(1..=3600))]
        window: u64,
        /// Quioscos de la sala / the room's kiosks.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=1000))]
        kiosks: u16,
        /// Papeletas por segundo de todos los quioscos juntos / kiosk
        /// ballots a second, all kiosks together.
        #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        kiosk_rate: u32,
        /// Rondas por cifra / rounds at each figure.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=128))]
        rounds: u16,
    },
    /// Sostiene feeds de `bench-remote` en un proceso aparte (uso interno)
    /// / holds `bench-remote`'s feeds in a process of its own (internal).
    #[command(name = "bench-remote-feeds", hide = true)]
    BenchRemoteFeeds {
        #[arg(long)]
        public: std::net::SocketAddr,
        #[arg(long)]
        ca: PathBuf,
        #[arg(long)]
        first: usize,
        #[arg(long)]
        count: usize,
        #[arg(long)]
        mark: String,
    },
    /// Hace los certificados del clúster etcd de una reunión replicada: su
    /// autoridad, el de los miembros y el de los nodos / make the etcd
    /// cluster's certificates for a replicated meeting.
    #[command(
        after_help = "Ejemplo / example:\n  asamblea etcd-tls etcd-tls --host 10.20.0.11 --host 10.20.0.12 --host 10.20.0.13\n\nCada miembro de etcd usa ca.crt, member.crt y member.key (docs/replication.md); cada nodo, serve --replica-tls con ca.crt, client.crt y client.key / each etcd member uses ca.crt, member.crt, member.key; each node serve --replica-tls with ca.crt, client.crt, client.key.\n\nCódigos de salida / exit codes: 0 hechos / made · 2 no se pudieron hacer (el mensaje dice por qué) / could not be made."
    )]
    EtcdTls {
        /// La carpeta que se crea / the folder to create.
        #[arg(value_name = "CARPETA")]
        out: PathBuf,
        /// Dirección o nombre de cada miembro de etcd / each etcd member's
        /// address or name.
        #[arg(long = "host", value_name = "ANFITRIÓN", required = true)]
        hosts: Vec<String>,
    },
    /// Verifica un paquete de auditoría o el libro de una reunión, sin
    /// confiar en nada / verify a bundle or a meeting's ledger, trusting nothing.
    #[command(
        after_help = "Ejemplos / examples:\n  asamblea verify paquete.bundle --daemon-key 213c…e9 --checkpoint 233:9f2a…\n  asamblea verify reunion\n\nUna carpeta se verifica también contra cada cabeza que el servicio firmó en ledger.checkpoints, como al iniciar; dos cabezas firmadas distintas en un mismo evento son una equivocación. / A folder is also held to every head the daemon signed in ledger.checkpoints, as at a start; two different signed heads at one event are an equivocation.\n\nCódigos de salida / exit codes: 0 verificado / verified · 1 el paquete no cuadra, se nombra el primer evento / it does not verify, the first bad event is named · 2 no es un paquete ni una reunión / not a bundle or a meeting."
    )]
    Verify {
        /// Un paquete, o la carpeta de una reunión / a bundle file, or a
        /// meeting directory.
        #[arg(value_name = "RUTA")]
        path: PathBuf,
        #[command(flatten)]
        inputs: crate::verify::VerifyInputs,
    },
    /// Escribe el borrador del acta de un paquete verificado (Word o PDF) /
    /// write the acta (minutes) draft of a verified bundle (Word or PDF).
    #[command(
        after_help = "El acta es función del paquete: el mismo paquete da el mismo archivo, byte por byte, y --check dice si un archivo es el acta de ese paquete. / The acta is a function of the bundle: the same bundle gives the same file, and --check says whether a file is that bundle's acta.\n\nEjemplos / examples:\n  asamblea acta paquete.bundle -o acta.docx\n  asamblea acta paquete.bundle -o acta.pdf --paper a4\n  asamblea acta paquete.bundle --check acta.docx\n\nCódigos de salida / exit codes: 0 escrita, o es el acta / written, or it is the acta · 1 el paquete no verifica, o no es el acta / the bundle does not verify, or it is not the acta · 2 entrada no válida / invalid input."
    )]
    Acta {
        /// El paquete de auditoría / the audit bundle.
        #[arg(value_name = "PAQUETE")]
        bundle: PathBuf,
        /// Formato: docx (Word, para editar) o pdf; sin él, el de la extensión de -o (o del archivo de --check) / format: docx (Word, to edit) or pdf; without it, -o's extension's (or --check's file's).
        #[arg(long, value_parser = ["docx", "pdf"])]
        format: Option<String>,
        /// Papel del PDF: carta (por defecto en Colombia) o a4; --check sin él prueba los dos / the PDF's paper: carta (letter, the default) or a4; --check without it tries both.
        #[arg(long, value_parser = ["carta", "a4"])]
        paper: Option<String>,
        /// Archivo de salida / output file.
        #[arg(short = 'o', long = "out", value_name = "ARCHIVO", required_unless_present = "check")]
        out: Option<PathBuf>,
        /// Comprueba si este archivo es el acta del paquete / check whether this file is the bundle's acta.
        #[arg(long, value_name = "ARCHIVO", conflicts_with = "out")]
        check: Option<PathBuf>,
    },
    /// Escribe los resultados de un paquete verificado: puntos, accionistas
    /// con su voto, asistencia y derecho de retiro / write a verified
    /// bundle's tallies: items, holders with their votes, attendance,
    /// withdrawal.
    #[command(
        name = "export-results",
        after_help = "CSV: por defecto para Excel en Colombia (UTF-8 con BOM y `;`, porque allí la coma es el separador decimal); --csv-plain da RFC 4180 (`,`) para programas. Una tabla por archivo (--table). / CSV defaults to Excel in Colombia (UTF-8 with a BOM, `;`); --csv-plain gives RFC 4180.

Ejemplos / examples:
  asamblea export-results paquete.bundle --format xlsx -o resultados.xlsx
  asamblea export-results paquete.bundle --format csv --table accionistas -o accionistas.csv
  asamblea export-results paquete.bundle --format json

Códigos de salida / exit codes: 0 escrito / written · 1 el paquete no verifica: no se escribe nada / the bundle does not verify: nothing is written · 2 entrada no válida / invalid input."
    )]
    ExportResults {
        /// El paquete de auditoría / the audit bundle.
        #[arg(value_name = "PAQUETE")]
        bundle: PathBuf,
        /// Formato / format.
        #[arg(long, default_value = "xlsx", value_parser = ["xlsx", "csv", "json"])]
        format: String,
        /// La tabla, en CSV / the table, for CSV.
        #[arg(long, default_value = "puntos", value_parser = asamblea_api::formats::CSV_TABLES)]
        table: String,
        /// CSV RFC 4180 (`,`) en lugar del de Excel en Colombia / RFC 4180 CSV instead of Excel's.
        #[arg(long)]
        csv_plain: bool,
        /// Archivo de salida (por defecto la salida estándar; obligatorio
        /// para xlsx) / output file (standard output by default; needed for
        /// xlsx).
        #[arg(short = 'o', long = "out", value_name = "ARCHIVO")]
        out: Option<PathBuf>,
    },
}

/// The command line with its help in Spanish first: the headings, the
/// help and version flags, and every command's usage line.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    asamblea_kiosk::help::spanish(Cli::command())
}

/// The demo meeting, embedded so that `asamblea demo` needs no files.
pub const DEMO_SCENARIO: &str = include_str!("../../../config/demo-meeting.toml");

/// Parses the arguments, runs, prints, and returns the exit code.
pub fn main() -> ExitCode {
    use clap::FromArgMatches;
    let cli = match Cli::from_arg_matches(&command().get_matches()) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    let mut stdout = std::io::stdout().lock();
    // Not locked for the whole run: the daemon's log lines go to standard
    // error from its worker threads, and would wait forever on a lock the
    // main thread holds.
    let mut stderr = std::io::stderr();
    let code = run(cli, &mut stdout, &mut stderr);
    let _ = stdout.flush();
    crate::scale::report_peak_memory();
    ExitCode::from(code)
}

/// Runs a parsed command line, writing to the given streams.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match cli.command {
        Command::Scenario { check, report, bundle, files } => {
            scenario_command(check, report, bundle.as_deref(), &files, out, err)
        }
        Command::Demo { dir, listen, replay: false, hosts, limits } => finish(
            start_logging().and_then(|()| crate::commands::demo(&dir, &listen, &hosts, &limits, out)),
            err,
        ),
        Command::Serve { dir, listen, internet, limits, replication } => finish(
            start_logging()
                .and_then(|()| crate::commands::serve(&dir, &listen, &internet, &limits, &replication, out)),
            err,
        ),
        Command::Ballot { dir, badge, item, votes } => {
            finish(crate::commands::sign_ballot(&dir, &badge, &item, &votes, out), err)
        }
        Command::Kiosk { dir, id, revoke, csr, out: folder, daemon, board } => {
            let enrol = match (csr, folder) {
                (Some(csr), _) => crate::desk::KioskEnrolment::Request(csr),
                (None, Some(folder)) => crate::desk::KioskEnrolment::Shortcut(folder),
                (None, None) => crate::desk::KioskEnrolment::InMeeting,
            };
            finish(crate::desk::kiosk(&dir, &id, revoke, enrol, &daemon, board.as_deref(), out), err)
        }
        Command::KioskRun(args) => args.run(),
        Command::Demo { replay: true, .. } => {
            match scenario::parse("config/demo-meeting.toml", DEMO_SCENARIO) {
                Ok(s) => {
                    let replay = scenario::replay(&s);
                    let _ = writeln!(
                        out,
                        "Escenario de demostración (config/demo-meeting.toml): un ejemplo del formato de escenarios, reproducido por el motor de reglas; no es la reunión que sirve `asamblea demo` (esa se verifica con `asamblea verify asamblea-demo`). / The demo scenario: an example of the scenario format replayed by the rules engine; not the meeting `asamblea demo` serves (verify that one with `asamblea verify asamblea-demo`).\n"
                    );
                    let _ = write!(out, "{}", scenario::report("config/demo-meeting.toml", &s, &replay));
                    0
                }
                Err(e) => {
                    let _ = writeln!(err, "error: {e}");
                    2
                }
            }
        }
        Command::Init { dir, meeting, register, hosts, nodes } => finish(
            crate::commands::init(&dir, meeting.as_deref(), register.as_deref(), &hosts, &nodes, out),
            err,
        ),
        Command::Checkin { dir, person, represents, legal_representative, power_document } => finish(
            crate::desk::checkin(&dir, &person, &represents, legal_representative, &power_document, out),
            err,
        ),
        Command::Badges { dir, out: to, paper } => {
            let paper = if paper == "a4" {
                asamblea_documents::pdf::Paper::A4
            } else {
                asamblea_documents::pdf::Paper::Carta
            };
            finish(crate::desk::issue_badges(&dir, to.as_deref(), paper, out), err)
        }
        Command::Poderes(command) => match crate::powers::run(command, out) {
            Ok(crate::powers::Imported::Lodged) => 0,
            Ok(crate::powers::Imported::Refused) => 2,
            Err(e) => finish(Err(e), err),
        },
        Command::Cartas { dir, out: file, person } => {
            finish(crate::commands::letters(&dir, &file, person.as_deref(), out), err)
        }
        Command::Revoke { dir, credential } => finish(crate::desk::revoke(&dir, credential, out), err),
        Command::Simulate { dir, seed, attendance } => {
            finish(crate::commands::simulate(&dir, seed, attendance, out), err)
        }
        Command::Bench { kiosks, ballots, dir, listen, rounds, subscribers } => finish(
            crate::bench::bench(
                &crate::bench::BenchOptions {
                    kiosks,
                    ballots,
                    dir,
                    listen,
                    rounds: usize::from(rounds),
                    subscribers: subscribers as usize,
                },
                out,
            ),
            err,
        ),
        Command::BenchFailover { throughput: Some(seconds), kiosks, .. } => {
            finish(crate::failover::throughput(seconds, kiosks, out), err)
        }
        Command::BenchFailover { rounds, kiosks, rate, seed, throughput: None } => finish(
            crate::failover::bench_failover(
                &crate::failover::FailoverOptions { rounds, kiosks, rate, seed },
                out,
            ),
            err,
        ),
        Command::BenchScale { holders, items, attendance, cache, restarts, powers } => finish(
            crate::scale::bench_scale(
                &crate::scale::ScaleOptions {
                    holders,
                    items: usize::from(items),
                    attendance,
                    cache,
                    restarts: usize::from(restarts),
                    powers,
                },
                out,
            ),
            err,
        ),
        Command::BenchRemote { attendees, window, kiosks, kiosk_rate, rounds } => finish(
            crate::remote_bench::bench_remote(
                &crate::remote_bench::RemoteOptions {
                    attendees,
                    window: std::time::Duration::from_secs(window),
                    kiosks: usize::from(kiosks),
                    kiosk_rate: kiosk_rate as usize,
                    rounds: usize::from(rounds),
                },
                out,
            ),
            err,
        ),
        Command::BenchRemoteFeeds { public, ca, first, count, mark } => {
            finish(crate::remote_bench::feeds::hold_feeds(public, &ca, first, count, &mark, out), err)
        }
        Command::Export { dir, out: file } => finish(crate::commands::export(&dir, &file, out), err),
        Command::Acta { bundle, format, paper, out: file, check } => {
            let asked = crate::commands::ActaAsked { format: format.as_deref(), paper: paper.as_deref() };
            match crate::commands::acta(&bundle, asked, file.as_deref(), check.as_deref(), out) {
                Ok(true) => 0,
                Ok(false) => 1,
                Err(e) => finish(Err(e), err),
            }
        }
        Command::ExportResults { bundle, format, table, csv_plain, out: file } => {
            match crate::commands::export_results(&bundle, &format, &table, csv_plain, file.as_deref(), out) {
                Ok(true) => 0,
                Ok(false) => 1,
                Err(e) => finish(Err(e), err),
            }
        }
        Command::EtcdTls { out: folder, hosts } => finish(
            asamblea_pki::create_etcd_pki(&folder, &hosts).map_err(anyhow::Error::from).and_then(|()| {
                writeln!(
                    out,
                    "Certificados de etcd en / etcd certificates in {}: ca.crt, member.crt y member.key para cada miembro; ca.crt, client.crt y client.key para cada nodo (serve --replica-tls) / for each member; for each node",
                    folder.display()
                )
                .map_err(anyhow::Error::from)
            }),
            err,
        ),
        Command::Verify { path, inputs } => match crate::verify::verify(&path, &inputs, out) {
            Ok(true) => 0,
            Ok(false) => 1,
            Err(e) => finish(Err(e), err),
        },
    }
}

/// Exit code 0, or the error chain printed once and exit code 2.
fn finish(result: anyhow::Result<()>, err: &mut dyn Write) -> u8 {
    match result {
        Ok(()) => 0,
        Err(e) => {
            let _ = writeln!(err, "error: {e:#}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_attendees_flag_takes_a_comma_separated_list() {
        use clap::Parser;
        let parsed = Cli::try_parse_from([
            "asamblea",
            "bench-remote",
            "--attendees",
            "5000,10000,20000",
            "--window",
            "30",
        ])
        .expect("parsed");
        match parsed.command {
            Command::BenchRemote { attendees, window, .. } => {
                assert_eq!(attendees, [5_000, 10_000, 20_000]);
                assert_eq!(window, 30);
            }
            _ => panic!("not bench-remote"),
        }
        assert!(Cli::try_parse_from(["asamblea", "bench-remote", "--attendees", "5000,x"]).is_err());
    }
}
