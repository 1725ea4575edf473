//! The attendee's vote on this machine: a scan read and refused in words,
//! the choices checked against the ballot sheet, and the ballots signed.

use super::*;

/// Words for a scan that is not a badge of this meeting.
pub(super) fn unreadable(error: &WireError) -> Notice {
    match error {
        WireError::CredentialOtherMeeting => Notice::error(
            "Esta credencial es de otra reunión. Use la credencial que le entregaron hoy en el registro.",
            "This badge belongs to another meeting. Use the badge the registration desk gave you today.",
        ),
        WireError::CredentialLength { .. } | WireError::CredentialCheck | WireError::CredentialCharacter { .. } => {
            Notice::error(
                "La lectura de la credencial quedó incompleta o con errores. Vuelva a acercarla al lector, despacio y sin doblarla.",
                "The badge was read incompletely or with errors. Hold it to the reader again, slowly and flat.",
            )
        }
        _ => Notice::error(
            "Eso no es una credencial de votación. Acerque al lector el código QR de su credencial.",
            "That is not a voting badge. Hold your badge's QR code to the reader.",
        ),
    }
}

pub(super) fn unreachable_notice() -> Notice {
    Notice::error(
        "No hay conexión con el servicio de votación. Avise al personal de la mesa. No se ha contado nada.",
        "The voting service cannot be reached. Tell the staff. Nothing has been counted.",
    )
}

/// A scan, from any reader.
pub(super) async fn scan(app: &App, text: Zeroizing<String>) {
    // A ballot being sent is finished first (it is signed; it must reach
    // the daemon). A vote still being chosen is someone who walked away:
    // a new badge ends it, with nothing signed or sent for them, and the
    // screen shows none of their holdings to the newcomer.
    let (sending, walked_away) =
        app.with(|k| (k.screen == Screen::Sending, matches!(k.screen, Screen::Choose | Screen::Review)));
    if sending {
        app.with(|k| {
            k.notice = Some(Notice::info(
                "Espere: se está enviando el voto anterior. Escanee de nuevo en un momento.",
                "Wait: the previous vote is being sent. Scan again in a moment.",
            ));
            k.changed();
        });
        return;
    }
    if walked_away {
        app.with(|k| {
            k.reset(Some(Notice::info(
                "La votación anterior quedó sin terminar y se canceló: no se envió nada. Leyendo la nueva credencial…",
                "The previous vote was left unfinished and was cancelled: nothing was sent. Reading the new badge…",
            )))
        });
        app.unmark();
    }
    let credential = match parse_boxed(&text, &app.0.folder.meeting) {
        Ok(credential) => credential,
        Err(error) => {
            burn_stack();
            app.with(|k| k.reset(Some(unreadable(&error))));
            return;
        }
    };
    burn_stack();
    drop(text);
    let number = credential.id().0;
    let sheet = match app.daemon(&format!("/api/v1/kiosk/badges/{number}"), None).await {
        Ok((status, sheet)) if status.is_success() => match serde_json::from_value::<BallotSheet>(sheet) {
            Ok(sheet) => sheet,
            Err(error) => {
                tracing::error!(%error, "la papeleta del servicio no se lee / the daemon's ballot sheet does not read");
                app.with(|k| k.reset(Some(unreachable_notice())));
                return;
            }
        },
        Ok((_, answer)) => {
            let error = error_of(&answer);
            let notice = match error.as_ref().map(|e| e.code) {
                Some(ErrorCode::RevokedBadge) => Notice::error(
                    format!("La credencial n.º {number} fue anulada. Pida una nueva en la mesa de registro."),
                    format!("Badge no. {number} was revoked. Ask the registration desk for a new one."),
                ),
                Some(ErrorCode::UnknownBadge) => Notice::error(
                    format!("La credencial n.º {number} no fue emitida en esta reunión. Acuda a la mesa de registro."),
                    format!("Badge no. {number} was not issued at this meeting. Go to the registration desk."),
                ),
                _ => match error {
                    Some(error) => Notice::error(error.message, error.message_en),
                    None => Notice::error("El servicio rechazó la credencial.", "The service refused the badge."),
                },
            };
            app.with(|k| k.reset(Some(notice)));
            return;
        }
        Err(_) => {
            app.with(|k| k.reset(Some(unreachable_notice())));
            return;
        }
    };
    if sheet.open_items.is_empty() {
        app.with(|k| {
            k.reset(Some(Notice::info(
                "No hay ningún punto abierto a votación en este momento. Espere a que la presidencia abra el siguiente.",
                "No item is open for voting now. Wait for the chair to open the next one.",
            )))
        });
        return;
    }
    // Nothing this badge may vote now (already voted, or no holding votes
    // on what is open): say why, and send nothing.
    let mut why: Vec<(String, String)> = Vec::new();
    let mut votes = false;
    for holder in sheet.open_items.iter().flat_map(|i| &i.holders) {
        if holder.may_vote {
            votes = true;
        } else {
            let reason =
                (holder.reason_es.clone().unwrap_or_default(), holder.reason_en.clone().unwrap_or_default());
            if !why.contains(&reason) {
                why.push(reason);
            }
        }
    }
    if !votes {
        let (es, en): (Vec<String>, Vec<String>) = why.into_iter().unzip();
        app.with(|k| {
            k.reset(Some(Notice::info(
                format!("No tiene nada que votar en los puntos abiertos: {}", es.join(" ")),
                format!("Nothing to vote on the open items: {}", en.join(" ")),
            )))
        });
        return;
    }
    app.mark(&json!({ "estado": "eligiendo" }));
    app.with(|k| {
        // The newcomer is told the previous vote was cancelled, if it was.
        let kept = if walked_away { k.notice.take() } else { None };
        k.reset(kept);
        k.voter = Some(Voter { credential, sheet });
        k.screen = Screen::Choose;
        k.changed();
    });
}

/// Every holder that may vote on an item has a pick, with an option on
/// the item's ballot; nothing else is picked.
pub(super) fn check_picks(sheet: &BallotSheet, picks: &[Pick]) -> Result<(), Notice> {
    let mut wanted: BTreeMap<(String, String), usize> = BTreeMap::new();
    for item in &sheet.open_items {
        for holder in item.holders.iter().filter(|h| h.may_vote) {
            wanted.insert((item.id.clone(), holder.holder.clone()), item.options.len());
        }
    }
    for pick in picks {
        match wanted.remove(&(pick.item.clone(), pick.holder.clone())) {
            Some(options) if pick.choice.is_none_or(|c| usize::from(c) < options) => {}
            _ => {
                return Err(Notice::error(
                    "Esa elección no corresponde a su papeleta. Vuelva a elegir.",
                    "That choice is not on your ballot. Choose again.",
                ))
            }
        }
    }
    if wanted.is_empty() {
        Ok(())
    } else {
        Err(Notice::error(
            "Falta elegir en algún punto: cada punto y cada accionista necesita una opción (o «Abstención»).",
            "A choice is missing: each item and each holder needs an option (or “Abstain”).",
        ))
    }
}

/// The words of option `choice` on `item`, `Abstención` for none.
pub(super) fn option_words(item: &SheetItem, choice: Option<u16>) -> String {
    match choice {
        None => "Abstención (no se envía voto) / Abstain (no vote sent)".to_string(),
        Some(c) => match item.options.get(usize::from(c)) {
            Some(option) if option.es != option.en => format!("{} / {}", option.es, option.en),
            Some(option) => option.es.clone(),
            None => "?".to_string(),
        },
    }
}

/// Signs one ballot per item that has a vote (abstentions send nothing),
/// then drops the credential.
pub(super) fn sign_all(voter: Voter, picks: &[Pick]) -> Result<Vec<Outgoing>> {
    let mut out = Vec::new();
    for item in &voter.sheet.open_items {
        let id = item.id.as_str();
        let name_of = |holder: &str| {
            item.holders.iter().find(|h| h.holder == holder).map_or(holder, |h| h.name.as_str()).to_string()
        };
        let mine: Vec<&Pick> = picks.iter().filter(|p| p.item == id).collect();
        let votes: Vec<HolderVote> = mine
            .iter()
            .filter_map(|p| {
                p.choice.map(|c| {
                    Ok(HolderVote {
                        holder: Id::new(&p.holder)?,
                        choice: Choice::Whole(asamblea_rules::OptionIndex::list(usize::from(c))),
                    })
                })
            })
            .collect::<Result<_, WireError>>()?;
        if votes.is_empty() {
            continue;
        }
        let signed = SignedBallot::sign(&voter.credential, id, votes)?;
        out.push(Outgoing {
            item: id.to_string(),
            title: item.title.clone(),
            body: signed.body(),
            digest: signed.digest(),
            votes: mine.iter().map(|p| (name_of(&p.holder), option_words(item, p.choice))).collect(),
            sent: Sent::Waiting,
        });
    }
    // The credential goes here, and its key is wiped with it.
    drop(voter);
    Ok(out)
}
