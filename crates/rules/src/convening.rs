//! The convening of a meeting against the law (`rules.md` R20, R17, R4,
//! R5): how far ahead each matter must be noticed, the window of an
//! ordinary meeting, and the day of a meeting by own right. Dates come in
//! as arguments ([`Date`]); days are counted by [`crate::calendar`]'s one
//! convention (neither the notice's day nor the meeting's).
//!
//! - C.Co. art. 424: a meeting that examines the year-end financial
//!   statements is convened at least **15 business days** ahead; any other,
//!   **5 common (calendar) days**.
//! - Ley 222 de 1995 art. 13 (and Aval's reglamento art. 9(d)): a merger,
//!   spin-off, transformation or voluntary delisting is noticed at least
//!   **15 business days** ahead.
//! - C.Co. art. 422: an ordinary meeting is held within the three months
//!   after the fiscal year's end (31 December, C.Co. art. 34), so by
//!   **31 March**; if not convened, it meets by own right on the **first
//!   business day of April**, with no notice.
//! - C.Co. art. 426: with every subscribed share represented, a meeting
//!   needs no notice (a universal meeting).
//!
//! The bylaws shipped (`config/*.toml`) ask no more: Aval's art. 3 follows
//! the law's periods; Almagrario's §4 gives the same two periods in its
//! parágrafo, with this counting.

use crate::calendar::Date;
use crate::MatterKind;

/// A notice period: the least number of days strictly between the notice
/// and the meeting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticePeriod {
    /// Business days (días hábiles).
    BusinessDays(u64),
    /// Calendar days (días comunes).
    CalendarDays(u64),
}

impl NoticePeriod {
    /// The days this period counts between `notice` and `meeting`.
    pub fn counted(self, notice: Date, meeting: Date) -> u64 {
        match self {
            NoticePeriod::BusinessDays(_) => notice.business_days_between(meeting),
            NoticePeriod::CalendarDays(_) => notice.calendar_days_between(meeting),
        }
    }

    /// The days the period asks.
    pub fn days(self) -> u64 {
        match self {
            NoticePeriod::BusinessDays(n) | NoticePeriod::CalendarDays(n) => n,
        }
    }

    /// The last day a notice may be given for a meeting on `meeting`.
    pub fn last_notice_day(self, meeting: Date) -> Date {
        match self {
            NoticePeriod::BusinessDays(n) => meeting.last_day_with_business_days_before(n),
            NoticePeriod::CalendarDays(n) => meeting.plus_days(-(n as i64) - 1),
        }
    }

    /// In Spanish: `15 días hábiles`, `5 días comunes`.
    pub fn spanish(self) -> String {
        match self {
            NoticePeriod::BusinessDays(n) => format!("{n} días hábiles"),
            NoticePeriod::CalendarDays(n) => format!("{n} días comunes"),
        }
    }

    /// In English.
    pub fn english(self) -> String {
        match self {
            NoticePeriod::BusinessDays(n) => format!("{n} business days"),
            NoticePeriod::CalendarDays(n) => format!("{n} calendar days"),
        }
    }
}

/// The law's notice for one matter, with its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoticeRule {
    /// How far ahead.
    pub period: NoticePeriod,
    /// The article that asks it, as a document cites it.
    pub source: &'static str,
}

/// The notice the law asks for a meeting that treats `matter`.
pub fn legal_notice(matter: MatterKind) -> NoticeRule {
    match matter {
        MatterKind::FinancialStatements => {
            NoticeRule { period: NoticePeriod::BusinessDays(15), source: "C.Co. art. 424" }
        }
        MatterKind::Merger | MatterKind::SpinOff | MatterKind::Transformation | MatterKind::Delisting => {
            NoticeRule { period: NoticePeriod::BusinessDays(15), source: "Ley 222 de 1995, art. 13" }
        }
        _ => NoticeRule { period: NoticePeriod::CalendarDays(5), source: "C.Co. art. 424" },
    }
}

/// The notice a meeting with these matters needs: the rule whose last
/// notice day comes first, and the matter that asks it (the first in the
/// agenda's order among equals). `None` for an agenda with no matter.
pub fn strictest_notice(
    matters: impl IntoIterator<Item = MatterKind>,
    meeting: Date,
) -> Option<(MatterKind, NoticeRule)> {
    let mut strictest: Option<(MatterKind, NoticeRule)> = None;
    for matter in matters {
        let rule = legal_notice(matter);
        let earlier = strictest
            .is_none_or(|(_, s)| rule.period.last_notice_day(meeting) < s.period.last_notice_day(meeting));
        if earlier {
            strictest = Some((matter, rule));
        }
    }
    strictest
}

/// The last day of the window of an ordinary meeting of `year` (C.Co.
/// art. 422: three months after a fiscal year that ends on 31 December).
pub fn ordinary_window_end(year: i64) -> Date {
    Date::new(year, 3, 31).expect("31 March is a date")
}

/// The day an ordinary meeting of `year` meets by own right (C.Co. art.
/// 422): the first business day of April.
pub fn own_right_day(year: i64) -> Date {
    Date::first_business_day(year, 4).expect("April has a business day")
}

/// Business days within which the acta of a meeting held under Ley 222
/// art. 19 (mixed or non-presential) is entered in the book of actas.
pub const ACTA_BOOK_BUSINESS_DAYS: u64 = 30;

/// The last day to enter in the book the acta of a meeting held under Ley
/// 222 art. 19 on `meeting` (`rules.md` HY-9): 30 business days after it,
/// not counting the meeting's day (Supersociedades, Concepto 220-97619 of
/// 2016; a period in days is of business days, C.Co. art. 829), with
/// Colombia's holidays.
pub fn acta_book_deadline(meeting: Date) -> Date {
    meeting.nth_business_day_after(ACTA_BOOK_BUSINESS_DAYS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Date {
        Date::parse(text).expect("a date")
    }

    #[test]
    fn the_law_asks_fifteen_business_days_for_the_statements_and_reorganisations() {
        for matter in [
            MatterKind::FinancialStatements,
            MatterKind::Merger,
            MatterKind::SpinOff,
            MatterKind::Transformation,
            MatterKind::Delisting,
        ] {
            assert_eq!(legal_notice(matter).period, NoticePeriod::BusinessDays(15), "{matter:?}");
        }
        for matter in [MatterKind::Ordinary, MatterKind::BoardElection, MatterKind::BylawAmendment] {
            assert_eq!(legal_notice(matter).period, NoticePeriod::CalendarDays(5), "{matter:?}");
        }
    }

    /// 15 business days before Tuesday 30 March 2027, across St Joseph's
    /// (Monday 22), Holy Thursday and Good Friday (25, 26) and the weekends
    /// between: 3 March is the last notice day that is enough, 4 March the
    /// first that is not.
    #[test]
    fn fifteen_business_days_at_their_boundary() {
        let rule = NoticePeriod::BusinessDays(15);
        let meeting = date("2027-03-30");
        assert_eq!(rule.last_notice_day(meeting), date("2027-03-03"));
        assert_eq!(rule.counted(date("2027-03-03"), meeting), 15);
        assert_eq!(rule.counted(date("2027-03-04"), meeting), 14);
    }

    /// 5 common days before Friday 12 March 2027: the 6th is the last
    /// notice day (7 to 11 lie between), the 7th the first too late.
    #[test]
    fn five_common_days_at_their_boundary() {
        let rule = NoticePeriod::CalendarDays(5);
        let meeting = date("2027-03-12");
        assert_eq!(rule.last_notice_day(meeting), date("2027-03-06"));
        assert_eq!(rule.counted(date("2027-03-06"), meeting), 5);
        assert_eq!(rule.counted(date("2027-03-07"), meeting), 4);
    }

    #[test]
    fn the_strictest_matter_sets_the_notice() {
        let meeting = date("2027-03-30");
        let (matter, rule) = strictest_notice(
            [MatterKind::Ordinary, MatterKind::FinancialStatements, MatterKind::Merger],
            meeting,
        )
        .unwrap();
        assert_eq!((matter, rule.source), (MatterKind::FinancialStatements, "C.Co. art. 424"));
        let (matter, _) = strictest_notice([MatterKind::Ordinary, MatterKind::Merger], meeting).unwrap();
        assert_eq!(matter, MatterKind::Merger);
        assert_eq!(strictest_notice([], meeting), None);
    }

    /// A meeting on Friday 19 March 2027: Monday 22 (St Joseph's), Holy
    /// Thursday and Good Friday (25, 26) fall inside the window and do
    /// not count, nor do the weekends; the 30th business day after the
    /// Friday is Wednesday 5 May (Ascension is 10 May, after it).
    #[test]
    fn the_acta_is_entered_within_thirty_business_days_after_the_meeting() {
        let friday = date("2027-03-19");
        let deadline = acta_book_deadline(friday);
        assert_eq!(deadline, date("2027-05-05"));
        // At the boundary: the deadline is the 30th business day, the day
        // before it leaves one to go, and the meeting's day is not counted.
        assert_eq!(friday.business_days_between(deadline.plus_days(1)), 30);
        assert_eq!(friday.business_days_between(deadline), 29);
        assert!(deadline.is_business_day());
        // With no holiday inside, 30 business days are six weeks to the
        // day: Friday 3 September 2027 gives Friday 15 October (the
        // 12 October holiday moves to Monday 18, after it).
        assert_eq!(acta_book_deadline(date("2027-09-03")), date("2027-10-15"));
    }

    #[test]
    fn the_ordinary_window_ends_on_31_march_and_own_right_is_in_april() {
        assert_eq!(ordinary_window_end(2027), date("2027-03-31"));
        assert!(date("2027-03-31") <= ordinary_window_end(2027));
        assert!(date("2027-04-01") > ordinary_window_end(2027));
        assert_eq!(own_right_day(2027), date("2027-04-01"));
        assert_eq!(own_right_day(2029), date("2029-04-02"));
    }
}
