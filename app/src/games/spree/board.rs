//! LeGrand Mall as a player knows it from the printed board: the parking lot round the
//! edge with its 12 spaces, the darker shops (each a little card of what it sells) and the
//! lighter open floor, the thick walls, and the fountain's water in the middle; on it every
//! car and shopper in its player's colour (a shopper that moved walks there). The squares
//! I can use now take taps: the walk's reach and its path, free parking spaces, and
//! players I could shoot.

use super::{Frame, SpreeUi, seat_colour, seat_name};
use crate::theme::Palette;
use crate::widgets::motion;
use egui::{Align2, Color32, CornerRadius, FontId, Pos2, Rect, Sense, Shape, Stroke, Vec2};
use hoard_rules::Seat;
use hoard_rules::spree::Input;
use hoard_rules::spree::board::{Dir, HEIGHT, Kind, Sq, WIDTH, board};
use hoard_rules::spree::cards::{Face, face_name, rank_name};

/// The biggest a square grows (laptop), and the smallest (a small phone on its side).
const MAX_CELL: f32 = 64.0;
const MIN_CELL: f32 = 18.0;
/// A square a thumb can hit: where the mall fitted to the screen would make its squares
/// smaller (a phone upright), it is drawn at this size and the player pans it, or asks for
/// the whole mall at once.
const THUMB_CELL: f32 = 44.0;
/// Frames the panned mall is brought to a new focus square in.
const FOCUS_FRAMES: u8 = 3;

/// The board's own colours: it looks like the printed board in either theme.
const ASPHALT: Color32 = Color32::from_rgb(62, 65, 72);
const LINES: Color32 = Color32::from_rgb(232, 228, 210);
const FLOOR: Color32 = Color32::from_rgb(222, 212, 186);
const SHOP: Color32 = Color32::from_rgb(150, 116, 84);
const WALL: Color32 = Color32::from_rgb(24, 20, 18);
const WATER: Color32 = Color32::from_rgb(58, 142, 214);
const RIM: Color32 = Color32::from_rgb(190, 186, 172);
const CARD: Color32 = Color32::from_rgb(252, 250, 242);
const RED: Color32 = Color32::from_rgb(200, 30, 40);
const BLACK: Color32 = Color32::from_rgb(25, 25, 30);

/// A square as the labels name it: column letter, row number ("F3").
pub(crate) fn square_name(sq: Sq) -> String {
    format!("{}{}", char::from(b'A' + sq.x.min(25)), u32::from(sq.y) + 1)
}

/// What stands on a square, in words ("the 7♥ shop", "open floor").
pub(crate) fn kind_name(sq: Sq) -> String {
    if !sq.on_board() {
        return "off the board".into();
    }
    match board().kind(sq) {
        Kind::Lot => "parking lot".into(),
        Kind::Parking => "parking space".into(),
        Kind::Floor => "open floor".into(),
        Kind::Fountain => "the fountain".into(),
        Kind::Shop(face) => format!("the {} shop", face_name(face)),
    }
}

/// "F3, the 7 of Hearts shop".
pub(crate) fn place(sq: Sq) -> String {
    format!("{}, {}", square_name(sq), kind_name(sq))
}

/// Something on the board a tap can do.
enum Spot {
    /// Extend the path by these squares.
    Reach(Vec<Sq>),
    /// The path's `n`th square (the last walks it).
    Path(usize),
    /// Park or drive there.
    Space(Input),
    /// A player I could shoot.
    Aim(Seat),
}

/// Parking or driving at the space `sq`, in words.
pub(super) fn space_words(input: &Input, sq: Sq) -> String {
    match input {
        Input::Drive { .. } => format!("Drive to {}", square_name(sq)),
        _ => format!("Park at {}", square_name(sq)),
    }
}

impl SpreeUi {
    /// The mall, fitted to the width and `max_height`; returns an input a tap made. Where
    /// `zoom` allows (a phone's table, which scrolls) and fitted squares would be smaller
    /// than a thumb, the mall is drawn at a thumb's size to pan sideways, kept on the
    /// player's shopper (or the end of the walk being drawn) as it moves, with a button for
    /// the whole mall at once.
    pub(super) fn board(
        &mut self,
        ui: &mut egui::Ui,
        f: &Frame,
        max_height: f32,
        zoom: bool,
    ) -> Option<Input> {
        let (cols, rows) = (f32::from(WIDTH), f32::from(HEIGHT));
        let fitted = (ui.available_width() / cols)
            .min((max_height - 4.0) / rows)
            .clamp(MIN_CELL, MAX_CELL)
            .floor();
        if !zoom || fitted >= THUMB_CELL {
            return self.mall(ui, f, fitted, false);
        }
        let toggle = if self.whole_mall {
            "Zoom in"
        } else {
            "Whole mall"
        };
        let hint = if self.whole_mall {
            "The whole mall"
        } else {
            "Drag to pan the mall"
        };
        let row = Vec2::new(ui.available_width(), crate::theme::TOUCH);
        let right = egui::Layout::right_to_left(egui::Align::Center);
        ui.allocate_ui_with_layout(row, right, |ui| {
            let button =
                egui::Button::new(toggle).min_size(Vec2::new(120.0, crate::theme::TOUCH));
            if ui.add(button).clicked() {
                self.whole_mall = !self.whole_mall;
                self.focus = None;
            }
            ui.add(egui::Label::new(egui::RichText::new(hint).weak()).wrap());
        });
        if self.whole_mall {
            return self.mall(ui, f, fitted, false);
        }
        // Panned both ways in a window no taller than the page's view, so that bringing a
        // square into view (the shopper's, or one a screen reader names) is the mall's own
        // scrolling: a scroll area takes every request made inside it, whichever way.
        let view = (ui.clip_rect().height() - crate::theme::TOUCH).max(THUMB_CELL * 4.0);
        egui::ScrollArea::both()
            .id_salt("spree-mall")
            .max_height(view)
            .show(ui, |ui| self.mall(ui, f, THUMB_CELL, true))
            .inner
    }

    /// The square a zoomed-in mall keeps in view: the end of the walk being drawn, or the
    /// player's own shopper.
    fn focus_square(&self, f: &Frame) -> Option<Sq> {
        let me = f.view.me?;
        self.path
            .last()
            .copied()
            .or_else(|| f.public.pawns.get(usize::from(me)).map(|p| p.shopper))
    }

    /// The mall drawn with squares of `cell` points (`panned`: inside a scroll area, kept
    /// on [`Self::focus_square`]); returns an input a tap made.
    fn mall(&mut self, ui: &mut egui::Ui, f: &Frame, cell: f32, panned: bool) -> Option<Input> {
        let palette = Palette::of(ui);
        let (cols, rows) = (f32::from(WIDTH), f32::from(HEIGHT));
        let size = Vec2::new(cell * cols, cell * rows);
        let (grid, response) = ui.allocate_exact_size(size, Sense::click());
        let painter = ui.painter_at(grid.expand(2.0));
        let at = |sq: Sq| {
            Rect::from_min_size(
                grid.min + Vec2::new(f32::from(sq.x) * cell, f32::from(sq.y) * cell),
                Vec2::splat(cell),
            )
        };

        if panned {
            let focus = self.focus_square(f);
            if focus != self.focus {
                self.focus = focus;
                self.focus_frames = FOCUS_FRAMES;
            }
            // Asked again for a few frames: the scroll areas learn their content's size
            // only once it has been drawn.
            if let Some(sq) = focus
                && self.focus_frames > 0
            {
                self.focus_frames -= 1;
                ui.scroll_to_rect(at(sq).expand(cell), Some(egui::Align::Center));
                ui.ctx().request_repaint();
            }
        }
        for sq in hoard_rules::spree::board::Board::squares() {
            paint_square(&painter, at(sq), sq);
        }
        paint_fountain(&painter, &at, cell);

        // What a tap can do where.
        let spots = self.spots(f);
        for (sq, spot) in &spots {
            let r = at(*sq).shrink(1.0);
            let (fill, edge) = match spot {
                Spot::Reach(_) => (palette.accent.gamma_multiply(0.35), palette.accent),
                Spot::Path(_) => (palette.accent.gamma_multiply(0.5), palette.accent),
                Spot::Space(input) if self.space.as_ref() == Some(input) => {
                    (palette.good.gamma_multiply(0.85), palette.accent)
                }
                Spot::Space(_) => (palette.good.gamma_multiply(0.45), palette.good),
                Spot::Aim(_) => (Color32::TRANSPARENT, Color32::TRANSPARENT),
            };
            painter.rect(r, 3, fill, Stroke::new(2.0, edge), egui::StrokeKind::Inside);
        }
        paint_walls(&painter, &at, cell);
        self.paint_path(&painter, f, &at, cell, &palette);
        let moving = self
            .shoppers
            .before(f.now)
            .map(|(_, before)| (before.as_slice(), self.shoppers.progress(f.now)));
        paint_pieces(&painter, f, &at, cell, moving);
        // A lit square under a car or a shopper (one's own car, to score at) keeps its edge
        // over them.
        for (sq, spot) in &spots {
            let edge = match spot {
                Spot::Reach(_) | Spot::Path(_) => palette.accent,
                Spot::Space(_) => palette.good,
                Spot::Aim(_) => continue,
            };
            let r = at(*sq).shrink(1.0);
            let stroke = Stroke::new(2.0, edge);
            painter.rect_stroke(r, 3, stroke, egui::StrokeKind::Inside);
        }
        for (sq, spot) in &spots {
            if let Spot::Aim(seat) = spot {
                let c = at(*sq).center();
                let strong = self.aim == Some(*seat);
                let stroke = Stroke::new(if strong { 3.0 } else { 2.0 }, palette.warn);
                painter.circle_stroke(c, cell * 0.42, stroke);
                for d in [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y] {
                    painter.line_segment([c + d * cell * 0.3, c + d * cell * 0.52], stroke);
                }
            }
        }

        let label = describe_board(f);
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));

        // Each spot is its own button (for a precise tap and for screen readers); a tap
        // anywhere else on the board goes to the nearest spot, so a thumb need not be
        // exact on small squares.
        let id = egui::Id::unique("spree-spot");
        let mut tapped: Option<usize> = None;
        for (k, (sq, spot)) in spots.iter().enumerate() {
            let r = at(*sq);
            let spot_response = ui.interact(r, id.with(k), Sense::click());
            let label = self.spot_label(f, *sq, spot);
            spot_response
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
            if spot_response.clicked() {
                tapped = Some(k);
            }
        }
        if tapped.is_none()
            && response.clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            tapped = spots
                .iter()
                .enumerate()
                .map(|(k, (sq, _))| (k, at(*sq).center().distance(pos)))
                .filter(|(_, d)| *d <= cell * 1.1)
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(k, _)| k);
        }
        let (sq, spot) = spots.into_iter().nth(tapped?)?;
        match spot {
            Spot::Reach(more) => {
                self.path.extend(more);
                None
            }
            Spot::Path(n) if n + 1 == self.path.len() => Some(Input::Walk {
                path: self.path.clone(),
            }),
            Spot::Path(n) => {
                self.path.truncate(n + 1);
                None
            }
            // Parking or driving ends the turn (or places the car for the game): the first
            // tap chooses the space, a second tap there (or its button) goes.
            Spot::Space(input) if self.space.as_ref() == Some(&input) => Some(input),
            Spot::Space(input) => {
                self.space = Some(input);
                None
            }
            Spot::Aim(seat) => {
                self.aim = if self.aim == Some(seat) {
                    None
                } else {
                    Some(seat)
                };
                let _ = sq;
                None
            }
        }
    }

    /// Every square a tap can do something with now.
    fn spots(&self, f: &Frame) -> Vec<(Sq, Spot)> {
        let mut out: Vec<(Sq, Spot)> = Vec::new();
        for (n, sq) in self.path.iter().enumerate() {
            out.push((*sq, Spot::Path(n)));
        }
        for (sq, more) in self.reach(f) {
            if !out.iter().any(|(s, _)| *s == sq) {
                out.push((sq, Spot::Reach(more)));
            }
        }
        for input in &f.legal {
            if let Input::Park { space } | Input::Drive { to: space } = input
                && !out.iter().any(|(s, _)| s == space)
            {
                out.push((*space, Spot::Space(input.clone())));
            }
        }
        for (target, _) in f.shots() {
            if let Some(pawn) = f.public.pawns.get(usize::from(target))
                && !out.iter().any(|(s, _)| *s == pawn.shopper)
            {
                out.push((pawn.shopper, Spot::Aim(target)));
            }
        }
        out
    }

    fn spot_label(&self, f: &Frame, sq: Sq, spot: &Spot) -> String {
        match spot {
            Spot::Reach(more) => {
                let steps = self.path.len() + more.len();
                format!(
                    "Walk to {} ({steps} {})",
                    place(sq),
                    if steps == 1 { "step" } else { "steps" }
                )
            }
            Spot::Path(n) if n + 1 == self.path.len() => {
                format!("Path ends at {}: tap to go", place(sq))
            }
            Spot::Path(_) => format!("On the path: {}", place(sq)),
            Spot::Space(input) if self.space.as_ref() == Some(input) => {
                format!("{}: tap again to go", space_words(input, sq))
            }
            Spot::Space(input) => space_words(input, sq),
            Spot::Aim(seat) => format!("Aim at {}", seat_name(f.view, *seat)),
        }
    }

    /// The walk being drawn: a line from the shopper through every square of it, a dot
    /// on each step and the count at its end.
    fn paint_path(
        &self,
        painter: &egui::Painter,
        f: &Frame,
        at: &impl Fn(Sq) -> Rect,
        cell: f32,
        palette: &Palette,
    ) {
        let (Some(turn), Some(&end)) = (f.my_turn, self.path.last()) else {
            return;
        };
        let Some(pawn) = f.public.pawns.get(usize::from(turn.seat)) else {
            return;
        };
        let points: Vec<Pos2> = std::iter::once(pawn.shopper)
            .chain(self.path.iter().copied())
            .map(|sq| at(sq).center())
            .collect();
        let width = (cell * 0.16).max(3.0);
        painter.add(Shape::line(
            points.clone(),
            Stroke::new(width + 3.0, Color32::from_black_alpha(170)),
        ));
        painter.add(Shape::line(
            points.clone(),
            Stroke::new(width, palette.accent),
        ));
        for p in &points[1..] {
            painter.circle_filled(*p, width * 0.9, palette.accent);
        }
        let c = at(end).center();
        painter.circle(
            c,
            cell * 0.3,
            palette.accent,
            Stroke::new(2.0, Color32::from_black_alpha(200)),
        );
        painter.text(
            c,
            Align2::CENTER_CENTER,
            self.path.len().to_string(),
            FontId::proportional(cell * 0.36),
            Color32::from_rgb(30, 24, 10),
        );
    }
}

/// One square's ground: asphalt (with a space's white lines), the open floor, or a shop's
/// darker floor with a little card of what it sells.
fn paint_square(painter: &egui::Painter, r: Rect, sq: Sq) {
    let cell = r.width();
    match board().kind(sq) {
        Kind::Lot => {
            painter.rect_filled(r, 0, ASPHALT);
        }
        Kind::Parking => {
            painter.rect_filled(r, 0, ASPHALT);
            let box_ = r.shrink(cell * 0.1);
            painter.rect_stroke(
                box_,
                2,
                Stroke::new((cell * 0.05).max(1.0), LINES),
                egui::StrokeKind::Inside,
            );
            painter.text(
                box_.left_top() + Vec2::splat(cell * 0.06),
                Align2::LEFT_TOP,
                "P",
                FontId::proportional(cell * 0.26),
                LINES.gamma_multiply(0.7),
            );
        }
        Kind::Floor | Kind::Fountain => {
            painter.rect_filled(r, 0, FLOOR);
            // Faint tile seams.
            painter.rect_stroke(
                r,
                0,
                Stroke::new(0.5, Color32::from_black_alpha(30)),
                egui::StrokeKind::Inside,
            );
        }
        Kind::Shop(face) => {
            painter.rect_filled(r, 0, SHOP);
            paint_shop_card(painter, r, face);
        }
    }
}

/// A shop's sign: a small card with its rank over its suit, red for hearts and diamonds.
fn paint_shop_card(painter: &egui::Painter, r: Rect, face: Face) {
    let cell = r.width();
    let card = Rect::from_center_size(r.center(), Vec2::new(cell * 0.62, cell * 0.82));
    let round = CornerRadius::same((cell * 0.08).clamp(1.0, 6.0) as u8);
    painter.rect_filled(
        card.translate(Vec2::splat(cell * 0.03)),
        round,
        Color32::from_black_alpha(70),
    );
    painter.rect(
        card,
        round,
        CARD,
        Stroke::new(0.8, Color32::from_black_alpha(110)),
        egui::StrokeKind::Inside,
    );
    let ink = if face.suit.red() { RED } else { BLACK };
    let rank = rank_name(face.rank);
    let size = if rank.len() > 1 { 0.3 } else { 0.36 };
    painter.text(
        Pos2::new(card.center().x, card.top() + card.height() * 0.3),
        Align2::CENTER_CENTER,
        rank,
        FontId::proportional(cell * size),
        ink,
    );
    super::cards::paint_suit(
        painter,
        Pos2::new(card.center().x, card.top() + card.height() * 0.72),
        cell * 0.26,
        face.suit,
        ink,
    );
}

/// The fountain's two squares as one pool of water in a stone rim.
fn paint_fountain(painter: &egui::Painter, at: &impl Fn(Sq) -> Rect, cell: f32) {
    let squares: Vec<Sq> = hoard_rules::spree::board::Board::squares()
        .filter(|s| board().kind(*s) == Kind::Fountain)
        .collect();
    let Some(first) = squares.first() else {
        return;
    };
    let pool = squares.iter().fold(at(*first), |r, s| r.union(at(*s)));
    let basin = pool.shrink(cell * 0.08);
    let round = CornerRadius::same((cell * 0.4).min(40.0) as u8);
    painter.rect(
        basin,
        round,
        WATER,
        Stroke::new((cell * 0.1).max(2.0), RIM),
        egui::StrokeKind::Inside,
    );
    // Ripples round the jet in the middle.
    let c = basin.center();
    for k in 1..=3 {
        let radius = cell * 0.12 * k as f32;
        painter.circle_stroke(
            c,
            radius,
            Stroke::new(1.2, Color32::from_white_alpha(150 - 35 * k)),
        );
    }
    painter.circle_filled(c, cell * 0.06, Color32::WHITE);
}

/// Every wall as a thick black line on the side of the square it bounds.
fn paint_walls(painter: &egui::Painter, at: &impl Fn(Sq) -> Rect, cell: f32) {
    let stroke = Stroke::new((cell * 0.11).max(2.0), WALL);
    let b = board();
    for sq in hoard_rules::spree::board::Board::squares() {
        let r = at(sq);
        for dir in Dir::ALL {
            if !b.wall(sq, dir) {
                continue;
            }
            // Each inner wall is written on both squares: draw it from one side only.
            let inner = sq.step(dir).is_some();
            if inner && matches!(dir, Dir::W | Dir::N) {
                continue;
            }
            let half = stroke.width / 2.0;
            let (a, z) = match dir {
                Dir::N => (r.left_top(), r.right_top()),
                Dir::S => (r.left_bottom(), r.right_bottom()),
                Dir::W => (r.left_top(), r.left_bottom()),
                Dir::E => (r.right_top(), r.right_bottom()),
            };
            // Stretch along the wall so corners close.
            let along = (z - a).normalized() * half;
            // The outer edge's walls sit just inside the board.
            let inward = if inner {
                Vec2::ZERO
            } else {
                match dir {
                    Dir::N => Vec2::new(0.0, half),
                    Dir::S => Vec2::new(0.0, -half),
                    Dir::W => Vec2::new(half, 0.0),
                    Dir::E => Vec2::new(-half, 0.0),
                }
            };
            painter.line_segment([a - along + inward, z + along + inward], stroke);
        }
    }
}

/// Cars first, then shoppers on top; players on one square share it side by side. While
/// shoppers move, `moving` holds the squares they left (by seat) and how far they have come
/// (0 to 1): each walks the shortest way there.
fn paint_pieces(
    painter: &egui::Painter,
    f: &Frame,
    at: &impl Fn(Sq) -> Rect,
    cell: f32,
    moving: Option<(&[Sq], f32)>,
) {
    let pawns = &f.public.pawns;
    let turn_seat = f.public.turn().map(|t| t.seat);
    for (i, pawn) in pawns.iter().enumerate() {
        let Some(car) = pawn.car else { continue };
        if !car.on_board() {
            continue;
        }
        let sharing: Vec<usize> = pawns
            .iter()
            .enumerate()
            .filter(|(_, p)| p.car == Some(car))
            .map(|(k, _)| k)
            .collect();
        let k = sharing.iter().position(|s| *s == i).unwrap_or(0);
        let r = at(car);
        let shift = if sharing.len() > 1 {
            Vec2::new(
                0.0,
                (k as f32 - (sharing.len() - 1) as f32 / 2.0) * cell * 0.3,
            )
        } else {
            Vec2::ZERO
        };
        let centre = r.center() + Vec2::new(0.0, cell * 0.12) + shift;
        let colour = seat_colour(f.view, i as Seat);
        paint_car(painter, centre, cell, colour, pawn.in_car);
    }
    for (i, pawn) in pawns.iter().enumerate() {
        if pawn.in_car || !pawn.shopper.on_board() || pawn.car.is_none() {
            continue;
        }
        let here: Vec<usize> = pawns
            .iter()
            .enumerate()
            .filter(|(_, p)| p.shopper == pawn.shopper && !p.in_car && p.car.is_some())
            .map(|(k, _)| k)
            .collect();
        let k = here.iter().position(|s| *s == i).unwrap_or(0);
        let r = at(pawn.shopper);
        let car_here = pawns.iter().any(|p| p.car == Some(pawn.shopper));
        let (centre, scale) = match here.len() {
            // Beside a car, the shopper stands at its top edge.
            1 if car_here => (r.center() - Vec2::new(0.0, cell * 0.2), 0.62),
            1 => (r.center(), 0.8),
            n => {
                let per = if n <= 4 { 2 } else { 3 };
                let step = cell / per as f32;
                let (cx, cy) = ((k % per) as f32, (k / per) as f32);
                (
                    r.min + Vec2::new((cx + 0.5) * step, (cy + 0.5) * step),
                    0.95 / per as f32,
                )
            }
        };
        let from = moving.and_then(|(before, p)| Some((*before.get(i)?, p)));
        let centre = match from {
            Some((from, p)) if from != pawn.shopper && from.on_board() => {
                let mut points: Vec<Pos2> = route(from, pawn.shopper)
                    .into_iter()
                    .map(|sq| at(sq).center())
                    .collect();
                if let Some(last) = points.last_mut() {
                    *last = centre;
                }
                motion::along(&points, p)
            }
            _ => centre,
        };
        let colour = seat_colour(f.view, i as Seat);
        paint_shopper(
            painter,
            centre,
            cell * scale,
            colour,
            pawn.lying,
            turn_seat == Some(i as Seat),
        );
    }
}

/// The squares of a shortest walk from `from` to `to`, both included; the two alone when
/// no walk joins them (a push or a drive may have carried the shopper).
fn route(from: Sq, to: Sq) -> Vec<Sq> {
    let b = board();
    let mut back = vec![to];
    let mut at = to;
    let mut left = b.distance(from, to);
    if left == u8::MAX {
        return vec![from, to];
    }
    while left > 0 {
        let Some(next) = Dir::ALL
            .iter()
            .filter_map(|d| b.walk(at, *d))
            .find(|n| b.distance(from, *n) == left - 1)
        else {
            return vec![from, to];
        };
        back.push(next);
        at = next;
        left -= 1;
    }
    back.reverse();
    back
}

/// A little car seen from the side, in its player's colour; a head at the wheel when
/// its driver sits in it.
fn paint_car(painter: &egui::Painter, c: Pos2, cell: f32, colour: Color32, driver: bool) {
    let w = cell * 0.84;
    let h = cell * 0.3;
    let body = Rect::from_center_size(c, Vec2::new(w, h));
    let cabin = Rect::from_min_max(
        Pos2::new(body.left() + w * 0.22, body.top() - h * 0.65),
        Pos2::new(body.right() - w * 0.24, body.top() + 1.0),
    );
    let outline = Stroke::new(1.0, Color32::from_black_alpha(220));
    let round = CornerRadius::same((h * 0.4) as u8);
    painter.rect(cabin, round, colour, outline, egui::StrokeKind::Inside);
    let glass = cabin.shrink2(Vec2::new(cabin.width() * 0.12, cabin.height() * 0.2));
    painter.rect_filled(glass, 2, Color32::from_rgb(190, 220, 235));
    if driver {
        painter.circle(
            Pos2::new(glass.center().x, glass.center().y),
            glass.height() * 0.42,
            colour,
            Stroke::new(1.0, Color32::BLACK),
        );
    }
    painter.rect(body, round, colour, outline, egui::StrokeKind::Inside);
    for x in [body.left() + w * 0.22, body.right() - w * 0.22] {
        painter.circle(
            Pos2::new(x, body.bottom()),
            h * 0.34,
            Color32::from_rgb(20, 20, 22),
            Stroke::new(1.0, Color32::from_gray(120)),
        );
    }
}

/// A pawn: a head on a bell-shaped body on a round base, in its player's colour; on its
/// side and greyed when it has fallen over. The player whose turn it is gets a light ring.
fn paint_shopper(
    painter: &egui::Painter,
    c: Pos2,
    size: f32,
    colour: Color32,
    lying: bool,
    to_play: bool,
) {
    // The pawn is drawn along `up`; lying, `up` points sideways.
    let (up, side) = if lying {
        (Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0))
    } else {
        (Vec2::new(0.0, -1.0), Vec2::new(1.0, 0.0))
    };
    let fill = if lying {
        colour.lerp_to_gamma(Color32::from_gray(120), 0.55)
    } else {
        colour
    };
    let outline = Stroke::new(
        (size * 0.06).clamp(1.0, 2.0),
        Color32::from_black_alpha(230),
    );
    let h = size * 0.9;
    let base = c - up * (h * 0.42);
    if to_play && !lying {
        painter.circle_stroke(c, size * 0.52, Stroke::new(2.0, Color32::WHITE));
    }
    let p = |u: f32, s: f32| base + up * (u * h) + side * (s * h);
    let body = vec![
        p(0.0, -0.28),
        p(0.0, 0.28),
        p(0.12, 0.22),
        p(0.55, 0.1),
        p(0.55, -0.1),
        p(0.12, -0.22),
    ];
    painter.add(Shape::convex_polygon(body, fill, outline));
    painter.circle(p(0.7, 0.0), h * 0.17, fill, outline);
}

/// The board in words: where every car and shopper is.
fn describe_board(f: &Frame) -> String {
    let mut parts = Vec::new();
    for (i, pawn) in f.public.pawns.iter().enumerate() {
        let Some(car) = pawn.car else { continue };
        let name = seat_name(f.view, i as Seat);
        let shopper = if pawn.in_car {
            "in the car".to_string()
        } else if pawn.at_car() {
            "at the car".to_string()
        } else {
            format!("at {}", place(pawn.shopper))
        };
        let lying = if pawn.lying { ", lying down" } else { "" };
        parts.push(format!(
            "{name}'s car at {}, {name} {shopper}{lying}",
            square_name(car)
        ));
    }
    if parts.is_empty() {
        "The mall: no cars parked yet".into()
    } else {
        format!("The mall: {}", parts.join("; "))
    }
}
