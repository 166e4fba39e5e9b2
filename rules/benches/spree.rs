//! Spree!'s speed: steps per second of the rules alone (recorded bot games replayed through
//! `apply`, every private side present, the local dealer standing in for the deck's
//! cryptography), and whole bot games per second (the bots' choices included).
//! Run with `cargo bench -p hoard-rules --bench spree`.

use std::time::{Duration, Instant};

use hoard_rules::play::{self, Played};
use hoard_rules::spree::{Config, Spree};

fn seed(n: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&n.to_le_bytes());
    s
}

fn secrets(seats: u8) -> Vec<[u8; 32]> {
    (0..seats).map(|s| [s; 32]).collect()
}

fn game(config: &Config, n: u64) -> Played<Spree> {
    play::play_out::<Spree>(config, &secrets(config.seats), &seed(n), 100_000)
        .expect("the bots play legal moves")
}

/// Runs `f` over and over for at least `budget`; returns (runs, units counted, time).
fn measure(budget: Duration, mut f: impl FnMut(u64) -> u64) -> (u64, u64, Duration) {
    let start = Instant::now();
    let (mut runs, mut units) = (0, 0);
    while start.elapsed() < budget {
        units += f(runs);
        runs += 1;
    }
    (runs, units, start.elapsed())
}

fn per_second(units: u64, time: Duration) -> f64 {
    units as f64 / time.as_secs_f64()
}

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
        let recorded: Vec<Played<Spree>> = (0..20).map(|n| game(&config, n)).collect();
        let (_, steps, time) = measure(budget, |run| {
            let g = &recorded[run as usize % recorded.len()];
            let privates = (0..config.seats)
                .map(|s| Some(<Spree as hoard_rules::Game>::private(&config, s, [s; 32])))
                .collect();
            play::replay::<Spree>(&config, privates, &g.steps, &g.dealer, &mut |_, _, _| {})
                .expect("replays");
            g.steps.len() as u64
        });
        println!(
            "  {label:<20} rules alone: {:>10.0} steps/s",
            per_second(steps, time)
        );
        let (games, steps, time) = measure(budget, |n| game(&config, 1_000 + n).steps.len() as u64);
        println!(
            "  {label:<20} bot games:   {:>10.1} games/s ({:.0} steps/game)",
            per_second(games, time),
            steps as f64 / games as f64
        );
    }
}
