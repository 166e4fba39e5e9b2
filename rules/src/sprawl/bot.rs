//! Sprawl's bots: a random-legal player (the yardstick) and a greedy one that looks one
//! move ahead, valuing its live pieces against the others', its towers left open to a
//! one-branch neutralization, the openings it makes against others, and room to grow.

use rand_chacha::ChaCha8Rng;

use super::coup;
use super::board::{Cell, Square};
use super::rules::{View, perform};
use super::state::{Credit, Input, Phase, Public, Stash};
use crate::{Seat, rng};

/// How a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// Any legal move, uniformly at random.
    Random,
    /// The best move by a one-move look-ahead; answers "Are you sure?" whenever it can
    /// and takes a threatened spore back whenever that is allowed.
    Greedy,
}

/// A move for `seat` now, or `None` if it has nothing to decide.
pub fn choose(
    public: &Public,
    seat: Seat,
    strength: Strength,
    rng: &mut ChaCha8Rng,
) -> Option<Input> {
    let legal = coup::legal_inputs(public, seat);
    if legal.is_empty() {
        return None;
    }
    let pick = |rng: &mut ChaCha8Rng, options: &[Input]| {
        let i = rng::below(rng, options.len() as u32) as usize;
        options[i]
    };
    match strength {
        Strength::Random => Some(pick(rng, &legal)),
        Strength::Greedy => match public.phase {
            Phase::Offer { .. } => Some(Input::Ask),
            Phase::Decide { .. } => Some(if legal.contains(&Input::TakeBack) {
                Input::TakeBack
            } else {
                Input::Keep
            }),
            _ => {
                let best = best_moves(public, seat, &legal);
                Some(pick(rng, &best))
            }
        },
    }
}

/// The moves with the highest value after they are made.
fn best_moves(public: &Public, seat: Seat, legal: &[Input]) -> Vec<Input> {
    let mut scratch = public.clone();
    let s = usize::from(seat);
    let mut best = Vec::new();
    let mut best_value = i32::MIN;
    for input in legal {
        let at = touched(input);
        let saved = Saved {
            cell: at.map(|sq| scratch.board.cell(sq)),
            stash: scratch.stashes[s],
            started: scratch.started[s],
            credit: scratch.credit[s],
        };
        perform(&mut scratch, seat, input);
        let value = evaluate(&scratch, seat);
        if let (Some(sq), Some(cell)) = (at, saved.cell) {
            let i = scratch.board.index(sq);
            scratch.board.cells[i] = cell;
        }
        scratch.stashes[s] = saved.stash;
        scratch.started[s] = saved.started;
        scratch.credit[s] = saved.credit;
        if value > best_value {
            best_value = value;
            best.clear();
        }
        if value == best_value {
            best.push(*input);
        }
    }
    best
}

/// What a move changes, so it can be undone cheaply.
struct Saved {
    cell: Option<Cell>,
    stash: Stash,
    started: bool,
    credit: Credit,
}

/// The one square a turn move changes.
fn touched(input: &Input) -> Option<Square> {
    match *input {
        Input::Place { at, .. }
        | Input::Build { at }
        | Input::Branch { at, .. }
        | Input::Spore { at, .. } => Some(at),
        _ => None,
    }
}

/// How good the position is for `me`, in tenths of a pip or so.
fn evaluate(p: &Public, me: Seat) -> i32 {
    let view = View::new(p);
    let board = &p.board;
    let n = usize::from(p.seats());
    let m = usize::from(me);

    // Live pips by seat; and by tower, the pips of `me` standing on it or growing from it.
    let mut live = vec![0i32; n];
    let mut mine_at = vec![0i32; board.cells.len()];
    for (i, cell) in board.cells.iter().enumerate() {
        match cell {
            Cell::Tower(t) if !view.dead[i] => {
                for (owner, size) in t.pieces() {
                    live[usize::from(owner)] += i32::from(size);
                    if owner == me {
                        mine_at[i] += i32::from(size);
                    }
                }
            }
            Cell::Branch(b) => {
                let root = board.index(b.root);
                if !view.dead[root] {
                    live[usize::from(b.owner)] += i32::from(b.size);
                    if b.owner == me {
                        mine_at[root] += i32::from(b.size);
                    }
                }
            }
            _ => {}
        }
    }

    // Live towers that one branch could neutralize next turn.
    let mut risk = 0;
    let mut chances = 0;
    for (i, cell) in board.cells.iter().enumerate() {
        let Cell::Tower(t) = cell else { continue };
        if view.dead[i] {
            continue;
        }
        let at = board.square_at(i);
        if t.controller() == me {
            let open = (0..p.seats())
                .filter(|&o| o != me)
                .any(|o| view.can_neutralize(o, at, t));
            if open {
                risk += mine_at[i];
            }
        } else if view.can_neutralize(me, at, t) {
            chances += i32::from(t.pips());
        }
    }

    let others: Vec<i32> = (0..n).filter(|&s| s != m).map(|s| live[s]).collect();
    let strongest = others.iter().copied().max().unwrap_or(0);
    let average = others.iter().sum::<i32>() / others.len().max(1) as i32;
    let room = view.count_turn_moves(me).min(40) as i32;

    12 * live[m] - 6 * strongest - 6 * average - 9 * risk + 3 * chances + room
}
