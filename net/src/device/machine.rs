//! The device as a machine: the lobby (hosting, or sitting at someone's table), the game
//! being played, the shared screens it serves or the table it shows, and the games it
//! keeps. It takes [`Happening`]s (the screens' commands, frames from peers, links up and
//! down, the tables found around, the time) and answers with frames on its [`Links`],
//! writes to its [`Folder`] and [`Update`]s for the screens. No clock, no I/O and no async
//! inside, as in [`crate::core`]: a native driver (see [`super::native`]), a browser's, or
//! the simulator's ([`super::sim`]) runs it.
//!
//! Devices speak [`Envelope`]s to each other. The lobby is the host's: guests send `Join` and
//! `Ready`, the host answers with the whole seat list, and on `Start` it sends every guest
//! the session's [`SessionMeta`]. From then on the host has no special role: protocol
//! bytes flow device to device (`Envelope::Core`), addressed by seat, and every seated device
//! keeps a link to every other. In each pair one side dials: a guest dials the host, and
//! between guests the lower id dials.

use super::links::Links;
use super::lobby::{
    Envelope, Host, LobbyEntry, Roster, address_of, colour_for, fit_name, table_links,
};
use super::profile::{
    Profile, at_lobby, at_table, load_profile, save_profile, set_at_lobby, set_at_table,
};
use super::saved::{META_FILE, open_table, saved_game, saved_games};
use crate::core::Time;
use crate::error::{NetError, Result};
use crate::games::{AnyInput, GameSetup};
use crate::identity::{Random, SeatSpec, SecretKey, SessionId};
use crate::session::{SeatMeta, SessionMeta, Table, session_dir};
use crate::storage::Folder;
use crate::table_types::{
    AuditVerdict, Command, GameView, LobbySeat, LobbyView, Replay, SessionSummary, Update,
};
use crate::transport::{PROTOCOL_VERSION, TableId, TableInfo, ticket};
use crate::watch::{FEED_CHUNK, Feed, FeedAudit, FeedSeat, MAX_SCREENS, Took, Watcher, feed_seats};
use crate::wire::SignatureMemo;
use iroh::{EndpointAddr, EndpointId};
use std::collections::BTreeMap;

/// How long a peer whose messages keep being refused is kept away (ms).
pub const CUT_OFF_MS: u64 = 30_000;

/// How often a shared screen may have the whole game sent again (ms). A screen that starts
/// again asks to watch again and is sent the game from its start; one that asks again
/// sooner gets it once this has passed since its last, so asking again and again costs the
/// table one copy of the game per period, not one per ask.
pub const REFEED_MS: u64 = 10_000;

/// What happens to a device: what its driver hands the machine.
#[derive(Debug)]
pub enum Happening {
    /// The player did something on a screen.
    Command(Command),
    /// A link to a device is up (again): time to greet it.
    LinkUp(EndpointId),
    /// The link to a device broke; its driver keeps trying where it dials.
    LinkDown(EndpointId),
    /// A frame from a device (the link's authenticated key), as it came.
    Frame(EndpointId, Vec<u8>),
    /// The tables found on the network now.
    Tables(Vec<TableInfo>),
    /// The time [`Device::next_timeout`] asked for has come (or any time later).
    Timeout,
}

struct Guest {
    host: EndpointId,
    lobby: Option<Roster>,
    /// Joining again after this game, which the host may still be at: its start, sent
    /// again, is not a new game, and the join is asked again every [`AGAIN_MS`] until the
    /// host's new table answers.
    again: Option<(SessionId, Time)>,
}

/// How often a device playing again asks a host still at the last game for its new table
/// (ms).
const AGAIN_MS: u64 = 2_000;

enum Role {
    Idle,
    Hosting(Host),
    Guest(Guest),
    Playing(Box<dyn Table>),
    /// A shared screen following the table of the device it watches.
    Watching(Watching),
}

struct Watching {
    /// The seated device that serves this screen.
    device: EndpointId,
    watcher: Watcher,
}

/// A screen this device serves: its name and how many steps it has been sent.
struct Screen {
    name: String,
    /// The steps it has been sent.
    sent: u32,
    /// When it was last sent the game from its start.
    fed_at: Time,
    /// It asked to watch again within [`REFEED_MS`] of that: the game goes again then.
    again: bool,
}

/// One device. See the module docs.
pub struct Device {
    data: Folder,
    key: SecretKey,
    me: EndpointId,
    /// `None`: an offline device, which plays only with its bots.
    links: Option<Box<dyn Links>>,
    random: Box<dyn Random>,
    profile: Profile,
    /// The time of what is being handled.
    now: Time,
    role: Role,
    autoplay: bool,
    /// Devices with a live link.
    up: BTreeMap<EndpointId, bool>,
    /// The last view shown, to send only changes.
    last_view: Option<GameView>,
    /// The shared screens following this device's table (at most [`MAX_SCREENS`]).
    screens: BTreeMap<EndpointId, Screen>,
    /// For the screens, in order.
    events: Vec<Update>,
    /// Signatures found valid by other devices in this process: simulators only.
    memo: Option<SignatureMemo>,
}

impl Device {
    /// The device whose identity is `key`, keeping what it keeps in `data`; it starts at
    /// home, its list of games shown ([`Device::take_events`]).
    pub fn new(
        data: Folder,
        key: SecretKey,
        links: Option<Box<dyn Links>>,
        random: Box<dyn Random>,
        now: Time,
    ) -> Device {
        let me = key.public();
        let profile = load_profile(&data, &me);
        let mut device = Device {
            data,
            key,
            me,
            links,
            random,
            profile,
            now,
            role: Role::Idle,
            autoplay: false,
            up: BTreeMap::new(),
            last_view: None,
            screens: BTreeMap::new(),
            events: Vec::new(),
            memo: None,
        };
        let games = device.games();
        device.emit(Update::Games(games));
        // Killed while sitting at an open table (or as its game began): sit down again.
        if let Some(host) = at_lobby(&device.data)
            && device.join(host).is_err()
        {
            set_at_lobby(&device.data, None);
        }
        device
    }

    /// Handles one happening at `now` (never earlier than the last), then lets the game
    /// do its work and shows what changed.
    pub fn handle(&mut self, now: Time, what: Happening) {
        self.handle_all(now, [what]);
    }

    /// [`Device::handle`] for several at once: a burst of frames (a catch-up) is written
    /// and worked through once, not once per frame.
    pub fn handle_all(&mut self, now: Time, whats: impl IntoIterator<Item = Happening>) {
        self.now = self.now.max(now);
        for what in whats {
            match what {
                Happening::Command(cmd) => self.command(cmd),
                Happening::LinkUp(peer) => {
                    self.up.insert(peer, true);
                    self.peer_up(peer);
                }
                Happening::LinkDown(peer) => {
                    self.up.insert(peer, false);
                    self.peer_down(peer);
                }
                Happening::Frame(peer, bytes) => match Envelope::decode(&bytes) {
                    Ok(frame) => self.frame(peer, frame),
                    Err(e) => tracing::info!("unreadable frame from {}: {e}", peer.fmt_short()),
                },
                Happening::Tables(list) => self.emit(Update::Tables(list)),
                Happening::Timeout => self.on_timeout(),
            }
        }
        self.pump();
    }

    /// What the screens are to show, in order, since the last call.
    pub fn take_events(&mut self) -> Vec<Update> {
        std::mem::take(&mut self.events)
    }

    /// Shares `memo` with the other devices a simulator runs in this process, so each
    /// signature is checked once, not once per device (see [`SignatureMemo`]).
    pub fn share_memo(&mut self, memo: SignatureMemo) {
        self.memo = Some(memo);
    }

    /// This device's id.
    pub fn me(&self) -> EndpointId {
        self.me
    }

    /// The game being played, if any.
    pub fn table(&self) -> Option<&dyn Table> {
        match &self.role {
            Role::Playing(table) => Some(&**table),
            _ => None,
        }
    }

    /// The next moment the machine wants [`Happening::Timeout`], if any: its session's
    /// timers, or a one-second tick while someone is away so the screen's timer moves.
    pub fn next_timeout(&self) -> Option<Time> {
        if let Role::Guest(Guest {
            lobby: None,
            again: Some((_, asked)),
            ..
        }) = &self.role
        {
            return Some(asked.plus(AGAIN_MS));
        }
        let Role::Playing(table) = &self.role else {
            return None;
        };
        let mut next = table.next_timeout();
        if table.anyone_away() {
            let tick = self.now.plus(1_000);
            next = Some(next.map_or(tick, |n| n.min(tick)));
        }
        for screen in self.screens.values().filter(|s| s.again) {
            let due = screen.fed_at.plus(REFEED_MS);
            next = Some(next.map_or(due, |n| n.min(due)));
        }
        next
    }

    /// Says goodbye: a guest stands up, a host closes its table (the driver gives the
    /// frames a moment to leave before it closes the links).
    pub fn shutdown(&mut self) {
        match &self.role {
            Role::Guest(g) => {
                let host = g.host;
                self.send(&host, &Envelope::Leave);
            }
            Role::Hosting(h) => {
                let guests: Vec<EndpointId> = h.seats.iter().map(|s| s.device).collect();
                for g in guests {
                    self.send(&g, &Envelope::Closed);
                }
            }
            _ => {}
        }
    }

    fn emit(&mut self, event: Update) {
        self.events.push(event);
    }

    fn error(&mut self, text: impl Into<String>) {
        self.emit(Update::Error(text.into()));
    }

    fn on_timeout(&mut self) {
        let now = self.now;
        if let Role::Guest(g) = &mut self.role
            && g.lobby.is_none()
            && let Some((_, asked)) = &mut g.again
            && now >= asked.plus(AGAIN_MS)
        {
            *asked = now;
            let host = g.host;
            self.send_join(&host);
        }
        if let Role::Playing(table) = &mut self.role {
            table.timeout(now);
        }
        for screen in self.screens.values_mut() {
            if screen.again && now >= screen.fed_at.plus(REFEED_MS) {
                screen.sent = 0;
                screen.fed_at = now;
                screen.again = false;
            }
        }
        // A changed away-timer is a changed view (and a screen due its game is fed).
        self.last_view = None;
    }

    // ----- commands ---------------------------------------------------------------------

    fn command(&mut self, cmd: Command) {
        if let Err(e) = self.try_command(cmd) {
            self.error(e.to_string());
        }
    }

    fn try_command(&mut self, cmd: Command) -> Result<()> {
        match cmd {
            Command::SetProfile { name, colour } => {
                let name = fit_name(&name);
                if name.is_empty() {
                    return Err(NetError::BadStart("a name cannot be empty".into()));
                }
                self.profile = Profile { name, colour };
                save_profile(&self.data, &self.profile)?;
                match &mut self.role {
                    Role::Hosting(h) => {
                        let colour = colour_for(&h.seats, Some(0), Some(self.profile.colour));
                        if let Some(seat) = h.seats.first_mut() {
                            seat.name = self.profile.name.clone();
                            seat.colour = colour;
                        }
                        self.lobby_changed();
                    }
                    Role::Guest(g) => {
                        let host = g.host;
                        self.send_join(&host);
                    }
                    _ => {}
                }
            }
            Command::HostTable { name, seats } => {
                self.leave();
                let name = if name.trim().is_empty() {
                    format!("{}'s table", self.profile.name)
                } else {
                    name.trim().to_string()
                };
                let addr = self.my_addr();
                let me = LobbyEntry {
                    key: self.me,
                    device: self.me,
                    addr: addr.clone(),
                    name: self.profile.name.clone(),
                    colour: self.profile.colour,
                    bot: false,
                    ready: true,
                    connected: true,
                };
                self.role = Role::Hosting(Host {
                    name,
                    size: seats,
                    setup: GameSetup::default(),
                    seats: vec![me],
                    bots: BTreeMap::new(),
                });
                if self.links.is_some() {
                    self.emit(Update::Ticket {
                        ticket: ticket::encode(&addr),
                    });
                }
                self.lobby_changed();
            }
            Command::JoinTicket { ticket } => {
                let addr =
                    ticket::decode(&ticket).map_err(|e| NetError::BadStart(e.to_string()))?;
                self.join(addr)?;
            }
            Command::JoinTable { table } => self.join(EndpointAddr::new(table.0))?,
            Command::WatchTicket { ticket } => {
                let addr =
                    ticket::decode(&ticket).map_err(|e| NetError::BadStart(e.to_string()))?;
                self.watch(addr)?;
            }
            Command::WatchTable { table } => self.watch(EndpointAddr::new(table.0))?,
            Command::ChooseGame { setup } => {
                let host = self.host_mut()?;
                host.setup = setup;
                self.lobby_changed();
            }
            Command::SetSize { seats } => {
                let host = self.host_mut()?;
                let before = host.size;
                host.size = seats;
                if host.seats_total() < host.seats.len() {
                    let taken = host.seats.len();
                    host.size = before;
                    return Err(NetError::BadStart(format!(
                        "{taken} seats are taken: remove one to make the table smaller"
                    )));
                }
                self.lobby_changed();
            }
            Command::AddBot => {
                let me = self.me;
                let Role::Hosting(host) = &mut self.role else {
                    return Err(NetError::BadStart(
                        "only the host of a table can do that".into(),
                    ));
                };
                let max = host.seats_total();
                if host.seats.len() >= max {
                    return Err(NetError::BadStart(format!(
                        "this table of {} has {max} seats, and all are taken",
                        host.setup.title()
                    )));
                }
                let key = self.random.key()?;
                let number = host.seats.iter().filter(|s| s.bot).count();
                let colour = colour_for(&host.seats, None, None);
                host.seats.push(LobbyEntry {
                    key: key.public(),
                    device: me,
                    addr: host.seats[0].addr.clone(),
                    name: format!("Bot {}", number + 1),
                    colour,
                    bot: true,
                    ready: true,
                    connected: true,
                });
                host.bots.insert(key.public(), key);
                self.lobby_changed();
            }
            Command::RemoveSeat { seat } => {
                let me = self.me;
                let host = self.host_mut()?;
                if seat == 0 {
                    return Err(NetError::BadStart(
                        "the host's own seat cannot be given away".into(),
                    ));
                }
                let entry = host
                    .seats
                    .get(seat as usize)
                    .cloned()
                    .ok_or(NetError::NoSuchSeat { seat })?;
                host.seats.remove(seat as usize);
                host.bots.remove(&entry.key);
                if entry.device != me {
                    self.send(
                        &entry.device,
                        &Envelope::Refused {
                            why: "The host gave your seat away".into(),
                        },
                    );
                }
                self.lobby_changed();
            }
            Command::Ready { ready } => match &mut self.role {
                Role::Guest(g) => {
                    let host = g.host;
                    self.send(&host, &Envelope::Ready { ready });
                }
                Role::Hosting(_) => {}
                _ => return Err(NetError::BadStart("you are not at a table".into())),
            },
            Command::Start => self.start_game()?,
            Command::PlayAgain => self.play_again()?,
            Command::Play { input } => self.play(input)?,
            Command::Vote { seat, vote } => {
                let now = self.now;
                let Role::Playing(table) = &mut self.role else {
                    return Err(NetError::BadVote("no game is being played".into()));
                };
                table.vote(now, seat, vote)?;
                self.last_view = None;
            }
            Command::Back => {
                let now = self.now;
                let Role::Playing(table) = &mut self.role else {
                    return Err(NetError::NotYourMove("no game is being played".into()));
                };
                table.back(now);
                self.last_view = None;
            }
            Command::EndGame { agree } => {
                let now = self.now;
                let Role::Playing(table) = &mut self.role else {
                    return Err(NetError::CannotEnd("no game is being played".into()));
                };
                table.end_game(now, agree)?;
                self.last_view = None;
            }
            Command::Resume { session } => self.resume(session)?,
            Command::Replay { session } => {
                let replay = self.replay(session)?;
                self.emit(Update::Replay(replay));
            }
            Command::Forget { session } => self.forget(session)?,
            Command::LeaveTable => {
                self.leave();
                let games = self.games();
                self.emit(Update::Games(games));
            }
            Command::Autoplay { on } => {
                self.autoplay = on;
                if let Role::Playing(table) = &mut self.role {
                    table.set_autoplay(on);
                }
                self.last_view = None;
            }
        }
        Ok(())
    }

    fn host_mut(&mut self) -> Result<&mut Host> {
        match &mut self.role {
            Role::Hosting(h) => Ok(h),
            _ => Err(NetError::BadStart(
                "only the host of a table can do that".into(),
            )),
        }
    }

    /// This device's address for a ticket or a seat.
    fn my_addr(&self) -> EndpointAddr {
        match &self.links {
            Some(links) => links.addr(),
            None => EndpointAddr::new(self.me),
        }
    }

    fn join(&mut self, addr: EndpointAddr) -> Result<()> {
        let host = addr.id;
        let guest = Role::Guest(Guest {
            host,
            lobby: None,
            again: None,
        });
        let note = addr.clone();
        self.go_to_table(addr, guest, "it can only host games with bots")?;
        set_at_lobby(&self.data, Some(&note));
        // No notice: the screen says it is finding the table until the lobby comes, and a
        // notice over it would cover its Cancel.
        if self.up.get(&host).copied().unwrap_or(false) {
            self.send_join(&host);
        }
        Ok(())
    }

    /// Sits down again with the people of the game just played (see [`Command::PlayAgain`]).
    fn play_again(&mut self) -> Result<()> {
        let Role::Playing(table) = &self.role else {
            return Err(NetError::BadStart(
                "there is no game here to play again".into(),
            ));
        };
        if !table.finished() {
            return Err(NetError::BadStart("this game is not over yet".into()));
        }
        let meta = table.meta().clone();
        let setup = GameSetup::of_start(&meta.start).ok_or_else(|| {
            NetError::BadStart(format!(
                "this version cannot play {} again",
                meta.start.game
            ))
        })?;
        let Some(host) = meta.seats.first() else {
            return Err(NetError::BadStart("the game had no seats".into()));
        };
        if host.device != self.me {
            let addr = host.addr.clone();
            self.join(addr)?;
            if let Role::Guest(g) = &mut self.role {
                g.again = Some((meta.session(), self.now));
            }
            return Ok(());
        }
        self.try_command(Command::HostTable {
            name: String::new(),
            seats: Some(meta.seats.len() as u8),
        })?;
        self.try_command(Command::ChooseGame { setup })?;
        for _ in meta.seats.iter().filter(|s| s.bot) {
            self.try_command(Command::AddBot)?;
        }
        Ok(())
    }

    /// Becomes a shared screen for the table of the device at `addr`.
    fn watch(&mut self, addr: EndpointAddr) -> Result<()> {
        let device = addr.id;
        let screen = Role::Watching(Watching {
            device,
            watcher: Watcher::default(),
        });
        self.go_to_table(addr, screen, "it cannot show another device's table")?;
        // No notice: the screen's own title says it is joining, and a notice would cover
        // its Leave.
        if self.up.get(&device).copied().unwrap_or(false) {
            self.send_watch(&device);
        }
        Ok(())
    }

    /// Leaves whatever table this device is at and dials the device at `addr` to take
    /// `role` at its table (a screen dials as one); `offline` says what an offline device
    /// can do instead.
    fn go_to_table(&mut self, addr: EndpointAddr, role: Role, offline: &str) -> Result<()> {
        if addr.id == self.me {
            return Err(NetError::BadStart("that is this device's own table".into()));
        }
        if self.links.is_none() {
            return Err(NetError::BadStart(format!(
                "this device is offline: {offline}"
            )));
        }
        self.leave();
        if let Some(links) = &mut self.links {
            if matches!(role, Role::Watching(_)) {
                links.connect_as_screen(addr);
            } else {
                links.connect(addr, true);
            }
        }
        self.role = role;
        Ok(())
    }

    fn send_watch(&mut self, device: &EndpointId) {
        let frame = Envelope::Watch {
            version: PROTOCOL_VERSION,
            name: self.profile.name.clone(),
        };
        self.send(device, &frame);
    }

    /// A screen asks to follow this device's table.
    fn screen_joins(&mut self, peer: EndpointId, version: u32, name: String) {
        let refuse = |why: String| Envelope::Refused { why };
        if !matches!(self.role, Role::Hosting(_) | Role::Playing(_)) {
            let frame = refuse("There is no table on that device".into());
            self.send(&peer, &frame);
            return;
        }
        if version != PROTOCOL_VERSION {
            let frame = refuse(format!(
                "This table runs Hoard protocol {PROTOCOL_VERSION}, your device {version}: update both to the same version"
            ));
            self.send(&peer, &frame);
            return;
        }
        if !self.screens.contains_key(&peer) && self.screens.len() >= MAX_SCREENS {
            let frame = refuse(format!("This table already has {MAX_SCREENS} screens"));
            self.send(&peer, &frame);
            return;
        }
        // A screen that comes back is sent the game again from its start, at most once
        // per REFEED_MS.
        let now = self.now;
        if let Some(screen) = self.screens.get_mut(&peer)
            && now < screen.fed_at.plus(REFEED_MS)
        {
            screen.name = fit_name(&name);
            screen.again = true;
            if matches!(self.role, Role::Hosting(_)) {
                self.lobby_changed();
            }
            return;
        }
        self.screens.insert(
            peer,
            Screen {
                name: fit_name(&name),
                sent: 0,
                fed_at: now,
                again: false,
            },
        );
        match &self.role {
            Role::Hosting(_) => self.lobby_changed(),
            // The next pump makes a fresh view, and the screen is fed with it.
            _ => self.last_view = None,
        }
    }

    /// Sends every screen the steps it lacks and the seats now.
    fn feed_screens(&mut self, view: &GameView) {
        let Role::Playing(table) = &self.role else {
            return;
        };
        let start = table.meta().start.clone();
        let seats = feed_seats(&view.seats);
        let audit = view.audit.as_ref().map(|a| match a {
            AuditVerdict::Verified => FeedAudit::Verified,
            AuditVerdict::VerifiedExcept { unchecked } => FeedAudit::VerifiedExcept {
                unchecked: unchecked.clone(),
            },
            AuditVerdict::Fault { what, .. } => FeedAudit::Fault { what: what.clone() },
        });
        let mut frames = Vec::new();
        for (device, screen) in &mut self.screens {
            // A screen that joins late gets the game in parts, each a frame of its own.
            loop {
                let steps = table.public_steps(screen.sent, FEED_CHUNK);
                let got = steps.len() as u32;
                frames.push((
                    *device,
                    Envelope::Screen(Feed::Game {
                        start: start.clone(),
                        seats: seats.clone(),
                        from: screen.sent,
                        steps,
                        audit: audit.clone(),
                    }),
                ));
                screen.sent += got;
                if (got as usize) < FEED_CHUNK {
                    break;
                }
            }
        }
        for (device, frame) in frames {
            self.send(&device, &frame);
        }
    }

    /// Tells the screens the lobby changed.
    fn feed_screens_lobby(&mut self) {
        let Role::Hosting(h) = &self.role else { return };
        let feed = Feed::Lobby {
            table: h.name.clone(),
            game: h.setup.title().to_string(),
            seats: h
                .seats
                .iter()
                .map(|s| FeedSeat {
                    name: s.name.clone(),
                    colour: s.colour,
                    bot: s.bot,
                    connected: s.connected,
                    committed: s.ready,
                    away: false,
                })
                .collect(),
        };
        let screens: Vec<EndpointId> = self.screens.keys().copied().collect();
        for device in screens {
            self.send(&device, &Envelope::Screen(feed.clone()));
        }
    }

    fn send_join(&mut self, host: &EndpointId) {
        let Some(links) = &self.links else { return };
        let addr = links.addr();
        let frame = Envelope::Join {
            version: PROTOCOL_VERSION,
            name: self.profile.name.clone(),
            colour: self.profile.colour,
            addr,
        };
        self.send(host, &frame);
    }

    /// Stands up from whatever table this device is at. A game in progress stays on disk.
    fn leave(&mut self) {
        let role = std::mem::replace(&mut self.role, Role::Idle);
        let screens: Vec<EndpointId> = std::mem::take(&mut self.screens).into_keys().collect();
        for device in &screens {
            self.send(device, &Envelope::Closed);
        }
        self.drop_links_soon(screens);
        match role {
            Role::Idle => {}
            Role::Watching(w) => {
                self.drop_links_soon(vec![w.device]);
            }
            Role::Hosting(h) => {
                for seat in &h.seats {
                    if seat.device != self.me {
                        self.send(&seat.device, &Envelope::Closed);
                    }
                }
                if let Some(links) = &mut self.links {
                    links.advertise(None);
                }
                self.drop_links_soon(h.seats.iter().map(|s| s.device).collect());
            }
            Role::Guest(g) => {
                self.send(&g.host, &Envelope::Leave);
                self.drop_links_soon(vec![g.host]);
                set_at_lobby(&self.data, None);
            }
            Role::Playing(table) => {
                self.drop_links_soon(table.meta().devices().into_iter().collect());
                set_at_table(&self.data, None);
            }
        }
        self.last_view = None;
    }

    /// Plays `table` from now on, noting it so that an app stopped mid-game comes back to it.
    fn sit_at(&mut self, table: Box<dyn Table>) {
        set_at_table(&self.data, Some(table.session()));
        set_at_lobby(&self.data, None);
        self.role = Role::Playing(table);
        // Every seated device serves shared screens: its own address is a code a late TV
        // can join the game by, whoever hosted it.
        if self.links.is_some() {
            self.emit(Update::Ticket {
                ticket: ticket::encode(&self.my_addr()),
            });
        }
    }

    /// Ends links after the frames queued on them (a goodbye) have had a moment to leave.
    fn drop_links_soon(&mut self, devices: Vec<EndpointId>) {
        if let Some(links) = &mut self.links {
            for d in devices {
                if d != self.me {
                    links.disconnect(&d);
                }
            }
        }
    }

    fn start_game(&mut self) -> Result<()> {
        let me = self.me;
        let now = self.now;
        let key = self.key.clone();
        let data = self.data.clone();
        let autoplay = self.autoplay;
        let nonce = self.random.bytes32()?;
        let Role::Hosting(host) = &mut self.role else {
            return Err(NetError::BadStart(
                "only the host of a table can do that".into(),
            ));
        };
        let n = host.seats.len() as u8;
        if !host.setup.seat_range().contains(&n) {
            let range = host.setup.seat_range();
            return Err(NetError::BadStart(format!(
                "{} is played by {} to {} players; the table has {n}",
                host.setup.game_name(),
                range.start(),
                range.end()
            )));
        }
        if let Some(waiting) = host.seats.iter().find(|s| !s.ready || !s.connected) {
            return Err(NetError::BadStart(format!(
                "{} is not ready yet",
                waiting.name
            )));
        }
        let specs: Vec<SeatSpec> = host
            .seats
            .iter()
            .map(|s| SeatSpec {
                key: s.key,
                name: s.name.clone(),
            })
            .collect();
        let start = host.setup.with_seats(n).start(specs, nonce)?;
        let meta = SessionMeta {
            start,
            seats: host
                .seats
                .iter()
                .map(|s| SeatMeta {
                    device: s.device,
                    addr: s.addr.clone(),
                    colour: s.colour,
                    bot: s.bot,
                })
                .collect(),
        };
        let bots: Vec<SecretKey> = host.bots.values().cloned().collect();
        let guests: Vec<EndpointId> = meta.devices().into_iter().filter(|d| *d != me).collect();
        let table = open_table(
            &data,
            meta.clone(),
            &key,
            &bots,
            autoplay,
            now,
            false,
            &mut *self.random,
            self.memo.as_ref(),
        )?;
        if let Some(links) = &mut self.links {
            links.advertise(None);
        }
        self.sit_at(table);
        for g in guests {
            self.send(&g, &Envelope::Begin(meta.clone()));
        }
        // Devices that knocked at the open table but did not sit down have no business here now.
        if let Some(links) = &mut self.links {
            let devices = meta.devices();
            let strangers: Vec<EndpointId> = links
                .peers()
                .into_iter()
                .filter(|p| !devices.contains(p) && !self.screens.contains_key(p))
                .collect();
            for s in strangers {
                links.disconnect(&s);
            }
        }
        self.connect_session(&meta);
        Ok(())
    }

    fn play(&mut self, input: AnyInput) -> Result<()> {
        let now = self.now;
        let Role::Playing(table) = &mut self.role else {
            return Err(NetError::NotYourMove("no game is being played".into()));
        };
        table.play(now, input)
    }

    fn resume(&mut self, session: SessionId) -> Result<()> {
        if let Role::Playing(table) = &self.role
            && table.session() == session
        {
            self.last_view = None;
            return Ok(());
        }
        let (meta, bots) = saved_game(&self.data, &session)?;
        self.leave();
        // Reach the table while the game is read back: the links come up meanwhile.
        self.dial_session(&meta);
        if let Some(links) = &mut self.links {
            for (addr, dial) in table_links(&meta, self.me) {
                if !dial {
                    links.knock(addr);
                }
            }
        }
        let now = self.now;
        let table = match open_table(
            &self.data,
            meta.clone(),
            &self.key,
            &bots,
            self.autoplay,
            now,
            true,
            &mut *self.random,
            self.memo.as_ref(),
        ) {
            Ok(table) => table,
            Err(e) => {
                self.drop_links_soon(meta.devices().into_iter().collect());
                return Err(e);
            }
        };
        self.sit_at(table);
        self.greet_session();
        self.emit(Update::Notice(
            "Resumed the saved game; catching up with the table".into(),
        ));
        Ok(())
    }

    /// A game on disk read back step by step (the one at the table is read where it is).
    fn replay(&mut self, session: SessionId) -> Result<Replay> {
        if let Role::Playing(table) = &self.role
            && table.session() == session
        {
            return Ok(table.replay());
        }
        let (meta, bots) = saved_game(&self.data, &session)?;
        // Opened from its store as if resumed, never put at the table: nothing is sent.
        let table = open_table(
            &self.data,
            meta,
            &self.key,
            &bots,
            false,
            self.now,
            true,
            &mut *self.random,
            self.memo.as_ref(),
        )?;
        Ok(table.replay())
    }

    /// Deletes a game's files, unless it is the one being played.
    fn forget(&mut self, session: SessionId) -> Result<()> {
        if let Role::Playing(table) = &self.role
            && table.session() == session
        {
            return Err(NetError::InPlay);
        }
        // Gone already: nothing to forget.
        session_dir(&self.data, &session).remove_all()?;
        let games = self.games();
        self.emit(Update::Games(games));
        Ok(())
    }

    /// Keeps a link to every other device at the session's table, and greets those
    /// already up.
    fn connect_session(&mut self, meta: &SessionMeta) {
        self.dial_session(meta);
        self.greet_session();
    }

    /// Keeps a link to every other device at the session's table.
    fn dial_session(&mut self, meta: &SessionMeta) {
        let Some(links) = &mut self.links else { return };
        for (addr, dial) in table_links(meta, self.me) {
            if links.has(&addr.id) && addr.is_empty() {
                continue;
            }
            links.connect(addr, dial);
        }
    }

    /// Swaps log heads with the table's devices whose links are already up (the others
    /// are greeted as their links come up).
    fn greet_session(&mut self) {
        let now = self.now;
        let up: Vec<EndpointId> = self
            .up
            .iter()
            .filter(|(_, u)| **u)
            .map(|(d, _)| *d)
            .collect();
        if let Role::Playing(table) = &mut self.role {
            for d in up {
                if table.meta().devices().contains(&d) {
                    table.peer_up(now, d);
                }
            }
        }
        self.last_view = None;
    }

    // ----- the network ------------------------------------------------------------------

    fn send(&mut self, device: &EndpointId, frame: &Envelope) {
        if *device == self.me {
            return;
        }
        // Protocol bytes are synced afresh on every reconnection; lobby frames wait, but
        // a refusal: it answers the device as it was, and a device whose link comes back
        // asks to sit down again (a seat given away while its device was gone must not
        // reach it after the host has seated it anew).
        let synced = matches!(
            frame,
            Envelope::Core { .. } | Envelope::Screen(_) | Envelope::Refused { .. }
        );
        if let Some(links) = &mut self.links
            && !links.send(device, frame.encode(), synced)
        {
            tracing::debug!("no link to {} for a frame", device.fmt_short());
        }
    }

    /// Whether a device that dialed this one may stay connected; `screen`: it dialed as a
    /// shared screen. The driver asks before it takes a connection from a device it has no
    /// link to.
    pub fn welcome(&self, peer: &EndpointId, screen: bool) -> bool {
        match &self.role {
            Role::Idle => false,
            // Anyone may knock at an open table; they must then ask for a seat.
            Role::Hosting(_) => true,
            Role::Guest(g) => {
                *peer == g.host
                    || g.lobby
                        .as_ref()
                        .is_some_and(|l| l.seats.iter().any(|s| s.device == *peer))
            }
            // A screen may come at any time, while there is room for one; any other device
            // not at the table is refused.
            Role::Playing(table) => {
                table.meta().devices().contains(peer)
                    || screen
                        && (self.screens.contains_key(peer) || self.screens.len() < MAX_SCREENS)
            }
            Role::Watching(w) => *peer == w.device,
        }
    }

    fn peer_up(&mut self, peer: EndpointId) {
        let now = self.now;
        let me = self.me;
        match &mut self.role {
            Role::Guest(g) if g.host == peer => self.send_join(&peer),
            Role::Watching(w) if w.device == peer => self.send_watch(&peer),
            Role::Hosting(h) => {
                if let Some(seat) = h.seats.iter_mut().find(|s| s.device == peer) {
                    seat.connected = true;
                    self.lobby_changed();
                }
            }
            Role::Playing(table) => {
                let meta = table.meta().clone();
                if !meta.devices().contains(&peer) {
                    return;
                }
                // The host repeats the start to a guest that may have missed it.
                if meta.host() == Some(me) {
                    self.send(&peer, &Envelope::Begin(meta));
                }
                if let Role::Playing(table) = &mut self.role {
                    table.peer_up(now, peer);
                }
                self.last_view = None;
            }
            _ => {}
        }
    }

    fn peer_down(&mut self, peer: EndpointId) {
        // A screen that went away asks again when it is back.
        if self.screens.remove(&peer).is_some() && matches!(self.role, Role::Hosting(_)) {
            self.lobby_changed();
        }
        match &mut self.role {
            Role::Hosting(h) => {
                if let Some(seat) = h.seats.iter_mut().find(|s| s.device == peer) {
                    seat.connected = false;
                    self.lobby_changed();
                }
            }
            Role::Guest(g) if g.host == peer => {
                self.emit(Update::Notice(
                    "Lost the connection to the host; reconnecting…".into(),
                ));
            }
            Role::Playing(table) => {
                table.set_connected(peer, false);
                self.last_view = None;
            }
            _ => {}
        }
    }

    fn frame(&mut self, peer: EndpointId, frame: Envelope) {
        let now = self.now;
        match frame {
            Envelope::Core {
                session,
                from,
                to,
                messages,
            } => {
                let Role::Playing(table) = &mut self.role else {
                    return;
                };
                if table.session() != session {
                    return;
                }
                if let Err(e) = table.deliver(now, peer, from, to, &messages) {
                    match e {
                        NetError::UnseatedPeer | NetError::NotSeated => {
                            tracing::warn!("refused protocol bytes from {}: {e}", peer.fmt_short())
                        }
                        _ => tracing::debug!("refused a message from {}: {e}", peer.fmt_short()),
                    }
                }
            }
            Envelope::Join {
                version,
                name,
                colour,
                addr,
            } => self.guest_joins(peer, version, name, colour, addr),
            Envelope::Ready { ready } => {
                if let Role::Hosting(h) = &mut self.role
                    && let Some(seat) = h.seats.iter_mut().find(|s| s.device == peer && !s.bot)
                {
                    seat.ready = ready;
                    self.lobby_changed();
                }
            }
            Envelope::Leave => {
                if let Role::Hosting(h) = &mut self.role {
                    let before = h.seats.len();
                    h.seats.retain(|s| s.device != peer || s.device == self.me);
                    if h.seats.len() != before {
                        self.lobby_changed();
                    }
                    if let Some(links) = &mut self.links {
                        links.disconnect(&peer);
                    }
                }
            }
            Envelope::Lobby(mut state) => {
                if let Role::Guest(g) = &mut self.role
                    && g.host == peer
                {
                    // Shown as this device would have seated them.
                    for seat in &mut state.seats {
                        seat.name = fit_name(&seat.name);
                    }
                    let seated = state.seats.iter().any(|s| s.key == self.me);
                    g.lobby = Some(state);
                    if seated {
                        self.show_lobby();
                    }
                }
            }
            Envelope::Refused { why } => {
                if self.serves_me(peer) {
                    self.role = Role::Idle;
                    set_at_lobby(&self.data, None);
                    if let Some(links) = &mut self.links {
                        links.disconnect(&peer);
                    }
                    self.error(why);
                }
            }
            Envelope::Closed => {
                if self.serves_me(peer) {
                    let screen = matches!(self.role, Role::Watching(_));
                    self.role = Role::Idle;
                    set_at_lobby(&self.data, None);
                    if let Some(links) = &mut self.links {
                        links.disconnect(&peer);
                    }
                    if screen {
                        // The screen has nothing left to show: it goes back home, saying why.
                        self.error("The table this screen showed was closed");
                    } else {
                        self.emit(Update::Notice("The host closed the table".into()));
                    }
                }
            }
            Envelope::Begin(meta) => self.begin(peer, meta),
            Envelope::Watch { version, name } => self.screen_joins(peer, version, name),
            Envelope::Screen(feed) => {
                let Role::Watching(w) = &mut self.role else {
                    return;
                };
                if w.device != peer {
                    return;
                }
                match w.watcher.take(feed) {
                    Ok(Took::Shown(view)) => self.emit(Update::Screen(view)),
                    // Steps are missing (a frame lost with a link): ask again from the start.
                    Ok(Took::Gap) => self.send_watch(&peer),
                    Err(why) => self.error(format!("The table cannot be shown: {why}")),
                }
            }
        }
    }

    /// `peer` is the host of the lobby this device sits in, or the device it is the screen of.
    fn serves_me(&self, peer: EndpointId) -> bool {
        match &self.role {
            Role::Guest(g) => g.host == peer,
            Role::Watching(w) => w.device == peer,
            _ => false,
        }
    }

    fn guest_joins(
        &mut self,
        peer: EndpointId,
        version: u32,
        name: String,
        colour: [u8; 3],
        addr: EndpointAddr,
    ) {
        let me = self.me;
        match &mut self.role {
            Role::Hosting(h) => {
                if version != PROTOCOL_VERSION {
                    self.send(
                        &peer,
                        &Envelope::Refused {
                            why: format!(
                                "This table runs Hoard protocol {PROTOCOL_VERSION}, your device {version}: update both to the same version"
                            ),
                        },
                    );
                    return;
                }
                let name = fit_name(&name);
                let addr = address_of(peer, &addr);
                let at = h.seats.iter().position(|s| s.device == peer && !s.bot);
                let colour = colour_for(&h.seats, at, Some(colour));
                if let Some(seat) = at.and_then(|i| h.seats.get_mut(i)) {
                    seat.name = name;
                    seat.colour = colour;
                    seat.addr = addr;
                    seat.connected = true;
                } else {
                    if h.seats.len() >= h.seats_total() {
                        self.send(
                            &peer,
                            &Envelope::Refused {
                                why: "The table is full".into(),
                            },
                        );
                        return;
                    }
                    h.seats.push(LobbyEntry {
                        key: peer,
                        device: peer,
                        addr,
                        name,
                        colour,
                        bot: false,
                        ready: false,
                        connected: true,
                    });
                }
                self.lobby_changed();
            }
            Role::Playing(table) if table.meta().devices().contains(&peer) => {
                // A seated device that restarted asks again: it gets the start.
                if table.meta().host() == Some(me) {
                    let meta = table.meta().clone();
                    self.send(&peer, &Envelope::Begin(meta));
                }
            }
            _ => self.send(
                &peer,
                &Envelope::Refused {
                    why: "There is no open table on that device".into(),
                },
            ),
        }
    }

    fn begin(&mut self, peer: EndpointId, meta: SessionMeta) {
        let session = meta.session();
        match &self.role {
            Role::Playing(table) if table.session() == session => return,
            // The host is still at the game this device wants to play again: not a new one.
            Role::Guest(Guest {
                again: Some((last, _)),
                ..
            }) if *last == session => return,
            Role::Guest(g) if g.host == peer => {}
            _ => {
                // Only the host of the lobby this device sat down at may start a game for it.
                tracing::info!("ignored a game start from {}", peer.fmt_short());
                return;
            }
        }
        if meta.host() != Some(peer) || meta.start.seat_of(&self.me).is_none() {
            self.error("The host started a game this device is not seated in");
            return;
        }
        let now = self.now;
        let resume = session_dir(&self.data, &session).exists(META_FILE);
        match open_table(
            &self.data,
            meta.clone(),
            &self.key,
            &[],
            self.autoplay,
            now,
            resume,
            &mut *self.random,
            self.memo.as_ref(),
        ) {
            Ok(table) => {
                self.sit_at(table);
                self.connect_session(&meta);
            }
            Err(e) => self.error(format!("The game could not start on this device: {e}")),
        }
    }

    // ----- views --------------------------------------------------------------------------

    /// The lobby of the table this device hosts, as its guests are sent it.
    fn hosted_lobby(&self, h: &Host) -> Roster {
        Roster {
            name: h.name.clone(),
            setup: h.setup.clone(),
            seats: h.seats.clone(),
            screens: self.screens.values().map(|s| s.name.clone()).collect(),
        }
    }

    fn lobby_changed(&mut self) {
        let Role::Hosting(h) = &self.role else { return };
        let state = self.hosted_lobby(h);
        let card = TableInfo {
            id: TableId(self.me),
            name: h.name.clone(),
            host_name: self.profile.name.clone(),
            game: h.setup.game_name().to_string(),
            seats_taken: h.seats.len() as u8,
            seats_total: h.seats_total() as u8,
            version: PROTOCOL_VERSION,
        };
        let guests: Vec<EndpointId> = h
            .seats
            .iter()
            .filter(|s| s.device != self.me)
            .map(|s| s.device)
            .collect();
        if let Some(links) = &mut self.links {
            links.advertise(Some(&card));
        }
        for g in guests {
            self.send(&g, &Envelope::Lobby(state.clone()));
        }
        self.feed_screens_lobby();
        self.show_lobby();
    }

    fn show_lobby(&mut self) {
        let (state, host, size) = match &self.role {
            Role::Hosting(h) => (self.hosted_lobby(h), true, Some(h.seats_total() as u8)),
            Role::Guest(Guest { lobby: Some(l), .. }) => (l.clone(), false, None),
            _ => return,
        };
        let n = state.seats.len() as u8;
        let can_start = host
            && state.setup.seat_range().contains(&n)
            && state.seats.iter().all(|s| s.ready && s.connected);
        let seats = state
            .seats
            .iter()
            .map(|s| LobbySeat {
                name: s.name.clone(),
                colour: s.colour,
                bot: s.bot,
                ready: s.ready,
                me: s.key == self.me,
                connected: s.connected,
            })
            .collect();
        self.emit(Update::Lobby(LobbyView {
            table_name: state.name,
            host,
            seats,
            setup: state.setup,
            can_start,
            screens: state.screens,
            size,
        }));
    }

    /// After every input: let the session do its work, send what it produced, and show
    /// what changed.
    fn pump(&mut self) {
        let now = self.now;
        let Role::Playing(table) = &mut self.role else {
            return;
        };
        let pumped = table.pump(now);
        let session = table.session();
        let view = if pumped.changed || self.last_view.is_none() {
            table.view(now)
        } else {
            None
        };
        for out in pumped.sends {
            let device = out.device;
            self.send(&device, &Envelope::core(session, out));
        }
        for device in pumped.drop_links {
            tracing::info!("cutting {} off for a while", device.fmt_short());
            if let Some(links) = &mut self.links {
                links.cut_off(&device, CUT_OFF_MS);
            }
        }
        for n in pumped.notices {
            self.emit(Update::Notice(n));
        }
        for e in pumped.errors {
            self.error(e);
        }
        if let Some(view) = view
            && self.last_view.as_ref() != Some(&view)
        {
            self.feed_screens(&view);
            self.last_view = Some(view.clone());
            self.emit(Update::Game(view));
        }
    }

    /// The games on disk: unfinished ones first, then those that are over, each newest
    /// first.
    fn games(&mut self) -> Vec<SessionSummary> {
        let playing = match &self.role {
            Role::Playing(table) => Some(&**table),
            _ => None,
        };
        let at = at_table(&self.data);
        saved_games(
            &self.data,
            &self.key,
            at,
            playing,
            self.now,
            &mut *self.random,
        )
    }
}
