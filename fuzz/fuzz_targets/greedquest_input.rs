//! A GreedQuest input (postcard), then checked for every seat against a table
//! mid-game.

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("greedquest_input"),
    |data: &[u8]| hoard_fuzz::greedquest_input(data)
);
