//! A join code as pasted, scanned or typed (`hoard_net::transport::ticket::decode`).

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("join_ticket"),
    |data: &[u8]| hoard_fuzz::join_ticket(data)
);
