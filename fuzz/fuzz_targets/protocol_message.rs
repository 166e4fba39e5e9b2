//! One protocol message from a peer (`hoard_net::wire::Wire::decode`).

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("protocol_message"),
    |data: &[u8]| hoard_fuzz::protocol_message(data)
);
