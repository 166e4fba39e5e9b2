//! Every integration test of this crate in one test binary, one module per file: one link
//! instead of one per file, and the files' tests run side by side (a file of one long test
//! no longer holds the others up). Run one file's tests with its module name as the filter,
//! e.g. `cargo test -p <crate> --test all <file>::`.

mod away_greedquest;
mod bad_wifi;
mod card_games_network;
mod catch_up;
mod counter_network;
mod discovery;
mod lan_game;
mod lobby;
mod relay;
mod sprawl_network;
mod unseated;
mod watching;
