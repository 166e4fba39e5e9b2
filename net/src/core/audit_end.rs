//! The game is over: this seat's reveal, every seat's reveal collected, and the audit.

use super::{Core, CoreEvent, Progress, View};
use crate::audit::{self, AuditInput, Fault, Shown};
use crate::error::Result;
use crate::log::{PlayRecord, StepRecord};
use crate::wire::{Accept, AuditOpening, Basis, Body, Reveal};
use hoard_rules::{Game, Seat};
use std::collections::BTreeSet;

impl<G: Game> Core<G> {
    /// The game is over: reveal, collect every reveal, audit.
    pub(super) fn over(
        &mut self,
        n: u32,
        basis: Basis,
        view: &View<G>,
        removed: &BTreeSet<Seat>,
        removals: &BTreeSet<Seat>,
    ) -> Result<Progress, Fault> {
        if self.verdict.is_some() {
            return Ok(Progress::Waiting(BTreeSet::new()));
        }
        let me = self.me;
        if !removed.contains(&me) && !view.reveals.contains_key(&me) {
            let Some(gs) = &self.game else {
                return Ok(Progress::Waiting(BTreeSet::new()));
            };
            let mut sealed = Vec::new();
            for (i, record) in gs.records.iter().enumerate() {
                if let StepRecord::Inputs { plays, .. } = record
                    && plays
                        .iter()
                        .any(|(s, p)| *s == me && matches!(p, PlayRecord::Closed { .. }))
                    && let Some((salt, input)) = self.sealed.get(&(i as u32, gs.bases[i].log))
                {
                    sealed.push(AuditOpening {
                        step: i as u32,
                        salt: *salt,
                        input: input.clone(),
                    });
                }
            }
            let reveal = Reveal {
                secret: self.secret,
                sealed,
            };
            self.sign_and_send(n, basis, Body::Reveal(reveal));
            return Ok(Progress::Again);
        }
        let gone: BTreeSet<Seat> = removed.union(removals).copied().collect();
        let owed: BTreeSet<Seat> = (0..self.keys.len() as Seat)
            .filter(|s| !gone.contains(s) && !view.reveals.contains_key(s))
            .collect();
        if !owed.is_empty() {
            return Ok(Progress::Waiting(owed));
        }
        let reveals: Vec<Option<Reveal>> = (0..self.keys.len() as Seat)
            .map(|s| view.reveals.get(&s).cloned())
            .collect();
        let Some(verdict) = self.with_audit_input(&reveals, basis.state, audit::audit::<G>) else {
            return Ok(Progress::Waiting(BTreeSet::new()));
        };
        for seat in removals {
            if let Some(gs) = &mut self.game
                && !gs.removed.contains_key(seat)
            {
                gs.removed.insert(*seat, n);
                self.events.push_back(CoreEvent::Removed {
                    step: n,
                    seat: *seat,
                });
            }
        }
        self.verdict = Some(verdict.clone());
        self.revealed = reveals;
        self.events.push_back(CoreEvent::Audited(verdict));
        Ok(Progress::Waiting(BTreeSet::new()))
    }

    /// Every hand at every step and every play that stayed sealed, once the game has been
    /// audited and so every secret is out; `None` before the audit or where the game does
    /// not replay (the verdict says why).
    pub fn shown(&self) -> Option<Shown<G>> {
        self.verdict.as_ref()?;
        self.with_audit_input(&self.revealed, self.state_hash(), audit::shown::<G>)?
            .ok()
    }

    /// Runs `work` on the audit's input: this game's log and accepts with `reveals`, to reach
    /// `final_state`. `None` before the game.
    fn with_audit_input<R>(
        &self,
        reveals: &[Option<Reveal>],
        final_state: crate::wire::Hash,
        work: impl FnOnce(&AuditInput<'_, G>) -> R,
    ) -> Option<R> {
        let gs = self.game.as_ref()?;
        let accepts: Vec<Accept> = self.peers.iter().filter_map(|p| p.accept.clone()).collect();
        Some(work(&AuditInput {
            session: &self.session,
            start: &self.start,
            config: &self.config,
            accepts: &accepts,
            records: &gs.records,
            reveals,
            sit_out: self.cfg.sit_out,
            final_state,
        }))
    }
}
