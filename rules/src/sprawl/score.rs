//! The end of a game of Sprawl: neutralized pieces go home, stashes are counted, coup
//! cards are subtracted, and the designer's tie-breaks pick the winner.

use std::cmp::Reverse;

use super::board::Cell;
use super::event::Event;
use super::state::{Phase, Public};
use crate::{Outcome, Seat};

/// What decides the winner, best first when sorted ascending.
type Rank = (
    i32,
    Reverse<u16>,
    Reverse<u16>,
    Reverse<u16>,
    Reverse<u16>,
    Reverse<u16>,
);

/// Ends the game: returns pieces, scores, and moves to `Over`.
pub(crate) fn finish(p: &mut Public) -> Vec<Event> {
    let n = usize::from(p.seats());
    let mut events = Vec::new();

    // "When the game ends, return all pieces in neutralized towers and branches attached
    // to neutralized towers to their player's stashes."
    let dead = p.board.neutralized_map(p.config.superior_forces);
    let mut returned = vec![0u16; n];
    for i in 0..p.board.cells.len() {
        let sq = p.board.square_at(i);
        let pieces: Vec<(Seat, u8)> = match p.board.cells[i] {
            Cell::Tower(t) if dead[i] => t.pieces().collect(),
            Cell::Branch(b) if dead[p.board.index(b.root)] => vec![(b.owner, b.size)],
            _ => continue,
        };
        for (owner, size) in pieces {
            p.stashes[usize::from(owner)].put(size);
            returned[usize::from(owner)] += u16::from(size);
        }
        p.board.clear(sq);
    }
    for (seat, &pips) in returned.iter().enumerate() {
        if pips > 0 {
            events.push(Event::Returned {
                seat: seat as Seat,
                pips,
            });
        }
    }

    // "Add up the points in your stash at the end of the game", less the coup cards.
    let scores: Vec<i32> = (0..n)
        .map(|s| {
            let cards: i32 = p
                .coup_cards
                .iter()
                .filter(|(owner, _)| usize::from(*owner) == s)
                .map(|(_, c)| c.worth())
                .sum();
            i32::from(p.stashes[s].pips()) - cards
        })
        .collect();

    // Ties: most pips neutralized, most towers neutralized, most spaces controlled, most
    // pips in towers controlled, most towers controlled.
    let mut spaces = vec![0u16; n];
    let mut tower_pips = vec![0u16; n];
    let mut towers = vec![0u16; n];
    for cell in &p.board.cells {
        match cell {
            Cell::Tower(t) => {
                let c = usize::from(t.controller());
                spaces[c] += 1;
                tower_pips[c] += u16::from(t.pips());
                towers[c] += 1;
            }
            Cell::Branch(b) => spaces[usize::from(b.owner)] += 1,
            Cell::Empty => {}
        }
    }
    let rank = |s: usize| -> Rank {
        (
            scores[s],
            Reverse(p.credit[s].pips),
            Reverse(p.credit[s].towers),
            Reverse(spaces[s]),
            Reverse(tower_pips[s]),
            Reverse(towers[s]),
        )
    };
    // A seat the table removed is scored but cannot win.
    let racing = || (0..n).filter(|s| !p.left.contains(&(*s as Seat)));
    let best = racing().map(rank).min();
    let winners: Vec<Seat> = racing()
        .filter(|&s| Some(rank(s)) == best)
        .map(|s| s as Seat)
        .collect();

    events.push(Event::Finished {
        scores: scores.clone(),
        winners: winners.clone(),
    });
    p.phase = Phase::Over(Outcome { winners, scores });
    events
}
