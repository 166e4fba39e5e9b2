//! Every integration test of this crate in one test binary, one module per file: one link
//! instead of one per file, and the files' tests run side by side (a file of one long test
//! no longer holds the others up). Run one file's tests with its module name as the filter,
//! e.g. `cargo test -p <crate> --test all <file>::`.

mod greedquest_support;
mod sprawl_support;
mod spree_support;

mod conformance;
mod counter_rules;
mod freeloader_rules;
mod greedquest_away;
mod greedquest_rules;
mod spammers_rules;
mod sprawl_away;
mod sprawl_rules;
mod sprawl_variants;
mod spree_rules;
mod story_words;
