//! What the moment asks, and the buttons to answer it: the prompt (with the dice, which
//! tumble a moment when they change, and a window's countdown), the Stop! question, my
//! hand, and the moves of my turn as finger-sized buttons.

use super::cards::{card_moves, spoken};
use super::{Frame, SpreeUi, seat_name, who};
use crate::games::is_you;
use crate::theme::{Palette, TOUCH};
use crate::widgets::settle;
use egui::{Button, Color32, Pos2, RichText, Sense, Shape, Stroke, Vec2};
use hoard_rules::Seat;
use hoard_rules::spree::cards::{self, ACE};
use hoard_rules::spree::{Contest, Input, Phase, Roll};

/// Space between buttons.
const GAP: f32 = 8.0;
/// The narrowest a move button gets before the row wraps, and the widest.
const BUTTON_MIN: f32 = 78.0;
const BUTTON_MAX: f32 = 220.0;
/// A die's side in the prompt.
const DIE: f32 = 30.0;

/// "You grab" or "Ann grabs": a sentence's start in the right person.
fn says(f: &Frame, seat: Seat, you: &str, they: &str) -> String {
    if is_you(f.view, seat) {
        format!("You {you}")
    } else {
        format!("{} {they}", seat_name(f.view, seat))
    }
}

fn cards_said(cards: &[hoard_rules::CardId]) -> String {
    cards
        .iter()
        .map(|c| spoken(*c))
        .collect::<Vec<_>>()
        .join(" and ")
}

/// The play on the table that may be stopped, in words.
pub(super) fn contest_words(
    f: &Frame,
    contest: &Contest,
    aces: &[(Seat, hoard_rules::CardId)],
) -> String {
    let mut text = match contest {
        Contest::Shop { seat, cards } => match cards.as_slice() {
            [one] if cards::is_joker(*one) => says(
                f,
                *seat,
                "put a Joker in your cart",
                "puts a Joker in the cart",
            ),
            _ => says(
                f,
                *seat,
                &format!("grab the {}", cards_said(cards)),
                &format!("grabs the {}", cards_said(cards)),
            ),
        },
        Contest::Rob {
            seat,
            victim,
            card,
            rank,
        } => {
            let what = format!(
                "the {} to steal {} {}",
                spoken(*card),
                crate::games::whose(f.view, *victim),
                match *rank {
                    cards::JOKER => "Jokers".to_string(),
                    r => format!("{}s", cards::rank_name(r)),
                }
            );
            says(f, *seat, &format!("play {what}"), &format!("plays {what}"))
        }
        Contest::MoveCard { seat, steps, .. } => says(
            f,
            *seat,
            &format!("play Move-{steps}"),
            &format!("plays Move-{steps}"),
        ),
        Contest::Shot {
            seat, target, roll, ..
        } => {
            let hit = if is_you(f.view, *target) {
                "you".to_string()
            } else {
                seat_name(f.view, *target)
            };
            says(
                f,
                *seat,
                &format!("roll {roll}: your shot hits {hit}"),
                &format!("rolls {roll}: the shot hits {hit}"),
            )
        }
    };
    for (seat, card) in aces {
        text.push_str(&format!(
            ", then {} Stop! with {}",
            says(f, *seat, "say", "says"),
            spoken(*card)
        ));
    }
    text
}

/// My Ace to stop the play with: a real Ace before a Joker (a Joker can do more).
fn stopper(legal: &[Input]) -> Option<Input> {
    let aces = || {
        legal
            .iter()
            .filter(|i| matches!(i, Input::Ace { .. }))
            .cloned()
    };
    aces()
        .find(|i| matches!(i, Input::Ace { face, .. } if cards::rank(*face) == ACE))
        .or_else(|| aces().next())
}

impl SpreeUi {
    /// The prompt, my hand and the moves; returns the move made. At the bottom of a
    /// phone the moves come last, nearest the thumb; in a side column, right under the
    /// prompt, where a short screen still shows them.
    pub(super) fn controls(
        &mut self,
        ui: &mut egui::Ui,
        f: &Frame,
        moves_first: bool,
        hand_height: f32,
    ) -> Option<Input> {
        let palette = Palette::of(ui);
        self.prompt(ui, f);
        if f.me().is_none() {
            ui.label(RichText::new("You are watching this game.").color(palette.muted));
            return None;
        }
        let moves = self.move_list(f);
        let labels: Vec<String> = moves.iter().map(|(words, _, _)| words.clone()).collect();
        let ready = self.settling.ready(&labels, f.now);
        if moves_first {
            let tapped = moves_rows(ui, &moves, &ready);
            return self.hand(ui, f, hand_height).or(tapped);
        }
        let chosen = self.hand(ui, f, hand_height);
        let tapped = moves_rows(ui, &moves, &ready);
        chosen.or(tapped)
    }

    /// The moves on offer now: a window's answers, or my turn's moves (the picked card's
    /// first).
    fn move_list(&self, f: &Frame) -> Vec<(String, Input, bool)> {
        let mut out = Vec::new();
        if f.legal.contains(&Input::Pass) {
            if let Some(ace) = stopper(&f.legal) {
                let with = match &ace {
                    Input::Ace { face, .. } if cards::is_joker(*face) => "Joker",
                    _ => "Ace",
                };
                out.push((format!("Stop! ({with})"), ace, true));
            }
            out.push(("Let it go".into(), Input::Pass, false));
            return out;
        }
        if f.my_turn.is_none() {
            return out;
        }
        if let Some(h) = self.picked {
            for (k, (words, input)) in card_moves(f, h).into_iter().enumerate() {
                out.push((words, input, k == 0));
            }
        }
        if let Some(input @ (Input::Drive { to: sq } | Input::Park { space: sq })) = &self.space {
            out.push((super::board::space_words(input, *sq), input.clone(), true));
        }
        let walking = !self.path.is_empty();
        if walking {
            out.push((
                "Go".into(),
                Input::Walk {
                    path: self.path.clone(),
                },
                true,
            ));
        }
        let lead = out.iter().any(|(_, _, p)| *p);
        for input in &f.legal {
            let (words, primary) = match input {
                Input::Roll => ("Roll".to_string(), !lead),
                Input::Score => {
                    let me = f.me().map_or(0, usize::from);
                    let cart = f.public.carts.get(me).map_or(&[][..], |c| &c[..]);
                    // Scoring an empty cart only ends the turn: "End turn" says that.
                    if cart.is_empty() {
                        continue;
                    }
                    let points: i32 = cart.iter().map(|c| cards::points(*c)).sum();
                    (format!("Score {points}"), points > 0 && !lead)
                }
                Input::StartCar => ("Start the car".to_string(), false),
                Input::GetOut => ("Get out here".to_string(), false),
                _ => continue,
            };
            out.push((words, input.clone(), primary));
        }
        for (target, sixths) in f.shots() {
            out.push((
                format!("Shoot {} ({sixths} in 6)", seat_name(f.view, target)),
                Input::Shoot { target },
                self.aim == Some(target),
            ));
        }
        if f.legal.contains(&Input::EndTurn) {
            out.push(("End turn".into(), Input::EndTurn, false));
        }
        out
    }

    /// What the moment asks, in a tinted box, with the dice beside it.
    pub(super) fn prompt(&self, ui: &mut egui::Ui, f: &Frame) {
        let palette = Palette::of(ui);
        let (text, tint, countdown) = self.prompt_words(f, &palette);
        egui::Frame::new()
            .fill(tint.gamma_multiply(0.16))
            .stroke(Stroke::new(1.0, tint))
            .corner_radius(10)
            .inner_margin(egui::Margin::symmetric(10, 6))
            .show(ui, |ui| {
                ui.set_width(ui.available_width());
                let dice = dice_shown(f);
                let dice_w = dice.len() as f32 * (DIE + 6.0);
                ui.horizontal_top(|ui| {
                    ui.spacing_mut().item_spacing.x = 6.0;
                    ui.vertical(|ui| {
                        ui.set_width((ui.available_width() - dice_w - 6.0).max(60.0));
                        ui.label(
                            RichText::new(text)
                                .size(17.0)
                                .strong()
                                .color(ui.visuals().strong_text_color()),
                        );
                        if countdown {
                            self.countdown(ui, f.view.reaction_left_ms);
                        }
                    });
                    if !dice.is_empty() {
                        self.dice(ui, f, &dice);
                    }
                });
            });
    }

    fn prompt_words(&self, f: &Frame, palette: &Palette) -> (String, Color32, bool) {
        let view = f.view;
        let mine = |s: Seat| is_you(view, s);
        let sent = self.sent_at.waiting();
        let muted = |t: String| (t, palette.muted, false);
        match &f.public.phase {
            Phase::Shuffle => muted("Shuffling the two decks…".into()),
            Phase::Dealing { .. } => muted("Dealing five cards each…".into()),
            Phase::FirstParker => muted("Rolling to see who parks first…".into()),
            Phase::Parking { seat, .. } if mine(*seat) && !f.legal.is_empty() => (
                "Park your car: tap a free parking space.".into(),
                palette.accent,
                false,
            ),
            Phase::Parking { seat, .. } => muted(format!("{} is parking.", who(view, *seat))),
            Phase::Draw { seat, .. } => {
                muted(says(f, *seat, "draw up to five.", "draws up to five."))
            }
            Phase::Rolling { turn, roll } => muted(match roll {
                Roll::Walk => says(f, turn.seat, "roll…", "rolls…"),
                Roll::Drive => says(f, turn.seat, "start the car…", "starts the car…"),
                Roll::Shot { target } => {
                    let at = if mine(*target) {
                        "you".to_string()
                    } else {
                        seat_name(view, *target)
                    };
                    says(
                        f,
                        turn.seat,
                        &format!("shoot at {at}…"),
                        &format!("shoots at {at}…"),
                    )
                }
            }),
            Phase::Window {
                contest,
                aces,
                seats,
                ..
            } => {
                let what = contest_words(f, contest, aces);
                if f.legal.contains(&Input::Pass) {
                    let question = if stopper(&f.legal).is_some() {
                        "Stop it?"
                    } else {
                        "You hold no Ace to stop it."
                    };
                    (format!("{what}. {question}"), palette.accent, true)
                } else if seats.iter().any(|s| mine(*s)) || sent {
                    muted(format!("{what}. Your answer is in."))
                } else {
                    muted(format!("{what}. Anyone may stop it…"))
                }
            }
            Phase::Act(turn) if f.my_turn.is_some() => {
                let text = if !self.path.is_empty() {
                    let n = self.path.len();
                    format!(
                        "{n} of {} squares: tap on along the path, or Go.",
                        turn.left
                    )
                } else if self.picked.is_some() {
                    "Your card: choose what it does here.".to_string()
                } else if turn.left > 0 {
                    format!(
                        "{} {} to move: tap where to walk.",
                        turn.left,
                        if turn.left == 1 { "square" } else { "squares" }
                    )
                } else if f.legal.contains(&Input::Roll)
                    && f.legal.iter().any(|i| matches!(i, Input::Drive { .. }))
                {
                    "Your turn: roll, or tap a free space to drive there.".to_string()
                } else if f.legal.contains(&Input::Roll) {
                    "Your turn: roll the dice.".to_string()
                } else {
                    "Shop, score, shoot or end your turn.".to_string()
                };
                (text, palette.accent, false)
            }
            Phase::Act(turn) if mine(turn.seat) => muted("Your move is in.".into()),
            Phase::Act(turn) => {
                let mut text = format!("{}'s turn", seat_name(view, turn.seat));
                if turn.left > 0 {
                    text.push_str(&format!(", {} to move", turn.left));
                }
                muted(format!("{text}."))
            }
            Phase::Over(_) => muted("The game is over.".into()),
        }
    }

    /// The seconds left to answer, and a bar that empties with them.
    fn countdown(&self, ui: &mut egui::Ui, left: Option<u64>) {
        if let Some(ms) = left {
            let full = self.window_from.unwrap_or(ms);
            crate::widgets::countdown(ui, ms, full, "Letting it go…");
        }
    }

    /// The dice as they lie, or tumbling for a moment after they change.
    fn dice(&self, ui: &mut egui::Ui, f: &Frame, dice: &[(u8, bool)]) {
        let rolling = matches!(f.public.phase, Phase::Rolling { .. }) && !f.still;
        let tumbling = rolling || self.dice.moving(f.now);
        let size = Vec2::new(dice.len() as f32 * (DIE + 6.0), DIE + 8.0);
        let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
        let painter = ui.painter_at(rect.expand(4.0));
        for (k, (value, shot)) in dice.iter().enumerate() {
            let centre = Pos2::new(
                rect.left() + (DIE + 6.0) * (k as f32 + 0.5),
                rect.center().y,
            );
            let (shown, angle, hop) = if tumbling {
                // A face a tenth of a second, turning and settling as it slows.
                let t = (f.now * 10.0) as u64 + k as u64 * 3;
                let face = (t.wrapping_mul(2_654_435_761) >> 7) % 6 + 1;
                let left = if rolling {
                    1.0
                } else {
                    1.0 - self.dice.linear(f.now)
                };
                let angle = (f.now as f32 * 9.0 + k as f32) * left.clamp(0.0, 1.0);
                let hop = -(f.now as f32 * 20.0 + k as f32).sin().abs() * 4.0 * left;
                (face as u8, angle, hop)
            } else {
                (*value, 0.0, 0.0)
            };
            paint_die(
                &painter,
                centre + Vec2::new(0.0, hop),
                DIE,
                shown,
                angle,
                *shot,
            );
        }
        let words: Vec<String> = dice
            .iter()
            .map(|(v, shot)| {
                if *shot {
                    format!("shot {v}")
                } else {
                    v.to_string()
                }
            })
            .collect();
        let label = format!("Dice: {}", words.join(", "));
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));
    }
}

/// The dice to show: the two walking dice, and the shot's die (red) when a shot was the
/// last roll of the turn under way.
fn dice_shown(f: &Frame) -> Vec<(u8, bool)> {
    let mut out = Vec::new();
    let shooting = matches!(
        f.public.phase,
        Phase::Rolling {
            roll: Roll::Shot { .. },
            ..
        } | Phase::Window {
            contest: Contest::Shot { .. },
            ..
        }
    );
    if shooting {
        out.push((f.public.shot_die.unwrap_or(1).clamp(1, 6), true));
        return out;
    }
    if let Some((a, b)) = f.public.dice {
        out.push((a.clamp(1, 6), false));
        out.push((b.clamp(1, 6), false));
    } else if matches!(f.public.phase, Phase::Rolling { .. }) {
        out.push((1, false));
        out.push((1, false));
    }
    out
}

/// One die: a rounded square turned by `angle`, with its pips.
fn paint_die(painter: &egui::Painter, c: Pos2, side: f32, value: u8, angle: f32, shot: bool) {
    let (fill, pip) = if shot {
        (Color32::from_rgb(200, 40, 40), Color32::WHITE)
    } else {
        (
            Color32::from_rgb(250, 248, 240),
            Color32::from_rgb(25, 25, 30),
        )
    };
    let rot = |v: Vec2| {
        let (s, co) = angle.sin_cos();
        Vec2::new(v.x * co - v.y * s, v.x * s + v.y * co)
    };
    let h = side / 2.0;
    // A rounded square as a polygon: each corner cut by a short chamfer.
    let cut = side * 0.16;
    let corners = [
        Vec2::new(-h + cut, -h),
        Vec2::new(h - cut, -h),
        Vec2::new(h, -h + cut),
        Vec2::new(h, h - cut),
        Vec2::new(h - cut, h),
        Vec2::new(-h + cut, h),
        Vec2::new(-h, h - cut),
        Vec2::new(-h, -h + cut),
    ];
    let shadow: Vec<Pos2> = corners
        .iter()
        .map(|v| c + rot(*v) + Vec2::new(1.5, 2.0))
        .collect();
    painter.add(Shape::convex_polygon(
        shadow,
        Color32::from_black_alpha(90),
        Stroke::NONE,
    ));
    let body: Vec<Pos2> = corners.iter().map(|v| c + rot(*v)).collect();
    painter.add(Shape::convex_polygon(
        body,
        fill,
        Stroke::new(1.0, Color32::from_black_alpha(160)),
    ));
    let q = side * 0.26;
    let spots = crate::widgets::die_pips(value);
    for (x, y) in spots {
        painter.circle_filled(c + rot(Vec2::new(x * q, y * q)), side * 0.085, pip);
    }
}

/// Rows of move buttons sharing the width; returns the one tapped. `ready[k]` is false for
/// a button that has just come where another was, which takes no tap yet.
fn moves_rows(ui: &mut egui::Ui, moves: &[(String, Input, bool)], ready: &[bool]) -> Option<Input> {
    if moves.is_empty() {
        return None;
    }
    let palette = Palette::of(ui);
    let avail = ui.available_width();
    let per_row = (((avail + GAP) / (BUTTON_MIN + GAP)).floor() as usize).clamp(1, moves.len());
    let mut tapped = None;
    for (r, row) in moves.chunks(per_row).enumerate() {
        let n = per_row as f32;
        let w = ((avail - GAP * (n - 1.0)) / n).min(BUTTON_MAX).floor();
        let used = w * row.len() as f32 + GAP * (row.len() as f32 - 1.0);
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = GAP;
            // Narrow margins inside the buttons: four fit across a phone.
            ui.spacing_mut().button_padding.x = 4.0;
            ui.add_space(((avail - used) / 2.0).max(0.0).floor());
            for (k, (text, input, primary)) in row.iter().enumerate() {
                let enabled = ready.get(r * per_row + k).copied().unwrap_or(true);
                let mut label = RichText::new(text).size(16.5);
                let mut button = Button::new(label.clone()).truncate();
                if *primary {
                    label = label.strong().color(Color32::from_rgb(30, 24, 10));
                    button = Button::new(label).truncate().fill(palette.accent);
                }
                let button = settle::guarded(ui, enabled, |ui| {
                    ui.add_sized(Vec2::new(w, TOUCH + 2.0), button)
                });
                if button.inner.clicked() {
                    tapped = Some(input.clone());
                }
            }
        });
    }
    tapped
}
