//! `asamblea simulate`: a whole meeting played on the files — arrivals
//! (some by proxy), the installation, every item opened, voted by badges
//! signed on every core, and closed.

use super::*;

/// Proxy number `n` of a simulated or demo meeting arrives for `principals`.
pub(super) fn check_in_proxy(service: &mut Service, n: u32, principals: &[String]) -> Result<()> {
    // A register row with no share is not checked in (the desk refuses
    // it: `VenueError::NoShares`).
    let principals: Vec<&str> = principals
        .iter()
        .map(String::as_str)
        .filter(|holder| service.holder_without_shares(&[holder]).is_none())
        .collect();
    if principals.is_empty() {
        return Ok(());
    }
    service.check_in_agent(&format!("APODERADO-{n}"), &principals, Capacity::Proxy, None, "poder escrito")?;
    Ok(())
}

/// A small deterministic generator for the simulation.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Acknowledgements still owed by the ledger writer for events queued
/// without waiting (`simulate`'s bulk work: one fsync per batch, not per
/// event).
struct Owed {
    sender: std::sync::mpsc::Sender<Result<(), asamblea_ledger::LedgerError>>,
    receiver: std::sync::mpsc::Receiver<Result<(), asamblea_ledger::LedgerError>>,
    count: usize,
}

impl Owed {
    fn new() -> Owed {
        let (sender, receiver) = std::sync::mpsc::channel();
        Owed { sender, receiver, count: 0 }
    }

    /// The completion of one more queued event.
    fn one(&mut self) -> asamblea_ledger::Completion {
        self.count += 1;
        let sender = self.sender.clone();
        Box::new(move |result| {
            let _ = sender.send(result.map(|_| ()));
        })
    }

    /// Waits until every event queued so far is durable.
    fn settle(&mut self) -> Result<()> {
        for _ in 0..std::mem::take(&mut self.count) {
            self.receiver.recv().context("el escritor del libro se detuvo / the ledger writer stopped")??;
        }
        Ok(())
    }
}

/// `asamblea simulate DIR`: runs the whole agenda with simulated kiosks —
/// check-ins, proxies, badges, real signed ballots, closes, results, lots.
/// Each event goes through the same checks as the daemon's; events are
/// queued on the group-committing writer (as the daemon's kiosks' are),
/// and every one is durable before the item closes.
pub fn simulate(dir: &Path, seed: u64, attendance_percent: u64, out: &mut dyn Write) -> Result<()> {
    // The simulated meeting's time: the system's, moved forward where the
    // poll timing makes a close wait (rules.md §11.5). A simulation waits
    // for nobody, and its ledger still shows every close as the law lets
    // it come: announced, the countdown run, the minimum open time past.
    let ahead = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let wall = || {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
    };
    let clock_ahead = std::sync::Arc::clone(&ahead);
    let clock = Box::new(move || wall() + clock_ahead.load(std::sync::atomic::Ordering::Relaxed));
    let mut service = Service::open_with_clock(dir, clock)?;
    let mut rng = XorShift(seed.max(1));
    let mut owed = Owed::new();
    let ids: Vec<String> = service.meeting().register().iter().map(|(_, h)| h.id().to_string()).collect();
    // Arrivals: most in person, some in groups of three through a proxy.
    let mut proxies = 0;
    let mut waiting: Vec<String> = Vec::new();
    let bar = progress_bar(ids.len() as u64, "Registrando asistentes");
    for id in &ids {
        bar.inc(1);
        if service.meeting().presence().is_present(service.meeting().register().lookup(id).expect("own id")) {
            continue;
        }
        if rng.below(100) >= attendance_percent {
            continue;
        }
        if rng.below(10) == 0 {
            waiting.push(id.clone());
            if waiting.len() == 3 {
                proxies += 1;
                check_in_proxy(&mut service, proxies, &waiting)?;
                waiting.clear();
            }
        } else if service.holder_without_shares(&[id]).is_none() {
            // (A row with no share is not checked in: the desk refuses it.)
            let done = owed.one();
            service.queue_staff_event(EventBody::CheckedInPerson { holder: Id::new(id)? }, done)?;
        }
    }
    owed.settle()?;
    bar.finish_and_clear();
    let people = service.attendees();
    let mut credentials = Vec::new();
    let bar = progress_bar(people.len() as u64, "Entregando credenciales");
    for attendee in &people {
        bar.inc(1);
        // `simulate` plays the desk too: it draws each seed itself.
        let seed = asamblea_kiosk::BadgeSeed::draw(&service.meeting_id())?;
        let number = CredentialId(service.state().badges_issued() + 1);
        let body = EventBody::BadgeIssued {
            credential: number,
            key: seed.public_key(),
            person: Id::new(&attendee.person)?,
        };
        let done = owed.one();
        service.queue_staff_event(body, done)?;
        credentials.push((seed.numbered(number), attendee.carries.clone()));
    }
    owed.settle()?;
    bar.finish_and_clear();
    let quorum = service.meeting().quorum();
    writeln!(
        out,
        "Asistencia: {} acciones de {} ({} accionistas, {} personas, {} apoderados)",
        thousands(quorum.present.get()),
        thousands(quorum.voting_outstanding.get()),
        thousands(u64::from(quorum.holders)),
        people.len(),
        proxies
    )?;
    // The chair installs the meeting, the quorum verified, before any poll.
    match service.session_step(asamblea_rules::SessionStep::Installed, "") {
        Ok(_) => writeln!(out, "Reunión instalada / meeting installed")?,
        Err(e) => writeln!(out, "La reunión no se instala / the meeting is not installed: {e}")?,
    }
    let agenda: Vec<String> = service.agenda().iter().map(|a| a.item.as_str().to_string()).collect();
    let mut ballots = 0u64;
    let meeting_id = service.meeting_id();
    for item in &agenda {
        if let Err(e) = service.open_item(item) {
            writeln!(out, "▶ {item}: no se abre / not opened: {e}")?;
            continue;
        }
        let at = service.meeting().item_index(item).expect("opened");
        let options = service.meeting().item(at).option_count() as u64;
        // The choices, in order; then the signatures, on every core.
        let mut cast = Vec::new();
        for (credential, carried) in &credentials {
            let mut votes = Vec::new();
            for holder in carried {
                // Most vote the first option; the rest spread out.
                let option = if rng.below(3) == 0 { rng.below(options) } else { 0 };
                let ballot = asamblea_rules::Ballot::Whole(Some(OptionIndex::list(option as usize)));
                let h = service.meeting().register().lookup(holder).expect("own id");
                if service.meeting().check_cast(at, h, &ballot).is_ok() {
                    votes.push(HolderVote {
                        holder: Id::new(holder)?,
                        choice: Choice::Whole(OptionIndex::list(option as usize)),
                    });
                }
            }
            if !votes.is_empty() {
                cast.push((credential, votes));
            }
        }
        let bar = progress_bar(cast.len() as u64, "Votando");
        let signed = sign_on_every_core(cast, |(credential, votes)| {
            Ok(asamblea_venue::service::sign_ballot(&meeting_id, credential, item, votes)?)
        })?;
        for ballot in signed {
            bar.inc(1);
            let done = owed.one();
            service.queue_ballot(ballot, done).map_err(|rejection| anyhow::anyhow!("{item}: {rejection}"))?;
            ballots += 1;
        }
        owed.settle()?;
        bar.finish_and_clear();
        if let Some(timing) = service.state().poll_timing() {
            if timing.requires_announcement() {
                service.announce_close(item, timing.min_countdown_ms)?;
            }
            let earliest = service.state().earliest_close(item).expect("announced");
            let now = wall() + ahead.load(std::sync::atomic::Ordering::Relaxed);
            ahead.fetch_add(earliest.saturating_sub(now), std::sync::atomic::Ordering::Relaxed);
        }
        let (checkpoint, _) = service.close_item(item)?;
        let entry = service.meeting().item(at);
        writeln!(
            out,
            "▶ {item} — {}: {} · punto de control / checkpoint {}:{}",
            entry.matter().spanish(),
            entry.outcome().spanish().to_uppercase(),
            checkpoint.seq,
            hex(&checkpoint.head.0)
        )?;
        if let Some(line) = figures_line(entry) {
            writeln!(out, "    {line}")?;
        }
    }
    writeln!(out, "Papeletas firmadas / signed ballots: {}", thousands(ballots))?;
    service.close();
    Ok(())
}

/// `f` of every item, in order, on every core.
pub(super) fn sign_on_every_core<T: Send, R: Send>(
    items: Vec<T>,
    f: impl Fn(T) -> Result<R> + Sync,
) -> Result<Vec<R>> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let chunk = items.len().div_ceil(cores).max(1);
    let mut parts = Vec::new();
    let mut items = items.into_iter();
    loop {
        let part: Vec<T> = items.by_ref().take(chunk).collect();
        if part.is_empty() {
            break;
        }
        parts.push(part);
    }
    let f = &f;
    std::thread::scope(|scope| {
        let workers: Vec<_> = parts
            .into_iter()
            .map(|part| scope.spawn(move || part.into_iter().map(f).collect::<Result<Vec<R>>>()))
            .collect();
        let mut all = Vec::new();
        for worker in workers {
            all.extend(worker.join().map_err(|_| {
                anyhow::anyhow!("un hilo de firma falló (panic) / a signing thread panicked")
            })??);
        }
        Ok(all)
    })
}
