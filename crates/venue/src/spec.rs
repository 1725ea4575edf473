//! The rules engine's inputs written as TOML, shared by `meeting.toml` and
//! the conformance scenarios (`shared/scenarios/FORMAT.md`): a company's
//! `[capital]` and an agenda item's matter, notice and ballot options.
//! Errors name the key, Spanish first, as every reader of
//! [`crate::fields`] does.

use asamblea_rules::{BallotOptions, Capital, ClassCapital, ItemSpec, MatterKind, Shares};

use crate::fields::{FieldError, Fields};

/// Reads `[capital]`: `ORD` and `PREF`, each `{ subscribed, treasury }`.
pub fn read_capital(top: &mut Fields) -> Result<Capital, FieldError> {
    let table = top.table("capital")?.ok_or_else(|| top.missing("capital"))?;
    let mut f = Fields::new(table, "capital");
    let mut capital = Capital::default();
    for code in ["ORD", "PREF"] {
        let Some(class) = f.table(code)? else { continue };
        let mut c = Fields::new(class, f.path(code));
        let subscribed = c.count("subscribed")?.ok_or_else(|| c.missing("subscribed"))?;
        let treasury = c.count("treasury")?.unwrap_or(0);
        let class_capital =
            ClassCapital::new(Shares::new(subscribed), Shares::new(treasury)).map_err(|e| {
                c.error("treasury", format!("las acciones readquiridas superan a las suscritas / {e}"))
            })?;
        c.finish()?;
        if code == "ORD" {
            capital.ordinary = class_capital;
        } else {
            capital.preferred = class_capital;
        }
    }
    f.finish()?;
    Ok(capital)
}

/// Reads an item's `matter`, `noticed`, `seats` and `lists` (a scenario's
/// `open` step and an agenda item of `meeting.toml` alike).
pub fn read_open(f: &mut Fields, id: String) -> Result<ItemSpec, FieldError> {
    let codes: Vec<&str> = MatterKind::ALL.iter().map(|m| m.code()).collect();
    let matter = f.choice("matter", &codes, MatterKind::from_code)?.ok_or_else(|| f.missing("matter"))?;
    let noticed = f.boolean("noticed")?.unwrap_or(true);
    let seats = f.count("seats")?;
    let lists = f.array("lists")?;
    let options = if !matter.is_election() {
        if seats.is_some() {
            return Err(f.error("seats", format!("`{matter}` no es una elección / is not an election")));
        }
        if lists.is_some() {
            return Err(f.error("lists", format!("`{matter}` no es una elección / is not an election")));
        }
        BallotOptions::Decision
    } else {
        let lists = lists.ok_or_else(|| {
            f.error("lists", "una elección necesita sus listas / an election needs its lists")
        })?;
        let seats = match (matter, seats) {
            (MatterKind::BoardElection, None) => {
                return Err(f.error(
                    "seats",
                    "la elección de junta necesita `seats`, el número de puestos / a board election needs `seats`",
                ))
            }
            (MatterKind::SingleSeatElection, Some(n)) if n != 1 => {
                return Err(f.error(
                    "seats",
                    format!("una elección de un puesto tiene 1, no {n} / a single-seat election has 1 seat, not {n}"),
                ))
            }
            (_, Some(0)) => return Err(f.error("seats", "debe ser al menos 1 / must be at least 1")),
            (_, Some(n)) => {
                u32::try_from(n)
                .map_err(|_| f.error("seats", format!("{n} puestos son demasiados / {n} seats is too many")))?
            }
            (_, None) => 1,
        };
        if lists.is_empty() {
            return Err(f.error("lists", "debe nombrar al menos una lista / must name at least one list"));
        }
        let mut names: Vec<Box<str>> = Vec::new();
        for (i, value) in lists.iter().enumerate() {
            let key = format!("lists[{i}]");
            let name = value.as_str().ok_or_else(|| {
                let (es, en) = crate::fields::found(value);
                f.error(
                    &key,
                    format!("se esperaba un texto entre comillas, hay {es} / expected a string, found {en}"),
                )
            })?;
            if name == "blank" {
                return Err(f.error(
                    &key,
                    "`blank` (en blanco) está siempre en la papeleta y no puede ser el nombre de una lista / `blank` is always on the ballot and cannot be a list's name",
                ));
            }
            if name.is_empty() || names.iter().any(|n| &**n == name) {
                return Err(f.error(
                    &key,
                    format!("`{name}` está vacío o repetido / `{name}` is empty or listed twice"),
                ));
            }
            names.push(name.into());
        }
        BallotOptions::Election { seats, lists: names }
    };
    ItemSpec::new(id, matter, noticed, options)
        .map_err(|e| f.error("open", format!("el punto no se puede abrir así / {e}")))
}
