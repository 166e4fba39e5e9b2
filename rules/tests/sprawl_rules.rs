//! Sprawl's rules, sentence by sentence, from `rulebooks/sprawl.txt` (and the designer's
//! clarifications in `GAME-DATA.md`). Boards: 3 seats play on columns A–E, rows 1–6.

use crate::sprawl_support;

use hoard_rules::sprawl::{
    Config, Dir, Event, Input, Public, Sprawl, Square, Stash, Strength, choose,
};
use hoard_rules::{Game, Listed, Pending, Play, RuleError, Step, rng};
use proptest::prelude::*;
use sprawl_support::*;

fn branches_in(moves: &[Input]) -> Vec<Input> {
    moves
        .iter()
        .copied()
        .filter(|m| matches!(m, Input::Branch { .. }))
        .collect()
}

fn branches_from(moves: &[Input], from: &str) -> Vec<Input> {
    branches_in(moves)
        .into_iter()
        .filter(|m| matches!(m, Input::Branch { from: f, .. } if *f == sq(from)))
        .collect()
}

fn ends(p: &hoard_rules::sprawl::Public) -> bool {
    matches!(Sprawl::pending(p), Pending::Over(_))
}

// ---- Setting up -------------------------------------------------------------------------

#[test]
fn three_players_play_on_5x6_four_to_six_on_6x6_seven_or_more_on_8x8() {
    // "With three players, play on a 5×6 board. With 4 to six players, play on a 6×6
    // board. With 7 or more players, play on an 8×8 board."
    for (seats, cols, rows) in [(3, 5, 6), (4, 6, 6), (6, 6, 6), (7, 8, 8), (8, 8, 8)] {
        let p = Sprawl::setup(&Config::new(seats)).unwrap();
        assert_eq!((p.board.cols, p.board.rows), (cols, rows), "{seats} seats");
    }
    for seats in [2, 9] {
        assert!(matches!(
            Sprawl::setup(&Config::new(seats)),
            Err(RuleError::BadConfig(_))
        ));
    }
    assert_eq!(Sprawl::seat_range(), 3..=8);
}

#[test]
fn each_stash_is_fifteen_pyramids_five_of_each_size() {
    // "A stash is 15 pyramids of one colour: five each of 3, 2 and 1 pips."
    let p = Sprawl::setup(&Config::new(4)).unwrap();
    for seat in 0..4 {
        assert_eq!(p.stash(seat), Stash { counts: [5, 5, 5] });
        assert_eq!((p.stash(seat).pieces(), p.stash(seat).pips()), (15, 30));
    }
}

#[test]
fn a_random_player_goes_first_by_the_beacon() {
    // "Randomly choose a player to go first."
    let mut seen = [false; 3];
    for k in 0..40 {
        let mut p = Sprawl::setup(&Config::new(3)).unwrap();
        assert_eq!(Sprawl::pending(&p), Pending::Chance);
        let events = Sprawl::apply(&mut p, &mut [], &Step::Chance(draw(1, k))).unwrap();
        let Event::FirstPlayer { seat } = events[0] else {
            panic!("{events:?}")
        };
        assert_eq!(Sprawl::pending(&p), Pending::Turn { seat });
        seen[usize::from(seat)] = true;
    }
    assert_eq!(seen, [true; 3], "every seat goes first for some draw");
}

// ---- The first turn ---------------------------------------------------------------------

#[test]
fn first_turn_places_a_starting_tower_of_any_size_anywhere() {
    // "On your first turn, take a piece from your stash and place it upright on a square
    // on the board. It can be a 1, 2, or 3 point piece. ... You may place your starting
    // tower anywhere."
    let mut t = Table::new(Config::new(3));
    let legal = t.legal();
    assert_eq!(legal.len(), 5 * 6 * 3);
    assert!(legal.iter().all(|m| matches!(m, Input::Place { .. })));
    assert!(t.try_play(spore("C3", 3)).unwrap().contains("first turn"));
    t.play(place("C3", 3));
    // A starting tower goes on a vacant square only.
    assert!(t.try_play(place("C3", 2)).unwrap().contains("not empty"));
    t.play(place("A1", 1));
    t.play(place("E6", 2));
    assert_eq!(t.p.board.tower(sq("C3")).unwrap().base, 3);
    assert_eq!(t.p.stash(0).count(3), 4);
}

#[test]
fn later_towers_must_be_spored_not_placed() {
    // "All future towers you place on the board must be spored in a vacant space
    // targeted by a branch point you control."
    let mut t = Table::new(Config::new(3));
    t.play(place("C3", 3));
    t.play(place("A1", 1));
    t.play(place("E6", 2));
    assert!(t.legal().iter().all(|m| !matches!(m, Input::Place { .. })));
    assert!(
        t.try_play(place("A6", 3))
            .unwrap()
            .contains("must be spored")
    );
    assert!(
        t.try_play(spore("A6", 3))
            .unwrap()
            .contains("no branch point of yours targets A6")
    );
}

// ---- Building ---------------------------------------------------------------------------

#[test]
fn building_caps_your_tower_with_a_piece_one_point_smaller() {
    // "To build, cap a tower you control with a piece from your stash. This piece must
    // be one point smaller than the piece it's capping."
    let mut p = arranged(Config::new(3));
    tower(&mut p, "C3", 0, &[3]);
    tower(&mut p, "A1", 1, &[3]);
    assert!(legal_for(&mut p, 0).contains(&build("C3")));
    try_move(&mut p, 0, build("C3")).unwrap();
    turn_of(&mut p, 0);
    try_move(&mut p, 0, build("C3")).unwrap();
    let t = p.board.tower(sq("C3")).unwrap();
    assert_eq!((t.base, t.height, t.top()), (3, 3, 1));
    assert_eq!(p.stash(0).counts, [4, 4, 4]);
    // Nothing is smaller than a 1.
    assert!(!legal_for(&mut p, 0).contains(&build("C3")));
    assert!(
        try_move(&mut p, 0, build("C3"))
            .unwrap_err()
            .contains("capped with a 1")
    );
    // Only a tower you control.
    assert!(
        try_move(&mut p, 0, build("A1"))
            .unwrap_err()
            .contains("not yours")
    );
}

#[test]
fn a_build_needs_the_smaller_piece_in_the_stash() {
    // "cap a tower you control with a piece from your stash"
    let mut p = arranged(Config::new(3));
    tower(&mut p, "C3", 0, &[3]);
    p.stashes[0].counts[1] = 0;
    assert!(!legal_for(&mut p, 0).contains(&build("C3")));
    assert!(
        try_move(&mut p, 0, build("C3"))
            .unwrap_err()
            .contains("needs a 2")
    );
}

// ---- Branch length ----------------------------------------------------------------------

/// Lays every branch `seat` can off its towers, biggest pieces first, with a stash that
/// never runs out; returns how many were laid.
fn fill_with_branches(p: &mut hoard_rules::sprawl::Public, seat: u8) -> usize {
    p.stashes[usize::from(seat)].counts = [50, 50, 50];
    let mut laid = 0;
    loop {
        let moves = branches_in(&legal_for(p, seat));
        let Some(&biggest) = moves.iter().max_by_key(|m| match m {
            Input::Branch { size, .. } => *size,
            _ => 0,
        }) else {
            return laid;
        };
        try_move(p, seat, biggest).unwrap();
        laid += 1;
    }
}

#[test]
fn a_one_piece_tower_can_have_at_most_four_pieces_coming_off_it() {
    // "A tower can only support branches that are as long as the number of pieces in the
    // tower. A one-piece tower can have a maximum of four pieces coming off of it."
    let mut p = arranged(Config::new(7));
    tower(&mut p, "D4", 0, &[3]);
    assert_eq!(fill_with_branches(&mut p, 0), 4);
}

#[test]
fn a_two_piece_tower_can_have_at_most_twelve_pieces_coming_off_it() {
    // "A two-piece tower can have a maximum of 12 pieces coming off of it."
    let mut p = arranged(Config::new(7));
    tower(&mut p, "D4", 0, &[3, 2]);
    assert_eq!(fill_with_branches(&mut p, 0), 12);
    // Four one long, eight two long: every square within two steps of the tower.
    let filled = p
        .board
        .squares()
        .filter(|s| p.board.branch(*s).is_some())
        .count();
    assert_eq!(filled, 12);
}

#[test]
fn a_branch_longer_than_its_tower_is_tall_is_refused() {
    // "Remember, a tower can only support branches that are as long as the number of
    // pieces in the tower."
    let mut p = arranged(Config::new(3));
    tower(&mut p, "A3", 0, &[3]);
    lay(&mut p, 0, "A3", "B3", Dir::East, 3);
    assert!(branches_from(&legal_for(&mut p, 0), "B3").is_empty());
    let err = try_move(&mut p, 0, branch("B3", "C3", Dir::East, 2)).unwrap_err();
    assert!(err.contains("at most 1 long"), "{err}");
    // Building the tower up lengthens what it supports.
    try_move(&mut p, 0, build("A3")).unwrap();
    assert!(legal_for(&mut p, 0).contains(&branch("B3", "C3", Dir::East, 2)));
}

// ---- Branching --------------------------------------------------------------------------

#[test]
fn branches_lie_next_to_your_tower_and_point_orthogonally_at_a_square() {
    // "To branch, lay a piece from your stash on its side in a space adjacent to one of
    // your towers ... Branch points must point at an adjacent square. Diagonal squares
    // are not valid."
    let mut p = arranged(Config::new(3));
    tower(&mut p, "B2", 0, &[3]);
    tower(&mut p, "E6", 1, &[3]);
    let err = try_move(&mut p, 0, branch("B2", "C3", Dir::South, 1)).unwrap_err();
    assert!(err.contains("diagonals"), "{err}");
    let err = try_move(&mut p, 0, branch("B2", "B4", Dir::South, 1)).unwrap_err();
    assert!(err.contains("not next to"), "{err}");
    // Pointing off the board points at no square.
    turn_of(&mut p, 0);
    let err = try_move(&mut p, 0, branch("B2", "B1", Dir::North, 1)).unwrap_err();
    assert!(err.contains("off the board"), "{err}");
    // Not off someone else's tower.
    let err = try_move(&mut p, 0, branch("E6", "E5", Dir::North, 1)).unwrap_err();
    assert!(err.contains("not yours"), "{err}");
}

#[test]
fn branches_off_a_tower_point_directly_away_and_may_be_any_size() {
    // "Branch points coming off of a tower must point away from the tower. Any size piece
    // can branch off of a tower." Clarified: "branches point directly away from their
    // source".
    let mut p = arranged(Config::new(3));
    tower(&mut p, "C3", 0, &[1]);
    let moves = branches_from(&legal_for(&mut p, 0), "C3");
    // Four neighbours, each pointing one way, in three sizes.
    assert_eq!(moves.len(), 4 * 3);
    for m in &moves {
        let Input::Branch { at, dir, .. } = *m else {
            unreachable!()
        };
        assert_eq!(Dir::between(sq("C3"), at), Some(dir), "{m:?}");
    }
    let err = try_move(&mut p, 0, branch("C3", "D3", Dir::North, 3)).unwrap_err();
    assert!(err.contains("directly away"), "{err}");
}

#[test]
fn branches_off_a_branch_go_off_its_point_or_sides_pointing_away() {
    // "Branch points coming off of the side of a branch point must point away from the
    // source branch point. Branch points placed in squares targeted by the branch point
    // they are branching from may not point at branch point they are branching from."
    let mut p = arranged(Config::new(3));
    tower(&mut p, "B3", 0, &[3, 2]);
    lay(&mut p, 0, "B3", "C3", Dir::East, 3);
    let mut moves = branches_from(&legal_for(&mut p, 0), "C3");
    moves.sort_by_key(|m| format!("{m:?}"));
    let mut want = vec![
        branch("C3", "D3", Dir::East, 2),
        branch("C3", "C2", Dir::North, 2),
        branch("C3", "C4", Dir::South, 2),
    ];
    want.sort_by_key(|m| format!("{m:?}"));
    assert_eq!(moves, want);
}

#[test]
fn loose_branching_points_any_way_but_back_at_the_source() {
    // Loose Branching: "branching pieces may point in any cardinal direction, except
    // toward the piece they are branching from."
    let mut config = Config::new(3);
    config.loose_branching = true;
    let mut p = arranged(config);
    tower(&mut p, "B3", 0, &[3, 2]);
    lay(&mut p, 0, "B3", "C3", Dir::East, 3);
    let moves = branches_from(&legal_for(&mut p, 0), "C3");
    let at_d3: Vec<Dir> = moves
        .iter()
        .filter_map(|m| match *m {
            Input::Branch { at, dir, .. } if at == sq("D3") => Some(dir),
            _ => None,
        })
        .collect();
    assert_eq!(at_d3, vec![Dir::North, Dir::East, Dir::South]);
    let err = try_move(&mut p, 0, branch("C3", "D3", Dir::West, 2)).unwrap_err();
    assert!(err.contains("may not point back"), "{err}");
    // Off a tower too: any way but back at the tower.
    turn_of(&mut p, 0);
    try_move(&mut p, 0, branch("B3", "B4", Dir::East, 1)).unwrap();
}

#[test]
fn twos_branch_only_from_threes_ones_from_twos_nothing_from_a_one() {
    // "Pieces coming off of branch points must be one size smaller than the piece that
    // they are branching from. Twos may only branch from threes. Ones may only branch
    // from twos. Nothing can branch from a one."
    let mut p = arranged(Config::new(3));
    tower(&mut p, "A3", 0, &[3, 2, 1]);
    lay(&mut p, 0, "A3", "B3", Dir::East, 3);
    let sizes = |moves: Vec<Input>| -> Vec<u8> {
        let mut s: Vec<u8> = moves
            .iter()
            .map(|m| match m {
                Input::Branch { size, .. } => *size,
                _ => 0,
            })
            .collect();
        s.dedup();
        s
    };
    assert_eq!(sizes(branches_from(&legal_for(&mut p, 0), "B3")), vec![2]);
    let err = try_move(&mut p, 0, branch("B3", "C3", Dir::East, 1)).unwrap_err();
    assert!(err.contains("must be a 2"), "{err}");
    turn_of(&mut p, 0);
    try_move(&mut p, 0, branch("B3", "C3", Dir::East, 2)).unwrap();
    assert_eq!(sizes(branches_from(&legal_for(&mut p, 0), "C3")), vec![1]);
    try_move(&mut p, 0, branch("C3", "D3", Dir::East, 1)).unwrap();
    assert!(branches_from(&legal_for(&mut p, 0), "D3").is_empty());
    let err = try_move(&mut p, 0, branch("D3", "D2", Dir::North, 1)).unwrap_err();
    assert!(err.contains("nothing can branch off a 1"), "{err}");
}

#[test]
fn one_piece_per_square() {
    // "lay a piece ... in a space adjacent": the space must be free.
    let mut p = arranged(Config::new(3));
    tower(&mut p, "B3", 0, &[3]);
    tower(&mut p, "C3", 1, &[3]);
    let err = try_move(&mut p, 0, branch("B3", "C3", Dir::East, 1)).unwrap_err();
    assert!(err.contains("not empty"), "{err}");
}

// ---- Attacking --------------------------------------------------------------------------

#[test]
fn a_branch_attacks_the_square_it_points_at() {
    // "Branch points automatically attack the adjacent space they're pointing at."
    let mut p = arranged(Config::new(3));
    tower(&mut p, "A3", 0, &[3]);
    tower(&mut p, "C3", 1, &[3]);
    tower(&mut p, "E6", 1, &[1]); // so seat 1 still has a move and play goes on
    let events = try_move(&mut p, 0, branch("A3", "B3", Dir::East, 1)).unwrap();
    assert!(p.is_neutralized(sq("C3")));
    assert_eq!(p.attackers(sq("C3")), vec![sq("B3")]);
    let Event::Branched { neutralized, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(neutralized.unwrap().at, sq("C3"));
    assert_eq!(neutralized.unwrap().controller, 1);
    assert_eq!(p.credit[0].pips, 3);
    assert_eq!(p.credit[0].towers, 1);
}

#[test]
fn a_three_two_tower_attacked_by_a_one_is_neutralized() {
    // "A tower is neutralized if it is attacked by a piece of a size that is not in that
    // tower. If a tower has a 3-unit and a 2-unit piece in it, and it's attacked by a
    // one-unit piece, then it is neutralized."
    let mut p = arranged(Config::new(3));
    tower(&mut p, "A3", 0, &[2]);
    tower(&mut p, "C3", 1, &[3, 2]);
    tower(&mut p, "E6", 1, &[1]);
    try_move(&mut p, 0, branch("A3", "B3", Dir::East, 1)).unwrap();
    assert!(p.is_neutralized(sq("C3")));
}

#[test]
fn a_tower_with_one_of_each_size_cannot_be_neutralized() {
    // "A tower with one of each piece size in it can not be neutralized."
    let mut p = arranged(Config::new(3));
    tower(&mut p, "C3", 1, &[3, 2, 1]);
    tower(&mut p, "A3", 0, &[3]);
    tower(&mut p, "C1", 0, &[3]);
    tower(&mut p, "E3", 2, &[3]);
    lay(&mut p, 0, "A3", "B3", Dir::East, 1);
    lay(&mut p, 0, "C1", "C2", Dir::South, 2);
    lay(&mut p, 2, "E3", "D3", Dir::West, 3);
    assert_eq!(p.attackers(sq("C3")).len(), 3);
    assert!(!p.is_neutralized(sq("C3")));
}

/// The rulebook's example picture, rebuilt: Yellow (seat 0), Red (seat 1), Green
/// (seat 2). Red's 2 at C4 points east at Green's lone 3 at D4; Yellow's 1 at B5 points
/// north at Red's tower of 2 and 1 at B4.
fn the_example() -> hoard_rules::sprawl::Public {
    let mut p = arranged(Config::new(3));
    tower(&mut p, "B4", 1, &[2, 1]);
    lay(&mut p, 1, "B4", "C4", Dir::East, 2);
    tower(&mut p, "D4", 2, &[3]);
    tower(&mut p, "B6", 0, &[3]);
    lay(&mut p, 0, "B6", "B5", Dir::North, 1);
    p
}

#[test]
fn example_a1_the_dots_mark_the_targeted_spaces_each_player_can_spore_to() {
    // "Q1: What do the yellow and red dots indicate? A1: They mark targeted spaces that
    // the yellow and red players can spore to."
    let mut p = the_example();
    assert_eq!(p.targets(0), vec![sq("B4")]); // Yellow's 1 targets the square it attacks.
    assert_eq!(p.targets(1), vec![sq("E4")]); // Red's 2 targets two squares east.
    let spores = |moves: Vec<Input>| -> Vec<Square> {
        let mut at: Vec<Square> = moves
            .iter()
            .filter_map(|m| match m {
                Input::Spore { at, .. } => Some(*at),
                _ => None,
            })
            .collect();
        at.dedup();
        at
    };
    assert_eq!(spores(legal_for(&mut p, 1)), vec![sq("E4")]);
    // Yellow's dot is on Red's tower: targeted, but not vacant.
    assert_eq!(spores(legal_for(&mut p, 0)), vec![]);
}

#[test]
fn example_a2_a_tower_lacking_a_two_is_neutralized_by_a_two_pip_attacker() {
    // "Q2: Is the green tower live, or neutralized? A2: The green tower is being
    // neutralized by the two-unit red piece that's attacking it."
    let p = the_example();
    assert!(p.is_neutralized(sq("D4")));
    assert_eq!(p.attackers(sq("D4")), vec![sq("C4")]);
}

#[test]
fn example_a3_a_tower_holding_a_one_is_immune_to_a_one_pip_attacker() {
    // "Q3: Is the red tower live or neutralized? A3: The red tower is live because it has
    // a one-unit piece in it, making it immune to the one-unit yellow piece that's
    // attacking it."
    let p = the_example();
    assert_eq!(p.attackers(sq("B4")), vec![sq("B5")]);
    assert!(!p.is_neutralized(sq("B4")));
}

#[test]
fn example_a4_red_may_spore_beyond_the_tower_its_branch_neutralizes() {
    // "Q4: Why can red spore to the square adjacent to the green tower? A4: Because the
    // two-unit red piece that's neutralizing the green tower is targeting that space, and
    // targeting is not blocked by pieces in the way."
    let mut p = the_example();
    turn_of(&mut p, 1);
    for size in 1..=3 {
        assert!(Sprawl::legal_inputs(&p, None, 1).contains(&spore("E4", size)));
    }
    let events = try_move(&mut p, 1, spore("E4", 2)).unwrap();
    assert_eq!(
        events[0],
        Event::Spored {
            seat: 1,
            at: sq("E4"),
            size: 2,
            builds: 0
        }
    );
}

// ---- Neutralized towers -----------------------------------------------------------------

/// Seat 1's tower C3 {3, 2} with a 3 branch at C4 (pointing south) and a 2 off it at D4
/// (pointing east, attacking E4), and a lone 1 at A6; seat 0 then neutralizes C3 with a 1
/// from B3.
fn a_fallen_tower() -> hoard_rules::sprawl::Public {
    let mut p = arranged(Config::new(3));
    tower(&mut p, "A6", 1, &[1]);
    tower(&mut p, "C3", 1, &[3, 2]);
    lay(&mut p, 1, "C3", "C4", Dir::South, 3);
    lay(&mut p, 1, "C4", "D4", Dir::East, 2);
    tower(&mut p, "A3", 0, &[3]);
    tower(&mut p, "E1", 2, &[3]);
    try_move(&mut p, 0, branch("A3", "B3", Dir::East, 1)).unwrap();
    assert!(p.is_neutralized(sq("C3")));
    p
}

#[test]
fn the_owner_of_a_neutralized_tower_cannot_build_on_it_or_branch_off_it() {
    // "The owner of a neutralized tower can not build on it or continue to branch off of
    // it."
    let mut p = a_fallen_tower();
    let moves = legal_for(&mut p, 1);
    assert!(!moves.contains(&build("C3")));
    for from in ["C3", "C4", "D4"] {
        assert!(branches_from(&moves, from).is_empty(), "off {from}");
    }
    assert!(p.is_dead(sq("C4")) && p.is_dead(sq("D4")));
    let err = try_move(&mut p, 1, build("C3")).unwrap_err();
    assert!(err.contains("neutralized"), "{err}");
    let err = try_move(&mut p, 1, branch("C3", "C2", Dir::North, 1)).unwrap_err();
    assert!(err.contains("neutralized"), "{err}");
    let err = try_move(&mut p, 1, branch("C4", "C5", Dir::South, 2)).unwrap_err();
    assert!(err.contains("neutralized tower"), "{err}");
}

#[test]
fn branch_points_on_neutralized_towers_still_attack() {
    // "Branch points on neutralized towers still attack squares that they point at."
    let mut p = a_fallen_tower();
    // Seat 1's dead 2 at D4 still attacks E4: a 1 or a 3 there would fall at once.
    assert_eq!(p.attackers(sq("E4")), vec![sq("D4")]);
    // Seat 2's 2 at E2 targets E4: only a 2 survives there.
    lay(&mut p, 2, "E1", "E2", Dir::South, 2);
    let moves = legal_for(&mut p, 2);
    assert!(moves.contains(&spore("E4", 2)));
    assert!(!moves.contains(&spore("E4", 1)) && !moves.contains(&spore("E4", 3)));
}

#[test]
fn no_spore_off_a_branch_point_on_a_neutralized_tower() {
    // "You may not spore off of a branch point on a neutralized tower."
    let mut p = a_fallen_tower();
    // A branch of seat 1's off the fallen tower, whose target (C1) is on the board.
    lay(&mut p, 1, "C3", "C2", Dir::North, 1);
    assert_eq!(p.targets(1), vec![]);
    assert!(
        legal_for(&mut p, 1)
            .iter()
            .all(|m| !matches!(m, Input::Spore { .. }))
    );
    let err = try_move(&mut p, 1, spore("C1", 1)).unwrap_err();
    assert!(err.contains("on neutralized towers"), "{err}");
}

// ---- Sporing ----------------------------------------------------------------------------

#[test]
fn branch_points_target_as_many_squares_away_as_their_pips() {
    // "Branch points target the space they're pointing at (pip) spaces away. A three pip
    // piece targets the space three squares away. A two pip piece targets the space two
    // squares away. A one pip piece targets the adjacent space it points at."
    for (size, target) in [(3, "A5"), (2, "A4"), (1, "A3")] {
        let mut p = arranged(Config::new(3));
        tower(&mut p, "A1", 0, &[3]);
        lay(&mut p, 0, "A1", "A2", Dir::South, size);
        assert_eq!(p.targets(0), vec![sq(target)], "a {size}");
    }
}

#[test]
fn targeting_ignores_intervening_pieces() {
    // "It does not matter if there are intervening pieces; the space is still targeted."
    let mut p = arranged(Config::new(3));
    tower(&mut p, "A1", 0, &[3]);
    lay(&mut p, 0, "A1", "A2", Dir::South, 3);
    tower(&mut p, "A3", 1, &[3, 2, 1]);
    tower(&mut p, "A4", 2, &[2]);
    assert_eq!(p.targets(0), vec![sq("A5")]);
    assert!(legal_for(&mut p, 0).contains(&spore("A5", 3)));
}

#[test]
fn a_spore_stands_upright_on_a_vacant_targeted_square_in_any_size() {
    // "To spore, place a piece from your stash upright in a vacant square that one of
    // your branch points targets. This piece may be any size. This creates a new tower
    // that you can build or branch from on future turns."
    let mut p = arranged(Config::new(3));
    tower(&mut p, "A1", 0, &[3]);
    lay(&mut p, 0, "A1", "B1", Dir::East, 2);
    let spores: Vec<Input> = legal_for(&mut p, 0)
        .into_iter()
        .filter(|m| matches!(m, Input::Spore { .. }))
        .collect();
    assert_eq!(spores, vec![spore("D1", 1), spore("D1", 2), spore("D1", 3)]);
    try_move(&mut p, 0, spore("D1", 3)).unwrap();
    let moves = legal_for(&mut p, 0);
    assert!(moves.contains(&build("D1")));
    assert!(!branches_from(&moves, "D1").is_empty());
    // Not on an occupied square.
    tower(&mut p, "D3", 1, &[1]);
    lay(&mut p, 0, "D1", "D2", Dir::South, 1);
    let err = try_move(&mut p, 0, spore("D3", 1)).unwrap_err();
    assert!(err.contains("not empty"), "{err}");
}

#[test]
fn no_spore_that_would_be_instantly_neutralized() {
    // "You may not spore a new tower in a position that will instantly neutralize it."
    let mut p = arranged(Config::new(3));
    tower(&mut p, "A1", 0, &[3]);
    lay(&mut p, 0, "A1", "B1", Dir::East, 2); // targets D1
    tower(&mut p, "D3", 1, &[3]);
    lay(&mut p, 1, "D3", "D2", Dir::North, 2); // attacks D1
    let moves = legal_for(&mut p, 0);
    assert!(moves.contains(&spore("D1", 2)));
    assert!(!moves.contains(&spore("D1", 1)) && !moves.contains(&spore("D1", 3)));
    let err = try_move(&mut p, 0, spore("D1", 3)).unwrap_err();
    assert!(err.contains("neutralized at once"), "{err}");
}

#[test]
fn your_own_one_attacks_the_square_it_targets_so_only_a_one_may_spore_there() {
    // "Branch points automatically attack the adjacent space they're pointing at" — with
    // no exception for your own; a 1 targets that same square.
    let mut p = arranged(Config::new(3));
    tower(&mut p, "A1", 0, &[3]);
    lay(&mut p, 0, "A1", "B1", Dir::East, 1);
    let spores: Vec<Input> = legal_for(&mut p, 0)
        .into_iter()
        .filter(|m| matches!(m, Input::Spore { .. }))
        .collect();
    assert_eq!(spores, vec![spore("C1", 1)]);
}

// ---- The end ----------------------------------------------------------------------------

#[test]
fn the_game_ends_at_the_start_of_the_turn_of_a_player_with_no_valid_move() {
    // "When one player has no more valid moves, the game ends at the beginning of that
    // player's next turn."
    let mut p = arranged(Config::new(3));
    tower(&mut p, "A1", 0, &[3]);
    tower(&mut p, "E1", 1, &[3]);
    tower(&mut p, "E6", 2, &[3]);
    p.stashes[1].counts = [0, 0, 0];
    let events = try_move(&mut p, 0, build("A1")).unwrap();
    assert!(events.contains(&Event::NoMoves { seat: 1 }), "{events:?}");
    assert!(ends(&p));
}

#[test]
fn eliminating_a_player_ends_the_game_when_its_turn_comes_round() {
    // GAME-DATA: "if a player is eliminated entirely the game ends after one final
    // round" — the players between still move.
    let mut p = arranged(Config::new(3));
    tower(&mut p, "A3", 0, &[3]);
    tower(&mut p, "C3", 2, &[3]);
    tower(&mut p, "E6", 1, &[3]);
    try_move(&mut p, 0, branch("A3", "B3", Dir::East, 1)).unwrap();
    assert_eq!(Sprawl::pending(&p), Pending::Turn { seat: 1 });
    let events = try_move(&mut p, 1, build("E6")).unwrap();
    assert!(events.contains(&Event::NoMoves { seat: 2 }), "{events:?}");
    assert!(ends(&p));
}

#[test]
fn neutralized_pieces_go_home_and_the_fewest_points_in_the_stash_wins() {
    // "When the game ends, return all pieces in neutralized towers and branches attached
    // to neutralized towers to their player's stashes. Add up the points in your stash at
    // the end of the game. If you have the least points in your stash at the end of the
    // game, then you win."
    let mut p = a_fallen_tower();
    // Seat 1 is next: with nothing left in its stash it has no move, and the game ends.
    p.stashes[1].counts = [0, 0, 0];
    turn_of(&mut p, 0);
    let events = try_move(&mut p, 0, build("A3")).unwrap();
    // Seat 1's 3 + 2 tower and its 3 and 2 branches: 10 pips back.
    assert!(
        events.contains(&Event::Returned { seat: 1, pips: 10 }),
        "{events:?}"
    );
    for s in ["C3", "C4", "D4"] {
        assert!(p.board.is_vacant(sq(s)), "{s} cleared");
    }
    let Pending::Over(outcome) = Sprawl::pending(&p) else {
        panic!("not over")
    };
    // Seat 0: 3 + 2 + 1 on the board, 24 left; seat 1: 10; seat 2: 27.
    assert_eq!(outcome.scores, vec![24, 10, 27]);
    assert_eq!(outcome.winners, vec![1]);
}

/// Ends a 3-seat game where seats 0 and 1 both finish with 0 pips in the stash and seat 2
/// with 30. Seat 0 ends with a 3 tower at A1 and a 1 branch at A2 (2 spaces, 3 tower
/// pips, 1 tower); `arrange` gives seat 1 its pieces and credits. Returns the winners.
fn tied_winners(arrange: impl FnOnce(&mut hoard_rules::sprawl::Public)) -> Vec<u8> {
    let mut p = arranged(Config::new(3));
    tower(&mut p, "A1", 0, &[3]);
    arrange(&mut p);
    p.stashes[0].counts = [1, 0, 0];
    p.stashes[1].counts = [0, 0, 0];
    try_move(&mut p, 0, branch("A1", "A2", Dir::South, 1)).unwrap();
    let Pending::Over(outcome) = Sprawl::pending(&p) else {
        panic!("not over")
    };
    assert_eq!(outcome.scores, vec![0, 0, 30]);
    outcome.winners
}

#[test]
fn ties_go_to_most_pips_neutralized_then_towers_neutralized_spaces_tower_pips_towers() {
    // GAME-DATA: "ties go to whoever neutralized towers with the most pips, then the most
    // towers, then controls the most spaces, then towers with the most pips, then most
    // towers."
    use hoard_rules::sprawl::Credit;
    let one_tower = |p: &mut hoard_rules::sprawl::Public| tower(p, "E1", 1, &[3]);
    assert_eq!(
        tied_winners(|p| {
            one_tower(p);
            p.credit[1] = Credit { pips: 3, towers: 1 };
        }),
        vec![1],
        "more pips neutralized"
    );
    assert_eq!(
        tied_winners(|p| {
            one_tower(p);
            p.credit[0] = Credit { pips: 3, towers: 1 };
            p.credit[1] = Credit { pips: 3, towers: 2 };
        }),
        vec![1],
        "as many pips neutralized, more towers"
    );
    assert_eq!(
        tied_winners(one_tower),
        vec![0],
        "more spaces (2 against 1)"
    );
    assert_eq!(
        tied_winners(|p| {
            tower(p, "E1", 1, &[3, 2]);
            lay(p, 1, "E1", "E2", Dir::South, 1);
        }),
        vec![1],
        "as many spaces, more pips in towers (5 against 3)"
    );
    assert_eq!(
        tied_winners(|p| {
            tower(p, "E1", 1, &[2]);
            tower(p, "E3", 1, &[1]);
        }),
        vec![1],
        "as many spaces and tower pips, more towers (2 against 1)"
    );
    assert_eq!(
        tied_winners(|p| {
            tower(p, "E1", 1, &[3]);
            lay(p, 1, "E1", "E2", Dir::South, 1);
        }),
        vec![0, 1],
        "tied on everything: a shared win"
    );
}

// Sprawl's whole input space, probed: every game's listed inputs are checked by the
// conformance suite (`conformance.rs`); here random and near-miss inputs pass the move
// check only if they are listed.
proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn legal_inputs_are_exactly_what_the_move_check_accepts(
        seed in any::<u64>(),
        seats in 3u8..=5,
        flags in 0u8..32,
    ) {
        let config = config_from(seats, flags);
        let mut p = Sprawl::setup(&config).unwrap();
        let mut bots = rng::from_seed(&draw(seed, 0), "bots");
        let mut probe = rng::from_seed(&draw(seed, 1), "probe");
        let mut draws = 0;
        for _ in 0..200 {
            let step = match Sprawl::pending(&p) {
                Pending::Over(_) => break,
                Pending::Chance => {
                    draws += 1;
                    Step::Chance(draw(seed, 100 + draws))
                }
                Pending::Turn { seat } => {
                    let legal = Sprawl::legal_inputs(&p, None, seat);
                    check_against_probes(&p, seat, &legal, &mut probe);
                    for other in (0..seats).filter(|&s| s != seat) {
                        prop_assert!(Sprawl::legal_inputs(&p, None, other).is_empty());
                    }
                    Step::turn(seat, choose(&p, seat, Strength::Random, &mut bots).unwrap())
                }
                Pending::Together { seats: asked, .. } => Step::Inputs(
                    asked
                        .iter()
                        .map(|&s| (s, Play::Open(choose(&p, s, Strength::Random, &mut bots).unwrap())))
                        .collect(),
                ),
                other => panic!("Sprawl has no shared deck, yet waits for {other:?}"),
            };
            Sprawl::apply(&mut p, &mut [], &step).unwrap();
            prop_assert_eq!(<Sprawl as Listed>::check_pieces(&p, &[]), Ok(()));
        }
    }
}

fn config_from(seats: u8, flags: u8) -> Config {
    Config {
        seats,
        counting_coup: flags & 1 != 0,
        sprawlgami: flags & 2 != 0,
        overload: flags & 4 != 0,
        superior_forces: flags & 8 != 0,
        loose_branching: flags & 16 != 0,
    }
}

/// Every legal input passes the check and applies; random inputs pass the check only if
/// they are in the list.
fn check_against_probes(
    p: &Public,
    seat: u8,
    legal: &[Input],
    probe: &mut rand_chacha::ChaCha8Rng,
) {
    for input in legal {
        assert_eq!(Sprawl::check_input(p, seat, input), Ok(()), "{input:?}");
    }
    // Apply a few legal inputs to copies: none may be refused.
    for _ in 0..3.min(legal.len()) {
        let input = legal[rng::below(probe, legal.len() as u32) as usize];
        let mut copy = p.clone();
        Sprawl::apply(&mut copy, &mut [], &Step::turn(seat, input)).unwrap();
    }
    let (cols, rows) = (u32::from(p.board.cols), u32::from(p.board.rows));
    let square = |probe: &mut rand_chacha::ChaCha8Rng| {
        // One past the edge now and then, to probe the board's bounds.
        Square::new(
            rng::below(probe, cols + 1) as u8,
            rng::below(probe, rows + 1) as u8,
        )
    };
    for _ in 0..200 {
        let size = rng::below(probe, 4) as u8;
        let input = match rng::below(probe, if legal.is_empty() { 5 } else { 7 }) {
            0 => Input::Place {
                at: square(probe),
                size,
            },
            1 => Input::Build { at: square(probe) },
            2 => {
                let from = square(probe);
                let dir = Dir::ALL[rng::below(probe, 4) as usize];
                let step = Dir::ALL[rng::below(probe, 4) as usize];
                let at = p.board.step(from, step, 1).unwrap_or(from);
                Input::Branch {
                    from,
                    at,
                    dir,
                    size,
                }
            }
            3 => Input::Spore {
                at: square(probe),
                size,
                builds: rng::below(probe, 3) as u8,
            },
            4 => [Input::Ask, Input::Pass, Input::TakeBack, Input::Keep]
                [rng::below(probe, 4) as usize],
            // A legal move with one thing changed: the near misses.
            _ => {
                let dir = Dir::ALL[rng::below(probe, 4) as usize];
                let other = square(probe);
                match legal[rng::below(probe, legal.len() as u32) as usize] {
                    Input::Branch { from, at, .. } if size.is_multiple_of(2) => Input::Branch {
                        from,
                        at,
                        dir,
                        size: size.max(1),
                    },
                    Input::Branch {
                        from, dir, size, ..
                    } => Input::Branch {
                        from,
                        at: p.board.step(from, dir, 1).unwrap_or(other),
                        dir,
                        size,
                    },
                    Input::Spore { at, size, .. } => Input::Spore {
                        at,
                        size,
                        builds: rng::below(probe, 3) as u8,
                    },
                    Input::Place { size, .. } => Input::Place { at: other, size },
                    Input::Build { .. } => Input::Build { at: other },
                    legal_one => legal_one,
                }
            }
        };
        assert_eq!(
            Sprawl::check_input(p, seat, &input).is_ok(),
            legal.contains(&input),
            "{input:?}: {:?}",
            Sprawl::check_input(p, seat, &input)
        );
    }
}
