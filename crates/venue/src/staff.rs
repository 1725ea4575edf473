//! Staff accounts: who may do what at the consoles.
//!
//! `init` creates one account per role (operator, chair, secretary,
//! auditor), each with a random bearer token shown once and stored only
//! as its SHA-256, and a signing key kept by the daemon (custodial: every
//! staff action is a ledger event signed with the acting member's key,
//! enrolled by a `staff-enrolled` event). No default password exists: a
//! meeting's tokens are drawn at its `init`.
//!
//! `DIR/staff.toml`:
//!
//! ```toml
//! [[staff]]
//! name = "presidente"
//! role = "chair"
//! token_sha256 = "…64 hex…"
//! ```
//!
//! and `KEYS/<name>.seed` for each, in the meeting's key folder outside
//! the meeting directory ([`crate::secrets::key_folder`]).

use std::path::Path;

use asamblea_wire::{Digest, Keypair};

use crate::error::VenueError;

/// What this module's functions return.
type Result<T> = std::result::Result<T, VenueError>;

/// What a staff member may do: the role enrolled with the member's key in
/// the ledger (`staff-enrolled`), where it also fixes which events the key
/// may sign.
pub use asamblea_wire::StaffRole as Role;

/// The account `init` creates for a role.
pub const fn default_name(role: Role) -> &'static str {
    match role {
        Role::Operator => "operador",
        Role::Chair => "presidente",
        Role::Secretary => "secretario",
        Role::Auditor => "revisor",
    }
}

/// A staff member as the daemon knows them.
pub struct Account {
    /// The account's name (also its key file's name).
    pub name: String,
    /// Its role.
    pub role: Role,
    /// SHA-256 of its bearer token.
    pub token_digest: Digest,
    /// Its signing key (shared with in-flight actions).
    pub key: std::sync::Arc<Keypair>,
}

/// Every account of a meeting.
pub struct Accounts(Vec<Account>);

impl Accounts {
    /// Creates one account per role in `dir`, with its seed in the key
    /// folder `keys`; returns `(name, role, token)` to show once.
    pub fn create(dir: &Path, keys: &Path) -> Result<Vec<(String, Role, String)>> {
        let mut toml = String::from(
            "# Staff accounts. Tokens are stored as SHA-256 only; each key in <name>.seed of the meeting's key folder.\n",
        );
        let mut shown = Vec::new();
        for role in Role::ALL {
            let name = default_name(role);
            let token = hex(&crate::secrets::random::<24>());
            let digest = Digest::sha256(token.as_bytes());
            toml.push_str(&format!(
                "\n[[staff]]\nname = \"{name}\"\nrole = \"{}\"\ntoken_sha256 = \"{}\"\n",
                role.code(),
                hex(&digest.0)
            ));
            crate::secrets::write_secret(&keys.join(format!("{name}.seed")), &crate::secrets::random())?;
            shown.push((name.to_string(), role, token));
        }
        crate::secrets::write_private_new(&dir.join("staff.toml"), toml.as_bytes())?;
        Ok(shown)
    }

    /// Reads `DIR/staff.toml` and the keys, from the meeting's key folder.
    pub fn load(dir: &Path) -> Result<Accounts> {
        let keys = crate::secrets::key_folder_of(dir)?;
        let path = dir.join("staff.toml");
        let text = std::fs::read_to_string(&path).map_err(VenueError::meeting_file(dir, "staff.toml"))?;
        let malformed = |place: Option<String>, message: String| VenueError::Malformed {
            path: path.clone(),
            place,
            message,
        };
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            malformed(None, format!("el archivo no es TOML válido / not valid TOML: {}", e.message().trim()))
        })?;
        let mut accounts = Vec::new();
        let list = table.get("staff").and_then(toml::Value::as_array).map(Vec::as_slice).unwrap_or_default();
        for (i, entry) in list.iter().enumerate() {
            let place = |key: &str| {
                let line = crate::fields::line_of(&text, &format!("staff[{i}].{key}"));
                let line = line.map_or(String::new(), |line| format!("línea / line {line}, "));
                Some(format!("{line}clave / key `staff[{i}].{key}`"))
            };
            let field = |key: &str| -> Result<&str> {
                entry.get(key).and_then(toml::Value::as_str).ok_or_else(|| {
                    malformed(place(key), "falta o no es un texto / is missing or not a string".into())
                })
            };
            let name = field("name")?;
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
                return Err(malformed(
                    place("name"),
                    format!(
                        "`{name}` debe llevar solo letras, dígitos y guiones / `{name}` must be letters, digits and dashes"
                    ),
                ));
            }
            let role = Role::from_code(field("role")?).ok_or_else(|| {
                malformed(
                    place("role"),
                    "debe ser operator, chair, secretary o auditor / must be operator, chair, secretary or auditor"
                        .into(),
                )
            })?;
            let token_digest = Digest::from_hex(field("token_sha256")?).map_err(|e| {
                malformed(
                    place("token_sha256"),
                    format!("no es un resumen SHA-256 / not a SHA-256 digest: {e}"),
                )
            })?;
            let key = std::sync::Arc::new(Keypair::from_seed(&crate::secrets::read_key(&keys, name)?));
            accounts.push(Account { name: name.to_string(), role, token_digest, key });
        }
        if accounts.is_empty() {
            return Err(malformed(
                None,
                "no tiene ninguna cuenta del personal / holds no staff accounts".into(),
            ));
        }
        Ok(Accounts(accounts))
    }

    /// The account a bearer token opens, if any. The token's digest is
    /// compared in constant time.
    pub fn authenticate(&self, token: &str) -> Option<&Account> {
        let digest = Digest::sha256(token.as_bytes());
        self.0.iter().find(|a| constant_time_eq(&a.token_digest.0, &digest.0))
    }

    /// Adds a token for this run of the daemon that opens the operator's
    /// account: the registration desk's commands (`checkin`, `badges`,
    /// `revoke`, `kiosk`) read it from the meeting's key folder
    /// (`desk.token`, see [`crate::lock::DaemonRun`]) and act through the
    /// API as the operator, signing with the operator's key. It is drawn
    /// fresh at every start and never stored but in that owner-only file.
    /// Returns the token.
    pub fn add_desk_token(&mut self) -> Result<String> {
        let operator = self.0.iter().find(|a| a.role == Role::Operator).ok_or_else(|| {
            VenueError::refused(
                "staff.toml no tiene una cuenta de operador para la mesa de registro / staff.toml has no operator account for the registration desk",
            )
        })?;
        let token = hex(&crate::secrets::random::<24>());
        let desk = Account {
            name: operator.name.clone(),
            role: Role::Operator,
            token_digest: Digest::sha256(token.as_bytes()),
            key: std::sync::Arc::clone(&operator.key),
        };
        self.0.push(desk);
        Ok(token)
    }

    /// Every account.
    pub fn iter(&self) -> impl Iterator<Item = &Account> {
        self.0.iter()
    }
}

fn constant_time_eq(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

use asamblea_wire::hex::encode as hex;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_open_their_own_account_only() {
        let dir = std::env::temp_dir().join(format!("asamblea-staff-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let meeting = asamblea_wire::MeetingId(crate::secrets::random());
        std::fs::write(dir.join("meeting-id"), hex(&meeting.0)).unwrap();
        let keys = crate::secrets::key_folder(&meeting).unwrap();
        crate::secrets::create_private_dir(&keys).unwrap();
        let shown = Accounts::create(&dir, &keys).unwrap();
        assert!(!dir.join("keys").exists(), "no key in the meeting directory");
        let accounts = Accounts::load(&dir).unwrap();
        for (name, role, token) in &shown {
            let account = accounts.authenticate(token).expect("its own token opens it");
            assert_eq!((&account.name, account.role), (name, *role));
        }
        assert!(accounts.authenticate("").is_none());
        assert!(accounts.authenticate(&shown[0].2[1..]).is_none());
        let stored = std::fs::read_to_string(dir.join("staff.toml")).unwrap();
        assert!(
            shown.iter().all(|(_, _, token)| !stored.contains(token.as_str())),
            "tokens are never stored"
        );
        std::fs::remove_dir_all(&dir).ok();
        std::fs::remove_dir_all(&keys).ok();
    }
}
