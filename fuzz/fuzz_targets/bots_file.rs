//! The bots' keys kept on the host (`hoard_net::device::read_bots`).

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("bots_file"),
    |data: &[u8]| hoard_fuzz::bots_file(data)
);
