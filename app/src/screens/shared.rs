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
    let board = |ui: &mut egui::Ui| match game {
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
        let side_width = (size.x * 0.28).clamp(280.0, 520.0);
        ui.horizontal_top(|ui| {
            ui.allocate_ui_with_layout(
                egui::vec2(size.x - side_width - 16.0, size.y),
                egui::Layout::top_down(egui::Align::Min),
                |ui| {
                    egui::ScrollArea::vertical()
                        .id_salt("screen-board")
                        .auto_shrink([false, false])
                        .show(ui, board);
                },
            );
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
                board(ui);
            });
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
