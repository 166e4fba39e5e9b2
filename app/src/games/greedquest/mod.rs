//! GreedQuest's table: the track of rooms, every seat's card place (empty, face down and
//! ticked, or revealed with a half-turn), the resolution told line by line, the hand of
//! five as large cards, and the prompts the rules ask for (WILD values, duels, who
//! changes places, whom to track, Room 11's keep-or-discard).

mod card;
mod reveal;
mod track;

use super::{GameScreen, InFlight, Table, TableFrame, is_you};
use crate::net::{GameView, SessionId};
use crate::rules_ref::RulesPage;
use crate::theme::Palette;
use crate::widgets;
use crate::widgets::motion::{self, Change};
use card::Look;
use egui::{RichText, Vec2};
use hoard_rules::Game;
use hoard_rules::Seat;
use hoard_rules::greedquest::{
    Attrition, Card, Config, DuelFor, Facing, GreedQuest, Input, Length, Pick, Private, Public,
    Stage, Status, rooms,
};
use reveal::Reveal;

/// The game's rules reference, in the app's "How to play".
pub const RULES: RulesPage = RulesPage {
    title: "GreedQuest",
    players: "2 to 6 players",
    pitch: "Race to the dragon's hoard in Room 12, then be first back out to Room 1.",
    sections: &[
        (
            "A turn",
            "Everyone picks one card from a hand of five and plays it face down. When all \
             have played, the cards are turned over and resolved in a fixed order. Then \
             everyone draws back up to five. An empty deck is reshuffled from the discards.",
        ),
        (
            "Moving",
            "The highest Go! card wins the turn and moves one room forward; equal winners \
             all move. Forward means towards Room 12 until you reach it, then back towards \
             Room 1. You cannot bounce off Room 1 or Room 12: extra movement is lost. The \
             first to reach Room 12 and return to Room 1 wins; arriving together, you win \
             together.",
        ),
        (
            "The cards, in the order they act",
            "Loot the Bodies!: throw away your hand and draw five new cards at once.\n\
             Dragon ATTACK!!: cancels every card played this turn, unless two or more are \
             played; then only the attacks are cancelled.\n\
             The Meek Shall Inherit: this turn the lowest Go! wins. Two or more cancel out.\n\
             Curse!: everyone who moves by Go!, See Ya! or Secret Door moves backward \
             instead. Tracking is not affected. Two or more cancel out.\n\
             Dragon Sighting: Go!, Tracking and See Ya! played by anyone in your room or \
             the room behind you do nothing.\n\
             Secret Door: move two rooms forward.\n\
             See Ya!: move one room forward for every Go! card in play.\n\
             Go! 1 to 8 (two of each) and Go WILD!: WILD is any value you like, chosen \
             after every card is seen.\n\
             Even Chance / Odd Reversal: if the winning Go! is even (odd), swap rooms with \
             its player, keeping your facings.\n\
             Tracking (two): move one room towards the winning Go!'s player.",
        ),
        (
            "Duels",
            "When a tie must be settled, the players in it each play a face-down card; the \
             highest Go! wins and WILD beats every Go!. A tie at the top duels again; if \
             nobody plays a Go!, everybody loses the duel.",
        ),
        (
            "The rooms",
            "Rooms change the rules for whoever stands in them, and room rules beat card \
             rules. Room 1 protects against Curse!. Room 5 takes 2 from your Go!. Room 6 \
             lets you leave only with a card nobody else played. Room 8 stops you drawing. \
             Room 10 silences Secret Door and See Ya!. In Room 11 you may discard the \
             first card you draw each turn. Tap a room on the table to read its rule.",
        ),
        (
            "Variants",
            "Short Game: only Room 1's rule applies. Shortest Game: the first to reach \
             Room 12 wins. This Is My Room!: leaders in the same room and direction duel \
             between turns; losers step back. Survival of the Fittest and Uniqueness Is \
             Where You Find It: cards played without effect, or special cards once played, \
             are gone for good.",
        ),
    ],
};

/// The game's screen, by the name every game's screen module gives it.
pub type Screen = GreedQuestUi;

#[derive(Default)]
pub struct GreedQuestUi {
    /// The card tapped in the hand, waiting for Play.
    selected: Option<Card>,
    /// What I sent: shown face down until the table moves on from it.
    sent: Option<Input>,
    /// The table my last move was sent from (the framework's guard against a second).
    sent_at: InFlight<Public>,
    /// The room whose rule is open under the track.
    room_info: Option<u8>,
    /// The last completed turn, as it is being revealed.
    reveal: Reveal,
    /// The table and every seat's room on it (by seat), and the move to them under way.
    rooms: Change<(SessionId, Vec<u8>)>,
    /// The host has the variant choices open in the lobby.
    options_open: bool,
}

fn length_label(length: Length) -> &'static str {
    match length {
        Length::Full => "Full game",
        Length::Short => "Short Game",
        Length::Shortest => "Shortest Game",
    }
}

fn attrition_label(a: Attrition) -> &'static str {
    match a {
        Attrition::None => "No attrition",
        Attrition::Survival => "Survival of the Fittest",
        Attrition::Uniqueness => "Uniqueness Is Where You Find It",
    }
}

/// One line describing a setup, for players who are not the host.
pub fn describe(config: &Config) -> String {
    let mut parts = vec![length_label(config.length).to_string()];
    if config.this_is_my_room {
        parts.push("This Is My Room!".into());
    }
    if config.attrition != Attrition::None {
        parts.push(attrition_label(config.attrition).into());
    }
    parts.join(", ")
}

impl GameScreen for GreedQuestUi {
    type Game = GreedQuest;

    fn in_flight(&mut self) -> &mut InFlight<Public> {
        &mut self.sent_at
    }

    fn options(&mut self, ui: &mut egui::Ui, config: &Config, host: bool) -> Option<Config> {
        ui.label(format!("Rules: {}", describe(config)));
        if !host {
            return None;
        }
        let word = if self.options_open {
            "Done with variants"
        } else {
            "Change variants"
        };
        if widgets::wide(ui, word).clicked() {
            self.options_open = !self.options_open;
        }
        if !self.options_open {
            return None;
        }
        let mut next = config.clone();
        ui.horizontal_wrapped(|ui| {
            for length in [Length::Full, Length::Short, Length::Shortest] {
                if widgets::choice(ui, next.length == length, length_label(length)) {
                    next.length = length;
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            for (on, text) in [(false, "Leaders share rooms"), (true, "This Is My Room!")] {
                if widgets::choice(ui, next.this_is_my_room == on, text) {
                    next.this_is_my_room = on;
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            for a in [Attrition::None, Attrition::Survival, Attrition::Uniqueness] {
                if widgets::choice(ui, next.attrition == a, attrition_label(a)) {
                    next.attrition = a;
                }
            }
        });
        Some(next)
    }

    fn summary(&self, t: &Table<'_, GreedQuest>) -> Vec<String> {
        let (view, public) = (t.view, t.public);
        public
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let name = view.seats.get(i).map(|v| v.name.as_str()).unwrap_or("?");
                let way = match s.facing {
                    Facing::In => "heading in",
                    Facing::Out => "heading out with the loot",
                };
                if public.left.contains(i as Seat) {
                    return format!("{name}: Room {}, out of the race (left the game)", s.room);
                }
                format!("{name}: Room {}, {way}", s.room)
            })
            .collect()
    }

    fn table(
        &mut self,
        ui: &mut egui::Ui,
        t: &Table<'_, GreedQuest>,
        frame: TableFrame,
    ) -> Option<Input> {
        let (view, public, private) = (t.view, t.public, t.private);
        let mut chosen = None;
        // The framework's guard says when the table has moved on from my last move: the
        // card it showed face down, and the choice, go with it.
        if self.sent.is_some() && !t.sent {
            self.sent = None;
            self.selected = None;
        }
        let names: Vec<String> = view.seats.iter().map(|s| s.name.clone()).collect();
        self.reveal
            .update(public, &view.log, &names, frame.now, frame.still);
        // The pawns set off once the cards that moved them are face up.
        let rooms = (view.session, public.seats.iter().map(|s| s.room).collect());
        let first = self.rooms.value().is_none_or(|(s, _)| *s != view.session);
        let delay = self.reveal.turning_for(frame.now);
        self.rooms.follow_after(&rooms, frame, motion::SLIDE, delay);
        if first {
            // Another table, or the first sight of this one: the pawns stand where they are.
            self.rooms.settle();
        }
        // Repaint only while something moves: every frame while cards turn or pawns slide,
        // then once per line of the story, and once when the turned-up cards leave the table.
        if self.reveal.animating(frame.now) {
            ui.ctx().request_repaint();
        } else if let Some(wait) = self.reveal.next_change_in(frame.now) {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs_f64(wait.max(0.01)));
        }
        self.rooms.repaint(ui.ctx(), frame.now);

        // The arrangement follows the window, not the room the notices above leave: a
        // notice must not turn a phone held upright into two cramped columns.
        let w = ui.available_width();
        let window = ui.ctx().content_rect().size();
        if window.x > window.y && window.y < SHORT {
            // A phone on its side: the hand and the story beside the board, not under it.
            egui::Panel::right("gq-side")
                .exact_size((w * 0.46).floor())
                .resizable(false)
                .frame(egui::Frame::new().inner_margin(egui::Margin::symmetric(6, 0)))
                .show(ui, |ui| {
                    egui::ScrollArea::vertical()
                        .id_salt("gq-side")
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            self.prompt_and_hand(
                                ui,
                                view,
                                public,
                                private,
                                &mut chosen,
                                frame,
                            );
                            self.reveal.show_lines(ui, frame.now, STORY_LINES);
                        });
                });
            egui::ScrollArea::vertical()
                .id_salt("gq-board")
                .auto_shrink([false, false])
                .show(ui, |ui| self.board(ui, view, public, frame, Layout::Side));
            return chosen;
        }
        if frame.screen {
            // The room's screen: the board alone, which the screen magnifies; its own column
            // says whose turn it is and what was played. As wide as on a laptop, where the
            // track folds in two: about as wide for its height as the screen.
            ui.set_max_width((ui.available_width() * 0.62).floor());
            self.board(ui, view, public, frame, Layout::Wide);
            return chosen;
        }
        // The hand and the prompt stay at the bottom of the screen, within reach of a thumb.
        egui::Panel::bottom("gq-hand")
            .frame(egui::Frame::new().inner_margin(egui::Margin::symmetric(0, 6)))
            .show(ui, |ui| {
                self.prompt_and_hand(ui, view, public, private, &mut chosen, frame)
            });
        if w >= WIDE {
            // Landscape and laptops: the board on the left, the turn's story on the right.
            let left_w = (ui.available_width() * 0.62).floor();
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| {
                    ui.set_width(left_w);
                    egui::ScrollArea::vertical()
                        .id_salt("gq-board")
                        .auto_shrink([false, false])
                        .show(ui, |ui| self.board(ui, view, public, frame, Layout::Wide));
                });
                ui.vertical(|ui| {
                    egui::ScrollArea::vertical()
                        .id_salt("gq-story")
                        .auto_shrink([false, false])
                        .stick_to_bottom(true)
                        .show(ui, |ui| self.reveal.show_lines(ui, frame.now, usize::MAX));
                });
            });
        } else {
            egui::ScrollArea::vertical()
                .id_salt("gq-board")
                .auto_shrink([false, false])
                .show(ui, |ui| self.board(ui, view, public, frame, Layout::Phone));
        }
        chosen
    }
}

/// From this width on (points), the board and the story sit side by side.
const WIDE: f32 = 860.0;
/// Below this height (points), on a screen wider than tall, the hand moves beside the board.
const SHORT: f32 = 520.0;

/// How the table is arranged.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Portrait: board, story and track stacked; the hand below.
    Phone,
    /// Laptop or tablet: the story in its own column; big cards.
    Wide,
    /// A phone on its side: the hand and story in a column beside the board.
    Side,
}
/// Lines of the turn's story shown on a phone; the whole of it is in the game log.
const STORY_LINES: usize = 5;

impl GreedQuestUi {
    /// Turn header, seat places, the track and (unless the story has its own column) the
    /// resolution.
    fn board(
        &mut self,
        ui: &mut egui::Ui,
        view: &GameView,
        public: &Public,
        frame: TableFrame,
        layout: Layout,
    ) {
        let palette = Palette::of(ui);
        let me = view.me;
        if let Some(me) = me.and_then(|m| public.seats.get(usize::from(m))) {
            let way = match me.facing {
                Facing::In => "heading in to the Hoard",
                Facing::Out => "heading out with the loot",
            };
            ui.label(
                RichText::new(format!(
                    "Turn {}. You are in Room {}, {way}.",
                    public.turn, me.room
                ))
                .strong(),
            );
        } else {
            ui.label(RichText::new(format!("Turn {}", public.turn)).strong());
        }
        self.seat_places(ui, view, public, frame, layout);
        if layout == Layout::Phone {
            self.reveal.show_lines(ui, frame.now, STORY_LINES);
        }
        ui.add_space(4.0);
        let colours: Vec<[u8; 3]> = view.seats.iter().map(|s| s.colour).collect();
        let tokens = track::tokens(public, &colours, me);
        let moving = self
            .rooms
            .before(frame.now)
            .map(|(_, before)| (before.as_slice(), self.rooms.progress(frame.now)));
        let compact = layout == Layout::Side;
        if let Some(n) = track::show(ui, public, &tokens, self.room_info, compact, moving) {
            self.room_info = if self.room_info == Some(n) {
                None
            } else {
                Some(n)
            };
        }
        if let Some(n) = self.room_info {
            let room = rooms::room(n);
            let applies = rooms::effects(&public.config, n).number == n;
            let mut text = format!("Room {n}: {}. {}", room.name, room.text);
            if !applies {
                text.push_str(" (Not in this game: only Room 1's rule is used.)");
            }
            widgets::banner(ui, &text, palette.accent);
        } else {
            ui.label(
                RichText::new("Tap a room to read its rule.")
                    .small()
                    .color(palette.muted),
            );
        }
    }

    /// One place per seat: name, state, and the card: empty, face down (ticked once
    /// committed), or face up once revealed.
    fn seat_places(
        &mut self,
        ui: &mut egui::Ui,
        view: &GameView,
        public: &Public,
        frame: TableFrame,
        layout: Layout,
    ) {
        let palette = Palette::of(ui);
        let n = public.seats.len().max(1);
        let gap = 6.0;
        let col_w = ((ui.available_width() - gap * (n as f32 - 1.0)) / n as f32).min(120.0);
        // Big enough on a wide screen to carry the card's text; compact on a phone.
        let card_w = (col_w - 8.0).min(match layout {
            Layout::Wide => 104.0,
            Layout::Phone => 56.0,
            Layout::Side => 44.0,
        });
        let card_size = Vec2::new(card_w, card_w * 1.4);
        let revealed_now = public.table.iter().any(|s| s.card.is_some());
        let awaited = awaited_seats(public);
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = gap;
            for (i, slot) in public.table.iter().enumerate() {
                let seat = i as Seat;
                let info = view.seats.get(i);
                ui.vertical(|ui| {
                    ui.set_width(col_w);
                    let name = info.map(|s| s.name.as_str()).unwrap_or("?");
                    let colour = info.map(|s| s.colour).unwrap_or([128, 128, 128]);
                    let short: String = name.chars().take(9).collect();
                    widgets::seat_chip(ui, &short, colour, is_you(view, seat));
                    let (rect, response) = ui.allocate_exact_size(card_size, egui::Sense::hover());
                    let committed = info.is_some_and(|s| s.committed)
                        || (view.me == Some(seat) && self.sent.is_some());
                    let (look, turn, dim, label) = if revealed_now {
                        match slot.card {
                            Some(card) => (
                                Look::Face(card),
                                self.reveal.turned(seat, frame.now),
                                matches!(slot.status, Status::Void | Status::Gone),
                                format!("{name} played {}", card.name()),
                            ),
                            None => (Look::Empty, 1.0, false, format!("{name} sat out")),
                        }
                    } else if let Some((card, t)) = self.reveal.face(seat, frame.now) {
                        (
                            Look::Face(card),
                            t,
                            false,
                            format!("{name} played {} last turn", card.name()),
                        )
                    } else if committed {
                        (
                            Look::Back,
                            0.0,
                            false,
                            format!("{name} has played face down"),
                        )
                    } else {
                        (
                            Look::Empty,
                            0.0,
                            false,
                            format!("{name} has not played yet"),
                        )
                    };
                    card::paint(ui, rect, look, turn, dim, false);
                    if look == Look::Back && committed {
                        card::tick(ui, rect);
                    }
                    if look == Look::Face(Card::Wild) && slot.wild > 0 && revealed_now {
                        ui.painter().text(
                            rect.center_bottom() - Vec2::new(0.0, 10.0),
                            egui::Align2::CENTER_CENTER,
                            format!("= {}", slot.wild),
                            egui::FontId::proportional(16.0),
                            palette.accent,
                        );
                    }
                    response
                        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));
                    // The state under the card: away, ticked, or thinking.
                    let (word, colour) = match info {
                        _ if public.left.contains(seat) => ("left the game".into(), palette.muted),
                        Some(s) if !s.connected => (
                            match s.away_for_secs {
                                Some(secs) => format!("away {secs}s"),
                                None => "away".to_string(),
                            },
                            palette.warn,
                        ),
                        _ if awaited.contains(&seat) && committed => {
                            ("played".into(), palette.good)
                        }
                        _ if awaited.contains(&seat) => ("thinking".into(), palette.muted),
                        _ => (String::new(), palette.muted),
                    };
                    if !word.is_empty() {
                        ui.label(RichText::new(word).small().color(colour));
                    }
                });
            }
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn prompt_and_hand(
        &mut self,
        ui: &mut egui::Ui,
        view: &GameView,
        public: &Public,
        private: Option<&Private>,
        chosen: &mut Option<Input>,
        frame: TableFrame,
    ) {
        let palette = Palette::of(ui);
        let Some(me) = view.me else {
            ui.label(RichText::new("You are watching this game.").color(palette.muted));
            return;
        };
        let legal = private
            .map(|p| GreedQuest::legal_inputs(public, Some(p), me))
            .unwrap_or_default();
        let mine_to_do = view.my_turn && self.sent.is_none() && !legal.is_empty();
        let name_of = |s: Seat| {
            if Some(s) == view.me {
                "you".to_string()
            } else {
                view.seats
                    .get(usize::from(s))
                    .map(|v| v.name.clone())
                    .unwrap_or_else(|| format!("seat {s}"))
            }
        };
        let waiting: Vec<String> = awaited_seats(public)
            .into_iter()
            .filter(|s| {
                Some(*s) != view.me && !view.seats.get(usize::from(*s)).is_some_and(|v| v.committed)
            })
            .map(name_of)
            .collect();
        let waiting_line = if waiting.is_empty() {
            String::new()
        } else {
            format!("Waiting for {}.", join_names(&waiting))
        };

        let mut send = |this: &mut Self, input: Input| {
            this.sent = Some(input);
            this.selected = None;
            *chosen = Some(input);
        };
        let cards_to_play = matches!(public.stage, Stage::Play { .. } | Stage::Duel { .. });

        // What the moment asks, in words.
        let prompt: String = match public.stage {
            Stage::Deal => "Shuffling every deck...".into(),
            Stage::Over => "The game is over.".into(),
            Stage::Play { seats } if !seats.contains(me) => {
                format!("You sit out this turn. {waiting_line}")
            }
            Stage::Play { .. } if self.sent.is_some() || (!view.my_turn && !legal.is_empty()) => {
                format!("Your card is face down. {waiting_line}")
            }
            Stage::Play { .. } if legal.len() == 1 && rooms::effects(&public.config, public.seats[usize::from(me)].room).special == rooms::Special::Encounter => {
                "In the Random Encounter you play the top card of your deck.".into()
            }
            Stage::Play { .. } => "Choose a card, then Play. It goes face down until everyone has played.".into(),
            Stage::Wild { seats } if seats.contains(me) && mine_to_do => {
                "Every card is on the table. Name your Go WILD!'s value:".into()
            }
            Stage::Duel { duel, seats } if seats.contains(me) && mine_to_do => {
                format!("Duel{}! {} Lay a card face down: the highest Go! wins, and Go WILD! beats every Go!.",
                    if duel.round > 1 { format!(", round {}", duel.round) } else { String::new() },
                    duel_stake(duel.why, &name_of))
            }
            Stage::Pick { pick, chooser } if chooser == me && mine_to_do => match pick {
                Pick::Swapper { card, .. } => format!("Choose whose {} changes places:", card.name()),
                Pick::Winner { partner, .. } => format!("Choose who trades places with {}:", name_of(partner)),
            },
            Stage::Track { seat } if seat == me && mine_to_do => {
                "Several Go! cards won. Choose whom your Tracking follows:".into()
            }
            Stage::LastParty { seats } if seats.contains(me) && mine_to_do => {
                "The Remains of the Last Party: keep the first card you drew, or discard it and draw another? Only you will know.".into()
            }
            _ => {
                if waiting_line.is_empty() {
                    "Resolving...".into()
                } else {
                    waiting_line.clone()
                }
            }
        };
        // A phone on its side has little height to spare: a smaller prompt keeps Play in view.
        let window = ui.ctx().content_rect().size();
        let prompt_size = if window.y < SHORT { 15.0 } else { 17.0 };
        ui.label(RichText::new(prompt).size(prompt_size));

        // Choices that are not cards.
        if mine_to_do && !cards_to_play {
            let choices: Vec<(Input, String)> = legal
                .iter()
                .map(|input| (*input, choice_label(input, &name_of)))
                .collect();
            if matches!(public.stage, Stage::LastParty { .. })
                && let Some(card) = private.and_then(|p| p.drawn)
            {
                ui.horizontal(|ui| {
                    let (rect, _) =
                        ui.allocate_exact_size(Vec2::new(96.0, 134.0), egui::Sense::hover());
                    card::paint(ui, rect, Look::Face(card), 1.0, false, false);
                    ui.label(RichText::new(card::effect(card)).small());
                });
            }
            ui.horizontal_wrapped(|ui| {
                for (input, label) in choices {
                    if widgets::button(ui, &label).clicked() {
                        send(self, input);
                    }
                }
            });
        }

        // The hand: large cards, tap to choose, then Play.
        let Some(private) = private else { return };
        let hand: Vec<Card> = private.hand.cards().collect();
        if hand.is_empty() && private.drawn.is_none() {
            let empty = format!("{} is empty.", super::hand_title(view));
            ui.label(RichText::new(empty).color(palette.muted));
            return;
        }
        let playable = |c: Card| legal.contains(&Input::Card(c)) && mine_to_do && cards_to_play;
        let gap = 6.0;
        let avail = ui.available_width();
        let per_row = hand.len().max(5);
        // No taller than a fifth of the window, so the board above keeps its room.
        let w = ((avail - gap * (per_row as f32 - 1.0)) / per_row as f32)
            .min(if frame.portrait { 120.0 } else { 140.0 })
            .min(window.y * 0.2 / 1.42);
        let size = Vec2::new(w, w * 1.42);
        let sent_card = match self.sent {
            Some(Input::Card(c)) => Some(c),
            _ => None,
        };
        ui.add_space(10.0); // room for the lifted card
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = gap;
            let mut face_down_shown = false;
            for card in &hand {
                if sent_card == Some(*card) && !face_down_shown {
                    // The card just played lies face down where it was, until the table moves on.
                    face_down_shown = true;
                    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
                    card::paint(ui, rect, Look::Back, 0.0, false, false);
                    response.widget_info(|| {
                        egui::WidgetInfo::labeled(
                            egui::Role::Image,
                            true,
                            format!("{} played face down", card.name()),
                        )
                    });
                    continue;
                }
                let selected = self.selected == Some(*card);
                let response = card::hand_card(ui, size, *card, selected, playable(*card));
                if response.clicked() {
                    self.selected = if selected { None } else { Some(*card) };
                }
            }
        });
        if let Some(card) = self.selected.filter(|c| playable(*c)) {
            ui.label(RichText::new(format!("{}: {}", card.name(), card::effect(card))).size(16.0));
        } else if let Some(only) = legal
            .first()
            .filter(|_| legal.len() == 1 && cards_to_play && mine_to_do)
        {
            // Room 9: the one legal card is the top of the deck, not in the hand.
            if let Input::Card(card) = only
                && !hand.contains(card)
            {
                self.selected = Some(*card);
            }
        }
        if cards_to_play && mine_to_do {
            let label = if matches!(public.stage, Stage::Duel { .. }) {
                "Play in the duel"
            } else {
                "Play"
            };
            let chosen = self.selected.filter(|c| legal.contains(&Input::Card(*c)));
            if widgets::primary_enabled(ui, chosen.is_some(), label).clicked()
                && let Some(card) = chosen
            {
                send(self, Input::Card(card));
            }
        }
    }
}

fn awaited_seats(public: &Public) -> Vec<Seat> {
    match public.stage {
        Stage::Play { seats }
        | Stage::Wild { seats }
        | Stage::Duel { seats, .. }
        | Stage::LastParty { seats } => seats.to_vec(),
        Stage::Pick { chooser, .. } => vec![chooser],
        Stage::Track { seat } => vec![seat],
        Stage::Deal | Stage::Over => Vec::new(),
    }
}

fn join_names(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn duel_stake(why: DuelFor, name_of: &dyn Fn(Seat) -> String) -> String {
    match why {
        DuelFor::Swapper { card } => format!("Who of you played the {} that counts?", card.name()),
        DuelFor::Winner { partner } => format!(
            "The winner decides who trades places with {}.",
            name_of(partner)
        ),
        DuelFor::Lead { .. } => "This Is My Room!: the winner stays, the others step back.".into(),
    }
}

/// The words on a choice button.
fn choice_label(input: &Input, name_of: &dyn Fn(Seat) -> String) -> String {
    match *input {
        Input::Card(card) => card.name().to_string(),
        Input::Wild(v) => format!("{v}"),
        Input::Swap(seat) => {
            let who = name_of(seat);
            if who == "you" { "Me".to_string() } else { who }
        }
        Input::Track(seat) => format!("Track {}", name_of(seat)),
        Input::KeepDrawn => "Keep it".into(),
        Input::DiscardDrawn => "Discard it, draw another".into(),
        // Never offered: only the table's vote puts these in a step.
        Input::SitOut | Input::Leave => "Away".into(),
    }
}
