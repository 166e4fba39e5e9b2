//! The one boundary between the network and the screens: commands go in, events come out,
//! nothing blocks the caller. The GUI and the headless CLI both drive a table through it.
//!
//! [`Handle::start`] spawns a thread with its own tokio runtime running the device (see
//! [`crate::device`]): the iroh endpoint, table discovery, the lobby, and the protocol
//! cores of every seat this device holds (its own, and on the host its bots'). With
//! [`Network::Offline`] there is no endpoint at all: one device and its bots, the same
//! cores wired in-process.

use crate::device::{self, Device};
use crate::error::{NetError, Result};
use crate::identity::{PublicKey, SecretKey};
use hoard_rules::greedquest::{self, GreedQuest};
use hoard_rules::sprawl::{self, Sprawl};
use hoard_rules::{Game, Outcome, Pending, Seat};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::{Arc, mpsc};
use tokio::sync::mpsc as tokio_mpsc;

pub use crate::identity::SessionId;
pub use crate::transport::{TableId, TableInfo};

/// Where this device plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Network {
    /// The local Wi-Fi: tables listed over mDNS, joined by tap or ticket; no internet needed.
    #[default]
    Lan,
    /// No network at all: one device and bots.
    Offline,
    /// Over the internet through iroh's relays (opt-in); LAN discovery still works.
    Relay,
    /// Loopback only (127.0.0.1), tickets only, no mDNS: several devices on one machine
    /// (tests, benchmarks). Nothing leaves the machine.
    Loopback,
}

/// How to start a [`Handle`].
pub struct HandleConfig {
    /// Identity key, profile and saved games live here.
    pub data_dir: PathBuf,
    pub network: Network,
    /// Called after every event is queued (the GUI: `ctx.request_repaint()`).
    pub wake: Arc<dyn Fn() + Send + Sync>,
}

impl HandleConfig {
    /// A config with no wake-up callback (for callers that poll).
    pub fn new(data_dir: impl Into<PathBuf>, network: Network) -> HandleConfig {
        HandleConfig {
            data_dir: data_dir.into(),
            network,
            wake: Arc::new(|| {}),
        }
    }
}

/// A game and its options, as the host chooses them in the lobby.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum GameSetup {
    GreedQuest(greedquest::Config),
    Sprawl(sprawl::Config),
}

impl Default for GameSetup {
    fn default() -> Self {
        GameSetup::GreedQuest(greedquest::Config::new(2))
    }
}

impl GameSetup {
    /// The game's [`Game::NAME`].
    pub fn game_name(&self) -> &'static str {
        match self {
            GameSetup::GreedQuest(_) => GreedQuest::NAME,
            GameSetup::Sprawl(_) => Sprawl::NAME,
        }
    }

    /// How many players the game can seat.
    pub fn seat_range(&self) -> std::ops::RangeInclusive<u8> {
        match self {
            GameSetup::GreedQuest(_) => GreedQuest::seat_range(),
            GameSetup::Sprawl(_) => Sprawl::seat_range(),
        }
    }

    /// The same options for a table of `seats` players.
    pub fn with_seats(&self, seats: u8) -> GameSetup {
        match self {
            GameSetup::GreedQuest(c) => {
                GameSetup::GreedQuest(greedquest::Config { seats, ..c.clone() })
            }
            GameSetup::Sprawl(c) => GameSetup::Sprawl(sprawl::Config { seats, ..c.clone() }),
        }
    }
}

/// A move in any game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnyInput {
    GreedQuest(greedquest::Input),
    Sprawl(sprawl::Input),
}

/// What the screen draws: the replicated public state and, where this device has one,
/// its own private side.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyState {
    GreedQuest {
        public: greedquest::Public,
        private: Option<greedquest::Private>,
    },
    Sprawl {
        public: sprawl::Public,
    },
}

/// What to do about a seat that has gone quiet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AwayVote {
    /// Keep waiting (the default; withdraws nothing already signed).
    Wait,
    /// Go on without it at every step that waits on it, until it is heard from again.
    Skip,
    /// Go on without it for the rest of the game.
    Remove,
}

/// What the screens (or the CLI) ask of the network. Host-only commands from a guest are
/// answered with an [`Event::Error`].
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    SetProfile {
        name: String,
        colour: [u8; 3],
    },
    /// Open a table (advertised on the LAN unless offline); I take seat 0.
    HostTable {
        name: String,
    },
    /// Join by a pasted or scanned join code.
    JoinTicket {
        ticket: String,
    },
    /// Join a table from the discovered list.
    JoinTable {
        table: TableId,
    },
    /// Host only.
    ChooseGame {
        setup: GameSetup,
    },
    /// Host only: a bot takes the next seat (it runs on this device with its own key).
    AddBot,
    /// Host only: free a seat (a bot's, or a guest's).
    RemoveSeat {
        seat: Seat,
    },
    Ready {
        ready: bool,
    },
    /// Host only, when everyone is ready.
    Start,
    Play {
        input: AnyInput,
    },
    Vote {
        seat: Seat,
        vote: AwayVote,
    },
    /// My player is back after the table skipped my turns: my next turns wait for me again
    /// (shown when [`GameView::skipped_me`]).
    Back,
    /// Agree to end the game at the step the table is at (`agree`), or keep playing: the
    /// offer others made is then no longer shown at this step (nothing is signed; the
    /// offer lapses by itself when the step is played).
    EndGame {
        agree: bool,
    },
    /// Reopen an unfinished game from disk.
    Resume {
        session: SessionId,
    },
    /// Put an unfinished game away for good: its files are deleted and it leaves the list
    /// of unfinished games. (The others at its table can go on without this seat.)
    Forget {
        session: SessionId,
    },
    LeaveTable,
    /// Let a bot play this device's own seat (the headless `--bot` mode).
    Autoplay {
        on: bool,
    },
}

/// What happened, for the screens. Snapshots, not deltas: the latest one is the truth.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // a snapshot per change; boxing would only move the copy
pub enum Event {
    /// Every open table seen on the LAN, each time the list changes.
    Tables(Vec<TableInfo>),
    /// My hosted table's join code (text; the app draws the QR code).
    Ticket {
        ticket: String,
    },
    Lobby(LobbyView),
    /// A full snapshot of the game after every change.
    Game(GameView),
    /// Unfinished games on disk (sent at start and whenever the list changes).
    Unfinished(Vec<SessionSummary>),
    /// Plain-language status ("Mia is away", "Reconnected").
    Notice(String),
    /// Plain-language error; nothing is lost.
    Error(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct LobbySeat {
    pub name: String,
    pub colour: [u8; 3],
    pub bot: bool,
    pub ready: bool,
    pub me: bool,
    pub connected: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LobbyView {
    pub table_name: String,
    /// This device hosts the table.
    pub host: bool,
    pub seats: Vec<LobbySeat>,
    pub setup: GameSetup,
    /// The host may start: every seat is ready and the game takes this many players.
    pub can_start: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SeatView {
    pub name: String,
    pub colour: [u8; 3],
    pub bot: bool,
    pub connected: bool,
    /// How long the table has waited for this seat, once it counts as away.
    pub away_for_secs: Option<u32>,
    /// Its move for the current step is in (its content may still be sealed).
    pub committed: bool,
}

/// An away seat the table may vote about.
#[derive(Clone, Debug, PartialEq)]
pub struct AwayVoteView {
    pub seat: Seat,
    pub away_for_secs: u32,
    /// What this device voted, if it did.
    pub my_vote: Option<AwayVote>,
}

/// The table's agreement to end the game at the step it is at.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EndView {
    /// The seats that agreed to end the game here.
    pub agreed: Vec<Seat>,
    /// This device's player is among them.
    pub mine: bool,
    /// This device's player chose to keep playing at this step.
    pub declined: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AuditVerdict {
    /// Every hidden play of every seat was checked and was legal.
    Verified,
    /// What was wrong, naming the seat and the step where there is one.
    Fault {
        seat: Option<Seat>,
        step: Option<u32>,
        what: String,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct GameView {
    pub session: SessionId,
    /// My seat (the one this device's player holds).
    pub me: Option<Seat>,
    pub seats: Vec<SeatView>,
    pub state: AnyState,
    pub pending: Pending,
    /// An input is awaited from me and I have not sent it.
    pub my_turn: bool,
    /// The whole game log in plain words, oldest first.
    pub log: Vec<String>,
    pub votes: Vec<AwayVoteView>,
    /// The table went on without my seat while I was away, and I have not moved or said I
    /// am back since: the others' devices may go on skipping my turns until I do.
    pub skipped_me: bool,
    pub audit: Option<AuditVerdict>,
    pub outcome: Option<Outcome>,
    /// Agreements to end the game at this step.
    pub end: EndView,
    /// The game is over because the table agreed to end it (not played out).
    pub ended_by_agreement: bool,
    /// Completed steps.
    pub step: u32,
    /// The public state's hash after the last step (the same on every device).
    pub state_hash: [u8; 32],
    /// Set if the game stopped on a proven fault or a divergence.
    pub halted: Option<String>,
}

/// An unfinished game on disk.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionSummary {
    pub session: SessionId,
    pub game: String,
    pub names: Vec<String>,
    /// Steps played so far.
    pub turn: u32,
    /// This device was at the game's table when it last stopped (the app was closed or
    /// killed mid-game, not left): the app takes the player straight back to it.
    pub interrupted: bool,
}

/// The device's network: send commands, drain events. Dropping it shuts the network down.
pub struct Handle {
    commands: tokio_mpsc::UnboundedSender<device::Input>,
    events: mpsc::Receiver<Event>,
    me: PublicKey,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Handle {
    /// Loads (or makes) this device's identity in `data_dir` and starts the network on a
    /// thread of its own. Returns at once; binding the endpoint happens in the background
    /// and a failure there arrives as an [`Event::Error`].
    pub fn start(config: HandleConfig) -> Result<Handle> {
        std::fs::create_dir_all(&config.data_dir)?;
        let key = device::load_identity(&config.data_dir)?;
        let me = key.public();
        let (commands, commands_rx) = tokio_mpsc::unbounded_channel();
        let (events_tx, events) = mpsc::channel();
        let out = device::Out::new(events_tx, config.wake.clone());
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("hoard-net")
            .enable_all()
            .build()?;
        let data_dir = config.data_dir.clone();
        let network = config.network;
        let thread = std::thread::Builder::new()
            .name("hoard-net".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let device = Device::new(data_dir, key, network, out);
                    device.run(commands_rx).await;
                });
                // Connections still closing are cut here; peers notice within the idle timeout.
                runtime.shutdown_timeout(std::time::Duration::from_millis(200));
            })?;
        Ok(Handle {
            commands,
            events,
            me,
            thread: Some(thread),
        })
    }

    /// Queues a command. Never blocks.
    pub fn send(&self, cmd: Command) {
        // If the network thread is gone, there is nobody left to tell.
        let _ = self.commands.send(device::Input::Command(cmd));
    }

    /// The next event, if any. Never blocks.
    pub fn try_recv(&self) -> Option<Event> {
        self.events.try_recv().ok()
    }

    /// Waits up to `timeout` for the next event (for headless callers).
    pub fn recv_timeout(&self, timeout: std::time::Duration) -> Option<Event> {
        self.events.recv_timeout(timeout).ok()
    }

    /// This device's identity (its iroh endpoint id).
    pub fn me(&self) -> PublicKey {
        self.me
    }

    /// Closes connections politely (so peers notice at once) and waits for the network
    /// thread to end, at most about a second.
    pub fn shutdown(mut self) {
        self.stop(true);
    }

    fn stop(&mut self, wait: bool) {
        let _ = self.commands.send(device::Input::Shutdown);
        if let Some(thread) = self.thread.take()
            && wait
        {
            let _ = thread.join();
        }
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        // Never block a GUI frame: the thread finishes on its own.
        self.stop(false);
    }
}

/// A fresh random 32 bytes from the operating system.
pub(crate) fn entropy() -> Result<[u8; 32]> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| {
        NetError::Io(std::io::Error::other(format!(
            "no randomness from the system: {e}"
        )))
    })?;
    Ok(bytes)
}

/// A new key (a bot's identity), from the operating system's randomness.
pub(crate) fn new_key() -> Result<SecretKey> {
    Ok(SecretKey::from_bytes(&entropy()?))
}
