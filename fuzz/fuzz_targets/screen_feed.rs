//! A screen's feed: `hoard_net::watch::Feed` frames one after another, each taken
//! by the same `Watcher`.

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("screen_feed"),
    |data: &[u8]| hoard_fuzz::screen_feed(data)
);
