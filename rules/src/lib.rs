//! Hoard's game engines: every game's rules as a pure, deterministic state machine.
//!
//! Nothing here knows there is a network, a disk or a clock. A game is a [`Game`]: it
//! says what it waits for ([`Game::pending`]), lists what a seat may do
//! ([`Game::legal_inputs`]) and applies a completed [`Step`] ([`Game::apply`]). What
//! every device sees is the game's `Public` state, identical byte for byte on every
//! device; what only one seat knows (a hand, a deck order) is that seat's `Private`
//! state, held by its owner and rebuilt by everyone at the audit.

//!
//! Every game Hoard plays is named once, in [`for_each_game`]; the network and the app
//! build their per-game enums and dispatch from that list.

pub mod deck;
mod game;
pub mod play;
pub mod rng;

pub use deck::{CardId, CardMove, Handle};
pub use game::{
    Absence, AbsenceRecord, DeckId, Game, Listed, Outcome, Pending, Play, ReactionWindow,
    RuleError, Seal, Seat, Step, all_or_nothing, each_once, faces_known, one_open_input,
    public_hash,
};

/// Every game Hoard plays, as `module::Engine`: the rules are in `rules/src/<module>/`
/// (whose `Engine` implements [`Game`] and [`Listed`]) and the screen in
/// `app/src/games/<module>`. Adding a game is one line here.
///
/// `for_each_game!(callback)` expands to `callback! { greedquest::GreedQuest, ... }`, so
/// each crate writes one macro that makes its enums and their `match` arms from the list.
/// The order is the lobby's, and part of the wire and disk formats (a game's place is its
/// tag in a saved setup): a new game goes at the end.
#[macro_export]
macro_rules! for_each_game {
    ($callback:ident) => {
        $callback! {
            greedquest::GreedQuest,
            sprawl::Sprawl,
            counter::Counter,
            spree::Spree,
            freeloader::Freeloader,
            spammers::Spammers,
        }
    };
}

/// Declares every game's module.
macro_rules! game_modules {
    ($($module:ident::$game:ident),* $(,)?) => {
        $(pub mod $module;)*
    };
}

for_each_game!(game_modules);

// A property of the sources, read from disk where they are: checked on the build machine,
// not in the test binaries run elsewhere (under Wine the source folder is not at hand).
#[cfg(all(test, not(windows)))]
mod shape;
