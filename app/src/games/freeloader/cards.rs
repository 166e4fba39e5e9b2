//! Freeloader's cards as the screen draws them: a hand card that can be read at a glance
//! (name, category, what it costs here, points, discounts, special), a small chip for the
//! Stuff and the houses, and the whole card opened to read.

use super::words;
use crate::theme::Palette;
use egui::text::{LayoutJob, TextWrapping};
use egui::{Align2, Color32, CornerRadius, FontId, Pos2, Rect, RichText, Stroke, StrokeKind, Vec2};
use hoard_rules::CardId;
use std::sync::Arc;

/// `text` in at most `rows` lines no wider than `width`, cut short with "…".
pub fn wrapped(
    painter: &egui::Painter,
    text: &str,
    size: f32,
    colour: Color32,
    width: f32,
    rows: usize,
) -> Arc<egui::Galley> {
    let mut job = LayoutJob::simple(text.to_owned(), FontId::proportional(size), colour, width);
    job.wrap = TextWrapping {
        max_width: width.max(1.0),
        max_rows: rows,
        break_anywhere: false,
        overflow_character: Some('…'),
    };
    painter.layout_job(job)
}

pub fn round(rect: Rect) -> CornerRadius {
    CornerRadius::same((rect.width() * 0.08).clamp(3.0, 8.0) as u8)
}

/// A card's face in `rect`: a band in its category's colour, its name, what it costs now
/// (`cost`, when known for this seat) and its points, then its discounts and special as
/// far as there is room.
pub fn paint_face(
    painter: &egui::Painter,
    palette: &Palette,
    rect: Rect,
    id: CardId,
    cost: Option<i32>,
    lit: bool,
) {
    let Some(card) = words::card(id) else {
        return;
    };
    let r = round(rect);
    painter.rect_filled(
        rect.translate(Vec2::new(1.0, 2.0)),
        r,
        Color32::from_black_alpha(60),
    );
    painter.rect(
        rect,
        r,
        palette.card,
        Stroke::new(1.0, Color32::from_black_alpha(120)),
        StrokeKind::Inside,
    );
    let ink = palette.card_ink;
    let band_colour = words::category_colour(card.category);
    let pad = 4.0;
    let w = rect.width() - 2.0 * pad;
    let band = Rect::from_min_size(rect.min, Vec2::new(rect.width(), 15.0));
    painter.rect_filled(
        band,
        CornerRadius {
            nw: r.nw,
            ne: r.ne,
            sw: 0,
            se: 0,
        },
        band_colour,
    );
    let cat = wrapped(
        painter,
        words::category_name(card.category),
        10.0,
        words::ink_on(band_colour),
        w,
        1,
    );
    painter.galley(
        Pos2::new(rect.left() + pad, band.center().y - cat.size().y / 2.0),
        cat,
        ink,
    );
    let mut y = band.bottom() + 2.0;
    let name = wrapped(painter, card.name, 12.5, ink, w, 2);
    let h = name.size().y;
    painter.galley(Pos2::new(rect.left() + pad, y), name, ink);
    y += h + 2.0;

    let price = match cost {
        Some(c) if c != i32::from(card.cost) => format!("Cost {c} ({})", card.cost),
        Some(c) => format!("Cost {c}"),
        None => format!("Cost {}", card.cost),
    };
    let line = format!("{price} · {} pt", card.points);
    let g = wrapped(painter, &line, 11.5, ink, w, 1);
    let h = g.size().y;
    painter.galley(Pos2::new(rect.left() + pad, y), g, ink);
    y += h + 1.0;

    let small: Vec<String> = card
        .discounts
        .iter()
        .map(words::discount)
        .chain(words::special_short(&card.special))
        .collect();
    let muted = ink.gamma_multiply(0.8);
    for line in small {
        if y + 11.0 > rect.bottom() - 2.0 {
            break;
        }
        let g = wrapped(painter, &line, 9.5, muted, w, 1);
        let h = g.size().y;
        painter.galley(Pos2::new(rect.left() + pad, y), g, muted);
        y += h;
    }
    if lit {
        painter.rect_stroke(
            rect,
            r,
            Stroke::new(3.0, palette.accent),
            StrokeKind::Inside,
        );
    }
}

/// A small card on a house or in someone's Stuff: a band of its category's colour, its
/// name and "cost/points".
pub fn paint_small(painter: &egui::Painter, palette: &Palette, rect: Rect, id: CardId) {
    let Some(card) = words::card(id) else {
        return;
    };
    let r = round(rect);
    painter.rect(
        rect,
        r,
        palette.card,
        Stroke::new(1.0, Color32::from_black_alpha(120)),
        StrokeKind::Inside,
    );
    let band = Rect::from_min_size(rect.min, Vec2::new(rect.width(), 6.0));
    painter.rect_filled(
        band,
        CornerRadius {
            nw: r.nw,
            ne: r.ne,
            sw: 0,
            se: 0,
        },
        words::category_colour(card.category),
    );
    let ink = palette.card_ink;
    let w = rect.width() - 4.0;
    let rows = ((rect.height() - 20.0) / 11.0).floor().max(1.0) as usize;
    let name = wrapped(painter, card.name, 9.5, ink, w, rows);
    painter.galley(Pos2::new(rect.left() + 2.0, band.bottom() + 1.0), name, ink);
    painter.text(
        Pos2::new(rect.center().x, rect.bottom() - 2.0),
        Align2::CENTER_BOTTOM,
        format!("{}c {}p", card.cost, card.points),
        FontId::proportional(9.5),
        ink,
    );
}

/// A small card's back: the deck's colour in a frame.
pub fn paint_back(painter: &egui::Painter, palette: &Palette, rect: Rect) {
    let r = round(rect);
    painter.rect(
        rect,
        r,
        palette.card_back,
        Stroke::new(1.0, Color32::from_black_alpha(120)),
        StrokeKind::Inside,
    );
    if rect.width() > 10.0 {
        painter.rect_stroke(
            rect.shrink(4.0),
            r,
            Stroke::new(1.0, palette.card_back_pattern),
            StrokeKind::Inside,
        );
    }
}

/// A small card's face with nothing written on it (while it turns, edge on).
pub fn paint_blank(painter: &egui::Painter, palette: &Palette, rect: Rect) {
    painter.rect(
        rect,
        round(rect),
        palette.card,
        Stroke::new(1.0, Color32::from_black_alpha(120)),
        StrokeKind::Inside,
    );
}

/// The whole card, to read: everything printed on it, in words.
pub fn read_whole(ui: &mut egui::Ui, id: CardId, cost: Option<i32>) {
    let Some(card) = words::card(id) else {
        return;
    };
    let palette = Palette::of(ui);
    let colour = words::category_colour(card.category);
    egui::Frame::new()
        .fill(palette.card)
        .stroke(Stroke::new(3.0, colour))
        .corner_radius(10)
        .inner_margin(10)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.spacing_mut().item_spacing.y = 2.0;
            let ink = palette.card_ink;
            ui.label(RichText::new(card.name).size(19.0).strong().color(ink));
            let mut price = format!(
                "{} · printed cost {} · {} points",
                words::category_name(card.category),
                card.cost,
                card.points
            );
            match cost {
                Some(c) if c < 0 => {
                    price.push_str(&format!(" · it earns you {} here", words::favors(-c)));
                }
                Some(c) => price.push_str(&format!(" · costs you {} here", words::favors(c))),
                None => {}
            }
            ui.label(RichText::new(price).color(ink));
            for d in card.discounts {
                ui.label(RichText::new(words::discount(d)).color(ink));
            }
            if let Some(s) = words::special_long(&card.special) {
                ui.label(RichText::new(s).color(ink));
            }
            if !card.joke.is_empty() {
                ui.label(
                    RichText::new(card.joke)
                        .italics()
                        .color(ink.gamma_multiply(0.75)),
                );
            }
        });
}
