//! The network as the screens see it: the handle's commands, events and views, in one
//! place so that a change on the network side is met here.

pub use hoard_net::handle::*;
