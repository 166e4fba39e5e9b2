//! Properties of whole SPAMMERS games: seeded bot games (2–6 seats) end (within a step cap
//! that the test counts and bounds), never lose or make a card in either deck, and replay to
//! the same state hash; the bot beats random play.

use hoard_rules::play::{self, Played};
use hoard_rules::spammers::cards::{action_deck, list_deck};
use hoard_rules::spammers::{Config, Phase, Public, Spammers};
use hoard_rules::{Game, public_hash};

const CAP: usize = 6_000;

fn seed(n: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&n.to_le_bytes());
    s
}

/// Every card of both decks in exactly one place.
fn assert_cards_kept(p: &Public) {
    let mut lists: Vec<u16> = p.masses.iter().flat_map(|s| s.cards.clone()).collect();
    lists.extend(
        p.areas
            .iter()
            .flat_map(|a| a.lists.iter().flat_map(|s| s.cards.clone())),
    );
    lists.extend(&p.list_discard);
    if let Phase::ListDrawn { card, .. } = &p.phase {
        lists.push(*card);
    }
    let held_lists = p
        .areas
        .iter()
        .flat_map(|a| &a.hand)
        .filter(|h| h.deck == 0)
        .count();
    let mut sorted = lists.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), lists.len(), "a List is in two places");
    assert_eq!(lists.len() + held_lists + p.lists.left(), list_deck().len());

    let mut actions: Vec<u16> = p
        .areas
        .iter()
        .flat_map(|a| a.scams.iter().map(|s| s.card))
        .collect();
    actions.extend(p.areas.iter().flat_map(|a| a.hardware.clone()));
    actions.extend(&p.action_discard);
    match &p.phase {
        Phase::Rolling { mailing, .. } | Phase::Window { mailing, .. } => {
            actions.push(mailing.card)
        }
        _ => {}
    }
    let held = p
        .areas
        .iter()
        .flat_map(|a| &a.hand)
        .filter(|h| h.deck == 1)
        .count();
    let mut sorted = actions.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), actions.len(), "an Action is in two places");
    assert_eq!(actions.len() + held + p.actions.left(), action_deck().len());
}

fn game(seats: u8, n: u64, policy: &mut play::Policy<'_, Spammers>) -> Played<Spammers> {
    let secrets: Vec<[u8; 32]> = (0..seats).map(|s| [s; 32]).collect();
    let mut started = false;
    play::play_out_with::<Spammers>(
        &Config {
            seats,
            window_ms: 1_000,
        },
        &secrets,
        &seed(n),
        CAP,
        policy,
        &mut |p, _, _| {
            started |= p.actions.generation.is_some();
            if started {
                assert_cards_kept(p);
            }
        },
    )
    .expect("the bots play legal moves")
}

fn bot_games(first: u64, games: u64) {
    let mut capped = 0;
    for n in first..first + games {
        let seats = 2 + (n % 5) as u8;
        let g = game(seats, n, &mut Spammers::bot_input);
        if g.outcome.is_none() {
            capped += 1;
        }
        let config = Config {
            seats,
            window_ms: 1_000,
        };
        let (replayed, _) = play::replay::<Spammers>(
            &config,
            vec![None; usize::from(seats)],
            &g.steps,
            &g.dealer,
            &mut |_, _, _| {},
        )
        .expect("the steps replay");
        assert_eq!(public_hash(&replayed), public_hash(&g.public), "game {n}");
    }
    // A game of SPAMMERS can drag on; a bot game past the cap must stay rare.
    assert!(
        capped * 50 <= games,
        "{capped} of {games} games passed {CAP} steps"
    );
}

#[test]
fn five_hundred_seeded_bot_games_end_keep_every_card_and_replay_to_the_same_hash() {
    bot_games(0, 500);
}

/// The long run: `cargo test -p hoard-rules --release --test spammers_props -- --ignored`.
#[test]
#[ignore]
fn five_thousand_seeded_bot_games() {
    bot_games(10_000, 5_000);
}

#[test]
fn the_bot_beats_random_play_in_most_three_seat_games() {
    let games = 45;
    let mut wins = 0;
    for n in 0..games {
        let bot_seat = (n % 3) as u8;
        let g = game(
            3,
            700 + n,
            &mut *play::bot_against_random::<Spammers>(bot_seat),
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
