//! What the screens and the network say to each other: the commands that go in, the events
//! and the views that come out. Plain data, shared by the handle, the device and the
//! sessions, and depending on none of them.

use crate::audit::UncheckedSeat;
use crate::games::{AnyInput, AnyState, GameSetup};
use crate::identity::SessionId;
use crate::transport::{Relays, TableId, TableInfo};
use hoard_rules::{Outcome, Pending, Seat};
use serde::{Deserialize, Serialize};

/// Where this device plays.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Network {
    /// The local Wi-Fi: tables listed over mDNS, joined by tap or ticket; no internet needed.
    #[default]
    Lan,
    /// No network at all: one device and bots.
    Offline,
    /// Over the internet through relays (opt-in): iroh's public ones or the players' own;
    /// LAN discovery still works.
    Relay(Relays),
    /// Loopback only (127.0.0.1), tickets only, no mDNS: several devices on one machine
    /// (tests, benchmarks). Nothing leaves the machine.
    Loopback,
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
/// answered with an [`Update::Error`].
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    SetProfile {
        name: String,
        colour: [u8; 3],
    },
    /// Open a table (advertised on the LAN unless offline); I take seat 0.
    HostTable {
        name: String,
        /// The number of seats the host chose (the table's size, as others see it listed);
        /// `None`: as many as the game seats.
        seats: Option<u8>,
    },
    /// Join by a pasted or scanned join code.
    JoinTicket {
        ticket: String,
    },
    /// Join a table from the discovered list.
    JoinTable {
        table: TableId,
    },
    /// Be a shared screen for a table, by its join code: show the public table large,
    /// never a hand; no seat needed, at any time, also mid-game.
    WatchTicket {
        ticket: String,
    },
    /// Be a shared screen for a table from the discovered list.
    WatchTable {
        table: TableId,
    },
    /// Host only.
    ChooseGame {
        setup: GameSetup,
    },
    /// Host only: how many seats the table has (`None`: as many as the game seats), within
    /// what the game seats and never fewer than are taken.
    SetSize {
        seats: Option<u8>,
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
    /// Sits down again with the people of the game just played, once it is over: its host
    /// opens a new table for the same game, with the same options and as many bots; a guest
    /// joins the host's table, waiting until the host has opened it.
    PlayAgain,
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
    /// Read a game on disk back step by step, to watch it again ([`Update::Replay`]).
    Replay {
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
pub enum Update {
    /// Every open table seen on the LAN, each time the list changes.
    Tables(Vec<TableInfo>),
    /// My hosted table's join code (text; the app draws the QR code); at a game, seated
    /// or hosting, the code a shared screen joins it by, sent when this device sits down.
    Ticket {
        ticket: String,
    },
    Lobby(LobbyView),
    /// A full snapshot of the game after every change.
    Game(GameView),
    /// The games on disk, unfinished ones first, each newest first (sent at start and
    /// whenever the list changes).
    Games(Vec<SessionSummary>),
    /// A game read back for watching again, after [`Command::Replay`].
    Replay(Replay),
    /// As a shared screen: the table it shows, after every change.
    Screen(ScreenView),
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
    /// The shared screens following the table, by name (they need no seat).
    pub screens: Vec<String>,
    /// How many seats the table has, as its host chose: told to the host only.
    pub size: Option<u8>,
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
    /// Why the step the table is at cannot go on by skipping the seat, in words (a deal
    /// needs its key: only removing it goes on), if it cannot.
    pub skip_cannot: Option<String>,
    /// Why it cannot go on by removing the seat either (a deck not yet made needs every
    /// seat that has not shuffled it), if it cannot.
    pub remove_cannot: Option<String>,
    /// Why no choice can pass now: too few seats are here to decide for the table (more
    /// than half must be, or exactly half with the first seat), if so.
    pub too_few: Option<String>,
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
    /// Every play that could be checked was legal, but not all could: seats removed before
    /// they revealed their secrets left `unchecked` what they hid (never empty; see
    /// [`crate::audit::unchecked_words`]). Never to be shown as plain "verified".
    VerifiedExcept { unchecked: Vec<UncheckedSeat> },
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
    /// Milliseconds left, when the view was made, in the reaction window my seat is to
    /// answer (at its end the device lets the card stand for me); `None` outside one. The
    /// screen counts down from here on its own clock: no new view comes for every tick.
    pub reaction_left_ms: Option<u64>,
    /// `me` is not this device's player's seat but another's: a replay drawing the table with
    /// that seat's hand, once the audit has made every hand public. The seat is named, never
    /// called "you".
    pub as_another_seat: bool,
}

/// A game on disk.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionSummary {
    pub session: SessionId,
    pub game: String,
    pub names: Vec<String>,
    /// Steps played so far.
    pub turn: u32,
    /// This device was at the game's table when it last stopped (the app was closed or
    /// killed there, mid-game or at its end, not left): the app takes the player straight
    /// back to it.
    pub interrupted: bool,
    /// How it ended, in words ("Mia won"), once it is over; `None` while it can go on.
    pub result: Option<String>,
}

/// A game read back from its log, to be watched again step by step: the table after every
/// step as everyone saw it (the public state; no hand but what was shown), and the story.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    pub session: SessionId,
    /// This device's player's seat.
    pub me: Option<Seat>,
    pub seats: Vec<SeatView>,
    /// `frames[k]`: the table after `k` steps (the first is the table as dealt).
    pub frames: Vec<ReplayFrame>,
    /// The story in words, each line with the step it tells (0 the first).
    pub log: Vec<(u32, String)>,
    /// How the audit at the end judged the game, if it got that far.
    pub audit: Option<AuditVerdict>,
    /// What nobody saw while the game was played, once the audit has made it public:
    /// `None` before that.
    pub every_hand: Option<EveryHand>,
}

/// Every hand at every step of a [`Replay`] and every play that stayed sealed: all public
/// once the audit has every seat's secret, and shown only then.
#[derive(Clone, Debug, PartialEq)]
pub struct EveryHand {
    /// `tables[k][seat]`: the table after `k` steps as `seat` held it, its hand in it;
    /// `None` for a seat the table removed before it revealed its secret.
    pub tables: Vec<Vec<Option<AnyState>>>,
    /// The plays the table saw only sealed, in words, each with the step it was made at.
    pub sealed: Vec<(u32, String)>,
    /// `decks[k]`: each deck's order after `k` steps, one line per deck, top first.
    pub decks: Vec<Vec<String>>,
}

/// The table at one point of a [`Replay`].
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayFrame {
    pub state: AnyState,
    pub pending: Pending,
    /// The public state's hash, as every device had it there.
    pub state_hash: [u8; 32],
}

impl Replay {
    /// The table after `k` steps as the game's screen draws it: nobody is asked to move, and
    /// the story goes up to that point.
    pub fn view(&self, k: usize) -> Option<GameView> {
        let frame = self.frames.get(k)?;
        let outcome = match &frame.pending {
            Pending::Over(outcome) => Some(outcome.clone()),
            _ => None,
        };
        let last = k + 1 == self.frames.len();
        Some(GameView {
            session: self.session,
            me: self.me,
            seats: self.seats.clone(),
            state: frame.state.clone(),
            pending: frame.pending.clone(),
            my_turn: false,
            log: self
                .log
                .iter()
                .filter(|(step, _)| (*step as usize) < k)
                .map(|(_, line)| line.clone())
                .collect(),
            votes: Vec::new(),
            skipped_me: false,
            audit: if last { self.audit.clone() } else { None },
            outcome,
            end: EndView::default(),
            ended_by_agreement: false,
            step: k as u32,
            state_hash: frame.state_hash,
            halted: None,
            reaction_left_ms: None,
            as_another_seat: false,
        })
    }

    /// The table after `k` steps as `seat`'s player held it, their hand in it: only once
    /// the audit has shown every hand, and not for a seat that never revealed.
    pub fn view_as(&self, k: usize, seat: Seat) -> Option<GameView> {
        let state = self
            .every_hand
            .as_ref()?
            .tables
            .get(k)?
            .get(usize::from(seat))?
            .clone()?;
        let mut view = self.view(k)?;
        view.as_another_seat = self.me != Some(seat);
        view.me = Some(seat);
        view.state = state;
        Some(view)
    }

    /// The story, each line with the step it tells; with `sealed`, what each sealed play
    /// was is told at its step too (only once the audit has shown it).
    pub fn story(&self, sealed: bool) -> Vec<(u32, String)> {
        let mut story = self.log.clone();
        if sealed && let Some(every) = &self.every_hand {
            story.extend(every.sealed.iter().cloned());
            // Stable: a step's own lines first, then what was sealed at it.
            story.sort_by_key(|(step, _)| *step);
        }
        story
    }

    /// The number of steps the game took.
    pub fn steps(&self) -> usize {
        self.frames.len().saturating_sub(1)
    }
}

/// What a shared screen shows (from its table's feed, [`crate::watch`]).
#[derive(Clone, Debug, PartialEq)]
pub enum ScreenView {
    /// Waiting for the game at a table.
    Lobby {
        table: String,
        game: String,
        seats: Vec<SeatView>,
    },
    /// The game, as everyone at the table sees it: `me` is `None`, nobody's hand is in it.
    Game(Box<GameView>),
}
