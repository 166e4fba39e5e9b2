//! Faults: proofs of cheating checked and kept, the game halted, and divergences (a peer's
//! state differing from ours on the same log) noted.

use super::{Core, CoreEvent, Divergence, Proof};
use crate::audit::{Fault, Verdict};
use crate::wire::{Basis, Kind};
use hoard_rules::{Game, Seat};

impl<G: Game> Core<G> {
    /// Whether a peer's message built on our log but another state: its rules disagree.
    pub(super) fn check_basis(&mut self, seat: Seat, step: u32, kind: Kind, basis: Basis) {
        let Some(gs) = &self.game else { return };
        if kind == Kind::Accept || seat == self.me {
            return;
        }
        let Some(ours) = gs.bases.get(step as usize) else {
            return;
        };
        if ours.log == basis.log && ours.state != basis.state && self.diverged.insert((seat, step))
        {
            let d = Divergence {
                seat,
                step,
                ours: ours.state,
                theirs: basis.state,
            };
            self.divergences.push(d.clone());
            self.events.push_back(CoreEvent::Diverged(d));
        }
    }

    pub(super) fn recheck_divergence(&mut self, step: u32) {
        let msgs: Vec<(Seat, Kind, Basis)> = self
            .signed_at(step)
            .map(|s| (s.seat, s.kind(), s.basis))
            .collect();
        for (seat, kind, basis) in msgs {
            self.check_basis(seat, step, kind, basis);
        }
    }

    pub(super) fn prove(&mut self, proof: Proof) {
        if let Some(fault) = proof.check(&self.start) {
            self.proofs.push(proof);
            self.halt(fault);
        }
    }

    pub(super) fn halt(&mut self, fault: Fault) {
        if self.halted.is_some() {
            return;
        }
        self.halted = Some(fault.clone());
        self.events.push_back(CoreEvent::Halted(fault.clone()));
        if self.verdict.is_none() {
            self.verdict = Some(Verdict::Fault(fault.clone()));
            self.events
                .push_back(CoreEvent::Audited(Verdict::Fault(fault)));
        }
    }
}
