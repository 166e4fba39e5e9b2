//! A seat store's start file (`hoard_net::store::read_start`).

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("start_file"),
    |data: &[u8]| hoard_fuzz::start_file(data)
);
