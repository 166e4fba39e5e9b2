//! Sprawl's speed: steps per second (random-legal play through `pending`, `legal_inputs`
//! and `apply`, and `apply` alone on replayed games), and whole bot games per second.
//! Run with `cargo bench -p hoard-rules --bench sprawl`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use hoard_rules::sprawl::{Config, Input, Sprawl, Strength, choose};
use hoard_rules::{Game, Pending, Play, Step, rng};

fn draw(seed: u64, k: u64) -> [u8; 32] {
    let mut d = [0u8; 32];
    d[..8].copy_from_slice(&seed.to_le_bytes());
    d[8..16].copy_from_slice(&k.to_le_bytes());
    d
}

/// Plays one game with the given bots and returns its steps.
fn play(config: &Config, seed: u64, bots: &[Strength]) -> Vec<Step<Input>> {
    let mut p = Sprawl::setup(config).expect("a valid config");
    let mut rng = rng::from_seed(&draw(seed, u64::MAX), "bench bots");
    let mut steps = Vec::new();
    let mut draws = 0;
    loop {
        let step = match Sprawl::pending(&p) {
            Pending::Over(_) => return steps,
            Pending::Chance => {
                draws += 1;
                Step::Chance(draw(seed, draws))
            }
            Pending::Turn { seat } => {
                let input = choose(&p, seat, bots[usize::from(seat)], &mut rng)
                    .expect("a seat asked to move has a move");
                Step::turn(seat, input)
            }
            Pending::Together { seats, .. } => Step::Inputs(
                seats
                    .iter()
                    .map(|&s| {
                        let input = choose(&p, s, bots[usize::from(s)], &mut rng)
                            .expect("a seat asked to answer has an answer");
                        (s, Play::Open(input))
                    })
                    .collect(),
            ),
            other => panic!("Sprawl has no shared deck, yet waits for {other:?}"),
        };
        Sprawl::apply(&mut p, &mut [], &step).expect("bots play legal moves");
        steps.push(step);
    }
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

fn all_variants(seats: u8) -> Config {
    Config {
        seats,
        counting_coup: true,
        sprawlgami: true,
        overload: true,
        superior_forces: true,
        loose_branching: true,
    }
}

fn main() {
    let budget = Duration::from_secs(2);
    println!("Sprawl benchmark ({} s per line)", budget.as_secs());
    for (label, config) in [
        ("3 seats", Config::new(3)),
        ("5 seats", Config::new(5)),
        ("8 seats", Config::new(8)),
        ("5 seats, every variant", all_variants(5)),
    ] {
        let random = vec![Strength::Random; usize::from(config.seats)];
        let (games, steps, time) =
            measure(budget, |seed| play(&config, seed, &random).len() as u64);
        println!(
            "  {label:<24} random-legal play: {:>10.0} steps/s ({games} games, {:.1} steps/game)",
            per_second(steps, time),
            steps as f64 / games as f64
        );
        let recorded: Vec<Vec<Step<Input>>> = (0..50).map(|s| play(&config, s, &random)).collect();
        let (_, steps, time) = measure(budget, |run| {
            let game = &recorded[run as usize % recorded.len()];
            let mut p = Sprawl::setup(&config).expect("a valid config");
            for step in game {
                black_box(Sprawl::apply(&mut p, &mut [], step).expect("replays")).len();
            }
            game.len() as u64
        });
        println!(
            "  {label:<24} apply alone:       {:>10.0} steps/s",
            per_second(steps, time)
        );
    }
    for (label, config, bots) in [
        ("3 greedy bots", Config::new(3), vec![Strength::Greedy; 3]),
        (
            "greedy v 2 random",
            Config::new(3),
            vec![Strength::Greedy, Strength::Random, Strength::Random],
        ),
        ("5 greedy bots", Config::new(5), vec![Strength::Greedy; 5]),
        ("8 greedy bots", Config::new(8), vec![Strength::Greedy; 8]),
    ] {
        let (games, steps, time) = measure(budget, |seed| play(&config, seed, &bots).len() as u64);
        println!(
            "  {label:<24} bot games:         {:>10.1} games/s ({:.0} steps/s)",
            per_second(games, time),
            per_second(steps, time)
        );
    }
}
