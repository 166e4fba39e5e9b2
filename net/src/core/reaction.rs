//! Reaction windows ([`Seal::Reaction`]): answers out of turn that say nothing of a hand
//! through their timing.
//!
//! When the table reaches a reaction step that waits on this seat, the window opens here.
//! An answer made by hand is sealed and kept at once, but its commitment leaves only once
//! [`ReactionTiming::min_ms`] has run (a seat that passes at once looks like one that
//! thought); a bot's answer, or any answer with [`ReactionTiming::hold_to_end`], leaves
//! when the window ends; and when it ends with no answer the device passes for its player
//! with [`Game::pass`], whatever the hand holds. So every answer that is not a person's
//! own click leaves at the same moment, whether the hand held an answer or not.
//!
//! Once every answer is committed, they open one at a time in the order the game lists the
//! seats (for the games here: turn order after the seat whose play is answered), and the
//! opening stops at the first that answers: the later ones stay sealed, so a seat that
//! would have answered too shows nothing of its hand. The audit opens them, and a game
//! must let an answer so left sealed change nothing.
//!
//! [`ReactionTiming::min_ms`]: super::ReactionTiming::min_ms
//! [`ReactionTiming::hold_to_end`]: super::ReactionTiming::hold_to_end

use super::{Core, Time, View};
use hoard_rules::{Game, Pending, Seal, Seat};
use std::collections::BTreeSet;

impl<G: Game> Core<G> {
    /// The reaction step this seat is to answer now, if any: its step and log.
    fn reaction_step(&self) -> Option<(u32, crate::wire::Hash)> {
        let gs = self.game.as_ref()?;
        let n = gs.records.len() as u32;
        match &gs.pending {
            Pending::Together {
                seats,
                seal: Seal::Reaction,
            } if seats.contains(&self.me) && self.owes_move() => {
                Some((n, gs.bases[n as usize].log))
            }
            _ => None,
        }
    }

    /// Opens the window when this seat's reaction step comes, and passes for its player
    /// when the window ends unanswered.
    pub(super) fn react(&mut self, now: Time) {
        let Some((n, log)) = self.reaction_step() else {
            return;
        };
        let opened = match self.reaction_at {
            Some((at, l, t)) if at == n && l == log => t,
            _ => {
                self.reaction_at = Some((n, log, now));
                now
            }
        };
        if self.sealed.contains_key(&(n, log)) || now < opened.plus(self.cfg.reaction.window_ms()) {
            return;
        }
        let Some(pass) = self.game.as_ref().and_then(|g| G::pass(&g.public, self.me)) else {
            return;
        };
        self.seal_input(now, n, Some(Seal::Reaction), pass);
    }

    /// Whether a kept answer may leave now: always outside a reaction window.
    pub(super) fn answer_may_leave(&self, now: Time) -> bool {
        let Some((n, log)) = self.reaction_step() else {
            return true;
        };
        match self.reaction_at {
            Some((at, l, opened)) if at == n && l == log => {
                let timing = self.cfg.reaction;
                let wait = if timing.hold_to_end {
                    timing.window_ms()
                } else {
                    timing.min_ms
                };
                now >= opened.plus(wait)
            }
            _ => false,
        }
    }

    /// Whether this seat's answer is sealed and kept, waiting for the window to let it go.
    pub(super) fn answer_held(&self) -> bool {
        self.reaction_step()
            .is_some_and(|(n, log)| self.sealed.contains_key(&(n, log)))
    }

    /// When the reaction window next needs this device: its answer's release, or its end.
    pub(super) fn reaction_deadline(&self) -> Option<Time> {
        let (n, log) = self.reaction_step()?;
        let (at, l, opened) = self.reaction_at?;
        if at != n || l != log {
            return None;
        }
        let timing = self.cfg.reaction;
        Some(
            if self.sealed.contains_key(&(n, log)) && !timing.hold_to_end {
                opened.plus(timing.min_ms)
            } else {
                opened.plus(timing.window_ms())
            },
        )
    }

    /// Milliseconds left in the reaction window this seat is in, for the screen's
    /// countdown; `None` outside one.
    pub fn reaction_left(&self, now: Time) -> Option<u64> {
        let (n, log) = self.reaction_step()?;
        let (at, l, opened) = self.reaction_at?;
        (at == n && l == log).then(|| {
            opened
                .plus(self.cfg.reaction.window_ms())
                .as_millis()
                .saturating_sub(now.as_millis())
        })
    }

    /// The order answers open in at a reaction step: the game's order of its seats, those
    /// still answering. `None` for any other step.
    pub(super) fn answer_order(pending: &Pending, active: &[Seat]) -> Option<Vec<Seat>> {
        match pending {
            Pending::Together {
                seats,
                seal: Seal::Reaction,
            } => Some(
                seats
                    .iter()
                    .copied()
                    .filter(|s| active.contains(s))
                    .collect(),
            ),
            _ => None,
        }
    }

    /// Whether `seat`'s opened answer answers (is not its pass).
    fn answered(&self, public: &G::Public, view: &View<G>, seat: Seat) -> bool {
        view.opens
            .get(&seat)
            .is_some_and(|(_, input)| G::pass(public, seat).as_ref() != Some(input))
    }

    /// Who must open next at a reaction step whose commitments are all in: the first seat
    /// in order not yet open, unless an earlier one answered (then nobody).
    pub(super) fn answers_owed(
        &self,
        public: &G::Public,
        order: &[Seat],
        view: &View<G>,
    ) -> BTreeSet<Seat> {
        for seat in order {
            if !view.opens.contains_key(seat) {
                return [*seat].into();
            }
            if self.answered(public, view, *seat) {
                return BTreeSet::new();
            }
        }
        BTreeSet::new()
    }

    /// Whether this seat opens now: outside a reaction step always; in one, when every
    /// seat before it in order has opened a pass.
    pub(super) fn my_turn_to_open(
        &self,
        pending: &Pending,
        view: &View<G>,
        active: &[Seat],
    ) -> bool {
        let Some(order) = Self::answer_order(pending, active) else {
            return true;
        };
        let Some(public) = self.game.as_ref().map(|g| &g.public) else {
            return false;
        };
        self.answers_owed(public, &order, view).contains(&self.me)
    }
}
