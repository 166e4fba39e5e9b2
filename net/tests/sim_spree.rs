//! The fault simulator playing Spree!: the shared hidden deck of 108 cards dealt in hands of
//! five, shown card by card, reshuffled from the discards, and Aces answered out of turn in
//! chained reaction windows, under delays, loss, reordering, duplication, partitions,
//! crash-restarts and blackouts. Every device must end on the same log and state with a
//! verified audit that replayed every shuffle. Games are the short game (a quarter of the
//! target) to keep the default run's time. A failure prints its seed;
//! `HOARD_SIM_SEED=<seed>` replays it with a trace.

use hoard_net::CoreConfig;
use hoard_net::sim::{self, Faults, Report};
use hoard_net::wire::SignatureMemo;
use hoard_rules::Listed;
use hoard_rules::spree::Spree;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use std::time::Instant;

const DEFAULT_GAMES: u64 = 16;
const LONG_GAMES: u64 = 1_000;

/// The devices' settings: every seat a bot, so every answer waits out the window.
fn cfg(memo: &SignatureMemo) -> CoreConfig<Spree> {
    sim::bot_table(memo)
}

/// One seeded short game of 3 to 5 seats, the Hong Kong rules in every other one.
fn game(seed: u64, faulty: bool, memo: &SignatureMemo, trace: bool) -> Result<Report, String> {
    let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x0073_7072_6565);
    let seats = 3 + (r.next_u32() % 3) as u8;
    let mut config = Spree::config(seats);
    Spree::set_variant(&mut config, "short").map_err(|e| e.to_string())?;
    if seed % 2 == 1 {
        config.hong_kong = true;
    }
    let faults = if faulty {
        Faults::random(&mut r)
    } else {
        Faults::none()
    };
    sim::play::<Spree>(&config, seats, faults, seed, cfg(memo), trace)
}

#[test]
fn faulty_short_games_end_verified_on_every_device() {
    let memo = SignatureMemo::new();
    let t = Instant::now();
    let (mut windows, mut shuffles) = (0, 0);
    let (games, steps) = sim::run_seeds(0..DEFAULT_GAMES, "sim_spree", |seed| {
        let report = game(seed, seed % 4 != 0, &memo, false)?;
        windows += report.sealed_steps;
        shuffles += report.shuffles;
        Ok(report)
    });
    println!(
        "{games} games ({} on a perfect network), {steps} steps, {windows} Ace windows, \
         {shuffles} shuffles, all verified, in {:?}",
        DEFAULT_GAMES / 4,
        t.elapsed()
    );
    assert!(windows > 0, "some play could be stopped by an Ace");
}

#[test]
fn a_whole_game_on_a_faulty_network_makes_its_deck_again_from_the_discards() {
    // "When the deck runs out, you will shuffle the discards and replace the deck."
    let memo = SignatureMemo::new();
    let mut r = ChaCha8Rng::seed_from_u64(77);
    let config = Spree::config(4);
    let report = sim::play::<Spree>(&config, 4, Faults::random(&mut r), 77, cfg(&memo), false)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        report.verdicts.iter().flatten().all(|v| v.is_verified()),
        "{:?}",
        report.verdicts
    );
    assert!(report.shuffles > 1, "shuffles: {}", report.shuffles);
    println!(
        "{} steps, {} shuffles, {} Ace windows",
        report.steps, report.shuffles, report.sealed_steps
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

/// The long run: `cargo test -p hoard-net --release --test sim_spree -- --ignored`.
#[test]
#[ignore]
fn a_thousand_faulty_games() {
    let memo = SignatureMemo::new();
    let t = Instant::now();
    let (games, steps) = sim::run_seeds(
        DEFAULT_GAMES..DEFAULT_GAMES + LONG_GAMES,
        "sim_spree",
        |seed| game(seed, true, &memo, false),
    );
    println!(
        "{games} faulty games, {steps} steps, all verified, in {:?}",
        t.elapsed()
    );
}

/// Issue 27: "A Spree! table of eight where three seats are removed one after another".
/// Three of eight devices die for good, each some seconds after the last; the table removes
/// each in turn (a second and third removal read the parts of the keys the removed seats
/// held with their keys), the deck keeps dealing, and the five left end verified on one log.
#[test]
fn a_table_of_eight_removes_three_seats_one_after_another_and_ends_verified() {
    let memo = SignatureMemo::new();
    let seeds: Vec<u64> = match sim::replay_seed() {
        Some(s) => vec![s],
        None => vec![0, 1],
    };
    for seed in seeds {
        let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x0008_0003);
        let mut config = Spree::config(8);
        Spree::set_variant(&mut config, "short")
            .map_err(|e| e.to_string())
            .unwrap();
        let mut faults = if seed % 2 == 0 {
            Faults::none()
        } else {
            Faults::random(&mut r)
        };
        faults.crashes = 0;
        faults.blackouts = 0;
        let first = (r.next_u32() % 8) as u8;
        faults.dead_seat = Some(first);
        faults.dead_at = Some(2_000);
        faults.more_dead = vec![((first + 3) % 8, 20_000), ((first + 5) % 8, 40_000)];
        let trace = sim::replay_seed() == Some(seed);
        let report = sim::play::<Spree>(&config, 8, faults.clone(), seed, cfg(&memo), trace)
            .unwrap_or_else(|e| panic!("{e}\nreplay: HOARD_SIM_SEED={seed}"));
        assert!(
            report.verdicts.iter().flatten().all(|v| v.is_verified()),
            "seed {seed}: {:?}",
            report.verdicts
        );
        assert!(
            report.ended_by_agreement.is_none(),
            "seed {seed}: the game stopped"
        );
        let removed = [first, (first + 3) % 8, (first + 5) % 8]
            .iter()
            .filter(|s| report.removed[**s as usize] > 0)
            .count();
        assert_eq!(removed, 3, "seed {seed}: {:?}", report.removed);
    }
}
