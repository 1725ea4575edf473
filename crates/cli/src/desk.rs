//! The registration desk's commands — `checkin`, `badges`, `revoke`,
//! `kiosk` — which a desk runs during the meeting (a late arrival, a lost
//! badge). Each acts on the meeting directory itself when nothing else
//! writes it, and through the running daemon's API when a daemon holds the
//! meeting's lock (`asamblea_venue::lock`): then the daemon is the one
//! writer, every figure it shows includes the action at once, and the
//! meeting goes on. Either way the ledger gets the same events, signed by
//! the operator's key, and the command prints the same lines.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use asamblea_documents::badges::{self, BadgeInfo};
use asamblea_documents::numfmt::thousands;
use asamblea_kiosk::{BadgeSeed, HttpsClient};
use asamblea_rules::Capacity;
use asamblea_venue::lock::{busy_message, DaemonRun, Holder, MeetingLock};
use asamblea_venue::secrets::{create_private_dir, write_private_new, write_private_replacing};
use asamblea_venue::service::{Attendee, Service};
use serde_json::Value;

/// Who writes the meeting for this command.
enum Writer {
    /// Nobody else: this process, on the files, holding the lock.
    Files(MeetingLock),
    /// A running daemon, through its API.
    Daemon(Box<Daemon>),
}

fn writer(dir: &Path) -> Result<Writer> {
    match MeetingLock::acquire(dir)? {
        Ok(lock) => match asamblea_venue::lock::ReplicaMark::read(dir)? {
            None => Ok(Writer::Files(lock)),
            // A replicated meeting's node whose daemon is not running: its
            // ledger is the copy's, and a record written here alone could
            // be set aside at the next takeover (acknowledged, then lost).
            Some(mark) => {
                drop(lock);
                let why = format!(
                    "{}: esta carpeta es el nodo «{}» de una reunión replicada y su daemon no está corriendo: lo que el comando \
                     escribiera aquí solo no quedaría en la copia, así que no escribe nada / this folder is a node of a replicated \
                     meeting and its daemon is not running: what the command wrote here alone would not be in the copy, so it writes nothing.",
                    dir.display(),
                    mark.node
                );
                through_the_leader(dir, mark, &why)
            }
        },
        Err(Holder::Daemon(run)) => Ok(Writer::Daemon(Box::new(Daemon::connect(dir, run)?))),
        Err(Holder::Standby(run)) => {
            let why = busy_message(dir, &Holder::Standby(run.clone()));
            through_the_leader(dir, run.node, &why)
        }
        Err(holder) => bail!("{}", busy_message(dir, &holder)),
    }
}

/// A desk command on a replicated meeting's node that does not serve
/// (`run`: as a standby's file or the folder's `ReplicaMark` names it): with the
/// operator's own token, through the node that leads; else refused with
/// `why`, naming the node that leads and where.
fn through_the_leader(dir: &Path, run: asamblea_venue::lock::ReplicaMark, why: &str) -> Result<Writer> {
    if let Some(token) = std::env::var(OPERATOR_TOKEN).ok().filter(|t| !t.trim().is_empty()) {
        let leader = leader_run(dir, &run, token.trim())?;
        let mut daemon = Daemon::connect(dir, leader)?;
        daemon.standby = Some(run);
        return Ok(Writer::Daemon(Box::new(daemon)));
    }
    bail!(
        "{why}{}\nO dé la clave del operador en {OPERATOR_TOKEN} y el comando irá por el nodo que lidera / or give the operator's token in {OPERATOR_TOKEN} and the command goes through the node that leads",
        who_leads(dir, &run)
    )
}

/// The variable that carries the operator's token (printed by `init`) for
/// a desk command on a standby's machine of a replicated meeting.
const OPERATOR_TOKEN: &str = "ASAMBLEA_OPERATOR_TOKEN";

/// The node that leads and its published address, as the copy says
/// (`None`: no node leads at this moment); or why the copy could not be
/// asked, in words that say what to check.
fn leader_of(
    dir: &Path,
    run: &asamblea_venue::lock::ReplicaMark,
) -> Result<Option<(String, Option<String>)>, String> {
    let mut members = Vec::new();
    for member in &run.members {
        members.push(member.parse::<std::net::SocketAddr>().map_err(|_| {
            format!(
                "{} nombra «{member}» como miembro de etcd, que no es una dirección IP:puerto; corríjalo con la lista de --replica / names a member that is not an IP:port address",
                asamblea_venue::lock::ReplicaMark::path(dir).display()
            )
        })?);
    }
    let meeting = asamblea_venue::secrets::read_meeting_id(dir)
        .map_err(|e| format!("no se pudo leer el identificador de la reunión en {} / the meeting's id could not be read: {e:#}", dir.display()))?;
    let tls = match &run.tls {
        Some(folder) => Some(asamblea_pki::etcd_client_config(folder).map_err(|e| {
            format!(
                "los certificados de etcd en {} no sirven ({e:#}): cópielos de nuevo desde la carpeta que hizo `asamblea etcd-tls` / the etcd certificates there are not usable: copy them again",
                folder.display()
            )
        })?),
        None => None,
    };
    let copy = asamblea_replica::Etcd::new(members, &meeting)
        .with_timeout(std::time::Duration::from_secs(1))
        .with_tls(tls);
    let unreachable = |e: String| {
        format!(
            "ningún miembro de etcd respondió ({}): {e}. Revise que esta máquina esté en la red de la sede y que etcd corra en los miembros (systemctl status etcd), y repita el comando / no etcd member answered: check this machine is on the venue's network and etcd runs on the members, then run the command again",
            run.members.join(", ")
        )
    };
    let Some(leader) = copy.leader().map_err(unreachable)? else { return Ok(None) };
    let address = copy.addresses().map_err(unreachable)?.into_iter().find(|(name, _)| *name == leader);
    Ok(Some((leader, address.map(|(_, a)| a))))
}

/// How to reach the node that leads, as the desk with `token`; a refusal
/// that says why when the copy names no leader or no address for it, or
/// cannot be asked.
fn leader_run(dir: &Path, run: &asamblea_venue::lock::ReplicaMark, token: &str) -> Result<DaemonRun> {
    match leader_of(dir, run) {
        Ok(Some((_, Some(address)))) => Ok(DaemonRun { pid: 0, address, token: token.to_string() }),
        Ok(Some((leader, None))) => bail!(
            "lidera {leader}, pero no publicó su dirección (serve --advertise): use su consola de registro / {leader} leads but published no address: use its desk console"
        ),
        Ok(None) => bail!(
            "la copia en etcd no dice quién lidera ahora (un nodo está tomando la reunión): espere unos segundos y repita el comando / the etcd copy names no leader now (a node is taking over): wait a few seconds and run the command again"
        ),
        Err(why) => bail!("{why}"),
    }
}

/// Which node leads a replicated meeting and where its consoles are, as
/// the copy says; or why the copy could not say.
fn who_leads(dir: &Path, run: &asamblea_venue::lock::ReplicaMark) -> String {
    match leader_of(dir, run) {
        Ok(Some((leader, Some(address)))) => format!(
            "\nLidera {leader}: su consola de registro está en https://{address}/personal / {leader} leads: its desk console is at https://{address}/personal"
        ),
        Ok(Some((leader, None))) => format!("\nLidera {leader} / {leader} leads"),
        Ok(None) => "\nAhora no lidera ningún nodo: espere unos segundos / no node leads right now: wait a few seconds".to_string(),
        Err(why) => format!("\nNo se pudo saber quién lidera / who leads could not be told: {why}"),
    }
}

/// A connection to the daemon that serves the meeting, as the desk.
struct Daemon {
    runtime: tokio::runtime::Runtime,
    client: HttpsClient,
    run: DaemonRun,
    /// The meeting directory (to connect again).
    dir: std::path::PathBuf,
    /// On a standby's machine: the node it reaches is the leader the copy
    /// names, asked again when a connection is lost.
    standby: Option<asamblea_venue::lock::ReplicaMark>,
}

impl Daemon {
    fn connect(dir: &Path, run: DaemonRun) -> Result<Daemon> {
        if run.token.is_empty() {
            bail!(
                "el servicio de la reunión (proceso {}) está activo, pero no se encuentra su ficha de mesa en la carpeta de claves {}: \
                 use la misma cuenta y el mismo ASAMBLEA_KEYS con que se inició el servicio / the meeting's daemon runs, but its \
                 desk token is not in the key folder: use the same account and the same ASAMBLEA_KEYS the daemon was started with",
                run.pid,
                asamblea_venue::secrets::key_folder_of(dir).map(|k| k.display().to_string()).unwrap_or_default()
            );
        }
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        // `daemon.run` holds an IP address; the copy may name a host.
        let addr = std::net::ToSocketAddrs::to_socket_addrs(run.address.as_str())
            .ok()
            .and_then(|mut all| all.next())
            .with_context(|| format!("`{}` no es una dirección alcanzable (daemon.run, o la que publicó el nodo que lidera); reinicie el servicio / is not a reachable address", run.address))?;
        let tls = asamblea_kiosk::staff_tls(dir)?;
        let client = runtime.block_on(HttpsClient::connect(addr, tls)).with_context(|| {
            if run.pid == 0 {
                format!("el nodo que lidera no responde en https://{}/ / the leading node does not answer there", run.address)
            } else {
                format!(
                    "el servicio de la reunión (proceso {}) no responde en https://{}/ / the meeting's daemon does not answer there",
                    run.pid, run.address
                )
            }
        })?;
        Ok(Daemon { runtime, client, run, dir: dir.to_path_buf(), standby: None })
    }

    /// [`Daemon::call`] of a request that may be sent twice (the daemon
    /// answers a repeat as it answered the first): when the first attempt
    /// fails — an answer lost with the connection — connects again and
    /// sends it once more.
    fn call_again_if_lost(&mut self, path: &str, body: Value) -> Result<Value> {
        match self.call(path, Some(body.clone())) {
            Ok(answer) => Ok(answer),
            Err(first) => {
                // On a standby's machine the leader may have changed: the
                // same request goes to the one the copy names now.
                let run = match &self.standby {
                    Some(standby) => match leader_run(&self.dir, standby, &self.run.token) {
                        Ok(run) => run,
                        Err(_) => return Err(first),
                    },
                    None => self.run.clone(),
                };
                let Ok(mut again) = Daemon::connect(&self.dir, run) else { return Err(first) };
                again.standby = self.standby.take();
                *self = again;
                self.call(path, Some(body))
            }
        }
    }

    /// Sends a request; a refusal becomes an error with the daemon's own
    /// Spanish and English message.
    fn call(&mut self, path: &str, body: Option<Value>) -> Result<Value> {
        let token = self.run.token.clone();
        let (status, answer) = self.runtime.block_on(async {
            match &body {
                Some(body) => self.client.post_json(path, body, Some(&token)).await,
                None => self.client.get_json_as(path, &token).await,
            }
        })?;
        if status.is_success() {
            return Ok(answer);
        }
        match serde_json::from_value::<asamblea_api::ErrorAnswer>(answer.clone()) {
            Ok(refused) => {
                let error = refused.error;
                bail!("{} — {} / {}", error.code, error.message, error.message_en)
            }
            Err(_) => bail!("el servicio respondió / the daemon answered {status}: {answer}"),
        }
    }

    /// `POST path` with a typed body, and the typed answer.
    fn post<A: serde::de::DeserializeOwned>(
        &mut self,
        path: &str,
        body: &impl serde::Serialize,
    ) -> Result<A> {
        let answer = self.call(path, Some(serde_json::to_value(body)?))?;
        read_answer(path, answer)
    }

    /// `GET path`, and the typed answer.
    fn get<A: serde::de::DeserializeOwned>(&mut self, path: &str) -> Result<A> {
        let answer = self.call(path, None)?;
        read_answer(path, answer)
    }
}

/// The daemon's answer to `path` as the API types it.
fn read_answer<A: serde::de::DeserializeOwned>(path: &str, answer: Value) -> Result<A> {
    serde_json::from_value(answer.clone()).with_context(|| {
        format!("la respuesta del servicio a {path} no es la del contrato / the daemon's answer to {path} is not the contract's: {answer}")
    })
}

/// The quorum line printed after a check-in.
fn print_quorum(out: &mut dyn Write, present: u64, outstanding: u64, holders: u64, met: bool) -> Result<()> {
    writeln!(
        out,
        "Quórum: {} acciones de {} · {} accionistas · {}",
        thousands(present),
        thousands(outstanding),
        thousands(holders),
        if met { "HAY QUÓRUM" } else { "sin quórum" }
    )?;
    Ok(())
}

/// `asamblea checkin DIR PERSON [--represents …]`.
pub fn checkin(
    dir: &Path,
    person: &str,
    represents: &[String],
    legal_representative: bool,
    power_document: &str,
    out: &mut dyn Write,
) -> Result<()> {
    let capacity = if legal_representative { Capacity::LegalRepresentative } else { Capacity::Proxy };
    match writer(dir)? {
        Writer::Files(lock) => {
            let mut service = Service::open_locked(dir, lock)?;
            let result = if represents.is_empty() {
                service.check_in(person)
            } else {
                let principals: Vec<&str> = represents.iter().map(String::as_str).collect();
                service.check_in_agent(person, &principals, capacity, None, power_document)
            };
            let quorum = service.meeting().quorum();
            service.close();
            let seq = result?.seq;
            writeln!(out, "Registrado / checked in: {person} (evento {seq})")?;
            let (present, outstanding) = (quorum.present.get(), quorum.voting_outstanding.get());
            print_quorum(out, present, outstanding, u64::from(quorum.holders), quorum.this_call)
        }
        Writer::Daemon(mut daemon) => {
            use asamblea_api::desk::{Capacity as As, CheckinAnswer, CheckinRequest};
            let body = if represents.is_empty() {
                CheckinRequest { holder: Some(person.to_string()), ..CheckinRequest::default() }
            } else {
                CheckinRequest {
                    agent: Some(person.to_string()),
                    represents: represents.to_vec(),
                    capacity: Some(match capacity {
                        Capacity::LegalRepresentative => As::LegalRepresentative,
                        Capacity::Proxy => As::Proxy,
                    }),
                    power_document: power_document.to_string(),
                    ..CheckinRequest::default()
                }
            };
            let answer: CheckinAnswer = daemon.post("/api/v1/checkins", &body)?;
            let status: asamblea_api::public::Status = daemon.get("/api/v1/status")?;
            let seq = answer.seq;
            writeln!(
                out,
                "Registrado / checked in: {person} (evento {seq}; vía el servicio / through the daemon)"
            )?;
            let quorum = status.quorum.reading;
            print_quorum(
                out,
                quorum.present_shares,
                quorum.voting_outstanding,
                u64::from(quorum.holders),
                quorum.met,
            )
        }
    }
}

/// A badge `asamblea badges` issued: whose, what it shows (the name and
/// those represented), its number and its QR text.
struct Printed {
    person: String,
    name: String,
    represents: Vec<String>,
    number: u32,
    qr: String,
}

/// `asamblea badges DIR`: a badge for every person present without one.
pub fn issue_badges(
    dir: &Path,
    out_dir: Option<&Path>,
    paper: asamblea_documents::pdf::Paper,
    out: &mut dyn Write,
) -> Result<()> {
    let config = asamblea_venue::meeting_config::parse(
        "meeting.toml",
        &std::fs::read_to_string(dir.join("meeting.toml")).with_context(|| {
            format!("{}: no se puede leer meeting.toml / cannot read meeting.toml", dir.display())
        })?,
    )
    .map_err(anyhow::Error::msg)?;
    let names = asamblea_venue::register_csv::import(
        "register.csv",
        std::fs::read(dir.join("register.csv"))?.as_slice(),
        config.capital,
        |_| {},
    )?
    .names;
    // Printed badges hold their seeds: by default they go beside the
    // meeting directory, never into it (a copy of the meeting holds
    // nothing that can vote).
    let out_dir = match out_dir {
        Some(out_dir) => out_dir.to_path_buf(),
        None => default_badges_folder(dir)?,
    };
    let meeting_dir = dir
        .canonicalize()
        .with_context(|| format!("{}: no se encuentra la carpeta / cannot find the folder", dir.display()))?;
    let printing = std::path::absolute(&out_dir)
        .with_context(|| format!("{}: no es una ruta utilizable / not a usable path", out_dir.display()))?;
    if printing.starts_with(&meeting_dir) {
        bail!(
            "{}: las credenciales llevan las claves de voto y no van dentro de la carpeta de la reunión; elija otra con --out / \
             badges hold voting keys and do not go inside the meeting directory; choose another with --out",
            out_dir.display()
        );
    }
    create_private_dir(&out_dir)?;
    let title = config.badge_title();
    // What a badge shows: the person's name and those it carries.
    // By the name the desk recorded for who attends (an agent, or the
    // person attending for a company, which is then named as represented),
    // else the register's.
    let shown = |person: &str, carried: &[String], recorded: Option<&str>| -> (String, Vec<String>) {
        let registered = names.get(person).cloned();
        let name = recorded.map(str::to_string).or(registered.clone()).unwrap_or_else(|| person.to_string());
        let own = recorded.and(registered);
        let represents = own
            .into_iter()
            .chain(
                carried.iter().filter(|h| *h != person).map(|h| names.get(h).cloned().unwrap_or(h.clone())),
            )
            .collect();
        (name, represents)
    };
    // Each badge's files are written as soon as it is issued: its seed
    // exists nowhere else, so a failure later must not take it along.
    let save =
        |person: &str, carried: &[String], recorded: Option<&str>, number: u32, qr: &str| -> Result<()> {
            let (name, represents) = shown(person, carried, recorded);
            let badge = BadgeInfo {
                holder_id: person,
                holder_name: &name,
                credential_id: number,
                represents: &represents,
                meeting_title: &title,
                qr_text: qr,
            };
            let stem = format!("credencial-{number:04}");
            write_private_replacing(
                &out_dir.join(format!("{stem}.svg")),
                badges::badge_svg(&badge)?.as_bytes(),
            )?;
            let png = badges::badge_png(&badge, badges::DEFAULT_PNG_SCALE)?;
            write_private_replacing(&out_dir.join(format!("{stem}.png")), &png)?;
            let pdf = asamblea_documents::pdf::badges(&[badge], asamblea_documents::pdf::BadgePrint::One)?;
            write_private_replacing(&out_dir.join(format!("{stem}.pdf")), &pdf)?;
            // The QR's text too, for a printer of its own or `asamblea ballot`.
            write_private_replacing(&out_dir.join(format!("{stem}.txt")), format!("{qr}\n").as_bytes())?;
            Ok(())
        };
    let mut issued: Vec<Printed> = Vec::new();
    // Every seed is drawn here, at the desk; the meeting (the daemon, or
    // the files) gets only its public key (ledger-format §9).
    let meeting = asamblea_venue::service::MeetingFiles::meeting_id(dir)?;
    match writer(dir)? {
        Writer::Files(lock) => {
            let mut service = Service::open_locked(dir, lock)?;
            let people: Vec<Attendee> =
                service.attendees().into_iter().filter(|a| a.badge.is_none()).collect();
            let bar = crate::commands::progress_bar(people.len() as u64, "Emitiendo credenciales");
            for attendee in people {
                let seed = BadgeSeed::draw(&meeting)?;
                let (number, _) = service.issue_badge(&attendee.person, seed.public_key())?;
                let credential = seed.numbered(number);
                let qr = credential.to_qr_text();
                let recorded = service
                    .state()
                    .attendee_name(&attendee.person)
                    .map(|named| named.name.as_str().to_string());
                save(&attendee.person, &attendee.carries, recorded.as_deref(), credential.id().0, &qr)?;
                let (name, represents) = shown(&attendee.person, &attendee.carries, recorded.as_deref());
                issued.push(Printed {
                    person: attendee.person,
                    name,
                    represents,
                    number: credential.id().0,
                    qr,
                });
                bar.inc(1);
            }
            bar.finish_and_clear();
            service.close();
        }
        Writer::Daemon(mut daemon) => {
            let listed: asamblea_api::desk::Attendees = daemon.get("/api/v1/attendees")?;
            let people: Vec<asamblea_api::desk::Attendee> =
                listed.attendees.into_iter().filter(|a| a.badge.is_none()).collect();
            let bar = crate::commands::progress_bar(people.len() as u64, "Emitiendo credenciales");
            for attendee in people {
                let seed = BadgeSeed::draw(&meeting)?;
                // A lost answer is asked again with the same key: the
                // daemon answers with the badge it recorded.
                let answer = daemon.call_again_if_lost("/api/v1/badges", seed.request(&attendee.person))?;
                let credential = seed.credential(&answer)?;
                let (number, qr) = (credential.id().0, credential.to_qr_text());
                save(&attendee.person, &attendee.carries, attendee.name.as_deref(), number, &qr)?;
                let (name, represents) = shown(&attendee.person, &attendee.carries, attendee.name.as_deref());
                issued.push(Printed { person: attendee.person, name, represents, number, qr });
                bar.inc(1);
            }
            bar.finish_and_clear();
        }
    }
    let badges: Vec<BadgeInfo> = issued
        .iter()
        .map(|printed| BadgeInfo {
            holder_id: &printed.person,
            holder_name: &printed.name,
            credential_id: printed.number,
            represents: &printed.represents,
            meeting_title: &title,
            qr_text: &printed.qr,
        })
        .collect();
    if !badges.is_empty() {
        let sheet = badges::badge_sheet_html(&badges)?;
        write_private_replacing(&out_dir.join("hoja-de-credenciales.html"), sheet.as_bytes())?;
        let sheets =
            asamblea_documents::pdf::badges(&badges, asamblea_documents::pdf::BadgePrint::Sheets(paper))?;
        write_private_replacing(&out_dir.join("hoja-de-credenciales.pdf"), &sheets)?;
    }
    writeln!(
        out,
        "Credenciales emitidas / badges issued: {} en {} (para imprimir: hoja-de-credenciales.pdf, o una por una: credencial-NNNN.pdf)",
        badges.len(),
        out_dir.display()
    )?;
    writeln!(
        out,
        "Las credenciales contienen claves secretas: entréguelas en mano y destruya las copias sobrantes."
    )?;
    Ok(())
}

/// Where `badges` writes by default: `<DIR>-credenciales`, beside the
/// meeting directory (`.` and `..` are resolved first, so the folder is
/// never inside the meeting).
pub fn default_badges_folder(dir: &Path) -> Result<std::path::PathBuf> {
    let dir = dir
        .canonicalize()
        .with_context(|| format!("{}: no se encuentra la carpeta / cannot find the folder", dir.display()))?;
    let name = dir.file_name().map_or_else(|| "reunion".into(), |n| n.to_string_lossy().into_owned());
    Ok(dir.with_file_name(format!("{name}-credenciales")))
}

/// `asamblea revoke DIR CREDENTIAL`.
pub fn revoke(dir: &Path, credential: u32, out: &mut dyn Write) -> Result<()> {
    let seq = match writer(dir)? {
        Writer::Files(lock) => {
            let mut service = Service::open_locked(dir, lock)?;
            let body = asamblea_wire::EventBody::BadgeRevoked {
                credential: asamblea_wire::CredentialId(credential),
            };
            let result = service.staff_event(body);
            service.close();
            result?.seq
        }
        Writer::Daemon(mut daemon) => {
            let answer: asamblea_api::desk::BadgeRevoked =
                daemon.post(&format!("/api/v1/badges/{credential}/revoke"), &serde_json::Map::new())?;
            answer.seq
        }
    };
    writeln!(out, "Credencial {credential} revocada / revoked (evento {seq})")?;
    Ok(())
}

/// How `asamblea kiosk` enrols a kiosk.
pub enum KioskEnrolment {
    /// Signs the request the kiosk made (`asamblea-kiosk enroll`): its key
    /// never left it. The certificate, the CA and `kiosk.toml` are written
    /// beside the request.
    Request(std::path::PathBuf),
    /// The demo's shortcut: the key is made here and the kiosk's whole
    /// folder written.
    Shortcut(std::path::PathBuf),
    /// The certificate and key made here, left in the meeting directory
    /// (`tls/kiosks/`), for `asamblea bench` and `asamblea ballot`.
    InMeeting,
}

/// `asamblea kiosk`: enrols a kiosk (see [`KioskEnrolment`]) or revokes
/// it; the daemon refuses a revoked kiosk from its next request on.
pub fn kiosk(
    dir: &Path,
    id: &str,
    revoke: bool,
    enrolment: KioskEnrolment,
    daemon: &str,
    board: Option<&str>,
    out: &mut dyn Write,
) -> Result<()> {
    let board = public_board(daemon, board)?;
    if revoke {
        match writer(dir)? {
            Writer::Files(_lock) => {
                asamblea_pki::revoke_kiosk(dir, id)?;
                writeln!(out, "Quiosco {id} revocado / kiosk revoked.")?;
            }
            Writer::Daemon(mut daemon) => {
                let _: asamblea_api::desk::KioskRevoked =
                    daemon.post(&format!("/api/v1/kiosks/{id}/revoke"), &serde_json::Map::new())?;
                writeln!(
                    out,
                    "Quiosco {id} revocado / kiosk revoked; el servicio lo rechaza desde ya / the daemon refuses it from now on."
                )?;
            }
        }
        return Ok(());
    }
    let folder = match enrolment {
        KioskEnrolment::Request(request) => {
            let pem = std::fs::read_to_string(&request).with_context(|| {
                format!(
                    "{}: no se puede leer la solicitud del quiosco / cannot read the kiosk's request",
                    request.display()
                )
            })?;
            let credentials =
                sign_request(dir, id, &pem).with_context(|| format!("{}", request.display()))?;
            let folder = request.parent().map_or_else(|| std::path::PathBuf::from("."), Path::to_path_buf);
            let folder = if folder.as_os_str().is_empty() { std::path::PathBuf::from(".") } else { folder };
            write_kiosk_folder(dir, id, daemon, &board, &folder, &credentials)?;
            writeln!(
                out,
                "Quiosco {id} inscrito por su solicitud (huella {}) / kiosk enrolled from its request.",
                asamblea_wire::Digest::sha256(pem.as_bytes())
            )?;
            folder
        }
        KioskEnrolment::Shortcut(folder) => {
            let credentials = enrol_here(dir, id)?;
            std::fs::create_dir_all(&folder)
                .with_context(|| format!("{}: no se puede crear / cannot create", folder.display()))?;
            write_private_new(&folder.join(asamblea_kiosk::folder::KEY), credentials.key_pem.as_bytes())?;
            write_kiosk_folder(dir, id, daemon, &board, &folder, &credentials)?;
            writeln!(out, "Quiosco {id} inscrito (atajo de demostración: la clave se hizo aquí) / kiosk enrolled (demo shortcut).")?;
            folder
        }
        KioskEnrolment::InMeeting => {
            let credentials = enrol_here(dir, id)?;
            // The demo's shortcut: the key made here is kept beside its
            // certificate, where `asamblea kiosk-run` and the tests read it.
            let key = dir.join(format!("tls/kiosks/{id}.key"));
            write_private_new(&key, credentials.key_pem.as_bytes())?;
            writeln!(
                out,
                "Quiosco inscrito / kiosk enrolled: {} y {}",
                dir.join(format!("tls/kiosks/{id}.crt")).display(),
                dir.join(format!("tls/kiosks/{id}.key")).display()
            )?;
            return Ok(());
        }
    };
    writeln!(
        out,
        "Carpeta del quiosco / kiosk folder: {} (kiosk.crt, ca.crt, kiosk.toml). Inícielo con / start it with: asamblea-kiosk run {}",
        folder.display(),
        folder.display()
    )?;
    Ok(())
}

/// The demo's shortcut: a kiosk's key and certificate request made on
/// this side (as `asamblea-kiosk enroll` makes them on a kiosk), and the
/// request signed like any other ([`sign_request`]). The daemon never
/// makes or holds the key.
fn enrol_here(dir: &Path, id: &str) -> Result<asamblea_pki::KioskCredentials> {
    let (key_pem, request) = asamblea_pki::kiosk_request(id)?;
    let credentials = sign_request(dir, id, &request)?;
    Ok(asamblea_pki::KioskCredentials { key_pem, ..credentials })
}

/// A kiosk's certificate request signed by the venue CA: through the
/// running daemon when one serves the meeting (`POST /api/v1/kiosks`),
/// else with the CA's files, holding the meeting's lock.
fn sign_request(dir: &Path, id: &str, request: &str) -> Result<asamblea_pki::KioskCredentials> {
    match writer(dir)? {
        Writer::Files(_lock) => Ok(asamblea_pki::sign_kiosk_request(dir, id, request)?),
        Writer::Daemon(mut daemon) => {
            let body = asamblea_api::desk::KioskRequest { id: id.to_string(), csr: request.to_string() };
            let answer = daemon.call("/api/v1/kiosks", Some(serde_json::to_value(body)?))?;
            let enrolled: asamblea_api::desk::KioskEnrolled = serde_json::from_value(answer)
                .context("la respuesta del servicio no es un quiosco inscrito / the daemon's answer is not an enrolled kiosk")?;
            Ok(asamblea_pki::KioskCredentials {
                cert_pem: enrolled.certificate,
                key_pem: String::new(),
                ca_pem: enrolled.ca,
            })
        }
    }
}

/// The address the receipts' QR codes lead to: `board` as given (where
/// the company publishes the board, with a certificate a phone trusts), or
/// else the daemon's own (a phone there must trust the venue CA).
fn public_board(daemon: &str, board: Option<&str>) -> Result<String> {
    let Some(board) = board else { return Ok(format!("https://{daemon}")) };
    let board = board.trim_end_matches('/');
    let host = board.strip_prefix("https://").unwrap_or_default();
    if host.is_empty() || board.chars().any(|c| c.is_whitespace() || c.is_control() || "\"<>\\`".contains(c))
    {
        anyhow::bail!(
            "--board {board}: se espera la dirección pública del tablero, https://HOST (por ejemplo https://asamblea.empresa.com.co) / \
             expected the board's public address, https://HOST"
        );
    }
    Ok(board.to_string())
}

/// Writes what the desk gives a kiosk: its certificate, the venue CA and
/// `kiosk.toml` (the daemon's address, the meeting, the daemon's key, the
/// public board).
fn write_kiosk_folder(
    dir: &Path,
    id: &str,
    daemon: &str,
    board: &str,
    folder: &Path,
    credentials: &asamblea_pki::KioskCredentials,
) -> Result<()> {
    use asamblea_kiosk::folder::{Settings, CA, CERT, SETTINGS};
    let files = asamblea_venue::service::MeetingFiles::read(dir)?;
    // The convening key, and a replicated meeting's nodes' (their
    // `node-enrolled` records): a receipt signed by any is the meeting's.
    let mut keys = vec![files.daemon.public_key()];
    for (record, _) in asamblea_ledger::read_records(&dir.join("ledger.db"), &files.meeting_id)? {
        if let asamblea_wire::EventBody::NodeEnrolled { key, .. } = record.event.body {
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    let settings = Settings {
        kiosk: id.to_string(),
        daemon: daemon.to_string(),
        meeting: files.meeting_id.to_string(),
        daemon_key: keys.iter().map(ToString::to_string).collect::<Vec<_>>().join(","),
        board: board.to_string(),
    };
    let toml = settings.to_toml();
    for (name, contents) in
        [(CERT, credentials.cert_pem.as_str()), (CA, credentials.ca_pem.as_str()), (SETTINGS, toml.as_str())]
    {
        let path = folder.join(name);
        std::fs::write(&path, contents)
            .with_context(|| format!("{}: no se puede escribir / cannot write", path.display()))?;
    }
    Ok(())
}
