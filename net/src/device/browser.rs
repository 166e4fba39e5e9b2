//! The browser's driver: the [`Device`] run on the page's event loop, its files in the page's
//! `localStorage` ([`super::web_store`]), time from the page's clock. Every change the
//! machine makes is written before the driver waits again, so a tab closed or reloaded at
//! any moment comes back to what was kept.
//!
//! A browser cannot send UDP: it reaches the table only through the relay a device at the
//! table serves on the LAN (`transport/table_web.rs`). That transport is not driven here
//! yet: the page plays on its own, against bots.

use super::machine::{Device, Happening};
use super::web_store::{self, KeyValue};
use super::{Out, ToDevice};
use crate::core::Time;
use crate::identity::{SecretKey, SystemRandom};
use crate::storage::{Folder, JournalStorage};
use crate::table_types::Update;
use n0_future::time::{Duration, Instant};
use std::sync::Arc;
use tokio::sync::mpsc as tokio_mpsc;

/// The page's `localStorage`.
pub struct LocalStorage(web_sys::Storage);

impl LocalStorage {
    /// The page's storage, if the browser gives one (a private window may not).
    pub fn open() -> Option<LocalStorage> {
        let storage = web_sys::window()?.local_storage().ok()??;
        Some(LocalStorage(storage))
    }
}

impl KeyValue for LocalStorage {
    fn get(&self, key: &str) -> Option<String> {
        self.0.get_item(key).ok().flatten()
    }
    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        self.0
            .set_item(key, value)
            .map_err(|e| format!("the browser's storage refused it ({e:?})"))
    }
    fn remove(&mut self, key: &str) {
        let _ = self.0.remove_item(key);
    }
    fn keys(&self) -> Vec<String> {
        let n = self.0.length().unwrap_or(0);
        (0..n)
            .filter_map(|i| self.0.key(i).ok().flatten())
            .collect()
    }
}

/// The device's files as the browser keeps them, in memory with a journal of changes, and
/// where the journal goes.
pub struct Kept {
    pub files: JournalStorage,
    store: Option<LocalStorage>,
}

impl Kept {
    /// Everything the page kept; with no storage the device still plays, keeping nothing.
    pub fn open() -> Kept {
        let store = LocalStorage::open();
        let files = JournalStorage::load(
            store
                .as_ref()
                .map(|s| web_store::load(s))
                .unwrap_or_default(),
        );
        Kept { files, store }
    }

    pub fn folder(&self) -> Folder {
        Folder::root(Arc::new(self.files.clone()))
    }

    /// Writes what changed; a failure is told to the player (nothing is lost from the game
    /// in memory, but a closed tab would lose it).
    pub fn keep(&mut self, out: &Out) {
        let changes = self.files.take();
        if changes.is_empty() {
            return;
        }
        let Some(store) = self.store.as_mut() else {
            return;
        };
        if let Err(e) = web_store::keep(store, &changes) {
            out.emit(Update::Error(format!(
                "This browser has no room left to keep the game ({e}): closing the page now \
                 would lose it."
            )));
        }
    }
}

/// Runs the device until the handle is dropped or shut down.
pub async fn run(
    mut kept: Kept,
    key: SecretKey,
    out: Out,
    mut inputs: tokio_mpsc::UnboundedReceiver<ToDevice>,
) {
    let clock = Instant::now();
    let now = || Time(clock.elapsed().as_millis() as u64);
    let mut device = Device::new(kept.folder(), key, None, Box::new(SystemRandom), now());
    loop {
        kept.keep(&out);
        for event in device.take_events() {
            out.emit(event);
        }
        let wait = device
            .next_timeout()
            .map(|t| Duration::from_millis(t.as_millis().saturating_sub(now().as_millis())));
        tokio::select! {
            input = inputs.recv() => match input {
                Some(ToDevice::Command(cmd)) => device.handle(now(), Happening::Command(cmd)),
                Some(ToDevice::Shutdown) | None => break,
            },
            _ = sleep(wait) => device.handle(now(), Happening::Timeout),
        }
    }
    device.shutdown();
    kept.keep(&out);
    for event in device.take_events() {
        out.emit(event);
    }
}

async fn sleep(wait: Option<Duration>) {
    match wait {
        Some(d) => n0_future::time::sleep(d).await,
        None => std::future::pending().await,
    }
}
