//! What the card games' benchmarks share: seeded bot games by the local driver (the dealer
//! standing in for the deck's cryptography), timed replays of them through the rules, and
//! whole bot games per second.

use hoard_rules::Game;
use hoard_rules::play::{self, Played};
use std::time::{Duration, Instant};

fn seed(n: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&n.to_le_bytes());
    s
}

fn game<G: Game>(config: &G::Config, seats: u8, n: u64) -> Played<G> {
    let secrets: Vec<[u8; 32]> = (0..seats).map(|s| [s; 32]).collect();
    play::play_out::<G>(config, &secrets, &seed(n), 100_000).expect("the bots play legal moves")
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

/// Prints the rules' steps per second (20 recorded bot games replayed through `apply`, every
/// private side present) and bot games per second, each measured for `budget`.
pub fn bench<G: Game>(label: &str, config: &G::Config, seats: u8, budget: Duration) {
    let recorded: Vec<Played<G>> = (0..20).map(|n| game::<G>(config, seats, n)).collect();
    let (_, steps, time) = measure(budget, |run| {
        let g = &recorded[run as usize % recorded.len()];
        let privates = (0..seats)
            .map(|s| Some(G::private(config, s, [s; 32])))
            .collect();
        play::replay::<G>(config, privates, &g.steps, &g.dealer, &mut |_, _, _| {})
            .expect("replays");
        g.steps.len() as u64
    });
    println!(
        "  {label:<20} rules alone: {:>10.0} steps/s",
        per_second(steps, time)
    );
    let (games, steps, time) = measure(budget, |n| {
        game::<G>(config, seats, 1_000 + n).steps.len() as u64
    });
    println!(
        "  {label:<20} bot games:   {:>10.1} games/s ({:.0} steps/game)",
        per_second(games, time),
        steps as f64 / games as f64
    );
}
