//! A message from a seated peer to a live core mid-game (`Core::handle_message`).

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("core_message"),
    |data: &[u8]| hoard_fuzz::core_message(data)
);
