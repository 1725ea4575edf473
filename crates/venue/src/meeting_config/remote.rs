//! `modality` and `[remote]`: a meeting convened as mixed or non-presential
//! (Ley 222 de 1995 art. 19; Decreto 398 de 2020; Supersociedades, Circular
//! Básica Jurídica de 2022, cap. III; `rules.md` HY-1, HY-2, HY-5). With a
//! remote channel on, the notice states the medium, the access
//! instructions, the identity-verification procedure and how the floor is
//! given, and the file says whether the legal representative delegates
//! the identity check to the registration staff (OQ12): each is required,
//! and its absence is refused naming the key, Spanish first, with what to
//! write. A file without `modality` is a presencial meeting, as every
//! file written before it.

use asamblea_rules::{Modality, RemotePresence};

use crate::fields::{FieldError, Fields};

/// The remote channel of a mixed or non-presential meeting, as the notice
/// states it (`[remote]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteChannel {
    /// The medium: the platform's name and address (`medium`).
    pub medium: String,
    /// How to connect: link, credentials, when (`access`).
    pub access: String,
    /// How each remote attendee's identity is verified (`identity_check`).
    pub identity_check: String,
    /// How the floor is asked for and given (`floor`).
    pub floor: String,
    /// Whether the legal representative delegates the identity check to
    /// the registration staff (`identity_delegated`, OQ12): the acta says
    /// so.
    pub identity_delegated: bool,
}

/// The texts `[remote]` requires, with what each is in Spanish and an
/// example to write, in the order they are asked.
pub const REQUIRED_TEXTS: [(&str, &str, &str); 4] = [
    (
        "medium",
        "el medio (la plataforma y su dirección)",
        "Plataforma de videoconferencia de la sociedad, https://asamblea.example.co",
    ),
    (
        "access",
        "las instrucciones de acceso",
        "El enlace y la clave de cada accionista llegan al correo registrado el día anterior",
    ),
    (
        "identity_check",
        "el procedimiento de verificación de identidad",
        "Cada asistente muestra su documento de identidad ante la cámara al ingresar",
    ),
    (
        "floor",
        "cómo se concede la palabra",
        "Se pide la palabra en el chat de la plataforma y la presidencia la concede en orden",
    ),
];

/// Reads `modality` from the top of the file and, with a remote channel,
/// the `[remote]` table over the profile's `presence` defaults.
pub(super) fn read_modality(
    f: &mut Fields<'_>,
    presence: RemotePresence,
) -> Result<(Modality, Option<RemoteChannel>, RemotePresence), FieldError> {
    let modality = f
        .choice("modality", &["presencial", "mixta", "no-presencial"], Modality::from_code)?
        .unwrap_or_default();
    let table = f.table("remote")?;
    if !modality.has_remote_channel() {
        if table.is_some() {
            return Err(f.error(
                "remote",
                "una reunión presencial no tiene canal remoto: quite la tabla [remote] o escriba modality = \"mixta\" o \"no-presencial\" / an in-person meeting has no remote channel: remove [remote] or write modality = \"mixta\" or \"no-presencial\"",
            ));
        }
        return Ok((modality, None, presence));
    }
    let Some(table) = table else {
        return Err(f.error(
            "modality",
            format!(
                "con modality = \"{code}\" la convocatoria dice cómo se participa a distancia (Decreto 398 de 2020): agregue la tabla [remote] con medium, access, identity_check, floor e identity_delegated (docs/meeting-file.md §1.3) / with modality = \"{code}\" the notice says how to take part from afar: add the [remote] table with medium, access, identity_check, floor and identity_delegated",
                code = modality.code()
            ),
        ));
    };
    let mut r = Fields::new(table, "remote");
    let mut texts = Vec::with_capacity(REQUIRED_TEXTS.len());
    for (key, what, example) in REQUIRED_TEXTS {
        let raw = r.string(key)?.unwrap_or_default();
        if raw.trim().is_empty() {
            return Err(r.error(
                key,
                format!(
                    "falta {what}: con modality = \"{code}\" la convocatoria debe decirlo (Decreto 398 de 2020; Circular Básica Jurídica, cap. III); escriba, por ejemplo, {key} = \"{example}\" / is missing: with a remote channel the notice must state it; write {key} = \"…\"",
                    code = modality.code()
                ),
            ));
        }
        let words = crate::text::name(raw, false).map_err(|e| r.error(key, e))?;
        asamblea_wire::Prose::new(&words).map_err(|e| {
            r.error(
                key,
                format!("no cabe en el registro (a lo sumo 4.000 bytes) / does not fit the ledger: {e}"),
            )
        })?;
        texts.push(words);
    }
    let identity_delegated = r.boolean("identity_delegated")?.ok_or_else(|| {
        r.error(
            "identity_delegated",
            "falta: diga si el representante legal delega la verificación de identidad en el personal de registro (Decreto 398 de 2020; OQ12): escriba identity_delegated = true o identity_delegated = false / is missing: say whether the legal representative delegates the identity check to the registration staff",
        )
    })?;
    let mut presence = presence;
    if let Some(seconds) = seconds(&mut r, "heartbeat_seconds")? {
        presence.heartbeat_seconds = seconds;
    }
    if let Some(seconds) = seconds(&mut r, "presence_timeout_seconds")? {
        presence.timeout_seconds = seconds;
    }
    if !presence.is_coherent() {
        return Err(r.error(
            "presence_timeout_seconds",
            format!(
                "la ausencia ({t} s) debe durar más que un latido ({h} s), y el latido al menos 1 s / the timeout ({t} s) must be longer than a heartbeat ({h} s), and a heartbeat at least 1 s",
                t = presence.timeout_seconds,
                h = presence.heartbeat_seconds
            ),
        ));
    }
    r.finish()?;
    let [medium, access, identity_check, floor]: [String; 4] =
        texts.try_into().expect("one text per required key");
    Ok((
        modality,
        Some(RemoteChannel { medium, access, identity_check, floor, identity_delegated }),
        presence,
    ))
}

/// A number of seconds, 1 to a day.
fn seconds(f: &mut Fields<'_>, key: &'static str) -> Result<Option<u32>, FieldError> {
    match f.count(key)? {
        None => Ok(None),
        Some(n @ 1..=86_400) => Ok(Some(n as u32)),
        Some(n) => Err(f.error(
            key,
            format!("{n} no es un número de segundos entre 1 y 86.400 / {n} is not a number of seconds from 1 to 86,400"),
        )),
    }
}
