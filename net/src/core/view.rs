//! The view of one step: its messages on our log sorted by kind as they arrive (openings
//! are matched to their commitments in sealing.rs), each input decoded and checked against
//! the rules once.

use super::away::removed_before;
use super::{Core, View};
use crate::audit::Fault;
use crate::beacon;
use crate::error::Result;
use crate::wire::{Basis, Body, Hash, Signed, Wire};
use hoard_rules::{Game, Pending, Seal, Seat};

impl<G: Game> Core<G> {
    /// The view of step `n` on our log. The current step's view is kept between calls and
    /// only messages that arrived since are sorted in.
    pub(super) fn view(&mut self, n: u32, pending: &Pending) -> View<G> {
        let Some(gs) = &self.game else {
            return View::new(n, Basis::default());
        };
        let Some(basis) = gs.bases.get(n as usize).copied() else {
            return View::new(n, Basis::default());
        };
        let current = n as usize == gs.records.len();
        let mut view = match self.view.take() {
            Some(v) if current && v.n == n && v.basis == basis => v,
            other => {
                if !current {
                    self.view = other;
                }
                View::new(n, basis)
            }
        };
        self.absorb(&mut view, pending);
        view
    }

    /// Sorts the step's messages that `view` has not seen yet into it, checking each. A
    /// message that proves a fault halts the game.
    fn absorb(&mut self, view: &mut View<G>, pending: &Pending) {
        let n = view.n;
        let basis = view.basis;
        let Some(gs) = &self.game else { return };
        let removed = removed_before(&gs.removed, n);
        let public_now = n as usize == gs.records.len();
        let (awaited, seal): (&[Seat], Option<Seal>) = match pending {
            Pending::Turn { seat } => (std::slice::from_ref(seat), None),
            Pending::Together { seats, seal } => (seats, Some(*seal)),
            _ => (&[], None),
        };
        let draw_k = gs.draws + 1;
        let ids = self.by_step.get(&n).map_or(&[][..], |v| &v[..]);
        let mut input_ids: Vec<(Seat, Hash)> = Vec::new();
        let mut escrow_faults = Vec::new();
        let mut complaint_faults = Vec::new();
        for (id, _) in ids.iter().skip(view.seen) {
            let Some(held) = self.msgs.get(id) else {
                continue;
            };
            match &held.wire {
                Wire::Link(l) => {
                    if matches!(pending, Pending::Chance)
                        && public_now
                        && !view.links.contains_key(&l.seat)
                        && !removed.contains(&l.seat)
                    {
                        let (known_k, known) = gs.links[l.seat as usize];
                        let len = self.peers[l.seat as usize]
                            .accept
                            .as_ref()
                            .map_or(0, |a| a.chain_len);
                        if beacon::verify_link(known_k, &known, draw_k, &l.link, len) {
                            view.links.insert(l.seat, l.link);
                        }
                    }
                }
                Wire::Signed(s) => {
                    if s.basis != basis || removed.contains(&s.seat) {
                        continue;
                    }
                    let awaits = awaited.contains(&s.seat);
                    match &s.body {
                        Body::Input(_) if awaits && matches!(seal, None | Some(Seal::Open)) => {
                            input_ids.push((s.seat, *id));
                        }
                        Body::Commit(c)
                            if awaits
                                && matches!(
                                    seal,
                                    Some(Seal::UntilAll | Seal::Reaction | Seal::UntilAudit)
                                ) =>
                        {
                            view.commits.entry(s.seat).or_insert(*c);
                            view.commit_ids.entry(s.seat).or_insert(*id);
                        }
                        Body::Vote { target, action } => {
                            view.votes
                                .entry(*target)
                                .or_default()
                                .insert(s.seat, *action);
                        }
                        Body::Reveal(r) if matches!(pending, Pending::Over(_)) => {
                            view.reveals.entry(s.seat).or_insert_with(|| r.clone());
                        }
                        Body::End if !matches!(pending, Pending::Over(_)) => {
                            view.ends.insert(s.seat);
                        }
                        Body::Complaint(c) if public_now => {
                            match self.check_complaint(n, s.seat, &c.card, &c.share, &c.proof) {
                                Ok(why) => {
                                    view.dishonest.get_or_insert(why);
                                }
                                Err(f) => complaint_faults.push(f),
                            }
                        }
                        Body::Escrow(opened) if public_now => {
                            match gs.deck.check_opened(s.seat, opened) {
                                Ok(()) => {
                                    view.escrow.entry(s.seat).or_insert_with(|| opened.clone());
                                }
                                Err(e) => escrow_faults.push((n, e)),
                            }
                        }
                        Body::Deck(part) if public_now => {
                            view.deck
                                .entry(s.seat)
                                .or_insert_with(|| (*id, (**part).clone()));
                        }
                        _ => {}
                    }
                }
                Wire::Open(o) => {
                    if awaited.contains(&o.seat)
                        && !removed.contains(&o.seat)
                        && matches!(seal, Some(Seal::UntilAll | Seal::Reaction))
                    {
                        view.open_ids.push((o.seat, *id));
                    }
                }
                Wire::Hello(_) | Wire::Holding(_) => {}
            }
        }
        view.seen = ids.len();

        let mut faults: Vec<Fault> = escrow_faults
            .into_iter()
            .map(|(n, e)| self.deck_fault(n, e))
            .chain(complaint_faults)
            .collect();
        self.sort_openings(view, public_now, &mut faults);
        for (seat, id) in input_ids {
            if view.inputs.contains_key(&seat) {
                continue;
            }
            match self.judge(n, seat, id, public_now, "signed a move") {
                Ok(judged) => {
                    view.inputs.insert(seat, judged);
                }
                Err(f) => faults.push(f),
            }
        }
        if public_now {
            self.check_deck_parts(view, pending, &mut faults);
        }
        if let Some(f) = faults.into_iter().next() {
            self.halt(f);
        }
    }

    /// Decodes the input a message carries and, at the current step, checks it against the
    /// public state; both results are kept by message id (a message's basis fixes them).
    pub(super) fn judge(
        &mut self,
        n: u32,
        seat: Seat,
        id: Hash,
        public_now: bool,
        did: &str,
    ) -> Result<(Vec<u8>, G::Input), Fault> {
        let who = || format!("{} (seat {seat})", self.start.name(seat));
        let bytes = match self.msgs.get(&id).map(|h| &h.wire) {
            Some(Wire::Signed(Signed {
                body: Body::Input(b),
                ..
            })) => b.clone(),
            Some(Wire::Open(o)) => o.input.clone(),
            _ => Vec::new(),
        };
        let decoded = self
            .decoded
            .entry(id)
            .or_insert_with(|| postcard::from_bytes::<G::Input>(&bytes).ok())
            .clone();
        let Some(input) = decoded else {
            return Err(Fault {
                seat: Some(seat),
                step: Some(n),
                what: format!("{} {did} that cannot be read at step {n}", who()),
            });
        };
        if public_now {
            let verdict = match self.checked.get(&id) {
                Some(v) => v.clone(),
                None => {
                    let v = self
                        .game
                        .as_ref()
                        .and_then(|g| G::check_input(&g.public, seat, &input).err())
                        .map(|e| e.to_string());
                    self.checked.insert(id, v.clone());
                    v
                }
            };
            if let Some(why) = verdict {
                return Err(Fault {
                    seat: Some(seat),
                    step: Some(n),
                    what: format!("{} {did} the rules forbid at step {n}: {why}", who()),
                });
            }
        }
        Ok((bytes, input))
    }
}
