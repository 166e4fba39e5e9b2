//! A session's metadata (`SessionMeta`, postcard), then checked as a device opens it.

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("session_meta"),
    |data: &[u8]| hoard_fuzz::session_meta(data)
);
