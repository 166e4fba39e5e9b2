//! What is in play, as plain boxes that wrap to the width: the Unwashed Masses' Lists, and
//! each player's progress, Hardware, Scams and Proprietary Lists.

use super::{
    Frame, action_name, printed, scam_facts, seat_colour, seat_name, specialty_chip, turn_of,
};
use crate::theme::Palette;
use egui::{Color32, RichText, Stroke};
use hoard_rules::Seat;
use hoard_rules::spammers::{Area, Stack, WIN_SINGLE, WIN_TOTAL};

/// A List box's width, and the narrowest it gets to fit two across a phone.
const LIST_WIDTH: f32 = 168.0;
const LIST_MIN: f32 = 150.0;
const GAP: f32 = 6.0;

/// Each Specialty of a List as a small coloured chip.
pub(super) fn chips(ui: &mut egui::Ui, stack: &Stack) {
    for sp in &stack.specialties {
        let (name, colour) = specialty_chip(*sp);
        ui.label(
            RichText::new(name)
                .small()
                .color(Color32::WHITE)
                .background_color(colour),
        );
    }
}

/// The width of a List box for `avail`: as many across as fit, sharing the row.
fn list_width(avail: f32) -> f32 {
    let across = ((avail + GAP) / (LIST_MIN + GAP)).floor().max(1.0);
    ((avail - GAP * (across - 1.0)) / across)
        .min(LIST_WIDTH.max(LIST_MIN))
        .floor()
        .max(60.0)
}

/// One List: its cards' names, printed and effective Size, Specialties and Gruntles.
fn list_box(ui: &mut egui::Ui, stack: &Stack, width: f32) {
    let palette = Palette::of(ui);
    let size = printed(stack) - i32::from(stack.gruntles);
    egui::Frame::new()
        .fill(ui.visuals().extreme_bg_color)
        .stroke(Stroke::new(1.0, palette.muted.gamma_multiply(0.5)))
        .corner_radius(6)
        .inner_margin(egui::Margin::same(5))
        .show(ui, |ui| {
            ui.set_width(width - 12.0);
            ui.vertical(|ui| list_lines(ui, stack, size));
        });
}

fn list_lines(ui: &mut egui::Ui, stack: &Stack, size: i32) {
    ui.spacing_mut().item_spacing = egui::vec2(4.0, 2.0);
    let names: Vec<&str> = stack
        .cards
        .iter()
        .filter_map(|c| super::list_card(*c).map(|l| l.name))
        .collect();
    ui.label(
        RichText::new(names.join(" + "))
            .size(13.5)
            .strong()
            .color(ui.visuals().strong_text_color()),
    );
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        let words = if stack.gruntles > 0 {
            format!(
                "Size {size} (printed {}), {} gruntled",
                printed(stack),
                stack.gruntles
            )
        } else {
            format!("Size {size}")
        };
        ui.label(RichText::new(words).size(12.5));
        chips(ui, stack);
    });
}

fn lists_grid(ui: &mut egui::Ui, stacks: &[Stack]) {
    let avail = ui.available_width();
    let w = list_width(avail);
    let across = (((avail + GAP) / (w + GAP)).floor() as usize).max(1);
    for row in stacks.chunks(across) {
        ui.horizontal_top(|ui| {
            ui.spacing_mut().item_spacing = egui::vec2(GAP, GAP);
            for stack in row {
                list_box(ui, stack, w);
            }
        });
    }
}

/// The Unwashed Masses: every List anyone may mail.
pub(super) fn masses(ui: &mut egui::Ui, f: &Frame) {
    let palette = Palette::of(ui);
    ui.label(
        RichText::new(format!(
            "Unwashed Masses ({} Lists; {} Lists and {} Actions left to draw)",
            f.public.masses.len(),
            f.public.lists.left(),
            f.public.actions.left()
        ))
        .size(14.0)
        .strong(),
    );
    if f.public.masses.is_empty() {
        ui.label(RichText::new("No Lists yet.").color(palette.muted));
    } else {
        lists_grid(ui, &f.public.masses);
    }
}

/// Every player's area, mine first.
pub(super) fn players(ui: &mut egui::Ui, f: &Frame) {
    let n = f.public.areas.len() as Seat;
    let first = f.me().unwrap_or(0);
    for k in 0..n {
        let seat = (first + k) % n.max(1);
        if let Some(area) = f.public.areas.get(usize::from(seat)) {
            player(ui, f, seat, area);
        }
    }
}

fn player(ui: &mut egui::Ui, f: &Frame, seat: Seat, area: &Area) {
    let palette = Palette::of(ui);
    let to_play = turn_of(&f.public.phase).is_some_and(|t| t.seat == seat);
    let edge = if to_play {
        Stroke::new(2.0, palette.accent)
    } else {
        Stroke::new(1.0, palette.muted.gamma_multiply(0.5))
    };
    let (total, best) = area.ratings();
    egui::Frame::new()
        .stroke(edge)
        .corner_radius(8)
        .inner_margin(egui::Margin::same(6))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.spacing_mut().item_spacing.y = 3.0;
            ui.horizontal_wrapped(|ui| {
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                ui.painter()
                    .circle_filled(rect.center(), 6.0, seat_colour(f.view, seat));
                let mut name = seat_name(f.view, seat);
                if crate::games::is_you(f.view, seat) {
                    name.push_str(" (you)");
                }
                ui.label(
                    RichText::new(name)
                        .size(15.0)
                        .strong()
                        .color(ui.visuals().strong_text_color()),
                );
                ui.label(
                    RichText::new(format!(
                        "{total} of {WIN_TOTAL} in all, best {best} of {WIN_SINGLE}, {} in hand",
                        area.hand.len()
                    ))
                    .size(13.0),
                );
            });
            if !area.hardware.is_empty() {
                let names: Vec<&str> = area.hardware.iter().map(|c| action_name(*c)).collect();
                ui.label(RichText::new(format!("Hardware: {}", names.join(", "))).size(13.0));
            }
            if area.scams.is_empty() {
                ui.label(
                    RichText::new("No Scams yet")
                        .size(13.0)
                        .color(palette.muted),
                );
            }
            for scam in &area.scams {
                ui.horizontal_wrapped(|ui| {
                    ui.spacing_mut().item_spacing.x = 4.0;
                    ui.label(
                        RichText::new(format!("{} {}", scam.rating, action_name(scam.card)))
                            .size(13.5)
                            .color(ui.visuals().strong_text_color()),
                    );
                    let (category, initial) = scam_facts(scam.card);
                    let category = category.map_or("Misc", |c| specialty_chip(c).0);
                    ui.label(
                        RichText::new(format!("({category}, from {initial})"))
                            .size(12.0)
                            .color(palette.muted),
                    );
                });
            }
            if area.lists.is_empty() {
                ui.label(
                    RichText::new("No Proprietary Lists")
                        .size(13.0)
                        .color(palette.muted),
                );
            } else {
                lists_grid(ui, &area.lists);
            }
        });
}
