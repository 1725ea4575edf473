//! The attendance as it happened, in words: who attended at any moment
//! (C.Co. art. 189: "la lista de los asistentes, con indicación de las
//! acciones propias o ajenas que representen"), when each came and left,
//! and who was present at a given record (the installation, the close).
//! Written once here from the rules' [`Attendance`] for the acta, the
//! `asistencia` table and the secretary's console.
//!
//! The acta lists one row per **person** (a holder in person, or an
//! agent), with every stay of that person as an interval in one cell: the
//! law's list is of attendees and of the shares each brought, so a person
//! who left and came back is one attendee with one count of shares, not
//! two rows whose shares a reader would add twice. The `asistencia`
//! table, for programs, has one row per holder's stay instead (who
//! carried the holder, from which record to which).

use std::collections::HashMap;

use asamblea_rules::{
    Attendance, Attending, Capacity, ClassShares, HolderIndex, Meeting, Moment, ShareClass, Shares, Stay,
    Visit,
};

use crate::numfmt::colombia_time;

/// The share classes the company has, ordinary first: preferred only when
/// it has preferred shares outstanding. Every table that shows a class
/// (the acta, the exports, presence by class) asks here, so a company
/// without preferred shares gets no «Preferenciales 0» column.
pub fn classes(meeting: &Meeting) -> Vec<ShareClass> {
    let outstanding = meeting.register().capital().outstanding();
    ShareClass::ALL
        .into_iter()
        .filter(|&class| class == ShareClass::Ordinary || !outstanding.of(class).is_zero())
        .collect()
}

/// A class's name in Spanish, plural and in lower case: `ordinarias`,
/// `preferenciales`.
pub fn class_es(class: ShareClass) -> &'static str {
    match class {
        ShareClass::Ordinary => "ordinarias",
        ShareClass::Preferred => "preferenciales",
    }
}

/// The same name opening a heading: `Ordinarias`, `Preferenciales`.
pub fn class_heading_es(class: ShareClass) -> String {
    let name = class_es(class);
    name[..1].to_uppercase() + &name[1..]
}

/// A moment as the acta reads it: `09:02`, Colombia's time; a moment whose
/// time the state never learnt (a live meeting fed in bulk) by its record:
/// `registro n.º 12`.
pub fn clock(moment: Moment) -> String {
    match moment.time_ms {
        Some(ms) => colombia_time(ms).1,
        None => format!("registro n.º {}", crate::numfmt::thousands(moment.seq)),
    }
}

/// A moment with its day, for a table a program reads: `2027-03-25 09:02`;
/// empty when its time is unknown.
pub fn day_and_clock(moment: Moment) -> String {
    moment
        .time_ms
        .map(|ms| {
            let (day, time) = colombia_time(ms);
            format!("{day} {time}")
        })
        .unwrap_or_default()
}

/// An interval of presence: `09:02 a 10:15`, or `09:02 hasta el cierre`
/// while still present at the end.
pub fn span(arrived: Moment, left: Option<Moment>) -> String {
    match left {
        Some(left) => format!("{} a {}", clock(arrived), clock(left)),
        None => format!("{} hasta el cierre", clock(arrived)),
    }
}

/// How a stay's holder was present, in words: `en persona`, `apoderado`,
/// `representante legal`.
pub fn attending_es(attending: Attending) -> &'static str {
    match attending {
        Attending::InPerson => "en persona",
        Attending::Agent(Capacity::Proxy) => "apoderado",
        Attending::Agent(Capacity::LegalRepresentative) => "representante legal",
    }
}

/// Names people as the acta does: a holder by the register's name, an
/// agent by the name the desk recorded, each with their id.
pub struct Names<'a> {
    meeting: &'a Meeting,
    name: Box<dyn Fn(HolderIndex) -> &'a str + 'a>,
}

impl<'a> Names<'a> {
    /// Names from `names`, the holders' in the register's order.
    pub fn new(meeting: &'a Meeting, names: &'a [String]) -> Names<'a> {
        Names::by(meeting, move |at| names.get(at.get()).map_or("", String::as_str))
    }

    /// Names from `name`, each holder's (the daemon's directory).
    pub fn by(meeting: &'a Meeting, name: impl Fn(HolderIndex) -> &'a str + 'a) -> Names<'a> {
        Names { meeting, name: Box::new(name) }
    }

    /// A holder's name in the register (empty where unknown).
    pub fn holder(&self, at: HolderIndex) -> &'a str {
        (self.name)(at)
    }

    /// A holder as `Name (ID)`, or the id alone when the name is unknown.
    pub fn holder_with_id(&self, at: HolderIndex) -> String {
        let id = self.meeting.register().holder(at).id();
        match self.holder(at) {
            "" => id.to_string(),
            name => format!("{name} ({id})"),
        }
    }

    /// The person of a visit as the acta names them: a holder by its name
    /// (a company with who attended for it: `Inversiones S.A.S.
    /// (NIT-900…), por Ana Pérez (CC-1)`), an agent by the name the desk
    /// recorded (`Ana Pérez (CC-1)`), else by their id.
    pub fn person(&self, visits: &[&Visit]) -> String {
        let Some(first) = visits.first() else { return String::new() };
        let id = &*first.person;
        // Who attended, each once: (name, their own document if any).
        let mut attendants: Vec<(&str, Option<&str>)> = Vec::new();
        for a in visits.iter().filter_map(|visit| visit.attendant.as_ref()) {
            let named = (&*a.name, a.document.as_deref());
            if !attendants.contains(&named) {
                attendants.push(named);
            }
        }
        match self.meeting.register().lookup(id) {
            // A holder: a company is attended by someone with a document
            // of their own; a holder named by name alone is the holder.
            Some(at) => {
                let by: Vec<String> = attendants
                    .iter()
                    .filter_map(|(name, document)| document.map(|d| format!("{name} ({d})")))
                    .collect();
                match by.is_empty() {
                    true => self.holder_with_id(at),
                    false => format!("{}, por {}", self.holder_with_id(at), by.join(" y ")),
                }
            }
            None => match attendants.first() {
                Some((name, _)) => format!("{name} ({id})"),
                None => id.to_string(),
            },
        }
    }
}

/// One person who attended, as the acta lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attendee {
    /// The person's id (a holder, or an agent's document).
    pub person: String,
    /// The person in words ([`Names::person`]).
    pub who: String,
    /// In what capacity: `en persona`, `apoderado`, `representante legal`,
    /// joined with `y` when more than one.
    pub capacity: String,
    /// Own shares (the person is the holder), by class.
    pub own: ClassShares,
    /// Shares of the holders the person represented, by class.
    pub represented: ClassShares,
    /// The holders represented, in words, each with its own times where
    /// they are not the person's.
    pub holders: Vec<String>,
    /// The person's intervals in the meeting: `09:02 a 10:15; 11:00 hasta
    /// el cierre (a distancia)`, an interval from afar marked so.
    pub times: String,
}

/// Everyone who attended at any moment, one per person, in the order of
/// their first arrival.
pub fn attendees(meeting: &Meeting, attendance: &Attendance, names: &Names<'_>) -> Vec<Attendee> {
    let (visits, all_stays) = (attendance.visits(), attendance.stays());
    // Each person's visits, persons in the order of their first arrival,
    // and each visit's stays: one pass each, for a register of any size.
    let mut persons: Vec<Vec<usize>> = Vec::new();
    let mut person_at: HashMap<&str, usize> = HashMap::new();
    for (v, visit) in visits.iter().enumerate() {
        let at = *person_at.entry(&visit.person).or_insert_with(|| {
            persons.push(Vec::new());
            persons.len() - 1
        });
        persons[at].push(v);
    }
    let mut stays_of: Vec<Vec<usize>> = vec![Vec::new(); visits.len()];
    for (s, stay) in all_stays.iter().enumerate() {
        stays_of[stay.visit].push(s);
    }
    persons
        .into_iter()
        .map(|theirs| {
            let their_visits: Vec<&Visit> = theirs.iter().map(|&v| &visits[v]).collect();
            let times = their_visits.iter().map(|v| span(v.arrived, v.left)).collect::<Vec<_>>().join("; ");
            // Each interval's channel where it was not the room (a mixed
            // meeting's remote attendee, HY-7): said after its hours.
            let shown = their_visits
                .iter()
                .map(|v| match v.medium {
                    asamblea_rules::Medium::Room => span(v.arrived, v.left),
                    asamblea_rules::Medium::Remote => format!("{} (a distancia)", span(v.arrived, v.left)),
                })
                .collect::<Vec<_>>()
                .join("; ");
            let stays: Vec<&Stay> =
                theirs.iter().flat_map(|&v| &stays_of[v]).map(|&s| &all_stays[s]).collect();
            let mut capacities: Vec<&str> = Vec::new();
            // Each holder once per way of attending (own, or represented),
            // with the intervals of its stays.
            let mut held: Vec<(HolderIndex, bool, Vec<String>)> = Vec::new();
            let mut held_at: HashMap<(HolderIndex, bool), usize> = HashMap::new();
            for stay in &stays {
                let word = attending_es(stay.attending);
                if !capacities.contains(&word) {
                    capacities.push(word);
                }
                let own = stay.attending == Attending::InPerson;
                let at = *held_at.entry((stay.holder, own)).or_insert_with(|| {
                    held.push((stay.holder, own, Vec::new()));
                    held.len() - 1
                });
                held[at].2.push(span(stay.arrived, stay.left));
            }
            let (mut own, mut represented) = (ClassShares::default(), ClassShares::default());
            let mut holders = Vec::new();
            for (holder, is_own, spans) in held {
                let shares = meeting.register().holder(holder).holdings();
                let sum = |a: ClassShares| {
                    ClassShares::new(a.ordinary + shares.ordinary, a.preferred + shares.preferred)
                };
                if is_own {
                    own = sum(own);
                    continue;
                }
                represented = sum(represented);
                let its = spans.join("; ");
                holders.push(if its == times {
                    names.holder_with_id(holder)
                } else {
                    format!("{} ({its})", names.holder_with_id(holder))
                });
            }
            Attendee {
                person: their_visits[0].person.to_string(),
                who: names.person(&their_visits),
                capacity: capacities.join(" y "),
                own,
                represented,
                holders,
                times: shown,
            }
        })
        .collect()
}

/// The attendees as a table, its heading row then a row a person: who
/// and in what capacity, whom they represented, their own and others'
/// shares (C.Co. art. 189: «acciones propias o ajenas»; a column per class
/// the company has), and when they were present. The acta's list and the
/// secretary's console show this.
pub fn table(meeting: &Meeting, attendance: &Attendance, names: &Names<'_>) -> AttendanceTable {
    let classes = classes(meeting);
    let mut header: Vec<String> = ["Asistente", "Representa a"].map(String::from).to_vec();
    for part in ["Propias", "Ajenas"] {
        for &class in &classes {
            header.push(match (classes.len(), class) {
                (1, _) => format!("Acciones {}", part.to_lowercase()),
                (_, ShareClass::Ordinary) => format!("{part} ord."),
                (_, ShareClass::Preferred) => format!("{part} pref."),
            });
        }
    }
    header.push("Presente".to_string());
    let rows = attendees(meeting, attendance, names)
        .into_iter()
        .map(|a| {
            let mut row = vec![format!("{}, {}", a.who, a.capacity), a.holders.join("; ")];
            for figures in [a.own, a.represented] {
                row.extend(classes.iter().map(|&class| crate::numfmt::thousands(figures.of(class).get())));
            }
            row.push(a.times);
            row
        })
        .collect();
    let figures = 2..header.len() - 1;
    AttendanceTable { header, rows, figures }
}

/// The attendees as [`table`] gives them.
pub struct AttendanceTable {
    /// The heading row.
    pub header: Vec<String>,
    /// A row a person.
    pub rows: Vec<Vec<String>>,
    /// The columns that hold figures (shares), set flush right.
    pub figures: std::ops::Range<usize>,
}

/// Who was present right after a record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Present {
    /// Persons in the room carrying someone (holders in person, agents).
    pub persons: u64,
    /// Holders present, in person or represented.
    pub holders: u64,
    /// Their shares, by class (every share, with a vote or not).
    pub shares: ClassShares,
}

/// Who was present right after record `seq`.
pub fn present_after(meeting: &Meeting, attendance: &Attendance, seq: u64) -> Present {
    let mut present = Present::default();
    let mut counted = vec![false; attendance.visits().len()];
    for stay in attendance.present_after(seq) {
        present.holders += 1;
        let held = meeting.register().holder(stay.holder).holdings();
        present.shares = ClassShares::new(
            present.shares.ordinary + held.ordinary,
            present.shares.preferred + held.preferred,
        );
        if !std::mem::replace(&mut counted[stay.visit], true) {
            present.persons += 1;
        }
    }
    present
}

/// Every holder who was present at any moment, with their shares: how
/// many, and their shares by class.
pub fn ever_present(meeting: &Meeting, attendance: &Attendance) -> (u64, ClassShares) {
    let mut seen = vec![false; meeting.register().len()];
    let mut shares = ClassShares::new(Shares::ZERO, Shares::ZERO);
    let mut count = 0;
    for stay in attendance.stays() {
        if !std::mem::replace(&mut seen[stay.holder.get()], true) {
            count += 1;
            let held = meeting.register().holder(stay.holder).holdings();
            shares = ClassShares::new(shares.ordinary + held.ordinary, shares.preferred + held.preferred);
        }
    }
    (count, shares)
}

#[cfg(test)]
mod tests {
    use super::*;
    use asamblea_rules::{Call, Capital, ClassCapital, HolderSpec, MeetingKind, Profile, Register};

    /// A company with ordinary shares only: H0 100, H1 200; `preferred`
    /// gives H1 50 preferred too.
    fn meeting(preferred: bool) -> Meeting {
        let pref = if preferred { 50 } else { 0 };
        let capital = Capital {
            ordinary: ClassCapital::new(Shares::new(300), Shares::ZERO).unwrap(),
            preferred: ClassCapital::new(Shares::new(pref), Shares::ZERO).unwrap(),
        };
        let holders = [(100, 0), (200, pref)].into_iter().enumerate().map(|(i, (o, p))| HolderSpec {
            id: format!("H{i}"),
            holdings: ClassShares::new(Shares::new(o), Shares::new(p)),
            role: None,
            split: None,
        });
        Meeting::new(
            Register::new(capital, holders).unwrap(),
            Profile::statutory("ley"),
            MeetingKind::Ordinary,
            Call::First,
        )
    }

    #[test]
    fn a_class_shows_only_where_the_company_has_it() {
        assert_eq!(classes(&meeting(false)), [ShareClass::Ordinary]);
        assert_eq!(classes(&meeting(true)), [ShareClass::Ordinary, ShareClass::Preferred]);
        assert_eq!(class_heading_es(ShareClass::Preferred), "Preferenciales");
    }

    #[test]
    fn a_person_who_returned_is_one_attendee_with_both_intervals() {
        let mut m = meeting(true);
        let mut attendance = Attendance::new();
        let h = |m: &Meeting, id: &str| m.register().lookup(id).unwrap();
        // 1 H0 in person; 2 AG for H1; 3 H0 leaves; 4 H0 back; AG stays.
        // Records are placed at 14:00 UTC (09:00 in Colombia) plus a
        // minute each.
        let at = |seq: u64| 1_774_533_600_000 + seq * 60_000;
        m.arrive_in_person("H0").unwrap();
        attendance.arrived(&m, &[h(&m, "H0")], 1);
        attendance.placed(1, at(1));
        m.arrive_as_agent("AG", &["H1"], Capacity::Proxy, None).unwrap();
        attendance.arrived(&m, &[h(&m, "H1")], 2);
        attendance.placed(2, at(2));
        attendance.named("AG", "Ana Pérez", None);
        m.leave("H0").unwrap();
        attendance.left(&m, "H0", 3);
        attendance.placed(3, at(3));
        m.arrive_in_person("H0").unwrap();
        attendance.arrived(&m, &[h(&m, "H0")], 4);
        attendance.placed(4, at(4));
        let names = ["Carlos".to_string(), "Dora".to_string()];
        let listed = attendees(&m, &attendance, &Names::new(&m, &names));
        assert_eq!(listed.len(), 2);
        assert_eq!(listed[0].who, "Carlos (H0)");
        assert_eq!(listed[0].times, "09:01 a 09:03; 09:04 hasta el cierre");
        assert_eq!(listed[0].own, ClassShares::new(Shares::new(100), Shares::ZERO), "counted once");
        assert_eq!(listed[1].who, "Ana Pérez (AG)");
        assert_eq!(listed[1].capacity, "apoderado");
        assert_eq!(listed[1].represented, ClassShares::new(Shares::new(200), Shares::new(50)));
        assert_eq!(listed[1].holders, ["Dora (H1)"]);
        let after = |seq| present_after(&m, &attendance, seq);
        assert_eq!(
            after(2),
            Present { persons: 2, holders: 2, shares: ClassShares::new(Shares::new(300), Shares::new(50)) }
        );
        assert_eq!(after(3).persons, 1);
        assert_eq!(ever_present(&m, &attendance).0, 2);
    }
}
