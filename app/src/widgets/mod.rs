//! Small building blocks shared by the screens: finger-sized buttons, the top bar with
//! its back button, a centred column, seat chips, and the keypad, entry and QR widgets.

pub mod entry;
pub mod keypad;
pub mod motion;
pub mod qr;
pub mod settle;

use crate::theme::{self, Palette, TOUCH};
use egui::{Button, Color32, RichText, Sense, Stroke, Vec2};
use hoard_rules::ReactionWindow;

/// A full-width button for the main action of a screen.
pub fn primary(ui: &mut egui::Ui, text: &str) -> egui::Response {
    primary_enabled(ui, true, text)
}

pub fn primary_enabled(ui: &mut egui::Ui, enabled: bool, text: &str) -> egui::Response {
    let palette = Palette::of(ui);
    let fill = if enabled {
        palette.accent
    } else {
        ui.visuals().widgets.inactive.weak_bg_fill
    };
    let ink = if enabled {
        Color32::from_rgb(30, 24, 10)
    } else {
        ui.visuals().weak_text_color()
    };
    ui.add_enabled(
        enabled,
        Button::new(RichText::new(text).size(21.0).strong().color(ink))
            .fill(fill)
            .min_size(Vec2::new(ui.available_width(), TOUCH + 8.0)),
    )
}

/// A full-width ordinary button.
pub fn wide(ui: &mut egui::Ui, text: &str) -> egui::Response {
    wide_enabled(ui, true, text)
}

pub fn wide_enabled(ui: &mut egui::Ui, enabled: bool, text: &str) -> egui::Response {
    ui.add_enabled(
        enabled,
        Button::new(RichText::new(text).size(19.0))
            .min_size(Vec2::new(ui.available_width(), TOUCH)),
    )
}

/// A finger-sized button that fits its text.
pub fn button(ui: &mut egui::Ui, text: &str) -> egui::Response {
    ui.add(Button::new(text).min_size(Vec2::splat(TOUCH)))
}

pub fn button_enabled(ui: &mut egui::Ui, enabled: bool, text: &str) -> egui::Response {
    ui.add_enabled(enabled, Button::new(text).min_size(Vec2::splat(TOUCH)))
}

/// Lays `add` out in a column no wider than `max` points, centred.
pub fn column<R>(ui: &mut egui::Ui, max: f32, add: impl FnOnce(&mut egui::Ui) -> R) -> R {
    let width = ui.available_width().min(max);
    let margin = ((ui.available_width() - width) / 2.0).max(0.0);
    ui.horizontal_top(|ui| {
        ui.add_space(margin);
        ui.vertical(|ui| {
            ui.set_width(width);
            add(ui)
        })
        .inner
    })
    .inner
}

/// The bar at the top of every screen: an optional Back button and the title. Returns
/// true when Back was pressed.
pub fn top_bar(ui: &mut egui::Ui, title: &str, back: Option<&str>) -> bool {
    let mut pressed = false;
    ui.horizontal(|ui| {
        ui.set_min_height(TOUCH);
        if let Some(back) = back {
            pressed = ui
                .add(
                    Button::new(RichText::new(format!("< {back}")).size(18.0))
                        .min_size(Vec2::splat(TOUCH)),
                )
                .clicked();
        }
        ui.heading(title);
    });
    pressed
}

/// A round colour dot with a name: how a player is shown everywhere.
pub fn seat_chip(ui: &mut egui::Ui, name: &str, colour: [u8; 3], strong: bool) -> egui::Response {
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(Vec2::splat(22.0), Sense::hover());
        ui.painter().circle(
            rect.center(),
            10.0,
            theme::colour(colour),
            Stroke::new(1.5, ui.visuals().strong_text_color()),
        );
        let text = RichText::new(name);
        ui.label(if strong { text.strong() } else { text });
    })
    .response
}

/// A line of plain-language status, e.g. a notice or an error, in a tinted box.
pub fn banner(ui: &mut egui::Ui, text: &str, tint: Color32) {
    egui::Frame::new()
        .fill(tint.gamma_multiply(0.18))
        .stroke(Stroke::new(1.0, tint))
        .corner_radius(8)
        .inner_margin(10)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(text).color(ui.visuals().strong_text_color()));
        });
}

/// The height of the strip a notice is shown in: two lines of its text.
pub const NOTICE_HEIGHT: f32 = 44.0;

/// A notice in its strip ([`NOTICE_HEIGHT`] tall): a tinted box of at most two lines, a
/// longer one cut short with "…" (a screen reader hears it whole); its response says whether
/// it was tapped (to put it away).
pub fn notice(ui: &mut egui::Ui, text: &str, tint: Color32) -> egui::Response {
    let size = egui::vec2(ui.available_width(), NOTICE_HEIGHT - 4.0);
    let (rect, tap) = ui.allocate_exact_size(size, Sense::click());
    let painter = ui.painter_at(rect);
    painter.rect(
        rect,
        8,
        tint.gamma_multiply(0.18),
        Stroke::new(1.0, tint),
        egui::StrokeKind::Inside,
    );
    let inner = rect.shrink2(egui::vec2(10.0, 4.0));
    let mut job = egui::text::LayoutJob::simple(
        text.to_string(),
        egui::FontId::proportional(13.0),
        ui.visuals().strong_text_color(),
        inner.width(),
    );
    job.wrap.max_rows = 2;
    job.halign = egui::Align::LEFT;
    let galley = painter.layout_job(job);
    let at = egui::pos2(inner.left(), inner.center().y - galley.size().y / 2.0);
    painter.galley(at, galley, ui.visuals().strong_text_color());
    tap.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Button, true, format!("Put away: {text}"))
    });
    tap
}

/// A framed, finger-sized option that shows whether it is chosen; true when tapped while
/// not chosen.
pub fn choice(ui: &mut egui::Ui, on: bool, text: &str) -> bool {
    ui.add(
        Button::new(text)
            .selected(on)
            .frame(true)
            .min_size(Vec2::splat(TOUCH)),
    )
    .clicked()
        && !on
}

/// A reaction window's countdown: the seconds left and a bar that empties with them, out of
/// `full` milliseconds; at zero it says `ending` ("Letting it stand…").
pub fn countdown(ui: &mut egui::Ui, left_ms: u64, full_ms: u64, ending: &str) {
    let palette = Palette::of(ui);
    ui.horizontal(|ui| {
        let text = if left_ms == 0 {
            ending.to_string()
        } else {
            format!("{} s left", left_ms.div_ceil(1000))
        };
        ui.label(RichText::new(text).size(16.0).color(palette.accent));
        let (rect, _) =
            ui.allocate_exact_size(Vec2::new(ui.available_width(), 10.0), Sense::hover());
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 5, palette.muted.gamma_multiply(0.3));
        let part = (left_ms as f32 / full_ms.max(1) as f32).clamp(0.0, 1.0);
        let fill =
            egui::Rect::from_min_size(rect.min, Vec2::new(rect.width() * part, rect.height()));
        painter.rect_filled(fill, 5, palette.accent);
    });
}

/// The table's reaction window in the lobby (a table setting the host picks for everyone):
/// "`label` 1 s / 3 s / 5 s". Returns the host's new choice.
pub fn window_choice(
    ui: &mut egui::Ui,
    label: &str,
    current: ReactionWindow,
    host: bool,
) -> Option<ReactionWindow> {
    let mut chosen = None;
    ui.horizontal_wrapped(|ui| {
        ui.label(label);
        for window in ReactionWindow::CHOICES {
            let name = format!("{} s", window.ms() / 1_000);
            let on = current == window;
            if host {
                if ui
                    .add(Button::selectable(on, name).min_size(Vec2::splat(TOUCH)))
                    .clicked()
                {
                    chosen = Some(window);
                }
            } else if on {
                ui.label(name);
            }
        }
    });
    chosen
}

/// Where a die's pips sit for `value` (1–6), in units of a third of the face from its centre:
/// every game's dice draw from this one layout.
pub fn die_pips(value: u8) -> &'static [(f32, f32)] {
    match value {
        1 => &[(0.0, 0.0)],
        2 => &[(-1.0, -1.0), (1.0, 1.0)],
        3 => &[(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
        4 => &[(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)],
        5 => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (0.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
        _ => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (-1.0, 0.0),
            (1.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
    }
}
