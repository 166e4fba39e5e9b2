//! GreedQuest (Steve Jackson Games, 2004): a race to the dragon's Hoard in Room 12 and back
//! out to the Tavern in Room 1, each player with an own 28-card deck, every turn one card
//! laid face down by everyone and resolved in the rulebook's order.
//!
//! - [`cards`]: the deck; [`rooms`]: the board as one table (with its reconstruction notes).
//! - `state`: [`Public`] (what every device sees) and [`Private`] (one seat's hand, deck
//!   order and Room 11 card), [`Config`] with the five variants, [`Input`].
//! - `rules`: the flow of a turn as [`crate::Pending`] steps; `deck`: card movements kept in
//!   step between the public and private sides; [`events`]: the log.
//! - `bot`: a sensible player; [`Position`]: a table built in a chosen position.
//!
//! How the protocol feeds it: the first step is a beacon draw. Every private side present
//! derives its deck key `blake3::keyed_hash(secret, draw)` and shuffles its 28 cards with
//! `rng::from_seed(key, "deck 0")`; reshuffle r uses "deck r", from the cards in canonical
//! order. Each turn, every seat that plays lays a card in one sealed step; Go WILD! values,
//! duel cards, the choices of duel winners and trackers follow as further steps; Room 11's
//! keep-or-discard is sealed until the audit and never reaches the public side.
//!
//! Reconstructed where the rulebook is silent (the room-by-room notes are in [`rooms`]):
//! - A turn's cards stay on the table until the end of the turn, then go to the discards
//!   (Loot the Bodies! and the hand it throws away go at once; duel cards go when their
//!   round is decided). The rulebook discards each card once it has taken effect; the only
//!   difference is which cards a reshuffle in the middle of a turn would see.
//! - A hand thrown away by Loot the Bodies! goes to the discards face down: only its count
//!   is public.
//! - Reshuffles happen as soon as the last card is drawn, and otherwise whenever a draw
//!   finds the draw pile empty (or a step ends with an empty draw pile and discards to use).
//! - Go WILD! is valued when the Go! cards resolve, after Loot, Dragon ATTACK!!, Meek,
//!   Curse!, Dragon Sighting, Secret Door and See Ya! (none of which needs its value); a
//!   Go WILD! already canceled is never valued.
//! - "Equal winning Go!" means equal value after room modifiers.
//! - Dragon Sighting's "room behind you" follows its player's facing; it reaches only Room 1
//!   from the Tavern heading in.
//! - Several Tracking cards resolve together, after every Tracking choice is made; a
//!   tracker is asked to choose only if the winners it could follow lead to different rooms.
//! - A duelist with no card to play (empty hand, or an empty deck in Room 9) plays nothing
//!   and loses. A duel winner always chooses (himself included) among all the players on
//!   that side.
//! - The Hoard: a seat in Room 12 heading in at the end of a turn reverses (whether it
//!   arrived by its own card or another's). Win: heading out in Room 1 at the end of a turn;
//!   all such seats win together. Shortest Game: in Room 12 at the end of a turn.
//! - End of turn order: cards leave the table, Room 8, resurrection (Battle of Attrition),
//!   refills (Room 11's choice), reversal, win check, This Is My Room!'s duel (then the
//!   duelists refill), Survival of the Fittest's five-card rule, next turn.
//! - This Is My Room!: the lead is progress (heading in, room r counts r; heading out, 24 −
//!   r), so leaders tie only in the same room with the same facing. A duel whose losers
//!   could not move back (all still in the Tavern heading in) is not fought.
//! - Survival of the Fittest: "played without effect" means canceled, discarded without
//!   effect, a losing Go!, a See Ya!, Tracking, Even Chance or Odd Reversal that moved
//!   nobody, a Room 6 card that was not unique, a losing duel card. A player is "down to
//!   five cards" when at most five of his 28 are not dead; he then reshuffles every card,
//!   dead ones included (otherwise the rule would change nothing), and draws five.
//!   Taken as written, this allows a lock: a seat in Room 9 plays the top of its draw
//!   pile, its hand is never played there, so its cycling cards die one by one until the
//!   only one left is one that always has effect; if that is Dragon ATTACK!!, it cancels
//!   every card every turn and nobody can move again. The engine keeps the rule as printed;
//!   a table that meets the lock ends the game by agreement (the protocol's, not a rule).
//! - Uniqueness Is Where You Find It: every card that is not a Go! (Go WILD! is a Go!) dies
//!   once played, in a duel too.
//! - Resurrection happens at the end of the turn a seat first reaches Room 12, before the
//!   refills, so "then draw to refill your hand" is the ordinary refill.
//! - A seat the table skips by vote (the rulebook has no absent players) is given
//!   [`Input::SitOut`] at the step it was skipped at: it plays nothing, as a player who sits
//!   out. At a turn it lays no card and keeps its hand (in Room 9, its draw pile); in a duel
//!   it plays nothing, so it loses ("if no players play a Go! card, then everyone loses");
//!   asked for a Go WILD! value, it names none and the card goes without effect; choosing who
//!   changes places or whom to track, it chooses nobody and nobody moves by that card (as in
//!   "if there is no winner, then no one moves"); at Room 11 it keeps the first card drawn.
//!   Every answer holds whatever its hand, so the audit replays it with every hand shown.
//! - A seat the table removes is given [`Input::Leave`]: it sits out that step and leaves
//!   the race. It is never asked again: no cards, no duels (This Is My Room! counts only the
//!   seats still in), no refills; its piece stays where it stood, but nobody counts it as
//!   company in Room 3, and it cannot win. When every seat but one has left, the one still in
//!   wins at once: the others forfeited.
//! - Neither is a player's move: [`Game::check_input`] refuses both from a seat (so no seat
//!   can sit out by sending one), `legal_inputs` never offers them, and the bot never plays
//!   them; only a completed step can carry them, where the protocol puts them for the seats
//!   the table voted to go on without.

mod bot;
pub mod cards;
mod deck;
mod rules;
pub mod events;
mod position;
pub mod rooms;
mod state;

pub use bot::random_input;
pub use cards::{Card, DECK_SIZE, HAND_SIZE, Pile};
pub use events::{Event, narrate};
pub use position::Position;
pub use state::{
    Attrition, Config, Duel, DuelFor, Facing, Input, Length, Pick, Private, Public, Resolution,
    SeatSet, SeatView, Slot, Stage, Status,
};

use crate::{Absence, CardId, Game, Handle, Listed, Pending, RuleError, Seat, Step};
use rand_chacha::ChaCha8Rng;

/// The GreedQuest engine.
pub struct GreedQuest;

impl Game for GreedQuest {
    const NAME: &'static str = "greedquest";

    type Config = Config;
    type Public = Public;
    type Private = Private;
    type Input = Input;
    type Event = Event;

    fn seat_range() -> std::ops::RangeInclusive<u8> {
        2..=6
    }

    fn setup(config: &Config) -> Result<Public, RuleError> {
        rules::setup(config)
    }

    fn private(_config: &Config, seat: Seat, secret: [u8; 32]) -> Private {
        Private::new(seat, secret)
    }

    fn pending(public: &Public) -> Pending {
        rules::pending(public)
    }

    fn legal_inputs(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<Input> {
        rules::legal_inputs(public, private, seat)
    }

    fn check_input(public: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
        rules::check_input(public, seat, input)
    }

    fn apply(
        public: &mut Public,
        privates: &mut [Option<Private>],
        step: &Step<Input>,
    ) -> Result<Vec<Event>, RuleError> {
        rules::apply(public, privates, step)
    }

    fn bot_input(
        public: &Public,
        private: Option<&Private>,
        seat: Seat,
        rng: &mut ChaCha8Rng,
    ) -> Option<Input> {
        bot::bot_input(public, private, seat, rng)
    }

    fn deck_order(
        _public: &Public,
        privates: &[Option<&Private>],
        _face: &dyn Fn(Handle) -> Option<CardId>,
        name: &dyn Fn(Seat) -> String,
    ) -> Vec<String> {
        // Each seat's own draw pile, whose top card is its last.
        privates
            .iter()
            .flatten()
            .map(|private| {
                let whose = format!("{}'s deck", name(private.seat));
                crate::deck::order_line(&whose, private.deck.iter().rev().map(|c| c.to_string()))
            })
            .collect()
    }

    fn narrate(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
        events::narrate(event, name)
    }

    fn narrate_sealed(seat: Seat, input: &Input, name: &dyn Fn(Seat) -> String) -> String {
        match input {
            Input::KeepDrawn => format!(
                "{} kept the first card drawn at the Remains of the Last Party.",
                name(seat)
            ),
            Input::DiscardDrawn => format!(
                "{} threw away the first card drawn at the Remains of the Last Party and drew another.",
                name(seat)
            ),
            _ => String::new(),
        }
    }

    fn sit_out(_public: &Public, _seat: Seat, absence: Absence) -> Option<Input> {
        // Every step has an answer (see `Input::SitOut`); the rules say what each means.
        Some(match absence {
            Absence::Skipped => Input::SitOut,
            Absence::Removed => Input::Leave,
        })
    }
}

impl Listed for GreedQuest {
    const TITLE: &'static str = "GreedQuest";
    const VARIANTS: &'static [&'static str] =
        &["short", "shortest", "my-room", "survival", "uniqueness"];

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

    fn set_variant(config: &mut Config, variant: &str) -> Result<(), String> {
        match variant {
            "short" => config.length = Length::Short,
            "shortest" => config.length = Length::Shortest,
            "my-room" => config.this_is_my_room = true,
            "survival" => config.attrition = Attrition::Survival,
            "uniqueness" => config.attrition = Attrition::Uniqueness,
            other => return Err(format!("GreedQuest has no variant {other:?}")),
        }
        Ok(())
    }

    /// Each seat's 28 cards: counted on the table, and found card by card in each private
    /// side present.
    fn check_pieces(public: &Public, privates: &[Option<Private>]) -> Result<(), String> {
        for seat in 0..public.seats.len() as Seat {
            let counted = public.accounted(seat);
            if counted != DECK_SIZE {
                return Err(format!("the table accounts for {counted} of seat {seat}'s cards"));
            }
        }
        privates
            .iter()
            .flatten()
            .try_for_each(|private| private.check_against(public))
    }
}
