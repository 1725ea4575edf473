//! The quorum's continuity over meetings fed mark by mark, the readings
//! taken from a real [`Meeting`] under each quorum rule of the profile.

use super::*;
use crate::{
    BallotOptions, Call, Capital, ClassCapital, ClassShares, HolderSpec, ItemSpec, MatterKind, Meeting,
    MeetingKind, Profile, QuorumRule, Register, Settings, Shares,
};

/// Holders H0, H1, H2 with 101, 200 and 300 ordinary shares: 601 voting
/// shares, so that 301 present is more than half (2·301 > 601) but not
/// half plus one (2·301 < 601 + 2).
fn meeting(rule: QuorumRule) -> Meeting {
    let capital = Capital {
        ordinary: ClassCapital::new(Shares::new(601), Shares::ZERO).unwrap(),
        preferred: ClassCapital::default(),
    };
    let holders = [101, 200, 300].iter().enumerate().map(|(i, &s)| HolderSpec {
        id: format!("H{i}"),
        holdings: ClassShares::new(Shares::new(s), Shares::ZERO),
        role: None,
        split: None,
    });
    let profile = Profile::statutory("ley").with_settings(Settings { quorum: rule, ..Settings::default() });
    Meeting::new(Register::new(capital, holders).unwrap(), profile, MeetingKind::Ordinary, Call::First)
}

/// A meeting and its marks, fed together; record `n` is placed at minute
/// `n`.
struct Fed {
    meeting: Meeting,
    marks: Vec<QuorumMark>,
}

impl Fed {
    fn new(rule: QuorumRule) -> Fed {
        Fed { meeting: meeting(rule), marks: Vec::new() }
    }
    fn mark(&mut self, event: QuorumEvent) {
        let seq = self.marks.len() as u64 + 1;
        let moment = Moment { seq, time_ms: Some(seq * 60_000) };
        self.marks.push(QuorumMark { moment, event, quorum: self.meeting.quorum() });
    }
    fn arrive(&mut self, holder: &str) {
        self.meeting.arrive_in_person(holder).unwrap();
        self.mark(QuorumEvent::Presence);
    }
    fn leave(&mut self, holder: &str) {
        self.meeting.leave(holder).unwrap();
        self.mark(QuorumEvent::Presence);
    }
    fn open(&mut self, item: &str) {
        let spec = ItemSpec::new(item, MatterKind::Ordinary, true, BallotOptions::Decision).unwrap();
        let at = self.meeting.open(spec).unwrap();
        self.mark(QuorumEvent::PollOpened(at));
    }
    fn close(&mut self, item: &str) {
        let at = self.meeting.item_index(item).unwrap();
        self.meeting.close(item).unwrap();
        self.mark(QuorumEvent::PollClosed(at));
    }
    fn continuity(&self) -> Continuity {
        continuity(&self.marks)
    }
}

fn seq(moment: Option<Moment>) -> Option<u64> {
    moment.map(|m| m.seq)
}

/// The quorum dips during a poll: H2 leaves (101 present), H1 arrives
/// (301 present: exactly more than half, not half plus one), H2 comes
/// back after the close.
fn dipping(rule: QuorumRule) -> Fed {
    let mut fed = Fed::new(rule);
    fed.arrive("H0"); // 1
    fed.arrive("H2"); // 2: 401
    fed.mark(QuorumEvent::Installed); // 3
    fed.open("P1"); // 4
    fed.leave("H2"); // 5: 101
    fed.arrive("H1"); // 6: 301
    fed.close("P1"); // 7
    fed.arrive("H2"); // 8: 601
    fed.mark(QuorumEvent::Adjourned); // 9
    fed
}

#[test]
fn a_dip_during_a_poll_is_an_interval_and_the_poll_lost_its_quorum() {
    let fed = dipping(QuorumRule::MoreThanHalf);
    let c = fed.continuity();
    let (installed, at_install) = c.installation.unwrap();
    assert_eq!((installed.seq, at_install.present.get(), at_install.this_call), (3, 401, true));
    assert_eq!(c.polls.len(), 1);
    let poll = c.polls[0];
    assert_eq!((poll.opened.seq, seq(poll.closed)), (4, Some(7)));
    assert_eq!((poll.lowest.present.get(), poll.lowest_at.seq, poll.lost), (101, 5, true));
    // 301 of 601 is more than half: the quorum is back at record 6.
    assert_eq!(c.gaps.len(), 1);
    let gap = c.gaps[0];
    assert_eq!((gap.from.seq, seq(gap.to), gap.lowest.present.get()), (5, Some(6), 101));
    assert_eq!((gap.from.time_ms, gap.to.unwrap().time_ms), (Some(300_000), Some(360_000)));
    assert_eq!(c.lowest.map(|(m, q)| (m.seq, q.present.get())), Some((5, 101)));
    assert!(!c.held_throughout());
}

#[test]
fn exactly_the_threshold_counts_as_the_profiles_rule_says() {
    // Half plus one: 301 of 601 is not enough (2·301 < 603), so the
    // interval runs on to H2's return at record 8, after the close.
    let c = dipping(QuorumRule::HalfPlusOne).continuity();
    assert_eq!(c.gaps.len(), 1);
    assert_eq!((c.gaps[0].from.seq, seq(c.gaps[0].to)), (5, Some(8)));
    assert!(c.polls[0].lost);
    // And the same mark, one share either way of the threshold, under the
    // other rule: record 6 ends the interval with more-than-half only.
    let more = dipping(QuorumRule::MoreThanHalf);
    let plus = dipping(QuorumRule::HalfPlusOne);
    assert_eq!(more.marks[5].quorum.present.get(), 301);
    assert!(more.marks[5].quorum.this_call);
    assert!(!plus.marks[5].quorum.this_call);
}

#[test]
fn a_meeting_whose_quorum_never_dips_held_it_throughout() {
    let mut fed = Fed::new(QuorumRule::MoreThanHalf);
    fed.arrive("H0"); // 1: 101, before the installation: no interval
    fed.arrive("H2"); // 2: 401
    fed.mark(QuorumEvent::Installed); // 3
    fed.open("P1"); // 4
    fed.arrive("H1"); // 5: 601
    fed.close("P1"); // 6
    fed.mark(QuorumEvent::Suspended); // 7
    fed.leave("H2"); // 8: 301 … while suspended, not an interval
    fed.leave("H1"); // 9: 101
    fed.arrive("H2"); // 10: 401
    fed.mark(QuorumEvent::Resumed); // 11
    fed.open("P2"); // 12
    fed.close("P2"); // 13
    fed.mark(QuorumEvent::Adjourned); // 14
    fed.leave("H0"); // 15: after the end, not an interval
    let c = fed.continuity();
    assert!(c.gaps.is_empty(), "{:?}", c.gaps);
    assert_eq!(
        c.polls.iter().map(|p| (p.lowest.present.get(), p.lost)).collect::<Vec<_>>(),
        [(401, false), (401, false)]
    );
    assert_eq!(c.lowest.map(|(m, q)| (m.seq, q.present.get())), Some((3, 401)));
    assert!(c.held_throughout());
}

#[test]
fn a_resumption_without_quorum_opens_an_interval_and_the_end_of_the_record_leaves_it_open() {
    let mut fed = Fed::new(QuorumRule::MoreThanHalf);
    fed.arrive("H2"); // 1
    fed.arrive("H0"); // 2: 401
    fed.mark(QuorumEvent::Installed); // 3
    fed.mark(QuorumEvent::Suspended); // 4
    fed.leave("H2"); // 5: 101
    fed.mark(QuorumEvent::Resumed); // 6: without quorum
    let c = fed.continuity();
    assert_eq!(c.gaps.len(), 1);
    assert_eq!((c.gaps[0].from.seq, c.gaps[0].to), (6, None));
    assert!(!c.held_throughout());
}

#[test]
fn without_sessions_recorded_the_quorum_matters_while_a_poll_is_open() {
    let mut fed = Fed::new(QuorumRule::MoreThanHalf);
    fed.arrive("H0"); // 1: 101, no poll open
    fed.arrive("H2"); // 2: 401
    fed.open("P1"); // 3
    fed.close("P1"); // 4
    fed.leave("H2"); // 5: 101, between polls
    fed.arrive("H2"); // 6
    fed.open("P2"); // 7
    fed.leave("H2"); // 8: lost during P2
    fed.arrive("H1"); // 9: 301, back
    fed.close("P2"); // 10
    let c = fed.continuity();
    assert_eq!(c.installation, None);
    assert_eq!(c.gaps.iter().map(|g| (g.from.seq, seq(g.to))).collect::<Vec<_>>(), [(8, Some(9))]);
    assert_eq!(c.polls.iter().map(|p| p.lost).collect::<Vec<_>>(), [false, true]);
    assert!(!c.held_throughout());
}
