//! Home: who I am, my games (unfinished ones to resume, finished ones with their results to
//! watch again; either can be forgotten), the tables seen on this Wi-Fi (they appear by
//! themselves), hosting a table, and joining one by its code.

use crate::net::{SessionId, SessionSummary, TableInfo};
use crate::settings::{NetworkChoice, Profile};
use crate::theme::Palette;
use crate::widgets::{self, entry::Entry, keypad::KeypadKind};
use egui::RichText;

/// Longest join code the field accepts (an iroh ticket is about 80 characters).
const MAX_CODE: usize = 400;

#[derive(Default)]
pub struct HomeState {
    code: String,
    code_open: bool,
    entry: Entry,
    /// The game whose "Forget" was tapped: it asks before anything is deleted.
    forgetting: Option<SessionId>,
}

/// What home shows, all of it from the network's latest events.
pub struct HomeView<'a> {
    pub profile: &'a Profile,
    pub network: NetworkChoice,
    pub tables: &'a [TableInfo],
    /// Unfinished games first, then finished ones.
    pub games: &'a [SessionSummary],
    pub phone: bool,
}

pub enum HomeIntent {
    Host,
    JoinCode(String),
    JoinTable(usize),
    /// Be the shared screen of a listed table (no seat; the public table, large).
    WatchTable(usize),
    /// Be the shared screen of the table with this code.
    WatchCode(String),
    Resume(usize),
    /// Watch a game again, step by step.
    Replay(SessionId),
    /// Delete a game for good (asked first).
    Forget(SessionId),
    EditProfile,
    Settings,
    Rules,
}

pub fn show(ui: &mut egui::Ui, state: &mut HomeState, view: &HomeView) -> Option<HomeIntent> {
    let mut intent = None;
    let palette = Palette::of(ui);
    ui.horizontal(|ui| {
        ui.set_min_height(crate::theme::TOUCH);
        ui.heading(RichText::new("Hoard").strong().size(30.0));
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if widgets::button(ui, "Settings").clicked() {
                intent = Some(HomeIntent::Settings);
            }
            if widgets::button(ui, "How to play").clicked() {
                intent = Some(HomeIntent::Rules);
            }
        });
    });
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                widgets::seat_chip(ui, &view.profile.name, view.profile.colour, true);
                if widgets::button(ui, "Change").clicked() {
                    intent = Some(HomeIntent::EditProfile);
                }
            });
            ui.add_space(4.0);
            let host_label = match view.network {
                NetworkChoice::Wifi | NetworkChoice::Internet => "Host a table",
                NetworkChoice::Offline => "Play against bots",
            };
            if widgets::primary(ui, host_label).clicked() {
                intent = Some(HomeIntent::Host);
            }

            let unfinished = view.games.iter().filter(|g| g.result.is_none()).count();
            for (i, s) in view.games.iter().enumerate() {
                if i == 0 || i == unfinished {
                    ui.add_space(8.0);
                    let heading = if i < unfinished {
                        "Unfinished games"
                    } else {
                        "Finished games"
                    };
                    ui.label(RichText::new(heading).strong().size(20.0));
                }
                let players = s.names.join(", ");
                let text = match &s.result {
                    None => format!(
                        "{} with {players}, {} in",
                        game_title(&s.game),
                        moves(s.turn)
                    ),
                    Some(result) => format!("{} with {players}: {result}", game_title(&s.game)),
                };
                let asking = state.forgetting == Some(s.session);
                ui.horizontal_wrapped(|ui| {
                    let (word, picked) = match s.result {
                        None => ("Resume", HomeIntent::Resume(i)),
                        Some(_) => ("Watch again", HomeIntent::Replay(s.session)),
                    };
                    if widgets::button(ui, word).clicked() {
                        intent = Some(picked);
                    }
                    if !asking && widgets::button(ui, "Forget").clicked() {
                        state.forgetting = Some(s.session);
                    }
                    ui.label(text);
                });
                if asking {
                    let question = match s.result {
                        None => {
                            "Forget this game? It is deleted from this device and cannot be \
                             resumed; the others can go on without you."
                        }
                        Some(_) => {
                            "Forget this game? It is deleted from this device and cannot be \
                             watched again here."
                        }
                    };
                    ui.label(RichText::new(question).color(palette.warn));
                    ui.horizontal_wrapped(|ui| {
                        if widgets::button(ui, "Yes, forget it").clicked() {
                            state.forgetting = None;
                            intent = Some(HomeIntent::Forget(s.session));
                        }
                        if widgets::button(ui, "Keep it").clicked() {
                            state.forgetting = None;
                        }
                    });
                }
            }

            ui.add_space(8.0);
            if view.network != NetworkChoice::Offline {
                ui.label(
                    RichText::new(
                        "A laptop or a TV can be the table's shared screen: \"Show here\" \
                         shows the whole table large, never a hand, while the phones play.",
                    )
                    .color(palette.muted),
                );
            }
            match view.network {
                NetworkChoice::Wifi | NetworkChoice::Internet => {
                    if view.network == NetworkChoice::Internet {
                        ui.label(
                            RichText::new(
                                "Over the internet: friends elsewhere join with your table's \
                                 code, and you with theirs.",
                            )
                            .color(palette.muted),
                        );
                    }
                    ui.label(RichText::new("Tables on this Wi-Fi").strong().size(20.0));
                    if view.tables.is_empty() {
                        ui.label(
                            RichText::new("Looking for tables... They appear here by themselves.")
                                .color(palette.muted),
                        );
                    }
                    for (i, t) in view.tables.iter().enumerate() {
                        let full = t.seats_taken >= t.seats_total;
                        let text = format!(
                            "{} - {} by {}, {} of {} seats",
                            t.name,
                            game_title(&t.game),
                            t.host_name,
                            t.seats_taken,
                            t.seats_total
                        );
                        ui.horizontal_wrapped(|ui| {
                            let word = if full { "Full" } else { "Join" };
                            if widgets::button_enabled(ui, !full, word).clicked() {
                                intent = Some(HomeIntent::JoinTable(i));
                            }
                            if widgets::button(ui, "Show here").clicked() {
                                intent = Some(HomeIntent::WatchTable(i));
                            }
                            ui.label(text);
                        });
                    }
                    ui.add_space(8.0);
                    let toggle = if state.code_open {
                        "Hide join code"
                    } else {
                        "Join with a code"
                    };
                    if widgets::wide(ui, toggle).clicked() {
                        state.code_open = !state.code_open;
                    }
                    if state.code_open {
                        state.entry.show(
                            ui,
                            "Join code",
                            "Paste or type the host's code",
                            KeypadKind::Code,
                            &mut state.code,
                            MAX_CODE,
                            view.phone,
                        );
                        let code = normalise_code(&state.code);
                        if widgets::primary_enabled(ui, !code.is_empty(), "Join").clicked() {
                            intent = Some(HomeIntent::JoinCode(code.clone()));
                        }
                        if widgets::wide_enabled(ui, !code.is_empty(), "Show the table here")
                            .clicked()
                        {
                            intent = Some(HomeIntent::WatchCode(code));
                        }
                    }
                }
                NetworkChoice::Offline => {
                    ui.label(
                        RichText::new(
                            "Offline: you play against bots on this device. Switch to Wi-Fi in \
                         Settings to play with friends.",
                        )
                        .color(palette.muted),
                    );
                }
            }
        });
    intent
}

/// A code as the network expects it: QR scanners may upper-case it, pasting brings spaces
/// and line breaks along, and a page's address ([`join_address`]) carries it after `#join=`.
pub fn normalise_code(raw: &str) -> String {
    let code = raw
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    match code
        .split_once(JOIN_FRAGMENT)
        .or_else(|| code.split_once(WATCH_FRAGMENT))
    {
        Some((_, code)) => code.to_string(),
        None => code,
    }
}

/// What comes before the join code in a page's address: to sit down, or to show the table.
const JOIN_FRAGMENT: &str = "#join=";
const WATCH_FRAGMENT: &str = "#watch=";

/// What a page's address (its fragment, `#join=…` or `#watch=…`) asks of the app.
pub fn opened(fragment: &str) -> Option<crate::Opened> {
    let fragment = fragment.trim();
    let (code, watch) = match fragment.strip_prefix(JOIN_FRAGMENT) {
        Some(code) => (code, false),
        None => (fragment.strip_prefix(WATCH_FRAGMENT)?, true),
    };
    let code = normalise_code(code);
    if code.is_empty() {
        return None;
    }
    Some(if watch {
        crate::Opened::Watch(code)
    } else {
        crate::Opened::Join(code)
    })
}

/// The address a TV's browser opens to show a game as the table's shared screen: the page,
/// with the code of a seated device after `#watch=`.
pub fn watch_address(page_url: &str, ticket: &str) -> String {
    format!("{page_url}{WATCH_FRAGMENT}{ticket}")
}

/// The address a phone's camera opens to sit at a table: the page a device at the table
/// serves, with the join code in the fragment (which a browser never sends anywhere); the
/// page joins with it, and so does the app, pasted or scanned.
pub fn join_address(page_url: &str, ticket: &str) -> String {
    format!("{page_url}{JOIN_FRAGMENT}{ticket}")
}

/// How far a game went, in moves: "1 move", "12 moves".
pub fn moves(n: u32) -> String {
    if n == 1 {
        "1 move".into()
    } else {
        format!("{n} moves")
    }
}

/// A game's display name from its short name on the wire.
pub fn game_title(name: &str) -> String {
    hoard_net::games::basic(name, 0)
        .map(|setup| setup.title().to_string())
        .unwrap_or_else(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scanned_or_pasted_code_is_lower_cased_and_unwrapped() {
        assert_eq!(normalise_code(" ENDPOINT\nabc 12 \t"), "endpointabc12");
    }

    /// Issue 28: one scan seats the player: the lobby's QR holds the page's address with the
    /// join code in it, which a phone's browser opens and the app, scanned or pasted, joins by.
    #[test]
    fn a_page_address_with_a_join_code_in_it_joins_by_that_code() {
        let address = join_address("http://192.168.1.20:8470/", "endpointabc12");
        assert_eq!(address, "http://192.168.1.20:8470/#join=endpointabc12");
        assert_eq!(normalise_code(&address), "endpointabc12");
        assert_eq!(normalise_code(&address.to_uppercase()), "endpointabc12");
    }

    /// Issue 28: "A TV's browser as the shared screen". The page's address asks to sit down
    /// (`#join=`) or to show the table (`#watch=`); anything else asks nothing.
    #[test]
    fn a_page_address_asks_to_join_or_to_watch_by_its_fragment() {
        use crate::Opened;
        assert_eq!(
            opened("#join=EndpointAbc"),
            Some(Opened::Join("endpointabc".into()))
        );
        assert_eq!(
            opened("#watch=endpointabc"),
            Some(Opened::Watch("endpointabc".into()))
        );
        assert_eq!(opened("#watch="), None);
        assert_eq!(opened("#table"), None);
        assert_eq!(opened(""), None);
        let tv = watch_address("http://192.168.1.20:8470/", "endpointabc");
        assert_eq!(tv, "http://192.168.1.20:8470/#watch=endpointabc");
        assert_eq!(
            normalise_code(&tv),
            "endpointabc",
            "pasted into Show the table here"
        );
    }

    /// Issue 31: "'1 moves in'".
    #[test]
    fn a_count_of_moves_agrees_with_its_noun() {
        assert_eq!(moves(1), "1 move");
        assert_eq!(moves(0), "0 moves");
        assert_eq!(moves(12), "12 moves");
    }
}
