//! LeGrand Mall as data: the grid of squares and the walls between them, one line a row, so
//! a square read off the printed board is corrected in one place. Everything else here is
//! geometry on that data: who may step where, what a shot can see, how far a walk reaches.
//!
//! The grid is 14 columns (x, left to right) by 9 rows (y, top to bottom). Each suit has two
//! shops marked 3 in the encoding the board came from, and no 10; the board says shops sell
//! the cards they show and 10s score ten, so the 3 in each quarter's outer row of shops (beside
//! the Jack) is the 10's shop here, the same in every quarter (10H, 10S, 10C, 10D).

use super::cards::{Face, Suit};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

pub const WIDTH: u8 = 14;
pub const HEIGHT: u8 = 9;
const SQUARES: usize = WIDTH as usize * HEIGHT as usize;

/// One square of the mall, by column and row.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
pub struct Sq {
    pub x: u8,
    pub y: u8,
}

impl Sq {
    pub const fn new(x: u8, y: u8) -> Sq {
        Sq { x, y }
    }

    fn index(self) -> usize {
        usize::from(self.y) * usize::from(WIDTH) + usize::from(self.x)
    }

    /// Whether the square is on the board.
    pub fn on_board(self) -> bool {
        self.x < WIDTH && self.y < HEIGHT
    }

    /// The square one step `dir` from here, if it is on the board.
    pub fn step(self, dir: Dir) -> Option<Sq> {
        let (dx, dy) = dir.delta();
        let x = i16::from(self.x) + dx;
        let y = i16::from(self.y) + dy;
        ((0..i16::from(WIDTH)).contains(&x) && (0..i16::from(HEIGHT)).contains(&y))
            .then(|| Sq::new(x as u8, y as u8))
    }
}

/// The four ways a shopper can step or a shot can fly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Dir {
    N,
    E,
    S,
    W,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    fn delta(self) -> (i16, i16) {
        match self {
            Dir::N => (0, -1),
            Dir::E => (1, 0),
            Dir::S => (0, 1),
            Dir::W => (-1, 0),
        }
    }

    fn bit(self) -> u8 {
        match self {
            Dir::N => 1,
            Dir::E => 2,
            Dir::S => 4,
            Dir::W => 8,
        }
    }

    /// The direction from `a` to the neighbouring square `b`.
    pub fn between(a: Sq, b: Sq) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| a.step(*d) == Some(b))
    }
}

/// What a square is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// The parking lot: the outer ring.
    Lot,
    /// One of the 12 parking spaces (the spots with cars).
    Parking,
    /// Open floor inside the mall.
    Floor,
    /// The fountain: nobody enters it, shots cross it.
    Fountain,
    /// A shop selling this card.
    Shop(Face),
}

/// The grid, a row a line: `lot`, `PS` (parking space), `.` (open floor), `FTN` (fountain),
/// or the card a shop sells (`10H` = 10 of Hearts).
const GRID: [&str; HEIGHT as usize] = [
    "lot lot lot PS  lot lot lot lot lot lot PS  lot lot lot",
    "PS  6H  KH  9H  JH  10H .   .   10S JS  9S  KS  6S  PS ",
    "PS  AH  8H  .   4H  7H  .   .   7S  4S  .   8S  AS  PS ",
    "lot QH  3H  5H  2H  .   .   .   .   2S  5S  3S  QS  lot",
    "lot .   .   .   .   .   FTN FTN .   .   .   .   .   lot",
    "lot QC  3C  5C  2C  .   .   .   .   2D  5D  3D  QD  lot",
    "PS  AC  8C  .   4C  7C  .   .   7D  4D  .   8D  AD  PS ",
    "PS  6C  KC  9C  JC  10C .   .   10D JD  9D  KD  6D  PS ",
    "lot lot lot PS  lot lot lot lot lot lot PS  lot lot lot",
];

/// The walls of each square, as the sides (N, E, S, W) that carry one (`-` = open). Every
/// wall is written on both squares it separates; the outer edge is walled.
const WALLS: [&str; HEIGHT as usize] = [
    "N--W N--- N-S- N-S- N-S- N-S- N--- N--- N-S- N-S- N-S- N-S- N--- NE--",
    "---W -ES- N-SW N--- N-S- NE-- ---W -E-- N--W N-S- N--- NES- --SW -E--",
    "-E-W N-SW N--- ---- N--- ---- ---- ---- ---- N--- ---- N--- NES- -E-W",
    "-E-W N-SW --S- ---- ---- ---- ---- ---- ---- ---- ---- --S- NES- -E-W",
    "---W N-S- N-S- ---- ---- ---- ---- ---- ---- ---- ---- N-S- N-S- -E--",
    "-E-W N-SW N--- ---- ---- ---- ---- ---- ---- ---- ---- N--- NES- -E-W",
    "-E-W N-SW --S- ---- --S- ---- ---- ---- ---- --S- ---- --S- NES- -E-W",
    "---W NE-- N-SW --S- N-S- -ES- ---W -E-- --SW N-S- --S- NES- N--W -E--",
    "--SW --S- N-S- N-S- N-S- N-S- --S- --S- N-S- N-S- N-S- N-S- --S- -ES-",
];

/// The parking spaces in the order the board goes round, clockwise from the left side: the
/// order an away seat's car takes the first free one in.
pub const PARKING: [Sq; 12] = [
    Sq::new(0, 2),
    Sq::new(0, 1),
    Sq::new(3, 0),
    Sq::new(10, 0),
    Sq::new(13, 1),
    Sq::new(13, 2),
    Sq::new(13, 6),
    Sq::new(13, 7),
    Sq::new(10, 8),
    Sq::new(3, 8),
    Sq::new(0, 7),
    Sq::new(0, 6),
];

/// The mall, read from [`GRID`] and [`WALLS`] once.
pub struct Board {
    kinds: [Kind; SQUARES],
    walls: [u8; SQUARES],
}

/// The board, parsed on first use.
pub fn board() -> &'static Board {
    static BOARD: OnceLock<Board> = OnceLock::new();
    BOARD.get_or_init(Board::parse)
}

impl Board {
    fn parse() -> Board {
        let mut kinds = [Kind::Floor; SQUARES];
        let mut walls = [0u8; SQUARES];
        for (y, (row, wall_row)) in GRID.iter().zip(WALLS.iter()).enumerate() {
            let cells: Vec<&str> = row.split_whitespace().collect();
            let marks: Vec<&str> = wall_row.split_whitespace().collect();
            assert_eq!(cells.len(), usize::from(WIDTH), "row {y} of the grid");
            assert_eq!(marks.len(), usize::from(WIDTH), "row {y} of the walls");
            for x in 0..usize::from(WIDTH) {
                let i = y * usize::from(WIDTH) + x;
                kinds[i] = parse_kind(cells[x]);
                walls[i] = marks[x]
                    .chars()
                    .zip(Dir::ALL)
                    .filter(|(c, _)| *c != '-')
                    .fold(0, |acc, (_, d)| acc | d.bit());
            }
        }
        Board { kinds, walls }
    }

    pub fn kind(&self, sq: Sq) -> Kind {
        self.kinds[sq.index()]
    }

    /// Whether a wall stands on `dir`'s side of `sq`.
    pub fn wall(&self, sq: Sq, dir: Dir) -> bool {
        self.walls[sq.index()] & dir.bit() != 0
    }

    /// Every square, row by row.
    pub fn squares() -> impl Iterator<Item = Sq> {
        (0..HEIGHT).flat_map(|y| (0..WIDTH).map(move |x| Sq::new(x, y)))
    }

    /// The 12 parking spaces, clockwise from the left side's upper pair (as [`PARKING`]
    /// lists them: integer data, the same on every platform).
    pub fn parking(&self) -> Vec<Sq> {
        PARKING.to_vec()
    }

    /// The squares selling `face`.
    pub fn shops_of(&self, face: Face) -> Vec<Sq> {
        Board::squares()
            .filter(|s| self.kind(*s) == Kind::Shop(face))
            .collect()
    }

    /// The neighbour a shopper may step to from `sq` going `dir`: on the board, no wall
    /// between, not the fountain.
    pub fn walk(&self, sq: Sq, dir: Dir) -> Option<Sq> {
        if self.wall(sq, dir) {
            return None;
        }
        let next = sq.step(dir)?;
        (self.kind(next) != Kind::Fountain).then_some(next)
    }

    /// A car's step (the Hong Kong rules): a shopper's step that stays in the parking lot,
    /// the parking spaces and the open floor, never into a shop.
    pub fn drive(&self, sq: Sq, dir: Dir) -> Option<Sq> {
        let next = self.walk(sq, dir)?;
        matches!(self.kind(next), Kind::Lot | Kind::Parking | Kind::Floor).then_some(next)
    }

    /// The squares a shot from `from` going `dir` can reach, nearest first: past players,
    /// cars and the fountain, up to the first wall or the edge.
    pub fn sight(&self, from: Sq, dir: Dir) -> Vec<Sq> {
        let mut line = Vec::new();
        let mut at = from;
        while !self.wall(at, dir) {
            let Some(next) = at.step(dir) else { break };
            line.push(next);
            at = next;
        }
        line
    }

    /// Where a push of `count` squares going `dir` from `from` stops: at the end of the
    /// count, or before a wall, the edge or (unless `through_fountain`) the fountain. Going
    /// through the fountain, a push that would stop inside it carries on to its far side.
    pub fn push(&self, from: Sq, dir: Dir, count: u8, through_fountain: bool) -> Sq {
        let mut at = from;
        let mut left = count;
        loop {
            let inside = self.kind(at) == Kind::Fountain;
            if left == 0 && !inside {
                return at;
            }
            let next = if self.wall(at, dir) {
                None
            } else {
                at.step(dir)
            };
            let Some(next) = next else {
                // A wall or the edge; in the fountain (which has no walls of its own) this
                // cannot happen on this board, but a pushed shopper never stays inside.
                return if inside { from } else { at };
            };
            if self.kind(next) == Kind::Fountain && !through_fountain {
                return at;
            }
            at = next;
            left = left.saturating_sub(1);
        }
    }

    /// Steps between every pair of squares for a walking shopper (doubling back ignored),
    /// from `from`; `u8::MAX` where it cannot be reached.
    pub fn distances(&self, from: Sq) -> [u8; SQUARES] {
        let mut dist = [u8::MAX; SQUARES];
        dist[from.index()] = 0;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(at) = queue.pop_front() {
            let d = dist[at.index()];
            for dir in Dir::ALL {
                if let Some(next) = self.walk(at, dir)
                    && dist[next.index()] == u8::MAX
                {
                    dist[next.index()] = d + 1;
                    queue.push_back(next);
                }
            }
        }
        dist
    }

    /// The distance from `from` to `to` as [`Board::distances`] counts it, cached.
    pub fn distance(&self, from: Sq, to: Sq) -> u8 {
        static TABLE: OnceLock<Vec<[u8; SQUARES]>> = OnceLock::new();
        let table = TABLE.get_or_init(|| {
            Board::squares()
                .map(|s| board().distances(s))
                .collect::<Vec<_>>()
        });
        table[from.index()][to.index()]
    }
}

/// Where in a distance table a square's entry is.
pub fn slot(sq: Sq) -> usize {
    sq.index()
}

fn parse_kind(cell: &str) -> Kind {
    match cell {
        "lot" => Kind::Lot,
        "PS" => Kind::Parking,
        "." => Kind::Floor,
        "FTN" => Kind::Fountain,
        shop => {
            let (rank, suit) = shop.split_at(shop.len() - 1);
            let suit = match suit {
                "H" => Suit::Hearts,
                "S" => Suit::Spades,
                "C" => Suit::Clubs,
                "D" => Suit::Diamonds,
                other => panic!("the board names a shop of no suit: {other}"),
            };
            let rank = match rank {
                "A" => 14,
                "K" => 13,
                "Q" => 12,
                "J" => 11,
                n => n
                    .parse::<u8>()
                    .unwrap_or_else(|_| panic!("the board names a shop of no rank: {n}")),
            };
            Kind::Shop(Face::new(rank, suit))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wall_is_written_on_both_squares_it_separates() {
        let b = board();
        for sq in Board::squares() {
            for dir in Dir::ALL {
                match sq.step(dir) {
                    Some(next) => {
                        let back = Dir::between(next, sq).unwrap();
                        assert_eq!(b.wall(sq, dir), b.wall(next, back), "{sq:?} {dir:?}");
                    }
                    None => assert!(b.wall(sq, dir), "the edge at {sq:?} {dir:?} is walled"),
                }
            }
        }
    }

    #[test]
    fn the_mall_has_12_parking_spaces_a_two_square_fountain_and_one_shop_per_card() {
        let b = board();
        let mut listed = PARKING.to_vec();
        listed.sort();
        let mut marked: Vec<Sq> = Board::squares()
            .filter(|s| b.kind(*s) == Kind::Parking)
            .collect();
        marked.sort();
        assert_eq!(listed, marked, "PARKING lists exactly the grid's parking spaces");
        assert_eq!(listed.len(), 12);
        let fountain = Board::squares()
            .filter(|s| b.kind(*s) == Kind::Fountain)
            .count();
        assert_eq!(fountain, 2);
        for suit in Suit::ALL {
            for rank in 2..=14 {
                assert_eq!(b.shops_of(Face::new(rank, suit)).len(), 1, "{rank} {suit:?}");
            }
        }
    }

    #[test]
    fn exactly_the_aces_kings_and_queens_are_dead_ends() {
        // "when you move into a dead end (the Aces, Kings, and Queens), you have to stop"
        let b = board();
        for sq in Board::squares() {
            let ways = Dir::ALL.iter().filter(|d| b.walk(sq, **d).is_some()).count();
            let royal = matches!(b.kind(sq), Kind::Shop(f) if f.rank >= 12);
            if b.kind(sq) != Kind::Fountain {
                assert_eq!(ways == 1, royal, "{sq:?} has {ways} ways out");
            }
        }
    }

    #[test]
    fn every_square_but_the_fountain_can_be_reached_from_every_parking_space() {
        let b = board();
        for space in b.parking() {
            for sq in Board::squares() {
                if b.kind(sq) != Kind::Fountain {
                    assert!(b.distance(space, sq) < u8::MAX, "{sq:?} from {space:?}");
                }
            }
        }
    }
}
