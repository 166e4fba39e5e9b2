//! Shared hidden decks as the rules see them: cards named by handles, never by face.
//!
//! A game with a shared deck (Spree!'s poker decks, Freeloader's 54 cards, SPAMMERS' Lists
//! and Actions) never holds the deck's order: nobody does. It asks the protocol for what
//! happens to the cards ([`crate::Pending::Shuffle`], [`crate::Pending::Deal`],
//! [`crate::Pending::Reveal`], and the [`CardMove`]s of an input) and keeps in its public
//! state only [`Handle`]s: which card of which making of which deck. A seat's private side
//! learns the faces it holds through [`crate::Game::learn`]; a face becomes public when the
//! card is shown, and then the input that shows it names it.
//!
//! [`Dealer`] is the deck's stand-in where no protocol runs (the local driver in
//! [`crate::play`], tests, benchmarks of the rules): it knows every face, as no device at a
//! real table ever does.

use crate::{DeckId, Seat, rng};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A card by its place in the list of cards its deck was made from, counted over the game's
/// whole list for that deck, so two copies of one card are two ids. The game says what an
/// id means (a rank and suit, a card of its card table).
pub type CardId = u16;

/// A hidden card's public name: the deck, the making of the deck it came from (0 at set-up,
/// one more at every reshuffle) and its place in that making, 0 the top. A handle stays
/// with its card from hand to hand until the card is shown or the deck made again.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
pub struct Handle {
    pub deck: DeckId,
    pub generation: u16,
    pub position: u16,
}

/// What an input does with one hidden card its seat holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardMove {
    /// Shown to all, face up; the input claims its face and the protocol proves it.
    Show { card: Handle, face: CardId },
    /// Passed to `to`: only giver and receiver know its face.
    Pass { card: Handle, to: Seat },
    /// Put back face down: it goes back among the deck's hidden cards (the game says where,
    /// and may deal it again); only its former holder knows its face.
    PutBack { card: Handle },
}

/// The public side of one shared deck, for a game's `Public`: which making it is, how many
/// cards it has and how many are gone from its top. Handles it gives out are the ones the
/// protocol gives the same cards.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HiddenDeck {
    pub deck: DeckId,
    /// How many times the deck has been made; `None` before the first.
    pub generation: Option<u16>,
    /// Cards in the current making.
    pub len: u16,
    /// Cards taken from its top so far.
    pub taken: u16,
}

impl HiddenDeck {
    pub fn new(deck: DeckId) -> HiddenDeck {
        HiddenDeck {
            deck,
            ..HiddenDeck::default()
        }
    }

    /// The deck was made again (its [`crate::Step::Shuffled`] came) from `len` cards.
    pub fn shuffled(&mut self, len: usize) {
        self.generation = Some(self.generation.map_or(0, |g| g.saturating_add(1)));
        self.len = len.min(u16::MAX as usize) as u16;
        self.taken = 0;
    }

    /// Cards left in the deck.
    pub fn left(&self) -> usize {
        usize::from(self.len.saturating_sub(self.taken))
    }

    /// The handles of the next `count` cards from the top, without taking them (what a
    /// [`crate::Pending::Deal`] names). Fewer if the deck has fewer.
    pub fn peek(&self, count: usize) -> Vec<Handle> {
        let Some(generation) = self.generation else {
            return Vec::new();
        };
        (self.taken..self.len)
            .take(count)
            .map(|position| Handle {
                deck: self.deck,
                generation,
                position,
            })
            .collect()
    }

    /// Takes the next `count` cards from the top (after their deal or reveal is done).
    pub fn take(&mut self, count: usize) -> Vec<Handle> {
        let cards = self.peek(count);
        self.taken += cards.len() as u16;
        cards
    }

    /// The deck's order in words, once every face is known (after the audit): "{what}, top
    /// first: a, b, c", a card whose face is not known as "?". `None` before the deck is
    /// made.
    pub fn order(
        &self,
        what: &str,
        face: &dyn Fn(Handle) -> Option<CardId>,
        name: impl Fn(CardId) -> String,
    ) -> Option<String> {
        self.generation?;
        let names = self
            .peek(self.left())
            .into_iter()
            .map(|card| face(card).map_or_else(|| "?".to_string(), &name));
        Some(order_line(what, names))
    }
}

/// A pile's order in words, its cards named top first: "{what}, top first: a, b, c.", or
/// "{what}: empty.".
pub fn order_line(what: &str, names: impl IntoIterator<Item = String>) -> String {
    let names: Vec<String> = names.into_iter().collect();
    if names.is_empty() {
        format!("{what}: empty.")
    } else {
        format!("{what}, top first: {}.", names.join(", "))
    }
}

/// Every face of every shared deck, known: the local stand-in for the mental deck.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dealer {
    faces: BTreeMap<Handle, CardId>,
    generations: BTreeMap<DeckId, u16>,
}

impl Dealer {
    pub fn new() -> Dealer {
        Dealer::default()
    }

    /// Makes `deck` again from `cards`, in an order drawn from `seed`.
    pub fn shuffle(&mut self, deck: DeckId, cards: &[CardId], seed: &[u8; 32]) {
        let generation = match self.generations.get(&deck) {
            Some(g) => g.saturating_add(1),
            None => 0,
        };
        self.generations.insert(deck, generation);
        let mut order = cards.to_vec();
        rng::shuffle(
            &mut rng::from_seed(seed, "local dealer shuffle"),
            &mut order,
        );
        for (position, face) in order.into_iter().enumerate() {
            let card = Handle {
                deck,
                generation,
                position: position as u16,
            };
            self.faces.insert(card, face);
        }
    }

    /// The face of a card, if it was ever dealt out of a deck this dealer made.
    pub fn face(&self, card: &Handle) -> Option<CardId> {
        self.faces.get(card).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hidden_deck_names_the_cards_the_dealer_made() {
        let mut deck = HiddenDeck::new(2);
        assert!(deck.peek(1).is_empty(), "no cards before the first making");
        deck.shuffled(5);
        let mut dealer = Dealer::new();
        dealer.shuffle(2, &[10, 11, 12, 13, 14], &[1; 32]);
        let dealt = deck.take(3);
        assert_eq!(deck.left(), 2);
        let mut faces: Vec<CardId> = dealt.iter().filter_map(|h| dealer.face(h)).collect();
        faces.extend(deck.take(9).iter().filter_map(|h| dealer.face(h)));
        faces.sort();
        assert_eq!(faces, vec![10, 11, 12, 13, 14]);
        deck.shuffled(2);
        dealer.shuffle(2, &[10, 11], &[2; 32]);
        assert_eq!(deck.peek(1)[0].generation, 1);
        assert!(dealer.face(&deck.peek(1)[0]).is_some());
    }
}
