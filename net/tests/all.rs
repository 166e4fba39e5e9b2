//! Every integration test of this crate in one test binary, one module per file: one link
//! instead of one per file, and the files' tests run side by side (a file of one long test
//! no longer holds the others up). Run one file's tests with its module name as the filter,
//! e.g. `cargo test -p <crate> --test all <file>::`.

mod common;

mod absent;
mod absent_deck;
mod absent_hands;
mod absent_many;
mod absent_real;
mod agreement;
mod decoders;
mod lan_relay;
mod restart;
mod screen_refeed;
mod sim_cases;
mod sim_devices;
mod sim_games;
mod sim_highcard;
mod threats;
mod unchecked;
