//! The types SPAMMERS' reconstructed card tables are written in: List cards, and the three
//! kinds of Action card (Scams, Mailings, Hardware) with the effects the engine can play.
//! The tables themselves are in `cards.rs`, a card a line.

use serde::{Deserialize, Serialize};

/// What a List's members are known to be interested in, and a Scam's category beside
/// Miscellaneous.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Specialty {
    Adult,
    InternetServices,
    /// Get-Rich-Quick Schemes.
    Grq,
    FreeStuff,
}

impl Specialty {
    pub const ALL: [Specialty; 4] = [
        Specialty::Adult,
        Specialty::InternetServices,
        Specialty::Grq,
        Specialty::FreeStuff,
    ];
}

/// A printed List card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListCard {
    pub name: &'static str,
    /// Printed Size, in millions.
    pub size: u8,
    /// Specialties printed on the card (a counter is placed for each when it comes into play).
    pub specialties: &'static [Specialty],
}

/// When a Mailing's Special Effect may be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Timing {
    /// As an action on the player's own turn.
    Action,
    /// At any time: on anyone's turn, in the moment right after a Mailing roll, before the
    /// roll's result is applied.
    AfterRoll,
}

/// A Mailing's Special Effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// Change any one Scam's Rating by `n` (up or down as the player says, never below its
    /// Initial Rating): Insider Trading's ±2.
    Rating(u8),
    /// Change the Target Number of the Mailing just rolled by `n` (up or down as the player
    /// says): Marketing Wizard's −2.
    Target(u8),
    /// Put this Specialty on any List (never twice on one List).
    AddSpecialty(Specialty),
    /// Take any one Specialty counter off any List.
    RemoveSpecialty,
    /// Put `n` Gruntles on any List (with the usual consequences).
    Gruntle(u8),
    /// Take up to `n` Gruntles off any List.
    Ungruntle(u8),
    /// Draw `n` Action cards (within the hand limit).
    Draw(u8),
    /// Move one Unwashed Masses List into the player's Proprietary Lists.
    Harvest,
    /// Send any one Hardware card in play to the discards.
    Crash,
    /// One more Mailing Effect this turn.
    ExtraMailing,
}

/// A Hardware card's continuous effect, for its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Continuous {
    /// Mailings may also target other players' Proprietary Lists (Router Tap).
    TapOthersLists,
    /// `n` more to the Target Number of the owner's Mailings.
    Target(u8),
    /// One more Mailing Effect a turn.
    ExtraMailing,
    /// `n` more cards allowed in hand.
    HandLimit(u8),
    /// Gruntles on the owner's Proprietary Lists count half, rounded down, toward moving them
    /// to the Unwashed Masses.
    Firewall,
}

/// What an Action card is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    Scam {
        /// `None`: Miscellaneous.
        category: Option<Specialty>,
        initial: u8,
    },
    Mailing {
        modifier: i8,
        effect: Effect,
        timing: Timing,
    },
    Hardware(Continuous),
}

/// A printed Action card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionCard {
    pub name: &'static str,
    pub kind: ActionKind,
    /// How many copies are in the deck.
    pub copies: u8,
    /// The card's text, in the game's voice.
    pub text: &'static str,
}
