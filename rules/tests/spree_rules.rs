//! Spree!'s rulebook, sentence by sentence: each test sets up the table a rule describes,
//! plays it, and checks the outcome, with the sentence quoted. The decisions the rulebook
//! leaves open (`rules/src/spree/mod.rs`) are tested here too, each named as such.

use crate::spree_support;

use hoard_rules::spree::board::{Sq, board};
use hoard_rules::spree::cards::{self, Suit};
use hoard_rules::spree::{
    Config, Contest, Event, Input, Phase, Spree, reachable, shot_targets, target,
};
use hoard_rules::{CardId, Game, Pending, Play, Seal, Step};
use spree_support::{Table, outcome, play_with, turn};

const H: Suit = Suit::Hearts;
const S: Suit = Suit::Spades;
const C: Suit = Suit::Clubs;
const D: Suit = Suit::Diamonds;
const JOKER: CardId = cards::POKER;

/// The first deck's card of this rank and suit (`second` for the other deck's copy).
fn card(rank: u8, suit: Suit) -> CardId {
    Suit::ALL.iter().position(|s| *s == suit).unwrap() as CardId * 13 + CardId::from(rank) - 2
}

fn second(rank: u8, suit: Suit) -> CardId {
    card(rank, suit) + 52
}

fn sq(x: u8, y: u8) -> Sq {
    Sq::new(x, y)
}

fn table(seats: u8) -> Table {
    Table::new(Config::new(seats))
}

fn hong_kong(seats: u8) -> Table {
    let mut c = Config::new(seats);
    c.hong_kong = true;
    Table::new(c)
}

fn walk(path: &[Sq]) -> Input {
    Input::Walk {
        path: path.to_vec(),
    }
}

/// The shot's die comes up `die`.
fn shot_die(t: &mut Table, die: u8) -> Vec<Event> {
    t.chance_for(|p| p.shot_die == Some(die))
}

fn lying(t: &Table, seat: u8) -> bool {
    t.public.pawns[usize::from(seat)].lying
}

fn shopper(t: &Table, seat: u8) -> Sq {
    t.public.pawns[usize::from(seat)].shopper
}

// ---- Setting up and taking turns --------------------------------------------------------

#[test]
fn two_poker_decks_with_jokers_are_shuffled_together_and_five_cards_dealt_to_each() {
    // "Shuffle the two poker decks together. ... Leave the jokers in the decks. ... Deal a
    // hand of five cards to each player."
    let config = Config::new(4);
    let mut p = Spree::setup(&config).unwrap();
    let Pending::Shuffle { cards, .. } = Spree::pending(&p) else {
        panic!("the game begins with a shuffle");
    };
    assert_eq!(cards.len(), 108);
    Spree::apply(&mut p, &mut [], &Step::Shuffled).unwrap();
    for seat in 0..4 {
        assert_eq!(
            Spree::pending(&p),
            Pending::Deal {
                to: seat,
                cards: p.deck.peek(5)
            }
        );
        Spree::apply(&mut p, &mut [], &Step::Dealt).unwrap();
    }
    assert!(p.hands.iter().all(|h| h.len() == 5));
    assert_eq!(p.deck.left(), 108 - 20);
    // "You can even use extra Jokers if you have them."
    let mut more = Config::new(4);
    Spree::set_variant_for_test(&mut more);
    let p = Spree::setup(&more).unwrap();
    let Pending::Shuffle { cards, .. } = Spree::pending(&p) else {
        panic!()
    };
    assert_eq!(cards.iter().filter(|c| cards::is_joker(**c)).count(), 8);
}

trait ExtraJokers {
    fn set_variant_for_test(config: &mut Config);
}

impl ExtraJokers for Spree {
    fn set_variant_for_test(config: &mut Config) {
        <Spree as hoard_rules::Listed>::set_variant(config, "extra-jokers").unwrap();
    }
}

#[test]
fn parking_goes_to_the_right_from_the_first_parker_and_play_begins_with_the_last_parker() {
    // "Starting with that player and moving to the right (counterclockwise), players take
    // turns parking ... Normal play now begins with player who parked last, and proceeds to
    // the left from there." Seats are numbered to the left.
    let g = play_with(&Config::new(5), 3, 60, &mut Spree::bot_input);
    let mut parkers = Vec::new();
    let mut first = None;
    let mut turns = Vec::new();
    let config = Config::new(5);
    let _ = hoard_rules::play::replay::<Spree>(
        &config,
        vec![None; 5],
        &g.steps,
        &g.dealer,
        &mut |_, _, events| {
            for e in events {
                match e {
                    Event::ParkRolls { first: f, .. } => first = Some(*f),
                    Event::Parked { seat, .. } => parkers.push(*seat),
                    Event::TurnBegins { seat, .. } => turns.push(*seat),
                    _ => {}
                }
            }
        },
    );
    let first = first.expect("someone parks first");
    let expected: Vec<u8> = (0..5).map(|k| (first + 5 - k) % 5).collect();
    assert_eq!(parkers, expected);
    assert_eq!(turns[0], *parkers.last().unwrap());
    assert_eq!(turns[1], (turns[0] + 1) % 5);
}

#[test]
fn nobody_parks_in_an_occupied_space() {
    // "You can't park in an occupied space, in case that wasn't obvious."
    let mut t = table(3);
    let taken = t.public.pawns[0].car.unwrap();
    t.public.phase = Phase::Parking { seat: 1, parked: 1 };
    t.public.pawns[1].car = None;
    assert!(t.step(turn(1, Input::Park { space: taken })).is_err());
}

#[test]
fn the_hand_is_drawn_up_to_five_at_the_beginning_and_at_the_end_of_a_turn() {
    // "At both the beginning and at the end of your turn, you draw your hand up to five."
    let mut t = table(3);
    t.at(0, sq(3, 4)).turn(0, 0);
    let two = t.give(0, card(2, H));
    t.give(1, card(3, H));
    t.play(0, Input::EndTurn);
    // Seat 0 draws four at the end of its turn...
    assert_eq!(
        Spree::pending(&t.public),
        Pending::Deal {
            to: 0,
            cards: t.public.deck.peek(4)
        }
    );
    t.step(Step::Dealt).unwrap();
    assert_eq!(t.public.hands[0].len(), 5);
    assert!(t.public.hands[0].contains(&two));
    // ...and seat 1 four at the beginning of its own.
    assert_eq!(
        Spree::pending(&t.public),
        Pending::Deal {
            to: 1,
            cards: t.public.deck.peek(4)
        }
    );
    t.step(Step::Dealt).unwrap();
    assert!(matches!(t.public.phase, Phase::Act(ref turn) if turn.seat == 1));
}

#[test]
fn when_the_deck_runs_out_the_discards_are_shuffled_into_a_new_deck() {
    // "When the deck runs out, you will shuffle the discards and replace the deck."
    let mut t = table(3);
    t.at(0, sq(3, 4)).turn(0, 0);
    t.public.deck.taken = t.public.deck.len;
    t.public.discard = vec![card(5, H), card(6, S), card(9, C)];
    t.play(0, Input::EndTurn);
    assert_eq!(
        Spree::pending(&t.public),
        Pending::Shuffle {
            deck: 0,
            cards: vec![card(5, H), card(6, S), card(9, C)]
        }
    );
    t.step(Step::Shuffled).unwrap();
    assert!(t.public.discard.is_empty());
    assert_eq!(t.public.deck.left(), 3);
    assert_eq!(t.public.deck.generation, Some(1));
}

#[test]
fn the_target_score_depends_on_the_number_of_players() {
    // "3 players 200 points ... 8 players 75 points"
    let table = [(3, 200), (4, 150), (5, 120), (6, 100), (7, 85), (8, 75)];
    for (seats, points) in table {
        assert_eq!(target(seats), points);
        assert_eq!(Config::new(seats).target, points);
    }
}

// ---- Moving ------------------------------------------------------------------------------

#[test]
fn a_move_goes_up_to_the_roll_and_may_stop_at_any_time() {
    // "roll both dice, and move as far as you like, up to the number you rolled. You don't
    // have to take the entire roll; you can stop at any time."
    let mut t = table(3);
    t.at(0, sq(3, 4)).turn(0, 3);
    assert!(
        t.step(turn(0, walk(&[sq(4, 4), sq(5, 4), sq(5, 3), sq(6, 3)])))
            .is_err()
    );
    t.play(0, walk(&[sq(4, 4)]));
    t.play(0, Input::EndTurn);
    assert_eq!(shopper(&t, 0), sq(4, 4));
}

#[test]
fn moves_are_orthogonal_never_through_walls_or_the_fountain() {
    // "You can only move orthogonally (not diagonally) and you can't move through walls.
    // You also can't move through the fountain."
    let mut t = table(3);
    t.at(0, sq(5, 4)).turn(0, 6);
    assert!(t.step(turn(0, walk(&[sq(6, 4)]))).is_err(), "the fountain");
    assert!(t.step(turn(0, walk(&[sq(6, 5)]))).is_err(), "diagonal");
    t.at(0, sq(1, 4)).turn(0, 6);
    assert!(t.step(turn(0, walk(&[sq(1, 3)]))).is_err(), "a wall");
    t.play(0, walk(&[sq(2, 4), sq(3, 4)]));
}

#[test]
fn shoppers_move_through_players_and_cars_and_may_stop_with_them() {
    // "You can move freely through other players, and through cars, and you can stop on the
    // same spot with another player (or car)."
    let mut t = table(3);
    let car = t.public.pawns[2].car.unwrap(); // (3, 0)
    t.at(1, sq(2, 0)).at(0, sq(1, 0)).turn(0, 4);
    t.play(0, walk(&[sq(2, 0), car, sq(4, 0)]));
    t.play(0, walk(&[sq(5, 0)]));
    t.at(0, sq(1, 0)).turn(0, 1);
    t.play(0, walk(&[sq(2, 0)]));
    assert_eq!(shopper(&t, 0), shopper(&t, 1));
}

#[test]
fn the_double_back_example_from_the_jc_to_the_9c_and_back_is_refused() {
    // "The one thing you can't do is double back. ... For example, moving from the Jc to
    // the 9c and back to the Jc in two steps."
    let (jc, nine_c) = (sq(4, 7), sq(3, 7));
    assert_eq!(
        board().kind(jc),
        hoard_rules::spree::board::Kind::Shop(cards::face(card(11, C)).unwrap())
    );
    let mut t = table(3);
    t.at(0, jc).turn(0, 6);
    assert!(t.step(turn(0, walk(&[nine_c, jc]))).is_err());
    // The same, a step at a time: the square just come from stays barred.
    t.play(0, walk(&[nine_c]));
    assert!(t.step(turn(0, walk(&[jc]))).is_err());
}

#[test]
fn the_same_square_may_be_passed_twice_just_not_right_away() {
    // "You may pass through the same space multiple times in the same move, you just can't
    // do it right away."
    let mut t = table(3);
    t.at(0, sq(6, 2)).turn(0, 5);
    t.play(0, walk(&[sq(7, 2), sq(7, 3), sq(6, 3), sq(6, 2), sq(7, 2)]));
    assert_eq!(shopper(&t, 0), sq(7, 2));
}

#[test]
fn a_dead_end_stops_the_move() {
    // "when you move into a dead end (the Aces, Kings, and Queens), you have to stop moving."
    let mut t = table(3);
    t.at(0, sq(2, 2)).turn(0, 8);
    t.play(0, walk(&[sq(1, 2)])); // the Ace of Hearts
    let Phase::Act(turn_now) = &t.public.phase else {
        panic!()
    };
    assert!(reachable(&t.public, turn_now).is_empty());
    assert!(t.step(turn(0, walk(&[sq(2, 2)]))).is_err());
}

#[test]
fn tens_and_twos_move_ten_and_two_more_even_after_the_roll_is_used() {
    // "10's and 2's: These cards can be played as Move-10 and Move-2 ... you can move to the
    // end of your roll, think about it, play a 10, finish that move, then play another one"
    let mut t = table(3);
    t.at(0, sq(3, 4)).turn(0, 2);
    let ten = t.give(0, card(10, S));
    let two = t.give(0, card(2, D));
    t.play(0, walk(&[sq(4, 4), sq(5, 4)]));
    t.play(
        0,
        Input::MoveCard {
            card: ten,
            face: card(10, S),
            steps: 10,
        },
    );
    assert!(matches!(&t.public.phase, Phase::Act(turn) if turn.left == 10));
    t.play(
        0,
        Input::MoveCard {
            card: two,
            face: card(2, D),
            steps: 2,
        },
    );
    assert!(matches!(&t.public.phase, Phase::Act(turn) if turn.left == 12));
    // "However, you still can't double back": the square behind stays barred.
    assert!(t.step(turn(0, walk(&[sq(4, 4)]))).is_err());
    // A 10 is Move-10, not Move-2, and a 7 moves nobody.
    let seven = t.give(0, card(7, S));
    let bad = Input::MoveCard {
        card: seven,
        face: card(7, S),
        steps: 2,
    };
    assert!(t.step(turn(0, bad)).is_err());
}

#[test]
fn an_ace_stops_a_movement_card() {
    // "You can use an Ace to: ... Stop a movement card from working."
    let mut t = table(3);
    t.at(0, sq(3, 4)).at(1, sq(8, 4)).turn(0, 0);
    let ten = t.give(0, card(10, S));
    let ace = t.give(1, card(14, D));
    t.play(
        0,
        Input::MoveCard {
            card: ten,
            face: card(10, S),
            steps: 10,
        },
    );
    t.answer(&[(
        1,
        Input::Ace {
            card: ace,
            face: card(14, D),
        },
    )]);
    // The mover has no card left to answer the Ace with, so nothing more opens.
    assert!(matches!(&t.public.phase, Phase::Act(turn) if turn.left == 0));
    assert!(t.public.discard.contains(&card(10, S)));
}

// ---- Shopping ----------------------------------------------------------------------------

#[test]
fn a_card_is_bought_at_a_shop_selling_it_anywhere_along_the_move_start_and_stop_included() {
    // "you must move through a store that sells it ... You can play cards into your shopping
    // cart at any point along your move, including the squares where you start and stop."
    let mut t = table(3);
    let five_h = t.give(0, card(5, H));
    let four_h = t.give(0, card(4, H));
    let two_h = t.give(0, card(2, H));
    let seven_s = t.give(0, card(7, S));
    t.at(0, sq(3, 3)).turn(0, 3); // starts on the 5H
    t.play(0, walk(&[sq(4, 3), sq(4, 2)])); // through the 2H to the 4H
    t.play(
        0,
        Input::Shop {
            cards: vec![(five_h, card(5, H))],
        },
    );
    t.play(
        0,
        Input::Shop {
            cards: vec![(two_h, card(2, H))],
        },
    );
    t.play(
        0,
        Input::Shop {
            cards: vec![(four_h, card(4, H))],
        },
    );
    assert_eq!(t.public.carts[0], vec![card(5, H), card(2, H), card(4, H)]);
    // A shop not passed sells nothing.
    let refused = Input::Shop {
        cards: vec![(seven_s, card(7, S))],
    };
    assert!(t.step(turn(0, refused)).is_err());
}

#[test]
fn an_identical_pair_is_bought_together_but_not_two_cards_of_different_suits() {
    // "If you have both cards of exactly the same rank and suit, you can play them together"
    let mut t = table(3);
    let a = t.give(0, card(9, H));
    let b = t.give(0, second(9, H));
    let c = t.give(0, card(9, S));
    t.at(0, sq(3, 1)).turn(0, 0);
    let mixed = Input::Shop {
        cards: vec![(a, card(9, H)), (c, card(9, S))],
    };
    assert!(t.step(turn(0, mixed)).is_err());
    t.play(
        0,
        Input::Shop {
            cards: vec![(a, card(9, H)), (b, second(9, H))],
        },
    );
    assert_eq!(t.public.carts[0], vec![card(9, H), second(9, H)]);
}

#[test]
fn a_card_not_in_hand_or_claimed_as_another_face_is_refused() {
    let mut t = table(3);
    let real = t.give(0, card(5, H));
    t.at(0, sq(3, 3)).turn(0, 0);
    let lie = Input::Shop {
        cards: vec![(real, second(5, H))],
    };
    assert!(matches!(
        t.step(turn(0, lie)),
        Err(hoard_rules::RuleError::PrivateMismatch { seat: 0, .. })
    ));
    let stranger = hoard_rules::Handle {
        deck: 0,
        generation: 0,
        position: 90,
    };
    let not_held = Input::Shop {
        cards: vec![(stranger, card(5, H))],
    };
    assert!(t.step(turn(0, not_held)).is_err());
    assert!(t.public.carts[0].is_empty());
}

#[test]
fn an_ace_stops_a_purchase_and_the_card_is_discarded() {
    // "Stop someone from shopping. The card they played is discarded instead."
    let mut t = table(3);
    let five = t.give(0, card(5, H));
    let ace = t.give(2, card(14, C));
    t.at(0, sq(3, 3)).at(2, sq(8, 4)).turn(0, 0);
    t.play(
        0,
        Input::Shop {
            cards: vec![(five, card(5, H))],
        },
    );
    let Phase::Window { seats, .. } = &t.public.phase else {
        panic!("a purchase opens a window")
    };
    assert_eq!(seats, &vec![2], "only seats holding a card may answer");
    assert_eq!(
        Spree::pending(&t.public),
        Pending::Together {
            seats: vec![2],
            seal: Seal::Reaction
        }
    );
    t.answer(&[(
        2,
        Input::Ace {
            card: ace,
            face: card(14, C),
        },
    )]);
    assert!(t.public.carts[0].is_empty());
    assert!(t.public.discard.contains(&card(5, H)));
    assert!(t.public.discard.contains(&card(14, C)));
}

#[test]
fn ace_on_ace_the_play_that_was_stopped_does_not_stop() {
    // "If you 'Ace' someone's Ace, then whatever they were trying to stop doesn't stop. And
    // that might have been another Ace, and so on."
    let mut t = table(3);
    let five = t.give(0, card(5, H));
    let my_ace = t.give(0, card(14, S));
    let their_ace = t.give(1, card(14, H));
    let joker = t.give(1, JOKER);
    let third = t.give(2, second(14, D));
    t.at(0, sq(3, 3)).at(1, sq(8, 4)).at(2, sq(9, 4)).turn(0, 0);
    t.play(
        0,
        Input::Shop {
            cards: vec![(five, card(5, H))],
        },
    );
    t.answer(&[(
        1,
        Input::Ace {
            card: their_ace,
            face: card(14, H),
        },
    )]);
    // Everyone but the Ace's player may answer it, the shopper included.
    let Phase::Window { seats, aces, .. } = &t.public.phase else {
        panic!()
    };
    assert_eq!(seats, &vec![2, 0]);
    assert_eq!(aces.len(), 1);
    t.answer(&[(
        0,
        Input::Ace {
            card: my_ace,
            face: card(14, S),
        },
    )]);
    // A third Stop! (a Joker) stops the purchase again...
    t.answer(&[(
        1,
        Input::Ace {
            card: joker,
            face: JOKER,
        },
    )]);
    // ...and a fourth lets it stand.
    t.answer(&[(
        2,
        Input::Ace {
            card: third,
            face: second(14, D),
        },
    )]);
    // Nobody holds a card to answer the fourth.
    assert_eq!(t.public.carts[0], vec![card(5, H)]);
    assert_eq!(t.public.discard.len(), 4, "four Stop! cards are discarded");
}

#[test]
fn two_players_wanting_to_stop_the_same_play_the_first_after_the_player_is_taken() {
    // Decided: answers open in turn order after whoever made the play; the later Ace stays
    // in its hand.
    let mut t = table(4);
    let five = t.give(2, card(5, S));
    let a0 = t.give(0, card(14, H));
    let a3 = t.give(3, card(14, S));
    t.at(2, sq(10, 3))
        .at(0, sq(3, 4))
        .at(3, sq(8, 4))
        .turn(2, 0);
    t.play(
        2,
        Input::Shop {
            cards: vec![(five, card(5, S))],
        },
    );
    let events = t.answer(&[
        (
            0,
            Input::Ace {
                card: a0,
                face: card(14, H),
            },
        ),
        (
            3,
            Input::Ace {
                card: a3,
                face: card(14, S),
            },
        ),
    ]);
    assert!(events.contains(&Event::Aced {
        seat: 3,
        card: card(14, S)
    }));
    assert!(events.contains(&Event::TooLate {
        seat: 0,
        card: card(14, H)
    }));
    assert!(t.public.hands[0].contains(&a0));
    assert!(!t.public.hands[3].contains(&a3));
}

#[test]
fn a_later_answer_left_sealed_changes_nothing() {
    // At a real table an answer after the first Ace is never opened: it reaches the rules
    // closed, and must change nothing.
    let mut t = table(3);
    let five = t.give(0, card(5, H));
    let a1 = t.give(1, card(14, H));
    t.give(2, card(14, S));
    t.at(0, sq(3, 3)).at(1, sq(8, 4)).at(2, sq(9, 4)).turn(0, 0);
    t.play(
        0,
        Input::Shop {
            cards: vec![(five, card(5, H))],
        },
    );
    let step = Step::Inputs(vec![
        (
            1,
            Play::Open(Input::Ace {
                card: a1,
                face: card(14, H),
            }),
        ),
        (2, Play::Closed),
    ]);
    t.step(step).unwrap();
    assert_eq!(t.public.hands[2].len(), 1);
}

#[test]
fn jokers_stop_move_and_steal_but_never_shop_and_are_worth_nothing_in_a_cart() {
    // "You can use a Joker as an Ace, a movement card, or to steal cards from someone else.
    // The one thing you can't do with Jokers is shop. If you put one in your shopping cart,
    // it's worth zero points."
    let mut t = table(3);
    let j1 = t.give(0, JOKER);
    let j2 = t.give(0, JOKER + 1);
    let j3 = t.give(0, JOKER + 2);
    t.public.carts[1] = vec![card(12, D), second(12, D)];
    t.at(0, sq(3, 4)).at(1, sq(3, 4)).turn(0, 0);
    t.play(
        0,
        Input::Rob {
            victim: 1,
            card: j1,
            face: JOKER,
            rank: 12,
        },
    );
    assert_eq!(t.public.carts[0], vec![card(12, D), second(12, D)]);
    t.play(
        0,
        Input::MoveCard {
            card: j2,
            face: JOKER + 1,
            steps: 10,
        },
    );
    assert!(matches!(&t.public.phase, Phase::Act(turn) if turn.left == 10));
    t.play(
        0,
        Input::Shop {
            cards: vec![(j3, JOKER + 2)],
        },
    );
    assert_eq!(cards::points(JOKER + 2), 0);
    let car = t.public.pawns[0].car.unwrap();
    t.at(0, car);
    let events = t.play(0, Input::Score);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Scored { points: 24, .. }))
    );
}

// ---- Robbing -----------------------------------------------------------------------------

#[test]
fn any_card_of_the_rank_steals_every_card_of_that_rank_and_is_itself_discarded() {
    // "You only need to match the rank of the card you're stealing, not the suit. For
    // example, any 5 can steal a 5h. The card you play is discarded, but the cards you steal
    // go into your cart. Just one card is enough to steal every card of the same rank."
    let mut t = table(3);
    let five_c = t.give(0, card(5, C));
    t.public.carts[1] = vec![card(5, H), card(11, S), second(5, D), card(11, H)];
    t.at(0, sq(4, 4)).at(1, sq(5, 4)).turn(0, 2);
    // Not on the victim's square yet.
    let rob = Input::Rob {
        victim: 1,
        card: five_c,
        face: card(5, C),
        rank: 5,
    };
    assert!(t.step(turn(0, rob.clone())).is_err());
    t.play(0, walk(&[sq(5, 4)]));
    let events = t.play(0, rob);
    assert!(events.contains(&Event::Stole {
        seat: 0,
        victim: 1,
        cards: vec![card(5, H), second(5, D)]
    }));
    assert_eq!(t.public.carts[0], vec![card(5, H), second(5, D)]);
    assert_eq!(t.public.carts[1], vec![card(11, S), card(11, H)]);
    assert_eq!(t.public.discard, vec![card(5, C)]);
}

#[test]
fn steals_are_played_one_at_a_time_each_giving_the_victim_a_chance_to_ace_it() {
    // "You can play as many steals as you want at the moment you walk over your victim, but
    // you must play them one at a time, giving your victim the chance to Ace each one."
    let mut t = table(3);
    let jack = t.give(0, card(11, C));
    let king = t.give(0, card(13, C));
    let ace = t.give(1, card(14, H));
    t.public.carts[1] = vec![card(11, S), card(13, D)];
    t.at(0, sq(5, 4)).at(1, sq(5, 4)).turn(0, 0);
    t.play(
        0,
        Input::Rob {
            victim: 1,
            card: jack,
            face: card(11, C),
            rank: 11,
        },
    );
    t.answer(&[(
        1,
        Input::Ace {
            card: ace,
            face: card(14, H),
        },
    )]);
    // The robber, still holding the King, may answer the Ace; it lets it go.
    t.answer(&[]);
    assert_eq!(t.public.carts[1], vec![card(11, S), card(13, D)]);
    t.play(
        0,
        Input::Rob {
            victim: 1,
            card: king,
            face: card(13, C),
            rank: 13,
        },
    );
    assert_eq!(t.public.carts[0], vec![card(13, D)]);
}

#[test]
fn a_player_lying_down_can_be_robbed_and_cannot_ace_it() {
    // "the second rule keeps downed players from playing Aces while they are being robbed."
    let mut t = table(3);
    let jack = t.give(0, card(11, C));
    t.give(1, card(14, H));
    t.public.carts[1] = vec![card(11, S)];
    t.public.pawns[1].lying = true;
    t.at(0, sq(5, 4)).at(1, sq(5, 4)).turn(0, 0);
    t.play(
        0,
        Input::Rob {
            victim: 1,
            card: jack,
            face: card(11, C),
            rank: 11,
        },
    );
    assert!(matches!(t.public.phase, Phase::Act(_)), "no window opens");
    assert_eq!(t.public.carts[0], vec![card(11, S)]);
}

// ---- Shooting ----------------------------------------------------------------------------

/// Brad (seat 0) two steps from Janet (seat 1) on the open row below the shops, one open
/// square between them.
fn brad_and_janet(t: &mut Table) {
    t.at(0, sq(1, 4)).at(1, sq(3, 4)).turn(0, 0);
}

#[test]
fn brad_rolling_a_1_or_a_2_misses_janet_and_falls_over() {
    // "Janet is two steps away from Brad, i.e., there is one open space between them. If
    // Brad rolls a 1 or a 2, he will miss, and fall over."
    for die in [1, 2] {
        let mut t = table(3);
        t.give(1, card(14, S));
        brad_and_janet(&mut t);
        t.play(0, Input::Shoot { target: 1 });
        let events = shot_die(&mut t, die);
        assert!(events.iter().any(|e| matches!(
            e,
            Event::Shot {
                outcome: hoard_rules::spree::ShotOutcome::Miss,
                ..
            }
        )));
        assert!(lying(&t, 0) && !lying(&t, 1));
        // "As mentioned above nothing can help you if you miss": no window opened, and the
        // shot ended the turn.
        assert!(matches!(t.public.phase, Phase::Draw { seat: 0, .. }));
    }
}

#[test]
fn brad_rolling_a_3_hits_janet_exactly_and_knocks_her_over() {
    // "If he rolls a 3, he will hit Janet exactly, and knock her over."
    let mut t = table(3);
    brad_and_janet(&mut t);
    t.play(0, Input::Shoot { target: 1 });
    shot_die(&mut t, 3);
    assert!(lying(&t, 1) && !lying(&t, 0));
    assert_eq!(shopper(&t, 1), sq(3, 4));
}

#[test]
fn brad_rolling_higher_pushes_janet_to_the_end_of_the_shot_or_into_an_obstacle() {
    // "If he rolls a higher number, he will push Janet backward, either to the end of his
    // shot, or into an obstacle."
    let mut t = table(3);
    brad_and_janet(&mut t);
    t.play(0, Input::Shoot { target: 1 });
    shot_die(&mut t, 5);
    assert_eq!(shopper(&t, 1), sq(5, 4), "pushed two squares");
    let mut t = table(3);
    brad_and_janet(&mut t);
    t.play(0, Input::Shoot { target: 1 });
    shot_die(&mut t, 6);
    assert_eq!(shopper(&t, 1), sq(5, 4), "the fountain stops the push");
}

#[test]
fn janet_may_ace_brads_shot_after_she_sees_his_roll() {
    // "Janet could play an Ace to foil Brad's shot, if she has one. She doesn't have to do
    // this until after she sees his roll."
    let mut t = table(3);
    let ace = t.give(1, card(14, S));
    brad_and_janet(&mut t);
    t.play(0, Input::Shoot { target: 1 });
    shot_die(&mut t, 4);
    let Phase::Window { contest, seats, .. } = &t.public.phase else {
        panic!("a hit opens a window")
    };
    assert_eq!(
        t.public.shot_die,
        Some(4),
        "the roll is seen before the answer"
    );
    assert!(matches!(
        contest,
        Contest::Shot {
            target: 1,
            roll: 4,
            ..
        }
    ));
    assert_eq!(seats, &vec![1]);
    t.answer(&[(
        1,
        Input::Ace {
            card: ace,
            face: card(14, S),
        },
    )]);
    assert!(!lying(&t, 1) && !lying(&t, 0));
    assert_eq!(shopper(&t, 1), sq(3, 4));
    // The shot still ended the turn, with no extra turn.
    t.step(Step::Dealt).ok();
    let mut extra = false;
    while let Pending::Deal { .. } = Spree::pending(&t.public) {
        for e in t.step(Step::Dealt).unwrap() {
            extra |= matches!(e, Event::TurnBegins { seat: 0, .. });
        }
    }
    assert!(!extra);
    assert!(matches!(&t.public.phase, Phase::Act(turn) if turn.seat == 1));
}

#[test]
fn a_hit_ends_the_turn_and_gives_another_right_away() {
    // "When you shoot someone, it ends your turn. ... However, if your shot is successful,
    // you'll take another turn right away."
    let mut t = table(3);
    brad_and_janet(&mut t);
    t.play(0, Input::Shoot { target: 1 });
    let mut events = shot_die(&mut t, 3);
    while let Pending::Deal { .. } = Spree::pending(&t.public) {
        events.extend(t.step(Step::Dealt).unwrap());
    }
    assert!(events.contains(&Event::TurnBegins {
        seat: 0,
        extra: true
    }));
    assert!(matches!(&t.public.phase, Phase::Act(turn) if turn.seat == 0 && turn.extra));
}

#[test]
fn players_lying_down_cannot_be_shot_and_stand_at_the_beginning_of_their_next_turn() {
    // "if a player's pawn is lying down, that player can't be shot at ... Players who are
    // lying down will stand back up at the beginning of their next turn."
    let mut t = table(3);
    brad_and_janet(&mut t);
    t.public.pawns[1].lying = true;
    assert!(t.step(turn(0, Input::Shoot { target: 1 })).is_err());
    t.play(0, Input::EndTurn);
    let mut events = Vec::new();
    while let Pending::Deal { .. } = Spree::pending(&t.public) {
        events.extend(t.step(Step::Dealt).unwrap());
    }
    assert!(events.contains(&Event::StoodUp { seat: 1 }));
    assert!(!lying(&t, 1));
}

#[test]
fn a_shot_crosses_the_fountain_and_passes_players_and_cars_but_not_walls() {
    // "You can shoot across the fountain, and you can even shoot past other players and
    // cars, but you can't shoot through walls."
    let mut t = table(4);
    t.at(0, sq(5, 4)).at(1, sq(9, 4)).at(2, sq(8, 4)).turn(0, 0);
    let targets: Vec<u8> = shot_targets(&t.public, 0)
        .iter()
        .map(|(s, _, _)| *s)
        .collect();
    assert!(
        targets.contains(&1) && targets.contains(&2),
        "across the fountain, past seat 2"
    );
    // A car in the line (seat 2's, at (3, 0)) does not block; a row of cars is decided so.
    t.at(0, sq(1, 0))
        .at(1, sq(5, 0))
        .at(2, sq(9, 9 - 1))
        .turn(0, 0);
    assert!(
        shot_targets(&t.public, 0)
            .iter()
            .any(|(s, _, d)| *s == 1 && *d == 4)
    );
    // A wall: (1, 4) has one to the north, so the Queen of Hearts above is out of sight.
    t.at(0, sq(1, 4)).at(1, sq(1, 3)).turn(0, 0);
    assert!(shot_targets(&t.public, 0).iter().all(|(s, _, _)| *s != 1));
}

#[test]
fn nobody_is_shot_on_the_shooters_own_square() {
    // "your victim must be in a straight line of sight ... and must not be on the same
    // square with you."
    let mut t = table(3);
    t.at(0, sq(3, 4)).at(1, sq(3, 4)).turn(0, 0);
    assert!(t.step(turn(0, Input::Shoot { target: 1 })).is_err());
}

#[test]
fn a_push_into_another_player_shares_their_square() {
    // Decided: players share squares freely, so a push carries its victim past or onto
    // another player.
    let mut t = table(3);
    brad_and_janet(&mut t);
    t.at(2, sq(4, 4));
    t.play(0, Input::Shoot { target: 1 });
    shot_die(&mut t, 4);
    assert_eq!(shopper(&t, 1), sq(4, 4));
    assert_eq!(shopper(&t, 2), sq(4, 4));
    assert!(!lying(&t, 2));
}

// ---- The car -----------------------------------------------------------------------------

#[test]
fn scoring_at_the_car_banks_the_cart_discards_it_and_ends_the_turn() {
    // "move to your car, discard the contents of your shopping cart, and record the points.
    // This ends your turn ... Number cards are worth their face value, Jacks are worth 11,
    // Queens 12, and Kings 13. Aces are worth 15. Jokers are worth zero."
    let mut t = table(3);
    let car = t.public.pawns[0].car.unwrap();
    t.public.carts[0] = vec![
        card(10, H),
        card(11, S),
        card(12, C),
        card(13, D),
        card(14, H),
        JOKER,
    ];
    t.at(0, car).turn(0, 0);
    t.give(1, card(14, S));
    let events = t.play(0, Input::Score);
    assert!(events.contains(&Event::Scored {
        seat: 0,
        cards: vec![
            card(10, H),
            card(11, S),
            card(12, C),
            card(13, D),
            card(14, H),
            JOKER
        ],
        points: 10 + 11 + 12 + 13 + 15,
        total: 61,
    }));
    assert!(t.public.carts[0].is_empty());
    assert_eq!(t.public.discard.len(), 6);
    // "You can't stop a player from putting stuff in their car": no window, the turn is over.
    assert!(matches!(t.public.phase, Phase::Draw { seat: 0, .. }));
}

#[test]
fn the_first_to_reach_the_target_wins() {
    // "The first player to reach the target score wins the game."
    let mut t = table(8);
    let car = t.public.pawns[3].car.unwrap();
    t.public.scores[3] = 70;
    t.public.carts[3] = vec![card(5, S)];
    t.at(3, car).turn(3, 0);
    let events = t.play(3, Input::Score);
    assert!(events.contains(&Event::Won { seat: 3 }));
    assert!(matches!(Spree::pending(&t.public), Pending::Over(o) if o.winners == vec![3]));
}

#[test]
fn at_the_car_nobody_shoots_is_shot_or_plays_a_card() {
    // "Being at your car has special rules: you can't shoot or be shot from that space, you
    // can't play cards"
    let mut t = table(3);
    let car = t.public.pawns[0].car.unwrap(); // (0, 2)
    let two = t.give(0, card(2, S));
    t.at(0, car).at(1, sq(0, 3)).turn(0, 0);
    assert!(shot_targets(&t.public, 0).is_empty());
    let card_play = Input::MoveCard {
        card: two,
        face: card(2, S),
        steps: 2,
    };
    assert!(t.step(turn(0, card_play)).is_err());
    t.turn(1, 0);
    assert!(shot_targets(&t.public, 1).iter().all(|(s, _, _)| *s != 0));
    // Nor does a player at their car answer with an Ace.
    t.give(0, card(14, S));
    let five = t.give(1, card(5, H));
    t.at(1, sq(3, 3)).turn(1, 0);
    t.play(
        1,
        Input::Shop {
            cards: vec![(five, card(5, H))],
        },
    );
    assert!(matches!(t.public.phase, Phase::Act(_)), "no window opened");
}

#[test]
fn a_turn_begun_at_the_car_may_drive_it_to_another_free_spot() {
    // "If you start a turn at your car, you can take a full turn to drive your car to a
    // different parking spot."
    let mut t = table(3);
    let car = t.public.pawns[0].car.unwrap();
    let taken = t.public.pawns[1].car.unwrap();
    t.at(0, car).turn(0, 0);
    assert!(t.step(turn(0, Input::Drive { to: taken })).is_err());
    let free = hoard_rules::spree::board::board().parking()[6];
    t.play(0, Input::Drive { to: free });
    assert_eq!(t.public.pawns[0].car, Some(free));
    assert_eq!(shopper(&t, 0), free);
    assert!(matches!(t.public.phase, Phase::Draw { seat: 0, .. }));
    // Not after doing anything else.
    let mut t = table(3);
    t.at(0, car).turn(0, 4);
    t.public.phase = match t.public.phase.clone() {
        Phase::Act(mut turn) => {
            turn.fresh = false;
            Phase::Act(turn)
        }
        other => other,
    };
    assert!(t.step(turn(0, Input::Drive { to: free })).is_err());
}

// ---- The Hong Kong rules -----------------------------------------------------------------

#[test]
fn hong_kong_power_shots_add_one_so_a_1_does_not_always_miss() {
    // "Power Shots: Your shots go one space farther. Basically, you add 1 to your roll. That
    // means, among other things, that 1's don't always miss."
    let mut t = hong_kong(3);
    t.at(0, sq(1, 4)).at(1, sq(2, 4)).turn(0, 0);
    t.play(0, Input::Shoot { target: 1 });
    shot_die(&mut t, 1);
    assert!(lying(&t, 1) && !lying(&t, 0));
}

#[test]
fn hong_kong_shots_push_through_the_fountain_to_its_far_side() {
    // "Shooting people pushes them through the fountain. If they would stop right inside the
    // fountain, they keep going to the other side."
    let mut t = hong_kong(3);
    brad_and_janet(&mut t);
    t.play(0, Input::Shoot { target: 1 });
    shot_die(&mut t, 5); // 6 with the power shot: three squares past Janet, into the fountain
    assert_eq!(shopper(&t, 1), sq(8, 4));
}

#[test]
fn hong_kong_cars_are_driven_with_dice_on_the_lot_and_open_floor_only() {
    // "you now need to roll dice to drive between parking spaces, just like a normal move.
    // ... you can only drive in the parking lot and the open spaces (not in the shops)."
    let mut t = hong_kong(3);
    let car = t.public.pawns[2].car.unwrap(); // (3, 0)
    t.at(2, car).turn(2, 0);
    assert!(t.step(turn(2, Input::Drive { to: sq(10, 0) })).is_err());
    t.play(2, Input::StartCar);
    t.chance_for(|p| p.dice.is_some_and(|(a, b)| a + b >= 4));
    // (3, 1) below the space is the 9 of Hearts: a shop, closed to cars.
    assert!(t.step(turn(2, walk(&[sq(3, 1)]))).is_err());
    t.play(2, walk(&[sq(4, 0), sq(5, 0)]));
    assert_eq!(t.public.pawns[2].car, Some(sq(5, 0)));
    // "You can't get out of your car until it's parked."
    assert!(t.step(turn(2, Input::GetOut)).is_err());
    t.play(2, Input::EndTurn);
    assert!(t.public.pawns[2].in_car);
}

#[test]
fn hong_kong_getting_out_of_a_parked_car_ends_the_turn() {
    // "you also end your turn by getting out of your car after you move it."
    let mut t = hong_kong(3);
    t.public.pawns[2].car = Some(sq(9, 0));
    t.public.pawns[2].in_car = true;
    t.at(2, sq(9, 0)).turn(2, 0);
    t.play(2, Input::StartCar);
    t.chance_for(|p| p.dice.is_some());
    t.play(2, walk(&[sq(10, 0)]));
    t.play(2, Input::GetOut);
    assert!(!t.public.pawns[2].in_car);
    assert_eq!(t.public.pawns[2].car, Some(sq(10, 0)));
    assert!(matches!(t.public.phase, Phase::Draw { seat: 2, .. }));
}

#[test]
fn hong_kong_running_people_over_knocks_them_down_spills_their_cart_and_cannot_be_aced() {
    // "If you run over someone in your car, they fall over, just as if they were shot. (They
    // can't Ace this.) ... all the stuff in their cart is spilled all over the ground when
    // you hit them, and is immediately discarded."
    let mut t = hong_kong(3);
    let car = t.public.pawns[2].car.unwrap(); // (3, 0)
    t.public.carts[1] = vec![card(13, H), card(9, S)];
    t.give(1, card(14, S));
    t.at(1, sq(5, 0)).at(2, car).turn(2, 0);
    t.play(2, Input::StartCar);
    t.chance_for(|p| p.dice.is_some_and(|(a, b)| a + b >= 3));
    let events = t.play(2, walk(&[sq(4, 0), sq(5, 0), sq(6, 0)]));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::RanOver { victim: 1, .. }))
    );
    assert!(lying(&t, 1));
    assert!(t.public.carts[1].is_empty());
    assert!(t.public.discard.contains(&card(13, H)));
    assert!(
        matches!(t.public.phase, Phase::Act(_)),
        "no window for a run-over"
    );
}

#[test]
fn hong_kong_players_shoot_from_their_cars_and_are_shot_in_them() {
    // "you can now shoot people from your car, and be shot while in it. ... if you hit your
    // target, you get an extra turn."
    let mut t = hong_kong(3);
    t.public.pawns[0].car = Some(sq(1, 0));
    t.public.pawns[0].in_car = true;
    t.at(0, sq(1, 0)).at(1, sq(4, 0)).turn(0, 0);
    assert!(shot_targets(&t.public, 0).iter().any(|(s, _, _)| *s == 1));
    t.play(0, Input::Shoot { target: 1 });
    let mut events = shot_die(&mut t, 5);
    while let Pending::Deal { .. } = Spree::pending(&t.public) {
        events.extend(t.step(Step::Dealt).unwrap());
    }
    assert!(lying(&t, 1));
    assert!(events.contains(&Event::TurnBegins {
        seat: 0,
        extra: true
    }));
    // And the other way round: a player in a car can be shot, and is not pushed.
    let mut t = hong_kong(3);
    t.public.pawns[1].car = Some(sq(4, 0));
    t.public.pawns[1].in_car = true;
    t.at(0, sq(1, 0)).at(1, sq(4, 0)).turn(0, 0);
    t.play(0, Input::Shoot { target: 1 });
    shot_die(&mut t, 6);
    assert!(lying(&t, 1));
    assert_eq!(shopper(&t, 1), sq(4, 0));
    // Without the Hong Kong rules, the car shields its player.
    let mut t = table(3);
    t.public.pawns[1].car = Some(sq(4, 0));
    t.at(0, sq(1, 0)).at(1, sq(4, 0)).turn(0, 0);
    assert!(shot_targets(&t.public, 0).iter().all(|(s, _, _)| *s != 1));
}

#[test]
fn hong_kong_scoring_puts_the_shopper_in_the_car() {
    // "You still end your turn if you get into your car"
    let mut t = hong_kong(3);
    let car = t.public.pawns[0].car.unwrap();
    t.public.carts[0] = vec![card(8, H)];
    t.at(0, car).turn(0, 0);
    t.play(0, Input::Score);
    assert!(t.public.pawns[0].in_car);
    assert_eq!(t.public.scores[0], 8);
}

// ---- Whole games -------------------------------------------------------------------------

#[test]
fn a_whole_hong_kong_game_with_eight_players_ends_with_a_winner_at_the_target() {
    let mut c = Config::new(8);
    c.hong_kong = true;
    let g = play_with(&c, 11, 40_000, &mut Spree::bot_input);
    let o = outcome(&g);
    assert!(o.scores[usize::from(o.winners[0])] >= 75);
}
