//! A frame from another device (`hoard_net::device::Envelope::decode`), then what the
//! device does with it: names fitted, addresses checked, a start checked, a screen's feed
//! rebuilt by the rules, a core frame's messages decoded.

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("device_frame"),
    |data: &[u8]| hoard_fuzz::device_frame(data)
);
