//! The one boundary between the network and the screens: commands go in, events come out,
//! nothing blocks the caller. The GUI and the headless CLI both drive a table through it.
//!
//! [`DeviceHandle::start`] spawns a thread with its own tokio runtime running the device (see
//! [`crate::device`]): the iroh endpoint, table discovery, the lobby, and the protocol
//! cores of every seat this device holds (its own, and on the host its bots'). With
//! [`Network::Offline`] there is no endpoint at all: one device and its bots, the same
//! cores wired in-process. In a browser it runs the device as a task on the page's event
//! loop instead, its files in the page's storage (`device::browser`).

use crate::device;
use crate::error::Result;
use crate::identity::PublicKey;
use crate::identity::SystemRandom;
use std::path::PathBuf;
use std::sync::{Arc, mpsc};
use tokio::sync::mpsc as tokio_mpsc;

pub use crate::audit::{Unchecked, UncheckedSeat, unchecked_words};
pub use crate::games::{AnyInput, AnyState, GameSetup, TableGame};
pub use crate::identity::SessionId;
pub use crate::table_types::{
    AuditVerdict, AwayVote, AwayVoteView, Command, EndView, EveryHand, GameView, LobbySeat,
    LobbyView, Network, Replay, ReplayFrame, ScreenView, SeatView, SessionSummary, Update,
};
pub use crate::transport::{Relays, TableId, TableInfo};

/// How to start a [`DeviceHandle`].
pub struct DeviceConfig {
    /// Identity key, profile and saved games live here (in a browser: in the page's
    /// storage, whatever this says).
    pub data_dir: PathBuf,
    pub network: Network,
    /// Called after every event is queued (the GUI: `ctx.request_repaint()`).
    pub wake: Arc<dyn Fn() + Send + Sync>,
    /// The relay this device serves with the browser seats' page
    /// ([`crate::transport::table_web`]): on the LAN (or loopback) the endpoint uses it, so
    /// browser seats reach this device through it.
    pub lan_relay: Option<crate::transport::RelayUrl>,
}

impl DeviceConfig {
    /// A config with no wake-up callback (for callers that poll).
    pub fn new(data_dir: impl Into<PathBuf>, network: Network) -> DeviceConfig {
        DeviceConfig {
            data_dir: data_dir.into(),
            network,
            wake: Arc::new(|| {}),
            lan_relay: None,
        }
    }
}

/// The device's network: send commands, drain events. Dropping it shuts the network down.
pub struct DeviceHandle {
    commands: tokio_mpsc::UnboundedSender<device::ToDevice>,
    events: mpsc::Receiver<Update>,
    me: PublicKey,
    #[cfg(not(target_arch = "wasm32"))]
    thread: Option<std::thread::JoinHandle<()>>,
}

impl DeviceHandle {
    /// Loads (or makes) this device's identity in `data_dir` and starts the network on a
    /// thread of its own. Returns at once; binding the endpoint happens in the background
    /// and a failure there arrives as an [`Update::Error`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn start(config: DeviceConfig) -> Result<DeviceHandle> {
        use crate::storage::{DiskStorage, Folder};
        std::fs::create_dir_all(&config.data_dir)?;
        let data = Folder::root(Arc::new(DiskStorage::new(&config.data_dir)));
        let key = device::load_identity(&data, &mut SystemRandom)?;
        let me = key.public();
        let (commands, commands_rx) = tokio_mpsc::unbounded_channel();
        let (events_tx, events) = mpsc::channel();
        let out = device::Out::new(events_tx, config.wake.clone());
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("hoard-net")
            .enable_all()
            .build()?;
        let (network, lan_relay) = (config.network, config.lan_relay);
        let thread = std::thread::Builder::new()
            .name("hoard-net".into())
            .spawn(move || {
                runtime.block_on(async move {
                    device::native::run(data, key, network, lan_relay, out, commands_rx).await;
                });
                // Connections still closing are cut here; peers notice within the idle timeout.
                runtime.shutdown_timeout(std::time::Duration::from_millis(200));
            })?;
        Ok(DeviceHandle {
            commands,
            events,
            me,
            thread: Some(thread),
        })
    }

    /// In a browser: loads (or makes) the identity kept in the page's storage and runs the
    /// device as a task on the page's event loop, its links through the table's relay at
    /// the page's origin (any network but [`Network::Offline`]; see `device::browser`).
    #[cfg(target_arch = "wasm32")]
    pub fn start(config: DeviceConfig) -> Result<DeviceHandle> {
        let mut kept = device::browser::Kept::open();
        let key = device::load_identity(&kept.folder(), &mut SystemRandom)?;
        let me = key.public();
        let (commands, commands_rx) = tokio_mpsc::unbounded_channel();
        let (events_tx, events) = mpsc::channel();
        let out = device::Out::new(events_tx, config.wake.clone());
        kept.keep(&out);
        let relay = match config.network {
            Network::Offline => None,
            _ => device::browser::page_relay(),
        };
        n0_future::task::spawn(device::browser::run(kept, key, relay, out, commands_rx));
        Ok(DeviceHandle {
            commands,
            events,
            me,
        })
    }

    /// Queues a command. Never blocks.
    pub fn send(&self, cmd: Command) {
        // If the network thread is gone, there is nobody left to tell.
        let _ = self.commands.send(device::ToDevice::Command(cmd));
    }

    /// The next event, if any. Never blocks.
    pub fn try_recv(&self) -> Option<Update> {
        self.events.try_recv().ok()
    }

    /// Waits up to `timeout` for the next event (for headless callers).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn recv_timeout(&self, timeout: std::time::Duration) -> Option<Update> {
        self.events.recv_timeout(timeout).ok()
    }

    /// This device's identity (its iroh endpoint id).
    pub fn me(&self) -> PublicKey {
        self.me
    }

    /// Closes connections politely (so peers notice at once) and waits for the network
    /// thread to end, at most about a second.
    pub fn shutdown(mut self) {
        self.stop(true);
    }

    fn stop(&mut self, wait: bool) {
        let _ = self.commands.send(device::ToDevice::Shutdown);
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(thread) = self.thread.take()
            && wait
        {
            let _ = thread.join();
        }
        // In a browser the device's task ends on its own: nothing can wait on a page.
        #[cfg(target_arch = "wasm32")]
        let _ = wait;
    }
}

impl Drop for DeviceHandle {
    fn drop(&mut self) {
        // Never block a GUI frame: the thread finishes on its own.
        self.stop(false);
    }
}
