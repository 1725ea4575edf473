//! The text formats the daemon checks before anything else, as the OpenAPI
//! document states them: ids, hexadecimal keys, digests and signatures,
//! kiosk ids, the desk's free texts and the searches' queries.
//!
//! Each format is a pattern here (ECMA-262, as JSON Schema reads it) and,
//! with the `openapi` feature, a named schema that the contract's fields
//! point to (`#[schema(value_type = Hex32)]`), so that the document says
//! once what the daemon accepts. The daemon's own validators decide
//! (`asamblea_wire`'s `Id`, `Text`, `Prose`, `hex`, and `asamblea_pki`'s
//! kiosk ids); `asamblea-server`'s `formats_agree` test holds every
//! pattern to the validator it describes, in both directions: what the
//! pattern allows the daemon accepts, and what the daemon accepts the
//! pattern allows. One gap is the format's and cannot be closed: JSON
//! Schema counts characters and the ledger's limits count UTF-8 bytes, so
//! a length is given in characters as the byte limit (never less than
//! what the daemon takes) and the description says bytes.

/// The characters Rust's `str::trim` removes (Unicode `White_Space`),
/// as a regular-expression class: a field the daemon trims may carry
/// any number of them at either end.
macro_rules! white_space {
    () => {
        r"[\u0009-\u000D\u0020\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*"
    };
}

/// A ledger id (holder, agent, item): no control character (Unicode
/// category Cc); 1 to [`ID_MAX_BYTES`] bytes.
pub const IDENTIFIER: &str = r"^[^\u0000-\u001F\u007F-\u009F]+$";

/// The longest id, in UTF-8 bytes (the ledger format's limit).
pub const ID_MAX_BYTES: usize = 64;

/// An id the daemon trims before it checks it (a statement's author).
pub const TRIMMED_IDENTIFIER: &str =
    concat!("^", white_space!(), r"[^\u0000-\u001F\u007F-\u009F]+", white_space!(), "$");

/// A short free text (a power's reference): no control character; at
/// most [`TEXT_MAX_BYTES`] bytes.
pub const SHORT_TEXT: &str = r"^[^\u0000-\u001F\u007F-\u009F]*$";

/// The longest short text, in UTF-8 bytes.
pub const TEXT_MAX_BYTES: usize = 256;

/// A written statement's words: trimmed, they are not empty, hold no
/// control character but the line feed (`\r\n` is read as one), and at
/// most [`PROSE_MAX_BYTES`] bytes.
pub const STATEMENT_TEXT: &str = concat!(
    "^",
    white_space!(),
    r"(?:[^\u0000-\u0009\u000B-\u001F\u007F-\u009F]|\r\n)*",
    r"[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]",
    white_space!(),
    "$"
);

/// The longest statement, in UTF-8 bytes, once trimmed.
pub const PROSE_MAX_BYTES: usize = 4_000;

/// 32 bytes in hexadecimal (a public key, a digest, a chain head, a seed),
/// either case.
pub const HEX32: &str = r"^[0-9a-fA-F]{64}$";

/// 64 bytes in hexadecimal (a signature), either case.
pub const HEX64: &str = r"^[0-9a-fA-F]{128}$";

/// Bytes in hexadecimal (a ballot event's canonical bytes): an even,
/// non-zero number of digits, either case.
pub const HEX_BYTES: &str = r"^(?:[0-9a-fA-F]{2})+$";

/// A kiosk's id: 1 to 32 ASCII letters, digits or `-`.
pub const KIOSK_ID: &str = r"^[A-Za-z0-9-]{1,32}$";

/// The start of a ballot's hash: up to 64 hexadecimal digits, either
/// case; white space and `-` anywhere are left out (the kiosk's short
/// code is written in groups, `99F1-09F1-A3C2`).
pub const HASH_PREFIX: &str = concat!(
    r"^[\u0009-\u000D\u0020\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000-]*",
    r"(?:[0-9a-fA-F][\u0009-\u000D\u0020\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000-]*){0,64}$"
);

/// A search of the register: at most 64 characters once trimmed (and
/// folded: a character whose lower case is two counts twice).
pub const HOLDER_SEARCH: &str = concat!("^", white_space!(), r"[\s\S]{0,64}", white_space!(), "$");

/// The roles an agent may declare.
pub const AGENT_ROLES: [&str; 2] = ["administrator", "employee"];

/// The tables of a CSV export.
pub const CSV_TABLES: [&str; 6] = ["puntos", "accionistas", "asistencia", "retiro", "listas", "poderes"];

/// The files `GET /api/v1/exports/{file}` makes.
pub const EXPORT_FILES: [&str; 5] =
    ["resultados.xlsx", "resultados.json", "resultados.csv", "acta.docx", "acta.pdf"];

#[cfg(feature = "openapi")]
pub use schemas::*;

/// The named schemas, one per format.
#[cfg(feature = "openapi")]
mod schemas {
    use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
    use utoipa::openapi::RefOr;

    /// A string schema: a pattern and, where the format has them, lengths.
    fn text(pattern: &str, min: Option<usize>, max: Option<usize>, description: &str) -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(pattern))
            .min_length(min)
            .max_length(max)
            .description(Some(description))
            .into()
    }

    /// A string schema of a few values.
    fn one_of(values: &[&str], description: &str) -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(values.iter().copied()))
            .description(Some(description))
            .into()
    }

    /// Declares schema-only types, each the schema `$body` builds.
    macro_rules! formats {
        ($($(#[doc = $doc:literal])* $name:ident => $body:expr;)*) => {$(
            $(#[doc = $doc])*
            pub struct $name;

            impl utoipa::PartialSchema for $name {
                fn schema() -> RefOr<Schema> {
                    $body
                }
            }

            impl utoipa::ToSchema for $name {}
        )*

        /// Every format's schema by its name, for the document's
        /// components: a format that only a query or a path parameter
        /// names is registered by no body.
        pub fn all() -> Vec<(String, RefOr<Schema>)> {
            vec![$((stringify!($name).to_string(), <$name as utoipa::PartialSchema>::schema())),*]
        }
        };
    }

    formats! {
        /// A ledger id: a holder, an agent, an agenda item.
        Identifier => text(
            super::IDENTIFIER,
            Some(1),
            Some(super::ID_MAX_BYTES),
            "An id as the ledger holds it (a holder, an agent, an agenda item): 1 to 64 bytes of UTF-8 \
             with no control character. A register's holder ids are letters, digits and `- . _ /`.",
        );
        /// An id the daemon trims first.
        TrimmedIdentifier => text(
            super::TRIMMED_IDENTIFIER,
            Some(1),
            None,
            "An id (see `Identifier`), with white space around it trimmed.",
        );
        /// A power's reference.
        ShortText => text(
            super::SHORT_TEXT,
            None,
            Some(super::TEXT_MAX_BYTES),
            "A short text: at most 256 bytes of UTF-8 with no control character.",
        );
        /// A written statement's words.
        StatementText => text(
            super::STATEMENT_TEXT,
            Some(1),
            None,
            "Words as written: trimmed, 1 to 4000 bytes of UTF-8 whose only control character is \
             the line feed (`\\r\\n` is read as one).",
        );
        /// 32 bytes, hex.
        Hex32 => text(
            super::HEX32,
            Some(64),
            Some(64),
            "32 bytes in hexadecimal, 64 digits, either case (a public key, a SHA-256 digest, a chain \
             head, a seed); answers write lower case.",
        );
        /// 64 bytes, hex.
        Hex64 => text(
            super::HEX64,
            Some(128),
            Some(128),
            "64 bytes in hexadecimal, 128 digits, either case (an Ed25519 signature); answers write \
             lower case.",
        );
        /// Bytes, hex.
        HexBytes => text(
            super::HEX_BYTES,
            Some(2),
            None,
            "Bytes in hexadecimal: an even number of digits, either case.",
        );
        /// A kiosk's id.
        KioskId => text(super::KIOSK_ID, Some(1), Some(32), "A kiosk's id: 1 to 32 ASCII letters, digits or `-`.");
        /// The start of a ballot's hash.
        HashPrefix => text(
            super::HASH_PREFIX,
            None,
            None,
            "The start of a ballot's hash: up to 64 hexadecimal digits, either case (white space and \
             `-` anywhere left out, as in the kiosk's code 99F1-09F1-A3C2); empty lists every ballot.",
        );
        /// A search of the register.
        HolderSearch => text(
            super::HOLDER_SEARCH,
            None,
            None,
            "The start of a holder's id or any part of a name, case and accents aside: at most 64 \
             characters once trimmed.",
        );
        /// The role an agent declares.
        AgentRole => one_of(&super::AGENT_ROLES, "The role an agent declares in the company (C.Co art. 185).");
        /// A table of a CSV export.
        CsvTable => one_of(&super::CSV_TABLES, "A table of the CSV export.");
        /// A file the exports make.
        ExportFile => one_of(&super::EXPORT_FILES, "A file the exports make.");
    }
}
