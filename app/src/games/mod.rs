//! One screen per game behind one small trait, after egui's demo windows and
//! boardgame.io's moves. Each game in [`hoard_rules::for_each_game`] has its screen here, in
//! `<module>/mod.rs` (its parts beside it), named `Screen`: a [`GameScreen`] with a `Default`,
//! which draws the game's table and says which move a tap means; the framework makes it a
//! [`GameUi`] (the title, the seats, the set-up, the game's state read out of a view, and the
//! sending of a move with its in-flight guard). Beside it, `RULES` is the game's page in "How
//! to play". Nothing else in the app names a game.

use crate::net::{AnyInput, GameSetup, GameView, TableGame};
use hoard_rules::{Game, Seat};
use std::ops::RangeInclusive;

/// The name of `seat`'s player ("Seat 3" where the view has none, counting from 1).
pub fn seat_name(view: &GameView, seat: Seat) -> String {
    view.seats
        .get(usize::from(seat))
        .map(|s| s.name.clone())
        .unwrap_or_else(|| format!("Seat {}", u32::from(seat) + 1))
}

/// "Your hand", or "Ann's hand" in a replay drawn with Ann's hand.
pub fn hand_title(view: &GameView) -> String {
    match view.me {
        Some(seat) if view.as_another_seat => format!("{} hand", whose(view, seat)),
        _ => "Your hand".into(),
    }
}

/// "your" for the reader's own seat (see [`is_you`]), "Ann's" for Ann's.
pub fn whose(view: &GameView, seat: Seat) -> String {
    if is_you(view, seat) {
        "your".into()
    } else {
        format!("{}'s", seat_name(view, seat))
    }
}

/// Whether `seat` is the reader's own, to be called "you": the view's `me`, unless a replay
/// draws the table with another seat's hand (then that seat goes by its name).
pub fn is_you(view: &GameView, seat: Seat) -> bool {
    view.me == Some(seat) && !view.as_another_seat
}

/// What the table screen asks the app to do.
#[derive(Clone, Debug, PartialEq)]
pub enum TableIntent {
    Play(AnyInput),
}

/// Things about the moment of drawing that every game's table may use.
#[derive(Clone, Copy, Debug)]
pub struct TableFrame {
    /// Seconds since the app started (egui's clock): animations are timed on it.
    pub now: f64,
    /// A narrow, tall screen: stack things vertically.
    pub portrait: bool,
    /// The player turned motion off (Settings): show every change at once, animate nothing.
    pub still: bool,
    /// Drawn for the table's shared screen on a wide screen (a TV or a laptop in the room),
    /// which shows the seats, whose turn it is and the last plays beside the game, and
    /// magnifies what the game draws to fill the rest: the game draws its board and the
    /// table's public parts compactly, with no hand, no moves and no story of its own.
    pub screen: bool,
}

/// The table as it stood when this device last sent a move of its player's. Until the table
/// moves on from it, that move is in flight and no other is offered: a second tap would be a
/// second move.
pub struct InFlight<P>(Option<P>);

impl<P> Default for InFlight<P> {
    fn default() -> Self {
        InFlight(None)
    }
}

impl<P: Clone + PartialEq> InFlight<P> {
    /// Notes a move sent at `public`.
    pub fn sent(&mut self, public: &P) {
        self.0 = Some(public.clone());
    }

    /// A move of mine is in flight.
    pub fn waiting(&self) -> bool {
        self.0.is_some()
    }

    /// Forgets the move once the table has moved on from where it was sent.
    fn settle(&mut self, public: &P) {
        if self.0.as_ref().is_some_and(|p| p != public) {
            self.0 = None;
        }
    }
}

/// My legal moves at `public`: none unless the view asks me to move and no move of mine is
/// still in flight (one is forgotten first if the table has moved on).
fn my_moves<G: hoard_rules::Game>(
    view: &GameView,
    public: &G::Public,
    private: Option<&G::Private>,
    sent: &mut InFlight<G::Public>,
) -> Vec<G::Input> {
    sent.settle(public);
    match view.me {
        Some(me) if view.my_turn && !sent.waiting() => G::legal_inputs(public, private, me),
        _ => Vec::new(),
    }
}

/// What a game's screen draws its table from: the game's state read out of the view, and
/// the player's moves.
pub struct Table<'a, G: Game> {
    pub view: &'a GameView,
    pub public: &'a G::Public,
    pub private: Option<&'a G::Private>,
    /// The player's legal moves now: none unless the table asks them for one and no move
    /// of theirs is still in flight.
    pub legal: Vec<G::Input>,
    /// A move of the player's is in flight: sent, and the table has not moved on from it.
    pub sent: bool,
}

/// A game's screen: it draws the game's table and says which move a tap means. Everything
/// else a [`GameUi`] does comes with it.
pub trait GameScreen: Default {
    type Game: TableGame;

    /// Where the screen keeps the table its player's last move was sent from (a field,
    /// `InFlight::default()` to begin with); the framework keeps it.
    fn in_flight(&mut self) -> &mut InFlight<<Self::Game as Game>::Public>;

    /// The game's choices in the lobby (read-only unless `host`); returns changed options.
    fn options(
        &mut self,
        ui: &mut egui::Ui,
        config: &<Self::Game as Game>::Config,
        host: bool,
    ) -> Option<<Self::Game as Game>::Config>;

    /// The game's part of the table: board, hand and prompts (the shared parts, the seats,
    /// away votes and the end screen, are drawn around it). Returns the move a tap chose.
    fn table(
        &mut self,
        ui: &mut egui::Ui,
        table: &Table<'_, Self::Game>,
        frame: TableFrame,
    ) -> Option<<Self::Game as Game>::Input>;

    /// Lines for the end screen beyond winners and scores (e.g. final rooms).
    fn summary(&self, _table: &Table<'_, Self::Game>) -> Vec<String> {
        Vec::new()
    }
}

impl<S: GameScreen> GameUi for S {
    fn title(&self) -> &'static str {
        <S::Game as hoard_rules::Listed>::TITLE
    }

    fn seats(&self) -> RangeInclusive<u8> {
        S::Game::seat_range()
    }

    fn default_setup(&self) -> GameSetup {
        let fewest = *S::Game::seat_range().start();
        S::Game::into_setup(<S::Game as hoard_rules::Listed>::config(fewest))
    }

    fn owns(&self, setup: &GameSetup) -> bool {
        S::Game::config_of(setup).is_some()
    }

    fn options_ui(
        &mut self,
        ui: &mut egui::Ui,
        setup: &GameSetup,
        host: bool,
    ) -> Option<GameSetup> {
        let config = S::Game::config_of(setup)?;
        self.options(ui, config, host)
            .filter(|next| next != config)
            .map(S::Game::into_setup)
    }

    fn table_ui(
        &mut self,
        ui: &mut egui::Ui,
        view: &GameView,
        frame: TableFrame,
    ) -> Vec<TableIntent> {
        let Some((public, private)) = S::Game::state_of(&view.state) else {
            return Vec::new();
        };
        let legal = my_moves::<S::Game>(view, public, private, self.in_flight());
        let table = Table {
            view,
            public,
            private,
            legal,
            sent: self.in_flight().waiting(),
        };
        let Some(input) = self.table(ui, &table, frame) else {
            return Vec::new();
        };
        self.in_flight().sent(public);
        vec![TableIntent::Play(S::Game::into_any(input))]
    }

    fn shows(&self, view: &GameView) -> bool {
        S::Game::state_of(&view.state).is_some()
    }

    fn summary(&self, view: &GameView) -> Vec<String> {
        let Some((public, private)) = S::Game::state_of(&view.state) else {
            return Vec::new();
        };
        GameScreen::summary(
            self,
            &Table {
                view,
                public,
                private,
                legal: Vec::new(),
                sent: false,
            },
        )
    }
}

/// A game as the app shows it.
pub trait GameUi {
    /// The title players see ("GreedQuest").
    fn title(&self) -> &'static str;

    /// How many seats the game takes.
    fn seats(&self) -> RangeInclusive<u8>;

    /// The setup chosen when the host picks this game.
    fn default_setup(&self) -> GameSetup;

    /// Whether `setup` is this game's.
    fn owns(&self, setup: &GameSetup) -> bool;

    /// The variant choices in the lobby (read-only unless `host`); returns a changed setup.
    fn options_ui(&mut self, ui: &mut egui::Ui, setup: &GameSetup, host: bool)
    -> Option<GameSetup>;

    /// The game's part of the table: board, hand and prompts. Returns what the player did.
    /// The shared parts (seats, away votes, the end screen) are drawn around it.
    fn table_ui(
        &mut self,
        ui: &mut egui::Ui,
        view: &GameView,
        frame: TableFrame,
    ) -> Vec<TableIntent>;

    /// Whether `view` is a game of this kind.
    fn shows(&self, view: &GameView) -> bool;

    /// Lines for the end screen beyond winners and scores (e.g. final rooms).
    fn summary(&self, _view: &GameView) -> Vec<String> {
        Vec::new()
    }
}

/// Declares every game's screen module and lists the screens.
macro_rules! screens {
    ($($module:ident::$game:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Every game the app can show, in the order the lobby lists them.
        pub fn all() -> Vec<Box<dyn GameUi>> {
            vec![$(Box::new(<$module::Screen as Default>::default()),)*]
        }

        /// The rules reference of every game the app can show, in the same order.
        pub fn rules_pages() -> Vec<&'static crate::rules_ref::RulesPage> {
            vec![$(&$module::RULES,)*]
        }
    };
}

hoard_rules::for_each_game!(screens);
