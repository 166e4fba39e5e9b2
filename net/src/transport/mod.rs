//! The iroh transport: one QUIC endpoint per device on the local network, the open tables it
//! advertises and sees, join tickets, and a full mesh of framed, reconnecting peer links.
//!
//! Nothing here knows the rules or the protocol core: it moves opaque frames between
//! devices. [`crate::handle`] puts the protocol on top.
//!
//! - [`settings`]: the protocol's names (ALPN `hoard/1`) and the ways to play.
//! - [`endpoint`]: binding the endpoint (identity key, LAN-first settings).
//! - [`table`]: the table card advertised over mDNS ([`table::TableInfo`]).
//! - [`ticket`]: join codes to paste or show as a QR code.
//! - [`discovery`]: the list of open tables on the LAN.
//! - [`frame`]: length-prefixed frames on QUIC streams.
//! - [`mesh`]: one link per peer device, with an outbox, keep-alive and reconnection.
//! - [`lan_relay`]: the relay a device serves on the LAN for browser seats.
//! - [`table_web`]: that relay and the browser seat's page, on one port.
//!
//! In a browser (`wasm32`) only what the device machine and the tickets need is built: the
//! endpoint, discovery and the mesh are a native device's (tokio, UDP, mDNS).

#[cfg(not(target_arch = "wasm32"))]
pub mod discovery;
#[cfg(not(target_arch = "wasm32"))]
pub mod endpoint;
pub mod frame;
#[cfg(not(target_arch = "wasm32"))]
pub mod lan_relay;
pub mod mesh;
pub mod settings;
pub mod table;
#[cfg(not(target_arch = "wasm32"))]
pub mod table_web;
pub mod ticket;

#[cfg(not(target_arch = "wasm32"))]
pub use endpoint::{EndpointOptions, bind_endpoint};
pub use iroh::RelayUrl;
pub use settings::{ALPN, NetMode, Relays, SCREEN_ALPN};
pub use table::{PROTOCOL_VERSION, TableId, TableInfo};

/// Why the transport could not do something, in words a player can act on.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    #[error("the network could not be started: {0}")]
    Bind(String),
    #[error("that join code is not valid: {0}")]
    BadTicket(String),
    #[error("could not reach the table: {0}")]
    Connect(String),
    #[error("the connection broke: {0}")]
    Link(String),
    #[error("a message was too large ({0} bytes)")]
    TooLarge(usize),
    #[error("table discovery on the local network could not start: {0}")]
    Discovery(String),
}
