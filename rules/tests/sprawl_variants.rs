//! Sprawl's optional rules — Counting Coup, Sprawlgami, Overload, Superior Forces (Loose
//! Branching is with the branching rules) — and the game log's wording.

use crate::sprawl_support;

use hoard_rules::sprawl::{Card, Config, Dir, Event, Input, Public, SporeMade, Sprawl, narrate};
use hoard_rules::{Game, Pending, Play, Seal, Step, rng};
use sprawl_support::*;

// ---- Counting Coup ----------------------------------------------------------------------

#[test]
fn coup_an_opponent_who_could_neutralize_a_spore_may_ask_are_you_sure() {
    // Counting Coup: "If a player spores a tower that you could neutralize on your next
    // turn, you can say, 'Are you sure you want to do that?'"
    let mut p = coup_table();
    let events = try_move(&mut p, 0, spore("D3", 3)).unwrap();
    assert_eq!(
        events[1],
        Event::CoupOffered {
            sporer: 0,
            at: sq("D3"),
            seats: vec![1]
        }
    );
    assert_eq!(
        Sprawl::pending(&p),
        Pending::Together {
            seats: vec![1],
            seal: Seal::Open
        }
    );
    assert_eq!(
        Sprawl::legal_inputs(&p, None, 1),
        vec![Input::Ask, Input::Pass]
    );
    assert!(Sprawl::legal_inputs(&p, None, 2).is_empty());
    assert!(Sprawl::check_input(&p, 2, &Input::Ask).is_err());
    // Nobody asks: play goes on.
    let events = answer(&mut p, &[(1, Input::Pass)]);
    assert_eq!(events, vec![Event::Passed { seat: 1 }]);
    assert_eq!(Sprawl::pending(&p), Pending::Turn { seat: 1 });
}

#[test]
fn coup_a_taken_back_spore_earns_the_asker_a_card_and_the_sporer_moves_again() {
    // "That player may take back the move and make a different move. If he or she
    // chooses to do this, then you get a card from the deck."
    let mut p = coup_table();
    try_move(&mut p, 0, spore("D3", 3)).unwrap();
    let events = answer(&mut p, &[(1, Input::Ask)]);
    assert_eq!(events, vec![Event::Asked { seat: 1, sporer: 0 }]);
    assert_eq!(Sprawl::pending(&p), Pending::Turn { seat: 0 });
    assert_eq!(
        Sprawl::legal_inputs(&p, None, 0),
        vec![Input::TakeBack, Input::Keep]
    );
    let before = p.stash(0);
    let events = Sprawl::apply(&mut p, &mut [], &Step::turn(0, Input::TakeBack)).unwrap();
    assert_eq!(
        events,
        vec![Event::TookBack {
            seat: 0,
            at: sq("D3"),
            card_to: 1
        }]
    );
    assert!(p.board.is_vacant(sq("D3")));
    assert_eq!(p.stash(0).count(3), before.count(3) + 1);
    assert_eq!(p.coup_owed, vec![1]);
    // "make a different move": not the same one again this turn.
    assert_eq!(Sprawl::pending(&p), Pending::Turn { seat: 0 });
    assert!(!Sprawl::legal_inputs(&p, None, 0).contains(&spore("D3", 3)));
    let err = try_move(&mut p, 0, spore("D3", 3)).unwrap_err();
    assert!(err.contains("taken back"), "{err}");
    // A different spore is a different move (and may be asked about again).
    try_move(&mut p, 0, spore("D3", 2)).unwrap();
    answer(&mut p, &[(1, Input::Pass)]);
    assert!(p.taken_back.is_empty(), "the next turn starts afresh");
}

#[test]
fn coup_the_sporer_may_keep_the_spore() {
    // "That player may take back the move" — or not.
    let mut p = coup_table();
    try_move(&mut p, 0, spore("D3", 3)).unwrap();
    answer(&mut p, &[(1, Input::Ask)]);
    let events = Sprawl::apply(&mut p, &mut [], &Step::turn(0, Input::Keep)).unwrap();
    assert_eq!(
        events,
        vec![Event::Kept {
            seat: 0,
            at: sq("D3")
        }]
    );
    assert!(p.board.tower(sq("D3")).is_some());
    assert!(p.coup_owed.is_empty());
    assert_eq!(Sprawl::pending(&p), Pending::Turn { seat: 1 });
}

#[test]
fn coup_when_several_ask_the_card_goes_to_the_first_asker_after_the_sporer() {
    // Reconstructed: the asker whose turn comes soonest earns the card.
    let mut p = coup_table();
    tower(&mut p, "D1", 2, &[3]); // seat 2 can branch to D2 and point south at D3
    try_move(&mut p, 0, spore("D3", 3)).unwrap();
    assert_eq!(
        Sprawl::pending(&p),
        Pending::Together {
            seats: vec![1, 2],
            seal: Seal::Open
        }
    );
    answer(&mut p, &[(1, Input::Pass), (2, Input::Ask)]);
    Sprawl::apply(&mut p, &mut [], &Step::turn(0, Input::TakeBack)).unwrap();
    assert_eq!(p.coup_owed, vec![2]);
    try_move(&mut p, 0, spore("D3", 2)).unwrap();
    answer(&mut p, &[(1, Input::Ask), (2, Input::Ask)]);
    Sprawl::apply(&mut p, &mut [], &Step::turn(0, Input::TakeBack)).unwrap();
    assert_eq!(p.coup_owed, vec![2, 1]);
}

#[test]
fn coup_no_offer_without_the_variant_or_for_a_safe_spore() {
    let mut p = coup_table();
    p.config.counting_coup = false;
    try_move(&mut p, 0, spore("D3", 3)).unwrap();
    assert_eq!(Sprawl::pending(&p), Pending::Turn { seat: 1 });

    // A spore nobody can reach with a branch next turn.
    let mut p = coup_table();
    p.board.clear(sq("D5"));
    tower(&mut p, "E6", 1, &[3]);
    try_move(&mut p, 0, spore("D3", 3)).unwrap();
    assert_eq!(Sprawl::pending(&p), Pending::Turn { seat: 1 });
}

#[test]
fn coup_no_offer_when_the_sporer_would_have_no_other_move() {
    // "take back the move and make a different move": with no other move, nothing to ask.
    let mut config = Config::new(3);
    config.counting_coup = true;
    let mut p = arranged(config);
    tower(&mut p, "A1", 0, &[3, 2, 1]);
    lay(&mut p, 0, "A1", "B1", Dir::East, 3); // targets E1
    tower(&mut p, "A2", 2, &[1]); // blocks the tower's only other side
    tower(&mut p, "E3", 1, &[3]); // could branch to E2 and point north at E1
    p.stashes[0].counts = [0, 0, 1];
    assert_eq!(legal_for(&mut p, 0), vec![spore("E1", 3)]);
    try_move(&mut p, 0, spore("E1", 3)).unwrap();
    assert_eq!(Sprawl::pending(&p), Pending::Turn { seat: 1 });
}

#[test]
fn coup_cards_stay_face_down_until_the_end_then_count_minus_one_or_two() {
    // "Do not look at it; keep it face down in front of you until the end of the game.
    // When tallying points at the end of the game, look at the cards you have. Subtract
    // one from your score for every Ace through 10 you have. Subtract two from your score
    // for every Jack, Queen, and King you have."
    let mut p = coup_table();
    try_move(&mut p, 0, spore("D3", 3)).unwrap();
    answer(&mut p, &[(1, Input::Ask)]);
    Sprawl::apply(&mut p, &mut [], &Step::turn(0, Input::TakeBack)).unwrap();
    try_move(&mut p, 0, build("A3")).unwrap();
    assert!(p.coup_cards.is_empty(), "no card exists before the end");
    // Seat 2 has nothing left: after seat 1's move the game ends.
    p.stashes[2].counts = [0, 0, 0];
    let events = try_move(&mut p, 1, branch("D5", "C5", Dir::West, 3)).unwrap();
    assert_eq!(events.last(), Some(&Event::NoMoves { seat: 2 }));
    assert_eq!(Sprawl::pending(&p), Pending::Chance);
    let d = draw(42, 1);
    let events = Sprawl::apply(&mut p, &mut [], &Step::Chance(d)).unwrap();
    let mut deck = Card::deck();
    rng::shuffle(&mut rng::from_seed(&d, "coup deck"), &mut deck);
    assert_eq!(
        events[0],
        Event::CardsDealt {
            cards: vec![(1, deck[0])]
        }
    );
    let Pending::Over(outcome) = Sprawl::pending(&p) else {
        panic!("not over")
    };
    // Seat 1 placed a 3 tower and a 3 branch: 24 in the stash, less the card.
    assert_eq!(outcome.scores[1], 24 - deck[0].worth());
    assert_eq!(Card(0).worth(), 1); // ace
    assert_eq!(Card(9).worth(), 1); // ten
    assert_eq!(Card(10).worth(), 2); // jack
    assert_eq!(Card(51).worth(), 2); // king
    assert_eq!(Card(10).to_string(), "J♣");
}

#[test]
fn coup_answers_must_come_from_exactly_the_seats_asked() {
    let mut p = coup_table();
    try_move(&mut p, 0, spore("D3", 3)).unwrap();
    let before = p.clone();
    for bad in [
        Step::Inputs(vec![(2, Play::Open(Input::Ask))]),
        Step::Inputs(vec![(1, Play::Open(Input::Keep))]),
        Step::Inputs(vec![(1, Play::Closed)]),
        Step::Chance([0; 32]),
    ] {
        assert!(Sprawl::apply(&mut p, &mut [], &bad).is_err(), "{bad:?}");
        assert_eq!(p, before, "a refused step changes nothing");
    }
    let spore_made = SporeMade {
        at: sq("D3"),
        size: 3,
        builds: 0,
    };
    assert!(
        matches!(p.phase, hoard_rules::sprawl::Phase::Offer { spore, .. } if spore == spore_made)
    );
}

// ---- Sprawlgami -------------------------------------------------------------------------

/// Seat 0's 2 at B3 targets D3, where seat 1 has a lone 3; seat 1 also has a 3 at E6.
fn gami_table(on: bool) -> Public {
    let mut config = Config::new(3);
    config.sprawlgami = on;
    let mut p = arranged(config);
    tower(&mut p, "A3", 0, &[3]);
    lay(&mut p, 0, "A3", "B3", Dir::East, 2);
    tower(&mut p, "D3", 1, &[3]);
    tower(&mut p, "E6", 1, &[3]);
    tower(&mut p, "A6", 2, &[3]);
    p
}

#[test]
fn sprawlgami_build_on_an_opponents_tower_you_target_and_control_it() {
    // Sprawlgami: "You may build on an opponent's tower that is targeted by a branch point
    // you control. Towers are controled by the player who controls the top piece on the
    // tower."
    let mut p = gami_table(true);
    assert!(legal_for(&mut p, 0).contains(&build("D3")));
    let events = try_move(&mut p, 0, build("D3")).unwrap();
    assert_eq!(
        events[0],
        Event::Built {
            seat: 0,
            at: sq("D3"),
            size: 2,
            taken_from: Some(1)
        }
    );
    assert_eq!(p.controller(sq("D3")), Some(0));
    // Now it is seat 0's tower to branch off, and no longer seat 1's to build on.
    let moves = legal_for(&mut p, 0);
    assert!(
        moves
            .iter()
            .any(|m| matches!(m, Input::Branch { from, .. } if *from == sq("D3")))
    );
    assert!(!legal_for(&mut p, 1).contains(&build("D3")));
    // A tower not targeted stays out of reach.
    turn_of(&mut p, 0);
    let err = try_move(&mut p, 0, build("E6")).unwrap_err();
    assert!(err.contains("targets it"), "{err}");
}

#[test]
fn without_sprawlgami_an_opponents_tower_is_not_yours_to_build_on() {
    // "To build, cap a tower you control".
    let mut p = gami_table(false);
    assert!(!legal_for(&mut p, 0).contains(&build("D3")));
    let err = try_move(&mut p, 0, build("D3")).unwrap_err();
    assert!(err.contains("not yours"), "{err}");
}

// ---- Overload ---------------------------------------------------------------------------

/// On 6×6 (Loose Branching, for the third branch): seat 0's 2s at B3 (east), D5 (north)
/// and D1 (south, off E1) all target D3.
fn overload_table(on: bool) -> Public {
    let mut config = Config::new(4);
    config.overload = on;
    config.loose_branching = true;
    let mut p = arranged(config);
    tower(&mut p, "A3", 0, &[3]);
    lay(&mut p, 0, "A3", "B3", Dir::East, 2);
    tower(&mut p, "D6", 0, &[3]);
    lay(&mut p, 0, "D6", "D5", Dir::North, 2);
    tower(&mut p, "E1", 0, &[3]);
    lay(&mut p, 0, "E1", "D1", Dir::South, 2);
    tower(&mut p, "F6", 1, &[3]);
    p
}

fn spore_with(at: &str, size: u8, builds: u8) -> Input {
    Input::Spore {
        at: sq(at),
        size,
        builds,
    }
}

#[test]
fn overload_three_pieces_targeting_a_space_spore_a_complete_tower() {
    // Overload: "When you take a Sporing action, you may start a tower in the space you're
    // targeting, then take a build action for each extra piece you have that targets that
    // space. If you have three pieces targeting a space, then you can spore a complete
    // tower in that space in one turn."
    let mut p = overload_table(true);
    let moves = legal_for(&mut p, 0);
    for builds in 0..=2 {
        assert!(moves.contains(&spore_with("D3", 3, builds)));
    }
    assert!(moves.contains(&spore_with("D3", 2, 1)));
    assert!(
        !moves.contains(&spore_with("D3", 2, 2)),
        "nothing below a 1"
    );
    let events = try_move(&mut p, 0, spore_with("D3", 3, 2)).unwrap();
    let t = p.board.tower(sq("D3")).unwrap();
    assert_eq!((t.base, t.height), (3, 3));
    let names = |s: u8| ["Mia", "Leo", "Ana", "Kai"][usize::from(s)].to_string();
    assert_eq!(
        narrate(&events[0], &names),
        "Mia spores a 3 at D3 and overloads it with 2 and 1."
    );
}

#[test]
fn overload_builds_are_limited_by_the_extra_pieces_targeting() {
    let mut p = overload_table(true);
    p.board.clear(sq("D1"));
    let err = try_move(&mut p, 0, spore_with("D3", 3, 2)).unwrap_err();
    assert!(err.contains("at most 1 build"), "{err}");
    turn_of(&mut p, 0);
    try_move(&mut p, 0, spore_with("D3", 3, 1)).unwrap();
}

#[test]
fn without_overload_a_spore_is_a_single_piece() {
    let mut p = overload_table(false);
    assert!(
        legal_for(&mut p, 0)
            .iter()
            .all(|m| !matches!(m, Input::Spore { builds, .. } if *builds > 0))
    );
    let err = try_move(&mut p, 0, spore_with("D3", 3, 1)).unwrap_err();
    assert!(err.contains("Overload"), "{err}");
}

// ---- Superior Forces --------------------------------------------------------------------

#[test]
fn superior_forces_a_tower_falls_only_when_attacking_pips_exceed_its_own() {
    // Superior Forces: "A tower is only neutralized when the total pip value of atacking
    // pieces exceeds the total pip value of the tower."
    let mut config = Config::new(3);
    config.superior_forces = true;
    let mut p = arranged(config);
    tower(&mut p, "C3", 1, &[3]);
    tower(&mut p, "C6", 1, &[1]);
    tower(&mut p, "A3", 0, &[3]);
    tower(&mut p, "E3", 2, &[3]);
    try_move(&mut p, 0, branch("A3", "B3", Dir::East, 2)).unwrap();
    assert!(!p.is_neutralized(sq("C3")), "2 does not exceed 3");
    turn_of(&mut p, 2);
    let events = try_move(&mut p, 2, branch("E3", "D3", Dir::West, 2)).unwrap();
    assert!(p.is_neutralized(sq("C3")), "2 + 2 exceeds 3");
    let Event::Branched { neutralized, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(neutralized.unwrap().controller, 1);
    assert_eq!(p.credit[2].pips, 3, "the seat whose branch made it fall");
    assert_eq!(p.credit[0].pips, 0);
}

#[test]
fn superior_forces_a_three_two_tower_ignores_a_one_but_falls_to_two_threes() {
    // The online rules' example: "a 3+2 tower would not be neutralized by a 1 piece, as
    // usual, but by two 3's."
    let mut config = Config::new(3);
    config.superior_forces = true;
    let mut p = arranged(config);
    tower(&mut p, "C3", 1, &[3, 2]);
    tower(&mut p, "C1", 2, &[3]);
    lay(&mut p, 2, "C1", "C2", Dir::South, 1);
    assert!(!p.is_neutralized(sq("C3")));
    tower(&mut p, "A3", 0, &[3]);
    tower(&mut p, "E3", 0, &[3]);
    lay(&mut p, 0, "A3", "B3", Dir::East, 3);
    assert!(!p.is_neutralized(sq("C3")), "1 + 3 = 4 does not exceed 5");
    lay(&mut p, 0, "E3", "D3", Dir::West, 3);
    assert!(p.is_neutralized(sq("C3")), "1 + 3 + 3 exceeds 5");
}

// ---- The game log -----------------------------------------------------------------------

#[test]
fn the_log_says_what_happened_in_plain_words() {
    let names = |s: u8| ["Mia", "Leo", "Ana"][usize::from(s)].to_string();
    let mut p = arranged(Config::new(3));
    tower(&mut p, "C3", 0, &[3]);
    tower(&mut p, "C5", 1, &[3]);
    tower(&mut p, "E1", 1, &[1]);
    let events = try_move(&mut p, 0, branch("C3", "C4", Dir::South, 2)).unwrap();
    assert_eq!(
        narrate(&events[0], &names),
        "Mia branches a 2 from C3 to C4, pointing south; Leo's tower at C5 is neutralized."
    );
    assert_eq!(
        narrate(
            &Event::Placed {
                seat: 2,
                at: sq("A1"),
                size: 3
            },
            &names
        ),
        "Ana places a starting 3 at A1."
    );
    assert_eq!(
        narrate(
            &Event::Finished {
                scores: vec![4, 9, 12],
                winners: vec![0]
            },
            &names
        ),
        "Mia wins with the fewest points left (Mia 4, Leo 9 and Ana 12)."
    );
    assert_eq!(
        narrate(
            &Event::Finished {
                scores: vec![4, 4, 12],
                winners: vec![1]
            },
            &names
        ),
        "Leo wins on the tie-break (Mia 4, Leo 4 and Ana 12)."
    );
    assert_eq!(
        <Sprawl as Game>::narrate(&Event::NoMoves { seat: 1 }, &names),
        "Leo has no valid move: the game ends."
    );
}
