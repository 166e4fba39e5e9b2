//! Hoard's protocol: a sans-IO fair-play core (signed log, sealed plays, beacon, audit),
//! its store on disk, a fault simulator, and the iroh transport.
//!
//! [`core::Core`] is the state machine one device runs for one seat at one session; the
//! transport and the simulator are thin loops around it. See DESIGN.md, "net".
//!
//! Everything but a native device's driver (tokio, UDP, mDNS: `device::native`, the
//! endpoint and the mesh) builds for a browser too (`wasm32-unknown-unknown`, where
//! [`handle`] runs `device::browser` instead; `cross/check.sh browser` lints it).
pub mod audit;
pub mod beacon;
pub mod bytes;
pub mod colours;
pub mod core;
pub mod device;
pub mod error;
pub mod games;
pub mod handle;
pub mod identity;
pub mod log;
pub mod mental;
pub mod seal;
pub mod session;
pub mod sim;
pub mod storage;
pub mod store;
pub mod table_types;
pub mod transport;
pub mod watch;
pub mod wire;

pub use crate::audit::{Absence, Fault, SitOut, Verdict};
pub use crate::core::{
    Core, CoreConfig, CoreEvent, Persist, Saved, SeatStatus, SecretRecord, Time, Transmit,
};
pub use crate::error::{NetError, Result};
pub use crate::identity::{PublicKey, SeatSpec, SecretKey, SessionId, Start};
pub use crate::wire::{Basis, VoteAction};
