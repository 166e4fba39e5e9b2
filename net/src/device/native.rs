//! The native driver: one tokio task that runs a [`Device`] on this machine, with the iroh
//! endpoint and the mesh for its links, mDNS for the tables around, the disk for its
//! storage and the system's clock and randomness. It only carries things between the
//! machine and the world; what the device does is in [`super::machine`].

use super::links::Links;
use super::machine::{Device, Happening};
use super::mesh_links::{MeshLinks, SharedLinks, burst, recv};
use super::profile::{load_port, save_port};
use super::{Out, ToDevice};
use crate::core::Time;
use crate::identity::{SecretKey, SystemRandom};
use crate::storage::Folder;
use crate::table_types::{Network, Update};
use crate::transport::discovery::Discovery;
use crate::transport::endpoint::{self, EndpointOptions};
use crate::transport::mesh::{Mesh, MeshEvent};
use crate::transport::{NetMode, RelayUrl, Relays, TableInfo};
use iroh::Endpoint;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc as tokio_mpsc;

/// What the native driver holds besides the machine.
struct World {
    clock: Instant,
    out: Out,
    endpoint: Option<Endpoint>,
    mesh_rx: Option<tokio_mpsc::UnboundedReceiver<MeshEvent>>,
    tables_rx: Option<tokio_mpsc::UnboundedReceiver<Vec<TableInfo>>>,
    _discovery: Option<Discovery>,
}

impl World {
    fn now(&self) -> Time {
        Time(self.clock.elapsed().as_millis() as u64)
    }
}

/// Binds the endpoint for `network` (none offline), waiting briefly for the addresses a
/// ticket needs to be listed. A failure is told to the player, who can still play
/// offline.
async fn bind(
    data: &Folder,
    key: &SecretKey,
    network: &Network,
    lan_relay: Option<RelayUrl>,
    world: &mut World,
) -> Option<MeshLinks> {
    let (mode, relays) = match network {
        Network::Offline => return None,
        Network::Lan => (NetMode::Lan, Relays::Public),
        Network::Relay(relays) => (NetMode::Relay, relays.clone()),
        Network::Loopback => (NetMode::Loopback, Relays::Public),
    };
    let mut options = EndpointOptions::new(mode);
    options.relays = relays;
    options.lan_relay = lan_relay;
    options.port = load_port(data);
    let bound = match endpoint::bind_endpoint(key.clone(), &options).await {
        Ok(bound) => bound,
        Err(e) => {
            world.out.emit(Update::Error(format!(
                "{e}. You can still play offline against bots."
            )));
            return None;
        }
    };
    if let Some(port) = bound
        .endpoint
        .bound_sockets()
        .iter()
        .find(|a| a.is_ipv4())
        .map(|a| a.port())
    {
        save_port(data, port);
    }
    let (mesh_tx, mesh_rx) = tokio_mpsc::unbounded_channel();
    let mesh = Mesh::new(bound.endpoint.clone(), mesh_tx);
    world._discovery = bound.mdns.map(|mdns| {
        let (tx, rx) = tokio_mpsc::unbounded_channel();
        world.tables_rx = Some(rx);
        Discovery::start(mdns, tx)
    });
    world.mesh_rx = Some(mesh_rx);
    world.endpoint = Some(bound.endpoint.clone());
    // A ticket made before the interfaces are listed would hold no address.
    let deadline = Instant::now() + Duration::from_secs(1);
    while Instant::now() < deadline {
        let usable = bound
            .endpoint
            .addr()
            .ip_addrs()
            .any(|a| mode != NetMode::Loopback || endpoint::is_loopback(a));
        if usable {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    Some(MeshLinks {
        endpoint: bound.endpoint,
        mesh,
        mode,
        via: None,
    })
}

/// Runs the device whose identity is `key` and whose data is in `data` until the handle
/// is dropped or shut down.
pub async fn run(
    data: Folder,
    key: SecretKey,
    network: Network,
    lan_relay: Option<RelayUrl>,
    out: Out,
    mut inputs: tokio_mpsc::UnboundedReceiver<ToDevice>,
) {
    let mut world = World {
        clock: Instant::now(),
        out,
        endpoint: None,
        mesh_rx: None,
        tables_rx: None,
        _discovery: None,
    };
    let links = bind(&data, &key, &network, lan_relay, &mut world)
        .await
        .map(|l| SharedLinks(Arc::new(Mutex::new(l))));
    let boxed = links.clone().map(|l| Box::new(l) as Box<dyn Links>);
    let mut device = Device::new(data, key, boxed, Box::new(SystemRandom), world.now());
    loop {
        for event in device.take_events() {
            world.out.emit(event);
        }
        let deadline = device
            .next_timeout()
            .map(|t| world.clock + Duration::from_millis(t.as_millis()));
        tokio::select! {
            input = inputs.recv() => match input {
                Some(ToDevice::Command(cmd)) => device.handle(world.now(), Happening::Command(cmd)),
                Some(ToDevice::Shutdown) | None => break,
            },
            Some(event) = recv(&mut world.mesh_rx) => {
                let happened = burst(&device, links.as_ref(), event, &mut world.mesh_rx);
                device.handle_all(world.now(), happened);
            }
            Some(list) = recv(&mut world.tables_rx) => device.handle(world.now(), Happening::Tables(list)),
            _ = sleep_until(deadline) => device.handle(world.now(), Happening::Timeout),
        }
    }
    device.shutdown();
    for event in device.take_events() {
        world.out.emit(event);
    }
    // Give queued frames a moment to leave, then close so peers notice at once.
    if let Some(endpoint) = world.endpoint.take() {
        tokio::time::sleep(Duration::from_millis(20)).await;
        drop(device);
        drop(links);
        let _ = tokio::time::timeout(Duration::from_millis(500), endpoint.close()).await;
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}
