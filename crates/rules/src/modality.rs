//! How a meeting is held (`rules.md` R6, HY-1, HY-5): in person, mixed
//! (in person and through a remote channel), or with no one in person
//! (Ley 222 de 1995 art. 19; Decreto 398 de 2020), and how long a remote
//! attendee's presence holds without a sign of life.

/// The meeting's modality, as convened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Modality {
    /// Everyone attends in the room (presencial): every meeting convened
    /// before the modality was recorded.
    #[default]
    InPerson,
    /// In the room and through a remote channel (mixta).
    Mixed,
    /// Only through a remote channel (no presencial, Ley 222 art. 19).
    Remote,
}

impl Modality {
    /// Every modality, in the order of the codes.
    pub const ALL: [Modality; 3] = [Modality::InPerson, Modality::Mixed, Modality::Remote];

    /// The code in the meeting file: `presencial`, `mixta`, `no-presencial`.
    pub const fn code(self) -> &'static str {
        match self {
            Modality::InPerson => "presencial",
            Modality::Mixed => "mixta",
            Modality::Remote => "no-presencial",
        }
    }

    /// The modality of a code.
    pub fn from_code(code: &str) -> Option<Modality> {
        Modality::ALL.into_iter().find(|m| m.code() == code)
    }

    /// Whether attendees may take part from afar: a remote channel is on,
    /// and the notice must say how (HY-1).
    pub const fn has_remote_channel(self) -> bool {
        !matches!(self, Modality::InPerson)
    }

    /// Whether the room is open: a place where to attend in person.
    pub const fn has_room(self) -> bool {
        !matches!(self, Modality::Remote)
    }

    /// In Spanish, as the acta and the board say it: «presencial»,
    /// «mixta (presencial y no presencial)», «no presencial».
    pub const fn spanish(self) -> &'static str {
        match self {
            Modality::InPerson => "presencial",
            Modality::Mixed => "mixta (presencial y no presencial)",
            Modality::Remote => "no presencial",
        }
    }

    /// In English.
    pub const fn english(self) -> &'static str {
        match self {
            Modality::InPerson => "in person",
            Modality::Mixed => "mixed (in person and remote)",
            Modality::Remote => "remote",
        }
    }
}

/// How a remote attendee's presence is proven (HY-5): a sign of life
/// every `heartbeat_seconds`; past `timeout_seconds` without one, the
/// daemon records the departure. The profile gives it; a meeting file may
/// change it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RemotePresence {
    /// Seconds between two signs of life.
    pub heartbeat_seconds: u32,
    /// Seconds without a sign of life after which the attendee has left.
    pub timeout_seconds: u32,
}

impl Default for RemotePresence {
    /// 60 s and 5 minutes (`rules.md` HY-5).
    fn default() -> RemotePresence {
        RemotePresence { heartbeat_seconds: 60, timeout_seconds: 300 }
    }
}

impl RemotePresence {
    /// Whether the values make sense together: a heartbeat of at least a
    /// second, and a timeout longer than one heartbeat (a single late
    /// sign of life must not make anyone leave).
    pub const fn is_coherent(self) -> bool {
        self.heartbeat_seconds >= 1 && self.timeout_seconds > self.heartbeat_seconds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_go_both_ways_and_only_in_person_has_no_remote_channel() {
        for m in Modality::ALL {
            assert_eq!(Modality::from_code(m.code()), Some(m));
        }
        assert_eq!(Modality::from_code("virtual"), None);
        assert_eq!(Modality::default(), Modality::InPerson);
        assert!(!Modality::InPerson.has_remote_channel());
        assert!(Modality::Mixed.has_remote_channel() && Modality::Mixed.has_room());
        assert!(Modality::Remote.has_remote_channel() && !Modality::Remote.has_room());
    }

    #[test]
    fn a_timeout_must_outlast_a_heartbeat() {
        assert!(RemotePresence::default().is_coherent());
        assert!(!RemotePresence { heartbeat_seconds: 60, timeout_seconds: 60 }.is_coherent());
        assert!(RemotePresence { heartbeat_seconds: 60, timeout_seconds: 61 }.is_coherent());
        assert!(!RemotePresence { heartbeat_seconds: 0, timeout_seconds: 61 }.is_coherent());
    }
}
