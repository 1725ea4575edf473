//! Colombian number format: `1.234.567` for counts, `69,31 %` for shares of
//! a base, dates in words, a ledger time in Colombia. Integer arithmetic
//! only, even for display. The calendar itself (dates, holidays, business
//! days) is `asamblea_rules::calendar`'s, written once for the daemon's
//! checks and the documents.

use asamblea_rules::calendar::Date;

/// A count with `.` between thousands: `1234567` → `1.234.567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('.');
        }
        out.push(c);
    }
    out
}

/// `part / whole` as a percentage with two decimals and a decimal comma,
/// truncated (never rounded up past a threshold): `69,31 %`. `—` when the
/// whole is zero.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "—".to_string();
    }
    let basis_points = u128::from(part) * 10_000 / u128::from(whole);
    format!("{},{:02} %", thousands((basis_points / 100) as u64), basis_points % 100)
}

/// A date `YYYY-MM-DD` in words, as a Colombian document writes it:
/// `25 de marzo de 2027`. Anything else is given back as it is.
pub fn date_es(date: &str) -> String {
    const MONTHS: [&str; 12] = [
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ];
    match Date::parse(date) {
        Ok(day) => {
            let (year, month, day) = day.ymd();
            format!("{day} de {} de {year}", MONTHS[month as usize - 1])
        }
        Err(_) => date.to_string(),
    }
}

/// A ledger time (milliseconds since the Unix epoch) as Colombia's civil
/// date `YYYY-MM-DD` and time `HH:MM`: UTC−5 all year (Colombia keeps no
/// summer time).
pub fn colombia_time(time_ms: u64) -> (String, String) {
    const OFFSET_S: i64 = 5 * 3600;
    let seconds = i64::try_from(time_ms / 1000).unwrap_or(i64::MAX) - OFFSET_S;
    let (days, of_day) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    (Date::from_day_number(days).to_string(), format!("{:02}:{:02}", of_day / 3600, of_day % 3600 / 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_use_dots() {
        for (n, s) in [
            (0, "0"),
            (999, "999"),
            (1_000, "1.000"),
            (1_234_567, "1.234.567"),
            (u64::MAX, "18.446.744.073.709.551.615"),
        ] {
            assert_eq!(thousands(n), s);
        }
    }

    #[test]
    fn ledger_times_read_in_colombia() {
        // 2027-03-25T15:04:59Z is 10:04 in Bogotá.
        assert_eq!(colombia_time(1_805_987_099_000), ("2027-03-25".into(), "10:04".into()));
        // Before 05:00 UTC it is still the day before in Colombia.
        assert_eq!(colombia_time(1_805_947_200_000), ("2027-03-24".into(), "23:00".into()));
        // A leap day, and the epoch itself.
        assert_eq!(colombia_time(1_709_226_000_000), ("2024-02-29".into(), "12:00".into()));
        assert_eq!(colombia_time(0), ("1969-12-31".into(), "19:00".into()));
    }

    #[test]
    fn dates_read_in_words() {
        assert_eq!(date_es("2027-03-25"), "25 de marzo de 2027");
        assert_eq!(date_es("2027-12-01"), "1 de diciembre de 2027");
        assert_eq!(date_es("2027-13-01"), "2027-13-01");
        assert_eq!(date_es("mañana"), "mañana");
    }

    #[test]
    fn percentages_truncate_with_a_decimal_comma() {
        assert_eq!(percent(700_000, 1_010_000), "69,30 %");
        assert_eq!(percent(1, 3), "33,33 %");
        assert_eq!(percent(2, 3), "66,66 %");
        assert_eq!(percent(5, 0), "—");
        assert_eq!(percent(1 << 40, 1 << 40), "100,00 %");
    }
}
