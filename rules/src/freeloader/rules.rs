//! Freeloader's steps, as the rules allow them: the ring of six houses, favors, Best Friends
//! and Crash spaces, the 54-card shared hidden deck, and every turn and board space of the
//! rulebook, each move checked with a reason a player reads and carried out on the table.

use super::state::*;
use super::cards::CARDS;
use super::data::{Category, House, Space, Special};
use crate::{CardId, Handle, Outcome, Pending, RuleError, Seat, Step, rng};
use std::collections::BTreeMap;

pub(super) fn name(card: CardId) -> &'static str {
    CARDS.get(usize::from(card)).map_or("a card", |c| c.name)
}

pub(super) fn start_turn(public: &mut Public, seat: Seat) {
    public.turns += 1;
    public.phase = Phase::Turn { seat };
}

/// The turn is over: the game ends after the last player's turn once the deck is out.
pub(super) fn end_turn(public: &mut Public, seat: Seat, events: &mut Vec<Event>) {
    let n = public.config.seats;
    let last = (public.first + n - 1) % n;
    if public.deck.left() == 0 && seat == last {
        let scores: Vec<i32> = (0..n).map(|s| public.score(s)).collect();
        let qualified: Vec<Seat> = (0..n).filter(|s| public.qualifies(*s)).collect();
        let best = qualified.iter().map(|s| scores[usize::from(*s)]).max();
        let winners: Vec<Seat> = qualified
            .into_iter()
            .filter(|s| Some(scores[usize::from(*s)]) == best)
            .collect();
        events.push(Event::Ended {
            winners: winners.clone(),
            scores: scores.clone(),
        });
        public.phase = Phase::Over(Outcome { winners, scores });
    } else {
        start_turn(public, (seat + 1) % n);
    }
}

/// `count` new favors of `seat` in ring house `house`, then its Best Friend choice.
pub(super) fn place_favors(
    public: &mut Public,
    seat: Seat,
    house: u8,
    count: u8,
    friend: Friend,
    events: &mut Vec<Event>,
) {
    let h = &mut public.houses[usize::from(house)];
    h.favors[usize::from(seat)] = h.favors[usize::from(seat)].saturating_add(count);
    events.push(Event::Favors { seat, house, count });
    befriend(public, seat, house, friend, events);
}

/// A Best Friend choice already checked: take the open space, challenge, or nothing.
pub(super) fn befriend(
    public: &mut Public,
    seat: Seat,
    house: u8,
    friend: Friend,
    events: &mut Vec<Event>,
) {
    let h = &mut public.houses[usize::from(house)];
    match friend {
        Friend::Keep => end_turn(public, seat, events),
        Friend::Take { slot } => {
            // The same as winning it: a lone crash counter moves over.
            won_friend(public, seat, house, slot, events);
            end_turn(public, seat, events);
        }
        Friend::Challenge { slot } => {
            let Some(defender) = h.best_friends[usize::from(slot)] else {
                return end_turn(public, seat, events);
            };
            events.push(Event::Challenged {
                seat,
                defender,
                house,
            });
            public.phase = Phase::Challenge {
                seat,
                defender,
                house,
                slot,
            };
        }
    }
}

/// Whether `friend` is a Best Friend choice `seat` may make in ring house `house`.
pub(super) fn friend_ok(public: &Public, seat: Seat, house: u8, friend: Friend) -> bool {
    let Some(h) = public.houses.get(usize::from(house)) else {
        return false;
    };
    let holds = h.is_best_friend(seat);
    match friend {
        Friend::Keep => true,
        Friend::Take { slot } => !holds && h.best_friends.get(usize::from(slot)) == Some(&None),
        Friend::Challenge { slot } => {
            !holds
                && matches!(h.best_friends.get(usize::from(slot)), Some(Some(s)) if *s != seat)
        }
    }
}

/// The challenger won (or the defender gave up): the space changes hands.
pub(super) fn won_friend(public: &mut Public, seat: Seat, house: u8, slot: u8, events: &mut Vec<Event>) {
    let h = &mut public.houses[usize::from(house)];
    // A crasher with no other counter here moves its counter to the Best Friend space.
    if h.favors[usize::from(seat)] <= h.markers(seat)
        && let Some(c) = h.crash.iter_mut().find(|s| **s == Some(seat))
    {
        *c = None;
    }
    h.best_friends[usize::from(slot)] = Some(seat);
    events.push(Event::BestFriend { seat, house });
}

pub(super) fn hand_face(
    privates: &[Option<Private>],
    seat: Seat,
    held: &Held,
    face: CardId,
) -> Result<(), RuleError> {
    match held {
        Held::Open(c) if *c != face => Err(RuleError::illegal(seat, "that card shows another face")),
        Held::Hidden(h) => match privates.get(usize::from(seat)) {
            Some(Some(p)) if p.faces.get(h) != Some(&face) => Err(RuleError::PrivateMismatch {
                seat,
                why: format!("it showed a card as {} that it does not hold", name(face)),
            }),
            _ => Ok(()),
        },
        Held::Open(_) => Ok(()),
    }
}

/// `seat` plays `card` (showing `face`) from its hand into its stuff: its cost here.
pub(super) fn play_from_hand(
    public: &mut Public,
    privates: &mut [Option<Private>],
    seat: Seat,
    card: &Held,
    face: CardId,
    events: &mut Vec<Event>,
) -> Result<i32, RuleError> {
    hand_face(privates, seat, card, face)?;
    let cost = public.cost(seat, face);
    take_from_hand(public, privates, seat, card);
    public.stuff[usize::from(seat)].push(face);
    events.push(Event::Played {
        seat,
        card: face,
        cost,
    });
    Ok(cost)
}

pub(super) fn take_from_hand(
    public: &mut Public,
    privates: &mut [Option<Private>],
    seat: Seat,
    held: &Held,
) {
    public.hands[usize::from(seat)].retain(|h| h != held);
    if let (Held::Hidden(h), Some(Some(p))) = (held, privates.get_mut(usize::from(seat))) {
        p.faces.remove(h);
    }
}

/// The draw of `seat`: the top card (dealt in secret) or the face-up card here.
pub(super) fn draw(public: &mut Public, seat: Seat, face_up: bool, events: &mut Vec<Event>) {
    if face_up {
        let house = public.house_at(public.pawns[usize::from(seat)]);
        let card = public.houses[usize::from(house)].face_up.take();
        if let Some(card) = card {
            public.hands[usize::from(seat)].push(Held::Open(card));
        }
        events.push(Event::Drew {
            seat,
            face_up: card,
        });
        if public.deck.left() > 0 {
            public.phase = Phase::Refill { seat, house };
        } else {
            end_turn(public, seat, events);
        }
    } else {
        public.phase = Phase::DrawTop { seat };
    }
}

/// Moves `seat`'s pawn `steps` clockwise and asks it to follow the space.
pub(super) fn land(public: &mut Public, seat: Seat, steps: u8, events: &mut Vec<Event>) {
    let at = &mut public.pawns[usize::from(seat)];
    *at = (*at + steps) % RING;
    let space = *at;
    events.push(Event::Landed { seat, space });
    public.phase = match public.space(space) {
        Space::BusStop(_) => Phase::Bus { seat },
        _ => Phase::Land { seat },
    };
}

/// Inputs for the space `seat` landed on, or a turn, that name a Best Friend choice: every
/// choice the house allows.
pub(super) fn friend_choices(public: &Public, seat: Seat, house: u8) -> Vec<Friend> {
    let slots = public.houses[usize::from(house)].best_friends.len() as u8;
    std::iter::once(Friend::Keep)
        .chain((0..slots).map(|slot| Friend::Take { slot }))
        .chain((0..slots).map(|slot| Friend::Challenge { slot }))
        .filter(|f| friend_ok(public, seat, house, *f))
        .collect()
}

pub(super) fn held_faces(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<(Held, CardId)> {
    public.hands[usize::from(seat)]
        .iter()
        .filter_map(|h| match h {
            Held::Open(c) => Some((*h, *c)),
            Held::Hidden(_) => private.and_then(|p| p.face(h)).map(|f| (*h, f)),
        })
        .collect()
}

/// Every ring house whose Crash space `seat` may take, and whom it may evict there.
pub(super) fn crash_options(public: &Public, seat: Seat) -> Vec<Option<Seat>> {
    let house = public.house_at(public.pawns[usize::from(seat)]);
    let h = &public.houses[usize::from(house)];
    let hippies = h.house == House::Hippies;
    if hippies && h.is_crashing(seat) {
        return vec![];
    }
    if h.crash.contains(&None) && !(h.crash.len() == 1 && h.is_crashing(seat)) {
        return vec![None];
    }
    if !h.is_best_friend(seat) {
        return vec![];
    }
    let mut out: Vec<Option<Seat>> = h
        .crash
        .iter()
        .flatten()
        .filter(|s| **s != seat)
        .map(|s| Some(*s))
        .collect();
    out.sort();
    out.dedup();
    // One crash space: the one crasher there goes; the Hippies' Best Friend picks.
    if !hippies {
        out.truncate(1);
    }
    out
}

/// Whether `seat` has landed on a Crash space it must crash on: one open to it.
pub(super) fn open_crash(public: &Public, seat: Seat) -> bool {
    matches!(public.phase, Phase::Land { seat: s } if s == seat)
        && public.space(public.pawns[usize::from(seat)]) == Space::Crash
        && crash_options(public, seat).contains(&None)
}

pub(super) fn apply_step(
    public: &mut Public,
    privates: &mut [Option<Private>],
    step: &Step<Input>,
) -> Result<Vec<Event>, RuleError> {
    let mut events = Vec::new();
    let n = public.config.seats;
    match (public.phase.clone(), step) {
        (Phase::Over(_), _) => return Err(RuleError::GameOver),
        (Phase::Shuffle, Step::Shuffled) => {
            public.deck.shuffled(CARDS.len());
            events.push(Event::Shuffled {
                cards: CARDS.len() as u16,
            });
            public.phase = Phase::Arrange;
        }
        (Phase::Arrange, Step::Chance(draw)) => {
            let mut r = rng::from_seed(draw, "freeloader houses");
            rng::shuffle(&mut r, &mut public.houses);
            events.push(Event::Arranged {
                houses: public.houses.iter().map(|h| h.house).collect(),
            });
            public.phase = Phase::Dealing { seat: 0 };
        }
        (Phase::Dealing { seat }, Step::Dealt) => {
            let cards = public.deck.take(HAND);
            events.push(Event::Dealt {
                seat,
                cards: cards.len() as u8,
            });
            public.hands[usize::from(seat)].extend(cards.into_iter().map(Held::Hidden));
            public.phase = if seat + 1 < n {
                Phase::Dealing { seat: seat + 1 }
            } else {
                Phase::FaceUp
            };
        }
        (Phase::FaceUp, Step::Revealed(faces)) => {
            let cards = public.deck.take(public.houses.len());
            if faces.len() != cards.len() {
                return Err(RuleError::WrongStep {
                    expected: format!("{} faces", cards.len()),
                });
            }
            for (i, face) in faces.iter().enumerate() {
                public.houses[i].face_up = Some(*face);
                events.push(Event::TurnedUp {
                    house: i as u8,
                    card: *face,
                });
            }
            public.phase = Phase::Place;
        }
        (Phase::Place, Step::Chance(draw)) => {
            let mut r = rng::from_seed(draw, "freeloader pawns");
            for seat in 0..n {
                let stop = rng::roll(&mut r, 6) as u8;
                let on = rng::roll(&mut r, 6) as u8;
                public.pawns[usize::from(seat)] = (public.bus_stop(stop) + on) % RING;
            }
            public.first = rng::below(&mut r, u32::from(n)) as Seat;
            events.push(Event::Placed {
                pawns: public.pawns.clone(),
                first: public.first,
            });
            start_turn(public, public.first);
        }
        (Phase::Moving { seat, dice, rolled }, Step::Chance(draw)) => {
            let mut r = rng::from_seed(draw, "freeloader move");
            let mut thrown: Vec<u8> = (0..rolled).map(|_| rng::roll(&mut r, 6) as u8).collect();
            public.dice = thrown.clone();
            thrown.sort_unstable_by(|a, b| b.cmp(a));
            let moved: u8 = thrown.iter().take(usize::from(dice)).sum();
            events.push(Event::Rolled {
                seat,
                dice: public.dice.clone(),
                moved,
            });
            land(public, seat, moved, &mut events);
        }
        (Phase::Bus { seat }, Step::Chance(draw)) => {
            let stop = rng::roll(&mut rng::from_seed(draw, "freeloader bus"), 6) as u8;
            public.dice = vec![stop];
            public.pawns[usize::from(seat)] = public.bus_stop(stop);
            events.push(Event::Bus { seat, stop });
            public.phase = Phase::MoveAgain { seat };
        }
        (
            Phase::Fight {
                seat,
                defender,
                house,
                slot,
            },
            Step::Chance(draw),
        ) => {
            let mut r = rng::from_seed(draw, "freeloader fight");
            let (a, d) = (rng::roll(&mut r, 6), rng::roll(&mut r, 6));
            public.dice = vec![a as u8, d as u8];
            let h = &public.houses[usize::from(house)];
            let totals = (
                a * u32::from(h.favors[usize::from(seat)]),
                d * u32::from(h.favors[usize::from(defender)]),
            );
            // "The higher total wins, and ties go to the defender."
            let winner = if totals.0 > totals.1 { seat } else { defender };
            events.push(Event::Fought {
                seat,
                defender,
                totals,
                winner,
            });
            let loser = if winner == seat { defender } else { seat };
            if winner == seat {
                public.houses[usize::from(house)].best_friends[usize::from(slot)] = None;
                won_friend(public, seat, house, slot, &mut events);
            }
            // "The loser must take one favor out of the house, as a penalty for fighting."
            public.houses[usize::from(house)].spend(loser, 1);
            end_turn(public, seat, &mut events);
        }
        (Phase::DrawTop { seat }, Step::Dealt) => {
            let cards = public.deck.take(1);
            events.push(Event::Drew {
                seat,
                face_up: None,
            });
            public.hands[usize::from(seat)].extend(cards.into_iter().map(Held::Hidden));
            if public.deck.left() == 0 {
                events.push(Event::DeckOut);
            }
            end_turn(public, seat, &mut events);
        }
        (Phase::Refill { seat, house }, Step::Revealed(faces)) => {
            let taken = public.deck.take(1);
            if taken.len() != faces.len() {
                return Err(RuleError::WrongStep {
                    expected: "one face".into(),
                });
            }
            if let Some(face) = faces.first() {
                public.houses[usize::from(house)].face_up = Some(*face);
                events.push(Event::TurnedUp { house, card: *face });
            }
            if public.deck.left() == 0 {
                events.push(Event::DeckOut);
            }
            end_turn(public, seat, &mut events);
        }
        (phase, Step::Inputs(plays)) => {
            let seat = match pending(public) {
                Pending::Turn { seat } => seat,
                other => {
                    return Err(RuleError::WrongStep {
                        expected: format!("{other:?}"),
                    });
                }
            };
            let input = crate::one_open_input(plays, seat)?;
            // The rules' own move for a seat the table goes on without need not be one the
            // player could choose (a removed player gives nothing from a hidden hand).
            if !matches!(plays.as_slice(), [(_, crate::Play::Away(_))]) {
                check_input(public, seat, input)?;
            }
            input_step(public, privates, phase, seat, input, &mut events)?;
        }
        _ => {
            return Err(RuleError::WrongStep {
                expected: format!("{:?}", pending(public)),
            });
        }
    }
    Ok(events)
}

/// One seat's checked input.
pub(super) fn input_step(
    public: &mut Public,
    privates: &mut [Option<Private>],
    phase: Phase,
    seat: Seat,
    input: &Input,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let here = public.house_at(public.pawns[usize::from(seat)]);
    match (phase, input) {
        (Phase::Turn { .. } | Phase::MoveAgain { .. }, Input::Move { dice }) => {
            let extra = public.owns(seat, |s| *s == Special::ExtraDie);
            public.phase = Phase::Moving {
                seat,
                dice: *dice,
                rolled: dice + u8::from(extra),
            };
        }
        (Phase::Turn { .. } | Phase::Land { .. }, Input::Draw { face_up }) => {
            draw(public, seat, *face_up, events);
        }
        (Phase::Turn { .. } | Phase::Land { .. }, Input::Favor { house, friend }) => {
            place_favors(public, seat, *house, 1, *friend, events);
        }
        (Phase::Turn { .. }, Input::PlayCard { card, face, friend }) => {
            let cost = play_from_hand(public, privates, seat, card, *face, events)?;
            if cost < 0 {
                // A negative cost places favors, and so a chance at Best Friend.
                place_favors(public, seat, here, (-cost) as u8, *friend, events);
            } else {
                public.houses[usize::from(here)].spend(seat, cost as u8);
                end_turn(public, seat, events);
            }
        }
        (Phase::Turn { .. }, Input::PlayCardPaying { card, face, paying }) => {
            let cost = play_from_hand(public, privates, seat, card, *face, events)?;
            // Checked: a positive cost the favors here cover.
            public.houses[usize::from(here)].spend_as(seat, cost.max(0) as u8, *paying);
            end_turn(public, seat, events);
        }
        (Phase::Turn { .. }, Input::Surprise { card, face, friend }) => {
            hand_face(privates, seat, card, *face)?;
            let Special::Surprise { house, favors } = CARDS[usize::from(*face)].special else {
                return Err(RuleError::illegal(seat, "that card is no Surprise!"));
            };
            take_from_hand(public, privates, seat, card);
            public.out.push(*face);
            events.push(Event::Surprised { seat, card: *face });
            let place = public.place_of(house);
            place_favors(public, seat, place, favors, *friend, events);
        }
        (Phase::Turn { .. }, Input::Dwi { card, to }) => {
            public.stuff[usize::from(seat)].retain(|c| c != card);
            let theirs = &mut public.stuff[usize::from(*to)];
            let (cars, kept): (Vec<CardId>, Vec<CardId>) = theirs
                .iter()
                .partition(|c| CARDS[usize::from(**c)].special == Special::Car);
            *theirs = kept;
            theirs.push(*card);
            public.out.extend(cars.iter().copied());
            events.push(Event::Drunk {
                seat,
                card: *card,
                to: *to,
                cars,
            });
            end_turn(public, seat, events);
        }
        (Phase::Land { .. }, Input::Skip) => {
            events.push(Event::Skipped { seat });
            end_turn(public, seat, events);
        }
        (Phase::Land { .. }, Input::Crash { evict, friend }) => {
            let h = &mut public.houses[usize::from(here)];
            if let Some(victim) = evict {
                // The Best Friend evicts: the crasher's counter leaves the house.
                if let Some(slot) = h.crash.iter_mut().find(|s| **s == Some(*victim)) {
                    *slot = None;
                }
                let v = &mut h.favors[usize::from(*victim)];
                *v = v.saturating_sub(1);
                h.spend(*victim, 0);
            }
            if let Some(slot) = h.crash.iter_mut().find(|s| s.is_none()) {
                *slot = Some(seat);
            }
            events.push(Event::Crashed {
                seat,
                house: here,
                evicted: *evict,
            });
            place_favors(public, seat, here, 1, *friend, events);
        }
        (Phase::Land { .. }, Input::Trade { with, kind }) => {
            events.push(Event::Traded {
                seat,
                with: *with,
                kind: *kind,
            });
            public.phase = Phase::TradeGive {
                seat,
                with: *with,
                kind: *kind,
            };
        }
        (Phase::Land { .. }, Input::TradeBoard { house, card, face }) => {
            hand_face(privates, seat, card, *face)?;
            let h = &mut public.houses[usize::from(*house)];
            let Some(took) = h.face_up.replace(*face) else {
                return Err(RuleError::illegal(seat, "there is no face-up card there"));
            };
            take_from_hand(public, privates, seat, card);
            public.hands[usize::from(seat)].push(Held::Open(took));
            events.push(Event::TookFromBoard {
                seat,
                house: *house,
                took,
                left: *face,
            });
            end_turn(public, seat, events);
        }
        (Phase::Land { .. }, Input::Steal { from, card }) => {
            public.stuff[usize::from(*from)].retain(|c| c != card);
            public.stuff[usize::from(seat)].push(*card);
            events.push(Event::Stole {
                seat,
                from: *from,
                card: *card,
            });
            end_turn(public, seat, events);
        }
        (
            Phase::Challenge {
                seat: challenger,
                house,
                slot,
                ..
            },
            Input::GiveUp,
        ) => {
            events.push(Event::GaveUp { seat, house });
            public.houses[usize::from(house)].best_friends[usize::from(slot)] = None;
            won_friend(public, challenger, house, slot, events);
            end_turn(public, challenger, events);
        }
        (
            Phase::Challenge {
                seat: challenger,
                defender,
                house,
                slot,
            },
            Input::Fight,
        ) => {
            public.phase = Phase::Fight {
                seat: challenger,
                defender,
                house,
                slot,
            };
        }
        (
            Phase::TradeGive {
                seat: mover,
                with,
                kind,
            },
            Input::Give { card },
        ) => {
            give(public, privates, with, mover, kind, card, events)?;
            public.phase = Phase::TradeBack {
                seat: mover,
                with,
                kind,
            };
        }
        (
            Phase::TradeGive {
                seat: mover,
                with,
                kind,
            },
            Input::Skip,
        ) => {
            events.push(Event::Gave {
                from: with,
                to: mover,
                card: None,
            });
            public.phase = Phase::TradeBack {
                seat: mover,
                with,
                kind,
            };
        }
        (Phase::TradeBack { with, kind, .. }, Input::Give { card }) => {
            give(public, privates, seat, with, kind, card, events)?;
            end_turn(public, seat, events);
        }
        (Phase::TradeBack { .. }, Input::Skip) => end_turn(public, seat, events),
        _ => return Err(RuleError::illegal(seat, "that is not a move the game allows now")),
    }
    Ok(())
}

/// `from` gives `card` to `to` in a trade: from hand to hand (a hidden card in secret: the
/// deck hands it over to the taker's key, and only the taker learns its face) or from
/// Stuff to Stuff.
pub(super) fn give(
    public: &mut Public,
    privates: &mut [Option<Private>],
    from: Seat,
    to: Seat,
    kind: TradeKind,
    card: &Held,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    match kind {
        TradeKind::Hand => {
            if !public.hands[usize::from(from)].contains(card) {
                return Err(RuleError::illegal(from, "it gave a card it does not hold"));
            }
            take_from_hand(public, privates, from, card);
            public.hands[usize::from(to)].push(*card);
            let shown = match card {
                Held::Open(c) => Some(*c),
                Held::Hidden(_) => None,
            };
            events.push(Event::Gave {
                from,
                to,
                card: shown,
            });
        }
        TradeKind::Stuff => {
            let Held::Open(face) = *card else {
                return Err(RuleError::illegal(from, "Stuff lies face up: a hidden card is not in it"));
            };
            if !public.stuff[usize::from(from)].contains(&face) {
                return Err(RuleError::illegal(from, "it gave a card that is not in its Stuff"));
            }
            public.stuff[usize::from(from)].retain(|c| *c != face);
            public.stuff[usize::from(to)].push(face);
            events.push(Event::Gave {
                from,
                to,
                card: Some(face),
            });
        }
    }
    Ok(())
}

/// The 54 cards, each in one place (the deck, a hand, someone's Stuff, face up beside a
/// house, or out of the game), and no seat with a marker on a special space beyond its
/// favors in that house.
pub(super) fn check_pieces(public: &Public, privates: &[Option<Private>]) -> Result<(), String> {
    if public.deck.generation.is_none() {
        return Ok(());
    }
    let mut seen: Vec<CardId> = Vec::new();
    let mut hidden: Vec<Vec<Handle>> = vec![Vec::new(); public.hands.len()];
    for (seat, hand) in public.hands.iter().enumerate() {
        for held in hand {
            match held {
                Held::Open(card) => seen.push(*card),
                Held::Hidden(handle) => hidden[seat].push(*handle),
            }
        }
    }
    seen.extend(public.stuff.iter().flatten());
    seen.extend(public.houses.iter().filter_map(|h| h.face_up));
    seen.extend(&public.out);
    let held = hidden.iter().map(Vec::len).sum::<usize>();
    crate::each_once("card", &seen, public.deck.left() + held, CARDS.len())?;
    for house in &public.houses {
        for seat in 0..public.config.seats {
            let markers = house
                .best_friends
                .iter()
                .chain(&house.crash)
                .filter(|s| **s == Some(seat))
                .count();
            let favors = house.favors.get(usize::from(seat)).copied().unwrap_or(0);
            if usize::from(favors) < markers {
                return Err(format!("seat {seat} has more markers than favors in {house:?}"));
            }
        }
    }
    crate::faces_known(&hidden, privates.iter().flatten().map(|p| (p.seat, &p.faces)))
}

pub(super) fn pending(public: &Public) -> Pending {
    match &public.phase {
        Phase::Shuffle => Pending::Shuffle {
            deck: DECK,
            cards: (0..CARDS.len() as CardId).collect(),
        },
        Phase::Dealing { seat } => Pending::Deal {
            to: *seat,
            cards: public.deck.peek(HAND),
        },
        Phase::FaceUp => Pending::Reveal {
            cards: public.deck.peek(public.houses.len()),
        },
        Phase::Refill { .. } => Pending::Reveal {
            cards: public.deck.peek(1),
        },
        Phase::DrawTop { seat } => Pending::Deal {
            to: *seat,
            cards: public.deck.peek(1),
        },
        Phase::Arrange
        | Phase::Place
        | Phase::Moving { .. }
        | Phase::Bus { .. }
        | Phase::Fight { .. } => Pending::Chance,
        Phase::Turn { seat }
        | Phase::Land { seat }
        | Phase::MoveAgain { seat }
        | Phase::TradeBack { seat, .. } => Pending::Turn { seat: *seat },
        Phase::Challenge { defender, .. } => Pending::Turn { seat: *defender },
        Phase::TradeGive { with, .. } => Pending::Turn { seat: *with },
        Phase::Over(o) => Pending::Over(o.clone()),
    }
}

pub(super) fn legal_inputs(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<Input> {
    let Some(_) = public.hands.get(usize::from(seat)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let held = held_faces(public, private, seat);
    let here = public.house_at(public.pawns[usize::from(seat)]);
    let stuff = &public.stuff[usize::from(seat)];
    let n = public.config.seats;
    match &public.phase {
        Phase::Turn { seat: s } | Phase::MoveAgain { seat: s } if *s == seat => {
            let most = if public.owns(seat, |s| *s == Special::Car) {
                3
            } else {
                2
            };
            out.extend((1..=most).map(|dice| Input::Move { dice }));
            if matches!(public.phase, Phase::Turn { .. }) {
                if public.deck.left() > 0 {
                    out.push(Input::Draw { face_up: false });
                }
                if public.houses[usize::from(here)].face_up.is_some() {
                    out.push(Input::Draw { face_up: true });
                }
                for house in 0..public.houses.len() as u8 {
                    for friend in friend_choices(public, seat, house) {
                        out.push(Input::Favor { house, friend });
                    }
                }
                for (card, face) in &held {
                    let cost = public.cost(seat, *face);
                    let have = public.houses[usize::from(here)].favors[usize::from(seat)];
                    if cost <= i32::from(have) {
                        let friends = if cost < 0 {
                            friend_choices(public, seat, here)
                        } else {
                            vec![Friend::Keep]
                        };
                        for friend in friends {
                            out.push(Input::PlayCard {
                                card: *card,
                                face: *face,
                                friend,
                            });
                        }
                        if cost > 0 {
                            let h = &public.houses[usize::from(here)];
                            for paying in h.paying_choices(seat, cost as u8) {
                                out.push(Input::PlayCardPaying {
                                    card: *card,
                                    face: *face,
                                    paying,
                                });
                            }
                        }
                    }
                    if let Special::Surprise { house, .. } = CARDS[usize::from(*face)].special {
                        for friend in friend_choices(public, seat, public.place_of(house)) {
                            out.push(Input::Surprise {
                                card: *card,
                                face: *face,
                                friend,
                            });
                        }
                    }
                }
                for card in stuff {
                    if CARDS[usize::from(*card)].special == Special::Dwi {
                        out.extend(
                            (0..n)
                                .filter(|t| *t != seat)
                                .map(|to| Input::Dwi { card: *card, to }),
                        );
                    }
                }
            }
        }
        Phase::Land { seat: s } if *s == seat => {
            out.push(Input::Skip);
            match public.space(public.pawns[usize::from(seat)]) {
                Space::Favor(Some(house)) => {
                    let house = public.place_of(house);
                    for friend in friend_choices(public, seat, house) {
                        out.push(Input::Favor { house, friend });
                    }
                    out.retain(|i| *i != Input::Skip);
                }
                Space::Favor(None) => {
                    for house in 0..public.houses.len() as u8 {
                        for friend in friend_choices(public, seat, house) {
                            out.push(Input::Favor { house, friend });
                        }
                    }
                    out.retain(|i| *i != Input::Skip);
                }
                Space::Draw => {
                    if public.deck.left() > 0 {
                        out.push(Input::Draw { face_up: false });
                    }
                    if public.houses[usize::from(here)].face_up.is_some() {
                        out.push(Input::Draw { face_up: true });
                    }
                }
                Space::Trade => {
                    for with in (0..n).filter(|w| *w != seat) {
                        if !public.hands[usize::from(with)].is_empty() {
                            out.push(Input::Trade {
                                with,
                                kind: TradeKind::Hand,
                            });
                        }
                        if !public.stuff[usize::from(with)].is_empty() && !stuff.is_empty() {
                            out.push(Input::Trade {
                                with,
                                kind: TradeKind::Stuff,
                            });
                        }
                    }
                    for (house, h) in public.houses.iter().enumerate() {
                        if h.face_up.is_some() {
                            for (card, face) in &held {
                                out.push(Input::TradeBoard {
                                    house: house as u8,
                                    card: *card,
                                    face: *face,
                                });
                            }
                        }
                    }
                }
                Space::StealFood | Space::StealClothing => {
                    let want =
                        if public.space(public.pawns[usize::from(seat)]) == Space::StealFood {
                            Category::Food
                        } else {
                            Category::Clothing
                        };
                    for from in (0..n).filter(|f| *f != seat) {
                        for card in &public.stuff[usize::from(from)] {
                            if CARDS[usize::from(*card)].category == want {
                                out.push(Input::Steal { from, card: *card });
                            }
                        }
                    }
                }
                Space::Crash => {
                    // "If the Crash Space is open, you will place a new favor": no pass.
                    if open_crash(public, seat) {
                        out.retain(|i| *i != Input::Skip);
                    }
                    for evict in crash_options(public, seat) {
                        let friends = if evict.is_none() {
                            friend_choices(public, seat, here)
                        } else {
                            vec![Friend::Keep]
                        };
                        for friend in friends {
                            out.push(Input::Crash { evict, friend });
                        }
                    }
                }
                Space::BusStop(_) => {}
            }
        }
        Phase::Challenge { defender, .. } if *defender == seat => {
            out.push(Input::GiveUp);
            out.push(Input::Fight);
        }
        Phase::TradeGive { with: s, kind, .. } | Phase::TradeBack { seat: s, kind, .. }
            if *s == seat =>
        {
            // Any card in hand may be given, seen or not: a hidden one is named by its
            // place, so giving it needs no knowledge of its face.
            let cards: Vec<Held> = match kind {
                TradeKind::Hand => public.hands[usize::from(seat)].clone(),
                TradeKind::Stuff => stuff.iter().map(|c| Held::Open(*c)).collect(),
            };
            // A player with nothing to give gives nothing.
            if cards.is_empty() {
                out.push(Input::Skip);
            }
            out.extend(cards.into_iter().map(|card| Input::Give { card }));
        }
        _ => {}
    }
    out
}

pub(super) fn check_input(public: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
    if let Phase::Over(_) = public.phase {
        return Err(RuleError::GameOver);
    }
    if public.hands.get(usize::from(seat)).is_none() {
        return Err(RuleError::illegal(seat, "there is no such seat"));
    }
    // The public list, with every hidden card in hand taken at the face claimed: an
    // input is allowed if it would be with the hand it claims (the faces themselves are
    // checked against the private side in `apply`, and by the protocol).
    let claimed = match input {
        Input::PlayCard { card, face, .. }
        | Input::PlayCardPaying { card, face, .. }
        | Input::Surprise { card, face, .. }
        | Input::TradeBoard { card, face, .. } => Some((*card, *face)),
        _ => None,
    };
    let stand_in = claimed.and_then(|(card, face)| match card {
        Held::Hidden(h) if public.hands[usize::from(seat)].contains(&card) => Some(Private {
            seat,
            faces: BTreeMap::from([(h, face)]),
        }),
        _ => None,
    });
    if *input == Input::Skip && open_crash(public, seat) {
        let house =
            public.houses[usize::from(public.house_at(public.pawns[usize::from(seat)]))].house;
        return Err(RuleError::illegal(
            seat,
            format!(
                "it passed up the open Crash space in the {house:?} house: a player who \
                 lands on an open Crash space crashes there, placing a favor on it"
            ),
        ));
    }
    let legal = legal_inputs(public, stand_in.as_ref(), seat);
    if legal.contains(input) && claimed.is_none_or(|(_, f)| usize::from(f) < CARDS.len()) {
        Ok(())
    } else {
        Err(RuleError::illegal(seat, "that is not a move the game allows now"))
    }
}
