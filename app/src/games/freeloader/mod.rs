//! Freeloader's table: the neighbourhood of six houses round the screen (their tracks and
//! pawns, favors, Best Friends, crashers and face-up cards), every player's Stuff with its
//! score and necessities, and at a thumb's reach the prompt, the dice, my hand and the
//! choices. A favor goes to a house tapped on the board; a card tapped in the hand opens to
//! be read whole and offers what can be done with it here. Upright, the controls sit under
//! the board; on a wide screen, beside it.

mod board;
mod cards;
mod moves;
mod words;

use crate::games::InFlight;
use crate::games::{GameScreen, Table, TableFrame};
use crate::net::GameView;
use crate::rules_ref::RulesPage;
use crate::theme::{Palette, TOUCH};
use crate::widgets::motion::{self, Change};
use egui::{Button, Color32, RichText, Sense, Stroke, Vec2};
use hoard_rules::freeloader::data::Space;
use hoard_rules::freeloader::{Config, Freeloader, Held, Input, Phase, Private, Public, TradeKind};
use hoard_rules::{CardId, Game, Seat};

/// The game's rules reference, in the app's "How to play".
pub const RULES: RulesPage = RulesPage {
    title: "Freeloader",
    players: "3 to 6 players",
    pitch: "Mooch your way round six houses of friends for food, clothes and a place to crash.",
    sections: &[
        (
            "A turn",
            "Do one thing: move (roll one or two dice, three with a Car, and follow the space \
             you land on), draw a card (the top of the deck or the one face up at your house), \
             place a favor in any house, or play a card from your hand into your Stuff by \
             spending favors in the house you stand in.",
        ),
        (
            "The spaces",
            "Favor spaces give a favor; Draw lets you draw; Trade swaps a card hand to hand, \
             Stuff to Stuff, or from your hand for a face-up card; Steal takes a Food or a \
             Clothing from someone's Stuff; Crash puts you on the couch, which counts as \
             Shelter; a Bus Stop sends you to a random stop to move again.",
        ),
        (
            "Favors and friends",
            "Everyone starts with two favors in every house. Placing a favor lets you take an \
             open Best Friend space or challenge its holder: each rolls a die times their favors \
             there, ties to the defender, and the loser loses a favor. Best Friends get \
             discounts wherever they stand.",
        ),
        (
            "The end",
            "When the last card leaves the deck, play goes on to the end of the round. Only \
             players with Food, Clothing and Shelter qualify; of them, the most points wins.",
        ),
    ],
};

/// The game's screen, by the name every game's screen module gives it.
pub type Screen = FreeloaderUi;

/// How long the dice tumble after a roll (seconds).
const ROLL_SECS: f64 = 0.5;
const GAP: f32 = 6.0;
/// Widest the table grows on a laptop.
const TABLE_WIDTH: f32 = 960.0;
/// The narrowest a house tile is drawn three to a row.
const TILE_MIN_3: f32 = 170.0;

#[derive(Default)]
pub struct FreeloaderUi {
    /// The house last tapped for a favor (ring place).
    house: Option<u8>,
    /// The card of my hand last tapped.
    card: Option<Held>,
    /// A card opened to read (from a house or someone's Stuff).
    reading: Option<CardId>,
    /// The table my last input was sent from: nothing more is offered until it changes.
    sent_at: InFlight<Public>,
    /// The dice last seen, and their tumble since they changed.
    dice: Change<Vec<u8>>,
    /// While the dice tumble, the time to draw them at.
    rolling: Option<f64>,
    /// The card face up at each house (ring order), and the turn of a new one.
    face_up: Change<Vec<Option<CardId>>>,
}

/// What `card` costs `seat` where its pawn stands, if the table can say.
fn cost(public: &Public, seat: Seat, card: CardId) -> Option<i32> {
    let pawn = *public.pawns.get(usize::from(seat))?;
    public.houses.get(usize::from(public.house_at(pawn)))?;
    words::card(card)?;
    Some(public.cost(seat, card))
}

impl GameScreen for FreeloaderUi {
    type Game = Freeloader;

    fn in_flight(&mut self) -> &mut InFlight<Public> {
        &mut self.sent_at
    }

    fn options(&mut self, ui: &mut egui::Ui, _config: &Config, _host: bool) -> Option<Config> {
        // The range, never a count: the seats are the lobby's to show.
        ui.label("For 3 to 6 players. Freeloader has no variants.");
        None
    }

    fn summary(&self, t: &Table<'_, Freeloader>) -> Vec<String> {
        let (view, public) = (t.view, t.public);
        (0..public.stuff.len() as Seat)
            .map(|s| {
                let qualified = if public.qualifies(s) {
                    "qualified".to_string()
                } else {
                    format!("did not qualify (lacks {})", lacks(public, s).join(", "))
                };
                format!(
                    "{}: {} points, {qualified}",
                    words::seat_name(view, s),
                    public.score(s)
                )
            })
            .collect()
    }

    fn table(
        &mut self,
        ui: &mut egui::Ui,
        t: &Table<'_, Freeloader>,
        frame: TableFrame,
    ) -> Option<Input> {
        let (view, public, private) = (t.view, t.public, t.private);
        self.dice.follow(&public.dice, frame, ROLL_SECS);
        if public.dice.is_empty() {
            // Dice taken off the table have nothing to tumble.
            self.dice.settle();
        }
        self.rolling = self.dice.repaint(ui.ctx(), frame.now).then_some(frame.now);
        let face_up: Vec<Option<CardId>> = public.houses.iter().map(|h| h.face_up).collect();
        self.face_up.follow(&face_up, frame, motion::FLIP);
        self.face_up.repaint(ui.ctx(), frame.now);
        // How far each house's card has turned: only the ones that changed turn.
        let turning: Vec<f32> = match self.face_up.before(frame.now) {
            Some(before) => face_up
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if c.is_some() && before.get(i) != Some(c) {
                        self.face_up.linear(frame.now)
                    } else {
                        1.0
                    }
                })
                .collect(),
            None => Vec::new(),
        };
        let legal = &t.legal;
        let houses = moves::favor_houses(legal);
        if self.house.is_some_and(|h| !houses.contains(&h)) {
            self.house = None;
        }
        let hand = view
            .me
            .and_then(|me| public.hands.get(usize::from(me)))
            .cloned()
            .unwrap_or_default();
        if self.card.is_some_and(|c| !hand.contains(&c)) {
            self.card = None;
        }
        let pickable: Vec<u8> = if houses.len() > 1 { houses } else { Vec::new() };

        let mut chosen: Option<Input> = None;
        let mut tapped = board::Tapped::default();
        let window = ui.ctx().content_rect().size();
        let wide = !frame.portrait && window.x > window.y;
        if frame.screen && wide {
            // The room's screen: the neighbourhood, and beside it the dice and everyone's
            // stuff, which the screen magnifies; its own column tells the story.
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| {
                    // Two houses to a row and a narrow column beside: about as wide for its
                    // height as the screen, so that it fills it.
                    ui.set_max_width(2.0 * 150.0 + 3.0 * GAP);
                    deck_line(ui, public);
                    board::neighbourhood(ui, view, public, 2, &[], None, &turning);
                });
                ui.vertical(|ui| {
                    ui.set_max_width(330.0);
                    self.prompt(ui, view, public, legal);
                    let _ = board::stuff(ui, view, public);
                });
            });
            return None;
        }
        if wide {
            let side = (ui.available_width() * 0.44).clamp(280.0, 440.0).floor();
            egui::Panel::right("freeloader-side")
                .exact_size(side)
                .resizable(false)
                .frame(egui::Frame::new().inner_margin(egui::Margin::symmetric(6, 4)))
                .show(ui, |ui| {
                    egui::ScrollArea::vertical()
                        .id_salt("freeloader-controls")
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            chosen = self.controls(ui, view, public, private, legal);
                        });
                });
        } else {
            let most = (ui.available_height() * 0.55).max(160.0);
            egui::Panel::bottom("freeloader-controls")
                .frame(egui::Frame::new().inner_margin(egui::Margin::symmetric(0, 6)))
                .show(ui, |ui| {
                    egui::ScrollArea::vertical()
                        .id_salt("freeloader-controls")
                        .max_height(most)
                        // The panel grows to what it holds, up to `most`; without this the
                        // scroll area keeps to the panel's first, smaller height.
                        .min_scrolled_height(most)
                        .show(ui, |ui| {
                            chosen = self.controls(ui, view, public, private, legal);
                        });
                });
        }
        egui::ScrollArea::vertical()
            .id_salt("freeloader-board")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                crate::widgets::column(ui, TABLE_WIDTH, |ui| {
                    let palette = Palette::of(ui);
                    deck_line(ui, public);
                    let columns = if ui.available_width() >= 3.0 * TILE_MIN_3 + 2.0 * GAP {
                        3
                    } else {
                        2
                    };
                    tapped = board::neighbourhood(
                        ui, view, public, columns, &pickable, self.house, &turning,
                    );
                    ui.add(
                        egui::Label::new(RichText::new(words::LEGEND).small().color(palette.muted))
                            .wrap(),
                    );
                    ui.add_space(6.0);
                    if let Some(c) = board::stuff(ui, view, public) {
                        tapped.read = Some(c);
                    }
                });
            });
        if let Some(h) = tapped.house {
            self.house = Some(h);
        }
        if let Some(c) = tapped.read {
            self.reading = Some(c);
            self.card = None;
        }

        let mut chosen_move = None;
        if let (Some(input), Some(me)) = (chosen, view.me)
            && Freeloader::check_input(public, me, &input).is_ok()
        {
            self.house = None;
            self.card = None;
            self.reading = None;
            chosen_move = Some(input);
        }
        chosen_move
    }
}

/// The cards left in the deck and the turn, over the houses.
fn deck_line(ui: &mut egui::Ui, public: &Public) {
    let left = public.deck.left();
    ui.label(
        RichText::new(format!(
            "Deck: {left} {} · turn {}",
            if left == 1 { "card" } else { "cards" },
            public.turns
        ))
        .color(Palette::of(ui).muted),
    );
}

/// The necessities `seat` lacks.
fn lacks(public: &Public, seat: Seat) -> Vec<&'static str> {
    use hoard_rules::freeloader::data::Category;
    let stuff = public
        .stuff
        .get(usize::from(seat))
        .cloned()
        .unwrap_or_default();
    let has = |cat| {
        stuff
            .iter()
            .any(|c| words::card(*c).is_some_and(|k| k.category == cat))
    };
    let crashing = public.houses.iter().any(|h| h.is_crashing(seat));
    let mut out = Vec::new();
    if !has(Category::Food) {
        out.push("Food");
    }
    if !has(Category::Clothing) {
        out.push("Clothing");
    }
    if !(has(Category::Shelter) || crashing) {
        out.push("Shelter");
    }
    out
}

impl FreeloaderUi {
    /// The prompt and dice, my hand (or the card opened to read) and the choices; returns
    /// the choice made.
    fn controls(
        &mut self,
        ui: &mut egui::Ui,
        view: &GameView,
        public: &Public,
        private: Option<&Private>,
        legal: &[Input],
    ) -> Option<Input> {
        let palette = Palette::of(ui);
        ui.spacing_mut().item_spacing.y = 6.0;
        self.prompt(ui, view, public, legal);
        let Some(me) = view.me else {
            ui.label(RichText::new("You are watching this game.").color(palette.muted));
            return None;
        };
        let open = self
            .card
            .and_then(|c| {
                private.and_then(|p| p.face(&c)).or(match c {
                    Held::Open(id) => Some(id),
                    Held::Hidden(_) => None,
                })
            })
            .or(self.reading);
        let offers = moves::offered(view, public, private, me, legal, self.house, self.card);
        let mut rows: Vec<(String, Option<Input>, bool)> = offers
            .into_iter()
            .map(|o| (o.label, Some(o.input), o.primary))
            .collect();
        if open.is_some() {
            rows.push(("Back to hand".into(), None, false));
        }
        // The choices above the hand, so a tap on the board never scrolls them away.
        let chosen = self.buttons(ui, &rows);
        match open {
            Some(id) => cards::read_whole(ui, id, cost(public, me, id)),
            None => self.hand(ui, view, public, private, me, legal),
        }
        chosen
    }

    /// The choices as finger-sized buttons, as many to a row as their words allow; returns
    /// the one tapped ("Back to hand" closes the open card instead).
    fn buttons(
        &mut self,
        ui: &mut egui::Ui,
        rows: &[(String, Option<Input>, bool)],
    ) -> Option<Input> {
        let palette = Palette::of(ui);
        let avail = ui.available_width();
        let need = |label: &str| label.chars().count() as f32 * 9.2 + 28.0;
        // Greedy: a row takes the next button while every button still fits its share.
        let mut packed: Vec<Vec<&(String, Option<Input>, bool)>> = Vec::new();
        for r in rows {
            let fits = packed.last().is_some_and(|row| {
                let n = row.len() as f32 + 1.0;
                let widest = row.iter().map(|x| need(&x.0)).fold(need(&r.0), f32::max);
                row.len() < 3 && widest * n + GAP * (n - 1.0) <= avail
            });
            match packed.last_mut() {
                Some(row) if fits => row.push(r),
                _ => packed.push(vec![r]),
            }
        }
        let mut chosen = None;
        for row in packed {
            let n = row.len() as f32;
            let w = ((avail - GAP * (n - 1.0)) / n).floor();
            ui.horizontal(|ui| {
                ui.spacing_mut().item_spacing.x = GAP;
                for (label, input, primary) in row {
                    let mut text = RichText::new(label).size(16.5);
                    let mut button = Button::new(text.clone()).truncate();
                    if *primary {
                        text = text.strong().color(Color32::from_rgb(30, 24, 10));
                        button = Button::new(text).truncate().fill(palette.accent);
                    }
                    if ui.add_sized(Vec2::new(w, TOUCH + 4.0), button).clicked() {
                        match input {
                            Some(i) => chosen = Some(i.clone()),
                            None => {
                                self.card = None;
                                self.reading = None;
                            }
                        }
                    }
                }
            });
        }
        chosen
    }

    /// What the moment asks, in a tinted box, with the dice beside it.
    fn prompt(&self, ui: &mut egui::Ui, view: &GameView, public: &Public, legal: &[Input]) {
        let palette = Palette::of(ui);
        let (text, tint) = self.prompt_words(view, public, legal);
        let tint = if tint { palette.accent } else { palette.muted };
        egui::Frame::new()
            .fill(tint.gamma_multiply(0.16))
            .stroke(Stroke::new(1.0, tint))
            .corner_radius(10)
            .inner_margin(8)
            .show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.horizontal(|ui| {
                    let dice_w = if public.dice.is_empty() {
                        0.0
                    } else {
                        public.dice.len() as f32 * 31.0 + 6.0
                    };
                    ui.add_sized(
                        Vec2::new((ui.available_width() - dice_w).max(40.0), 0.0),
                        egui::Label::new(
                            RichText::new(text)
                                .size(16.5)
                                .strong()
                                .color(ui.visuals().strong_text_color()),
                        )
                        .wrap(),
                    );
                    if !public.dice.is_empty() {
                        board::dice(ui, &public.dice, self.rolling);
                    }
                });
            });
    }

    /// The prompt's words, and whether it asks something of me.
    fn prompt_words(&self, view: &GameView, public: &Public, legal: &[Input]) -> (String, bool) {
        let me = view.me;
        let mine = |s: &Seat| crate::games::is_you(view, *s);
        let name = |s: &Seat| words::seat_name(view, *s);
        let asks = !legal.is_empty();
        if self.sent_at.waiting() {
            return ("Your move is in.".into(), false);
        }
        let here = |s: &Seat| {
            public
                .pawns
                .get(usize::from(*s))
                .map(|p| (*p, public.house_at(*p)))
        };
        let text = match &public.phase {
            Phase::Turn { seat } if mine(seat) && asks => {
                if let Some(h) = self.house {
                    let n = words::house_in(public, h)
                        .and_then(|x| me.and_then(|m| x.favors.get(usize::from(m)).copied()))
                        .unwrap_or(0);
                    format!(
                        "A favor at {} (you have {} there).",
                        words::at_place(public, h),
                        n
                    )
                } else if self.card.is_some() {
                    "Your card: play it here, or go back to your hand.".into()
                } else {
                    "Your turn: move, draw, tap a house for a favor, or tap a card.".into()
                }
            }
            Phase::MoveAgain { seat } if mine(seat) => {
                "The bus dropped you off: move again.".into()
            }
            Phase::Land { seat } if mine(seat) && asks => {
                let (space, house) = here(seat).map_or((Space::Draw, 0), |(p, h)| {
                    (
                        words::house_in(public, h).map_or(Space::Draw, |_| public.space(p)),
                        h,
                    )
                });
                let mut t =
                    words::landed(&words::space_words(space), &words::at_place(public, house));
                match space {
                    Space::Favor(None) if self.house.is_none() => t.push_str(" Tap a house."),
                    Space::Trade => {
                        t.push_str(" Pick whom, or tap a card to swap it for a face-up one.")
                    }
                    _ => {}
                }
                t
            }
            Phase::Challenge {
                seat,
                defender,
                house,
                ..
            } if mine(defender) => format!(
                "{} challenges you for Best Friend at {}: give up or fight?",
                name(seat),
                words::at_place(public, *house)
            ),
            Phase::TradeGive { seat, with, kind } if mine(with) => format!(
                "{} trades with you: give a card from your {}.",
                name(seat),
                if *kind == TradeKind::Hand {
                    "hand"
                } else {
                    "Stuff"
                }
            ),
            Phase::TradeBack { with, kind, .. } if me.is_some_and(|m| mine(&m)) && asks => format!(
                "Give {} a card from your {} in return.",
                name(with),
                if *kind == TradeKind::Hand {
                    "hand"
                } else {
                    "Stuff"
                }
            ),
            Phase::Turn { seat } => format!("{}'s turn.", name(seat)),
            Phase::MoveAgain { seat } => format!("{} takes the bus and moves again.", name(seat)),
            Phase::Moving { seat, .. } => format!("{}…", words::does(view, *seat, "roll", "rolls")),
            Phase::Land { seat } => format!("{} follows the space.", name(seat)),
            Phase::Bus { seat } => format!(
                "{} for the bus…",
                words::does(view, *seat, "wait", "waits")
            ),
            Phase::Challenge { seat, defender, .. } => {
                format!(
                    "{} challenges {} for Best Friend.",
                    name(seat),
                    name(defender)
                )
            }
            Phase::Fight { seat, defender, .. } => {
                format!("{} and {} fight it out…", name(seat), name(defender))
            }
            Phase::TradeGive { seat, with, .. } => {
                format!(
                    "{} with {}.",
                    words::does(view, *seat, "trade", "trades"),
                    name(with)
                )
            }
            Phase::TradeBack { seat, with, .. } => {
                format!("{} gives {} a card back.", name(seat), name(with))
            }
            Phase::DrawTop { seat } => format!(
                "{} a card.",
                words::does(view, *seat, "draw", "draws")
            ),
            Phase::Refill { .. } => "A new card turns up beside the house.".into(),
            Phase::Shuffle => "Shuffling the deck…".into(),
            Phase::Arrange => "Laying out the neighbourhood…".into(),
            Phase::Dealing { .. } => "Dealing…".into(),
            Phase::FaceUp => "Turning up a card beside every house…".into(),
            Phase::Place => "Everyone wanders in…".into(),
            Phase::Over(_) => "The game is over.".into(),
        };
        (text, asks)
    }

    /// My hand as cards to read at a glance; tapping one opens it (and offers its moves).
    fn hand(
        &mut self,
        ui: &mut egui::Ui,
        view: &GameView,
        public: &Public,
        private: Option<&Private>,
        me: Seat,
        legal: &[Input],
    ) {
        let palette = Palette::of(ui);
        let hand = public
            .hands
            .get(usize::from(me))
            .cloned()
            .unwrap_or_default();
        // "your" on the player's own device; a replay drawn with another seat's hand
        // names that seat.
        let whose = crate::games::whose(view, me);
        if hand.is_empty() {
            let empty = format!("{} is empty.", crate::games::hand_title(view));
            ui.label(RichText::new(empty).color(palette.muted));
            return;
        }
        let playable = moves::playable(legal);
        let k = hand.len().max(3) as f32;
        let avail = ui.available_width();
        let w = ((avail - GAP * (k - 1.0)) / k).clamp(84.0, 104.0).floor();
        let size = Vec2::new(w, (w * 1.0).round());
        egui::ScrollArea::horizontal()
            .id_salt("freeloader-hand")
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.spacing_mut().item_spacing.x = GAP;
                    for held in &hand {
                        let face = private.and_then(|p| p.face(held)).or(match held {
                            Held::Open(c) => Some(*c),
                            Held::Hidden(_) => None,
                        });
                        let (rect, response) = ui.allocate_exact_size(size, Sense::click());
                        let painter = ui.painter_at(rect.expand(2.0));
                        let lit = playable.contains(held);
                        match face {
                            Some(id) => cards::paint_face(
                                &painter,
                                &palette,
                                rect,
                                id,
                                cost(public, me, id),
                                lit,
                            ),
                            None => {
                                painter.rect_filled(rect, 6, palette.card_back);
                            }
                        }
                        let label = match face {
                            Some(id) => format!("In {whose} hand: {}", words::card_name(id)),
                            None => format!("A card of {whose} hand"),
                        };
                        response.widget_info(|| {
                            egui::WidgetInfo::labeled(egui::Role::Button, true, &label)
                        });
                        if response.clicked() && face.is_some() {
                            self.card = Some(*held);
                            self.reading = None;
                        }
                    }
                });
            });
    }
}
