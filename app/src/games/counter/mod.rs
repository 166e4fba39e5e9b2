//! Counter's table, laid out like one: the other seats round the top (the name in the
//! seat's colour, the score, the hand as a small fan of backs, whose turn lit), the deck and
//! the discard pile in the middle with a reaction window's exchange laid over the pile, and
//! my hand as big cards at the bottom, within a thumb's reach, under the prompt and above
//! the moves. On my turn a tapped card can be played or given; in a reaction window a
//! banner asks whether to counter and counts down, the cards that can counter glow and one
//! tap on such a card counters, and "Let it stand" answers nothing (the device answers so
//! by itself when the window ends). A card that comes face up in the middle turns over.

use crate::games::{GameScreen, InFlight, Table, TableFrame, is_you, seat_name};
use crate::net::GameView;
use crate::rules_ref::RulesPage;
use crate::theme::{self, Palette, TOUCH};
use crate::widgets;
use crate::widgets::motion::{self, Change};
use egui::text::{LayoutJob, TextWrapping};
use egui::{
    Align2, Button, Color32, CornerRadius, FontId, Pos2, Rect, RichText, Sense, Stroke,
    StrokeKind, Vec2,
};
use hoard_rules::counter::{Config, Counter, HAND_LIMIT, Input, Phase, Private, Public, number};
use hoard_rules::{CardId, Handle, Seat};
use std::sync::Arc;

/// The game's rules reference, in the app's "How to play".
pub const RULES: RulesPage = RulesPage {
    title: "Counter",
    players: "2 to 6 players",
    pitch: "Play numbers to score; anyone holding the same number can stop you.",
    sections: &[
        (
            "The deck",
            "24 cards, the numbers 1 to 6, four of each, shuffled so that nobody knows the \
             order. Everyone gets 3 cards nobody else sees.",
        ),
        (
            "A turn",
            "Play a card face up, give a card face down to another player and draw two, \
             draw one, or wait. You hold at most 5 cards.",
        ),
        (
            "Counters",
            "When a card is played, everyone else may answer at once, in secret, with a card \
             of the same number. The first after the player in turn order counters it, and \
             the counter can be countered in turn. The last card laid stands: a play scores \
             its number, a counter scores 1. A counter that came too late stays in its \
             player's hand, unseen.",
        ),
        (
            "The end",
            "First to 10 points wins at once; otherwise the best score after 30 turns.",
        ),
    ],
};

/// The game's screen, by the name every game's screen module gives it.
pub type Screen = CounterUi;

/// Widest the table grows on a laptop (points): wider, the cards would drift apart.
const TABLE_WIDTH: f32 = 880.0;
/// Space between cards, seats and buttons.
const GAP: f32 = 8.0;
/// How far a chosen card rises out of the hand (the room is kept free above the hand).
const LIFT: f32 = 10.0;
/// A seat's place at the top of the table.
const SEAT_HEIGHT: f32 = 84.0;
const SEAT_MAX_WIDTH: f32 = 190.0;
/// The biggest card of the hand and of the middle of the table.
const HAND_CARD_MAX: f32 = 112.0;
const TABLE_CARD_MAX: f32 = 92.0;
/// A card is this many times as tall as it is wide.
const CARD_RATIO: f32 = 1.4;
/// The widest move button.
const MOVE_MAX_WIDTH: f32 = 240.0;

#[derive(Default)]
pub struct CounterUi {
    /// The card of my hand last tapped on my turn.
    picked: Option<Handle>,
    /// The table my last input was sent from: nothing more is offered until it changes.
    sent_at: InFlight<Public>,
    /// The longest countdown seen in the reaction window under way: the bar's full length.
    window_from: Option<u64>,
    /// The cards face up in the middle (an exchange's, and how many are discarded), and
    /// the turn of the one that came last.
    face_up: Change<(Vec<(Seat, CardId)>, usize)>,
}

/// How far the card that just came face up in the middle has turned (0 to 1), by place.
#[derive(Clone, Copy, Default)]
struct Turning {
    /// The exchange's newest card.
    laid: Option<f32>,
    /// The top of the discard pile, when it went there straight from a hand.
    discard: Option<f32>,
}

impl CounterUi {
    /// Notes the cards that came face up in the middle, so the newest turns over.
    fn watch_face_up(&mut self, ui: &egui::Ui, public: &Public, frame: TableFrame) -> Turning {
        let laid = match &public.phase {
            Phase::Window { laid, .. } => laid.clone(),
            _ => Vec::new(),
        };
        let discarded = public.discard.len();
        self.face_up
            .follow(&(laid.clone(), discarded), frame, motion::FLIP);
        self.face_up.repaint(ui.ctx(), frame.now);
        let Some((laid_before, discarded_before)) = self.face_up.before(frame.now) else {
            return Turning::default();
        };
        let t = self.face_up.linear(frame.now);
        Turning {
            laid: (laid.len() > laid_before.len()).then_some(t),
            // A card seen in the exchange is not turned again on its way to the pile.
            discard: (discarded > *discarded_before && laid_before.is_empty()).then_some(t),
        }
    }
}

/// A seat as the subject of a sentence: "You" for mine.
fn who(view: &GameView, seat: Seat) -> String {
    if is_you(view, seat) {
        "You".into()
    } else {
        seat_name(view, seat)
    }
}

fn seat_colour(view: &GameView, seat: Seat) -> Color32 {
    theme::colour(
        view.seats
            .get(usize::from(seat))
            .map_or([128; 3], |s| s.colour),
    )
}

/// "Ann", "Ann and Bo", "Ann, Bo and Cy".
fn join_names(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Black or white, whichever reads better on `ground` (a yellow seat takes black).
fn ink_on(ground: Color32) -> Color32 {
    let [r, g, b, _] = ground.to_array();
    let luma = 0.299 * f32::from(r) + 0.587 * f32::from(g) + 0.114 * f32::from(b);
    if luma > 150.0 {
        Color32::from_rgb(25, 22, 18)
    } else {
        Color32::WHITE
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

/// What the last card laid in an exchange was: "Ben played a 5", "You countered with a 5".
fn laid_words(view: &GameView, laid: &[(Seat, CardId)], i: usize) -> String {
    let Some(&(seat, card)) = laid.get(i) else {
        return String::new();
    };
    let verb = if i == 0 {
        "played"
    } else {
        "countered with"
    };
    format!("{} {verb} a {}", who(view, seat), number(card))
}

fn card_round(rect: Rect) -> CornerRadius {
    CornerRadius::same((rect.width() * 0.1).clamp(3.0, 10.0) as u8)
}

/// A card's back: the deck's red with a gold frame and diamond.
fn paint_back(painter: &egui::Painter, palette: &Palette, rect: Rect) {
    let round = card_round(rect);
    painter.rect_filled(
        rect.translate(Vec2::new(1.0, 1.5)),
        round,
        Color32::from_black_alpha(50),
    );
    painter.rect(
        rect,
        round,
        palette.card_back,
        Stroke::new(1.0, Color32::from_black_alpha(120)),
        StrokeKind::Inside,
    );
    let inner = rect.shrink((rect.width() * 0.12).clamp(2.0, 8.0));
    if inner.width() > 6.0 {
        painter.rect_stroke(
            inner,
            round,
            Stroke::new(1.0, palette.card_back_pattern),
            StrokeKind::Inside,
        );
        let c = inner.center();
        let r = inner.width().min(inner.height()) * 0.3;
        painter.add(egui::Shape::convex_polygon(
            vec![
                Pos2::new(c.x, c.y - r),
                Pos2::new(c.x + r * 0.7, c.y),
                Pos2::new(c.x, c.y + r),
                Pos2::new(c.x - r * 0.7, c.y),
            ],
            palette.card_back_pattern.gamma_multiply(0.8),
            Stroke::NONE,
        ));
    }
}

/// A card's face: its number large in the middle and small in two corners. `band`, when
/// given, is a strip along the top in a seat's colour with its name (the exchange).
fn paint_face(
    painter: &egui::Painter,
    palette: &Palette,
    rect: Rect,
    n: u8,
    dim: bool,
    band: Option<(Color32, &str)>,
) {
    let fade = |c: Color32| if dim { c.gamma_multiply(0.5) } else { c };
    let round = card_round(rect);
    painter.rect_filled(
        rect.translate(Vec2::new(1.0, 2.0)),
        round,
        Color32::from_black_alpha(60),
    );
    painter.rect(
        rect,
        round,
        fade(palette.card),
        Stroke::new(1.0, Color32::from_black_alpha(120)),
        StrokeKind::Inside,
    );
    let w = rect.width();
    if w < 16.0 {
        // Turned almost edge on: too thin for any writing.
        return;
    }
    let ink = fade(palette.card_ink);
    let mut top = rect.top();
    if let Some((colour, name)) = band {
        let h = (rect.height() * 0.2).clamp(16.0, 22.0);
        let strip = Rect::from_min_size(rect.min, Vec2::new(w, h));
        painter.rect_filled(
            strip,
            CornerRadius {
                nw: round.nw,
                ne: round.ne,
                sw: 0,
                se: 0,
            },
            colour,
        );
        let text = one_line(painter, name, (h * 0.68).min(14.0), ink_on(colour), w - 8.0);
        let at = Pos2::new(strip.left() + 4.0, strip.center().y - text.size().y / 2.0);
        painter.galley(at, text, ink_on(colour));
        top = strip.bottom();
    }
    let body = Rect::from_min_max(Pos2::new(rect.left(), top), rect.max);
    painter.text(
        body.center(),
        Align2::CENTER_CENTER,
        n.to_string(),
        FontId::proportional((w * 0.55).min(body.height() * 0.6)),
        ink,
    );
    let corner = FontId::proportional((w * 0.2).clamp(10.0, 18.0));
    let pad = (w * 0.07).clamp(3.0, 7.0);
    if band.is_none() {
        painter.text(
            rect.left_top() + Vec2::splat(pad),
            Align2::LEFT_TOP,
            n.to_string(),
            corner.clone(),
            ink,
        );
    }
    painter.text(
        rect.right_bottom() - Vec2::splat(pad),
        Align2::RIGHT_BOTTOM,
        n.to_string(),
        corner,
        ink,
    );
}

/// An empty place on the table: a faint outline.
fn paint_empty(painter: &egui::Painter, palette: &Palette, rect: Rect) {
    painter.rect_stroke(
        rect.shrink(1.0),
        card_round(rect),
        Stroke::new(1.5, palette.muted.gamma_multiply(0.6)),
        StrokeKind::Inside,
    );
}

/// A button of the moves row, `width` wide and finger high.
fn move_button(ui: &mut egui::Ui, width: f32, text: &str, primary: bool) -> egui::Response {
    let palette = Palette::of(ui);
    let mut label = RichText::new(text).size(19.0);
    let mut button = Button::new(label.clone()).truncate();
    if primary {
        label = label.strong().color(Color32::from_rgb(30, 24, 10));
        button = Button::new(label).truncate().fill(palette.accent);
    }
    ui.add_sized(Vec2::new(width, TOUCH + 4.0), button)
}

/// One row of moves sharing the width; returns the one tapped.
fn moves_row(ui: &mut egui::Ui, moves: &[(String, Input, bool)]) -> Option<Input> {
    if moves.is_empty() {
        return None;
    }
    let n = moves.len() as f32;
    let w = ((ui.available_width() - GAP * (n - 1.0)) / n)
        .min(MOVE_MAX_WIDTH)
        .floor();
    let used = w * n + GAP * (n - 1.0);
    let mut tapped = None;
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = GAP;
        ui.add_space(((ui.available_width() - used) / 2.0).max(0.0).floor());
        for (text, input, primary) in moves {
            if move_button(ui, w, text, *primary).clicked() {
                tapped = Some(*input);
            }
        }
    });
    tapped
}

impl GameScreen for CounterUi {
    type Game = Counter;

    fn in_flight(&mut self) -> &mut InFlight<Public> {
        &mut self.sent_at
    }

    fn options(&mut self, ui: &mut egui::Ui, c: &Config, host: bool) -> Option<Config> {
        ui.label(format!(
            "First to {} points, or the best after {} turns",
            c.target, c.turns
        ));
        let mut next = c.clone();
        // The reaction window is a table setting: the host picks it for everyone.
        if let Some(window) = crate::widgets::window_choice(ui, "Time to counter:", c.window, host) {
            next.window = window;
        }
        Some(next)
    }

    fn summary(&self, t: &Table<'_, Counter>) -> Vec<String> {
        let (view, public) = (t.view, t.public);
        (0..public.config.seats)
            .map(|s| {
                format!(
                    "{}: {} points",
                    seat_name(view, s),
                    public.scores[usize::from(s)]
                )
            })
            .collect()
    }

    fn table(
        &mut self,
        ui: &mut egui::Ui,
        t: &Table<'_, Counter>,
        frame: TableFrame,
    ) -> Option<Input> {
        let (view, public, private, legal) = (t.view, t.public, t.private, &t.legal);
        if self.picked.is_some_and(|h| picked_moves(legal, h).is_empty()) {
            self.picked = None;
        }
        self.window_from = view
            .reaction_left_ms
            .map(|ms| self.window_from.unwrap_or(0).max(ms));
        let turning = self.watch_face_up(ui, public, frame);

        let mut chosen = None;
        if frame.screen {
            // The room's screen: every seat and the middle of the table, which the screen
            // magnifies; its own column says whose turn it is and what was played.
            // Narrow, the seats two to a row: about as wide for its height as the screen.
            widgets::column(ui, 480.0, |ui| {
                seats_row(ui, view, public, 2);
                ui.add_space(4.0);
                middle(ui, view, public, turning);
            });
            return None;
        }
        let mut hand_and_moves = |ui: &mut egui::Ui| {
            widgets::column(ui, TABLE_WIDTH, |ui| {
                if let Some(input) = self.hand_and_moves(ui, view, public, private, legal) {
                    self.picked = None;
                    chosen = Some(input);
                }
            });
        };
        let window = ui.ctx().content_rect().size();
        if window.x > window.y && window.y < SHORT {
            // A phone on its side: the prompt, the hand and the moves beside the table, not
            // under it, where they would leave the table no height.
            let w = ui.available_width();
            egui::Panel::right("counter-hand")
                .exact_size((w * 0.5).floor())
                .resizable(false)
                .frame(egui::Frame::new().inner_margin(egui::Margin::symmetric(6, 0)))
                .show(ui, |ui| {
                    egui::ScrollArea::vertical()
                        .id_salt("counter-hand")
                        .auto_shrink([false, false])
                        .show(ui, |ui| hand_and_moves(ui));
                });
        } else {
            // The prompt, the hand and the moves stay at the bottom, within reach of a thumb.
            egui::Panel::bottom("counter-hand")
                .frame(egui::Frame::new().inner_margin(egui::Margin::symmetric(0, 6)))
                .show(ui, |ui| hand_and_moves(ui));
        }
        egui::ScrollArea::vertical()
            .id_salt("counter-table")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                widgets::column(ui, TABLE_WIDTH, |ui| {
                    seats_row(ui, view, public, usize::MAX);
                    ui.add_space(4.0);
                    middle(ui, view, public, turning);
                });
            });
        chosen
    }
}

/// Below this height (points), on a screen wider than tall, the hand moves beside the table.
const SHORT: f32 = 520.0;

/// The moves the rules allow with the card `h` of my hand (play it, give it).
fn picked_moves(legal: &[Input], h: Handle) -> Vec<Input> {
    legal
        .iter()
        .copied()
        .filter(|i| matches!(i, Input::Play { card, .. } | Input::Give { card, .. } if *card == h))
        .collect()
}

/// The seats other than mine, side by side across the top, centred.
/// At most `per_row` to a row.
fn seats_row(ui: &mut egui::Ui, view: &GameView, public: &Public, per_row: usize) {
    let others: Vec<Seat> = (0..public.config.seats)
        .filter(|s| view.me != Some(*s))
        .collect();
    let per_row = per_row.clamp(1, others.len().max(1));
    let n = per_row as f32;
    let avail = ui.available_width();
    let w = ((avail - GAP * (n - 1.0)) / n).min(SEAT_MAX_WIDTH).floor();
    for row in others.chunks(per_row) {
        let used = w * row.len() as f32 + GAP * (row.len() as f32 - 1.0);
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = GAP;
            ui.add_space(((avail - used) / 2.0).max(0.0).floor());
            for seat in row {
                seat_place(ui, view, public, *seat, Vec2::new(w, SEAT_HEIGHT));
            }
        });
    }
}

/// One seat's place: its name on its colour, its score, its hand as a fan of backs, and
/// what it is doing; lit while it is to play.
fn seat_place(ui: &mut egui::Ui, view: &GameView, public: &Public, seat: Seat, size: Vec2) {
    let palette = Palette::of(ui);
    let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
    let painter = ui.painter_at(rect);
    let i = usize::from(seat);
    let name = seat_name(view, seat);
    let score = public.scores.get(i).copied().unwrap_or(0);
    let cards = public.hands.get(i).map_or(0, Vec::len);
    let info = view.seats.get(i);
    let to_play = matches!(public.phase, Phase::Turn { seat: s } if s == seat);
    let (status, status_colour) = match &public.phase {
        _ if info.is_some_and(|s| !s.connected) => ("away", palette.warn),
        Phase::Turn { seat: s } if *s == seat => ("to play", palette.accent),
        Phase::Draw { seat: s, .. } if *s == seat => ("drawing", palette.muted),
        Phase::Window { seats, .. } if seats.contains(&seat) => {
            if info.is_some_and(|s| s.committed) {
                ("answered", palette.good)
            } else {
                ("answering…", palette.muted)
            }
        }
        _ => ("", palette.muted),
    };

    let ground = ui.visuals().extreme_bg_color;
    let edge = if to_play {
        Stroke::new(3.0, palette.accent)
    } else {
        Stroke::new(1.0, palette.muted.gamma_multiply(0.5))
    };
    painter.rect(rect.shrink(1.0), 12, ground, edge, StrokeKind::Inside);

    let pad = 7.0;
    let inner_w = rect.width() - 2.0 * pad;
    let colour = seat_colour(view, seat);
    let chip = Rect::from_min_size(rect.min + Vec2::splat(pad), Vec2::new(inner_w, 24.0));
    painter.rect_filled(chip, 12, colour);
    let text = one_line(&painter, &name, 15.0, ink_on(colour), inner_w - 12.0);
    painter.galley(
        Pos2::new(chip.left() + 6.0, chip.center().y - text.size().y / 2.0),
        text,
        ink_on(colour),
    );

    let strong = ui.visuals().strong_text_color();
    let points = if score == 1 { "pt" } else { "pts" };
    let text = one_line(&painter, &format!("{score} {points}"), 17.0, strong, inner_w);
    let score_top = chip.bottom() + 4.0;
    painter.galley(Pos2::new(rect.left() + pad, score_top), text, strong);

    // The hand: a fan of small backs, one for each card held.
    let fan_top = score_top + 22.0;
    let back = Vec2::new(14.0, 20.0);
    let shown = cards.min(HAND_LIMIT);
    if shown == 0 {
        let text = one_line(&painter, "no cards", 13.0, palette.muted, inner_w);
        painter.galley(Pos2::new(rect.left() + pad, fan_top + 3.0), text, palette.muted);
    }
    for k in 0..shown {
        let mid = (shown as f32 - 1.0) / 2.0;
        let rise = ((k as f32 - mid).abs() * 1.5).round();
        let at = Pos2::new(rect.left() + pad + k as f32 * 7.0, fan_top + rise);
        paint_back(&painter, &palette, Rect::from_min_size(at, back));
    }

    // What the seat is doing, beside the fan where there is room (the border says whose
    // turn it is on the narrowest places).
    let fan_right = rect.left() + pad + 14.0 + 7.0 * (HAND_LIMIT as f32 - 1.0) + 8.0;
    if !status.is_empty() && rect.right() - pad - fan_right >= 48.0 {
        let text = one_line(&painter, status, 13.0, status_colour, rect.right() - pad - fan_right);
        let at = Pos2::new(fan_right, fan_top + 10.0 - text.size().y / 2.0);
        painter.galley(at, text, status_colour);
    }

    let mut label = format!(
        "{name}: {score} {}, {cards} {} in hand",
        if score == 1 { "point" } else { "points" },
        if cards == 1 { "card" } else { "cards" }
    );
    if !status.is_empty() {
        label.push_str(&format!(", {status}"));
    }
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));
}

/// The middle of the table: the deck, the discard pile, and a reaction window's exchange;
/// a card that has just come face up there turns over.
fn middle(ui: &mut egui::Ui, view: &GameView, public: &Public, turning: Turning) {
    let palette = Palette::of(ui);
    egui::Frame::new()
        .fill(palette.felt)
        .corner_radius(14)
        .inner_margin(10)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            let cw = (ui.available_width() * 0.17).clamp(52.0, TABLE_CARD_MAX).floor();
            let size = Vec2::new(cw, (cw * CARD_RATIO).round());
            ui.horizontal_top(|ui| {
                ui.spacing_mut().item_spacing.x = 14.0;
                let left = public.deck.left();
                pile(
                    ui,
                    size,
                    |painter, rect| {
                        if left == 0 {
                            paint_empty(painter, &palette, rect);
                        } else {
                            paint_back(painter, &palette, rect);
                            let r = (rect.width() * 0.22).min(16.0);
                            painter.circle(
                                rect.center(),
                                r,
                                palette.card_back,
                                Stroke::new(1.5, palette.card_back_pattern),
                            );
                            painter.text(
                                rect.center(),
                                Align2::CENTER_CENTER,
                                left.to_string(),
                                FontId::proportional(r * 1.1),
                                Color32::WHITE,
                            );
                        }
                    },
                    &format!("Deck: {left} {}", if left == 1 { "card" } else { "cards" }),
                    &format!("{left} in the deck"),
                );
                let top = public.discard.last().map(|c| number(*c));
                let count = public.discard.len();
                let label = match top {
                    Some(n) => format!("Discard pile: {count} cards, a {n} on top"),
                    None => "Discard pile: empty".into(),
                };
                pile(
                    ui,
                    size,
                    |painter, rect| match top {
                        Some(n) => {
                            let (rect, face) = motion::flip(rect, turning.discard.unwrap_or(1.0));
                            if face {
                                paint_face(painter, &palette, rect, n, false, None);
                            } else {
                                paint_back(painter, &palette, rect);
                            }
                        }
                        None => paint_empty(painter, &palette, rect),
                    },
                    &label,
                    &format!("{count} discarded"),
                );
                if let Phase::Window { laid, .. } = &public.phase {
                    exchange(ui, view, laid, size, turning.laid);
                }
            });
        });
}

/// A pile in the middle: its top in a card's place, and a line under it.
fn pile(
    ui: &mut egui::Ui,
    size: Vec2,
    paint: impl FnOnce(&egui::Painter, Rect),
    label: &str,
    caption: &str,
) {
    ui.vertical(|ui| {
        ui.set_width(size.x);
        ui.spacing_mut().item_spacing.y = 4.0;
        let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
        paint(&ui.painter_at(rect.expand(3.0)), rect);
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, label));
        ui.add(
            egui::Label::new(
                RichText::new(caption)
                    .small()
                    .color(Palette::of(ui).muted),
            )
            .wrap(),
        );
    });
}

/// The cards laid in the window, the play first, each a step down and right of the one it
/// answers, with the name of who laid it on its band; the last, the one to answer, lit (and
/// turning over, `turn` of the way, when it has just been laid).
fn exchange(
    ui: &mut egui::Ui,
    view: &GameView,
    laid: &[(Seat, CardId)],
    card: Vec2,
    turn: Option<f32>,
) {
    let palette = Palette::of(ui);
    let k = laid.len().max(1) as f32;
    let room = ui.available_width();
    let step_y = (card.y * 0.2).clamp(16.0, 22.0);
    let step_x = ((room - card.x) / (k - 1.0).max(1.0)).clamp(0.0, card.x * 0.32);
    let size = Vec2::new(card.x + step_x * (k - 1.0), card.y + step_y * (k - 1.0));
    ui.vertical(|ui| {
        ui.set_width(size.x);
        let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
        let painter = ui.painter_at(rect.expand(3.0));
        for (i, (seat, c)) in laid.iter().enumerate() {
            let at = rect.min + Vec2::new(step_x * i as f32, step_y * i as f32);
            let last = i + 1 == laid.len();
            let (r, face) = motion::flip(
                Rect::from_min_size(at, card),
                if last { turn.unwrap_or(1.0) } else { 1.0 },
            );
            let name = who(view, *seat);
            if !face {
                paint_back(&painter, &palette, r);
                continue;
            }
            paint_face(
                &painter,
                &palette,
                r,
                number(*c),
                false,
                Some((seat_colour(view, *seat), &name)),
            );
            if last {
                painter.rect_stroke(
                    r.expand(1.5),
                    card_round(r),
                    Stroke::new(2.5, palette.accent),
                    StrokeKind::Outside,
                );
            }
        }
        let words: Vec<String> = (0..laid.len()).map(|i| laid_words(view, laid, i)).collect();
        let label = format!("The exchange: {}", words.join(", then "));
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));
    });
}

impl CounterUi {
    /// The prompt, my hand and the moves; returns the move made.
    fn hand_and_moves(
        &mut self,
        ui: &mut egui::Ui,
        view: &GameView,
        public: &Public,
        private: Option<&Private>,
        legal: &[Input],
    ) -> Option<Input> {
        let palette = Palette::of(ui);
        let Some(me) = view.me else {
            ui.label(RichText::new("You are watching this game.").color(palette.muted));
            return None;
        };
        ui.spacing_mut().item_spacing.y = 6.0;
        self.prompt(ui, view, public, me, legal);

        let i = usize::from(me);
        let score = public.scores.get(i).copied().unwrap_or(0);
        ui.horizontal(|ui| {
            let to_play = matches!(public.phase, Phase::Turn { seat } if seat == me);
            let colour = view.seats.get(i).map_or([128; 3], |s| s.colour);
            let name = if is_you(view, me) {
                format!("{} (you)", seat_name(view, me))
            } else {
                seat_name(view, me)
            };
            widgets::seat_chip(ui, &name, colour, to_play);
            ui.label(
                RichText::new(format!(
                    "{score} {}",
                    if score == 1 { "point" } else { "points" }
                ))
                .strong(),
            );
            let turn = if public.turns > 0 {
                format!("turn {} of {}, ", public.turns, public.config.turns)
            } else {
                String::new()
            };
            ui.add(
                egui::Label::new(
                    RichText::new(format!("{turn}first to {} wins", public.config.target))
                        .small()
                        .color(palette.muted),
                )
                .wrap(),
            );
        });

        let mut chosen = self.hand(ui, view, public, private, me, legal);
        if chosen.is_none() {
            chosen = self.moves(ui, view, public, me, legal);
        }
        chosen
    }

    /// What the moment asks, in a tinted box: in a window I may answer, what was laid, the
    /// question and the time left.
    fn prompt(
        &self,
        ui: &mut egui::Ui,
        view: &GameView,
        public: &Public,
        me: Seat,
        legal: &[Input],
    ) {
        let palette = Palette::of(ui);
        let sent = self.sent_at.waiting();
        let mine = |s: Seat| is_you(view, s);
        let (text, tint, countdown) = match &public.phase {
            Phase::Window { laid, seats } => {
                let what = laid_words(view, laid, laid.len().saturating_sub(1));
                let answering: Vec<String> = seats
                    .iter()
                    .copied()
                    .filter(|s| {
                        !mine(*s) && !view.seats.get(usize::from(*s)).is_some_and(|v| v.committed)
                    })
                    .map(|s| seat_name(view, s))
                    .collect();
                let waiting = if answering.is_empty() {
                    String::new()
                } else {
                    format!(" Waiting for {} to answer.", join_names(&answering))
                };
                if legal.contains(&Input::Allow) {
                    (format!("{what} — counter?"), palette.accent, true)
                } else if seats.contains(&me) || sent {
                    (format!("{what}. Your answer is in.{waiting}"), palette.muted, false)
                } else if answering.is_empty() {
                    (format!("{what}. Every answer is in."), palette.muted, false)
                } else {
                    (format!("{what}.{waiting}"), palette.muted, false)
                }
            }
            Phase::Turn { seat } if mine(*seat) && !legal.is_empty() => {
                let face = self.picked.and_then(|h| {
                    legal.iter().find_map(|i| match i {
                        Input::Play { card, face } if *card == h => Some(number(*face)),
                        _ => None,
                    })
                });
                let text = match face {
                    Some(n) => format!("Your {n}: play it, or give it and draw two."),
                    None if public.hands[usize::from(me)].is_empty() => {
                        "Your turn: draw a card, or wait.".into()
                    }
                    None => "Your turn: tap a card, or draw one.".into(),
                };
                (text, palette.accent, false)
            }
            Phase::Turn { seat } if mine(*seat) => ("Your move is in.".into(), palette.muted, false),
            Phase::Turn { seat } => (format!("{}'s turn.", seat_name(view, *seat)), palette.muted, false),
            Phase::Draw { seat, .. } if public.deck.left() == 0 => (
                format!(
                    "The discard pile is shuffled into a new deck for {} to draw.",
                    if mine(*seat) { "you".to_string() } else { seat_name(view, *seat) }
                ),
                palette.muted,
                false,
            ),
            Phase::Draw { seat, count } => {
                let cards = if *count == 1 { "a card" } else { "cards" };
                let text = if mine(*seat) {
                    format!("You draw {cards}.")
                } else {
                    format!("{} draws {cards}.", seat_name(view, *seat))
                };
                (text, palette.muted, false)
            }
            Phase::Shuffle => ("Shuffling the deck…".into(), palette.muted, false),
            Phase::Dealing { .. } => ("Dealing…".into(), palette.muted, false),
            Phase::First => ("Drawing who goes first…".into(), palette.muted, false),
            Phase::Over(_) => ("The game is over.".into(), palette.muted, false),
        };
        egui::Frame::new()
            .fill(tint.gamma_multiply(0.16))
            .stroke(Stroke::new(1.0, tint))
            .corner_radius(10)
            .inner_margin(10)
            .show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.label(
                    RichText::new(text)
                        .size(18.0)
                        .strong()
                        .color(ui.visuals().strong_text_color()),
                );
                if countdown {
                    self.countdown(ui, view.reaction_left_ms);
                }
            });
    }

    /// The seconds left to answer, and a bar that empties with them.
    fn countdown(&self, ui: &mut egui::Ui, left: Option<u64>) {
        if let Some(ms) = left {
            let full = self.window_from.unwrap_or(ms);
            crate::widgets::countdown(ui, ms, full, "Letting it stand…");
        }
    }

    /// My hand as big face-up cards. On my turn a tap picks a card; in a window the cards
    /// that can counter glow and a tap on one counters with it (returned).
    fn hand(
        &mut self,
        ui: &mut egui::Ui,
        view: &GameView,
        public: &Public,
        private: Option<&Private>,
        me: Seat,
        legal: &[Input],
    ) -> Option<Input> {
        let palette = Palette::of(ui);
        let hand = public
            .hands
            .get(usize::from(me))
            .map_or(&[][..], Vec::as_slice);
        if hand.is_empty() {
            let empty = format!("{} is empty.", crate::games::hand_title(view));
            ui.label(RichText::new(empty).color(palette.muted));
            return None;
        }
        let answering = legal.contains(&Input::Allow);
        let k = hand.len().max(HAND_LIMIT) as f32;
        let avail = ui.available_width();
        let w = ((avail - GAP * (k - 1.0)) / k).min(HAND_CARD_MAX).floor();
        let size = Vec2::new(w, (w * CARD_RATIO).round());
        let used = w * hand.len() as f32 + GAP * (hand.len() as f32 - 1.0);
        let mut chosen = None;
        ui.add_space(LIFT);
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = GAP;
            ui.add_space(((avail - used) / 2.0).max(0.0).floor());
            for h in hand {
                let face = private.and_then(|p| p.face(h));
                let counter = legal.iter().find_map(|i| match i {
                    Input::Counter { card, face } if card == h => Some(*face),
                    _ => None,
                });
                let can_pick = !answering && !picked_moves(legal, *h).is_empty();
                let picked = self.picked == Some(*h);
                let enabled = counter.is_some() || can_pick;
                let sense = if enabled { Sense::click() } else { Sense::hover() };
                let (rect, response) = ui.allocate_exact_size(size, sense);
                // The glow and the lift stay within the gap and the room kept above.
                let painter = ui.painter_at(rect.expand2(Vec2::new(GAP / 2.0, LIFT)));
                let shown = if picked {
                    rect.translate(Vec2::new(0.0, -LIFT))
                } else {
                    rect
                };
                if counter.is_some() {
                    for (grow, alpha) in [(3.5, 0.35), (2.0, 0.7)] {
                        painter.rect_stroke(
                            shown.expand(grow),
                            card_round(shown),
                            Stroke::new(2.0, palette.accent.gamma_multiply(alpha)),
                            StrokeKind::Outside,
                        );
                    }
                }
                let dim = answering && counter.is_none();
                match face {
                    Some(c) => paint_face(&painter, &palette, shown, number(c), dim, None),
                    None => paint_back(&painter, &palette, shown),
                }
                if picked {
                    painter.rect_stroke(
                        shown,
                        card_round(shown),
                        Stroke::new(3.0, palette.accent),
                        StrokeKind::Inside,
                    );
                }
                let label = match (counter, face) {
                    (Some(c), _) => format!("Counter with your {}", number(c)),
                    (None, Some(c)) => format!("Your {}", number(c)),
                    (None, None) => "A card of your hand".into(),
                };
                response.widget_info(|| {
                    egui::WidgetInfo::selected(egui::Role::Button, enabled, picked, &label)
                });
                if response.clicked() {
                    if let Some(face) = counter {
                        chosen = Some(Input::Counter { card: *h, face });
                    } else if can_pick {
                        self.picked = if picked { None } else { Some(*h) };
                    }
                }
            }
        });
        chosen
    }

    /// The moves as big buttons: in a window "Let it stand"; on my turn "Play it" and
    /// "Give to …" for the picked card, "Draw" and "Wait".
    fn moves(
        &mut self,
        ui: &mut egui::Ui,
        view: &GameView,
        public: &Public,
        me: Seat,
        legal: &[Input],
    ) -> Option<Input> {
        if legal.contains(&Input::Allow) {
            return moves_row(ui, &[("Let it stand".into(), Input::Allow, false)]);
        }
        if !matches!(public.phase, Phase::Turn { seat } if seat == me) || legal.is_empty() {
            return None;
        }
        let picked = self.picked.map(|h| picked_moves(legal, h)).unwrap_or_default();
        let mut first = Vec::new();
        if let Some(play) = picked.iter().find(|i| matches!(i, Input::Play { .. })) {
            first.push(("Play it".to_string(), *play, true));
        }
        if legal.contains(&Input::Draw) {
            first.push(("Draw".into(), Input::Draw, false));
        }
        if legal.contains(&Input::Wait) {
            first.push(("Wait".into(), Input::Wait, false));
        }
        let gives: Vec<(String, Input, bool)> = picked
            .iter()
            .filter_map(|i| match i {
                Input::Give { to, .. } => {
                    Some((format!("Give to {}", seat_name(view, *to)), *i, false))
                }
                _ => None,
            })
            .collect();
        let mut tapped = moves_row(ui, &first);
        // Two gives to a row on a phone, more where there is room.
        let per_row = ((ui.available_width() + GAP) / (MOVE_MAX_WIDTH * 0.7 + GAP))
            .floor()
            .max(2.0) as usize;
        for row in gives.chunks(per_row) {
            tapped = tapped.or(moves_row(ui, row));
        }
        tapped
    }
}
