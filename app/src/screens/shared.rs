//! The shared screen: a laptop or a TV at the table that joined as a screen, not a seat. It
//! shows the public table large (the game's own board, every seat, whose turn it is, the
//! last plays) and never a hand; the phones hold the hands.

use crate::games::{GameUi, TableFrame};
use crate::net::{AuditVerdict, GameView, ScreenView, SeatView, unchecked_words};
use crate::theme::Palette;
use crate::widgets;
use egui::RichText;
use hoard_rules::{Pending, Seat};

/// How many of the last plays the side column shows.
const LAST_PLAYS: usize = 8;

pub enum SharedIntent {
    /// Stop being the table's screen.
    Leave,
}

pub fn show(
    ui: &mut egui::Ui,
    view: Option<&ScreenView>,
    games: &mut [Box<dyn GameUi>],
    frame: TableFrame,
) -> Option<SharedIntent> {
    let mut intent = None;
    let title = match view {
        Some(ScreenView::Lobby { table, .. }) => table.clone(),
        Some(ScreenView::Game(game)) => games
            .iter()
            .find(|g| g.shows(game))
            .map(|g| format!("{}: the table", g.title()))
            .unwrap_or_else(|| "The table".into()),
        None => "Joining as the table's screen...".into(),
    };
    if widgets::top_bar(ui, &title, Some("Leave")) {
        intent = Some(SharedIntent::Leave);
    }
    match view {
        None => {
            ui.label("Connecting. The table appears here as soon as the host's device answers.");
        }
        Some(ScreenView::Lobby { game, seats, .. }) => lobby(ui, game, seats),
        Some(ScreenView::Game(view)) => {
            let game = games.iter_mut().find(|g| g.shows(view));
            table(ui, view, game, frame);
        }
    }
    intent
}

fn lobby(ui: &mut egui::Ui, game: &str, seats: &[SeatView]) {
    let palette = Palette::of(ui);
    ui.add_space(12.0);
    ui.vertical_centered(|ui| {
        ui.label(
            RichText::new(game)
                .size(44.0)
                .strong()
                .color(palette.accent),
        );
        ui.label(
            RichText::new("Waiting for the host to start the game")
                .size(24.0)
                .color(palette.muted),
        );
    });
    ui.add_space(16.0);
    for seat in seats {
        ui.horizontal(|ui| {
            widgets::seat_chip(ui, &seat.name, seat.colour, true);
            // In the lobby a seat that is in is one that said it is ready.
            if seat.committed {
                ui.label(RichText::new("ready").color(palette.good).size(20.0));
            }
        });
    }
}

/// The board where the room is, and beside it (below on a tall screen) the seats, whose turn
/// it is and the last plays.
fn table(
    ui: &mut egui::Ui,
    view: &GameView,
    game: Option<&mut Box<dyn GameUi>>,
    frame: TableFrame,
) {
    let side = |ui: &mut egui::Ui| side_column(ui, view);
    let board = |ui: &mut egui::Ui, frame: TableFrame| match game {
        // A screen plays nothing: what a tap on the board would ask for is dropped.
        Some(game) => {
            let _ = game.table_ui(ui, view, frame);
        }
        None => {
            ui.label("This version of Hoard cannot show this game.");
        }
    };
    let size = ui.available_size();
    if size.x > size.y && size.x >= 900.0 {
        let side_width = (size.x * 0.22).clamp(280.0, 440.0);
        ui.horizontal_top(|ui| {
            let (region, _) = ui.allocate_exact_size(
                egui::vec2(size.x - side_width - 16.0, size.y),
                egui::Sense::hover(),
            );
            // The game drawn for a screen across the room: compact, and magnified to fit.
            let frame = TableFrame {
                screen: true,
                ..frame
            };
            let shown = fitted(ui, region, |ui| board(ui, frame));
            // What the room sees of the game, for a screen reader and for the tests.
            ui.interact(
                shown,
                egui::Id::unique("hoard-screen-game"),
                egui::Sense::hover(),
            )
            .widget_info(|| {
                egui::WidgetInfo::labeled(egui::Role::Image, true, "The game, filling the screen")
            });
            ui.separator();
            // The column scrolls: a long verdict at the end never runs off the screen.
            ui.allocate_ui_with_layout(
                egui::vec2(side_width, size.y),
                egui::Layout::top_down(egui::Align::Min),
                |ui| {
                    egui::ScrollArea::vertical()
                        .id_salt("screen-side")
                        .auto_shrink([false, false])
                        .show(ui, side);
                },
            );
        });
    } else {
        egui::ScrollArea::vertical()
            .id_salt("screen-all")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                side(ui);
                ui.separator();
                board(ui, frame);
            });
    }
}

/// A screen this tall (in points) or shorter shows the game as a laptop would; a taller one
/// lays the game out as on one this tall and magnifies it: seen from across a room, a TV's
/// pixels are better spent on size than on room for more.
const LAYOUT_HEIGHT: f32 = 700.0;

/// Draws `add` laid out in `region` (shrunk to [`LAYOUT_HEIGHT`] on a tall screen) and
/// magnified so that what it painted fills `region`, centred; returns the rect that it
/// fills. What the game painted is measured each frame and used in the next, so the fit
/// follows the game as it grows or shrinks (one extra frame when it does).
fn fitted(ui: &mut egui::Ui, region: egui::Rect, add: impl FnOnce(&mut egui::Ui)) -> egui::Rect {
    use egui::emath::TSTransform;
    let layout = egui::Rect::from_min_size(
        egui::Pos2::ZERO,
        region.size() / (region.height() / LAYOUT_HEIGHT).max(1.0),
    );
    let id = egui::Id::unique("hoard-screen-fit");
    let drawn: egui::Rect = ui.data(|d| d.get_temp(id)).unwrap_or(layout);
    // Never so large that a corner leaves the screen, nor smaller than half size.
    let scale = (region.size() / drawn.size().max(egui::Vec2::splat(1.0)))
        .min_elem()
        .clamp(0.5, 3.0);
    let to_screen =
        TSTransform::from_translation(region.center().to_vec2() - scale * drawn.center().to_vec2())
            * TSTransform::from_scaling(scale);
    let layer = egui::LayerId::new(ui.layer_id().order, id.with("layer"));
    ui.ctx().set_sublayer(ui.layer_id(), layer);
    ui.ctx().set_transform_layer(layer, to_screen);
    let mut inner = ui.new_child(
        egui::UiBuilder::new()
            .layer_id(layer)
            .max_rect(layout)
            .layout(egui::Layout::top_down(egui::Align::Min)),
    );
    inner.set_clip_rect(to_screen.inverse() * region.intersect(ui.clip_rect()));
    add(&mut inner);
    let background = ui.visuals().panel_fill;
    let now = painted(ui.ctx(), layer, background).unwrap_or(layout);
    if (now.min - drawn.min).length() > 0.5 || (now.max - drawn.max).length() > 0.5 {
        ui.data_mut(|d| d.insert_temp(id, now));
        ui.ctx().request_repaint();
    }
    to_screen * drawn
}

/// Where anything shows on `layer` this frame: every shape painted on it, within its clip,
/// but those that show nothing (a container's background the colour of the screen's).
fn painted(
    ctx: &egui::Context,
    layer: egui::LayerId,
    background: egui::Color32,
) -> Option<egui::Rect> {
    ctx.graphics(|g| {
        g.get(layer)?
            .all_entries()
            .filter(|c| shows(&c.shape, background))
            .map(|c| c.shape.visual_bounding_rect().intersect(c.clip_rect))
            .filter(|r| r.is_positive())
            .reduce(|a, b| a.union(b))
    })
}

fn shows(shape: &egui::Shape, background: egui::Color32) -> bool {
    match shape {
        egui::Shape::Noop => false,
        egui::Shape::Rect(r) => !(r.stroke.is_empty() && (r.fill == background || r.fill.a() == 0)),
        egui::Shape::Vec(shapes) => shapes.iter().any(|s| shows(s, background)),
        _ => true,
    }
}

fn side_column(ui: &mut egui::Ui, view: &GameView) {
    let palette = Palette::of(ui);
    let name = |seat: Seat| {
        view.seats
            .get(usize::from(seat))
            .map(|s| s.name.clone())
            .unwrap_or_else(|| format!("Seat {seat}"))
    };
    let now = match &view.pending {
        // Over before it was played out: nobody's turn any more.
        _ if view.ended_by_agreement => "The game ended by agreement".into(),
        Pending::Turn { .. } | Pending::Together { .. } if view.audit.is_some() => {
            "The game stopped".into()
        }
        Pending::Turn { seat } => format!("{}'s turn", name(*seat)),
        Pending::Together { seats, .. } => {
            let waiting: Vec<String> = seats
                .iter()
                .filter(|s| {
                    !view
                        .seats
                        .get(usize::from(**s))
                        .is_some_and(|v| v.committed)
                })
                .map(|s| name(*s))
                .collect();
            if waiting.is_empty() {
                "Everyone has played".into()
            } else {
                format!("Waiting for {}", waiting.join(", "))
            }
        }
        Pending::Chance => "The dice are rolling".into(),
        Pending::Shuffle { .. } => "Shuffling".into(),
        Pending::Deal { to, .. } => format!("Dealing to {}", name(*to)),
        Pending::Reveal { .. } => "Turning cards up".into(),
        Pending::Over(outcome) => {
            let winners: Vec<String> = outcome.winners.iter().map(|s| name(*s)).collect();
            match winners.len() {
                0 => "Game over".into(),
                _ => format!("{} won!", winners.join(" and ")),
            }
        }
    };
    ui.label(RichText::new(now).size(30.0).strong().color(palette.accent));
    ui.label(RichText::new(format!("Move {}", view.step)).color(palette.muted));
    ui.add_space(8.0);
    for seat in &view.seats {
        ui.horizontal(|ui| {
            widgets::seat_chip(ui, &seat.name, seat.colour, true);
            let (word, colour) = if seat.away_for_secs.is_some() {
                ("away", palette.warn)
            } else if !seat.connected {
                ("offline", palette.muted)
            } else if seat.committed {
                ("played", palette.good)
            } else {
                ("", palette.muted)
            };
            if !word.is_empty() {
                ui.label(RichText::new(word).color(colour).size(18.0));
            }
        });
    }
    ui.add_space(8.0);
    ui.label(RichText::new("Last plays").strong().size(22.0));
    let first = view.log.len().saturating_sub(LAST_PLAYS);
    for line in &view.log[first..] {
        ui.label(RichText::new(line).size(19.0));
    }
    if let Some(audit) = &view.audit {
        ui.add_space(8.0);
        match audit {
            AuditVerdict::Verified => widgets::banner(
                ui,
                "Verified: every hidden card and choice was legal.",
                palette.good,
            ),
            AuditVerdict::VerifiedExcept { unchecked } => {
                let name = |s: Seat| {
                    view.seats
                        .get(usize::from(s))
                        .map_or_else(|| format!("Seat {s}"), |seat| seat.name.clone())
                };
                widgets::banner(
                    ui,
                    &format!(
                        "Verified, except {}. Every other hidden card and choice was legal.",
                        unchecked_words(unchecked, &name)
                    ),
                    palette.accent,
                )
            }
            AuditVerdict::Fault { what, .. } => {
                widgets::banner(ui, &format!("Not verified: {what}"), palette.warn)
            }
        }
    }
}
