//! The browser's driver: the [`Device`] run on the page's event loop, its files in the page's
//! `localStorage` ([`super::web_store`]), time from the page's clock. Every change the
//! machine makes is written before the driver waits again, so a tab closed or reloaded at
//! any moment comes back to what was kept.
//!
//! A browser cannot send UDP: it reaches the table only through the relay a device at the
//! table serves on the LAN with the page (`transport/table_web.rs`), the page's own origin.
//! Its endpoint knows that relay only, and every peer is dialed through it; the links are the
//! native device's mesh, on the page's tasks and timers. Offline, the page plays on its own,
//! against bots.

use super::links::Links;
use super::machine::{Device, Happening};
use super::mesh_links::{MeshLinks, SharedLinks, burst, recv};
use super::web_store::{self, KeyValue};
use super::{Out, ToDevice};
use crate::core::Time;
use crate::identity::{SecretKey, SystemRandom};
use crate::storage::{Folder, JournalStorage};
use crate::table_types::Update;
use crate::transport::mesh::Mesh;
use crate::transport::{ALPN, NetMode, SCREEN_ALPN};
use iroh::endpoint::presets;
use iroh::{Endpoint, RelayMode, RelayUrl};
use n0_future::time::{Duration, Instant};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc as tokio_mpsc;

/// The relay at the page's own origin (`http://<laptop>:<port>/`): where the page came from
/// is where the table's relay is.
pub fn page_relay() -> Option<RelayUrl> {
    let origin = web_sys::window()?.location().origin().ok()?;
    format!("{origin}/").parse().ok()
}

/// The page's endpoint: this device's key, the table's relay as its only way out.
async fn bind(key: &SecretKey, relay: &RelayUrl) -> Result<Endpoint, String> {
    Endpoint::builder(presets::Minimal)
        .secret_key(key.clone())
        .alpns(vec![ALPN.to_vec(), SCREEN_ALPN.to_vec()])
        .transport_config(crate::transport::settings::transport_config())
        .relay_mode(RelayMode::custom([relay.clone()]))
        .bind()
        .await
        .map_err(|e| e.to_string())
}

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

/// Runs the device until the handle is dropped or shut down; with `relay`, its links go
/// through that relay (see the module's docs), without, it plays alone.
pub async fn run(
    mut kept: Kept,
    key: SecretKey,
    relay: Option<RelayUrl>,
    out: Out,
    mut inputs: tokio_mpsc::UnboundedReceiver<ToDevice>,
) {
    let clock = Instant::now();
    let now = || Time(clock.elapsed().as_millis() as u64);
    let mut mesh_rx = None;
    let mut links = None;
    if let Some(relay) = relay {
        match bind(&key, &relay).await {
            Ok(endpoint) => {
                let (tx, rx) = tokio_mpsc::unbounded_channel();
                let mesh = Mesh::new(endpoint.clone(), tx);
                mesh_rx = Some(rx);
                links = Some(SharedLinks(Arc::new(Mutex::new(MeshLinks {
                    endpoint,
                    mesh,
                    mode: NetMode::Relay,
                    via: Some(relay),
                }))));
            }
            Err(e) => out.emit(Update::Error(format!(
                "The table's relay at {relay} could not be reached ({e}). You can still play \
                 here against bots."
            ))),
        }
    }
    let boxed = links.clone().map(|l| Box::new(l) as Box<dyn Links>);
    let mut device = Device::new(kept.folder(), key, boxed, Box::new(SystemRandom), now());
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
            Some(event) = recv(&mut mesh_rx) => {
                let happened = burst(&device, links.as_ref(), event, &mut mesh_rx);
                device.handle_all(now(), happened);
            }
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
