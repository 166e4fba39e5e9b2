//! SPAMMERS: build internet "businesses", mail the net's gullible masses, and race to Scams
//! rated 20 in all (or one of 12), for 2 to 6 players, on two shared hidden decks: the List
//! deck and the Action deck.
//!
//! The rulebook is `shared/rulebooks/spammers.txt`; the cards ([`cards`]) are published
//! nowhere and reconstructed (the README lists them). Every rule plays; where the rulebook
//! leaves a case open, this is what the game does:
//!
//! - **Set-up.** Each player is dealt three Lists and six Actions in secret, then everyone
//!   chooses at once, sealed until all have chosen, the List they give to the Unwashed Masses;
//!   the other two go face up to their Proprietary Lists. Then as many Lists as players are
//!   turned up into the Masses, and the first player is drawn from the beacon.
//! - **Playing "at any time".** A card whose Special Effect may be played at any time
//!   (Marketing Wizard's kind) is answered in the moment right after each Mailing roll: every
//!   player holding a card gets a reaction window, sealed until all have answered, the
//!   Mailing's player last, the first in turn order after the roller taken. An answer opens a
//!   new window, so answers can follow answers; the roll's result is applied when a window
//!   closes with no answer. Such a card may also be played on its player's own turn, as an
//!   action, for an effect that needs no roll. Effects that draw cards or allow more Mailings
//!   belong to a player's own turn and are never answers.
//! - **Insider Trading's kind** (a Rating change) goes up or down as its player says, on any
//!   Scam; no Rating falls below its Initial Rating, and a List is kept from a draw only by
//!   a Scam above its Initial Rating ("reduce the Rating ... by one").
//! - **Merging** is two Proprietary Lists of the player's own or two Masses Lists; the merged
//!   List keeps each Specialty once and every Gruntle.
//! - **Discarding a Scam to draw.** With five Scams in play, one of them may go for a List, or
//!   for an Action card if the hand has room (a full hand may not draw). The rulebook's
//!   "extremely rare" exception, a hand of nine none of which is playable, is a full hand (nine,
//!   or more with a Bigger Hard Drive) in which no card has a play this turn: then a Scam from
//!   the hand is discarded, face up, and an Action card drawn, as one action. The other seats
//!   see that Scam; that nothing else in the hand was playable is checked by its holder's device
//!   and at the audit, where every hand is shown.
//! - **The Gruntle limits** ("If a Proprietary List ever has ...") are checked after every
//!   change, for every List, however it came over its limit: Gruntles added, a List harvested
//!   from the Masses with Gruntles on it (it goes straight back, clean), a Firewall leaving
//!   play, a merge. Lists over their limit move seat by seat, each seat's in order, then the
//!   Masses in order.
//! - **A List that leaves** while a Mailing to it is being answered (harvested, or
//!   discarded) still gets its Gruntle where it went, or none if it went to the discards.
//! - **Away seats** pass in every window, send a List they drew to the Masses and end their
//!   turn; a seat away at the set-up choice is waited for.

mod bot;
pub mod cards;
pub mod data;
mod game;
mod narrate;

pub use game::*;
