//! GreedQuest's cards on screen: faces with their effect in our words, backs, empty
//! places, and the half-turn of a card being revealed.

use crate::theme::Palette;
use crate::widgets::motion;
use egui::{Align2, Color32, CornerRadius, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use hoard_rules::greedquest::Card;

/// What a card does, short enough for a card face; the rulebook's own text is longer.
pub fn effect(card: Card) -> &'static str {
    match card {
        Card::Go1
        | Card::Go2
        | Card::Go3
        | Card::Go4
        | Card::Go5
        | Card::Go6
        | Card::Go7
        | Card::Go8 => "The highest Go! moves one room forward.",
        Card::Wild => {
            "A Go! of any value 1 to 8, named after every card is seen. Beats every Go! in a duel."
        }
        Card::Loot => "Discard it and your whole hand, and draw five new cards at once.",
        Card::DragonAttack => {
            "Cancels every card in play. Two or more attacks cancel only each other."
        }
        Card::Meek => "This turn the lowest Go! wins. Two or more cancel each other.",
        Card::Curse => {
            "Everyone who moves by Go!, See Ya! or Secret Door moves backward. Not Tracking. Two or more cancel."
        }
        Card::DragonSighting => {
            "Go!, Tracking and See Ya! played in your room and the room behind you do nothing."
        }
        Card::SecretDoor => "Move two rooms forward.",
        Card::SeeYa => "Move one room forward for every Go! card in play.",
        Card::EvenChance => "If the winning Go! is even, swap rooms with its player. Facings stay.",
        Card::OddReversal => "If the winning Go! is odd, swap rooms with its player. Facings stay.",
        Card::Tracking => {
            "Move one room toward the player of the winning Go!. Curse! does not touch it."
        }
    }
}

/// A band colour by what the card is for, so a hand reads at a glance.
fn band(card: Card) -> Color32 {
    match card {
        Card::Wild => Color32::from_rgb(200, 150, 20),
        c if c.go_value().is_some() => Color32::from_rgb(40, 110, 190),
        Card::DragonAttack | Card::DragonSighting | Card::Curse => Color32::from_rgb(180, 50, 40),
        Card::SecretDoor | Card::SeeYa | Card::Tracking => Color32::from_rgb(40, 140, 70),
        Card::EvenChance | Card::OddReversal => Color32::from_rgb(130, 70, 170),
        _ => Color32::from_rgb(150, 100, 40),
    }
}

/// The big mark in the middle of a face.
fn mark(card: Card) -> &'static str {
    match card {
        Card::Go1 => "1",
        Card::Go2 => "2",
        Card::Go3 => "3",
        Card::Go4 => "4",
        Card::Go5 => "5",
        Card::Go6 => "6",
        Card::Go7 => "7",
        Card::Go8 => "8",
        Card::Wild => "WILD",
        Card::Loot => "5 new",
        Card::DragonAttack => "ALL OFF",
        Card::Meek => "LOW WINS",
        Card::Curse => "BACK",
        Card::DragonSighting => "HUSH",
        Card::SecretDoor => "+2",
        Card::SeeYa => "+Go!",
        Card::EvenChance => "EVEN",
        Card::OddReversal => "ODD",
        Card::Tracking => "FOLLOW",
    }
}

/// How a card place looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Look {
    Face(Card),
    Back,
    /// No card yet: a dashed-looking outline.
    Empty,
}

/// Paints a card in `rect`. `turn` is the flip (0 = back shown, 1 = face shown); between,
/// the card narrows to its edge and widens again showing the other side. `dim` greys a
/// card that had no effect.
pub fn paint(ui: &egui::Ui, rect: Rect, look: Look, turn: f32, dim: bool, selected: bool) {
    let palette = Palette::of(ui);
    let painter = ui.painter();
    let round = CornerRadius::same((rect.width() * 0.1).clamp(4.0, 12.0) as u8);
    if look == Look::Empty {
        painter.rect_stroke(
            rect.shrink(2.0),
            round,
            Stroke::new(1.5, palette.muted.gamma_multiply(0.6)),
            StrokeKind::Inside,
        );
        return;
    }
    // The flip: the card narrows to its edge, the face showing once past it.
    let (rect, face_side) = motion::flip(rect, turn);
    let shadow = rect.translate(Vec2::new(1.5, 2.5));
    painter.rect_filled(shadow, round, Color32::from_black_alpha(60));
    let edge = if selected {
        Stroke::new(3.5, palette.accent)
    } else {
        Stroke::new(1.0, Color32::from_black_alpha(120))
    };
    match (look, face_side) {
        (Look::Face(card), true) => paint_face(ui, rect, card, round, dim),
        _ => paint_back(ui, rect, round),
    }
    painter.rect_stroke(rect, round, edge, StrokeKind::Inside);
}

fn paint_back(ui: &egui::Ui, rect: Rect, round: CornerRadius) {
    let palette = Palette::of(ui);
    let painter = ui.painter();
    painter.rect_filled(rect, round, palette.card_back);
    let inner = rect.shrink((rect.width() * 0.12).min(8.0));
    if inner.width() > 4.0 {
        painter.rect_stroke(
            inner,
            round,
            Stroke::new(1.5, palette.card_back_pattern),
            StrokeKind::Inside,
        );
        // A diamond: the dungeon's mark on every back.
        let c = inner.center();
        let r = inner.width().min(inner.height()) * 0.3;
        let pts = vec![
            Pos2::new(c.x, c.y - r),
            Pos2::new(c.x + r * 0.7, c.y),
            Pos2::new(c.x, c.y + r),
            Pos2::new(c.x - r * 0.7, c.y),
        ];
        painter.add(egui::Shape::convex_polygon(
            pts,
            palette.card_back_pattern.gamma_multiply(0.8),
            Stroke::NONE,
        ));
    }
}

fn paint_face(ui: &egui::Ui, rect: Rect, card: Card, round: CornerRadius, dim: bool) {
    let palette = Palette::of(ui);
    let painter = ui.painter();
    let fade = |c: Color32| if dim { c.gamma_multiply(0.45) } else { c };
    painter.rect_filled(rect, round, fade(palette.card));
    let w = rect.width();
    if w < 12.0 {
        return;
    }
    let pad = (w * 0.07).clamp(3.0, 8.0);
    let band_h = (rect.height() * 0.06).clamp(4.0, 10.0);
    let band_rect = Rect::from_min_size(rect.min, Vec2::new(w, band_h));
    painter.rect_filled(
        band_rect,
        CornerRadius {
            nw: round.nw,
            ne: round.ne,
            sw: 0,
            se: 0,
        },
        fade(band(card)),
    );
    let ink = fade(palette.card_ink);
    let name_size = (w * 0.16).clamp(10.5, 17.0);
    let name = painter.layout(
        card.name().to_string(),
        FontId::proportional(name_size),
        ink,
        w - 2.0 * pad,
    );
    let name_top = rect.top() + band_h + pad * 0.6;
    let name_h = name.size().y;
    painter.galley(Pos2::new(rect.left() + pad, name_top), name, ink);

    // The mark, big enough to read across a table; long marks shrink to fit.
    let mark = mark(card);
    let chars = mark.chars().count() as f32;
    let mark_size = if chars <= 2.0 {
        (w * 0.5).clamp(16.0, 56.0)
    } else {
        ((w - 2.0 * pad) / (chars * 0.62)).clamp(9.0, 22.0)
    };
    let wide = w >= 96.0;
    let mark_y = if wide {
        name_top + name_h + mark_size * 0.7
    } else {
        (name_top + name_h + rect.bottom()) / 2.0
    };
    painter.text(
        Pos2::new(rect.center().x, mark_y),
        Align2::CENTER_CENTER,
        mark,
        FontId::proportional(mark_size),
        fade(band(card)),
    );
    // The effect, when the card is big enough to hold it legibly.
    if wide {
        let text = painter.layout(
            effect(card).to_string(),
            FontId::proportional((w * 0.085).clamp(10.5, 13.0)),
            ink,
            w - 2.0 * pad,
        );
        let top = (mark_y + mark_size * 0.6).max(rect.bottom() - pad - text.size().y);
        if top + text.size().y <= rect.bottom() - pad * 0.5 {
            painter.galley(Pos2::new(rect.left() + pad, top), text, ink);
        }
    }
}

/// The tick on a face-down card whose player has committed to it.
pub fn tick(ui: &egui::Ui, rect: Rect) {
    let palette = Palette::of(ui);
    let r = (rect.width() * 0.16).clamp(7.0, 12.0);
    let c = rect.right_bottom() + Vec2::new(-r - 2.0, -r - 2.0);
    ui.painter()
        .circle(c, r, palette.good, Stroke::new(1.5, Color32::WHITE));
    let s = Stroke::new(2.0, Color32::WHITE);
    let a = c + Vec2::new(-r * 0.5, 0.0);
    let b = c + Vec2::new(-r * 0.1, r * 0.4);
    let d = c + Vec2::new(r * 0.55, -r * 0.45);
    ui.painter().line_segment([a, b], s);
    ui.painter().line_segment([b, d], s);
}

/// A tappable card of the hand: returns its response (labelled with the card's name for
/// screen readers and tests). `lift` raises the chosen card.
pub fn hand_card(
    ui: &mut egui::Ui,
    size: Vec2,
    card: Card,
    selected: bool,
    enabled: bool,
) -> egui::Response {
    let sense = if enabled {
        Sense::click()
    } else {
        Sense::hover()
    };
    let (rect, response) = ui.allocate_exact_size(size, sense);
    let lift = if selected { -10.0 } else { 0.0 };
    paint(
        ui,
        rect.translate(Vec2::new(0.0, lift)),
        Look::Face(card),
        1.0,
        !enabled,
        selected,
    );
    response.widget_info(|| {
        egui::WidgetInfo::selected(egui::Role::Button, enabled, selected, card.name())
    });
    response
}
