//! What every device agrees on about the network, whatever carries its links: the names of
//! the protocol, and the ways to play (on the LAN, alone, through relays).

use iroh::endpoint::QuicTransportConfig;
use iroh::{RelayMode, RelayUrl};
use std::time::Duration;

/// How often an idle connection proves it is alive. The same on every device.
pub const KEEP_ALIVE: Duration = Duration::from_millis(750);
/// A peer silent for this long is gone: its link drops and reconnection starts. Short,
/// because at a table a vanished phone should show as away within seconds.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(4);

/// The QUIC settings every Hoard device uses: keep-alive and idle timeout tuned so a
/// vanished peer is noticed in seconds, not the default half minute.
pub fn transport_config() -> QuicTransportConfig {
    let idle = IDLE_TIMEOUT.try_into().map(Some).unwrap_or(None);
    QuicTransportConfig::builder()
        .keep_alive_interval(KEEP_ALIVE)
        .default_path_keep_alive_interval(KEEP_ALIVE)
        .max_idle_timeout(idle)
        .default_path_max_idle_timeout(IDLE_TIMEOUT)
        .build()
}

/// The application protocol every Hoard connection speaks.
pub const ALPN: &[u8] = b"hoard/1";
/// The same protocol, dialed by a shared screen: a device at a game admits a connection
/// from a device without a seat only if it says, this way, that it comes to watch.
pub const SCREEN_ALPN: &[u8] = b"hoard/1/screen";

/// Where the device plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetMode {
    /// The local network: direct addresses only, tables advertised and found over mDNS.
    Lan,
    /// Loopback only (127.0.0.1), no mDNS: several devices on one machine, joined by
    /// ticket. For tests and benchmarks; nothing leaves the machine.
    Loopback,
    /// Over the internet through relays (opt-in, [`Relays`]), plus everything `Lan` does.
    Relay,
}

/// The relays a device playing over the internet goes through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Relays {
    /// iroh's public relays.
    #[default]
    Public,
    /// One relay the players run themselves (the `iroh-relay` server), by its URL:
    /// `https://…`, or `http://…` on a network the players trust.
    Own(RelayUrl),
}

impl Relays {
    /// Reads a relay URL as a player typed it.
    pub fn own(url: &str) -> Result<Relays, String> {
        url.trim()
            .parse::<RelayUrl>()
            .map(Relays::Own)
            .map_err(|e| format!("{:?} is not a relay's address: {e}", url.trim()))
    }

    pub fn mode(&self) -> RelayMode {
        match self {
            Relays::Public => RelayMode::Default,
            Relays::Own(url) => RelayMode::custom([url.clone()]),
        }
    }
}
