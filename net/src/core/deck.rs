//! The shared hidden decks in the protocol (DESIGN.md, "The mental deck"): the steps the
//! game asks of a deck, and the cards an input shows or passes.
//!
//! - **A shuffle** ([`Pending::Shuffle`]) is one step whose parts come in seat order: each
//!   seat still in re-encrypts and reorders the deck as the seat before it passed it on,
//!   from a seed drawn from its committed secret, so the audit replays every part. A seat
//!   the table skips is left out of the chain; one honest shuffler hides the order.
//! - **A deal** ([`Pending::Deal`]) is one step where every seat but the receiver gives its
//!   decryption shares of the cards, each batch with one Chaum–Pedersen proof checked on
//!   arrival; the receiver alone can then read them. **A reveal** takes every seat's shares
//!   and every device reads the faces.
//! - **An input that shows or passes held cards** ([`Game::card_moves`]) comes with this
//!   seat's [`DeckPart::Moves`] (its own shares of the shown cards, the passed cards
//!   handed over to their receivers' keys), sent with the input, or with its opening when
//!   the input was sealed, so a sealed answer shows nothing before the step opens. The step
//!   completes only once every such part is in and proves the faces the inputs claim.
//!
//! A part that does not check (a share its seat's key did not make, a shown card that is
//! not what the input claims, a handover to another card) halts the game naming its seat;
//! the signed message is the proof. A card that opens to no card of its deck, or to one
//! already seen, shows a dishonest shuffle: the game stops there, and the audit names the
//! shuffler.

use super::{Core, View};
use crate::audit::{self, Fault};
use crate::log::StepRecord;
use crate::mental::table::{CardFault, DeckPart, DeckRecord};
use crate::wire::{Basis, Body};
use hoard_rules::{Game, Pending, Seat, Step};
use std::collections::BTreeSet;

/// A completed step as the log keeps it and as the engine sees it.
pub(super) type RecordAndStep<G> = (StepRecord, Step<<G as Game>::Input>);

impl<G: Game> Core<G> {
    /// Makes this device cheat with its own deck parts, as modified software would: `f`
    /// changes each part before it is signed. For the threat tests; an honest device never
    /// calls it.
    #[doc(hidden)]
    pub fn tamper_own_deck_parts(&mut self, f: fn(&mut DeckPart)) {
        self.crooked_deck = Some(f);
    }

    /// This seat's part of the table's deck key (public: its accept carries it).
    pub fn deck_key(&self) -> curve25519_dalek::RistrettoPoint {
        curve25519_dalek::RistrettoPoint::mul_base(&crate::mental::table::deck_secret(&self.secret))
    }

    pub(super) fn deck_fault(&self, n: u32, e: CardFault) -> Fault {
        match e {
            CardFault::Seat { seat, why } => Fault {
                seat: Some(seat),
                step: Some(n),
                what: format!("{} (seat {seat}) at step {n}: {why}", self.start.name(seat)),
            },
            CardFault::Deck(why) => Fault {
                seat: None,
                step: Some(n),
                what: format!("at step {n}, {why}"),
            },
        }
    }

    /// The seats a deck step waits for, in the order their parts come.
    pub(super) fn deck_awaited(pending: &Pending, seats: usize) -> Vec<Seat> {
        let all = 0..seats as Seat;
        match pending {
            Pending::Shuffle { .. } | Pending::Reveal { .. } => all.collect(),
            Pending::Deal { to, .. } => all.filter(|s| s != to).collect(),
            _ => Vec::new(),
        }
    }

    /// Checks every deck part of the current step not yet checked whose check can be made
    /// now (a move's part waits for its input). A bad one is a fault naming its seat.
    pub(super) fn check_deck_parts(
        &self,
        view: &mut View<G>,
        pending: &Pending,
        faults: &mut Vec<Fault>,
    ) {
        let Some(gs) = &self.game else { return };
        let n = view.n;
        let mut dishonest = None;
        // The seats a shuffle passes through, as the step's plan makes them: those still in
        // the game and not passed over at this step (one that already passed the deck on
        // is owed nothing, so no honest seat votes to go on without it).
        let removed = super::away::removed_before(&gs.removed, n);
        let (skips, _, _) = self.step_quorum(pending, &view.votes, &removed);
        let shuffling = |s: &Seat| !removed.contains(s) && !skips.contains(s);
        for (seat, (_, part)) in &view.deck {
            if view.deck_ok.contains(seat) {
                continue;
            }
            let checked = match (pending, part) {
                (
                    Pending::Shuffle { deck, cards },
                    DeckPart::Shuffle {
                        cards: out,
                        escrow,
                        proof,
                    },
                ) => {
                    let escrowed = match (gs.deck.escrow_due(*seat), escrow.is_empty()) {
                        (true, false) => gs.deck.check_escrow(*seat, escrow).and_then(|()| {
                            // The part sealed for this seat must be the one committed to.
                            if *seat == self.me {
                                return Ok(());
                            }
                            let mut deck = gs.deck.clone();
                            deck.keep_escrow(*seat, escrow)?;
                            deck.read_escrow(*seat, self.me, &self.secret).map(|_| ())
                        }),
                        (false, true) => Ok(()),
                        (true, true) => Err(CardFault::Seat {
                            seat: *seat,
                            why: "its first shuffle escrows no part of its key".into(),
                        }),
                        (false, false) => Err(CardFault::Seat {
                            seat: *seat,
                            why: "it escrowed its key a second time".into(),
                        }),
                    };
                    // The deck it was given: the part of the seat before it in the chain,
                    // once that part is proven (or the cards in the open for the first).
                    let before = (0..*seat).rev().find(shuffling);
                    let previous = before.map(|p| match view.deck.get(&p) {
                        Some((_, DeckPart::Shuffle { cards, .. })) if view.deck_ok.contains(&p) => {
                            Some(&cards[..])
                        }
                        _ => None,
                    });
                    if let Err(e) = escrowed {
                        Err(e)
                    } else if !shuffling(seat) || previous == Some(None) {
                        Ok(false)
                    } else if out.len() == cards.len() {
                        gs.deck
                            .check_shuffle(*seat, *deck, cards, previous.flatten(), out, proof)
                            .map(|()| true)
                    } else {
                        Err(CardFault::Seat {
                            seat: *seat,
                            why: format!(
                                "it passed on a deck of {} cards, not {}",
                                out.len(),
                                cards.len()
                            ),
                        })
                    }
                }
                (Pending::Deal { to, cards }, DeckPart::Shares { shares, proof }) if to != seat => {
                    gs.deck
                        .check_shares(n, *seat, cards, shares, proof)
                        .map(|()| true)
                }
                (Pending::Reveal { cards }, DeckPart::Shares { shares, proof }) => gs
                    .deck
                    .check_shares(n, *seat, cards, shares, proof)
                    .map(|()| true),
                (Pending::Turn { .. } | Pending::Together { .. }, DeckPart::Moves { .. }) => {
                    match view.inputs.get(seat).or(view.opens.get(seat)) {
                        None => Ok(false),
                        Some((_, input)) => {
                            let moves = G::card_moves(&gs.public, *seat, input);
                            gs.deck.check_moves(n, *seat, &moves, part).map(|()| true)
                        }
                    }
                }
                _ => Err(CardFault::Seat {
                    seat: *seat,
                    why: "it sent a deck part this step has no place for".into(),
                }),
            };
            match checked {
                Ok(true) => {
                    view.deck_ok.insert(*seat);
                }
                Ok(false) => {}
                Err(CardFault::Deck(why)) => dishonest = Some(why),
                Err(e) => faults.push(self.deck_fault(n, e)),
            }
        }
        if view.dishonest.is_none() {
            view.dishonest = dishonest;
        }
    }

    /// A card of step `n` showed a dishonest shuffle: every device sees the same, so every
    /// device ends the game at this step (recorded as an end no seat signed) and the
    /// reveal and the audit that follow name the shuffler.
    pub(super) fn stop_dishonest(&mut self, now: super::Time, n: u32, why: &str) {
        self.events.push_back(super::CoreEvent::DeckBroken {
            step: n,
            what: why.to_string(),
        });
        self.end_here(now, n, Vec::new(), &BTreeSet::new());
    }

    /// This seat's part of the current deck step, if the step waits for it now: a shuffle
    /// once every seat before it in the chain has passed the deck on, shares at once.
    pub(super) fn my_deck_part(
        &self,
        pending: &Pending,
        view: &View<G>,
        active: &[Seat],
    ) -> Option<Result<DeckPart, Fault>> {
        let gs = self.game.as_ref()?;
        let me = self.me;
        if !active.contains(&me) || view.deck.contains_key(&me) {
            return None;
        }
        let n = view.n;
        match pending {
            Pending::Shuffle { deck, cards } => {
                let before: Vec<Seat> = active.iter().copied().filter(|s| *s < me).collect();
                if !before.iter().all(|s| view.deck_ok.contains(s)) {
                    return None;
                }
                let previous = before.last().and_then(|s| match view.deck.get(s) {
                    Some((_, DeckPart::Shuffle { cards, .. })) => Some(&cards[..]),
                    _ => None,
                });
                let escrow = if gs.deck.escrow_due(me) {
                    gs.deck.make_escrow(me, &self.secret)
                } else {
                    Vec::new()
                };
                let (cards, proof) = gs
                    .deck
                    .shuffle_part(me, *deck, cards, previous, &self.secret);
                Some(Ok(DeckPart::Shuffle {
                    cards,
                    escrow,
                    proof: Box::new(proof),
                }))
            }
            Pending::Deal { cards, .. } | Pending::Reveal { cards } => Some(
                gs.deck
                    .make_shares(n, me, &self.secret, cards)
                    .map_err(|e| self.deck_fault(n, e)),
            ),
            _ => None,
        }
    }

    /// The seats the current deck step still waits for: the next shuffler, or every seat
    /// whose shares are not in.
    pub(super) fn deck_owed(pending: &Pending, view: &View<G>, active: &[Seat]) -> BTreeSet<Seat> {
        let missing = active.iter().copied().filter(|s| !view.deck_ok.contains(s));
        match pending {
            Pending::Shuffle { .. } => missing.take(1).collect(),
            _ => missing.collect(),
        }
    }

    /// The record and the engine's step of a deck step whose every part is in, or why its
    /// cards show a dishonest shuffle.
    pub(super) fn deck_record(
        &self,
        pending: &Pending,
        view: &View<G>,
        active: &[Seat],
    ) -> Result<Result<RecordAndStep<G>, String>, Fault> {
        // Each part in, and the escrow parts opened at this step (the receiver of a deal
        // opens its part too, with no shares of its own).
        let mut seats: BTreeSet<Seat> = active.iter().copied().collect();
        seats.extend(view.escrow.keys());
        let parts: Vec<(Seat, DeckRecord)> = seats
            .into_iter()
            .filter_map(|s| {
                let opened = view.escrow.get(&s).cloned().unwrap_or_default();
                let record = match view.deck.get(&s).map(|(_, p)| p.record()) {
                    Some(DeckRecord::Shares { shares, .. }) => {
                        DeckRecord::Shares { shares, opened }
                    }
                    Some(other) if active.contains(&s) => other,
                    _ if !opened.is_empty() => DeckRecord::Shares {
                        shares: Vec::new(),
                        opened,
                    },
                    _ => return None,
                };
                Some((s, record))
            })
            .collect();
        let step = match pending {
            Pending::Shuffle { .. } => Step::Shuffled,
            Pending::Deal { .. } => Step::Dealt,
            Pending::Reveal { cards } => {
                let gs = self.game.as_ref().ok_or_else(|| Fault {
                    seat: None,
                    step: Some(view.n),
                    what: "no game".into(),
                })?;
                match gs.deck.reveal_faces(cards, &parts) {
                    Ok(faces) => Step::Revealed(faces),
                    Err(CardFault::Deck(why)) => return Ok(Err(why)),
                    Err(e) => return Err(self.deck_fault(view.n, e)),
                }
            }
            _ => Step::Inputs(Vec::new()),
        };
        let faces = match &step {
            Step::Revealed(faces) => faces.clone(),
            _ => Vec::new(),
        };
        Ok(Ok((StepRecord::Deck { parts, faces }, step)))
    }

    /// Seats whose shares a deal or reveal must make from their escrowed keys: removed
    /// before this step or by its vote, with keys the table does not know yet.
    pub(super) fn escrow_needed(&self, pending: &Pending, gone: &BTreeSet<Seat>) -> Vec<Seat> {
        let Some(gs) = &self.game else {
            return Vec::new();
        };
        let to = match pending {
            Pending::Deal { to, .. } => Some(*to),
            Pending::Reveal { .. } => None,
            _ => return Vec::new(),
        };
        gone.iter()
            .copied()
            .filter(|s| Some(*s) != to && !gs.deck.key_known(*s) && gs.deck.escrowed(*s))
            .collect()
    }

    /// Why a deal or reveal cannot be made, in words, if it cannot: a seat the table removed
    /// before it ever shuffled (so before it escrowed its key), or two removed together
    /// that each held a part of the other's key, hold a part of every card's lock that no
    /// one else can open. Every device sees it at the same step, from the log.
    /// (Today's deck games begin with their shuffle, where such a seat cannot be removed;
    /// this guards a game that would play steps before it.)
    pub(super) fn undealable(&self, pending: &Pending, gone: &BTreeSet<Seat>) -> Option<String> {
        let gs = self.game.as_ref()?;
        let to = match pending {
            Pending::Deal { to, .. } => Some(*to),
            Pending::Reveal { .. } => None,
            _ => return None,
        };
        let lost: Vec<Seat> = gs
            .deck
            .lost_keys(gone)
            .into_iter()
            .filter(|s| Some(*s) != to)
            .collect();
        if lost.is_empty() {
            return None;
        }
        let names: Vec<String> = lost.iter().map(|s| self.start.name(*s)).collect();
        let names = names.join(" and ");
        Some(if lost.iter().any(|s| !gs.deck.escrowed(*s)) {
            format!(
                "{names} left before shuffling the deck, so no card can be opened without them: the game cannot go on"
            )
        } else {
            format!(
                "{names} left at the same time, each holding part of the other's key, so no card can be opened without them: the game cannot go on"
            )
        })
    }

    /// Stops the game at step `n` because its cards can no longer be opened, accusing no one:
    /// it ends as the seats still in (`staying`) would end it by agreement, with no winner,
    /// and the audit runs. (An end no seat is named in is a stop on a dishonest deck.)
    pub(super) fn stop_undealable(
        &mut self,
        now: super::Time,
        n: u32,
        why: &str,
        staying: Vec<Seat>,
    ) {
        self.events.push_back(super::CoreEvent::Stopped {
            step: n,
            what: why.to_string(),
        });
        self.end_here(now, n, staying, &BTreeSet::new());
    }

    /// This seat's opened escrow parts of `needed` seats' keys, if it owes them at this step.
    pub(super) fn my_escrow(&self, view: &View<G>, needed: &[Seat]) -> Option<Body> {
        let gs = self.game.as_ref()?;
        if needed.is_empty() || needed.contains(&self.me) || view.escrow.contains_key(&self.me) {
            return None;
        }
        Some(Body::Escrow(gs.deck.open_escrow(
            self.me,
            &self.secret,
            needed,
        )))
    }

    /// A card dealt or passed to this seat opened to no card of its deck: only this seat can
    /// see that, so it shows the table, with its own share of the card and the proof that
    /// its key made it, and every device opens the card and stops the game there.
    pub(super) fn my_complaint(&self, n: u32) -> Option<Body> {
        let card = self.complaint?;
        let gs = self.game.as_ref()?;
        let (share, proof) = gs.deck.complain(n, self.me, &self.secret, &card)?;
        Some(Body::Complaint(Box::new(crate::mental::table::Complaint {
            card,
            share,
            proof,
        })))
    }

    /// Checks a seat's complaint about a card it holds: its share is its own, and the card
    /// it opens to is indeed no card its deck could hold (then the deck was dishonest);
    /// otherwise the complaint is false, a fault of its seat.
    pub(super) fn check_complaint(
        &self,
        n: u32,
        seat: Seat,
        card: &hoard_rules::Handle,
        share: &crate::mental::table::Share,
        proof: &crate::mental::DleqProof,
    ) -> Result<String, Fault> {
        let Some(gs) = &self.game else {
            return Err(self.deck_fault(n, CardFault::Deck("no game".into())));
        };
        match gs.deck.check_complaint(n, seat, card, share, proof) {
            Ok(why) => Ok(why),
            Err(e) => Err(self.deck_fault(n, e)),
        }
    }

    /// The cards the inputs of a completed step passed, by seat, as the log keeps them.
    pub(super) fn passed_in(
        view: &View<G>,
        seats: &[Seat],
    ) -> Vec<(Seat, Vec<crate::mental::Ciphertext>)> {
        seats
            .iter()
            .filter_map(|s| match view.deck.get(s) {
                Some((_, DeckPart::Moves { passed, .. })) if !passed.is_empty() => {
                    Some((*s, passed.iter().map(|h| h.card).collect()))
                }
                _ => None,
            })
            .collect()
    }

    /// Seats whose input at this step moves cards and whose part proving it is not in.
    pub(super) fn moves_owed(&self, view: &View<G>, active: &[Seat]) -> BTreeSet<Seat> {
        let Some(gs) = &self.game else {
            return BTreeSet::new();
        };
        active
            .iter()
            .copied()
            .filter(|s| {
                view.inputs
                    .get(s)
                    .or(view.opens.get(s))
                    .is_some_and(|(_, input)| !G::card_moves(&gs.public, *s, input).is_empty())
                    && !view.deck_ok.contains(s)
            })
            .collect()
    }

    /// Sends the part proving the cards this seat's input moves, if it moves any: right
    /// after the input, or after its opening when it was sealed.
    pub(super) fn send_moves(&mut self, n: u32, basis: Basis, input: &G::Input) {
        let Some(gs) = &self.game else { return };
        let moves = G::card_moves(&gs.public, self.me, input);
        if moves.is_empty() {
            return;
        }
        match gs.deck.make_moves(n, self.me, &self.secret, &moves) {
            Ok(part) => self.sign_and_send(n, basis, Body::Deck(Box::new(part))),
            Err(e) => {
                let f = self.deck_fault(n, e);
                self.halt(f);
            }
        }
    }

    /// Moves the decks by a step just applied (`public` is the table before it) and gives
    /// this seat's private side the faces it now holds.
    pub(super) fn deck_after(
        &mut self,
        n: u32,
        pending: &Pending,
        public: &G::Public,
        record: &StepRecord,
        step: &Step<G::Input>,
    ) -> Result<(), Fault> {
        let handed = hoard_rules::play::handed::<G>(public, step);
        let moves = audit::card_moves::<G>(public, step);
        let me = self.me;
        let secret = self.secret;
        let result = {
            let Some(gs) = &mut self.game else {
                return Ok(());
            };
            let moved = match record {
                StepRecord::Deck { parts, .. } => gs
                    .deck
                    .apply_record::<G::Input>(pending, parts, None)
                    .map(|_| ()),
                StepRecord::Inputs { passed, .. } if !moves.is_empty() => {
                    gs.deck.apply_moves(&moves, passed)
                }
                _ => Ok(()),
            };
            moved.map(|()| {
                let mut bad = None;
                for (seat, card) in handed.iter().filter(|(s, _)| *s == me) {
                    match gs.deck.read(card, &secret) {
                        Ok(face) => {
                            if let Some(Some(private)) = gs.privates.get_mut(usize::from(*seat)) {
                                G::learn(private, *card, face);
                            }
                        }
                        // Only this seat can see it: it shows the table (see below).
                        Err(_) => bad = bad.or(Some(*card)),
                    }
                }
                bad
            })
        };
        match result {
            Ok(bad) => {
                if bad.is_some() {
                    self.complaint = bad;
                }
                Ok(())
            }
            Err(e) => Err(self.deck_fault(n, e)),
        }
    }
}
