//! The Hoard app: every screen from the first run to a game's end, shared by the desktop
//! binary, Android and a browser's page ([`web`]). Phone first: portrait, fingers, no soft keyboard, repaint only
//! when something happens.

mod app;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod error;
pub mod games;
mod link;
pub mod model;
pub mod net;
#[cfg(not(target_arch = "wasm32"))]
pub mod page;
pub mod platform;
pub mod rules_ref;
pub mod screens;
pub mod settings;
pub mod theme;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod widgets;

pub use app::{AppConfig, HoardApp, Opened};
pub use error::AppError;
pub use settings::NetworkChoice;

#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;

/// How the app is run, by the desktop binary or by Android.
#[cfg(not(target_arch = "wasm32"))]
pub struct RunOptions {
    /// Where identity, profile, settings and games are kept.
    pub data_dir: PathBuf,
    pub native: eframe::NativeOptions,
    /// Draw a top margin for the status bar and prefer the portrait layout.
    pub phone: bool,
    /// The device's system bars and screen, where it has them (a phone).
    pub platform: Option<Box<dyn platform::Platform>>,
}

/// Opens the app window and runs until it is closed.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(options: RunOptions) -> eframe::Result<()> {
    run_with(options, None)
}

/// As [`run`], with the Wi-Fi/offline choice overridden for this run.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_with(options: RunOptions, network: Option<NetworkChoice>) -> eframe::Result<()> {
    let RunOptions {
        data_dir,
        mut native,
        phone,
        platform,
    } = options;
    if native.viewport.title.is_none() {
        native.viewport = native.viewport.with_title("Hoard");
    }
    if native.viewport.inner_size.is_none() && !phone {
        native.viewport = native.viewport.with_inner_size([420.0, 820.0]);
    }
    if native.viewport.min_inner_size.is_none() {
        native.viewport = native.viewport.with_min_inner_size([320.0, 480.0]);
    }
    let config = AppConfig {
        data_dir,
        phone,
        network,
        platform,
        opened: None,
        page: page::embedded(),
    };
    eframe::run_native(
        "Hoard",
        native,
        Box::new(move |cc| Ok(Box::new(HoardApp::new(cc, config)))),
    )
}

/// The platform's folder for Hoard's data (e.g. ~/.local/share/hoard on Linux).
#[cfg(not(target_arch = "wasm32"))]
pub fn default_data_dir() -> Result<PathBuf, AppError> {
    directories::ProjectDirs::from("org", "Hoard", "hoard")
        .map(|d| d.data_dir().to_path_buf())
        .ok_or(AppError::NoDataDir)
}
