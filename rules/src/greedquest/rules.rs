//! The flow of a GreedQuest game: checking a step, then playing it out — the cards face up,
//! the card sequence in the rulebook's order, duels and choices, the end of the turn and the
//! variants — until the game next needs someone's input.
//!
//! Each function that can need input either sets [`Stage`] and returns, or calls the next
//! part of the turn itself; a later step picks up from the stage.

use super::cards::{Card, DECK_SIZE, HAND_SIZE};
use super::deck::Table;
use super::events::{Choice, Event, Lose, Move, SitOut, Void};
use super::rooms::{Room, Special, effects};
use super::state::{
    Attrition, Config, Duel, DuelFor, Facing, Input, Length, Pick, Private, Public, Resolution,
    SeatSet, SeatView, Slot, Stage, Status,
};
use crate::{Outcome, Pending, Play, RuleError, Seal, Seat, Step};

/// How many turns in a row may pass with nobody able to play, inside one step, before the
/// engine stops and waits for an empty step instead. Two is the most the rules allow (a
/// seat trapped empty-handed in Room 8 sits out one turn and loses the next); this only
/// bounds the work of one step.
const EMPTY_TURNS_PER_STEP: u8 = 4;

pub(crate) fn setup(config: &Config) -> Result<Public, RuleError> {
    if !(2..=6).contains(&config.seats) {
        return Err(RuleError::BadConfig(format!(
            "GreedQuest is for 2 to 6 players, not {}",
            config.seats
        )));
    }
    let n = usize::from(config.seats);
    Ok(Public {
        config: config.clone(),
        turn: 0,
        seats: vec![
            SeatView {
                room: 1,
                ..SeatView::default()
            };
            n
        ],
        table: vec![Slot::default(); n],
        resolution: Resolution::default(),
        stage: Stage::Deal,
        winners: SeatSet::EMPTY,
        left: SeatSet::EMPTY,
    })
}

#[inline]
fn fx(p: &Public, room: u8) -> &'static Room {
    effects(&p.config, room)
}

#[inline]
fn view(p: &Public, seat: Seat) -> &SeatView {
    &p.seats[usize::from(seat)]
}

/// Room 9: the seat plays and duels with the top card of its draw pile.
#[inline]
pub(crate) fn plays_from_deck(p: &Public, seat: Seat) -> bool {
    fx(p, view(p, seat).room).special == Special::Encounter
}

/// Whether the seat has a card it may lay (an empty hand plays nothing).
#[inline]
fn can_lay(p: &Public, seat: Seat) -> bool {
    let v = view(p, seat);
    if plays_from_deck(p, seat) {
        v.drawable() > 0
    } else {
        v.hand > 0
    }
}

/// The seats whose input the game waits for.
#[inline]
pub(crate) fn awaited(p: &Public) -> SeatSet {
    match p.stage {
        Stage::Play { seats }
        | Stage::Wild { seats }
        | Stage::Duel { seats, .. }
        | Stage::LastParty { seats } => seats,
        Stage::Pick { chooser, .. } => SeatSet::single(chooser),
        Stage::Track { seat } => SeatSet::single(seat),
        Stage::Deal | Stage::Over => SeatSet::EMPTY,
    }
}

pub(crate) fn pending(p: &Public) -> Pending {
    match p.stage {
        Stage::Deal => Pending::Chance,
        Stage::Over => Pending::Over(Outcome {
            winners: p.winners.to_vec(),
            scores: vec![],
        }),
        Stage::Pick { chooser, .. } => Pending::Turn { seat: chooser },
        Stage::Track { seat } => Pending::Turn { seat },
        Stage::Wild { seats } if seats.len() == 1 => Pending::Turn {
            seat: seats.first().unwrap_or(0),
        },
        Stage::LastParty { seats } => Pending::Together {
            seats: seats.to_vec(),
            seal: Seal::UntilAudit,
        },
        Stage::Play { seats } | Stage::Wild { seats } | Stage::Duel { seats, .. } => {
            Pending::Together {
                seats: seats.to_vec(),
                seal: Seal::UntilAll,
            }
        }
    }
}

/// What the game waits for, in words, for error messages.
fn waiting_for(p: &Public) -> String {
    let seats = awaited(p).to_vec();
    match p.stage {
        Stage::Deal => "the beacon draw that shuffles every deck".to_string(),
        Stage::Over => "nothing: the game is over".to_string(),
        Stage::Play { .. } => format!("a face-down card from seats {seats:?}"),
        Stage::Wild { .. } => format!("the value of a Go WILD! from seats {seats:?}"),
        Stage::Duel { .. } => format!("a duel card from seats {seats:?}"),
        Stage::Pick { chooser, .. } => format!("seat {chooser} to choose who changes places"),
        Stage::Track { seat } => format!("seat {seat} to choose whom to track"),
        Stage::LastParty { .. } => format!("the sealed Room 11 choices of seats {seats:?}"),
    }
}

/// The checks every device can make on one input.
pub(crate) fn check_input(p: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
    let illegal = |why: String| Err(RuleError::Illegal { seat, why });
    match p.stage {
        Stage::Over => return Err(RuleError::GameOver),
        Stage::Deal => {
            return Err(RuleError::WrongStep {
                expected: waiting_for(p),
            });
        }
        _ => {}
    }
    if !awaited(p).contains(seat) {
        return illegal(format!(
            "it is not this seat's move; the game waits for {}",
            waiting_for(p)
        ));
    }
    if input.is_absence() {
        return illegal(
            "a player cannot sit out by choice: only the table's vote goes on without a seat"
                .to_string(),
        );
    }
    match (p.stage, *input) {
        (Stage::Play { .. } | Stage::Duel { .. }, Input::Card(card)) => {
            if p.unseen(seat, card) == 0 {
                return illegal(format!(
                    "{card} cannot be in its hand: every copy is already discarded, dead or on the table"
                ));
            }
            Ok(())
        }
        (Stage::Wild { .. }, Input::Wild(value)) => {
            if (1..=8).contains(&value) {
                Ok(())
            } else {
                illegal(format!(
                    "a Go WILD! is worth a whole number from 1 to 8, not {value}"
                ))
            }
        }
        (Stage::Pick { pick, .. }, Input::Swap(chosen)) => {
            let (Pick::Swapper { among, .. } | Pick::Winner { among, .. }) = pick;
            if among.contains(chosen) {
                Ok(())
            } else {
                illegal(format!(
                    "seat {chosen} cannot be chosen: the choice is among seats {:?}",
                    among.to_vec()
                ))
            }
        }
        (Stage::Track { .. }, Input::Track(target)) => {
            if p.resolution.winners.contains(target) {
                Ok(())
            } else {
                illegal(format!(
                    "seat {target} did not play a winning Go!; Tracking follows one of seats {:?}",
                    p.resolution.winners.to_vec()
                ))
            }
        }
        (Stage::LastParty { .. }, Input::KeepDrawn | Input::DiscardDrawn) => Ok(()),
        (_, other) => illegal(format!(
            "{other:?} is not what the game asks for: it waits for {}",
            waiting_for(p)
        )),
    }
}

/// The checks only the seat's private side can make: is the card really in the hand (or on
/// top of the draw pile, in Room 9)?
fn check_private(
    p: &Public,
    private: &Private,
    seat: Seat,
    input: &Input,
) -> Result<(), RuleError> {
    let mismatch = |why: String| Err(RuleError::PrivateMismatch { seat, why });
    match (p.stage, *input) {
        (Stage::Play { .. } | Stage::Duel { .. }, Input::Card(card)) => {
            if plays_from_deck(p, seat) {
                match private.top() {
                    Some(top) if top == card => Ok(()),
                    Some(top) => mismatch(format!(
                        "it played {card} in Room 9, but the top card of its draw pile is {top}"
                    )),
                    None => mismatch(format!(
                        "it played {card} in Room 9 with an empty draw pile"
                    )),
                }
            } else if private.hand.contains(card) {
                Ok(())
            } else {
                mismatch(format!("it played {card}, which is not in its hand"))
            }
        }
        (Stage::LastParty { .. }, _) if private.drawn.is_none() => {
            mismatch("it has no first card drawn to keep or discard".to_string())
        }
        _ => Ok(()),
    }
}

/// Whether a table (perhaps read back from disk) holds together: sizes that match the seat
/// count, and every seat it names at the table. The engine indexes by seat freely after this.
fn intact(p: &Public) -> bool {
    let n = p.config.seats;
    let seat_ok = |s: Seat| s < n;
    let stage_ok = match p.stage {
        Stage::Deal | Stage::Over => true,
        Stage::Play { seats } | Stage::Wild { seats } | Stage::LastParty { seats } => {
            seats.within(n)
        }
        Stage::Duel { duel, seats } => {
            seats.within(n)
                && duel.alive.within(n)
                && match duel.why {
                    DuelFor::Swapper { .. } => true,
                    DuelFor::Winner { partner } => seat_ok(partner),
                    DuelFor::Lead { leaders } => leaders.within(n),
                }
        }
        Stage::Pick { pick, chooser } => {
            seat_ok(chooser)
                && match pick {
                    Pick::Swapper { among, .. } => among.within(n),
                    Pick::Winner { partner, among } => seat_ok(partner) && among.within(n),
                }
        }
        Stage::Track { seat } => seat_ok(seat),
    };
    (2..=6).contains(&n)
        && p.seats.len() == usize::from(n)
        && p.table.len() == usize::from(n)
        && p.resolution.winners.within(n)
        && p.table.iter().all(|slot| slot.target.is_none_or(seat_ok))
        && stage_ok
}

fn validate(p: &Public, privates: &[Option<Private>], step: &Step<Input>) -> Result<(), RuleError> {
    if !intact(p) {
        return Err(RuleError::BadConfig(
            "this table's saved state is damaged: its seats do not match the game's setup"
                .to_string(),
        ));
    }
    for (index, private) in privates.iter().enumerate() {
        if let Some(private) = private
            && usize::from(private.seat) != index
        {
            return Err(RuleError::PrivateMismatch {
                seat: private.seat,
                why: format!("its private side was handed in at seat {index}'s place"),
            });
        }
    }
    let inputs = match (p.stage, step) {
        (Stage::Over, _) => return Err(RuleError::GameOver),
        (Stage::Deal, Step::Chance(_)) => return Ok(()),
        (Stage::Deal, _)
        | (_, Step::Chance(_) | Step::Shuffled | Step::Dealt | Step::Revealed(_)) => {
            return Err(RuleError::WrongStep {
                expected: waiting_for(p),
            });
        }
        (_, Step::Inputs(inputs)) => inputs,
    };
    let awaited = awaited(p);
    if inputs.len() != awaited.len() || !inputs.iter().map(|(s, _)| *s).eq(awaited.iter()) {
        return Err(RuleError::WrongStep {
            expected: waiting_for(p),
        });
    }
    for (seat, play) in inputs {
        let private = privates.get(usize::from(*seat)).and_then(Option::as_ref);
        match play {
            Play::Closed => match (p.stage, private) {
                (Stage::LastParty { .. }, None) => {}
                (Stage::LastParty { .. }, Some(_)) => {
                    return Err(RuleError::PrivateMismatch {
                        seat: *seat,
                        why: "its Room 11 choice is still sealed, but its private side is here and needs it"
                            .to_string(),
                    });
                }
                _ => {
                    return Err(RuleError::Illegal {
                        seat: *seat,
                        why: "a sealed play must be opened before the step is complete".to_string(),
                    });
                }
            },
            // The table's word for an away seat fits every step, whatever the seat holds.
            Play::Open(input) | Play::Away(input) if input.is_absence() => {}
            Play::Open(input) | Play::Away(input) => {
                check_input(p, *seat, input)?;
                if let Some(private) = private {
                    check_private(p, private, *seat, input)?;
                }
            }
        }
    }
    Ok(())
}

/// Everything `seat` may submit now.
pub(crate) fn legal_inputs(p: &Public, private: Option<&Private>, seat: Seat) -> Vec<Input> {
    if !awaited(p).contains(seat) {
        return vec![];
    }
    match p.stage {
        Stage::Play { .. } | Stage::Duel { .. } => match private {
            Some(private) if plays_from_deck(p, seat) => {
                private.top().map(Input::Card).into_iter().collect()
            }
            Some(private) => private.hand.kinds().map(Input::Card).collect(),
            None => Card::ALL
                .into_iter()
                .filter(|c| p.unseen(seat, *c) > 0)
                .map(Input::Card)
                .collect(),
        },
        Stage::Wild { .. } => (1..=8).map(Input::Wild).collect(),
        Stage::Pick {
            pick: Pick::Swapper { among, .. } | Pick::Winner { among, .. },
            ..
        } => among.iter().map(Input::Swap).collect(),
        Stage::Track { .. } => p.resolution.winners.iter().map(Input::Track).collect(),
        Stage::LastParty { .. } => vec![Input::KeepDrawn, Input::DiscardDrawn],
        Stage::Deal | Stage::Over => vec![],
    }
}

pub(crate) fn apply(
    p: &mut Public,
    privates: &mut [Option<Private>],
    step: &Step<Input>,
) -> Result<Vec<Event>, RuleError> {
    validate(p, privates, step)?;
    let mut events = Vec::with_capacity(24);
    let mut t = Table::new(p, privates, &mut events);
    match step {
        Step::Chance(draw) => deal(&mut t, draw),
        // `validate` let through only the step the stage waits for.
        Step::Shuffled | Step::Dealt | Step::Revealed(_) => {}
        Step::Inputs(inputs) => {
            for (seat, play) in inputs {
                if play.input() == Some(&Input::Leave) && !t.p.left.contains(*seat) {
                    t.p.left.insert(*seat);
                    t.push(Event::Left { seat: *seat });
                }
            }
            let opened = |i: usize| match inputs.get(i) {
                Some((_, Play::Open(input) | Play::Away(input))) => Some(*input),
                _ => None,
            };
            match t.p.stage {
                Stage::Play { .. } => lay_cards(&mut t, inputs),
                Stage::Wild { .. } => name_wilds(&mut t, inputs),
                Stage::Duel { duel, .. } => duel_round(&mut t, duel, inputs),
                Stage::Pick { pick, chooser } => match opened(0) {
                    Some(Input::Swap(chosen)) => choose_swap(&mut t, pick, chooser, chosen),
                    Some(i) if i.is_absence() => no_swap(&mut t, pick),
                    _ => {}
                },
                Stage::Track { seat } => match opened(0) {
                    Some(Input::Track(target)) => choose_target(&mut t, seat, target),
                    Some(i) if i.is_absence() => {
                        void(&mut t, seat, Void::Away);
                        next_tracker(&mut t, seat.saturating_add(1));
                    }
                    _ => {}
                },
                Stage::LastParty { .. } => last_party(&mut t, inputs),
                Stage::Deal | Stage::Over => {}
            }
            last_one_in(&mut t);
        }
    }
    for seat in 0..t.p.seat_count() {
        t.settle(seat);
    }
    Ok(events)
}

fn deal(t: &mut Table, draw: &[u8; 32]) {
    for seat in 0..t.p.seat_count() {
        let view = &mut t.p.seats[usize::from(seat)];
        *view = SeatView {
            room: 1,
            deck: DECK_SIZE,
            ..SeatView::default()
        };
        if let Some(private) = t.private(seat) {
            private.shuffle_new_deck(draw);
        }
    }
    t.push(Event::Dealt);
    for seat in 0..t.p.seat_count() {
        t.refill(seat);
    }
    begin_turn(t);
}

pub(crate) fn begin_turn(t: &mut Table) {
    t.p.turn = t.p.turn.saturating_add(1);
    t.p.resolution = Resolution::default();
    for slot in &mut t.p.table {
        *slot = Slot::default();
    }
    t.kinds = Default::default();
    t.push(Event::TurnBegins { turn: t.p.turn });
    let mut seats = SeatSet::EMPTY;
    for seat in 0..t.p.seat_count() {
        if t.p.left.contains(seat) {
            continue;
        }
        let view = &mut t.p.seats[usize::from(seat)];
        if view.lose_turn {
            view.lose_turn = false;
            t.push(Event::SitsOut {
                seat,
                why: SitOut::LostTurn,
            });
        } else if can_lay(t.p, seat) {
            seats.insert(seat);
        } else {
            t.push(Event::SitsOut {
                seat,
                why: SitOut::NoCard,
            });
        }
    }
    t.p.stage = Stage::Play { seats };
    if seats.is_empty() && t.empty_turns < EMPTY_TURNS_PER_STEP {
        // Nobody can lay a card: the turn passes at once (its end still matters: Room 8).
        t.empty_turns += 1;
        resolve_cards(t);
    }
}

fn lay_cards(t: &mut Table, inputs: &[(Seat, Play<Input>)]) {
    for (seat, play) in inputs {
        let (seat, Play::Open(Input::Card(card)) | Play::Away(Input::Card(card))) = (*seat, play) else {
            t.push(Event::SitsOut {
                seat: *seat,
                why: SitOut::Away,
            });
            continue;
        };
        let room = view(t.p, seat).room;
        let from_deck = plays_from_deck(t.p, seat);
        if from_deck {
            t.take_top(seat);
        } else {
            t.play_from_hand(seat, *card);
        }
        t.p.table[usize::from(seat)] = Slot {
            card: Some(*card),
            room,
            ..Slot::default()
        };
        t.push(Event::Played {
            seat,
            card: *card,
            room,
            from_deck,
        });
    }
    t.index_cards();
    resolve_cards(t);
}

/// Seats whose card on the table is still live and satisfies `pred`.
#[inline]
fn live_where(p: &Public, pred: impl Fn(Card) -> bool) -> SeatSet {
    SeatSet::from_seats(
        (0..p.seat_count()).filter(|s| p.table[usize::from(*s)].live().is_some_and(&pred)),
    )
}

/// Seats whose `card` is still live on the table.
#[inline]
fn live_of(t: &Table, card: Card) -> SeatSet {
    let mut live = SeatSet::EMPTY;
    for seat in t.kinds[card.index()].iter() {
        if t.p.table[usize::from(seat)].status == Status::Live {
            live.insert(seat);
        }
    }
    live
}

#[inline]
fn set_status(t: &mut Table, seat: Seat, status: Status) {
    t.p.table[usize::from(seat)].status = status;
}

fn void(t: &mut Table, seat: Seat, why: Void) {
    let slot = &mut t.p.table[usize::from(seat)];
    slot.status = Status::Void;
    if let Some(card) = slot.card {
        t.push(Event::NoEffect { seat, card, why });
    }
}

/// Moves `seat` `steps` rooms forward (or backward), stopping at Rooms 1 and 12: "you can't
/// bounce off the walls". Returns whether the seat changed rooms.
fn step(t: &mut Table, seat: Seat, steps: u8, why: Move, backward: bool) -> bool {
    let view = &mut t.p.seats[usize::from(seat)];
    let from = view.room;
    let dir = if backward {
        -view.facing.forward()
    } else {
        view.facing.forward()
    };
    let to = (i16::from(from) + i16::from(dir) * i16::from(steps)).clamp(1, 12) as u8;
    view.room = to;
    t.push(Event::Moved {
        seat,
        from,
        to,
        why,
        backward,
    });
    to != from
}

/// A move by the seat's own card (Secret Door, See Ya!, the winning Go!): backward under a
/// Curse!, unless the seat is in Room 1.
fn advance(t: &mut Table, seat: Seat, steps: u8, why: Move) -> bool {
    let mut backward = false;
    if t.p.resolution.curse.is_some() {
        if fx(t.p, view(t.p, seat).room).curse_immune {
            t.push(Event::CurseImmune { seat });
        } else {
            backward = true;
        }
    }
    step(t, seat, steps, why, backward)
}

/// The room behind someone in `room` facing `facing` (the same room at a wall).
#[inline]
pub(crate) fn behind(room: u8, facing: Facing) -> u8 {
    let back = i16::from(room) - i16::from(facing.forward());
    if (1..=12).contains(&back) {
        back as u8
    } else {
        room
    }
}

/// The card sequence up to the Go! cards: Room 6 first ("before the card sequence
/// begins"), then Loot the Bodies!, Dragon ATTACK!!, The Meek Shall Inherit, Curse!, Dragon
/// Sighting, Secret Door and See Ya!. Go WILD! values are asked for after that, when they
/// are first needed, once everyone has seen every card.
fn resolve_cards(t: &mut Table) {
    let n = t.p.seat_count();
    let attrition = t.p.config.attrition;

    // Room 6 (a card played here leaves the turn; a unique one moves its player), and Rooms
    // 2 and 10 (some cards played there are discarded without effect).
    for seat in 0..n {
        let slot = &t.p.table[usize::from(seat)];
        let Some(card) = slot.live() else { continue };
        let played_in = slot.room;
        let room = fx(t.p, played_in);
        if room.special == Special::PuzzleRoom {
            let unique = (0..n)
                .filter(|o| *o != seat)
                .all(|o| t.p.table[usize::from(o)].card != Some(card));
            t.push(Event::PuzzleRoom { seat, card, unique });
            if unique {
                set_status(t, seat, Status::Spent);
                step(t, seat, 1, Move::Puzzle, false);
            } else {
                set_status(t, seat, Status::Void);
            }
        } else if room.voids.contains(&card) {
            void(t, seat, Void::Room(played_in));
        }
    }

    // Loot the Bodies!: discard it and the whole hand, draw five at once (not in Room 8).
    for seat in live_of(t, Card::Loot).iter() {
        set_status(t, seat, Status::Gone);
        t.discard(seat, Card::Loot, attrition == Attrition::Uniqueness);
        t.discard_hand(seat);
        let trapped = fx(t.p, view(t.p, seat).room).special == Special::Trap;
        let drew = if trapped { 0 } else { t.draw(seat, HAND_SIZE) };
        t.push(Event::Looted { seat, drew });
    }

    // Dragon ATTACK!!: one cancels every card in play; two or more cancel each other.
    let attacks = live_of(t, Card::DragonAttack);
    if let (1, Some(dragon)) = (attacks.len(), attacks.first()) {
        set_status(t, dragon, Status::Spent);
        t.push(Event::DragonAttack { seat: dragon });
        for seat in live_where(t.p, |_| true).iter() {
            void(t, seat, Void::DragonAttack(dragon));
        }
    } else {
        for seat in attacks.iter() {
            void(t, seat, Void::Several);
        }
    }

    // The Meek Shall Inherit and Curse!: one is in force; two or more are discarded.
    t.p.resolution.meek = only_one(t, Card::Meek);
    if let Some(seat) = t.p.resolution.meek {
        t.push(Event::Meek { seat });
    }
    t.p.resolution.curse = only_one(t, Card::Curse);
    if let Some(seat) = t.p.resolution.curse {
        t.push(Event::Curse { seat });
    }

    // Dragon Sighting: Go!, Tracking and See Ya! from its room and the room behind are void.
    for seer in live_of(t, Card::DragonSighting).iter() {
        set_status(t, seer, Status::Spent);
        let v = view(t.p, seer);
        let rooms = [v.room, behind(v.room, v.facing)];
        t.push(Event::DragonSighting { seat: seer, rooms });
        let hit = live_where(t.p, |c| {
            c.is_go() || c == Card::Tracking || c == Card::SeeYa
        });
        for seat in hit.iter() {
            if rooms.contains(&t.p.table[usize::from(seat)].room) {
                void(t, seat, Void::DragonSighting(seer));
            }
        }
    }

    // Secret Door: two rooms forward.
    for seat in live_of(t, Card::SecretDoor).iter() {
        set_status(t, seat, Status::Spent);
        advance(t, seat, 2, Move::SecretDoor);
    }

    // See Ya!: one room forward per Go! card in play.
    let go_cards = live_where(t.p, Card::is_go).len() as u8;
    for seat in live_of(t, Card::SeeYa).iter() {
        let moved = go_cards > 0 && advance(t, seat, go_cards, Move::SeeYa { go_cards });
        if moved {
            set_status(t, seat, Status::Spent);
        } else {
            void(t, seat, Void::NobodyMoved);
        }
    }

    let wilds = live_of(t, Card::Wild);
    if wilds.is_empty() {
        resolve_go(t);
    } else {
        t.p.stage = Stage::Wild { seats: wilds };
    }
}

/// The seat whose `card` is in force if exactly one was played; two or more are discarded.
fn only_one(t: &mut Table, card: Card) -> Option<Seat> {
    let played = live_of(t, card);
    if played.len() == 1 {
        let seat = played.first()?;
        set_status(t, seat, Status::Spent);
        Some(seat)
    } else {
        for seat in played.iter() {
            void(t, seat, Void::Several);
        }
        None
    }
}

fn name_wilds(t: &mut Table, inputs: &[(Seat, Play<Input>)]) {
    for (seat, play) in inputs {
        match play {
            Play::Open(Input::Wild(value)) | Play::Away(Input::Wild(value)) => {
                t.p.table[usize::from(*seat)].wild = *value;
                t.push(Event::WildValue {
                    seat: *seat,
                    value: *value,
                });
            }
            // A Go WILD! nobody valued is worth nothing: it goes without effect.
            _ => void(t, *seat, Void::Away),
        }
    }
    resolve_go(t);
}

/// A Go! card's value: printed (or named, for Go WILD!) plus its room's modifier.
fn go_value(p: &Public, slot: &Slot) -> Option<i8> {
    let card = slot.card?;
    let printed = if card == Card::Wild {
        slot.wild
    } else {
        card.go_value()?
    };
    Some(printed as i8 + fx(p, slot.room).go_bonus)
}

/// The Go! cards: the highest wins (the lowest, under The Meek Shall Inherit); equal winning
/// cards all move.
fn resolve_go(t: &mut Table) {
    let meek = t.p.resolution.meek;
    let mut values = [None::<i8>; 8];
    let mut best: Option<i8> = None;
    for (seat, slot) in t.p.table.iter().enumerate() {
        if slot.live().is_some_and(Card::is_go)
            && let Some(value) = go_value(t.p, slot)
        {
            values[seat] = Some(value);
            best = Some(match (best, meek) {
                (None, _) => value,
                (Some(b), Some(_)) => b.min(value),
                (Some(b), None) => b.max(value),
            });
        }
    }
    let Some(best) = best else {
        t.push(Event::NoWinner);
        begin_even_chance(t);
        return;
    };
    let mut winners = SeatSet::EMPTY;
    for (seat, value) in values.iter().enumerate() {
        let Some(value) = value else { continue };
        let won = *value == best;
        if won {
            winners.insert(seat as Seat);
        }
        set_status(
            t,
            seat as Seat,
            if won { Status::Spent } else { Status::Void },
        );
    }
    t.p.resolution.winners = winners;
    t.p.resolution.value = Some(best);
    for seat in winners.iter() {
        let card = t.p.table[usize::from(seat)].card.unwrap_or(Card::Wild);
        t.push(Event::Won {
            seat,
            card,
            value: best,
            meek,
        });
        advance(t, seat, 1, Move::Go);
    }
    begin_even_chance(t);
}

/// Even Chance (on an even winning value) or Odd Reversal (odd): its player swaps rooms with
/// the winner, with duels when either side is tied.
fn begin_even_chance(t: &mut Table) {
    let evens = live_of(t, Card::EvenChance);
    let odds = live_of(t, Card::OddReversal);
    let Some(value) = t.p.resolution.value else {
        for seat in evens.iter().chain(odds.iter()) {
            void(t, seat, Void::NoWinner);
        }
        begin_tracking(t);
        return;
    };
    let (card, wrong) = if value.rem_euclid(2) == 0 {
        (Card::EvenChance, odds)
    } else {
        (Card::OddReversal, evens)
    };
    for seat in wrong.iter() {
        void(t, seat, Void::WrongParity);
    }
    let players = live_of(t, card);
    match (players.len(), players.first()) {
        (0, _) | (_, None) => begin_tracking(t),
        (1, Some(partner)) => partner_found(t, partner),
        _ => start_duel(t, DuelFor::Swapper { card }, players),
    }
}

/// The player of Even Chance / Odd Reversal who changes places is known; now the winner.
fn partner_found(t: &mut Table, partner: Seat) {
    let winners = t.p.resolution.winners;
    match (winners.len(), winners.first()) {
        (1, Some(winner)) => swap(t, partner, winner),
        _ => start_duel(t, DuelFor::Winner { partner }, winners),
    }
}

/// Even Chance / Odd Reversal takes effect: rooms swap, facings stay.
fn swap(t: &mut Table, partner: Seat, winner: Seat) {
    let a = view(t.p, partner).room;
    let b = view(t.p, winner).room;
    if a == b {
        void(t, partner, Void::NobodyMoved);
    } else {
        t.p.seats[usize::from(partner)].room = b;
        t.p.seats[usize::from(winner)].room = a;
        set_status(t, partner, Status::Spent);
        t.push(Event::Moved {
            seat: partner,
            from: a,
            to: b,
            why: Move::Swap { with: winner },
            backward: false,
        });
        t.push(Event::Moved {
            seat: winner,
            from: b,
            to: a,
            why: Move::Swap { with: partner },
            backward: false,
        });
    }
    if let Some(card) = t.p.table[usize::from(partner)].card {
        for seat in live_of(t, card).iter() {
            void(t, seat, Void::NotChosen);
        }
    }
    begin_tracking(t);
}

fn start_duel(t: &mut Table, why: DuelFor, seats: SeatSet) {
    t.push(Event::DuelBegins { seats, why });
    next_round(
        t,
        Duel {
            why,
            alive: seats,
            round: 1,
        },
    );
}

/// Asks the duelists still in for a card; one with nothing to play has lost.
fn next_round(t: &mut Table, duel: Duel) {
    let asked = SeatSet::from_seats(duel.alive.iter().filter(|s| can_lay(t.p, *s)));
    for seat in duel.alive.without(asked).iter() {
        t.push(Event::DuelCard { seat, card: None });
    }
    if asked.is_empty() {
        t.push(Event::DuelNoWinner);
        finish_duel(t, duel.why, None);
    } else {
        t.p.stage = Stage::Duel { duel, seats: asked };
    }
}

/// One round of a duel: "the highest Go! card played wins the duel. If more than one person
/// plays the highest Go! card, the duel continues among only those players. If no players
/// play a Go! card, then everyone loses."
fn duel_round(t: &mut Table, duel: Duel, inputs: &[(Seat, Play<Input>)]) {
    let mut best = 0;
    for (seat, play) in inputs {
        let (seat, Play::Open(Input::Card(card)) | Play::Away(Input::Card(card))) = (*seat, play) else {
            // An away duelist plays nothing, and so loses.
            t.push(Event::DuelCard {
                seat: *seat,
                card: None,
            });
            continue;
        };
        if plays_from_deck(t.p, seat) {
            t.take_top(seat);
        } else {
            t.play_from_hand(seat, *card);
        }
        t.push(Event::DuelCard {
            seat,
            card: Some(*card),
        });
        best = best.max(card.duel_rank());
    }
    let mut top = SeatSet::EMPTY;
    let attrition = t.p.config.attrition;
    for (seat, play) in inputs {
        let (seat, Play::Open(Input::Card(card)) | Play::Away(Input::Card(card))) = (*seat, play) else {
            continue;
        };
        let won = best > 0 && card.duel_rank() == best;
        if won {
            top.insert(seat);
        }
        let dead = match attrition {
            Attrition::None => false,
            Attrition::Survival => !won,
            Attrition::Uniqueness => !card.is_go(),
        };
        t.discard(seat, *card, dead);
    }
    match (top.len(), top.first()) {
        (0, _) | (_, None) => {
            t.push(Event::DuelNoWinner);
            finish_duel(t, duel.why, None);
        }
        (1, Some(winner)) => {
            t.push(Event::DuelWon { seat: winner });
            finish_duel(t, duel.why, Some(winner));
        }
        _ => {
            t.push(Event::DuelTied { seats: top });
            next_round(
                t,
                Duel {
                    alive: top,
                    round: duel.round.saturating_add(1),
                    ..duel
                },
            );
        }
    }
}

fn finish_duel(t: &mut Table, why: DuelFor, winner: Option<Seat>) {
    match why {
        DuelFor::Swapper { card } => match winner {
            Some(chooser) => {
                let among = live_of(t, card);
                t.p.stage = Stage::Pick {
                    pick: Pick::Swapper { card, among },
                    chooser,
                };
            }
            None => {
                // "If there is no winner, then no one moves."
                for seat in live_of(t, card).iter() {
                    void(t, seat, Void::NobodyMoved);
                }
                begin_tracking(t);
            }
        },
        DuelFor::Winner { partner } => {
            // "If everyone loses, then the person who played Even Chance gets to pick."
            let among = t.p.resolution.winners;
            t.p.stage = Stage::Pick {
                pick: Pick::Winner { partner, among },
                chooser: winner.unwrap_or(partner),
            };
        }
        DuelFor::Lead { leaders } => lead_duel_over(t, leaders, winner),
    }
}

/// The chooser was away: nobody changes places ("if there is no winner, then no one
/// moves"), and the Even Chance / Odd Reversal cards waiting on the choice go without
/// effect.
fn no_swap(t: &mut Table, pick: Pick) {
    let card = match pick {
        Pick::Swapper { card, .. } => Some(card),
        Pick::Winner { partner, .. } => t.p.table[usize::from(partner)].live(),
    };
    if let Some(card) = card {
        for seat in live_of(t, card).iter() {
            void(t, seat, Void::Away);
        }
    }
    begin_tracking(t);
}

/// Removal: once every seat but one has left the race, the one still in wins at once (the
/// others forfeited). Left seats never win otherwise: see [`after_refills`].
fn last_one_in(t: &mut Table) {
    if t.p.stage == Stage::Over || t.p.left.is_empty() {
        return;
    }
    let all = SeatSet::from_seats(0..t.p.seat_count());
    let still_in = all.without(t.p.left);
    if still_in.len() == 1 {
        t.p.winners = still_in;
        t.p.stage = Stage::Over;
        t.push(Event::Winners { seats: still_in });
    }
}

fn choose_swap(t: &mut Table, pick: Pick, chooser: Seat, chosen: Seat) {
    match pick {
        Pick::Swapper { .. } => {
            t.push(Event::Chose {
                seat: chooser,
                chosen,
                why: Choice::Swapper,
            });
            partner_found(t, chosen);
        }
        Pick::Winner { partner, .. } => {
            t.push(Event::Chose {
                seat: chooser,
                chosen,
                why: Choice::Winner,
            });
            swap(t, partner, chosen);
        }
    }
}

/// Where a Tracking player ends up following `target`: one room closer (two from Room 3,
/// alone), staying put if already in the target's room.
pub(crate) fn tracking_destination(p: &Public, seat: Seat, target: Seat) -> u8 {
    let here = view(p, seat).room;
    let there = view(p, target).room;
    let stride = if p.table[usize::from(seat)].overshoot {
        2
    } else {
        1
    };
    match there.cmp(&here) {
        std::cmp::Ordering::Equal => here,
        std::cmp::Ordering::Greater => (here + stride).min(12),
        std::cmp::Ordering::Less => here.saturating_sub(stride).max(1),
    }
}

/// Tracking: one room closer to the player of the winning Go! (a choice if several won and it
/// matters). All Tracking cards move together once every choice is made.
fn begin_tracking(t: &mut Table) {
    let trackers = live_of(t, Card::Tracking);
    if trackers.is_empty() {
        end_turn(t);
        return;
    }
    if t.p.resolution.winners.is_empty() {
        for seat in trackers.iter() {
            void(t, seat, Void::NoWinner);
        }
        end_turn(t);
        return;
    }
    for seat in trackers.iter() {
        let room = view(t.p, seat).room;
        let alone = (0..t.p.seat_count())
            .all(|o| o == seat || t.p.left.contains(o) || view(t.p, o).room != room);
        t.p.table[usize::from(seat)].overshoot =
            alone && fx(t.p, room).special == Special::HiddenEntrance;
    }
    next_tracker(t, 0);
}

fn next_tracker(t: &mut Table, from: Seat) {
    let winners = t.p.resolution.winners;
    for seat in from..t.p.seat_count() {
        let slot = &t.p.table[usize::from(seat)];
        if slot.live() != Some(Card::Tracking) || slot.target.is_some() {
            continue;
        }
        let mut dests = winners.iter().map(|w| tracking_destination(t.p, seat, w));
        let first = dests.next();
        if dests.all(|d| Some(d) == first) {
            t.p.table[usize::from(seat)].target = winners.first();
        } else {
            t.p.stage = Stage::Track { seat };
            return;
        }
    }
    resolve_tracking(t);
}

fn choose_target(t: &mut Table, seat: Seat, target: Seat) {
    t.p.table[usize::from(seat)].target = Some(target);
    t.push(Event::Chose {
        seat,
        chosen: target,
        why: Choice::Target,
    });
    next_tracker(t, seat.saturating_add(1));
}

fn resolve_tracking(t: &mut Table) {
    let trackers = live_of(t, Card::Tracking);
    let dests: Vec<(Seat, Seat, u8)> = trackers
        .iter()
        .filter_map(|s| {
            let target = t.p.table[usize::from(s)].target?;
            Some((s, target, tracking_destination(t.p, s, target)))
        })
        .collect();
    for (seat, target, to) in dests {
        let from = view(t.p, seat).room;
        if to == from {
            void(t, seat, Void::NobodyMoved);
        } else {
            t.p.seats[usize::from(seat)].room = to;
            set_status(t, seat, Status::Spent);
            t.push(Event::Moved {
                seat,
                from,
                to,
                why: Move::Tracking { target },
                backward: false,
            });
        }
    }
    end_turn(t);
}

/// The end of the turn: cards leave the table, Room 8, the Hoard's resurrection, refills
/// (with Room 11's secret choice).
fn end_turn(t: &mut Table) {
    let n = t.p.seat_count();
    let attrition = t.p.config.attrition;
    for seat in 0..n {
        let slot = &mut t.p.table[usize::from(seat)];
        let Some(card) = slot.on_table() else {
            continue;
        };
        let dead = match attrition {
            Attrition::None => false,
            Attrition::Survival => slot.status != Status::Spent,
            Attrition::Uniqueness => !card.is_go(),
        };
        slot.status = Status::Gone;
        t.discard(seat, card, dead);
    }

    // Room 8: out of cards and still here: forward anyway, and lose the next turn.
    for seat in 0..n {
        let v = view(t.p, seat);
        if !t.p.left.contains(seat) && v.hand == 0 && fx(t.p, v.room).special == Special::Trap {
            step(t, seat, 1, Move::Trap, false);
            t.p.seats[usize::from(seat)].lose_turn = true;
            t.push(Event::LosesTurn {
                seat,
                why: Lose::Trap,
            });
        }
    }

    // Battle of Attrition: first reaching Room 12 brings the dead back (hand excluded).
    if attrition != Attrition::None {
        for seat in 0..n {
            let v = view(t.p, seat);
            if v.room == 12 && v.facing == Facing::In {
                let cards = t.gather_deck(seat, false, true);
                t.push(Event::Resurrected { seat, cards });
            }
        }
    }

    let mut party = SeatSet::EMPTY;
    for seat in 0..n {
        let v = view(t.p, seat);
        let special = fx(t.p, v.room).special;
        // A seat that left draws no more: it will never play again.
        if special == Special::Trap || v.hand >= HAND_SIZE || t.p.left.contains(seat) {
            continue;
        }
        if special == Special::LastParty {
            if let Some(card) = t.take_top(seat) {
                t.p.seats[usize::from(seat)].hand += 1;
                if let Some(private) = t.private(seat) {
                    private.drawn = card;
                }
                party.insert(seat);
                t.push(Event::FirstCard { seat });
            }
        } else {
            t.refill(seat);
        }
    }
    if party.is_empty() {
        after_refills(t);
    } else {
        t.p.stage = Stage::LastParty { seats: party };
    }
}

fn last_party(t: &mut Table, inputs: &[(Seat, Play<Input>)]) {
    for (seat, play) in inputs {
        let seat = *seat;
        if let (Play::Open(input) | Play::Away(input), Some(private)) = (play, t.private(seat)) {
            match input {
                Input::DiscardDrawn => Table::discard_first_card(private),
                _ => {
                    if let Some(card) = private.drawn.take() {
                        private.hand.add(card);
                    }
                }
            }
        }
        t.refill(seat);
    }
    after_refills(t);
}

/// Reversal at the Hoard, the win check, and This Is My Room!'s duel between turns.
fn after_refills(t: &mut Table) {
    let n = t.p.seat_count();
    for seat in 0..n {
        let v = &mut t.p.seats[usize::from(seat)];
        if v.room == 12 && v.facing == Facing::In {
            v.facing = Facing::Out;
            t.push(Event::Reversed { seat });
        }
    }
    let shortest = t.p.config.length == Length::Shortest;
    let winners = SeatSet::from_seats((0..n).filter(|s| !t.p.left.contains(*s)).filter(|s| {
        let v = view(t.p, *s);
        if shortest {
            v.room == 12
        } else {
            v.room == 1 && v.facing == Facing::Out
        }
    }));
    if !winners.is_empty() {
        t.p.winners = winners;
        t.p.stage = Stage::Over;
        t.push(Event::Winners { seats: winners });
        return;
    }
    if t.p.config.this_is_my_room {
        let racing = || (0..n).filter(|s| !t.p.left.contains(*s));
        let best = racing().map(|s| view(t.p, s).progress()).max().unwrap_or(0);
        let leaders = SeatSet::from_seats(racing().filter(|s| view(t.p, *s).progress() == best));
        // A duel whose losers could not move back (everyone still in the Tavern) is not fought.
        let can_move_back = leaders.first().is_some_and(|s| {
            let v = view(t.p, s);
            behind(v.room, v.facing) != v.room
        });
        if leaders.len() >= 2 && can_move_back {
            start_duel(t, DuelFor::Lead { leaders }, leaders);
            return;
        }
    }
    after_lead(t);
}

/// This Is My Room!: "The winner of the duel stays put; the others have to move back one
/// room. If no one wins, then all the leaders move back one room." Duelists then refill.
fn lead_duel_over(t: &mut Table, leaders: SeatSet, winner: Option<Seat>) {
    let losers = match winner {
        Some(w) => leaders.without(SeatSet::single(w)),
        None => leaders,
    };
    for seat in losers.iter() {
        step(t, seat, 1, Move::Lead, true);
    }
    for seat in leaders.iter() {
        if fx(t.p, view(t.p, seat).room).special != Special::Trap {
            t.refill(seat);
        }
    }
    after_lead(t);
}

/// Survival of the Fittest's five-card rule, then the next turn.
fn after_lead(t: &mut Table) {
    if t.p.config.attrition == Attrition::Survival {
        for seat in 0..t.p.seat_count() {
            let v = view(t.p, seat);
            if t.p.left.contains(seat) || DECK_SIZE.saturating_sub(v.dead.len()) > HAND_SIZE {
                continue;
            }
            let to = if v.facing == Facing::In { 1 } else { 12 };
            let from = v.room;
            t.push(Event::DownToFive { seat, to });
            let v = &mut t.p.seats[usize::from(seat)];
            v.room = to;
            v.lose_turn = true;
            if from != to {
                t.push(Event::Moved {
                    seat,
                    from,
                    to,
                    why: Move::Survival,
                    backward: false,
                });
            }
            t.push(Event::LosesTurn {
                seat,
                why: Lose::Survival,
            });
            t.gather_deck(seat, true, true);
            t.refill(seat);
        }
    }
    begin_turn(t);
}
