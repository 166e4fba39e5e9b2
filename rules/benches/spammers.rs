//! SPAMMERS' speed: steps per second of the rules alone and whole bot games per second.
//! Run with `cargo bench -p hoard-rules --bench spammers`.

mod common;

use hoard_rules::spammers::{Config, Spammers};
use std::time::Duration;

fn main() {
    let budget = Duration::from_secs(2);
    println!(
        "SPAMMERS benchmark ({} s per line, one core)",
        budget.as_secs()
    );
    for seats in [2, 3, 6] {
        let label = format!("{seats} seats");
        let config = Config {
            seats,
            window: hoard_rules::ReactionWindow::USUAL,
        };
        common::bench::<Spammers>(&label, &config, seats, budget);
    }
}
