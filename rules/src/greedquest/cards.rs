//! The 28 cards of a GreedQuest deck, and piles of them counted by kind.
//!
//! Every player owns an identical deck (GAME-DATA.md: Go! 1–8 twice each, Go WILD!, one each
//! of Loot the Bodies!, Dragon ATTACK!!, The Meek Shall Inherit, Curse!, Dragon Sighting,
//! Secret Door, See Ya!, Even Chance and Odd Reversal, and two Tracking). Two copies of a kind
//! are interchangeable, so a pile is a count per kind: cheap to copy, to hash and to compare,
//! and its canonical order (the order of [`Card::ALL`]) is what a reshuffle starts from.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How many kinds of card a deck holds.
pub const KINDS: usize = 19;

/// How many cards a deck holds.
pub const DECK_SIZE: u8 = 28;

/// How many cards a full hand holds.
pub const HAND_SIZE: u8 = 5;

/// One kind of card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Card {
    Go1,
    Go2,
    Go3,
    Go4,
    Go5,
    Go6,
    Go7,
    Go8,
    /// Go WILD!: any whole number from 1 to 8, named after every card is seen.
    Wild,
    Loot,
    DragonAttack,
    Meek,
    Curse,
    DragonSighting,
    SecretDoor,
    SeeYa,
    EvenChance,
    OddReversal,
    Tracking,
}

impl Card {
    /// Every kind, in the canonical order: the order of the rulebook's card list, Go! first.
    pub const ALL: [Card; KINDS] = [
        Card::Go1,
        Card::Go2,
        Card::Go3,
        Card::Go4,
        Card::Go5,
        Card::Go6,
        Card::Go7,
        Card::Go8,
        Card::Wild,
        Card::Loot,
        Card::DragonAttack,
        Card::Meek,
        Card::Curse,
        Card::DragonSighting,
        Card::SecretDoor,
        Card::SeeYa,
        Card::EvenChance,
        Card::OddReversal,
        Card::Tracking,
    ];

    /// Position in [`Card::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many copies one deck holds.
    #[inline]
    pub const fn copies(self) -> u8 {
        match self {
            Card::Go1
            | Card::Go2
            | Card::Go3
            | Card::Go4
            | Card::Go5
            | Card::Go6
            | Card::Go7
            | Card::Go8
            | Card::Tracking => 2,
            _ => 1,
        }
    }

    /// The numbered Go! card of value `n` (1–8).
    pub const fn go(n: u8) -> Option<Card> {
        match n {
            1..=8 => Some(Card::ALL[n as usize - 1]),
            _ => None,
        }
    }

    /// The printed number of a numbered Go! card; `None` for Go WILD! and every other card.
    #[inline]
    pub const fn go_value(self) -> Option<u8> {
        match self {
            Card::Go1 => Some(1),
            Card::Go2 => Some(2),
            Card::Go3 => Some(3),
            Card::Go4 => Some(4),
            Card::Go5 => Some(5),
            Card::Go6 => Some(6),
            Card::Go7 => Some(7),
            Card::Go8 => Some(8),
            _ => None,
        }
    }

    /// A Go! card: the numbered ones and Go WILD! ("treated as a regular Go! card in all
    /// respects" once valued).
    #[inline]
    pub const fn is_go(self) -> bool {
        matches!(self, Card::Wild) || self.go_value().is_some()
    }

    /// Strength in a duel: "the highest Go! card played wins the duel", and "for purposes of
    /// dueling only, a Go WILD! card beats all other Go! cards". Printed values only (room
    /// modifiers do not reach duels); 0 for a card that is not a Go!.
    #[inline]
    pub const fn duel_rank(self) -> u8 {
        match self {
            Card::Wild => 9,
            _ => match self.go_value() {
                Some(v) => v,
                None => 0,
            },
        }
    }

    /// The card's printed name.
    pub const fn name(self) -> &'static str {
        match self {
            Card::Go1 => "Go! 1",
            Card::Go2 => "Go! 2",
            Card::Go3 => "Go! 3",
            Card::Go4 => "Go! 4",
            Card::Go5 => "Go! 5",
            Card::Go6 => "Go! 6",
            Card::Go7 => "Go! 7",
            Card::Go8 => "Go! 8",
            Card::Wild => "Go WILD!",
            Card::Loot => "Loot the Bodies!",
            Card::DragonAttack => "Dragon ATTACK!!",
            Card::Meek => "The Meek Shall Inherit",
            Card::Curse => "Curse!",
            Card::DragonSighting => "Dragon Sighting",
            Card::SecretDoor => "Secret Door",
            Card::SeeYa => "See Ya!",
            Card::EvenChance => "Even Chance",
            Card::OddReversal => "Odd Reversal",
            Card::Tracking => "Tracking",
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A multiset of cards: how many of each kind.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pile([u8; KINDS]);

impl Pile {
    /// No cards.
    pub const EMPTY: Pile = Pile([0; KINDS]);

    /// One whole deck of 28.
    pub fn full_deck() -> Pile {
        let mut pile = Pile::EMPTY;
        for card in Card::ALL {
            pile.0[card.index()] = card.copies();
        }
        pile
    }

    /// The pile holding exactly these cards.
    pub fn of(cards: &[Card]) -> Pile {
        let mut pile = Pile::EMPTY;
        for &card in cards {
            pile.add(card);
        }
        pile
    }

    /// How many of `card` the pile holds.
    #[inline]
    pub fn count(&self, card: Card) -> u8 {
        self.0[card.index()]
    }

    /// How many cards the pile holds.
    #[inline]
    pub fn len(&self) -> u8 {
        self.0.iter().fold(0u8, |sum, n| sum.saturating_add(*n))
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|n| *n == 0)
    }

    #[inline]
    pub fn contains(&self, card: Card) -> bool {
        self.count(card) > 0
    }

    #[inline]
    pub fn add(&mut self, card: Card) {
        let n = &mut self.0[card.index()];
        *n = n.saturating_add(1);
    }

    /// Adds every card of `other`.
    pub fn add_all(&mut self, other: &Pile) {
        for (n, m) in self.0.iter_mut().zip(other.0.iter()) {
            *n = n.saturating_add(*m);
        }
    }

    /// Removes one `card`; false (and no change) if the pile has none.
    #[inline]
    pub fn remove(&mut self, card: Card) -> bool {
        let n = &mut self.0[card.index()];
        if *n == 0 {
            return false;
        }
        *n -= 1;
        true
    }

    /// Empties the pile, returning what it held.
    pub fn take(&mut self) -> Pile {
        std::mem::take(self)
    }

    /// Every card, repeats included, in canonical order.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        Card::ALL
            .iter()
            .flat_map(move |&card| std::iter::repeat_n(card, usize::from(self.count(card))))
    }

    /// Each kind the pile holds at least one of, in canonical order.
    pub fn kinds(&self) -> impl Iterator<Item = Card> + '_ {
        Card::ALL
            .into_iter()
            .filter(move |card| self.contains(*card))
    }
}

impl fmt::Debug for Pile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.cards()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deck_holds_the_28_cards_of_game_data() {
        let deck = Pile::full_deck();
        assert_eq!(deck.len(), DECK_SIZE);
        let go: u8 = Card::ALL
            .iter()
            .filter(|c| c.go_value().is_some())
            .map(|c| deck.count(*c))
            .sum();
        assert_eq!(go, 16, "two of each Go! 1 to 8");
        assert_eq!(deck.count(Card::Wild), 1);
        assert_eq!(deck.count(Card::Tracking), 2);
        assert_eq!(deck.cards().count(), 28);
        assert_eq!(deck.kinds().count(), KINDS);
    }

    #[test]
    fn wild_beats_every_go_in_a_duel_and_specials_rank_nothing() {
        assert!(Card::Wild.duel_rank() > Card::Go8.duel_rank());
        assert_eq!(Card::Curse.duel_rank(), 0);
        assert_eq!(Card::go(3), Some(Card::Go3));
        assert_eq!(Card::go(9), None);
        assert!(Card::Wild.is_go() && !Card::Tracking.is_go());
    }

    #[test]
    fn piles_add_and_remove_without_going_negative() {
        let mut pile = Pile::of(&[Card::Go3, Card::Go3, Card::Curse]);
        assert!(pile.remove(Card::Go3));
        assert!(pile.remove(Card::Go3));
        assert!(!pile.remove(Card::Go3));
        assert_eq!(pile.len(), 1);
        assert_eq!(pile.take(), Pile::of(&[Card::Curse]));
        assert!(pile.is_empty());
    }
}
