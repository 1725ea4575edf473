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
/// far ahead a meeting was convened. `None` for anything else.
pub fn days_between(from: &str, to: &str) -> Option<i64> {
    Some(day_number(to)? - day_number(from)?)
}

/// Business days (días hábiles) strictly between the date `from` and the
/// date `to`: neither the notice's day nor the meeting's counts, as the
/// Superintendencia de Sociedades counts C.Co. art. 424's fifteen for the
/// year-end statements. A business day is Monday to Friday and not a
/// Colombian public holiday ([`is_holiday`]). `None` for anything else.
pub fn business_days_between(from: &str, to: &str) -> Option<u64> {
    let (from, to) = (day_number(from)?, day_number(to)?);
    Some(((from + 1)..to).filter(|&day| weekday(day) < 5 && !is_holiday(day)).count() as u64)
}

/// Whether a day (counted from 1970-01-01) is a Colombian public holiday:
/// the six of fixed date; the seven that Ley 51 de 1983 moves to the next
/// Monday (6 January, 19 March, 29 June, 15 August, 12 October, 1 and 11
/// November); Holy Thursday and Good Friday; and Ascension, Corpus
/// Christi and the Sacred Heart, moved to the Monday after (Easter plus
/// 43, 64 and 71 days).
pub fn is_holiday(day: i64) -> bool {
    let (year, _, _) = civil_from_days(day);
    let on = |m: i64, d: i64| days_from_civil(year, m, d);
    let next_monday = |day: i64| day + (7 - weekday(day)) % 7;
    let easter = easter(year);
    [(1, 1), (5, 1), (7, 20), (8, 7), (12, 8), (12, 25)].iter().any(|&(m, d)| on(m, d) == day)
        || [(1, 6), (3, 19), (6, 29), (8, 15), (10, 12), (11, 1), (11, 11)]
            .iter()
            .any(|&(m, d)| next_monday(on(m, d)) == day)
        || [-3, -2, 43, 64, 71].iter().any(|&offset| easter + offset == day)
}

/// Easter Sunday of `year` (Gregorian), as a day number: the anonymous
/// Gregorian algorithm (Meeus/Jones/Butcher).
fn easter(year: i64) -> i64 {
    let (a, b, c) = (year % 19, year / 100, year % 100);
    let (d, e) = (b / 4, b % 4);
    let g = (b - (b + 8) / 25 + 1) / 3;
    let h = (19 * a + b - d - g + 15) % 30;
    let (i, k) = (c / 4, c % 4);
    let l = (32 + 2 * e + 2 * i - h - k) % 7;
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    days_from_civil(year, month, day)
}

/// 0 for Monday … 6 for Sunday (1970-01-01 was a Thursday).
fn weekday(day: i64) -> i64 {
    (day + 3).rem_euclid(7)
}

/// A date `YYYY-MM-DD` as a day number from 1970-01-01.
fn day_number(date: &str) -> Option<i64> {
    let mut parts = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, m, d) = (parts.next()??, parts.next()??, parts.next()??);
    if parts.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    Some(days_from_civil(y, m, d))
}

/// Howard Hinnant's `days_from_civil`: the day number of a date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let year_of_era = y.rem_euclid(400);
    let day_of_year = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// Howard Hinnant's `civil_from_days`: the date of a day number.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (year_of_era + era * 400 + i64::from(month <= 2), month, day)
}

/// A ledger time (milliseconds since the Unix epoch) as Colombia's civil
/// date `YYYY-MM-DD` and time `HH:MM`: UTC−5 all year (Colombia keeps no
/// summer time).
pub fn colombia_time(time_ms: u64) -> (String, String) {
    const OFFSET_S: i64 = 5 * 3600;
    let seconds = i64::try_from(time_ms / 1000).unwrap_or(i64::MAX) - OFFSET_S;
    let (days, of_day) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (year, month, day) = civil_from_days(days);
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

    /// Colombia's public holidays of 2027, as the official calendar gives
    /// them (Easter on 28 March), and no other day of that year.
    #[test]
    fn colombian_holidays_of_2027() {
        let official = [
            "2027-01-01",
            "2027-01-11",
            "2027-03-22",
            "2027-03-25",
            "2027-03-26",
            "2027-05-01",
            "2027-05-10",
            "2027-05-31",
            "2027-06-07",
            "2027-07-05",
            "2027-07-20",
            "2027-08-07",
            "2027-08-16",
            "2027-10-18",
            "2027-11-01",
            "2027-11-15",
            "2027-12-08",
            "2027-12-25",
        ];
        let official: Vec<i64> = official.iter().map(|d| day_number(d).unwrap()).collect();
        let found: Vec<i64> = (day_number("2027-01-01").unwrap()..=day_number("2027-12-31").unwrap())
            .filter(|&d| is_holiday(d))
            .collect();
        assert_eq!(found, official);
        assert_eq!(easter(2026), day_number("2026-04-05").unwrap());
        assert_eq!(easter(2025), day_number("2025-04-20").unwrap());
        assert_eq!(weekday(day_number("2027-03-30").unwrap()), 1, "a Tuesday");
    }

    /// The demo's notice: 2 March to 30 March 2027 holds 16 business days
    /// (St Joseph's, moved to 22 March, and Holy Thursday and Friday are
    /// not), one more than art. 424's fifteen; the day before, 15.
    #[test]
    fn business_days_leave_out_weekends_holidays_and_both_ends() {
        assert_eq!(business_days_between("2027-03-02", "2027-03-30"), Some(16));
        assert_eq!(business_days_between("2027-03-02", "2027-03-29"), Some(15));
        assert_eq!(business_days_between("2027-03-02", "2027-03-03"), Some(0));
        assert_eq!(business_days_between("2027-03-05", "2027-03-08"), Some(0), "Friday to Monday");
        assert_eq!(business_days_between("2026-12-30", "2027-01-05"), Some(2), "31 Dec and 4 Jan");
        assert_eq!(business_days_between("2027-03-30", "2027-03-02"), Some(0));
        assert_eq!(business_days_between("2027-3-2", "x"), None);
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
