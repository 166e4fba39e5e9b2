//! Ending the game by agreement: this seat's agreement, who has agreed, a step recorded as
//! ended, and the word sent when an agreement cannot be whole.

use super::{Core, CoreEvent, Time};
use crate::error::{NetError, Result};
use crate::log::{self, StepRecord};
use crate::wire::{Basis, Body, Kind};
use hoard_rules::{Game, Outcome, Pending, Seat, public_hash};
use std::collections::BTreeSet;

impl<G: Game> Core<G> {
    /// This seat's agreement to end the game at the current step. It holds for this step
    /// only; the game ends here when every seat still in it has agreed.
    pub fn agree_to_end(&mut self, now: Time) -> Result<()> {
        if let Some(f) = &self.halted {
            return Err(NetError::Halted(f.what.clone()));
        }
        let Some(gs) = &self.game else {
            return Err(NetError::CannotEnd("the game has not begun".into()));
        };
        if matches!(gs.pending, Pending::Over(_)) {
            return Err(NetError::CannotEnd("the game is already over".into()));
        }
        if gs.removed.contains_key(&self.me) {
            return Err(NetError::CannotEnd(
                "the table removed you from this game".into(),
            ));
        }
        let n = gs.records.len() as u32;
        let basis = gs.bases[n as usize];
        if !self.slots.contains_key(&(self.me, n, Kind::End, basis.log)) {
            self.sign_and_send(n, basis, Body::End);
        }
        self.advance(now);
        Ok(())
    }

    /// The seats that agreed to end the game at the current step (none once it is over).
    pub fn end_proposals(&self) -> Vec<Seat> {
        let Some(gs) = &self.game else {
            return Vec::new();
        };
        if matches!(gs.pending, Pending::Over(_)) {
            return Vec::new();
        }
        let n = gs.records.len() as u32;
        let log = gs.bases[n as usize].log;
        let seats: BTreeSet<Seat> = self
            .signed_at(n)
            .filter(|s| s.kind() == Kind::End && s.basis.log == log)
            .filter(|s| !gs.removed.contains_key(&s.seat))
            .map(|s| s.seat)
            .collect();
        seats.into_iter().collect()
    }

    /// The step at which the table agreed to end the game, if it did.
    pub fn ended_by_agreement(&self) -> Option<u32> {
        let records = self.records();
        match records.last() {
            // An end no seat signed is a game stopped on a dishonest deck.
            Some(StepRecord::Ended { by }) if !by.is_empty() => Some(records.len() as u32 - 1),
            _ => None,
        }
    }

    /// An agreement to end the game at a step we completed the ordinary way (it cannot be
    /// whole: this seat did not sign it): tell its signer how the step ended, so that it
    /// stops holding the step.
    pub(super) fn end_arrived(&mut self, step: u32, basis: Basis) {
        let Some(gs) = &self.game else { return };
        let done = gs.records.len() as u32;
        if step >= done
            || gs.bases[step as usize] != basis
            || matches!(gs.records[step as usize], StepRecord::Ended { .. })
            || self.table_is_past(step + 1)
        {
            return;
        }
        self.send_head(step + 1);
    }

    /// Whether another seat agreed to end the game at step `n`, which then went on.
    pub(super) fn end_failed(&self, n: u32) -> bool {
        self.signed_at(n)
            .any(|s| s.seat != self.me && s.kind() == Kind::End)
    }

    /// Ends the game at step `n` by the agreement of the seats `by`, removing `removals`:
    /// the step is recorded, nothing is played, and the game is over (no winner: it was
    /// not played out).
    pub(super) fn end_here(&mut self, now: Time, n: u32, by: Vec<Seat>, removals: &BTreeSet<Seat>) {
        let Some(gs) = &mut self.game else { return };
        for seat in removals {
            gs.removed.entry(*seat).or_insert(n);
            self.events.push_back(CoreEvent::Removed {
                step: n,
                seat: *seat,
            });
        }
        let record = StepRecord::Ended { by };
        let basis = log::next_basis(&gs.bases[n as usize], &record, public_hash(&gs.public));
        gs.records.push(record);
        gs.bases.push(basis);
        gs.pending = Pending::Over(Outcome::default());
        self.events.push_back(CoreEvent::Ended { step: n });
        self.quiet_since = self.quiet_since.max(now);
        self.recheck_divergence(n + 1);
    }
}
