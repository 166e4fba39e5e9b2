//! Hoard on Android: the NativeActivity entry point that runs hoard-app's screens on a phone.
//!
//! Android loads `libhoard_android.so` (named in `apk/src/main/AndroidManifest.xml`) and calls
//! `android_main` on a thread of its own. Every screen comes from `hoard_app::run`; this crate
//! only supplies what differs on a phone: where the data lives, the phone layout, the system bars'
//! room and the screen kept on at a table, the Wi-Fi multicast lock that local discovery needs,
//! logging to logcat, and a clean end of the process when the app closes.
//!
//! The parts that do not need Android (the run options, logcat message splitting) build and are
//! tested on any host; the JNI and android-activity calls are compiled for Android only.

mod error;
pub mod logcat;
mod options;

#[cfg(target_os = "android")]
mod entry;
#[cfg(target_os = "android")]
mod multicast;
#[cfg(target_os = "android")]
mod phone;

pub use error::AndroidError;
pub use options::{UI_STATE_FILE, run_options};
