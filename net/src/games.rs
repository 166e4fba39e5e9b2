//! Every game the network plays, made from the one list in [`hoard_rules::for_each_game`]:
//! the host's choice of game ([`GameSetup`]), a move in any game ([`AnyInput`]), what the
//! screen draws ([`AnyState`]), and the glue between a protocol core and those types
//! ([`TableGame`]). Nothing else in the network names a game.
//!
//! The enums' variants follow the list's order, and [`GameSetup`] and [`AnyInput`] go on
//! the wire and to disk: a game's place in the list is its tag there.

use crate::core::CoreConfig;
use crate::error::Result;
use crate::identity::{SeatSpec, Start};
use hoard_rules::{Game, Listed};
use serde::{Deserialize, Serialize};

/// How a game appears on the screens: the per-game glue between a core and the handle's
/// game-independent types. Every game in [`hoard_rules::for_each_game`] has it.
pub trait TableGame: Listed + Sized {
    fn any_state(public: &Self::Public, private: Option<&Self::Private>) -> AnyState;
    /// The table and the private side in `state`, if it is this game's.
    #[allow(clippy::type_complexity)]
    fn state_of(state: &AnyState) -> Option<(&Self::Public, Option<&Self::Private>)>;
    fn from_any(input: AnyInput) -> Option<Self::Input>;
    /// A move in this game, as any game's.
    fn into_any(input: Self::Input) -> AnyInput;
    /// The host's choice of this game with these options.
    fn into_setup(config: Self::Config) -> GameSetup;
    /// The options in `setup`, if it is this game's.
    fn config_of(setup: &GameSetup) -> Option<&Self::Config>;
    /// The protocol settings every device uses for this game: the rules say how a skipped
    /// seat sits out ([`Game::sit_out`]).
    fn core_config() -> CoreConfig<Self> {
        CoreConfig {
            sit_out: Some(<Self as Game>::sit_out),
            ..CoreConfig::default()
        }
    }
}

/// Work to do with one game, whichever it is: [`with_game`] calls `run` with the game
/// named.
pub trait ForGame {
    type Out;
    fn run<G: TableGame>(self) -> Self::Out;
}

/// Builds the per-game enums and their dispatch from the list of games.
macro_rules! games {
    ($($module:ident::$game:ident),* $(,)?) => {
        /// A game and its options, as the host chooses them in the lobby.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub enum GameSetup {
            $($game(<hoard_rules::$module::$game as Game>::Config),)*
        }

        /// A move in any game.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub enum AnyInput {
            $($game(<hoard_rules::$module::$game as Game>::Input),)*
        }

        /// What the screen draws: the replicated public state and, where this device has
        /// one, its own private side.
        #[derive(Clone, Debug, PartialEq)]
        pub enum AnyState {
            $($game {
                public: <hoard_rules::$module::$game as Game>::Public,
                private: Option<<hoard_rules::$module::$game as Game>::Private>,
            },)*
        }

        impl GameSetup {
            /// The game's [`Game::NAME`].
            pub fn game_name(&self) -> &'static str {
                match self {
                    $(GameSetup::$game(_) => <hoard_rules::$module::$game as Game>::NAME,)*
                }
            }

            /// The title players see.
            pub fn title(&self) -> &'static str {
                match self {
                    $(GameSetup::$game(_) => <hoard_rules::$module::$game as Listed>::TITLE,)*
                }
            }

            /// How many players the game can seat.
            pub fn seat_range(&self) -> std::ops::RangeInclusive<u8> {
                match self {
                    $(GameSetup::$game(_) => <hoard_rules::$module::$game as Game>::seat_range(),)*
                }
            }

            /// How many players these options seat.
            pub fn seats(&self) -> u8 {
                match self {
                    $(GameSetup::$game(c) => <hoard_rules::$module::$game as Listed>::seats(c),)*
                }
            }

            /// The same options for a table of `seats` players.
            pub fn with_seats(&self, seats: u8) -> GameSetup {
                match self {
                    $(GameSetup::$game(c) => GameSetup::$game(
                        <hoard_rules::$module::$game as Listed>::with_seats(c, seats),
                    ),)*
                }
            }

            /// The variants the command line names for this game.
            pub fn variants(&self) -> &'static [&'static str] {
                match self {
                    $(GameSetup::$game(_) => <hoard_rules::$module::$game as Listed>::VARIANTS,)*
                }
            }

            /// Turns on the variant named `variant`, or says the game has none so named.
            pub fn set_variant(&mut self, variant: &str) -> std::result::Result<(), String> {
                match self {
                    $(GameSetup::$game(c) => {
                        <hoard_rules::$module::$game as Listed>::set_variant(c, variant)
                    })*
                }
            }

            /// The options `start` was made with ([`Start::check`]): a game to play again.
            /// `None` for a game this version does not play, or a start it does not accept.
            pub fn of_start(start: &Start) -> Option<GameSetup> {
                $(if start.game == <hoard_rules::$module::$game as Game>::NAME {
                    return start
                        .check::<hoard_rules::$module::$game>()
                        .ok()
                        .map(GameSetup::$game);
                })*
                None
            }

            /// The session's start: these options, these seats, this nonce.
            pub fn start(&self, seats: Vec<SeatSpec>, nonce: [u8; 32]) -> Result<Start> {
                match self {
                    $(GameSetup::$game(c) => {
                        Start::new::<hoard_rules::$module::$game>(c, seats, nonce)
                    })*
                }
            }
        }

        /// Every game, in the lobby's order: each the basic game at its fewest seats.
        pub fn all() -> Vec<GameSetup> {
            vec![$(GameSetup::$game(<hoard_rules::$module::$game as Listed>::config(
                *<hoard_rules::$module::$game as Game>::seat_range().start(),
            )),)*]
        }

        /// Runs `work` with the game whose [`Game::NAME`] is `name`; `None` if Hoard does
        /// not play it.
        pub fn with_game<W: ForGame>(name: &str, work: W) -> Option<W::Out> {
            $(if name == <hoard_rules::$module::$game as Game>::NAME {
                return Some(work.run::<hoard_rules::$module::$game>());
            })*
            None
        }

        $(impl TableGame for hoard_rules::$module::$game {
            fn any_state(public: &Self::Public, private: Option<&Self::Private>) -> AnyState {
                AnyState::$game {
                    public: public.clone(),
                    private: private.cloned(),
                }
            }

            fn state_of(state: &AnyState) -> Option<(&Self::Public, Option<&Self::Private>)> {
                match state {
                    AnyState::$game { public, private } => Some((public, private.as_ref())),
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }

            fn from_any(input: AnyInput) -> Option<Self::Input> {
                match input {
                    AnyInput::$game(i) => Some(i),
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }

            fn into_any(input: Self::Input) -> AnyInput {
                AnyInput::$game(input)
            }

            fn into_setup(config: Self::Config) -> GameSetup {
                GameSetup::$game(config)
            }

            fn config_of(setup: &GameSetup) -> Option<&Self::Config> {
                match setup {
                    GameSetup::$game(config) => Some(config),
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
        })*
    };
}

hoard_rules::for_each_game!(games);

impl Default for GameSetup {
    /// The first game of the list, basic, at its fewest seats.
    fn default() -> Self {
        all()
            .into_iter()
            .next()
            .expect("Hoard plays at least one game")
    }
}

/// The basic game called `name` (its [`Game::NAME`], in any case) for `seats` players, if
/// Hoard plays it.
pub fn basic(name: &str, seats: u8) -> Option<GameSetup> {
    let name = name.to_lowercase();
    all()
        .into_iter()
        .find(|s| s.game_name() == name)
        .map(|s| s.with_seats(seats))
}

/// Every game's [`Game::NAME`], in the lobby's order.
pub fn names() -> Vec<&'static str> {
    all().iter().map(GameSetup::game_name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setups_tag_on_disk_is_its_place_in_the_list() {
        for (tag, setup) in all().into_iter().enumerate() {
            let bytes = postcard::to_stdvec(&setup).expect("encode");
            assert_eq!(bytes[0] as usize, tag, "{}", setup.game_name());
            let back: GameSetup = postcard::from_bytes(&bytes).expect("decode");
            assert_eq!(back, setup);
        }
        assert_eq!(names()[..2], ["greedquest", "sprawl"]);
    }
}
