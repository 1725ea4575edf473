//! A scenario recorded the way the daemon records a meeting, and exported
//! as its audit bundle (`asamblea scenario --bundle DIR FILE…`).
//!
//! The scenario becomes a meeting directory (its `meeting.toml`, with the
//! agenda of every item the scenario opens, and its register CSV), and its
//! steps become the daemon's own actions on it (`asamblea_venue::service::
//! Service`): check-ins (a proxy the rules refuse is recorded as
//! `proxy-refused`), exits, polls opened and closed, and ballots signed
//! with badge keys the desk draws for each voter at their first vote. A
//! step the rules refuse records nothing, as in the daemon. So the bundle
//! is what a meeting run that way would export, and any verifier — ours or
//! one written from `docs/` — can be run over every rule path the
//! scenarios reach.
//!
//! Steps the rules refuse are not played (the daemon would record nothing
//! for them), but a refused proxy is, so that its `proxy-refused` is
//! recorded. An item a scenario tries to open more than once (refused
//! unnoticed, then noticed) is convened as the open the rules accepted.
//!
//! One difference is on purpose: lots. A scenario names each draw's winner
//! (`draw`); the daemon draws every lot from the chain when the item
//! closes (ledger-format §7.3), so the exported bundle carries the chain's
//! winners, and a scenario's `draw` steps record nothing.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result};
use asamblea_ledger::Bundle;
use asamblea_rules::{BallotOptions, Call, Channel, ItemSpec, MeetingKind, Role, SplitPermission};
use asamblea_venue::lock::MeetingLock;
use asamblea_venue::service::{MeetingFiles, NewMeeting, Service};
use asamblea_wire::{Choice, Credential, EventBody, HolderVote, Id, SplitPart};

use super::parse::{Scenario, Step, VoteChoice};

/// Records `scenario` into a new meeting directory `dir` (which must not
/// exist) and returns its audit bundle. The meeting's key folder is made
/// as for any meeting; the caller removes both.
pub fn record(scenario: &Scenario, dir: &Path) -> Result<Bundle> {
    let verdicts = super::replay(scenario).verdicts;
    let new = NewMeeting::check(
        "meeting.toml (from the scenario)",
        &meeting_toml(scenario, &verdicts),
        "register.csv (from the scenario)",
        register_csv(scenario).as_bytes(),
        |_| {},
    )?;
    asamblea_venue::secrets::create_private_dir(dir)?;
    let mut service = Service::init(dir, MeetingLock::acquire_fresh_or_explain(dir)?, new)?;
    let meeting_id = service.meeting_id();
    // Each voter's badge, drawn at their first ballot.
    let mut badges: HashMap<String, Credential> = HashMap::new();
    for (index, (step, verdict)) in scenario.steps.iter().zip(&verdicts).enumerate() {
        if verdict.is_err() && !matches!(step, Step::ArriveAsAgent { .. }) {
            continue;
        }
        // The daemon's action must agree with the rules' verdict on the
        // scenario (a refused proxy is refused here too, and recorded).
        let done = match step {
            Step::ArriveInPerson(holder) => service.check_in(holder).map(drop).map_err(anyhow::Error::from),
            Step::ArriveAsAgent { agent, represents, capacity, agent_role } => {
                let principals: Vec<&str> = represents.iter().map(String::as_str).collect();
                service
                    .check_in_agent(agent, &principals, *capacity, *agent_role, "")
                    .map(drop)
                    .map_err(anyhow::Error::from)
            }
            Step::Leave(person) => Id::new(person)
                .map_err(anyhow::Error::from)
                .and_then(|person| Ok(service.staff_event(EventBody::CheckedOut { person }).map(drop)?)),
            Step::Open(spec) => {
                // The chair installs the meeting before its first poll, as
                // at a real meeting; without quorum the open is refused
                // anyway (the scenario's own verdict).
                if service.state().sessions().state() == asamblea_rules::SessionState::NotInstalled {
                    let _ = service.session_step(asamblea_rules::SessionStep::Installed, "");
                }
                service.open_item(spec.id()).map(drop).map_err(anyhow::Error::from)
            }
            Step::Vote { item, holder, choice } => {
                vote(&mut service, &meeting_id, &mut badges, item, holder, choice)
            }
            Step::Close(item) => service.close_item(item).map(drop).map_err(anyhow::Error::from),
            Step::Draw { .. } => Ok(()),
        };
        if let (Ok(()), Err(e)) = (verdict, &done) {
            anyhow::bail!("paso {index}: las reglas lo aceptan pero la acción del daemon falló / step {index}: the rules accept it but the daemon's action failed: {e:#}");
        }
        if let (Err(refusal), Ok(())) = (verdict, &done) {
            anyhow::bail!(
                "paso {index}: las reglas lo rechazan ({0}) pero el daemon lo registró / step {index}: the rules refuse it ({0}) but the daemon recorded it",
                refusal.code()
            );
        }
    }
    service.close();
    Ok(MeetingFiles::export(dir)?)
}

/// A ballot for `holder` on `item`, signed with the badge of the person
/// who carries the holder now (issued at their first ballot).
fn vote(
    service: &mut Service,
    meeting_id: &asamblea_wire::MeetingId,
    badges: &mut HashMap<String, Credential>,
    item: &str,
    holder: &str,
    choice: &VoteChoice,
) -> Result<()> {
    let meeting = service.meeting();
    let at = meeting.register().lookup(holder).context("no figura en el registro / not in the register")?;
    let person = match meeting.presence().channel(at) {
        Channel::Absent => anyhow::bail!("no está presente / not present"),
        Channel::InPerson => holder.to_string(),
        Channel::Agent { agent, .. } => meeting.presence().agent_id(agent).to_string(),
    };
    let entry = meeting.item_index(item).map(|i| meeting.item(i)).context("no está abierto / not opened")?;
    let option = |name: &str| {
        entry.option(name).with_context(|| format!("`{name}` no está en la papeleta / is not on the ballot"))
    };
    let choice = match choice {
        VoteChoice::Whole(name) => Choice::Whole(option(name)?),
        VoteChoice::Split(parts) => {
            let mut parts = parts
                .iter()
                .map(|(name, shares)| Ok(SplitPart { option: option(name)?, shares: *shares }))
                .collect::<Result<Vec<_>>>()?;
            parts.sort_by_key(|p| p.option);
            Choice::Split(parts)
        }
    };
    if !badges.contains_key(&person) {
        let seed = asamblea_kiosk::BadgeSeed::draw(meeting_id)?;
        let (number, _) = service.issue_badge(&person, seed.public_key())?;
        badges.insert(person.clone(), seed.numbered(number));
    }
    let credential = &badges[&person];
    service.cast(credential, item, vec![HolderVote { holder: Id::new(holder)?, choice }])?;
    Ok(())
}

/// `text` as a TOML string.
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// The scenario's meeting as `meeting.toml`: its kind, call, profile and
/// settings, its capital, and an agenda of every item it opens, in order,
/// each as the open the rules accepted (`verdicts`), else its first.
fn meeting_toml(scenario: &Scenario, verdicts: &[Result<(), asamblea_rules::Refusal>]) -> String {
    let kind = match scenario.meeting {
        MeetingKind::Ordinary => "ordinary",
        MeetingKind::Extraordinary => "extraordinary",
    };
    // A meeting convened 15 business days ahead of 25 March 2027, within
    // the ordinary window; by own right, on its day (C.Co. art. 422) and
    // with no notice.
    let (call, date, notice) = match scenario.call {
        Call::First => ("first", "2027-03-25", "convened_by = \"Escenario\"\nconvened_on = \"2027-03-02\"\n"),
        Call::Second => {
            ("second", "2027-03-25", "convened_by = \"Escenario\"\nconvened_on = \"2027-03-02\"\n")
        }
        Call::OwnRight => ("own-right", "2027-04-01", ""),
    };
    let settings = scenario.profile.settings();
    let capital = scenario.register.capital();
    let mut toml = format!(
        "# Generated from a conformance scenario by `asamblea scenario --bundle`.\n\
         company = \"Escenario de conformidad S.A.\"\nnit = \"900.000.000-1\"\n\
         kind = \"{kind}\"\ncall = \"{call}\"\ndate = \"{date}\"\ntime = \"10:00\"\n\
         place = \"Bogotá D.C.\"\n{notice}\
         profile = {}\n\n[settings]\nquorum = \"{}\"\nbase = \"{}\"\nlisted = {}\n\
         pref_full_vote = {}\nsplit_custodians = {}\n\
         poll_minimum_open_seconds = 0\npoll_minimum_countdown_seconds = 0\n\n[capital]\n\
         ORD = {{ subscribed = {}, treasury = {} }}\nPREF = {{ subscribed = {}, treasury = {} }}\n",
        quoted(scenario.profile.name()),
        settings.quorum.code(),
        settings.base.code(),
        settings.listed,
        settings.preferred_full_vote,
        settings.split_custodians,
        capital.ordinary.subscribed().get(),
        capital.ordinary.treasury().get(),
        capital.preferred.subscribed().get(),
        capital.preferred.treasury().get(),
    );
    let mut agenda: Vec<(&ItemSpec, bool)> = Vec::new();
    for (step, verdict) in scenario.steps.iter().zip(verdicts) {
        if let Step::Open(spec) = step {
            match agenda.iter_mut().find(|(a, _)| a.id() == spec.id()) {
                None => agenda.push((spec, verdict.is_ok())),
                Some(entry) if !entry.1 && verdict.is_ok() => *entry = (spec, true),
                Some(_) => {}
            }
        }
    }
    let agenda = agenda.into_iter().map(|(spec, _)| spec);
    for spec in agenda {
        toml.push_str(&format!(
            "\n[[agenda]]\nid = {}\ntitle = {}\nmatter = \"{}\"\nnoticed = {}\n",
            quoted(spec.id()),
            quoted(&format!("Punto {}", spec.id())),
            spec.matter().code(),
            spec.noticed()
        ));
        if let BallotOptions::Election { seats, lists } = spec.options() {
            let lists: Vec<String> = lists.iter().map(|l| quoted(l)).collect();
            toml.push_str(&format!("seats = {seats}\nlists = [{}]\n", lists.join(", ")));
        }
    }
    toml
}

/// The scenario's register as the register CSV (one row per holder and
/// class it holds; a holder of nothing gets one row of 0 ordinary shares).
fn register_csv(scenario: &Scenario) -> String {
    let mut csv = String::from("holder_id,name,class,shares,role,split\n");
    for (_, holder) in scenario.register.iter() {
        let role = match holder.role() {
            None => "",
            Some(Role::Administrator) => "administrator",
            Some(Role::Employee) => "employee",
        };
        let split = match holder.split() {
            None => "",
            Some(SplitPermission::OmnibusCustodian) => "omnibus-custodian",
            Some(SplitPermission::Dismembered) => "dismembered",
        };
        let shares = holder.holdings();
        let mut rows = Vec::new();
        if !shares.preferred.is_zero() {
            rows.push(("PREF", shares.preferred.get()));
        }
        if !shares.ordinary.is_zero() || rows.is_empty() {
            rows.insert(0, ("ORD", shares.ordinary.get()));
        }
        for (class, count) in rows {
            csv.push_str(&format!("{},{},{class},{count},{role},{split}\n", holder.id(), holder.id()));
        }
    }
    // A scenario may name fewer shares than its capital (the holders it
    // needs); a register must hold them all (`init` refuses it otherwise,
    // docs/register.md): the rest is one holder who never comes, which
    // changes no quorum, base or majority (all counted on the capital).
    let outstanding = scenario.register.capital().outstanding();
    let mut held = (0u64, 0u64);
    for (_, holder) in scenario.register.iter() {
        held.0 += holder.holdings().ordinary.get();
        held.1 += holder.holdings().preferred.get();
    }
    for (class, missing) in
        [("ORD", outstanding.ordinary.get() - held.0), ("PREF", outstanding.preferred.get() - held.1)]
    {
        if missing > 0 {
            csv.push_str(&format!(
                "RESTO-DEL-LIBRO-{class},Accionistas que el escenario no nombra,{class},{missing},,\n"
            ));
        }
    }
    csv
}
