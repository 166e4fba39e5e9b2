//! Shared helpers for the Sprawl tests: beacon draws, and a table builder that plays
//! scripted moves.
#![allow(dead_code)]

use hoard_rules::sprawl::{Config, Dir, Event, Input, Public, Sprawl, Square};
use hoard_rules::{Game, Pending, Play, Seat, Step, rng};

/// A beacon draw for tests: fixed by the game's seed and the draw's number.
pub fn draw(seed: u64, k: u64) -> [u8; 32] {
    let mut d = [0u8; 32];
    d[..8].copy_from_slice(&seed.to_le_bytes());
    d[8..16].copy_from_slice(&k.to_le_bytes());
    d
}

/// "C4" as a square.
pub fn sq(name: &str) -> Square {
    Square::parse(name).expect("a square name")
}

/// A table where seat 0 goes first, driven by scripted moves.
pub struct Table {
    pub p: Public,
}

impl Table {
    /// A fresh table whose first-player draw picks seat 0.
    pub fn new(config: Config) -> Self {
        let mut p = Sprawl::setup(&config).expect("a valid config");
        let seats = u32::from(config.seats);
        let d = (0..)
            .map(|k| draw(7, k))
            .find(|d| rng::below(&mut rng::from_seed(d, "first player"), seats) == 0)
            .expect("some draw picks seat 0");
        Sprawl::apply(&mut p, &mut [], &Step::Chance(d)).expect("first player");
        Table { p }
    }

    pub fn turn(&self) -> Seat {
        match Sprawl::pending(&self.p) {
            Pending::Turn { seat } => seat,
            other => panic!("expected a turn, the game waits for {other:?}"),
        }
    }

    /// The seat to move makes `input`; panics with the reason if it is refused.
    pub fn play(&mut self, input: Input) -> Vec<hoard_rules::sprawl::Event> {
        let seat = self.turn();
        Sprawl::apply(&mut self.p, &mut [], &Step::turn(seat, input))
            .unwrap_or_else(|e| panic!("{input:?} refused: {e}"))
    }

    /// The seat to move tries `input`; the refusal's reason, or `None` if it was played.
    pub fn try_play(&mut self, input: Input) -> Option<String> {
        let seat = self.turn();
        Sprawl::apply(&mut self.p, &mut [], &Step::turn(seat, input))
            .err()
            .map(|e| e.to_string())
    }

    pub fn legal(&self) -> Vec<Input> {
        Sprawl::legal_inputs(&self.p, None, self.turn())
    }
}

pub fn place(at: &str, size: u8) -> Input {
    Input::Place { at: sq(at), size }
}

pub fn build(at: &str) -> Input {
    Input::Build { at: sq(at) }
}

pub fn branch(from: &str, at: &str, dir: Dir, size: u8) -> Input {
    Input::Branch {
        from: sq(from),
        at: sq(at),
        dir,
        size,
    }
}

pub fn spore(at: &str, size: u8) -> Input {
    Input::Spore {
        at: sq(at),
        size,
        builds: 0,
    }
}

/// A table in mid-game, every starting tower notionally placed and nothing on the board:
/// tests arrange the pieces they need with [`tower`] and [`lay`], then move.
pub fn arranged(config: Config) -> Public {
    let mut p = Sprawl::setup(&config).expect("a valid config");
    p.started = vec![true; usize::from(config.seats)];
    p.first = Some(0);
    p.phase = hoard_rules::sprawl::Phase::Turn { seat: 0 };
    p
}

/// Stands a tower at `at` for `owner`, pieces from the bottom, out of its stash.
pub fn tower(p: &mut Public, at: &str, owner: Seat, sizes: &[u8]) {
    for &size in sizes {
        p.board.raise(sq(at), owner, size);
        p.stashes[usize::from(owner)].counts[usize::from(size - 1)] -= 1;
    }
}

/// Lays a branch for `owner` out of its stash.
pub fn lay(p: &mut Public, owner: Seat, from: &str, at: &str, dir: Dir, size: u8) {
    p.board.lay(owner, sq(from), sq(at), dir, size);
    p.stashes[usize::from(owner)].counts[usize::from(size - 1)] -= 1;
}

/// Makes it `seat`'s turn.
pub fn turn_of(p: &mut Public, seat: Seat) {
    p.phase = hoard_rules::sprawl::Phase::Turn { seat };
}

/// `seat` makes `input` on the table as it stands; the refusal in words if refused.
pub fn try_move(
    p: &mut Public,
    seat: Seat,
    input: Input,
) -> Result<Vec<hoard_rules::sprawl::Event>, String> {
    Sprawl::apply(p, &mut [], &Step::turn(seat, input)).map_err(|e| e.to_string())
}

/// The legal moves of `seat` (its turn made first).
pub fn legal_for(p: &mut Public, seat: Seat) -> Vec<Input> {
    turn_of(p, seat);
    Sprawl::legal_inputs(p, None, seat)
}

/// Answers a step that waits on several seats at once (an "Are you sure?" offer).
pub fn answer(p: &mut Public, answers: &[(u8, Input)]) -> Vec<Event> {
    let step = Step::Inputs(answers.iter().map(|&(s, i)| (s, Play::Open(i))).collect());
    Sprawl::apply(p, &mut [], &step).unwrap()
}

/// Seat 0 (tower A3 of 3 and 2, a 2 at B3 pointing east) targets D3; seat 1's lone 3 at
/// D5 could branch to D4 and point north at D3; seat 2's 1 at A6 is far away.
pub fn coup_table() -> Public {
    let mut config = Config::new(3);
    config.counting_coup = true;
    let mut p = arranged(config);
    tower(&mut p, "A3", 0, &[3, 2]);
    lay(&mut p, 0, "A3", "B3", Dir::East, 2);
    tower(&mut p, "D5", 1, &[3]);
    tower(&mut p, "A6", 2, &[1]);
    p
}
