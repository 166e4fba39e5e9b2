//! Watching a game again: its own table at any step, as everyone saw it (no hand but what
//! was shown), forward and back one step, a jump to any step, and the story in words beside
//! the table (below it on a phone); a line of the story jumps to the step it tells. Once
//! the game is audited every secret is public, and "Show every hand" draws the table as
//! any seat held it, and tells what each sealed play was.

use crate::games::{GameUi, TableFrame};
use crate::net::Replay;
use crate::theme::{Palette, TOUCH};
use crate::widgets;
use egui::RichText;
use hoard_rules::Seat;

/// A replay being watched: the game read back and the step on screen.
pub struct ReplayState {
    pub replay: Replay,
    /// Steps shown as played: 0 is the table as set up, `replay.steps()` the end.
    pub at: usize,
    /// A fresh screen of the game, so the live table's own state is left alone.
    game: Option<Box<dyn GameUi>>,
    /// The step the story was last scrolled to.
    shown: Option<usize>,
    /// Whose hand the table is drawn with, once "Show every hand" is on; `None` shows
    /// only what everyone saw.
    pub whose: Option<Seat>,
}

pub enum ReplayIntent {
    Close,
}

impl ReplayState {
    /// Opens at the start of the game.
    pub fn new(replay: Replay) -> ReplayState {
        let game = replay.view(0).and_then(|view| {
            crate::games::all()
                .into_iter()
                .find(|game| game.shows(&view))
        });
        ReplayState {
            replay,
            at: 0,
            game,
            shown: None,
            whose: None,
        }
    }

    fn go(&mut self, to: usize) {
        self.at = to.min(self.replay.steps());
    }
}

pub fn show(ui: &mut egui::Ui, state: &mut ReplayState, frame: TableFrame) -> Option<ReplayIntent> {
    let palette = Palette::of(ui);
    let mut intent = None;
    let steps = state.replay.steps();
    let title = state
        .game
        .as_ref()
        .map(|g| format!("{}, again", g.title()))
        .unwrap_or_else(|| "A game, again".into());
    if widgets::top_bar(ui, &title, Some("Back")) {
        intent = Some(ReplayIntent::Close);
    }
    controls(ui, state, steps);
    every_hand(ui, state);
    let shown_view = match state.whose {
        Some(seat) => state.replay.view_as(state.at, seat),
        None => state.replay.view(state.at),
    };
    let Some(view) = shown_view else {
        ui.label("This game has no steps to show.");
        return intent;
    };
    let ReplayState {
        replay,
        at,
        game,
        shown,
        whose,
    } = state;
    let lines = replay.story(whose.is_some());
    let at = *at;
    // With every hand shown, each deck's order at this step too: what was to come next.
    let decks: Vec<String> = match (&replay.every_hand, whose) {
        (Some(every), Some(_)) => every.decks.get(at).cloned().unwrap_or_default(),
        _ => Vec::new(),
    };
    // The story follows the step shown when it changes, and is left alone otherwise.
    let moved = *shown != Some(at);
    *shown = Some(at);
    let mut jump = None;
    let wide = ui.available_width() > ui.available_height() && ui.available_width() >= 700.0;
    let story = |ui: &mut egui::Ui, jump: &mut Option<usize>| {
        ui.label(RichText::new("What happened").strong().size(18.0));
        egui::ScrollArea::vertical()
            .id_salt("replay-story")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                // Only what has happened by the step shown: a story that went on past it
                // would tell the game's future at its start.
                let told: Vec<&(u32, String)> = lines
                    .iter()
                    .filter(|(step, _)| (*step as usize) < at)
                    .collect();
                if told.is_empty() {
                    ui.label(RichText::new("The game is about to begin.").color(palette.muted));
                }
                for (step, line) in told {
                    let now = *step as usize + 1 == at;
                    let text = RichText::new(line);
                    let text = if now {
                        text.strong().color(palette.accent)
                    } else {
                        text
                    };
                    // A line tells step `step`: jump to just after it.
                    let line = ui.add(egui::Button::new(text).frame(false).wrap());
                    if line.clicked() {
                        *jump = Some(*step as usize + 1);
                    }
                    if now && moved {
                        line.scroll_to_me(Some(egui::Align::Center));
                    }
                }
                // After the story so far, under the line just told.
                if !decks.is_empty() {
                    ui.add_space(6.0);
                    ui.label(RichText::new("The decks now").strong());
                    for line in &decks {
                        ui.label(RichText::new(line).color(palette.muted));
                    }
                }
            });
    };
    if wide {
        ui.columns(2, |cols| {
            draw_table(&mut cols[0], game.as_mut(), &view, frame);
            story(&mut cols[1], &mut jump);
        });
    } else {
        let table_height = (ui.available_height() * 0.62).max(200.0);
        ui.allocate_ui(egui::vec2(ui.available_width(), table_height), |ui| {
            egui::ScrollArea::vertical()
                .id_salt("replay-table")
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    draw_table(ui, game.as_mut(), &view, frame);
                });
        });
        ui.separator();
        story(ui, &mut jump);
    }
    if let Some(to) = jump {
        state.go(to);
    }
    intent
}

/// Once the audit has made every secret public: "Show every hand", then whose hand the
/// table is drawn with, one seat at a time (a seat removed before it revealed has none to
/// show). Nothing of it before the audit.
fn every_hand(ui: &mut egui::Ui, state: &mut ReplayState) {
    let Some(every) = &state.replay.every_hand else {
        return;
    };
    let held = |seat: usize| {
        every
            .tables
            .first()
            .and_then(|row| row.get(seat))
            .is_some_and(Option::is_some)
    };
    let first = (0..state.replay.seats.len()).find(|s| held(*s));
    let key = |ui: &mut egui::Ui, selected: bool, text: String| {
        ui.add(
            egui::Button::selectable(selected, RichText::new(text).size(16.0))
                .frame_when_inactive(true)
                .min_size(egui::vec2(TOUCH, TOUCH)),
        )
        .clicked()
    };
    ui.horizontal_wrapped(|ui| {
        let on = state.whose.is_some();
        let words = if on {
            "Hide the hands"
        } else {
            "Show every hand"
        };
        if key(ui, on, words.to_string()) {
            state.whose = if on { None } else { first.map(|s| s as Seat) };
        }
        if on {
            for (i, seat) in state.replay.seats.iter().enumerate() {
                if held(i) && key(ui, state.whose == Some(i as Seat), seat.name.clone()) {
                    state.whose = Some(i as Seat);
                }
            }
        }
    });
}

/// First, back, a slider over every step, forward, last, and where we are.
fn controls(ui: &mut egui::Ui, state: &mut ReplayState, steps: usize) {
    let key = |ui: &mut egui::Ui, enabled: bool, text: &str| {
        ui.add_enabled(
            enabled,
            egui::Button::new(RichText::new(text).size(18.0)).min_size(egui::vec2(TOUCH, TOUCH)),
        )
        .clicked()
    };
    ui.horizontal_wrapped(|ui| {
        let at = state.at;
        if key(ui, at > 0, "First") {
            state.go(0);
        }
        if key(ui, at > 0, "Step back") {
            state.go(at.saturating_sub(1));
        }
        if key(ui, at < steps, "Step on") {
            state.go(at + 1);
        }
        if key(ui, at < steps, "Last") {
            state.go(steps);
        }
    });
    ui.horizontal(|ui| {
        let mut at = state.at;
        // A thumb-high track, which a tap anywhere along moves to; the words beside it,
        // not in a number box of their own that would take the taps.
        ui.spacing_mut().interact_size.y = TOUCH;
        ui.spacing_mut().slider_width = (ui.available_width() - 130.0).max(120.0);
        let track = ui.add(egui::Slider::new(&mut at, 0..=steps.max(1)).show_value(false));
        let shown = state.at as f64;
        track.widget_info(|| egui::WidgetInfo::slider(true, shown, "Step of the game"));
        ui.label(format!("step {} of {steps}", state.at));
        if at != state.at {
            state.go(at);
        }
    });
}

fn draw_table(
    ui: &mut egui::Ui,
    game: Option<&mut Box<dyn GameUi>>,
    view: &crate::net::GameView,
    frame: TableFrame,
) {
    match game {
        // What a tap on the table would do is not asked for: a replay plays nothing.
        Some(game) => {
            let _ = game.table_ui(ui, view, frame);
        }
        None => {
            ui.label("This version of Hoard cannot show this game.");
        }
    }
}
