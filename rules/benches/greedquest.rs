//! GreedQuest's speed on one core: rules steps per second (replaying recorded bot games
//! through `apply`, every private side present, as the audit does) and whole bot games per
//! second (bots choosing every input). Run with `cargo bench -p hoard-rules --bench greedquest`.
//!
//! Rates are per second of this thread's own CPU time (from /proc/thread-self/schedstat,
//! where the kernel offers it), so other work on a shared machine does not skew them; the
//! wall-clock rate is printed beside it.

use hoard_rules::greedquest::{Attrition, Config, GreedQuest, Input, Length, Private};
use hoard_rules::play::{Played, play_out};
use hoard_rules::{Game, Step};
use std::hint::black_box;
use std::time::{Duration, Instant};

const GAMES: u32 = 400;
const STEP_CAP: usize = 4_000;

/// A bot game kept for replaying: its options, its seats' secrets, its steps.
type Recorded = (Config, Vec<[u8; 32]>, Vec<Step<Input>>);

fn config_for(game: u32) -> Config {
    Config {
        seats: 2 + (game % 5) as u8,
        length: if game.is_multiple_of(7) {
            Length::Short
        } else {
            Length::Full
        },
        this_is_my_room: game.is_multiple_of(3),
        attrition: [
            Attrition::None,
            Attrition::None,
            Attrition::Survival,
            Attrition::Uniqueness,
        ][(game % 4) as usize],
    }
}

fn secrets(game: u32, seats: u8) -> Vec<[u8; 32]> {
    (0..seats)
        .map(|s| *blake3::hash(format!("bench {game} {s}").as_bytes()).as_bytes())
        .collect()
}

fn seed(game: u32) -> [u8; 32] {
    *blake3::hash(format!("bench game {game}").as_bytes()).as_bytes()
}

/// This thread's CPU time so far, if the kernel reports it.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// Wall and CPU time of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration, Option<Duration>) {
    let (cpu, wall) = (cpu_time(), Instant::now());
    let out = f();
    let wall = wall.elapsed();
    let cpu = cpu.zip(cpu_time()).map(|(a, b)| b.saturating_sub(a));
    (out, wall, cpu)
}

fn rate(count: f64, time: Duration) -> String {
    format!("{:.0}", count / time.as_secs_f64())
}

fn main() {
    // Whole bot games.
    let start = Instant::now();
    let cpu_start = cpu_time();
    let mut recorded: Vec<Recorded> = Vec::new();
    let mut steps_played = 0usize;
    for game in 0..GAMES {
        let config = config_for(game);
        let secrets = secrets(game, config.seats);
        let played: Played<GreedQuest> = match play_out(&config, &secrets, &seed(game), STEP_CAP) {
            Ok(played) => played,
            Err(e) => {
                eprintln!("game {game} failed: {e}");
                return;
            }
        };
        steps_played += played.steps.len();
        recorded.push((config, secrets, played.steps));
    }
    let games_time = start.elapsed();
    let games_cpu = cpu_start.zip(cpu_time()).map(|(a, b)| b.saturating_sub(a));

    // Rules steps alone: replay every recorded game, several rounds.
    let mut tables = Vec::new();
    for _ in 0..5 {
        for (config, secrets, game_steps) in &recorded {
            let Ok(public) = GreedQuest::setup(config) else {
                eprintln!("setup failed");
                return;
            };
            let privates: Vec<Option<Private>> = secrets
                .iter()
                .enumerate()
                .map(|(s, secret)| Some(GreedQuest::private(config, s as u8, *secret)))
                .collect();
            tables.push((public, privates, game_steps));
        }
    }
    let steps: usize = tables.iter().map(|(_, _, s)| s.len()).sum();
    let (failed, rules_wall, rules_cpu) = timed(|| {
        for (public, privates, game_steps) in &mut tables {
            for step in game_steps.iter() {
                if let Err(e) = GreedQuest::apply(public, privates, step) {
                    return Some(e);
                }
            }
            black_box(&public);
        }
        None
    });
    if let Some(e) = failed {
        eprintln!("replay failed: {e}");
        return;
    }

    let cpu = |t: Option<Duration>, n: f64| t.map_or("n/a".to_string(), |t| rate(n, t));
    println!(
        "greedquest rules: {} steps/s of CPU time ({} steps/s wall; {steps} apply calls, every private side present)",
        cpu(rules_cpu, steps as f64),
        rate(steps as f64, rules_wall),
    );
    println!(
        "greedquest bot games: {} games/s of CPU time ({} games/s wall; {GAMES} games of 2-6 seats, {steps_played} steps)",
        cpu(games_cpu, f64::from(GAMES)),
        rate(f64::from(GAMES), games_time),
    );
}
