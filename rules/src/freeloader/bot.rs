//! Freeloader's bot: plays what it can afford where it stands, most of all what completes
//! Food, Clothing and Shelter; puts favors where its hand is cheapest and fights for Best
//! Friends it should win; steals and trades toward what it lacks; keeps a Crash space over a
//! Best Friend when paying for a card costs one of them and the crash is its only Shelter.

use super::cards::CARDS;
use super::data::{Category, Special};
use super::state::{Friend, Held, Input, Phase, Private, Public, TradeKind};
use crate::{CardId, Seat, rng};
use rand_chacha::ChaCha8Rng;

pub fn choose(
    public: &Public,
    private: Option<&Private>,
    seat: Seat,
    rng: &mut ChaCha8Rng,
) -> Option<Input> {
    let legal = super::rules::legal_inputs(public, private, seat);
    if legal.is_empty() {
        return None;
    }
    let best = legal
        .iter()
        .max_by_key(|i| (value(public, private, seat, i), rng::below(rng, 4)))
        .cloned();
    best.or_else(|| legal.first().cloned())
}

/// Categories `seat` still lacks to qualify.
fn lacks(public: &Public, seat: Seat, cat: Category) -> bool {
    let crashing = public.houses.iter().any(|h| h.is_crashing(seat));
    if cat == Category::Shelter && crashing {
        return false;
    }
    !public.stuff[usize::from(seat)]
        .iter()
        .any(|c| CARDS[usize::from(*c)].category == cat)
}

/// How much a card is worth to `seat`: its points, and a lot more if it fills a category.
fn card_worth(public: &Public, seat: Seat, card: CardId) -> i32 {
    let c = &CARDS[usize::from(card)];
    let mut v = i32::from(c.points) * 3;
    if c.category != Category::FinerThings && lacks(public, seat, c.category) {
        v += 30;
    }
    if matches!(c.special, Special::Car | Special::ExtraDie) {
        v += 6;
    }
    v
}

fn hand(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<CardId> {
    public.hands[usize::from(seat)]
        .iter()
        .filter_map(|h| match h {
            Held::Open(c) => Some(*c),
            Held::Hidden(_) => private.and_then(|p| p.face(h)),
        })
        .collect()
}

/// A score for each legal input; the highest is played.
fn value(public: &Public, private: Option<&Private>, seat: Seat, input: &Input) -> i32 {
    let here = public.house_at(public.pawns[usize::from(seat)]);
    let my_hand = hand(public, private, seat);
    let friend_value = |house: u8, friend: &Friend| -> i32 {
        let h = &public.houses[usize::from(house)];
        match friend {
            Friend::Keep => 0,
            Friend::Take { .. } => 12,
            Friend::Challenge { slot } => {
                let mine = i32::from(h.favors[usize::from(seat)]) + 1;
                let theirs = h.best_friends[usize::from(*slot)]
                    .map_or(0, |d| i32::from(h.favors[usize::from(d)]));
                if mine > theirs + 1 { 8 } else { -10 }
            }
        }
    };
    match input {
        Input::PlayCard { face, friend, .. } => {
            let cost = public.cost(seat, *face).max(0);
            100 + card_worth(public, seat, *face) - cost * 4 + friend_value(here, friend)
        }
        Input::Surprise { face, friend, .. } => {
            let Special::Surprise { house, favors } = CARDS[usize::from(*face)].special else {
                return 0;
            };
            let place = public.place_of(house);
            20 + i32::from(favors) * 4 - card_worth(public, seat, *face) / 2
                + friend_value(place, friend)
        }
        Input::Dwi { to, .. } => {
            let cars = public.stuff[usize::from(*to)]
                .iter()
                .filter(|c| CARDS[usize::from(**c)].special == Special::Car)
                .count() as i32;
            if cars > 0 { 60 } else { -50 }
        }
        Input::Favor { house, friend } => {
            // Favors where the pawn stands bring a card in hand within reach.
            let have = i32::from(public.houses[usize::from(*house)].favors[usize::from(seat)]);
            let near = *house == here && my_hand.iter().any(|c| public.cost(seat, *c) == have + 1);
            let short = if *house == here { 15 } else { 0 };
            30 + short + if near { 30 } else { 0 } + friend_value(*house, friend)
        }
        Input::Draw { face_up } => {
            let base = if my_hand.len() < 4 { 55 } else { 20 };
            match (face_up, public.houses[usize::from(here)].face_up) {
                (true, Some(c)) => base + card_worth(public, seat, c) / 3,
                _ => base + 5,
            }
        }
        Input::Move { dice } => {
            // Move on when nothing in hand is nearly affordable here.
            let have = i32::from(public.houses[usize::from(here)].favors[usize::from(seat)]);
            let stuck = !my_hand.iter().any(|c| public.cost(seat, *c) <= have + 2);
            (if stuck { 50 } else { 10 }) + i32::from(*dice)
        }
        Input::Crash { friend, .. } => 70 + friend_value(here, friend),
        Input::Steal { card, .. } => 60 + card_worth(public, seat, *card),
        Input::TradeBoard { house, face, .. } => {
            let took = public.houses[usize::from(*house)]
                .face_up
                .map_or(0, |c| card_worth(public, seat, c));
            took - card_worth(public, seat, *face)
        }
        Input::Trade { kind, with } => match kind {
            // A look at what they hold, and a card we need less gone.
            TradeKind::Hand => 20 + public.hands[usize::from(*with)].len() as i32,
            TradeKind::Stuff => -20,
        },
        // Give away the card worth least to us.
        Input::Give { card } => {
            100 - private
                .and_then(|p| p.face(card))
                .map_or(0, |face| card_worth(public, seat, face))
        }
        Input::Skip => 0,
        Input::GiveUp => {
            if let Phase::Challenge {
                seat: challenger,
                house,
                ..
            } = &public.phase
            {
                let h = &public.houses[usize::from(*house)];
                let (mine, theirs) = (
                    h.favors[usize::from(seat)],
                    h.favors[usize::from(*challenger)],
                );
                if mine >= theirs { 0 } else { 10 }
            } else {
                0
            }
        }
        Input::Fight => 5,
        Input::PlayCardPaying { face, paying, .. } => {
            let cost = public.cost(seat, *face).max(0);
            // Offered only where one of a Crash space and the Best Friend space must go:
            // keep the Crash space when it is the only Shelter, the Best Friend otherwise.
            let sheltered = CARDS[usize::from(*face)].category == Category::Shelter
                || public.stuff[usize::from(seat)]
                    .iter()
                    .any(|c| CARDS[usize::from(*c)].category == Category::Shelter)
                || public
                    .houses
                    .iter()
                    .enumerate()
                    .any(|(i, h)| i != usize::from(here) && h.is_crashing(seat));
            let keeps_crash = !paying.crash;
            100 + card_worth(public, seat, *face) - cost * 4
                + if keeps_crash && !sheltered { 5 } else { -5 }
        }
    }
}
