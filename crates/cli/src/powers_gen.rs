//! A powers file for the bench-scale register (`CC-00000001`…, an
//! administrator at every id `i % 2000 == 1`: `crate::scale::register_csv`),
//! with what a real office's file holds besides good powers: rows with a
//! defect the reader must name, and powers the rules refuse. `bench-scale`
//! imports it, timed; the end-to-end tests import it too.

use anyhow::{bail, Result};
use asamblea_documents::numfmt::thousands;

/// What a generated file holds, to check an import against.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GeneratedPowers {
    /// The file (UTF-8, `,`).
    pub csv: String,
    /// Powers whose rows are all good.
    pub good: u64,
    /// Rows with a planted defect, and the other rows of their powers.
    pub bad_rows: u64,
    /// Good powers whose agent is an administrator in the register
    /// (refused: `agent-barred`).
    pub agent_barred: u64,
    /// Good powers whose principal another power covers already (refused:
    /// `already-covered`).
    pub already_covered: u64,
    /// Rows in all (without the header).
    pub rows: u64,
}

/// The header [`powers_csv`] writes.
pub const HEADER: &str = "power,principal,agent,agent_name,meeting_date,received_via,received_on,document_sha256,substitutes,substitute_names\n";

/// `powers` good powers for a register of `holders` (ids `CC-00000001`…),
/// the first of them one agent's for `big` principals, dated
/// `meeting_date`; every thousandth power's agent is the register's
/// administrator `CC-00000001`, and every thousandth (another) names again
/// the principal of the power before it. With `defects`, four more powers
/// with a defect each: a bad hash, an unknown way of reception, an
/// impossible date, and two rows of one power that disagree.
pub fn powers_csv(
    holders: u64,
    powers: u64,
    big: u64,
    defects: bool,
    meeting_date: &str,
) -> Result<GeneratedPowers> {
    let needed = 2 + big + powers + 5;
    if powers == 0 || big == 0 || holders < needed {
        bail!(
            "{} poderes ({big} poderdantes en el primero) necesitan al menos {} accionistas / {powers} powers need at least {needed} holders",
            thousands(powers),
            thousands(needed)
        );
    }
    let mut made = GeneratedPowers { csv: String::from(HEADER), good: powers, ..GeneratedPowers::default() };
    let ways = ["correo-electrónico", "oficina", "correo", "otro"];
    let row = |made: &mut GeneratedPowers,
               reference: &str,
               principal: u64,
               agent: &str,
               k: u64,
               extra: &str| {
        let way = ways[(k % 4) as usize];
        let day = 1 + k % 20;
        let hash = format!("{:064x}", u128::from(k).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835));
        let (substitutes, names) = if k.is_multiple_of(7) {
            (format!("CC-8{k:07}"), format!("Sustituto {k}"))
        } else {
            (String::new(), String::new())
        };
        let line = format!(
            "{reference},CC-{principal:08},{agent},Apoderado {agent},{meeting_date},{way},2027-03-{day:02},{hash},{substitutes},{names}\n"
        );
        made.csv.push_str(&apply(&line, extra));
        made.rows += 1;
    };
    // Holders 1 and 2 are the administrator and the employee; principals
    // start at 3.
    let mut next = 3u64;
    for p in 0..big {
        row(&mut made, "P-000001", next + p, "CC-90000000", 1, "");
    }
    next += big;
    let mut previous = next;
    for k in 2..=powers {
        let reference = format!("P-{k:06}");
        let agent = if k % 1000 == 1 {
            made.agent_barred += 1;
            "CC-00000001".to_string()
        } else {
            format!("CC-9{:07}", 1 + k % 3_000)
        };
        let principal = if k % 1000 == 500 {
            made.already_covered += 1;
            previous
        } else {
            next += 1;
            next
        };
        row(&mut made, &reference, principal, &agent, k, "");
        previous = principal;
    }
    if defects {
        let planted = [("D-1", "hash"), ("D-2", "fax"), ("D-3", "date"), ("D-4", ""), ("D-4", "name")];
        for (reference, defect) in planted {
            next += 1;
            row(&mut made, reference, next, "CC-91000000", 7, defect);
            made.bad_rows += 1;
        }
    }
    Ok(made)
}

/// A planted defect in a row of [`powers_csv`].
fn apply(line: &str, defect: &str) -> String {
    match defect {
        "hash" => {
            let hash = line.split(',').nth(7).unwrap_or_default();
            line.replace(hash, "no-es-un-hash")
        }
        "fax" => line.replace(",correo,", ",fax,").replace(",otro,", ",fax,"),
        "date" => line.replace(",2027-03-08,", ",2027-02-30,"),
        "name" => line.replace("Apoderado CC-91000000", "Otro Apoderado"),
        _ => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_file_reads_with_its_planted_defects_named() {
        let made = powers_csv(3_000, 200, 50, true, "2027-03-25").unwrap();
        let file = asamblea_venue::powers_file::read("p.csv", made.csv.as_bytes(), |_| {}).unwrap();
        assert_eq!(file.powers.len() as u64, made.good);
        assert_eq!(file.bad.len() as u64, made.bad_rows);
        let fields: Vec<_> = file.bad.iter().map(|b| b.field.unwrap_or("-")).collect();
        assert_eq!(fields, ["document_sha256", "received_via", "received_on", "power", "agent_name"]);
        assert_eq!(file.powers[0].1.principals.len(), 50);
        assert_eq!(made.rows, 50 + 199 + 5);
        assert!(powers_csv(100, 200, 50, false, "2027-03-25").is_err());
    }
}
