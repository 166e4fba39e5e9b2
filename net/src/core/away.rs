//! Away seats: votes to skip or remove a seat, standing choices to go on without one, the
//! table's quorum, seats that sit out draws, and a skipped seat's player saying it is back.

use super::{Core, CoreEvent, Persist, SecretRecord, Time};
use crate::audit::Absence;
use crate::error::{NetError, Result};
use crate::log::{PlayRecord, StepRecord};
use crate::wire::{Basis, Body, Kind, VoteAction, Wire};
use hoard_rules::{Game, Pending, Seat};
use std::collections::{BTreeMap, BTreeSet};

/// How many steps back a vote may take a device that completed the step otherwise. A
/// device that played on alone with its own late move is a step or two ahead of the table
/// at most (every draw and every other seat's turn waits for the others).
pub(super) const VOTE_REACH: u32 = 16;

/// The seats that sit out a dice draw coming after `records` without a vote: at the last
/// step that had a part for them, the table went on without them (they sat out an input
/// step, or were left out of a draw). A seat the table skipped so needs no vote at every
/// draw until it plays again; each draw still takes the links of everyone else.
pub(super) fn sitting_out(
    records: &[StepRecord],
    removed: &BTreeSet<Seat>,
    seats: usize,
) -> BTreeSet<Seat> {
    let mut out = BTreeSet::new();
    let mut decided = removed.clone();
    for record in records.iter().rev() {
        match record {
            StepRecord::Inputs { plays, .. } => {
                for (seat, play) in plays {
                    if decided.insert(*seat) && Absence::of(play).is_some() {
                        out.insert(*seat);
                    }
                }
            }
            // The last record of a game that is over: no draw comes after it.
            StepRecord::Ended { .. } => return out,
            // A deck step says nothing of who is at the table.
            StepRecord::Deck { .. } => {}
            // Every seat has a part in a draw: it gave a link or it did not.
            StepRecord::Chance { from, .. } => {
                out.extend(
                    (0..seats as Seat).filter(|s| !decided.contains(s) && !from.contains(s)),
                );
                return out;
            }
        }
    }
    out
}

/// Seats removed at a step before `n`.
pub(super) fn removed_before(removed: &BTreeMap<Seat, u32>, n: u32) -> BTreeSet<Seat> {
    removed
        .iter()
        .filter(|(_, at)| **at < n)
        .map(|(s, _)| *s)
        .collect()
}

/// Which seats the table's votes skip at a step, and which of them it removes.
///
/// The seats gone are decided together, by the seats outside them: a set of seats `E`
/// decides to go on without the rest when each seat in `E` voted to go on without each
/// seat outside it (so two seats gone at once need no vote from each other, while a seat
/// that is there and did not vote against one keeps it in: every seat of `E` must have
/// voted, and one that keeps the move of a seat others voted against, or has gone on past
/// the step, has so made sure the vote cannot pass, and the voters may go on with that
/// move). `E` must also be a quorum of the seats still in (see [`is_quorum`]): a device cut
/// off from the others sees every other seat away, just as the others see it away, and two
/// halves of a table that could each go on without the other would play two different
/// games. So seats gone one at a time can each be removed, down to a player alone, but
/// seats gone at once need more than half the table (or exactly half, with the first seat
/// still in) to go on without them.
///
/// Of the sets that may decide, the smallest decides (the fewest seats, then the lowest):
/// the sets that qualify but for their size are the unions of each seat's closure (the
/// seat and, over and over, every seat it did not vote against), so there are few to try.
/// With no vote against a seat of a set, the set decides nothing.
pub(super) fn quorum(
    votes: &BTreeMap<Seat, BTreeMap<Seat, VoteAction>>,
    removed: &BTreeSet<Seat>,
    seats: usize,
) -> (BTreeSet<Seat>, BTreeSet<Seat>) {
    let voted = |t: Seat, v: Seat| votes.get(&t).and_then(|vs| vs.get(&v)).copied();
    let against = |v: Seat, t: Seat| voted(t, v).is_some_and(|a| a.skips());
    let in_play: Vec<Seat> = (0..seats as Seat)
        .filter(|s| !removed.contains(s))
        .collect();
    let nothing = (BTreeSet::new(), BTreeSet::new());
    if !in_play
        .iter()
        .any(|t| in_play.iter().any(|v| against(*v, *t)))
    {
        return nothing;
    }
    // Each seat's closure, as a set of bits.
    let closure = |s: Seat| -> u32 {
        let mut set = 1u32 << s;
        let mut grown = true;
        while grown {
            grown = false;
            let now_in = set;
            for v in in_play.iter().filter(|v| now_in & (1 << **v) != 0) {
                for t in &in_play {
                    if set & (1 << *t) == 0 && *t != *v && !against(*v, *t) {
                        set |= 1 << *t;
                        grown = true;
                    }
                }
            }
        }
        set
    };
    let mut closures: Vec<u32> = in_play.iter().map(|s| closure(*s)).collect();
    closures.sort_unstable();
    closures.dedup();
    let bits = |set: u32| -> Vec<Seat> {
        in_play
            .iter()
            .copied()
            .filter(|s| set & (1 << s) != 0)
            .collect()
    };
    let mut best: Option<Vec<Seat>> = None;
    // A table of at most 16 seats has at most 16 closures; past 10 distinct ones (a table
    // where nearly everyone voted against nearly everyone) the votes decide nothing.
    if closures.len() <= 10 {
        for pick in 1u32..(1 << closures.len()) {
            let union = closures
                .iter()
                .enumerate()
                .filter(|(i, _)| pick & (1 << i) != 0)
                .fold(0u32, |u, (_, c)| u | c);
            let electorate = bits(union);
            if electorate.len() == in_play.len() || !is_quorum(&electorate, &in_play) {
                continue;
            }
            let better = best
                .as_ref()
                .is_none_or(|b| (electorate.len(), &electorate) < (b.len(), b));
            if better {
                best = Some(electorate);
            }
        }
    }
    let Some(electorate) = best else {
        return nothing;
    };
    let gone: BTreeSet<Seat> = in_play
        .iter()
        .copied()
        .filter(|t| !electorate.contains(t))
        .collect();
    let removals = gone
        .iter()
        .copied()
        .filter(|t| {
            electorate
                .iter()
                .all(|v| voted(*t, *v) == Some(VoteAction::Remove))
        })
        .collect();
    (gone, removals)
}

/// Whether `deciders` may decide for the seats still in (`in_play`): more than half of
/// them, or exactly half holding the first seat still in. Any two quorums share a seat, so
/// two groups of devices that cannot hear each other never both go on without the other.
pub(super) fn is_quorum(deciders: &[Seat], in_play: &[Seat]) -> bool {
    let (d, n) = (deciders.len(), in_play.len());
    2 * d > n || (2 * d == n && in_play.first().is_some_and(|f| deciders.contains(f)))
}

/// A player whose device is up but who has not moved for this many times `away_after` is
/// away too: gone from the table with the app left open (3 minutes at the usual 30 s).
pub(super) const STALLED_AFTER: u64 = 6;

impl<G: Game> Core<G> {
    /// What the votes of a step decide, with `removed` the seats removed before it: the
    /// seats it skips and those it removes, and the seats an end by agreement goes on
    /// without (all the votes remove). The game may end without any seat the votes remove,
    /// but a shuffle cannot go on without a seat that has yet to escrow its key: the deck
    /// would be made under a key no one could ever open (see
    /// [`Core::cannot_go_on_without`]), so a shuffle neither skips nor removes such a seat.
    /// The step's plan and the check of each shuffle part on arrival (which follows the
    /// seats the deck passes through) both ask here.
    #[allow(clippy::type_complexity)]
    pub(super) fn step_quorum(
        &self,
        pending: &Pending,
        votes: &BTreeMap<Seat, BTreeMap<Seat, VoteAction>>,
        removed: &BTreeSet<Seat>,
    ) -> (BTreeSet<Seat>, BTreeSet<Seat>, BTreeSet<Seat>) {
        let (mut skips, mut removals) = quorum(votes, removed, self.keys.len());
        let end_removals = removals.clone();
        if let (Some(gs), Pending::Shuffle { .. }) = (&self.game, pending) {
            skips.retain(|s| gs.deck.escrowed(*s));
            removals.retain(|s| gs.deck.escrowed(*s));
        }
        (skips, removals, end_removals)
    }

    /// When a seat the table has waited on since `since` counts as away: once its device
    /// has not been heard from for `away_after` (a device that is up says hello whenever
    /// the table is quiet, so a player thinking is not away), or once its player has not
    /// moved for [`STALLED_AFTER`] times that, device up or not. Never, for this device's
    /// own seat: its player is right here.
    pub(super) fn away_at(&self, seat: usize, since: Time) -> Option<Time> {
        if seat == usize::from(self.me) {
            return None;
        }
        let after = self.cfg.away_after;
        let heard = self.peers.get(seat).map_or(since, |p| p.heard);
        let unheard = since.plus(after).max(heard.plus(after));
        Some(unheard.min(since.plus(after.saturating_mul(STALLED_AFTER))))
    }

    /// A seat shown away for not being heard is back the moment its device is heard again
    /// (unless the table went on without it, or its player has stalled past
    /// [`STALLED_AFTER`]).
    pub(super) fn heard_again(&mut self, now: Time, seat: Seat) {
        let stalled = self.cfg.away_after.saturating_mul(STALLED_AFTER);
        let Some(peer) = self.peers.get_mut(seat as usize) else {
            return;
        };
        peer.heard = peer.heard.max(now);
        if peer.away
            && peer.standing.is_none()
            && peer
                .owed_since
                .is_some_and(|since| now < since.plus(stalled))
        {
            peer.away = false;
            self.events.push_back(CoreEvent::Back { seat });
        }
    }

    /// This seat's vote to skip or remove an away seat at the current step.
    pub fn vote(&mut self, now: Time, target: Seat, action: VoteAction) -> Result<()> {
        self.may_choose_about(target, action)?;
        let name = self.start.name(target);
        // Away and not waited for now: a seat the table goes on without stays away between
        // the steps that wait on it.
        if !self.peers[target as usize].away || self.peers[target as usize].owed_since.is_none() {
            return Err(NetError::BadVote(format!(
                "the table is not waiting for {name}"
            )));
        }
        if let Some(why) = self.cannot_go_on_without(target, action) {
            return Err(NetError::BadVote(why));
        }
        let Some(gs) = &self.game else {
            return Err(NetError::BadVote("the game has not begun".into()));
        };
        let n = gs.records.len() as u32;
        let basis = gs.bases[n as usize];
        let slot = (self.me, n, Kind::Vote(target), basis.log);
        if !self.slots.contains_key(&slot) {
            self.sign_and_send(n, basis, Body::Vote { target, action });
        }
        self.advance(now);
        Ok(())
    }

    /// Whether this seat may choose at all to go on without `target` by `action`.
    fn may_choose_about(&self, target: Seat, action: VoteAction) -> Result<()> {
        if let Some(f) = &self.halted {
            return Err(NetError::Halted(f.what.clone()));
        }
        let Some(gs) = &self.game else {
            return Err(NetError::BadVote("the game has not begun".into()));
        };
        if !action.skips() {
            return Err(NetError::BadVote(
                "a move that arrives is kept by itself; vote to skip or remove".into(),
            ));
        }
        if target == self.me || target as usize >= self.keys.len() {
            return Err(NetError::BadVote("choose another seat".into()));
        }
        if gs.removed.contains_key(&target) {
            return Err(NetError::BadVote(format!(
                "{} has already been removed",
                self.start.name(target)
            )));
        }
        if gs.removed.contains_key(&self.me) {
            return Err(NetError::BadVote(
                "the table removed you from this game".into(),
            ));
        }
        Ok(())
    }

    /// Why the step the table is at cannot go on without `target` by `action`, in words for
    /// the player, or `None` if it can. A deal or a card shown needs every seat's
    /// decryption share: only a removal goes on without one (its shares are made from its
    /// escrowed key), so a choice to skip asks for what the step needs.
    pub fn cannot_go_on_without(&self, target: Seat, action: VoteAction) -> Option<String> {
        let gs = self.game.as_ref()?;
        let name = self.start.name(target);
        let (signed_to, started) = self.signed_to;
        if (gs.records.len() as u32) < signed_to
            && self
                .peers
                .get(target as usize)
                .is_some_and(|p| p.heard > started)
        {
            return Some(format!(
                "this device is hearing again steps the table played with it before it stopped: {name}'s move here is on its way"
            ));
        }
        match &gs.pending {
            Pending::Over(_) if action == VoteAction::Skip => Some(format!(
                "the game is over: {name} can only be removed, to finish the audit without them"
            )),
            Pending::Shuffle { .. } if !gs.deck.escrowed(target) => Some(format!(
                "the deck cannot be made without {name}, who has not shuffled it yet: wait for them, or end the game"
            )),
            Pending::Deal { .. } | Pending::Reveal { .. } if action == VoteAction::Skip => {
                Some(format!(
                    "the cards cannot be dealt or shown without {name}'s key: remove them to go on, or wait"
                ))
            }
            Pending::Turn { seat } if *seat == target => self.sits_out(target, action),
            Pending::Together { seats, .. } if seats.contains(&target) => {
                self.sits_out(target, action)
            }
            _ => None,
        }
    }

    /// Why the table cannot go on without the seats away now, whatever the players here
    /// choose, in words for the screen, or `None` if it can: the seats here are too few
    /// to decide for the table (see [`quorum`]). Seats that went one at a time can each be
    /// removed as they go; seats gone at once are waited for until enough are back.
    pub fn too_few_to_decide(&self) -> Option<String> {
        let gs = self.game.as_ref()?;
        if matches!(gs.pending, Pending::Over(_)) {
            return None;
        }
        let n = gs.records.len() as u32;
        let removed = removed_before(&gs.removed, n);
        let in_play: Vec<Seat> = (0..self.keys.len() as Seat)
            .filter(|s| !removed.contains(s))
            .collect();
        let here: Vec<Seat> = in_play
            .iter()
            .copied()
            .filter(|s| *s == self.me || !self.peers.get(*s as usize).is_some_and(|p| p.away))
            .collect();
        if here.len() == in_play.len() || is_quorum(&here, &in_play) {
            return None;
        }
        Some(format!(
            "only {} of the {} seats in the game are here: more must be back before the table can go on without the rest (a table split in two must not play two games). Wait, or leave: the game is kept",
            here.len(),
            in_play.len()
        ))
    }

    /// Why the game cannot play the step without `target`'s input, if it cannot.
    fn sits_out(&self, target: Seat, action: VoteAction) -> Option<String> {
        let gs = self.game.as_ref()?;
        let input = self
            .cfg
            .sit_out
            .and_then(|f| f(&gs.public, target, action.absence()));
        input.is_none().then(|| {
            format!(
                "this game cannot go on without {} at this point; wait for them",
                self.start.name(target)
            )
        })
    }

    /// This seat's standing choice to go on without an away seat (`Skip` or `Remove`): the
    /// vote now, and at every later step that waits on the seat (or whose vote holds up
    /// another such choice), until its player makes a move again (or [`Core::wait_for`]).
    /// The table goes on without the seat where every other seat votes so. A choice can
    /// always be changed: it takes effect at the next step the seat's vote is still open
    /// (a vote signed at this step stands), and a step that cannot go on by the choice (a
    /// deal cannot skip a seat) waits for a choice it can go on by, which
    /// [`Core::cannot_go_on_without`] words for the screen.
    pub fn go_on_without(&mut self, now: Time, target: Seat, action: VoteAction) -> Result<()> {
        self.may_choose_about(target, action)?;
        if !self.peers.get(target as usize).is_some_and(|p| p.away) {
            return Err(NetError::BadVote(format!(
                "{} is not away",
                self.start.name(target)
            )));
        }
        let since = self.peers.get(target as usize).and_then(|p| p.standing);
        let since = since.map_or(self.step(), |(since, _)| since);
        let choice = Some((since, action));
        if self.peers[target as usize].standing != choice {
            self.peers[target as usize].standing = choice;
            self.persists
                .push_back(Persist::Secret(SecretRecord::Standing { target, choice }));
        }
        self.advance(now);
        Ok(())
    }

    /// Ends a [`Core::go_on_without`]: from the next step on, the seat is waited for again
    /// (a vote already signed stands).
    pub fn wait_for(&mut self, target: Seat) {
        if let Some(s) = self.peers.get_mut(target as usize).map(|p| &mut p.standing)
            && s.take().is_some()
        {
            self.persists
                .push_back(Persist::Secret(SecretRecord::Standing {
                    target,
                    choice: None,
                }));
        }
    }

    /// This seat's standing choice about `target`, if it made one.
    pub fn going_on_without(&self, target: Seat) -> Option<VoteAction> {
        let standing = self.peers.get(target as usize)?.standing;
        standing.map(|(_, action)| action)
    }

    /// This seat's player says it is back at the table: after the table went on without the
    /// seat, its next turns wait for it again (the seat signs [`Body::Back`], which ends
    /// every other seat's standing choice to skip it). Votes already signed stand, so the
    /// step now open may still go on without it. Does nothing unless the table has skipped
    /// the seat since its last move (see [`Core::sat_out`]).
    pub fn back(&mut self, now: Time) {
        if self.sat_out().is_some() {
            self.back_due = true;
            // The player sees the skip on its screen: this device's log is where the table is.
            self.say_back(false);
            self.advance(now);
        }
    }

    /// The step at which the table last went on without this seat, if it has not moved or
    /// said it is back since: what the screen offers "I'm back" for. A move signed at that
    /// very step does not count: it came too late for the table, which went on without it,
    /// and the others' choices to skip the seat end only with a word from after the step.
    pub fn sat_out(&self) -> Option<u32> {
        let gs = self.game.as_ref()?;
        if gs.removed.contains_key(&self.me) {
            return None;
        }
        let (at, part) = self.last_part()?;
        (part == PlayRecord::SatOut && !self.moved_after(self.me, at)).then_some(at)
    }

    /// The last step at which this device's log went on without `seat`.
    pub(super) fn last_skip(&self, seat: Seat) -> Option<u32> {
        let gs = self.game.as_ref()?;
        gs.skipped
            .iter()
            .rev()
            .find(|(_, s)| *s == seat)
            .map(|(step, _)| *step)
    }

    /// The last input step of the log that recorded this seat's part, and that part.
    fn last_part(&self) -> Option<(u32, PlayRecord)> {
        let gs = self.game.as_ref()?;
        gs.records
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, r)| match r {
                StepRecord::Inputs { plays, .. } => plays
                    .iter()
                    .find(|(seat, _)| *seat == self.me)
                    .map(|(_, part)| (i as u32, part.clone())),
                StepRecord::Chance { .. } | StepRecord::Deck { .. } | StepRecord::Ended { .. } => {
                    None
                }
            })
    }

    /// Signs this seat's [`Body::Back`] if its player is at the device and the table went
    /// on without the seat since its last move; whether it signed. `hear_first`: only once
    /// a peer has said where the table is (after a restart, this device may be far behind).
    pub(super) fn say_back(&mut self, hear_first: bool) -> bool {
        if !self.back_due || !self.unfinished() || self.sat_out().is_none() {
            return false;
        }
        let Some(gs) = &self.game else { return false };
        let n = gs.records.len() as u32;
        // Said at this device's step, even one the table has left: it comes after the step
        // the table last went on without this seat, so it ends every choice to go on
        // without it made up to then. (Waiting to catch up first would never end: a table
        // that skips a seat the moment a step waits on it is always a step ahead of it.)
        let heard = !hear_first || self.peers.iter().any(|p| p.have.is_some());
        if matches!(gs.pending, Pending::Over(_)) || !heard {
            return false;
        }
        let basis = gs.bases[n as usize];
        self.back_due = false;
        if self
            .slots
            .contains_key(&(self.me, n, Kind::Back, basis.log))
        {
            return false;
        }
        self.sign_and_send(n, basis, Body::Back);
        true
    }

    /// Whether `seat`'s player made a move (an input or a commitment) or said it is back
    /// after step `since`, among the messages held.
    pub(super) fn moved_after(&self, seat: Seat, since: u32) -> bool {
        self.shown_from(seat, since.saturating_add(1))
    }

    /// The furthest step at which this seat signed a move, a vote, its word that it is
    /// back or its agreement to end: each is signed at the step this device is at, so the
    /// steps before it had all gone on where it was signed.
    pub(super) fn furthest_signed(&self) -> u32 {
        self.signed_kinds(self.me, ..)
            .rev()
            .find(|(_, kind)| kind.shows_player() || matches!(kind, Kind::Vote(_) | Kind::End))
            .map_or(0, |(step, _)| step)
    }

    /// The step and kind of each message `seat` signed at `steps`, held here, in step order.
    fn signed_kinds(
        &self,
        seat: Seat,
        steps: impl std::ops::RangeBounds<u32>,
    ) -> impl DoubleEndedIterator<Item = (u32, Kind)> + '_ {
        self.by_step
            .range(steps)
            .flat_map(|(step, ids)| ids.iter().map(move |id| (*step, id)))
            .filter(move |(_, (_, author))| *author == seat)
            .filter_map(|(step, (id, _))| match self.msgs.get(id).map(|h| &h.wire) {
                Some(Wire::Signed(s)) => Some((step, s.kind())),
                _ => None,
            })
    }

    /// Whether `seat` signed a move or its [`Body::Back`] at step `from` or later.
    fn shown_from(&self, seat: Seat, from: u32) -> bool {
        self.signed_kinds(seat, from..)
            .any(|(_, kind)| kind.shows_player())
    }

    /// Signs the votes this seat's standing choices owe at the current step; whether it
    /// signed any. A vote is owed about a seat the table waits on (or waits on for its vote
    /// about another), where the step can go on without it by the choice.
    pub(super) fn vote_standing(&mut self) -> bool {
        if self.halted.is_some() || self.peers.iter().all(|p| p.standing.is_none()) {
            return false;
        }
        let Some(gs) = &self.game else { return false };
        if gs.removed.contains_key(&self.me) {
            return false;
        }
        let n = gs.records.len() as u32;
        let basis = gs.bases[n as usize];
        // A player who agreed to end the game here removes a seat it would remove, though
        // the step cannot go on without it: the game may end without it.
        let ending = self.slots.contains_key(&(self.me, n, Kind::End, basis.log));
        let targets: Vec<(Seat, VoteAction)> = (0..self.keys.len() as Seat)
            .filter_map(|t| {
                let i = t as usize;
                let (_, action) = self.peers[i].standing?;
                let can = self.cannot_go_on_without(t, action).is_none()
                    || (ending && action == VoteAction::Remove);
                let due = self.peers[i].owed_since.is_some()
                    && !gs.removed.contains_key(&t)
                    && can
                    && !self
                        .slots
                        .contains_key(&(self.me, n, Kind::Vote(t), basis.log));
                due.then_some((t, action))
            })
            .collect();
        for (target, action) in &targets {
            self.sign_and_send(
                n,
                basis,
                Body::Vote {
                    target: *target,
                    action: *action,
                },
            );
        }
        !targets.is_empty()
    }

    /// A vote for a step we may already have passed: tell the voters how that step ended,
    /// and, if the table's vote overrides how we completed it, go back.
    ///
    /// A vote cannot take a device back further than [`VOTE_REACH`] steps. Nor when every
    /// seat whose vote the skip needs has since signed a later step of this device's log:
    /// each has so signed that the step went on otherwise (an honest voter goes on with the
    /// move only once its vote can no longer pass), so no honest device went the other way,
    /// and a modified device could otherwise send an honest one back to a step long past,
    /// alone (two seats: its vote is the whole table's). Where some voter the skip needs has
    /// not gone on, it may be holding the step for the vote, and this device goes back to
    /// end the step as it will.
    pub(super) fn vote_arrived(&mut self, voter: Seat, target: Seat, step: u32, basis: Basis) {
        let Some(gs) = &self.game else { return };
        let done = gs.records.len() as u32;
        if step >= done || gs.bases[step as usize] != basis || done - step > VOTE_REACH {
            return;
        }
        // The seats that signed a message at a later step of this device's log.
        let went_on: BTreeSet<Seat> = (step + 1..=done)
            .flat_map(|k| {
                let log = gs.bases[k as usize].log;
                self.signed_at(k).filter(move |s| s.basis.log == log)
            })
            .map(|s| s.seat)
            .collect();
        let removed = removed_before(&gs.removed, step);
        let every_other_went_on = (0..self.keys.len() as Seat)
            .filter(|s| *s != target && !removed.contains(s))
            .all(|s| went_on.contains(&s));
        if went_on.contains(&voter) && every_other_went_on {
            return;
        }
        let Some(public) = self.public_at(step) else {
            return;
        };
        let view = self.view(step, &G::pending(&public));
        let Some(gs) = &self.game else { return };
        let (skips, _) = quorum(&view.votes, &removed, self.keys.len());
        let overridden = match &gs.records[step as usize] {
            StepRecord::Inputs { plays, .. } => plays
                .iter()
                .any(|(seat, p)| skips.contains(seat) && Absence::of(p).is_none()),
            // A chance step records its contributors.
            StepRecord::Chance { from, .. } => skips.iter().any(|s| from.contains(s)),
            // A deck step records the parts it took.
            StepRecord::Deck { parts, .. } => parts.iter().any(|(s, _)| skips.contains(s)),
            // Nobody played it: there is no move to skip.
            StepRecord::Ended { .. } => false,
        };
        // The seats whose votes the skip needs: every seat still in outside it.
        let electorate_went_on = (0..self.keys.len() as Seat)
            .filter(|s| !removed.contains(s) && !skips.contains(s))
            .all(|s| went_on.contains(&s));
        if overridden && !electorate_went_on {
            self.rewind(step);
        } else if self.vote_failed(step, &skips) {
            self.send_head(step + 1);
        }
    }

    /// Whether a vote at step `n` failed to skip its target (the table's votes skip
    /// `skips`): the voters may then be holding the step, and learn from a head how it
    /// ended. A vote that passed needs no word: every voter holds the same votes and ends
    /// the step the same way, so a table skipping an away seat signs no head per step.
    pub(super) fn vote_failed(&self, n: u32, skips: &BTreeSet<Seat>) -> bool {
        self.signed_at(n)
            .any(|s| matches!(s.body, Body::Vote { target, .. } if !skips.contains(&target)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Votes as (voter, target, action).
    fn decide(
        seats: usize,
        removed: &[Seat],
        votes: &[(Seat, Seat, VoteAction)],
    ) -> (Vec<Seat>, Vec<Seat>) {
        let mut map: BTreeMap<Seat, BTreeMap<Seat, VoteAction>> = BTreeMap::new();
        for (v, t, a) in votes {
            map.entry(*t).or_default().insert(*v, *a);
        }
        let removed: BTreeSet<Seat> = removed.iter().copied().collect();
        let (gone, removals) = quorum(&map, &removed, seats);
        (gone.into_iter().collect(), removals.into_iter().collect())
    }

    fn skips(pairs: &[(Seat, Seat)]) -> Vec<(Seat, Seat, VoteAction)> {
        pairs
            .iter()
            .map(|(v, t)| (*v, *t, VoteAction::Skip))
            .collect()
    }

    #[test]
    fn more_than_half_decide_and_fewer_never_do() {
        assert_eq!(decide(4, &[], &[]).0, Vec::<Seat>::new());
        // Two of four holding the first seat go on without the other two.
        assert_eq!(
            decide(4, &[], &skips(&[(0, 2), (0, 3), (1, 2), (1, 3)])).0,
            vec![2, 3]
        );
        // The other two cannot.
        assert_eq!(
            decide(4, &[], &skips(&[(2, 0), (2, 1), (3, 0), (3, 1)])).0,
            Vec::<Seat>::new()
        );
        // One of four cannot go on without three, nor one of six without five.
        assert_eq!(
            decide(4, &[], &skips(&[(0, 1), (0, 2), (0, 3)])).0,
            Vec::<Seat>::new()
        );
        let lone: Vec<(Seat, Seat)> = (0..5).map(|t| (5, t)).collect();
        assert_eq!(decide(6, &[], &skips(&lone)).0, Vec::<Seat>::new());
        // Five of six go on without the sixth.
        let five: Vec<(Seat, Seat)> = (0..5).map(|v| (v, 5)).collect();
        assert_eq!(decide(6, &[], &skips(&five)).0, vec![5]);
    }

    /// The table the device simulator cut in two: each half voted against the other, and
    /// a device holding every vote decides as one holding only the quorum's.
    #[test]
    fn two_halves_voting_against_each_other_leave_the_half_with_the_first_seat() {
        let both = skips(&[
            (0, 2),
            (0, 3),
            (1, 2),
            (1, 3),
            (2, 0),
            (2, 1),
            (3, 0),
            (3, 1),
        ]);
        assert_eq!(decide(4, &[], &both).0, vec![2, 3]);
        // Two seats each thinking the other gone: the first seat stays.
        assert_eq!(decide(2, &[], &skips(&[(0, 1), (1, 0)])).0, vec![1]);
        assert_eq!(decide(2, &[], &skips(&[(1, 0)])).0, Vec::<Seat>::new());
    }

    #[test]
    fn removed_seats_do_not_count_and_removals_need_every_decider() {
        // Seat 3 removed: two of the three left decide about the third.
        assert_eq!(decide(4, &[3], &skips(&[(0, 2), (1, 2)])).0, vec![2]);
        // Down to two, the first seat alone decides; the second alone does not.
        assert_eq!(decide(4, &[2, 3], &skips(&[(0, 1)])).0, vec![1]);
        assert_eq!(decide(4, &[2, 3], &skips(&[(1, 0)])).0, Vec::<Seat>::new());
        let votes = [
            (0, 2, VoteAction::Remove),
            (1, 2, VoteAction::Remove),
            (0, 3, VoteAction::Remove),
            (1, 3, VoteAction::Skip),
        ];
        assert_eq!(decide(4, &[], &votes), (vec![2, 3], vec![2]));
        // A seat that kept a move keeps its seat at the table.
        let kept = [
            (0, 3, VoteAction::Skip),
            (1, 3, VoteAction::Skip),
            (2, 3, VoteAction::Keep),
        ];
        assert_eq!(decide(4, &[], &kept).0, Vec::<Seat>::new());
    }
}
