//! The game screen around any game's table: the bar (leave, end, log), notices, votes on
//! seats that are away, the table's agreement to end the game, the code a late shared
//! screen joins by (beside the log), and once the game is over, the end screen with the
//! audit's verdict.

use crate::games::{GameUi, TableFrame, TableIntent, seat_name};
use crate::net::{AuditVerdict, AwayVote, GameView, unchecked_words};
use crate::theme::Palette;
use crate::widgets;
use crate::widgets::qr::QrCache;
use egui::RichText;
use hoard_rules::Seat;

/// The code a shared screen joins this game by: this device's own (every seated device
/// serves screens), shown in the log's sheet on request, as a QR code and as text.
#[derive(Default)]
pub struct TableCode {
    /// `None` offline, where no screen can join.
    pub ticket: Option<String>,
    /// Where this device serves the page to browsers, if it does: a TV's browser opens the
    /// table there.
    pub page_url: Option<String>,
    shown: bool,
    qr: QrCache,
}

pub enum GameIntent {
    /// Back pressed: the app asks before leaving a game.
    Leave,
    /// The log opened or closed.
    Log,
    Table(TableIntent),
    Vote {
        seat: Seat,
        vote: AwayVote,
    },
    /// "I'm back": the player returns after the table skipped their turns.
    Back,
    /// "End game" pressed: the app asks before proposing it.
    AskToEnd,
    /// Agree to end the game here, or keep playing (others asked).
    End {
        agree: bool,
    },
    /// From the end screen: back to Home (nothing to ask, the game is over).
    Done,
    /// From the end screen: watch the game again, step by step.
    Replay,
    /// From the end screen: a new game with the same people, bots and options.
    PlayAgain,
    /// The rules of the game (by its title), from the log sheet; back comes back here.
    Rules(&'static str),
}

/// "Ann", "Ann and Bo", "Ann, Bo and Cy".
fn names(view: &GameView, seats: &[Seat]) -> String {
    let names: Vec<String> = seats.iter().map(|s| seat_name(view, *s)).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

pub fn show(
    ui: &mut egui::Ui,
    view: &GameView,
    game: Option<&mut Box<dyn GameUi>>,
    frame: TableFrame,
    log_open: bool,
    code: &mut TableCode,
) -> Vec<GameIntent> {
    let mut intents = Vec::new();
    let palette = Palette::of(ui);
    // Where the table is drawn: the log opens over the lower part of it.
    let region = ui.max_rect();
    let title = game.as_ref().map(|g| g.title()).unwrap_or("Game");
    ui.horizontal(|ui| {
        ui.set_min_height(crate::theme::TOUCH);
        // Narrower padding than elsewhere: three buttons and the game's whole title share
        // a phone's width (each button still at least a thumb wide).
        ui.spacing_mut().button_padding.x = 8.0;
        ui.spacing_mut().item_spacing.x = 6.0;
        let over = view.outcome.is_some();
        let back = if over { "Home" } else { "Leave" };
        if widgets::button(ui, &format!("< {back}")).clicked() {
            intents.push(if over {
                GameIntent::Done
            } else {
                GameIntent::Leave
            });
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui
                .add(
                    egui::Button::new("Log")
                        .selected(log_open)
                        .min_size(egui::Vec2::splat(crate::theme::TOUCH)),
                )
                .clicked()
            {
                intents.push(GameIntent::Log);
            }
            if !over
                && view.halted.is_none()
                && !view.end.mine
                && widgets::button(ui, "End game").clicked()
            {
                intents.push(GameIntent::AskToEnd);
            }
            // The title takes what room the buttons leave: smaller on a phone rather than
            // cut to "Greed…", and cut only below the smallest size.
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                let size = title_size(ui, title, ui.available_width());
                ui.add(egui::Label::new(RichText::new(title).size(size).strong()).truncate());
            });
        });
    });

    if let Some(why) = &view.halted {
        widgets::banner(ui, &format!("The game has stopped: {why}"), palette.warn);
    }

    // The others' devices go on skipping this seat's turns until it says it is back (a
    // turn that waits on it alone is skipped the moment it begins, sooner than a move).
    if view.skipped_me && view.outcome.is_none() {
        widgets::banner(
            ui,
            "The table skipped your turns while you were away",
            palette.warn,
        );
        if widgets::button(ui, "I'm back").clicked() {
            intents.push(GameIntent::Back);
        }
    }

    // Seats that are away: the table decides together whether to wait. One notice for all
    // of them, however many, so the table below keeps its room on a phone.
    away_notice(ui, view, &mut intents);

    // The table's agreement to end the game here.
    if view.outcome.is_none() && !view.end.agreed.is_empty() {
        let me = view.me.unwrap_or(Seat::MAX);
        let others: Vec<Seat> = view
            .end
            .agreed
            .iter()
            .copied()
            .filter(|s| *s != me)
            .collect();
        if view.end.mine {
            let waiting: Vec<Seat> = (0..view.seats.len() as Seat)
                .filter(|s| !view.end.agreed.contains(s))
                .collect();
            widgets::banner(
                ui,
                &format!(
                    "You asked to end the game here. Waiting for {} to agree; if anyone plays on instead, the game goes on.",
                    names(view, &waiting)
                ),
                palette.muted,
            );
        } else if !view.end.declined {
            let want = if others.len() == 1 { "wants" } else { "want" };
            widgets::banner(
                ui,
                &format!(
                    "{} {want} to end the game here. It ends if everyone agrees, with no winner.",
                    names(view, &others)
                ),
                palette.warn,
            );
            ui.horizontal_wrapped(|ui| {
                if widgets::button(ui, "End").clicked() {
                    intents.push(GameIntent::End { agree: true });
                }
                if widgets::button(ui, "Keep playing").clicked() {
                    intents.push(GameIntent::End { agree: false });
                }
            });
        }
    }

    // A reaction window counts down on screen: a tenth of a second keeps its bar moving
    // smoothly; once it has run out nothing more is asked (the next view wakes the screen).
    if view.outcome.is_none()
        && let Some(ms) = view.reaction_left_ms.filter(|ms| *ms > 0)
    {
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(ms.min(100)));
    }

    if log_open {
        match log_sheet(ui, region, &view.log, code) {
            Some(SheetIntent::Close) => intents.push(GameIntent::Log),
            Some(SheetIntent::Rules) => intents.push(GameIntent::Rules(title)),
            None => {}
        }
    }
    if view.outcome.is_some() {
        intents.extend(end_screen(ui, view, game.map(|g| &**g)));
        return intents;
    }
    match game {
        Some(game) => {
            for intent in game.table_ui(ui, view, frame) {
                intents.push(GameIntent::Table(intent));
            }
        }
        None => {
            ui.label("This version of Hoard cannot show this game.");
        }
    }
    intents
}

/// How long a seat has been away, short enough for a phone's line.
fn how_long(secs: u32) -> String {
    if secs < 120 {
        format!("{secs} s")
    } else {
        format!("{} min", secs / 60)
    }
}

const AWAY_CHOICES: [(AwayVote, &str); 3] = [
    (AwayVote::Wait, "Wait"),
    (AwayVote::Skip, "Skip their turns"),
    (AwayVote::Remove, "Remove them"),
];

/// The one notice about every seat that is away: who, for how long, and the player's
/// choice about them, for all at once or (after "One by one") for each.
fn away_notice(ui: &mut egui::Ui, view: &GameView, intents: &mut Vec<GameIntent>) {
    let palette = Palette::of(ui);
    let votes = &view.votes;
    let Some(first) = votes.first() else {
        return;
    };
    let each_id = egui::Id::unique("away-one-by-one");
    let mut each = ui.data(|d| d.get_temp::<bool>(each_id)).unwrap_or(false) && votes.len() > 1;
    let text = if votes.len() == 1 {
        let name = seat_name(view, first.seat);
        if first.my_vote == Some(AwayVote::Skip) {
            format!(
                "{name} is away: you are skipping {name}'s turns until {name} is back. Wait for {name}, or remove {name} from the game?"
            )
        } else {
            format!(
                "{name} has been away for {} seconds: wait, skip their turns, or remove them?",
                first.away_for_secs
            )
        }
    } else {
        let who: Vec<String> = votes
            .iter()
            .map(|v| {
                format!(
                    "{} ({})",
                    seat_name(view, v.seat),
                    how_long(v.away_for_secs)
                )
            })
            .collect();
        let who = match who.split_last() {
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        };
        format!("{who} are away.")
    };
    egui::Frame::new()
        .fill(palette.warn.gamma_multiply(0.18))
        .stroke(egui::Stroke::new(1.0, palette.warn))
        .corner_radius(8)
        .inner_margin(egui::Margin::symmetric(8, 6))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(text).color(ui.visuals().strong_text_color()));
            // A step that cannot skip a seat (a deal needs its key) says what it needs,
            // to a player who chose to skip it or has not chosen.
            let blocked = votes.iter().find_map(|v| {
                v.too_few.as_deref().or(v.remove_cannot.as_deref()).or(v
                    .skip_cannot
                    .as_deref()
                    .filter(|_| v.my_vote != Some(AwayVote::Remove)))
            });
            if let Some(why) = blocked {
                ui.label(RichText::new(capitalised(why)).color(palette.warn));
            }
            ui.horizontal_wrapped(|ui| {
                if !each {
                    // A choice shows as made when every seat away has it.
                    for (v, label) in AWAY_CHOICES {
                        let all = votes.iter().all(|s| s.my_vote == Some(v));
                        if widgets::choice(ui, all, label) {
                            for s in votes.iter().filter(|s| s.my_vote != Some(v)) {
                                intents.push(GameIntent::Vote {
                                    seat: s.seat,
                                    vote: v,
                                });
                            }
                        }
                    }
                }
                if votes.len() > 1 {
                    let word = if each { "All at once" } else { "One by one" };
                    if widgets::button(ui, word).clicked() {
                        each = !each;
                        ui.data_mut(|d| d.insert_temp(each_id, each));
                    }
                }
            });
            if !each {
                return;
            }
            for vote in votes {
                let name = seat_name(view, vote.seat);
                ui.horizontal_wrapped(|ui| {
                    ui.label(format!("{name}, {}:", how_long(vote.away_for_secs)));
                    for (v, label) in [
                        (AwayVote::Wait, format!("Wait for {name}")),
                        (AwayVote::Skip, format!("Skip {name}")),
                        (AwayVote::Remove, format!("Remove {name}")),
                    ] {
                        if widgets::choice(ui, vote.my_vote == Some(v), &label) {
                            intents.push(GameIntent::Vote {
                                seat: vote.seat,
                                vote: v,
                            });
                        }
                    }
                });
            }
        });
}

/// `words` with a capital first letter.
fn capitalised(words: &str) -> String {
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The game log as a sheet over the lower part of the table (where the hand is), so the
/// board above stays in sight while the player reads what happened. Returns true on
/// "Close".
/// What a tap on the log sheet's bar asks for.
enum SheetIntent {
    Close,
    /// The game's rules, in the app's own pages.
    Rules,
}

fn log_sheet(
    ui: &egui::Ui,
    region: egui::Rect,
    log: &[String],
    code: &mut TableCode,
) -> Option<SheetIntent> {
    let height = (region.height() * 0.38)
        .clamp(150.0, 320.0)
        .min(region.height());
    let rect = egui::Rect::from_min_max(
        egui::pos2(region.left(), region.bottom() - height),
        region.max,
    );
    let mut said = None;
    let palette = Palette::of(ui);
    egui::Area::new(egui::Id::unique("table-log-sheet"))
        .order(egui::Order::Foreground)
        .fixed_pos(rect.min)
        .constrain(false)
        .show(ui.ctx(), |ui| {
            egui::Frame::popup(ui.style())
                .inner_margin(egui::Margin::symmetric(8, 4))
                .show(ui, |ui| {
                    let inner = rect.shrink2(egui::vec2(9.0, 5.0));
                    ui.set_width(inner.width());
                    ui.set_height(inner.height());
                    let ticket = code.ticket.clone();
                    let shown = code.shown && ticket.is_some();
                    ui.horizontal(|ui| {
                        let title = if shown { "Screen code" } else { "Game log" };
                        ui.label(RichText::new(title).strong().size(18.0));
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            if widgets::button(ui, "Close").clicked() {
                                said = Some(SheetIntent::Close);
                            }
                            if widgets::button(ui, "Rules").clicked() {
                                said = Some(SheetIntent::Rules);
                            }
                            let other = if shown {
                                "Back to the log"
                            } else {
                                "Screen code"
                            };
                            if ticket.is_some() && widgets::button(ui, other).clicked() {
                                code.shown = !shown;
                            }
                        });
                    });
                    match ticket.filter(|_| shown) {
                        Some(ticket) => {
                            egui::ScrollArea::vertical().show(ui, |ui| {
                                let how = "A laptop or a TV can show this game large, never \
                                           a hand: in Hoard there, \"Join with a code\", \
                                           then scan this code or paste the text and \
                                           \"Show the table here\".";
                                ui.label(RichText::new(how).color(palette.muted));
                                if let Some(url) = &code.page_url {
                                    let tv = crate::screens::home::watch_address(url, &ticket);
                                    ui.label(
                                        RichText::new("A TV's browser, with nothing installed:")
                                            .color(palette.muted),
                                    );
                                    ui.add(
                                        egui::Label::new(RichText::new(tv).strong().size(13.0))
                                            .wrap(),
                                    );
                                }
                                let side = (inner.height() - 70.0).clamp(120.0, 220.0);
                                ui.vertical_centered(|ui| {
                                    code.qr.show(ui, &ticket, side);
                                });
                                let text = RichText::new(&ticket).monospace().size(13.0);
                                ui.add(egui::Label::new(text).wrap());
                            });
                        }
                        None => crate::screens::log::lines(ui, log),
                    }
                });
        });
    said
}

/// The winners, the scores, the audit's verdict, a way home and a way to watch the game
/// again ([`GameIntent::Done`] or [`GameIntent::Replay`]).
fn end_screen(ui: &mut egui::Ui, view: &GameView, game: Option<&dyn GameUi>) -> Option<GameIntent> {
    let palette = Palette::of(ui);
    let mut chosen = None;
    let Some(outcome) = &view.outcome else {
        return None;
    };
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        ui.add_space(8.0);
        let names: Vec<String> = outcome.winners.iter().map(|s| seat_name(view, *s)).collect();
        let i_won = view.me.is_some_and(|m| outcome.winners.contains(&m));
        let headline = match names.len() {
            0 if view.ended_by_agreement => "The game ended by agreement.".to_string(),
            0 => "Nobody won.".to_string(),
            1 if i_won => "You won!".to_string(),
            1 => format!("{} won!", names[0]),
            _ => format!("{} won together!", names.join(" and ")),
        };
        ui.vertical_centered(|ui| {
            ui.label(RichText::new(headline).size(32.0).strong().color(palette.accent));
            if view.ended_by_agreement {
                ui.label("Everyone at the table agreed to stop here, so nobody won.");
            }
        });
        ui.add_space(6.0);
        for (i, seat) in view.seats.iter().enumerate() {
            let won = outcome.winners.contains(&(i as Seat));
            ui.horizontal(|ui| {
                widgets::seat_chip(ui, &seat.name, seat.colour, won);
                if let Some(score) = outcome.scores.get(i) {
                    ui.label(format!("{score} points"));
                }
                if won {
                    ui.label(RichText::new("winner").color(palette.good).strong());
                }
            });
        }
        if let Some(game) = game {
            for line in game.summary(view) {
                ui.label(RichText::new(line).color(palette.muted));
            }
        }
        ui.add_space(10.0);
        ui.label(RichText::new("Fair play").strong().size(20.0));
        match &view.audit {
            None => widgets::banner(
                ui,
                "Checking every hidden play... every device is revealing its secrets.",
                palette.muted,
            ),
            Some(AuditVerdict::Verified) => widgets::banner(
                ui,
                "Verified: every hidden card and choice was legal, and every device saw the same game.",
                palette.good,
            ),
            // Never the plain sentence when a seat left before revealing what it hid.
            Some(AuditVerdict::VerifiedExcept { unchecked }) => widgets::banner(
                ui,
                &format!(
                    "Verified, except {}. Every other hidden card and choice was legal, and \
                     every device saw the same game.",
                    unchecked_words(unchecked, &|s| seat_name(view, s))
                ),
                palette.accent,
            ),
            Some(AuditVerdict::Fault { seat, step, what }) => {
                let who = seat.map(|s| format!(" {}", seat_name(view, s))).unwrap_or_default();
                let when = step.map(|s| format!(" at step {s}")).unwrap_or_default();
                widgets::banner(
                    ui,
                    &format!("Not verified:{who}{when}: {what}"),
                    palette.warn,
                );
            }
        }
        ui.add_space(10.0);
        // Once this device's part of the audit is done: leaving sooner would keep its
        // secrets from the others' audit.
        if view.audit.is_some() && view.me.is_some() {
            if widgets::primary(ui, "Play again").clicked() {
                chosen = Some(GameIntent::PlayAgain);
            }
            let host = seat_name(view, 0);
            let how = if view.me == Some(0) {
                "A new table for the same game, with the same bots: the others join it with \
                 their own Play again."
                    .to_string()
            } else {
                format!("Joins {host}'s new table as soon as {host} opens it.")
            };
            ui.label(RichText::new(how).color(palette.muted));
            ui.add_space(6.0);
        }
        if widgets::wide(ui, "Back to home").clicked() {
            chosen = Some(GameIntent::Done);
        }
        if widgets::wide(ui, "Watch it again").clicked() {
            chosen = Some(GameIntent::Replay);
        }
    });
    chosen
}

/// The largest size, from the heading's down to 14 points, at which `title` fits in `room`.
fn title_size(ui: &egui::Ui, title: &str, room: f32) -> f32 {
    let heading = ui
        .style()
        .text_styles
        .get(&egui::TextStyle::Heading)
        .map_or(20.0, |f| f.size);
    let mut size = heading;
    while size > 14.0 {
        let width = ui
            .painter()
            .layout_no_wrap(
                title.to_string(),
                egui::FontId::proportional(size),
                egui::Color32::WHITE,
            )
            .size()
            .x;
        if width <= room - 2.0 {
            break;
        }
        size -= 1.0;
    }
    size.max(14.0)
}
