//! Freeloader's speed: steps per second of the rules alone and whole bot games per second.
//! Run with `cargo bench -p hoard-rules --bench freeloader`.

mod common;

use hoard_rules::freeloader::{Config, Freeloader};
use std::time::Duration;

fn main() {
    let budget = Duration::from_secs(2);
    println!(
        "Freeloader benchmark ({} s per line, one core)",
        budget.as_secs()
    );
    for seats in [3, 4, 6] {
        let label = format!("{seats} seats");
        common::bench::<Freeloader>(&label, &Config { seats }, seats, budget);
    }
}
