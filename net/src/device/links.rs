//! What the device asks of its transport: links to other devices, kept up by whoever
//! drives the device (iroh's endpoint and the mesh on a native device, a relay in a
//! browser, the simulator's network in tests). The driver reports back what happens on
//! them as [`super::Happening`]s.

use crate::transport::TableInfo;
use iroh::{EndpointAddr, EndpointId};

/// A device's links. Frames on one link arrive in order, or the link breaks (reported as
/// [`super::Happening::LinkDown`]) and comes back ([`super::Happening::LinkUp`]).
pub trait Links: Send {
    /// This device's address as it gives it out: in a ticket, in its seat at a table.
    fn addr(&self) -> EndpointAddr;
    /// Keeps a link to the device at `addr`; if `dial`, this side dials it (and redials
    /// after every break), otherwise it waits for the peer to. Again: updates both.
    fn connect(&mut self, addr: EndpointAddr, dial: bool);
    /// Dials `addr` (and redials) as a shared screen, which a seated device admits without
    /// a seat.
    fn connect_as_screen(&mut self, addr: EndpointAddr);
    /// Dials `addr` once even if this side is not the pair's dialer, and takes the
    /// connection as the link: a device back from a restart replaces its peer's dead one.
    fn knock(&mut self, addr: EndpointAddr);
    /// Ends the link to `peer` once what is queued on it has had a moment to leave, and
    /// forgets it.
    fn disconnect(&mut self, peer: &EndpointId);
    /// Closes the link to `peer` and refuses it for `ms`; then the link is as before.
    fn cut_off(&mut self, peer: &EndpointId, ms: u64);
    /// Queues a frame for `peer`; `false` if there is no link to it. A frame queued while
    /// the link is down waits for it, unless `synced`: the protocol sends such frames
    /// again after every reconnection, so a waiting one is dropped.
    fn send(&mut self, peer: &EndpointId, bytes: Vec<u8>, synced: bool) -> bool;
    /// Whether there is a link (up or not) to `peer`.
    fn has(&self, peer: &EndpointId) -> bool;
    /// The devices this device keeps links to.
    fn peers(&self) -> Vec<EndpointId>;
    /// Tells the devices around about the table this device hosts (`None`: no table).
    fn advertise(&mut self, table: Option<&TableInfo>);
}
