//! What a reader of the state asks of it: the agenda, the staff, the
//! badges, the names, the attendance, the statements, the lots — the
//! readings the daemon, the documents and `verify` share.

use asamblea_rules::Meeting;
use asamblea_wire::{
    AgendaEntry, AgendaItem, AgentArrival, CredentialId, Digest, Id, ProxyRefusal, PublicKey, StaffRole,
};

use super::{AttendeeName, Powers, RecordedStatement, SessionRecord, Sessions, State};

impl State {
    /// The whole agenda as convened (`agenda-convened`): the voted items
    /// in their place among the informative ones, with the candidates of
    /// each list. `None` for a ledger convened before the kind existed.
    pub fn whole_agenda(&self) -> Option<&[AgendaEntry]> {
        self.whole_agenda.as_deref()
    }

    /// The powers of attorney lodged, with their verdicts, revocations and
    /// use.
    pub fn powers(&self) -> &Powers {
        &self.powers
    }

    /// The sessions' state machine.
    pub fn sessions(&self) -> &Sessions {
        &self.sessions
    }

    /// Every step of the sessions recorded, in order.
    pub fn session_log(&self) -> &[SessionRecord] {
        &self.session_log
    }

    /// The meeting, once the register is imported.
    pub fn meeting(&self) -> Option<&Meeting> {
        self.meeting.as_ref()
    }

    /// The daemon key, once convened.
    pub fn daemon_key(&self) -> Option<PublicKey> {
        self.daemon_key
    }

    /// The meeting whose ledger this is.
    pub fn meeting_id(&self) -> asamblea_wire::MeetingId {
        self.meeting_id
    }

    /// Events admitted so far.
    pub fn admitted(&self) -> u64 {
        self.admitted
    }

    /// Whether a staff key is enrolled.
    pub fn is_staff(&self, key: &PublicKey) -> bool {
        self.staff.contains_key(key)
    }

    /// The role and name a staff key was enrolled with.
    pub fn staff_member(&self, key: &PublicKey) -> Option<(StaffRole, &str)> {
        self.staff.get(key).map(|(role, name)| (*role, name.as_str()))
    }

    /// The agenda as convened, in order (empty before `meeting-convened`).
    pub fn agenda(&self) -> &[AgendaItem] {
        &self.agenda
    }

    /// A badge as issued: its key's bytes, its person, and whether it is
    /// revoked.
    pub fn badge(&self, credential: CredentialId) -> Option<([u8; 32], &str, bool)> {
        self.badges.get(&credential).map(|b| (b.key, b.person.as_str(), b.revoked))
    }

    /// Badges issued so far (revoked ones included): the next badge's
    /// number is one more.
    pub fn badges_issued(&self) -> u32 {
        self.badges.len() as u32
    }

    /// The holders' names in the register's order (`register-named`); as
    /// many as recorded (none in a ledger written before names were).
    pub fn names(&self) -> &[asamblea_wire::Text] {
        &self.names
    }

    /// The meeting file the meeting was created from (`meeting-described`),
    /// if recorded.
    pub fn description(&self) -> Option<&str> {
        self.description.as_ref().map(asamblea_wire::FileText::as_str)
    }

    /// Every lot drawn so far, in order: the item, the round, the seed (the
    /// head after the item's close) and the list that took the seat.
    pub fn lots(&self) -> &[(Id, u32, Digest, Id)] {
        &self.lots
    }

    /// Who attends for `person` (an agent, or a holder in person), as the
    /// desk named them, if it did.
    pub fn attendee_name(&self, person: &str) -> Option<&AttendeeName> {
        self.attendee_names.get(person)
    }

    /// Every person the desk named, with who attends for them, in no
    /// particular order.
    pub fn attendee_names(&self) -> impl Iterator<Item = (&str, &AttendeeName)> {
        self.attendee_names.iter().map(|(person, named)| (person.as_str(), named))
    }

    /// Every arrival and departure so far, with the records that made
    /// them (their times once placed).
    pub fn attendance(&self) -> &asamblea_rules::Attendance {
        &self.attendance
    }

    /// The written statements recorded so far, in order.
    pub fn statements(&self) -> &[RecordedStatement] {
        &self.statements
    }

    /// Badges revoked so far.
    pub fn badges_revoked(&self) -> u32 {
        self.badges_revoked
    }

    /// The agents' arrivals refused so far, with their reasons, in order.
    pub fn refused_proxies(&self) -> &[(AgentArrival, ProxyRefusal)] {
        &self.refused_proxies
    }

    /// The badge a person holds now (issued, not revoked), if any: at most
    /// one, the ledger refuses a second.
    pub fn badge_of(&self, person: &str) -> Option<CredentialId> {
        self.live_badges.get(person).copied()
    }

    /// The badge issued with `key`, if any.
    pub fn badge_with_key(&self, key: &PublicKey) -> Option<CredentialId> {
        self.badge_keys.get(&key.to_bytes()).copied()
    }

    /// The lot seed of a closed item.
    pub fn seed(&self, item: &str) -> Option<Digest> {
        self.seeds.get(item).copied()
    }

    /// Draws made so far on an item.
    pub fn rounds(&self, item: &str) -> u32 {
        self.rounds.get(item).copied().unwrap_or(0)
    }
}
