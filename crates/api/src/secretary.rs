//! The secretary (and the auditor, who reads what the secretary reads):
//! the minutes' lists, written statements, exports.

use serde::{Deserialize, Serialize};

use crate::desk::Holder;

/// `GET /api/v1/minutes`: the administrators and employees (C.Co art.
/// 185) and, for each decided item, the shares impeded and who may
/// withdraw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Minutes {
    /// The register's administrators and employees.
    pub administrators: Vec<Holder>,
    /// Each decided item.
    pub items: Vec<MinutesItem>,
}

/// A decided item in the minutes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MinutesItem {
    /// The item.
    pub id: String,
    /// Shares present that could not vote on it.
    pub impeded: u64,
    /// Who may withdraw (derecho de retiro), where the matter grants it.
    pub withdrawal: Option<Vec<Holder>>,
}

/// `POST /api/v1/statements`: a written statement (constancia) an
/// attendee handed in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct StatementRequest {
    /// The agenda item it is about.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::Identifier))]
    pub item: String,
    /// Its author, an attendee.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::TrimmedIdentifier))]
    pub person: String,
    /// The words, as written.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::formats::StatementText))]
    pub text: String,
}

/// `GET /api/v1/statements`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Statements {
    /// In the order recorded.
    pub statements: Vec<Statement>,
}

/// A written statement recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Statement {
    /// The item.
    pub item: String,
    /// The item's title.
    pub title: Option<String>,
    /// The author.
    pub person: String,
    /// The author's name in the register, if a holder.
    pub name: Option<String>,
    /// The words.
    pub text: String,
}

/// `GET /api/v1/exports/{file}?tabla=`: which table of a CSV export.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct ExportQuery {
    /// `puntos`, `accionistas`, `asistencia` or `retiro` (CSV only).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", param(value_type = Option<crate::formats::CsvTable>))]
    pub tabla: Option<String>,
}
