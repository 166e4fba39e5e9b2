//! The Hoard app: screens shared by the desktop binary and Android.
pub mod cli;
