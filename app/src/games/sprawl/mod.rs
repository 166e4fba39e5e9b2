//! Sprawl's table: the grid with every pyramid drawn from above (upright towers as
//! nested squares, lying branches as triangles pointing the way they point, in their
//! owners' colours), one seat's targeted squares, neutralized towers crossed out, every
//! stash, and tap-a-square move choice that offers only the moves the rules allow there
//! (taken from `legal_inputs`), plus the Counting Coup questions. Pieces that change on a
//! square settle into it, growing to their size.

use crate::games::{GameScreen, InFlight, Table, TableFrame, is_you, seat_name};
use crate::net::GameView;
use crate::rules_ref::RulesPage;
use crate::theme::{self, Palette, TOUCH};
use crate::widgets;
use crate::widgets::motion::Change;
use egui::{Color32, Pos2, Rect, RichText, Sense, Shape, Stroke, Vec2};
use hoard_rules::sprawl::{
    Board, Branch, Cell, Config, Input, Phase, Public, Sprawl, Square, Tower,
};
use hoard_rules::Seat;

/// The biggest a square grows, in points (laptop screens).
const MAX_CELL: f32 = 72.0;
/// How long pieces just placed, moved or grown take to settle into their square (seconds).
const SETTLE: f64 = 0.3;
/// Room for the column letters and row numbers around the grid.
const RULER: f32 = 16.0;

/// The game's rules reference, in the app's "How to play".
pub const RULES: RulesPage = RulesPage {
    title: "Sprawl",
    players: "3 to 8 players",
    pitch: "Grow towers and branches of pyramids; the emptiest stash at the end wins.",
    sections: &[
        (
            "Your stash",
            "Fifteen pyramids of your colour: five each of 3, 2 and 1 pips. The board is \
             5x6 for three players, 6x6 for four to six, 8x8 for seven or eight.",
        ),
        (
            "A turn",
            "First turn: stand any pyramid anywhere as your starting tower. After that, do \
             one thing: build (cap your tower with a piece one size smaller), branch (lay a \
             piece beside your tower or branch, pointing away from it; branches shrink by \
             one size each step, and a tower supports branches as long as it is tall), or \
             spore (stand a new tower on an empty square one of your branches targets).",
        ),
        (
            "Targeting and attacks",
            "A lying piece targets the square as many squares away as its pips, in the \
             direction it points, whatever lies between. It attacks the square next to \
             its point: a tower attacked by a size it does not contain is neutralized and \
             stops growing. You may not spore where your new tower would be neutralized.",
        ),
        (
            "The end",
            "When a player has no legal move, the game ends at the start of that player's \
             next turn. Pieces of neutralized towers go back to their stashes; the fewest \
             pips left in your stash wins.",
        ),
    ],
};

/// The game's screen, by the name every game's screen module gives it.
pub type Screen = SprawlUi;

#[derive(Default)]
pub struct SprawlUi {
    /// The square last tapped: its legal moves are offered under the board.
    picked: Option<Square>,
    /// Whose targeted squares are shown; by default mine (or the seat to move when watching).
    shown: Option<Seat>,
    /// The position my last input was sent from: nothing more is offered until it changes,
    /// so a double tap never sends twice.
    sent_at: InFlight<Public>,
    /// This frame's seat colours (see [`seat_colours`]).
    colours: Vec<[u8; 3]>,
    /// The board as last shown, and the settling of the squares that changed on it.
    grid: Change<Board>,
}

/// The variants, as the rulebook names them, with a switch on the config for each.
type Flag = fn(&mut Config) -> &mut bool;
const VARIANTS: [(&str, Flag); 5] = [
    ("Counting Coup", |c| &mut c.counting_coup),
    ("Sprawlgami", |c| &mut c.sprawlgami),
    ("Overload", |c| &mut c.overload),
    ("Superior Forces", |c| &mut c.superior_forces),
    ("Loose Branching", |c| &mut c.loose_branching),
];

/// One line describing a setup, for players who are not the host.
pub fn describe(config: &Config) -> String {
    let mut c = config.clone();
    let on: Vec<&str> = VARIANTS
        .iter()
        .filter(|(_, flag)| *flag(&mut c))
        .map(|(name, _)| *name)
        .collect();
    if on.is_empty() {
        "The basic rules".into()
    } else {
        on.join(", ")
    }
}

impl GameScreen for SprawlUi {
    type Game = Sprawl;

    fn in_flight(&mut self) -> &mut InFlight<Public> {
        &mut self.sent_at
    }

    fn options(&mut self, ui: &mut egui::Ui, config: &Config, host: bool) -> Option<Config> {
        if !host {
            ui.label(describe(config));
            return None;
        }
        let mut next = config.clone();
        ui.horizontal_wrapped(|ui| {
            for (name, flag) in VARIANTS {
                let on = *flag(&mut next);
                if ui
                    .add(egui::Button::selectable(on, name).min_size(Vec2::splat(TOUCH)))
                    .clicked()
                {
                    *flag(&mut next) = !on;
                }
            }
        });
        Some(next)
    }

    fn summary(&self, t: &Table<'_, Sprawl>) -> Vec<String> {
        let (view, public) = (t.view, t.public);
        (0..public.seats())
            .map(|seat| {
                let stash = public.stash(seat);
                let mut line = format!(
                    "{}: {} pips left in the stash",
                    seat_name(view, seat),
                    stash.pips()
                );
                if public.left.contains(&seat) {
                    line.push_str(", left the game (its pieces stay, it cannot win)");
                }
                let cards: Vec<String> = public
                    .coup_cards
                    .iter()
                    .filter(|(s, _)| *s == seat)
                    .map(|(_, c)| c.to_string())
                    .collect();
                if !cards.is_empty() {
                    line.push_str(&format!(", coup cards {}", cards.join(" ")));
                }
                line
            })
            .collect()
    }

    fn table(
        &mut self,
        ui: &mut egui::Ui,
        t: &Table<'_, Sprawl>,
        frame: TableFrame,
    ) -> Option<Input> {
        let (view, public) = (t.view, t.public);
        let mut chosen_move = None;
        self.colours = seat_colours(view);
        self.grid.follow(&public.board, frame, SETTLE);
        self.grid.repaint(ui.ctx(), frame.now);
        let now = frame.now;
        let legal = &t.legal;
        let board_moves: Vec<Input> = legal
            .iter()
            .copied()
            .filter(|i| landing(i).is_some())
            .collect();
        if self.picked.is_some_and(|sq| !public.board.contains(sq)) {
            self.picked = None;
        }

        if frame.screen && !frame.portrait {
            // The room's screen: the board and the stashes beside it, which the screen
            // magnifies; its own column says whose turn it is and what was played.
            let height = ui.available_height();
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| {
                    ui.set_max_width(RULER + MAX_CELL * f32::from(public.board.cols));
                    self.board(ui, view, public, &board_moves, height, now);
                });
                ui.vertical(|ui| {
                    ui.set_max_width(300.0);
                    self.seats_panel(ui, view, public);
                });
            });
            return chosen_move;
        }
        // The prompt and the choices stay at the bottom, within reach of a thumb.
        egui::Panel::bottom("sprawl-moves")
            .frame(egui::Frame::new().inner_margin(egui::Margin::symmetric(0, 6)))
            .show(ui, |ui| {
                if let Some(input) = self.prompt(ui, view, public, legal, &board_moves) {
                    self.picked = None;
                    chosen_move = Some(input);
                }
            });
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                // Side by side once there is room for the board and a column beside it.
                if frame.portrait && ui.available_width() < 640.0 {
                    self.news(ui, view);
                    self.stash_strip(ui, view, public);
                    self.board(ui, view, public, &board_moves, f32::INFINITY, now);
                    self.seats_panel(ui, view, public);
                } else {
                    let side = (ui.available_width() * 0.36).clamp(240.0, 380.0);
                    let height = ui.available_height();
                    ui.horizontal_top(|ui| {
                        ui.vertical(|ui| {
                            ui.set_width(ui.available_width() - side - 12.0);
                            self.board(ui, view, public, &board_moves, height, now);
                        });
                        ui.vertical(|ui| {
                            ui.set_width(side);
                            self.news(ui, view);
                            self.seats_panel(ui, view, public);
                        });
                    });
                }
            });
        chosen_move
    }
}

/// "you" for my own seat, the name otherwise.
fn who(view: &GameView, seat: Seat) -> String {
    if is_you(view, seat) {
        "you".into()
    } else {
        seat_name(view, seat)
    }
}

/// Each seat's colour on this table. Pieces are told apart by colour alone, so a seat
/// whose colour is too close to an earlier seat's (players pick theirs freely) is given
/// the first palette colour nobody at the table is using.
fn seat_colours(view: &GameView) -> Vec<[u8; 3]> {
    let close = |a: [u8; 3], b: [u8; 3]| -> bool {
        a.iter()
            .zip(b)
            .map(|(x, y)| u32::from(x.abs_diff(y)))
            .sum::<u32>()
            < 120
    };
    let mut out: Vec<[u8; 3]> = Vec::with_capacity(view.seats.len());
    for seat in &view.seats {
        let mut colour = seat.colour;
        if out.iter().any(|c| close(*c, colour)) {
            let taken = |c: [u8; 3]| {
                view.seats
                    .iter()
                    .map(|s| s.colour)
                    .chain(out.iter().copied())
                    .any(|t| close(t, c))
            };
            if let Some((free, _)) = theme::SEAT_COLOURS.iter().find(|(c, _)| !taken(*c)) {
                colour = *free;
            }
        }
        out.push(colour);
    }
    out
}

fn colour_of(colours: &[[u8; 3]], seat: Seat) -> Color32 {
    colours
        .get(usize::from(seat))
        .map(|c| theme::colour(*c))
        .unwrap_or(Color32::GRAY)
}

/// The square a board move puts a piece on.
fn landing(input: &Input) -> Option<Square> {
    match *input {
        Input::Place { at, .. }
        | Input::Build { at }
        | Input::Branch { at, .. }
        | Input::Spore { at, .. } => Some(at),
        Input::Ask | Input::Pass | Input::TakeBack | Input::Keep | Input::SitOut | Input::Leave => {
            None
        }
    }
}

/// The words on a move's button: what will stand where.
fn move_label(public: &Public, me: Option<Seat>, input: &Input) -> String {
    match *input {
        Input::Place { at, size } => format!("Place a {size} at {at}"),
        Input::Build { at } => match public.board.tower(at) {
            Some(t) if Some(t.controller()) != me => {
                format!(
                    "Build a {} on {at} and take it over",
                    t.top().saturating_sub(1)
                )
            }
            Some(t) => format!("Build a {} on {at}", t.top().saturating_sub(1)),
            None => format!("Build on {at}"),
        },
        Input::Branch {
            from, dir, size, ..
        } => format!("Branch a {size} off {from}, pointing {}", dir.word()),
        Input::Spore {
            at,
            size,
            builds: 0,
        } => format!("Spore a {size} at {at}"),
        Input::Spore { at, size, builds } => {
            format!("Spore a {size} at {at}, then build {builds} more")
        }
        Input::Ask => "Are you sure?".into(),
        Input::Pass => "Let it be".into(),
        Input::TakeBack => "Take it back".into(),
        Input::Keep => "Keep it".into(),
        // Never offered: only the table's vote puts these in a step.
        Input::SitOut | Input::Leave => "Away".into(),
    }
}

/// A square in words, for its accessibility label and the line under the board.
fn describe_square(view: &GameView, public: &Public, sq: Square) -> String {
    match public.board.cell(sq) {
        Cell::Empty => format!("{sq}: empty"),
        Cell::Tower(t) => {
            let sizes: Vec<String> = t.pieces().map(|(_, s)| s.to_string()).collect();
            let state = if public.is_neutralized(sq) {
                ", neutralized"
            } else {
                ""
            };
            format!(
                "{sq}: {}'s tower of {}{state}",
                seat_name(view, t.controller()),
                sizes.join(", ")
            )
        }
        Cell::Branch(b) => {
            let state = if public.is_dead(sq) {
                ", out of play"
            } else {
                ""
            };
            format!(
                "{sq}: {}'s {} branch pointing {}{state}",
                seat_name(view, b.owner),
                b.size,
                b.dir.word()
            )
        }
    }
}

impl SprawlUi {
    /// The last things that happened, so a move by a bot is never missed.
    fn news(&self, ui: &mut egui::Ui, view: &GameView) {
        let palette = Palette::of(ui);
        for line in view
            .log
            .iter()
            .rev()
            .take(2)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
        {
            ui.label(RichText::new(line).color(palette.muted));
        }
    }

    /// What the moment asks of me, and the buttons to answer. Returns the input chosen.
    fn prompt(
        &mut self,
        ui: &mut egui::Ui,
        view: &GameView,
        public: &Public,
        legal: &[Input],
        board_moves: &[Input],
    ) -> Option<Input> {
        let palette = Palette::of(ui);
        let me = view.me;
        let mine = |s: Seat| me == Some(s);
        let text = match &public.phase {
            Phase::FirstPlayer => "Drawing who goes first...".to_string(),
            Phase::Dealing => "Dealing the coup cards...".to_string(),
            Phase::Over(_) => "The game is over.".to_string(),
            _ if self.sent_at.waiting() => "Sent. Waiting for the table...".to_string(),
            Phase::Turn { seat } if mine(*seat) && !board_moves.is_empty() => {
                let first = !public
                    .started
                    .get(usize::from(*seat))
                    .copied()
                    .unwrap_or(true);
                let mut t = if first {
                    "Your first move: tap any square to place your starting tower.".to_string()
                } else {
                    "Your turn: tap a highlighted square to build, branch or spore there."
                        .to_string()
                };
                if !public.taken_back.is_empty() {
                    t.push_str(" Not the move you took back.");
                }
                t
            }
            Phase::Turn { seat } => format!("{}'s turn.", seat_name(view, *seat)),
            Phase::Offer {
                sporer,
                spore,
                seats,
            } => {
                if me.is_some_and(|m| seats.contains(&m)) && !legal.is_empty() {
                    format!(
                        "{} spored a {} at {}, and you could neutralize it next turn. \
                         Ask \"Are you sure?\"? If {} takes it back, you earn a face-down coup card.",
                        seat_name(view, *sporer),
                        spore.size,
                        spore.at,
                        seat_name(view, *sporer)
                    )
                } else {
                    let names: Vec<String> = seats.iter().map(|s| seat_name(view, *s)).collect();
                    format!(
                        "{} may ask {} \"Are you sure?\" about the spore at {}.",
                        names.join(" and "),
                        who(view, *sporer),
                        spore.at
                    )
                }
            }
            Phase::Decide {
                sporer,
                asker,
                spore,
            } => {
                if mine(*sporer) && !legal.is_empty() {
                    if legal.contains(&Input::TakeBack) {
                        format!(
                            "{} asks: are you sure? Keep your spore at {}, or take it back and \
                             make another move ({} earns a face-down coup card).",
                            seat_name(view, *asker),
                            spore.at,
                            seat_name(view, *asker)
                        )
                    } else {
                        format!(
                            "{} asks: are you sure? You have no other move, so the spore at {} stays.",
                            seat_name(view, *asker),
                            spore.at
                        )
                    }
                } else {
                    format!(
                        "{} asked {}: are you sure?",
                        seat_name(view, *asker),
                        who(view, *sporer)
                    )
                }
            }
        };
        ui.label(RichText::new(text).size(17.0));

        // Questions answered with a word.
        let words: Vec<Input> = legal
            .iter()
            .copied()
            .filter(|i| landing(i).is_none())
            .collect();
        let mut chosen = None;
        if !words.is_empty() {
            ui.horizontal_wrapped(|ui| {
                for input in &words {
                    if widgets::button(ui, &move_label(public, me, input)).clicked() {
                        chosen = Some(*input);
                    }
                }
            });
        }

        // The moves at the square tapped.
        if board_moves.is_empty() {
            return chosen;
        }
        match self.picked {
            None => {}
            Some(sq) => {
                let here: Vec<&Input> = board_moves
                    .iter()
                    .filter(|i| landing(i) == Some(sq))
                    .collect();
                if here.is_empty() {
                    ui.label(
                        RichText::new(format!(
                            "{}. Nothing you can play there.",
                            describe_square(view, public, sq)
                        ))
                        .color(palette.muted),
                    );
                } else {
                    ui.horizontal_wrapped(|ui| {
                        for input in here {
                            if widgets::button(ui, &move_label(public, me, input)).clicked() {
                                chosen = Some(*input);
                            }
                        }
                    });
                }
            }
        }
        chosen
    }

    /// Pips left in every stash, in a line above the board (phones).
    fn stash_strip(&self, ui: &mut egui::Ui, view: &GameView, public: &Public) {
        let to_move = public.to_move();
        let ink = ui.visuals().strong_text_color();
        ui.horizontal_wrapped(|ui| {
            for seat in 0..public.seats() {
                let colour = colour_of(&self.colours, seat);
                let (dot, _) = ui.allocate_exact_size(Vec2::splat(16.0), Sense::hover());
                ui.painter()
                    .circle(dot.center(), 7.0, colour, Stroke::new(1.0, ink));
                let name: String = seat_name(view, seat).chars().take(8).collect();
                let text = RichText::new(format!("{name} {}", public.stash(seat).pips()));
                ui.label(if to_move == Some(seat) {
                    text.strong()
                } else {
                    text
                });
            }
        });
    }

    /// Every seat's stash and state, and the switch for whose targets are shown.
    fn seats_panel(&mut self, ui: &mut egui::Ui, view: &GameView, public: &Public) {
        let palette = Palette::of(ui);
        let shown = self.shown_seat(view, public);
        ui.label(RichText::new("Stashes (fewest pips wins)").strong());
        let to_move = public.to_move();
        for seat in 0..public.seats() {
            let stash = public.stash(seat);
            ui.horizontal_wrapped(|ui| {
                let mut name = seat_name(view, seat);
                if is_you(view, seat) {
                    name.push_str(" (you)");
                }
                widgets::seat_chip(
                    ui,
                    &name,
                    self.colours
                        .get(usize::from(seat))
                        .copied()
                        .unwrap_or([128; 3]),
                    to_move == Some(seat),
                );
                ui.label(format!("{} pips", stash.pips()));
                if to_move == Some(seat) {
                    ui.label(RichText::new("to move").color(palette.good));
                }
            });
            let mut detail = format!(
                "left: {} ones, {} twos, {} threes",
                stash.count(1),
                stash.count(2),
                stash.count(3)
            );
            let owed = public.coup_owed.iter().filter(|s| **s == seat).count();
            if owed > 0 {
                detail.push_str(&format!(
                    "; {owed} face-down coup card{}",
                    if owed == 1 { "" } else { "s" }
                ));
            }
            ui.label(RichText::new(detail).small().color(palette.muted));
        }
        ui.add_space(4.0);
        ui.label(RichText::new("Show the squares targeted by").strong());
        ui.horizontal_wrapped(|ui| {
            for seat in 0..public.seats() {
                let on = shown == Some(seat);
                let label = format!("Targets of {}", seat_name(view, seat));
                if ui
                    .add(egui::Button::selectable(on, label).min_size(Vec2::splat(TOUCH)))
                    .clicked()
                {
                    self.shown = Some(seat);
                }
            }
        });
    }

    fn shown_seat(&self, view: &GameView, public: &Public) -> Option<Seat> {
        self.shown
            .filter(|s| *s < public.seats())
            .or(view.me)
            .or(public.to_move())
    }

    /// The grid: rulers, squares, pieces, targets and the squares I can play on.
    fn board(
        &mut self,
        ui: &mut egui::Ui,
        view: &GameView,
        public: &Public,
        board_moves: &[Input],
        max_height: f32,
        now: f64,
    ) {
        let palette = Palette::of(ui);
        let board = &public.board;
        // A square whose pieces changed has them settle into place, growing to full size.
        let before = self
            .grid
            .before(now)
            .filter(|b| b.cols == board.cols && b.rows == board.rows);
        let growth = 0.6 + 0.4 * self.grid.progress(now);
        let (cols, rows) = (f32::from(board.cols), f32::from(board.rows));
        let by_width = (ui.available_width() - RULER) / cols;
        let by_height = (max_height - RULER - 8.0) / rows;
        let cell = by_width.min(by_height).clamp(24.0, MAX_CELL).floor();
        let size = Vec2::new(RULER + cell * cols, RULER + cell * rows);
        let (outer, _) = ui.allocate_exact_size(size, Sense::hover());
        let grid = Rect::from_min_size(
            outer.min + Vec2::splat(RULER),
            Vec2::new(cell * cols, cell * rows),
        );
        let painter = ui.painter_at(outer);
        let ink = ui.visuals().text_color();
        let line = Stroke::new(1.0, palette.room_edge.gamma_multiply(0.6));
        painter.rect_filled(grid, 4.0, palette.felt);

        // Rulers: the names the log uses ("C4").
        for c in 0..board.cols {
            painter.text(
                Pos2::new(
                    grid.min.x + (f32::from(c) + 0.5) * cell,
                    outer.min.y + RULER / 2.0,
                ),
                egui::Align2::CENTER_CENTER,
                ((b'A' + c) as char).to_string(),
                egui::FontId::proportional(12.0),
                palette.muted,
            );
        }
        for r in 0..board.rows {
            painter.text(
                Pos2::new(
                    outer.min.x + RULER / 2.0,
                    grid.min.y + (f32::from(r) + 0.5) * cell,
                ),
                egui::Align2::CENTER_CENTER,
                (u32::from(r) + 1).to_string(),
                egui::FontId::proportional(12.0),
                palette.muted,
            );
        }

        let shown = self.shown_seat(view, public);
        let targets = shown.map(|s| public.targets(s)).unwrap_or_default();
        let target_colour = shown
            .map(|s| colour_of(&self.colours, s))
            .unwrap_or(palette.accent);
        let id = egui::Id::unique("sprawl-board");
        for sq in board.squares() {
            let rect = Rect::from_min_size(
                grid.min + Vec2::new(f32::from(sq.col) * cell, f32::from(sq.row) * cell),
                Vec2::splat(cell),
            );
            painter.rect_stroke(rect, 0.0, line, egui::StrokeKind::Inside);
            let playable = board_moves.iter().any(|i| landing(i) == Some(sq));
            let response = ui.interact(rect, id.with(sq), Sense::click());
            let mut label = describe_square(view, public, sq);
            if targets.contains(&sq) {
                label.push_str(&format!(
                    ", targeted by {}",
                    shown.map(|s| seat_name(view, s)).unwrap_or_default()
                ));
            }
            if playable {
                label.push_str(" (tap to play here)");
            }
            response
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, playable, &label));
            if response.clicked() {
                self.picked = if self.picked == Some(sq) {
                    None
                } else {
                    Some(sq)
                };
            }

            if playable {
                painter.rect_filled(rect.shrink(1.0), 0.0, palette.accent.gamma_multiply(0.12));
            }
            let pieces = match before {
                Some(b) if b.cell(sq) != board.cell(sq) => {
                    Rect::from_center_size(rect.center(), rect.size() * growth)
                }
                _ => rect,
            };
            match board.cell(sq) {
                Cell::Empty => {}
                Cell::Tower(t) => paint_tower(
                    &painter,
                    pieces,
                    &t,
                    &self.colours,
                    public.is_neutralized(sq),
                ),
                Cell::Branch(b) => {
                    paint_branch(&painter, pieces, &b, &self.colours, public.is_dead(sq))
                }
            }
            if targets.contains(&sq) {
                // A ring where the seat could spore; a corner dot where something stands.
                if board.is_vacant(sq) {
                    painter.circle_stroke(
                        rect.center(),
                        cell * 0.2,
                        Stroke::new(3.0, target_colour),
                    );
                } else {
                    painter.circle(
                        rect.left_top() + Vec2::splat(cell * 0.14),
                        cell * 0.09,
                        target_colour,
                        Stroke::new(1.0, ink),
                    );
                }
            }
            if self.picked == Some(sq) {
                painter.rect_stroke(
                    rect.shrink(1.5),
                    2.0,
                    Stroke::new(3.0, palette.accent),
                    egui::StrokeKind::Inside,
                );
            } else if playable {
                painter.rect_stroke(
                    rect.shrink(1.0),
                    0.0,
                    Stroke::new(1.5, palette.accent),
                    egui::StrokeKind::Inside,
                );
            }
        }
        if let Some(sq) = self.picked {
            ui.label(describe_square(view, public, sq));
        }
    }
}

/// The side of a pyramid's footprint, as a share of the square, by pips.
fn footprint(size: u8) -> f32 {
    0.38 + 0.17 * f32::from(size.min(3))
}

/// A tower from above: one square per piece, largest at the bottom, each with the
/// diagonals that make a pyramid's faces; crossed out when neutralized.
fn paint_tower(
    painter: &egui::Painter,
    rect: Rect,
    tower: &Tower,
    colours: &[[u8; 3]],
    neutralized: bool,
) {
    let cell = rect.width();
    let fade = if neutralized { 0.4 } else { 1.0 };
    let outline = Stroke::new(1.5, Color32::from_black_alpha(200).gamma_multiply(fade));
    for (level, (owner, size)) in tower.pieces().enumerate() {
        let side = cell * footprint(size);
        let r = Rect::from_center_size(rect.center(), Vec2::splat(side));
        // Each piece up the stack a shade lighter, so the levels read from above.
        let fill = colour_of(colours, owner)
            .lerp_to_gamma(Color32::WHITE, 0.2 * level as f32)
            .gamma_multiply(fade);
        painter.rect(r, 2.0, fill, outline, egui::StrokeKind::Inside);
        let edge = Stroke::new(1.0, Color32::BLACK.gamma_multiply(0.45 * fade));
        painter.line_segment([r.left_top(), r.right_bottom()], edge);
        painter.line_segment([r.right_top(), r.left_bottom()], edge);
    }
    if neutralized {
        let r = rect.shrink(cell * 0.12);
        for stroke in [
            Stroke::new(6.0, Color32::BLACK),
            Stroke::new(3.0, Color32::from_rgb(255, 90, 60)),
        ] {
            painter.line_segment([r.left_top(), r.right_bottom()], stroke);
            painter.line_segment([r.right_top(), r.left_bottom()], stroke);
        }
    }
}

/// A lying pyramid from above: a triangle whose base faces its source and whose tip
/// points the way the branch points, longer and wider by pips.
fn paint_branch(
    painter: &egui::Painter,
    rect: Rect,
    branch: &Branch,
    colours: &[[u8; 3]],
    dead: bool,
) {
    let cell = rect.width();
    let fade = if dead { 0.4 } else { 1.0 };
    let (dx, dy) = branch.dir.delta();
    let along = Vec2::new(f32::from(dx), f32::from(dy));
    let across = Vec2::new(-along.y, along.x);
    let len = cell * (0.42 + 0.17 * f32::from(branch.size.min(3)));
    let half_w = cell * (0.14 + 0.07 * f32::from(branch.size.min(3)));
    let c = rect.center();
    let tip = c + along * (len / 2.0);
    let back = c - along * (len / 2.0);
    let points = vec![tip, back + across * half_w, back - across * half_w];
    let fill = colour_of(colours, branch.owner).gamma_multiply(fade);
    painter.add(Shape::convex_polygon(
        points,
        fill,
        Stroke::new(1.5, Color32::from_black_alpha(200).gamma_multiply(fade)),
    ));
    // The ridge from the base to the point shows which way it points at a glance.
    painter.line_segment(
        [back, tip],
        Stroke::new(1.0, Color32::BLACK.gamma_multiply(0.45 * fade)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoard_rules::Game;
    use hoard_rules::sprawl::Dir;

    #[test]
    fn every_kind_of_move_has_words_naming_its_square_and_size() {
        let public = Sprawl::setup(&Config::new(3)).unwrap_or_else(|e| panic!("{e}"));
        let at = Square::new(2, 3);
        let from = Square::new(1, 3);
        assert_eq!(
            move_label(&public, Some(0), &Input::Place { at, size: 3 }),
            "Place a 3 at C4"
        );
        assert_eq!(
            move_label(
                &public,
                Some(0),
                &Input::Branch {
                    from,
                    at,
                    dir: Dir::East,
                    size: 2
                }
            ),
            "Branch a 2 off B4, pointing east"
        );
        assert_eq!(
            move_label(
                &public,
                Some(0),
                &Input::Spore {
                    at,
                    size: 3,
                    builds: 1
                }
            ),
            "Spore a 3 at C4, then build 1 more"
        );
        assert_eq!(landing(&Input::Ask), None);
    }

    #[test]
    fn the_variants_are_described_by_their_rulebook_names() {
        let mut c = Config::new(3);
        assert_eq!(describe(&c), "The basic rules");
        c.counting_coup = true;
        c.loose_branching = true;
        assert_eq!(describe(&c), "Counting Coup, Loose Branching");
    }
}
