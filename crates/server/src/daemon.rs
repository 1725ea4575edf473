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
        self.serve_both(listener, limits, None, shutdown).await
    }

    /// [`Daemon::serve`], and, given `internet`, the public's routes
    /// alone on a second listener with the company's certificate
    /// ([`crate::internet_router`]): its own connection pool and limits,
    /// so that a flood there never takes a kiosk's or a staff member's
    /// room on the venue's listener. Both stop together.
    pub async fn serve_both(
        self,
        listener: TcpListener,
        limits: crate::tls::Limits,
        internet: Option<Internet>,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let ticker = crate::spawn_feed_ticker(self.state.clone());
        let watch = crate::remote::presence::spawn_presence_watch(self.state.clone());
        crate::directory::Directory::warm(&self.state);
        let closing = self.state.clone();
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let asked = tokio::spawn(async move {
            shutdown.await;
            // Live feeds end now, so they do not hold the graceful
            // shutdown for its whole grace period.
            closing.begin_shutdown();
            let _ = stop.send(true);
        });
        let until_stopped = |mut stopped: tokio::sync::watch::Receiver<bool>| async move {
            // An error means the sender is gone: stop too.
            let _ = stopped.wait_for(|stop| *stop).await;
        };
        let outside = internet.map(|internet| {
            let app = crate::internet_router(self.state.clone());
            // No client certificate is asked for there, so no kiosk is
            // ever recognised: the registry only has to exist.
            tokio::spawn(crate::tls::serve_with_limits(
                internet.listener,
                internet.tls,
                app,
                self.kiosks.clone(),
                until_stopped(stopped.clone()),
                internet.limits,
            ))
        });
        let app = crate::router(self.state.clone());
        let served = crate::tls::serve_with_limits(
            listener,
            self.tls,
            app,
            self.kiosks,
            until_stopped(stopped),
            limits,
        )
        .await;
        asked.abort();
        let outside = match outside {
            Some(task) => task.await.map_err(anyhow::Error::from).and_then(|served| served),
            None => Ok(()),
        };
        ticker.abort();
        watch.abort();
        let _ = ticker.await;
        let _ = watch.await;
        served.and(outside)
    }
}

/// The internet listener of [`Daemon::serve_both`]: where the public
/// reaches the board, the receipts and (in a mixed meeting) the remote
/// attendees' page from outside the venue.
pub struct Internet {
    /// Bound to the public address (or to loopback, behind a reverse
    /// proxy).
    pub listener: TcpListener,
    /// The company's certificate and key
    /// ([`asamblea_pki::public_server_config`]).
    pub tls: Arc<ServerConfig>,
    /// Its own caps: connections there are counted apart from the venue's.
    pub limits: crate::tls::Limits,
}
