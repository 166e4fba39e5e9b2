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
//!
//! A peer cannot make a link hold more than it should: an outbox takes at most
//! [`OUTBOX_MAX`] bytes (past that the link is reset, and the protocol syncs afresh on the
//! next `Up` instead of queueing without end), a frame that cannot be written for
//! [`WRITE_TIMEOUT`] (a peer that stopped reading) resets the link too, and the driver can
//! cut a misbehaving peer off for a while ([`Mesh::cut_off`]).

use super::frame;
use super::{ALPN, SCREEN_ALPN};
use iroh::endpoint::{Connection, VarInt};
use iroh::{Endpoint, EndpointAddr, EndpointId};
use n0_future::task::{JoinHandle, spawn};
use n0_future::time::{Instant, sleep, sleep_until, timeout};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// The longest a dial may take before it is abandoned (a dead address would otherwise
/// wait out the QUIC handshake timeout).
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// The first wait before dialing again after a failed dial or a broken link.
pub const BACKOFF_MIN: Duration = Duration::from_millis(100);
/// The longest wait between dials.
pub const BACKOFF_MAX: Duration = Duration::from_secs(2);

/// The most bytes one peer's outbox holds: far more than a whole game's history, so only a
/// peer that does not keep up (or asks for more than it should) ever reaches it.
pub const OUTBOX_MAX: usize = 8 * 1024 * 1024;
/// A frame not written after this long means the peer has stopped reading: the link is
/// reset rather than left blocked.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long [`Mesh::cut_off`] keeps a peer away.
pub const CUT_OFF: Duration = Duration::from_secs(30);

/// Close codes, so the other side can tell why a connection ended.
pub const CLOSE_REPLACED: u32 = 1;
pub const CLOSE_REFUSED: u32 = 2;
pub const CLOSE_LEAVING: u32 = 3;
pub const CLOSE_STALLED: u32 = 4;

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
    /// Bytes in the outbox, sent or not yet.
    queued: Arc<AtomicUsize>,
    /// Reset the connection and keep the peer away for this long.
    resets: mpsc::UnboundedSender<Duration>,
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
    /// The protocol this side dials with: [`ALPN`], or [`SCREEN_ALPN`] for a shared screen.
    alpn: &'static [u8],
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
        let accept = spawn(accept_loop(endpoint.clone(), events.clone()));
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
        self.connect_with(addr, dial, ALPN);
    }

    /// Dials the device at `addr` (and redials after every break) as a shared screen: with
    /// [`SCREEN_ALPN`], which a seated device admits without a seat.
    pub fn connect_as_screen(&mut self, addr: EndpointAddr) {
        self.connect_with(addr, true, SCREEN_ALPN);
    }

    fn connect_with(&mut self, addr: EndpointAddr, dial: bool, alpn: &'static [u8]) {
        let peer = addr.id;
        if peer == self.endpoint.id() {
            return;
        }
        let target = Target { addr, dial, alpn };
        if let Some(link) = self.links.get(&peer) {
            link.target.send_if_modified(|t| {
                let changed = t.dial != target.dial
                    || t.alpn != target.alpn
                    || (!target.addr.is_empty() && t.addr != target.addr);
                if changed {
                    t.dial = target.dial;
                    t.alpn = target.alpn;
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
        spawn(async move {
            if let Ok(Ok(conn)) = timeout(CONNECT_TIMEOUT, endpoint.connect(addr, ALPN)).await {
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
                    alpn: ALPN,
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

    /// `false` if there is no link, or its outbox is full: the frame is dropped and the
    /// link reset, so the peer gets what it lacks through the sync on the next `Up`.
    fn queue(&self, peer: &EndpointId, bytes: Vec<u8>, synced: bool) -> bool {
        let Some(link) = self.links.get(peer) else {
            return false;
        };
        let size = bytes.len();
        if link.queued.load(Ordering::Relaxed).saturating_add(size) > OUTBOX_MAX {
            tracing::info!("the outbox to {} is full: resetting", peer.fmt_short());
            let _ = link.resets.send(Duration::ZERO);
            return false;
        }
        link.queued.fetch_add(size, Ordering::Relaxed);
        link.outbox.send(Outgoing { bytes, synced }).is_ok()
    }

    /// Bytes waiting for `peer`.
    pub fn queued(&self, peer: &EndpointId) -> usize {
        self.links
            .get(peer)
            .map_or(0, |l| l.queued.load(Ordering::Relaxed))
    }

    /// Closes the connection to `peer` and keeps it away for `time` (connections from it
    /// meanwhile are refused); then the link comes back as before. For a peer whose
    /// messages keep being refused.
    pub fn cut_off(&self, peer: &EndpointId, time: Duration) {
        if let Some(link) = self.links.get(peer) {
            let _ = link.resets.send(time);
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
        let (resets, resets_rx) = mpsc::unbounded_channel();
        let (conns, conns_rx) = mpsc::unbounded_channel();
        let (target_tx, target_rx) = watch::channel(target);
        let queued = Arc::new(AtomicUsize::new(0));
        let task = spawn(run_link(
            self.endpoint.clone(),
            peer,
            target_rx,
            Outbox {
                rx: outbox_rx,
                queued: queued.clone(),
                resets: resets_rx,
            },
            conns_rx,
            self.events.clone(),
        ));
        self.links.insert(
            peer,
            Link {
                outbox,
                queued,
                resets,
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
        spawn(async move {
            let Ok(accepting) = incoming.accept() else {
                return;
            };
            match timeout(CONNECT_TIMEOUT, accepting).await {
                Ok(Ok(conn)) => {
                    let _ = events.send(MeshEvent::Incoming { conn });
                }
                Ok(Err(e)) => tracing::debug!("incoming handshake failed: {e}"),
                Err(_) => tracing::debug!("incoming handshake timed out"),
            }
        });
    }
}

/// The link task's end of an outbox.
struct Outbox {
    rx: mpsc::UnboundedReceiver<Outgoing>,
    queued: Arc<AtomicUsize>,
    resets: mpsc::UnboundedReceiver<Duration>,
}

impl Outbox {
    fn try_recv(&mut self) -> Option<Outgoing> {
        let out = self.rx.try_recv().ok();
        self.took(out)
    }
    /// Counts a frame out of the outbox.
    fn took(&self, out: Option<Outgoing>) -> Option<Outgoing> {
        if let Some(out) = &out {
            self.queued.fetch_sub(out.bytes.len(), Ordering::Relaxed);
        }
        out
    }
}

/// Writes one frame, or gives up after [`WRITE_TIMEOUT`].
async fn write(send: &mut iroh::endpoint::SendStream, bytes: &[u8]) -> Result<(), String> {
    match timeout(WRITE_TIMEOUT, frame::write(send, bytes)).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!(
            "the peer read nothing for {} s",
            WRITE_TIMEOUT.as_secs()
        )),
    }
}

/// How a served connection ended.
enum Ended {
    /// It broke (or the peer closed it).
    Broke(String),
    /// A frame could not be written in time, or the outbox overflowed: reset.
    Stalled(String),
    /// The driver cut the peer off for this long.
    CutOff(Duration),
    /// The peer dialed again: serve this connection instead.
    Replaced(Connection),
    /// The link was dropped by the driver.
    Gone,
}

async fn run_link(
    endpoint: Endpoint,
    peer: EndpointId,
    mut target: watch::Receiver<Target>,
    mut outbox: Outbox,
    mut conns: mpsc::UnboundedReceiver<Connection>,
    events: mpsc::UnboundedSender<MeshEvent>,
) {
    let mut backoff = BACKOFF_MIN;
    let mut next: Option<Connection> = None;
    loop {
        let conn = match next.take() {
            Some(conn) => conn,
            None => {
                let Target { addr, dial, alpn } = target.borrow_and_update().clone();
                if dial {
                    tokio::select! {
                        conn = conns.recv() => match conn {
                            Some(conn) => conn,
                            None => return,
                        },
                        dialed = timeout(CONNECT_TIMEOUT, endpoint.connect(addr, alpn)) => match dialed {
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
        while let Some(f) = outbox.try_recv() {
            if !f.synced {
                waiting.push_back(f.bytes);
            }
        }
        // A reset asked for while there was no connection is done already.
        while let Ok(time) = outbox.resets.try_recv() {
            if time > Duration::ZERO {
                tracing::debug!("{} was cut off while away", peer.fmt_short());
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
            Ended::Stalled(why) => {
                // Closed, not left to time out: the peer dials again (or is dialed) and
                // the two sides sync afresh.
                conn.close(VarInt::from_u32(CLOSE_STALLED), why.as_bytes());
                let _ = events.send(MeshEvent::Down { peer, why });
                if target.borrow().dial
                    && !pause(&mut backoff, &mut conns, &mut next, &mut target).await
                {
                    return;
                }
            }
            Ended::CutOff(time) => {
                conn.close(
                    VarInt::from_u32(CLOSE_REFUSED),
                    b"too many refused messages",
                );
                let _ = events.send(MeshEvent::Down {
                    peer,
                    why: "cut off for a while: too many of its messages were refused".into(),
                });
                let until = Instant::now() + time;
                loop {
                    tokio::select! {
                        _ = sleep_until(until) => break,
                        conn = conns.recv() => match conn {
                            Some(conn) => refuse(&conn, "cut off for a while"),
                            None => return,
                        },
                    }
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
        _ = sleep(wait) => true,
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
    outbox: &mut Outbox,
    conns: &mut mpsc::UnboundedReceiver<Connection>,
    events: &mpsc::UnboundedSender<MeshEvent>,
) -> Ended {
    let mut send = match conn.open_uni().await {
        Ok(send) => send,
        Err(e) => return Ended::Broke(e.to_string()),
    };
    for bytes in waiting {
        if let Err(why) = write(&mut send, &bytes).await {
            return Ended::Stalled(why);
        }
    }
    // Reading runs in its own task: a frame read is not cancel-safe inside `select!`.
    let reader = {
        let conn = conn.clone();
        let events = events.clone();
        spawn(async move {
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
            reset = outbox.resets.recv() => break match reset {
                Some(time) if time > Duration::ZERO => Ended::CutOff(time),
                Some(_) => Ended::Stalled("its outbox overflowed".into()),
                None => Ended::Gone,
            },
            out = outbox.rx.recv() => match outbox.took(out) {
                Some(Outgoing { bytes, .. }) => {
                    if let Err(why) = write(&mut send, &bytes).await {
                        break Ended::Stalled(why);
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
