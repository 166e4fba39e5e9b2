//! The choices the rules offer this seat, as buttons: each legal input with words a player
//! understands, narrowed by what was tapped (a house for a favor, a card of the hand).

use super::words;
use crate::net::GameView;
use hoard_rules::Seat;
use hoard_rules::freeloader::{Held, Input, Phase, Private, Public, TradeKind};

/// One button of the moves.
pub struct Offer {
    pub label: String,
    pub input: Input,
    pub primary: bool,
}

/// The ring houses the legal favors go to.
pub fn favor_houses(legal: &[Input]) -> Vec<u8> {
    let mut out: Vec<u8> = legal
        .iter()
        .filter_map(|i| match i {
            Input::Favor { house, .. } => Some(*house),
            _ => None,
        })
        .collect();
    out.dedup();
    out.sort_unstable();
    out.dedup();
    out
}

/// The card a move plays from hand, for the moves offered only once a card is tapped.
fn hand_card(input: &Input) -> Option<Held> {
    match input {
        Input::PlayCard { card, .. }
        | Input::PlayCardPaying { card, .. }
        | Input::Surprise { card, .. }
        | Input::TradeBoard { card, .. } => Some(*card),
        _ => None,
    }
}

/// Cards of my hand that some move plays (they are lit, and tapping one offers its moves).
pub fn playable(legal: &[Input]) -> Vec<Held> {
    legal.iter().filter_map(hand_card).collect()
}

/// What `me` may do now, as buttons (`private` names the cards of a hidden hand).
pub fn offered(
    view: &GameView,
    public: &Public,
    private: Option<&Private>,
    me: Seat,
    legal: &[Input],
    house: Option<u8>,
    card: Option<Held>,
) -> Vec<Offer> {
    let houses = favor_houses(legal);
    let favor_at = house
        .filter(|h| houses.contains(h))
        .or(match houses.as_slice() {
            [one] => Some(*one),
            _ => None,
        });
    let trading = matches!(
        public.phase,
        Phase::TradeGive { .. } | Phase::TradeBack { .. }
    );
    let mut out: Vec<Offer> = Vec::new();
    for input in legal {
        if let Some(c) = hand_card(input)
            && Some(c) != card
        {
            continue;
        }
        let label = match input {
            Input::Move { dice: 1 } => "Move 1 die".to_string(),
            Input::Move { dice } => format!("Move {dice} dice"),
            Input::Draw { face_up: false } => "Draw a card".into(),
            Input::Draw { face_up: true } => {
                let here = public
                    .pawns
                    .get(usize::from(me))
                    .and_then(|p| words::house_in(public, public.house_at(*p)))
                    .and_then(|h| h.face_up);
                words::take(here.map_or("face-up card", words::card_name))
            }
            Input::Favor { house, friend } => {
                if Some(*house) != favor_at {
                    continue;
                }
                format!(
                    "Place a favor{}",
                    words::friend_suffix(view, public, *house, *friend)
                )
            }
            Input::PlayCard { face, friend, .. } => {
                let cost = super::cost(public, me, *face).unwrap_or(0);
                let here = public
                    .pawns
                    .get(usize::from(me))
                    .map_or(0, |p| public.house_at(*p));
                // Where the favors left keep only one special space, the plain play keeps
                // the Best Friend, and another button the Crash space.
                let choice = legal
                    .iter()
                    .any(|i| matches!(i, Input::PlayCardPaying { card: c, .. } if Some(*c) == card));
                if cost < 0 {
                    format!(
                        "Play it (+{}){}",
                        words::favors(-cost),
                        words::friend_suffix(view, public, here, *friend)
                    )
                } else if choice {
                    format!("Play it ({}), keep Best Friend", words::favors(cost))
                } else {
                    format!("Play it ({})", words::favors(cost))
                }
            }
            Input::PlayCardPaying { face, paying, .. } => {
                let cost = super::cost(public, me, *face).unwrap_or(0);
                let kept = match (paying.crash, paying.best_friend) {
                    (false, true) => ", keep your Crash space",
                    (true, false) => ", keep Best Friend",
                    (false, false) => "",
                    (true, true) => ", giving up both spaces",
                };
                format!("Play it ({}){kept}", words::favors(cost.max(0)))
            }
            Input::Surprise { face, friend, .. } => {
                let (at, n) = match words::card(*face).map(|c| c.special) {
                    Some(hoard_rules::freeloader::data::Special::Surprise { house, favors }) => {
                        (public.place_of(house), favors)
                    }
                    _ => (0, 0),
                };
                format!(
                    "Surprise! +{} at {}{}",
                    n,
                    words::at_place(public, at),
                    words::friend_suffix(view, public, at, *friend)
                )
            }
            Input::TradeBoard { house, .. } => {
                let theirs = words::house_in(public, *house).and_then(|h| h.face_up);
                format!(
                    "Swap for the {} ({})",
                    theirs.map_or("card", words::card_name),
                    words::at_place(public, *house)
                )
            }
            Input::Dwi { card, to } => format!(
                "DWI: {} to {}",
                words::card_name(*card),
                words::seat_name(view, *to)
            ),
            Input::Crash {
                evict: None,
                friend,
            } => {
                let here = public
                    .pawns
                    .get(usize::from(me))
                    .map_or(0, |p| public.house_at(*p));
                format!(
                    "Crash here{}",
                    words::friend_suffix(view, public, here, *friend)
                )
            }
            Input::Crash { evict: Some(v), .. } => {
                format!("Crash, evicting {}", words::seat_name(view, *v))
            }
            Input::Trade {
                with,
                kind: TradeKind::Hand,
            } => {
                format!("Trade hands with {}", words::seat_name(view, *with))
            }
            Input::Trade {
                with,
                kind: TradeKind::Stuff,
            } => {
                format!("Trade Stuff with {}", words::seat_name(view, *with))
            }
            Input::Steal { from, card } => format!(
                "Steal {} from {}",
                words::card_name(*card),
                words::seat_name(view, *from)
            ),
            Input::Give { card } => match private.and_then(|p| p.face(card)) {
                Some(face) => format!("Give {}", words::card_name(face)),
                None => "Give a card".into(),
            },
            Input::Skip if trading => "Give nothing".into(),
            Input::Skip => "Skip".into(),
            Input::GiveUp => "Give up".into(),
            Input::Fight => "Fight".into(),
        };
        // Two open Best Friend spaces (the Waitress's) are one choice to the player.
        if out.iter().any(|o| o.label == label) {
            continue;
        }
        let primary = matches!(input, Input::PlayCard { .. });
        out.push(Offer {
            label,
            input: input.clone(),
            primary,
        });
    }
    // Passing on a space comes last.
    out.sort_by_key(|o| matches!(o.input, Input::Skip));
    out
}
