//! `cargo bench -p hoard-net`: full 6-seat GreedQuest games through the simulator on a
//! perfect network — games per second, and bytes per sealed turn per seat.
//!
//! Every device verifies every signature it receives, as real devices do (no shared
//! memo), and every message is echoed as the protocol echoes it. Bytes are everything the
//! six devices hand to the network.

use hoard_net::CoreConfig;
use hoard_net::sim::{self, Faults, Report};
use hoard_rules::greedquest::{Config, GreedQuest};
use std::time::Instant;

const SEATS: u8 = 6;
const GAMES: u64 = 40;

fn game(seed: u64, tally: bool) -> Report {
    let config = Config::new(SEATS);
    let cfg = CoreConfig {
        away_after: 30_000,
        resync_after: 1_500,
        ..CoreConfig::<GreedQuest>::default()
    };
    let mut sim = sim::Sim::<GreedQuest>::new(&config, SEATS, Faults::none(), seed, cfg)
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    sim.tally(tally);
    let report = sim.run().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        report
            .verdicts
            .iter()
            .all(|v| v.as_ref().is_some_and(|v| v.is_verified()))
    );
    report
}

fn main() {
    // Warm up, and measure bytes on one pass with the tally on.
    let mut tally = sim::Tally::default();
    let mut plays = 0u64;
    for seed in 0..5 {
        let r = game(1_000 + seed, true);
        let t = r.tally.unwrap_or_default();
        tally.commits += t.commits;
        tally.openings += t.openings;
        tally.hellos += t.hellos;
        tally.other += t.other;
        tally.commit_size = t.commit_size;
        tally.opening_size = t.opening_size;
        plays += r.sealed_plays as u64;
    }

    let t = Instant::now();
    let (mut steps, mut sealed, mut messages, mut bytes) = (0u64, 0u64, 0u64, 0u64);
    for seed in 0..GAMES {
        let r = game(seed, false);
        steps += r.steps as u64;
        sealed += r.sealed_plays as u64;
        messages += r.messages;
        bytes += r.bytes;
    }
    let secs = t.elapsed().as_secs_f64();

    println!("hoard-net protocol bench: {SEATS}-seat GreedQuest (full game), simulator, no faults");
    println!(
        "  {GAMES} games in {secs:.2} s: {:.2} games/s ({:.0} steps/game, {:.0} sealed plays/game)",
        GAMES as f64 / secs,
        steps as f64 / GAMES as f64,
        sealed as f64 / GAMES as f64,
    );
    println!(
        "  {:.0} messages/game, {:.1} KB/game on the network (all six devices)",
        messages as f64 / GAMES as f64,
        bytes as f64 / GAMES as f64 / 1000.0
    );
    let per = |b: u64| b as f64 / plays as f64;
    println!(
        "  bytes per sealed turn per seat: {:.0} (commitment {} B sent to 5 peers and echoed by each, \
         opening {} B sent to 5 peers: {:.0} + {:.0})",
        per(tally.commits + tally.openings),
        tally.commit_size,
        tally.opening_size,
        per(tally.commits),
        per(tally.openings),
    );
    println!(
        "  all traffic per sealed turn per seat (hellos {:.0}, draws/moves/reveals {:.0}): {:.0}",
        per(tally.hellos),
        per(tally.other),
        per(tally.commits + tally.openings + tally.hellos + tally.other),
    );
}
