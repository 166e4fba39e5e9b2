//! A Sprawl input (postcard), then checked for every seat against a table mid-game.

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("sprawl_input"),
    |data: &[u8]| hoard_fuzz::sprawl_input(data)
);
