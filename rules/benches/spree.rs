//! Spree!'s speed: steps per second of the rules alone and whole bot games per second.
//! Run with `cargo bench -p hoard-rules --bench spree`.

mod common;

use hoard_rules::spree::{Config, Spree};
use std::time::Duration;

fn main() {
    let budget = Duration::from_secs(2);
    println!(
        "Spree! benchmark ({} s per line, one core)",
        budget.as_secs()
    );
    let mut hong_kong = Config::new(5);
    hong_kong.hong_kong = true;
    for (label, config) in [
        ("4 seats", Config::new(4)),
        ("8 seats", Config::new(8)),
        ("5 seats, Hong Kong", hong_kong),
    ] {
        common::bench::<Spree>(label, &config, config.seats, budget);
    }
}
