//! What each device holds of a step's commitments. Once a device holds the commitment of
//! every seat a sealed step waits on, it tells each peer so, once, with a digest of them
//! ([`Wire::Holding`]). A peer whose digest is ours holds the very same commitments: that is
//! what a seat waits for before it opens its own (see [`Core::unconfirmed`]). A peer whose
//! digest differs is sent our commitments of the step, and sends us its own when our digest
//! reaches it, so a seat that showed two players two versions of one is caught with both
//! signatures before any play is opened. This replaces echoing every commitment to every
//! peer: five messages per seat and step instead of twenty, at six seats.

use super::{Core, View};
use crate::log::{PlayRecord, StepRecord};
use crate::wire::{Basis, Hash, Holding, HoldingDigest, Kind, Wire, holding_digest};
use hoard_rules::{Game, Seat};
use std::collections::BTreeSet;

/// How many steps back a peer's statement is still compared with ours: a step sealed
/// until the audit completes the moment its last commitment comes, so a peer's word on it
/// reaches a device a step or two on. Older ones are history, which a resync brings.
const COMPARED_BACK: u32 = 4;

impl<G: Game> Core<G> {
    /// The digest of the commitments of `active` at step `n` in `view` (all of them in).
    pub(super) fn held_digest(
        &self,
        n: u32,
        basis: Basis,
        active: &[Seat],
        view: &View<G>,
    ) -> HoldingDigest {
        let seats: BTreeSet<Seat> = active.iter().copied().collect();
        holding_digest(
            &self.session,
            n,
            &basis.log,
            seats
                .into_iter()
                .filter_map(|s| view.commits.get(&s).map(|c| (s, *c))),
        )
    }

    /// This device holds the commitment of every seat of `active` at step `n`: tells each
    /// peer so (once per step and log), and sends its commitments to each peer that said
    /// it holds others.
    pub(super) fn hold_commitments(
        &mut self,
        n: u32,
        basis: Basis,
        active: &[Seat],
        view: &View<G>,
    ) {
        let digest = self.held_digest(n, basis, active, view);
        if self.holding_sent != Some((n, basis.log)) {
            self.holding_sent = Some((n, basis.log));
            let bytes = Wire::Holding(Holding { step: n, digest }).encode();
            self.send_to_peers(&bytes);
        }
        for peer in 0..self.keys.len() as Seat {
            if self.peers[peer as usize]
                .holding
                .get(&n)
                .is_some_and(|theirs| *theirs != digest)
            {
                self.send_commitments(peer, n, basis.log);
            }
        }
    }

    /// A peer's statement of the commitments it holds. For our step or a later one it is
    /// kept, for [`Core::unconfirmed`] and [`Core::hold_commitments`]; for a step we have
    /// completed it is compared with the commitments our log kept, and if they differ the
    /// peer is sent ours.
    pub(super) fn peer_holds(&mut self, peer: Seat, holding: &Holding) {
        let at = self.step();
        if holding.step >= at {
            // A few steps' worth: a device may state the next step's before we reach this
            // one's end.
            let held = &mut self.peers[peer as usize].holding;
            held.insert(holding.step, holding.digest);
            while held.len() > COMPARED_BACK as usize {
                held.pop_first();
            }
            return;
        }
        if holding.step.saturating_add(COMPARED_BACK) < at {
            return;
        }
        let Some(gs) = &self.game else { return };
        let m = holding.step;
        let (Some(StepRecord::Inputs { plays, .. }), Some(basis)) =
            (gs.records.get(m as usize), gs.bases.get(m as usize))
        else {
            return;
        };
        let log = basis.log;
        let ours = holding_digest(
            &self.session,
            m,
            &log,
            plays.iter().filter_map(|(seat, play)| match play {
                PlayRecord::Opened { commitment, .. } | PlayRecord::Closed { commitment } => {
                    Some((*seat, *commitment))
                }
                _ => None,
            }),
        );
        if ours != holding.digest {
            self.send_commitments(peer, m, log);
        }
    }

    /// Sends `peer` every commitment we hold of step `n` on `log`, once per step, within
    /// what it has paid for (see [`super::ANSWER_RATIO`]).
    fn send_commitments(&mut self, peer: Seat, n: u32, log: Hash) {
        if peer == self.me || self.peers[peer as usize].compared == Some(n) {
            return;
        }
        self.peers[peer as usize].compared = Some(n);
        let ours: Vec<Vec<u8>> = self
            .by_step
            .get(&n)
            .into_iter()
            .flatten()
            .filter_map(|(id, _)| self.msgs.get(id))
            .filter(|h| {
                matches!(&h.wire, Wire::Signed(s) if s.kind() == Kind::Commit && s.basis.log == log)
            })
            .map(|h| h.bytes.clone())
            .collect();
        for bytes in ours {
            if !self.answer(peer, bytes) {
                break;
            }
        }
    }
}
