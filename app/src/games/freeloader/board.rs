//! The neighbourhood: the six houses in ring order, clockwise round the screen, each a tile
//! with its people, the favors done there, its Best Friend and Crash spaces, the card face
//! up beside it (a new one turning over) and its seven-space track with the pawns; then
//! every player's Stuff with its score and the three necessities; and the dice.

use super::cards;
use super::words;
use crate::games::is_you;
use crate::net::GameView;
use crate::theme::Palette;
use crate::widgets::motion;
use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use hoard_rules::freeloader::board::section;
use hoard_rules::freeloader::data::{Category, Space};
use hoard_rules::freeloader::{Phase, Public};
use hoard_rules::{CardId, Seat};

const GAP: f32 = 6.0;
const PAD: f32 = 5.0;
const HEADER: f32 = 18.0;
/// One player's favors in a house: a dot and a count.
const FAVOR_W: f32 = 27.0;
const FAVOR_ROW: f32 = 14.0;

/// What was tapped on the board.
#[derive(Default)]
pub struct Tapped {
    /// A house to place a favor in (ring place).
    pub house: Option<u8>,
    /// A card to read whole.
    pub read: Option<CardId>,
}

/// Where ring place `i` goes on a grid of `columns` (2 or 3): clockwise from the top left.
fn cell(i: usize, columns: usize) -> (usize, usize) {
    if columns >= 3 {
        [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)][i % 6]
    } else {
        [(0, 0), (1, 0), (1, 1), (1, 2), (0, 2), (0, 1)][i % 6]
    }
}

/// The seat whose move the table waits for, to light its pawn.
pub fn to_move(public: &Public) -> Option<Seat> {
    match &public.phase {
        Phase::Turn { seat }
        | Phase::Moving { seat, .. }
        | Phase::Land { seat }
        | Phase::Bus { seat }
        | Phase::MoveAgain { seat }
        | Phase::DrawTop { seat }
        | Phase::Refill { seat, .. }
        | Phase::Challenge { seat, .. }
        | Phase::Fight { seat, .. }
        | Phase::TradeGive { seat, .. }
        | Phase::TradeBack { seat, .. } => Some(*seat),
        _ => None,
    }
}

fn space_fill(space: Space) -> Color32 {
    match space {
        Space::Favor(Some(_)) => Color32::from_rgb(150, 70, 90),
        Space::Favor(None) => Color32::from_rgb(120, 70, 130),
        Space::Draw => Color32::from_rgb(50, 100, 140),
        Space::Trade => Color32::from_rgb(150, 120, 40),
        Space::StealFood | Space::StealClothing => Color32::from_rgb(150, 60, 40),
        Space::Crash => Color32::from_rgb(60, 120, 70),
        Space::BusStop(_) => Color32::from_rgb(80, 80, 80),
    }
}

/// The neighbourhood in `columns` columns (2 upright, 3 on a wide screen). Houses in
/// `pickable` can be tapped for a favor; `picked` is lit. `turning` says how far each
/// house's face-up card has turned over (0 to 1, by ring place; 1 when missing).
pub fn neighbourhood(
    ui: &mut egui::Ui,
    view: &GameView,
    public: &Public,
    columns: usize,
    pickable: &[u8],
    picked: Option<u8>,
    turning: &[f32],
) -> Tapped {
    let palette = Palette::of(ui);
    let mut tapped = Tapped::default();
    let columns = columns.clamp(2, 3);
    let rows = 6usize.div_ceil(columns);
    let avail = ui.available_width();
    let tile_w = ((avail - GAP * (columns as f32 - 1.0)) / columns as f32)
        .min(300.0)
        .floor();
    let used_w = tile_w * columns as f32 + GAP * (columns as f32 - 1.0);
    let seats = public.pawns.len().max(1);
    let card_w = (tile_w * 0.28).clamp(44.0, 66.0).floor();
    let card_h = (card_w * 1.3).floor();
    let left_w = tile_w - 2.0 * PAD - card_w - 4.0;
    let per_row = ((left_w / FAVOR_W).floor() as usize).max(1);
    let left_h = seats.div_ceil(per_row) as f32 * FAVOR_ROW + 18.0;
    let sq_w = (tile_w - 2.0 * PAD - 6.0 * 2.0) / 7.0;
    let sq_h = (sq_w * 1.05).clamp(26.0, 38.0).floor();
    let tile_h = (PAD + HEADER + card_h.max(left_h) + 4.0 + sq_h + PAD).ceil();
    let size = Vec2::new(avail, tile_h * rows as f32 + GAP * (rows as f32 - 1.0));
    let (whole, _) = ui.allocate_exact_size(size, Sense::hover());
    let painter = ui.painter_at(whole.expand(2.0));
    let left = whole.left() + ((avail - used_w) / 2.0).max(0.0).floor();
    let lit = to_move(public);

    for (i, h) in public.houses.iter().enumerate().take(6) {
        let (col, row) = cell(i, columns);
        let t = Rect::from_min_size(
            Pos2::new(
                left + col as f32 * (tile_w + GAP),
                whole.top() + row as f32 * (tile_h + GAP),
            ),
            Vec2::new(tile_w, tile_h),
        );
        let place = i as u8;
        let can_pick = pickable.contains(&place);
        let is_picked = picked == Some(place);
        let sense = if can_pick {
            Sense::click()
        } else {
            Sense::hover()
        };
        let response = ui.interact(t, ui.make_persistent_id(("fl-house", i)), sense);
        let sec = section(h.house);

        let ground = if is_picked {
            palette.accent.gamma_multiply(0.25)
        } else {
            palette.room
        };
        let edge = if is_picked {
            Stroke::new(3.0, palette.accent)
        } else if can_pick {
            Stroke::new(2.0, palette.accent.gamma_multiply(0.7))
        } else {
            Stroke::new(1.0, palette.room_edge)
        };
        painter.rect(t, 10, ground, edge, StrokeKind::Inside);
        let strong = ui.visuals().strong_text_color();
        let title = cards::wrapped(
            &painter,
            words::house_title(h.house),
            13.5,
            strong,
            tile_w,
            1,
        );
        let tw = title.size().x;
        painter.galley(
            Pos2::new(t.left() + PAD + 2.0, t.top() + PAD - 1.0),
            title,
            strong,
        );
        let people = cards::wrapped(
            &painter,
            sec.people,
            10.5,
            palette.muted,
            (tile_w - tw - 3.0 * PAD - 4.0).max(1.0),
            1,
        );
        painter.galley(
            Pos2::new(t.left() + PAD + tw + 8.0, t.top() + PAD + 2.0),
            people,
            palette.muted,
        );

        // The card face up beside the house.
        let top = t.top() + PAD + HEADER;
        let card_rect = Rect::from_min_size(
            Pos2::new(t.right() - PAD - card_w, top),
            Vec2::new(card_w, card_h),
        );
        match h.face_up {
            Some(c) => {
                let turn = turning.get(i).copied().unwrap_or(1.0);
                let (shown, face) = motion::flip(card_rect, turn);
                if !face {
                    cards::paint_back(&painter, &palette, shown);
                } else if shown.width() < 24.0 {
                    // Turned almost edge on: too narrow for its writing.
                    cards::paint_blank(&painter, &palette, shown);
                } else {
                    cards::paint_small(&painter, &palette, shown, c);
                }
                let r = ui.interact(
                    card_rect,
                    ui.make_persistent_id(("fl-face-up", i)),
                    Sense::click(),
                );
                let label = format!(
                    "Face up at {}: {}",
                    words::at_house(h.house),
                    words::card_name(c)
                );
                r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
                if r.clicked() {
                    tapped.read = Some(c);
                }
            }
            None => {
                painter.rect_stroke(
                    card_rect,
                    6,
                    Stroke::new(1.0, palette.muted.gamma_multiply(0.5)),
                    StrokeKind::Inside,
                );
            }
        }

        // Favors, a dot and a count for each player who has any here.
        let x0 = t.left() + PAD;
        let mut k = 0usize;
        let mut favors_words = Vec::new();
        for (seat, n) in h.favors.iter().enumerate() {
            if *n == 0 {
                continue;
            }
            let colour = words::seat_colour(view, seat as Seat);
            let at = Pos2::new(
                x0 + (k % per_row) as f32 * FAVOR_W,
                top + (k / per_row) as f32 * FAVOR_ROW,
            );
            painter.circle(
                at + Vec2::new(5.0, 6.0),
                5.0,
                colour,
                Stroke::new(1.0, Color32::from_black_alpha(140)),
            );
            painter.text(
                at + Vec2::new(12.0, 6.0),
                Align2::LEFT_CENTER,
                n.to_string(),
                FontId::proportional(11.0),
                strong,
            );
            favors_words.push(format!("{} {n}", words::seat_name(view, seat as Seat)));
            k += 1;
        }

        // Best Friend spaces (round) and Crash spaces (square), in the occupant's colour.
        let y = top + seats.div_ceil(per_row) as f32 * FAVOR_ROW + 9.0;
        let mut x = x0;
        let tag = |painter: &egui::Painter, x: f32, text: &str| -> f32 {
            let g = cards::wrapped(painter, text, 9.5, palette.muted, 40.0, 1);
            let w = g.size().x;
            painter.galley(Pos2::new(x, y - g.size().y / 2.0), g, palette.muted);
            w + 3.0
        };
        x += tag(&painter, x, "BF");
        for slot in &h.best_friends {
            let c = Pos2::new(x + 6.0, y);
            let _ = match slot {
                Some(s) => painter.circle(
                    c,
                    6.0,
                    words::seat_colour(view, *s),
                    Stroke::new(1.5, palette.accent),
                ),
                None => painter.circle_stroke(c, 6.0, Stroke::new(1.0, palette.muted)),
            };
            x += 14.0;
        }
        x += 5.0;
        x += tag(&painter, x, "Cr");
        for slot in &h.crash {
            let r = Rect::from_center_size(Pos2::new(x + 6.0, y), Vec2::splat(11.0));
            let _ = match slot {
                Some(s) => painter.rect(
                    r,
                    2,
                    words::seat_colour(view, *s),
                    Stroke::new(1.0, strong),
                    StrokeKind::Inside,
                ),
                None => {
                    painter.rect_stroke(r, 2, Stroke::new(1.0, palette.muted), StrokeKind::Inside)
                }
            };
            x += 14.0;
        }

        // The track, with the pawns on it.
        let track_top = t.bottom() - PAD - sq_h;
        let mut pawns_words = Vec::new();
        for (j, space) in sec.track.iter().enumerate() {
            let r = Rect::from_min_size(
                Pos2::new(x0 + j as f32 * (sq_w + 2.0), track_top),
                Vec2::new(sq_w, sq_h),
            );
            painter.rect_filled(r, 3, space_fill(*space));
            painter.text(
                Pos2::new(r.center().x, r.top() + 1.0),
                Align2::CENTER_TOP,
                words::space_code(*space),
                FontId::proportional((sq_w * 0.3).clamp(9.5, 13.0)),
                Color32::WHITE,
            );
            let on = (i * 7 + j) as u8;
            let here: Vec<Seat> = (0..public.pawns.len() as Seat)
                .filter(|s| public.pawns.get(usize::from(*s)) == Some(&on))
                .collect();
            let pr = (sq_w * 0.2).clamp(3.5, 6.0);
            for (k, seat) in here.iter().enumerate() {
                let (cx, cy) = (k % 2, k / 2);
                let c = Pos2::new(
                    r.left() + sq_w * (0.3 + 0.4 * cx as f32),
                    r.bottom() - pr - 2.0 - cy as f32 * (pr * 1.6),
                );
                let ring = if lit == Some(*seat) {
                    Stroke::new(2.0, palette.accent)
                } else {
                    Stroke::new(1.0, Color32::BLACK)
                };
                painter.circle(c, pr, words::seat_colour(view, *seat), ring);
                pawns_words.push(format!(
                    "{} on {}",
                    words::seat_name(view, *seat),
                    words::space_words(*space)
                ));
            }
        }

        let name = |s: &Option<Seat>| s.map(|s| words::seat_name(view, s));
        let friends: Vec<String> = h.best_friends.iter().filter_map(name).collect();
        let crashers: Vec<String> = h.crash.iter().filter_map(name).collect();
        let mut label = format!(
            "{} house, {}: favors {}; Best Friend {}; crashing {}",
            words::possessive(h.house),
            sec.people,
            if favors_words.is_empty() {
                "none".into()
            } else {
                favors_words.join(", ")
            },
            if friends.is_empty() {
                "nobody".into()
            } else {
                friends.join(", ")
            },
            if crashers.is_empty() {
                "nobody".into()
            } else {
                crashers.join(", ")
            },
        );
        if !pawns_words.is_empty() {
            label.push_str(&format!("; {}", pawns_words.join(", ")));
        }
        if can_pick {
            label.push_str(" (tap to place a favor)");
        }
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, can_pick, &label));
        if can_pick && response.clicked() {
            tapped.house = Some(place);
        }
    }
    tapped
}

/// Every player's Stuff: name, score, the three necessities ticked (crashing counts as
/// Shelter), cards in hand, and the Stuff's cards as chips to tap and read.
pub fn stuff(ui: &mut egui::Ui, view: &GameView, public: &Public) -> Option<CardId> {
    let palette = Palette::of(ui);
    let mut read = None;
    let lit = to_move(public);
    for seat in 0..public.stuff.len() as Seat {
        let i = usize::from(seat);
        let score = public.score(seat);
        let mine = public.stuff.get(i).cloned().unwrap_or_default();
        let has = |cat: Category| {
            mine.iter()
                .any(|c| words::card(*c).is_some_and(|k| k.category == cat))
        };
        let crashing = public.houses.iter().any(|h| h.is_crashing(seat));
        let ticks = [
            ("F", has(Category::Food), Category::Food),
            ("C", has(Category::Clothing), Category::Clothing),
            ("S", has(Category::Shelter) || crashing, Category::Shelter),
        ];
        let in_hand = public.hands.get(i).map_or(0, Vec::len);
        let name = words::seat_name(view, seat);
        let you = if is_you(view, seat) { " (you)" } else { "" };

        let (rect, response) =
            ui.allocate_exact_size(Vec2::new(ui.available_width(), 24.0), Sense::hover());
        let painter = ui.painter_at(rect);
        let colour = words::seat_colour(view, seat);
        let strong = ui.visuals().strong_text_color();
        let edge = if lit == Some(seat) {
            Stroke::new(2.0, palette.accent)
        } else {
            Stroke::new(1.0, Color32::BLACK)
        };
        painter.circle(
            Pos2::new(rect.left() + 10.0, rect.center().y),
            8.0,
            colour,
            edge,
        );
        let name_g = cards::wrapped(&painter, &format!("{name}{you}"), 15.0, strong, 130.0, 1);
        let nw = name_g.size().x;
        painter.galley(
            Pos2::new(rect.left() + 24.0, rect.center().y - name_g.size().y / 2.0),
            name_g,
            strong,
        );
        let mut x = rect.left() + 24.0 + nw + 8.0;
        let pts = format!("{score} pts");
        let g = cards::wrapped(&painter, &pts, 15.0, palette.accent, 70.0, 1);
        let gw = g.size().x;
        painter.galley(
            Pos2::new(x, rect.center().y - g.size().y / 2.0),
            g,
            palette.accent,
        );
        x += gw + 8.0;
        for (letter, on, cat) in ticks {
            let r = Rect::from_center_size(Pos2::new(x + 9.0, rect.center().y), Vec2::splat(18.0));
            if on {
                painter.rect_filled(r, 4, words::category_colour(cat));
                painter.text(
                    r.center(),
                    Align2::CENTER_CENTER,
                    letter,
                    FontId::proportional(12.0),
                    Color32::WHITE,
                );
            } else {
                painter.rect_stroke(r, 4, Stroke::new(1.0, palette.muted), StrokeKind::Inside);
                painter.text(
                    r.center(),
                    Align2::CENTER_CENTER,
                    letter,
                    FontId::proportional(12.0),
                    palette.muted,
                );
            }
            x += 21.0;
        }
        let hand = format!("{in_hand} in hand");
        let g = cards::wrapped(
            &painter,
            &hand,
            12.0,
            palette.muted,
            (rect.right() - x - 6.0).max(1.0),
            1,
        );
        painter.galley(
            Pos2::new(x + 6.0, rect.center().y - g.size().y / 2.0),
            g,
            palette.muted,
        );

        let yes_no = |b: bool| if b { "yes" } else { "no" };
        let label = format!(
            "{name}: {score} points, Food {}, Clothing {}, Shelter {}, {in_hand} in hand",
            yes_no(ticks[0].1),
            yes_no(ticks[1].1),
            yes_no(ticks[2].1)
        );
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));

        if !mine.is_empty() {
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().item_spacing = Vec2::new(4.0, 4.0);
                ui.add_space(22.0);
                for c in &mine {
                    let Some(card) = words::card(*c) else {
                        continue;
                    };
                    let fill = words::category_colour(card.category).gamma_multiply(0.45);
                    let b = egui::Button::new(egui::RichText::new(card.name).size(13.0))
                        .fill(fill)
                        .min_size(Vec2::new(0.0, crate::theme::TOUCH));
                    if ui.add(b).clicked() {
                        read = Some(*c);
                    }
                }
            });
        }
        ui.add_space(4.0);
    }
    read
}

/// The dice as squares with pips; while `rolling`, faces that change every frame.
pub fn dice(ui: &mut egui::Ui, dice: &[u8], rolling: Option<f64>) {
    let palette = Palette::of(ui);
    let side = 26.0;
    let n = dice.len() as f32;
    let (rect, response) = ui.allocate_exact_size(
        Vec2::new(n * side + (n - 1.0).max(0.0) * 5.0, side),
        Sense::hover(),
    );
    let painter = ui.painter_at(rect.expand(2.0));
    for (i, d) in dice.iter().enumerate() {
        let shown = match rolling {
            Some(t) => ((t * 17.0) as u64 + i as u64 * 5) % 6 + 1,
            None => u64::from(*d),
        };
        let r = Rect::from_min_size(
            rect.min + Vec2::new(i as f32 * (side + 5.0), 0.0),
            Vec2::splat(side),
        );
        let r = match rolling {
            Some(t) => r.translate(Vec2::new(0.0, ((t * 30.0 + i as f64).sin() * 2.0) as f32)),
            None => r,
        };
        painter.rect(
            r,
            5,
            palette.card,
            Stroke::new(1.0, Color32::BLACK),
            StrokeKind::Inside,
        );
        let q = side * 0.26;
        let c = r.center();
        let spots = crate::widgets::die_pips(shown as u8);
        for (dx, dy) in spots {
            painter.circle_filled(c + Vec2::new(dx * q, dy * q), 2.4, palette.card_ink);
        }
    }
    let label = if rolling.is_some() {
        "Dice rolling".to_string()
    } else {
        format!(
            "Dice: {}",
            dice.iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));
}
