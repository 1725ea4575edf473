//! Reading a scenario file (scenarios/FORMAT.md) into a [`Scenario`].
//!
//! Everything FORMAT.md calls invalid is refused here, before a single step
//! runs, with the file, the step index and the key: unknown keys, a step
//! with no action or two, negative numbers, unknown profiles or matters,
//! and the cross-field rules (seats and lists only on elections, and so
//! on). Steps the rules refuse are not errors of the file.

use std::fmt;

use asamblea_rules::{
    Call, Capacity, ClassShares, HolderSpec, ItemSpec, MeetingKind, Profile, Register, RegisterError, Role,
    Shares, SplitPermission,
};

use asamblea_venue::fields::{self, FieldError, Fields};
use asamblea_venue::profiles::{self, read_settings};
use asamblea_venue::spec::{read_capital, read_open};

/// A parsed, validated scenario.
#[derive(Debug)]
pub struct Scenario {
    /// Free text.
    pub title: String,
    /// The profile with the scenario's settings applied.
    pub profile: Profile,
    /// Ordinary or extraordinary.
    pub meeting: MeetingKind,
    /// Which call.
    pub call: Call,
    /// The register.
    pub register: Register,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The `[expect]` table as JSON, if any.
    pub expect: Option<serde_json::Value>,
}

/// One step of a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A holder arrives in person.
    ArriveInPerson(String),
    /// An agent arrives with principals.
    ArriveAsAgent {
        /// The agent's id.
        agent: String,
        /// The holders it represents.
        represents: Vec<String>,
        /// Proxy or legal representative.
        capacity: Capacity,
        /// The agent's declared role.
        agent_role: Option<Role>,
    },
    /// Someone leaves.
    Leave(String),
    /// A poll opens.
    Open(ItemSpec),
    /// A ballot.
    Vote {
        /// The item id.
        item: String,
        /// The holder voting.
        holder: String,
        /// The choice.
        choice: VoteChoice,
    },
    /// A poll closes.
    Close(String),
    /// A recorded lot draw.
    Draw {
        /// The item id.
        item: String,
        /// The list that takes the seat.
        winner: String,
    },
}

/// A ballot's content by option name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VoteChoice {
    /// One option.
    Whole(String),
    /// Parts, in file order.
    Split(Vec<(String, Shares)>),
}

/// Where in a scenario file a defect is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// The file as a whole (TOML syntax).
    File,
    /// A top-level key or table.
    Top,
    /// A `[[holder]]`, by index from 0.
    Holder(usize),
    /// A `[[step]]`, by index from 0, with its line when known.
    Step {
        /// Index from 0, as in the output's `steps`.
        index: usize,
        /// The line of its `[[step]]` header, from 1.
        line: Option<usize>,
    },
}

/// A scenario file that is not valid: exit status 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The file, as given.
    pub file: String,
    /// Where in it.
    pub place: Place,
    /// The key and what is wrong.
    pub error: FieldError,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.file)?;
        match self.place {
            Place::File | Place::Top => {}
            Place::Holder(i) => write!(f, "accionista / holder[{i}]: ")?,
            Place::Step { index, line: Some(line) } => {
                write!(f, "paso / step[{index}] (línea / line {line}): ")?
            }
            Place::Step { index, line: None } => write!(f, "paso / step[{index}]: ")?,
        }
        write!(f, "{}", self.error)
    }
}

impl std::error::Error for ScenarioError {}

/// Parses and validates a scenario; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<Scenario, ScenarioError> {
    let fail = |place: Place, error: FieldError| ScenarioError { file: file.to_string(), place, error };
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        fail(
            Place::File,
            FieldError {
                key: String::new(),
                message: format!("el archivo no es TOML válido / not valid TOML: {e}"),
            },
        )
    })?;
    let mut top = Fields::new(&table, "");
    let at_top = |e| fail(Place::Top, e);

    let title = top.string("title").map_err(at_top)?.unwrap_or_default().to_string();
    let profile_name = top.required_string("profile").map_err(at_top)?;
    let profile = profiles::embedded(profile_name)
        .map_err(|e| at_top(FieldError { key: "profile".into(), message: e.to_string() }))?;
    let meeting = top
        .choice("meeting", &["ordinary", "extraordinary"], MeetingKind::from_code)
        .map_err(at_top)?
        .unwrap_or(MeetingKind::Ordinary);
    let call = top
        .choice("call", &["first", "second", "own-right"], Call::from_code)
        .map_err(at_top)?
        .unwrap_or(Call::First);
    let settings = match top.table("settings").map_err(at_top)? {
        Some(t) => read_settings(t, "settings", profile.settings(), false).map_err(at_top)?,
        None => profile.settings(),
    };
    let profile = profile.with_settings(settings);
    let capital = read_capital(&mut top).map_err(at_top)?;

    let mut holders = Vec::new();
    for (i, value) in top.array("holder").map_err(at_top)?.unwrap_or_default().iter().enumerate() {
        holders.push(read_holder(value).map_err(|e| fail(Place::Holder(i), e))?);
    }
    let register = Register::new(capital, holders.clone()).map_err(|e| register_error(e, &holders, &fail))?;

    let step_lines = step_header_lines(text);
    let mut steps = Vec::new();
    for (index, value) in top.array("step").map_err(at_top)?.unwrap_or_default().iter().enumerate() {
        let place = Place::Step { index, line: step_lines.get(index).copied() };
        steps.push(read_step(value).map_err(|e| fail(place, e))?);
    }

    let expect = match top.table("expect").map_err(at_top)? {
        None => None,
        Some(t) => {
            let mut f = Fields::new(t, "expect");
            f.array("steps").map_err(at_top)?;
            f.table("items").map_err(at_top)?;
            f.table("presence").map_err(at_top)?;
            f.finish().map_err(at_top)?;
            Some(to_json(&toml::Value::Table(t.clone()), "expect").map_err(at_top)?)
        }
    };
    top.finish().map_err(at_top)?;
    Ok(Scenario { title, profile, meeting, call, register, steps, expect })
}

fn read_holder(value: &toml::Value) -> Result<HolderSpec, FieldError> {
    let table = value.as_table().ok_or_else(|| FieldError {
        key: String::new(),
        message: "un accionista debe ser una tabla / a holder must be a table".into(),
    })?;
    let mut f = Fields::new(table, "");
    let id = f.required_string("id")?;
    if id.is_empty() {
        return Err(f.error("id", NOT_EMPTY));
    }
    let shares = f.table("shares")?.ok_or_else(|| f.missing("shares"))?;
    let mut s = Fields::new(shares, "shares");
    let ordinary = s.count("ORD")?.unwrap_or(0);
    let preferred = s.count("PREF")?.unwrap_or(0);
    s.finish()?;
    let role = f.choice("role", &["administrator", "employee"], Role::from_code)?;
    let split = f.choice("split", &["omnibus-custodian", "dismembered"], SplitPermission::from_code)?;
    f.finish()?;
    Ok(HolderSpec {
        id: id.to_string(),
        holdings: ClassShares::new(Shares::new(ordinary), Shares::new(preferred)),
        role,
        split,
    })
}

fn register_error(
    error: RegisterError,
    holders: &[HolderSpec],
    fail: &dyn Fn(Place, FieldError) -> ScenarioError,
) -> ScenarioError {
    // The rules engine says what is wrong in English; the Spanish goes
    // first, as in the register's own reader (`asamblea_venue::register_csv`).
    let message = |spanish: String| format!("{spanish} / {error}");
    match &error {
        RegisterError::DuplicateHolder { id } => {
            let second = holders.iter().enumerate().filter(|(_, h)| &h.id == id).nth(1).map_or(0, |(i, _)| i);
            let message = message(format!("el accionista `{id}` aparece dos veces"));
            fail(Place::Holder(second), FieldError { key: "id".into(), message })
        }
        RegisterError::HoldingsExceedOutstanding { class, held, outstanding } => fail(
            Place::Top,
            FieldError {
                key: format!("capital.{}", class.code()),
                message: message(format!(
                    "los accionistas tienen {held} acciones {} y solo hay {outstanding} en circulación",
                    class.code()
                )),
            },
        ),
        _ => fail(
            Place::Top,
            FieldError {
                key: "capital".into(),
                message: message("el registro no cuadra con el capital".to_string()),
            },
        ),
    }
}

/// The message of a text that must hold something.
const NOT_EMPTY: &str = "no puede estar vacío / must not be empty";

const ACTIONS: [&str; 6] = ["arrive", "leave", "open", "vote", "close", "draw"];

fn read_step(value: &toml::Value) -> Result<Step, FieldError> {
    let table = value.as_table().ok_or_else(|| FieldError {
        key: String::new(),
        message: "un paso debe ser una tabla / a step must be a table".into(),
    })?;
    let mut f = Fields::new(table, "");
    let actions: Vec<&str> = ACTIONS.into_iter().filter(|a| f.has(a)).collect();
    let action = match actions.as_slice() {
        [one] => *one,
        [] => {
            return Err(FieldError {
                key: String::new(),
                message: format!(
                    "el paso no tiene acción: necesita exactamente una de {0} / the step has no action: it needs exactly one of {0}",
                    ACTIONS.join(", ")
                ),
            })
        }
        [first, second, ..] => {
            return Err(
                f.error(
                    second,
                    format!(
                        "un paso lleva exactamente una acción, y este también tiene `{first}` / \
                         a step takes exactly one action, and this one also has `{first}`"
                    ),
                )
            )
        }
    };
    // A misspelt key is named as such, before it can look like a missing one.
    let allowed: &[&str] = match action {
        "arrive" => &["arrive", "represents", "as", "agent_role"],
        "open" => &["open", "matter", "noticed", "seats", "lists"],
        "vote" => &["vote", "holder", "choice", "split"],
        "draw" => &["draw", "winner"],
        _ => &[action],
    };
    if let Some(unknown) = table.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(f.error(
            unknown,
            format!("clave desconocida en un paso `{action}` / unknown key for a `{action}` step"),
        ));
    }
    let subject = f.required_string(action)?.to_string();
    if subject.is_empty() {
        return Err(f.error(action, NOT_EMPTY));
    }
    let step = match action {
        "arrive" => read_arrival(&mut f, subject)?,
        "leave" => Step::Leave(subject),
        "open" => Step::Open(read_open(&mut f, subject)?),
        "vote" => {
            let holder = f.required_string("holder")?.to_string();
            let choice = match (f.has("choice"), f.has("split")) {
                (true, true) => return Err(f.error(
                    "split",
                    "un voto lleva `choice` o `split`, no ambos / a vote has `choice` or `split`, not both",
                )),
                (false, false) => {
                    return Err(f.error(
                        "choice",
                        "un voto necesita `choice` o `split` / a vote needs `choice` or `split`",
                    ))
                }
                (true, false) => VoteChoice::Whole(f.required_string("choice")?.to_string()),
                (false, true) => {
                    let parts = f.table("split")?.expect("present");
                    if parts.is_empty() {
                        return Err(f.error(
                            "split",
                            "debe nombrar al menos una opción / must name at least one option",
                        ));
                    }
                    let mut p = Fields::new(parts, "split");
                    let mut out = Vec::new();
                    for option in parts.keys() {
                        let shares = p.count(option)?.expect("present");
                        out.push((option.clone(), Shares::new(shares)));
                    }
                    p.finish()?;
                    VoteChoice::Split(out)
                }
            };
            Step::Vote { item: subject, holder, choice }
        }
        "close" => Step::Close(subject),
        "draw" => Step::Draw { item: subject, winner: f.required_string("winner")?.to_string() },
        _ => unreachable!("ACTIONS lists every action"),
    };
    f.finish()?;
    Ok(step)
}

fn read_arrival(f: &mut Fields, agent: String) -> Result<Step, FieldError> {
    let Some(represents) = f.array("represents")? else {
        for key in ["as", "agent_role"] {
            if f.has(key) {
                return Err(f.error(key, "va solo con `represents` / goes only with `represents`"));
            }
        }
        return Ok(Step::ArriveInPerson(agent));
    };
    if represents.is_empty() {
        return Err(
            f.error("represents", "debe nombrar al menos un accionista / must name at least one holder")
        );
    }
    let mut principals: Vec<String> = Vec::new();
    for (i, value) in represents.iter().enumerate() {
        let id = value.as_str().ok_or_else(|| {
            let (es, en) = fields::found(value);
            f.error(
                &format!("represents[{i}]"),
                format!("se esperaba un texto entre comillas, hay {es} / expected a string, found {en}"),
            )
        })?;
        if principals.iter().any(|p| p == id) {
            return Err(f.error(
                &format!("represents[{i}]"),
                format!("`{id}` aparece dos veces / `{id}` is named twice"),
            ));
        }
        principals.push(id.to_string());
    }
    let capacity =
        f.choice("as", &["proxy", "legal-representative"], Capacity::from_code)?.unwrap_or(Capacity::Proxy);
    let agent_role = f.choice("agent_role", &["administrator", "employee"], Role::from_code)?;
    Ok(Step::ArriveAsAgent { agent, represents: principals, capacity, agent_role })
}

/// The line (from 1) of each `[[step]]` header, in order.
fn step_header_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let line = line.trim_start();
            line.starts_with("[[step]]") || line.starts_with("[[ step ]]")
        })
        .map(|(i, _)| i + 1)
        .collect()
}

/// TOML to JSON for `[expect]`: integers, strings, booleans, arrays and
/// tables; anything else is not something the output can hold.
fn to_json(value: &toml::Value, path: &str) -> Result<serde_json::Value, FieldError> {
    Ok(match value {
        toml::Value::String(s) => serde_json::Value::String(s.clone()),
        toml::Value::Integer(i) => serde_json::Value::from(*i),
        toml::Value::Boolean(b) => serde_json::Value::Bool(*b),
        toml::Value::Array(a) => serde_json::Value::Array(
            a.iter()
                .enumerate()
                .map(|(i, v)| to_json(v, &format!("{path}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        toml::Value::Table(t) => serde_json::Value::Object(
            t.iter()
                .map(|(k, v)| Ok((k.clone(), to_json(v, &format!("{path}.{k}"))?)))
                .collect::<Result<_, FieldError>>()?,
        ),
        other => {
            let (es, en) = fields::found(other);
            return Err(FieldError {
                key: path.to_string(),
                message: format!("{es} no puede aparecer en un resultado / {en} cannot appear in an outcome"),
            });
        }
    })
}
