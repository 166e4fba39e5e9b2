//! Properties of whole Freeloader games: seeded bot games (3–6 seats) always end, never lose
//! or make a card, never take a favor below zero, keep every special space covered by its
//! holder's favors, and replay to the same state hash; the bot beats random play.

use hoard_rules::freeloader::{Config, Freeloader, Held, Public};
use hoard_rules::play::{self, Played};
use hoard_rules::{Game, public_hash};

fn seed(n: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&n.to_le_bytes());
    s
}

/// Every card in exactly one place: the deck, a hand, someone's Stuff, beside a house, or
/// out of the game.
fn assert_cards_kept(p: &Public) {
    let mut seen: Vec<u16> = Vec::new();
    let hidden = p.deck.left()
        + p.hands
            .iter()
            .flatten()
            .filter(|h| matches!(h, Held::Hidden(_)))
            .count();
    for h in p.hands.iter().flatten() {
        if let Held::Open(c) = h {
            seen.push(*c);
        }
    }
    seen.extend(p.stuff.iter().flatten());
    seen.extend(p.houses.iter().filter_map(|h| h.face_up));
    seen.extend(p.out.iter());
    let mut unique = seen.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(
        unique.len(),
        seen.len(),
        "a card is in two places: {seen:?}"
    );
    assert_eq!(hidden + seen.len(), 54, "a card was lost or made");
    for h in &p.houses {
        for seat in 0..p.config.seats {
            let markers = h
                .best_friends
                .iter()
                .chain(&h.crash)
                .filter(|s| **s == Some(seat))
                .count();
            assert!(usize::from(h.favors[usize::from(seat)]) >= markers, "{h:?}");
        }
    }
}

fn game(seats: u8, n: u64, policy: &mut play::Policy<'_, Freeloader>) -> Played<Freeloader> {
    let secrets: Vec<[u8; 32]> = (0..seats).map(|s| [s; 32]).collect();
    let mut started = false;
    play::play_out_with::<Freeloader>(
        &Config { seats },
        &secrets,
        &seed(n),
        20_000,
        policy,
        &mut |p, _, _| {
            started |= p.houses.iter().any(|h| h.face_up.is_some());
            if started {
                assert_cards_kept(p);
            }
        },
    )
    .expect("the bots play legal moves")
}

fn bot_games(first: u64, games: u64) {
    for n in first..first + games {
        let seats = 3 + (n % 4) as u8;
        let g = game(seats, n, &mut Freeloader::bot_input);
        let outcome = g.outcome.as_ref().expect("every game ends");
        assert_eq!(outcome.scores.len(), usize::from(seats));
        let config = Config { seats };
        let (replayed, _) = play::replay::<Freeloader>(
            &config,
            vec![None; usize::from(seats)],
            &g.steps,
            &g.dealer,
            &mut |_, _, _| {},
        )
        .expect("the steps replay");
        assert_eq!(public_hash(&replayed), public_hash(&g.public), "game {n}");
    }
}

#[test]
fn a_thousand_seeded_bot_games_end_keep_every_card_and_replay_to_the_same_hash() {
    bot_games(0, 1_000);
}

/// The long run: `cargo test -p hoard-rules --release --test freeloader_props -- --ignored`.
#[test]
#[ignore]
fn five_thousand_seeded_bot_games() {
    bot_games(10_000, 5_000);
}

#[test]
fn the_bot_beats_random_play_in_most_four_seat_games() {
    let games = 60;
    let mut wins = 0;
    for n in 0..games {
        let bot_seat = (n % 4) as u8;
        let g = game(
            4,
            700 + n,
            &mut *play::bot_against_random::<Freeloader>(bot_seat),
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
