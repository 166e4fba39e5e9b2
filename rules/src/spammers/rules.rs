//! SPAMMERS' steps, as the rules allow them: two shared hidden decks (Lists and Actions), the
//! Unwashed Masses, each player's Scams, Hardware and Proprietary Lists, turns of up to three
//! actions, the Mailing roll with its answers "at any time", and the win at the beginning of a
//! turn, each move checked with a reason a player reads and carried out on the table.

use super::state::*;
use super::cards::{self, action};
use super::data::{ActionKind, Continuous, Effect, Timing};
use crate::{CardId, Handle, Outcome, Pending, Play, RuleError, Seal, Seat, Step, rng};
use std::collections::BTreeMap;

pub(super) fn new_turn(seat: Seat, area: &Area) -> Turn {
    Turn {
        seat,
        actions: ACTIONS_PER_TURN,
        mailings: 0,
        mailings_allowed: 1 + u8::from(area.has(|h| *h == Continuous::ExtraMailing)),
    }
}

/// The next seat's turn begins, unless it has won.
pub(super) fn begin_turn(public: &mut Public, seat: Seat, events: &mut Vec<Event>) {
    public.turns += 1;
    let area = &public.areas[usize::from(seat)];
    if area.wins() {
        let (total, best) = area.ratings();
        events.push(Event::Won { seat, total, best });
        let scores = public.areas.iter().map(|a| a.ratings().0 as i32).collect();
        public.phase = Phase::Over(Outcome {
            winners: vec![seat],
            scores,
        });
        return;
    }
    events.push(Event::TurnBegins { seat });
    public.phase = Phase::Turn(new_turn(seat, area));
}

/// One action used: the turn goes on, or the next player's begins. The Lists are settled
/// first, so that a List the action pushed over its limit leaves in the action's turn.
pub(super) fn after_action(public: &mut Public, mut turn: Turn, events: &mut Vec<Event>) {
    settle_lists(public, events);
    turn.actions = turn.actions.saturating_sub(1);
    if turn.actions == 0 {
        let next = (turn.seat + 1) % public.config.seats;
        begin_turn(public, next, events);
    } else {
        public.phase = Phase::Turn(turn);
    }
}

/// A List gained a Gruntle or more: it says so, and every List is settled.
pub(super) fn gruntled(public: &mut Public, at: ListRef, events: &mut Vec<Event>) {
    let Some(stack) = public.stack(at) else {
        return;
    };
    events.push(Event::Gruntled {
        list: at,
        gruntles: stack.gruntles,
    });
    settle_lists(public, events);
}

pub(super) fn take(public: &mut Public, privates: &mut [Option<Private>], seat: Seat, card: &Handle) {
    public.areas[usize::from(seat)].hand.retain(|h| h != card);
    if let Some(Some(p)) = privates.get_mut(usize::from(seat)) {
        p.faces.remove(card);
    }
}

pub(super) fn check_face(
    privates: &[Option<Private>],
    seat: Seat,
    card: &Handle,
    face: CardId,
) -> Result<(), RuleError> {
    match privates.get(usize::from(seat)) {
        Some(Some(p)) if p.face(card) != Some(face) => Err(RuleError::PrivateMismatch {
            seat,
            why: "it showed a card it does not hold as such".into(),
        }),
        _ => Ok(()),
    }
}

/// Who may answer a Mailing roll: every player holding a card, in turn order after the
/// one who acted last, that one last.
pub(super) fn answerers(public: &Public, after: Seat) -> Vec<Seat> {
    let n = public.config.seats;
    (1..=n)
        .map(|k| (after + k) % n)
        .filter(|s| !public.areas[usize::from(*s)].hand.is_empty())
        .collect()
}

/// The Mailing's roll stands: the Scam gains, the List is gruntled.
pub(super) fn resolve(public: &mut Public, turn: Turn, mailing: Mailing, events: &mut Vec<Event>) {
    let t = mailing.target_number();
    let roll = i32::from(mailing.roll);
    let gained = if roll <= t - 4 {
        2
    } else if roll <= t {
        1
    } else {
        0
    };
    let area = &mut public.areas[usize::from(mailing.seat)];
    let scam_card = area
        .scams
        .get(usize::from(mailing.scam))
        .map_or(0, |s| s.card);
    if let Some(scam) = area.scams.get_mut(usize::from(mailing.scam)) {
        scam.rating = scam.rating.saturating_add(gained);
    }
    events.push(Event::MailingResult {
        seat: mailing.seat,
        scam: scam_card,
        gained,
        target_number: t,
        roll: mailing.roll,
    });
    public.action_discard.push(mailing.card);
    // The List gets its Gruntle where it is now (an answer may have moved it, or sent it
    // to the discards, which ends its part).
    if let Some(at) = public.locate(mailing.target_card) {
        if let Some(stack) = public.stack_mut(at) {
            stack.gruntles = stack.gruntles.saturating_add(1);
        }
        gruntled(public, at, events);
    }
    after_action(public, turn, events);
}

/// A Special Effect, already checked, played by `seat`.
pub(super) fn special(
    public: &mut Public,
    seat: Seat,
    effect: Effect,
    aim: Aim,
    turn: &mut Turn,
    mailing: Option<&mut Mailing>,
    events: &mut Vec<Event>,
) -> u8 {
    let mut draws = 0;
    match (effect, aim) {
        (Effect::Rating(n), Aim::Scam { scam, up }) => {
            if let Some(s) = public
                .areas
                .get_mut(usize::from(scam.seat))
                .and_then(|a| a.scams.get_mut(usize::from(scam.index)))
            {
                let floor = s.initial();
                s.rating = if up {
                    s.rating.saturating_add(n)
                } else {
                    s.rating.saturating_sub(n).max(floor)
                };
            }
        }
        (Effect::Target(n), Aim::Roll { up }) => {
            if let Some(m) = mailing {
                m.adjust += if up { i32::from(n) } else { -i32::from(n) };
            }
        }
        (Effect::AddSpecialty(sp), Aim::List(at)) => {
            if let Some(s) = public.stack_mut(at)
                && !s.specialties.contains(&sp)
            {
                s.specialties.push(sp);
            }
        }
        (Effect::RemoveSpecialty, Aim::Specialty { list, specialty }) => {
            if let Some(s) = public.stack_mut(list) {
                s.specialties.retain(|x| *x != specialty);
            }
        }
        (Effect::Gruntle(n), Aim::List(at)) => {
            if let Some(s) = public.stack_mut(at) {
                s.gruntles = s.gruntles.saturating_add(n);
            }
            gruntled(public, at, events);
        }
        (Effect::Ungruntle(n), Aim::List(at)) => {
            if let Some(s) = public.stack_mut(at) {
                s.gruntles = s.gruntles.saturating_sub(n);
            }
        }
        (Effect::Draw(n), _) => draws = n,
        (Effect::Harvest, Aim::List(ListRef::Masses(i)))
            if usize::from(i) < public.masses.len() =>
        {
            let stack = public.masses.remove(usize::from(i));
            public.areas[usize::from(seat)].lists.push(stack);
        }
        (Effect::Crash, Aim::Hardware { seat: s, index }) => {
            let area = &mut public.areas[usize::from(s)];
            if usize::from(index) < area.hardware.len() {
                let card = area.hardware.remove(usize::from(index));
                public.action_discard.push(card);
                events.push(Event::HardwareCrashed { seat: s, card });
            }
        }
        (Effect::ExtraMailing, _) => turn.mailings_allowed += 1,
        _ => {}
    }
    draws
}

/// Whether `aim` fits `effect` on this table (for `seat`, with a Mailing rolled or not).
pub(super) fn aim_ok(public: &Public, effect: Effect, aim: &Aim, in_window: bool) -> bool {
    match (effect, aim) {
        (Effect::Rating(_), Aim::Scam { scam, .. }) => public.scam(*scam).is_some(),
        (Effect::Target(_), Aim::Roll { .. }) => in_window,
        (Effect::AddSpecialty(sp), Aim::List(at)) => public
            .stack(*at)
            .is_some_and(|s| !s.specialties.contains(&sp)),
        (Effect::RemoveSpecialty, Aim::Specialty { list, specialty }) => public
            .stack(*list)
            .is_some_and(|s| s.specialties.contains(specialty)),
        (Effect::Gruntle(_) | Effect::Ungruntle(_), Aim::List(at)) => {
            public.stack(*at).is_some()
        }
        (Effect::Draw(_) | Effect::ExtraMailing, Aim::None) => true,
        (Effect::Harvest, Aim::List(ListRef::Masses(i))) => {
            usize::from(*i) < public.masses.len()
        }
        (Effect::Crash, Aim::Hardware { seat, index }) => public
            .areas
            .get(usize::from(*seat))
            .is_some_and(|a| usize::from(*index) < a.hardware.len()),
        _ => false,
    }
}

/// Every aim an effect could take now.
pub(super) fn aims(public: &Public, effect: Effect, in_window: bool) -> Vec<Aim> {
    let mut out = Vec::new();
    match effect {
        Effect::Rating(_) => {
            for (s, area) in public.areas.iter().enumerate() {
                for index in 0..area.scams.len() as u8 {
                    for up in [true, false] {
                        out.push(Aim::Scam {
                            scam: ScamRef {
                                seat: s as Seat,
                                index,
                            },
                            up,
                        });
                    }
                }
            }
        }
        Effect::Target(_) => {
            if in_window {
                out.extend([Aim::Roll { up: true }, Aim::Roll { up: false }]);
            }
        }
        Effect::AddSpecialty(_) | Effect::Gruntle(_) | Effect::Ungruntle(_) => {
            out.extend(public.all_lists().into_iter().map(Aim::List));
        }
        Effect::Harvest => {
            out.extend((0..public.masses.len() as u8).map(|i| Aim::List(ListRef::Masses(i))));
        }
        Effect::RemoveSpecialty => {
            for at in public.all_lists() {
                if let Some(s) = public.stack(at) {
                    out.extend(s.specialties.iter().map(|sp| Aim::Specialty {
                        list: at,
                        specialty: *sp,
                    }));
                }
            }
        }
        Effect::Crash => {
            for (s, area) in public.areas.iter().enumerate() {
                out.extend((0..area.hardware.len() as u8).map(|index| Aim::Hardware {
                    seat: s as Seat,
                    index,
                }));
            }
        }
        // Drawing and mailing again belong to a player's own turn.
        Effect::Draw(_) | Effect::ExtraMailing => {
            if !in_window {
                out.push(Aim::None);
            }
        }
    }
    out.retain(|a| aim_ok(public, effect, a, in_window));
    out
}

/// Every way `seat` may play a card of `held` (the cards whose faces are known) on its
/// turn: a Scam, a Hardware, a Mailing for its Mailing Effect or its Special Effect.
pub(super) fn plays(public: &Public, seat: Seat, turn: &Turn, held: &[(Handle, CardId)]) -> Vec<Input> {
    let area = &public.areas[usize::from(seat)];
    let mut out = Vec::new();
    for (card, face) in held {
        match action(*face).kind {
            ActionKind::Scam { .. } if area.scams.len() < MAX_SCAMS => {
                out.push(Input::PlayScam {
                    card: *card,
                    face: *face,
                });
            }
            ActionKind::Hardware(_) => out.push(Input::PlayHardware {
                card: *card,
                face: *face,
            }),
            ActionKind::Mailing { effect, .. } => {
                if turn.mailings < turn.mailings_allowed {
                    for scam in 0..area.scams.len() as u8 {
                        for target in public.mailable(seat) {
                            out.push(Input::Mail {
                                card: *card,
                                face: *face,
                                scam,
                                target,
                            });
                        }
                    }
                }
                for aim in aims(public, effect, false) {
                    out.push(Input::Special {
                        card: *card,
                        face: *face,
                        aim,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// A draw of an Action card: reshuffle the discards first if the deck is out.
pub(super) fn draw_phase(public: &Public) -> Pending {
    let Phase::DrawAction { turn, count } = &public.phase else {
        return Pending::Over(Outcome::default());
    };
    if public.actions.left() == 0 {
        return Pending::Shuffle {
            deck: ACTION_DECK,
            cards: public.action_discard.clone(),
        };
    }
    Pending::Deal {
        to: turn.seat,
        cards: public.actions.peek(usize::from(*count)),
    }
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
        (Phase::ShuffleLists, Step::Shuffled) => {
            let len = cards::list_deck().len();
            public.lists.shuffled(len);
            events.push(Event::Shuffled {
                deck: LIST_DECK,
                cards: len as u16,
            });
            public.phase = Phase::ShuffleActions;
        }
        (Phase::ShuffleActions, Step::Shuffled) => {
            let len = cards::action_deck().len();
            public.actions.shuffled(len);
            events.push(Event::Shuffled {
                deck: ACTION_DECK,
                cards: len as u16,
            });
            public.phase = Phase::DealLists { seat: 0 };
        }
        (Phase::DealLists { seat }, Step::Dealt) => {
            let dealt = public.lists.take(3);
            events.push(Event::Dealt {
                seat,
                deck: LIST_DECK,
                cards: dealt.len() as u8,
            });
            public.areas[usize::from(seat)].hand.extend(dealt);
            public.phase = if seat + 1 < n {
                Phase::DealLists { seat: seat + 1 }
            } else {
                Phase::DealActions { seat: 0 }
            };
        }
        (Phase::DealActions { seat }, Step::Dealt) => {
            let dealt = public.actions.take(6);
            events.push(Event::Dealt {
                seat,
                deck: ACTION_DECK,
                cards: dealt.len() as u8,
            });
            public.areas[usize::from(seat)].hand.extend(dealt);
            public.phase = if seat + 1 < n {
                Phase::DealActions { seat: seat + 1 }
            } else {
                Phase::Choose
            };
        }
        (Phase::Choose, Step::Inputs(plays)) => {
            if plays.len() != usize::from(n)
                || plays
                    .iter()
                    .enumerate()
                    .any(|(i, (s, _))| usize::from(*s) != i)
            {
                return Err(RuleError::WrongStep {
                    expected: "every seat's choice of List".into(),
                });
            }
            for (seat, play) in plays {
                let Some(input) = play.input() else {
                    return Err(RuleError::WrongStep {
                        expected: "every choice opened".into(),
                    });
                };
                if let (Play::Away(_), Input::Abstain) = (play, input) {
                    // The removed player's Lists stay face down in a hand no one plays.
                    if let Some(Some(p)) = privates.get_mut(usize::from(*seat)) {
                        p.dealt_lists.clear();
                    }
                    events.push(Event::Abstained { seat: *seat });
                    continue;
                }
                check_input(public, *seat, input)?;
                let Input::Choose { masses, keep } = input else {
                    return Err(RuleError::illegal(*seat, "it must choose a List for the Masses"));
                };
                for (h, f) in std::iter::once(masses).chain(keep) {
                    check_face(privates, *seat, h, *f)?;
                }
                for (h, _) in std::iter::once(masses).chain(keep) {
                    take(public, privates, *seat, h);
                }
                if let Some(Some(p)) = privates.get_mut(usize::from(*seat)) {
                    p.dealt_lists.clear();
                }
                public.masses.push(Stack::new(masses.1));
                public.areas[usize::from(*seat)]
                    .lists
                    .extend(keep.iter().map(|(_, f)| Stack::new(*f)));
                events.push(Event::Chose {
                    seat: *seat,
                    masses: masses.1,
                    kept: keep.iter().map(|(_, f)| *f).collect(),
                });
            }
            public.phase = Phase::Masses;
        }
        (Phase::Masses, Step::Revealed(faces)) => {
            let taken = public.lists.take(usize::from(n));
            if taken.len() != faces.len() {
                return Err(RuleError::WrongStep {
                    expected: format!("{} faces", taken.len()),
                });
            }
            for f in faces {
                public.masses.push(Stack::new(*f));
                events.push(Event::ToMasses { card: *f });
            }
            public.phase = Phase::First;
        }
        (Phase::First, Step::Chance(draw)) => {
            public.first =
                rng::below(&mut rng::from_seed(draw, "spammers first"), u32::from(n)) as Seat;
            events.push(Event::First { seat: public.first });
            begin_turn(public, public.first, &mut events);
        }
        (Phase::DrawAction { .. }, Step::Shuffled) => {
            let pile = std::mem::take(&mut public.action_discard);
            public.actions.shuffled(pile.len());
            events.push(Event::Shuffled {
                deck: ACTION_DECK,
                cards: pile.len() as u16,
            });
            settle_draw(public, &mut events);
        }
        (Phase::DrawAction { turn, count }, Step::Dealt) => {
            let dealt = public.actions.take(usize::from(count));
            events.push(Event::Dealt {
                seat: turn.seat,
                deck: ACTION_DECK,
                cards: dealt.len() as u8,
            });
            let got = dealt.len() as u8;
            public.areas[usize::from(turn.seat)].hand.extend(dealt);
            public.phase = Phase::DrawAction {
                turn,
                count: count.saturating_sub(got),
            };
            settle_draw(public, &mut events);
        }
        (Phase::DrawList { .. }, Step::Shuffled) => {
            let pile = std::mem::take(&mut public.list_discard);
            public.lists.shuffled(pile.len());
            events.push(Event::Shuffled {
                deck: LIST_DECK,
                cards: pile.len() as u16,
            });
            if public.lists.left() == 0
                && let Phase::DrawList { turn } = public.phase.clone()
            {
                // No List anywhere to draw: the action is spent for nothing.
                after_action(public, turn, &mut events);
            }
        }
        (Phase::DrawList { turn }, Step::Revealed(faces)) => {
            public.lists.take(1);
            let Some(card) = faces.first() else {
                return Err(RuleError::WrongStep {
                    expected: "one List's face".into(),
                });
            };
            public.phase = Phase::ListDrawn { turn, card: *card };
        }
        (Phase::Rolling { turn, mut mailing }, Step::Chance(draw)) => {
            mailing.roll = rng::roll(&mut rng::from_seed(draw, "spammers mailing"), 6) as u8;
            public.last_roll = Some(mailing.roll);
            events.push(Event::Rolled {
                seat: mailing.seat,
                roll: mailing.roll,
                target_number: mailing.target_number(),
            });
            open_window(public, turn, mailing, turn_seat_of(public), &mut events);
        }
        (
            Phase::Window {
                mut turn,
                mut mailing,
                seats,
            },
            Step::Inputs(plays),
        ) => {
            let mut expected = seats.clone();
            expected.sort_unstable();
            if !plays.iter().map(|(s, _)| s).eq(expected.iter()) {
                return Err(RuleError::WrongStep {
                    expected: format!("the answers of seats {seats:?}"),
                });
            }
            let mut answers = Vec::new();
            for (s, play) in plays {
                let Some(input) = play.input() else { continue };
                check_input(public, *s, input)?;
                if let Input::Special { card, face, aim } = input {
                    check_face(privates, *s, card, *face)?;
                    answers.push((*s, *card, *face, *aim));
                }
            }
            answers.sort_by_key(|(s, ..)| seats.iter().position(|x| x == s));
            match answers.split_first() {
                None => resolve(public, turn, mailing, &mut events),
                Some((&(s, card, face, aim), late)) => {
                    for &(seat, _, card, _) in late {
                        events.push(Event::TooLate { seat, card });
                    }
                    take(public, privates, s, &card);
                    events.push(Event::Special {
                        seat: s,
                        card: face,
                        aim,
                    });
                    if let ActionKind::Mailing { effect, .. } = action(face).kind {
                        // Draws and extra Mailings are never answers (see `aims`).
                        special(
                            public,
                            s,
                            effect,
                            aim,
                            &mut turn,
                            Some(&mut mailing),
                            &mut events,
                        );
                    }
                    public.action_discard.push(face);
                    if let Some(at) = public.locate(mailing.target_card) {
                        mailing.target = at;
                    }
                    open_window(public, turn, mailing, s, &mut events);
                }
            }
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
            check_input(public, seat, input)?;
            turn_input(public, privates, phase, seat, input, &mut events)?;
        }
        _ => {
            return Err(RuleError::WrongStep {
                expected: format!("{:?}", pending(public)),
            });
        }
    }
    Ok(events)
}

/// The Gruntle limits, for every List on the table, after any change of Size, Gruntles or
/// owner: a Proprietary List with Gruntles at half its printed Size or more (counted half,
/// rounded down, behind its owner's Firewall) loses them and moves to the Unwashed Masses; a
/// Masses List with Gruntles equal to its printed Size goes to the discards. The order is
/// fixed, so every device moves the same Lists to the same places: seats in order, each
/// one's Lists in order, then the Masses in order.
pub(super) fn settle_lists(public: &mut Public, events: &mut Vec<Event>) {
    for (seat, area) in public.areas.iter_mut().enumerate() {
        let firewall = area.has(|h| *h == Continuous::Firewall);
        let mut index = 0;
        while index < area.lists.len() {
            let stack = &area.lists[index];
            let counted = if firewall {
                stack.gruntles / 2
            } else {
                stack.gruntles
            };
            if u32::from(counted) * 2 >= u32::from(stack.printed()) {
                let mut moved = area.lists.remove(index);
                moved.gruntles = 0;
                events.push(Event::ListFled {
                    seat: seat as Seat,
                    cards: moved.cards.clone(),
                });
                public.masses.push(moved);
            } else {
                index += 1;
            }
        }
    }
    let mut index = 0;
    while index < public.masses.len() {
        let stack = &public.masses[index];
        if stack.gruntles >= stack.printed() {
            let gone = public.masses.remove(index);
            events.push(Event::ListDiscarded {
                cards: gone.cards.clone(),
            });
            public.list_discard.extend(gone.cards);
        } else {
            index += 1;
        }
    }
    // A Mailing under way follows its List to where it is now.
    let target_card = match &public.phase {
        Phase::Rolling { mailing, .. } | Phase::Window { mailing, .. } => Some(mailing.target_card),
        _ => None,
    };
    if let Some(at) = target_card.and_then(|card| public.locate(card))
        && let Phase::Rolling { mailing, .. } | Phase::Window { mailing, .. } = &mut public.phase
    {
        mailing.target = at;
    }
}

pub(super) fn turn_seat_of(public: &Public) -> Seat {
    match &public.phase {
        Phase::Rolling { turn, .. } | Phase::Turn(turn) => turn.seat,
        _ => 0,
    }
}

/// A window after the roll (or after an answer): every player holding a card may answer.
pub(super) fn open_window(
    public: &mut Public,
    turn: Turn,
    mailing: Mailing,
    after: Seat,
    events: &mut Vec<Event>,
) {
    let seats = answerers(public, after);
    if seats.is_empty() {
        resolve(public, turn, mailing, events);
    } else {
        public.phase = Phase::Window {
            turn,
            mailing,
            seats,
        };
    }
}

/// Moves on from an Action draw that is done: all drawn, the hand full, or no card left.
pub(super) fn settle_draw(public: &mut Public, events: &mut Vec<Event>) {
    let Phase::DrawAction { turn, count } = public.phase.clone() else {
        return;
    };
    let area = &public.areas[usize::from(turn.seat)];
    let room = area.hand_limit().saturating_sub(area.hand.len());
    let nothing = public.actions.left() == 0 && public.action_discard.is_empty();
    if count == 0 || room == 0 || nothing {
        after_action(public, turn, events);
    } else if usize::from(count) > room {
        public.phase = Phase::DrawAction {
            turn,
            count: room as u8,
        };
    }
}

/// A List is drawn, unless there is none in the deck or the discards (the action is spent).
pub(super) fn draw_list(public: &mut Public, turn: Turn, events: &mut Vec<Event>) {
    if public.lists.left() == 0 && public.list_discard.is_empty() {
        after_action(public, turn, events);
    } else {
        public.phase = Phase::DrawList { turn };
    }
}

/// One checked input on the seat's own turn.
pub(super) fn turn_input(
    public: &mut Public,
    privates: &mut [Option<Private>],
    phase: Phase,
    seat: Seat,
    input: &Input,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let i = usize::from(seat);
    match (phase, input) {
        (Phase::Turn(turn), Input::EndTurn) => {
            let next = (turn.seat + 1) % public.config.seats;
            begin_turn(public, next, events);
        }
        (Phase::Turn(turn), Input::DrawAction) => {
            public.phase = Phase::DrawAction { turn, count: 1 };
            settle_draw(public, events);
        }
        (Phase::Turn(turn), Input::DrawList) => draw_list(public, turn, events),
        (Phase::Turn(turn), Input::DiscardScam { scam, list }) => {
            let card = public.areas[i].scams.remove(usize::from(*scam)).card;
            public.action_discard.push(card);
            events.push(Event::ScamDiscarded { seat, card });
            if *list {
                draw_list(public, turn, events);
            } else {
                public.phase = Phase::DrawAction { turn, count: 1 };
                settle_draw(public, events);
            }
        }
        (Phase::Turn(turn), Input::DiscardHeldScam { card, face }) => {
            check_face(privates, seat, card, *face)?;
            // The other seats see the Scam; the rest of the hand is checked where it is known
            // (its holder's device, and the audit, where every hand is shown).
            if let Some(Some(private)) = privates.get(i)
                && !legal_inputs(public, Some(private), seat).contains(input)
            {
                return Err(RuleError::illegal(
                    seat,
                    "it discarded a Scam from its hand while holding a playable card: that is \
                     allowed only with a full hand of which no card is playable",
                ));
            }
            take(public, privates, seat, card);
            public.action_discard.push(*face);
            events.push(Event::ScamDiscardedFromHand { seat, card: *face });
            public.phase = Phase::DrawAction { turn, count: 1 };
            settle_draw(public, events);
        }
        (Phase::ListDrawn { turn, card }, Input::ListToMasses) => {
            public.masses.push(Stack::new(card));
            events.push(Event::ToMasses { card });
            after_action(public, turn, events);
        }
        (Phase::ListDrawn { turn, card }, Input::KeepList { scam }) => {
            let s = &mut public.areas[i].scams[usize::from(*scam)];
            s.rating -= 1;
            let scam_card = s.card;
            public.areas[i].lists.push(Stack::new(card));
            events.push(Event::ListKept {
                seat,
                card,
                scam: scam_card,
            });
            after_action(public, turn, events);
        }
        (Phase::Turn(turn), Input::PlayScam { card, face }) => {
            check_face(privates, seat, card, *face)?;
            take(public, privates, seat, card);
            let initial = match action(*face).kind {
                ActionKind::Scam { initial, .. } => initial,
                _ => 0,
            };
            public.areas[i].scams.push(Scam {
                card: *face,
                rating: initial,
            });
            events.push(Event::ScamPlayed { seat, card: *face });
            after_action(public, turn, events);
        }
        (Phase::Turn(mut turn), Input::PlayHardware { card, face }) => {
            check_face(privates, seat, card, *face)?;
            take(public, privates, seat, card);
            public.areas[i].hardware.push(*face);
            if action(*face).kind == ActionKind::Hardware(Continuous::ExtraMailing) {
                turn.mailings_allowed += 1;
            }
            events.push(Event::HardwarePlayed { seat, card: *face });
            after_action(public, turn, events);
        }
        (
            Phase::Turn(mut turn),
            Input::Mail {
                card,
                face,
                scam,
                target,
            },
        ) => {
            check_face(privates, seat, card, *face)?;
            take(public, privates, seat, card);
            turn.mailings += 1;
            let base = public.target_number(seat, *scam, *face, *target);
            events.push(Event::Mailed {
                seat,
                card: *face,
                scam: public.areas[i].scams[usize::from(*scam)].card,
                target: *target,
                target_number: base,
            });
            public.phase = Phase::Rolling {
                turn,
                mailing: Mailing {
                    seat,
                    card: *face,
                    scam: *scam,
                    target: *target,
                    target_card: public
                        .stack(*target)
                        .and_then(|st| st.cards.first().copied())
                        .unwrap_or(0),
                    base,
                    adjust: 0,
                    roll: 0,
                },
            };
        }
        (Phase::Turn(mut turn), Input::Special { card, face, aim }) => {
            check_face(privates, seat, card, *face)?;
            take(public, privates, seat, card);
            events.push(Event::Special {
                seat,
                card: *face,
                aim: *aim,
            });
            let ActionKind::Mailing { effect, .. } = action(*face).kind else {
                return Err(RuleError::illegal(seat, "only a Mailing has a Special Effect"));
            };
            let draws = special(public, seat, effect, *aim, &mut turn, None, events);
            public.action_discard.push(*face);
            if draws > 0 {
                public.phase = Phase::DrawAction { turn, count: draws };
                settle_draw(public, events);
            } else {
                after_action(public, turn, events);
            }
        }
        (Phase::Turn(turn), Input::Merge { a, b }) => {
            merge(public, *a, *b);
            events.push(Event::Merged { a: *a, b: *b });
            after_action(public, turn, events);
        }
        _ => return Err(RuleError::illegal(seat, "that is not a move the game allows now")),
    }
    Ok(())
}

/// Two Lists of one area become one: cards, Specialties (never twice) and Gruntles together.
pub(super) fn merge(public: &mut Public, a: ListRef, b: ListRef) {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let take = |public: &mut Public, at: ListRef| -> Option<Stack> {
        match at {
            ListRef::Masses(i) => {
                (usize::from(i) < public.masses.len()).then(|| public.masses.remove(usize::from(i)))
            }
            ListRef::Proprietary { seat, index } => {
                let lists = &mut public.areas.get_mut(usize::from(seat))?.lists;
                (usize::from(index) < lists.len()).then(|| lists.remove(usize::from(index)))
            }
        }
    };
    // The higher place first, so the lower one's index still holds.
    let Some(upper) = take(public, hi) else {
        return;
    };
    let Some(lower) = public.stack_mut(lo) else {
        return;
    };
    lower.cards.extend(upper.cards);
    for sp in upper.specialties {
        if !lower.specialties.contains(&sp) {
            lower.specialties.push(sp);
        }
    }
    lower.gruntles = lower.gruntles.saturating_add(upper.gruntles);
}

/// Both decks' cards, each in one place: a List in the Masses, in someone's area, on the
/// discard pile, just drawn, held or in its deck; an Action in play as a Scam or Hardware,
/// being mailed, discarded, held or in its deck.
pub(super) fn check_pieces(public: &Public, privates: &[Option<Private>]) -> Result<(), String> {
    if public.actions.generation.is_none() {
        return Ok(());
    }
    let held = |deck| {
        public
            .areas
            .iter()
            .flat_map(|a| &a.hand)
            .filter(|h| h.deck == deck)
            .count()
    };
    let mut lists: Vec<CardId> = public.masses.iter().flat_map(|s| s.cards.clone()).collect();
    lists.extend(
        public
            .areas
            .iter()
            .flat_map(|a| a.lists.iter().flat_map(|s| s.cards.clone())),
    );
    lists.extend(&public.list_discard);
    if let Phase::ListDrawn { card, .. } = &public.phase {
        lists.push(*card);
    }
    crate::each_once(
        "List",
        &lists,
        held(LIST_DECK) + public.lists.left(),
        cards::list_deck().len(),
    )?;
    let mut actions: Vec<CardId> = public
        .areas
        .iter()
        .flat_map(|a| a.scams.iter().map(|s| s.card))
        .collect();
    actions.extend(public.areas.iter().flat_map(|a| a.hardware.clone()));
    actions.extend(&public.action_discard);
    if let Phase::Rolling { mailing, .. } | Phase::Window { mailing, .. } = &public.phase {
        actions.push(mailing.card);
    }
    crate::each_once(
        "Action",
        &actions,
        held(ACTION_DECK) + public.actions.left(),
        cards::action_deck().len(),
    )?;
    let hands: Vec<Vec<Handle>> = public.areas.iter().map(|a| a.hand.clone()).collect();
    crate::faces_known(&hands, privates.iter().flatten().map(|p| (p.seat, &p.faces)))
}

pub(super) fn pending(public: &Public) -> Pending {
    match &public.phase {
        Phase::ShuffleLists => Pending::Shuffle {
            deck: LIST_DECK,
            cards: cards::list_deck(),
        },
        Phase::ShuffleActions => Pending::Shuffle {
            deck: ACTION_DECK,
            cards: cards::action_deck(),
        },
        Phase::DealLists { seat } => Pending::Deal {
            to: *seat,
            cards: public.lists.peek(3),
        },
        Phase::DealActions { seat } => Pending::Deal {
            to: *seat,
            cards: public.actions.peek(6),
        },
        Phase::Choose => Pending::Together {
            seats: (0..public.config.seats).collect(),
            seal: Seal::UntilAll,
        },
        Phase::Masses => Pending::Reveal {
            cards: public.lists.peek(usize::from(public.config.seats)),
        },
        Phase::First | Phase::Rolling { .. } => Pending::Chance,
        Phase::Turn(turn) | Phase::ListDrawn { turn, .. } => Pending::Turn { seat: turn.seat },
        Phase::DrawAction { .. } => draw_phase(public),
        Phase::DrawList { .. } => {
            if public.lists.left() == 0 {
                Pending::Shuffle {
                    deck: LIST_DECK,
                    cards: public.list_discard.clone(),
                }
            } else {
                Pending::Reveal {
                    cards: public.lists.peek(1),
                }
            }
        }
        Phase::Window { seats, .. } => Pending::Together {
            seats: seats.clone(),
            seal: Seal::Reaction,
        },
        Phase::Over(o) => Pending::Over(o.clone()),
    }
}

pub(super) fn legal_inputs(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<Input> {
    let Some(area) = public.areas.get(usize::from(seat)) else {
        return Vec::new();
    };
    let held: Vec<(Handle, CardId)> = area
        .hand
        .iter()
        .filter_map(|h| private.and_then(|p| p.face(h)).map(|f| (*h, f)))
        .collect();
    let mut out = Vec::new();
    match &public.phase {
        Phase::Choose => {
            let dealt: Vec<(Handle, CardId)> = private
                .map(|p| {
                    p.dealt_lists
                        .iter()
                        .filter_map(|h| p.face(h).map(|f| (*h, f)))
                        .collect()
                })
                .unwrap_or_default();
            for (k, chosen) in dealt.iter().enumerate() {
                let keep = dealt
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != k)
                    .map(|(_, c)| *c)
                    .collect();
                out.push(Input::Choose {
                    masses: *chosen,
                    keep,
                });
            }
        }
        Phase::ListDrawn { turn, .. } if turn.seat == seat => {
            out.push(Input::ListToMasses);
            for (i, s) in area.scams.iter().enumerate() {
                if s.rating > s.initial() {
                    out.push(Input::KeepList { scam: i as u8 });
                }
            }
        }
        Phase::Window { seats, .. } if seats.contains(&seat) => {
            out.push(Input::Pass);
            for (card, face) in &held {
                if let ActionKind::Mailing {
                    effect,
                    timing: Timing::AfterRoll,
                    ..
                } = action(*face).kind
                {
                    for aim in aims(public, effect, true) {
                        out.push(Input::Special {
                            card: *card,
                            face: *face,
                            aim,
                        });
                    }
                }
            }
        }
        Phase::Turn(turn) if turn.seat == seat => {
            out.push(Input::EndTurn);
            let full = area.hand.len() >= area.hand_limit();
            if !full {
                out.push(Input::DrawAction);
            }
            out.push(Input::DrawList);
            // With five Scams in play, a Scam may go for a card: a List, or an Action
            // if the hand has room for it.
            if area.scams.len() >= MAX_SCAMS {
                for scam in 0..area.scams.len() as u8 {
                    if !full {
                        out.push(Input::DiscardScam { scam, list: false });
                    }
                    out.push(Input::DiscardScam { scam, list: true });
                }
            }
            let lists = |v: Vec<ListRef>| -> Vec<(ListRef, ListRef)> {
                let mut pairs = Vec::new();
                for (i, a) in v.iter().enumerate() {
                    for b in &v[i + 1..] {
                        pairs.push((*a, *b));
                    }
                }
                pairs
            };
            let own: Vec<ListRef> = (0..area.lists.len() as u8)
                .map(|index| ListRef::Proprietary { seat, index })
                .collect();
            let masses: Vec<ListRef> = (0..public.masses.len() as u8)
                .map(ListRef::Masses)
                .collect();
            for (a, b) in lists(own).into_iter().chain(lists(masses)) {
                out.push(Input::Merge { a, b });
            }
            let plays = plays(public, seat, turn, &held);
            // "his hand has nine cards in it and none of them are playable ... the player
            // is allowed to discard Scams in order to draw new cards": a Scam of the hand
            // goes, and an Action card comes.
            let stuck = full && plays.is_empty();
            out.extend(plays);
            if stuck {
                for (card, face) in &held {
                    if matches!(action(*face).kind, ActionKind::Scam { .. }) {
                        out.push(Input::DiscardHeldScam {
                            card: *card,
                            face: *face,
                        });
                    }
                }
            }
        }
        _ => {}
    }
    out
}

pub(super) fn check_input(public: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
    if let Phase::Over(_) = public.phase {
        return Err(RuleError::GameOver);
    }
    let Some(area) = public.areas.get(usize::from(seat)) else {
        return Err(RuleError::illegal(seat, "there is no such seat"));
    };
    // The public list, with each hidden card the input names taken at the face it claims
    // (the faces are checked against the private side in `apply`, and by the protocol).
    let mut stand_in = Private {
        seat,
        faces: BTreeMap::new(),
        dealt_lists: Vec::new(),
    };
    match input {
        Input::Choose { masses, keep } => {
            for (h, f) in std::iter::once(masses).chain(keep) {
                stand_in.faces.insert(*h, *f);
                stand_in.dealt_lists.push(*h);
            }
            let dealt = keep.len() + 1;
            let distinct: std::collections::BTreeSet<&Handle> = std::iter::once(&masses.0)
                .chain(keep.iter().map(|(h, _)| h))
                .collect();
            let valid = matches!(public.phase, Phase::Choose)
                && dealt == 3
                && distinct.len() == 3
                && std::iter::once(masses).chain(keep).all(|(h, f)| {
                    area.hand.contains(h) && usize::from(*f) < cards::list_deck().len()
                });
            return if valid {
                Ok(())
            } else {
                Err(RuleError::illegal(
                    seat,
                    "one of its three dealt Lists goes to the Masses, the others it keeps",
                ))
            };
        }
        Input::PlayScam { card, face }
        | Input::PlayHardware { card, face }
        | Input::Mail { card, face, .. }
        | Input::Special { card, face, .. }
        | Input::DiscardHeldScam { card, face } => {
            if !area.hand.contains(card) || usize::from(*face) >= cards::action_deck().len() {
                return Err(RuleError::illegal(seat, "it played a card it does not hold"));
            }
            stand_in.faces.insert(*card, *face);
        }
        _ => {}
    }
    let ok = match input {
        Input::Choose { .. } | Input::Abstain => false,
        _ => legal_inputs(public, Some(&stand_in), seat).contains(input),
    };
    if ok {
        Ok(())
    } else {
        Err(RuleError::illegal(seat, "that is not a move the game allows now"))
    }
}
