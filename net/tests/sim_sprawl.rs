//! The fault simulator playing full Sprawl games with away seats: a handful of seeded
//! 4-seat tables in the default test run, each with one device that dies for good and one
//! that goes quiet and comes back. `HOARD_SIM_SEED=<seed>` replays one with a trace.

use hoard_net::CoreConfig;
use hoard_net::session::TableGame;
use hoard_net::sim::{self, Report};
use hoard_net::wire::SignatureMemo;
use hoard_rules::sprawl::{Config, Sprawl};
use std::time::Instant;

const AWAY_GAMES: u64 = 4;

fn game(seed: u64, memo: &SignatureMemo, trace: bool) -> Result<Report, String> {
    let mut config = Config::new(4);
    // Every other table asks "Are you sure?": an away seat must answer that too.
    config.counting_coup = seed % 2 == 1;
    let faults = sim::away_story();
    let cfg = CoreConfig {
        away_after: sim::AWAY_STORY_AFTER,
        resync_after: 1_000,
        chain_len: 64,
        memo: Some(memo.clone()),
        reaction: Default::default(),
        ..Sprawl::core_config()
    };
    sim::play::<Sprawl>(&config, 4, faults, seed, cfg, trace)
}

/// "When the table agrees, the away seat is skipped (plays nothing, as a player who sits
/// out) or removed ... When the device comes back, it catches up and plays on." Each table
/// must remove the dead seat, skip the quiet one, see it play again, and end with every
/// audit verified. The others keep their standing choice to skip the quiet seat (nobody
/// presses "Wait"): its restarted device says it is back, and that wins its turns back.
#[test]
fn away_seat_is_skipped_and_plays_again_and_dead_seat_is_removed() {
    let t = Instant::now();
    let memo = SignatureMemo::new();
    for seed in 0..AWAY_GAMES {
        let report = game(seed, &memo, false).unwrap_or_else(|e| {
            panic!("{e}\nreplay: HOARD_SIM_SEED={seed} cargo test -p hoard-net --test sim_sprawl replay -- --nocapture")
        });
        match report.away_story() {
            Ok(line) => println!("{line}"),
            Err(e) => panic!("{e}"),
        }
    }
    println!(
        "{AWAY_GAMES} Sprawl tables with a seat away and one removed, in {:?}",
        t.elapsed()
    );
}

/// `HOARD_SIM_SEED=<seed>`: replays one game with a trace of every event.
#[test]
fn replay() {
    if let Some(seed) = sim::replay_seed() {
        let result = game(seed, &SignatureMemo::new(), true);
        println!("{result:?}");
        assert!(result.is_ok());
    }
}
