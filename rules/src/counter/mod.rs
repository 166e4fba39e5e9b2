//! Counter: a short card game on one shared hidden deck, made to put every part of the
//! mental deck to work at a real table (and small enough to learn in a minute).
//!
//! # The rules
//!
//! - **The deck** is 24 cards, the numbers 1 to 6, four of each, shuffled so that nobody
//!   knows its order. Each player is dealt 3 cards; nobody else sees them. Then a player is
//!   picked at random to go first, and play goes round in seat order.
//! - **A turn** is one of:
//!   - *Play* a card face up. Every other player holding a card may *counter* it with a
//!     card of the same number, all answering at once and in secret (a reaction window).
//!     If nobody counters, the play stands and scores its number. If some do, the first
//!     of them after the player in turn order counters it: the counter is laid on the play,
//!     and everyone but that player may counter the counter, and so on. The last card laid
//!     stands: a play that stands scores its number, a counter that stands scores 1. Every
//!     card laid goes to the discard pile. The answers are opened in turn order after the
//!     player and the opening stops at the first counter, so a counter that came too late
//!     stays in its player's hand unseen (the audit, at the end, sees it).
//!   - *Give* a card face down to another player (only the two of you know what it is),
//!     then draw two.
//!   - *Draw* one card.
//!   - *Wait* out the turn.
//!
//!   A player holds at most 5 cards: with 5, they cannot give or draw.
//! - **Drawing** takes the top of the deck. When it runs out the discard pile is shuffled
//!   into a new hidden deck (its cards were all seen, so everyone knows what is in it, but
//!   not its order).
//! - **The end:** the first player to reach the target (10) wins at once. Otherwise the
//!   game ends after its number of turns (30) and the highest score wins, ties shared.
//!
//! # For the protocol
//!
//! Everything the mental deck offers appears: a deck made and shuffled at set-up and made
//! again from the discards, deals to one seat, cards shown from hand (plays, counters), a
//! card passed privately (Give), and reaction windows chained answer on answer. Windows are
//! skipped only on public facts: nobody else holds a card, or all four copies of the number
//! are already face up.
//!
//! A seat the table goes on without answers nothing in a window and waits out its turn.

mod bot;
mod rules;
mod state;

pub use state::*;

use rules::answerers;

use crate::deck::{CardMove, HiddenDeck};
use crate::{
    Absence, CardId, Game, Handle, Listed, Pending, Play, ReactionWindow, RuleError, Seal,
    Seat, Step,
    rng,
};
use std::collections::BTreeMap;

/// The game.
pub struct Counter;

impl Game for Counter {
    const NAME: &'static str = "counter";
    type Config = Config;
    type Public = Public;
    type Private = Private;
    type Input = Input;
    type Event = Event;

    fn seat_range() -> std::ops::RangeInclusive<u8> {
        2..=6
    }

    fn setup(config: &Config) -> Result<Public, RuleError> {
        if !Self::seat_range().contains(&config.seats) {
            return Err(RuleError::BadConfig(format!(
                "Counter is for 2 to 6 players, not {}",
                config.seats
            )));
        }
        config.window.check("the time to counter")?;
        if config.target < 1 || config.turns < 1 {
            return Err(RuleError::BadConfig(
                "the target and the number of turns must be at least 1".into(),
            ));
        }
        let seats = usize::from(config.seats);
        Ok(Public {
            config: config.clone(),
            deck: HiddenDeck::new(DECK),
            hands: vec![Vec::new(); seats],
            discard: Vec::new(),
            scores: vec![0; seats],
            turns: 0,
            phase: Phase::Shuffle,
        })
    }

    fn private(_config: &Config, seat: Seat, _secret: [u8; 32]) -> Private {
        Private {
            seat,
            faces: BTreeMap::new(),
        }
    }

    fn pending(public: &Public) -> Pending {
        match &public.phase {
            Phase::Shuffle => Pending::Shuffle {
                deck: DECK,
                cards: (0..CARDS).collect(),
            },
            Phase::Dealing { seat } => Pending::Deal {
                to: *seat,
                cards: public.deck.peek(HAND),
            },
            Phase::First => Pending::Chance,
            Phase::Turn { seat } => Pending::Turn { seat: *seat },
            Phase::Window { seats, .. } => Pending::Together {
                seats: seats.clone(),
                seal: Seal::Reaction,
            },
            Phase::Draw { seat, count } if public.deck.left() == 0 => {
                let _ = (seat, count);
                Pending::Shuffle {
                    deck: DECK,
                    cards: public.discard.clone(),
                }
            }
            Phase::Draw { seat, count } => Pending::Deal {
                to: *seat,
                cards: public.deck.peek(usize::from(*count)),
            },
            Phase::Over(outcome) => Pending::Over(outcome.clone()),
        }
    }

    fn legal_inputs(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<Input> {
        rules::legal_inputs(public, private, seat)
    }

    fn check_input(public: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
        let Some(hand) = public.hands.get(usize::from(seat)) else {
            return Err(RuleError::illegal(seat, "there is no such seat"));
        };
        let holds = |card: &Handle| hand.contains(card);
        match (&public.phase, input) {
            (Phase::Turn { seat: s }, _) if *s != seat => Err(RuleError::illegal(seat, "it is not its turn")),
            (Phase::Turn { .. }, Input::Play { card, face }) => {
                if !holds(card) {
                    Err(RuleError::illegal(seat, "it played a card it does not hold"))
                } else if *face >= CARDS {
                    Err(RuleError::illegal(seat, "there is no such card"))
                } else {
                    Ok(())
                }
            }
            (Phase::Turn { .. }, Input::Give { card, to }) => {
                if !holds(card) {
                    Err(RuleError::illegal(seat, "it gave a card it does not hold"))
                } else if *to == seat || *to >= public.config.seats {
                    Err(RuleError::illegal(seat, "a card is given to another player"))
                } else if hand.len() >= HAND_LIMIT {
                    Err(RuleError::illegal(seat, "with five cards in hand it cannot give"))
                } else if public.deck.left() == 0 && public.discard.is_empty() {
                    Err(RuleError::illegal(seat, "there is nothing to draw after giving"))
                } else {
                    Ok(())
                }
            }
            (Phase::Turn { .. }, Input::Draw) => {
                if hand.len() >= HAND_LIMIT {
                    Err(RuleError::illegal(seat, "with five cards in hand it cannot draw"))
                } else if public.deck.left() == 0 && public.discard.is_empty() {
                    Err(RuleError::illegal(seat, "there is nothing to draw"))
                } else {
                    Ok(())
                }
            }
            (Phase::Turn { .. }, Input::Wait) => Ok(()),
            (Phase::Window { seats, .. }, _) if !seats.contains(&seat) => {
                Err(RuleError::illegal(seat, "it has no part in this window"))
            }
            (Phase::Window { .. }, Input::Allow) => Ok(()),
            (Phase::Window { laid, .. }, Input::Counter { card, face }) => {
                let last = laid.last().map(|(_, c)| number(*c));
                if !holds(card) {
                    Err(RuleError::illegal(seat, "it countered with a card it does not hold"))
                } else if *face >= CARDS || Some(number(*face)) != last {
                    Err(RuleError::illegal(seat, "a counter must be a card of the same number"))
                } else {
                    Ok(())
                }
            }
            (Phase::Over(_), _) => Err(RuleError::GameOver),
            _ => Err(RuleError::illegal(seat, "that is not a move the game waits for now")),
        }
    }

    fn apply(
        public: &mut Public,
        privates: &mut [Option<Private>],
        step: &Step<Input>,
    ) -> Result<Vec<Event>, RuleError> {
        let mut events = Vec::new();
        let mut next = public.clone();
        match (&public.phase, step) {
            (Phase::Over(_), _) => return Err(RuleError::GameOver),
            (Phase::Shuffle, Step::Shuffled) => {
                next.deck.shuffled(usize::from(CARDS));
                events.push(Event::Shuffled { cards: CARDS });
                next.phase = Phase::Dealing { seat: 0 };
            }
            (Phase::Dealing { seat }, Step::Dealt) => {
                let cards = next.deck.take(HAND);
                events.push(Event::Dealt {
                    seat: *seat,
                    cards: cards.len() as u8,
                });
                next.hands[usize::from(*seat)].extend(cards);
                next.phase = if *seat + 1 < public.config.seats {
                    Phase::Dealing { seat: *seat + 1 }
                } else {
                    Phase::First
                };
            }
            (Phase::First, Step::Chance(draw)) => {
                let seats = u32::from(public.config.seats);
                let first = rng::below(&mut rng::from_seed(draw, "first player"), seats) as Seat;
                events.push(Event::First { seat: first });
                next.turns = 1;
                next.phase = Phase::Turn { seat: first };
            }
            (Phase::Draw { .. }, Step::Shuffled) => {
                let cards = std::mem::take(&mut next.discard);
                next.deck.shuffled(cards.len());
                events.push(Event::Shuffled {
                    cards: cards.len() as u16,
                });
            }
            (Phase::Draw { seat, count }, Step::Dealt) => {
                let cards = next.deck.take(usize::from(*count));
                let got = cards.len() as u8;
                events.push(Event::Dealt {
                    seat: *seat,
                    cards: got,
                });
                next.hands[usize::from(*seat)].extend(cards);
                let left = count.saturating_sub(got);
                if left == 0 || (next.deck.left() == 0 && next.discard.is_empty()) {
                    rules::end_turn(&mut next, *seat, &mut events);
                } else {
                    next.phase = Phase::Draw {
                        seat: *seat,
                        count: left,
                    };
                }
            }
            (Phase::Turn { seat }, Step::Inputs(plays)) => {
                let [(s, Play::Open(input) | Play::Away(input))] = plays.as_slice() else {
                    return Err(RuleError::WrongStep {
                        expected: format!("one open move of seat {seat}"),
                    });
                };
                if s != seat {
                    return Err(RuleError::illegal(*s, "it is not its turn"));
                }
                Self::check_input(public, *s, input)?;
                match *input {
                    Input::Play { card, face } => {
                        rules::check_face(privates, *s, &card, face)?;
                        rules::take_from_hand(&mut next, privates, *s, &card);
                        events.push(Event::Played { seat: *s, face });
                        let laid = vec![(*s, face)];
                        let seats = answerers(&next, &laid);
                        if seats.is_empty() {
                            rules::settle(&mut next, &laid, &mut events);
                        } else {
                            next.phase = Phase::Window { laid, seats };
                        }
                    }
                    Input::Give { card, to } => {
                        rules::take_from_hand(&mut next, privates, *s, &card);
                        next.hands[usize::from(to)].push(card);
                        events.push(Event::Gave { from: *s, to });
                        rules::draw(&mut next, *s, 2, &mut events);
                    }
                    Input::Draw => rules::draw(&mut next, *s, 1, &mut events),
                    Input::Wait => {
                        events.push(Event::Waited { seat: *s });
                        rules::end_turn(&mut next, *s, &mut events);
                    }
                    Input::Counter { .. } | Input::Allow => {
                        return Err(RuleError::illegal(*s, "there is nothing to answer"));
                    }
                }
            }
            (Phase::Window { laid, seats }, Step::Inputs(plays)) => {
                let mut answering = seats.clone();
                answering.sort_unstable();
                if !plays.iter().map(|(s, _)| s).eq(answering.iter()) {
                    return Err(RuleError::WrongStep {
                        expected: format!("the answers of seats {seats:?}"),
                    });
                }
                let mut counters = Vec::new();
                for (s, play) in plays {
                    // An answer left sealed came after the first that answered: it changes
                    // nothing (the audit opens it, and it comes too late there too).
                    let Some(input) = play.input() else {
                        continue;
                    };
                    Self::check_input(public, *s, input)?;
                    if let Input::Counter { card, face } = *input {
                        rules::check_face(privates, *s, &card, face)?;
                        counters.push((*s, card, face));
                    }
                }
                // The first to answer after the card's player, in turn order, is taken.
                let last = laid.last().map_or(0, |(s, _)| *s);
                let seats_n = public.config.seats;
                let after = |s: Seat| (s + seats_n - last) % seats_n;
                counters.sort_by_key(|(s, _, _)| after(*s));
                let mut laid = laid.clone();
                match counters.split_first() {
                    None => rules::settle(&mut next, &laid, &mut events),
                    Some((&(s, card, face), late)) => {
                        for &(seat, _, face) in late {
                            events.push(Event::TooLate { seat, face });
                        }
                        rules::take_from_hand(&mut next, privates, s, &card);
                        events.push(Event::Countered { seat: s, face });
                        laid.push((s, face));
                        let seats = answerers(&next, &laid);
                        if seats.is_empty() {
                            rules::settle(&mut next, &laid, &mut events);
                        } else {
                            next.phase = Phase::Window { laid, seats };
                        }
                    }
                }
            }
            _ => {
                return Err(RuleError::WrongStep {
                    expected: format!("{:?}", Self::pending(public)),
                });
            }
        }
        *public = next;
        Ok(events)
    }

    fn bot_input(
        public: &Public,
        private: Option<&Private>,
        seat: Seat,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Option<Input> {
        bot::choose(public, private, seat, rng)
    }

    fn deck_order(
        public: &Public,
        _privates: &[Option<&Private>],
        face: &dyn Fn(Handle) -> Option<CardId>,
        _name: &dyn Fn(Seat) -> String,
    ) -> Vec<String> {
        let number = |card| state::number(card).to_string();
        public.deck.order("The deck", face, number).into_iter().collect()
    }

    fn narrate(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
        match event {
            Event::Shuffled { cards } => format!("The deck of {cards} cards is shuffled."),
            Event::Dealt { seat, cards } => format!(
                "{} draws {cards} card{}.",
                name(*seat),
                if *cards == 1 { "" } else { "s" }
            ),
            Event::First { seat } => format!("{} goes first.", name(*seat)),
            Event::Played { seat, face } => format!("{} plays a {}.", name(*seat), number(*face)),
            Event::Countered { seat, face } => {
                format!("{} counters with a {}!", name(*seat), number(*face))
            }
            Event::TooLate { seat, face } => format!(
                "{} tried to counter too, and takes the {} back.",
                name(*seat),
                number(*face)
            ),
            Event::Stands { seat, face, points } => format!(
                "{}'s {} stands: {points} point{}.",
                name(*seat),
                number(*face),
                if *points == 1 { "" } else { "s" }
            ),
            Event::Gave { from, to } => {
                format!("{} gives {} a card, face down.", name(*from), name(*to))
            }
            Event::Waited { seat } => format!("{} waits.", name(*seat)),
            Event::Won { winners } => {
                let names: Vec<String> = winners.iter().map(|s| name(*s)).collect();
                format!(
                    "{} win{}!",
                    names.join(" and "),
                    if names.len() == 1 { "s" } else { "" }
                )
            }
        }
    }

    fn card_moves(_public: &Public, _seat: Seat, input: &Input) -> Vec<CardMove> {
        match *input {
            Input::Play { card, face } | Input::Counter { card, face } => {
                vec![CardMove::Show { card, face }]
            }
            Input::Give { card, to } => vec![CardMove::Pass { card, to }],
            Input::Draw | Input::Wait | Input::Allow => Vec::new(),
        }
    }

    fn learn(private: &mut Private, card: Handle, face: CardId) {
        private.faces.insert(card, face);
    }

    /// A seat the table goes on without answers nothing in a window and waits out its
    /// turn, skipped or removed alike (a removed seat's cards stay in its hand).
    fn sit_out(public: &Public, seat: Seat, _absence: Absence) -> Option<Input> {
        match &public.phase {
            Phase::Window { seats, .. } if seats.contains(&seat) => Some(Input::Allow),
            Phase::Turn { seat: s } if *s == seat => Some(Input::Wait),
            _ => None,
        }
    }

    fn reaction_window(config: &Config) -> ReactionWindow {
        config.window
    }

    fn narrate_sealed(seat: Seat, input: &Input, name: &dyn Fn(Seat) -> String) -> String {
        match input {
            Input::Counter { face, .. } => format!(
                "{} would have countered with a {}, but an earlier answer came first.",
                name(seat),
                number(*face)
            ),
            _ => String::new(),
        }
    }

    fn pass(public: &Public, seat: Seat) -> Option<Input> {
        match &public.phase {
            Phase::Window { seats, .. } if seats.contains(&seat) => Some(Input::Allow),
            _ => None,
        }
    }
}

impl Listed for Counter {
    const TITLE: &'static str = "Counter";
    const VARIANTS: &'static [&'static str] = &["quick-answers", "short"];

    fn config(seats: u8) -> Config {
        Config::new(seats)
    }

    fn seats(config: &Config) -> u8 {
        config.seats
    }

    fn with_seats(config: &Config, seats: u8) -> Config {
        Config {
            seats,
            ..config.clone()
        }
    }

    /// `quick-answers`: one second to counter instead of three; `short`: twelve turns in
    /// the whole game instead of thirty.
    fn set_variant(config: &mut Config, variant: &str) -> Result<(), String> {
        match variant {
            "quick-answers" => config.window = ReactionWindow::QUICK,
            "short" => config.turns = SHORT_TURNS,
            other => return Err(format!("Counter has no variant {other:?}")),
        }
        Ok(())
    }

    /// The 24 cards: in the deck, in a hand, laid in the window or on the discard pile.
    fn check_pieces(public: &Public, privates: &[Option<Private>]) -> Result<(), String> {
        if public.deck.generation.is_none() {
            return Ok(());
        }
        let mut seen = public.discard.clone();
        if let Phase::Window { laid, .. } = &public.phase {
            seen.extend(laid.iter().map(|(_, card)| *card));
        }
        let held = public.hands.iter().map(Vec::len).sum::<usize>();
        crate::each_once("card", &seen, public.deck.left() + held, usize::from(CARDS))?;
        crate::faces_known(
            &public.hands,
            privates.iter().flatten().map(|p| (p.seat, &p.faces)),
        )
    }
}
