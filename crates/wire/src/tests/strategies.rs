//! Proptest strategies for every valid value of the format, and a few
//! fixed values the other tests build on.

use std::sync::OnceLock;

use asamblea_rules::{
    Call, Capacity, Capital, ClassCapital, ClassShares, DecisionBase, MatterKind, MeetingKind, OptionIndex,
    Outcome, QuorumRule, Role, Settings, Shares,
};
use proptest::collection::{btree_map, btree_set, vec};
use proptest::prelude::*;

use crate::{
    AgendaItem, AgentArrival, Ballot, Choice, CredentialId, DecisionFigures, Digest, ElectionFigures, Event,
    EventBody, EventRecord, HolderVote, Id, Keypair, Nonce, ProxyRefusal, PublicKey, PublishedResult,
    Signature, SplitPart, StaffRole, Text, Withdrawal,
};

/// A valid encoding with one change: a byte flipped, a byte inserted, or a
/// cut.
#[derive(Clone, Debug)]
pub(crate) enum Mutation {
    Flip { at: prop::sample::Index, mask: u8 },
    Insert { at: prop::sample::Index, byte: u8 },
    Cut { at: prop::sample::Index },
}

pub(crate) fn arb_mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<prop::sample::Index>(), 1u8..=255).prop_map(|(at, mask)| Mutation::Flip { at, mask }),
        1 => (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Insert { at, byte }),
        1 => any::<prop::sample::Index>().prop_map(|at| Mutation::Cut { at }),
    ]
}

/// `bytes` with `mutation` applied (an empty input is only ever grown).
pub(crate) fn mutate(mut bytes: Vec<u8>, mutation: &Mutation) -> Vec<u8> {
    match mutation {
        Mutation::Flip { at, mask } => {
            if !bytes.is_empty() {
                let at = at.index(bytes.len());
                bytes[at] ^= mask;
            }
        }
        Mutation::Insert { at, byte } => bytes.insert(at.index(bytes.len() + 1), *byte),
        Mutation::Cut { at } => {
            if !bytes.is_empty() {
                bytes.truncate(at.index(bytes.len()));
            }
        }
    }
    bytes
}

/// Key derivation is slow in a debug build: a few fixed keys serve.
pub(crate) fn keys() -> &'static [PublicKey] {
    static KEYS: OnceLock<Vec<PublicKey>> = OnceLock::new();
    KEYS.get_or_init(|| (1u8..=4).map(|i| Keypair::from_seed(&[i; 32]).public_key()).collect())
}

pub(crate) fn id(s: &str) -> Id {
    Id::new(s).expect("test ids are valid")
}

pub(crate) fn arb_id() -> impl Strategy<Value = Id> {
    prop_oneof![
        4 => "[A-Za-z0-9._-]{1,12}",
        1 => "[a-zñáéÍ€𝄞 ]{1,16}",
        1 => "[a-z]{60,64}",
    ]
    .prop_map(|s| id(&s))
}

fn arb_text() -> impl Strategy<Value = Text> {
    "[ -~ñ]{0,40}".prop_map(|s| Text::new(&s).expect("test texts are valid"))
}

fn arb_key() -> impl Strategy<Value = PublicKey> {
    prop::sample::select(keys())
}

fn arb_digest() -> impl Strategy<Value = Digest> {
    any::<[u8; 32]>().prop_map(Digest)
}

fn arb_shares() -> impl Strategy<Value = Shares> {
    prop_oneof![0u64..1_000_000, any::<u64>()].prop_map(Shares::new)
}

fn arb_ids(min: usize, max: usize) -> impl Strategy<Value = Vec<Id>> {
    btree_set(arb_id(), min..=max).prop_map(|set| set.into_iter().collect())
}

fn arb_settings() -> impl Strategy<Value = Settings> {
    (
        prop::sample::select(vec![QuorumRule::MoreThanHalf, QuorumRule::HalfPlusOne]),
        prop::sample::select(vec![DecisionBase::Present, DecisionBase::Cast]),
        any::<[bool; 4]>(),
    )
        .prop_map(|(quorum, base, [listed, preferred_full_vote, split_custodians, legal])| Settings {
            quorum,
            base,
            listed,
            preferred_full_vote,
            split_custodians,
            legal_representative_impeded: legal,
        })
}

fn arb_class_capital() -> impl Strategy<Value = ClassCapital> {
    any::<u64>().prop_flat_map(|subscribed| (Just(subscribed), 0..=subscribed)).prop_map(|(s, t)| {
        ClassCapital::new(Shares::new(s), Shares::new(t)).expect("treasury within subscribed")
    })
}

fn arb_arrival() -> impl Strategy<Value = AgentArrival> {
    (
        arb_id(),
        arb_ids(1, 6),
        prop::sample::select(vec![Capacity::Proxy, Capacity::LegalRepresentative]),
        prop::sample::select(vec![None, Some(Role::Administrator), Some(Role::Employee)]),
        arb_text(),
    )
        .prop_map(|(agent, principals, capacity, declared_role, power_document)| AgentArrival {
            agent,
            principals,
            capacity,
            declared_role,
            power_document,
        })
}

fn arb_title() -> impl Strategy<Value = Text> {
    "[ -~áéíóúñÑ]{0,40}".prop_map(|t| Text::new(&t).expect("printable"))
}

fn arb_agenda_item() -> impl Strategy<Value = AgendaItem> {
    (arb_item(), arb_title()).prop_map(|(mut item, title)| {
        item.title = title;
        item
    })
}

/// An agenda: 1 to 5 items, no id twice.
fn arb_agenda() -> impl Strategy<Value = Vec<AgendaItem>> {
    prop::collection::vec(arb_agenda_item(), 1..=5).prop_map(|items| {
        let mut seen = std::collections::HashSet::new();
        items.into_iter().filter(|i| seen.insert(i.item.clone())).collect()
    })
}

fn arb_item() -> impl Strategy<Value = AgendaItem> {
    let empty = || Text::new("").expect("empty");
    let decision = (arb_id(), prop::sample::select(MatterKind::ALL.to_vec()), any::<bool>())
        .prop_filter("a decision", |(_, matter, _)| !matter.is_election())
        .prop_map(move |(item, matter, noticed)| AgendaItem {
            item,
            title: empty(),
            matter,
            noticed,
            seats: 0,
            lists: vec![],
        });
    let lists = || {
        btree_set(arb_id(), 1..=6)
            .prop_filter("no list named blank", |set| !set.iter().any(|l| l.as_str() == "blank"))
            .prop_map(|set| set.into_iter().rev().collect::<Vec<_>>())
    };
    let board =
        (arb_id(), any::<bool>(), 1u32..20, lists()).prop_map(move |(item, noticed, seats, lists)| {
            AgendaItem { item, title: empty(), matter: MatterKind::BoardElection, noticed, seats, lists }
        });
    let single = (arb_id(), any::<bool>(), lists()).prop_map(move |(item, noticed, lists)| AgendaItem {
        item,
        title: empty(),
        matter: MatterKind::SingleSeatElection,
        noticed,
        seats: 1,
        lists,
    });
    prop_oneof![decision, board, single]
}

fn arb_choice() -> impl Strategy<Value = Choice> {
    prop_oneof![
        any::<u16>().prop_map(|o| Choice::Whole(OptionIndex::list(o.into()))),
        btree_map(0u16..300, 1u64..=u64::MAX, 1..=4).prop_map(|parts| Choice::Split(
            parts
                .into_iter()
                .map(|(o, s)| SplitPart { option: OptionIndex::list(o.into()), shares: Shares::new(s) })
                .collect()
        )),
    ]
}

pub(crate) fn arb_ballot() -> impl Strategy<Value = Ballot> {
    (arb_id(), any::<u32>(), btree_map(arb_id(), arb_choice(), 1..=5)).prop_map(
        |(item, credential, votes)| Ballot {
            item,
            credential: CredentialId(credential),
            votes: votes.into_iter().map(|(holder, choice)| HolderVote { holder, choice }).collect(),
        },
    )
}

fn arb_decision() -> impl Strategy<Value = PublishedResult> {
    (
        prop::sample::select(vec![Outcome::Pass, Outcome::Fail, Outcome::NoQuorum, Outcome::AllImpeded]),
        any::<bool>(),
        vec(arb_shares(), 7),
        any::<u32>(),
        proptest::option::of((arb_shares(), arb_shares())),
        proptest::option::of((any::<u32>(), arb_digest())),
    )
        .prop_map(|(outcome, quorum_at_close, figures, holders_for, by_class, withdrawal)| {
            PublishedResult::Decision(DecisionFigures {
                outcome,
                quorum_at_close,
                present: figures[0],
                impeded: figures[1],
                base: figures[2],
                for_votes: figures[3],
                against: figures[4],
                blank: figures[5],
                abstain: figures[6],
                holders_for,
                for_by_class: by_class.map(|(o, p)| ClassShares::new(o, p)),
                withdrawal: withdrawal.map(|(holders, digest)| Withdrawal { holders, digest }),
            })
        })
}

fn arb_election() -> impl Strategy<Value = PublishedResult> {
    (1usize..=6)
        .prop_flat_map(|lists| {
            (
                prop::sample::select(vec![
                    Outcome::Elected,
                    Outcome::LotRequired,
                    Outcome::Fail,
                    Outcome::NoQuorum,
                ]),
                any::<bool>(),
                (arb_shares(), arb_shares(), arb_shares()),
                vec(arb_shares(), lists),
                proptest::option::of(vec(any::<u32>(), lists)),
                btree_set(0..u32::try_from(lists).expect("few lists"), 0..=lists),
                (any::<u32>(), any::<u32>()),
            )
        })
        .prop_map(
            |(outcome, quorum_at_close, (valid, blank, base), votes, seats, tied, (to_draw, vacant))| {
                PublishedResult::Election(ElectionFigures {
                    outcome,
                    quorum_at_close,
                    valid,
                    blank,
                    votes,
                    seats,
                    lot_between: tied.into_iter().collect(),
                    seats_to_draw: to_draw,
                    vacant,
                    base,
                })
            },
        )
}

fn arb_body() -> impl Strategy<Value = EventBody> {
    prop_oneof![
        (
            arb_key(),
            arb_id(),
            arb_digest(),
            prop::sample::select(vec![MeetingKind::Ordinary, MeetingKind::Extraordinary]),
            prop::sample::select(vec![Call::First, Call::Second, Call::OwnRight]),
            arb_settings(),
            arb_agenda()
        )
            .prop_map(
                |(daemon_key, profile, profile_digest, meeting_kind, call, settings, agenda)| {
                    EventBody::MeetingConvened {
                        daemon_key,
                        profile,
                        profile_digest,
                        meeting_kind,
                        call,
                        settings,
                        agenda,
                    }
                }
            ),
        (arb_key(), prop::sample::select(StaffRole::ALL.to_vec()), arb_id())
            .prop_map(|(key, role, name)| EventBody::StaffEnrolled { key, role, name }),
        (arb_digest(), any::<u32>(), arb_class_capital(), arb_class_capital()).prop_map(
            |(register_digest, holders, ordinary, preferred)| EventBody::RegisterImported {
                register_digest,
                holders,
                capital: Capital { ordinary, preferred },
            }
        ),
        arb_id().prop_map(|holder| EventBody::CheckedInPerson { holder }),
        arb_arrival().prop_map(EventBody::CheckedInAgent),
        (
            arb_arrival(),
            prop::sample::select(vec![
                ProxyRefusal::UnknownHolder,
                ProxyRefusal::ProxyAgentBarred,
                ProxyRefusal::AlreadyPresent,
                ProxyRefusal::PowerDocumentRejected
            ])
        )
            .prop_map(|(arrival, reason)| EventBody::ProxyRefused { arrival, reason }),
        arb_id().prop_map(|person| EventBody::CheckedOut { person }),
        (any::<u32>(), arb_key(), arb_id()).prop_map(|(c, key, person)| EventBody::BadgeIssued {
            credential: CredentialId(c),
            key,
            person
        }),
        any::<u32>().prop_map(|c| EventBody::BadgeRevoked { credential: CredentialId(c) }),
        arb_id().prop_map(|item| EventBody::ItemOpened { item }),
        arb_ballot().prop_map(EventBody::Ballot),
        arb_id().prop_map(|item| EventBody::ItemClosed { item }),
        (arb_id(), any::<u32>(), arb_digest(), arb_id())
            .prop_map(|(item, round, seed, winner)| EventBody::LotDrawn { item, round, seed, winner }),
        (arb_id(), prop_oneof![arb_decision(), arb_election()])
            .prop_map(|(item, result)| EventBody::ResultPublished { item, result }),
        (any::<u32>(), vec(arb_text(), 1..20))
            .prop_map(|(first, names)| EventBody::RegisterNamed { first, names }),
        "[ -~ñ\t\r\n]{0,300}".prop_map(|s| EventBody::MeetingDescribed {
            file: crate::FileText::new(&s).expect("test files are valid")
        }),
        (arb_id(), arb_id(), arb_prose()).prop_map(|(item, person, text)| EventBody::StatementRecorded {
            item,
            person,
            text
        }),
        (arb_id(), "[a-zñ][ -~ñ]{0,40}", prop::option::of(arb_id())).prop_map(|(person, name, document)| {
            EventBody::AttendeeNamed {
                person,
                name: Text::new(&name).expect("test names are valid"),
                document,
            }
        }),
        arb_power().prop_map(EventBody::PowerLodged),
        (
            arb_id(),
            arb_id(),
            prop::sample::select(vec![crate::Revocation::PrincipalArrived, crate::Revocation::Withdrawn])
        )
            .prop_map(|(power, principal, reason)| EventBody::PowerRevoked {
                power,
                principal,
                reason
            }),
        arb_modality().prop_map(EventBody::MeetingModality),
        (arb_id(), arb_key(), prop::sample::select(crate::VerificationMethod::ALL.to_vec()), arb_digest())
            .prop_map(|(person, key, method, evidence)| EventBody::IdentityVerified {
                person,
                key,
                method,
                evidence
            }),
        (any::<u32>(), arb_key(), arb_id()).prop_map(|(c, key, person)| EventBody::RemoteCredentialIssued {
            credential: CredentialId(c),
            key,
            person
        }),
        (any::<u32>(), arb_ids(1, 6)).prop_map(|(c, principals)| EventBody::CheckedInRemote {
            credential: CredentialId(c),
            principals
        }),
        any::<u32>().prop_map(|c| EventBody::CheckedOutRemote { credential: CredentialId(c) }),
        (any::<u32>(), any::<u64>())
            .prop_map(|(c, silent_ms)| EventBody::PresenceLapsed { credential: CredentialId(c), silent_ms }),
        (
            any::<u32>(),
            prop::sample::select(crate::SubmissionKind::ALL.to_vec()),
            prop::option::of(arb_id()),
            arb_prose()
        )
            .prop_map(|(c, kind, item, text)| EventBody::RemoteSubmission {
                credential: CredentialId(c),
                kind,
                item,
                text
            }),
        (any::<u64>(), prop::sample::select(crate::SubmissionOutcome::ALL.to_vec()), arb_text()).prop_map(
            |(submission, outcome, note)| EventBody::SubmissionHandled { submission, outcome, note }
        ),
        (arb_id(), any::<u64>())
            .prop_map(|(item, countdown_ms)| EventBody::CloseAnnounced { item, countdown_ms }),
        (any::<u64>(), any::<u64>()).prop_map(|(min_open_ms, min_countdown_ms)| EventBody::PollsTimed {
            min_open_ms,
            min_countdown_ms
        }),
    ]
}

/// A modality: each of the three, any heartbeat and timeout, and the
/// remote channel exactly when the modality has one.
fn arb_modality() -> impl Strategy<Value = crate::ConvenedModality> {
    use asamblea_rules::{Modality, RemotePresence};
    (
        prop::sample::select(Modality::ALL.to_vec()),
        any::<u32>(),
        any::<u32>(),
        (arb_prose(), arb_prose(), arb_prose(), arb_prose(), any::<bool>()),
    )
        .prop_map(
            |(
                modality,
                heartbeat_seconds,
                timeout_seconds,
                (medium, access, identity_check, floor, identity_delegated),
            )| {
                crate::ConvenedModality {
                    modality,
                    presence: RemotePresence { heartbeat_seconds, timeout_seconds },
                    remote: modality.has_remote_channel().then_some(crate::RemoteConvening {
                        medium,
                        access,
                        identity_check,
                        floor,
                        identity_delegated,
                    }),
                }
            },
        )
}

/// A lodged power: every field, every tie, reception and verdict.
fn arb_power() -> impl Strategy<Value = crate::LodgedPower> {
    use asamblea_rules::powers::{PowerRefusal, Tie};
    let tie =
        || prop::sample::select(vec![Tie::None, Tie::Administrator, Tie::Employee, Tie::Administration]);
    let verdicts: Vec<Option<PowerRefusal>> =
        std::iter::once(None).chain(PowerRefusal::ALL.into_iter().map(Some)).collect();
    (
        (arb_id(), arb_ids(1, 6), prop::option::of(arb_id()), arb_text(), tie(), any::<bool>()),
        btree_map(arb_id(), (arb_text(), tie()), 0..=4),
        (arb_text(), prop::sample::select(crate::Reception::ALL.to_vec()), arb_text(), arb_digest()),
        prop::sample::select(verdicts),
    )
        .prop_map(
            |(
                (power, principals, agent, agent_name, agent_tie, suggested),
                substitutes,
                (meeting_date, received_via, received_on, document),
                verdict,
            )| crate::LodgedPower {
                power,
                principals,
                agent,
                agent_name,
                agent_tie,
                suggested,
                substitutes: substitutes
                    .into_iter()
                    .map(|(id, (name, tie))| crate::Substitute { id, name, tie })
                    .collect(),
                meeting_date,
                received_via,
                received_on,
                document,
                verdict,
            },
        )
}

/// A statement's words: accents, line breaks inside, trimmed.
fn arb_prose() -> impl Strategy<Value = crate::Prose> {
    "[a-zñáé][ -~ñáé\n]{0,200}[a-z.]".prop_map(|s| crate::Prose::new(&s).expect("test statements are valid"))
}

pub(crate) fn arb_event() -> impl Strategy<Value = Event> {
    (any::<[u8; 16]>(), arb_body()).prop_map(|(nonce, body)| Event { nonce: Nonce(nonce), body })
}

pub(crate) fn arb_record() -> impl Strategy<Value = EventRecord> {
    (any::<u64>(), any::<u64>(), arb_key(), vec(any::<u8>(), 64), arb_event()).prop_map(
        |(seq, time_ms, signer, signature, event)| EventRecord {
            seq,
            time_ms,
            signer,
            signature: Signature::from_slice(&signature).expect("64 bytes"),
            event,
        },
    )
}
