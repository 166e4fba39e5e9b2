//! One game session as this device runs it: a protocol core for every seat the device
//! holds (its player's, and on the host its bots'), each with its own store, wired to each
//! other in-process and to the other devices through frames the device sends.
//!
//! The order of work is the core's contract: every record a core asks to persist is written
//! (and what the seat chose, made durable: see [`crate::store`]) before any of its
//! transmits leaves, and a bot (or an autoplayed seat) moves only when nothing else is in
//! flight, through the same `submit` a person's move takes.

use crate::audit::{self, UncheckedSeat, Verdict};
use crate::core::{Core, CoreConfig, CoreEvent, Time};
use crate::error::{NetError, Result};
use crate::games::AnyInput;
use crate::identity::{PublicKey, Random, SecretKey, SessionId, Start};
use crate::storage::Folder;
use crate::store::SeatStore;
use crate::table_types::{
    AuditVerdict, AwayVote, AwayVoteView, EndView, EveryHand, GameView, Replay, ReplayFrame,
    SeatView,
};
use crate::wire::{VoteAction, Wire};
use hoard_rules::{Game, Pending, Seat};
use iroh::{EndpointAddr, EndpointId};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
use std::collections::{BTreeSet, VecDeque};

pub use crate::games::TableGame;

/// Who sits where, beyond what the protocol's [`Start`] says: which device holds each seat
/// (bots sit on the host's device), how to reach it, and how to draw it. The host sends
/// it to every guest when the game starts; every device keeps it with the session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionMeta {
    pub start: Start,
    /// By seat.
    pub seats: Vec<SeatMeta>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatMeta {
    /// The device that holds the seat's key.
    pub device: EndpointId,
    /// Where that device was last seen (empty on the LAN: found again over mDNS).
    pub addr: EndpointAddr,
    pub colour: [u8; 3],
    pub bot: bool,
}

impl SessionMeta {
    pub fn session(&self) -> SessionId {
        self.start.session()
    }

    /// The host: the device at seat 0.
    pub fn host(&self) -> Option<EndpointId> {
        self.seats.first().map(|s| s.device)
    }

    /// Every device at the table, once each.
    pub fn devices(&self) -> BTreeSet<EndpointId> {
        self.seats.iter().map(|s| s.device).collect()
    }

    /// The device holding the seat whose key is `key`.
    pub fn device_of(&self, key: &PublicKey) -> Option<EndpointId> {
        let seat = self.start.seat_of(key)?;
        self.seats.get(seat as usize).map(|s| s.device)
    }

    /// Whether the meta is consistent with its start (one entry per seat).
    pub fn check(&self) -> Result<()> {
        if self.seats.len() != self.start.seats.len() {
            return Err(NetError::BadStart(
                "the table's seat list does not match the game's seats".into(),
            ));
        }
        Ok(())
    }
}

/// Protocol messages from one local seat for one seat on another device, in order: one
/// frame on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    pub device: EndpointId,
    pub from: Seat,
    pub to: Seat,
    pub messages: Vec<ByteBuf>,
    /// The messages' bytes in all.
    size: usize,
}

/// The most message bytes put in one [`Outgoing`] (a single larger message goes alone);
/// well under the transport's frame limit.
pub const FRAME_BUDGET: usize = 192 * 1024;

/// Everything the device must do after the session did some work.
#[derive(Default)]
pub struct Pumped {
    /// Protocol messages for other devices, gathered by sender and receiver seat.
    pub sends: Vec<Outgoing>,
    pub notices: Vec<String>,
    pub errors: Vec<String>,
    /// The view changed: show it.
    pub changed: bool,
    /// Devices that keep sending refused messages: close their links for a while.
    pub drop_links: Vec<EndpointId>,
}

impl Pumped {
    /// Adds a message to the open frame for its sender and receiver, or starts one.
    fn send(&mut self, device: EndpointId, from: Seat, to: Seat, bytes: Vec<u8>) {
        let open = self
            .sends
            .iter_mut()
            .rev()
            .find(|o| o.device == device && o.from == from && o.to == to);
        match open {
            Some(o) if o.size + bytes.len() <= FRAME_BUDGET => {
                o.size += bytes.len();
                o.messages.push(ByteBuf::from(bytes));
            }
            _ => self.sends.push(Outgoing {
                device,
                from,
                to,
                size: bytes.len(),
                messages: vec![ByteBuf::from(bytes)],
            }),
        }
    }
}

/// A session of any game, as the device drives it.
pub trait Table: Send {
    fn meta(&self) -> &SessionMeta;
    fn session(&self) -> SessionId {
        self.meta().session()
    }
    /// Protocol messages from `device`, claimed to come from seat `from` for seat `to`.
    fn deliver(
        &mut self,
        now: Time,
        device: EndpointId,
        from: Seat,
        to: Seat,
        messages: &[ByteBuf],
    ) -> Result<()>;
    /// A link to `device` came up: every local seat swaps log heads with its seats.
    fn peer_up(&mut self, now: Time, device: EndpointId);
    fn set_connected(&mut self, device: EndpointId, up: bool);
    fn timeout(&mut self, now: Time);
    fn next_timeout(&self) -> Option<Time>;
    fn play(&mut self, now: Time, input: AnyInput) -> Result<()>;
    fn vote(&mut self, now: Time, seat: Seat, vote: AwayVote) -> Result<()>;
    /// This device's player is back after the table skipped its seat.
    fn back(&mut self, now: Time);
    /// This device's player agrees to end the game here, or keeps playing.
    fn end_game(&mut self, now: Time, agree: bool) -> Result<()>;
    fn set_autoplay(&mut self, on: bool);
    /// Persists, routes and lets bots move until nothing is left in flight.
    fn pump(&mut self, now: Time) -> Pumped;
    /// The snapshot for the screen; `None` before every seat has accepted.
    fn view(&mut self, now: Time) -> Option<GameView>;
    /// The audit is done (or the game stopped on a fault): nothing more will happen.
    fn finished(&self) -> bool;
    /// How the game ended, in words ("Mia won"), once it is [`Table::finished`].
    fn ending(&self) -> Option<String>;
    /// Completed steps.
    fn step(&self) -> u32;
    /// Some seat is away: the view's timers need a refresh every second.
    fn anyone_away(&self) -> bool;
    /// The game read back from its log, step by step, as everyone saw it.
    fn replay(&self) -> Replay;
    /// The completed steps from `from` on (at most `most`), postcard-encoded, as every
    /// engine took them: what a shared screen rebuilds the public table from.
    fn public_steps(&self, from: u32, most: usize) -> Vec<ByteBuf>;
    /// Where each seat this device holds stands, in a line each: for a simulator's report
    /// of a table that stuck.
    fn diagnosis(&self) -> String;
    /// Every step at which this device's log went on without a seat, and the seat.
    fn skips(&self) -> Vec<(u32, Seat)>;
}

/// One seat this device holds.
struct Local<G: Game> {
    seat: Seat,
    key: PublicKey,
    core: Core<G>,
    store: SeatStore,
    /// Played by the bot: a bot seat, or the player's own seat on autoplay.
    bot: bool,
    rng: ChaCha8Rng,
    /// The store failed: until it has written everything again, this seat sends nothing
    /// (it could not keep what it sent) and moves no more.
    broken: Option<Broken>,
}

/// A seat whose store failed (a full disk, most often), waiting for it to write again.
struct Broken {
    /// When to try the disk again, if nothing else wakes the session first.
    retry_at: Time,
    /// What the core sent meanwhile, in order, to go out once its records are on disk:
    /// (receiver, bytes, whether this seat made the message).
    held: VecDeque<(PublicKey, Vec<u8>, bool)>,
    held_bytes: usize,
}

/// How long a seat whose store failed waits before trying the disk again (ms); the same
/// for the ending's words.
const RETRY_STORE_AFTER: u64 = 1_000;
/// How often the step a game is at is written for the list of games while it goes on, ms.
const PROGRESS_EVERY: u64 = 2_000;

/// The most bytes held for a seat whose store failed before some are dropped: only messages
/// the table can send again (the other seats', which their makers and every holder send
/// again to whoever lacks them, and hellos), never the seat's own.
const HELD_MAX: usize = 1 << 20;

impl Broken {
    /// Holds a transmit. Over [`HELD_MAX`], drops the oldest messages that are not this
    /// seat's own, down to three quarters of it (so not again at every message).
    fn hold(&mut self, seat: Seat, to: PublicKey, bytes: Vec<u8>) {
        let own = match Wire::decode(&bytes) {
            Ok(Wire::Signed(s)) => s.seat == seat,
            Ok(Wire::Link(l)) => l.seat == seat,
            Ok(Wire::Open(o)) => o.seat == seat,
            Ok(Wire::Hello(_) | Wire::Holding(_)) | Err(_) => false,
        };
        self.held_bytes += bytes.len();
        self.held.push_back((to, bytes, own));
        if self.held_bytes > HELD_MAX {
            let mut over = self.held_bytes - HELD_MAX / 4 * 3;
            self.held.retain(|(_, bytes, own)| {
                if over == 0 || *own {
                    return true;
                }
                over = over.saturating_sub(bytes.len());
                false
            });
            self.held_bytes = self.held.iter().map(|(_, b, _)| b.len()).sum();
        }
    }
}

/// How the game ended, in words, in the session's [`DONE_FILE`] for the list of games: owed
/// from the moment the game is over until a write of them succeeds (issue 27: written once,
/// on a full disk, they stayed empty for good).
#[derive(Default)]
struct Ending {
    /// The words this session last wrote; a session opened again writes them again.
    saved: Option<String>,
    /// A write failed: when to try again, if nothing else wakes the session first.
    retry_at: Option<Time>,
    /// The player was told the words could not be saved, and not yet that they were.
    told: bool,
}

pub struct Session<G: Game> {
    meta: SessionMeta,
    dir: Folder,
    me: PublicKey,
    locals: Vec<Local<G>>,
    /// Index in `locals` of the player's own seat.
    mine: usize,
    connected: BTreeSet<EndpointId>,
    /// Away seats the player chose to wait for (a choice to go on without one is the
    /// core's, which ends it when the seat's player is back).
    waiting: BTreeSet<Seat>,
    /// The step at which the player chose to keep playing rather than end the game.
    declined: Option<u32>,
    autoplay: bool,
    log: Vec<String>,
    narrated: usize,
    /// The step the progress file last said, and when it was written.
    progress: Option<(u32, Time)>,
    ending: Ending,
    /// The audit's verdict as the screens show it, once there is one: naming what it left
    /// unchecked replays the log, so it is worked out once.
    audit: Option<AuditVerdict>,
}

/// Where a session's files live in the device's data folder.
pub fn session_dir(data: &Folder, session: &SessionId) -> Folder {
    data.join("sessions").join(&session.to_hex())
}

/// The folder of one seat's store in a session's folder.
fn seat_dir(dir: &Folder, seat: Seat) -> Folder {
    dir.join(&format!("seat-{seat}"))
}

impl<G: TableGame> Session<G> {
    /// Takes this device's seats in a new session: one core per local seat, each signing
    /// its accept. `bots` holds the keys of the bots this device runs; `random` gives each
    /// seat's fresh randomness (its core's, and its bot's choices).
    pub fn create(
        dir: Folder,
        meta: SessionMeta,
        key: &SecretKey,
        bots: &[SecretKey],
        autoplay: bool,
        now: Time,
        random: &mut dyn Random,
    ) -> Result<Session<G>> {
        let cfg = G::core_config();
        Session::open_with(dir, meta, key, bots, autoplay, now, false, cfg, random)
    }

    /// Rebuilds this device's seats from their stores after a restart.
    pub fn resume(
        dir: Folder,
        meta: SessionMeta,
        key: &SecretKey,
        bots: &[SecretKey],
        autoplay: bool,
        now: Time,
        random: &mut dyn Random,
    ) -> Result<Session<G>> {
        let cfg = G::core_config();
        Session::open_with(dir, meta, key, bots, autoplay, now, true, cfg, random)
    }
}

impl<G: Game> Session<G> {
    /// Opens this device's seats with protocol settings `cfg` (every device at the table
    /// must use the same): new cores if `resume` is false, else rebuilt from their stores.
    #[allow(clippy::too_many_arguments)]
    pub fn open_with(
        dir: Folder,
        meta: SessionMeta,
        key: &SecretKey,
        bots: &[SecretKey],
        autoplay: bool,
        now: Time,
        resume: bool,
        cfg: CoreConfig<G>,
        random: &mut dyn Random,
    ) -> Result<Session<G>> {
        meta.check()?;
        let me = key.public();
        let my_seat = meta.start.seat_of(&me).ok_or(NetError::NotSeated)?;
        let mut locals = Vec::new();
        for (i, spec) in meta.start.seats.iter().enumerate() {
            let seat = i as Seat;
            let seat_key = if spec.key == me {
                key.clone()
            } else if let Some(bot) = bots.iter().find(|b| b.public() == spec.key) {
                bot.clone()
            } else {
                continue;
            };
            let seat_dir = seat_dir(&dir, seat);
            let bot = meta.seats.get(i).is_some_and(|s| s.bot) || (seat == my_seat && autoplay);
            // A bot answers as fast whatever it holds: its answers wait the whole window.
            let mut cfg = cfg.clone();
            cfg.reaction.hold_to_end |= bot;
            let entropy = random.bytes32()?;
            let (store, core) = if resume {
                let (store, saved) = SeatStore::open(&seat_dir, &meta.start)?;
                let core = Core::resume(saved, seat_key, entropy, now, cfg.clone())?;
                (store, core)
            } else {
                let store = SeatStore::create(&seat_dir, &meta.start)?;
                let core = Core::new(meta.start.clone(), seat_key, entropy, now, cfg.clone())?;
                (store, core)
            };
            locals.push(Local {
                seat,
                key: spec.key,
                core,
                store,
                bot,
                rng: ChaCha8Rng::from_seed(random.bytes32()?),
                broken: None,
            });
        }
        let mine = locals
            .iter()
            .position(|l| l.seat == my_seat)
            .ok_or(NetError::NotSeated)?;
        let mut session = Session {
            meta,
            dir,
            me,
            locals,
            mine,
            connected: BTreeSet::new(),
            waiting: BTreeSet::new(),
            declined: None,
            autoplay,
            log: Vec::new(),
            narrated: 0,
            progress: None,
            ending: Ending::default(),
            audit: None,
        };
        // Seats on this device are always connected to each other.
        let keys: Vec<PublicKey> = session.locals.iter().map(|l| l.key).collect();
        for local in &mut session.locals {
            for key in &keys {
                if *key != local.key {
                    local.core.peer_connected(now, *key);
                }
            }
        }
        Ok(session)
    }

    fn local_index(&self, key: &PublicKey) -> Option<usize> {
        self.locals.iter().position(|l| &l.key == key)
    }

    fn name(&self, seat: Seat) -> String {
        self.meta.start.name(seat)
    }

    /// Narrates the primary core's events not yet in the log.
    fn refresh_log(&mut self) {
        let core = &self.locals[self.mine].core;
        let events = core.events_log();
        if events.len() < self.narrated {
            // The table went back to an earlier step: tell the story again.
            self.log.clear();
            self.narrated = 0;
        }
        let start = &self.meta.start;
        let name = |seat: Seat| start.name(seat);
        // An event that tells nothing narrates to no text: the story leaves it out.
        for (_, event) in &events[self.narrated..] {
            let line = G::narrate(event, &name);
            if !line.is_empty() {
                self.log.push(line);
            }
        }
        self.narrated = events.len();
    }

    fn note(&mut self, event: CoreEvent<G::Event>, out: &mut Pumped) {
        match event {
            CoreEvent::Began => out.notices.push("Everyone is seated: the game begins".into()),
            CoreEvent::Away { seat } => out.notices.push(format!("{} is away", self.name(seat))),
            CoreEvent::Back { seat } => out.notices.push(format!("{} is back", self.name(seat))),
            CoreEvent::Skipped { step, seat } => {
                self.log
                    .push(format!("The table went on without {} (step {step}).", self.name(seat)));
            }
            CoreEvent::Removed { step, seat } => {
                self.log
                    .push(format!("The table removed {} from the game (step {step}).", self.name(seat)));
            }
            // A person's proposal; bots only ever agree to one.
            CoreEvent::EndProposed { seat, .. }
                if seat != self.locals[self.mine].seat
                    && self.meta.seats.get(seat as usize).is_some_and(|s| !s.bot) =>
            {
                out.notices.push(format!("{} wants to end the game here", self.name(seat)))
            }
            CoreEvent::Ended { step } => {
                self.log.push(format!("Everyone agreed to end the game here (step {step})."));
            }
            CoreEvent::Stopped { step, what } => {
                let line = format!("The game stopped at step {step}: {what}.");
                self.log.push(line.clone());
                out.errors.push(line);
            }
            CoreEvent::DeckBroken { step, what } => {
                let line = format!("The game stopped at step {step}: {what}. The audit names who.");
                self.log.push(line.clone());
                out.errors.push(line);
            }
            CoreEvent::Diverged(d) => out.errors.push(format!(
                "{}'s table differs from ours at step {} (theirs {}, ours {}): the game cannot be trusted",
                self.name(d.seat),
                d.step,
                hex(&d.theirs),
                hex(&d.ours)
            )),
            CoreEvent::Halted(fault) => out.errors.push(format!("The game stopped: {}", fault.what)),
            CoreEvent::Audited(Verdict::Verified { .. }) => match self.audit_view() {
                Some(AuditVerdict::VerifiedExcept { unchecked }) => out.notices.push(format!(
                    "Audit: verified, except {}",
                    audit::unchecked_words(&unchecked, &|seat| self.name(seat))
                )),
                _ => out.notices.push("Audit: every hidden play checked and verified".into()),
            },
            CoreEvent::Audited(Verdict::Fault(fault)) => out.errors.push(format!("Audit: {}", fault.what)),
            CoreEvent::Stepped { .. }
            | CoreEvent::Committed { .. }
            | CoreEvent::Voted { .. }
            | CoreEvent::Rewound { .. }
            | CoreEvent::EndProposed { .. }
            | CoreEvent::DropLink { .. } => {}
        }
    }

    /// Drains one local core: persist, then route its messages, then its events. A seat
    /// whose store failed holds its messages until a flush succeeds, then sends them first.
    fn drain(
        &mut self,
        i: usize,
        now: Time,
        local_mail: &mut VecDeque<(usize, PublicKey, Vec<u8>)>,
        out: &mut Pumped,
    ) {
        let local = &mut self.locals[i];
        let mut result = Ok(());
        while let Some(record) = local.core.poll_persist() {
            // One record that cannot be framed does not lose those after it.
            if let Err(e) = local.store.persist(&record) {
                result = result.and(Err(e));
            }
        }
        // Everything this core asked to keep is on disk before anything it sent leaves
        // (while the store is broken, this is the retry).
        if result.is_ok() {
            result = local.store.flush();
        }
        let name = self.meta.start.name(local.seat);
        let mut transmits = Vec::new();
        match (result, &mut local.broken) {
            (Ok(()), None) => {}
            (Ok(()), broken @ Some(_)) => {
                let held = broken.take().map(|b| b.held).unwrap_or_default();
                transmits.extend(held.into_iter().map(|(to, bytes, _)| (to, bytes)));
                out.notices
                    .push(format!("The game is saved again; {name} plays on"));
            }
            (Err(_), Some(broken)) => broken.retry_at = now.plus(RETRY_STORE_AFTER),
            (Err(e), broken @ None) => {
                // The disk's own words: the sentence says the rest.
                let why = match e {
                    NetError::Io(e) => e.to_string(),
                    e => e.to_string(),
                };
                *broken = Some(Broken {
                    retry_at: now.plus(RETRY_STORE_AFTER),
                    held: VecDeque::new(),
                    held_bytes: 0,
                });
                out.errors.push(format!(
                    "The game could not be saved ({why}); {name} waits until it can be"
                ));
            }
        }
        let (from, from_seat) = (local.key, local.seat);
        while let Some(t) = local.core.poll_transmit() {
            match &mut local.broken {
                Some(broken) => broken.hold(from_seat, t.to, t.bytes),
                None => transmits.push((t.to, t.bytes)),
            }
        }
        let mut events = Vec::new();
        while let Some(e) = local.core.poll_event() {
            events.push(e);
        }
        for (to, bytes) in transmits {
            if let Some(j) = self.local_index(&to) {
                local_mail.push_back((j, from, bytes));
            } else if let Some(to) = self.meta.start.seat_of(&to)
                && let Some(device) = self.meta.seats.get(to as usize).map(|s| s.device)
            {
                out.send(device, from_seat, to, bytes);
            }
        }
        if !events.is_empty() {
            out.changed = true;
        }
        for e in &events {
            if let CoreEvent::DropLink { seat } = e
                && let Some(device) = self.meta.seats.get(*seat as usize).map(|s| s.device)
                && device != self.me
                && !out.drop_links.contains(&device)
            {
                out.drop_links.push(device);
            }
        }
        if i == self.mine {
            for e in events {
                self.note(e, out);
            }
        }
    }

    fn bot_moves(&mut self, now: Time) -> bool {
        let mut moved = false;
        // A bot agrees to end the game as soon as a person at the table asks: bots never
        // hold a table of people to a game they want to stop. (Before it moves: the step
        // may then end unplayed.)
        for local in &mut self.locals {
            let bot = self
                .meta
                .seats
                .get(local.seat as usize)
                .is_some_and(|s| s.bot);
            if !bot || local.broken.is_some() {
                continue;
            }
            let proposals = local.core.end_proposals();
            let asked = proposals
                .iter()
                .any(|s| self.meta.seats.get(*s as usize).is_some_and(|m| !m.bot));
            if asked && !proposals.contains(&local.seat) {
                match local.core.agree_to_end(now) {
                    Ok(()) => moved = true,
                    Err(e) => {
                        tracing::warn!("the bot at seat {} could not agree to end: {e}", local.seat)
                    }
                }
            }
        }
        if moved {
            return true;
        }
        for local in &mut self.locals {
            if !local.bot || local.broken.is_some() || !local.core.my_move() {
                continue;
            }
            let (Some(public), private) = (local.core.public(), local.core.private()) else {
                continue;
            };
            let Some(input) = G::bot_input(public, private, local.seat, &mut local.rng) else {
                continue;
            };
            match local.core.submit(now, input) {
                Ok(()) => moved = true,
                Err(e) => tracing::warn!("the bot at seat {} could not move: {e}", local.seat),
            }
        }
        moved
    }

    /// Writes the step the game is at, when it moved on, for the list of games: best
    /// effort (a failed write is tried again at the next pump), and at most once every
    /// [`PROGRESS_EVERY`] ms while the game goes on. The file is written whole and made
    /// durable (two fsyncs and a rename) before the step's messages leave `pump`, so at
    /// every step it held up each one; the list of games shows a step at most that much
    /// behind if the app is killed.
    fn write_progress(&mut self, now: Time) {
        let step = self.step();
        let due = match self.progress {
            None => true,
            Some((said, _)) if said == step => false,
            Some((_, at)) => now >= at.plus(PROGRESS_EVERY) || self.finished(),
        };
        if due && self.dir.write("progress", &step.to_le_bytes()).is_ok() {
            self.progress = Some((step, now));
        }
    }

    /// Writes how the game ended, once it is over and until a write succeeds; never before
    /// the player's seat has its records on disk, all it heard included, or a crash could
    /// leave a game listed as over that resumes unfinished, or whose replay cannot audit
    /// it. On a failed write an empty file marks the game over, for the list of games to
    /// work out the rest from its log (see `crate::device::saved_games`).
    fn save_ending(&mut self, now: Time, out: &mut Pumped) {
        // The seat's own retry wakes the session while its store is broken.
        self.ending.retry_at = None;
        if !self.finished() || self.locals[self.mine].broken.is_some() {
            return;
        }
        let words = self.result_words();
        if self.ending.saved.as_ref() == Some(&words) {
            return;
        }
        // What the seat heard goes to the disk first: a game listed as over is never
        // opened at the table again, so its replay's audit has only the disk to go on.
        let saved = self.locals[self.mine]
            .store
            .flush_all_durable()
            .map_err(|e| e.to_string())
            .and_then(|()| {
                self.dir
                    .write(DONE_FILE, words.as_bytes())
                    .map_err(|e| e.to_string())
            });
        match saved {
            Ok(()) => {
                if std::mem::take(&mut self.ending.told) {
                    out.notices
                        .push(format!("How the game ended is saved: {words}"));
                }
                self.ending.saved = Some(words);
            }
            Err(e) => {
                if !self.dir.exists(DONE_FILE) {
                    // An empty file takes no room, only a name.
                    let _ = self.dir.write(DONE_FILE, b"");
                }
                self.ending.retry_at = Some(now.plus(RETRY_STORE_AFTER));
                if !std::mem::replace(&mut self.ending.told, true) {
                    out.errors.push(format!(
                        "How the game ended could not be saved ({e}); it is tried again until it can be"
                    ));
                }
            }
        }
    }

    /// The audit's verdict as the screens show it, once there is one.
    fn audit_view(&mut self) -> Option<AuditVerdict> {
        if self.audit.is_none() {
            self.audit = audit_of(&self.locals[self.mine].core);
        }
        self.audit.clone()
    }

    /// How the game ended, in words, for the list of games.
    fn result_words(&self) -> String {
        let core = &self.locals[self.mine].core;
        if let Some(fault) = core.halted() {
            return format!("Stopped: {}", fault.what);
        }
        if core.ended_by_agreement().is_some() {
            return "Ended by agreement".into();
        }
        let winners: Vec<String> = match core.pending() {
            Some(Pending::Over(outcome)) => outcome
                .winners
                .iter()
                .map(|seat| self.meta.start.name(*seat))
                .collect(),
            _ => Vec::new(),
        };
        match winners.split_last() {
            None => "Over".into(),
            Some((only, [])) => format!("{only} won"),
            Some((last, rest)) => format!("{} and {last} won", rest.join(", ")),
        }
    }
}

/// The audit's verdict as the screens show it: "verified" only when nothing hidden was left
/// unchecked; otherwise what each seat that never revealed hid, read from the log.
fn audit_of<G: Game>(core: &Core<G>) -> Option<AuditVerdict> {
    Some(match core.verdict()? {
        Verdict::Verified { unchecked } if unchecked.is_empty() => AuditVerdict::Verified,
        Verdict::Verified { unchecked } => {
            let history = core.public_history();
            let unchecked: Vec<UncheckedSeat> = unchecked
                .iter()
                .map(|&seat| UncheckedSeat {
                    seat,
                    parts: audit::unchecked_parts::<G>(
                        core.config(),
                        core.records(),
                        &history,
                        seat,
                    ),
                })
                .filter(|u| !u.parts.is_empty())
                .collect();
            if unchecked.is_empty() {
                AuditVerdict::Verified
            } else {
                AuditVerdict::VerifiedExcept { unchecked }
            }
        }
        Verdict::Fault(f) => AuditVerdict::Fault {
            seat: f.seat,
            step: f.step,
            what: f.what.clone(),
        },
    })
}

/// Written in a session's folder once its game is over: how it ended, in words. Empty where
/// the disk had no room for the words: the game is over, and its log says how.
pub const DONE_FILE: &str = "done";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

impl<G: Game> Session<G> {
    pub fn meta(&self) -> &SessionMeta {
        &self.meta
    }

    /// The core of this device's own seat.
    pub fn core(&self) -> &Core<G> {
        &self.locals[self.mine].core
    }

    /// This device's player's move.
    pub fn submit(&mut self, now: Time, input: G::Input) -> Result<()> {
        let local = &mut self.locals[self.mine];
        if local.broken.is_some() {
            // Try the disk now: the player need not wait for the next retry. What was held
            // goes out at the next pump, before this move.
            local.store.flush()?;
        }
        local.core.submit(now, input)
    }

    pub fn deliver(
        &mut self,
        now: Time,
        device: EndpointId,
        from: Seat,
        to: Seat,
        messages: &[ByteBuf],
    ) -> Result<()> {
        // A device may speak only for the seats it holds: a stranger (or a seated device
        // posing as another seat) is refused here, before any core sees the bytes.
        let key = match (
            self.meta.seats.get(from as usize),
            self.meta.start.seats.get(from as usize),
        ) {
            (Some(seat), Some(start)) if seat.device == device => start.key,
            _ => return Err(NetError::UnseatedPeer),
        };
        let i = self
            .locals
            .iter()
            .position(|l| l.seat == to)
            .ok_or(NetError::NotSeated)?;
        self.locals[i].core.handle_messages(now, key, messages)
    }

    /// The keys of the seats `device` holds.
    fn keys_on(&self, device: EndpointId) -> Vec<PublicKey> {
        self.meta
            .start
            .seats
            .iter()
            .zip(&self.meta.seats)
            .filter(|(_, m)| m.device == device)
            .map(|(s, _)| s.key)
            .collect()
    }

    pub fn peer_up(&mut self, now: Time, device: EndpointId) {
        self.connected.insert(device);
        let keys = self.keys_on(device);
        for local in &mut self.locals {
            for key in &keys {
                local.core.peer_connected(now, *key);
            }
        }
    }

    pub fn set_connected(&mut self, device: EndpointId, up: bool) {
        if up {
            self.connected.insert(device);
            return;
        }
        self.connected.remove(&device);
        let keys = self.keys_on(device);
        for local in &mut self.locals {
            for key in &keys {
                local.core.peer_disconnected(*key);
            }
        }
    }

    pub fn timeout(&mut self, now: Time) {
        for local in &mut self.locals {
            if local.core.poll_timeout().is_some_and(|t| t <= now) {
                local.core.handle_timeout(now);
            }
        }
    }

    pub fn next_timeout(&self) -> Option<Time> {
        self.locals
            .iter()
            .filter_map(|l| l.core.poll_timeout())
            .chain(
                self.locals
                    .iter()
                    .filter_map(|l| Some(l.broken.as_ref()?.retry_at)),
            )
            .chain(self.ending.retry_at)
            .min()
    }

    /// This device's player's choice about an away seat. Skipping or removing stands until
    /// the seat's player moves again (a vote at every step that waits on the seat);
    /// waiting ends it.
    pub fn vote(&mut self, now: Time, seat: Seat, vote: AwayVote) -> Result<()> {
        let mine = self.mine;
        let choose = |core: &mut Core<G>| match vote {
            AwayVote::Wait => {
                core.wait_for(seat);
                Ok(())
            }
            AwayVote::Skip => core.go_on_without(now, seat, VoteAction::Skip),
            AwayVote::Remove => core.go_on_without(now, seat, VoteAction::Remove),
        };
        choose(&mut self.locals[mine].core)?;
        if vote == AwayVote::Wait {
            self.waiting.insert(seat);
        } else {
            self.waiting.remove(&seat);
        }
        // The bots this device runs side with their host's player: a table of one person
        // and bots could otherwise never agree to go on.
        for (i, local) in self.locals.iter_mut().enumerate() {
            if i != mine && local.bot && local.seat != seat {
                let _ = choose(&mut local.core);
            }
        }
        Ok(())
    }

    /// This device's player is back after the table went on without its seat: the seat says
    /// so, which ends the others' standing choices to skip it.
    pub fn back(&mut self, now: Time) {
        let mine = self.mine;
        self.locals[mine].core.back(now);
    }

    /// This device's player agrees to end the game at the current step (the bots it runs
    /// then agree too, at their next chance), or chooses to keep playing: nothing is
    /// signed, the offer is only no longer shown at this step.
    pub fn end_game(&mut self, now: Time, agree: bool) -> Result<()> {
        let core = &mut self.locals[self.mine].core;
        if agree {
            self.declined = None;
            core.agree_to_end(now)
        } else {
            self.declined = Some(core.step());
            Ok(())
        }
    }

    pub fn set_autoplay(&mut self, on: bool) {
        self.autoplay = on;
        let mine = self.mine;
        let bot = self
            .meta
            .seats
            .get(self.locals[mine].seat as usize)
            .is_some_and(|s| s.bot);
        self.locals[mine].bot = on || bot;
    }

    pub fn pump(&mut self, now: Time) -> Pumped {
        let mut out = Pumped::default();
        let mut mail = VecDeque::new();
        loop {
            for i in 0..self.locals.len() {
                self.drain(i, now, &mut mail, &mut out);
            }
            if mail.is_empty() {
                if self.bot_moves(now) {
                    continue;
                }
                break;
            }
            while let Some((j, from, bytes)) = mail.pop_front() {
                let local = &mut self.locals[j];
                if let Err(e) = local.core.handle_message(now, from, &bytes) {
                    tracing::debug!(
                        "seat {} refused a message from this device: {e}",
                        local.seat
                    );
                }
            }
        }
        self.write_progress(now);
        self.save_ending(now, &mut out);
        out
    }

    pub fn finished(&self) -> bool {
        let core = &self.locals[self.mine].core;
        core.verdict().is_some() || core.halted().is_some()
    }

    pub fn step(&self) -> u32 {
        self.locals[self.mine].core.step()
    }

    pub fn anyone_away(&self) -> bool {
        let core = &self.locals[self.mine].core;
        (0..self.meta.start.seats.len()).any(|s| core.seat_status(s as Seat).away)
    }
}

impl<G: TableGame> Table for Session<G> {
    fn meta(&self) -> &SessionMeta {
        Session::meta(self)
    }
    fn deliver(
        &mut self,
        now: Time,
        device: EndpointId,
        from: Seat,
        to: Seat,
        messages: &[ByteBuf],
    ) -> Result<()> {
        Session::deliver(self, now, device, from, to, messages)
    }
    fn peer_up(&mut self, now: Time, device: EndpointId) {
        Session::peer_up(self, now, device)
    }
    fn set_connected(&mut self, device: EndpointId, up: bool) {
        Session::set_connected(self, device, up)
    }
    fn timeout(&mut self, now: Time) {
        Session::timeout(self, now)
    }
    fn next_timeout(&self) -> Option<Time> {
        Session::next_timeout(self)
    }
    fn play(&mut self, now: Time, input: AnyInput) -> Result<()> {
        let input = G::from_any(input)
            .ok_or_else(|| NetError::NotYourMove(format!("this table plays {}", G::NAME)))?;
        self.submit(now, input)
    }
    fn vote(&mut self, now: Time, seat: Seat, vote: AwayVote) -> Result<()> {
        Session::vote(self, now, seat, vote)
    }
    fn back(&mut self, now: Time) {
        Session::back(self, now)
    }

    fn end_game(&mut self, now: Time, agree: bool) -> Result<()> {
        Session::end_game(self, now, agree)
    }
    fn set_autoplay(&mut self, on: bool) {
        Session::set_autoplay(self, on)
    }
    fn pump(&mut self, now: Time) -> Pumped {
        Session::pump(self, now)
    }
    fn finished(&self) -> bool {
        Session::finished(self)
    }
    fn ending(&self) -> Option<String> {
        self.finished().then(|| self.result_words())
    }

    fn diagnosis(&self) -> String {
        self.locals
            .iter()
            .map(|l| format!("seat {}: {}\n", l.seat, l.core.describe()))
            .collect()
    }

    fn skips(&self) -> Vec<(u32, Seat)> {
        self.locals[self.mine].core.skips()
    }

    fn public_steps(&self, from: u32, most: usize) -> Vec<ByteBuf> {
        self.locals[self.mine]
            .core
            .public_steps(from, most)
            .iter()
            .map(|step| ByteBuf::from(postcard::to_stdvec(step).unwrap_or_default()))
            .collect()
    }

    fn replay(&self) -> Replay {
        let core = &self.locals[self.mine].core;
        let start = &self.meta.start;
        let seats = self
            .meta
            .seats
            .iter()
            .zip(&start.seats)
            .map(|(meta, spec)| SeatView {
                name: spec.name.clone(),
                colour: meta.colour,
                bot: meta.bot,
                connected: true,
                away_for_secs: None,
                committed: false,
            })
            .collect();
        let history = core.public_history();
        let frames = history
            .iter()
            .map(|public| ReplayFrame {
                state: G::any_state(public, None),
                pending: G::pending(public),
                state_hash: hoard_rules::public_hash(public),
            })
            .collect();
        let name = |seat: Seat| start.name(seat);
        let log = core
            .events_log()
            .iter()
            .map(|(step, event)| (*step, G::narrate(event, &name)))
            .filter(|(_, line)| !line.is_empty())
            .collect();
        let every_hand = core.shown().and_then(|shown| {
            // The audit's replay and the public history count the same steps; where they
            // do not, nothing is shown rather than a hand beside the wrong table.
            if shown.hands.len() != history.len() {
                return None;
            }
            let tables = history
                .iter()
                .zip(&shown.hands)
                .map(|(public, hands)| {
                    hands
                        .iter()
                        .map(|hand| hand.as_ref().map(|h| G::any_state(public, Some(h))))
                        .collect()
                })
                .collect();
            let sealed = shown
                .sealed
                .iter()
                .map(|(step, seat, input)| (*step, G::narrate_sealed(*seat, input, &name)))
                .filter(|(_, line)| !line.is_empty())
                .collect();
            let face = |card| shown.faces.get(&card).copied();
            let decks = history
                .iter()
                .zip(&shown.hands)
                .map(|(public, hands)| {
                    let privates: Vec<Option<&G::Private>> =
                        hands.iter().map(Option::as_ref).collect();
                    G::deck_order(public, &privates, &face, &name)
                })
                .collect();
            Some(EveryHand {
                tables,
                sealed,
                decks,
            })
        });
        Replay {
            session: core.session(),
            me: Some(core.my_seat()),
            seats,
            frames,
            log,
            audit: self.audit.clone().or_else(|| audit_of(core)),
            every_hand,
        }
    }
    fn step(&self) -> u32 {
        Session::step(self)
    }
    fn anyone_away(&self) -> bool {
        Session::anyone_away(self)
    }

    fn view(&mut self, now: Time) -> Option<GameView> {
        self.refresh_log();
        let audit = self.audit_view();
        let core = &self.locals[self.mine].core;
        let public = core.public()?;
        let pending = core.pending()?;
        let secs = |since: Option<Time>| {
            since.map(|s| (now.as_millis().saturating_sub(s.as_millis()) / 1000) as u32)
        };
        let mut seats = Vec::new();
        let mut votes = Vec::new();
        for (i, spec) in self.meta.start.seats.iter().enumerate() {
            let seat = i as Seat;
            let status = core.seat_status(seat);
            let meta = &self.meta.seats[i];
            let away_for = if status.away {
                secs(status.owed_since)
            } else {
                None
            };
            seats.push(SeatView {
                name: spec.name.clone(),
                colour: meta.colour,
                bot: meta.bot,
                connected: meta.device == self.me || self.connected.contains(&meta.device),
                away_for_secs: away_for,
                committed: status.committed,
            });
            if status.away && !status.removed && seat != core.my_seat() {
                votes.push(AwayVoteView {
                    seat,
                    away_for_secs: away_for.unwrap_or(0),
                    // A choice to go on without the seat ends by itself when it is back.
                    my_vote: match core.going_on_without(seat) {
                        Some(VoteAction::Remove) => Some(AwayVote::Remove),
                        Some(_) => Some(AwayVote::Skip),
                        None => self.waiting.contains(&seat).then_some(AwayVote::Wait),
                    },
                    skip_cannot: status
                        .owed_since
                        .and_then(|_| core.cannot_go_on_without(seat, VoteAction::Skip)),
                    remove_cannot: status
                        .owed_since
                        .and_then(|_| core.cannot_go_on_without(seat, VoteAction::Remove)),
                    too_few: core.too_few_to_decide(),
                });
            }
        }
        let outcome = match &pending {
            Pending::Over(outcome) => Some(outcome.clone()),
            _ => None,
        };
        let halted = core.halted().map(|f| f.what.clone()).or_else(|| {
            core.divergences().first().map(|d| {
                format!(
                    "{}'s table differs from ours at step {}",
                    self.meta.start.name(d.seat),
                    d.step
                )
            })
        });
        let my_turn = core.my_move() && !self.autoplay;
        let agreed = core.end_proposals();
        let end = EndView {
            mine: agreed.contains(&core.my_seat()),
            declined: self.declined == Some(core.step()),
            agreed,
        };
        let view = GameView {
            session: core.session(),
            me: Some(core.my_seat()),
            seats,
            state: G::any_state(public, core.private()),
            pending,
            my_turn,
            log: self.log.clone(),
            votes,
            skipped_me: core.sat_out().is_some(),
            audit,
            outcome,
            end,
            ended_by_agreement: core.ended_by_agreement().is_some(),
            step: core.step(),
            state_hash: core.state_hash(),
            halted,
            reaction_left_ms: core.reaction_left(now),
            as_another_seat: false,
        };
        Some(view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::{SeatSpec, SystemRandom};
    use crate::storage::{DiskStorage, MemStorage};
    use hoard_rules::greedquest::{Config, GreedQuest};
    use std::sync::Arc;

    /// A session's folder in a device's storage held in memory.
    fn in_memory() -> Folder {
        let data = Folder::root(Arc::new(MemStorage::new()));
        data.join("sessions").join("game")
    }

    fn key(b: u8) -> SecretKey {
        SecretKey::from_bytes(&[b; 32])
    }

    fn meta(a: &SecretKey, b: &SecretKey) -> SessionMeta {
        let seats = vec![
            SeatSpec {
                key: a.public(),
                name: "Ann".into(),
            },
            SeatSpec {
                key: b.public(),
                name: "Ben".into(),
            },
        ];
        let start = Start::new::<GreedQuest>(&Config::new(2), seats, [5; 32]).expect("start");
        let seat = |k: &SecretKey| SeatMeta {
            device: k.public(),
            addr: EndpointAddr::new(k.public()),
            colour: [1, 2, 3],
            bot: false,
        };
        SessionMeta {
            seats: vec![seat(a), seat(b)],
            start,
        }
    }

    #[test]
    fn a_device_speaks_only_for_the_seats_it_holds() {
        let (ann, ben, stranger) = (key(1), key(2), key(3));
        let mut table = Session::<GreedQuest>::create(
            in_memory(),
            meta(&ann, &ben),
            &ann,
            &[],
            false,
            Time(0),
            &mut SystemRandom,
        )
        .expect("session");
        let _ = table.pump(Time(0));
        let bytes = &[ByteBuf::from(b"anything at all".to_vec())];
        // Seats: Ann 0, Ben 1. A stranger's device, whatever seat it claims to speak for
        // (one that does not exist too).
        for from in [0, 1, 2, 200] {
            let err = table
                .deliver(Time(1), stranger.public(), from, 0, bytes)
                .expect_err("a stranger is refused");
            assert!(matches!(err, NetError::UnseatedPeer), "{err}");
        }
        // A seated device posing as another seat.
        let err = table
            .deliver(Time(1), ben.public(), 0, 0, bytes)
            .expect_err("posing as Ann");
        assert!(matches!(err, NetError::UnseatedPeer), "{err}");
        // Bytes for a seat this device does not hold.
        let err = table
            .deliver(Time(1), ben.public(), 1, 1, bytes)
            .expect_err("not Ann");
        assert!(matches!(err, NetError::NotSeated), "{err}");
        // Ben's own bytes reach Ann's core (which then judges them: these are garbage).
        let err = table
            .deliver(Time(1), ben.public(), 1, 0, bytes)
            .expect_err("garbage");
        assert!(matches!(err, NetError::Malformed(_)), "{err}");
        assert_eq!(table.step(), 0);
    }

    /// "Restarting the app resumes every unfinished game" (DESIGN, store), and bad bytes on
    /// disk are a clear error, never a panic: a seat's log cut short mid-write resumes
    /// without the torn record; a log damaged in the middle does not resume, and says so.
    #[test]
    fn a_saved_game_resumes_past_a_torn_write_and_refuses_a_damaged_log() {
        let dir = in_memory();
        let (ann, ben) = (key(1), key(2));
        let mut table = Session::<GreedQuest>::create(
            dir.clone(),
            meta(&ann, &ben),
            &ann,
            &[],
            false,
            Time(0),
            &mut SystemRandom,
        )
        .expect("session");
        let _ = table.pump(Time(0));
        drop(table);
        let seat = seat_dir(&dir, 0);
        let whole = seat.read("log").expect("log");
        let resume = || {
            let m = meta(&ann, &ben);
            let random = &mut SystemRandom;
            Session::<GreedQuest>::resume(dir.clone(), m, &ann, &[], false, Time(1), random)
        };
        // A crash in the middle of writing one more record.
        let mut torn = whole.clone();
        torn.extend_from_slice(&[200, 0, 0, 0, 1, 2, 3]);
        seat.write("log", &torn).expect("write");
        assert!(resume().is_ok(), "a torn tail is dropped");
        // One flipped byte inside the first record (past the file's 8-byte header and the
        // record's own 8), with a good record after it: not a torn write.
        let mut damaged = whole.clone();
        damaged.extend_from_slice(&whole[8..]);
        damaged[20] ^= 0x40;
        seat.write("log", &damaged).expect("write");
        match resume() {
            Err(NetError::Corrupt(why)) => assert!(why.contains("damaged"), "{why}"),
            Err(e) => panic!("another error: {e}"),
            Ok(_) => panic!("a damaged log resumed"),
        }
    }

    /// Ann's device, holding Ben as a bot.
    fn with_bot(ann: &SecretKey, ben: &SecretKey) -> SessionMeta {
        let mut m = meta(ann, ben);
        m.seats[1].device = ann.public();
        m.seats[1].bot = true;
        m
    }

    /// Issue 20: a full disk, then free space again, corrupted the saved game for good (the
    /// part of a batch that fitted stayed in the file, the batch was written again after
    /// it), and the seat stayed broken and silent until a restart, which then could not
    /// resume. Now the seat waits while the disk is full, holding what it would send, and
    /// plays on once a write succeeds; the files read back after a restart.
    #[test]
    fn a_full_disk_then_free_space_leaves_a_readable_game_and_the_seat_plays_on() {
        let disk = crate::store::tests::SmallDisk::over(Arc::new(MemStorage::new()), u64::MAX);
        let dir = disk.root().join("sessions").join("game");
        let (ann, ben) = (key(1), key(2));
        let m = with_bot(&ann, &ben);
        let mut table = Session::<GreedQuest>::create(
            dir.clone(),
            m.clone(),
            &ann,
            std::slice::from_ref(&ben),
            true,
            Time(0),
            &mut SystemRandom,
        )
        .expect("session");
        disk.set_room(3_000);
        let out = table.pump(Time(0));
        // Said once for each seat the disk holds up (both seats are on this device).
        assert!(
            (1..=2).contains(&out.errors.len())
                && out.errors.iter().all(|e| e.contains("could not be saved"))
                && out.errors.first() != out.errors.get(1),
            "{:?}",
            out.errors
        );
        let stuck = table.step();
        // Full, the disk is tried again (the session asks to be woken for it), the error is
        // not said twice, and nothing moves.
        let retry = table.next_timeout().expect("a retry");
        assert!(retry <= Time(1_000), "{retry:?}");
        table.timeout(retry);
        let out = table.pump(retry);
        assert!(
            out.errors.is_empty() && out.sends.is_empty(),
            "{:?}",
            out.errors
        );
        assert_eq!(table.step(), stuck);
        // Room again: the next try writes, the held messages leave, the game goes on.
        disk.make_room(1 << 30);
        table.timeout(Time(2_000));
        let out = table.pump(Time(2_000));
        assert!(
            out.notices.iter().any(|n| n.contains("saved again")),
            "{:?}",
            out.notices
        );
        assert!(table.step() > stuck, "the table stayed at step {stuck}");
        let (step, hash) = (table.step(), table.core().state_hash());
        drop(table);
        let random = &mut SystemRandom;
        let table = Session::<GreedQuest>::resume(dir, m, &ann, &[ben], true, Time(3_000), random)
            .expect("the saved game resumes");
        assert_eq!((table.step(), table.core().state_hash()), (step, hash));
    }

    /// Issue 27: "A game that ends while the disk is full leaves its result empty: the home
    /// list says 'Over' instead of who won." Ann's device keeps its games on a small real
    /// disk, which fills up just as Ben's reveal, the last message of the game, reaches her:
    /// the game ends with no room to say how. Once there is room again the session writes
    /// it, and the list of games names the winner; a result file a full disk left empty is
    /// worked out from the game's log. Skipped (with a note) where no tmpfs can be mounted.
    #[test]
    fn a_game_that_ends_on_a_full_disk_is_listed_with_its_winner_once_there_is_room() {
        use std::io::Write;
        let Some(fs) = crate::store::tests::Tmpfs::mount("ending", "8m") else {
            return;
        };
        let (ann, ben) = (key(1), key(2));
        let m = meta(&ann, &ben);
        let ann_data = fs.0.join("ann");
        let ann_folder = session_dir(
            &Folder::root(Arc::new(DiskStorage::new(&ann_data))),
            &m.session(),
        );
        let ann_dir = ann_data.join(ann_folder.path());
        let saved_meta = postcard::to_stdvec(&m).expect("the table");
        ann_folder
            .write(crate::device::saved::META_FILE, &saved_meta)
            .expect("the table");
        // Both players on autoplay: the game plays itself out.
        let mut ann_table = Session::<GreedQuest>::create(
            ann_folder,
            m.clone(),
            &ann,
            &[],
            true,
            Time(0),
            &mut SystemRandom,
        )
        .expect("Ann's session");
        let mut ben_table = Session::<GreedQuest>::create(
            in_memory(),
            m.clone(),
            &ben,
            &[],
            true,
            Time(0),
            &mut SystemRandom,
        )
        .expect("Ben's session");
        ann_table.peer_up(Time(0), ben.public());
        ben_table.peer_up(Time(0), ann.public());
        let reveal = |bytes: &ByteBuf| match Wire::decode(bytes) {
            Ok(Wire::Signed(s)) => matches!(s.body, crate::wire::Body::Reveal(_)),
            _ => false,
        };
        let ballast = fs.0.join("ballast");
        let mut to_ann: Vec<Outgoing> = Vec::new();
        let mut errors = Vec::new();
        let mut t = 0;
        while !ann_table.finished() {
            t += 50;
            assert!(t < 600_000, "the game did not end");
            for out in std::mem::take(&mut to_ann) {
                if !ballast.exists() && out.messages.iter().any(reveal) {
                    // Everything else fills the disk.
                    let mut f = std::fs::File::create(&ballast).expect("ballast");
                    while f.write_all(&[0xee; 512]).is_ok() {}
                }
                ann_table
                    .deliver(Time(t), ben.public(), out.from, out.to, &out.messages)
                    .expect("Ben's messages");
            }
            ann_table.timeout(Time(t));
            let out = ann_table.pump(Time(t));
            errors.extend(out.errors);
            for out in out.sends {
                ben_table
                    .deliver(Time(t), ann.public(), out.from, out.to, &out.messages)
                    .expect("Ann's messages");
            }
            ben_table.timeout(Time(t));
            to_ann.extend(ben_table.pump(Time(t)).sends);
        }
        assert!(ballast.exists(), "the game ended before the disk was full");
        let won = ann_table.result_words();
        assert!(won.ends_with(" won"), "{won}");
        let retry = ann_table.next_timeout();

        // Room again: at its next try the session writes how the game ended.
        std::fs::remove_file(&ballast).expect("room again");
        let t = Time(t + RETRY_STORE_AFTER);
        ann_table.timeout(t);
        let _ = ann_table.pump(t);
        drop(ann_table);
        let listed = |t: Time| {
            crate::device::saved::saved_games(
                &Folder::root(Arc::new(DiskStorage::new(&ann_data))),
                &ann,
                None,
                None,
                t,
                &mut crate::identity::SystemRandom,
            )
            .into_iter()
            .find(|g| g.session == m.session())
            .and_then(|g| g.result)
        };
        assert_eq!(listed(t), Some(won.clone()));
        let done = ann_dir.join(DONE_FILE);
        assert_eq!(std::fs::read_to_string(&done).ok(), Some(won.clone()));
        // The player was told, and the session asked to be woken to try again.
        assert!(
            errors.iter().any(|e| e.contains("could not be saved")),
            "{errors:?}"
        );
        assert!(retry.is_some_and(|r| r <= t), "{retry:?}");

        // The file as a full disk left it before this was fixed: the list works the ending
        // out from the game's log, and writes it for next time.
        std::fs::write(&done, b"").expect("emptied");
        assert_eq!(listed(t), Some(won.clone()));
        assert_eq!(std::fs::read_to_string(&done).ok(), Some(won));
    }

    /// The list of games shows the step each game is at, from a file the session writes
    /// whole and durably: at most once every `PROGRESS_EVERY` ms while the game goes on (at
    /// every step it cost each device two fsyncs and a rename before the step's messages
    /// left), and the last step once the game is over.
    #[test]
    fn the_step_for_the_list_of_games_is_written_now_and_then_and_at_the_end() {
        let (ann, ben) = (key(1), key(2));
        let m = meta(&ann, &ben);
        let (ann_dir, ben_dir) = (in_memory(), in_memory());
        let table = |dir: &Folder, key: &SecretKey| {
            Session::<GreedQuest>::create(
                dir.clone(),
                m.clone(),
                key,
                &[],
                true,
                Time(0),
                &mut SystemRandom,
            )
            .expect("session")
        };
        let (mut ann_table, mut ben_table) = (table(&ann_dir, &ann), table(&ben_dir, &ben));
        ann_table.peer_up(Time(0), ben.public());
        ben_table.peer_up(Time(0), ann.public());
        let progress = |dir: &Folder| {
            dir.read("progress")
                .ok()
                .and_then(|b| b.as_slice().try_into().ok().map(u32::from_le_bytes))
        };
        // When Ann's file changed, and to what.
        let mut written: Vec<(u64, u32)> = Vec::new();
        let mut to_ann: Vec<Outgoing> = Vec::new();
        // A quarter of a second between rounds: a short game (seen: 37 rounds) still lasts
        // several times PROGRESS_EVERY, so the file has to be written as it goes.
        let mut t = 0;
        while !ann_table.finished() {
            t += 250;
            assert!(t < 600_000, "the game did not end");
            for out in std::mem::take(&mut to_ann) {
                ann_table
                    .deliver(Time(t), ben.public(), out.from, out.to, &out.messages)
                    .expect("Ben's messages");
            }
            ann_table.timeout(Time(t));
            for out in ann_table.pump(Time(t)).sends {
                ben_table
                    .deliver(Time(t), ann.public(), out.from, out.to, &out.messages)
                    .expect("Ann's messages");
            }
            ben_table.timeout(Time(t));
            to_ann.extend(ben_table.pump(Time(t)).sends);
            if let Some(step) = progress(&ann_dir)
                && written.last().is_none_or(|(_, s)| *s != step)
            {
                written.push((t, step));
            }
        }
        let last = ann_table.step();
        assert_eq!(
            progress(&ann_dir),
            Some(last),
            "the last step, once the game is over"
        );
        assert!(
            written.len() > 2,
            "written as the game went on: {written:?}"
        );
        let (before_end, _) = written.split_at(written.len() - 1);
        for pair in before_end.windows(2) {
            assert!(
                pair[1].0 - pair[0].0 >= PROGRESS_EVERY,
                "written twice within {PROGRESS_EVERY} ms: {written:?}"
            );
        }
    }

    /// Issue 14: a person at a table with a bot asks to end the game; the bot agrees at once,
    /// the game ends there with no winner and is verified, and the screen is told so.
    /// "Keep playing" signs nothing: the offer is only no longer shown at that step.
    #[test]
    fn a_bot_agrees_to_end_the_game_as_soon_as_its_person_asks() {
        let (ann, ben) = (key(1), key(2));
        let mut table = Session::<GreedQuest>::create(
            in_memory(),
            with_bot(&ann, &ben),
            &ann,
            std::slice::from_ref(&ben),
            false,
            Time(0),
            &mut SystemRandom,
        )
        .expect("session");
        let _ = table.pump(Time(0));
        assert!(table.core().my_move(), "the table waits for Ann's card");
        let step = table.step();

        table.end_game(Time(1), false).expect("keep playing");
        let view = table.view(Time(1)).expect("a view");
        assert!(view.end.declined && view.end.agreed.is_empty());

        table.end_game(Time(2), true).expect("agree");
        let _ = table.pump(Time(2));
        assert_eq!(table.core().ended_by_agreement(), Some(step));
        assert!(table.finished());
        let view = table.view(Time(3)).expect("a view");
        assert!(view.ended_by_agreement);
        assert_eq!(view.outcome, Some(hoard_rules::Outcome::default()));
        assert_eq!(view.audit, Some(AuditVerdict::Verified));
        assert!(
            view.log
                .last()
                .is_some_and(|l| l.contains("Everyone agreed to end the game")),
            "{:?}",
            view.log.last()
        );
    }

    /// The screen's countdown: a view made while Ann's seat is to answer a reaction window
    /// says how long is left of it, less as time goes on; outside one it says nothing.
    #[test]
    fn a_view_in_a_reaction_window_counts_down_what_is_left_of_it() {
        use crate::games::{AnyInput, AnyState};
        use hoard_rules::counter::{self, Counter, Input, Phase};
        let (ann, ben) = (key(1), key(2));
        let mut m = with_bot(&ann, &ben);
        m.start = Start::new::<Counter>(&counter::Config::new(2), m.start.seats.clone(), [5; 32])
            .expect("start");
        let mut table = Session::<Counter>::create(
            in_memory(),
            m,
            &ann,
            std::slice::from_ref(&ben),
            false,
            Time(0),
            &mut SystemRandom,
        )
        .expect("session");
        // Ann only waits, so the bot plays, and Ann, holding cards, is asked to answer.
        let mut t = 0;
        loop {
            assert!(t < 120_000, "no reaction window came to Ann");
            t += 50;
            table.timeout(Time(t));
            let _ = table.pump(Time(t));
            let view = table.view(Time(t)).expect("a view");
            let AnyState::Counter { public, .. } = &view.state else {
                panic!("a game of Counter");
            };
            match &public.phase {
                Phase::Window { seats, .. } if seats.contains(&0) && view.my_turn => {
                    let left = view.reaction_left_ms.expect("a countdown in the window");
                    assert!(left > 0 && left <= 3_000, "{left} ms left");
                    let later = table.view(Time(t + 1_000)).expect("a view");
                    assert_eq!(later.reaction_left_ms, Some(left.saturating_sub(1_000)));
                    break;
                }
                _ => assert_eq!(view.reaction_left_ms, None, "{:?}", public.phase),
            }
            if view.my_turn && matches!(public.phase, Phase::Turn { .. }) {
                table
                    .play(Time(t), AnyInput::Counter(Input::Wait))
                    .expect("Ann waits");
            }
        }
    }

    /// While the disk stays full the seat's core goes on hearing the table: what it would
    /// echo piles up. Over the limit only what the table sends again is dropped, the
    /// other seats' messages, oldest first; the seat's own all wait to leave, in order.
    #[test]
    fn a_long_full_disk_drops_only_what_the_table_sends_again() {
        let (ann, ben) = (key(1), key(2));
        let session = meta(&ann, &ben).session();
        let message = |k: &SecretKey, seat: Seat, step: u32| {
            let body = crate::wire::Body::Input(vec![step as u8; 4_000]);
            let signed =
                crate::wire::Signed::sign(k, session, seat, step, Default::default(), body);
            Wire::Signed(signed).encode()
        };
        let mut broken = Broken {
            retry_at: Time(0),
            held: VecDeque::new(),
            held_bytes: 0,
        };
        let mine: Vec<Vec<u8>> = (0..10).map(|i| message(&ann, 0, i)).collect();
        for i in 0..1_000 {
            if i % 100 == 0 {
                broken.hold(0, ben.public(), mine[i / 100].clone());
            }
            broken.hold(0, ben.public(), message(&ben, 1, i as u32));
        }
        assert!(broken.held_bytes <= HELD_MAX, "{}", broken.held_bytes);
        let own: Vec<&Vec<u8>> = broken
            .held
            .iter()
            .filter(|(_, _, own)| *own)
            .map(|(_, b, _)| b)
            .collect();
        assert_eq!(own, mine.iter().collect::<Vec<_>>());
        // The newest of the others' are kept, not the oldest.
        let last = message(&ben, 1, 999);
        assert_eq!(broken.held.back().map(|(_, b, _)| b), Some(&last));
        assert!(broken.held.len() > 150, "{}", broken.held.len());
    }
}
