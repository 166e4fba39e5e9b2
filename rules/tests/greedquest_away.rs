//! GreedQuest with a seat that is away: what the table's vote puts in the step of a seat it
//! skips (`Input::SitOut`) or removes (`Input::Leave`), at every kind of step that can wait
//! on a seat. DESIGN.md: "when the table agrees, the away seat is skipped (plays nothing, as
//! a player who sits out) or removed".

use hoard_rules::greedquest::{Card, Config, Facing, GreedQuest, Input, Position, Stage};
use hoard_rules::{Game, Pending, Play, RuleError, Seal, Seat, Step, public_hash, rng};

use crate::greedquest_support;

/// The players, by seat, as the narration names them.
const NAMES: [&str; 4] = ["A", "B", "C", "D"];

use Card::*;
use Facing::{In, Out};
use greedquest_support::{Table, even_chance_duel, with};

#[test]
fn an_away_seat_lays_no_card_and_the_turn_goes_on_without_it() {
    // "each player selects a card from his hand and lays it face-down on the table": a
    // player the table goes on without lays none, and keeps the hand it had.
    let pos = Position::new(Config::new(3))
        .hand(0, &with(Go8))
        .hand(1, &with(Go6))
        .hand(2, &with(Go5));
    let mut t = Table::new(pos, &NAMES);
    let hand = t.private(0).hand;
    t.give(&[
        (0, Input::SitOut),
        (1, Input::Card(Go6)),
        (2, Input::Card(Go5)),
    ]);
    assert_eq!((t.room(0), t.room(1), t.room(2)), (1, 2, 1), "Go! 6 wins");
    assert_eq!(t.private(0).hand, hand, "the away seat's hand is untouched");
    assert_eq!(t.p.table[0].card, None);
    assert!(t.said("A is away: the table goes on without them."));
    assert!(matches!(t.p.stage, Stage::Play { .. }), "the next turn");
    assert!(t.p.left.is_empty(), "skipped, not removed");
}

#[test]
fn a_player_cannot_sit_out_by_choice_and_no_bot_or_button_offers_it() {
    // Only the table's vote goes on without a seat: a signed SitOut from the seat itself is
    // refused on receipt, like any move that is not allowed.
    let t = Table::new(Position::new(Config::new(3)), &NAMES);
    for input in [Input::SitOut, Input::Leave] {
        assert!(matches!(
            GreedQuest::check_input(&t.p, 0, &input),
            Err(RuleError::Illegal { seat: 0, .. })
        ));
        assert!(!GreedQuest::legal_inputs(&t.p, t.privates[0].as_ref(), 0).contains(&input));
        assert!(!GreedQuest::legal_inputs(&t.p, None, 0).contains(&input));
    }
    // Bots in many games never choose it.
    for seed in 0..20u64 {
        let played = hoard_rules::play::play_out::<GreedQuest>(
            &Config::new(4),
            &[[1; 32], [2; 32], [3; 32], [4; 32]],
            &[seed as u8; 32],
            3_000,
        )
        .expect("bots play legally");
        let chose = played.steps.iter().any(|s| {
            matches!(s, Step::Inputs(i) if i.iter().any(|(_, p)|
                matches!(p, Play::Open(Input::SitOut | Input::Leave))))
        });
        assert!(!chose, "seed {seed}: a bot sat out");
    }
}

#[test]
fn an_away_duelist_plays_nothing_and_loses_the_duel() {
    // "each player plays a face-down card from his hand, and the highest Go! card played
    // wins the duel." The Even Chance example: Cyndy and Wayne duel, Cyndy is away.
    let mut t = even_chance_duel(&NAMES);
    assert_eq!(
        t.pending(),
        Pending::Together {
            seats: vec![1, 2],
            seal: Seal::UntilAll
        }
    );
    let hand = t.private(1).hand;
    t.give(&[(1, Input::SitOut), (2, Input::Card(Go3))]);
    assert!(t.said("C wins the duel."));
    assert_eq!(t.pending(), Pending::Turn { seat: 2 }, "Wayne decides");
    assert_eq!(t.private(1).hand, hand, "the away duelist played nothing");

    // Both away: "If no players play a Go! card, then everyone loses" — Fade, who played
    // Even Chance, picks.
    let mut t = even_chance_duel(&NAMES);
    t.give(&[(1, Input::SitOut), (2, Input::SitOut)]);
    assert_eq!(t.pending(), Pending::Turn { seat: 0 });
}

#[test]
fn an_away_chooser_moves_nobody() {
    // "If there is no winner, then no one moves": a choice nobody made moves nobody. The
    // duel winner who should pick who trades places with Fade is away.
    let mut t = even_chance_duel(&NAMES);
    t.lay(&[(1, Go7), (2, Go3)]);
    assert_eq!(t.pending(), Pending::Turn { seat: 1 });
    t.give(&[(1, Input::SitOut)]);
    assert_eq!(
        (t.room(0), t.room(1), t.room(2)),
        (2, 5, 5),
        "nobody trades"
    );
    assert!(t.said("A's Even Chance does nothing: the table went on without a choice"));
    assert!(matches!(t.p.stage, Stage::Play { .. }), "the next turn");

    // "If there is more than one winning Go! card, you may choose which player to track":
    // an away tracker chooses nobody and stays put.
    let pos = Position::new(Config::new(3))
        .room(0, 5, In)
        .room(1, 2, In)
        .room(2, 10, In)
        .hand(0, &with(Tracking))
        .hand(1, &with(Go6))
        .hand(2, &with(Go6));
    let mut t = Table::new(pos, &NAMES);
    t.lay(&[(0, Tracking), (1, Go6), (2, Go6)]);
    assert_eq!(t.pending(), Pending::Turn { seat: 0 });
    t.give(&[(0, Input::SitOut)]);
    assert_eq!(t.room(0), 5);
    assert!(
        !matches!(t.p.stage, Stage::Track { .. }),
        "the turn went on past the choice"
    );
}

#[test]
fn an_away_go_wild_is_discarded_without_effect() {
    // "you don't have to declare what number it is until you've seen all the other cards!"
    // A Go WILD! whose player is away when its value is asked for is never valued.
    let pos = Position::new(Config::new(3))
        .hand(0, &with(Wild))
        .hand(1, &with(Go6))
        .hand(2, &with(Go3));
    let mut t = Table::new(pos, &NAMES);
    t.lay(&[(0, Wild), (1, Go6), (2, Go3)]);
    assert_eq!(t.pending(), Pending::Turn { seat: 0 });
    t.give(&[(0, Input::SitOut)]);
    assert_eq!((t.room(0), t.room(1)), (1, 2), "Go! 6 wins");
    assert!(t.said("A's Go WILD! does nothing: the table went on without a choice"));
}

#[test]
fn an_away_seat_keeps_its_room_11_card() {
    // Room 11: "it's the first one or nothing" — an away seat makes no choice, and keeps
    // the first card it drew, with its private side present (the audit's replay).
    let pos = Position::new(Config::new(2))
        .room(0, 11, In)
        .hand(0, &with(Go6))
        .deck_top(0, &[Meek, Go8, Curse])
        .hand(1, &with(Go7));
    let mut away = Table::new(pos.clone(), &NAMES);
    away.lay(&[(0, Go6), (1, Go7)]);
    assert_eq!(
        away.pending(),
        Pending::Together {
            seats: vec![0],
            seal: Seal::UntilAudit
        }
    );
    let mut kept = Table::new(pos, &NAMES);
    kept.lay(&[(0, Go6), (1, Go7)]);
    away.give(&[(0, Input::SitOut)]);
    kept.give(&[(0, Input::KeepDrawn)]);
    assert!(away.private(0).hand.contains(Meek));
    assert_eq!(away.private(0), kept.private(0));
    assert_eq!(public_hash(&away.p), public_hash(&kept.p));
}

#[test]
fn an_away_seat_in_room_9_lays_nothing_from_its_draw_pile() {
    // Room 9: "do not play from your hand after that point" — nor, away, from the deck.
    let pos = Position::new(Config::new(2))
        .room(0, 9, In)
        .hand(0, &with(Go1))
        .deck_top(0, &[Go7, SeeYa])
        .hand(1, &with(Go5));
    let mut t = Table::new(pos, &NAMES);
    t.give(&[(0, Input::SitOut), (1, Input::Card(Go5))]);
    assert_eq!(t.room(0), 9);
    assert_eq!(t.private(0).top(), Some(Go7), "the draw pile is untouched");
    assert_eq!(t.room(1), 2);
}

#[test]
fn a_removed_seat_leaves_the_race_and_is_never_asked_again() {
    // Seat 2 is one room from the Tavern on its way out when the table removes it: it
    // cannot win, is not waited for again, and the others race on to a winner.
    let pos = Position::new(Config::new(3))
        .room(0, 6, Out)
        .room(1, 8, Out)
        .room(2, 2, Out);
    let mut t = Table::new(pos, &NAMES);
    let lay = |t: &Table, seat: Seat| {
        let hand = &t.private(seat).hand;
        Input::Card(hand.cards().next().expect("a card"))
    };
    let (a, b) = (lay(&t, 0), lay(&t, 1));
    t.give(&[(0, a), (1, b), (2, Input::Leave)]);
    assert!(t.said("C has left the game."));
    assert_eq!(t.p.left.to_vec(), vec![2]);
    let mut rngs = [0u8, 1].map(|s| rng::from_seed(&[7; 32], &format!("seat {s}")));
    for _ in 0..5_000 {
        let seats = match t.pending() {
            Pending::Turn { seat } => vec![seat],
            Pending::Together { seats, .. } => seats,
            _ => break,
        };
        assert!(!seats.contains(&2), "a removed seat is waited for again");
        let inputs: Vec<(Seat, Input)> = seats
            .iter()
            .map(|s| {
                let rng = &mut rngs[usize::from(*s)];
                let i = GreedQuest::bot_input(&t.p, t.privates[usize::from(*s)].as_ref(), *s, rng);
                (*s, i.expect("a bot move"))
            })
            .collect();
        t.give(&inputs);
    }
    let Pending::Over(outcome) = t.pending() else {
        panic!("the game did not end: {:?}", t.p.stage);
    };
    assert!(!outcome.winners.is_empty());
    assert!(!outcome.winners.contains(&2), "{outcome:?}");
    assert_eq!(t.room(2), 2, "its piece stays where it was left");
}

#[test]
fn the_last_seat_still_in_wins_when_every_other_leaves() {
    // The others forfeited: the one still in the race wins at once.
    let mut t = Table::new(Position::new(Config::new(3)).hand(1, &with(Go6)), &NAMES);
    t.give(&[(0, Input::Leave), (1, Input::Card(Go6)), (2, Input::Leave)]);
    assert_eq!(
        t.pending(),
        Pending::Over(hoard_rules::Outcome {
            winners: vec![1],
            scores: vec![]
        })
    );
}
