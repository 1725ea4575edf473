//! The daemon's routes, assembled from each caller's module, and the
//! OpenAPI document generated from the same tables.
//!
//! Each caller's module (`public`, `desk`, `badges`, `chair`,
//! `secretary`, `kiosk`, `remote`, `console`) declares its routes in `callers::Routes`
//! groups, each group with the callers it lets in. From those groups, and
//! nothing else, come the router (each staff group behind
//! `access::staff_gate` with its roles, the kiosks' behind
//! `access::kiosk_gate`), the route table ([`route_table`], which the role
//! test walks), and the OpenAPI document ([`openapi`]: the paths and
//! schemas from each handler's `#[utoipa::path]` and the `asamblea-api`
//! types, the roles from the group). A route of a new kind of caller is a
//! new module with its own `routes()`, added to [`groups`].

use std::sync::OnceLock;

use axum::http::Method;
use axum::Router;
use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::OpenApi;

pub use crate::callers::Callers;
use crate::callers::{Kind, Routes};
use crate::AppState;

/// Every group of routes, by caller.
fn groups() -> Vec<Routes> {
    [
        crate::public::routes(),
        crate::nodes::routes(),
        crate::passes::routes(),
        crate::console::routes(),
        crate::desk::routes(),
        crate::powers::routes(),
        crate::letters::routes(),
        crate::badges::routes(),
        crate::chair::routes(),
        crate::secretary::routes(),
        crate::kiosk::routes(),
        crate::remote::routes(),
        // The document itself, for anyone.
        vec![Routes::pages(
            Callers::Public,
            vec![crate::callers::get_page("/api/v1/openapi.json", document)],
        )
        .on_internet()],
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// `GET /api/v1/openapi.json`: the document of this API.
async fn document() -> axum::response::Response {
    use axum::response::IntoResponse;
    ([(axum::http::header::CONTENT_TYPE, "application/json")], openapi_json()).into_response()
}

/// One route of the table: method, path and the callers let in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// `GET`, `POST`.
    pub method: &'static str,
    /// The path, with `{parameters}`.
    pub path: String,
    /// `public`, `kiosk`, or the staff roles.
    pub callers: Vec<&'static str>,
}

/// Every route with the callers let in, read from the groups: the
/// contract the role test walks.
pub fn route_table() -> Vec<Route> {
    table_of(groups())
}

/// The routes of these groups with the callers let in.
fn table_of(groups: impl IntoIterator<Item = Routes>) -> Vec<Route> {
    let mut table = Vec::new();
    for group in groups {
        let callers = group.callers.names();
        match group.kind {
            Kind::Api(routes) => {
                let (_, document) = routes.split_for_parts();
                for (path, item) in &document.paths.paths {
                    for (method, _) in operations(item) {
                        table.push(Route { method, path: path.clone(), callers: callers.clone() });
                    }
                }
            }
            Kind::Pages(pages) => {
                for page in pages {
                    let method = if page.method == Method::POST { "POST" } else { "GET" };
                    table.push(Route { method, path: page.path.to_string(), callers: callers.clone() });
                }
            }
        }
    }
    table
}

/// The routers of every group: those a browser or the desk reaches, and
/// the kiosks' (kept apart: the ballot's hot path skips the browser
/// layer's work).
pub(crate) fn routers(state: &AppState) -> (Router<AppState>, Router<AppState>) {
    let (mut people, mut kiosks) = (Router::new(), Router::new());
    for group in groups() {
        let router = match group.kind {
            Kind::Api(routes) => routes.split_for_parts().0,
            Kind::Pages(pages) => {
                pages.into_iter().fold(Router::new(), |router, page| router.route(page.path, page.handler))
            }
        };
        match group.callers {
            Callers::Public => people = people.merge(router),
            Callers::Staff(roles) => {
                let gate =
                    axum::middleware::from_fn_with_state((state.clone(), roles), crate::access::staff_gate);
                people = people.merge(router.route_layer(gate));
            }
            Callers::Kiosk => {
                let gate = axum::middleware::from_fn_with_state(state.clone(), crate::access::kiosk_gate);
                // Inside the gate: only an enrolled kiosk's body is read,
                // within the body time-out and size everyone has.
                let body = axum::middleware::from_fn_with_state(state.clone(), crate::limits::bound_body);
                kiosks = kiosks.merge(router.route_layer(body).route_layer(gate));
            }
        }
    }
    (people, kiosks)
}

/// The router of the internet listener (`serve --public-listen`): the
/// groups marked [`Routes::on_internet`], all of them the public's. The
/// consoles' pages, the staff's and the kiosks' routes are not there at
/// all: on that listener they are unknown paths (`404`), whatever
/// credential comes with them.
///
/// # Panics
/// When a staff or kiosk group is marked for the internet: a programming
/// error the tests meet at once (`internet_routes_are_the_publics`).
pub(crate) fn internet_router() -> Router<AppState> {
    let mut internet = Router::new();
    for group in groups().into_iter().filter(|g| g.internet) {
        assert!(
            matches!(group.callers, Callers::Public),
            "only the public's routes are served on the internet listener"
        );
        internet = internet.merge(match group.kind {
            Kind::Api(routes) => routes.split_for_parts().0,
            Kind::Pages(pages) => {
                pages.into_iter().fold(Router::new(), |router, page| router.route(page.path, page.handler))
            }
        });
    }
    internet
}

/// The paths of the internet listener's routes, with their methods: what
/// the README and the threat model say is reachable from outside.
pub fn internet_table() -> Vec<Route> {
    table_of(groups().into_iter().filter(|g| g.internet))
}

/// The operations of a path, with their methods.
fn operations(item: &utoipa::openapi::PathItem) -> Vec<(&'static str, &Operation)> {
    [
        ("GET", &item.get),
        ("POST", &item.post),
        ("PUT", &item.put),
        ("DELETE", &item.delete),
        ("PATCH", &item.patch),
    ]
    .into_iter()
    .filter_map(|(method, operation)| operation.as_ref().map(|o| (method, o)))
    .collect()
}

/// The same, to change them.
fn operations_mut(item: &mut utoipa::openapi::PathItem) -> Vec<&mut Operation> {
    [&mut item.get, &mut item.post, &mut item.put, &mut item.delete, &mut item.patch]
        .into_iter()
        .filter_map(Option::as_mut)
        .collect()
}

/// The API's document: every route of every group with its request, its
/// answers and their schemas, its error codes, and the callers it lets in
/// (`security`, and `x-roles` by name).
pub fn openapi() -> OpenApi {
    let mut document = utoipa::openapi::OpenApiBuilder::new()
        .info(
            utoipa::openapi::InfoBuilder::new()
                .title("asamblea")
                .version("1")
                .description(Some(
                    "La API del servicio de la sede: votación electrónica de asambleas de accionistas. / \
                     The venue daemon's API: electronic voting at shareholders' meetings.\n\n\
                     Every error answer is `ErrorAnswer`, its `code` one of `ErrorCode`, with the message in \
                     Spanish first and in English. Staff send `Authorization: Bearer <token>` (or, from a \
                     console, its session cookie and `x-asamblea-csrf` on a change); a kiosk presents its \
                     client certificate. Each operation's `x-roles` names who may call it. Generated from \
                     the types of `asamblea-api` (crates/server/src/routes.rs); never edited by hand.",
                ))
                .build(),
        )
        .build();
    let mut components = utoipa::openapi::ComponentsBuilder::new()
        .security_scheme(
            "staff_token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("A staff member's token, printed when the meeting was created"))
                    .build(),
            ),
        )
        .security_scheme(
            "kiosk_certificate",
            SecurityScheme::MutualTls {
                description: Some(
                    "An enrolled kiosk's client certificate, signed by the venue CA".to_string(),
                ),
                extensions: None,
                deprecated: None,
            },
        )
        .build();
    for group in groups() {
        let Kind::Api(routes) = group.kind else { continue };
        let (_, mut part) = routes.split_for_parts();
        let names = group.callers.names();
        for item in part.paths.paths.values_mut() {
            for operation in operations_mut(item) {
                operation.extensions = Some(ExtensionsBuilder::new().add("x-roles", names.clone()).build());
                for (status, codes) in common_errors(group.callers) {
                    operation
                        .responses
                        .responses
                        .entry(status.to_string())
                        .or_insert_with(|| error_response(codes));
                }
                operation.security = match group.callers {
                    Callers::Public => None,
                    Callers::Staff(_) => {
                        Some(vec![SecurityRequirement::new("staff_token", Vec::<String>::new())])
                    }
                    Callers::Kiosk => {
                        Some(vec![SecurityRequirement::new("kiosk_certificate", Vec::<String>::new())])
                    }
                };
            }
        }
        if let Some(schemas) = part.components.take() {
            components.schemas.extend(schemas.schemas);
        }
        document.paths.merge(part.paths);
    }
    components.schemas.extend(asamblea_api::formats::all());
    document.components = Some(components);
    document
}

/// The errors any route of `callers` may answer, whatever its handler
/// does: its gate's, the body's, and the daemon's own.
fn common_errors(callers: Callers) -> Vec<(u16, &'static str)> {
    let mut errors = vec![
        (400, "`bad-request`: a body, a parameter or a query that is not what the route takes"),
        (413, "`payload-too-large`"),
        (500, "`internal`: a failure inside the daemon, logged under the answer's `incident`"),
        (503, "`ledger-failure`: the ledger could not be saved; `server-full`: the public's room is full"),
    ];
    match callers {
        Callers::Public => {}
        Callers::Staff(_) => errors.extend([
            (401, "`unauthorized`: no staff token, or an unknown one"),
            (
                403,
                "`forbidden`: another role's route; `csrf`: a console's change without its session's token",
            ),
            (429, "`too-many-sign-ins`: too many wrong tokens from this address"),
        ]),
        Callers::Kiosk => errors.extend([(403, "`kiosk-certificate-required`"), (429, "`rate-limited`")]),
    }
    errors
}

/// An error answer of the API, with the codes it may carry.
fn error_response(codes: &str) -> utoipa::openapi::RefOr<utoipa::openapi::Response> {
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    ResponseBuilder::new()
        .description(codes)
        .content(
            "application/json",
            ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorAnswer"))).build(),
        )
        .build()
        .into()
}

/// [`openapi`] as the JSON the daemon serves and `crates/server/openapi.json`
/// commits, made once.
pub fn openapi_json() -> &'static str {
    static DOCUMENT: OnceLock<String> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        let mut text = openapi().to_pretty_json().expect("the document serializes");
        text.push('\n');
        text
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed copy, `crates/server/openapi.json`, is the generated
    /// document: a handler or a type that changes without it fails here.
    /// `ASAMBLEA_WRITE_OPENAPI=1 cargo test -p asamblea-server openapi`
    /// writes it anew.
    #[test]
    fn the_committed_openapi_document_is_the_generated_one() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi.json");
        if std::env::var_os("ASAMBLEA_WRITE_OPENAPI").is_some() {
            std::fs::write(&path, openapi_json()).expect("writes the document");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == openapi_json(),
            "{} no es el documento generado / is not the generated document: \
             ASAMBLEA_WRITE_OPENAPI=1 cargo test -p asamblea-server openapi, and commit it",
            path.display()
        );
    }

    /// An OpenAPI validator refuses a document where two operations share
    /// an id (a handler's name): two modules' `figures` did once.
    #[test]
    fn every_operation_has_an_id_of_its_own() {
        let document: serde_json::Value = serde_json::from_str(openapi_json()).unwrap();
        let mut ids: Vec<&str> = document["paths"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|item| item.as_object().unwrap().values())
            .filter_map(|operation| operation["operationId"].as_str())
            .collect();
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "an operationId twice among {ids:?}");
    }

    #[test]
    fn every_api_route_is_documented_with_its_callers_and_every_answer_has_a_schema() {
        let document: serde_json::Value = serde_json::from_str(openapi_json()).unwrap();
        let api: Vec<Route> = route_table()
            .into_iter()
            .filter(|r| r.path.starts_with("/api/v1/") && r.path != "/api/v1/openapi.json")
            .collect();
        assert!(api.len() >= 27, "the API's routes: {api:?}");
        for route in &api {
            let operation = &document["paths"][&route.path][route.method.to_lowercase()];
            assert!(operation.is_object(), "{} {} is not documented", route.method, route.path);
            assert_eq!(
                operation["x-roles"],
                serde_json::json!(route.callers),
                "{} {}",
                route.method,
                route.path
            );
            for (status, answer) in operation["responses"].as_object().unwrap() {
                assert!(
                    answer["content"]
                        .as_object()
                        .is_some_and(|c| c.values().all(|m| m["schema"].is_object())),
                    "{} {} {status}: an answer without a schema",
                    route.method,
                    route.path
                );
            }
        }
        // The pages are outside the document; every documented path is a route.
        let paths = document["paths"].as_object().unwrap();
        assert_eq!(paths.values().map(|p| p.as_object().unwrap().len()).sum::<usize>(), api.len());
    }

    #[test]
    fn the_role_table_is_read_from_the_groups() {
        let table = route_table();
        let find = |method: &str, path: &str| {
            table.iter().find(|r| r.method == method && r.path == path).map(|r| r.callers.clone())
        };
        assert_eq!(find("POST", "/api/v1/ballots"), Some(vec!["kiosk"]));
        assert_eq!(find("GET", "/api/v1/desk"), Some(vec!["operator", "secretary", "auditor"]));
        assert_eq!(find("GET", "/api/v1/statements"), Some(vec!["secretary", "auditor"]));
        assert_eq!(find("POST", "/api/v1/statements"), Some(vec!["secretary"]));
        assert_eq!(find("GET", "/registro"), Some(vec!["public"]));
        let mut seen = std::collections::HashSet::new();
        for route in &table {
            assert!(seen.insert((route.method, route.path.clone())), "{} {} twice", route.method, route.path);
        }
    }
}
