//! Every integration test of this crate in one test binary, one module per file: one link
//! instead of one per file, and the files' tests run side by side (a file of one long test
//! no longer holds the others up). Run one file's tests with its module name as the filter,
//! e.g. `cargo test -p <crate> --test all <file>::`.

mod support;

mod counter_play;
mod freeloader_play;
mod greedquest_screens;
mod motion;
mod phone_platform;
mod play_offline;
mod screenshots;
mod spammers_play;
mod sprawl_play;
mod spree_play;
mod table_layout;
mod two_devices;
