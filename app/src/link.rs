//! The app's end of the network handle: a small thread takes events off the handle as
//! they come, drops snapshots identical to the last of their kind, and wakes the GUI only
//! for what changed. The GUI then never repaints for news that is not news. A browser has no
//! threads: there the device runs on the page's event loop and the GUI takes its events
//! itself, dropping the same repeats.

use crate::error::AppError;
use crate::net::{Command, DeviceConfig, DeviceHandle, Network, Update};
use hoard_net::transport::RelayUrl;
use std::path::PathBuf;
use std::sync::Arc;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::atomic::{AtomicBool, Ordering};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::{Mutex, mpsc};

/// The handle, shared by the GUI (sending) and the forwarding thread (receiving).
#[cfg(not(target_arch = "wasm32"))]
pub struct Link {
    /// Taken only by [`Link::shutdown`].
    handle: Option<Arc<Mutex<DeviceHandle>>>,
    events: mpsc::Receiver<Update>,
    stop: Arc<AtomicBool>,
    poke: mpsc::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Starts the device, `wake` called whenever it has news; `lan_relay` is the relay this
/// device serves its page's browser seats with ([`crate::page`]), if it serves one.
fn start_device(
    data_dir: PathBuf,
    network: Network,
    lan_relay: Option<RelayUrl>,
    wake: impl Fn() + Send + Sync + 'static,
) -> Result<DeviceHandle, AppError> {
    let mut config = DeviceConfig::new(data_dir, network);
    config.wake = Arc::new(wake);
    config.lan_relay = lan_relay;
    DeviceHandle::start(config).map_err(|e| AppError::Network(e.to_string()))
}

/// The last snapshot of each kind passed on, to know a repeat when one comes.
#[derive(Default)]
struct Last {
    tables: Option<Update>,
    ticket: Option<Update>,
    lobby: Option<Update>,
    game: Option<Update>,
    games: Option<Update>,
    screen: Option<Update>,
}

impl Last {
    /// Whether `event` says something new (notices and errors always do).
    fn is_new(&mut self, event: &Update) -> bool {
        let slot = match event {
            Update::Tables(_) => &mut self.tables,
            Update::Ticket { .. } => &mut self.ticket,
            Update::Lobby(_) => &mut self.lobby,
            Update::Game(_) => &mut self.game,
            Update::Games(_) => &mut self.games,
            Update::Screen(_) => &mut self.screen,
            Update::Notice(_) | Update::Error(_) | Update::Replay(_) => return true,
        };
        if slot.as_ref() == Some(event) {
            return false;
        }
        *slot = Some(event.clone());
        true
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Link {
    /// Starts the network in `network` mode (with the relay of the page this device serves,
    /// if any); `wake` is called (from the forwarding thread) whenever something new is ready.
    pub fn start(
        data_dir: PathBuf,
        network: Network,
        lan_relay: Option<RelayUrl>,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> Result<Link, AppError> {
        let (poke, poked) = mpsc::channel::<()>();
        let handle_poke = poke.clone();
        let handle = start_device(data_dir, network, lan_relay, move || {
            let _ = handle_poke.send(());
        })?;
        let handle = Arc::new(Mutex::new(handle));
        let stop = Arc::new(AtomicBool::new(false));
        let (forward, events) = mpsc::channel();
        let (shared, stopping) = (handle.clone(), stop.clone());
        let thread = std::thread::Builder::new()
            .name("hoard-link".into())
            .spawn(move || {
                let mut last = Last::default();
                // Each poke means "events may be waiting"; several may be taken at once.
                while poked.recv().is_ok() {
                    if stopping.load(Ordering::Relaxed) {
                        break;
                    }
                    let mut news = false;
                    while let Some(event) = shared.lock().ok().and_then(|h| h.try_recv()) {
                        if last.is_new(&event) {
                            news = true;
                            if forward.send(event).is_err() {
                                return;
                            }
                        }
                    }
                    if news {
                        wake();
                    }
                }
            })
            .map_err(|e| AppError::Network(e.to_string()))?;
        Ok(Link {
            handle: Some(handle),
            events,
            stop,
            poke,
            thread: Some(thread),
        })
    }

    /// Never blocks for long: the lock is only ever held to queue or take one message.
    pub fn send(&self, cmd: Command) {
        if let Some(Ok(h)) = self.handle.as_ref().map(|h| h.lock()) {
            h.send(cmd);
        }
    }

    pub fn try_recv(&self) -> Option<Update> {
        self.events.try_recv().ok()
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Link {
    /// When the app closes: ends the forwarding thread, then closes the network politely
    /// (peers notice at once) and waits for it, about a second at most.
    pub fn shutdown(mut self) {
        self.stop_thread();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        // With the thread gone this is the only reference, so the handle can be closed.
        if let Some(Ok(Ok(handle))) = self
            .handle
            .take()
            .map(|h| Arc::try_unwrap(h).map(Mutex::into_inner))
        {
            handle.shutdown();
        }
    }

    fn stop_thread(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.poke.send(());
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Drop for Link {
    /// Ends the forwarding thread, which lets go of the handle, which shuts the network down
    /// in the background: dropping never blocks a frame.
    fn drop(&mut self) {
        self.stop_thread();
    }
}

/// The handle in a browser: the GUI takes events off it each frame.
#[cfg(target_arch = "wasm32")]
pub struct Link {
    handle: DeviceHandle,
    last: std::cell::RefCell<Last>,
}

#[cfg(target_arch = "wasm32")]
impl Link {
    /// Starts the device on the page; `wake` is called whenever an event is ready. A page
    /// serves no page: `lan_relay` is always `None` here.
    pub fn start(
        data_dir: PathBuf,
        network: Network,
        lan_relay: Option<RelayUrl>,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> Result<Link, AppError> {
        let handle = start_device(data_dir, network, lan_relay, wake)?;
        Ok(Link {
            handle,
            last: Default::default(),
        })
    }

    pub fn send(&self, cmd: Command) {
        self.handle.send(cmd);
    }

    pub fn try_recv(&self) -> Option<Update> {
        let mut last = self.last.borrow_mut();
        std::iter::from_fn(|| self.handle.try_recv()).find(|event| last.is_new(event))
    }

    pub fn shutdown(self) {
        self.handle.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_snapshot_is_not_news_but_a_changed_one_and_every_notice_are() {
        let mut last = Last::default();
        let tables = Update::Tables(Vec::new());
        assert!(last.is_new(&tables));
        assert!(!last.is_new(&tables), "the same list again is not news");
        assert!(last.is_new(&Update::Notice("Mia is away".into())));
        assert!(last.is_new(&Update::Notice("Mia is away".into())));
        assert!(last.is_new(&Update::Ticket { ticket: "a".into() }));
        assert!(last.is_new(&Update::Ticket { ticket: "b".into() }));
        assert!(!last.is_new(&Update::Ticket { ticket: "b".into() }));
    }
}
