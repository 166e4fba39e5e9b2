//! Counter's bot: plays what it cannot lose, counters what is worth stopping, and keeps a
//! hand to answer with.

use super::rules::{self, seen};
use super::state::{COPIES, HAND_LIMIT, Input, Phase, Private, Public, number};
use crate::{Seat, rng};
use rand_chacha::ChaCha8Rng;

pub(super) fn choose(
    public: &Public,
    private: Option<&Private>,
    seat: Seat,
    rng: &mut ChaCha8Rng,
) -> Option<Input> {
    let legal = rules::legal_inputs(public, private, seat);
    match &public.phase {
        Phase::Window { laid, .. } => {
            // Stop a play worth 3 or more, and any counter against this seat's own card.
            let last = laid.last().map(|(_, c)| number(*c)).unwrap_or(0);
            let mine = laid.iter().any(|(s, _)| *s == seat);
            let counter = legal
                .iter()
                .find(|i| matches!(i, Input::Counter { .. }))
                .copied();
            match counter {
                Some(c) if mine || last >= 3 || rng::below(rng, 3) == 0 => Some(c),
                _ => Some(Input::Allow),
            }
        }
        Phase::Turn { .. } => {
            let hand = &public.hands[usize::from(seat)];
            let plays: Vec<Input> = legal
                .iter()
                .filter(|i| matches!(i, Input::Play { .. }))
                .copied()
                .collect();
            // A card nobody can counter (every other copy is face up) is a sure score.
            let safe = plays.iter().copied().find(|i| match i {
                Input::Play { face, .. } => {
                    seen(public, &[], number(*face)) + 1 >= usize::from(COPIES)
                }
                _ => false,
            });
            if let Some(play) = safe {
                return Some(play);
            }
            let best = plays.iter().copied().max_by_key(|i| match i {
                Input::Play { face, .. } => number(*face),
                _ => 0,
            });
            let can_draw = legal.contains(&Input::Draw);
            if hand.len() < 2 && can_draw {
                return Some(Input::Draw);
            }
            if hand.len() + 1 < HAND_LIMIT && can_draw && rng::below(rng, 5) == 0 {
                // Now and then give away the lowest card to the seat furthest behind, for
                // two new ones.
                let low = plays.iter().copied().min_by_key(|i| match i {
                    Input::Play { face, .. } => number(*face),
                    _ => u8::MAX,
                });
                let behind = (0..public.config.seats)
                    .filter(|s| *s != seat)
                    .min_by_key(|s| public.scores[usize::from(*s)]);
                if let (Some(Input::Play { card, .. }), Some(to)) = (low, behind) {
                    return Some(Input::Give { card, to });
                }
            }
            best.or(if can_draw { Some(Input::Draw) } else { None })
                .or(Some(Input::Wait))
        }
        _ => None,
    }
}
