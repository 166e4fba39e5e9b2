//! What the driver and the screen read: the driver's output queues ([`Core::poll_persist`]
//! and the rest), read access to the game and the table, and small queries the other files
//! share.

use super::{Core, CoreEvent, Divergence, Persist, Proof, SeatStatus, Time, Transmit};
use crate::audit::{Fault, Verdict};
use crate::identity::{SessionId, Start};
use crate::log::StepRecord;
use crate::wire::{Basis, Hash, Kind, Signed, Wire};
use hoard_rules::{Game, Pending, Seal, Seat};

impl<G: Game> Core<G> {
    // ----- driver output ------------------------------------------------------------

    /// The next record to make durable. Drain these before [`Core::poll_transmit`].
    pub fn poll_persist(&mut self) -> Option<Persist> {
        self.persists.pop_front()
    }

    /// The next message to send.
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.transmits.pop_front()
    }

    /// When [`Core::handle_timeout`] should next be called.
    pub fn poll_timeout(&self) -> Option<Time> {
        let mut next: Option<Time> = None;
        let mut consider = |t: Time| next = Some(next.map_or(t, |n: Time| n.min(t)));
        if self.unfinished() {
            consider(self.quiet_since.plus(self.cfg.resync_after));
            for (seat, peer) in self.peers.iter().enumerate() {
                if let Some(since) = peer.owed_since
                    && !peer.away
                    && let Some(at) = self.away_at(seat, since)
                {
                    consider(at);
                }
            }
            if let Some(t) = self.reaction_deadline() {
                consider(t);
            }
        }
        next
    }

    /// The next thing that happened.
    pub fn poll_event(&mut self) -> Option<CoreEvent<G::Event>> {
        self.events.pop_front()
    }

    // ----- read access ----------------------------------------------------------------

    pub fn session(&self) -> SessionId {
        self.session
    }

    pub fn start(&self) -> &Start {
        &self.start
    }

    pub fn config(&self) -> &G::Config {
        &self.config
    }

    /// This device's seat.
    pub fn my_seat(&self) -> Seat {
        self.me
    }

    /// Whether every seat has accepted.
    pub fn began(&self) -> bool {
        self.game.is_some()
    }

    /// The number of completed steps (the step the table waits on).
    pub fn step(&self) -> u32 {
        self.game.as_ref().map_or(0, |g| g.records.len() as u32)
    }

    /// Every step at which the log went on without a seat (skipped or removed), and the seat.
    pub fn skips(&self) -> Vec<(u32, Seat)> {
        self.game
            .as_ref()
            .map_or_else(Vec::new, |g| g.skipped.iter().copied().collect())
    }

    pub fn public(&self) -> Option<&G::Public> {
        self.game.as_ref().map(|g| &g.public)
    }

    /// This seat's private side (its hand).
    pub fn private(&self) -> Option<&G::Private> {
        self.game
            .as_ref()
            .and_then(|g| g.privates.get(self.me as usize))
            .and_then(|p| p.as_ref())
    }

    pub fn pending(&self) -> Option<Pending> {
        self.game.as_ref().map(|g| g.pending.clone())
    }

    /// How many messages this device holds (the table's, and whatever peers sent that it
    /// kept).
    pub fn held(&self) -> usize {
        self.msgs.len()
    }

    /// The completed steps.
    pub fn records(&self) -> &[StepRecord] {
        self.game.as_ref().map_or(&[], |g| &g.records)
    }

    /// The engine's events so far, by step, oldest first.
    pub fn events_log(&self) -> &[(u32, G::Event)] {
        self.game.as_ref().map_or(&[], |g| &g.events)
    }

    /// The basis of the current step: the log hash and the public state hash.
    pub fn basis(&self) -> Basis {
        self.game
            .as_ref()
            .and_then(|g| g.bases.last().copied())
            .unwrap_or_default()
    }

    /// The basis step `n` was played on, if the game has reached it.
    pub fn basis_at(&self, n: u32) -> Option<Basis> {
        self.game.as_ref()?.bases.get(n as usize).copied()
    }

    /// [`public_hash`](hoard_rules::public_hash) of the current public state.
    pub fn state_hash(&self) -> Hash {
        self.basis().state
    }

    pub fn verdict(&self) -> Option<&Verdict> {
        self.verdict.as_ref()
    }

    pub fn halted(&self) -> Option<&Fault> {
        self.halted.as_ref()
    }

    pub fn proofs(&self) -> &[Proof] {
        &self.proofs
    }

    pub fn divergences(&self) -> &[Divergence] {
        &self.divergences
    }

    /// Seats removed by the table.
    pub fn removed(&self) -> Vec<Seat> {
        self.game
            .as_ref()
            .map_or(Vec::new(), |g| g.removed.keys().copied().collect())
    }

    /// Whether the table waits for a move from this seat that it has not made yet.
    pub fn my_move(&self) -> bool {
        self.owes_move() && !self.answer_held()
    }

    /// Whether the table waits for this seat's move and its signed message is not out
    /// (an answer held back for the reaction window counts as not out).
    pub(super) fn owes_move(&self) -> bool {
        self.unsigned_move()
            && self
                .game
                .as_ref()
                .is_some_and(|gs| !self.table_is_past(gs.records.len() as u32))
    }

    /// Whether the step this device is at waits for this seat's move (the table may have
    /// gone past it) and this device holds no signed message of it.
    pub(super) fn unsigned_move(&self) -> bool {
        let Some(gs) = &self.game else { return false };
        if self.halted.is_some() || gs.removed.contains_key(&self.me) {
            return false;
        }
        let n = gs.records.len() as u32;
        let kind = match &gs.pending {
            Pending::Turn { seat } if *seat == self.me => Kind::Input,
            Pending::Together { seats, seal } if seats.contains(&self.me) => match seal {
                Seal::Open => Kind::Input,
                _ => Kind::Commit,
            },
            _ => return false,
        };
        if gs.skipped.contains(&(n, self.me)) {
            return false;
        }
        let log = gs.bases[n as usize].log;
        !self.slots.contains_key(&(self.me, n, kind, log))
    }

    /// Whether a peer has said it is past step `n`. The table then finished that step, and
    /// without anything this seat has not sent yet: a device catching up must not move (or
    /// spend a beacon link) at a step the table has already left, only learn how it ended.
    pub(super) fn table_is_past(&self, n: u32) -> bool {
        self.peers
            .iter()
            .filter_map(|p| p.have.as_ref())
            .any(|(at, _)| *at > n)
    }

    /// Whether this seat signed anything at a step after `n`: it was past `n` itself.
    pub(super) fn was_past(&self, n: u32) -> bool {
        self.by_step
            .range(n.saturating_add(1)..)
            .flat_map(|(_, ids)| ids)
            .any(|(_, author)| *author == self.me)
    }

    /// Where this seat stands, in one line: its step, what the game waits for, and what it
    /// knows of every seat (for a simulator's report of a table that stuck).
    pub fn describe(&self) -> String {
        let n = self.step();
        let log = self.game.as_ref().map(|g| g.bases[n as usize].log);
        let seats: Vec<String> = (0..self.keys.len() as Seat)
            .map(|s| {
                let st = self.seat_status(s);
                // What the seat signed at this step: on our log, and on any other.
                let (ours, other): (Vec<&Signed>, Vec<&Signed>) = self
                    .signed_at(n)
                    .filter(|m| m.seat == s)
                    .partition(|m| Some(m.basis.log) == log);
                let mut kinds: Vec<String> =
                    ours.iter().map(|m| format!("{:?}", m.kind())).collect();
                // And what it sent unsigned: its opening, its beacon link.
                let held =
                    |is: fn(&Wire) -> bool| {
                        self.by_step.get(&n).into_iter().flatten().any(|(id, a)| {
                            *a == s && self.msgs.get(id).is_some_and(|h| is(&h.wire))
                        })
                    };
                if held(|w| matches!(w, Wire::Open(_))) {
                    kinds.push("Open".into());
                }
                if held(|w| matches!(w, Wire::Link(_))) {
                    kinds.push("Link".into());
                }
                format!(
                    "{s}:{}{}{}{}{}{}",
                    if st.owed { "owed " } else { "" },
                    if st.away { "away " } else { "" },
                    if st.committed { "in " } else { "" },
                    if st.removed { "removed " } else { "" },
                    kinds.join("+"),
                    if other.is_empty() {
                        String::new()
                    } else {
                        format!(" ({} elsewhere)", other.len())
                    },
                )
            })
            .collect();
        let next: Vec<String> = self
            .signed_at(n + 1)
            .map(|m| format!("{}:{:?}", m.seat, m.kind()))
            .collect();
        format!(
            "step {} pending {:?} my move {} sat out {:?} verdict {:?} seats [{}] next [{}]",
            self.step(),
            self.pending(),
            self.my_move(),
            self.sat_out(),
            self.verdict(),
            seats.join(", "),
            next.join(" ")
        )
    }

    /// What the screen shows about a seat.
    pub fn seat_status(&self, seat: Seat) -> SeatStatus {
        let peer = self.peers.get(seat as usize);
        let owed_since = peer.and_then(|p| p.owed_since);
        let away = peer.is_some_and(|p| p.away);
        let Some(gs) = &self.game else {
            return SeatStatus {
                owed: owed_since.is_some(),
                owed_since,
                away,
                committed: peer.is_some_and(|p| p.accept.is_some()),
                removed: false,
            };
        };
        let n = gs.records.len() as u32;
        let log = gs.bases[n as usize].log;
        let committed = [Kind::Input, Kind::Commit]
            .iter()
            .any(|k| self.slots.contains_key(&(seat, n, *k, log)));
        SeatStatus {
            owed: owed_since.is_some(),
            owed_since,
            away,
            committed,
            removed: gs.removed.contains_key(&seat),
        }
    }

    // ----- for the other files ------------------------------------------------------

    pub(super) fn unfinished(&self) -> bool {
        self.halted.is_none() && self.verdict.is_none()
    }

    pub(super) fn name(&self, seat: Seat) -> String {
        format!("{} (seat {seat})", self.start.name(seat))
    }

    /// The signed messages held for step `n` (on any log).
    pub(super) fn signed_at(&self, n: u32) -> impl Iterator<Item = &Signed> + '_ {
        self.by_step
            .get(&n)
            .into_iter()
            .flatten()
            .filter_map(|(id, _)| match self.msgs.get(id).map(|h| &h.wire) {
                Some(Wire::Signed(s)) => Some(s),
                _ => None,
            })
    }
}
