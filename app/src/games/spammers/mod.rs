//! SPAMMERS' table: the Unwashed Masses as a row of List boxes (names, Sizes, Specialty
//! chips, Gruntles), every player's Hardware, Scams and Proprietary Lists with their
//! progress toward 20 in all or 12 in one, my hand as a compact strip of cards (a tap reads
//! one whole), and the moves of the moment as finger-sized buttons. A Mailing shows its die,
//! tumbling a moment when it changes, beside the Target Number and its parts; a roll anyone
//! may answer brings a prompt with its countdown.
//!
//! `table.rs` draws what is in play, `moves.rs` the prompt, the die, the hand and the
//! buttons (a move that needs aiming is chosen in steps); this file holds the screen's
//! state and lays the parts out.

mod moves;
mod table;

pub(crate) use crate::games::seat_name;
use crate::games::{InFlight, whose};
use crate::games::{GameScreen, Table, TableFrame};
use crate::net::GameView;
use crate::rules_ref::RulesPage;
use crate::theme;
use crate::widgets;
use crate::widgets::motion::Change;
use hoard_rules::spammers::cards::{self, LISTS};
use hoard_rules::spammers::data::{ActionCard, ActionKind, ListCard, Specialty};
use hoard_rules::spammers::{
    Config, Input, ListRef, Phase, Private, Public, Spammers, Stack, Turn, WIN_SINGLE, WIN_TOTAL,
};
use hoard_rules::{CardId, Game, Handle, Seat};
use std::sync::OnceLock;

/// The game's rules reference, in the app's "How to play".
pub const RULES: RulesPage = RulesPage {
    title: "SPAMMERS",
    players: "2 to 6 players",
    pitch: "Run shady internet businesses, mail the net's gullible masses, and get rich first.",
    sections: &[
        (
            "Setting up",
            "Everyone gets three Lists and six Action cards. In secret, each player gives \
             one List to the Unwashed Masses (lists anyone may mail) and keeps the other \
             two as Proprietary Lists. Then one more List per player joins the Masses.",
        ),
        (
            "A turn",
            "Three actions, in any mix: draw an Action card (nine in hand at most), draw a \
             List (keep it by taking a point off one of your Scams, or send it to the \
             Masses), play a Scam (five at most) or a piece of Hardware, play a Mailing, or \
             merge two of your Lists or two of the Masses. You may stop early.",
        ),
        (
            "Mailings",
            "Pick one of your Scams and a List you may mail. The Target Number is the \
             List's Size plus the Mailing's modifier, plus 2 when the List has the Scam's \
             Specialty, plus your Hardware's bonus. Roll a die: at or under it, the Scam \
             gains a point of Rating; 4 or more under, two points. Either way the List gets \
             a Gruntle, and every Gruntle takes one off its Size.",
        ),
        (
            "Answers and special effects",
            "Instead of mailing, a Mailing card can be played for its Special Effect. Some \
             (like Marketing Wizard) may be played right after anyone's roll to push the \
             Target Number up or down: every player gets a few seconds to answer before the \
             roll counts.",
        ),
        (
            "Gruntled Lists",
            "A Proprietary List gruntled to half its printed Size walks off to the Masses. \
             A Masses List gruntled to its full printed Size is thrown away.",
        ),
        (
            "Winning",
            "Begin your turn with Scams rated 20 or more in all, or one Scam rated 12 or \
             more, and you win.",
        ),
    ],
};

/// The game's screen, by the name every game's screen module gives it.
pub type Screen = SpammersUi;

/// Widest the portrait column grows (a tablet upright).
const COLUMN: f32 = 760.0;
/// Space between the parts of the table.
const GAP: f32 = 8.0;
/// How long the die tumbles after it changes (seconds).
const TUMBLE: f64 = 0.8;

/// A move that takes more than one tap, part chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) enum Step {
    #[default]
    None,
    /// A Mailing from my hand, to mail with: which Scam (then which List).
    Mail { card: Handle, scam: Option<u8> },
    /// A Mailing from my hand, for its Special Effect: at what.
    Special { card: Handle },
    /// Two Lists to merge: the first, then the second.
    Merge { first: Option<ListRef> },
    /// Which Scam to discard for a card.
    Discard,
}

#[derive(Default)]
pub struct SpammersUi {
    /// The card of my hand last tapped: it is shown whole.
    picked: Option<Handle>,
    /// The move being chosen in steps.
    step: Step,
    /// The moment the step was begun in (turn count, actions left): a step is only good
    /// for that moment.
    step_for: Option<(u32, u8)>,
    /// The table my last input was sent from: nothing more is offered until it changes,
    /// so a double tap never sends twice.
    sent_at: InFlight<Public>,
    /// The longest countdown seen in the window under way: the bar's full length.
    window_from: Option<u64>,
    /// The die last seen (with the turn and its Mailings, so a new roll of the same number
    /// tumbles too), and its tumble since it changed.
    die: Change<(Option<u8>, u32, u8)>,
    /// How tall the controls were last frame (portrait): the room kept for them.
    controls_height: f32,
}

/// What this frame knows, shared by the parts of the table.
pub(crate) struct Frame<'a> {
    pub view: &'a GameView,
    pub public: &'a Public,
    pub private: Option<&'a Private>,
    /// What I may do now (empty when nothing is asked of me, or my answer is in).
    pub legal: Vec<Input>,
    pub now: f64,
    /// Motion is off: the die lies still.
    pub still: bool,
}

impl Frame<'_> {
    pub fn me(&self) -> Option<Seat> {
        self.view.me
    }
}

pub(crate) fn seat_colour(view: &GameView, seat: Seat) -> egui::Color32 {
    theme::colour(
        view.seats
            .get(usize::from(seat))
            .map_or([128; 3], |s| s.colour),
    )
}

/// A List card by id, or none for an id the tables do not hold (never from an honest
/// table, but the state comes from the network).
pub(crate) fn list_card(id: CardId) -> Option<&'static ListCard> {
    LISTS.get(usize::from(id))
}

/// An Action card by id, or none for an id outside the deck.
pub(crate) fn action_card(id: CardId) -> Option<&'static ActionCard> {
    static COUNT: OnceLock<usize> = OnceLock::new();
    let count = *COUNT.get_or_init(|| cards::action_deck().len());
    (usize::from(id) < count).then(|| cards::action(id))
}

pub(crate) fn action_name(id: CardId) -> &'static str {
    action_card(id).map_or("an unknown card", |c| c.name)
}

/// A Scam card's category (none: Miscellaneous) and Initial Rating.
pub(crate) fn scam_facts(id: CardId) -> (Option<Specialty>, u8) {
    match action_card(id).map(|c| c.kind) {
        Some(ActionKind::Scam { category, initial }) => (category, initial),
        _ => (None, 0),
    }
}

/// A List's printed Size, counted safely.
pub(crate) fn printed(stack: &Stack) -> i32 {
    stack
        .cards
        .iter()
        .map(|c| list_card(*c).map_or(0, |l| i32::from(l.size)))
        .sum()
}

/// A List's name: its first card's, with how many more are merged in.
pub(crate) fn stack_name(stack: &Stack) -> String {
    let first = stack
        .cards
        .first()
        .and_then(|c| list_card(*c))
        .map_or("A List", |l| l.name);
    match stack.cards.len() {
        0 | 1 => first.to_string(),
        n => format!("{first} +{}", n - 1),
    }
}

/// A List named with where it lies: "Coupon Clippers (Masses)", "... (Ann's)".
pub(crate) fn list_said(f: &Frame, at: ListRef) -> String {
    let name = f.public.stack(at).map_or("a List".into(), stack_name);
    match at {
        ListRef::Masses(_) => format!("{name} (Masses)"),
        ListRef::Proprietary { seat, .. } if f.me() == Some(seat) => format!("{name} (yours)"),
        ListRef::Proprietary { seat, .. } => format!("{name} ({})", whose(f.view, seat)),
    }
}

pub(crate) fn specialty_name(sp: Specialty) -> &'static str {
    match sp {
        Specialty::Adult => "Adult",
        Specialty::InternetServices => "Internet Services",
        Specialty::Grq => "Get-Rich-Quick",
        Specialty::FreeStuff => "Free Stuff",
    }
}

/// A Specialty's chip: short, and its own colour.
pub(crate) fn specialty_chip(sp: Specialty) -> (&'static str, egui::Color32) {
    use egui::Color32;
    match sp {
        Specialty::Adult => ("Adult", Color32::from_rgb(200, 70, 120)),
        Specialty::InternetServices => ("Net", Color32::from_rgb(60, 130, 210)),
        Specialty::Grq => ("GRQ", Color32::from_rgb(190, 150, 30)),
        Specialty::FreeStuff => ("Free", Color32::from_rgb(50, 160, 90)),
    }
}

/// The turn under way, whatever step of it.
pub(crate) fn turn_of(phase: &Phase) -> Option<&Turn> {
    match phase {
        Phase::Turn(turn)
        | Phase::DrawAction { turn, .. }
        | Phase::DrawList { turn }
        | Phase::ListDrawn { turn, .. }
        | Phase::Rolling { turn, .. }
        | Phase::Window { turn, .. } => Some(turn),
        _ => None,
    }
}

impl GameScreen for SpammersUi {
    type Game = Spammers;

    fn in_flight(&mut self) -> &mut InFlight<Public> {
        &mut self.sent_at
    }

    fn options(&mut self, ui: &mut egui::Ui, c: &Config, host: bool) -> Option<Config> {
        ui.label(format!(
            "Scams rated {WIN_TOTAL} in all, or one rated {WIN_SINGLE}, win."
        ));
        let mut next = c.clone();
        // The reaction window is a table setting: the host picks it for everyone.
        if let Some(window) = crate::widgets::window_choice(ui, "Time to answer:", c.window, host) {
            next.window = window;
        }
        Some(next)
    }

    fn summary(&self, t: &Table<'_, Spammers>) -> Vec<String> {
        let (view, public) = (t.view, t.public);
        public
            .areas
            .iter()
            .enumerate()
            .map(|(s, area)| {
                let (total, best) = area.ratings();
                let scams = match area.scams.len() {
                    1 => "1 Scam".to_string(),
                    n => format!("{n} Scams"),
                };
                format!(
                    "{}: Scam ratings total {total} (best {best}, {scams})",
                    seat_name(view, s as Seat)
                )
            })
            .collect()
    }

    fn table(
        &mut self,
        ui: &mut egui::Ui,
        t: &Table<'_, Spammers>,
        frame: TableFrame,
    ) -> Option<Input> {
        let (view, public, private) = (t.view, t.public, t.private);
        let legal = t.legal.clone();
        let f = Frame {
            view,
            public,
            private,
            legal,
            now: frame.now,
            still: frame.still,
        };
        self.keep_choices_fresh(&f);
        self.window_from = view
            .reaction_left_ms
            .map(|ms| self.window_from.unwrap_or(0).max(ms));
        self.watch_die(ui, public, frame);

        let mut chosen: Option<Input> = None;
        let avail = ui.available_size();
        if frame.screen && !frame.portrait {
            // The room's screen: the die and the Unwashed Masses beside every player's
            // spam, which the screen fits to itself; its own column tells the story.
            ui.horizontal_top(|ui| {
                ui.spacing_mut().item_spacing.x = 12.0;
                // Narrower than half each: the columns grow taller, about as wide for
                // their height as the screen, so that they fill it.
                let half = (avail.x * 0.4).floor();
                ui.vertical(|ui| {
                    ui.set_max_width(half);
                    ui.spacing_mut().item_spacing.y = GAP;
                    self.prompt(ui, &f);
                    table::masses(ui, &f);
                });
                ui.vertical(|ui| {
                    ui.set_max_width(half);
                    ui.spacing_mut().item_spacing.y = GAP;
                    table::players(ui, &f);
                });
            });
        } else if frame.portrait && avail.x < 900.0 {
            // Stacked: the controls at the bottom within reach of a thumb, as tall as they
            // were last frame but never more than most of the screen (they scroll beyond);
            // the table scrolls above them.
            let full = ui.available_rect_before_wrap();
            // An answer to a roll is all that matters for its seconds: it may take more.
            let share = if f.legal.contains(&Input::Pass) {
                0.8
            } else {
                0.62
            };
            let most = (full.height() * share).max(160.0);
            let tall = self.controls_height.clamp(60.0, most);
            let bottom =
                egui::Rect::from_min_max(egui::pos2(full.left(), full.bottom() - tall), full.max);
            let top =
                egui::Rect::from_min_max(full.min, egui::pos2(full.right(), bottom.top() - GAP));
            let mut controls = ui.new_child(
                egui::UiBuilder::new()
                    .max_rect(bottom)
                    .layout(egui::Layout::top_down(egui::Align::Min)),
            );
            let out = widgets::column(&mut controls, COLUMN, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("spammers-controls")
                    .max_height(tall)
                    .auto_shrink([false, true])
                    .show(ui, |ui| {
                        ui.spacing_mut().item_spacing.y = 6.0;
                        self.controls(ui, &f, true)
                    })
            });
            chosen = out.inner;
            let wanted = out.content_size.y + 2.0;
            if (wanted - self.controls_height).abs() > 0.5 {
                self.controls_height = wanted;
                ui.ctx().request_repaint();
            }
            let mut table = ui.new_child(
                egui::UiBuilder::new()
                    .max_rect(top)
                    .layout(egui::Layout::top_down(egui::Align::Min)),
            );
            egui::ScrollArea::vertical()
                .id_salt("spammers-table")
                .auto_shrink([false, false])
                .show(&mut table, |ui| {
                    widgets::column(ui, COLUMN, |ui| {
                        ui.spacing_mut().item_spacing.y = GAP;
                        table::masses(ui, &f);
                        table::players(ui, &f);
                        news(ui, view, 3);
                    });
                });
            ui.advance_cursor_after_rect(full);
        } else {
            // A phone on its side gives the controls half the width: its height is short.
            let side = if avail.y < 420.0 {
                (avail.x * 0.5).clamp(280.0, 520.0)
            } else {
                (avail.x * 0.36).clamp(280.0, 440.0)
            };
            // On a short screen the prompt heads the table's column, leaving the side to
            // the moves and the hand.
            let short = avail.y < 420.0;
            ui.horizontal_top(|ui| {
                ui.spacing_mut().item_spacing.x = 12.0;
                ui.vertical(|ui| {
                    ui.set_width(avail.x - side - 12.0);
                    if short {
                        self.prompt(ui, &f);
                    }
                    egui::ScrollArea::vertical()
                        .id_salt("spammers-table")
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            ui.spacing_mut().item_spacing.y = GAP;
                            table::masses(ui, &f);
                            table::players(ui, &f);
                        });
                });
                ui.vertical(|ui| {
                    ui.set_width(side);
                    egui::ScrollArea::vertical()
                        .id_salt("spammers-side")
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            ui.spacing_mut().item_spacing.y = 6.0;
                            chosen = self.controls(ui, &f, !short);
                            news(ui, view, 5);
                        });
                });
            });
        }

        let mut chosen_move = None;
        if let (Some(input), Some(me)) = (chosen, view.me) {
            // Only what the rules take is sent: a stale tap is dropped, not refused later.
            if Spammers::check_input(public, me, &input).is_ok() && f.legal.contains(&input) {
                self.picked = None;
                self.step = Step::None;
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
        ui.label(egui::RichText::new(line).small().color(muted));
    }
}

impl SpammersUi {
    /// Drops a picked card or a half-made move that this moment no longer allows.
    fn keep_choices_fresh(&mut self, f: &Frame) {
        if let Some(h) = self.picked
            && !f
                .me()
                .and_then(|m| f.public.areas.get(usize::from(m)))
                .is_some_and(|a| a.hand.contains(&h))
        {
            self.picked = None;
        }
        let moment = match &f.public.phase {
            Phase::Turn(turn) => Some((f.public.turns, turn.actions)),
            _ => None,
        };
        if moment.is_none() || moment != self.step_for || f.legal.is_empty() {
            self.step = Step::None;
            self.step_for = moment;
        }
    }

    /// Notes when the die changes, so it tumbles a moment before it settles (the first
    /// sight of a table shows its die as it lies). While it is being rolled it tumbles
    /// until it lands, unless motion is off.
    fn watch_die(&mut self, ui: &egui::Ui, public: &Public, frame: TableFrame) {
        let mailings = turn_of(&public.phase).map_or(0, |t| t.mailings);
        let seen = (public.last_roll, public.turns, mailings);
        self.die.follow(&seen, frame, TUMBLE);
        if matches!(public.phase, Phase::Rolling { .. }) && !frame.still {
            ui.ctx().request_repaint();
        } else {
            self.die.repaint(ui.ctx(), frame.now);
        }
    }
}
