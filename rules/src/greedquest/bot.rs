//! GreedQuest's bot: a legal, sensible input for a seat from what that seat may know (the
//! public table and its own private side).
//!
//! Cards are chosen by a rough estimate of the rooms each would gain this turn (a high Go!
//! when it is likely to win, Secret Door and See Ya! where they work, Tracking and Even
//! Chance when the others are ahead, Curse!, Dragon Sighting and Dragon ATTACK!! kept for
//! when a rival nears the Tavern). Choices made with every card face up (Go WILD!'s value,
//! who changes places, whom to track) are found by playing each option forward on a copy of
//! the public table and keeping the one that leaves the seat best placed.

use super::cards::Card;
use super::rules::{self, awaited, behind, legal_inputs};
use super::rooms::{Special, effects};
use super::state::{Facing, Input, Length, Private, Public, SeatSet, Stage};
use crate::{Play, Seat, Step, rng};
use rand_chacha::ChaCha8Rng;

pub(crate) fn bot_input(
    p: &Public,
    private: Option<&Private>,
    seat: Seat,
    rng: &mut ChaCha8Rng,
) -> Option<Input> {
    let options = legal_inputs(p, private, seat);
    if options.len() <= 1 {
        return options.first().copied();
    }
    match (p.stage, private) {
        (Stage::Play { seats }, Some(private)) => Some(choose_card(p, private, seat, seats, rng)),
        (Stage::Duel { .. }, Some(private)) => duel_card(private),
        (Stage::LastParty { .. }, Some(private)) => {
            let keep = private.drawn.is_none_or(|card| worth_keeping(p, card));
            Some(if keep {
                Input::KeepDrawn
            } else {
                Input::DiscardDrawn
            })
        }
        (Stage::Wild { .. } | Stage::Pick { .. } | Stage::Track { .. }, _) => {
            look_ahead(p, seat, &options)
        }
        _ => options
            .get(rng::below(rng, options.len() as u32) as usize)
            .copied(),
    }
}

/// A uniformly random legal input: the baseline the bot is measured against.
pub fn random_input(
    p: &Public,
    private: Option<&Private>,
    seat: Seat,
    rng: &mut ChaCha8Rng,
) -> Option<Input> {
    let options = legal_inputs(p, private, seat);
    if options.is_empty() {
        return None;
    }
    options
        .get(rng::below(rng, options.len() as u32) as usize)
        .copied()
}

/// How well placed `seat` is: its own progress, against the best rival's and the field's.
fn standing(p: &Public, seat: Seat) -> i32 {
    if p.stage == Stage::Over {
        return if p.winners.contains(seat) {
            100_000
        } else {
            -100_000
        };
    }
    let mine = i32::from(p.seats[usize::from(seat)].progress());
    let others = p
        .seats
        .iter()
        .enumerate()
        .filter(|(s, _)| *s != usize::from(seat));
    let (best, sum, count) = others.fold((0, 0, 0), |(b, s, c), (_, v)| {
        let pr = i32::from(v.progress());
        (i32::max(b, pr), s + pr, c + 1)
    });
    mine * 12 - best * 5 - sum * 2 / i32::max(count, 1)
}

/// Tries each option on a copy of the public table (all cards are face up by then) and
/// keeps the one that leaves the seat best placed; the first such on ties.
fn look_ahead(p: &Public, seat: Seat, options: &[Input]) -> Option<Input> {
    let others_wild = if p.resolution.meek.is_some() { 1 } else { 8 };
    let mut best: Option<(i32, Input)> = None;
    for &input in options {
        let inputs = awaited(p)
            .iter()
            .map(|s| {
                (
                    s,
                    Play::Open(if s == seat {
                        input
                    } else {
                        Input::Wild(others_wild)
                    }),
                )
            })
            .collect();
        let mut copy = p.clone();
        if rules::apply(&mut copy, &mut [], &Step::Inputs(inputs)).is_err() {
            continue;
        }
        let score = standing(&copy, seat);
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, input));
        }
    }
    best.map(|(_, input)| input)
        .or_else(|| options.first().copied())
}

/// In a duel: the strongest Go! in hand (Go WILD! beats them all); with none, the card
/// least worth keeping.
fn duel_card(private: &Private) -> Option<Input> {
    const LEAST_USEFUL: [Card; 10] = [
        Card::Meek,
        Card::DragonSighting,
        Card::OddReversal,
        Card::EvenChance,
        Card::Tracking,
        Card::Loot,
        Card::DragonAttack,
        Card::Curse,
        Card::SeeYa,
        Card::SecretDoor,
    ];
    let strongest = private
        .hand
        .kinds()
        .max_by_key(|c| c.duel_rank())
        .filter(|c| c.duel_rank() > 0);
    strongest
        .or_else(|| LEAST_USEFUL.into_iter().find(|c| private.hand.contains(*c)))
        .or_else(|| private.hand.kinds().next())
        .map(Input::Card)
}

/// Room 11: keep a first card that will do something; throw back the rest.
fn worth_keeping(p: &Public, card: Card) -> bool {
    match card {
        Card::Wild | Card::SecretDoor | Card::Curse | Card::DragonAttack => true,
        Card::SeeYa => p.seats.len() >= 3,
        other => other.go_value().is_some_and(|v| v >= 5),
    }
}

/// Hundredths of a room gained by moving `rooms` forward from where `seat` stands (a
/// negative count moves back), with a large bonus for a move that wins the game.
fn gain(p: &Public, seat: Seat, rooms: i32) -> i32 {
    let v = &p.seats[usize::from(seat)];
    let to = (i32::from(v.room) + i32::from(v.facing.forward()) * rooms).clamp(1, 12);
    let progress_at = |room: i32| match v.facing {
        Facing::In => room,
        Facing::Out => 24 - room,
    };
    let delta = progress_at(to) - i32::from(v.progress());
    let wins = match p.config.length {
        Length::Shortest => to == 12,
        _ => v.facing == Facing::Out && to == 1,
    };
    delta * 100 + if wins && delta > 0 { 1000 } else { 0 }
}

/// Percent chance that a Go! worth `value` beats `rivals` opponents, each taken to play a
/// Go! three times in five, of a uniform value 1–8 (ties count half).
fn win_chance(value: i32, rivals: i32) -> i32 {
    let beaten_by = if value >= 9 {
        0
    } else if value <= 0 {
        60
    } else {
        60 * (8 - value) / 8 + 60 / 16
    };
    (0..rivals).fold(100, |chance, _| chance * (100 - beaten_by) / 100)
}

fn choose_card(
    p: &Public,
    private: &Private,
    seat: Seat,
    playing: SeatSet,
    rng: &mut ChaCha8Rng,
) -> Input {
    let me = &p.seats[usize::from(seat)];
    let room = effects(&p.config, me.room);
    let rivals = playing.without(SeatSet::single(seat));
    let n_rivals = rivals.len() as i32;
    let threat = p
        .seats
        .iter()
        .enumerate()
        .filter(|(s, _)| *s != usize::from(seat))
        .map(|(_, v)| i32::from(v.progress()))
        .max()
        .unwrap_or(0);
    let my_progress = i32::from(me.progress());
    let near_win = if p.config.length == Length::Shortest {
        10
    } else {
        20
    };

    let score = |card: Card| -> i32 {
        if room.special == Special::PuzzleRoom {
            // Any card here only moves us, and only if no one else plays it: give up the
            // card we would least like to keep, preferring rare ones.
            return 100 - keep_worth(card) + if card.is_go() { 0 } else { 30 };
        }
        if room.voids.contains(&card) {
            return 2;
        }
        match card {
            Card::Wild => {
                win_chance(8 + i32::from(room.go_bonus), n_rivals) * gain(p, seat, 1) / 100 - 3
            }
            Card::SecretDoor => gain(p, seat, 2) * 9 / 10,
            Card::SeeYa => {
                let expected = gain(p, seat, 1) * n_rivals * 55 / 100;
                expected.min(gain(p, seat, n_rivals))
            }
            Card::Tracking => {
                let stride = if room.special == Special::HiddenEntrance {
                    2
                } else {
                    1
                };
                let toward: i32 = rivals
                    .iter()
                    .map(|o| {
                        let diff = i32::from(p.seats[usize::from(o)].room) - i32::from(me.room);
                        (diff * i32::from(me.facing.forward())).signum()
                    })
                    .sum();
                toward * 70 * stride / i32::max(n_rivals, 1)
            }
            Card::EvenChance | Card::OddReversal => {
                let total: i32 = rivals
                    .iter()
                    .map(|o| {
                        let there = i32::from(p.seats[usize::from(o)].room);
                        let diff = there - i32::from(me.room);
                        gain(p, seat, diff * i32::from(me.facing.forward()))
                    })
                    .sum();
                total * 45 / 100 / i32::max(n_rivals, 1)
            }
            Card::Loot => {
                if room.special == Special::Trap {
                    -80
                } else {
                    let good = private
                        .hand
                        .cards()
                        .filter(|c| keep_worth(*c) >= 60)
                        .count() as i32;
                    if good == 0 { 45 } else { -10 * good }
                }
            }
            Card::Meek => 5,
            Card::Curse => {
                if threat >= near_win && threat > my_progress {
                    55
                } else {
                    8
                }
            }
            Card::DragonSighting => {
                let rooms = [me.room, behind(me.room, me.facing)];
                let hit = rivals
                    .iter()
                    .filter(|o| rooms.contains(&p.seats[usize::from(*o)].room))
                    .count() as i32;
                12 * hit + if threat >= near_win && hit > 0 { 30 } else { 0 }
            }
            Card::DragonAttack => {
                if threat > near_win && threat > my_progress {
                    65
                } else {
                    0
                }
            }
            go => {
                let value = i32::from(go.go_value().unwrap_or(0)) + i32::from(room.go_bonus);
                win_chance(value, n_rivals) * gain(p, seat, 1) / 100
            }
        }
    };

    let mut best = (i32::MIN, Card::Go1);
    for card in private.hand.kinds() {
        let s = score(card) * 4 + rng::below(rng, 4) as i32;
        if s > best.0 {
            best = (s, card);
        }
    }
    Input::Card(best.1)
}

/// How much a card is worth holding on to, 0–100.
fn keep_worth(card: Card) -> i32 {
    match card {
        Card::Wild => 100,
        Card::SecretDoor => 90,
        Card::SeeYa => 70,
        Card::Curse | Card::DragonAttack => 45,
        Card::Tracking | Card::EvenChance | Card::OddReversal | Card::DragonSighting => 30,
        Card::Loot => 20,
        Card::Meek => 10,
        go => i32::from(go.go_value().unwrap_or(0)) * 11,
    }
}
