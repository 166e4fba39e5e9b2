//! Spree!'s rules as steps: what a seat may do now, whether an input is allowed, and what a
//! completed step does to the table. The decisions where the rulebook is silent are listed
//! in the module above.

use super::board::{Dir, Kind, Sq, board};
use super::cards::{self, ACE, JOKER};
use super::state::{
    AfterDraw, Contest, DECK, Event, HAND, Input, Pawn, Phase, Private, Public, Roll, ShotOutcome,
    Turn,
};
use crate::{CardId, Handle, Outcome, Pending, RuleError, Seal, Seat, Step, rng};
use std::collections::{BTreeMap, VecDeque};

fn seat_of(public: &Public, seat: Seat) -> Option<usize> {
    (seat < public.config.seats).then_some(usize::from(seat))
}

/// Whether `seat` may play a card now (an Ace out of turn included): standing, holding a
/// card, and not at (or in) its own car.
pub fn can_play_cards(public: &Public, seat: Seat) -> bool {
    let Some(i) = seat_of(public, seat) else {
        return false;
    };
    let pawn = &public.pawns[i];
    !pawn.lying && !pawn.at_car() && !pawn.in_car && !public.hands[i].is_empty()
}

/// The parking spaces no car stands in, in the board's order.
pub fn free_spaces(public: &Public) -> Vec<Sq> {
    board()
        .parking()
        .into_iter()
        .filter(|space| public.pawns.iter().all(|p| p.car != Some(*space)))
        .collect()
}

/// Whether some Ace or Joker could still be in a hand or the deck: not every one of them is
/// face up in a cart, the discards or the play under way.
fn stoppers_unseen(public: &Public) -> bool {
    let total = 8 + usize::from(public.config.jokers);
    let stops = |c: &CardId| matches!(cards::rank(*c), ACE | JOKER);
    let seen = public.carts.iter().flatten().filter(|c| stops(c)).count()
        + public.discard.iter().filter(|c| stops(c)).count()
        + public.in_play().iter().filter(|c| stops(c)).count();
    seen < total
}

/// Who may stop what `by` just played, in turn order after `by`: the order their answers
/// are opened in.
fn answerers(public: &Public, by: Seat) -> Vec<Seat> {
    if !stoppers_unseen(public) {
        return Vec::new();
    }
    let n = public.config.seats;
    (1..n)
        .map(|k| (by + k) % n)
        .filter(|s| can_play_cards(public, *s))
        .collect()
}

/// The seats `seat` can shoot at now, each with the direction and how many squares away.
/// A shot needs a straight line with no wall between; the fountain, players and cars never
/// block it.
pub fn shot_targets(public: &Public, seat: Seat) -> Vec<(Seat, Dir, u8)> {
    let Some(i) = seat_of(public, seat) else {
        return Vec::new();
    };
    let hk = public.config.hong_kong;
    let me = &public.pawns[i];
    if me.lying || (me.at_car() && !(hk && me.in_car)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for dir in Dir::ALL {
        for (k, sq) in board().sight(me.shopper, dir).into_iter().enumerate() {
            for (t, pawn) in public.pawns.iter().enumerate() {
                let shielded = pawn.at_car() && !(hk && pawn.in_car);
                if t != i && pawn.shopper == sq && !pawn.lying && !shielded {
                    out.push((t as Seat, dir, (k + 1) as u8));
                }
            }
        }
    }
    out
}

/// In how many of six rolls a shot at a target `distance` squares away hits. The die counts
/// from the shooter's own square ("If he rolls a 3, he will hit Janet exactly", two steps
/// away), and Hong Kong adds one to it; a target more than five squares off cannot be hit.
pub fn hit_sixths(public: &Public, distance: u8) -> u8 {
    let power = u8::from(public.config.hong_kong);
    let need = distance.saturating_add(1).saturating_sub(power).max(1);
    7u8.saturating_sub(need)
}

/// Every square the turn's shopper (or car) can end a walk on now, each with the shortest
/// path there: no more steps than are left, and never straight back.
pub fn reachable(public: &Public, turn: &Turn) -> Vec<(Sq, Vec<Sq>)> {
    let pawn = &public.pawns[usize::from(turn.seat)];
    if turn.left == 0 || !may_walk(public, turn) {
        return Vec::new();
    }
    let b = board();
    let step = |at: Sq, dir: Dir| {
        if turn.driving {
            b.drive(at, dir)
        } else {
            b.walk(at, dir)
        }
    };
    // States are (square, square come from); a path is kept for the first time each
    // state is reached, which is its shortest.
    let mut seen: BTreeMap<(Sq, Option<Sq>), Vec<Sq>> = BTreeMap::new();
    let mut best: BTreeMap<Sq, Vec<Sq>> = BTreeMap::new();
    let mut queue = VecDeque::from([(pawn.shopper, turn.prev, Vec::new())]);
    while let Some((at, prev, path)) = queue.pop_front() {
        if path.len() >= usize::from(turn.left) {
            continue;
        }
        for dir in Dir::ALL {
            let Some(next) = step(at, dir) else { continue };
            if Some(next) == prev {
                continue;
            }
            let key = (next, Some(at));
            if seen.contains_key(&key) {
                continue;
            }
            let mut longer = path.clone();
            longer.push(next);
            seen.insert(key, longer.clone());
            best.entry(next).or_insert_with(|| longer.clone());
            queue.push_back((next, Some(at), longer));
        }
    }
    best.into_iter().collect()
}

/// Whether the turn's shopper may take a step at all: not in a car parked off the spaces
/// unless driving it.
fn may_walk(public: &Public, turn: &Turn) -> bool {
    let pawn = &public.pawns[usize::from(turn.seat)];
    if turn.driving {
        return true;
    }
    !pawn.in_car || on_space(pawn.shopper)
}

fn on_space(sq: Sq) -> bool {
    board().kind(sq) == Kind::Parking
}

/// Why `path` is not a walk the turn may take, if it is not.
fn walk_error(public: &Public, turn: &Turn, path: &[Sq]) -> Option<String> {
    if path.is_empty() {
        return Some("a walk needs at least one square".into());
    }
    if path.len() > usize::from(turn.left) {
        return Some(format!("it has only {} squares to move", turn.left));
    }
    if !may_walk(public, turn) {
        return Some("the car must be parked before its driver gets out".into());
    }
    let b = board();
    let mut at = public.pawns[usize::from(turn.seat)].shopper;
    let mut prev = turn.prev;
    for sq in path {
        let Some(dir) = Dir::between(at, *sq) else {
            return Some(format!("({}, {}) is not next to ({}, {})", sq.x, sq.y, at.x, at.y));
        };
        let ok = if turn.driving {
            b.drive(at, dir)
        } else {
            b.walk(at, dir)
        };
        if ok != Some(*sq) {
            return Some(if turn.driving {
                "a car keeps to the parking lot and the open floor, and walls stop it".into()
            } else {
                "walls and the fountain cannot be walked through".into()
            });
        }
        if Some(*sq) == prev {
            return Some("a shopper may not double back".into());
        }
        prev = Some(at);
        at = *sq;
    }
    None
}

/// Whether `seat` holds `card`.
fn holds(public: &Public, seat: Seat, card: &Handle) -> bool {
    public.hands[usize::from(seat)].contains(card)
}

pub fn legal_inputs(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<Input> {
    let Some(i) = seat_of(public, seat) else {
        return Vec::new();
    };
    let held: Vec<(Handle, CardId)> = public.hands[i]
        .iter()
        .filter_map(|h| private.and_then(|p| p.face(h)).map(|f| (*h, f)))
        .collect();
    let mut out = Vec::new();
    match &public.phase {
        Phase::Parking { seat: s, .. } if *s == seat => {
            out.extend(
                free_spaces(public)
                    .into_iter()
                    .map(|space| Input::Park { space }),
            );
        }
        Phase::Window { seats, .. } if seats.contains(&seat) => {
            out.push(Input::Pass);
            for (card, face) in &held {
                if matches!(cards::rank(*face), ACE | JOKER) {
                    out.push(Input::Ace {
                        card: *card,
                        face: *face,
                    });
                }
            }
        }
        Phase::Act(turn) if turn.seat == seat => {
            let candidates = act_candidates(public, turn, &held);
            out.extend(
                candidates
                    .into_iter()
                    .filter(|input| check_input(public, seat, input).is_ok()),
            );
        }
        _ => {}
    }
    out
}

/// Every input worth checking on a turn: single steps for walks, each card and pair.
fn act_candidates(public: &Public, turn: &Turn, held: &[(Handle, CardId)]) -> Vec<Input> {
    let seat = turn.seat;
    let pawn = &public.pawns[usize::from(seat)];
    let mut out = vec![Input::Roll, Input::StartCar, Input::GetOut, Input::Score];
    for dir in Dir::ALL {
        if let Some(sq) = pawn.shopper.step(dir) {
            out.push(Input::Walk { path: vec![sq] });
        }
    }
    for (k, (card, face)) in held.iter().enumerate() {
        out.push(Input::Shop {
            cards: vec![(*card, *face)],
        });
        for (other, other_face) in &held[k + 1..] {
            if cards::face(*face).is_some() && cards::face(*face) == cards::face(*other_face) {
                out.push(Input::Shop {
                    cards: vec![(*card, *face), (*other, *other_face)],
                });
            }
        }
        for steps in [2, 10] {
            out.push(Input::MoveCard {
                card: *card,
                face: *face,
                steps,
            });
        }
        for (victim, cart) in public.carts.iter().enumerate() {
            let mut ranks: Vec<u8> = cart.iter().map(|c| cards::rank(*c)).collect();
            ranks.sort_unstable();
            ranks.dedup();
            for rank in ranks {
                out.push(Input::Rob {
                    victim: victim as Seat,
                    card: *card,
                    face: *face,
                    rank,
                });
            }
        }
    }
    for (target, _, _) in shot_targets(public, seat) {
        out.push(Input::Shoot { target });
    }
    for to in free_spaces(public) {
        out.push(Input::Drive { to });
    }
    out.push(Input::EndTurn);
    out
}

pub fn check_input(public: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
    let Some(i) = seat_of(public, seat) else {
        return Err(RuleError::illegal(seat, "there is no such seat"));
    };
    let hk = public.config.hong_kong;
    let pawn = &public.pawns[i];
    match (&public.phase, input) {
        (Phase::Over(_), _) => Err(RuleError::GameOver),
        (Phase::Parking { seat: s, .. }, Input::Park { space }) => {
            if *s != seat {
                Err(RuleError::illegal(seat, "it is not its turn to park"))
            } else if !space.on_board() || !free_spaces(public).contains(space) {
                Err(RuleError::illegal(seat, "a car parks in a free parking space"))
            } else {
                Ok(())
            }
        }
        (Phase::Window { seats, .. }, Input::Pass | Input::Ace { .. }) => {
            if !seats.contains(&seat) {
                return Err(RuleError::illegal(seat, "it cannot stop this play"));
            }
            match input {
                Input::Ace { card, face } => {
                    if !holds(public, seat, card) {
                        Err(RuleError::illegal(seat, "it played an Ace it does not hold"))
                    } else if !matches!(cards::rank(*face), ACE | JOKER) || !valid_card(public, *face)
                    {
                        Err(RuleError::illegal(seat, "only an Ace or a Joker stops a play"))
                    } else {
                        Ok(())
                    }
                }
                _ => Ok(()),
            }
        }
        (Phase::Act(turn), _) if turn.seat != seat => Err(RuleError::illegal(seat, "it is not its turn")),
        (Phase::Act(turn), input) => check_act(public, turn, pawn, hk, input),
        _ => Err(RuleError::illegal(seat, "that is not a move the game waits for now")),
    }
}

fn valid_card(public: &Public, face: CardId) -> bool {
    face < cards::POKER + public.config.jokers
}

/// The checks of an input on the seat's own turn.
fn check_act(
    public: &Public,
    turn: &Turn,
    pawn: &Pawn,
    hk: bool,
    input: &Input,
) -> Result<(), RuleError> {
    let seat = turn.seat;
    let no = |why: &str| Err(RuleError::illegal(seat, why));
    let cards_ok = || -> Result<(), RuleError> {
        if pawn.at_car() || pawn.in_car {
            Err(RuleError::illegal(seat, "nobody plays cards at their own car"))
        } else {
            Ok(())
        }
    };
    match input {
        Input::Roll => {
            if turn.rolled {
                no("the dice are rolled once a turn")
            } else if !may_walk(public, turn) || turn.driving {
                no("the car must be parked before its driver gets out")
            } else {
                Ok(())
            }
        }
        Input::Walk { path } => match walk_error(public, turn, path) {
            Some(why) => no(&why),
            None => Ok(()),
        },
        Input::Shop { cards: played } => {
            cards_ok()?;
            let faces: Vec<CardId> = played.iter().map(|(_, f)| *f).collect();
            if played.is_empty() || played.len() > 2 {
                return no("a purchase is one card or an identical pair");
            }
            if played.iter().any(|(h, f)| !holds(public, seat, h) || !valid_card(public, *f)) {
                return no("it played a card it does not hold");
            }
            if played.len() == 2 && (played[0].0 == played[1].0 || faces[0] == faces[1]) {
                return no("a pair is two different cards");
            }
            match cards::face(faces[0]) {
                None if played.len() == 1 => Ok(()),
                None => no("Jokers go in a cart one at a time"),
                Some(face) => {
                    if played.len() == 2 && cards::face(faces[1]) != Some(face) {
                        return no("a pair must be two cards of exactly the same rank and suit");
                    }
                    let sold = turn
                        .visited
                        .iter()
                        .any(|sq| board().kind(*sq) == Kind::Shop(face));
                    if sold {
                        Ok(())
                    } else {
                        no("a card is bought at a shop that sells it, passed this turn")
                    }
                }
            }
        }
        Input::Rob {
            victim,
            card,
            face,
            rank,
        } => {
            cards_ok()?;
            let Some(v) = seat_of(public, *victim) else {
                return no("there is no such victim");
            };
            if *victim == seat {
                no("a player cannot rob their own cart")
            } else if public.pawns[v].shopper != pawn.shopper || public.pawns[v].in_car {
                no("a robber must be on the victim's square")
            } else if !public.carts[v].iter().any(|c| cards::rank(*c) == *rank) {
                no("the victim's cart has no card of that rank")
            } else if !holds(public, seat, card) || !valid_card(public, *face) {
                no("it played a card it does not hold")
            } else if cards::rank(*face) != *rank && !cards::is_joker(*face) {
                no("a steal needs a card of the same rank, or a Joker")
            } else {
                Ok(())
            }
        }
        Input::MoveCard { card, face, steps } => {
            cards_ok()?;
            let fits = match cards::rank(*face) {
                10 => *steps == 10,
                2 => *steps == 2,
                JOKER => *steps == 2 || *steps == 10,
                _ => false,
            };
            if !holds(public, seat, card) || !valid_card(public, *face) {
                no("it played a card it does not hold")
            } else if turn.driving {
                no("move cards move shoppers, not cars")
            } else if !fits {
                no("only a 10 (Move-10), a 2 (Move-2) or a Joker moves a shopper")
            } else {
                Ok(())
            }
        }
        Input::Shoot { target } => {
            if shot_targets(public, seat)
                .iter()
                .any(|(t, _, _)| t == target)
            {
                Ok(())
            } else {
                no("a shot needs a standing target in a straight line, no wall between")
            }
        }
        Input::Score => {
            if !pawn.at_car() || turn.driving {
                no("points are scored at the player's own car")
            } else {
                Ok(())
            }
        }
        Input::Drive { to } => {
            if hk {
                no("under the Hong Kong rules a car is driven with the dice")
            } else if !turn.fresh || !pawn.at_car() {
                no("only a turn begun at the car may drive it")
            } else if !free_spaces(public).contains(to) {
                no("a car parks in a free parking space")
            } else {
                Ok(())
            }
        }
        Input::StartCar => {
            if !hk {
                no("cars are driven with dice only under the Hong Kong rules")
            } else if !turn.fresh || !(pawn.at_car() || pawn.in_car) {
                no("only a turn begun at the car may drive it")
            } else {
                Ok(())
            }
        }
        Input::GetOut => {
            let others = public
                .pawns
                .iter()
                .enumerate()
                .any(|(s, p)| s != usize::from(seat) && p.car == Some(pawn.shopper));
            if !turn.driving || !turn.rolled {
                no("a driver gets out after driving")
            } else if !on_space(pawn.shopper) || others {
                no("a car must be parked in a free space before its driver gets out")
            } else {
                Ok(())
            }
        }
        Input::EndTurn => Ok(()),
        Input::Park { .. } | Input::Ace { .. } | Input::Pass => {
            no("that is not a move the game waits for now")
        }
    }
}

/// A shown card's claimed face against what its holder's private side knows.
fn check_face(
    privates: &[Option<Private>],
    seat: Seat,
    card: &Handle,
    face: CardId,
) -> Result<(), RuleError> {
    match privates.get(usize::from(seat)) {
        Some(Some(p)) if p.face(card) != Some(face) => Err(RuleError::PrivateMismatch {
            seat,
            why: format!("it showed a card as {} that it does not hold as such", cards::name(face)),
        }),
        _ => Ok(()),
    }
}

fn take_card(public: &mut Public, privates: &mut [Option<Private>], seat: Seat, card: &Handle) {
    public.hands[usize::from(seat)].retain(|h| h != card);
    if let Some(Some(p)) = privates.get_mut(usize::from(seat)) {
        p.faces.remove(card);
    }
}

fn wrong_step(public: &Public) -> RuleError {
    RuleError::WrongStep {
        expected: format!("{:?}", pending(public)),
    }
}

pub fn apply(
    public: &mut Public,
    privates: &mut [Option<Private>],
    step: &Step<Input>,
) -> Result<Vec<Event>, RuleError> {
    let mut events = Vec::new();
    match (public.phase.clone(), step) {
        (Phase::Over(_), _) => return Err(RuleError::GameOver),
        (Phase::Shuffle, Step::Shuffled) => {
            let n = cards::all(public.config.jokers).len();
            public.deck.shuffled(n);
            events.push(Event::Shuffled { cards: n as u16 });
            public.phase = Phase::Dealing { seat: 0 };
        }
        (Phase::Dealing { seat }, Step::Dealt) => {
            let dealt = public.deck.take(HAND);
            events.push(Event::Dealt {
                seat,
                cards: dealt.len() as u8,
            });
            public.hands[usize::from(seat)].extend(dealt);
            public.phase = if seat + 1 < public.config.seats {
                Phase::Dealing { seat: seat + 1 }
            } else {
                Phase::FirstParker
            };
        }
        (Phase::FirstParker, Step::Chance(draw)) => {
            let (rounds, first) = first_parker(public.config.seats, draw);
            events.push(Event::ParkRolls { rounds, first });
            public.phase = Phase::Parking {
                seat: first,
                parked: 0,
            };
        }
        (Phase::Draw { .. }, Step::Shuffled) => {
            let pile = std::mem::take(&mut public.discard);
            public.deck.shuffled(pile.len());
            events.push(Event::Shuffled {
                cards: pile.len() as u16,
            });
            settle_draw(public, &mut events);
        }
        (Phase::Draw { seat, .. }, Step::Dealt) => {
            let need = HAND.saturating_sub(public.hands[usize::from(seat)].len());
            let dealt = public.deck.take(need);
            events.push(Event::Dealt {
                seat,
                cards: dealt.len() as u8,
            });
            public.hands[usize::from(seat)].extend(dealt);
            settle_draw(public, &mut events);
        }
        (Phase::Rolling { turn, roll }, Step::Chance(draw)) => {
            rolled(public, turn, roll, draw, &mut events);
        }
        (Phase::Parking { seat, parked }, Step::Inputs(plays)) => {
            let input = crate::one_open_input(plays, seat)?;
            check_input(public, seat, input)?;
            let Input::Park { space } = input else {
                return Err(RuleError::illegal(seat, "it is its turn to park"));
            };
            let pawn = &mut public.pawns[usize::from(seat)];
            pawn.car = Some(*space);
            pawn.shopper = *space;
            events.push(Event::Parked {
                seat,
                space: *space,
            });
            let n = public.config.seats;
            if parked + 1 >= n {
                // "Normal play now begins with player who parked last."
                begin_turn(public, seat, false, &mut events);
            } else {
                public.phase = Phase::Parking {
                    seat: (seat + n - 1) % n,
                    parked: parked + 1,
                };
            }
        }
        (Phase::Act(turn), Step::Inputs(plays)) => {
            let input = crate::one_open_input(plays, turn.seat)?;
            check_input(public, turn.seat, input)?;
            act(public, privates, turn, input, &mut events)?;
        }
        (
            Phase::Window {
                turn,
                contest,
                aces,
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
            let mut played = Vec::new();
            for (s, play) in plays {
                // An answer left sealed came after the first Ace: it changes nothing.
                let Some(input) = play.input() else { continue };
                check_input(public, *s, input)?;
                if let Input::Ace { card, face } = input {
                    check_face(privates, *s, card, *face)?;
                    played.push((*s, *card, *face));
                }
            }
            // The first in the window's order (turn order after the last player) is taken.
            played.sort_by_key(|(s, _, _)| seats.iter().position(|x| x == s));
            match played.split_first() {
                None => settle(public, turn, contest, aces, &mut events),
                Some((&(s, card, face), late)) => {
                    for &(seat, _, card) in late {
                        events.push(Event::TooLate { seat, card });
                    }
                    take_card(public, privates, s, &card);
                    events.push(Event::Aced { seat: s, card: face });
                    let mut aces = aces;
                    aces.push((s, face));
                    public.phase = Phase::Window {
                        turn: turn.clone(),
                        contest: contest.clone(),
                        aces: aces.clone(),
                        seats: Vec::new(),
                    };
                    let seats = answerers(public, s);
                    if seats.is_empty() {
                        settle(public, turn, contest, aces, &mut events);
                    } else if let Phase::Window { seats: w, .. } = &mut public.phase {
                        *w = seats;
                    }
                }
            }
        }
        _ => return Err(wrong_step(public)),
    }
    Ok(events)
}

/// Everyone rolls two dice; the highest parks first, ties rolling again among themselves.
fn first_parker(seats: u8, draw: &[u8; 32]) -> (Vec<Vec<(Seat, u8)>>, Seat) {
    let mut rng = rng::from_seed(draw, "spree first parker");
    let mut rolling: Vec<Seat> = (0..seats).collect();
    let mut rounds = Vec::new();
    loop {
        let round: Vec<(Seat, u8)> = rolling
            .iter()
            .map(|s| (*s, (rng::roll(&mut rng, 6) + rng::roll(&mut rng, 6)) as u8))
            .collect();
        let best = round.iter().map(|(_, r)| *r).max().unwrap_or(0);
        rolling = round
            .iter()
            .filter(|(_, r)| *r == best)
            .map(|(s, _)| *s)
            .collect();
        rounds.push(round);
        if rolling.len() == 1 || rounds.len() >= 64 {
            return (rounds, rolling[0]);
        }
    }
}

/// A turn starts: the shopper stands up and the hand is drawn up to five.
fn begin_turn(public: &mut Public, seat: Seat, extra: bool, events: &mut Vec<Event>) {
    public.turns += 1;
    events.push(Event::TurnBegins { seat, extra });
    let pawn = &mut public.pawns[usize::from(seat)];
    if pawn.lying {
        pawn.lying = false;
        events.push(Event::StoodUp { seat });
    }
    public.phase = Phase::Draw {
        seat,
        then: AfterDraw::Begin { extra },
    };
    settle_draw(public, events);
}

/// The turn is over: the hand is drawn up to five, then the next turn (this seat's again
/// after a hit).
fn end_turn(public: &mut Public, seat: Seat, extra: bool, events: &mut Vec<Event>) {
    events.push(Event::TurnEnds { seat });
    public.phase = Phase::Draw {
        seat,
        then: AfterDraw::End { extra },
    };
    settle_draw(public, events);
}

/// Moves on from a draw that is done: a full hand, or no card left anywhere to draw.
fn settle_draw(public: &mut Public, events: &mut Vec<Event>) {
    let Phase::Draw { seat, then } = public.phase.clone() else {
        return;
    };
    let need = HAND.saturating_sub(public.hands[usize::from(seat)].len());
    let nothing = public.deck.left() == 0 && public.discard.is_empty();
    if need > 0 && !nothing {
        return;
    }
    match then {
        AfterDraw::Begin { extra } => {
            let at = public.pawns[usize::from(seat)].shopper;
            public.phase = Phase::Act(Turn {
                seat,
                rolled: false,
                left: 0,
                prev: None,
                visited: shop_at(at).into_iter().collect(),
                fresh: true,
                driving: false,
                extra,
            });
        }
        AfterDraw::End { extra } => {
            let next = if extra {
                seat
            } else {
                (seat + 1) % public.config.seats
            };
            begin_turn(public, next, extra, events);
        }
    }
}

fn shop_at(sq: Sq) -> Option<Sq> {
    matches!(board().kind(sq), Kind::Shop(_)).then_some(sq)
}

/// One seat's input on its own turn, already checked.
fn act(
    public: &mut Public,
    privates: &mut [Option<Private>],
    mut turn: Turn,
    input: &Input,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let seat = turn.seat;
    let i = usize::from(seat);
    turn.fresh = false;
    match input {
        Input::Roll => {
            turn.rolled = true;
            public.phase = Phase::Rolling {
                turn,
                roll: Roll::Walk,
            };
        }
        Input::StartCar => {
            turn.rolled = true;
            turn.driving = true;
            public.pawns[i].in_car = true;
            public.phase = Phase::Rolling {
                turn,
                roll: Roll::Drive,
            };
        }
        Input::Walk { path } => {
            let from = public.pawns[i].shopper;
            if !turn.driving {
                // Out of a parked car and on foot.
                public.pawns[i].in_car = false;
            }
            let mut at = from;
            for sq in path {
                turn.prev = Some(at);
                at = *sq;
                turn.left -= 1;
                public.pawns[i].shopper = at;
                if turn.driving {
                    public.pawns[i].car = Some(at);
                    run_over(public, seat, at, events);
                } else if let Some(shop) = shop_at(at)
                    && !turn.visited.contains(&shop)
                {
                    turn.visited.push(shop);
                }
            }
            events.push(Event::Walked {
                seat,
                path: path.clone(),
            });
            public.phase = Phase::Act(turn);
        }
        Input::Shop { cards: played } => {
            for (card, face) in played {
                check_face(privates, seat, card, *face)?;
            }
            for (card, _) in played {
                take_card(public, privates, seat, card);
            }
            let contest = Contest::Shop {
                seat,
                cards: played.iter().map(|(_, f)| *f).collect(),
            };
            open_contest(public, turn, contest, events);
        }
        Input::Rob {
            victim,
            card,
            face,
            rank,
        } => {
            check_face(privates, seat, card, *face)?;
            take_card(public, privates, seat, card);
            let contest = Contest::Rob {
                seat,
                victim: *victim,
                card: *face,
                rank: *rank,
            };
            open_contest(public, turn, contest, events);
        }
        Input::MoveCard { card, face, steps } => {
            check_face(privates, seat, card, *face)?;
            take_card(public, privates, seat, card);
            let contest = Contest::MoveCard {
                seat,
                card: *face,
                steps: *steps,
            };
            open_contest(public, turn, contest, events);
        }
        Input::Shoot { target } => {
            public.phase = Phase::Rolling {
                turn,
                roll: Roll::Shot { target: *target },
            };
        }
        Input::Score => {
            let banked = std::mem::take(&mut public.carts[i]);
            let points: i32 = banked.iter().map(|c| cards::points(*c)).sum();
            public.scores[i] += points;
            public.discard.extend(banked.iter().copied());
            if public.config.hong_kong {
                public.pawns[i].in_car = true;
            }
            events.push(Event::Scored {
                seat,
                cards: banked,
                points,
                total: public.scores[i],
            });
            if public.scores[i] >= public.config.target {
                events.push(Event::Won { seat });
                public.phase = Phase::Over(Outcome {
                    winners: vec![seat],
                    scores: public.scores.clone(),
                });
            } else {
                end_turn(public, seat, false, events);
            }
        }
        Input::Drive { to } => {
            public.pawns[i].car = Some(*to);
            public.pawns[i].shopper = *to;
            events.push(Event::Drove { seat, to: *to });
            end_turn(public, seat, false, events);
        }
        Input::GetOut => {
            public.pawns[i].in_car = false;
            events.push(Event::GotOut { seat });
            end_turn(public, seat, false, events);
        }
        Input::EndTurn => end_turn(public, seat, false, events),
        Input::Park { .. } | Input::Ace { .. } | Input::Pass => {
            return Err(RuleError::illegal(seat, "that is not a move the game waits for now"));
        }
    }
    Ok(())
}

/// A car enters `at`: every standing shopper on foot there falls over and loses its cart.
fn run_over(public: &mut Public, driver: Seat, at: Sq, events: &mut Vec<Event>) {
    for v in 0..public.pawns.len() {
        let pawn = public.pawns[v];
        if v != usize::from(driver) && pawn.shopper == at && !pawn.lying && !pawn.in_car {
            public.pawns[v].lying = true;
            let spilled = std::mem::take(&mut public.carts[v]);
            public.discard.extend(spilled.iter().copied());
            events.push(Event::RanOver {
                seat: driver,
                victim: v as Seat,
                spilled,
            });
        }
    }
}

/// The dice came for `roll`.
fn rolled(public: &mut Public, mut turn: Turn, roll: Roll, draw: &[u8; 32], events: &mut Vec<Event>) {
    let seat = turn.seat;
    let mut rng = rng::from_seed(draw, "spree dice");
    match roll {
        Roll::Walk | Roll::Drive => {
            let dice = (rng::roll(&mut rng, 6) as u8, rng::roll(&mut rng, 6) as u8);
            public.dice = Some(dice);
            turn.left = turn.left.saturating_add(dice.0 + dice.1);
            events.push(Event::Rolled { seat, dice });
            public.phase = Phase::Act(turn);
        }
        Roll::Shot { target } => {
            let die = rng::roll(&mut rng, 6) as u8;
            public.shot_die = Some(die);
            let power = u8::from(public.config.hong_kong);
            let count = die + power;
            let (dir, distance) = shot_targets(public, seat)
                .into_iter()
                .find(|(t, _, _)| *t == target)
                .map(|(_, d, k)| (d, k))
                .unwrap_or((super::board::Dir::N, u8::MAX));
            // The shooter's square counts 1: a target `distance` away is hit on distance + 1.
            if distance == u8::MAX || count < distance.saturating_add(1) {
                events.push(Event::Shot {
                    seat,
                    target,
                    roll: count,
                    outcome: ShotOutcome::Miss,
                });
                public.pawns[usize::from(seat)].lying = true;
                events.push(Event::FellOver { seat });
                end_turn(public, seat, false, events);
                return;
            }
            let over = count - (distance + 1);
            let victim = public.pawns[usize::from(target)];
            let to = if victim.in_car {
                victim.shopper
            } else {
                board().push(victim.shopper, dir, over, public.config.hong_kong)
            };
            let contest = Contest::Shot {
                seat,
                target,
                roll: count,
                to,
            };
            open_contest(public, turn, contest, events);
        }
    }
}

/// A play an Ace may stop is on the table: a window for those who may, or it stands.
fn open_contest(public: &mut Public, turn: Turn, contest: Contest, events: &mut Vec<Event>) {
    events.push(Event::Played {
        contest: contest.clone(),
    });
    public.phase = Phase::Window {
        turn: turn.clone(),
        contest: contest.clone(),
        aces: Vec::new(),
        seats: Vec::new(),
    };
    let seats = answerers(public, contest.seat());
    if seats.is_empty() {
        settle(public, turn, contest, Vec::new(), events);
    } else if let Phase::Window { seats: w, .. } = &mut public.phase {
        *w = seats;
    }
}

/// Nobody answered the last card: the play stands, or falls if an odd number of Aces
/// stopped it.
fn settle(
    public: &mut Public,
    mut turn: Turn,
    contest: Contest,
    aces: Vec<(Seat, CardId)>,
    events: &mut Vec<Event>,
) {
    let stopped = !aces.len().is_multiple_of(2);
    public.discard.extend(aces.iter().map(|(_, c)| *c));
    events.push(Event::Settled {
        contest: contest.clone(),
        stopped,
    });
    let seat = contest.seat();
    let i = usize::from(seat);
    match &contest {
        Contest::Shop { cards: played, .. } => {
            if stopped {
                public.discard.extend(played.iter().copied());
            } else {
                public.carts[i].extend(played.iter().copied());
            }
        }
        Contest::Rob {
            victim, card, rank, ..
        } => {
            public.discard.push(*card);
            if !stopped {
                let v = usize::from(*victim);
                let (taken, kept): (Vec<CardId>, Vec<CardId>) = public.carts[v]
                    .iter()
                    .partition(|c| cards::rank(**c) == *rank);
                public.carts[v] = kept;
                public.carts[i].extend(taken.iter().copied());
                events.push(Event::Stole {
                    seat,
                    victim: *victim,
                    cards: taken,
                });
            }
        }
        Contest::MoveCard { card, steps, .. } => {
            public.discard.push(*card);
            if !stopped {
                turn.left = turn.left.saturating_add(*steps);
            }
        }
        Contest::Shot {
            target, roll, to, ..
        } => {
            if !stopped {
                let victim = &mut public.pawns[usize::from(*target)];
                let outcome = if victim.shopper == *to {
                    ShotOutcome::Hit
                } else {
                    ShotOutcome::Pushed
                };
                victim.shopper = *to;
                if victim.in_car {
                    victim.car = Some(*to);
                }
                victim.lying = true;
                events.push(Event::Shot {
                    seat,
                    target: *target,
                    roll: *roll,
                    outcome,
                });
                events.push(Event::FellOver { seat: *target });
            }
            // "When you shoot someone, it ends your turn"; a hit gives another at once.
            end_turn(public, seat, !stopped, events);
            return;
        }
    }
    public.phase = Phase::Act(turn);
}

/// Cards in words; a card of the two decks taken twice is said once, as "both".
fn cards_said(cards: &[CardId]) -> String {
    let mut said: Vec<String> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for c in cards {
        let name = cards::name(*c);
        match seen.iter().position(|n| *n == name) {
            Some(i) if name == "Joker" => said[i] = "both Jokers".into(),
            Some(i) => said[i] = format!("both {name}"),
            None => {
                said.push(name.clone());
                seen.push(name);
            }
        }
    }
    said.join(" and ")
}

pub fn narrate(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
    match event {
        Event::Shuffled { cards } => format!("A deck of {cards} cards is shuffled face down."),
        Event::Dealt { seat, cards } => format!(
            "{} draws {cards} card{}.",
            name(*seat),
            if *cards == 1 { "" } else { "s" }
        ),
        Event::ParkRolls { first, rounds } => format!(
            "{} rolls highest ({}) and parks first.",
            name(*first),
            rounds
                .last()
                .and_then(|r| r.iter().find(|(s, _)| s == first))
                .map_or(0, |(_, r)| *r)
        ),
        Event::Parked { seat, .. } => format!("{} parks.", name(*seat)),
        Event::TurnBegins { seat, extra } => {
            if *extra {
                format!("{} takes another turn!", name(*seat))
            } else {
                format!("{}'s turn.", name(*seat))
            }
        }
        Event::StoodUp { seat } => format!("{} gets back up.", name(*seat)),
        Event::Rolled { seat, dice } => {
            format!("{} rolls {} and {}.", name(*seat), dice.0, dice.1)
        }
        Event::Walked { seat, path } => format!(
            "{} moves {} square{}.",
            name(*seat),
            path.len(),
            if path.len() == 1 { "" } else { "s" }
        ),
        Event::Played { contest } => match contest {
            Contest::Shop { seat, cards } => {
                format!("{} grabs {}.", name(*seat), cards_said(cards))
            }
            Contest::Rob {
                seat, victim, card, ..
            } => format!(
                "{} plays {} to rob {}!",
                name(*seat),
                cards::name(*card),
                name(*victim)
            ),
            Contest::MoveCard { seat, steps, .. } => {
                format!("{} plays Move-{steps}.", name(*seat))
            }
            Contest::Shot {
                seat, target, roll, ..
            } => format!(
                "{} rolls {roll}: the shot is going to hit {}!",
                name(*seat),
                name(*target)
            ),
        },
        Event::Aced { seat, card } => {
            format!("{} says Stop! with {}.", name(*seat), cards::name(*card))
        }
        Event::TooLate { seat, card } => format!(
            "{} had {} ready too, and keeps it.",
            name(*seat),
            cards::name(*card)
        ),
        Event::Settled { contest, stopped } => {
            if *stopped {
                format!("{}'s play is stopped.", name(contest.seat()))
            } else {
                format!("{}'s play stands.", name(contest.seat()))
            }
        }
        Event::Stole {
            seat,
            victim,
            cards,
        } => format!(
            "{} steals {} from {}.",
            name(*seat),
            cards_said(cards),
            name(*victim)
        ),
        Event::Shot {
            seat,
            target,
            roll,
            outcome,
        } => match outcome {
            ShotOutcome::Miss => format!(
                "{} shoots at {} with a {roll} and misses!",
                name(*seat),
                name(*target)
            ),
            ShotOutcome::Hit => format!("{} hits {}!", name(*seat), name(*target)),
            ShotOutcome::Pushed => format!(
                "{} hits {} and knocks them back!",
                name(*seat),
                name(*target)
            ),
        },
        Event::FellOver { seat } => format!("{} falls over.", name(*seat)),
        Event::Scored {
            seat,
            points,
            total,
            ..
        } => format!(
            "{} locks {points} points in the car ({total} in all).",
            name(*seat)
        ),
        Event::Drove { seat, .. } => format!("{} drives to another spot.", name(*seat)),
        Event::RanOver {
            seat,
            victim,
            spilled,
        } => format!(
            "{} runs {} over! {} card{} spill everywhere.",
            name(*seat),
            name(*victim),
            spilled.len(),
            if spilled.len() == 1 { "" } else { "s" }
        ),
        Event::GotOut { seat } => format!("{} parks and gets out.", name(*seat)),
        Event::TurnEnds { .. } => String::new(),
        Event::Won { seat } => format!("{} wins the spree!", name(*seat)),
    }
}

/// What the table waits for now.
pub(super) fn pending(public: &Public) -> Pending {
    match &public.phase {
        Phase::Shuffle => Pending::Shuffle {
            deck: DECK,
            cards: cards::all(public.config.jokers),
        },
        Phase::Dealing { seat } => Pending::Deal {
            to: *seat,
            cards: public.deck.peek(HAND),
        },
        Phase::FirstParker | Phase::Rolling { .. } => Pending::Chance,
        Phase::Parking { seat, .. } => Pending::Turn { seat: *seat },
        Phase::Draw { seat, .. } => {
            if public.deck.left() == 0 {
                Pending::Shuffle {
                    deck: DECK,
                    cards: public.discard.clone(),
                }
            } else {
                let need = HAND.saturating_sub(public.hands[usize::from(*seat)].len());
                Pending::Deal {
                    to: *seat,
                    cards: public.deck.peek(need),
                }
            }
        }
        Phase::Act(turn) => Pending::Turn { seat: turn.seat },
        Phase::Window { seats, .. } => Pending::Together {
            seats: seats.clone(),
            seal: Seal::Reaction,
        },
        Phase::Over(outcome) => Pending::Over(outcome.clone()),
    }
}
