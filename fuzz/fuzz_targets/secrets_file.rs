//! A seat store's secrets file (`hoard_net::store::read_secrets`).

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("secrets_file"),
    |data: &[u8]| hoard_fuzz::secrets_file(data)
);
