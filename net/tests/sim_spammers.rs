//! The fault simulator playing SPAMMERS: two shared hidden decks (Lists and Actions) dealt,
//! the Lists chosen in a sealed step, cards shown as they are played, Mailing rolls answered
//! out of turn in reaction windows, and both decks reshuffled from their discards, under
//! delays, loss, reordering, duplication, partitions, crash-restarts and blackouts. Every
//! device must end on the same log and state with a verified audit that replayed every
//! shuffle. A failure prints its seed;
//! `HOARD_SIM_SEED=<seed>` replays it with a trace.

use hoard_net::CoreConfig;
use hoard_net::sim::{self, Faults, Report};
use hoard_net::wire::SignatureMemo;
use hoard_rules::Listed;
use hoard_rules::spammers::Spammers;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use std::time::Instant;

const DEFAULT_GAMES: u64 = 12;
const LONG_GAMES: u64 = 1_000;

fn cfg(memo: &SignatureMemo) -> CoreConfig<Spammers> {
    sim::bot_table(memo)
}

/// One seeded whole game of 2 to 4 seats, one second to answer a roll.
fn game(seed: u64, faulty: bool, memo: &SignatureMemo, trace: bool) -> Result<Report, String> {
    let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x0073_7061_6d73);
    let seats = 2 + (r.next_u32() % 3) as u8;
    let mut config = Spammers::config(seats);
    Spammers::set_variant(&mut config, "quick-answers")?;
    let faults = if faulty {
        Faults::random(&mut r)
    } else {
        Faults::none()
    };
    sim::play::<Spammers>(&config, seats, faults, seed, cfg(memo), trace)
}

#[test]
fn whole_games_on_faulty_networks_end_verified_with_rolls_answered_out_of_turn() {
    let memo = SignatureMemo::new();
    let t = Instant::now();
    let (mut windows, mut shuffles) = (0, 0);
    let (games, steps) = sim::run_seeds(0..DEFAULT_GAMES, "sim_spammers", |seed| {
        let report = game(seed, seed % 4 != 0, &memo, false)?;
        windows += report.sealed_steps;
        shuffles += report.shuffles;
        Ok(report)
    });
    println!(
        "{games} games ({} on a perfect network), {steps} steps, {windows} sealed steps, \
         {shuffles} shuffles, all verified, in {:?}",
        DEFAULT_GAMES / 4,
        t.elapsed()
    );
    assert!(
        u64::from(windows) > DEFAULT_GAMES,
        "Mailing rolls were answered in windows"
    );
    assert!(
        shuffles > 2 * DEFAULT_GAMES as u32,
        "a deck was made again from its discards"
    );
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

/// The long run: `cargo test -p hoard-net --release --test sim_spammers -- --ignored`.
#[test]
#[ignore]
fn a_thousand_faulty_games() {
    let memo = SignatureMemo::new();
    let t = Instant::now();
    let (games, steps) = sim::run_seeds(
        DEFAULT_GAMES..DEFAULT_GAMES + LONG_GAMES,
        "sim_spammers",
        |seed| game(seed, true, &memo, false),
    );
    println!(
        "{games} faulty games, {steps} steps, all verified, in {:?}",
        t.elapsed()
    );
}
