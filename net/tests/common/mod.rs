//! Shared fixtures for hoard-net's integration tests.
#![allow(dead_code)]

pub mod decode;
pub mod highcard;
pub mod table;
