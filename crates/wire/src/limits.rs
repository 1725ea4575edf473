//! The documented size limits of the format. A decoder refuses anything
//! over them before reading further, so no input can make it allocate
//! more than a message's worth of memory.

/// Bytes in one encoded message or event (a record adds its fixed header).
pub const MAX_MESSAGE_LEN: usize = 65_536;
/// Bytes in an [`Id`](crate::Id).
pub const MAX_ID_LEN: usize = 64;
/// Bytes in a [`Text`](crate::Text).
pub const MAX_TEXT_LEN: usize = 256;
/// Bytes in a [`Prose`](crate::Prose): a written statement for the acta.
pub const MAX_PROSE_LEN: usize = 4_000;
/// Bytes of the meeting file one `meeting-described` carries.
pub const MAX_FILE_TEXT_LEN: usize = 60_000;
/// Names one `register-named` event carries.
pub const MAX_NAMES: usize = 1_000;
/// Principals one agent's check-in may name.
pub const MAX_PRINCIPALS: usize = 1_000;
/// Substitutes a lodged power may name.
pub const MAX_SUBSTITUTES: usize = 4;
/// Holders one ballot may vote for (an agent votes for each principal).
pub const MAX_VOTES: usize = 1_000;
/// Items on a convened agenda.
pub const MAX_AGENDA_ITEMS: usize = 256;
/// Entries of the whole agenda (`agenda-convened`): the items voted and
/// those read, reported or discussed without a vote.
pub const MAX_AGENDA_ENTRIES: usize = 512;
/// Candidates one list of an election names (`agenda-convened`).
pub const MAX_CANDIDATES: usize = 256;
/// Lists (candidates) on one election.
pub const MAX_LISTS: usize = 256;
/// Parts of one split vote: every list plus blank.
pub const MAX_SPLIT_PARTS: usize = MAX_LISTS + 1;
