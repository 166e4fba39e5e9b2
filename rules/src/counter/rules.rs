//! What Counter's rules allow and what a move does to the table.

use super::state::{COPIES, Event, HAND_LIMIT, Input, Phase, Private, Public, number};
use crate::{CardId, Handle, Outcome, RuleError, Seat};

pub(super) fn next_seat(public: &Public, seat: Seat) -> Seat {
    (seat + 1) % public.config.seats
}

/// Copies of `number` face up: on the discard pile or laid in the exchange.
pub(super) fn seen(public: &Public, laid: &[(Seat, CardId)], n: u8) -> usize {
    let pile = public.discard.iter().filter(|c| number(**c) == n).count();
    pile + laid.iter().filter(|(_, c)| number(*c) == n).count()
}

/// Who may answer the last card laid: everyone but its player holding a card, unless every
/// copy of its number is already face up.
pub(super) fn answerers(public: &Public, laid: &[(Seat, CardId)]) -> Vec<Seat> {
    let Some(&(last, face)) = laid.last() else {
        return Vec::new();
    };
    if seen(public, laid, number(face)) >= usize::from(COPIES) {
        return Vec::new();
    }
    // In turn order after the card's player: the order answers are opened in, the first
    // that answers being the one taken.
    let seats = public.config.seats;
    (1..seats)
        .map(|k| (last + k) % seats)
        .filter(|s| !public.hands[usize::from(*s)].is_empty())
        .collect()
}

/// Ends the turn of `seat`: the game if a score reached the target or the turns ran
/// out, else the next seat's turn.
pub(super) fn end_turn(public: &mut Public, seat: Seat, events: &mut Vec<Event>) {
    let cfg = &public.config;
    let reached: Vec<Seat> = (0..cfg.seats)
        .filter(|s| public.scores[usize::from(*s)] >= cfg.target)
        .collect();
    let winners = if !reached.is_empty() {
        reached
    } else if public.turns >= cfg.turns {
        let best = public.scores.iter().copied().max().unwrap_or(0);
        (0..cfg.seats)
            .filter(|s| public.scores[usize::from(*s)] == best)
            .collect()
    } else {
        public.turns += 1;
        public.phase = Phase::Turn {
            seat: next_seat(public, seat),
        };
        return;
    };
    events.push(Event::Won {
        winners: winners.clone(),
    });
    public.phase = Phase::Over(Outcome {
        winners,
        scores: public.scores.clone(),
    });
}

/// `seat` is to draw `count`: a draw with no card anywhere to draw ends the turn.
pub(super) fn draw(public: &mut Public, seat: Seat, count: u8, events: &mut Vec<Event>) {
    let room = HAND_LIMIT.saturating_sub(public.hands[usize::from(seat)].len());
    let count = count.min(room as u8);
    if count == 0 || (public.deck.left() == 0 && public.discard.is_empty()) {
        end_turn(public, seat, events);
    } else {
        public.phase = Phase::Draw { seat, count };
    }
}

/// The window closed with no answer: the last card laid stands.
pub(super) fn settle(public: &mut Public, laid: &[(Seat, CardId)], events: &mut Vec<Event>) {
    let Some(&(seat, face)) = laid.last() else {
        return;
    };
    let points = if laid.len() == 1 {
        i32::from(number(face))
    } else {
        1
    };
    public.scores[usize::from(seat)] += points;
    events.push(Event::Stands { seat, face, points });
    public.discard.extend(laid.iter().map(|(_, c)| *c));
    let player = laid[0].0;
    end_turn(public, player, events);
}

/// Takes `card` from `seat`'s hand (and private side, where present).
pub(super) fn take_from_hand(
    public: &mut Public,
    privates: &mut [Option<Private>],
    seat: Seat,
    card: &Handle,
) {
    public.hands[usize::from(seat)].retain(|h| h != card);
    if let Some(Some(p)) = privates.get_mut(usize::from(seat)) {
        p.faces.remove(card);
    }
}

/// A shown card's claimed face against what its holder's private side knows.
pub(super) fn check_face(
    privates: &[Option<Private>],
    seat: Seat,
    card: &Handle,
    face: CardId,
) -> Result<(), RuleError> {
    match privates.get(usize::from(seat)) {
        Some(Some(p)) if p.face(card) != Some(face) => Err(RuleError::PrivateMismatch {
            seat,
            why: format!("it showed a card as {} that it does not hold as such", face),
        }),
        _ => Ok(()),
    }
}

pub(super) fn legal_inputs(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<Input> {
    let hand = match public.hands.get(usize::from(seat)) {
        Some(h) => h,
        None => return Vec::new(),
    };
    let face = |card: &Handle| private.and_then(|p| p.face(card));
    let mut out = Vec::new();
    match &public.phase {
        Phase::Turn { seat: s } if *s == seat => {
            for card in hand {
                if let Some(face) = face(card) {
                    out.push(Input::Play { card: *card, face });
                }
            }
            let can_draw = hand.len() < HAND_LIMIT
                && (public.deck.left() > 0 || !public.discard.is_empty());
            if can_draw {
                for card in hand {
                    for to in (0..public.config.seats).filter(|t| *t != seat) {
                        out.push(Input::Give { card: *card, to });
                    }
                }
                out.push(Input::Draw);
            }
            out.push(Input::Wait);
        }
        Phase::Window { laid, seats } if seats.contains(&seat) => {
            out.push(Input::Allow);
            let n = laid.last().map(|(_, c)| number(*c));
            for card in hand {
                if let Some(face) = face(card)
                    && Some(number(face)) == n
                {
                    out.push(Input::Counter { card: *card, face });
                }
            }
        }
        _ => {}
    }
    out
}
