//! Spree!: an all-night looting race through LeGrand Mall with shopping carts and guns, for
//! 3 to 8 players, on one shared hidden deck (two poker decks and their Jokers).
//!
//! The rulebook is `shared/rulebooks/spree.txt`; the board, with every wall, is
//! [`board`]. Every rule plays; where the rulebook leaves a case open, this is what the game
//! does (the README lists the same decisions):
//!
//! - **Seats and turns.** Seats are numbered to the left around the table, so "to the left"
//!   is the next seat up and "to the right" the next one down. Who parks first is found by
//!   every player rolling two dice from one beacon draw, ties rolling again.
//! - **Shopping** may be done for any shop the shopper has stood on this turn (its start
//!   square included), at any time before the turn ends: a card played later than the
//!   moment it passed the shop is the same card bought at the same shop.
//! - **Robbing** happens while the robber's shopper stands on the victim's square (passed
//!   through or stopped on, or started on). A victim lying down can be robbed: the rulebook's
//!   reason for downed players not playing cards is "while they are being robbed". A Joker
//!   steals any rank; a Joker in a cart is stolen by a Joker.
//! - **A Joker in a cart.** Jokers cannot be bought at a shop, but a player may put one in
//!   the cart anywhere (worth 0) to clear hand space; others may stop that as they would a
//!   purchase. As a move card a Joker is Move-10 or Move-2, as its player says.
//! - **Aces.** A play that an Ace can stop (a purchase, a robbery, a move card, a shot that
//!   hits, another Ace) opens a reaction window for every other player who can play a card:
//!   standing, holding a card, and not at their own car. The answers are opened in turn
//!   order after whoever made the play, and the first Ace is the one played; the others
//!   never leave their hands. An Ace against an Ace opens a new window for everyone but its
//!   player (the first player included). An odd number of Aces in the chain stops the play.
//!   No window opens when every Ace and Joker is already face up (in carts and the discards).
//! - **A stopped shot** does nothing: nobody falls, nobody is pushed, and the shooter gets
//!   no extra turn (the shot still ends the turn). A shot that misses opens no window: "You
//!   can't play an Ace to make your shot successful", and nobody needs to stop a miss.
//! - **Shots** count the shooter's square as 1, so a target `d` squares away is hit on
//!   `d + 1` and pushed one square for every point over. A push carries the victim through
//!   other players and cars (they share squares freely) and stops before a wall, the
//!   fountain or the edge. A row of cars never blocks a shot. A player lying down, at their
//!   own car (unless in it, under the Hong Kong rules) or on the shooter's square cannot be
//!   shot; a player at their own car cannot shoot.
//! - **The car.** Scoring needs the shopper at its own car; the cart's cards go to the
//!   discards and their points are recorded, and the turn ends. A turn begun at the car may
//!   instead drive the car to any free parking space (the whole turn). Nobody plays a card at
//!   their own car, Aces included.
//! - **The Hong Kong rules** (a table option): shots count one more; a push goes through the
//!   fountain, and one that would stop inside it carries on to the far side; scoring puts the
//!   shopper in its car; a turn begun in (or at) the car may drive it with a roll of two dice
//!   over the parking lot, parking spaces and open floor, running over every standing
//!   shopper on a square it enters (they fall over, cannot Ace it, and their carts are
//!   discarded; no extra turn); getting out needs a free parking space and ends the turn; a
//!   car parked elsewhere than a space can only be driven on. A player may shoot from a car
//!   and be shot in one; a player hit in a car falls over where the car stands.
//! - **Away seats.** A seat the table goes on without parks in the first free space (in the
//!   board's order), passes in every window and ends its turn at once; a removed seat does
//!   the same to the end and so never scores again.
//!
//! The 108 cards are always somewhere public: the hidden deck, a hand (face down), a cart,
//! the discards, or on the table in a play an Ace may still stop.

pub mod board;
mod bot;
pub mod cards;
mod rules;
mod state;

pub use bot::{choose, plan_walk};
pub use rules::{can_play_cards, hit_sixths, reachable, shot_targets};
pub use state::*;

use crate::deck::{CardMove, HiddenDeck};
use crate::{
    Absence, CardId, Game, Handle, Listed, Pending, ReactionWindow, RuleError, Seat, Step,
};
use std::collections::BTreeMap;

/// The game.
pub struct Spree;

impl Game for Spree {
    const NAME: &'static str = "spree";
    type Config = Config;
    type Public = Public;
    type Private = Private;
    type Input = Input;
    type Event = Event;

    fn seat_range() -> std::ops::RangeInclusive<u8> {
        3..=8
    }

    fn setup(config: &Config) -> Result<Public, RuleError> {
        if !Self::seat_range().contains(&config.seats) {
            return Err(RuleError::BadConfig(format!(
                "Spree! is for 3 to 8 players, not {}",
                config.seats
            )));
        }
        config.window.check("the time to play an Ace")?;
        if config.target < 1 || config.jokers > 100 {
            return Err(RuleError::BadConfig(
                "the target must be at least 1 and the Jokers at most 100".into(),
            ));
        }
        let seats = usize::from(config.seats);
        Ok(Public {
            config: config.clone(),
            deck: HiddenDeck::new(DECK),
            hands: vec![Vec::new(); seats],
            carts: vec![Vec::new(); seats],
            scores: vec![0; seats],
            discard: Vec::new(),
            pawns: vec![Pawn::default(); seats],
            phase: Phase::Shuffle,
            dice: None,
            shot_die: None,
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

    /// A walk may take any path, too many to list: an input is allowed when the table
    /// allows it and every card it shows is the face this seat holds.
    fn allows(public: &Public, private: &Private, seat: Seat, input: &Input) -> bool {
        let shows_truly = Self::card_moves(public, seat, input)
            .iter()
            .all(|m| match m {
                CardMove::Show { card, face } => private.face(card) == Some(*face),
                _ => true,
            });
        let answerable = matches!(
            &public.phase,
            Phase::Window { .. } | Phase::Act(_) | Phase::Parking { .. }
        );
        answerable && shows_truly && rules::check_input(public, seat, input).is_ok()
    }

    fn check_input(public: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
        rules::check_input(public, seat, input)
    }

    fn apply(
        public: &mut Public,
        privates: &mut [Option<Private>],
        step: &Step<Input>,
    ) -> Result<Vec<Event>, RuleError> {
        crate::all_or_nothing(public, privates, |p, q| rules::apply(p, q, step))
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
        public.deck.order("The deck", face, cards::name).into_iter().collect()
    }

    fn narrate(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
        rules::narrate(event, name)
    }

    fn card_moves(_public: &Public, _seat: Seat, input: &Input) -> Vec<CardMove> {
        match input {
            Input::Shop { cards } => cards
                .iter()
                .map(|(card, face)| CardMove::Show {
                    card: *card,
                    face: *face,
                })
                .collect(),
            Input::Rob { card, face, .. }
            | Input::MoveCard { card, face, .. }
            | Input::Ace { card, face } => vec![CardMove::Show {
                card: *card,
                face: *face,
            }],
            _ => Vec::new(),
        }
    }

    fn learn(private: &mut Private, card: Handle, face: CardId) {
        private.faces.insert(card, face);
    }

    fn sit_out(public: &Public, seat: Seat, _absence: Absence) -> Option<Input> {
        match &public.phase {
            Phase::Parking { seat: s, .. } if *s == seat => {
                rules::free_spaces(public)
                    .first()
                    .map(|space| Input::Park { space: *space })
            }
            Phase::Act(turn) if turn.seat == seat => Some(Input::EndTurn),
            Phase::Window { seats, .. } if seats.contains(&seat) => Some(Input::Pass),
            _ => None,
        }
    }

    fn reaction_window(config: &Config) -> ReactionWindow {
        config.window
    }

    fn narrate_sealed(seat: Seat, input: &Input, name: &dyn Fn(Seat) -> String) -> String {
        match input {
            Input::Ace { face, .. } => format!(
                "{} would have stopped it with the {}, but an earlier answer came first.",
                name(seat),
                cards::name(*face)
            ),
            _ => String::new(),
        }
    }

    fn pass(public: &Public, seat: Seat) -> Option<Input> {
        match &public.phase {
            Phase::Window { seats, .. } if seats.contains(&seat) => Some(Input::Pass),
            _ => None,
        }
    }
}

impl Listed for Spree {
    const TITLE: &'static str = "Spree!";
    const VARIANTS: &'static [&'static str] =
        &["hong-kong", "extra-jokers", "quick-answers", "short"];

    fn config(seats: u8) -> Config {
        Config::new(seats)
    }

    fn seats(config: &Config) -> u8 {
        config.seats
    }

    /// A new seat count brings the rulebook's target for it (or the short game's, if that
    /// was chosen); a target set by hand stays.
    fn with_seats(config: &Config, seats: u8) -> Config {
        let target = if config.target == target(config.seats) {
            target(seats)
        } else if config.target == short_target(config.seats) {
            short_target(seats)
        } else {
            config.target
        };
        Config {
            seats,
            target,
            ..config.clone()
        }
    }

    /// `hong-kong`: the extra-violence rules; `extra-jokers`: four more Jokers;
    /// `quick-answers`: one second to play an Ace instead of three; `short`: a quarter of
    /// the suggested target ("Feel free to adjust the game to whatever length you want!").
    fn set_variant(config: &mut Config, variant: &str) -> Result<(), String> {
        match variant {
            "hong-kong" => config.hong_kong = true,
            "extra-jokers" => config.jokers = cards::JOKERS * 2,
            "quick-answers" => config.window = ReactionWindow::QUICK,
            "short" => config.target = short_target(config.seats),
            other => return Err(format!("Spree! has no variant {other:?}")),
        }
        Ok(())
    }

    /// Every card of the deck (and the jokers chosen): in the deck, a hand, a cart, the
    /// discard pile or played in a window.
    fn check_pieces(public: &Public, privates: &[Option<Private>]) -> Result<(), String> {
        if public.deck.generation.is_none() {
            return Ok(());
        }
        let mut seen: Vec<CardId> = public.carts.iter().flatten().copied().collect();
        seen.extend(&public.discard);
        seen.extend(public.in_play());
        let held = public.hands.iter().map(Vec::len).sum::<usize>();
        let total = usize::from(cards::POKER + public.config.jokers);
        crate::each_once("card", &seen, public.deck.left() + held, total)?;
        crate::faces_known(
            &public.hands,
            privates.iter().flatten().map(|p| (p.seat, &p.faces)),
        )
    }
}
