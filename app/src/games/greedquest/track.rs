//! The twelve rooms as a track: a snake of tiles on a phone, one row on a wide screen,
//! with every seat's token and an arrow for the way it faces. A token that changes rooms
//! slides along the track, through every room between.

use crate::theme::{self, Palette, TOUCH};
use crate::widgets::motion;
use egui::{Align2, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use hoard_rules::greedquest::{Facing, Public, rooms};

/// A token on the board: whose, and which way it heads.
pub struct Token {
    pub room: u8,
    pub facing: Facing,
    pub colour: [u8; 3],
    pub me: bool,
}

pub fn tokens(public: &Public, colours: &[[u8; 3]], me: Option<u8>) -> Vec<Token> {
    public
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| Token {
            room: s.room,
            facing: s.facing,
            colour: colours.get(i).copied().unwrap_or([128, 128, 128]),
            me: me == Some(i as u8),
        })
        .collect()
}

/// Where room `n` (1-12) sits: `(column, row)` and whether "into the dungeon" points right.
fn place(n: u8, per_row: u8) -> (u8, u8, bool) {
    let i = n.clamp(1, 12) - 1;
    let row = i / per_row;
    let col = i % per_row;
    if row.is_multiple_of(2) {
        (col, row, true)
    } else {
        (per_row - 1 - col, row, false)
    }
}

/// Draws the track in the available width (`compact`: rows no taller than a finger
/// needs); returns the room tapped, if any. While the tokens move, `moving` holds the
/// rooms they left (by seat) and how far they have come (0 to 1).
pub fn show(
    ui: &mut egui::Ui,
    public: &Public,
    tokens: &[Token],
    chosen: Option<u8>,
    compact: bool,
    moving: Option<(&[u8], f32)>,
) -> Option<u8> {
    let palette = Palette::of(ui);
    let width = ui.available_width();
    // One row of 12 when each room can be at least 56 points wide, else a snake of rows.
    let per_row: u8 = if width >= 12.0 * 56.0 {
        12
    } else if width >= 6.0 * 50.0 {
        6
    } else {
        4
    };
    let rows = 12_u8.div_ceil(per_row);
    let gap = 6.0;
    let tile_w = (width - gap * f32::from(per_row - 1)) / f32::from(per_row);
    let tile_h = if compact {
        TOUCH + 4.0
    } else {
        tile_w.clamp(52.0, 84.0)
    };
    let (area, _) = ui.allocate_exact_size(
        Vec2::new(width, f32::from(rows) * tile_h + f32::from(rows - 1) * gap),
        Sense::hover(),
    );
    let mut tapped = None;
    let tile = |n: u8| -> (Rect, bool) {
        let (c, r, right) = place(n, per_row);
        let min =
            area.min + Vec2::new(f32::from(c) * (tile_w + gap), f32::from(r) * (tile_h + gap));
        (Rect::from_min_size(min, Vec2::new(tile_w, tile_h)), right)
    };
    // The path between rooms first, so tiles cover it.
    for n in 1..12u8 {
        let (a, _) = tile(n);
        let (b, _) = tile(n + 1);
        ui.painter().line_segment(
            [a.center(), b.center()],
            Stroke::new(4.0, palette.room_edge.gamma_multiply(0.5)),
        );
    }
    for n in 1..=12u8 {
        let (rect, _) = tile(n);
        let room = rooms::effects(&public.config, n);
        let response = ui.interact(rect, ui.scope_id().with(("room", n)), Sense::click());
        let name = rooms::room(n).name;
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Button, true, format!("Room {n}: {name}"))
        });
        if response.clicked() {
            tapped = Some(n);
        }
        let fill = if n == 12 {
            palette.accent.gamma_multiply(0.35)
        } else {
            palette.room
        };
        let edge = if chosen == Some(n) {
            Stroke::new(3.0, palette.accent)
        } else {
            Stroke::new(1.0, palette.room_edge)
        };
        ui.painter().rect_filled(rect, 8, fill);
        ui.painter().rect_stroke(rect, 8, edge, StrokeKind::Inside);
        ui.painter().text(
            rect.left_top() + Vec2::new(5.0, 3.0),
            Align2::LEFT_TOP,
            n.to_string(),
            FontId::proportional(15.0),
            ui.visuals().strong_text_color(),
        );
        // A small mark for a room with a rule, so players know to tap it.
        let special = room.curse_immune
            || !room.voids.is_empty()
            || room.go_bonus != 0
            || room.special != rooms::Special::None;
        if special && n != 12 {
            ui.painter().circle_filled(
                rect.right_top() + Vec2::new(-8.0, 8.0),
                3.5,
                palette.accent,
            );
        }
    }
    // Tokens over every tile, so one sliding past a room is not hidden under it: up to
    // three in a row, rows stacked under the room's number.
    let r = (tile_w / 8.0).clamp(6.0, 10.0);
    let slot = |n: u8, k: usize| -> Pos2 {
        let (rect, _) = tile(n);
        let cx = rect.left() + r + 4.0 + (k % 3) as f32 * (2.0 * r + 3.0);
        let cy = rect.top() + 24.0 + r + (k / 3) as f32 * (2.0 * r + 3.0);
        Pos2::new(
            cx.min(rect.right() - r - 2.0),
            cy.min(rect.bottom() - r - 2.0),
        )
    };
    // Seat `i`'s place when the seats stand in `rooms`.
    let place_in = |rooms: &[u8], i: usize| -> Pos2 {
        let n = rooms[i];
        slot(n, rooms[..i].iter().filter(|m| **m == n).count())
    };
    let now: Vec<u8> = tokens.iter().map(|t| t.room).collect();
    for (i, t) in tokens.iter().enumerate() {
        let end = place_in(&now, i);
        let centre = match moving {
            Some((before, p)) if before.len() == now.len() && before[i] != t.room => {
                // Along the track: through the middle of every room passed on the way.
                let from = before[i];
                let mut points = vec![place_in(before, i)];
                if from < t.room {
                    points.extend((from + 1..t.room).map(|n| tile(n).0.center()));
                } else {
                    points.extend((t.room + 1..from).rev().map(|n| tile(n).0.center()));
                }
                points.push(end);
                motion::along(&points, p)
            }
            Some((before, p)) if before.len() == now.len() => {
                // Same room, another place in it (someone else came or went).
                place_in(before, i).lerp(end, p)
            }
            _ => end,
        };
        let ring = if t.me {
            Stroke::new(2.5, ui.visuals().strong_text_color())
        } else {
            Stroke::new(1.0, ui.visuals().strong_text_color().gamma_multiply(0.6))
        };
        ui.painter()
            .circle(centre, r, theme::colour(t.colour), ring);
        // The facing: along the track towards Room 12 when heading in.
        let (_, right) = tile(t.room);
        let towards_right = match t.facing {
            Facing::In => right,
            Facing::Out => !right,
        };
        let dx = if towards_right { r * 0.9 } else { -r * 0.9 };
        ui.painter().arrow(
            centre - Vec2::new(dx * 0.7, 0.0),
            Vec2::new(dx * 1.4, 0.0),
            Stroke::new(2.0, egui::Color32::from_black_alpha(220)),
        );
    }
    tapped
}
