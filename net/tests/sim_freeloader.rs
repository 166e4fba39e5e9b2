//! The fault simulator playing Freeloader: the 54-card shared hidden deck dealt, turned up
//! beside the houses, drawn, shown as cards are played, and passed in secret in hand-to-hand
//! trades, under delays, loss, reordering, duplication, partitions, crash-restarts and
//! blackouts. Every device must end on the same log and state with a verified audit that
//! replayed every shuffle and every passed card. A failure prints its seed;
//! `HOARD_SIM_SEED=<seed>` replays it with a trace.

use hoard_net::CoreConfig;
use hoard_net::sim::{self, Faults, Report};
use hoard_net::wire::SignatureMemo;
use hoard_rules::Listed;
use hoard_rules::freeloader::Freeloader;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use std::time::Instant;

const DEFAULT_GAMES: u64 = 24;
const LONG_GAMES: u64 = 1_000;

fn cfg(memo: &SignatureMemo) -> CoreConfig<Freeloader> {
    sim::bot_table(memo)
}

/// One seeded whole game of 3 to 6 seats.
fn game(seed: u64, faulty: bool, memo: &SignatureMemo, trace: bool) -> Result<Report, String> {
    let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x0066_7265_656c);
    let seats = 3 + (r.next_u32() % 4) as u8;
    let config = Freeloader::config(seats);
    let faults = if faulty {
        Faults::random(&mut r)
    } else {
        Faults::none()
    };
    sim::play::<Freeloader>(&config, seats, faults, seed, cfg(memo), trace)
}

#[test]
fn whole_games_on_faulty_networks_end_verified_with_cards_passed_in_secret() {
    let memo = SignatureMemo::new();
    let t = Instant::now();
    let mut passed = 0;
    let (games, steps) = sim::run_seeds(0..DEFAULT_GAMES, "sim_freeloader", |seed| {
        let report = game(seed, seed % 4 != 0, &memo, false)?;
        passed += report.passed;
        Ok(report)
    });
    println!(
        "{games} games ({} on a perfect network), {steps} steps, {passed} cards passed in \
         trades, all verified, in {:?}",
        DEFAULT_GAMES / 4,
        t.elapsed()
    );
    assert!(passed > 0, "some hand-to-hand trade passed a hidden card");
}

/// `HOARD_SIM_SEED=<seed>`: replays one game with a trace of every event.
#[test]
fn replay() {
    if let Some(seed) = sim::replay_seed() {
        let result = game(seed, true, &SignatureMemo::new(), true);
        println!("{result:?}");
        assert!(result.is_ok());
    }
}

/// The long run: `cargo test -p hoard-net --release --test sim_freeloader -- --ignored`.
#[test]
#[ignore]
fn a_thousand_faulty_games() {
    let memo = SignatureMemo::new();
    let t = Instant::now();
    let (games, steps) = sim::run_seeds(
        DEFAULT_GAMES..DEFAULT_GAMES + LONG_GAMES,
        "sim_freeloader",
        |seed| game(seed, true, &memo, false),
    );
    println!(
        "{games} faulty games, {steps} steps, all verified, in {:?}",
        t.elapsed()
    );
}
