//! The twelve rooms of the GreedQuest board as one data table.
//!
//! The rulebook prints notes on some rooms but not the rooms' own text; GAME-DATA.md adds a
//! player's paraphrase of Rooms 8 and 11 and the fact that every room but one has a special
//! effect. Everything else here is reconstructed, and each row says where it comes from.
//! Someone holding the printed board corrects a room by editing its row.
//!
//! Reconstructed (not printed in the rulebook):
//! - Room 4's name and effect: "The Long Dull Corridor", no effect — it is the one room
//!   without a special effect (GAME-DATA.md), the only room the rulebook says nothing about
//!   apart from Room 7.
//! - Room 7's name and effect: "The Hall of Echoes", a Go! played here counts 1 more — the
//!   mirror of Room 5's pit, so that the board has one room that helps a Go! and one that
//!   hurts it.
//! - Every room's printed text is in our own words, built from the rulebook's notes.
//! - Room 3: "alone" is judged when Tracking resolves (after every other card has moved
//!   people); the overshoot is "move two rooms toward the tracked player", which gives the
//!   rulebook's Room 2 → Room 1 and Room 4 → Room 5 cases.
//! - Room 5 and 7 modify the value of a Go! (Go WILD! included, after it is valued) for
//!   winning the turn and for Even Chance / Odd Reversal; duels compare printed values.
//! - Room 6: a card matches another of the same kind; numbered Go! cards match only the same
//!   number, and Go WILD! matches only another Go WILD!.
//! - Room 8: the hand is checked at the end of the turn, before refills; the move out is
//!   "forward" for the seat's facing, and the lost turn is the next one.
//! - Room 9: "draw to refill when you first move in" is the ordinary end-of-turn refill (a
//!   seat in Room 9 at the end of a turn refills like everyone else); what the room changes
//!   is that a seat here plays, and duels with, the top card of its draw pile.
//! - Room 11: the choice is made on the first card of the end-of-turn refill only. A
//!   discarded card goes face down under the draw pile rather than onto the face-up
//!   discards: that keeps the keep-or-discard choice secret (a face-up discard would show
//!   it, and the reshuffle it would cause would show it too) while every count stays public.
//!   The card comes back when the deck runs out, just before the discards are reshuffled.
//! - Room 12: reversing is a rule of the game, not of the room, so it still happens in the
//!   Short Game.

use super::cards::Card;
use super::state::{Config, Length};

/// What a room does beyond the simple columns of [`Room`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// Nothing more.
    None,
    /// Room 3: a player alone here who plays Tracking moves two rooms toward the tracked
    /// player instead of one.
    HiddenEntrance,
    /// Room 6: a card played here is taken out of the turn before the card sequence; if no
    /// other card played this turn is the same, its player moves forward one room.
    PuzzleRoom,
    /// Room 8: no refills; an empty hand at the end of a turn here moves the player forward
    /// one room and costs him his next turn.
    Trap,
    /// Room 9: a player here plays (and duels with) the top card of his draw pile.
    Encounter,
    /// Room 11: the first card of the refill may be kept or discarded, secretly.
    LastParty,
    /// Room 12: the Hoard; reverse at the end of the turn you first reach it.
    Hoard,
}

/// One room of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Room {
    pub number: u8,
    pub name: &'static str,
    /// The room's effect as players read it on the board (our words; see the module notes).
    pub text: &'static str,
    /// Players here are immune to Curse!.
    pub curse_immune: bool,
    /// Cards played here that are discarded without effect.
    pub voids: &'static [Card],
    /// Added to the value of a Go! played here.
    pub go_bonus: i8,
    pub special: Special,
    /// Where the row comes from: the rulebook, GAME-DATA.md, or reconstruction.
    pub source: &'static str,
}

const fn plain(number: u8, name: &'static str, text: &'static str, source: &'static str) -> Room {
    Room {
        number,
        name,
        text,
        curse_immune: false,
        voids: &[],
        go_bonus: 0,
        special: Special::None,
        source,
    }
}

/// The board, Room 1 first.
pub const ROOMS: [Room; 12] = [
    Room {
        curse_immune: true,
        ..plain(
            1,
            "Ye Same Olde Tavern",
            "Players in this room are immune to Curse!.",
            "rulebook, Room 1 note",
        )
    },
    Room {
        voids: &[Card::DragonSighting, Card::DragonAttack],
        ..plain(
            2,
            "The Uneventful Journey",
            "Dragon Sighting and Dragon ATTACK!! played here are discarded without effect.",
            "rulebook, Room 2 note",
        )
    },
    Room {
        special: Special::HiddenEntrance,
        ..plain(
            3,
            "The Hidden Entrance",
            "If you are alone here and play Tracking, move two rooms toward the player you track.",
            "rulebook, Room 3 note; the wording is reconstructed",
        )
    },
    plain(
        4,
        "The Long Dull Corridor",
        "Nothing happens here.",
        "reconstructed: GAME-DATA.md says every room but one has an effect",
    ),
    Room {
        go_bonus: -2,
        ..plain(
            5,
            "The 20' Deep Bottomless Pit",
            "Go! cards played here count 2 less (a Go! 1 counts -1).",
            "rulebook, Room 5 note",
        )
    },
    Room {
        special: Special::PuzzleRoom,
        ..plain(
            6,
            "The Pointless Puzzle Room",
            "A card played here has no effect. If no one else played the same card this turn, \
             move forward one room.",
            "rulebook, Room 6 note",
        )
    },
    Room {
        go_bonus: 1,
        ..plain(
            7,
            "The Hall of Echoes",
            "Go! cards played here count 1 more.",
            "reconstructed: the mirror of Room 5",
        )
    },
    Room {
        special: Special::Trap,
        ..plain(
            8,
            "The Unusually Frustrating Trap",
            "You can't draw to refill your hand. If your hand is empty at the end of a turn \
             and you are still here, move forward one room anyway and lose your next turn.",
            "rulebook, Room 8 note; GAME-DATA.md paraphrase",
        )
    },
    Room {
        special: Special::Encounter,
        ..plain(
            9,
            "The Preplanned Random Encounter",
            "When you move in, refill your hand; while here, play the top card of your draw \
             pile instead of a card from your hand.",
            "rulebook, Room 9 note",
        )
    },
    Room {
        voids: &[Card::SecretDoor, Card::SeeYa],
        ..plain(
            10,
            "The Room of Total Darkness",
            "Secret Door and See Ya! played here are discarded without effect.",
            "rulebook, Room 10 note",
        )
    },
    Room {
        special: Special::LastParty,
        ..plain(
            11,
            "The Remains of the Last Party",
            "When you refill your hand, you may discard the first card you draw and draw \
             another; you still refill to five.",
            "rulebook, Room 11 note; GAME-DATA.md paraphrase",
        )
    },
    Room {
        special: Special::Hoard,
        ..plain(
            12,
            "The Hoard",
            "At the end of the turn you first reach this room, turn around and head for the \
             Tavern.",
            "rulebook, rules of the game",
        )
    },
];

/// A room with no effect: what every room but Room 1 plays as in the Short Game.
const NO_EFFECT: Room = plain(0, "", "", "Short Game");

/// Room `number` as printed (numbers outside 1–12 are clamped: rooms are stored checked).
#[inline]
pub fn room(number: u8) -> &'static Room {
    &ROOMS[usize::from(number.clamp(1, 12)) - 1]
}

/// The effects that apply in room `number` under `config`: the Short and Shortest Games
/// "ignore all room special effects except the effect for Room 1".
#[inline]
pub fn effects(config: &Config, number: u8) -> &'static Room {
    if config.length != Length::Full && number != 1 {
        &NO_EFFECT
    } else {
        room(number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twelve_rooms_numbered_in_order_and_all_but_one_with_an_effect() {
        for (i, r) in ROOMS.iter().enumerate() {
            assert_eq!(usize::from(r.number), i + 1);
            assert!(!r.name.is_empty() && !r.text.is_empty() && !r.source.is_empty());
        }
        let plain_rooms: Vec<u8> = ROOMS
            .iter()
            .filter(|r| {
                !r.curse_immune
                    && r.voids.is_empty()
                    && r.go_bonus == 0
                    && r.special == Special::None
            })
            .map(|r| r.number)
            .collect();
        assert_eq!(
            plain_rooms,
            vec![4],
            "every room but one has a special effect"
        );
    }

    #[test]
    fn the_short_game_keeps_only_room_one() {
        let short = Config {
            length: Length::Short,
            ..Config::new(3)
        };
        assert!(effects(&short, 1).curse_immune);
        assert_eq!(effects(&short, 5).go_bonus, 0);
        assert_eq!(effects(&short, 6).special, Special::None);
        let full = Config::new(3);
        assert_eq!(effects(&full, 5).go_bonus, -2);
    }
}
