//! Sprawl's bots: the greedy bot against random-legal ones, and that bot games end.

mod sprawl_support;

use hoard_rules::sprawl::{Config, Strength};
use sprawl_support::play;

#[test]
fn greedy_bot_beats_random_bots_in_most_three_seat_games() {
    let config = Config::new(3);
    let games = 30u64;
    let mut wins = 0;
    let start = std::time::Instant::now();
    for seed in 0..games {
        let me = (seed % 3) as u8;
        let mut bots = [Strength::Random; 3];
        bots[usize::from(me)] = Strength::Greedy;
        let g = play(&config, seed, &bots, 2_000);
        if g.outcome.winners.contains(&me) {
            wins += 1;
        }
    }
    eprintln!("greedy won {wins}/{games} in {:?}", start.elapsed());
    assert!(
        wins * 100 >= games * 60,
        "greedy won only {wins} of {games}"
    );
}
