//! Sending the signed ballots until the daemon answers each, and its
//! refusals in words.

use super::*;

/// The daemon's refusal of a ballot, in its words.
pub(super) fn refusal(answer: &Value) -> Notice {
    match error_of(answer) {
        Some(error) => Notice::error(
            format!("No se contó: {}", error.message),
            format!("Not counted: {}", error.message_en),
        ),
        None => Notice::error("No se contó: el servicio lo rechazó.", "Not counted: the service refused it."),
    }
}

/// The daemon's error answer (`asamblea_api::ErrorAnswer`), if it is one.
pub(super) fn error_of(answer: &Value) -> Option<ErrorDetail> {
    serde_json::from_value::<asamblea_api::ErrorAnswer>(answer.clone()).ok().map(|answer| answer.error)
}

/// Why [`send_all`] waits before sending again.
pub(super) enum Pause {
    /// The daemon cannot be reached, or failed (5xx).
    Unreachable,
    /// The daemon is still saving this ballot, or asks for a slower pace:
    /// which ballot, and the daemon's words, said as a refusal if it is
    /// still so after [`BUSY_LIMIT`] tries (a copy being saved answers
    /// with its receipt within seconds).
    Busy(usize, Notice),
}

/// Tries, two seconds apart, before a "still saving" answer is shown as
/// the daemon's refusal.
pub(super) const BUSY_LIMIT: u32 = 15;

/// Sends every ballot still waiting, again and again until the daemon
/// answers each.
pub(super) async fn send_all(app: App) {
    // "Still saving" answers in a row.
    let mut busy = 0;
    loop {
        let waiting: Vec<(usize, String)> = app.with(|k| {
            k.outbox
                .iter()
                .enumerate()
                .filter(|(_, o)| matches!(o.sent, Sent::Waiting))
                .map(|(at, o)| (at, o.body.clone()))
                .collect()
        });
        if waiting.is_empty() {
            app.unmark();
            app.with(|k| {
                k.screen = Screen::Done;
                k.notice = None;
                k.changed();
            });
            return;
        }
        // Why the loop waits: the daemon cannot be reached (or failed),
        // or it is still saving this very ballot or asks the kiosk to
        // slow down; either way the same bytes go again shortly.
        let mut pause = None;
        for (at, body) in waiting {
            match app.daemon("/api/v1/ballots", Some(body)).await {
                Ok((status, answer)) if status.is_success() => {
                    let folder = &app.0.folder;
                    let digest = app.with(|k| k.outbox[at].digest);
                    // Signed by the meeting's daemon, or by any of its
                    // nodes when it is replicated.
                    let read = folder
                        .daemon_keys
                        .iter()
                        .map(|key| crate::read_receipt(&answer, &folder.meeting, Some(key)))
                        .find(Result::is_ok)
                        .unwrap_or_else(|| {
                            crate::read_receipt(&answer, &folder.meeting, folder.daemon_keys.first())
                        });
                    let sent = match read {
                        Ok((receipt, signature)) if receipt.event == digest => {
                            let board = folder.settings.board.trim_end_matches('/');
                            let url = format!("{board}/recibo?resumen={digest}");
                            let qr = crate::scan::qr_svg(&url);
                            Sent::Counted { seq: receipt.seq, line: receipt.to_text(&signature), url, qr }
                        }
                        Ok(_) => Sent::Refused(Notice::error(
                            "El recibo recibido es de otra papeleta: no se puede mostrar como suyo. Avise al personal.",
                            "The receipt received is another ballot's: it cannot be shown as yours. Tell the staff.",
                        )),
                        Err(_) => Sent::Refused(Notice::error(
                            "El recibo recibido no lleva la firma del servicio: avise al personal.",
                            "The receipt does not carry the service's signature: tell the staff.",
                        )),
                    };
                    app.with(|k| {
                        k.outbox[at].sent = sent;
                        k.changed();
                    });
                }
                // The first copy of this ballot is still being saved (a
                // retry overtook it), or too many requests: not a refusal.
                Ok((status, answer))
                    if status == StatusCode::TOO_MANY_REQUESTS
                        || error_of(&answer).is_some_and(|e| e.code == ErrorCode::Replayed) =>
                {
                    pause = Some(Pause::Busy(at, refusal(&answer)));
                    break;
                }
                Ok((status, answer)) if status.is_client_error() => {
                    let notice = refusal(&answer);
                    app.with(|k| {
                        k.outbox[at].sent = Sent::Refused(notice);
                        k.changed();
                    });
                }
                // The daemon is there but cannot take it now (5xx), or
                // cannot be reached: the same bytes again, shortly.
                _ => {
                    pause = Some(Pause::Unreachable);
                    break;
                }
            }
        }
        if let Some(pause) = pause {
            if let Pause::Busy(at, notice) = &pause {
                busy += 1;
                if busy >= BUSY_LIMIT {
                    busy = 0;
                    app.with(|k| {
                        k.outbox[*at].sent = Sent::Refused(notice.clone());
                        k.changed();
                    });
                    continue;
                }
            }
            app.with(|k| {
                k.attempts += 1;
                k.notice = Some(match pause {
                    Pause::Unreachable => Notice::error(
                        format!(
                            "Sin conexión con el servicio de votación: reintentando (intento {}). Su voto está firmado y se enviará en cuanto vuelva la conexión; no se cuenta dos veces. No se retire.",
                            k.attempts
                        ),
                        "No connection to the voting service: retrying. Your signed vote will be sent as soon as it returns, and never counted twice. Please wait.",
                    ),
                    Pause::Busy(..) => Notice::info(
                        format!("El servicio está guardando su voto: un momento (intento {}). No se retire.", k.attempts),
                        "The service is saving your vote: one moment. Please wait.",
                    ),
                });
                k.changed();
            });
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    }
}
