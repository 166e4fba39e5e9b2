//! A seat store's log file (`hoard_net::store::read_log`).

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("log_file"),
    |data: &[u8]| hoard_fuzz::log_file(data)
);
