//! Binding a device's iroh endpoint: its persisted key is the player's identity, it speaks
//! ALPN `hoard/1`, and on the LAN it reaches for nothing on the internet (no relay but the
//! one a device at the table serves, no port mapping, no DNS fallback), so starting with
//! only loopback never stalls.

use super::TransportError;
use super::{ALPN, NetMode, Relays, SCREEN_ALPN};
use iroh::address_lookup::UserData;
use iroh::dns::{DnsResolver, FallbackMode};
use iroh::endpoint::{NetReportConfig, PortmapperConfig, presets};
use iroh::{Endpoint, RelayMode, RelayUrl, SecretKey};
use iroh_mdns_address_lookup::MdnsAddressLookup;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

pub use super::mesh::CONNECT_TIMEOUT;
pub use super::settings::{IDLE_TIMEOUT, KEEP_ALIVE, transport_config};

/// How to bind one endpoint.
#[derive(Clone, Debug)]
pub struct EndpointOptions {
    pub mode: NetMode,
    /// Run mDNS: advertise this device and list the tables of others.
    pub mdns: bool,
    /// The UDP port to bind (IPv4), so that a restarted device is found where it was;
    /// `None` or a port now taken: any free port.
    pub port: Option<u16>,
    /// The relays, in [`NetMode::Relay`].
    pub relays: Relays,
    /// On the LAN (or loopback): the relay a device at the table serves for its browser
    /// seats ([`super::lan_relay`]), the only relay then; direct links stay as they are.
    pub lan_relay: Option<RelayUrl>,
}

impl EndpointOptions {
    pub fn new(mode: NetMode) -> EndpointOptions {
        EndpointOptions {
            mode,
            mdns: mode != NetMode::Loopback,
            port: None,
            relays: Relays::Public,
            lan_relay: None,
        }
    }
}

/// The mDNS service name Hoard devices announce themselves under.
pub const MDNS_SERVICE: &str = "hoard";

/// A bound endpoint and, on the LAN, the mDNS listener that feeds the list of tables.
pub struct Bound {
    pub endpoint: Endpoint,
    pub mdns: Option<MdnsAddressLookup>,
}

/// Binds the device's endpoint with `key` as its identity. Must run inside a tokio runtime.
pub async fn bind_endpoint(
    key: SecretKey,
    options: &EndpointOptions,
) -> Result<Bound, TransportError> {
    let endpoint = match options.port {
        Some(port) => match bind_once(key.clone(), options, port).await {
            Ok(endpoint) => endpoint,
            Err(e) => {
                tracing::info!("port {port} is not free ({e}); binding another");
                bind_once(key, options, 0).await?
            }
        },
        None => bind_once(key, options, 0).await?,
    };
    let browser = if options.mdns {
        let lookup = |e: String| TransportError::Discovery(e);
        // The endpoint's own service: announces this device (and its table card) and
        // finds peers' addresses when dialing them by id.
        let service = MdnsAddressLookup::builder()
            .service_name(MDNS_SERVICE)
            .build(endpoint.id())
            .map_err(|e| lookup(e.to_string()))?;
        endpoint
            .address_lookup()
            .map_err(|e| lookup(e.to_string()))?
            .add(service);
        // A second, silent one only for the list of tables. The endpoint's service sends
        // every change about a peer it is resolving (one being dialed) to the resolver
        // instead of its subscribers, so a list fed by it would miss a table closing.
        let browser = MdnsAddressLookup::builder()
            .service_name(MDNS_SERVICE)
            .advertise(false)
            .build(endpoint.id())
            .map_err(|e| lookup(e.to_string()))?;
        Some(browser)
    } else {
        None
    };
    Ok(Bound {
        endpoint,
        mdns: browser,
    })
}

async fn bind_once(
    key: SecretKey,
    options: &EndpointOptions,
    port: u16,
) -> Result<Endpoint, TransportError> {
    let bind = |e: String| TransportError::Bind(e);
    // System nameservers only, never public fallbacks: on a LAN with no internet a DNS
    // lookup must fail fast rather than wait on servers it cannot reach.
    let dns = DnsResolver::builder()
        .with_system_defaults()
        .with_fallback_mode(FallbackMode::Never)
        .build();
    let mut builder = Endpoint::builder(presets::Minimal)
        .secret_key(key)
        .alpns(vec![ALPN.to_vec(), SCREEN_ALPN.to_vec()])
        .transport_config(transport_config())
        .dns_resolver(dns)
        .portmapper_config(PortmapperConfig::Disabled);
    // An empty map rather than none: a device at a table where a browser sits down adds
    // the table's relay while it runs.
    let lan_relays = RelayMode::custom(options.lan_relay.clone());
    // A LAN relay answers plain HTTP, not QUIC: the endpoint finds it as its home relay
    // by an HTTP probe, and looks for nothing else. Probes go only to the relays the
    // endpoint has: none on the LAN but the table's, bound with it or added later.
    let mut lan_report = NetReportConfig::minimal();
    lan_report.https_probes = true;
    builder = match options.mode {
        NetMode::Lan => builder
            .relay_mode(lan_relays.clone())
            .net_report_config(lan_report)
            .bind_addr(SocketAddr::from((Ipv4Addr::UNSPECIFIED, port)))
            .map_err(|e| bind(e.to_string()))?,
        NetMode::Loopback => builder
            .relay_mode(lan_relays.clone())
            .net_report_config(lan_report)
            .clear_ip_transports()
            .bind_addr(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
            .map_err(|e| bind(e.to_string()))?,
        NetMode::Relay => builder
            .relay_mode(options.relays.mode())
            .bind_addr(SocketAddr::from((Ipv4Addr::UNSPECIFIED, port)))
            .map_err(|e| bind(e.to_string()))?,
    };
    let endpoint = builder.bind().await.map_err(|e| bind(e.to_string()))?;
    if options.mode == NetMode::Relay
        && tokio::time::timeout(RELAY_WAIT, endpoint.online())
            .await
            .is_err()
    {
        // Still usable on the LAN; the relay is retried in the background.
        tracing::warn!("no relay reached in {RELAY_WAIT:?}; playing on without one for now");
    }
    Ok(endpoint)
}

/// How long binding in relay mode waits for the home relay, so that the first join code
/// and the first join carry the relay's address (a peer behind another network can only
/// be reached through it).
pub const RELAY_WAIT: Duration = Duration::from_secs(10);

/// Publishes this device's table card in mDNS, or with `None` a card that says no table
/// is open here. (Withdrawing the user data altogether would not reach the others:
/// iroh-mdns-address-lookup 0.6 republishes without clearing the old TXT attribute.)
pub fn advertise(endpoint: &Endpoint, card: Option<UserData>) {
    endpoint.set_user_data_for_address_lookup(card.or_else(super::table::no_table_card));
}

/// Whether an address is one a loopback-only device may use.
pub fn is_loopback(addr: &SocketAddr) -> bool {
    addr.ip().is_loopback() || addr.ip() == Ipv6Addr::LOCALHOST
}
