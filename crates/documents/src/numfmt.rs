//! Colombian number format: `1.234.567` for counts, `69,31 %` for shares of
//! a base. Integer arithmetic only, even for display.

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
    let parts: Vec<&str> = date.split('-').collect();
    let parsed = match parts.as_slice() {
        [y, m, d] => y.parse::<u16>().ok().zip(m.parse::<usize>().ok()).zip(d.parse::<u8>().ok()),
        _ => None,
    };
    match parsed {
        Some(((year, month @ 1..=12), day @ 1..=31)) => format!("{day} de {} de {year}", MONTHS[month - 1]),
        _ => date.to_string(),
    }
}

/// Days from the date `from` to the date `to` (both `YYYY-MM-DD`): how
/// far ahead a meeting was convened. `None` for anything else. Days from
/// a date by Howard Hinnant's `days_from_civil`.
pub fn days_between(from: &str, to: &str) -> Option<i64> {
    let days = |date: &str| -> Option<i64> {
        let mut parts = date.split('-').map(|p| p.parse::<i64>().ok());
        let (y, m, d) = (parts.next()??, parts.next()??, parts.next()??);
        if parts.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
            return None;
        }
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let year_of_era = y.rem_euclid(400);
        let day_of_year = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        Some(era * 146_097 + day_of_era - 719_468)
    };
    Some(days(to)? - days(from)?)
}

/// A ledger time (milliseconds since the Unix epoch) as Colombia's civil
/// date `YYYY-MM-DD` and time `HH:MM`: UTC−5 all year (Colombia keeps no
/// summer time). Days to a date by Howard Hinnant's `civil_from_days`.
pub fn colombia_time(time_ms: u64) -> (String, String) {
    const OFFSET_S: i64 = 5 * 3600;
    let seconds = i64::try_from(time_ms / 1000).unwrap_or(i64::MAX) - OFFSET_S;
    let (days, of_day) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (format!("{year:04}-{month:02}-{day:02}"), format!("{:02}:{:02}", of_day / 3600, of_day % 3600 / 60))
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
    fn days_between_dates_count_leap_days() {
        assert_eq!(days_between("2027-03-02", "2027-03-25"), Some(23));
        assert_eq!(days_between("2024-02-01", "2024-03-01"), Some(29));
        assert_eq!(days_between("2026-12-31", "2027-01-01"), Some(1));
        assert_eq!(days_between("1970-01-01", "1970-01-01"), Some(0));
        assert_eq!(days_between("2027-03-25", "2027-03-02"), Some(-23));
        assert_eq!(days_between("2027-13-01", "2027-03-02"), None);
        assert_eq!(days_between("mañana", "2027-03-02"), None);
        // The same calendar as colombia_time's: noon of a day is that day.
        let noon = |days: i64| colombia_time(((days * 86_400 + 17 * 3600) * 1000) as u64).0;
        assert_eq!(days_between("1970-01-01", &noon(20_000)), Some(20_000));
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
