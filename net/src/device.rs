//! The device: one tokio task that owns the endpoint, the list of tables on the LAN, the
//! lobby (hosting or sitting at someone's table) and the session being played, and turns
//! the handle's commands and the network's frames into events for the screens.
//!
//! Devices speak [`Frame`]s to each other. The lobby is the host's: guests send `Join` and
//! `Ready`, the host answers with the whole seat list, and on `Start` it sends every guest
//! the session's [`SessionMeta`]. From then on the host has no special role: protocol
//! bytes flow device to device (`Frame::Core`), addressed by seat key, and every seated
//! device keeps a link to every other. In each pair one side dials: a guest dials the
//! host, and between guests the lower id dials.

use crate::colours;
use crate::core::Time;
use crate::error::{NetError, Result};
use crate::games::{AnyInput, ForGame, GameSetup, TableGame, with_game};
use crate::identity::{PublicKey, SeatSpec, SecretKey, SessionId, SystemRandom, entropy, new_key};
use crate::session::{DONE_FILE, Outgoing, SeatMeta, Session, SessionMeta, Table, session_dir};
use crate::storage::{DiskStorage, Folder, Storage};
use crate::table_types::{
    AuditVerdict, Command, Event, GameView, LobbySeat, LobbyView, Network, Replay, SessionSummary,
};
use crate::transport::discovery::Discovery;
use crate::transport::endpoint::{self, EndpointOptions, NetMode};
use crate::transport::mesh::{self, Mesh, MeshEvent};
use crate::transport::{PROTOCOL_VERSION, Relays, TableId, TableInfo, ticket};
use crate::watch::{FEED_CHUNK, Feed, FeedAudit, FeedSeat, MAX_SCREENS, Took, Watcher, feed_seats};
use hoard_rules::Seat;
use iroh::{Endpoint, EndpointAddr, EndpointId, TransportAddr};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};
use tokio::sync::mpsc as tokio_mpsc;

/// What the handle sends the device.
pub enum Input {
    Command(Command),
    Shutdown,
}

/// The events queue to the screens, and the callback that wakes them.
pub struct Out {
    tx: mpsc::Sender<Event>,
    wake: Arc<dyn Fn() + Send + Sync>,
}

impl Out {
    pub fn new(tx: mpsc::Sender<Event>, wake: Arc<dyn Fn() + Send + Sync>) -> Out {
        Out { tx, wake }
    }

    fn emit(&self, event: Event) {
        if self.tx.send(event).is_ok() {
            (self.wake)();
        }
    }
}

/// What devices say to each other.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Frame {
    /// Guest to host: seat me (again). Idempotent: sent on every (re)connection.
    Join {
        version: u32,
        name: String,
        colour: [u8; 3],
        addr: EndpointAddr,
    },
    /// Guest to host.
    Ready { ready: bool },
    /// Guest to host: I stand up.
    Leave,
    /// Host to guests: the whole lobby, after every change.
    Lobby(LobbyState),
    /// Host to a device it will not seat.
    Refused { why: String },
    /// Host to guests: the table is closed.
    Closed,
    /// Host to guests: the game starts with these seats.
    Begin(SessionMeta),
    /// Protocol bytes from one seat's core to another's, addressed by seat number (the
    /// seat's key is known from the start; a key on the wire would have to be checked as a
    /// curve point again on every frame).
    Core {
        session: SessionId,
        from: Seat,
        to: Seat,
        /// The messages in the order sent; a catching-up device gets hundreds at once.
        messages: Vec<serde_bytes::ByteBuf>,
    },
    /// A screen to a seated device: show me the table (sent on every (re)connection).
    Watch { version: u32, name: String },
    /// A seated device to its screens: the public table, after every change.
    Screen(Feed),
}

impl Frame {
    /// The frame that carries `out`'s messages.
    pub fn core(session: SessionId, out: Outgoing) -> Frame {
        Frame::Core {
            session,
            from: out.from,
            to: out.to,
            messages: out.messages,
        }
    }

    fn encode(&self) -> Vec<u8> {
        postcard::to_stdvec(self).unwrap_or_default()
    }

    pub fn decode(bytes: &[u8]) -> Result<Frame> {
        postcard::from_bytes(bytes).map_err(|e| NetError::Malformed(e.to_string()))
    }
}

/// The lobby as the host sends it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LobbyState {
    pub name: String,
    pub setup: GameSetup,
    pub seats: Vec<LobbyEntry>,
    /// The shared screens following the table, by name.
    pub screens: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LobbyEntry {
    /// The seat's key: the device's own, or a bot's.
    pub key: PublicKey,
    pub device: EndpointId,
    pub addr: EndpointAddr,
    pub name: String,
    pub colour: [u8; 3],
    pub bot: bool,
    pub ready: bool,
    pub connected: bool,
}

/// The player's name and colour, kept in the data directory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub name: String,
    pub colour: [u8; 3],
}

/// Reads a kept profile; `None` if it is damaged or its name is empty.
pub fn read_profile(bytes: &[u8]) -> Option<Profile> {
    let p: Profile = postcard::from_bytes(bytes).ok()?;
    // Kept by an older version, a name may not fit a start.
    let name = fit_name(&p.name);
    (!name.is_empty()).then_some(Profile { name, ..p })
}

/// Reads the keys of a session's bots, kept beside it on the host.
pub fn read_bots(bytes: &[u8]) -> Result<Vec<SecretKey>> {
    let keys: Vec<[u8; 32]> = postcard::from_bytes(bytes)
        .map_err(|e| NetError::Corrupt(format!("the saved bots' keys are damaged: {e}")))?;
    Ok(keys.iter().map(SecretKey::from_bytes).collect())
}

/// The most seats a lobby holds (the largest game seats 8).
const MAX_LOBBY: usize = crate::identity::MAX_SEATS;

/// The most addresses kept for a device. A phone has a few (IPv4, IPv6, perhaps a relay)
/// and a laptop with virtual networks a dozen or so; the lobby, with every seat's
/// addresses, goes to every guest in one frame, so a guest may not pad it.
pub const MAX_ADDRS: usize = 32;
/// The longest relay address kept.
const MAX_RELAY_URL: usize = 256;
/// The most characters of a player's name kept (the bytes are capped by the start's
/// [`crate::identity::MAX_NAME`]).
const MAX_NAME_CHARS: usize = 32;

/// How to reach `device`, from an address it gave: under `device`'s own id, whatever id
/// the address names (links are keyed by that id, so a guest naming another guest's id
/// would take over that guest's links), with at most [`MAX_ADDRS`] IP or relay addresses.
pub fn address_of(device: EndpointId, addr: &EndpointAddr) -> EndpointAddr {
    let usable = addr.addrs.iter().filter(|a| match a {
        TransportAddr::Ip(_) => true,
        TransportAddr::Relay(url) => url.as_str().len() <= MAX_RELAY_URL,
        _ => false,
    });
    EndpointAddr::from_parts(device, usable.take(MAX_ADDRS).cloned())
}

/// A player's name as it may sit at a table: trimmed, and cut between characters to at
/// most [`MAX_NAME_CHARS`] characters and [`crate::identity::MAX_NAME`] bytes, so that
/// the start's check always passes (17 emoji are 17 characters but 68 bytes).
pub fn fit_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars().take(MAX_NAME_CHARS) {
        if out.len() + c.len_utf8() > crate::identity::MAX_NAME {
            break;
        }
        out.push(c);
    }
    out.trim_end().to_string()
}

const IDENTITY_FILE: &str = "identity.key";
const PROFILE_FILE: &str = "profile.bin";
pub(crate) const META_FILE: &str = "table.bin";
const BOTS_FILE: &str = "bots.bin";
const PORT_FILE: &str = "port";
/// The session this device is playing (32 bytes), removed when the player leaves it.
const AT_TABLE_FILE: &str = "at-table";
/// The most frames taken in one go before the session does its work.
const BURST: usize = 256;

/// Writes `bytes` to `path` so that a crash leaves either the old file or the new one.
pub(crate) fn write_durably(path: &Path, bytes: &[u8]) -> Result<()> {
    write_file(path, bytes, false)
}

/// [`write_durably`] for a file holding a key: readable by its owner only, from its first
/// byte on.
fn write_private(path: &Path, bytes: &[u8]) -> Result<()> {
    write_file(path, bytes, true)
}

fn write_file(path: &Path, bytes: &[u8], private: bool) -> Result<()> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return Err(NetError::Io(std::io::Error::other(format!(
            "{} is not a file's path",
            path.display()
        ))));
    };
    DiskStorage::new(dir).write(name, bytes, private)?;
    Ok(())
}

/// Where a session's files are under the data folder `data_dir` (see [`session_dir`]).
fn session_path(data_dir: &Path, session: &SessionId) -> PathBuf {
    let data = Folder::root(Arc::new(DiskStorage::new(data_dir)));
    data_dir.join(session_dir(&data, session).path())
}

/// The device's identity: its iroh secret key, made once and kept in `data_dir`.
pub fn load_identity(data_dir: &Path) -> Result<SecretKey> {
    let path = data_dir.join(IDENTITY_FILE);
    match DiskStorage::new(data_dir).read_private(IDENTITY_FILE) {
        Ok(bytes) => {
            let bytes: [u8; 32] = bytes.as_slice().try_into().map_err(|_| {
                NetError::Corrupt(format!(
                    "this device's identity key ({}) is damaged: it should be 32 bytes, not {}",
                    path.display(),
                    bytes.len()
                ))
            })?;
            Ok(SecretKey::from_bytes(&bytes))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let key = new_key()?;
            write_private(&path, &key.to_bytes())?;
            Ok(key)
        }
        Err(e) => Err(e.into()),
    }
}

fn load_profile(data_dir: &Path, me: &PublicKey) -> Profile {
    std::fs::read(data_dir.join(PROFILE_FILE))
        .ok()
        .and_then(|b| read_profile(&b))
        .unwrap_or_else(|| Profile {
            name: format!("Player {}", &me.fmt_short().to_string()[..4]),
            colour: [0x5d, 0x7c, 0xc9],
        })
}

/// The colour for seat `seat` of `seats` (`None`: a seat sitting down): the `wanted` one
/// unless another seat wears it, then the free one nearest to it; a bot (`wanted` `None`)
/// takes the first free colour. Colours at a table are always distinct.
fn colour_for(seats: &[LobbyEntry], seat: Option<usize>, wanted: Option<[u8; 3]>) -> [u8; 3] {
    let taken: Vec<[u8; 3]> = seats
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != seat)
        .map(|(_, s)| s.colour)
        .collect();
    match wanted {
        Some(wanted) => colours::free_colour(wanted, &taken),
        None => colours::bot_colour(&taken),
    }
}

struct Host {
    name: String,
    /// The number of seats the host chose, if it chose.
    size: Option<u8>,
    setup: GameSetup,
    seats: Vec<LobbyEntry>,
    /// Keys of the bots seated, by their public key.
    bots: BTreeMap<PublicKey, SecretKey>,
}

impl Host {
    /// How many seats the table has: the host's choice, within what the game seats (and a
    /// lobby holds); without a choice, the game's most.
    fn seats_total(&self) -> usize {
        let range = self.setup.seat_range();
        let most = usize::from(*range.end()).min(MAX_LOBBY);
        self.size
            .map_or(most, |n| usize::from(n.max(*range.start())).min(most))
    }
}

struct Guest {
    host: EndpointId,
    lobby: Option<LobbyState>,
}

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
    sent: u32,
}

struct Net {
    endpoint: Endpoint,
    mesh: Mesh,
    _discovery: Option<Discovery>,
    mode: NetMode,
}

/// The device task. See the module docs.
pub struct Device {
    dir: PathBuf,
    key: SecretKey,
    me: EndpointId,
    network: Network,
    out: Out,
    profile: Profile,
    clock: Instant,
    net: Option<Net>,
    role: Role,
    autoplay: bool,
    /// Devices with a live link.
    up: BTreeMap<EndpointId, bool>,
    tables_rx: Option<tokio_mpsc::UnboundedReceiver<Vec<TableInfo>>>,
    mesh_rx: Option<tokio_mpsc::UnboundedReceiver<MeshEvent>>,
    /// The last view shown, to send only changes.
    last_view: Option<GameView>,
    /// The shared screens following this device's table (at most [`MAX_SCREENS`]).
    screens: BTreeMap<EndpointId, Screen>,
}

impl Device {
    pub fn new(dir: PathBuf, key: SecretKey, network: Network, out: Out) -> Device {
        let me = key.public();
        let profile = load_profile(&dir, &me);
        Device {
            dir,
            key,
            me,
            network,
            out,
            profile,
            clock: Instant::now(),
            net: None,
            role: Role::Idle,
            autoplay: false,
            up: BTreeMap::new(),
            tables_rx: None,
            mesh_rx: None,
            last_view: None,
            screens: BTreeMap::new(),
        }
    }

    fn now(&self) -> Time {
        Time(self.clock.elapsed().as_millis() as u64)
    }

    fn emit(&self, event: Event) {
        self.out.emit(event);
    }

    fn error(&self, text: impl Into<String>) {
        self.emit(Event::Error(text.into()));
    }

    async fn bind(&mut self) {
        let (mode, relays) = match &self.network {
            Network::Offline => return,
            Network::Lan => (NetMode::Lan, Relays::Public),
            Network::Relay(relays) => (NetMode::Relay, relays.clone()),
            Network::Loopback => (NetMode::Loopback, Relays::Public),
        };
        let port_file = self.dir.join(PORT_FILE);
        let mut options = EndpointOptions::new(mode);
        options.relays = relays;
        options.port = std::fs::read(&port_file)
            .ok()
            .and_then(|b| b.as_slice().try_into().ok().map(u16::from_le_bytes));
        match endpoint::bind_endpoint(self.key.clone(), &options).await {
            Ok(bound) => {
                if let Some(port) = bound
                    .endpoint
                    .bound_sockets()
                    .iter()
                    .find(|a| a.is_ipv4())
                    .map(|a| a.port())
                {
                    // Best effort: a device that cannot remember its port is still found by mDNS.
                    let _ = std::fs::write(&port_file, port.to_le_bytes());
                }
                let (mesh_tx, mesh_rx) = tokio_mpsc::unbounded_channel();
                let mesh = Mesh::new(bound.endpoint.clone(), mesh_tx);
                let discovery = bound.mdns.map(|mdns| {
                    let (tx, rx) = tokio_mpsc::unbounded_channel();
                    self.tables_rx = Some(rx);
                    Discovery::start(mdns, tx)
                });
                self.mesh_rx = Some(mesh_rx);
                self.net = Some(Net {
                    endpoint: bound.endpoint,
                    mesh,
                    _discovery: discovery,
                    mode,
                });
            }
            Err(e) => self.error(format!("{e}. You can still play offline against bots.")),
        }
    }

    /// Runs until the handle is dropped or shut down.
    pub async fn run(mut self, mut inputs: tokio_mpsc::UnboundedReceiver<Input>) {
        self.bind().await;
        self.emit(Event::Games(self.games()));
        loop {
            let deadline = self.deadline();
            tokio::select! {
                input = inputs.recv() => match input {
                    Some(Input::Command(cmd)) => self.command(cmd).await,
                    Some(Input::Shutdown) | None => break,
                },
                Some(event) = recv(&mut self.mesh_rx) => {
                    self.mesh_event(event);
                    // Take what else has arrived before doing the work it causes, so a
                    // burst (a catch-up) is written and worked through once, not per frame.
                    for _ in 0..BURST {
                        let Some(more) = self.mesh_rx.as_mut().and_then(|rx| rx.try_recv().ok()) else {
                            break;
                        };
                        self.mesh_event(more);
                    }
                }
                Some(list) = recv(&mut self.tables_rx) => self.emit(Event::Tables(list)),
                _ = sleep_until(deadline) => self.timeout(),
            }
            self.pump();
        }
        self.shutdown().await;
    }

    async fn shutdown(&mut self) {
        match &self.role {
            Role::Guest(g) => {
                let host = g.host;
                self.send(&host, &Frame::Leave);
            }
            Role::Hosting(h) => {
                let guests: Vec<EndpointId> = h.seats.iter().map(|s| s.device).collect();
                for g in guests {
                    self.send(&g, &Frame::Closed);
                }
            }
            _ => {}
        }
        if let Some(net) = self.net.take() {
            // Give queued frames a moment to leave, then close so peers notice at once.
            tokio::time::sleep(Duration::from_millis(20)).await;
            drop(net.mesh);
            let _ = tokio::time::timeout(Duration::from_millis(500), net.endpoint.close()).await;
        }
    }

    /// When the session next needs the clock (its cores' timers, or a one-second tick
    /// while someone is away so the screen's timer moves).
    fn deadline(&self) -> Option<Instant> {
        let Role::Playing(table) = &self.role else {
            return None;
        };
        let mut next = table
            .next_timeout()
            .map(|t| self.clock + Duration::from_millis(t.as_millis()));
        if table.anyone_away() {
            let tick = Instant::now() + Duration::from_secs(1);
            next = Some(next.map_or(tick, |n| n.min(tick)));
        }
        next
    }

    fn timeout(&mut self) {
        let now = self.now();
        if let Role::Playing(table) = &mut self.role {
            table.timeout(now);
        }
        // A changed away-timer is a changed view.
        self.last_view = None;
    }

    // ----- commands ---------------------------------------------------------------------

    async fn command(&mut self, cmd: Command) {
        if let Err(e) = self.try_command(cmd).await {
            self.error(e.to_string());
        }
    }

    async fn try_command(&mut self, cmd: Command) -> Result<()> {
        match cmd {
            Command::SetProfile { name, colour } => {
                let name = fit_name(&name);
                if name.is_empty() {
                    return Err(NetError::BadStart("a name cannot be empty".into()));
                }
                self.profile = Profile { name, colour };
                write_durably(
                    &self.dir.join(PROFILE_FILE),
                    &postcard::to_stdvec(&self.profile).unwrap_or_default(),
                )?;
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
                let addr = self.my_addr().await;
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
                if self.net.is_some() {
                    self.emit(Event::Ticket {
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
            Command::AddBot => {
                let me = self.me;
                let host = self.host_mut()?;
                let max = host.seats_total();
                if host.seats.len() >= max {
                    return Err(NetError::BadStart(format!(
                        "this table of {} has {max} seats, and all are taken",
                        host.setup.title()
                    )));
                }
                let key = new_key()?;
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
                        &Frame::Refused {
                            why: "The host gave your seat away".into(),
                        },
                    );
                }
                self.lobby_changed();
            }
            Command::Ready { ready } => match &mut self.role {
                Role::Guest(g) => {
                    let host = g.host;
                    self.send(&host, &Frame::Ready { ready });
                }
                Role::Hosting(_) => {}
                _ => return Err(NetError::BadStart("you are not at a table".into())),
            },
            Command::Start => self.start_game()?,
            Command::Play { input } => self.play(input)?,
            Command::Vote { seat, vote } => {
                let now = self.now();
                let Role::Playing(table) = &mut self.role else {
                    return Err(NetError::BadVote("no game is being played".into()));
                };
                table.vote(now, seat, vote)?;
                self.last_view = None;
            }
            Command::Back => {
                let now = self.now();
                let Role::Playing(table) = &mut self.role else {
                    return Err(NetError::NotYourMove("no game is being played".into()));
                };
                table.back(now);
                self.last_view = None;
            }
            Command::EndGame { agree } => {
                let now = self.now();
                let Role::Playing(table) = &mut self.role else {
                    return Err(NetError::CannotEnd("no game is being played".into()));
                };
                table.end_game(now, agree)?;
                self.last_view = None;
            }
            Command::Resume { session } => self.resume(session)?,
            Command::Replay { session } => {
                let replay = self.replay(session)?;
                self.emit(Event::Replay(replay));
            }
            Command::Forget { session } => self.forget(session)?,
            Command::LeaveTable => {
                self.leave();
                self.emit(Event::Games(self.games()));
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

    /// This device's address for a ticket: with the loopback or LAN socket addresses it
    /// is bound to (waiting briefly for the interfaces to be listed).
    async fn my_addr(&self) -> EndpointAddr {
        let Some(net) = &self.net else {
            return EndpointAddr::new(self.me);
        };
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            let addr = net.endpoint.addr();
            let usable = addr
                .ip_addrs()
                .any(|a| net.mode != NetMode::Loopback || endpoint::is_loopback(a));
            if usable || Instant::now() >= deadline {
                if net.mode == NetMode::Loopback {
                    // Only loopback addresses: nothing in a test's ticket points off the machine.
                    let ips = net
                        .endpoint
                        .bound_sockets()
                        .into_iter()
                        .filter(endpoint::is_loopback)
                        .map(TransportAddr::Ip);
                    return EndpointAddr::from_parts(self.me, ips);
                }
                return addr;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    fn join(&mut self, addr: EndpointAddr) -> Result<()> {
        let host = addr.id;
        let guest = Role::Guest(Guest { host, lobby: None });
        self.go_to_table(addr, guest, "it can only host games with bots")?;
        self.emit(Event::Notice("Joining the table…".into()));
        if self.up.get(&host).copied().unwrap_or(false) {
            self.send_join(&host);
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
        self.emit(Event::Notice("Joining the table as its screen…".into()));
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
        if self.net.is_none() {
            return Err(NetError::BadStart(format!(
                "this device is offline: {offline}"
            )));
        }
        self.leave();
        if let Some(net) = &mut self.net {
            if matches!(role, Role::Watching(_)) {
                net.mesh.connect_as_screen(addr);
            } else {
                net.mesh.connect(addr, true);
            }
        }
        self.role = role;
        Ok(())
    }

    fn send_watch(&mut self, device: &EndpointId) {
        let frame = Frame::Watch {
            version: PROTOCOL_VERSION,
            name: self.profile.name.clone(),
        };
        self.send(device, &frame);
    }

    /// A screen asks to follow this device's table.
    fn screen_joins(&mut self, peer: EndpointId, version: u32, name: String) {
        let refuse = |why: String| Frame::Refused { why };
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
        // A screen that comes back is sent the game again from its start.
        self.screens.insert(
            peer,
            Screen {
                name: fit_name(&name),
                sent: 0,
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
                    Frame::Screen(Feed::Game {
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
            self.send(&device, &Frame::Screen(feed.clone()));
        }
    }

    fn send_join(&mut self, host: &EndpointId) {
        let addr = match &self.net {
            Some(net) => {
                let mut addr = net.endpoint.addr();
                if net.mode == NetMode::Loopback {
                    addr = EndpointAddr::from_parts(
                        self.me,
                        net.endpoint
                            .bound_sockets()
                            .into_iter()
                            .filter(endpoint::is_loopback)
                            .map(TransportAddr::Ip),
                    );
                }
                addr
            }
            None => return,
        };
        let frame = Frame::Join {
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
            self.send(device, &Frame::Closed);
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
                        self.send(&seat.device, &Frame::Closed);
                    }
                }
                if let Some(net) = &self.net {
                    endpoint::advertise(&net.endpoint, None);
                }
                self.drop_links_soon(h.seats.iter().map(|s| s.device).collect());
            }
            Role::Guest(g) => {
                self.send(&g.host, &Frame::Leave);
                self.drop_links_soon(vec![g.host]);
            }
            Role::Playing(table) => {
                self.drop_links_soon(table.meta().devices().into_iter().collect());
                self.set_at_table(None);
            }
        }
        self.last_view = None;
    }

    /// Plays `table` from now on, noting it so that an app stopped mid-game comes back to it.
    fn sit_at(&mut self, table: Box<dyn Table>) {
        self.set_at_table(Some(table.session()));
        self.role = Role::Playing(table);
    }

    /// The game this device was at the table of when it last stopped, if it did not leave.
    fn at_table(&self) -> Option<SessionId> {
        let bytes = std::fs::read(self.dir.join(AT_TABLE_FILE)).ok()?;
        Some(SessionId(bytes.as_slice().try_into().ok()?))
    }

    /// Notes the game being played (or, with `None`, that the player left it), so that an
    /// app closed or killed mid-game takes the player straight back to it.
    fn set_at_table(&self, session: Option<SessionId>) {
        let path = self.dir.join(AT_TABLE_FILE);
        let done = match session {
            Some(session) => write_durably(&path, &session.0),
            None => match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
                _ => Ok(()),
            },
        };
        // At worst the game is listed at home instead of reopened.
        if let Err(e) = done {
            tracing::warn!("could not note the game being played: {e}");
        }
    }

    /// Ends links after the frames queued on them (a goodbye) have had a moment to leave.
    fn drop_links_soon(&mut self, devices: Vec<EndpointId>) {
        if let Some(net) = &mut self.net {
            for d in devices {
                if d != self.me {
                    net.mesh.disconnect(&d);
                }
            }
        }
    }

    fn start_game(&mut self) -> Result<()> {
        let me = self.me;
        let now = self.now();
        let key = self.key.clone();
        let dir = self.dir.clone();
        let autoplay = self.autoplay;
        let host = self.host_mut()?;
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
        let nonce = entropy()?;
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
        let table = open_table(&dir, meta.clone(), &key, &bots, autoplay, now, false)?;
        if let Some(net) = &self.net {
            endpoint::advertise(&net.endpoint, None);
        }
        self.sit_at(table);
        for g in guests {
            self.send(&g, &Frame::Begin(meta.clone()));
        }
        // Devices that knocked at the open table but did not sit down have no business here now.
        if let Some(net) = &mut self.net {
            let devices = meta.devices();
            let strangers: Vec<EndpointId> = net
                .mesh
                .peers()
                .filter(|p| !devices.contains(*p) && !self.screens.contains_key(*p))
                .copied()
                .collect();
            for s in strangers {
                net.mesh.disconnect(&s);
            }
        }
        self.connect_session(&meta);
        Ok(())
    }

    fn play(&mut self, input: AnyInput) -> Result<()> {
        let now = self.now();
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
        let (meta, bots) = self.saved_game(&session)?;
        self.leave();
        // Reach the table while the game is read back: the links come up meanwhile.
        self.dial_session(&meta);
        if let Some(net) = &mut self.net {
            for seat in &meta.seats {
                if seat.device != self.me && !dials(self.me, seat.device, meta.host()) {
                    net.mesh.knock(address_of(seat.device, &seat.addr));
                }
            }
        }
        let now = self.now();
        let table = match open_table(
            &self.dir,
            meta.clone(),
            &self.key,
            &bots,
            self.autoplay,
            now,
            true,
        ) {
            Ok(table) => table,
            Err(e) => {
                self.drop_links_soon(meta.devices().into_iter().collect());
                return Err(e);
            }
        };
        self.sit_at(table);
        self.greet_session();
        self.emit(Event::Notice(
            "Resumed the saved game; catching up with the table".into(),
        ));
        Ok(())
    }

    /// A saved game's metadata and the keys of the bots this device seated in it.
    fn saved_game(&self, session: &SessionId) -> Result<(SessionMeta, Vec<SecretKey>)> {
        let dir = session_path(&self.dir, session);
        let bytes = std::fs::read(dir.join(META_FILE)).map_err(|e| {
            NetError::Corrupt(format!("the saved game {session} could not be opened: {e}"))
        })?;
        let meta: SessionMeta = postcard::from_bytes(&bytes)
            .map_err(|e| NetError::Corrupt(format!("the saved game {session} is damaged: {e}")))?;
        Ok((meta, load_bots(&dir)?))
    }

    /// A game on disk read back step by step (the one at the table is read where it is).
    fn replay(&self, session: SessionId) -> Result<Replay> {
        if let Role::Playing(table) = &self.role
            && table.session() == session
        {
            return Ok(table.replay());
        }
        let (meta, bots) = self.saved_game(&session)?;
        // Opened from its store as if resumed, never put at the table: nothing is sent.
        let table = open_table(&self.dir, meta, &self.key, &bots, false, self.now(), true)?;
        Ok(table.replay())
    }

    /// Deletes a game's files, unless it is the one being played.
    fn forget(&mut self, session: SessionId) -> Result<()> {
        if let Role::Playing(table) = &self.role
            && table.session() == session
        {
            return Err(NetError::InPlay);
        }
        match std::fs::remove_dir_all(session_path(&self.dir, &session)) {
            // Gone already: nothing to forget.
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
            _ => {}
        }
        self.emit(Event::Games(self.games()));
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
        let me = self.me;
        let host = meta.host();
        let Some(net) = &mut self.net else { return };
        for seat in &meta.seats {
            if seat.device == me || net.mesh.has(&seat.device) && seat.addr.is_empty() {
                continue;
            }
            let dial = dials(me, seat.device, host);
            net.mesh.connect(address_of(seat.device, &seat.addr), dial);
        }
    }

    /// Swaps log heads with the table's devices whose links are already up (the others
    /// are greeted as their links come up).
    fn greet_session(&mut self) {
        let now = self.now();
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

    fn send(&mut self, device: &EndpointId, frame: &Frame) {
        if *device == self.me {
            return;
        }
        // Protocol bytes are synced afresh on every reconnection; lobby frames wait.
        let synced = matches!(frame, Frame::Core { .. } | Frame::Screen(_));
        if let Some(net) = &self.net
            && !(if synced {
                net.mesh.send_synced(device, frame.encode())
            } else {
                net.mesh.send(device, frame.encode())
            })
        {
            tracing::debug!("no link to {} for a frame", device.fmt_short());
        }
    }

    fn mesh_event(&mut self, event: MeshEvent) {
        match event {
            MeshEvent::Incoming { conn } => {
                let peer = conn.remote_id();
                if self.welcome(&peer, conn.alpn() == endpoint::SCREEN_ALPN) {
                    if let Some(net) = &mut self.net {
                        net.mesh.adopt(conn);
                    }
                } else {
                    tracing::info!(
                        "refused a connection from {}: not seated at this table",
                        peer.fmt_short()
                    );
                    mesh::refuse(&conn, "not seated at this table");
                }
            }
            MeshEvent::Up { peer } => {
                self.up.insert(peer, true);
                self.peer_up(peer);
            }
            MeshEvent::Down { peer, why } => {
                self.up.insert(peer, false);
                tracing::debug!("link to {} down: {why}", peer.fmt_short());
                self.peer_down(peer);
            }
            MeshEvent::Frame { peer, bytes } => match Frame::decode(&bytes) {
                Ok(frame) => self.frame(peer, frame),
                Err(e) => tracing::info!("unreadable frame from {}: {e}", peer.fmt_short()),
            },
        }
    }

    /// Whether a device that dialed us may stay connected; `screen`: it dialed as a shared
    /// screen.
    fn welcome(&self, peer: &EndpointId, screen: bool) -> bool {
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
        let now = self.now();
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
                    self.send(&peer, &Frame::Begin(meta));
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
                self.emit(Event::Notice(
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

    fn frame(&mut self, peer: EndpointId, frame: Frame) {
        let now = self.now();
        match frame {
            Frame::Core {
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
            Frame::Join {
                version,
                name,
                colour,
                addr,
            } => self.guest_joins(peer, version, name, colour, addr),
            Frame::Ready { ready } => {
                if let Role::Hosting(h) = &mut self.role
                    && let Some(seat) = h.seats.iter_mut().find(|s| s.device == peer && !s.bot)
                {
                    seat.ready = ready;
                    self.lobby_changed();
                }
            }
            Frame::Leave => {
                if let Role::Hosting(h) = &mut self.role {
                    let before = h.seats.len();
                    h.seats.retain(|s| s.device != peer || s.device == self.me);
                    if h.seats.len() != before {
                        self.lobby_changed();
                    }
                    if let Some(net) = &mut self.net {
                        net.mesh.disconnect(&peer);
                    }
                }
            }
            Frame::Lobby(mut state) => {
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
            Frame::Refused { why } => {
                if self.serves_me(peer) {
                    self.role = Role::Idle;
                    if let Some(net) = &mut self.net {
                        net.mesh.disconnect(&peer);
                    }
                    self.error(why);
                }
            }
            Frame::Closed => {
                if self.serves_me(peer) {
                    let screen = matches!(self.role, Role::Watching(_));
                    self.role = Role::Idle;
                    if let Some(net) = &mut self.net {
                        net.mesh.disconnect(&peer);
                    }
                    if screen {
                        // The screen has nothing left to show: it goes back home, saying why.
                        self.error("The table this screen showed was closed");
                    } else {
                        self.emit(Event::Notice("The host closed the table".into()));
                    }
                }
            }
            Frame::Begin(meta) => self.begin(peer, meta),
            Frame::Watch { version, name } => self.screen_joins(peer, version, name),
            Frame::Screen(feed) => {
                let Role::Watching(w) = &mut self.role else {
                    return;
                };
                if w.device != peer {
                    return;
                }
                match w.watcher.take(feed) {
                    Ok(Took::Shown(view)) => self.emit(Event::Screen(view)),
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
                        &Frame::Refused {
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
                            &Frame::Refused {
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
                    self.send(&peer, &Frame::Begin(meta));
                }
            }
            _ => self.send(
                &peer,
                &Frame::Refused {
                    why: "There is no open table on that device".into(),
                },
            ),
        }
    }

    fn begin(&mut self, peer: EndpointId, meta: SessionMeta) {
        let session = meta.session();
        match &self.role {
            Role::Playing(table) if table.session() == session => return,
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
        let now = self.now();
        let resume = session_path(&self.dir, &session).join(META_FILE).exists();
        match open_table(
            &self.dir,
            meta.clone(),
            &self.key,
            &[],
            self.autoplay,
            now,
            resume,
        ) {
            Ok(table) => {
                self.sit_at(table);
                self.connect_session(&meta);
            }
            Err(e) => self.error(format!("The game could not start on this device: {e}")),
        }
    }

    // ----- views --------------------------------------------------------------------------

    fn lobby_changed(&mut self) {
        let Role::Hosting(h) = &self.role else { return };
        let state = LobbyState {
            name: h.name.clone(),
            setup: h.setup.clone(),
            seats: h.seats.clone(),
            screens: self.screens.values().map(|s| s.name.clone()).collect(),
        };
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
        if let Some(net) = &self.net {
            endpoint::advertise(&net.endpoint, Some(card.to_user_data()));
        }
        for g in guests {
            self.send(&g, &Frame::Lobby(state.clone()));
        }
        self.feed_screens_lobby();
        self.show_lobby();
    }

    fn show_lobby(&self) {
        let (state, host) = match &self.role {
            Role::Hosting(h) => (
                LobbyState {
                    name: h.name.clone(),
                    setup: h.setup.clone(),
                    seats: h.seats.clone(),
                    screens: self.screens.values().map(|s| s.name.clone()).collect(),
                },
                true,
            ),
            Role::Guest(Guest { lobby: Some(l), .. }) => (l.clone(), false),
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
        self.emit(Event::Lobby(LobbyView {
            table_name: state.name,
            host,
            seats,
            setup: state.setup,
            can_start,
            screens: state.screens,
        }));
    }

    /// After every input: let the session do its work, send what it produced, and show
    /// what changed.
    fn pump(&mut self) {
        let now = self.now();
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
            self.send(&device, &Frame::core(session, out));
        }
        for device in pumped.drop_links {
            tracing::info!("cutting {} off for a while", device.fmt_short());
            if let Some(net) = &self.net {
                net.mesh.cut_off(&device, mesh::CUT_OFF);
            }
        }
        for n in pumped.notices {
            self.emit(Event::Notice(n));
        }
        for e in pumped.errors {
            self.error(e);
        }
        if let Some(view) = view
            && self.last_view.as_ref() != Some(&view)
        {
            self.feed_screens(&view);
            self.last_view = Some(view.clone());
            self.emit(Event::Game(view));
        }
    }

    /// The games on disk: unfinished ones first, then those that are over, each newest
    /// first.
    fn games(&self) -> Vec<SessionSummary> {
        let playing = match &self.role {
            Role::Playing(table) => Some(&**table),
            _ => None,
        };
        saved_games(&self.dir, &self.key, self.at_table(), playing, self.now())
    }
}

/// The games saved under `data_dir` for the device whose key is `key`, as the home list
/// shows them: unfinished ones first, then those that are over, each newest first.
/// `at_table` is the game the device was playing when it last stopped, `playing` the table
/// it is at now.
pub(crate) fn saved_games(
    data_dir: &Path,
    key: &SecretKey,
    at_table: Option<SessionId>,
    playing: Option<&dyn Table>,
    now: Time,
) -> Vec<SessionSummary> {
    let Ok(entries) = std::fs::read_dir(data_dir.join("sessions")) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let dir = entry.path();
        let Some(meta) = std::fs::read(dir.join(META_FILE))
            .ok()
            .and_then(|b| postcard::from_bytes::<SessionMeta>(&b).ok())
        else {
            continue;
        };
        let result = saved_result(data_dir, &dir, &meta, key, playing, now);
        let turn = std::fs::read(dir.join("progress"))
            .ok()
            .and_then(|b| b.as_slice().try_into().ok().map(u32::from_le_bytes))
            .unwrap_or(0);
        let modified = entry.metadata().and_then(|m| m.modified()).ok();
        found.push((
            modified,
            SessionSummary {
                session: meta.session(),
                game: meta.start.game.clone(),
                names: meta.start.seats.iter().map(|s| s.name.clone()).collect(),
                turn,
                interrupted: result.is_none() && at_table == Some(meta.session()),
                result,
            },
        ));
    }
    found.sort_by_key(|f| (f.1.result.is_some(), std::cmp::Reverse(f.0)));
    found.into_iter().map(|(_, s)| s).collect()
}

/// How a saved game ended, in words, if it is over: `None` while it can go on.
///
/// The session writes the words into its [`DONE_FILE`] once its records are on disk, and
/// leaves the file empty where there was no room for them (issue 27). An empty file is
/// filled in from the game itself: the table being played says it, any other game is read
/// back from its log as for a replay, and the words are written for the next listing.
/// Only a game that cannot be read back is a bare "Over".
fn saved_result(
    data_dir: &Path,
    dir: &Path,
    meta: &SessionMeta,
    key: &SecretKey,
    playing: Option<&dyn Table>,
    now: Time,
) -> Option<String> {
    let words = std::fs::read(dir.join(DONE_FILE)).ok()?;
    let words: String = String::from_utf8_lossy(&words)
        .trim()
        .chars()
        .take(120)
        .collect();
    if !words.is_empty() {
        return Some(words);
    }
    let ending = match playing {
        // Its own session writes the file as soon as it can.
        Some(table) if table.session() == meta.session() => table.ending(),
        _ => {
            let read_back = load_bots(dir)
                .and_then(|bots| open_table(data_dir, meta.clone(), key, &bots, false, now, true));
            match read_back {
                Ok(table) => {
                    let ending = table.ending();
                    if let Some(words) = &ending {
                        // Best effort: unwritten, it is worked out again next time.
                        let _ = write_durably(&dir.join(DONE_FILE), words.as_bytes());
                    }
                    ending
                }
                Err(e) => {
                    tracing::warn!(
                        "the saved game {} could not be read back: {e}",
                        meta.session()
                    );
                    None
                }
            }
        }
    };
    Some(ending.unwrap_or_else(|| "Over".into()))
}

/// Which side of a pair dials: a guest dials the host; between guests, the lower id.
pub fn dials(me: EndpointId, peer: EndpointId, host: Option<EndpointId>) -> bool {
    if Some(peer) == host {
        true
    } else if Some(me) == host {
        false
    } else {
        me < peer
    }
}

fn load_bots(dir: &Path) -> Result<Vec<SecretKey>> {
    match DiskStorage::new(dir).read_private(BOTS_FILE) {
        Ok(bytes) => read_bots(&bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e.into()),
    }
}

/// Opens (or creates) this device's side of a session: its meta and bots' keys on disk
/// first, then a core per local seat.
fn open_table(
    data_dir: &Path,
    meta: SessionMeta,
    key: &SecretKey,
    bots: &[SecretKey],
    autoplay: bool,
    now: Time,
    resume: bool,
) -> Result<Box<dyn Table>> {
    meta.check()?;
    let folder = session_dir(
        &Folder::root(Arc::new(DiskStorage::new(data_dir))),
        &meta.session(),
    );
    let dir = data_dir.join(folder.path());
    if !resume {
        std::fs::create_dir_all(&dir)?;
        write_durably(
            &dir.join(META_FILE),
            &postcard::to_stdvec(&meta).unwrap_or_default(),
        )?;
        if !bots.is_empty() {
            let keys: Vec<[u8; 32]> = bots.iter().map(|k| k.to_bytes()).collect();
            write_private(
                &dir.join(BOTS_FILE),
                &postcard::to_stdvec(&keys).unwrap_or_default(),
            )?;
        }
    }
    let game = meta.start.game.clone();
    let open = Open {
        dir: folder,
        meta,
        key,
        bots,
        autoplay,
        now,
        resume,
    };
    with_game(&game, open).unwrap_or_else(|| {
        Err(NetError::BadStart(format!(
            "this device does not know the game {game}"
        )))
    })
}

/// A session of the game its start names, opened by [`open_table`].
struct Open<'a> {
    dir: Folder,
    meta: SessionMeta,
    key: &'a SecretKey,
    bots: &'a [SecretKey],
    autoplay: bool,
    now: Time,
    resume: bool,
}

impl ForGame for Open<'_> {
    type Out = Result<Box<dyn Table>>;

    fn run<G: TableGame>(self) -> Self::Out {
        let Open {
            dir,
            meta,
            key,
            bots,
            autoplay,
            now,
            resume,
        } = self;
        Ok(Box::new(if resume {
            Session::<G>::resume(dir, meta, key, bots, autoplay, now, &mut SystemRandom)?
        } else {
            Session::<G>::create(dir, meta, key, bots, autoplay, now, &mut SystemRandom)?
        }))
    }
}

async fn recv<T>(rx: &mut Option<tokio_mpsc::UnboundedReceiver<T>>) -> Option<T> {
    match rx {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::Start;
    use hoard_rules::greedquest::GreedQuest;

    fn id(b: u8) -> EndpointId {
        SecretKey::from_bytes(&[b; 32]).public()
    }

    #[test]
    fn exactly_one_side_of_every_pair_dials() {
        let ids: Vec<EndpointId> = (1..6).map(id).collect();
        for host in &ids {
            for a in &ids {
                for b in &ids {
                    if a == b {
                        continue;
                    }
                    let ab = dials(*a, *b, Some(*host));
                    let ba = dials(*b, *a, Some(*host));
                    assert_ne!(ab, ba, "pair {a} {b} with host {host}");
                }
            }
        }
    }

    /// Issue 20: `identity.key` and `bots.bin` were world-readable (0644); a device's key
    /// and its bots' keys are its players' identities at every table.
    #[cfg(unix)]
    #[test]
    fn the_device_key_and_the_bots_keys_are_readable_by_the_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("hoard-keys-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let mode = |p: &Path| std::fs::metadata(p).expect("file").permissions().mode() & 0o777;
        let loosen = |p: &Path| {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o644)).expect("chmod")
        };
        let key = load_identity(&dir).expect("new identity");
        let identity = dir.join(IDENTITY_FILE);
        assert_eq!(mode(&identity), 0o600);
        // A key file an older version left readable by everyone is tightened when read.
        loosen(&identity);
        assert_eq!(load_identity(&dir).expect("same").public(), key.public());
        assert_eq!(mode(&identity), 0o600);

        let bot = SecretKey::from_bytes(&[7; 32]);
        let seats = vec![
            SeatSpec {
                key: key.public(),
                name: "Ann".into(),
            },
            SeatSpec {
                key: bot.public(),
                name: "Bot".into(),
            },
        ];
        let start =
            Start::new::<GreedQuest>(&hoard_rules::greedquest::Config::new(2), seats, [3; 32])
                .expect("start");
        let seat = |k: &SecretKey, bot| SeatMeta {
            device: key.public(),
            addr: EndpointAddr::new(k.public()),
            colour: [1, 2, 3],
            bot,
        };
        let meta = SessionMeta {
            seats: vec![seat(&key, false), seat(&bot, true)],
            start,
        };
        let session = meta.session();
        drop(
            open_table(
                &dir,
                meta,
                &key,
                std::slice::from_ref(&bot),
                false,
                Time(0),
                false,
            )
            .expect("table"),
        );
        let bots = session_path(&dir, &session).join(BOTS_FILE);
        assert_eq!(mode(&bots), 0o600);
        loosen(&bots);
        let kept = load_bots(&session_path(&dir, &session)).expect("bots");
        assert_eq!(
            kept.iter().map(|k| k.public()).collect::<Vec<_>>(),
            [bot.public()]
        );
        assert_eq!(mode(&bots), 0o600);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Reported: the list of tables said "3 of 6 seats" for a GreedQuest table hosted for
    /// four.
    #[test]
    fn a_table_is_as_big_as_its_host_chose_within_what_the_game_seats() {
        let host = |size| Host {
            name: "The cellar".into(),
            size,
            setup: crate::games::basic("greedquest", 3).expect("greedquest"),
            seats: Vec::new(),
            bots: BTreeMap::new(),
        };
        assert_eq!(host(Some(4)).seats_total(), 4);
        assert_eq!(host(None).seats_total(), 6, "no choice: the game's most");
        assert_eq!(host(Some(9)).seats_total(), 6);
        assert_eq!(host(Some(1)).seats_total(), 2);
    }

    /// Reported: Bot 2 and the player who joined after it both wore blue.
    #[test]
    fn every_seat_at_a_table_wears_its_own_colour_and_a_newcomer_gets_the_nearest_free_one() {
        let blue = colours::SEAT_COLOURS[1];
        let seat = |b: u8, colour: [u8; 3], bot: bool| LobbyEntry {
            key: id(b),
            device: if bot { id(1) } else { id(b) },
            addr: EndpointAddr::new(id(1)),
            name: format!("seat {b}"),
            colour,
            bot,
            ready: true,
            connected: true,
        };
        // The host in red, then three bots.
        let mut seats = vec![seat(1, colours::SEAT_COLOURS[0], false)];
        for b in 2..5 {
            let colour = colour_for(&seats, None, None);
            seats.push(seat(b, colour, true));
        }
        // A player in blue joins; a player in a blue a bot already wears joins after.
        let first = colour_for(&seats, None, Some(blue));
        assert_eq!(first, blue, "blue was free");
        seats.push(seat(5, first, false));
        let second = colour_for(&seats, None, Some([0x3d, 0x8b, 0xd9]));
        assert_eq!(
            second,
            colours::SEAT_COLOURS[6],
            "teal is the free colour nearest blue"
        );
        seats.push(seat(6, second, false));
        // The first player joins again (a new profile, a reconnect): its own colour is its own.
        assert_eq!(colour_for(&seats, Some(4), Some(blue)), blue);
        let mut read: Vec<usize> = seats.iter().map(|s| colours::reads_as(s.colour)).collect();
        read.sort();
        read.dedup();
        assert_eq!(read.len(), seats.len(), "{seats:?}");
    }

    #[test]
    fn a_name_of_emoji_is_cut_by_its_bytes_between_characters() {
        let name = "\u{1F409}".repeat(17);
        assert_eq!(name.chars().count(), 17);
        let cut = fit_name(&name);
        assert!(
            cut.len() <= crate::identity::MAX_NAME,
            "{} bytes",
            cut.len()
        );
        assert_eq!(cut, "\u{1F409}".repeat(16));
        assert_eq!(fit_name(&"a".repeat(40)), "a".repeat(MAX_NAME_CHARS));
        assert_eq!(fit_name("  Mia  "), "Mia");
    }

    #[test]
    fn an_address_is_kept_under_its_devices_own_id_and_capped() {
        let ips = (0..1000u16)
            .map(|p| TransportAddr::Ip(std::net::SocketAddr::from(([127, 0, 0, 1], 1000 + p))));
        let claimed = EndpointAddr::from_parts(id(2), ips);
        let kept = address_of(id(1), &claimed);
        assert_eq!(kept.id, id(1));
        assert_eq!(kept.addrs.len(), MAX_ADDRS);
        assert!(kept.addrs.iter().all(|a| claimed.addrs.contains(a)));
    }

    #[test]
    fn identity_survives_a_restart_and_a_damaged_key_is_a_clear_error() {
        let dir = std::env::temp_dir().join(format!("hoard-identity-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let first = load_identity(&dir).expect("new identity");
        let again = load_identity(&dir).expect("same identity");
        assert_eq!(first.public(), again.public());
        std::fs::write(dir.join(IDENTITY_FILE), b"short").expect("write");
        let err = load_identity(&dir).expect_err("damaged key");
        assert!(err.to_string().contains("damaged"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
