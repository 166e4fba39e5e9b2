//! Hoard's game engines: every game's rules as a pure, deterministic state machine.
//!
//! Nothing here knows there is a network, a disk or a clock. A game is a [`Game`]: it
//! says what it waits for ([`Game::pending`]), lists what a seat may do
//! ([`Game::legal_inputs`]) and applies a completed [`Step`] ([`Game::apply`]). What
//! every device sees is the game's `Public` state, identical byte for byte on every
//! device; what only one seat knows (a hand, a deck order) is that seat's `Private`
//! state, held by its owner and rebuilt by everyone at the audit.

pub mod counter;
pub mod deck;
mod game;
pub mod greedquest;
pub mod play;
pub mod rng;
pub mod sprawl;

pub use deck::{CardId, CardMove, Handle};
pub use game::{DeckId, Game, Outcome, Pending, Play, RuleError, Seal, Seat, Step, public_hash};
