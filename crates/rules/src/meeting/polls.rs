//! Polls: opening an item, judging and counting a ballot, closing, and
//! the lot that settles a tie.

use super::*;

impl Meeting {
    /// Opens a poll. Refused when the id was opened before (R16), when the
    /// matter needed the notice (R17), or without quorum (R3, R4).
    pub fn open(&mut self, spec: ItemSpec) -> Result<ItemIndex, Refusal> {
        self.check_open(&spec)?;
        let matter = spec.matter;
        let first_call_quorum = self.profile.needs_first_call_quorum(matter, self.call);
        let options = match &spec.options {
            BallotOptions::Decision => 3,
            BallotOptions::Election { lists, .. } => lists.len() + 1,
        };
        let at = ItemIndex(u32::try_from(self.items.len()).expect("fewer items than u32::MAX"));
        self.item_index.insert(spec.id.clone(), at);
        self.items.push(Item {
            majority: self.profile.effective_majority(matter, self.kind),
            first_call_quorum,
            quorum_at_open: true,
            marks: vec![0; self.register.len()],
            totals: vec![Shares::ZERO; options],
            for_by_class: ClassShares::default(),
            holders_for: 0,
            ballots: 0,
            result: None,
            spec,
        });
        let point = self.quorum_point(at, PollMoment::Opened);
        self.quorum_series.push(point);
        Ok(at)
    }

    /// Whether [`Meeting::open`] would open `spec`, changing nothing: the
    /// refusal it would give, in FORMAT.md's order.
    pub fn check_open(&self, spec: &ItemSpec) -> Result<(), Refusal> {
        if self.item_index.contains_key(&spec.id) {
            return Err(Refusal::ItemAlreadyDecided);
        }
        let matter = spec.matter;
        let rules = *self.profile.matter(matter);
        let universal =
            !self.voting_outstanding.is_zero() && self.presence.voting_shares() == self.voting_outstanding;
        if !spec.noticed && !universal {
            let extraordinary_refuses =
                self.kind == MeetingKind::Extraordinary && !matter.allowed_unnoticed_in_extraordinary();
            if rules.notice_required || extraordinary_refuses {
                return Err(Refusal::NotInNotice);
            }
        }
        let first_call_quorum = self.profile.needs_first_call_quorum(matter, self.call);
        if !self.quorum_met(self.presence.voting_shares(), self.presence.voting_holders(), first_call_quorum)
        {
            return Err(Refusal::NoQuorum);
        }
        Ok(())
    }

    /// A ballot, by ids and option names, with every check in FORMAT.md's
    /// order.
    pub fn vote(&mut self, item: &str, holder: &str, ballot: &Ballot) -> Result<(), Refusal> {
        let item = self.item_index(item).ok_or(Refusal::UnknownItem)?;
        if self.items[item.get()].is_closed() {
            return Err(Refusal::ItemClosed);
        }
        let holder = self.register.lookup(holder).ok_or(Refusal::UnknownHolder)?;
        self.cast(item, holder, ballot)
    }

    /// A ballot by positions: the hot path. Judged by
    /// [`Meeting::check_cast`], then counted.
    pub fn cast(&mut self, item: ItemIndex, holder: HolderIndex, ballot: &Ballot) -> Result<(), Refusal> {
        let shares = self.judge(item, holder, ballot)?;
        self.count(item, holder, ballot, shares);
        Ok(())
    }

    /// Whether [`Meeting::cast`] would accept this ballot, changing nothing.
    /// A ballot for several holders (an agent's) is accepted whole or not
    /// at all by checking each holder's part first.
    pub fn check_cast(&self, item: ItemIndex, holder: HolderIndex, ballot: &Ballot) -> Result<(), Refusal> {
        self.judge(item, holder, ballot).map(drop)
    }

    /// Every check of a ballot, in FORMAT.md's order; the holder's shares
    /// on the item when it is accepted.
    pub(super) fn judge(
        &self,
        item: ItemIndex,
        holder: HolderIndex,
        ballot: &Ballot,
    ) -> Result<ClassShares, Refusal> {
        let settings = self.profile.settings();
        let entry = &self.items[item.get()];
        if entry.is_closed() {
            return Err(Refusal::ItemClosed);
        }
        let channel = self.presence.channel(holder);
        if channel == Channel::Absent {
            return Err(Refusal::NotPresent);
        }
        let record = self.register.holder(holder);
        let rules = self.profile.matter(entry.spec.matter);
        let shares = item_shares(record.holdings(), rules, settings);
        if shares.total().is_zero()
            || (rules.administrators_barred && impeded(record.role(), channel, settings))
        {
            return Err(Refusal::NotEligible);
        }
        if entry.marks[holder.get()] & VOTED != 0 {
            return Err(Refusal::AlreadyVoted);
        }
        let options = entry.totals.len();
        match ballot {
            Ballot::Whole(option) => match option {
                Some(option) if option.get() < options => Ok(shares),
                _ => Err(Refusal::UnknownOption),
            },
            Ballot::Split(parts) => {
                let allowed = match record.split() {
                    Some(SplitPermission::Dismembered) => true,
                    Some(SplitPermission::OmnibusCustodian) => settings.split_custodians,
                    None => false,
                };
                let both_classes = !shares.ordinary.is_zero() && !shares.preferred.is_zero();
                if !allowed || (rules.preferred_votes && both_classes) || parts.is_empty() {
                    return Err(Refusal::SplitNotAllowed);
                }
                let mut sum: u128 = 0;
                for (i, (option, part)) in parts.iter().enumerate() {
                    let Some(option) = option else { return Err(Refusal::SplitNotAllowed) };
                    if option.get() >= options || parts[..i].iter().any(|(o, _)| o == &Some(*option)) {
                        return Err(Refusal::SplitNotAllowed);
                    }
                    sum += part.wide();
                }
                if sum != shares.total().wide() {
                    return Err(Refusal::SplitNotAllowed);
                }
                Ok(shares)
            }
        }
    }

    /// Adds a judged ballot to the item's running totals.
    pub(super) fn count(
        &mut self,
        item: ItemIndex,
        holder: HolderIndex,
        ballot: &Ballot,
        shares: ClassShares,
    ) {
        let entry = &mut self.items[item.get()];
        let is_decision = matches!(entry.spec.options, BallotOptions::Decision);
        let mut mark = VOTED;
        let mut add = |option: OptionIndex, part: Shares, by_class: ClassShares| {
            entry.totals[option.get()] += part;
            if is_decision && option == OptionIndex::FOR && !part.is_zero() {
                entry.holders_for += 1;
                entry.for_by_class.ordinary += by_class.ordinary;
                entry.for_by_class.preferred += by_class.preferred;
            }
            if is_decision && option == OptionIndex::AGAINST && !part.is_zero() {
                mark |= VOTED_AGAINST;
            }
        };
        match ballot {
            Ballot::Whole(option) => add(option.expect("judged"), shares.total(), shares),
            Ballot::Split(parts) => {
                for (option, part) in parts {
                    // A split on a preferred item holds one class only
                    // (judge refuses two), so the part is that class's.
                    let by_class = if shares.ordinary.is_zero() {
                        ClassShares::new(Shares::ZERO, *part)
                    } else {
                        ClassShares::new(*part, Shares::ZERO)
                    };
                    add(option.expect("judged"), *part, by_class);
                }
            }
        }
        entry.marks[holder.get()] = mark;
        entry.ballots += 1;
    }

    /// Closes a poll and computes its result.
    pub fn close(&mut self, item: &str) -> Result<(), Refusal> {
        let at = self.item_index(item).ok_or(Refusal::UnknownItem)?;
        if self.items[at.get()].is_closed() {
            return Err(Refusal::ItemClosed);
        }
        let result = self.result_at_close(&self.items[at.get()]);
        self.items[at.get()].result = Some(result);
        let point = self.quorum_point(at, PollMoment::Closed);
        self.quorum_series.push(point);
        Ok(())
    }

    /// Records a lot draw (suerte, R15): one seat to `winner`, who must be
    /// among the tied lists.
    pub fn draw(&mut self, item: &str, winner: &str) -> Result<(), Refusal> {
        let at = self.item_index(item).ok_or(Refusal::UnknownItem)?;
        let entry = &mut self.items[at.get()];
        let option = entry.option(winner);
        let Some(ItemResult::Election(result)) = &mut entry.result else { return Err(Refusal::NoLotPending) };
        if result.outcome != Outcome::LotRequired {
            return Err(Refusal::NoLotPending);
        }
        let position = option
            .and_then(|o| result.lot_between.iter().position(|&l| l == o.get()))
            .ok_or(Refusal::UnknownOption)?;
        let list = result.lot_between.remove(position);
        if let Some(seats) = &mut result.seats {
            seats[list] += 1;
        }
        result.seats_to_draw -= 1;
        if result.seats_to_draw == 0 {
            result.lot_between.clear();
            result.outcome = Outcome::Elected;
        }
        Ok(())
    }
}
