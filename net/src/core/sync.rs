//! Sync between devices: (re)connections, the timeout's resync, hellos and the history
//! sent in answer to them, and heads (a seat's word on how a step ended).

use super::{Core, IdMap, Time, Transmit};
use crate::identity::PublicKey;
use crate::wire::{Body, Hash, Hello, Kind, Wire};
use hoard_rules::{Game, Seat};
use std::collections::BTreeSet;

/// What this seat has sent one peer in answer to its hellos since this seat's own step last
/// changed (or the peer last connected, or `resync_after` passed): history at most once of
/// each kind, and no message twice, so that hellos, however many, cost at most one copy of
/// what this device holds per step or resync period.
#[derive(Default)]
pub(super) struct Answered {
    /// Our step these answers were made at.
    at: u32,
    /// Since when.
    since: Time,
    /// This seat's own messages (and absent seats') from the peer's step on.
    own: bool,
    /// Every seat's messages from the peer's step on.
    all: bool,
    /// Every message sent in answer.
    sent: IdMap<Hash, ()>,
}

impl<G: Game> Core<G> {
    /// A connection to `peer` is (re)established: swap log heads so each side sends what
    /// the other lacks.
    pub fn peer_connected(&mut self, _now: Time, peer: PublicKey) {
        if let Some(seat) = self.start.seat_of(&peer)
            && seat != self.me
        {
            // A new connection: what went over the old one may be lost, our word on the
            // commitments we hold among it.
            self.peers[seat as usize].connected();
            self.holding_sent = None;
            self.asking(seat, false);
            let hello = self.hello(true, false);
            self.transmits.push_back(Transmit {
                to: self.keys[seat as usize],
                bytes: hello,
            });
        }
    }

    /// The connection to `peer`'s device broke: a device catching up will not get that
    /// seat's messages from the seat itself, so they go with ours.
    pub fn peer_disconnected(&mut self, peer: PublicKey) {
        if let Some(seat) = self.start.seat_of(&peer)
            && seat != self.me
        {
            self.peers[seat as usize].linked = Some(false);
        }
    }

    /// Time has passed: mark away seats and, if the table has been quiet, resync.
    pub fn handle_timeout(&mut self, now: Time) {
        self.advance(now);
        if self.unfinished() && now >= self.quiet_since.plus(self.cfg.resync_after) {
            // Heard nothing for a while: if we are behind, every peer sends all it has.
            self.hello_all(true, true);
            self.resend_held_choices();
            self.quiet_since = now;
        }
    }

    /// Sends again this seat's agreement to end the game and its votes at the step it is
    /// at. A seat holding its step for one of them waits for word of how the step ended
    /// from a peer that completed it otherwise, which that peer gives when the message
    /// reaches it; if it was lost on the way, no other message brings it (a peer a step
    /// ahead, waiting on this seat's move, signs nothing more). Each peer keeps it once.
    fn resend_held_choices(&mut self) {
        let Some(gs) = &self.game else { return };
        let n = gs.records.len() as u32;
        let log = gs.bases[n as usize].log;
        let mine: Vec<Vec<u8>> = self
            .by_step
            .get(&n)
            .into_iter()
            .flatten()
            .filter(|(_, author)| *author == self.me)
            .filter_map(|(id, _)| self.msgs.get(id))
            .filter(|h| {
                matches!(&h.wire, Wire::Signed(s)
                    if s.basis.log == log && matches!(s.kind(), Kind::End | Kind::Vote(_)))
            })
            .map(|h| h.bytes.clone())
            .collect();
        for bytes in mine {
            self.send_to_peers(&bytes);
        }
    }

    fn hello(&self, reply: bool, full: bool) -> Vec<u8> {
        let step = self.step();
        let have = self
            .by_step
            .get(&step)
            .map_or(Vec::new(), |ids| ids.iter().map(|(id, _)| *id).collect());
        Wire::Hello(Hello {
            step,
            have,
            reply,
            full,
            shared: self.ask_from(full),
            pad: if self.behind() {
                vec![0; super::HELLO_PAD]
            } else {
                Vec::new()
            },
        })
        .encode()
    }

    /// Whether a peer has said it waits on a step two or more after ours: we have history
    /// to catch up on, and pay for it (see [`super::ANSWER_RATIO`]).
    fn behind(&self) -> bool {
        let step = self.step();
        self.peers
            .iter()
            .filter_map(|p| p.have.as_ref().map(|(s, _)| *s))
            .any(|s| s > step.saturating_add(1) && s <= step.saturating_add(super::WINDOW))
    }

    /// The step a hello asks history from: the shared step ([`Core::shared_step`]); in a
    /// full hello (nothing has moved this device on for a while), no later than the last
    /// step on our log signed by any seat the table has taken past our step. A device on a
    /// log of its own may share a step with one seat only by a message that seat made before
    /// it too went the table's way (a crash took what it had built on): the seats that went
    /// on send the steps between, the votes that take this device back among them.
    fn ask_from(&self, full: bool) -> u32 {
        let shared = self.shared_step();
        let Some(gs) = self.game.as_ref().filter(|_| full) else {
            return shared;
        };
        let at = gs.records.len() as u32;
        let ahead: BTreeSet<Seat> = self
            .by_step
            .range(at.saturating_add(1)..)
            .flat_map(|(_, ids)| ids)
            .map(|(_, author)| *author)
            .filter(|a| *a != self.me && !gs.removed.contains_key(a))
            .collect();
        ahead
            .iter()
            .map(|seat| self.peer_floor(*seat))
            .fold(shared, u32::min)
    }

    /// The last step at which some peer has shown (by a message signed on it) that it
    /// holds the log we hold: a hello asks for history from there. Usually our own step or
    /// the one before; further back on a device that went on alone (its own move, written
    /// down but never sent) and died before it heard the table skip it there. It is then
    /// on a log of its own past that step, and the peers' messages from that step on, the
    /// table's votes among them, take it back to where the table went another way.
    fn shared_step(&self) -> u32 {
        let Some(gs) = &self.game else {
            return self.step();
        };
        let mut m = gs.records.len() as u32;
        while m > 0 {
            let Some(ours) = gs.bases.get(m as usize) else {
                return m;
            };
            if self
                .signed_at(m)
                .any(|s| s.seat != self.me && s.basis.log == ours.log)
            {
                return m;
            }
            m -= 1;
        }
        m
    }

    /// Notes that a hello goes to `peer`: what it sends back from our shared step on is
    /// history we asked for.
    fn asking(&mut self, peer: Seat, full: bool) {
        let from = self.ask_from(full);
        let asked = &mut self.peers[peer as usize].asked;
        *asked = Some(asked.map_or(from, |a| a.min(from)));
    }

    pub(super) fn hello_all(&mut self, reply: bool, full: bool) {
        let bytes = self.hello(reply, full);
        for peer in 0..self.keys.len() as Seat {
            if peer != self.me {
                self.asking(peer, full);
            }
        }
        self.send_to_peers(&bytes);
    }

    pub(super) fn answer_hello(&mut self, now: Time, peer: Seat, hello: &Hello) {
        // Remember what the peer holds: its confirmation that it saw the same commitments.
        let newer = self.peers[peer as usize]
            .have
            .as_ref()
            .is_none_or(|(step, _)| hello.step >= *step);
        if newer {
            self.peers[peer as usize].have = Some((hello.step, hello.have.clone()));
        }
        // It holds messages of our step that we do not (perhaps another version of a
        // commitment): ask for them.
        if !hello.reply
            && hello.step == self.step()
            && hello.have.iter().any(|id| !self.msgs.contains_key(id))
        {
            self.asking(peer, false);
            let bytes = self.hello(false, false);
            self.answer(peer, bytes);
        }
        // Our own hello first, so the peer knows where we stand before what we send it.
        if hello.reply {
            self.asking(peer, false);
            let bytes = self.hello(false, false);
            self.answer(peer, bytes);
        }
        // Hellos cost a few bytes and can ask for the whole game: each kind of history
        // below goes to a peer at most once until our step changes (or it reconnects), and
        // no message goes twice in answer, so a peer asking again and again, from steps
        // however chosen, gets at most one copy of what we hold per step the table moves.
        // After a resync period it may ask again: what we sent may have been lost, and a
        // table that has finished (or waits on that peer) moves no more.
        let at = self.step();
        let answered = &self.peers[peer as usize].answered;
        if answered.at != at || now >= answered.since.plus(self.cfg.resync_after) {
            self.peers[peer as usize].answered = Answered {
                at,
                since: now,
                ..Answered::default()
            };
        }
        // What the peer lacks of the step it waits on, from every seat. Then, once per
        // connection (or when the peer went back), the history after that step; later
        // hellos need no history, as everything new went to the peer as it came.
        // A history carries only the messages this seat made and those of seats that cannot
        // send theirs (removed, or away with no connection to us): every other seat sends
        // its own, so a device that catches up gets each missed message once, not once
        // from every peer. (A seat merely slow to move is away too, yet its device is up
        // and sends its own.) A peer that is behind and has heard nothing for a while
        // (`full`) gets every seat's messages.
        let first = self.peers[peer as usize]
            .streamed
            .is_none_or(|s| s > hello.step)
            && !self.peers[peer as usize].answered.own;
        if first {
            self.peers[peer as usize].streamed = Some(hello.step);
            self.peers[peer as usize].answered.own = true;
        }
        let all: u16 = (1u16 << self.keys.len()) - 1;
        let full = hello.full
            && hello.step < at
            && self.peers[peer as usize].sent_all != Some(hello.step)
            && !self.peers[peer as usize].answered.all;
        let authors = if full {
            self.peers[peer as usize].sent_all = Some(hello.step);
            self.peers[peer as usize].answered.all = true;
            all
        } else if first {
            let removed = self.game.as_ref().map(|g| &g.removed);
            let absent = (0..self.keys.len() as Seat)
                .filter(|s| {
                    let i = *s as usize;
                    self.peers[i].away && self.peers[i].linked != Some(true)
                        || removed.is_some_and(|r| r.contains_key(s))
                })
                .fold(0u16, |mask, s| mask | 1 << s);
            (absent | 1 << self.me) & !(1 << peer)
        } else {
            0
        };
        let have: BTreeSet<&Hash> = hello.have.iter().collect();
        let mut from = if authors == 0 {
            hello.step
        } else {
            hello.shared.min(hello.step)
        };
        // The peer signed a message at `floor` on our log, so it held every step before as
        // we do; history from before it goes only now and then (see HISTORY_BELOW_EVERY).
        let floor = self.peer_floor(peer);
        if from < floor {
            let every = self
                .cfg
                .resync_after
                .saturating_mul(super::HISTORY_BELOW_EVERY);
            let last = &mut self.peers[peer as usize].below_floor[usize::from(full)];
            if last.is_none_or(|t| now >= t.plus(every)) {
                *last = Some(now);
            } else {
                from = floor;
            }
        }
        let mut answers = Vec::new();
        let answered = &self.peers[peer as usize].answered;
        for (step, ids) in self.by_step.range(from..) {
            let gap = *step == hello.step;
            // A peer behind us may be holding its step for a vote or an agreement to end
            // that did not pass, waiting for word that the step was played: our own
            // messages of the next step (a head, at least). History goes once per step, so
            // if that word was lost it would otherwise never come again.
            let next = *step == hello.step + 1 && hello.step < at;
            if !gap && !next && authors == 0 {
                break;
            }
            for (id, author) in ids {
                let wanted = if gap {
                    !have.contains(id)
                } else {
                    authors & (1 << author) != 0 || next && *author == self.me
                };
                if wanted && !answered.sent.contains_key(id) && self.msgs.contains_key(id) {
                    answers.push(*id);
                }
            }
        }
        for id in answers {
            let Some(held) = self.msgs.get(&id) else {
                continue;
            };
            // Out of credit: the rest goes when the peer has paid for it (a later hello).
            if !self.answer(peer, held.bytes.clone()) {
                break;
            }
            self.peers[peer as usize].answered.sent.insert(id, ());
        }
    }

    /// Sends `bytes` to every other seat's device.
    pub(super) fn send_to_peers(&mut self, bytes: &[u8]) {
        for (i, k) in self.keys.iter().enumerate() {
            if i != self.me as usize {
                self.transmits.push_back(Transmit {
                    to: *k,
                    bytes: bytes.to_vec(),
                });
            }
        }
    }

    /// Sends `bytes` to `peer` in answer to its hellos if it has the credit for them
    /// ([`super::ANSWER_RATIO`]); returns whether it did.
    pub(super) fn answer(&mut self, peer: Seat, bytes: Vec<u8>) -> bool {
        let p = &mut self.peers[peer as usize];
        let credit =
            super::ANSWER_ALLOWANCE.saturating_add(p.received.saturating_mul(super::ANSWER_RATIO));
        let after = p.answered_bytes.saturating_add(bytes.len() as u64);
        if after > credit {
            return false;
        }
        p.answered_bytes = after;
        let to = self.keys[peer as usize];
        self.transmits.push_back(Transmit { to, bytes });
        true
    }

    /// The last step at which `peer` signed a message on our log (0 if none).
    fn peer_floor(&self, peer: Seat) -> u32 {
        let Some(gs) = &self.game else { return 0 };
        (1..gs.bases.len() as u32)
            .rev()
            .find(|k| {
                let log = gs.bases[*k as usize].log;
                self.signed_at(*k)
                    .any(|s| s.seat == peer && s.basis.log == log)
            })
            .unwrap_or(0)
    }

    pub(super) fn send_head(&mut self, step: u32) {
        let Some(gs) = &self.game else { return };
        let Some(basis) = gs.bases.get(step as usize).copied() else {
            return;
        };
        if !self.heads_sent.insert((step, basis.log)) {
            return;
        }
        self.sign_and_send(step, basis, Body::Head);
    }
}
