//! What can go wrong while starting Hoard on a phone, worded for the player reading logcat.

use std::path::PathBuf;

/// Why the Android app could not start, or could not set up part of its surroundings.
#[derive(Debug, thiserror::Error)]
pub enum AndroidError {
    /// The activity reported no internal storage folder, so nothing could be kept.
    #[error(
        "Android gave this app no private storage folder, so your identity, profile and games \
         could not be kept"
    )]
    NoDataDir,

    /// The storage folder exists in name but could not be created or opened.
    #[error("could not open the app's storage folder {path}: {source}")]
    DataDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// Android refused the Wi-Fi multicast lock; tables on this Wi-Fi may not show up.
    #[error(
        "could not hold the Wi-Fi multicast lock, so tables on this Wi-Fi may not appear \
         (joining by code still works): {reason}"
    )]
    MulticastLock { reason: String },

    /// The window or its event loop failed.
    #[error("the game table's window stopped with an error: {0}")]
    Gui(#[source] eframe::Error),
}
