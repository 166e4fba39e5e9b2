//! The table before the game: which game and variant, who sits where, bots, ready,
//! start, and the host's join code as a QR code and as text.

use crate::games::GameUi;
use crate::net::{GameSetup, LobbyView};
use crate::screens::home;
use crate::theme::{Palette, TOUCH};
use crate::widgets::{self, qr::QrCache};
use egui::RichText;

#[derive(Default)]
pub struct LobbyState {
    qr: QrCache,
    /// The host opened or closed the join code; until then it shows while alone.
    code_open: Option<bool>,
    /// The code was copied (said under the button until the code is hidden).
    copied: bool,
}

pub enum LobbyIntent {
    Leave,
    Choose(GameSetup),
    AddBot,
    /// The host makes the table this many seats.
    Size(u8),
    RemoveSeat(u8),
    Ready(bool),
    Start,
    CopyCode,
    /// Open the rules of the game chosen (by its title).
    Rules(&'static str),
}

pub fn show(
    ui: &mut egui::Ui,
    state: &mut LobbyState,
    view: &LobbyView,
    ticket: Option<&str>,
    page_url: Option<&str>,
    games: &mut [Box<dyn GameUi>],
) -> Option<LobbyIntent> {
    let mut intent = None;
    let palette = Palette::of(ui);
    if widgets::top_bar(ui, &view.table_name, Some("Leave")) {
        intent = Some(LobbyIntent::Leave);
    }
    let current = games.iter().position(|g| g.owns(&view.setup));
    let range = current.map(|i| games[i].seats());
    // Ready and start, pinned at the bottom: seats filling and screens joining above never
    // move them under a thumb.
    egui::Panel::bottom("lobby-ready")
        .resizable(false)
        .frame(egui::Frame::new().inner_margin(egui::Margin::symmetric(0, 6)))
        .show(ui, |ui| {
            if let Some(said) = ready_and_start(ui, view, range.as_ref(), ticket) {
                intent = Some(said);
            }
        });
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            // The join code first: while the host sits alone, it is what the table is for.
            if let Some(ticket) = ticket.filter(|_| view.host) {
                let open = state.code_open.unwrap_or(view.seats.len() < 2);
                let word = if open {
                    "Hide the join code"
                } else {
                    "Show the join code"
                };
                if widgets::wide(ui, word).clicked() {
                    state.code_open = Some(!open);
                    state.copied = false;
                }
                if open {
                    let side = ui.available_width().min(240.0);
                    match page_url {
                        // One code for everyone: a phone's camera opens the page with the
                        // join code in it; Hoard itself joins by the same address.
                        Some(url) => {
                            let how = "Friends on this Wi-Fi see the table by themselves. A \
                                phone without Hoard: point its camera at this code to sit down \
                                in the browser, nothing to install.";
                            ui.label(RichText::new(how).color(palette.muted));
                            ui.vertical_centered(|ui| {
                                state.qr.show(ui, &home::join_address(url, ticket), side);
                            });
                            ui.label(RichText::new(format!("Or open {url}")).strong());
                            ui.label(RichText::new("Join code:").color(palette.muted));
                        }
                        None => {
                            let how = "Friends on this Wi-Fi see the table by themselves. If \
                                they don't, they can scan this code or paste the text.";
                            ui.label(RichText::new(how).color(palette.muted));
                            ui.vertical_centered(|ui| {
                                state.qr.show(ui, ticket, side);
                            });
                        }
                    }
                    ui.add(egui::Label::new(RichText::new(ticket).monospace().size(13.0)).wrap());
                    if !cfg!(target_os = "android") && widgets::wide(ui, "Copy the code").clicked()
                    {
                        intent = Some(LobbyIntent::CopyCode);
                        state.copied = true;
                    }
                    if state.copied {
                        let said = "Copied: paste it into a message to a friend.";
                        ui.label(RichText::new(said).color(palette.muted));
                    }
                    ui.add_space(8.0);
                }
            }

            // The game.
            ui.label(RichText::new("Game").strong().size(20.0));
            if view.host {
                ui.horizontal_wrapped(|ui| {
                    for (i, game) in games.iter().enumerate() {
                        if widgets::choice(ui, current == Some(i), game.title()) {
                            intent = Some(LobbyIntent::Choose(game.default_setup()));
                        }
                    }
                });
            }
            match current {
                Some(i) => {
                    let game = &mut games[i];
                    if !view.host {
                        ui.label(RichText::new(game.title()).size(22.0));
                    }
                    if let Some(setup) = game.options_ui(ui, &view.setup, view.host) {
                        intent = Some(LobbyIntent::Choose(setup));
                    }
                    let title = game.title();
                    if widgets::button(ui, &format!("How to play {title}")).clicked() {
                        intent = Some(LobbyIntent::Rules(title));
                    }
                }
                None => {
                    ui.label("The host chose a game this version of Hoard does not have.");
                }
            }

            // The seats.
            ui.add_space(8.0);
            let seats_hint = range
                .as_ref()
                .map(|r| format!(" ({} to {} players)", r.start(), r.end()))
                .unwrap_or_default();
            ui.label(
                RichText::new(format!("Seats{seats_hint}"))
                    .strong()
                    .size(20.0),
            );
            for (i, seat) in view.seats.iter().enumerate() {
                ui.horizontal_wrapped(|ui| {
                    ui.set_min_height(TOUCH);
                    let mut name = seat.name.clone();
                    if seat.me {
                        name.push_str(" (you)");
                    }
                    if seat.bot && !name.to_lowercase().contains("bot") {
                        name.push_str(" (bot)");
                    }
                    widgets::seat_chip(ui, &name, seat.colour, seat.me);
                    let (word, colour) = if !seat.connected {
                        ("away", palette.warn)
                    } else if seat.ready {
                        ("ready", palette.good)
                    } else {
                        ("not ready", palette.muted)
                    };
                    ui.label(RichText::new(word).color(colour));
                    if view.host && !seat.me && widgets::button(ui, "Remove").clicked() {
                        intent = Some(LobbyIntent::RemoveSeat(i as u8));
                    }
                });
            }
            if view.host {
                // The table's size: from the game's least to its most, never below the
                // seats taken.
                if let (Some(range), Some(size)) = (range.as_ref(), view.size)
                    && range.start() < range.end()
                {
                    ui.horizontal_wrapped(|ui| {
                        ui.label("Table for");
                        for n in range.clone() {
                            // Sizes below the seats taken stay in place, greyed.
                            let fits = usize::from(n) >= view.seats.len();
                            // Its own button, so the row wraps on a narrow phone.
                            let chip = egui::Button::new(n.to_string())
                                .selected(size == n)
                                .min_size(egui::Vec2::splat(TOUCH));
                            let chip = ui.add_enabled(fits, chip);
                            // Read out whole: "Table for 4", not a bare number.
                            chip.widget_info(|| {
                                egui::WidgetInfo::selected(
                                    egui::Role::Button,
                                    fits,
                                    size == n,
                                    format!("Table for {n}"),
                                )
                            });
                            if chip.clicked() && size != n {
                                intent = Some(LobbyIntent::Size(n));
                            }
                        }
                    });
                }
                let most = view
                    .size
                    .or_else(|| range.as_ref().map(|r| *r.end()))
                    .unwrap_or(0);
                let room = view.seats.len() < usize::from(most);
                if widgets::wide_enabled(ui, room, "Add a bot").clicked() {
                    intent = Some(LobbyIntent::AddBot);
                }
            }
            if !view.screens.is_empty() {
                ui.add_space(4.0);
                ui.label(
                    RichText::new(format!(
                        "Shared screen: {} (shows the table, takes no seat)",
                        view.screens.join(", ")
                    ))
                    .color(palette.muted),
                );
            }
        });
    intent
}

/// Ready and start, at the bottom of the screen so the buttons keep their places whatever
/// the seats and the words above them say: the host's Start (a host is always ready), or a guest's
/// readiness, which flips between "I'm ready" and "Not ready after all" in one place.
fn ready_and_start(
    ui: &mut egui::Ui,
    view: &LobbyView,
    range: Option<&std::ops::RangeInclusive<u8>>,
    ticket: Option<&str>,
) -> Option<LobbyIntent> {
    let palette = Palette::of(ui);
    let mut intent = None;
    let my_ready = view.seats.iter().any(|s| s.me && s.ready);
    let why = if !view.host {
        my_ready.then(|| "Waiting for the host to start.".to_string())
    } else if view.can_start {
        None
    } else {
        // A table played offline has no code to share.
        let share = if ticket.is_some() {
            ", or share the code"
        } else {
            ""
        };
        Some(match range {
            Some(r) if view.seats.len() < usize::from(*r.start()) => format!(
                "Waiting for players: at least {} are needed. Add a bot{share}.",
                r.start()
            ),
            _ => "Waiting until everyone is ready.".to_string(),
        })
    };
    // The words above the button: the panel grows upwards with them, and the button, last
    // in a panel held to the bottom of the screen, stays where it is.
    if let Some(why) = why {
        ui.add(egui::Label::new(RichText::new(why).color(palette.muted)).wrap());
    }
    if view.host && widgets::primary_enabled(ui, view.can_start, "Start the game").clicked() {
        intent = Some(LobbyIntent::Start);
    }
    if !view.host {
        let tapped = if my_ready {
            widgets::wide(ui, "Not ready after all")
        } else {
            widgets::primary(ui, "I'm ready")
        };
        if tapped.clicked() {
            intent = Some(LobbyIntent::Ready(!my_ready));
        }
    }
    intent
}
