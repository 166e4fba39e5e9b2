//! Spree!'s table: LeGrand Mall drawn as its board (shops as little cards, the open floor,
//! the parking lot and its spaces, the walls, the fountain), every player's car and
//! shopper, a strip of seats with each cart and banked score, and my hand as big cards.
//! Moving is drawing a path on the board with a thumb: after the roll the squares within
//! reach light up, each tap extends the path, and "Go" (or a second tap on its end) walks
//! it. A tapped card offers what it can do where the shopper stands; a play someone may
//! stop brings a Stop! prompt with its countdown.
//!
//! `board.rs` paints the mall and takes taps on it, `cards.rs` the cards, the hand and the
//! seats, `moves.rs` the prompt and the buttons; this file holds the screen's state and
//! lays the parts out.

mod board;
mod cards;
mod moves;

pub(crate) use crate::games::seat_name;
use crate::games::{InFlight, is_you};
use crate::games::{GameScreen, Table, TableFrame};
use crate::net::{GameView, SessionId};
use crate::rules_ref::RulesPage;
use crate::theme::{self, TOUCH};
use crate::widgets;
use crate::widgets::motion::{self, Change};
use crate::widgets::settle::Settling;
use egui::Vec2;
use hoard_rules::spree::board::Sq;
use hoard_rules::spree::{
    Config, Input, Phase, Private, Public, Spree, Turn, hit_sixths, reachable, shot_targets,
};
use hoard_rules::{CardId, Game, Handle, Seat};

/// The game's rules reference, in the app's "How to play".
pub const RULES: RulesPage = RulesPage {
    title: "Spree!",
    players: "3 to 8 players",
    pitch: "Loot a shopping mall at midnight: shop, steal, shoot, and lock it in your car.",
    sections: &[
        (
            "A turn",
            "Draw up to five cards at the start and end of your turn. Roll two dice and \
             move up to that many squares, never straight back the way you came. Play a \
             card from your hand into your cart as you pass the shop that sells it (two \
             identical cards go in together).",
        ),
        (
            "Stealing and shooting",
            "Walk over another shopper and play a card of the same rank to take every \
             card of that rank from their cart. Shoot along a straight line: roll one die \
             and count squares; reach the target and it falls over and you take another \
             turn, fall short and you fall over. Shooting ends your turn.",
        ),
        (
            "Special cards",
            "2s and 10s can be played as extra movement. Aces stop a purchase, a theft, a \
             move card, a shot, or another Ace. Jokers are anything but can buy nothing.",
        ),
        (
            "Scoring",
            "Reach your car to bank your cart: numbers score face value, J 11, Q 12, K 13, \
             A 15, Joker 0. First to the target wins: 200 points for three players, down \
             to 75 for eight.",
        ),
        (
            "Hong Kong rules",
            "A table option: shots count one more, pushes go through the fountain, and a \
             car can be driven with the dice over the lot and the open floor, running \
             over anyone standing in its way.",
        ),
    ],
};

/// The game's screen, by the name every game's screen module gives it.
pub type Screen = SpreeUi;

/// Widest the portrait column grows (a tablet upright).
const COLUMN: f32 = 760.0;
/// Space between the parts of the table.
const GAP: f32 = 8.0;
/// How long the dice tumble after they change (seconds).
const TUMBLE: f64 = 0.7;
/// How long a shopper takes to walk to its new square (seconds).
const SLIDE: f64 = 0.45;

/// The walking dice, the shot's die and the turn count: a change in any is a new roll.
type DiceSeen = (Option<(u8, u8)>, Option<u8>, u32);

#[derive(Default)]
pub struct SpreeUi {
    /// The card of my hand last tapped.
    picked: Option<Handle>,
    /// The squares of the walk being drawn, after the one the shopper stands on.
    path: Vec<Sq>,
    /// Where the shopper stood and how many steps were left when the path was begun: a
    /// path is only good for that moment of the turn.
    path_for: Option<(Sq, u8, u32)>,
    /// A shootable player tapped on the board: its Shoot button is the main one.
    aim: Option<Seat>,
    /// A parking space tapped on the board, to park or drive at: a second tap there, or
    /// its button, goes (one tap on the board never ends a turn).
    space: Option<Input>,
    /// The move buttons, each waiting a moment after it takes another's place.
    settling: Settling,
    /// The table my last input was sent from: nothing more is offered until it changes,
    /// so a double tap never sends twice.
    sent_at: InFlight<Public>,
    /// The longest countdown seen in the window under way: the bar's full length.
    window_from: Option<u64>,
    /// The dice last seen, and their tumble since they changed.
    dice: Change<DiceSeen>,
    /// Every shopper's square, by seat, and the slide to them under way.
    shoppers: Change<(SessionId, Vec<Sq>)>,
    /// Every cart, by seat, and the turn of the cards just put in.
    carts: Change<Vec<Vec<CardId>>>,
    /// On a phone, the player asked for the whole mall at once (small squares) rather than
    /// a thumb-sized mall to pan.
    whole_mall: bool,
    /// The square the panned mall was last brought to: it is brought to the next one only
    /// when that changes, so the player's own panning stays.
    focus: Option<Sq>,
    /// Frames left to bring the panned mall to [`Self::focus`].
    focus_frames: u8,
}

/// What this frame knows, shared by the parts of the table.
pub(crate) struct Frame<'a> {
    pub view: &'a GameView,
    pub public: &'a Public,
    pub private: Option<&'a Private>,
    /// What I may do now (empty when nothing is asked of me, or my answer is in).
    pub legal: Vec<Input>,
    /// My turn under way, when it is my turn to act.
    pub my_turn: Option<&'a Turn>,
    pub now: f64,
    /// Motion is off: dice lie still.
    pub still: bool,
    /// While cards just put in carts turn face up: how many each cart held before (by
    /// seat), and how far they have turned (0 to 1).
    pub cart_turn: Option<(Vec<usize>, f32)>,
}

impl Frame<'_> {
    pub fn me(&self) -> Option<Seat> {
        self.view.me
    }

    /// The shots I may take that can hit, each with its chance in sixths. A target more
    /// than five squares off cannot be reached by one die: shooting at it only knocks me
    /// over, so it is neither offered nor lit.
    pub fn shots(&self) -> Vec<(Seat, u8)> {
        let Some(me) = self.me() else {
            return Vec::new();
        };
        shot_targets(self.public, me)
            .into_iter()
            .filter(|(t, _, _)| self.legal.contains(&Input::Shoot { target: *t }))
            .map(|(t, _, distance)| (t, hit_sixths(self.public, distance)))
            .filter(|(_, sixths)| *sixths > 0)
            .collect()
    }
}

/// A seat as the subject of a sentence: "You" for mine.
pub(crate) fn who(view: &GameView, seat: Seat) -> String {
    if is_you(view, seat) {
        "You".into()
    } else {
        seat_name(view, seat)
    }
}

pub(crate) fn seat_colour(view: &GameView, seat: Seat) -> egui::Color32 {
    theme::colour(
        view.seats
            .get(usize::from(seat))
            .map_or([128; 3], |s| s.colour),
    )
}

impl GameScreen for SpreeUi {
    type Game = Spree;

    fn in_flight(&mut self) -> &mut InFlight<Public> {
        &mut self.sent_at
    }

    fn options(&mut self, ui: &mut egui::Ui, c: &Config, host: bool) -> Option<Config> {
        ui.label(format!(
            "First to lock {} points in the car wins ({} players; fewer points with more)",
            c.target, c.seats
        ));
        let mut next = c.clone();
        let extra = c.jokers > hoard_rules::spree::cards::JOKERS;
        let short = c.target == hoard_rules::spree::short_target(c.seats);
        if host {
            ui.horizontal_wrapped(|ui| {
                let chip = |ui: &mut egui::Ui, on: bool, name: &str| {
                    ui.add(egui::Button::selectable(on, name).min_size(Vec2::splat(TOUCH)))
                        .clicked()
                };
                if chip(ui, c.hong_kong, "Hong Kong rules") {
                    next.hong_kong = !c.hong_kong;
                }
                if chip(ui, extra, "Extra Jokers") {
                    next.jokers = if extra {
                        hoard_rules::spree::cards::JOKERS
                    } else {
                        hoard_rules::spree::cards::JOKERS * 2
                    };
                }
                if chip(ui, short, "Short game") {
                    next.target = if short {
                        hoard_rules::spree::target(c.seats)
                    } else {
                        hoard_rules::spree::short_target(c.seats)
                    };
                }
            });
        } else {
            let mut on = Vec::new();
            if c.hong_kong {
                on.push("Hong Kong rules");
            }
            if extra {
                on.push("extra Jokers");
            }
            if short {
                on.push("a short game");
            }
            if !on.is_empty() {
                ui.label(on.join(", "));
            }
        }
        // The reaction window is a table setting: the host picks it for everyone.
        if let Some(window) = crate::widgets::window_choice(ui, "Time to stop:", c.window, host) {
            next.window = window;
        }
        Some(next)
    }

    fn summary(&self, t: &Table<'_, Spree>) -> Vec<String> {
        let (view, public) = (t.view, t.public);
        (0..public.config.seats)
            .map(|s| {
                let i = usize::from(s);
                let banked = public.scores.get(i).copied().unwrap_or(0);
                let cart = public.carts.get(i).map_or(0, |c| {
                    c.iter()
                        .map(|c| hoard_rules::spree::cards::points(*c))
                        .sum::<i32>()
                });
                let mut line = format!(
                    "{}: {banked} of {} points locked in the car",
                    seat_name(view, s),
                    public.config.target
                );
                if cart > 0 {
                    line.push_str(&format!(", {cart} left in the cart"));
                }
                line
            })
            .collect()
    }

    fn table(
        &mut self,
        ui: &mut egui::Ui,
        t: &Table<'_, Spree>,
        frame: TableFrame,
    ) -> Option<Input> {
        let (view, public, private) = (t.view, t.public, t.private);
        let legal = t.legal.clone();
        let my_turn = match &public.phase {
            Phase::Act(turn) if Some(turn.seat) == view.me && !legal.is_empty() => Some(turn),
            _ => None,
        };
        let f = Frame {
            view,
            public,
            private,
            legal,
            my_turn,
            now: frame.now,
            still: frame.still,
            cart_turn: self.watch_carts(ui, public, frame),
        };
        self.keep_choices_fresh(&f);
        self.window_from = view
            .reaction_left_ms
            .map(|ms| self.window_from.unwrap_or(0).max(ms));
        self.watch_dice(ui, public, frame);
        self.watch_shoppers(ui, view, public, frame);

        let mut chosen: Option<Input> = None;
        let avail = ui.available_size();
        // Side by side once the screen is wider than tall; stacked, the controls kept at
        // the bottom within reach of a thumb.
        if frame.screen && !frame.portrait {
            // The room's screen: the seats and the dice over the mall, which takes the rest;
            // the screen's own column tells the story.
            ui.vertical(|ui| {
                ui.set_width(avail.x);
                ui.spacing_mut().item_spacing.y = 6.0;
                cards::seats_strip(ui, &f);
                self.prompt(ui, &f);
                let left = ui.available_height();
                let _ = self.board(ui, &f, left, false);
            });
        } else if frame.portrait && avail.x < 900.0 {
            egui::Panel::bottom("spree-controls")
                .frame(egui::Frame::new().inner_margin(egui::Margin::symmetric(0, 6)))
                .show(ui, |ui| {
                    widgets::column(ui, COLUMN, |ui| {
                        ui.spacing_mut().item_spacing.y = 6.0;
                        chosen = chosen.take().or(self.controls(ui, &f, false, 90.0));
                    });
                });
            egui::ScrollArea::vertical()
                .id_salt("spree-table")
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    widgets::column(ui, COLUMN, |ui| {
                        ui.spacing_mut().item_spacing.y = GAP;
                        cards::seats_strip(ui, &f);
                        // The board takes the width; on a phone, where that would make its
                        // squares smaller than a thumb, it is drawn larger to pan.
                        chosen = chosen.take().or(self.board(ui, &f, f32::INFINITY, true));
                        news(ui, view, 3);
                    });
                });
        } else {
            let side = (avail.x * 0.32).clamp(280.0, 420.0);
            let height = avail.y;
            ui.horizontal_top(|ui| {
                ui.spacing_mut().item_spacing.x = 12.0;
                ui.vertical(|ui| {
                    ui.set_width(avail.x - side - 12.0);
                    chosen = chosen.take().or(self.board(ui, &f, height, false));
                });
                ui.vertical(|ui| {
                    ui.set_width(side);
                    egui::ScrollArea::vertical()
                        .id_salt("spree-side")
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            ui.spacing_mut().item_spacing.y = 6.0;
                            // On a short screen the controls come first; the seats follow.
                            let short = height < 520.0;
                            if !short {
                                cards::seats_strip(ui, &f);
                            }
                            let hand = if short { 64.0 } else { 120.0 };
                            chosen = chosen.take().or(self.controls(ui, &f, true, hand));
                            if short {
                                cards::seats_strip(ui, &f);
                            }
                            news(ui, view, 5);
                        });
                });
            });
        }

        let mut chosen_move = None;
        if let (Some(input), Some(me)) = (chosen, view.me) {
            // Only what the rules take is sent: a stale tap is dropped, not refused later.
            if Spree::check_input(public, me, &input).is_ok() {
                self.picked = None;
                self.aim = None;
                self.space = None;
                self.path.clear();
                chosen_move = Some(input);
            }
        }
        chosen_move
    }
}

/// The last things that happened, so a bot's move is never missed.
fn news(ui: &mut egui::Ui, view: &GameView, lines: usize) {
    let muted = crate::theme::Palette::of(ui).muted;
    let start = view.log.len().saturating_sub(lines);
    for line in view.log.get(start..).unwrap_or_default() {
        ui.label(egui::RichText::new(plain(line)).small().color(muted));
    }
}

/// A log line in letters the app's fonts have: the narration names cards by their suit
/// symbols ("7♥"), which the screen spells out.
fn plain(line: &str) -> String {
    line.replace('♥', " of hearts")
        .replace('♠', " of spades")
        .replace('♣', " of clubs")
        .replace('♦', " of diamonds")
}

impl SpreeUi {
    /// Drops a picked card, a target or a path that this moment no longer allows.
    fn keep_choices_fresh(&mut self, f: &Frame) {
        if let Some(h) = self.picked
            && !f
                .me()
                .and_then(|m| f.public.hands.get(usize::from(m)))
                .is_some_and(|hand| hand.contains(&h))
        {
            self.picked = None;
        }
        if self
            .aim
            .is_some_and(|s| !f.legal.contains(&Input::Shoot { target: s }))
        {
            self.aim = None;
        }
        if self.space.as_ref().is_some_and(|i| !f.legal.contains(i)) {
            self.space = None;
        }
        let moment = f.my_turn.and_then(|turn| {
            let pawn = f.public.pawns.get(usize::from(turn.seat))?;
            Some((pawn.shopper, turn.left, f.public.turns))
        });
        if moment.is_none() || moment != self.path_for {
            self.path.clear();
            self.path_for = moment;
        }
        if !self.path.is_empty()
            && let (Some(turn), Some(me)) = (f.my_turn, f.me())
            && (turn.seat != me
                || Spree::check_input(
                    f.public,
                    me,
                    &Input::Walk {
                        path: self.path.clone(),
                    },
                )
                .is_err())
        {
            self.path.clear();
        }
    }

    /// Notes when the dice change, so they tumble a moment before they settle (the first
    /// sight of a table shows its dice as they lie). While they are being rolled they
    /// tumble until they land, unless motion is off.
    fn watch_dice(&mut self, ui: &egui::Ui, public: &Public, frame: TableFrame) {
        let seen = (public.dice, public.shot_die, public.turns);
        self.dice.follow(&seen, frame, TUMBLE);
        if matches!(public.phase, Phase::Rolling { .. }) && !frame.still {
            ui.ctx().request_repaint();
        } else {
            self.dice.repaint(ui.ctx(), frame.now);
        }
    }

    /// Notes when cards go into carts, so they turn face up there.
    fn watch_carts(
        &mut self,
        ui: &egui::Ui,
        public: &Public,
        frame: TableFrame,
    ) -> Option<(Vec<usize>, f32)> {
        self.carts.follow(&public.carts, frame, motion::FLIP);
        self.carts.repaint(ui.ctx(), frame.now);
        let before = self.carts.before(frame.now)?;
        Some((
            before.iter().map(Vec::len).collect(),
            self.carts.linear(frame.now),
        ))
    }

    /// Notes when shoppers change squares, so they slide there.
    fn watch_shoppers(
        &mut self,
        ui: &egui::Ui,
        view: &GameView,
        public: &Public,
        frame: TableFrame,
    ) {
        let squares = public.pawns.iter().map(|p| p.shopper).collect();
        let other_table = self
            .shoppers
            .value()
            .is_none_or(|(s, _)| *s != view.session);
        self.shoppers.follow(&(view.session, squares), frame, SLIDE);
        if other_table {
            self.shoppers.settle();
        }
        self.shoppers.repaint(ui.ctx(), frame.now);
    }

    /// The squares the walk being drawn may be extended to, each with the steps there
    /// from its end: the rules' own reach, asked from where the path ends.
    fn reach(&self, f: &Frame) -> Vec<(Sq, Vec<Sq>)> {
        let Some(turn) = f.my_turn else {
            return Vec::new();
        };
        if !f.legal.iter().any(|i| matches!(i, Input::Walk { .. })) {
            return Vec::new();
        }
        let Some(&end) = self.path.last() else {
            return reachable(f.public, turn);
        };
        let mut public = f.public.clone();
        let Some(pawn) = public.pawns.get_mut(usize::from(turn.seat)) else {
            return Vec::new();
        };
        let start = pawn.shopper;
        pawn.shopper = end;
        let mut rest = turn.clone();
        rest.prev = Some(match self.path.len() {
            1 => start,
            n => self.path[n - 2],
        });
        rest.left = turn.left.saturating_sub(self.path.len() as u8);
        reachable(&public, &rest)
    }
}
