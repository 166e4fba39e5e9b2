//! Counting Coup: who may ask "Are you sure?" after a spore, taking a spore back, and
//! dealing the face-down cards from a poker deck shuffled by the beacon at the end.
//!
//! Nobody looks at a coup card before the end, so no hidden deck is needed: the deck is
//! shuffled by a beacon draw made only when the game is over, and the cards are dealt
//! in the order they were earned.

use super::event::Event;
use super::rules::View;
use super::state::{Card, Input, Phase, Public, SporeMade};
use crate::{Seat, rng};

/// A poker deck has 52 cards; once all are earned no more offers are made.
pub const DECK_SIZE: usize = 52;

/// The seats other than `spore`'s owner that could neutralize the new tower with a
/// branch on their next turn, ascending.
pub(crate) fn could_neutralize(p: &Public, sporer: Seat, spore: &SporeMade) -> Vec<Seat> {
    let Some(tower) = p.board.tower(spore.at) else {
        return Vec::new();
    };
    let view = View::new(p);
    (0..p.seats())
        .filter(|&o| o != sporer && p.started[usize::from(o)] && !p.left.contains(&o))
        .filter(|&o| view.can_neutralize(o, spore.at, &tower))
        .collect()
}

/// The spore as an input, as it would be made again.
pub(crate) fn as_input(spore: &SporeMade) -> Input {
    Input::Spore {
        at: spore.at,
        size: spore.size,
        builds: spore.builds,
    }
}

/// Lifts the spore off the board and puts its pieces back in the stash.
pub(crate) fn undo(p: &mut Public, sporer: Seat, spore: &SporeMade) {
    p.board.clear(spore.at);
    for k in 0..=spore.builds {
        p.stashes[usize::from(sporer)].put(spore.size - k);
    }
}

/// Whether the sporer would still have a move if the spore were taken back: it "may take
/// back the move and make a different move", so with no other move there is nothing to
/// take back for.
pub(crate) fn can_take_back(p: &Public, sporer: Seat, spore: &SporeMade) -> bool {
    let mut after = p.clone();
    undo(&mut after, sporer, spore);
    after.taken_back.push(as_input(spore));
    View::new(&after).has_turn_move(sporer)
}

/// After `sporer`'s spore: the offer step, if anyone could neutralize it and it could be
/// taken back; `None` to carry on with the next turn.
pub(crate) fn offer_after_spore(p: &Public, sporer: Seat, spore: SporeMade) -> Option<Phase> {
    if !p.config.counting_coup || p.coup_owed.len() >= DECK_SIZE {
        return None;
    }
    let seats = could_neutralize(p, sporer, &spore);
    if seats.is_empty() || !can_take_back(p, sporer, &spore) {
        return None;
    }
    Some(Phase::Offer {
        sporer,
        spore,
        seats,
    })
}

/// Of the seats that asked, the one who earns the card if the spore is taken back: the
/// first after the sporer in turn order, whose next turn comes soonest.
pub(crate) fn first_asker(seats: u8, sporer: Seat, askers: &[Seat]) -> Option<Seat> {
    (1..seats)
        .map(|k| (sporer + k) % seats)
        .find(|s| askers.contains(s))
}

/// Shuffles the deck with the beacon draw and deals one card per coup earned, in order.
pub(crate) fn deal(p: &mut Public, draw: &[u8; 32]) -> Event {
    let mut deck = Card::deck();
    rng::shuffle(&mut rng::from_seed(draw, "coup deck"), &mut deck);
    p.coup_cards = p.coup_owed.iter().copied().zip(deck).collect();
    Event::CardsDealt {
        cards: p.coup_cards.clone(),
    }
}

/// Every input the rules allow `seat` now: its turn's moves, or its answers to Counting
/// Coup's question.
pub(crate) fn legal_inputs(public: &Public, seat: Seat) -> Vec<Input> {
    match &public.phase {
        Phase::Turn { seat: s } if *s == seat => View::new(public).turn_moves(seat),
        Phase::Offer { seats, .. } if seats.contains(&seat) => vec![Input::Ask, Input::Pass],
        Phase::Decide { sporer, spore, .. } if *sporer == seat => {
            if can_take_back(public, seat, spore) {
                vec![Input::TakeBack, Input::Keep]
            } else {
                vec![Input::Keep]
            }
        }
        _ => Vec::new(),
    }
}
