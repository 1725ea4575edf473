//! The register's canonical bytes in a bundle (`docs/ledger-format.md` §7.1), written and read back.

use asamblea_rules::{
    Capital, ClassCapital, ClassShares, HolderSpec, Register, Role, Shares, SplitPermission,
};

use super::{BundleError, BundleReader, Part, REGISTER_DOMAIN};

/// The register's canonical bytes: exactly the input of
/// [`asamblea_wire::register_digest`] (`docs/ledger-format.md` §7.1).
pub fn register_bytes(register: &Register) -> Vec<u8> {
    let mut out = REGISTER_DOMAIN.to_vec();
    let capital = register.capital();
    for class in [capital.ordinary, capital.preferred] {
        out.extend_from_slice(&class.subscribed().get().to_be_bytes());
        out.extend_from_slice(&class.treasury().get().to_be_bytes());
    }
    out.extend_from_slice(&(register.len() as u32).to_be_bytes());
    for (_, holder) in register.iter() {
        out.extend_from_slice(&(holder.id().len() as u32).to_be_bytes());
        out.extend_from_slice(holder.id().as_bytes());
        out.extend_from_slice(&holder.holdings().ordinary.get().to_be_bytes());
        out.extend_from_slice(&holder.holdings().preferred.get().to_be_bytes());
        out.push(match holder.role() {
            None => 0,
            Some(Role::Administrator) => 1,
            Some(Role::Employee) => 2,
        });
        out.push(match holder.split() {
            None => 0,
            Some(SplitPermission::OmnibusCustodian) => 1,
            Some(SplitPermission::Dismembered) => 2,
        });
    }
    out
}

/// The register of canonical bytes; anything else is refused.
pub fn register_from_bytes(bytes: &[u8]) -> Result<Register, BundleError> {
    let bad = |message: String| BundleError::Field { field: Part::Register, message };
    let mut r = BundleReader::new(bytes);
    if r.take(REGISTER_DOMAIN.len() as u64, Part::Register)? != REGISTER_DOMAIN {
        return Err(bad(
            "no empieza por asamblea/register/v1 / does not start with asamblea/register/v1".into()
        ));
    }
    let mut class = || -> Result<ClassCapital, BundleError> {
        let subscribed = u64::from_be_bytes(r.array(Part::Register)?);
        let treasury = u64::from_be_bytes(r.array(Part::Register)?);
        ClassCapital::new(Shares::new(subscribed), Shares::new(treasury))
            .map_err(|e| bad(format!("las acciones readquiridas superan a las suscritas / {e}")))
    };
    let capital = Capital { ordinary: class()?, preferred: class()? };
    let count = u32::from_be_bytes(r.array(Part::Register)?);
    let mut holders = Vec::new();
    for n in 1..=count {
        let id = String::from_utf8(r.sized(Part::Register, 64)?).map_err(|_| {
            bad(format!("accionista {n}: el identificador no es UTF-8 / holder {n}: the id is not UTF-8"))
        })?;
        // An id of the register follows the format's id rules (§1): 1 to
        // 64 bytes, no control character.
        asamblea_wire::Id::new(&id).map_err(|e| bad(format!("accionista / holder {n}, {id:?}: {e}")))?;
        let ordinary = u64::from_be_bytes(r.array(Part::Register)?);
        let preferred = u64::from_be_bytes(r.array(Part::Register)?);
        let [role, split] = r.array::<2>(Part::Register)?;
        let role = match role {
            0 => None,
            1 => Some(Role::Administrator),
            2 => Some(Role::Employee),
            other => return Err(bad(format!("código de cargo {other} desconocido / role code {other}"))),
        };
        let split = match split {
            0 => None,
            1 => Some(SplitPermission::OmnibusCustodian),
            2 => Some(SplitPermission::Dismembered),
            other => return Err(bad(format!("código de división {other} desconocido / split code {other}"))),
        };
        holders.push(HolderSpec {
            id,
            holdings: ClassShares::new(Shares::new(ordinary), Shares::new(preferred)),
            role,
            split,
        });
    }
    if r.at != bytes.len() as u64 {
        return Err(bad(format!(
            "sobran {0} bytes después del último accionista / {0} bytes follow the last holder",
            bytes.len() as u64 - r.at
        )));
    }
    Register::new(capital, holders)
        .map_err(|e| bad(format!("el registro de accionistas no cuadra con el capital / {e}")))
}
