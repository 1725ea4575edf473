//! `asamblea verify`: a bundle or a meeting directory checked against
//! every piece of evidence given with it (the daemon's key, checkpoints,
//! witnesses, receipts) and, for a directory, the daemon's own signed
//! heads; what it found, in words or as JSON.

use std::io::{Seek as _, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use asamblea_ledger::VerifyOptions;
use asamblea_wire::hex::encode as hex;
use asamblea_wire::{Digest, PublicKey};

use asamblea_venue::service::MeetingFiles;

use asamblea_documents::numfmt::thousands;

use crate::commands::{figures_line, fs_read, load_profile, progress_bar};

/// Parses `SEQ:HEX` as printed by `export` and at each close.
pub fn parse_checkpoint(text: &str) -> Result<(u64, Digest)> {
    let (seq, head) =
        text.split_once(':').context(
        "un punto de control se escribe NÚMERO:CABEZA, como se imprime en cada cierre / a checkpoint is written SEQ:HEAD, as printed at each close",
    )?;
    let seq = seq
        .trim()
        .parse()
        .with_context(|| format!("`{seq}` no es un número de evento / is not an event number"))?;
    // Events are numbered from 1: a checkpoint 0 names nothing, and is
    // refused as a mistake in what was typed, not judged as a bundle cut
    // short.
    if seq == 0 {
        bail!("el punto de control 0 no existe: la numeración empieza en 1 / checkpoint 0 does not exist: numbering starts at 1");
    }
    let head = Digest::from_hex(head.trim())
        .map_err(|e| anyhow::anyhow!("la cabeza del punto de control / the checkpoint's head: {e}"))?;
    Ok((seq, head))
}

/// What `verify` checks the bundle against, from outside it.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct VerifyInputs {
    /// La clave del servicio publicada en la reunión (64 hex) / the daemon
    /// key published at the meeting.
    #[arg(long, value_name = "HEX")]
    pub daemon_key: Option<String>,
    /// Un punto de control leído en la reunión (repetible) / a checkpoint
    /// read out at the meeting, SEQ:HEAD (repeatable).
    #[arg(long = "checkpoint", value_name = "SEQ:HEAD")]
    pub checkpoints: Vec<String>,
    /// Cabezas firmadas que un observador guardó del tablero en vivo: una
    /// por línea, SEQ:HEAD:FIRMA o el JSON del tablero / signed heads an
    /// observer kept from the live feed, one a line.
    #[arg(long, value_name = "ARCHIVO")]
    pub witness: Option<PathBuf>,
    /// Recibos de votantes: un archivo (un recibo por línea, su JSON o
    /// NÚMERO:CABEZA:EVENTO:FIRMA como lo imprime el quiosco) o una
    /// carpeta (*.json uno por archivo, *.txt uno por línea; lo demás se
    /// omite y se nombra) / voters' receipts: a file (one a line, JSON or
    /// SEQ:HEAD:EVENT:SIGNATURE as a kiosk prints it) or a folder (*.json
    /// one a file, *.txt one a line; anything else is skipped and named).
    #[arg(long, value_name = "ARCHIVO|CARPETA")]
    pub receipts: Option<PathBuf>,
    /// Escribe el veredicto y los resultados recalculados en JSON / print
    /// the verdict and the re-derived results as JSON.
    #[arg(long)]
    pub json: bool,
}

/// A signed head, as `SEQ:HEAD:SIGNATURE` or the feed's JSON.
fn parse_witness(line: &str) -> Result<(asamblea_wire::Checkpoint, asamblea_wire::Signature)> {
    let (seq, head, signature) = if line.starts_with('{') {
        let value: serde_json::Value = serde_json::from_str(line).context("no es JSON / not JSON")?;
        let text = |key: &str| {
            value[key].as_str().map(str::to_string).with_context(|| format!("falta `{key}` / no `{key}`"))
        };
        (value["seq"].as_u64().context("falta `seq` / no `seq`")?, text("head")?, text("signature")?)
    } else {
        let mut parts = line.splitn(3, ':');
        let seq = parts
            .next()
            .unwrap_or("")
            .trim()
            .parse()
            .context("NÚMERO no es un número / SEQ is not a number")?;
        let head = parts
            .next()
            .context("escriba NÚMERO:CABEZA:FIRMA / write SEQ:HEAD:SIGNATURE")?
            .trim()
            .to_string();
        let signature = parts
            .next()
            .context("escriba NÚMERO:CABEZA:FIRMA / write SEQ:HEAD:SIGNATURE")?
            .trim()
            .to_string();
        (seq, head, signature)
    };
    let head = Digest::from_hex(&head).map_err(|e| anyhow::anyhow!("la cabeza / the head: {e}"))?;
    let signature = asamblea_wire::hex::decode(&signature)
        .and_then(|b| asamblea_wire::Signature::from_slice(&b).ok())
        .context("la firma: 128 dígitos hexadecimales / the signature: 128 hexadecimal digits")?;
    Ok((asamblea_wire::Checkpoint { seq, head }, signature))
}

/// A receipt as the API answers a ballot (`{"receipt": {seq, head,
/// event}, "signature"}`) or as a kiosk prints it
/// (`SEQ:HEAD:EVENT:SIGNATURE`), read by the daemon's own reader.
fn parse_receipt(text: &str) -> Result<(asamblea_wire::Receipt, asamblea_wire::Signature)> {
    asamblea_server::receipts::parse(text).map_err(anyhow::Error::msg)
}

/// The receipts `--receipts` names, each with its place for errors
/// (ledger-format §11.1), and what a folder held that is not a receipt by
/// its name. A file holds one receipt a line. In a folder, a file named
/// `*.json` holds one receipt as the API answers it (perhaps over several
/// lines), one named `*.txt` one receipt a line; anything else (a note, a
/// photograph, a hidden file, a folder) is passed over and named, so that
/// a kiosk's folder can be checked as it is. A receipt file that does not
/// read is refused, by its name and line, in [`verify`].
fn receipts_of(path: &Path) -> Result<ReceiptTexts> {
    if !path.is_dir() {
        return Ok(ReceiptTexts { receipts: lines_of(path)?, skipped: Vec::new() });
    }
    let mut entries: Vec<std::path::PathBuf> = std::fs::read_dir(path)
        .with_context(|| format!("{}: no se puede leer la carpeta / cannot read the folder", path.display()))?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<std::io::Result<_>>()
        .with_context(|| {
            format!("{}: no se puede leer la carpeta / cannot read the folder", path.display())
        })?;
    entries.sort();
    let (mut receipts, mut skipped) = (Vec::new(), Vec::new());
    for entry in entries {
        let name = entry.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let extension = entry.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
        match extension.as_deref() {
            Some("json") if entry.is_file() && !name.starts_with('.') => {
                receipts.push((entry.display().to_string(), fs_read(&entry)?));
            }
            Some("txt") if entry.is_file() && !name.starts_with('.') => receipts.extend(lines_of(&entry)?),
            _ => skipped.push(if entry.is_dir() { format!("{name}/") } else { name }),
        }
    }
    Ok(ReceiptTexts { receipts, skipped })
}

/// What [`receipts_of`] found.
struct ReceiptTexts {
    /// Each receipt's text, with its place (file, and line where a file
    /// holds one a line).
    receipts: Vec<(String, String)>,
    /// The folder's entries that are not receipts by their name.
    skipped: Vec<String>,
}

/// The non-empty lines of `path`, each with its place for errors.
fn lines_of(path: &Path) -> Result<Vec<(String, String)>> {
    let files: Vec<std::path::PathBuf> = if path.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(path)
            .with_context(|| {
                format!("{}: no se puede leer la carpeta / cannot read the folder", path.display())
            })?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        files
    } else {
        vec![path.to_path_buf()]
    };
    let mut lines = Vec::new();
    for file in files {
        let text = fs_read(&file)?;
        // A folder holds one receipt per file, written as the API answers
        // (possibly pretty-printed); a file, one per line.
        if path.is_dir() {
            lines.push((file.display().to_string(), text));
        } else {
            for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                lines.push((format!("{}, línea / line {}", file.display(), n + 1), line.trim().to_string()));
            }
        }
    }
    Ok(lines)
}

/// `asamblea verify PATH`: a bundle file, or a meeting directory's ledger
/// as stored. Returns whether it verified.
pub fn verify(path: &Path, inputs: &VerifyInputs, out: &mut dyn Write) -> Result<bool> {
    let daemon_key = match &inputs.daemon_key {
        Some(hex_key) => {
            let bytes = parse_hex32(hex_key).context("--daemon-key")?;
            Some(PublicKey::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("--daemon-key: {e}"))?)
        }
        None => None,
    };
    let checkpoints = inputs
        .checkpoints
        .iter()
        .map(|c| parse_checkpoint(c).context("--checkpoint"))
        .collect::<Result<Vec<_>>>()?;
    let mut witnesses = match &inputs.witness {
        Some(file) => lines_of(file)?
            .iter()
            .map(|(place, line)| parse_witness(line).with_context(|| format!("--witness {place}")))
            .collect::<Result<Vec<_>>>()?,
        None => Vec::new(),
    };
    let (receipts, skipped) = match &inputs.receipts {
        Some(file) => {
            let ReceiptTexts { receipts: texts, skipped } = receipts_of(file)?;
            let receipts = texts
                .iter()
                .map(|(place, text)| parse_receipt(text).with_context(|| format!("--receipts {place}")))
                .collect::<Result<Vec<_>>>()?;
            (receipts, skipped)
        }
        None => (Vec::new(), Vec::new()),
    };
    if !skipped.is_empty() && !inputs.json {
        writeln!(
            out,
            "Omitidos / skipped: {} (no son recibos por su nombre, *.json o *.txt / not receipts by name, *.json or *.txt)",
            skipped.join(", ")
        )?;
    }
    // The numbers of the heads the user gave: a head of the folder's own
    // file (below) that fails is named as that file's.
    let given: std::collections::HashSet<u64> =
        checkpoints.iter().map(|&(seq, _)| seq).chain(witnesses.iter().map(|(c, _)| c.seq)).collect();
    let mut kept = None;
    let temporary = if path.is_dir() {
        let keys_missing =
            asamblea_venue::secrets::key_folder_of(path).is_ok_and(|k| !k.join("daemon.seed").exists());
        let files = MeetingFiles::read(path).map_err(|e| {
            let e = anyhow::Error::from(e);
            if !keys_missing {
                return e;
            }
            e.context(
                "verificar una carpeta de reunión necesita sus claves (está en otra máquina o cuenta): \
                 exporte el paquete en la máquina de la sede (asamblea export) y verifique el paquete / \
                 verifying a meeting directory needs its keys (this is another machine or account): \
                 export the bundle on the venue's machine (asamblea export) and verify the bundle",
            )
        })?;
        // The heads the daemon signed and kept beside the ledger
        // (`DIR/ledger.checkpoints`), read by the one reading the start
        // uses: two the key signed at one event are an equivocation; every
        // other must be the ledger's head at its number (checked as an
        // observer's witnessed heads are), so that `verify DIR` refuses
        // whatever the start refuses — and it checks every line, not only
        // the latest.
        let heads = match asamblea_venue::checkpoints::read(path, &files.meeting_id, &files.head_keys()?) {
            Ok(heads) => heads,
            Err(e @ asamblea_venue::VenueError::Equivocation { .. }) => {
                return said_failed(out, inputs.json, &e.to_string(), &skipped);
            }
            Err(e) => return Err(e.into()),
        };
        let signed = heads.signed();
        kept = Some(KeptHeads {
            seqs: signed.iter().map(|(c, _)| c.seq).filter(|seq| !given.contains(seq)).collect(),
            signed: signed.len(),
            lines: heads.lines(),
            file: asamblea_venue::checkpoints::path(path),
        });
        witnesses.extend(signed);
        // The rows exactly as stored: a hand-edited file is judged by the
        // verifier, naming the event, rather than refused whole. They are
        // written as a bundle to a temporary file of the meeting (with
        // checkpoints signed here with the meeting's daemon key over the
        // stored heads, at every close and at the end) and verified from
        // it, a slice at a time: a meeting of a million ballots is never
        // held in memory. The file has no name and is owner-only
        // (`asamblea_venue::scratch`).
        let file = asamblea_venue::scratch::file(path).context(
            "no se puede escribir un paquete temporal; ¿hay espacio en disco? / cannot write a temporary bundle: is there disk space?",
        )?;
        let sign = |c: &asamblea_wire::Checkpoint| c.sign(&files.meeting_id, &files.daemon);
        asamblea_ledger::export_raw_bundle(&path.join("ledger.db"), &files.bundle_head(), sign, &file)?;
        Some(file)
    } else {
        None
    };
    let observed = !given.is_empty();
    let options = VerifyOptions { daemon_key, checkpoints, witnesses, receipts, load_profile: &load_profile };
    // The bar appears once the bundle is read and its length is known.
    let mut bar = None;
    let mut progress = |done, total| {
        bar.get_or_insert_with(|| progress_bar(total, "Verificando / verifying")).set_position(done);
    };
    // A bundle file is read a slice at a time, never whole.
    let cannot_read = || format!("{}: no se puede leer el paquete / cannot read the bundle", path.display());
    let file = match temporary {
        Some(mut file) => {
            file.rewind().with_context(cannot_read)?;
            file
        }
        None => std::fs::File::open(path).with_context(cannot_read)?,
    };
    let verdict = asamblea_ledger::verify_bundle_state(&file, &options, &mut progress);
    drop(file);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match verdict {
        Ok((verified, state)) if inputs.json => {
            // Every item of the convened agenda, in order, with its state,
            // so that a poll still open is told from an item never opened;
            // a closed one with its result as the verifier re-derived it,
            // in the shape of the API's results (FORMAT.md). An open poll
            // shows its turnout only, as the board does.
            let items: Vec<serde_json::Value> = state
                .agenda()
                .iter()
                .map(|entry| {
                    let mut out = serde_json::json!({
                        "id": entry.item.as_str(),
                        "title": entry.title.as_str(),
                        "state": "pending",
                        "ballots": 0,
                    });
                    let opened = state
                        .meeting()
                        .and_then(|m| m.item_index(entry.item.as_str()).map(|at| (m, m.item(at))));
                    if let Some((meeting, item)) = opened {
                        // The poll's times (rules.md §11.5): opened,
                        // the latest close announcement, closed.
                        let id = entry.item.as_str();
                        out["opened_at_ms"] = serde_json::json!(state.opened_at(id));
                        if let Some(a) = state.announcement(id) {
                            out["close_announced"] = serde_json::json!({
                                "seq": a.seq, "time_ms": a.time_ms, "countdown_ms": a.countdown_ms,
                            });
                        }
                        if let Some(closed) = state.closed_at(id) {
                            out["closed_at_ms"] = serde_json::json!(closed);
                        }
                        out["ballots"] = serde_json::json!(item.ballots());
                        out["state"] = serde_json::json!(if item.is_closed() { "closed" } else { "open" });
                        if item.is_closed() {
                            out["result"] = asamblea_documents::results::item_json(meeting, item);
                        }
                    }
                    out
                })
                .collect();
            // The whole agenda (informative items in their place, each
            // list's candidates) and the chair's sessions, as the ledger
            // recorded them (ledger-format §3.17–3.18); empty for a
            // ledger convened before they existed.
            let agenda: Vec<serde_json::Value> = state
                .whole_agenda()
                .unwrap_or_default()
                .iter()
                .map(|entry| match entry {
                    asamblea_wire::AgendaEntry::Voted { item, candidates } => serde_json::json!({
                        "id": item.as_str(),
                        "informative": false,
                        "candidates": candidates.iter().map(|list| list.iter().map(|c| serde_json::json!({
                            "principal": c.principal.as_str(),
                            "suplente": c.suplente.as_str(),
                        })).collect::<Vec<_>>()).collect::<Vec<_>>(),
                    }),
                    asamblea_wire::AgendaEntry::Informative { item, title } => serde_json::json!({
                        "id": item.as_str(),
                        "title": title.as_str(),
                        "informative": true,
                    }),
                })
                .collect();
            let sessions: Vec<serde_json::Value> = state
                .session_log()
                .iter()
                .map(|s| {
                    serde_json::json!({
                        "step": match s.step {
                            asamblea_rules::SessionStep::Installed => "installed",
                            asamblea_rules::SessionStep::Suspended => "suspended",
                            asamblea_rules::SessionStep::Resumed => "resumed",
                            asamblea_rules::SessionStep::Adjourned => "adjourned",
                        },
                        "seq": s.seq,
                        "time_ms": s.time_ms,
                        "note": s.note,
                        "present": s.quorum.present.get(),
                        "quorum": s.quorum.this_call,
                    })
                })
                .collect();
            let answer = serde_json::json!({
                "verified": true,
                "records": verified.records,
                "head": hex(&verified.head.0),
                "checkpoints": verified.checkpoints,
                "signed_heads": kept.as_ref().map(|kept| kept.signed),
                "receipts": verified.receipts,
                "skipped": skipped,
                "items": items,
                "agenda": agenda,
                "sessions": sessions,
                "poll_timing": state.poll_timing().map(|t| serde_json::json!({
                    "min_open_ms": t.min_open_ms, "min_countdown_ms": t.min_countdown_ms,
                })),
                "powers": powers_json(&state),
                "remote": remote_json(&state),
                "floor": floor_json(&state),
                "nodes": nodes_json(&state),
                "modality": crate::verify_json::modality_json(&state),
                "continuity": crate::verify_json::continuity_json(&state),
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
            Ok(true)
        }
        Ok((verified, state)) => {
            writeln!(
                out,
                "VERIFICADO / VERIFIED: {} eventos, {} resultados recalculados, {} puntos de control",
                thousands(verified.records),
                verified.results.len(),
                verified.checkpoints
            )?;
            if let Some(kept) = &kept {
                writeln!(
                    out,
                    "Cabezas firmadas por el servicio en {} / daemon-signed heads there: {} comprobadas / checked{}",
                    kept.file.display(),
                    thousands(kept.signed as u64),
                    match kept.lines - kept.signed {
                        0 => String::new(),
                        other => format!(
                            " ({other} líneas sin la firma del servicio, ignoradas como al iniciar / lines without the daemon's signature, ignored as at a start)"
                        ),
                    }
                )?;
            }
            if verified.receipts > 0 {
                writeln!(
                    out,
                    "Recibos / receipts: {} comprobados en la cadena / checked in the chain",
                    thousands(verified.receipts as u64)
                )?;
            }
            for line in crate::verify_json::held_lines(&state) {
                writeln!(out, "{line}")?;
            }
            let powers = state.powers().all();
            if !powers.is_empty() {
                let accepted = powers.iter().filter(|p| p.accepted()).count() as u64;
                let revoked: u64 = powers.iter().map(|p| p.revoked.len() as u64).sum();
                writeln!(
                    out,
                    "Poderes radicados / lodged powers: {} (aceptados / accepted {}, rechazados / refused {}; poderdantes revocados / principals revoked {})",
                    thousands(powers.len() as u64),
                    thousands(accepted),
                    thousands(powers.len() as u64 - accepted),
                    thousands(revoked)
                )?;
            }
            let verifications = state.verifications();
            if !verifications.is_empty() {
                let bound = verifications.iter().filter(|v| state.badge_with_key(&v.key).is_some()).count();
                writeln!(
                    out,
                    "Identidades verificadas a distancia / remote identities verified: {} (credenciales remotas / remote credentials {})",
                    thousands(verifications.len() as u64),
                    thousands(bound as u64)
                )?;
            }
            // Each closed item's figures, re-derived from the events alone:
            // what every page and document must agree with.
            if let Some(meeting) = state.meeting() {
                for entry in state.agenda() {
                    let Some(at) = meeting.item_index(entry.item.as_str()) else { continue };
                    let item = meeting.item(at);
                    if let Some(line) = figures_line(item) {
                        writeln!(out, "▶ {}: {}", entry.title.as_str(), item.outcome().spanish().to_uppercase())?;
                        writeln!(out, "    {line}")?;
                    }
                }
            }
            writeln!(out, "Cabeza final / final head: {}:{}", verified.records, hex(&verified.head.0))?;
            if !observed {
                writeln!(
                    out,
                    "Para detectar un paquete recortado o reescrito, compare con un punto de control leído en la reunión (--checkpoint SEQ:HEAD), las cabezas del tablero (--witness) o los recibos de los votantes (--receipts)."
                )?;
            }
            Ok(true)
        }
        Err(asamblea_ledger::VerifyError::Bundle(
            asamblea_ledger::BundleError::NotABundle
            | asamblea_ledger::BundleError::Truncated(asamblea_ledger::Part::Magic | asamblea_ledger::Part::Version),
        )) => bail!(
            "{}: no es un paquete de auditoría de asamblea (ni la carpeta de una reunión); exporte uno con `asamblea export DIR ARCHIVO` / not an asamblea audit bundle (nor a meeting directory)",
            path.display()
        ),
        Err(e) => {
            let problem = match (&e, &kept) {
                (
                    asamblea_ledger::VerifyError::CheckpointMismatch { seq }
                    | asamblea_ledger::VerifyError::Truncated { seq, .. },
                    Some(kept),
                ) if kept.seqs.contains(seq) => format!(
                    "el registro no es el que el servicio de la reunión firmó en el evento {seq} (una cabeza de {}): un evento guardado se cambió, se quitó o se recortó, y el inicio del servicio también lo rechaza / the ledger is not the one the daemon signed at event {seq} (a head in that file): a saved event was changed, removed or cut, and the daemon's start refuses it too: {e}",
                    kept.file.display()
                ),
                _ => e.to_string(),
            };
            said_failed(out, inputs.json, &problem, &skipped)
        }
    }
}

/// The heads of `DIR/ledger.checkpoints` that `verify DIR` holds the
/// ledger to.
struct KeptHeads {
    /// Their numbers (those the user did not give as well).
    seqs: std::collections::HashSet<u64>,
    /// How many lines the daemon's key signed.
    signed: usize,
    /// The file's lines, signed or not.
    lines: usize,
    /// The file.
    file: PathBuf,
}

/// `verify`'s answer when it did not verify: `FALLA / FAILED` and the
/// problem, or the same as JSON. Exit 1.
fn said_failed(out: &mut dyn Write, json: bool, problem: &str, skipped: &[String]) -> Result<bool> {
    if json {
        let answer = serde_json::json!({ "verified": false, "problem": problem, "skipped": skipped });
        writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
    } else {
        writeln!(out, "FALLA / FAILED: {problem}")?;
    }
    Ok(false)
}

fn parse_hex32(text: &str) -> Result<[u8; 32]> {
    asamblea_wire::hex::decode_array(text)
        .context("se esperaban 64 dígitos hexadecimales / expected 64 hexadecimal digits")
}

/// Every power lodged, as the ledger holds it (ledger-format §3.19–3.20):
/// its terms, verdict, document's hash, revocations and use, in the order
/// lodged; an independent reading of the bundle agrees on each.
fn powers_json(state: &asamblea_ledger::State) -> Vec<serde_json::Value> {
    state
        .powers()
        .all()
        .iter()
        .map(|record| {
            let p = &record.power;
            serde_json::json!({
                "power": p.power.as_str(),
                "seq": record.seq,
                "principals": p.principals.iter().map(|i| i.as_str()).collect::<Vec<_>>(),
                "agent": p.agent.as_ref().map(|a| a.as_str()),
                "agent_name": p.agent_name.as_str(),
                "agent_tie": p.agent_tie.code(),
                "suggested": p.suggested,
                "substitutes": p.substitutes.iter().map(|s| serde_json::json!({
                    "id": s.id.as_str(), "name": s.name.as_str(), "tie": s.tie.code(),
                })).collect::<Vec<_>>(),
                "meeting_date": p.meeting_date.as_str(),
                "received_via": p.received_via.code(),
                "received_on": p.received_on.as_str(),
                "document_sha256": hex(&p.document.0),
                "verdict": p.verdict.map_or("accepted", asamblea_rules::powers::PowerRefusal::code),
                "revoked": record.revoked.iter().map(|(principal, why, seq)| serde_json::json!({
                    "principal": principal.as_str(), "reason": why.code(), "seq": seq,
                })).collect::<Vec<_>>(),
                "used": record.used.iter().map(|(principal, by, substitute, seq)| serde_json::json!({
                    "principal": principal.as_str(), "by": by.as_str(), "substitute": substitute, "seq": seq,
                })).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// A replicated meeting's nodes (§3.33) with their keys, and every
/// takeover (§3.34) in order: empty for a meeting served from one machine.
fn nodes_json(state: &asamblea_ledger::State) -> serde_json::Value {
    serde_json::json!({
        "enrolled": state.nodes().iter().map(|(node, key)| serde_json::json!({
            "node": node.as_str(), "key": key.to_string(),
        })).collect::<Vec<_>>(),
        "takeovers": state.takeovers().iter().map(|(seq, node)| serde_json::json!({
            "seq": seq, "node": node.as_str(),
        })).collect::<Vec<_>>(),
    })
}

/// Every remote stay the daemon ended for want of heartbeats (§3.30), and
/// every question and written statement sent from afar with what the
/// chair did with it (§3.31–3.32), in order.
fn floor_json(state: &asamblea_ledger::State) -> serde_json::Value {
    serde_json::json!({
        "lapses": state.lapses().iter().map(|l| serde_json::json!({
            "seq": l.seq, "time_ms": l.time_ms, "person": l.person.as_str(), "silent_ms": l.silent_ms,
        })).collect::<Vec<_>>(),
        "submissions": state.submissions().iter().map(|s| serde_json::json!({
            "seq": s.seq,
            "time_ms": s.time_ms,
            "person": s.person.as_str(),
            "credential": s.credential.0,
            "kind": s.kind.code(),
            "item": s.item.as_ref().map(|i| i.as_str()),
            "text": s.text.as_str(),
            "handled": s.handled.as_ref().map(|(seq, outcome, note)| serde_json::json!({
                "seq": seq, "outcome": outcome.code(), "note": note.as_str(),
            })),
        })).collect::<Vec<_>>(),
    })
}

/// Every remote attendee's identity the desk verified (ledger-format
/// §3.25–3.26), in order: who, the key their browser made, how, the
/// evidence's hash, the staff member who verified, and the credential
/// bound to that key with whether it was revoked (HY-2's record).
fn remote_json(state: &asamblea_ledger::State) -> Vec<serde_json::Value> {
    state
        .verifications()
        .iter()
        .map(|v| {
            let credential = state.badge_with_key(&v.key);
            serde_json::json!({
                "person": v.person.as_str(),
                "seq": v.seq,
                "key": v.key.to_string(),
                "method": v.method.code(),
                "evidence_sha256": hex(&v.evidence.0),
                "verified_by": state.staff_member(&v.verified_by).map(|(_, name)| name),
                "credential": credential.map(|c| c.0),
                "revoked": credential.and_then(|c| state.badge(c)).is_some_and(|(_, _, revoked)| revoked),
            })
        })
        .collect()
}
