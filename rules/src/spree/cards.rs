//! The cards: two poker decks and their jokers, shuffled together as one shared hidden deck.
//! A card's id is its place in that list: ids 0–51 are the first poker deck, 52–103 the
//! second (the same faces again), and every id from 104 on is a Joker.

use crate::CardId;
use serde::{Deserialize, Serialize};

/// Cards in the two poker decks, jokers aside.
pub const POKER: u16 = 104;
/// Jokers in two poker decks; a table may add more.
pub const JOKERS: u16 = 4;
/// The rank a Joker has (it has none: it can stand for any card but a shop's).
pub const JOKER: u8 = 0;
pub const ACE: u8 = 14;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Suit {
    Hearts,
    Spades,
    Clubs,
    Diamonds,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Hearts, Suit::Spades, Suit::Clubs, Suit::Diamonds];

    pub fn symbol(self) -> char {
        match self {
            Suit::Hearts => '♥',
            Suit::Spades => '♠',
            Suit::Clubs => '♣',
            Suit::Diamonds => '♦',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Suit::Hearts => "Hearts",
            Suit::Spades => "Spades",
            Suit::Clubs => "Clubs",
            Suit::Diamonds => "Diamonds",
        }
    }

    pub fn red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }
}

/// A card's face: its rank (2–10, 11 Jack, 12 Queen, 13 King, 14 Ace) and suit. A Joker has
/// no face; see [`face`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Face {
    pub rank: u8,
    pub suit: Suit,
}

impl Face {
    pub const fn new(rank: u8, suit: Suit) -> Face {
        Face { rank, suit }
    }
}

/// The face of card `id`, `None` for a Joker.
pub fn face(id: CardId) -> Option<Face> {
    (id < POKER).then(|| {
        let k = id % 52;
        Face::new((k % 13) as u8 + 2, Suit::ALL[usize::from(k / 13)])
    })
}

/// The rank of card `id` ([`JOKER`] for a Joker).
pub fn rank(id: CardId) -> u8 {
    face(id).map_or(JOKER, |f| f.rank)
}

pub fn is_joker(id: CardId) -> bool {
    face(id).is_none()
}

/// What a card is worth in a car: its number, Jacks 11, Queens 12, Kings 13, Aces 15,
/// Jokers nothing.
pub fn points(id: CardId) -> i32 {
    match rank(id) {
        JOKER => 0,
        ACE => 15,
        r => i32::from(r),
    }
}

/// A rank as players say it ("10", "J", "A", "Joker").
pub fn rank_name(rank: u8) -> String {
    match rank {
        JOKER => "Joker".into(),
        11 => "J".into(),
        12 => "Q".into(),
        13 => "K".into(),
        ACE => "A".into(),
        n => n.to_string(),
    }
}

/// A card as players say it ("10 of Hearts", "Ace of Spades", "Joker"), in words that any
/// font can show.
pub fn name(id: CardId) -> String {
    face(id).map_or_else(|| "Joker".into(), face_name)
}

/// A face as players say it ("Queen of Clubs"): a card's name, or the shop selling it.
pub fn face_name(f: Face) -> String {
    let rank = match f.rank {
        11 => "Jack".to_string(),
        12 => "Queen".to_string(),
        13 => "King".to_string(),
        ACE => "Ace".to_string(),
        n => n.to_string(),
    };
    format!("{rank} of {}", f.suit.name())
}

/// Every card of a table with `jokers` Jokers, by id.
pub fn all(jokers: u16) -> Vec<CardId> {
    (0..POKER + jokers).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_decks_hold_every_face_twice_and_score_as_the_rulebook_says() {
        // "Number cards are worth their face value, Jacks are worth 11, Queens 12, and Kings
        // 13. Aces are worth 15. Jokers are worth zero."
        let cards = all(JOKERS);
        assert_eq!(cards.len(), 108);
        let total: i32 = cards.iter().map(|c| points(*c)).sum();
        // Per suit: 2..=10 is 54, J Q K 36, A 15: 105; four suits, two decks.
        assert_eq!(total, 105 * 4 * 2);
        for c in 0..52 {
            assert_eq!(face(c), face(c + 52));
        }
        assert_eq!(cards.iter().filter(|c| is_joker(**c)).count(), 4);
        assert_eq!(name(12), "Ace of Hearts");
        assert_eq!(name(52 + 13 + 8), "10 of Spades");
    }
}
