//! Spree!'s bot: parks near its hand, shops on the way, robs rich carts it passes, heads for
//! its car once the cart is worth it, shoots when a hit is likely and pays, and spends an
//! Ace when its own loot or its own skin is at stake, or the leader is about to win.

use super::board::{Sq, board};
use super::cards::{self, JOKER};
use super::rules::{hit_sixths, legal_inputs, reachable, shot_targets};
use super::state::{Contest, Input, Phase, Private, Public, Turn};
use crate::{CardId, Handle, Seat, rng};
use rand_chacha::ChaCha8Rng;

/// The bot's choice for `seat` now, always one of the legal inputs.
pub fn choose(
    public: &Public,
    private: Option<&Private>,
    seat: Seat,
    rng: &mut ChaCha8Rng,
) -> Option<Input> {
    let legal = legal_inputs(public, private, seat);
    if legal.is_empty() {
        return None;
    }
    let choice = match &public.phase {
        Phase::Parking { .. } => park(public, private, seat, &legal),
        Phase::Window {
            contest,
            aces,
            ..
        } => answer(public, seat, contest, aces, &legal, rng),
        Phase::Act(turn) => act(public, private, turn, &legal),
        _ => None,
    };
    choice
        .filter(|c| legal.contains(c) || super::rules::check_input(public, seat, c).is_ok())
        .or_else(|| {
            legal
                .iter()
                .find(|i| matches!(i, Input::EndTurn | Input::Pass))
                .cloned()
        })
        .or_else(|| legal.first().cloned())
}

/// The faces of the cards `seat` holds (none without its private side).
fn held(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<(Handle, CardId)> {
    public.hands[usize::from(seat)]
        .iter()
        .filter_map(|h| private.and_then(|p| p.face(h)).map(|f| (*h, f)))
        .collect()
}

fn cart_value(public: &Public, seat: Seat) -> i32 {
    public.carts[usize::from(seat)]
        .iter()
        .map(|c| cards::points(*c))
        .sum()
}

/// The shops that sell the cards in hand, each with the card's worth.
fn wanted(hand: &[(Handle, CardId)]) -> Vec<(Sq, i32)> {
    hand.iter()
        .filter_map(|(_, c)| cards::face(*c).map(|f| (f, cards::points(*c))))
        .flat_map(|(f, p)| board().shops_of(f).into_iter().map(move |s| (s, p)))
        .collect()
}

/// Parks where the hand's shops are nearest.
fn park(public: &Public, private: Option<&Private>, seat: Seat, legal: &[Input]) -> Option<Input> {
    let shops = wanted(&held(public, private, seat));
    legal
        .iter()
        .min_by_key(|i| match i {
            Input::Park { space } => shops
                .iter()
                .map(|(s, _)| u32::from(board().distance(*space, *s)))
                .sum::<u32>(),
            _ => u32::MAX,
        })
        .cloned()
}

/// Whether an Ace is worth spending on the play in the window.
fn answer(
    public: &Public,
    seat: Seat,
    contest: &Contest,
    aces: &[(Seat, CardId)],
    legal: &[Input],
    rng: &mut ChaCha8Rng,
) -> Option<Input> {
    let mut stops: Vec<&Input> = legal
        .iter()
        .filter(|i| matches!(i, Input::Ace { .. }))
        .collect();
    // Spend a Joker only when no Ace will do.
    stops.sort_by_key(|i| matches!(i, Input::Ace { face, .. } if cards::is_joker(*face)));
    let stop = stops.first().map(|i| (*i).clone());
    let Some(stop) = stop else {
        return Some(Input::Pass);
    };
    // An odd chain stops the play: whom does the play, as it stands, hurt or help?
    let play_stands = aces.len().is_multiple_of(2);
    let mine = contest.seat() == seat;
    let against_me = match contest {
        Contest::Rob { victim, .. } => *victim == seat,
        Contest::Shot { target, .. } => *target == seat,
        _ => false,
    };
    let worth = match contest {
        Contest::Shop { cards, .. } => cards.iter().map(|c| cards::points(*c)).sum(),
        Contest::Rob { victim, rank, .. } => public.carts[usize::from(*victim)]
            .iter()
            .filter(|c| cards::rank(**c) == *rank)
            .map(|c| cards::points(*c))
            .sum(),
        Contest::MoveCard { .. } => 5,
        Contest::Shot { target, .. } => 10 + cart_value(public, *target),
    };
    let leader = {
        let p = contest.seat();
        let total = public.scores[usize::from(p)] + cart_value(public, p);
        total * 4 >= public.config.target * 3
    };
    let want_stopped = if mine {
        // Someone stopped my play: stop their Ace if it mattered.
        !play_stands && worth >= 8
    } else if against_me {
        play_stands && worth >= 6
    } else {
        play_stands && leader && worth >= 10 && rng::below(rng, 2) == 0
    };
    Some(if want_stopped { stop } else { Input::Pass })
}

/// Where to walk: the reachable square whose path buys the most, robs the richest cart, or
/// brings a full cart home, and that leaves the shopper nearest what is still wanted.
pub fn plan_walk(
    public: &Public,
    private: Option<&Private>,
    turn: &Turn,
) -> Option<Vec<Sq>> {
    let seat = turn.seat;
    let me = &public.pawns[usize::from(seat)];
    let hand = held(public, private, seat);
    let shops = wanted(&hand);
    let cart = cart_value(public, seat);
    let car = me.car?;
    let needed = public.config.target - public.scores[usize::from(seat)];
    let go_home = cart >= 25 || (cart > 0 && cart >= needed);
    let b = board();
    let mut best: Option<(i32, Vec<Sq>)> = None;
    for (_, path) in reachable(public, turn) {
        let mut value = 0;
        let mut cut = path.len();
        for (k, at) in path.iter().enumerate() {
            if !turn.visited.contains(at) {
                value += shops
                    .iter()
                    .filter(|(s, _)| s == at)
                    .map(|(_, p)| p * 3)
                    .sum::<i32>();
            }
            let loot = rob_value(public, seat, &hand, *at);
            if loot >= 8 && cut == path.len() {
                value += loot * 3;
                cut = k + 1;
            }
            if go_home && *at == car && cut == path.len() {
                value += 100 + cart * 2;
                cut = k + 1;
            }
        }
        let end = path[cut - 1];
        // Closer to the nearest card still to buy, and (with loot aboard) to the car.
        let nearest = shops
            .iter()
            .filter(|(s, _)| !path[..cut].contains(s) && !turn.visited.contains(s))
            .map(|(s, _)| i32::from(b.distance(end, *s)))
            .min()
            .unwrap_or(0);
        value -= nearest;
        if cart > 0 {
            value -= i32::from(b.distance(end, car)) * cart / 15;
        }
        if best.as_ref().is_none_or(|(v, _)| value > *v) {
            best = Some((value, path[..cut].to_vec()));
        }
    }
    best.filter(|(v, _)| *v > -1000).map(|(_, p)| p)
}

/// Points a steal on `at` would take with the cards in hand (the best one).
fn rob_value(public: &Public, seat: Seat, hand: &[(Handle, CardId)], at: Sq) -> i32 {
    let mut best = 0;
    for (v, pawn) in public.pawns.iter().enumerate() {
        if v == usize::from(seat) || pawn.shopper != at || pawn.in_car {
            continue;
        }
        for (_, c) in hand {
            let loot: i32 = public.carts[v]
                .iter()
                .filter(|x| cards::rank(**x) == cards::rank(*c) && !cards::is_joker(*c))
                .map(|x| cards::points(*x))
                .sum();
            best = best.max(loot);
        }
    }
    best
}

fn act(public: &Public, private: Option<&Private>, turn: &Turn, legal: &[Input]) -> Option<Input> {
    let seat = turn.seat;
    let cart = cart_value(public, seat);
    if legal.contains(&Input::Score) && cart > 0 && !turn.driving {
        return Some(Input::Score);
    }
    // Buy everything the visited shops sell, pairs first.
    let mut shops: Vec<&Input> = legal
        .iter()
        .filter(|i| match i {
            Input::Shop { cards } => cards.iter().all(|(_, f)| !cards::is_joker(*f)),
            _ => false,
        })
        .collect();
    shops.sort_by_key(|i| match i {
        Input::Shop { cards } => std::cmp::Reverse(cards.len()),
        _ => std::cmp::Reverse(0),
    });
    if let Some(shop) = shops.first() {
        return Some((*shop).clone());
    }
    // Rob what is worth more than the card it costs.
    let robs = legal.iter().filter_map(|i| match i {
        Input::Rob {
            victim, face, rank, ..
        } => {
            let loot: i32 = public.carts[usize::from(*victim)]
                .iter()
                .filter(|c| cards::rank(**c) == *rank)
                .map(|c| cards::points(*c))
                .sum();
            let cost = if cards::is_joker(*face) { 20 } else { cards::points(*face) / 2 };
            (loot > cost).then_some((loot - cost, i))
        }
        _ => None,
    });
    if let Some((_, rob)) = robs.max_by_key(|(gain, _)| *gain) {
        return Some(rob.clone());
    }
    if legal.contains(&Input::Roll) {
        return Some(Input::Roll);
    }
    if turn.left > 0
        && let Some(path) = plan_walk(public, private, turn)
    {
        let walk = Input::Walk { path };
        if super::rules::check_input(public, seat, &walk).is_ok() {
            return Some(walk);
        }
    }
    if let Some(shot) = shot_worth_it(public, seat, legal) {
        return Some(shot);
    }
    if turn.left == 0
        && let Some(card) = move_card_worth_it(public, private, turn, legal)
    {
        return Some(card);
    }
    Some(Input::EndTurn)
}

/// A shot at the richest target likely to be hit.
fn shot_worth_it(public: &Public, seat: Seat, legal: &[Input]) -> Option<Input> {
    shot_targets(public, seat)
        .into_iter()
        .filter(|(t, _, _)| legal.contains(&Input::Shoot { target: *t }))
        .filter_map(|(t, _, d)| {
            let chances = i32::from(hit_sixths(public, d));
            let loot = cart_value(public, t);
            (chances >= 3 && loot >= 12).then_some((loot * chances, t))
        })
        .max_by_key(|(v, _)| *v)
        .map(|(_, target)| Input::Shoot { target })
}

/// A 2 to clear hand space and get on, or a 10 to bring a rich cart home.
fn move_card_worth_it(
    public: &Public,
    private: Option<&Private>,
    turn: &Turn,
    legal: &[Input],
) -> Option<Input> {
    let seat = turn.seat;
    let me = &public.pawns[usize::from(seat)];
    let cart = cart_value(public, seat);
    let far_from_car = me.car.is_some_and(|c| board().distance(me.shopper, c) > 0);
    let hand = held(public, private, seat);
    let unbought = wanted(&hand)
        .iter()
        .any(|(s, _)| !turn.visited.contains(s));
    legal
        .iter()
        .find(|i| match i {
            Input::MoveCard { face, steps, .. } => match cards::rank(*face) {
                2 => *steps == 2 && unbought,
                10 => *steps == 10 && cart >= 30 && far_from_car,
                JOKER => false,
                _ => false,
            },
            _ => false,
        })
        .cloned()
}
