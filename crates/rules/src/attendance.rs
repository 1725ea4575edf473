//! Attendance as it happened: every person who attended at any moment,
//! each holder they carried, and when (R19: the acta lists the attendees
//! with their own and represented shares, C.Co. art. 189).
//!
//! [`Presence`](crate::Presence) is the room now; this is its history,
//! kept beside it by whoever feeds the [`Meeting`] (the ledger's state,
//! at every arrival and departure it admits). It decides nothing: it
//! reads the meeting's channels right after the meeting applied an
//! arrival or a departure, so who came in and who went out is exactly
//! what the rules decided. Moments are a record's number and time, given
//! as arguments (this crate reads no clock).
//!
//! Two levels. A [`Visit`] is one person in the room, from the arrival
//! that brought them (carrying someone, or in person) to the departure
//! after which they carry no one: a person who leaves and comes back has
//! two visits. A [`Stay`] is one holder present through one visit, from
//! the arrival that brought the holder to the departure that took them
//! out: an agent who registers a second power later, or a principal who
//! leaves alone, gives stays shorter than the visit.

use std::collections::HashMap;

use crate::presence::{Capacity, Channel};
use crate::register::HolderIndex;
use crate::Meeting;

/// A moment of the record: a record's number and, once known, its time
/// (ms since the Unix epoch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moment {
    /// The record's number (`seq`).
    pub seq: u64,
    /// The record's time; `None` until the record is placed (and for ever
    /// on a live meeting fed in bulk, where no time is given back).
    pub time_ms: Option<u64>,
}

/// How a holder was present during a stay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attending {
    /// In person: the holder is the visit's person (or an agent who is the
    /// holder, for its own shares).
    InPerson,
    /// Through the visit's person, an agent, in this capacity.
    Agent(Capacity),
}

/// Through which channel a person attended a visit (R6, HY-3): the rules
/// decide nothing by it (quorum and majorities are the same for both), but
/// a person is present by one channel at a time (R2), and the acta says
/// which.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Medium {
    /// In the room, admitted at the registration desk.
    Room,
    /// From afar, with a remote credential whose identity the desk
    /// verified (`checked-in-remote`).
    Remote,
}

/// Who attends for a person, as the registration desk named them: the
/// natural person's name and, for a company in person, their own
/// document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attendant {
    /// The attending person's name.
    pub name: Box<str>,
    /// Their own document, when it is not the person's id (who attends
    /// for a company in person).
    pub document: Option<Box<str>>,
}

/// One person in the room, from arrival to departure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Visit {
    /// The person's id: a holder in person, or an agent.
    pub person: Box<str>,
    /// Who attended, as named during this visit (the latest naming).
    pub attendant: Option<Attendant>,
    /// In the room or from afar: a visit has one channel from its arrival
    /// to its departure; changing it is a departure and a new arrival.
    pub medium: Medium,
    /// When the person arrived.
    pub arrived: Moment,
    /// When the person left; `None` while still present.
    pub left: Option<Moment>,
}

/// One holder present through one visit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stay {
    /// The holder.
    pub holder: HolderIndex,
    /// The visit (a position in [`Attendance::visits`]) through which the
    /// holder was present.
    pub visit: usize,
    /// In person or through an agent.
    pub attending: Attending,
    /// When the holder came in.
    pub arrived: Moment,
    /// When the holder went out; `None` while still present.
    pub left: Option<Moment>,
}

impl Stay {
    /// Whether the holder was present right after record `seq`.
    pub fn present_after(&self, seq: u64) -> bool {
        self.arrived.seq <= seq && self.left.is_none_or(|left| left.seq > seq)
    }
}

/// The attendance of a meeting as it happened, in the order of the
/// record.
#[derive(Clone, Debug, Default)]
pub struct Attendance {
    visits: Vec<Visit>,
    stays: Vec<Stay>,
    /// The visit open for each person in the room.
    open_visits: HashMap<Box<str>, usize>,
    /// The stay open for each holder present.
    open_stays: HashMap<HolderIndex, usize>,
    /// The open stays of each open visit.
    carried: HashMap<usize, Vec<usize>>,
    /// Moments of the last record still waiting for its time: (visit or
    /// stay, position, arrival or departure).
    untimed: Vec<(Untimed, u64)>,
}

#[derive(Clone, Copy, Debug)]
enum Untimed {
    VisitArrived(usize),
    VisitLeft(usize),
    StayArrived(usize),
    StayLeft(usize),
}

impl Attendance {
    /// No one yet.
    pub fn new() -> Attendance {
        Attendance::default()
    }

    /// Every visit, in the order of arrival.
    pub fn visits(&self) -> &[Visit] {
        &self.visits
    }

    /// Every stay, in the order of arrival.
    pub fn stays(&self) -> &[Stay] {
        &self.stays
    }

    /// The stays of holders present right after record `seq`.
    pub fn present_after(&self, seq: u64) -> impl Iterator<Item = &Stay> {
        self.stays.iter().filter(move |stay| stay.present_after(seq))
    }

    /// Right after `meeting` admitted an arrival in the room (record
    /// `seq`) bringing `holders`: each holder's stay begins, through the
    /// person its channel names, whose visit begins unless already open.
    pub fn arrived(&mut self, meeting: &Meeting, holders: &[HolderIndex], seq: u64) {
        self.arrived_by(meeting, holders, seq, Medium::Room);
    }

    /// [`Attendance::arrived`] through `medium`. A visit already open
    /// keeps its own medium: whoever feeds this refuses an arrival by
    /// another channel while the person's visit is open
    /// ([`Attendance::open_medium`]).
    pub fn arrived_by(&mut self, meeting: &Meeting, holders: &[HolderIndex], seq: u64, medium: Medium) {
        let at = Moment { seq, time_ms: None };
        for &holder in holders {
            let (person, attending) = match meeting.presence().channel(holder) {
                Channel::Absent => continue,
                Channel::InPerson => (meeting.register().holder(holder).id(), Attending::InPerson),
                Channel::Agent { agent, capacity, .. } => {
                    (meeting.presence().agent_id(agent), Attending::Agent(capacity))
                }
            };
            if self.open_stays.contains_key(&holder) {
                continue;
            }
            let visit = match self.open_visits.get(person) {
                Some(&visit) => visit,
                None => {
                    self.visits.push(Visit {
                        person: person.into(),
                        attendant: None,
                        medium,
                        arrived: at,
                        left: None,
                    });
                    let visit = self.visits.len() - 1;
                    self.open_visits.insert(person.into(), visit);
                    self.untimed.push((Untimed::VisitArrived(visit), seq));
                    visit
                }
            };
            self.stays.push(Stay { holder, visit, attending, arrived: at, left: None });
            let stay = self.stays.len() - 1;
            self.open_stays.insert(holder, stay);
            self.carried.entry(visit).or_default().push(stay);
            self.untimed.push((Untimed::StayArrived(stay), seq));
        }
    }

    /// The channel of `person`'s open visit, if they are in the meeting
    /// now (a holder in person or an agent carrying someone).
    pub fn open_medium(&self, person: &str) -> Option<Medium> {
        self.open_visits.get(person).map(|&visit| self.visits[visit].medium)
    }

    /// Right after `meeting` admitted the departure of `person` (record
    /// `seq`): every stay of a holder the meeting now has absent, among
    /// those `person` carried and `person`'s own, ends; a visit left
    /// carrying no one ends with it.
    pub fn left(&mut self, meeting: &Meeting, person: &str, seq: u64) {
        let at = Moment { seq, time_ms: None };
        let mut candidates: Vec<usize> = self
            .open_visits
            .get(person)
            .and_then(|visit| self.carried.get(visit))
            .cloned()
            .unwrap_or_default();
        if let Some(&stay) = meeting.register().lookup(person).and_then(|holder| self.open_stays.get(&holder))
        {
            candidates.push(stay);
        }
        for stay in candidates {
            let holder = self.stays[stay].holder;
            if meeting.presence().is_present(holder) || self.stays[stay].left.is_some() {
                continue;
            }
            self.stays[stay].left = Some(at);
            self.untimed.push((Untimed::StayLeft(stay), seq));
            self.open_stays.remove(&holder);
            let visit = self.stays[stay].visit;
            let still = self.carried.get_mut(&visit).map_or(0, |open| {
                open.retain(|&s| s != stay);
                open.len()
            });
            if still == 0 {
                self.carried.remove(&visit);
                self.open_visits.remove(&*self.visits[visit].person);
                self.visits[visit].left = Some(at);
                self.untimed.push((Untimed::VisitLeft(visit), seq));
            }
        }
    }

    /// The desk named who attends for `person`: the open visit of that
    /// person takes the name (the latest naming stands).
    pub fn named(&mut self, person: &str, name: &str, document: Option<&str>) {
        if let Some(&visit) = self.open_visits.get(person) {
            self.visits[visit].attendant =
                Some(Attendant { name: name.into(), document: document.map(Into::into) });
        }
    }

    /// Record `seq` was placed at `time_ms`: the arrivals and departures
    /// it made take that time. Moments of earlier records still waiting
    /// (appended in bulk, never placed one by one) stay without a time.
    pub fn placed(&mut self, seq: u64, time_ms: u64) {
        for (what, at) in std::mem::take(&mut self.untimed) {
            if at != seq {
                continue;
            }
            let moment = match what {
                Untimed::VisitArrived(v) => &mut self.visits[v].arrived,
                Untimed::StayArrived(s) => &mut self.stays[s].arrived,
                Untimed::VisitLeft(v) => match &mut self.visits[v].left {
                    Some(moment) => moment,
                    None => continue,
                },
                Untimed::StayLeft(s) => match &mut self.stays[s].left {
                    Some(moment) => moment,
                    None => continue,
                },
            };
            moment.time_ms = Some(time_ms);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        Call, Capital, ClassCapital, ClassShares, HolderSpec, MeetingKind, Profile, Register, Shares,
    };

    /// Holders H0, H1, H2 with 100, 200, 300 ordinary shares.
    fn meeting() -> Meeting {
        let capital = Capital {
            ordinary: ClassCapital::new(Shares::new(600), Shares::ZERO).unwrap(),
            preferred: ClassCapital::default(),
        };
        let holders = [100, 200, 300].iter().enumerate().map(|(i, &s)| HolderSpec {
            id: format!("H{i}"),
            holdings: ClassShares::new(Shares::new(s), Shares::ZERO),
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

    /// A meeting and its attendance fed together, record by record, each
    /// record placed at 1.000 ms times its number.
    struct Fed {
        meeting: Meeting,
        attendance: Attendance,
        seq: u64,
    }

    impl Fed {
        fn new() -> Fed {
            Fed { meeting: meeting(), attendance: Attendance::new(), seq: 0 }
        }
        fn holder(&self, id: &str) -> HolderIndex {
            self.meeting.register().lookup(id).unwrap()
        }
        fn in_person(&mut self, id: &str) {
            self.seq += 1;
            self.meeting.arrive_in_person(id).unwrap();
            let at = self.holder(id);
            self.attendance.arrived(&self.meeting, &[at], self.seq);
            self.attendance.placed(self.seq, self.seq * 1_000);
        }
        fn agent(&mut self, agent: &str, principals: &[&str]) {
            self.seq += 1;
            self.meeting.arrive_as_agent(agent, principals, Capacity::Proxy, None).unwrap();
            let at: Vec<HolderIndex> = principals.iter().map(|p| self.holder(p)).collect();
            self.attendance.arrived(&self.meeting, &at, self.seq);
            self.attendance.placed(self.seq, self.seq * 1_000);
        }
        fn leave(&mut self, person: &str) {
            self.seq += 1;
            self.meeting.leave(person).unwrap();
            self.attendance.left(&self.meeting, person, self.seq);
            self.attendance.placed(self.seq, self.seq * 1_000);
        }
        /// Each stay as (holder, person, arrived, left), record numbers.
        fn stays(&self) -> Vec<(String, String, u64, Option<u64>)> {
            self.attendance
                .stays()
                .iter()
                .map(|s| {
                    (
                        self.meeting.register().holder(s.holder).id().to_string(),
                        self.attendance.visits()[s.visit].person.to_string(),
                        s.arrived.seq,
                        s.left.map(|l| l.seq),
                    )
                })
                .collect()
        }
        fn visits(&self) -> Vec<(String, u64, Option<u64>)> {
            self.attendance
                .visits()
                .iter()
                .map(|v| (v.person.to_string(), v.arrived.seq, v.left.map(|l| l.seq)))
                .collect()
        }
    }

    fn s(holder: &str, person: &str, arrived: u64, left: Option<u64>) -> (String, String, u64, Option<u64>) {
        (holder.to_string(), person.to_string(), arrived, left)
    }

    #[test]
    fn a_holder_who_leaves_and_returns_has_two_visits_and_keeps_her_times() {
        let mut fed = Fed::new();
        fed.in_person("H0");
        fed.in_person("H1");
        fed.leave("H0");
        fed.in_person("H0");
        assert_eq!(fed.stays(), [s("H0", "H0", 1, Some(3)), s("H1", "H1", 2, None), s("H0", "H0", 4, None)]);
        assert_eq!(fed.visits(), [("H0".into(), 1, Some(3)), ("H1".into(), 2, None), ("H0".into(), 4, None)]);
        let first = fed.attendance.stays()[0];
        assert_eq!((first.arrived.time_ms, first.left.unwrap().time_ms), (Some(1_000), Some(3_000)));
        // Present after each record: H0 not between her stays.
        let present = |seq| fed.attendance.present_after(seq).count();
        assert_eq!([present(0), present(1), present(2), present(3), present(4)], [0, 1, 2, 1, 2]);
    }

    #[test]
    fn an_agent_is_one_visit_while_principals_come_and_go() {
        let mut fed = Fed::new();
        fed.agent("AG", &["H0"]);
        fed.agent("AG", &["H1"]);
        // A principal taken out alone ends her stay, not the agent's visit.
        fed.leave("H0");
        assert_eq!(fed.visits(), [("AG".into(), 1, None)]);
        fed.leave("AG");
        assert_eq!(fed.stays(), [s("H0", "AG", 1, Some(3)), s("H1", "AG", 2, Some(4))]);
        assert_eq!(fed.visits(), [("AG".into(), 1, Some(4))]);
        assert_eq!(fed.attendance.stays()[0].attending, Attending::Agent(Capacity::Proxy));
    }

    #[test]
    fn a_visit_keeps_its_channel_and_a_move_is_a_departure_and_an_arrival() {
        let mut fed = Fed::new();
        fed.seq += 1;
        fed.meeting.arrive_in_person("H0").unwrap();
        let at = fed.holder("H0");
        fed.attendance.arrived_by(&fed.meeting, &[at], fed.seq, Medium::Remote);
        assert_eq!(fed.attendance.open_medium("H0"), Some(Medium::Remote));
        assert_eq!(fed.attendance.open_medium("H1"), None);
        fed.leave("H0");
        assert_eq!(fed.attendance.open_medium("H0"), None);
        fed.in_person("H0");
        assert_eq!(fed.attendance.open_medium("H0"), Some(Medium::Room));
        let media: Vec<Medium> = fed.attendance.visits().iter().map(|v| v.medium).collect();
        assert_eq!(media, [Medium::Remote, Medium::Room]);
        assert_eq!(fed.visits(), [("H0".into(), 1, Some(2)), ("H0".into(), 3, None)]);
    }

    #[test]
    fn a_naming_goes_to_the_visit_open_then() {
        let mut fed = Fed::new();
        fed.in_person("H2");
        fed.attendance.named("H2", "Ana", Some("CC-1"));
        fed.leave("H2");
        fed.in_person("H2");
        fed.attendance.named("H2", "Beto", Some("CC-2"));
        // Nobody by that id in the room: nothing named.
        fed.attendance.named("H9", "Nadie", None);
        let names: Vec<_> = fed
            .attendance
            .visits()
            .iter()
            .map(|v| v.attendant.as_ref().map(|a| a.name.to_string()))
            .collect();
        assert_eq!(names, [Some("Ana".to_string()), Some("Beto".to_string())]);
    }

    #[test]
    fn a_moment_not_placed_by_its_own_record_keeps_no_time() {
        let mut fed = Fed::new();
        fed.seq += 1;
        fed.meeting.arrive_in_person("H0").unwrap();
        let at = fed.holder("H0");
        fed.attendance.arrived(&fed.meeting, &[at], fed.seq);
        // Placed in bulk, then a later record is placed: not this one's time.
        fed.in_person("H1");
        assert_eq!(fed.attendance.stays()[0].arrived, Moment { seq: 1, time_ms: None });
        assert_eq!(fed.attendance.stays()[1].arrived, Moment { seq: 2, time_ms: Some(2_000) });
    }
}
