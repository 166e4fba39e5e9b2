//! One link per peer device: a task that keeps a QUIC connection up (dialing with backoff
//! if this side is the pair's dialer, otherwise waiting for the peer to dial), writes the
//! peer's outbox as frames on one stream, and reports every frame read from the peer's.
//!
//! Exactly one side of each pair dials (the driver decides which, the same way on both
//! sides), so a new connection from a peer always replaces the old one: a restarted peer
//! is back at once instead of after the old connection's idle timeout.
//!
//! Frames queued while a link is down wait in its outbox, except those sent with
//! [`Mesh::send_synced`]: the protocol above swaps log heads on every `Up` and sends again
//! what the other side lacks, so its frames from before a connection are dropped when it
//! comes up (a peer back after a long absence would otherwise first get everything the
//! table said meanwhile, echoes and all, and only then the sync it needs). A frame written
//! just before a connection broke may be lost; the sync on the next `Up` covers it.

use super::endpoint::{ALPN, CONNECT_TIMEOUT};
use super::frame;
use iroh::endpoint::{Connection, VarInt};
use iroh::{Endpoint, EndpointAddr, EndpointId};
use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

/// The first wait before dialing again after a failed dial or a broken link.
pub const BACKOFF_MIN: Duration = Duration::from_millis(100);
/// The longest wait between dials.
pub const BACKOFF_MAX: Duration = Duration::from_secs(2);

/// Close codes, so the other side can tell why a connection ended.
pub const CLOSE_REPLACED: u32 = 1;
pub const CLOSE_REFUSED: u32 = 2;
pub const CLOSE_LEAVING: u32 = 3;

/// What the links report to the driver.
#[derive(Debug)]
pub enum MeshEvent {
    /// A connection to `peer` is up (again): time to swap log heads.
    Up { peer: EndpointId },
    /// The connection to `peer` broke; the link keeps trying.
    Down { peer: EndpointId, why: String },
    /// A frame from `peer` (the connection's authenticated key).
    Frame { peer: EndpointId, bytes: Vec<u8> },
    /// A device this mesh has no link for connected: [`Mesh::adopt`] it or refuse it.
    Incoming { conn: Connection },
}

/// A frame waiting for its link.
struct Outgoing {
    bytes: Vec<u8>,
    /// Sent again by the protocol after every reconnection: dropped, not kept, when the
    /// connection it waited for comes up.
    synced: bool,
}

struct Link {
    outbox: mpsc::UnboundedSender<Outgoing>,
    conns: mpsc::UnboundedSender<Connection>,
    target: watch::Sender<Target>,
    task: JoinHandle<()>,
}

impl Drop for Link {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[derive(Clone, Debug)]
struct Target {
    addr: EndpointAddr,
    dial: bool,
}

/// The device's links to its peers. Owned by the driver task.
pub struct Mesh {
    endpoint: Endpoint,
    events: mpsc::UnboundedSender<MeshEvent>,
    links: BTreeMap<EndpointId, Link>,
    accept: JoinHandle<()>,
}

impl Drop for Mesh {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

impl Mesh {
    /// Starts accepting connections on `endpoint`; everything that happens is sent to
    /// `events`. Must run inside a tokio runtime.
    pub fn new(endpoint: Endpoint, events: mpsc::UnboundedSender<MeshEvent>) -> Mesh {
        let accept = tokio::spawn(accept_loop(endpoint.clone(), events.clone()));
        Mesh {
            endpoint,
            events,
            links: BTreeMap::new(),
            accept,
        }
    }

    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// Keeps a link to the device at `addr`; if `dial`, this side dials it (and redials
    /// after every break), otherwise it waits for the peer to dial. Calling it again
    /// updates the address and the role.
    pub fn connect(&mut self, addr: EndpointAddr, dial: bool) {
        let peer = addr.id;
        if peer == self.endpoint.id() {
            return;
        }
        let target = Target { addr, dial };
        if let Some(link) = self.links.get(&peer) {
            link.target.send_if_modified(|t| {
                let changed =
                    t.dial != target.dial || (!target.addr.is_empty() && t.addr != target.addr);
                if changed {
                    t.dial = target.dial;
                    if !target.addr.is_empty() {
                        t.addr = target.addr.clone();
                    }
                }
                changed
            });
            return;
        }
        self.spawn_link(peer, target);
    }

    /// Dials `addr` once even if this side is not the pair's dialer, and takes the
    /// connection as the link. A device back from a restart does this: the peer's old
    /// connection to it is dead but would only be noticed at its idle timeout, while a new
    /// connection replaces it at once.
    pub fn knock(&mut self, addr: EndpointAddr) {
        let peer = addr.id;
        if peer == self.endpoint.id() || addr.is_empty() {
            return;
        }
        if !self.links.contains_key(&peer) {
            self.connect(addr.clone(), false);
        }
        let Some(link) = self.links.get(&peer) else {
            return;
        };
        let conns = link.conns.clone();
        let endpoint = self.endpoint.clone();
        tokio::spawn(async move {
            if let Ok(Ok(conn)) =
                tokio::time::timeout(CONNECT_TIMEOUT, endpoint.connect(addr, ALPN)).await
            {
                let _ = conns.send(conn);
            }
        });
    }

    /// Takes an incoming connection as the link to its peer, making a (non-dialing) link
    /// if there was none.
    pub fn adopt(&mut self, conn: Connection) {
        let peer = conn.remote_id();
        if !self.links.contains_key(&peer) {
            self.spawn_link(
                peer,
                Target {
                    addr: EndpointAddr::new(peer),
                    dial: false,
                },
            );
        }
        if let Some(link) = self.links.get(&peer) {
            // The link task owns the receiver for as long as the link exists.
            let _ = link.conns.send(conn);
        }
    }

    /// Queues a frame for `peer`; `false` if there is no link to it.
    pub fn send(&self, peer: &EndpointId, bytes: Vec<u8>) -> bool {
        self.queue(peer, bytes, false)
    }

    /// Queues a frame that the protocol sends again after a reconnection (it syncs on
    /// every `Up`): if the link is down, the frame is dropped when it comes back up.
    pub fn send_synced(&self, peer: &EndpointId, bytes: Vec<u8>) -> bool {
        self.queue(peer, bytes, true)
    }

    fn queue(&self, peer: &EndpointId, bytes: Vec<u8>, synced: bool) -> bool {
        match self.links.get(peer) {
            Some(link) => link.outbox.send(Outgoing { bytes, synced }).is_ok(),
            None => false,
        }
    }

    /// Ends the link to `peer` and forgets its outbox.
    pub fn disconnect(&mut self, peer: &EndpointId) {
        self.links.remove(peer);
    }

    /// Ends every link.
    pub fn clear(&mut self) {
        self.links.clear();
    }

    /// The peers this mesh keeps links to.
    pub fn peers(&self) -> impl Iterator<Item = &EndpointId> {
        self.links.keys()
    }

    pub fn has(&self, peer: &EndpointId) -> bool {
        self.links.contains_key(peer)
    }

    fn spawn_link(&mut self, peer: EndpointId, target: Target) {
        let (outbox, outbox_rx) = mpsc::unbounded_channel();
        let (conns, conns_rx) = mpsc::unbounded_channel();
        let (target_tx, target_rx) = watch::channel(target);
        let task = tokio::spawn(run_link(
            self.endpoint.clone(),
            peer,
            target_rx,
            outbox_rx,
            conns_rx,
            self.events.clone(),
        ));
        self.links.insert(
            peer,
            Link {
                outbox,
                conns,
                target: target_tx,
                task,
            },
        );
    }
}

/// Refuses a connection, telling the peer why.
pub fn refuse(conn: &Connection, why: &str) {
    conn.close(VarInt::from_u32(CLOSE_REFUSED), why.as_bytes());
}

async fn accept_loop(endpoint: Endpoint, events: mpsc::UnboundedSender<MeshEvent>) {
    while let Some(incoming) = endpoint.accept().await {
        let events = events.clone();
        // Each handshake runs on its own so one slow peer cannot hold up the others.
        tokio::spawn(async move {
            let Ok(accepting) = incoming.accept() else {
                return;
            };
            match tokio::time::timeout(CONNECT_TIMEOUT, accepting).await {
                Ok(Ok(conn)) => {
                    let _ = events.send(MeshEvent::Incoming { conn });
                }
                Ok(Err(e)) => tracing::debug!("incoming handshake failed: {e}"),
                Err(_) => tracing::debug!("incoming handshake timed out"),
            }
        });
    }
}

/// How a served connection ended.
enum Ended {
    /// It broke (or the peer closed it).
    Broke(String),
    /// The peer dialed again: serve this connection instead.
    Replaced(Connection),
    /// The link was dropped by the driver.
    Gone,
}

async fn run_link(
    endpoint: Endpoint,
    peer: EndpointId,
    mut target: watch::Receiver<Target>,
    mut outbox: mpsc::UnboundedReceiver<Outgoing>,
    mut conns: mpsc::UnboundedReceiver<Connection>,
    events: mpsc::UnboundedSender<MeshEvent>,
) {
    let mut backoff = BACKOFF_MIN;
    let mut next: Option<Connection> = None;
    loop {
        let conn = match next.take() {
            Some(conn) => conn,
            None => {
                let Target { addr, dial } = target.borrow_and_update().clone();
                if dial {
                    tokio::select! {
                        conn = conns.recv() => match conn {
                            Some(conn) => conn,
                            None => return,
                        },
                        dialed = tokio::time::timeout(CONNECT_TIMEOUT, endpoint.connect(addr, ALPN)) => match dialed {
                            Ok(Ok(conn)) => conn,
                            Ok(Err(e)) => {
                                tracing::debug!("dialing {} failed: {e}", peer.fmt_short());
                                if !pause(&mut backoff, &mut conns, &mut next, &mut target).await {
                                    return;
                                }
                                continue;
                            }
                            Err(_) => {
                                tracing::debug!("dialing {} timed out", peer.fmt_short());
                                if !pause(&mut backoff, &mut conns, &mut next, &mut target).await {
                                    return;
                                }
                                continue;
                            }
                        },
                    }
                } else {
                    tokio::select! {
                        conn = conns.recv() => match conn {
                            Some(conn) => conn,
                            None => return,
                        },
                        changed = target.changed() => {
                            if changed.is_err() {
                                return;
                            }
                            continue;
                        }
                    }
                }
            }
        };
        backoff = BACKOFF_MIN;
        // What waited for this connection: synced frames are stale (the `Up` below makes
        // the protocol sync afresh), the rest goes out first, in order.
        let mut waiting = VecDeque::new();
        while let Ok(f) = outbox.try_recv() {
            if !f.synced {
                waiting.push_back(f.bytes);
            }
        }
        if events.send(MeshEvent::Up { peer }).is_err() {
            return;
        }
        match serve(&conn, peer, waiting, &mut outbox, &mut conns, &events).await {
            Ended::Gone => {
                conn.close(VarInt::from_u32(CLOSE_LEAVING), b"leaving");
                return;
            }
            Ended::Replaced(new) => {
                conn.close(VarInt::from_u32(CLOSE_REPLACED), b"replaced");
                let _ = events.send(MeshEvent::Down {
                    peer,
                    why: "reconnected".into(),
                });
                next = Some(new);
            }
            Ended::Broke(why) => {
                let _ = events.send(MeshEvent::Down { peer, why });
                if !target.borrow().dial {
                    continue;
                }
                if !pause(&mut backoff, &mut conns, &mut next, &mut target).await {
                    return;
                }
            }
        }
    }
}

/// Waits out the backoff before the next dial, cut short by a connection from the peer.
/// `false` if the link was dropped meanwhile.
async fn pause(
    backoff: &mut Duration,
    conns: &mut mpsc::UnboundedReceiver<Connection>,
    next: &mut Option<Connection>,
    target: &mut watch::Receiver<Target>,
) -> bool {
    let wait = *backoff;
    *backoff = (*backoff * 2).min(BACKOFF_MAX);
    tokio::select! {
        _ = tokio::time::sleep(wait) => true,
        conn = conns.recv() => match conn {
            Some(conn) => {
                *next = Some(conn);
                true
            }
            None => false,
        },
        // A new address is worth trying at once.
        changed = target.changed() => changed.is_ok(),
    }
}

async fn serve(
    conn: &Connection,
    peer: EndpointId,
    waiting: VecDeque<Vec<u8>>,
    outbox: &mut mpsc::UnboundedReceiver<Outgoing>,
    conns: &mut mpsc::UnboundedReceiver<Connection>,
    events: &mpsc::UnboundedSender<MeshEvent>,
) -> Ended {
    let mut send = match conn.open_uni().await {
        Ok(send) => send,
        Err(e) => return Ended::Broke(e.to_string()),
    };
    for bytes in waiting {
        if let Err(e) = frame::write(&mut send, &bytes).await {
            return Ended::Broke(e.to_string());
        }
    }
    // Reading runs in its own task: a frame read is not cancel-safe inside `select!`.
    let reader = {
        let conn = conn.clone();
        let events = events.clone();
        tokio::spawn(async move {
            let mut recv = match conn.accept_uni().await {
                Ok(recv) => recv,
                Err(e) => return e.to_string(),
            };
            loop {
                match frame::read(&mut recv).await {
                    Ok(Some(bytes)) => {
                        if events.send(MeshEvent::Frame { peer, bytes }).is_err() {
                            return "the device is shutting down".to_string();
                        }
                    }
                    Ok(None) => return "the peer closed its stream".to_string(),
                    Err(e) => return e.to_string(),
                }
            }
        })
    };
    let reader_abort = reader.abort_handle();
    let mut reader = reader;
    let ended = loop {
        tokio::select! {
            biased;
            new = conns.recv() => break match new {
                Some(new) => Ended::Replaced(new),
                None => Ended::Gone,
            },
            why = &mut reader => break Ended::Broke(why.unwrap_or_else(|e| e.to_string())),
            out = outbox.recv() => match out {
                Some(Outgoing { bytes, .. }) => {
                    if let Err(e) = frame::write(&mut send, &bytes).await {
                        break Ended::Broke(e.to_string());
                    }
                }
                None => break Ended::Gone,
            },
            closed = conn.closed() => break Ended::Broke(closed.to_string()),
        }
    };
    reader_abort.abort();
    ended
}
