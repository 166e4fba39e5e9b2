//! A device's links over iroh, natively and in a browser: the mesh on the endpoint the
//! driver bound ([`MeshLinks`]), shared by the machine and the driver ([`SharedLinks`]), and
//! what the mesh's events are to the machine ([`happening`]).

use super::links::Links;
use super::machine::{Device, Happening};
use crate::transport::mesh::{self, Mesh, MeshEvent};
use crate::transport::{NetMode, TableInfo};
use iroh::{Endpoint, EndpointAddr, EndpointId, RelayUrl};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedReceiver;

/// The most frames taken in one go before the device does its work.
const BURST: usize = 256;

/// `first` and what else the mesh has already delivered (up to [`BURST`]), as the machine's
/// happenings: a burst (a catch-up) is then written and worked through once, not per frame.
pub fn burst(
    device: &Device,
    links: Option<&SharedLinks>,
    first: MeshEvent,
    rx: &mut Option<UnboundedReceiver<MeshEvent>>,
) -> Vec<Happening> {
    let mut happened = Vec::new();
    let mut next = Some(first);
    while let Some(event) = next {
        if let Some(h) = happening(device, links, event) {
            happened.push(h);
        }
        next = (happened.len() < BURST)
            .then(|| rx.as_mut().and_then(|rx| rx.try_recv().ok()))
            .flatten();
    }
    happened
}

/// The next of `rx`'s items, or never if there is no `rx` (a device with no links).
pub async fn recv<T>(rx: &mut Option<UnboundedReceiver<T>>) -> Option<T> {
    match rx {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// The device's links over iroh: the mesh, on the endpoint it was bound to.
pub struct MeshLinks {
    pub endpoint: Endpoint,
    pub mesh: Mesh,
    pub mode: NetMode,
    /// A relay every peer is reached through as well as by what its address says: in a
    /// browser, the table's relay that served the page (a browser reaches nothing else).
    pub via: Option<RelayUrl>,
}

/// The mesh, shared by the machine (its links) and the driver (which takes incoming
/// connections into it): both on the one task, so never contended.
#[derive(Clone)]
pub struct SharedLinks(pub Arc<Mutex<MeshLinks>>);

impl SharedLinks {
    pub fn lock(&self) -> MutexGuard<'_, MeshLinks> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Links for SharedLinks {
    fn addr(&self) -> EndpointAddr {
        self.lock().addr()
    }

    fn connect(&mut self, addr: EndpointAddr, dial: bool) {
        let mut links = self.lock();
        let addr = links.through(addr);
        links.mesh.connect(addr, dial);
    }

    fn connect_as_screen(&mut self, addr: EndpointAddr) {
        let mut links = self.lock();
        let addr = links.through(addr);
        links.mesh.connect_as_screen(addr);
    }

    fn knock(&mut self, addr: EndpointAddr) {
        let mut links = self.lock();
        let addr = links.through(addr);
        links.mesh.knock(addr);
    }

    fn disconnect(&mut self, peer: &EndpointId) {
        self.lock().mesh.disconnect(peer);
    }

    fn cut_off(&mut self, peer: &EndpointId, ms: u64) {
        tracing::info!("cutting {} off for a while", peer.fmt_short());
        self.lock().mesh.cut_off(peer, Duration::from_millis(ms));
    }

    fn send(&mut self, peer: &EndpointId, bytes: Vec<u8>, synced: bool) -> bool {
        let links = self.lock();
        if synced {
            links.mesh.send_synced(peer, bytes)
        } else {
            links.mesh.send(peer, bytes)
        }
    }

    fn has(&self, peer: &EndpointId) -> bool {
        self.lock().mesh.has(peer)
    }

    fn peers(&self) -> Vec<EndpointId> {
        self.lock().mesh.peers().copied().collect()
    }

    fn advertise(&mut self, table: Option<&TableInfo>) {
        // A browser has no mDNS: its tables are reached by join code only.
        #[cfg(not(target_arch = "wasm32"))]
        crate::transport::endpoint::advertise(
            &self.lock().endpoint,
            table.map(TableInfo::to_user_data),
        );
        #[cfg(target_arch = "wasm32")]
        let _ = table;
    }
}

impl MeshLinks {
    /// `addr`, and the relay every peer is reached through, if there is one.
    fn through(&self, addr: EndpointAddr) -> EndpointAddr {
        match &self.via {
            Some(relay) => addr.with_relay_url(relay.clone()),
            None => addr,
        }
    }

    fn addr(&self) -> EndpointAddr {
        #[cfg(not(target_arch = "wasm32"))]
        if self.mode == NetMode::Loopback {
            use crate::transport::endpoint;
            use iroh::TransportAddr;
            // Only loopback addresses: nothing in a test's ticket points off the machine.
            let ips = self
                .endpoint
                .bound_sockets()
                .into_iter()
                .filter(endpoint::is_loopback)
                .map(TransportAddr::Ip);
            return EndpointAddr::from_parts(self.endpoint.id(), ips);
        }
        self.through(self.endpoint.addr())
    }
}

/// What a mesh event is to the machine; a connection from a device without a link is
/// taken or refused here, as the machine says.
pub fn happening(
    device: &Device,
    links: Option<&SharedLinks>,
    event: MeshEvent,
) -> Option<Happening> {
    match event {
        MeshEvent::Incoming { conn } => {
            let peer = conn.remote_id();
            if let Some(links) = links
                && device.welcome(&peer, conn.alpn() == crate::transport::SCREEN_ALPN)
            {
                links.lock().mesh.adopt(conn);
            } else {
                tracing::info!(
                    "refused a connection from {}: not seated at this table",
                    peer.fmt_short()
                );
                mesh::refuse(&conn, "not seated at this table");
            }
            None
        }
        MeshEvent::Up { peer } => Some(Happening::LinkUp(peer)),
        MeshEvent::Down { peer, why } => {
            tracing::debug!("link to {} down: {why}", peer.fmt_short());
            Some(Happening::LinkDown(peer))
        }
        MeshEvent::Frame { peer, bytes } => Some(Happening::Frame(peer, bytes)),
    }
}
