//! The cards of the table: my hand as big faces a thumb can tap, every cart as a row of
//! small faces in a strip of seats (with the points banked against the target), and the
//! words for what a tapped card can do where the shopper stands.

use super::{Frame, SpreeUi, seat_colour, seat_name};
use crate::games::is_you;
use crate::theme::Palette;
use crate::widgets::motion;
use egui::text::{LayoutJob, TextWrapping};
use egui::{Align2, Color32, CornerRadius, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use hoard_rules::spree::cards::{self, JOKER, Suit};
use hoard_rules::spree::{Input, Phase};
use hoard_rules::{CardId, Handle, Seat};
use std::sync::Arc;

/// Space between cards and seats.
const GAP: f32 = 8.0;
/// How far a picked card rises out of the hand (the room is kept above it).
const LIFT: f32 = 8.0;
/// The biggest card of the hand, and the height the hand may take at most.
const HAND_CARD_MAX: f32 = 96.0;
/// A card is this many times as tall as it is wide.
const CARD_RATIO: f32 = 1.4;
/// A seat's place in the strip.
const SEAT_MIN_WIDTH: f32 = 108.0;
const SEAT_HEIGHT: f32 = 50.0;
/// A card in a cart.
const MINI: Vec2 = Vec2::new(19.0, 25.0);

const CARD: Color32 = Color32::from_rgb(252, 250, 242);
const RED: Color32 = Color32::from_rgb(200, 30, 40);
const BLACK: Color32 = Color32::from_rgb(25, 25, 30);
const JOKER_INK: Color32 = Color32::from_rgb(120, 50, 160);

fn ink(card: CardId) -> Color32 {
    match cards::face(card) {
        Some(f) if f.suit.red() => RED,
        Some(_) => BLACK,
        None => JOKER_INK,
    }
}

/// A rank in the plural, as a theft names it ("7s", "Kings", "Jokers").
fn ranks(rank: u8) -> String {
    match rank {
        JOKER => "Jokers".into(),
        11 => "Jacks".into(),
        12 => "Queens".into(),
        13 => "Kings".into(),
        cards::ACE => "Aces".into(),
        n => format!("{n}s"),
    }
}

/// `text` on one line no wider than `width`, cut short with "…" if it must be.
fn one_line(
    painter: &egui::Painter,
    text: &str,
    size: f32,
    colour: Color32,
    width: f32,
) -> Arc<egui::Galley> {
    let mut job = LayoutJob::simple_singleline(text.to_owned(), FontId::proportional(size), colour);
    job.wrap = TextWrapping::truncate_at_width(width.max(1.0));
    painter.layout_job(job)
}

fn round(rect: Rect) -> CornerRadius {
    CornerRadius::same((rect.width() * 0.1).clamp(2.0, 9.0) as u8)
}

/// A card's face: the rank and suit in the corners and a big suit in the middle (a star
/// for a Joker); dimmed when it can do nothing now.
pub(crate) fn paint_face(painter: &egui::Painter, rect: Rect, card: CardId, dim: bool) {
    let fade = |c: Color32| if dim { c.gamma_multiply(0.55) } else { c };
    let r = round(rect);
    painter.rect_filled(
        rect.translate(Vec2::new(1.0, 2.0)),
        r,
        Color32::from_black_alpha(60),
    );
    painter.rect(
        rect,
        r,
        fade(CARD),
        Stroke::new(1.0, Color32::from_black_alpha(120)),
        StrokeKind::Inside,
    );
    let ink = fade(ink(card));
    let w = rect.width();
    let corner = FontId::proportional((w * 0.24).clamp(9.0, 20.0));
    let pad = (w * 0.07).clamp(2.0, 7.0);
    match cards::face(card) {
        Some(face) => {
            let rank = cards::rank_name(face.rank);
            painter.text(
                rect.left_top() + Vec2::splat(pad),
                Align2::LEFT_TOP,
                &rank,
                corner.clone(),
                ink,
            );
            let small = corner.size * 0.8;
            paint_suit(
                painter,
                rect.left_top() + Vec2::new(pad + corner.size * 0.35, pad + corner.size * 1.5),
                small,
                face.suit,
                ink,
            );
            paint_suit(
                painter,
                rect.center() + Vec2::new(0.0, w * 0.1),
                w * 0.42,
                face.suit,
                ink,
            );
            painter.text(
                rect.right_bottom() - Vec2::splat(pad),
                Align2::RIGHT_BOTTOM,
                &rank,
                corner,
                ink,
            );
        }
        None => {
            paint_star(
                painter,
                rect.center() - Vec2::new(0.0, w * 0.1),
                w * 0.55,
                ink,
            );
            painter.text(
                rect.center() + Vec2::new(0.0, w * 0.35),
                Align2::CENTER_CENTER,
                "Joker",
                FontId::proportional((w * 0.2).clamp(8.0, 18.0)),
                ink,
            );
        }
    }
}

/// A card's back: a card I hold whose face this device does not know (never, in play),
/// or a card turning face up.
fn paint_back(painter: &egui::Painter, palette: &Palette, rect: Rect) {
    painter.rect(
        rect,
        round(rect),
        palette.card_back,
        Stroke::new(1.0, Color32::from_black_alpha(120)),
        StrokeKind::Inside,
    );
}

/// A small face for a cart: the rank over the suit.
fn paint_mini(painter: &egui::Painter, rect: Rect, card: CardId) {
    painter.rect(
        rect,
        3,
        CARD,
        Stroke::new(0.8, Color32::from_black_alpha(140)),
        StrokeKind::Inside,
    );
    if rect.width() < MINI.x * 0.6 {
        // Turned almost edge on: too thin for the rank and suit.
        return;
    }
    let ink = ink(card);
    let top = Pos2::new(rect.center().x, rect.top() + rect.height() * 0.3);
    let bottom = Pos2::new(rect.center().x, rect.top() + rect.height() * 0.72);
    match cards::face(card) {
        Some(f) => {
            let rank = cards::rank_name(f.rank);
            let size = if rank.len() > 1 { 10.0 } else { 12.0 };
            painter.text(
                top,
                Align2::CENTER_CENTER,
                rank,
                FontId::proportional(size),
                ink,
            );
            paint_suit(painter, bottom, 9.0, f.suit, ink);
        }
        None => {
            paint_star(painter, top + Vec2::new(0.0, 2.0), 12.0, ink);
            painter.text(
                bottom,
                Align2::CENTER_CENTER,
                "J",
                FontId::proportional(10.0),
                ink,
            );
        }
    }
}

/// A card as the screen's text says it ("7 of hearts", "Joker"): the app's fonts have no
/// suit symbols, so the symbols are drawn ([`paint_suit`]) and the words are written.
pub(crate) fn spoken(card: CardId) -> String {
    match cards::face(card) {
        Some(f) => format!("{} of {}", cards::rank_name(f.rank), suit_word(f.suit)),
        None => "Joker".into(),
    }
}

fn suit_word(suit: Suit) -> &'static str {
    match suit {
        Suit::Hearts => "hearts",
        Suit::Spades => "spades",
        Suit::Clubs => "clubs",
        Suit::Diamonds => "diamonds",
    }
}

/// A suit's symbol drawn as shapes, `size` points tall, centred on `c`.
pub(crate) fn paint_suit(painter: &egui::Painter, c: Pos2, size: f32, suit: Suit, ink: Color32) {
    let s = size / 2.0;
    let none = Stroke::NONE;
    let tri = |a: Pos2, b: Pos2, d: Pos2| egui::Shape::convex_polygon(vec![a, b, d], ink, none);
    match suit {
        Suit::Diamonds => {
            painter.add(egui::Shape::convex_polygon(
                vec![
                    c + Vec2::new(0.0, -s),
                    c + Vec2::new(s * 0.72, 0.0),
                    c + Vec2::new(0.0, s),
                    c + Vec2::new(-s * 0.72, 0.0),
                ],
                ink,
                none,
            ));
        }
        Suit::Hearts => {
            let r = s * 0.5;
            painter.circle_filled(c + Vec2::new(-r * 0.92, -s * 0.38), r, ink);
            painter.circle_filled(c + Vec2::new(r * 0.92, -s * 0.38), r, ink);
            painter.add(tri(
                c + Vec2::new(-s * 0.95, -s * 0.22),
                c + Vec2::new(s * 0.95, -s * 0.22),
                c + Vec2::new(0.0, s),
            ));
        }
        Suit::Spades => {
            let r = s * 0.46;
            painter.circle_filled(c + Vec2::new(-r * 0.95, s * 0.18), r, ink);
            painter.circle_filled(c + Vec2::new(r * 0.95, s * 0.18), r, ink);
            painter.add(tri(
                c + Vec2::new(-s * 0.9, s * 0.05),
                c + Vec2::new(s * 0.9, s * 0.05),
                c + Vec2::new(0.0, -s),
            ));
            painter.add(tri(
                c + Vec2::new(0.0, s * 0.2),
                c + Vec2::new(-s * 0.32, s),
                c + Vec2::new(s * 0.32, s),
            ));
        }
        Suit::Clubs => {
            let r = s * 0.4;
            painter.circle_filled(c + Vec2::new(0.0, -s * 0.52), r, ink);
            painter.circle_filled(c + Vec2::new(-s * 0.48, s * 0.1), r, ink);
            painter.circle_filled(c + Vec2::new(s * 0.48, s * 0.1), r, ink);
            painter.add(tri(
                c + Vec2::new(0.0, -s * 0.1),
                c + Vec2::new(-s * 0.32, s),
                c + Vec2::new(s * 0.32, s),
            ));
        }
    }
}

/// A five-pointed star (a Joker's mark), `size` points across.
pub(crate) fn paint_star(painter: &egui::Painter, c: Pos2, size: f32, ink: Color32) {
    let outer = size / 2.0;
    let inner = outer * 0.42;
    let at = |k: usize, r: f32| {
        let a = -std::f32::consts::FRAC_PI_2 + k as f32 * std::f32::consts::PI / 5.0;
        c + Vec2::new(a.cos(), a.sin()) * r
    };
    let inside: Vec<Pos2> = (0..5).map(|k| at(2 * k + 1, inner)).collect();
    painter.add(egui::Shape::convex_polygon(inside, ink, Stroke::NONE));
    for k in 0..5 {
        painter.add(egui::Shape::convex_polygon(
            vec![
                at(2 * k, outer),
                at((2 * k + 1) % 10, inner),
                at((2 * k + 9) % 10, inner),
            ],
            ink,
            Stroke::NONE,
        ));
    }
}

fn cart_points(cart: &[CardId]) -> i32 {
    cart.iter().map(|c| cards::points(*c)).sum()
}

/// Every seat in turn order: name, banked points against the target, the cart.
pub(super) fn seats_strip(ui: &mut egui::Ui, f: &Frame) {
    let n = usize::from(f.public.config.seats).max(1);
    let avail = ui.available_width();
    let fit = (((avail + GAP) / (SEAT_MIN_WIDTH + GAP)).floor() as usize).clamp(1, n);
    // As few rows as fit, shared evenly (four seats on a phone: two and two).
    let rows = n.div_ceil(fit);
    let cols = n.div_ceil(rows);
    let w = ((avail - GAP * (cols as f32 - 1.0)) / cols as f32).floor();
    let seats: Vec<Seat> = (0..f.public.config.seats).collect();
    for row in seats.chunks(cols) {
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = GAP;
            for seat in row {
                seat_place(ui, f, *seat, Vec2::new(w, SEAT_HEIGHT));
            }
        });
    }
}

fn seat_place(ui: &mut egui::Ui, f: &Frame, seat: Seat, size: Vec2) {
    let palette = Palette::of(ui);
    let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
    let painter = ui.painter_at(rect);
    let i = usize::from(seat);
    let mine = is_you(f.view, seat);
    let name = seat_name(f.view, seat);
    let banked = f.public.scores.get(i).copied().unwrap_or(0);
    let target = f.public.config.target.max(1);
    let cart: &[CardId] = f.public.carts.get(i).map_or(&[], Vec::as_slice);
    let held = f.public.hands.get(i).map_or(0, Vec::len);
    let pawn = f.public.pawns.get(i);
    let info = f.view.seats.get(i);
    let to_play = f.public.turn().is_some_and(|t| t.seat == seat)
        || matches!(f.public.phase, Phase::Parking { seat: s, .. } if s == seat);
    let colour = seat_colour(f.view, seat);

    let edge = if to_play {
        Stroke::new(2.5, palette.accent)
    } else {
        Stroke::new(1.0, palette.muted.gamma_multiply(0.5))
    };
    painter.rect(
        rect.shrink(1.0),
        8,
        ui.visuals().extreme_bg_color,
        edge,
        StrokeKind::Inside,
    );
    let pad = 6.0;
    let strong = ui.visuals().strong_text_color();
    // The points locked in the car against the target.
    let score = format!("{banked}/{target}");
    let score_text = one_line(&painter, &score, 14.0, strong, rect.width() * 0.5);
    let score_w = score_text.size().x;
    painter.galley(
        Pos2::new(rect.right() - pad - score_w, rect.top() + 5.0),
        score_text,
        strong,
    );
    painter.circle(
        Pos2::new(rect.left() + pad + 6.0, rect.top() + 14.0),
        6.0,
        colour,
        Stroke::new(1.0, strong),
    );
    let name_w = rect.width() - 2.0 * pad - 16.0 - score_w - 4.0;
    let name_colour = if info.is_some_and(|s| !s.connected) {
        palette.muted
    } else {
        ui.visuals().text_color()
    };
    // My own name stands out (the strip has no room for "(you)" on a phone).
    let font = if mine { 15.0 } else { 14.0 };
    let name_colour = if mine { strong } else { name_colour };
    let text = one_line(&painter, &name, font, name_colour, name_w);
    painter.galley(
        Pos2::new(rect.left() + pad + 16.0, rect.top() + 5.0),
        text,
        name_colour,
    );
    // The cart, overlapping its cards when they would not fit side by side.
    let cart_top = rect.top() + 21.0;
    let value = cart_points(cart);
    let value_text = if cart.is_empty() {
        one_line(
            &painter,
            "empty cart",
            12.0,
            palette.muted,
            rect.width() - 2.0 * pad,
        )
    } else {
        one_line(&painter, &format!("+{value}"), 12.0, palette.muted, 40.0)
    };
    let room = rect.width() - 2.0 * pad - if cart.is_empty() { 0.0 } else { 30.0 };
    let step = if cart.len() <= 1 {
        MINI.x
    } else {
        ((room - MINI.x) / (cart.len() - 1) as f32).min(MINI.x + 2.0)
    };
    // Cards just put in turn face up.
    let held_before = f
        .cart_turn
        .as_ref()
        .and_then(|(before, t)| Some((*before.get(i)?, *t)));
    for (k, c) in cart.iter().enumerate() {
        let at = Pos2::new(rect.left() + pad + step * k as f32, cart_top);
        let turn = match held_before {
            Some((before, t)) if k >= before => t,
            _ => 1.0,
        };
        let (shown, face) = motion::flip(Rect::from_min_size(at, MINI), turn);
        if face {
            paint_mini(&painter, shown, *c);
        } else {
            paint_back(&painter, &palette, shown);
        }
    }
    let value_at = if cart.is_empty() {
        Pos2::new(rect.left() + pad, cart_top + 5.0)
    } else {
        Pos2::new(rect.right() - pad - value_text.size().x, cart_top + 6.0)
    };
    painter.galley(value_at, value_text, palette.muted);
    // Progress to the target along the bottom edge.
    let bar = Rect::from_min_size(
        Pos2::new(rect.left() + 4.0, rect.bottom() - 5.0),
        Vec2::new(rect.width() - 8.0, 3.0),
    );
    painter.rect_filled(bar, 1, palette.muted.gamma_multiply(0.3));
    let part = (banked as f32 / target as f32).clamp(0.0, 1.0);
    painter.rect_filled(
        Rect::from_min_size(bar.min, Vec2::new(bar.width() * part, bar.height())),
        1,
        colour,
    );

    let mut label = format!(
        "{}{}: {banked} of {target} points banked, ",
        seat_name(f.view, seat),
        if mine { " (you)" } else { "" }
    );
    if cart.is_empty() {
        label.push_str("an empty cart");
    } else {
        let names: Vec<String> = cart.iter().map(|c| cards::name(*c)).collect();
        label.push_str(&format!("cart {} ({value} points)", names.join(" ")));
    }
    label.push_str(&format!(
        ", {held} {} in hand",
        if held == 1 { "card" } else { "cards" }
    ));
    if pawn.is_some_and(|p| p.lying) {
        label.push_str(", lying down");
    }
    if info.is_some_and(|s| !s.connected) {
        label.push_str(", away");
    }
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));
}

/// What card `h` of my hand can do now, as buttons' words and inputs: buy, a pair, the
/// cart for a Joker, a move card, a theft.
pub(super) fn card_moves(f: &Frame, h: Handle) -> Vec<(String, Input)> {
    let mut out = Vec::new();
    for input in &f.legal {
        let words = match input {
            Input::Shop { cards } if cards.iter().any(|(c, _)| *c == h) => match cards.as_slice() {
                [(_, face)] if cards::is_joker(*face) => "Into the cart".to_string(),
                [_] => "Buy".to_string(),
                _ => "Buy the pair".to_string(),
            },
            Input::MoveCard { card, steps, .. } if *card == h => format!("Move-{steps}"),
            Input::Rob {
                victim, card, rank, ..
            } if *card == h => {
                format!("Steal {} from {}", ranks(*rank), seat_name(f.view, *victim))
            }
            _ => continue,
        };
        // A pair is offered once, from either card.
        if !out.iter().any(|(w, _): &(String, Input)| *w == words) {
            out.push((words, input.clone()));
        }
    }
    out
}

/// The Ace (or Joker) card `h` would stop the play with, if it can now.
fn stop_with(f: &Frame, h: Handle) -> Option<Input> {
    f.legal
        .iter()
        .find(|i| matches!(i, Input::Ace { card, .. } if *card == h))
        .cloned()
}

impl SpreeUi {
    /// My hand as big faces. A tap picks a card (its moves show above the hand); in a
    /// window a glowing Ace stops the play at once.
    pub(super) fn hand(&mut self, ui: &mut egui::Ui, f: &Frame, max_height: f32) -> Option<Input> {
        let palette = Palette::of(ui);
        let me = f.me()?;
        let hand: &[Handle] = f
            .public
            .hands
            .get(usize::from(me))
            .map_or(&[], Vec::as_slice);
        if hand.is_empty() {
            let empty = format!("{} is empty.", crate::games::hand_title(f.view));
            ui.label(egui::RichText::new(empty).color(palette.muted));
            return None;
        }
        let answering = f.legal.contains(&Input::Pass);
        let k = hand.len().max(hoard_rules::spree::HAND) as f32;
        let avail = ui.available_width();
        let w = ((avail - GAP * (k - 1.0)) / k)
            .min(HAND_CARD_MAX)
            .min(max_height / CARD_RATIO)
            .floor();
        let size = Vec2::new(w, (w * CARD_RATIO).round());
        let used = w * hand.len() as f32 + GAP * (hand.len() as f32 - 1.0);
        let mut chosen = None;
        ui.add_space(LIFT);
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = GAP;
            ui.add_space(((avail - used) / 2.0).max(0.0).floor());
            for h in hand {
                let face = f.private.and_then(|p| p.face(h));
                let stop = stop_with(f, *h);
                let moves = if answering {
                    Vec::new()
                } else {
                    card_moves(f, *h)
                };
                let picked = self.picked == Some(*h);
                let enabled = stop.is_some() || !moves.is_empty();
                let sense = if enabled {
                    Sense::click()
                } else {
                    Sense::hover()
                };
                let (rect, response) = ui.allocate_exact_size(size, sense);
                let painter = ui.painter_at(rect.expand2(Vec2::new(GAP / 2.0, LIFT)));
                let shown = if picked {
                    rect.translate(Vec2::new(0.0, -LIFT))
                } else {
                    rect
                };
                if stop.is_some() {
                    for (grow, alpha) in [(3.5, 0.35), (2.0, 0.7)] {
                        painter.rect_stroke(
                            shown.expand(grow),
                            round(shown),
                            Stroke::new(2.0, palette.accent.gamma_multiply(alpha)),
                            StrokeKind::Outside,
                        );
                    }
                }
                // On my turn the cards that can do nothing here fade.
                let dim =
                    (answering && stop.is_none()) || (f.my_turn.is_some() && moves.is_empty());
                match face {
                    Some(c) => paint_face(&painter, shown, c, dim),
                    None => paint_back(&painter, &palette, shown),
                }
                if picked {
                    painter.rect_stroke(
                        shown,
                        round(shown),
                        Stroke::new(3.0, palette.accent),
                        StrokeKind::Inside,
                    );
                }
                let name = face.map_or("a card".to_string(), cards::name);
                let label = match stop {
                    Some(_) => format!("Stop it with your {name}"),
                    None => format!("Your {name}"),
                };
                response.widget_info(|| {
                    egui::WidgetInfo::selected(egui::Role::Button, enabled, picked, &label)
                });
                if response.clicked() {
                    if stop.is_some() {
                        chosen = stop;
                    } else if !moves.is_empty() {
                        self.picked = if picked { None } else { Some(*h) };
                    }
                }
            }
        });
        chosen
    }
}
