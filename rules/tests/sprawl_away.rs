//! Sprawl with a seat that is away: what the table's vote puts in the step of a seat it
//! skips (`Input::SitOut`) or removes (`Input::Leave`), at every kind of step that can wait
//! on a seat. DESIGN.md: "when the table agrees, the away seat is skipped (plays nothing, as
//! a player who sits out) or removed".

use crate::sprawl_support;

use hoard_rules::sprawl::{Config, Event, Input, Phase, Public, Sprawl};
use hoard_rules::{Game, Pending, Play, RuleError, Seat, Step, rng};
use sprawl_support::*;

/// Three seats, each with a tower to grow from (seat 1's has one piece of each size);
/// seat 0 to move.
fn three_towers() -> Public {
    let mut p = arranged(Config::new(3));
    tower(&mut p, "A1", 0, &[3]);
    tower(&mut p, "C3", 1, &[3, 2, 1]);
    tower(&mut p, "E6", 2, &[3]);
    p
}

#[test]
fn an_away_seat_passes_its_turn() {
    // "On your turn, you can Build ..., Branch ..., or Spore": a player the table goes on
    // without does none of them, and the turn passes to the next seat.
    let mut p = three_towers();
    let (board, stashes) = (p.board.clone(), p.stashes.clone());
    let events = try_move(&mut p, 0, Input::SitOut).unwrap();
    assert_eq!(events, vec![Event::SatOut { seat: 0 }]);
    assert_eq!(Sprawl::pending(&p), Pending::Turn { seat: 1 });
    assert_eq!((p.board, p.stashes), (board, stashes), "nothing moved");
    assert!(p.left.is_empty(), "skipped, not removed");
}

#[test]
fn a_player_cannot_sit_out_by_choice_and_no_bot_or_button_offers_it() {
    // Only the table's vote goes on without a seat: sent by the seat itself, it is refused
    // on receipt like any move that is not allowed.
    let p = three_towers();
    for input in [Input::SitOut, Input::Leave] {
        assert!(matches!(
            Sprawl::check_input(&p, 0, &input),
            Err(RuleError::Illegal { seat: 0, .. })
        ));
        assert!(!Sprawl::legal_inputs(&p, None, 0).contains(&input));
    }
    let mut p = coup_table();
    try_move(&mut p, 0, spore("D3", 3)).unwrap();
    assert!(Sprawl::check_input(&p, 1, &Input::SitOut).is_err());
    assert!(!Sprawl::legal_inputs(&p, None, 1).contains(&Input::SitOut));
    for seed in 0..6 {
        let mut config = Config::new(4);
        config.counting_coup = true;
        let played =
            hoard_rules::play::play_out::<Sprawl>(&config, &[[0; 32]; 4], &[seed; 32], 2_000)
                .expect("bots play legally");
        let chose = played.steps.iter().any(|s| {
            matches!(s, Step::Inputs(i) if i.iter().any(|(_, p)|
                matches!(p, Play::Open(Input::SitOut | Input::Leave))))
        });
        assert!(!chose, "seed {seed}: a bot sat out");
    }
}

#[test]
fn an_away_seat_asked_are_you_sure_says_nothing() {
    // Counting Coup: "you can say, 'Are you sure you want to do that?'" — an away player
    // says nothing, and the spore stands.
    let mut p = coup_table();
    try_move(&mut p, 0, spore("D3", 3)).unwrap();
    let events = answer(&mut p, &[(1, Input::SitOut)]);
    assert_eq!(events, vec![Event::SatOut { seat: 1 }]);
    assert!(p.board.tower(sq("D3")).is_some());
    assert_eq!(Sprawl::pending(&p), Pending::Turn { seat: 1 });
}

#[test]
fn an_away_sporer_keeps_its_spore() {
    // "That player may take back the move and make a different move": an away sporer makes
    // no other move, so the spore stands and no card is earned.
    let mut p = coup_table();
    try_move(&mut p, 0, spore("D3", 3)).unwrap();
    answer(&mut p, &[(1, Input::Ask)]);
    assert!(matches!(p.phase, Phase::Decide { .. }));
    let events = try_move(&mut p, 0, Input::SitOut).unwrap();
    assert_eq!(
        events,
        vec![
            Event::SatOut { seat: 0 },
            Event::Kept {
                seat: 0,
                at: sq("D3")
            }
        ]
    );
    assert!(p.board.tower(sq("D3")).is_some());
    assert!(p.coup_owed.is_empty());
    assert_eq!(Sprawl::pending(&p), Pending::Turn { seat: 1 });
}

/// Bots play every seat still in until the game is over; no removed seat is ever awaited.
fn play_on(p: &mut Public, seed: u8) {
    let mut r = rng::from_seed(&[seed; 32], "away bots");
    for k in 0..5_000u64 {
        let seats = match Sprawl::pending(p) {
            Pending::Turn { seat } => vec![seat],
            Pending::Together { seats, .. } => seats,
            Pending::Chance => {
                Sprawl::apply(p, &mut [], &Step::Chance([k as u8; 32])).unwrap();
                continue;
            }
            Pending::Over(_) => return,
            other => panic!("Sprawl has no shared deck, yet waits for {other:?}"),
        };
        for s in &seats {
            assert!(!p.left.contains(s), "removed seat {s} was asked to move");
        }
        let inputs: Vec<(Seat, Play<Input>)> = seats
            .iter()
            .map(|s| {
                let i = Sprawl::bot_input(p, None, *s, &mut r).expect("a bot move");
                (*s, Play::Open(i))
            })
            .collect();
        Sprawl::apply(p, &mut [], &Step::Inputs(inputs)).unwrap();
    }
    panic!("the game did not end");
}

#[test]
fn a_removed_seat_gets_no_more_turns_its_pieces_stay_and_it_cannot_win() {
    // "If you have the least points in your stash at the end of the game, then you win" —
    // among the players still in. Seat 1 has placed every piece (its tower has one of each
    // size, so it cannot be neutralized) when the table removes it.
    let mut p = three_towers();
    p.stashes[1].counts = [0, 0, 0];
    turn_of(&mut p, 1);
    let events = try_move(&mut p, 1, Input::Leave).unwrap();
    assert_eq!(events, vec![Event::Left { seat: 1 }]);
    assert_eq!(p.left, vec![1]);
    assert_eq!(Sprawl::pending(&p), Pending::Turn { seat: 2 });
    assert!(p.board.tower(sq("C3")).is_some(), "its tower stays");
    play_on(&mut p, 5);
    let Pending::Over(outcome) = Sprawl::pending(&p) else {
        unreachable!()
    };
    assert!(!outcome.winners.is_empty());
    assert!(!outcome.winners.contains(&1), "{outcome:?}");
    let best = outcome.scores.iter().min().copied();
    assert_eq!(outcome.scores.get(1).copied(), best, "seat 1 scored lowest");
}

#[test]
fn the_last_seat_still_in_wins_when_every_other_leaves() {
    // The others forfeited: the game ends and the one still in wins.
    let mut p = three_towers();
    try_move(&mut p, 0, Input::Leave).unwrap();
    assert_eq!(Sprawl::pending(&p), Pending::Turn { seat: 1 });
    let events = try_move(&mut p, 1, Input::Leave).unwrap();
    assert!(events.contains(&Event::LastOneIn { seat: 2 }), "{events:?}");
    let Pending::Over(outcome) = Sprawl::pending(&p) else {
        panic!("not over: {:?}", p.phase)
    };
    assert_eq!(outcome.winners, vec![2]);
}
