//! The relay a native device serves on the LAN for the browser seats at its table. A browser
//! cannot send UDP, so iroh in a browser reaches its peers only through a relay: this one runs
//! on the device itself, over plain HTTP on the local network, and reaches for nothing on the
//! internet. What goes through it stays encrypted end to end between the two devices, as on
//! any link; the relay sees only which devices talk to which.

use super::TransportError;
use iroh::RelayUrl;
use iroh_relay::server::{RelayConfig, Server, ServerConfig};
use std::net::{IpAddr, SocketAddr};

/// A relay served on the LAN; it stops when [`LanRelay::stop`] is called or it is dropped.
pub struct LanRelay {
    server: Server,
    url: RelayUrl,
}

impl LanRelay {
    /// Serves a relay on `bind` (port 0: any free port), named by `host`, the address the
    /// other devices reach this one at: `http://<host>:<port>`.
    pub async fn start(bind: SocketAddr, host: IpAddr) -> Result<LanRelay, TransportError> {
        let mut config = ServerConfig::default();
        config.relay = Some(RelayConfig::new(bind));
        let server = Server::spawn(config)
            .await
            .map_err(|e| TransportError::Bind(format!("the table's relay: {e}")))?;
        let port = server
            .http_addr()
            .ok_or_else(|| TransportError::Bind("the table's relay has no address".into()))?
            .port();
        let url = format!("http://{}/", SocketAddr::new(host, port))
            .parse::<RelayUrl>()
            .map_err(|e| TransportError::Bind(format!("the table's relay: {e}")))?;
        Ok(LanRelay { server, url })
    }

    /// The URL devices add to their relays to reach the browser seats.
    pub fn url(&self) -> &RelayUrl {
        &self.url
    }

    /// Stops serving; the devices that went through it lose those links.
    pub async fn stop(self) {
        if let Err(e) = self.server.shutdown().await {
            tracing::info!("the table's relay stopped with: {e}");
        }
    }
}
