//! Bylaws profiles: what each matter kind needs to pass and who votes on it.
//!
//! A [`Profile`] is data (loaded from `config/*.toml` by the outer crates):
//! for every [`MatterKind`] its [`MatterRules`], and the settings that answer
//! the open questions of rules.md (OQ1, OQ2, OQ4, OQ5, listed, R13). The
//! engine never branches on a company's name, only on this data.

use std::fmt;

/// Ordinary (annual) or extraordinary meeting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeetingKind {
    /// Reunión ordinaria.
    Ordinary,
    /// Reunión extraordinaria: only the noticed agenda (R17), except the
    /// removal of administrators (C.Co Art. 425).
    Extraordinary,
}

impl MeetingKind {
    /// The code used in files.
    pub const fn code(self) -> &'static str {
        match self {
            MeetingKind::Ordinary => "ordinary",
            MeetingKind::Extraordinary => "extraordinary",
        }
    }
    /// The kind of a code, if it is one.
    pub fn from_code(code: &str) -> Option<MeetingKind> {
        match code {
            "ordinary" => Some(MeetingKind::Ordinary),
            "extraordinary" => Some(MeetingKind::Extraordinary),
            _ => None,
        }
    }
}

/// Which call the meeting sits on (R3, R4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    /// Primera convocatoria: plural holders and the quorum setting.
    First,
    /// Reunión de segunda convocatoria (C.Co Art. 429): plural holders only.
    Second,
    /// Reunión por derecho propio (C.Co Art. 422): plural holders only.
    OwnRight,
}

impl Call {
    /// The code used in files.
    pub const fn code(self) -> &'static str {
        match self {
            Call::First => "first",
            Call::Second => "second",
            Call::OwnRight => "own-right",
        }
    }
    /// The call of a code, if it is one.
    pub fn from_code(code: &str) -> Option<Call> {
        match code {
            "first" => Some(Call::First),
            "second" => Some(Call::Second),
            "own-right" => Some(Call::OwnRight),
            _ => None,
        }
    }
}

macro_rules! matter_kinds {
    ($( $variant:ident = $code:literal, $es:literal, $en:literal; )*) => {
        /// The kinds of agenda item the rules tell apart.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum MatterKind {
            $(
                #[doc = $en]
                $variant,
            )*
        }

        impl MatterKind {
            /// Every matter kind, in the order of FORMAT.md.
            pub const ALL: [MatterKind; [$($code),*].len()] = [$(MatterKind::$variant),*];

            /// The code used in files and on the wire.
            pub const fn code(self) -> &'static str {
                match self { $(MatterKind::$variant => $code,)* }
            }

            /// The matter of a code, if it is one.
            pub fn from_code(code: &str) -> Option<MatterKind> {
                match code { $($code => Some(MatterKind::$variant),)* _ => None }
            }

            /// The Spanish name, for screens and the acta.
            pub const fn spanish(self) -> &'static str {
                match self { $(MatterKind::$variant => $es,)* }
            }

            /// The English name.
            pub const fn english(self) -> &'static str {
                match self { $(MatterKind::$variant => $en,)* }
            }
        }
    };
}

matter_kinds! {
    Ordinary = "ordinary", "Asunto ordinario", "Ordinary matter";
    FinancialStatements = "financial-statements", "Estados financieros de fin de ejercicio", "Year-end financial statements";
    LiquidationAccounts = "liquidation-accounts", "Cuentas de la liquidación", "Liquidation accounts";
    ProfitDistribution = "profit-distribution", "Distribución de utilidades", "Profit distribution";
    ProfitDistributionBelowMinimum = "profit-distribution-below-minimum", "Distribución de utilidades inferior al mínimo", "Profit distribution below the legal minimum";
    IssueWithoutPreemptiveRights = "issue-without-preemptive-rights", "Emisión sin derecho de preferencia", "Share issue without preemptive rights";
    StockDividend = "stock-dividend", "Dividendo en acciones", "Stock dividend";
    PreferredAdverseChange = "preferred-adverse-change", "Modificación desfavorable de las acciones preferenciales", "Adverse change to preferred shares";
    PreferredConversion = "preferred-conversion", "Conversión de acciones preferenciales", "Conversion of preferred shares";
    RemoveAdministrators = "remove-administrators", "Remoción de administradores", "Removal of administrators";
    CapitalIncrease = "capital-increase", "Aumento del capital autorizado", "Increase of authorized capital";
    CapitalReduction = "capital-reduction", "Disminución del capital suscrito", "Reduction of subscribed capital";
    BylawAmendment = "bylaw-amendment", "Reforma estatutaria", "Bylaw amendment";
    Merger = "merger", "Fusión", "Merger";
    SpinOff = "spin-off", "Escisión", "Spin-off";
    Transformation = "transformation", "Transformación", "Transformation";
    Delisting = "delisting", "Cancelación voluntaria de la inscripción en el RNVE", "Voluntary delisting";
    Segregation = "segregation", "Segregación (escisión impropia)", "Segregation (improper spin-off)";
    SuspendMeeting = "suspend-meeting", "Suspensión de la reunión", "Suspension of the meeting";
    BoardElection = "board-election", "Elección de junta directiva (cuociente electoral)", "Board election (electoral quotient)";
    SingleSeatElection = "single-seat-election", "Elección unipersonal", "Single-seat election";
}

impl MatterKind {
    /// True for the two election kinds, whose options are lists.
    pub const fn is_election(self) -> bool {
        matches!(self, MatterKind::BoardElection | MatterKind::SingleSeatElection)
    }

    /// An extraordinary meeting may take this up although it was not in the
    /// notice: only the removal of administrators (C.Co Art. 425, R11).
    pub const fn allowed_unnoticed_in_extraordinary(self) -> bool {
        matches!(self, MatterKind::RemoveAdministrators)
    }
}

impl fmt::Display for MatterKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// What a decision needs to pass. Every test is an integer inequality.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Majority {
    /// R9: `2·F > E`; a tie fails.
    Simple,
    /// R11: `100·F ≥ percent·E`, and with `plural` also `hF ≥ 2`.
    AtLeastPercent {
        /// The percentage, 1 to 100.
        percent: u8,
        /// Also require at least two distinct holders voting for.
        plural: bool,
    },
    /// R11, preferred shares (Ley 222 Arts. 61–64): on outstanding capital,
    /// `100·(F_ORD+F_PREF) ≥ p·(S_ORD+S_PREF)` and `100·F_PREF ≥ p·S_PREF`.
    TwoClassSubscribed {
        /// The percentage, 1 to 100.
        percent: u8,
    },
    /// R15: electoral quotient with largest remainders (C.Co Art. 197).
    ElectoralQuotient,
    /// OQ8: the candidate with `2·v > E` is elected.
    SingleSeat,
}

impl Majority {
    /// True for the two election rules.
    pub const fn is_election(self) -> bool {
        matches!(self, Majority::ElectoralQuotient | Majority::SingleSeat)
    }

    /// The fewest votes for that meet this majority's share test on a base
    /// of `base`: what the chair reads as "se necesitaban". For
    /// [`Majority::TwoClassSubscribed`] `base` is the outstanding capital
    /// of both classes (and the preferred class needs the same of its own
    /// outstanding shares); for [`Majority::SingleSeat`] the votes a
    /// candidate needs. `None` for the electoral quotient, which has no
    /// threshold. The plurality of [`Majority::AtLeastPercent`] is a
    /// separate test on holders.
    pub const fn for_votes_needed(self, base: crate::Shares) -> Option<crate::Shares> {
        let e = base.get() as u128;
        match self {
            // 2·F > E ⇔ F ≥ ⌊E/2⌋ + 1.
            Majority::Simple | Majority::SingleSeat => Some(crate::Shares::new((e / 2 + 1) as u64)),
            // 100·F ≥ p·E ⇔ F ≥ ⌈p·E/100⌉.
            Majority::AtLeastPercent { percent, .. } | Majority::TwoClassSubscribed { percent } => {
                Some(crate::Shares::new((percent as u128 * e).div_ceil(100) as u64))
            }
            Majority::ElectoralQuotient => None,
        }
    }
}

/// Rules the company's own bylaws add to a matter. They apply only while
/// the company is not listed: a listed issuer may set neither other
/// majorities nor another quorum (Ley 222 Art. 68, second paragraph).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BylawRules {
    /// A majority that replaces the legal one.
    pub majority: Option<Majority>,
    /// Apply `majority` only in this kind of meeting.
    pub majority_only_in: Option<MeetingKind>,
    /// The matter needs the first-call quorum even on a second call or a
    /// meeting by own right (Almagrario §6, R4).
    pub first_call_quorum: bool,
}

/// How one matter kind is decided and who votes on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatterRules {
    /// The legal majority.
    pub majority: Majority,
    /// R10: administrators and employees may not vote, and their shares
    /// leave the base (year-end statements, liquidation accounts).
    pub administrators_barred: bool,
    /// R13: preferred shares vote on this matter (and it is judged on both
    /// classes).
    pub preferred_votes: bool,
    /// R17: refused unless it was in the notice of the meeting.
    pub notice_required: bool,
    /// R18: absent and dissenting holders may withdraw (derecho de retiro).
    pub withdrawal: bool,
    /// What the bylaws add while the company is not listed.
    pub bylaws: BylawRules,
}

impl MatterRules {
    /// The rule Colombian law alone gives `kind` (R9–R11, R13, R17, R18):
    /// what `config/legal-default.toml` writes, and what a profile adds its
    /// bylaws to. Unlisted-company bylaw rules are not part of it.
    pub const fn statutory(kind: MatterKind) -> MatterRules {
        use MatterKind::*;
        let mut rules = MatterRules::plain(Majority::Simple);
        match kind {
            FinancialStatements | LiquidationAccounts => rules.administrators_barred = true,
            ProfitDistributionBelowMinimum => {
                rules.majority = Majority::AtLeastPercent { percent: 78, plural: true }
            }
            IssueWithoutPreemptiveRights => {
                rules.majority = Majority::AtLeastPercent { percent: 70, plural: false }
            }
            StockDividend => rules.majority = Majority::AtLeastPercent { percent: 80, plural: false },
            PreferredAdverseChange | PreferredConversion => {
                rules.majority = Majority::TwoClassSubscribed { percent: 70 };
                rules.preferred_votes = true;
            }
            CapitalIncrease | CapitalReduction | Segregation => rules.notice_required = true,
            Merger | SpinOff | Transformation | Delisting => {
                rules.notice_required = true;
                rules.withdrawal = true;
            }
            SuspendMeeting => rules.majority = Majority::AtLeastPercent { percent: 51, plural: true },
            BoardElection => rules.majority = Majority::ElectoralQuotient,
            SingleSeatElection => rules.majority = Majority::SingleSeat,
            Ordinary | ProfitDistribution | RemoveAdministrators | BylawAmendment => {}
        }
        rules
    }

    /// A matter decided by `majority` with no other rule.
    pub const fn plain(majority: Majority) -> MatterRules {
        MatterRules {
            majority,
            administrators_barred: false,
            preferred_votes: false,
            notice_required: false,
            withdrawal: false,
            bylaws: BylawRules { majority: None, majority_only_in: None, first_call_quorum: false },
        }
    }
}

/// OQ1: what "la mitad más una de las acciones" means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuorumRule {
    /// `2·P > S_v` (501 of 1.001). The default.
    MoreThanHalf,
    /// `2·P ≥ S_v + 2` (502 of 1.001): half, then one whole share more.
    HalfPlusOne,
}

impl QuorumRule {
    /// The code used in files.
    pub const fn code(self) -> &'static str {
        match self {
            QuorumRule::MoreThanHalf => "more-than-half",
            QuorumRule::HalfPlusOne => "half-plus-one",
        }
    }
    /// The rule of a code, if it is one.
    pub fn from_code(code: &str) -> Option<QuorumRule> {
        match code {
            "more-than-half" => Some(QuorumRule::MoreThanHalf),
            "half-plus-one" => Some(QuorumRule::HalfPlusOne),
            _ => None,
        }
    }

    /// Whether `present` voting shares make the share part of a first-call
    /// quorum of `voting` outstanding voting shares.
    pub fn met(self, present: crate::Shares, voting: crate::Shares) -> bool {
        match self {
            QuorumRule::MoreThanHalf => 2 * present.wide() > voting.wide(),
            QuorumRule::HalfPlusOne => 2 * present.wide() >= voting.wide() + 2,
        }
    }

    /// The fewest voting shares present that meet [`QuorumRule::met`] out
    /// of `voting`: what the desk shows as the threshold. `met(minimum)`
    /// holds and `met(minimum - 1)` does not.
    pub const fn minimum(self, voting: crate::Shares) -> crate::Shares {
        let v = voting.get();
        crate::Shares::new(match self {
            // 2·P > v ⇔ P ≥ ⌊v/2⌋ + 1.
            QuorumRule::MoreThanHalf => v / 2 + 1,
            // 2·P ≥ v + 2 ⇔ P ≥ ⌈v/2⌉ + 1.
            QuorumRule::HalfPlusOne => v / 2 + v % 2 + 1,
        })
    }
}

/// OQ2: the base `E` of a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionBase {
    /// The eligible shares present at the close (R8); abstentions and blank
    /// votes weigh as "no". The default, and the doctrine.
    Present,
    /// Only the shares cast: for + against + blank.
    Cast,
}

impl DecisionBase {
    /// The code used in files.
    pub const fn code(self) -> &'static str {
        match self {
            DecisionBase::Present => "present",
            DecisionBase::Cast => "cast",
        }
    }
    /// The base of a code, if it is one.
    pub fn from_code(code: &str) -> Option<DecisionBase> {
        match code {
            "present" => Some(DecisionBase::Present),
            "cast" => Some(DecisionBase::Cast),
            _ => None,
        }
    }
}

/// The settings that answer rules.md's open questions for one company.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// OQ1.
    pub quorum: QuorumRule,
    /// OQ2.
    pub base: DecisionBase,
    /// Listed issuer: the bylaw rules of [`BylawRules`] do not apply (R11).
    pub listed: bool,
    /// R13: preferred shares have full voice and vote (SFC finding).
    pub preferred_full_vote: bool,
    /// OQ5: holders marked omnibus-custodian may split their vote.
    pub split_custodians: bool,
    /// OQ4: shares an administrator or employee represents as legal
    /// representative of a holder company are impeded on R10 matters.
    pub legal_representative_impeded: bool,
}

impl Default for Settings {
    /// The defaults rules.md gives to each open question.
    fn default() -> Settings {
        Settings {
            quorum: QuorumRule::MoreThanHalf,
            base: DecisionBase::Present,
            listed: true,
            preferred_full_vote: false,
            split_custodians: false,
            legal_representative_impeded: true,
        }
    }
}

/// Why a profile was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    /// A matter kind has no rules.
    #[error("matter `{0}` has no rules: every matter kind must be listed")]
    MissingMatter(MatterKind),
    /// A matter kind has rules twice.
    #[error("matter `{0}` is listed twice")]
    DuplicateMatter(MatterKind),
    /// A percentage outside 1..=100.
    #[error("matter `{matter}`: percent {percent} is outside 1 to 100")]
    PercentOutOfRange {
        /// The matter.
        matter: MatterKind,
        /// The percentage given.
        percent: u8,
    },
    /// An election rule on a decision, or a decision rule on an election.
    #[error("matter `{matter}`: an election needs an election majority and a decision a decision majority")]
    MajorityDoesNotFit {
        /// The matter.
        matter: MatterKind,
    },
}

/// A validated bylaws profile: settings plus rules for every matter kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    name: String,
    settings: Settings,
    matters: Vec<MatterRules>,
    /// How a remote presence is proven (HY-5): the profile's default,
    /// which a meeting file may change.
    remote_presence: crate::RemotePresence,
    /// How long a poll stays open at least, and the shortest countdown
    /// of its close (rules.md §11.5): the profile's, or a meeting's.
    poll_timing: crate::PollTiming,
}

impl Profile {
    /// Validates that every matter kind has rules, exactly once, that fit
    /// it.
    pub fn new(
        name: impl Into<String>,
        settings: Settings,
        matters: impl IntoIterator<Item = (MatterKind, MatterRules)>,
    ) -> Result<Profile, ProfileError> {
        let mut table: Vec<Option<MatterRules>> = vec![None; MatterKind::ALL.len()];
        for (kind, rules) in matters {
            let slot = &mut table[kind as usize];
            if slot.is_some() {
                return Err(ProfileError::DuplicateMatter(kind));
            }
            for majority in [Some(rules.majority), rules.bylaws.majority].into_iter().flatten() {
                if majority.is_election() != kind.is_election()
                    || (kind == MatterKind::SingleSeatElection) != (majority == Majority::SingleSeat)
                {
                    return Err(ProfileError::MajorityDoesNotFit { matter: kind });
                }
                if let Majority::AtLeastPercent { percent, .. } | Majority::TwoClassSubscribed { percent } =
                    majority
                {
                    if !(1..=100).contains(&percent) {
                        return Err(ProfileError::PercentOutOfRange { matter: kind, percent });
                    }
                }
            }
            *slot = Some(rules);
        }
        let matters = table
            .into_iter()
            .zip(MatterKind::ALL)
            .map(|(rules, kind)| rules.ok_or(ProfileError::MissingMatter(kind)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Profile {
            name: name.into(),
            settings,
            matters,
            remote_presence: crate::RemotePresence::default(),
            poll_timing: crate::PollTiming::DEFAULT,
        })
    }

    /// The law alone, named `name`: every matter as
    /// [`MatterRules::statutory`] gives it, with the default settings (what
    /// `config/legal-default.toml` writes). For tests and examples.
    pub fn statutory(name: &str) -> Profile {
        let matters = MatterKind::ALL.iter().map(|&kind| (kind, MatterRules::statutory(kind)));
        Profile::new(name, Settings::default(), matters).expect("the law's own rules make a valid profile")
    }

    /// The profile's name (`grupo-aval`, …).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// The same profile with other settings (a meeting's overrides).
    pub fn with_settings(mut self, settings: Settings) -> Profile {
        self.settings = settings;
        self
    }

    /// How a remote attendee's presence is proven (HY-5): 60 s and 5
    /// minutes unless the profile says otherwise.
    pub fn remote_presence(&self) -> crate::RemotePresence {
        self.remote_presence
    }

    /// The same profile with another heartbeat and timeout.
    pub fn with_remote_presence(mut self, remote_presence: crate::RemotePresence) -> Profile {
        self.remote_presence = remote_presence;
        self
    }

    /// The poll timing: [`crate::PollTiming::DEFAULT`] unless the
    /// profile or the meeting file says otherwise.
    pub fn poll_timing(&self) -> crate::PollTiming {
        self.poll_timing
    }

    /// The same profile with another poll timing.
    pub fn with_poll_timing(mut self, poll_timing: crate::PollTiming) -> Profile {
        self.poll_timing = poll_timing;
        self
    }

    /// The rules of one matter kind.
    pub fn matter(&self, kind: MatterKind) -> &MatterRules {
        &self.matters[kind as usize]
    }

    /// The majority that decides `kind` in a meeting of `meeting` kind: the
    /// bylaws' own where they apply (unlisted company), else the legal one.
    pub fn effective_majority(&self, kind: MatterKind, meeting: MeetingKind) -> Majority {
        let rules = self.matter(kind);
        match rules.bylaws.majority {
            Some(bylaw)
                if !self.settings.listed
                    && rules.bylaws.majority_only_in.is_none_or(|only| only == meeting) =>
            {
                bylaw
            }
            _ => rules.majority,
        }
    }

    /// Whether `kind` needs the first-call quorum test on this `call`.
    pub fn needs_first_call_quorum(&self, kind: MatterKind, call: Call) -> bool {
        call == Call::First || (!self.settings.listed && self.matter(kind).bylaws.first_call_quorum)
    }
}
