//! SPAMMERS' bot: builds Scams, mails the List with the best Target Number from the Scam
//! that gains most, plays Hardware, pumps its own best Scam and cuts a leader's with Insider
//! Trading, answers a Mailing roll when it swings the result, and trades a Scam from a
//! stuck full hand for a new card.

use super::cards::action;
use super::data::{ActionKind, Continuous, Effect};
use super::rules;
use super::state::{Aim, Input, ListRef, Phase, Private, Public};
use crate::{Seat, rng};
use rand_chacha::ChaCha8Rng;

pub fn choose(
    public: &Public,
    private: Option<&Private>,
    seat: Seat,
    rng: &mut ChaCha8Rng,
) -> Option<Input> {
    let legal = rules::legal_inputs(public, private, seat);
    if legal.is_empty() {
        return None;
    }
    legal
        .iter()
        .max_by_key(|i| (value(public, seat, i), rng::below(rng, 8)))
        .cloned()
}

/// How far each seat is from winning: its Rating total, or its best Scam scaled to 20.
fn progress(public: &Public, seat: Seat) -> i32 {
    let (total, best) = public.areas[usize::from(seat)].ratings();
    (total as i32).max(i32::from(best) * 20 / 12)
}

fn leader_other_than(public: &Public, seat: Seat) -> Option<Seat> {
    (0..public.config.seats)
        .filter(|s| *s != seat)
        .max_by_key(|s| progress(public, *s))
}

/// The chance, in sixths, that a roll gains 1 or more, and 2.
fn gains(target: i32) -> i32 {
    let one = target.clamp(0, 6);
    let two = (target - 4).clamp(0, 6);
    one + two
}

fn value(public: &Public, seat: Seat, input: &Input) -> i32 {
    let area = &public.areas[usize::from(seat)];
    match input {
        Input::Choose { masses, keep } => {
            // Keep the big Lists, give away the small one.
            let kept: i32 = keep
                .iter()
                .map(|(_, c)| i32::from(super::cards::list(*c).size))
                .sum();
            kept * 10 - i32::from(super::cards::list(masses.1).size)
        }
        Input::PlayScam { face, .. } => {
            let initial = match action(*face).kind {
                ActionKind::Scam { initial, .. } => i32::from(initial),
                _ => 0,
            };
            (if area.scams.len() < 2 { 90 } else { 50 }) + initial * 5
        }
        Input::PlayHardware { face, .. } => match action(*face).kind {
            ActionKind::Hardware(Continuous::HandLimit(_)) => 20,
            _ => 60,
        },
        Input::Mail {
            face, scam, target, ..
        } => {
            let t = public.target_number(seat, *scam, *face, *target);
            // Mailing a Proprietary List of ours wears it out; the Masses are anyone's.
            let own = matches!(target, ListRef::Proprietary { seat: s, .. } if *s == seat);
            70 + gains(t) * 4 - if own { 3 } else { 0 }
        }
        Input::Special { face, aim, .. } => {
            let ActionKind::Mailing { effect, .. } = action(*face).kind else {
                return 0;
            };
            special_value(public, seat, effect, aim)
        }
        Input::DrawAction => {
            if area.hand.len() < 4 {
                65
            } else {
                30
            }
        }
        Input::DrawList => {
            if area.lists.is_empty() {
                40
            } else {
                15
            }
        }
        Input::KeepList { .. } => {
            if area.lists.len() < 2 {
                10
            } else {
                -10
            }
        }
        Input::ListToMasses => 0,
        Input::Merge { a, b } => {
            // Merging two fresh Masses Lists builds one worth mailing.
            let size = |at: &ListRef| public.stack(*at).map_or(0, |s| s.size());
            if matches!(a, ListRef::Masses(_)) && size(a) + size(b) >= 6 {
                12
            } else {
                -5
            }
        }
        Input::DiscardScam { .. } => -20,
        // Offered only when nothing in a full hand can be played: a fresh card beats a
        // wasted action; the Scam that would have started lowest goes first.
        Input::DiscardHeldScam { face, .. } => match action(*face).kind {
            ActionKind::Scam { initial, .. } => 25 - i32::from(initial),
            _ => 0,
        },
        Input::EndTurn => 1,
        Input::Pass => 0,
        // Never legal for a player: the rules make it for a removed one.
        Input::Abstain => i32::MIN,
    }
}

fn special_value(public: &Public, seat: Seat, effect: Effect, aim: &Aim) -> i32 {
    match (effect, aim) {
        (Effect::Rating(n), Aim::Scam { scam, up }) => {
            let mine = scam.seat == seat;
            let n = i32::from(n);
            if mine && *up {
                60 + n * 5
            } else if !mine && !*up && Some(scam.seat) == leader_other_than(public, seat) {
                40 + progress(public, scam.seat) * 2
            } else {
                -50
            }
        }
        (Effect::Target(n), Aim::Roll { up }) => {
            let Phase::Window { mailing, .. } = &public.phase else {
                return -50;
            };
            let t = mailing.target_number();
            let roll = i32::from(mailing.roll);
            let n = i32::from(n);
            let gained = |t: i32| i32::from(roll <= t) + i32::from(roll <= t - 4);
            let now = gained(t);
            let after = gained(if *up { t + n } else { t - n });
            let swing = if mailing.seat == seat {
                after - now
            } else {
                now - after
            };
            if swing > 0 { 50 + swing * 10 } else { -50 }
        }
        (Effect::Gruntle(_), Aim::List(ListRef::Proprietary { seat: s, .. })) if *s != seat => 25,
        (Effect::Ungruntle(_), Aim::List(ListRef::Proprietary { seat: s, .. })) if *s == seat => 20,
        (Effect::AddSpecialty(sp), Aim::List(at)) => {
            let mine = matches!(at, ListRef::Proprietary { seat: s, .. } if *s == seat)
                || matches!(at, ListRef::Masses(_));
            let fits = public.areas[usize::from(seat)]
                .scams
                .iter()
                .any(|s| s.category() == Some(sp));
            if mine && fits { 30 } else { -10 }
        }
        (Effect::Draw(n), _) => 20 + i32::from(n) * 5,
        (Effect::Harvest, _) => 25,
        (Effect::Crash, Aim::Hardware { seat: s, .. }) if *s != seat => 20,
        (Effect::ExtraMailing, _) => 5,
        _ => -30,
    }
}
