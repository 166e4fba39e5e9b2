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
mod game;
mod narrate;

pub use game::*;
