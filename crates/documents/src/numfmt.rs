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
