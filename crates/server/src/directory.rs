//! The register as the desk searches it: each holder's id and name, built
//! once from `register.csv` on the first search (a restart stays quick),
//! then searched with one scan over all the names; and each holder's
//! admission code, computed once there, which a scanned letter finds.

use asamblea_wire::{admission_code, AdmissionCode, MeetingId};

use crate::{ApiError, AppState};

/// Holders a search answers with, at most.
pub(crate) const HOLDERS_FOUND: usize = 20;

/// The register as the desk searches it: each holder's id and name, the
/// ids in the forms a person types them ([`IdKeys`]), and every folded
/// name in one text (one search over it finds every name that holds a
/// word: one scan a word, not one a holder). Built on the first search
/// (the names are read from `register.csv`), then kept.
pub(crate) struct Directory {
    /// Each holder's id and name, in register order.
    pub(crate) holders: Vec<(String, String)>,
    /// Each holder's id as the search compares it, in register order.
    keys: Vec<IdKeys>,
    names: String,
    /// Where each holder's folded name starts in `names`.
    starts: Vec<usize>,
    /// Each holder's admission code, in register order (one SHA-256 a
    /// holder, once: a search compares 131.000 numbers). An agent who is
    /// not a holder has a letter too: their code is found among the
    /// powers' carriers (`powers::resolve`), where the desk's admission
    /// looks it up.
    codes: Vec<AdmissionCode>,
}

/// A holder's id as an operator may type it from the ID card: the id
/// folded without spaces, dots or dashes (`CC-1085850638` as
/// `cc1085850638`, so `CC 1085850638` finds it), and the number alone,
/// without the document type in front (`1085850638`, so the bare number
/// on the card, or `1.085.850.638`, finds it).
pub(crate) struct IdKeys {
    compact: Box<str>,
    number: Box<str>,
}

impl IdKeys {
    pub(crate) fn of(id: &str) -> IdKeys {
        let folded = fold(id);
        // The document type is the letters before the first separator
        // (`CC-`, `NIT-`, `PA-`), or, with none, before the first digit
        // (`CC1085850638`).
        let number = match folded.split_once(|c: char| is_separator(c)) {
            Some((kind, number)) if kind.chars().all(char::is_alphabetic) => compact(number),
            _ => {
                let number = folded.trim_start_matches(char::is_alphabetic);
                if number.starts_with(|c: char| c.is_ascii_digit()) {
                    compact(number)
                } else {
                    String::new()
                }
            }
        };
        IdKeys { number: number.into(), compact: compact(&folded).into() }
    }

    /// Whether `typed` (folded and compacted) is this whole id, or its
    /// whole number.
    pub(crate) fn is(&self, typed: &str) -> bool {
        *self.compact == *typed || (!self.number.is_empty() && *self.number == *typed)
    }

    /// Whether `typed` (folded and compacted) is the start of this id, or
    /// of its number.
    fn starts_with(&self, typed: &str) -> bool {
        self.compact.starts_with(typed) || (!self.number.is_empty() && self.number.starts_with(typed))
    }
}

/// Text without the characters that only separate parts of an id or a
/// number as people write them: white space, dots, dashes.
pub(crate) fn compact(text: &str) -> String {
    text.chars().filter(|&c| !is_separator(c)).collect()
}

/// A character that separates the parts of an id as people write it.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '.' | '-' | '_' | '/')
}

impl Directory {
    /// The daemon's directory, built on first use (call it off the async
    /// threads: it reads `register.csv` the first time) — or at the
    /// daemon's start ([`Directory::warm`]). The file is read outside the
    /// meeting's lock, which is held only to copy the register's ids: a
    /// ballot never waits for the names.
    pub(crate) fn of_state(state: &AppState) -> Result<&Directory, ApiError> {
        if let Some(directory) = state.0.directory.get() {
            return Ok(directory);
        }
        let (dir, capital, meeting, ids) = state.with_service(|service| {
            (
                service.dir().to_path_buf(),
                service.config().capital,
                service.meeting_id(),
                service.meeting().register().iter().map(|(_, h)| h.id().to_string()).collect::<Vec<_>>(),
            )
        });
        let mut by_id = asamblea_venue::service::holder_names_in(&dir, capital).map_err(|e| {
            ApiError::internal("no se pudo leer register.csv para los nombres / register.csv could not be read for the names", &format!("{e:#}"))
        })?;
        let built = Directory::from_rows(
            &meeting,
            ids.into_iter().map(|id| {
                let name = by_id.remove(&id).unwrap_or_default();
                (id, name)
            }),
        );
        Ok(state.0.directory.get_or_init(|| built))
    }

    /// Builds the directory now, off the async threads, so that the desk's
    /// first search or scan after a start does not wait a second for the
    /// names (131.000 holders).
    pub(crate) fn warm(state: &AppState) {
        let state = state.clone();
        tokio::task::spawn_blocking(move || {
            if let Err(e) = Directory::of_state(&state) {
                tracing::warn!(error = %e.message_en, "the desk's directory could not be built at start; the first search will try again");
            }
        });
    }

    /// The directory of these holders' ids and names, in register order,
    /// with their admission codes in `meeting`.
    fn from_rows(meeting: &MeetingId, rows: impl IntoIterator<Item = (String, String)>) -> Directory {
        let mut directory = Directory {
            holders: Vec::new(),
            keys: Vec::new(),
            names: String::new(),
            starts: Vec::new(),
            codes: Vec::new(),
        };
        for (id, name) in rows {
            directory.codes.push(admission_code(meeting, &id));
            directory.starts.push(directory.names.len());
            // A name holds no line break (the register refuses control
            // characters): it separates one name from the next.
            directory.names.push_str(&fold(&name));
            directory.names.push('\n');
            directory.keys.push(IdKeys::of(&id));
            directory.holders.push((id, name));
        }
        directory
    }

    /// The name of the holder at `at` (the directory lists the register
    /// in its order).
    pub(crate) fn name(&self, at: asamblea_rules::HolderIndex) -> &str {
        self.holders.get(at.get()).map_or("", |(_, name)| name.as_str())
    }

    /// The register's name for `person`, if `person` is a holder of
    /// `meeting` (for [`person_name`]).
    pub(crate) fn registered(&self, meeting: &asamblea_rules::Meeting, person: &str) -> Option<&str> {
        meeting.register().lookup(person).map(|at| self.name(at))
    }

    /// The holder whose admission code is `code`, if any.
    pub(crate) fn by_code(&self, code: &AdmissionCode) -> Option<&str> {
        self.codes.iter().position(|own| own == code).map(|at| self.holders[at].0.as_str())
    }

    /// The holders whose whole id, or whole number, is `wanted` however
    /// it is written (`1085850638`, `cc 1085850638`): the one a scanned
    /// card or a typed document names.
    pub(crate) fn exact(&self, wanted: &str) -> Vec<&str> {
        let typed = compact(&fold(wanted.trim()));
        self.keys
            .iter()
            .zip(&self.holders)
            .filter(|(keys, _)| keys.is(&typed))
            .map(|(_, (id, _))| id.as_str())
            .collect()
    }

    /// Which holders `wanted` (folded) finds: by the start of the id or of
    /// its number, however it is written (`CC-1085850638`, `cc 1085850638`,
    /// `1085850638`, `1.085.850.638`); or by the name holding every word
    /// typed, anywhere and in any order (`perez jose` finds José Pérez); or
    /// by the admission code on their letter, typed or scanned
    /// (`7qx2m 04khd`: [`AdmissionCode::parse`]).
    pub(crate) fn find(&self, wanted: &str) -> Vec<bool> {
        let typed = compact(wanted);
        let mut hit: Vec<bool> = self.keys.iter().map(|keys| keys.starts_with(&typed)).collect();
        if let Ok(code) = AdmissionCode::parse(wanted) {
            for (hit, own) in hit.iter_mut().zip(&self.codes) {
                *hit |= *own == code;
            }
        }
        let words: Vec<&str> = wanted.split_whitespace().collect();
        if words.is_empty() {
            return hit;
        }
        // Each word found anywhere in a name; a holder whose name holds
        // them all is found.
        let mut words_held = vec![0usize; self.holders.len()];
        for word in &words {
            let mut seen = vec![false; self.holders.len()];
            for (offset, _) in self.names.match_indices(word) {
                let at = self.starts.partition_point(|&start| start <= offset) - 1;
                if !seen[at] {
                    seen[at] = true;
                    words_held[at] += 1;
                }
            }
        }
        for (at, held) in words_held.into_iter().enumerate() {
            hit[at] |= held == words.len();
        }
        hit
    }
}

/// Who `person` is, by name, wherever the record names them — written
/// once for every page and document that names a person by id: a holder
/// by the register's name (`registered`: the name the caller's register
/// gives `person`, if it is a holder's); else as the desk named them when
/// they came; else as a lodged power names them (its agent or a
/// substitute). `None`: the record names them nowhere.
pub(crate) fn person_name(
    state: &asamblea_ledger::State,
    registered: Option<&str>,
    person: &str,
) -> Option<String> {
    registered
        .filter(|name| !name.trim().is_empty())
        .map(str::to_string)
        .or_else(|| state.attendee_name(person).map(|named| named.name.as_str().to_string()))
        .or_else(|| state.powers().name_of(person).map(str::to_string))
}

/// Who attends for `person` (a holder in person, or an agent), as the
/// badge and the kiosk name the one who wears it: the name the desk
/// recorded (for a company, the natural person who came for it), else
/// [`person_name`], else the id.
pub(crate) fn attendee_name(
    state: &asamblea_ledger::State,
    meeting: &asamblea_rules::Meeting,
    directory: &Directory,
    person: &str,
) -> String {
    match state.attendee_name(person) {
        Some(named) => named.name.as_str().to_string(),
        None => person_name(state, directory.registered(meeting, person), person)
            .unwrap_or_else(|| person.to_string()),
    }
}

/// Lower case, without the accents of Spanish names: "Peña" finds "pena".
pub(crate) fn fold(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'ä' | 'â' => 'a',
            'é' | 'è' | 'ë' | 'ê' => 'e',
            'í' | 'ì' | 'ï' | 'î' => 'i',
            'ó' | 'ò' | 'ö' | 'ô' => 'o',
            'ú' | 'ù' | 'ü' | 'û' => 'u',
            'ñ' => 'n',
            other => other,
        })
        .collect()
}

/// A holder as the consoles list one: id, name, shares by class, role,
/// whether present, and the agent who carries them (`via`), if any, with
/// the name the desk recorded for whoever attends (`state`'s
/// `attendee-named`).
pub(crate) fn holder(
    state: &asamblea_ledger::State,
    meeting: &asamblea_rules::Meeting,
    at: asamblea_rules::HolderIndex,
    directory: &Directory,
) -> asamblea_api::desk::Holder {
    let holder = meeting.register().holder(at);
    let shares = holder.holdings();
    let via = match meeting.presence().channel(at) {
        asamblea_rules::Channel::Agent { agent, .. } => Some(meeting.presence().agent_id(agent).to_string()),
        _ => None,
    };
    let attendee_name = meeting
        .voter_of(at)
        .and_then(|person| state.attendee_name(person))
        .map(|named| named.name.as_str().to_string());
    asamblea_api::desk::Holder {
        id: holder.id().to_string(),
        name: directory.name(at).to_string(),
        shares: asamblea_api::ByClass { ordinary: shares.ordinary.get(), preferred: shares.preferred.get() },
        role: holder.role().map(|r| r.code().to_string()),
        present: meeting.presence().is_present(at),
        via,
        attendee_name,
        badge: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The meeting the tests' codes are of.
    const MEETING: MeetingId = MeetingId([9; 32]);

    /// The ids of the holders `query` finds (folded as the handler folds
    /// it) among a few of a register's.
    fn check(query: &str, expected: &[&str]) {
        let directory = Directory::from_rows(
            &MEETING,
            [
                ("CC-1085850638", "José Antonio Pérez Muñoz"),
                ("CC-10858506", "Lucía Peña"),
                ("NIT-860002180", "Almagrario S.A."),
                ("CE-55512", "Ana María Perea"),
                ("PA-XK99", "John Smith"),
            ]
            .map(|(id, name)| (id.to_string(), name.to_string())),
        );
        let found = directory.find(&fold(query.trim()));
        let ids: Vec<&str> = directory
            .holders
            .iter()
            .zip(found)
            .filter(|(_, hit)| *hit)
            .map(|((id, _), _)| id.as_str())
            .collect();
        assert_eq!(ids, expected, "{query:?}");
    }

    #[test]
    fn an_id_is_found_as_the_card_shows_it_or_as_typed() {
        check("CC-1085850638", &["CC-1085850638"]);
        check("1085850638", &["CC-1085850638"]);
        check("CC 1085850638", &["CC-1085850638"]);
        check("cc1085850638", &["CC-1085850638"]);
        check("1.085.850.638", &["CC-1085850638"]);
        check("860002180", &["NIT-860002180"]);
        check("860.002.180", &["NIT-860002180"]);
        check("nit 860002180", &["NIT-860002180"]);
        // The start of a number finds every id it begins.
        check("10858506", &["CC-1085850638", "CC-10858506"]);
        check("pa-xk", &["PA-XK99"]);
        check("XK99", &["PA-XK99"]);
        check("99", &[]);
        // A number is not found from its middle, nor under another type.
        check("5850638", &[]);
        check("CE 1085850638", &[]);
    }

    #[test]
    fn a_name_is_found_without_accents_by_its_words_in_any_order() {
        check("perez", &["CC-1085850638"]);
        check("PÉREZ", &["CC-1085850638"]);
        check("pena", &["CC-10858506"]);
        check("jose perez", &["CC-1085850638"]);
        check("perez jose", &["CC-1085850638"]);
        check("  jose   munoz ", &["CC-1085850638"]);
        check("ana pere", &["CE-55512"]);
        check("pe", &["CC-1085850638", "CC-10858506", "CE-55512"]);
        check("jose smith", &[]);
        check("", &["CC-1085850638", "CC-10858506", "NIT-860002180", "CE-55512", "PA-XK99"]);
    }

    #[test]
    fn a_letters_code_finds_its_holder_however_it_is_typed() {
        let code = admission_code(&MEETING, "CE-55512").to_string();
        check(&code, &["CE-55512"]);
        check(&code.to_lowercase(), &["CE-55512"]);
        check(&code.replace('-', " "), &["CE-55512"]);
        check(&format!("  {}  ", code.replace('-', "")), &["CE-55512"]);
        // Crockford's look-alikes: a 1 typed as l, a 0 as o.
        let sloppy: String = code
            .chars()
            .map(|c| match c {
                '1' => 'l',
                '0' => 'o',
                c => c,
            })
            .collect();
        check(&sloppy, &["CE-55512"]);
        // Another meeting's code for the same person finds nobody.
        let other = admission_code(&MeetingId([8; 32]), "CE-55512").to_string();
        check(&other, &[]);
    }
}
