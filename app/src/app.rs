//! The app itself: it owns the network handle and the latest views the network sent,
//! decides which screen is up, and turns what the screens ask for into commands. It
//! never waits on the network: events are drained each frame and the handle wakes the
//! GUI when one arrives.

use crate::games::{self, GameUi, TableFrame, TableIntent};
use crate::link::Link;
use crate::model::Model;
use crate::net::{Command, Network, Relays, SessionId};
use crate::platform::{self, Insets, Platform};
use crate::rules_ref;
use crate::screens::{
    home::{self, HomeIntent, HomeState, HomeView},
    lobby::{self, LobbyIntent, LobbyState},
    profile::{self, ProfileForm, ProfileIntent},
    replay::{self as replay_screen, ReplayIntent, ReplayState},
    settings::{self as settings_screen, RelayForm, SettingsIntent},
    shared::{self, SharedIntent},
    table::{self, GameIntent},
};
use crate::settings::{NetworkChoice, Settings};
use crate::theme::{self, Palette};
use crate::widgets;
use std::path::PathBuf;

/// How the app is started.
pub struct AppConfig {
    pub data_dir: PathBuf,
    /// A phone: leave room for the status bar and never focus a text box.
    pub phone: bool,
    /// Overrides the saved Wi-Fi/offline choice for this run (tests, `--offline`).
    pub network: Option<NetworkChoice>,
    /// The device's system bars and screen, where it has them (a phone).
    pub platform: Option<Box<dyn Platform>>,
    /// What the address a phone's camera (or a TV's browser) opened asks for: the page's
    /// `#join=<code>`, used as soon as the player has a name, or `#watch=<code>`, at once.
    pub opened: Option<Opened>,
    /// The page this device serves on the Wi-Fi to phones without Hoard, file by file
    /// ([`crate::page::embedded`] in the binary; empty: none).
    pub page: &'static [(&'static str, &'static [u8])],
}

/// What a page's address asks of the app ([`crate::screens::home::join_address`],
/// [`crate::screens::home::watch_address`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opened {
    /// Sit at the table of this join code.
    Join(String),
    /// Show the table of this code as its shared screen (a TV's browser): no name needed.
    Watch(String),
}

/// What the platform last said about the system bars: when, for what window size, and what.
#[derive(Clone, Copy)]
struct AskedInsets {
    at: f64,
    size: egui::Vec2,
    insets: Option<Insets>,
}

/// A page over the main screen, left with Back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Page {
    Main,
    Profile,
    Settings,
    Rules,
    /// A game watched again.
    Replay,
}

pub struct HoardApp {
    config: AppConfig,
    settings: Settings,
    net: Option<Link>,
    model: Model,
    page: Page,
    profile_form: ProfileForm,
    relay_form: RelayForm,
    replay: Option<ReplayState>,
    home: HomeState,
    lobby: LobbyState,
    games: Vec<Box<dyn GameUi>>,
    rules_open: Option<usize>,
    confirm_leave: bool,
    /// "End game" was pressed: ask before proposing it to the table.
    confirm_end: bool,
    /// The game log is open over the table.
    log_open: bool,
    /// The code a shared screen joins the game by, which the log's sheet shows.
    table_code: table::TableCode,
    /// Serving the page and the table's relay to phones' browsers (on the Wi-Fi only).
    #[cfg(not(target_arch = "wasm32"))]
    served: Option<crate::page::PageServer>,
    /// Where phones open the page served here (`http://<LAN address>:<port>/`).
    page_url: Option<String>,
    /// Sitting at a table (hosting, joining, or in a game): only then do lobby and game
    /// views from the network take over the screen.
    seated: bool,
    /// Playing again at a guest's seat: the host's name, while the device waits for the
    /// host's new table.
    again: Option<String>,
    /// This device is a table's shared screen (asked for, or showing it).
    watching: bool,
    /// A game this device left; late snapshots of it are ignored until it is resumed.
    left: Option<SessionId>,
    /// The theme last applied, to apply it again only when it changes.
    applied_theme: Option<theme::ThemeChoice>,
    /// The window's title as last set: it says when it is this player's turn, so a laptop
    /// in another window or on the task bar shows it.
    title: &'static str,
    /// Frames drawn, for the idle-repaint measurement.
    pub frames: u64,
    /// The system bars last reported by the platform.
    insets: Option<AskedInsets>,
    /// What the platform was last told about the player sitting at a table.
    told_at_table: Option<bool>,
    /// The first list of unfinished games came in (a game the app was closed in the middle
    /// of is reopened then, once).
    listed: bool,
}

impl HoardApp {
    /// Builds the app inside eframe's creation callback.
    pub fn new(cc: &eframe::CreationContext<'_>, config: AppConfig) -> HoardApp {
        HoardApp::with_context(&cc.egui_ctx, config)
    }

    /// Builds the app for an existing egui context (eframe, tests and benchmarks).
    pub fn with_context(ctx: &egui::Context, config: AppConfig) -> HoardApp {
        let mut model = Model::default();
        let settings = match Settings::load(&config.data_dir) {
            Ok(s) => s,
            Err(e) => {
                model.notice(e.to_string(), true, 0.0);
                Settings::default()
            }
        };
        let mut app = HoardApp {
            profile_form: ProfileForm::new(settings.profile.as_ref()),
            relay_form: RelayForm::default(),
            replay: None,
            settings,
            net: None,
            model,
            page: Page::Main,
            home: HomeState::default(),
            lobby: LobbyState::default(),
            games: games::all(),
            rules_open: None,
            confirm_leave: false,
            confirm_end: false,
            log_open: false,
            table_code: table::TableCode::default(),
            #[cfg(not(target_arch = "wasm32"))]
            served: None,
            page_url: None,
            seated: false,
            again: None,
            watching: false,
            left: None,
            applied_theme: None,
            title: TITLE,
            frames: 0,
            insets: None,
            told_at_table: None,
            listed: false,
            config,
        };
        app.start_network(ctx);
        app
    }

    /// Forgets the style applied, for drawing into another egui context (screenshots).
    #[doc(hidden)]
    pub fn restyle(&mut self, theme: theme::ThemeChoice) {
        self.settings.theme = theme;
        self.applied_theme = None;
    }

    /// The system bars, as the platform last said: asked again every
    /// [`platform::INSETS_FOR`] seconds, and at once when the window changes size (a turned
    /// phone), then once more a moment later, when the phone has moved its bars.
    /// `None` without a platform or an answer.
    fn insets(&mut self, ctx: &egui::Context, now: f64) -> Option<Insets> {
        let platform = self.config.platform.as_mut()?;
        let size = ctx.content_rect().size();
        match self.insets {
            Some(asked)
                if asked.size == size
                    && now - asked.at < platform::INSETS_FOR
                    && now >= asked.at =>
            {
                asked.insets
            }
            _ => {
                let insets = platform.insets();
                if self.insets.is_some_and(|a| a.size != size) {
                    ctx.request_repaint_after(std::time::Duration::from_secs_f64(
                        platform::INSETS_FOR,
                    ));
                }
                self.insets = Some(AskedInsets {
                    at: now,
                    size,
                    insets,
                });
                insets
            }
        }
    }

    /// Tells the platform when the player sits down at a table or leaves it.
    fn tell_at_table(&mut self) {
        let seated = self.seated || self.model.game.is_some();
        if self.told_at_table != Some(seated)
            && let Some(platform) = self.config.platform.as_mut()
        {
            platform.at_table(seated);
            self.told_at_table = Some(seated);
        }
    }

    fn network_choice(&self) -> NetworkChoice {
        self.config.network.unwrap_or(self.settings.network)
    }

    /// Starts (or restarts) the network in the chosen mode; the handle runs on its own
    /// thread and wakes the GUI for every event.
    fn start_network(&mut self, ctx: &egui::Context) {
        self.net = None;
        let wake_ctx = ctx.clone();
        let network = match self.network_choice() {
            NetworkChoice::Wifi => Network::Lan,
            NetworkChoice::Offline => Network::Offline,
            // An address is checked before it is kept; one that no longer reads (a damaged
            // file) falls back to the public relays rather than to no network.
            NetworkChoice::Internet => {
                Network::Relay(Relays::own(&self.settings.relay).unwrap_or_default())
            }
        };
        let lan_relay = self.serve_page(&network);
        let started = Link::start(
            self.config.data_dir.clone(),
            network,
            lan_relay,
            move || wake_ctx.request_repaint(),
        );
        match started {
            Ok(handle) => {
                if let Some(p) = &self.settings.profile {
                    handle.send(Command::SetProfile {
                        name: p.name.clone(),
                        colour: p.colour,
                    });
                }
                self.net = Some(handle);
            }
            Err(e) => {
                let now = ctx.input(|i| i.time);
                self.model
                    .notice(format!("{e}. Restart Hoard to try again."), true, now);
            }
        }
    }

    /// On the Wi-Fi, serves the page to phones (once; kept while the network restarts) and
    /// returns the relay their browsers reach this device by; elsewhere serves nothing.
    #[cfg(not(target_arch = "wasm32"))]
    fn serve_page(&mut self, network: &Network) -> Option<hoard_net::transport::RelayUrl> {
        use crate::page::{PREFERRED_PORT, PageServer};
        use hoard_net::transport::table_web::PageFiles;
        if *network != Network::Lan || self.config.page.is_empty() {
            self.served = None;
            self.page_url = None;
            return None;
        }
        if self.served.is_none() {
            let started = PageFiles::from_static(self.config.page)
                .map_err(|e| e.to_string())
                .and_then(|files| PageServer::start(files, PREFERRED_PORT, false));
            match started {
                Ok(served) => self.served = Some(served),
                Err(e) => tracing::warn!("no page for phones: {e}"),
            }
        }
        self.page_url = self.served.as_ref().map(|s| s.url().to_string());
        self.served.as_ref().and_then(|s| s.relay_url())
    }

    /// A page serves no page.
    #[cfg(target_arch = "wasm32")]
    fn serve_page(&mut self, _network: &Network) -> Option<hoard_net::transport::RelayUrl> {
        None
    }

    fn send(&mut self, cmd: Command) {
        if let Some(net) = &self.net {
            net.send(cmd);
        }
    }

    /// Takes in everything the network sent since the last frame.
    fn drain(&mut self, now: f64) {
        let Some(net) = &self.net else { return };
        let mut reopen = None;
        while let Some(event) = net.try_recv() {
            use crate::net::Update;
            match &event {
                // The app was closed (or killed) at a game's table, not left: straight back
                // to it, as if the player had tapped Resume.
                Update::Games(list) if !self.listed => {
                    self.listed = true;
                    if !self.seated && self.settings.profile.is_some() {
                        reopen = list.iter().find(|s| s.interrupted).map(|s| s.session);
                    }
                }
                Update::Error(_) if self.model.lobby.is_none() && self.model.game.is_none() => {
                    // Hosting or joining failed: back to Home, with the error shown there.
                    self.seated = false;
                    self.watching = false;
                }
                Update::Screen(_) if !self.watching => continue,
                Update::Lobby(_) if !self.seated => continue,
                Update::Game(g) if !self.seated || self.left.as_ref() == Some(&g.session) => {
                    continue;
                }
                _ => {}
            }
            self.model.apply(event, now);
        }
        if let Some(replay) = self.model.replay.take() {
            self.replay = Some(ReplayState::new(replay));
            self.page = Page::Replay;
        }
        if let Some(session) = reopen {
            self.seated = true;
            self.left = None;
            self.send(Command::Resume { session });
        }
        // A scanned code, once the device has said what it holds (a game the app was
        // killed at comes first): a join once the player who sits down has a name, a
        // shared screen at once.
        if self.listed && !self.seated && !self.watching {
            match self.config.opened.take() {
                Some(Opened::Watch(ticket)) => {
                    self.start_watching();
                    self.send(Command::WatchTicket { ticket });
                }
                Some(Opened::Join(ticket)) if self.settings.profile.is_some() => {
                    self.seated = true;
                    self.send(Command::JoinTicket { ticket });
                }
                waiting => self.config.opened = waiting,
            }
        }
    }

    fn save_settings(&mut self, now: f64) {
        if let Err(e) = self.settings.save(&self.config.data_dir) {
            self.model.notice(e.to_string(), true, now);
        }
    }

    fn start_watching(&mut self) {
        self.watching = true;
        self.model.screen = None;
    }

    /// A shared screen across the room draws everything larger: about 1,150 points across,
    /// whatever the size of the TV or laptop (in quarter steps, up to twice the size).
    fn screen_zoom(&self, ctx: &egui::Context) {
        let zoom = ctx.zoom_factor();
        let wanted = if self.watching && self.page == Page::Main {
            let across = ctx.content_rect().width() * zoom;
            ((across / 1150.0 * 4.0).floor() / 4.0).clamp(1.0, 2.0)
        } else {
            1.0
        };
        if (wanted - zoom).abs() > f32::EPSILON {
            ctx.set_zoom_factor(wanted);
        }
    }

    /// The shared screen of a table: the public table, large.
    fn screen_ui(&mut self, ui: &mut egui::Ui, now: f64) {
        let frame = TableFrame {
            now,
            portrait: ui.available_width() < ui.available_height(),
            still: self.settings.still,
            screen: false,
        };
        let view = self.model.screen.clone();
        if let Some(SharedIntent::Leave) = shared::show(ui, view.as_ref(), &mut self.games, frame) {
            self.send(Command::LeaveTable);
            self.watching = false;
            self.model.screen = None;
        }
    }

    fn leave_table(&mut self) {
        self.again = None;
        self.send(Command::LeaveTable);
        self.left = self.model.game.as_ref().map(|g| g.session);
        self.model.leave();
        self.seated = false;
        self.page = Page::Main;
        self.log_open = false;
    }

    /// From a game's end: the device opens a new table for it (the host) or joins the host's
    /// (a guest, who waits for it here if the host has not opened it yet).
    fn play_again(&mut self) {
        let Some(view) = &self.model.game else {
            return;
        };
        self.again = match view.me {
            Some(0) | None => None,
            Some(_) => Some(
                view.seats
                    .first()
                    .map_or_else(String::new, |s| s.name.clone()),
            ),
        };
        self.left = Some(view.session);
        self.send(Command::PlayAgain);
        self.model.leave();
        self.seated = true;
        self.page = Page::Main;
        self.log_open = false;
    }

    /// The Back key (Android's back button, Escape): leaves a page or a lobby; from a game
    /// it only asks.
    fn back(&mut self) {
        // A game's rules opened from its table or lobby go back there; from Home's list,
        // to the list.
        if self.page == Page::Rules && self.rules_open.is_some() && !self.seated {
            self.rules_open = None;
        } else if self.page != Page::Main {
            self.page = Page::Main;
        } else if self.log_open && self.model.game.is_some() {
            self.log_open = false;
        } else if self
            .model
            .game
            .as_ref()
            .is_some_and(|g| g.outcome.is_none())
        {
            self.confirm_leave = true;
        } else if self.model.game.is_some() || self.model.lobby.is_some() {
            self.leave_table();
        }
    }

    fn home_ui(&mut self, ui: &mut egui::Ui, now: f64) {
        let Some(profile) = self.settings.profile.clone() else {
            return;
        };
        let view = HomeView {
            profile: &profile,
            network: self.network_choice(),
            tables: &self.model.tables,
            games: &self.model.games,
            phone: self.config.phone,
        };
        let Some(intent) = home::show(ui, &mut self.home, &view) else {
            return;
        };
        match intent {
            HomeIntent::Host => {
                self.seated = true;
                self.send(Command::HostTable {
                    name: format!("{}'s table", profile.name),
                    seats: None,
                });
            }
            HomeIntent::JoinCode(ticket) => {
                self.seated = true;
                self.send(Command::JoinTicket { ticket });
            }
            HomeIntent::JoinTable(i) => {
                if let Some(t) = self.model.tables.get(i) {
                    let table = t.id;
                    self.seated = true;
                    self.send(Command::JoinTable { table });
                }
            }
            HomeIntent::WatchTable(i) => {
                if let Some(t) = self.model.tables.get(i) {
                    let table = t.id;
                    self.start_watching();
                    self.send(Command::WatchTable { table });
                }
            }
            HomeIntent::WatchCode(ticket) => {
                self.start_watching();
                self.send(Command::WatchTicket { ticket });
            }
            HomeIntent::Resume(i) => {
                if let Some(s) = self.model.games.get(i) {
                    let session = s.session;
                    if self.left.as_ref() == Some(&session) {
                        self.left = None;
                    }
                    self.seated = true;
                    self.send(Command::Resume { session });
                }
            }
            HomeIntent::Forget(session) => self.send(Command::Forget { session }),
            HomeIntent::Replay(session) => self.send(Command::Replay { session }),
            HomeIntent::EditProfile => {
                self.profile_form = ProfileForm::new(self.settings.profile.as_ref());
                self.page = Page::Profile;
            }
            HomeIntent::Settings => self.page = Page::Settings,
            HomeIntent::Rules => self.page = Page::Rules,
        }
        let _ = now;
    }

    fn lobby_ui(&mut self, ui: &mut egui::Ui) {
        let Some(view) = self.model.lobby.clone() else {
            return;
        };
        let ticket = self.model.ticket.clone();
        let Some(intent) = lobby::show(
            ui,
            &mut self.lobby,
            &view,
            ticket.as_deref(),
            self.page_url.as_deref(),
            &mut self.games,
        ) else {
            return;
        };
        match intent {
            LobbyIntent::Leave => self.leave_table(),
            LobbyIntent::Choose(setup) => self.send(Command::ChooseGame { setup }),
            LobbyIntent::AddBot => self.send(Command::AddBot),
            LobbyIntent::Size(n) => self.send(Command::SetSize { seats: Some(n) }),
            LobbyIntent::RemoveSeat(seat) => self.send(Command::RemoveSeat { seat }),
            LobbyIntent::Ready(ready) => self.send(Command::Ready { ready }),
            LobbyIntent::Start => self.send(Command::Start),
            LobbyIntent::Rules(title) => {
                // Back from the page comes back to the lobby.
                self.rules_open = rules_ref::index(title);
                self.page = Page::Rules;
            }
            LobbyIntent::CopyCode => {
                if let Some(t) = ticket {
                    ui.ctx().copy_text(t);
                }
            }
        }
    }

    fn game_ui(&mut self, ui: &mut egui::Ui, now: f64) {
        let Some(mut view) = self.model.game.take() else {
            return;
        };
        // The countdown as of this frame, not as of when the view came.
        view.reaction_left_ms = self.model.reaction_left_ms(now);
        let frame = TableFrame {
            now,
            portrait: ui.available_width() < ui.available_height(),
            still: self.settings.still,
            screen: false,
        };
        let game = self.games.iter_mut().find(|g| g.shows(&view));
        self.table_code.ticket = self.model.ticket.clone();
        self.table_code.page_url = self.page_url.clone();
        let code = &mut self.table_code;
        let intents = table::show(ui, &view, game, frame, self.log_open, code);
        self.model.game = Some(view);
        for intent in intents {
            match intent {
                GameIntent::Leave => self.confirm_leave = true,
                GameIntent::Done => self.leave_table(),
                GameIntent::PlayAgain => self.play_again(),
                GameIntent::Rules(title) => {
                    // Back from the page comes back to the table.
                    self.rules_open = rules_ref::index(title);
                    self.page = Page::Rules;
                }
                GameIntent::Replay => {
                    if let Some(view) = &self.model.game {
                        let session = view.session;
                        self.send(Command::Replay { session });
                    }
                }
                GameIntent::Log => self.log_open = !self.log_open,
                GameIntent::Vote { seat, vote } => self.send(Command::Vote { seat, vote }),
                GameIntent::Back => self.send(Command::Back),
                GameIntent::AskToEnd => self.confirm_end = true,
                GameIntent::End { agree } => self.send(Command::EndGame { agree }),
                GameIntent::Table(TableIntent::Play(input)) => self.send(Command::Play { input }),
            }
        }
    }

    fn confirm_leave_ui(&mut self, ctx: &egui::Context) {
        if !self.confirm_leave {
            return;
        }
        let modal = egui::Modal::new(egui::Id::unique("confirm-leave")).show(ctx, |ui| {
            ui.set_max_width(320.0);
            ui.heading("Leave this game?");
            ui.label(
                "The game is kept on this device. The others wait for you or vote to go on \
                 without you; you can come back from Home.",
            );
            let mut choice = None;
            if widgets::wide(ui, "Stay").clicked() {
                choice = Some(false);
            }
            if widgets::wide(ui, "Leave the game").clicked() {
                choice = Some(true);
            }
            choice
        });
        match modal.inner {
            Some(true) => {
                self.confirm_leave = false;
                self.leave_table();
            }
            Some(false) => self.confirm_leave = false,
            None if modal.should_close() => self.confirm_leave = false,
            None => {}
        }
    }

    fn confirm_end_ui(&mut self, ctx: &egui::Context) {
        // A game that ended (or was left) meanwhile has nothing to ask about.
        if self.model.game.as_ref().is_none_or(|g| g.outcome.is_some()) {
            self.confirm_end = false;
        }
        if !self.confirm_end {
            return;
        }
        let modal = egui::Modal::new(egui::Id::unique("confirm-end")).show(ctx, |ui| {
            ui.set_max_width(320.0);
            ui.heading("End the game here?");
            ui.label(
                "Everyone at the table is asked. If all agree, the game ends now with no \
                 winner, and every device checks it for fair play. If anyone plays on, it \
                 goes on.",
            );
            let mut choice = None;
            if widgets::wide(ui, "Keep playing").clicked() {
                choice = Some(false);
            }
            if widgets::wide(ui, "Ask to end the game").clicked() {
                choice = Some(true);
            }
            choice
        });
        match modal.inner {
            Some(true) => {
                self.confirm_end = false;
                self.send(Command::EndGame { agree: true });
            }
            Some(false) => self.confirm_end = false,
            None if modal.should_close() => self.confirm_end = false,
            None => {}
        }
    }

    /// The newest notice, in a strip of its own at the foot of the window: beside the page
    /// rather than over it, so no question, headline or control is ever under a notice. The
    /// strip is always there, empty when there is nothing to say, so nothing on the page
    /// moves when a notice comes or goes (a tap meant for a button that moved would land on
    /// whatever took its place). A tap on a notice puts it away; older ones wait under it.
    /// A shared screen, which nobody taps, gives the strip room only while it says something.
    fn notice_strip(&mut self, ui: &mut egui::Ui, now: f64) {
        if let Some(next) = self.model.expire(now) {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs_f64(next.max(0.05)));
        }
        let shown = self
            .model
            .shown_notice()
            .map(|(i, n)| (i, n.text.clone(), n.error));
        let watching = self.page == Page::Main && self.watching;
        if shown.is_none() && watching {
            return;
        }
        let mut put_away = None;
        egui::Panel::bottom("notice")
            .resizable(false)
            .show_separator_line(false)
            .exact_size(widgets::NOTICE_HEIGHT)
            .frame(egui::Frame::new().inner_margin(egui::Margin {
                top: 4,
                ..Default::default()
            }))
            .show(ui, |ui| {
                widgets::column(ui, theme::MAX_COLUMN, |ui| {
                    let Some((i, text, error)) = &shown else {
                        return;
                    };
                    let palette = Palette::of(ui);
                    let tint = if *error { palette.warn } else { palette.accent };
                    // Two notices may say the same thing: each has an id of its own.
                    if ui
                        .push_id(i, |ui| widgets::notice(ui, text, tint).clicked())
                        .inner
                    {
                        put_away = Some(*i);
                    }
                });
            });
        if let Some(i) = put_away {
            self.model.notices.remove(i);
        }
    }
}

/// The window's title, and while it is this player's turn at a table.
pub(crate) const TITLE: &str = "Hoard";
pub(crate) const TITLE_MY_TURN: &str = "Your turn · Hoard";

impl HoardApp {
    /// The window's title now: "Your turn · Hoard" while the game waits on this player.
    pub fn window_title(&self) -> &'static str {
        self.title
    }

    fn show_turn_in_title(&mut self, ctx: &egui::Context) {
        let mine = self.seated
            && self
                .model
                .game
                .as_ref()
                .is_some_and(|g| g.my_turn && g.audit.is_none());
        let title = if mine { TITLE_MY_TURN } else { TITLE };
        if title != self.title {
            self.title = title;
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.into()));
            if let Some(platform) = self.config.platform.as_mut() {
                platform.your_turn(mine);
            }
        }
    }
}

impl eframe::App for HoardApp {
    /// Closes the network politely, so the others see this device leave at once.
    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        if let Some(link) = self.net.take() {
            link.shutdown();
        }
    }

    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        #[cfg(target_arch = "wasm32")]
        crate::web::app_began();
        let now = ctx.input(|i| i.time);
        self.drain(now);
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frames += 1;
        #[cfg(target_arch = "wasm32")]
        crate::web::frame_cpu(_frame.info().cpu_usage);
        let ctx = ui.ctx().clone();
        if self.applied_theme != Some(self.settings.theme) {
            theme::apply(&ctx, self.settings.theme);
            self.applied_theme = Some(self.settings.theme);
        }
        self.show_turn_in_title(&ctx);
        let now = ctx.input(|i| i.time);
        let back = ctx.input_mut(|i| {
            i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)
                | i.consume_key(egui::Modifiers::NONE, egui::Key::BrowserBack)
        });
        if back && !self.confirm_leave {
            self.back();
        } else if back {
            self.confirm_leave = false;
        }

        // Phones draw under their system bars, and egui knows no safe area there: keep clear
        // what the platform says the bars take, or else a status bar's height at the top.
        let insets = self.insets(&ctx, now);
        let margin = platform::margin(
            insets,
            ctx.pixels_per_point(),
            egui::Margin {
                left: 8,
                right: 8,
                top: 6,
                bottom: 6,
            },
            if self.config.phone { 28 } else { 0 },
        );
        self.tell_at_table();
        self.screen_zoom(&ctx);
        let frame = egui::Frame::central_panel(ui.style()).inner_margin(margin);
        egui::CentralPanel::default().frame(frame).show(ui, |ui| {
            self.notice_strip(ui, now);
            let in_game = self.page == Page::Main && self.model.game.is_some();
            // A shared screen is a TV across the room: all of it is the table.
            let max = if self.page == Page::Main && self.watching {
                f32::INFINITY
            } else if in_game || self.page == Page::Replay {
                theme::MAX_TABLE
            } else {
                theme::MAX_COLUMN
            };
            widgets::column(ui, max, |ui| self.page_ui(ui, now));
        });
        self.confirm_leave_ui(&ctx);
        self.confirm_end_ui(&ctx);
        #[cfg(target_arch = "wasm32")]
        crate::web::app_done();
    }
}

impl HoardApp {
    fn page_ui(&mut self, ui: &mut egui::Ui, now: f64) {
        // A shared screen needs no name: a TV opened at a table's code shows the table.
        let first_run = self.settings.profile.is_none() && !self.watching;
        if first_run || self.page == Page::Profile {
            match profile::show(ui, &mut self.profile_form, first_run, self.config.phone) {
                Some(ProfileIntent::Save(p)) => {
                    self.send(Command::SetProfile {
                        name: p.name.clone(),
                        colour: p.colour,
                    });
                    self.settings.profile = Some(p);
                    self.save_settings(now);
                    self.page = Page::Main;
                }
                Some(ProfileIntent::Cancel) => self.page = Page::Main,
                None => {}
            }
            return;
        }
        match self.page {
            Page::Settings => match settings_screen::show(
                ui,
                &self.settings,
                &mut self.relay_form,
                self.config.phone,
                self.config.page,
            ) {
                Some(SettingsIntent::Back) => self.page = Page::Main,
                Some(SettingsIntent::Theme(t)) => {
                    self.settings.theme = t;
                    self.save_settings(now);
                }
                Some(SettingsIntent::Still(still)) => {
                    self.settings.still = still;
                    self.save_settings(now);
                }
                Some(SettingsIntent::Relay(relay)) => {
                    self.settings.relay = relay;
                    self.save_settings(now);
                    self.model = Model::default();
                    self.seated = false;
                    let ctx = ui.ctx().clone();
                    self.start_network(&ctx);
                }
                Some(SettingsIntent::Network(n)) => {
                    self.settings.network = n;
                    self.config.network = None;
                    self.save_settings(now);
                    self.model = Model::default();
                    self.seated = false;
                    let ctx = ui.ctx().clone();
                    self.start_network(&ctx);
                }
                Some(SettingsIntent::EditProfile) => {
                    self.profile_form = ProfileForm::new(self.settings.profile.as_ref());
                    self.page = Page::Profile;
                }
                None => {}
            },
            Page::Rules => {
                if rules_ref::show(ui, &mut self.rules_open, self.seated) {
                    self.page = Page::Main;
                }
            }
            Page::Replay => {
                let frame = TableFrame {
                    now,
                    portrait: ui.available_width() < ui.available_height(),
                    still: self.settings.still,
                    screen: false,
                };
                let closed = match &mut self.replay {
                    Some(state) => matches!(
                        replay_screen::show(ui, state, frame),
                        Some(ReplayIntent::Close)
                    ),
                    None => true,
                };
                if closed {
                    self.replay = None;
                    self.page = Page::Main;
                }
            }
            Page::Main | Page::Profile => {
                if self.watching {
                    self.screen_ui(ui, now);
                } else if self.model.game.is_some() {
                    self.game_ui(ui, now);
                } else if self.model.lobby.is_some() {
                    self.lobby_ui(ui);
                } else {
                    if self.seated {
                        // Hosting or joining is under way: say so rather than show Home.
                        // A still line, not a spinner: nothing repaints while the network works.
                        let (title, words) = match &self.again {
                            Some(host) => (
                                "Playing again".to_string(),
                                format!(
                                    "Waiting for {host} to open a new table: it opens when \
                                     {host} taps Play again."
                                ),
                            ),
                            None => (
                                "Finding the table...".to_string(),
                                "Connecting. This takes a moment on a busy Wi-Fi.".to_string(),
                            ),
                        };
                        let leave = widgets::top_bar(ui, &title, Some("Cancel"));
                        ui.label(words);
                        if leave {
                            self.leave_table();
                        }
                        return;
                    }
                    self.home_ui(ui, now);
                }
            }
        }
    }
}
