//! This seat's moves and sealed plays: an open input, or a commitment whose salt and input
//! reach the disk first; a kept sealed play committed again after a restart; this seat's
//! opening, once every other player has shown it holds the same commitments; and the
//! openings of a step matched to their commitments.

use super::{Core, Origin, Persist, Progress, SecretRecord, Time, View, encode, random_hash};
use crate::audit::Fault;
use crate::error::{NetError, Result};
use crate::seal;
use crate::wire::{Basis, Body, Hash, Opening, Wire};
use hoard_rules::{Game, Pending, Seal, Seat};
use std::collections::BTreeSet;

impl<G: Game> Core<G> {
    /// This seat's move for the current step.
    pub fn submit(&mut self, now: Time, input: G::Input) -> Result<()> {
        if let Some(f) = &self.halted {
            return Err(NetError::Halted(f.what.clone()));
        }
        let Some(gs) = &self.game else {
            return Err(NetError::NotYourMove("the game has not begun".into()));
        };
        let n = gs.records.len() as u32;
        let seal = match &gs.pending {
            Pending::Turn { seat } if *seat == self.me => None,
            Pending::Together { seats, seal } if seats.contains(&self.me) => Some(*seal),
            Pending::Over(_) => return Err(NetError::Rules(hoard_rules::RuleError::GameOver)),
            _ => {
                return Err(NetError::NotYourMove(
                    "the table is not waiting for you".into(),
                ));
            }
        };
        if gs.removed.contains_key(&self.me) {
            return Err(NetError::NotYourMove(
                "the table removed you from this game".into(),
            ));
        }
        if !self.my_move() {
            return Err(NetError::NotYourMove(
                "you have already played this step".into(),
            ));
        }
        G::check_input(&gs.public, self.me, &input)?;
        if let Some(private) = gs.privates.get(self.me as usize).and_then(|p| p.as_ref())
            && !G::allows(&gs.public, private, self.me, &input)
        {
            return Err(NetError::Rules(hoard_rules::RuleError::Illegal {
                seat: self.me,
                why: "your hand does not allow that move".into(),
            }));
        }
        self.seal_input(now, n, seal, input);
        Ok(())
    }

    /// Signs this seat's input for step `n` (sealed as `seal` says). An answer at a
    /// reaction step is only sealed and kept: [`Core::seal_kept_play`] signs its commitment
    /// when the window lets it leave.
    pub(super) fn seal_input(&mut self, now: Time, n: u32, seal: Option<Seal>, input: G::Input) {
        let Some(gs) = &self.game else { return };
        let bytes = encode(&input);
        let basis = gs.bases[n as usize];
        let body = match seal {
            None | Some(Seal::Open) => Body::Input(bytes),
            Some(Seal::UntilAll | Seal::Reaction | Seal::UntilAudit) => {
                let salt = random_hash(&mut self.rng);
                let commitment = seal::commitment(&self.session, n, self.me, &salt, &bytes);
                // The salt and input reach the disk before the commitment can leave.
                self.persists
                    .push_back(Persist::Secret(SecretRecord::Sealed {
                        step: n,
                        log: basis.log,
                        salt,
                        input: bytes.clone(),
                    }));
                self.sealed.insert((n, basis.log), (salt, bytes));
                Body::Commit(commitment)
            }
        };
        if seal != Some(Seal::Reaction) {
            self.sign_and_send(n, basis, body);
        }
        self.advance(now);
    }

    /// The `active` seats that have not shown this device they hold every commitment of
    /// step `n` in `view` (see [`Core::open_sealed_play`]).
    pub(super) fn unconfirmed(
        &self,
        n: u32,
        basis: Basis,
        active: &[Seat],
        view: &View<G>,
    ) -> BTreeSet<Seat> {
        let me = self.me;
        let ids: Vec<Hash> = active
            .iter()
            .filter_map(|s| view.commit_ids.get(s).copied())
            .collect();
        let digest = self.held_digest(n, basis, active, view);
        let known = if self.confirmed.0 == n && self.confirmed.1 == basis.log {
            self.confirmed.2
        } else {
            0
        };
        active
            .iter()
            .copied()
            .filter(|p| *p != me && known & (1 << p) == 0 && !view.opens.contains_key(p))
            .filter(|p| {
                let peer = &self.peers[*p as usize];
                let held = peer.holding.get(&n) == Some(&digest);
                let listed = matches!(&peer.have,
                    Some((step, have)) if *step == n && ids.iter().all(|id| have.contains(id)));
                !(held || listed)
            })
            .collect()
    }

    /// Signs again the commitment to this seat's kept sealed play for the current step, if
    /// this device holds none: a commitment is kept without waiting on the disk, so a crash
    /// may lose it, but never the salt and input, made durable before it could leave. That
    /// commitment may have reached the table; choosing anew would show it two sealed
    /// plays. Signatures are deterministic, so this is the very message made before. It is
    /// signed again even where the table has gone past the step (with it, most likely):
    /// the device then holds its own part of the step as it did before the crash, rather
    /// than wait for a peer to send it back.
    /// Returns whether it signed.
    pub(super) fn seal_kept_play(&mut self, now: Time) -> bool {
        if !self.answer_may_leave(now) {
            return false;
        }
        let Some(gs) = &self.game else { return false };
        let sealed = matches!(
            gs.pending,
            Pending::Together {
                seal: Seal::UntilAll | Seal::Reaction | Seal::UntilAudit,
                ..
            }
        );
        let n = gs.records.len() as u32;
        let basis = gs.bases[n as usize];
        let Some((salt, input)) = self.sealed.get(&(n, basis.log)) else {
            return false;
        };
        if !sealed || !self.unsigned_move() {
            return false;
        }
        let commitment = seal::commitment(&self.session, n, self.me, salt, input);
        self.sign_and_send(n, basis, Body::Commit(commitment));
        true
    }

    /// Opens this seat's sealed play at step `n` (on `basis`), every commitment of the
    /// `active` seats being in `view`: only once each other player has shown that it holds
    /// the same commitments, else waiting on those that have not.
    pub(super) fn open_sealed_play(
        &mut self,
        n: u32,
        basis: Basis,
        active: &[Seat],
        view: &View<G>,
    ) -> Result<Progress, Fault> {
        let me = self.me;
        // Every commitment is in. Open only once each other player has shown it holds
        // the very same ones: by the digest of those it holds (see holding.rs), or, when
        // that was lost, by listing them in its sync hello, or by having opened (an honest
        // seat opens only after the same check, and a cheat's word counts for
        // nothing anyway). A seat that showed different commitments to different
        // players is so caught (both signed versions meet) before anyone has opened.
        if self.confirmed.0 != n || self.confirmed.1 != basis.log {
            self.confirmed = (n, basis.log, 0);
        }
        let known = self.confirmed.2;
        let unconfirmed = self.unconfirmed(n, basis, active, view);
        // Once shown, it stays shown: the set of commitments cannot change.
        self.confirmed.2 = active
            .iter()
            .filter(|p| !unconfirmed.contains(p))
            .fold(known, |bits, p| bits | (1 << p));
        if !unconfirmed.is_empty() {
            return Ok(Progress::Waiting(unconfirmed));
        }
        let Some((salt, input)) = self.sealed.get(&(n, basis.log)).cloned() else {
            return Err(Fault {
                seat: Some(me),
                step: Some(n),
                what: "this device lost its own sealed play and cannot open it".into(),
            });
        };
        // Unsigned: its seat's signed commitment binds it (see [`Opening`]).
        let opening = Opening {
            seat: me,
            step: n,
            salt,
            input,
        };
        let _ = self.ingest(self.quiet_since, Wire::Open(opening), None, Origin::Own);
        Ok(Progress::Again)
    }

    /// Sorts the openings `view` has seen into it once their commitments are in: one that
    /// opens its seat's commitment is judged like a move; one that does not is nobody's
    /// play, and is passed over (the seat's own device was refused it on arrival).
    pub(super) fn sort_openings(
        &mut self,
        view: &mut View<G>,
        public_now: bool,
        faults: &mut Vec<Fault>,
    ) {
        let n = view.n;
        let mut waiting = Vec::new();
        for (seat, id) in std::mem::take(&mut view.open_ids) {
            if view.opens.contains_key(&seat) {
                continue;
            }
            let Some(Wire::Open(open)) = self.msgs.get(&id).map(|h| &h.wire) else {
                continue;
            };
            let Some(commitment) = view.commits.get(&seat) else {
                // Its commitment has not come yet: look again when it does.
                waiting.push((seat, id));
                continue;
            };
            if !open.opens(&self.session, commitment) {
                continue;
            }
            match self.judge(n, seat, id, public_now, "sealed a play") {
                Ok(judged) => {
                    view.opens.insert(seat, judged);
                }
                Err(f) => faults.push(f),
            }
        }
        view.open_ids = waiting;
    }
}
