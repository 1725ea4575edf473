//! What a caller's module declares of its routes: groups of routes, each
//! with the callers it lets in ([`Routes`], [`Callers`]). `routes`
//! assembles them; the caller modules only name this one.

use axum::http::Method;
use axum::routing::MethodRouter;
use utoipa_axum::router::OpenApiRouter;

use asamblea_venue::staff::Role;

use crate::AppState;

/// Who a group of routes lets in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Callers {
    /// Anyone.
    Public,
    /// Staff members of these roles (a bearer token, or a console's
    /// session cookie with its CSRF token for a change).
    Staff(&'static [Role]),
    /// An enrolled kiosk (its client certificate).
    Kiosk,
}

impl Callers {
    /// The callers' names as the role table and the document give them.
    pub fn names(self) -> Vec<&'static str> {
        match self {
            Callers::Public => vec!["public"],
            Callers::Kiosk => vec!["kiosk"],
            Callers::Staff(roles) => roles.iter().map(|r| r.code()).collect(),
        }
    }
}

/// A group of routes and the callers it lets in.
pub(crate) struct Routes {
    pub(crate) callers: Callers,
    pub(crate) kind: Kind,
    /// Whether the group is served on the internet listener too (`serve
    /// --public-listen`), beside the venue's. Only the public's groups may
    /// be ([`Routes::on_internet`]): staff and kiosks work in the venue.
    pub(crate) internet: bool,
}

/// API routes, documented; or pages and assets, served as they are.
pub(crate) enum Kind {
    Api(Box<OpenApiRouter<AppState>>),
    Pages(Vec<Page>),
}

/// A page or an asset: its method, path and handler.
pub(crate) struct Page {
    pub(crate) method: Method,
    pub(crate) path: &'static str,
    pub(crate) handler: MethodRouter<AppState>,
}

/// A page served to `GET`.
pub(crate) fn get_page<H, T>(path: &'static str, handler: H) -> Page
where
    H: axum::handler::Handler<T, AppState>,
    T: 'static,
{
    Page { method: Method::GET, path, handler: axum::routing::get(handler) }
}

/// A form posted to a page.
pub(crate) fn post_page<H, T>(path: &'static str, handler: H) -> Page
where
    H: axum::handler::Handler<T, AppState>,
    T: 'static,
{
    Page { method: Method::POST, path, handler: axum::routing::post(handler) }
}

impl Routes {
    /// API routes let in for `callers`.
    pub(crate) fn api(callers: Callers, routes: OpenApiRouter<AppState>) -> Routes {
        Routes { callers, kind: Kind::Api(Box::new(routes)), internet: false }
    }

    /// Pages and assets for `callers` (a console page lets anyone reach it
    /// and sends who is not signed in to `/personal`).
    pub(crate) fn pages(callers: Callers, pages: Vec<Page>) -> Routes {
        Routes { callers, kind: Kind::Pages(pages), internet: false }
    }

    /// The same group, served on the internet listener as well as the
    /// venue's. A staff or kiosk group is never: asking it is a bug, and
    /// the router refuses to build ([`crate::routes::internet_router`]).
    pub(crate) fn on_internet(self) -> Routes {
        Routes { internet: true, ..self }
    }
}
