//! Whole GreedQuest games played by bots, thousands of them over every seat count and
//! variant: each ends (or reaches the stated cap), never panics, replays to the same public
//! hash at every step, keeps each seat's 28 cards accounted for, and reaches the same public
//! table on a device holding one private side as at the audit holding all of them. And the
//! bot beats random play.

use hoard_rules::greedquest::{Attrition, Config, GreedQuest, Length, Private, random_input};
use hoard_rules::play::{Played, play_out, play_out_with, replay};
use hoard_rules::{Game, Seat, public_hash};

/// Steps allowed per game: the stated cap. Ended bot games take at most a few hundred steps;
/// the only games that reach the cap are Survival of the Fittest's Room 9 lock (see
/// `survival_room_9_lone_dragon_attack_locks_the_game` in greedquest_rules.rs).
const STEP_CAP: usize = 4_000;

fn config_for(game: u32) -> Config {
    Config {
        seats: 2 + (game % 5) as u8,
        length: [Length::Full, Length::Short, Length::Shortest][(game / 5 % 3) as usize],
        this_is_my_room: game / 15 % 2 == 1,
        attrition: [Attrition::None, Attrition::Survival, Attrition::Uniqueness]
            [(game / 30 % 3) as usize],
    }
}

fn secrets(game: u32, seats: u8) -> Vec<[u8; 32]> {
    (0..seats)
        .map(|s| *blake3::hash(format!("secret {game} {s}").as_bytes()).as_bytes())
        .collect()
}

fn seed(game: u32) -> [u8; 32] {
    *blake3::hash(format!("game {game}").as_bytes()).as_bytes()
}

fn privates(config: &Config, secrets: &[[u8; 32]], only: Option<Seat>) -> Vec<Option<Private>> {
    secrets
        .iter()
        .enumerate()
        .map(|(s, secret)| {
            let seat = s as Seat;
            (only.is_none_or(|o| o == seat)).then(|| GreedQuest::private(config, seat, *secret))
        })
        .collect()
}

/// How many games the property run plays (`GREEDQUEST_GAMES` overrides the default).
fn game_count() -> u32 {
    std::env::var("GREEDQUEST_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000)
}

#[test]
fn thousands_of_bot_games_end_replay_identically_and_account_for_every_card() {
    let games = game_count();
    let mut ended = 0;
    let mut steps_total = 0usize;
    let mut longest = 0;
    for game in 0..games {
        let config = config_for(game);
        let secrets = secrets(game, config.seats);
        let mut hashes = Vec::new();
        let played: Played<GreedQuest> = play_out_with::<GreedQuest>(
            &config,
            &secrets,
            &seed(game),
            STEP_CAP,
            &mut GreedQuest::bot_input,
            &mut |public, _, events| {
                hashes.push(public_hash(public));
                if game < 200 {
                    let name = |s: Seat| format!("Player {s}");
                    for event in events {
                        assert!(!GreedQuest::narrate(event, &name).is_empty());
                    }
                }
            },
        )
        .unwrap_or_else(|e| panic!("game {game} ({config:?}): {e}"));
        if played.outcome.is_some() {
            ended += 1;
            longest = longest.max(played.steps.len());
        } else {
            // Only the known lock may stall: a Survival seat in Room 9 cycling one card.
            let locked = config.attrition == Attrition::Survival
                && played
                    .public
                    .seats
                    .iter()
                    .any(|v| v.room == 9 && v.drawable() <= 1);
            assert!(
                locked,
                "game {game} ({config:?}) stalled: {:?}",
                played.public.seats
            );
        }
        steps_total += played.steps.len();

        // The audit: every private side present, every step replayed and checked.
        let mut step = 0;
        let (audit, _) = replay::<GreedQuest>(
            &config,
            privates(&config, &secrets, None),
            &played.steps,
            &played.dealer,
            &mut |public, privates, _| {
                assert_eq!(
                    public_hash(public),
                    hashes[step],
                    "game {game}: step {step} replays differently"
                );
                for private in privates.iter().flatten() {
                    if let Err(why) = private.check_against(public) {
                        panic!("game {game} step {step}: {why}");
                    }
                }
                step += 1;
            },
        )
        .unwrap_or_else(|e| panic!("game {game}: the audit refused step {step}: {e}"));
        assert_eq!(audit, played.public);

        // One device: only its own private side; Room 11 choices of others arrive closed.
        let mine = (game % u32::from(config.seats)) as Seat;
        let mut step = 0;
        let (device, own) = replay::<GreedQuest>(
            &config,
            privates(&config, &secrets, Some(mine)),
            &played.steps,
            &played.dealer,
            &mut |public, _, _| {
                assert_eq!(
                    public_hash(public),
                    hashes[step],
                    "game {game}: seat {mine}'s device diverges at step {step}"
                );
                step += 1;
            },
        )
        .unwrap_or_else(|e| panic!("game {game}: seat {mine}'s device refused step {step}: {e}"));
        assert_eq!(device, played.public);
        assert_eq!(own[usize::from(mine)], played.privates[usize::from(mine)]);
    }
    println!(
        "{games} games: {ended} ended (the longest in {longest} steps), {} reached the {STEP_CAP}-step cap; \
         {steps_total} steps in all",
        games - ended
    );
    assert!(
        ended * 100 >= games * 99,
        "only {ended} of {games} games ended"
    );
}

#[test]
fn the_bot_beats_random_play_in_three_seat_games() {
    const GAMES: u32 = 300;
    let config = Config::new(3);
    let mut wins = 0;
    for game in 0..GAMES {
        let bot_seat = (game % 3) as Seat;
        let secrets = secrets(10_000 + game, 3);
        let played = play_out_with::<GreedQuest>(
            &config,
            &secrets,
            &seed(10_000 + game),
            STEP_CAP,
            &mut |public, private, seat, rng| {
                if seat == bot_seat {
                    GreedQuest::bot_input(public, private, seat, rng)
                } else {
                    random_input(public, private, seat, rng)
                }
            },
            &mut |_, _, _| {},
        )
        .unwrap_or_else(|e| panic!("game {game}: {e}"));
        if played
            .outcome
            .is_some_and(|o| o.winners.contains(&bot_seat))
        {
            wins += 1;
        }
    }
    let rate = wins * 100 / GAMES;
    println!("the bot won {wins} of {GAMES} three-seat games against two random players ({rate}%)");
    assert!(rate >= 60, "the bot won only {rate}% against random play");
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let config = Config {
        this_is_my_room: true,
        ..Config::new(4)
    };
    let secrets = secrets(7, 4);
    let a: Played<GreedQuest> = play_out(&config, &secrets, &seed(7), STEP_CAP).expect("game");
    let b: Played<GreedQuest> = play_out(&config, &secrets, &seed(7), STEP_CAP).expect("game");
    assert_eq!(a.steps, b.steps);
    assert_eq!(public_hash(&a.public), public_hash(&b.public));
    let c: Played<GreedQuest> = play_out(&config, &secrets, &seed(8), STEP_CAP).expect("game");
    assert_ne!(a.steps, c.steps, "another beacon, another game");
}
