//! The device: everything one phone or laptop does at Hoard's tables, as a machine
//! ([`machine::Device`]) that a driver runs: [`native`] on this machine (tokio, iroh, the
//! disk), the simulator's in tests ([`crate::sim::devices`]), a browser's on a phone.
//!
//! - [`machine`]: the lobby, the game, the shared screens, the games kept;
//! - [`lobby`]: what devices say to each other, and the host's seat list;
//! - [`profile`]: the device's identity, its player's name and colour, its bots' keys;
//! - [`saved`]: opening a kept game, and the list of them;
//! - [`links`]: what the machine asks of its transport.

pub mod links;
pub mod lobby;
pub mod machine;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;
pub mod profile;
pub mod saved;

pub use links::Links;
pub use lobby::{Envelope, LobbyEntry, MAX_ADDRS, Roster, address_of, dials, fit_name};
pub use machine::{Device, Happening};
#[cfg(not(target_arch = "wasm32"))]
pub use native::{Out, ToDevice};
pub use profile::{Profile, load_identity, read_bots, read_profile};
