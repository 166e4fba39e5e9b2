//! Every game goes on without a seat the table removed, from any step, and still ends: the
//! rules' own move for a removed seat ([`Game::sit_out`] with [`Absence::Removed`]) exists at
//! every step that asks for it, and applies. A table whose removal vote passed must never
//! wait on the seat it removed (DESIGN.md, "A seat that leaves"), whatever that seat was
//! asked: a trade from a hidden hand, its opening choice of Lists, an answer in a window.

use hoard_rules::play::{self, Played};
use hoard_rules::{Absence, Game, Listed, Seat, for_each_game};

/// Steps before every game ends, with bots at every seat still in (the longest game seen
/// here, SPAMMERS at six seats, ends well inside it).
const CAP: usize = 12_000;

fn seed(n: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&n.to_le_bytes());
    s
}

/// Plays `G` at `seats` with bots, removing `gone[i].0` from step `gone[i].1` on.
fn play_removing<G: Listed>(seats: u8, game: u64, gone: &[(Seat, usize)]) -> Played<G> {
    let config = G::config(seats);
    let secrets: Vec<[u8; 32]> = (0..seats)
        .map(|s| seed(game * 100 + u64::from(s)))
        .collect();
    let absent = |n: usize, seat: Seat| {
        gone.iter()
            .any(|(s, from)| *s == seat && n >= *from)
            .then_some(Absence::Removed)
    };
    play::play_out_absent::<G>(
        &config,
        &secrets,
        &seed(game),
        CAP,
        &mut G::bot_input,
        &mut |_, _, _| {},
        &absent,
    )
    .unwrap_or_else(|e| {
        panic!(
            "{} at {seats} seats, game {game}, removing {gone:?}: {e}",
            G::TITLE
        )
    })
}

/// One removal at a spread of steps (the opening, the middle, late) and two in a row, for
/// the fewest and the most seats: each game ends.
fn goes_on_without_removed_seats<G: Listed>() {
    let range = G::seat_range();
    for seats in [*range.start(), *range.end()] {
        for game in 0..6u64 {
            let first = (game % u64::from(seats)) as Seat;
            let from = [0, 3, 9, 25, 80, 200][game as usize];
            let played = play_removing::<G>(seats, game, &[(first, from)]);
            assert!(
                played.outcome.is_some(),
                "{} at {seats} seats, game {game}: no end in {CAP} steps with seat {first} \
                 removed from step {from}",
                G::TITLE
            );
            if seats >= 3 {
                let second = (first + 1) % seats;
                let gone = [(first, from), (second, from + 7)];
                let played = play_removing::<G>(seats, game, &gone);
                assert!(
                    played.outcome.is_some(),
                    "{} at {seats} seats, game {game}: no end with {gone:?} removed",
                    G::TITLE
                );
            }
        }
    }
}

macro_rules! removal_tests {
    ($($module:ident::$game:ident),* $(,)?) => {
        $(
            #[test]
            #[allow(non_snake_case)]
            fn $game() {
                goes_on_without_removed_seats::<hoard_rules::$module::$game>();
            }
        )*
    };
}

for_each_game!(removal_tests);

#[test]
fn the_removal_test_itself_fails_where_a_game_would_wait_on_a_removed_seat() {
    // A skipped seat may come back, so some steps wait for it: played as skipped from the
    // opening, a SPAMMERS seat stops the game at its choice of Lists, which only its player
    // can make. The same seat removed is not waited for (above).
    let result = std::panic::catch_unwind(|| {
        let config = <hoard_rules::spammers::Spammers as Listed>::config(3);
        let secrets: Vec<[u8; 32]> = (0..3).map(|s| seed(7 + s)).collect();
        play::play_out_absent::<hoard_rules::spammers::Spammers>(
            &config,
            &secrets,
            &seed(7),
            CAP,
            &mut hoard_rules::spammers::Spammers::bot_input,
            &mut |_, _, _| {},
            &|_, seat| (seat == 1).then_some(Absence::Skipped),
        )
    });
    let Err(err) = result.expect("no panic") else {
        panic!("the table waits on a skipped seat at the choice of Lists");
    };
    assert!(err.to_string().contains("cannot go on without it"), "{err}");
}
