//! A table card from mDNS user data (`TableInfo::from_user_data`).

#![no_main]

libfuzzer_sys::fuzz_target!(
    init: hoard_fuzz::init("table_card"),
    |data: &[u8]| hoard_fuzz::table_card(data)
);
