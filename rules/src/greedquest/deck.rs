//! Moving cards between a seat's hand, draw pile, discards and the dead, in step on the public
//! table and on whichever private sides are present.
//!
//! Every public change here depends only on public counts, never on a private side, so the
//! table evolves identically on a device holding one private side and at the audit holding
//! all of them. Shuffles use the seat's deck key: reshuffle number r shuffles, with
//! `rng::from_seed(key, "deck r")`, the cards in canonical order.

use super::cards::{Card, DECK_SIZE, HAND_SIZE, KINDS, Pile};
use super::events::Event;
use super::state::{Private, Public, SeatSet};
use crate::{Seat, rng};

/// One `apply` call's view of the game: the table, the private sides it has, the log.
pub(crate) struct Table<'a> {
    pub p: &'a mut Public,
    pub privates: &'a mut [Option<Private>],
    pub events: &'a mut Vec<Event>,
    /// Turns passed in this step with nobody able to play (see `rules::begin_turn`).
    pub empty_turns: u8,
    /// Who has each kind of card on the table this turn (whatever its status): lets the
    /// card sequence skip the kinds nobody played.
    pub kinds: [SeatSet; KINDS],
}

impl Private {
    /// Sets the deck key from the beacon draw and shuffles the whole deck ("deck 0").
    pub(crate) fn shuffle_new_deck(&mut self, draw: &[u8; 32]) {
        self.key = *blake3::keyed_hash(&self.secret, draw).as_bytes();
        self.reshuffles = 0;
        self.hand = Pile::EMPTY;
        self.face_down = Pile::EMPTY;
        self.drawn = None;
        self.deck.clear();
        self.deck.extend(Pile::full_deck().cards());
        let mut rng = rng::from_seed(&self.key, "deck 0");
        rng::shuffle(&mut rng, &mut self.deck);
    }

    /// Replaces the draw pile with `cards`, shuffled as reshuffle number `reshuffles + 1`.
    fn reshuffle_into_deck(&mut self, cards: &Pile) {
        self.reshuffles = self.reshuffles.saturating_add(1);
        self.deck.clear();
        self.deck.extend(cards.cards());
        let label = format!("deck {}", self.reshuffles);
        let mut rng = rng::from_seed(&self.key, &label);
        rng::shuffle(&mut rng, &mut self.deck);
    }
}

impl<'a> Table<'a> {
    pub fn new(
        p: &'a mut Public,
        privates: &'a mut [Option<Private>],
        events: &'a mut Vec<Event>,
    ) -> Self {
        let mut table = Table {
            p,
            privates,
            events,
            empty_turns: 0,
            kinds: [SeatSet::EMPTY; KINDS],
        };
        table.index_cards();
        table
    }

    /// Rebuilds [`Table::kinds`] from the table.
    pub fn index_cards(&mut self) {
        self.kinds = [SeatSet::EMPTY; KINDS];
        for (seat, slot) in self.p.table.iter().enumerate() {
            if let Some(card) = slot.card {
                self.kinds[card.index()].insert(seat as Seat);
            }
        }
    }

    #[inline]
    pub fn private(&mut self, seat: Seat) -> Option<&mut Private> {
        self.privates
            .get_mut(usize::from(seat))
            .and_then(Option::as_mut)
    }

    #[inline]
    pub fn push(&mut self, event: Event) {
        self.events.push(event);
    }

    /// The seat's discards (face up and face down) become its new draw pile. Only when the
    /// draw pile is empty.
    fn reshuffle_discards(&mut self, seat: Seat) {
        let view = &mut self.p.seats[usize::from(seat)];
        let count = view.discards.len().saturating_add(view.face_down);
        if view.deck != 0 || count == 0 {
            return;
        }
        let face_up = view.discards.take();
        view.face_down = 0;
        view.deck = count;
        if let Some(private) = self.private(seat) {
            let mut all = private.face_down.take();
            all.add_all(&face_up);
            all.add_all(&Pile::of(&private.deck));
            private.reshuffle_into_deck(&all);
        }
        self.push(Event::Reshuffled { seat });
    }

    /// "As soon as a player draws the last card from his deck, he shuffles the discards":
    /// called after every draw and at the end of every step, so that between steps an empty
    /// draw pile always means there is nothing to reshuffle.
    #[inline]
    pub fn settle(&mut self, seat: Seat) {
        if self.p.seats[usize::from(seat)].deck == 0 {
            self.reshuffle_discards(seat);
        }
    }

    /// Takes the top card of the draw pile (reshuffling first if it is empty). `None` if the
    /// seat has nothing left to draw; otherwise the card, if this seat's private side is here.
    #[inline]
    pub fn take_top(&mut self, seat: Seat) -> Option<Option<Card>> {
        self.settle(seat);
        let view = &mut self.p.seats[usize::from(seat)];
        if view.deck == 0 {
            return None;
        }
        view.deck -= 1;
        let card = self.private(seat).and_then(|p| p.deck.pop());
        self.settle(seat);
        Some(card)
    }

    /// Draws up to `count` cards into the hand; returns how many were drawn.
    pub fn draw(&mut self, seat: Seat, count: u8) -> u8 {
        let mut drawn = 0;
        while drawn < count {
            let Some(card) = self.take_top(seat) else {
                break;
            };
            self.p.seats[usize::from(seat)].hand += 1;
            if let (Some(card), Some(private)) = (card, self.private(seat)) {
                private.hand.add(card);
            }
            drawn += 1;
        }
        drawn
    }

    /// Draws until the hand holds five (or the cards run out).
    pub fn refill(&mut self, seat: Seat) -> u8 {
        let hand = self.p.seats[usize::from(seat)].hand;
        self.draw(seat, HAND_SIZE.saturating_sub(hand))
    }

    /// Takes `card` out of the hand (it has been played). The public side only counts.
    #[inline]
    pub fn play_from_hand(&mut self, seat: Seat, card: Card) {
        let view = &mut self.p.seats[usize::from(seat)];
        view.hand = view.hand.saturating_sub(1);
        if let Some(private) = self.private(seat) {
            private.hand.remove(card);
        }
    }

    /// A card of `seat` leaves play: onto the discards, or out of the game if `dead`.
    #[inline]
    pub fn discard(&mut self, seat: Seat, card: Card, dead: bool) {
        let view = &mut self.p.seats[usize::from(seat)];
        if dead {
            view.dead.add(card);
            self.push(Event::Dead { seat, card });
        } else {
            view.discards.add(card);
        }
    }

    /// Loot the Bodies!: the whole hand goes to the discards, face down to everyone else.
    pub fn discard_hand(&mut self, seat: Seat) {
        let view = &mut self.p.seats[usize::from(seat)];
        view.face_down = view.face_down.saturating_add(view.hand);
        view.hand = 0;
        if let Some(private) = self.private(seat) {
            let hand = private.hand.take();
            private.face_down.add_all(&hand);
        }
    }

    /// Shuffles the draw pile, the discards and (if asked) the hand and the dead cards into
    /// one new draw pile. Returns how many dead cards came back.
    pub fn gather_deck(&mut self, seat: Seat, with_hand: bool, with_dead: bool) -> u8 {
        let view = &mut self.p.seats[usize::from(seat)];
        let face_up = view.discards.take();
        let dead = if with_dead {
            view.dead.take()
        } else {
            Pile::EMPTY
        };
        let hand = if with_hand {
            std::mem::take(&mut view.hand)
        } else {
            0
        };
        view.deck = view
            .deck
            .saturating_add(face_up.len())
            .saturating_add(view.face_down)
            .saturating_add(dead.len())
            .saturating_add(hand)
            .min(DECK_SIZE);
        view.face_down = 0;
        if let Some(private) = self.private(seat) {
            let mut all = private.face_down.take();
            all.add_all(&face_up);
            all.add_all(&dead);
            all.add_all(&Pile::of(&private.deck));
            if with_hand {
                all.add_all(&private.hand.take());
            }
            private.reshuffle_into_deck(&all);
        }
        dead.len()
    }

    /// Room 11, after the secret choice: a discarded first card goes under the draw pile and
    /// the top card replaces it. The public side cannot tell, and need not: both ways leave
    /// the same counts.
    pub fn discard_first_card(private: &mut Private) {
        if let Some(card) = private.drawn.take() {
            private.deck.insert(0, card);
            if let Some(top) = private.deck.pop() {
                private.hand.add(top);
            }
        }
    }
}
