//! Sprawl's table: the options chosen before play, each seat's stash, the coup cards and
//! the phase of play, plus the read-only questions the screen asks about a position.

use serde::{Deserialize, Serialize};
use std::fmt;

use super::board::{Board, Cell, Dir, Square};
use crate::{Outcome, RuleError, Seat};

/// The seat count and the optional variants, all off by default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub seats: u8,
    /// Counting Coup: a seat that could neutralize a fresh spore may ask "Are you sure?";
    /// a take-back earns it a face-down poker card worth −1 (A–10) or −2 (J, Q, K).
    pub counting_coup: bool,
    /// Sprawlgami: you may build on an opponent's tower that a branch point of yours
    /// targets; a tower is controlled by the owner of its top piece.
    pub sprawlgami: bool,
    /// Overload: a spore may be followed at once by one build for each extra branch point
    /// of yours that targets the square.
    pub overload: bool,
    /// Superior Forces: a tower falls only when its attackers' pips exceed its own.
    pub superior_forces: bool,
    /// Loose Branching: a branch may point any way but back at its source.
    pub loose_branching: bool,
}

impl Config {
    /// The plain game for `seats` seats.
    pub fn new(seats: u8) -> Self {
        Config {
            seats,
            counting_coup: false,
            sprawlgami: false,
            overload: false,
            superior_forces: false,
            loose_branching: false,
        }
    }
}

/// Pieces a seat still holds off the board, by size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stash {
    /// How many 1-, 2- and 3-pip pyramids are left.
    pub counts: [u8; 3],
}

/// "Each stash 15 pyramids: five each of 3, 2 and 1 pips."
pub const STASH_PER_SIZE: u8 = 5;

impl Stash {
    pub fn full() -> Self {
        Stash {
            counts: [STASH_PER_SIZE; 3],
        }
    }

    /// How many pieces of `size` pips are left (0 for a size that does not exist).
    pub fn count(&self, size: u8) -> u8 {
        match size {
            1..=3 => self.counts[usize::from(size - 1)],
            _ => 0,
        }
    }

    pub fn has(&self, size: u8) -> bool {
        self.count(size) > 0
    }

    pub(crate) fn take(&mut self, size: u8) {
        self.counts[usize::from(size - 1)] -= 1;
    }

    pub(crate) fn put(&mut self, size: u8) {
        self.counts[usize::from(size - 1)] += 1;
    }

    /// The pips left: what the final score counts.
    pub fn pips(&self) -> u16 {
        (1..=3u8)
            .map(|size| u16::from(size) * u16::from(self.count(size)))
            .sum()
    }

    /// Pieces left of any size.
    pub fn pieces(&self) -> u8 {
        self.counts.iter().sum()
    }
}

/// Opponents' towers a seat has neutralized: the first two tie-breaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Credit {
    /// Pips of those towers when they fell.
    pub pips: u16,
    pub towers: u16,
}

/// A card of the poker deck used by Counting Coup, 0 to 51: suit × 13 + rank, rank 0 the
/// ace and 12 the king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Card(pub u8);

impl Card {
    /// The whole deck in a fixed order, before the shuffle.
    pub fn deck() -> Vec<Card> {
        (0..52).map(Card).collect()
    }

    /// "Subtract one from your score for every Ace through 10 you have. Subtract two from
    /// your score for every Jack, Queen, and King you have."
    pub fn worth(self) -> i32 {
        if self.0 % 13 >= 10 { 2 } else { 1 }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const RANKS: [&str; 13] = [
            "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
        ];
        const SUITS: [&str; 4] = ["♣", "♦", "♥", "♠"];
        write!(
            f,
            "{}{}",
            RANKS[usize::from(self.0 % 13)],
            SUITS[usize::from(self.0 / 13 % 4)]
        )
    }
}

/// A spore as made, kept while the Counting Coup offer is open so it can be taken back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SporeMade {
    pub at: Square,
    pub size: u8,
    /// Builds added at once under Overload.
    pub builds: u8,
}

/// Where the game is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Waiting for the beacon to pick who goes first.
    FirstPlayer,
    /// A seat's turn.
    Turn {
        seat: Seat,
    },
    /// Counting Coup: `seats` (ascending) could neutralize the spore next turn and now
    /// say whether to ask "Are you sure?".
    Offer {
        sporer: Seat,
        spore: SporeMade,
        seats: Vec<Seat>,
    },
    /// Counting Coup: `asker` asked; the sporer keeps the spore or takes it back.
    Decide {
        sporer: Seat,
        asker: Seat,
        spore: SporeMade,
    },
    /// The game has ended and the beacon deals the coup cards earned.
    Dealing,
    Over(Outcome),
}

/// Everything every device sees. Fields are public to read; change them only through
/// [`crate::Game::apply`] (tests may arrange positions directly).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Public {
    pub config: Config,
    pub board: Board,
    pub stashes: Vec<Stash>,
    /// Whether each seat has placed its starting tower.
    pub started: Vec<bool>,
    pub credit: Vec<Credit>,
    /// The seat that went first, once drawn.
    pub first: Option<Seat>,
    /// Counting Coup: who earned a face-down card, in the order earned.
    pub coup_owed: Vec<Seat>,
    /// Counting Coup: the cards dealt at the end, in the order earned.
    pub coup_cards: Vec<(Seat, Card)>,
    /// Counting Coup: moves taken back during the current turn, which may not be made
    /// again this turn ("make a different move").
    pub taken_back: Vec<Input>,
    /// Seats the table removed, ascending: no more turns, no win (see [`Input::Leave`]).
    pub left: Vec<Seat>,
    pub phase: Phase,
}

impl Public {
    pub(crate) fn new(config: &Config) -> Result<Self, RuleError> {
        let board = Board::for_seats(config.seats).ok_or_else(|| {
            RuleError::BadConfig(format!("Sprawl needs 3 to 8 players, not {}", config.seats))
        })?;
        let n = usize::from(config.seats);
        Ok(Public {
            config: config.clone(),
            board,
            stashes: vec![Stash::full(); n],
            started: vec![false; n],
            credit: vec![Credit::default(); n],
            first: None,
            coup_owed: Vec::new(),
            coup_cards: Vec::new(),
            taken_back: Vec::new(),
            left: Vec::new(),
            phase: Phase::FirstPlayer,
        })
    }

    pub fn seats(&self) -> u8 {
        self.config.seats
    }

    /// A seat's stash (an empty one for a seat that is not at the table).
    pub fn stash(&self, seat: Seat) -> Stash {
        self.stashes
            .get(usize::from(seat))
            .copied()
            .unwrap_or(Stash { counts: [0; 3] })
    }

    /// Whether the tower at `at` is neutralized (false where there is no tower).
    pub fn is_neutralized(&self, at: Square) -> bool {
        self.board.is_neutralized(at, self.config.superior_forces)
    }

    /// Whether the piece at `at` is out of play: a neutralized tower, or a branch whose
    /// chain starts at one. Such pieces still attack, but cannot be built on, branched
    /// from or spored from, and go back to the stash at the end.
    pub fn is_dead(&self, at: Square) -> bool {
        match self.board.cell(at) {
            Cell::Tower(_) => self.is_neutralized(at),
            Cell::Branch(b) => self.is_neutralized(b.root),
            Cell::Empty => false,
        }
    }

    /// Who controls the piece at `at`: a tower's top piece owner, a branch's owner.
    pub fn controller(&self, at: Square) -> Option<Seat> {
        match self.board.cell(at) {
            Cell::Tower(t) => Some(t.controller()),
            Cell::Branch(b) => Some(b.owner),
            Cell::Empty => None,
        }
    }

    /// Every square targeted by a branch point `seat` can spore from (its branches on
    /// live towers), ascending and without repeats; occupied squares included.
    pub fn targets(&self, seat: Seat) -> Vec<Square> {
        let dead = self.board.neutralized_map(self.config.superior_forces);
        let mut out: Vec<Square> = self
            .board
            .squares()
            .filter_map(|at| {
                let b = self.board.branch(at)?;
                let live = !dead[self.board.index(b.root)];
                (b.owner == seat && live)
                    .then(|| self.board.targeted_by(at, &b))
                    .flatten()
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The squares the branch points pointing at `at` lie on (whoever owns them).
    pub fn attackers(&self, at: Square) -> Vec<Square> {
        self.board.attackers(at).map(|(sq, _)| sq).collect()
    }

    /// The seat whose turn it is, or who must answer now, if any single one.
    pub fn to_move(&self) -> Option<Seat> {
        match &self.phase {
            Phase::Turn { seat } => Some(*seat),
            Phase::Decide { sporer, .. } => Some(*sporer),
            _ => None,
        }
    }
}

/// What a seat submits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    /// First turn only: the starting tower, upright on any vacant square, any size.
    Place { at: Square, size: u8 },
    /// Cap a tower with a piece one pip smaller than its top.
    Build { at: Square },
    /// Lay a `size` piece at `at`, next to the tower or branch at `from`, pointing `dir`.
    Branch {
        from: Square,
        at: Square,
        dir: Dir,
        size: u8,
    },
    /// Start a tower of `size` at a vacant square one of your live branch points
    /// targets; under Overload, then build on it `builds` times (each one pip smaller).
    Spore { at: Square, size: u8, builds: u8 },
    /// Counting Coup: "Are you sure you want to do that?"
    Ask,
    /// Counting Coup: let the spore be without asking.
    Pass,
    /// Counting Coup: the sporer takes the spore back (the asker earns a card).
    TakeBack,
    /// Counting Coup: the sporer keeps the spore.
    Keep,
    /// Not a player's move: what the table puts in the step of a seat it skips by vote. On
    /// its turn the seat passes; asked "Are you sure?", it says nothing; deciding about its
    /// spore, it keeps it.
    SitOut,
    /// Not a player's move: what the table puts in the step of a seat it removes by vote.
    /// The seat sits out this step as with [`Input::SitOut`] and leaves the game: it gets
    /// no more turns and cannot win; its pieces stay on the board.
    Leave,
}

impl Input {
    /// Whether this is the table's word for an absent seat rather than a player's move.
    #[inline]
    pub fn is_absence(&self) -> bool {
        matches!(self, Input::SitOut | Input::Leave)
    }
}
