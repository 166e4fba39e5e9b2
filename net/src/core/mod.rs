//! The protocol core: one device's seat at one game session, as a plain state machine.
//!
//! No sockets, no clock, no disk. The driver (the iroh loop, the offline table, the
//! simulator) feeds it messages and the time, and carries out what it asks for:
//!
//! ```text
//!   Core::new(start, key, entropy, now, config)    a new session: signs this seat's accept
//!   Core::resume(saved, key, entropy, now, config) rebuild from what the store kept
//!   core.handle_message(now, from, bytes)          bytes from a peer (its iroh key)
//!   core.peer_connected(now, peer)                 a (re)connection: swap log heads
//!   core.peer_disconnected(peer)                   a link broke
//!   core.handle_timeout(now)                       when poll_timeout's time has come
//!   core.submit(now, input) / core.vote(..)        this seat's move / an away vote
//!   core.go_on_without(..) / wait_for(..)          a vote at every step, until it moves
//!   core.back(now)                                 this seat's player is back after a skip
//!   core.agree_to_end(now)                         "end the game here", for this step
//!   core.poll_persist()   -> Persist               write (durably if asked), BEFORE ...
//!   core.poll_transmit()  -> Transmit              ... sending these
//!   core.poll_timeout()   -> Option<Time>          when to call handle_timeout
//!   core.poll_event()     -> CoreEvent<G>              what happened, for the screen
//! ```
//!
//! After any call, drain `poll_persist` and write every record, making secrets and
//! [`Persist::Message`]s durable (the store fsyncs), before draining `poll_transmit`: a
//! seat must never have sent what it could forget in a crash (a sealed play's salt, a
//! signed move), or it could be made to contradict itself. A [`Persist::Replayable`] need
//! not wait on the disk: the table sends it again, or the seat makes it again the same.
//!
//! Read access for the screen: [`Core::public`], [`Core::private`], [`Core::pending`],
//! [`Core::my_move`], [`Core::seat_status`], [`Core::events_log`], [`Core::verdict`].
//!
//! How the table agrees with no leader: the engine's `pending` says what step `n` waits for;
//! every device collects the signed messages for step `n` made on the same log ("basis"),
//! and completes the step the moment the same set is in, so every device builds the same
//! log. Sealed steps are commit–reveal: a seat opens its play only once every other player
//! has shown it holds the same commitments (a digest of them, [`Wire::Holding`]), and two
//! devices holding different ones send each other theirs, so a seat that showed two
//! versions of one is caught with both signatures before anything is opened. Every other
//! signed message is echoed once to every peer, with the same effect. A seat that
//! does not deliver is shown as away; when every other seat votes to skip (or remove) it,
//! the step goes on without it and the log records that. A seat so skipped sits out the
//! beacon draws after it without a vote, until it plays an input step again. Its player,
//! back, says so ([`Body::Back`], signed on restart or by [`Core::back`]): that ends the
//! others' standing choices to go on without it, so its next turn waits for it.
//!
//! Ending by agreement: any seat may sign "I agree to end the game here" ([`Body::End`])
//! at the step the table is at. It holds for that step only. When every seat still in the
//! game (an away seat must agree too, unless the table votes to remove it) has signed
//! it for the same step on the same log, that step is recorded as
//! [`StepRecord::Ended`] instead of being played, the game is over with no winner, and the
//! reveal and the audit run as after any end. A step cannot both end and be played: a seat
//! that signed the agreement does not complete the step the ordinary way until a seat that
//! did not sign it shows it has (a message on the next step of that log, or a head); a
//! seat that has completed it never signs the agreement for it, so that agreement can no
//! longer be whole, and it tells the proposers so with a head.
//!
//! Where things are: [`Core`] is one `impl` block per seam of the protocol, a file each
//! (each a child module, so it sees the private state this file declares):
//!
//! ```text
//!   mod.rs        the public types (Core, CoreConfig, Time, Transmit, SecretRecord, Persist,
//!                 Saved, Proof, Divergence, CoreEvent, SeatStatus), the limits, and the state
//!                 the seams share (GameState, View, Held, Peer: one per seat, Origin,
//!                 Arrival, Progress)
//!   lifecycle.rs  Core::new and Core::resume: the seat's keys and accept, the store read back
//!   ingest.rs     messages in: handle_message(s), signatures checked by the batch, ingest
//!                 (check, keep, persist, echo, equivocation), admission limits per seat and
//!                 step, beacon links that came before their seat's accept
//!   sync.rs       peer_connected / peer_disconnected, handle_timeout's resync, hellos and
//!                 the history sent in answer to them, heads
//!   steps.rs      the step machine: advance, begin, try_step, step_with and one try cut
//!                 along its cases (plan, this seat's duties, owed, record, hold), apply
//!   view.rs       one step's messages sorted by kind into its View; inputs decoded and
//!                 judged against the rules
//!   holding.rs    what each device holds of a step's commitments: a digest to each peer,
//!                 theirs compared with ours, our commitments sent where they differ
//!   sealing.rs    submit (an open move, or a sealed play: its salt kept, then its
//!                 commitment), a kept sealed play committed again after a restart, this
//!                 seat's opening once the table holds the same commitments, and openings
//!                 matched to their commitments (a mismatch is a proof)
//!   draws.rs      the beacon: this seat's links, a peer's link checked against its chain,
//!                 the links and draw count of a step's draw
//!   away.rs       away seats: vote, go_on_without / wait_for (standing choices), back and
//!                 "Back", votes that arrive late or fail, the quorum, seats sitting out draws
//!   agreement.rs  ending by agreement: agree_to_end, who has agreed, the Ended step
//!   audit_end.rs  the game is over: this seat's reveal, every reveal collected, the audit
//!   replay.rs     the log replayed: a record's engine step, a past public state, rewind
//!   faults.rs     proofs checked and kept, the halt, divergences noted
//!   access.rs     poll_* for the driver, read access for the screen, small shared queries
//! ```
//!
//! A new seam of the protocol goes in a file of its own beside these, declared below.

mod access;
mod agreement;
mod audit_end;
mod away;
mod deck;
mod draws;
mod faults;
mod holding;
mod ingest;
mod lifecycle;
mod reaction;
mod replay;
mod sealing;
mod steps;
mod sync;
mod view;

use crate::audit::{Fault, SitOut, Verdict};
use crate::beacon::{self, Chain};
use crate::identity::{PublicKey, SeatKey, SecretKey, SessionId, Start};
use crate::log::StepRecord;
use crate::mental::table::{DeckPart, TableDeck};
use crate::wire::{Accept, Basis, Hash, Kind, Reveal, SignatureMemo, Signed, VoteAction, Wire};
use hoard_rules::{Game, Pending, Seat};
use ingest::{EarlyLink, Extra};
use rand_chacha::ChaCha20Rng;
use rand_core::Rng;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};
use sync::Answered;

/// A map keyed by message ids (already uniform BLAKE3 output) or slots holding them. Only
/// ever looked up, never iterated, so its order cannot leak into what devices compute.
type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<FoldHasher>>;

/// Folds the key's bytes into 64 bits: enough for keys that are mostly hash output, and
/// far cheaper than SipHash, which guards against chosen keys that cannot matter here
/// (an attacker choosing message ids would have to find BLAKE3 preimages).
#[derive(Default)]
struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Ids are uniform: their first eight bytes (and length) are plenty.
        let mut word = [0u8; 8];
        let n = bytes.len().min(8);
        word[..n].copy_from_slice(&bytes[..n]);
        self.write_u64(u64::from_le_bytes(word) ^ bytes.len() as u64);
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64)
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64)
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64)
    }
}

/// Messages further ahead of the table than this many steps are refused (they come again
/// with the next sync), so a peer cannot fill memory with far-future messages.
pub const WINDOW: u32 = 4096;

/// A peer is sent history from before the last step it signed on our log (after a crash
/// that lost the messages it had not made itself) at most once per this many resync
/// periods: otherwise a hello from an old step, paced or after each new connection, would
/// cost a whole copy of the game each time.
pub const HISTORY_BELOW_EVERY: u64 = 20;

/// What a device sends a peer in answer to its hellos (history, gaps, its own hello back)
/// is at most this many times the bytes it has received from that peer, plus
/// [`ANSWER_ALLOWANCE`]: hellos, however paced, are charged to their sender. An honest
/// peer sends a device every message it makes and echoes every other, so its credit
/// covers any catching up; one that must catch up on more (both devices restarted, a long
/// game lost) pads its hellos ([`crate::wire::Hello::pad`]) while it is behind.
pub const ANSWER_RATIO: u64 = 8;

/// Bytes a peer is answered before it has sent anything (see [`ANSWER_RATIO`]): a few steps'
/// history, so a device that restarted catches up at once.
pub const ANSWER_ALLOWANCE: u64 = 64 * 1024;

/// What a device behind the table pads each hello with (see [`ANSWER_RATIO`]).
pub const HELLO_PAD: usize = 4 * 1024;

/// Bytes of one seat's messages for steps after the next that a device keeps. A table
/// ahead of a device sends it about a kilobyte and a half per seat and step, so this holds
/// hundreds of steps; a seat that signs junk far ahead fills only this.
pub const FUTURE_BUDGET: usize = 1 << 20;

/// A peer whose messages have been refused this many times (a forged frame counts once)
/// is to be cut off for a while: the core asks for it with [`CoreEvent::DropLink`].
pub const REFUSALS_TO_DROP: u32 = 32;

/// A point in time, in milliseconds on the driver's monotonic clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub u64);

impl Time {
    pub fn from_millis(ms: u64) -> Time {
        Time(ms)
    }
    pub fn as_millis(self) -> u64 {
        self.0
    }
    /// This time plus `ms` milliseconds.
    pub fn plus(self, ms: u64) -> Time {
        Time(self.0.saturating_add(ms))
    }
}

/// How a core behaves. Every device at a table must use the same `sit_out`.
pub struct CoreConfig<G: Game> {
    /// A seat that owes the table something, and whose device has not been heard from for
    /// this long, is shown as away (ms); a player who has not moved for six times this is
    /// away too, device up or not.
    pub away_after: u64,
    /// When the table has not moved for this long, ask every peer for what we lack (ms).
    pub resync_after: u64,
    /// Links in this device's beacon chain.
    pub chain_len: u32,
    /// How a skipped seat sits out an input step; `None`: skipping is possible only at
    /// beacon draws and at the audit (by removing the seat).
    pub sit_out: Option<SitOut<G>>,
    /// For simulators running many devices in one process only: see [`SignatureMemo`].
    pub memo: Option<SignatureMemo>,
    /// How this device times its seat's answers at a [`hoard_rules::Seal::Reaction`] step.
    pub reaction: ReactionTiming,
}

/// When a seat's answer to a play leaves its device, so that nothing about its hand shows
/// in the timing (DESIGN.md, "Reactions"). Every device at a table uses the same numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReactionTiming {
    /// No answer leaves before this long after the window opened here (ms): a player who
    /// passes at once looks like one who thought.
    pub min_ms: u64,
    /// The window: when it ends the device passes for its player, whatever the hand
    /// holds, unless the player answered by hand first. A table setting: every core takes
    /// it from the game's options ([`hoard_rules::Game::reaction_window`]).
    pub window: hoard_rules::ReactionWindow,
    /// Hold every answer to the window's end (bots: they answer as fast whatever they
    /// hold, so they wait the whole window).
    pub hold_to_end: bool,
}

impl ReactionTiming {
    /// The window in milliseconds, as the core's clock counts.
    pub fn window_ms(&self) -> u64 {
        u64::from(self.window.ms())
    }
}

impl Default for ReactionTiming {
    fn default() -> Self {
        ReactionTiming {
            min_ms: 1_000,
            window: hoard_rules::ReactionWindow::USUAL,
            hold_to_end: false,
        }
    }
}

impl<G: Game> Clone for CoreConfig<G> {
    fn clone(&self) -> Self {
        CoreConfig {
            away_after: self.away_after,
            resync_after: self.resync_after,
            chain_len: self.chain_len,
            sit_out: self.sit_out,
            memo: self.memo.clone(),
            reaction: self.reaction,
        }
    }
}

impl<G: Game> Default for CoreConfig<G> {
    fn default() -> Self {
        CoreConfig {
            away_after: 30_000,
            resync_after: 1_500,
            chain_len: beacon::DEFAULT_CHAIN_LEN,
            sit_out: None,
            memo: None,
            reaction: ReactionTiming::default(),
        }
    }
}

/// Bytes to send to one peer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transmit {
    pub to: PublicKey,
    pub bytes: Vec<u8>,
}

/// A secret this device must keep across restarts (the store's secrets file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SecretRecord {
    /// The seat's game secret and beacon chain seed, made before its accept is signed.
    Keys {
        secret: Hash,
        chain_seed: Hash,
        chain_len: u32,
    },
    /// A sealed input and its salt, written before its commitment is sent.
    Sealed {
        step: u32,
        log: Hash,
        salt: Hash,
        input: Vec<u8>,
    },
    /// The player's standing choice about an away seat ([`Core::go_on_without`]: the step
    /// it was left at, and skip or remove), or its end ([`Core::wait_for`], `None`): kept so
    /// that a restarted device goes on choosing what its player chose. The last one about a
    /// seat is the one that holds.
    Standing {
        target: Seat,
        choice: Option<(u32, VoteAction)>,
    },
}

/// A record the store writes before the transmits that follow it (durably, unless it is
/// [`Persist::Replayable`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Persist {
    /// A message this seat signed and could not make again the same way after a crash (an
    /// open move, a vote, ...), canonical wire bytes: durable before it leaves, so that the
    /// seat can never forget what it said and then say something else.
    Message(Vec<u8>),
    /// A message kept without waiting on the disk: a peer's (lost in a crash, it comes
    /// again from the table), or one of ours that the seat makes again byte for byte after
    /// a crash (a sealed play's commitment or opening from the salt and input it kept, a
    /// link of its chain).
    Replayable(Vec<u8>),
    /// A secret, for the session's secrets file.
    Secret(SecretRecord),
}

/// What a store kept of a session: enough for [`Core::resume`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Saved {
    pub start: Option<Start>,
    pub messages: Vec<Vec<u8>>,
    pub secrets: Vec<SecretRecord>,
}

/// Proof that a seat cheated, checkable by anyone holding the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Proof {
    /// Two different messages signed by one seat for the same slot on the same log: for
    /// a sealed step, different commitments shown to different peers.
    Equivocation { first: Signed, second: Signed },
}

impl Proof {
    /// Checks the proof against the start and says what it proves; `None` if it proves
    /// nothing (bad signatures, messages that do not conflict).
    pub fn check(&self, start: &Start) -> Option<Fault> {
        let session = start.session();
        let Proof::Equivocation {
            first: a,
            second: b,
        } = self;
        let key = &start.seats.get(a.seat as usize)?.key;
        let same = a.seat == b.seat && a.step == b.step && a.basis.log == b.basis.log;
        if !same || !a.verify(&session, key) || !b.verify(&session, key) {
            return None;
        }
        let who = format!("{} (seat {})", start.name(a.seat), a.seat);
        (a.kind() == b.kind() && a != b).then(|| Fault {
            seat: Some(a.seat),
            step: Some(a.step),
            what: match a.kind() {
                Kind::Commit => format!(
                    "{who} showed different sealed plays to different players at step {}",
                    a.step
                ),
                _ => format!(
                    "{who} signed two different versions of one message at step {}",
                    a.step
                ),
            },
        })
    }
}

/// Two devices on the same log whose public states differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    pub seat: Seat,
    pub step: u32,
    pub ours: Hash,
    pub theirs: Hash,
}

/// What happened, for the screen and the game log; `E` is the game's event type.
#[derive(Clone, Debug, PartialEq)]
pub enum CoreEvent<E> {
    /// Every seat has accepted: the game is on.
    Began,
    /// A step completed; the engine's events for it.
    Stepped { step: u32, events: Vec<E> },
    /// A seat's sealed play is in (its content stays hidden).
    Committed { step: u32, seat: Seat },
    /// A seat has owed the table something for too long.
    Away { seat: Seat },
    /// An away seat delivered.
    Back { seat: Seat },
    /// A seat voted about an away seat.
    Voted {
        step: u32,
        voter: Seat,
        target: Seat,
        action: VoteAction,
    },
    /// The table skipped a seat at a step.
    Skipped { step: u32, seat: Seat },
    /// The table removed a seat from this step on.
    Removed { step: u32, seat: Seat },
    /// A seat agreed to end the game at this step.
    EndProposed { step: u32, seat: Seat },
    /// Every seat still in the game agreed: the game ended at this step, unplayed.
    Ended { step: u32 },
    /// A card turned up that its deck cannot hold (a card twice, or one never in it): a
    /// shuffle was dishonest. The game ends at this step; the audit names the shuffler.
    DeckBroken { step: u32, what: String },
    /// The game stopped at `step` for a reason no seat is to blame for (a seat removed
    /// before it shuffled the deck took a part of every card's lock with it).
    Stopped { step: u32, what: String },
    /// This device had gone ahead on a step the table had meanwhile voted to skip it in;
    /// it went back to that step and caught up with the table.
    Rewound { step: u32 },
    /// A seat's public state differs from ours on the same log: a determinism failure.
    Diverged(Divergence),
    /// A proven fault: the game stops here.
    Halted(Fault),
    /// The audit is done.
    Audited(Verdict),
    /// The device at this seat keeps sending messages that are refused (forged, made up,
    /// or more than a game can use): the driver should close its link for a while. It can
    /// come back and sync like any device that dropped off.
    DropLink { seat: Seat },
}

/// What the screen shows about one seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatStatus {
    /// The table waits for something from this seat.
    pub owed: bool,
    /// Since when it has been waited for.
    pub owed_since: Option<Time>,
    /// Waited for, and its device not heard from for `away_after` (or its player has not
    /// moved for several times that): see `Core::away_at`. Never this device's own seat.
    pub away: bool,
    /// Its sealed play (or move) for the current step is in.
    pub committed: bool,
    /// Removed by the table.
    pub removed: bool,
}

/// A message held by the core: decoded, and its canonical bytes for resending.
struct Held {
    wire: Wire,
    bytes: Vec<u8>,
}

/// The state of the game itself, rebuilt from the log whenever needed.
struct GameState<G: Game> {
    public: G::Public,
    /// `G::pending(&public)`, kept because it is asked for on every message; `Over` once
    /// the table agreed to end the game.
    pending: Pending,
    /// Indexed by seat; only this device's own seat is `Some`.
    privates: Vec<Option<G::Private>>,
    records: Vec<StepRecord>,
    /// `bases[n]` is the basis of step `n`; one longer than `records`.
    bases: Vec<Basis>,
    /// The engine's events, by step.
    events: Vec<(u32, G::Event)>,
    /// Per seat: the last verified beacon link and its index.
    links: Vec<(u32, Hash)>,
    /// Beacon draws made so far.
    draws: u32,
    /// Seats removed, and the step from which.
    removed: BTreeMap<Seat, u32>,
    /// Steps at which seats were skipped (including removals).
    skipped: BTreeSet<(u32, Seat)>,
    /// The shared hidden decks, moved by every deck step and every card an input moves.
    deck: TableDeck,
}

/// Messages of one step on our log, sorted by kind, built up message by message.
struct View<G: Game> {
    /// The step and basis this view is of.
    n: u32,
    basis: Basis,
    /// How many of the step's messages (in arrival order) have been sorted in.
    seen: usize,
    /// Commitment message ids by seat, and openings still waiting for theirs.
    commit_ids: BTreeMap<Seat, Hash>,
    open_ids: Vec<(Seat, Hash)>,
    inputs: BTreeMap<Seat, (Vec<u8>, G::Input)>,
    commits: BTreeMap<Seat, Hash>,
    opens: BTreeMap<Seat, (Vec<u8>, G::Input)>,
    links: BTreeMap<Seat, Hash>,
    /// target -> voter -> action
    votes: BTreeMap<Seat, BTreeMap<Seat, VoteAction>>,
    reveals: BTreeMap<Seat, Reveal>,
    /// Seats that agreed to end the game at this step.
    ends: BTreeSet<Seat>,
    /// Each seat's deck part for this step (message id and part), as it arrived.
    deck: BTreeMap<Seat, (Hash, DeckPart)>,
    /// Seats whose deck part was checked and found good.
    deck_ok: BTreeSet<Seat>,
    /// Each seat's opened escrow parts at this step (checked on arrival).
    escrow: BTreeMap<Seat, Vec<crate::mental::table::Opened>>,
    /// A card of this step turned up as no card its deck could hold: a shuffle was
    /// dishonest, and the game stops here for the audit to name whose.
    dishonest: Option<String>,
}

impl<G: Game> View<G> {
    fn new(n: u32, basis: Basis) -> Self {
        View {
            n,
            basis,
            seen: 0,
            commit_ids: BTreeMap::new(),
            open_ids: Vec::new(),
            inputs: BTreeMap::new(),
            commits: BTreeMap::new(),
            opens: BTreeMap::new(),
            links: BTreeMap::new(),
            votes: BTreeMap::new(),
            reveals: BTreeMap::new(),
            ends: BTreeSet::new(),
            deck: BTreeMap::new(),
            deck_ok: BTreeSet::new(),
            escrow: BTreeMap::new(),
            dishonest: None,
        }
    }
}

/// Where a message came from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// Made here: persist and send to every peer.
    Own,
    /// From a peer: persist and echo to the others.
    Peer(Seat),
    /// From our own store at resume: already persisted and sent.
    Store,
}

/// A message as it arrived, decoded, not yet checked.
struct Arrival {
    wire: Wire,
    bytes: Vec<u8>,
    id: Hash,
}

/// The result of trying to complete the current step.
enum Progress {
    /// The step completed (or we sent something): look again.
    Again,
    /// Waiting for these seats.
    Waiting(BTreeSet<Seat>),
}

/// What a device knows and keeps about one seat at the table and the device that holds it
/// (the core keeps one per seat, its own seat's too, where only the seat's half is used).
struct Peer {
    // The seat at the table.
    /// Its signed accept: its keys for the beacon and the deck.
    accept: Option<Accept>,
    /// Since when the table has waited on it, if it does.
    owed_since: Option<Time>,
    /// Shown away: see `Core::away_at`.
    away: bool,
    /// This seat's choice to go on without it until its player moves again: the step the
    /// choice was made at and the vote (skip or remove) this seat signs at every step that
    /// waits on it. A choice of this device, not of the table's log (each vote is still a
    /// signed message of its step).
    standing: Option<(u32, VoteAction)>,
    /// Its latest beacon link checked on arrival: its step, its index in the chain, and the
    /// link, so the next one is checked with a hash or two.
    link_tip: Option<(u32, u32, Hash)>,
    /// Bytes held of its messages for steps after the next: at most [`FUTURE_BUDGET`];
    /// more wait until they are due (they come again with the sync).
    future: usize,

    // The link with its device.
    /// Whether the device has a live connection to it, as the driver last said (`None`:
    /// it never said, as in the simulator).
    linked: Option<bool>,
    /// When this device last heard anything from it (a hello counts: a device that is up
    /// says hello whenever the table is quiet).
    heard: Time,
    /// Its latest hello: the step it waits on and the ids it holds for it.
    have: Option<(u32, Vec<Hash>)>,
    /// Its latest statements of the commitments it holds ([`Wire::Holding`]): the digest by
    /// step, for the last few steps it stated.
    holding: BTreeMap<u32, crate::wire::HoldingDigest>,
    /// The last step at which it was sent our commitments because it held others.
    compared: Option<u32>,
    /// The step from which our history went to it since it last (re)connected: a later
    /// hello from it then needs only the gaps of its own step, not the history again
    /// (every new message since went to it as it came).
    streamed: Option<u32>,
    /// The step from which it last got every seat's messages on asking with a full hello:
    /// asking again from the same step gets only the gaps of that step, so a device stuck
    /// for another reason is not sent the whole game at every resync.
    sent_all: Option<u32>,
    /// What went to it in answer to its hellos since our step last changed.
    answered: Answered,
    /// When it was last sent history from before the last step it signed on our log (what
    /// it has shown it holds): once per [`HISTORY_BELOW_EVERY`] resync periods, whatever it
    /// asks and however often it connects. Kept apart for the history of this seat's own
    /// messages (and absent seats') and for every seat's (asked for by a device behind that
    /// has heard nothing for a while): a device back from a power cut gets the first when it
    /// connects, and still needs the second when a seat whose device it cannot reach yet
    /// holds it up.
    below_floor: [Option<Time>; 2],
    /// The lowest step we have asked it for history from, since it connected: a link or an
    /// opening of another seat is taken from it only as such history.
    asked: Option<u32>,
    /// Its messages refused since it was last reported ([`CoreEvent::DropLink`]).
    refusals: u32,
    /// Bytes received from it (frames not refused whole), and bytes sent in answer to its
    /// hellos, since this core started: the second is held to [`ANSWER_RATIO`] times the
    /// first, plus [`ANSWER_ALLOWANCE`].
    received: u64,
    answered_bytes: u64,
}

impl Peer {
    fn new(now: Time) -> Peer {
        Peer {
            accept: None,
            owed_since: None,
            away: false,
            standing: None,
            link_tip: None,
            future: 0,
            linked: None,
            heard: now,
            have: None,
            holding: BTreeMap::new(),
            compared: None,
            streamed: None,
            sent_all: None,
            answered: Answered::default(),
            below_floor: [None; 2],
            asked: None,
            refusals: 0,
            received: 0,
            answered_bytes: 0,
        }
    }

    /// A new connection to its device: what went over the old one may be lost, so what
    /// it was sent and what it said it holds start again.
    fn connected(&mut self) {
        self.linked = Some(true);
        self.streamed = None;
        self.sent_all = None;
        self.answered = Answered::default();
        self.asked = None;
        self.have = None;
        self.holding.clear();
        self.compared = None;
    }
}

/// One device's seat at one session. See the module docs for how to drive it.
pub struct Core<G: Game> {
    cfg: CoreConfig<G>,
    /// Modified software, for the threat tests only: changes this seat's own deck parts
    /// before it signs them. Nothing else ever sets it.
    crooked_deck: Option<fn(&mut DeckPart)>,
    /// The reaction window this device is in: its step, log, and when it opened here.
    reaction_at: Option<(u32, Hash, Time)>,
    /// A card this seat was given that opens to no card of its deck, to show the table.
    complaint: Option<hoard_rules::Handle>,
    start: Start,
    session: SessionId,
    config: G::Config,
    key: SecretKey,
    me: Seat,
    keys: Vec<PublicKey>,
    verifiers: Vec<SeatKey>,

    secret: Hash,
    chain: Chain,
    /// Our sealed inputs by (step, log): salt and input bytes.
    sealed: BTreeMap<(u32, Hash), (Hash, Vec<u8>)>,
    rng: ChaCha20Rng,

    /// Boxed: a catching-up device adds thousands at a time, and the map's regrowth then
    /// moves pointers, not whole messages.
    msgs: IdMap<Hash, Box<Held>>,
    /// Inputs decoded from messages, by message id (`None`: unreadable).
    decoded: IdMap<Hash, Option<G::Input>>,
    /// `check_input` verdicts on inputs, by message id: fixed by the message's basis.
    checked: IdMap<Hash, Option<String>>,
    /// The ids of the messages held for each step, in arrival order, with each one's author
    /// (so a history for a peer is gathered without looking up the rest).
    by_step: BTreeMap<u32, Vec<(Hash, Seat)>>,
    /// (seat, step, kind, log) -> message id: one message per slot and log.
    slots: IdMap<(Seat, u32, Kind, Hash), Hash>,
    /// What this device knows of each seat and its device, by seat (this seat's own too).
    peers: Vec<Peer>,

    game: Option<GameState<G>>,
    /// The current step's view, kept between messages.
    view: Option<View<G>>,
    /// This seat's player is at the device (the app restarted, or the player said so): the
    /// seat says [`Body::Back`] once its log shows the table went on without it (a restarted
    /// device learns that as it catches up). Over once said, or once it moves at the
    /// table's step: a player who then walks away can be skipped again.
    back_due: bool,
    /// The furthest step at which this seat had signed a move or a vote, by its store, when
    /// the device started again (0 for a new game), and when that was. Below that step the
    /// device hears again steps the table played with it (what it heard was lost with the
    /// crash): each went on otherwise, and a vote to go on without a seat there would split
    /// this device from every peer that holds the step. It signs none about a seat whose
    /// device it has heard since it started (which sends its history); a seat never heard
    /// since may be gone for good with the only copy of its move, and the table must go on.
    signed_to: (u32, Time),
    quiet_since: Time,
    /// Beacon links that came before their seat's accept (which holds the chain's head, so
    /// nothing could check them yet): a few per seat, taken in when the accept comes. Links
    /// are not echoed, so one dropped here would be missing until the next resync.
    early_links: Vec<EarlyLink>,
    /// What is kept per (seat, step) beyond our own log's slots.
    extra: IdMap<(Seat, u32), Extra>,
    /// Peers known to hold every commitment of the current sealed step (step, log, bits).
    confirmed: (u32, Hash, u16),
    /// The step and log this seat last told its peers it holds every commitment of
    /// ([`Wire::Holding`]).
    holding_sent: Option<(u32, Hash)>,
    /// Heads this seat signed, by step and log: a step completed again on another log
    /// (after a rewind, or a restart that lost what the first completion was made of) is
    /// told again.
    heads_sent: BTreeSet<(u32, Hash)>,
    diverged: BTreeSet<(Seat, u32)>,
    divergences: Vec<Divergence>,
    proofs: Vec<Proof>,
    halted: Option<Fault>,
    verdict: Option<Verdict>,
    /// Every seat's reveal as the audit took them (`None` for a seat that never revealed):
    /// empty until the audit.
    revealed: Vec<Option<Reveal>>,

    persists: VecDeque<Persist>,
    transmits: VecDeque<Transmit>,
    events: VecDeque<CoreEvent<G::Event>>,
}

fn random_hash(rng: &mut ChaCha20Rng) -> Hash {
    let mut h = [0u8; 32];
    rng.fill_bytes(&mut h);
    h
}

fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    postcard::to_stdvec(value).unwrap_or_default()
}
