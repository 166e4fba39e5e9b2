//! The step machine: completing every step that can be completed (this seat's duties
//! first), the game's beginning, and a completed step applied to the game and the log.

use super::away::{is_quorum, quorum, removed_before, sitting_out};
use super::deck::RecordAndStep;
use super::{Core, CoreEvent, GameState, Progress, Time, View};
use crate::audit::{Absence, Fault};
use crate::beacon;
use crate::error::Result;
use crate::log::{self, PlayRecord, StepRecord};
use crate::mental::table::TableDeck;
use crate::wire::{Basis, Body, Hash, Kind, VoteAction};
use hoard_rules::{Game, Pending, Play, Seal, Seat, Step, public_hash};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;

/// What the current step asks of whom, worked out at each try at it from the game's
/// pending step and the step's votes ([`Core::plan`]).
struct Plan {
    n: u32,
    basis: Basis,
    pending: Pending,
    /// Every seat at the table.
    all: Vec<Seat>,
    /// Seats removed before this step.
    removed: BTreeSet<Seat>,
    /// Seats the votes skip, and remove, at this step (not a seat yet to escrow its key,
    /// at a shuffle).
    skips: BTreeSet<Seat>,
    removals: BTreeSet<Seat>,
    /// Seats still in that the votes do not remove here: all must agree to end it here.
    staying: Vec<Seat>,
    /// Seats the step waits on, and of those the ones that play it (not removed, passed
    /// over by the votes, or sitting out a draw).
    awaited: Vec<Seat>,
    active: Vec<Seat>,
    /// Seats removed before or at this step.
    gone: BTreeSet<Seat>,
    /// Seats whose escrowed keys are opened at this step (a deal or reveal after a removal).
    escrow_needed: Vec<Seat>,
    /// Seats this seat voted to skip here that the votes do not skip (yet).
    my_votes: BTreeSet<Seat>,
    /// This seat is still in the game.
    i_am_in: bool,
}

impl<G: Game> Core<G> {
    /// Completes every step that can be completed, does this seat's duties (beacon links,
    /// openings, reveals), and updates who is away.
    pub(super) fn advance(&mut self, now: Time) {
        // A step this moves to may wait on a seat this seat has chosen to go on without:
        // its vote may end that step too. Or on this seat's own sealed play, kept from
        // before a restart that lost its commitment.
        loop {
            self.advance_once(now);
            self.react(now);
            if !self.vote_standing() && !self.seal_kept_play(now) {
                break;
            }
        }
        self.say_back(true);
    }

    fn advance_once(&mut self, now: Time) {
        let mut owed = BTreeSet::new();
        while self.halted.is_none() {
            if self.game.is_none() {
                if self.peers.iter().all(|p| p.accept.is_some()) {
                    self.begin(now);
                    continue;
                }
                owed = (0..self.keys.len() as Seat)
                    .filter(|s| self.peers[*s as usize].accept.is_none())
                    .collect();
                break;
            }
            match self.try_step(now) {
                Ok(Progress::Again) => continue,
                Ok(Progress::Waiting(w)) => {
                    owed = w;
                    break;
                }
                Err(fault) => {
                    self.halt(fault);
                    break;
                }
            }
        }
        if !self.unfinished() {
            owed.clear();
        }
        for seat in 0..self.keys.len() {
            let is_owed = owed.contains(&(seat as Seat));
            match (is_owed, self.peers[seat].owed_since) {
                (true, None) => self.peers[seat].owed_since = Some(now),
                (false, Some(_)) => {
                    self.peers[seat].owed_since = None;
                    // A seat the table went on without is still away, not back.
                    if self.peers[seat].away && self.peers[seat].standing.is_none() {
                        self.peers[seat].away = false;
                        self.events
                            .push_back(CoreEvent::Back { seat: seat as Seat });
                    }
                }
                _ => {}
            }
            if let Some(since) = self.peers[seat].owed_since
                && !self.peers[seat].away
                && self.away_at(seat, since).is_some_and(|at| now >= at)
            {
                self.peers[seat].away = true;
                self.events
                    .push_back(CoreEvent::Away { seat: seat as Seat });
            }
        }
    }

    pub(super) fn begin(&mut self, now: Time) {
        let n = self.keys.len();
        let public = match G::setup(&self.config) {
            Ok(p) => p,
            Err(e) => {
                self.halt(Fault {
                    seat: None,
                    step: None,
                    what: format!("the game could not be set up: {e}"),
                });
                return;
            }
        };
        let mut privates = vec![None; n];
        privates[self.me as usize] = Some(G::private(&self.config, self.me, self.secret));
        let links = self
            .peers
            .iter()
            .map(|p| (0, p.accept.as_ref().map_or([0; 32], |a| a.chain_head)))
            .collect();
        let basis = Basis {
            log: log::genesis(&self.session),
            state: public_hash(&public),
        };
        self.game = Some(GameState {
            pending: G::pending(&public),
            public,
            privates,
            records: Vec::new(),
            bases: vec![basis],
            events: Vec::new(),
            links,
            draws: 0,
            removed: BTreeMap::new(),
            skipped: BTreeSet::new(),
            deck: TableDeck::new(
                G::NAME,
                self.session.0,
                self.peers
                    .iter()
                    .map(|p| p.accept.as_ref().map(|a| a.deck.key).unwrap_or_default())
                    .collect(),
            ),
        });
        self.quiet_since = self.quiet_since.max(now);
        self.events.push_back(CoreEvent::Began);
        self.recheck_divergence(0);
    }

    /// Tries to complete the current step.
    fn try_step(&mut self, now: Time) -> Result<Progress, Fault> {
        let Some(gs) = &self.game else {
            return Ok(Progress::Waiting(BTreeSet::new()));
        };
        let n = gs.records.len() as u32;
        let pending = gs.pending.clone();
        let view = self.view(n, &pending);
        let result = if self.halted.is_some() {
            Ok(Progress::Waiting(BTreeSet::new()))
        } else {
            self.step_with(now, &pending, &view)
        };
        if self.step() == n && self.view.is_none() {
            self.view = Some(view);
        }
        result
    }

    /// [`Core::try_step`] with the current step's view. A seat this seat voted to go on
    /// without may be held up, wherever the step waits on it, by another seat's vote: that
    /// seat owes the table its word too (it may be gone as well, and then be voted on in
    /// turn; seats gone at once are decided together).
    fn step_with(
        &mut self,
        now: Time,
        pending: &Pending,
        view: &View<G>,
    ) -> Result<Progress, Fault> {
        let progress = self.step_once(now, pending, view)?;
        let Progress::Waiting(mut owed) = progress else {
            return Ok(progress);
        };
        let Some(gs) = &self.game else {
            return Ok(Progress::Waiting(owed));
        };
        let n = gs.records.len() as u32;
        let removed = removed_before(&gs.removed, n);
        let (skips, _) = quorum(&view.votes, &removed, self.keys.len());
        let me = self.me;
        let waiting_on: Vec<Seat> = view
            .votes
            .iter()
            .filter(|(t, voters)| {
                owed.contains(t) && !skips.contains(t) && voters.get(&me).is_some_and(|a| a.skips())
            })
            .map(|(t, _)| *t)
            .collect();
        owed.extend(self.votes_owed(now, &waiting_on, view, &removed, &skips));
        Ok(Progress::Waiting(owed))
    }

    /// One try at the current step: see [`Core::step_with`]. In order: what the step asks
    /// of whom ([`Core::plan`], which also ends the step when the table agreed to end the
    /// game or a card showed a shuffle dishonest); this seat's own duties; what is still
    /// owed; the step's record; whether this seat must hold the step for an agreement to
    /// end or for its votes; and the step applied.
    fn step_once(
        &mut self,
        now: Time,
        pending: &Pending,
        view: &View<G>,
    ) -> Result<Progress, Fault> {
        let plan = match self.plan(now, pending, view)? {
            ControlFlow::Continue(plan) => plan,
            ControlFlow::Break(progress) => return Ok(progress),
        };
        if let ControlFlow::Break(progress) = self.do_my_duties(&plan, view)? {
            return Ok(progress);
        }
        let owed = self.owed(&plan, view);
        if !owed.is_empty() {
            return Ok(Progress::Waiting(owed));
        }
        let (record, step) = match self.record(now, &plan, view)? {
            ControlFlow::Continue(done) => done,
            ControlFlow::Break(progress) => return Ok(progress),
        };
        let next_log = log::extend(&plan.basis.log, &record);
        if let ControlFlow::Break(progress) = self.hold(now, &plan, view, &next_log) {
            return Ok(progress);
        }
        let Plan {
            n,
            awaited,
            skips,
            removals,
            ..
        } = plan;
        self.apply(now, n, record, step, (&skips, &awaited), &removals)?;
        Ok(Progress::Again)
    }

    /// What the current step asks of whom, from the game's pending step and the step's
    /// votes. A step that ends here (the table agreed to end the game, a card showed a
    /// shuffle dishonest, a deal no one can finish) is ended, and breaks.
    fn plan(
        &mut self,
        now: Time,
        pending: &Pending,
        view: &View<G>,
    ) -> Result<ControlFlow<Progress, Plan>, Fault> {
        let Some(gs) = &self.game else {
            return Ok(ControlFlow::Break(Progress::Waiting(BTreeSet::new())));
        };
        let n = gs.records.len() as u32;
        let basis = gs.bases[n as usize];
        let pending = pending.clone();
        let all: Vec<Seat> = (0..self.keys.len() as Seat).collect();
        let removed = removed_before(&gs.removed, n);
        let (skips, removals, end_removals) = self.step_quorum(&pending, &view.votes, &removed);
        let me = self.me;
        let i_am_in = !removed.contains(&me);

        if let Pending::Over(_) = pending {
            return self
                .over(n, basis, view, &removed, &removals)
                .map(ControlFlow::Break);
        }
        // Every seat still in the game agreed to end it here: nothing else of this step
        // counts (no seat that agreed has completed it otherwise). A seat the table votes
        // to remove at this step need not agree; it is removed with the game's end.
        let staying: Vec<Seat> = all
            .iter()
            .copied()
            .filter(|s| !removed.contains(s) && !end_removals.contains(s))
            .collect();
        if !staying.is_empty() && staying.iter().all(|s| view.ends.contains(s)) {
            self.end_here(now, n, staying, &end_removals);
            return Ok(ControlFlow::Break(Progress::Again));
        }
        if let Some(why) = &view.dishonest {
            self.stop_dishonest(now, n, why);
            return Ok(ControlFlow::Break(Progress::Again));
        }

        let awaited: Vec<Seat> = match &pending {
            Pending::Turn { seat } => vec![*seat],
            Pending::Together { seats, .. } => seats.clone(),
            Pending::Chance => all
                .iter()
                .copied()
                .filter(|s| {
                    self.peers[*s as usize]
                        .accept
                        .as_ref()
                        .is_some_and(|a| a.chain_len > gs.draws)
                })
                .collect(),
            Pending::Shuffle { .. } | Pending::Deal { .. } | Pending::Reveal { .. } => {
                Self::deck_awaited(&pending, self.keys.len())
            }
            Pending::Over(_) => Vec::new(),
        };
        let sitting = match &pending {
            Pending::Chance => sitting_out(&gs.records[..n as usize], &removed, self.keys.len()),
            _ => BTreeSet::new(),
        };
        // A deal or a reveal cannot go on without a seat's decryption shares: the table
        // waits for it (a skip vote does not pass over it). A seat the table removes (now
        // or before) has its shares made from its escrowed key, which every other seat
        // opens at the step.
        let needs_all = matches!(pending, Pending::Deal { .. } | Pending::Reveal { .. });
        let gone: BTreeSet<Seat> = removed.union(&removals).copied().collect();
        if let Some(why) = self.undealable(&pending, &gone) {
            let staying = all.iter().copied().filter(|s| !gone.contains(s)).collect();
            self.stop_undealable(now, n, &why, staying);
            return Ok(ControlFlow::Break(Progress::Again));
        }
        let escrow_needed = self.escrow_needed(&pending, &gone);
        let active: Vec<Seat> = awaited
            .iter()
            .copied()
            .filter(|s| {
                let passed_over = if needs_all {
                    removals.contains(s)
                } else {
                    skips.contains(s)
                };
                !removed.contains(s) && !passed_over && !sitting.contains(s)
            })
            .collect();
        // Seats I voted to skip: I hold the step for the vote unless it is shown to have
        // ended with their move.
        let my_votes: BTreeSet<Seat> = view
            .votes
            .iter()
            .filter(|(t, voters)| voters.get(&me).is_some_and(|a| a.skips()) && !skips.contains(t))
            .map(|(t, _)| *t)
            .collect();
        Ok(ControlFlow::Continue(Plan {
            n,
            basis,
            pending,
            all,
            removed,
            skips,
            removals,
            staying,
            awaited,
            active,
            gone,
            escrow_needed,
            my_votes,
            i_am_in,
        }))
    }

    /// This seat's duties at the step: a card it was given that is no card shown to the
    /// table, its beacon link, its opening, its deck part or escrow, the proof of the cards
    /// its input moves. Breaks once it has done one (look again).
    fn do_my_duties(
        &mut self,
        plan: &Plan,
        view: &View<G>,
    ) -> Result<ControlFlow<Progress>, Fault> {
        let Plan {
            n,
            basis,
            pending,
            active,
            escrow_needed,
            i_am_in,
            ..
        } = plan;
        let (n, basis, i_am_in, me) = (*n, *basis, *i_am_in, self.me);
        let again = Ok(ControlFlow::Break(Progress::Again));
        // A card given to this seat that is no card: show the table, which stops there.
        if self.complaint.is_some() && !self.table_is_past(n) {
            let body = self.my_complaint(n);
            self.complaint = None;
            if let Some(body) = body {
                self.sign_and_send(n, basis, body);
                return again;
            }
        }
        // Every commitment of a sealed step is in: say so, and compare with the peers.
        if matches!(pending, Pending::Together { seal, .. } if *seal != Seal::Open)
            && !active.is_empty()
            && active.iter().all(|s| view.commits.contains_key(s))
        {
            self.hold_commitments(n, basis, active, view);
        }
        let Some(gs) = &self.game else {
            return Ok(ControlFlow::Continue(()));
        };
        match pending {
            // Not at a step the table has left (a link not yet spent stays secret until its
            // draw), unless this seat was past the step itself: it spent the link there, and
            // a device whose unsynced writes a power cut took (its own links among them)
            // gets it from no peer, each of which sends a returning device only what that
            // device did not make itself. The link is the same bytes every time.
            Pending::Chance
                if i_am_in
                    && active.contains(&me)
                    && !view.links.contains_key(&me)
                    && (!self.table_is_past(n) || self.was_past(n)) =>
            {
                if let Some(x) = self.chain.link(gs.draws + 1) {
                    self.send_link(n, x);
                    return again;
                }
            }
            Pending::Together {
                seal: Seal::UntilAll | Seal::Reaction,
                ..
            } if i_am_in
                && active.contains(&me)
                && view.commits.contains_key(&me)
                && !view.opens.contains_key(&me)
                && active.iter().all(|s| view.commits.contains_key(s))
                && self.my_turn_to_open(pending, view, active) =>
            {
                return self
                    .open_sealed_play(n, basis, active, view)
                    .map(ControlFlow::Break);
            }
            Pending::Deal { .. } | Pending::Reveal { .. }
                if i_am_in
                    && !self.table_is_past(n)
                    && let Some(body) = self.my_escrow(view, escrow_needed) =>
            {
                self.sign_and_send(n, basis, body);
                return again;
            }
            Pending::Shuffle { .. } | Pending::Deal { .. } | Pending::Reveal { .. }
                if i_am_in && !self.table_is_past(n) =>
            {
                match self.my_deck_part(pending, view, active) {
                    Some(Ok(mut part)) => {
                        if let Some(crooked) = self.crooked_deck {
                            crooked(&mut part);
                        }
                        self.sign_and_send(n, basis, Body::Deck(Box::new(part)));
                        return again;
                    }
                    Some(Err(fault)) => return Err(fault),
                    None => {}
                }
            }
            _ => {}
        }
        // The proof of the cards this seat's input shows or passes goes with the input (or
        // its opening), and again after a restart that lost it: it is made the same.
        if i_am_in
            && active.contains(&me)
            && !view.deck.contains_key(&me)
            && let Some((_, input)) = view.inputs.get(&me).or(view.opens.get(&me))
            && !G::card_moves(&gs.public, me, input).is_empty()
        {
            let input = input.clone();
            self.send_moves(n, basis, &input);
            return again;
        }
        Ok(ControlFlow::Continue(()))
    }

    /// What is still missing at the step, and from whom.
    fn owed(&self, plan: &Plan, view: &View<G>) -> BTreeSet<Seat> {
        let Some(gs) = &self.game else {
            return BTreeSet::new();
        };
        let Plan {
            n,
            basis,
            pending,
            all,
            active,
            gone,
            escrow_needed,
            ..
        } = plan;
        let missing = |of: &dyn Fn(&Seat) -> bool| -> BTreeSet<Seat> {
            active.iter().copied().filter(|s| !of(s)).collect()
        };
        let owed: BTreeSet<Seat> = match pending {
            Pending::Chance => missing(&|s| view.links.contains_key(s)),
            Pending::Turn { .. }
            | Pending::Together {
                seal: Seal::Open, ..
            } => missing(&|s| view.inputs.contains_key(s)),
            Pending::Together {
                seal: Seal::UntilAudit,
                ..
            } => missing(&|s| view.commits.contains_key(s)),
            Pending::Together {
                seal: Seal::UntilAll | Seal::Reaction,
                ..
            } => {
                let uncommitted = missing(&|s| view.commits.contains_key(s));
                if !uncommitted.is_empty() {
                    uncommitted
                } else if let Some(order) = Self::answer_order(pending, active) {
                    // Answers open one by one, until the first that answers; each opens
                    // once every seat has shown it holds the same commitments, so a seat
                    // that has not (a device gone since it committed) holds them all up.
                    let mut owed = self.answers_owed(&gs.public, &order, view);
                    if !owed.is_empty() {
                        owed.extend(self.unconfirmed(*n, *basis, active, view));
                    }
                    owed
                } else {
                    missing(&|s| view.opens.contains_key(s))
                }
            }
            Pending::Shuffle { .. } | Pending::Deal { .. } | Pending::Reveal { .. } => {
                let mut owed = Self::deck_owed(pending, view, active);
                if !escrow_needed.is_empty() {
                    // Every seat still in opens its part, the receiver of a deal too.
                    owed.extend(
                        all.iter()
                            .filter(|s| !gone.contains(s) && !view.escrow.contains_key(s)),
                    );
                }
                owed
            }
            Pending::Over(_) => BTreeSet::new(),
        };
        if !owed.is_empty() {
            return owed;
        }
        self.moves_owed(view, active)
    }

    /// Everything is in: the step's record, and the step the engine sees. Breaks where
    /// the step cannot be made after all (a seat the game cannot sit out, a card that shows
    /// a shuffle dishonest).
    fn record(
        &mut self,
        now: Time,
        plan: &Plan,
        view: &View<G>,
    ) -> Result<ControlFlow<Progress, RecordAndStep<G>>, Fault> {
        let Some(gs) = &self.game else {
            return Ok(ControlFlow::Break(Progress::Waiting(BTreeSet::new())));
        };
        let Plan {
            n,
            basis,
            pending,
            removed,
            removals,
            awaited,
            active,
            ..
        } = plan;
        let (n, me) = (*n, self.me);
        let absence = |seat: Seat| {
            if removed.contains(&seat) || removals.contains(&seat) {
                Absence::Removed
            } else {
                Absence::Skipped
            }
        };
        let sit_out = |seat: Seat| {
            let absence = absence(seat);
            let input = self.cfg.sit_out.and_then(|f| f(&gs.public, seat, absence));
            input.map(|i| (i, absence.record()))
        };
        let done = match pending {
            Pending::Chance => {
                let links: Vec<(Seat, Hash)> = active.iter().map(|s| (*s, view.links[s])).collect();
                let draw = beacon::draw(&self.session, gs.draws + 1, &links);
                (
                    StepRecord::Chance {
                        draw,
                        from: active.clone(),
                    },
                    Step::Chance(draw),
                )
            }
            Pending::Turn { .. } | Pending::Together { .. } => {
                let seal = match pending {
                    Pending::Together { seal, .. } => *seal,
                    _ => Seal::Open,
                };
                let mut plays = Vec::with_capacity(awaited.len());
                let mut rec = Vec::with_capacity(awaited.len());
                let mut sorted = awaited.clone();
                sorted.sort_unstable();
                sorted.dedup();
                for seat in sorted {
                    if !active.contains(&seat) {
                        let Some((input, record)) = sit_out(seat) else {
                            // The game cannot express it; the table waits for the seat.
                            return Ok(ControlFlow::Break(Progress::Waiting([seat].into())));
                        };
                        plays.push((seat, Play::Away(input)));
                        rec.push((seat, record));
                        continue;
                    }
                    match seal {
                        Seal::Open => {
                            let (bytes, input) = view.inputs[&seat].clone();
                            plays.push((seat, Play::Open(input)));
                            rec.push((seat, PlayRecord::Open(bytes)));
                        }
                        // An answer after the first that answered stays sealed: its
                        // hand is not shown (the audit opens it).
                        Seal::Reaction if !view.opens.contains_key(&seat) => {
                            let commitment = view.commits[&seat];
                            plays.push((seat, Play::Closed));
                            rec.push((seat, PlayRecord::Closed { commitment }));
                        }
                        Seal::UntilAll | Seal::Reaction => {
                            let (bytes, input) = view.opens[&seat].clone();
                            plays.push((seat, Play::Open(input)));
                            rec.push((
                                seat,
                                PlayRecord::Opened {
                                    commitment: view.commits[&seat],
                                    input: bytes,
                                },
                            ));
                        }
                        Seal::UntilAudit => {
                            let commitment = view.commits[&seat];
                            let play = if seat == me {
                                match self
                                    .sealed
                                    .get(&(n, basis.log))
                                    .and_then(|(_, b)| postcard::from_bytes::<G::Input>(b).ok())
                                {
                                    Some(i) => Play::Open(i),
                                    None => {
                                        return Err(Fault {
                                            seat: Some(me),
                                            step: Some(n),
                                            what: "this device lost its own sealed choice".into(),
                                        });
                                    }
                                }
                            } else {
                                Play::Closed
                            };
                            plays.push((seat, play));
                            rec.push((seat, PlayRecord::Closed { commitment }));
                        }
                    }
                }
                let passed = Self::passed_in(view, active);
                (
                    StepRecord::Inputs { plays: rec, passed },
                    Step::Inputs(plays),
                )
            }
            Pending::Shuffle { .. } | Pending::Deal { .. } | Pending::Reveal { .. } => {
                match self.deck_record(pending, view, active)? {
                    Ok(done) => done,
                    Err(why) => {
                        self.stop_dishonest(now, n, &why);
                        return Ok(ControlFlow::Break(Progress::Again));
                    }
                }
            }
            Pending::Over(_) => return Ok(ControlFlow::Break(Progress::Waiting(BTreeSet::new()))),
        };
        Ok(ControlFlow::Continue(done))
    }

    /// Whether this seat holds the step, made as `next_log`, for a choice of its own: an
    /// agreement to end the game here, or votes to skip seats whose moves are in. Keeps,
    /// with a signed [`VoteAction::Keep`], the moves others vote to skip and it did not.
    fn hold(
        &mut self,
        now: Time,
        plan: &Plan,
        view: &View<G>,
        next_log: &Hash,
    ) -> ControlFlow<Progress> {
        let Plan {
            n,
            basis,
            all,
            removed,
            skips,
            staying,
            active,
            my_votes,
            i_am_in,
            ..
        } = plan;
        let (n, basis, me) = (*n, *basis, self.me);
        // I agreed to end the game here: this step ends that way if the others agree too,
        // so I go on with it only once a seat that did not agree shows it went on. (Not one
        // that agreed: it too may go on only so shown, so a seat that agreed and also went
        // on unshown cannot take anyone with it.) Nor do I keep a move the others vote to
        // skip while I hold the step: that veto would leave a table whose every other seat
        // agreed unable to remove a seat gone for good, and so never able to end.
        if view.ends.contains(&me)
            && !self
                .signed_at(n + 1)
                .any(|s| s.basis.log == *next_log && !view.ends.contains(&s.seat))
        {
            let undecided = staying
                .iter()
                .copied()
                .filter(|s| !view.ends.contains(s))
                .collect();
            return ControlFlow::Break(Progress::Waiting(undecided));
        }
        // Others voted to skip a seat whose move is in, and I did not: say that I keep its
        // move. My vote slot for that seat is then taken, so the skip can no longer pass,
        // and the voters can go on (they may all be holding the step for votes of their own).
        let keep: Vec<Seat> = view
            .votes
            .iter()
            .filter(|(t, voters)| {
                active.contains(t)
                    && **t != me
                    && *i_am_in
                    && !voters.contains_key(&me)
                    && voters.iter().any(|(v, a)| *v != me && a.skips())
            })
            .map(|(t, _)| *t)
            .collect();
        for target in keep {
            let slot = (me, n, Kind::Vote(target), basis.log);
            if !self.slots.contains_key(&slot) {
                let action = VoteAction::Keep;
                self.sign_and_send(n, basis, Body::Vote { target, action });
            }
        }

        // A seat I voted to skip delivered: go on with its move only once the vote can no
        // longer pass: another voter kept the move, or shows it completed the step that way,
        // or no quorum is left of seats that voted, or may still vote, against it (a device
        // that voted, cut off, against seats that then came back and played on).
        // (A seat the table goes on without at this step needs no vote: the vote may still
        // pass with the votes of the rest. Nor one the table's votes go on without: it has
        // no say at this step, and its votes can pass only with a quorum that just voted
        // it out, as on a device cut off from a table that played on without it.)
        let held: Vec<Seat> = my_votes
            .iter()
            .copied()
            .filter(|_| !skips.contains(&me))
            .filter(|t| active.contains(t))
            .filter(|t| {
                !view.votes[t]
                    .iter()
                    .any(|(v, a)| *v != me && *a == VoteAction::Keep)
            })
            .collect();
        if held.is_empty() {
            return ControlFlow::Continue(());
        }
        let went_on: BTreeSet<Seat> = self
            .signed_at(n + 1)
            .filter(|s| s.basis.log == *next_log && s.seat != me)
            .map(|s| s.seat)
            .collect();
        // A seat with any word from a later step (on any log, a beacon link too) has
        // left this step and signs nothing more at it: it votes against a seat here
        // only if it already has. A held seat can be skipped only by a quorum of seats
        // that voted against it or still may.
        let past: BTreeSet<Seat> = self
            .by_step
            .range(n + 1..)
            .flat_map(|(_, ids)| ids)
            .map(|(_, author)| *author)
            .filter(|a| *a != me)
            .collect();
        let in_play: Vec<Seat> = all
            .iter()
            .copied()
            .filter(|s| !removed.contains(s))
            .collect();
        // Whether `v` voted against `t` here, or still may.
        let against = |v: Seat, t: Seat| {
            !past.contains(&v)
                || view
                    .votes
                    .get(&t)
                    .and_then(|vs| vs.get(&v))
                    .is_some_and(|a| a.skips())
        };
        // The largest set that could decide without `t`: seats that voted, or may
        // still vote, against every seat outside it (see `quorum`).
        let cannot_pass = |t: Seat| {
            let mut deciders: Vec<Seat> = in_play
                .iter()
                .copied()
                .filter(|s| *s != t && !went_on.contains(s))
                .collect();
            loop {
                let outside: Vec<Seat> = in_play
                    .iter()
                    .copied()
                    .filter(|s| !deciders.contains(s))
                    .collect();
                let before = deciders.len();
                deciders.retain(|v| outside.iter().all(|o| against(*v, *o)));
                if deciders.len() == before {
                    break;
                }
            }
            !is_quorum(&deciders, &in_play)
        };
        let shown =
            went_on.iter().any(|s| !my_votes.contains(s)) || held.iter().all(|t| cannot_pass(*t));
        if shown {
            return ControlFlow::Continue(());
        }
        // Waiting on the seats that have yet to vote on it (or keep its move): shown as
        // owed, so a seat that went silent meanwhile can be voted on in turn.
        ControlFlow::Break(Progress::Waiting(
            self.votes_owed(now, &held, view, removed, skips),
        ))
    }

    /// The seats whose votes on `targets` have yet to come and that have not been heard
    /// from for a while: every seat still in but this one, the target and the seats the
    /// table goes on without at this step. (A player who is there and has yet to choose is
    /// thinking, not away: its device says hello whenever the table is quiet.)
    fn votes_owed(
        &self,
        now: Time,
        targets: &[Seat],
        view: &View<G>,
        removed: &BTreeSet<Seat>,
        skips: &BTreeSet<Seat>,
    ) -> BTreeSet<Seat> {
        let me = self.me;
        targets
            .iter()
            .flat_map(|t| {
                (0..self.keys.len() as Seat)
                    .filter(move |s| s != t && *s != me)
                    .filter(|s| !removed.contains(s) && !skips.contains(s))
                    .filter(move |s| view.votes.get(t).is_none_or(|v| !v.contains_key(s)))
            })
            .filter(|s| now >= self.peers[*s as usize].heard.plus(self.cfg.away_after))
            .collect()
    }

    fn apply(
        &mut self,
        now: Time,
        n: u32,
        record: StepRecord,
        step: Step<G::Input>,
        (skips, awaited): (&BTreeSet<Seat>, &[Seat]),
        removals: &BTreeSet<Seat>,
    ) -> Result<(), Fault> {
        // The links that made a draw become each seat's last known link.
        let links: Vec<(Seat, Hash)> = match &record {
            StepRecord::Chance { from, .. } => from
                .iter()
                .filter_map(|s| self.chain_link_seen(n, *s).map(|x| (*s, x)))
                .collect(),
            StepRecord::Inputs { .. } | StepRecord::Deck { .. } | StepRecord::Ended { .. } => {
                Vec::new()
            }
        };
        let start = &self.start;
        let Some(gs) = &mut self.game else {
            return Ok(());
        };
        let before = (gs.pending.clone(), gs.public.clone());
        let events = G::apply(&mut gs.public, &mut gs.privates, &step).map_err(|e| {
            let what = match e.seat() {
                Some(s) => format!("{} (seat {s}) at step {n}: {e}", start.name(s)),
                None => format!("step {n} could not be played: {e}"),
            };
            Fault {
                seat: e.seat(),
                step: Some(n),
                what,
            }
        })?;
        self.deck_after(n, &before.0, &before.1, &record, &step)?;
        let Some(gs) = &mut self.game else {
            return Ok(());
        };
        if let StepRecord::Chance { .. } = &record {
            gs.draws += 1;
            for (s, x) in links {
                gs.links[s as usize] = (gs.draws, x);
            }
        }
        let basis = log::next_basis(&gs.bases[n as usize], &record, public_hash(&gs.public));
        gs.records.push(record);
        gs.bases.push(basis);
        gs.pending = G::pending(&gs.public);
        for e in &events {
            gs.events.push((n, e.clone()));
        }
        let mut out = Vec::new();
        // The votes may also have gone on without seats this step did not wait on (gone
        // with one it did): only those it waited on sat it out.
        for seat in skips.iter().filter(|s| awaited.contains(s)) {
            gs.skipped.insert((n, *seat));
            out.push(CoreEvent::Skipped {
                step: n,
                seat: *seat,
            });
        }
        for seat in removals {
            gs.removed.entry(*seat).or_insert(n);
            gs.deck.remove(*seat);
            out.push(CoreEvent::Removed {
                step: n,
                seat: *seat,
            });
        }
        self.events
            .push_back(CoreEvent::Stepped { step: n, events });
        self.future_due();
        self.events.extend(out);
        self.quiet_since = self.quiet_since.max(now);
        // A vote that did not pass raced this step: tell everyone how it ended here. Not at
        // a step the table has left: a device catching up would sign one for every step it
        // learns, and the table knows how they ended.
        // So too an agreement to end the game here that not every seat signed.
        if (self.vote_failed(n, skips) || self.end_failed(n)) && !self.table_is_past(n + 1) {
            self.send_head(n + 1);
        }
        self.recheck_divergence(n + 1);
        Ok(())
    }
}
