//! The player's kept profile (`hoard_net::device::read_profile`).

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("profile"),
    |data: &[u8]| hoard_fuzz::profile(data)
);
