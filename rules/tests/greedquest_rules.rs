//! GreedQuest's rules, one situation at a time: every example of the rulebook, each card and
//! each room alone, the combinations the rulebook names, and every variant. Each test quotes
//! the sentence it checks.

use hoard_rules::greedquest::{
    Attrition, Card, Config, Facing, GreedQuest, Input, Length, Position, Private,
};
use hoard_rules::{Game, Pending, Play, RuleError, Seal, Step, public_hash};

use crate::greedquest_support;

use Card::*;
use Facing::{In, Out};
use greedquest_support::{Table, even_chance_duel, with};

fn basic(seats: u8) -> Config {
    Config::new(seats)
}

// ----------------------------------------------------------------------------------------
// The rulebook's examples.

#[test]
fn meek_example_steve_monica_andrew() {
    // "Steve plays Go! 3. Monica plays Go! 6. Andrew plays The Meek Shall Inherit. Normally,
    // Monica would have the winning (highest) Go! card, but Andrew's play means that Steve
    // has the winning card instead."
    let pos = Position::new(basic(3))
        .room(0, 3, In)
        .room(1, 3, In)
        .room(2, 3, In)
        .hand(0, &with(Go3))
        .hand(1, &with(Go6))
        .hand(2, &with(Meek));
    let mut t = Table::new(pos, &["Steve", "Monica", "Andrew"]);
    t.lay(&[(0, Go3), (1, Go6), (2, Meek)]);
    assert_eq!(t.room(0), 4, "Steve has the winning card");
    assert_eq!(t.room(1), 3);
    assert!(
        t.said("Andrew's The Meek Shall Inherit: Steve's Go! 3 wins."),
        "{:#?}",
        t.lines()
    );
    assert!(t.said("Steve moves to Room 4"), "{:#?}", t.lines());
}

#[test]
fn curse_example_paul_lisa_hunter_savannah() {
    // "Paul plays Curse! Lisa plays Tracking. Hunter plays Go! 5, and Savannah plays Go! 4.
    // Hunter has the winning Go! card, but because of the Curse!, he moves one room backward
    // instead of forward. Then Lisa moves one room closer to Hunter, because her Tracking is
    // not affected by Curse!."
    let pos = Position::new(basic(4))
        .room(0, 4, In)
        .room(1, 1, In)
        .room(2, 4, In)
        .room(3, 4, In)
        .hand(0, &with(Curse))
        .hand(1, &with(Tracking))
        .hand(2, &with(Go5))
        .hand(3, &with(Go4));
    let mut t = Table::new(pos, &["Paul", "Lisa", "Hunter", "Savannah"]);
    t.lay(&[(0, Curse), (1, Tracking), (2, Go5), (3, Go4)]);
    assert_eq!(t.room(2), 3, "Hunter moves one room backward");
    assert_eq!(t.room(1), 2, "Lisa moves one room closer to Hunter");
    assert_eq!(t.room(3), 4);
}

#[test]
fn even_chance_duel_example_fade_cyndy_wayne() {
    // "Fade plays Even Chance. Cyndy and Wayne both play winning Go! 8 cards. They fight a
    // duel, which Cyndy wins; she gets to decide whether to trade places with Fade herself
    // or make Wayne trade."
    let mut t = even_chance_duel(&["Fade", "Cyndy", "Wayne"]);
    assert_eq!(
        (t.room(1), t.room(2)),
        (5, 5),
        "both winning Go! 8 cards move"
    );
    assert_eq!(
        t.pending(),
        Pending::Together {
            seats: vec![1, 2],
            seal: Seal::UntilAll
        }
    );
    t.lay(&[(1, Go7), (2, Go3)]);
    assert_eq!(t.pending(), Pending::Turn { seat: 1 }, "Cyndy decides");
    let options = GreedQuest::legal_inputs(&t.p, t.privates[1].as_ref(), 1);
    assert_eq!(
        options,
        vec![Input::Swap(1), Input::Swap(2)],
        "herself or Wayne"
    );
    t.give(&[(1, Input::Swap(2))]);
    assert_eq!(
        (t.room(0), t.room(1), t.room(2)),
        (5, 5, 2),
        "Wayne trades with Fade"
    );
    assert!(t.said("Cyndy wins the duel."));
    assert!(t.said("Cyndy chooses Wayne to change places."));
}

#[test]
fn duel_example_giles_and_fade() {
    // "Giles and Fade both play a Go! 7. The duel continues; Giles plays a Go! 3 and Fade
    // plays Even Chance. Giles has won the duel."
    let pos = Position::new(basic(3))
        .room(0, 2, In)
        .room(1, 4, In)
        .room(2, 4, In)
        .hand(0, &with(EvenChance))
        .hand(1, &[Go8, Go7, Go3, Go1, Go2])
        .hand(2, &[Go8, Go7, EvenChance, Go1, Go2]);
    let mut t = Table::new(pos, &["Mark", "Giles", "Fade"]);
    t.lay(&[(0, EvenChance), (1, Go8), (2, Go8)]);
    t.lay(&[(1, Go7), (2, Go7)]);
    assert!(t.said("Giles and Fade tie; the duel goes on."));
    t.lay(&[(1, Go3), (2, EvenChance)]);
    assert!(t.said("Giles wins the duel."));
    assert_eq!(t.pending(), Pending::Turn { seat: 1 });
}

#[test]
fn room_six_example_michelle_and_mark() {
    // "Michelle is in Room 6 and plays Curse! Mark, who is not in Room 6, also plays Curse!
    // Since Michelle's card is not unique, she does not get to move – but her card is
    // discarded, and Mark's Curse! still takes effect."
    let pos = Position::new(basic(3))
        .room(0, 6, In)
        .room(1, 4, In)
        .room(2, 3, In)
        .hand(0, &with(Curse))
        .hand(1, &with(Curse))
        .hand(2, &with(Go5));
    let mut t = Table::new(pos, &["Michelle", "Mark", "Jeff"]);
    t.lay(&[(0, Curse), (1, Curse), (2, Go5)]);
    assert_eq!(t.room(0), 6, "Michelle does not get to move");
    assert_eq!(
        t.room(2),
        2,
        "Mark's Curse! still takes effect: Jeff's win moves him back"
    );
    assert!(
        t.p.seats[0].discards.contains(Curse),
        "her card is discarded"
    );
}

// ----------------------------------------------------------------------------------------
// Each card alone.

#[test]
fn highest_go_moves_one_room_forward() {
    // "The person who plays the highest Go! card on a given turn moves one space forward."
    let pos = Position::new(basic(3))
        .hand(0, &with(Go8))
        .hand(1, &with(Go6))
        .hand(2, &with(Go7));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Go8), (1, Go6), (2, Go7)]);
    assert_eq!((t.room(0), t.room(1), t.room(2)), (2, 1, 1));
    assert!(t.next_turn());
    assert_eq!(t.p.turn, 2);
    assert_eq!(
        t.p.seats[0].hand, 5,
        "each player draws enough cards to bring his hand back up to five"
    );
}

#[test]
fn equal_winning_go_cards_both_move() {
    // "If two people both play the same winning Go! card, then both move."
    let pos = Position::new(basic(3))
        .hand(0, &with(Go7))
        .hand(1, &with(Go7))
        .hand(2, &with(Go2));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Go7), (1, Go7), (2, Go2)]);
    assert_eq!((t.room(0), t.room(1), t.room(2)), (2, 2, 1));
}

#[test]
fn loot_the_bodies_discards_the_hand_and_draws_five_at_once() {
    // "Discard this card and your whole hand and draw five new cards immediately."
    let pos = Position::new(basic(2))
        .hand(0, &with(Loot))
        .deck_top(0, &[Wild, SecretDoor, SeeYa, Go8, Go8])
        .hand(1, &with(Go3));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Loot), (1, Go3)]);
    let a = &t.p.seats[0];
    assert_eq!(
        a.face_down, 4,
        "the rest of the hand is discarded (face down)"
    );
    assert!(a.discards.contains(Loot));
    assert_eq!(a.hand, 5);
    for card in [Wild, SecretDoor, SeeYa, Go8] {
        assert!(t.hand(0).contains(card), "drew the five new cards: {card}");
    }
    assert!(t.said("A's Loot the Bodies!: the whole hand is discarded and 5 new cards drawn."));
}

#[test]
fn one_dragon_attack_cancels_every_card() {
    // "All cards in play are canceled."
    let pos = Position::new(basic(3))
        .hand(0, &with(DragonAttack))
        .hand(1, &with(Go8))
        .hand(2, &with(SecretDoor));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, DragonAttack), (1, Go8), (2, SecretDoor)]);
    assert_eq!((t.room(1), t.room(2)), (1, 1));
    assert!(t.said("B's Go! 8 is canceled by A's Dragon ATTACK!!."));
}

#[test]
fn two_dragon_attacks_are_discarded_and_play_goes_on() {
    // "unless two or more Dragon ATTACK!! cards are played on the same turn, in which case
    // the dragons are too busy attacking each other ...; discard the Dragon ATTACK!! cards."
    let pos = Position::new(basic(3))
        .hand(0, &with(DragonAttack))
        .hand(1, &with(DragonAttack))
        .hand(2, &with(Go2));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, DragonAttack), (1, DragonAttack), (2, Go2)]);
    assert_eq!(t.room(2), 2);
}

#[test]
fn two_meeks_fight_a_probate_battle_and_the_highest_wins() {
    // "If two or more The Meek Shall Inherit cards are played on the same turn, ... discard
    // all The Meek Shall Inherit cards immediately."
    let pos = Position::new(basic(4))
        .hand(0, &with(Meek))
        .hand(1, &with(Meek))
        .hand(2, &with(Go2))
        .hand(3, &with(Go6));
    let mut t = Table::new(pos, &["A", "B", "C", "D"]);
    t.lay(&[(0, Meek), (1, Meek), (2, Go2), (3, Go6)]);
    assert_eq!((t.room(2), t.room(3)), (1, 2));
}

#[test]
fn two_curses_cancel_each_other() {
    // "Multiple Curses played on the same turn ... cancel the cards in retribution."
    let pos = Position::new(basic(3))
        .room(2, 5, In)
        .hand(0, &with(Curse))
        .hand(1, &with(Curse))
        .hand(2, &with(Go6));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Curse), (1, Curse), (2, Go6)]);
    assert_eq!(t.room(2), 6, "the winner moves forward");
}

#[test]
fn curse_turns_secret_door_and_see_ya_backward() {
    // "This affects the player of the winning Go! card, as well as anyone who plays See Ya!
    // or Secret Door."
    let pos = Position::new(basic(4))
        .room(1, 4, In)
        .room(2, 8, Out)
        .room(3, 4, In)
        .hand(0, &with(Curse))
        .hand(1, &with(SecretDoor))
        .hand(2, &with(SeeYa))
        .hand(3, &with(Go3));
    let mut t = Table::new(pos, &["A", "B", "C", "D"]);
    t.lay(&[(0, Curse), (1, SecretDoor), (2, SeeYa), (3, Go3)]);
    assert_eq!(t.room(1), 2, "Secret Door: two rooms backward");
    assert_eq!(
        t.room(2),
        9,
        "See Ya! heading out, one Go! in play: one room backward"
    );
    assert_eq!(t.room(3), 3);
}

#[test]
fn dragon_sighting_cancels_go_tracking_and_see_ya_in_its_room_and_the_one_behind() {
    // "Everyone in your room and the room behind you hears a rumor of a dragon in the area.
    // All Go!, Tracking, and See Ya! cards played by people in those two rooms are discarded
    // immediately without effect."
    let pos = Position::new(basic(5))
        .room(0, 4, In)
        .room(1, 4, In)
        .room(2, 3, In)
        .room(3, 3, In)
        .room(4, 6, In)
        .hand(0, &with(DragonSighting))
        .hand(1, &with(Go8))
        .hand(2, &with(SeeYa))
        .hand(3, &with(Go7))
        .hand(4, &with(Go2));
    let mut t = Table::new(pos, &["A", "B", "C", "D", "E"]);
    t.lay(&[
        (0, DragonSighting),
        (1, Go8),
        (2, SeeYa),
        (3, Go7),
        (4, Go2),
    ]);
    assert_eq!((t.room(1), t.room(2), t.room(3)), (4, 3, 3));
    assert_eq!(
        t.room(4),
        7,
        "the Go! 2 from Room 6 is the only one left, and wins"
    );
}

#[test]
fn secret_door_moves_two_rooms_forward() {
    // "Move two rooms forward."
    let pos = Position::new(basic(2))
        .room(0, 3, In)
        .hand(0, &with(SecretDoor))
        .hand(1, &with(Go1));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, SecretDoor), (1, Go1)]);
    assert_eq!(t.room(0), 5);
}

#[test]
fn see_ya_moves_one_room_per_go_card_in_play() {
    // "Move one room forward for every Go! card in play."
    let pos = Position::new(basic(4))
        .hand(0, &with(SeeYa))
        .hand(1, &with(Go1))
        .hand(2, &with(Go5))
        .hand(3, &with(Wild));
    let mut t = Table::new(pos, &["A", "B", "C", "D"]);
    t.lay(&[(0, SeeYa), (1, Go1), (2, Go5), (3, Wild)]);
    assert_eq!(t.room(0), 4, "three Go! cards, Go WILD! included");
}

#[test]
fn go_wild_is_valued_after_every_card_is_seen() {
    // "you don't have to declare what number it is until you've seen all the other cards!"
    let pos = Position::new(basic(3))
        .hand(0, &with(Wild))
        .hand(1, &with(Go6))
        .hand(2, &with(Meek));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Wild), (1, Go6), (2, Meek)]);
    assert_eq!(t.pending(), Pending::Turn { seat: 0 });
    assert_eq!(
        GreedQuest::legal_inputs(&t.p, None, 0).len(),
        8,
        "any whole number from 1 to 8"
    );
    assert!(matches!(
        t.step(&[(0, Input::Wild(9))]),
        Err(RuleError::Illegal { seat: 0, .. })
    ));
    t.give(&[(0, Input::Wild(1))]);
    assert_eq!(
        (t.room(0), t.room(1)),
        (2, 1),
        "under the Meek, a Go WILD! named 1 wins"
    );
}

#[test]
fn two_go_wilds_are_valued_in_one_sealed_step() {
    let pos = Position::new(basic(3))
        .hand(0, &with(Wild))
        .hand(1, &with(Wild))
        .hand(2, &with(Go8));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Wild), (1, Wild), (2, Go8)]);
    assert_eq!(
        t.pending(),
        Pending::Together {
            seats: vec![0, 1],
            seal: Seal::UntilAll
        }
    );
    t.give(&[(0, Input::Wild(8)), (1, Input::Wild(7))]);
    assert_eq!((t.room(0), t.room(1), t.room(2)), (2, 1, 2));
}

#[test]
fn even_chance_swaps_with_an_even_winner_and_keeps_facings() {
    // "The player of Even Chance swaps rooms with the person who played the winning Go!
    // card. ... Orientation is preserved."
    let pos = Position::new(basic(3))
        .room(0, 2, In)
        .room(1, 10, Out)
        .hand(0, &with(EvenChance))
        .hand(1, &with(Go6))
        .hand(2, &with(Go1));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, EvenChance), (1, Go6), (2, Go1)]);
    assert_eq!((t.room(0), t.room(1)), (9, 2));
    assert_eq!((t.p.seats[0].facing, t.p.seats[1].facing), (In, Out));
}

#[test]
fn even_chance_does_nothing_on_an_odd_winner_and_odd_reversal_takes_it() {
    // "If the winning card is odd, or there was no winning Go! card, then nothing happens."
    // "Odd Reversal is exactly like Even Chance, except that it takes effect when the
    // winning Go! card is odd."
    let pos = Position::new(basic(3))
        .room(0, 2, In)
        .room(1, 2, In)
        .room(2, 4, In)
        .hand(0, &with(EvenChance))
        .hand(1, &with(OddReversal))
        .hand(2, &with(Go7));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, EvenChance), (1, OddReversal), (2, Go7)]);
    assert_eq!((t.room(0), t.room(1), t.room(2)), (2, 5, 2));
    assert!(t.said("A's Even Chance does nothing: the winning Go! is odd."));
}

#[test]
fn tracking_moves_one_room_closer_to_the_winner_even_backward() {
    // "you move one room closer to the player of the winning Go! card. (Yes, this means you
    // might move backward – caveat adventurer!)"
    let pos = Position::new(basic(3))
        .room(0, 8, In)
        .room(1, 4, In)
        .hand(0, &with(Tracking))
        .hand(1, &with(Go5))
        .hand(2, &with(Go2));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Tracking), (1, Go5), (2, Go2)]);
    assert_eq!(t.room(0), 7);
}

#[test]
fn tracking_with_several_winners_lets_the_tracker_choose() {
    // "If there is more than one winning Go! card, you may choose which player to track."
    let pos = Position::new(basic(3))
        .room(0, 5, In)
        .room(1, 2, In)
        .room(2, 10, In)
        .hand(0, &with(Tracking))
        .hand(1, &with(Go6))
        .hand(2, &with(Go6));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Tracking), (1, Go6), (2, Go6)]);
    assert_eq!(t.pending(), Pending::Turn { seat: 0 });
    t.give(&[(0, Input::Track(2))]);
    assert_eq!(t.room(0), 6);
}

#[test]
fn tracking_stays_put_without_a_winner_or_in_the_winners_room() {
    // "If the player of the winning Go! card ends up in the room you're already in, or if
    // there is no winning Go! card this turn, stay put."
    let pos = Position::new(basic(2))
        .room(0, 5, In)
        .room(1, 4, In)
        .hand(0, &with(Tracking))
        .hand(1, &with(Go3));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Tracking), (1, Go3)]);
    assert_eq!(t.room(0), 5, "B moved into A's room");
    let pos = Position::new(basic(2))
        .room(0, 5, In)
        .hand(0, &with(Tracking))
        .hand(1, &with(Curse));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Tracking), (1, Curse)]);
    assert_eq!(t.room(0), 5, "no winning Go!");
}

// ----------------------------------------------------------------------------------------
// Each room alone.

#[test]
fn room_1_is_immune_to_curse() {
    // "players in this room are immune to the Curse! card."
    let pos = Position::new(basic(3))
        .room(1, 4, In)
        .hand(0, &with(Go8))
        .hand(1, &with(Go8))
        .hand(2, &with(Curse));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Go8), (1, Go8), (2, Curse)]);
    assert_eq!(t.room(0), 2, "in the Tavern: forward despite the Curse!");
    assert_eq!(t.room(1), 3, "elsewhere: backward");
}

#[test]
fn room_2_voids_dragon_cards() {
    // "Dragon Sighting and Dragon ATTACK!! cards played in this room are immediately
    // discarded without effect."
    let pos = Position::new(basic(3))
        .room(0, 2, In)
        .room(1, 2, In)
        .room(2, 2, In)
        .hand(0, &with(DragonAttack))
        .hand(1, &with(DragonSighting))
        .hand(2, &with(Go4));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, DragonAttack), (1, DragonSighting), (2, Go4)]);
    assert_eq!(t.room(2), 3);
}

#[test]
fn room_3_alone_tracking_overshoots() {
    // "A player who is alone and plays a Tracking card may end up tracking someone in Room 2
    // or Room 4. In that case, he 'overshoots' and moves to Room 1 or Room 5, respectively.
    // If he tracks someone who ends up in Room 3, however, he stays put."
    for (winner_from, expected) in [(1, 1), (3, 5), (2, 3)] {
        let pos = Position::new(basic(3))
            .room(0, 3, In)
            .room(1, winner_from, In)
            .room(2, 12, Out)
            .hand(0, &with(Tracking))
            .hand(1, &with(Go8))
            .hand(2, &with(Go1));
        let mut t = Table::new(pos, &["A", "B", "C"]);
        t.lay(&[(0, Tracking), (1, Go8), (2, Go1)]);
        assert_eq!(
            t.room(0),
            expected,
            "winner now in Room {}",
            winner_from + 1
        );
    }
    // Not alone: an ordinary one-room step.
    let pos = Position::new(basic(3))
        .room(0, 3, In)
        .room(1, 7, In)
        .room(2, 3, In)
        .hand(0, &with(Tracking))
        .hand(1, &with(Go8))
        .hand(2, &with(Go1));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Tracking), (1, Go8), (2, Go1)]);
    assert_eq!(t.room(0), 4);
}

#[test]
fn room_4_has_no_effect() {
    let pos = Position::new(basic(2))
        .room(0, 4, In)
        .hand(0, &with(Go2))
        .hand(1, &with(Go1));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Go2), (1, Go1)]);
    assert_eq!(t.room(0), 5);
}

#[test]
fn room_5_subtracts_two_without_wrapping() {
    // "someone who plays a Go! 2 ends up with a 0, and someone who plays a Go! 1 ends up with
    // a -1."
    let pos = Position::new(basic(2))
        .room(0, 5, In)
        .hand(0, &with(Go3))
        .hand(1, &with(Go2));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Go3), (1, Go2)]);
    assert_eq!(
        (t.room(0), t.room(1)),
        (5, 2),
        "Go! 3 counts 1 and loses to Go! 2"
    );
}

#[test]
fn room_5_minus_one_wins_under_the_meek() {
    // "This can be very helpful if The Meek Shall Inherit! is played!"
    let pos = Position::new(basic(3))
        .room(0, 5, In)
        .hand(0, &with(Go1))
        .hand(1, &with(Go1))
        .hand(2, &with(Meek));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Go1), (1, Go1), (2, Meek)]);
    assert_eq!((t.room(0), t.room(1)), (6, 1));
    assert!(t.said("A's Go! 1 (counting -1) wins."), "{:#?}", t.lines());
}

#[test]
fn room_6_unique_card_moves_forward_and_wild_matches_no_numbered_go() {
    // "To leave this room, the card must be unique; Go WILD! does not match any numbered Go!
    // card." "no card played here has any effect on the other players."
    let pos = Position::new(basic(3))
        .room(0, 6, In)
        .hand(0, &with(Wild))
        .hand(1, &with(Go8))
        .hand(2, &with(Go3));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Wild), (1, Go8), (2, Go3)]);
    assert_eq!(t.room(0), 7);
    assert_eq!(
        t.room(1),
        2,
        "the Go WILD! played in Room 6 does not compete"
    );
    assert!(t.next_turn(), "and is never valued");
}

#[test]
fn room_7_adds_one() {
    // Reconstructed: the Hall of Echoes, a Go! counts 1 more.
    let pos = Position::new(basic(2))
        .room(0, 7, In)
        .hand(0, &with(Go7))
        .hand(1, &with(Go8));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Go7), (1, Go8)]);
    assert_eq!((t.room(0), t.room(1)), (8, 2), "8 and 8: both win");
}

#[test]
fn room_8_no_refill_and_an_empty_hand_moves_on_and_loses_a_turn() {
    // GAME-DATA: "you can't draw to refill your hand; if your hand runs out before you leave,
    // you move forward anyway but lose your next turn."
    let pos = Position::new(basic(2))
        .room(0, 8, In)
        .hand(0, &[Go2])
        .hand(1, &with(Go5));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Go2), (1, Go5)]);
    assert_eq!(t.room(0), 9, "forward anyway");
    assert_eq!(t.p.seats[0].hand, 5, "refilled in Room 9");
    assert_eq!(
        t.pending(),
        Pending::Together {
            seats: vec![1],
            seal: Seal::UntilAll
        },
        "A loses a turn"
    );
    let pos = Position::new(basic(2))
        .room(0, 8, In)
        .hand(0, &[Go2, Go3])
        .hand(1, &with(Go5));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Go2), (1, Go5)]);
    assert_eq!(
        (t.room(0), t.p.seats[0].hand),
        (8, 1),
        "no refill in the Trap"
    );
}

#[test]
fn room_8_playing_the_last_card_to_leave_costs_no_turn() {
    // "Playing the last card from your hand does not until the end of your turn – so if you
    // play your last card and it moves you out of Room 8, you do not lose a turn."
    let pos = Position::new(basic(2))
        .room(0, 8, In)
        .hand(0, &[Go8])
        .hand(1, &with(Go5));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Go8), (1, Go5)]);
    assert_eq!(t.room(0), 9);
    assert!(!t.p.seats[0].lose_turn);
    assert_eq!(
        t.pending(),
        Pending::Together {
            seats: vec![0, 1],
            seal: Seal::UntilAll
        }
    );
}

#[test]
fn room_8_loot_the_bodies_empties_the_hand() {
    // "Playing Loot the Bodies! definitely counts as emptying your hand!"
    let pos = Position::new(basic(2))
        .room(0, 8, In)
        .hand(0, &with(Loot))
        .hand(1, &with(Go5));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Loot), (1, Go5)]);
    assert!(t.said("A's Loot the Bodies!: the whole hand is discarded and 0 new cards drawn."));
    assert_eq!(t.room(0), 9);
    assert!(t.said("A will lose the next turn, trapped without cards."));
}

#[test]
fn room_9_plays_the_top_card_of_the_deck() {
    // "do not play from your hand after that point."
    let pos = Position::new(basic(2))
        .room(0, 9, In)
        .hand(0, &with(Go1))
        .deck_top(0, &[Go7, SeeYa])
        .hand(1, &with(Go5));
    let mut t = Table::new(pos, &["A", "B"]);
    assert_eq!(
        GreedQuest::legal_inputs(&t.p, t.privates[0].as_ref(), 0),
        vec![Input::Card(Go7)]
    );
    let wrong = t.step(&[(0, Input::Card(Go1)), (1, Input::Card(Go5))]);
    assert!(
        matches!(wrong, Err(RuleError::PrivateMismatch { seat: 0, .. })),
        "{wrong:?}"
    );
    let before = public_hash(&t.p);
    let _ = before;
    t.lay(&[(0, Go7), (1, Go5)]);
    assert_eq!(t.room(0), 10);
    assert!(t.hand(0).contains(Go1), "the hand is untouched");
    assert!(t.said("A plays Go! 7 from the top of the deck."));
}

#[test]
fn room_10_voids_secret_door_and_see_ya() {
    // "Secret Door and See Ya! cards played in this room are immediately discarded without
    // effect."
    let pos = Position::new(basic(3))
        .room(0, 10, In)
        .room(1, 10, In)
        .hand(0, &with(SecretDoor))
        .hand(1, &with(SeeYa))
        .hand(2, &with(Go2));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, SecretDoor), (1, SeeYa), (2, Go2)]);
    assert_eq!((t.room(0), t.room(1)), (10, 10));
    assert!(t.said("A's Secret Door has no effect in Room 10"));
}

#[test]
fn room_11_keep_or_discard_is_sealed_and_leaves_the_table_unchanged() {
    // "Draw enough cards to refill your hand whether or not you discard the first card you
    // look at. ... it's the first one or nothing."
    let pos = Position::new(basic(2))
        .room(0, 11, In)
        .hand(0, &with(Go6))
        .deck_top(0, &[Meek, Go8, Curse])
        .hand(1, &with(Go7));
    let mut kept = Table::new(pos.clone(), &["A", "B"]);
    kept.lay(&[(0, Go6), (1, Go7)]);
    assert_eq!(
        kept.pending(),
        Pending::Together {
            seats: vec![0],
            seal: Seal::UntilAudit
        }
    );
    let mut discarded = Table::new(pos, &["A", "B"]);
    discarded.lay(&[(0, Go6), (1, Go7)]);
    assert_eq!(
        GreedQuest::legal_inputs(&kept.p, kept.privates[0].as_ref(), 0),
        vec![Input::KeepDrawn, Input::DiscardDrawn]
    );

    kept.give(&[(0, Input::KeepDrawn)]);
    discarded.give(&[(0, Input::DiscardDrawn)]);
    assert!(kept.hand(0).contains(Meek));
    assert!(!discarded.hand(0).contains(Meek) && discarded.hand(0).contains(Go8));
    assert_eq!(discarded.hand(0).len(), 5, "still refills to five");
    assert_eq!(
        discarded.privates[0]
            .as_ref()
            .and_then(|p| p.deck.first().copied()),
        Some(Meek),
        "the discarded card waits under the draw pile"
    );
    assert_eq!(
        public_hash(&kept.p),
        public_hash(&discarded.p),
        "nobody else can tell"
    );

    // A device without A's private side sees the choice closed and reaches the same table.
    let pos = Position::new(basic(2))
        .room(0, 11, In)
        .hand(0, &with(Go6))
        .deck_top(0, &[Meek, Go8, Curse])
        .hand(1, &with(Go7));
    let (mut p, mut privates) = pos.build().expect("position");
    privates[0] = None;
    let lay = Step::Inputs(vec![
        (0, Play::Open(Input::Card(Go6))),
        (1, Play::Open(Input::Card(Go7))),
    ]);
    GreedQuest::apply(&mut p, &mut privates, &lay).expect("lay");
    GreedQuest::apply(
        &mut p,
        &mut privates,
        &Step::Inputs(vec![(0, Play::Closed)]),
    )
    .expect("closed");
    assert_eq!(public_hash(&p), public_hash(&kept.p));
    // But the owner's own private side cannot take a closed choice.
    let mut owner = Table::new(
        Position::new(basic(2))
            .room(0, 11, In)
            .hand(0, &with(Go6))
            .hand(1, &with(Go7)),
        &["A", "B"],
    );
    owner.lay(&[(0, Go6), (1, Go7)]);
    let closed = GreedQuest::apply(
        &mut owner.p,
        &mut owner.privates,
        &Step::Inputs(vec![(0, Play::Closed)]),
    );
    assert!(matches!(
        closed,
        Err(RuleError::PrivateMismatch { seat: 0, .. })
    ));
}

#[test]
fn room_12_reverses_at_the_end_of_the_turn_and_walls_stop_moves() {
    // "At the end of a turn on which a player first reaches Room 12, he reverses direction."
    // "If the result of a move would carry a player into Room 1 or Room 12 and back out
    // again, the extra movement is wasted."
    let pos = Position::new(basic(2))
        .room(0, 11, In)
        .hand(0, &with(SecretDoor))
        .hand(1, &with(Go1));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, SecretDoor), (1, Go1)]);
    assert_eq!(t.room(0), 12, "no bouncing off Room 12");
    assert_eq!(t.p.seats[0].facing, Out);
    assert!(t.said("A reaches the Hoard and turns back toward the Tavern!"));
}

#[test]
fn no_bouncing_off_room_1_and_both_win_on_a_tie() {
    // "If two players reach Room 1 on the same turn, both win."
    let pos = Position::new(basic(3))
        .room(0, 2, Out)
        .room(1, 3, Out)
        .hand(0, &with(Go8))
        .hand(1, &with(SecretDoor))
        .hand(2, &with(Go1));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Go8), (1, SecretDoor), (2, Go1)]);
    assert_eq!(
        t.pending(),
        Pending::Over(hoard_rules::Outcome {
            winners: vec![0, 1],
            scores: vec![]
        })
    );
    assert!(t.said("A and B all win the game!"));
    assert!(matches!(
        t.step(&[(0, Input::Card(Go1))]),
        Err(RuleError::GameOver)
    ));
}

#[test]
fn a_tavern_reached_heading_in_is_no_win() {
    let pos = Position::new(basic(2))
        .room(0, 2, In)
        .hand(0, &with(Go8))
        .hand(1, &with(Curse));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Go8), (1, Curse)]);
    assert_eq!(t.room(0), 1);
    assert!(t.next_turn(), "only after the Hoard does the Tavern win");
}

// ----------------------------------------------------------------------------------------
// Combinations the rulebook names.

#[test]
fn wild_beats_every_go_in_a_duel() {
    // "For purposes of dueling only, a Go WILD! card beats all other Go! cards."
    let pos = Position::new(basic(3))
        .room(0, 2, In)
        .room(1, 4, In)
        .room(2, 4, In)
        .hand(0, &with(EvenChance))
        .hand(1, &[Go8, Go8, Go1, Go2, Go3])
        .hand(2, &[Go8, Wild, Go1, Go2, Go3]);
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, EvenChance), (1, Go8), (2, Go8)]);
    t.lay(&[(1, Go8), (2, Wild)]);
    assert!(t.said("C wins the duel."));
}

#[test]
fn duel_where_nobody_plays_a_go_lets_even_chance_pick() {
    // "(If everyone loses, then the person who played Even Chance gets to pick who to trade
    // with.)"
    let pos = Position::new(basic(3))
        .room(0, 2, In)
        .room(1, 4, In)
        .room(2, 4, In)
        .hand(0, &with(EvenChance))
        .hand(1, &[Go8, Curse, Go1, Go2, Go3])
        .hand(2, &[Go8, Meek, Go1, Go2, Go3]);
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, EvenChance), (1, Go8), (2, Go8)]);
    t.lay(&[(1, Curse), (2, Meek)]);
    assert_eq!(t.pending(), Pending::Turn { seat: 0 });
    t.give(&[(0, Input::Swap(2))]);
    assert_eq!((t.room(0), t.room(2)), (5, 2));
}

#[test]
fn ties_on_both_sides_of_even_chance_resolve_the_even_chance_duel_first() {
    // "In the rare event that there are ties on both sides, resolve the Even Chance duel
    // first."
    let pos = Position::new(basic(4))
        .room(0, 2, In)
        .room(1, 3, In)
        .room(2, 4, In)
        .room(3, 4, In)
        .hand(0, &[EvenChance, Go5, Go1, Go2, Go3])
        .hand(1, &[EvenChance, Go6, Go1, Go2, Go3])
        .hand(2, &[Go4, Go7, Go1, Go2, Go3])
        .hand(3, &[Go4, Go2, Go1, Go3, Go5]);
    let mut t = Table::new(pos, &["A", "B", "C", "D"]);
    t.lay(&[(0, EvenChance), (1, EvenChance), (2, Go4), (3, Go4)]);
    assert_eq!(
        t.pending(),
        Pending::Together {
            seats: vec![0, 1],
            seal: Seal::UntilAll
        },
        "Even Chance duel first"
    );
    t.lay(&[(0, Go5), (1, Go6)]);
    assert_eq!(
        t.pending(),
        Pending::Turn { seat: 1 },
        "B won and decides who changes places"
    );
    t.give(&[(1, Input::Swap(0))]);
    assert_eq!(
        t.pending(),
        Pending::Together {
            seats: vec![2, 3],
            seal: Seal::UntilAll
        },
        "then the winners' duel"
    );
    t.lay(&[(2, Go7), (3, Go2)]);
    t.give(&[(2, Input::Swap(3))]);
    assert_eq!((t.room(0), t.room(3)), (5, 2), "A trades places with D");
    assert_eq!((t.room(1), t.room(2)), (3, 5));
}

#[test]
fn even_chance_duel_with_no_winner_moves_nobody() {
    // "(If there is no winner, then no one moves.)"
    let pos = Position::new(basic(3))
        .room(2, 5, In)
        .hand(0, &[EvenChance, Curse, Go1, Go2, Go3])
        .hand(1, &[EvenChance, Meek, Go1, Go2, Go3])
        .hand(2, &with(Go4));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, EvenChance), (1, EvenChance), (2, Go4)]);
    t.lay(&[(0, Curse), (1, Meek)]);
    assert!(t.next_turn());
    assert_eq!((t.room(0), t.room(1), t.room(2)), (1, 1, 6));
}

#[test]
fn room_5_zero_is_even_for_even_chance_under_the_meek() {
    // Room 5: "someone who plays a Go! 2 ends up with a 0"; Even Chance "takes effect when
    // played on a turn where the winning Go! card was even".
    let pos = Position::new(basic(4))
        .room(0, 5, In)
        .room(3, 8, In)
        .hand(0, &with(Go2))
        .hand(1, &with(Go1))
        .hand(2, &with(Meek))
        .hand(3, &with(EvenChance));
    let mut t = Table::new(pos, &["A", "B", "C", "D"]);
    t.lay(&[(0, Go2), (1, Go1), (2, Meek), (3, EvenChance)]);
    assert_eq!(
        (t.room(0), t.room(3)),
        (8, 6),
        "A's 0 wins and is even: D swaps with A"
    );
}

#[test]
fn room_9_duels_with_the_top_card_of_the_deck() {
    // Room 9: "do not play from your hand after that point" — in a duel too.
    let pos = Position::new(basic(3))
        .room(0, 2, In)
        .room(1, 9, In)
        .room(2, 9, In)
        .hand(0, &with(Go8))
        .hand(1, &with(Wild))
        .deck_top(1, &[EvenChance, Go2])
        .hand(2, &with(Go1))
        .deck_top(2, &[EvenChance, Go5]);
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Go8), (1, EvenChance), (2, EvenChance)]);
    assert_eq!(
        t.pending(),
        Pending::Together {
            seats: vec![1, 2],
            seal: Seal::UntilAll
        }
    );
    assert_eq!(
        GreedQuest::legal_inputs(&t.p, t.privates[1].as_ref(), 1),
        vec![Input::Card(Go2)]
    );
    t.lay(&[(1, Go2), (2, Go5)]);
    assert!(t.said("C wins the duel."));
    assert!(t.hand(1).contains(Wild), "B's Go WILD! stays in hand");
}

#[test]
fn short_game_ignores_every_room_but_the_tavern() {
    // "ignore all room special effects except the effect for Room 1."
    let short = Config {
        length: Length::Short,
        ..basic(3)
    };
    let pos = Position::new(short)
        .room(0, 5, In)
        .room(1, 10, In)
        .hand(0, &with(Go8))
        .hand(1, &with(SecretDoor))
        .hand(2, &with(Curse));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Go8), (1, SecretDoor), (2, Curse)]);
    assert_eq!(
        t.room(0),
        4,
        "Go! 8 counts 8 in Room 5, and the Curse! still works"
    );
    assert_eq!(t.room(1), 8, "Room 10 does not stop the Secret Door");
}

#[test]
fn shortest_game_ends_on_reaching_the_hoard() {
    // "the first player to reach Room 12 is the winner."
    let shortest = Config {
        length: Length::Shortest,
        ..basic(2)
    };
    let pos = Position::new(shortest)
        .room(0, 11, In)
        .hand(0, &with(Go8))
        .hand(1, &with(Go1));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Go8), (1, Go1)]);
    assert_eq!(
        t.pending(),
        Pending::Over(hoard_rules::Outcome {
            winners: vec![0],
            scores: vec![]
        })
    );
}

#[test]
fn this_is_my_room_leaders_duel_between_turns_and_losers_move_back() {
    // "If two (or more) players are in the lead at the end of a turn, they have to duel! ...
    // The winner of the duel stays put; the others have to move back one room."
    let mine = Config {
        this_is_my_room: true,
        ..basic(3)
    };
    let pos = Position::new(mine)
        .room(0, 3, In)
        .room(1, 4, In)
        .room(2, 2, In)
        .hand(0, &with(Go8))
        .hand(1, &[Go1, Go7, Go2, Go3, Go4])
        .hand(2, &with(Go3));
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Go8), (1, Go1), (2, Go3)]);
    assert_eq!(
        t.pending(),
        Pending::Together {
            seats: vec![0, 1],
            seal: Seal::UntilAll
        }
    );
    assert_eq!(
        t.p.seats[0].hand, 5,
        "the duel takes place after players have replenished their hands"
    );
    t.lay(&[(0, Go1), (1, Go7)]);
    assert_eq!((t.room(0), t.room(1)), (3, 4));
    assert_eq!(t.p.seats[0].hand, 5, "refilled again after the duel");
    assert!(t.next_turn());
}

#[test]
fn this_is_my_room_nobody_winning_moves_all_leaders_back() {
    // "If no one wins, then all the leaders move back one room and the duel is over."
    let mine = Config {
        this_is_my_room: true,
        ..basic(2)
    };
    let pos = Position::new(mine)
        .room(0, 5, In)
        .room(1, 5, In)
        .hand(0, &[Curse, Meek, Go1, Go1, Go2])
        .hand(1, &[Tracking, Loot, Go1, Go1, Go2]);
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Go1), (1, Go1)]);
    assert_eq!((t.room(0), t.room(1)), (6, 6));
    t.lay(&[(0, Curse), (1, Tracking)]);
    assert_eq!((t.room(0), t.room(1)), (5, 5));
}

#[test]
fn this_is_my_room_opposite_facings_do_not_duel() {
    // "Players in the same room, but heading in opposite directions, do not have to duel."
    let mine = Config {
        this_is_my_room: true,
        ..basic(2)
    };
    let pos = Position::new(mine)
        .room(0, 2, In)
        .room(1, 4, Out)
        .hand(0, &with(Go1))
        .hand(1, &with(Go1));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Go1), (1, Go1)]);
    assert_eq!((t.room(0), t.room(1)), (3, 3));
    assert!(t.next_turn());
}

#[test]
fn survival_losing_cards_die_and_are_not_reshuffled() {
    // "Any card which is played without effect (e.g., a losing Go! card or a Curse! which was
    // canceled by another Curse!) is dead – remove it from play. When discards are
    // reshuffled, do not include dead cards."
    let survival = Config {
        attrition: Attrition::Survival,
        ..basic(3)
    };
    let pos = Position::new(survival)
        .hand(0, &with(Go8))
        .hand(1, &with(Curse))
        .hand(2, &with(Curse))
        .deck_top(1, &[]);
    let mut t = Table::new(pos, &["A", "B", "C"]);
    t.lay(&[(0, Go8), (1, Curse), (2, Curse)]);
    assert!(t.p.seats[1].dead.contains(Curse));
    assert!(t.p.seats[2].dead.contains(Curse));
    assert!(
        t.p.seats[0].discards.contains(Go8),
        "the winning Go! had effect"
    );
    assert!(t.said("B's Curse! is dead and leaves the game."));
}

#[test]
fn survival_down_to_five_cards_goes_back_and_loses_a_turn() {
    // "If a player gets down to five cards in his deck (so that he has no draw pile at all),
    // then he must return to Room 1 if he was facing inward, or Room 12 if he was facing
    // outward, and lose his next turn while he reshuffles all his cards and draws a new hand."
    let survival = Config {
        attrition: Attrition::Survival,
        ..basic(2)
    };
    let dead = [
        Go1,
        Go1,
        Go2,
        Go2,
        Go3,
        Go3,
        Go4,
        Go4,
        Go5,
        Go5,
        Go6,
        Go6,
        Go7,
        Go7,
        Go8,
        Loot,
        DragonAttack,
        Meek,
        Curse,
        DragonSighting,
        SecretDoor,
        SeeYa,
    ];
    let pos = Position::new(survival)
        .room(0, 9, Out)
        .room(1, 4, In)
        .dead(0, &dead)
        .hand(0, &[Go8, Wild, EvenChance, OddReversal, Tracking])
        .hand(1, &with(Curse));
    let mut t = Table::new(pos, &["A", "B"]);
    assert_eq!(
        t.p.seats[0].deck, 1,
        "one card left to draw: the second Tracking"
    );
    // In Room 9 A plays the top card; with no winning Go! the Tracking moves nobody and dies.
    t.lay(&[(0, Tracking), (1, Curse)]);
    assert_eq!(t.room(0), 12, "heading out: back to Room 12");
    assert!(t.p.seats[0].dead.is_empty(), "reshuffles all his cards");
    assert_eq!(t.p.seats[0].hand, 5);
    assert_eq!(
        t.pending(),
        Pending::Together {
            seats: vec![1],
            seal: Seal::UntilAll
        },
        "loses his next turn"
    );
}

#[test]
fn survival_room_9_lone_dragon_attack_locks_the_game() {
    // A consequence of the rules as written, kept faithfully: in Room 9 a seat plays the top
    // of its draw pile; under Survival of the Fittest every card it plays without effect
    // dies, but a lone Dragon ATTACK!! always has effect. Once that is the only card left to
    // draw (its hand of five is never played in Room 9, and six live cards are not "down to
    // five"), it comes back every turn and cancels every card: nobody ever moves again.
    let survival = Config {
        attrition: Attrition::Survival,
        ..basic(2)
    };
    let dead = [
        Go1,
        Go1,
        Go2,
        Go2,
        Go3,
        Go3,
        Go4,
        Go4,
        Go5,
        Go5,
        Go6,
        Go6,
        Go7,
        Go7,
        Go8,
        Go8,
        Loot,
        Meek,
        Curse,
        DragonSighting,
        SecretDoor,
        SeeYa,
    ];
    let pos = Position::new(survival)
        .room(0, 9, In)
        .room(1, 5, In)
        .dead(0, &dead)
        .hand(0, &[Wild, EvenChance, OddReversal, Tracking, Tracking])
        .hand(1, &with(Go8));
    let mut t = Table::new(pos, &["A", "B"]);
    let mut rooms = vec![];
    for _ in 0..3 {
        let b = GreedQuest::legal_inputs(&t.p, t.privates[1].as_ref(), 1)[0];
        let Input::Card(b) = b else { panic!("a card") };
        t.lay(&[(0, DragonAttack), (1, b)]);
        rooms.push((t.room(0), t.room(1)));
    }
    assert_eq!(rooms, vec![(9, 5); 3]);
    assert_eq!(
        t.p.seats[0].deck, 1,
        "the Dragon ATTACK!! is reshuffled back every turn"
    );
}

#[test]
fn uniqueness_every_special_card_dies_once_played_and_the_hoard_resurrects_them() {
    // "Each non-Go! card is unique and may only be played once. Instead of going into the
    // discards for reshuffling, it is dead." "reaching Room 12 for the first time allows you
    // to resurrect dead cards and return them to your deck"
    let unique = Config {
        attrition: Attrition::Uniqueness,
        ..basic(2)
    };
    let pos = Position::new(unique)
        .room(0, 10, In)
        .hand(0, &with(SecretDoor))
        .hand(1, &with(Go3));
    let mut t = Table::new(pos.clone(), &["A", "B"]);
    t.lay(&[(0, SecretDoor), (1, Go3)]);
    assert!(
        t.p.seats[0].dead.contains(SecretDoor),
        "dead although it had no effect in Room 10"
    );
    assert!(
        t.p.seats[1].discards.contains(Go3),
        "Go! cards are not unique"
    );
    let replay = t.step(&[(0, Input::Card(SecretDoor)), (1, Input::Card(Go1))]);
    assert!(
        matches!(replay, Err(RuleError::Illegal { seat: 0, .. })),
        "may only be played once"
    );

    let pos = Position::new(Config {
        attrition: Attrition::Uniqueness,
        ..basic(2)
    })
    .room(0, 11, In)
    .dead(0, &[Curse, Meek])
    .hand(0, &with(Go8))
    .hand(1, &with(Go3));
    let mut t = Table::new(pos, &["A", "B"]);
    t.lay(&[(0, Go8), (1, Go3)]);
    assert_eq!(t.room(0), 12);
    assert!(t.p.seats[0].dead.is_empty());
    assert!(t.said("A's 2 dead cards come back to life"));
}

// ----------------------------------------------------------------------------------------
// What every device checks, and what only a private side can.

#[test]
fn a_card_not_in_hand_is_a_private_mismatch_naming_seat_and_card() {
    let pos = Position::new(basic(2))
        .hand(0, &with(Go8))
        .hand(1, &with(Go5));
    let mut t = Table::new(pos, &["A", "B"]);
    let err = t
        .step(&[(0, Input::Card(Wild)), (1, Input::Card(Go5))])
        .expect_err("not in hand");
    assert_eq!(
        err,
        RuleError::PrivateMismatch {
            seat: 0,
            why: "it played Go WILD!, which is not in its hand".into()
        }
    );
    // Without the private side, only what the table shows is checked: it passes.
    let mut without = vec![None, t.privates[1].clone()];
    let mut p = t.p.clone();
    let step = Step::Inputs(vec![
        (0, Play::Open(Input::Card(Wild))),
        (1, Play::Open(Input::Card(Go5))),
    ]);
    assert!(GreedQuest::apply(&mut p, &mut without, &step).is_ok());
}

#[test]
fn public_checks_reject_impossible_cards_wrong_seats_and_unopened_plays() {
    let pos = Position::new(basic(2))
        .discards(0, &[Go8, Go8])
        .hand(0, &with(Go5))
        .hand(1, &with(Go5));
    let mut t = Table::new(pos, &["A", "B"]);
    let before = t.p.clone();
    assert!(matches!(
        GreedQuest::check_input(&t.p, 0, &Input::Card(Go8)),
        Err(RuleError::Illegal { seat: 0, .. })
    ));
    assert!(matches!(
        t.step(&[(0, Input::Card(Go5))]),
        Err(RuleError::WrongStep { .. })
    ));
    let closed = Step::Inputs(vec![(0, Play::Closed), (1, Play::Open(Input::Card(Go5)))]);
    assert!(matches!(
        GreedQuest::apply(&mut t.p, &mut t.privates, &closed),
        Err(RuleError::Illegal { seat: 0, .. })
    ));
    assert!(matches!(
        GreedQuest::apply(&mut t.p, &mut t.privates, &Step::Chance([0; 32])),
        Err(RuleError::WrongStep { .. })
    ));
    assert_eq!(t.p, before, "on error nothing changes");
}

#[test]
fn a_damaged_table_is_refused_without_panicking() {
    let pos = Position::new(basic(3))
        .hand(0, &with(Go5))
        .hand(1, &with(Go5))
        .hand(2, &with(Go5));
    let (mut p, mut privates) = pos.build().expect("position");
    p.seats.truncate(2);
    let step = Step::Inputs((0..3).map(|s| (s, Play::Open(Input::Card(Go5)))).collect());
    assert!(matches!(
        GreedQuest::apply(&mut p, &mut privates, &step),
        Err(RuleError::BadConfig(_))
    ));
}

#[test]
fn setup_accepts_two_to_six_seats() {
    assert!(GreedQuest::setup(&Config::new(1)).is_err());
    assert!(GreedQuest::setup(&Config::new(7)).is_err());
    for n in 2..=6 {
        let p = GreedQuest::setup(&Config::new(n)).expect("seats");
        assert_eq!(GreedQuest::pending(&p), Pending::Chance);
    }
}

#[test]
fn the_deal_shuffles_from_secret_and_draw_and_the_public_side_only_counts() {
    let config = Config::new(3);
    let mut p = GreedQuest::setup(&config).expect("setup");
    let mut privates: Vec<Option<Private>> = (0..3)
        .map(|s| Some(GreedQuest::private(&config, s, [s + 1; 32])))
        .collect();
    GreedQuest::apply(&mut p, &mut privates, &Step::Chance([9; 32])).expect("deal");
    let mut alone = GreedQuest::setup(&config).expect("setup");
    let mut none: Vec<Option<Private>> = vec![];
    GreedQuest::apply(&mut alone, &mut none, &Step::Chance([9; 32])).expect("deal");
    assert_eq!(p, alone);
    assert_eq!(p.seats[0].hand, 5);
    assert_eq!(p.seats[0].deck, 23);
    let a = privates[0].as_ref().expect("a");
    let b = privates[1].as_ref().expect("b");
    assert_ne!(
        a.hand, b.hand,
        "different secrets, different decks (with overwhelming odds)"
    );
    assert_eq!(a.key, *blake3::keyed_hash(&[1; 32], &[9; 32]).as_bytes());
    assert_eq!(
        GreedQuest::pending(&p),
        Pending::Together {
            seats: vec![0, 1, 2],
            seal: Seal::UntilAll
        }
    );
}
