//! The Android entry point around hoard-app.
