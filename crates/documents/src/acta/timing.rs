//! The acta's poll timing (rules.md §11.5, Decreto 398 de 2020): the
//! meeting's minimum open time and countdown, and for each poll the times
//! of its opening, its announced close and its close, to the second, as
//! the ledger recorded them.

use asamblea_rules::duration_text;

use super::{table, text, Block};

/// One poll's times, from the ledger (ms since the Unix epoch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PollClock {
    /// The item's title.
    pub title: String,
    /// Its `item-opened` record's time.
    pub opened_ms: u64,
    /// Its latest `close-announced`: the record's time and the countdown.
    pub announced: Option<(u64, u64)>,
    /// Its `item-closed` record's time, once closed.
    pub closed_ms: Option<u64>,
}

/// "14:05:07": a ledger time in Colombia (UTC−5), to the second.
fn clock_seconds(ms: u64) -> String {
    let seconds = (i64::try_from(ms / 1000).unwrap_or(i64::MAX) - 5 * 3600).rem_euclid(86_400);
    format!("{:02}:{:02}:{:02}", seconds / 3600, seconds % 3600 / 60, seconds % 60)
}

/// The blocks of the poll timing: what the meeting set, then a row per
/// poll. Nothing for a ledger without `polls-timed`.
pub(super) fn timing_blocks(timing: Option<(u64, u64)>, polls: &[PollClock]) -> Vec<Block> {
    let Some((min_open_ms, min_countdown_ms)) = timing else { return Vec::new() };
    let mut out = Vec::new();
    out.push(text(if min_open_ms == 0 && min_countdown_ms == 0 {
        "Tiempo de las votaciones: esta reunión no fijó un tiempo mínimo de votación ni una cuenta regresiva \
         para anunciar el cierre."
            .to_string()
    } else {
        format!(
            "Tiempo de las votaciones (Decreto 398 de 2020): cada votación debía permanecer abierta al menos {} \
             y la presidencia debía anunciar su cierre con una cuenta regresiva de al menos {}; el libro \
             electrónico rechaza un cierre anterior. Horas del libro electrónico, hora de Colombia:",
            duration_text(min_open_ms),
            duration_text(min_countdown_ms)
        )
    }));
    if polls.is_empty() {
        return out;
    }
    let rows = polls
        .iter()
        .map(|poll| {
            vec![
                poll.title.clone(),
                clock_seconds(poll.opened_ms),
                poll.announced.map_or_else(|| "—".to_string(), |(at, _)| clock_seconds(at)),
                poll.announced.map_or_else(|| "—".to_string(), |(_, countdown)| duration_text(countdown)),
                poll.closed_ms.map_or_else(|| "abierta".to_string(), clock_seconds),
            ]
        })
        .collect();
    out.push(table(&["Punto", "Apertura", "Anuncio del cierre", "Cuenta regresiva", "Cierre"], rows));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_colombias_to_the_second() {
        // 2027-03-30 15:04:05 UTC is 10:04:05 in Bogotá.
        assert_eq!(clock_seconds(1_806_419_045_000), "10:04:05");
        assert_eq!(clock_seconds(1_806_419_045_999), "10:04:05");
    }
}
