//! Messages in: a peer's frame taken apart and its signatures checked as a batch, each
//! message checked, admitted within its limits, kept, written down and echoed; this seat's
//! own messages go the same way ([`Core::sign_and_send`]). Beacon links that come before
//! their seat's accept wait here.

use super::{
    Arrival, Core, CoreEvent, Held, IdMap, Origin, Persist, Proof, REFUSALS_TO_DROP, Time,
    Transmit, WINDOW,
};
use crate::beacon;
use crate::error::{NetError, Result};
use crate::identity::PublicKey;
use crate::wire::{
    Basis, Body, Hash, Hello, Holding, Kind, MAX_DECK_MESSAGE, MAX_INPUT, Opening, Signed, Wire,
    verify_all,
};
use hoard_rules::{Game, Seat};

/// Logs other than this device's own on which one seat's messages for one step are kept.
/// An honest seat signs on one log, or on two around a step the table skipped it in; past
/// this, a seat signing on logs of its own making is only filling memory.
const OTHER_LOGS: usize = 3;

/// Beacon links kept per seat and step: one, or two around a step the table skipped.
const LINKS_PER_STEP: u8 = 2;

/// Openings kept per seat and step before any commitment of that seat at that step is
/// held: one, or two around a step the table skipped; past this, the seat's own device is
/// filling memory or a peer is passing on openings that open nothing. An opening that opens
/// a commitment we hold is always kept, so these can never crowd out the seat's real one.
const LOOSE_OPENINGS: u8 = 3;

/// What is kept for one seat and step beyond the slots of our own log.
#[derive(Default)]
pub(super) struct Extra {
    /// The other logs the seat signed messages for this step on.
    logs: Vec<Hash>,
    /// Beacon links of the seat for this step.
    links: u8,
    /// Openings of the seat for this step kept before its commitment.
    loose_openings: u8,
}

/// A beacon link kept until its seat's accept comes (see `Core::early_links`).
pub(super) struct EarlyLink {
    from: Seat,
    wire: Wire,
    bytes: Vec<u8>,
    id: Hash,
}

/// How many links of one seat are kept before its accept: the first draw's, and one more.
const EARLY_LINKS: usize = 2;

impl<G: Game> Core<G> {
    /// Bytes from peer `from` (the authenticated iroh key of the connection). An error
    /// means the message was refused and dropped; the core is unharmed.
    pub fn handle_message(&mut self, now: Time, from: PublicKey, bytes: &[u8]) -> Result<()> {
        self.handle_messages(now, from, &[bytes])
    }

    /// Messages from peer `from`, in the order sent: each is taken as
    /// [`Core::handle_message`] would take it, but their signatures are checked as one batch
    /// and the step machine runs once at the end. A catching-up device gets the missed
    /// steps this way, hundreds of messages to a frame. A frame with a forged signature
    /// anywhere is refused whole and its sender's link cut (an honest device relays only
    /// what it has checked), so a forgery buys its sender nothing and costs the receiver no
    /// more than an honest frame of the same size. The first refusal is returned; every
    /// refusal counts against the peer (see [`CoreEvent::DropLink`]).
    pub fn handle_messages<B: AsRef<[u8]>>(
        &mut self,
        now: Time,
        from: PublicKey,
        batch: &[B],
    ) -> Result<()> {
        let peer = self.start.seat_of(&from).ok_or(NetError::UnseatedPeer)?;
        if peer == self.me {
            return Ok(());
        }
        self.heard_again(now, peer);
        let mut refused = None;
        // The frame's new messages in order, and where a hello comes among them.
        let mut fresh: Vec<Arrival> = Vec::new();
        let mut hellos: Vec<(usize, Hello)> = Vec::new();
        let mut holdings: Vec<Holding> = Vec::new();
        let mut seen: IdMap<Hash, ()> = IdMap::default();
        let mut changed = false;
        for bytes in batch {
            let bytes = bytes.as_ref();
            // Echoes make many arrivals repeats: an honest peer's bytes are canonical, so
            // their hash is the id of a message we may already hold. A repeat changes
            // nothing (and a catching-up device gets thousands of them).
            let id = Wire::id_of(bytes);
            if self.msgs.contains_key(&id) {
                continue;
            }
            if seen.insert(id, ()).is_some() {
                continue;
            }
            let origin = Origin::Peer(peer);
            let wire = match Wire::decode(bytes) {
                Ok(wire) => wire,
                Err(e) => {
                    self.refuse(origin, e, &mut refused);
                    continue;
                }
            };
            changed = true;
            match wire {
                Wire::Hello(hello) => hellos.push((fresh.len(), hello)),
                Wire::Holding(holding) => holdings.push(holding),
                wire => fresh.push(Arrival {
                    wire,
                    bytes: bytes.to_vec(),
                    id,
                }),
            }
        }
        // Every signature of the frame first: an honest device relays only what it has
        // checked, so a frame with one forgery anywhere is its sender's, and is refused
        // whole (its hellos unanswered), and the link to that sender is cut.
        if let Some(e) = self.forged_in(&fresh, peer) {
            self.events.push_back(CoreEvent::DropLink { seat: peer });
            self.refuse(Origin::Peer(peer), e, &mut refused);
            return refused.map_or(Ok(()), Err);
        }
        let frame: usize = batch.iter().map(|b| b.as_ref().len()).sum();
        let received = &mut self.peers[peer as usize].received;
        *received = received.saturating_add(frame as u64);
        // What came before each hello is ours before we answer it.
        let mut rest = fresh.into_iter();
        let mut taken = 0;
        for (before, hello) in hellos {
            let part: Vec<Arrival> = rest.by_ref().take(before - taken).collect();
            taken = before;
            self.ingest_checked(now, part, &mut refused, Origin::Peer(peer));
            self.answer_hello(now, peer, &hello);
        }
        self.ingest_checked(now, rest.collect(), &mut refused, Origin::Peer(peer));
        for holding in holdings {
            self.peer_holds(peer, &holding);
        }
        if changed {
            self.advance(now);
        }
        refused.map_or(Ok(()), Err)
    }

    /// Ingests messages whose signatures are checked (or that came from this device's own
    /// store, which keeps only what it made or found valid), in order.
    pub(super) fn ingest_checked(
        &mut self,
        now: Time,
        fresh: Vec<Arrival>,
        refused: &mut Option<NetError>,
        origin: Origin,
    ) {
        for arrival in fresh {
            let raw = Some((arrival.bytes, arrival.id));
            if let Err(e) = self.ingest(now, arrival.wire, raw, origin) {
                self.refuse(origin, e, refused);
            }
        }
    }

    /// Why a frame from seat `peer` cannot be taken, if it cannot: a signed message in it
    /// claims a seat the table does not have, or a signature in it is not valid (links need
    /// none: their chain authenticates them). The fault is the sender's.
    fn forged_in(&self, fresh: &[Arrival], peer: Seat) -> Option<NetError> {
        let mut items = Vec::new();
        for arrival in fresh {
            if let Wire::Signed(s) = &arrival.wire {
                match self.verifiers.get(s.seat as usize) {
                    Some(key) => items.push((s, key)),
                    None => return Some(NetError::NoSuchSeat { seat: s.seat }),
                }
            }
        }
        if verify_all(&self.session, &items, self.cfg.memo.as_ref()) {
            return None;
        }
        // A lone message is refused naming the seat it claims to be from; a frame, naming
        // its sender (finding which of its messages is forged would cost the receiver more).
        Some(match items.as_slice() {
            [(one, _)] => NetError::BadSignature {
                seat: one.seat,
                name: self.start.name(one.seat),
            },
            _ => NetError::ForgedFrame {
                seat: peer,
                name: self.start.name(peer),
            },
        })
    }

    /// Notes a refused message: the first refusal of a call is what it returns, and every
    /// one from a peer counts toward cutting it off.
    fn refuse(&mut self, origin: Origin, e: NetError, refused: &mut Option<NetError>) {
        if let Origin::Peer(peer) = origin {
            let count = &mut self.peers[peer as usize].refusals;
            *count += 1;
            if *count >= REFUSALS_TO_DROP {
                *count = 0;
                self.events.push_back(CoreEvent::DropLink { seat: peer });
            }
        }
        refused.get_or_insert(e);
    }

    pub(super) fn sign_and_send(&mut self, step: u32, basis: Basis, body: Body) {
        let msg = Signed::sign(&self.key, self.session, self.me, step, basis, body);
        // Our own message passes every check a peer's would.
        let _ = self.ingest(self.quiet_since, Wire::Signed(msg), None, Origin::Own);
    }

    /// Checks a signed message or link and adds it to what we hold.
    /// `raw` is the message as it arrived and its id (the hash of those bytes); `None`
    /// encodes it afresh. A signed message from a peer comes with its signature already
    /// found valid (see [`Core::signed_until_bad`]).
    pub(super) fn ingest(
        &mut self,
        now: Time,
        wire: Wire,
        raw: Option<(Vec<u8>, Hash)>,
        origin: Origin,
    ) -> Result<()> {
        let (bytes, id) = raw.unwrap_or_else(|| {
            let bytes = wire.encode();
            let id = Wire::id_of(&bytes);
            (bytes, id)
        });
        if self.msgs.contains_key(&id) {
            return Ok(());
        }
        let (seat, step) = match &wire {
            Wire::Signed(s) => (s.seat, s.step),
            Wire::Link(l) => (l.seat, l.step),
            Wire::Open(o) => (o.seat, o.step),
            Wire::Hello(_) | Wire::Holding(_) => return Ok(()),
        };
        if seat as usize >= self.keys.len() {
            return Err(NetError::NoSuchSeat { seat });
        }
        let at = self.step();
        if step > at.saturating_add(WINDOW) {
            return Err(NetError::TooFarAhead {
                seat,
                name: self.start.name(seat),
                step,
                at,
            });
        }
        if let Wire::Signed(s) = &wire {
            let too_big = match &s.body {
                Body::Input(b) => b.len() > MAX_INPUT,
                Body::Accept(a) => {
                    a.chain_len == 0
                        || a.chain_len > beacon::MAX_CHAIN_LEN
                        || crate::mental::table::check_key(&self.session.0, seat, &a.deck).is_err()
                }
                Body::Reveal(r) => r.sealed.iter().any(|o| o.input.len() > MAX_INPUT),
                Body::Deck(_) | Body::Escrow(_) | Body::Complaint(_) => {
                    bytes.len() > MAX_DECK_MESSAGE
                }
                // A vote about a seat the table does not have, or about its own seat, or one
                // that goes on with a move (a veto) about itself: nothing a device signs.
                Body::Vote { target, .. } => *target as usize >= self.keys.len() || *target == seat,
                _ => false,
            };
            if too_big || (s.kind() == Kind::Accept) != (step == 0 && s.basis == Basis::default()) {
                return Err(NetError::Malformed(format!(
                    "a message from {} does not fit its kind",
                    self.name(seat)
                )));
            }
        }
        if let Wire::Open(o) = &wire
            && o.input.len() > MAX_INPUT
        {
            return Err(NetError::Malformed(format!(
                "an opening from {} is larger than any move",
                self.name(seat)
            )));
        }

        if let (Origin::Peer(from), Wire::Link(l)) = (origin, &wire)
            && self.peers[l.seat as usize].accept.is_none()
        {
            let seat = l.seat;
            let held = self
                .early_links
                .iter()
                .filter(|e| matches!(&e.wire, Wire::Link(k) if k.seat == seat))
                .count();
            if held < EARLY_LINKS {
                self.early_links.push(EarlyLink {
                    from,
                    wire,
                    bytes,
                    id,
                });
            }
            return Ok(());
        }
        if let Origin::Peer(from) = origin
            && !self.admit(from, &wire, bytes.len())?
        {
            return Ok(());
        }

        // Keep it, write it down, pass it on.
        match origin {
            Origin::Own => {
                // Its player moves at the table's step: it is here, and says so by moving.
                if matches!(&wire, Wire::Signed(s) if s.kind().is_move())
                    && self.peers.iter().any(|p| p.have.is_some())
                    && !self.table_is_past(step)
                {
                    self.back_due = false;
                }
                // A sealed play's commitment (signatures are deterministic), its opening or
                // a link, made again from the kept secrets, is the same bytes, so none has
                // to wait on the disk (the sealed play's salt and input did, first: see
                // `Core::seal_kept_play`). A sealed step then waits on one fsync, not two.
                let again = match &wire {
                    Wire::Link(_) | Wire::Open(_) => true,
                    Wire::Signed(s) => s.kind() == Kind::Commit,
                    Wire::Hello(_) | Wire::Holding(_) => false,
                };
                self.persists.push_back(if again {
                    Persist::Replayable(bytes.clone())
                } else {
                    Persist::Message(bytes.clone())
                });
                self.send_to_peers(&bytes);
            }
            Origin::Peer(from) => {
                // A seat this seat goes on without made a move, or said it is back, after
                // the step it was left at (a move from before might only now be passed
                // on): its player is back.
                let moved = matches!(&wire, Wire::Signed(s) if s.kind().shows_player());
                if moved
                    && self.peers[seat as usize]
                        .standing
                        .is_some_and(|(since, _)| step > since)
                {
                    self.peers[seat as usize].standing = None;
                }
                // Its player says it is back after the table last went on without it: it is
                // here, not away, whatever it owes; the wait on it starts again from now.
                if matches!(&wire, Wire::Signed(s) if s.kind() == Kind::Back)
                    && self.last_skip(seat).is_some_and(|at| step >= at)
                {
                    let peer = &mut self.peers[seat as usize];
                    peer.away = false;
                    if peer.owed_since.is_some() {
                        peer.owed_since = Some(now);
                    }
                }
                self.persists.push_back(Persist::Replayable(bytes.clone()));
                // Echo what a seat could sign twice. An opening is bound by its commitment
                // and a link by its chain, so neither can be shown two ways: no echo needed.
                // A commitment is not echoed either: devices compare digests of the ones
                // they hold instead, and send them on only where they differ (see
                // `Core::hold_commitments`).
                // Not to a peer that has said it is past the message's step: it completed
                // that step already, and a catching-up device would otherwise send every
                // old message it is given back out to the whole table. A peer that has not
                // said where it is yet (its link is still coming up) is taken to be where
                // the table is: a step the table is two past was settled long ago, and a
                // peer still behind it gets it with the history its hello asks for.
                // Nor what was signed on another log for a step we are at or have left.
                let echo = matches!(&wire, Wire::Signed(s)
                    if s.kind() != Kind::Commit
                    && (s.kind() == Kind::Accept || !self.off_our_log(s.step, &s.basis.log)));
                let table_at = self
                    .peers
                    .iter()
                    .filter_map(|p| p.have.as_ref())
                    .map(|(at, _)| *at)
                    .max();
                let settled = table_at.is_some_and(|at| at > step.saturating_add(1));
                for (i, k) in self.keys.iter().enumerate().filter(|_| echo) {
                    let past = match &self.peers[i].have {
                        Some((at, _)) => *at > step,
                        None => settled,
                    };
                    let i = i as Seat;
                    if i != self.me && i != seat && i != from && !past {
                        self.transmits.push_back(Transmit {
                            to: *k,
                            bytes: bytes.clone(),
                        });
                    }
                }
            }
            Origin::Store => {}
        }
        self.msgs.insert(id, Box::new(Held { wire, bytes }));
        self.by_step.entry(step).or_default().push((id, seat));
        // Only what can move this device on counts as the table not being quiet: a device
        // behind the table, hearing the table's new steps but not the old ones it waits on
        // (their author's link to it not up yet), asks every peer for them after a while.
        if origin != Origin::Store && step <= self.step() {
            self.quiet_since = self.quiet_since.max(now);
        }

        let Some(Held {
            wire: Wire::Signed(s),
            ..
        }) = self.msgs.get(&id).map(Box::as_ref)
        else {
            return Ok(());
        };
        let s = s.clone();
        let slot = (s.seat, s.step, s.kind(), s.basis.log);
        if let Some(other) = self.slots.get(&slot).copied() {
            if let Some(Held {
                wire: Wire::Signed(first),
                ..
            }) = self.msgs.get(&other).map(Box::as_ref)
                && first != &s
            {
                let proof = Proof::Equivocation {
                    first: first.clone(),
                    second: s,
                };
                self.prove(proof);
            }
            return Ok(());
        }
        self.slots.insert(slot, id);

        match &s.body {
            Body::Accept(a) => {
                self.peers[s.seat as usize].accept = Some(a.clone());
            }
            // Sent before a restart: not signed again.
            Body::Head if s.seat == self.me => {
                self.heads_sent.insert((s.step, s.basis.log));
            }
            Body::Commit(_)
                if self.game.as_ref().is_some_and(|g| {
                    g.records.len() as u32 == s.step && g.bases[s.step as usize] == s.basis
                }) =>
            {
                self.events.push_back(CoreEvent::Committed {
                    step: s.step,
                    seat: s.seat,
                });
            }
            Body::Vote { target, action } => {
                self.events.push_back(CoreEvent::Voted {
                    step: s.step,
                    voter: s.seat,
                    target: *target,
                    action: *action,
                });
                self.vote_arrived(s.seat, *target, s.step, s.basis);
            }
            Body::End => {
                self.events.push_back(CoreEvent::EndProposed {
                    step: s.step,
                    seat: s.seat,
                });
                self.end_arrived(s.step, s.basis);
            }
            _ => {}
        }
        self.check_basis(s.seat, s.step, s.kind(), s.basis);
        if s.kind() == Kind::Accept {
            let (early, rest): (Vec<EarlyLink>, Vec<EarlyLink>) =
                std::mem::take(&mut self.early_links)
                    .into_iter()
                    .partition(|e| matches!(&e.wire, Wire::Link(l) if l.seat == s.seat));
            self.early_links = rest;
            for e in early {
                // Checked now that its chain's head is known; a bad one is simply not kept.
                let _ = self.ingest(now, e.wire, Some((e.bytes, e.id)), Origin::Peer(e.from));
            }
        }
        Ok(())
    }

    /// Whether `log` is not ours at `step`, a step we have completed or are at.
    fn off_our_log(&self, step: u32, log: &Hash) -> bool {
        self.game
            .as_ref()
            .and_then(|g| g.bases.get(step as usize))
            .is_some_and(|b| b.log != *log)
    }

    /// What is checked of a peer's message on arrival beyond its signature: a beacon link
    /// or an opening of another seat is taken only as history we asked that peer for (the
    /// seat's own device sends its own); a link must be on its seat's chain, an opening must
    /// open its seat's commitment once that is held; and one seat fills one step with no
    /// more than a game can use. `Ok(false)`: not worth keeping (a link for a step the
    /// table has left, or one that cannot be checked yet).
    fn admit(&mut self, from: Seat, wire: &Wire, len: usize) -> Result<bool> {
        let (seat, step, relayed) = match wire {
            Wire::Link(l) => (l.seat, l.step, l.seat != from),
            Wire::Open(o) => (o.seat, o.step, o.seat != from),
            Wire::Signed(s) => (s.seat, s.step, false),
            Wire::Hello(_) | Wire::Holding(_) => return Ok(false),
        };
        if relayed && self.peers[from as usize].asked.is_none_or(|s| step < s) {
            return Err(NetError::Unasked {
                seat,
                name: self.start.name(seat),
                by: self.name(from),
            });
        }
        let too_many = || NetError::TooMany {
            seat,
            name: self.start.name(seat),
            step,
        };
        match wire {
            Wire::Link(l) => {
                if step < self.step() || self.peers[seat as usize].accept.is_none() {
                    return Ok(false);
                }
                if self
                    .extra
                    .get(&(seat, step))
                    .is_some_and(|e| e.links >= LINKS_PER_STEP)
                {
                    return Err(too_many());
                }
                self.check_link(l)?;
                self.extra.entry((seat, step)).or_default().links += 1;
            }
            Wire::Signed(s) => {
                let ours = self
                    .game
                    .as_ref()
                    .and_then(|g| g.bases.get(step as usize))
                    .is_some_and(|b| b.log == s.basis.log);
                if !ours && s.kind() != Kind::Accept {
                    let extra = self.extra.entry((seat, step)).or_default();
                    if !extra.logs.contains(&s.basis.log) {
                        if extra.logs.len() >= OTHER_LOGS {
                            return Err(too_many());
                        }
                        extra.logs.push(s.basis.log);
                    }
                }
            }
            Wire::Open(o) => {
                if !self.admit_opening(from, o)? {
                    return Ok(false);
                }
            }
            Wire::Hello(_) | Wire::Holding(_) => {}
        }
        // Not due yet: kept within the author's budget (see FUTURE_BUDGET).
        if step > self.step().saturating_add(1) {
            let held = &mut self.peers[seat as usize].future;
            if *held + len > super::FUTURE_BUDGET {
                return Ok(false);
            }
            *held += len;
        }
        Ok(true)
    }

    /// Whether to keep an opening from peer `from`: yes if it opens a commitment of its seat
    /// at its step that we hold (on any log); refused if it opens none of them and one is on
    /// our log (from the seat's own device: a relayed one may be a loose one its relayer
    /// kept, and is only not kept); while none is held, kept up to [`LOOSE_OPENINGS`].
    fn admit_opening(&mut self, from: Seat, o: &Opening) -> Result<bool> {
        let log = self
            .game
            .as_ref()
            .and_then(|g| g.bases.get(o.step as usize))
            .map(|b| b.log);
        let mut on_our_log = false;
        for s in self.signed_at(o.step).filter(|s| s.seat == o.seat) {
            if let Body::Commit(c) = &s.body {
                if o.opens(&self.session, c) {
                    return Ok(true);
                }
                on_our_log |= Some(s.basis.log) == log;
            }
        }
        if on_our_log {
            return if from == o.seat {
                Err(NetError::BadOpening {
                    seat: o.seat,
                    name: self.start.name(o.seat),
                    step: o.step,
                })
            } else {
                Ok(false)
            };
        }
        let extra = self.extra.entry((o.seat, o.step)).or_default();
        if extra.loose_openings >= LOOSE_OPENINGS {
            return Ok(false);
        }
        extra.loose_openings += 1;
        Ok(true)
    }

    /// Counts again, per author, the bytes held for steps after the next (the table went
    /// back to an earlier step).
    pub(super) fn recount_future(&mut self) {
        self.peers.iter_mut().for_each(|p| p.future = 0);
        let from = self.step().saturating_add(2);
        for (id, author) in self.by_step.range(from..).flat_map(|(_, ids)| ids) {
            if let (Some(held), Some(b)) = (
                self.msgs.get(id),
                self.peers.get_mut(*author as usize).map(|p| &mut p.future),
            ) {
                *b += held.bytes.len();
            }
        }
    }

    /// The table moved on a step: the messages of the step after the new one are due now,
    /// and count against no budget.
    pub(super) fn future_due(&mut self) {
        let due = self.step().saturating_add(1);
        for (id, author) in self.by_step.get(&due).into_iter().flatten() {
            if let (Some(held), Some(b)) = (
                self.msgs.get(id),
                self.peers.get_mut(*author as usize).map(|p| &mut p.future),
            ) {
                *b = b.saturating_sub(held.bytes.len());
            }
        }
    }
}
