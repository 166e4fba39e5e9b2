//! Freeloader: wander a ring of six houses, do favors for the people in them, and collect
//! free stuff, for 3 to 6 players, on one shared hidden deck of 54 cards.
//!
//! The rulebook is `shared/rulebooks/freeloader.txt`; the cards ([`cards`]) and the board's
//! six sections ([`board`]) are published nowhere and reconstructed (the README lists them).
//! Every rule plays; where the rulebook leaves a case open, this is what the game does:
//!
//! - **The ring.** The houses are laid out in a random order from the beacon; each section's
//!   seven spaces run clockwise and the seventh is its Bus Stop. Pawns go to a random Bus Stop
//!   and 1–6 spaces on, without following the space they reach.
//! - **Spending favors** on a card takes plain ones first, so a player keeps its special spaces
//!   as long as the favors allow. Where the favors left keep only one of its Crash space and its
//!   Best Friend space, the player says which goes (`PlayCardPaying`); the plain `PlayCard`,
//!   one tap, gives up the crash and keeps the Best Friend. A choice that gives up a space the
//!   favors could keep is not offered. Favors lost otherwise (a fight's penalty) go in that same
//!   order, and a player whose favors no longer cover a special space loses it.
//! - **Crashing** places a new favor on an open Crash space (a player landing there must: "you
//!   will place a new favor"), and that favor, like any placed, may challenge for Best Friend;
//!   a crasher who wins that way with no other counter in the house moves the counter from the
//!   Crash space to the Best Friend space (the rulebook's text of this rule is cut; this is
//!   what survives of it). A full Crash space is taken only by the
//!   house's Best Friend, who evicts the crasher (the counter leaves the house); at the Hippies'
//!   the Best Friend picks whom, and nobody holds two of their spaces.
//! - **Trades.** Hand-to-hand: the chosen player gives a card of their choice (a hidden card
//!   is passed so that only the two of them see it), then the mover gives one back. A player
//!   with nothing to give gives nothing. Any Trade, Steal or Draw space may be passed up.
//! - **Cards in hand** are hidden (dealt, or passed in a trade) or open (taken from beside a
//!   house, where everyone saw them); an open card is played or given in the open.
//! - **The end.** When the last card leaves the deck (drawn, or turned up beside a house), play
//!   goes on to the end of the last player's turn (the one to the first player's right). A
//!   tie among the best qualified players is shared: the rulebook settles it with another game.
//! - **Away seats** move one die on their turn, place the favor a Favor space asks for and
//!   crash on an open Crash space (claiming no Best Friend), follow nothing else, give up a
//!   challenge, and give an open card (or nothing, with nothing to give) in a trade; a trade
//!   that asks an away seat for one of its hidden cards waits for it.

pub mod board;
mod bot;
pub mod cards;
pub mod data;
mod rules;
mod state;
mod narrate;

pub use state::*;

use rules::*;

use board::section;
use data::House;
use crate::deck::{CardMove, HiddenDeck};
use crate::{Absence, CardId, Game, Handle, Listed, Pending, RuleError, Seat, Step};
use std::collections::BTreeMap;

/// The game.
pub struct Freeloader;

impl Game for Freeloader {
    const NAME: &'static str = "freeloader";
    type Config = Config;
    type Public = Public;
    type Private = Private;
    type Input = Input;
    type Event = Event;

    fn seat_range() -> std::ops::RangeInclusive<u8> {
        3..=6
    }

    fn setup(config: &Config) -> Result<Public, RuleError> {
        if !Self::seat_range().contains(&config.seats) {
            return Err(RuleError::BadConfig(format!(
                "Freeloader is for 3 to 6 players, not {}",
                config.seats
            )));
        }
        let n = usize::from(config.seats);
        let houses = House::ALL
            .iter()
            .map(|house| {
                let s = section(*house);
                HouseState {
                    house: *house,
                    favors: vec![START_FAVORS; n],
                    best_friends: vec![None; usize::from(s.best_friends)],
                    crash: vec![None; usize::from(s.crash_spaces)],
                    face_up: None,
                }
            })
            .collect();
        Ok(Public {
            config: config.clone(),
            deck: HiddenDeck::new(DECK),
            houses,
            hands: vec![Vec::new(); n],
            stuff: vec![Vec::new(); n],
            out: Vec::new(),
            pawns: vec![0; n],
            first: 0,
            phase: Phase::Shuffle,
            dice: Vec::new(),
            turns: 0,
        })
    }

    fn private(_config: &Config, seat: Seat, _secret: [u8; 32]) -> Private {
        Private {
            seat,
            faces: BTreeMap::new(),
        }
    }

    fn pending(public: &Public) -> Pending {
        rules::pending(public)
    }

    fn legal_inputs(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<Input> {
        rules::legal_inputs(public, private, seat)
    }

    fn allows(public: &Public, private: &Private, seat: Seat, input: &Input) -> bool {
        rules::legal_inputs(public, Some(private), seat).contains(input)
    }

    fn check_input(public: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
        rules::check_input(public, seat, input)
    }

    fn apply(
        public: &mut Public,
        privates: &mut [Option<Private>],
        step: &Step<Input>,
    ) -> Result<Vec<Event>, RuleError> {
        crate::all_or_nothing(public, privates, |p, q| apply_step(p, q, step))
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
        let name = |card| rules::name(card).to_string();
        public.deck.order("The deck", face, name).into_iter().collect()
    }

    fn narrate(event: &Event, name_of: &dyn Fn(Seat) -> String) -> String {
        narrate::line(event, name_of)
    }

    fn card_moves(public: &Public, seat: Seat, input: &Input) -> Vec<CardMove> {
        match input {
            Input::PlayCard {
                card: Held::Hidden(h),
                face,
                ..
            }
            | Input::PlayCardPaying {
                card: Held::Hidden(h),
                face,
                ..
            }
            | Input::Surprise {
                card: Held::Hidden(h),
                face,
                ..
            }
            | Input::TradeBoard {
                card: Held::Hidden(h),
                face,
                ..
            } => vec![CardMove::Show {
                card: *h,
                face: *face,
            }],
            Input::Give {
                card: Held::Hidden(h),
                ..
            } => {
                let to = match &public.phase {
                    Phase::TradeGive { seat: to, .. } => *to,
                    Phase::TradeBack { with, .. } => *with,
                    _ => seat,
                };
                vec![CardMove::Pass { card: *h, to }]
            }
            _ => Vec::new(),
        }
    }

    fn learn(private: &mut Private, card: Handle, face: CardId) {
        private.faces.insert(card, face);
    }

    /// A seat the table goes on without gives up a challenge, gives the first face-up card
    /// asked of it in a trade (nothing, once removed, when every card it holds is hidden),
    /// gives nothing back in its own trade, follows nothing where it landed, and moves one
    /// die on its turn.
    fn sit_out(public: &Public, seat: Seat, absence: Absence) -> Option<Input> {
        match &public.phase {
            Phase::Turn { seat: s } | Phase::MoveAgain { seat: s } if *s == seat => {
                Some(Input::Move { dice: 1 })
            }
            Phase::Land { seat: s } if *s == seat => rules::legal_inputs(public, None, seat)
                .into_iter()
                .find(|i| {
                    matches!(
                        i,
                        Input::Skip
                            | Input::Favor {
                                friend: Friend::Keep,
                                ..
                            }
                            | Input::Crash {
                                evict: None,
                                friend: Friend::Keep
                            }
                    )
                }),
            Phase::Challenge { defender, .. } if *defender == seat => Some(Input::GiveUp),
            Phase::TradeGive { with, kind, .. } if *with == seat => {
                // Only cards everyone has seen can be chosen for an absent player.
                let open = match kind {
                    TradeKind::Stuff => public.stuff[usize::from(seat)].first().copied(),
                    TradeKind::Hand => {
                        public.hands[usize::from(seat)]
                            .iter()
                            .find_map(|h| match h {
                                Held::Open(c) => Some(*c),
                                Held::Hidden(_) => None,
                            })
                    }
                };
                let nothing = match kind {
                    TradeKind::Stuff => public.stuff[usize::from(seat)].is_empty(),
                    TradeKind::Hand => public.hands[usize::from(seat)].is_empty(),
                };
                match open {
                    Some(c) => Some(Input::Give {
                        card: Held::Open(c),
                    }),
                    None if nothing => Some(Input::Skip),
                    // A removed player's hidden hand has left the game with them, unseen:
                    // there is nothing the table can give from it.
                    None if absence == Absence::Removed => Some(Input::Skip),
                    // A skipped player may come back: only their own hand can give a card
                    // no one else has seen, so the table waits for them (or removes them).
                    None => None,
                }
            }
            // A player gone in the middle of their own trade gives nothing back.
            Phase::TradeBack { seat: s, .. } if *s == seat => Some(Input::Skip),
            _ => None,
        }
    }
}

impl Listed for Freeloader {
    const TITLE: &'static str = "Freeloader";

    fn config(seats: u8) -> Config {
        Config { seats }
    }

    fn seats(config: &Config) -> u8 {
        config.seats
    }

    fn with_seats(_config: &Config, seats: u8) -> Config {
        Config { seats }
    }

    fn check_pieces(public: &Public, privates: &[Option<Private>]) -> Result<(), String> {
        check_pieces(public, privates)
    }
}
