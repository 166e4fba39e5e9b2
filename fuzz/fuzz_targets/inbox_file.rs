//! A seat store's inbox file (`hoard_net::store::read_inbox`).

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("inbox_file"),
    |data: &[u8]| hoard_fuzz::inbox_file(data)
);
