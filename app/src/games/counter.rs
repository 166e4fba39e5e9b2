//! Counter's table: the discard pile with the exchange laid on it, every seat's score and
//! cards in hand (face down), and my hand face up as big cards to tap. On my turn a tapped
//! card can be played or given; in a reaction window the cards that can counter glow, and
//! "Let it stand" answers nothing (the device answers so by itself when the window ends).

use super::{GameUi, TableFrame, TableIntent};
use crate::net::{AnyInput, AnyState, GameSetup, GameView};
use crate::rules_ref::RulesPage;
use crate::theme::{self, Palette, TOUCH};
use crate::widgets;
use egui::{Color32, RichText, Sense, Stroke, Vec2};
use hoard_rules::counter::{Config, Counter, Input, Phase, Public, number};
use hoard_rules::{Game, Handle, Seat};

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
             its number, a counter scores 1. Late counters go back to their hands, seen.",
        ),
        (
            "The end",
            "First to 10 points wins at once; otherwise the best score after 30 turns.",
        ),
    ],
};

/// The game's screen, by the name every game's screen module gives it.
pub type Screen = CounterUi;

#[derive(Default)]
pub struct CounterUi {
    /// The card of my hand last tapped.
    picked: Option<Handle>,
    /// The table my last input was sent from: nothing more is offered until it changes.
    sent_at: Option<Public>,
}

fn seat_name(view: &GameView, seat: Seat) -> String {
    view.seats
        .get(usize::from(seat))
        .map(|s| s.name.clone())
        .unwrap_or_else(|| format!("Seat {}", u32::from(seat) + 1))
}

/// A card face: its number large, on a card-coloured ground.
fn card(ui: &mut egui::Ui, label: Option<u8>, lit: bool, picked: bool) -> egui::Response {
    let size = Vec2::new(TOUCH * 1.3, TOUCH * 1.8);
    let (rect, response) = ui.allocate_exact_size(size, Sense::click());
    let palette = Palette::of(ui);
    let ground = match label {
        Some(_) => Color32::from_rgb(250, 246, 236),
        None => Color32::from_rgb(60, 90, 140),
    };
    let stroke = if picked {
        Stroke::new(3.0, palette.accent)
    } else if lit {
        Stroke::new(3.0, Color32::from_rgb(230, 170, 40))
    } else {
        Stroke::new(1.0, Color32::from_gray(120))
    };
    ui.painter().rect(rect, 6.0, ground, stroke, egui::StrokeKind::Inside);
    if let Some(n) = label {
        ui.painter().text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            n.to_string(),
            egui::FontId::proportional(size.y * 0.5),
            Color32::from_rgb(40, 40, 40),
        );
    }
    response
}

impl GameUi for CounterUi {
    fn title(&self) -> &'static str {
        "Counter"
    }

    fn seats(&self) -> std::ops::RangeInclusive<u8> {
        Counter::seat_range()
    }

    fn default_setup(&self) -> GameSetup {
        GameSetup::Counter(Config::new(*Counter::seat_range().start()))
    }

    fn owns(&self, setup: &GameSetup) -> bool {
        matches!(setup, GameSetup::Counter(_))
    }

    fn shows(&self, view: &GameView) -> bool {
        matches!(view.state, AnyState::Counter { .. })
    }

    fn options_ui(
        &mut self,
        ui: &mut egui::Ui,
        setup: &GameSetup,
        _host: bool,
    ) -> Option<GameSetup> {
        if let GameSetup::Counter(c) = setup {
            ui.label(format!(
                "First to {} points, or the best after {} turns",
                c.target, c.turns
            ));
        }
        None
    }

    fn summary(&self, view: &GameView) -> Vec<String> {
        let AnyState::Counter { public, .. } = &view.state else {
            return Vec::new();
        };
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

    fn table_ui(
        &mut self,
        ui: &mut egui::Ui,
        view: &GameView,
        _frame: TableFrame,
    ) -> Vec<TableIntent> {
        let AnyState::Counter { public, private } = &view.state else {
            return Vec::new();
        };
        let mut intents = Vec::new();
        if self.sent_at.as_ref().is_some_and(|p| p != public) {
            self.sent_at = None;
        }
        let legal = match view.me {
            Some(me) if view.my_turn && self.sent_at.is_none() => {
                Counter::legal_inputs(public, private.as_ref(), me)
            }
            _ => Vec::new(),
        };
        let mut send = |this: &mut CounterUi, input: Input| {
            this.sent_at = Some(public.clone());
            this.picked = None;
            intents.push(TableIntent::Play(AnyInput::Counter(input)));
        };

        // The seats: score, cards in hand, whose turn.
        ui.horizontal_wrapped(|ui| {
            for s in 0..public.config.seats {
                let to_move = matches!(public.phase, Phase::Turn { seat } if seat == s);
                let colour = view.seats.get(usize::from(s)).map_or([128; 3], |v| v.colour);
                let text = format!(
                    "{}  {} pts  {} cards",
                    seat_name(view, s),
                    public.scores[usize::from(s)],
                    public.hands[usize::from(s)].len()
                );
                widgets::seat_chip(ui, &text, colour, to_move);
            }
        });
        ui.add_space(8.0);

        // The middle of the table: the deck, the discard pile, the exchange.
        ui.horizontal(|ui| {
            ui.vertical(|ui| {
                card(ui, None, false, false);
                ui.label(format!("{} left", public.deck.left()));
            });
            ui.vertical(|ui| {
                card(ui, public.discard.last().map(|c| number(*c)), false, false);
                ui.label(format!("{} discarded", public.discard.len()));
            });
            if let Phase::Window { laid, .. } = &public.phase {
                for (s, c) in laid {
                    ui.vertical(|ui| {
                        card(ui, Some(number(*c)), false, false);
                        ui.label(seat_name(view, *s));
                    });
                }
            }
        });
        ui.add_space(8.0);

        let prompt = match &public.phase {
            Phase::Window { laid, seats } => {
                let (s, c) = laid.last().copied().unwrap_or((0, 0));
                let waiting: Vec<String> = seats.iter().map(|s| seat_name(view, *s)).collect();
                format!(
                    "{} laid a {}. Counter? Waiting on {}.",
                    seat_name(view, s),
                    number(c),
                    waiting.join(", ")
                )
            }
            Phase::Turn { seat } if Some(*seat) == view.me => "Your turn.".into(),
            Phase::Turn { seat } => format!("{}'s turn.", seat_name(view, *seat)),
            Phase::Over(_) => "The game is over.".into(),
            _ => "The deck is being dealt…".into(),
        };
        ui.label(RichText::new(prompt).strong());

        // My hand.
        let Some(me) = view.me else {
            return intents;
        };
        let hand = &public.hands[usize::from(me)];
        ui.horizontal_wrapped(|ui| {
            for h in hand {
                let face = private.as_ref().and_then(|p| p.face(h));
                let counter = legal.iter().find_map(|i| match i {
                    Input::Counter { card, face } if card == h => Some(*face),
                    _ => None,
                });
                let picked = self.picked == Some(*h);
                if card(ui, face.map(number), counter.is_some(), picked).clicked() {
                    if let Some(face) = counter {
                        send(self, Input::Counter { card: *h, face });
                    } else {
                        self.picked = if picked { None } else { Some(*h) };
                    }
                }
            }
        });
        ui.add_space(6.0);
        ui.horizontal_wrapped(|ui| {
            let palette = Palette::of(ui);
            let _ = (palette, theme::colour);
            if legal.contains(&Input::Allow) && widgets::button(ui, "Let it stand").clicked() {
                send(self, Input::Allow);
            }
            if let Some(picked) = self.picked {
                let play = legal.iter().find_map(|i| match i {
                    Input::Play { card, face } if *card == picked => Some(*face),
                    _ => None,
                });
                if let Some(face) = play
                    && widgets::primary(ui, "Play it").clicked()
                {
                    send(self, Input::Play { card: picked, face });
                }
                for to in (0..public.config.seats).filter(|t| *t != me) {
                    if legal.contains(&Input::Give { card: picked, to })
                        && widgets::button(ui, &format!("Give to {}", seat_name(view, to)))
                            .clicked()
                    {
                        send(self, Input::Give { card: picked, to });
                    }
                }
            }
            if legal.contains(&Input::Draw) && widgets::button(ui, "Draw").clicked() {
                send(self, Input::Draw);
            }
            if matches!(public.phase, Phase::Turn { .. })
                && legal.contains(&Input::Wait)
                && widgets::button(ui, "Wait").clicked()
            {
                send(self, Input::Wait);
            }
        });
        intents
    }
}
