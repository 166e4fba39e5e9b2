//! The log replayed: the engine's view of a recorded step, the public state before a past
//! step, and going back to a step the table's votes completed otherwise.

use super::{Core, CoreEvent};
use crate::audit::{Absence, Fault};
use crate::log::{self, PlayRecord, StepRecord};
use hoard_rules::{Game, Outcome, Pending, Play, Seat, Step, public_hash};
use std::collections::{BTreeMap, BTreeSet};

impl<G: Game> Core<G> {
    /// The public state before step `n` (by replay when `n` is in the past).
    pub(super) fn public_at(&self, n: u32) -> Option<G::Public> {
        let gs = self.game.as_ref()?;
        if n as usize == gs.records.len() {
            return Some(gs.public.clone());
        }
        let mut public = G::setup(&self.config).ok()?;
        let mut none: Vec<Option<G::Private>> = Vec::new();
        for (i, record) in gs.records.iter().enumerate().take(n as usize) {
            // An ended game's last record plays nothing.
            let Some(step) = self.step_of(i as u32, record, &public, false) else {
                break;
            };
            G::apply(&mut public, &mut none, &step).ok()?;
        }
        Some(public)
    }

    /// The public state after every step, in one pass: `[k]` after `k` steps, the first the
    /// table as set up. Stops early at the end the table agreed on (the engine never sees it).
    pub fn public_history(&self) -> Vec<G::Public> {
        let (Some(gs), Ok(mut public)) = (self.game.as_ref(), G::setup(&self.config)) else {
            return Vec::new();
        };
        let mut none: Vec<Option<G::Private>> = Vec::new();
        let mut history = vec![public.clone()];
        for (i, record) in gs.records.iter().enumerate() {
            let Some(step) = self.step_of(i as u32, record, &public, false) else {
                break;
            };
            if G::apply(&mut public, &mut none, &step).is_err() {
                break;
            }
            history.push(public.clone());
        }
        history
    }

    /// The completed steps from step `from` on (at most `most`), as every device's engine
    /// took them: sealed plays never opened stay closed and dealt cards carry no face. What
    /// a shared screen rebuilds the public table from.
    pub fn public_steps(&self, from: u32, most: usize) -> Vec<Step<G::Input>> {
        let (Some(gs), Some(mut public)) = (self.game.as_ref(), self.public_at(from)) else {
            return Vec::new();
        };
        let mut none: Vec<Option<G::Private>> = Vec::new();
        let mut steps = Vec::new();
        for (i, record) in gs.records.iter().enumerate().skip(from as usize).take(most) {
            let Some(step) = self.step_of(i as u32, record, &public, false) else {
                break;
            };
            if G::apply(&mut public, &mut none, &step).is_err() {
                break;
            }
            steps.push(step);
        }
        steps
    }

    /// The engine's view of a recorded step. With `own` the owner's sealed choices are
    /// passed open (to move its own private side), as they were live. `None` for the end
    /// the table agreed on, which the engine never sees.
    fn step_of(
        &self,
        n: u32,
        record: &StepRecord,
        public: &G::Public,
        own: bool,
    ) -> Option<Step<G::Input>> {
        Some(match record {
            StepRecord::Ended { .. } => return None,
            StepRecord::Chance { draw, .. } => Step::Chance(*draw),
            StepRecord::Deck { faces, .. } => match G::pending(public) {
                Pending::Shuffle { .. } => Step::Shuffled,
                Pending::Deal { .. } => Step::Dealt,
                Pending::Reveal { .. } => Step::Revealed(faces.clone()),
                _ => return None,
            },
            StepRecord::Inputs { plays, .. } => Step::Inputs(
                plays
                    .iter()
                    .map(|(seat, p)| {
                        let decoded = |b: &[u8]| postcard::from_bytes::<G::Input>(b).ok();
                        let play = match p {
                            PlayRecord::Open(b) | PlayRecord::Opened { input: b, .. } => {
                                decoded(b).map_or(Play::Closed, Play::Open)
                            }
                            PlayRecord::Closed { .. } if own && *seat == self.me => self
                                .game
                                .as_ref()
                                .and_then(|g| g.bases.get(n as usize))
                                .and_then(|b| self.sealed.get(&(n, b.log)))
                                .and_then(|(_, b)| decoded(b))
                                .map_or(Play::Closed, Play::Open),
                            PlayRecord::Closed { .. } => Play::Closed,
                            PlayRecord::SatOut | PlayRecord::Removed => Absence::of(p)
                                .and_then(|a| self.cfg.sit_out?(public, *seat, a))
                                .map_or(Play::Closed, Play::Away),
                        };
                        (*seat, play)
                    })
                    .collect(),
            ),
        })
    }

    /// Goes back to just before step `n` and replays the log up to it: the table voted to
    /// skip a seat in a step this device had completed with that seat's move.
    pub(super) fn rewind(&mut self, n: u32) {
        let Some(gs) = &self.game else { return };
        let records: Vec<StepRecord> = gs.records.iter().take(n as usize).cloned().collect();
        let removed_keep: BTreeMap<Seat, u32> = gs
            .removed
            .iter()
            .filter(|(_, at)| **at < n)
            .map(|(s, a)| (*s, *a))
            .collect();
        let skipped_keep: BTreeSet<(u32, Seat)> = gs
            .skipped
            .iter()
            .filter(|(at, _)| *at < n)
            .copied()
            .collect();
        let events_keep: Vec<(u32, G::Event)> = gs
            .events
            .iter()
            .filter(|(at, _)| *at < n)
            .cloned()
            .collect();
        self.heads_sent.retain(|(s, _)| *s <= n);
        // The table's vote said how step `n` went: this seat's later messages are on a log
        // the table left.
        self.signed_to.0 = self.signed_to.0.min(n);
        self.view = None;
        self.game = None;
        self.begin(self.quiet_since);
        let Some(gs) = &mut self.game else { return };
        for seat in removed_keep.keys() {
            gs.deck.remove(*seat);
        }
        gs.removed = removed_keep;
        gs.skipped = skipped_keep;
        gs.events = events_keep;
        // Drop the Began event begin() queued: the game did not begin again.
        if matches!(self.events.back(), Some(CoreEvent::Began)) {
            self.events.pop_back();
        }
        for (i, record) in records.into_iter().enumerate() {
            let i = i as u32;
            let Some(gs) = &self.game else { return };
            let Some(step) = self.step_of(i, &record, &gs.public, true) else {
                // The end the table agreed on: the game is over after it.
                if let Some(gs) = &mut self.game {
                    let basis =
                        log::next_basis(&gs.bases[i as usize], &record, public_hash(&gs.public));
                    gs.records.push(record);
                    gs.bases.push(basis);
                    gs.pending = Pending::Over(Outcome::default());
                }
                break;
            };
            if let StepRecord::Chance { from, .. } = &record {
                for s in from {
                    if let Some(x) = self.chain_link_seen(i, *s) {
                        let k = self.step_draws(i) + 1;
                        if let Some(gs) = &mut self.game {
                            gs.links[*s as usize] = (k, x);
                        }
                    }
                }
            }
            let Some(gs) = &mut self.game else { return };
            let before = (gs.pending.clone(), gs.public.clone());
            if G::apply(&mut gs.public, &mut gs.privates, &step).is_err() {
                self.halt(Fault {
                    seat: None,
                    step: Some(i),
                    what: format!("step {i} no longer replays"),
                });
                return;
            }
            if let Err(f) = self.deck_after(i, &before.0, &before.1, &record, &step) {
                self.halt(f);
                return;
            }
            let Some(gs) = &mut self.game else { return };
            if matches!(record, StepRecord::Chance { .. }) {
                gs.draws += 1;
            }
            let basis = log::next_basis(&gs.bases[i as usize], &record, public_hash(&gs.public));
            gs.records.push(record);
            gs.bases.push(basis);
            gs.pending = G::pending(&gs.public);
        }
        self.events.push_back(CoreEvent::Rewound { step: n });
        self.recount_future();
    }
}
