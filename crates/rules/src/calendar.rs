//! Colombia's legal calendar: dates of the Gregorian calendar, the public
//! holidays, business days (días hábiles) and the one way asamblea counts
//! days between two dates. Pure arithmetic: no clock, no time zone (a
//! ledger time becomes a date in `asamblea_documents::numfmt`, which
//! calls [`Date::from_day_number`]).
//!
//! **Counting.** A period "with N days of notice" counts the days strictly
//! between the notice and the meeting: neither the day of the notice nor
//! the day of the meeting (Supersociedades' reading of C.Co. art. 424;
//! Almagrario's reglamento §4: «No se contabilizan ni el día de la
//! convocatoria ni el día de la Asamblea»). Calendar days
//! ([`Date::calendar_days_between`]) and business days
//! ([`Date::business_days_between`]) follow that one convention.

use std::fmt;

/// A date of the Gregorian calendar, from the year 1900 on (as a
/// meeting's file may write it). Ordered as time runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(i64);

/// Why a text is not a [`Date`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateError {
    /// Not written `YYYY-MM-DD`.
    NotWrittenIso,
    /// Written so, but no day of the calendar (30 February), or before 1900.
    NotInCalendar,
}

/// The day of the week.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weekday {
    /// lunes
    Monday,
    /// martes
    Tuesday,
    /// miércoles
    Wednesday,
    /// jueves
    Thursday,
    /// viernes
    Friday,
    /// sábado
    Saturday,
    /// domingo
    Sunday,
}

impl Weekday {
    /// The day's name in Spanish, as a document writes it in a sentence.
    pub fn spanish(self) -> &'static str {
        match self {
            Weekday::Monday => "lunes",
            Weekday::Tuesday => "martes",
            Weekday::Wednesday => "miércoles",
            Weekday::Thursday => "jueves",
            Weekday::Friday => "viernes",
            Weekday::Saturday => "sábado",
            Weekday::Sunday => "domingo",
        }
    }
}

impl Date {
    /// The date `year`-`month`-`day`, if the calendar has it (leap years
    /// included) and the year is 1900 or later.
    pub fn new(year: i64, month: u32, day: u32) -> Option<Date> {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => 0,
        };
        (year >= 1900 && (1..=days).contains(&day))
            .then(|| Date(days_from_civil(year, i64::from(month), i64::from(day))))
    }

    /// A date written `YYYY-MM-DD` (ten characters, digits and two
    /// hyphens), if it is a real date; else why not.
    pub fn parse(text: &str) -> Result<Date, DateError> {
        let b = text.as_bytes();
        let shaped = b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && b.iter().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
        if !shaped {
            return Err(DateError::NotWrittenIso);
        }
        let number = |range: std::ops::Range<usize>| text[range].parse::<u32>().expect("digits");
        Date::new(i64::from(number(0..4)), number(5..7), number(8..10)).ok_or(DateError::NotInCalendar)
    }

    /// The date that is day `n` counted from 1970-01-01 (day 0).
    pub fn from_day_number(n: i64) -> Date {
        Date(n)
    }

    /// This date's day number from 1970-01-01.
    pub fn day_number(self) -> i64 {
        self.0
    }

    /// Year, month (1–12) and day (1–31).
    pub fn ymd(self) -> (i64, u32, u32) {
        let (y, m, d) = civil_from_days(self.0);
        (y, m as u32, d as u32)
    }

    /// The date `days` later (earlier when negative).
    pub fn plus_days(self, days: i64) -> Date {
        Date(self.0 + days)
    }

    /// The day of the week.
    pub fn weekday(self) -> Weekday {
        const DAYS: [Weekday; 7] = [
            Weekday::Monday,
            Weekday::Tuesday,
            Weekday::Wednesday,
            Weekday::Thursday,
            Weekday::Friday,
            Weekday::Saturday,
            Weekday::Sunday,
        ];
        // 1970-01-01 was a Thursday.
        DAYS[(self.0 + 3).rem_euclid(7) as usize]
    }

    /// Whether Colombia keeps this day as a public holiday: the six of
    /// fixed date; the seven that Ley 51 de 1983 moves to the next Monday
    /// (6 January, 19 March, 29 June, 15 August, 12 October, 1 and 11
    /// November); Holy Thursday and Good Friday; and Ascension, Corpus
    /// Christi and the Sacred Heart, moved to the Monday after (Easter
    /// plus 43, 64 and 71 days).
    pub fn is_holiday(self) -> bool {
        let (year, _, _) = civil_from_days(self.0);
        let on = |m: i64, d: i64| days_from_civil(year, m, d);
        let next_monday = |day: i64| day + (7 - (day + 3).rem_euclid(7)) % 7;
        let easter = easter(year);
        [(1, 1), (5, 1), (7, 20), (8, 7), (12, 8), (12, 25)].iter().any(|&(m, d)| on(m, d) == self.0)
            || [(1, 6), (3, 19), (6, 29), (8, 15), (10, 12), (11, 1), (11, 11)]
                .iter()
                .any(|&(m, d)| next_monday(on(m, d)) == self.0)
            || [-3, -2, 43, 64, 71].iter().any(|&offset| easter + offset == self.0)
    }

    /// A business day (día hábil): Monday to Friday, not a public holiday.
    pub fn is_business_day(self) -> bool {
        !matches!(self.weekday(), Weekday::Saturday | Weekday::Sunday) && !self.is_holiday()
    }

    /// Calendar days strictly between `self` and `later`: neither end
    /// counts (the module's convention). 0 when `later` is not after.
    pub fn calendar_days_between(self, later: Date) -> u64 {
        u64::try_from(later.0 - self.0 - 1).unwrap_or(0)
    }

    /// Business days strictly between `self` and `later`: neither end
    /// counts. 0 when `later` is not after.
    pub fn business_days_between(self, later: Date) -> u64 {
        ((self.0 + 1)..later.0).filter(|&day| Date(day).is_business_day()).count() as u64
    }

    /// The latest date `d` such that `d.business_days_between(self)` is
    /// at least `n`: the last day a notice of `n` business days may be
    /// given for a meeting on `self`.
    pub fn last_day_with_business_days_before(self, n: u64) -> Date {
        let mut day = self;
        let mut counted = 0;
        while counted < n {
            day = day.plus_days(-1);
            if day.is_business_day() {
                counted += 1;
            }
        }
        day.plus_days(-1)
    }

    /// The `n`-th business day after `self`, not counting `self` (the
    /// module's convention: a period runs from the day after). `self`
    /// for `n = 0`.
    pub fn nth_business_day_after(self, n: u64) -> Date {
        let mut day = self;
        let mut counted = 0;
        while counted < n {
            day = day.plus_days(1);
            if day.is_business_day() {
                counted += 1;
            }
        }
        day
    }

    /// The first business day of `month` in `year`.
    pub fn first_business_day(year: i64, month: u32) -> Option<Date> {
        let mut day = Date::new(year, month, 1)?;
        while !day.is_business_day() {
            day = day.plus_days(1);
        }
        Some(day)
    }
}

impl fmt::Display for Date {
    /// `YYYY-MM-DD`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.ymd();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Date {
        Date::parse(text).unwrap_or_else(|e| panic!("{text} is a date: {e:?}"))
    }

    #[test]
    fn dates_are_real_and_written_one_way() {
        assert_eq!(date("2027-03-25").to_string(), "2027-03-25");
        assert_eq!(date("2028-02-29").ymd(), (2028, 2, 29));
        for bad in ["2026-02-29", "2027-02-30", "2027-13-01", "2027-00-10", "1899-12-31"] {
            assert_eq!(Date::parse(bad), Err(DateError::NotInCalendar), "{bad}");
        }
        for bad in ["2027-3-25", "25/03/2027", "2027-03-25 ", "２027-03-25"] {
            assert_eq!(Date::parse(bad), Err(DateError::NotWrittenIso), "{bad}");
        }
        assert_eq!(date("1970-01-01").day_number(), 0);
        assert_eq!(date("2024-03-01").day_number() - date("2024-02-01").day_number(), 29);
        assert_eq!(date("2027-03-30").weekday(), Weekday::Tuesday);
        assert_eq!(Date::from_day_number(20_000).to_string(), "2024-10-04");
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
        let official: Vec<Date> = official.iter().map(|d| date(d)).collect();
        let found: Vec<Date> = (date("2027-01-01").day_number()..=date("2027-12-31").day_number())
            .map(Date::from_day_number)
            .filter(|d| d.is_holiday())
            .collect();
        assert_eq!(found, official);
        assert_eq!(easter(2026), date("2026-04-05").day_number());
        assert_eq!(easter(2025), date("2025-04-20").day_number());
    }

    /// The demo's notice: 2 March to 30 March 2027 holds 16 business days
    /// (St Joseph's, moved to 22 March, and Holy Thursday and Friday are
    /// not); the day before, 15. Neither end counts, in both counts.
    #[test]
    fn both_counts_leave_out_both_ends() {
        let (notice, meeting) = (date("2027-03-02"), date("2027-03-30"));
        assert_eq!(notice.business_days_between(meeting), 16);
        assert_eq!(notice.business_days_between(date("2027-03-29")), 15);
        assert_eq!(notice.calendar_days_between(meeting), 27);
        assert_eq!(notice.calendar_days_between(date("2027-03-03")), 0);
        assert_eq!(notice.business_days_between(date("2027-03-03")), 0);
        assert_eq!(date("2027-03-05").business_days_between(date("2027-03-08")), 0, "Friday to Monday");
        assert_eq!(date("2027-03-05").calendar_days_between(date("2027-03-08")), 2, "Saturday and Sunday");
        assert_eq!(date("2026-12-30").business_days_between(date("2027-01-05")), 2, "31 Dec and 4 Jan");
        assert_eq!(meeting.business_days_between(notice), 0);
        assert_eq!(meeting.calendar_days_between(notice), 0);
    }

    /// The last day a notice of n business days may be given: counted back
    /// across Holy Week (25 and 26 March 2027), a weekend and St Joseph's
    /// (22 March): the day it names gives n, the day after gives n − 1.
    #[test]
    fn the_last_notice_day_gives_exactly_enough() {
        let meeting = date("2027-03-30");
        let last = meeting.last_day_with_business_days_before(15);
        assert_eq!(last, date("2027-03-03"));
        assert_eq!(last.business_days_between(meeting), 15);
        assert_eq!(last.plus_days(1).business_days_between(meeting), 14);
        let last = date("2027-03-29").last_day_with_business_days_before(15);
        assert_eq!(last, date("2027-03-02"));
        assert_eq!(last.business_days_between(date("2027-03-29")), 15);
        assert_eq!(last.plus_days(1).business_days_between(date("2027-03-29")), 14);
        // A meeting on a Monday after a weekend: the last notice day is
        // the day before the fifth business day back, whatever it is.
        let monday = date("2027-04-05");
        let last = monday.last_day_with_business_days_before(5);
        assert_eq!(last, date("2027-03-28"), "a Sunday: 29 Mar–2 Apr are the five");
        assert_eq!(last.business_days_between(monday), 5);
        assert_eq!(last.plus_days(1).business_days_between(monday), 4);
    }

    #[test]
    fn the_first_business_day_of_april() {
        // 1 April 2027 is a Thursday; in 2029, Holy Thursday and Good
        // Friday fall on 29 and 30 March, and 1 April is a Sunday.
        assert_eq!(Date::first_business_day(2027, 4), Some(date("2027-04-01")));
        assert_eq!(Date::first_business_day(2029, 4), Some(date("2029-04-02")));
        // 2028: 1 April is a Saturday; Holy Week is 13–14 April.
        assert_eq!(Date::first_business_day(2028, 4), Some(date("2028-04-03")));
    }
}
