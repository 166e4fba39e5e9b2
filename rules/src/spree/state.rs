//! Spree!'s table: its options, the pawns and the turn, what everyone sees, what one seat
//! knows, the moves and what happens.

use super::board::Sq;
use super::cards;
use crate::deck::HiddenDeck;
use crate::{CardId, Handle, Outcome, ReactionWindow, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The only deck.
pub const DECK: crate::DeckId = 0;
/// A full hand.
pub const HAND: usize = 5;
/// The rulebook's suggested target for `seats` players.
pub fn target(seats: u8) -> i32 {
    match seats {
        0..=3 => 200,
        4 => 150,
        5 => 120,
        6 => 100,
        7 => 85,
        _ => 75,
    }
}

/// The short game's target: a quarter of the suggested one.
pub fn short_target(seats: u8) -> i32 {
    (target(seats) / 4).max(20)
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub seats: u8,
    /// Points in the car that win.
    pub target: i32,
    /// Jokers shuffled in with the two poker decks (4; a table may add more).
    pub jokers: u16,
    /// The Hong Kong rules: power shots, the fountain, cars as weapons.
    pub hong_kong: bool,
    /// How long everyone has to play an Ace (the reaction window).
    pub window: ReactionWindow,
}

impl Config {
    pub fn new(seats: u8) -> Config {
        Config {
            seats,
            target: target(seats),
            jokers: cards::JOKERS,
            hong_kong: false,
            window: ReactionWindow::USUAL,
        }
    }
}

/// A player's two pawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Pawn {
    pub shopper: Sq,
    /// Where the car is parked (or driven, under the Hong Kong rules); `None` before parking.
    pub car: Option<Sq>,
    pub lying: bool,
    /// In the car (the Hong Kong rules).
    pub in_car: bool,
}

impl Pawn {
    /// Standing at (or sitting in) its own car.
    pub fn at_car(&self) -> bool {
        self.car == Some(self.shopper)
    }
}

/// The turn under way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub seat: Seat,
    /// The dice were rolled this turn (to walk or to drive).
    pub rolled: bool,
    /// Squares still to move (from the dice and move cards).
    pub left: u8,
    /// The square just come from: the next step may not go back to it.
    pub prev: Option<Sq>,
    /// The shops stood on this turn, the start included.
    pub visited: Vec<Sq>,
    /// Nothing done yet this turn (the car may still be driven).
    pub fresh: bool,
    /// Driving the car this turn (the Hong Kong rules).
    pub driving: bool,
    /// This turn was won by a hit.
    pub extra: bool,
}

/// What the beacon is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Roll {
    /// Two dice to walk.
    Walk,
    /// Two dice to drive (the Hong Kong rules).
    Drive,
    /// One die to shoot at `target`.
    Shot { target: Seat },
}

/// A play an Ace can stop, waiting on the table for the answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Contest {
    /// Cards for the cart (one, an identical pair, or a Joker for nothing).
    Shop { seat: Seat, cards: Vec<CardId> },
    /// `card` played to take every `rank` card from `victim`'s cart.
    Rob {
        seat: Seat,
        victim: Seat,
        card: CardId,
        rank: u8,
    },
    /// A 10, a 2 or a Joker played to move `steps` more.
    MoveCard { seat: Seat, card: CardId, steps: u8 },
    /// A shot that hits `target` (rolled `roll`), pushing it to `to`.
    Shot {
        seat: Seat,
        target: Seat,
        roll: u8,
        to: Sq,
    },
}

impl Contest {
    /// Who made the play.
    pub fn seat(&self) -> Seat {
        match self {
            Contest::Shop { seat, .. }
            | Contest::Rob { seat, .. }
            | Contest::MoveCard { seat, .. }
            | Contest::Shot { seat, .. } => *seat,
        }
    }

    /// The cards it put on the table.
    pub fn cards(&self) -> Vec<CardId> {
        match self {
            Contest::Shop { cards, .. } => cards.clone(),
            Contest::Rob { card, .. } | Contest::MoveCard { card, .. } => vec![*card],
            Contest::Shot { .. } => Vec::new(),
        }
    }
}

/// What comes after a seat draws up to five.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AfterDraw {
    /// The turn begins (an extra one, won by a hit, if `extra`).
    Begin { extra: bool },
    /// The turn is over; the next one is the same seat's if `extra`.
    End { extra: bool },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The deck is to be made.
    Shuffle,
    /// `seat` is to be dealt its hand.
    Dealing { seat: Seat },
    /// Everyone rolls to see who parks first.
    FirstParker,
    /// `seat` parks; `parked` seats have parked before it.
    Parking { seat: Seat, parked: u8 },
    /// `seat` draws its hand up to five.
    Draw { seat: Seat, then: AfterDraw },
    /// The turn's seat acts.
    Act(Turn),
    /// The dice are rolling.
    Rolling { turn: Turn, roll: Roll },
    /// `seats` may stop `contest` (or the last of `aces` played against it).
    Window {
        turn: Turn,
        contest: Contest,
        aces: Vec<(Seat, CardId)>,
        seats: Vec<Seat>,
    },
    Over(Outcome),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Public {
    pub config: Config,
    pub deck: HiddenDeck,
    /// The cards each seat holds, face down.
    pub hands: Vec<Vec<Handle>>,
    /// Each seat's shopping cart, face up.
    pub carts: Vec<Vec<CardId>>,
    /// Points locked in each car.
    pub scores: Vec<i32>,
    /// Face up, the newest last.
    pub discard: Vec<CardId>,
    pub pawns: Vec<Pawn>,
    pub phase: Phase,
    /// The last two dice rolled, and the last shot's die (for the screen).
    pub dice: Option<(u8, u8)>,
    pub shot_die: Option<u8>,
    /// Turns begun so far.
    pub turns: u32,
}

impl Public {
    /// The turn under way, in whatever part of it.
    pub fn turn(&self) -> Option<&Turn> {
        match &self.phase {
            Phase::Act(turn) | Phase::Rolling { turn, .. } | Phase::Window { turn, .. } => {
                Some(turn)
            }
            _ => None,
        }
    }

    pub fn seats(&self) -> u8 {
        self.config.seats
    }

    /// Every card on the table in a play an Ace may still stop.
    pub fn in_play(&self) -> Vec<CardId> {
        match &self.phase {
            Phase::Window { contest, aces, .. } => {
                let mut cards = contest.cards();
                cards.extend(aces.iter().map(|(_, c)| *c));
                cards
            }
            _ => Vec::new(),
        }
    }
}

/// What one seat knows: the faces of the cards it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Private {
    pub seat: Seat,
    pub faces: BTreeMap<Handle, CardId>,
}

impl Private {
    pub fn face(&self, card: &Handle) -> Option<CardId> {
        self.faces.get(card).copied()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    /// Park the car (and the shopper) in a free parking space.
    Park { space: Sq },
    /// Roll two dice to walk.
    Roll,
    /// Walk these squares, one step each, in order.
    Walk { path: Vec<Sq> },
    /// Put cards in the cart: one bought at a shop stood on this turn, an identical pair,
    /// or a Joker (worth nothing, anywhere).
    Shop { cards: Vec<(Handle, CardId)> },
    /// Play `card` to take every `rank` card from `victim`'s cart (the victim shares the
    /// robber's square).
    Rob {
        victim: Seat,
        card: Handle,
        face: CardId,
        rank: u8,
    },
    /// Play a 10 (Move-10), a 2 (Move-2) or a Joker (either) to move farther.
    MoveCard { card: Handle, face: CardId, steps: u8 },
    /// Shoot at `target` along a line of sight (ends the turn).
    Shoot { target: Seat },
    /// At the car: lock the cart in it (ends the turn; under the Hong Kong rules, the
    /// shopper gets in).
    Score,
    /// A turn begun at the car: drive it to a free parking space, the whole turn.
    Drive { to: Sq },
    /// The Hong Kong rules: start the car and roll two dice to drive it.
    StartCar,
    /// The Hong Kong rules: get out of the car in the free parking space it stands in
    /// (ends the turn).
    GetOut,
    /// End the turn.
    EndTurn,
    /// In a window: stop the play (or the Ace) with an Ace or a Joker.
    Ace { card: Handle, face: CardId },
    /// In a window: let it go.
    Pass,
}

/// How a shot went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShotOutcome {
    Miss,
    /// Hit exactly where the target stood.
    Hit,
    /// Hit and pushed to another square.
    Pushed,
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
    /// Everyone's roll to park first (ties roll again: each line is one round).
    ParkRolls {
        rounds: Vec<Vec<(Seat, u8)>>,
        first: Seat,
    },
    Parked {
        seat: Seat,
        space: Sq,
    },
    TurnBegins {
        seat: Seat,
        extra: bool,
    },
    StoodUp {
        seat: Seat,
    },
    Rolled {
        seat: Seat,
        dice: (u8, u8),
    },
    Walked {
        seat: Seat,
        path: Vec<Sq>,
    },
    /// A play an Ace may stop was made.
    Played {
        contest: Contest,
    },
    Aced {
        seat: Seat,
        card: CardId,
    },
    /// An Ace was ready too late (seen only where every answer is open: the audit, the
    /// local driver).
    TooLate {
        seat: Seat,
        card: CardId,
    },
    /// The play stood or was stopped, after `aces` Aces.
    Settled {
        contest: Contest,
        stopped: bool,
    },
    Stole {
        seat: Seat,
        victim: Seat,
        cards: Vec<CardId>,
    },
    Shot {
        seat: Seat,
        target: Seat,
        roll: u8,
        outcome: ShotOutcome,
    },
    FellOver {
        seat: Seat,
    },
    Scored {
        seat: Seat,
        cards: Vec<CardId>,
        points: i32,
        total: i32,
    },
    Drove {
        seat: Seat,
        to: Sq,
    },
    RanOver {
        seat: Seat,
        victim: Seat,
        spilled: Vec<CardId>,
    },
    GotOut {
        seat: Seat,
    },
    TurnEnds {
        seat: Seat,
    },
    Won {
        seat: Seat,
    },
}
