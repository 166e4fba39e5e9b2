//! The device: everything one phone or laptop does at Hoard's tables, as a machine
//! ([`machine::Device`]) that a driver runs: [`native`] on this machine (tokio, iroh, the
//! disk), the simulator's in tests ([`crate::sim::devices`]), `browser` on a phone's page.
//!
//! - [`machine`]: the lobby, the game, the shared screens, the games kept;
//! - [`lobby`]: what devices say to each other, and the host's seat list;
//! - [`profile`]: the device's identity, its player's name and colour, its bots' keys;
//! - [`saved`]: opening a kept game, and the list of them;
//! - [`links`]: what the machine asks of its transport; [`mesh_links`]: those links over iroh;
//! - [`web_store`]: a browser's storage for it.

#[cfg(target_arch = "wasm32")]
pub mod browser;
pub mod links;
pub mod lobby;
pub mod machine;
pub mod mesh_links;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;
pub mod profile;
pub mod saved;
pub mod web_store;

pub use links::Links;
pub use lobby::{
    Envelope, LobbyEntry, MAX_ADDRS, Roster, address_of, dials, fit_name, table_links,
};
pub use machine::{Device, Happening};
pub use profile::{Profile, load_identity, read_bots, read_profile};

use crate::table_types::{Command, Update};
use std::sync::{Arc, mpsc};

/// What the handle sends the device.
pub enum ToDevice {
    Command(Command),
    Shutdown,
}

/// The events queue to the screens, and the callback that wakes them.
pub struct Out {
    tx: mpsc::Sender<Update>,
    wake: Arc<dyn Fn() + Send + Sync>,
}

impl Out {
    pub fn new(tx: mpsc::Sender<Update>, wake: Arc<dyn Fn() + Send + Sync>) -> Out {
        Out { tx, wake }
    }

    fn emit(&self, event: Update) {
        if self.tx.send(event).is_ok() {
            (self.wake)();
        }
    }
}
