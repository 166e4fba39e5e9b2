//! The types Freeloader's reconstructed tables are written in: the houses, their tracks, and
//! the cards. The tables themselves are `cards.rs` (the 54 cards) and `board.rs` (the six
//! house sections), one printed card or board space a line.

use serde::{Deserialize, Serialize};

/// The six houses of the neighbourhood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum House {
    Doctor,
    Artist,
    Waitress,
    Hippies,
    Gambler,
    Lawyer,
}

impl House {
    pub const ALL: [House; 6] = [
        House::Doctor,
        House::Artist,
        House::Waitress,
        House::Hippies,
        House::Gambler,
        House::Lawyer,
    ];
}

/// What a card counts as when the game asks who qualifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Category {
    Food,
    Clothing,
    Shelter,
    FinerThings,
}

/// A discount printed on a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Discount {
    /// "(Someone's) House: -X": X less when played standing at that house.
    House(House, i8),
    /// "(Someone's) Best Friend: -Y": Y less for that house's Best Friend, wherever they stand.
    BestFriend(House, i8),
}

/// What a card does beyond its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Special {
    None,
    /// A Car: a move may roll up to 3 dice. More cars are no faster.
    Car,
    /// DWI (Draft Beer, Smooth Irish Whiskey): as a turn, hand it from your Stuff to another
    /// player's Stuff; their Cars leave the game.
    Dwi,
    /// An extra die when moving, the lowest thrown out; never stacks.
    ExtraDie,
    /// "Surprise!": instead of playing it normally, as a turn, remove it from the game for
    /// `favors` favors in `house` (one challenge for Best Friend with them).
    Surprise {
        house: House,
        favors: u8,
    },
    /// A matching card: `bonus` points at the end for owning every card of `set` together.
    Match {
        set: &'static str,
        bonus: i8,
    },
}

/// One printed card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card {
    pub name: &'static str,
    pub category: Category,
    /// Favors spent from the house where it is played, before discounts.
    pub cost: i8,
    pub points: i8,
    pub discounts: &'static [Discount],
    pub special: Special,
    /// The card's joke line.
    pub joke: &'static str,
}

/// One space of a house's track.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Space {
    /// Place a favor in this house (`Some`) or a house of the player's choice (`None`).
    Favor(Option<House>),
    /// Draw the top card or the face-up card at the house where the pawn stands.
    Draw,
    /// Trade hand-to-hand, Stuff-to-Stuff or hand-to-Board.
    Trade,
    StealFood,
    StealClothing,
    /// Crashing at this house (the section's own house).
    Crash,
    /// A Bus Stop, with its number (1–6): the last space of every track.
    BusStop(u8),
}

/// One board section: a house, its people, and its track of seven spaces (the last a Bus
/// Stop). Pawns move clockwise: along the track, then on to the next house's first space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    pub house: House,
    /// Who lives there, as the board names them ("Doctor Mike").
    pub people: &'static str,
    /// Best Friend spaces (the Waitress has two).
    pub best_friends: u8,
    /// Crash spaces (the Hippies have three).
    pub crash_spaces: u8,
    pub track: [Space; 7],
}
