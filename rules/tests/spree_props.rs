//! Properties of whole Spree! games: seeded bot games (4–8 seats, with and without the Hong
//! Kong rules) always end, never lose or make a card, and replay to the same state hash; the
//! bot beats random play.

mod spree_support;

use hoard_rules::play;
use hoard_rules::spree::{Config, Spree};
use hoard_rules::{Game, public_hash};
use spree_support::{outcome, play_with};

fn config(seats: u8, hong_kong: bool, extra_jokers: bool) -> Config {
    let mut c = Config::new(seats);
    c.hong_kong = hong_kong;
    if extra_jokers {
        c.jokers = 8;
    }
    c
}

/// Plays `games` seeded bot games from `first`, each checked card by card and replayed.
fn bot_games(first: u64, games: u64) {
    for n in first..first + games {
        let seats = 4 + (n % 5) as u8;
        let c = config(seats, n % 2 == 1, n % 7 == 3);
        let g = play_with(&c, n, 40_000, &mut Spree::bot_input);
        let end = outcome(&g);
        assert_eq!(end.winners.len(), 1, "game {n}");
        let winner = usize::from(end.winners[0]);
        assert!(end.scores[winner] >= c.target, "game {n}: {end:?}");
        let (replayed, _) = play::replay::<Spree>(
            &c,
            g.privates.iter().map(|_| None).collect(),
            &g.steps,
            &g.dealer,
            &mut |_, _, _| {},
        )
        .expect("the steps replay");
        assert_eq!(public_hash(&replayed), public_hash(&g.public), "game {n}");
    }
}

#[test]
fn two_hundred_seeded_bot_games_end_keep_every_card_and_replay_to_the_same_hash() {
    bot_games(0, 200);
}

/// The long run: `cargo test -p hoard-rules --release --test spree_props -- --ignored`.
#[test]
#[ignore]
fn five_thousand_seeded_bot_games() {
    bot_games(1_000, 5_000);
}

#[test]
fn the_bot_beats_random_play_in_most_four_seat_games() {
    let games = 40;
    let mut wins = 0;
    for n in 0..games {
        let c = config(4, n % 2 == 1, false);
        let bot_seat = (n % 4) as u8;
        let g = play_with(
            &c,
            500 + n,
            60_000,
            &mut *play::bot_against_random::<Spree>(bot_seat),
        );
        if g.outcome
            .as_ref()
            .is_some_and(|o| o.winners == vec![bot_seat])
        {
            wins += 1;
        }
    }
    println!("the bot won {wins} of {games}");
    assert!(wins * 100 >= games * 60, "the bot won {wins} of {games}");
}
