//! Sprawl's grid: squares and directions, the pyramids on them (upright towers and lying
//! branches), and the two things a branch point does: attack the square it points at and
//! target the square its pips away.

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::Seat;

/// A square of the board. Columns are lettered from A on the left; rows are numbered
/// from 1 at the top of the board as drawn, so `Square { col: 2, row: 3 }` is "C4".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Square {
    pub col: u8,
    pub row: u8,
}

impl Square {
    pub const fn new(col: u8, row: u8) -> Self {
        Square { col, row }
    }

    /// Parses a name such as "C4" (case-insensitive); `None` if it is not one.
    pub fn parse(name: &str) -> Option<Square> {
        let mut chars = name.trim().chars();
        let letter = chars.next()?.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() {
            return None;
        }
        let row: u8 = chars.as_str().parse().ok()?;
        if row == 0 {
            return None;
        }
        Some(Square::new(letter as u8 - b'A', row - 1))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'A' + self.col) as char,
            u32::from(self.row) + 1
        )
    }
}

/// The four ways a branch can point; diagonals are not valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Dir {
    /// Towards row 1 (up the board as drawn).
    North,
    East,
    South,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// Column and row change of one step this way.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::North => (0, -1),
            Dir::East => (1, 0),
            Dir::South => (0, 1),
            Dir::West => (-1, 0),
        }
    }

    /// The opposite direction: "back at" whatever lies behind.
    pub const fn back(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
        }
    }

    /// The two directions at right angles, for the sides of a branch.
    pub const fn sides(self) -> [Dir; 2] {
        match self {
            Dir::North | Dir::South => [Dir::East, Dir::West],
            Dir::East | Dir::West => [Dir::North, Dir::South],
        }
    }

    /// The lower-case word for the log ("north").
    pub const fn word(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::East => "east",
            Dir::South => "south",
            Dir::West => "west",
        }
    }

    /// The direction of a single orthogonal step from `a` to `b`, if they are neighbours.
    pub fn between(a: Square, b: Square) -> Option<Dir> {
        let dc = i16::from(b.col) - i16::from(a.col);
        let dr = i16::from(b.row) - i16::from(a.row);
        match (dc, dr) {
            (0, -1) => Some(Dir::North),
            (1, 0) => Some(Dir::East),
            (0, 1) => Some(Dir::South),
            (-1, 0) => Some(Dir::West),
            _ => None,
        }
    }
}

/// An upright stack. Every build caps with a piece one pip smaller, so a tower is fully
/// described by its bottom piece's size, its height and who owns each level; it never
/// holds more than three pieces (3, 2, 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tower {
    /// Pips of the bottom piece, 1 to 3.
    pub base: u8,
    /// Number of pieces, 1 to `base`.
    pub height: u8,
    /// Owner of each level from the bottom; only the first `height` entries count.
    pub owners: [Seat; 3],
}

impl Tower {
    pub fn new(owner: Seat, size: u8) -> Self {
        Tower {
            base: size,
            height: 1,
            owners: [owner; 3],
        }
    }

    /// Pips of the top piece.
    pub fn top(&self) -> u8 {
        self.base + 1 - self.height
    }

    /// The seat that controls the tower: the owner of its top piece.
    pub fn controller(&self) -> Seat {
        self.owners[usize::from(self.height - 1)]
    }

    /// Whether a piece of this size is in the tower.
    pub fn holds(&self, size: u8) -> bool {
        size <= self.base && size >= self.top()
    }

    /// Total pips of the tower.
    pub fn pips(&self) -> u8 {
        self.pieces().map(|(_, size)| size).sum()
    }

    /// Its pieces from the bottom up, as (owner, pips).
    pub fn pieces(&self) -> impl Iterator<Item = (Seat, u8)> + '_ {
        (0..self.height).map(move |level| (self.owners[usize::from(level)], self.base - level))
    }
}

/// A lying piece: it points `dir`, attacks the neighbouring square that way and targets
/// the square `size` steps that way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Branch {
    pub owner: Seat,
    pub size: u8,
    pub dir: Dir,
    /// The tower or branch it was laid off.
    pub source: Square,
    /// The tower at the start of its chain.
    pub root: Square,
    /// Pieces from the root tower to this one, counting this one (1 for a branch laid
    /// directly off a tower).
    pub depth: u8,
}

/// What a square holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cell {
    #[default]
    Empty,
    Tower(Tower),
    Branch(Branch),
}

/// Board sizes by seat count, as the rulebook gives them: (fewest seats, most seats,
/// columns, rows). "With three players, play on a 5×6 board. With 4 to six players, play
/// on a 6×6 board. With 7 or more players, play on an 8×8 board."
pub const BOARD_SIZES: [(u8, u8, u8, u8); 3] = [(3, 3, 5, 6), (4, 6, 6, 6), (7, 8, 8, 8)];

/// The grid, row by row from the top.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub cols: u8,
    pub rows: u8,
    pub cells: Vec<Cell>,
}

impl Board {
    pub fn new(cols: u8, rows: u8) -> Self {
        Board {
            cols,
            rows,
            cells: vec![Cell::Empty; usize::from(cols) * usize::from(rows)],
        }
    }

    /// The board for a seat count, or `None` outside 3–8 seats.
    pub fn for_seats(seats: u8) -> Option<Self> {
        BOARD_SIZES
            .iter()
            .find(|(lo, hi, _, _)| (*lo..=*hi).contains(&seats))
            .map(|&(_, _, cols, rows)| Board::new(cols, rows))
    }

    pub fn contains(&self, sq: Square) -> bool {
        sq.col < self.cols && sq.row < self.rows
    }

    pub(crate) fn index(&self, sq: Square) -> usize {
        usize::from(sq.row) * usize::from(self.cols) + usize::from(sq.col)
    }

    pub(crate) fn square_at(&self, index: usize) -> Square {
        let cols = usize::from(self.cols);
        // Indices come from `self.cells`, so both parts fit in a u8.
        Square::new((index % cols) as u8, (index / cols) as u8)
    }

    /// Every square, row by row from the top.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.cells.len()).map(|i| self.square_at(i))
    }

    /// What `sq` holds; off the board reads as empty.
    pub fn cell(&self, sq: Square) -> Cell {
        if self.contains(sq) {
            self.cells[self.index(sq)]
        } else {
            Cell::Empty
        }
    }

    pub fn tower(&self, sq: Square) -> Option<Tower> {
        match self.cell(sq) {
            Cell::Tower(t) => Some(t),
            _ => None,
        }
    }

    pub fn branch(&self, sq: Square) -> Option<Branch> {
        match self.cell(sq) {
            Cell::Branch(b) => Some(b),
            _ => None,
        }
    }

    /// Whether `sq` is on the board and holds nothing.
    pub fn is_vacant(&self, sq: Square) -> bool {
        self.contains(sq) && self.cells[self.index(sq)] == Cell::Empty
    }

    /// The square `steps` squares from `from` towards `dir`, if it is on the board.
    pub fn step(&self, from: Square, dir: Dir, steps: u8) -> Option<Square> {
        let (dc, dr) = dir.delta();
        let col = i16::from(from.col) + i16::from(dc) * i16::from(steps);
        let row = i16::from(from.row) + i16::from(dr) * i16::from(steps);
        let sq = Square::new(u8::try_from(col).ok()?, u8::try_from(row).ok()?);
        self.contains(sq).then_some(sq)
    }

    /// The square a branch at `at` attacks: the neighbour it points at.
    pub fn attacked_by(&self, at: Square, branch: &Branch) -> Option<Square> {
        self.step(at, branch.dir, 1)
    }

    /// The square a branch at `at` targets: `size` squares the way it points. Pieces in
    /// between do not matter.
    pub fn targeted_by(&self, at: Square, branch: &Branch) -> Option<Square> {
        self.step(at, branch.dir, branch.size)
    }

    /// The branches pointing at `sq`, as (where the branch lies, the branch).
    pub fn attackers(&self, sq: Square) -> impl Iterator<Item = (Square, Branch)> + '_ {
        Dir::ALL.into_iter().filter_map(move |dir| {
            let from = self.step(sq, dir, 1)?;
            let branch = self.branch(from)?;
            (branch.dir == dir.back()).then_some((from, branch))
        })
    }

    /// Whether a tower at `sq` holding `tower`'s pieces is neutralized by the branches
    /// pointing at it, plus one more attacker of `extra` pips if given.
    pub(crate) fn neutralizes(
        &self,
        sq: Square,
        tower: &Tower,
        superior_forces: bool,
        extra: Option<u8>,
    ) -> bool {
        let sizes = self.attackers(sq).map(|(_, b)| b.size).chain(extra);
        if superior_forces {
            // "A tower is only neutralized when the total pip value of attacking pieces
            // exceeds the total pip value of the tower."
            sizes.map(u16::from).sum::<u16>() > u16::from(tower.pips())
        } else {
            // "A tower is neutralized if it is attacked by a piece of a size that is not
            // in that tower."
            sizes.into_iter().any(|size| !tower.holds(size))
        }
    }

    /// Whether the tower at `sq` is neutralized (false if there is no tower there).
    pub fn is_neutralized(&self, sq: Square, superior_forces: bool) -> bool {
        self.tower(sq)
            .is_some_and(|t| self.neutralizes(sq, &t, superior_forces, None))
    }

    /// For every square, whether it holds a neutralized tower: computed once per position
    /// so move generation can ask about many branches' roots cheaply.
    pub(crate) fn neutralized_map(&self, superior_forces: bool) -> Vec<bool> {
        self.cells
            .iter()
            .enumerate()
            .map(|(i, cell)| match cell {
                Cell::Tower(t) => self.neutralizes(self.square_at(i), t, superior_forces, None),
                _ => false,
            })
            .collect()
    }

    /// Puts a piece upright at `at`: a new tower on an empty square, or a cap on the
    /// tower there. No rule is checked; callers have done that.
    pub fn raise(&mut self, at: Square, owner: Seat, size: u8) {
        let i = self.index(at);
        self.cells[i] = match self.cells[i] {
            Cell::Tower(mut t) if t.height < 3 => {
                t.owners[usize::from(t.height)] = owner;
                t.height += 1;
                Cell::Tower(t)
            }
            _ => Cell::Tower(Tower::new(owner, size)),
        };
    }

    /// Lays a branch at `at` off the tower or branch at `from`, working out its root and
    /// length from the source. No rule is checked; callers have done that.
    pub fn lay(&mut self, owner: Seat, from: Square, at: Square, dir: Dir, size: u8) {
        let (root, depth) = match self.cell(from) {
            Cell::Branch(b) => (b.root, b.depth + 1),
            _ => (from, 1),
        };
        let i = self.index(at);
        self.cells[i] = Cell::Branch(Branch {
            owner,
            size,
            dir,
            source: from,
            root,
            depth,
        });
    }

    /// Empties a square.
    pub fn clear(&mut self, at: Square) {
        let i = self.index(at);
        self.cells[i] = Cell::Empty;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_steps_stay_on_the_board() {
        let b = Board::new(5, 6);
        assert_eq!(Square::new(2, 3).to_string(), "C4");
        assert_eq!(Square::parse("c4"), Some(Square::new(2, 3)));
        assert_eq!(Square::parse("C0"), None);
        assert_eq!(b.step(Square::new(0, 0), Dir::West, 1), None);
        assert_eq!(
            b.step(Square::new(0, 0), Dir::South, 3),
            Some(Square::new(0, 3))
        );
        assert_eq!(b.step(Square::new(4, 5), Dir::East, 1), None);
        assert_eq!(
            Dir::between(Square::new(1, 1), Square::new(1, 0)),
            Some(Dir::North)
        );
        assert_eq!(Dir::between(Square::new(1, 1), Square::new(2, 2)), None);
    }

    #[test]
    fn a_tower_holds_the_run_of_sizes_from_its_base_down() {
        let mut b = Board::new(5, 6);
        let at = Square::new(1, 1);
        b.raise(at, 0, 3);
        b.raise(at, 1, 2);
        let t = b.tower(at).unwrap();
        assert!(t.holds(3) && t.holds(2) && !t.holds(1));
        assert_eq!((t.top(), t.pips(), t.controller()), (2, 5, 1));
    }
}
