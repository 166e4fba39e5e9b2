//! One game's table drawn alone from a [`GameView`], as the table screen draws it, with the
//! intents it sends kept for the test to read: the harness of the screen tests.

use egui_kittest::Harness;
use hoard_app::games::{GameUi, TableFrame, TableIntent};
use hoard_app::net::{AnyInput, GameView};
use hoard_app::screens::table::{self, GameIntent};

pub struct Screen {
    pub view: GameView,
    pub game: Box<dyn GameUi>,
    pub said: Vec<GameIntent>,
    /// The game log is open over the table (the bar's "Log" opens and closes it).
    pub log_open: bool,
    /// The code a shared screen joins by, beside the log.
    pub code: table::TableCode,
}

/// `game`'s table showing `view` in a window of `size`, in the dark theme.
pub fn table_screen(
    view: GameView,
    game: Box<dyn GameUi>,
    size: [f32; 2],
) -> Harness<'static, Screen> {
    build(view, game, Harness::builder().with_size(size))
}

/// The same, drawn at `zoom` pixels a point into `textures` for a screenshot
/// ([`super::shot::paint`]).
pub fn table_screen_painted(
    view: GameView,
    game: Box<dyn GameUi>,
    size: [f32; 2],
    zoom: f32,
    textures: super::shot::Textures,
) -> Harness<'static, Screen> {
    let mut builder = Harness::builder()
        .with_size(size)
        .with_pixels_per_point(zoom);
    builder = builder.renderer(textures);
    build(view, game, builder)
}

fn build(
    view: GameView,
    game: Box<dyn GameUi>,
    builder: egui_kittest::HarnessBuilder<Screen>,
) -> Harness<'static, Screen> {
    let state = Screen {
        view,
        game,
        said: Vec::new(),
        log_open: false,
        code: table::TableCode::default(),
    };
    builder
        .with_max_steps(50)
        .with_context_setup(|ctx| hoard_app::theme::apply(ctx, hoard_app::theme::ThemeChoice::Dark))
        .build_ui_state(
            |ui, s: &mut Screen| {
                let frame = TableFrame {
                    now: ui.input(|i| i.time),
                    portrait: ui.available_height() > ui.available_width(),
                    still: false,
                    screen: false,
                };
                let (open, code) = (s.log_open, &mut s.code);
                let said = table::show(ui, &s.view, Some(&mut s.game), frame, open, code);
                if said.iter().any(|i| matches!(i, GameIntent::Log)) {
                    s.log_open = !s.log_open;
                }
                s.said.extend(said);
            },
            state,
        )
}

/// The moves the table sent, as `pick` reads them out of the game's inputs.
pub fn played<I>(h: &Harness<'_, Screen>, pick: impl Fn(&AnyInput) -> Option<I>) -> Vec<I> {
    h.state()
        .said
        .iter()
        .filter_map(|i| match i {
            GameIntent::Table(TableIntent::Play(input)) => pick(input),
            _ => None,
        })
        .collect()
}
