//! The daemon assembled from an open meeting, once, for `asamblea serve`,
//! `asamblea demo` and `asamblea bench`: the state, the router, the venue's
//! TLS configuration and kiosk registry, and the live feed's ticker.

use std::future::Future;
use std::sync::Arc;

use rustls::ServerConfig;
use tokio::net::TcpListener;

use asamblea_pki::KioskRegistry;
use asamblea_venue::service::Service;
use asamblea_venue::staff::Accounts;

use crate::{AppState, ServiceLimits};

/// A daemon ready to serve a meeting.
pub struct Daemon {
    /// The state every handler shares (the caller keeps a clone to close
    /// the ledger once served).
    pub state: AppState,
    /// The kiosk registry: the serving layer refuses a revoked kiosk's
    /// certificate; the caller may reload it when the file changes.
    pub kiosks: KioskRegistry,
    tls: Arc<ServerConfig>,
}

impl Daemon {
    /// The daemon of an open meeting: its TLS configuration and kiosk
    /// registry read from the meeting directory, its state with `limits`.
    pub fn assemble(service: Service, accounts: Accounts, limits: ServiceLimits) -> anyhow::Result<Daemon> {
        let dir = service.dir().to_path_buf();
        let tls = asamblea_pki::server_config(&dir)?;
        let kiosks = KioskRegistry::load(&dir)?;
        let state = AppState::new(service, accounts, kiosks.clone())?.with_service_limits(limits);
        Ok(Daemon { state, kiosks, tls })
    }

    /// Serves on `listener` until `shutdown` completes, with the live
    /// feed's ticker running meanwhile; then every live feed ends and
    /// in-flight requests finish (the caller closes the ledger with
    /// [`AppState::close`]).
    pub async fn serve(
        self,
        listener: TcpListener,
        limits: crate::tls::Limits,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let ticker = crate::spawn_feed_ticker(self.state.clone());
        crate::directory::Directory::warm(&self.state);
        let closing = self.state.clone();
        let shutdown = async move {
            shutdown.await;
            // Live feeds end now, so they do not hold the graceful
            // shutdown for its whole grace period.
            closing.begin_shutdown();
        };
        let app = crate::router(self.state.clone());
        let served =
            crate::tls::serve_with_limits(listener, self.tls, app, self.kiosks, shutdown, limits).await;
        ticker.abort();
        let _ = ticker.await;
        served
    }
}
