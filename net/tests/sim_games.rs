//! The fault simulator playing every game in the registry (`for_each_game!`): a new game
//! gets all of it by its registry line. For each game:
//!
//! - **faulty games** (`faulty::<Game>::slice_<k>`): seeded whole games across the game's
//!   seat counts and mixes of its variants, seven in eight under a random mix of delays,
//!   loss, reordering, duplication, partitions, crash-restarts and blackouts (the eighth on
//!   a perfect network). Every device must end on the same log and state with a verified
//!   audit that replayed every shuffle and every passed card;
//! - **away seats** (`away::<Game>`): at four seats one device dies for good and another
//!   goes quiet and comes back from its store. "When the table agrees, the away seat is
//!   skipped (plays nothing, as a player who sits out) or removed ... When the device comes
//!   back, it catches up and plays on." The table removes the dead seat, skips the quiet
//!   one, sees it play again, and every audit left verifies.
//!
//! A failure prints its seed; `HOARD_SIM_GAME=<game> HOARD_SIM_SEED=<seed>` replays it with a
//! trace (`replay`). The long run, ten times the default's games of every game:
//! `cargo test -p hoard-net --release --test all sim_games:: -- --ignored`.
//! Stories the registry cannot tell (a deck dealing past a removed seat's key, a table of
//! eight losing three) are in `sim_cases.rs`.

use hoard_net::CoreConfig;
use hoard_net::session::TableGame;
use hoard_net::sim::{self, Faults, Report};
use hoard_net::wire::SignatureMemo;
use hoard_rules::for_each_game;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use std::time::Instant;

/// Each game's faulty games run as this many tests side by side.
const SLICES: u64 = 4;

/// How a game is played in the default run: how many seeded games, the variants always on
/// (a shorter game keeps the run's time; the rest are mixed in by seed), and the most seats.
struct Plan {
    games: u64,
    always: &'static [&'static str],
    most_seats: u8,
}

/// The plans, by game; a game not named here gets the default (24 whole games).
fn plan(title: &str) -> Plan {
    let (games, always, most_seats): (u64, &'static [&'static str], u8) = match title {
        // Quick games of many kinds of step: the bulk of the run.
        "GreedQuest" => (1_600, &[], 6),
        "Counter" => (1_000, &["short"], 5),
        // Whole games on a shared deck of 54 to 108 cards, shuffled again from the discards.
        "Spree!" => (16, &["short"], 5),
        "SPAMMERS" => (12, &["quick-answers"], 4),
        _ => (24, &[], 6),
    };
    Plan {
        games,
        always,
        most_seats,
    }
}

/// Game `seed` of `G`: its seats, its options and its network.
fn game<G: TableGame>(
    seed: u64,
    faulty: bool,
    memo: &SignatureMemo,
    trace: bool,
) -> Result<Report, String> {
    let plan = plan(G::TITLE);
    let title_key = u64::from_le_bytes(
        blake3::hash(G::TITLE.as_bytes()).as_bytes()[..8]
            .try_into()
            .unwrap_or_default(),
    );
    let mut r = ChaCha8Rng::seed_from_u64(seed ^ title_key);
    let range = G::seat_range();
    let (low, high) = (*range.start(), (*range.end()).min(plan.most_seats));
    let seats = low + (r.next_u32() % u32::from(high - low + 1)) as u8;
    let mut config = G::config(seats);
    for variant in G::VARIANTS {
        if plan.always.contains(variant) || r.next_u32().is_multiple_of(4) {
            G::set_variant(&mut config, variant)?;
        }
    }
    let faults = if faulty {
        Faults::random(&mut r)
    } else {
        Faults::none()
    };
    sim::play::<G>(&config, seats, faults, seed, sim::bot_table(memo), trace)
}

fn faulty_slice<G: TableGame>(i: u64, name: &str) {
    let plan = plan(G::TITLE);
    let memo = SignatureMemo::new();
    let t = Instant::now();
    let per = plan.games.div_ceil(SLICES);
    let (mut windows, mut shuffles, mut passed) = (0, 0, 0);
    let mut ends = Ends::default();
    let test = format!("sim_games::replay::{name}");
    let (games, steps) = sim::run_seeds(i * per..((i + 1) * per).min(plan.games), &test, |seed| {
        let report = ends.note(seed, game::<G>(seed, seed % 8 != 0, &memo, false)?);
        windows += report.sealed_steps;
        shuffles += report.shuffles;
        passed += report.passed;
        Ok(report)
    });
    println!(
        "{} slice {i}: {games} games ({} on a perfect network), {steps} steps{ends}, {windows} \
         sealed steps, {shuffles} shuffles, {passed} cards passed, all verified, in {:?}",
        G::TITLE,
        games.div_ceil(8),
        t.elapsed()
    );
}

/// How a run's games ended: the most steps a game played out took, and the games whose
/// players ran out of patience ([`sim::PATIENCE`]) and ended them by agreement, games the
/// rules let go round in circles, which a table of people ends.
#[derive(Default)]
struct Ends {
    longest: u32,
    tired: Vec<u64>,
}

impl Ends {
    fn note(&mut self, seed: u64, report: Report) -> Report {
        match report.ended_by_agreement {
            Some(step) if step >= sim::PATIENCE => self.tired.push(seed),
            Some(_) => {}
            None => self.longest = self.longest.max(report.steps),
        }
        report
    }
}

impl std::fmt::Display for Ends {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, " (the longest game played out {} steps", self.longest)?;
        if !self.tired.is_empty() {
            write!(
                f,
                "; {} going round in circles, ended by agreement at the table's patience: \
                 seeds {:?}",
                self.tired.len(),
                self.tired
            )?;
        }
        write!(f, ")")
    }
}

fn away<G: TableGame>() {
    let t = Instant::now();
    let memo = SignatureMemo::new();
    let seats = 4.clamp(*G::seat_range().start(), *G::seat_range().end());
    for seed in 0..2u64 {
        let mut config = G::config(seats);
        if let Some(short) = G::VARIANTS.iter().find(|v| **v == "short") {
            G::set_variant(&mut config, short).expect("a listed variant");
        }
        let cfg = CoreConfig {
            away_after: sim::AWAY_STORY_AFTER,
            resync_after: 1_000,
            chain_len: 64,
            memo: Some(memo.clone()),
            ..G::core_config()
        };
        let trace = sim::replay_seed() == Some(seed);
        let report = sim::play::<G>(&config, seats, sim::away_story(), seed, cfg, trace)
            .unwrap_or_else(|e| panic!("{}: {e}", G::TITLE));
        match report.away_story() {
            Ok(line) => println!("{}: {line}", G::TITLE),
            Err(e) => panic!("{}: {e}", G::TITLE),
        }
    }
    println!(
        "{}: tables with a seat away and one removed, in {:?}",
        G::TITLE,
        t.elapsed()
    );
}

/// `HOARD_SIM_GAME=<game> HOARD_SIM_SEED=<seed>`: one game with a trace of every event.
fn replay<G: TableGame>(name: &str) {
    let wanted = std::env::var("HOARD_SIM_GAME").unwrap_or_default();
    if let Some(seed) = sim::replay_seed()
        && (wanted.is_empty() || wanted.eq_ignore_ascii_case(name))
    {
        let result = game::<G>(seed, seed % 8 != 0, &SignatureMemo::new(), true);
        println!("{result:?}");
        assert!(result.is_ok());
    }
}

fn long<G: TableGame>(name: &str) {
    let plan = plan(G::TITLE);
    let memo = SignatureMemo::new();
    let t = Instant::now();
    let test = format!("sim_games::replay::{name}");
    let seeds = plan.games..plan.games * 11;
    let mut ends = Ends::default();
    let (games, steps) = sim::run_seeds(seeds, &test, |seed| {
        Ok(ends.note(seed, game::<G>(seed, true, &memo, false)?))
    });
    println!(
        "{}: {games} faulty games, {steps} steps{ends}, all verified, in {:?}",
        G::TITLE,
        t.elapsed()
    );
}

macro_rules! sim_tests {
    ($($module:ident::$game:ident),* $(,)?) => {
        mod faulty {
            $(
                #[allow(non_snake_case)]
                mod $game {
                    use hoard_rules::$module::$game as G;
                    #[test]
                    fn slice_0() { super::super::faulty_slice::<G>(0, stringify!($game)) }
                    #[test]
                    fn slice_1() { super::super::faulty_slice::<G>(1, stringify!($game)) }
                    #[test]
                    fn slice_2() { super::super::faulty_slice::<G>(2, stringify!($game)) }
                    #[test]
                    fn slice_3() { super::super::faulty_slice::<G>(3, stringify!($game)) }
                }
            )*
        }
        mod away {
            $(
                #[test]
                #[allow(non_snake_case)]
                fn $game() {
                    super::away::<hoard_rules::$module::$game>();
                }
            )*
        }
        mod replay {
            $(
                #[test]
                #[allow(non_snake_case)]
                fn $game() {
                    super::replay::<hoard_rules::$module::$game>(stringify!($game));
                }
            )*
        }
        mod long {
            $(
                #[test]
                #[ignore]
                #[allow(non_snake_case)]
                fn $game() {
                    super::long::<hoard_rules::$module::$game>(stringify!($game));
                }
            )*
        }
    };
}

for_each_game!(sim_tests);

/// "Taken as written, this allows a lock" (Survival of the Fittest, `hoard_rules::greedquest`):
/// game 2335 of the long run locks. A seat in Room 9 plays the top of its draw pile, and the
/// only live card left there is Curse!, so every turn is cursed and the leaders' winning Go!
/// cards carry them back into Room 12. Its players agree to end it at the table's patience,
/// and every device ends on the same game with a verified audit.
#[test]
fn a_game_going_round_in_circles_ends_by_its_players_agreement() {
    use hoard_rules::greedquest::GreedQuest;
    let report = game::<GreedQuest>(2335, true, &SignatureMemo::new(), false)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.ended_by_agreement, Some(sim::PATIENCE));
    assert!(
        report
            .verdicts
            .iter()
            .all(|v| v.as_ref().is_some_and(|v| v.is_verified()))
    );
}
