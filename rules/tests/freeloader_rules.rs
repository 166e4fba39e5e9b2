//! Freeloader's rulebook, sentence by sentence: each test lays out the table a rule describes,
//! plays it, and checks the outcome, with the sentence quoted. The houses lie in the order
//! Doctor, Artist, Waitress, Hippies, Gambler, Lawyer (ring places 0–5) unless a test says.

use hoard_rules::freeloader::board::section;
use hoard_rules::freeloader::cards::CARDS;
use hoard_rules::freeloader::data::{House, Space};
use hoard_rules::freeloader::{
    Config, Event, Freeloader, Friend, Held, Input, Paying, Phase, Private, Public, TradeKind,
};
use hoard_rules::{Absence, CardId, Game, Handle, Pending, Play, RuleError, Seat, Step};

const DOCTOR: u8 = 0;
const ARTIST: u8 = 1;
const WAITRESS: u8 = 2;
const HIPPIES: u8 = 3;
const GAMBLER: u8 = 4;

fn id(name: &str) -> CardId {
    CARDS
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no card called {name}")) as CardId
}

fn seed(n: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&n.to_le_bytes());
    s
}

/// A table laid out by hand.
struct Table {
    p: Public,
    privates: Vec<Option<Private>>,
    handles: u16,
}

impl Table {
    fn new(seats: u8) -> Table {
        let config = Config { seats };
        let mut p = Freeloader::setup(&config).unwrap();
        p.deck.shuffled(CARDS.len());
        p.deck.taken = 20;
        p.phase = Phase::Turn { seat: 0 };
        let privates = (0..seats)
            .map(|s| Some(Freeloader::private(&config, s, [s; 32])))
            .collect();
        Table {
            p,
            privates,
            handles: 20,
        }
    }

    /// Puts `seat`'s pawn on space `space` of ring house `house`.
    fn at(&mut self, seat: Seat, house: u8, space: u8) -> &mut Self {
        self.p.pawns[usize::from(seat)] = house * 7 + space;
        self
    }

    fn favors(&mut self, seat: Seat, house: u8, n: u8) -> &mut Self {
        self.p.houses[usize::from(house)].favors[usize::from(seat)] = n;
        self
    }

    fn befriend(&mut self, seat: Seat, house: u8) -> &mut Self {
        self.p.houses[usize::from(house)].best_friends[0] = Some(seat);
        self
    }

    /// Gives `seat` the hidden card `name`.
    fn give(&mut self, seat: Seat, name: &str) -> Held {
        let h = Handle {
            deck: 0,
            generation: 0,
            position: self.handles,
        };
        self.handles += 1;
        let held = Held::Hidden(h);
        self.p.hands[usize::from(seat)].push(held);
        if let Some(p) = self.privates[usize::from(seat)].as_mut() {
            p.faces.insert(h, id(name));
        }
        held
    }

    fn turn(&mut self, seat: Seat) -> &mut Self {
        self.p.phase = Phase::Turn { seat };
        self
    }

    fn step(&mut self, step: Step<Input>) -> Result<Vec<Event>, RuleError> {
        Freeloader::apply(&mut self.p, &mut self.privates, &step)
    }

    fn play(&mut self, seat: Seat, input: Input) -> Vec<Event> {
        self.step(Step::Inputs(vec![(seat, Play::Open(input.clone()))]))
            .unwrap_or_else(|e| panic!("{input:?} was refused: {e}"))
    }

    fn refused(&mut self, seat: Seat, input: Input) -> bool {
        self.step(Step::Inputs(vec![(seat, Play::Open(input))]))
            .is_err()
    }

    /// A beacon draw whose outcome `want` accepts.
    fn chance_for(&mut self, want: impl Fn(&Public, &[Event]) -> bool) -> Vec<Event> {
        for k in 0..20_000u64 {
            let mut trial = self.p.clone();
            let mut privates = self.privates.clone();
            if let Ok(events) = Freeloader::apply(&mut trial, &mut privates, &Step::Chance(seed(k)))
                && want(&trial, &events)
            {
                return self.step(Step::Chance(seed(k))).unwrap();
            }
        }
        panic!("no beacon draw gives what the test wants");
    }

    fn bf(&self, house: u8) -> Option<Seat> {
        self.p.houses[usize::from(house)].best_friends[0]
    }

    fn favor_count(&self, seat: Seat, house: u8) -> u8 {
        self.p.houses[usize::from(house)].favors[usize::from(seat)]
    }
}

// ---- Setting up --------------------------------------------------------------------------

#[test]
fn setting_up_houses_in_random_order_two_cards_each_a_face_up_card_per_house_two_favors_each() {
    // "Arrange the six houses in a circle ... in a random order. Shuffle the deck and deal a
    // hand of two cards to each player. ... turn up one card in front of each house. Place two
    // counters from each player into every house ... roll 1 die to place your pawn at a
    // random Bus Stop, then roll 1 more die to move it forward 1 to 6 spaces. Determine
    // randomly who will go first."
    let g = hoard_rules::play::play_out::<Freeloader>(
        &Config { seats: 4 },
        &[[0; 32], [1; 32], [2; 32], [3; 32]],
        &seed(5),
        8,
    )
    .unwrap();
    let p = &g.public;
    assert!(matches!(p.phase, Phase::Turn { .. }), "{:?}", p.phase);
    assert!(p.hands.iter().all(|h| h.len() == 2));
    assert!(p.houses.iter().all(|h| h.face_up.is_some()));
    assert!(p.houses.iter().all(|h| h.favors == vec![2; 4]));
    assert_eq!(p.deck.left(), 54 - 8 - 6);
    for pawn in &p.pawns {
        // 1 to 6 past a Bus Stop (the seventh space of a section): never on one.
        assert!(!matches!(p.space(*pawn), Space::BusStop(_)));
    }
    // Different draws lay the houses out differently.
    let orders: std::collections::BTreeSet<Vec<House>> = (0..6)
        .map(|n| {
            let g = hoard_rules::play::play_out::<Freeloader>(
                &Config { seats: 3 },
                &[[0; 32], [1; 32], [2; 32]],
                &seed(n),
                3,
            )
            .unwrap();
            g.public.houses.iter().map(|h| h.house).collect()
        })
        .collect();
    assert!(orders.len() > 1);
}

// ---- Turns -------------------------------------------------------------------------------

#[test]
fn a_move_rolls_one_or_two_dice_three_with_a_car_and_follows_the_landing_space() {
    // "First, choose whether to roll 1 or 2 dice. ... if you have a Car, you can choose to
    // roll 3 dice. Move your pawn the amount you roll, clockwise around the board, and then
    // do whatever it says on the space where you stop."
    let mut t = Table::new(3);
    t.at(0, DOCTOR, 0).turn(0);
    assert!(t.refused(0, Input::Move { dice: 3 }));
    t.p.stuff[0].push(id("Crummy Old Car"));
    t.play(0, Input::Move { dice: 3 });
    let events = t.chance_for(|_, _| true);
    let Some(Event::Rolled { dice, moved, .. }) = events.first() else {
        panic!("{events:?}")
    };
    assert_eq!(dice.len(), 3);
    assert_eq!(
        u32::from(*moved),
        dice.iter().map(|d| u32::from(*d)).sum::<u32>()
    );
    assert_eq!(t.p.pawns[0], *moved % 42);
    // "Having multiple cars doesn't make you any faster."
    t.p.stuff[0].push(id("Borrowed Sedan"));
    t.turn(0);
    assert!(t.refused(0, Input::Move { dice: 4 }));
}

#[test]
fn an_extra_die_is_rolled_and_the_lowest_thrown_out_never_more_than_three_or_four_with_a_car() {
    // "let you roll one extra die when you move, and throw out the lowest die. These cards
    // don't stack ... The most dice you can ever roll is 3, or 4 with a Car"
    let mut t = Table::new(3);
    t.p.stuff[0].push(id("Work-Out Clothes"));
    t.p.stuff[0].push(id("Fine Italian Shoes"));
    t.at(0, DOCTOR, 0).turn(0);
    t.play(0, Input::Move { dice: 2 });
    let events = t.chance_for(|_, e| {
        matches!(e.first(), Some(Event::Rolled { dice, .. }) if dice.iter().collect::<std::collections::BTreeSet<_>>().len() == 3)
    });
    let Some(Event::Rolled { dice, moved, .. }) = events.first() else {
        panic!()
    };
    assert_eq!(dice.len(), 3, "two extra-die cards roll one extra die");
    let mut sorted = dice.clone();
    sorted.sort();
    assert_eq!(*moved, sorted[1] + sorted[2], "the lowest is thrown out");
    let mut t = Table::new(3);
    t.p.stuff[0].push(id("Work-Out Clothes"));
    t.p.stuff[0].push(id("Crummy Old Car"));
    t.at(0, DOCTOR, 0).turn(0);
    t.play(0, Input::Move { dice: 3 });
    let events = t.chance_for(|_, _| true);
    assert!(matches!(events.first(), Some(Event::Rolled { dice, .. }) if dice.len() == 4));
}

#[test]
fn a_draw_takes_the_top_card_or_the_face_up_card_which_is_replaced_at_once() {
    // "When you Draw, you may take either the top card of the deck or the faceup card beside
    // the house you are in. If you draw the faceup card, you replace it immediately with the
    // next card on the deck, faceup."
    let mut t = Table::new(3);
    t.p.houses[usize::from(ARTIST)].face_up = Some(id("Ramen Noodles"));
    t.at(0, ARTIST, 2).turn(0);
    t.play(0, Input::Draw { face_up: true });
    assert!(t.p.hands[0].contains(&Held::Open(id("Ramen Noodles"))));
    assert_eq!(
        Freeloader::pending(&t.p),
        Pending::Reveal {
            cards: t.p.deck.peek(1)
        }
    );
    t.step(Step::Revealed(vec![id("Hot Tub")])).unwrap();
    assert_eq!(t.p.houses[usize::from(ARTIST)].face_up, Some(id("Hot Tub")));
    assert!(matches!(t.p.phase, Phase::Turn { seat: 1 }));
    t.turn(0);
    t.play(0, Input::Draw { face_up: false });
    assert!(matches!(
        Freeloader::pending(&t.p),
        Pending::Deal { to: 0, .. }
    ));
    t.step(Step::Dealt).unwrap();
    assert_eq!(t.p.hands[0].len(), 2);
}

// ---- Favors and Best Friends -------------------------------------------------------------

#[test]
fn a_favor_goes_in_any_house_and_takes_an_open_best_friend_space() {
    // "You may place a new favor in any house (not just the one you are standing in). ... If
    // the 'Best Friend' space is open, you can simply mark the space with your favor"
    let mut t = Table::new(3);
    t.at(0, DOCTOR, 1).turn(0);
    t.play(
        0,
        Input::Favor {
            house: GAMBLER,
            friend: Friend::Take { slot: 0 },
        },
    );
    assert_eq!(t.favor_count(0, GAMBLER), 3);
    assert_eq!(t.bf(GAMBLER), Some(0));
    // "This favor can be spent like any other favor in the house, but if you spend it you
    // will lose your Best Friend status."
    let shoes = t.give(0, "Lucky Sneakers"); // cost 3, Gambler's House -1, Best Friend -1
    t.at(0, GAMBLER, 1).turn(0);
    t.play(
        0,
        Input::PlayCard {
            card: shoes,
            face: id("Lucky Sneakers"),
            friend: Friend::Keep,
        },
    );
    assert_eq!(t.favor_count(0, GAMBLER), 2);
    assert_eq!(
        t.bf(GAMBLER),
        Some(0),
        "one plain favor spent, the Best Friend's kept"
    );
    let suit = t.give(0, "Gold Chain"); // cost 4, Gambler's House -2
    t.turn(0);
    t.play(
        0,
        Input::PlayCard {
            card: suit,
            face: id("Gold Chain"),
            friend: Friend::Keep,
        },
    );
    assert_eq!(t.favor_count(0, GAMBLER), 0);
    assert_eq!(
        t.bf(GAMBLER),
        None,
        "spending the last favor loses Best Friend"
    );
}

/// Bethany (seat 0) challenges Andrew (seat 1), the Artist's Best Friend with two favors.
fn bethany_and_andrew() -> Table {
    let mut t = Table::new(3);
    t.favors(0, ARTIST, 2)
        .favors(1, ARTIST, 2)
        .befriend(1, ARTIST);
    t.at(0, DOCTOR, 1).turn(0);
    t.play(
        0,
        Input::Favor {
            house: ARTIST,
            friend: Friend::Challenge { slot: 0 },
        },
    );
    t
}

#[test]
fn bethany_and_andrews_fight_andrew_wins_eight_to_six_and_bethany_loses_a_favor() {
    // "Bethany ... places a favor in the Artist's house, bringing her total to three favors.
    // Andrew is currently the Best Friend in that house and has only two favors. ... he
    // decides to fight. Bethany rolls a 2, for a total of 2 × 3 = 6. Andrew rolls a 4, for a
    // total of 4 × 2 = 8. Andrew wins! Bethany loses a favor from house, and despite the
    // odds, Andrew remains the Artist's Best Friend."
    let mut t = bethany_and_andrew();
    assert_eq!(t.favor_count(0, ARTIST), 3);
    assert_eq!(Freeloader::pending(&t.p), Pending::Turn { seat: 1 });
    t.play(1, Input::Fight);
    let events = t.chance_for(|p, _| p.dice == vec![2, 4]);
    assert!(events.contains(&Event::Fought {
        seat: 0,
        defender: 1,
        totals: (6, 8),
        winner: 1
    }));
    assert_eq!(t.bf(ARTIST), Some(1));
    assert_eq!(t.favor_count(0, ARTIST), 2);
    assert_eq!(t.favor_count(1, ARTIST), 2);
}

#[test]
fn a_fight_tied_goes_to_the_defender_and_a_won_fight_costs_the_loser_a_favor() {
    // "The higher total wins, and ties go to the defender. The loser must take one favor out
    // of the house, as a penalty for fighting."
    let mut t = bethany_and_andrew();
    t.play(1, Input::Fight);
    t.chance_for(|p, _| p.dice == vec![2, 3]); // 6 against 6
    assert_eq!(t.bf(ARTIST), Some(1));
    assert_eq!(t.favor_count(0, ARTIST), 2);
    let mut t = bethany_and_andrew();
    t.play(1, Input::Fight);
    t.chance_for(|p, _| p.dice == vec![5, 1]);
    assert_eq!(t.bf(ARTIST), Some(0));
    assert_eq!(t.favor_count(1, ARTIST), 1, "Andrew takes a favor out");
}

#[test]
fn a_best_friend_who_gives_up_keeps_the_favor_in_the_house() {
    // "If the Best Friend gives up, move his counter off the Best Friend space (it stays in
    // the house) and replace it with the challenger's counter."
    let mut t = bethany_and_andrew();
    t.play(1, Input::GiveUp);
    assert_eq!(t.bf(ARTIST), Some(0));
    assert_eq!(t.favor_count(1, ARTIST), 2);
    assert_eq!(t.favor_count(0, ARTIST), 3);
}

#[test]
fn the_waitress_has_two_best_friends_but_never_the_same_player_twice() {
    // "The Waitress has two Best Friend spots. When you challenge for Waitress' Best Friend
    // you can choose either space to challenge. However, one player cannot occupy both"
    let mut t = Table::new(3);
    assert_eq!(section(House::Waitress).best_friends, 2);
    t.p.houses[usize::from(WAITRESS)].best_friends = vec![Some(1), Some(2)];
    t.at(0, DOCTOR, 1).turn(0);
    for slot in [0, 1] {
        let legal = Freeloader::legal_inputs(&t.p, t.privates[0].as_ref(), 0);
        assert!(legal.contains(&Input::Favor {
            house: WAITRESS,
            friend: Friend::Challenge { slot }
        }));
    }
    t.p.houses[usize::from(WAITRESS)].best_friends = vec![Some(0), None];
    assert!(t.refused(
        0,
        Input::Favor {
            house: WAITRESS,
            friend: Friend::Take { slot: 1 }
        }
    ));
}

// ---- Playing cards -----------------------------------------------------------------------

#[test]
fn the_spare_bedroom_costs_four_at_the_doctors_three_for_his_best_friend_elsewhere() {
    // "The Spare Bedroom has a base cost of 5, and is discounted -1 at the Doctor's House and
    // -2 for the Doctor's Best Friend. If you are standing at the Doctor's House but are not
    // his Best Friend, this card costs 4. If you are the Doctor's Best Friend, but standing at
    // the Artist's house, the card costs 3."
    let bedroom = id("Spare Bedroom");
    let mut t = Table::new(3);
    t.at(0, DOCTOR, 2);
    assert_eq!(t.p.cost(0, bedroom), 4);
    t.befriend(0, DOCTOR).at(0, ARTIST, 2);
    assert_eq!(t.p.cost(0, bedroom), 3);
    t.at(0, DOCTOR, 2);
    assert_eq!(t.p.cost(0, bedroom), 2);
    t.at(0, GAMBLER, 2).befriend(1, DOCTOR);
    assert_eq!(t.p.cost(0, bedroom), 5);
}

#[test]
fn a_card_is_paid_for_with_favors_from_the_house_where_you_stand() {
    // "you can spend favors from the house where you are standing to play a card from your
    // hand into your Stuff ... you can play any card anywhere."
    let mut t = Table::new(3);
    let bedroom = t.give(0, "Spare Bedroom");
    t.favors(0, ARTIST, 4)
        .befriend(0, DOCTOR)
        .at(0, ARTIST, 1)
        .turn(0);
    t.play(
        0,
        Input::PlayCard {
            card: bedroom,
            face: id("Spare Bedroom"),
            friend: Friend::Keep,
        },
    );
    assert_eq!(t.favor_count(0, ARTIST), 1);
    assert_eq!(
        t.favor_count(0, DOCTOR),
        2,
        "the Doctor's house is untouched"
    );
    assert_eq!(t.p.stuff[0], vec![id("Spare Bedroom")]);
    // Too few favors here: refused, and the card stays in hand.
    let tub = t.give(0, "Hot Tub");
    t.turn(0);
    assert!(t.refused(
        0,
        Input::PlayCard {
            card: tub,
            face: id("Hot Tub"),
            friend: Friend::Keep
        }
    ));
    assert!(t.p.hands[0].contains(&tub));
}

#[test]
fn a_card_claimed_as_another_face_is_refused_naming_the_seat() {
    let mut t = Table::new(3);
    let real = t.give(0, "Ramen Noodles");
    t.at(0, ARTIST, 1).turn(0);
    let lie = Input::PlayCard {
        card: real,
        face: id("Tie-Dye T-Shirt"),
        friend: Friend::Keep,
    };
    assert!(matches!(
        t.step(Step::Inputs(vec![(0, Play::Open(lie))])),
        Err(RuleError::PrivateMismatch { seat: 0, .. })
    ));
}

#[test]
fn a_negative_cost_places_favors_and_allows_a_challenge_for_best_friend() {
    // "Discounts are cumulative, and can even lead to negative costs. If you play a card with
    // a negative cost, you place new favors in that house, and yes, this does allow you to
    // immediately compete for Best Friend. (This matters with exactly one card.)"
    let mut t = Table::new(3);
    let futon = t.give(0, "Lumpy Futon");
    t.befriend(0, ARTIST)
        .befriend(1, HIPPIES)
        .at(0, HIPPIES, 2)
        .turn(0);
    assert_eq!(t.p.cost(0, id("Lumpy Futon")), -1);
    t.play(
        0,
        Input::PlayCard {
            card: futon,
            face: id("Lumpy Futon"),
            friend: Friend::Challenge { slot: 0 },
        },
    );
    assert_eq!(t.favor_count(0, HIPPIES), 3);
    assert_eq!(Freeloader::pending(&t.p), Pending::Turn { seat: 1 });
    t.play(1, Input::GiveUp);
    assert_eq!(t.bf(HIPPIES), Some(0));
}

// ---- Spaces ------------------------------------------------------------------------------

/// Seat 0 lands on the space of `house` at `index` (moving one die from the space before).
fn land_on(t: &mut Table, house: u8, index: u8) {
    let target = house * 7 + index;
    t.p.pawns[0] = (target + 42 - 1) % 42;
    t.turn(0);
    t.play(0, Input::Move { dice: 1 });
    t.chance_for(|p, _| p.pawns[0] == target);
}

fn space_index(house: House, space: Space) -> u8 {
    section(house)
        .track
        .iter()
        .position(|s| *s == space)
        .unwrap_or_else(|| panic!("{house:?} has no {space:?}")) as u8
}

#[test]
fn you_cannot_sit_still_to_reuse_a_space() {
    // "You can't spend a turn to 'sit still' and re-use the space you're on. To follow a
    // space you have to move into it."
    let mut t = Table::new(3);
    t.at(0, DOCTOR, 1).turn(0);
    let legal = Freeloader::legal_inputs(&t.p, t.privates[0].as_ref(), 0);
    assert!(!legal.iter().any(|i| matches!(i, Input::Move { dice: 0 })));
    assert!(t.refused(0, Input::Move { dice: 0 }));
}

#[test]
fn a_place_a_favor_space_places_one_in_its_house_or_the_house_of_your_choice() {
    // "Place a Favor: These spaces tell you to either place a favor in a particular house or
    // in a house of your choice."
    let mut t = Table::new(3);
    land_on(
        &mut t,
        DOCTOR,
        space_index(House::Doctor, Space::Favor(Some(House::Doctor))),
    );
    assert!(t.refused(
        0,
        Input::Favor {
            house: ARTIST,
            friend: Friend::Keep
        }
    ));
    t.play(
        0,
        Input::Favor {
            house: DOCTOR,
            friend: Friend::Keep,
        },
    );
    assert_eq!(t.favor_count(0, DOCTOR), 3);
    let mut t = Table::new(3);
    land_on(
        &mut t,
        DOCTOR,
        space_index(House::Doctor, Space::Favor(None)),
    );
    t.play(
        0,
        Input::Favor {
            house: GAMBLER,
            friend: Friend::Keep,
        },
    );
    assert_eq!(t.favor_count(0, GAMBLER), 3);
}

#[test]
fn a_hand_to_hand_trade_the_chosen_player_gives_first_then_you_give_one_back() {
    // "If you trade hand to hand, choose a player. That player chooses a card from his hand
    // and puts it in yours. You then choose a card from your hand and put it in his. You can
    // give back the card he gave you"
    let mut t = Table::new(3);
    t.give(0, "Ramen Noodles");
    let theirs = t.give(1, "Hot Tub");
    land_on(&mut t, DOCTOR, space_index(House::Doctor, Space::Trade));
    t.play(
        0,
        Input::Trade {
            with: 1,
            kind: TradeKind::Hand,
        },
    );
    assert_eq!(Freeloader::pending(&t.p), Pending::Turn { seat: 1 });
    // The card passes face down: only the two of them learn it.
    let moves = Freeloader::card_moves(&t.p, 1, &Input::Give { card: theirs });
    assert!(matches!(
        moves.as_slice(),
        [hoard_rules::CardMove::Pass { to: 0, .. }]
    ));
    t.play(1, Input::Give { card: theirs });
    assert!(t.p.hands[0].contains(&theirs));
    t.privates[0].as_mut().unwrap().faces.insert(
        match theirs {
            Held::Hidden(h) => h,
            Held::Open(_) => unreachable!(),
        },
        id("Hot Tub"),
    );
    t.play(0, Input::Give { card: theirs });
    assert!(t.p.hands[1].contains(&theirs), "the same card may go back");
}

/// A table of three where seat 0 has asked seat 1, holding one hidden Hot Tub, for a
/// hand-to-hand trade; and that card.
fn hand_trade_asked_of_seat_1() -> (Table, Held) {
    let mut t = Table::new(3);
    let theirs = t.give(1, "Hot Tub");
    land_on(&mut t, DOCTOR, space_index(House::Doctor, Space::Trade));
    t.play(
        0,
        Input::Trade {
            with: 1,
            kind: TradeKind::Hand,
        },
    );
    (t, theirs)
}

#[test]
fn a_card_given_face_down_is_named_only_by_its_place_never_by_its_face() {
    // "That player chooses a card from his hand and puts it in yours": only the two of them
    // learn what it is, so the move every device receives must say nothing of its face.
    let (mut t, theirs) = hand_trade_asked_of_seat_1();
    let offered = |t: &Table| Freeloader::legal_inputs(&t.p, t.privates[1].as_ref(), 1);
    let as_hot_tub = offered(&t);
    let Held::Hidden(h) = theirs else {
        unreachable!()
    };
    t.privates[1]
        .as_mut()
        .unwrap()
        .faces
        .insert(h, id("Ramen Noodles"));
    assert_eq!(as_hot_tub, vec![Input::Give { card: theirs }]);
    assert_eq!(
        offered(&t),
        as_hot_tub,
        "the same move whatever the card is"
    );
    // The table can check it without the hand: the card is one the giver holds.
    assert_eq!(
        Freeloader::check_input(&t.p, 1, &Input::Give { card: theirs }),
        Ok(())
    );
}

#[test]
fn a_removed_player_asked_to_trade_a_hidden_hand_gives_nothing_and_a_skipped_one_is_waited_for() {
    // "That player chooses a card from his hand": a hidden card leaves a hand only by its
    // holder's choice. A skipped player may come back to make it (the table waits); a
    // removed one has left the game with that hand, unseen, and gives nothing.
    let (mut t, theirs) = hand_trade_asked_of_seat_1();
    assert_eq!(Freeloader::sit_out(&t.p, 1, Absence::Skipped), None);
    assert_eq!(
        Freeloader::sit_out(&t.p, 1, Absence::Removed),
        Some(Input::Skip)
    );
    // A player at the table cannot refuse: with a card in hand, giving nothing is refused.
    assert!(t.refused(1, Input::Skip));
    t.step(Step::Inputs(vec![(1, Play::Away(Input::Skip))]))
        .expect("the rules' move for a removed player");
    assert!(
        t.p.hands[1].contains(&theirs),
        "the hidden card stays unseen"
    );
    assert!(matches!(t.p.phase, Phase::TradeBack { seat: 0, .. }));
    // The mover gone in the middle of their own trade gives nothing back.
    assert_eq!(
        Freeloader::sit_out(&t.p, 0, Absence::Removed),
        Some(Input::Skip)
    );
}

#[test]
fn a_stuff_to_stuff_trade_and_a_hand_to_board_trade() {
    // "If you trade Stuff-to-Stuff, use the same process. ... If you trade hand-to-Board, you
    // can choose any faceup card and put it in your hand. You replace that card with a card
    // from your hand, faceup."
    let mut t = Table::new(3);
    t.p.stuff[0] = vec![id("Ramen Noodles")];
    t.p.stuff[1] = vec![id("Hot Tub")];
    land_on(&mut t, DOCTOR, space_index(House::Doctor, Space::Trade));
    t.play(
        0,
        Input::Trade {
            with: 1,
            kind: TradeKind::Stuff,
        },
    );
    t.play(
        1,
        Input::Give {
            card: Held::Open(id("Hot Tub")),
        },
    );
    t.play(
        0,
        Input::Give {
            card: Held::Open(id("Ramen Noodles")),
        },
    );
    assert_eq!(t.p.stuff[0], vec![id("Hot Tub")]);
    assert_eq!(t.p.stuff[1], vec![id("Ramen Noodles")]);
    let mut t = Table::new(3);
    let mine = t.give(0, "Lava Lamp");
    t.p.houses[usize::from(GAMBLER)].face_up = Some(id("Gold Chain"));
    land_on(&mut t, DOCTOR, space_index(House::Doctor, Space::Trade));
    t.play(
        0,
        Input::TradeBoard {
            house: GAMBLER,
            card: mine,
            face: id("Lava Lamp"),
        },
    );
    assert_eq!(
        t.p.houses[usize::from(GAMBLER)].face_up,
        Some(id("Lava Lamp"))
    );
    assert!(t.p.hands[0].contains(&Held::Open(id("Gold Chain"))));
}

#[test]
fn a_steal_space_takes_a_food_or_a_clothing_from_anyones_stuff() {
    // "If you land on the 'Steal a Food' or 'Steal a Clothing' space, you can take a card of
    // that type from any player's Stuff and put it into yours."
    let mut t = Table::new(3);
    t.p.stuff[2] = vec![id("Steak Dinner"), id("Borrowed Suit")];
    land_on(
        &mut t,
        WAITRESS,
        space_index(House::Waitress, Space::StealFood),
    );
    assert!(t.refused(
        0,
        Input::Steal {
            from: 2,
            card: id("Borrowed Suit")
        }
    ));
    t.play(
        0,
        Input::Steal {
            from: 2,
            card: id("Steak Dinner"),
        },
    );
    assert_eq!(t.p.stuff[0], vec![id("Steak Dinner")]);
}

#[test]
fn crashing_on_an_open_space_places_a_favor_covering_it_and_counts_as_shelter() {
    // "If the Crash Space is open, you will place a new favor in that House, covering the
    // Crash Space. ... Crashing also counts as having 'Shelter' in case you need it to win."
    let mut t = Table::new(3);
    t.p.stuff[0] = vec![id("Ramen Noodles"), id("Tie-Dye T-Shirt")];
    assert!(!t.p.qualifies(0));
    land_on(&mut t, ARTIST, space_index(House::Artist, Space::Crash));
    t.play(
        0,
        Input::Crash {
            evict: None,
            friend: Friend::Keep,
        },
    );
    assert_eq!(t.p.houses[usize::from(ARTIST)].crash, vec![Some(0)]);
    assert_eq!(t.favor_count(0, ARTIST), 3);
    assert!(t.p.qualifies(0));
}

#[test]
fn a_full_crash_space_is_taken_only_by_the_best_friend_who_throws_the_crasher_out() {
    // "If the Crash Space is occupied, you will do nothing on this space unless you are Best
    // Friend in the house. In that case, you remove the opponent's counter from the crash
    // space, take it out of the house, and replace it with a new one of your own."
    let mut t = Table::new(3);
    t.p.houses[usize::from(ARTIST)].crash = vec![Some(2)];
    t.favors(2, ARTIST, 3);
    land_on(&mut t, ARTIST, space_index(House::Artist, Space::Crash));
    let legal = Freeloader::legal_inputs(&t.p, t.privates[0].as_ref(), 0);
    assert_eq!(
        legal,
        vec![Input::Skip],
        "not the Best Friend: nothing to do"
    );
    let mut t = Table::new(3);
    t.p.houses[usize::from(ARTIST)].crash = vec![Some(2)];
    t.favors(2, ARTIST, 3).befriend(0, ARTIST);
    land_on(&mut t, ARTIST, space_index(House::Artist, Space::Crash));
    t.play(
        0,
        Input::Crash {
            evict: Some(2),
            friend: Friend::Keep,
        },
    );
    assert_eq!(t.p.houses[usize::from(ARTIST)].crash, vec![Some(0)]);
    assert_eq!(t.favor_count(2, ARTIST), 2);
    assert_eq!(t.favor_count(0, ARTIST), 3);
}

#[test]
fn the_hippies_three_crash_spaces_one_each_and_their_best_friend_picks_whom_to_evict() {
    // "One player can't occupy more than one crash space in the Hippies' house. If all three
    // spaces are full, the Hippies' Best Friend isn't among them, and the Hippies' Best
    // Friend lands on Crashing at the Hippies' House, that player can choose which other
    // player to evict."
    let hippies = space_index(House::Hippies, Space::Crash);
    let mut t = Table::new(4);
    t.p.houses[usize::from(HIPPIES)].crash = vec![Some(0), None, None];
    land_on(&mut t, HIPPIES, hippies);
    assert_eq!(
        Freeloader::legal_inputs(&t.p, t.privates[0].as_ref(), 0),
        vec![Input::Skip]
    );
    let mut t = Table::new(4);
    t.p.houses[usize::from(HIPPIES)].crash = vec![Some(1), Some(2), Some(3)];
    t.befriend(0, HIPPIES);
    land_on(&mut t, HIPPIES, hippies);
    let legal = Freeloader::legal_inputs(&t.p, t.privates[0].as_ref(), 0);
    for victim in 1..=3 {
        assert!(legal.contains(&Input::Crash {
            evict: Some(victim),
            friend: Friend::Keep
        }));
    }
    t.play(
        0,
        Input::Crash {
            evict: Some(2),
            friend: Friend::Keep,
        },
    );
    let crash = &t.p.houses[usize::from(HIPPIES)].crash;
    assert!(crash.contains(&Some(0)) && !crash.contains(&Some(2)));
}

#[test]
fn a_crasher_who_wins_best_friend_with_no_other_counter_moves_to_the_best_friend_space() {
    // "...but if you win and have no other counters in the house you must move your counter
    // from the Crash Space to the Best Friend space."
    let mut t = Table::new(3);
    t.favors(0, ARTIST, 0)
        .favors(1, ARTIST, 1)
        .befriend(1, ARTIST);
    land_on(&mut t, ARTIST, space_index(House::Artist, Space::Crash));
    t.play(
        0,
        Input::Crash {
            evict: None,
            friend: Friend::Challenge { slot: 0 },
        },
    );
    t.play(1, Input::GiveUp);
    let h = &t.p.houses[usize::from(ARTIST)];
    assert_eq!(h.best_friends, vec![Some(0)]);
    assert_eq!(h.crash, vec![None]);
    assert_eq!(h.favors[0], 1);
}

#[test]
fn a_bus_stop_takes_the_bus_to_a_random_stop_and_then_moves_again() {
    // "When you land on a Bus Stop you must 'take the bus.' This means you roll one die to
    // jump to a random Bus stop, and then move again normally."
    let mut t = Table::new(3);
    land_on(&mut t, DOCTOR, 6);
    assert!(matches!(t.p.phase, Phase::Bus { seat: 0 }));
    let events = t.chance_for(|_, _| true);
    let Some(Event::Bus { stop, .. }) = events.first() else {
        panic!("{events:?}")
    };
    assert_eq!(t.p.pawns[0], t.p.bus_stop(*stop));
    assert!(matches!(t.p.phase, Phase::MoveAgain { seat: 0 }));
    let legal = Freeloader::legal_inputs(&t.p, t.privates[0].as_ref(), 0);
    assert!(legal.iter().all(|i| matches!(i, Input::Move { .. })));
}

// ---- Special cards -----------------------------------------------------------------------

#[test]
fn a_dwi_handed_off_goes_into_their_stuff_and_their_cars_leave_the_game() {
    // "hand them to another player from your Stuff, and the card goes into their Stuff. If
    // they have any cars, those cars are removed from the game. Owning the DWI cards doesn't
    // preclude you from owning cars"
    let mut t = Table::new(3);
    t.p.stuff[0] = vec![id("Draft Beer"), id("Crummy Old Car")];
    t.p.stuff[1] = vec![id("Borrowed Sedan"), id("Hippie Van"), id("Ramen Noodles")];
    t.turn(0);
    t.play(
        0,
        Input::Dwi {
            card: id("Draft Beer"),
            to: 1,
        },
    );
    assert_eq!(t.p.stuff[1], vec![id("Ramen Noodles"), id("Draft Beer")]);
    assert_eq!(t.p.stuff[0], vec![id("Crummy Old Car")]);
    assert!(t.p.out.contains(&id("Borrowed Sedan")) && t.p.out.contains(&id("Hippie Van")));
}

#[test]
fn a_surprise_card_leaves_the_game_for_favors_with_one_challenge_as_the_whole_turn() {
    // "you can discard these cards in exchange for favors in a particular house. Putting
    // these favors into play allows you to challenge just once for Best Friend ... When you
    // play them for favors, remove these cards from the game."
    let mut t = Table::new(3);
    let party = t.give(0, "Surprise Party");
    let hoard_rules::freeloader::data::Special::Surprise { house, favors } =
        CARDS[usize::from(id("Surprise Party"))].special
    else {
        panic!("the Surprise Party is a Surprise! card")
    };
    let place = t.p.place_of(house);
    t.befriend(1, place).turn(0);
    t.play(
        0,
        Input::Surprise {
            card: party,
            face: id("Surprise Party"),
            friend: Friend::Challenge { slot: 0 },
        },
    );
    assert_eq!(t.favor_count(0, place), 2 + favors);
    assert!(t.p.out.contains(&id("Surprise Party")));
    assert_eq!(Freeloader::pending(&t.p), Pending::Turn { seat: 1 });
    t.play(1, Input::GiveUp);
    assert!(
        matches!(t.p.phase, Phase::Turn { seat: 1 }),
        "the whole turn"
    );
}

#[test]
fn matching_cards_score_their_bonus_together() {
    // "Don't forget to add bonus points for matching cards like the Golfing Shoes and Golfing
    // Hat."
    let mut t = Table::new(3);
    t.p.stuff[0] = vec![id("Golfing Shoes")];
    let alone = t.p.score(0);
    t.p.stuff[0].push(id("Golfing Hat"));
    let hoard_rules::freeloader::data::Special::Match { bonus, .. } =
        CARDS[usize::from(id("Golfing Hat"))].special
    else {
        panic!()
    };
    assert_eq!(
        t.p.score(0),
        alone + i32::from(CARDS[usize::from(id("Golfing Hat"))].points) + i32::from(bonus)
    );
}

// ---- The end -----------------------------------------------------------------------------

#[test]
fn the_last_card_drawn_ends_the_game_after_the_last_players_turn() {
    // "The game is over ... when the last card is drawn out of the center pile. ... The game
    // will continue until the player to the leader's right (the last player) has had a turn.
    // If the deck empties during the last player's turn, then that's the end of the game."
    let mut t = Table::new(3);
    t.p.first = 1;
    t.p.deck.taken = t.p.deck.len - 1;
    t.at(1, DOCTOR, 1).turn(1);
    t.play(1, Input::Draw { face_up: false });
    let events = t.step(Step::Dealt).unwrap();
    assert!(events.contains(&Event::DeckOut));
    assert!(matches!(t.p.phase, Phase::Turn { seat: 2 }));
    t.play(2, Input::Move { dice: 1 });
    t.chance_for(|p, _| {
        matches!(
            p.space(p.pawns[2]),
            Space::Draw
                | Space::Trade
                | Space::StealFood
                | Space::StealClothing
                | Space::Crash
                | Space::Favor(_)
        )
    });
    while !matches!(t.p.phase, Phase::Turn { .. } | Phase::Over(_)) {
        t.play(
            2,
            Freeloader::legal_inputs(&t.p, None, 2)
                .last()
                .cloned()
                .unwrap(),
        );
    }
    assert!(
        matches!(t.p.phase, Phase::Turn { seat: 0 }),
        "seat 0 is the last player"
    );
    t.play(
        0,
        Input::Favor {
            house: DOCTOR,
            friend: Friend::Keep,
        },
    );
    assert!(matches!(t.p.phase, Phase::Over(_)));
}

#[test]
fn a_face_up_card_replaced_by_the_last_card_of_the_deck_ends_the_game_too() {
    // "This can happen when someone draws that card, or when they draw a faceup card that is
    // replaced by the last card in the deck."
    let mut t = Table::new(3);
    t.p.first = 1;
    t.p.deck.taken = t.p.deck.len - 1;
    t.p.houses[usize::from(DOCTOR)].face_up = Some(id("Ramen Noodles"));
    t.at(0, DOCTOR, 1).turn(0);
    t.play(0, Input::Draw { face_up: true });
    let events = t.step(Step::Revealed(vec![id("Hot Tub")])).unwrap();
    assert!(events.contains(&Event::DeckOut));
    assert!(
        matches!(t.p.phase, Phase::Over(_)),
        "seat 0 was the last player"
    );
}

#[test]
fn the_best_qualified_player_wins_nobody_qualifying_means_everybody_loses_ties_share() {
    // "Among the players who qualify, the player with the highest point total wins. If no one
    // qualifies, nobody wins."
    let end = |stuff: Vec<Vec<&str>>| {
        let mut t = Table::new(3);
        t.p.deck.taken = t.p.deck.len;
        t.p.first = 0;
        for (s, cards) in stuff.iter().enumerate() {
            t.p.stuff[s] = cards.iter().map(|n| id(n)).collect();
        }
        t.turn(2);
        let events = t.play(
            2,
            Input::Favor {
                house: DOCTOR,
                friend: Friend::Keep,
            },
        );
        events
            .into_iter()
            .find_map(|e| match e {
                Event::Ended { winners, .. } => Some(winners),
                _ => None,
            })
            .expect("the game ends")
    };
    let full = vec!["Ramen Noodles", "Tie-Dye T-Shirt", "Spot on the Floor"];
    let rich = vec!["Hot Tub", "Big-Screen TV", "Steak Dinner", "Borrowed Suit"];
    assert_eq!(end(vec![full.clone(), rich.clone(), vec![]]), vec![0]);
    assert_eq!(end(vec![vec![], rich.clone(), vec![]]), Vec::<Seat>::new());
    assert_eq!(end(vec![full.clone(), full.clone(), vec![]]), vec![0, 1]);
}

#[test]
fn a_crasher_taking_an_open_best_friend_space_with_no_other_counter_moves_it_there() {
    // One favor is one counter: a lone crash counter cannot also mark the Best Friend space,
    // so taking it moves the counter over, as winning it would.
    let mut t = Table::new(3);
    t.favors(0, ARTIST, 0);
    land_on(&mut t, ARTIST, space_index(House::Artist, Space::Crash));
    t.play(
        0,
        Input::Crash {
            evict: None,
            friend: Friend::Take { slot: 0 },
        },
    );
    let h = &t.p.houses[usize::from(ARTIST)];
    assert_eq!(
        (h.favors[0], h.best_friends.clone(), h.crash.clone()),
        (1, vec![Some(0)], vec![None])
    );
}

#[test]
fn an_open_crash_space_is_always_crashed_never_passed_up() {
    // "If you land on a Crash Space, what you can do will depend on who's already there. If
    // the Crash Space is open, you will place a new favor in that House, covering the Crash
    // Space."
    let mut t = Table::new(3);
    land_on(&mut t, ARTIST, space_index(House::Artist, Space::Crash));
    let legal = Freeloader::legal_inputs(&t.p, t.privates[0].as_ref(), 0);
    assert!(!legal.contains(&Input::Skip), "{legal:?}");
    assert!(legal.contains(&Input::Crash {
        evict: None,
        friend: Friend::Keep
    }));
    let refused = t.step(Step::turn(0, Input::Skip));
    assert!(
        matches!(&refused, Err(RuleError::Illegal { seat: 0, why }) if why.contains("Crash space")),
        "{refused:?}"
    );
    assert!(
        matches!(t.p.phase, Phase::Land { seat: 0 }),
        "nothing changed"
    );
    // A player the table goes on without crashes too.
    assert_eq!(
        Freeloader::sit_out(&t.p, 0, Absence::Skipped),
        Some(Input::Crash {
            evict: None,
            friend: Friend::Keep
        })
    );
    t.play(
        0,
        Input::Crash {
            evict: None,
            friend: Friend::Keep,
        },
    );
    assert_eq!(t.p.houses[usize::from(ARTIST)].crash, vec![Some(0)]);
}

/// Seat 0 stands at the Doctor's, his Best Friend and crashing there with `favors` favors in
/// all, the Spare Bedroom (2 for it, there) in hand.
fn bedroom_at_the_doctors(favors: u8) -> (Table, Held) {
    let mut t = Table::new(3);
    let bedroom = t.give(0, "Spare Bedroom");
    t.favors(0, DOCTOR, favors)
        .befriend(0, DOCTOR)
        .at(0, DOCTOR, 2)
        .turn(0);
    t.p.houses[usize::from(DOCTOR)].crash = vec![Some(0)];
    assert_eq!(t.p.cost(0, id("Spare Bedroom")), 2);
    (t, bedroom)
}

/// What each legal way of playing `card` leaves seat 0 in the Doctor's house: (favors,
/// crashing, Best Friend).
fn outcomes_of_paying(t: &Table, card: Held) -> Vec<(Input, (u8, bool, bool))> {
    Freeloader::legal_inputs(&t.p, t.privates[0].as_ref(), 0)
        .into_iter()
        .filter(|i| format!("{i:?}").contains(&format!("{card:?}")))
        .map(|i| {
            let mut p = t.p.clone();
            let mut privates = t.privates.clone();
            Freeloader::apply(&mut p, &mut privates, &Step::turn(0, i.clone())).unwrap();
            let h = &p.houses[usize::from(DOCTOR)];
            (i, (h.favors[0], h.is_crashing(0), h.is_best_friend(0)))
        })
        .collect()
}

#[test]
fn the_player_says_which_favors_pay_keeping_the_crash_space_or_the_best_friend() {
    // "you can spend favors from the house where you are standing to play a card ... You can
    // spend favors occupying Best Friend and Crash Spaces, but you will lose those benefits if
    // you spend those favors." Three favors, two of them on the Crash and Best Friend spaces,
    // pay 2: one space must go, and the player says which.
    let (t, bedroom) = bedroom_at_the_doctors(3);
    let outcomes: Vec<(u8, bool, bool)> = outcomes_of_paying(&t, bedroom)
        .into_iter()
        .map(|(_, o)| o)
        .collect();
    assert!(
        outcomes.contains(&(1, false, true)),
        "keeping the Best Friend: {outcomes:?}"
    );
    assert!(
        outcomes.contains(&(1, true, false)),
        "keeping the Crash space: {outcomes:?}"
    );
    assert_eq!(outcomes.len(), 2, "{outcomes:?}");
    // One tap: the plain play keeps the Best Friend, as before.
    let mut plain = bedroom_at_the_doctors(3).0;
    plain.play(
        0,
        Input::PlayCard {
            card: bedroom,
            face: id("Spare Bedroom"),
            friend: Friend::Keep,
        },
    );
    let h = &plain.p.houses[usize::from(DOCTOR)];
    assert_eq!((h.is_crashing(0), h.is_best_friend(0)), (false, true));
    // Keeping the Crash space (Shelter) instead: the Best Friend's counter is among the two.
    let mut chosen = bedroom_at_the_doctors(3).0;
    chosen.play(
        0,
        Input::PlayCardPaying {
            card: bedroom,
            face: id("Spare Bedroom"),
            paying: Paying {
                crash: false,
                best_friend: true,
            },
        },
    );
    let h = &chosen.p.houses[usize::from(DOCTOR)];
    assert_eq!(
        (h.favors[0], h.is_crashing(0), h.is_best_friend(0)),
        (1, true, false)
    );
    assert_eq!(chosen.p.stuff[0], vec![id("Spare Bedroom")]);
    // Where the plain favors pay it all, or both spaces must go, there is nothing to choose.
    for favors in [4, 2] {
        let (t, bedroom) = bedroom_at_the_doctors(favors);
        let ways = outcomes_of_paying(&t, bedroom);
        assert_eq!(ways.len(), 1, "{favors} favors: {ways:?}");
        assert!(matches!(ways[0].0, Input::PlayCard { .. }));
    }
    // A choice that loses a space the favors could keep is refused.
    let (mut t, bedroom) = bedroom_at_the_doctors(4);
    assert!(t.refused(
        0,
        Input::PlayCardPaying {
            card: bedroom,
            face: id("Spare Bedroom"),
            paying: Paying {
                crash: true,
                best_friend: false,
            },
        }
    ));
}
