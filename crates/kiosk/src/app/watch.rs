//! What the kiosk does of itself: says at a restart what became of a vote
//! in progress, clears the screen when idle, and checks the daemon.

use super::*;

/// A restart during a vote: say what became of it.
pub(super) async fn recover(app: &App) {
    let path = app.0.folder.dir.join(IN_PROGRESS);
    let Ok(text) = std::fs::read_to_string(&path) else { return };
    let mark: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    let notice = match mark["estado"].as_str() {
        Some("enviando") => {
            let mut said_es = Vec::new();
            let mut said_en = Vec::new();
            for ballot in mark["papeletas"].as_array().into_iter().flatten() {
                let title = ballot["titulo"].as_str().unwrap_or("?");
                let digest = ballot["resumen"].as_str().unwrap_or("");
                match app.daemon(&format!("/api/v1/receipts/{digest}"), None).await {
                    Ok((status, answer)) if status.is_success() => {
                        let seq = answer["receipt"]["seq"].as_u64().unwrap_or(0);
                        said_es.push(format!("«{title}»: registrado (n.º {seq})"));
                        said_en.push(format!("“{title}”: recorded (no. {seq})"));
                    }
                    Ok(_) => {
                        said_es.push(format!("«{title}»: NO se registró"));
                        said_en.push(format!("“{title}”: NOT recorded"));
                    }
                    Err(_) => {
                        said_es.push(format!("«{title}»: no se pudo comprobar; consúltelo en el tablero público"));
                        said_en.push(format!("“{title}”: could not be checked; see the public board"));
                    }
                }
            }
            Notice::error(
                format!(
                    "El quiosco se reinició mientras enviaba su voto. {}. Si algún punto no se registró, vuelva a escanear su credencial.",
                    said_es.join("; ")
                ),
                format!("The kiosk restarted while sending your vote. {}. If an item was not recorded, scan your badge again.", said_en.join("; ")),
            )
        }
        _ => Notice::error(
            "El quiosco se reinició antes de que confirmara su voto: no se envió nada. Vuelva a escanear su credencial.",
            "The kiosk restarted before you confirmed: nothing was sent. Scan your badge again.",
        ),
    };
    app.with(|k| {
        k.notice = Some(notice);
        k.changed();
    });
    app.unmark();
}

/// Clears a half-made vote after a while without a touch, and the
/// receipt after its time on screen.
pub(super) async fn watch_idle(app: App) {
    let (idle_after, receipt_for) = (app.0.options.idle_after, app.0.options.receipt_for);
    loop {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let cleared = app.with(|k| match k.screen {
            Screen::Choose | Screen::Review if k.touched.elapsed() >= idle_after => {
                k.reset(Some(Notice::info(
                    "Se cerró por inactividad: no se envió ningún voto. Vuelva a escanear su credencial para votar.",
                    "Closed after inactivity: no vote was sent. Scan your badge again to vote.",
                )));
                true
            }
            Screen::Done if k.touched.elapsed() >= receipt_for => {
                k.reset(None);
                false
            }
            _ => false,
        });
        if cleared {
            app.unmark();
        }
    }
}

/// Asks the daemon for its status: `None` when it answers, or what is
/// wrong, for the staff (where the kiosk looked, and why it failed).
pub(super) async fn check_daemon(app: &App) -> Option<Notice> {
    let daemon = &app.0.folder.settings.daemon;
    match app.daemon("/api/v1/status", None).await {
        Ok((status, _)) if status.is_success() => None,
        Ok((status, _)) => Some(Notice::error(
            format!("El servicio de votación en {daemon} responde con error ({status}). Personal: revise el servicio; aquí no se puede votar por ahora."),
            format!("The voting service at {daemon} answers with an error ({status}). Staff: check the daemon; no voting here for now."),
        )),
        Err(error) => Some(Notice::error(
            format!("Sin conexión con el servicio de votación en {daemon}: {error:#}. Personal: revise la red, que el servicio esté en marcha y la dirección del quiosco (--daemon); aquí no se puede votar por ahora."),
            format!("No connection to the voting service at {daemon}. Staff: check the network, that the daemon runs, and the kiosk's --daemon; no voting here for now."),
        )),
    }
}

/// How often an idle kiosk checks its daemon.
pub(super) const DAEMON_CHECK: Duration = Duration::from_secs(10);

/// Checks the daemon every [`DAEMON_CHECK`] while the kiosk is idle, and
/// keeps what it found for the idle screen.
pub(super) async fn watch_daemon(app: App) {
    loop {
        tokio::time::sleep(DAEMON_CHECK).await;
        if !app.with(|k| k.screen == Screen::Idle) {
            continue;
        }
        let service = check_daemon(&app).await;
        app.with(|k| {
            if k.service != service {
                k.service = service;
                k.changed();
            }
        });
    }
}
