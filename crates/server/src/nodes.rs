//! A replicated meeting's nodes, as the pages see them: `GET
//! /api/v1/nodes` lists where each node serves, and the pages' Content
//! Security Policy lets them ask those addresses (and no other) whether
//! they serve, so that a console or the board open at a node that died
//! goes on at the one that leads now (`nodes.js`). The addresses come from
//! the copy in etcd, where each node published its own
//! (`docs/replication.md`); a meeting on one machine has none.

use std::sync::RwLock;

use axum::extract::State;
use axum::http::HeaderValue;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use asamblea_api::public::{NodeAddress, Nodes};

use crate::callers::{get_page, Callers, Routes};
use crate::AppState;

/// The policy of every page: only what the daemon itself serves, and in a
/// replicated meeting the other nodes' addresses, which a page may ask
/// whether they serve and post a console's session pass to (`passes`).
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     connect-src 'self'{}; form-action 'self'{}; frame-ancestors 'none'; base-uri 'none'";

/// The nodes known, and the policy that names them.
pub(crate) struct Known {
    nodes: RwLock<Nodes>,
    policy: RwLock<HeaderValue>,
}

impl Default for Known {
    fn default() -> Known {
        Known { nodes: RwLock::new(Nodes::default()), policy: RwLock::new(policy(&[])) }
    }
}

/// Whether `address` is a plain `host:port` (a name or an IP, v6 in
/// brackets): nothing else may reach the policy's header.
fn plain(address: &str) -> bool {
    let Some((host, port)) = address.rsplit_once(':') else { return false };
    let host = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
    !host.is_empty()
        && port.parse::<u16>().is_ok_and(|p| p > 0)
        && host.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':'))
}

fn policy(nodes: &[NodeAddress]) -> HeaderValue {
    let others: String = nodes.iter().map(|n| format!(" https://{}", n.address)).collect();
    HeaderValue::from_str(&POLICY.replace("{}", &others))
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'none'"))
}

impl Known {
    /// Whether the meeting is replicated: nodes have published where they
    /// serve.
    pub(crate) fn replicated(&self) -> bool {
        !self.nodes.read().unwrap_or_else(std::sync::PoisonError::into_inner).nodes.is_empty()
    }

    /// Whether `origin` (a request's `Origin`) is a page of one of the
    /// nodes: `https://` and a published address, as a browser writes it
    /// (the host in lower case, no `:443`).
    pub(crate) fn names_origin(&self, origin: &str) -> bool {
        let Some(address) = origin.strip_prefix("https://") else { return false };
        let nodes = self.nodes.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        nodes.nodes.iter().any(|n| {
            let published = n.address.to_ascii_lowercase();
            published == address || published.strip_suffix(":443") == Some(address)
        })
    }

    /// The Content-Security-Policy of every answer now.
    pub(crate) fn policy(&self) -> HeaderValue {
        self.policy.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}

impl AppState {
    /// This node's name and every node's published address (`host:port`);
    /// an address that is not plain `host:port` is left out (it would
    /// reach a header).
    pub fn set_nodes(&self, this: &str, nodes: Vec<(String, String)>) {
        let nodes: Vec<NodeAddress> = nodes
            .into_iter()
            .filter(|(_, address)| plain(address))
            .map(|(name, address)| NodeAddress { name, address })
            .collect();
        let known = &self.0.nodes;
        *known.policy.write().unwrap_or_else(std::sync::PoisonError::into_inner) = policy(&nodes);
        *known.nodes.write().unwrap_or_else(std::sync::PoisonError::into_inner) =
            Nodes { this: Some(this.to_string()), nodes };
    }
}

/// The route, for anyone on the venue's address (never on the internet:
/// the nodes' addresses are the venue's own network).
pub(crate) fn routes() -> Vec<Routes> {
    vec![
        Routes::api(Callers::Public, OpenApiRouter::new().routes(routes!(nodes))),
        // The board on the internet loads it too (and finds no nodes).
        Routes::pages(Callers::Public, vec![get_page("/assets/nodes.js", script)]).on_internet(),
    ]
}

/// Every node of a replicated meeting and where it serves.
#[utoipa::path(get, path = "/api/v1/nodes", tag = "public",
    responses((status = 200, description = "The nodes / los nodos", body = Nodes)))]
pub(crate) async fn nodes(State(state): State<AppState>) -> Json<Nodes> {
    Json(state.0.nodes.nodes.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone())
}

async fn script() -> axum::response::Response {
    use axum::response::IntoResponse;
    ([(axum::http::header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("nodes.js"))
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_addresses_reach_the_policy() {
        assert!(plain("10.20.0.12:8443"));
        assert!(plain("sede-2.local:8443"));
        assert!(plain("[fe80::1]:8443"));
        for bad in
            ["10.20.0.12", "10.20.0.12:0", "a b:1", "x:1; script-src *", "https://x:1", ":8443", "x:99999"]
        {
            assert!(!plain(bad), "{bad}");
        }
        let value = policy(&[NodeAddress { name: "sede-2".into(), address: "10.20.0.12:8443".into() }]);
        assert!(value.to_str().unwrap().contains("connect-src 'self' https://10.20.0.12:8443;"), "{value:?}");
        assert!(value.to_str().unwrap().contains("form-action 'self' https://10.20.0.12:8443;"), "{value:?}");
        assert!(policy(&[]).to_str().unwrap().contains("connect-src 'self'; form-action 'self';"));
    }

    /// A page's `Origin` as a browser writes it names a node however its
    /// address was published: the host in lower case, the port 443 left out.
    #[test]
    fn an_origin_names_a_node_as_a_browser_writes_it() {
        let known = Known::default();
        *known.nodes.write().unwrap() = Nodes {
            this: Some("sede-1".into()),
            nodes: vec![
                NodeAddress { name: "sede-1".into(), address: "Sede-1.local:443".into() },
                NodeAddress { name: "sede-2".into(), address: "10.20.0.12:8443".into() },
            ],
        };
        for origin in ["https://sede-1.local", "https://10.20.0.12:8443"] {
            assert!(known.names_origin(origin), "{origin}");
        }
        for origin in
            ["http://10.20.0.12:8443", "https://10.20.0.12", "https://sede-1.local:8443", "null", ""]
        {
            assert!(!known.names_origin(origin), "{origin}");
        }
    }
}
