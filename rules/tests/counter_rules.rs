//! Counter, the shared-deck game: its rules (quoted from `rules/src/counter/mod.rs`) and the
//! deck interface they stand on, played with the local dealer in place of the mental deck.

use hoard_rules::counter::{self, Config, Counter, Event, Input, Phase, Private, Public};
use hoard_rules::deck::Dealer;
use hoard_rules::play::{Played, play_out, play_out_with, replay};
use hoard_rules::{CardId, Game, Handle, Pending, Play, RuleError, Seal, Seat, Step, public_hash};
use std::collections::BTreeMap;

fn seed(n: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&n.to_le_bytes());
    s
}

fn play(seats: u8, n: u64) -> Played<Counter> {
    play_out::<Counter>(
        &Config::new(seats),
        &vec![[0; 32]; seats.into()],
        &seed(n),
        5_000,
    )
    .unwrap_or_else(|e| panic!("game {n} at {seats} seats: {e}"))
}

/// A table at `seat`'s turn with the given hands (faces; handles taken from the top of a
/// freshly made deck) and the discard pile.
fn table(hands: &[&[CardId]], discard: &[CardId], seat: Seat) -> (Public, Vec<Option<Private>>) {
    let seats = hands.len() as u8;
    let mut public = Counter::setup(&Config::new(seats)).unwrap();
    public.deck.shuffled(usize::from(counter::CARDS));
    let mut privates: Vec<Option<Private>> = (0..seats)
        .map(|s| Some(Counter::private(&public.config, s, [0; 32])))
        .collect();
    for (s, faces) in hands.iter().enumerate() {
        for card in public.deck.take(faces.len()).into_iter().zip(faces.iter()) {
            public.hands[s].push(card.0);
            Counter::learn(privates[s].as_mut().unwrap(), card.0, *card.1);
        }
    }
    public.discard = discard.to_vec();
    public.turns = 1;
    public.phase = Phase::Turn { seat };
    (public, privates)
}

fn card_of(privates: &[Option<Private>], seat: Seat, face: CardId) -> Handle {
    let p = privates[usize::from(seat)].as_ref().unwrap();
    *p.faces.iter().find(|(_, f)| **f == face).unwrap().0
}

fn step(
    public: &mut Public,
    privates: &mut [Option<Private>],
    plays: Vec<(Seat, Input)>,
) -> Result<Vec<Event>, RuleError> {
    let plays = plays.into_iter().map(|(s, i)| (s, Play::Open(i))).collect();
    Counter::apply(public, privates, &Step::Inputs(plays))
}

#[test]
fn the_deck_is_made_then_each_player_is_dealt_three_cards_nobody_else_sees() {
    // "The deck is 24 cards ... shuffled so that nobody knows its order. Each player is
    // dealt 3 cards; nobody else sees them."
    let public = Counter::setup(&Config::new(3)).unwrap();
    assert_eq!(
        Counter::pending(&public),
        Pending::Shuffle {
            deck: counter::DECK,
            cards: (0..24).collect()
        }
    );
    let played = play(3, 1);
    let mut privates: Vec<Option<Private>> = (0..3)
        .map(|s| Some(Counter::private(&Config::new(3), s, [0; 32])))
        .collect();
    // Replay the shuffle and the three deals: each seat learns its own three faces only.
    let (after, privates_after) = replay::<Counter>(
        &Config::new(3),
        std::mem::take(&mut privates),
        &played.steps[..4],
        &played.dealer,
        &mut |_, _, _| {},
    )
    .unwrap();
    for (seat, private) in privates_after.iter().enumerate() {
        let private = private.as_ref().unwrap();
        assert_eq!(private.faces.len(), 3, "seat {seat} knows its three cards");
        for card in private.faces.keys() {
            assert!(after.hands[seat].contains(card));
        }
    }
    assert_eq!(after.deck.left(), 24 - 9);
    assert_eq!(
        Counter::pending(&after),
        Pending::Chance,
        "then the first player"
    );
}

#[test]
fn a_play_nobody_counters_stands_and_scores_its_number() {
    // "If nobody counters, the play stands and scores its number."
    let (mut public, mut privates) = table(&[&[20], &[0], &[4]], &[], 0);
    let card = card_of(&privates, 0, 20);
    let events = step(
        &mut public,
        &mut privates,
        vec![(0, Input::Play { card, face: 20 })],
    )
    .unwrap();
    assert!(events.contains(&Event::Played { seat: 0, face: 20 }));
    assert_eq!(
        Counter::pending(&public),
        Pending::Together {
            seats: vec![1, 2],
            seal: Seal::Reaction
        },
        "every other player holding a card may counter"
    );
    let events = step(
        &mut public,
        &mut privates,
        vec![(1, Input::Allow), (2, Input::Allow)],
    )
    .unwrap();
    assert!(events.contains(&Event::Stands {
        seat: 0,
        face: 20,
        points: 6
    }));
    assert_eq!(public.scores, vec![6, 0, 0]);
    assert_eq!(public.discard, vec![20]);
    assert_eq!(public.phase, Phase::Turn { seat: 1 });
}

/// Four seats holding an 8 (a 3), a 9 (a 3), a 10 (a 3) and a 2 (a 1); seat 1 has played
/// its 3, and the others may answer.
fn a_three_played_by_seat_1() -> (Public, Vec<Option<Private>>) {
    let (mut public, mut privates) = table(&[&[8], &[9], &[10], &[2]], &[], 1);
    let c1 = card_of(&privates, 1, 9);
    step(
        &mut public,
        &mut privates,
        vec![(1, Input::Play { card: c1, face: 9 })],
    )
    .unwrap();
    (public, privates)
}

#[test]
fn the_first_counter_after_the_player_is_taken_and_a_late_one_goes_back_to_its_hand() {
    // "If some do, the first of them after the player in turn order counters it ... a
    // counter that came too late ... stays in its player's hand." (Here every answer is
    // open, as at the audit: the late counter is seen, and changes nothing.)
    let (mut public, mut privates) = a_three_played_by_seat_1();
    let c0 = card_of(&privates, 0, 8);
    let c2 = card_of(&privates, 2, 10);
    // Seats 0 and 2 both counter the 3; seat 2 comes first after seat 1.
    let events = step(
        &mut public,
        &mut privates,
        vec![
            (0, Input::Counter { card: c0, face: 8 }),
            (2, Input::Counter { card: c2, face: 10 }),
            (3, Input::Allow),
        ],
    )
    .unwrap();
    assert!(events.contains(&Event::Countered { seat: 2, face: 10 }));
    assert!(events.contains(&Event::TooLate { seat: 0, face: 8 }));
    assert!(
        public.hands[0].contains(&c0),
        "the late counter is back in hand"
    );
    assert!(!public.hands[2].contains(&c2));
    // "everyone but that player may counter the counter": seat 0 still holds a 3, seat 3
    // holds a card; seat 1 has none left. Their answers open in turn order after seat 2.
    assert_eq!(
        Counter::pending(&public),
        Pending::Together {
            seats: vec![3, 0],
            seal: Seal::Reaction
        }
    );
    // Seat 0 counters the counter; three 3s are up and the fourth may still be out.
    step(
        &mut public,
        &mut privates,
        vec![(0, Input::Counter { card: c0, face: 8 }), (3, Input::Allow)],
    )
    .unwrap();
    // Seats 1 and 2 hold nothing now: only seat 3 may answer.
    let events = step(&mut public, &mut privates, vec![(3, Input::Allow)])
        .unwrap_or_else(|e| panic!("{e}: {:?}", Counter::pending(&public)));
    // "a counter that stands scores 1", and every card laid goes to the discard pile.
    assert!(events.contains(&Event::Stands {
        seat: 0,
        face: 8,
        points: 1
    }));
    assert_eq!(public.scores, vec![1, 0, 0, 0]);
    assert_eq!(public.discard, vec![9, 10, 8]);
    assert_eq!(
        public.phase,
        Phase::Turn { seat: 2 },
        "the player's turn is over"
    );
}

#[test]
fn no_window_opens_when_every_copy_of_the_number_is_face_up() {
    // "Windows are skipped only on public facts: ... all four copies of the number are
    // already face up."
    let (mut public, mut privates) = table(&[&[23], &[0]], &[20, 21, 22], 0);
    let card = card_of(&privates, 0, 23);
    let events = step(
        &mut public,
        &mut privates,
        vec![(0, Input::Play { card, face: 23 })],
    )
    .unwrap();
    assert!(events.contains(&Event::Stands {
        seat: 0,
        face: 23,
        points: 6
    }));
    assert_eq!(public.phase, Phase::Turn { seat: 1 });
}

#[test]
fn a_given_card_is_known_to_giver_and_receiver_only_and_the_giver_draws_two() {
    // "Give a card face down to another player (only the two of you know what it is),
    // then draw two."
    let (mut public, mut privates) = table(&[&[5, 6], &[7], &[8]], &[], 0);
    let card = card_of(&privates, 0, 5);
    let moves = Counter::card_moves(&public, 0, &Input::Give { card, to: 2 });
    assert_eq!(moves, vec![hoard_rules::CardMove::Pass { card, to: 2 }]);
    let events = step(
        &mut public,
        &mut privates,
        vec![(0, Input::Give { card, to: 2 })],
    )
    .unwrap();
    assert!(events.contains(&Event::Gave { from: 0, to: 2 }));
    assert!(public.hands[2].contains(&card));
    assert!(privates[0].as_ref().unwrap().face(&card).is_none());
    assert!(
        matches!(Counter::pending(&public), Pending::Deal { to: 0, ref cards } if cards.len() == 2)
    );
}

#[test]
fn when_the_deck_runs_out_the_discard_pile_becomes_a_new_hidden_deck() {
    // "When it runs out the discard pile is shuffled into a new hidden deck."
    let (mut public, mut privates) = table(&[&[1], &[2]], &[12, 16], 0);
    public.deck.take(usize::from(counter::CARDS));
    step(&mut public, &mut privates, vec![(0, Input::Draw)]).unwrap();
    assert_eq!(
        Counter::pending(&public),
        Pending::Shuffle {
            deck: counter::DECK,
            cards: vec![12, 16]
        }
    );
    Counter::apply(&mut public, &mut privates, &Step::Shuffled).unwrap();
    assert!(public.discard.is_empty());
    let Pending::Deal { to: 0, cards } = Counter::pending(&public) else {
        panic!("a deal from the new deck")
    };
    assert_eq!(cards[0].generation, 1, "the deck's second making");
}

#[test]
fn a_card_shown_as_what_it_is_not_is_refused_naming_its_seat() {
    let (mut public, mut privates) = table(&[&[1], &[2]], &[], 0);
    let card = card_of(&privates, 0, 1);
    let err = step(
        &mut public,
        &mut privates,
        vec![(0, Input::Play { card, face: 22 })],
    )
    .unwrap_err();
    assert_eq!(err.seat(), Some(0));
    assert!(matches!(err, RuleError::PrivateMismatch { .. }));
    let theirs = card_of(&privates, 1, 2);
    let err = step(
        &mut public,
        &mut privates,
        vec![(
            0,
            Input::Play {
                card: theirs,
                face: 2,
            },
        )],
    )
    .unwrap_err();
    assert!(
        matches!(err, RuleError::Illegal { seat: 0, .. }),
        "not its card: {err}"
    );
}

#[test]
fn games_end_are_won_and_use_every_part_of_the_deck() {
    // 300 games at 2 to 6 seats with the bots: every one ends with a winner, and between
    // them they deal, show, pass, reshuffle and chain counters.
    let (mut reshuffles, mut gives, mut chains, mut late) = (0, 0, 0, 0);
    for n in 0..300u64 {
        let seats = 2 + (n % 5) as u8;
        let mut counters_in_a_row = 0;
        let played = play_out_with::<Counter>(
            &Config::new(seats),
            &vec![[0; 32]; seats.into()],
            &seed(n),
            5_000,
            &mut Counter::bot_input,
            &mut |_, step, events| {
                if *step == Step::Shuffled {
                    reshuffles += 1;
                }
                for e in events {
                    match e {
                        Event::Gave { .. } => gives += 1,
                        Event::TooLate { .. } => late += 1,
                        Event::Countered { .. } => {
                            counters_in_a_row += 1;
                            if counters_in_a_row == 2 {
                                chains += 1;
                            }
                        }
                        Event::Stands { .. } => counters_in_a_row = 0,
                        _ => {}
                    }
                }
            },
        )
        .unwrap_or_else(|e| panic!("game {n}: {e}"));
        let outcome = played
            .outcome
            .unwrap_or_else(|| panic!("game {n} did not end"));
        assert!(!outcome.winners.is_empty(), "game {n} has no winner");
    }
    let reshuffles = reshuffles - 300; // every game's first making
    assert!(reshuffles > 20, "reshuffles: {reshuffles}");
    assert!(gives > 100, "gives: {gives}");
    assert!(chains > 10, "counters on counters: {chains}");
    assert!(late > 5, "late counters: {late}");
}

#[test]
fn a_device_with_one_hand_replays_the_game_to_the_same_bytes_and_learns_only_its_cards() {
    for n in 0..40u64 {
        let seats = 2 + (n % 5) as u8;
        let played = play(seats, 1_000 + n);
        let mut hashes = Vec::new();
        let (_, _) = play_out_with::<Counter>(
            &Config::new(seats),
            &vec![[0; 32]; seats.into()],
            &seed(1_000 + n),
            5_000,
            &mut Counter::bot_input,
            &mut |public, _, _| hashes.push(public_hash(public)),
        )
        .map(|p| (p.public, p.privates))
        .unwrap();
        let mine = (n % u64::from(seats)) as Seat;
        let mut privates: Vec<Option<Private>> = vec![None; seats.into()];
        privates[usize::from(mine)] = Some(Counter::private(&Config::new(seats), mine, [0; 32]));
        let mut at = 0;
        let (public, privates) = replay::<Counter>(
            &Config::new(seats),
            privates,
            &played.steps,
            &played.dealer,
            &mut |public, privates, _| {
                assert_eq!(public_hash(public), hashes[at], "game {n} step {at}");
                // Every face the one private side knows is of a card its seat holds.
                let own = privates[usize::from(mine)].as_ref().unwrap();
                let held: BTreeMap<_, _> = own.faces.clone();
                for card in held.keys() {
                    assert!(public.hands[usize::from(mine)].contains(card), "game {n}");
                }
                at += 1;
            },
        )
        .unwrap();
        assert_eq!(public, played.public);
        let own = privates[usize::from(mine)].as_ref().unwrap();
        assert_eq!(own, played.privates[usize::from(mine)].as_ref().unwrap());
    }
}

#[test]
fn a_dealer_that_does_not_know_a_card_cannot_be_asked_to_show_it() {
    // The local driver refuses a show whose claimed face is not the dealt face, as the
    // protocol refuses a show whose proof does not open to it.
    let played = play(3, 7);
    let mut dealer = Dealer::new();
    dealer.shuffle(
        counter::DECK,
        &(0..counter::CARDS).rev().collect::<Vec<_>>(),
        &[9; 32],
    );
    let privates = (0..3)
        .map(|s| Some(Counter::private(&Config::new(3), s, [0; 32])))
        .collect();
    let wrong = replay::<Counter>(
        &Config::new(3),
        privates,
        &played.steps,
        &dealer,
        &mut |_, _, _| {},
    );
    assert!(
        wrong.is_err(),
        "a game replayed against other faces must fail"
    );
}

#[test]
fn an_answer_left_sealed_changes_nothing_whether_or_not_the_audit_opens_it() {
    // The protocol opens answers in turn order after the player and stops at the first
    // counter: a later counter reaches the engine closed at the table and open at the
    // audit, and both must leave the same table.
    let (mut public, mut privates) = a_three_played_by_seat_1();
    let c0 = card_of(&privates, 0, 8);
    let c2 = card_of(&privates, 2, 10);
    let (mut closed, mut closed_privates) = (public.clone(), privates.clone());
    step(
        &mut public,
        &mut privates,
        vec![
            (0, Input::Counter { card: c0, face: 8 }),
            (2, Input::Counter { card: c2, face: 10 }),
            (3, Input::Allow),
        ],
    )
    .unwrap();
    Counter::apply(
        &mut closed,
        &mut closed_privates,
        &Step::Inputs(vec![
            (0, Play::Closed),
            (2, Play::Open(Input::Counter { card: c2, face: 10 })),
            (3, Play::Open(Input::Allow)),
        ]),
    )
    .unwrap();
    assert_eq!(public_hash(&closed), public_hash(&public));
    assert_eq!(closed_privates, privates);
}
