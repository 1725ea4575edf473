//! What `verify` says about how the meeting was held (ledger-format
//! §11.1): its modality (§3.23) and the quorum's continuity derived from
//! the presence events (`rules.md` HY-4), as JSON for a script and as a
//! line for a person, the same figures the acta prints.

use asamblea_rules::{Continuity, Moment, QuorumReading};

/// `modality`: the modality recorded by `meeting-modality` (§3.23), or
/// `presencial` with nothing else for a ledger without it.
pub fn modality_json(state: &asamblea_ledger::State) -> serde_json::Value {
    let Some(convened) = state.convened_modality() else {
        return serde_json::json!({ "modality": state.modality().code(), "recorded": false });
    };
    let mut out = serde_json::json!({
        "modality": convened.modality.code(),
        "recorded": true,
        "heartbeat_seconds": convened.presence.heartbeat_seconds,
        "presence_timeout_seconds": convened.presence.timeout_seconds,
    });
    if let Some(remote) = &convened.remote {
        out["medium"] = remote.medium.as_str().into();
        out["access"] = remote.access.as_str().into();
        out["identity_check"] = remote.identity_check.as_str().into();
        out["floor"] = remote.floor.as_str().into();
        out["identity_delegated"] = remote.identity_delegated.into();
    }
    out
}

fn moment(m: Moment) -> serde_json::Value {
    serde_json::json!({ "seq": m.seq, "time_ms": m.time_ms })
}

fn reading(q: &QuorumReading) -> serde_json::Value {
    serde_json::json!({ "present": q.present.get(), "holders": q.holders, "quorum": q.this_call })
}

/// `continuity`: the installation, each poll's lowest reading and whether
/// it lost the quorum, the intervals without it, and whether it held
/// throughout.
pub fn continuity_json(state: &asamblea_ledger::State) -> serde_json::Value {
    let c: Continuity = state.continuity();
    let meeting = state.meeting();
    serde_json::json!({
        "held_throughout": c.held_throughout(),
        "installation": c.installation.map(|(at, q)| {
            let mut out = moment(at);
            out["reading"] = reading(&q);
            out
        }),
        "lowest": c.lowest.map(|(at, q)| {
            let mut out = moment(at);
            out["reading"] = reading(&q);
            out
        }),
        "polls": c.polls.iter().map(|p| serde_json::json!({
            "item": meeting.map(|m| m.item(p.item).id()),
            "opened": moment(p.opened),
            "closed": p.closed.map(moment),
            "lowest": reading(&p.lowest),
            "lowest_at": moment(p.lowest_at),
            "lost": p.lost,
        })).collect::<Vec<_>>(),
        "without_quorum": c.gaps.iter().map(|g| serde_json::json!({
            "from": moment(g.from),
            "to": g.to.map(moment),
            "lowest": reading(&g.lowest),
        })).collect::<Vec<_>>(),
    })
}

/// The text answer's lines on the modality (when not presencial) and the
/// quorum's continuity (once the meeting was installed or voted).
pub fn held_lines(state: &asamblea_ledger::State) -> Vec<String> {
    let mut lines = Vec::new();
    let modality = state.modality();
    if modality.has_remote_channel() {
        lines.push(format!("Modalidad / modality: {} / {}", modality.spanish(), modality.english()));
    }
    let c = state.continuity();
    if c.installation.is_some() || !c.polls.is_empty() {
        lines.push(if c.held_throughout() {
            "Continuidad del quórum / quorum continuity: se mantuvo de la instalación al final / held from the installation to the end".to_string()
        } else {
            let lost = c.polls.iter().filter(|p| p.lost).count();
            let (gaps, plural) = (c.gaps.len(), |n: usize| if n == 1 { "" } else { "s" });
            format!(
                "Continuidad del quórum / quorum continuity: NO se mantuvo / NOT held — {gaps} intervalo{} sin quórum / interval{} without quorum; {lost} {} / poll{} lost it",
                plural(gaps),
                plural(gaps),
                if lost == 1 { "votación lo perdió" } else { "votaciones lo perdieron" },
                plural(lost),
            )
        });
    }
    lines
}
