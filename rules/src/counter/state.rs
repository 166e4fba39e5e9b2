//! Counter's table: its options, what everyone sees, what one seat knows, the moves and
//! what happens.

use crate::deck::HiddenDeck;
use crate::{CardId, Handle, Outcome, ReactionWindow, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The only deck.
pub const DECK: crate::DeckId = 0;
/// Cards in the deck: the numbers 1 to [`NUMBERS`], [`COPIES`] of each.
pub const CARDS: u16 = NUMBERS * COPIES;
pub const NUMBERS: u16 = 6;
pub const COPIES: u16 = 4;
/// Cards dealt to each player at the start.
pub const HAND: usize = 3;
/// The most cards a player may hold.
pub const HAND_LIMIT: usize = 5;
/// Turns in a short game (the `short` variant), all players together.
pub const SHORT_TURNS: u16 = 12;

/// The number printed on a card.
pub fn number(card: CardId) -> u8 {
    (card / COPIES + 1) as u8
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub seats: u8,
    /// The score that wins at once.
    pub target: i32,
    /// Turns in the whole game (all players together).
    pub turns: u16,
    /// How long everyone has to counter a card (the reaction window).
    pub window: ReactionWindow,
}

impl Config {
    pub fn new(seats: u8) -> Config {
        Config {
            seats,
            target: 10,
            turns: 30,
            window: ReactionWindow::USUAL,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The deck is to be made.
    Shuffle,
    /// `seat` is to be dealt its first hand.
    Dealing {
        seat: Seat,
    },
    /// The first player is to be drawn.
    First,
    Turn {
        seat: Seat,
    },
    /// The cards laid in this exchange, the play first, each with its player; `seats` may
    /// answer the last.
    Window {
        laid: Vec<(Seat, CardId)>,
        seats: Vec<Seat>,
    },
    /// `seat` draws `count` more cards, then the turn passes.
    Draw {
        seat: Seat,
        count: u8,
    },
    Over(Outcome),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Public {
    pub config: Config,
    pub deck: HiddenDeck,
    /// The cards each seat holds, face down.
    pub hands: Vec<Vec<Handle>>,
    /// Face up, the newest last.
    pub discard: Vec<CardId>,
    pub scores: Vec<i32>,
    /// Turns begun so far.
    pub turns: u16,
    pub phase: Phase,
}

/// What one seat knows: the faces of the cards it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Private {
    pub seat: Seat,
    pub faces: BTreeMap<Handle, CardId>,
}

impl Private {
    /// The face of a card this seat holds.
    pub fn face(&self, card: &Handle) -> Option<CardId> {
        self.faces.get(card).copied()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    /// Lay a card from hand face up.
    Play { card: Handle, face: CardId },
    /// Give a card face down to another seat, then draw two.
    Give { card: Handle, to: Seat },
    /// Draw one card.
    Draw,
    /// Nothing to do this turn (no card to play, none to draw), or sat out.
    Wait,
    /// In a window: counter the last card laid with one of the same number.
    Counter { card: Handle, face: CardId },
    /// In a window: let it stand.
    Allow,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    Shuffled {
        cards: u16,
    },
    Dealt {
        seat: Seat,
        cards: u8,
    },
    First {
        seat: Seat,
    },
    Played {
        seat: Seat,
        face: CardId,
    },
    Countered {
        seat: Seat,
        face: CardId,
    },
    /// A counter came too late and stays in its hand (seen only where every answer is
    /// open: the audit, the local driver).
    TooLate {
        seat: Seat,
        face: CardId,
    },
    Stands {
        seat: Seat,
        face: CardId,
        points: i32,
    },
    Gave {
        from: Seat,
        to: Seat,
    },
    Waited {
        seat: Seat,
    },
    Won {
        winners: Vec<Seat>,
    },
}
