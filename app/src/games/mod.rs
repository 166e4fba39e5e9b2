//! One screen per game behind one small trait, after egui's demo windows. Each game in
//! [`hoard_rules::for_each_game`] has its screen here, in `<module>.rs` (or
//! `<module>/mod.rs`), named `Screen`: a [`GameUi`] with a `Default`; beside it, `RULES` is
//! the game's page in "How to play". Nothing else in the app names a game.

use crate::net::{AnyInput, GameSetup, GameView};
use hoard_rules::Seat;
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
pub fn my_moves<G: hoard_rules::Game>(
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
